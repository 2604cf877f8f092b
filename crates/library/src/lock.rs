//! The writer lock: one writer per user-data folder at a time, across
//! processes (`lectern add` beside a running server).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::error::{LibraryError, writer};

/// Held while writing; released on drop (or when the process dies).
#[derive(Debug)]
pub(crate) struct WriterLock {
    _file: File,
}

impl WriterLock {
    /// Takes the lock, waiting up to `wait` for another writer to finish.
    /// `on_wait` is told once who holds it, so a CLI can say why it waits.
    pub(crate) fn acquire(
        path: &Path,
        wait: Duration,
        on_wait: &mut dyn FnMut(&str),
    ) -> Result<WriterLock, LibraryError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| LibraryError::io(path, e))?;
        let start = Instant::now();
        let mut told = false;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = file.seek(SeekFrom::Start(0)).and_then(|_| file.read_to_string(&mut holder));
                    let holder = holder.trim();
                    let holder = (!holder.is_empty()).then(|| holder.to_owned());
                    if start.elapsed() >= wait {
                        let library = path.parent().unwrap_or(path).display().to_string();
                        return Err(LibraryError::WriterBusy { library, holder });
                    }
                    if !told {
                        on_wait(&format!(
                            "waiting for {} to finish changing the library...",
                            writer(&holder)
                        ));
                        told = true;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(LibraryError::io(path, e)),
            }
        }
        let _ = file.set_len(0);
        let _ = file.seek(SeekFrom::Start(0));
        let _ = write!(file, "{}", std::process::id());
        let _ = file.flush();
        Ok(WriterLock { _file: file })
    }
}
