//! The site's router through `oneshot` (no socket), over the demo library of
//! `examples/demo`.
//!
//! # Contents
//! - pages: HTML at each path, switchers, hreflang, fallbacks, search page
//! - `.md` is exactly `read_page`, valid YAML frontmatter
//! - `llms.txt`, `sitemap.xml`, `healthz`; one set of published pages
//! - ETag + 304, gzip
//! - guards: bad Host 403, 429 + Retry-After, no `/v1`
//! - `/mcp`: exactly four tools, results and error shape; results match
//!   their `outputSchema`, error text is the JSON; batches only in 2025-03-26;
//!   a malformed `initialize` is told what is wrong
//! - export: every fixed route a static export writes answers, and every
//!   file of an export renders as the router answers it

use std::io::Read;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use lectern_library::{Library, OpenMode};
use lectern_site::{Options, SiteState, app};
use serde_json::{Value, json};
use tower::ServiceExt;

#[path = "../../../tests/common/schema.rs"]
mod schema;

/// One demo library for the whole test binary (built once).
fn library() -> Arc<Library> {
    static LIB: OnceLock<(tempfile::TempDir, Arc<Library>)> = OnceLock::new();
    LIB.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo/lectern.toml");
        let config = lectern_corpus::SiteConfig::load(&demo).unwrap();
        let library = Library::open(dir.path(), OpenMode::ReadWrite).unwrap();
        library.add_site(&config, &mut |_, _| {}, &mut |_| {}).unwrap();
        (dir, Arc::new(library))
    })
    .1
    .clone()
}

fn state(options: Options) -> SiteState {
    SiteState::new(library(), options)
}

fn get(path: &str) -> Request<Body> {
    request(path, "127.0.0.1:8080", "198.51.100.9:5000")
}

fn request(path: &str, host: &str, peer: &str) -> Request<Body> {
    let mut req = Request::builder().uri(path).header(header::HOST, host).body(Body::empty()).unwrap();
    req.extensions_mut().insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
    req
}

async fn send(state: &SiteState, req: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let response = app(state.clone()).oneshot(req).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, headers, body)
}

async fn text(state: &SiteState, path: &str) -> (StatusCode, String) {
    let (status, _, body) = send(state, get(path)).await;
    (status, String::from_utf8(body).unwrap())
}

#[tokio::test]
async fn pages_are_semantic_html_with_switchers_and_hreflang() {
    let s = state(Options::default());
    let (status, html) = text(&s, "/app/guide/install").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.starts_with("<!doctype html>"), "{html}");
    assert!(html.contains("<html lang=\"en\">"));
    assert!(html.contains("<nav class=\"sidebar\" aria-label=\"Pages\">"));
    assert!(html.contains("<nav aria-label=\"Versions\">"));
    assert!(html.contains("href=\"/app/v1/guide/install\""), "version switcher keeps the page");
    assert!(html.contains("href=\"/zh-Hans/app/guide/install\""), "locale switcher keeps the page");
    assert!(
        html.contains("hreflang=\"zh-Hans\" href=\"https://docs.acme.example/zh-Hans/app/guide/install\""),
        "{html}"
    );
    assert!(html.contains("hreflang=\"x-default\""));
    assert!(html.contains("<form role=\"search\" action=\"/search\" method=\"get\">"));
    assert!(html.contains("<article>"));
    assert!(!html.contains("<script"), "readable without JavaScript");

    // A missing translation: the English page stands in, flagged.
    let (status, html) = text(&s, "/zh-Hans/app/reference/limits").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("not translated yet"), "{html}");
    let (status, _) = text(&s, "/app/no-such-page").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Drafts are never published.
    assert_eq!(text(&s, "/app/guide/roadmap").await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_search_box_ranks_results() {
    let s = state(Options::default());
    let (status, html) = text(&s, "/search?q=install&prefix=%2Fapp").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<ol class=\"results\">"), "{html}");
    assert!(html.contains("href=\"/app/guide/install"), "{html}");
    // The same search in the other version and language, in the page's language.
    assert!(html.contains("<html lang=\"en\">"), "{html}");
    assert!(html.contains("<nav aria-label=\"Versions\">"), "{html}");
    assert!(html.contains("href=\"/search?prefix=%2Fapp%2Fv1&amp;q=install\""), "{html}");
    assert!(html.contains("href=\"/search?prefix=%2Fzh-Hans%2Fapp&amp;q=install\""), "{html}");
    let (status, html) = text(&s, "/search?q=%E5%AE%89%E8%A3%85&prefix=%2Fzh-Hans%2Fapp").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<html lang=\"zh-Hans\">"), "{html}");
    assert!(html.contains("<a href=\"/search?prefix=%2Fzh-Hans%2Fapp&amp;q=%E5%AE%89%E8%A3%85\" aria-current=\"true\">zh-Hans</a>"), "{html}");
    let (status, _) = text(&s, "/search?q=").await;
    assert_eq!(status, StatusCode::OK);

    // Nothing in English, found in Chinese: the page says so and links there.
    let (status, html) = text(&s, "/search?q=%E5%AE%89%E8%A3%85&prefix=%2Fapp").await;
    assert_eq!(status, StatusCode::OK);
    assert!(!html.contains("<ol class=\"results\">"), "{html}");
    assert!(html.contains("Nothing found here. The same words are found in:"), "{html}");
    let link = html.split("<ul class=\"elsewhere\">").nth(1).expect("a list of other editions");
    assert!(
        link.starts_with("\n<li><a href=\"/search?prefix=%2Fzh-Hans%2Fapp&amp;q=%E5%AE%89%E8%A3%85\">"),
        "{html}"
    );
    assert!(link.contains("in zh-Hans</a>"), "{html}");
    // Found nowhere: no list.
    let (_, html) = text(&s, "/search?q=zzqqxxnothing&prefix=%2Fapp").await;
    assert!(html.contains("Nothing found. Try other words."), "{html}");
    assert!(!html.contains("class=\"elsewhere\""), "{html}");
}

#[tokio::test]
async fn markdown_is_exactly_read_page_with_valid_yaml() {
    let s = state(Options::default());
    for path in
        ["/app/guide/install", "/zh-Hans/app/guide/install", "/zh-Hans/app/reference/limits", "/app/v1"]
    {
        let (status, headers, body) = send(&s, get(&format!("{path}.md"))).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(headers[header::CONTENT_TYPE], "text/markdown; charset=utf-8");
        let md = String::from_utf8(body).unwrap();
        assert_eq!(md, library().site_page(path).unwrap().markdown, "{path}");
        let fm = md.strip_prefix("---\n").unwrap().split_once("\n---\n").unwrap().0;
        let yaml: serde_yaml::Value = serde_yaml::from_str(fm).unwrap();
        assert_eq!(yaml["path"].as_str(), Some(path));
        for key in ["prefix", "label", "locale", "status"] {
            assert!(yaml[key].is_string(), "{key} in {fm}");
        }
        assert_eq!(yaml["fallback"].as_bool(), path.ends_with("limits").then_some(true), "{fm}");
        assert!(!md.contains("<p>"));
    }
}

#[tokio::test]
async fn llms_txt_sitemap_and_healthz() {
    let s = state(Options::default());
    let (status, llms) = text(&s, "/llms.txt").await;
    assert_eq!(status, StatusCode::OK);
    assert!(llms.starts_with("# Acme App Docs\n\n> Documentation for Acme App"), "{llms}");
    assert!(llms.contains("## App 2 (/app, en)"), "{llms}");
    assert!(llms.contains("- [Installing App](https://docs.acme.example/app/guide/install.md): "), "{llms}");
    assert!(!llms.contains("roadmap"));
    let (status, sitemap) = text(&s, "/sitemap.xml").await;
    assert_eq!(status, StatusCode::OK);
    assert!(sitemap.contains("<loc>https://docs.acme.example/app/guide/install</loc>"), "{sitemap}");
    assert!(sitemap.contains("<loc>https://docs.acme.example/zh-Hans/app/v1</loc>"), "{sitemap}");
    let (status, health) = text(&s, "/healthz").await;
    assert_eq!(status, StatusCode::OK);
    let health: Value = serde_json::from_str(&health).unwrap();
    assert_eq!(health["generation"], json!(library().view().unwrap().generation()));
}

/// A site URL's path, percent-decoded.
fn decoded(url: &str) -> String {
    let path = url.strip_prefix("https://docs.acme.example").unwrap_or_else(|| panic!("{url}"));
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(&path[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// The sitemap and `llms.txt` left out the fallback stand-ins `list_pages`
/// walks (155 pages against 282 on the demo), though the site answers them.
#[tokio::test]
async fn sitemap_llms_txt_and_list_pages_publish_one_set_of_pages() {
    use std::collections::BTreeSet;
    let s = state(Options { rate_limit_per_minute: Some(100_000), ..Options::default() });
    let (_, sitemap) = text(&s, "/sitemap.xml").await;
    let in_sitemap: BTreeSet<String> =
        sitemap.split("<loc>").skip(1).map(|rest| decoded(rest.split("</loc>").next().unwrap())).collect();
    let (_, llms) = text(&s, "/llms.txt").await;
    let in_llms: BTreeSet<String> = llms
        .lines()
        .filter(|l| l.starts_with("- ["))
        .map(|l| {
            let url = l.split("](").nth(1).unwrap().split(')').next().unwrap();
            decoded(url.strip_suffix(".md").unwrap())
        })
        .collect();
    let lib = library();
    let mut prefixes: Vec<Option<String>> =
        lib.list_versions().unwrap().versions.into_iter().map(|v| Some(v.prefix)).collect();
    prefixes.push(None);
    let mut listed = BTreeSet::new();
    let mut fallbacks = BTreeSet::new();
    for prefix in prefixes {
        let mut cursor = None;
        loop {
            let request = lectern_library::ListPagesRequest {
                prefix: prefix.clone(),
                limit: Some(100),
                cursor: cursor.take(),
            };
            let page = lib.list_pages(&request).unwrap();
            for p in page.pages {
                if p.fallback {
                    fallbacks.insert(p.path.clone());
                }
                listed.insert(p.path);
            }
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
    }
    assert!(!fallbacks.is_empty(), "the demo has untranslated pages");
    assert_eq!(in_sitemap, listed, "sitemap == list_pages over every scope");
    assert_eq!(in_llms, listed, "llms.txt == list_pages over every scope");
    // Every published URL answers with a page.
    for path in &listed {
        assert_eq!(text(&s, path).await.0, StatusCode::OK, "{path}");
    }
    // A stand-in says which language it is in, and points to its original.
    let fallback = fallbacks.iter().find(|p| p.starts_with("/zh-Hans/app/")).unwrap();
    let line = llms.lines().find(|l| l.contains(&format!("{fallback}.md)"))).unwrap();
    assert!(line.contains(": (not translated yet; shown in en)"), "{line}");
    let (_, html) = text(&s, fallback).await;
    let original = fallback.strip_prefix("/zh-Hans").unwrap();
    let canonical = format!("<link rel=\"canonical\" href=\"https://docs.acme.example{original}\">");
    assert!(html.contains(&canonical), "{html}");
    let (_, html) = text(&s, original).await;
    assert!(!html.contains("rel=\"canonical\""), "an original page is its own canonical URL");
}

#[tokio::test]
async fn strong_etags_answer_304_and_gzip_compresses() {
    let s = state(Options::default());
    let (status, headers, body) = send(&s, get("/app/guide/install")).await;
    assert_eq!(status, StatusCode::OK);
    let etag = headers[header::ETAG].to_str().unwrap().to_owned();
    assert!(etag.starts_with('"') && !etag.starts_with("W/"), "{etag}");
    let mut req = get("/app/guide/install");
    req.headers_mut().insert(header::IF_NONE_MATCH, etag.parse().unwrap());
    let (status, headers, empty) = send(&s, req).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert_eq!(headers[header::ETAG], etag.as_str());
    assert!(empty.is_empty());

    let mut req = get("/app/guide/install");
    req.headers_mut().insert(header::ACCEPT_ENCODING, "gzip".parse().unwrap());
    let (status, headers, gz) = send(&s, req).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip");
    assert_ne!(headers[header::ETAG], etag.as_str(), "each encoding has its own strong tag");
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut plain).unwrap();
    assert_eq!(plain, body);
}

#[tokio::test]
async fn a_foreign_host_is_refused() {
    let s = state(Options::default());
    for host in ["evil.example", "docs.acme.example.evil.example"] {
        let (status, _, _) = send(&s, request("/app", host, "198.51.100.9:5000")).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}");
    }
    let mut mcp = mcp_request(&json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}));
    mcp.headers_mut().insert(header::HOST, "evil.example".parse().unwrap());
    assert_eq!(send(&s, mcp).await.0, StatusCode::FORBIDDEN);
    for host in ["docs.acme.example", "localhost:8080", "127.0.0.1"] {
        assert_eq!(send(&s, request("/app", host, "198.51.100.9:5000")).await.0, StatusCode::OK, "{host}");
    }
}

#[tokio::test]
async fn rate_limits_answer_429_with_retry_after() {
    let s = state(Options { rate_limit_per_minute: Some(2), ..Options::default() });
    for _ in 0..2 {
        assert_eq!(send(&s, request("/llms.txt", "127.0.0.1", "127.0.0.1:4000")).await.0, StatusCode::OK);
    }
    let (status, headers, _) = send(&s, request("/llms.txt", "127.0.0.1", "127.0.0.1:4000")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    // Another client has its own bucket.
    assert_eq!(send(&s, request("/llms.txt", "127.0.0.1", "127.0.0.2:4000")).await.0, StatusCode::OK);
    // Loopback is not limited by default.
    let open = state(Options::default());
    for _ in 0..5 {
        assert_eq!(send(&open, request("/healthz", "127.0.0.1", "127.0.0.1:4000")).await.0, StatusCode::OK);
    }
}

#[tokio::test]
async fn the_local_api_is_never_exposed() {
    let s = state(Options::default());
    for path in ["/v1", "/v1/status", "/v1/editions", "/v1/openapi.json"] {
        assert_eq!(text(&s, path).await.0, StatusCode::NOT_FOUND, "{path}");
    }
}

fn mcp_request(body: &Value) -> Request<Body> {
    mcp_request_at(body, Some("2025-11-25"))
}

/// A POST to `/mcp` naming `revision` in `MCP-Protocol-Version` (none: as a
/// 2025-03-26 client sends it).
fn mcp_request_at(body: &Value, revision: Option<&str>) -> Request<Body> {
    let mut req = Request::builder()
        .method("POST")
        .uri("/mcp")
        .header(header::HOST, "127.0.0.1:8080")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    if let Some(revision) = revision {
        req = req.header("mcp-protocol-version", revision);
    }
    let mut req = req.body(Body::from(body.to_string())).unwrap();
    req.extensions_mut().insert(ConnectInfo("127.0.0.1:5000".parse::<SocketAddr>().unwrap()));
    req
}

async fn mcp(s: &SiteState, body: Value) -> Value {
    let (status, headers, bytes) = send(s, mcp_request(&body)).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&bytes));
    assert!(headers[header::CONTENT_TYPE].to_str().unwrap().starts_with("application/json"));
    serde_json::from_slice(&bytes).unwrap()
}

#[tokio::test]
async fn mcp_serves_exactly_the_four_tools() {
    let s = state(Options::default());
    let init = mcp(
        &s,
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}),
    )
    .await;
    assert_eq!(init["result"]["serverInfo"]["name"], "Acme App Docs");
    assert!(init["result"]["instructions"].as_str().unwrap().starts_with("Call list_versions first"));

    let list = mcp(&s, json!({"jsonrpc":"2.0","id":2,"method":"tools/list"})).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 4);
    for name in ["list_versions", "list_pages", "search_docs", "read_page"] {
        let tool = tools.iter().find(|t| t["name"] == name).unwrap_or_else(|| panic!("{name} in {names:?}"));
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{name}");
        assert_eq!(tool["outputSchema"]["type"], "object", "{name}");
        assert!(tool["description"].as_str().unwrap().len() > 40, "{name}");
    }
    let search = tools.iter().find(|t| t["name"] == "search_docs").unwrap();
    assert_eq!(search["inputSchema"]["required"], json!(["term"]));
    for p in ["term", "prefix", "limit", "cursor"] {
        assert!(search["inputSchema"]["properties"][p].is_object(), "{p}");
    }

    let call = |name: &str, args: Value| json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":name,"arguments":args}});
    let versions = mcp(&s, call("list_versions", json!({}))).await;
    let prefixes: Vec<&str> = versions["result"]["structuredContent"]["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["prefix"].as_str().unwrap())
        .collect();
    assert_eq!(prefixes, ["/app", "/app/v1", "/app/wiki/howto", "/zh-Hans/app", "/zh-Hans/app/v1"]);

    let page = mcp(&s, call("read_page", json!({"path": "/app/guide/install"}))).await;
    assert_eq!(
        page["result"]["content"][0]["text"],
        json!(library().site_page("/app/guide/install").unwrap().markdown)
    );

    let bad = mcp(&s, call("list_pages", json!({"limit": 500}))).await;
    assert_eq!(bad["result"]["isError"], true);
    assert_eq!(bad["result"]["structuredContent"]["error"]["code"], "invalid_argument");
    let message = bad["result"]["structuredContent"]["error"]["message"].as_str().unwrap();
    assert!(message.contains("allowed 1 to 100"), "{message}");
    assert_eq!(text_json(&bad), bad["result"]["structuredContent"]);

    let unknown_prefix = mcp(&s, call("search_docs", json!({"term": "x", "prefix": "/nope"}))).await;
    assert_eq!(unknown_prefix["result"]["structuredContent"]["error"]["code"], "invalid_argument");

    // A zero in one version names the versions with matches, in the tool text too.
    let zero = mcp(&s, call("search_docs", json!({"term": "索引", "prefix": "/app"}))).await;
    let found = &zero["result"]["structuredContent"];
    assert_eq!(found["pages"], json!([]), "{zero}");
    assert!(found["elsewhere"].as_array().unwrap().iter().any(|e| e["prefix"] == "/zh-Hans/app"), "{zero}");
    let hint = text_json(&zero)["hint"].as_str().unwrap().to_owned();
    assert!(hint.starts_with("0 in /app; ") && hint.contains("search with prefix /zh-Hans/app"), "{hint}");
}

/// Regression (found by tests/robustness.rs): arguments rmcp cannot decode
/// (a missing or mistyped field) came back as a bare `isError` text without
/// the `{"error":{"code","message"}}` every tool error carries.
#[tokio::test]
async fn tool_argument_errors_lack_structured_content() {
    let s = state(Options::default());
    for (args, says) in [(json!({}), "path"), (json!({"path": 5}), "expected a string")] {
        let call = json!({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"read_page","arguments":args}});
        let reply = mcp(&s, call).await;
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        assert_eq!(reply["result"]["structuredContent"]["error"]["code"], "invalid_argument", "{reply}");
        let message = reply["result"]["structuredContent"]["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{message}");
        assert_eq!(text_json(&reply), reply["result"]["structuredContent"]);
    }
}

/// The one text block of a tool result, read as JSON.
fn text_json(reply: &Value) -> Value {
    let text = reply["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text: {reply}"));
    serde_json::from_str(text).unwrap_or_else(|e| panic!("the text is not JSON ({e}): {text}"))
}

fn tool_call(name: &str, args: Value) -> Value {
    json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":name,"arguments":args}})
}

/// Every call the tests below make: each tool succeeding and failing (a
/// library error and an argument rmcp cannot decode).
fn calls() -> Vec<(&'static str, Value, bool)> {
    vec![
        ("list_versions", json!({}), true),
        ("list_pages", json!({"limit": 3}), true),
        ("list_pages", json!({"limit": 500}), false),
        ("list_pages", json!({"limit": "x"}), false),
        ("search_docs", json!({"term": "install", "prefix": "/app"}), true),
        ("search_docs", json!({"term": "x", "prefix": "/nope"}), false),
        ("search_docs", json!({}), false),
        ("read_page", json!({"path": "/app/guide/install"}), true),
        ("read_page", json!({"path": "/app/nope"}), false),
        ("read_page", json!({"path": 5}), false),
    ]
}

/// Regression: an error's `{"error":{…}}` did not match the tool's
/// `outputSchema`, so validating clients (the TypeScript SDK, the Inspector)
/// threw -32602 instead of showing the error.
#[tokio::test]
async fn error_results_validate_against_output_schema() {
    let s = state(Options::default());
    let list = mcp(&s, json!({"jsonrpc":"2.0","id":2,"method":"tools/list"})).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    for tool in tools {
        let schema = &tool["outputSchema"];
        assert_eq!(schema["type"], "object", "{schema}");
        assert_eq!(schema["anyOf"].as_array().map(Vec::len), Some(2), "{schema}");
        assert!(schema["anyOf"][0].get("$defs").is_none() && schema["anyOf"][1].get("$defs").is_none());
    }
    for (name, args, succeeds) in calls() {
        let reply = mcp(&s, tool_call(name, args.clone())).await;
        let result = &reply["result"];
        assert_eq!(result["isError"].as_bool().unwrap_or(false), !succeeds, "{name} {args}: {reply}");
        let schema = &tools.iter().find(|t| t["name"] == name).unwrap()["outputSchema"];
        let content = &result["structuredContent"];
        if let Some(problem) = schema::mismatch(schema, content) {
            panic!("{name} {args}: {problem}\n{content}");
        }
    }
}

/// Regression: an error's text was its message alone, so a client without
/// `structuredContent` (2024-11-05, 2025-03-26) could not see its code.
#[tokio::test]
async fn error_text_is_the_json_of_structured_content() {
    let s = state(Options::default());
    for (name, args, succeeds) in calls() {
        let reply = mcp(&s, tool_call(name, args.clone())).await;
        let content = &reply["result"]["content"];
        assert_eq!(content.as_array().map(Vec::len), Some(1), "{name} {args}: {reply}");
        if succeeds && name == "read_page" {
            // The page is its Markdown, as an agent reads it.
            assert_eq!(content[0]["text"], reply["result"]["structuredContent"]["markdown"]);
        } else {
            assert_eq!(text_json(&reply), reply["result"]["structuredContent"], "{name} {args}");
        }
    }
}

async fn post(s: &SiteState, body: &Value, revision: Option<&str>) -> (StatusCode, String, Vec<u8>) {
    let (status, headers, bytes) = send(s, mcp_request_at(body, revision)).await;
    let kind = headers.get(header::CONTENT_TYPE).map_or("", |v| v.to_str().unwrap()).to_owned();
    (status, kind, bytes)
}

/// Regression: every batch got HTTP 415 with a text/plain body, in 2025-03-26
/// (the one revision with batches) too.
#[tokio::test]
async fn batches_are_answered_only_in_2025_03_26() {
    let s = state(Options::default());
    let batch = json!([
        {"jsonrpc":"2.0","id":"a","method":"tools/list"},
        {"jsonrpc":"2.0","method":"notifications/initialized"},
        {"jsonrpc":"2.0","id":"b","method":"ping"},
        {"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"list_versions","arguments":{}}},
        {"jsonrpc":"2.0","id":"d","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}},
        {"no":"jsonrpc"}
    ]);
    for revision in [None, Some("2025-03-26")] {
        let (status, kind, bytes) = post(&s, &batch, revision).await;
        assert_eq!(status, StatusCode::OK, "{revision:?}: {}", String::from_utf8_lossy(&bytes));
        assert!(kind.starts_with("application/json"), "{kind}");
        let replies: Value = serde_json::from_slice(&bytes).unwrap();
        let replies = replies.as_array().unwrap_or_else(|| panic!("an array: {replies}"));
        let by_id =
            |id: Value| replies.iter().find(|r| r["id"] == id).unwrap_or_else(|| panic!("{id}: {replies:?}"));
        assert_eq!(replies.len(), 5, "{replies:?}");
        assert_eq!(by_id(json!("a"))["result"]["tools"].as_array().unwrap().len(), 4);
        assert_eq!(by_id(json!("b"))["result"], json!({}));
        assert!(by_id(json!("c"))["result"]["structuredContent"]["versions"].is_array());
        assert_eq!(by_id(json!("d"))["error"]["code"], -32600);
        assert_eq!(by_id(Value::Null)["error"]["code"], -32600);
    }
    let only_notifications = json!([{"jsonrpc":"2.0","method":"notifications/initialized"}]);
    let (status, _, bytes) = post(&s, &only_notifications, None).await;
    assert_eq!((status, bytes.len()), (StatusCode::ACCEPTED, 0));
    for revision in ["2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"] {
        let (status, kind, bytes) = post(&s, &batch, Some(revision)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{revision}");
        assert!(kind.starts_with("application/json"), "{revision}: {kind}");
        let reply: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(reply["error"]["code"], -32600, "{reply}");
        assert!(reply["error"]["message"].as_str().unwrap().contains(revision), "{reply}");
    }
}

/// Regression: an `initialize` without its params was answered about a
/// missing request `_meta`.
#[tokio::test]
async fn malformed_initialize_says_what_is_wrong_with_its_params() {
    let s = state(Options::default());
    for (params, names) in [
        (json!({}), vec!["protocolVersion", "capabilities", "clientInfo"]),
        (json!({"protocolVersion": "2025-06-18", "capabilities": {}}), vec!["clientInfo"]),
    ] {
        let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":params});
        let (status, kind, bytes) = post(&s, &init, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(kind.starts_with("application/json"), "{kind}");
        let reply: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(reply["id"], 1, "{reply}");
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(!message.contains("_meta"), "{message}");
        for name in names {
            assert!(message.contains(name), "{name}: {message}");
        }
    }
}

/// What a static export writes is what the router answers: every route of
/// `static_routes` answers 200, and every file renders, none refused.
#[tokio::test]
async fn every_file_of_a_static_export_renders_as_the_router_answers() {
    use lectern_site::export::{self, FileKind, Rendered, Renderer};
    let s = state(Options::default());
    for route in export::static_routes() {
        assert_eq!(send(&s, get(&route)).await.0, StatusCode::OK, "{route}");
    }
    let (files, skipped) = export::export_files(&library().view().unwrap());
    assert!(skipped.is_empty(), "{skipped:?}");
    let renderer = Renderer::new(library()).unwrap();
    let mut pages = 0;
    for file in &files {
        match (renderer.render(file).await, file.kind) {
            (Rendered::Body(bytes), FileKind::NotFound) => {
                assert_eq!(
                    text(&s, &file.url).await,
                    (StatusCode::NOT_FOUND, String::from_utf8(bytes).unwrap())
                );
            }
            (Rendered::Body(bytes), _) => {
                let (status, _, body) = send(&s, get(&file.url)).await;
                assert_eq!((status, body), (StatusCode::OK, bytes), "{}", file.url);
                pages += usize::from(file.kind == FileKind::Page);
            }
            (Rendered::Redirect { location, page }, _) => {
                assert_eq!(file.url, "/", "only the root redirects");
                assert!(String::from_utf8(page).unwrap().contains(&format!("url={location}")));
            }
            (Rendered::Absent, FileKind::Home) => {}
            (other, kind) => panic!("{} ({kind:?}): {other:?}", file.url),
        }
    }
    assert!(pages >= 20, "{pages}");
}
