//! Assets pages reference: kept from sibling and parent folders (HTML and
//! Markdown), each content once; a missing one counted; an oversize one, one
//! past the edition's budget, one renamed from another type and an SVG with
//! script skipped with their reasons; a link leaving the tree never read.

use std::path::Path;

use lectern_corpus::assets::AssetLimits;
use lectern_corpus::{Limits, ReadOptions, Spooled, spool_source_with_limits};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDRsmall";
const SVG: &str =
    r#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>"#;

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn read(root: &Path, prefix: &str, limits: AssetLimits) -> Spooled {
    let limits = Limits { assets: limits, ..Limits::default() };
    spool_source_with_limits(root, &ReadOptions::new(prefix), &limits, &mut |_, _| {}).unwrap()
}

fn reason<'a>(spooled: &'a Spooled, rel: &str) -> &'a str {
    let problem = spooled.problems.iter().find(|p| p.path == rel);
    problem.unwrap_or_else(|| panic!("no problem for {rel}: {:?}", spooled.problems)).reason.as_str()
}

#[test]
fn html_manual_images_are_kept_under_the_edition_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "library/x.html",
        br#"<html><body><h1>X</h1><p>See <img src="../_images/foo.png" alt="the foo"> and
        <img src="pic.png" alt="same bytes"> and <img src="https://example.org/far.png" alt="far">
        and <a href="../files/data.json">the data</a> and <img src="../_images/gone.png" alt="gone">.</p>
        <picture><source srcset="../_images/wide.svg 2x"><img src="../_images/wide.svg" alt="wide"></picture>
        </body></html>"#,
    );
    write(root, "index.html", b"<html><body><h1>Home</h1><p>Hello.</p></body></html>");
    write(root, "_images/foo.png", PNG);
    write(root, "library/pic.png", PNG);
    write(root, "_images/wide.svg", SVG.as_bytes());
    write(root, "files/data.json", br#"{"a": [1, 2]}"#);
    write(root, "_images/unused.png", PNG);
    let spooled = read(root, "/python", AssetLimits::default());
    let paths: Vec<&str> = spooled.assets().iter().map(|a| a.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/python/_images/foo.png",
            "/python/_images/wide.svg",
            "/python/files/data.json",
            "/python/library/pic.png"
        ]
    );
    let foo = &spooled.assets()[0];
    assert_eq!(foo.content_type, "image/png");
    assert_eq!(spooled.asset_bytes(foo).unwrap(), PNG);
    // Two paths, one content.
    assert_eq!(foo.hash, spooled.assets()[3].hash);
    let summary = &spooled.asset_summary;
    assert_eq!((summary.kept, summary.contents, summary.missing, summary.skipped), (4, 3, 1, 0));
    let page = spooled.pages().map(Result::unwrap).find(|p| p.path == "/python/library/x").unwrap();
    assert!(page.markdown.contains("![the foo](/python/_images/foo.png)"), "{}", page.markdown);
    assert!(page.markdown.contains("![same bytes](/python/library/pic.png)"), "{}", page.markdown);
    assert!(!page.markdown.contains("example.org"), "{}", page.markdown);
    assert!(page.text.contains("the foo"), "{}", page.text);
}

#[test]
fn markdown_images_resolve_against_the_page_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "guide/install.md", b"# Install\n\n![shot](img/shot.png)\n\n![logo](../logo.svg)\n");
    write(root, "index.md", b"# Home\n\n<img src=\"logo.svg\" alt=\"logo\">\n");
    write(root, "guide/img/shot.png", PNG);
    write(root, "logo.svg", SVG.as_bytes());
    let spooled = read(root, "/app", AssetLimits::default());
    let paths: Vec<&str> = spooled.assets().iter().map(|a| a.path.as_str()).collect();
    assert_eq!(paths, ["/app/guide/img/shot.png", "/app/logo.svg"]);
    // The body of a Markdown page is kept as written; its rendering shows the served path.
    let page = spooled.pages().map(Result::unwrap).find(|p| p.path == "/app/guide/install").unwrap();
    let html = lectern_corpus::render::markdown_to_html(
        &page.markdown,
        lectern_corpus::render::PageLinks {
            prefix: "/app",
            source_file: &page.source_file,
            ..Default::default()
        },
    );
    assert!(html.contains(r#"<img src="/app/guide/img/shot.png" alt="shot""#), "{html}");
    assert!(html.contains(r#"<img src="/app/logo.svg" alt="logo""#), "{html}");
}

#[test]
fn assets_that_cannot_be_kept_are_skipped_with_their_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "a.md",
        b"# A\n\n![big](big.png) ![fake](fake.png) ![evil](evil.svg) ![one](one.gif) ![two](two.gif) ![missing](no.png)\n",
    );
    write(root, "big.png", &[PNG, &[0u8; 4096][..]].concat());
    write(root, "fake.png", b"<script>alert(1)</script>");
    write(root, "evil.svg", br#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>"#);
    write(root, "one.gif", &[&b"GIF89a"[..], &[1u8; 600][..]].concat());
    write(root, "two.gif", &[&b"GIF89a"[..], &[2u8; 600][..]].concat());
    let spooled = read(root, "/app", AssetLimits { max_asset_bytes: 1024, max_edition_bytes: 1000 });
    let paths: Vec<&str> = spooled.assets().iter().map(|a| a.path.as_str()).collect();
    assert_eq!(paths, ["/app/one.gif"]);
    assert!(reason(&spooled, "big.png").contains("over 1024 bytes"), "{}", reason(&spooled, "big.png"));
    assert!(reason(&spooled, "fake.png").contains("not image/png"), "{}", reason(&spooled, "fake.png"));
    assert!(reason(&spooled, "evil.svg").contains("event handler"), "{}", reason(&spooled, "evil.svg"));
    assert!(reason(&spooled, "two.gif").contains("1000 bytes"), "{}", reason(&spooled, "two.gif"));
    let summary = &spooled.asset_summary;
    assert_eq!((summary.kept, summary.missing, summary.skipped), (1, 1, 4));
    // The pages are all there.
    assert_eq!(spooled.entries().len(), 1);
}

#[test]
fn a_link_leaving_the_tree_is_never_read() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.png"), PNG).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a.md", b"# A\n\n![s](secret.png) ![up](../secret.png)\n");
    std::os::unix::fs::symlink(outside.path().join("secret.png"), root.join("secret.png")).unwrap();
    let spooled = read(root, "/app", AssetLimits::default());
    assert!(spooled.assets().is_empty(), "{:?}", spooled.assets());
    assert_eq!(spooled.asset_summary.kept, 0);
}

#[test]
fn changing_an_asset_changes_the_content_hash() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a.md", b"# A\n\n![s](s.png)\n");
    write(root, "s.png", PNG);
    let before = read(root, "/app", AssetLimits::default()).content_hash;
    write(root, "s.png", &[PNG, b"more"].concat());
    let after = read(root, "/app", AssetLimits::default()).content_hash;
    assert_ne!(before, after);
}
