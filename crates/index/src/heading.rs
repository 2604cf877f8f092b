//! Heading cover: how much of a section's heading a question spells out,
//! scored on the best candidates only.
//!
//! A heading made of nothing but the question's words names what the
//! question asks about, however little its text repeats them: "32.16. 密码文件"
//! (the password file) for 如何把连接密码保存在文件里 (keep the connection
//! password in a file), "Password File" for *keep the password in a file*.
//! Sections whose text holds more of the question's words, options lists
//! mentioning `.pgpass` in passing, outrank it on BM25 and coverage alone.
//!
//! Each candidate scores the share of the question's weight its heading
//! holds (each word counted once, as for passages) times the share of the
//! heading's words the question's words cover, to the power
//! [`PRECISION_POWER`]: a heading the question covers whole adds its full
//! share, one it covers half adds a sixteenth of it. A heading's words are
//! its positions holding a word or a CJK char, not a bare number (a
//! section number). At ingest each section stores how many there are and
//! where its heading ends ([`shape`]), since a lead section's title field
//! also holds its page's description; the cover reads the question's terms'
//! positions in the title field, as proximity does.

use tantivy::columnar::Column;
use tantivy::schema::Field;
use tantivy::{DocId, Score, SegmentReader};

use crate::passage::{Words, question_words};
use crate::proximity::positions;
use crate::text::is_cjk;
use crate::tokenizer::{TokenKind, analyze_each};

/// What a heading the question covers whole adds, times the share of the
/// question's weight it holds (a full passage adds `PASSAGE_SCORE`).
pub(crate) const HEADING_SCORE: Score = 40.0;
/// A heading's covered share counts to this power: only headings (almost)
/// made of the question's words count much.
const PRECISION_POWER: i32 = 4;

/// The question's words, for heading cover: every term of each word (its
/// spellings and forms, a phrase's each), with its weight: the first
/// `passage::MAX_WORDS`, as for passages.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HeadingCover {
    terms: Vec<String>,
    /// Per term: how many positions it stands for (a CJK bigram two).
    spans: Vec<u32>,
    /// Per word: its terms (indexes into `terms`) and its weight.
    words: Words,
    total: Score,
}

impl HeadingCover {
    /// From each word's terms and weight; None for fewer than two words.
    pub(crate) fn new<'a>(words: impl IntoIterator<Item = (Vec<&'a str>, Score)>) -> Option<HeadingCover> {
        let (terms, words, total) = question_words(words)?;
        let spans = terms.iter().map(|t| if is_bigram(t) { 2 } else { 1 }).collect();
        Some(HeadingCover { terms, spans, words, total })
    }

    /// Each of `docs` (ascending, one segment's): its heading's share of
    /// the question's weight times the power of its covered share, 0 to 1.
    /// A doc without a stored shape, or whose title cannot be read, scores 0.
    pub(crate) fn scores(
        &self,
        reader: &SegmentReader,
        title: Field,
        shapes: Option<&Column<u64>>,
        docs: &[DocId],
    ) -> Vec<Score> {
        let (Some(shapes), Ok(positions)) = (shapes, positions(reader, title, &self.terms, docs)) else {
            return vec![0.0; docs.len()];
        };
        docs.iter()
            .enumerate()
            .map(|(i, &doc)| {
                let Some(shape) = shapes.first(doc) else { return 0.0 };
                let found: Vec<&[u32]> = positions.iter().map(|p| p[i].as_slice()).collect();
                self.cover(shape, &found)
            })
            .collect()
    }

    /// One heading's score from its shape and each term's positions in the
    /// title field.
    fn cover(&self, shape: u64, found: &[&[u32]]) -> Score {
        let (end, words) = ((shape >> 32) as u32, (shape & u64::from(u32::MAX)) as u32);
        if words == 0 {
            return 0.0;
        }
        let mut covered: Vec<u32> = Vec::new();
        for (term, at) in found.iter().enumerate() {
            for &p in at.iter().filter(|&&p| p < end) {
                covered.extend(p..(p + self.spans[term]).min(end));
            }
        }
        covered.sort_unstable();
        covered.dedup();
        let held: Score = self
            .words
            .iter()
            .filter(|(ids, _)| ids.iter().any(|&t| found[t].iter().any(|&p| p < end)))
            .map(|w| w.1)
            .sum();
        let share = (covered.len() as Score / words as Score).min(1.0);
        held / self.total * share.powi(PRECISION_POWER)
    }
}

/// A term of two CJK chars (a bigram, standing for two positions).
fn is_bigram(term: &str) -> bool {
    let mut chars = term.chars();
    matches!((chars.next(), chars.next(), chars.next()), (Some(a), Some(b), None) if is_cjk(a) && is_cjk(b))
}

/// A heading's shape, stored with its section: the position after its last
/// token (high 32 bits) and how many of its positions hold a word or a CJK
/// char that is not a bare number (low 32 bits).
pub(crate) fn shape(heading: &str) -> u64 {
    let mut end = 0u32;
    let mut words: Vec<u32> = Vec::new();
    analyze_each(heading, true, &mut |text, _, _, position, kind| {
        let position = u32::try_from(position).unwrap_or(u32::MAX - 1);
        end = end.max(position + 1);
        if matches!(kind, TokenKind::Word | TokenKind::Unigram) && !text.bytes().all(|b| b.is_ascii_digit()) {
            words.push(position);
        }
        true
    });
    words.dedup();
    (u64::from(end) << 32) | words.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cover(words: &[(&[&str], Score)]) -> HeadingCover {
        HeadingCover::new(words.iter().map(|(ts, w)| (ts.to_vec(), *w))).unwrap()
    }

    #[test]
    fn a_heading_counts_its_words_and_chars_but_not_its_number() {
        // 32, 16, then 密 码 文 件 at four positions.
        assert_eq!(shape("32.16. 密码文件") & 0xffff_ffff, 4);
        assert_eq!(shape("Password File"), (2 << 32) | 2);
        assert_eq!(shape("9.28. System Administration Functions") & 0xffff_ffff, 3);
        assert_eq!(shape(""), 0);
    }

    #[test]
    fn a_heading_the_question_spells_out_whole_scores_the_share_it_holds() {
        // Question: 连接 密码 保存 文件 (weights 1, 2, 1, 1); heading 密码文件
        // at positions 2..6 after a section number.
        let q = cover(&[(&["连接"], 1.0), (&["密码", "口令"], 2.0), (&["保存"], 1.0), (&["文件"], 1.0)]);
        let shape = shape("32.16. 密码文件");
        let none: &[u32] = &[];
        let whole = q.cover(shape, &[none, &[2], none, none, &[4]]);
        assert!((whole - 3.0 / 5.0).abs() < 1e-6, "{whole}");
        // 口令认证: half its chars covered, so a sixteenth of its share.
        let half = q.cover(crate::heading::shape("口令认证"), &[none, none, &[0], none, none]);
        assert!((half - 2.0 / 5.0 / 16.0).abs() < 1e-6, "{half}");
        // Positions past the heading (a page description searched as the
        // lead section's title) are not the heading's.
        let past = q.cover(shape, &[none, &[9], none, none, &[11]]);
        assert_eq!(past, 0.0);
    }

    #[test]
    fn a_long_question_reads_its_first_words_only() {
        let words: Vec<(Vec<String>, Score)> = (0..100).map(|i| (vec![format!("w{i}")], 1.0)).collect();
        let q = HeadingCover::new(words.iter().map(|(ts, w)| (ts.iter().map(String::as_str).collect(), *w)));
        let q = q.unwrap();
        let most = crate::passage::MAX_WORDS;
        assert_eq!((q.words.len(), q.terms.len()), (most, most));
    }

    #[test]
    fn one_word_or_a_number_only_heading_is_no_cover() {
        assert!(HeadingCover::new([(vec!["password"], 1.0)]).is_none());
        let q = cover(&[(&["password"], 1.0), (&["file"], 1.0)]);
        assert_eq!(q.cover(shape("18.2"), &[&[0], &[]]), 0.0);
    }
}
