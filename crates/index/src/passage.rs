//! Passage coverage: how much of a question one short passage of a section
//! holds, scored on the best candidates only.
//!
//! A question's words spread over a long section say less than the same
//! words in one sentence of it: a function table's row ("Cancels the current
//! query of the session…") answers "cancel a query another session is
//! running" though the table around it is long and about other things. For
//! each candidate the passage score is the largest share of the question's
//! weight (the coverage weights of tier 2) that any [`PASSAGE_SPAN`]
//! consecutive positions of its body hold, each word counted once. It reads
//! the same postings as proximity, for the same few candidates.

use tantivy::{DocId, Score, SegmentReader};

use crate::proximity::positions;
use crate::schema::Fields;

/// A passage is this many consecutive positions (a sentence or two; a CJK
/// char is a position, as is a Latin word).
const PASSAGE_SPAN: u32 = 24;
/// Words of a question scored, at most (a 256-char Chinese question has
/// about 250 bigrams): the first ones.
pub(crate) const MAX_WORDS: usize = 32;
/// Positions of a word read per section, at most (the first ones): a
/// section's cost stays bounded whatever its length.
const MAX_POSITIONS: usize = 512;

/// The question's words for passage coverage: each as one term (a phrase by
/// its first) or as any of its spellings' terms, with its weight.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Passage {
    terms: Vec<String>,
    /// Per word: its terms (indexes into `terms`) and its weight.
    words: Words,
    total: Score,
}

impl Passage {
    /// From each word's terms and weight; None for fewer than two words.
    pub(crate) fn new<'a>(words: impl IntoIterator<Item = (Vec<&'a str>, Score)>) -> Option<Passage> {
        let (terms, words, total) = question_words(words)?;
        Some(Passage { terms, words, total })
    }

    /// Each of `docs` (ascending, one segment's): the share of the
    /// question's weight its best passage holds, 0 to 1. A doc whose body
    /// cannot be read scores 0.
    pub(crate) fn scores(&self, reader: &SegmentReader, f: &Fields, docs: &[DocId]) -> Vec<Score> {
        let Ok(positions) = positions(reader, f.body, &self.terms, docs) else {
            return vec![0.0; docs.len()];
        };
        (0..docs.len())
            .map(|i| {
                let mut events: Vec<(u32, usize)> = Vec::new();
                for (w, (ids, _)) in self.words.iter().enumerate() {
                    for &term in ids {
                        events.extend(positions[term][i].iter().take(MAX_POSITIONS).map(|&p| (p, w)));
                    }
                }
                events.sort_unstable();
                best_window(&events, &self.words) / self.total
            })
            .collect()
    }
}

/// Each word of a question: its terms (indexes into the distinct terms)
/// and its weight.
pub(crate) type Words = Vec<(Vec<usize>, Score)>;

/// A question's words (each its terms, or its spellings' terms, with its
/// weight) as their distinct terms, each word's indexes into them and the
/// sum of the weights: the first [`MAX_WORDS`] distinct words. None for
/// fewer than two words or no weight.
pub(crate) fn question_words<'a>(
    words: impl IntoIterator<Item = (Vec<&'a str>, Score)>,
) -> Option<(Vec<String>, Words, Score)> {
    let mut terms: Vec<String> = Vec::new();
    let mut out: Words = Vec::new();
    for (spellings, weight) in words {
        if out.len() == MAX_WORDS {
            break;
        }
        let mut ids: Vec<usize> = Vec::new();
        for term in spellings {
            let id = terms.iter().position(|t| t == term).unwrap_or_else(|| {
                terms.push(term.to_owned());
                terms.len() - 1
            });
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        if !ids.is_empty() && !out.iter().any(|w| w.0 == ids) {
            out.push((ids, weight));
        }
    }
    let total: Score = out.iter().map(|w| w.1).sum();
    (out.len() >= 2 && total > 0.0).then_some((terms, out, total))
}

/// The largest weight of distinct words found within [`PASSAGE_SPAN`]
/// positions of one another (`events`: position and word, ascending).
fn best_window(events: &[(u32, usize)], words: &[(Vec<usize>, Score)]) -> Score {
    let mut count = vec![0u32; words.len()];
    let (mut weight, mut best, mut left) = (0.0, 0.0, 0);
    for &(position, word) in events {
        while events[left].0 + PASSAGE_SPAN <= position {
            let gone = events[left].1;
            count[gone] -= 1;
            if count[gone] == 0 {
                weight -= words[gone].1;
            }
            left += 1;
        }
        if count[word] == 0 {
            weight += words[word].1;
        }
        count[word] += 1;
        best = Score::max(best, weight);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_window_counts_each_word_once() {
        let words = [(vec![0], 1.0), (vec![1], 2.0), (vec![2], 2.5)];
        // Words 0 and 1 together (0 twice), then 2 alone far off: the pair's weight.
        assert_eq!(best_window(&[(0, 0), (1, 1), (2, 0), (100, 2)], &words), 3.0);
        // All three within the span.
        assert_eq!(best_window(&[(0, 0), (10, 1), (23, 2)], &words), 5.5);
        // One past the span: the last two only.
        assert_eq!(best_window(&[(0, 0), (10, 1), (24, 2)], &words), 4.5);
        assert_eq!(best_window(&[], &words), 0.0);
    }

    #[test]
    fn words_share_terms_once_and_one_word_is_no_passage() {
        let p = Passage::new([(vec!["cancel"], 1.0), (vec!["query"], 2.0), (vec!["cancel"], 1.0)]).unwrap();
        assert_eq!(p.terms, ["cancel", "query"]);
        assert_eq!(p.total, 3.0);
        assert_eq!(Passage::new([(vec!["cancel"], 1.0)]), None);
        // A word's spellings are one word; their terms are read once.
        let p =
            Passage::new([(vec!["密码", "口令"], 1.0), (vec!["文件"], 2.0), (vec!["口令"], 1.0)]).unwrap();
        assert_eq!(p.terms, ["密码", "口令", "文件"]);
        assert_eq!(p.words, [(vec![0, 1], 1.0), (vec![2], 2.0), (vec![1], 1.0)]);
        // A long question: its first words only.
        let many: Vec<String> = (0..100).map(|i| format!("w{i}")).collect();
        let p = Passage::new(many.iter().map(|w| (vec![w.as_str()], 1.0))).unwrap();
        assert_eq!((p.words.len(), p.terms.len()), (MAX_WORDS, MAX_WORDS));
        assert_eq!(p.total, MAX_WORDS as Score);
    }
}
