//! Raw HTTP/1.1 for the integration tests that talk to a real server over a
//! socket: requests written byte for byte (so they can be malformed) and
//! answers read to the end of the connection (chunked or sized bodies).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A request with `Connection: close`, a `Content-Length` and a `Host` of
/// `authority` unless `headers` name their own.
pub fn request(
    method: &str,
    authority: &str,
    target: &str,
    headers: &[(&str, String)],
    body: &[u8],
) -> Vec<u8> {
    let mut r =
        format!("{method} {target} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    for (k, v) in headers {
        r.push_str(&format!("{k}: {v}\r\n"));
    }
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        r.push_str(&format!("Host: {authority}\r\n"));
    }
    r.push_str("\r\n");
    let mut bytes = r.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// Sends `request` as it is to `authority`; (status, body). A server that
/// closes the connection early still gives what it sent.
pub fn send(authority: &str, request: &[u8]) -> (u16, String) {
    let mut stream =
        TcpStream::connect(authority).unwrap_or_else(|e| panic!("connecting to {authority}: {e}"));
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let _ = stream.write_all(request);
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    parse_answer(&bytes)
}

/// A plain GET: (status, body).
pub fn get(authority: &str, path: &str) -> (u16, String) {
    send(authority, &request("GET", authority, path, &[], &[]))
}

/// (status, body) of a whole answer read to the end of the connection.
pub fn parse_answer(bytes: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        dechunk(body)
    } else {
        body.to_owned()
    };
    (status, body)
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else { break };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}
