//! Site chrome of generators the manuals come from (texinfo split and
//! monolithic, asciidoc, mkdocs-material, Hugo, Javadoc, Doxygen, rustdoc),
//! each reduced to a small page of its shape: the Markdown starts with the
//! page's content and its title, and no navigation line or footer is left.
//! Across an edition, a banner and footer on every page are dropped and a
//! banner `<h1>` is never the title.

use lectern_corpus::{Page, html_to_page};

use crate::check_invariants;

fn page(html: &str, file: &str) -> Page {
    let page = html_to_page(html.as_bytes(), file, "/m").unwrap();
    check_invariants(&page);
    page
}

/// The page's title, the start of its Markdown, and words that must be gone.
fn assert_clean(page: &Page, title: &str, start: &str, gone: &[&str]) {
    assert_eq!(page.title, title, "{}", page.markdown);
    // Ids stay where links land; what a reader sees starts with the content.
    let shown = without_anchors(&page.markdown);
    assert!(shown.starts_with(start), "expected to start with {start:?}:\n{}", page.markdown);
    for g in gone {
        assert!(!page.markdown.contains(g), "{g:?} left in\n{}", page.markdown);
        assert!(!page.text.contains(g), "{g:?} left in the text\n{}", page.text);
    }
}

/// Markdown without its `<a id>` anchors (and the blank lines left of them).
fn without_anchors(md: &str) -> String {
    let mut out = String::new();
    let mut rest = md;
    while let Some(at) = rest.find("<a id=\"") {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once("</a>").map_or("", |(_, r)| r);
    }
    out.push_str(rest);
    let mut out = out.trim_start().to_owned();
    while out.contains("\n\n\n") {
        out = out.replace("\n\n\n", "\n\n");
    }
    out
}

/// Navigation lines and footers no page may keep.
const NAV: [&str; 6] = ["Next:", "Previous:", "Up:", "[Contents]", "Last updated", "Copyright"];

pub const TEXINFO_SPLIT: &str = r##"<!DOCTYPE html><html><head><title>Installation (Frob utilities)</title></head>
<body lang="en">
<div class="header"><p>
Next: <a href="Overview.html" accesskey="n" rel="next">Overview</a>, Previous: <a href="Introduction.html" accesskey="p" rel="prev">Introduction</a>, Up: <a href="index.html" accesskey="u" rel="up">Frob utilities</a> &nbsp; [<a href="index.html#SEC_Contents" title="Table of contents" rel="contents">Contents</a>][<a href="Index.html" title="Index" rel="index">Index</a>]</p>
</div><hr>
<span id="Installation"></span><h2 class="chapter">2 Installation</h2>
<p>Run <code>configure</code>, then <code>make</code>.</p>
<hr><div class="header"><p>
Next: <a href="Overview.html" accesskey="n" rel="next">Overview</a>, Previous: <a href="Introduction.html" rel="prev">Introduction</a> &nbsp; [<a href="index.html#SEC_Contents" rel="contents">Contents</a>]</p></div>
</body></html>"##;

#[test]
fn texinfo_split_pages_lose_their_node_lines() {
    let page = page(TEXINFO_SPLIT, "Installation.html");
    assert_clean(&page, "2 Installation", "# 2 Installation\n\nRun `configure`, then `make`.\n", &NAV);
    assert!(!page.markdown.contains("Overview"), "{}", page.markdown);
}

pub const TEXINFO_MONOLITHIC: &str = r##"<html><head><title>Frob Reference Manual</title></head><body>
<h1 class="settitle" align="center">Frob Reference Manual</h1>
<div class="top-level-extent" id="Top">
<div class="nav-panel"><p>Next: <a href="#Intro" rel="next">Introduction</a>, Up: <a href="dir.html#Top" rel="up">(dir)</a> &nbsp; [<a href="#SEC_Contents" rel="contents">Contents</a>][<a href="#Index" rel="index">Index</a>]</p></div>
<h1 class="top" id="Frob-Features">Frob Features</h1>
<p>This text is a brief description of the features of Frob.</p>
<hr>
<div class="chapter-level-extent" id="Intro">
<div class="header"><p>Next: <a href="#Defs" rel="next">Definitions</a>, Previous: <a href="#Top" rel="prev">Frob Features</a>, Up: <a href="#Top" rel="up">Frob Features</a> &nbsp; [<a href="#SEC_Contents" title="Table of contents" rel="contents">Contents</a>][<a href="#Index" title="Index" rel="index">Index</a>]</p></div>
<h2 class="chapter" id="Introduction">1 Introduction</h2>
<p>Frob turns tables around.</p>
</div>
<div class="chapter-level-extent" id="Defs">
<div class="header"><p>Previous: <a href="#Intro" rel="prev">Introduction</a>, Up: <a href="#Top" rel="up">Frob Features</a></p></div>
<h2 class="chapter" id="Definitions">2 Definitions</h2>
<p>A frob is a table.</p>
</div></div></body></html>"##;

#[test]
fn a_monolithic_texinfo_manual_loses_the_node_line_before_each_section() {
    let page = page(TEXINFO_MONOLITHIC, "frobref.html");
    assert_clean(
        &page,
        "Frob Reference Manual",
        "# Frob Reference Manual\n\n## Frob Features {#Top}\n\nThis text is a brief",
        &NAV,
    );
    // Each node's id (what texinfo's own links name) is its section's
    // anchor; the heading's own id opens the heading.
    for kept in [
        "### <a id=\"Introduction\"></a>1 Introduction {#Intro}\n\nFrob turns tables around.",
        "### <a id=\"Definitions\"></a>2 Definitions {#Defs}",
    ] {
        assert!(page.markdown.contains(kept), "{kept:?} missing:\n{}", page.markdown);
    }
}

pub const ASCIIDOC: &str = r##"<html><head><title>frob-add(1)</title></head><body class="manpage">
<div id="header">
<h1>frob-add(1) Manual Page</h1>
<h2>NAME</h2>
<div class="sectionbody"><p>frob-add - Add things to the frob</p></div>
</div>
<div id="content">
<div class="sect1"><h2 id="_synopsis">SYNOPSIS</h2><div class="sectionbody"><div class="verseblock"><pre class="content"><em>frob add</em> [--all]</pre></div></div></div>
</div>
<div id="footnotes"><hr></div>
<div id="footer"><div id="footer-text">Last updated 2024-01-02 10:11:12 UTC</div></div>
</body></html>"##;

#[test]
fn asciidoc_keeps_its_header_title_and_name_and_loses_its_footer() {
    let page = page(ASCIIDOC, "frob-add.html");
    assert_clean(
        &page,
        "frob-add(1) Manual Page",
        "# frob-add(1) Manual Page {#header}\n\n## NAME {#name}\n\nfrob-add - Add things to the frob\n",
        &NAV,
    );
    // The id of the element holding the content opens its first heading.
    assert!(page.markdown.contains("## <a id=\"content\"></a>SYNOPSIS {#_synopsis}"), "{}", page.markdown);
}

pub const MKDOCS_MATERIAL: &str = r##"<html><head><title>Install - Frob Docs</title></head><body>
<a href="#install" class="md-skip">Skip to content</a>
<header class="md-header"><nav class="md-header__inner" aria-label="Header"><a href="index.html" title="Frob Docs" class="md-header__button md-logo">Frob</a><div class="md-header__title"><span class="md-ellipsis">Frob Docs</span></div></nav></header>
<div class="md-container"><main class="md-main"><div class="md-main__inner md-grid">
<div class="md-sidebar md-sidebar--primary"><div class="md-sidebar__scrollwrap"><ul><li><a href="index.html">Home</a></li><li><a href="install.html">Install</a></li></ul></div></div>
<div class="md-content"><article class="md-content__inner md-typeset">
<a href="https://example.com/frob/edit/main/docs/install.md" title="Edit this page" class="md-content__button md-icon">Edit</a>
<h1 id="install">Install</h1><p>Use pip to install frob.</p>
<aside class="md-source-file"><span class="md-source-file__fact">Last update: January 2, 2024</span></aside>
</article></div></div></main>
<footer class="md-footer"><div class="md-copyright">Copyright © 2024 Frob</div></footer></div></body></html>"##;

#[test]
fn mkdocs_material_loses_its_sidebar_edit_link_and_dates() {
    let page = page(MKDOCS_MATERIAL, "install.html");
    assert_clean(
        &page,
        "Install",
        "# Install {#install}\n\nUse pip to install frob.\n",
        &["Edit", "Last update", "Skip", "Home", "Copyright"],
    );
}

/// LibreOffice's help: no `<main>`, and a site footer with a heading.
pub const FOOTER_WITH_HEADING: &str = r##"<html><head><title>Spreadsheet Functions</title></head><body>
<div id="DisplayArea"><h1 id="hd_1">Spreadsheet Functions</h1><p>This section describes the functions.</p>
<h2 id="hd_2">ADDRESS</h2><p>Returns a cell address.</p></div>
<footer><div id="DEBUG" class="debug"><h3 class="bug">Help content debug info:</h3>
<p>This page is: <a href="https://example.com/src/04060109.xhp">/text/scalc/01/04060109.xhp</a></p><p>Title is: Spreadsheet Functions</p></div></footer>
</body></html>"##;

#[test]
fn a_site_footer_goes_with_its_heading() {
    let page = page(FOOTER_WITH_HEADING, "04060109.html");
    let heads: Vec<&str> = page.sections.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(heads, ["Spreadsheet Functions", "ADDRESS"], "{}", page.markdown);
    for gone in ["debug info", "This page is", "Title is"] {
        assert!(!page.markdown.contains(gone), "{gone}: {}", page.markdown);
    }
}

pub const HUGO: &str = r##"<html><head><title>Configure | Frob</title></head><body>
<header class="site-header"><a class="site-title" href="/">Frob</a>
<ul class="main-menu"><li><a href="/docs/">Docs</a></li><li><a href="/blog/">Blog</a></li></ul></header>
<div class="container">
<aside class="toc-sidebar"><ul><li><a href="#options">Options</a></li></ul></aside>
<div class="content">
<ol class="breadcrumb"><li><a href="/">Home</a></li><li><a href="/docs/">Docs</a></li><li class="active">Configure</li></ol>
<h1>Configure</h1>
<p>Frob reads frob.toml at start.</p>
<h2 id="options">Options</h2><p>There are two.</p>
<div class="page-nav"><a class="prev" href="/docs/install/">« Install</a> <a class="next" href="/docs/run/">Run »</a></div>
</div></div>
<footer class="site-footer"><p>© 2024 Frob Authors. Built with Hugo.</p></footer>
</body></html>"##;

#[test]
fn hugo_loses_its_banner_menu_breadcrumbs_page_links_and_footer() {
    let page = page(HUGO, "docs/configure/index.html");
    assert_clean(
        &page,
        "Configure",
        "# Configure\n\nFrob reads frob.toml at start.\n\n## Options {#options}\n\nThere are two.\n",
        &["Home", "Docs", "Blog", "«", "»", "Built with", "©"],
    );
}

pub const JAVADOC: &str = r##"<html lang="en"><head><title>Frobber (frob 1.0 API)</title></head><body class="class-declaration-page">
<div class="flex-box">
<header role="banner" class="flex-header"><nav role="navigation"><div class="top-nav" id="navbar-top"><ul class="nav-list" title="Navigation"><li><a href="../package-summary.html">Package</a></li><li class="nav-bar-cell1-rev">Class</li><li><a href="../index-all.html">Index</a></li><li><a href="../help-doc.html#class">Help</a></li></ul></div>
<div class="sub-nav"><ul class="sub-nav-list"><li>Summary:&nbsp;</li><li><a href="#method-summary">Method</a></li></ul></div></nav></header>
<div class="flex-content"><main role="main">
<div class="header"><div class="sub-title"><span class="package-label-in-type">Package</span>&nbsp;<a href="package-summary.html">org.frob</a></div>
<h1 title="Class Frobber" class="title">Class Frobber</h1></div>
<section class="class-description" id="class-description"><div class="block">Turns tables around.</div></section>
<section class="method-summary" id="method-summary"><h2>Method Summary</h2><p>frob()</p></section>
</main>
<footer role="contentinfo"><hr><p class="legal-copy"><small>Copyright © 2024 Frob Inc. All rights reserved.</small></p></footer>
</div></div></body></html>"##;

#[test]
fn javadoc_starts_with_the_class_and_loses_its_bars() {
    let page = page(JAVADOC, "org/frob/Frobber.html");
    assert_clean(
        &page,
        "Class Frobber",
        "# Class Frobber\n\nPackage [org.frob](/m/org/frob/package-summary)\n",
        &["Help", "Summary:", "Copyright", "All rights reserved"],
    );
    assert!(page.markdown.contains("Turns tables around."), "{}", page.markdown);
}

/// A Doxygen class page of project "Frob": the title is a `div.title`, the
/// project's banner and the tabs come first.
pub fn doxygen(class: &str, member: &str) -> String {
    format!(
        r##"<html><head><title>Frob: Frob::{class} Class Reference</title></head><body>
<div id="top"><div id="titlearea"><table><tr><td id="projectalign"><div id="projectname">Frob<span id="projectnumber">&#160;1.0</span></div><div id="projectbrief">Turns tables around</div></td></tr></table></div>
<div id="main-nav"><ul><li><a href="index.html">Main Page</a></li><li><a href="annotated.html">Classes</a></li></ul></div>
<div id="nav-path" class="navpath"><ul><li class="navelem"><a class="el" href="namespaceFrob.html">Frob</a></li><li class="navelem"><a class="el" href="class{class}.html">{class}</a></li></ul></div>
</div>
<div class="header"><div class="headertitle"><div class="title">Frob::{class} Class Reference</div></div></div>
<div class="contents"><p>The {class} of a frob.</p>
<h2 class="groupheader"><a id="pub-methods" name="pub-methods"></a>Public Member Functions</h2>
<p>void {member}()</p></div>
<hr class="footer"/><address class="footer"><small>Generated by&#160;<a href="https://www.doxygen.org/index.html">doxygen</a> 1.9.4</small></address>
</body></html>"##
    )
}

#[test]
fn doxygen_pages_lose_their_tabs_path_and_generator_line() {
    let page = page(&doxygen("Table", "turn"), "classTable.html");
    assert_clean(
        &page,
        "Frob::Table Class Reference",
        "# Frob::Table Class Reference\n",
        &["Main Page", "Classes", "Generated by", "doxygen"],
    );
    assert!(page.markdown.contains("The Table of a frob."), "{}", page.markdown);
}

#[test]
fn doxygen_pages_of_an_edition_lose_the_project_banner() {
    let dir = tempfile::tempdir().unwrap();
    for (class, member) in [("Table", "turn"), ("Chair", "sit"), ("Lamp", "light"), ("Desk", "write")] {
        std::fs::write(dir.path().join(format!("class{class}.html")), doxygen(class, member)).unwrap();
    }
    let ingested = crate::read(dir.path(), "/frob");
    let page = ingested.pages.iter().find(|p| p.path == "/frob/classTable").unwrap();
    check_invariants(page);
    assert_clean(
        page,
        "Frob::Table Class Reference",
        "# Frob::Table Class Reference\n\nThe Table of a frob.\n",
        &["Frob 1.0", "Turns tables around", "Generated by"],
    );
}

pub const RUSTDOC: &str = r##"<!DOCTYPE html><html lang="en"><head><title>Frobber in frob - Rust</title></head>
<body class="rustdoc struct"><a class="skip-main-content" href="#main-content">Skip to main content</a>
<nav class="mobile-topbar"><a class="logo-container" href="../frob/index.html">frob</a></nav>
<nav class="sidebar"><div class="sidebar-crate"><h2><a href="../frob/index.html">frob</a><span class="version">0.1.0</span></h2></div>
<section id="rustdoc-toc"><h2 class="location"><a href="#">Frobber</a></h2><h3><a href="#implementations">Methods</a></h3><ul class="block method"><li><a href="#method.turn">turn</a></li></ul></section></nav>
<div class="sidebar-resizer"></div>
<main><div class="width-limiter"><rustdoc-search></rustdoc-search><section id="main-content" class="content">
<div class="main-heading"><div class="rustdoc-breadcrumbs"><a href="index.html">frob</a></div>
<h1>Struct <span class="struct">Frobber</span><button id="copy-path" title="Copy item path to clipboard">Copy item path</button></h1>
<rustdoc-toolbar></rustdoc-toolbar><span class="sub-heading"><a class="src" href="../src/frob/lib.rs.html#3">Source</a></span></div>
<pre class="rust item-decl"><code>pub struct Frobber;</code></pre>
<details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>Turns tables around.</p></div></details>
<h2 id="implementations" class="section-header">Implementations<a href="#implementations" class="anchor">§</a></h2>
<pre class="rust trait"><code>pub trait Turn {
<details class="rustdoc-toggle type contents-toggle"><summary class="hideme"><span>Show 2 methods</span></summary>    fn turn(&amp;self);
    fn flip(&amp;self);</details>}</code></pre>
<section id="method.turn" class="method"><h4 class="code-header">pub fn <a href="#method.turn" class="fnname">turn</a>(&amp;self) -&gt; <a class="struct" href="struct.Table.html">Table</a><span class="notable-traits"><span class="notable-traits-tooltip">ⓘ<div class="notable-traits-tooltiptext"><span class="docblock"><h3>Notable traits for Table</h3><code class="content">impl Read for Table</code></span></div></span></span></h4></section>
<div class="docblock"><p>Turns it.</p><div class="example-wrap"><pre class="rust rust-example-rendered"><code>frob.turn();</code></pre><a class="test-arrow" target="_blank" href="https://play.rust-lang.org/?code=frob.turn()">Run</a></div></div>
</section></div></main></body></html>"##;

#[test]
fn rustdoc_starts_with_the_item() {
    let page = page(RUSTDOC, "frob/struct.Frobber.html");
    assert_clean(
        &page,
        "Struct Frobber",
        "# Struct Frobber {#main-content}\n\n",
        &[
            "Skip to main",
            "Copy item path",
            "0.1.0",
            "Show 2 methods",
            "Notable traits",
            "ⓘ",
            "Run",
            "play.rust-lang",
        ],
    );
    // Code blocks name their language.
    assert!(page.markdown.contains("```rust\npub struct Frobber;\n```"), "{}", page.markdown);
    assert!(page.markdown.contains("```rust\nfrob.turn();\n```"), "{}", page.markdown);
    assert!(page.markdown.contains("    fn turn(&self);\n    fn flip(&self);}"), "{}", page.markdown);
    let turn = page.sections.iter().find(|s| s.anchor.as_deref() == Some("method.turn")).unwrap();
    assert_eq!(turn.title, "pub fn turn(&self) -> Table");
}

/// A generic page: a navigation line known only by its shape, a copyright line at its end.
pub const SHAPES: &str = r##"<html><head><title>Usage</title></head><body>
<p><a href="install.html">« Previous</a> | <a href="index.html">Home</a> | <a href="faq.html">Next »</a></p>
<h1>Usage</h1>
<p>See the <a href="index.html">Index</a> for more.</p>
<ul><li><a href="a.html">Alpha</a></li><li><a href="b.html">Beta</a></li></ul>
<table><tr><td><a href="install.html">Prev</a></td><td><a href="index.html">Up</a></td><td><a href="faq.html">Next</a></td></tr></table>
<p>Copyright © 2024 The Usage Authors.</p>
</body></html>"##;

#[test]
fn navigation_lines_go_by_shape_and_a_trailing_copyright_line_goes() {
    let page = page(SHAPES, "usage.html");
    assert_clean(
        &page,
        "Usage",
        "# Usage\n\nSee the [Index](/m) for more.\n\n- [Alpha](/m/a)\n- [Beta](/m/b)\n",
        &["Previous", "Home", "Next", "Prev", "Copyright"],
    );
}

#[test]
fn a_copyright_page_keeps_its_text() {
    let html = "<html><body><h1>Copyright</h1><p>Copyright © 2001 Frob.</p><p>See the license for details.</p></body></html>";
    let page = page(html, "copyright.html");
    assert!(page.markdown.contains("Copyright © 2001 Frob."), "{}", page.markdown);
}

/// A site whose every page carries the site's name as an `<h1>` banner, a
/// menu line and a footer, around the page's own content.
fn banner_page(title: &str, heading: Option<&str>, body: &str) -> String {
    let heading = heading.map(|h| format!("<h2>{h}</h2>")).unwrap_or_default();
    format!(
        "<html><head><title>{title} - Frob Site</title></head><body>
<div class=\"top\"><h1>Frob Site</h1><p>The table turner</p></div>
{heading}<p>{body}</p>
<div class=\"bottom\"><p>Frob Site is run by the Frob Group; write to frob@example.com.</p></div>
</body></html>"
    )
}

#[test]
fn a_banner_h1_on_every_page_is_never_the_title() {
    let dir = tempfile::tempdir().unwrap();
    let pages = [
        ("install.html", "Install", Some("Installing Frob"), "Run the installer."),
        ("usage.html", "Usage", Some("Using Frob"), "Run frob."),
        ("faq.html", "FAQ", None, "Ask away."),
        ("news.html", "News", Some("News"), "Version 2 is out."),
    ];
    for (file, title, heading, body) in pages {
        std::fs::write(dir.path().join(file), banner_page(title, heading, body)).unwrap();
    }
    let ingested = crate::read(dir.path(), "/frob");
    let got: Vec<(&str, &str)> = ingested.pages.iter().map(|p| (p.path.as_str(), p.title.as_str())).collect();
    assert_eq!(
        got,
        [
            ("/frob/faq", "FAQ"),
            ("/frob/install", "Installing Frob"),
            ("/frob/news", "News"),
            ("/frob/usage", "Using Frob")
        ]
    );
    for page in &ingested.pages {
        check_invariants(page);
        for gone in ["Frob Site", "table turner", "frob@example.com"] {
            assert!(!page.markdown.contains(gone), "{gone:?} in {}:\n{}", page.path, page.markdown);
        }
    }
    let install = &ingested.pages[1];
    assert!(
        install.markdown.starts_with("# Installing Frob\n\nRun the installer.\n"),
        "{}",
        install.markdown
    );
    let faq = &ingested.pages[0];
    assert!(faq.markdown.starts_with("Ask away.\n"), "{}", faq.markdown);
}

#[test]
fn a_block_on_two_pages_of_three_stays() {
    let dir = tempfile::tempdir().unwrap();
    for (file, note) in [("a.html", "Beta feature."), ("b.html", "Beta feature."), ("c.html", "Stable.")] {
        let html = format!("<html><body><h1>{file}</h1><p>{note}</p><p>Body of {file}.</p></body></html>");
        std::fs::write(dir.path().join(file), html).unwrap();
    }
    let ingested = crate::read(dir.path(), "/x");
    assert!(ingested.pages[0].markdown.contains("Beta feature."), "{}", ingested.pages[0].markdown);
}

#[test]
fn pages_share_a_title_only_where_their_sources_do() {
    let dir = tempfile::tempdir().unwrap();
    let page = |title: &str, h1: &str| {
        format!(
            "<html><head><title>{title} — Frob 2 documentation</title></head><body><h1>{h1}</h1><p>{title} text.</p></body></html>"
        )
    };
    let files = [
        ("tutorial/intro.html", page("1. Introduction to the tutorial", "1. Introduction")),
        ("reference/intro.html", page("1. Introduction to the reference", "1. Introduction")),
        ("faq-a.html", page("FAQ", "FAQ")),
        ("faq-b.html", page("FAQ", "FAQ")),
        ("other.html", page("Other", "Something else")),
    ];
    for (file, html) in &files {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, html).unwrap();
    }
    let ingested = crate::read(dir.path(), "/frob");
    let got: Vec<(&str, &str)> = ingested.pages.iter().map(|p| (p.path.as_str(), p.title.as_str())).collect();
    assert_eq!(
        got,
        [
            ("/frob/faq-a", "FAQ"),
            ("/frob/faq-b", "FAQ"),
            ("/frob/other", "Something else"),
            ("/frob/reference/intro", "1. Introduction to the reference"),
            ("/frob/tutorial/intro", "1. Introduction to the tutorial"),
        ]
    );
    let intro = &ingested.pages[4];
    assert_eq!(intro.sections[0].title, intro.title);
    check_invariants(intro);
}

/// The title and the first lines of the Markdown of one page per generator,
/// as a reader sees them: reviewed snapshots.
#[test]
fn the_start_of_each_generators_page() {
    let doxygen_page = doxygen("Table", "turn");
    let pages = [
        ("texinfo_split", TEXINFO_SPLIT, "Installation.html"),
        ("texinfo_monolithic", TEXINFO_MONOLITHIC, "frobref.html"),
        ("asciidoc", ASCIIDOC, "frob-add.html"),
        ("mkdocs_material", MKDOCS_MATERIAL, "install.html"),
        ("hugo", HUGO, "docs/configure/index.html"),
        ("javadoc", JAVADOC, "org/frob/Frobber.html"),
        ("doxygen", doxygen_page.as_str(), "classTable.html"),
        ("rustdoc", RUSTDOC, "frob/struct.Frobber.html"),
        ("shapes", SHAPES, "usage.html"),
    ];
    for (name, html, file) in pages {
        let page = page(html, file);
        let start: Vec<&str> = page.markdown.lines().take(12).collect();
        insta::assert_snapshot!(
            format!("start_{name}"),
            format!("title: {}\n---\n{}", page.title, start.join("\n"))
        );
    }
}

/// A hand-made site (SQLite's shape): a logo linking home, a tagline and a
/// menu, then numbered `<h1>` sections under a `<title>` that names the page.
const NUMBERED_SECTIONS: &str = r##"<!DOCTYPE html><html><head><title>SQL Language Expressions</title></head>
<body><div class=nosearch>
<a href="index.html"><img class="logo" src="images/banner.gif" alt="Frob" border="0"></a>
<div class="menu mainmenu"><ul><li><a href="index.html">Home</a><li><a href="about.html">About</a></ul></div>
</div>
<h1 id="syntax">1. Syntax</h1>
<p>An expression is made of operands and operators.</p>
<h1 id="operators">2. Operators</h1>
<p>Operators bind in this order.</p>
</body></html>"##;

#[test]
fn a_numbered_h1_that_the_title_does_not_name_is_a_section_and_the_logo_goes() {
    let page = page(NUMBERED_SECTIONS, "lang_expr.html");
    assert_eq!(page.title, "SQL Language Expressions", "{}", page.markdown);
    assert!(!page.markdown.contains("banner.gif"), "{}", page.markdown);
    assert!(page.markdown.contains("## 1. Syntax"), "{}", page.markdown);
    assert!(page.markdown.contains("## 2. Operators"), "{}", page.markdown);
    assert!(
        page.sections.iter().any(|s| s.title == "1. Syntax" && s.anchor.as_deref() == Some("syntax")),
        "{:?}",
        page.sections
    );
    assert!(without_anchors(&page.markdown).starts_with("## 1. Syntax"), "{}", page.markdown);
}

#[test]
fn a_numbered_h1_the_title_names_stays_the_title_and_an_image_link_elsewhere_stays() {
    let html = r##"<html><head><title>Basic Vectorization (Frob Manual)</title></head><body>
<h1 class="section">19.1 Basic Vectorization</h1>
<p>Write code that avoids loops.</p>
<p><a href="figures/plot.html"><img src="figures/plot.png" alt="a plot"></a></p>
</body></html>"##;
    let page = page(html, "Basic-Vectorization.html");
    assert_eq!(page.title, "19.1 Basic Vectorization", "{}", page.markdown);
    assert!(page.markdown.contains("figures/plot.png"), "{}", page.markdown);
}

/// A Publican page (the Debian Administrator's Handbook): a banner, a line
/// of two logo links whose only text is their images' `alt`, and a
/// previous / home / next line (`ul.docnav`) above the section.
fn publican(file: &str, title: &str, body: &str, prev: bool) -> String {
    let previous = if prev {
        "<li class=\"previous\"><a accesskey=\"p\" href=\"index.html\"><strong>Prev</strong></a></li>"
    } else {
        "<li class=\"previous\"></li>"
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\"><html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>{title}</title></head><body><div id=\"banner\"><a href=\"http://example.org/get/\"><span class=\"text\">Download the ebook</span></a></div><p id=\"title\"><a class=\"left\" href=\"http://www.example.org\"><img alt=\"Product Site\" src=\"Common_Content/images//image_left.png\" /></a><a class=\"right\" href=\"index.html\"><img alt=\"Documentation Site\" src=\"Common_Content/images//image_right.png\" /></a></p><ul class=\"docnav top\">{previous}<li class=\"home\">The Handbook</li><li class=\"next\"><a accesskey=\"n\" href=\"{file}\"><strong>Next</strong></a></li></ul><div class=\"section\"><div class=\"titlepage\"><div><div><h2 class=\"title\"><a id=\"sect\"></a>{title}</h2></div></div></div><div class=\"para\">{body}</div></div></body></html>"
    )
}

#[test]
fn publican_pages_lose_their_logo_line_and_previous_next_line() {
    let dir = tempfile::tempdir().unwrap();
    let pages = [
        ("index.html", "The Handbook", "Debian from discovery to mastery.", false),
        ("sect.quotas.html", "9.9. Quotas", "The quota system limits the disk space of a user.", true),
        ("sect.backup.html", "9.10. Backup", "Making backups is one of the main jobs.", true),
        ("sect.hotplug.html", "9.11. Hot Plugging", "The kernel tells udev of new devices.", true),
    ];
    for (file, title, body, prev) in pages {
        std::fs::write(dir.path().join(file), publican("sect.backup.html", title, body, prev)).unwrap();
    }
    let ingested = crate::read(dir.path(), "/hb");
    for (file, title, body, _) in pages {
        let path = match file {
            "index.html" => "/hb".to_owned(),
            f => format!("/hb/{}", f.trim_end_matches(".html")),
        };
        let page = ingested.pages.iter().find(|p| p.path == path).unwrap();
        check_invariants(page);
        assert_clean(
            page,
            title,
            &format!("# {title} {{#sect}}\n\n{body}"),
            &["Product Site", "Documentation Site", "Download the ebook", "Next", "Prev"],
        );
    }
}

/// pod2html's pages all start with the same `<h1 id="NAME">` and `<h1
/// id="DESCRIPTION">`: sections of each page, not a banner, so the page is
/// titled by its NAME line, not by its first `<h2>`.
#[test]
fn the_same_h1_with_an_id_on_every_page_is_a_section() {
    let dir = tempfile::tempdir().unwrap();
    for (name, what, first) in [
        ("perlvar", "Perl predefined variables", "The Syntax of Variable Names"),
        ("perlfunc", "Perl builtin functions", "Perl Functions by Category"),
        ("perlop", "Perl operators and precedence", "Operator Precedence and Associativity"),
    ] {
        let html = format!(
            "<html><head><title>{name} - {what}</title></head><body><ul id=\"index\"><li><a href=\"#NAME\">NAME</a></li></ul>
<h1 id=\"NAME\">NAME</h1><p>{name} - {what}</p>
<h1 id=\"DESCRIPTION\">DESCRIPTION</h1><p>What {name} tells.</p>
<h2 id=\"first\">{first}</h2><p>The first part of {name}.</p></body></html>"
        );
        std::fs::write(dir.path().join(format!("{name}.html")), html).unwrap();
    }
    let ingested = crate::read(dir.path(), "/perl");
    for page in &ingested.pages {
        check_invariants(page);
        let name = page.path.trim_start_matches("/perl/");
        assert!(page.title.starts_with(&format!("{name} - ")), "{}: {:?}", page.path, page.title);
        let titles: Vec<&str> = page.sections.iter().map(|s| s.title.as_str()).collect();
        assert!(titles.contains(&"DESCRIPTION"), "{}: {titles:?}", page.path);
        assert!(page.markdown.contains(&format!("What {name} tells.")), "{}", page.markdown);
    }
}

/// A man page as mandoc writes it in a script other than Latin: its
/// sections' `<h1>` headings carry no id, and every page has the same ones.
fn mandoc_page(name: &str, what: &str, option: &str) -> String {
    format!(
        "<html><head><title>{name}(1)</title></head><body>
<table class=\"head\"><tr><td class=\"head-ltitle\">{name}(1)</td></tr></table>
<div class=\"manual-text\">
<section class=\"Sh\"><h1 class=\"Sh\">名前</h1><p class=\"Pp\">{name} - {what}</p></section>
<section class=\"Sh\"><h1 class=\"Sh\">書式</h1><p class=\"Pp\"><b>{name}</b> [オプション]</p></section>
<section class=\"Sh\"><h1 class=\"Sh\">説明</h1><p class=\"Pp\">{what}。</p>
<dl class=\"Bl-tag\"><dt id=\"{option}\"><a class=\"permalink\" href=\"#{option}\"><b>-{option}</b></a></dt>
<dd>{name} の -{option} オプション</dd></dl></section>
<section class=\"Sh\"><h1 class=\"Sh\">作者</h1><p class=\"Pp\">GNU</p></section>
</div></body></html>"
    )
}

#[test]
fn section_headings_every_man_page_shares_are_no_banner() {
    let dir = tempfile::tempdir().unwrap();
    let pages = [
        ("ls", "一覧表示する", "a"),
        ("cp", "コピーする", "r"),
        ("mv", "移動する", "f"),
        ("rm", "削除する", "i"),
    ];
    for (name, what, option) in pages {
        std::fs::write(dir.path().join(format!("{name}.html")), mandoc_page(name, what, option)).unwrap();
    }
    let ingested = crate::read(dir.path(), "/man");
    assert_eq!(ingested.pages.len(), 4);
    for page in &ingested.pages {
        check_invariants(page);
        let titles: Vec<&str> = page.sections.iter().map(|s| s.title.as_str()).collect();
        assert!(titles.ends_with(&["名前", "書式", "説明", "作者"]), "{}: {titles:?}", page.path);
    }
    let ls = ingested.pages.iter().find(|p| p.path == "/man/ls").unwrap();
    assert!(ls.markdown.contains("**-a**"), "{}", ls.markdown);
}
