//! The `lectern` analyzer: words for Latin/Cyrillic/Greek… (case-folded, NFC,
//! Latin letters without accents, English-stemmed, `work_mem` kept whole and
//! split), overlapping bigrams plus unigrams for Han/Kana/Hangul; and the
//! `lectern_grams` tokenizer for the substring prefilter.
//!
//! Positions: a CJK run of n chars takes positions p..p+n; the unigram of
//! char i and the bigram starting at char i share position p+i, so a run of
//! ≥ 3 chars is found as a phrase of its consecutive bigrams. An identifier
//! `a_b_c` takes one position per part; the whole token shares the first.
//! A hyphenated compound (`read-only`) is also indexed closed (`readonly`)
//! at its first word's position, and a name in camel case
//! (`LimitRequestBody`) also as its words, all at its own position. An
//! operator (`::`, `->>`, `||`, `$?`) is a token at the position of the word
//! after it: words on either side stay neighbours (`a->b` is still the
//! phrase `a b`).
//! Offsets are byte offsets into the original text and never decrease.

use std::collections::HashSet;

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

use crate::text::{fold, is_cjk, is_katakana, is_word_char, push_unaccented};

/// Name of the analyzer registered for the body.
pub const LECTERN: &str = "lectern";
/// Name of the analyzer registered for titles and breadcrumbs: the body's,
/// without the words of a function's name in camel case (a heading naming
/// `compileValidationSchema` is no heading about schema validation, where
/// one naming `KeepAliveTimeout` is about a keep-alive timeout).
pub const LECTERN_TITLE: &str = "lectern_title";
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
    /// A word of a name in camel case starting with a capital, a type's or
    /// a directive's (`request` of `LimitRequestBody`), sharing the name's
    /// position.
    Camel,
    /// A word of a name in camel case starting with a small letter, a
    /// function's or a method's (`schema` of `compileValidationSchema`),
    /// sharing the name's position; titles leave them out (see
    /// [`LECTERN_TITLE`]).
    LowerCamel,
    /// A hyphenated compound written closed (`email` of `e-mail`,
    /// `readonly` of `read-only`, `utf8` of `UTF-8`), sharing its first
    /// word's position: manuals and their readers write many such words
    /// both ways.
    Joined,
    /// An operator written with punctuation alone (`::`, `->>`, `||`; see
    /// [`has_operator`]), sharing the next word's position.
    Operator,
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

/// The lowercase bytes every ASCII word whose stem is `term` starts with:
/// English stemming rewrites at most the last two letters of what it keeps
/// (`possibility` → `possibl`, `dying` → `die`, `skies` → `sky`), so the
/// stem's first `len - 2` bytes (at least one, at most four) are the word's.
pub fn stem_lead(term: &[u8]) -> &[u8] {
    &term[..term.len().saturating_sub(2).clamp(1, 4).min(term.len())]
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

/// Folds (and maybe stems) a word into `out`; a Latin letter loses its
/// accents (see [`unaccented`](crate::text::unaccented)).
fn push_word(raw: &str, stem: Option<&rust_stemmers::Stemmer>, out: &mut String) {
    out.clear();
    if raw.is_ascii() {
        out.extend(raw.bytes().map(|b| b.to_ascii_lowercase() as char));
    } else {
        push_unaccented(&fold(raw), out);
    }
    if let Some(stemmer) = stem
        && stemmable(out)
        && let std::borrow::Cow::Owned(stemmed) = stemmer.stem(out)
    {
        *out = stemmed;
    }
}

/// The ASCII punctuation operators are written with: a language's
/// (`::`, `->>`, `||`, `~~*`, `<=>`), a shell's (`$?`, `&&`, `>&` of
/// `2>&1`). Quotes, brackets, commas, semicolons, backslashes and
/// underscores are none.
const OPERATOR_CHARS: &[u8] = b"!#$%&*+-./:<=>?@^|~";
/// Most chars of an operator.
const MAX_OPERATOR_CHARS: usize = 4;

/// The byte range of the operator in `text[start..end]`, a run of
/// [`OPERATOR_CHARS`]: the run without the dots that end a sentence or
/// open a path (`::.`, `./`), when what is left is two to
/// [`MAX_OPERATOR_CHARS`] chars. A rule or an ellipsis (`---`, `...`,
/// `***`, `~~~`: one char three times or more, but for the comparisons and
/// shifts `===`, `<<<` and `>>>`) and dashes alone (`--`: an option's start
/// or a dash in prose) are none.
fn operator_span(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let (mut from, mut to) = (start, end);
    if !bytes[from..to].iter().all(|&b| b == b'.') {
        while from < to && bytes[from] == b'.' {
            from += 1;
        }
        while to > from && bytes[to - 1] == b'.' {
            to -= 1;
        }
    }
    let run = &bytes[from..to];
    let repeated = run.len() >= 3 && run.iter().all(|&b| b == run[0]) && !b"<=>".contains(&run[0]);
    let dashes = run.iter().all(|&b| b == b'-');
    ((2..=MAX_OPERATOR_CHARS).contains(&run.len()) && !repeated && !dashes).then_some((from, to))
}

/// The run of operator chars holding byte `at` of `text` (empty when
/// that byte is none): where the tokenizer looks for an operator.
pub(crate) fn operator_run_around(text: &str, at: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    if !bytes.get(at).is_some_and(|b| OPERATOR_CHARS.contains(b)) {
        return (at, at);
    }
    let start = at - bytes[..at].iter().rev().take_while(|b| OPERATOR_CHARS.contains(b)).count();
    let end = at + bytes[at..].iter().take_while(|b| OPERATOR_CHARS.contains(b)).count();
    (start, end)
}

/// True when `word` holds an operator the index holds as a token (`::`,
/// `a->b`), so a search for it can match text and not only names.
pub fn has_operator(word: &str) -> bool {
    let mut found = false;
    analyze_each(word, false, &mut |_, _, _, _, kind| {
        found = kind == TokenKind::Operator;
        !found
    });
    found
}

/// Analyses `text`, calling `each(text, from, to, position, kind)` per token
/// until it returns false (see the module doc).
pub fn analyze_each(
    text: &str,
    stem: bool,
    each: &mut dyn FnMut(&str, usize, usize, usize, TokenKind) -> bool,
) {
    analyze_each_where(text, stem, &Keep::All, each);
}

/// Which tokens a scan wants: all of them (indexing), or only those that
/// could equal one of a few terms (highlighting), so that the other words
/// are never folded or stemmed and the other CJK chars never copied.
pub enum Keep<'a> {
    All,
    Only {
        /// [`stem_lead`] of every ASCII term: an ASCII word (or identifier
        /// part) not starting with one of them is skipped.
        leads: &'a [Vec<u8>],
        /// Bit `b` set when some lead starts with the ASCII byte `b` (see
        /// [`lead_mask`]): most words are dismissed by their first byte.
        lead_first: u128,
        /// The first char of every CJK term: unigrams and bigrams starting
        /// elsewhere are skipped.
        cjk_first: &'a [char],
    },
}

impl Keep<'_> {
    fn word(&self, raw: &str) -> bool {
        match self {
            Keep::All => true,
            Keep::Only { leads, lead_first, .. } => {
                let first = raw.as_bytes().first().map_or(0, u8::to_ascii_lowercase);
                !raw.is_ascii()
                    || (lead_first >> (first & 0x7F) & 1 == 1
                        && leads.iter().any(|l| {
                            raw.len() >= l.len() && raw.as_bytes()[..l.len()].eq_ignore_ascii_case(l)
                        }))
            }
        }
    }

    fn cjk(&self, c: char) -> bool {
        match self {
            Keep::All => true,
            // Compatibility ideographs fold to another char: always kept.
            Keep::Only { cjk_first, .. } => {
                matches!(c as u32, 0xF900..=0xFAFF | 0x2F800..=0x2FA1F) || cjk_first.contains(&c)
            }
        }
    }
}

/// The first bytes of `leads` as a bit set, for [`Keep::Only`].
pub fn lead_mask(leads: &[Vec<u8>]) -> u128 {
    leads
        .iter()
        .filter_map(|l| l.first())
        .filter(|b| b.is_ascii())
        .fold(0, |m, b| m | 1 << b.to_ascii_lowercase())
}

/// The char at byte `i` of `text`; ASCII without decoding (most of any
/// manual, even a Chinese one).
fn char_at(text: &str, i: usize) -> Option<char> {
    match text.as_bytes().get(i) {
        Some(&b) if b < 0x80 => Some(b as char),
        Some(_) => text.get(i..).and_then(|s| s.chars().next()),
        None => None,
    }
}

/// The katakana-hiragana prolonged sound mark, which Japanese writes after
/// a loanword's last vowel or leaves out (`ユーザー`, `ユーザ`).
const LONG_VOWEL: char = '\u{30FC}';

/// The byte after the long vowel marks starting at byte `at` of `text`
/// (`at` itself when none does).
pub(crate) fn after_long_vowels(text: &str, mut at: usize) -> usize {
    while text[at..].starts_with(LONG_VOWEL) {
        at += LONG_VOWEL.len_utf8();
    }
    at
}

/// Like [`analyze_each`], but only the tokens `keep` lets through are
/// reported (positions stay those of the full analysis).
pub fn analyze_each_where(
    text: &str,
    stem: bool,
    keep: &Keep<'_>,
    each: &mut dyn FnMut(&str, usize, usize, usize, TokenKind) -> bool,
) {
    let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    let stemmer = stem.then_some(&stemmer);
    let mut buf = String::new();
    let mut position = 0usize;
    let mut i = 0usize;
    let char_at = |i: usize| char_at(text, i);
    while let Some(c) = char_at(i) {
        if c == '_' && leading_underscores(text, i) {
            // A name with leading underscores (`__init__`, `_private`) is
            // an identifier, underscores and all.
            let (end, go_on) = word_tokens(text, i, (stemmer, keep), &mut buf, &mut position, each);
            if !go_on {
                return;
            }
            i = end;
        } else if c.is_ascii() && !c.is_ascii_alphanumeric() {
            // (A run of operator chars starts here: the one before, if
            // any, was a word's, a CJK char's or other punctuation.)
            let (_, end) = operator_run_around(text, i);
            if end - i >= 2 {
                if let Some((from, to)) = operator_span(text, i, end)
                    && keep.word(&text[from..to])
                    && !each(&text[from..to], from, to, position, TokenKind::Operator)
                {
                    return;
                }
                i = end;
            } else {
                i += 1;
            }
        } else if is_cjk(c) {
            // Every char of the run: its unigram, then the bigram with the next.
            let mut from = i;
            let mut cur = c;
            loop {
                let to = from + cur.len_utf8();
                // A long vowel mark after katakana is skipped, written or
                // not (`ユーザー` is `ユーザ`, `インターフェース` is `インタフェース`).
                let next_at = if is_katakana(cur) { after_long_vowels(text, to) } else { to };
                let following = char_at(next_at).filter(|&n| is_cjk(n));
                if keep.cjk(cur) {
                    buf.clear();
                    push_cjk(cur, &mut buf);
                    if !each(&buf, from, to, position, TokenKind::Unigram) {
                        return;
                    }
                    if let Some(n) = following {
                        push_cjk(n, &mut buf);
                        if !each(&buf, from, next_at + n.len_utf8(), position, TokenKind::Bigram) {
                            return;
                        }
                    }
                }
                position += 1;
                let Some(n) = following else {
                    i = next_at;
                    break;
                };
                from = next_at;
                cur = n;
            }
        } else if is_word_char(c) {
            let (end, go_on) = word_tokens(text, i, (stemmer, keep), &mut buf, &mut position, each);
            if !go_on {
                return;
            }
            i = end;
        } else {
            i += c.len_utf8();
        }
    }
}

/// The parts of a name in camel case (`LimitRequestBody`,
/// `getElementById`, `XMLHttpRequest`), as byte ranges of `word`: a part
/// starts at a capital after a small letter or a digit, or at the last
/// capital of a run followed by a small letter. None (empty) unless the
/// word is ASCII letters and digits, every part holds two chars or more
/// (`iPhone`, `IPv6` and `PQconnectdb` are no such names) and there are
/// two of them or more.
fn camel_parts(word: &str) -> Vec<(usize, usize)> {
    let b = word.as_bytes();
    // Most words have no capital past their first char: they cost no
    // allocation.
    if b.len() < 4
        || !b[1..].iter().any(u8::is_ascii_uppercase)
        || !b.iter().any(u8::is_ascii_lowercase)
        || !b.iter().all(u8::is_ascii_alphanumeric)
    {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let mut from = 0;
    for i in 1..b.len() {
        let starts = b[i].is_ascii_uppercase()
            && (!b[i - 1].is_ascii_uppercase() || b.get(i + 1).is_some_and(u8::is_ascii_lowercase));
        if starts {
            parts.push((from, i));
            from = i;
        }
    }
    parts.push((from, b.len()));
    if parts.len() < 2 || parts.iter().any(|(f, t)| t - f < 2) {
        return Vec::new();
    }
    parts
}

/// The words of a name in camel case (see [`camel_parts`]) at `start` of
/// the text, each at `position`: [`TokenKind::LowerCamel`] for a name
/// starting with a small letter (a function's), else [`TokenKind::Camel`].
/// False once `each` asked to stop.
fn camel_words(
    name: &str,
    start: usize,
    position: usize,
    (stemmer, keep): (Option<&rust_stemmers::Stemmer>, &Keep<'_>),
    buf: &mut String,
    each: &mut dyn FnMut(&str, usize, usize, usize, TokenKind) -> bool,
) -> bool {
    let kind = if name.as_bytes().first().is_some_and(u8::is_ascii_lowercase) {
        TokenKind::LowerCamel
    } else {
        TokenKind::Camel
    };
    for (from, to) in camel_parts(name) {
        let part = &name[from..to];
        if keep.word(part) {
            push_word(part, stemmer, buf);
            if !each(buf, start + from, start + to, position, kind) {
                return false;
            }
        }
    }
    true
}

/// The tokens of the word (or identifier) starting at byte `start` of
/// `text`: where it ends, and false once `each` asked to stop.
fn word_tokens(
    text: &str,
    start: usize,
    (stemmer, keep): (Option<&rust_stemmers::Stemmer>, &Keep<'_>),
    buf: &mut String,
    position: &mut usize,
    each: &mut dyn FnMut(&str, usize, usize, usize, TokenKind) -> bool,
) -> (usize, bool) {
    let bytes = text.as_bytes();
    let char_at = |i: usize| char_at(text, i);
    // A word, or an identifier: words joined by single underscores.
    let mut end = start + char_at(start).map_or(1, char::len_utf8);
    let mut underscore = false;
    loop {
        while bytes.get(end).is_some_and(u8::is_ascii_alphanumeric) {
            end += 1;
        }
        let Some(n) = char_at(end) else { break };
        if is_word_char(n) {
            end += n.len_utf8();
        } else if n == '_' && char_at(end + 1).is_some_and(is_word_char) {
            underscore = true;
            end += 1;
        } else {
            break;
        }
    }
    // A name with leading underscores keeps as many trailing ones
    // (`__init__`, `__FILE__`).
    let leading = text[start..end].len() - text[start..end].trim_start_matches('_').len();
    if leading > 0 {
        underscore = true;
        let trailing = bytes[end..].iter().take(leading).take_while(|&&b| b == b'_').count();
        if !char_at(end + trailing).is_some_and(is_word_char) {
            end += trailing;
        }
    }
    let raw = &text[start..end];
    if raw.len() > MAX_WORD_BYTES {
        *position += 1;
        return (end, true);
    }
    // The word, or the identifier as typed (not stemmed).
    if keep.word(raw) {
        push_word(raw, if underscore { None } else { stemmer }, buf);
        if !each(buf, start, end, *position, TokenKind::Word) {
            return (end, false);
        }
    }
    if underscore {
        // Then the identifier's parts.
        let mut offset = start;
        for part in raw.split('_') {
            let from = offset;
            offset += part.len() + 1;
            if part.is_empty() {
                continue;
            }
            if keep.word(part) {
                push_word(part, stemmer, buf);
                if !each(buf, from, from + part.len(), *position, TokenKind::Part) {
                    return (end, false);
                }
            }
            // A part in camel case (`CreateWindow` of `SDL_CreateWindow`,
            // `GetAttr` of `PyObject_GetAttr`) is also its words, at its position.
            if !camel_words(part, from, *position, (stemmer, keep), buf, each) {
                return (end, false);
            }
            *position += 1;
        }
        return (end, true);
    }
    if let Some(to) = hyphen_compound(bytes, start, end) {
        let closed: String = text[start..to].chars().filter(|&c| c != '-').collect();
        if keep.word(&closed) {
            push_word(&closed, stemmer, buf);
            if !each(buf, start, to, *position, TokenKind::Joined) {
                return (end, false);
            }
        }
    }
    // A name in camel case (`LimitRequestBody`) is also its words, all at
    // its position: `limit request body` finds it, and a phrase around it
    // (`"limitrequestbody bytes"`, typed in any case) still does.
    if !camel_words(raw, start, *position, (stemmer, keep), buf, each) {
        return (end, false);
    }
    *position += 1;
    (end, true)
}

/// Most underscores a name may start with (`__init__`: two).
pub(crate) const MAX_LEADING_UNDERSCORES: usize = 2;

/// True when the `_` at byte `at` starts a name: the first of at most
/// [`MAX_LEADING_UNDERSCORES`] underscores, not after a word's char, and
/// followed by a word's char (`__init__`, `_private`; not `a__b` or a rule
/// of underscores).
fn leading_underscores(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let after_word = text[..at].chars().next_back().is_some_and(|c| is_word_char(c) || c == '_');
    let run = bytes[at..].iter().take_while(|&&b| b == b'_').count();
    !after_word
        && run <= MAX_LEADING_UNDERSCORES
        && char_at(text, at + run).is_some_and(|c| is_word_char(c) && !is_cjk(c))
}

/// Most words a hyphenated compound joins (`x86-64-linux-gnu` is none).
const MAX_COMPOUND_WORDS: usize = 3;

/// Where the hyphenated compound starting with the word at `start..end`
/// ends (`read-only`, `e-mail`, `UTF-8`, `set-up`): ASCII words joined by
/// single hyphens, the first starting with a letter, two or three of them.
/// None when the word is no compound's first (a later word of one, a
/// number, an option's `--`, a word of an identifier or of non-ASCII text).
fn hyphen_compound(bytes: &[u8], start: usize, end: usize) -> Option<usize> {
    let ascii_word = |w: &[u8]| !w.is_empty() && w.iter().all(u8::is_ascii_alphanumeric);
    if !ascii_word(&bytes[start..end]) || !bytes[start].is_ascii_alphabetic() {
        return None;
    }
    // A later word of a compound (`only` of `read-only`) starts none.
    if start >= 2 && bytes[start - 1] == b'-' && bytes[start - 2].is_ascii_alphanumeric() {
        return None;
    }
    // Another word follows `at` after one hyphen.
    let hyphen_word =
        |at: usize| bytes.get(at) == Some(&b'-') && bytes.get(at + 1).is_some_and(u8::is_ascii_alphanumeric);
    let mut to = end;
    let mut words = 1;
    while hyphen_word(to) {
        let next_end = to + 1 + bytes[to + 1..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        // A word running on into an identifier or non-ASCII text is not one.
        if bytes.get(next_end).is_some_and(|&b| b == b'_' || b >= 0x80) {
            break;
        }
        words += 1;
        to = next_end;
        if words > MAX_COMPOUND_WORDS {
            return None;
        }
    }
    // `a-b-c-d`: a compound of more words is a name, not a word.
    if hyphen_word(to) {
        return None;
    }
    (words >= 2 && to - start <= MAX_WORD_BYTES).then_some(to)
}

/// Analyses `text` into tokens (see the module doc).
pub fn analyze(text: &str, stem: bool, out: &mut Vec<Analyzed>) {
    analyze_each(text, stem, &mut |t, from, to, position, kind| {
        out.push(Analyzed { text: t.to_string(), from, to, position, kind });
        true
    });
}

/// The `lectern` tokenizer for tantivy (stemmed); for titles
/// ([`LecternTokenizer::title`]) without the words of functions' names in
/// camel case.
#[derive(Clone, Default)]
pub struct LecternTokenizer {
    tokens: Vec<Token>,
    no_camel: bool,
}

impl LecternTokenizer {
    /// The tokenizer of [`LECTERN_TITLE`].
    pub fn title() -> Self {
        LecternTokenizer { tokens: Vec::new(), no_camel: true }
    }
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
        let no_camel = self.no_camel;
        analyze_each(text, true, &mut |t, from, to, position, kind| {
            if no_camel && kind == TokenKind::LowerCamel {
                return true;
            }
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

/// Grams of this many chars are indexed only when all ASCII: Latin text
/// repeats its trigrams across words (`und`, `dep`, `pre` are in most pages
/// saying *deprecate*), and 4-grams tell those pages apart; CJK trigrams are
/// selective already.
pub const ASCII_GRAM_CHARS: usize = 4;

/// The distinct 1-, 2- and 3-char grams of `folded` and its distinct ASCII
/// 4-char grams, in first-seen order.
pub fn distinct_grams(folded: &str) -> Vec<&str> {
    let bounds: Vec<usize> =
        folded.char_indices().map(|(b, _)| b).chain(std::iter::once(folded.len())).collect();
    let n = bounds.len() - 1;
    let mut seen: HashSet<&str> = HashSet::new();
    let mut grams = Vec::new();
    for i in 0..n {
        for len in 1..=ASCII_GRAM_CHARS {
            if i + len > n {
                break;
            }
            let gram = &folded[bounds[i]..bounds[i + len]];
            if len == ASCII_GRAM_CHARS && !gram.is_ascii() {
                break;
            }
            if seen.insert(gram) {
                grams.push(gram);
            }
        }
    }
    grams
}

/// The `lectern_grams` tokenizer: [`distinct_grams`] of already folded text.
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
    fn latin_letters_match_with_or_without_accents() {
        let words = |s: &str| -> Vec<String> { texts(s).into_iter().map(|(w, _, _)| w).collect() };
        assert_eq!(words("Configuração de rede"), words("configuracao de rede"));
        assert_eq!(words("Überblick Straße"), ["uberblick", "strass"]);
        assert_eq!(words("sécurité"), words("securite"));
        // Other scripts keep their marks; letters without a base letter stay.
        assert_eq!(words("йод иод"), ["йод", "иод"]);
        assert_eq!(words("Слоёв ЁЛКА"), words("слоев елка"));
        assert_eq!(words("søk łódź"), ["søk", "łodz"]);
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
    fn camel_case_names_are_kept_whole_and_split() {
        let lower = texts("getElementById");
        assert!(lower[1..].iter().all(|t| t.2 == TokenKind::LowerCamel), "{lower:?}");
        let t = texts("set LimitRequestBody to");
        assert_eq!(
            t,
            vec![
                ("set".into(), 0, TokenKind::Word),
                ("limitrequestbodi".into(), 1, TokenKind::Word),
                ("limit".into(), 1, TokenKind::Camel),
                ("request".into(), 1, TokenKind::Camel),
                ("bodi".into(), 1, TokenKind::Camel),
                ("to".into(), 2, TokenKind::Word),
            ]
        );
        // An identifier's parts in camel case too, each at its part's position.
        let t = texts("SDL_CreateWindow(");
        assert_eq!(
            t,
            vec![
                ("sdl_createwindow".into(), 0, TokenKind::Word),
                ("sdl".into(), 0, TokenKind::Part),
                ("createwindow".into(), 1, TokenKind::Part),
                ("creat".into(), 1, TokenKind::Camel),
                ("window".into(), 1, TokenKind::Camel),
            ]
        );
        fn parts(w: &str) -> Vec<&str> {
            camel_parts(w).into_iter().map(|(f, t)| &w[f..t]).collect()
        }
        assert_eq!(parts("getElementById"), ["get", "Element", "By", "Id"]);
        assert_eq!(parts("XMLHttpRequest"), ["XML", "Http", "Request"]);
        assert_eq!(parts("MaxRequestWorkers"), ["Max", "Request", "Workers"]);
        assert_eq!(parts("h2ServerPush"), ["h2", "Server", "Push"]);
        assert_eq!(parts("DocumentRoot"), ["Document", "Root"]);
        // A part of one char, no capitals, other chars: no name.
        for none in
            ["iPhoneApp", "PQconnectdbParams", "IPv6", "lowercase", "UPPER", "Capital", "naïveCaseName"]
        {
            assert!(parts(none).is_empty(), "{none}: {:?}", parts(none));
        }
    }

    #[test]
    fn titles_leave_out_the_words_of_functions_names() {
        let words = |mut tokenizer: LecternTokenizer| -> Vec<String> {
            let mut stream = tokenizer.token_stream("compileValidationSchema KeepAliveTimeout");
            let mut out = Vec::new();
            while stream.advance() {
                out.push(stream.token().text.clone());
            }
            out
        };
        let body = [
            "compilevalidationschema",
            "compil",
            "valid",
            "schema",
            "keepalivetimeout",
            "keep",
            "aliv",
            "timeout",
        ];
        assert_eq!(words(LecternTokenizer::default()), body);
        assert_eq!(
            words(LecternTokenizer::title()),
            ["compilevalidationschema", "keepalivetimeout", "keep", "aliv", "timeout"]
        );
    }

    #[test]
    fn names_with_leading_underscores_keep_them() {
        let t = texts("call __init__ or _private, __FILE__ and x__y ____ ___z _");
        let words: Vec<(&str, TokenKind)> = t.iter().map(|(w, _, k)| (w.as_str(), *k)).collect();
        for whole in ["__init__", "_private", "__file__"] {
            assert!(words.contains(&(whole, TokenKind::Word)), "{whole}: {words:?}");
        }
        for part in ["init", "privat", "file"] {
            assert!(words.contains(&(part, TokenKind::Part)), "{part}: {words:?}");
        }
        // Underscores inside a word, a rule and three before a name are no name's.
        assert!(
            words.contains(&("x__y", TokenKind::Word)) || words.contains(&("x", TokenKind::Word)),
            "{words:?}"
        );
        assert!(!words.iter().any(|(w, _)| w.starts_with("___") || *w == "_"), "{words:?}");
        assert!(words.contains(&("z", TokenKind::Word)), "{words:?}");
    }

    #[test]
    fn operators_are_tokens_at_the_next_words_position() {
        assert_eq!(
            texts("a->b :: c"),
            vec![
                ("a".into(), 0, TokenKind::Word),
                ("->".into(), 1, TokenKind::Operator),
                ("b".into(), 1, TokenKind::Word),
                ("::".into(), 2, TokenKind::Operator),
                ("c".into(), 2, TokenKind::Word),
            ]
        );
        let ops = |s: &str| -> Vec<String> {
            texts(s).into_iter().filter(|t| t.2 == TokenKind::Operator).map(|t| t.0).collect()
        };
        assert_eq!(ops("2>&1 $? x ~~* y || z"), [">&", "$?", "~~*", "||"]);
        // Dots that end a sentence or open a path are not the operator's.
        assert_eq!(ops("cast with ::. Then ./configure and a..b"), ["::", ".."]);
        // Rules, ellipses, dashes, one char and runs too long are none.
        let none = "--- ... *** ~~~ -- --force -e a-b x=y <<<=>>> C.";
        assert!(ops(none).is_empty(), "{:?}", ops(none));
        assert_eq!(ops("a === b, x >>> 2, cat <<< word"), ["===", ">>>", "<<<"]);
        assert!(
            has_operator("::")
                && has_operator("Vec::new")
                && !has_operator("--force")
                && !has_operator("...")
        );
    }

    #[test]
    fn hyphenated_compounds_are_also_kept_closed() {
        let t = texts("a Read-Only e-mail");
        assert_eq!(
            t,
            vec![
                ("a".into(), 0, TokenKind::Word),
                ("read".into(), 1, TokenKind::Word),
                ("readon".into(), 1, TokenKind::Joined),
                ("onli".into(), 2, TokenKind::Word),
                ("e".into(), 3, TokenKind::Word),
                ("email".into(), 3, TokenKind::Joined),
                ("mail".into(), 4, TokenKind::Word),
            ]
        );
        let joined = |text: &str| -> Vec<String> {
            texts(text).into_iter().filter(|t| t.2 == TokenKind::Joined).map(|t| t.0).collect()
        };
        assert_eq!(joined("UTF-8, x86-64 and --data-only"), ["utf8", "x8664", "dataon"]);
        assert_eq!(joined("set-up-time"), ["setuptim"]);
        // Numbers, names of four words or more, identifiers and non-ASCII
        // words join nothing.
        for none in
            ["2-3", "1999-12-31", "x86-64-linux-gnu", "work_mem-x", "a-work_mem", "naïve-set", "a - b", "-e"]
        {
            assert!(joined(none).is_empty(), "{none}: {:?}", joined(none));
        }
    }

    #[test]
    fn a_long_vowel_mark_after_katakana_is_written_or_not() {
        let terms = |text: &str| texts(text).into_iter().map(|t| (t.0, t.1)).collect::<Vec<_>>();
        assert_eq!(terms("ユーザー管理"), terms("ユーザ管理"));
        assert_eq!(terms("インターフェース"), terms("インタフェース"));
        assert_eq!(terms("サーバー"), terms("サーバ"));
        // Its bigrams span it, so a hit lights the word as written.
        let spans: Vec<(String, usize, usize)> = {
            let mut out = Vec::new();
            analyze_each("ユーザー", false, &mut |t, from, to, _, kind| {
                if kind == TokenKind::Bigram {
                    out.push((t.to_owned(), from, to));
                }
                true
            });
            out
        };
        assert_eq!(spans, [("ユザ".to_owned(), 0, "ユーザ".len())]);
        // After any other char it is a char of its own.
        assert_eq!(terms("らーめん").len(), terms("らめん").len() + 2);
        assert_eq!(terms("ー"), [("ー".to_owned(), 0)]);
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
    fn stem_lead_holds_for_rewritten_endings() {
        let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
        for w in [
            "dying",
            "lying",
            "tying",
            "skies",
            "skis",
            "idly",
            "gently",
            "ugly",
            "early",
            "only",
            "singly",
            "news",
            "yes",
            "Yelling",
            "possibility",
            "stability",
            "visibly",
            "capability",
            "hoping",
            "rating",
            "relational",
            "organization",
            "agreed",
            "cries",
            "ties",
            "hopping",
            "generously",
            "ably",
            "abilities",
        ] {
            let stem = stemmer.stem(&w.to_ascii_lowercase()).into_owned();
            let lead = stem_lead(stem.as_bytes());
            assert!(w.as_bytes()[..lead.len()].eq_ignore_ascii_case(lead), "{w} -> {stem}");
        }
    }

    #[test]
    fn a_filtered_scan_reports_what_a_full_one_does_for_the_terms() {
        let text = "Indexes on work_mem: 创建索引 and the INDEXING of ﬁles; 索 alone, dying by e-mail";
        let terms = ["index", "mem", "work_mem", "索引", "索", "die", "file", "email"];
        let mut full = Vec::new();
        analyze_each(text, true, &mut |t, from, to, pos, kind| {
            if terms.contains(&t) {
                full.push((t.to_string(), from, to, pos, kind));
            }
            true
        });
        let leads: Vec<Vec<u8>> =
            terms.iter().filter(|t| t.is_ascii()).map(|t| stem_lead(t.as_bytes()).to_vec()).collect();
        let cjk_first: Vec<char> =
            terms.iter().filter(|t| !t.is_ascii()).filter_map(|t| t.chars().next()).collect();
        let mut filtered = Vec::new();
        let keep = Keep::Only { leads: &leads, lead_first: lead_mask(&leads), cjk_first: &cjk_first };
        analyze_each_where(text, true, &keep, &mut |t, from, to, pos, kind| {
            if terms.contains(&t) {
                filtered.push((t.to_string(), from, to, pos, kind));
            }
            true
        });
        assert_eq!(full.len(), 10, "{full:?}");
        assert_eq!(filtered, full);
    }

    #[test]
    fn grams_are_distinct() {
        assert_eq!(distinct_grams("aaa"), vec!["a", "aa", "aaa"]);
        assert_eq!(distinct_grams("abcd"), vec!["a", "ab", "abc", "abcd", "b", "bc", "bcd", "c", "cd", "d"]);
        assert_eq!(
            distinct_grams("索引ab"),
            vec!["索", "索引", "索引a", "引", "引a", "引ab", "a", "ab", "b"]
        );
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
        fn stemming_keeps_the_stem_lead(w in "[a-zA-Z]{1,12}") {
            let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
            let stem = stemmer.stem(&w.to_ascii_lowercase()).into_owned();
            let lead = stem_lead(stem.as_bytes());
            prop_assert!(w.as_bytes()[..lead.len()].eq_ignore_ascii_case(lead), "{} -> {}", w, stem);
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
