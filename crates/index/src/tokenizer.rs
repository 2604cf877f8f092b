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

fn stem_word(stemmer: &rust_stemmers::Stemmer, word: String) -> String {
    // Only purely alphabetic words: numbers, versions and identifiers stay as typed.
    if word.chars().all(char::is_alphabetic) && word.bytes().any(|b| b.is_ascii_alphabetic()) {
        stemmer.stem(&word).into_owned()
    } else {
        word
    }
}

/// Analyses `text` into tokens (see the module doc).
pub fn analyze(text: &str, stem: bool, out: &mut Vec<Analyzed>) {
    let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |i: usize| chars.get(i + 1).map_or(text.len(), |&(b, _)| b);
    let mut position = 0usize;
    let mut i = 0usize;
    while i < chars.len() {
        let (start, c) = chars[i];
        if is_cjk(c) {
            let mut j = i;
            while j < chars.len() && is_cjk(chars[j].1) {
                j += 1;
            }
            for k in i..j {
                let (s, ch) = chars[k];
                let uni = fold(ch.encode_utf8(&mut [0u8; 4]));
                out.push(Analyzed {
                    text: uni.clone(),
                    from: s,
                    to: end_of(k),
                    position,
                    kind: TokenKind::Unigram,
                });
                if k + 1 < j {
                    let next = fold(chars[k + 1].1.encode_utf8(&mut [0u8; 4]));
                    out.push(Analyzed {
                        text: uni + &next,
                        from: s,
                        to: end_of(k + 1),
                        position,
                        kind: TokenKind::Bigram,
                    });
                }
                position += 1;
            }
            i = j;
        } else if is_word_char(c) {
            let mut j = i + 1;
            while j < chars.len() {
                let cj = chars[j].1;
                if is_word_char(cj) || (cj == '_' && chars.get(j + 1).is_some_and(|&(_, n)| is_word_char(n)))
                {
                    j += 1;
                } else {
                    break;
                }
            }
            let end = end_of(j - 1);
            let raw = &text[start..end];
            if raw.len() <= MAX_WORD_BYTES {
                if raw.contains('_') {
                    out.push(Analyzed {
                        text: fold(raw),
                        from: start,
                        to: end,
                        position,
                        kind: TokenKind::Word,
                    });
                    let mut offset = start;
                    for part in raw.split('_') {
                        let from = offset;
                        offset += part.len() + 1;
                        if part.is_empty() {
                            continue;
                        }
                        let word = fold(part);
                        let word = if stem { stem_word(&stemmer, word) } else { word };
                        out.push(Analyzed {
                            text: word,
                            from,
                            to: from + part.len(),
                            position,
                            kind: TokenKind::Part,
                        });
                        position += 1;
                    }
                } else {
                    let word = fold(raw);
                    let word = if stem { stem_word(&stemmer, word) } else { word };
                    out.push(Analyzed { text: word, from: start, to: end, position, kind: TokenKind::Word });
                    position += 1;
                }
            } else {
                position += 1;
            }
            i = j;
        } else {
            i += 1;
        }
    }
}

/// The `lectern` tokenizer for tantivy (stemmed).
#[derive(Clone, Default)]
pub struct LecternTokenizer {
    tokens: Vec<Token>,
    scratch: Vec<Analyzed>,
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
        self.scratch.clear();
        analyze(text, true, &mut self.scratch);
        self.tokens.clear();
        self.tokens.extend(self.scratch.drain(..).map(|a| Token {
            offset_from: a.from,
            offset_to: a.to,
            position: a.position,
            text: a.text,
            position_length: 1,
        }));
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
