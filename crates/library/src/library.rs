//! [`Library`]: the user-data folder, its index and manifest. Opening and
//! consistent views for readers; the write path (each write one atomic
//! commit under the writer lock) lives in `library/write.rs` (the lock,
//! enable, disable, remove, settings) and `library/add.rs` (adding editions).

mod add;
mod write;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use lectern_index::{Index, Snapshot};

pub use self::add::{AddOutcome, AddReport, Progress, parse_format};
use crate::edition::{EditionId, EditionRecord};
use crate::error::LibraryError;
use crate::manifest::Manifest;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// May add, switch and remove editions (creates the folder if needed).
    ReadWrite,
    /// Never writes to the folder (site replicas, `--read-only`).
    ReadOnly,
}

/// A consistent view for readers: a searcher and the manifest committed with it.
pub struct View {
    pub snapshot: Snapshot,
    pub manifest: Manifest,
    pub generation: String,
    payload: String,
    /// Page listings of the site's scopes, built once per view (so once per
    /// generation): a listing or substring search then starts at once.
    pub(crate) scopes: Mutex<std::collections::HashMap<String, Arc<crate::pages::Scope>>>,
    /// Each edition's page table, shared by every scope that lists it.
    pub(crate) tables: Mutex<std::collections::HashMap<String, Arc<crate::pages::PageTable>>>,
}

impl std::fmt::Debug for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("View").field("generation", &self.generation).finish_non_exhaustive()
    }
}

impl View {
    /// Fails with `generation_changed` when `expected` is given and not current.
    pub fn check_generation(&self, expected: Option<&str>) -> Result<(), LibraryError> {
        match expected {
            Some(g) if !g.is_empty() && g != self.generation => Err(LibraryError::GenerationChanged {
                expected: g.to_owned(),
                current: self.generation.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// An enabled or disabled edition by id, with a "did you mean" on a miss.
    pub fn edition(&self, id: &str) -> Result<&EditionRecord, LibraryError> {
        let installed = || crate::settings::listing(self.manifest.editions.iter().map(|e| e.id.as_str()));
        let canonical = id
            .parse::<EditionId>()
            .map_err(|e| LibraryError::InvalidArgument(format!("{e}; installed: {}", installed())))?
            .to_string();
        self.manifest.edition(&canonical).ok_or_else(|| {
            let suggestion = did_you_mean(id, self.manifest.editions.iter().map(|e| e.id.as_str()));
            LibraryError::NotFound(format!(
                "no edition {id:?} is installed{}; installed: {}",
                suggestion.map(|s| format!(" (did you mean {s}?)")).unwrap_or_default(),
                installed()
            ))
        })
    }
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

    /// Opens (ReadWrite: creating if needed) the library in `root`.
    pub fn open(root: &Path, mode: OpenMode) -> Result<Library, LibraryError> {
        let index_dir = root.join("index");
        let index = match mode {
            OpenMode::ReadWrite => {
                create_private_dir(root)?;
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
        let view = Arc::new(make_view(index.snapshot())?);
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
        let fresh = Arc::new(make_view(snapshot)?);
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

fn make_view(snapshot: Snapshot) -> Result<View, LibraryError> {
    let payload = snapshot.payload().to_owned();
    let manifest = Manifest::from_payload(&payload)?;
    let generation = manifest.generation();
    Ok(View { snapshot, manifest, generation, payload, scopes: Mutex::default(), tables: Mutex::default() })
}

/// Creates the folder (and parents) with mode 0700 for the last component.
fn create_private_dir(root: &Path) -> Result<(), LibraryError> {
    if root.is_dir() {
        return Ok(());
    }
    std::fs::create_dir_all(root).map_err(|e| LibraryError::io(root, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| LibraryError::io(root, e))?;
    }
    Ok(())
}

/// The closest candidate by edit distance, if close enough to suggest.
pub fn did_you_mean<'a>(input: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let input_l = input.to_lowercase();
    candidates
        .map(|c| (levenshtein(&input_l, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= (c.chars().count() / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

pub(crate) fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_pick_the_nearest_edition() {
        let ids = ["postgresql@18/zh-Hans", "postgresql@18/en", "click@latest/en"];
        assert_eq!(did_you_mean("postgresql@18/zh-hant", ids.into_iter()), Some("postgresql@18/zh-Hans"));
        assert_eq!(did_you_mean("nothing-like-it", ids.into_iter()), None);
    }
}
