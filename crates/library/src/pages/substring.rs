//! Substring search over a scope's pages: a page matches when the term
//! (NFC, case-folded) is a substring of its folded title or body. The
//! index's n-gram prefilter rules pages out, bodies are read in blocks, and
//! the walk stops once it has a page of matches and knows whether another
//! exists; excerpts are cut around the first match without splitting a scalar.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use lectern_index::{DocAddress, PageParts};
use unicode_normalization::UnicodeNormalization;

use crate::error::{LibraryError, invalid};
use crate::library::Library;
use crate::pages::scope::check_cursor;
use crate::pages::wire::{PageMatch, SearchPagesRequest, SearchPagesResponse};
use crate::pages::{PAGE_LIMIT, go_on};

/// Longest search term, in Unicode scalar values.
pub const MAX_TERM_CHARS: usize = 256;
/// Bodies are read in blocks of at most this many pages, so a search that
/// stops early reads few bodies and one that does not holds few at a time.
pub const BODY_BLOCK: usize = 64;
/// Length of a search excerpt, in Unicode scalar values.
pub const EXCERPT_CHARS: usize = 160;

fn check_term(term: &str) -> Result<(), LibraryError> {
    if term.trim().is_empty() {
        return Err(invalid("term is empty; give the text to find (e.g. \"install\")"));
    }
    let chars = term.chars().count();
    if chars > MAX_TERM_CHARS {
        return Err(invalid(format!(
            "term is {chars} characters long; at most {MAX_TERM_CHARS} are allowed"
        )));
    }
    Ok(())
}

impl Library {
    /// Pages whose folded title or body contains the folded term, in path
    /// order after `cursor`. Walks the scope's paths, skips pages the n-gram
    /// prefilter rules out, reads bodies in blocks of at most 64 and stops
    /// once it has `limit` matches and knows whether another exists.
    pub fn search_pages(&self, request: &SearchPagesRequest) -> Result<SearchPagesResponse, LibraryError> {
        self.search_pages_unless(request, None)
    }

    /// [`Library::search_pages`], stopped between blocks once `cancel` is set.
    pub fn search_pages_unless(
        &self,
        request: &SearchPagesRequest,
        cancel: Option<&AtomicBool>,
    ) -> Result<SearchPagesResponse, LibraryError> {
        check_term(&request.term)?;
        let limit = PAGE_LIMIT.check(request.limit)?;
        let cursor = check_cursor(request.cursor.as_deref())?;
        let view = self.view()?;
        let scope = view.scope(request.prefix.as_deref())?;
        let folded = lectern_index::text::fold(&request.term);
        let mut candidates: HashMap<&str, Option<Vec<DocAddress>>> = HashMap::new();
        let mut found: Vec<PageMatch> = Vec::new();
        let mut more = false;
        let mut rest = (scope.after(cursor)..scope.len()).filter(|&i| {
            let edition = scope.source_edition(i);
            candidates
                .entry(edition)
                .or_insert_with(|| view.snapshot.substring_candidate_docs(edition, &folded))
                .as_ref()
                .is_none_or(|docs| docs.binary_search(&scope.address(i)).is_ok())
        });
        'walk: loop {
            go_on(cancel)?;
            let block: Vec<usize> = rest.by_ref().take(BODY_BLOCK).collect();
            if block.is_empty() {
                break;
            }
            let addresses: Vec<DocAddress> = block.iter().map(|&i| scope.address(i)).collect();
            let parts = view.snapshot.page_parts_at(&addresses);
            for (i, PageParts { title, description, text, .. }) in block.into_iter().zip(parts) {
                let at = folded_find(&text, &folded);
                if at.is_none() && !lectern_index::text::fold(&title).contains(&folded) {
                    continue;
                }
                if found.len() == limit {
                    more = true;
                    break 'walk;
                }
                let excerpt = match at {
                    Some(range) => excerpt_at(&text, range),
                    None => excerpt_at(&text, 0..0),
                };
                found.push(PageMatch {
                    path: scope.path(i).into_owned(),
                    title,
                    description,
                    locale: scope.locale(i).to_owned(),
                    fallback: scope.fallback(i),
                    excerpt,
                });
            }
        }
        let next_cursor = if more { found.last().map(|m| m.path.clone()) } else { None };
        Ok(SearchPagesResponse { generation: view.generation.clone(), pages: found, next_cursor })
    }
}

/// Where the folded term first occurs in `text`, as a range of Unicode
/// scalar indices of the original text (approximate when NFC changed it).
pub(crate) fn folded_find(text: &str, folded_term: &str) -> Option<std::ops::Range<usize>> {
    if text.is_ascii() {
        // Folding ASCII is lowercasing, and never makes a non-ASCII term.
        let start = ascii_find_folded(text.as_bytes(), folded_term.as_bytes())?;
        return Some(start..start + folded_term.len());
    }
    let nfc: Cow<'_, str> = match unicode_normalization::is_nfc_quick(text.chars()) {
        unicode_normalization::IsNormalized::Yes => Cow::Borrowed(text),
        _ => Cow::Owned(text.nfc().collect()),
    };
    // Folding is per scalar, so fold(nfc) is the concatenation of each
    // scalar's folding: record where each scalar's folding starts.
    let mut folded = String::with_capacity(nfc.len());
    let mut starts = Vec::with_capacity(nfc.len());
    let mut buf = [0u8; 4];
    for c in nfc.chars() {
        starts.push(folded.len());
        if c.is_ascii() {
            folded.push(c.to_ascii_lowercase());
        } else {
            folded.push_str(&caseless::default_case_fold_str(c.encode_utf8(&mut buf)));
        }
    }
    let at = folded.find(folded_term)?;
    let first = starts.partition_point(|&s| s <= at).saturating_sub(1);
    let last = starts.partition_point(|&s| s < at + folded_term.len());
    let total = text.chars().count();
    Some(first.min(total)..last.min(total).max(first.min(total)))
}

/// Where the lowercase `needle` first occurs in ASCII `hay`, ignoring
/// ASCII case, without copying `hay`.
fn ascii_find_folded(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    if !needle.is_ascii() || needle.len() > hay.len() {
        return None;
    }
    let last_start = hay.len() - needle.len();
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), &hay[..=last_start])
        .find(|&at| hay[at + 1..at + needle.len()].eq_ignore_ascii_case(rest))
}

/// About [`EXCERPT_CHARS`] scalars of `text` around `range` (scalar
/// indices), with `…` where cut. Never splits a scalar.
pub(crate) fn excerpt_at(text: &str, range: std::ops::Range<usize>) -> String {
    let total = text.chars().count();
    let len = range.end.saturating_sub(range.start);
    let before = EXCERPT_CHARS.saturating_sub(len) / 3;
    let start = if range.is_empty() && range.start == 0 { 0 } else { range.start.saturating_sub(before) };
    let end = (start + EXCERPT_CHARS.max(len)).min(total);
    let start = end.saturating_sub(EXCERPT_CHARS.max(len)).min(start);
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(text.chars().skip(start).take(end - start));
    if end < total {
        out.push('…');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}
