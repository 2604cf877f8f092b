//! What reading a source may cost (bytes, entries, a docset's index) and how
//! reading one fails: [`Limits`] and [`SourceError`], shared by the walk, the
//! archive extractor, the docset reader and `read_source`.

use std::path::PathBuf;

use crate::docset;
use crate::page::Problem;

/// Largest single file accepted from a source; a bigger one is reported and
/// skipped while the rest of the source is still read.
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// Why a file over the per-file cap `max` was skipped, with its size when known.
pub fn file_too_large(max: u64, size: Option<u64>) -> String {
    let has = size.map(|s| format!("; this one has {s} bytes")).unwrap_or_default();
    let mib = max as f64 / (1024.0 * 1024.0);
    format!("file is over {max} bytes ({mib:.0} MiB, the most one document may have{has}); skipped")
}

/// Caps against archive bombs and runaway folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Total bytes extracted from an archive.
    pub max_total_bytes: u64,
    /// Entries in an archive, or files and folders in a source folder.
    pub max_entries: u64,
    /// Bounds on reading a docset's index.
    pub index: docset::IndexBounds,
    /// Caps on the assets (images, downloads) pages reference.
    pub assets: crate::assets::AssetLimits,
}

/// Most bytes an archive may expand to.
pub const MAX_TOTAL_BYTES: u64 = 4 * 1024 * 1024 * 1024;
/// Most entries an archive (or folder) may hold.
pub const MAX_ENTRIES: u64 = 500_000;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_total_bytes: MAX_TOTAL_BYTES,
            max_entries: MAX_ENTRIES,
            index: docset::IndexBounds::default(),
            assets: crate::assets::AssetLimits::default(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("{path}: no such file or directory")]
    NotFound { path: PathBuf },
    #[error("{path}: {reason}")]
    Unreadable { path: PathBuf, reason: String },
    #[error("{path}: cannot tell the format ({reason}); pass --format markdown|html|docset")]
    UnknownFormat { path: PathBuf, reason: String },
    /// A folder of manual pages in roff (`ls.1.gz`) and nothing else to read.
    #[error(
        "{path}: holds manual pages in roff ({count} in all, e.g. {example}), which Lectern does not read; \
         convert them to HTML first (e.g. `man -Thtml ls > ls.html` with groff, or `mandoc -Thtml`) and add that folder"
    )]
    RoffManPages { path: PathBuf, count: usize, example: String },
    #[error("{}: no pages found{}", path.display(), why_empty(problems, *drafts))]
    Empty { path: PathBuf, problems: Vec<Problem>, drafts: usize },
    #[error("{path}: archive expands to more than {limit} bytes; refusing it (archive bomb?)")]
    TooLarge { path: PathBuf, limit: u64 },
    #[error("{path}: more than {limit} entries; refusing it (archive bomb?)")]
    TooManyEntries { path: PathBuf, limit: u64 },
    /// An archive that expands far more than documentation does; `reason`
    /// says by how much and what is allowed.
    #[error("{path}: {reason}; refusing it (archive bomb?)")]
    Bomb { path: PathBuf, reason: String },
    /// A docset over one of the bounds its index is read under; `reason`
    /// says what was over and what is allowed.
    #[error("{path}: refusing this docset: {reason}")]
    DocsetRefused { path: PathBuf, reason: String },
    /// Reading ran past the deadline the caller set; `done` of `total`
    /// files were read.
    #[error(
        "{path}: stopped after {done} of {total} files: the time allowed for reading this source ran out"
    )]
    Deadline { path: PathBuf, done: usize, total: usize },
}

/// Why a source gave no pages: the drafts left out, and the skipped files
/// with the reasons of the first few.
fn why_empty(problems: &[Problem], drafts: usize) -> String {
    const SHOWN: usize = 3;
    let mut out = String::new();
    if drafts > 0 {
        out.push_str(&format!("; {drafts} pages are drafts (draft: true), which are never published"));
    }
    if problems.is_empty() {
        if drafts == 0 {
            out.push_str("; no file with a page extension (.md, .markdown, .html, .htm, .xhtml) was found");
        }
        return out;
    }
    out.push_str(&format!("; {} files skipped: ", problems.len()));
    let shown: Vec<String> =
        problems.iter().take(SHOWN).map(|p| format!("{}: {}", p.path, p.reason)).collect();
    out.push_str(&shown.join("; "));
    if problems.len() > SHOWN {
        out.push_str(&format!("; and {} more", problems.len() - SHOWN));
    }
    out
}
