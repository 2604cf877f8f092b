//! Ranked search over a set of editions: query compilation, the two tiers
//! (every word, then most words), exact symbols first, deadline and
//! cancellation checked while collecting, exact paging, and snippets.
//!
//! Order: (tier, score desc, section key asc). Tier 1 holds the sections with
//! every word and phrase (and those whose symbol is exactly the query words,
//! scored above everything); tier 2, computed only when tier 1 holds fewer
//! than a page (`limit`) of sections, holds the sections with most of the
//! words (or the rarest one), scored by coverage first: the idf of the words
//! a section holds over the idf of all of them (see [`Coverage`]), then BM25.
//! Sections of generated listings (a manual's index) come after both
//! tiers. The rule does not depend on `offset`, so `total` and the order stay
//! the same on every page of one query and limit: pages never overlap or skip.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::time::Instant;

use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, EnableScoring, Occur, PhraseQuery, Query, TermQuery,
};
use tantivy::schema::document::{DeserializeError, DocumentDeserialize, DocumentDeserializer};
use tantivy::schema::{IndexRecordOption, OwnedValue};
use tantivy::{DocAddress, DocId, DocSet, Score, Searcher, TERMINATED, Term};

use crate::highlight::{Highlight, SNIPPET_SOURCE_BYTES};
use crate::hitdoc::{self, HitFields};
use crate::schema::Fields;
use crate::store::{Hit, SearchOutcome, SearchRequest, SnapshotInner, symbol_key};
use crate::text::fold;
use crate::tokenizer::{Analyzed, TokenKind, analyze};

/// Candidates kept per tier; past it the result says `candidate_truncated`.
pub const MAX_CANDIDATES: usize = 200_000;
/// Terms a prefix expands to, at most.
const MAX_PREFIX_TERMS: usize = 50;
/// Deadline and cancellation are checked every this many documents.
const CHECK_EVERY: u32 = 256;
/// Score given to an exact symbol match: above any BM25 sum.
const SYMBOL_SCORE: Score = 10_000.0;
/// Bonus for the sections of a page whose symbol starts the query.
const PAGE_SYMBOL_SCORE: Score = 40.0;
/// Field boosts over body.
const TITLE_BOOST: Score = 3.0;
const BREADCRUMB_BOOST: Score = 1.5;

/// English words that say nothing about the answer; they never count toward
/// the "most words" of tier 2.
const STOPWORDS: &[&str] = &[
    "a", "about", "an", "and", "are", "as", "at", "be", "by", "can", "could", "do", "does", "for", "from",
    "get", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "no", "not", "of", "on", "or",
    "should", "so", "that", "the", "their", "then", "there", "these", "this", "to", "use", "using", "was",
    "we", "what", "when", "where", "which", "while", "who", "why", "will", "with", "without", "would", "you",
    "your",
];

/// One searchable unit: a term, a phrase (terms at offsets), or any of
/// several terms (a prefix expansion).
#[derive(Debug, Clone, PartialEq)]
enum Unit {
    Term(String),
    Phrase(Vec<(usize, String)>),
    AnyOf(Vec<String>),
}

impl Unit {
    fn terms(&self) -> Vec<&str> {
        match self {
            Unit::Term(t) => vec![t],
            Unit::Phrase(ts) => ts.iter().map(|(_, t)| t.as_str()).collect(),
            Unit::AnyOf(ts) => ts.iter().map(String::as_str).collect(),
        }
    }

    /// The unit in one field, or None when it cannot match there.
    fn query_in(&self, field: tantivy::schema::Field) -> Option<Box<dyn Query>> {
        let term = |t: &str| Term::from_field_text(field, t);
        match self {
            Unit::Term(t) => Some(Box::new(TermQuery::new(term(t), IndexRecordOption::WithFreqs))),
            Unit::Phrase(ts) if ts.len() >= 2 => {
                Some(Box::new(PhraseQuery::new_with_offset(ts.iter().map(|(o, t)| (*o, term(t))).collect())))
            }
            Unit::Phrase(ts) => {
                ts.first().map(|(_, t)| Box::new(TermQuery::new(term(t), IndexRecordOption::WithFreqs)) as _)
            }
            Unit::AnyOf(ts) if ts.is_empty() => None,
            Unit::AnyOf(ts) => Some(Box::new(BooleanQuery::new(
                ts.iter()
                    .map(|t| {
                        (
                            Occur::Should,
                            Box::new(TermQuery::new(term(t), IndexRecordOption::WithFreqs)) as Box<dyn Query>,
                        )
                    })
                    .collect(),
            ))),
        }
    }

    /// The unit in body, title (×3) or breadcrumb (×1.5).
    fn query(&self, f: &Fields) -> Option<Box<dyn Query>> {
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for (field, boost) in [(f.body, 1.0), (f.title, TITLE_BOOST), (f.breadcrumb, BREADCRUMB_BOOST)] {
            if let Some(q) = self.query_in(field) {
                clauses.push((Occur::Should, Box::new(BoostQuery::new(q, boost))));
            }
        }
        (!clauses.is_empty()).then(|| Box::new(BooleanQuery::new(clauses)) as Box<dyn Query>)
    }
}

/// The terms of a phrase as the index holds them: words (not identifier
/// parts) at their positions; for CJK runs the bigrams, or the unigram of a
/// one-char run.
fn phrase_terms(tokens: &[Analyzed]) -> Vec<(usize, String)> {
    let bigram_at: HashSet<usize> =
        tokens.iter().filter(|t| t.kind == TokenKind::Bigram).map(|t| t.position).collect();
    let mut terms: Vec<(usize, String)> = tokens
        .iter()
        .filter(|t| match t.kind {
            TokenKind::Word | TokenKind::Bigram => true,
            TokenKind::Part => false,
            // A one-char run: no bigram starts at it or just before it.
            TokenKind::Unigram => {
                let before = t.position.checked_sub(1).is_some_and(|p| bigram_at.contains(&p));
                !before && !bigram_at.contains(&t.position)
            }
        })
        .map(|t| (t.position, t.text.clone()))
        .collect();
    terms.sort();
    let first = terms.first().map_or(0, |t| t.0);
    for t in &mut terms {
        t.0 -= first;
    }
    terms
}

fn analyzed(text: &str) -> Vec<Analyzed> {
    let mut tokens = Vec::new();
    analyze(&fold(text), true, &mut tokens);
    tokens
}

/// A word or phrase as one unit (a term when it is a single token).
fn unit_of(text: &str) -> Option<Unit> {
    let mut terms = phrase_terms(&analyzed(text));
    match terms.len() {
        0 => None,
        1 => terms.pop().map(|(_, t)| Unit::Term(t)),
        _ => Some(Unit::Phrase(terms)),
    }
}

/// The query, compiled once per search.
struct Compiled {
    /// Tier 1: every word, phrase and exclusion, or the symbol.
    tier1: Box<dyn Query>,
    /// Tier 2: most of the words; None when it could add nothing.
    tier2: Option<(Box<dyn Query>, Coverage)>,
    /// What snippets look for.
    highlight: Highlight,
}

fn expand_prefix(searcher: &Searcher, f: &Fields, prefix: &str) -> Vec<String> {
    let mut upper = prefix.as_bytes().to_vec();
    upper.push(0xFF);
    let mut found: Vec<String> = Vec::new();
    // The typed text may run past the indexed stem (`lockin` for `lock`,
    // stem of `locking`): take the longest indexed term it starts with.
    let chars: Vec<usize> = prefix.char_indices().map(|(b, _)| b).skip(1).collect();
    let shortest = chars.len().saturating_sub(4).max(2);
    'shorter: for &end in chars.iter().skip(shortest).rev() {
        let shorter = &prefix[..end];
        for reader in searcher.segment_readers() {
            for field in [f.body, f.title] {
                if let Ok(inverted) = reader.inverted_index(field)
                    && inverted.terms().get(shorter).ok().flatten().is_some()
                {
                    found.push(shorter.to_string());
                    break 'shorter;
                }
            }
        }
    }
    'segments: for reader in searcher.segment_readers() {
        for field in [f.body, f.title] {
            let Ok(inverted) = reader.inverted_index(field) else { continue };
            let Ok(mut stream) = inverted.terms().range().ge(prefix.as_bytes()).lt(&upper).into_stream()
            else {
                continue;
            };
            while stream.advance() {
                if let Ok(term) = std::str::from_utf8(stream.key())
                    && !found.iter().any(|t| t == term)
                {
                    found.push(term.to_string());
                    if found.len() >= MAX_PREFIX_TERMS {
                        break 'segments;
                    }
                }
            }
        }
    }
    found
}

fn compile(snap: &SnapshotInner, request: &SearchRequest<'_>) -> Option<Compiled> {
    let f = &*snap.fields;
    let q = request.query;

    let mut word_units: Vec<Unit> = Vec::new();
    // Which word units are English stopwords (not highlighted beside others).
    let mut stop_units: Vec<bool> = Vec::new();
    let last = q.words.len().saturating_sub(1);
    for (i, word) in q.words.iter().enumerate() {
        let Some(unit) = unit_of(word) else { continue };
        stop_units.push(STOPWORDS.contains(&fold(word).as_str()));
        let unit = match unit {
            Unit::Term(t) if request.last_word_prefix && i == last && !t.chars().any(crate::text::is_cjk) => {
                // Typed so far: the stemmed word itself, or any indexed term it starts.
                let mut unstemmed = Vec::new();
                analyze(&fold(word), false, &mut unstemmed);
                let prefix = unstemmed.first().map(|a| a.text.clone()).unwrap_or_else(|| t.clone());
                let mut terms = expand_prefix(&snap.searcher, f, &prefix);
                if !terms.contains(&t) {
                    terms.push(t);
                }
                Unit::AnyOf(terms)
            }
            other => other,
        };
        word_units.push(unit);
    }
    let phrase_units: Vec<Unit> = q.phrases.iter().filter_map(|p| unit_of(p)).collect();
    let excluded: Vec<Box<dyn Query>> =
        q.excluded.iter().filter_map(|e| unit_of(e)).filter_map(|u| u.query(f)).collect();
    if word_units.is_empty() && phrase_units.is_empty() {
        return None;
    }

    // Highlight groups: one per word or phrase (a prefix's expansions and a
    // CJK run's bigrams share their word's group). Stopwords are not lit
    // beside other words: a window is chosen for the words that matter.
    let mut highlight: Vec<(String, u32)> = Vec::new();
    let mut groups = 0u32;
    let only_stopwords = phrase_units.is_empty() && stop_units.iter().all(|&s| s);
    let lit =
        word_units.iter().zip(&stop_units).filter(|(_, stop)| only_stopwords || !**stop).map(|(u, _)| u);
    for unit in lit.chain(&phrase_units) {
        for t in unit.terms() {
            if !highlight.iter().any(|(h, _)| h == t) {
                highlight.push((t.to_string(), groups));
            }
        }
        groups += 1;
    }

    // Exact symbol: the query words, folded and joined by single spaces.
    let symbol_text = if !q.words.is_empty() {
        symbol_key(&q.words.join(" "))
    } else if q.phrases.len() == 1 {
        symbol_key(&q.phrases[0])
    } else {
        String::new()
    };
    let symbol: Option<Box<dyn Query>> = (!symbol_text.is_empty()).then(|| {
        Box::new(ConstScoreQuery::new(
            Box::new(TermQuery::new(Term::from_field_text(f.symbol, &symbol_text), IndexRecordOption::Basic)),
            SYMBOL_SCORE,
        )) as Box<dyn Query>
    });

    let common = |with_phrases: bool| {
        // The edition filter is applied while collecting (a fast-field
        // lookup), cheaper than intersecting with every edition's postings.
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        if with_phrases {
            clauses.extend(phrase_units.iter().filter_map(|u| u.query(f)).map(|q| (Occur::Must, q)));
        }
        clauses.extend(excluded.iter().map(|q| (Occur::MustNot, q.box_clone())));
        clauses
    };

    // Tier 1.
    let mut tier1 = common(true);
    let all_words: Vec<(Occur, Box<dyn Query>)> =
        word_units.iter().filter_map(|u| u.query(f)).map(|q| (Occur::Must, q)).collect();
    match (all_words.is_empty(), &symbol) {
        (false, Some(symbol)) => tier1.push((
            Occur::Must,
            Box::new(BooleanQuery::new(vec![
                (Occur::Should, Box::new(BooleanQuery::new(all_words)) as Box<dyn Query>),
                (Occur::Should, symbol.box_clone()),
            ])),
        )),
        (false, None) => tier1.extend(all_words),
        (true, Some(symbol)) => tier1.push((Occur::Should, symbol.box_clone())),
        (true, None) => {}
    }

    // A query that starts with a symbol (`create index concurrently`) favours
    // the sections of the page defining it; BM25 picks among them.
    for k in (1..q.words.len()).rev() {
        let leading = symbol_key(&q.words[..k].join(" "));
        if !leading.is_empty() {
            tier1.push((
                Occur::Should,
                Box::new(ConstScoreQuery::new(
                    Box::new(TermQuery::new(
                        Term::from_field_text(f.page_symbol, &leading),
                        IndexRecordOption::Basic,
                    )),
                    PAGE_SYMBOL_SCORE,
                )),
            ));
        }
    }

    // Tier 2: Latin words (not stopwords) and short CJK runs (a term like
    // 配置参数) as the words; the bigrams of longer CJK runs (a sentence)
    // as words of their own.
    let mut latin: Vec<Unit> = Vec::new();
    let mut grams: Vec<Unit> = Vec::new();
    let runs: Vec<Vec<Run>> = q.words.iter().map(|w| cjk_runs(phrase_terms(&analyzed(w)))).collect();
    // A query that is one CJK run alone (a term, a question) is matched by
    // its bigrams: as one word it could only repeat tier 1.
    let alone = runs.iter().map(Vec::len).sum::<usize>() == 1;
    for (word, runs) in q.words.iter().zip(runs) {
        if runs.iter().any(|r| matches!(r, Run::Cjk(_))) {
            for run in runs {
                let (unit, list) = match run {
                    Run::Other(t) => (Unit::Term(t), &mut latin),
                    Run::Cjk(mut bigrams) if !alone && bigrams.len() < MAX_CJK_WORD_CHARS => {
                        let first = bigrams.first().map_or(0, |b| b.0);
                        bigrams.iter_mut().for_each(|b| b.0 -= first);
                        let unit = match bigrams.len() {
                            1 => Unit::Term(bigrams.remove(0).1),
                            _ => Unit::Phrase(bigrams),
                        };
                        (unit, &mut latin)
                    }
                    Run::Cjk(bigrams) => {
                        for (_, t) in bigrams {
                            let unit = Unit::Term(t);
                            if !grams.contains(&unit) {
                                grams.push(unit);
                            }
                        }
                        continue;
                    }
                };
                if !list.contains(&unit) {
                    list.push(unit);
                }
            }
        } else if !STOPWORDS.contains(&fold(word).as_str())
            && let Some(unit) = unit_of(word)
            && !latin.contains(&unit)
        {
            latin.push(unit);
        }
    }
    if let Some(Unit::AnyOf(terms)) = word_units.last()
        && let Some(Unit::Term(stemmed)) = latin.last()
        && terms.contains(stemmed)
    {
        // Keep the prefix expansion of the last word in tier 2 as well.
        let n = latin.len();
        latin[n - 1] = Unit::AnyOf(terms.clone());
    }
    if latin.is_empty() && grams.is_empty() {
        // Only stopwords: then they are the words.
        latin = word_units.clone();
    }
    // Each word of tier 2 weighs by its rarity: a section with only the rare
    // word (`log_min_duration_sample`) outranks one titled with the two
    // common ones (`configuration parameters`).
    let idfs: Vec<Option<Score>> = latin.iter().chain(&grams).map(|u| idf(&snap.searcher, f, u)).collect();
    let known: Vec<Score> = idfs.iter().flatten().copied().collect();
    let mean_idf = if known.is_empty() { 1.0 } else { known.iter().sum::<Score>() / known.len() as Score };
    let shoulds: Vec<Box<dyn Query>> = latin
        .iter()
        .chain(&grams)
        .zip(&idfs)
        .filter_map(|(u, idf)| {
            let q = u.query(f)?;
            Some(match idf {
                Some(idf) => Box::new(BoostQuery::new(q, idf / mean_idf)) as Box<dyn Query>,
                None => q,
            })
        })
        .collect();
    let tier2 = if shoulds.len() >= 2 || (shoulds.len() == 1 && word_units.len() + phrase_units.len() > 1) {
        let minimum = (latin.len().div_ceil(2) + grams.len().div_ceil(2)).clamp(1, shoulds.len());
        let mut clauses = common(true);
        let most: Box<dyn Query> = Box::new(BooleanQuery::with_minimum_required_clauses(
            shoulds.into_iter().map(|q| (Occur::Should, q)).collect(),
            minimum,
        ));
        // The rarest word alone also qualifies: `log_min_duration_sample
        // configuration parameter` must find the one section naming the
        // setting even when it lacks the two common words.
        let rarest = latin
            .iter()
            .chain(&grams)
            .zip(&idfs)
            .filter_map(|(u, idf)| match (u, idf) {
                (_, Some(idf)) => Some((*idf, u)),
                _ => None,
            })
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .and_then(|(idf, u)| {
                Some(Box::new(BoostQuery::new(u.query(f)?, idf / mean_idf)) as Box<dyn Query>)
            });
        match rarest {
            Some(rare) if minimum > 1 => clauses.push((
                Occur::Must,
                Box::new(BooleanQuery::new(vec![(Occur::Should, most), (Occur::Should, rare)])),
            )),
            _ => clauses.push((Occur::Must, most)),
        }
        for unit in &grams {
            for t in unit.terms() {
                if !highlight.iter().any(|(h, _)| h == t) {
                    highlight.push((t.to_string(), groups));
                    groups += 1;
                }
            }
        }
        // The bigrams of a CJK sentence count alike: those spanning two
        // words (制每 in 限制每个) are rare but say nothing.
        let units: Vec<(Box<dyn Query>, Score)> = latin
            .iter()
            .map(|u| (u, false))
            .chain(grams.iter().map(|u| (u, true)))
            .zip(&idfs)
            .filter_map(|((u, gram), idf)| {
                Some((u.query(f)?, if gram { mean_idf } else { idf.unwrap_or(mean_idf) }))
            })
            .collect();
        let total = units.iter().map(|u| u.1).sum::<Score>().max(Score::MIN_POSITIVE);
        Some((Box::new(BooleanQuery::new(clauses)) as Box<dyn Query>, Coverage { units, total }))
    } else {
        None
    };

    Some(Compiled {
        tier1: Box::new(BooleanQuery::new(tier1)),
        tier2,
        highlight: Highlight::new(highlight, groups),
    })
}

/// A CJK run of at most this many chars is one word in tier 2.
const MAX_CJK_WORD_CHARS: usize = 4;

/// Phrase terms split into CJK runs (consecutive bigrams) and the rest.
enum Run {
    Other(String),
    Cjk(Vec<(usize, String)>),
}

fn cjk_runs(terms: Vec<(usize, String)>) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (position, t) in terms {
        let cjk = t.chars().any(crate::text::is_cjk);
        match runs.last_mut() {
            Some(Run::Cjk(run)) if cjk && run.last().is_some_and(|l| l.0 + 1 == position) => {
                run.push((position, t))
            }
            _ if cjk => runs.push(Run::Cjk(vec![(position, t)])),
            _ => runs.push(Run::Other(t)),
        }
    }
    runs
}

/// BM25's inverse document frequency of a unit in the body field: a term's,
/// or a phrase's rarest term's (a phrase is at least as rare); None for a
/// prefix expansion or a term no section holds.
fn idf(searcher: &Searcher, f: &Fields, unit: &Unit) -> Option<Score> {
    let n = searcher.num_docs() as Score;
    let of = |t: &str| -> Option<Score> {
        let df = searcher.doc_freq(&Term::from_field_text(f.body, t)).ok()?;
        (df > 0).then(|| (1.0 + (n - df as Score + 0.5) / (df as Score + 0.5)).ln())
    };
    match unit {
        Unit::Term(t) => of(t),
        Unit::Phrase(ts) => {
            ts.iter().map(|(_, t)| of(t)).collect::<Option<Vec<Score>>>()?.into_iter().reduce(Score::max)
        }
        Unit::AnyOf(_) => None,
    }
}

/// How much of the query a tier-2 section covers: the sum of the rarity
/// (idf) of the words it holds over that of all words, so that the sections
/// with most of the (telling) words come first, as SPEC §3 says, and BM25
/// orders those that cover the same.
struct Coverage {
    units: Vec<(Box<dyn Query>, Score)>,
    total: Score,
}

/// Coverage counts this much more than any BM25 sum of a section.
const COVERAGE_SCORE: Score = 200.0;

/// One candidate: score, numeric section key (tie break), address.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    score: Score,
    key: u64,
    address: DocAddress,
    /// From a generated listing (a manual's index): ranked after both tiers.
    listing: bool,
}

fn rank(a: &Candidate, b: &Candidate) -> std::cmp::Ordering {
    b.score.total_cmp(&a.score).then(a.key.cmp(&b.key)).then(a.address.cmp(&b.address))
}

#[derive(Default)]
struct Flags {
    timed_out: bool,
    cancelled: bool,
    truncated: bool,
}

impl Flags {
    fn stop(&self) -> bool {
        self.timed_out || self.cancelled
    }

    fn check(&mut self, request: &SearchRequest<'_>) -> bool {
        if Instant::now() >= request.deadline {
            self.timed_out = true;
        }
        if request.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.cancelled = true;
        }
        self.stop()
    }
}

/// Runs one tier: every live matching doc not in `skip`, checking the
/// deadline and the cancel flag between segments and every 256 docs.
fn collect(
    searcher: &Searcher,
    query: &dyn Query,
    coverage: Option<&Coverage>,
    skip: &HashSet<DocAddress>,
    request: &SearchRequest<'_>,
    flags: &mut Flags,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    let Ok(weight) = query.weight(EnableScoring::enabled_from_searcher(searcher)) else { return out };
    // Each word's matches, unscored, walked in step with the candidates.
    let unit_weights: Vec<(Box<dyn tantivy::query::Weight>, Score)> = coverage
        .map(|c| {
            c.units
                .iter()
                .filter_map(|(q, idf)| {
                    Some((q.weight(EnableScoring::disabled_from_searcher(searcher)).ok()?, *idf))
                })
                .collect()
        })
        .unwrap_or_default();
    let total = coverage.map_or(1.0, |c| c.total);
    for (ord, reader) in searcher.segment_readers().iter().enumerate() {
        if flags.check(request) {
            break;
        }
        // Edition filter: the allowed ords of this segment's edition column
        // (None = every edition here is allowed).
        let Ok(Some(editions)) = reader.fast_fields().str("edition") else { continue };
        let allowed: Vec<u64> = request
            .editions
            .iter()
            .filter_map(|e| editions.dictionary().term_ord(e.as_bytes()).ok().flatten())
            .collect();
        if allowed.is_empty() {
            continue;
        }
        let check_edition = allowed.len() < editions.num_terms();
        let edition_ords = editions.ords();
        let Ok(mut scorer) = weight.scorer(reader, 1.0) else { continue };
        let keys = reader.fast_fields().u64("key_num").ok();
        let weights = reader.fast_fields().u64("weight").ok();
        let alive = reader.alive_bitset();
        let mut units: Vec<(Box<dyn tantivy::query::Scorer>, Score)> =
            unit_weights.iter().filter_map(|(w, idf)| Some((w.scorer(reader, 1.0).ok()?, *idf))).collect();
        let mut doc: DocId = scorer.doc();
        let mut seen: u32 = 0;
        while doc != TERMINATED {
            seen += 1;
            if seen.is_multiple_of(CHECK_EVERY) && flags.check(request) {
                return out;
            }
            let address = DocAddress::new(ord as u32, doc);
            if alive.is_none_or(|a| a.is_alive(doc))
                && (!check_edition || edition_ords.first(doc).is_some_and(|o| allowed.contains(&o)))
                && !skip.contains(&address)
            {
                if out.len() >= MAX_CANDIDATES {
                    flags.truncated = true;
                    return out;
                }
                let key = keys.as_ref().and_then(|k| k.first(doc)).unwrap_or(u64::MAX);
                let weight = weights.as_ref().and_then(|w| w.first(doc)).unwrap_or(100);
                let mut score = scorer.score();
                if !units.is_empty() {
                    let mut covered = 0.0;
                    for (unit, idf) in &mut units {
                        if unit.doc() < doc {
                            unit.seek(doc);
                        }
                        if unit.doc() == doc {
                            covered += *idf;
                        }
                    }
                    score += COVERAGE_SCORE * covered / total;
                }
                let score = score * weight as Score / 100.0;
                out.push(Candidate { score, key, address, listing: weight < 100 });
            }
            doc = scorer.advance();
        }
    }
    out
}

/// Sorts so that the first `k` candidates are the best, in order.
fn top(candidates: &mut [Candidate], k: usize) {
    if k == 0 {
        return;
    }
    if k < candidates.len() {
        candidates.select_nth_unstable_by(k - 1, rank);
        candidates[..k].sort_unstable_by(rank);
    } else {
        candidates.sort_unstable_by(rank);
    }
}

/// Ranked search (SPEC §3). Never panics; flags instead of failing.
pub(crate) fn search(snap: &SnapshotInner, request: &SearchRequest<'_>) -> SearchOutcome {
    let mut outcome = SearchOutcome::default();
    let mut flags = Flags::default();
    if request.editions.is_empty() || flags.check(request) {
        outcome.timed_out = flags.timed_out;
        outcome.cancelled = flags.cancelled;
        return outcome;
    }
    let Some(compiled) = compile(snap, request) else { return outcome };
    let searcher = &snap.searcher;
    let wanted = request.offset.saturating_add(request.limit);

    let mut tier1 = collect(searcher, &*compiled.tier1, None, &HashSet::new(), request, &mut flags);
    // A manual's generated index holds every term verbatim, so it would win
    // tier 1 for terms its real sections word differently: it goes last.
    let mut listings: Vec<Candidate> = Vec::new();
    tier1.retain(|c| {
        if c.listing {
            listings.push(*c);
        }
        !c.listing
    });
    let mut tier2 = Vec::new();
    if tier1.len() < request.limit
        && !flags.stop()
        && let Some((query, coverage)) = &compiled.tier2
    {
        let skip: HashSet<DocAddress> = tier1.iter().chain(&listings).map(|c| c.address).collect();
        tier2 = collect(searcher, &**query, Some(coverage), &skip, request, &mut flags);
        tier2.retain(|c| {
            if c.listing {
                listings.push(*c);
            }
            !c.listing
        });
    }
    outcome.total = tier1.len() + tier2.len() + listings.len();
    top(&mut tier1, wanted);
    top(&mut tier2, wanted.saturating_sub(tier1.len()));
    top(&mut listings, wanted.saturating_sub(tier1.len() + tier2.len()));
    let page =
        tier1.iter().chain(tier2.iter()).chain(listings.iter()).skip(request.offset).take(request.limit);
    for candidate in page {
        // Snippets cost too: a page cut short by the deadline says so.
        if flags.check(request) {
            break;
        }
        if let Some(hit) = hit(snap, candidate, &compiled) {
            outcome.hits.push(hit);
        }
    }
    outcome.timed_out = flags.timed_out;
    outcome.cancelled = flags.cancelled;
    outcome.candidate_truncated = flags.truncated;
    outcome
}

fn hit(snap: &SnapshotInner, candidate: &Candidate, compiled: &Compiled) -> Option<Hit> {
    let address = candidate.address;
    let bytes = snap.stores.get(address.segment_ord as usize)?.get_document_bytes(address.doc_id).ok()?;
    if let Some(fields) = hitdoc::read(&bytes, &snap.fields, SNIPPET_SOURCE_BYTES) {
        return Some(to_hit(fields, compiled, candidate.score));
    }
    // Not laid out as expected: tantivy's own deserializer decides.
    let doc: HitDoc = snap.searcher.doc(address).ok()?;
    Some(to_hit(doc.0.borrowed(), compiled, candidate.score))
}

fn to_hit(fields: HitFields<&str>, compiled: &Compiled, score: Score) -> Hit {
    let (snippet, highlights) = compiled.highlight.snippet(fields.body);
    Hit {
        section_key: fields.section_key.to_owned(),
        edition: fields.edition.to_owned(),
        path: fields.path.to_owned(),
        anchor: fields.anchor.map(str::to_owned),
        title: fields.title.to_owned(),
        breadcrumb: fields.breadcrumb.into_iter().map(str::to_owned).collect(),
        snippet,
        highlights,
        score,
    }
}

/// The stored fields of a section that a hit shows, as tantivy's
/// deserializer reads them (`hitdoc` reads them faster; this is its fallback
/// and, in tests, its reference). Reading stops at the body.
#[derive(Default)]
struct HitDoc(HitFields<String>);

/// Field ids of the one schema (a deserializer has no other way to them).
static FIELDS: std::sync::LazyLock<Fields> = std::sync::LazyLock::new(Fields::build);

impl DocumentDeserialize for HitDoc {
    fn deserialize<'de, D: DocumentDeserializer<'de>>(mut doc: D) -> Result<Self, DeserializeError> {
        let mut out = HitDoc::default();
        while let Some((field, value)) = doc.next_field::<OwnedValue>()? {
            if let OwnedValue::Str(text) = value
                && out.0.set(&FIELDS, field, text)
            {
                break;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lectern_corpus::{Page, Section};

    fn section(anchor: Option<&str>, title: &str, breadcrumb: &[&str], text: &str) -> Section {
        Section {
            anchor: anchor.map(str::to_owned),
            title: title.to_owned(),
            level: 2,
            breadcrumb: breadcrumb.iter().map(|b| b.to_string()).collect(),
            markdown: format!("## {title}\n\n{text}\n"),
            text: text.to_owned(),
        }
    }

    #[test]
    fn hit_fields_read_from_bytes_equal_tantivys_reading() {
        // A body longer than a snippet reads, with a 3-byte char across the
        // cut: the head stops before it, one byte short.
        let mut long = "x".repeat(SNIPPET_SOURCE_BYTES - 1);
        long.push_str("创建索引 and more");
        let sections = vec![
            section(None, "Lead", &[], "lead text"),
            section(Some("a-1"), "创建索引", &["Page", "Chapter 创"], &long),
            section(Some(""), "", &[], ""),
        ];
        let page = Page {
            path: "/p/one".into(),
            source_file: "one.html".into(),
            title: "Page".into(),
            description: Some("d".into()),
            order: Some(3),
            draft: false,
            frontmatter: None,
            markdown: sections.iter().map(|s| s.markdown.as_str()).collect(),
            text: sections.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join("\n"),
            sections,
            symbols: Vec::new(),
            listing: false,
        };
        let dir = tempfile::tempdir().unwrap();
        let index = crate::Index::open(dir.path()).unwrap();
        let mut writer = index.writer().unwrap();
        writer.add_page("p@1/en", &page).unwrap();
        writer.commit("").unwrap();
        let snap = index.snapshot().inner;
        let mut sections_read = 0;
        for (ord, segment) in snap.searcher.segment_readers().iter().enumerate() {
            for doc_id in 0..segment.max_doc() {
                let bytes = snap.stores[ord].get_document_bytes(doc_id).unwrap();
                let HitDoc(doc) = snap.searcher.doc(DocAddress::new(ord as u32, doc_id)).unwrap();
                let Some(fast) = hitdoc::read(&bytes, &snap.fields, SNIPPET_SOURCE_BYTES) else {
                    assert!(doc.section_key.is_empty(), "a section document was not read: {}", doc.title);
                    continue;
                };
                sections_read += 1;
                assert_eq!(fast.edition, doc.edition);
                assert_eq!(fast.section_key, doc.section_key);
                assert_eq!(fast.path, doc.path);
                assert_eq!(fast.anchor, doc.anchor.as_deref());
                assert_eq!(fast.title, doc.title);
                assert_eq!(fast.breadcrumb, doc.breadcrumb.iter().map(String::as_str).collect::<Vec<_>>());
                assert!(doc.body.starts_with(fast.body));
                let expected = if doc.body.len() <= SNIPPET_SOURCE_BYTES {
                    doc.body.len()
                } else {
                    SNIPPET_SOURCE_BYTES - 1
                };
                assert_eq!(fast.body.len(), expected, "{}", doc.title);
            }
        }
        assert_eq!(sections_read, 3);
    }

    #[test]
    fn phrase_terms_of_cjk_runs() {
        let terms = phrase_terms(&analyzed("创建索引"));
        assert_eq!(terms, vec![(0, "创建".into()), (1, "建索".into()), (2, "索引".into())]);
        assert_eq!(phrase_terms(&analyzed("索")), vec![(0, "索".into())]);
        assert_eq!(
            phrase_terms(&analyzed("在PostgreSQL中")),
            vec![(0, "在".into()), (1, "postgresql".into()), (2, "中".into())]
        );
    }

    #[test]
    fn identifiers_are_one_term() {
        assert_eq!(unit_of("work_mem"), Some(Unit::Term("work_mem".into())));
        assert_eq!(unit_of("Indexes"), Some(Unit::Term("index".into())));
        assert_eq!(unit_of("9.6"), Some(Unit::Phrase(vec![(0, "9".into()), (1, "6".into())])));
        assert_eq!(unit_of("!!"), None);
    }
}
