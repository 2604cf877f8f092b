//! Integration tests of the index: a small real on-disk index built from
//! hand-made pages (English and Chinese) in a tempdir.
//!
//! # Contents
//! - fixture: `page`, `fixture_pages` (English, Chinese, other), `build`, `search`
//! - generations: snapshot isolation, payload/searcher consistency across
//!   two `Index` handles, refresh is cheap, delete_edition, format check,
//!   read-only open, verify
//! - records: pages sorted, page, section, page_texts, edition_counts
//! - ranking: edition filter, tiers, phrases, exclusions, symbol first,
//!   natural-language questions (English, Chinese), prefix search
//! - Chinese: substring recall vs a naive scan, one-char queries
//! - paging: concatenated pages == one big page (and a proptest: any page
//!   size, one list, one total); deadline; cancel
//! - snippets: valid highlights; an insta snapshot of a result
//! - substring_candidates: differential proptest vs a naive scan

use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use lectern_corpus::{Page, Section, Symbol};
use lectern_index::text::fold;
use lectern_index::{Index, IndexError, SearchOutcome, SearchRequest, Twin, parse_query};

const EN: &str = "postgresql@18/en";
const ZH: &str = "postgresql@18/zh-Hans";
const OTHER: &str = "other@1/en";
const TIERS: &str = "tiers@1/en";

fn page(path: &str, title: &str, sections: &[(Option<&str>, &str, &str)], symbols: &[&str]) -> Page {
    let sections: Vec<Section> = sections
        .iter()
        .enumerate()
        .map(|(i, (anchor, heading, text))| Section {
            anchor: anchor.map(str::to_string),
            title: heading.to_string(),
            level: if i == 0 { 1 } else { 2 },
            breadcrumb: if i == 0 { vec![] } else { vec![title.to_string()] },
            markdown: format!("{} {heading}\n\n{text}\n", if i == 0 { "#" } else { "##" }),
            text: text.to_string(),
        })
        .collect();
    Page {
        path: path.to_string(),
        source_file: format!("{}.html", path.trim_start_matches('/')),
        title: title.to_string(),
        description: None,
        order: None,
        draft: false,
        frontmatter: None,
        markdown: sections.iter().map(|s| s.markdown.as_str()).collect(),
        text: sections.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join("\n"),
        sections,
        symbols: symbols
            .iter()
            .map(|s| Symbol { name: s.to_string(), kind: "Command".into(), anchor: None, entry: None })
            .collect(),
        listing: false,
        nav: Default::default(),
    }
}

/// Every page of the fixture, in the order they are written.
fn fixture_pages() -> Vec<(&'static str, Page)> {
    let mut pages = english_pages();
    pages.extend(chinese_pages());
    pages.extend(other_pages());
    pages
}

/// Reference pages, an introduction and a settings page of the English manual.
fn english_pages() -> Vec<(&'static str, Page)> {
    vec![
        (
            EN,
            page(
                "/postgresql/sql-createindex",
                "CREATE INDEX",
                &[
                    (
                        None,
                        "CREATE INDEX",
                        "CREATE INDEX — define a new index. CREATE INDEX constructs an index on the specified column(s) of the specified relation, which can be a table or a materialized view.",
                    ),
                    (
                        Some("sql-createindex-concurrently"),
                        "Building Indexes Concurrently",
                        "Creating an index can interfere with regular operation of a database. Normally PostgreSQL locks the table to be indexed against writes and performs the entire index build with a single scan of the table. With the CONCURRENTLY option the index is built without locking out writes on the table.",
                    ),
                ],
                &["CREATE INDEX"],
            ),
        ),
        (
            EN,
            page(
                "/postgresql/indexes-intro",
                "Introduction",
                &[(
                    None,
                    "Introduction",
                    "Suppose we have a table similar to this one. To create an index on the id column: CREATE INDEX test1_id_index ON test1 (id); create index statements, create index everywhere, an index is created and indexes help. Create an index, then create an index again.",
                )],
                &[],
            ),
        ),
        (
            EN,
            page(
                "/postgresql/runtime-config-resource",
                "Resource Consumption",
                &[(
                    Some("guc-work-mem"),
                    "work_mem (integer)",
                    "Sets the base maximum amount of memory to be used by a query operation (such as a sort or hash table) before writing to temporary disk files. The default work_mem is four megabytes.",
                )],
                &[],
            ),
        ),
        (
            EN,
            page(
                "/postgresql/sql-select",
                "SELECT",
                &[(
                    None,
                    "SELECT",
                    "SELECT retrieves rows from zero or more tables. The general processing of SELECT is as follows.",
                )],
                &[],
            ),
        ),
    ]
}

/// The Chinese manual (and a section in kana and Hangul).
fn chinese_pages() -> Vec<(&'static str, Page)> {
    vec![
        (
            ZH,
            page(
                "/zh-Hans/postgresql/sql-createindex",
                "CREATE INDEX",
                &[
                    (
                        None,
                        "CREATE INDEX",
                        "CREATE INDEX — 定义一个新索引。CREATE INDEX 在指定关系的指定列上构建一个索引，该关系可以是一个表或者一个物化视图。",
                    ),
                    (
                        Some("sql-createindex-concurrently"),
                        "并发构建索引",
                        "创建索引可能会干扰数据库的常规操作。通常 PostgreSQL 会锁住要被索引的表以阻止写入，并且用一次表扫描来执行整个索引的构建。使用 CONCURRENTLY 选项时，可以在不阻塞写入的情况下创建索引。",
                    ),
                ],
                &["CREATE INDEX"],
            ),
        ),
        (
            ZH,
            page(
                "/zh-Hans/postgresql/indexes-intro",
                "简介",
                &[(
                    None,
                    "简介",
                    "假设我们有一个表。要在 id 列上创建索引：索引可以提高数据库的查询速度，但也会增加写入的开销。",
                )],
                &[],
            ),
        ),
        (
            ZH,
            page(
                "/zh-Hans/postgresql/tutorial",
                "教程",
                &[
                    (None, "教程", "欢迎来到 PostgreSQL 教程。数据库是一个表的集合。"),
                    (Some("kana"), "インデックス", "インデックスを作成する。색인을 만든다。索"),
                ],
                &[],
            ),
        ),
    ]
}

/// Another edition, the tier pages, and thirty maintenance pages that page.
fn other_pages() -> Vec<(&'static str, Page)> {
    let mut pages = vec![
        (
            OTHER,
            page(
                "/other/vacuum",
                "Vacuum elsewhere",
                &[(None, "Vacuum elsewhere", "vacuum in another edition")],
                &[],
            ),
        ),
        (TIERS, page("/tiers/all", "All", &[(None, "All", "quokka wombat numbat live here")], &[])),
        (
            TIERS,
            page("/tiers/two", "Two", &[(None, "Two", "quokka wombat quokka wombat quokka wombat")], &[]),
        ),
        (TIERS, page("/tiers/one", "One", &[(None, "One", "quokka quokka quokka quokka quokka")], &[])),
        (TIERS, page("/tiers/apart", "Apart", &[(None, "Apart", "wombat and then quokka, numbat")], &[])),
    ];
    for i in 0..30 {
        let text = format!("{} routine maintenance number {i}", "vacuum ".repeat(1 + i % 7));
        let path = format!("/postgresql/maintenance-{i:02}");
        pages.push((
            EN,
            Page {
                order: Some(i as i64),
                ..page(&path, &format!("Maintenance {i}"), &[(None, "Maintenance", &text)], &[])
            },
        ));
    }
    pages
}

fn build(dir: &Path, payload: &str) -> Index {
    let index = Index::open(dir).unwrap();
    let mut writer = index.writer().unwrap();
    for (edition, page) in fixture_pages() {
        writer.add_page(edition, &page).unwrap();
    }
    writer.commit(payload).unwrap();
    index
}

fn request<'a>(query: &'a lectern_index::ParsedQuery, editions: &'a [String]) -> SearchRequest<'a> {
    SearchRequest {
        query,
        editions,
        twins: &[],
        last_word_prefix: false,
        limit: 20,
        offset: 0,
        deadline: Instant::now() + Duration::from_secs(10),
        cancel: None,
    }
}

fn search(index: &Index, text: &str, editions: &[&str], offset: usize, limit: usize) -> SearchOutcome {
    let query = parse_query(text).unwrap();
    let editions: Vec<String> = editions.iter().map(|e| e.to_string()).collect();
    index.snapshot().search(&SearchRequest { offset, limit, ..request(&query, &editions) })
}

fn paths(outcome: &SearchOutcome) -> Vec<String> {
    outcome.hits.iter().map(|h| h.path.clone()).collect()
}

// ---- generations ----------------------------------------------------------

#[test]
fn handles_are_shareable_across_threads() {
    fn shareable<T: Send + Sync>() {}
    fn sendable<T: Send>() {}
    shareable::<Index>();
    shareable::<lectern_index::Snapshot>();
    sendable::<lectern_index::Writer>();
}

#[test]
fn snapshot_isolation_old_snapshot_still_reads() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let old = index.snapshot();
    assert_eq!(old.payload(), "g1");

    let mut writer = index.writer().unwrap();
    writer.delete_edition(EN);
    writer
        .add_page(EN, &page("/postgresql/new", "New", &[(None, "New", "brand new vacuum page")], &[]))
        .unwrap();
    writer.commit("g2").unwrap();

    let new = index.snapshot();
    assert_eq!(new.payload(), "g2");
    assert_eq!(new.pages(EN).len(), 1);
    // The old snapshot still reads its own commit.
    assert_eq!(old.payload(), "g1");
    assert_eq!(old.pages(EN).len(), 34);
    let q = parse_query("create index").unwrap();
    let editions = vec![EN.to_string()];
    assert!(!old.search(&request(&q, &editions)).hits.is_empty());
    assert!(new.search(&request(&q, &editions)).hits.is_empty());
}

#[test]
fn payload_and_searcher_belong_to_the_same_commit() {
    let dir = tempfile::tempdir().unwrap();
    let writer_side = Index::open(dir.path()).unwrap();
    let reader_side = Index::open_read_only(dir.path()).unwrap();
    assert_eq!(reader_side.snapshot().payload(), "");
    assert!(!reader_side.refresh().unwrap(), "nothing changed yet");
    for n in 1..=5 {
        let mut writer = writer_side.writer().unwrap();
        let path = format!("/gen/{n}");
        writer.add_page("g@1/en", &page(&path, "Gen", &[(None, "Gen", "generation text")], &[])).unwrap();
        writer.commit(&n.to_string()).unwrap();
        assert!(reader_side.refresh().unwrap(), "commit {n} seen by the other handle");
        assert!(!reader_side.refresh().unwrap(), "second refresh is a no-op");
        let snap = reader_side.snapshot();
        // The payload names the number of pages the searcher holds.
        assert_eq!(snap.payload(), n.to_string());
        assert_eq!(snap.edition_counts("g@1/en"), (n, n));
    }
}

#[test]
fn delete_edition_removes_every_document() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    assert_eq!(index.snapshot().edition_counts(ZH), (3, 5));
    let mut writer = index.writer().unwrap();
    writer.delete_edition(ZH);
    writer.commit("g2").unwrap();
    let snap = index.snapshot();
    assert_eq!(snap.edition_counts(ZH), (0, 0));
    assert!(snap.pages(ZH).is_empty());
    assert!(search(&index, "索引", &[ZH], 0, 20).hits.is_empty());
    assert_eq!(snap.edition_counts(EN), (34, 35));
}

/// How many segments the index's last commit lists (tantivy's `meta.json`).
fn segments(dir: &Path) -> usize {
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    meta["segments"].as_array().unwrap().len()
}

#[test]
fn each_edition_is_one_segment_and_leaves_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    // Enough pages that both indexing threads write some; an edition
    // written again replaces itself, as the library does.
    let write_n = |edition: &str, prefix: &str, n: usize| {
        let mut writer = index.writer().unwrap();
        writer.delete_edition(edition);
        for i in 0..n {
            let path = format!("{prefix}/p{i}");
            writer
                .add_page(edition, &page(&path, "Page", &[(None, "Page", "Some text of a page.")], &[]))
                .unwrap();
        }
        writer.commit("").unwrap();
    };
    let write = |edition: &str, prefix: &str| write_n(edition, prefix, 3000);
    write("a@1/en", "/a");
    assert_eq!(segments(dir.path()), 1);
    write("b@1/en", "/b");
    assert_eq!(segments(dir.path()), 2);
    assert_eq!(search(&index, "text", &["b@1/en"], 0, 5).total, 3000);
    // Replaced: the old segment goes, the new one takes its place.
    write("a@1/en", "/a");
    assert_eq!(segments(dir.path()), 2);
    let mut writer = index.writer().unwrap();
    writer.delete_edition("a@1/en");
    writer.commit("").unwrap();
    assert_eq!(segments(dir.path()), 1);
    assert_eq!(index.snapshot().edition_counts("b@1/en").0, 3000);
    // Eight more (tantivy's policy would merge eight segments of a size):
    // each big edition keeps its own.
    for i in 0..8 {
        write_n(&format!("c{i}@1/en"), &format!("/c{i}"), 1200);
    }
    assert_eq!(segments(dir.path()), 9);
}

#[test]
fn other_format_is_refused_and_read_only_never_creates() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    assert!(matches!(Index::open_read_only(&missing), Err(IndexError::Open { .. })));
    assert!(!missing.exists());
    drop(build(dir.path(), "g1"));
    Index::open(dir.path()).unwrap().verify().unwrap();
    std::fs::write(dir.path().join("lectern-index.json"), r#"{"format":99}"#).unwrap();
    match Index::open(dir.path()) {
        Err(IndexError::Format { found: 99, expected: lectern_index::FORMAT_VERSION, .. }) => {}
        other => panic!("expected a format error, got {:?}", other.err()),
    }
}

// ---- records ----------------------------------------------------------------

#[test]
fn records_pages_sections_texts() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let snap = index.snapshot();
    let pages = snap.pages(EN);
    let listed: Vec<&str> = pages.iter().map(|p| p.path.as_str()).collect();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(listed, sorted);
    let m3 = pages.iter().find(|p| p.path == "/postgresql/maintenance-03").unwrap();
    assert_eq!((m3.title.as_str(), m3.order, m3.draft), ("Maintenance 3", Some(3), false));

    let record = snap.page(EN, "/postgresql/sql-createindex").unwrap();
    assert_eq!(record.title, "CREATE INDEX");
    assert_eq!(record.section_keys.len(), 2);
    assert!(record.text.contains("CONCURRENTLY"));
    let section = snap.section(&record.section_keys[1]).unwrap();
    assert_eq!(section.markdown, None, "Markdown is read only when asked for");
    let fixture = fixture_pages().into_iter().find(|(_, p)| p.path == record.path).unwrap().1;
    for (i, key) in record.section_keys.iter().enumerate() {
        let with = snap.section_with_markdown(key).unwrap();
        assert_eq!(with.markdown.as_deref(), Some(fixture.sections[i].markdown.as_str()));
        assert_eq!(with.text, fixture.sections[i].text);
    }
    assert_eq!(section.anchor.as_deref(), Some("sql-createindex-concurrently"));
    assert_eq!(section.breadcrumb, vec!["CREATE INDEX".to_string()]);
    assert_eq!(section.page_path, record.path);
    assert!(section.key.len() == 16 && section.key.bytes().all(|b| b.is_ascii_hexdigit()));
    assert!(snap.page(ZH, "/postgresql/sql-createindex").is_none());
    assert!(snap.section("0000000000000000").is_none());

    let texts = snap.page_texts(EN, &["/postgresql/sql-select", "/nope", "/postgresql/indexes-intro"]);
    let got: Vec<&str> = texts.iter().map(|t| t.0.as_str()).collect();
    assert_eq!(got, ["/postgresql/sql-select", "/postgresql/indexes-intro"]);
    assert_eq!(texts[0].1, "SELECT");
}

// ---- ranking ---------------------------------------------------------------

#[test]
fn section_markdown_is_read_from_its_page_or_kept_when_it_is_not_a_slice() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    let sliced = page(
        "/a",
        "A",
        &[(None, "A", "alpha 创建索引"), (Some("b"), "B", "beta"), (Some("c"), "C", "")],
        &[],
    );
    // Sections whose Markdown the page's does not hold in order.
    let mut own = page("/o", "O", &[(None, "O", "one"), (Some("t"), "T", "two")], &[]);
    own.markdown = format!("{}\n\n{}", own.sections[1].markdown, "# O\n\nchanged\n");
    for p in [&sliced, &own] {
        writer.add_page(EN, p).unwrap();
    }
    writer.commit("g").unwrap();
    let snap = index.snapshot();
    for p in [&sliced, &own] {
        let record = snap.page(EN, &p.path).unwrap();
        assert_eq!(record.markdown, p.markdown);
        for (i, key) in record.section_keys.iter().enumerate() {
            let got = snap.section_with_markdown(key).unwrap().markdown;
            assert_eq!(got.as_deref(), Some(p.sections[i].markdown.as_str()), "{} section {i}", p.path);
        }
    }
}

#[test]
fn editions_filter_results() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let en = search(&index, "vacuum", &[EN], 0, 50);
    assert_eq!(en.total, 30);
    assert!(en.hits.iter().all(|h| h.edition == EN));
    let other = search(&index, "vacuum", &[OTHER], 0, 50);
    assert_eq!(paths(&other), ["/other/vacuum"]);
    assert_eq!(search(&index, "vacuum", &[EN, OTHER], 0, 50).total, 31);
    assert_eq!(search(&index, "vacuum", &[], 0, 50).total, 0);
}

#[test]
fn every_word_first_then_most_words() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let out = search(&index, "quokka wombat numbat", &[TIERS], 0, 20);
    // Tier 1: every word; tier 2: two of three; "one" has only one word.
    assert_eq!(out.total, 3);
    assert_eq!(
        &paths(&out)[..2].iter().collect::<BTreeSet<_>>(),
        &["/tiers/all", "/tiers/apart"]
            .iter()
            .map(|s| s.to_string())
            .collect::<BTreeSet<_>>()
            .iter()
            .collect()
    );
    assert_eq!(paths(&out)[2], "/tiers/two");
    // A page of tier 1 only still counts tier 2: one list at any page size.
    let one = search(&index, "quokka wombat numbat", &[TIERS], 0, 1);
    assert_eq!(one.total, 3);
    assert_eq!(paths(&one), paths(&out)[..1]);
}

#[test]
fn phrases_and_exclusions_are_strict() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let out = search(&index, "\"quokka wombat\"", &[TIERS], 0, 20);
    assert_eq!(
        paths(&out).into_iter().collect::<BTreeSet<_>>(),
        ["/tiers/all", "/tiers/two"].map(String::from).into()
    );
    let out = search(&index, "quokka NOT numbat", &[TIERS], 0, 20);
    assert_eq!(
        paths(&out).into_iter().collect::<BTreeSet<_>>(),
        ["/tiers/one", "/tiers/two"].map(String::from).into()
    );
    // Tier 1 has both words apart; tier 2 one of them; never the phrase.
    let out = search(&index, "quokka wombat -\"quokka wombat\"", &[TIERS], 0, 20);
    assert_eq!(paths(&out), ["/tiers/apart", "/tiers/one"]);
}

#[test]
fn a_page_without_a_top_is_found_by_its_title_and_description() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    // A Markdown page titled in its frontmatter that opens with a heading:
    // its first section stands for it. Another page repeats the words.
    let mut command = page(
        "/cli/widget-install",
        "widget-install",
        &[(Some("synopsis"), "Synopsis", "widget add <spec>"), (Some("options"), "Options", "--save")],
        &[],
    );
    command.description = Some("Put a gadget in place".into());
    let guide = page(
        "/cli/scripts",
        "Scripts",
        &[(
            None,
            "Scripts",
            "Scripts run around each widget install: a widget install runs the install scripts.",
        )],
        &[],
    );
    writer.add_page("cli@1/en", &command).unwrap();
    writer.add_page("cli@1/en", &guide).unwrap();
    writer.commit("").unwrap();
    for query in ["widget-install", "widget install", "put a gadget in place"] {
        let out = search(&index, query, &["cli@1/en"], 0, 10);
        assert_eq!(out.hits[0].path, "/cli/widget-install", "{query}: {:?}", paths(&out));
        assert_eq!(out.hits[0].anchor.as_deref(), Some("synopsis"), "{query}");
        assert_eq!(out.hits[0].title, "Synopsis", "{query}");
    }
}

#[test]
fn a_member_named_with_another_qualifier_is_found_by_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    // The method is declared in a module the class includes; another page
    // only mentions a cookie.
    let helpers = page(
        "/rack/Rack/Response/Helpers",
        "Module: Rack::Response::Helpers",
        &[(None, "Module: Rack::Response::Helpers", "Helpers for responses: sets a header.")],
        &["Rack::Response::Helpers#set_cookie"],
    );
    let session =
        page("/rack/Rack/Session", "Sessions", &[(None, "Sessions", "Keeps the session in a cookie.")], &[]);
    writer.add_page("rack@2/en", &helpers).unwrap();
    writer.add_page("rack@2/en", &session).unwrap();
    writer.commit("").unwrap();
    let out = search(&index, "Rack::Response#set_cookie", &["rack@2/en"], 0, 10);
    assert_eq!(
        paths(&out).first().map(String::as_str),
        Some("/rack/Rack/Response/Helpers"),
        "{:?}",
        paths(&out)
    );
}

#[test]
fn a_page_titled_by_the_query_comes_before_other_pages_sections_so_titled() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    // The page about the function, and two pages each with a section of
    // that title saying its name more often, in shorter text.
    let function = page(
        "/api/generate-params",
        "generateParams",
        &[(
            None,
            "generateParams",
            "The function returns the params each route is built with, at build time.",
        )],
        &[],
    );
    writer.add_page("api@1/en", &function).unwrap();
    for name in ["blocking-route", "wrong-context"] {
        let message = page(
            &format!("/messages/{name}"),
            "A message",
            &[
                (None, "A message", "Why this error occurred."),
                (
                    Some("generateparams"),
                    "generateParams",
                    "Use generateParams; generateParams gives params.",
                ),
            ],
            &[],
        );
        writer.add_page("api@1/en", &message).unwrap();
    }
    writer.commit("").unwrap();
    let out = search(&index, "generateParams", &["api@1/en"], 0, 10);
    assert_eq!(
        paths(&out)[..3],
        ["/api/generate-params", "/messages/blocking-route", "/messages/wrong-context"]
    );
}

#[test]
fn a_heading_with_no_text_shows_the_first_text_below_it() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    // A manual page's title above its NAME section, with no description.
    let man = page(
        "/man/gadget.1",
        "gadget(1)",
        &[(None, "gadget(1)", ""), (Some("name"), "NAME", "gadget - report the free space of a gadget")],
        &["gadget"],
    );
    writer.add_page("man@1/en", &man).unwrap();
    writer.commit("").unwrap();
    let out = search(&index, "gadget", &["man@1/en"], 0, 10);
    let top = out.hits.iter().find(|h| h.anchor.is_none()).expect("the page's top");
    assert_eq!(top.snippet, "gadget - report the free space of a gadget", "{:?}", out.hits);
    assert!(top.highlights.contains(&[0, 6]), "{:?}", top.highlights);
}

#[test]
fn words_found_together_rank_above_words_scattered() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    // The scattered section is the shortest (BM25 alone ranks it first);
    // the others hold the two words side by side, or reversed and two
    // positions apart.
    for (path, text) in [
        ("/near/scattered", "platypus swims in rivers of eastern australia at night while the echidna digs"),
        (
            "/near/together",
            "in rivers of eastern australia at night the platypus echidna pair swims and digs far",
        ),
        (
            "/near/reversed",
            "in rivers of eastern australia at night an echidna and platypus swim and dig far",
        ),
    ] {
        writer.add_page("near@1/en", &page(path, "Animals", &[(None, "Animals", text)], &[])).unwrap();
    }
    writer.commit("").unwrap();
    for query in ["platypus echidna", "where do a platypus and an echidna live in australia"] {
        let out = search(&index, query, &["near@1/en"], 0, 10);
        let found = paths(&out);
        assert_eq!(found.len(), 3, "{query}");
        assert_eq!(found[2], "/near/scattered", "{query}: {found:?}");
    }
}

/// An index of one edition whose pages each hold one section, titled
/// `title`, with the given paths and texts.
fn one_section_pages(dir: &Path, edition: &str, title: &str, texts: &[(String, String)]) -> Index {
    let index = Index::open(dir).unwrap();
    let mut writer = index.writer().unwrap();
    for (path, text) in texts {
        writer.add_page(edition, &page(path, title, &[(None, title, text)], &[])).unwrap();
    }
    writer.commit("").unwrap();
    index
}

#[test]
fn scores_fall_down_the_list_across_its_parts() {
    let dir = tempfile::tempdir().unwrap();
    // The long section holds both words once (tier 1, a low BM25); the short
    // ones hold one of them (tier 2, a high BM25 of its own).
    let filler = "other words about something else entirely ".repeat(200);
    let texts: Vec<(String, String)> = vec![
        ("/parts/both".into(), format!("{filler} vacuum freeze {filler}")),
        ("/parts/one".into(), "freeze freeze freeze".into()),
        ("/parts/once".into(), "freeze and a few more words".into()),
    ];
    let index = one_section_pages(dir.path(), "parts@1/en", "Notes", &texts);
    let found = search(&index, "vacuum freeze", &["parts@1/en"], 0, 10);
    assert_eq!(paths(&found), ["/parts/both", "/parts/one", "/parts/once"]);
    assert!(found.hits[0].score >= found.hits[1].score, "{:?}", found.hits);
    // The later part keeps the differences of its own scores.
    assert!(found.hits[1].score > found.hits[2].score, "{:?}", found.hits);
    // A page further down shows the same scores as the one list.
    let second = search(&index, "vacuum freeze", &["parts@1/en"], 1, 2);
    assert_eq!(second.hits[0].score, found.hits[1].score);
    assert_eq!(second.hits[1].score, found.hits[2].score);
}

#[test]
fn a_chinese_sentences_bigrams_across_word_edges_weigh_less_than_its_words() {
    let dir = tempfile::tempdir().unwrap();
    // 取消另外会话 is written without spaces: 消另 and 外会 stand across
    // the edges of 取消 / 另外 / 会话 in the query, and 消另 is rare (另 is
    // common, always in 另外), so BM25 alone would rank the short decoy,
    // holding as many of the query's bigrams, first.
    let mut texts: Vec<(String, String)> = vec![
        ("/edge/target".into(), "在这里取消这个会话，然后重新连接到服务器并再次登录".into()),
        ("/edge/decoy".into(), "撤消另外".into()),
    ];
    for i in 0..12 {
        texts.push((format!("/edge/other{i}"), format!("另外的设置第{i}项")));
    }
    for i in 0..3 {
        texts.push((format!("/edge/session{i}"), format!("会话的设置与取消操作，一个例子第{i}项")));
    }
    let index = one_section_pages(dir.path(), "edge@1/zh-Hans", "设置", &texts);
    let found = paths(&search(&index, "取消另外会话", &["edge@1/zh-Hans"], 0, 10));
    let at = |p: &str| found.iter().position(|f| f == p);
    assert!(at("/edge/target").is_some() && at("/edge/target") < at("/edge/decoy"), "{found:?}");
}

#[test]
fn a_chinese_determiner_and_its_measure_word_need_not_match() {
    let dir = tempfile::tempdir().unwrap();
    // 每次 (each time) says nothing about the answer, as `each` would not:
    // the section on not typing the password comes before one that says
    // 每次 often but nothing of passwords.
    let texts: Vec<(String, String)> = vec![
        ("/pass/file".into(), "把密码保存在文件里，连接时就不必输入密码。".into()),
        ("/pass/decoy".into(), "每次启动都要检查，每次都要等待，每次都要重来。".into()),
    ];
    let index = one_section_pages(dir.path(), "pass@1/zh-Hans", "连接", &texts);
    let found = paths(&search(&index, "每次都要输入密码", &["pass@1/zh-Hans"], 0, 10));
    assert_eq!(found.first().map(String::as_str), Some("/pass/file"), "{found:?}");
}

#[test]
fn a_chinese_run_of_several_words_ranks_as_a_question() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    // 创建复制槽 is three words (创建 / 复制 / 槽) written without spaces, as
    // "create replication slot" is three: the section about replication
    // slots and how to create one comes before the notes that hold the five
    // chars together once, among other words.
    let mut texts: Vec<(String, String, String)> = vec![(
        "/slot/slots".into(),
        "复制槽".into(),
        "复制槽提供了一种自动的方法。可以用函数创建一个复制槽，也可以删除一个复制槽。复制槽在服务器重启后保留。".into(),
    )];
    for i in 0..3 {
        texts.push((
            format!("/slot/notes{i}"),
            "备注".into(),
            format!("订阅的备注{i}：如果连接失败，创建复制槽的步骤会被跳过，之后需要手工处理订阅的其他设置和权限问题。"),
        ));
    }
    for i in 0..12 {
        texts.push((format!("/slot/other{i}"), "设置".into(), format!("创建复制所需的设置第{i}项")));
    }
    for (path, title, text) in &texts {
        writer.add_page("slot@1/zh-Hans", &page(path, title, &[(None, title, text)], &[])).unwrap();
    }
    writer.commit("").unwrap();
    let found = paths(&search(&index, "创建复制槽", &["slot@1/zh-Hans"], 0, 10));
    assert_eq!(found.first().map(String::as_str), Some("/slot/slots"), "{found:?}");
    assert!(found.len() >= 4 && found[1..4].iter().all(|f| f.starts_with("/slot/notes")), "{found:?}");
}

#[test]
fn a_chinese_run_met_by_chance_is_not_one_word() {
    let dir = tempfile::tempdir().unwrap();
    // In 开机时怎么选择从U盘启动 the runs 选择从 (选择 + 从) and 盘启动 (U盘 +
    // 启动) are two words each, met by chance: the library writes them,
    // but in a sliver of the sections holding 选择 or 启动. Taken as one
    // word each, they would leave the section on choosing the boot device,
    // which holds the question's words apart, out of the results.
    let mut texts: Vec<(String, String)> = vec![
        (
            "/boot/device".into(),
            "多数固件允许在引导时调出菜单，选择本次所用的设备，这样可以从 U 盘启动一次。".into(),
        ),
        ("/boot/power".into(), "开机后等待一段随机时间。".into()),
    ];
    for i in 0..2 {
        texts.push((format!("/boot/mirror{i}"), format!("可以选择从镜像站点下载第{i}个映像。")));
        texts.push((format!("/boot/disk{i}"), format!("硬盘启动的第{i}种方式。")));
    }
    for i in 0..20 {
        texts.push((format!("/boot/menu{i}"), format!("在菜单中选择第{i}项，然后启动服务。")));
    }
    let index = one_section_pages(dir.path(), "boot@1/zh-Hans", "引导", &texts);
    let found = paths(&search(&index, "开机时怎么选择从U盘启动", &["boot@1/zh-Hans"], 0, 10));
    assert_eq!(found.first().map(String::as_str), Some("/boot/device"), "{found:?}");
}

#[test]
fn a_question_most_of_whose_words_few_sections_hold_also_finds_those_holding_some() {
    // 隨身碟裡的中文檔名掛載後變成亂碼怎麼辦 (the USB stick's Chinese file
    // names come out garbled once mounted): the section answering it says
    // 掛載 and 檔名 but not 隨身碟 or 亂碼, so it holds too few of the
    // question's words; two sections hold most of them.
    let build = |dir: &Path, strict: usize| {
        let mut texts: Vec<(String, String)> = vec![(
            "/usb/encoding".into(),
            "掛載檔案系統時要給檔名指定編碼選項，否則非 ASCII 的檔名會出錯。".into(),
        )];
        for i in 0..strict {
            texts.push((
                format!("/usb/garbled{i}"),
                format!("隨身碟的中文說明變成亂碼時，請重新下載第{i}份。"),
            ));
        }
        // Neither of its words is rare: it is not found as the holder of
        // the rarest one.
        for i in 0..20 {
            let word = if i % 2 == 0 { "檔名規則" } else { "掛載方式" };
            texts.push((format!("/usb/other{i}"), format!("第{i}個網路介面的{word}。")));
        }
        one_section_pages(dir, "debref@1/zh-Hant", "說明", &texts)
    };
    let question = "隨身碟裡的中文檔名掛載後變成亂碼怎麼辦";
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), 2);
    let found = search(&index, question, &["debref@1/zh-Hant"], 0, 10);
    let found_paths = paths(&found);
    // Found, after those holding most of the words, before those holding
    // one, and counted.
    assert_eq!(found_paths.iter().position(|p| p == "/usb/encoding"), Some(2), "{found_paths:?}");
    assert_eq!(found.total, 23, "{found_paths:?}");
    // Where enough sections hold most of the words, those are the answers.
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), 10);
    let found = search(&index, question, &["debref@1/zh-Hant"], 0, 20);
    assert_eq!(found.total, 10, "{:?}", paths(&found));
}

#[test]
fn a_pasted_message_finds_the_section_quoting_it() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    let filler = "Each answer below names the setting involved and the release that changed it. ".repeat(12);
    let faq = format!(
        "{filler} My code raises RuntimeWarning: DateTimeField Event.start received a naive datetime \
         (2012-01-01 00:00:00) while time zone support is active. Give the field an aware datetime. {filler}"
    );
    let pages = [
        (
            "/msg/field",
            "DateTimeField",
            "A date and time, stored as a datetime instance.",
            vec!["DateTimeField"],
        ),
        ("/msg/faq", "Troubleshooting", faq.as_str(), vec![]),
        (
            "/msg/aware",
            "Naive and aware datetime objects",
            "A naive datetime has no time zone. When time zone support is active, aware datetime objects are stored.",
            vec![],
        ),
        (
            "/msg/warnings",
            "RuntimeWarning",
            "RuntimeWarning is a warning about dubious runtime behaviour.",
            vec!["RuntimeWarning"],
        ),
    ];
    for (path, title, text, symbols) in &pages {
        writer.add_page("msg@1/en", &page(path, title, &[(None, title, text)], symbols)).unwrap();
    }
    writer.commit("").unwrap();
    let query = "RuntimeWarning: DateTimeField received a naive datetime while time zone support is active";
    let found = paths(&search(&index, query, &["msg@1/en"], 0, 10));
    assert_eq!(found.first().map(String::as_str), Some("/msg/faq"), "{found:?}");
    // Naming the field alone still finds its definition first.
    let found = paths(&search(&index, "DateTimeField naive datetime", &["msg@1/en"], 0, 10));
    assert_eq!(found.first().map(String::as_str), Some("/msg/field"), "{found:?}");
}

#[test]
fn a_question_needs_half_the_words_its_editions_hold() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    // Another edition writes all three words; the one searched writes only
    // `lintian`: the question asks for half of that one word, not for two
    // of three words the edition could never match together.
    for i in 0..30 {
        let path = format!("/b/note{i}");
        writer
            .add_page(
                "b@1/en",
                &page(&path, "Note", &[(None, "Note", "Each lintian override is listed.")], &[]),
            )
            .unwrap();
    }
    let text = "A falsepositive is reported.";
    writer.add_page("b@1/en", &page("/b/false", "False", &[(None, "False", text)], &[])).unwrap();
    let text = "Run lintian to check the package.";
    writer.add_page("a@1/en", &page("/a/lint", "Checking", &[(None, "Checking", text)], &[])).unwrap();
    for i in 0..10 {
        let path = format!("/a/other{i}");
        let text = "Build the package with debuild.";
        writer.add_page("a@1/en", &page(&path, "Building", &[(None, "Building", text)], &[])).unwrap();
    }
    writer.commit("").unwrap();
    let found = paths(&search(&index, "override lintian falsepositive", &["a@1/en"], 0, 10));
    assert_eq!(found, ["/a/lint"]);
    // Where the edition holds two of the words, a section needs both.
    let found = paths(&search(&index, "override lintian falsepositive", &["b@1/en"], 0, 50));
    assert_eq!(found.len(), 31, "{found:?}");
}

#[test]
fn a_word_the_searched_edition_translates_is_looked_up_in_its_twin() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    // Each edition in a commit (and so a segment) of its own: a page on
    // locks (lead, advisory locks, deadlocks), its pages, then forty of one
    // other page's text.
    let write = |edition: &str, locking: Page, pages: &[(&str, &str, &str)], other: (&str, &str, &str)| {
        let mut writer = index.writer().unwrap();
        writer.add_page(edition, &locking).unwrap();
        let (prefix, title, text) = other;
        let others: Vec<String> = (0..40).map(|i| format!("{prefix}/other{i}")).collect();
        for (path, title, text) in
            pages.iter().copied().chain(others.iter().map(|p| (p.as_str(), title, text)))
        {
            writer.add_page(edition, &page(path, title, &[(None, title, text)], &[])).unwrap();
        }
        writer.commit("").unwrap();
    };
    let en_locking = [
        (None, "Explicit Locking", "PostgreSQL provides various lock modes."),
        (
            Some("ADVISORY-LOCKS"),
            "Advisory Locks",
            "Advisory locks have a meaning defined by the application.",
        ),
        (Some("DEADLOCKS"), "Deadlocks", "The error deadlock detected aborts one of the transactions."),
    ];
    write(
        "t@1/en",
        page("/t/locking", "Explicit Locking", &en_locking, &[]),
        &[("/t/vacuum", "VACUUM", "VACUUM reclaims storage occupied by dead tuples.")],
        ("/t", "Settings", "A setting of the server."),
    );
    let zh_locking = [
        (None, "显式锁定", "PostgreSQL提供了多种锁模式。"),
        (Some("ADVISORY-LOCKS"), "顾问锁", "顾问锁的含义由应用定义。"),
        (Some("DEADLOCKS"), "死锁", "显式锁定可能导致死锁，系统会中断其中一个事务。"),
    ];
    write(
        "t@1/zh-Hans",
        page("/zh-Hans/t/locking", "显式锁定", &zh_locking, &[]),
        &[
            ("/zh-Hans/t/errors", "重试", "出现错误时应该重试，避免丢失数据。出现这种错误的事务必须重试。"),
            ("/zh-Hans/t/vacuum", "VACUUM", "VACUUM 回收死元组占用的存储空间，出现错误时停止。"),
        ],
        ("/zh-Hans/t", "设置", "服务器的一个设置。"),
    );
    let twins = [Twin {
        edition: "t@1/en".into(),
        prefix: "/t".into(),
        scope_edition: "t@1/zh-Hans".into(),
        scope_prefix: "/zh-Hans/t".into(),
    }];
    let editions = vec!["t@1/zh-Hans".to_string()];
    let ask = |text: &str, twins: &[Twin]| {
        let query = parse_query(text).unwrap();
        paths(&index.snapshot().search(&SearchRequest { twins, ..request(&query, &editions) }))
    };
    // The Chinese edition writes 死锁 for deadlock: without its twin the
    // question finds the page holding its other words.
    let question = "出现“deadlock detected”错误是为什么";
    assert_eq!(ask(question, &[]).first().map(String::as_str), Some("/zh-Hans/t/errors"));
    assert_eq!(ask(question, &twins).first().map(String::as_str), Some("/zh-Hans/t/locking"));
    // A few keywords too: the twin's page need not hold the English word.
    assert_eq!(ask("避免 deadlock", &[]).first().map(String::as_str), Some("/zh-Hans/t/errors"));
    assert_eq!(ask("避免 deadlock", &twins).first().map(String::as_str), Some("/zh-Hans/t/locking"));
    // The word alone, which no section of the searched edition holds: the
    // section at the place of the twin's comes first.
    assert!(ask("deadlock", &[]).is_empty());
    let query = parse_query("deadlock").unwrap();
    let found = index.snapshot().search(&SearchRequest { twins: &twins, ..request(&query, &editions) });
    let first = found.hits.first().map(|h| (h.path.as_str(), h.anchor.as_deref()));
    assert_eq!(first, Some(("/zh-Hans/t/locking", Some("DEADLOCKS"))), "{:?}", found.hits);
    // A name both editions write is searched as always.
    let named = "出现VACUUM错误是为什么";
    assert_eq!(ask(named, &twins), ask(named, &[]));
    assert_eq!(ask(named, &twins).first().map(String::as_str), Some("/zh-Hans/t/vacuum"));
}

#[test]
fn one_pages_sections_do_not_fill_the_top() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    // Each section of "big" matches a little better than "small" does.
    let strong = "the kangaroo and the wallaby graze";
    let big = page(
        "/crowd/big",
        "Big",
        &[(None, "Lead", strong), (Some("b"), "Second", strong), (Some("c"), "Third", strong)],
        &[],
    );
    let small =
        page("/crowd/small", "Small", &[(None, "Lead", "the kangaroo and the wallaby graze all day")], &[]);
    for p in [&big, &small] {
        writer.add_page("crowd@1/en", p).unwrap();
    }
    writer.commit("").unwrap();
    let out = search(&index, "kangaroo wallaby", &["crowd@1/en"], 0, 10);
    // Every section is still listed; the other page comes second.
    assert_eq!(paths(&out), ["/crowd/big", "/crowd/small", "/crowd/big", "/crowd/big"]);
    // Another edition, in a segment of its own, with its pages at the same
    // places and a little weaker (a word longer): each page of each
    // edition is told apart, so each one's lead comes before any repeat.
    let mut writer = index.writer().unwrap();
    for p in [&big, &small] {
        let path = p.path.replace("/crowd/", "/herd/");
        let sections =
            p.sections.iter().map(|s| Section { text: format!("{} here", s.text), ..s.clone() }).collect();
        writer.add_page("crowd@2/en", &Page { path, sections, ..p.clone() }).unwrap();
    }
    writer.commit("").unwrap();
    let out = search(&index, "kangaroo wallaby", &["crowd@1/en", "crowd@2/en"], 0, 10);
    let found = paths(&out);
    assert_eq!(found[..4], ["/crowd/big", "/herd/big", "/crowd/small", "/herd/small"], "{found:?}");
}

#[test]
fn exact_symbol_ranks_first() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    for query in ["create index", "CREATE  INDEX", "\"create index\""] {
        let out = search(&index, query, &[EN], 0, 5);
        assert_eq!(out.hits[0].path, "/postgresql/sql-createindex", "{query}");
        assert_eq!(out.hits[0].anchor, None, "{query}");
    }
    let out = search(&index, "create index", &[ZH], 0, 5);
    assert_eq!(out.hits[0].path, "/zh-Hans/postgresql/sql-createindex");
}

#[test]
fn a_qualified_names_last_part_alone_finds_its_definition() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    let pages = [
        page(
            "/python/library/sys",
            "sys — System-specific parameters and functions",
            &[(None, "sys", "Set the maximum depth of the Python interpreter stack to limit.")],
            &["sys.setrecursionlimit"],
        ),
        page(
            "/python/library/pickle",
            "pickle — Python object serialization",
            &[(None, "pickle", "Deep objects need setrecursionlimit: raise it with setrecursionlimit.")],
            &[],
        ),
        page(
            "/python/library/io",
            "io — Core tools for working with streams",
            &[(None, "io", "To read a file line by line, loop over the file object.")],
            &["io.TextIOBase.read", "io.IOBase.readline", "list.count"],
        ),
        page(
            "/python/tutorial/inputoutput",
            "7. Input and Output",
            &[(None, "7. Input and Output", "To read a file line by line, loop over the file object.")],
            &[],
        ),
        // `read` is a common word here, as in any manual.
        page("/python/faq", "FAQ", &[(None, "FAQ", "Read this first.")], &[]),
        page("/python/glossary", "Glossary", &[(None, "Glossary", "A read-only view.")], &[]),
        page("/python/howto", "HOWTOs", &[(None, "HOWTOs", "Read more HOWTOs.")], &[]),
    ];
    for p in &pages {
        writer.add_page("python@3/en", p).unwrap();
    }
    writer.commit("g1").unwrap();
    for query in ["setrecursionlimit", "sys.setrecursionlimit", "SetRecursionLimit"] {
        let out = search(&index, query, &["python@3/en"], 0, 5);
        assert_eq!(out.hits[0].path, "/python/library/sys", "{query}: {:?}", paths(&out));
    }
    // A question's plain words that are also some method's last part
    // (`read`) name nothing: the page declaring `io.TextIOBase.read` scores
    // no more than the tutorial saying the same words.
    let out = search(&index, "how to read a file line by line", &["python@3/en"], 0, 5);
    let score = |path: &str| out.hits.iter().find(|h| h.path == path).map(|h| h.score);
    let (io, tutorial) = (score("/python/library/io"), score("/python/tutorial/inputoutput"));
    assert!(io.is_some() && io <= tutorial, "io {io:?}, tutorial {tutorial:?}");
}

/// A Javadoc member index names each method as its class writes it
/// (`ArrayUtils.contains`); a reader types it so, or with a space.
#[test]
fn a_member_named_by_its_class_and_name_apart_finds_its_definition() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    let mut arrays = page(
        "/java/ArrayUtils",
        "Class ArrayUtils",
        &[
            (None, "Class ArrayUtils", "Operations on arrays. ArrayUtils instances should not be made."),
            (
                Some("addFirst(int[],int)"),
                "addFirst",
                "ArrayUtils.addFirst([1], 0) copies the array: the new ArrayUtils array contains the element.",
            ),
            (Some("contains(int[],int)"), "contains", "Checks if the value is in the given array."),
        ],
        &["ArrayUtils"],
    );
    for (name, anchor) in
        [("ArrayUtils.addFirst", "addFirst(int[],int)"), ("ArrayUtils.contains", "contains(int[],int)")]
    {
        arrays.symbols.push(Symbol {
            name: name.into(),
            kind: "Method".into(),
            anchor: Some(anchor.into()),
            entry: None,
        });
    }
    let strings = page(
        "/java/StringUtils",
        "Class StringUtils",
        &[(None, "Class StringUtils", "Whether a string contains another; see ArrayUtils for arrays.")],
        &["StringUtils"],
    );
    for p in [&arrays, &strings] {
        writer.add_page("lang@3/en", p).unwrap();
    }
    writer.commit("g1").unwrap();
    for query in ["ArrayUtils.contains", "ArrayUtils contains", "arrayutils CONTAINS"] {
        let out = search(&index, query, &["lang@3/en"], 0, 5);
        assert_eq!(out.hits[0].anchor.as_deref(), Some("contains(int[],int)"), "{query}: {:?}", out.hits);
    }
    // Words that name no member are words.
    let out = search(&index, "string contains", &["lang@3/en"], 0, 5);
    assert_eq!(out.hits[0].path, "/java/StringUtils", "{:?}", paths(&out));
}

#[test]
fn names_written_as_calls_decorators_or_dotted_find_their_definition() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    let pages = [
        page(
            "/python/library/os.path",
            "os.path — Common pathname manipulations",
            &[(None, "os.path", "Join one or more path segments intelligently.")],
            &["os.path.join"],
        ),
        page(
            "/python/faq/programming",
            "Programming FAQ",
            &[(
                None,
                "Programming FAQ",
                "Call os.path.join() to join the parts; os.path.join() is portable.",
            )],
            &[],
        ),
        page(
            "/python/library/functions",
            "Built-in Functions",
            &[(None, "Built-in Functions", "Transform a method into a static method.")],
            &["staticmethod"],
        ),
        page(
            "/python/howto/descriptor",
            "Descriptor HowTo Guide",
            &[(
                None,
                "Descriptor HowTo Guide",
                "Write @staticmethod above the def; @staticmethod takes no self.",
            )],
            &[],
        ),
        page(
            "/postgresql/functions-datetime",
            "Delaying Execution",
            &[(None, "Delaying Execution", "pg_sleep ( double precision ) makes the session sleep.")],
            &[],
        ),
    ];
    for p in &pages {
        writer.add_page("docs@1/en", p).unwrap();
    }
    writer.commit("g1").unwrap();
    let first = |query: &str| {
        let out = search(&index, query, &["docs@1/en"], 0, 5);
        out.hits.first().map(|h| h.path.clone()).unwrap_or_else(|| format!("nothing: {:?}", paths(&out)))
    };
    for (query, expected) in [
        ("os.path.join()", "/python/library/os.path"),
        ("how does os.path.join handle absolute paths", "/python/library/os.path"),
        ("@staticmethod", "/python/library/functions"),
        // A call's arguments are an example: its name is searched.
        ("pg_sleep(5)", "/postgresql/functions-datetime"),
    ] {
        assert_eq!(first(query), expected, "{query}");
    }
    // A quoted phrase is searched as written.
    assert!(search(&index, "\"pg_sleep(5)\"", &["docs@1/en"], 0, 5).hits.is_empty());
}

#[test]
fn natural_language_questions_find_their_answer() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let out = search(&index, "how do I build an index without locking the table", &[EN], 0, 3);
    assert!(
        out.hits.iter().any(|h| h.anchor.as_deref() == Some("sql-createindex-concurrently")),
        "{:?}",
        paths(&out)
    );
    let out = search(&index, "如何在不阻塞写入的情况下创建索引", &[ZH], 0, 3);
    assert_eq!(out.hits[0].anchor.as_deref(), Some("sql-createindex-concurrently"));
}

#[test]
fn work_mem_is_one_word_and_two() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    assert_eq!(paths(&search(&index, "work_mem", &[EN], 0, 5)), ["/postgresql/runtime-config-resource"]);
    assert_eq!(
        paths(&search(&index, "WORK_MEM default", &[EN], 0, 5)),
        ["/postgresql/runtime-config-resource"]
    );
    assert_eq!(paths(&search(&index, "\"work mem\"", &[EN], 0, 5)), ["/postgresql/runtime-config-resource"]);
}

#[test]
fn last_word_as_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let editions = vec![EN.to_string()];
    let snap = index.snapshot();
    for typed in ["lockin", "concurrentl", "concurr", "Concurrently"] {
        let query = parse_query(typed).unwrap();
        let prefix = snap.search(&SearchRequest { last_word_prefix: true, ..request(&query, &editions) });
        assert_eq!(prefix.hits[0].anchor.as_deref(), Some("sql-createindex-concurrently"), "{typed}");
    }
    let query = parse_query("lockin").unwrap();
    assert!(snap.search(&request(&query, &editions)).hits.is_empty());
    // Only the last word is a prefix.
    let query = parse_query("lockin table").unwrap();
    let out = snap.search(&SearchRequest { last_word_prefix: true, ..request(&query, &editions) });
    assert!(
        out.hits.iter().all(|h| h.anchor.as_deref() != Some("sql-createindex-concurrently") || out.total > 1)
    );
}

// ---- Chinese -----------------------------------------------------------------

fn naive_sections(edition: &str, needle: &str) -> BTreeSet<(String, Option<String>)> {
    let needle = fold(needle);
    fixture_pages()
        .into_iter()
        .filter(|(e, _)| *e == edition)
        .flat_map(|(_, p)| {
            let path = p.path.clone();
            p.sections
                .into_iter()
                .filter(|s| {
                    fold(&s.text).contains(&needle)
                        || fold(&s.title).contains(&needle)
                        || s.breadcrumb.iter().any(|b| fold(b).contains(&needle))
                })
                .map(move |s| (path.clone(), s.anchor))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn chinese_substring_recall_matches_a_naive_scan() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    for needle in [
        "索引",
        "创建索引",
        "写入",
        "数据库",
        "不阻塞写入",
        "表",
        "索",
        "引",
        "一个表",
        "インデックス",
        "색인",
        "要被索引的表",
    ] {
        let want = naive_sections(ZH, needle);
        assert!(!want.is_empty(), "fixture has {needle}");
        let out = search(&index, needle, &[ZH], 0, 50);
        let got: BTreeSet<_> = out.hits.iter().map(|h| (h.path.clone(), h.anchor.clone())).collect();
        assert!(want.is_subset(&got), "{needle}: missing {:?}", want.difference(&got).collect::<Vec<_>>());
        // Tier 1 is exactly the sections holding the string.
        let first: BTreeSet<_> =
            out.hits.iter().take(want.len()).map(|h| (h.path.clone(), h.anchor.clone())).collect();
        assert_eq!(first, want, "{needle}");
    }
}

#[test]
fn one_character_chinese_query() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let out = search(&index, "索", &[ZH], 0, 50);
    assert_eq!(out.total, naive_sections(ZH, "索").len());
    for hit in &out.hits {
        assert!(!hit.highlights.is_empty());
    }
}

// ---- paging, deadline, cancel ---------------------------------------------------

#[test]
fn pages_concatenate_to_one_big_page() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let big = search(&index, "vacuum maintenance", &[EN], 0, 100);
    assert_eq!(big.total, 30);
    for size in [1, 4, 7, 30] {
        let mut all = Vec::new();
        let mut offset = 0;
        while offset < big.total {
            let page = search(&index, "vacuum maintenance", &[EN], offset, size);
            assert_eq!(page.total, big.total);
            all.extend(page.hits.iter().map(|h| h.section_key.clone()));
            offset += size;
        }
        let keys: Vec<String> = big.hits.iter().map(|h| h.section_key.clone()).collect();
        assert_eq!(all, keys, "page size {size}");
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len());
    }
    // Scores never increase down the list.
    assert!(big.hits.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(search(&index, "vacuum", &[EN], 10_000, 20).hits.is_empty());
}

#[test]
fn deadline_in_the_past_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let query = parse_query("vacuum").unwrap();
    let editions = vec![EN.to_string()];
    let past = Instant::now().checked_sub(Duration::from_secs(1)).unwrap_or_else(Instant::now);
    let out = index.snapshot().search(&SearchRequest { deadline: past, ..request(&query, &editions) });
    assert!(out.timed_out);
    assert!(!out.cancelled);
}

#[test]
fn cancel_flag_cancels() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let query = parse_query("vacuum").unwrap();
    let editions = vec![EN.to_string()];
    let cancel = Arc::new(AtomicBool::new(true));
    let out = index.snapshot().search(&SearchRequest { cancel: Some(cancel), ..request(&query, &editions) });
    assert!(out.cancelled);
    assert!(out.hits.is_empty());
}

// ---- snippets ----------------------------------------------------------------------

#[test]
fn snippets_highlight_the_matched_words() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    for (query, edition) in
        [("vacuum", EN), ("locking table", EN), ("创建索引", ZH), ("索", ZH), ("work_mem", EN)]
    {
        let out = search(&index, query, &[edition], 0, 20);
        assert!(!out.hits.is_empty(), "{query}");
        for hit in &out.hits {
            let chars: Vec<char> = hit.snippet.chars().collect();
            assert!(chars.len() <= 200);
            let mut last = 0;
            for &[a, b] in &hit.highlights {
                assert!(a >= last && a < b && b <= chars.len(), "{query}: {:?}", hit.highlights);
                last = b;
            }
        }
        assert!(out.hits.iter().any(|h| !h.highlights.is_empty()), "{query}");
    }
    let out = search(&index, "locking", &[EN], 0, 1);
    let hit = &out.hits[0];
    let chars: Vec<char> = hit.snippet.chars().collect();
    let [a, b] = hit.highlights[0];
    assert_eq!(chars[a..b].iter().collect::<String>().to_lowercase(), "locks");
}

#[test]
fn snippets_do_not_light_de_joining_two_words() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    let text = "表的大小可以用函数查看，这样做的目的是估计磁盘的用量。笔刷的参数另有说明，参考书目见附录。";
    writer.add_page("de@1/zh-Hans", &page("/de/size", "磁盘用量", &[(None, "磁盘用量", text)], &[])).unwrap();
    writer.commit("").unwrap();
    let lit = |query: &str| -> Vec<String> {
        let out = search(&index, query, &["de@1/zh-Hans"], 0, 1);
        let hit = &out.hits[0];
        let chars: Vec<char> = hit.snippet.chars().collect();
        hit.highlights.iter().map(|&[a, b]| chars[a..b].iter().collect()).collect()
    };
    // `表的` and `的大` (of a question) and `的参` (of a word) join words to
    // 的: the words are lit, not 的.
    for query in ["怎么查看表的大小", "GIMP 的参考书"] {
        let spans = lit(query);
        assert!(!spans.is_empty() && spans.iter().all(|s| !s.contains('的')), "{query}: {spans:?}");
    }
    // 目的 is a word.
    assert!(lit("目的").iter().any(|s| s == "目的"));
}

#[test]
fn repeated_searches_come_from_the_snapshot_cache_and_a_new_generation_starts_empty() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let snap = index.snapshot();
    let q = parse_query("create index").unwrap();
    let editions = vec![EN.to_string()];
    let first = snap.search(&request(&q, &editions));
    assert_eq!((snap.cached_searches(), snap.searched_after_cache_miss()), (0, 1));
    assert_eq!(snap.search(&request(&q, &editions)), first);
    assert_eq!((snap.cached_searches(), snap.searched_after_cache_miss()), (1, 1));
    // Another page or limit is another answer.
    let mut page2 = request(&q, &editions);
    page2.offset = 1;
    assert_eq!(snap.search(&page2).hits.first(), first.hits.get(1));
    assert_eq!(snap.cached_searches(), 1);
    assert_eq!(snap.search_uncached(&request(&q, &editions)), first);
    assert_eq!((snap.cached_searches(), snap.searched_after_cache_miss()), (1, 2));
    // A result cut short by the deadline is not kept.
    let other = parse_query("vacuum").unwrap();
    let mut late = request(&other, &editions);
    late.deadline = std::time::Instant::now();
    assert!(snap.search(&late).timed_out);
    assert!(!snap.search(&request(&other, &editions)).timed_out);
    assert_eq!(snap.cached_searches(), 1);

    let mut writer = index.writer().unwrap();
    writer.delete_edition(EN);
    writer.commit("g2").unwrap();
    let new = index.snapshot();
    assert!(new.search(&request(&q, &editions)).hits.is_empty());
    assert_eq!(new.cached_searches(), 0);
}

#[test]
fn search_result_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(dir.path(), "g1");
    let out = search(&index, "create index concurrently", &[EN, ZH], 0, 3);
    let view: Vec<serde_json::Value> = out
        .hits
        .iter()
        .map(|h| {
            serde_json::json!({
                "path": h.path, "anchor": h.anchor, "title": h.title, "breadcrumb": h.breadcrumb,
                "edition": h.edition, "snippet": h.snippet, "highlights": h.highlights,
            })
        })
        .collect();
    insta::assert_json_snapshot!(serde_json::json!({ "total": out.total, "hits": view }));
}

// ---- one ranked list at any page size --------------------------------------

mod paging {
    use super::*;
    use proptest::prelude::*;

    fn keys(outcome: &SearchOutcome) -> Vec<String> {
        outcome.hits.iter().map(|h| h.section_key.clone()).collect()
    }

    /// One index for every case (building it is the slow part).
    static INDEX: std::sync::LazyLock<(tempfile::TempDir, Index)> = std::sync::LazyLock::new(|| {
        let dir = tempfile::tempdir().unwrap();
        let index = build(dir.path(), "g1");
        (dir, index)
    });

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]
        /// Pages of any size concatenate to the one list, and `total` is the
        /// same on every page: the candidates never depend on the page size.
        #[test]
        fn pages_of_any_size_are_slices_of_one_list(
            query in prop_oneof![
                Just("quokka wombat numbat"),
                Just("vacuum maintenance"),
                Just("how to set up vacuum"),
                Just("create index concurrently"),
                Just("如何创建索引"),
                Just("创建索引是怎么回事"),
                Just("what does vacuum do for quokka maintenance"),
                Just("quokka NOT numbat"),
                Just("vacuum"),
            ],
            size in 1usize..12,
        ) {
            let index = &INDEX.1;
            let editions = [EN, ZH, TIERS, OTHER];
            let all = search(index, query, &editions, 0, 50);
            let mut pages = Vec::new();
            let mut offset = 0;
            while offset < all.total.min(50) {
                let page = search(index, query, &editions, offset, size);
                prop_assert_eq!(page.total, all.total, "total at offset {} size {}", offset, size);
                pages.extend(keys(&page));
                offset += size;
            }
            pages.truncate(50);
            prop_assert_eq!(pages, keys(&all));
            // The scores shown fall as the list goes down, across its parts.
            prop_assert!(all.hits.windows(2).all(|w| w[0].score >= w[1].score), "{:?}", all.hits);
        }
    }
}

// ---- substring_candidates ----------------------------------------------------------

mod substring {
    use super::*;
    use proptest::prelude::*;

    fn naive(pages: &[(String, String, String)], term: &str) -> BTreeSet<String> {
        pages
            .iter()
            .filter(|(_, title, text)| fold(title).contains(term) || fold(text).contains(term))
            .map(|(path, _, _)| path.clone())
            .collect()
    }

    fn text_strategy() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("ß".to_string()),
                Just("ẞ".to_string()),
                Just("e\u{301}".to_string()),
                Just("é".to_string()),
                Just("Straße".to_string()),
                Just("索引".to_string()),
                Just("创建".to_string()),
                Just(" ".to_string()),
                Just("\n".to_string()),
                "[a-cA-C]{1,3}",
                "[索引创建表]{1,2}",
            ],
            0..12,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        #[test]
        fn candidates_verified_equal_a_naive_scan(
            docs in proptest::collection::vec((text_strategy(), text_strategy()), 1..8),
            extra_terms in proptest::collection::vec(text_strategy(), 0..4),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let index = Index::open(dir.path()).unwrap();
            let mut writer = index.writer().unwrap();
            let mut pages = Vec::new();
            for (i, (title, text)) in docs.iter().enumerate() {
                let path = format!("/p/{i}");
                let mut p = page(&path, title, &[(None, title, text)], &[]);
                p.text = text.clone();
                writer.add_page("e@1/en", &p).unwrap();
                pages.push((path, title.clone(), text.clone()));
            }
            writer.commit("x").unwrap();
            let snap = index.snapshot();
            // Terms: substrings of the folded texts, plus free ones.
            let mut terms: Vec<String> = extra_terms.iter().map(|t| fold(t)).collect();
            for (_, title, text) in &pages {
                for s in [fold(title), fold(text)] {
                    let chars: Vec<char> = s.chars().collect();
                    for len in 1..=4.min(chars.len()) {
                        terms.push(chars[..len].iter().collect());
                        terms.push(chars[chars.len() - len..].iter().collect());
                    }
                }
            }
            for term in terms {
                let want = naive(&pages, &term);
                match snap.substring_candidates("e@1/en", &term) {
                    None => prop_assert!(term.is_empty()),
                    Some(candidates) => {
                        prop_assert!(want.is_subset(&candidates), "{term:?}: {want:?} ⊄ {candidates:?}");
                        let verified: BTreeSet<String> = pages
                            .iter()
                            .filter(|(path, _, _)| candidates.contains(path))
                            .filter(|(_, title, text)| fold(title).contains(&term) || fold(text).contains(&term))
                            .map(|(path, _, _)| path.clone())
                            .collect();
                        prop_assert_eq!(verified, want);
                    }
                }
            }
            prop_assert!(snap.substring_candidates("other@1/en", "a").is_some_and(|c| c.is_empty()));
        }
    }
}

#[test]
fn punctuation_alone_finds_the_sections_whose_symbol_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    let operators = page(
        "/postgresql/functions-string",
        "String Functions and Operators",
        &[(None, "String Functions and Operators", "text || text → text concatenates the two strings.")],
        &["||"],
    );
    let other = page("/postgresql/other", "Other", &[(None, "Other", "Two strings, || and more.")], &[]);
    writer.add_page(EN, &operators).unwrap();
    writer.add_page(EN, &other).unwrap();
    writer.commit("p").unwrap();
    // The section whose symbol it is first, then the text writing it.
    let found = search(&index, "||", &[EN], 0, 10);
    assert_eq!(paths(&found), ["/postgresql/functions-string", "/postgresql/other"]);
    assert_eq!(found.total, 2);
    // Excluding a word still applies; punctuation no section writes finds nothing.
    assert_eq!(paths(&search(&index, "|| NOT concatenates", &[EN], 0, 10)), ["/postgresql/other"]);
    assert_eq!(search(&index, "@>", &[EN], 0, 10).total, 0);
}

/// The text of each highlight of a hit.
fn lit(hit: &lectern_index::Hit) -> Vec<String> {
    let chars: Vec<char> = hit.snippet.chars().collect();
    hit.highlights.iter().map(|&[a, b]| chars[a..b].iter().collect()).collect()
}

#[test]
fn operators_in_text_are_searched_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    let casts = page(
        "/postgresql/casts",
        "Type Casts",
        &[(
            None,
            "Type Casts",
            "Write expression::type, as in SELECT '5'::integer; a rule --- and an ellipsis ... are no operators.",
        )],
        &[],
    );
    let shell = page(
        "/postgresql/start",
        "Starting the Server",
        &[(
            None,
            "Starting the Server",
            "Run postgres >logfile 2>&1 & and check $? afterwards. See section 2.1 too.",
        )],
        &[],
    );
    let rust = page(
        "/guide/vec",
        "Vectors",
        &[(None, "Vectors", "Vec::new makes an empty vector; vec new is a macro.")],
        &[],
    );
    for p in [&casts, &shell, &rust] {
        writer.add_page(EN, p).unwrap();
    }
    writer.commit("p").unwrap();
    // Punctuation alone, found in text and lit in the snippet.
    let found = search(&index, "::", &[EN], 0, 10);
    assert_eq!(paths(&found), ["/postgresql/casts", "/guide/vec"], "{found:?}");
    assert!(lit(&found.hits[0]).iter().all(|l| l == "::"), "{:?}", found.hits[0]);
    assert_eq!(lit(&found.hits[0]).len(), 2, "{:?}", found.hits[0]);
    assert_eq!(paths(&search(&index, "$?", &[EN], 0, 10)), ["/postgresql/start"]);
    // Between words, the operator is part of the phrase: `2>&1` is not `2.1`,
    // `Vec::new` not `vec new`; the words still neighbour each other.
    assert_eq!(paths(&search(&index, "2>&1", &[EN], 0, 10)), ["/postgresql/start"]);
    let vec_new = search(&index, "Vec::new", &[EN], 0, 10);
    assert_eq!(paths(&vec_new), ["/guide/vec"]);
    assert_eq!(lit(&vec_new.hits[0])[0], "Vec::new", "{:?}", vec_new.hits[0]);
    assert_eq!(paths(&search(&index, "\"expression type\"", &[EN], 0, 10)), ["/postgresql/casts"]);
    // Rules, ellipses and dashes are no operators.
    for text in ["---", "...", "--"] {
        assert!(parse_query(text).is_err() || search(&index, text, &[EN], 0, 10).total == 0, "{text}");
    }
}

/// A variable written with its sigil among other words (`local $_`) names
/// the entry defining it, as it does alone; a method called with `->`
/// (`File::Spec->catfile`) is the member of the page its qualifier titles.
#[test]
fn sigil_variables_and_arrow_calls_among_other_words_name_their_entries() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    let ed = "perl@5/en";
    let mut perlvar = page(
        "/perl/perlvar",
        "perlvar",
        &[
            (None, "perlvar", "Perl predefined variables."),
            (
                Some("General-Variables"),
                "General Variables",
                "$_ The default input and pattern-searching space.",
            ),
        ],
        &[],
    );
    perlvar.symbols.push(Symbol {
        name: "$_".into(),
        kind: "Variable".into(),
        anchor: Some("General-Variables".into()),
        entry: None,
    });
    let locale = page(
        "/perl/perllocale",
        "perllocale",
        &[(
            None,
            "perllocale",
            "Locale handling: the local locale, local settings, locales and local rules.",
        )],
        &[],
    );
    let spec = page(
        "/perl/File/Spec",
        "File::Spec",
        &[
            (None, "File::Spec", "Portably perform operations on file names."),
            (Some("catfile"), "catfile", "Concatenate one or more directory names and a filename."),
        ],
        &["File::Spec"],
    );
    let other = page(
        "/perl/File/Other",
        "File::Other",
        &[
            (None, "File::Other", "Other file things."),
            (Some("catfile"), "catfile", "Joins names its own way."),
        ],
        &["File::Other"],
    );
    for p in [perlvar, locale, spec, other] {
        writer.add_page(ed, &p).unwrap();
    }
    writer.commit("").unwrap();
    let found = search(&index, "local $_", &[ed], 0, 10);
    assert_eq!(found.hits[0].path, "/perl/perlvar", "{:?}", paths(&found));
    let found = search(&index, "File::Spec->catfile", &[ed], 0, 10);
    assert_eq!(
        (found.hits[0].path.as_str(), found.hits[0].anchor.as_deref()),
        ("/perl/File/Spec", Some("catfile")),
        "{:?}",
        paths(&found)
    );
}

/// A query in traditional characters finds a simplified edition's text
/// written in simplified ones; in an edition written in traditional
/// characters it is searched as written (`裡面` there is not `里面`, which
/// `公里面積` holds by chance).
#[test]
fn traditional_characters_find_simplified_text_but_not_in_a_traditional_edition() {
    let dir = tempfile::tempdir().unwrap();
    let index = Index::open(dir.path()).unwrap();
    let mut writer = index.writer().unwrap();
    let (hans, hant) = ("app@1/zh-Hans", "app@1/zh-Hant");
    writer
        .add_page(hans, &page("/zh-Hans/app/a", "配置", &[(None, "配置", "配置文件里面的设置。")], &[]))
        .unwrap();
    writer
        .add_page(hant, &page("/zh-Hant/app/a", "設定", &[(None, "設定", "設定檔裡面的選項。")], &[]))
        .unwrap();
    writer
        .add_page(hant, &page("/zh-Hant/app/b", "面積", &[(None, "面積", "土地的公里面積。")], &[]))
        .unwrap();
    writer.commit("").unwrap();
    let found = search(&index, "裡面的設定", &[hans], 0, 10);
    assert_eq!(paths(&found), ["/zh-Hans/app/a"]);
    let found = search(&index, "裡面", &[hant], 0, 10);
    assert_eq!(paths(&found), ["/zh-Hant/app/a"]);
}
