//! Substring search over a scope's pages: a page matches when the term
//! (NFC, case-folded) is a substring of its folded title or body. The
//! index's n-gram prefilter rules pages out, bodies are read in blocks, and
//! the walk stops once it has a page of matches and knows whether another
//! exists; excerpts are cut around the first match without splitting a scalar.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use caseless::Caseless;
use lectern_index::{DocAddress, PageParts};
use unicode_normalization::UnicodeNormalization;

use crate::error::{LibraryError, invalid};
use crate::library::Library;
use crate::pages::scope::{Scope, check_cursor};
use crate::pages::wire::{PageMatch, PagesElsewhere, SearchPagesRequest, SearchPagesResponse};
use crate::pages::{PAGE_LIMIT, go_on};
use crate::view::View;

/// Longest search term, in Unicode scalar values.
pub const MAX_TERM_CHARS: usize = 256;
/// A search looks for a cancel this often, in pages checked.
const CANCEL_EVERY: usize = 64;
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
    /// prefilter rules out, reads only the bodies it checks or shows (kept
    /// for the generation's later searches) and stops once it has `limit`
    /// matches and knows whether another exists.
    pub fn search_pages(&self, request: &SearchPagesRequest) -> Result<SearchPagesResponse, LibraryError> {
        self.search_pages_unless(request, None)
    }

    /// [`Library::search_pages`], stopped once `cancel` is set.
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
        let (found, more) = walk(&view, &scope, &folded, scope.after(cursor), limit, cancel)?;
        let pages: Vec<PageMatch> = found
            .into_iter()
            .map(|(i, body, at)| PageMatch {
                path: scope.path(i).into_owned(),
                title: body.title.clone(),
                description: body.description.clone(),
                locale: scope.locale(i).to_owned(),
                fallback: scope.fallback(i),
                excerpt: excerpt_at(&body.text, &body.title, at.unwrap_or(0..0)),
            })
            .collect();
        let next_cursor = if more { pages.last().map(|m| m.path.clone()) } else { None };
        let mut response = SearchPagesResponse {
            generation: view.generation.clone(),
            pages,
            next_cursor,
            elsewhere: Vec::new(),
            hint: None,
        };
        if response.pages.is_empty() && cursor.is_none() {
            response.elsewhere = elsewhere(&view, &scope, &folded, cancel)?;
            response.hint = pages_hint(request.prefix.as_deref(), &response.elsewhere);
        }
        Ok(response)
    }
}

/// A match of a walk: the scope entry, its body, where the term is in its text.
type Found = (usize, Arc<PageParts>, Option<std::ops::Range<usize>>);

/// The first `limit` matches of the folded term in `scope` from entry
/// `from` on, and whether another exists. Skips pages the n-gram prefilter
/// rules out; when the prefilter is exact, a candidate is a match, so no
/// body is read but those returned and the match after them is known unread.
fn walk(
    view: &View,
    scope: &Scope,
    folded: &str,
    from: usize,
    limit: usize,
    cancel: Option<&AtomicBool>,
) -> Result<(Vec<Found>, bool), LibraryError> {
    let exact = lectern_index::grams::grams_are_exact(folded);
    let finder = memchr::memmem::Finder::new(folded.as_bytes());
    let mut candidates: HashMap<&str, Option<Vec<DocAddress>>> = HashMap::new();
    let mut found: Vec<Found> = Vec::new();
    let rest = (from..scope.len()).filter(|&i| {
        let edition = scope.source_edition(i);
        candidates
            .entry(edition)
            .or_insert_with(|| view.snapshot.substring_candidate_docs(edition, folded))
            .as_ref()
            .is_none_or(|docs| docs.binary_search(&scope.address(i)).is_ok())
    });
    for (checked, i) in rest.enumerate() {
        if checked % CANCEL_EVERY == 0 {
            go_on(cancel)?;
        }
        if found.len() == limit && exact {
            return Ok((found, true));
        }
        let body = view.body(&scope.address(i));
        let at = folded_find_with(&body.text, folded, &finder);
        if at.is_none() && !lectern_index::text::fold(&body.title).contains(folded) {
            continue;
        }
        if found.len() == limit {
            return Ok((found, true));
        }
        found.push((i, body, at));
    }
    Ok((found, false))
}

/// Most matches counted in each other version for a zero's `elsewhere`.
pub const ELSEWHERE_COUNT: usize = 100;

/// For a search with no match in `scope`: every other enabled version
/// (by prefix, none of whose pages the scope lists) with matches, and how
/// many (at most [`ELSEWHERE_COUNT`] counted).
fn elsewhere(
    view: &View,
    scope: &Scope,
    folded: &str,
    cancel: Option<&AtomicBool>,
) -> Result<Vec<PagesElsewhere>, LibraryError> {
    let searched: HashSet<&str> = (0..scope.len()).map(|i| scope.source_edition(i)).collect();
    let mut out = Vec::new();
    let mut others: Vec<_> = view.manifest.enabled().filter(|e| !searched.contains(e.id.as_str())).collect();
    others.sort_by(|a, b| a.prefix.cmp(&b.prefix));
    for e in others {
        let other = view.scope(Some(&e.prefix))?;
        let (found, more) = walk(view, &other, folded, 0, ELSEWHERE_COUNT, cancel)?;
        if !found.is_empty() {
            out.push(PagesElsewhere { prefix: e.prefix.clone(), total: found.len(), more });
        }
    }
    Ok(out)
}

/// The sentence of a zero with matches elsewhere: `0 in /app; 3 in
/// /zh-Hans/app: search with prefix /zh-Hans/app`.
fn pages_hint(prefix: Option<&str>, elsewhere: &[PagesElsewhere]) -> Option<String> {
    if elsewhere.is_empty() {
        return None;
    }
    let there: Vec<String> = elsewhere
        .iter()
        .map(|e| {
            format!(
                "{}{} in {}: search with prefix {}",
                e.total,
                if e.more { "+" } else { "" },
                e.prefix,
                e.prefix
            )
        })
        .collect();
    Some(format!("0 in {}; {}", prefix.unwrap_or("the default locale"), there.join("; ")))
}

/// Where the folded term first occurs in `text`, as a range of Unicode
/// scalar indices of the original text (approximate when NFC changed it).
/// The one-call form of what a search does with one finder for all pages.
#[cfg(test)]
pub(crate) fn folded_find(text: &str, folded_term: &str) -> Option<std::ops::Range<usize>> {
    folded_find_with(text, folded_term, &memchr::memmem::Finder::new(folded_term.as_bytes()))
}

/// [`folded_find`] with the term's finder built once per search.
fn folded_find_with(
    text: &str,
    folded_term: &str,
    finder: &memchr::memmem::Finder<'_>,
) -> Option<std::ops::Range<usize>> {
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
    // scalar's folding: record where each scalar's folding starts. Scalars
    // whose folding is themselves (every CJK one) are copied as they are.
    let mut folded = String::with_capacity(nfc.len());
    let mut starts = Vec::with_capacity(nfc.len());
    for c in nfc.chars() {
        starts.push(folded.len());
        if c.is_ascii() {
            folded.push(c.to_ascii_lowercase());
        } else {
            folded.extend(std::iter::once(c).default_case_fold());
        }
    }
    let at = finder.find(folded.as_bytes())?;
    let first = starts.partition_point(|&s| s <= at).saturating_sub(1);
    let last = starts.partition_point(|&s| s < at + folded_term.len());
    let total = starts.len().min(text.chars().count());
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
/// indices), with `…` where cut. Never splits a scalar or a word (a cut
/// falls between two CJK chars or beside a char that is not a word's), and
/// leaves out the page's title where the text opens with it: the title is
/// shown above the excerpt, and a match in it is shown there.
pub(crate) fn excerpt_at(text: &str, title: &str, range: std::ops::Range<usize>) -> String {
    let lead = text[..lectern_index::snippet::title_lead(text, title)].chars().count();
    let range = if range.start < lead { lead..lead } else { range };
    // No window reaches past this many chars: the text is read no further
    // (a longer text's count stops there, which still says it goes on).
    let reach = range.end.saturating_add(EXCERPT_CHARS + 1);
    let chars: Vec<char> = text.chars().take(reach).collect();
    let total = chars.len();
    let len = range.end.saturating_sub(range.start);
    let before = EXCERPT_CHARS.saturating_sub(len) / 3;
    let start =
        if range.is_empty() && range.start == lead { lead } else { range.start.saturating_sub(before) };
    let end = (start.max(lead) + EXCERPT_CHARS.max(len)).min(total);
    let mut start = end.saturating_sub(EXCERPT_CHARS.max(len)).min(start).max(lead);
    let mut end = end.max(start);
    let joins = |c: char| c == '_' || lectern_index::text::is_word_char(c);
    let mid_word = |at: usize| at > 0 && at < total && joins(chars[at - 1]) && joins(chars[at]);
    if mid_word(start) {
        let past = start + chars[start..end].iter().take_while(|&&c| joins(c)).count();
        if past < end && (range.is_empty() || past <= range.start) {
            start = past;
        } else {
            start -= chars[lead..start].iter().rev().take_while(|&&c| joins(c)).count();
        }
    }
    if mid_word(end) {
        let back = end - chars[start..end].iter().rev().take_while(|&&c| joins(c)).count();
        if back > start && back >= range.end {
            end = back;
        }
    }
    let mut out = String::new();
    if start > lead {
        out.push('…');
    }
    out.extend(&chars[start..end]);
    if end < total {
        out.push('…');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}
