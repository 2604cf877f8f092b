//! The `lectern` analyzer: words for Latin/Cyrillic/Greek… (case-folded, NFC,
//! English-stemmed, `work_mem` kept whole and split), overlapping bigrams plus
//! unigrams for Han/Kana/Hangul; and the `lectern_grams` tokenizer for the
//! substring prefilter.
//!
//! Positions: a CJK run of n chars takes positions p..p+n; the unigram of
//! char i and the bigram starting at char i share position p+i, so a run of
//! ≥ 3 chars is found as a phrase of its consecutive bigrams. An identifier
//! `a_b_c` takes one position per part; the whole token shares the first.
//! Offsets are byte offsets into the original text and never decrease.

use std::collections::HashSet;

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

use crate::text::{fold, is_cjk, is_word_char};

/// Name of the analyzer registered for title, breadcrumb and body.
pub const LECTERN: &str = "lectern";
/// Name of the n-gram tokenizer registered for the page gram field.
pub const GRAMS: &str = "lectern_grams";

/// Words longer than this many bytes are not indexed (tantivy caps terms,
/// and nobody searches for them).
const MAX_WORD_BYTES: usize = 200;

/// What a token stands for; queries use the kind to build phrases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A whole word (or identifier such as `work_mem`).
    Word,
    /// A part of an identifier (`work`, `mem`), sharing positions with it.
    Part,
    /// One CJK char.
    Unigram,
    /// Two consecutive CJK chars.
    Bigram,
}

/// One analysed token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analyzed {
    pub text: String,
    /// Byte range in the analysed text.
    pub from: usize,
    pub to: usize,
    pub position: usize,
    pub kind: TokenKind,
}

/// Only purely alphabetic words with some ASCII are stemmed: numbers,
/// versions and identifiers stay as typed.
fn stemmable(word: &str) -> bool {
    word.chars().all(char::is_alphabetic) && word.bytes().any(|b| b.is_ascii_alphabetic())
}

/// The first two bytes (lowercased) the stem of an ASCII word starts with:
/// English stemming keeps them, except `dying`, `lying`, `tying` (`die`...).
pub fn stem_prefix(word: &[u8]) -> [u8; 2] {
    let a = word.first().map_or(0, u8::to_ascii_lowercase);
    let b = word.get(1).map_or(0, u8::to_ascii_lowercase);
    let exception =
        word.len() == 5 && word[1..].eq_ignore_ascii_case(b"ying") && matches!(a, b'd' | b'l' | b't');
    if exception { [a, b'i'] } else { [a, b] }
}

/// Folds one CJK char. Case folding never changes these scripts; NFC only
/// maps the compatibility ideographs.
fn push_cjk(c: char, out: &mut String) {
    if matches!(c as u32, 0xF900..=0xFAFF | 0x2F800..=0x2FA1F) {
        out.push_str(&fold(c.encode_utf8(&mut [0u8; 4])));
    } else {
        out.push(c);
    }
}

/// Folds (and maybe stems) a word into `out`.
fn push_word(raw: &str, stem: Option<&rust_stemmers::Stemmer>, out: &mut String) {
    out.clear();
    if raw.is_ascii() {
        out.extend(raw.bytes().map(|b| b.to_ascii_lowercase() as char));
    } else {
        out.push_str(&fold(raw));
    }
    if let Some(stemmer) = stem
        && stemmable(out)
        && let std::borrow::Cow::Owned(stemmed) = stemmer.stem(out)
    {
        *out = stemmed;
    }
}

/// Analyses `text`, calling `each(text, from, to, position, kind)` per token
/// until it returns false (see the module doc).
pub fn analyze_each(
    text: &str,
    stem: bool,
    each: &mut dyn FnMut(&str, usize, usize, usize, TokenKind) -> bool,
) {
    analyze_each_where(text, stem, &|_| true, each);
}

/// Like [`analyze_each`], but ASCII words (raw bytes) failing `keep` are
/// skipped before folding and stemming, which makes scanning a text for a
/// few terms much faster (see [`stem_prefix`]).
pub fn analyze_each_where(
    text: &str,
    stem: bool,
    keep: &dyn Fn(&[u8]) -> bool,
    each: &mut dyn FnMut(&str, usize, usize, usize, TokenKind) -> bool,
) {
    let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    let stemmer = stem.then_some(&stemmer);
    let mut buf = String::new();
    let mut next = String::new();
    let mut position = 0usize;
    let mut i = 0usize;
    let char_at = |i: usize| text.get(i..).and_then(|s| s.chars().next());
    while let Some(c) = char_at(i) {
        if is_cjk(c) {
            // A run: unigram i and bigram (i, i+1) share position p+i.
            let mut from = i;
            let mut cur = c;
            buf.clear();
            push_cjk(cur, &mut buf);
            loop {
                let to = from + cur.len_utf8();
                let following = char_at(to).filter(|&n| is_cjk(n));
                if !each(&buf, from, to, position, TokenKind::Unigram) {
                    return;
                }
                let Some(n) = following else {
                    position += 1;
                    i = to;
                    break;
                };
                next.clear();
                push_cjk(n, &mut next);
                let unigram_len = buf.len();
                buf.push_str(&next);
                if !each(&buf, from, to + n.len_utf8(), position, TokenKind::Bigram) {
                    return;
                }
                buf.drain(..unigram_len);
                position += 1;
                from = to;
                cur = n;
            }
        } else if is_word_char(c) {
            let start = i;
            let mut end = i + c.len_utf8();
            let mut underscore = false;
            while let Some(n) = char_at(end) {
                if is_word_char(n) {
                    end += n.len_utf8();
                } else if n == '_' && char_at(end + 1).is_some_and(is_word_char) {
                    underscore = true;
                    end += 1;
                } else {
                    break;
                }
            }
            i = end;
            let raw = &text[start..end];
            if raw.len() > MAX_WORD_BYTES {
                position += 1;
                continue;
            }
            // Identifiers are kept: the query may name one of their parts.
            if !underscore && raw.is_ascii() && !keep(raw.as_bytes()) {
                position += 1;
                continue;
            }
            if underscore {
                push_word(raw, None, &mut buf);
                if !each(&buf, start, end, position, TokenKind::Word) {
                    return;
                }
                let mut offset = start;
                for part in raw.split('_') {
                    let from = offset;
                    offset += part.len() + 1;
                    if part.is_empty() {
                        continue;
                    }
                    push_word(part, stemmer, &mut buf);
                    if !each(&buf, from, from + part.len(), position, TokenKind::Part) {
                        return;
                    }
                    position += 1;
                }
            } else {
                push_word(raw, stemmer, &mut buf);
                if !each(&buf, start, end, position, TokenKind::Word) {
                    return;
                }
                position += 1;
            }
        } else {
            i += c.len_utf8();
        }
    }
}

/// Analyses `text` into tokens (see the module doc).
pub fn analyze(text: &str, stem: bool, out: &mut Vec<Analyzed>) {
    analyze_each(text, stem, &mut |t, from, to, position, kind| {
        out.push(Analyzed { text: t.to_string(), from, to, position, kind });
        true
    });
}

/// The `lectern` tokenizer for tantivy (stemmed).
#[derive(Clone, Default)]
pub struct LecternTokenizer {
    tokens: Vec<Token>,
}

/// Stream over precomputed tokens.
pub struct VecTokenStream<'a> {
    tokens: &'a mut Vec<Token>,
    next: usize,
}

impl TokenStream for VecTokenStream<'_> {
    fn advance(&mut self) -> bool {
        if self.next < self.tokens.len() {
            self.next += 1;
            true
        } else {
            false
        }
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next.saturating_sub(1).min(self.tokens.len().saturating_sub(1))]
    }

    fn token_mut(&mut self) -> &mut Token {
        let i = self.next.saturating_sub(1).min(self.tokens.len().saturating_sub(1));
        &mut self.tokens[i]
    }
}

impl Tokenizer for LecternTokenizer {
    type TokenStream<'a> = VecTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> VecTokenStream<'a> {
        self.tokens.clear();
        let tokens = &mut self.tokens;
        analyze_each(text, true, &mut |t, from, to, position, _| {
            tokens.push(Token {
                offset_from: from,
                offset_to: to,
                position,
                text: t.to_string(),
                position_length: 1,
            });
            true
        });
        if self.tokens.is_empty() {
            // `token()` must be callable even on an empty stream.
            self.tokens.push(Token::default());
            return VecTokenStream { next: 1, tokens: &mut self.tokens };
        }
        VecTokenStream { tokens: &mut self.tokens, next: 0 }
    }
}

/// The distinct 1-, 2- and 3-char grams of `folded`, in first-seen order.
pub fn distinct_grams(folded: &str) -> Vec<&str> {
    let bounds: Vec<usize> =
        folded.char_indices().map(|(b, _)| b).chain(std::iter::once(folded.len())).collect();
    let n = bounds.len() - 1;
    let mut seen: HashSet<&str> = HashSet::new();
    let mut grams = Vec::new();
    for i in 0..n {
        for len in 1..=3 {
            if i + len > n {
                break;
            }
            let gram = &folded[bounds[i]..bounds[i + len]];
            if seen.insert(gram) {
                grams.push(gram);
            }
        }
    }
    grams
}

/// The `lectern_grams` tokenizer: distinct 1-3 char grams of already folded text.
#[derive(Clone, Default)]
pub struct GramTokenizer {
    tokens: Vec<Token>,
}

impl Tokenizer for GramTokenizer {
    type TokenStream<'a> = VecTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> VecTokenStream<'a> {
        self.tokens.clear();
        let base = text.as_ptr() as usize;
        for (position, gram) in distinct_grams(text).into_iter().enumerate() {
            let from = gram.as_ptr() as usize - base;
            self.tokens.push(Token {
                offset_from: from,
                offset_to: from + gram.len(),
                position,
                text: gram.to_string(),
                position_length: 1,
            });
        }
        if self.tokens.is_empty() {
            self.tokens.push(Token::default());
            return VecTokenStream { next: 1, tokens: &mut self.tokens };
        }
        VecTokenStream { tokens: &mut self.tokens, next: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn texts(s: &str) -> Vec<(String, usize, TokenKind)> {
        let mut out = Vec::new();
        analyze(s, true, &mut out);
        out.into_iter().map(|a| (a.text, a.position, a.kind)).collect()
    }

    #[test]
    fn words_are_folded_and_stemmed() {
        let t = texts("Creating INDEXES concurrently");
        let words: Vec<&str> = t.iter().map(|(w, _, _)| w.as_str()).collect();
        assert_eq!(words, ["creat", "index", "concurr"]);
    }

    #[test]
    fn identifiers_are_kept_whole_and_split() {
        let t = texts("SET work_mem = 4");
        assert_eq!(
            t,
            vec![
                ("set".into(), 0, TokenKind::Word),
                ("work_mem".into(), 1, TokenKind::Word),
                ("work".into(), 1, TokenKind::Part),
                ("mem".into(), 2, TokenKind::Part),
                ("4".into(), 3, TokenKind::Word),
            ]
        );
    }

    #[test]
    fn cjk_runs_are_bigrams_plus_unigrams_sharing_positions() {
        let t = texts("创建索引");
        assert_eq!(
            t,
            vec![
                ("创".into(), 0, TokenKind::Unigram),
                ("创建".into(), 0, TokenKind::Bigram),
                ("建".into(), 1, TokenKind::Unigram),
                ("建索".into(), 1, TokenKind::Bigram),
                ("索".into(), 2, TokenKind::Unigram),
                ("索引".into(), 2, TokenKind::Bigram),
                ("引".into(), 3, TokenKind::Unigram),
            ]
        );
    }

    #[test]
    fn stem_prefix_exceptions() {
        let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
        for w in [
            "dying", "lying", "tying", "skies", "skis", "idly", "gently", "ugly", "early", "only", "singly",
            "news", "yes", "Yelling",
        ] {
            let stem = stemmer.stem(&w.to_ascii_lowercase()).into_owned();
            assert_eq!(stem_prefix(stem.as_bytes()), stem_prefix(w.as_bytes()), "{w} -> {stem}");
        }
    }

    #[test]
    fn grams_are_distinct() {
        assert_eq!(distinct_grams("aaa"), vec!["a", "aa", "aaa"]);
        assert_eq!(distinct_grams("ab"), vec!["a", "ab", "b"]);
        assert!(distinct_grams("").is_empty());
    }

    #[test]
    fn empty_stream_is_safe() {
        let mut t = LecternTokenizer::default();
        let mut s = t.token_stream("  ,, ");
        assert!(!s.advance());
    }

    proptest! {
        /// Snippet scanning relies on it.
        #[test]
        fn stemming_keeps_the_stem_prefix(w in "[a-zA-Z]{1,12}") {
            let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
            let lower = w.to_ascii_lowercase();
            let stem = stemmer.stem(&lower);
            let want = stem_prefix(w.as_bytes());
            prop_assert_eq!(stem_prefix(stem.as_bytes())[0], want[0], "{} -> {}", w, stem);
            if stem.len() >= 2 {
                prop_assert_eq!(stem_prefix(stem.as_bytes()), want, "{} -> {}", w, stem);
            }
        }

        #[test]
        fn offsets_are_monotonic_and_on_char_boundaries(s in "\\PC{0,80}") {
            let mut out = Vec::new();
            analyze(&s, true, &mut out);
            let mut last = 0;
            for a in &out {
                prop_assert!(a.from >= last);
                prop_assert!(a.from <= a.to && a.to <= s.len());
                prop_assert!(s.is_char_boundary(a.from) && s.is_char_boundary(a.to));
                last = a.from;
            }
        }
    }
}
