//! A DocBook-shaped HTML manual (and a generic page) → clean pages.

use lectern_corpus::{SourceFormat, html_to_page};

use crate::{check_invariants, fixture, read, view};

#[test]
fn docbook_manual_pages() {
    let ingested = read(&fixture("docbook"), "/frob");
    assert_eq!(ingested.format, SourceFormat::Html);
    assert!(ingested.problems.is_empty(), "{:?}", ingested.problems);
    let paths: Vec<&str> = ingested.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["/frob", "/frob/sql-frobnicate", "/frob/tutorial-start"]);
    for page in &ingested.pages {
        check_invariants(page);
        for chrome in ["Prev", "Next", "Navigation header", "script text", "color: red", "id_link", "](#"] {
            assert!(!page.markdown.contains(chrome), "{}: {chrome:?} in\n{}", page.path, page.markdown);
        }
        let name = format!("docbook{}", page.path.replace('/', "_"));
        insta::assert_yaml_snapshot!(name, view(page));
    }
}

#[test]
fn docbook_details() {
    let ingested = read(&fixture("docbook"), "/frob");
    let tutorial = ingested.pages.iter().find(|p| p.path == "/frob/tutorial-start").unwrap();
    assert_eq!(tutorial.title, "1.1. Getting Started");
    let anchors: Vec<Option<&str>> = tutorial.sections.iter().map(|s| s.anchor.as_deref()).collect();
    assert_eq!(anchors, [None, Some("TUTORIAL-INSTALL"), Some("TUTORIAL-CONFIG")]);
    assert!(tutorial.markdown.contains("[the notes](/frob/sql-frobnicate#SQL-FROBNICATE-NOTES)"));
    assert!(tutorial.markdown.contains("[the project site](https://example.org/frob)"));
    assert!(tutorial.markdown.contains("| Service | Port |\n| --- | --- |\n| server | `5999` |"));
    assert!(tutorial.markdown.contains("```\n$ frob init"), "{}", tutorial.markdown);
    assert!(tutorial.text.contains("server | 5999\nadmin | console | 6000"), "{}", tutorial.text);
    assert!(tutorial.text.contains("frob architecture"));
    let reference = ingested.pages.iter().find(|p| p.path == "/frob/sql-frobnicate").unwrap();
    let names: Vec<&str> = reference.symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["FROBNICATE", "UNFROBNICATE"]);
    assert!(reference.symbols.iter().all(|s| s.kind == "Command"));
    let levels: Vec<(Option<&str>, u8)> =
        reference.sections.iter().map(|s| (s.anchor.as_deref(), s.level)).collect();
    assert_eq!(
        levels,
        [
            (None, 1),
            (Some("synopsis"), 2),
            (Some("id-1.9.3.1.5"), 2),
            (Some("SQL-FROBNICATE-CONCURRENTLY"), 3),
            (Some("SQL-FROBNICATE-NOTES"), 2)
        ]
    );
}

#[test]
fn docbook_zh_hans() {
    let ingested = read(&fixture("docbook-zh"), "/zh-Hans/frob");
    let page = ingested.pages.iter().find(|p| p.path == "/zh-Hans/frob/tutorial-start").unwrap();
    check_invariants(page);
    assert_eq!(page.title, "1.1. 入门");
    // Line breaks inside Chinese text are not spaces.
    assert!(page.text.contains("本节介绍如何运行Frobnicator。请先阅读注解，再开始安装。"), "{}", page.text);
    insta::assert_yaml_snapshot!("docbook-zh_tutorial-start", view(page));
}

#[test]
fn generic_html_page() {
    let bytes = std::fs::read(fixture("generic/page.html")).unwrap();
    let page = html_to_page(&bytes, "guide/page.html", "/demo").unwrap();
    check_invariants(&page);
    assert_eq!(page.title, "Widgets");
    assert_eq!(page.path, "/demo/guide/page");
    for gone in ["Sidebar text", "Footer must", "¶", "javascript", "Demo 1.0 documentation"] {
        assert!(!page.markdown.contains(gone), "{gone:?} in\n{}", page.markdown);
    }
    assert!(page.markdown.contains("[`Widget`](/demo/guide/api#demo.Widget)"), "{}", page.markdown);
    assert!(page.markdown.contains("[file](/demo/guide/_static/file.txt)"), "{}", page.markdown);
    insta::assert_yaml_snapshot!("generic_page", view(&page));
}

#[test]
fn hostile_html_does_not_panic() {
    let start = std::time::Instant::now();
    let deep = "<div>".repeat(100_000) + "deep text" + &"</div>".repeat(100_000);
    let err = html_to_page(deep.as_bytes(), "deep.html", "").unwrap_err();
    assert!(err.to_string().contains("nested deeper"), "{err}");
    let nested_tables = "<table><tr><td>".repeat(5_000) + "cell";
    assert!(html_to_page(nested_tables.as_bytes(), "t.html", "").is_err());
    // Deep but allowed nesting is flattened to text, not recursed into.
    let deep = "<div><span>".repeat(450) + "deep text" + &"</span></div>".repeat(450);
    let page = html_to_page(deep.as_bytes(), "deep.html", "").unwrap();
    assert!(page.text.contains("deep text"));
    // Unclosed paragraphs do not count as nesting.
    assert!(html_to_page("<p>x".repeat(5_000).as_bytes(), "p.html", "").is_ok());
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
    assert!(html_to_page(b"\0\0<h2>\0</h2>", "nul.html", "").is_ok());
    assert!(html_to_page(b"\xff\xfe<p>x</p>", "bad.html", "").is_err());
    // Lists of links nested in one another around a large text: deciding
    // whether each is a table of contents looks at a bounded part of it.
    let level = r#"<ul><li><a href="a.html">a</a> <div>"#;
    let nested = level.repeat(190) + &"words ".repeat(400_000) + &"</div></li></ul>".repeat(190);
    let page = html_to_page(nested.as_bytes(), "n.html", "").unwrap();
    assert!(page.text.contains("words words"));
    let headings = "<h2>a</h2>".repeat(20_000);
    assert_eq!(html_to_page(headings.as_bytes(), "h.html", "").unwrap().sections.len(), 20_000);
}

#[test]
fn a_line_break_beside_chinese_is_no_space_but_stays_one_in_korean() {
    let html =
        "<html><body><p>本节介绍\n如何运行。\nFrob 与\n数据库</p><p>색인을\n만든다。</p></body></html>";
    let page = html_to_page(html.as_bytes(), "p.html", "").unwrap();
    assert!(page.text.contains("本节介绍如何运行。Frob 与数据库"), "{}", page.text);
    assert!(page.text.contains("색인을 만든다。"), "{}", page.text);
}

#[test]
fn a_table_of_contents_is_shown_but_not_searched() {
    let docbook = read(&fixture("docbook"), "/frob");
    let index = docbook.pages.iter().find(|p| p.path == "/frob").unwrap();
    assert!(index.markdown.contains("[1.1. Getting Started](/frob/tutorial-start)"), "{}", index.markdown);
    assert!(index.markdown.contains("frobnicate a table"), "{}", index.markdown);
    for gone in ["Getting Started", "Installation", "FROBNICATE", "frobnicate a table"] {
        assert!(!index.text.contains(gone), "{gone:?} in {:?}", index.text);
    }
    // A list of links to other pages, marked or not; the words around it stay searchable.
    let html = r#"<html><body><h1>Guide</h1><p>Read these in order.</p>
        <ul><li><a href="install.html">Installing widgets</a></li>
            <li><a href="run.html">Running widgets</a> — the first start</li></ul>
        <p>Then come back.</p></body></html>"#;
    let page = html_to_page(html.as_bytes(), "guide/index.html", "/demo").unwrap();
    check_invariants(&page);
    assert!(page.markdown.contains("- [Installing widgets](/demo/guide/install)"), "{}", page.markdown);
    assert!(!page.text.contains("Installing widgets") && !page.text.contains("first start"), "{}", page.text);
    assert!(
        page.text.contains("Read these in order.") && page.text.contains("Then come back."),
        "{}",
        page.text
    );
    // A title longer than a line's tail is still a line of contents.
    let long = "Installing, configuring, upgrading and running widgets on every platform and every version the widget maker supports";
    let html = format!(
        r#"<html><body><h1>Guide</h1><p>Intro.</p><ol><li><a href="a.html">{long}</a></li><li><a href="b.html">Two</a></li></ol></body></html>"#
    );
    let page = html_to_page(html.as_bytes(), "guide/index.html", "/demo").unwrap();
    assert!(!page.text.contains("widget maker supports") && page.markdown.contains(long), "{}", page.text);
    // Lists that only look alike stay searchable: links elsewhere on the web,
    // to the page's own parts or to parts of other pages (references to
    // what those define), with a paragraph after the link, or one item.
    let kept = [
        r#"<ul><li><a href="https://example.org/a">Widget maker</a></li><li><a href="https://example.org/b">Widget seller</a></li></ul>"#,
        r##"<ul><li><a href="#a">Widget maker</a></li><li><a href="#b">Widget seller</a></li></ul>"##,
        r##"<ul><li><a href="api.html#maker">Widget maker</a> is new.</li><li><a href="api.html#seller">Widget seller</a></li></ul>"##,
        r#"<ul><li><a href="a.html">Widget maker</a> builds a widget from the parts it is given, checking each part against the plan first and refusing any that does not fit it.</li><li><a href="b.html">Widget seller</a></li></ul>"#,
        r#"<ul><li><a href="a.html">Widget maker</a></li></ul>"#,
        r#"<dl><dt><a href="a.html">Widget maker</a></dt><dd>Builds a widget from the parts it is given, checking each part against the plan first and refusing any that does not fit.</dd><dt><a href="b.html">Widget seller</a></dt></dl>"#,
        r#"<ul><li>See <a href="a.html">Widget maker</a></li><li><a href="b.html">Widget seller</a></li></ul>"#,
    ];
    for list in kept {
        let html = format!("<html><body><h1>Guide</h1><p>Intro.</p>{list}</body></html>");
        let page = html_to_page(html.as_bytes(), "guide/index.html", "/demo").unwrap();
        assert!(page.text.contains("Widget maker"), "{list}: {:?}", page.text);
    }
    // Contents of the page itself (texinfo's, one manual in one file): lines
    // naming its own headings, numbered or not, whole list or a chapter's.
    let html = r##"<html><body><h1>Widget Manual</h1>
        <div class="contents"><ul><li><a href="#Intro">1 Introduction</a>
          <ul><li><a href="#What">1.1 What is a widget?</a></li></ul></li>
          <li><a href="manual.html#Use">2 Using widgets</a></li></ul></div>
        <h2 id="Intro">1 Introduction</h2>
        <ul class="section-toc"><li><a href="#What">What is a widget?</a></li><li><a href="#Why">Why widgets</a></li></ul>
        <h3 id="What">1.1 What is a widget?</h3><p>A small gadget.</p>
        <h3 id="Why">1.2 Why widgets</h3><p>They help.</p>
        <h2 id="Use">2 Using widgets</h2><p>Turn the crank.</p>
        <ul><li><a href="#What">What is a widget?</a> tells more</li><li><a href="#Nowhere">Widget sellers</a></li></ul>
        </body></html>"##;
    let page = html_to_page(html.as_bytes(), "manual.html", "/demo").unwrap();
    check_invariants(&page);
    let intro = page.sections.iter().find(|s| s.anchor.as_deref() == Some("Intro")).unwrap();
    assert!(intro.markdown.contains("[What is a widget?]"), "{}", intro.markdown);
    assert_eq!(intro.text.trim(), "1 Introduction", "{:?}", intro.text);
    assert!(!page.sections[0].text.contains("Using widgets"), "{:?}", page.sections[0].text);
    // A list naming a heading of the page and a part no heading has is not contents.
    assert!(page.text.contains("Widget sellers") && page.text.contains("tells more"), "{:?}", page.text);
}

/// Vim's HTML help (Debian's vim-doc) declares ISO-8859-1 and writes its
/// digraphs' table in it: read as a browser reads it (windows-1252), not
/// skipped. A charset Lectern does not read is named in the problem.
#[test]
fn a_page_declaring_latin1_is_read_and_another_charset_is_named() {
    let mut latin1 =
        b"<html><head><meta http-equiv=\"Content-type\" content=\"text/html; charset=ISO-8859-1\">\
        <title>Vim documentation: digraph</title></head><body><h1>Digraphs</h1><p>Caf"
            .to_vec();
    // é, then windows-1252's right quote and euro sign.
    latin1.extend([0xE9, b' ', 0x92, b'a', 0x92, b' ', 0x80, b'5']);
    latin1.extend(b"</p></body></html>");
    let page = html_to_page(&latin1, "digraph.html", "/vim").unwrap();
    assert!(page.text.contains("Café ’a’ €5"), "{}", page.text);
    let mut gb = b"<html><head><meta charset=\"gb2312\"><title>t</title></head><body><p>".to_vec();
    gb.extend([0xD6, 0xD0, 0xCE, 0xC4]);
    gb.extend(b"</p></body></html>");
    let err = html_to_page(&gb, "zh.html", "/d").unwrap_err().to_string();
    assert!(err.contains("charset gb2312") && err.contains("iconv -f gb2312 -t UTF-8"), "{err}");
    // XHTML declares it in its XML declaration.
    let mut xhtml =
        b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><html><head><title>t</title></head><body><p>na"
            .to_vec();
    xhtml.extend([0xEF, b'v', 0xE9]);
    xhtml.extend(b"</p></body></html>");
    let page = html_to_page(&xhtml, "x.html", "/d").unwrap();
    assert!(page.text.contains("naïvé"), "{}", page.text);
    // Nothing declared: not UTF-8, where.
    let err = html_to_page(&[b'<', b'p', b'>', 0xFF], "x.html", "/d").unwrap_err().to_string();
    assert!(err.contains("not valid UTF-8 (first bad byte at offset 3)"), "{err}");
}

/// DocBook XSL with admonition graphics (Debian's debian-reference, in
/// every language) sets a note as a table: the icon in one cell, the label
/// in a `<th>`, the text in the row below. It reads as the same note
/// without graphics does, its label once as a bold line, then its text: no
/// table, no icon's alt text (`[Nota]`).
#[test]
fn a_docbook_admonition_set_as_a_table_reads_as_its_label_and_text() {
    let graphic = |class: &str, label: &str, body: &str| {
        format!(
            r#"<div class="{class}" style="margin-left: 0.5in; margin-right: 0.5in;">
  <table border="0" summary="{class}">
    <tr>
      <td rowspan="2" align="center" valign="top" width="25">
        <img alt="[{label}]" src="images/{class}.png"/>
      </td>
      <th align="left">{label}</th>
    </tr>
    <tr>
      <td align="left" valign="top">
        {body}
      </td>
    </tr>
  </table>
</div>"#
        )
    };
    let plain = |class: &str, label: &str, body: &str| {
        format!(r#"<div class="{class}"><h3 class="title">{label}</h3>{body}</div>"#)
    };
    // `list` puts a note in a list item (a heading there, as a note without
    // graphics has, makes the list a layout: left out where they are compared).
    let page = |admonition: &dyn Fn(&str, &str, &str) -> String, list: bool| {
        let item = admonition("tip", "Dica", "<p>Use <a href=\"ch02.html\">o capítulo 2</a>.</p>");
        let html = format!(
            r#"<html><head><title>1. Tutorial</title></head><body><div class="chapter">
<h1 class="title">1. Tutorial</h1><p>Leia antes.</p>
{}
<ul><li><p>Um item.</p>{}</li></ul>
{}
<h2 class="title" id="s2">1.1. Conta</h2>
{}
</div></body></html>"#,
            admonition("note", "Nota", "<p>O nome de usuário tem <code>minúsculas</code>.</p>"),
            if list { item.as_str() } else { "" },
            admonition("caution", "Cuidado", "<p>Primeiro parágrafo.</p><p>Segundo parágrafo.</p>"),
            admonition("warning", "警告", "<p>パーミッションは重要です。</p>"),
        );
        html_to_page(html.as_bytes(), "ch01.html", "/ref").unwrap()
    };
    let listed = page(&graphic, true);
    check_invariants(&listed);
    for gone in [" | ", "[Nota]", "[Dica]", "[警告]", "note.png", "---"] {
        assert!(!listed.markdown.contains(gone), "{gone:?} in\n{}", listed.markdown);
        assert!(!listed.text.contains(gone), "{gone:?} in\n{}", listed.text);
    }
    for label in ["Nota", "Dica", "Cuidado", "警告"] {
        assert_eq!(listed.text.matches(label).count(), 1, "{label} in\n{}", listed.text);
    }
    assert!(
        listed.markdown.contains("**Nota**\n\nO nome de usuário tem `minúsculas`."),
        "{}",
        listed.markdown
    );
    assert!(
        listed.markdown.contains("- Um item.\n\n  **Dica**\n\n  Use [o capítulo 2](/ref/ch02)."),
        "{}",
        listed.markdown
    );
    assert!(listed.text.contains("Cuidado\nPrimeiro parágrafo.\nSegundo parágrafo."), "{}", listed.text);
    assert!(listed.sections[1].text.contains("警告\nパーミッションは重要です。"), "{:?}", listed.sections);
    // Exactly what the same notes written without graphics read as.
    let (graphic, plain) = (page(&graphic, false), page(&plain, false));
    assert_eq!(graphic.markdown, plain.markdown);
    assert_eq!(graphic.text, plain.text);
}

/// A line break between a Latin word and Japanese text is a space, as it
/// is between two Latin words (Debian's debian-reference-ja: `can be found
/// in\n<a>メーリングリスト</a>` read `inメーリングリスト`); only one between
/// two Han or kana characters stands for nothing. Either way round, and
/// with an inline element closing or opening at the break.
#[test]
fn a_line_break_between_latin_and_japanese_stays_a_space() {
    let cases = [
        ("can be found in\n<a href=\"x.html\">メーリングリスト</a>", "can be found in メーリングリスト"),
        ("<a href=\"x.html\">メーリングリスト</a>\nis read", "メーリングリスト is read"),
        ("<a href=\"x.html\">Unix\n的</a>システム", "Unix 的システム"),
        ("バージョン\n2 以降", "バージョン 2 以降"),
        ("版本 2\n以降", "版本 2 以降"),
        ("<em>メール\n</em>is", "メール is"),
        ("in<em>\nメール</em>", "in メール"),
        ("<code>adduser</code>\nを用いて", "adduser を用いて"),
        ("を用いて\n<code>adduser</code>", "を用いて adduser"),
        ("<b>メーリング\n</b>リスト", "メーリングリスト"),
        ("メーリング<a href=\"x.html\">\nリスト</a>", "メーリングリスト"),
        // Punctuation of CJK text carries its own spacing; fullwidth letters are set as kana are.
        ("使います。\nThen", "使います。Then"),
        ("ＣＰＵ\nを使う", "ＣＰＵを使う"),
        ("the ＣＰＵ\nis", "the ＣＰＵ is"),
    ];
    for (html, want) in cases {
        let page = format!("<html><body><p>{html}</p></body></html>");
        let page = html_to_page(page.as_bytes(), "p.html", "").unwrap();
        assert_eq!(page.text, want, "{html:?}");
    }
}

/// A reference page listing each function in an `<article>` of its own
/// (erl_docgen) keeps all of them, with the module's description, and
/// leaves the navigation beside them out; a page with one `<article>` is
/// that article.
#[test]
fn several_articles_are_one_page_without_what_lies_beside_them() {
    let html = r#"<html><head><title>Erlang -- lists</title></head><body><div id="container">
<nav class="leftnav-tube"><ul><li><a href="maps.html">maps</a></li><li>Sidebar filler</li></ul></nav>
<div id="content"><div class="innertube"><h1>lists</h1>
<section class="description"><h3>Description</h3><p>List processing functions.</p></section>
<article class="func"><h4 id="all-2">all(Pred, List) -&gt; boolean()</h4><p>Tells whether all match.</p></article>
<article class="func"><h4 id="foldl-3">foldl(Fun, Acc0, List) -&gt; Acc1</h4><p>Folds from the left.</p></article>
<article class="func"><h4 id="map-2">map(Fun, List1) -&gt; List2</h4><p>Maps each element.</p></article>
</div></div></div></body></html>"#;
    let page = html_to_page(html.as_bytes(), "lists.html", "/erlang").unwrap();
    let anchors: Vec<Option<&str>> =
        page.sections.iter().filter_map(|s| s.anchor.as_deref().map(Some)).collect();
    for (anchor, text) in [("all-2", "all match"), ("foldl-3", "from the left"), ("map-2", "each element")] {
        assert!(anchors.contains(&Some(anchor)), "{anchor} in {anchors:?}");
        assert!(page.markdown.contains(text), "{text:?} in\n{}", page.markdown);
    }
    assert!(page.markdown.contains("List processing functions."), "{}", page.markdown);
    assert!(!page.markdown.contains("Sidebar filler"), "{}", page.markdown);

    let one = r#"<html><body><div><p>Site banner text</p></div>
<article><h1>Post</h1><p>The post itself.</p></article></body></html>"#;
    let page = html_to_page(one.as_bytes(), "post.html", "/blog").unwrap();
    assert!(page.markdown.contains("The post itself."), "{}", page.markdown);
    assert!(!page.markdown.contains("Site banner"), "{}", page.markdown);
}
