//! Both HTTP faces (`lectern serve --site` and `lectern serve`) against
//! clients that try to starve them: many connections dripping a header byte
//! a second while the server runs under a low descriptor limit (`prlimit`),
//! a body announced and never sent, and a request naming two Hosts. Real
//! servers on loopback; each test is bounded in connections and time.

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "each test binary uses part of the shared helpers")]
mod bin;
#[path = "common/http.rs"]
#[allow(dead_code, reason = "each test binary uses part of the shared helpers")]
mod http;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "each test binary uses part of the shared helpers")]
mod server;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use server::Server;

/// The descriptor limit the servers run under: below [`SLOW_CLIENTS`], so a
/// server that held every connection would run out of descriptors, and the
/// connection cap (not the kernel) is what the slow clients meet.
const NOFILE: &str = "160";

/// Slow clients per test: more than the servers have descriptors under [`NOFILE`].
const SLOW_CLIENTS: usize = 200;

/// `lectern ARGS` under `prlimit --nofile=NOFILE`, with the test environment.
fn limited(args: &[&str], user_data: &Path) -> Command {
    let mut c = Command::new("prlimit");
    c.arg(format!("--nofile={NOFILE}:{NOFILE}"))
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_lectern"))
        .args(args)
        .arg("--user-data")
        .arg(user_data)
        .env_remove("LECTERN_USER_DATA")
        .env("NO_COLOR", "1");
    c
}

/// Connections that each send part of a request head and then a byte a second.
struct Drippers(Vec<TcpStream>);

impl Drippers {
    fn open(authority: &str) -> Drippers {
        let mut streams = Vec::new();
        for _ in 0..SLOW_CLIENTS {
            // Refused or evicted connections are part of the point; keep the rest.
            if let Ok(mut s) = TcpStream::connect(authority) {
                let _ = s.write_all(b"GET / HTTP/1.1\r\nX-Slow: ");
                streams.push(s);
            }
        }
        Drippers(streams)
    }

    fn drip(&mut self) {
        for s in &mut self.0 {
            let _ = s.write_all(b"a");
        }
    }
}

/// A whole request on a fresh connection: its status and how long it took.
fn timed(authority: &str, request: &[u8]) -> (u16, Duration) {
    let started = Instant::now();
    let mut stream = TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    stream.write_all(request).unwrap();
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    (http::parse_answer(&bytes).0, started.elapsed())
}

/// While [`SLOW_CLIENTS`] drip for three seconds, a normal request is
/// answered within a second, every second.
fn answers_a_visitor_while_slow_clients_drip(server: &Server, path: &str) {
    let authority = server.authority();
    let request = http::request("GET", &authority, path, &[], &[]);
    let mut drippers = Drippers::open(&authority);
    for _ in 0..3 {
        let (status, took) = timed(&authority, &request);
        assert!(status != 0 && status < 500, "a visitor got {status} while slow clients held connections");
        assert!(
            took < Duration::from_secs(1),
            "a visitor waited {took:?} while slow clients held connections"
        );
        std::thread::sleep(Duration::from_secs(1));
        drippers.drip();
    }
}

/// A request announcing 1000 bytes of body and sending two: (status, body,
/// how long until the answer).
fn slow_body(authority: &str, path: &str, headers: &[(&str, String)]) -> (u16, String, Duration) {
    let mut head = format!("POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Length: 1000\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n{\"");
    let started = Instant::now();
    let mut stream = TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let (status, body) = http::parse_answer(&bytes);
    (status, body, started.elapsed())
}

fn two_hosts(authority: &str) -> u16 {
    let request =
        format!("GET / HTTP/1.1\r\nHost: {authority}\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    timed(authority, request.as_bytes()).0
}

fn site(user_data: &Path) -> Server {
    Server::start(limited(&["serve", "--site", "--listen", "127.0.0.1:0"], user_data), "lectern serve --site")
}

fn local_api(user_data: &Path) -> Server {
    Server::start(limited(&["serve"], user_data), "lectern serve")
}

#[test]
fn site_answers_visitors_while_slow_clients_hold_connections() {
    let dir = tempfile::tempdir().unwrap();
    let server = site(dir.path());
    answers_a_visitor_while_slow_clients_drip(&server, "/healthz");
}

#[test]
fn local_api_answers_its_owner_while_slow_clients_hold_connections() {
    let dir = tempfile::tempdir().unwrap();
    let server = local_api(dir.path());
    answers_a_visitor_while_slow_clients_drip(&server, "/v1/status");
}

#[test]
fn site_mcp_answers_a_slow_body_within_the_body_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let server = site(dir.path());
    let headers = [
        ("Content-Type", "application/json".to_owned()),
        ("Accept", "application/json, text/event-stream".to_owned()),
    ];
    let (status, body, took) = slow_body(&server.authority(), "/mcp", &headers);
    assert_eq!(status, 408, "{body}");
    let limit = Duration::from_secs(10) + Duration::from_secs(2);
    assert!(took < limit, "the answer took {took:?}");
}

#[test]
fn local_api_answers_a_slow_body_within_the_body_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let server = local_api(dir.path());
    let headers = [("Content-Type", "application/json".to_owned())];
    let (status, body, took) = slow_body(&server.authority(), "/auth/challenge", &headers);
    assert_eq!(status, 408, "{body}");
    assert!(body.contains("\"timeout\""), "{body}");
    assert!(took < Duration::from_secs(5) + Duration::from_secs(2), "the answer took {took:?}");
}

#[test]
fn two_host_headers_are_refused_400_by_both_faces() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    assert_eq!(two_hosts(&site.authority()), 400);
    drop(site);
    let api_dir = tempfile::tempdir().unwrap();
    let api = local_api(api_dir.path());
    assert_eq!(two_hosts(&api.authority()), 400);
}
