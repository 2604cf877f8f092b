//! The client side of the local API for the stdio program (seed 000's
//! security rules): every call re-reads the discovery files (safe modes, one
//! owner, one link, no symlinks, live pid), checks the server's challenge proof
//! BEFORE sending the key, talks only to 127.0.0.1 on the recorded
//! unprivileged port, with no proxy, redirect or cookie, 8 s per request and
//! 4 MiB per response. Dropping a call's future closes its connection, which
//! cancels the search on the server.

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
        prove(&found).await?;
        let answer = send(&found, method, path, body, true).await.map_err(|e| unavailable(&e))?;
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
async fn prove(found: &Discovery) -> Result<(), ToolError> {
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
        send(found, "POST", "/auth/challenge", Some(&body), false).await.map_err(|e| unavailable(&e))?;
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

/// One request on a fresh connection to 127.0.0.1:port, read to the end
/// (Connection: close), within 8 s and 4 MiB.
async fn send(
    found: &Discovery,
    method: &str,
    path: &str,
    body: Option<&Value>,
    auth: bool,
) -> Result<api_client::Answer, ClientError> {
    let port = found.status.port;
    let unavailable = |reason: String| ClientError::Unavailable { port, reason };
    let exchange = async {
        let mut stream =
            TcpStream::connect(("127.0.0.1", port)).await.map_err(|e| unavailable(e.to_string()))?;
        let body = body.map(|b| serde_json::to_vec(b).expect("JSON serialises")).unwrap_or_default();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nAccept: application/json\r\n"
        );
        if auth {
            head.push_str(&format!("Authorization: Bearer {}\r\n", found.access_key));
        }
        if method != "GET" {
            head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).await.map_err(|e| unavailable(e.to_string()))?;
        stream.write_all(&body).await.map_err(|e| unavailable(e.to_string()))?;
        let mut raw = Vec::new();
        let cap = (MAX_RESPONSE + 64 * 1024) as u64;
        (&mut stream)
            .take(cap + 1)
            .read_to_end(&mut raw)
            .await
            .map_err(|e| unavailable(format!("reading the answer: {e}")))?;
        if raw.len() as u64 > cap {
            return Err(ClientError::Protocol("the answer is larger than 4 MiB".into()));
        }
        api_client::parse_response(&raw)
    };
    tokio::time::timeout(TIMEOUT, exchange)
        .await
        .map_err(|_| unavailable(format!("no answer within {} s", TIMEOUT.as_secs())))?
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
