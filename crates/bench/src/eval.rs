//! `eval`: search quality on PostgreSQL 18 (en + zh-Hans).
//!
//! 1. Bookindex terms: the manual's own index says which sections each term
//!    belongs to; hit@1, hit@k and MRR@10 at page and section level.
//! 2. Natural-language questions, four sets per language
//!    (`data/questions-*.tsv`, `-more-`, `-blind-` and `-fourth-`), page level,
//!    asked of Lectern and of two peers over the same sections: SQLite FTS5
//!    (as in `search`) and Xapian (`xapian_peer.py`, when python3-xapian is
//!    installed).
//! 3. Chinese recall: for Chinese strings sampled from the sections' text,
//!    every section holding the string must be among the results (paged
//!    through), compared with a plain substring scan of the same sections.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use anyhow::Context;
use lectern_index::SectionRecord;
use lectern_library::{Library, SearchResponse};
use serde_json::json;

use crate::bookindex::{self, IndexTerm};
use crate::fts::Fts;
use crate::report::{Table, json_line, pct};
use crate::score::{Found, Level, Metrics, Target, first_rank, relative};
use crate::setup::{Fresh, pg18, search, sections};
use crate::xapian::{self, Xapian};

/// The FTS5 peer's tokenizer, as `search` uses by default.
const FTS_TOKENIZER: &str = "porter unicode61";

/// One edition under evaluation.
pub struct Edition {
    pub id: String,
    pub locale: String,
    pub prefix: String,
}

/// Results of a search reduced to pages and anchors under the edition.
pub fn found(response: &SearchResponse, prefix: &str) -> Vec<Found> {
    response
        .hits
        .iter()
        .map(|h| Found { page: relative(&h.path, prefix), anchor: h.anchor.clone() })
        .collect()
}

fn describe(response: &SearchResponse, prefix: &str) -> String {
    response
        .hits
        .iter()
        .take(3)
        .map(|h| {
            let page = relative(&h.path, prefix);
            match &h.anchor {
                Some(a) => format!("{page}#{a} \"{}\"", h.title),
                None => format!("{page} \"{}\"", h.title),
            }
        })
        .collect::<Vec<_>>()
        .join(" ; ")
}

fn target_str(t: &[Target]) -> String {
    let mut s: Vec<String> = t
        .iter()
        .take(3)
        .map(|t| match &t.anchor {
            Some(a) => format!("{}#{a}", t.page),
            None => t.page.clone(),
        })
        .collect();
    if t.len() > 3 {
        s.push(format!("+{}", t.len() - 3));
    }
    s.join(" | ")
}

/// The bookindex sample for one edition.
pub fn terms(corpora: &Path, locale: &str, n: usize) -> anyhow::Result<Vec<IndexTerm>> {
    let archive = crate::corpus::archive(corpora, &format!("postgresql-18-{locale}.tar.xz"))?;
    let html = crate::corpus::read_member(&archive, "bookindex.html")?;
    let all = bookindex::parse(&html);
    Ok(bookindex::sample(&all, locale != "en", n))
}

/// The engines the question sets are asked of: Lectern and its two peers
/// over the same sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Engine {
    Lectern,
    Fts5,
    Xapian,
}

impl Engine {
    fn name(self) -> &'static str {
        match self {
            Engine::Lectern => "Lectern",
            Engine::Fts5 => "FTS5 (porter unicode61, bm25)",
            Engine::Xapian => "Xapian (BM25, OR)",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Engine::Lectern => "lectern",
            Engine::Fts5 => "fts5",
            Engine::Xapian => "xapian",
        }
    }
}

/// The peers built over the sections the library holds.
struct Peers {
    fts: Fts,
    /// None when python3-xapian is not installed.
    xapian: Option<Xapian>,
}

/// One engine's top 10 for a question, reduced for scoring, and its top 3 described.
fn answer(
    engine: Engine,
    lib: &Library,
    peers: &mut Peers,
    e: &Edition,
    text: &str,
) -> anyhow::Result<(Vec<Found>, String)> {
    let reduce = |paths: Vec<(String, Option<String>)>| {
        let f: Vec<Found> =
            paths.into_iter().map(|(p, anchor)| Found { page: relative(&p, &e.prefix), anchor }).collect();
        let top = f.iter().take(3).map(|x| x.page.clone()).collect::<Vec<_>>().join(" ; ");
        (f, top)
    };
    match engine {
        Engine::Lectern => {
            let response = search(lib, text, "18", &e.locale, 10, 0)?;
            Ok((found(&response, &e.prefix), describe(&response, &e.prefix)))
        }
        Engine::Fts5 => Ok(reduce(
            peers.fts.search(&[e.id.as_str()], text, 10)?.into_iter().map(|h| (h.path, h.anchor)).collect(),
        )),
        Engine::Xapian => {
            let x = peers.xapian.as_mut().context("Xapian is not available")?;
            Ok(reduce(x.search(&e.id, &e.locale, text, 10)?.into_iter().map(|p| (p, None)).collect()))
        }
    }
}

/// Adds one row to the table and to the JSON sets.
fn add_row(
    quality: &mut Table,
    json_sets: &mut Vec<serde_json::Value>,
    k: usize,
    (set, engine, locale): (&str, Engine, &str),
    m: &Metrics,
    errors: usize,
) {
    quality.row(vec![
        set.into(),
        locale.into(),
        engine.name().into(),
        m.queries.to_string(),
        pct(m.hit1()),
        pct(m.hitk()),
        format!("{:.3}", m.mrr()),
        errors.to_string(),
    ]);
    json_sets.push(json!({
        "set": set, "locale": locale, "engine": engine.key(), "metrics": m.json(k), "errors": errors,
    }));
}

pub fn run(
    corpora: &Path,
    k: usize,
    n_terms: usize,
    show: usize,
    ranks_to: Option<&Path>,
) -> anyhow::Result<()> {
    let fresh = Fresh::new()?;
    let reports = fresh.install_all(corpora, &pg18())?;
    let editions: Vec<Edition> = reports
        .iter()
        .map(|r| Edition {
            id: r.edition.id.clone(),
            locale: r.edition.locale.clone(),
            prefix: r.edition.prefix.clone(),
        })
        .collect();
    let lib = &fresh.library;
    let mut notes: Vec<String> = Vec::new();

    // The peers index the very sections the library holds.
    let per_edition: Vec<(String, Vec<SectionRecord>)> =
        editions.iter().map(|e| Ok((e.id.clone(), sections(lib, &e.id)?))).collect::<anyhow::Result<_>>()?;
    let (fts, fts_build) = Fts::build(FTS_TOKENIZER, &per_edition)?;
    eprintln!("FTS5 built in {:.1} s", fts_build.as_secs_f64());
    let xapian = match xapian::find_python() {
        Some(python) => {
            let started = std::time::Instant::now();
            let input: Vec<(&str, &str, &[SectionRecord])> = editions
                .iter()
                .zip(&per_edition)
                .map(|(e, (_, s))| (e.id.as_str(), e.locale.as_str(), s.as_slice()))
                .collect();
            let x = Xapian::start(&python, &input)?;
            eprintln!(
                "Xapian peer started with {python} ({:.1} s to send the sections)",
                started.elapsed().as_secs_f64()
            );
            Some(x)
        }
        None => {
            let note = "Xapian: python3-xapian not found (`apt-get install python3-xapian`; or set LECTERN_BENCH_PYTHON to a python3 that can `import xapian`): its rows are left out";
            eprintln!("{note}");
            notes.push(note.to_owned());
            None
        }
    };
    let mut peers = Peers { fts, xapian };
    let mut engines = vec![Engine::Lectern, Engine::Fts5];
    if peers.xapian.is_some() {
        engines.push(Engine::Xapian);
    }

    let mut quality = Table::new(
        &format!("eval: PostgreSQL 18, search restricted to the edition, limit 10 (k = {k})"),
        &["set", "locale", "engine", "queries", "hit@1", &format!("hit@{k}"), "MRR@10", "errors"],
    );
    let mut json_sets = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    let mut peer_wins: Vec<String> = Vec::new();
    let mut recall_json = serde_json::Value::Null;
    // Every query's rank, for `--ranks`: set, locale, query, page, section.
    let mut rank_lines: Vec<String> = Vec::new();
    let rank_str = |r: Option<usize>| r.map_or("-".into(), |r: usize| r.to_string());
    for (e, (_, all_sections)) in editions.iter().zip(&per_edition) {
        let anchors: HashSet<(String, String)> = all_sections
            .iter()
            .filter_map(|s| Some((relative(&s.page_path, &e.prefix), s.anchor.clone()?.to_lowercase())))
            .collect();
        let pages: HashSet<String> = all_sections.iter().map(|s| relative(&s.page_path, &e.prefix)).collect();

        // 1. Bookindex terms (Lectern only).
        let sample = terms(corpora, &e.locale, n_terms)?;
        let (mut page_m, mut sec_m, mut no_index_m) =
            (Metrics::default(), Metrics::default(), Metrics::default());
        let mut unreachable = 0;
        let mut errors = 0;
        let mut shown = 0;
        let mut missing_pages = 0;
        for t in &sample {
            missing_pages += t.targets.iter().filter(|x| !pages.contains(&x.page)).count();
            let reachable = t.targets.iter().any(|x| match &x.anchor {
                None => pages.contains(&x.page),
                Some(a) => anchors.contains(&(x.page.clone(), a.to_lowercase())),
            });
            let response = match search(lib, &t.term, "18", &e.locale, 10, 0) {
                Ok(r) => r,
                Err(err) => {
                    errors += 1;
                    failures.push(format!("[{} term] {:?}: error: {err}", e.locale, t.term));
                    page_m.add(None, k);
                    sec_m.add(None, k);
                    no_index_m.add(None, k);
                    continue;
                }
            };
            let f = found(&response, &e.prefix);
            let pr = first_rank(&f, &t.targets, Level::Page);
            let sr = first_rank(&f, &t.targets, Level::Section);
            page_m.add(pr, k);
            sec_m.add(sr, k);
            rank_lines.push(format!("term\t{}\t{}\t{}\t{}", e.locale, t.term, rank_str(pr), rank_str(sr)));
            unreachable += usize::from(!reachable);
            // Diagnostic: the same results with the manual's own index page left out.
            let without: Vec<Found> = f.iter().filter(|x| x.page != "bookindex").cloned().collect();
            no_index_m.add(first_rank(&without, &t.targets, Level::Page), k);
            if pr.is_none_or(|r| r > k) && shown < show {
                shown += 1;
                failures.push(format!(
                    "[{} term] {:?} (rank {}) expected {} ; got {}",
                    e.locale,
                    t.term,
                    pr.map_or("-".into(), |r| r.to_string()),
                    target_str(&t.targets),
                    describe(&response, &e.prefix)
                ));
            }
        }
        let lectern = |set| (set, Engine::Lectern, e.locale.as_str());
        add_row(&mut quality, &mut json_sets, k, lectern("bookindex terms, page"), &page_m, errors);
        add_row(&mut quality, &mut json_sets, k, lectern("bookindex terms, section"), &sec_m, errors);
        add_row(
            &mut quality,
            &mut json_sets,
            k,
            lectern("bookindex terms, page, bookindex page left out (diagnostic)"),
            &no_index_m,
            errors,
        );
        notes.push(format!(
            "{}: {} terms sampled; {unreachable} have no target that is a section of the library (section level cannot hit); {missing_pages} targets name pages the library does not hold",
            e.locale,
            sample.len()
        ));

        // 2. The three question sets, each asked of every engine.
        let sets = [
            ("questions, page", "question", crate::questions::load(&e.locale)),
            ("more questions, page", "more question", crate::questions::load_more(&e.locale)),
            ("third questions, page", "third question", crate::questions::load_blind(&e.locale)),
            ("fourth questions, page", "fourth question", crate::questions::load_fourth(&e.locale)),
        ];
        for (set, tag, questions) in &sets {
            for q in questions {
                if let Some(t) = q.targets.iter().find(|t| !pages.contains(&t.page)) {
                    anyhow::bail!(
                        "question {:?} expects page {:?}, which {} does not hold",
                        q.text,
                        t.page,
                        e.id
                    );
                }
            }
            // ranks[engine][question]
            let mut ranks: Vec<Vec<Option<usize>>> = Vec::new();
            for &engine in &engines {
                let mut m = Metrics::default();
                let mut errs = 0;
                let mut shown = 0;
                let mut these = Vec::new();
                for q in questions {
                    let rank = match answer(engine, lib, &mut peers, e, &q.text) {
                        Ok((f, top)) => {
                            let rank = first_rank(&f, &q.targets, Level::Page);
                            if engine == Engine::Lectern && rank.is_none_or(|r| r > k) && shown < show {
                                shown += 1;
                                failures.push(format!(
                                    "[{} {tag}] {:?} (rank {}) expected {} ; got {top}",
                                    e.locale,
                                    q.text,
                                    rank.map_or("-".into(), |r| r.to_string()),
                                    target_str(&q.targets),
                                ));
                            }
                            rank
                        }
                        Err(err) => {
                            errs += 1;
                            failures.push(format!(
                                "[{} {tag}, {}] {:?}: error: {err}",
                                e.locale,
                                engine.name(),
                                q.text
                            ));
                            None
                        }
                    };
                    m.add(rank, k);
                    if engine == Engine::Lectern {
                        rank_lines.push(format!("{tag}\t{}\t{}\t{}\t-", e.locale, q.text, rank_str(rank)));
                    }
                    these.push(rank);
                }
                add_row(&mut quality, &mut json_sets, k, (set, engine, &e.locale), &m, errs);
                ranks.push(these);
            }
            // Where a peer finds the page in its top k and Lectern does not.
            let within = |r: Option<usize>| r.is_some_and(|r| r <= k);
            let mut listed = 0;
            for (i, q) in questions.iter().enumerate() {
                let better: Vec<String> = engines
                    .iter()
                    .zip(&ranks)
                    .skip(1)
                    .filter(|(_, r)| within(r[i]) && !within(ranks[0][i]))
                    .map(|(engine, r)| format!("{} rank {}", engine.key(), rank_str(r[i])))
                    .collect();
                if !better.is_empty() && listed < show {
                    listed += 1;
                    peer_wins.push(format!(
                        "[{} {tag}] {:?}: Lectern rank {}, {}",
                        e.locale,
                        q.text,
                        rank_str(ranks[0][i]),
                        better.join(", ")
                    ));
                }
            }
        }

        // 3. Chinese recall.
        if e.locale != "en" {
            recall_json = chinese_recall(lib, e, all_sections, 50, &mut failures)?;
        }
    }
    drop(peers);
    if let Some(path) = ranks_to {
        let text: String = rank_lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    quality.print();
    for n in &notes {
        println!("{n}");
    }
    if !failures.is_empty() {
        println!("\nmisses of Lectern (first {show} per set; top 3 results shown):");
        for f in &failures {
            println!("  {f}");
        }
    }
    if !peer_wins.is_empty() {
        println!("\nquestions a peer answers in its top {k} and Lectern does not (first {show} per set):");
        for w in &peer_wins {
            println!("  {w}");
        }
    }
    let xapian_note = if engines.contains(&Engine::Xapian) { "BM25, OR" } else { "not installed" };
    json_line(&json!({
        "bench": "eval", "k": k, "sets": json_sets, "chinese_recall": recall_json,
        "peers": { "fts5_tokenizer": FTS_TOKENIZER, "xapian": xapian_note },
    }));
    Ok(())
}

fn is_han(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

/// Deterministic Chinese strings of 2–6 characters taken from section texts.
pub fn recall_queries(all: &[SectionRecord], n: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let step = (all.len() / (n * 2)).max(1);
    for (j, s) in all.iter().enumerate().step_by(step) {
        if out.len() == n {
            break;
        }
        let len = 2 + out.len() % 5;
        let chars: Vec<char> = s.text.chars().collect();
        let mut runs = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if is_han(chars[i]) {
                let start = i;
                while i < chars.len() && is_han(chars[i]) {
                    i += 1;
                }
                if i - start >= len {
                    runs.push((start, i));
                }
            } else {
                i += 1;
            }
        }
        if runs.is_empty() {
            continue;
        }
        let (a, b) = runs[j % runs.len()];
        let start = a + (b - a - len) / 2;
        let q: String = chars[start..start + len].iter().collect();
        if !out.contains(&q) {
            out.push(q);
        }
    }
    out
}

fn chinese_recall(
    lib: &Library,
    e: &Edition,
    all: &[SectionRecord],
    n: usize,
    failures: &mut Vec<String>,
) -> anyhow::Result<serde_json::Value> {
    let queries = recall_queries(all, n);
    let mut table = Table::new(
        &format!(
            "Chinese recall on {} ({} sections): search (limit 50, paged) vs substring scan",
            e.id,
            all.len()
        ),
        &[
            "queries",
            "expected sections",
            "found",
            "recall",
            "queries at 100%",
            "searches",
            "truncated/timed out",
        ],
    );
    let (mut expected_all, mut found_all, mut perfect, mut searches, mut flagged) =
        (0usize, 0usize, 0usize, 0usize, 0usize);
    let mut per_query = Vec::new();
    for q in &queries {
        let expected: HashSet<&str> = all
            .iter()
            .filter(|s| s.text.contains(q.as_str()) || s.title.contains(q.as_str()))
            .map(|s| s.key.as_str())
            .collect();
        let mut got: HashMap<String, usize> = HashMap::new();
        let mut offset = 0i64;
        let mut total;
        loop {
            let r = search(lib, q, "18", &e.locale, 50, offset)?;
            searches += 1;
            total = r.total;
            if r.timed_out || r.cancelled || r.candidate_truncated {
                flagged += 1;
            }
            for (i, h) in r.hits.iter().enumerate() {
                got.insert(h.section_key.clone(), offset as usize + i + 1);
            }
            let all_found = expected.iter().all(|k| got.contains_key(*k));
            match r.next_offset {
                Some(next) if !all_found && next <= lectern_library::search::MAX_OFFSET => {
                    offset = next as i64
                }
                _ => break,
            }
        }
        let hit = expected.iter().filter(|k| got.contains_key(**k)).count();
        expected_all += expected.len();
        found_all += hit;
        if hit == expected.len() {
            perfect += 1;
        } else {
            let missing: Vec<String> = all
                .iter()
                .filter(|s| expected.contains(s.key.as_str()) && !got.contains_key(&s.key))
                .take(3)
                .map(|s| {
                    format!("{}#{}", relative(&s.page_path, &e.prefix), s.anchor.clone().unwrap_or_default())
                })
                .collect();
            failures.push(format!(
                "[zh recall] {q:?}: {hit}/{} sections found (total {total}); missing e.g. {}",
                expected.len(),
                missing.join(", ")
            ));
        }
        per_query.push(json!({ "query": q, "expected": expected.len(), "found": hit, "total": total }));
    }
    let recall = if expected_all == 0 { 1.0 } else { found_all as f64 / expected_all as f64 };
    table.row(vec![
        queries.len().to_string(),
        expected_all.to_string(),
        found_all.to_string(),
        format!("{:.2}%", recall * 100.0),
        format!("{perfect}/{}", queries.len()),
        searches.to_string(),
        flagged.to_string(),
    ]);
    table.print();
    println!("queries: {}", queries.join(" "));
    Ok(json!({
        "queries": queries.len(), "expected": expected_all, "found": found_all,
        "recall": crate::score::round(recall), "perfect_queries": perfect, "searches": searches,
        "flagged_pages": flagged, "per_query": per_query,
    }))
}
