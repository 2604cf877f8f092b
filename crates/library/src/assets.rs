//! The bytes of editions' assets, kept beside the index in `assets/`, one
//! file per content named by its SHA-256: written (to a temporary name, then
//! renamed) before the commit that records them, and swept after a commit
//! once no asset of the current generation names them. A view reads them
//! through [`Asset`], one file open per answer, never into memory whole.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::LibraryError;

/// The folder of a library (`root`) that holds asset bytes.
pub(crate) fn dir(root: &Path) -> PathBuf {
    root.join("assets")
}

/// An asset the site serves: its site path, type, size, content hash (its
/// ETag) and the file its bytes are in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    pub path: String,
    pub content_type: String,
    pub size: u64,
    pub hash: String,
    pub file: PathBuf,
}

impl Asset {
    /// Opens its bytes; an error when the file is gone (a later generation
    /// swept it) or damaged (its size changed).
    pub fn open(&self) -> Result<std::fs::File, LibraryError> {
        let file = std::fs::File::open(&self.file).map_err(|e| LibraryError::io(&self.file, e))?;
        let len = file.metadata().map_err(|e| LibraryError::io(&self.file, e))?.len();
        if len != self.size {
            return Err(LibraryError::io(
                &self.file,
                std::io::Error::other(format!("holds {len} bytes, not the {} recorded", self.size)),
            ));
        }
        Ok(file)
    }
}

/// Whether a name is one a stored content has (64 lowercase hex digits).
fn is_content_name(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Writes one content under its hash unless it is there already: to a
/// temporary name first, synced, then renamed, so a reader never sees half a file.
pub(crate) fn store(root: &Path, hash: &str, bytes: &[u8]) -> Result<(), LibraryError> {
    debug_assert!(is_content_name(hash));
    let dir = dir(root);
    let path = dir.join(hash);
    if std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64) {
        return Ok(());
    }
    std::fs::create_dir_all(&dir).map_err(|e| LibraryError::io(&dir, e))?;
    let temp = dir.join(format!(".{hash}.{}.tmp", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, &path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        LibraryError::io(&path, e)
    })
}

/// Removes every content no asset of `keep` names, and temporary files a
/// killed writer left; what cannot be removed is left for the next sweep.
pub(crate) fn sweep(root: &Path, keep: &HashSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir(root)) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let stale = (is_content_name(name) && !keep.contains(name))
            || (name.starts_with('.') && name.ends_with(".tmp"));
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contents_are_stored_once_and_swept_when_unnamed() {
        let root = tempfile::tempdir().unwrap();
        let a = "a".repeat(64);
        let b = "b".repeat(64);
        store(root.path(), &a, b"one").unwrap();
        store(root.path(), &a, b"one").unwrap();
        store(root.path(), &b, b"two").unwrap();
        std::fs::write(dir(root.path()).join(".x.1.tmp"), b"half").unwrap();
        std::fs::write(dir(root.path()).join("README"), b"not ours").unwrap();
        sweep(root.path(), &HashSet::from([a.clone()]));
        let mut left: Vec<String> = std::fs::read_dir(dir(root.path()))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["README".to_owned(), a.clone()]);
        let asset = Asset {
            path: "/x.png".into(),
            content_type: "image/png".into(),
            size: 3,
            hash: a.clone(),
            file: dir(root.path()).join(&a),
        };
        assert!(asset.open().is_ok());
        assert!(Asset { size: 4, ..asset }.open().is_err());
    }
}
