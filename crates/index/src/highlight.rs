//! Finding a query's terms in a section for its snippet. The text is not
//! tokenized whole: an Aho-Corasick search (SIMD, ASCII case ignored) finds
//! where a term could start (the lead of each Latin term's stem, the first
//! char of each CJK term), and only the words around those places are
//! analysed, exactly as the index analysed them. Queries with terms of other
//! scripts (Cyrillic, accented Latin...) fall back to analysing the text.
//! What this misses, and only in snippets (search itself is unaffected): a
//! word whose first letters fold to a term's (the ligature in `ﬁle`, a CJK
//! compatibility ideograph) is not looked at.

use std::cell::RefCell;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use rustc_hash::FxHashMap;

use crate::snippet::{Match, SNIPPET_CHARS, snippet, title_lead};
use crate::text::{is_cjk, is_katakana, is_word_char};
use crate::tokenizer::{
    Keep, MAX_LEADING_UNDERSCORES, after_long_vowels, analyze_each_where, lead_mask, operator_run_around,
    stem_lead,
};

/// Text beyond this many bytes of a section is not scanned for highlights.
const SCAN_BYTES: usize = 16 * 1024;
/// [`Highlight::snippet`] reads no text past this many bytes (the scan, a
/// window of up to 4 bytes per char past it, and a char boundary), so a
/// text cut here, at a char boundary, gives the same snippet.
pub(crate) const SNIPPET_SOURCE_BYTES: usize = SCAN_BYTES + 4 * SNIPPET_CHARS + 8;
/// Matches gathered for one snippet, at most.
const MAX_MATCHES: usize = 4096;
/// Case spellings of the leads searched for as such, at most (Teddy's limit).
const MAX_SPELLINGS: usize = 64;
/// Word runs whose analysis is remembered across the hits of one search.
const MAX_REMEMBERED: usize = 4096;

/// A run's tokens: highlight group (None: a kept token of no query term)
/// and byte range within the run.
type RunTokens = Vec<(Option<u32>, usize, usize)>;

/// Every positive term of a query with its highlight group (a word, a
/// phrase, a prefix's expansions share one), and what a scan must look at.
pub(crate) struct Highlight {
    terms: Vec<(String, u32)>,
    groups: usize,
    leads: Vec<Vec<u8>>,
    lead_first: u128,
    cjk_first: Vec<char>,
    /// Where terms could start; None when some term is neither ASCII nor CJK.
    starts: Option<Starts>,
    /// Each word run analysed so far (the same words recur across a
    /// section and across the hits of one query; stemming is the cost).
    runs: RefCell<FxHashMap<String, RunTokens>>,
}

impl Highlight {
    pub(crate) fn new(terms: Vec<(String, u32)>, groups: u32) -> Self {
        let mut leads: Vec<Vec<u8>> = Vec::new();
        let mut cjk_first: Vec<char> = Vec::new();
        let mut other_script = false;
        for (t, _) in &terms {
            if t.is_ascii() {
                let lead = stem_lead(t.as_bytes()).to_vec();
                if !leads.contains(&lead) {
                    leads.push(lead);
                }
            } else if t.chars().all(is_cjk) {
                if let Some(c) = t.chars().next()
                    && !cjk_first.contains(&c)
                {
                    cjk_first.push(c);
                }
            } else {
                other_script = true;
            }
        }
        let cjk: Vec<Vec<u8>> = cjk_first.iter().map(|c| c.to_string().into_bytes()).collect();
        // Every ASCII case spelling of each lead, searched case-sensitively:
        // up to 64 patterns the SIMD searcher (Teddy) finds them at memchr
        // speed, where a case-insensitive automaton steps byte by byte.
        let spellings: Vec<Vec<u8>> =
            leads.iter().flat_map(|l| case_spellings(l)).chain(cjk.iter().cloned()).collect();
        let (patterns, fold_case) = if spellings.len() <= MAX_SPELLINGS {
            (spellings, false)
        } else {
            (leads.iter().cloned().chain(cjk).collect(), true)
        };
        let starts =
            (!other_script && !patterns.is_empty()).then(|| Starts::new(&patterns, fold_case)).flatten();
        Highlight {
            terms,
            groups: groups as usize,
            lead_first: lead_mask(&leads),
            leads,
            cjk_first,
            starts,
            runs: RefCell::default(),
        }
    }

    fn group(&self, term: &str) -> Option<u32> {
        self.terms.iter().find(|(t, _)| t == term).map(|(_, g)| *g)
    }

    fn keep(&self) -> Keep<'_> {
        Keep::Only { leads: &self.leads, lead_first: self.lead_first, cjk_first: &self.cjk_first }
    }

    /// The snippet of a section's `text` under its `title`: the best window
    /// of the text after the title where it opens with it ([`title_lead`]).
    pub(crate) fn snippet_under(&self, title: &str, text: &str) -> (String, Vec<[usize; 2]>) {
        self.snippet(&text[title_lead(text, title)..])
    }

    /// The snippet of `text`: its best window for these terms, highlighted.
    pub(crate) fn snippet(&self, text: &str) -> (String, Vec<[usize; 2]>) {
        let mut scan_end = text.len().min(SCAN_BYTES);
        while !text.is_char_boundary(scan_end) {
            scan_end -= 1;
        }
        let scanned = &text[..scan_end];
        let mut found = Found::new(self.groups);
        match &self.starts {
            Some(starts) => self.scan_starts(scanned, starts, &mut found),
            None => analyze_each_where(scanned, true, &self.keep(), &mut |t, from, to, _, _| {
                found.push(self.group(t), from, to)
            }),
        }
        let mut matches = found.matches;
        matches.sort_unstable_by_key(|m| (m.from, m.to, m.term));
        matches.dedup();
        snippet(text, &matches, SNIPPET_CHARS)
    }

    /// Analyses only the word runs (and CJK char pairs) where a term could start.
    fn scan_starts(&self, text: &str, starts: &Starts, found: &mut Found) {
        let keep = self.keep();
        let mut done_until = 0usize;
        for at in starts.find_iter(text) {
            if at < done_until {
                continue;
            }
            let Some(c) = text[at..].chars().next() else { break };
            // An operator (`::` of `Vec::new`): its run of punctuation.
            let (op_from, op_to) = operator_run_around(text, at);
            let operator = op_to > op_from;
            // Inside an ASCII word: no token starts here (after an
            // underscore a part does, and its run is analysed), unless at
            // a capital (a part of a name in camel case may).
            if !is_cjk(c)
                && !operator
                && !c.is_ascii_uppercase()
                && at > 0
                && text.as_bytes()[at - 1].is_ascii_alphanumeric()
            {
                continue;
            }
            let (from, to) = if operator {
                (op_from, op_to)
            } else if is_cjk(c) {
                // The char's unigram and its bigram with the next char (past
                // a long vowel mark after katakana, as the tokenizer reads it).
                let after = at + c.len_utf8();
                let after = if is_katakana(c) { after_long_vowels(text, after) } else { after };
                let next = text[after..].chars().next().filter(|&n| is_cjk(n));
                (at, after + next.map_or(0, char::len_utf8))
            } else {
                run_around(text, at)
            };
            let mut runs = self.runs.borrow_mut();
            if !runs.contains_key(&text[from..to]) {
                if runs.len() >= MAX_REMEMBERED {
                    runs.clear();
                }
                let mut tokens = RunTokens::new();
                analyze_each_where(&text[from..to], true, &keep, &mut |t, a, b, _, _| {
                    tokens.push((self.group(t), a, b));
                    true
                });
                runs.insert(text[from..to].to_string(), tokens);
            }
            let tokens = &runs[&text[from..to]];
            let go_on = tokens.iter().all(|&(group, a, b)| found.push(group, from + a, from + b));
            if !go_on {
                return;
            }
            done_until = if is_cjk(c) { at + c.len_utf8() } else { to };
        }
    }
}

/// The searcher of where terms could start.
enum Starts {
    /// Teddy alone: cheap to build, SIMD to run.
    Packed(aho_corasick::packed::Searcher),
    /// An automaton, for more spellings than Teddy takes.
    Automaton(AhoCorasick),
}

impl Starts {
    fn new(patterns: &[Vec<u8>], fold_case: bool) -> Option<Starts> {
        if !fold_case
            && let Some(packed) = aho_corasick::packed::Config::new()
                .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
                .builder()
                .extend(patterns)
                .build()
        {
            return Some(Starts::Packed(packed));
        }
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(fold_case)
            .match_kind(MatchKind::LeftmostFirst)
            .build(patterns)
            .ok()
            .map(Starts::Automaton)
    }

    fn find_iter<'t>(&'t self, text: &'t str) -> Box<dyn Iterator<Item = usize> + 't> {
        match self {
            Starts::Packed(p) => Box::new(p.find_iter(text).map(|m| m.start())),
            Starts::Automaton(a) => Box::new(a.find_iter(text).map(|m| m.start())),
        }
    }
}

/// Every spelling of `lead` in ASCII upper and lower case (`ab`: `ab`,
/// `Ab`, `aB`, `AB`).
fn case_spellings(lead: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::with_capacity(lead.len())];
    for &b in lead {
        let (lower, upper) = (b.to_ascii_lowercase(), b.to_ascii_uppercase());
        if lower == upper {
            out.iter_mut().for_each(|s| s.push(b));
        } else {
            out =
                out.into_iter().flat_map(|s| [lower, upper].map(|c| [s.as_slice(), &[c]].concat())).collect();
        }
    }
    out
}

/// The word run (a word, an identifier of words joined by single
/// underscores, or a compound of words joined by single hyphens) holding
/// byte `at`, as the tokenizer delimits it.
fn run_around(text: &str, at: usize) -> (usize, usize) {
    let word_before = |i: usize| text[..i].chars().next_back().is_some_and(is_word_char);
    let word_at = |i: usize| text[i..].chars().next().is_some_and(is_word_char);
    // (From a name's leading underscores, its word.)
    let underscores = text[at..].bytes().take_while(|&b| b == b'_').count();
    let at = if (1..=MAX_LEADING_UNDERSCORES).contains(&underscores) && word_at(at + underscores) {
        at + underscores
    } else {
        at
    };
    let mut start = at;
    loop {
        match text[..start].chars().next_back() {
            Some(c) if is_word_char(c) => start -= c.len_utf8(),
            Some('_' | '-') if word_before(start - 1) && word_at(start) => start -= 1,
            _ => break,
        }
    }
    let mut end = at;
    loop {
        match text[end..].chars().next() {
            Some(c) if is_word_char(c) => end += c.len_utf8(),
            Some('_' | '-') if end > start && word_at(end + 1) => end += 1,
            _ => break,
        }
    }
    // A name's leading underscores (`__init__`, `_private`), and as many
    // trailing ones, as the tokenizer keeps them.
    let lead = text[..start].bytes().rev().take_while(|&b| b == b'_').count();
    if (1..=MAX_LEADING_UNDERSCORES).contains(&lead) && !word_before(start - lead) {
        start -= lead;
        let trail = text[end..].bytes().take(lead).take_while(|&b| b == b'_').count();
        if !word_at(end + trail) {
            end += trail;
        }
    }
    (start, end)
}

/// Matches found so far; stops the scan once some short stretch holds every
/// group (no window can do better) and the window past it is covered.
struct Found {
    matches: Vec<Match>,
    last: Vec<Option<usize>>,
    stop_at: usize,
}

impl Found {
    fn new(groups: usize) -> Self {
        Found { matches: Vec::new(), last: vec![None; groups], stop_at: usize::MAX }
    }

    /// Records a token; false once the scan can stop.
    fn push(&mut self, group: Option<u32>, from: usize, to: usize) -> bool {
        if from > self.stop_at {
            return false;
        }
        let Some(group) = group else { return true };
        self.matches.push(Match { from, to, term: group });
        if let Some(slot) = self.last.get_mut(group as usize) {
            *slot = Some(from);
        }
        if self.stop_at == usize::MAX {
            let (mut lo, mut hi) = (usize::MAX, 0);
            let all = self.last.iter().all(|seen| {
                seen.inspect(|&at| {
                    lo = lo.min(at);
                    hi = hi.max(at);
                })
                .is_some()
            });
            if all && hi - lo <= SNIPPET_CHARS / 2 {
                // A scalar is at most 4 bytes: scan on to the end of any
                // window starting there, so its other matches are lit too.
                self.stop_at = lo.saturating_add(4 * SNIPPET_CHARS);
            }
        }
        self.matches.len() < MAX_MATCHES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn terms(ts: &[&str]) -> Vec<(String, u32)> {
        ts.iter().enumerate().map(|(i, t)| (t.to_string(), i as u32)).collect()
    }

    /// What analysing the whole text finds (the definition).
    fn full(h: &Highlight, text: &str) -> (String, Vec<[usize; 2]>) {
        let mut scan_end = text.len().min(SCAN_BYTES);
        while !text.is_char_boundary(scan_end) {
            scan_end -= 1;
        }
        let mut found = Found::new(h.groups);
        analyze_each_where(&text[..scan_end], true, &Keep::All, &mut |t, from, to, _, _| {
            found.push(h.group(t), from, to)
        });
        let mut matches = found.matches;
        matches.sort_unstable_by_key(|m| (m.from, m.to, m.term));
        matches.dedup();
        snippet(text, &matches, SNIPPET_CHARS)
    }

    #[test]
    fn leads_are_spelled_in_every_case() {
        let mut spellings = case_spellings(b"a_1b");
        spellings.sort();
        assert_eq!(spellings, [b"A_1B", b"A_1b", b"a_1B", b"a_1b"].map(|s| s.to_vec()));
    }

    #[test]
    fn runs_are_delimited_like_the_tokenizer() {
        let text = "see work_mem_x, _a_b and 在PostgreSQL中";
        let at = text.find("mem").unwrap();
        assert_eq!(&text[run_around(text, at).0..run_around(text, at).1], "work_mem_x");
        let at = text.find("a_b").unwrap();
        assert_eq!(&text[run_around(text, at).0..run_around(text, at).1], "_a_b");
        let dunder = "call __init__ now, not x__y";
        for at in [dunder.find("__init").unwrap(), dunder.find("init").unwrap()] {
            assert_eq!(&dunder[run_around(dunder, at).0..run_around(dunder, at).1], "__init__");
        }
        let at = text.find("SQL").unwrap();
        assert_eq!(&text[run_around(text, at).0..run_around(text, at).1], "PostgreSQL");
    }

    #[test]
    fn finds_what_a_full_analysis_finds() {
        let text = "Indexes on WORK_MEM: 创建索引 and the indexing of ﬁles; 索 alone, dying Straße";
        let h = Highlight::new(terms(&["index", "mem", "work_mem", "索引", "索", "die", "strasse"]), 7);
        assert!(h.starts.is_some());
        let (s, lit) = h.snippet(text);
        assert_eq!((s.clone(), lit.clone()), full(&h, text));
        assert!(lit.len() >= 6, "{s} {lit:?}");
        // A term of another script: the whole text is analysed.
        let h = Highlight::new(terms(&["кот"]), 1);
        assert!(h.starts.is_none());
        assert_eq!(h.snippet("Кот и кот").1.len(), 2);
    }

    proptest! {
        #[test]
        fn equals_a_full_analysis(
            words in proptest::collection::vec(
                prop_oneof![
                    Just("index"), Just("Indexes"), Just("work_mem"), Just("mem_"), Just("_"), Just("__init__"), Just("索引"),
                    Just("创建"), Just("索"), Just(" "), Just(", "), Just("dying"), Just("9.6"), Just("x"),
                    Just("在"), Just("ǅ"), Just("é"), Just("CREATE"), Just("Concurrently"), Just("cOnCuRrEnT"),
                    Just("getIndexes"), Just("XMLIndex"),
                ],
                0..60,
            ),
            picks in proptest::collection::vec(0usize..10, 1..6),
            split in 0usize..60,
        ) {
            let text: String = words.concat();
            // A second text after the first: the runs the first analysed
            // are remembered, and must not change what the second finds.
            let other: String = words[split.min(words.len())..].concat();
            let pool = ["index", "mem", "work_mem", "索引", "索", "die", "9", "x", "concurrently", "create"];
            let chosen: Vec<&str> = picks.iter().map(|&i| pool[i]).collect();
            let h = Highlight::new(terms(&chosen), chosen.len() as u32);
            prop_assert_eq!(h.snippet(&text), full(&h, &text));
            prop_assert_eq!(h.snippet(&other), full(&h, &other));
        }

        #[test]
        fn a_text_cut_after_the_source_bytes_gives_the_same_snippet(
            lead in 0usize..2_000,
            unit in prop_oneof![Just("index "), Just("创建索引，"), Just("x"), Just("é ")],
            term_at in 0usize..40_000,
            cut_back in 0usize..4,
        ) {
            // Long texts whose only match is anywhere, the scan's end included.
            let mut text = "a".repeat(lead);
            while text.len() < 40_000 {
                text.push_str(unit);
            }
            let mut at = term_at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.insert_str(at, " work_mem 参数 ");
            let h = Highlight::new(terms(&["work_mem", "参数", "index"]), 3);
            let mut cut = SNIPPET_SOURCE_BYTES - cut_back;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            prop_assert_eq!(h.snippet(&text[..cut]), h.snippet(&text));
        }
    }
}
