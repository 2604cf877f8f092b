//! [`Library`]: the user-data folder, its index and manifest. Opening and
//! consistent views for readers; the write path (each write one atomic
//! commit under the writer lock) lives in `library/write.rs` (the lock,
//! enable, disable, remove, settings) and `library/add.rs` (adding editions).

mod add;
#[cfg(test)]
mod tests;
mod write;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use lectern_index::Index;

pub use self::add::{AddOutcome, AddReport, Progress, parse_format};
pub use crate::suggest::did_you_mean;
pub(crate) use crate::suggest::levenshtein;
pub use crate::view::View;

use crate::error::LibraryError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// May add, switch and remove editions (creates the folder if needed).
    ReadWrite,
    /// Never writes to the folder (site replicas, `--read-only`).
    ReadOnly,
}

/// One library: a user-data folder.
pub struct Library {
    root: PathBuf,
    mode: OpenMode,
    index: Index,
    view: RwLock<Arc<View>>,
    writing: Mutex<()>,
    /// Answer repeated searches from the snapshot's result cache (on unless
    /// `LECTERN_RESULT_CACHE=0`; benchmarks of the engine turn it off).
    result_cache: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library").field("root", &self.root).field("mode", &self.mode).finish_non_exhaustive()
    }
}

impl Library {
    /// Whether repeated searches are answered from the result cache.
    pub fn result_cache(&self) -> bool {
        self.result_cache.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Turns the result cache on or off (the search benchmark measures the
    /// engine, so it turns it off).
    pub fn set_result_cache(&self, on: bool) {
        self.result_cache.store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Opens (ReadWrite: creating if needed) the library in `root`. An
    /// existing library on read-only storage opens either way and reads as
    /// usual (no lock file is needed to read); its writes are refused.
    pub fn open(root: &Path, mode: OpenMode) -> Result<Library, LibraryError> {
        let index_dir = root.join("index");
        let index = match mode {
            OpenMode::ReadWrite => {
                create_private_dir(root)?;
                if !index_dir.is_dir() {
                    // (A mistyped `--user-data` makes a library in a folder of
                    // other things, `/usr/lib` for an unset `$DIR/lib`.)
                    if std::fs::read_dir(root).is_ok_and(|mut entries| entries.next().is_some()) {
                        tracing::warn!(
                            "no library in {}, which holds other files: making one there (give --user-data a folder of its own)",
                            root.display()
                        );
                    }
                    std::fs::create_dir(&index_dir).map_err(|e| crate::lock::refused(root, e))?;
                }
                Index::open(&index_dir)?
            }
            OpenMode::ReadOnly => {
                if !index_dir.is_dir() {
                    return Err(LibraryError::NotFound(format!(
                        "no library at {}; build one with `lectern add --site CONFIG --user-data {}`",
                        root.display(),
                        root.display()
                    )));
                }
                Index::open_read_only(&index_dir)?
            }
        };
        let view = Arc::new(View::new(index.snapshot(), crate::assets::dir(root))?);
        Ok(Library {
            root: root.to_path_buf(),
            mode,
            index,
            view: RwLock::new(view),
            writing: Mutex::new(()),
            result_cache: std::sync::atomic::AtomicBool::new(
                std::env::var("LECTERN_RESULT_CACHE").map_or(true, |v| v != "0"),
            ),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn mode(&self) -> OpenMode {
        self.mode
    }

    /// The view of the current generation if it is already built (never
    /// builds one: for callers that must not block).
    pub fn current_view(&self) -> Option<Arc<View>> {
        self.view_of(&self.index.snapshot())
    }

    /// The view built last, if it reads `snapshot`'s generation.
    fn view_of(&self, snapshot: &lectern_index::Snapshot) -> Option<Arc<View>> {
        let cached = self.view.read().ok()?;
        (cached.payload == snapshot.payload()).then(|| cached.clone())
    }

    /// The current view. Cheap: re-parses the manifest only after a commit.
    pub fn view(&self) -> Result<Arc<View>, LibraryError> {
        let snapshot = self.index.snapshot();
        if let Some(view) = self.view_of(&snapshot) {
            return Ok(view);
        }
        let fresh = Arc::new(View::new(snapshot, crate::assets::dir(&self.root))?);
        *self.view.write().expect("view lock") = fresh.clone();
        Ok(fresh)
    }

    /// Picks up a commit made by another process (servers call this every
    /// 250 ms). Returns true when the generation's content changed.
    pub fn refresh(&self) -> Result<bool, LibraryError> {
        Ok(self.index.refresh()?)
    }

    /// Starts a thread that calls [`Library::refresh`] every `every`, so a
    /// server picks up generations made by other processes; it stops when
    /// the returned handle is dropped.
    pub fn watch(self: &Arc<Self>, every: Duration) -> Watcher {
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (library, flag) = (Arc::clone(self), Arc::clone(&stop));
        let thread = std::thread::Builder::new()
            .name("lectern-refresh".into())
            .spawn(move || {
                while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                    std::thread::park_timeout(every);
                    match library.refresh() {
                        Ok(true) => tracing::info!("picked up a new generation"),
                        Ok(false) => {}
                        Err(e) => tracing::warn!("refreshing the library failed: {e}"),
                    }
                }
            })
            .ok();
        Watcher { stop, thread }
    }

    /// Fails with a clear refusal when the library folder `root` cannot be
    /// written (read-only storage), before a write that would move files
    /// there (`repair`) starts; another writer at work is no refusal.
    pub fn check_writable(root: &Path) -> Result<(), LibraryError> {
        match crate::lock::WriterLock::acquire(&root.join("lock"), Duration::ZERO, &mut |_| {}, None) {
            Ok(_) | Err(LibraryError::WriterBusy { .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Verifies every index file's checksum.
    pub fn verify(&self) -> Result<(), LibraryError> {
        Ok(self.index.verify()?)
    }
}

/// Stops the refresh thread of [`Library::watch`] when dropped.
#[derive(Debug)]
pub struct Watcher {
    stop: Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// Creates the folder (and parents) with mode 0700 for the last component.
fn create_private_dir(root: &Path) -> Result<(), LibraryError> {
    if root.is_dir() {
        return Ok(());
    }
    std::fs::create_dir_all(root).map_err(|e| crate::lock::refused(root, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| crate::lock::refused(root, e))?;
    }
    Ok(())
}
