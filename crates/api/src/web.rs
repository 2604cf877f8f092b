//! The web page: embedded assets (no CDN, works offline), the one-time login
//! URL that becomes an HttpOnly session cookie, and the server challenge.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

use crate::challenge;
use crate::error::ApiError;
use crate::extract::{Json, Query};
use crate::state::AppState;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");
/// The tab's icon, drawn inline (a browser asks for one on every page).
const FAVICON: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\"><rect width=\"16\" height=\"16\" rx=\"3\" fill=\"#2456c7\"/><path d=\"M4 3h2v8h6v2H4z\" fill=\"#fff\"/></svg>";

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/app.js", get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }))
        .route("/app.css", get(|| async { asset("text/css; charset=utf-8", APP_CSS) }))
        .route("/favicon.svg", get(|| async { asset("image/svg+xml", FAVICON) }))
        .route("/login", get(login))
        .route("/auth/challenge", post(challenge))
}

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

fn harden(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    harden(([(header::CONTENT_TYPE, content_type)], body).into_response())
}

async fn index() -> Response {
    harden(Html(INDEX_HTML).into_response())
}

#[derive(Deserialize)]
struct LoginQuery {
    token: Option<String>,
}

/// Spends a login token, sets the session cookie and sends the browser to `/`,
/// so the token leaves the address bar and history.
async fn login(State(state): State<AppState>, Query(q): Query<LoginQuery>) -> Response {
    let session = q.token.as_deref().and_then(|t| state.redeem_login_token(t));
    let Some(session) = session else {
        let page = "<!doctype html><meta charset=utf-8><title>Lectern: login link expired</title>\
            <p>This login link was already used or has expired (links work once, for 5 minutes).</p>\
            <p>Run <code>lectern open</code> to open the page with a fresh one.</p>";
        return harden((StatusCode::UNAUTHORIZED, Html(page)).into_response());
    };
    let cookie = format!("{}={session}; HttpOnly; SameSite=Strict; Path=/", state.cookie_name());
    let mut response = (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    harden(response)
}

/// `POST /auth/challenge` body.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// 16–256 printable ASCII characters, fresh for every check.
    pub nonce: String,
}

/// `POST /auth/challenge` answer.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ChallengeResponse {
    /// HMAC-SHA256 (lowercase hex) keyed with the access key over
    /// `"lectern-challenge-v1\n" + nonce + "\n" + pid + "\n" + port`.
    pub proof: String,
    pub pid: u32,
    pub port: u16,
}

async fn challenge(
    State(state): State<AppState>,
    Json(r): Json<ChallengeRequest>,
) -> Result<axum::Json<ChallengeResponse>, ApiError> {
    challenge::check_nonce(&r.nonce).map_err(ApiError::InvalidArgument)?;
    let proof = challenge::proof(state.access_key(), &r.nonce, state.pid(), state.port());
    Ok(axum::Json(ChallengeResponse { proof, pid: state.pid(), port: state.port() }))
}
