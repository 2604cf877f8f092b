//! [`peer_key`], and the table of open connections: it admits a connection
//! under the per-peer and total caps, and when the total is reached evicts
//! the connection that has waited longest without a request in progress.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use crate::{Limits, Refusal, RefusalKind};

/// The key caps and rate limits count by: an IPv4 address (IPv4-mapped IPv6
/// included), or the /64 of an IPv6 address, since one IPv6 host is
/// usually given a whole /64 and could otherwise take a fresh address per request.
pub fn peer_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !(u64::MAX as u128))),
        },
    }
}

/// One open connection, as the table and its task see it.
#[derive(Debug)]
pub(crate) struct Conn {
    id: u64,
    key: IpAddr,
    /// Requests in progress (their answers not yet fully sent).
    busy: AtomicUsize,
    /// Whether it has answered a request (then it waits as keep-alive).
    served: AtomicBool,
    /// When it last started or finished a request (or was accepted).
    last: Mutex<Instant>,
    /// Signalled when the table evicts it.
    pub(crate) evicted: Notify,
}

impl Conn {
    fn touch(&self) {
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
    }

    fn last(&self) -> Instant {
        *self.last.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn waiting(&self) -> bool {
        self.busy.load(Ordering::Acquire) == 0
    }

    /// Marks a request in progress until the guard drops (with the answer's body).
    pub(crate) fn begin(self: &Arc<Self>) -> Busy {
        self.busy.fetch_add(1, Ordering::AcqRel);
        self.touch();
        Busy(self.clone())
    }

    /// When the connection, if it stays as it is, has waited too long: the
    /// header timeout before its first request, the idle timeout after.
    /// `None` while a request is in progress.
    pub(crate) fn deadline(&self, limits: &Limits) -> Option<Instant> {
        if !self.waiting() {
            return None;
        }
        let wait: Duration =
            if self.served.load(Ordering::Acquire) { limits.idle_timeout } else { limits.header_timeout };
        Some(self.last() + wait)
    }
}

/// A request in progress on a connection.
pub struct Busy(Arc<Conn>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.served.store(true, Ordering::Release);
        self.0.touch();
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

#[derive(Default)]
struct Table {
    next: u64,
    conns: HashMap<u64, Arc<Conn>>,
    per_peer: HashMap<IpAddr, usize>,
}

impl Table {
    fn remove(&mut self, id: u64) -> Option<Arc<Conn>> {
        let conn = self.conns.remove(&id)?;
        if let Some(n) = self.per_peer.get_mut(&conn.key) {
            *n -= 1;
            if *n == 0 {
                self.per_peer.remove(&conn.key);
            }
        }
        Some(conn)
    }

    /// Takes out the connection (of `key`, or of anyone) that has waited
    /// longest without a request in progress.
    fn evict_longest_waiting(&mut self, key: Option<IpAddr>) -> Option<Arc<Conn>> {
        let oldest = self
            .conns
            .values()
            .filter(|c| c.waiting() && key.is_none_or(|k| c.key == k))
            .min_by_key(|c| c.last())
            .map(|c| c.id)?;
        self.remove(oldest)
    }
}

/// The open connections of one server.
pub(crate) struct Peers {
    limits: Limits,
    table: Mutex<Table>,
}

impl Peers {
    pub(crate) fn new(limits: Limits) -> Peers {
        Peers { limits, table: Mutex::default() }
    }

    /// Admits a connection from `ip`. When the peer holds its share, its own
    /// longest-waiting connection makes room; when the total is reached,
    /// anyone's does. Refused (503) only when those all have a request in
    /// progress: a client that merely holds connections open cannot keep a
    /// new one out, and a request once read is never dropped for another.
    pub(crate) fn admit(&self, ip: IpAddr) -> Result<Arc<Conn>, Refusal> {
        let key = peer_key(ip);
        let mut table = self.table.lock().unwrap_or_else(|p| p.into_inner());
        let held = table.per_peer.get(&key).copied().unwrap_or(0);
        if held >= self.limits.max_per_peer {
            let Some(oldest) = table.evict_longest_waiting(Some(key)) else {
                return Err(Refusal::new(
                    RefusalKind::PeerFull,
                    format!(
                        "your address already has {held} requests in progress, the most one address may; try again when they are answered"
                    ),
                ));
            };
            oldest.evicted.notify_one();
        } else if table.conns.len() >= self.limits.max_connections {
            let Some(oldest) = table.evict_longest_waiting(None) else {
                let mut refusal = Refusal::new(
                    RefusalKind::Full,
                    "the server is answering as many requests as it can; try again in a moment",
                );
                refusal.retry_after_secs = Some(1);
                return Err(refusal);
            };
            oldest.evicted.notify_one();
        }
        table.next += 1;
        let conn = Arc::new(Conn {
            id: table.next,
            key,
            busy: AtomicUsize::new(0),
            served: AtomicBool::new(false),
            last: Mutex::new(Instant::now()),
            evicted: Notify::new(),
        });
        table.conns.insert(conn.id, conn.clone());
        *table.per_peer.entry(key).or_default() += 1;
        Ok(conn)
    }

    /// Forgets a closed connection (if it was not evicted already).
    pub(crate) fn release(&self, conn: &Conn) {
        self.table.lock().unwrap_or_else(|p| p.into_inner()).remove(conn.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(total: usize, per_peer: usize) -> Limits {
        let s = Duration::from_secs(1);
        Limits {
            header_timeout: s,
            body_timeout: s,
            idle_timeout: s,
            max_connections: total,
            max_per_peer: per_peer,
            grace: s,
        }
    }

    #[test]
    fn rate_limits_share_a_bucket_per_ipv6_slash_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff:ffff:ffff:ffff".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(peer_key(a), peer_key(b));
        assert_eq!(peer_key(a), "2001:db8:1:2::".parse::<IpAddr>().unwrap());
        assert_ne!(peer_key(a), peer_key(other));
        let v4: IpAddr = "192.0.2.7".parse().unwrap();
        assert_eq!(peer_key(v4), v4);
        assert_eq!(peer_key("::ffff:192.0.2.7".parse().unwrap()), v4);
    }

    #[test]
    fn a_peer_holds_its_share_and_a_full_table_evicts_the_longest_waiting() {
        let peers = Peers::new(limits(3, 2));
        let one: IpAddr = "2001:db8::1".parse().unwrap();
        let same_64: IpAddr = "2001:db8::2".parse().unwrap();
        let first = peers.admit(one).unwrap();
        let first_busy = first.begin();
        let second = peers.admit(same_64).unwrap();
        let second_busy = second.begin();
        assert_eq!(peers.admit(one).unwrap_err().kind, RefusalKind::PeerFull);
        drop(second_busy);
        let third = peers.admit(one).unwrap();
        assert!(!peers.table.lock().unwrap().conns.contains_key(&second.id));
        drop(first_busy);
        let busy = peers.admit("192.0.2.1".parse().unwrap()).unwrap();
        let _working = busy.begin();
        // Full: the longest-waiting connection without a request makes room.
        let _fourth = peers.admit("192.0.2.2".parse().unwrap()).unwrap();
        let table = peers.table.lock().unwrap();
        assert_eq!(table.conns.len(), 3);
        assert!(table.conns.contains_key(&busy.id));
        assert!(!table.conns.contains_key(&third.id), "the longest-waiting one makes room");
        drop(table);
        peers.release(&first);
        assert_eq!(peers.table.lock().unwrap().conns.len(), 2);
    }

    #[test]
    fn a_table_of_requests_in_progress_refuses() {
        let peers = Peers::new(limits(1, 1));
        let conn = peers.admit("192.0.2.1".parse().unwrap()).unwrap();
        let _working = conn.begin();
        assert_eq!(peers.admit("192.0.2.2".parse().unwrap()).unwrap_err().kind, RefusalKind::Full);
    }
}
