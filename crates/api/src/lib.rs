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
//! - `guard`: Host/Origin checks, body cap, request time limit, authentication.
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
use std::time::Duration;

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
    let grace = state.limits().request_timeout + Duration::from_secs(1);
    let _watcher = library.watch(refresh_every);

    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut stopped = stop_rx.clone();
    let server = axum::serve(listener, app(state)).with_graceful_shutdown(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    let server = tokio::spawn(async move { server.await });
    // Once shutdown starts, in-flight requests get one request time limit.
    let result = tokio::select! {
        r = server => r.map_err(std::io::Error::other).and_then(|r| r),
        () = async move {
            let _ = stopped.wait_for(|s| *s).await;
            tokio::time::sleep(grace).await;
        } => {
            tracing::warn!("requests still running {grace:?} after shutdown began; closing them");
            Ok(())
        }
    };
    drop(stop_rx);
    result
}
