//! The write path's frame: the writer lock every write holds (one thread,
//! one process at a time), committing a manifest as a new generation, and
//! the writes that change only the manifest or drop an edition (enable,
//! disable, remove, settings).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{Library, OpenMode};
use crate::error::{LibraryError, invalid};
use crate::lock::WriterLock;
use crate::manifest::Manifest;

/// How long a writer waits for another writer before giving up.
const WRITER_WAIT: Duration = Duration::from_secs(120);

/// Held for the length of one write: the in-process writer and the lock file.
pub(super) struct WriteGuard<'a> {
    _thread: std::sync::MutexGuard<'a, ()>,
    _file: WriterLock,
}

impl Library {
    /// Enables or disables an edition: a new generation, no re-index. A set
    /// `cancel` (its client went away) stops it while it waits for another
    /// writer; once it holds the lock it runs to its end, so a change answered
    /// as failed never happens later.
    pub fn set_enabled(
        &self,
        id: &str,
        enabled: bool,
        on_wait: &mut dyn FnMut(&str),
        cancel: Option<&AtomicBool>,
    ) -> Result<String, LibraryError> {
        let _guard = self.begin_write_unless(on_wait, cancel)?;
        let view = self.view()?;
        let mut record = view.edition(id)?.clone();
        if record.enabled == enabled {
            return Ok(view.generation.clone());
        }
        record.enabled = enabled;
        let mut manifest = view.manifest.clone();
        manifest.upsert(record);
        self.commit_manifest(&manifest)
    }

    /// Removes an edition and its documents (`cancel` as for [`Library::set_enabled`]).
    pub fn remove(
        &self,
        id: &str,
        on_wait: &mut dyn FnMut(&str),
        cancel: Option<&AtomicBool>,
    ) -> Result<String, LibraryError> {
        let _guard = self.begin_write_unless(on_wait, cancel)?;
        let view = self.view()?;
        let record = view.edition(id)?.clone();
        let mut manifest = view.manifest.clone();
        manifest.editions.retain(|e| e.id != record.id);
        let mut writer = self.index.writer()?;
        writer.delete_edition(&record.id);
        writer.commit(&manifest.to_payload())?;
        self.sweep_assets();
        Ok(self.view()?.generation.clone())
    }

    /// Removes asset bytes the current generation no longer names (after a
    /// commit, under the writer lock).
    pub(super) fn sweep_assets(&self) {
        let keep = self.index.snapshot().asset_hashes();
        crate::assets::sweep(&self.root, &keep);
    }

    /// Sets a library setting (validated); returns the stored value.
    pub fn set_setting(
        &self,
        key: &str,
        value: &str,
        on_wait: &mut dyn FnMut(&str),
    ) -> Result<String, LibraryError> {
        let value = crate::settings::validate(key, value)?;
        let _guard = self.begin_write(on_wait)?;
        let mut manifest = self.view()?.manifest.clone();
        crate::settings::check_installed(key, &value, &manifest.editions)?;
        if manifest.settings.get(key) != Some(&value) {
            manifest.settings.insert(key.to_owned(), value.clone());
            self.commit_manifest(&manifest)?;
        }
        Ok(value)
    }

    /// Removes a setting, so its default applies again.
    pub fn unset_setting(&self, key: &str, on_wait: &mut dyn FnMut(&str)) -> Result<(), LibraryError> {
        let _guard = self.begin_write(on_wait)?;
        let mut manifest = self.view()?.manifest.clone();
        if manifest.settings.remove(key).is_some() {
            self.commit_manifest(&manifest)?;
        }
        Ok(())
    }

    /// Takes the writer lock (read-only libraries refuse) and picks up any
    /// commit another process made meanwhile, so the write starts from it.
    pub(super) fn begin_write(&self, on_wait: &mut dyn FnMut(&str)) -> Result<WriteGuard<'_>, LibraryError> {
        self.begin_write_unless(on_wait, None)
    }

    /// [`Library::begin_write`], given up while waiting once `cancel` is set.
    fn begin_write_unless(
        &self,
        on_wait: &mut dyn FnMut(&str),
        cancel: Option<&AtomicBool>,
    ) -> Result<WriteGuard<'_>, LibraryError> {
        self.refuse_read_only()?;
        let thread = self.writing.lock().unwrap_or_else(|p| p.into_inner());
        let file = WriterLock::acquire(&self.root.join("lock"), WRITER_WAIT, on_wait, cancel)?;
        // Another process may have committed since our last look.
        self.index.refresh()?;
        Ok(WriteGuard { _thread: thread, _file: file })
    }

    /// Fails on a library opened read-only, before any work that a write
    /// would then throw away.
    pub(super) fn refuse_read_only(&self) -> Result<(), LibraryError> {
        if self.mode == OpenMode::ReadOnly {
            return Err(invalid(format!(
                "the library at {} is open read-only; run this without --read-only",
                self.root.display()
            )));
        }
        Ok(())
    }

    /// Commits `manifest` with the index unchanged; returns the new generation.
    pub(super) fn commit_manifest(&self, manifest: &Manifest) -> Result<String, LibraryError> {
        let writer = self.index.writer()?;
        writer.commit(&manifest.to_payload())?;
        Ok(self.view()?.generation.clone())
    }
}
