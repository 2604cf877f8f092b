//! `lectern add` ends in bounded memory and time whatever its source.
//!
//! Contents:
//! - a generated Markdown tree of 16 MB (800 pages of 20 KB) added by the
//!   real binary: its peak RSS (VmHWM, polled from `/proc/PID/status`) stays
//!   under [`PEAK_RSS_MIB`] and every page is indexed and found. Before pages
//!   were streamed through a spool, memory grew with the tree (an 86 MB tree
//!   peaked at 734 MiB). `scripts/ingest-memory` measures larger sources.
//! - a Dash docset with [`DOCSET_ROWS`] index rows (about 90 MB of names and
//!   paths) written by the test: its peak RSS stays under
//!   [`DOCSET_PEAK_RSS_MIB`] and its symbols are found. Before the rows were
//!   parked on disk until their pages were read, 1.5 million rows peaked at
//!   780 MiB.
//! - a document over the per-file limit (a sparse 300 MB file) is refused
//!   with an error naming it, the limit and its size.
//! - an add past its deadline (`add.deadline_s`) stops with an error naming
//!   the source and the setting, changes nothing, and leaves the writer lock
//!   free for the next write.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;

use bin::{lectern, ok, run};

const PAGES: usize = 800;
const PAGE_BYTES: usize = 20_000;
/// The debug build's bound: the index writer's budget, one page and the
/// page table, with room for the allocator; held pages would pass it.
const PEAK_RSS_MIB: u64 = 140;

/// Index rows of the generated docset, spread over [`DOCSET_PAGES`] pages.
const DOCSET_ROWS: usize = 1_000_000;
const DOCSET_PAGES: usize = 100;
/// The debug build's bound for the docset: the index writer's budget and the
/// rows of one page; rows held until their pages are read would pass it.
const DOCSET_PEAK_RSS_MIB: u64 = 220;

/// Deterministic words (a small linear congruential generator).
struct Words(u64);

impl Words {
    const LIST: [&'static str; 24] = [
        "index",
        "table",
        "query",
        "column",
        "page",
        "section",
        "search",
        "install",
        "server",
        "client",
        "backup",
        "replica",
        "commit",
        "lock",
        "vacuum",
        "schema",
        "trigger",
        "function",
        "operator",
        "range",
        "cluster",
        "partition",
        "extension",
        "grant",
    ];

    fn next(&mut self) -> &'static str {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        Self::LIST[(self.0 >> 33) as usize % Self::LIST.len()]
    }
}

/// Writes `pages` Markdown pages of about `bytes` each under `dir`, each
/// with a word no other page has (`marker00042`).
fn write_tree(dir: &Path, pages: usize, bytes: usize) {
    let mut words = Words(7);
    for i in 0..pages {
        let folder = dir.join(format!("d{:03}", i / 100));
        std::fs::create_dir_all(&folder).unwrap();
        let mut page =
            format!("---\ntitle: Page {i}\n---\n\n# Page {i}\n\nmarker{i:05} opens this page.\n\n");
        let mut part = 0;
        while page.len() < bytes {
            part += 1;
            write!(page, "## Part {part}\n\n").unwrap();
            for _ in 0..80 {
                page.push_str(words.next());
                page.push(' ');
            }
            write!(page, "\n\n- see [page {}](../d000/p00000.md)\n\n", (i + part) % pages).unwrap();
        }
        std::fs::write(folder.join(format!("p{i:05}.md")), page).unwrap();
    }
}

/// The highest VmHWM (KiB) seen while `lectern ARGS` runs, and its output.
fn peak_of(user_data: &Path, args: &[&str]) -> (u64, std::process::ExitStatus, String) {
    let (out, err) = (tempfile::NamedTempFile::new().unwrap(), tempfile::NamedTempFile::new().unwrap());
    let mut child = lectern()
        .args(args)
        .arg("--user-data")
        .arg(user_data)
        .stdout(Stdio::from(out.reopen().unwrap()))
        .stderr(Stdio::from(err.reopen().unwrap()))
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let status = loop {
        if let Ok(status) = std::fs::read_to_string(&status_file)
            && let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:"))
        {
            let kib: u64 = line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0);
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // A well-formed source adds without a warning (a merge that lost a race
    // with tantivy's own once printed one on every large add).
    let stderr = std::fs::read_to_string(err.path()).unwrap();
    eprint!("{stderr}");
    assert!(!stderr.contains("WARN"), "lectern add warned:\n{stderr}");
    (peak, status, std::fs::read_to_string(out.path()).unwrap())
}

#[test]
fn adding_a_large_markdown_tree_keeps_peak_memory_bounded_and_indexes_every_page() {
    let dir = tempfile::tempdir().unwrap();
    let (source, lib) = (dir.path().join("tree"), dir.path().join("lib"));
    write_tree(&source, PAGES, PAGE_BYTES);
    let started = Instant::now();
    let args = ["add", source.to_str().unwrap(), "--project", "big", "--version", "1", "--json"];
    let (peak_kib, status, stdout) = peak_of(&lib, &args);
    assert!(status.success(), "lectern add failed: {stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report[0]["edition"]["pages"], PAGES, "{stdout}");
    eprintln!(
        "added {PAGES} pages ({} MB) in {:.1} s, peak RSS {} MiB",
        PAGES * PAGE_BYTES / 1_000_000,
        started.elapsed().as_secs_f64(),
        peak_kib / 1024
    );
    assert!(peak_kib > 0, "VmHWM was never read");
    assert!(peak_kib / 1024 < PEAK_RSS_MIB, "peak RSS {} MiB, over {PEAK_RSS_MIB} MiB", peak_kib / 1024);
    // Pages from the start, the middle and the end of the spool were indexed.
    for i in [0, PAGES / 2, PAGES - 1] {
        let hits = ok(&lib, &["search", &format!("marker{i:05}"), "--json"]);
        assert!(hits.contains(&format!("/big/d{:03}/p{i:05}", i / 100)), "marker{i:05}: {hits}");
    }
}

/// Writes a docset of [`DOCSET_PAGES`] pages whose index has [`DOCSET_ROWS`]
/// rows, row `i` naming `function_name_i` on page `i % DOCSET_PAGES`.
fn write_docset(root: &Path) {
    let resources = root.join("Contents/Resources");
    std::fs::create_dir_all(resources.join("Documents")).unwrap();
    std::fs::write(
        root.join("Contents/Info.plist"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict>\
         <key>CFBundleIdentifier</key><string>many</string>\
         <key>CFBundleName</key><string>Many</string></dict></plist>",
    )
    .unwrap();
    for p in 0..DOCSET_PAGES {
        let page = format!(
            "<html><head><title>Page {p}</title></head><body><h1>Page {p}</h1><p>marker{p:04}</p></body></html>"
        );
        std::fs::write(resources.join(format!("Documents/p{p:04}.html")), page).unwrap();
    }
    let mut db = rusqlite::Connection::open(resources.join("docSet.dsidx")).unwrap();
    db.execute_batch("CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);")
        .unwrap();
    let tx = db.transaction().unwrap();
    {
        let mut insert =
            tx.prepare("INSERT INTO searchIndex(name, type, path) VALUES (?1, 'Function', ?2)").unwrap();
        for i in 0..DOCSET_ROWS {
            let name = format!("module_{}.Namespace{i}.function_name_{i}", i % 977);
            insert.execute((name, format!("p{:04}.html#sym{i}", i % DOCSET_PAGES))).unwrap();
        }
    }
    tx.commit().unwrap();
}

#[test]
fn adding_a_docset_of_a_million_index_rows_keeps_peak_memory_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let (source, lib) = (dir.path().join("Many.docset"), dir.path().join("lib"));
    write_docset(&source);
    let started = Instant::now();
    let args = ["add", source.to_str().unwrap(), "--project", "many", "--version", "1", "--json"];
    let (peak_kib, status, stdout) = peak_of(&lib, &args);
    assert!(status.success(), "lectern add failed: {stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report[0]["edition"]["pages"], DOCSET_PAGES, "{stdout}");
    eprintln!(
        "added a docset of {DOCSET_ROWS} index rows in {:.1} s, peak RSS {} MiB",
        started.elapsed().as_secs_f64(),
        peak_kib / 1024
    );
    assert!(peak_kib > 0, "VmHWM was never read");
    assert!(
        peak_kib / 1024 < DOCSET_PEAK_RSS_MIB,
        "peak RSS {} MiB, over {DOCSET_PEAK_RSS_MIB} MiB",
        peak_kib / 1024
    );
    // Rows from the start and the end of the index joined their pages.
    for (i, page) in [(0, "p0000"), (DOCSET_PAGES * 100 + 7, "p0007")] {
        let hits =
            ok(&lib, &["search", &format!("module_{}.Namespace{i}.function_name_{i}", i % 977), "--json"]);
        assert!(hits.contains(&format!("/many/{page}")), "function_name_{i}: {hits}");
    }
}

#[test]
fn a_document_over_the_per_file_limit_is_refused_naming_it_and_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("one");
    std::fs::create_dir_all(&source).unwrap();
    // Sparse: 300 MB announced, no disk used; the size alone refuses it.
    let huge = std::fs::File::create(source.join("huge.html")).unwrap();
    huge.set_len(300 * 1024 * 1024).unwrap();
    let out =
        run(&dir.path().join("lib"), &["add", source.to_str().unwrap(), "--project", "h", "--version", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "huge.html: file is over 10485760 bytes (10 MiB, the most one document may have; this one has 314572800 bytes)"
        ),
        "{stderr}"
    );
}

#[test]
fn an_add_past_its_deadline_stops_naming_the_source_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (source, lib) = (dir.path().join("tree"), dir.path().join("lib"));
    // Enough pages that reading them takes longer than the one second allowed.
    write_tree(&source, 1_500, PAGE_BYTES);
    ok(&lib, &["config", "set", "add.deadline_s", "1"]);
    let out = run(&lib, &["add", source.to_str().unwrap(), "--project", "slow", "--version", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(source.to_str().unwrap()), "{stderr}");
    assert!(stderr.contains("stopped after"), "{stderr}");
    assert!(stderr.contains("add.deadline_s"), "{stderr}");
    assert!(!ok(&lib, &["list"]).contains("slow"), "a stopped add installed something");
    // The lock is free: the next write does not wait.
    let started = Instant::now();
    ok(&lib, &["config", "set", "add.deadline_s", "3600"]);
    assert!(started.elapsed() < Duration::from_secs(10));
}
