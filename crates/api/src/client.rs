//! A tiny blocking HTTP/1.1 client for the local API, for `lectern open`,
//! `lectern doctor` and the stdio MCP bridge: it re-reads the discovery files,
//! checks the server's challenge proof before it sends the key, connects only
//! to 127.0.0.1, uses no proxy, follows no redirect, keeps no cookie, and caps
//! time (8 s) and response size (4 MiB).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::challenge;
use crate::discovery::{self, Discovery, DiscoveryError};

pub const TIMEOUT: Duration = Duration::from_secs(8);
pub const MAX_RESPONSE: usize = 4 * 1024 * 1024;

/// Why a call to the local API failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    #[error("the local API at 127.0.0.1:{port} is unavailable: {reason}; is `lectern serve` running?")]
    Unavailable { port: u16, reason: String },
    #[error(
        "the server at 127.0.0.1:{port} failed the challenge: {reason}; the key was not sent. Another program may hold the port: stop it and restart `lectern serve`"
    )]
    ChallengeFailed { port: u16, reason: String },
    #[error("{message} ({code}, HTTP {status})")]
    Api { status: u16, code: String, message: String, generation: Option<String> },
    #[error("bad answer from the local API: {0}")]
    Protocol(String),
}

impl ClientError {
    /// A stable short code.
    pub fn code(&self) -> String {
        match self {
            ClientError::Discovery(e) => e.code().to_owned(),
            ClientError::Unavailable { .. } => "unavailable".into(),
            ClientError::ChallengeFailed { .. } => "challenge_failed".into(),
            ClientError::Api { code, .. } => code.clone(),
            ClientError::Protocol(_) => "protocol".into(),
        }
    }
}

/// A server found through the discovery files.
#[derive(Debug, Clone)]
pub struct Client {
    discovery: Discovery,
}

/// A raw answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Client {
    /// Reads the discovery files and checks the challenge.
    pub fn connect(user_data: &Path) -> Result<Client, ClientError> {
        let client = Client { discovery: discovery::read(user_data)? };
        client.challenge()?;
        Ok(client)
    }

    /// Wraps discovery data without checking anything yet.
    pub fn unchecked(discovery: Discovery) -> Client {
        Client { discovery }
    }

    pub fn discovery(&self) -> &Discovery {
        &self.discovery
    }

    pub fn port(&self) -> u16 {
        self.discovery.status.port
    }

    /// Sends a fresh nonce and checks the proof against the key, pid and port.
    pub fn challenge(&self) -> Result<(), ClientError> {
        let nonce = challenge::random_hex();
        let body = serde_json::json!({ "nonce": nonce });
        let answer = self.send("POST", "/auth/challenge", Some(&body), false)?;
        let port = self.port();
        let failed = |reason: String| ClientError::ChallengeFailed { port, reason };
        if answer.status != 200 {
            return Err(failed(format!("it answered HTTP {}", answer.status)));
        }
        let v: Value = serde_json::from_slice(&answer.body).map_err(|e| failed(e.to_string()))?;
        let proof = v["proof"].as_str().ok_or_else(|| failed("no proof in the answer".into()))?;
        let s = &self.discovery.status;
        if !challenge::verify(&self.discovery.access_key, &nonce, s.pid, s.port, proof) {
            return Err(failed("the proof does not match the access key, pid and port".into()));
        }
        Ok(())
    }

    /// An authenticated GET; `path` includes the query string.
    pub fn get(&self, path: &str) -> Result<Value, ClientError> {
        json_of(self.send("GET", path, None, true)?)
    }

    /// An authenticated POST with a JSON body.
    pub fn post(&self, path: &str, body: &Value) -> Result<Value, ClientError> {
        json_of(self.send("POST", path, Some(body), true)?)
    }

    /// One request on a fresh connection.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        auth: bool,
    ) -> Result<Answer, ClientError> {
        let port = self.port();
        let unavailable = |reason: String| ClientError::Unavailable { port, reason };
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(2))
            .map_err(|e| unavailable(e.to_string()))?;
        stream.set_read_timeout(Some(TIMEOUT)).map_err(|e| unavailable(e.to_string()))?;
        stream.set_write_timeout(Some(TIMEOUT)).map_err(|e| unavailable(e.to_string()))?;
        let body = body.map(|b| serde_json::to_vec(b).expect("JSON serializes")).unwrap_or_default();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nAccept: application/json\r\n"
        );
        if auth {
            head.push_str(&format!("Authorization: Bearer {}\r\n", self.discovery.access_key));
        }
        if method != "GET" {
            head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        stream
            .write_all(head.as_bytes())
            .and_then(|()| stream.write_all(&body))
            .map_err(|e| unavailable(e.to_string()))?;
        let mut raw = Vec::new();
        stream
            .take(MAX_RESPONSE as u64 + 64 * 1024)
            .read_to_end(&mut raw)
            .map_err(|e| unavailable(format!("reading the answer: {e}")))?;
        parse_response(&raw)
    }
}

fn json_of(answer: Answer) -> Result<Value, ClientError> {
    let v: Value = serde_json::from_slice(&answer.body).map_err(|e| {
        ClientError::Protocol(format!("HTTP {} with a body that is not JSON: {e}", answer.status))
    })?;
    if answer.status == 200 {
        return Ok(v);
    }
    let e = &v["error"];
    Err(ClientError::Api {
        status: answer.status,
        code: e["code"].as_str().unwrap_or("internal").to_owned(),
        message: e["message"].as_str().unwrap_or("no message").to_owned(),
        generation: e["generation"].as_str().map(str::to_owned),
    })
}

/// Parses a raw HTTP/1.1 answer (status, chunked or sized body, 4 MiB cap).
pub fn parse_response(raw: &[u8]) -> Result<Answer, ClientError> {
    let protocol = |m: &str| ClientError::Protocol(m.to_owned());
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(|| protocol("no end of headers"))?;
    let head = std::str::from_utf8(&raw[..split]).map_err(|_| protocol("headers are not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| protocol("no status code"))?;
    let mut chunked = false;
    let mut length = None;
    for line in lines {
        if let Some((k, v)) = line.split_once(':') {
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
            if k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked") {
                chunked = true;
            } else if k == "content-length" {
                length = v.parse::<usize>().ok();
            }
        }
    }
    let rest = &raw[split + 4..];
    let body = if chunked {
        dechunk(rest).ok_or_else(|| protocol("bad chunked body"))?
    } else {
        match length {
            Some(n) if n <= rest.len() => rest[..n].to_vec(),
            Some(_) => return Err(protocol("the body is shorter than its Content-Length")),
            None => rest.to_vec(),
        }
    };
    if body.len() > MAX_RESPONSE {
        return Err(protocol("the answer is larger than 4 MiB"));
    }
    Ok(Answer { status, body })
}

fn dechunk(mut rest: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = rest.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&rest[..line_end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        if rest.len() < size + 2 || out.len() + size > MAX_RESPONSE {
            return None;
        }
        out.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

/// Encodes query parameters (`?a=1&b=x%20y`), skipping `None`s.
pub fn query(pairs: &[(&str, Option<&str>)]) -> String {
    let present: Vec<(&str, &str)> = pairs.iter().filter_map(|(k, v)| v.map(|v| (*k, v))).collect();
    if present.is_empty() {
        return String::new();
    }
    format!("?{}", serde_urlencoded::to_string(present).expect("strings encode"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_parse_with_length_or_chunks() {
        let a = parse_response(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}").unwrap();
        assert_eq!((a.status, a.body.as_slice()), (200, &b"{}"[..]));
        let b = parse_response(
            b"HTTP/1.1 404 Not Found\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        )
        .unwrap();
        assert_eq!((b.status, b.body.as_slice()), (404, &b"{}"[..]));
        assert_eq!(query(&[("text", Some("a b&c")), ("x", None)]), "?text=a+b%26c");
    }
}
