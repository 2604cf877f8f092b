//! [`serve`]: the accept loop, the refusals written before a request is read,
//! and one task per connection that enforces its timeouts and eviction.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderValue, Request, Response, header};
use http_body::Body;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tower::{Service, ServiceExt};

use crate::body::{Answer, BoxError, TimedBody};
use crate::peers::{Conn, Peers};
use crate::{Face, Limits, Refusal, RefusalKind, descriptor_limit};

/// How long the accept loop pauses when accepting fails for want of
/// descriptors or memory, so it does not spin while connections close.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Serves `listener` until `shutdown` resolves, then lets requests in
/// progress finish for at most `limits.grace` and returns. `service` makes
/// the face's service for each connection from the peer's address.
pub async fn serve<F, M, S, B>(
    listener: TcpListener,
    limits: Limits,
    face: Arc<F>,
    service: M,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()>
where
    F: Face,
    M: Fn(SocketAddr) -> S,
    S: Service<Request<TimedBody>, Response = Response<B>, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
    B: Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let limits = limits.fit_to(descriptor_limit());
    tracing::debug!(?limits, "serving");
    let peers = Arc::new(Peers::new(limits));
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    // Every connection task holds a sender; all dropped = all closed.
    let (open_tx, mut open_rx) = mpsc::channel::<()>(1);
    let mut stopping = stop_rx.clone();
    loop {
        let (stream, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // EMFILE/ENFILE/ENOMEM: wait for descriptors to free up.
                    // Errors of one connection (reset before accept): go on.
                    if !matches!(e.kind(), std::io::ErrorKind::ConnectionAborted | std::io::ErrorKind::ConnectionReset) {
                        tracing::warn!("accepting a connection failed: {e}");
                        tokio::time::sleep(ACCEPT_BACKOFF).await;
                    }
                    continue;
                }
            },
            () = stopped(&mut stopping) => break,
        };
        let peer = addr.ip();
        let admitted = face.admit(peer).and_then(|()| peers.admit(peer));
        let conn = match admitted {
            Ok(conn) => conn,
            Err(refusal) => {
                refuse_raw(&stream, face.as_ref(), &refusal);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let task = Connection {
            conn,
            peers: peers.clone(),
            limits,
            face: face.clone(),
            service: service(addr),
            stop: stop_rx.clone(),
            _open: open_tx.clone(),
        };
        tokio::spawn(task.run(stream));
    }
    drop(listener);
    drop(open_tx);
    if tokio::time::timeout(limits.grace, open_rx.recv()).await.is_err() {
        tracing::warn!("requests still running {:?} after shutdown began; closing them", limits.grace);
    }
    Ok(())
}

/// Resolves once shutdown has begun (the guard of `wait_for` is not `Send`,
/// so it is dropped here).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// Writes a refusal straight to a fresh connection (whatever the client has
/// sent so far is not read) and closes it: no descriptor is held for it.
fn refuse_raw<F: Face>(stream: &TcpStream, face: &F, refusal: &Refusal) {
    let status = refusal.status();
    let (content_type, body) = face.render(refusal);
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    );
    if let Some(secs) = refusal.retry_after_secs {
        head.push_str(&format!("retry-after: {secs}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(&body);
    // One try: a fresh socket's send buffer takes a small answer whole, and
    // a client that cannot take it is not waited for.
    let _ = stream.try_write(head.as_bytes());
}

/// A refusal as an answer on a connection hyper serves; the connection closes after it.
fn refusal_answer<F: Face, B>(face: &F, refusal: &Refusal) -> Response<Answer<B>> {
    let (content_type, body) = face.render(refusal);
    let mut response = Response::new(Answer::Refusal(Full::new(Bytes::from(body))));
    *response.status_mut() = refusal.status();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    if let Some(secs) = refusal.retry_after_secs {
        headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}

/// One admitted connection and what its task needs.
struct Connection<F, S> {
    conn: Arc<Conn>,
    peers: Arc<Peers>,
    limits: Limits,
    face: Arc<F>,
    service: S,
    stop: watch::Receiver<bool>,
    _open: mpsc::Sender<()>,
}

impl<F, S, B> Connection<F, S>
where
    F: Face,
    S: Service<Request<TimedBody>, Response = Response<B>, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
    B: Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    async fn run(self, stream: TcpStream) {
        let Connection { conn, peers, limits, face, service, mut stop, _open } = self;
        let handler = {
            let conn = conn.clone();
            hyper::service::service_fn(move |request: Request<Incoming>| {
                let busy = conn.begin();
                let face = face.clone();
                let service = service.clone();
                async move {
                    if request.headers().get_all(header::HOST).iter().nth(1).is_some() {
                        let refusal = Refusal::new(
                            RefusalKind::AmbiguousHost,
                            "the request names its Host more than once; send one Host header",
                        );
                        return Ok::<_, Infallible>(refusal_answer(face.as_ref(), &refusal));
                    }
                    let expired = Arc::new(AtomicBool::new(false));
                    let deadline = tokio::time::Instant::now() + limits.body_timeout;
                    let request = request.map(|body| TimedBody::new(body, deadline, expired.clone()));
                    let Ok(response) = service.oneshot(request).await;
                    if expired.load(Ordering::Acquire) {
                        let refusal = Refusal::new(
                            RefusalKind::BodyTimeout,
                            format!(
                                "the request body did not arrive within {} s; send it whole, at once",
                                limits.body_timeout.as_secs()
                            ),
                        );
                        return Ok(refusal_answer(face.as_ref(), &refusal));
                    }
                    Ok(response.map(|body| Answer::Face(body, busy)))
                }
            })
        };
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout).keep_alive(true);
        let connection = http.serve_connection(TokioIo::new(stream), handler);
        let mut connection = std::pin::pin!(connection);
        let mut stopping = false;
        loop {
            let deadline = conn.deadline(&limits);
            // While a request is in progress, look again after one idle timeout.
            let wake = deadline.unwrap_or_else(|| std::time::Instant::now() + limits.idle_timeout);
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!("connection closed: {e}");
                    }
                    break;
                }
                () = conn.evicted.notified() => break,
                () = tokio::time::sleep_until(wake.into()) => {
                    if conn.deadline(&limits).is_some_and(|d| d <= std::time::Instant::now()) {
                        break;
                    }
                }
                () = stopped(&mut stop), if !stopping => {
                    stopping = true;
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
        peers.release(&conn);
    }
}
