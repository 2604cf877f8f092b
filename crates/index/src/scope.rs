//! Which editions' sections a search reads, segment by segment: each
//! segment's ords of the searched editions in its edition column, and
//! whether a live section of them holds a term. The library's statistics
//! span every edition installed; a question's words are weighed by them,
//! but a word only another manual writes cannot be matched here.

use std::ops::ControlFlow::{self, Break, Continue};

use tantivy::columnar::StrColumn;
use tantivy::schema::IndexRecordOption;
use tantivy::{DocSet, TERMINATED, Term};

use crate::index::SnapshotInner;

/// The postings of a word held by more than one section in this many are
/// not walked: such a word is in any scope but a small one, names no page,
/// and walking it would cost every query.
pub(crate) const MAX_WALKED_SHARE: u64 = 50;

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
/// (`ords`: each segment's ords of those editions, from [`scope_ords`]),
/// the walk ended by the first such section.
pub(crate) fn held_in(snap: &SnapshotInner, ords: &[Vec<u64>], term: &Term) -> bool {
    let segment = |i: usize, _: &StrColumn| ords.get(i).filter(|o| !o.is_empty());
    let visit = |ords: &&Vec<u64>, ord: u64| if ords.contains(&ord) { Break(()) } else { Continue(()) };
    walk_editions(snap, term, segment, visit).is_break()
}

/// A walk over the live sections holding `term`, each section's edition
/// ord handed to `visit` (until it breaks) with what `segment` made of its
/// segment (its index and edition column; None skips the segment).
pub(crate) fn walk_editions<S>(
    snap: &SnapshotInner,
    term: &Term,
    mut segment: impl FnMut(usize, &StrColumn) -> Option<S>,
    mut visit: impl FnMut(&S, u64) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for (i, (reader, columns)) in snap.searcher.segment_readers().iter().zip(&snap.columns).enumerate() {
        let Some(editions) = &columns.edition else { continue };
        let Some(state) = segment(i, editions) else { continue };
        let Ok(index) = reader.inverted_index(term.field()) else { continue };
        let Ok(Some(mut postings)) = index.read_postings(term, IndexRecordOption::Basic) else { continue };
        let alive = reader.alive_bitset();
        let mut doc = postings.doc();
        while doc != TERMINATED {
            if alive.is_none_or(|a| a.is_alive(doc))
                && let Some(ord) = editions.ords().first(doc)
            {
                visit(&state, ord)?;
            }
            doc = postings.advance();
        }
    }
    Continue(())
}
