//! Safe extraction of `.tar`, `.tar.gz`/`.tgz`, `.tar.xz` and `.zip` sources
//! into a temporary folder: no absolute paths, no `..`, no links or devices,
//! every file capped by the bytes actually read, and caps on the total size,
//! the expansion ratio and the entry count against archive bombs, enforced as
//! the bytes stream (and, where an archive declares its sizes, before any byte
//! is written). Temporary folders are named after the process that owns them,
//! so a later run removes those whose owner died without cleaning up.

use std::cell::Cell;
use std::fs::{self, File};
use std::io::{self, BufReader, Read, Seek, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use crate::limits::{Limits, SourceError};
use crate::page::Problem;

/// The archive kinds a source may be, told apart by their first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveKind {
    Tar,
    TarGz,
    TarXz,
    Zip,
}

/// Detects an archive by its magic bytes (a plain tar without the `ustar`
/// magic is recognised by its `.tar` extension).
pub fn detect(path: &Path) -> io::Result<Option<ArchiveKind>> {
    let mut head = [0u8; 265];
    let mut file = File::open(path)?;
    let mut n = 0;
    while n < head.len() {
        let got = file.read(&mut head[n..])?;
        if got == 0 {
            break;
        }
        n += got;
    }
    let head = &head[..n];
    Ok(if head.starts_with(&[0x1f, 0x8b]) {
        Some(ArchiveKind::TarGz)
    } else if head.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0]) {
        Some(ArchiveKind::TarXz)
    } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        Some(ArchiveKind::Zip)
    } else if (head.len() >= 262 && &head[257..262] == b"ustar")
        || path.extension().is_some_and(|e| e.eq_ignore_ascii_case("tar"))
    {
        Some(ArchiveKind::Tar)
    } else {
        None
    })
}

/// Most an archive may expand, as a multiple of its own size, once it has
/// expanded past [`RATIO_FLOOR_BYTES`] (documentation compresses far less).
pub const MAX_RATIO: u64 = 50;
/// What any archive may expand to whatever its ratio.
pub const RATIO_FLOOR_BYTES: u64 = 64 * 1024 * 1024;
/// Most one zip entry over [`ENTRY_RATIO_FLOOR_BYTES`] may expand, as a
/// multiple of its compressed size; checked before it is written, and an
/// entry over it is skipped.
pub const MAX_ENTRY_RATIO: u64 = 200;
/// What one zip entry may expand to whatever its ratio.
pub const ENTRY_RATIO_FLOOR_BYTES: u64 = 1024 * 1024;
/// Temporary folders are `{TEMP_PREFIX}{pid}-{random}`.
pub const TEMP_PREFIX: &str = "lectern-source-";

/// Files and folders an archive was extracted to.
pub struct Extracted {
    pub dir: tempfile::TempDir,
    pub problems: Vec<Problem>,
}

/// A new temporary folder named `{TEMP_PREFIX}{pid}-{random}`, so one left
/// by a process killed before it could clean up is removed by the next run
/// (the folders of gone processes are swept as this one is made).
pub(crate) fn temp_folder() -> std::io::Result<tempfile::TempDir> {
    let parent = std::env::temp_dir();
    let dir = tempfile::Builder::new()
        .prefix(&format!("{TEMP_PREFIX}{}-", std::process::id()))
        .tempdir_in(&parent)?;
    remove_stale_temp_dirs(&parent, dir.path());
    Ok(dir)
}

/// Extracts `archive` into a new temporary folder.
pub fn extract(
    archive: &Path,
    kind: ArchiveKind,
    max_file_bytes: u64,
    limits: &Limits,
) -> Result<Extracted, SourceError> {
    let dir =
        temp_folder().map_err(|e| unreadable(archive, format!("cannot create a temporary folder: {e}")))?;
    let file = File::open(archive).map_err(|e| unreadable(archive, e.to_string()))?;
    let archive_bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let consumed = Rc::new(Cell::new(0u64));
    let reader = BufReader::new(Counting { inner: file, count: Rc::clone(&consumed) });
    let mut job = Job {
        archive,
        root: dir.path().to_path_buf(),
        max_file_bytes,
        limits,
        max_total: limits.max_total_bytes.min(RATIO_FLOOR_BYTES.max(archive_bytes.saturating_mul(MAX_RATIO))),
        consumed,
        entries: 0,
        total: 0,
        problems: Vec::new(),
    };
    match kind {
        ArchiveKind::Tar => job.tar(reader)?,
        ArchiveKind::TarGz => job.tar(flate2::read::MultiGzDecoder::new(reader))?,
        ArchiveKind::TarXz => job.tar(xz2::read::XzDecoder::new_multi_decoder(reader))?,
        ArchiveKind::Zip => job.zip(reader)?,
    }
    Ok(Extracted { dir, problems: job.problems })
}

/// Removes the temporary folders in `parent` left by processes that are no
/// longer running (killed before they could clean up). A folder is removed
/// only when its name carries its owner's pid, that process is gone, and it
/// belongs to the same user as `ours`; `ours` and any folder whose owner is
/// alive (or cannot be told) are kept. Returns how many were removed.
pub fn remove_stale_temp_dirs(parent: &Path, ours: &Path) -> usize {
    // Without /proc a live owner cannot be told from a dead one: remove nothing.
    if !Path::new("/proc/self").exists() {
        return 0;
    }
    let Ok(our_uid) = fs::symlink_metadata(ours).map(|m| m.uid()) else { return 0 };
    let Ok(entries) = fs::read_dir(parent) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        if path == ours {
            continue;
        }
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(TEMP_PREFIX)).and_then(owner_pid) else {
            continue;
        };
        let alive = pid == std::process::id() || Path::new("/proc").join(pid.to_string()).exists();
        // Never a link, and never another user's folder.
        let ours_to_remove = fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir() && m.uid() == our_uid);
        if !alive && ours_to_remove && fs::remove_dir_all(&path).is_ok() {
            tracing::info!(path = %path.display(), pid, "removed a temporary folder left by a process that is gone");
            removed += 1;
        }
    }
    removed
}

/// `1234-Ab3xYz` → 1234: the owner pid in a temporary folder's name.
fn owner_pid(rest: &str) -> Option<u32> {
    let (pid, random) = rest.split_once('-')?;
    if random.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok().filter(|&p| p > 0)
}

/// Counts the bytes read through it: the compressed bytes an archive stream
/// has consumed, for the expansion ratio.
struct Counting<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<R> {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

fn unreadable(path: &Path, reason: String) -> SourceError {
    SourceError::Unreadable { path: path.to_path_buf(), reason }
}

struct Job<'a> {
    archive: &'a Path,
    root: PathBuf,
    max_file_bytes: u64,
    limits: &'a Limits,
    /// The total cap for this archive: the configured one, or less for a
    /// small archive (its size times [`MAX_RATIO`], at least [`RATIO_FLOOR_BYTES`]).
    max_total: u64,
    /// Archive bytes read so far.
    consumed: Rc<Cell<u64>>,
    entries: u64,
    /// Bytes written so far.
    total: u64,
    problems: Vec<Problem>,
}

/// What an entry is, as far as extraction cares.
enum EntryKind {
    File,
    Dir,
    Link,
    Special,
}

impl Job<'_> {
    fn problem(&mut self, path: &str, reason: impl Into<String>) {
        self.problems.push(Problem { path: path.to_owned(), reason: reason.into() });
    }

    fn count_entry(&mut self) -> Result<(), SourceError> {
        self.entries += 1;
        if self.entries > self.limits.max_entries {
            return Err(SourceError::TooManyEntries {
                path: self.archive.to_path_buf(),
                limit: self.limits.max_entries,
            });
        }
        Ok(())
    }

    /// The destination of an entry name, or None (with a problem) when the
    /// name is absolute, climbs with `..` or is otherwise unusable.
    fn target(&mut self, name: &str) -> Option<PathBuf> {
        if name.contains('\0') {
            self.problem(name, "entry name contains a NUL byte; skipped");
            return None;
        }
        let path = Path::new(name);
        let mut out = self.root.clone();
        let mut depth = 0;
        for comp in path.components() {
            match comp {
                Component::Normal(c) => {
                    out.push(c);
                    depth += 1;
                }
                Component::CurDir => {}
                Component::ParentDir => {
                    self.problem(name, "entry path contains '..' (escapes the source folder); skipped");
                    return None;
                }
                Component::RootDir | Component::Prefix(_) => {
                    self.problem(name, "entry path is absolute; skipped");
                    return None;
                }
            }
        }
        if depth == 0 {
            return None;
        }
        if depth > 64 {
            self.problem(name, "entry path is nested deeper than 64 folders; skipped");
            return None;
        }
        Some(out)
    }

    /// Writes one entry, capping the bytes actually read.
    fn write_entry(&mut self, name: &str, kind: EntryKind, reader: &mut dyn Read) -> Result<(), SourceError> {
        self.count_entry()?;
        match kind {
            EntryKind::Link => {
                self.problem(name, "links are not extracted; skipped");
                return Ok(());
            }
            EntryKind::Special => {
                self.problem(name, "device, fifo or other special file; skipped");
                return Ok(());
            }
            EntryKind::Dir | EntryKind::File => {}
        }
        let Some(dest) = self.target(name) else { return Ok(()) };
        if let EntryKind::Dir = kind {
            if let Err(e) = fs::create_dir_all(&dest) {
                self.problem(name, format!("cannot create folder: {e}"));
            }
            return Ok(());
        }
        if let Some(parent) = dest.parent()
            && let Err(e) = fs::create_dir_all(parent)
        {
            self.problem(name, format!("cannot create folder: {e}"));
            return Ok(());
        }
        // Never write through something already there that is not a plain file.
        if fs::symlink_metadata(&dest).is_ok_and(|m| !m.is_file()) {
            self.problem(name, "entry collides with a folder of the same name; skipped");
            return Ok(());
        }
        // The folder is ours alone, but still never write through a link.
        let created = fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
            .open(&dest);
        let mut out = match created {
            Ok(f) => f,
            Err(e) => {
                self.problem(name, format!("cannot write: {e}"));
                return Ok(());
            }
        };
        let cap = self.max_file_bytes;
        let mut limited = reader.take(cap + 1);
        let mut buf = vec![0u8; 64 * 1024];
        let mut written: u64 = 0;
        loop {
            let n = match limited.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    drop(out);
                    let _ = fs::remove_file(&dest);
                    self.problem(name, format!("cannot read entry: {e}"));
                    return Ok(());
                }
            };
            written += n as u64;
            self.total += n as u64;
            self.check_total()?;
            if written > cap {
                drop(out);
                let _ = fs::remove_file(&dest);
                self.problem(name, crate::limits::file_too_large(cap, None));
                return Ok(());
            }
            if let Err(e) = out.write_all(&buf[..n]) {
                self.problem(name, format!("cannot write: {e}"));
                return Ok(());
            }
        }
        Ok(())
    }

    /// Refuses the archive once what it expanded to is over the total cap.
    fn check_total(&self) -> Result<(), SourceError> {
        if self.total > self.max_total {
            let consumed = self.consumed.get();
            if self.max_total < self.limits.max_total_bytes {
                return Err(SourceError::Bomb {
                    path: self.archive.to_path_buf(),
                    reason: format!(
                        "it expands to more than {} bytes after {consumed} bytes of it were read; an \
                         archive may expand to {MAX_RATIO} times its size or {RATIO_FLOOR_BYTES} bytes, \
                         whichever is more",
                        self.max_total
                    ),
                });
            }
            return Err(SourceError::TooLarge { path: self.archive.to_path_buf(), limit: self.max_total });
        }
        Ok(())
    }

    fn tar(&mut self, reader: impl Read) -> Result<(), SourceError> {
        let mut archive = tar::Archive::new(reader);
        let entries = archive
            .entries()
            .map_err(|e| unreadable(self.archive, format!("not a readable tar archive: {e}")))?;
        for entry in entries {
            let mut entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    if self.entries == 0 {
                        return Err(unreadable(self.archive, format!("not a readable tar archive: {e}")));
                    }
                    // A corrupt or truncated archive ends here; keep what was read.
                    self.problem(
                        "(archive)",
                        format!("archive is damaged after {} entries: {e}", self.entries),
                    );
                    break;
                }
            };
            let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
            let declared = entry.header().size().unwrap_or(0);
            if entry.header().entry_type().is_file() && declared > self.max_file_bytes {
                // Skipped unread: nothing of it is written.
                self.count_entry()?;
                let cap = self.max_file_bytes;
                self.problem(&name, crate::limits::file_too_large(cap, None));
                continue;
            }
            let kind = match entry.header().entry_type() {
                tar::EntryType::Regular | tar::EntryType::Continuous => EntryKind::File,
                tar::EntryType::Directory => EntryKind::Dir,
                tar::EntryType::Symlink | tar::EntryType::Link => EntryKind::Link,
                tar::EntryType::Char | tar::EntryType::Block | tar::EntryType::Fifo => EntryKind::Special,
                // Metadata-only entries (pax headers, long names) are handled by the tar crate.
                _ => continue,
            };
            self.write_entry(&name, kind, &mut entry)?;
        }
        Ok(())
    }

    fn zip<R: Read + Seek>(&mut self, reader: R) -> Result<(), SourceError> {
        let mut archive = zip::ZipArchive::new(reader)
            .map_err(|e| unreadable(self.archive, format!("not a readable zip archive: {e}")))?;
        if archive.len() as u64 > self.limits.max_entries {
            return Err(SourceError::TooManyEntries {
                path: self.archive.to_path_buf(),
                limit: self.limits.max_entries,
            });
        }
        // Zip declares every size up front: refuse a bomb before writing a
        // byte. Entries over the per-file cap are skipped unread, so they
        // do not count.
        let mut declared_total: u64 = 0;
        for i in 0..archive.len() {
            if let Ok(file) = archive.by_index_raw(i)
                && !file.is_dir()
                && file.size() <= self.max_file_bytes
            {
                declared_total = declared_total.saturating_add(file.size());
            }
        }
        if declared_total > self.max_total {
            if self.max_total < self.limits.max_total_bytes {
                return Err(SourceError::Bomb {
                    path: self.archive.to_path_buf(),
                    reason: format!(
                        "its entries declare {declared_total} bytes in all; an archive may expand to \
                         {MAX_RATIO} times its size or {RATIO_FLOOR_BYTES} bytes, whichever is more"
                    ),
                });
            }
            return Err(SourceError::TooLarge { path: self.archive.to_path_buf(), limit: self.max_total });
        }
        for i in 0..archive.len() {
            let mut file = match archive.by_index(i) {
                Ok(f) => f,
                Err(e) => {
                    self.count_entry()?;
                    self.problem(&format!("(entry {i})"), format!("cannot read entry: {e}"));
                    continue;
                }
            };
            let name = file.name().map(|n| n.into_owned()).unwrap_or_else(|_| format!("(entry {i})"));
            let (declared, compressed) = (file.size(), file.compressed_size());
            if !file.is_dir() && declared > self.max_file_bytes {
                // Skipped unread: nothing of it is written.
                self.count_entry()?;
                let cap = self.max_file_bytes;
                self.problem(&name, crate::limits::file_too_large(cap, None));
                continue;
            }
            if declared > ENTRY_RATIO_FLOOR_BYTES && declared / compressed.max(1) > MAX_ENTRY_RATIO {
                self.count_entry()?;
                self.problem(
                    &name,
                    format!(
                        "expands from {compressed} to {declared} bytes, more than {MAX_ENTRY_RATIO} times \
                         (a file over {ENTRY_RATIO_FLOOR_BYTES} bytes may expand at most that much); skipped"
                    ),
                );
                continue;
            }
            let mode = file.unix_mode().unwrap_or(0);
            let kind = if file.is_symlink() {
                EntryKind::Link
            } else if file.is_dir() {
                EntryKind::Dir
            } else if mode & 0o170000 != 0 && mode & 0o170000 != 0o100000 {
                EntryKind::Special
            } else {
                EntryKind::File
            };
            self.write_entry(&name, kind, &mut file)?;
        }
        Ok(())
    }
}
