//! Regression tests for pages built to exhaust the writer: one page with
//! thousands of sections and tens of thousands of symbols, and one page
//! with hundreds of thousands of index rows. Each writes its own input.

use std::time::{Duration, Instant};

use lectern_corpus::{Page, Section, Symbol};
use lectern_index::{Index, SearchRequest, parse_query};

const EDITION: &str = "hostile@1/en";

/// A page of `sections` sections (anchors `s0`, `s1`...) and `symbols`
/// symbols; symbol `i` points at section `i % sections` when `anchored`.
fn crafted(sections: usize, symbols: usize, anchored: bool) -> Page {
    let sections: Vec<Section> = (0..sections)
        .map(|i| Section {
            anchor: (i > 0).then(|| format!("s{i}")),
            title: format!("Part {i}"),
            level: if i == 0 { 1 } else { 2 },
            breadcrumb: vec![],
            markdown: format!("## Part {i}\n\npart {i} text\n"),
            text: format!("part {i} text"),
        })
        .collect();
    let count = sections.len();
    Page {
        path: "/hostile/page".into(),
        source_file: "page.html".into(),
        title: "Hostile".into(),
        description: None,
        order: None,
        draft: false,
        frontmatter: None,
        markdown: sections.iter().map(|s| s.markdown.as_str()).collect(),
        text: sections.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join("\n"),
        sections,
        symbols: (0..symbols)
            .map(|i| Symbol {
                entry: None,
                name: format!("sym_{i}"),
                kind: "Function".into(),
                anchor: (anchored && i % count > 0).then(|| format!("s{}", i % count)),
            })
            .collect(),
        listing: false,
        nav: Default::default(),
    }
}

/// Peak resident memory of this process so far, in bytes (Linux).
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn index_one(page: &Page) -> (tempfile::TempDir, Index, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let started = Instant::now();
    let mut writer = index.writer().unwrap();
    writer.add_page(EDITION, page).unwrap();
    writer.commit("1").unwrap();
    (dir, index, started.elapsed())
}

#[test]
fn every_symbol_on_every_section_stays_bounded() {
    // 2,000 sections × 50,000 symbols on one page: copying every symbol
    // onto every section would be 100 million terms.
    let page = crafted(2_000, 50_000, false);
    let (_dir, index, took) = index_one(&page);
    let rss = peak_rss();
    eprintln!("2,000 sections × 50,000 symbols: {took:?}, peak RSS {} MiB", rss >> 20);
    assert!(rss < 512 << 20, "peak RSS {} MiB", rss >> 20);
    let snap = index.snapshot();
    assert_eq!(snap.edition_counts(EDITION), (1, 2_000));
    // A symbol query still finds its section first.
    let query = parse_query("sym_49999").unwrap();
    let editions = vec![EDITION.to_string()];
    let out = snap.search(&SearchRequest {
        query: &query,
        editions: &editions,
        twins: &[],
        last_word_prefix: false,
        limit: 5,
        offset: 0,
        deadline: Instant::now() + Duration::from_secs(10),
        cancel: None,
    });
    assert_eq!(out.hits.first().map(|h| h.anchor.clone()), Some(None), "the lead section holds it");
}

#[test]
fn anchored_symbols_land_on_their_sections() {
    let page = crafted(2_000, 50_000, true);
    let (_dir, index, _) = index_one(&page);
    let query = parse_query("sym_1234").unwrap();
    let editions = vec![EDITION.to_string()];
    let out = index.snapshot().search(&SearchRequest {
        query: &query,
        editions: &editions,
        twins: &[],
        last_word_prefix: false,
        limit: 5,
        offset: 0,
        deadline: Instant::now() + Duration::from_secs(10),
        cancel: None,
    });
    assert_eq!(out.hits.first().and_then(|h| h.anchor.clone()).as_deref(), Some("s1234"));
}

#[test]
fn many_index_rows_on_one_page_are_linear() {
    // Index rows on one page: twice the rows must take well under four
    // times as long (a quadratic dedup took 21.9 s for 200,000 rows).
    // Each size's fastest of two runs, so that a busy machine (other tests
    // run beside this one) does not pass for a slow algorithm.
    let time = |rows: usize| {
        let page = crafted(50, rows, false);
        (0..2).map(|_| index_one(&page).2).min().expect("two runs")
    };
    let small = time(50_000);
    let large = time(100_000);
    eprintln!("50,000 rows: {small:?}; 100,000 rows: {large:?}");
    assert!(large < small * 3, "50k rows {small:?}, 100k rows {large:?}");
}
