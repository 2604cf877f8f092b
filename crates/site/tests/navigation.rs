//! The site's pages for people, through `oneshot` over a library the test
//! writes: four versions of a Markdown tree without index pages (titles
//! only in frontmatter, folders, a `_category_.json`, an end-of-life
//! version) and an mdBook tree with a `SUMMARY.md`.
//!
//! # Contents
//! - every edition has a home (its index page or a generated one); `/` redirects to it
//! - one `<h1>` per page; code blocks take focus
//! - the sidebar: groups in source order, collapsible, the current page marked
//! - versions newest first; the end-of-life notice links the current version
//! - table of contents, previous/next, the edit link
//! - the page-not-found page, `/favicon.ico`, `/robots.txt`

use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use lectern_library::{Library, OpenMode};
use lectern_site::{Options, SiteState, app};
use tower::ServiceExt;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// One version of the tool's docs: folders `commands` and `using-tool`
/// (renamed and placed first by its `_category_.json`), no index page.
fn tool_tree(root: &Path, version: &str) {
    let page = |title: &str, body: &str| {
        format!("---\ntitle: {title}\ndescription: {title} in {version}\n---\n{body}")
    };
    write(
        root,
        "commands/tool-install.md",
        &page(
            "tool-install",
            "### Synopsis\n\n```bash\ntool install <pkg>\n```\n\n### Description\n\nInstalls.\n\n#### Details\n\nMore.\n",
        ),
    );
    write(root, "commands/Tool-audit.md", &page("Tool-audit", "### Synopsis\n\nAudits.\n"));
    write(root, "commands/tool-build.md", &page("tool-build", "### Synopsis\n\nBuilds.\n"));
    write(root, "using-tool/config.md", &page("Config", "### Description\n\nSettings.\n"));
    write(root, "using-tool/_category_.json", r#"{"label": "Using the tool", "position": 1}"#);
    write(root, "about.md", &page("About", "# About the tool\n\nIt is a tool.\n"));
}

fn site_toml(root: &Path) -> String {
    let mut toml = String::from(
        "[site]\nname = \"Tool Docs\"\ndescription = \"The tool's documentation.\"\nbase_url = \"https://docs.tool.example\"\nedit_url = \"https://git.example/tool/edit/main/docs/v{version}/{file}\"\nicon = \"icon.svg\"\n",
    );
    for (version, status) in [("8", "eol"), ("10", "supported"), ("9", "supported"), ("11", "current")] {
        let dir = format!("tool-{version}");
        tool_tree(&root.join(&dir), version);
        let prefix = if version == "11" { "/tool".to_owned() } else { format!("/tool/{version}") };
        toml.push_str(&format!(
            "\n[[editions]]\nproject = \"tool\"\nversion = \"{version}\"\nlocale = \"en\"\nlabel = \"Tool {version}\"\nstatus = \"{status}\"\nprefix = \"{prefix}\"\nsource = \"{dir}\"\n{}",
            if version == "11" { "default = true\n" } else { "" }
        ));
    }
    write(
        root,
        "book/SUMMARY.md",
        "# Summary\n\n[Preface](preface.md)\n\n# Guide\n\n- [Zebra start](start.md)\n    - [Alpha detail](start/detail.md)\n- [Middle](middle.md)\n",
    );
    write(root, "book/preface.md", "# Preface\n\nHello.\n");
    write(root, "book/start.md", "# Starting\n\nGo.\n");
    write(root, "book/start/detail.md", "# Detail\n\nDeeper.\n");
    write(root, "book/middle.md", "# Middle\n\nCentre.\n");
    toml.push_str("\n[[editions]]\nproject = \"book\"\nversion = \"1\"\nlocale = \"en\"\nlabel = \"Book\"\nstatus = \"current\"\nprefix = \"/book\"\nsource = \"book\"\n");
    write(root, "icon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\"/>");
    toml
}

fn library() -> Arc<Library> {
    static LIB: OnceLock<(tempfile::TempDir, Arc<Library>)> = OnceLock::new();
    LIB.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let docs = dir.path().join("docs");
        let toml = site_toml(&docs);
        let config_path = docs.join("lectern.toml");
        std::fs::write(&config_path, &toml).unwrap();
        let config = lectern_corpus::SiteConfig::load(&config_path).unwrap();
        let library = Library::open(&dir.path().join("lib"), OpenMode::ReadWrite).unwrap();
        library.add_site(&config, &mut |_, _| {}, &mut |_| {}).unwrap();
        (dir, Arc::new(library))
    })
    .1
    .clone()
}

async fn get(path: &str) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let s = SiteState::new(library(), Options::default());
    let mut req =
        Request::builder().uri(path).header(header::HOST, "127.0.0.1:8080").body(Body::empty()).unwrap();
    req.extensions_mut().insert(ConnectInfo("198.51.100.9:5000".parse::<SocketAddr>().unwrap()));
    let response = app(s).oneshot(req).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    (status, headers, response.into_body().collect().await.unwrap().to_bytes().to_vec())
}

async fn html(path: &str) -> (StatusCode, String) {
    let (status, _, body) = get(path).await;
    (status, String::from_utf8(body).unwrap())
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// The texts between tags, in order (link labels, group labels).
fn texts(html: &str) -> Vec<&str> {
    html.split('<')
        .filter_map(|s| s.split_once('>'))
        .map(|(_, t)| t.trim())
        .filter(|t| !t.is_empty())
        .collect()
}

/// The text between `from` and the next `to`.
fn between<'a>(s: &'a str, from: &str, to: &str) -> &'a str {
    let start = s.find(from).unwrap_or_else(|| panic!("no {from} in {s}")) + from.len();
    &s[start..start + s[start..].find(to).unwrap()]
}

#[tokio::test]
async fn every_edition_has_a_home_and_the_root_leads_to_one() {
    let (status, headers, _) = get("/").await;
    assert_eq!(status, StatusCode::TEMPORARY_REDIRECT);
    assert_eq!(headers[header::LOCATION], "/tool");
    let (status, page) = html("/tool").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(count(&page, "<h1"), 1, "{page}");
    assert!(page.contains("<h1>Tool 11</h1>"), "{page}");
    assert!(page.contains("<h2>Commands</h2>") && page.contains("<h2>Using the tool</h2>"), "{page}");
    assert!(page.contains("<a href=\"/tool/commands/tool-install\">tool-install</a>"), "{page}");
    assert!(!page.contains("tool.md\""), "a generated home has no Markdown source: {page}");
    // The generated home leads into the reading order, which starts with
    // the group its `_category_.json` puts first.
    assert!(page.contains("rel=\"next\" href=\"/tool/using-tool/config\""), "{page}");
    for home in ["/tool/8", "/tool/9", "/tool/10", "/book"] {
        assert_eq!(html(home).await.0, StatusCode::OK, "{home}");
    }
}

#[tokio::test]
async fn one_h1_from_the_title_and_code_blocks_take_focus() {
    let (status, page) = html("/tool/commands/tool-install").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(count(&page, "<h1"), 1, "{page}");
    assert!(page.contains("<h1>tool-install</h1>"), "a frontmatter-only title is the h1: {page}");
    assert!(page.contains("<pre tabindex=\"0\""), "{page}");
    assert!(!page.contains("tabindex=\"0\" tabindex"), "{page}");
    assert!(!page.contains("<pre>"), "{page}");
    // A page with its own `#` heading keeps it, once.
    let (_, about) = html("/tool/about").await;
    assert_eq!(count(&about, "<h1"), 1, "{about}");
    assert!(about.contains("About the tool"), "{about}");
}

#[tokio::test]
async fn the_sidebar_follows_the_source() {
    let (_, page) = html("/tool/commands/tool-build").await;
    let sidebar = between(&page, "<nav class=\"sidebar\" aria-label=\"Pages\">", "</nav>");
    // `_category_.json` puts "Using the tool" first; then pages and groups by
    // label, without regard to case: About, Commands; in Commands: tool-audit
    // (uppercase T) between no others' byte order.
    let order: Vec<&str> =
        ["Using the tool", "Config", "About", "Commands", "Tool-audit", "tool-build", "tool-install"]
            .into_iter()
            .collect();
    let mut at = 0;
    for label in &order {
        let found = sidebar[at..]
            .find(&format!(">{label}<"))
            .unwrap_or_else(|| panic!("{label} out of order in {sidebar}"));
        at += found;
    }
    assert_eq!(count(sidebar, "<details"), 2, "{sidebar}");
    assert_eq!(count(sidebar, "aria-current=\"page\""), 1);
    assert!(
        sidebar.contains("<a href=\"/tool/commands/tool-build\" aria-current=\"page\">tool-build</a>"),
        "{sidebar}"
    );

    // mdBook: SUMMARY.md's order and nesting and its link texts; it is not a page.
    let (_, book) = html("/book/start/detail").await;
    let sidebar = between(&book, "<nav class=\"sidebar\" aria-label=\"Pages\">", "</nav>");
    assert_eq!(
        texts(sidebar),
        ["Preface", "Guide", "Zebra start", "Zebra start", "Alpha detail", "Middle"],
        "{sidebar}"
    );
    assert_eq!(html("/book/SUMMARY").await.0, StatusCode::NOT_FOUND);
    assert!(book.contains("rel=\"prev\" href=\"/book/start\""), "{book}");
    assert!(book.contains("rel=\"next\" href=\"/book/middle\""), "{book}");
}

#[tokio::test]
async fn versions_newest_first_and_end_of_life_says_so() {
    let (_, page) = html("/tool/8/commands/tool-install").await;
    let versions = between(&page, "<nav aria-label=\"Versions\">", "</nav>");
    assert_eq!(texts(versions), ["Tool 11", "Tool 10", "Tool 9", "Tool 8"], "{versions}");
    let banner = between(&page, "<p class=\"banner\" role=\"note\">", "</p>");
    assert!(banner.contains("end of life"), "{banner}");
    assert!(banner.contains("href=\"/tool/commands/tool-install\""), "{banner}");
    // The current and supported versions carry no notice.
    for path in ["/tool/commands/tool-install", "/tool/9/commands/tool-install"] {
        assert!(!html(path).await.1.contains("class=\"banner\""), "{path}");
    }
}

#[tokio::test]
async fn table_of_contents_pager_and_edit_link() {
    let (_, page) = html("/tool/10/commands/tool-install").await;
    let toc = between(&page, "<nav class=\"toc\"", "</nav>");
    assert!(toc.contains("<a href=\"#synopsis\">Synopsis</a>") && toc.contains("#description"), "{toc}");
    assert!(toc.contains("<li class=\"sub\"><a href=\"#details\">Details</a>"), "{toc}");
    assert!(page.contains("id=\"synopsis\""), "the anchors exist in the page: {page}");
    assert!(page.contains("rel=\"prev\" href=\"/tool/10/commands/tool-build\""), "{page}");
    assert!(
        page.contains("href=\"https://git.example/tool/edit/main/docs/v10/commands/tool-install.md\""),
        "{page}"
    );
    assert!(page.contains("name=\"description\" content=\"tool-install in 10\""), "{page}");
}

#[tokio::test]
async fn a_missing_page_is_explained_to_people() {
    for path in ["/tool/commands/no-such", "/nowhere"] {
        let (status, page) = html(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(page.contains("<h1>Page not found</h1>"), "{page}");
        assert!(page.contains("<form role=\"search\" action=\"/search\""), "{page}");
        for tool in ["list_pages", "search_docs", "read_page", "list_versions"] {
            assert!(!page.contains(tool), "{tool} named to a person: {page}");
        }
        let home = between(&page, "go to <a href=\"", "\"");
        assert_ne!(home, path);
        assert_eq!(html(home).await.0, StatusCode::OK, "{home}");
    }
    let (status, page) = html("/tool/nope.md").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!page.contains("list_pages"), "{page}");
}

#[tokio::test]
async fn favicon_and_robots_txt_are_answered() {
    let (status, headers, body) = get("/favicon.ico").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "image/svg+xml", "the configured icon");
    assert!(body.starts_with(b"<svg"));
    let (status, headers, body) = get("/robots.txt").await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/plain"));
    assert!(String::from_utf8(body).unwrap().contains("Sitemap: https://docs.tool.example/sitemap.xml"));
}

/// Two small HTML manuals installed the Debian way (each from its own
/// `usr/share/doc/<name>/html` folder): beta links alpha by file-system
/// path, `file:` URL and a relative path climbing out of its tree, and a
/// gamma nobody installed.
fn outside_trees(root: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let alpha = root.join("alpha-doc/usr/share/doc/alpha/html");
    let beta = root.join("beta-doc/usr/share/doc/beta/html");
    let page = |title: &str, body: &str| {
        format!("<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>")
    };
    write(&alpha, "index.html", &page("Alpha", "<p>The alpha manual. <a href=\"guide.html\">Guide</a></p>"));
    write(
        &alpha,
        "guide.html",
        &page("Alpha guide", "<p>Read on.</p><h2 id=\"setup\">Setup</h2><p>Set up.</p>"),
    );
    write(
        &beta,
        "index.html",
        &page(
            "Beta",
            "<p>See <a href=\"/usr/share/doc/alpha/html/guide.html#setup\">abs</a>, \
             <a href=\"file:///usr/share/doc/alpha/html/index.html\">file</a>, \
             <a href=\"../../alpha/html/guide.html\">climb</a>, \
             <a href=\"/usr/share/doc/gamma/html/x.html\">gamma</a>, \
             <a href=\"../../gamma/html/y.html\">gamma climb</a> and \
             <a href=\"more.html\">more</a>.</p>",
        ),
    );
    write(&beta, "more.html", &page("More", "<p>More beta.</p>"));
    (alpha, beta)
}

#[tokio::test]
async fn links_leaving_a_tree_lead_to_the_installed_edition_they_name_or_stay_external() {
    let dir = tempfile::tempdir().unwrap();
    let (alpha, beta) = outside_trees(&dir.path().join("trees"));
    let library = Library::open(&dir.path().join("lib"), OpenMode::ReadWrite).unwrap();
    let spec = |project: &str| lectern_library::EditionSpec {
        project: Some(project.into()),
        version: Some("1".into()),
        locale: Some("en".into()),
        status: Some(lectern_library::Status::Current),
        ..Default::default()
    };
    // Beta first: alpha is not installed yet, so all five stay external.
    let report = library.add(&beta, &spec("beta"), &mut |_| {}, &mut |_| {}).unwrap();
    assert_eq!((report.links.outside, report.links.outside_installed), (5, 0), "{:?}", report.links);
    assert!(
        report
            .links
            .summary()
            .contains("5 outside the tree (0 to installed editions, 5 kept as external links)")
    );
    library.add(&alpha, &spec("alpha"), &mut |_| {}, &mut |_| {}).unwrap();
    // Resolved when the page is shown: alpha is installed now.
    let checked = library.check_links(Some("beta@1/en")).unwrap();
    let links = checked[0].links.as_ref().unwrap();
    assert_eq!((links.outside, links.outside_installed), (5, 3), "{links:?}");
    let s = SiteState::new(Arc::new(library), Options::default());
    let mut req =
        Request::builder().uri("/beta").header(header::HOST, "127.0.0.1:8080").body(Body::empty()).unwrap();
    req.extensions_mut().insert(ConnectInfo("198.51.100.9:5000".parse::<SocketAddr>().unwrap()));
    let response = app(s.clone()).oneshot(req).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let page = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let body = between(&page, "<main", "</main>");
    for (text, href) in [
        ("abs", "/alpha/guide#setup".to_owned()),
        ("file", "/alpha".to_owned()),
        ("climb", "/alpha/guide".to_owned()),
        ("gamma", "file:///usr/share/doc/gamma/html/x.html".to_owned()),
        (
            "gamma climb",
            format!("file://{}/beta-doc/usr/share/doc/gamma/html/y.html", dir.path().join("trees").display()),
        ),
        ("more", "/beta/more".to_owned()),
    ] {
        assert!(body.contains(&format!("href=\"{href}\">{text}</a>")), "{text} → {href}: {body}");
    }
    // Never a path under the edition's prefix that leads nowhere.
    assert!(!body.contains("href=\"../") && !body.contains("href=\"/beta/usr"), "{body}");
    // The page's Markdown served on its own says the same.
    let mut req = Request::builder()
        .uri("/beta.md")
        .header(header::HOST, "127.0.0.1:8080")
        .body(Body::empty())
        .unwrap();
    req.extensions_mut().insert(ConnectInfo("198.51.100.9:5000".parse::<SocketAddr>().unwrap()));
    let response = app(s).oneshot(req).await.unwrap();
    let md = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    for link in [
        "[abs](/alpha/guide#setup)",
        "[climb](/alpha/guide)",
        "[gamma](file:///usr/share/doc/gamma/html/x.html)",
    ] {
        assert!(md.contains(link), "{link}: {md}");
    }
}

#[tokio::test]
async fn an_index_pages_markdown_twin_names_its_images_and_links_by_site_path() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    write(
        &tree,
        "guide/README.md",
        "# Guide\n\n![logo](img/logo.svg) See [install](install.md).\n\n<img src=\"img/logo.svg\" align=\"right\">\n",
    );
    write(&tree, "guide/install.md", "# Install\n\n![logo](img/logo.svg)\n");
    write(&tree, "about.md", "# About\n\nAbout the tool.\n");
    write(&tree, "guide/img/logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\"/>");
    let library = Library::open(&dir.path().join("lib"), OpenMode::ReadWrite).unwrap();
    let spec = lectern_library::EditionSpec {
        project: Some("t".into()),
        version: Some("1".into()),
        locale: Some("en".into()),
        status: Some(lectern_library::Status::Current),
        ..Default::default()
    };
    library.add(&tree, &spec, &mut |_| {}, &mut |_| {}).unwrap();
    let library = Arc::new(library);
    let fetch = |path: &'static str| {
        let s = SiteState::new(library.clone(), Options::default());
        async move {
            let mut req = Request::builder()
                .uri(path)
                .header(header::HOST, "127.0.0.1:8080")
                .body(Body::empty())
                .unwrap();
            req.extensions_mut().insert(ConnectInfo("198.51.100.9:5000".parse::<SocketAddr>().unwrap()));
            let response = app(s).oneshot(req).await.unwrap();
            let status = response.status();
            (
                status,
                String::from_utf8_lossy(&response.into_body().collect().await.unwrap().to_bytes())
                    .into_owned(),
            )
        }
    };
    let (status, md) = fetch("/t/guide.md").await;
    assert_eq!(status, StatusCode::OK, "{md}");
    // Served at /t/guide.md, the README's relative paths would leave its folder.
    assert!(md.contains("![logo](/t/guide/img/logo.svg)"), "{md}");
    assert!(md.contains("[install](/t/guide/install.md)"), "{md}");
    assert!(md.contains("<img src=\"/t/guide/img/logo.svg\" align=\"right\">"), "{md}");
    // Any other page keeps its Markdown as written: its paths already resolve.
    let (_, md) = fetch("/t/guide/install.md").await;
    assert!(md.contains("![logo](img/logo.svg)"), "{md}");
    let (status, svg) = fetch("/t/guide/img/logo.svg").await;
    assert_eq!(status, StatusCode::OK, "{svg}");
}
