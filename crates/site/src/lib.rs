//! The public docs site (docs/site.md): every page as HTML at its path,
//! `{path}.md`, `/llms.txt`, `/sitemap.xml`, `/healthz`, a search page, and
//! `/mcp` (Streamable HTTP, stateless) with exactly four tools, all over the
//! one [`Library`]. Never exposes the local API's `/v1`.
//!
//! # Layout
//! - `error`: [`SiteError`], given a code, turned into a status and a small HTML page once.
//! - `state`: [`SiteState`] and [`Options`]: the library, limits, caches.
//! - `rate_limit`: token buckets per client (IPv4 address or IPv6 /64).
//! - `guard`: the Host check, the client address (trusted proxies), the rate
//!   limit, and the site's face to the serving loop (`lectern-http`).
//! - `etag`: strong ETags over the bytes sent, and `If-None-Match` → 304.
//! - `html`: Markdown to safe HTML, the shared head and header, the search and
//!   error pages (no JavaScript).
//! - `page`: the page template (sidebar, table of contents, previous/next,
//!   lifecycle notice), an edition's generated home, the page-not-found page.
//! - `style.css`: the one stylesheet, inlined into every page.
//! - `routes`: pages, `.md`, search, `llms.txt`, `sitemap.xml`, `robots.txt`,
//!   `favicon.ico`, `healthz`.
//! - `mcp`: the `/mcp` tools (`list_versions`, `list_pages`, `search_docs`, `read_page`).
//! - `export`: the files of a static export and their bytes, rendered by [`app`] in-process.

pub mod error;
mod etag;
pub mod export;
mod guard;
pub mod html;
pub mod mcp;
mod page;
mod rate_limit;
mod routes;
pub mod state;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{ConnectInfo, Request};
use lectern_library::Library;
use tower::ServiceExt;
use tower_http::compression::CompressionLayer;

pub use error::SiteError;
pub use state::{Options, SiteState};

/// The whole site behind its guards; testable without a socket
/// (`tower::ServiceExt::oneshot`, with a `ConnectInfo<SocketAddr>` extension
/// for the client address).
pub fn app(state: SiteState) -> Router {
    let pages = routes::routes()
        .layer(CompressionLayer::new().gzip(true))
        // Outside compression: the ETag names the exact bytes sent.
        .layer(axum::middleware::from_fn(etag::etag));
    Router::new()
        .merge(pages)
        .route_service(
            "/mcp",
            tower::ServiceBuilder::new()
                .layer(axum::middleware::from_fn(mcp::parse_errors))
                .service(mcp::service(&state)),
        )
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard::guard))
        .with_state(state)
}

/// A visitor's whole request head must arrive within this; slow-header
/// clients are closed (the count starts again after each answer).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(20);
/// A request body (an `/mcp` call: a small JSON) must arrive within this
/// after its head, or the answer is 408.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// A keep-alive connection waiting for its next request is closed after this.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(15);
/// Connections open at once, at most; lowered to the descriptor limit less
/// [`lectern_http::DESCRIPTOR_RESERVE`].
pub const MAX_CONNECTIONS: usize = 4096;
/// Connections one peer (an IPv4 address or an IPv6 /64; behind a proxy, the
/// proxy) may hold: more than browsers open, far fewer than the total.
pub const MAX_CONNECTIONS_PER_PEER: usize = 64;
/// After shutdown begins, how long requests in progress may finish.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// The site's bounds on connections (docs/guide/en/limits.md).
pub fn connection_limits() -> lectern_http::Limits {
    lectern_http::Limits {
        header_timeout: HEADER_TIMEOUT,
        body_timeout: BODY_TIMEOUT,
        idle_timeout: IDLE_TIMEOUT,
        max_connections: MAX_CONNECTIONS,
        max_per_peer: MAX_CONNECTIONS_PER_PEER,
        grace: SHUTDOWN_GRACE,
    }
}

/// Serves until `shutdown` resolves, then lets requests in progress finish
/// for at most [`SHUTDOWN_GRACE`]. Picks up generations made by other
/// processes (`lectern add --site` ...) every `options.refresh_every`.
pub async fn run(
    listener: tokio::net::TcpListener,
    library: Arc<Library>,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let refresh_every = options.refresh_every;
    let state = SiteState::new(library.clone(), options);
    let stop = state.shutdown_token();
    let _watcher = library.watch(refresh_every);
    let router = app(state.clone());
    // Handlers and the guard read the peer's address as axum's `ConnectInfo`.
    let service = move |peer: SocketAddr| {
        router.clone().map_request(move |mut request: Request<lectern_http::TimedBody>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            request
        })
    };
    let face = Arc::new(guard::SiteFace(state));
    lectern_http::serve(listener, connection_limits(), face, service, async move {
        shutdown.await;
        stop.cancel();
    })
    .await
}
