//! The corpus crate's one integration test binary.
//!
//! # Contents
//! - `markdown_tree`: a Markdown tree with frontmatter (CJK, index pages, a
//!   page without frontmatter, malformed and non-UTF-8 files) → pages; snapshots.
//! - `html_manual`: a DocBook-shaped HTML manual (en and zh-Hans) and a generic
//!   Sphinx-like page → clean Markdown, sections, links, symbols; snapshots.
//! - `archives`: tar, tar.gz, tar.xz and zip sources built at test time, and
//!   hostile ones (traversal, absolute paths, links, devices, oversize, bombs).
//! - `assets`: images and files pages reference, in sibling and parent folders, missing,
//!   oversize, over the edition's budget, behind a link leaving the tree, an SVG with script.
//! - `docsets`: Dash docsets built at test time (`searchIndex` and Core Data).
//! - `hostile`: sources built to hang, blow up or escape ingestion (endless
//!   docset indexes, nested HTML, link swaps, archive bombs, stale temp folders).
//! - `generators`: Sphinx, asciidoc and Markdown-site shapes (headings inside
//!   links, permalinks, site-name title suffixes, frontmatter titles, heading ids).
//! - `chrome`: generators' navigation, banners and footers (texinfo, asciidoc,
//!   mkdocs-material, Hugo, Javadoc, Doxygen, rustdoc, repeated banners) dropped;
//!   titles of pages whose headings are shared or a banner.
//! - `site_config`: `lectern.toml` parsing and its error messages.
//! - `properties`: conversions never panic; sections cover the page.
//! - `corpora`: the real corpora (ignored unless `LECTERN_CORPORA` is set).

#[path = "main/archives.rs"]
mod archives;
#[path = "main/assets.rs"]
mod assets;
#[path = "main/chrome.rs"]
mod chrome;
#[path = "main/corpora.rs"]
mod corpora;
#[path = "main/docsets.rs"]
mod docsets;
#[path = "main/generators.rs"]
mod generators;
#[path = "main/hostile.rs"]
mod hostile;
#[path = "main/html_manual.rs"]
mod html_manual;
#[path = "main/markdown_tree.rs"]
mod markdown_tree;
#[path = "main/properties.rs"]
mod properties;
#[path = "main/site_config.rs"]
mod site_config;

use std::path::PathBuf;

use lectern_corpus::{Ingested, Page, ReadOptions, read_source};
use serde::Serialize;

/// A fixture folder under `tests/fixtures`.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// Reads a source with default options under `prefix`.
pub fn read(path: &std::path::Path, prefix: &str) -> Ingested {
    read_source(path, &ReadOptions::new(prefix), &mut |_, _| {}).unwrap_or_else(|e| panic!("{e}"))
}

/// What a snapshot shows of a page: everything a reader sees, sections in full.
#[derive(Serialize)]
pub struct PageView<'a> {
    path: &'a str,
    source_file: &'a str,
    title: &'a str,
    description: Option<&'a str>,
    order: Option<i64>,
    draft: bool,
    frontmatter: Option<&'a str>,
    symbols: Vec<String>,
    sections: Vec<SectionView<'a>>,
}

#[derive(Serialize)]
pub struct SectionView<'a> {
    anchor: Option<&'a str>,
    title: &'a str,
    level: u8,
    breadcrumb: String,
    markdown: &'a str,
    text: &'a str,
}

pub fn view(page: &Page) -> PageView<'_> {
    PageView {
        path: &page.path,
        source_file: &page.source_file,
        title: &page.title,
        description: page.description.as_deref(),
        order: page.order,
        draft: page.draft,
        frontmatter: page.frontmatter.as_deref(),
        symbols: page
            .symbols
            .iter()
            .map(|s| {
                format!(
                    "{} ({}){}",
                    s.name,
                    s.kind,
                    s.anchor.as_ref().map(|a| format!(" #{a}")).unwrap_or_default()
                )
            })
            .collect(),
        sections: page
            .sections
            .iter()
            .map(|s| SectionView {
                anchor: s.anchor.as_deref(),
                title: &s.title,
                level: s.level,
                breadcrumb: s.breadcrumb.join(" > "),
                markdown: &s.markdown,
                text: &s.text,
            })
            .collect(),
    }
}

/// Every page's invariants: path shape, sections cover the page text.
pub fn check_invariants(page: &Page) {
    assert!(page.path.starts_with('/'), "{}", page.path);
    assert!(page.path == "/" || !page.path.ends_with('/'), "{}", page.path);
    assert!(!page.title.trim().is_empty(), "{} has no title", page.path);
    assert!(!page.sections.is_empty(), "{} has no sections", page.path);
    let joined: Vec<&str> = page.sections.iter().map(|s| s.text.as_str()).filter(|t| !t.is_empty()).collect();
    assert_eq!(joined.join("\n\n"), page.text, "{}: sections do not cover the text", page.path);
}
