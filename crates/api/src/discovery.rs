//! Discovery files in `{user-data}/api/`: `status.json` (where the server
//! listens) and `access-key` (the bearer key). The server side claims the
//! folder (a lock file, so one server per user-data folder) and publishes both
//! files atomically; the reader side, shared with `lectern doctor` and the
//! stdio MCP bridge, re-reads them and refuses anything it cannot trust:
//! symlinks, group/world-accessible modes, another owner, extra hard links,
//! a dead pid, an address other than 127.0.0.1 or a privileged port.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The folder under the user-data folder.
pub const API_DIR: &str = "api";
pub const STATUS_FILE: &str = "status.json";
pub const KEY_FILE: &str = "access-key";
pub const LOCK_FILE: &str = "server.lock";
/// The only address the server binds and a client connects to.
pub const ADDRESS: &str = "127.0.0.1";
/// Version of the `/v1` API, in `status.json` and `/v1/status`.
pub const API_VERSION: u32 = 1;
const MAX_FILE_BYTES: u64 = 64 * 1024;

/// `status.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ServerStatus {
    pub pid: u32,
    pub address: String,
    pub port: u16,
    /// RFC 3339, UTC.
    pub started_at: String,
    pub lectern_version: String,
    pub api_version: u32,
}

/// What a client learns from the discovery files: where to connect and the key.
#[derive(Clone)]
pub struct Discovery {
    pub status: ServerStatus,
    pub access_key: String,
    pub dir: PathBuf,
}

impl std::fmt::Debug for Discovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Discovery")
            .field("status", &self.status)
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// Why the discovery files cannot be used; each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    #[error("no local API server is running for {user_data} ({path} does not exist); start one with `lectern serve --user-data {user_data}`", user_data = .user_data.display(), path = .path.display())]
    NotRunning { user_data: PathBuf, path: PathBuf },
    #[error("another `lectern serve` is already serving {user_data}{}; stop it first, or use `lectern open` to reach it", describe(*.pid, *.port), user_data = .user_data.display())]
    AlreadyRunning { user_data: PathBuf, pid: Option<u32>, port: Option<u16> },
    #[error("{path} is unsafe: {reason}; {fix}", path = .path.display())]
    Unsafe { path: PathBuf, reason: String, fix: String },
    #[error("{path} names pid {pid}, which is not running (the server stopped without cleaning up); start `lectern serve` again", path = .path.display())]
    Stale { path: PathBuf, pid: u32 },
    #[error("{path} is malformed: {reason}; restart `lectern serve` to rewrite it", path = .path.display())]
    Malformed { path: PathBuf, reason: String },
    #[error("{path}: {source}", path = .path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

impl DiscoveryError {
    /// A stable short code (for `lectern doctor --json` and the MCP bridge).
    pub fn code(&self) -> &'static str {
        match self {
            DiscoveryError::NotRunning { .. } => "not_running",
            DiscoveryError::AlreadyRunning { .. } => "already_running",
            DiscoveryError::Unsafe { .. } => "unsafe",
            DiscoveryError::Stale { .. } => "stale",
            DiscoveryError::Malformed { .. } => "malformed",
            DiscoveryError::Io { .. } => "io",
        }
    }
}

fn describe(pid: Option<u32>, port: Option<u16>) -> String {
    match (pid, port) {
        (Some(pid), Some(port)) => format!(" (pid {pid}, http://{ADDRESS}:{port})"),
        (Some(pid), None) => format!(" (pid {pid})"),
        _ => String::new(),
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DiscoveryError + '_ {
    move |source| DiscoveryError::Io { path: path.to_path_buf(), source }
}

fn unsafe_file(path: &Path, reason: impl Into<String>) -> DiscoveryError {
    let dir = path.parent().unwrap_or(path);
    DiscoveryError::Unsafe {
        path: path.to_path_buf(),
        reason: reason.into(),
        fix: format!(
            "stop `lectern serve`, remove {} (`rm -r {}`) and start it again: it recreates the folder (0700) and its files (0600)",
            dir.display(),
            dir.display()
        ),
    }
}

fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Checks the api folder: a real directory (not a symlink), ours, mode 0700 or stricter.
fn check_dir(dir: &Path) -> Result<(), DiscoveryError> {
    let meta = std::fs::symlink_metadata(dir).map_err(io(dir))?;
    let fix = |what: &str| DiscoveryError::Unsafe {
        path: dir.to_path_buf(),
        reason: what.to_owned(),
        fix: format!("fix it with `chmod 700 {}`, or remove it and restart `lectern serve`", dir.display()),
    };
    if meta.file_type().is_symlink() {
        return Err(unsafe_file(dir, "it is a symbolic link"));
    }
    if !meta.is_dir() {
        return Err(unsafe_file(dir, "it is not a directory"));
    }
    if meta.uid() != euid() {
        return Err(unsafe_file(
            dir,
            format!("it is owned by uid {}, not by you (uid {})", meta.uid(), euid()),
        ));
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(fix(&format!("its mode is {mode:o}: other users may read or enter it (want 700)")));
    }
    Ok(())
}

/// Checks an open discovery file's metadata: a regular file, ours, 0600 or stricter, one link.
fn check_file_meta(path: &Path, meta: &std::fs::Metadata) -> Result<(), DiscoveryError> {
    if meta.file_type().is_symlink() {
        return Err(unsafe_file(path, "it is a symbolic link"));
    }
    if !meta.is_file() {
        return Err(unsafe_file(path, "it is not a regular file"));
    }
    if meta.uid() != euid() {
        return Err(unsafe_file(
            path,
            format!("it is owned by uid {}, not by you (uid {})", meta.uid(), euid()),
        ));
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(DiscoveryError::Unsafe {
            path: path.to_path_buf(),
            reason: format!("its mode is {mode:o}: other users may read it (want 600)"),
            fix: format!(
                "remove it (`rm {}`) and restart `lectern serve`, which writes a fresh one",
                path.display()
            ),
        });
    }
    if meta.nlink() != 1 {
        return Err(unsafe_file(path, format!("it has {} hard links (want exactly 1)", meta.nlink())));
    }
    Ok(())
}

fn nofollow() -> i32 {
    (rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits() as i32
}

/// Reads a discovery file without following a symlink, after checking it.
/// `Ok(None)` when it does not exist.
fn read_private(path: &Path) -> Result<Option<String>, DiscoveryError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(path)(e)),
        Ok(meta) => check_file_meta(path, &meta)?,
    }
    let file = match OpenOptions::new().read(true).custom_flags(nofollow()).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) => {
            return Err(unsafe_file(path, "it is a symbolic link"));
        }
        Err(e) => return Err(io(path)(e)),
    };
    // Checked again on the open file: the path may have been swapped in between.
    check_file_meta(path, &file.metadata().map_err(io(path))?)?;
    let mut text = String::new();
    file.take(MAX_FILE_BYTES + 1).read_to_string(&mut text).map_err(io(path))?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(DiscoveryError::Malformed {
            path: path.to_path_buf(),
            reason: "it is larger than 64 KiB".into(),
        });
    }
    Ok(Some(text))
}

/// Whether a process with this pid exists. `Err` when it exists but belongs to
/// another user (a status file can't name someone else's process).
fn pid_alive(pid: u32) -> Result<bool, ()> {
    let Some(p) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw) else {
        return Ok(false);
    };
    match rustix::process::test_kill_process(p) {
        Ok(()) => Ok(true),
        Err(rustix::io::Errno::SRCH) => Ok(false),
        Err(_) => Err(()),
    }
}

/// The api folder of a user-data folder.
pub fn api_dir(user_data: &Path) -> PathBuf {
    user_data.join(API_DIR)
}

/// Reads and checks both discovery files (re-read on every call: a restarted
/// server has a new port and key).
pub fn read(user_data: &Path) -> Result<Discovery, DiscoveryError> {
    let dir = api_dir(user_data);
    let status_path = dir.join(STATUS_FILE);
    let not_running =
        || DiscoveryError::NotRunning { user_data: user_data.to_path_buf(), path: status_path.clone() };
    match std::fs::symlink_metadata(&dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(not_running()),
        _ => check_dir(&dir)?,
    }
    let text = read_private(&status_path)?.ok_or_else(not_running)?;
    let status: ServerStatus = serde_json::from_str(&text)
        .map_err(|e| DiscoveryError::Malformed { path: status_path.clone(), reason: e.to_string() })?;
    if status.address != ADDRESS {
        return Err(unsafe_file(
            &status_path,
            format!("it names address {:?}; a lectern server only listens on {ADDRESS}", status.address),
        ));
    }
    if status.port < 1024 {
        return Err(unsafe_file(
            &status_path,
            format!(
                "it names the privileged port {}; a lectern server only uses ports 1024 and up",
                status.port
            ),
        ));
    }
    match pid_alive(status.pid) {
        Ok(true) => {}
        Ok(false) => return Err(DiscoveryError::Stale { path: status_path, pid: status.pid }),
        Err(()) => {
            return Err(unsafe_file(&status_path, format!("pid {} belongs to another user", status.pid)));
        }
    }
    let key_path = dir.join(KEY_FILE);
    let key = read_private(&key_path)?.ok_or_else(|| DiscoveryError::Malformed {
        path: key_path.clone(),
        reason: "the access key file is missing while status.json exists".into(),
    })?;
    if key.len() != 64 || !key.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(DiscoveryError::Malformed {
            path: key_path,
            reason: "an access key is 64 lowercase hex characters".into(),
        });
    }
    Ok(Discovery { status, access_key: key, dir })
}

/// The server's hold on a user-data folder: the lock (one server per folder)
/// and, once published, the discovery files, removed on drop.
#[derive(Debug)]
pub struct ServerFiles {
    dir: PathBuf,
    _lock: File,
    published: Option<u32>,
}

impl ServerFiles {
    /// Claims `{user_data}/api`: creates it (0700) if needed, refuses an unsafe
    /// folder or file, and takes the server lock (a second server is refused).
    pub fn claim(user_data: &Path) -> Result<ServerFiles, DiscoveryError> {
        let dir = api_dir(user_data);
        match std::fs::symlink_metadata(&dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir).map_err(io(&dir))?;
                // The umask may have narrowed it further, never widened; be explicit.
                std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).map_err(io(&dir))?;
            }
            Err(e) => return Err(io(&dir)(e)),
            Ok(_) => {}
        }
        check_dir(&dir)?;
        let lock_path = dir.join(LOCK_FILE);
        if let Ok(meta) = std::fs::symlink_metadata(&lock_path) {
            check_file_meta(&lock_path, &meta)?;
        }
        let lock = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(nofollow())
            .open(&lock_path)
            .map_err(|e| {
                if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
                    unsafe_file(&lock_path, "it is a symbolic link")
                } else {
                    io(&lock_path)(e)
                }
            })?;
        check_file_meta(&lock_path, &lock.metadata().map_err(io(&lock_path))?)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let status = read_private(&dir.join(STATUS_FILE))
                    .ok()
                    .flatten()
                    .and_then(|t| serde_json::from_str::<ServerStatus>(&t).ok());
                return Err(DiscoveryError::AlreadyRunning {
                    user_data: user_data.to_path_buf(),
                    pid: status.as_ref().map(|s| s.pid),
                    port: status.as_ref().map(|s| s.port),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io(&lock_path)(e)),
        }
        // Leftovers of a crashed server are replaced, but only if they are safe.
        for name in [STATUS_FILE, KEY_FILE] {
            let path = dir.join(name);
            if let Ok(meta) = std::fs::symlink_metadata(&path) {
                check_file_meta(&path, &meta)?;
            }
        }
        Ok(ServerFiles { dir, _lock: lock, published: None })
    }

    /// The api folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes a fresh access key and `status.json` (each atomically: temp
    /// file, fsync, rename). Returns the key.
    pub fn publish(&mut self, port: u16) -> Result<String, DiscoveryError> {
        let pid = std::process::id();
        let key = crate::challenge::random_hex();
        write_atomic(&self.dir, KEY_FILE, key.as_bytes())?;
        let status = ServerStatus {
            pid,
            address: ADDRESS.to_owned(),
            port,
            started_at: rfc3339_now(),
            lectern_version: env!("CARGO_PKG_VERSION").to_owned(),
            api_version: API_VERSION,
        };
        let mut json = serde_json::to_vec_pretty(&status).expect("status serializes");
        json.push(b'\n');
        write_atomic(&self.dir, STATUS_FILE, &json)?;
        self.published = Some(pid);
        Ok(key)
    }

    /// Removes the discovery files (clean shutdown). Idempotent.
    pub fn withdraw(&mut self) {
        if self.published.take().is_some() {
            for name in [STATUS_FILE, KEY_FILE] {
                let _ = std::fs::remove_file(self.dir.join(name));
            }
            if let Ok(d) = File::open(&self.dir) {
                let _ = d.sync_all();
            }
        }
    }
}

impl Drop for ServerFiles {
    fn drop(&mut self) {
        self.withdraw();
    }
}

fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), DiscoveryError> {
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(nofollow())
        .open(&tmp)
        .map_err(io(&tmp))?;
    file.write_all(bytes).map_err(io(&tmp))?;
    file.sync_all().map_err(io(&tmp))?;
    drop(file);
    let target = dir.join(name);
    std::fs::rename(&tmp, &target).map_err(io(&target))?;
    File::open(dir).and_then(|d| d.sync_all()).map_err(io(dir))?;
    Ok(())
}

/// Now as RFC 3339 UTC, second precision.
pub fn rfc3339_now() -> String {
    let secs =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    rfc3339(secs)
}

fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_709_210_096), "2024-02-29T12:34:56Z");
    }

    #[test]
    fn publish_then_read_round_trips_and_withdraw_removes() {
        let tmp = tempfile::tempdir().unwrap();
        let mut files = ServerFiles::claim(tmp.path()).unwrap();
        let key = files.publish(40_000).unwrap();
        let found = read(tmp.path()).unwrap();
        assert_eq!(found.access_key, key);
        assert_eq!(found.status.port, 40_000);
        assert_eq!(found.status.pid, std::process::id());
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o777;
        assert_eq!(mode(&files.dir().join(KEY_FILE)), 0o600);
        assert_eq!(mode(&files.dir().join(STATUS_FILE)), 0o600);
        assert_eq!(mode(files.dir()), 0o700);
        files.withdraw();
        assert!(matches!(read(tmp.path()), Err(DiscoveryError::NotRunning { .. })));
    }

    #[test]
    fn a_second_claim_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let mut first = ServerFiles::claim(tmp.path()).unwrap();
        first.publish(40_001).unwrap();
        let err = ServerFiles::claim(tmp.path()).unwrap_err();
        assert_eq!(err.code(), "already_running", "{err}");
        assert!(err.to_string().contains("40001"), "{err}");
        drop(first);
        ServerFiles::claim(tmp.path()).unwrap();
    }

    #[test]
    fn unsafe_folders_and_files_are_refused_by_claim_and_read() {
        // A group/world-readable folder.
        let tmp = tempfile::tempdir().unwrap();
        let mut files = ServerFiles::claim(tmp.path()).unwrap();
        files.publish(40_002).unwrap();
        let dir = files.dir().to_path_buf();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = read(tmp.path()).unwrap_err();
        assert_eq!(err.code(), "unsafe", "{err}");
        assert!(err.to_string().contains("chmod 700"), "{err}");
        drop(files);
        assert_eq!(ServerFiles::claim(tmp.path()).unwrap_err().code(), "unsafe");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();

        // A readable key file.
        let mut files = ServerFiles::claim(tmp.path()).unwrap();
        files.publish(40_003).unwrap();
        let key = dir.join(KEY_FILE);
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = read(tmp.path()).unwrap_err();
        assert!(err.to_string().contains("mode is 644"), "{err}");
        drop(files);
        // A leftover key of a crashed server, readable by others.
        std::fs::write(&key, "0".repeat(64)).unwrap();
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = ServerFiles::claim(tmp.path()).unwrap_err();
        assert_eq!(err.code(), "unsafe", "{err}");
    }

    #[test]
    fn symlinked_status_and_hard_links_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let mut files = ServerFiles::claim(tmp.path()).unwrap();
        files.publish(40_004).unwrap();
        let dir = files.dir().to_path_buf();
        let status = dir.join(STATUS_FILE);
        let elsewhere = tmp.path().join("elsewhere.json");
        std::fs::rename(&status, &elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &status).unwrap();
        let err = read(tmp.path()).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        std::fs::remove_file(&status).unwrap();
        std::fs::hard_link(&elsewhere, &status).unwrap();
        let err = read(tmp.path()).unwrap_err();
        assert!(err.to_string().contains("hard links"), "{err}");
        drop(files);
        std::os::unix::fs::symlink(&elsewhere, &status).unwrap();
        let err = ServerFiles::claim(tmp.path()).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
    }

    #[test]
    fn a_dead_pid_or_foreign_address_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let mut files = ServerFiles::claim(tmp.path()).unwrap();
        files.publish(40_005).unwrap();
        let dir = files.dir().to_path_buf();
        let rewrite = |f: &dyn Fn(&mut ServerStatus)| {
            let mut s: ServerStatus =
                serde_json::from_str(&std::fs::read_to_string(dir.join(STATUS_FILE)).unwrap()).unwrap();
            f(&mut s);
            write_atomic(&dir, STATUS_FILE, &serde_json::to_vec(&s).unwrap()).unwrap();
        };
        rewrite(&|s| s.pid = 0x3fff_fff0);
        assert_eq!(read(tmp.path()).unwrap_err().code(), "stale");
        rewrite(&|s| {
            s.pid = std::process::id();
            s.address = "0.0.0.0".into();
        });
        assert_eq!(read(tmp.path()).unwrap_err().code(), "unsafe");
        rewrite(&|s| {
            s.address = ADDRESS.into();
            s.port = 80;
        });
        assert!(read(tmp.path()).unwrap_err().to_string().contains("privileged"));
    }
}
