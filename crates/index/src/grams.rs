//! The n-gram prefilter for the site's substring search: page documents
//! index the distinct 1-, 2- and 3-char grams and the distinct ASCII 4-char
//! grams of `fold(title) + "\n" + fold(text)`; a term's pages are those
//! holding all its ASCII 4-grams and all its grams of length min(3, len). A
//! superset of the true matches: callers verify each page.

use std::collections::BTreeSet;

use tantivy::DocAddress;
use tantivy::query::Query;

use crate::index::Snapshot;
use crate::records::term_query;
use crate::tokenizer::{ASCII_GRAM_CHARS, distinct_grams};

/// At most this many grams are intersected: fewer grams only widen the
/// superset, and long terms would otherwise build huge queries.
const MAX_GRAMS: usize = 24;

/// The grams a folded term must have in a page to possibly match: its
/// ASCII 4-grams (the most telling, first) and its grams of min(3, len) chars.
pub fn term_grams(folded_term: &str) -> Vec<&str> {
    let n = folded_term.chars().count().min(3);
    let all = distinct_grams(folded_term);
    let mut grams: Vec<&str> =
        all.iter().copied().filter(|g| g.chars().count() == ASCII_GRAM_CHARS).collect();
    grams.extend(all.iter().copied().filter(|g| g.chars().count() == n));
    grams.truncate(MAX_GRAMS);
    grams
}

/// Whether a page holds every gram of `folded_term` exactly when its folded
/// title or text contains the term: the term is itself an indexed gram (at
/// most 3 chars, or 4 ASCII chars) and holds no `\n`, the one character
/// that joins title and text in the indexed string.
pub fn grams_are_exact(folded_term: &str) -> bool {
    let chars = folded_term.chars().count();
    !folded_term.contains('\n')
        && (1..=3).contains(&chars) | (folded_term.is_ascii() && chars == ASCII_GRAM_CHARS)
}

impl Snapshot {
    /// Paths of the edition's pages whose folded title or text may contain
    /// `folded_term` (an n-gram prefilter; a superset of the true matches).
    /// None when the term is too short to prefilter (empty).
    pub fn substring_candidates(&self, edition: &str, folded_term: &str) -> Option<BTreeSet<String>> {
        let docs = self.substring_candidate_docs(edition, folded_term)?;
        Some(self.paths_of(&docs).into_iter().collect())
    }

    /// Like [`Snapshot::substring_candidates`], as the sorted addresses of
    /// the page documents (what [`Snapshot::page_rows`] reports).
    pub fn substring_candidate_docs(&self, edition: &str, folded_term: &str) -> Option<Vec<DocAddress>> {
        let grams = term_grams(folded_term);
        if grams.is_empty() {
            return None;
        }
        let f = &self.inner.fields;
        let clauses: Vec<Box<dyn Query>> = grams.iter().map(|g| term_query(f.grams, g)).collect();
        let query = self.page_query(edition, clauses);
        let mut docs = self.matching_docs(&query);
        docs.sort_unstable();
        Some(docs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grams_of_a_term() {
        assert_eq!(term_grams("abcd"), vec!["abcd", "abc", "bcd"]);
        assert_eq!(term_grams("abcde"), vec!["abcd", "bcde", "abc", "bcd", "cde"]);
        assert_eq!(term_grams("索引ab"), vec!["索引a", "引ab"]);
        assert_eq!(term_grams("索引"), vec!["索引"]);
        assert_eq!(term_grams("x"), vec!["x"]);
        assert!(term_grams("").is_empty());
        assert!(grams_are_exact("the") && grams_are_exact("索引") && grams_are_exact("--a-"));
        assert!(!grams_are_exact("quokka") && !grams_are_exact("创建索引") && !grams_are_exact("a\nb"));
        assert!(!grams_are_exact(""));
        assert_eq!(term_grams("aaaa"), vec!["aaaa", "aaa"]);
    }
}
