//! [`SiteError`]: every failure a site visitor sees, turned into an HTTP
//! status and a small HTML page in exactly one place.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use lectern_library::LibraryError;

#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("{message}")]
    TooManyRequests { message: String, retry_after_secs: u64 },
    #[error("{0}")]
    Internal(String),
    #[error(transparent)]
    Library(#[from] LibraryError),
}

impl SiteError {
    pub fn status(&self) -> StatusCode {
        match self {
            SiteError::Forbidden(_) => StatusCode::FORBIDDEN,
            SiteError::NotFound(_) => StatusCode::NOT_FOUND,
            SiteError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            SiteError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            SiteError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            SiteError::Library(e) => match e.code() {
                "invalid_argument" => StatusCode::BAD_REQUEST,
                "not_found" => StatusCode::NOT_FOUND,
                "busy" => StatusCode::SERVICE_UNAVAILABLE,
                "timeout" => StatusCode::GATEWAY_TIMEOUT,
                "too_large" => StatusCode::PAYLOAD_TOO_LARGE,
                _ => StatusCode::INTERNAL_SERVER_ERROR,
            },
        }
    }
}

impl IntoResponse for SiteError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::warn!("{self}");
        }
        let body = crate::html::error_page(status, &self.to_string());
        let mut response =
            (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response();
        if let SiteError::TooManyRequests { retry_after_secs, .. } = self
            && let Ok(v) = HeaderValue::from_str(&retry_after_secs.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        response
    }
}

impl From<tokio::task::JoinError> for SiteError {
    fn from(e: tokio::task::JoinError) -> Self {
        SiteError::Internal(format!("a library call failed: {e}"))
    }
}
