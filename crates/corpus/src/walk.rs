//! Walking a source folder: every regular file, with its `/`-separated path
//! relative to the source root, sorted; hidden entries skipped; symlinks that
//! leave the root (and symlinked folders) not followed.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::page::Problem;
use crate::source::{Limits, SourceError};

/// A file found in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Path inside the source, `/`-separated (`guide/install.md`).
    pub rel: String,
    pub abs: PathBuf,
}

/// Deepest folder nesting walked.
const MAX_DEPTH: usize = 64;

/// Lists the files under `root`, sorted by relative path.
pub fn list_files(
    root: &Path,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> Result<Vec<SourceFile>, SourceError> {
    let canonical_root = fs::canonicalize(root)
        .map_err(|e| SourceError::Unreadable { path: root.to_path_buf(), reason: e.to_string() })?;
    let mut files = Vec::new();
    let mut stack: Vec<(PathBuf, String, usize)> = vec![(root.to_path_buf(), String::new(), 0)];
    let mut seen: u64 = 0;
    while let Some((dir, rel_dir, depth)) = stack.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
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
            seen += 1;
            if seen > limits.max_entries {
                return Err(SourceError::TooManyEntries {
                    path: root.to_path_buf(),
                    limit: limits.max_entries,
                });
            }
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                problems.push(Problem {
                    path: join(&rel_dir, &name.to_string_lossy()),
                    reason: "file name is not valid UTF-8; skipped".to_owned(),
                });
                continue;
            };
            if name.starts_with('.') || name == "node_modules" {
                continue;
            }
            let rel = join(&rel_dir, name);
            let abs = entry.path();
            let Ok(meta) = fs::symlink_metadata(&abs) else { continue };
            if meta.is_symlink() {
                match fs::canonicalize(&abs) {
                    Ok(target) if target.starts_with(&canonical_root) => {
                        if target.is_file() {
                            files.push(SourceFile { rel, abs });
                        } else {
                            problems.push(Problem {
                                path: rel,
                                reason: "symbolic link to a folder not followed".to_owned(),
                            });
                        }
                    }
                    Ok(_) => problems.push(Problem {
                        path: rel,
                        reason: "symbolic link leads outside the source folder; skipped".to_owned(),
                    }),
                    Err(_) => problems
                        .push(Problem { path: rel, reason: "broken symbolic link; skipped".to_owned() }),
                }
            } else if meta.is_dir() {
                if depth + 1 > MAX_DEPTH {
                    problems.push(Problem {
                        path: rel,
                        reason: format!("folder nested deeper than {MAX_DEPTH}; skipped"),
                    });
                } else {
                    stack.push((abs, rel, depth + 1));
                }
            } else if meta.is_file() {
                files.push(SourceFile { rel, abs });
            }
        }
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(files)
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() { name.to_owned() } else { format!("{dir}/{name}") }
}

fn display_rel(rel: &str) -> String {
    if rel.is_empty() { ".".to_owned() } else { rel.to_owned() }
}

/// Reads a whole file, reading at most `max + 1` bytes whatever its size
/// claims; Err(reason) when it is bigger than `max` or unreadable.
pub fn read_capped(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let file = fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let hint = file.metadata().map(|m| m.len()).unwrap_or(0).min(max) as usize;
    let mut buf = Vec::with_capacity(hint + 1);
    file.take(max + 1).read_to_end(&mut buf).map_err(|e| format!("cannot read: {e}"))?;
    if buf.len() as u64 > max {
        return Err(format!("file is over {max} bytes; skipped"));
    }
    Ok(buf)
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
