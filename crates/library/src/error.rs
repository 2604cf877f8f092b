//! Library errors with the stable codes every face maps once
//! (`invalid_argument`, `not_found`, `generation_changed`, ...).

use serde::{Deserialize, Serialize};

/// An error a face shows its client; `code()` is stable, the message says what
/// was wrong and what is allowed.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("{0}")]
    InvalidArgument(String),
    #[error("{0}")]
    NotFound(String),
    #[error(
        "the library changed: generation {expected} is gone, the current one is {current}; search again and use the new section keys and generation"
    )]
    GenerationChanged { expected: String, current: String },
    #[error("{0}")]
    Busy(String),
    #[error("{0}")]
    Timeout(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    Source(#[from] lectern_corpus::SourceError),
    #[error("{0}")]
    Config(#[from] lectern_corpus::SiteConfigError),
    #[error("{0}")]
    Index(#[from] lectern_index::IndexError),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{0}")]
    Internal(String),
}

/// The wire shape of an error on every face: `{"error":{"code","message"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ErrorDetail {
    pub code: String,
    pub message: String,
    /// For `generation_changed`: the current generation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation: Option<String>,
}

impl LibraryError {
    /// The stable error code.
    pub fn code(&self) -> &'static str {
        match self {
            LibraryError::InvalidArgument(_) | LibraryError::Config(_) => "invalid_argument",
            LibraryError::Source(lectern_corpus::SourceError::NotFound { .. }) => "not_found",
            LibraryError::Source(_) => "invalid_argument",
            LibraryError::NotFound(_) => "not_found",
            LibraryError::GenerationChanged { .. } => "generation_changed",
            LibraryError::Busy(_) => "busy",
            LibraryError::Timeout(_) => "timeout",
            LibraryError::TooLarge(_) => "too_large",
            LibraryError::Index(_) | LibraryError::Io { .. } | LibraryError::Internal(_) => "internal",
        }
    }

    /// The error as `{"error":{"code","message"}}`.
    pub fn body(&self) -> ErrorBody {
        let generation = match self {
            LibraryError::GenerationChanged { current, .. } => Some(current.clone()),
            _ => None,
        };
        ErrorBody {
            error: ErrorDetail { code: self.code().to_owned(), message: self.to_string(), generation },
        }
    }

    pub(crate) fn io(path: impl AsRef<std::path::Path>, source: std::io::Error) -> Self {
        LibraryError::Io { path: path.as_ref().display().to_string(), source }
    }
}

/// Builds an `invalid_argument` error.
pub(crate) fn invalid(message: impl Into<String>) -> LibraryError {
    LibraryError::InvalidArgument(message.into())
}
