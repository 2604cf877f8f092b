//! `search`: latency of the full `Library::search` call (top 20 with
//! snippets) on PostgreSQL 18 + 15 in en + zh-Hans, side by side with SQLite
//! FTS5 over the same sections, and both engines' hit@3 on the same ground
//! truth. Targets: p50 ≤ 1 ms, p99 ≤ 10 ms, ≥ 5× faster than FTS5 at p50,
//! hit@3 at least FTS5's.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::eval::{Edition, found, terms};
use crate::fts::Fts;
use crate::report::{Table, json_line, load_average, mean_ms, ms, pct, percentile_ms, r3};
use crate::score::{Found, Level, Metrics, Target, first_rank, relative};
use crate::setup::{Fresh, pg18_15, search, sections};

/// A query as a user would type it, in one language.
pub(crate) struct Query {
    pub(crate) text: String,
    pub(crate) locale: &'static str,
    targets: Vec<Target>,
    kind: &'static str,
}

pub(crate) fn query_set(corpora: &Path) -> anyhow::Result<Vec<Query>> {
    let mut out = Vec::new();
    for (locale, n_terms) in [("en", 320), ("zh-Hans", 320)] {
        for t in terms(corpora, locale, n_terms)? {
            out.push(Query { text: t.term, locale, targets: t.targets, kind: "term" });
        }
        for q in crate::questions::load(locale) {
            out.push(Query { text: q.text, locale, targets: q.targets, kind: "question" });
        }
    }
    Ok(out)
}

struct Scope {
    name: &'static str,
    version: &'static str,
}

const SCOPES: [Scope; 2] = [
    Scope { name: "one edition (version 18)", version: "18" },
    Scope { name: "version:* (18 + 15)", version: "*" },
];

pub fn run(
    corpora: &Path,
    rounds: usize,
    tokenizer: &str,
    show: usize,
    lectern_only: bool,
) -> anyhow::Result<()> {
    let fresh = Fresh::new()?;
    let reports = fresh.install_all(corpora, &pg18_15())?;
    let lib = &fresh.library;
    if lectern_only {
        // For a profiler: Lectern's searches alone, every query in both scopes.
        let queries = query_set(corpora)?;
        let mut took = Vec::new();
        for _ in 0..rounds.max(1) {
            for scope in &SCOPES {
                for q in &queries {
                    let started = Instant::now();
                    let _ = std::hint::black_box(search(lib, &q.text, scope.version, q.locale, 20, 0));
                    took.push(started.elapsed());
                }
            }
        }
        took.sort();
        println!(
            "Lectern only: {} searches, p50 {} ms, p99 {} ms, mean {} ms",
            took.len(),
            ms(percentile_ms(&took, 50.0)),
            ms(percentile_ms(&took, 99.0)),
            ms(mean_ms(&took))
        );
        return Ok(());
    }
    let editions: Vec<Edition> = reports
        .iter()
        .map(|r| Edition {
            id: r.edition.id.clone(),
            locale: r.edition.locale.clone(),
            prefix: r.edition.prefix.clone(),
        })
        .collect();
    let versions: Vec<&str> = reports.iter().map(|r| r.edition.version.as_str()).collect();
    let scope_editions = |version: &str, locale: &str| -> Vec<&str> {
        editions
            .iter()
            .zip(&versions)
            .filter(|(e, v)| e.locale == locale && (version == "*" || **v == version))
            .map(|(e, _)| e.id.as_str())
            .collect()
    };
    let prefix_of =
        |id: &str| editions.iter().find(|e| e.id == id).map(|e| e.prefix.clone()).unwrap_or_default();

    eprintln!("reading every section back from the library for FTS5...");
    let mut all = Vec::new();
    let mut n_sections = 0;
    for e in &editions {
        let s = sections(lib, &e.id)?;
        n_sections += s.len();
        all.push((e.id.clone(), s));
    }
    let (fts, fts_build) = Fts::build(tokenizer, &all)?;
    drop(all);
    eprintln!("FTS5 built over {n_sections} sections in {:.1} s", fts_build.as_secs_f64());

    let queries = query_set(corpora)?;
    // Latency uses every query; the mix of terms and questions in both languages.
    let mut latency = Table::new(
        &format!(
            "search latency: {} queries × {rounds} rounds (after 1 warm-up), top 20 with snippets, PostgreSQL 18+15 en+zh-Hans ({n_sections} sections)",
            queries.len()
        ),
        &["engine", "scope", "p50 ms", "p99 ms", "mean ms", "errors"],
    );
    let mut json_latency = Vec::new();
    let mut ratios = Vec::new();
    let mut breakdown: Vec<String> = Vec::new();
    for scope in SCOPES.iter().filter(|_| rounds > 0) {
        let mut lectern_t: Vec<Duration> = Vec::new();
        let mut fts_t: Vec<Duration> = Vec::new();
        let (mut lectern_err, mut fts_err) = (0, 0);
        let mut per_query: Vec<Vec<Duration>> = vec![Vec::new(); queries.len()];
        // Each engine runs the whole query set in turn, so each works from
        // its own warm caches, as a server running only one of them would.
        for round in 0..=rounds {
            for (qi, q) in queries.iter().enumerate() {
                let started = Instant::now();
                let r = std::hint::black_box(search(lib, &q.text, scope.version, q.locale, 20, 0));
                let took = started.elapsed();
                if round > 0 {
                    lectern_t.push(took);
                    per_query[qi].push(took);
                    lectern_err += usize::from(r.is_err());
                }
            }
            for q in &queries {
                let eds = scope_editions(scope.version, q.locale);
                let started = Instant::now();
                let r = std::hint::black_box(fts.search(&eds, &q.text, 20));
                let took = started.elapsed();
                if round > 0 {
                    fts_t.push(took);
                    fts_err += usize::from(r.is_err());
                }
            }
        }
        lectern_t.sort();
        fts_t.sort();
        // Lectern by kind of query, and its slowest queries (median over rounds).
        let medians: Vec<Duration> = per_query
            .iter_mut()
            .map(|v| {
                v.sort();
                v[v.len() / 2]
            })
            .collect();
        let mut groups = Vec::new();
        for (locale, kind) in
            [("en", "term"), ("en", "question"), ("zh-Hans", "term"), ("zh-Hans", "question")]
        {
            let mut v: Vec<Duration> = queries
                .iter()
                .zip(&per_query)
                .filter(|(q, _)| q.locale == locale && q.kind == kind)
                .flat_map(|(_, d)| d.iter().copied())
                .collect();
            v.sort();
            groups.push(format!(
                "{locale} {kind}s p50 {} / p99 {} ms",
                ms(percentile_ms(&v, 50.0)),
                ms(percentile_ms(&v, 99.0))
            ));
        }
        let mut order: Vec<usize> = (0..queries.len()).collect();
        order.sort_by(|a, b| medians[*b].cmp(&medians[*a]));
        let slowest: Vec<String> = order
            .iter()
            .take(8)
            .map(|&i| {
                format!(
                    "{:?} ({}) {} ms",
                    queries[i].text,
                    queries[i].locale,
                    ms(medians[i].as_secs_f64() * 1000.0)
                )
            })
            .collect();
        breakdown.push(format!(
            "{}: Lectern {}\n    slowest (median of rounds): {}",
            scope.name,
            groups.join("; "),
            slowest.join(", ")
        ));
        let (lp50, lp99, lmean) =
            (percentile_ms(&lectern_t, 50.0), percentile_ms(&lectern_t, 99.0), mean_ms(&lectern_t));
        let (fp50, fp99, fmean) = (percentile_ms(&fts_t, 50.0), percentile_ms(&fts_t, 99.0), mean_ms(&fts_t));
        latency.row(vec![
            "Lectern".into(),
            scope.name.into(),
            ms(lp50),
            ms(lp99),
            ms(lmean),
            lectern_err.to_string(),
        ]);
        latency.row(vec![
            format!("FTS5 ({tokenizer})"),
            scope.name.into(),
            ms(fp50),
            ms(fp99),
            ms(fmean),
            fts_err.to_string(),
        ]);
        let ratio = fp50 / lp50.max(1e-9);
        ratios.push((scope.name, ratio, lp50, lp99));
        json_latency.push(json!({
            "scope": scope.name, "samples": lectern_t.len(),
            "lectern": { "p50_ms": r3(lp50), "p99_ms": r3(lp99), "mean_ms": r3(lmean), "errors": lectern_err },
            "fts5": { "p50_ms": r3(fp50), "p99_ms": r3(fp99), "mean_ms": r3(fmean), "errors": fts_err },
            "fts5_over_lectern_p50": r3(ratio),
        }));
    }
    if rounds > 0 {
        latency.print();
        println!(
            "load average after the rounds: {} (2 shared cores: a busy machine inflates every figure)",
            load_average()
        );
        for b in &breakdown {
            println!("{b}");
        }
    }
    for (name, ratio, p50, p99) in &ratios {
        println!(
            "{name}: Lectern is {ratio:.1}× faster than FTS5 at p50; targets p50 ≤ 1 ms: {}, p99 ≤ 10 ms: {}, ≥ 5×: {}",
            yes(*p50 <= 1.0),
            yes(*p99 <= 10.0),
            yes(*ratio >= 5.0)
        );
    }

    // Quality on version 18, same ground truth, same scoring.
    let k = 3;
    let mut quality = Table::new(
        "quality side by side (PostgreSQL 18, scope = the edition): hit@3 / MRR@10",
        &["set", "locale", "queries", "Lectern hit@3", "FTS5 hit@3", "Lectern MRR", "FTS5 MRR"],
    );
    let mut json_quality = Vec::new();
    let mut misses: Vec<String> = Vec::new();
    let sets: [(&str, &str, Level); 3] = [
        ("term", "bookindex terms, page", Level::Page),
        ("term", "bookindex terms, section", Level::Section),
        ("question", "questions, page", Level::Page),
    ];
    for locale in ["en", "zh-Hans"] {
        let ids = scope_editions("18", locale);
        let Some(id) = ids.first() else { continue };
        let prefix = prefix_of(id);
        for (kind, name, level) in &sets {
            let (mut lm, mut fm) = (Metrics::default(), Metrics::default());
            let mut shown = 0;
            for q in queries.iter().filter(|q| q.locale == locale && q.kind == *kind) {
                let lf =
                    search(lib, &q.text, "18", locale, 10, 0).map(|r| found(&r, &prefix)).unwrap_or_default();
                let lr = first_rank(&lf, &q.targets, *level);
                lm.add(lr, k);
                let ff: Vec<Found> = fts
                    .search(&[id], &q.text, 10)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|h| Found { page: relative(&h.path, &prefix), anchor: h.anchor })
                    .collect();
                let fr = first_rank(&ff, &q.targets, *level);
                fm.add(fr, k);
                // Where the baseline finds it in the top k and Lectern does not.
                let within = |r: Option<usize>| r.is_some_and(|r| r <= k);
                if within(fr) && !within(lr) && shown < show && *level == Level::Page {
                    shown += 1;
                    let top = |v: &[Found]| {
                        v.iter()
                            .take(3)
                            .map(|f| format!("{}#{}", f.page, f.anchor.clone().unwrap_or_default()))
                            .collect::<Vec<_>>()
                            .join(" ; ")
                    };
                    misses.push(format!(
                        "[{locale} {kind}] {:?}: Lectern rank {}, FTS5 rank {}; Lectern top 3: {}",
                        q.text,
                        lr.map_or("-".into(), |r| r.to_string()),
                        fr.map_or("-".into(), |r| r.to_string()),
                        top(&lf)
                    ));
                }
            }
            quality.row(vec![
                name.to_string(),
                locale.into(),
                lm.queries.to_string(),
                pct(lm.hitk()),
                pct(fm.hitk()),
                format!("{:.3}", lm.mrr()),
                format!("{:.3}", fm.mrr()),
            ]);
            json_quality
                .push(json!({ "set": name, "locale": locale, "lectern": lm.json(k), "fts5": fm.json(k) }));
        }
    }
    quality.print();
    if !misses.is_empty() {
        println!("\nqueries FTS5 answers in its top {k} and Lectern does not (first {show} per set):");
        for m in &misses {
            println!("  {m}");
        }
    }
    json_line(&json!({
        "bench": "search",
        "queries": queries.len(),
        "rounds": rounds,
        "sections": n_sections,
        "fts5_tokenizer": tokenizer,
        "fts5_build_s": r3(fts_build.as_secs_f64()),
        "load_average": load_average(),
        "latency": json_latency,
        "quality": json_quality,
    }));
    Ok(())
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "NO" }
}
