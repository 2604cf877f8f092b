//! Safe extraction of `.tar`, `.tar.gz`/`.tgz`, `.tar.xz` and `.zip` sources
//! into a temporary folder: no absolute paths, no `..`, no links or devices,
//! every file capped by the bytes actually read, and caps on the total size
//! and entry count against archive bombs.

use std::fs::{self, File};
use std::io::{self, BufReader, Read, Seek, Write};
use std::path::{Component, Path, PathBuf};

use crate::page::Problem;
use crate::source::{Limits, SourceError};

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

/// Files and folders an archive was extracted to.
pub struct Extracted {
    pub dir: tempfile::TempDir,
    pub problems: Vec<Problem>,
}

/// Extracts `archive` into a new temporary folder.
pub fn extract(
    archive: &Path,
    kind: ArchiveKind,
    max_file_bytes: u64,
    limits: &Limits,
) -> Result<Extracted, SourceError> {
    let dir = tempfile::Builder::new()
        .prefix("lectern-source-")
        .tempdir()
        .map_err(|e| unreadable(archive, format!("cannot create a temporary folder: {e}")))?;
    let mut job = Job {
        archive,
        root: dir.path().to_path_buf(),
        max_file_bytes,
        limits,
        entries: 0,
        total: 0,
        problems: Vec::new(),
    };
    let file = File::open(archive).map_err(|e| unreadable(archive, e.to_string()))?;
    let reader = BufReader::new(file);
    match kind {
        ArchiveKind::Tar => job.tar(reader)?,
        ArchiveKind::TarGz => job.tar(flate2::read::MultiGzDecoder::new(reader))?,
        ArchiveKind::TarXz => job.tar(xz2::read::XzDecoder::new_multi_decoder(reader))?,
        ArchiveKind::Zip => job.zip(reader)?,
    }
    Ok(Extracted { dir, problems: job.problems })
}

fn unreadable(path: &Path, reason: String) -> SourceError {
    SourceError::Unreadable { path: path.to_path_buf(), reason }
}

struct Job<'a> {
    archive: &'a Path,
    root: PathBuf,
    max_file_bytes: u64,
    limits: &'a Limits,
    entries: u64,
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
        let mut out = match File::create(&dest) {
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
            if self.total > self.limits.max_total_bytes {
                return Err(SourceError::TooLarge {
                    path: self.archive.to_path_buf(),
                    limit: self.limits.max_total_bytes,
                });
            }
            if written > cap {
                drop(out);
                let _ = fs::remove_file(&dest);
                self.problem(name, format!("file is over {cap} bytes; skipped"));
                return Ok(());
            }
            if let Err(e) = out.write_all(&buf[..n]) {
                self.problem(name, format!("cannot write: {e}"));
                return Ok(());
            }
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
