//! `eval`: search quality on PostgreSQL 18 (en + zh-Hans).
//!
//! 1. Bookindex terms: the manual's own index says which sections each term
//!    belongs to; hit@1, hit@k and MRR@10 at page and section level.
//! 2. Natural-language questions (`data/questions-*.tsv`), page level.
//! 3. Chinese recall: for Chinese strings sampled from the sections' text,
//!    every section holding the string must be among the results (paged
//!    through), compared with a plain substring scan of the same sections.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use lectern_index::SectionRecord;
use lectern_library::{Library, SearchResponse};
use serde_json::json;

use crate::bookindex::{self, IndexTerm};
use crate::report::{Table, json_line, pct};
use crate::score::{Found, Level, Metrics, Target, first_rank, relative};
use crate::setup::{Fresh, pg18, search, sections};

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

pub fn run(corpora: &Path, k: usize, n_terms: usize, show: usize) -> anyhow::Result<()> {
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
    let mut quality = Table::new(
        &format!("eval: PostgreSQL 18, search restricted to the edition, limit 10 (k = {k})"),
        &["set", "locale", "queries", "hit@1", &format!("hit@{k}"), "MRR@10", "errors"],
    );
    let mut json_sets = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    let mut recall_json = serde_json::Value::Null;
    let mut notes: Vec<String> = Vec::new();
    for e in &editions {
        let all_sections = sections(lib, &e.id)?;
        let anchors: HashSet<(String, String)> = all_sections
            .iter()
            .filter_map(|s| Some((relative(&s.page_path, &e.prefix), s.anchor.clone()?.to_lowercase())))
            .collect();
        let pages: HashSet<String> = all_sections.iter().map(|s| relative(&s.page_path, &e.prefix)).collect();

        // 1. Bookindex terms.
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
        let mut add_row = |set: &str, m: &Metrics, errors: usize| {
            quality.row(vec![
                set.into(),
                e.locale.clone(),
                m.queries.to_string(),
                pct(m.hit1()),
                pct(m.hitk()),
                format!("{:.3}", m.mrr()),
                errors.to_string(),
            ]);
            json_sets.push(json!({ "set": set, "locale": e.locale, "metrics": m.json(k), "errors": errors }));
        };
        add_row("bookindex terms, page", &page_m, errors);
        add_row("bookindex terms, section", &sec_m, errors);
        add_row("bookindex terms, page, bookindex page left out (diagnostic)", &no_index_m, errors);
        notes.push(format!(
            "{}: {} terms sampled; {unreachable} have no target that is a section of the library (section level cannot hit); {missing_pages} targets name pages the library does not hold",
            e.locale,
            sample.len()
        ));

        // 2. Questions.
        let questions = crate::questions::load(&e.locale);
        let mut q_m = Metrics::default();
        let mut q_err = 0;
        let mut q_shown = 0;
        for q in &questions {
            if let Some(t) = q.targets.iter().find(|t| !pages.contains(&t.page)) {
                anyhow::bail!(
                    "question {:?} expects page {:?}, which {} does not hold",
                    q.text,
                    t.page,
                    e.id
                );
            }
            match search(lib, &q.text, "18", &e.locale, 10, 0) {
                Ok(response) => {
                    let rank = first_rank(&found(&response, &e.prefix), &q.targets, Level::Page);
                    q_m.add(rank, k);
                    if rank.is_none_or(|r| r > k) && q_shown < show {
                        q_shown += 1;
                        failures.push(format!(
                            "[{} question] {:?} (rank {}) expected {} ; got {}",
                            e.locale,
                            q.text,
                            rank.map_or("-".into(), |r| r.to_string()),
                            target_str(&q.targets),
                            describe(&response, &e.prefix)
                        ));
                    }
                }
                Err(err) => {
                    q_err += 1;
                    q_m.add(None, k);
                    failures.push(format!("[{} question] {:?}: error: {err}", e.locale, q.text));
                }
            }
        }
        add_row("questions, page", &q_m, q_err);

        // 3. Chinese recall.
        if e.locale != "en" {
            recall_json = chinese_recall(lib, e, &all_sections, 50, &mut failures)?;
        }
    }
    quality.print();
    for n in &notes {
        println!("{n}");
    }
    if !failures.is_empty() {
        println!("\nmisses (first {show} per set; top 3 results shown):");
        for f in &failures {
            println!("  {f}");
        }
    }
    json_line(&json!({ "bench": "eval", "k": k, "sets": json_sets, "chinese_recall": recall_json }));
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
