//! `lectern serve` end to end over a real socket with the real binary.
//!
//! Contents:
//! - serve: discovery files, challenge, search, read, enable/disable through the API
//! - refresh: a `lectern disable` from another process is served within 1 s
//! - one server per folder: a second `serve` is refused
//! - unsafe discovery folder: refused at start
//! - shutdown: SIGTERM removes status.json
//! - open/doctor: `open --print` mints a login URL, `doctor` says all is well

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lectern_api::client::blocking::Client;
use lectern_api::client::{ClientError, query};
use lectern_library::ErrorCode;
use serde_json::json;

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use bin::{demo_library, lectern};
use server::Server;

fn wait_until(what: &str, limit: Duration, mut f: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    start.elapsed()
}

fn status_path(user_data: &Path) -> PathBuf {
    user_data.join("api/status.json")
}

#[test]
fn serve_answers_over_a_socket_and_cleans_up_on_sigterm() {
    let lib = demo_library();
    let server = Server::local_api(lib.path());
    let login = server.line_with("/login?token=");
    let login = &login[login.find("http://").unwrap()..];
    let client = Client::connect(lib.path()).expect("discovery + challenge");
    assert!(login.starts_with(&format!("http://127.0.0.1:{}/login?token=", client.port())), "{login}");
    assert!(!login.contains(&client.discovery().access_key));
    assert_eq!(client.discovery().status.pid, server.pid());

    let status = client.get("/v1/status").unwrap();
    assert_eq!(status["editions_enabled"], 5);
    let found = client
        .get(&format!("/v1/search{}", query(&[("text", Some("安装")), ("locale", Some("zh-Hans"))])))
        .unwrap();
    let hit = &found["hits"][0];
    let section = client
        .get(&format!(
            "/v1/section{}",
            query(&[
                ("section_key", hit["section_key"].as_str()),
                ("generation", found["generation"].as_str())
            ])
        ))
        .unwrap();
    assert_eq!(section["locale"], "zh-Hans");
    // One list at any limit; command-line words; a zero names the hits elsewhere.
    let search = |text: &str, extra: &[(&str, Option<&str>)]| {
        let mut q = vec![("text", Some(text))];
        q.extend_from_slice(extra);
        client.get(&format!("/v1/search{}", query(&q))).unwrap()
    };
    let q = "how do I create an index without blocking writes";
    let small = search(q, &[("limit", Some("1"))]);
    assert_eq!(small["total"], search(q, &[("limit", Some("50"))])["total"], "{small}");
    assert_eq!(search("--index", &[])["total"], search("index", &[])["total"]);
    let zero = search("备份", &[("locale", Some("en"))]);
    assert!(zero["elsewhere"].as_array().unwrap().iter().any(|e| e["locale"] == "zh-Hans"), "{zero}");
    let hint = zero["hint"].as_str().unwrap();
    assert!(hint.starts_with("0 in en; ") && hint.ends_with("in zh-Hans: add locale:zh-Hans"), "{zero}");
    // Punctuation alone is searched as written (a symbol), not refused.
    for text in ["::", "C++", ".npmrc", "a-b", "pg_ctl"] {
        assert!(search(text, &[])["total"].is_u64(), "{text}");
    }
    // An operator the text writes (the `shop=>` prompt) is found there.
    let prompt = search("=>", &[]);
    assert!(prompt["hits"].as_array().unwrap().iter().any(|h| h["path"] == "/app/reference/cli"), "{prompt}");
    // Snippets cut between words and never open with the title above them.
    for hit in search("create index", &[])["hits"].as_array().unwrap() {
        let (snippet, title) = (hit["snippet"].as_str().unwrap(), hit["title"].as_str().unwrap());
        let (snippet, title) = (snippet.to_lowercase(), title.to_lowercase());
        assert!(!snippet.starts_with(&format!("{title} {title}")), "{hit}");
        assert!(!snippet.starts_with(&format!("{title} —")), "{hit}");
        // What is lit is a query word (any form of it).
        let chars: Vec<char> = snippet.chars().collect();
        for range in hit["highlights"].as_array().unwrap() {
            let (a, b) = (range[0].as_u64().unwrap() as usize, range[1].as_u64().unwrap() as usize);
            let lit: String = chars[a..b].iter().collect();
            assert!(lit.starts_with("creat") || lit.starts_with("index"), "{lit:?} in {hit}");
        }
    }
    let changed = client.post("/v1/editions/disable", &json!({"edition": "app@1/en"})).unwrap();
    assert_ne!(changed["generation"], found["generation"]);
    client.post("/v1/editions/enable", &json!({"edition": "app@1/en"})).unwrap();

    // Wrong key: 401 over the wire too.
    let mut bad = client.discovery().clone();
    bad.access_key = "0".repeat(64);
    let err = Client::unchecked(bad.clone()).get("/v1/status").unwrap_err();
    assert!(matches!(err, ClientError::Api { code: ErrorCode::Unauthorized, .. }), "{err}");
    let err = Client::unchecked(bad).challenge().unwrap_err();
    assert!(matches!(err, ClientError::ChallengeFailed { .. }), "{err}");

    // A generation made by another process is served within a second.
    let before = client.get("/v1/status").unwrap()["generation"].clone();
    let out = lectern().args(["disable", "app@2/zh-Hans", "--user-data"]).arg(lib.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let took = wait_until("new generation served", Duration::from_secs(1), || {
        client.get("/v1/status").unwrap()["generation"] != before
    });
    eprintln!("generation picked up after {took:?}");
    assert_eq!(client.get("/v1/status").unwrap()["editions_enabled"], 4);

    // `lectern open --print` and `doctor` go through the same discovery + challenge.
    let out = lectern().args(["open", "--print", "--user-data"]).arg(lib.path()).output().unwrap();
    let url = String::from_utf8(out.stdout).unwrap();
    assert!(url.starts_with(&format!("http://127.0.0.1:{}/login?token=", client.port())), "{url}");
    let out = lectern().args(["doctor", "--user-data"]).arg(lib.path()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("challenge") && !text.contains("PROBLEM"), "{text}");

    // A second server for the same folder is refused, clearly.
    let out = lectern().args(["serve", "--user-data"]).arg(lib.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("already serving"), "{err}");

    // SIGTERM: graceful stop, status.json removed.
    let code = server.terminate();
    assert!(code.success(), "{code:?}");
    assert!(!status_path(lib.path()).exists());
    let out = lectern().args(["doctor", "--json", "--user-data"]).arg(lib.path()).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true, "{v}");
}

#[test]
fn serve_refuses_an_unsafe_discovery_folder() {
    let lib = demo_library();
    let api = lib.path().join("api");
    std::fs::create_dir(&api).unwrap();
    std::fs::set_permissions(&api, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = lectern().args(["serve", "--user-data"]).arg(lib.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unsafe") && err.contains("chmod 700"), "{err}");
    let out = lectern().args(["doctor", "--user-data"]).arg(lib.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
}
