//! Pages from generators nobody here wrote (Sphinx, asciidoc, Markdown sites
//! with frontmatter or inline HTML), each shape reduced to a small page.

use lectern_corpus::render::{PageLinks, markdown_to_html};
use lectern_corpus::{ReadOptions, html_to_page, markdown_to_page, read_source};

use crate::check_invariants;

/// A Sphinx page as `python3.11-doc` ships it: heading text inside
/// `toc-backref` links, `¶` permalinks, ids on the enclosing `<section>`.
const SPHINX_FAQ: &str = r##"<!DOCTYPE html><html><head>
<title>Programming FAQ — Python 3.11.2 documentation</title></head><body>
<div class="related"><a href="index.html">Python</a></div>
<div class="body" role="main">
<section id="programming-faq">
<h1>Programming FAQ<a class="headerlink" href="#programming-faq" title="Permalink">¶</a></h1>
<section id="general-questions">
<h2><a class="toc-backref" href="#id1" role="doc-backlink">General Questions</a><a class="headerlink" href="#general-questions">¶</a></h2>
<p>Is there a debugger?</p>
<section id="core-language">
<h3><a class="toc-backref" href="#id2">Core <code class="docutils">Language</code></a><a href="#core-language">#</a></h3>
<p>Why am I getting an UnboundLocalError?</p>
<h4><a class="headerlink" href="#x">¶</a></h4>
<p>After an empty heading.</p>
</section></section></section></div></body></html>"##;

/// Each section's anchor and title, in order.
fn anchored_titles(page: &lectern_corpus::Page) -> Vec<(Option<&str>, &str)> {
    page.sections.iter().map(|s| (s.anchor.as_deref(), s.title.as_str())).collect()
}

#[test]
fn sphinx_headings_keep_their_text_and_lose_their_permalinks() {
    let page = html_to_page(SPHINX_FAQ.as_bytes(), "faq/programming.html", "/py").unwrap();
    check_invariants(&page);
    assert_eq!(page.title, "Programming FAQ");
    let heads = anchored_titles(&page);
    assert_eq!(
        heads,
        [
            (None, "Programming FAQ"),
            (Some("general-questions"), "General Questions"),
            (Some("core-language"), "Core Language")
        ]
    );
    assert!(page.markdown.contains("## General Questions {#general-questions}"), "{}", page.markdown);
    assert!(page.markdown.contains("### Core `Language` {#core-language}"), "{}", page.markdown);
    for gone in ["¶", "](#", "# \n", "####"] {
        assert!(!page.markdown.contains(gone), "{gone:?} in\n{}", page.markdown);
    }
    assert!(page.text.contains("After an empty heading."), "{}", page.text);
}

#[test]
fn html_titles_lose_the_site_name_repeated_across_pages() {
    let dir = tempfile::tempdir().unwrap();
    for (file, title) in [("a.html", "Alpha"), ("b.html", "Beta"), ("c.html", "Gamma - Linux")] {
        let html = format!(
            "<html><head><title>{title} — Demo 2.0 documentation</title></head><body><p>{file} text</p></body></html>"
        );
        std::fs::write(dir.path().join(file), html).unwrap();
    }
    let ingested = crate::read(dir.path(), "/demo");
    let titles: Vec<&str> = ingested.pages.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(titles, ["Alpha", "Beta", "Gamma - Linux"]);
    for page in &ingested.pages {
        check_invariants(page);
        assert_eq!(page.sections[0].title, page.title);
    }
}

/// An npm CLI docs page: the title only in frontmatter, sections from `###`.
const NPM_PACKAGE_JSON: &str = "---\ntitle: package.json\nsection: 5\n---\n\n### Description\n\nWhat it is.\n\n### name {#the-name}\n\nThe name.\n\n### name\n\nAgain.\n\n### files\n";

#[test]
fn markdown_heading_ids_are_their_own_and_the_frontmatter_title_is_shown() {
    let page =
        markdown_to_page(NPM_PACKAGE_JSON.as_bytes(), "configuring-npm/package-json.md", "/npm").unwrap();
    check_invariants(&page);
    assert_eq!(page.title, "package.json");
    let anchors: Vec<Option<String>> = page.sections.iter().map(|s| s.anchor.clone()).collect();
    assert_eq!(
        anchors,
        [Some("description".into()), Some("the-name".into()), Some("name".into()), Some("files".into())]
    );
    let links = PageLinks {
        prefix: "/npm",
        source_file: "configuring-npm/package-json.md",
        anchors: &anchors,
        title: Some(&page.title),
        pages: None,
        others: None,
    };
    let html = markdown_to_html(&page.markdown, links);
    assert!(html.starts_with("<h1>package.json</h1>"), "{html}");
    for (id, text) in
        [("description", "Description"), ("the-name", "name"), ("name", "name"), ("files", "files")]
    {
        assert!(html.contains(&format!("<h3 id=\"{id}\">{text}</h3>")), "{id}: {html}");
    }
}

#[test]
fn markdown_titles_fall_back_to_a_readable_file_name() {
    let src = "<h1 align=\"center\">Fastify</h1>\n\n## Validation and Serialization\n\ntext\n";
    let page =
        markdown_to_page(src.as_bytes(), "docs/Reference/Validation-and-Serialization.md", "/f").unwrap();
    assert_eq!(page.title, "Validation and Serialization");
    let page = markdown_to_page(b"# First heading\n\ntext", "docs/Some_File.md", "/f").unwrap();
    assert_eq!(page.title, "First heading");
}

#[test]
fn a_file_linked_under_two_names_is_one_page_at_its_own_name() {
    // asciidoc's git-doc ships `index.html` as a link to `git.html`.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("git.html"),
        "<html><body><h1>git(1)</h1><p>the stupid content tracker</p></body></html>",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("git-add.html"),
        "<html><body><h1>git-add(1)</h1><p>Add file contents</p></body></html>",
    )
    .unwrap();
    std::os::unix::fs::symlink("git.html", dir.path().join("index.html")).unwrap();
    let ingested = crate::read(dir.path(), "/git");
    let paths: Vec<&str> = ingested.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["/git/git", "/git/git-add"]);
    assert!(ingested.problems.is_empty(), "{:?}", ingested.problems);
    // The other name leads to the page: `index` (the folder) is `git`.
    assert_eq!(ingested.moved, [("/git".to_owned(), "/git/git".to_owned())]);
}

#[test]
fn a_redirect_page_and_a_files_other_name_lead_to_their_pages() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("gzip.1.html"),
        "<html><body><h1>GZIP(1)</h1><p>gzip, gunzip, zcat - compress or expand files</p></body></html>",
    )
    .unwrap();
    std::os::unix::fs::symlink("gzip.1.html", dir.path().join("zcat.1.html")).unwrap();
    std::fs::write(
        dir.path().join("build-cache.html"),
        "<html><head><meta http-equiv=\"refresh\" content=\"0; URL=gzip.1.html#options\"></head><body>Redirecting</body></html>",
    )
    .unwrap();
    let ingested = crate::read(dir.path(), "/man");
    let paths: Vec<&str> = ingested.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["/man/gzip.1"]);
    let moved: Vec<(&str, &str)> = ingested.moved.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(moved, [("/man/build-cache", "/man/gzip.1#options"), ("/man/zcat.1", "/man/gzip.1")]);
    // A name added changes the edition's hash: adding the tree again updates it.
    std::os::unix::fs::symlink("gzip.1.html", dir.path().join("gunzip.1.html")).unwrap();
    let again = crate::read(dir.path(), "/man");
    assert_ne!(again.content_hash, ingested.content_hash);
    assert_eq!(again.moved.len(), 3);
}

#[test]
fn a_sphinx_inventory_gives_pages_their_api_symbols() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("library")).unwrap();
    for (file, title) in [("library/functools.html", "functools"), ("library/os.html", "os")] {
        let html = format!(
            "<html><body><div class=\"body\"><h1>{title}</h1><p>{title} text</p></div></body></html>"
        );
        std::fs::write(dir.path().join(file), html).unwrap();
    }
    let mut inv =
        b"# Sphinx inventory version 2\n# Project: Python\n# Version: 3.11\n# zlib follows.\n".to_vec();
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(b"functools.lru_cache py:function 1 library/functools.html#$ -\nos.path py:module 0 missing.html#$ -\n")
        .unwrap();
    inv.extend(z.finish().unwrap());
    std::fs::write(dir.path().join("objects.inv"), inv).unwrap();
    let ingested = crate::read(dir.path(), "/py");
    let functools = ingested.pages.iter().find(|p| p.path == "/py/library/functools").unwrap();
    let names: Vec<(&str, &str, Option<&str>)> =
        functools.symbols.iter().map(|s| (s.name.as_str(), s.kind.as_str(), s.anchor.as_deref())).collect();
    assert_eq!(names, [("functools.lru_cache", "Function", Some("functools.lru_cache"))]);
    assert!(ingested.problems.is_empty(), "{:?}", ingested.problems);
}

#[test]
fn a_javadoc_member_index_gives_each_overload_its_symbol() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("org/example")).unwrap();
    let html = r#"<html><head><title>ArrayUtils</title></head><body><main><h1>Class ArrayUtils</h1>
<section class="detail" id="contains(int[],int)"><h3>contains</h3><p>Checks an int array.</p></section>
<section class="detail" id="contains(char[],char)"><h3>contains</h3><p>Checks a char array.</p></section>
</main></body></html>"#;
    std::fs::write(dir.path().join("org/example/ArrayUtils.html"), html).unwrap();
    let index = r#"memberSearchIndex = [{"p":"org.example","c":"ArrayUtils","l":"ArrayUtils()","u":"%3Cinit%3E()"},{"p":"org.example","c":"ArrayUtils","l":"contains(int[], int)","u":"contains(int[],int)"},{"p":"org.example","c":"ArrayUtils","l":"contains(char[], char)","u":"contains(char[],char)"}];updateSearchResults();"#;
    std::fs::write(dir.path().join("member-search-index.js"), index).unwrap();
    let ingested = crate::read(dir.path(), "/j");
    assert!(ingested.problems.is_empty(), "{:?}", ingested.problems);
    let page = ingested.pages.iter().find(|p| p.path == "/j/org/example/ArrayUtils").unwrap();
    let names: Vec<(&str, Option<&str>)> =
        page.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
    // (The page's title names the class it is about.)
    assert_eq!(
        names,
        [
            ("ArrayUtils", None),
            ("ArrayUtils.contains", Some("contains(int[],int)")),
            ("ArrayUtils.contains", Some("contains(char[],char)"))
        ]
    );
    // A broken index is reported; the pages stay.
    std::fs::write(dir.path().join("member-search-index.js"), "memberSearchIndex = [{\"p\": 1}]").unwrap();
    let ingested = crate::read(dir.path(), "/j");
    assert_eq!(ingested.pages.len(), 1);
    assert!(ingested.problems.iter().any(|p| p.path == "member-search-index.js"), "{:?}", ingested.problems);
}

/// A Sphinx API page as `python3.11-doc` ships it: each object's signature
/// a `<dt id>` of a `<dl class="py …">`, a class's members nested in its
/// description, an option's second name as an inner id, a description
/// list of another kind (`simple`) around an entry.
const SPHINX_API: &str = r##"<!DOCTYPE html><html><head><title>os.path — Python 3.11.2 documentation</title></head>
<body><div class="body" role="main"><section id="module-os.path">
<h1>os.path — Common pathname manipulations<a class="headerlink" href="#module-os.path">¶</a></h1>
<div class="contents local topic" id="contents">
<p class="topic-title">Contents</p>
<ul class="simple">
<li><p><a class="reference internal" href="#os.path.exists" id="id1">exists</a></p></li>
<li><p><a class="reference internal" href="#os.path.Walker" id="id2">Walker</a></p></li>
</ul></div>
<p>Intro text.</p>
<dl class="py function">
<dt class="sig sig-object py" id="os.path.exists">
<span class="sig-prename descclassname"><span class="pre">os.path.</span></span><span class="sig-name descname"><span class="pre">exists</span></span><span class="sig-paren">(</span><em class="sig-param"><span class="n">path</span></em><span class="sig-paren">)</span><a class="headerlink" href="#os.path.exists" title="Permalink to this definition">¶</a></dt>
<dd><p>Return <code class="docutils literal">True</code> if <em>path</em> refers to an existing path.</p></dd></dl>
<dl class="py class">
<dt class="sig sig-object py" id="os.path.Walker">
<em class="property">class </em><span class="sig-prename descclassname">os.path.</span><span class="sig-name descname">Walker</span>(<em class="sig-param">top</em>)</dt>
<dd><p>Walks a tree.</p>
<dl class="py method">
<dt class="sig sig-object py" id="os.path.Walker.step">
<span class="sig-name descname">step</span>(<em class="sig-param">n: <a class="reference internal" href="#os.path.Walker" title="os.path.Walker">Walker</a></em>)<a class="headerlink" href="#os.path.Walker.step">¶</a></dt>
<dd><p>Takes a step; see <span class="target" id="index-7"></span>the walk.</p></dd></dl>
</dd></dl>
<dl class="simple">
<dt>Platform notes</dt>
<dd><dl class="std cmdoption">
<dt class="sig sig-object std" id="cmdoption-o"><span id="cmdoption-output"></span><span class="sig-name descname">-o</span>, <span class="sig-name descname">--output</span></dt>
<dd><p>Write the output to a file.</p></dd></dl></dd></dl>
<dl class="cmake command">
<dt class="sig sig-object cmake" id="command:walk_tree">
<span class="sig-name descname"><span class="pre">walk_tree</span></span><a class="headerlink" href="#command:walk_tree">¶</a></dt>
<dd><p>Walks the tree from a build script.</p></dd></dl>
</section></div></body></html>"##;

#[test]
fn sphinx_api_entries_are_sections_of_their_own() {
    let page = html_to_page(SPHINX_API.as_bytes(), "library/os.path.html", "/py").unwrap();
    check_invariants(&page);
    let heads: Vec<(Option<&str>, &str, u8)> =
        page.sections.iter().map(|s| (s.anchor.as_deref(), s.title.as_str(), s.level)).collect();
    assert_eq!(
        heads,
        [
            (None, "os.path — Common pathname manipulations", 1),
            (Some("os.path.exists"), "os.path.exists(path)", 2),
            (Some("os.path.Walker"), "class os.path.Walker(top)", 2),
            // A member is a level below its class.
            (Some("os.path.Walker.step"), "step(n: Walker)", 3),
            (Some("cmdoption-o"), "-o, --output", 2),
            // An object of a domain an extension adds (CMake's commands).
            (Some("command:walk_tree"), "walk_tree", 2),
        ],
        "{}",
        page.markdown
    );
    let section = |anchor: &str| page.sections.iter().find(|s| s.anchor.as_deref() == Some(anchor)).unwrap();
    // A member's breadcrumb names its class without the parameters.
    assert_eq!(
        section("os.path.Walker.step").breadcrumb,
        ["os.path — Common pathname manipulations", "class os.path.Walker"]
    );
    // The description is the entry's text, not the page's top's, and not
    // indented under the list it stands in (Markdown would make it code).
    assert!(section("os.path.exists").text.contains("refers to an existing path"));
    assert!(!page.sections[0].text.contains("existing path"), "{}", page.sections[0].text);
    assert!(section("cmdoption-o").markdown.contains("\nWrite the output to a file."), "{}", page.markdown);
    // A type in a signature stays a link; the entry's own id is its anchor
    // once; inner ids stay where links land.
    assert!(section("os.path.Walker.step").markdown.contains("[Walker](/py/library/os.path#os.path.Walker)"));
    assert_eq!(page.markdown.matches("os.path.exists\"></a>").count(), 0, "{}", page.markdown);
    for id in ["index-7", "cmdoption-output"] {
        assert!(page.markdown.contains(&format!("<a id=\"{id}\"></a>")), "{id}: {}", page.markdown);
    }
    assert!(!page.markdown.contains('¶'), "{}", page.markdown);
    // The local table of contents goes, its title with it.
    assert!(!page.markdown.contains("Contents"), "{}", page.markdown);
    assert!(
        page.sections[0].text.starts_with("os.path — Common pathname manipulations\nIntro text."),
        "{:?}",
        page.sections[0].text
    );
    // An option's names are symbols of its entry.
    let option = page.symbols.iter().find(|s| s.name == "--output");
    assert_eq!(option.and_then(|s| s.anchor.as_deref()), Some("cmdoption-o"), "{:?}", page.symbols);
}

/// LibreOffice's help writes its links from the tree's root, which a
/// `<base href>` names.
#[test]
fn links_resolve_against_the_base_the_page_names() {
    let html = r##"<html><head><base href="../../../"><title>Fix</title></head><body><h1>Fix</h1>
<p>See <a href="text/scalc/01/g.html#x">G</a>, <a href="#local">here</a> and <img src="media/pic.png" alt="pic"></p></body></html>"##;
    let page = html_to_page(html.as_bytes(), "text/scalc/guide/fix.html", "/lo").unwrap();
    check_invariants(&page);
    for link in
        ["[G](/lo/text/scalc/01/g#x)", "[here](/lo/text/scalc/guide/fix#local)", "](/lo/media/pic.png)"]
    {
        assert!(page.markdown.contains(link), "{link}: {}", page.markdown);
    }
}

/// LibreOffice's help repeats a heading id on a page (each function's
/// "Syntax"): the first section keeps it, the others get their own.
#[test]
fn a_repeated_heading_id_names_only_the_first_section() {
    let html = r##"<html><head><title>Functions</title></head><body><h1>Functions</h1>
<h2 id="fn_a">ADDRESS</h2><h3 id="syntax">Syntax</h3><p>ADDRESS(row; column)</p>
<h2 id="fn_b">VLOOKUP</h2><h3 id="syntax">Syntax</h3><p>VLOOKUP(value; array; index)</p>
<h2 id="fn_c">SUMIF</h2><h3 id="syntax">Syntax</h3><p>SUMIF(range; criterion)</p></body></html>"##;
    let page = html_to_page(html.as_bytes(), "functions.html", "/lo").unwrap();
    check_invariants(&page);
    let syntax: Vec<(&str, &str)> = page
        .sections
        .iter()
        .filter(|s| s.title == "Syntax")
        .map(|s| (s.anchor.as_deref().unwrap_or(""), s.text.lines().last().unwrap_or("")))
        .collect();
    assert_eq!(
        syntax,
        [
            ("syntax", "ADDRESS(row; column)"),
            ("syntax-1", "VLOOKUP(value; array; index)"),
            ("syntax-2", "SUMIF(range; criterion)")
        ],
        "{}",
        page.markdown
    );
}

/// LibreOffice's help writes each platform's name of a key, all hidden
/// but the one its script shows: each is a word of its own.
#[test]
fn hidden_alternatives_are_words_of_their_own() {
    let html = r##"<html><head><title>Find</title></head><body><h1>Find</h1>
<p>Use the shortcut <span hidden="true" class="MAC">Command</span><span hidden="true" id="default">Ctrl</span>+F.</p></body></html>"##;
    let page = html_to_page(html.as_bytes(), "find.html", "/lo").unwrap();
    check_invariants(&page);
    let text = &page.sections[0].text;
    assert!(text.contains("Command Ctrl") && !text.contains("CommandCtrl"), "{text}");
}

/// texi2html (gettext's manual) sets each example in a one-row layout table
/// and names its table of contents' entries with `<a name=… href=…>`.
#[test]
fn texi2html_example_tables_are_code_blocks_and_named_links_are_anchors() {
    let html = r##"<html><body><h1>Sources</h1>
<table><tr><td>&nbsp;</td><td><pre class="example">&lt;h1&gt;My Homepage&lt;/h1&gt;</pre></td></tr></table>
<ul class="toc"><li><a name="TOC1" href="gettext_1.html#SEC1">1. Introduction</a></li></ul>
<table><tr><td>a</td><td>b</td></tr></table></body></html>"##;
    let page = html_to_page(html.as_bytes(), "toc.html", "/g").unwrap();
    check_invariants(&page);
    assert!(page.markdown.contains("```\n<h1>My Homepage</h1>\n```"), "{}", page.markdown);
    assert!(
        page.markdown.contains("<a id=\"TOC1\"></a>[1. Introduction](/g/gettext_1#SEC1)"),
        "{}",
        page.markdown
    );
    assert!(page.markdown.contains("| a | b |"), "a real table stays one: {}", page.markdown);
    // gtk-doc sets a page's title and purpose in a one-row table too.
    let html = r##"<html><body><div class="refnamediv"><table width="100%"><tr><td valign="top">
<h2><span class="refentrytitle"><a name="Hyper.top"></a>Hyper</span></h2><p>Hyper — links in text</p></td>
<td class="gallery_image" valign="top" align="right"></td></tr></table></div><p>Body.</p></body></html>"##;
    let page = html_to_page(html.as_bytes(), "Hyper.html", "/g").unwrap();
    check_invariants(&page);
    assert!(page.markdown.contains("Hyper — links in text\n\nBody."), "{}", page.markdown);
    assert!(!page.markdown.contains('|'), "{}", page.markdown);
    insta::assert_snapshot!("gtk_doc_title_block", page.markdown);
}

/// javadoc sets each part of a class page in `<ul class="blockList"><li>`:
/// a layout, not a list, so its headings and tables stay Markdown headings
/// and tables. A list of items stays a list.
#[test]
fn javadoc_block_lists_are_sections_not_list_items() {
    let html = r##"<html><head><title>Parsers (demo 1.0 API)</title></head><body><main>
<div class="header"><h2 title="Class Parsers" class="title">Class Parsers</h2></div>
<ul class="blockList"><li class="blockList">
<ul class="blockList"><li class="blockList"><a id="method.summary"></a>
<h3>Method Summary</h3>
<table><tr><th>Modifier</th><th>Method</th></tr><tr><td><code>static int</code></td><td><code>width()</code></td></tr></table>
</li></ul></li></ul>
<ul><li>plain item</li><li>another</li></ul></main></body></html>"##;
    let page = html_to_page(html.as_bytes(), "net/demo/Parsers.html", "/d").unwrap();
    check_invariants(&page);
    let md = &page.markdown;
    // The empty target before the heading is its anchor.
    assert!(md.contains("\n### Method Summary {#method.summary}\n"), "{md}");
    assert_eq!(md.matches("method.summary").count(), 1, "{md}");
    assert!(md.contains("\n| Modifier | Method |\n| --- | --- |\n| `static int` | `width()` |"), "{md}");
    assert!(md.contains("- plain item\n- another"), "{md}");
    assert!(!md.contains("- <a id"), "{md}");
    insta::assert_snapshot!("javadoc_class_page", md);
}

/// A page of an HTML manual: its title, as `<title>` and `<h1>`, then `body`.
fn page(title: &str, body: &str) -> String {
    format!("<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>")
}

#[test]
fn files_named_for_their_language_are_pages_without_it() {
    // Debian's reference manuals name every file for its language (`ch02.en.html`).
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "index.en.html",
            page("Reference", r#"<p><a href="ch01.en.html">One</a> <a href="ch02.en.html#apt">Two</a></p>"#),
        ),
        ("ch01.en.html", page("Chapter 1. Tutorials", r#"<p>See <a href="ch02.en.html">packages</a>.</p>"#)),
        (
            "ch02.en.html",
            page(
                "Chapter 2. Packages",
                r#"<h2 id="apt">apt</h2><p>Back to <a href="index.en.html">the start</a>.</p>"#,
            ),
        ),
        ("ch02.fr.html", page("Chapitre 2. Paquets", "<p>Un seul fichier en français.</p>")),
    ];
    for (name, html) in &files {
        std::fs::write(dir.path().join(name), html).unwrap();
    }
    let ingested = crate::read(dir.path(), "/ref");
    let mut paths: Vec<&str> = ingested.pages.iter().map(|p| p.path.as_str()).collect();
    paths.sort_unstable();
    assert_eq!(paths, ["/ref", "/ref/ch01", "/ref/ch02", "/ref/ch02.fr"]);
    let report = ingested.check_links("/ref");
    assert_eq!((report.internal, report.broken), (4, 0), "{report:?}");
    // The pages' Markdown links to the pages as they are named.
    let markdown = |path: &str| ingested.pages.iter().find(|p| p.path == path).unwrap().markdown.clone();
    assert!(markdown("/ref").contains("](/ref/ch02#apt)"), "{}", markdown("/ref"));
    assert!(markdown("/ref/ch01").contains("](/ref/ch02)"), "{}", markdown("/ref/ch01"));
    assert!(markdown("/ref/ch02").contains("](/ref)"), "{}", markdown("/ref/ch02"));
}

#[test]
fn emphasis_right_after_emphasis_renders_as_emphasis() {
    // DocBook's `<emphasis>package-1.0</emphasis><emphasis role="strong">.tar.gz</emphasis>`.
    let html = "<html><head><title>T</title></head><body><h1>T</h1><p>对 <span class=\"emphasis\"><em>package-1.0</em></span><span class=\"strong\"><strong>.tar.gz</strong></span>，一个程序；<strong>a</strong><em>b</em> and <b>c</b><b>d</b>.</p></body></html>";
    let page = html_to_page(html.as_bytes(), "t.html", "/t").unwrap();
    check_invariants(&page);
    let links = PageLinks {
        prefix: "/t",
        source_file: "t.html",
        anchors: &[],
        title: None,
        pages: None,
        others: None,
    };
    let rendered = markdown_to_html(&page.markdown, links);
    for shown in [
        "<em>package-1.0</em><strong>.tar.gz</strong>",
        "<strong>a</strong><em>b</em>",
        "<strong>c</strong><strong>d</strong>",
    ] {
        assert!(rendered.contains(shown), "{shown} in {rendered}\nfrom {}", page.markdown);
    }
    assert!(!rendered.contains('*') && !rendered.contains('_'), "{rendered}");
}

#[test]
fn a_folder_in_several_languages_gives_each_edition_its_own_files() {
    // Debian's debmake-doc: every chapter in six languages, side by side.
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("index.en.html", page("Guide", r#"<p><a href="ch01.en.html">One</a></p>"#)),
        (
            "ch01.en.html",
            page("Chapter 1. Overview", r#"<p>Back to <a href="index.en.html">the start</a>.</p>"#),
        ),
        ("index.zh-cn.html", page("指南", r#"<p><a href="ch01.zh-cn.html">第一章</a></p>"#)),
        ("ch01.zh-cn.html", page("第 1 章 概述", r#"<p>回到<a href="index.zh-cn.html">开头</a>。</p>"#)),
        ("index.zh-tw.html", page("指南", r#"<p><a href="ch01.zh-tw.html">第一章</a></p>"#)),
        ("ch01.zh-tw.html", page("第 1 章 概述", "<p>繁體中文。</p>")),
        // A name whose part before `.html` is no language: no twin, so it stays.
        ("parser.ts.html", page("parser.ts", "<p>Source listing.</p>")),
    ];
    for (name, html) in &files {
        std::fs::write(dir.path().join(name), html).unwrap();
    }
    let read = |locale: &str| {
        let options = ReadOptions { locale: Some(locale.to_owned()), ..ReadOptions::new("/g") };
        read_source(dir.path(), &options, &mut |_, _| {}).unwrap()
    };
    let zh = read("zh-Hans");
    let mut paths: Vec<(&str, &str)> = zh.pages.iter().map(|p| (p.path.as_str(), p.title.as_str())).collect();
    paths.sort_unstable();
    assert_eq!(paths, [("/g", "指南"), ("/g/ch01", "第 1 章 概述"), ("/g/parser.ts", "parser.ts")]);
    assert!(zh.pages.iter().all(|p| !p.markdown.contains("繁體")), "the zh-tw files are left out");
    let report = zh.check_links("/g");
    assert_eq!((report.internal, report.broken), (2, 0), "{report:?}");
    // Each translation left out is reported, saying which files this edition reads.
    let mut skipped: Vec<&str> = zh.problems.iter().map(|p| p.path.as_str()).collect();
    skipped.sort_unstable();
    assert_eq!(skipped, ["ch01.en.html", "ch01.zh-tw.html", "index.en.html", "index.zh-tw.html"]);
    assert!(zh.problems[0].reason.contains("this edition is zh-Hans and reads the files named *.zh-cn.html"));
    // The English edition of the same folder, and the traditional Chinese one.
    let en = read("en");
    assert!(en.pages.iter().any(|p| p.path == "/g/ch01" && p.title == "Chapter 1. Overview"));
    let tw = read("zh-Hant");
    assert!(tw.pages.iter().any(|p| p.path == "/g/ch01" && p.markdown.contains("繁體")));
    // No locale given: the folder is read as it is, every file a page.
    assert_eq!(crate::read(dir.path(), "/g").pages.len(), files.len());
}

#[test]
fn a_single_page_edition_beside_its_chapters_is_read_and_ranked_as_a_copy() {
    // Sphinx's `singlehtml` (Debian's developers-reference.html): every
    // chapter, headings and all, inside the master document's `toctree-wrapper`.
    let dir = tempfile::tempdir().unwrap();
    let sections = |chapter: usize| -> String {
        (0..8)
            .map(|i| {
                format!("<section id=\"s{chapter}-{i}\"><h2>{chapter}.{i}. Topic {chapter} {i}</h2><p>Text of topic {chapter}.{i}: upload, orphan.</p></section>")
            })
            .collect()
    };
    let doc = |title: &str, body: &str| {
        format!(
            "<html><head><title>{title}</title></head><body><div class=\"body\" role=\"main\"><section id=\"top\"><h1>{title}</h1>{body}</section></div></body></html>"
        )
    };
    let mut all = String::new();
    for chapter in 1..=3 {
        std::fs::write(
            dir.path().join(format!("ch{chapter}.html")),
            doc(&format!("Chapter {chapter}"), &sections(chapter)),
        )
        .unwrap();
        all.push_str(&format!(
            "<section id=\"ch{chapter}\"><h1>Chapter {chapter}</h1>{}</section>",
            sections(chapter)
        ));
    }
    let single = doc("Reference", &format!("<div class=\"toctree-wrapper compound\">{all}</div>"));
    std::fs::write(dir.path().join("reference.html"), single).unwrap();
    let ingested = crate::read(dir.path(), "/r");
    let page = |path: &str| ingested.pages.iter().find(|p| p.path == path).unwrap();
    // Its text is read (it is no table of contents)...
    let copy = page("/r/reference");
    assert!(copy.text.contains("Text of topic 2.3"), "{}", copy.text);
    // ...and it ranks after the chapters it repeats, which stay as they are.
    assert!(copy.listing);
    for chapter in ["/r/ch1", "/r/ch2", "/r/ch3"] {
        assert!(!page(chapter).listing, "{chapter}");
    }
}

#[test]
fn a_print_page_repeating_chapters_under_ids_of_its_own_is_ranked_as_a_copy() {
    // mdBook's `print.html`: each chapter's top (which has no id on the
    // chapter's own page) under an id of its own, the whole book in one page.
    let dir = tempfile::tempdir().unwrap();
    let doc = |title: &str, body: &str| {
        format!("<html><head><title>{title} - The Book</title></head><body><main>{body}</main></body></html>")
    };
    let chapter = |i: usize, id: &str| {
        format!(
            "<h1{id}><a class=\"header\" href=\"#c{i}\">Chapter {i}</a></h1><p>What chapter {i} says about lifetimes and drops.</p>"
        )
    };
    let mut all = String::new();
    for i in 1..=24 {
        std::fs::write(dir.path().join(format!("ch{i}.html")), doc(&format!("Chapter {i}"), &chapter(i, "")))
            .unwrap();
        all.push_str(&chapter(i, &format!(" id=\"c{i}\"")));
    }
    std::fs::write(dir.path().join("print.html"), doc("The Book", &all)).unwrap();
    let ingested = crate::read(dir.path(), "/b");
    let page = |path: &str| ingested.pages.iter().find(|p| p.path == path).unwrap();
    assert!(page("/b/print").listing);
    assert!((1..=24).all(|i| !page(&format!("/b/ch{i}")).listing));
}

#[test]
fn a_page_repeated_under_another_name_and_a_reference_collecting_pages_rank_as_copies() {
    // SQLite's `fileformat.html` and `fileformat2.html` (one page, two
    // names), and its `capi3ref.html`: every function's page in one, each
    // without the function page's closing "See also" line. Every page
    // starts with the site's banner.
    let dir = tempfile::tempdir().unwrap();
    let doc = |title: &str, body: &str| {
        format!(
            "<html><head><title>{title}</title></head><body><div class=\"banner\"><p>Small. Fast. Reliable. \
             Choose any three.</p></div><h1>{title}</h1>{body}</body></html>"
        )
    };
    let format_body: String = (1..=4)
        .map(|i| format!("<h2 id=\"s{i}\">{i}. Part {i}</h2><p>What part {i} of the file format holds: pages, frames.</p>"))
        .collect();
    std::fs::write(dir.path().join("fileformat.html"), doc("File Format", &format_body)).unwrap();
    std::fs::write(dir.path().join("fileformat2.html"), doc("File Format", &format_body)).unwrap();
    std::fs::create_dir(dir.path().join("c3ref")).unwrap();
    let said = |i: usize| {
        format!(
            "int sqlite3_call{i}(sqlite3*); Function {i} returns the count of rows that statement {i} changed, \
             and whatever else a reader of function {i} needs to know about its arguments, its errors, its \
             threads and its limits, in two or three sentences that no other function's page repeats. \
             It may be called from any thread, and it never fails."
        )
    };
    let mut all = String::new();
    for i in 1..=24 {
        let page = format!("<p>{}</p><p>See also lists of Objects, Constants, and Functions.</p>", said(i));
        std::fs::write(
            dir.path().join(format!("c3ref/call{i}.html")),
            doc(&format!("Function Number {i}"), &page),
        )
        .unwrap();
        all.push_str(&format!("<h2 id=\"f{i}\">Function Number {i}</h2><p>{}</p>", said(i)));
    }
    std::fs::write(dir.path().join("capi3ref.html"), doc("C Interface", &all)).unwrap();
    let ingested = crate::read(dir.path(), "/s");
    let page = |path: &str| ingested.pages.iter().find(|p| p.path == path).unwrap();
    assert!(!page("/s/fileformat").listing);
    assert!(page("/s/fileformat2").listing, "the second name of one page ranks after the first");
    assert!(page("/s/capi3ref").listing, "the collected reference ranks after the pages it repeats");
    assert!((1..=24).all(|i| !page(&format!("/s/c3ref/call{i}")).listing));
}

#[test]
fn a_page_of_links_and_little_else_ranks_with_the_listings() {
    // SQLite's keyword index: hundreds of keywords, each a link.
    let links: String =
        (0..200).map(|i| format!("<li><a href=\"p{i}.html#k\">keyword number {i}</a></li>")).collect();
    let page = |body: &str| {
        let html = format!(
            "<html><head><title>Keyword Index</title></head><body><h1>Keyword Index</h1>{body}</body></html>"
        );
        html_to_page(html.as_bytes(), "keyword_index.html", "/d").unwrap()
    };
    assert!(page(&format!("<ul>{links}</ul>")).listing);
    // The same links beside as much prose are a page of content.
    let prose = "<p>This page says what each of these keywords does, in sentences of its own.</p>".repeat(40);
    assert!(!page(&format!("{prose}<ul>{links}</ul>")).listing);
    // A short page of links (a chapter's contents) is read as one.
    let few: String = (0..10).map(|i| format!("<li><a href=\"p{i}.html\">Chapter {i}</a></li>")).collect();
    assert!(!page(&format!("<ul>{few}</ul>")).listing);
}

#[test]
fn a_faq_without_headings_has_a_section_per_question() {
    // SQLite's `faq.html`: a list of the questions linking to `#qN`, then
    // each as an empty `<a name>` and a bold paragraph, its answer below.
    let mut body = String::from("<ol>");
    for i in 1..=4 {
        body.push_str(&format!("<li><a href=\"#q{i}\">Question {i}?</a></li>"));
    }
    body.push_str("<li><a href=\"#t1\">Table 1</a></li></ol>");
    for i in 1..=4 {
        body.push_str(&format!(
            "<a name=\"q{i}\"></a>\n<p><b>({i}) Why does thing {i} happen?</b></p>\
             <blockquote><p>Answer {i}: because of reason {i}.</p></blockquote>"
        ));
    }
    // A bold line nothing links to, and a generator's classed title (though
    // linked), stay text.
    body.push_str("<p><b>Unlinked bold line</b></p><a name=\"t1\"></a><p class=\"title\"><b>Table 1</b></p>");
    let html = format!("<html><head><title>FAQ</title></head><body><h1>FAQ</h1>{body}</body></html>");
    let page = html_to_page(html.as_bytes(), "faq.html", "/d").unwrap();
    let questions: Vec<(String, String)> =
        page.sections.iter().filter_map(|s| Some((s.anchor.clone()?, s.title.clone()))).collect();
    let asked: Vec<(String, String)> =
        (1..=4).map(|i| (format!("q{i}"), format!("({i}) Why does thing {i} happen?"))).collect();
    assert_eq!(questions, asked);
    let q2 = &page.sections[2];
    assert!(q2.text.contains("Answer 2: because of reason 2."), "{}", q2.text);
    assert!(!q2.text.contains("Answer 3"), "{}", q2.text);
    // Each anchor is written once, on its question.
    assert!(page.markdown.contains("## (2) Why does thing 2 happen? {#q2}\n"), "{}", page.markdown);
    assert_eq!(page.markdown.matches("q2").count(), 1, "{}", page.markdown);
    assert!(
        page.sections[4].text.contains("Unlinked bold line") && page.sections[4].text.contains("Table 1")
    );
    // With fewer than three such questions, a page is no FAQ.
    let two = html.replace("#q3", "#x3").replace("#q4", "#x4");
    assert_eq!(html_to_page(two.as_bytes(), "faq.html", "/d").unwrap().sections.len(), 1);
}

/// An MkDocs site: `mkdocs.yml` beside `docs/` orders and groups the
/// pages, whether the repository or its docs folder is added; a page named
/// alone keeps its own title.
#[test]
fn an_mkdocs_nav_orders_and_groups_the_pages() {
    let repo = tempfile::tempdir().unwrap();
    let docs = repo.path().join("docs");
    std::fs::create_dir_all(docs.join("guide")).unwrap();
    for (file, body) in [
        ("index.md", "# Welcome\n"),
        ("guide/install.md", "# Installing\n"),
        ("guide/usage.md", "# Using it\n"),
        ("changelog.md", "# Changes\n"),
        ("zzz-unlisted.md", "# Unlisted\n"),
    ] {
        std::fs::write(docs.join(file), body).unwrap();
    }
    std::fs::write(
        repo.path().join("mkdocs.yml"),
        "site_name: Demo\nnav:\n  - Home: index.md\n  - Again: index.md\n  - User guide:\n      - guide/usage.md\n      - Setup: guide/install.md\n  - GitHub: https://example.org/demo\n  - changelog.md\nmarkdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
    )
    .unwrap();
    for (root, prefix) in [(docs.as_path(), "/d"), (repo.path(), "/r")] {
        let ingested = crate::read(root, prefix);
        assert!(ingested.problems.is_empty(), "{:?}", ingested.problems);
        let mut pages: Vec<_> = ingested.pages.iter().filter(|p| p.nav.position.is_some()).collect();
        pages.sort_by_key(|p| p.nav.position);
        let placed: Vec<(String, Vec<String>, Option<&str>)> = pages
            .iter()
            .map(|p| {
                let file = p.source_file.trim_start_matches("docs/").to_owned();
                (file, p.nav.groups.iter().map(|g| g.label.clone()).collect(), p.nav.label.as_deref())
            })
            .collect();
        let guide = vec!["User guide".to_owned()];
        assert_eq!(
            placed,
            [
                ("index.md".to_owned(), vec![], Some("Home")),
                ("guide/usage.md".to_owned(), guide.clone(), None),
                ("guide/install.md".to_owned(), guide, Some("Setup")),
                ("changelog.md".to_owned(), vec![], None),
            ],
            "{root:?}"
        );
        let unlisted = ingested.pages.iter().find(|p| p.source_file.ends_with("zzz-unlisted.md")).unwrap();
        assert_eq!(unlisted.nav.position, None);
    }
    // A broken mkdocs.yml is reported; the pages are still read.
    std::fs::write(repo.path().join("mkdocs.yml"), "nav: [\n").unwrap();
    let ingested = crate::read(&docs, "/d");
    assert_eq!(ingested.pages.len(), 5);
    assert!(
        ingested.problems.iter().any(|p| p.path == "../mkdocs.yml" && p.reason.contains("YAML")),
        "{:?}",
        ingested.problems
    );
}

/// A Doxygen 1.8 group page as Debian's lmdb-doc ships it: the title is a
/// `div.title` holding the parent group's link (a breadcrumb), a "Macros"
/// summary of the page's own sections comes before it, the members'
/// headings carry a `◆` permalink, and the page's first `<h1>` comes later.
const DOXYGEN_GROUP: &str = r##"<!DOCTYPE html><html><head><title>Frob: Environment Flags</title></head><body>
<div id="top"><div id="titlearea"><div class="frobheader"><a href="https://frob.example/">Frob</a><ul class="frobnavbar"><li><a href="https://frob.example/download.html">Download</a></li><li><a href="https://frob.example/community.html">Community</a></li></ul></div></div><div id="main-nav"></div></div>
<div class="header">
  <div class="summary"><a href="#define-members">Macros</a> | <a href="#func-members">Functions</a></div>
  <div class="headertitle"><div class="title">Environment Flags<div class="ingroups"><a class="el" href="group__api.html">Frob API</a></div></div></div>
</div>
<div class="contents">
<p>Flags for an environment.</p>
<h1><a class="anchor" id="Cursors"></a>Cursors</h1>
<p>Cursors walk a table.</p>
<div class="fragment"><div class="line"><span class="lineno">    1</span><span class="keywordflow">if</span> (!<a class="code hl_function" href="#ga1">frob_open</a>(env))</div>
<div class="line">{</div>
<div class="line">    exit(1);</div>
<div class="line">}</div>
</div>
<div class="ttc" id="aopen"><div class="ttname"><a href="#ga1">frob_open</a></div><div class="ttdeci">int frob_open(FROB_env *env)</div><div class="ttdoc">Opens an environment handle.</div></div>
<table class="memberdecls"><tr class="heading"><td colspan="2"><h2 class="groupheader"><a name="define-members"></a>Macros</h2></td></tr>
<tr><td>#define</td><td><a class="el" href="#ga1">FROB_RDONLY</a> 0x1</td></tr></table>
<a id="ga1"></a>
<h2 class="memtitle"><span class="permalink"><a href="#ga1">&#9670;&nbsp;</a></span>FROB_RDONLY</h2>
<div class="memitem"><div class="memdoc"><p>Read only.</p></div></div>
<a name="func-members"></a>
</div></body></html>"##;

#[test]
fn doxygen_title_blocks_are_the_page_title_and_its_summary_and_permalinks_go() {
    let page = html_to_page(DOXYGEN_GROUP.as_bytes(), "group__env.html", "/frob").unwrap();
    check_invariants(&page);
    assert_eq!(page.title, "Environment Flags");
    let md = &page.markdown;
    let first_lines: Vec<&str> = md.lines().filter(|l| !l.trim().is_empty()).take(3).collect();
    assert_eq!(first_lines[0], "# Environment Flags", "{md}");
    assert!(first_lines[1].ends_with("Flags for an environment."), "{md}");
    // A code fragment is a code block, its names as written (no link to
    // read as an image after its `!`), without line numbers.
    assert!(md.contains("```\nif (!frob_open(env))\n{\n    exit(1);\n}\n```"), "{md}");
    // A code fragment's hover tooltips are not text.
    for gone in
        ["[Macros]", "[Functions]", "Frob API", "◆", "int frob_open", "Opens an environment", "Download"]
    {
        assert!(!md.contains(gone), "{gone} left in {md}");
    }
    let heads: Vec<&str> = page.sections.iter().map(|s| s.title.as_str()).collect();
    assert!(heads.contains(&"Cursors") && heads.contains(&"FROB_RDONLY"), "{heads:?}");
    // Every anchor survives, the summary's targets included.
    let anchors = lectern_corpus::links::html_anchors(md);
    let ids: Vec<&str> = page.sections.iter().filter_map(|s| s.anchor.as_deref()).collect();
    for id in ["define-members", "func-members", "Cursors", "ga1"] {
        assert!(anchors.iter().any(|a| a == id) || ids.contains(&id), "#{id} lost: {md}");
    }
}

/// Doxygen 1.9 writes a fragment's hover tooltips inside it, and a custom
/// header may leave a page without `<title>`.
#[test]
fn doxygen_fragments_with_tooltips_are_code_and_a_title_block_titles_a_page_without_title() {
    let html = r##"<html><head><meta name="generator" content="Doxygen 1.9.4"/></head><body>
<div class="header"><div class="headertitle"><div class="title">Matrix transforms</div></div></div>
<div class="contents">
<table class="memberdecls"><tr><td><a class="el" href="#ga2">translate</a> (m, v)</td></tr>
<tr><td class="mdescRight">Builds a translation matrix. <a href="#ga2">More...</a></td></tr></table>
<a id="ga2"></a><h2 class="memtitle">translate()</h2>
<div class="memdoc"><div class="fragment"><div class="line">glm::mat4 m = <a class="code hl_function" href="#ga2">glm::translate</a>(glm::mat4(1.0f), v);</div>
<div class="line"><span class="comment">// m[3][0] == 1.0f</span></div>
<div class="ttc" id="aga2"><div class="ttname"><a href="#ga2">glm::translate</a></div><div class="ttdoc">Builds a translation matrix.</div></div>
</div></div></div></body></html>"##;
    let page = html_to_page(html.as_bytes(), "group__transform.html", "/glm").unwrap();
    check_invariants(&page);
    assert_eq!(page.title, "Matrix transforms");
    let md = &page.markdown;
    assert!(
        md.contains(
            "```
glm::mat4 m = glm::translate(glm::mat4(1.0f), v);
// m[3][0] == 1.0f
```"
        ),
        "{md}"
    );
    assert!(!md.contains("More..."), "{md}");
    assert_eq!(md.matches("Builds a translation matrix.").count(), 1, "{md}");
}

/// The empty targets generators write right before a heading: gtk-doc's
/// `<a name="frob-new"></a><h3>`, Doxygen's `<a id="ga2"></a><h2
/// class="memtitle">`, Javadoc 8's `<a name="turn-int-"><!-- --></a>`
/// before the list that opens with the method's `<h4>`. The API index and
/// every link point at them: each is its heading's anchor (or lands in its
/// section when the heading has one), never the end of the section before.
#[test]
fn an_empty_target_right_before_a_heading_is_the_headings_anchor() {
    let html = r##"<html><head><title>Frob</title></head><body><h1>Frob</h1>
<div class="refsect1"><a name="frob.functions_details"></a><h2>Functions</h2>
<div class="refsect2"><a name="frob-new"></a><h3>frob_new ()</h3><p>Makes a frob.</p></div>
<div class="refsect2"><a name="frob-free"></a>
<!-- a comment -->
<h3>frob_free ()</h3><p>Frees a frob.</p></div></div>
<h2 class="groupheader">Function Documentation</h2>
<a id="ga2" name="ga2"></a>
<h2 class="memtitle"><span class="permalink"><a href="#ga2">&#9670;&nbsp;</a></span>frob_turn()</h2>
<div class="memitem"><p>Turns a frob.</p></div>
<a name="spin-int-"><!--   --></a><ul class="blockList"><li class="blockList"><h4>spin</h4><p>Spins a frob.</p></li></ul>
<a name="old-name"></a><h2 id="own">Own id</h2><p>Its own.</p>
<p>Text <a name="inline"></a>and a heading after it.</p><h2>After text</h2><p>Last.</p>
<section class="detail" id="notNull(T)"><h3 id="notNull(java.lang.Object)">notNull</h3><p>Checks.</p></section>
</body></html>"##;
    let page = html_to_page(html.as_bytes(), "frob.html", "/d").unwrap();
    check_invariants(&page);
    let sections = anchored_titles(&page);
    assert_eq!(
        sections[1..],
        [
            (Some("frob.functions_details"), "Functions"),
            (Some("frob-new"), "frob_new ()"),
            (Some("frob-free"), "frob_free ()"),
            (Some("function-documentation"), "Function Documentation"),
            (Some("ga2"), "frob_turn()"),
            (Some("spin-int-"), "spin"),
            (Some("own"), "Own id"),
            (Some("after-text"), "After text"),
            (Some("notNull(T)"), "notNull"),
        ],
        "{}",
        page.markdown
    );
    let anchors = |i: usize| lectern_corpus::links::html_anchors(&page.sections[i].markdown);
    // Each written once, on its heading.
    for id in ["frob-new", "ga2", "spin-int-"] {
        assert_eq!(page.markdown.matches(&format!("{{#{id}}}")).count(), 1, "{}", page.markdown);
        assert!(!page.markdown.contains(&format!("id=\"{id}\"")), "{}", page.markdown);
    }
    // The target before a heading with an id of its own lands in its section.
    assert!(anchors(7).iter().any(|a| a == "old-name"), "{}", page.markdown);
    assert!(!anchors(6).iter().any(|a| a == "old-name"), "{}", page.markdown);
    // The element a heading opens, when it is the heading's section, names
    // it (Javadoc's `<section id="notNull(T)"><h3
    // id="notNull(java.lang.Object)">`, as its own links do); the heading's
    // id opens its line, so that a link to it shows the heading; so does
    // the section's own, which no `{#id}` can hold.
    assert!(anchors(9).iter().any(|a| a == "notNull(java.lang.Object)"), "{}", page.markdown);
    assert!(
        page.markdown
            .contains("### <a id=\"notNull(T)\"></a><a id=\"notNull(java.lang.Object)\"></a>notNull\n"),
        "{}",
        page.markdown
    );
    // One inside a paragraph stays where it stands.
    assert!(anchors(7).iter().any(|a| a == "inline"), "{}", page.markdown);
    assert!(page.sections[4].text.is_empty() || !page.sections[4].text.contains("Turns"));
}

/// Texinfo 6's one-page manual (Debian's bash-doc): each node a `<div
/// id>` opening with its navigation line, then an empty `<span id>` and
/// the heading. The navigation line is dropped, and both ids stand right
/// before the heading: a link to either lands on its section, whose anchor
/// is the node's, as the manual's own links name it.
#[test]
fn ids_written_last_before_a_heading_are_the_headings() {
    let html = r##"<html><head><title>Bash Reference Manual</title></head><body>
<h1 class="settitle">Bash Reference Manual</h1>
<div class="section" id="Bourne-Shell-Variables">
<div class="header"><p>Next: <a href="#Bash-Variables" accesskey="n" rel="next">Bash Variables</a>, Up: <a href="#Shell-Variables" rel="up">Shell Variables</a></p></div>
<span id="Bourne-Shell-Variables-1"></span><h3 class="section">5.1 Bourne Shell Variables</h3>
<p>Bash uses certain shell variables in the same way as the Bourne shell.</p>
<hr></div>
<div class="section" id="Bash-Variables">
<div class="header"><p>Previous: <a href="#Bourne-Shell-Variables" accesskey="p" rel="prev">Bourne Shell Variables</a>, Up: <a href="#Shell-Variables" rel="up">Shell Variables</a></p></div>
<span id="Bash-Variables-1"></span><h3 class="section">5.2 Bash Variables</h3>
<p>These variables are set or used by Bash.</p>
</div></body></html>"##;
    let page = html_to_page(html.as_bytes(), "bashref.html", "/bash").unwrap();
    check_invariants(&page);
    let sections = anchored_titles(&page);
    assert_eq!(
        sections[1..],
        [
            (Some("Bourne-Shell-Variables"), "5.1 Bourne Shell Variables"),
            (Some("Bash-Variables"), "5.2 Bash Variables")
        ],
        "{}",
        page.markdown
    );
    let anchors = |i: usize| lectern_corpus::links::html_anchors(&page.sections[i].markdown);
    assert!(anchors(2).iter().any(|a| a == "Bash-Variables-1"), "{}", page.markdown);
    assert!(!anchors(1).iter().any(|a| a.starts_with("Bash-Variables")), "{}", page.markdown);
    assert!(page.sections[1].text.contains("same way as the Bourne shell"), "{}", page.markdown);
}

/// A texinfo 6.8 manual in one file (`makeinfo --no-split`, as Debian's
/// r-doc-html ships R's): the `settitle` heading, then the Top node with
/// its navigation header and the same title again.
const TEXINFO_ONE_FILE: &str = r##"<html><head><title>An Introduction to Frob</title></head><body lang="en">
<h1 class="settitle" align="center">An Introduction to Frob</h1>
<div class="top" id="Top">
<div class="header"><p>Next: <a href="#Preface" accesskey="n" rel="next">Preface</a> &nbsp; [<a href="#SEC_Contents" title="Table of contents" rel="contents">Contents</a>][<a href="#Index" rel="index">Index</a>]</p></div>
<span id="An-Introduction-to-Frob"></span><h1 class="top">An Introduction to Frob</h1>
<p>This is an introduction to Frob.</p>
<hr>
<div class="unnumbered" id="Preface">
<div class="header"><p>Next: <a href="#Index" accesskey="n" rel="next">Index</a>, Previous: <a href="#Top" accesskey="p" rel="prev">An Introduction to Frob</a>, Up: <a href="#Top" accesskey="u" rel="up">An Introduction to Frob</a> &nbsp; [<a href="#SEC_Contents">Contents</a>][<a href="#Index">Index</a>]</p></div>
<h2 class="unnumbered">Preface</h2><p>Frobs turn.</p></div>
<div class="unnumbered" id="Index"><h2 class="unnumbered">Index</h2><p>frob</p></div>
</body></html>"##;

#[test]
fn a_texinfo_manual_in_one_file_has_its_title_once_and_no_node_headers() {
    let page = html_to_page(TEXINFO_ONE_FILE.as_bytes(), "frob-intro.html", "/frob").unwrap();
    check_invariants(&page);
    assert_eq!(page.title, "An Introduction to Frob");
    let md = &page.markdown;
    assert_eq!(md.matches("An Introduction to Frob").count(), 1, "{md}");
    assert!(!md.contains("Next:") && !md.contains("[Contents]"), "{md}");
    let heads: Vec<&str> = page.sections.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(heads, ["An Introduction to Frob", "Preface", "Index"], "{md}");
    for id in ["Top", "An-Introduction-to-Frob", "Preface"] {
        let held = lectern_corpus::links::html_anchors(md).iter().any(|a| a == id)
            || page.sections.iter().any(|s| s.anchor.as_deref() == Some(id));
        assert!(held, "#{id} lost: {md}");
    }
}

/// A rustdoc 1.63 item page (Debian's rust-doc): the "since" version, the
/// source link and a script's "[−]" control beside the title, the item's
/// docs in a `<details>` whose summary says "Expand description", methods
/// with their own source links; and an mdBook heading that links itself.
const RUSTDOC_163: &str = r##"<!DOCTYPE html><html><head><title>Frobber in frob - Rust</title></head><body class="rustdoc struct">
<nav class="sidebar"><h2 class="location"><a href="#">Frobber</a></h2></nav>
<main><div class="width-limiter"><section id="main-content" class="content">
<div class="main-heading"><h1 class="fqn"><span class="in-band">Struct <a href="index.html">frob</a>::<a class="struct" href="#">Frobber</a></span></h1>
<span class="out-of-band"><span class="since" title="Stable since 1.15.0">1.15.0</span> · <a class="srclink" href="../src/frob/lib.rs.html#75">source</a> · <a id="toggle-all-docs" href="javascript:void(0)" title="collapse all docs">[<span class="inner">&#x2212;</span>]</a></span></div>
<div class="docblock item-decl"><pre class="rust struct"><code>pub struct Frobber;</code></pre></div>
<details class="rustdoc-toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>Turns tables around, see <a href="../std/vec/struct.Vec.html">Vec</a>.</p></div></details>
<h2 id="implementations" class="small-section-header">Implementations<a href="#implementations" class="anchor"></a></h2>
<details class="rustdoc-toggle method-toggle" open><summary><section id="method.turn" class="method has-srclink"><span class="rightside"><span class="since">1.29.0</span> · <a class="srclink" href="../src/frob/lib.rs.html#9">source</a></span><h4 class="code-header">pub fn <a href="#method.turn" class="fnname">turn</a>(&amp;self)</h4></section></summary><div class="docblock"><p>Turns it.</p></div></details>
<h2 id="guide"><a class="header" href="#guide">A guide</a></h2><p>Read on.</p>
</section></div></main></body></html>"##;

#[test]
fn rustdoc_pages_lose_their_controls_and_source_links_and_keep_links_out_of_the_tree() {
    let page = html_to_page(RUSTDOC_163.as_bytes(), "struct.Frobber.html", "/frob").unwrap();
    check_invariants(&page);
    let md = &page.markdown;
    for gone in ["Expand description", "1.15.0", "1.29.0", "[−]", "\\[−\\]", "source", "javascript"] {
        assert!(!md.contains(gone), "{gone} left in {md}");
    }
    assert!(md.contains("```rust\npub struct Frobber;\n```\n\nTurns tables around"), "{md}");
    // Climbing out of the tree: kept as written, for the reader to place.
    assert!(md.contains("[Vec](../std/vec/struct.Vec.html)"), "{md}");
    // Headings linking themselves keep their text, not the link.
    assert!(md.contains("## A guide {#guide}") && md.contains("pub fn turn(&self)"), "{md}");
    let anchors: Vec<&str> = page.sections.iter().filter_map(|s| s.anchor.as_deref()).collect();
    assert!(anchors.contains(&"implementations") && anchors.contains(&"guide"), "{anchors:?}");
}

/// A rustdoc 1.95 item page: its heading says the kind and the bare name,
/// its `<title>` the path; the version and source link sit in a
/// `sub-heading` span, a tooltip's "ⓘ" follows a signature, and a `where`
/// clause is a block inside the method's heading.
const RUSTDOC_195: &str = r##"<!DOCTYPE html><html><head><meta name="generator" content="rustdoc"><title>Vec in std::vec - Rust</title></head><body class="rustdoc struct">
<main><div class="width-limiter"><section id="main-content" class="content"><div class="main-heading"><div class="rustdoc-breadcrumbs"><a href="../index.html">std</a>::<wbr><a href="index.html">vec</a></div>
<h1>Struct <span class="struct">Vec</span>&nbsp;<button id="copy-path" title="Copy item path to clipboard">Copy item path</button></h1><rustdoc-toolbar></rustdoc-toolbar><span class="sub-heading"><span class="since" title="Stable since Rust version 1.0.0">1.0.0</span> · <a class="src" href="../../src/alloc/vec/mod.rs.html#438">Source</a> </span></div>
<pre class="rust item-decl"><code>pub struct Vec&lt;T&gt; { /* private fields */ }</code></pre>
<details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>A contiguous growable array type.</p></div></details>
<h2 id="implementations" class="section-header">Implementations<a href="#implementations" class="anchor">§</a></h2>
<details class="toggle method-toggle" open><summary><section id="method.retain" class="method"><span class="rightside"><span class="since">1.0.0</span> · <a class="src" href="../../src/alloc/vec/mod.rs.html#2425">Source</a></span><h4 class="code-header">pub fn <a href="#method.retain" class="fn">retain</a>&lt;F&gt;(&amp;mut self, f: F)<div class="where">where
    F: FnMut(&amp;T) -&gt; bool,</div></h4></section></summary><div class="docblock"><p>Retains only the elements specified by the predicate.</p></div></details>
<details class="toggle method-toggle" open><summary><section id="method.drain" class="method"><h4 class="code-header">pub fn <a href="#method.drain" class="fn">drain</a>(&amp;mut self) -&gt; Drain&lt;'_, T&gt; <a href="#" class="tooltip" data-notable-ty="Drain&lt;'_, T&gt;">ⓘ</a></h4></section></summary><div class="docblock"><p>Removes the elements in bulk.</p></div></details>
</section></div></main></body></html>"##;

#[test]
fn a_rustdoc_item_page_is_titled_by_its_path_and_its_methods_headings_read_cleanly() {
    let page = html_to_page(RUSTDOC_195.as_bytes(), "vec/struct.Vec.html", "/std").unwrap();
    check_invariants(&page);
    assert_eq!(page.title, "Struct std::vec::Vec");
    let titles: Vec<&str> = page.sections.iter().map(|s| s.title.as_str()).collect();
    assert!(titles.contains(&"pub fn retain<F>(&mut self, f: F) where F: FnMut(&T) -> bool,"), "{titles:?}");
    assert!(titles.contains(&"pub fn drain(&mut self) -> Drain<'_, T>"), "{titles:?}");
    for gone in ["1.0.0", "Source", "ⓘ", "Copy item path"] {
        assert!(!page.text.contains(gone), "{gone} left in {}", page.text);
        assert!(!page.markdown.contains(gone), "{gone} left in {}", page.markdown);
    }
    assert!(page.text.contains("A contiguous growable array type."), "{}", page.text);
}

/// rustdoc's redirect stubs climb out of the tree and back in through its
/// own folder (`std/collections/hash_map/struct.HashMap.html` at
/// `../../../std/…` in a tree copied as `std`): they lead to their page.
#[test]
fn a_redirect_climbing_back_in_through_the_trees_folder_leads_to_its_page() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("std");
    std::fs::create_dir_all(tree.join("collections/hash")).unwrap();
    std::fs::create_dir_all(tree.join("collections/hash_map")).unwrap();
    std::fs::write(
        tree.join("index.html"),
        "<html><body><h1>Crate std</h1><p>The standard library.</p></body></html>",
    )
    .unwrap();
    std::fs::write(
        tree.join("collections/hash_map/struct.HashMap.html"),
        "<html><body><h1>HashMap</h1><p>A hash map implemented with quadratic probing.</p></body></html>",
    )
    .unwrap();
    std::fs::write(
        tree.join("collections/hash/struct.HashMap.html"),
        "<html><head><meta http-equiv=\"refresh\" content=\"0;URL=../../../std/collections/hash_map/struct.HashMap.html#method.new\"><title>Redirection</title></head><body><p>Redirecting to <a href=\"../../../std/collections/hash_map/struct.HashMap.html\">…</a></p></body></html>",
    )
    .unwrap();
    // A stub leading to another tree's folder stays a page.
    std::fs::write(
        tree.join("collections/struct.Other.html"),
        "<html><head><meta http-equiv=\"refresh\" content=\"0;URL=../../core/struct.Other.html\"><title>Redirection</title></head><body><p>Redirecting</p></body></html>",
    )
    .unwrap();
    let ingested = crate::read(&tree, "/std");
    let paths: Vec<&str> = ingested.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["/std", "/std/collections/hash_map/struct.HashMap", "/std/collections/struct.Other"]);
    let moved: Vec<(&str, &str)> = ingested.moved.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(
        moved,
        [("/std/collections/hash/struct.HashMap", "/std/collections/hash_map/struct.HashMap#method.new")]
    );
}

/// A Texinfo manual on one page (texi2any, R's manuals): the title, then
/// the Top node's heading repeating it, then sections whose options are a
/// definition list without ids.
const TEXINFO_ONE_PAGE: &str = r##"<html><head><title>R Installation and Administration</title><meta name="Generator" content="makeinfo"></head><body>
<h1 class="settitle">R Installation and Administration</h1>
<div class="top" id="Top"><div class="header"><p>Next: <a href="#Obtaining-R" accesskey="n" rel="next">Obtaining R</a></p></div>
<span id="R-Installation-and-Administration"></span><h1 class="top">R Installation and Administration</h1>
<p>This is a guide to installation and administration for R.</p></div>
<div class="section" id="Configuration-options"><span id="Configuration-options-1"></span><h3 class="section">B.1 Configuration options</h3>
<p>The most important ones are</p>
<dl compact="compact"><dt><span><samp>--with-x</samp></span></dt><dd><p>use the X Window System [yes]</p></dd>
<dt><span><samp>--enable-R-shlib</samp></span></dt><dd><p>build R as a shared/dynamic library [no]</p></dd></dl></div>
<div class="section" id="Internationalization-support"><span id="Internationalization-support-1"></span><h3 class="section">B.2 Internationalization support</h3>
<p>Translation of messages is supported.</p></div>
</body></html>"##;

#[test]
fn options_of_a_one_page_texinfo_manual_name_the_section_holding_them() {
    let page = html_to_page(TEXINFO_ONE_PAGE.as_bytes(), "R-admin.html", "/r").unwrap();
    check_invariants(&page);
    let holding = page.sections.iter().find(|s| s.title == "B.1 Configuration options").unwrap();
    for name in ["--with-x", "--enable-R-shlib"] {
        let symbol = page
            .symbols
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name}: {:?}", page.symbols));
        assert_eq!(symbol.anchor, holding.anchor, "{name}: {:?}", page.sections);
    }
}

/// Footnotes as generators mark them: Texinfo's `<a href="#FOOT1"><sup>1</sup></a>`
/// and its notes under `<h5>(1)</h5>` headings, Pandoc's `<sup>` inside a
/// link, Sphinx's `footnote-reference` link; and Texinfo's empty category
/// before a definition (`<span class="category">: </span>`).
#[test]
fn footnote_marks_are_words_of_their_own_and_notes_are_no_sections() {
    let html = r##"<html><head><title>An Introduction to R</title></head><body><h1>An Introduction to R</h1>
<p>The award-winning<a id="DOCF1" href="#FOOT1"><sup>1</sup></a> S system; Pandoc's<a href="#fn1" class="footnote-ref" id="fnref1"><sup>2</sup></a> notes; Sphinx's<a class="footnote-reference brackets" href="#id3">3</a> notes; x<sup>2</sup> stays.</p>
<dl class="def"><dt id="index-celldisp"><span class="category">: </span><span><strong>celldisp</strong> <em>(<var>c</var>)</em></span></dt><dd><p>Display a cell array.</p></dd></dl>
<h4 class="footnotes-heading">Footnotes</h4>
<h5><a id="FOOT1" href="#DOCF1">(1)</a></h5><p>ACM Software Systems award, 1998.</p>
<h5><a id="FOOT2" href="#DOCF2">(2)</a></h5><p>A second note.</p>
</body></html>"##;
    let page = html_to_page(html.as_bytes(), "R-intro.html", "/r").unwrap();
    check_invariants(&page);
    for word in ["award-winning 1 S", "Pandoc's 2 notes", "Sphinx's 3 notes", "x2 stays"] {
        assert!(page.text.contains(word), "{word}: {}", page.text);
    }
    assert!(
        page.markdown.contains("award-winning<a id=\"DOCF1\"></a>[1](/r/R-intro#FOOT1) S"),
        "{}",
        page.markdown
    );
    let titles: Vec<&str> = page.sections.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(titles, ["An Introduction to R", "Footnotes"]);
    assert!(page.sections[1].text.contains("ACM Software Systems award"), "{:?}", page.sections);
    assert!(!page.text.contains(": celldisp") && page.text.contains("celldisp (c)"), "{}", page.text);
}

/// pod2html's page for a pod without a title: an empty `<title>`, then
/// `<h1 id="NAME">NAME</h1>` and the name line. The page is titled by its
/// file, not "NAME", and its NAME section names it and says what it is.
#[test]
fn a_pod_page_without_a_title_is_not_titled_name() {
    let html = r##"<html><head><title></title></head><body><ul id="index"><li><a href="#NAME">NAME</a></li><li><a href="#DESCRIPTION">DESCRIPTION</a></li></ul>
<h1 id="NAME">NAME</h1><p>perlop - Perl operators and precedence</p>
<h1 id="DESCRIPTION">DESCRIPTION</h1><p>In Perl, the operator determines what operation is performed.</p></body></html>"##;
    let page = html_to_page(html.as_bytes(), "perlop.html", "/perl").unwrap();
    check_invariants(&page);
    assert_eq!(page.title, "perlop");
    assert_eq!(page.description.as_deref(), Some("Perl operators and precedence"));
    assert!(page.symbols.iter().any(|s| s.name == "perlop"), "{:?}", page.symbols);
    let titles: Vec<&str> = page.sections.iter().map(|s| s.title.as_str()).collect();
    assert!(titles.contains(&"NAME") && titles.contains(&"DESCRIPTION"), "{titles:?}");
}

/// Two SQLite pages (Debian's sqlite3-doc): a `fancy_title` over a
/// "► Table Of Contents" control and the contents it opens, and a C
/// interface page whose first heading is a link back to the interface's index.
const SQLITE_WAL: &str = r##"<html><head><title>Write-Ahead Logging</title></head><body>
<div class=fancy><div class=nosearch><div class="fancy_title">Write-Ahead Logging</div>
<div class="fancy_toc"><a onclick="toggle_toc()"><span class="fancy_toc_mark" id="toc_mk">&#x25ba;</span> Table Of Contents</a>
<div id="toc_sub"><div class="fancy-toc1"><a href="#overview">1. Overview</a></div><div class="fancy-toc2"><a href="#checkpointing">1.1. Checkpointing</a></div></div></div></div>
<h1 id="overview"><span>1. </span>Overview</h1><p>The default method is a <a href="#checkpointing">journal</a>.</p>
<h2 id="checkpointing"><span>1.1. </span>Checkpointing</h2><p>Checkpoints move pages.</p>
</div></body></html>"##;

const SQLITE_C3REF: &str = r##"<html><head><title>Opening A New Database Connection</title></head><body>
<div class=nosearch><a href="intro.html"><h2>SQLite C Interface</h2></a><h2>Opening A New Database Connection</h2></div>
<blockquote><pre>int sqlite3_open(const char *filename, sqlite3 **ppDb);</pre></blockquote>
<p>These routines open an SQLite database file.</p></body></html>"##;

#[test]
fn sqlite_titles_lose_their_contents_control_and_interface_breadcrumb() {
    let wal = html_to_page(SQLITE_WAL.as_bytes(), "wal.html", "/sqlite").unwrap();
    check_invariants(&wal);
    assert_eq!(wal.title, "Write-Ahead Logging");
    let md = &wal.markdown;
    assert!(md.starts_with("# Write-Ahead Logging\n"), "{md}");
    assert!(!md.contains("Table Of Contents") && !md.contains("[1. Overview]"), "{md}");
    // The contents' ids stay; links in the text stay.
    assert!(
        md.contains("<a id=\"toc_sub\"></a>") && md.contains("[journal](/sqlite/wal#checkpointing)"),
        "{md}"
    );
    let heads: Vec<&str> = wal.sections.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(heads, ["Write-Ahead Logging", "1. Overview", "1.1. Checkpointing"]);

    let open = html_to_page(SQLITE_C3REF.as_bytes(), "c3ref/open.html", "/sqlite").unwrap();
    check_invariants(&open);
    assert_eq!(open.title, "Opening A New Database Connection");
    assert!(open.markdown.starts_with("# Opening A New Database Connection\n"), "{}", open.markdown);
    assert!(!open.markdown.contains("SQLite C Interface"), "{}", open.markdown);
}

/// texi2any writes a file for every node and anchor that only redirects to
/// where it is (`<meta http-equiv="Refresh" content="0; url=…">`): no page
/// of its own, and links to it lead where the browser would have gone.
#[test]
fn redirect_files_are_not_pages_and_links_to_them_reach_their_target() {
    let dir = tempfile::tempdir().unwrap();
    let stub = |url: &str, title: &str| {
        format!(
            "<html><head><title>{title} (zsh)</title><meta http-equiv=\"Refresh\" content=\"0; url={url}\"></head>\
             <body><p>The node you are looking for is at <a href=\"{url}\">{title}</a>.</p></body></html>"
        )
    };
    for (name, html) in [
        (
            "index.html",
            "<html><head><title>Top (zsh)</title></head><body><h1>The Z Shell Manual</h1>\
             <p><a href=\"The-zsh_002fcap-Module.html\">cap</a>, <a href=\"Cap-Again.html#own\">again</a>, \
             <a href=\"Lost.html\">lost</a>.</p></body></html>"
                .to_owned(),
        ),
        (
            "Zsh-Modules.html",
            "<html><head><title>Zsh Modules (zsh)</title></head><body><h2>22 Zsh Modules</h2>\
             <h3 id=\"The-zsh_002fcap-Module\">22.3 The zsh/cap Module</h3><p>Capabilities.</p>\
             <p id=\"own\">Own.</p></body></html>"
                .to_owned(),
        ),
        (
            "The-zsh_002fcap-Module.html",
            stub("Zsh-Modules.html#The-zsh_002fcap-Module", "The zsh/cap Module"),
        ),
        ("Cap-Again.html", stub("The-zsh_002fcap-Module.html", "Cap again")),
        ("Lost.html", stub("Nowhere.html", "Lost")),
    ] {
        std::fs::write(dir.path().join(name), html).unwrap();
    }
    let ingested = crate::read(dir.path(), "/z");
    let mut paths: Vec<&str> = ingested.pages.iter().map(|p| p.path.as_str()).collect();
    paths.sort_unstable();
    // A redirect to a page the tree lacks stays a page: its link is the source's to fix.
    assert_eq!(paths, ["/z", "/z/Lost", "/z/Zsh-Modules"]);
    let top = ingested.pages.iter().find(|p| p.path == "/z").unwrap();
    assert!(top.markdown.contains("[cap](/z/Zsh-Modules#The-zsh_002fcap-Module)"), "{}", top.markdown);
    assert!(
        top.markdown.contains("[again](/z/Zsh-Modules#own)"),
        "a chain, the link's own fragment: {}",
        top.markdown
    );
    assert!(top.markdown.contains("[lost](/z/Lost)"), "{}", top.markdown);
    let joined: String = top.sections.iter().map(|s| s.markdown.as_str()).collect::<Vec<_>>().join("\n");
    assert!(joined.contains("/z/Zsh-Modules#own"), "{joined}");
    let report = ingested.check_links("/z");
    assert_eq!((report.broken, report.broken_in_source), (1, 1), "{report:?}");
}

/// A generator's own search page (a form its script fills in) ranks with
/// the listings; a short page of content with a search box in it does not.
#[test]
fn the_generators_search_page_ranks_with_the_listings() {
    let search = r##"<html><head><title>Search — Demo 1.0</title></head><body><div role="main">
<h1 id="search-documentation">Search</h1><p>Searching for multiple words only shows matches that contain all words.</p>
<form action="" method="get"><input type="text" name="q" value=""/><input type="submit" value="search"/></form>
<div id="search-results"></div></div></body></html>"##;
    assert!(html_to_page(search.as_bytes(), "search.html", "/d").unwrap().listing);
    let about = search.replace("Searching for multiple words", "About this manual: words");
    assert!(!html_to_page(about.as_bytes(), "about.html", "/d").unwrap().listing);
    let long = search.replace("</p>", &format!("{}</p>", " More about searching.".repeat(40)));
    assert!(!html_to_page(long.as_bytes(), "search.html", "/d").unwrap().listing);
}

/// DocBook's XHTML output (`debian-reference`): an XML declaration, each
/// heading and table marked by an empty `<a id="…"/>`, the author set as
/// an `<h3 class="author">` and a list of the book's tables.
const DOCBOOK_XHTML: &str = r##"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>第 1 章 教程</title></head><body>
<div class="book"><div class="titlepage"><div><div><h1 class="title"><a id="index"/>参考手册</h1></div>
<div><div class="author"><h3 class="author"><span class="othername">Osamu Aoki</span></h3></div></div></div></div>
<div class="list-of-tables"><p><strong>表格清单</strong></p><dl>
<dt>1.1. <a href="ch01.html#tbl">有趣的程序包列表</a></dt></dl></div>
<div class="section"><div class="titlepage"><h2 class="title"><a id="_files"/>1.1. 文件权限</h2></div>
<p>权限由 umask 控制。</p>
<div class="table"><a id="tbl"/><p class="title"><strong>表 1.1. 例子</strong></p>
<div class="table-contents"><table><tr><td>0022</td></tr></table></div></div></div>
<div class="section"><div class="titlepage"><h2 class="title"><a id="_links"/>1.2. 链接</h2></div>
<p>硬链接和符号链接。</p></div>
</div></body></html>"##;

#[test]
fn docbook_xhtml_headings_keep_their_own_ids_and_credits_are_no_sections() {
    let page = html_to_page(DOCBOOK_XHTML.as_bytes(), "index.html", "/ref").unwrap();
    check_invariants(&page);
    let heads = anchored_titles(&page);
    // An HTML parser left alone carries the open `<a id="tbl">` into the
    // next heading, which would then be linked as `#tbl`.
    assert_eq!(heads, [(None, "参考手册"), (Some("_files"), "1.1. 文件权限"), (Some("_links"), "1.2. 链接")]);
    assert!(page.sections[0].text.contains("Osamu Aoki"), "{}", page.sections[0].text);
    // The list of tables names another section's table: not this page's text.
    assert!(!page.sections.iter().any(|s| s.text.contains("有趣的程序包列表")), "{:?}", page.sections);
    assert!(page.sections[2].text.contains("硬链接") && !page.sections[2].text.contains("0022"));
}

/// A Haddock module page: its group headings are `<h1>`s wrapped in a
/// permalink (`<a href="#g:1" id="g:1"><h1>`), and the module's name is
/// no heading but `<title>`'s: each group is a section at its permalink's
/// id, under the page titled by the module.
#[test]
fn haddock_groups_are_sections_of_the_module_page() {
    let html = r##"<html><head><title>Data.List</title></head><body>
<div id="package-header"><span class="caption">base-4.15.1.0: Basic libraries</span></div>
<div id="content"><div id="module-header"><p class="caption">Data.List</p></div>
<div id="description"><p class="caption">Description</p><div class="doc"><p>Operations on lists.</p></div></div>
<div id="interface"><a href="#g:1" id="g:1"><h1>Basic functions</h1></a>
<div class="top"><p class="src"><a id="v:head" class="def">head</a> :: [a] -&gt; a <a href="src/GHC.List.html#head" class="link">Source</a> <a href="#v:head" class="selflink">#</a></p><div class="doc"><p>Extract the first element of a list.</p></div>
<div class="subs instances"><h4 class="instances details-toggle-control details-toggle" data-details-id="i:head">Instances</h4><details id="i:head" open="open"><summary class="hide-when-js-enabled">Instances details</summary><p>None here.</p></details></div></div>
<a href="#g:2" id="g:2"><h1>Reducing lists (folds)</h1></a>
<div class="top"><p class="src"><a id="v:foldl" class="def">foldl</a> :: (b -&gt; a -&gt; b) -&gt; b -&gt; [a] -&gt; b</p><div class="doc"><p>Left-associative fold of a structure.</p></div></div>
</div></div></body></html>"##;
    let page = html_to_page(html.as_bytes(), "Data-List.html", "/base").unwrap();
    assert_eq!(page.title, "Data.List");
    let got: Vec<(Option<&str>, &str)> =
        page.sections.iter().map(|s| (s.anchor.as_deref(), s.title.as_str())).collect();
    assert!(got.contains(&(Some("g:1"), "Basic functions")), "{got:?}");
    assert!(got.contains(&(Some("g:2"), "Reducing lists (folds)")), "{got:?}");
    let folds = page.sections.iter().find(|s| s.anchor.as_deref() == Some("g:2")).unwrap();
    assert!(folds.text.contains("Left-associative fold"), "{:?}", folds.text);
    assert!(!folds.text.contains("first element"), "{:?}", folds.text);
    assert!(!page.markdown.contains("[Basic functions]("), "{}", page.markdown);
    // Each definition is a symbol of its module, at its id.
    let symbols: Vec<(&str, Option<&str>)> =
        page.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
    assert!(symbols.contains(&("Data.List.head", Some("v:head"))), "{symbols:?}");
    assert!(symbols.contains(&("Data.List.foldl", Some("v:foldl"))), "{symbols:?}");
    // The "Source" link after a signature and the toggle's label are no text.
    assert!(!page.text.contains("Source") && !page.text.contains("Instances details"), "{}", page.text);
}

/// A Doxygen class page's summary table: a member documented only by its
/// line there (`<tr class="memitem:ID">`, the name in bold after an `<a
/// id>`) has no section of its own, and is a name of the page at that id,
/// qualified by the class; one with details links to them and is named
/// there too; a row of a class list (`memitem:` with no id) names nothing.
#[test]
fn doxygen_members_of_a_summary_table_are_names_of_the_page() {
    let html = r##"<html><head><meta name="generator" content="Doxygen 1.9.4"/>
<title>cereal: cereal::JSONOutputArchive::Options Class Reference</title></head><body>
<div class="header"><div class="headertitle"><div class="title">cereal::JSONOutputArchive::Options Class Reference</div></div></div>
<div class="contents"><table class="memberdecls">
<tr class="heading"><td colspan="2"><h2 class="groupheader"><a id="pub-static-methods" name="pub-static-methods"></a>Static Public Member Functions</h2></td></tr>
<tr class="memitem:a82ac"><td class="memItemLeft" align="right" valign="top"><a id="a82ac" name="a82ac"></a>
static <a class="el" href="classcereal_1_1JSONOutputArchive_1_1Options.html">Options</a>&#160;</td><td class="memItemRight" valign="bottom"><b>NoIndent</b> ()</td></tr>
<tr class="memdesc:a82ac"><td class="mdescLeft">&#160;</td><td class="mdescRight">Options that do not indent. <br /></td></tr>
<tr class="memitem:a4635"><td class="memItemLeft" align="right" valign="top">&#160;</td><td class="memItemRight" valign="bottom"><a class="el" href="#a4635">Options</a> (int precision)</td></tr>
<tr class="memitem:"><td class="memItemLeft">struct &#160;</td><td class="memItemRight"><a class="el" href="structcereal_1_1Other.html">cereal::Other</a></td></tr>
</table>
<h2 class="groupheader">Constructor &amp; Destructor Documentation</h2>
<a id="a4635" name="a4635"></a>
<h2 class="memtitle"><span class="permalink"><a href="#a4635">&#9670;&#160;</a></span>Options()</h2>
<div class="memitem"><div class="memproto"><table class="mlabels"><tr><td class="mlabels-left">Options (int precision)</td>
<td class="mlabels-right"><span class="mlabels"><span class="mlabel">inline</span><span class="mlabel">explicit</span></span></td></tr></table></div>
<div class="memdoc"><p>Specify specific options for the JSONOutputArchive.</p></div></div>
</div></body></html>"##;
    let page =
        html_to_page(html.as_bytes(), "classcereal_1_1JSONOutputArchive_1_1Options.html", "/cereal").unwrap();
    let symbols: Vec<(&str, Option<&str>)> =
        page.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
    assert!(
        symbols.contains(&("cereal::JSONOutputArchive::Options::NoIndent", Some("a82ac"))),
        "{symbols:?}"
    );
    assert!(symbols.contains(&("cereal::JSONOutputArchive::Options::Options", Some("a4635"))), "{symbols:?}");
    assert!(!symbols.iter().any(|(n, _)| n.contains("Other")), "{symbols:?}");
    // Labels set side by side are words of their own.
    assert!(page.text.contains("inline explicit"), "{}", page.text);
}

/// Vim's help as vim2html writes it: one `<pre>` whose tags are named
/// anchors followed by the tag in bold; each tag is a name of the page
/// (an option's also without its quotes), a link to a tag is none.
#[test]
fn vim_help_tags_are_names_of_their_page() {
    let html = r##"<html><head><title>Vim documentation: options</title></head><body>
<h1>Vim documentation: options</h1><hr><pre>
*<A NAME="options.txt"></A><B>options.txt</B>*	For Vim version 9.0.
						*<A NAME="'tabstop'"></A><B>'tabstop'</B>* *<A NAME="'ts'"></A><B>'ts'</B>*
'tabstop' 'ts'		number	(default 8)
	Number of spaces that a &lt;Tab&gt; in the file counts for.  Also see
	<A HREF="#'softtabstop'">'softtabstop'</A> and <A NAME="note"></A>the note.
</pre></body></html>"##;
    let page = html_to_page(html.as_bytes(), "options.html", "/vim").unwrap();
    let names: Vec<&str> = page.symbols.iter().map(|s| s.name.as_str()).collect();
    for name in ["options.txt", "'tabstop'", "tabstop", "'ts'", "ts"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert!(!names.contains(&"'softtabstop'") && !names.contains(&"note"), "{names:?}");
}

/// An RDoc (Darkfish) class page: each method is a `div.method-detail` with
/// its call sequences in `div.method-heading`s and no heading element; each
/// starts a section at its id, titled by its first call sequence, under the
/// heading above; a heading's back-to-top arrow is no part of its title.
#[test]
fn rdoc_methods_are_sections() {
    let html = r##"<html><head><title>class Hash - RDoc Documentation</title></head><body>
<main role="main" aria-labelledby="class-Hash"><h1 id="class-Hash" class="class">class Hash</h1>
<section class="description"><p>A Hash maps keys to values.</p>
<h3 id="class-Hash-label-Methods+for+Iterating">Methods for Iterating<span><a href="#class-Hash-label-Methods+for+Iterating">&para;</a> <a href="#top">&uarr;</a></span></h3><p>each_pair, each_key.</p></section>
<section id="public-instance-5Buntitled-5D-method-details" class="method-section"><header><h3>Public Instance Methods</h3></header>
<div id="method-i-fetch" class="method-detail "><div class="method-heading"><span class="method-callseq">fetch(key) &rarr; object</span></div>
<div class="method-heading"><span class="method-callseq">fetch(key, default_value) &rarr; object</span></div>
<div class="method-description"><p>Returns the value for the given key, if found.</p></div></div>
<div id="method-i-store" class="method-detail "><div class="method-heading"><span class="method-callseq">store(key, value) &rarr; value</span></div>
<div class="method-description"><p>Associates the given value with the given key.</p></div></div>
</section></main></body></html>"##;
    let page = html_to_page(html.as_bytes(), "Hash.html", "/ruby").unwrap();
    assert_eq!(page.title, "class Hash");
    let got = anchored_titles(&page);
    assert!(got.contains(&(Some("method-i-fetch"), "fetch(key) → object")), "{got:?}");
    assert!(got.contains(&(Some("method-i-store"), "store(key, value) → value")), "{got:?}");
    assert!(
        got.contains(&(Some("class-Hash-label-Methods+for+Iterating"), "Methods for Iterating")),
        "{got:?}"
    );
    let fetch = page.sections.iter().find(|s| s.anchor.as_deref() == Some("method-i-fetch")).unwrap();
    assert!(
        fetch.text.contains("Returns the value") && !fetch.text.contains("Associates"),
        "{:?}",
        fetch.text
    );
    assert_eq!(
        fetch.breadcrumb.last().map(String::as_str),
        Some("Public Instance Methods"),
        "{:?}",
        fetch.breadcrumb
    );
}

/// A QDoc page (Qt's reference): a navigation bar in the page's header,
/// a captioned contents box before the `<h1>` with an empty script
/// placeholder after it, previous / next links. The `<h1>` titles the page
/// and every section keeps its own anchor; none of the navigation is text.
#[test]
fn qdoc_navigation_and_contents_box_are_no_part_of_the_page() {
    let html = r##"<!DOCTYPE html><html lang="en"><head><title>Layout Management | Qt Widgets 5.15.8</title></head><body>
<div class="header" id="qtdocheader"><div class="main"><div class="main-rounded"><div class="navigationbar"><ul>
<li>Qt 5.15</li><li><a href="qtwidgets-index.html">Qt Widgets</a></li><li>Layout Management</li>
<li id="buildversion"><a href="qtwidgets-index.html">Qt 5.15.8 Reference Documentation</a></li></ul></div></div></div></div>
<div class="content"><div class="line"><div class="content mainContent">
<p class="naviNextPrevious headerNavi"><a class="prevPage" href="qtwidgets-index.html">Qt Widgets</a>
<span class="naviSeparator">  &#9702;  </span><a class="nextPage" href="style-reference.html">Styles</a></p><p/>
<div class="sidebar"><div class="toc"><h3><a name="toc">Contents</a></h3><ul>
<li class="level1"><a href="#introduction">Introduction</a></li>
<li class="level1"><a href="#stretch-factors">Stretch Factors</a></li></ul></div>
<div class="sidebar-content" id="sidebar-content"></div></div>
<h1 class="title">Layout Management</h1><span class="subtitle"></span>
<div class="descr"> <a name="details"></a><p>The Qt layout system arranges child widgets.</p>
<a name="introduction"></a><h2 id="introduction">Introduction</h2><p>Qt includes layout classes.</p>
<a name="stretch-factors"></a><h2 id="stretch-factors">Stretch Factors</h2><p>Widgets grow.</p></div>
<p class="naviNextPrevious footerNavi"><a class="prevPage" href="qtwidgets-index.html">Qt Widgets</a>
<span class="naviSeparator">  &#9702;  </span><a class="nextPage" href="style-reference.html">Styles</a></p>
</div></div></div></body></html>"##;
    let page = html_to_page(html.as_bytes(), "layout.html", "/qt").unwrap();
    check_invariants(&page);
    assert_eq!(page.title, "Layout Management");
    assert_eq!(
        anchored_titles(&page),
        [
            (None, "Layout Management"),
            (Some("introduction"), "Introduction"),
            (Some("stretch-factors"), "Stretch Factors")
        ]
    );
    for chrome in ["Reference Documentation", "Contents", "Styles"] {
        assert!(!page.markdown.contains(chrome), "{chrome}: {}", page.markdown);
    }
    assert_eq!(page.sections[0].text, "Layout Management\nThe Qt layout system arranges child widgets.");
}

/// Manual pages through mandoc: each `<dt>` holds a permalink to itself
/// around the entry, its command in bold and its arguments in italics
/// (`file exists name`, `string map ?-nocase? mapping string`) or an option
/// (`-unique`). Each names its entry; a term linking elsewhere does not.
#[test]
fn mandoc_terms_name_their_commands_and_options() {
    let html = r##"<html><head><title>file(3tcl)</title></head><body><div class="manual-text">
<section class="Sh"><h1 class="Sh" id="NAME"><a class="permalink" href="#NAME">NAME</a></h1><p>file - Manipulate file names</p></section>
<section class="Sh"><h1 class="Sh" id="DESCRIPTION"><a class="permalink" href="#DESCRIPTION">DESCRIPTION</a></h1>
<dl class="Bl-tag">
<dt id="file~11"><a class="permalink" href="#file~11"><b>file exists
  </b><i>name</i></a></dt><dd>Returns <b>1</b> if file <i>name</i> exists.</dd>
<dt id="string~9"><a class="permalink" href="#string~9"><b>string map</b> ?<b>-nocase</b>? <i>mapping string</i></a></dt><dd>Replaces substrings.</dd>
<dt id="unique"><a class="permalink" href="#unique"><b>-unique</b></a></dt><dd>Keeps the last of duplicates.</dd>
<dt id="see"><a href="glob.htm"><b>glob</b></a></dt><dd>Elsewhere.</dd>
<dt id="note"><a class="permalink" href="#note"><b>Note that</b> <i>this</i> is prose, said at length here</a></dt><dd>Words.</dd>
</dl></section></div></body></html>"##;
    let page = html_to_page(html.as_bytes(), "TclCmd/file.htm", "/tcl").unwrap();
    let names: Vec<(&str, Option<&str>)> =
        page.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
    for name in ["file exists", "string map", "-unique"] {
        assert!(names.contains(&(name, Some("DESCRIPTION"))), "{name} in {names:?}");
    }
    assert!(!names.iter().any(|(n, _)| *n == "glob" || n.starts_with("Note")), "{names:?}");
}

/// The page a site shows for a missing page ranks with the listings, and
/// code that is one link (DocBook's `<code><a class="link">split()</a></code>`)
/// keeps its link.
#[test]
fn a_404_page_is_a_listing_and_code_that_is_a_link_stays_one() {
    let missing = "<html><head><title>Page not found</title></head><body><h1>404</h1><p>Page not found</p></body></html>";
    assert!(html_to_page(missing.as_bytes(), "404.html", "/site").unwrap().listing);
    assert!(!html_to_page(missing.as_bytes(), "errors.html", "/site").unwrap().listing);
    let html = r##"<html><head><title>Usage</title></head><body><h1>Usage</h1>
<p>Call <code class="computeroutput"><a class="link" href="../boost/algorithm/split.html">split()</a></code> or <code>join()</code>.</p></body></html>"##;
    let page = html_to_page(html.as_bytes(), "string_algo/usage.html", "/boost").unwrap();
    assert!(page.markdown.contains("[`split()`](/boost/boost/algorithm/split)"), "{}", page.markdown);
    assert!(page.markdown.contains(" `join()`."), "{}", page.markdown);
}

/// rustdoc repeats a type's methods on the types that dereference to it
/// (`String` holds every method of `str` after its own) and writes a type
/// re-exported under two paths twice, titled by each. The type whose
/// methods another repeats is no copy; the second of the two alike pages is.
#[test]
fn methods_repeated_on_another_type_are_no_copy_but_a_page_under_two_names_is() {
    let dir = tempfile::tempdir().unwrap();
    let doc = |title: &str, body: &str| {
        format!(
            "<html><head><title>{title} - Rust</title></head><body><main><h1>{title}</h1>{body}</main></body></html>"
        )
    };
    let methods = |owner: &str, names: std::ops::Range<usize>| -> String {
        names
            .map(|i| {
                format!("<h2 id=\"method.m{i}\">pub fn m{i}(&amp;self)</h2><p>What method {i} of {owner} does to the text, in words of its own.</p>")
            })
            .collect()
    };
    let str_methods = methods("str", 0..30);
    // (Its trait implementations are repeated on other pages too: `String`
    // holds most of its sections, not nine in ten.)
    let impls = methods("impl", 300..305);
    std::fs::write(
        dir.path().join("primitive.str.html"),
        doc("Primitive Type str", &format!("{str_methods}{impls}")),
    )
    .unwrap();
    std::fs::write(dir.path().join("struct.Box.html"), doc("Struct std::boxed::Box", &impls)).unwrap();
    let string = format!(
        "{}<h2 id=\"deref-methods\">Methods from Deref</h2>{str_methods}",
        methods("String", 100..106)
    );
    std::fs::write(dir.path().join("struct.String.html"), doc("Struct std::string::String", &string))
        .unwrap();
    let map = methods("HashMap", 200..225);
    std::fs::write(dir.path().join("a.struct.HashMap.html"), doc("Struct std::collections::HashMap", &map))
        .unwrap();
    std::fs::write(
        dir.path().join("b.struct.HashMap.html"),
        doc("Struct std::collections::hash_map::HashMap", &map),
    )
    .unwrap();
    // A type whose trait methods every implementor's page repeats alike
    // (each trait on pages of its own, beside their own methods): holding
    // a part of many pages makes it no copy.
    let slice_methods = methods("slice", 400..412);
    let mut boilerplate = String::new();
    for t in 0..6 {
        let trait_methods: String = (0..5)
            .map(|k| format!("<h2 id=\"method.t{t}_{k}\">fn t{t}_{k}(&amp;self)</h2><p>What trait {t}'s method {k} does, as each implementor says alike.</p>"))
            .collect();
        for other in 0..4 {
            let own =
                methods(&format!("Impl{t}x{other}"), 500 + 10 * (4 * t + other)..506 + 10 * (4 * t + other));
            let page = doc(&format!("Struct std::t{t}::Impl{other}"), &format!("{own}{trait_methods}"));
            std::fs::write(dir.path().join(format!("struct.Impl{t}x{other}.html")), page).unwrap();
        }
        boilerplate.push_str(&trait_methods);
    }
    std::fs::write(
        dir.path().join("primitive.slice.html"),
        doc("Primitive Type slice", &format!("{slice_methods}{boilerplate}")),
    )
    .unwrap();
    let vec = format!(
        "{}<h2 id=\"deref-methods\">Methods from Deref</h2>{slice_methods}",
        methods("Vec", 800..815)
    );
    std::fs::write(dir.path().join("struct.Vec.html"), doc("Struct std::vec::Vec", &vec)).unwrap();
    let ingested = crate::read(dir.path(), "/rust");
    let listing = |path: &str| ingested.pages.iter().find(|p| p.path == path).unwrap().listing;
    assert!(!listing("/rust/primitive.str") && !listing("/rust/struct.String"));
    assert!(!listing("/rust/a.struct.HashMap") && listing("/rust/b.struct.HashMap"));
    assert!(!listing("/rust/primitive.slice"));
}

/// Go's documentation is written as fragments: a JSON comment naming the
/// title, no `<head>`, `<h2>`s for its parts. The page is titled by the
/// comment and each `<h2>` is a section at its id.
#[test]
fn a_fragment_is_titled_by_the_json_comment_it_starts_with() {
    let html = r##"<!--{
	"Title": "The Go Memory Model",
	"Subtitle": "Version of June 6, 2022",
	"Path": "/ref/mem"
}-->

<style>p.rule { font-style: italic; }</style>
<h2 id="introduction">Introduction</h2><p>The Go memory model specifies conditions.</p>
<h3 id="advice">Advice</h3><p>Serialize access.</p>
<h2 id="model">Memory Model</h2><p>The memory model describes requirements.</p>"##;
    let page = html_to_page(html.as_bytes(), "go_mem.html", "/go").unwrap();
    check_invariants(&page);
    assert_eq!(page.title, "The Go Memory Model");
    let got = anchored_titles(&page);
    assert!(
        got.contains(&(Some("introduction"), "Introduction"))
            && got.contains(&(Some("model"), "Memory Model")),
        "{got:?}"
    );
    // A comment that is no such header names nothing.
    let plain = "<!-- generated --><h2 id=\"a\">Alpha</h2><p>x</p><h2 id=\"b\">Beta</h2><p>y</p>";
    assert_ne!(html_to_page(plain.as_bytes(), "frag.html", "/go").unwrap().title, "generated");
}

/// Sphinx's viewcode: an entry's "[source]" link is no part of its title; the
/// source listing it leads to ranks with the listings, keeps the ids links
/// land on inside its code, and loses its "[docs]" links. mandoc's header
/// line is no part of a manual page.
#[test]
fn viewcode_listings_and_mandoc_headers_are_no_text_of_the_docs() {
    let entry = r##"<html><head><title>Shortcuts</title></head><body><div class="body"><section id="shortcuts"><h1>Shortcuts</h1>
<dl class="py function"><dt class="sig sig-object py" id="django.shortcuts.get_object_or_404"><code class="sig-name descname"><span class="pre">get_object_or_404</span></code>(<em>klass</em>)<a class="reference internal" href="_modules/django/shortcuts.html#get_object_or_404"><span class="viewcode-link"><span class="pre">[source]</span></span></a></dt>
<dd><p>Calls get() on a given model manager.</p></dd></dl></section></div></body></html>"##;
    let page = html_to_page(entry.as_bytes(), "shortcuts.html", "/dj").unwrap();
    assert!(
        page.sections.iter().any(|s| s.title == "get_object_or_404(klass)"),
        "{:?}",
        anchored_titles(&page)
    );
    assert!(!page.markdown.contains("[source]"), "{}", page.markdown);
    let source = r##"<html><head><title>django.shortcuts — Django 3.2 documentation</title></head><body><div class="body"><h1>Source code for django.shortcuts</h1>
<div class="highlight"><pre><span></span><span class="kn">import</span> <span class="nn">os</span>
<div class="viewcode-block" id="get_object_or_404"><a class="viewcode-back" href="../../shortcuts.html#django.shortcuts.get_object_or_404">[docs]</a><span class="k">def</span> <span class="nf">get_object_or_404</span><span class="p">(</span><span class="n">klass</span><span class="p">):</span>
    <span class="k">return</span> <span class="n">klass</span></div></pre></div></div></body></html>"##;
    let page = html_to_page(source.as_bytes(), "_modules/django/shortcuts.html", "/dj").unwrap();
    assert!(page.listing);
    assert!(page.markdown.contains("<a id=\"get_object_or_404\"></a>"), "{}", page.markdown);
    assert!(
        page.markdown.contains("def get_object_or_404(klass):") && !page.markdown.contains("[docs]"),
        "{}",
        page.markdown
    );
    let man = r##"<html><head><title>after(3tcl)</title></head><body>
<table class="head"><tr><td class="head-ltitle">after(3tcl)</td><td class="head-vol">Tcl Built-In Commands</td><td class="head-rtitle">after(3tcl)</td></tr></table>
<div class="manual-text"><section class="Sh"><h1 class="Sh" id="NAME">NAME</h1><p>after - Execute a command after a time delay</p></section></div>
<table class="foot"><tr><td class="foot-date">8.6.13</td><td class="foot-os">Tcl</td></tr></table></body></html>"##;
    let page = html_to_page(man.as_bytes(), "TclCmd/after.htm", "/tcl").unwrap();
    assert!(!page.text.contains("Built-In") && !page.text.contains("8.6.13"), "{}", page.text);
    assert!(page.text.contains("after - Execute a command after a time delay"), "{}", page.text);
}

/// A `!` right before a link (rustdoc's negative impls, `impl !Send for
/// Demand`) stays text: the Markdown escapes it, so no image is made of it.
#[test]
fn a_bang_before_a_link_is_no_image() {
    let html = r##"<html><head><title>Demand</title></head><body><h1>Demand</h1>
<p>impl !<a href="../marker/trait.Send.html">Send</a> for Demand, and Wow!!<a href="x.html">this</a>.</p></body></html>"##;
    let page = html_to_page(html.as_bytes(), "any/struct.Demand.html", "/rust").unwrap();
    assert!(
        page.markdown.contains("impl \\![Send](/rust/marker/trait.Send) for Demand"),
        "{}",
        page.markdown
    );
    assert!(page.markdown.contains("Wow!\\![this](/rust/any/x)"), "{}", page.markdown);
    let links = PageLinks {
        prefix: "/rust",
        source_file: "any/struct.Demand.html",
        anchors: &[],
        title: Some(&page.title),
        pages: None,
        others: None,
    };
    let html = markdown_to_html(&page.markdown, links);
    assert!(!html.contains("<img") && html.contains("impl !<a"), "{html}");
}

/// What a stylesheet writes between parts is text: numpydoc's parameter
/// `fillchar : str, default ' '` (docutils' `span.classifier`) and
/// gi-docgen's `Gtk.Widget.show` (empty `span.sep`s). A pydata-theme
/// page's previous / next links are no part of it.
#[test]
fn separators_a_stylesheet_writes_are_text_and_prev_next_links_go() {
    let html = r##"<html><head><title>Gtk.Widget.show</title></head><body><main>
<header><h3>Method</h3><h1><a href="#">Gtk</a><span class="sep"></span><a href="#">Widget</a><span class="sep"></span>show</h1></header>
<dl class="field-list"><dt class="field-odd">Parameters</dt><dd><dl>
<dt><strong>fillchar</strong><span class="classifier">str, default ' '</span></dt><dd><p>Additional character for filling.</p></dd></dl></dd></dl>
<div class="prev-next-area"><a class="left-prev" href="a.html"><p class="prev-next-subtitle">previous</p><p class="prev-next-title">pandas.Series.str.pad</p></a>
<a class="right-next" href="b.html"><p class="prev-next-subtitle">next</p><p class="prev-next-title">pandas.Series.str.zfill</p></a></div>
</main></body></html>"##;
    let page = html_to_page(html.as_bytes(), "method.Widget.show.html", "/gtk").unwrap();
    assert_eq!(page.title, "Gtk.Widget.show");
    // The label over the title is no section; the title names the page as
    // shown and as C joins its parts.
    assert_eq!(page.sections[0].anchor, None);
    assert!(!page.sections.iter().any(|s| s.title == "Method"), "{:?}", anchored_titles(&page));
    let names: Vec<&str> = page.symbols.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"Gtk.Widget.show") && names.contains(&"GtkWidgetshow"), "{names:?}");
    assert!(page.text.contains("fillchar : str, default ' '"), "{}", page.text);
    assert!(page.markdown.contains("**fillchar** : str, default ' '"), "{}", page.markdown);
    assert!(!page.text.contains("zfill") && !page.text.contains("previous"), "{}", page.text);
}

/// An mdBook chapter: a Rust example with hidden lines (`span.boring`) and
/// a footnote whose definition is a list item with an id.
const MDBOOK_CHAPTER: &str = r##"<!DOCTYPE html><html><head><title>Build Scripts - The Cargo Book</title><meta name="robots" content="index, follow"></head><body>
<main><h1 id="build-scripts"><a class="header" href="#build-scripts">Build Scripts</a></h1>
<p>A build script runs first<sup class="footnote-reference" id="fr-1-1"><a href="#footnote-1">1</a></sup>.</p>
<pre class="playground"><code class="language-rust"><span class="boring">#![allow(unused)]
</span><span class="boring">fn main() {
</span>println!("cargo::rustc-cfg=foo");
<span class="boring">}</span></code></pre>
<hr><ol class="footnote-definition"><li id="footnote-1"><p>Before the package is built. <a href="#fr-1-1">↩</a></p></li></ol>
</main></body></html>"##;

#[test]
fn mdbook_hidden_example_lines_go_and_a_footnote_keeps_its_id() {
    let page = html_to_page(MDBOOK_CHAPTER.as_bytes(), "build-scripts.html", "/cargo").unwrap();
    check_invariants(&page);
    let md = &page.markdown;
    assert!(!md.contains("allow(unused)") && !md.contains("fn main"), "{md}");
    assert!(md.contains("println!(\"cargo::rustc-cfg=foo\");"), "{md}");
    assert!(md.contains("<a id=\"footnote-1\"></a>Before the package is built."), "{md}");
    assert!(!page.text.contains("allow(unused)"), "{}", page.text);
}

#[test]
fn pages_asking_not_to_be_indexed_rank_as_listings_unless_most_do() {
    let doc = |title: &str, robots: &str| {
        format!(
            "<html><head><title>{title}</title>{robots}</head><body><main><h1>{title}</h1><p>Text of {title} about crates.</p></main></body></html>"
        )
    };
    let noindex = "<meta name=\"robots\" content=\"noindex\">";
    let dir = tempfile::tempdir().unwrap();
    for name in ["guide", "reference", "commands"] {
        std::fs::write(dir.path().join(format!("{name}.html")), doc(name, "")).unwrap();
    }
    std::fs::write(dir.path().join("print.html"), doc("print", noindex)).unwrap();
    let ingested = crate::read(dir.path(), "/c");
    let listing = |path: &str| ingested.pages.iter().find(|p| p.path == path).unwrap().listing;
    assert!(listing("/c/print"));
    assert!(!listing("/c/guide") && !listing("/c/reference") && !listing("/c/commands"));
    // A site asking it of most pages (an old version kept out of web search) marks none.
    let old = tempfile::tempdir().unwrap();
    for name in ["guide", "reference", "print"] {
        std::fs::write(old.path().join(format!("{name}.html")), doc(name, noindex)).unwrap();
    }
    let ingested = crate::read(old.path(), "/c");
    assert!(ingested.pages.iter().all(|p| !p.listing));
}

/// Asciidoctor's labeled list puts a term's id on an empty anchor it opens
/// with (`<dt class="hdlist1"><a id="driftfile"></a><code>driftfile</code>`):
/// the term's code name is a name of the page at that id, as a `<dt id>`'s
/// is; so is a list item's name in bold after its anchor.
#[test]
fn an_asciidoctor_term_opening_with_an_anchor_names_its_entry() {
    let html = r##"<html><head><meta name="generator" content="Asciidoctor 2.0.18"><title>Monitoring Options</title></head><body>
<div id="content"><div class="sect1"><h2 id="_options">Options</h2><div class="sectionbody"><div class="dlist"><dl>
<dt class="hdlist1"><a id="driftfile"></a><code>driftfile</code> <em>driftfile</em></dt>
<dd><p>Specifies the name of the file used to record the frequency offset.</p></dd>
<dt class="hdlist1"><a href="#x"></a><code>statsdir</code></dt><dd><p>A link is no anchor.</p></dd>
<dt class="hdlist1"><code>leapfile</code></dt><dd><p>No anchor at all.</p></dd>
</dl></div>
<div class="ulist"><ul><li><p><a id="option_irc.look.color_nicks"></a> <strong>irc.look.color_nicks</strong></p></li>
<li><p><a id="option_x"></a> <strong>irc.look.other</strong></p></li></ul></div>
</div></div></div></body></html>"##;
    let page = html_to_page(html.as_bytes(), "monopt.html", "/ntp").unwrap();
    let symbols: Vec<(&str, Option<&str>)> =
        page.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
    assert!(symbols.contains(&("driftfile", Some("driftfile"))), "{symbols:?}");
    assert!(!symbols.iter().any(|(n, _)| *n == "statsdir" || *n == "leapfile"), "{symbols:?}");
    // An option listed as an anchor and its name in bold, the anchor its
    // kind and name: named there; a bold the anchor does not end with is not.
    assert!(symbols.contains(&("irc.look.color_nicks", Some("option_irc.look.color_nicks"))), "{symbols:?}");
    assert!(!symbols.iter().any(|(n, _)| *n == "irc.look.other"), "{symbols:?}");
}

/// A TypeDoc interface page: the member's heading is its name, its
/// `Optional` badge left out; the member is a name of the page qualified
/// by the interface, which the title names; the sidebar's "On This Page"
/// and the "Defined in" lines are no text.
#[test]
fn typedoc_members_are_names_of_their_interface_without_their_badges() {
    let html = r##"<html><head><title>ParseOptions | date-fns</title></head><body>
<div class="col-content"><div class="tsd-page-title"><h1>Interface ParseOptions&lt;DateType&gt;</h1></div>
<section class="tsd-panel tsd-comment"><p>The options of parse.</p></section>
<section class="tsd-panel-group tsd-member-group"><h2>Properties</h2>
<section class="tsd-panel tsd-member"><h3 class="tsd-anchor-link" id="weekstartson"><code class="tsd-tag">Optional</code><span>week<wbr/>Starts<wbr/>On</span><a href="#weekstartson" aria-label="Permalink" class="tsd-anchor-icon"></a></h3>
<div class="tsd-signature"><span class="tsd-kind-property">weekStartsOn</span>?: Day</div>
<div class="tsd-comment tsd-typography"><p>The index of the first day of the week.</p></div>
<aside class="tsd-sources"><ul><li>Defined in src/types.d.ts:195</li></ul></aside></section></section></div>
<div class="col-sidebar"><details open class="tsd-accordion tsd-page-navigation"><summary><h3>On This Page</h3></summary>
<div><a href="#weekstartson">weekStartsOn</a></div></details></div></body></html>"##;
    let page = html_to_page(html.as_bytes(), "interfaces/ParseOptions.html", "/datefns").unwrap();
    assert!(
        anchored_titles(&page).contains(&(Some("weekstartson"), "weekStartsOn")),
        "{:?}",
        anchored_titles(&page)
    );
    let symbols: Vec<(&str, Option<&str>)> =
        page.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
    assert!(symbols.contains(&("ParseOptions", None)), "{symbols:?}");
    assert!(symbols.contains(&("ParseOptions.weekStartsOn", Some("weekstartson"))), "{symbols:?}");
    assert!(!page.text.contains("On This Page") && !page.text.contains("Defined in"), "{}", page.text);
    assert!(page.text.contains("first day of the week"), "{}", page.text);
    // A code block's language as TypeDoc (a bare class on the code) and
    // VitePress (`div.language-*` around the block) mark it.
    let code = r#"<h1>Usage</h1><pre><code class="ts">parse(s, f)</code></pre>
<div class="language-sh vp-adaptive-theme"><pre class="shiki"><code>npm i date-fns</code></pre></div>
<pre><code class="widget">plain</code></pre>"#;
    let page = html_to_page(code.as_bytes(), "usage.html", "/datefns").unwrap();
    for block in ["```ts\nparse(s, f)\n```", "```sh\nnpm i date-fns\n```", "```\nplain\n```"] {
        assert!(page.markdown.contains(block), "{block} in {}", page.markdown);
    }
}

/// JSDoc: a module's function is named in the module and bare, its
/// optional parameters' `opt` is a word of its own; a source listing
/// (`waterfall.js.html`) keeps its `.js` in its path and is a listing.
#[test]
fn jsdoc_functions_are_names_and_source_listings_are_listings() {
    let module = r##"<html><head><title>JSDoc: Module: ControlFlow</title></head><body><div id="main">
<h1 class="page-title">Module: ControlFlow</h1><section><article>
<h4 class="name" id=".retry"><span class="type-signature">(static) </span>retry<span class="signature">(opts<span class="signature-attributes">opt</span>, task)</span><span class="type-signature"> &rarr; {Promise}</span></h4>
<div class="description"><p>Attempts to get a successful response from task.</p></div>
</article></section></div></body></html>"##;
    let page = html_to_page(module.as_bytes(), "module-ControlFlow.html", "/async").unwrap();
    let symbols: Vec<(&str, Option<&str>)> =
        page.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
    for symbol in [("ControlFlow", None), ("ControlFlow.retry", Some(".retry")), ("retry", Some(".retry"))] {
        assert!(symbols.contains(&symbol), "{symbol:?} in {symbols:?}");
    }
    let entry = page.sections.iter().find(|s| s.anchor.as_deref() == Some(".retry")).unwrap();
    assert!(entry.title.contains("retry(opts opt, task)"), "{}", entry.title);
    assert!(page.markdown.contains("retry(opts opt, task)"), "{}", page.markdown);
    // The page's title, outside its one `<article>`, is its heading.
    assert_eq!(page.title, "Module: ControlFlow");
    assert!(page.markdown.starts_with("# Module: ControlFlow\n"), "{}", page.markdown);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("index.html"),
        "<html><head><title>Home</title></head><body><h1>Home</h1><p>async</p></body></html>",
    )
    .unwrap();
    std::fs::write(dir.path().join("module-ControlFlow.html"), module).unwrap();
    std::fs::write(
        dir.path().join("index.js.html"),
        r#"<html><head><title>JSDoc: Source: index.js</title></head><body><h1 class="page-title">Source: index.js</h1>
<pre class="prettyprint source linenums"><code>export default { retry }</code></pre></body></html>"#,
    )
    .unwrap();
    let source = read_source(dir.path(), &ReadOptions::new("/async"), &mut |_, _| {}).unwrap();
    let paths: Vec<(&str, bool)> = source.pages.iter().map(|p| (p.path.as_str(), p.listing)).collect();
    assert!(paths.contains(&("/async", false)) && paths.contains(&("/async/index.js", true)), "{paths:?}");
    assert!(source.problems.is_empty(), "{:?}", source.problems);
}

/// YARD: a method is a name of its class's page (`Rack::Utils.escape`,
/// `#initialize` also as `.new`), the "collapse" control beside a
/// summary's heading and a listing's line numbers are no text, and its
/// `_index.html` is a page of its own beside the README's `index.html`.
#[test]
fn yard_methods_are_names_of_their_class_and_its_controls_no_text() {
    let class = r##"<html><head><title>Module: Rack::Utils — Documentation by YARD 0.9.28</title></head><body>
<div id="main"><div id="content"><h1>Module: Rack::Utils</h1>
<h2>Class Method Summary <small><a href="#" class="summary_toggle">collapse</a></small></h2>
<div id="class_method_details" class="method_details_list"><h2>Class Method Details</h2>
<div class="method_details first"><h3 class="signature first" id="escape-class_method">.<strong>escape</strong>(s) &#x21d2; <tt>Object</tt></h3>
<div class="docstring"><p>URI escapes a string.</p></div>
<table class="source_code"><tr><td><pre class="lines">471
472</pre></td><td><pre class="code"><span class="info file"># File 'lib/rack/utils.rb', line 471</span>
def escape(s)</pre></td></tr></table></div>
<div class="method_details"><h3 class="signature" id="initialize-instance_method">#<strong>initialize</strong>(app) &#x21d2; <tt>Utils</tt></h3>
<p>A new instance.</p></div></div></div></div></body></html>"##;
    let page = html_to_page(class.as_bytes(), "Rack/Utils.html", "/rack").unwrap();
    let names: Vec<&str> = page.symbols.iter().map(|s| s.name.as_str()).collect();
    for name in ["Rack::Utils", "Rack::Utils.escape", "Rack::Utils#initialize", "Rack::Utils.new"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert!(!page.sections.iter().any(|s| s.title.contains("collapse")), "{:?}", anchored_titles(&page));
    assert!(!page.text.contains("472") && page.text.contains("def escape(s)"), "{}", page.text);
    // An id no `{#id}` can hold opens its heading as a target.
    let xhr = r#"<h1>Class: Rack::Request</h1><h3 class="signature" id="xhr?-instance_method">#<strong>xhr?</strong></h3><p>True for XHR.</p>"#;
    let page = html_to_page(xhr.as_bytes(), "Rack/Request.html", "/rack").unwrap();
    assert!(page.markdown.contains("## <a id=\"xhr?-instance_method\"></a>#**xhr?**"), "{}", page.markdown);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<html><head><title>README</title></head><body><h1>Rack</h1><p>A modular interface.</p></body></html>").unwrap();
    std::fs::write(dir.path().join("_index.html"), "<html><head><title>Index</title></head><body><h1>Documentation by YARD</h1><p>Alphabetic index.</p></body></html>").unwrap();
    std::fs::write(
        dir.path().join("class_list.html"),
        r#"<html><head><title>Class List</title></head><body><h1>Class List</h1><ul id="full_list" class="class"><li><a href="Rack/Utils.html">Utils</a></li></ul></body></html>"#,
    )
    .unwrap();
    let source = read_source(dir.path(), &ReadOptions::new("/rack"), &mut |_, _| {}).unwrap();
    let pages: Vec<(&str, &str, bool)> =
        source.pages.iter().map(|p| (p.path.as_str(), p.title.as_str(), p.listing)).collect();
    assert!(pages.contains(&("/rack", "Rack", false)), "{pages:?}");
    assert!(pages.iter().any(|p| p.0 == "/rack/_index"), "{pages:?}");
    assert!(pages.iter().any(|p| p.0 == "/rack/class_list" && p.2), "{pages:?}");
}

/// Sphinx's labels before a page's `<h1>` and each `<h2>` (`<span
/// id="maxfail"></span>`) leave each section the id of the `<section>`
/// it opens: the first section below the title is not given the title's.
#[test]
fn labels_before_headings_leave_each_section_its_own_id() {
    let html = r##"<html><head><title>How to handle test failures — pytest documentation</title></head><body>
<div class="body" role="main"><section id="how-to-handle-test-failures">
<span id="how-to-handle-failures"></span><h1>How to handle test failures<a class="headerlink" href="#how-to-handle-test-failures">¶</a></h1>
<section id="stopping-after-the-first-or-n-failures">
<span id="maxfail"></span><h2>Stopping after the first (or N) failures<a class="headerlink" href="#stopping-after-the-first-or-n-failures">¶</a></h2>
<p>To stop the testing process after the first (N) failures:</p></section>
<section id="using-pdb"><span id="pdb-option"></span><h2>Using pdb<a class="headerlink" href="#using-pdb">¶</a></h2>
<p>Debugger.</p></section></section></div></body></html>"##;
    let page = html_to_page(html.as_bytes(), "how-to/failures.html", "/pytest").unwrap();
    assert_eq!(
        anchored_titles(&page),
        [
            (None, "How to handle test failures"),
            (Some("stopping-after-the-first-or-n-failures"), "Stopping after the first (or N) failures"),
            (Some("using-pdb"), "Using pdb")
        ]
    );
    assert!(
        page.markdown.starts_with("# How to handle test failures {#how-to-handle-test-failures}\n"),
        "{}",
        page.markdown
    );
    for id in ["maxfail", "pdb-option", "how-to-handle-failures"] {
        assert!(page.markdown.contains(&format!("<a id=\"{id}\"></a>")), "{id}: {}", page.markdown);
    }
}

/// What today's themes wrap around the text: Pygments' numbered listing
/// (a table of line numbers and code) is a code block; MkDocs Material's
/// tab titles are words apart; mkdocstrings' labels leave the heading and
/// its parameters' inline headings start no section; Scaladoc's summary is
/// not repeated before the whole comment, nor its permalink shown.
#[test]
fn theme_wrappers_leave_the_text_as_it_reads() {
    let html = r##"<html><head><title>API</title></head><body>
<div id="jb-print-docs-body" class="onlyprint"><h1>API</h1><div id="jb-print-toc"><h2>Contents</h2></div></div>
<h1>API</h1>
<div class="highlight"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>159
160</pre></div></td><td class="code"><div><pre><code>def f():
    return 1
</code></pre></div></td></tr></table></div>
<div class="tabbed-set"><div class="tabbed-labels"><label for="t1">Markdown</label><label for="t2">HTML Result</label></div></div>
<h2 id="mkdocstrings.BaseHandler.md" class="doc doc-heading"><span class="doc doc-object-name">md</span><span class="doc doc-labels"><small class="doc doc-label"><code>class-attribute</code></small></span></h2>
<p>The Markdown instance.</p>
<ul><li><h3 id="mkdocstrings.BaseHandler(name)" class="doc doc-heading doc-heading-parameter"><b><code>name</code></b></h3> – the handler's name.</li></ul>
<ul><li name="scala.Option#getOrElse"><a id="getOrElse(default)"></a><h4 class="signature">getOrElse</h4>
<span class="permalink"><a href="../index.html#x" title="Permalink"><img src="p.png" alt="Permalink"/></a></span>
<p class="shortcomment cmt">Returns the value.</p><div class="fullcomment"><p>Returns the value, or the default.</p></div></li></ul>
</body></html>"##;
    let page = html_to_page(html.as_bytes(), "api.html", "/m").unwrap();
    let md = &page.markdown;
    assert!(md.contains("```\ndef f():\n    return 1\n```") && !md.contains("159"), "{md}");
    assert!(page.text.contains("Markdown HTML Result"), "{}", page.text);
    assert!(
        anchored_titles(&page).contains(&(Some("mkdocstrings.BaseHandler.md"), "md")),
        "{:?}",
        anchored_titles(&page)
    );
    assert!(!anchored_titles(&page).iter().any(|(_, t)| *t == "name"), "{:?}", anchored_titles(&page));
    let names: Vec<&str> = page.symbols.iter().map(|s| s.name.as_str()).collect();
    assert!(
        names.contains(&"mkdocstrings.BaseHandler.md") && names.contains(&"scala.Option#getOrElse"),
        "{names:?}"
    );
    assert_eq!(page.text.matches("Returns the value").count(), 1, "{}", page.text);
    assert!(!page.text.contains("Permalink"), "{}", page.text);
    // What only a printout shows is no text.
    assert!(!page.text.contains("Contents") && !md.contains("jb-print"), "{md}");
}

/// An HTML file among a Sphinx site's static files is a theme's template, no page.
#[test]
fn html_among_static_files_is_no_page() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("_static")).unwrap();
    std::fs::write(
        dir.path().join("index.html"),
        "<html><head><title>Home</title></head><body><h1>Home</h1><p>Text.</p></body></html>",
    )
    .unwrap();
    std::fs::write(dir.path().join("_static/macros.html"), "{% macro icon() %}<svg></svg>{% endmacro %}")
        .unwrap();
    let source = read_source(dir.path(), &ReadOptions::new("/s"), &mut |_, _| {}).unwrap();
    let paths: Vec<&str> = source.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["/s"]);
}
