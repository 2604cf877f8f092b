//! Ranked search over a set of editions: one ranked list (every word first,
//! then most words), exact symbols first, deadline and cancellation checked
//! while collecting, exact paging, snippets, and the snapshot's result cache
//! in front of it all.
//!
//! Order: (tier, score desc, section key asc). Tier 1 holds the sections with
//! every word and phrase (and those whose symbol is exactly the query words,
//! scored above everything); tier 2 holds the sections with most of the
//! words (or the rarest one), scored by coverage first: the idf of the words
//! a section holds over the idf of all of them (see [`Coverage`]), then BM25.
//! A question (three words or more; see `compile::question`) ranks both
//! tiers as one list instead: coverage then counts about as much as a
//! strong BM25 match, so a section titled with the rare words may pass one
//! holding every common word.
//! Sections of generated listings (a manual's index) come after both tiers.
//! English words that a translated edition renders in its own words are
//! first searched in the edition it was translated from (see `twin`): the
//! searched edition's copies of the pages found there count as matching.
//! Scores are multiplied by the section's rank weight (release notes, license texts,
//! appendices and "See Also" parts weigh less; see `weight`). The best
//! forty of the first list are then rescored: a proximity score (the
//! query's neighbouring words found within a few words of each other) is
//! added, and for a question a passage score (the share of its words one
//! short passage of the section holds); each further section of a page
//! already ranked above weighs less, so that the top shows several pages.
//! The candidates and their order depend on the query and the editions
//! only, never on `limit` or `offset`: `total` is the same for every page
//! size and any page is a slice of the one list. When tier 1 alone fills
//! the page of a keyword query, tier 2 is only counted (unscored), which is
//! what keeps keyword queries fast.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use tantivy::query::{EnableScoring, Query};
use tantivy::schema::OwnedValue;
use tantivy::schema::document::{DeserializeError, DocumentDeserialize, DocumentDeserializer};
use tantivy::{DocAddress, DocId, DocSet, Score, TERMINATED, Term};

use crate::cache::Key;
use crate::compile::{Compiled, Coverage, FEW_ANSWERS, PROXIMITY_TITLE_BOOST, TwinPage, compile};
use crate::heading::{HEADING_SCORE, HeadingCover};
use crate::highlight::SNIPPET_SOURCE_BYTES;
use crate::hitdoc::{self, HitFields};
use crate::index::{SegmentColumns, Snapshot, SnapshotInner};
use crate::keys::{cased_name, is_cased_key};
use crate::passage::Passage;
use crate::proximity::Proximity;
use crate::request::{Hit, SearchOutcome, SearchRequest};
use crate::schema::Fields;
use crate::stats::Stats;
use crate::weight::{FULL_WEIGHT, is_listing};
use crate::{scope, twin};

/// Candidates kept per tier; past it the result says `candidate_truncated`.
const MAX_CANDIDATES: usize = 200_000;
/// Deadline and cancellation are checked every this many documents.
const CHECK_EVERY: u32 = 256;
/// The best candidates of the first list that are rescored (proximity,
/// sections of one page).
const RERANK_DEPTH: usize = 40;
/// Among those, each further section of a page already ranked above has its
/// score multiplied by this once more: one page's sections do not fill the
/// top of the list while other pages match almost as well.
const PAGE_REPEAT_DECAY: Score = 0.6;
/// What a passage holding all of a question's words adds (see `passage`).
const PASSAGE_SCORE: Score = 20.0;

/// One candidate: score, numeric section key (tie break), address.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    score: Score,
    key: u64,
    address: DocAddress,
    /// From a generated listing (a manual's index): ranked after both tiers.
    listing: bool,
    /// The section's rank weight (see `weight`), as a factor.
    weight: Score,
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

/// What [`collect`] keeps of a tier.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// Every candidate, scored.
    Scored,
    /// Only how many there are (the page is filled before this tier).
    Count,
}

/// A tier as collected: its candidates (none when only counted) and how
/// many there are.
#[derive(Default)]
struct Tier {
    candidates: Vec<Candidate>,
    count: usize,
}

/// What one tier matches, and what its candidates score beyond BM25.
struct Matching<'a> {
    query: &'a dyn Query,
    /// Tier 2: how much of the query each candidate covers.
    coverage: Option<&'a Coverage>,
    /// Added to every candidate (tier 1 of a question: full coverage).
    bonus: Score,
}

/// Runs one tier: every live matching doc not in `skip` (sorted), checking
/// the deadline and the cancel flag between segments and every 256 docs.
fn collect(
    snap: &SnapshotInner,
    stats: &Stats<'_>,
    matching: Matching<'_>,
    skip: &[DocAddress],
    keep: Keep,
    request: &SearchRequest<'_>,
    flags: &mut Flags,
) -> Tier {
    let mut out = Tier::default();
    let searcher = &snap.searcher;
    let scoring = match keep {
        Keep::Scored => EnableScoring::enabled_from_statistics_provider(stats, searcher),
        Keep::Count => EnableScoring::disabled_from_searcher(searcher),
    };
    let Matching { query, coverage, bonus } = matching;
    let Ok(weight) = query.weight(scoring) else { return out };
    let coverage = coverage.filter(|_| keep == Keep::Scored);
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
    let scale = coverage.map_or(0.0, |c| c.scale);
    for ((ord, reader), columns) in searcher.segment_readers().iter().enumerate().zip(&snap.columns) {
        if flags.check(request) {
            break;
        }
        // Edition filter: the allowed ords of this segment's edition column
        // (None = every edition here is allowed).
        let Some(editions) = &columns.edition else { continue };
        let allowed = scope::edition_ords(editions, request.editions);
        if allowed.is_empty() {
            continue;
        }
        let check_edition = allowed.len() < editions.num_terms();
        let edition_ords = editions.ords();
        let Ok(mut scorer) = weight.scorer(reader, 1.0) else { continue };
        let (keys, weights) = (&columns.key, &columns.weight);
        let alive = reader.alive_bitset();
        let mut units: Vec<(Box<dyn tantivy::query::Scorer>, Score)> =
            unit_weights.iter().filter_map(|(w, idf)| Some((w.scorer(reader, 1.0).ok()?, *idf))).collect();
        // Docs come in address order: a cursor walks `skip` alongside.
        let mut skip_at = skip.partition_point(|a| a.segment_ord < ord as u32);
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
                && !skipped(skip, &mut skip_at, address)
            {
                if out.count >= MAX_CANDIDATES {
                    flags.truncated = true;
                    return out;
                }
                out.count += 1;
                if keep == Keep::Count {
                    doc = scorer.advance();
                    continue;
                }
                let key = keys.as_ref().and_then(|k| k.first(doc)).unwrap_or(u64::MAX);
                let weight = weights.as_ref().and_then(|w| w.first(doc)).unwrap_or(FULL_WEIGHT);
                let mut score = scorer.score() + bonus;
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
                    score += scale * covered / total;
                }
                let factor = weight as Score / 100.0;
                out.candidates.push(Candidate {
                    score: score * factor,
                    key,
                    address,
                    listing: is_listing(weight),
                    weight: factor,
                });
            }
            doc = scorer.advance();
        }
    }
    out
}

/// True when `address` is in `skip`, moving `at` past the smaller ones.
fn skipped(skip: &[DocAddress], at: &mut usize, address: DocAddress) -> bool {
    while skip.get(*at).is_some_and(|&a| a < address) {
        *at += 1;
    }
    skip.get(*at) == Some(&address)
}

/// Rescores the best [`RERANK_DEPTH`] candidates: adds the proximity score
/// (see `compile::proximity`) and, for a question, the passage score (see
/// `passage`) and the heading cover (see `heading`), then lowers each
/// further section of a page ([`PAGE_REPEAT_DECAY`]). Only they are
/// rescored, so proximity costs a few dozen seeks rather than every
/// candidate's positions; which candidates they are depends on the query
/// alone, so the order is the same for every page size.
fn rerank(
    snap: &SnapshotInner,
    stats: &Stats<'_>,
    proximity: Option<&Proximity>,
    (passage, heading): (Option<&Passage>, Option<&HeadingCover>),
    candidates: &mut [Candidate],
) {
    let searcher = &snap.searcher;
    let depth = RERANK_DEPTH.min(candidates.len());
    top(candidates, depth);
    let best = &mut candidates[..depth];
    best.sort_unstable_by_key(|c| c.address);
    let mut pages: Vec<Option<u64>> = vec![None; best.len()];
    let prepared = proximity.map(|p| (p, p.prepare(stats, &snap.fields, PROXIMITY_TITLE_BOOST)));
    let mut at = 0;
    while at < best.len() {
        let ord = best[at].address.segment_ord;
        let end = at + best[at..].partition_point(|c| c.address.segment_ord == ord);
        if let Some(reader) = searcher.segment_readers().get(ord as usize) {
            let docs: Vec<DocId> = best[at..end].iter().map(|c| c.address.doc_id).collect();
            if let Some((proximity, prepared)) = &prepared {
                let scores = proximity.scores(reader, prepared, &docs);
                for (c, score) in best[at..end].iter_mut().zip(scores) {
                    c.score += score * c.weight;
                }
            }
            if let Some(passage) = passage {
                let shares = passage.scores(reader, &snap.fields, &docs);
                for (c, share) in best[at..end].iter_mut().zip(shares) {
                    c.score += PASSAGE_SCORE * share * c.weight;
                }
            }
            if let Some(heading) = heading {
                let shapes = snap.columns.get(ord as usize).and_then(|c| c.title_shape.as_ref());
                let shares = heading.scores(reader, snap.fields.title, shapes, &docs);
                for (c, share) in best[at..end].iter_mut().zip(shares) {
                    c.score += HEADING_SCORE * share * c.weight;
                }
            }
            // One segment holds them all (one edition, most often): its
            // path ordinals tell its pages apart without reading a path.
            let alone = at == 0 && end == best.len();
            if let Some(columns) = snap.columns.get(ord as usize) {
                page_ids(columns, ord, &best[at..end], alone, &mut pages[at..end]);
            }
        }
        at = end;
    }
    // In rank order, each further section of a page already listed.
    let mut order: Vec<usize> = (0..best.len()).collect();
    order.sort_unstable_by(|&a, &b| rank(&best[a], &best[b]));
    let mut seen: Vec<u64> = Vec::with_capacity(best.len());
    for i in order {
        let Some(page) = pages[i] else { continue };
        let before = seen.iter().filter(|&&p| p == page).count();
        best[i].score *= PAGE_REPEAT_DECAY.powi(before as i32);
        seen.push(page);
    }
}

/// Marks a page id made of a segment and a path ordinal; a hash of a path
/// has this bit clear.
const ORDINAL_PAGE: u64 = 1 << 63;

/// Each candidate's page (one segment's, `segment`): by its path ordinal in
/// the segment when its pages lie whole there (its edition is in no other
/// segment, or this segment holds every candidate: `alone`), else by its
/// path, since a page's sections may lie in several segments.
fn page_ids(
    columns: &SegmentColumns,
    segment: u32,
    candidates: &[Candidate],
    alone: bool,
    pages: &mut [Option<u64>],
) {
    let Some(paths) = &columns.path else { return };
    let whole = |doc: DocId| {
        alone
            || columns.edition.as_ref().is_some_and(|e| {
                e.ords().first(doc).is_some_and(|o| columns.whole.get(o as usize) == Some(&true))
            })
    };
    let mut ords: Vec<(u64, usize)> = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        let Some(ord) = paths.ords().first(c.address.doc_id) else { continue };
        if whole(c.address.doc_id) {
            pages[i] = Some(ORDINAL_PAGE | u64::from(segment) << 32 | ord);
        } else {
            ords.push((ord, i));
        }
    }
    if ords.is_empty() {
        return;
    }
    ords.sort_unstable();
    let sorted: Vec<u64> = ords.iter().map(|o| o.0).collect();
    let mut next = ords.iter().map(|o| o.1);
    let _ = paths.dictionary().sorted_ords_to_term_cb(&sorted, |path| {
        if let Some(i) = next.next() {
            let mut h = DefaultHasher::new();
            path.hash(&mut h);
            pages[i] = Some(h.finish() & !ORDINAL_PAGE);
        }
    });
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

/// The parts of the list in order (each best first), with the scores they
/// show. A later part (most of the words, any word, listings) is scored on
/// a scale of its own and may score more than the end of an earlier one:
/// its scores are scaled so that its best shows at most the score above
/// it. Scores then never rise down the list, and the hits of one part keep
/// their differences (a long run of equal scores would say their order
/// means nothing). Each part is whole up to the last hit wanted, so a hit
/// shows the same score whatever the page size.
fn shown_scores(parts: [&[Candidate]; 4]) -> Vec<Candidate> {
    let mut shown = Vec::with_capacity(parts.iter().map(|p| p.len()).sum());
    let mut above = Score::INFINITY;
    for part in parts {
        let best = part.first().map_or(0.0, |c| c.score);
        let scale = if best > above { above / best } else { 1.0 };
        for c in part {
            // (`min`: rounding never lifts a score over the one above.)
            above = (c.score * scale).min(above);
            shown.push(Candidate { score: above, ..*c });
        }
    }
    shown
}

/// Ranked search, uncached. Never panics; flags instead of failing.
fn search(snap: &SnapshotInner, request: &SearchRequest<'_>) -> SearchOutcome {
    let mut outcome = SearchOutcome::default();
    let mut flags = Flags::default();
    if request.editions.is_empty() || flags.check(request) {
        outcome.timed_out = flags.timed_out;
        outcome.cancelled = flags.cancelled;
        return outcome;
    }
    let stats = Stats::new(&snap.searcher);
    let twin_pages = twin_pages(snap, request);
    // Whether the editions searched hold a body term (each segment's
    // edition ords read once, at the first term asked).
    let scope = std::cell::OnceCell::new();
    let held_here = |t: &str| {
        let ords = scope.get_or_init(|| scope::scope_ords(snap, request.editions));
        scope::held_in(snap, ords, &Term::from_field_text(snap.fields.body, t))
    };
    let Some(compiled) = compile(&stats, &snap.fields, request, &twin_pages, &held_here) else {
        return outcome;
    };
    let wanted = request.offset.saturating_add(request.limit);

    // Coverage outweighs BM25 for keywords (tier 1 ahead of tier 2, which
    // then need not be scored once tier 1 fills the page); for a question
    // the two tiers are one list, tier 1 holding full coverage.
    let merged = compiled.tier2.as_ref().filter(|(_, c)| c.merged).map(|(_, c)| c.scale);
    let bonus = merged.unwrap_or(0.0);
    let matching = Matching { query: &*compiled.tier1, coverage: None, bonus };
    let tier1 = collect(snap, &stats, matching, &[], Keep::Scored, request, &mut flags);
    let tier1_count = tier1.count;
    // A manual's generated index holds every term verbatim, so it would win
    // tier 1 for terms its real sections word differently: it goes last.
    let (mut listings, mut tier1): (Vec<Candidate>, Vec<Candidate>) =
        tier1.candidates.into_iter().partition(|c| c.listing);
    let mut tier2 = Vec::new();
    let mut loose = Vec::new();
    let mut tier2_count = 0;
    if !flags.stop()
        && let Some((query, coverage)) = &compiled.tier2
    {
        // Collected in address order, so two sorted runs: sorting is a merge.
        let mut skip: Vec<DocAddress> = tier1.iter().chain(&listings).map(|c| c.address).collect();
        skip.sort();
        let keep = if merged.is_none() && tier1.len() >= wanted { Keep::Count } else { Keep::Scored };
        let matching = Matching { query: &**query, coverage: Some(coverage), bonus: 0.0 };
        let found = collect(snap, &stats, matching, &skip, keep, request, &mut flags);
        tier2_count = found.count;
        for c in found.candidates {
            if c.listing { listings.push(c) } else { tier2.push(c) }
        }
        // A question most of whose words few sections hold: those holding
        // any one of them too, after those (only a question has `loose`).
        if let Some(any) = coverage.loose.as_deref()
            && tier1_count + tier2_count < FEW_ANSWERS
            && !flags.stop()
        {
            skip.extend(tier2.iter().chain(&listings).map(|c| c.address));
            skip.sort();
            skip.dedup();
            let matching = Matching { query: any, coverage: Some(coverage), bonus: 0.0 };
            let found = collect(snap, &stats, matching, &skip, Keep::Scored, request, &mut flags);
            tier2_count += found.count;
            for c in found.candidates {
                if c.listing { listings.push(c) } else { loose.push(c) }
            }
        }
    }
    // Candidates only counted are all past the page, but count in `total`.
    outcome.total = tier1_count + tier2_count;
    if merged.is_some() {
        tier1.append(&mut tier2);
    }
    if !flags.stop() {
        let words = compiled.tier2.as_ref().map(|(_, c)| (c.passage.as_ref(), c.heading.as_ref()));
        let words = words.unwrap_or((None, None));
        rerank(snap, &stats, compiled.proximity.as_ref(), words, &mut tier1);
        if !loose.is_empty() {
            rerank(snap, &stats, compiled.proximity.as_ref(), words, &mut loose);
        }
    }
    top(&mut tier1, wanted);
    top(&mut tier2, wanted.saturating_sub(tier1.len()));
    top(&mut loose, wanted.saturating_sub(tier1.len() + tier2.len()));
    top(&mut listings, wanted.saturating_sub(tier1.len() + tier2.len() + loose.len()));
    let ranked = shown_scores([&tier1, &tier2, &loose, &listings]);
    for candidate in ranked.into_iter().skip(request.offset).take(request.limit) {
        // Snippets cost too: a page cut short by the deadline says so.
        if flags.check(request) {
            break;
        }
        if let Some(hit) = hit(snap, &candidate, &compiled) {
            outcome.hits.push(hit);
        }
    }
    outcome.timed_out = flags.timed_out;
    outcome.cancelled = flags.cancelled;
    outcome.candidate_truncated = flags.truncated;
    outcome
}

/// The searched editions' copies of the pages their twins rank best for the
/// query's Latin words when one is translated (see `twin`), each with its
/// score over the best one's; empty when there are none.
fn twin_pages(snap: &SnapshotInner, request: &SearchRequest<'_>) -> Vec<TwinPage> {
    let editions: Vec<String> = request.twins.iter().map(|t| t.edition.clone()).collect();
    let words = twin::twin_words(snap, request, &editions);
    let Some(query) = twin::words_query(&words) else { return Vec::new() };
    let inner = SearchRequest {
        query: &query,
        editions: &editions,
        twins: &[],
        last_word_prefix: false,
        limit: twin::TWIN_PAGES,
        offset: 0,
        deadline: request.deadline,
        cancel: request.cancel.clone(),
    };
    let hits = search(snap, &inner).hits;
    let best = hits.first().map_or(1.0, |h| h.score.max(Score::MIN_POSITIVE));
    let mut pages: Vec<TwinPage> = Vec::new();
    for hit in hits {
        if let Some((path, section)) =
            twin::scope_copy(request.twins, &hit.edition, &hit.path, &hit.section_key)
            && !pages.iter().any(|p| p.path == path)
        {
            pages.push(TwinPage { path, section, share: hit.score / best });
        }
    }
    pages
}

impl Snapshot {
    /// Ranked search. Never panics, never exceeds the deadline by more than
    /// a few ms; sets flags instead of failing. Repeated requests are
    /// answered from this snapshot's result cache.
    pub fn search(&self, request: &SearchRequest<'_>) -> SearchOutcome {
        Arc::unwrap_or_clone(self.search_shared(request))
    }

    /// [`Snapshot::search`], answered with the result the cache shares
    /// (no copy of it is made).
    pub fn search_shared(&self, request: &SearchRequest<'_>) -> Arc<SearchOutcome> {
        let key = Key::of(request);
        if let Some(cached) = self.inner.results.get(&key, true) {
            return cached;
        }
        let outcome = Arc::new(self.search_uncached(request));
        self.inner.results.put(key, &outcome);
        outcome
    }

    /// The result cache's answer to `request`, if it holds one (a miss is
    /// not counted: the search that follows counts it).
    pub fn search_if_cached(&self, request: &SearchRequest<'_>) -> Option<Arc<SearchOutcome>> {
        self.inner.results.get(&Key::of(request), false)
    }

    /// Ranked search without the result cache (benchmarks of the engine).
    pub fn search_uncached(&self, request: &SearchRequest<'_>) -> SearchOutcome {
        search(&self.inner, request)
    }

    /// Searches of this snapshot answered from its result cache.
    pub fn cached_searches(&self) -> u64 {
        self.inner.results.counts().0
    }

    /// Searches of this snapshot that looked in its result cache and had
    /// to search (`search_uncached` does not look).
    pub fn searched_after_cache_miss(&self) -> u64 {
        self.inner.results.counts().1
    }
}

fn hit(snap: &SnapshotInner, candidate: &Candidate, compiled: &Compiled) -> Option<Hit> {
    let address = candidate.address;
    let bytes = snap.stores.get(address.segment_ord as usize)?.get_document_bytes(address.doc_id).ok()?;
    let (mut hit, entry_key) = match hitdoc::read(&bytes, &snap.fields, SNIPPET_SOURCE_BYTES) {
        Some(fields) => to_hit(fields, compiled, candidate.score),
        None => {
            // Not laid out as expected: tantivy's own deserializer decides.
            let doc: HitDoc = snap.searcher.doc(address).ok()?;
            to_hit(doc.0.borrowed(), compiled, candidate.score)
        }
    };
    // A hit that lands on an entry inside its section (an option of a long
    // list) shows that entry's text, wherever in the section it lies.
    if let Some(key) = entry_key
        && let Some(full) = hitdoc::read(&bytes, &snap.fields, usize::MAX)
        && let Some(text) = entry_text(full.body, &key)
    {
        (hit.snippet, hit.highlights) = compiled.highlight.snippet(text);
    }
    // A heading with no text of its own and no description (a manual page's
    // title above its NAME section, Doxygen's "Function Documentation"
    // above the functions) shows the first text below it.
    if hit.snippet.is_empty()
        && let Some((title, text)) = snap.next_section(address)
    {
        (hit.snippet, hit.highlights) = compiled.highlight.snippet_under(&title, &text);
    }
    // A chapter's page that is nothing but its contents and ends its page
    // shows the titles it lists.
    if hit.snippet.is_empty()
        && let Some(titles) = snap.listed_titles(address)
    {
        (hit.snippet, hit.highlights) = compiled.highlight.snippet(&titles);
    }
    Some(hit)
}

/// Places in a section's text where [`entry_text`] looks for an entry's
/// line, at most.
const MAX_ENTRY_LOOKS: usize = 256;

/// The text of the entry defining the name `key` (a symbol key, or one
/// with its case kept) in a section's plain `text`: from the first line
/// whose term lists it (`- --archive, -a`, `- -J destination`, `-
/// work_mem (integer)`; a list item's first word and the words listed
/// after it with commas, or a line's first word), a snippet's length
/// ending between words; None when no line does. Only the lines holding
/// the name as the key spells it are read (a long section's every line
/// would cost a search more than its ranking).
fn entry_text<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let name = cased_name(key).unwrap_or(key);
    let names = |t: &str| t.trim_end_matches(',') == name;
    for found in memchr::memmem::find_iter(text.as_bytes(), name.as_bytes()).take(MAX_ENTRY_LOOKS) {
        let at = text[..found].rfind('\n').map_or(0, |i| i + 1);
        let line = text[at..].split('\n').next().unwrap_or("");
        let trimmed = line.trim_start();
        let item = trimmed.strip_prefix("- ").or_else(|| trimmed.strip_prefix("* "));
        let mut words = item.unwrap_or(trimmed).split(|c: char| c.is_whitespace() || matches!(c, '=' | '['));
        let first = words.next().unwrap_or("");
        // (Only an item lists more: `--archive, -a`.)
        let mut listed = first.ends_with(',') && item.is_some();
        let more = words.filter(|w| !w.is_empty()).take_while(|w| {
            let take = listed;
            listed = w.ends_with(',');
            take
        });
        if names(first) || more.into_iter().any(names) {
            let rest = &text[at..];
            let Some((cut, _)) = rest.char_indices().nth(crate::snippet::SNIPPET_CHARS) else {
                return Some(rest);
            };
            // (Between words: a snippet of it is then all of it.)
            let cut = if rest[cut..].starts_with(char::is_whitespace) {
                cut
            } else {
                rest[..cut].rfind(char::is_whitespace).unwrap_or(cut)
            };
            return Some(&rest[..cut]);
        }
    }
    None
}

fn to_hit(fields: HitFields<&str>, compiled: &Compiled, score: Score) -> (Hit, Option<String>) {
    let (mut snippet, mut highlights) = compiled.highlight.snippet_under(fields.title, fields.body);
    // A page's top with no text of its own (a manual page's title above its
    // NAME section) shows what the page says it is.
    if snippet.is_empty()
        && let Some(description) = fields.description
    {
        (snippet, highlights) = compiled.highlight.snippet(description);
    }
    let entry = entry(fields.entries, &compiled.names);
    let hit = Hit {
        section_key: fields.section_key.to_owned(),
        edition: fields.edition.to_owned(),
        path: fields.path.to_owned(),
        anchor: fields.anchor.map(str::to_owned),
        entry: entry.as_ref().map(|(_, id)| id.clone()),
        title: fields.title.to_owned(),
        breadcrumb: fields.breadcrumb.into_iter().map(str::to_owned).collect(),
        snippet,
        highlights,
        score,
    };
    (hit, entry.map(|(key, _)| key))
}

/// The entry a hit links to, and the name's key: the id stored with the
/// first of the query's names that the section defines at an element
/// inside it, names as written first (`-i`, not `-I`, which folds to the
/// same key), then in the order the query asks them.
fn entry(entries: Option<&str>, names: &[String]) -> Option<(String, String)> {
    if names.is_empty() {
        return None;
    }
    let entries: Vec<(&str, &str)> = entries?.lines().filter_map(|line| line.split_once('\t')).collect();
    let (cased, folded): (Vec<&String>, Vec<&String>) = names.iter().partition(|n| is_cased_key(n));
    let mut names = cased.into_iter().chain(folded);
    names
        .find_map(|name| entries.iter().find(|(key, _)| key == name))
        .map(|(k, id)| ((*k).to_owned(), (*id).to_owned()))
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
    fn a_hit_links_to_the_entry_of_a_name_as_written_first() {
        let entries = "-i\tI\n-i\ti\n\u{3}-I\tI\n\u{3}-i\ti\n-r\tR";
        let names = |ns: &[&str]| -> Vec<String> { ns.iter().map(|n| (*n).to_owned()).collect() };
        let id = |ns: &[&str]| entry(Some(entries), &names(ns)).map(|(_, id)| id);
        assert_eq!(id(&["-i", "\u{3}-i"]).as_deref(), Some("i"));
        assert_eq!(id(&["-i", "\u{3}-I"]).as_deref(), Some("I"));
        assert_eq!(id(&["-i"]).as_deref(), Some("I"), "folded: the first");
        assert_eq!(id(&["-x"]), None);
        assert_eq!(entry(None, &names(&["-i"])), None);
    }

    #[test]
    fn an_entrys_text_starts_at_the_line_whose_term_lists_its_name() {
        let text = "OPTIONS\nLike -L, but trusted.\nrsync -a --info=progress2 src/ dest/\n- --verbose, -v\nMore output.\n\
                    - --archive, -a\nArchive mode.\n- -J destination\nJump first.\n- work_mem (integer)\nMemory.\n";
        let starts = |key: &str| entry_text(text, key).map(|t| t.lines().next().unwrap_or("").to_owned());
        assert_eq!(starts("\u{3}-a").as_deref(), Some("- --archive, -a"));
        assert_eq!(starts("--archive").as_deref(), Some("- --archive, -a"));
        assert_eq!(starts("\u{3}-J").as_deref(), Some("- -J destination"));
        assert_eq!(starts("work_mem").as_deref(), Some("- work_mem (integer)"));
        // A name a sentence or an example mentions, or a term's argument, is no entry.
        assert_eq!(starts("\u{3}-L"), None);
        assert_eq!(starts("--info"), None);
        assert_eq!(starts("destination"), None);
        // The text is a snippet's length at most, ending between words.
        let long = format!("- -x{}", " word".repeat(100));
        assert!(entry_text(&long, "-x").is_some_and(|t| t.chars().count() <= 200 && t.ends_with("word")));
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
            nav: Default::default(),
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
}
