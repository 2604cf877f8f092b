//! `lectern mcp` as an editor launches it: a child with piped stdio, raw
//! lines in, JSON-RPC messages out. Needs `mod bin;` (tests/common/bin.rs)
//! beside it.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::bin::lectern;

/// The stdio bridge for one user-data folder; killed on drop.
pub struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Mcp {
    /// Starts the bridge without a handshake.
    pub fn start(user_data: &Path) -> Mcp {
        let mut child = lectern()
            .args(["mcp", "--user-data"])
            .arg(user_data)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            // The bridge talks to 127.0.0.1 directly: a proxy in the
            // environment (here one that answers nothing) must not matter.
            .env("http_proxy", "http://127.0.0.1:9")
            .env("HTTP_PROXY", "http://127.0.0.1:9")
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Mcp { stdin: child.stdin.take(), child, lines }
    }

    /// Starts the bridge and completes the `initialize` handshake at
    /// protocol `version`, which the bridge must accept.
    pub fn initialized(user_data: &Path, version: &str) -> Mcp {
        let mut m = Mcp::start(user_data);
        let init = m.call(&json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name":"lectern-tests","version":"1"}}}));
        assert_eq!(init["result"]["protocolVersion"], version, "{init}");
        m.send(&json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        m
    }

    /// Writes `bytes` to stdin as they are (framing included).
    pub fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Writes one message as one line.
    pub fn send(&mut self, v: &Value) {
        let mut line = serde_json::to_vec(v).unwrap();
        line.push(b'\n');
        self.raw(&line);
    }

    /// The next stdout line, which must be one JSON message.
    pub fn recv(&self) -> Value {
        let line = self.lines.recv_timeout(Duration::from_secs(20)).expect("a reply within 20 s");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {line}"))
    }

    /// Whether no stdout line is waiting to be read.
    pub fn nothing_pending(&self) -> bool {
        self.lines.try_recv().is_err()
    }

    /// Sends a request and waits for the reply with its id (others are
    /// skipped).
    pub fn call(&mut self, v: &Value) -> Value {
        self.send(v);
        let id = v["id"].clone();
        loop {
            let r = self.recv();
            if r["id"] == id {
                return r;
            }
        }
    }

    /// Calls tool `name`; the reply's `result`.
    pub fn tool(&mut self, id: u64, name: &str, args: Value) -> Value {
        self.call(&tool_call(id, name, args))["result"].clone()
    }

    /// Closes stdin; how long the bridge took to exit.
    pub fn close_and_wait(mut self) -> Duration {
        let start = Instant::now();
        drop(self.stdin.take());
        loop {
            if self.child.try_wait().unwrap().is_some() {
                return start.elapsed();
            }
            assert!(start.elapsed() < Duration::from_secs(5), "did not exit after EOF");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `tools/call` request.
pub fn tool_call(id: u64, name: &str, args: Value) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":name,"arguments":args}})
}
