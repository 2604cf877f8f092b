//! One entry function per fuzz target: feeds arbitrary bytes to a parser a
//! user's input reaches and checks the invariants that must hold for every
//! input (no panic, no hang, and each target's own properties below).
//!
//! Compiled twice: by the cargo-fuzz crate in `fuzz/` (libFuzzer drives it)
//! and by `tests/fuzz_replay.rs` (every committed file of `fuzz/corpus/<target>/`
//! replayed as an ordinary test). It therefore uses only crates both have.

#![allow(unexpected_cfgs, reason = "`cfg(fuzzing)` is set by cargo-fuzz, not declared to the main workspace")]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use lectern_corpus::source::{ReadOptions, SourceFormat};
use lectern_library::{
    EditionSpec, Library, ListPagesRequest, OpenMode, ReadPageRequest, ReadSectionRequest,
    SearchPagesRequest, SearchParams,
};

/// A target's entry function.
pub type Entry = fn(&[u8]);

/// The targets, by the name of their corpus folder.
pub const TARGETS: &[(&str, Entry)] = &[
    ("stdio_framing", stdio_framing),
    ("query", query),
    ("markdown", markdown),
    ("html", html),
    ("docset", docset),
    ("docset_index", docset_index),
    ("site_config", site_config),
    ("cursor_key", cursor_key),
];

/// stdio MCP: the bytes are the program's stdin (framing, JSON-RPC decoding,
/// batches, tool arguments), with no local API running. Every line written
/// to stdout must be one JSON value (stdout carries protocol only).
pub fn stdio_framing(data: &[u8]) {
    let bytes = stdio_framing_output(data);
    for line in bytes.split('\n').filter(|l| !l.is_empty()) {
        let value: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
        assert!(value.is_object() || value.is_array(), "stdout line is not a message: {value}");
    }
}

/// Runs `lectern mcp`'s loop on `data` as stdin; returns its stdout.
pub fn stdio_framing_output(data: &[u8]) -> String {
    let out = Shared::default();
    let mut builder = tokio::runtime::Builder::new_current_thread();
    builder.enable_all();
    // Under libFuzzer, skip the program's short EOF grace sleep (test-util).
    #[cfg(fuzzing)]
    builder.start_paused(true);
    let runtime = builder.build().expect("runtime");
    let user_data = no_server_dir().to_path_buf();
    let writer = out.clone();
    let data = data.to_vec();
    runtime.block_on(async move {
        // stdin stays open a moment after the bytes, as a client's would, so
        // requests are answered before EOF cancels what is still in flight.
        let (mut client, input) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            let _ = client.write_all(&data).await;
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        });
        let _ = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            lectern_mcp::serve(input, writer, user_data),
        )
        .await;
    });
    if std::env::var_os("LECTERN_FUZZ_SHOW").is_some() {
        eprintln!("{}", String::from_utf8_lossy(&out.0.lock().expect("output")));
    }
    runtime.shutdown_timeout(std::time::Duration::from_millis(10));
    let bytes = out.0.lock().expect("output").clone();
    String::from_utf8(bytes).expect("stdout is UTF-8")
}

/// The search front end: the query parser alone, then a full ranked search
/// (version prefix, filters, scope) over a small library. A search either
/// answers within its limit or fails with a typed error.
pub fn query(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = lectern_index::parse_query(&text);
    let lib = small_library();
    let params = SearchParams { text: text.into_owned(), limit: Some(5), ..SearchParams::default() };
    if let Ok(r) = lib.search(&params, Some(std::time::Duration::from_secs(5)), None) {
        assert!(r.hits.len() <= 5);
        for hit in &r.hits {
            let len = hit.snippet.chars().count();
            for [a, b] in &hit.highlights {
                assert!(a <= b && *b <= len, "highlight {a}..{b} outside a snippet of {len} chars");
            }
        }
    }
}

/// Frontmatter and Markdown ingestion: split + parse the frontmatter, then the
/// whole page. A page keeps its body verbatim and always has a section.
pub fn markdown(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let split = lectern_corpus::frontmatter::split(text);
        if let Some(yaml) = split.yaml {
            let _ = lectern_corpus::frontmatter::parse(yaml);
        }
    }
    if let Ok(page) = lectern_corpus::markdown_to_page(data, "guide/page.md", "/app") {
        assert!(page.path.starts_with("/app"), "path {:?} outside its prefix", page.path);
        assert!(!page.sections.is_empty(), "a page without sections");
    }
}

/// HTML manual conversion (DocBook XHTML and generic HTML).
pub fn html(data: &[u8]) {
    if let Ok(page) = lectern_corpus::html_to_page(data, "ref/page.html", "/postgresql") {
        assert!(page.path.starts_with("/postgresql"), "path {:?} outside its prefix", page.path);
        assert!(!page.sections.is_empty(), "a page without sections");
    }
}

/// Dash docset reading. The bytes, split at NUL, are: `Info.plist`, an HTML
/// page, then (name, type, path) index rows; byte 0 picks the index layout
/// (`searchIndex` or Core Data `ZTOKEN`).
pub fn docset(data: &[u8]) {
    let Some((&layout, rest)) = data.split_first() else { return };
    let mut parts = rest.split(|&b| b == 0);
    let plist = parts.next().unwrap_or_default();
    let page = parts.next().unwrap_or_default();
    let cells: Vec<String> = parts.map(|p| String::from_utf8_lossy(p).into_owned()).collect();
    let rows: Vec<&[String]> = cells.chunks(3).take(200).collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let docset = dir.path().join("Fuzz.docset");
    let resources = docset.join("Contents/Resources");
    std::fs::create_dir_all(resources.join("Documents")).expect("mkdir");
    std::fs::write(docset.join("Contents/Info.plist"), plist).expect("write");
    std::fs::write(resources.join("Documents/index.html"), page).expect("write");
    let conn = rusqlite::Connection::open(resources.join("docSet.dsidx")).expect("sqlite");
    let cell = |row: &[String], i: usize| row.get(i).cloned().unwrap_or_default();
    if layout % 2 == 0 {
        conn.execute_batch(
            "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);",
        )
        .expect("schema");
        for row in &rows {
            conn.execute(
                "INSERT INTO searchIndex(name, type, path) VALUES (?1, ?2, ?3)",
                [cell(row, 0), cell(row, 1), cell(row, 2)],
            )
            .expect("insert");
        }
    } else {
        conn.execute_batch(
            "CREATE TABLE ZTOKENTYPE(Z_PK INTEGER PRIMARY KEY, ZTYPENAME TEXT);
             CREATE TABLE ZFILEPATH(Z_PK INTEGER PRIMARY KEY, ZPATH TEXT);
             CREATE TABLE ZTOKENMETAINFORMATION(Z_PK INTEGER PRIMARY KEY, ZFILE INTEGER, ZANCHOR TEXT);
             CREATE TABLE ZTOKEN(Z_PK INTEGER PRIMARY KEY, ZTOKENNAME TEXT, ZTOKENTYPE INTEGER, ZMETAINFORMATION INTEGER);",
        )
        .expect("schema");
        for (i, row) in rows.iter().enumerate() {
            let (path, anchor) = match cell(row, 2).split_once('#') {
                Some((p, a)) => (p.to_owned(), Some(a.to_owned())),
                None => (cell(row, 2), None),
            };
            let pk = i as i64 + 1;
            conn.execute("INSERT INTO ZTOKENTYPE VALUES (?1, ?2)", rusqlite::params![pk, cell(row, 1)])
                .expect("insert");
            conn.execute("INSERT INTO ZFILEPATH VALUES (?1, ?2)", rusqlite::params![pk, path])
                .expect("insert");
            conn.execute(
                "INSERT INTO ZTOKENMETAINFORMATION VALUES (?1, ?1, ?2)",
                rusqlite::params![pk, anchor],
            )
            .expect("insert");
            conn.execute("INSERT INTO ZTOKEN VALUES (?1, ?2, ?1, ?1)", rusqlite::params![pk, cell(row, 0)])
                .expect("insert");
        }
    }
    drop(conn);
    let options = ReadOptions { format: SourceFormat::Docset, ..ReadOptions::new("/d") };
    if let Ok(ingested) = lectern_corpus::read_source(&docset, &options, &mut |_, _| {}) {
        for page in &ingested.pages {
            assert!(page.path.starts_with("/d"), "path {:?} outside its prefix", page.path);
        }
    }
}

/// Dash docset index databases: the bytes are the `docSet.dsidx` SQLite file
/// itself (any schema: views, triggers, recursive queries, corrupt pages).
/// Reading it must end within its bounds, with rows, a problem or a refusal;
/// a small budget keeps each run short.
pub fn docset_index(data: &[u8]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let docset = dir.path().join("Fuzz.docset");
    let resources = docset.join("Contents/Resources");
    std::fs::create_dir_all(resources.join("Documents")).expect("mkdir");
    std::fs::write(resources.join("Documents/index.html"), "<h1>Index</h1><p>x</p>").expect("write");
    std::fs::write(resources.join("docSet.dsidx"), data).expect("write");
    let bounds = lectern_corpus::docset::IndexBounds {
        max_rows: 10_000,
        max_operations: 20_000_000,
        deadline: std::time::Duration::from_secs(2),
    };
    let started = std::time::Instant::now();
    if let Ok(rows) = lectern_corpus::docset::read_index_bounded(&resources.join("docSet.dsidx"), &bounds) {
        assert!(rows.len() <= bounds.max_rows, "{} rows over the cap", rows.len());
        for row in &rows {
            assert!(!row.name.trim().is_empty() && row.name.len() <= 1000, "name {:?} kept", row.name);
        }
    }
    let limits = lectern_corpus::Limits { index: bounds, ..lectern_corpus::Limits::default() };
    let options = ReadOptions { format: SourceFormat::Docset, ..ReadOptions::new("/d") };
    let _ = lectern_corpus::read_source_with_limits(&docset, &options, &limits, &mut |_, _| {});
    // Twice the deadline (two reads) plus slack for the folder work.
    assert!(started.elapsed() < bounds.deadline * 2 + std::time::Duration::from_secs(3), "over the deadline");
}

/// Site config files (`lectern.toml`): any text parses or fails with a
/// located error; never a panic.
pub fn site_config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let path = Path::new("/fuzz/lectern.toml");
    match lectern_corpus::SiteConfig::parse(text, path, Path::new("/fuzz")) {
        Ok(config) => assert!(!config.default_locale.is_empty()),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// Cursors, section keys, prefixes and reading windows on a small library.
/// Byte 0 picks the call; the rest is its string argument (numbers are taken
/// from bytes 1..3). Listings stay sorted and strictly after the cursor;
/// windows stay within their limit.
pub fn cursor_key(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else { return };
    let n = |i: usize| rest.get(i).map_or(0, |&b| i64::from(b as i8) * 3);
    let arg = String::from_utf8_lossy(rest).into_owned();
    let lib = small_library();
    match which % 6 {
        0 => {
            let request = ListPagesRequest { prefix: None, limit: Some(3), cursor: Some(arg.clone()) };
            if let Ok(r) = lib.list_pages(&request) {
                assert!(r.pages.len() <= 3);
                let paths: Vec<&str> = r.pages.iter().map(|p| p.path.as_str()).collect();
                assert!(paths.windows(2).all(|w| w[0] < w[1]), "unsorted page list {paths:?}");
                assert!(paths.iter().all(|p| *p > arg.as_str()), "{paths:?} not after cursor {arg:?}");
            }
        }
        1 => {
            let request = ListPagesRequest { prefix: Some(arg), limit: Some(n(0)), cursor: None };
            let _ = lib.list_pages(&request);
        }
        2 => {
            let request = SearchPagesRequest {
                term: "e".into(),
                prefix: None,
                limit: Some(2),
                cursor: Some(arg.clone()),
            };
            if let Ok(r) = lib.search_pages(&request) {
                let paths: Vec<&str> = r.pages.iter().map(|p| p.path.as_str()).collect();
                assert!(paths.iter().all(|p| *p > arg.as_str()), "{paths:?} not after cursor {arg:?}");
            }
        }
        3 => {
            let limit = n(1);
            let request = ReadSectionRequest {
                section_key: arg,
                offset: Some(n(0)),
                limit: Some(limit),
                ..ReadSectionRequest::default()
            };
            if let Ok(r) = lib.read_section(&request) {
                assert!(r.window.content.chars().count() as i64 <= limit.max(0));
            }
        }
        4 => {
            let request =
                ReadPageRequest { path: arg, offset: Some(n(0)), limit: Some(n(1)), ..Default::default() };
            let _ = lib.read_page(&request);
        }
        _ => {
            let _ = lib.site_page(&arg);
            // A real key, read at a fuzzed window.
            let params = SearchParams { text: "index".into(), limit: Some(1), ..SearchParams::default() };
            if let Ok(r) = lib.search(&params, None, None)
                && let Some(hit) = r.hits.first()
            {
                let request = ReadSectionRequest {
                    section_key: hit.section_key.clone(),
                    offset: Some(n(0).saturating_mul(1000)),
                    limit: Some(n(1)),
                    ..ReadSectionRequest::default()
                };
                let _ = lib.read_section(&request);
            }
        }
    }
}

/// A folder where no local API runs (the stdio bridge finds no discovery files).
fn no_server_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        dir.keep().join("no-server")
    })
}

/// A small library, built once per process: PostgreSQL 18 (current, alias
/// `pg`) and 9.6 in English, 18 in zh-Hans, and an `app` wiki.
pub fn small_library() -> &'static Library {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(|| {
        let root = tempfile::tempdir().expect("tempdir").keep();
        let write = |dir: &str, file: &str, text: &str| {
            let path = root.join("src").join(dir).join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        };
        for (dir, words) in [("pg18", "eighteen"), ("pg96", "nine six"), ("pg18zh", "创建索引 不阻塞写入")] {
            write(dir, "index.md", &format!("---\ntitle: Home\n---\n# Home\n\nWelcome {words}.\n"));
            write(
                dir,
                "sql-createindex.md",
                &format!("# CREATE INDEX\n\nCREATE INDEX builds an index {words}.\n\n## Concurrently\n\nWithout locking the table; {words}.\n"),
            );
            write(dir, "guide/select.md", &format!("---\norder: 2\n---\n# SELECT\n\nSELECT reads rows. {words}\n"));
        }
        write("app", "index.md", "# App wiki\n\nHow-to pages.\n");
        let lib = Library::open(&root.join("data"), OpenMode::ReadWrite).expect("library");
        let spec = |project: &str, version: &str, locale: &str, aliases: &[&str], default: bool| EditionSpec {
            project: Some(project.into()),
            version: Some(version.into()),
            locale: Some(locale.into()),
            aliases: aliases.iter().map(|a| (*a).to_owned()).collect(),
            default,
            ..EditionSpec::default()
        };
        for (dir, s) in [
            ("pg18", spec("postgresql", "18", "en", &["pg"], true)),
            ("pg96", spec("postgresql", "9.6", "en", &["pg"], false)),
            ("pg18zh", spec("postgresql", "18", "zh-Hans", &["pg"], false)),
            ("app", spec("app", "1", "en", &[], false)),
        ] {
            lib.add(&root.join("src").join(dir), &s, &mut |_| {}, &mut |_| {}).expect("add");
        }
        lib
    })
}

/// An `AsyncWrite` into shared memory, so output can be checked after the
/// program (which owns its writer) has finished.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl tokio::io::AsyncWrite for Shared {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        self.0.lock().expect("output").extend_from_slice(buf);
        std::task::Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}
