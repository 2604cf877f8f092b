//! What every request passes before a handler: the Host and Origin checks
//! (against DNS rebinding and other sites' pages), the body cap, the request
//! time limit, and, for `/v1/`, authentication by key or session cookie;
//! and [`ApiFace`]: the serving loop's refusals as the API's JSON errors.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::Response;

use lectern_http::{Refusal, RefusalKind};
use lectern_library::ErrorCode;

use crate::error::ApiError;
use crate::state::AppState;

/// The local API as the serving loop sees it: it admits every peer (all are
/// loopback) and renders refusals as `{"error":{"code","message"}}`.
pub(crate) struct ApiFace;

impl lectern_http::Face for ApiFace {
    fn render(&self, refusal: &Refusal) -> (&'static str, String) {
        let code = match refusal.kind {
            RefusalKind::Full | RefusalKind::PeerFull => ErrorCode::Busy,
            RefusalKind::RateLimited => ErrorCode::RateLimited,
            RefusalKind::BodyTimeout => ErrorCode::Timeout,
            RefusalKind::AmbiguousHost => ErrorCode::InvalidArgument,
        };
        let body = serde_json::json!({ "error": { "code": code.as_str(), "message": refusal.message } });
        ("application/json", body.to_string())
    }
}

/// Host, Origin, body size and time limit.
pub(crate) async fn guard(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    check_host(&state, request.headers())?;
    check_origin(&state, request.headers())?;
    if let Some(len) = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()) {
        let limit = state.limits().body_limit;
        match len.parse::<u64>() {
            Ok(n) if n > limit as u64 => {
                return Err(ApiError::TooLarge(format!(
                    "the request body is {n} bytes; at most {limit} are allowed"
                )));
            }
            Ok(_) => {}
            Err(_) => return Err(ApiError::InvalidArgument("Content-Length is not a number".into())),
        }
    }
    // A write is not timed out: once begun it runs to its end, and a 504
    // for a change that then applies would be false (it gives up only
    // while it still waits for another writer, when its client goes away).
    if request.method() == axum::http::Method::POST && request.uri().path().starts_with("/v1/editions/") {
        return Ok(next.run(request).await);
    }
    let limit = state.limits().request_timeout;
    let started = std::time::Instant::now();
    let timeout = || {
        ApiError::Timeout(format!(
            "the request took longer than {} s and was stopped; narrow the search or try again",
            limit.as_secs()
        ))
    };
    // The deadline is polled first, and an answer that comes in after it
    // (before the timer fired: it ticks in milliseconds, a cached search
    // takes microseconds) is refused too: no request slips past its limit.
    tokio::select! {
        biased;
        () = tokio::time::sleep(limit) => Err(timeout()),
        response = next.run(request) => {
            if started.elapsed() >= limit { Err(timeout()) } else { Ok(response) }
        }
    }
}

fn check_host(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let port = state.port();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if host == format!("127.0.0.1:{port}") || host.eq_ignore_ascii_case(&format!("localhost:{port}")) {
        return Ok(());
    }
    Err(ApiError::Forbidden(format!(
        "Host {host:?} is not this server; use http://127.0.0.1:{port}/ (or localhost:{port})"
    )))
}

fn check_origin(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let port = state.port();
    let origin = origin.to_str().unwrap_or("");
    if origin == format!("http://127.0.0.1:{port}")
        || origin.eq_ignore_ascii_case(&format!("http://localhost:{port}"))
    {
        return Ok(());
    }
    Err(ApiError::Forbidden(format!(
        "requests from the page at {origin:?} are not allowed; only this server's own page (http://127.0.0.1:{port}) may call it"
    )))
}

/// `/v1/`: `Authorization: Bearer <key>` or the web session cookie.
pub(crate) async fn authenticate(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let headers = request.headers();
    if let Some(auth) = headers.get(header::AUTHORIZATION) {
        let auth = auth.to_str().unwrap_or("");
        let key = auth.strip_prefix("Bearer ").or_else(|| auth.strip_prefix("bearer ")).unwrap_or("");
        if state.is_access_key(key.trim()) {
            return Ok(next.run(request).await);
        }
        return Err(ApiError::Unauthorized(
            "the access key is wrong; read it again from {user-data}/api/access-key (it changes every time the server starts)".into(),
        ));
    }
    if let Some(session) = session_cookie(&state, headers)
        && state.is_session(&session)
    {
        return Ok(next.run(request).await);
    }
    Err(ApiError::Unauthorized(
        "authentication required: send `Authorization: Bearer <key>` with the key from {user-data}/api/access-key, or log in to the web page with `lectern open`".into(),
    ))
}

/// The session cookie's value, if the request has one.
pub(crate) fn session_cookie(state: &AppState, headers: &HeaderMap) -> Option<String> {
    let name = state.cookie_name();
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
}

pub(crate) async fn not_found(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(format!(
        "no endpoint {method} {}; the endpoints are listed at /v1/openapi.json",
        uri.path()
    ))
}

pub(crate) async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::MethodNotAllowed(format!(
        "{method} is not allowed on {}; see /v1/openapi.json for the methods each endpoint takes",
        uri.path()
    ))
}
