//! A Markdown tree with frontmatter → pages.

use lectern_corpus::{ReadOptions, SourceFormat, read_source};

use crate::{check_invariants, fixture, read, view};

#[test]
fn reads_the_tree_with_problems_reported() {
    let ingested = read(&fixture("markdown"), "/demo");
    assert_eq!(ingested.format, SourceFormat::Markdown);
    let paths: Vec<&str> = ingested.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/demo",
            "/demo/guide",
            "/demo/guide/draft",
            "/demo/guide/install",
            "/demo/guide/plain",
            "/demo/guide/安装"
        ]
    );
    let problems: Vec<(&str, &str)> =
        ingested.problems.iter().map(|p| (p.path.as_str(), p.reason.as_str())).collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!(problems[0].0, "broken/bad-frontmatter.md");
    assert!(problems[0].1.starts_with("bad frontmatter"), "{}", problems[0].1);
    assert_eq!(problems[1].0, "broken/latin1.md");
    assert!(problems[1].1.contains("UTF-8"), "{}", problems[1].1);
    for page in &ingested.pages {
        check_invariants(page);
        // The body is the file minus its frontmatter, byte for byte.
        let file = std::fs::read_to_string(fixture("markdown").join(&page.source_file)).unwrap();
        assert!(file.ends_with(&page.markdown), "{}", page.path);
        let joined: String = page.sections.iter().map(|s| s.markdown.as_str()).collect();
        assert_eq!(joined.trim_start(), page.markdown.trim_start(), "{}", page.path);
    }
}

#[test]
fn snapshots() {
    let ingested = read(&fixture("markdown"), "/demo");
    for page in &ingested.pages {
        let name = format!("markdown{}", page.path.replace('/', "_"));
        insta::assert_yaml_snapshot!(name, view(page));
    }
}

#[test]
fn root_index_at_site_root_is_slash() {
    let ingested = read(&fixture("markdown"), "");
    assert_eq!(ingested.pages[0].path, "/");
    assert_eq!(ingested.pages[0].title, "Demo Docs");
}

#[test]
fn content_hash_is_stable_and_depends_on_prefix() {
    let a = read(&fixture("markdown"), "/demo");
    let b = read(&fixture("markdown"), "/demo");
    let c = read(&fixture("markdown"), "/other");
    assert_eq!(a.content_hash, b.content_hash);
    assert_eq!(a.content_hash.len(), 64);
    assert_ne!(a.content_hash, c.content_hash);
}

#[test]
fn progress_is_reported_per_file() {
    let mut calls = Vec::new();
    read_source(&fixture("markdown"), &ReadOptions::new("/demo"), &mut |done, total| {
        calls.push((done, total))
    })
    .unwrap();
    assert_eq!(calls.len(), 8);
    assert_eq!(calls.last(), Some(&(8, 8)));
}

#[test]
fn oversized_files_are_skipped() {
    let options = ReadOptions { max_file_bytes: 150, ..ReadOptions::new("/demo") };
    let ingested = read_source(&fixture("markdown"), &options, &mut |_, _| {}).unwrap();
    let over: Vec<&str> = ingested
        .problems
        .iter()
        .filter(|p| p.reason.contains("over 150 bytes"))
        .map(|p| p.path.as_str())
        .collect();
    assert_eq!(over, ["guide/install.md", "guide/安装.md", "index.md"]);
}

#[test]
fn a_source_without_pages_says_why_file_by_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.md"), b"# A\n\xff\xfe bad bytes").unwrap();
    std::fs::write(dir.path().join("b.md"), b"# B\n\xc3\x28").unwrap();
    let options = ReadOptions { format: SourceFormat::Markdown, ..ReadOptions::new("/x") };
    let err = read_source(dir.path(), &options, &mut |_, _| {}).unwrap_err().to_string();
    assert!(err.contains("no pages found; 2 files skipped: a.md: "), "{err}");
    assert!(err.contains("UTF-8"), "{err}");
    assert!(err.contains("b.md: "), "{err}");

    let empty = tempfile::tempdir().unwrap();
    std::fs::write(empty.path().join("notes.txt"), b"text").unwrap();
    let err = read_source(empty.path(), &options, &mut |_, _| {}).unwrap_err().to_string();
    assert!(err.contains("no file with a page extension"), "{err}");
}

#[test]
fn format_can_be_forced_and_missing_sources_are_errors() {
    let options = ReadOptions { format: SourceFormat::Html, ..ReadOptions::new("/demo") };
    let err = read_source(&fixture("markdown"), &options, &mut |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("no pages found"), "{err}");
    let err = read_source(&fixture("nope"), &ReadOptions::new(""), &mut |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("no such file"), "{err}");
}

#[cfg(unix)]
#[test]
fn symlinks_leaving_the_source_are_not_followed_and_aliases_are_one_page() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("docs");
    std::fs::create_dir_all(root.join("a")).unwrap();
    std::fs::write(root.join("a/page.md"), "# Page\n").unwrap();
    std::fs::write(root.join("index.md"), "# Home\n").unwrap();
    std::fs::write(dir.path().join("secret.md"), "# Secret\n").unwrap();
    std::os::unix::fs::symlink(dir.path().join("secret.md"), root.join("a/leak.md")).unwrap();
    std::os::unix::fs::symlink(root.join("a/page.md"), root.join("a/alias.md")).unwrap();
    std::os::unix::fs::symlink(&root, root.join("a/loop")).unwrap();
    let ingested = read(&root, "/x");
    let paths: Vec<&str> = ingested.pages.iter().map(|p| p.path.as_str()).collect();
    // A link to a file inside the source is that file: one page, at its own name.
    assert_eq!(paths, ["/x", "/x/a/page"]);
    assert!(ingested.problems.iter().any(|p| p.path == "a/leak.md" && p.reason.contains("outside")));
    assert!(ingested.problems.iter().any(|p| p.path == "a/loop"));
}

#[test]
fn a_spooled_read_still_takes_the_site_name_off_titles_and_keeps_one_page_per_path() {
    // Both steps need every page's title or path before any page is given back.
    let dir = tempfile::tempdir().unwrap();
    let page =
        |title: &str| format!("<html><head><title>{title}</title></head><body><p>text</p></body></html>");
    std::fs::write(dir.path().join("a.html"), page("Alpha - Site")).unwrap();
    std::fs::write(dir.path().join("b.html"), page("Beta - Site")).unwrap();
    std::fs::write(dir.path().join("c.htm"), page("Gamma - Other")).unwrap();
    std::fs::write(dir.path().join("c.html"), page("Gamma again - Site")).unwrap();
    let spooled = lectern_corpus::spool_source(dir.path(), &ReadOptions::new("/s"), &mut |_, _| {}).unwrap();
    let titles: Vec<(String, String)> =
        spooled.pages().map(Result::unwrap).map(|p| (p.path, p.title)).collect();
    let expected = [("/s/a", "Alpha"), ("/s/b", "Beta"), ("/s/c", "Gamma - Other")];
    assert_eq!(titles, expected.map(|(p, t)| (p.to_owned(), t.to_owned())));
    assert_eq!(spooled.problems.len(), 1, "{:?}", spooled.problems);
    assert!(spooled.problems[0].reason.contains("same page path /s/c as c.htm"), "{:?}", spooled.problems);
}

#[test]
fn a_read_past_its_deadline_stops_naming_the_source() {
    let options = ReadOptions { deadline: Some(std::time::Instant::now()), ..ReadOptions::new("/demo") };
    let err = read_source(&fixture("markdown"), &options, &mut |_, _| {}).unwrap_err();
    assert!(matches!(err, lectern_corpus::SourceError::Deadline { done: 0, .. }), "{err}");
    let err = err.to_string();
    assert!(err.contains("markdown: stopped after 0 of "), "{err}");
}

#[test]
fn a_page_collecting_every_rule_page_is_ranked_as_a_copy() {
    // markdownlint's `doc/Rules.md`: every rule's page, one heading each,
    // beside a page per rule (`doc/md001.md`).
    let dir = tempfile::tempdir().unwrap();
    let rule = |i: usize| {
        format!(
            "Tags: `style`\n\nRule {i} checks one thing about a document: line {i}, heading {i}, list {i}.\n\nRationale: readers of rule {i} expect it.\n"
        )
    };
    let mut all = String::from("# Rules\n\nThis document contains a description of all rules.\n\n");
    for i in 1..=24 {
        std::fs::write(
            dir.path().join(format!("md{i:03}.md")),
            format!("# `MD{i:03}` - Rule {i}\n\n{}", rule(i)),
        )
        .unwrap();
        all.push_str(&format!("## `MD{i:03}` - Rule {i}\n\n{}\n", rule(i)));
    }
    std::fs::write(dir.path().join("Rules.md"), all).unwrap();
    let ingested = read(dir.path(), "/d");
    let page = |path: &str| ingested.pages.iter().find(|p| p.path == path).unwrap();
    let copy = page("/d/Rules");
    assert!(copy.text.contains("Rule 7 checks one thing"), "{}", copy.text);
    assert!(copy.listing);
    assert!((1..=24).all(|i| !page(&format!("/d/md{i:03}")).listing));
}

#[test]
fn a_tree_of_mdx_pages_is_markdown_and_links_between_them_resolve() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs");
    std::fs::create_dir_all(docs.join("guides")).unwrap();
    let files = [
        (
            "index.mdx",
            "---\ntitle: Widgets\n---\nimport Card from '@site/src/Card';\n\nStart with [installing](./guides/install.mdx#with-yarn).\n\n<Card title=\"Quick start\" href=\"/guides/install\" />\n",
        ),
        (
            "guides/install.mdx",
            "import Tabs from '@theme/Tabs';\n\n# Install\n\n{/* keep in sync with the CLI */}\n\n## With Yarn\n\nRun `yarn add widgets`.\n",
        ),
        ("guides/notes.md", "# Notes\n\nPlain Markdown beside MDX.\n"),
    ];
    for (name, body) in files {
        std::fs::write(docs.join(name), body).unwrap();
    }
    let ingested = read(&docs, "/w");
    assert_eq!(ingested.format, SourceFormat::Markdown);
    let paths: Vec<&str> = ingested.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["/w", "/w/guides/install", "/w/guides/notes"]);
    for page in &ingested.pages {
        check_invariants(page);
        assert!(!page.text.contains("import") && !page.text.contains("keep in sync"), "{}", page.text);
    }
    assert!(ingested.pages[0].text.contains("Quick start"), "{}", ingested.pages[0].text);
    assert_eq!(ingested.pages[1].title, "Install");
    let links = ingested.check_links("/w");
    assert!(links.resolved == 1 && links.broken == 0, "{links:?}");
}

/// Docusaurus drops the numbers that order files and folders from its URLs
/// (`04-ui/02-chatbot.mdx` is published at `ui/chatbot`): a page is also at
/// that path, and links written to it lead to the page.
#[test]
fn a_page_is_also_at_its_path_without_order_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs");
    std::fs::create_dir_all(docs.join("04-ui")).unwrap();
    let files = [
        (
            "04-ui/01-overview.mdx",
            "# Overview\n\nSee [the chatbot](./chatbot), [its usage](/docs/ui/chatbot#usage) and [a file](./02-chatbot.mdx).\n",
        ),
        ("04-ui/02-chatbot.mdx", "# Chatbot\n\n## Usage\n\nCall it.\n"),
        ("2024-01.md", "# January\n\nNotes.\n"),
    ];
    for (name, body) in files {
        std::fs::write(docs.join(name), body).unwrap();
    }
    let ingested = read(&docs, "/w");
    let paths: Vec<&str> = ingested.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["/w/04-ui/01-overview", "/w/04-ui/02-chatbot", "/w/2024-01"]);
    assert_eq!(
        ingested.moved,
        [
            ("/w/ui/chatbot".to_owned(), "/w/04-ui/02-chatbot".to_owned()),
            ("/w/ui/overview".to_owned(), "/w/04-ui/01-overview".to_owned())
        ]
    );
    let links = ingested.check_links("/w");
    assert_eq!((links.resolved, links.broken), (3, 0), "{links:?}");
}
