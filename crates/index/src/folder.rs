//! The index folder as tantivy sees it: a memory-mapped directory that can
//! be read on read-only storage (a read-only mount, a package-managed path),
//! where tantivy's meta lock file cannot be created or opened for writing,
//! and whose `meta.json` is as readable as the folder holding it.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, META_LOCK, MmapDirectory, WatchCallback, WatchHandle,
    WritePtr,
};

/// [`MmapDirectory`], except that the meta lock (which readers take while
/// they open segments, so a writer's clean-up cannot delete files under
/// them) is skipped when storage refuses it. Nothing can write there either,
/// so no clean-up can race the reader; the writer lock is never skipped.
#[derive(Debug, Clone)]
pub(crate) struct IndexFolder {
    inner: MmapDirectory,
    dir: PathBuf,
}

impl IndexFolder {
    pub(crate) fn open(dir: &Path) -> Result<IndexFolder, tantivy::directory::error::OpenDirectoryError> {
        Ok(IndexFolder { inner: MmapDirectory::open(dir)?, dir: dir.to_path_buf() })
    }
}

/// The mode of a file written whole (`meta.json`, `.managed.json`): readable
/// by whoever may read the folder. A private library stays private through
/// its own top folder (created 0700).
#[cfg(unix)]
fn shared_mode(dir: &Path) -> std::io::Result<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    let folder = std::fs::metadata(dir)?.permissions().mode();
    Ok(std::fs::Permissions::from_mode(0o600 | (folder & 0o044)))
}

/// Errors that mean "this storage cannot be written", not "someone holds it".
fn storage_refuses(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied)
}

impl Directory for IndexFolder {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        self.inner.get_file_handle(path)
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.inner.delete(path)
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.inner.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        self.inner.open_write(path)
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.inner.atomic_read(path)
    }

    /// tantivy's own writes through a temporary file, which is private
    /// (0600) whatever the umask, so a library built by one user could not
    /// be served by another (a site replica running as its own user). The
    /// same steps here, with the file as readable as the folder before it
    /// takes its name.
    fn atomic_write(&self, path: &Path, data: &[u8]) -> std::io::Result<()> {
        let mut temp = tempfile::NamedTempFile::new_in(&self.dir)?;
        temp.write_all(data)?;
        #[cfg(unix)]
        temp.as_file().set_permissions(shared_mode(&self.dir)?)?;
        temp.as_file().sync_all()?;
        temp.persist(self.dir.join(path)).map_err(|e| e.error)?;
        self.inner.sync_directory()
    }

    fn sync_directory(&self) -> std::io::Result<()> {
        self.inner.sync_directory()
    }

    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        match self.inner.acquire_lock(lock) {
            Err(LockError::IoError(e)) if lock.filepath == META_LOCK.filepath && storage_refuses(&e) => {
                Ok(DirectoryLock::from(Box::new(())))
            }
            other => other,
        }
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.inner.watch(watch_callback)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn whole_files_are_as_readable_as_their_folder() {
        for (folder, file) in [(0o755, 0o644), (0o750, 0o640), (0o700, 0o600)] {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("index");
            std::fs::create_dir(&dir).unwrap();
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(folder)).unwrap();
            let index = IndexFolder::open(&dir).unwrap();
            index.atomic_write(Path::new("meta.json"), b"{\"a\":1}").unwrap();
            index.atomic_write(Path::new("meta.json"), b"{\"a\":2}").unwrap();
            assert_eq!(mode(&dir.join("meta.json")), file, "folder {folder:o}");
            assert_eq!(index.atomic_read(Path::new("meta.json")).unwrap(), b"{\"a\":2}");
            let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
            assert_eq!(left, ["meta.json"], "no temporary file is left behind");
        }
    }
}
