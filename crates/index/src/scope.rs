//! Which editions' sections a search reads, segment by segment: each
//! segment's ords of the searched editions in its edition column, and
//! whether a live section of them holds a term. The library's statistics
//! span every edition installed; a question's words are weighed by them,
//! but a word only another manual writes cannot be matched here.

use tantivy::columnar::StrColumn;
use tantivy::schema::IndexRecordOption;
use tantivy::{DocSet, TERMINATED, Term};

use crate::index::SnapshotInner;

/// The ords of the named editions in a segment's edition column (those it holds).
pub(crate) fn edition_ords(editions: &StrColumn, names: &[String]) -> Vec<u64> {
    names.iter().filter_map(|e| editions.dictionary().term_ord(e.as_bytes()).ok().flatten()).collect()
}

/// Each segment's ords of the named editions (empty where it holds none).
pub(crate) fn scope_ords(snap: &SnapshotInner, names: &[String]) -> Vec<Vec<u64>> {
    snap.columns
        .iter()
        .map(|c| c.edition.as_ref().map(|e| edition_ords(e, names)).unwrap_or_default())
        .collect()
}

/// True when a live section of the editions searched holds `term`
/// (`ords`: each segment's ords of those editions, from [`scope_ords`]): a
/// walk over its postings in the segments holding them, ended by the first
/// such section.
pub(crate) fn held_in(snap: &SnapshotInner, ords: &[Vec<u64>], term: &Term) -> bool {
    for ((reader, columns), ords) in snap.searcher.segment_readers().iter().zip(&snap.columns).zip(ords) {
        let Some(editions) = &columns.edition else { continue };
        if ords.is_empty() {
            continue;
        }
        let Ok(index) = reader.inverted_index(term.field()) else { continue };
        let Ok(Some(mut postings)) = index.read_postings(term, IndexRecordOption::Basic) else { continue };
        let alive = reader.alive_bitset();
        let mut doc = postings.doc();
        while doc != TERMINATED {
            if alive.is_none_or(|a| a.is_alive(doc))
                && editions.ords().first(doc).is_some_and(|o| ords.contains(&o))
            {
                return true;
            }
            doc = postings.advance();
        }
    }
    false
}
