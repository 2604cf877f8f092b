//! Walking a source folder: every regular file, with its `/`-separated path
//! relative to the source root, sorted; hidden entries skipped; symlinks that
//! leave the root (and symlinked folders) not followed; and reading those
//! files without following a link swapped in after the walk.

use std::ffi::CStr;
use std::fs;
use std::io::Read;
use std::os::fd::OwnedFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags};

use crate::limits::{Limits, SourceError};
use crate::page::Problem;

/// A file found in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Path inside the source, `/`-separated (`guide/install.md`).
    pub rel: String,
    /// Where it is read from (for a link inside the source, its target).
    pub abs: PathBuf,
    /// The file the walk saw there: reading refuses anything else, so a file
    /// swapped (for a link, say) after the walk is not read.
    pub identity: Option<FileId>,
}

/// A file's device and inode: which file a path led to when it was looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    fn of(stat: &rustix::fs::Stat) -> Self {
        #[allow(clippy::unnecessary_cast, reason = "the field types differ between platforms")]
        FileId { dev: stat.st_dev as u64, ino: stat.st_ino as u64 }
    }
}

/// Deepest folder nesting walked.
const MAX_DEPTH: usize = 64;

/// Lists the files under `root`, sorted by relative path.
///
/// Each folder is opened without following a link and checked to be the one
/// listed in its parent before its entries are read from that descriptor,
/// and entries are looked at relative to it: nothing swapped in by a racing
/// process is followed out of the source.
pub fn list_files(
    root: &Path,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> Result<Vec<SourceFile>, SourceError> {
    walk(root, Root::Given, limits, problems)
}

/// [`list_files`] for a folder found inside a source (its one inner folder,
/// a docset's `Documents`): a link there is not followed either.
pub fn list_files_within(
    root: &Path,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> Result<Vec<SourceFile>, SourceError> {
    walk(root, Root::Found, limits, problems)
}

/// Whether the walk's root is the folder the user named (a link to it is
/// followed) or one found inside it (not followed).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Root {
    Given,
    Found,
}

fn walk(
    root: &Path,
    kind: Root,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> Result<Vec<SourceFile>, SourceError> {
    let canonical_root = fs::canonicalize(root)
        .map_err(|e| SourceError::Unreadable { path: root.to_path_buf(), reason: e.to_string() })?;
    let mut files = Vec::new();
    let mut stack: Vec<(PathBuf, String, usize, Option<FileId>)> =
        vec![(root.to_path_buf(), String::new(), 0, None)];
    let mut seen: u64 = 0;
    while let Some((dir, rel_dir, depth, expected)) = stack.pop() {
        let follow = kind == Root::Given && depth == 0;
        let listing = open_dir(&dir, follow, expected).and_then(|fd| {
            let entries = Dir::read_from(&fd).map_err(std::io::Error::from)?;
            Ok((fd, entries))
        });
        let (fd, entries) = match listing {
            Ok(l) => l,
            Err(e) => {
                problems.push(Problem {
                    path: display_rel(&rel_dir),
                    reason: format!("cannot read folder: {e}"),
                });
                continue;
            }
        };
        for entry in entries {
            let Ok(entry) = entry else { continue };
            let raw_name: &CStr = entry.file_name();
            if raw_name == c"." || raw_name == c".." {
                continue;
            }
            seen += 1;
            if seen > limits.max_entries {
                return Err(SourceError::TooManyEntries {
                    path: root.to_path_buf(),
                    limit: limits.max_entries,
                });
            }
            let Ok(name) = raw_name.to_str() else {
                problems.push(Problem {
                    path: join(&rel_dir, &raw_name.to_string_lossy()),
                    reason: "file name is not valid UTF-8; skipped".to_owned(),
                });
                continue;
            };
            if name.starts_with('.') || name == "node_modules" {
                continue;
            }
            let rel = join(&rel_dir, name);
            let abs = dir.join(name);
            let Ok(stat) = rustix::fs::statat(&fd, raw_name, AtFlags::SYMLINK_NOFOLLOW) else { continue };
            match FileType::from_raw_mode(stat.st_mode) {
                FileType::Symlink => match fs::canonicalize(&abs) {
                    Ok(target) if target.starts_with(&canonical_root) => match fs::metadata(&target) {
                        Ok(meta) if meta.is_file() => {
                            let identity = Some(FileId { dev: meta.dev(), ino: meta.ino() });
                            files.push(SourceFile { rel, abs: target, identity });
                        }
                        _ => problems.push(Problem {
                            path: rel,
                            reason: "symbolic link to a folder not followed".to_owned(),
                        }),
                    },
                    Ok(_) => problems.push(Problem {
                        path: rel,
                        reason: "symbolic link leads outside the source folder; skipped".to_owned(),
                    }),
                    Err(_) => problems
                        .push(Problem { path: rel, reason: "broken symbolic link; skipped".to_owned() }),
                },
                FileType::Directory => {
                    if depth + 1 > MAX_DEPTH {
                        problems.push(Problem {
                            path: rel,
                            reason: format!("folder nested deeper than {MAX_DEPTH}; skipped"),
                        });
                    } else {
                        stack.push((abs, rel, depth + 1, Some(FileId::of(&stat))));
                    }
                }
                FileType::RegularFile => {
                    files.push(SourceFile { rel, abs, identity: Some(FileId::of(&stat)) });
                }
                _ => {}
            }
        }
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(files)
}

/// Opens a folder to list it, following a link only when `follow`; with
/// `expected` it must be the folder its parent listed.
fn open_dir(path: &Path, follow: bool, expected: Option<FileId>) -> std::io::Result<OwnedFd> {
    let mut flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    if !follow {
        flags |= OFlags::NOFOLLOW;
    }
    let fd = rustix::fs::open(path, flags, Mode::empty())?;
    if let Some(want) = expected
        && FileId::of(&rustix::fs::fstat(&fd)?) != want
    {
        return Err(std::io::Error::other("the folder changed while the source was read"));
    }
    Ok(fd)
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() { name.to_owned() } else { format!("{dir}/{name}") }
}

fn display_rel(rel: &str) -> String {
    if rel.is_empty() { ".".to_owned() } else { rel.to_owned() }
}

/// Reads a whole file, reading at most `max + 1` bytes whatever its size
/// claims; Err(reason) when it is bigger than `max`, not a regular file, a
/// symbolic link, or unreadable.
pub fn read_capped(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    read_checked(path, max, None)
}

/// [`read_capped`] for a file the walk found: it must still be that file.
pub fn read_source_file(file: &SourceFile, max: u64) -> Result<Vec<u8>, String> {
    read_checked(&file.abs, max, file.identity)
}

pub(crate) fn read_checked(path: &Path, max: u64, expected: Option<FileId>) -> Result<Vec<u8>, String> {
    let file = open_regular(path, max, expected)?;
    let hint = file.metadata().map(|m| m.len()).unwrap_or(0).min(max) as usize;
    let mut buf = Vec::with_capacity(hint + 1);
    file.take(max + 1).read_to_end(&mut buf).map_err(|e| format!("cannot read: {e}"))?;
    if buf.len() as u64 > max {
        return Err(crate::limits::file_too_large(max, None));
    }
    Ok(buf)
}

/// Opens a file for reading, then checks what was opened (never the path
/// first): a link at the last component is not followed, a fifo or device
/// is not waited on, and only a regular file of at most `max` bytes (and,
/// with `expected`, the very file the walk saw) is accepted.
pub fn open_regular(path: &Path, max: u64, expected: Option<FileId>) -> Result<fs::File, String> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = rustix::fs::open(path, flags, Mode::empty()).map_err(|e| match e {
        rustix::io::Errno::LOOP => "symbolic link not followed; skipped".to_owned(),
        e => format!("cannot read: {}", std::io::Error::from(e)),
    })?;
    let stat = rustix::fs::fstat(&fd).map_err(|e| format!("cannot read: {}", std::io::Error::from(e)))?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err("not a regular file; skipped".to_owned());
    }
    if expected.is_some_and(|want| want != FileId::of(&stat)) {
        return Err("file changed while the source was read; skipped".to_owned());
    }
    #[allow(clippy::unnecessary_cast, reason = "the field type differs between platforms")]
    if stat.st_size as u64 > max {
        return Err(crate::limits::file_too_large(max, Some(stat.st_size as u64)));
    }
    Ok(fs::File::from(fd))
}

/// If `dir` holds exactly one folder (hidden entries aside) and nothing else,
/// that folder; archives usually wrap their content this way.
pub fn single_folder(dir: &Path) -> Option<PathBuf> {
    let mut only = None;
    for entry in fs::read_dir(dir).ok()? {
        let entry = entry.ok()?;
        let name = entry.file_name();
        if name.to_str().is_some_and(|n| n.starts_with('.')) {
            continue;
        }
        let meta = fs::symlink_metadata(entry.path()).ok()?;
        if !meta.is_dir() || only.is_some() {
            return None;
        }
        only = Some(entry.path());
    }
    only
}
