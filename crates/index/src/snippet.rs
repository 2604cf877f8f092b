//! Snippets: a window of about 200 scalars of a section's text around the
//! best cluster of matched terms (or its beginning), whitespace collapsed,
//! with highlight ranges in Unicode scalar offsets of the snippet. A window
//! starts and ends at a word boundary (between any two Han chars or
//! hiragana; Korean and katakana words are words) or the text's edge, and
//! a text's leading repetition of the title it sits under is left out
//! ([`title_lead`]).

use crate::text::{is_cjk, is_katakana, is_word_char};
use lectern_corpus::script::is_hangul;

/// Snippet length in Unicode scalars.
pub const SNIPPET_CHARS: usize = 200;

/// Context kept before the first match of the chosen cluster.
const LEAD_CHARS: usize = 40;

/// Farthest a window goes back (in scalars) to start at the beginning of
/// the sentence holding its first match.
const SENTENCE_BACK: usize = 80;

/// Only the first matches are weighed (bounded work on huge sections).
const MAX_MATCHES: usize = 4096;

/// A matched token: byte range in the text and which query term it matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub from: usize,
    pub to: usize,
    pub term: u32,
}

/// Builds a snippet of `text` of at most `window` scalars. `matches` may be
/// in any order, overlapping, or out of range (they are clamped and snapped
/// to char boundaries). Never panics.
pub fn snippet(text: &str, matches: &[Match], window: usize) -> (String, Vec<[usize; 2]>) {
    let window = window.max(1);
    // Only the text a window can reach is looked at: up to `window` scalars
    // (at most 4 bytes each) past the last weighed match.
    let reach = matches.iter().take(MAX_MATCHES).map(|m| m.to.max(m.from)).max().unwrap_or(0);
    let mut limit = reach.saturating_add(4 * window).min(text.len());
    while !text.is_char_boundary(limit) {
        limit += 1;
    }
    let text = &text[..limit];
    // Scalar offsets of the byte offsets the matches name, counted in one
    // pass (a char starts at every byte that is not a continuation byte):
    // `to_char(b)` is the number of chars starting before byte `b`.
    let weighed = &matches[..matches.len().min(MAX_MATCHES)];
    let mut bytes: Vec<usize> = weighed.iter().flat_map(|m| [m.from, m.to.max(m.from)]).collect();
    bytes.push(text.len());
    for b in &mut bytes {
        *b = (*b).min(text.len());
    }
    bytes.sort_unstable();
    bytes.dedup();
    let mut chars = Vec::with_capacity(bytes.len());
    let (mut at, mut count) = (0usize, 0usize);
    for &b in &bytes {
        count += char_starts(&text.as_bytes()[at..b]);
        at = b;
        chars.push(count);
    }
    let to_char = |byte: usize| chars[bytes.partition_point(|&b| b < byte.min(text.len()))];
    let total = count;
    let spans = spans(weighed, to_char);

    let start = best_start(&spans, window, total);
    let end = (start + window).min(total);

    // Walk to the window's first char from the nearest counted offset: back
    // from the first at or after it (usually its first match, a few chars
    // on), or on from the last before it (perhaps a match far back).
    let known = chars.partition_point(|&c| c <= start).saturating_sub(1);
    let (mut base, base_char) =
        if chars.first().is_some_and(|&c| c <= start) { (bytes[known], chars[known]) } else { (0, 0) };
    while !text.is_char_boundary(base) {
        base += 1;
    }
    let after = chars.partition_point(|&c| c < start);
    let from_byte = match (bytes.get(after), chars.get(after)) {
        (Some(&b), Some(&c)) if text.is_char_boundary(b) && c - start < start - base_char => {
            match c - start {
                0 => b,
                back => text[..b].char_indices().rev().nth(back - 1).map_or(0, |(i, _)| i),
            }
        }
        _ => text[base..].char_indices().nth(start - base_char).map_or(text.len(), |(b, _)| base + b),
    };
    let (start, end, from_byte) = sentence_edges(text, &spans, (start, end, from_byte), window, total);
    let (start, end, from_byte) = word_edges(text, &spans, start, end, from_byte);
    render(text[from_byte..].chars().take(end - start), &spans, start, end)
}

/// A char that continues a word on both sides of it: a cut between two of
/// them splits a word (`IndexAmRoutine`, `pg_class`). Hangul and katakana
/// too: Korean spaces its words (`설치하는`), and a run of katakana is one
/// loanword (`ヘルパー`); a cut between two Han chars or two hiragana is
/// at a char, as Chinese and Japanese have no spaces to cut at.
fn joins(c: char) -> bool {
    c == '_' || is_word_char(c) || is_hangul(c) || is_katakana(c)
}

/// An apostrophe, which continues a word between two of its chars
/// (`Django’s`, `don't`), as a dot, a hyphen, a colon or a slash continues a
/// token (`127.0.0.1`, `os.path`, `bash-completion`, `std::fs`, `a/b`).
fn apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’' | '.' | '-' | ':' | '/')
}

/// Punctuation that closes the clause before it: a window does not start
/// with it (`. # enable…`, `, this is…`).
fn closes_clause(c: char) -> bool {
    ".,;:!?)]}。，；：、！？）】」』”’".contains(c)
}

/// True when byte `at` of `text` falls inside a word: between two joining
/// chars, or on either side of an apostrophe between two (`Django|’s`,
/// `Django’|s`).
fn inside_word(text: &str, at: usize) -> bool {
    let mut before = text[..at].chars().rev();
    let mut after = text[at..].chars();
    let (p, pp) = (before.next(), before.next());
    let (n, nn) = (after.next(), after.next());
    let j = |c: Option<char>| c.is_some_and(joins);
    let a = |c: Option<char>| c.is_some_and(apostrophe);
    (j(p) && j(n)) || (j(p) && a(n) && j(nn)) || (a(p) && j(pp) && j(n))
}

/// The chars of the word part `chars` starts with (read either way):
/// joining chars, and apostrophes between two of them; `joined` tells
/// whether the char before the first joins.
fn word_part(chars: impl Iterator<Item = char>, joined: bool) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    let mut chars = chars.peekable();
    while let Some(c) = chars.next() {
        let after_word = out.last().map_or(joined, |&l| joins(l));
        if joins(c) || (apostrophe(c) && after_word && chars.peek().is_some_and(|&n| joins(n))) {
            out.push(c);
        } else {
            break;
        }
    }
    out
}

/// True when a sentence starts at byte `at` of `text`: at its first char,
/// after a line break, after `。`, `！` or `？`, or after `.`, `!` or `?`
/// and a space, an abbreviation's dot aside (`e.g. the`).
fn starts_sentence(text: &str, at: usize) -> bool {
    if text[at..].chars().next().is_none_or(char::is_whitespace) {
        return false;
    }
    let mut before = text[..at].chars().rev();
    let Some(previous) = before.next() else { return true };
    if "。！？".contains(previous) {
        return true;
    }
    if !previous.is_whitespace() {
        return false;
    }
    let mut line_break = previous == '\n';
    let mut stop = None;
    // (A longer run of spaces than this is a break of its own.)
    for c in before.by_ref().take(64) {
        if !c.is_whitespace() {
            stop = Some(c);
            break;
        }
        line_break |= c == '\n';
    }
    let Some(stop) = stop.filter(|_| !line_break) else { return true };
    // (An abbreviation: one letter and its dot, after a dot or a space.)
    let (letter, ahead) = (before.next(), before.next());
    let abbreviation = stop == '.'
        && letter.is_some_and(char::is_alphabetic)
        && ahead.is_none_or(|c| c == '.' || c.is_whitespace());
    matches!(stop, '.' | '!' | '?') && !abbreviation
}

/// Moves the window `(start, end, from_byte)` (scalars; `from_byte` is
/// where `start` is) to the start of the sentence holding its first match
/// when it is in reach: in the context kept before that match (`is
/// reversed. import { addYears…` is shown from `import`), or up to
/// [`SENTENCE_BACK`] scalars back while every term the window shows stays
/// in it. The window keeps its length (`window`, the text having `total`
/// scalars). Returns the new `(start, end, from_byte)`.
fn sentence_edges(
    text: &str,
    spans: &[(usize, usize, u32)],
    (start, end, from): (usize, usize, usize),
    window: usize,
    total: usize,
) -> (usize, usize, usize) {
    let Some(first) = spans.iter().find(|s| s.0 >= start && s.0 < end) else { return (start, end, from) };
    if start == 0 || starts_sentence(text, from) {
        return (start, end, from);
    }
    // (Only after a space or a Chinese stop can a sentence start: the rest
    // is not looked at.)
    let may_start = |at: usize| {
        at > 0
            && (matches!(text.as_bytes()[at - 1], b' ' | b'\n' | b'\t' | b'\r')
                || text[..at].ends_with(['。', '！', '？']))
            && starts_sentence(text, at)
    };
    let ahead = text[from..].char_indices().take(first.0 - start + 1).enumerate().skip(1);
    if let Some((k, b)) = ahead.filter(|&(_, (b, _))| may_start(from + b)).map(|(k, (b, _))| (k, b)).last() {
        let start = start + k;
        return (start, (start + window).min(total), from + b);
    }
    // Each term the window shows stays shown (its first match in it).
    let (mut terms, mut shown) = (Vec::new(), start);
    for s in spans.iter().filter(|s| s.0 >= start && s.0 < end) {
        if !terms.contains(&s.2) {
            terms.push(s.2);
            shown = shown.max(s.1.min(end));
        }
    }
    let reach = (start + window).saturating_sub(shown).min(SENTENCE_BACK).min(start);
    let back = text[..from].char_indices().rev().take(reach).enumerate();
    match back
        .map(|(d, (b, _))| (d + 1, b))
        .find(|&(_, b)| (b == 0 && starts_sentence(text, 0)) || may_start(b))
    {
        Some((d, b)) => (start - d, (start - d + window).min(total), b),
        None => (start, end, from),
    }
}

/// Moves the window `start..end` (scalars; `from_byte` is where `start`
/// is) off partial words: a start inside a word skips the rest of it, or,
/// when a match starts there or the word fills the window, goes back to its
/// first char (the end following, the window keeping its length); an end
/// inside a word goes back before it unless the word fills the window.
/// Returns the new `(start, end, from_byte)`.
fn word_edges(
    text: &str,
    spans: &[(usize, usize, u32)],
    start: usize,
    end: usize,
    from_byte: usize,
) -> (usize, usize, usize) {
    let (mut start, mut end, mut from) = (start, end, from_byte);
    let window = end - start;
    let joined_before = |at: usize| text[..at].chars().next_back().is_some_and(joins);
    let joined_after = |at: usize| text[at..].chars().next().is_some_and(joins);
    if window > 0 && inside_word(text, from) {
        let rest = word_part(text[from..].chars(), joined_before(from));
        let first_match = spans.iter().find(|s| s.1 > start).map(|s| s.0);
        if rest.len() < window && first_match.is_none_or(|a| a >= start + rest.len()) {
            start += rest.len();
            from += rest.iter().map(|c| c.len_utf8()).sum::<usize>();
        } else {
            let back = word_part(text[..from].chars().rev(), joined_after(from));
            start -= back.len();
            from -= back.iter().map(|c| c.len_utf8()).sum::<usize>();
            let total = start + text[from..].chars().count();
            end = (start + window).min(total);
        }
    }
    // A start inside a token of Latin text that is no word of its own (the
    // `()` of `fastify.close()`, the `(7)` of `cmake-compile-features(7)`)
    // moves past it and the spaces after, unless a match starts in it.
    if start > 0 && text[..from].chars().next_back().is_some_and(|c| !c.is_whitespace()) {
        let token: Vec<char> = text[from..].chars().take_while(|c| !c.is_whitespace()).collect();
        let spaces: Vec<char> =
            text[from..].chars().skip(token.len()).take_while(|c| c.is_whitespace()).collect();
        let matched = spans.iter().any(|s| s.0 >= start && s.0 < start + token.len());
        if !token.is_empty()
            && !token.iter().any(|&c| is_cjk(c))
            && (token.len() + spaces.len()) * 2 < end - start
            && !matched
        {
            start += token.len() + spaces.len();
            from += token.iter().chain(&spaces).map(|c| c.len_utf8()).sum::<usize>();
        }
    }
    // A start on the punctuation closing the clause before it moves past
    // it and the space after, unless a match starts there (`.npmrc`).
    if start > 0 {
        let skip: Vec<char> =
            text[from..].chars().take_while(|&c| closes_clause(c) || c.is_whitespace()).collect();
        let matched = |n: usize| spans.iter().any(|s| s.0 >= start && s.0 < start + n);
        if skip.iter().any(|&c| closes_clause(c)) && skip.len() < end - start && !matched(skip.len()) {
            start += skip.len();
            from += skip.iter().map(|c| c.len_utf8()).sum::<usize>();
        }
    }
    let mut chars = text[from..].char_indices();
    let end_byte = chars.nth(end - start).map_or(text.len(), |(b, _)| from + b);
    if inside_word(text, end_byte) {
        let cut = word_part(text[from..end_byte].chars().rev(), joined_after(end_byte)).len();
        if cut < end - start {
            end -= cut;
        }
    }
    (start, end, from)
}

/// Bytes of `text` to leave out of its snippet: the title it sits under
/// when the text opens with it as a heading (ASCII case and spacing aside;
/// followed by a line break, a separator, the title again or the end, not
/// by the rest of a sentence), as often as it repeats, and the separators
/// after it (`CREATE INDEX CREATE INDEX — define a new index` under
/// `CREATE INDEX` is shown from `define`; `Install the package` under
/// `Install` is shown whole).
pub fn title_lead(text: &str, title: &str) -> usize {
    let words: Vec<&str> = title.split_whitespace().collect();
    if words.is_empty() {
        return 0;
    }
    // The text after one title at the start of `s`, if it opens with it.
    let after_title = |s: &str| -> Option<usize> {
        let mut rest = s;
        for word in &words {
            let trimmed = rest.trim_start();
            let head = trimmed.get(..word.len())?;
            if !head.eq_ignore_ascii_case(word) {
                return None;
            }
            rest = &trimmed[word.len()..];
        }
        // The title's last word must end a word of the text (and a CJK
        // title a run of CJK text, whose words are unknown here).
        let glued = |c: char| joins(c) || crate::text::is_cjk(c);
        let last = words.last().and_then(|w| w.chars().next_back());
        (!(last.is_some_and(glued) && rest.chars().next().is_some_and(glued))).then(|| s.len() - rest.len())
    };
    let separator = |c: char| "—–-:|·：".contains(c);
    let mut at = 0;
    while let Some(len) = after_title(&text[at..]) {
        let rest = &text[at + len..];
        let inline = rest.trim_start_matches([' ', '\t']);
        let heading = inline.is_empty()
            || inline.starts_with(['\n', '\r'])
            || inline.starts_with(separator)
            || after_title(rest).is_some();
        if !heading {
            break;
        }
        at += len;
    }
    if at > 0 {
        // Separators after the title go, not the dashes of an option that
        // starts the text (`OPTIONS --amend`).
        let mut rest = text[at..].trim_start();
        let after = rest.trim_start_matches(separator);
        let option = rest.starts_with('-') && after.starts_with(char::is_alphanumeric);
        if !option {
            rest = after.trim_start();
        }
        at = text.len() - rest.len();
    }
    at
}

/// The matches as (first scalar, scalar past the end, term), sorted;
/// `to_char` maps a byte offset to the scalars before it. Empty ones are dropped.
fn spans(matches: &[Match], to_char: impl Fn(usize) -> usize) -> Vec<(usize, usize, u32)> {
    let mut spans: Vec<(usize, usize, u32)> = matches
        .iter()
        .map(|m| (to_char(m.from), to_char(m.to.max(m.from)), m.term))
        .filter(|(a, b, _)| a < b)
        .collect();
    spans.sort_unstable();
    spans
}

/// Copies the window's chars (scalars `start..end` of the text), collapsing
/// whitespace runs to one space, and maps the spans (in scalars of the text)
/// to merged highlight ranges in scalars of the copy.
fn render(
    window: impl Iterator<Item = char>,
    spans: &[(usize, usize, u32)],
    start: usize,
    end: usize,
) -> (String, Vec<[usize; 2]>) {
    // `map[k]` is the output scalar offset of window char k.
    let mut out = String::with_capacity(4 * (end - start));
    let mut out_len = 0usize;
    let mut map = Vec::with_capacity(end - start + 1);
    // (No space first, nor two in a row.)
    let mut after_space = true;
    for c in window {
        map.push(out_len);
        if c.is_whitespace() {
            if !after_space {
                out.push(' ');
                out_len += 1;
                after_space = true;
            }
        } else {
            out.push(c);
            out_len += 1;
            after_space = false;
        }
    }
    map.push(out_len);
    if out.ends_with(' ') {
        out.pop();
        out_len -= 1;
    }

    let mut highlights: Vec<[usize; 2]> = Vec::new();
    for &(a, b, _) in spans {
        let (a, b) = (a.clamp(start, end), b.clamp(start, end));
        let (a, b) = (map[a - start].min(out_len), map[b - start].min(out_len));
        if a >= b {
            continue;
        }
        match highlights.last_mut() {
            Some(last) if a <= last[1] => last[1] = last[1].max(b),
            _ => highlights.push([a, b]),
        }
    }
    (out, highlights)
}

/// How many chars start in `bytes` (a slice of valid UTF-8 cut anywhere):
/// the bytes that are not continuation bytes (`10xxxxxx`), eight at a time.
fn char_starts(bytes: &[u8]) -> usize {
    const LOW: u64 = 0x0101_0101_0101_0101;
    let mut chunks = bytes.chunks_exact(8);
    let mut count = 0usize;
    for chunk in &mut chunks {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        // Per byte: bit 7 clear, or bit 6 set.
        count += (((!x >> 7) | (x >> 6)) & LOW).count_ones() as usize;
    }
    count + chunks.remainder().iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// The window start (in scalars) covering the most distinct terms, then the
/// most matches; 0 without matches.
fn best_start(spans: &[(usize, usize, u32)], window: usize, total: usize) -> usize {
    if spans.is_empty() {
        return 0;
    }
    let (count, index) = best_cluster(spans, window);
    let first = spans[index].0;
    let last = spans[index..].iter().take(count.max(1)).map(|s| s.1).max().unwrap_or(first);
    let slack = window.saturating_sub(last.saturating_sub(first));
    let start = first.saturating_sub(LEAD_CHARS.min(slack));
    // Do not waste the window past the end of the text.
    start.min(total.saturating_sub(window))
}

/// The first span of the cluster with the most distinct terms, then the
/// most spans, and how many spans it has. A cluster is span `i` and those
/// after it that end within `window` of its start, up to the first that
/// does not (spans are sorted by start). One sliding pass.
fn best_cluster(spans: &[(usize, usize, u32)], window: usize) -> (usize, usize) {
    let mut best = (0usize, 0usize, 0usize); // (distinct, count, index)
    // Spans per term, each term's slot found in the sorted term ids.
    let mut ids: Vec<u32> = spans.iter().map(|s| s.2).collect();
    ids.sort_unstable();
    ids.dedup();
    let slot = |term: u32| ids.binary_search(&term).unwrap_or(0);
    let mut counts = vec![0usize; ids.len()];
    let mut distinct = 0usize;
    let mut j = 0;
    for i in 0..spans.len() {
        if i > 0 && j >= i {
            let c = &mut counts[slot(spans[i - 1].2)];
            *c -= 1;
            if *c == 0 {
                distinct -= 1;
            }
        }
        j = j.max(i);
        while j < spans.len() && spans[j].1 <= spans[i].0 + window {
            let c = &mut counts[slot(spans[j].2)];
            if *c == 0 {
                distinct += 1;
            }
            *c += 1;
            j += 1;
        }
        let score = (distinct, j - i);
        if score > (best.0, best.1) {
            best = (score.0, score.1, i);
        }
    }
    (best.1, best.2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn best_cluster_equals_counting_every_cluster(
            raw in proptest::collection::vec((0usize..400, 1usize..30, 0u32..5), 1..60),
            window in 1usize..120,
        ) {
            let mut spans: Vec<(usize, usize, u32)> = raw.iter().map(|&(a, len, t)| (a, a + len, t * 7)).collect();
            spans.sort_unstable();
            let mut best = (0usize, 0usize, 0usize);
            for i in 0..spans.len() {
                let end = (i..spans.len()).find(|&k| spans[k].1 > spans[i].0 + window).unwrap_or(spans.len());
                let mut terms: Vec<u32> = spans[i..end].iter().map(|s| s.2).collect();
                terms.sort_unstable();
                terms.dedup();
                if (terms.len(), end - i) > (best.0, best.1) {
                    best = (terms.len(), end - i, i);
                }
            }
            prop_assert_eq!(best_cluster(&spans, window), (best.1, best.2));
        }
    }

    fn m(from: usize, to: usize, term: u32) -> Match {
        Match { from, to, term }
    }

    #[test]
    fn no_match_starts_at_the_beginning() {
        let (s, h) = snippet("hello   world\n\nagain", &[], 200);
        assert_eq!(s, "hello world again");
        assert!(h.is_empty());
    }

    #[test]
    fn highlights_are_scalar_offsets() {
        let text = "创建索引 index";
        let from = text.find("index").unwrap();
        let (s, h) = snippet(text, &[m(from, from + 5, 0), m(0, 6, 1), m(3, 9, 2)], 200);
        assert_eq!(s, text);
        assert_eq!(h, vec![[0, 3], [5, 10]]);
    }

    #[test]
    fn window_moves_to_the_matches() {
        let text = format!("{} needle here", "x ".repeat(500));
        let from = text.find("needle").unwrap();
        let (s, h) = snippet(&text, &[m(from, from + 6, 0)], 50);
        assert!(s.contains("needle"));
        let chars: Vec<char> = s.chars().collect();
        let [a, b] = h[0];
        assert_eq!(chars[a..b].iter().collect::<String>(), "needle");
    }

    proptest! {
        #[test]
        fn chars_are_counted_like_char_indices(text in "\\PC{0,64}", cut in 0usize..300) {
            let cut = cut.min(text.len());
            let expected = text.char_indices().filter(|&(b, _)| b < cut).count();
            prop_assert_eq!(char_starts(&text.as_bytes()[..cut]), expected);
        }
    }

    /// The plain version of the offsets: every char's byte offset collected,
    /// then looked up (the window is rendered by the same `render`).
    fn reference(text: &str, matches: &[Match], window: usize) -> (String, Vec<[usize; 2]>) {
        let window = window.max(1);
        // Only the text a window can reach is looked at: up to `window` scalars
        // (at most 4 bytes each) past the last weighed match.
        let reach = matches.iter().take(MAX_MATCHES).map(|m| m.to.max(m.from)).max().unwrap_or(0);
        let mut limit = reach.saturating_add(4 * window).min(text.len());
        while !text.is_char_boundary(limit) {
            limit += 1;
        }
        let text = &text[..limit];
        // Byte offset of each char start, to map bytes to scalars.
        let starts: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
        let total = starts.len();
        let to_char = |byte: usize| starts.partition_point(|&s| s < byte.min(text.len()));
        let spans = spans(&matches[..matches.len().min(MAX_MATCHES)], to_char);

        let start = best_start(&spans, window, total);
        let end = (start + window).min(total);
        let from = starts.get(start).copied().unwrap_or(text.len());
        let (start, end, from) = sentence_edges(text, &spans, (start, end, from), window, total);
        let (start, end, _) = word_edges(text, &spans, start, end, from);

        let window = starts[start..end].iter().map(|&b| text[b..].chars().next().unwrap_or(' '));
        render(window, &spans, start, end)
    }

    proptest! {
        #[test]
        fn never_panics_and_highlights_are_valid(
            text in "\\PC{0,300}",
            raw in proptest::collection::vec((0usize..1200, 0usize..40, 0u32..4), 0..20),
            window in 0usize..250,
        ) {
            let matches: Vec<Match> = raw.iter().map(|&(f, l, t)| m(f, f + l, t)).collect();
            let (s, h) = snippet(&text, &matches, window);
            prop_assert_eq!((s.clone(), h.clone()), reference(&text, &matches, window));
            let len = s.chars().count();
            prop_assert!(len <= window.max(1));
            let mut last_end = 0;
            for [a, b] in h.iter().copied() {
                prop_assert!(a < b && b <= len);
                prop_assert!(a >= last_end);
                last_end = b;
            }
        }
    }

    /// Words of the boundary property: ASCII words, identifiers, CJK runs.
    const WORDS: &[&str] = &[
        "index",
        "IndexAmRoutine",
        "relname",
        "pg_class",
        "a",
        "12345",
        "创建索引",
        "的",
        "Straße",
        "Django’s",
        "don't",
        "x-y",
        "(",
        ")",
    ];

    fn collapsed(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Whether `s` occurs in `text` starting and ending at a word boundary
    /// or the text's edge. Every occurrence counts, overlapping ones too
    /// (`pg_class pg_class` in `Routinepg_class pg_class pg_class`).
    fn at_boundaries(text: &str, s: &str) -> bool {
        let mut starts = text.char_indices().map(|(at, _)| at).filter(|&at| text[at..].starts_with(s));
        starts.any(|at| !inside_word(text, at) && !inside_word(text, at + s.len()))
    }

    proptest! {
        #[test]
        fn snippets_start_and_end_at_word_boundaries(
            words in proptest::collection::vec((prop::sample::select(WORDS), prop::sample::select(&[" ", "  ", "\n", ""][..])), 1..120),
            picks in proptest::collection::vec(0usize..120, 0..6),
            window in 30usize..120,
        ) {
            let mut text = String::new();
            let mut bounds = Vec::new();
            for (w, sep) in &words {
                bounds.push((text.len(), text.len() + w.len()));
                text.push_str(w);
                text.push_str(sep);
            }
            let matches: Vec<Match> =
                picks.iter().filter_map(|&p| bounds.get(p)).map(|&(a, b)| m(a, b, a as u32 % 3)).collect();
            let (s, h) = snippet(&text, &matches, window);
            prop_assert!(s.chars().count() <= window);
            // A word longer than the window is the one place a cut falls
            // inside a word: the snippet is then part of that one word.
            let whole = collapsed(&text);
            let in_long_word = !s.contains(char::is_whitespace)
                && whole.split_whitespace().any(|w| w.contains(&s) && w.chars().count() > window);
            prop_assert!(at_boundaries(&whole, &s) || in_long_word, "{s:?} in {text:?}");
            let chars: Vec<char> = s.chars().collect();
            for [a, b] in h {
                let lit: String = chars[a..b].iter().collect();
                prop_assert!(matches.iter().any(|m| text[m.from..m.to].contains(&lit) || lit.contains(&text[m.from..m.to])), "{lit:?}");
            }
        }
    }

    #[test]
    fn a_window_starts_at_the_sentence_of_its_first_match() {
        let at = |text: &str, word: &str| {
            let from = text.find(word).unwrap();
            snippet(text, &[m(from, from + word.len(), 0)], 60).0
        };
        // The sentence starts in the context before the match.
        let text =
            format!("{} the order is reversed. Use addYears to add years to a date.", "word ".repeat(40));
        assert_eq!(at(&text, "addYears"), "Use addYears to add years to a date.");
        // Or a little before it, the match staying in the window.
        let text =
            format!("{}. Decorate a view function with the given rule and options.", "word ".repeat(40));
        assert_eq!(at(&text, "options"), "Decorate a view function with the given rule and options.");
        // A line break starts one, an abbreviation's dot does not, nor does a Chinese comma.
        let text = format!("{}\nsome tools, e.g. the reader, show register calls", "word ".repeat(40));
        assert!(at(&text, "register").starts_with("some tools, e.g. the reader"));
        let text = format!("{}。先创建表，然后用索引加速查询。", "词".repeat(90));
        assert_eq!(at(&text, "索引"), "先创建表，然后用索引加速查询。");
        // A repeated match may leave the window's end; a term may not.
        let text = format!(
            "{}. For general information on this class see the test client. The test client",
            "word ".repeat(40)
        );
        let from = text.find("test client").unwrap();
        let again = text.rfind("test client").unwrap();
        let (s, _) =
            snippet(&text, &[m(from, from + 4, 0), m(from + 5, from + 11, 1), m(again, again + 4, 0)], 60);
        assert_eq!(s, "For general information on this class see the test client.");
        // Too far back for the window to keep its match: the window stays.
        let text = format!("Start. {} needle", "word ".repeat(30));
        let s = at(&text, "needle");
        assert!(s.ends_with("needle") && !s.starts_with("Start"), "{s:?}");
    }

    #[test]
    fn a_window_starting_inside_a_token_starts_after_it() {
        let text = "The server closes when fastify.close() is called, and every route is closed first.";
        // (From inside `close`, past its rest and then past `()`.)
        let (start, end, from) = word_edges(text, &[], 33, 82, 33);
        assert_eq!(&text[from..], "is called, and every route is closed first.");
        assert_eq!((start, end), (39, 82));
        let (_, _, from) = word_edges(text, &[], 36, 82, 36);
        assert_eq!(&text[from..], "is called, and every route is closed first.");
        // Not when a match starts in it, nor inside Chinese text.
        let (_, _, from) = word_edges(text, &[(36, 38, 0)], 36, 82, 36);
        assert_eq!(from, 36);
        let zh = "参见函数pg_sleep()的说明，它会让当前会话的进程休眠指定的秒数，然后返回。";
        let at = zh.find("()").unwrap();
        let (_, _, from) = word_edges(zh, &[], zh[..at].chars().count(), 40, at);
        assert_eq!(from, at);
    }

    #[test]
    fn no_window_starts_or_ends_inside_a_word() {
        for lead in 0..12 {
            let text = format!(
                "{}IndexAmRoutine holds the relname) of pg_class_entries {}",
                "ab ".repeat(lead),
                "word ".repeat(60)
            );
            let at = text.find("holds").unwrap();
            for window in [20, 30, 40, 57] {
                let (s, h) = snippet(&text, &[m(at, at + 5, 0)], window);
                assert!(at_boundaries(&collapsed(&text), &s), "{s:?}");
                assert!(!s.contains("ndexAm") || s.contains("IndexAm"), "{s:?}");
                let chars: Vec<char> = s.chars().collect();
                assert_eq!(chars[h[0][0]..h[0][1]].iter().collect::<String>(), "holds");
            }
        }
    }

    #[test]
    fn korean_words_and_katakana_runs_are_never_cut() {
        let korean = format!(
            "{}패키지를 설치하는 방법은 다음과 같습니다 {}",
            "데비안은 혼합 배포판을 실행 ".repeat(9),
            "실행 ".repeat(40)
        );
        let japanese = format!(
            "{}ヘルパーの一部としてパッケージを管理します{}",
            "これはデーターです".repeat(12),
            "。".repeat(40)
        );
        for (text, word) in [(korean, "설치하는"), (japanese, "パッケージ")] {
            let at = text.find(word).unwrap();
            for window in 20..90 {
                let (s, _) = snippet(&text, &[m(at, at + word.len(), 0)], window);
                let from = text.find(&s).unwrap_or_else(|| panic!("{s:?}"));
                let to = from + s.len();
                let word_char = |c: Option<char>| c.is_some_and(|c| is_hangul(c) || is_katakana(c));
                let cut = |at: usize| {
                    word_char(text[..at].chars().next_back()) && word_char(text[at..].chars().next())
                };
                assert!(!cut(from) && !cut(to), "{window}: {s:?}");
            }
        }
    }

    #[test]
    fn no_window_starts_inside_a_token_or_on_the_end_of_a_clause() {
        for lead in 0..24 {
            let text = format!(
                "{}127.0.0.1 localhost; os.path holds it. # enable bash-completion, then {}",
                "ab ".repeat(lead),
                "word ".repeat(60)
            );
            for (word, window) in
                [("localhost", 30), ("holds", 30), ("enable", 30), ("then", 30), ("holds", 45)]
            {
                let at = text.find(word).unwrap();
                let (s, _) = snippet(&text, &[m(at, at + word.len(), 0)], window);
                let first = s.chars().next().unwrap();
                assert!(!closes_clause(first), "{s:?}");
                for token in ["127.0.0.1", "os.path", "bash-completion"] {
                    for (i, _) in token.char_indices().skip(1) {
                        assert!(s.starts_with(token) || !s.starts_with(&token[i..]), "{s:?} cuts {token}");
                    }
                }
            }
        }
    }

    #[test]
    fn an_option_after_the_title_keeps_its_dashes() {
        let text = "OPTIONS\n--amend Replace the tip. -q, --quiet Say less.";
        assert_eq!(&text[title_lead(text, "OPTIONS")..], "--amend Replace the tip. -q, --quiet Say less.");
        let text = "CREATE INDEX — define a new index";
        assert_eq!(&text[title_lead(text, "CREATE INDEX")..], "define a new index");
        let text = "Options: -v verbose";
        assert_eq!(&text[title_lead(text, "Options")..], "-v verbose");
    }

    #[test]
    fn the_title_is_not_repeated() {
        let text = "CREATE INDEX CREATE INDEX — define a new index";
        assert_eq!(&text[title_lead(text, "CREATE INDEX")..], "define a new index");
        assert_eq!(title_lead("Create   index: builds", "CREATE INDEX"), "Create   index: ".len());
        assert_eq!(title_lead("INDEXES are", "INDEX"), 0);
        assert_eq!(title_lead("Other text", "CREATE INDEX"), 0);
        assert_eq!(title_lead("anything", ""), 0);
        assert_eq!(title_lead("索引器", "索引"), 0);
        assert_eq!(title_lead("Install the package", "Install"), 0);
        assert_eq!(title_lead("Install\nThe package", "Install"), "Install\n".len());
        assert_eq!(title_lead("CREATE INDEX", "CREATE INDEX"), "CREATE INDEX".len());
        assert_eq!(title_lead("索引 索引：说明", "索引"), "索引 索引：".len());
    }
}
