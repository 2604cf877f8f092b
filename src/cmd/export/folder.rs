//! The folder a static export writes: the checks before writing (a folder,
//! writable, empty or an earlier export), writes that leave unchanged files
//! alone (same bytes: not rewritten, so their times stay), and the manifest
//! (`.lectern-export.json`) that lists the files the export wrote, so the
//! next export removes those of pages no longer published and nothing else.

use std::collections::BTreeSet;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

/// The manifest's name in the export folder.
pub const MANIFEST: &str = ".lectern-export.json";
/// The manifest's format; another one is refused, not guessed at.
const FORMAT: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    format: u32,
    generation: String,
    /// Relative, `/`-separated paths of the files the export wrote.
    files: BTreeSet<String>,
}

/// An export folder, checked and ready for writes.
pub struct Folder {
    root: PathBuf,
    /// Held while the export writes: a second export into the same folder
    /// is refused instead of interleaving its writes with this one's.
    _lock: std::fs::File,
    /// What the last export wrote (empty for a first export).
    earlier: BTreeSet<String>,
}

/// What one write did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Write {
    New,
    Changed,
    Unchanged,
}

impl Folder {
    /// Checks `root` (creating it when missing): it must be a folder this
    /// process can write, and either empty, an earlier export (it holds a
    /// manifest), or `force` must be given.
    pub fn open(root: &Path, force: bool) -> Result<Folder> {
        match std::fs::metadata(root) {
            Ok(m) if !m.is_dir() => {
                bail!("--out {} is not a folder; give a folder to write the site into", root.display())
            }
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => std::fs::create_dir_all(root)
                .with_context(|| format!("creating the export folder {}", root.display()))?,
            Err(e) => return Err(e).with_context(|| format!("reading the export folder {}", root.display())),
        }
        check_writable(root)?;
        let lock = lock(root)?;
        let earlier = match std::fs::read(root.join(MANIFEST)) {
            Ok(bytes) => match read_manifest(&bytes) {
                Ok(files) => files,
                Err(why) if force => {
                    eprintln!(
                        "warning: ignoring {} ({why}); --force writes over it",
                        root.join(MANIFEST).display()
                    );
                    BTreeSet::new()
                }
                Err(why) => bail!(
                    "{} is not a manifest this export can read ({why}); delete it and empty {}, or pass --force to write into the folder anyway (files the export does not write are kept)",
                    root.join(MANIFEST).display(),
                    root.display()
                ),
            },
            Err(e) if e.kind() == ErrorKind::NotFound => {
                let not_empty = std::fs::read_dir(root)
                    .with_context(|| format!("listing the export folder {}", root.display()))?
                    .next()
                    .is_some();
                if not_empty && !force {
                    bail!(
                        "{} is not empty and holds no earlier export (no {MANIFEST}); give an empty or new folder, or pass --force to write into it anyway (files the export does not write are kept)",
                        root.display()
                    );
                }
                BTreeSet::new()
            }
            Err(e) => return Err(e).with_context(|| format!("reading {}", root.join(MANIFEST).display())),
        };
        Ok(Folder { root: root.to_owned(), _lock: lock, earlier })
    }

    /// Removes the files of the earlier export that are not in `files`
    /// (and folders they leave empty), then records in the manifest every
    /// file either export may hold, so a write cut short leaves none
    /// untracked. Returns how many files were removed.
    pub fn begin(&self, generation: &str, files: &BTreeSet<String>) -> Result<usize> {
        let mut removed = 0;
        for gone in self.earlier.difference(files) {
            let path = self.path(gone);
            match std::fs::remove_file(&path) {
                Ok(()) => removed += 1,
                Err(e) if e.kind() == ErrorKind::NotFound => {}
                Err(e) => return Err(e).with_context(|| format!("removing {}", path.display())),
            }
            self.prune(gone);
        }
        let all = self.earlier.union(files).cloned().collect();
        self.save(generation, all)?;
        Ok(removed)
    }

    /// Writes `bytes` to `file` unless it already holds exactly them; a
    /// changed file is replaced whole (written beside it, then renamed), so
    /// a reader never sees half of it.
    pub fn write(&self, file: &str, bytes: &[u8]) -> Result<Write> {
        let path = self.path(file);
        let outcome = match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_file() && m.len() == bytes.len() as u64 => {
                let old = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
                if old == bytes {
                    return Ok(Write::Unchanged);
                }
                Write::Changed
            }
            Ok(m) if m.is_dir() => bail!(
                "{} is a folder, and the export needs a file there; remove it and export again",
                path.display()
            ),
            Ok(_) => Write::Changed,
            Err(_) => Write::New,
        };
        let parent = path.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let temporary = parent.join(format!(".{name}.lectern-export-{}", std::process::id()));
        std::fs::write(&temporary, bytes).with_context(|| format!("writing {}", temporary.display()))?;
        std::fs::rename(&temporary, &path).with_context(|| {
            let _ = std::fs::remove_file(&temporary);
            format!("replacing {}", path.display())
        })?;
        Ok(outcome)
    }

    /// Removes `file` if the earlier export wrote it (this one does not).
    pub fn forget(&self, file: &str) -> Result<()> {
        if !self.earlier.contains(file) {
            return Ok(());
        }
        let path = self.path(file);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != ErrorKind::NotFound => {
                Err(e).with_context(|| format!("removing {}", path.display()))
            }
            _ => {
                self.prune(file);
                Ok(())
            }
        }
    }

    /// Records exactly `files` as this export's.
    pub fn finish(&self, generation: &str, files: BTreeSet<String>) -> Result<()> {
        self.save(generation, files)
    }

    fn save(&self, generation: &str, files: BTreeSet<String>) -> Result<()> {
        let manifest = Manifest { format: FORMAT, generation: generation.to_owned(), files };
        let mut json = serde_json::to_vec_pretty(&manifest)?;
        json.push(b'\n');
        self.write(MANIFEST, &json).map(|_| ())
    }

    fn path(&self, file: &str) -> PathBuf {
        file.split('/').fold(self.root.clone(), |path, segment| path.join(segment))
    }

    /// Removes the folders above `file` that are empty now, up to the root.
    fn prune(&self, file: &str) {
        let mut folder = file;
        while let Some((parent, _)) = folder.rsplit_once('/') {
            if std::fs::remove_dir(self.path(parent)).is_err() {
                return;
            }
            folder = parent;
        }
    }
}

/// The files of a manifest; each must be a plain relative path, so a
/// tampered manifest can never make an export remove a file elsewhere.
fn read_manifest(bytes: &[u8]) -> Result<BTreeSet<String>, String> {
    let manifest: Manifest = serde_json::from_slice(bytes).map_err(|e| format!("not valid JSON: {e}"))?;
    if manifest.format != FORMAT {
        return Err(format!("format {} where this version reads {FORMAT}", manifest.format));
    }
    if let Some(bad) = manifest.files.iter().find(|f| {
        f.as_str() == MANIFEST
            || f.split('/').any(|s| s.is_empty() || s == "." || s == ".." || s.contains('\\'))
    }) {
        return Err(format!("it lists {bad:?}, which is not a file inside the folder"));
    }
    Ok(manifest.files)
}

/// An exclusive lock on the folder itself (no lock file to upload with
/// the site), released when the export ends, however it ends.
fn lock(root: &Path) -> Result<std::fs::File> {
    let folder = std::fs::File::open(root).with_context(|| format!("opening {}", root.display()))?;
    match folder.try_lock() {
        Ok(()) => Ok(folder),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "another `lectern export` is writing into {}; wait for it to finish, then run this one again",
            root.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("locking the export folder {}", root.display()))
        }
    }
}

/// A write into `root` succeeds; else a clear refusal naming the folder.
fn check_writable(root: &Path) -> Result<()> {
    let probe = root.join(format!(".lectern-export-probe-{}", std::process::id()));
    match std::fs::write(&probe, b"") {
        Ok(()) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => bail!(
            "cannot write into the export folder {} ({e}); give a folder you can write, or fix its permissions",
            root.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_naming_files_outside_the_folder_are_refused() {
        for bad in ["../etc/passwd", "a//b", "/abs", "a/./b", "a\\b", MANIFEST] {
            let json = serde_json::json!({ "format": 1, "generation": "g", "files": [bad] }).to_string();
            assert!(read_manifest(json.as_bytes()).is_err(), "{bad}");
        }
        let json =
            serde_json::json!({ "format": 1, "generation": "g", "files": ["a/index.html"] }).to_string();
        assert_eq!(read_manifest(json.as_bytes()).unwrap().len(), 1);
        let json = serde_json::json!({ "format": 9, "generation": "g", "files": [] }).to_string();
        assert!(read_manifest(json.as_bytes()).unwrap_err().contains("format 9"));
    }

    #[test]
    fn unchanged_files_are_left_alone_and_gone_ones_removed_with_their_folders() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let folder = Folder::open(&out, false).unwrap();
        let files: BTreeSet<String> = ["a/b/index.html", "c.md"].map(String::from).into();
        folder.begin("g1", &files).unwrap();
        assert_eq!(folder.write("a/b/index.html", b"one").unwrap(), Write::New);
        assert_eq!(folder.write("c.md", b"two").unwrap(), Write::New);
        folder.finish("g1", files).unwrap();
        drop(folder);

        let folder = Folder::open(&out, false).unwrap();
        let files: BTreeSet<String> = ["c.md".to_owned()].into();
        assert_eq!(folder.begin("g2", &files).unwrap(), 1);
        assert!(!out.join("a").exists(), "the folders the page left empty are gone");
        assert_eq!(folder.write("c.md", b"two").unwrap(), Write::Unchanged);
        assert_eq!(folder.write("c.md", b"2").unwrap(), Write::Changed);
        assert_eq!(std::fs::read(out.join("c.md")).unwrap(), b"2");
    }

    #[test]
    fn a_second_export_into_a_folder_in_use_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let first = Folder::open(dir.path(), false).unwrap();
        let err = Folder::open(dir.path(), false).err().unwrap().to_string();
        assert!(err.contains("another `lectern export` is writing"), "{err}");
        drop(first);
        assert!(Folder::open(dir.path(), false).is_ok());
    }

    #[test]
    fn a_folder_holding_other_files_is_refused_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("mine.txt"), b"x").unwrap();
        let err = Folder::open(dir.path(), false).err().unwrap().to_string();
        assert!(err.contains("not empty") && err.contains("--force"), "{err}");
        assert!(Folder::open(dir.path(), true).is_ok());
        let err = Folder::open(&dir.path().join("mine.txt"), false).err().unwrap().to_string();
        assert!(err.contains("is not a folder"), "{err}");
    }
}
