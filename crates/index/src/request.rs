//! What a ranked search is asked and what it answers: the request, the
//! outcome with its flags, and one hit.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::query::ParsedQuery;

/// Cancellation flag shared with the caller (a face sets it when its client goes away).
pub type Cancel = Arc<AtomicBool>;

pub struct SearchRequest<'a> {
    pub query: &'a ParsedQuery,
    /// Edition keys to search (already resolved from scope + enabled).
    pub editions: &'a [String],
    /// The same manuals in other languages, installed beside the searched
    /// editions: the query's words that the searched editions translate are
    /// looked up there (see `twin`). Empty for none.
    pub twins: &'a [Twin],
    /// Treat the last plain word as a prefix (search as you type).
    pub last_word_prefix: bool,
    pub limit: usize,
    pub offset: usize,
    pub deadline: Instant,
    pub cancel: Option<Cancel>,
}

/// Another edition of a searched manual, in another language: its key and
/// site path prefix (`/postgresql`), and the searched edition's key and
/// prefix (`/zh-Hans/postgresql`), under which the searched edition has its
/// copy of each of the twin's pages, section for section.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Twin {
    pub edition: String,
    pub prefix: String,
    pub scope_edition: String,
    pub scope_prefix: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    pub section_key: String,
    pub edition: String,
    pub path: String,
    pub anchor: Option<String>,
    /// The id of the entry inside the section that defines a name the
    /// query asks (an option, a setting, a function), when there is one.
    pub entry: Option<String>,
    pub title: String,
    pub breadcrumb: Vec<String>,
    pub snippet: String,
    /// `[start, end)` ranges in Unicode scalar offsets of `snippet`.
    pub highlights: Vec<[usize; 2]>,
    pub score: f32,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchOutcome {
    pub total: usize,
    pub hits: Vec<Hit>,
    pub timed_out: bool,
    pub cancelled: bool,
    pub candidate_truncated: bool,
}
