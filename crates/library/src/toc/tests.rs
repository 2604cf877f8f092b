//! Tests of the table of contents over a small site the tests write: folders
//! and their index pages, frontmatter order, titles compared as people read
//! them, nesting capped at [`TOC_DEPTH`], drafts left out, and the errors.

use std::path::Path;

use lectern_corpus::SiteConfig;

use super::*;
use crate::library::OpenMode;

const CONFIG: &str = r#"
[site]
name = "Fixture"
default_locale = "en"

[[editions]]
project = "app"
version = "2"
locale = "en"
label = "App 2"
status = "current"
prefix = "/app"
default = true
source = "v2"

[[editions]]
project = "app"
version = "1"
locale = "en"
label = "App 1"
status = "supported"
prefix = "/app/v1"
source = "v1"
"#;

fn write(root: &Path, rel: &str, text: &str) {
    let file = root.join(rel);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
}

fn fixture(dir: &Path) -> Library {
    let site = dir.join("site");
    let page = |rel: &str, title: &str, extra: &str| {
        write(&site, rel, &format!("---\ntitle: {title}\n{extra}---\n\nAbout {title}.\n"));
    };
    page("v2/index.md", "Home", "");
    page("v2/guide/index.md", "The guide", "order: 2\n");
    page("v2/guide/install.md", "Install", "order: 1\n");
    page("v2/guide/chapter-10.md", "Chapter 10", "");
    page("v2/guide/chapter-2.md", "Chapter 2", "");
    page("v2/reference/cli.md", "CLI", "");
    page("v2/faq.md", "FAQ", "order: 1\n");
    page("v2/zebra.md", "Zebra", "");
    page("v2/apple.md", "apple", "");
    page("v2/secret.md", "Secret", "draft: true\n");
    page("v2/a/b/c/d/e/f/g/h.md", "Deep", "");
    page("v1/install.md", "Install v1", "");
    page("v1/getting-started/first-steps.md", "First steps", "");
    write(&site, "lectern.toml", CONFIG);
    let config = SiteConfig::load(&site.join("lectern.toml")).unwrap();
    let library = Library::open(&dir.join("lib"), OpenMode::ReadWrite).unwrap();
    library.add_site(&config, &mut |_, _| {}, &mut |_| {}).unwrap();
    library
}

fn toc(lib: &Library, edition: &str) -> Result<TocResponse, LibraryError> {
    lib.toc(&TocRequest { edition: edition.into(), generation: None })
}

/// Each entry as `depth title path`, depth first.
fn outline(entries: &[TocEntry], depth: usize, out: &mut Vec<String>) {
    for e in entries {
        out.push(format!("{depth} {} {}", e.title, e.path.as_deref().unwrap_or("-")));
        outline(&e.children, depth + 1, out);
    }
}

#[test]
fn the_tree_is_folders_in_reading_order_with_the_home_page_first() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let t = toc(&lib, "app@2/en").unwrap();
    let mut lines = Vec::new();
    outline(&t.entries, 0, &mut lines);
    assert_eq!(
        lines,
        [
            "0 Home /app",
            "0 FAQ /app/faq",
            "0 The guide /app/guide",
            "1 Install /app/guide/install",
            "1 Chapter 2 /app/guide/chapter-2",
            "1 Chapter 10 /app/guide/chapter-10",
            "0 A -",
            "1 B -",
            "2 C -",
            "3 D -",
            "4 E -",
            "5 F -",
            "6 Deep /app/a/b/c/d/e/f/g/h",
            "0 apple /app/apple",
            "0 Reference -",
            "1 CLI /app/reference/cli",
            "0 Zebra /app/zebra",
        ]
    );
    assert_eq!(t.first_page.as_deref(), Some("/app"));
    assert_eq!(t.pages, 10, "the draft is not published");
    assert_eq!((t.label.as_str(), t.prefix.as_str(), t.locale.as_str()), ("App 2", "/app", "en"));
}

#[test]
fn without_a_home_page_the_first_page_is_the_first_of_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let t = toc(&lib, "app@1/en").unwrap();
    let mut lines = Vec::new();
    outline(&t.entries, 0, &mut lines);
    assert_eq!(
        lines,
        [
            "0 Getting started -",
            "1 First steps /app/v1/getting-started/first-steps",
            "0 Install v1 /app/v1/install"
        ]
    );
    assert_eq!(t.first_page.as_deref(), Some("/app/v1/getting-started/first-steps"));
}

#[test]
fn unknown_disabled_and_stale_requests_are_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let err = toc(&lib, "app@3/en").unwrap_err().to_string();
    assert!(err.contains("app@3/en") && err.contains("installed: app@1/en, app@2/en"), "{err}");
    let err = toc(&lib, "not an id").unwrap_err();
    assert_eq!(err.code(), crate::ErrorCode::InvalidArgument, "{err}");
    let stale = lib.toc(&TocRequest { edition: "app@2/en".into(), generation: Some("g0".into()) });
    assert_eq!(stale.unwrap_err().code(), crate::ErrorCode::GenerationChanged);
    lib.set_enabled("app@1/en", false, &mut |_| {}, None).unwrap();
    let err = toc(&lib, "app@1/en").unwrap_err().to_string();
    assert!(err.contains("disabled") && err.contains("lectern enable app@1/en"), "{err}");
}

#[test]
fn titles_compare_numbers_by_value_and_ignore_case() {
    let mut titles = vec!["Part 10", "part 9", "Part 1a", "Zeta", "alpha", "Part 01", "Part 1"];
    titles.sort_by(|a, b| crate::pages::nav::natural(a, b));
    assert_eq!(titles, ["alpha", "Part 01", "Part 1", "Part 1a", "part 9", "Part 10", "Zeta"]);
}
