//! The binary under hostile input and slow or vanished clients.
//!
//! Contents:
//! - read-only storage: a library on a read-only bind mount is listed,
//!   searched, read and served with no lock file; writes say it is read-only
//! - closed pipes: `search | head -1` and `read | head` end quietly, status 0
//! - abandoned writes: an API write is never answered 504 and applied later;
//!   one whose client went away while it waited never applies

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/http.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod http;
#[path = "common/mount.rs"]
mod mount;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use bin::{demo_library, into_a_closed_pipe, ok, run};
use mount::ReadOnlyMount;
use server::Server;

fn first_edition(lib: &Path) -> String {
    let list: Value = serde_json::from_str(&ok(lib, &["list", "--json"])).unwrap();
    list["editions"][0]["id"].as_str().unwrap().to_owned()
}

#[test]
fn a_read_only_library_folder_is_listed_searched_read_and_served_and_writes_say_it_is_read_only() {
    let lib = demo_library();
    let Some(ro) = ReadOnlyMount::of(lib.path()) else {
        eprintln!("skipped: this machine allows no read-only bind mount (run the tests as root)");
        return;
    };
    let root = &ro.at;
    assert!(std::fs::write(root.join("probe"), "").is_err(), "the mount must be read-only");
    let edition = first_edition(root);
    assert!(ok(root, &["search", "install"]).contains("/app"));
    assert!(!ok(root, &["read", "/app"]).is_empty());

    let site = Server::site(root);
    let (status, body) =
        http::send(&site.authority(), &http::request("GET", &site.authority(), "/llms.txt", &[], b""));
    assert_eq!(status, 200, "{body}");
    drop(site);

    let config = bin::demo_config();
    let writes: [&[&str]; 6] = [
        &["enable", &edition],
        &["disable", &edition],
        &["remove", &edition],
        &["config", "set", "default.locale", "en"],
        &["add", "--site", config.to_str().unwrap()],
        &["repair"],
    ];
    for args in writes {
        let out = run(root, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "lectern {args:?}: {stderr}");
        assert!(stderr.contains("is read-only"), "lectern {args:?}: {stderr}");
        assert!(stderr.contains("serve --site --read-only"), "lectern {args:?}: {stderr}");
        assert!(!stderr.contains("Lockfile"), "lectern {args:?}: {stderr}");
    }
    // Nothing was written: the edition is still there, enabled.
    assert!(ok(root, &["list"]).contains(&edition));
}

#[test]
fn search_and_read_into_a_closed_pipe_end_quietly_with_status_0() {
    let lib = demo_library();
    let commands = [
        vec!["search", "install"],
        vec!["read", "/app"],
        vec!["list"],
        vec!["search", "install", "--json"],
        vec!["config", "list"],
    ];
    for args in commands {
        let out = into_a_closed_pipe(lib.path(), &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "lectern {args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "lectern {args:?}: {stderr}");
    }
}

/// `POST /v1/editions/disable` with the access key; the open connection.
fn post_disable(lib: &Path, edition: &str) -> TcpStream {
    let client = lectern_api::client::blocking::Client::connect(lib).expect("discovery + challenge");
    let authority = format!("127.0.0.1:{}", client.port());
    let body = serde_json::json!({ "edition": edition }).to_string();
    let key = format!("Bearer {}", client.discovery().access_key);
    let request = http::request(
        "POST",
        &authority,
        "/v1/editions/disable",
        &[("Authorization", key), ("Content-Type", "application/json".into())],
        body.as_bytes(),
    );
    let mut stream = TcpStream::connect(&authority).unwrap();
    stream.write_all(&request).unwrap();
    stream
}

fn enabled(lib: &Path, edition: &str) -> bool {
    let list: Value = serde_json::from_str(&ok(lib, &["list", "--all", "--json"])).unwrap();
    list["editions"].as_array().unwrap().iter().any(|e| e["id"] == edition && e["enabled"] == true)
}

#[test]
fn an_api_write_is_never_answered_as_stopped_and_applied_later() {
    let lib = demo_library();
    let edition = first_edition(lib.path());
    let _server = Server::local_api(lib.path());
    // Another writer holds the library past the request time limit (8 s).
    let lock = std::fs::OpenOptions::new().read(true).write(true).open(lib.path().join("lock")).unwrap();
    lock.lock().unwrap();

    // A client that waits: answered once the write is done, never 504.
    let mut waiting = post_disable(lib.path(), &edition);
    std::thread::sleep(Duration::from_secs(9));
    lock.unlock().unwrap();
    waiting.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut answer = String::new();
    let _ = waiting.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(!enabled(lib.path(), &edition), "a write answered as done did not happen");
}

#[test]
fn an_api_write_whose_client_went_away_while_it_waited_never_applies() {
    let lib = demo_library();
    let edition = first_edition(lib.path());
    let _server = Server::local_api(lib.path());
    let lock = std::fs::OpenOptions::new().read(true).write(true).open(lib.path().join("lock")).unwrap();
    lock.lock().unwrap();
    let gone = post_disable(lib.path(), &edition);
    std::thread::sleep(Duration::from_millis(500));
    drop(gone);
    std::thread::sleep(Duration::from_millis(500));
    lock.unlock().unwrap();
    std::thread::sleep(Duration::from_secs(1));
    assert!(enabled(lib.path(), &edition), "a write whose client was gone applied");
}
