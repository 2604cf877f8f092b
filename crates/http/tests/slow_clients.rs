//! The serving loop against slow and idle clients, on loopback with short
//! limits: slow headers and idle keep-alive connections are closed, a slow
//! body is answered 408, a full server still answers a new visitor.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt, Full};
use lectern_http::{Face, Limits, Refusal, TimedBody};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

struct Plain;

impl Face for Plain {
    fn admit(&self, peer: IpAddr) -> Result<(), Refusal> {
        let _ = peer;
        Ok(())
    }

    fn render(&self, refusal: &Refusal) -> (&'static str, String) {
        ("text/plain", refusal.message.clone())
    }
}

fn limits() -> Limits {
    Limits {
        header_timeout: Duration::from_millis(800),
        body_timeout: Duration::from_millis(600),
        idle_timeout: Duration::from_millis(500),
        max_connections: 8,
        max_per_peer: 8,
        grace: Duration::from_secs(1),
    }
}

/// A server echoing the body's length; stops when the returned sender drops.
async fn server(limits: Limits) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let service = |_peer: SocketAddr| {
        tower::service_fn(|request: Request<TimedBody>| async move {
            let answer = match request.into_body().collect().await {
                Ok(body) => format!("{} bytes", body.to_bytes().len()),
                Err(e) => format!("body failed: {e}"),
            };
            Ok::<_, Infallible>(Response::new(Full::new(Bytes::from(answer))))
        })
    };
    tokio::spawn(lectern_http::serve(listener, limits, Arc::new(Plain), service, async move {
        let _ = rx.await;
    }));
    (addr, tx)
}

/// Reads until the peer closes (or `within` passes); what arrived.
async fn read_to_close(stream: &mut TcpStream, within: Duration) -> (String, bool) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let closed = tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await
    .is_ok();
    (String::from_utf8_lossy(&got).into_owned(), closed)
}

const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

#[tokio::test]
async fn slow_headers_are_cut_off_at_the_header_timeout() {
    let (addr, _stop) = server(limits()).await;
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    let started = Instant::now();
    let (_, closed) = read_to_close(&mut slow, Duration::from_secs(3)).await;
    assert!(closed, "a connection that never finished its headers was kept open");
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
}

#[tokio::test]
async fn idle_keep_alive_connections_are_closed() {
    let (addr, _stop) = server(limits()).await;
    let mut idle = TcpStream::connect(addr).await.unwrap();
    idle.write_all(GET).await.unwrap();
    let started = Instant::now();
    let (answer, closed) = read_to_close(&mut idle, Duration::from_secs(3)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(closed, "an idle keep-alive connection was kept open");
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
}

#[tokio::test]
async fn a_slow_body_is_answered_408_within_the_body_timeout() {
    let (addr, _stop) = server(limits()).await;
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\nab").await.unwrap();
    let started = Instant::now();
    let (answer, _) = read_to_close(&mut slow, Duration::from_secs(3)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(started.elapsed() < Duration::from_millis(1500), "{:?}", started.elapsed());
}

#[tokio::test]
async fn two_host_headers_are_refused_400() {
    let (addr, _stop) = server(limits()).await;
    let mut client = TcpStream::connect(addr).await.unwrap();
    client.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n").await.unwrap();
    let (answer, _) = read_to_close(&mut client, Duration::from_secs(3)).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
}

#[tokio::test]
async fn a_full_server_evicts_a_waiting_connection_for_a_new_visitor() {
    let limits = Limits { header_timeout: Duration::from_secs(30), ..limits() };
    let limits = Limits { idle_timeout: Duration::from_secs(30), ..limits };
    let (addr, _stop) = server(limits).await;
    let mut holders = Vec::new();
    for _ in 0..limits.max_connections + 4 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
        holders.push(s);
    }
    let started = Instant::now();
    let mut visitor = TcpStream::connect(addr).await.unwrap();
    visitor.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").await.unwrap();
    let (answer, _) = read_to_close(&mut visitor, Duration::from_secs(3)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
}

#[tokio::test]
async fn a_peer_over_its_share_gives_up_its_own_longest_waiting_connection() {
    let limits = Limits { max_per_peer: 2, header_timeout: Duration::from_secs(30), ..limits() };
    let (addr, _stop) = server(limits).await;
    let mut first = TcpStream::connect(addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let _second = TcpStream::connect(addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mut third = TcpStream::connect(addr).await.unwrap();
    third.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").await.unwrap();
    let (answer, _) = read_to_close(&mut third, Duration::from_secs(2)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let (_, closed) = read_to_close(&mut first, Duration::from_secs(1)).await;
    assert!(closed, "the longest-waiting connection was kept");
}
