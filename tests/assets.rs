//! Images and files pages reference, end to end with the real binary: a
//! Markdown folder with images in sibling and parent folders, a missing
//! image, an oversize one and an SVG with script is added; `add` says what
//! it kept and skipped; a real `serve --site` on loopback answers GET and
//! HEAD of each kept asset byte for byte with its type, `nosniff` and (for
//! SVG) a no-script policy, 404 for the others, and its pages show them;
//! the local API serves the same bytes under its key, and a page read as
//! HTML names them through `/v1/asset`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use lectern_api::client::blocking::Client;
use lectern_api::client::query;

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use server::Server;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89";
const SVG: &str =
    r#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>"#;

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// One raw request; (status, lowercase head, body bytes).
fn fetch(authority: &str, method: &str, target: &str, headers: &[(&str, &str)]) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut request = format!("{method} {target} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n");
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP answer");
    let head = String::from_utf8_lossy(&bytes[..split]).to_ascii_lowercase();
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut body = bytes[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        body = dechunk(&body);
    }
    (status, head, body)
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = body.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(std::str::from_utf8(&body[..end]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        out.extend_from_slice(&body[end + 2..end + 2 + size]);
        body = &body[end + 2 + size + 2..];
    }
    out
}

#[test]
fn assets_are_kept_and_served_by_the_site_and_the_local_api() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    write(&src, "index.md", b"# Home\n\n![logo](img/logo.svg)\n\nSee [the guide](guide/install.md).\n");
    write(
        &src,
        "guide/install.md",
        b"# Install\n\n![shot](shots/one.png) ![again](../img/logo.svg) ![gone](missing.png) \
          ![big](big.png) ![evil](evil.svg)\n\n[manual](../files/manual.pdf)\n",
    );
    write(&src, "guide/shots/one.png", PNG);
    write(&src, "img/logo.svg", SVG.as_bytes());
    write(&src, "files/manual.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
    let mut big = PNG.to_vec();
    big.resize(11 * 1024 * 1024, 0);
    write(&src, "guide/big.png", &big);
    write(
        &src,
        "guide/evil.svg",
        br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#,
    );
    let lib = dir.path().join("lib");
    let args = ["add", src.to_str().unwrap(), "--project", "app", "--version", "1"];
    let out = bin::lectern().arg("--user-data").arg(&lib).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("assets: 3 kept (3 distinct, ")
            && stdout.contains("1 missing from the source, 2 skipped"),
        "{stdout}"
    );
    assert!(stderr.contains("skipped guide/big.png: file is over 10485760 bytes"), "{stderr}");
    assert!(
        stderr.contains("skipped guide/evil.svg: an SVG image with active content (<script)"),
        "{stderr}"
    );

    let site = Server::site(&lib);
    let authority = site.authority();
    let (status, head, body) = fetch(&authority, "GET", "/app/guide/shots/one.png", &[]);
    assert_eq!(status, 200, "{head}");
    assert_eq!(body, PNG);
    assert!(head.contains("content-type: image/png"), "{head}");
    assert!(head.contains("x-content-type-options: nosniff"), "{head}");
    assert!(head.contains("etag: \""), "{head}");
    let etag = head.lines().find_map(|l| l.strip_prefix("etag: ")).unwrap().to_owned();
    let (status, _, _) = fetch(&authority, "GET", "/app/guide/shots/one.png", &[("If-None-Match", &etag)]);
    assert_eq!(status, 304);
    let (status, head, body) = fetch(&authority, "HEAD", "/app/img/logo.svg", &[]);
    assert_eq!(status, 200, "{head}");
    assert!(body.is_empty());
    assert!(head.contains("content-type: image/svg+xml"), "{head}");
    assert!(
        head.contains("content-security-policy: default-src 'none'; style-src 'unsafe-inline'; sandbox"),
        "{head}"
    );
    let (status, _, body) = fetch(&authority, "GET", "/app/files/manual.pdf", &[]);
    assert_eq!((status, &body[..5]), (200, &b"%PDF-"[..]));
    for missing in ["/app/guide/missing.png", "/app/guide/big.png", "/app/guide/evil.svg", "/app/nothing.png"]
    {
        assert_eq!(fetch(&authority, "GET", missing, &[]).0, 404, "{missing}");
    }
    let (_, _, page) = fetch(&authority, "GET", "/app/guide/install", &[]);
    let page = String::from_utf8(page).unwrap();
    assert!(page.contains(r#"<img src="/app/guide/shots/one.png" alt="shot""#), "{page}");
    assert!(page.contains(r#"<img src="/app/img/logo.svg" alt="again""#), "{page}");
    drop(site);

    let api = Server::local_api(&lib);
    let client = Client::connect(&lib).expect("discovery + challenge");
    let api_authority = format!("127.0.0.1:{}", client.port());
    let key = format!("Bearer {}", client.discovery().access_key);
    let target = format!("/v1/asset{}", query(&[("path", Some("/app/guide/shots/one.png"))]));
    let (status, head, body) = fetch(&api_authority, "GET", &target, &[("Authorization", &key)]);
    assert_eq!((status, body.as_slice()), (200, PNG), "{head}");
    assert!(head.contains("content-type: image/png") && head.contains("nosniff"), "{head}");
    assert_eq!(fetch(&api_authority, "GET", &target, &[]).0, 401, "the same auth as other reads");
    let missing = format!("/v1/asset{}", query(&[("path", Some("/app/guide/missing.png"))]));
    assert_eq!(fetch(&api_authority, "GET", &missing, &[("Authorization", &key)]).0, 404);
    let read = client
        .get(&format!("/v1/page{}", query(&[("path", Some("/app/guide/install")), ("format", Some("html"))])))
        .unwrap();
    let html = read["content"].as_str().unwrap();
    assert!(html.contains(r#"<img src="/v1/asset?path=%2Fapp%2Fguide%2Fshots%2Fone.png""#), "{html}");
    drop(api);
}
