//! The local API driven through `app()` without a socket
//! (`tower::ServiceExt::oneshot`) over libraries built from the demo site.
//!
//! Contents:
//! - auth: key, wrong key, no key, challenge, login token → cookie
//! - guards: Host, Origin, body size, bad query/JSON, unknown route, time limit
//! - endpoints: status, editions, search (GET/POST, prefix), section, page
//!   (html, Chinese), table of contents, stale generation (409), enable/disable
//! - integrations: every client's config; the demo's warning
//! - the client: a server at the recorded port that redirects is refused
//!   (a real loopback server behind real discovery files)
//! - docs: docs/openapi.json = served document, every route documented;
//!   the challenge example in docs/local-api.md

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use lectern_api::{AppState, Options, app};
use lectern_library::{Library, OpenMode};
use serde_json::{Value, json};
use tower::ServiceExt;

const PORT: u16 = 48_213;
const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn demo_library(dir: &Path) -> Library {
    let library = Library::open(dir, OpenMode::ReadWrite).unwrap();
    let config = lectern_corpus::SiteConfig::load(&repo().join("examples/demo/lectern.toml")).unwrap();
    library.add_site(&config, &mut |_, _| {}, &mut |_| {}).unwrap();
    library
}

/// One shared read-only demo library (building it takes a moment).
fn shared() -> Arc<Library> {
    static LIB: OnceLock<(tempfile::TempDir, Arc<Library>)> = OnceLock::new();
    LIB.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let lib = Arc::new(demo_library(dir.path()));
        (dir, lib)
    })
    .1
    .clone()
}

fn state_with(library: Arc<Library>, f: impl FnOnce(&mut Options)) -> AppState {
    let mut options =
        Options::new(KEY.into(), "/usr/local/bin/lectern".into(), "/home/me/lectern data".into());
    options.pid = 4242;
    f(&mut options);
    AppState::new(library, options, PORT)
}

fn state() -> AppState {
    state_with(shared(), |_| {})
}

struct Call {
    req: axum::http::request::Builder,
    body: Body,
}

fn get(uri: &str) -> Call {
    Call { req: Request::get(uri).header(header::HOST, format!("127.0.0.1:{PORT}")), body: Body::empty() }
}

fn post(uri: &str, body: &Value) -> Call {
    Call {
        req: Request::post(uri)
            .header(header::HOST, format!("127.0.0.1:{PORT}"))
            .header(header::CONTENT_TYPE, "application/json"),
        body: Body::from(serde_json::to_vec(body).unwrap()),
    }
}

impl Call {
    fn key(mut self) -> Call {
        self.req = self.req.header(header::AUTHORIZATION, format!("Bearer {KEY}"));
        self
    }
    fn header(mut self, k: &str, v: &str) -> Call {
        self.req = self.req.header(k, v);
        self
    }
    async fn send(self, state: &AppState) -> (StatusCode, axum::http::HeaderMap, Value) {
        let response = app(state.clone()).oneshot(self.req.body(self.body).unwrap()).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
        (status, headers, value)
    }
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or_else(|| panic!("not an error body: {v}"))
}

#[tokio::test]
async fn auth_needs_the_key_or_a_session() {
    let s = state();
    let (st, _, v) = get("/v1/status").send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::UNAUTHORIZED, "unauthorized"));
    assert!(v["error"]["message"].as_str().unwrap().contains("access-key"), "{v}");
    let (st, _, v) =
        get("/v1/status").header("authorization", &format!("Bearer {}", "f".repeat(64))).send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::UNAUTHORIZED, "unauthorized"));
    let (st, _, v) = get("/v1/status").key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["port"], PORT);
    assert_eq!(v["api_version"], 1);
    assert_eq!(v["editions_enabled"], 5);
}

#[tokio::test]
async fn the_challenge_proves_the_key_pid_and_port() {
    let s = state();
    let nonce = "0123456789abcdef0123456789abcdef";
    let (st, _, v) = post("/auth/challenge", &json!({ "nonce": nonce })).send(&s).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["proof"], lectern_api::challenge::proof(KEY, nonce, 4242, PORT));
    // The worked example of docs/local-api.md uses these very numbers.
    let doc = std::fs::read_to_string(repo().join("docs/local-api.md")).unwrap();
    assert!(doc.contains(v["proof"].as_str().unwrap()), "docs/local-api.md's example proof is stale");
    assert!(doc.contains(&hex::encode(lectern_api::challenge::message(nonce, 4242, PORT))));
    let (st, _, v) = post("/auth/challenge", &json!({ "nonce": "short" })).send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::BAD_REQUEST, "invalid_argument"));
}

#[tokio::test]
async fn login_tokens_work_once_and_set_a_strict_http_only_cookie() {
    let s = state();
    let (st, _, v) = post("/v1/login-token", &json!({})).key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let url = v["url"].as_str().unwrap();
    let path = url.strip_prefix(&format!("http://127.0.0.1:{PORT}")).unwrap();
    assert!(!url.contains(KEY));
    let (st, headers, _) = get(path).send(&s).await;
    assert_eq!(st, StatusCode::SEE_OTHER);
    assert_eq!(headers[header::LOCATION], "/");
    let cookie = headers[header::SET_COOKIE].to_str().unwrap().to_owned();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().unwrap().to_owned();
    assert!(pair.starts_with(&format!("lectern_session_{PORT}=")));
    let (st, _, _) = get("/v1/status").header("cookie", &pair).send(&s).await;
    assert_eq!(st, StatusCode::OK);
    let (st, _, _) = get(path).send(&s).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED, "a login token works once");
    let (st, _, _) =
        get("/v1/status").header("cookie", &format!("lectern_session_{PORT}=nope")).send(&s).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn foreign_hosts_and_origins_are_forbidden() {
    let s = state();
    let mut c = get("/v1/status").key();
    c.req = Request::get("/v1/status")
        .header(header::HOST, "evil.example:80")
        .header("authorization", format!("Bearer {KEY}"));
    let (st, _, v) = c.send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    let mut c = get("/");
    c.req = Request::get("/").header(header::HOST, format!("127.0.0.1:{}", PORT + 1));
    assert_eq!(c.send(&s).await.0, StatusCode::FORBIDDEN);
    let (st, _, v) = get("/v1/status").key().header("origin", "http://evil.example").send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    let (st, _, _) =
        get("/v1/status").key().header("origin", &format!("http://127.0.0.1:{PORT}")).send(&s).await;
    assert_eq!(st, StatusCode::OK);
    let mut c = get("/v1/status").key();
    c.req = Request::get("/v1/status")
        .header(header::HOST, format!("localhost:{PORT}"))
        .header("authorization", format!("Bearer {KEY}"));
    assert_eq!(c.send(&s).await.0, StatusCode::OK);
}

#[tokio::test]
async fn bad_input_gets_json_errors() {
    let s = state();
    let big = json!({ "text": "x".repeat(70 * 1024) });
    let (st, _, v) = post("/v1/search", &big).key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::PAYLOAD_TOO_LARGE, "too_large"));
    let mut c = post("/v1/search", &json!({})).key();
    c.body = Body::from("{not json");
    let (st, _, v) = c.send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::BAD_REQUEST, "invalid_argument"));
    let (st, _, v) = get("/v1/search?text=install&limit=abc").key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::BAD_REQUEST, "invalid_argument"));
    assert!(v["error"]["message"].as_str().unwrap().contains("limit"), "{v}");
    let (st, _, v) = get("/v1/search?text=install&limit=99").key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::BAD_REQUEST, "invalid_argument"));
    let (st, _, v) = get("/v1/nothing").key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
    let (st, _, v) = get("/v1/editions/enable").key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::METHOD_NOT_ALLOWED, "invalid_argument"));
    let (st, _, v) = get("/v1/page?path=/no/such/page").key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
}

#[tokio::test]
async fn search_reads_and_stale_generations() {
    let s = state();
    let (st, _, v) = get("/v1/search?text=instal&prefix=true&limit=3").key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert!(v["total"].as_u64().unwrap() > 0, "{v}");
    let hit = &v["hits"][0];
    let generation = v["generation"].as_str().unwrap().to_owned();
    let (st, _, p) = post("/v1/search", &json!({"text": "安装", "locale": "zh-Hans"})).key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{p}");
    assert_eq!(p["hits"][0]["locale"], "zh-Hans");
    let key = hit["section_key"].as_str().unwrap();
    let (st, _, sec) =
        get(&format!("/v1/section?section_key={key}&generation={generation}")).key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{sec}");
    assert_eq!(sec["section_key"], key);
    let (st, _, v) = get(&format!("/v1/section?section_key={key}&generation=gstale")).key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::CONFLICT, "generation_changed"));
    assert_eq!(v["error"]["generation"], generation.as_str());
    let (st, _, page) = get("/v1/page?path=/zh-Hans/app/guide/install&format=html").key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{page}");
    assert_eq!(page["format"], "html");
    assert!(page["content"].as_str().unwrap().contains(r#"<h1 id="安装-app">安装 App</h1>"#), "{page}");
    let (st, _, rel) = get("/v1/page?edition=app@2/en&path=guide/install").key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{rel}");
    assert_eq!(rel["path"], "/app/guide/install");
    let (st, _, list) = get("/v1/editions?all=true").key().send(&s).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(list["editions"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn the_table_of_contents_is_a_tree_with_the_first_page() {
    let s = state();
    let (st, _, t) = get("/v1/toc?edition=app@2/en").key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{t}");
    assert_eq!(
        (&t["first_page"], &t["prefix"], &t["label"]),
        (&json!("/app"), &json!("/app"), &json!("App 2"))
    );
    let entries = t["entries"].as_array().unwrap();
    assert_eq!(entries[0]["path"], "/app", "the home page comes first: {t}");
    let guide =
        entries.iter().find(|e| e["path"] == "/app/guide").expect("the guide folder has its index page");
    let children: Vec<&str> =
        guide["children"].as_array().unwrap().iter().map(|c| c["path"].as_str().unwrap()).collect();
    assert!(children.contains(&"/app/guide/install"), "{children:?}");
    assert!(
        !children.iter().any(|p| p.starts_with("/app/v1")),
        "a nested version is not this edition's: {children:?}"
    );
    let (st, _, v) = get("/v1/toc?edition=app@9/en").key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
    assert!(v["error"]["message"].as_str().unwrap().contains("installed: app@1/en"), "{v}");
    let (st, _, v) = get("/v1/toc").key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::BAD_REQUEST, "invalid_argument"));
    let (st, _, v) = get("/v1/toc?edition=app@2/en").send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::UNAUTHORIZED, "unauthorized"));
}

#[tokio::test]
async fn enabling_and_disabling_make_new_generations() {
    let dir = tempfile::tempdir().unwrap();
    let s = state_with(Arc::new(demo_library(dir.path())), |_| {});
    let (_, _, before) = get("/v1/status").key().send(&s).await;
    let edition = json!({"edition": "app@1/zh-Hans"});
    let (st, _, v) = post("/v1/editions/disable", &edition).key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["state"], "disabled");
    assert_ne!(v["generation"], before["generation"]);
    let (_, _, list) = get("/v1/editions").key().send(&s).await;
    assert_eq!(list["editions"].as_array().unwrap().len(), 4);
    let (_, _, v) = get("/v1/page?path=/zh-Hans/app/v1/guide/install").key().send(&s).await;
    assert_eq!(code(&v), "not_found");
    let (st, _, v) = post("/v1/editions/enable", &edition).key().send(&s).await;
    assert_eq!((st, &v["state"]), (StatusCode::OK, &json!("enabled")));
    let (st, _, v) = post("/v1/editions/enable", &json!({"edition": "app@9/en"})).key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
}

#[tokio::test]
async fn a_repeated_search_is_answered_from_the_result_cache() {
    // A library of its own: the counters are per generation.
    let dir = tempfile::tempdir().unwrap();
    let library = Arc::new(demo_library(dir.path()));
    let s = state_with(library.clone(), |_| {});
    let params: lectern_library::SearchParams =
        serde_json::from_value(json!({"text": "install", "limit": 2})).unwrap();
    assert_eq!(library.search_if_cached(&params).unwrap(), None);
    let counts = |v: &Value| (v["result_cache"]["hits"].clone(), v["result_cache"]["misses"].clone());
    let (_, _, status) = get("/v1/status").key().send(&s).await;
    assert_eq!(status["result_cache"]["enabled"], true, "{status}");
    assert_eq!(counts(&status), (json!(0), json!(0)));
    let (st, _, first) = get("/v1/search?text=install&limit=2").key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{first}");
    // Answered without searching (the handler asks this first).
    let cached = library.search_if_cached(&params).unwrap().expect("kept by the first search");
    // Through JSON text, as the handler sends it (scores are f32).
    let cached: Value = serde_json::from_slice(&serde_json::to_vec(&cached).unwrap()).unwrap();
    assert_eq!(cached, first);
    let (_, _, again) = get("/v1/search?text=install&limit=2").key().send(&s).await;
    assert_eq!(again, first);
    let (_, _, status) = get("/v1/status").key().send(&s).await;
    assert_eq!(counts(&status), (json!(2), json!(1)), "{status}");
    // Bad input is refused the same way on the cached path.
    let (st, _, v) = get("/v1/search?text=install&limit=0").key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::BAD_REQUEST, "invalid_argument"));
    let (st, _, v) = get("/v1/search?text=install&limit=2&generation=g0").key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::CONFLICT, "generation_changed"), "{v}");
}

#[tokio::test]
async fn a_request_over_its_time_limit_gets_a_timeout_body() {
    let s = state_with(shared(), |o| o.limits.request_timeout = Duration::ZERO);
    let (st, _, v) = get("/v1/search?text=install").key().send(&s).await;
    assert_eq!((st, code(&v)), (StatusCode::GATEWAY_TIMEOUT, "timeout"));
}

#[tokio::test]
async fn a_search_past_its_deadline_comes_back_partial() {
    let s = state_with(shared(), |o| o.limits.search_deadline = Duration::ZERO);
    let (st, _, v) = get("/v1/search?text=install%20index%20format").key().send(&s).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["timed_out"], true, "{v}");
}

#[tokio::test]
async fn the_page_and_integrations_are_served() {
    let s = state();
    let (st, headers, body) = get("/").send(&s).await;
    assert_eq!(st, StatusCode::OK);
    assert!(headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap().contains("default-src 'none'"));
    assert!(body.as_str().unwrap().contains("/app.js"));
    // The page's own addresses (a page, a search) load the same page.
    let (st, _, linked) = get("/?page=%2Fapp%2Fguide%2Finstall&q=x").send(&s).await;
    assert_eq!((st, &linked), (StatusCode::OK, &body));
    let (st, headers, _) = get("/favicon.svg").send(&s).await;
    assert_eq!((st, headers[header::CONTENT_TYPE].to_str().unwrap()), (StatusCode::OK, "image/svg+xml"));
    let (st, _, v) = get("/v1/integrations").key().send(&s).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        v["generic"],
        json!({"mcpServers": {"lectern": {"command": "/usr/local/bin/lectern", "args": ["mcp", "--user-data", "/home/me/lectern data"]}}})
    );
    assert_eq!(v["vscode"]["servers"]["lectern"]["type"], "stdio");
    assert_eq!(v["command"], "/usr/local/bin/lectern mcp --user-data '/home/me/lectern data'");
    let ids: Vec<&str> = v["clients"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        ["generic", "claude-desktop", "claude-code", "cursor", "vscode", "windsurf", "zed", "codex"]
    );
    for c in v["clients"].as_array().unwrap() {
        let first = &c["snippets"][0];
        assert!(first["text"].as_str().unwrap().contains("/usr/local/bin/lectern"), "{c}");
        assert!(!first["target"].as_str().unwrap().is_empty(), "{c}");
    }
    assert_eq!(v["notice"], Value::Null, "only the demo warns");
    assert!(!v.to_string().contains(KEY));
}

#[tokio::test]
async fn the_demo_integrations_tab_says_its_library_is_deleted_when_the_demo_stops() {
    let (_, _, page) = get("/").send(&state()).await;
    assert!(page.as_str().unwrap().contains(r#"id="demo-notice""#));
    let demo = state_with(shared(), |o| o.demo = true);
    let (st, _, v) = get("/v1/integrations").key().send(&demo).await;
    assert_eq!(st, StatusCode::OK);
    let notice = v["notice"].as_str().unwrap();
    for words in ["temporary folder", "deleted", "`lectern add`", "`lectern serve`"] {
        assert!(notice.contains(words), "{words:?} not in {notice}");
    }
}

/// Whatever holds the port recorded in real discovery files (published with
/// this process's pid and a fresh key): it answers the challenge with the
/// right proof when `proves`, and every other request with a 302.
/// Returns the files (dropping them withdraws them) and the requests seen.
async fn redirecting_server(
    user_data: &Path,
    proves: bool,
) -> (lectern_api::discovery::ServerFiles, String, Arc<std::sync::Mutex<Vec<String>>>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut files = lectern_api::discovery::ServerFiles::claim(user_data).unwrap();
    let key = files.publish(port).unwrap();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (server_key, server_seen) = (key.clone(), seen.clone());
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else { return };
            let (key, seen) = (server_key.clone(), server_seen.clone());
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                loop {
                    // One request: its head, then Content-Length bytes of body.
                    let request = loop {
                        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            let head = String::from_utf8_lossy(&buf[..end]).to_string();
                            let length = head
                                .lines()
                                .find_map(|l| {
                                    l.to_ascii_lowercase()
                                        .strip_prefix("content-length:")
                                        .map(|v| v.trim().parse::<usize>().unwrap())
                                })
                                .unwrap_or(0);
                            if buf.len() >= end + 4 + length {
                                let body =
                                    String::from_utf8_lossy(&buf[end + 4..end + 4 + length]).to_string();
                                buf.drain(..end + 4 + length);
                                break (head, body);
                            }
                        }
                        match stream.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    };
                    let (head, body) = request;
                    seen.lock().unwrap().push(head.clone());
                    let answer = if proves && head.starts_with("POST /auth/challenge") {
                        let nonce = serde_json::from_str::<Value>(&body).unwrap()["nonce"]
                            .as_str()
                            .unwrap()
                            .to_owned();
                        let proof = lectern_api::challenge::proof(&key, &nonce, std::process::id(), port);
                        let body =
                            json!({"proof": proof, "pid": std::process::id(), "port": port}).to_string();
                        format!(
                            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                            body.len()
                        )
                    } else {
                        format!(
                            "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{port}/login\r\nContent-Length: 0\r\n\r\n"
                        )
                    };
                    if stream.write_all(answer.as_bytes()).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    (files, key, seen)
}

#[tokio::test]
async fn a_302_from_the_local_api_is_local_api_unavailable_not_internal() {
    use lectern_api::client::{Client, ClientError, Request};
    // After a proven challenge (the case that used to surface as `internal`)
    // and on the challenge itself (the key is then never sent).
    for proves in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let (_files, key, seen) = redirecting_server(dir.path(), proves).await;
        let client = Client::discover(dir.path()).unwrap();
        let err = client.call(&Request::get("/v1/status")).await.unwrap_err();
        let port = client.port();
        assert!(
            matches!(&err, ClientError::Redirected { port: p, status: 302, location: Some(l) } if *p == port && l.ends_with("/login")),
            "proves={proves}: {err:?}"
        );
        let message = err.to_string();
        assert!(message.contains("redirected (HTTP 302 to http://127.0.0.1:"), "{message}");
        assert!(message.contains("recorded in status.json"), "{message}");
        assert!(message.contains("not a Lectern local API"), "{message}");
        let sent_key = seen.lock().unwrap().iter().any(|r| r.contains(&key));
        assert_eq!(sent_key, proves, "the key goes only to a server that proved it holds it");
    }
}

#[tokio::test]
async fn openapi_is_served_kept_in_docs_and_complete() {
    let s = state();
    let response =
        app(s.clone()).oneshot(get("/v1/openapi.json").key().req.body(Body::empty()).unwrap()).await.unwrap();
    let served =
        String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let path = repo().join("docs/openapi.json");
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &served).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == served,
        "docs/openapi.json differs from the served document; run `UPDATE_OPENAPI=1 cargo test -p lectern-api openapi`"
    );
    let doc: Value = serde_json::from_str(&served).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    for (method, route) in lectern_api::openapi::ROUTES {
        assert!(doc["paths"][route][method].is_object(), "{method} {route} is not documented");
    }
    for (_, schema) in doc["components"]["schemas"].as_object().unwrap() {
        assert!(!schema.to_string().contains("#/$defs"), "{schema}");
    }
}
