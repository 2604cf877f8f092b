//! The index's one error type: what failed, and where.

use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("index at {path}: {message}")]
    Open { path: String, message: String },
    #[error(
        "index format {found} at {path}; this lectern reads format {expected}: run `lectern repair` to rebuild it"
    )]
    Format { path: String, found: u32, expected: u32 },
    #[error("index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    /// Commits kept landing between reading `meta.json` and reloading the
    /// reader, so no snapshot could be proven consistent.
    #[error("index: the index kept changing while it was being read")]
    KeptChanging,
}

impl IndexError {
    /// Opening or creating the index (or a file of it) at `path` failed.
    pub(crate) fn open(path: &Path, message: impl std::fmt::Display) -> IndexError {
        IndexError::Open { path: path.display().to_string(), message: message.to_string() }
    }
}
