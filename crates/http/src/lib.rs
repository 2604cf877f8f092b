//! One serving loop for both HTTP faces (the public site and the local API):
//! it accepts connections, caps them per peer and in total (sized to the
//! process's descriptor limit), times out slow headers, slow bodies and idle
//! keep-alive connections, refuses before reading a request, and shuts down
//! gracefully. Lives in its own crate so the site and the API share it
//! without depending on each other.
//!
//! # Layout
//! - `limits`: [`Limits`], the named defaults, and sizing to `RLIMIT_NOFILE`.
//! - `peers`: [`peer_key`] (an IPv4 address or an IPv6 /64) and the table of
//!   open connections, which admits, caps and evicts.
//! - `body`: the request body with a deadline, and the answer body.
//! - `serve`: [`serve`], the accept loop and one task per connection.

mod body;
mod limits;
mod peers;
mod serve;

use std::net::IpAddr;

use http::StatusCode;

pub use body::{Answer, TimedBody};
pub use limits::{DESCRIPTOR_RESERVE, Limits, MIN_CONNECTIONS, descriptor_limit};
pub use peers::peer_key;
pub use serve::serve;

/// Why the loop answered instead of the face's handlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// Every connection slot holds a request in progress (503).
    Full,
    /// This peer (IPv4 address or IPv6 /64) holds its share of connections (503).
    PeerFull,
    /// The face's rate limit refused the peer at accept time (429).
    RateLimited,
    /// The request body did not arrive within the body timeout (408).
    BodyTimeout,
    /// The request names its Host more than once (400).
    AmbiguousHost,
}

/// An answer the loop gives on its own; the face renders its body.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub kind: RefusalKind,
    pub message: String,
    pub retry_after_secs: Option<u64>,
}

impl Refusal {
    pub fn new(kind: RefusalKind, message: impl Into<String>) -> Refusal {
        Refusal { kind, message: message.into(), retry_after_secs: None }
    }

    pub fn status(&self) -> StatusCode {
        match self.kind {
            RefusalKind::Full | RefusalKind::PeerFull => StatusCode::SERVICE_UNAVAILABLE,
            RefusalKind::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            RefusalKind::BodyTimeout => StatusCode::REQUEST_TIMEOUT,
            RefusalKind::AmbiguousHost => StatusCode::BAD_REQUEST,
        }
    }
}

/// What a face tells the loop: whom to admit and how its refusals look.
pub trait Face: Send + Sync + 'static {
    /// Checked when a connection is accepted, before anything is read: a
    /// refusal here is written at once and the connection closed.
    fn admit(&self, _peer: IpAddr) -> Result<(), Refusal> {
        Ok(())
    }

    /// The content type and body of a refusal, in the face's own error format.
    fn render(&self, refusal: &Refusal) -> (&'static str, String);
}
