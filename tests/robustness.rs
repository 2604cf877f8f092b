//! The bad-input matrix: every face gets malformed, hostile or out-of-range
//! input and must answer with its documented error (the exit status, HTTP
//! status or JSON-RPC code, the error code, and a distinctive part of the
//! message) and leave the library unchanged: after every case
//! `lectern list --all --json` is byte-identical to before.
//!
//! Faces (one module each): CLI arguments, local API requests (raw HTTP),
//! stdio MCP raw lines and tool arguments, the site's `/mcp`, site config
//! files, documents and archives (path traversal, zip bombs, endless and
//! multiplying docset indexes, a malformed `Info.plist`, 100,000 `<div/>`,
//! a control character in a file name), with invalid UTF-8, NUL bytes, RTL
//! and combining characters, offsets past the end, two `Host` headers, a
//! reader that hung up and a library on read-only storage.
//!
//! Each row of the tables below is its own test (`cases!` makes one `#[test]`
//! per row, so a failure names its case). Every case runs in a fresh copy of
//! one demo library, built once per binary under `CARGO_TARGET_TMPDIR` (the
//! test runner gives each test its own process, so nothing else can be
//! shared; copying is far cheaper than installing). A case that needs a
//! server starts its own.
//!
//! Besides its assertion, every case compares its normalised input and
//! response (temporary paths, ports and the generation replaced) with a
//! reviewed snapshot in `tests/snapshots/robustness__<face>__<case>.snap`,
//! so any change in what the product answers fails until it is reviewed
//! (`cargo insta review`).

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::{Value, json};

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/http.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod http;
#[path = "common/mcp.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod mcp;
#[path = "common/mount.rs"]
mod mount;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use bin::lectern;
use mcp::Mcp;
use mount::ReadOnlyMount;
use server::Server;

// --- inputs ------------------------------------------------------------------

/// Extra request headers. Values may hold `{access_key}` and `{port}`.
type Headers<'a> = &'a [(&'static str, &'static str)];

const AUTH: (&str, &str) = ("Authorization", "Bearer {access_key}");
const JSON: (&str, &str) = ("Content-Type", "application/json");
const MCP_HEADERS: [(&str, &str); 3] =
    [JSON, ("Accept", "application/json, text/event-stream"), ("MCP-Protocol-Version", "2025-11-25")];

/// A raw HTTP request. The target and a UTF-8 body may hold `{section}`.
struct Request {
    /// How the snapshot shows it, where the raw request would say less.
    label: Option<String>,
    method: &'static str,
    target: &'static str,
    headers: Vec<(&'static str, &'static str)>,
    body: Vec<u8>,
}

/// What one case sends, and to which face. Text may hold placeholders
/// (`{section}`: a real section key; `{generation}`: the library's
/// generation; `{access_key}`, `{port}`: the local server's), filled in when
/// the case runs and shown as they are in the snapshot.
enum Input {
    /// `lectern ARGS --user-data LIB`.
    Cli(Vec<OsString>),
    /// One request to a fresh `lectern serve`.
    Api(Request),
    /// One request to a fresh `lectern serve --site --read-only`.
    Site(Request),
    /// Raw bytes to `lectern mcp` after its handshake, with `lectern serve`
    /// running; shown by their label.
    StdioLine(&'static str, Vec<u8>),
    /// One `tools/call` to `lectern mcp`, with `lectern serve` running.
    StdioTool(&'static str, Value),
    /// `lectern add --site FILE` with these bytes as the file.
    SiteConfig(Vec<u8>),
    /// `lectern add FOLDER` where the folder holds only this file.
    Document(&'static str, Vec<u8>),
    /// A good page beside an invalid UTF-8 one and one with a NUL byte,
    /// added to a scratch library (the good page is installed there).
    MixedDocument,
    /// `lectern add ARCHIVE` for an archive the script below makes; shown
    /// with its description.
    Archive(&'static str, &'static str),
    /// The same archive's entries beside a good `index.md`, added to a
    /// scratch library.
    MixedArchive(&'static str, &'static str),
    /// `lectern add Hostile.docset` into a scratch library, for a docset
    /// with this description, `Info.plist` and index (made by this SQL).
    Docset(&'static str, &'static str, String),
    /// `lectern ARGS` whose reader hung up before it wrote (`| head -1`).
    ClosedPipe(&'static [&'static str]),
    /// `lectern ARGS` with the library on a read-only bind mount; skipped
    /// where this machine allows no mounts.
    ReadOnly(&'static [&'static str]),
}

/// A well-formed `Info.plist` for [`Input::Docset`].
const PLIST: &str = r#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
<key>CFBundleName</key><string>Hostile</string><key>CFBundleIdentifier</key><string>hostile</string>
</dict></plist>"#;

/// A Dash index with one named row: what the `Info.plist` cases read.
const ONE_ROW_INDEX: &str =
    "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);
     INSERT INTO searchIndex(name, type, path) VALUES ('hello', 'Function', 'index.html');";

/// A `searchIndex` view whose rows never end, none of them named.
const ENDLESS_NAMELESS_VIEW: &str = "CREATE VIEW searchIndex AS WITH RECURSIVE r(n) AS \
     (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT NULL AS name, 'Function' AS type, 'index.html' AS path FROM r;";

/// Core Data tables where every token points at every metainformation row,
/// file and type: the join has 300^4 rows, with no index to make it cheap.
fn multiplying_join() -> String {
    let mut sql = String::from(
        "CREATE TABLE ZTOKENTYPE(Z_PK INTEGER, ZTYPENAME TEXT);
         CREATE TABLE ZFILEPATH(Z_PK INTEGER, ZPATH TEXT);
         CREATE TABLE ZTOKENMETAINFORMATION(Z_PK INTEGER, ZFILE INTEGER, ZANCHOR TEXT);
         CREATE TABLE ZTOKEN(Z_PK INTEGER, ZTOKENNAME TEXT, ZTOKENTYPE INTEGER, ZMETAINFORMATION INTEGER);",
    );
    for (table, values) in [
        ("ZTOKENTYPE", "1, 'Function'"),
        ("ZFILEPATH", "1, 'index.html'"),
        ("ZTOKENMETAINFORMATION", "1, 1, NULL"),
        ("ZTOKEN", "1, NULL, 1, 1"),
    ] {
        sql.push_str(&format!(
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 300) \
             INSERT INTO {table} SELECT {values} FROM r;"
        ));
    }
    sql
}

fn cli(args: &[&str]) -> Input {
    Input::Cli(args.iter().map(OsString::from).collect())
}

fn cli_bytes(args: &[&[u8]]) -> Input {
    Input::Cli(args.iter().map(|a| OsString::from_vec(a.to_vec())).collect())
}

fn request(
    method: &'static str,
    target: &'static str,
    headers: Headers,
    body: impl Into<Vec<u8>>,
) -> Request {
    Request { label: None, method, target, headers: headers.to_vec(), body: body.into() }
}

fn api(method: &'static str, target: &'static str, headers: Headers, body: impl Into<Vec<u8>>) -> Input {
    Input::Api(request(method, target, headers, body))
}

fn site(method: &'static str, target: &'static str, headers: Headers, body: impl Into<Vec<u8>>) -> Input {
    Input::Site(request(method, target, headers, body))
}

/// A `tools/call` POSTed to the site's `/mcp`, shown by tool and arguments.
fn site_tool_request(name: &str, args: Value) -> Request {
    let label = format!("POST /mcp tools/call {name} {}", cut(args.to_string().as_bytes()));
    Request {
        label: Some(label),
        ..request("POST", "/mcp", &MCP_HEADERS, mcp::tool_call(1, name, args).to_string())
    }
}

fn site_tool(name: &str, args: Value) -> Input {
    Input::Site(site_tool_request(name, args))
}

fn line(label: &'static str, bytes: impl Into<Vec<u8>>) -> Input {
    Input::StdioLine(label, bytes.into())
}

fn tool(name: &'static str, args: Value) -> Input {
    Input::StdioTool(name, args)
}

fn config(bytes: impl Into<Vec<u8>>) -> Input {
    Input::SiteConfig(bytes.into())
}

/// A `lectern.toml` with one edition whose last line is `extra`.
fn edition_config(extra: &str) -> Input {
    config(format!(
        "[site]\nname = \"x\"\n[[editions]]\nproject = \"a\"\nversion = \"1\"\nlocale = \"en\"\nsource = \"d\"\n{extra}\n"
    ))
}

// --- expectations ------------------------------------------------------------

/// How a face reports the outcome before any message.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Status {
    Exit(i32),
    Http(u16),
    /// A stdio reply: JSON-RPC has no status of its own.
    Stdio,
}

/// The machine-readable outcome.
#[derive(Debug, Clone, PartialEq)]
enum Code {
    /// No code: a CLI message, or a page that is not JSON.
    None,
    /// An API or tool error code (`error.code`, or a tool result's
    /// `structuredContent.error.code`).
    Error(String),
    /// A JSON-RPC error code.
    Rpc(i64),
    /// A result that is not an error.
    Result,
}

/// What a case must answer: exactly this status and code, and a message
/// containing `words`.
struct Expect {
    status: Status,
    code: Code,
    words: &'static str,
}

fn exit(code: i32, words: &'static str) -> Expect {
    Expect { status: Status::Exit(code), code: Code::None, words }
}

fn http(status: u16, code: &str, words: &'static str) -> Expect {
    Expect { status: Status::Http(status), code: Code::Error(code.to_owned()), words }
}

/// An HTTP answer that is a page, not JSON.
fn page(status: u16, words: &'static str) -> Expect {
    Expect { status: Status::Http(status), code: Code::None, words }
}

fn http_rpc(status: u16, code: i64, words: &'static str) -> Expect {
    Expect { status: Status::Http(status), code: Code::Rpc(code), words }
}

fn http_result(words: &'static str) -> Expect {
    Expect { status: Status::Http(200), code: Code::Result, words }
}

fn rpc(code: i64, words: &'static str) -> Expect {
    Expect { status: Status::Stdio, code: Code::Rpc(code), words }
}

fn tool_error(code: &str, words: &'static str) -> Expect {
    Expect { status: Status::Stdio, code: Code::Error(code.to_owned()), words }
}

/// A tool error in an HTTP 200 answer (the site's `/mcp`).
fn site_error(code: &str, words: &'static str) -> Expect {
    Expect { status: Status::Http(200), code: Code::Error(code.to_owned()), words }
}

fn tool_result(words: &'static str) -> Expect {
    Expect { status: Status::Stdio, code: Code::Result, words }
}

// --- observations ------------------------------------------------------------

/// What a face answered.
#[derive(Debug)]
struct Observed {
    status: Status,
    code: Code,
    message: String,
}

impl Observed {
    /// A command's exit status and the first lines of its stderr (then of
    /// its stdout, where a success printed nothing on stderr).
    fn output(out: &Output) -> Observed {
        let first = |bytes: &[u8]| {
            let text = String::from_utf8_lossy(bytes);
            text.lines().filter(|l| !l.trim().is_empty()).take(6).collect::<Vec<_>>().join(" / ")
        };
        let mut message = first(&out.stderr);
        if message.is_empty() {
            message = first(&out.stdout);
        }
        Observed { status: Status::Exit(out.status.code().unwrap_or(-1)), code: Code::None, message }
    }

    fn http((status, body): (u16, String)) -> Observed {
        let (code, message) = match serde_json::from_str::<Value>(&body) {
            Ok(v) => describe_json(&v),
            Err(_) => (Code::None, body.chars().take(200).collect()),
        };
        Observed { status: Status::Http(status), code, message }
    }

    fn stdio(reply: &Value) -> Observed {
        let (code, message) = describe_json(reply);
        Observed { status: Status::Stdio, code, message }
    }
}

/// The code and message of a JSON answer: an API error, a JSON-RPC error
/// (of a batch's first reply too), a tool error, or a result.
fn describe_json(v: &Value) -> (Code, String) {
    let v = if let Value::Array(items) = v { items.first().unwrap_or(&Value::Null) } else { v };
    let text = |p: &str| v.pointer(p).and_then(Value::as_str).unwrap_or("").to_owned();
    if let Some(code) = v.pointer("/error/code").and_then(Value::as_i64) {
        return (Code::Rpc(code), text("/error/message"));
    }
    if let Some(code) = v.pointer("/error/code").and_then(Value::as_str) {
        return (Code::Error(code.to_owned()), text("/error/message"));
    }
    if v.pointer("/result/isError") == Some(&json!(true)) {
        let code = text("/result/structuredContent/error/code");
        let mut message = text("/result/structuredContent/error/message");
        if message.is_empty() {
            message = text("/result/content/0/text");
        }
        return (Code::Error(if code.is_empty() { "(no structuredContent)".into() } else { code }), message);
    }
    if let Some(result) = v.get("result") {
        // The structured content, where there is one: the text content
        // repeats it as an escaped string.
        let shown = result.get("structuredContent").unwrap_or(result);
        return (Code::Result, shown.to_string().chars().take(200).collect());
    }
    (Code::None, v.to_string())
}

// --- the fixture -------------------------------------------------------------

/// One case's world: a copy of the demo library, a scratch folder, and the
/// listing the case must leave as it found.
struct Fixture {
    tmp: tempfile::TempDir,
    lib: PathBuf,
    scratch: PathBuf,
    before: String,
    generation: String,
    section: OnceLock<String>,
}

impl Fixture {
    fn new() -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let lib = tmp.path().join("lib");
        let scratch = tmp.path().join("scratch");
        std::fs::create_dir_all(&scratch).unwrap();
        copy_dir(&template(), &lib);
        let before = listing(&lib);
        let generation =
            serde_json::from_str::<Value>(&before).unwrap()["generation"].as_str().unwrap().to_owned();
        Fixture { tmp, lib, scratch, before, generation, section: OnceLock::new() }
    }

    /// A real section key, for the past-the-end cases.
    fn section(&self) -> &str {
        self.section.get_or_init(|| {
            let found: Value =
                serde_json::from_str(&bin::ok(&self.lib, &["search", "install", "--json", "--limit", "1"]))
                    .unwrap();
            found["hits"][0]["section_key"].as_str().unwrap().to_owned()
        })
    }

    /// `text` with its placeholders filled in.
    fn fill(&self, text: &str, server: Option<&Server>) -> String {
        let mut t = text.replace("{generation}", &self.generation);
        if t.contains("{section}") {
            t = t.replace("{section}", self.section());
        }
        if let Some(s) = server {
            t = t.replace("{port}", &s.port().to_string());
            if t.contains("{access_key}") {
                let key = std::fs::read_to_string(self.lib.join("api/access-key")).unwrap();
                t = t.replace("{access_key}", key.trim());
            }
        }
        t
    }

    fn fill_bytes(&self, bytes: &[u8], server: Option<&Server>) -> Vec<u8> {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.fill(text, server).into_bytes(),
            Err(_) => bytes.to_vec(),
        }
    }

    /// `lectern add SOURCE --project P --version 1 --locale en` into `lib`.
    fn add(&self, source: &Path, project: &str, lib: &Path) -> Observed {
        let out = lectern()
            .arg("add")
            .arg(source)
            .args(["--project", project, "--version", "1", "--locale", "en", "--user-data"])
            .arg(lib)
            .output()
            .unwrap();
        Observed::output(&out)
    }

    fn send(&self, server: &Server, r: &Request) -> Observed {
        let headers: Vec<(&str, String)> =
            r.headers.iter().map(|(k, v)| (*k, self.fill(v, Some(server)))).collect();
        let target = self.fill(r.target, Some(server));
        let body = self.fill_bytes(&r.body, Some(server));
        let authority = server.authority();
        Observed::http(http::send(&authority, &http::request(r.method, &authority, &target, &headers, &body)))
    }

    fn run(&self, input: &Input) -> Observed {
        match input {
            Input::Cli(args) => {
                let args: Vec<OsString> = args
                    .iter()
                    .map(|a| match a.to_str() {
                        Some(s) => OsString::from(self.fill(s, None)),
                        None => a.clone(),
                    })
                    .collect();
                Observed::output(&lectern().args(args).arg("--user-data").arg(&self.lib).output().unwrap())
            }
            Input::Api(r) => self.send(&Server::local_api(&self.lib), r),
            Input::Site(r) => self.send(&Server::site(&self.lib), r),
            Input::StdioLine(_, bytes) => {
                let _server = Server::local_api(&self.lib);
                let mut m = Mcp::initialized(&self.lib, "2025-06-18");
                m.raw(bytes);
                Observed::stdio(&m.recv())
            }
            Input::StdioTool(name, args) => {
                let _server = Server::local_api(&self.lib);
                let mut m = Mcp::initialized(&self.lib, "2025-06-18");
                let args = serde_json::from_str(&self.fill(&args.to_string(), None)).unwrap();
                Observed::stdio(&m.call(&mcp::tool_call(1, name, args)))
            }
            Input::SiteConfig(bytes) => {
                let path = self.scratch.join("lectern.toml");
                std::fs::write(&path, bytes).unwrap();
                Observed::output(
                    &lectern()
                        .args(["add", "--site"])
                        .arg(&path)
                        .arg("--user-data")
                        .arg(&self.lib)
                        .output()
                        .unwrap(),
                )
            }
            Input::Document(file, bytes) => {
                let src = self.scratch.join(format!("doc-{file}"));
                std::fs::create_dir_all(&src).unwrap();
                std::fs::write(src.join(file), bytes).unwrap();
                self.add(&src, "bad", &self.lib)
            }
            Input::MixedDocument => {
                let mixed = self.scratch.join("mixed");
                std::fs::create_dir_all(&mixed).unwrap();
                std::fs::write(mixed.join("good.md"), "# Good\n\nfine\n").unwrap();
                std::fs::write(mixed.join("bad.md"), b"\x00\xff\xfe").unwrap();
                std::fs::write(mixed.join("nul.md"), "# a\0b\n").unwrap();
                self.add(&mixed, "mixed", &self.scratch.join("lib2"))
            }
            Input::Archive(file, _) => self.add(&self.archive(file), "arc", &self.lib),
            Input::MixedArchive(file, _) => {
                self.add(&self.archive(&format!("mixed-{file}")), "mixed", &self.scratch.join("lib2"))
            }
            Input::Docset(_, plist, sql) => {
                let root = self.scratch.join("Hostile.docset");
                let docs = root.join("Contents/Resources/Documents");
                std::fs::create_dir_all(&docs).unwrap();
                std::fs::write(root.join("Contents/Info.plist"), plist).unwrap();
                std::fs::write(
                    docs.join("index.html"),
                    "<html><body><h1>Index</h1><p>Hello.</p></body></html>",
                )
                .unwrap();
                let db = rusqlite::Connection::open(root.join("Contents/Resources/docSet.dsidx")).unwrap();
                db.execute_batch(sql).unwrap();
                drop(db);
                self.add(&root, "hostile", &self.scratch.join("lib2"))
            }
            Input::ClosedPipe(args) => Observed::output(&bin::into_a_closed_pipe(&self.lib, args)),
            Input::ReadOnly(args) => {
                let ro = ReadOnlyMount::of(&self.lib).expect("checked by `check`");
                let mut observed = Observed::output(&bin::run(&ro.at, args));
                observed.message = observed.message.replace(&ro.at.display().to_string(), "$LIB");
                observed
            }
        }
    }

    /// Makes archive `name` (see `ARCHIVES`) in the scratch folder.
    fn archive(&self, name: &str) -> PathBuf {
        let dir = self.scratch.join("archives");
        std::fs::create_dir_all(&dir).unwrap();
        let out = Command::new("python3").arg("-c").arg(ARCHIVES).arg(&dir).arg(name).output().unwrap();
        assert!(out.status.success(), "python: {}", String::from_utf8_lossy(&out.stderr));
        dir.join(name)
    }

    /// Temporary paths, the generation and ephemeral ports replaced, so the
    /// snapshot is the same on every run.
    fn normalise(&self, text: &str) -> String {
        let t = text
            .replace(&self.lib.display().to_string(), "$LIB")
            .replace(&self.scratch.display().to_string(), "$TMP")
            .replace(&self.generation, "$GEN");
        // Ports after any host (`127.0.0.1:NNNNN`, `localhost:NNNNN`,
        // `attacker.example:NNNNN`) → `$PORT`.
        let mut out = String::new();
        let mut rest = t.as_str();
        while let Some(i) = rest.find(':') {
            let after_host = rest[..i].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric());
            let digits = rest[i + 1..].bytes().take_while(u8::is_ascii_digit).count();
            out.push_str(&rest[..=i]);
            rest = &rest[i + 1..];
            if after_host && (4..=5).contains(&digits) {
                out.push_str("$PORT");
                rest = &rest[digits..];
            }
        }
        out.push_str(rest);
        // Control characters (a NUL in a message) escaped, so the snapshot is text.
        out.chars()
            .map(|c| if c.is_control() && c != '\n' { c.escape_debug().to_string() } else { c.to_string() })
            .collect()
    }
}

/// At most 120 characters of `bytes` on one line (control characters
/// escaped), with the full length where they were cut.
fn cut(bytes: &[u8]) -> String {
    let text: String = String::from_utf8_lossy(bytes)
        .chars()
        .take(120)
        .map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() })
        .collect();
    if bytes.len() > 120 { format!("{text} … ({} bytes)", bytes.len()) } else { text }
}

/// How a case's input reads in its snapshot (placeholders unfilled, long
/// values cut).
fn shown(input: &Input) -> String {
    let request = |r: &Request| {
        if let Some(label) = &r.label {
            return label.clone();
        }
        let headers: Vec<String> = r.headers.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        format!("{} {} [{}] {}", r.method, r.target, headers.join("; "), cut(&r.body))
    };
    match input {
        Input::Cli(args) => {
            let args: Vec<String> = args.iter().map(|a| format!("{:?}", cut(a.as_encoded_bytes()))).collect();
            format!("lectern {}", args.join(" "))
        }
        Input::Api(r) | Input::Site(r) => request(r),
        Input::StdioLine(label, _) => (*label).to_owned(),
        Input::StdioTool(name, args) => format!("{name} {}", cut(args.to_string().as_bytes())),
        Input::SiteConfig(bytes) => format!("lectern.toml: {}", cut(bytes)),
        Input::Document(file, bytes) => format!("{file}: {}", cut(bytes)),
        Input::MixedDocument => "good.md beside bad.md (invalid UTF-8) and nul.md (a NUL byte)".to_owned(),
        Input::Archive(file, what) => format!("{file}: {what}"),
        Input::MixedArchive(file, what) => format!("mixed-{file}: {what} beside index.md"),
        Input::Docset(what, _, _) => format!("Hostile.docset: {what}"),
        Input::ClosedPipe(args) => format!("lectern {} | (reader already gone)", args.join(" ")),
        Input::ReadOnly(args) => format!("lectern {} (library on a read-only mount)", args.join(" ")),
    }
}

/// Runs one case: its answer must be `expect`, match its snapshot, and
/// leave the library unchanged.
fn check(name: &str, input: Input, expect: Expect) {
    let f = Fixture::new();
    if matches!(input, Input::ReadOnly(_)) && ReadOnlyMount::of(&f.scratch).is_none() {
        eprintln!("skipped: this machine allows no read-only bind mount (run the tests as root)");
        return;
    }
    let observed = f.run(&input);
    let message = f.normalise(&observed.message);
    assert_eq!(
        (observed.status, &observed.code),
        (expect.status, &expect.code),
        "{}: answered {message:?}",
        shown(&input)
    );
    assert!(
        message.contains(expect.words),
        "{}: {:?} is not in the answer {message:?}",
        shown(&input),
        expect.words
    );
    let code = match &observed.code {
        Code::None => String::new(),
        Code::Error(c) => format!(" {c}"),
        Code::Rpc(c) => format!(" JSON-RPC {c}"),
        Code::Result => " result".to_owned(),
    };
    let status = match observed.status {
        Status::Exit(c) => format!("exit {c}"),
        Status::Http(s) => format!("HTTP {s}"),
        Status::Stdio => "reply".to_owned(),
    };
    let snapshot = format!("{}\n→ {status}{code}: {message}", f.normalise(&shown(&input)));
    insta::assert_snapshot!(name, snapshot);
    assert_eq!(listing(&f.lib), f.before, "{}: the library changed", shown(&input));
    assert!(!f.tmp.path().join("escaped.md").exists(), "an archive entry escaped");
    assert!(!f.scratch.join("escaped.md").exists(), "an archive entry escaped");
    assert!(!Path::new("/tmp/lectern-absolute.md").exists(), "an absolute archive entry was written");
}

fn listing(lib: &Path) -> String {
    bin::ok(lib, &["list", "--all", "--json"])
}

/// The demo library every case copies, installed once per build of the
/// binary (keyed by its size and modification time) under a file lock, since
/// the cases run as separate processes at once.
fn template() -> PathBuf {
    static TEMPLATE: OnceLock<PathBuf> = OnceLock::new();
    TEMPLATE
        .get_or_init(|| {
            let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("robustness");
            std::fs::create_dir_all(&base).unwrap();
            let exe = std::fs::metadata(env!("CARGO_BIN_EXE_lectern")).unwrap();
            let built = exe.modified().unwrap().duration_since(std::time::UNIX_EPOCH).unwrap();
            let key = format!("demo-{}-{}", exe.len(), built.as_nanos());
            let lock = std::fs::File::create(base.join("lock")).unwrap();
            lock.lock().unwrap();
            let lib = base.join(&key);
            if !lib.exists() {
                // Templates of older builds are of no more use.
                for old in std::fs::read_dir(&base).unwrap() {
                    let old = old.unwrap().path();
                    if old.is_dir() {
                        std::fs::remove_dir_all(old).unwrap();
                    }
                }
                let partial = base.join(format!("{key}.partial"));
                bin::add_demo(&partial);
                std::fs::rename(&partial, &lib).unwrap();
            }
            lock.unlock().unwrap();
            lib
        })
        .clone()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    std::fs::set_permissions(to, std::fs::metadata(from).unwrap().permissions()).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Makes one archive, `sys.argv[2]`, in the folder `sys.argv[1]`. The
/// `mixed-` ones hold the same entries beside a good `index.md`.
const ARCHIVES: &str = r##"
import io, sys, tarfile, zipfile
d, want = sys.argv[1], sys.argv[2]
def tar(name, entries, mode="w"):
    for prefix, extra in [("", []), ("mixed-", [("index.md", b"# Good\n\nfine\n", "f")])]:
        if prefix + name != want: continue
        with tarfile.open(d + "/" + prefix + name, mode) as t:
            for n, data, kind in entries + extra:
                i = tarfile.TarInfo(n)
                if kind == "link":
                    i.type = tarfile.SYMTYPE; i.linkname = data.decode(); t.addfile(i)
                else:
                    i.size = len(data); t.addfile(i, io.BytesIO(data))
def zip(name, entries):
    for prefix in ["", "mixed-"]:
        if prefix + name != want: continue
        with zipfile.ZipFile(d + "/" + prefix + name, "w", zipfile.ZIP_DEFLATED) as z:
            for n, data in entries:
                z.writestr(n, data)
            if prefix: z.writestr("index.md", "# Good\n")
tar("traversal.tar", [("../../escaped.md", b"# evil\n", "f")])
tar("absolute.tar", [("/tmp/lectern-absolute.md", b"# evil\n", "f")])
tar("symlink.tar", [("docs/link.md", b"/etc/passwd", "link")])
tar("traversal.tar.gz", [("a/../../../escaped.md", b"# evil\n", "f")], "w:gz")
zip("traversal.zip", [("../../escaped.md", "# evil\n")])
zip("bomb.zip", [("bomb.md", b"\0" * (64 * 1024 * 1024))])
if want == "expanding.zip":
    with zipfile.ZipFile(d + "/" + want, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("docs/index.md", "# Hi\n\nHello.\n")
        for i in range(40): z.writestr("docs/z%d.md" % i, b"\0" * (8 << 20))
if want == "garbage.tar.gz": open(d + "/" + want, "wb").write(b"\x1f\x8b\x08\x00not really gzip")
if want == "truncated.zip": open(d + "/" + want, "wb").write(b"PK\x03\x04\x14\x00\x00\x00")
"##;

// --- the matrix --------------------------------------------------------------

/// One `#[test]` per row, in a module named after the face; its snapshot
/// is `robustness__<face>__<case>`.
macro_rules! cases {
    ($face:ident { $($name:ident: $input:expr => $expect:expr;)* }) => {
        mod $face {
            use super::*;
            $(
                #[test]
                fn $name() {
                    check(concat!(stringify!($face), "__", stringify!($name)), $input, $expect);
                }
            )*
        }
    };
}

cases!(cli {
    search_empty_text: cli(&["search", ""]) => exit(1, "text is empty");
    search_blank_text: cli(&["search", "   "]) => exit(1, "text is empty");
    search_text_too_long: cli(&["search", &"x".repeat(300)]) => exit(1, "text is 300 characters long; at most 256");
    search_limit_zero: cli(&["search", "x", "--limit", "0"]) => exit(1, "limit 0 is out of range: allowed 1 to 50");
    search_limit_too_high: cli(&["search", "x", "--limit", "51"]) => exit(1, "limit 51 is out of range: allowed 1 to 50");
    search_offset_too_high: cli(&["search", "x", "--offset", "10001"]) => exit(1, "offset 10001 is out of range: allowed 0 to 10000");
    search_limit_not_a_number: cli(&["search", "x", "--limit", "abc"]) => exit(2, "invalid value 'abc' for '--limit <1-50>': `abc` is not a whole number");
    search_unknown_project: cli(&["search", "x", "--project", "nope"]) => exit(1, "project \"nope\" is not installed");
    search_unknown_version_prefix: cli(&["search", "acme99: install"]) => exit(1, "app has no enabled version \"99\"");
    search_bad_locale_filter: cli(&["search", "locale:xx-!! x"]) => exit(1, "locale \"xx-!!\" is not installed");
    search_stale_generation: cli(&["search", "x", "--generation", "stale-generation"]) => exit(1, "generation stale-generation is gone");
    search_invalid_utf8: cli_bytes(&[b"search", b"caf\xff"]) => exit(2, "invalid UTF-8 was detected");
    search_rtl_and_combining_marks: cli(&["search", "\u{202e}\u{0645}\u{0631}\u{062d}e\u{0301}\u{0301}\u{0301}"]) => exit(0, "0 of 0 results");
    read_missing_page: cli(&["read", "/no/such/page"]) => exit(1, "no page at /no/such/page");
    read_missing_section: cli(&["read", "--section", "ffffffffffffffff"]) => exit(1, "no section \"ffffffffffffffff\"");
    read_offset_past_the_end: cli(&["read", "--section", "{section}", "--offset", "99999999"]) => exit(1, "offset 99999999 is past the end");
    read_limit_zero: cli(&["read", "--section", "{section}", "--limit", "0"]) => exit(1, "limit 0 is out of range: allowed 1 to 50000");
    enable_unknown_edition: cli(&["enable", "nope@1/en"]) => exit(1, "no edition \"nope@1/en\" is installed");
    disable_incomplete_edition_id: cli(&["disable", "app@2"]) => exit(1, "edition id \"app@2\" is not of the form");
    remove_path_traversal_id: cli(&["remove", "../../etc"]) => exit(1, "edition id \"../../etc\" is not of the form");
    config_bad_locale: cli(&["config", "set", "default.locale", "??"]) => exit(1, "invalid locale \"??\"");
    config_unknown_key: cli(&["config", "set", "no.such.key", "1"]) => exit(1, "unknown setting \"no.such.key\"");
    list_unknown_flag: cli(&["list", "--bogus"]) => exit(2, "unexpected argument '--bogus'");
    unknown_command: cli(&["frobnicate"]) => exit(2, "unrecognized subcommand 'frobnicate'");
    search_into_a_closed_pipe: Input::ClosedPipe(&["search", "install"]) => exit(0, "");
    search_json_into_a_closed_pipe: Input::ClosedPipe(&["search", "install", "--json"]) => exit(0, "");
    read_into_a_closed_pipe: Input::ClosedPipe(&["read", "/app"]) => exit(0, "");
    read_only_library_repair: Input::ReadOnly(&["repair"]) => exit(1, "is read-only");
    read_only_library_config_set: Input::ReadOnly(&["config", "set", "default.locale", "en"]) => exit(1, "is read-only");
    add_missing_source: cli(&["add", "/no/such/source", "--project", "p", "--version", "1", "--locale", "en"]) => exit(1, "/no/such/source: no such file or directory");
});

cases!(local_api {
    no_key: api("GET", "/v1/editions", &[], "") => http(401, "unauthorized", "authentication required");
    wrong_key: api("GET", "/v1/editions", &[("Authorization", "Bearer wrong")], "") => http(401, "unauthorized", "the access key is wrong");
    foreign_host: api("GET", "/v1/editions", &[AUTH, ("Host", "evil.example")], "") => http(403, "forbidden", "Host \"evil.example\" is not this server");
    foreign_host_with_our_port: api("GET", "/v1/editions", &[AUTH, ("Host", "attacker.example:{port}")], "") => http(403, "forbidden", "Host \"attacker.example:$PORT\" is not this server");
    foreign_origin: api("GET", "/v1/editions", &[AUTH, ("Origin", "https://evil.example")], "") => http(403, "forbidden", "requests from the page at \"https://evil.example\" are not allowed");
    body_not_json: api("POST", "/v1/search", &[AUTH, JSON], "{not json") => http(400, "invalid_argument", "bad JSON body: Failed to parse");
    text_not_a_string: api("POST", "/v1/search", &[AUTH, JSON], r#"{"text": 5}"#) => http(400, "invalid_argument", "invalid type: integer `5`, expected a string");
    body_too_large: api("POST", "/v1/search", &[AUTH, JSON], format!("{{\"text\":\"{}\"}}", "y".repeat(3 << 20))) => http(413, "too_large", "at most 65536 are allowed");
    limit_zero: api("POST", "/v1/search", &[AUTH, JSON], r#"{"text":"install","limit":0}"#) => http(400, "invalid_argument", "limit 0 is out of range");
    offset_too_high: api("POST", "/v1/search", &[AUTH, JSON], r#"{"text":"install","offset":10001}"#) => http(400, "invalid_argument", "offset 10001 is out of range");
    text_only_nul_bytes: api("POST", "/v1/search", &[AUTH, JSON], r#"{"text":"\u0000\u0000"}"#) => http(400, "invalid_argument", "the query holds a control character (U+0000); give printable text only");
    stale_generation: api("POST", "/v1/search", &[AUTH, JSON], r#"{"text":"install","generation":"old"}"#) => http(409, "generation_changed", "generation old is gone");
    body_invalid_utf8: api("POST", "/v1/search", &[AUTH, JSON], &b"{\"text\":\"caf\xff\"}"[..]) => http(400, "invalid_argument", "invalid unicode code point");
    query_invalid_utf8: api("GET", "/v1/search?text=%FF%FE", &[AUTH], "") => http(400, "invalid_argument", "the query has no search words");
    missing_section: api("GET", "/v1/section?section_key=ffffffffffffffff", &[AUTH], "") => http(404, "not_found", "no section \"ffffffffffffffff\"");
    section_offset_past_the_end: api("GET", "/v1/section?section_key={section}&offset=99999999", &[AUTH], "") => http(400, "invalid_argument", "offset 99999999 is past the end");
    section_offset_negative: api("GET", "/v1/section?section_key={section}&offset=-1", &[AUTH], "") => http(400, "invalid_argument", "offset -1 is past the end");
    page_path_traversal: api("GET", "/v1/page?path=/app/../../etc/passwd", &[AUTH], "") => http(404, "not_found", "no page at /app/../../etc/passwd");
    page_path_with_nul: api("GET", "/v1/page?path=%2Fapp%00x", &[AUTH], "") => http(400, "invalid_argument", "is not a site path: a site path has at most 1024 bytes and no control characters");
    toc_without_edition: api("GET", "/v1/toc", &[AUTH], "") => http(400, "invalid_argument", "missing field `edition`");
    toc_unknown_edition: api("GET", "/v1/toc?edition=nope@1/en", &[AUTH], "") => http(404, "not_found", "no edition \"nope@1/en\" is installed");
    toc_malformed_edition: api("GET", "/v1/toc?edition=..%2F..%2Fetc", &[AUTH], "") => http(400, "invalid_argument", "edition id \"../../etc\" is not of the form");
    enable_unknown_edition: api("POST", "/v1/editions/enable", &[AUTH, JSON], r#"{"edition":"nope@1/en"}"#) => http(404, "not_found", "no edition \"nope@1/en\" is installed");
    remove_without_edition: api("POST", "/v1/editions/remove", &[AUTH, JSON], "{}") => http(400, "invalid_argument", "missing field `edition`");
    challenge_empty_nonce: api("POST", "/auth/challenge", &[JSON], r#"{"nonce":""}"#) => http(400, "invalid_argument", "nonce is 0 bytes long");
    two_host_headers: api("GET", "/v1/editions", &[AUTH, ("Host", "127.0.0.1:{port}"), ("Host", "evil.example")], "") => http(400, "invalid_argument", "the request names its Host more than once");
    unknown_endpoint: api("GET", "/v1/no-such-endpoint", &[AUTH], "") => http(404, "not_found", "no endpoint GET /v1/no-such-endpoint");
});

cases!(stdio_mcp {
    garbage_line: line("garbage line `{not json`", "{not json\n") => rpc(-32700, "parse error: key must be a string");
    invalid_utf8_line: line("invalid UTF-8 line", &b"\xff\xfe\xfd\n"[..]) => rpc(-32700, "parse error: expected value");
    nul_bytes_line: line("NUL bytes line", &b"\x00\x00\x00\n"[..]) => rpc(-32700, "parse error: expected value");
    line_too_long: line("line of 300,000 bytes", {
        let mut v = br#"{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"search_documentation","arguments":{"text":""#.to_vec();
        v.extend(std::iter::repeat_n(b'a', 300_000));
        v.extend_from_slice(b"\"}}}\n");
        v
    }) => rpc(-32600, "at most 262144 bytes per line");
    empty_batch: line("empty batch `[]`", "[]\n") => rpc(-32600, "an empty batch is not a valid request");
    request_without_jsonrpc: line("request without jsonrpc", "{\"id\":5,\"method\":\"ping\"}\n") => rpc(-32600, "it needs \"jsonrpc\": \"2.0\"");
    unknown_method: line("unknown method", "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/list\"}\n") => rpc(-32601, "resources/list");
    deeply_nested_json: line("deeply nested JSON (10,000 arrays)", format!("{}{}\n", "[".repeat(10_000), "]".repeat(10_000))) => rpc(-32700, "recursion limit exceeded");
    search_empty_text: tool("search_documentation", json!({"text": ""})) => tool_error("invalid_argument", "text is empty");
    search_text_too_long: tool("search_documentation", json!({"text": "x".repeat(257)})) => tool_error("invalid_argument", "text is 257 characters long; at most 256");
    search_limit_too_high: tool("search_documentation", json!({"text": "install", "limit": 999})) => tool_error("invalid_argument", "limit 999 is out of range");
    search_offset_negative: tool("search_documentation", json!({"text": "install", "offset": -5})) => tool_error("invalid_argument", "offset -5 is out of range");
    search_unknown_branch: tool("search_documentation", json!({"text": "install", "branch": "99"})) => tool_error("invalid_argument", "version \"99\" of app is not installed");
    search_text_not_a_string: tool("search_documentation", json!({"text": 42})) => tool_error("invalid_argument", "invalid type: integer `42`, expected a string");
    search_nul_rtl_and_combining: tool("search_documentation", json!({"text": "install\u{0000}\u{202e}e\u{0301}"})) => tool_error("invalid_argument", "control character (U+0000)");
    search_rtl_and_combining: tool("search_documentation", json!({"text": "install\u{202e}e\u{0301}"})) => tool_result("\"hits\":[]");
    search_stale_generation: tool("search_documentation", json!({"text": "install", "generation": "old"})) => tool_error("generation_changed", "generation old is gone");
    load_missing_section: tool("load_documentation_page", json!({"section_key": "ffffffffffffffff", "generation": "{generation}"})) => tool_error("not_found", "no section \"ffffffffffffffff\"");
    load_offset_past_the_end: tool("load_documentation_page", json!({"section_key": "{section}", "generation": "{generation}", "offset": 99_999_999})) => tool_error("invalid_argument", "offset 99999999 is past the end");
    load_limit_too_high: tool("load_documentation_page", json!({"section_key": "{section}", "generation": "{generation}", "limit": 50_001})) => tool_error("invalid_argument", "limit 50001 is out of range: allowed 1 to 50000");
    load_stale_generation: tool("load_documentation_page", json!({"section_key": "{section}", "generation": "stale"})) => tool_error("generation_changed", "call search_documentation again");
    load_dash_load_url: tool("load_documentation_page", json!({"load_url": "dash://x"})) => tool_error("invalid_argument", "unknown field `load_url`");
    list_stale_generation: tool("list_installed_docsets", json!({"generation": "stale"})) => tool_error("generation_changed", "generation stale is gone");
    unknown_tool: tool("no_such_tool", json!({})) => rpc(-32602, "no tool named \"no_such_tool\": this server's tools are list_installed_docsets, load_documentation_page, search_documentation");
});

cases!(site_mcp {
    list_limit_too_high: site_tool("list_pages", json!({"limit": 500})) => site_error("invalid_argument", "limit 500 is out of range: allowed 1 to 100");
    list_limit_zero: site_tool("list_pages", json!({"limit": 0})) => site_error("invalid_argument", "limit 0 is out of range: allowed 1 to 100");
    list_cursor_without_slash: site_tool("list_pages", json!({"cursor": "no-slash"})) => site_error("invalid_argument", "cursor \"no-slash\" is not valid");
    list_cursor_with_control_character: site_tool("list_pages", json!({"cursor": "/a\u{1}b"})) => site_error("invalid_argument", "cursor \"/a\\u{1}b\" is not valid");
    list_unknown_prefix: site_tool("list_pages", json!({"prefix": "/nope"})) => site_error("invalid_argument", "prefix \"/nope\" is not the prefix of a published version");
    search_empty_term: site_tool("search_docs", json!({"term": ""})) => site_error("invalid_argument", "term is empty");
    search_term_too_long: site_tool("search_docs", json!({"term": "z".repeat(300)})) => site_error("invalid_argument", "term is 300 characters long; at most 256");
    search_rtl_and_combining: site_tool("search_docs", json!({"term": "\u{202e}e\u{0301}\u{0301}"})) => http_result("\"pages\":[]");
    read_path_traversal: site_tool("read_page", json!({"path": "/app/../../etc/passwd"})) => site_error("not_found", "no page at /app/../../etc/passwd");
    read_path_with_nul: site_tool("read_page", json!({"path": "/app\u{0}"})) => site_error("invalid_argument", "is not a site path");
    read_without_path: site_tool("read_page", json!({})) => site_error("invalid_argument", "missing field `path`");
    read_unknown_argument: site_tool("read_page", json!({"path": "/app", "locale": "en"})) => site_error("invalid_argument", "unknown field `locale`");
    versions_with_an_argument: site_tool("list_versions", json!({"prefix": "/app"})) => site_error("invalid_argument", "unknown field `prefix`");
    versions_without_arguments: site_tool("list_versions", json!({})) => http_result("\"versions\"");
    unknown_site_tool: site_tool("search_documentation", json!({"text": "x"})) => http_rpc(200, -32602, "no tool named \"search_documentation\": this server's tools are list_pages, list_versions, read_page, search_docs");
    body_not_json: site("POST", "/mcp", &MCP_HEADERS, "{not json") => http_rpc(400, -32700, "parse error: the body is not JSON");
    body_too_large: site_tool("search_docs", json!({"term": "q".repeat(2 << 20)})) => http_rpc(413, -32600, "request body exceeds 1048576 bytes");
    foreign_host: {
        let mut r = site_tool_request("list_versions", json!({}));
        r.headers.push(("Host", "evil.example"));
        r.label = r.label.map(|l| l + " [Host: evil.example]");
        Input::Site(r)
    } => page(403, "<title>403 Forbidden</title>");
    two_host_headers: site("GET", "/healthz", &[("Host", "127.0.0.1:{port}"), ("Host", "evil.example")], "") => page(400, "<title>400 Bad Request</title>");
    private_api_on_the_public_site: site("GET", "/v1/editions", &[], "") => page(404, "<title>404 Not Found</title>");
});

cases!(site_config {
    empty_file: config("") => exit(1, "site: missing; a [site] table with at least `name` is required");
    not_toml: config("[site\nname = ") => exit(1, "$TMP/lectern.toml:1: -: unclosed table");
    not_utf8: config(&b"[site]\nname = \"\xff\"\n"[..]) => exit(1, "lectern.toml:0: -: not valid UTF-8");
    unknown_key: config("[site]\nname = \"x\"\nbogus = 1\n") => exit(1, "lectern.toml:3: site.bogus: unknown key");
    name_is_a_number: config("[site]\nname = 5\n") => exit(1, "lectern.toml:2: site.name: expected a string, found integer");
    bad_locale: config("[site]\nname = \"x\"\n[[editions]]\nproject = \"a\"\nversion = \"1\"\nlocale = \"zz-!!\"\nsource = \"d\"\n") => exit(1, "editions[0].locale: invalid locale \"zz-!!\"");
    prefix_with_dot_dot: edition_config("prefix = \"/a/../b\"") => exit(1, "editions[0].prefix: invalid prefix \"/a/../b\"");
    missing_source_folder: config("[site]\nname = \"x\"\n[[editions]]\nproject = \"a\"\nversion = \"1\"\nlocale = \"en\"\nsource = \"no-such-folder\"\n") => exit(1, "$TMP/no-such-folder: no such file or directory");
    unknown_status: edition_config("status = \"ancient\"") => exit(1, "editions[0].status: invalid status \"ancient\"");
    deeply_nested_arrays: config(format!("[site]\nname = \"x\"\nextra = {}{}\n", "[".repeat(5000), "]".repeat(5000))) => exit(1, "cannot recurse further");
    missing_file: cli(&["add", "--site", "/no/such/lectern.toml"]) => exit(1, "/no/such/lectern.toml:0: -: cannot read");
});

cases!(document {
    invalid_utf8_markdown: Input::Document("bad.md", b"# ok\n\xff\xfe\n".to_vec()) => exit(1, "no pages found; 1 files skipped: bad.md: not valid UTF-8");
    frontmatter_over_64_kib: Input::Document("big.md", format!("---\ntitle: x\nblob: {}\n---\n# x\n", "a".repeat(70_000)).into_bytes()) => exit(1, "big.md: bad frontmatter: over 64 KiB");
    frontmatter_nested_100_deep: Input::Document("deep.md", format!("---\na: {}{}\n---\n# x\n", "[".repeat(100), "]".repeat(100)).into_bytes()) => exit(1, "deep.md: bad frontmatter: nested deeper than 32 levels");
    file_over_10_mib: Input::Document("huge.md", vec![b'a'; 10 * 1024 * 1024 + 1]) => exit(1, "huge.md: file is over 10485760 bytes");
    not_a_documentation_file: Input::Document("x.bin", vec![0u8; 64]) => exit(1, "cannot tell the format (no Markdown or HTML files)");
    roff_manual_page: Input::Document("ls.1", b".TH LS 1\n.SH NAME\nls \\- list directory contents\n".to_vec()) => exit(1, "holds manual pages in roff (1 in all, e.g. ls.1), which Lectern does not read; convert them to HTML first");
    html_of_100000_self_closed_divs: Input::Document("divs.html", "<div/>".repeat(100_000).into_bytes()) => exit(1, "divs.html: HTML elements nested deeper than 1000");
    markdown_name_with_a_control_character: Input::Document("bad\u{1}name.md", b"# x\n".to_vec()) => exit(1, "1 files skipped: bad\\u{1}name.md: its page path \"/bad/bad\\u{1}name\" cannot be served");
    docset_endless_view: Input::Docset("searchIndex is a view over an endless recursive CTE", PLIST, ENDLESS_NAMELESS_VIEW.to_owned()) => exit(1, "refusing this docset: its index has more than 2000000 rows (rows without a name count too)");
    docset_multiplying_join: Input::Docset("Core Data index whose join has 300^4 rows", PLIST, multiplying_join()) => exit(1, "refusing this docset: its index has more than 2000000 rows");
    docset_malformed_info_plist: Input::Docset("Info.plist cut off mid-key", "<plist><dict><key>CFBundleName", ONE_ROW_INDEX.to_owned()) => exit(0, "skipped Contents/Info.plist: not a readable property list");
    bad_files_beside_a_good_one: Input::MixedDocument => exit(0, "skipped bad.md: not valid UTF-8");
});

cases!(archive {
    tar_path_traversal: Input::Archive("traversal.tar", "tar entry ../../escaped.md") => exit(1, "traversal.tar: cannot tell the format (no Markdown or HTML files)");
    tar_absolute_path: Input::Archive("absolute.tar", "tar entry /tmp/lectern-absolute.md") => exit(1, "absolute.tar: cannot tell the format (no Markdown or HTML files)");
    tar_symlink: Input::Archive("symlink.tar", "tar symlink docs/link.md → /etc/passwd") => exit(1, "symlink.tar: cannot tell the format (no Markdown or HTML files)");
    tar_gz_path_traversal: Input::Archive("traversal.tar.gz", "tar.gz entry a/../../../escaped.md") => exit(1, "traversal.tar.gz: cannot tell the format (no Markdown or HTML files)");
    zip_path_traversal: Input::Archive("traversal.zip", "zip entry ../../escaped.md") => exit(1, "traversal.zip: cannot tell the format (no Markdown or HTML files)");
    zip_bomb: Input::Archive("bomb.zip", "zip bomb: 64 MiB of zeros in a 64 KiB entry") => exit(1, "bomb.zip: cannot tell the format (no Markdown or HTML files)");
    zip_bomb_of_many_entries: Input::Archive("expanding.zip", "zip bomb: 40 entries of 8 MiB of zeros in under 1 MiB") => exit(1, "an archive may expand to 50 times its size or 67108864 bytes, whichever is more; refusing it");
    gzip_header_then_garbage: Input::Archive("garbage.tar.gz", "gzip header then garbage") => exit(1, "garbage.tar.gz: not a readable tar archive");
    truncated_zip: Input::Archive("truncated.zip", "truncated zip") => exit(1, "truncated.zip: not a readable zip archive");
    mixed_tar_path_traversal: Input::MixedArchive("traversal.tar", "tar: ../../escaped.md") => exit(0, "skipped ../../escaped.md: entry path contains '..'");
    mixed_tar_absolute_path: Input::MixedArchive("absolute.tar", "tar: /tmp/lectern-absolute.md") => exit(0, "skipped /tmp/lectern-absolute.md: entry path is absolute");
    mixed_tar_symlink: Input::MixedArchive("symlink.tar", "tar: symlink to /etc/passwd") => exit(0, "skipped docs/link.md: links are not extracted");
    mixed_tar_gz_path_traversal: Input::MixedArchive("traversal.tar.gz", "tar.gz: a/../../../escaped.md") => exit(0, "skipped a/../../../escaped.md: entry path contains '..'");
    mixed_zip_path_traversal: Input::MixedArchive("traversal.zip", "zip: ../../escaped.md") => exit(0, "skipped ../../escaped.md: entry path contains '..'");
    mixed_zip_bomb: Input::MixedArchive("bomb.zip", "zip: 64 MiB bomb.md") => exit(0, "skipped bomb.md: file is over 10485760 bytes");
});

/// Regression (found by the matrix): stdio tool arguments rmcp cannot decode
/// (`{"text": 42}`, Dash's `load_url`) came back as a bare `isError` text
/// without the `{"error":{"code","message"}}` every tool error carries.
/// Decoding fails before the local API is asked, so no server is needed.
#[test]
fn tool_argument_errors_lack_structured_content() {
    let tmp = tempfile::tempdir().unwrap();
    let mut m = Mcp::initialized(tmp.path(), "2025-06-18");
    for (i, (tool, args, field)) in [
        ("search_documentation", json!({"text": 42}), "integer"),
        ("load_documentation_page", json!({"load_url": "dash://x"}), "load_url"),
    ]
    .into_iter()
    .enumerate()
    {
        let result = m.tool(i as u64 + 1, tool, args);
        assert_eq!(result["isError"], true, "{result}");
        assert_eq!(result["structuredContent"]["error"]["code"], "invalid_argument", "{result}");
        let message = result["structuredContent"]["error"]["message"].as_str().unwrap();
        assert!(message.contains(field), "{message}");
    }
}
