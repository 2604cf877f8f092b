//! The writer lock: one writer per user-data folder at a time, across
//! processes (`lectern add` beside a running server), and the clear refusal
//! of a folder on read-only storage, where no writer can ever run.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// A set `cancel` (the client went away) stops the wait: nothing is written.
    pub(crate) fn acquire(
        path: &Path,
        wait: Duration,
        on_wait: &mut dyn FnMut(&str),
        cancel: Option<&AtomicBool>,
    ) -> Result<WriterLock, LibraryError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| refused(path.parent().unwrap_or(path), e))?;
        let start = Instant::now();
        let mut told = false;
        loop {
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Err(LibraryError::Busy(
                    "the change was not made: its request was given up while it waited for another writer"
                        .into(),
                ));
            }
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

/// A write to `folder` that failed: on read-only storage (a read-only mount,
/// a package-managed path, no write permission) a clear refusal saying what
/// still works; any other failure as it is.
pub(crate) fn refused(folder: &Path, e: std::io::Error) -> LibraryError {
    match e.kind() {
        std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied => {
            LibraryError::InvalidArgument(format!(
                "the library folder {} is read-only ({e}): it can be listed, searched, read and served \
                 (`lectern serve --site --read-only`), but not changed (add, enable, disable, remove, \
                 config set, repair); copy it to writable storage, or pass --user-data with a writable folder",
                folder.display()
            ))
        }
        _ => LibraryError::io(folder, e),
    }
}
