//! Dash docsets built at test time: `searchIndex` and Core Data layouts.

use std::path::{Path, PathBuf};

use lectern_corpus::{ReadOptions, SourceFormat, read_source};

use crate::{check_invariants, read};

const PLIST: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>Widgets</string>
<key>CFBundleName</key><string>Widgets Lib</string>
<key>DocSetPlatformFamily</key><string>widgets</string>
<key>isDashDocset</key><true/>
</dict></plist>"#;

const API_PAGE: &str = r#"<!DOCTYPE html><html><head><title>API — Widgets</title></head><body>
<div class="body" role="main"><section id="api"><h1>API</h1><p>The API.</p>
<dl class="py class"><dt id="widgets.Widget">class widgets.Widget</dt><dd><p>A widget.</p></dd></dl>
<section id="functions"><h2>Functions</h2><p>make() makes one.</p></section></section></div></body></html>"#;

/// Builds `dir/Widgets.docset` with two pages; `core_data` picks the old index layout.
fn build_docset(dir: &Path, core_data: bool) -> PathBuf {
    let root = dir.join("Widgets.docset");
    let docs = root.join("Contents/Resources/Documents");
    std::fs::create_dir_all(docs.join("guide")).unwrap();
    std::fs::write(root.join("Contents/Info.plist"), PLIST).unwrap();
    std::fs::write(docs.join("api.html"), API_PAGE).unwrap();
    std::fs::write(docs.join("guide/index.html"), "<html><body><h1>Guide</h1><p>Read me.</p></body></html>")
        .unwrap();
    std::fs::write(docs.join("style.css"), "p{}").unwrap();
    let db = rusqlite::Connection::open(root.join("Contents/Resources/docSet.dsidx")).unwrap();
    if core_data {
        db.execute_batch(
            "CREATE TABLE ZTOKENTYPE (Z_PK INTEGER PRIMARY KEY, ZTYPENAME VARCHAR);
             CREATE TABLE ZFILEPATH (Z_PK INTEGER PRIMARY KEY, ZPATH VARCHAR);
             CREATE TABLE ZTOKENMETAINFORMATION (Z_PK INTEGER PRIMARY KEY, ZFILE INTEGER, ZANCHOR VARCHAR);
             CREATE TABLE ZTOKEN (Z_PK INTEGER PRIMARY KEY, ZTOKENNAME VARCHAR, ZTOKENTYPE INTEGER, ZMETAINFORMATION INTEGER);
             INSERT INTO ZTOKENTYPE VALUES (1, 'cl'), (2, 'func');
             INSERT INTO ZFILEPATH VALUES (1, 'api.html'), (2, 'guide/index.html');
             INSERT INTO ZTOKENMETAINFORMATION VALUES (1, 1, 'widgets.Widget'), (2, 1, 'functions'), (3, 2, NULL);
             INSERT INTO ZTOKEN VALUES (1, 'widgets.Widget', 1, 1), (2, 'widgets.make', 2, 2), (3, 'Guide', 2, 3);",
        )
        .unwrap();
    } else {
        db.execute_batch(
            "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);
             INSERT INTO searchIndex(name, type, path) VALUES
               ('widgets.Widget', 'Class', '<dash_entry_name=widgets.Widget>api.html#widgets.Widget'),
               ('widgets.make', 'Function', 'api.html#functions'),
               ('widgets.make', 'Function', 'api.html#functions'),
               ('Guide', 'Guide', 'guide/index.html'),
               ('Gone', 'Guide', 'missing.html'),
               ('Remote', 'Guide', 'https://example.com/x.html');",
        )
        .unwrap();
    }
    root
}

#[test]
fn search_index_docset() {
    let dir = tempfile::tempdir().unwrap();
    let root = build_docset(dir.path(), false);
    let got = read(&root, "/widgets");
    assert_eq!(got.format, SourceFormat::Docset);
    let info = got.docset.as_ref().unwrap();
    assert_eq!(info.name, "Widgets Lib");
    assert_eq!(info.identifier, "widgets");
    assert_eq!(info.platform_family.as_deref(), Some("widgets"));
    let paths: Vec<&str> = got.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["/widgets/api", "/widgets/guide"]);
    assert_eq!(got.pages[0].source_file, "Contents/Resources/Documents/api.html");
    for page in &got.pages {
        check_invariants(page);
    }
    let symbols: Vec<String> =
        got.pages[0].symbols.iter().map(|s| format!("{} {} {:?}", s.name, s.kind, s.anchor)).collect();
    assert_eq!(
        symbols,
        ["widgets.Widget Class Some(\"widgets.Widget\")", "widgets.make Function Some(\"functions\")"]
    );
    assert_eq!(got.pages[1].symbols.len(), 1);
    insta::assert_yaml_snapshot!("docset_api", crate::view(&got.pages[0]));
}

/// A docset made from Sphinx's output keeps its `objects.inv`: the names
/// the docset's index leaves out (a fixture, a hook) are names too.
#[test]
fn a_docsets_sphinx_inventory_adds_the_names_its_index_left_out() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let root = build_docset(dir.path(), false);
    let mut inv =
        b"# Sphinx inventory version 2\n# Project: Widgets\n# Version: 1\n# zlib follows.\n".to_vec();
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(
        b"widget_fixture std:fixture 1 api.html#functions -\nwidgets.Widget py:class 1 api.html#$ -\n",
    )
    .unwrap();
    inv.extend(z.finish().unwrap());
    std::fs::write(root.join("Contents/Resources/Documents/objects.inv"), inv).unwrap();
    let got = read(&root, "/widgets");
    let api = got.pages.iter().find(|p| p.path == "/widgets/api").unwrap();
    let names: Vec<(&str, Option<&str>)> =
        api.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
    assert!(names.contains(&("widget_fixture", Some("functions"))), "{names:?}");
    assert!(names.contains(&("widgets.make", Some("functions"))), "{names:?}");
    assert!(got.problems.is_empty(), "{:?}", got.problems);
}

#[test]
fn core_data_docset_in_an_archive() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    build_docset(&src, true);
    let mut builder = tar::Builder::new(Vec::new());
    builder.append_dir_all("Widgets.docset", src.join("Widgets.docset")).unwrap();
    let archive = dir.path().join("widgets.tar");
    std::fs::write(&archive, builder.into_inner().unwrap()).unwrap();
    let got = read(&archive, "/w");
    assert_eq!(got.format, SourceFormat::Docset);
    let kinds: Vec<&str> = got.pages[0].symbols.iter().map(|s| s.kind.as_str()).collect();
    assert_eq!(kinds, ["cl", "func"]);
    assert_eq!(got.pages[1].symbols[0].name, "Guide");
    // Same docset, same hash.
    assert_eq!(got.content_hash, read(&archive, "/w").content_hash);
}

#[test]
fn forced_docset_without_index_is_an_error() {
    let options = ReadOptions { format: SourceFormat::Docset, ..ReadOptions::new("") };
    let err = read_source(&crate::fixture("markdown"), &options, &mut |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("docSet.dsidx"), "{err}");
}

#[test]
fn broken_index_is_a_problem_not_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let root = build_docset(dir.path(), false);
    std::fs::write(root.join("Contents/Resources/docSet.dsidx"), b"not sqlite at all").unwrap();
    let got = read(&root, "/w");
    assert_eq!(got.pages.len(), 2);
    assert!(got.problems.iter().any(|p| p.path.ends_with("docSet.dsidx")), "{:?}", got.problems);
}
