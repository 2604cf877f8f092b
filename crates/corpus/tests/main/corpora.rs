//! The real corpora (PostgreSQL 18 en/zh-Hans, npm docs, Click docset), read
//! with timings printed. Ignored unless `LECTERN_CORPORA` names their folder:
//! `LECTERN_CORPORA=/work/shared/corpora cargo test -p lectern-corpus --release -- --ignored --nocapture`.

use std::path::PathBuf;
use std::time::Instant;

use lectern_corpus::{Ingested, SourceFormat};

use crate::{check_invariants, read};

fn corpora() -> Option<PathBuf> {
    std::env::var_os("LECTERN_CORPORA").map(PathBuf::from)
}

fn timed(path: &std::path::Path, prefix: &str) -> Ingested {
    let start = Instant::now();
    let got = read(path, prefix);
    let sections: usize = got.pages.iter().map(|p| p.sections.len()).sum();
    println!(
        "{}: {} pages, {} sections, {} problems, {:.0} ms",
        path.display(),
        got.pages.len(),
        sections,
        got.problems.len(),
        start.elapsed().as_secs_f64() * 1000.0
    );
    for page in &got.pages {
        check_invariants(page);
    }
    got
}

#[test]
#[ignore = "needs LECTERN_CORPORA"]
fn postgresql_18_manuals() {
    let Some(dir) = corpora() else { return };
    for (name, prefix) in
        [("postgresql-18-en", "/postgresql"), ("postgresql-18-zh-Hans", "/zh-Hans/postgresql")]
    {
        let got = timed(&dir.join(format!("{name}.tar.xz")), prefix);
        assert_eq!(got.format, SourceFormat::Html);
        assert!(got.pages.len() >= 1100, "{name}: {}", got.pages.len());
        assert!(got.problems.is_empty(), "{name}: {:?}", got.problems);
        for page in &got.pages {
            for chrome in ["accesskey", "Navigation header", "Prev</a>", "](#"] {
                assert!(!page.markdown.contains(chrome), "{}: {chrome}", page.path);
            }
            assert!(!page.title.is_empty());
        }
        let create_index = got.pages.iter().find(|p| p.path == format!("{prefix}/sql-createindex")).unwrap();
        assert!(create_index.symbols.iter().any(|s| s.name == "CREATE INDEX"));
        assert!(
            create_index.sections.iter().any(|s| s.anchor.as_deref() == Some("SQL-CREATEINDEX-CONCURRENTLY"))
        );
        assert!(got.pages.iter().any(|p| p.path == format!("{prefix}/bookindex")));
        assert!(got.pages.iter().any(|p| p.path == prefix));
    }
}

#[test]
#[ignore = "needs LECTERN_CORPORA"]
fn npm_docs_versions() {
    let Some(dir) = corpora() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("tar")
        .arg("xJf")
        .arg(dir.join("npm-cli-docs-4-versions.tar.xz"))
        .arg("-C")
        .arg(tmp.path())
        .status()
        .unwrap();
    assert!(status.success());
    let mut versions: Vec<PathBuf> =
        std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().path()).collect();
    versions.sort();
    assert_eq!(versions.len(), 4);
    for v in versions {
        let got = timed(&v, "/npm");
        assert_eq!(got.format, SourceFormat::Markdown);
        assert!(got.pages.len() >= 80, "{}", got.pages.len());
        assert!(got.problems.is_empty(), "{:?}", got.problems);
        assert!(got.pages.iter().all(|p| p.frontmatter.is_some()));
    }
}

#[test]
#[ignore = "needs LECTERN_CORPORA"]
fn click_docset() {
    let Some(dir) = corpora() else { return };
    let got = timed(&dir.join("Click.docset.tar.xz"), "/click");
    assert_eq!(got.format, SourceFormat::Docset);
    let info = got.docset.as_ref().unwrap();
    assert_eq!((info.name.as_str(), info.platform_family.as_deref()), ("Click", Some("click")));
    let symbols: usize = got.pages.iter().map(|p| p.symbols.len()).sum();
    println!("Click: {symbols} symbols");
    assert!(symbols >= 250, "{symbols}");
}

/// Pages per second of reading one HTML tree (median of three reads), to
/// compare two builds side by side: `LECTERN_SPEED_TREE=target/test-deps/postgresql-doc-15/usr/share/doc/postgresql-doc-15/html
/// cargo nextest run -p lectern-corpus --run-ignored only read_speed --no-capture`.
#[test]
#[ignore = "needs LECTERN_SPEED_TREE"]
fn read_speed() {
    let Some(dir) = std::env::var_os("LECTERN_SPEED_TREE").map(PathBuf::from) else { return };
    let mut rates = Vec::new();
    let mut pages = 0;
    for _ in 0..3 {
        let start = Instant::now();
        let got = read(&dir, "/speed");
        pages = got.pages.len();
        rates.push(pages as f64 / start.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    println!("{}: {pages} pages, median {:.0} pages/s of {rates:.0?}", dir.display(), rates[1]);
}
