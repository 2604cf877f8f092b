//! `lectern mcp` as an editor launches it: raw JSON-RPC lines on stdin and
//! stdout against a real `lectern serve`, or against a stand-in local API on
//! loopback where a test needs a slow or lying server.
//!
//! Contents:
//! - handshakes: 2026-07-28 (`server/discover`, `_meta`, -32022), 2025-06-18,
//!   2025-03-26 batches (and no other revision's), 2024-11-05 `ping`; exactly
//!   three tools with schemas; a malformed `initialize` is told what is wrong
//! - results: every success and error matches its tool's `outputSchema`; an
//!   error's text is the JSON of its `structuredContent`
//! - framing: 262,144-byte lines pass, one more is refused, garbage is -32700,
//!   a notification first is harmless, EOF exits within a second
//! - flow: the 9th concurrent document request waits; cancellation closes the
//!   local API call
//! - security: a server failing the challenge never gets the key; unsafe
//!   discovery files and a dead pid give `local_api_unavailable`
//! - reading: search → load to the end; `generation_changed`; a restarted
//!   server on another port is found without restarting the client
//! - `lectern mcp config`

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/mcp.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod mcp;
#[path = "common/schema.rs"]
mod schema;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use bin::{demo_library, lectern};
use mcp::Mcp;
use server::Server;

const MODERN: &str = "2026-07-28";

fn modern_meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}})
}

fn modern_call(id: u64, name: &str, args: Value) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":name,"arguments":args,"_meta":modern_meta()}})
}

#[test]
fn legacy_handshake_lists_exactly_three_tools_with_schemas() {
    let lib = tempfile::tempdir().unwrap();
    let mut m = Mcp::initialized(lib.path(), "2025-06-18");
    let list = m.call(&json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    for name in ["list_installed_docsets", "search_documentation", "load_documentation_page"] {
        let t = tools.iter().find(|t| t["name"] == name).unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(t["inputSchema"]["type"], "object");
        assert_eq!(t["outputSchema"]["type"], "object", "{name}");
        assert_eq!(t["annotations"]["readOnlyHint"], true);
    }
    let search = tools.iter().find(|t| t["name"] == "search_documentation").unwrap();
    assert_eq!(search["inputSchema"]["required"], json!(["text"]));
    let props = search["inputSchema"]["properties"].as_object().unwrap();
    let mut keys: Vec<&str> = props.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        ["branch", "collection", "domain", "generation", "limit", "locale", "offset", "project", "text"]
    );
    let load = tools.iter().find(|t| t["name"] == "load_documentation_page").unwrap();
    let mut required: Vec<&str> =
        load["inputSchema"]["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    required.sort();
    assert_eq!(required, ["generation", "section_key"]);
    assert!(m.close_and_wait() < Duration::from_secs(1));
}

#[test]
fn modern_requests_discover_and_unknown_versions_get_32022() {
    let lib = tempfile::tempdir().unwrap();
    let mut m = Mcp::start(lib.path());
    let d =
        m.call(&json!({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":modern_meta()}}));
    let supported = d["result"]["supportedVersions"].as_array().unwrap();
    assert!(supported.contains(&json!(MODERN)), "{d}");
    assert!(d["result"]["instructions"].as_str().unwrap().contains("generation_changed"));
    let list =
        m.call(&json!({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":modern_meta()}}));
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 3, "{list}");
    assert_eq!(list["result"]["resultType"], "complete");
    let bad = m.call(&json!({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{
        "io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}));
    assert_eq!(bad["error"]["code"], -32022, "{bad}");
    // Without a running server every tool says what to do.
    let r = m.call(&modern_call(4, "list_installed_docsets", json!({})));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert_eq!(r["result"]["structuredContent"]["error"]["code"], "local_api_unavailable");
    assert!(r["result"]["content"][0]["text"].as_str().unwrap().contains("lectern serve"), "{r}");
}

#[test]
fn old_revisions_ping_and_batches() {
    let lib = tempfile::tempdir().unwrap();
    let mut m = Mcp::initialized(lib.path(), "2024-11-05");
    assert_eq!(m.call(&json!({"jsonrpc":"2.0","id":9,"method":"ping"}))["result"], json!({}));
    drop(m);
    let mut m = Mcp::initialized(lib.path(), "2025-03-26");
    m.send(&json!([
        {"jsonrpc":"2.0","id":"a","method":"tools/list"},
        {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},
        {"jsonrpc":"2.0","id":"b","method":"ping"},
        {"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"list_installed_docsets","arguments":{}}},
        {"no":"jsonrpc"}
    ]));
    let reply = m.recv();
    let items = reply.as_array().unwrap_or_else(|| panic!("a batch gets an array: {reply}"));
    assert_eq!(items.len(), 4, "{reply}");
    let ids: std::collections::BTreeSet<String> = items.iter().map(|i| i["id"].to_string()).collect();
    assert!(
        ids.contains("\"a\"") && ids.contains("\"b\"") && ids.contains("\"c\"") && ids.contains("null"),
        "{ids:?}"
    );
}

/// A batch to send where batches are refused.
fn a_batch() -> Value {
    json!([{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":"b","method":"tools/list"}])
}

/// Regression: batches were answered in every revision, though only
/// 2025-03-26 has them, and an `initialize` inside one was served.
#[test]
fn batches_only_in_a_session_that_negotiated_2025_03_26() {
    let lib = tempfile::tempdir().unwrap();
    let refused = |m: &mut Mcp, says: &str| {
        m.send(&a_batch());
        let reply = m.recv();
        assert!(reply.is_object(), "one error, not an array: {reply}");
        assert_eq!(reply["error"]["code"], -32600, "{reply}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains(says) && message.contains("batch"), "{message}");
    };
    // Before any initialize, and in 2026-07-28 stateless use.
    let mut m = Mcp::start(lib.path());
    refused(&mut m, "2025-03-26");
    let d =
        m.call(&json!({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":modern_meta()}}));
    assert!(d["result"].is_object(), "{d}");
    refused(&mut m, "2025-03-26");
    for revision in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let mut m = Mcp::initialized(lib.path(), revision);
        refused(&mut m, revision);
        // Serving goes on.
        assert_eq!(m.call(&json!({"jsonrpc":"2.0","id":2,"method":"ping"}))["result"], json!({}));
    }
    let mut m = Mcp::initialized(lib.path(), "2025-03-26");
    m.send(&json!([
        {"jsonrpc":"2.0","id":"p","method":"ping"},
        {"jsonrpc":"2.0","id":"i","method":"initialize","params":{
            "protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
    ]));
    let reply = m.recv();
    let items = reply.as_array().unwrap_or_else(|| panic!("an array: {reply}"));
    assert_eq!(items.len(), 2, "{reply}");
    let init = items.iter().find(|i| i["id"] == "i").unwrap();
    assert_eq!(init["error"]["code"], -32600, "{reply}");
    assert!(init["error"]["message"].as_str().unwrap().contains("initialize"), "{reply}");
    assert_eq!(items.iter().find(|i| i["id"] == "p").unwrap()["result"], json!({}));
}

/// Regression: an `initialize` without its params was answered about a
/// missing request `_meta`.
#[test]
fn malformed_initialize_says_what_is_wrong_with_its_params() {
    let lib = tempfile::tempdir().unwrap();
    let mut m = Mcp::start(lib.path());
    for (id, params, names) in [
        (1, json!({}), vec!["protocolVersion", "capabilities", "clientInfo"]),
        (
            2,
            json!({"protocolVersion": "2025-06-18", "clientInfo": {"name": "t", "version": "1"}}),
            vec!["capabilities"],
        ),
    ] {
        let reply = m.call(&json!({"jsonrpc":"2.0","id":id,"method":"initialize","params":params}));
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(!message.contains("_meta"), "{message}");
        for name in names {
            assert!(message.contains(name), "{name}: {message}");
        }
    }
    let missing = m.call(&json!({"jsonrpc":"2.0","id":3,"method":"initialize"}));
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
    // The session can still begin.
    let init = m.call(&json!({"jsonrpc":"2.0","id":4,"method":"initialize","params":{
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name":"t","version":"1"}}}));
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
}

#[test]
fn framing_limits_garbage_and_early_notifications() {
    let lib = tempfile::tempdir().unwrap();
    let mut m = Mcp::start(lib.path());
    // A notification before any request is harmless.
    m.send(&json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    m.raw(b"this is not json\n");
    let e = m.recv();
    assert_eq!(e["error"]["code"], -32700, "{e}");
    // Exactly 262,144 bytes (newline not counted) is served.
    let req = serde_json::to_string(
        &json!({"jsonrpc":"2.0","id":5,"method":"server/discover","params":{"_meta":modern_meta()}}),
    )
    .unwrap();
    let mut line = req.clone().into_bytes();
    line.resize(262_144, b' ');
    line.push(b'\n');
    m.raw(&line);
    let ok = m.recv();
    assert_eq!(ok["id"], 5, "{ok}");
    assert!(ok.get("result").is_some(), "{ok}");
    // One byte more is refused with an error naming the request, and serving goes on.
    let req6 = req.replace("\"id\":5", "\"id\":6");
    let mut line = req6.into_bytes();
    line.resize(262_145, b' ');
    line.push(b'\n');
    m.raw(&line);
    let too_long = m.recv();
    assert_eq!(too_long["id"], 6, "{too_long}");
    assert!(too_long["error"]["message"].as_str().unwrap().contains("262144"), "{too_long}");
    let again =
        m.call(&json!({"jsonrpc":"2.0","id":7,"method":"server/discover","params":{"_meta":modern_meta()}}));
    assert!(again.get("result").is_some());
    assert!(m.close_and_wait() < Duration::from_secs(1), "EOF exits promptly");
}

/// A stand-in local API on loopback: answers the challenge correctly (or
/// not), delays `/v1/search`, and records what it saw.
struct FakeApi {
    port: u16,
    concurrent: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
    closed_early: Arc<AtomicUsize>,
    seen: Arc<Mutex<Vec<String>>>,
}

const KEY: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

impl FakeApi {
    fn start(dir: &Path, honest: bool, delay: Duration) -> FakeApi {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let api = FakeApi {
            port,
            concurrent: Arc::default(),
            peak: Arc::default(),
            closed_early: Arc::default(),
            seen: Arc::default(),
        };
        write_discovery(dir, std::process::id(), port, KEY);
        let (concurrent, peak, closed_early, seen) =
            (api.concurrent.clone(), api.peak.clone(), api.closed_early.clone(), api.seen.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let (concurrent, peak, closed_early, seen) =
                    (concurrent.clone(), peak.clone(), closed_early.clone(), seen.clone());
                std::thread::spawn(move || {
                    loop {
                        // Keep-alive: the bridge asks the challenge and the real
                        // request on one connection.
                        let request = read_request(&mut stream);
                        if request.is_empty() {
                            return;
                        }
                        seen.lock().unwrap().push(request.clone());
                        let body = request.split("\r\n\r\n").nth(1).unwrap_or("").to_owned();
                        let answer = if request.starts_with("POST /auth/challenge") {
                            let nonce = serde_json::from_str::<Value>(&body).unwrap()["nonce"]
                                .as_str()
                                .unwrap()
                                .to_owned();
                            let proof = if honest {
                                lectern_api::challenge::proof(KEY, &nonce, std::process::id(), port)
                            } else {
                                "00".repeat(32)
                            };
                            json!({"proof": proof})
                        } else {
                            let now = concurrent.fetch_add(1, Ordering::SeqCst) + 1;
                            peak.fetch_max(now, Ordering::SeqCst);
                            let start = Instant::now();
                            stream.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
                            let mut probe = [0u8; 1];
                            while start.elapsed() < delay {
                                if let Ok(0) = stream.read(&mut probe) {
                                    closed_early.fetch_add(1, Ordering::SeqCst);
                                    break;
                                }
                            }
                            stream.set_read_timeout(None).unwrap();
                            concurrent.fetch_sub(1, Ordering::SeqCst);
                            json!({"generation":"g1","total":0,"has_more":false,"next_offset":null,"timed_out":false,
                            "cancelled":false,"candidate_truncated":false,
                            "scope":{"project":"p","version":"1","locale":"en","editions":[]},"hits":[]})
                        };
                        let body = answer.to_string();
                        let sent = write!(
                            stream,
                            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                            body.len()
                        );
                        if sent.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        api
    }

    fn saw_key(&self) -> bool {
        self.seen.lock().unwrap().iter().any(|r| r.contains(KEY))
    }
}

fn read_request(stream: &mut std::net::TcpStream) -> String {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).unwrap_or(0);
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf).to_string();
        if let Some(head_end) = text.find("\r\n\r\n") {
            let len = text[..head_end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap())
                })
                .unwrap_or(0);
            if buf.len() >= head_end + 4 + len {
                return text;
            }
        }
    }
    String::from_utf8_lossy(&buf).to_string()
}

fn write_discovery(dir: &Path, pid: u32, port: u16, key: &str) {
    use std::os::unix::fs::PermissionsExt;
    let api = dir.join("api");
    std::fs::create_dir_all(&api).unwrap();
    std::fs::set_permissions(&api, std::fs::Permissions::from_mode(0o700)).unwrap();
    let status = json!({"pid": pid, "address": "127.0.0.1", "port": port, "started_at": "2026-11-30T00:00:00Z",
        "lectern_version": "test", "api_version": 1});
    for (name, content) in [("status.json", status.to_string()), ("access-key", key.to_owned())] {
        let path = api.join(name);
        let _ = std::fs::remove_file(&path);
        std::fs::write(&path, content).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
}

#[test]
fn the_ninth_concurrent_document_request_waits_for_a_slot() {
    let lib = tempfile::tempdir().unwrap();
    let api = FakeApi::start(lib.path(), true, Duration::from_millis(400));
    let mut m = Mcp::start(lib.path());
    for id in 1..=12 {
        m.send(&modern_call(id, "search_documentation", json!({"text": "x"})));
    }
    let mut answered = Vec::new();
    while answered.len() < 12 {
        let r = m.recv();
        assert!(r["result"]["isError"] != true, "{r}");
        answered.push(r["id"].as_u64().unwrap());
    }
    assert_eq!(api.peak.load(Ordering::SeqCst), 8, "at most 8 in flight, and the cap was reached");
}

#[test]
fn cancellation_closes_the_local_api_call() {
    let lib = tempfile::tempdir().unwrap();
    let api = FakeApi::start(lib.path(), true, Duration::from_secs(5));
    let mut m = Mcp::initialized(lib.path(), "2025-11-25");
    m.send(&json!({"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"search_documentation","arguments":{"text":"slow"}}}));
    let start = Instant::now();
    while api.concurrent.load(Ordering::SeqCst) == 0 {
        assert!(start.elapsed() < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(5));
    }
    m.send(&json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":41,"reason":"user"}}));
    while api.closed_early.load(Ordering::SeqCst) == 0 {
        assert!(start.elapsed() < Duration::from_secs(3), "the API call was not closed");
        std::thread::sleep(Duration::from_millis(5));
    }
    // Still serving; the cancelled request got no reply.
    let pong = m.call(&json!({"jsonrpc":"2.0","id":42,"method":"ping"}));
    assert_eq!(pong["id"], 42);
    assert!(m.nothing_pending());
    // EOF with a request in flight still exits promptly.
    m.send(&json!({"jsonrpc":"2.0","id":43,"method":"tools/call","params":{"name":"search_documentation","arguments":{"text":"slow"}}}));
    std::thread::sleep(Duration::from_millis(100));
    assert!(m.close_and_wait() < Duration::from_secs(1));
}

#[test]
fn a_server_failing_the_challenge_never_receives_the_key() {
    let lib = tempfile::tempdir().unwrap();
    let api = FakeApi::start(lib.path(), false, Duration::ZERO);
    let mut m = Mcp::start(lib.path());
    let r = m.call(&modern_call(1, "search_documentation", json!({"text": "x"})));
    assert_eq!(r["result"]["structuredContent"]["error"]["code"], "local_api_unavailable", "{r}");
    assert!(
        r["result"]["structuredContent"]["error"]["message"].as_str().unwrap().contains("identity check")
    );
    assert!(!api.saw_key(), "the key was sent to an impostor");
    assert!(!api.seen.lock().unwrap().is_empty(), "the challenge was asked");
}

#[test]
fn unsafe_discovery_files_and_dead_pids_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let lib = tempfile::tempdir().unwrap();
    let api = FakeApi::start(lib.path(), true, Duration::ZERO);
    let key = lib.path().join("api/access-key");
    let status = lib.path().join("api/status.json");
    let mut m = Mcp::start(lib.path());
    let mut n = 0;
    let mut expect_unavailable = |m: &mut Mcp, why: &str| {
        n += 1;
        let r = m.call(&modern_call(n, "list_installed_docsets", json!({})));
        assert_eq!(r["result"]["structuredContent"]["error"]["code"], "local_api_unavailable", "{why}: {r}");
    };
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    expect_unavailable(&mut m, "group-readable key");
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    let real = lib.path().join("elsewhere.json");
    std::fs::rename(&status, &real).unwrap();
    std::os::unix::fs::symlink(&real, &status).unwrap();
    expect_unavailable(&mut m, "symlinked status.json");
    std::fs::remove_file(&status).unwrap();
    std::fs::rename(&real, &status).unwrap();
    std::fs::hard_link(&key, lib.path().join("second-link")).unwrap();
    expect_unavailable(&mut m, "a second hard link");
    std::fs::remove_file(lib.path().join("second-link")).unwrap();
    std::fs::set_permissions(lib.path().join("api"), std::fs::Permissions::from_mode(0o755)).unwrap();
    expect_unavailable(&mut m, "a world-readable folder");
    write_discovery(lib.path(), 999_999_999, api.port, KEY);
    expect_unavailable(&mut m, "a dead pid");
    assert!(!api.saw_key(), "no key sent in any of these cases");
}

#[test]
fn search_is_one_list_reads_command_lines_and_names_hits_elsewhere() {
    let lib = demo_library();
    let _server = Server::local_api(lib.path());
    let mut m = Mcp::initialized(lib.path(), "2025-06-18");
    let q = "how do I create an index without blocking writes";
    let big = m.tool(1, "search_documentation", json!({"text": q, "limit": 50}));
    let small = m.tool(2, "search_documentation", json!({"text": q, "limit": 2}));
    assert_eq!(small["structuredContent"]["total"], big["structuredContent"]["total"], "{small}");
    assert_eq!(small["structuredContent"]["hits"][1], big["structuredContent"]["hits"][1]);
    let flag = m.tool(3, "search_documentation", json!({"text": "--index"}));
    let word = m.tool(4, "search_documentation", json!({"text": "index"}));
    assert_eq!(flag["isError"], false, "{flag}");
    assert_eq!(flag["structuredContent"]["total"], word["structuredContent"]["total"], "{flag}");
    let zero = m.tool(5, "search_documentation", json!({"text": "备份", "locale": "en"}));
    assert_eq!(zero["structuredContent"]["total"], 0, "{zero}");
    let elsewhere = zero["structuredContent"]["elsewhere"].as_array().unwrap();
    assert!(elsewhere.iter().any(|e| e["locale"] == "zh-Hans"), "{zero}");
    // The tool text (the JSON of structuredContent) carries the sentence.
    let text: Value = serde_json::from_str(zero["content"][0]["text"].as_str().unwrap()).unwrap();
    let hint = text["hint"].as_str().unwrap();
    assert!(hint.starts_with("0 in en; ") && hint.ends_with("add locale:zh-Hans"), "{zero}");
    let symbol = m.tool(6, "search_documentation", json!({"text": "::"}));
    assert_eq!(symbol["isError"], false, "{symbol}");
    // An operator the text writes (the `shop=>` prompt) is found there.
    let prompt = m.tool(8, "search_documentation", json!({"text": "=>"}));
    let hits = prompt["structuredContent"]["hits"].as_array().unwrap();
    assert!(hits.iter().any(|h| h["path"] == "/app/reference/cli"), "{prompt}");
    let snippets = m.tool(7, "search_documentation", json!({"text": "create index"}));
    for hit in snippets["structuredContent"]["hits"].as_array().unwrap() {
        let (snippet, title) = (hit["snippet"].as_str().unwrap(), hit["title"].as_str().unwrap());
        let (snippet, title) = (snippet.to_lowercase(), title.to_lowercase());
        assert!(!snippet.starts_with(&format!("{title} {title}")), "{hit}");
        assert!(!snippet.starts_with(&format!("{title} —")), "{hit}");
    }
}

#[test]
fn search_then_load_to_the_end_and_generation_changes() {
    let lib = demo_library();
    let server = Server::local_api(lib.path());
    let mut m = Mcp::initialized(lib.path(), "2025-06-18");
    let list = m.tool(1, "list_installed_docsets", json!({}));
    assert_eq!(list["isError"], false, "{list}");
    let docsets = list["structuredContent"]["docsets"].as_array().unwrap();
    assert_eq!(docsets.len(), 5);
    // The text content is the same JSON as structuredContent.
    let text: Value = serde_json::from_str(list["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, list["structuredContent"]);

    let zh =
        m.tool(2, "search_documentation", json!({"text": "并发创建索引", "locale": "zh-Hans", "limit": 2}));
    let hit = &zh["structuredContent"]["hits"][0];
    assert_eq!(hit["locale"], "zh-Hans", "{zh}");
    let en = m.tool(3, "search_documentation", json!({"text": "build an index without locking writes"}));
    let hit = en["structuredContent"]["hits"][0].clone();
    let generation = en["structuredContent"]["generation"].as_str().unwrap().to_owned();
    assert_eq!(hit["path"], "/app/guide/indexes", "{en}");
    let key = hit["section_key"].as_str().unwrap();
    let mut text = String::new();
    let mut offset = 0;
    let mut id = 10;
    loop {
        let part = m.tool(
            id,
            "load_documentation_page",
            json!({"section_key": key, "generation": generation, "offset": offset, "limit": 100}),
        );
        id += 1;
        assert_eq!(part["isError"], false, "{part}");
        text.push_str(part["structuredContent"]["text"].as_str().unwrap());
        match part["structuredContent"]["next_offset"].as_u64() {
            Some(n) => offset = n,
            None => break,
        }
    }
    assert!(text.contains("CONCURRENTLY"), "{text}");
    // Paging a search.
    let p1 =
        m.tool(50, "search_documentation", json!({"text": "app", "branch": "*", "locale": "*", "limit": 2}));
    assert_eq!(p1["structuredContent"]["next_offset"], 2, "{p1}");
    // Dash's load_url is refused, saying what to give instead.
    let dash = m.tool(51, "load_documentation_page", json!({"load_url": "dash://x"}));
    assert_eq!(dash["isError"], true, "{dash}");
    // A generation change between search and read.
    let out = lectern().arg("--user-data").arg(lib.path()).args(["disable", "app@1/en"]).output().unwrap();
    assert!(out.status.success());
    std::thread::sleep(Duration::from_millis(1200));
    let stale = m.tool(60, "load_documentation_page", json!({"section_key": key, "generation": generation}));
    assert_eq!(stale["structuredContent"]["error"]["code"], "generation_changed", "{stale}");
    assert!(stale["content"][0]["text"].as_str().unwrap().contains("search_documentation again"));
    // The server restarted on another port is found without restarting the client.
    let old_port = server.port();
    server.terminate();
    let down = m.tool(61, "list_installed_docsets", json!({}));
    assert_eq!(down["structuredContent"]["error"]["code"], "local_api_unavailable", "{down}");
    let server = Server::local_api(lib.path());
    assert_ne!(server.port(), old_port);
    let up = m.tool(62, "list_installed_docsets", json!({}));
    assert_eq!(up["isError"], false, "{up}");
}

/// Each tool succeeding and failing (a local API error, arguments rmcp
/// cannot decode, no local API at all): its `tools/list` entry and result.
fn results_of_every_kind() -> Vec<(Value, Value)> {
    let lib = demo_library();
    let server = Server::local_api(lib.path());
    let mut m = Mcp::initialized(lib.path(), "2025-06-18");
    let tools = m.call(&json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}))["result"]["tools"].clone();
    let tool = |name: &str| tools.as_array().unwrap().iter().find(|t| t["name"] == name).unwrap().clone();
    let search = m.tool(2, "search_documentation", json!({"text": "build an index without locking writes"}));
    let hit = &search["structuredContent"]["hits"][0];
    let (key, generation) = (hit["section_key"].clone(), search["structuredContent"]["generation"].clone());
    let calls = [
        ("list_installed_docsets", json!({})),
        ("list_installed_docsets", json!({"generation": "stale"})),
        ("list_installed_docsets", json!({"generation": 5})),
        ("search_documentation", json!({"text": "index"})),
        ("search_documentation", json!({"text": "index", "limit": 51})),
        ("search_documentation", json!({})),
        ("load_documentation_page", json!({"section_key": key, "generation": generation, "limit": 50})),
        ("load_documentation_page", json!({"section_key": key, "generation": "stale"})),
        ("load_documentation_page", json!({"load_url": "dash://x"})),
    ];
    let mut results = Vec::new();
    for (id, (name, args)) in (10..).zip(calls) {
        results.push((tool(name), m.tool(id, name, args)));
    }
    server.terminate();
    for (id, name) in
        (30..).zip(["list_installed_docsets", "search_documentation", "load_documentation_page"])
    {
        let args = json!({"text": "x", "section_key": "k", "generation": "g"});
        let args = match name {
            "list_installed_docsets" => json!({}),
            "search_documentation" => json!({"text": args["text"]}),
            _ => json!({"section_key": args["section_key"], "generation": args["generation"]}),
        };
        results.push((tool(name), m.tool(id, name, args)));
    }
    let errors: Vec<&Value> = results.iter().filter(|(_, r)| r["isError"] == true).map(|(_, r)| r).collect();
    assert_eq!(errors.len(), 9, "six failing calls and three without a local API: {errors:?}");
    results
}

/// Regression: an error's `{"error":{…}}` did not match the tool's
/// `outputSchema`, so validating clients (the TypeScript SDK, the Inspector)
/// threw -32602 instead of showing the error.
#[test]
fn error_results_validate_against_output_schema() {
    for (tool, result) in results_of_every_kind() {
        let schema = &tool["outputSchema"];
        assert_eq!(schema["type"], "object", "{schema}");
        let content = &result["structuredContent"];
        if let Some(problem) = schema::mismatch(schema, content) {
            panic!("{}: {problem}\n{content}", tool["name"]);
        }
    }
}

/// Regression: an error's text was its message alone, so a client without
/// `structuredContent` (2024-11-05, 2025-03-26) could not see its code.
#[test]
fn error_text_is_the_json_of_structured_content() {
    for (tool, result) in results_of_every_kind() {
        let content = result["content"].as_array().unwrap();
        assert_eq!(content.len(), 1, "{}: {result}", tool["name"]);
        let text: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(text, result["structuredContent"], "{}", tool["name"]);
    }
}

#[test]
fn mcp_config_prints_absolute_paths_and_no_key() {
    let lib = demo_library();
    let server = Server::local_api(lib.path());
    for (client, top) in [("generic", "mcpServers"), ("vscode", "servers")] {
        let out =
            lectern().arg("--user-data").arg(lib.path()).args(["mcp", "config", client]).output().unwrap();
        assert!(out.status.success());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let entry = &v[top]["lectern"];
        assert!(Path::new(entry["command"].as_str().unwrap()).is_absolute(), "{v}");
        assert_eq!(entry["args"][0], "mcp");
        assert_eq!(entry["args"][2], lib.path().to_str().unwrap());
        if client == "vscode" {
            assert_eq!(entry["type"], "stdio");
        }
        let key = std::fs::read_to_string(lib.path().join("api/access-key")).unwrap();
        assert!(!String::from_utf8_lossy(&out.stdout).contains(key.trim()));
    }
    drop(server);
}

/// An editor keeps the program's stderr in a file: its log lines carry no
/// colour codes there, and an unknown tool's error names the tools there are.
#[test]
fn stderr_that_is_no_terminal_gets_plain_log_lines() {
    let lib = tempfile::tempdir().unwrap();
    let mut child = lectern()
        .args(["mcp", "--user-data"])
        .arg(lib.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in [
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}),
        json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
        json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope","arguments":{}}}),
    ] {
        writeln!(stdin, "{line}").unwrap();
    }
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut reply = String::new();
    while !reply.contains("\"id\":2") {
        reply.clear();
        assert!(std::io::BufRead::read_line(&mut stdout, &mut reply).unwrap() > 0, "no reply to the call");
    }
    assert!(
        reply.contains(r#"no tool named \"nope\": this server's tools are list_installed_docsets"#),
        "{reply}"
    );
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("WARN") && !stderr.contains('\u{1b}'), "{stderr:?}");
}

/// `printf '…' | lectern mcp`: stdin ends right after the requests, and
/// each request read before it ended is still answered (they were dropped
/// at random when EOF cancelled everything at once).
#[test]
fn requests_piped_in_before_stdin_ends_are_all_answered() {
    let lib = tempfile::tempdir().unwrap();
    let input: String = [
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}),
        json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
        json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
        json!({"jsonrpc":"2.0","id":3,"method":"ping"}),
    ]
    .iter()
    .map(|m| format!("{m}\n"))
    .collect();
    for _ in 0..10 {
        let mut child = lectern()
            .args(["mcp", "--user-data"])
            .arg(lib.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).unwrap();
        drop(stdin);
        let start = Instant::now();
        let out = child.wait_with_output().unwrap();
        assert!(start.elapsed() < Duration::from_secs(2), "EOF still exits promptly");
        let ids: Vec<i64> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, [1, 2, 3]);
    }
}
