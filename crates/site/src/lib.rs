//! The public docs site (docs/site.md): every page as HTML at its path,
//! `{path}.md`, `/llms.txt`, `/sitemap.xml`, `/healthz`, a search page, and
//! `/mcp` (Streamable HTTP, stateless) with exactly four tools, all over the
//! one [`Library`]. Never exposes the local API's `/v1`.
//!
//! # Layout
//! - `error`: [`SiteError`], given a code, turned into a status and a small HTML page once.
//! - `state`: [`SiteState`] and [`Options`]: the library, limits, caches.
//! - `rate_limit`: token buckets per client address.
//! - `guard`: the Host check, the client address (trusted proxies), the rate limit.
//! - `etag`: strong ETags over the bytes sent, and `If-None-Match` → 304.
//! - `html`: Markdown to safe HTML and the page templates (no JavaScript).
//! - `routes`: pages, `.md`, search, `llms.txt`, `sitemap.xml`, `healthz`.
//! - `mcp`: the `/mcp` tools (`list_versions`, `list_pages`, `search_docs`, `read_page`).

pub mod error;
mod etag;
mod guard;
pub mod html;
pub mod mcp;
mod rate_limit;
mod routes;
pub mod state;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use lectern_library::Library;
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

/// Serves until `shutdown` resolves. Picks up generations made by other
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
    axum::serve(listener, app(state).into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(async move {
            shutdown.await;
            stop.cancel();
        })
        .await
}
