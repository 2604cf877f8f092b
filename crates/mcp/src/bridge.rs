//! The client side of the local API for the stdio program (seed 000's
//! security rules): every call re-reads the discovery files (safe modes, one
//! owner, one link, no symlinks, live pid), checks the server's challenge proof
//! BEFORE sending the key, talks only to 127.0.0.1 on the recorded
//! unprivileged port, with no proxy, redirect or cookie, 8 s per request and
//! 4 MiB per response. The challenge and the request share one connection,
//! so the key only ever goes to the socket that proved it. Dropping a call's
//! future closes its connection, which cancels the search on the server.

use std::path::PathBuf;

use lectern_api::challenge;
use lectern_api::client::{self as api_client, ClientError, MAX_RESPONSE, TIMEOUT};
use lectern_api::discovery::{self, Discovery};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Why a tool could not get its answer, in the shape every face uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    pub code: String,
    pub message: String,
}

impl ToolError {
    pub fn new(code: &str, message: impl Into<String>) -> ToolError {
        ToolError { code: code.to_owned(), message: message.into() }
    }
}

/// Reaches the local API of one user-data folder.
#[derive(Debug, Clone)]
pub struct Bridge {
    user_data: PathBuf,
}

impl Bridge {
    pub fn new(user_data: PathBuf) -> Bridge {
        Bridge { user_data }
    }

    /// An authenticated GET (`path` with its query string).
    pub async fn get(&self, path: &str) -> Result<Value, ToolError> {
        self.call("GET", path, None).await
    }

    /// An authenticated POST of a JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> Result<Value, ToolError> {
        self.call("POST", path, Some(body)).await
    }

    async fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, ToolError> {
        let found = discovery::read(&self.user_data).map_err(|e| unavailable(&ClientError::from(e)))?;
        let port = found.status.port;
        let exchange = async {
            let mut conn = Conn::open(port).await.map_err(|e| unavailable(&e))?;
            prove(&found, &mut conn).await?;
            // Same connection: the key goes only to the socket that proved it holds it.
            conn.exchange(method, path, body, Some(&found.access_key)).await.map_err(|e| unavailable(&e))
        };
        let answer = tokio::time::timeout(TIMEOUT, exchange).await.map_err(|_| {
            unavailable(&ClientError::Unavailable {
                port,
                reason: format!("no answer within {} s", TIMEOUT.as_secs()),
            })
        })??;
        let value: Value = serde_json::from_slice(&answer.body).map_err(|e| {
            ToolError::new(
                "internal",
                format!("the local API answered HTTP {} with a body that is not JSON: {e}", answer.status),
            )
        })?;
        if answer.status == 200 {
            return Ok(value);
        }
        let code = value["error"]["code"].as_str().unwrap_or("internal").to_owned();
        let message = value["error"]["message"].as_str().unwrap_or("no message").to_owned();
        Err(match code.as_str() {
            "generation_changed" => ToolError::new(
                "generation_changed",
                format!(
                    "{message}. The documentation changed since your search: call search_documentation again and use the section_key and generation it returns."
                ),
            ),
            "unauthorized" | "forbidden" => ToolError::new(
                "local_api_unavailable",
                format!(
                    "The local API refused this program ({message}): restart `lectern serve` and try again."
                ),
            ),
            _ => ToolError::new(&code, message),
        })
    }
}

/// Checks the server's proof of the access key over a fresh nonce; the key
/// itself is never sent to a server that fails this.
async fn prove(found: &Discovery, conn: &mut Conn) -> Result<(), ToolError> {
    let nonce = challenge::random_hex();
    let body = serde_json::json!({ "nonce": nonce });
    let failed = |reason: String| {
        ToolError::new(
            "local_api_unavailable",
            format!(
                "The server on 127.0.0.1:{} failed the identity check ({reason}), so the access key was not sent: stop whatever holds that port and restart `lectern serve`.",
                found.status.port
            ),
        )
    };
    let answer =
        conn.exchange("POST", "/auth/challenge", Some(&body), None).await.map_err(|e| unavailable(&e))?;
    if answer.status != 200 {
        return Err(failed(format!("it answered HTTP {}", answer.status)));
    }
    let v: Value = serde_json::from_slice(&answer.body).map_err(|e| failed(e.to_string()))?;
    let proof = v["proof"].as_str().ok_or_else(|| failed("no proof in its answer".into()))?;
    if !challenge::verify(&found.access_key, &nonce, found.status.pid, found.status.port, proof) {
        return Err(failed("its proof does not match the access key, pid and port".into()));
    }
    Ok(())
}

/// One keep-alive HTTP/1.1 connection to 127.0.0.1:port (no proxy, no
/// redirects followed, no cookies kept); answers must carry Content-Length
/// and stay under 4 MiB.
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

    async fn exchange(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        key: Option<&str>,
    ) -> Result<api_client::Answer, ClientError> {
        let port = self.port;
        let unavailable = |reason: String| ClientError::Unavailable { port, reason };
        let body = body.map(|b| serde_json::to_vec(b).expect("JSON serialises")).unwrap_or_default();
        let mut head =
            format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: application/json\r\n");
        if let Some(key) = key {
            head.push_str(&format!("Authorization: Bearer {key}\r\n"));
        }
        if method != "GET" {
            head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut request = head.into_bytes();
        request.extend_from_slice(&body);
        self.stream.write_all(&request).await.map_err(|e| unavailable(e.to_string()))?;

        self.buf.clear();
        let cap = MAX_RESPONSE + 64 * 1024;
        let mut chunk = [0u8; 16 * 1024];
        let mut need: Option<usize> = None;
        loop {
            if need.is_none()
                && let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n")
            {
                let length = content_length(&self.buf[..end])
                    .ok_or_else(|| ClientError::Protocol("the answer has no Content-Length".into()))?;
                if length > MAX_RESPONSE {
                    return Err(ClientError::Protocol("the answer is larger than 4 MiB".into()));
                }
                need = Some(end + 4 + length);
            }
            if let Some(n) = need
                && self.buf.len() >= n
            {
                return api_client::parse_response(&self.buf[..n]);
            }
            if self.buf.len() > cap {
                return Err(ClientError::Protocol("the answer is larger than 4 MiB".into()));
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

/// The Content-Length of a response head.
fn content_length(head: &[u8]) -> Option<usize> {
    let head = std::str::from_utf8(head).ok()?;
    head.split("\r\n").skip(1).find_map(|line| {
        let (k, v) = line.split_once(':')?;
        k.trim().eq_ignore_ascii_case("content-length").then(|| v.trim().parse().ok())?
    })
}

/// Maps a transport-level failure to seed 000's `local_api_unavailable` with
/// one sentence saying what to do.
fn unavailable(e: &ClientError) -> ToolError {
    let message = match e {
        ClientError::Discovery(d) => format!("{d}"),
        ClientError::Unavailable { port, reason } => format!(
            "The local API on 127.0.0.1:{port} did not answer ({reason}): start Lectern with `lectern serve` and make sure the API is on."
        ),
        ClientError::ChallengeFailed { .. } => e.to_string(),
        ClientError::Api { message, .. } => message.clone(),
        ClientError::Protocol(reason) => {
            format!(
                "The local API gave an answer this program cannot use ({reason}): restart `lectern serve`."
            )
        }
    };
    ToolError::new("local_api_unavailable", message)
}
