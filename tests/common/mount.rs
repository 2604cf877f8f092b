//! A read-only bind mount of a folder, for the tests of a library on
//! read-only storage; where this machine allows no mounts there is none.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A read-only bind mount of a folder, unmounted on drop.
pub struct ReadOnlyMount {
    pub at: PathBuf,
    _dir: tempfile::TempDir,
}

impl ReadOnlyMount {
    /// `folder` mounted read-only at a new path; None where this machine does
    /// not allow mounts (not root, no mount privilege).
    pub fn of(folder: &Path) -> Option<ReadOnlyMount> {
        let dir = tempfile::tempdir().unwrap();
        let at = dir.path().join("ro");
        std::fs::create_dir(&at).unwrap();
        let mount = |args: &[&std::ffi::OsStr]| {
            Command::new("mount").args(args).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
        };
        if !mount(&[folder.as_os_str(), at.as_os_str(), "--bind".as_ref()]) {
            return None;
        }
        let mount = ReadOnlyMount { at, _dir: dir };
        if !Command::new("mount")
            .args(["-o", "remount,ro,bind"])
            .arg(&mount.at)
            .status()
            .is_ok_and(|s| s.success())
        {
            return None;
        }
        Some(mount)
    }
}

impl Drop for ReadOnlyMount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.at).status();
    }
}
