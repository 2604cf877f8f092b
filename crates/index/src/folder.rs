//! The index folder as tantivy sees it: a memory-mapped directory that can
//! be read on read-only storage (a read-only mount, a package-managed path),
//! where tantivy's meta lock file cannot be created or opened for writing.

use std::path::Path;
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
}

impl IndexFolder {
    pub(crate) fn open(dir: &Path) -> Result<IndexFolder, tantivy::directory::error::OpenDirectoryError> {
        Ok(IndexFolder { inner: MmapDirectory::open(dir)? })
    }
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

    fn atomic_write(&self, path: &Path, data: &[u8]) -> std::io::Result<()> {
        self.inner.atomic_write(path, data)
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
