//! [`RateLimiter`]: token buckets per client (an IPv4 address or an IPv6
//! /64, [`lectern_http::peer_key`]), `per_minute` tokens of burst refilled
//! evenly, with a bound on how many buckets are kept.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// Requests per minute per client when the config sets no limit; loopback
/// clients are exempt from this default (a config limit applies to all).
pub const DEFAULT_RATE_LIMIT_PER_MINUTE: u32 = 600;

/// Buckets kept at most; past it, full (idle) buckets are dropped first.
const MAX_BUCKETS: usize = 100_000;

/// Token buckets per client: `per_minute` tokens of burst, refilled evenly.
#[derive(Default)]
pub(crate) struct RateLimiter {
    /// Keyed by [`lectern_http::peer_key`]: one IPv6 host holds a whole /64.
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    /// Whether `client` has a token left, without taking it: checked when a
    /// connection is accepted, so a client over its rate is answered before
    /// it sends a request (its requests take the tokens, in [`Self::take`]).
    pub(crate) fn peek(&self, client: IpAddr, per_minute: u32) -> Result<(), u64> {
        let client = lectern_http::peer_key(client);
        let capacity = f64::from(per_minute.max(1));
        let per_second = capacity / 60.0;
        let buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let Some((tokens, last)) = buckets.get(&client) else { return Ok(()) };
        let tokens = (*tokens + last.elapsed().as_secs_f64() * per_second).min(capacity);
        if tokens >= 1.0 { Ok(()) } else { Err(((1.0 - tokens) / per_second).ceil().max(1.0) as u64) }
    }

    /// Takes a token, or says how many seconds until one is there.
    pub(crate) fn take(&self, client: IpAddr, per_minute: u32) -> Result<(), u64> {
        let client = lectern_http::peer_key(client);
        let capacity = f64::from(per_minute.max(1));
        let per_second = capacity / 60.0;
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= MAX_BUCKETS && !buckets.contains_key(&client) {
            buckets.retain(|_, (tokens, last)| {
                *tokens + now.duration_since(*last).as_secs_f64() * per_second < capacity
            });
            if buckets.len() >= MAX_BUCKETS {
                buckets.clear();
            }
        }
        let (tokens, last) = buckets.entry(client).or_insert((capacity, now));
        *tokens = (*tokens + now.duration_since(*last).as_secs_f64() * per_second).min(capacity);
        *last = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / per_second).ceil().max(1.0) as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_refuse_past_the_limit_and_say_when_to_retry() {
        let limiter = RateLimiter::default();
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.take(ip, 3).is_ok());
        }
        let wait = limiter.take(ip, 3).unwrap_err();
        assert!((1..=20).contains(&wait), "{wait}");
        assert!(limiter.take("192.0.2.2".parse().unwrap(), 3).is_ok());
        assert!(limiter.peek(ip, 3).is_err());
        assert!(limiter.peek("192.0.2.3".parse().unwrap(), 3).is_ok());
    }

    #[test]
    fn rate_limits_share_a_bucket_per_ipv6_slash_64() {
        let limiter = RateLimiter::default();
        let passed = (0..200u16)
            .filter(|i| {
                let ip: IpAddr = format!("2001:db8:7:9:{i:x}::1").parse().unwrap();
                limiter.take(ip, 60).is_ok()
            })
            .count();
        assert!((60..=61).contains(&passed), "{passed} of 200 passed a 60-a-minute limit");
        assert!(
            limiter.take("2001:db8:7:a::1".parse().unwrap(), 60).is_ok(),
            "the next /64 has its own bucket"
        );
    }
}
