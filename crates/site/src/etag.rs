//! Strong ETags for the site's GET responses: a hash of the exact bytes sent
//! (after compression, so each encoding has its own tag), and
//! `If-None-Match` answered with 304.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use sha2::{Digest, Sha256};

pub(crate) async fn etag(request: Request, next: Next) -> Response {
    let conditional = matches!(*request.method(), Method::GET | Method::HEAD);
    let if_none_match =
        request.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let response = next.run(request).await;
    if !conditional || response.status() != StatusCode::OK {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let bytes = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => {
            tracing::warn!("reading a response body for its ETag failed: {e}");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let tag = format!("\"{}\"", &hex::encode(Sha256::digest(&bytes))[..32]);
    let value = HeaderValue::from_str(&tag).expect("hex is a valid header value");
    parts.headers.insert(header::ETAG, value.clone());
    parts.headers.entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-cache"));
    let matches =
        if_none_match.is_some_and(|inm| inm.split(',').map(str::trim).any(|t| t == tag || t == "*"));
    if matches {
        let mut not_modified = StatusCode::NOT_MODIFIED.into_response();
        for name in [header::ETAG, header::CACHE_CONTROL, header::VARY] {
            if let Some(v) = parts.headers.get(&name) {
                not_modified.headers_mut().insert(name, v.clone());
            }
        }
        return not_modified;
    }
    Response::from_parts(parts, Body::from(bytes))
}
