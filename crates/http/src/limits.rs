//! [`Limits`]: what one connection may hold and how many may be open, and
//! the sizing of the total to the process's descriptor limit.

use std::time::Duration;

/// Descriptors kept free of connections: the index files, the library's
/// locks and database, logs, and the short-lived descriptors of refused or
/// evicted connections.
pub const DESCRIPTOR_RESERVE: usize = 128;

/// The fewest connections a server keeps, however low the descriptor limit.
pub const MIN_CONNECTIONS: usize = 16;

/// Bounds on connections, for one face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// From a connection's start (or the end of its last answer) to a whole
    /// request head; hyper closes the connection past it.
    pub header_timeout: Duration,
    /// From the request head to the end of its body; past it the answer is 408.
    pub body_timeout: Duration,
    /// How long a keep-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// Connections open at once, before [`Limits::fit_to`] lowers it to the
    /// descriptor limit.
    pub max_connections: usize,
    /// Connections one peer (an IPv4 address or an IPv6 /64) may hold.
    pub max_per_peer: usize,
    /// After shutdown begins, how long requests in progress may finish.
    pub grace: Duration,
}

impl Limits {
    /// `max_connections` lowered to `nofile − DESCRIPTOR_RESERVE` (at least
    /// [`MIN_CONNECTIONS`]), and `max_per_peer` to that.
    pub fn fit_to(self, nofile: Option<u64>) -> Limits {
        let mut limits = self;
        if let Some(nofile) = nofile {
            let room = usize::try_from(nofile).unwrap_or(usize::MAX).saturating_sub(DESCRIPTOR_RESERVE);
            limits.max_connections = limits.max_connections.min(room.max(MIN_CONNECTIONS));
        }
        limits.max_connections = limits.max_connections.max(1);
        limits.max_per_peer = limits.max_per_peer.clamp(1, limits.max_connections);
        limits
    }
}

/// The soft `RLIMIT_NOFILE` of this process, if it has one.
pub fn descriptor_limit() -> Option<u64> {
    rustix::process::getrlimit(rustix::process::Resource::Nofile).current
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_leaves_the_reserve_free() {
        let limits = Limits {
            header_timeout: Duration::from_secs(1),
            body_timeout: Duration::from_secs(1),
            idle_timeout: Duration::from_secs(1),
            max_connections: 4096,
            max_per_peer: 64,
            grace: Duration::from_secs(1),
        };
        assert_eq!(limits.fit_to(Some(1024)).max_connections, 1024 - DESCRIPTOR_RESERVE);
        assert_eq!(limits.fit_to(Some(100)).max_connections, MIN_CONNECTIONS);
        assert_eq!(limits.fit_to(Some(100)).max_per_peer, MIN_CONNECTIONS);
        assert_eq!(limits.fit_to(None).max_connections, 4096);
        assert_eq!(limits.fit_to(Some(1 << 20)).max_connections, 4096);
    }
}
