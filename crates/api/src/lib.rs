//! The private local API on 127.0.0.1 and the web page served on it
//! (docs/local-api.md): an access key in `{user-data}/api/`, a challenge that proves the
//! server before a client sends the key, versioned JSON endpoints under `/v1/`
//! over the one [`Library`], and a small embedded web page.
//!
//! # Layout
//! - `error`: [`ApiError`], mapped to a code, a status and `{"error":{"code","message"}}` once.
//! - `discovery`: the server lock and discovery files, and their safe reader
//!   (shared with `lectern doctor` and the stdio MCP bridge).
//! - `challenge`: the HMAC server proof and random secrets.
//! - `state`: [`AppState`]: the library, the key, sessions and login tokens.
//! - `guard`: Host/Origin checks, body cap, request time limit, authentication,
//!   and the API's face to the serving loop (`lectern-http`).
//! - `extract`: query and JSON extractors whose rejections are [`ApiError`]s.
//! - `v1`: the JSON endpoints.
//! - `web`: the login URL, the session cookie and the embedded page.
//! - `integrations`: MCP client configs, one per client (Claude, Cursor, VS Code, Zed, ...).
//! - `openapi`: the OpenAPI 3.1 description (served, and kept in docs/openapi.json).
//! - `client`: the one client of the local API (async, with a blocking
//!   face), which checks the challenge before it sends the key.

pub mod challenge;
pub mod client;
pub mod discovery;
pub mod error;
mod extract;
mod guard;
pub mod integrations;
pub mod openapi;
pub mod state;
mod v1;
mod web;

use std::future::Future;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use lectern_library::Library;

pub use error::ApiError;
pub use integrations::{ClientConfig, ClientKind, client_config};
pub use state::{AppState, Options};

/// The whole service: web page, login, challenge and `/v1/`, behind the guards.
/// Testable without a socket (`tower::ServiceExt::oneshot`).
pub fn app(state: AppState) -> Router {
    let v1 = v1::routes()
        .route("/openapi.json", axum::routing::get(openapi::serve))
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), guard::authenticate));
    Router::new()
        .merge(web::routes())
        .nest("/v1", v1)
        .fallback(guard::not_found)
        .method_not_allowed_fallback(guard::method_not_allowed)
        .layer(DefaultBodyLimit::max(state.limits().body_limit))
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard::guard))
        .with_state(state)
}

/// Serves until `shutdown` resolves, then lets in-flight requests finish (at
/// most one request time limit) and returns. Also picks up generations made by
/// other processes (`lectern add/enable/...`) every `refresh_every`.
pub async fn run(
    listener: tokio::net::TcpListener,
    library: Arc<Library>,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    let state = AppState::new(library.clone(), options, port);
    let refresh_every = state.limits().refresh_every;
    let mut limits = state.limits().connections;
    // Shutdown lets in-flight requests have their whole time limit.
    limits.grace = limits.grace.max(state.limits().request_timeout + std::time::Duration::from_secs(1));
    let _watcher = library.watch(refresh_every);
    let router = app(state);
    lectern_http::serve(listener, limits, Arc::new(guard::ApiFace), move |_| router.clone(), shutdown).await
}
