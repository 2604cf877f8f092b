//! Hostile sources built at test time, one test per way a source tried to
//! make ingestion hang, blow up or read outside the source: endless and
//! multiplying docset indexes, nameless rows, huge values, a malformed
//! `Info.plist`, absurdly nested HTML, a file swapped for a link while the
//! folder is read, zip and tar bombs, and temporary folders left by a killed run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use lectern_corpus::archive::{self, ArchiveKind, TEMP_PREFIX, remove_stale_temp_dirs};
use lectern_corpus::docset::IndexBounds;
use lectern_corpus::{Limits, PageError, ReadOptions, SourceError, html_to_page, read_source_with_limits};

const PLIST: &str = r#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
<key>CFBundleName</key><string>Hostile</string><key>CFBundleIdentifier</key><string>hostile</string>
</dict></plist>"#;

/// `dir/Hostile.docset` with one page and an index made by `sql`.
fn docset(dir: &Path, plist: &str, sql: &str) -> PathBuf {
    let root = dir.join("Hostile.docset");
    let docs = root.join("Contents/Resources/Documents");
    std::fs::create_dir_all(&docs).unwrap();
    std::fs::write(root.join("Contents/Info.plist"), plist).unwrap();
    std::fs::write(docs.join("index.html"), "<html><body><h1>Index</h1><p>Hello.</p></body></html>").unwrap();
    let db = rusqlite::Connection::open(root.join("Contents/Resources/docSet.dsidx")).unwrap();
    db.execute_batch(sql).unwrap();
    root
}

/// Small bounds so a test runs in a moment; `deadline` is generous so the
/// operation budget or the row cap is what trips.
fn small_bounds() -> Limits {
    Limits {
        index: IndexBounds { max_rows: 1000, max_operations: 20_000_000, deadline: Duration::from_secs(60) },
        ..Limits::default()
    }
}

fn read_with(path: &Path, limits: &Limits) -> Result<lectern_corpus::Ingested, SourceError> {
    read_source_with_limits(path, &ReadOptions::new("/h"), limits, &mut |_, _| {})
}

/// The docset was refused, naming the docset and saying `bound`.
fn assert_refused(got: Result<lectern_corpus::Ingested, SourceError>, bound: &str) {
    let err = got.expect_err("the docset is refused");
    let text = err.to_string();
    assert!(matches!(err, SourceError::DocsetRefused { .. }), "{text}");
    assert!(text.contains("Hostile.docset"), "{text}");
    assert!(text.contains(bound), "{text}");
    assert!(text.contains("allowed") || text.contains("within"), "says what is allowed: {text}");
}

const ENDLESS_NAMELESS_VIEW: &str = "CREATE VIEW searchIndex AS WITH RECURSIVE r(n) AS \
     (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT NULL AS name, 'Function' AS type, 'index.html' AS path FROM r;";

#[test]
fn docset_with_an_endless_view_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Rows without end, none of them named: the row cap counts them all.
    let root = docset(dir.path(), PLIST, ENDLESS_NAMELESS_VIEW);
    let started = Instant::now();
    assert_refused(read_with(&root, &small_bounds()), "more than 1000 rows");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());

    // An endless view that never yields a row: the operation budget stops it.
    let dir = tempfile::tempdir().unwrap();
    let root = docset(
        dir.path(),
        PLIST,
        "CREATE VIEW searchIndex AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) \
         SELECT 'x' AS name, 'T' AS type, 'index.html' AS path FROM r WHERE n < 0;",
    );
    let started = Instant::now();
    assert_refused(read_with(&root, &small_bounds()), "more than 20000000 SQLite operations");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());

    // The same under an ample budget: the deadline stops it.
    let limits = Limits {
        index: IndexBounds {
            max_rows: usize::MAX,
            max_operations: u64::MAX,
            deadline: Duration::from_secs(1),
        },
        ..Limits::default()
    };
    let started = Instant::now();
    assert_refused(read_with(&root, &limits), "longer than 1 s");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
}

#[test]
fn docset_endless_view_under_the_default_bounds_ends() {
    let dir = tempfile::tempdir().unwrap();
    let root = docset(dir.path(), PLIST, ENDLESS_NAMELESS_VIEW);
    let started = Instant::now();
    assert_refused(read_with(&root, &Limits::default()), "more than 2000000 rows");
    assert!(started.elapsed() < Duration::from_secs(40), "{:?}", started.elapsed());
}

#[test]
fn docset_with_a_multiplying_join_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Every token points at every metainformation row, file and type: the
    // join has 300^4 rows, and no index to make finding them cheap.
    let mut sql = String::from(
        "CREATE TABLE ZTOKENTYPE(Z_PK INTEGER, ZTYPENAME TEXT);
         CREATE TABLE ZFILEPATH(Z_PK INTEGER, ZPATH TEXT);
         CREATE TABLE ZTOKENMETAINFORMATION(Z_PK INTEGER, ZFILE INTEGER, ZANCHOR TEXT);
         CREATE TABLE ZTOKEN(Z_PK INTEGER, ZTOKENNAME TEXT, ZTOKENTYPE INTEGER, ZMETAINFORMATION INTEGER);",
    );
    for (table, values) in [
        ("ZTOKENTYPE", "1, 'Function'"),
        ("ZFILEPATH", "1, 'index.html'"),
        ("ZTOKENMETAINFORMATION", "1, 1, NULL"),
        ("ZTOKEN", "1, NULL, 1, 1"),
    ] {
        sql.push_str(&format!(
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 300) \
             INSERT INTO {table} SELECT {values} FROM r;"
        ));
    }
    let root = docset(dir.path(), PLIST, &sql);
    let started = Instant::now();
    let limits =
        Limits { index: IndexBounds { max_rows: usize::MAX, ..small_bounds().index }, ..Limits::default() };
    assert_refused(read_with(&root, &limits), "SQLite operations");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
}

#[test]
fn nameless_rows_count_against_the_row_cap() {
    let dir = tempfile::tempdir().unwrap();
    let table = "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);";
    let root = docset(
        dir.path(),
        PLIST,
        &format!(
            "{table} WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 1001) \
             INSERT INTO searchIndex(name, type, path) SELECT NULL, 'Function', 'index.html' FROM r;"
        ),
    );
    assert_refused(read_with(&root, &small_bounds()), "more than 1000 rows (rows without a name count too)");

    // At the cap, named or not, the docset is read.
    let dir = tempfile::tempdir().unwrap();
    let root = docset(
        dir.path(),
        PLIST,
        &format!(
            "{table} WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 999) \
             INSERT INTO searchIndex(name, type, path) SELECT NULL, 'Function', 'index.html' FROM r;
             INSERT INTO searchIndex(name, type, path) VALUES ('hello', 'Function', 'index.html');"
        ),
    );
    let got = read_with(&root, &small_bounds()).unwrap();
    assert_eq!(got.pages[0].symbols.len(), 1);
}

#[test]
fn docset_index_values_are_bounded_in_length() {
    // A view that builds a 5 MB name: SQLite refuses to build it.
    let dir = tempfile::tempdir().unwrap();
    let root = docset(
        dir.path(),
        PLIST,
        "CREATE VIEW searchIndex AS SELECT printf('%.*c', 5000000, 'x') AS name, 'T' AS type, 'index.html' AS path;",
    );
    assert_refused(read_with(&root, &small_bounds()), "value over 1048576 bytes");

    // Long stored values under that limit are skipped, not kept.
    let dir = tempfile::tempdir().unwrap();
    let root = docset(
        dir.path(),
        PLIST,
        "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);
         INSERT INTO searchIndex(name, type, path) VALUES (printf('%.*c', 5000, 'x'), 'T', 'index.html'),
           ('ok', printf('%.*c', 500000, 't'), 'index.html'), ('kept', 'T', 'index.html');",
    );
    let got = read_with(&root, &small_bounds()).unwrap();
    let names: Vec<&str> = got.pages[0].symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["kept"]);
}

#[test]
fn malformed_info_plist_is_a_problem() {
    let dir = tempfile::tempdir().unwrap();
    let table = "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);
                 INSERT INTO searchIndex(name, type, path) VALUES ('hello', 'Function', 'index.html');";
    let root = docset(dir.path(), "<plist><dict><key>CFBundleName", table);
    let got = read_with(&root, &Limits::default()).unwrap();
    let info = got.docset.as_ref().unwrap();
    assert_eq!(
        (info.name.as_str(), info.identifier.as_str()),
        ("Hostile", "hostile"),
        "falls back to the folder"
    );
    let problem = got.problems.iter().find(|p| p.path == "Contents/Info.plist").expect("reported");
    assert!(problem.reason.contains("folder name is used"), "{}", problem.reason);
    assert_eq!(got.pages.len(), 1);

    // A well-formed one is no problem.
    let dir = tempfile::tempdir().unwrap();
    let root = docset(dir.path(), PLIST, table);
    assert!(read_with(&root, &Limits::default()).unwrap().problems.is_empty());
}

/// 600 KB of HTML that the parser would nest 100,000 deep.
fn nested_page(unit: &str) -> String {
    format!("<html><body><h1>T</h1>{}</body></html>", unit.repeat(100_000))
}

fn assert_malformed_fast(html: &str, says: &str) {
    let started = Instant::now();
    let err = html_to_page(html.as_bytes(), "bad.html", "/h").unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    let PageError::Malformed { reason, .. } = &err else { panic!("{err:?}") };
    assert!(reason.contains(says), "{reason}");
    assert!(reason.contains("allowed"), "{reason}");
}

#[test]
fn hundred_thousand_self_closed_divs_are_refused_fast() {
    // HTML ignores the slash: every `<div/>` opens a div.
    assert_malformed_fast(&nested_page("<div/>"), "nested deeper than 1000");
}

#[test]
fn unmatched_end_tags_do_not_hide_nesting() {
    // `</x>` closes nothing; nor does `</span>` past an open div.
    assert_malformed_fast(&nested_page("<div></x>"), "nested deeper than 1000");
    assert_malformed_fast(&nested_page("<span><div></span>"), "nested deeper than 1000");
}

#[test]
fn too_many_elements_are_refused_fast() {
    let html = format!("<html><body><h1>T</h1><p>{}</p></body></html>", "<br>".repeat(500_001));
    assert_malformed_fast(&html, "more than 500000 HTML elements");
}

#[test]
fn ordinary_html_shapes_are_accepted_and_linear() {
    // Wide and flat, deep but under the limit, SVG self-closed, and tags in
    // scripts and comments: all read, each in well under a second or two.
    let pages = [
        format!("<html><body><h1>T</h1>{}</body></html>", "<div><span>x</span></div>".repeat(50_000)),
        format!("<html><body><h1>T</h1>{}x{}</body></html>", "<div>".repeat(900), "</div>".repeat(900)),
        format!("<html><body><h1>T</h1><svg>{}</svg></body></html>", "<path d='M0'/>".repeat(5_000)),
        format!(
            "<html><body><h1>T</h1><script>{}</script><!-- {} --><p>x</p></body></html>",
            "'<div>'".repeat(5_000),
            "<div>".repeat(5_000)
        ),
        format!("<html><body><h1>T</h1>{}</body></html>", "<p>a<li>b<td>c<br><img src=x>".repeat(20_000)),
        // XHTML: its self-closed elements are empty, not 100,000 open ones.
        format!(
            "<?xml version='1.0'?><html><body><h1>T</h1>{}</body></html>",
            "<div/><a id='x'/>".repeat(50_000)
        ),
        // Tags left open by a quote that never ends, in XHTML.
        format!(
            "<?xml version='1.0'?><html><body><h1>T</h1>{}</body></html>",
            "<a x=\"<b y='".repeat(50_000)
        ),
    ];
    for page in &pages {
        let started = Instant::now();
        let got = html_to_page(page.as_bytes(), "ok.html", "/h");
        assert!(got.is_ok(), "{:?}", got.err());
        assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    }
}

#[test]
fn bad_html_is_reported_and_skipped_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.html"), nested_page("<div/>")).unwrap();
    std::fs::write(dir.path().join("good.html"), "<html><body><h1>Good</h1><p>x</p></body></html>").unwrap();
    std::fs::write(dir.path().join("other.html"), "<html><body><h1>Other</h1><p>y</p></body></html>")
        .unwrap();
    let got = read_with(dir.path(), &Limits::default()).unwrap();
    assert_eq!(got.pages.len(), 2);
    assert!(got.problems.iter().any(|p| p.path == "bad.html" && p.reason.contains("nested deeper")));
}

#[test]
fn symlink_swap_while_a_folder_is_read_is_never_followed() {
    const SECRET: &str = "SECRET-OUTSIDE-THE-SOURCE";
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), format!("# Secret\n\n{SECRET}\n")).unwrap();
    std::fs::create_dir(outside.path().join("dir")).unwrap();
    std::fs::write(outside.path().join("dir/page.md"), format!("# Secret dir\n\n{SECRET}\n")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    for i in 0..50 {
        std::fs::write(src.join(format!("p{i}.md")), format!("# Page {i}\n\nText.\n")).unwrap();
    }
    std::fs::write(src.join("victim.md"), "# Victim\n\nText.\n").unwrap();
    std::fs::write(src.join("sub/page.md"), "# Sub\n\nText.\n").unwrap();

    // Swaps `victim.md` and `sub` between the real thing and a link out of
    // the source, atomically (by rename), for as long as the reads run.
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, src, outside) = (Arc::clone(&stop), src.clone(), outside.path().to_path_buf());
        std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let _ = std::os::unix::fs::symlink(outside.join("secret.md"), src.join(".link"));
                let _ = std::fs::rename(src.join(".link"), src.join("victim.md"));
                let _ = std::os::unix::fs::symlink(outside.join("dir"), src.join(".dirlink"));
                let _ = std::fs::rename(src.join("sub"), src.join(".realsub"));
                let _ = std::fs::rename(src.join(".dirlink"), src.join("sub"));
                std::thread::yield_now();
                let _ = std::fs::write(src.join(".file"), "# Victim\n\nText.\n");
                let _ = std::fs::rename(src.join(".file"), src.join("victim.md"));
                let _ = std::fs::rename(src.join("sub"), src.join(".dirlink"));
                let _ = std::fs::remove_file(src.join(".dirlink"));
                let _ = std::fs::rename(src.join(".realsub"), src.join("sub"));
                swaps += 1;
            }
            swaps
        })
    };
    let started = Instant::now();
    let mut reads = 0;
    while started.elapsed() < Duration::from_secs(3) {
        if let Ok(got) = read_with(&src, &Limits::default()) {
            for page in &got.pages {
                assert!(!page.markdown.contains(SECRET), "{} was read through a link", page.source_file);
            }
        }
        reads += 1;
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert!(reads > 5 && swaps > 5, "{reads} reads, {swaps} swaps");
}

/// Bytes this process has written so far (every write call, any file).
fn bytes_written() -> u64 {
    let io = std::fs::read_to_string("/proc/self/io").unwrap();
    io.lines().find_map(|l| l.strip_prefix("wchar: ")).unwrap().trim().parse().unwrap()
}

#[test]
fn zip_bomb_is_refused_before_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("docs/index.md", options).unwrap();
    zip.write_all(b"# Hi\n\nHello.\n").unwrap();
    let zeros = vec![0u8; 8 << 20];
    for i in 0..40 {
        zip.start_file(format!("docs/z{i}.md"), options).unwrap();
        zip.write_all(&zeros).unwrap();
    }
    zip.finish().unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() < 1 << 20);
    let before = bytes_written();
    let err = read_with(&path, &Limits::default()).unwrap_err();
    let written = bytes_written() - before;
    assert!(matches!(err, SourceError::Bomb { .. }), "{err}");
    assert!(err.to_string().contains("may expand"), "{err}");
    assert!(written < 1 << 20, "{written} bytes written before the refusal");

    // One such entry among pages is skipped unread; the pages are kept.
    let path = dir.path().join("one.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    zip.start_file("docs/index.md", options).unwrap();
    zip.write_all(b"# Hi\n\nHello.\n").unwrap();
    zip.start_file("docs/zeros.md", options).unwrap();
    zip.write_all(&zeros).unwrap();
    zip.finish().unwrap();
    let before = bytes_written();
    let got = read_with(&path, &Limits::default()).unwrap();
    assert!(bytes_written() - before < 1 << 20);
    assert_eq!(got.pages.len(), 1);
    let problem = got.problems.iter().find(|p| p.path == "docs/zeros.md").expect("reported");
    assert!(problem.reason.contains("more than 200 times"), "{}", problem.reason);
}

#[test]
fn tar_bomb_is_stopped_while_it_streams() {
    let dir = tempfile::tempdir().unwrap();
    let mut builder = tar::Builder::new(Vec::new());
    let zeros = vec![0u8; 8 << 20];
    for i in 0..16 {
        let mut header = tar::Header::new_gnu();
        header.set_size(zeros.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, format!("docs/z{i}.md"), zeros.as_slice()).unwrap();
    }
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(&builder.into_inner().unwrap()).unwrap();
    let path = dir.path().join("bomb.tgz");
    std::fs::write(&path, enc.finish().unwrap()).unwrap();
    let before = bytes_written();
    let err = read_with(&path, &Limits::default()).unwrap_err();
    let written = bytes_written() - before;
    assert!(matches!(err, SourceError::Bomb { .. }), "{err}");
    // Stopped at the floor every archive may expand to, not at the 128 MiB it holds.
    assert!(written <= archive::RATIO_FLOOR_BYTES + (1 << 20), "{written} bytes written");
}

#[test]
fn stale_temp_folders_are_removed_and_live_ones_kept() {
    let parent = tempfile::tempdir().unwrap();
    let dead = {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    };
    let me = std::process::id();
    let make = |name: String| {
        let path = parent.path().join(name);
        std::fs::create_dir_all(path.join("docs")).unwrap();
        std::fs::write(path.join("docs/a.md"), "# A\n").unwrap();
        path
    };
    let ours = make(format!("{TEMP_PREFIX}{me}-mine"));
    let stale = make(format!("{TEMP_PREFIX}{dead}-Ab3xYz"));
    let live_sibling = make(format!("{TEMP_PREFIX}{me}-other"));
    let live_init = make(format!("{TEMP_PREFIX}1-Qw9e"));
    let unknown = make(format!("{TEMP_PREFIX}Ab3xYz"));
    let unrelated = make(format!("other-{dead}-Ab3xYz"));
    assert_eq!(remove_stale_temp_dirs(parent.path(), &ours), 1);
    assert!(!stale.exists());
    for kept in [&ours, &live_sibling, &live_init, &unknown, &unrelated] {
        assert!(kept.exists(), "{} removed", kept.display());
    }

    // Extraction names its folder after this process.
    let archive_path = parent.path().join("a.tar");
    let mut builder = tar::Builder::new(Vec::new());
    let mut header = tar::Header::new_gnu();
    header.set_size(4);
    header.set_mode(0o644);
    header.set_cksum();
    builder.append_data(&mut header, "docs/a.md", &b"# A\n"[..]).unwrap();
    std::fs::write(&archive_path, builder.into_inner().unwrap()).unwrap();
    let extracted = archive::extract(&archive_path, ArchiveKind::Tar, 1 << 20, &Limits::default()).unwrap();
    let name = extracted.dir.path().file_name().unwrap().to_str().unwrap().to_owned();
    assert!(name.starts_with(&format!("{TEMP_PREFIX}{me}-")), "{name}");
}

#[test]
fn recreated_formatting_elements_count_against_the_limits() {
    // 900 distinct `<b>` closed by `</div>`: the parser recreates all 900
    // before every later text, so each `<div>x</div>` costs 900 elements.
    let mut html = String::from("<html><body><h1>T</h1><div>");
    for i in 0..900 {
        html.push_str(&format!("<b a={i}>"));
    }
    html.push_str("</div>");
    html.push_str(&"<div>x</div>".repeat(50_000));
    assert_malformed_fast(&html, "more than 500000 HTML elements");

    // Sloppy but ordinary: a `<b>` a block closed, recreated and closed in
    // the next paragraph, does not add up.
    let html =
        format!("<html><body><h1>T</h1>{}</body></html>", "<div><b>bold</div><p>text</b></p>".repeat(20_000));
    assert!(html_to_page(html.as_bytes(), "ok.html", "/h").is_ok());
}
