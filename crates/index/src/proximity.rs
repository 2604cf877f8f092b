//! Proximity: the query's neighbouring words found close together in a
//! section, scored on the best candidates only.
//!
//! Each two neighbouring words of the query make a pair; a section scores
//! for every place its body or title holds the two within
//! [`PROXIMITY_SLOP`] positions of where a phrase would put them (in
//! either order), BM25-saturated like a term's frequency and weighed by the
//! two words' rarity. Positions are read straight from each term's postings
//! for the few candidates rescored, one postings list per term and field,
//! with the rarity the query compiler already measured: no phrase queries,
//! no second lookup of the same statistics.

use tantivy::postings::Postings;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

use crate::schema::Fields;
use crate::stats::Stats;

/// Two neighbouring words count as close when the second stands up to this
/// many positions from where a phrase would put it, before or after.
const PROXIMITY_SLOP: u32 = 3;
/// BM25's term-frequency saturation and length normalisation, as tantivy's.
const K1: Score = 1.2;
const B: Score = 0.75;

/// One pair of neighbouring words: the left one's last term, the right
/// one's first, and the pair's weight in the body (the two words' rarity
/// there).
#[derive(Debug, Clone, PartialEq)]
struct Pair {
    left: usize,
    right: usize,
    weight: Score,
}

/// The query's pairs, over its distinct terms.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Proximity {
    terms: Vec<String>,
    pairs: Vec<Pair>,
}

impl Proximity {
    /// From the query's words in order, each as its first and last term
    /// with its rarity (None for a word that cannot pair, such as a prefix
    /// expansion). None when no two neighbours pair.
    pub(crate) fn new(words: &[Option<(&str, &str, Score)>]) -> Option<Proximity> {
        let mut terms: Vec<String> = Vec::new();
        let mut id = |t: &str| match terms.iter().position(|x| x == t) {
            Some(i) => i,
            None => {
                terms.push(t.to_owned());
                terms.len() - 1
            }
        };
        let mut pairs = Vec::new();
        for w in words.windows(2) {
            let (Some((_, a_last, a_idf)), Some((b_first, _, b_idf))) = (w[0], w[1]) else { continue };
            if a_last == b_first {
                continue;
            }
            pairs.push(Pair { left: id(a_last), right: id(b_first), weight: a_idf + b_idf });
        }
        (!pairs.is_empty()).then_some(Proximity { terms, pairs })
    }

    /// What scoring needs beyond the pairs, from the whole index as BM25
    /// takes it: each field's average length, and the pairs' weights in
    /// the title, `title_boost` times the two words' rarity among titles
    /// (titles are few and short: a word rare in bodies may be common in
    /// titles, and the other way round).
    pub(crate) fn prepare(&self, stats: &Stats<'_>, f: &Fields, title_boost: Score) -> Prepared {
        let n = stats.searcher.num_docs() as Score;
        let idf: Vec<Score> = self
            .terms
            .iter()
            .map(|t| bm25_idf(stats.doc_freq_of(f.title, t).unwrap_or(0) as Score, n))
            .collect();
        let title = self.pairs.iter().map(|p| title_boost * (idf[p.left] + idf[p.right])).collect();
        let body = self.pairs.iter().map(|p| p.weight).collect();
        Prepared {
            fields: [(f.body, stats.average_len(f.body), body), (f.title, stats.average_len(f.title), title)],
        }
    }

    /// The proximity score of each of `docs` (ascending, one segment's). A
    /// doc whose fields cannot be read scores 0.
    pub(crate) fn scores(&self, reader: &SegmentReader, prepared: &Prepared, docs: &[DocId]) -> Vec<Score> {
        let mut out = vec![0.0; docs.len()];
        for (field, average, weights) in &prepared.fields {
            let _ = self.add_field(reader, (*field, *average, weights), docs, &mut out);
        }
        out
    }

    fn add_field(
        &self,
        reader: &SegmentReader,
        (field, average, weights): (Field, Score, &[Score]),
        docs: &[DocId],
        out: &mut [Score],
    ) -> tantivy::Result<()> {
        let norms = reader.get_fieldnorms_reader(field)?;
        let positions = positions(reader, field, &self.terms, docs)?;
        for (i, &doc) in docs.iter().enumerate() {
            let norm = K1 * (1.0 - B + B * norms.fieldnorm(doc) as Score / average);
            for (pair, weight) in self.pairs.iter().zip(weights) {
                let close = close_count(&positions[pair.left][i], &positions[pair.right][i]) as Score;
                if close > 0.0 {
                    out[i] += weight * (1.0 + K1) * close / (close + norm);
                }
            }
        }
        Ok(())
    }
}

/// Each term's positions in each of `docs` (ascending, one segment's) in
/// one field: `positions[term][doc]`, empty where the term is absent.
pub(crate) fn positions(
    reader: &SegmentReader,
    field: Field,
    terms: &[String],
    docs: &[DocId],
) -> tantivy::Result<Vec<Vec<Vec<u32>>>> {
    let index = reader.inverted_index(field)?;
    let mut positions: Vec<Vec<Vec<u32>>> = Vec::with_capacity(terms.len());
    for t in terms {
        let term = Term::from_field_text(field, t);
        let mut per_doc = vec![Vec::new(); docs.len()];
        if let Some(mut postings) = index.read_postings(&term, IndexRecordOption::WithFreqsAndPositions)? {
            for (i, &doc) in docs.iter().enumerate() {
                if postings.doc() < doc {
                    postings.seek(doc);
                }
                if postings.doc() == TERMINATED {
                    break;
                }
                if postings.doc() == doc {
                    postings.positions(&mut per_doc[i]);
                }
            }
        }
        positions.push(per_doc);
    }
    Ok(positions)
}

/// A [`Proximity`]'s whole-index figures for one search: per field (body,
/// title), its average length and each pair's weight.
pub(crate) struct Prepared {
    fields: [(Field, Score, Vec<Score>); 2],
}

/// BM25's inverse document frequency of a term found in `df` of `n`
/// documents, as tantivy computes it.
pub(crate) fn bm25_idf(df: Score, n: Score) -> Score {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// How many times `right` follows `left` within [`PROXIMITY_SLOP`] of the
/// next position, before or after, each position used once (both
/// ascending): a sloppy two-word phrase's frequency.
fn close_count(left: &[u32], right: &[u32]) -> usize {
    let (mut l, mut r, mut count) = (0, 0, 0);
    while l < left.len() && r < right.len() {
        // Where the right word would stand in a phrase, and where it is.
        let (lv, rv) = (left[l] + 1, right[r]);
        if lv.abs_diff(rv) <= PROXIMITY_SLOP {
            // A later left position nearer this right one is a better match.
            while l + 1 < left.len() && left[l + 1] < rv {
                l += 1;
            }
            count += 1;
            l += 1;
            r += 1;
        } else if lv < rv {
            l += 1;
        } else {
            r += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_words_count_once_per_position_in_either_order() {
        assert_eq!(close_count(&[10], &[11]), 1);
        assert_eq!(close_count(&[10], &[14]), 1);
        assert_eq!(close_count(&[10], &[15]), 0);
        // Before the left word: "replication streaming" for "streaming replication".
        assert_eq!(close_count(&[10], &[9]), 1);
        assert_eq!(close_count(&[10], &[8]), 1);
        assert_eq!(close_count(&[10], &[7]), 0);
        assert_eq!(close_count(&[1, 20, 40], &[2, 22, 90]), 2);
        assert_eq!(close_count(&[1, 2, 3], &[4]), 1);
        assert_eq!(close_count(&[], &[4]), 0);
    }

    #[test]
    fn neighbours_pair_and_words_that_cannot_pair_break_the_chain() {
        let words = [
            Some(("stream", "stream", 2.0)),
            Some(("replic", "replic", 3.0)),
            None,
            Some(("slot", "slot", 1.0)),
        ];
        let p = Proximity::new(&words).unwrap();
        assert_eq!(p.terms, vec!["stream", "replic"]);
        assert_eq!(p.pairs, vec![Pair { left: 0, right: 1, weight: 5.0 }]);
        assert_eq!(Proximity::new(&words[2..]), None);
        assert_eq!(Proximity::new(&[Some(("a", "a", 1.0)), Some(("a", "a", 1.0))]), None);
    }
}
