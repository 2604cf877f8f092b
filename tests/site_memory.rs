//! The public `/mcp` keeps its memory bounded whatever callers send.
//!
//! Contents:
//! - 10,000 adversarial `/mcp` calls (prefix spellings, random cursors,
//!   random search terms, long inputs) over one keep-alive connection to a
//!   real `lectern serve --site` on a generated site: the server's RssAnon
//!   (`/proc/PID/status`, after a warm-up) grows by at most 8 MiB. Before
//!   the scope cache was keyed by the canonical scope, 200 such calls grew
//!   it by 44 MiB. Runs on the debug build (about 15 s on 2 cores).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use server::Server;

const CALLS: usize = 10_000;
const WARM_UP: usize = 1_500;
const MAX_GROWTH_KIB: u64 = 8 * 1024;

/// A site of three editions: English 2 and 1, and a partial Chinese 2 (so
/// its scope has fallbacks). No rate limit worth the name: the test is of
/// memory, not of the limiter.
fn write_site(dir: &Path) -> std::path::PathBuf {
    let site = dir.join("site");
    for (folder, pages) in [("v2en", 60), ("v2zh", 15), ("v1en", 30)] {
        for i in 0..pages {
            let file = site.join(folder).join(format!("guide/page-{i:03}.md"));
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            let body = format!(
                "---\ntitle: Page {i} of {folder}\ndescription: About page {i}\n---\n\n# Page {i}\n\n{}\n",
                "Install the widget, configure the gadget and index the records. ".repeat(20)
            );
            std::fs::write(file, body).unwrap();
        }
    }
    let config = site.join("lectern.toml");
    std::fs::write(
        &config,
        r#"
[site]
name = "Memory"
default_locale = "en"
rate_limit_per_minute = 100000000

[[editions]]
project = "app"
version = "2"
locale = "en"
label = "App 2"
status = "current"
prefix = "/app"
default = true
source = "v2en"

[[editions]]
project = "app"
version = "2"
locale = "zh-Hans"
label = "App 2 zh"
status = "current"
prefix = "/zh-Hans/app"
source = "v2zh"

[[editions]]
project = "app"
version = "1"
locale = "en"
label = "App 1"
status = "supported"
prefix = "/app/v1"
source = "v1en"
"#,
    )
    .unwrap();
    config
}

/// A small deterministic generator (xorshift64*): the same calls every run.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Up to `max` random characters from a mix of scripts.
    fn text(&mut self, max: usize) -> String {
        const CHARS: &[char] =
            &['a', 'e', 'x', 'z', '0', '/', ' ', '-', 'é', 'ß', '索', '引', 'İ', '\u{301}'];
        let len = self.below(max + 1);
        (0..len).map(|_| CHARS[self.below(CHARS.len())]).collect()
    }
}

/// A prefix as an adversary spells it: the real ones with slashes, spaces
/// or case changed, thousands of slashes, random text, or none.
fn prefix(draw: &mut Draw) -> Option<String> {
    let real = ["/app", "/app/v1", "/zh-Hans/app"][draw.below(3)];
    Some(match draw.below(9) {
        0 => return None,
        1 => real.to_owned(),
        2 => format!("{real}/"),
        3 => format!("{real}{}", "/".repeat(1 + draw.below(2_000))),
        4 => format!(" {real} "),
        5 => real.to_uppercase(),
        6 => format!("{real}{}", "/".repeat(100_000 + draw.below(100_000))),
        7 => format!("/{}", draw.text(60)),
        _ => format!("{real}/{}", draw.text(20)),
    })
}

/// One adversarial tool call.
fn call(draw: &mut Draw, id: usize) -> Value {
    let (name, args) = match draw.below(6) {
        0 => ("list_versions", json!({})),
        1 | 2 => {
            let cursor = match draw.below(3) {
                0 => None,
                1 => Some(format!("/{}", draw.text(1_000))),
                _ => Some(format!("/app/guide/page-{:03}{}", draw.below(60), draw.text(4))),
            };
            ("list_pages", json!({"prefix": prefix(draw), "cursor": cursor, "limit": 1 + draw.below(100)}))
        }
        3 | 4 => {
            let term = draw.text(256);
            ("search_docs", json!({"term": term, "prefix": prefix(draw), "limit": 1 + draw.below(100)}))
        }
        _ => {
            let path = match draw.below(3) {
                0 => format!("/zh-Hans/app/guide/page-{:03}", draw.below(60)),
                1 => format!("/app/{}", draw.text(1_000)),
                _ => format!("/app{}", "/".repeat(draw.below(100_000))),
            };
            ("read_page", json!({"path": path}))
        }
    };
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": args}})
}

/// One keep-alive HTTP/1.1 connection to `/mcp`.
struct Client {
    authority: String,
    reader: BufReader<TcpStream>,
}

impl Client {
    fn connect(authority: &str) -> Client {
        let stream = TcpStream::connect(authority).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        stream.set_nodelay(true).unwrap();
        Client { authority: authority.to_owned(), reader: BufReader::new(stream) }
    }

    /// Posts `body`; the status and the JSON answer.
    fn post(&mut self, body: &Value) -> (u16, Value) {
        let body = body.to_string();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\n\r\n",
            self.authority,
            body.len()
        );
        // One write: a request split over two would wait out delayed ACKs.
        self.reader.get_mut().write_all(&[head.as_bytes(), body.as_bytes()].concat()).unwrap();
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        let status: u16 =
            line.split(' ').nth(1).unwrap_or_else(|| panic!("no status: {line:?}")).parse().unwrap();
        let (mut length, mut chunked) = (None, false);
        loop {
            line.clear();
            self.reader.read_line(&mut line).unwrap();
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap();
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                length = Some(value.parse::<usize>().unwrap());
            } else if name.eq_ignore_ascii_case("transfer-encoding") && value.eq_ignore_ascii_case("chunked")
            {
                chunked = true;
            }
        }
        let mut bytes = Vec::new();
        if chunked {
            loop {
                line.clear();
                self.reader.read_line(&mut line).unwrap();
                let size = usize::from_str_radix(line.trim_end().split(';').next().unwrap(), 16).unwrap();
                let mut chunk = vec![0; size + 2];
                self.reader.read_exact(&mut chunk).unwrap();
                if size == 0 {
                    break;
                }
                bytes.extend_from_slice(&chunk[..size]);
            }
        } else {
            bytes.resize(length.expect("a sized or chunked answer"), 0);
            self.reader.read_exact(&mut bytes).unwrap();
        }
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }
}

/// The process's anonymous resident memory, in KiB.
fn rss_anon_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("RssAnon:")).expect("RssAnon in /proc/PID/status");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn send_calls(client: &mut Client, draw: &mut Draw, count: usize) {
    for id in 0..count {
        let (status, answer) = client.post(&call(draw, id));
        assert_eq!(status, 200, "{answer}");
        assert!(answer.get("result").is_some(), "{answer}");
    }
}

#[test]
fn adversarial_mcp_calls_never_grow_the_site_s_memory() {
    if !Path::new("/proc/self/status").exists() {
        eprintln!("skipped: no /proc to read RssAnon from");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = write_site(dir.path());
    let lib = dir.path().join("lib");
    bin::ok(&lib, &["add", "--site", config.to_str().unwrap()]);
    let server = Server::site(&lib);
    let mut client = Client::connect(&server.authority());
    let mut draw = Draw(0x5eed_cafe_f00d_beef);
    // Every scope, table and allocator arena the calls use exists by now.
    send_calls(&mut client, &mut draw, WARM_UP);
    let before = rss_anon_kib(server.pid());
    send_calls(&mut client, &mut draw, CALLS);
    let after = rss_anon_kib(server.pid());
    let growth = after.saturating_sub(before);
    eprintln!("RssAnon {before} KiB → {after} KiB after {CALLS} calls (+{growth} KiB)");
    assert!(
        growth <= MAX_GROWTH_KIB,
        "RssAnon grew by {growth} KiB over {CALLS} calls: {before} → {after} KiB"
    );
}
