//! Paths that lead to a page under another path: a redirect page's old
//! address and a file's other name (a man page installed as a link to
//! another, `zcat.1` → `gzip.1`).
//!
//! Contents:
//! - `old_addresses_and_other_names_read_as_their_page`: `lectern add`
//!   counts them; `lectern read` of either reads the page, a redirect's
//!   fragment starting the window at the part it names; the site sends the
//!   HTML and the Markdown address on to the page's, and its `read_page`
//!   tool reads the page under the page's path; a path that leads nowhere
//!   is still no page.
//! - `a_docusaurus_page_is_also_at_its_published_path`: a Markdown page
//!   whose folders and file are numbered for order is also at its path
//!   without the numbers; links written to that path work on the site.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/http.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod http;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use bin::{lectern, ok};
use server::Server;

fn write_tree(dir: &Path) {
    std::fs::write(
        dir.join("gzip.1.html"),
        "<html><head><title>GZIP(1)</title></head><body><h1>GZIP(1)</h1><p>gzip, gunzip, zcat - compress or expand files</p>\
         <h2 id=\"options\">OPTIONS</h2><p>-c Write output on standard output; keep original files unchanged.</p></body></html>",
    )
    .unwrap();
    std::fs::write(
        dir.join("tar.1.html"),
        "<html><head><title>TAR(1)</title></head><body><h1>TAR(1)</h1><p>tar - an archiving utility</p></body></html>",
    )
    .unwrap();
    std::os::unix::fs::symlink("gzip.1.html", dir.join("zcat.1.html")).unwrap();
    std::fs::write(
        dir.join("compress.html"),
        "<html><head><meta http-equiv=\"refresh\" content=\"0; URL=gzip.1.html#options\"></head><body>Redirecting…</body></html>",
    )
    .unwrap();
}

/// The status line and the `location` header of a GET of `path`.
fn head_of(authority: &str, path: &str) -> (u16, Option<String>) {
    let mut stream = TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n").unwrap();
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let head = text.split("\r\n\r\n").next().unwrap_or_default().to_owned();
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let location = head
        .lines()
        .find_map(|l| {
            l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("location")).map(|(_, v)| v.trim())
        })
        .map(str::to_owned);
    (status, location)
}

#[test]
fn old_addresses_and_other_names_read_as_their_page() {
    let src = tempfile::tempdir().unwrap();
    write_tree(src.path());
    let lib = tempfile::tempdir().unwrap();
    let report = ok(
        lib.path(),
        &["add", src.path().to_str().unwrap(), "--project", "man", "--version", "1", "--locale", "en"],
    );
    assert!(report.contains("2 pages"), "{report}");
    assert!(report.contains("2 other paths read as the page they lead to"), "{report}");
    assert!(report.contains("/man/zcat.1 → /man/gzip.1"), "{report}");

    // The other name reads the page, under the page's own path.
    let read = ok(lib.path(), &["read", "/man/zcat.1"]);
    assert!(read.contains("gzip, gunzip, zcat - compress or expand files"), "{read}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(lib.path(), &["read", "--json", "/man/zcat.1"])).unwrap();
    assert_eq!(json["path"], "/man/gzip.1", "{json}");
    // The old address lands where the redirect sent the reader.
    let read = ok(lib.path(), &["read", "/man/compress"]);
    assert!(read.starts_with("OPTIONS") && read.contains("-c Write output"), "{read}");
    assert!(!read.contains("compress or expand"), "{read}");
    // A path that leads nowhere is still no page.
    let out = lectern().arg("--user-data").arg(lib.path()).args(["read", "/man/bzip2.1"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no page at /man/bzip2.1"), "{out:?}");

    let site = Server::site(lib.path());
    let authority = site.authority();
    assert_eq!(head_of(&authority, "/man/zcat.1"), (307, Some("/man/gzip.1".to_owned())));
    assert_eq!(head_of(&authority, "/man/compress"), (307, Some("/man/gzip.1#options".to_owned())));
    assert_eq!(head_of(&authority, "/man/compress.md"), (307, Some("/man/gzip.1.md".to_owned())));
    assert_eq!(head_of(&authority, "/man/gzip.1").0, 200);
    assert_eq!(head_of(&authority, "/man/bzip2.1").0, 404);
    assert_eq!(head_of(&authority, "/man/bzip2.1.md").0, 404);

    // The site's read_page tool reads the page, under the page's own path.
    let call = |path: &str| {
        let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "read_page", "arguments": {"path": path}}})
        .to_string();
        let headers = [
            ("Content-Type", "application/json".to_owned()),
            ("Accept", "application/json, text/event-stream".to_owned()),
            ("MCP-Protocol-Version", "2025-11-25".to_owned()),
        ];
        let (status, answer) =
            http::send(&authority, &http::request("POST", &authority, "/mcp", &headers, body.as_bytes()));
        assert_eq!(status, 200, "{answer}");
        serde_json::from_str::<serde_json::Value>(&answer).unwrap()["result"].clone()
    };
    for old in ["/man/zcat.1", "/man/compress"] {
        let result = call(old);
        assert_eq!(result["structuredContent"]["path"], "/man/gzip.1", "{old}: {result}");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains("compress or expand files"), "{old}: {text}");
    }
    let result = call("/man/bzip2.1");
    assert_eq!(result["isError"], true, "{result}");
    assert!(result["content"][0]["text"].as_str().unwrap().contains("no page at /man/bzip2.1"), "{result}");
}

#[test]
fn a_docusaurus_page_is_also_at_its_published_path() {
    let src = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(src.path().join("04-ui")).unwrap();
    std::fs::write(
        src.path().join("04-ui/01-overview.mdx"),
        "# Overview\n\nSee [the chatbot](/docs/ui/chatbot#usage).\n",
    )
    .unwrap();
    std::fs::write(src.path().join("04-ui/02-chatbot.mdx"), "# Chatbot\n\n## Usage\n\nCall `useChat`.\n")
        .unwrap();
    std::fs::write(src.path().join("01-intro.md"), "# Introduction\n\nStart here.\n").unwrap();
    let lib = tempfile::tempdir().unwrap();
    let report = ok(
        lib.path(),
        &["add", src.path().to_str().unwrap(), "--project", "ai", "--version", "1", "--locale", "en"],
    );
    assert!(report.contains("1 internal, 1 resolve, 0 broken"), "{report}");
    assert!(report.contains("/ai/ui/chatbot → /ai/04-ui/02-chatbot"), "{report}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(lib.path(), &["read", "--json", "/ai/ui/chatbot"])).unwrap();
    assert_eq!(json["path"], "/ai/04-ui/02-chatbot", "{json}");

    let site = Server::site(lib.path());
    let authority = site.authority();
    assert_eq!(head_of(&authority, "/ai/ui/chatbot"), (307, Some("/ai/04-ui/02-chatbot".to_owned())));
    // The link on the rendered page leads there, not to `/docs/…`.
    let (status, page) =
        http::send(&authority, &http::request("GET", &authority, "/ai/04-ui/01-overview", &[], b""));
    assert_eq!(status, 200);
    assert!(page.contains(r#"href="/ai/ui/chatbot#usage""#), "{page}");
}
