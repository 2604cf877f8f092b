//! [`TimedBody`]: a request body that must arrive by a deadline, and
//! [`Answer`]: the face's answer (or the loop's refusal), which keeps its
//! connection marked busy until it is sent.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use http_body_util::Full;
use hyper::body::Incoming;
use tokio::time::{Instant, Sleep};

use crate::peers::Busy;

/// Any body error, boxed (what hyper and axum take).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A request body that fails once its deadline passes, and says so in a flag
/// the loop reads to answer 408 whatever the handler made of the error.
pub struct TimedBody {
    inner: Incoming,
    deadline: Instant,
    /// Made on the first wait, so bodiless requests never arm a timer.
    sleep: Option<Pin<Box<Sleep>>>,
    expired: Arc<AtomicBool>,
}

impl TimedBody {
    pub(crate) fn new(inner: Incoming, deadline: Instant, expired: Arc<AtomicBool>) -> TimedBody {
        TimedBody { inner, deadline, sleep: None, expired }
    }
}

/// The error a late body ends with.
#[derive(Debug)]
struct BodyTimedOut;

impl std::fmt::Display for BodyTimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body did not arrive in time")
    }
}

impl std::error::Error for BodyTimedOut {}

impl Body for TimedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(BoxError::from)));
        }
        let deadline = this.deadline;
        let sleep = this.sleep.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if sleep.as_mut().poll(cx).is_ready() {
            this.expired.store(true, Ordering::Release);
            return Poll::Ready(Some(Err(BodyTimedOut.into())));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// What the loop sends: the face's answer, holding its connection busy
/// until the body is sent, or a refusal the loop made.
pub enum Answer<B> {
    Face(B, Busy),
    Refusal(Full<Bytes>),
}

impl<B> Body for Answer<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            Answer::Face(body, _) => Pin::new(body).poll_frame(cx).map(|f| f.map(|f| f.map_err(Into::into))),
            Answer::Refusal(body) => {
                Pin::new(body).poll_frame(cx).map(|f| f.map(|f| f.map_err(|e| match e {})))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Answer::Face(body, _) => body.is_end_stream(),
            Answer::Refusal(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Answer::Face(body, _) => body.size_hint(),
            Answer::Refusal(body) => body.size_hint(),
        }
    }
}
