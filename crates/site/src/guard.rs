//! What every request passes before a handler: the Host check (against DNS
//! rebinding; `allowed_hosts`, the base URL's host and loopback names), the
//! client address (`X-Forwarded-For` believed only from `trusted_proxies`),
//! and the rate limit per client (429 + `Retry-After`); and [`SiteFace`],
//! what the serving loop asks of the site: the same rate limit when a
//! connection is accepted, and its refusals as HTML pages.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::Response;
use lectern_corpus::SiteConfig;
use lectern_http::{Refusal, RefusalKind};

use crate::error::SiteError;
use crate::rate_limit::DEFAULT_RATE_LIMIT_PER_MINUTE;
use crate::state::SiteState;

pub(crate) async fn guard(
    State(state): State<SiteState>,
    request: Request,
    next: Next,
) -> Result<Response, SiteError> {
    // Health checks come from load balancers that use any Host.
    if request.uri().path() == "/healthz" {
        return Ok(next.run(request).await);
    }
    let view = state.library().view()?;
    let site = view.site();
    check_host(site, request.headers())?;
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |c| c.0.ip());
    let client = client_address(peer, request.headers(), site.map_or(&[][..], |s| &s.trusted_proxies));
    let limit = rate_limit(&state, site, client);
    drop(view);
    if let Some(per_minute) = limit
        && let Err(retry_after_secs) = state.limiter().take(client, per_minute)
    {
        return Err(SiteError::TooManyRequests {
            message: format!(
                "too many requests from {client}: at most {per_minute} a minute; try again in {retry_after_secs} s"
            ),
            retry_after_secs,
        });
    }
    Ok(next.run(request).await)
}

/// Requests a minute `client` may make: the configured limit, else the
/// default for all but loopback clients.
fn rate_limit(state: &SiteState, site: Option<&SiteConfig>, client: IpAddr) -> Option<u32> {
    let configured = state.options().rate_limit_per_minute.or(site.and_then(|s| s.rate_limit_per_minute));
    match configured {
        Some(n) => Some(n),
        None if client.is_loopback() => None,
        None => Some(DEFAULT_RATE_LIMIT_PER_MINUTE),
    }
}

/// The site as the serving loop sees it.
pub(crate) struct SiteFace(pub(crate) SiteState);

impl lectern_http::Face for SiteFace {
    /// A peer whose bucket is empty is answered 429 before it sends a
    /// request. A trusted proxy is let through: its requests carry the
    /// clients' addresses, and those are limited per request, in [`guard`].
    fn admit(&self, peer: IpAddr) -> Result<(), Refusal> {
        let Ok(view) = self.0.library().view() else { return Ok(()) };
        let site = view.site();
        if is_trusted(peer, site.map_or(&[][..], |s| &s.trusted_proxies)) {
            return Ok(());
        }
        let Some(per_minute) = rate_limit(&self.0, site, peer) else { return Ok(()) };
        drop(view);
        self.0.limiter().peek(peer, per_minute).map_err(|retry_after_secs| Refusal {
            kind: RefusalKind::RateLimited,
            message: format!(
                "too many requests from {peer}: at most {per_minute} a minute; try again in {retry_after_secs} s"
            ),
            retry_after_secs: Some(retry_after_secs),
        })
    }

    fn render(&self, refusal: &Refusal) -> (&'static str, String) {
        ("text/html; charset=utf-8", crate::html::error_page(refusal.status(), &refusal.message))
    }
}

/// The Host header must name this site: an allowed host, the base URL's
/// host, or a loopback name (any port).
fn check_host(site: Option<&SiteConfig>, headers: &HeaderMap) -> Result<(), SiteError> {
    let host =
        headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("").trim().to_ascii_lowercase();
    let name = host_name(&host);
    let loopback = matches!(name, "localhost" | "127.0.0.1" | "[::1]" | "::1");
    let mut allowed: Vec<String> = site.map(|s| s.allowed_hosts.clone()).unwrap_or_default();
    if let Some(base) = site.and_then(|s| s.base_url.as_deref()) {
        let authority = base.split_once("://").map_or(base, |(_, rest)| rest).split('/').next().unwrap_or("");
        allowed.push(authority.to_ascii_lowercase());
    }
    let listed = allowed.iter().any(|a| {
        // An entry with a port must match exactly; without one, any port.
        if host_name(a) == a.as_str() { a == name } else { *a == host }
    });
    if !host.is_empty() && (loopback || listed) {
        return Ok(());
    }
    Err(SiteError::Forbidden(format!(
        "this site does not answer to Host {host:?}; add it to allowed_hosts in the site config if it should"
    )))
}

/// `name` of `name:port` / `[v6]:port`.
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.split_inclusive(']').next().unwrap_or(host);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) && !name.contains(':') => name,
        _ => host,
    }
}

/// The client's address: the peer's, or, when the peer is a trusted proxy,
/// the nearest untrusted address in `X-Forwarded-For`.
pub(crate) fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[String]) -> IpAddr {
    if !is_trusted(peer, trusted) {
        return peer;
    }
    let hops: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    hops.iter().rev().find(|ip| !is_trusted(**ip, trusted)).or(hops.first()).copied().unwrap_or(peer)
}

fn is_trusted(ip: IpAddr, trusted: &[String]) -> bool {
    trusted.iter().any(|entry| {
        let (addr, bits) =
            entry.split_once('/').map_or((entry.as_str(), None), |(a, b)| (a, b.parse::<u32>().ok()));
        match (addr.parse::<IpAddr>(), ip) {
            (Ok(IpAddr::V4(net)), IpAddr::V4(ip)) => {
                let bits = bits.unwrap_or(32).min(32);
                let mask = if bits == 0 { 0 } else { u32::MAX << (32 - bits) };
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (Ok(IpAddr::V6(net)), IpAddr::V6(ip)) => {
                let bits = bits.unwrap_or(128).min(128);
                let mask = if bits == 0 { 0 } else { u128::MAX << (128 - bits) };
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_for_is_believed_only_from_trusted_proxies() {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "203.0.113.7, 10.0.0.2".parse().unwrap());
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let trusted = vec!["10.0.0.0/8".to_owned()];
        assert_eq!(client_address(proxy, &headers, &trusted), "203.0.113.7".parse::<IpAddr>().unwrap());
        let stranger: IpAddr = "198.51.100.1".parse().unwrap();
        assert_eq!(client_address(stranger, &headers, &trusted), stranger);
        assert_eq!(client_address(proxy, &HeaderMap::new(), &trusted), proxy);
    }

    #[test]
    fn hosts_are_checked_by_name_and_port() {
        let site = SiteConfig::parse(
            "[site]\nname='x'\nbase_url='https://docs.example.com'\nallowed_hosts=['a.example', 'b.example:8443']\n[[editions]]\nproject='p'\nversion='1'\nlocale='en'\nsource='.'\n",
            std::path::Path::new("t.toml"),
            std::path::Path::new("."),
        )
        .unwrap();
        let ok = |h: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::HOST, h.parse().unwrap());
            check_host(Some(&site), &headers).is_ok()
        };
        for good in [
            "a.example",
            "A.example:80",
            "b.example:8443",
            "docs.example.com",
            "127.0.0.1:9",
            "localhost",
            "[::1]:8080",
        ] {
            assert!(ok(good), "{good}");
        }
        for bad in ["evil.example", "b.example:80", "a.example.evil", "127.0.0.2"] {
            assert!(!ok(bad), "{bad}");
        }
        assert!(check_host(Some(&site), &HeaderMap::new()).is_err());
    }
}
