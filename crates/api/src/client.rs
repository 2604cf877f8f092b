//! The one client of the local API, async, for the stdio MCP bridge and
//! (through [`blocking`]) `lectern open` and `lectern doctor`. It re-reads
//! the discovery files, checks the server's challenge proof before it sends
//! the key, connects only to 127.0.0.1, uses no proxy, follows no redirect,
//! keeps no cookie (a redirect means another program holds the port: a
//! Lectern local API never redirects a client's call), and caps time (8 s per call) and answers (4 MiB, with a
//! Content-Length). Dropping a call's future closes its connection, which
//! cancels a search on the server.

pub mod blocking;

use std::path::Path;
use std::time::Duration;

use lectern_library::ErrorCode;
use lectern_library::error::ErrorBody;
use serde::Serialize;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::challenge;
use crate::discovery::{self, Discovery, DiscoveryError};

/// The time limit of one call (connect, challenge and request together).
pub const TIMEOUT: Duration = Duration::from_secs(8);
/// The largest answer body accepted.
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
    ChallengeFailed { port: u16, reason: ChallengeFailure },
    /// The server's own `{"error":{"code","message"}}`.
    #[error("{message} ({code}, HTTP {status})")]
    Api { status: u16, code: ErrorCode, message: String, generation: Option<String> },
    #[error("bad answer from the local API: HTTP {status} with a body that is not JSON: {reason}")]
    NotJson { status: u16, reason: String },
    #[error("bad answer from the local API: {0}")]
    Protocol(String),
    /// Any 3xx: the address in `status.json` is held by something that is
    /// not a Lectern local API (which never redirects), so nothing follows it.
    #[error(
        "the server at 127.0.0.1:{port} (the address recorded in status.json) redirected (HTTP {status}{}), so it is not a Lectern local API; the redirect was not followed. Stop whatever holds that port and restart `lectern serve`",
        location.as_deref().map(|l| format!(" to {l}")).unwrap_or_default()
    )]
    Redirected { port: u16, status: u16, location: Option<String> },
}

/// How a server failed the challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChallengeFailure {
    /// It did not answer HTTP 200.
    Status(u16),
    /// Its answer is not JSON.
    Unreadable(String),
    /// Its answer holds no proof.
    NoProof,
    /// Its proof does not match the access key, pid and port.
    Mismatch,
}

impl std::fmt::Display for ChallengeFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChallengeFailure::Status(status) => write!(f, "it answered HTTP {status}"),
            ChallengeFailure::Unreadable(e) => f.write_str(e),
            ChallengeFailure::NoProof => f.write_str("no proof in the answer"),
            ChallengeFailure::Mismatch => {
                f.write_str("the proof does not match the access key, pid and port")
            }
        }
    }
}

/// One request: method, path with its query string, JSON body.
#[derive(Debug, Clone)]
pub struct Request {
    method: &'static str,
    path: String,
    body: Option<Vec<u8>>,
}

impl Request {
    /// A GET of `path` (with its query string, see [`query`]).
    pub fn get(path: impl Into<String>) -> Request {
        Request { method: "GET", path: path.into(), body: None }
    }

    /// A POST of `body` as JSON.
    pub fn post(path: impl Into<String>, body: &impl Serialize) -> Request {
        let body = serde_json::to_vec(body).expect("request bodies serialise");
        Request { method: "POST", path: path.into(), body: Some(body) }
    }
}

/// A server found through the discovery files.
#[derive(Debug, Clone)]
pub struct Client {
    discovery: Discovery,
}

impl Client {
    /// Wraps discovery data without checking anything yet.
    pub fn new(discovery: Discovery) -> Client {
        Client { discovery }
    }

    /// Reads the discovery files (safe modes, one owner, one link, no
    /// symlinks, live pid) without contacting the server yet.
    pub fn discover(user_data: &Path) -> Result<Client, ClientError> {
        Ok(Client::new(discovery::read(user_data)?))
    }

    /// Reads the discovery files and checks the challenge.
    pub async fn connect(user_data: &Path) -> Result<Client, ClientError> {
        let client = Client::discover(user_data)?;
        client.challenge().await?;
        Ok(client)
    }

    pub fn discovery(&self) -> &Discovery {
        &self.discovery
    }

    pub fn port(&self) -> u16 {
        self.discovery.status.port
    }

    /// Sends a fresh nonce and checks the proof against the key, pid and port.
    pub async fn challenge(&self) -> Result<(), ClientError> {
        self.within_time(async { self.proven().await.map(drop) }).await
    }

    /// Checks the challenge and sends `request` on the same connection, so
    /// the key only ever goes to the socket that proved it holds it.
    pub async fn call(&self, request: &Request) -> Result<Value, ClientError> {
        self.within_time(async {
            let mut conn = self.proven().await?;
            json_of(conn.exchange(request, Some(&self.discovery.access_key)).await?)
        })
        .await
    }

    /// Sends `request` with the key on a fresh connection without a new
    /// challenge: for a server this client has already checked.
    pub async fn call_unproven(&self, request: &Request) -> Result<Value, ClientError> {
        self.within_time(async {
            let mut conn = Conn::open(self.port()).await?;
            json_of(conn.exchange(request, Some(&self.discovery.access_key)).await?)
        })
        .await
    }

    /// A connection whose server has just proved it holds the access key.
    async fn proven(&self) -> Result<Conn, ClientError> {
        let s = &self.discovery.status;
        let mut conn = Conn::open(s.port).await?;
        let nonce = challenge::random_hex();
        let ask = Request::post("/auth/challenge", &serde_json::json!({ "nonce": nonce }));
        let answer = conn.exchange(&ask, None).await?;
        let failed = |reason| ClientError::ChallengeFailed { port: s.port, reason };
        if answer.status != 200 {
            return Err(failed(ChallengeFailure::Status(answer.status)));
        }
        let v: Value = serde_json::from_slice(&answer.body)
            .map_err(|e| failed(ChallengeFailure::Unreadable(e.to_string())))?;
        let proof = v["proof"].as_str().ok_or_else(|| failed(ChallengeFailure::NoProof))?;
        if !challenge::verify(&self.discovery.access_key, &nonce, s.pid, s.port, proof) {
            return Err(failed(ChallengeFailure::Mismatch));
        }
        Ok(conn)
    }

    async fn within_time<T>(
        &self,
        call: impl Future<Output = Result<T, ClientError>>,
    ) -> Result<T, ClientError> {
        tokio::time::timeout(TIMEOUT, call).await.unwrap_or_else(|_| {
            Err(ClientError::Unavailable {
                port: self.port(),
                reason: format!("no answer within {} s", TIMEOUT.as_secs()),
            })
        })
    }
}

/// A raw answer.
#[derive(Debug)]
struct Answer {
    status: u16,
    body: Vec<u8>,
}

/// The JSON of a 200 answer; any other status is the server's error.
fn json_of(answer: Answer) -> Result<Value, ClientError> {
    let v: Value = serde_json::from_slice(&answer.body)
        .map_err(|e| ClientError::NotJson { status: answer.status, reason: e.to_string() })?;
    if answer.status == 200 {
        return Ok(v);
    }
    let body: Option<ErrorBody> = serde_json::from_value(v.clone()).ok();
    let e = &v["error"];
    Err(ClientError::Api {
        status: answer.status,
        // A code this program does not know is the server's fault to explain.
        code: body.as_ref().map_or(ErrorCode::Internal, |b| b.error.code),
        message: e["message"].as_str().unwrap_or("no message").to_owned(),
        generation: e["generation"].as_str().map(str::to_owned),
    })
}

/// One keep-alive HTTP/1.1 connection to 127.0.0.1:port.
struct Conn {
    stream: TcpStream,
    port: u16,
    buf: Vec<u8>,
}

impl Conn {
    async fn open(port: u16) -> Result<Conn, ClientError> {
        let stream = TcpStream::connect(("127.0.0.1", port))
            .await
            .map_err(|e| ClientError::Unavailable { port, reason: e.to_string() })?;
        let _ = stream.set_nodelay(true);
        Ok(Conn { stream, port, buf: Vec::with_capacity(16 * 1024) })
    }

    /// Sends `request` (with the key, if given) and reads its whole answer.
    async fn exchange(&mut self, request: &Request, key: Option<&str>) -> Result<Answer, ClientError> {
        let port = self.port;
        let unavailable = |reason: String| ClientError::Unavailable { port, reason };
        let Request { method, path, body } = request;
        let mut head =
            format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: application/json\r\n");
        if let Some(key) = key {
            head.push_str(&format!("Authorization: Bearer {key}\r\n"));
        }
        if let Some(body) = body {
            head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body.as_deref().unwrap_or_default());
        self.stream.write_all(&bytes).await.map_err(|e| unavailable(e.to_string()))?;
        self.buf.clear();
        let mut chunk = [0u8; 16 * 1024];
        let mut head: Option<(u16, usize, usize)> = None;
        loop {
            if head.is_none()
                && let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n")
            {
                let parsed = parse_head(&self.buf[..end])?;
                if (300..400).contains(&parsed.status) {
                    return Err(ClientError::Redirected {
                        port,
                        status: parsed.status,
                        location: parsed.location,
                    });
                }
                let length = parsed
                    .length
                    .ok_or_else(|| ClientError::Protocol("the answer has no Content-Length".into()))?;
                head = Some((parsed.status, end + 4, length));
            }
            if let Some((status, start, length)) = head
                && self.buf.len() >= start + length
            {
                return Ok(Answer { status, body: self.buf[start..start + length].to_vec() });
            }
            if head.is_none() && self.buf.len() > 64 * 1024 {
                return Err(ClientError::Protocol("no end of headers".into()));
            }
            let read = self
                .stream
                .read(&mut chunk)
                .await
                .map_err(|e| unavailable(format!("reading the answer: {e}")))?;
            if read == 0 {
                return Err(unavailable("the connection closed before the whole answer arrived".into()));
            }
            self.buf.extend_from_slice(&chunk[..read]);
        }
    }
}

/// What the client reads of an answer's head.
#[derive(Debug, PartialEq, Eq)]
struct Head {
    status: u16,
    /// Required of every answer the client reads a body of.
    length: Option<usize>,
    /// A redirect's target, only to say where it pointed.
    location: Option<String>,
}

/// The status, Content-Length (4 MiB at most) and Location of an answer's head.
fn parse_head(head: &[u8]) -> Result<Head, ClientError> {
    let protocol = |m: &str| ClientError::Protocol(m.to_owned());
    let head = std::str::from_utf8(head).map_err(|_| protocol("headers are not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| protocol("no status code"))?;
    let mut parsed = Head { status, length: None, location: None };
    for line in lines {
        let Some((k, v)) = line.split_once(':') else { continue };
        let (k, v) = (k.trim(), v.trim());
        if k.eq_ignore_ascii_case("content-length") {
            parsed.length = v.parse::<usize>().ok();
        } else if k.eq_ignore_ascii_case("location") {
            parsed.location = Some(v.chars().take(200).collect());
        }
    }
    if parsed.length.is_some_and(|l| l > MAX_RESPONSE) {
        return Err(protocol("the answer is larger than 4 MiB"));
    }
    Ok(parsed)
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
    fn heads_give_status_and_length() {
        let head = |status, length| Head { status, length, location: None };
        assert_eq!(parse_head(b"HTTP/1.1 200 OK\r\ncontent-length: 2").unwrap(), head(200, Some(2)));
        assert_eq!(parse_head(b"HTTP/1.1 404 Not Found\r\nContent-Length: 17").unwrap(), head(404, Some(17)));
        assert_eq!(parse_head(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked").unwrap(), head(200, None));
        assert_eq!(
            parse_head(b"HTTP/1.1 302 Found\r\nLocation: http://example.test/").unwrap().location.as_deref(),
            Some("http://example.test/")
        );
        assert!(matches!(
            parse_head(b"HTTP/1.1 200 OK\r\ncontent-length: 99999999"),
            Err(ClientError::Protocol(_))
        ));
        assert_eq!(query(&[("text", Some("a b&c")), ("x", None)]), "?text=a+b%26c");
    }

    #[test]
    fn server_errors_keep_their_code() {
        let body = br#"{"error":{"code":"generation_changed","message":"gone","generation":"g2"}}"#.to_vec();
        let err = json_of(Answer { status: 409, body }).unwrap_err();
        assert!(
            matches!(&err, ClientError::Api { status: 409, code: ErrorCode::GenerationChanged, generation: Some(g), .. } if g == "g2"),
            "{err:?}"
        );
        let body = br#"{"error":{"code":"something_new","message":"m"}}"#.to_vec();
        let err = json_of(Answer { status: 500, body }).unwrap_err();
        assert!(matches!(&err, ClientError::Api { code: ErrorCode::Internal, .. }), "{err:?}");
    }
}
