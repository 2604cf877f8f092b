//! [`SiteError`]: every failure a site visitor sees, given a code, turned
//! into an HTTP status and a small HTML page in exactly one place.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use lectern_library::{ErrorCode, LibraryError};

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
    /// The stable code.
    pub fn code(&self) -> ErrorCode {
        match self {
            SiteError::Forbidden(_) => ErrorCode::Forbidden,
            SiteError::NotFound(_) => ErrorCode::NotFound,
            SiteError::MethodNotAllowed(_) => ErrorCode::MethodNotAllowed,
            SiteError::TooManyRequests { .. } => ErrorCode::RateLimited,
            SiteError::Internal(_) => ErrorCode::Internal,
            SiteError::Library(e) => e.code(),
        }
    }

    pub fn status(&self) -> StatusCode {
        status_of(self.code())
    }
}

/// The site's one table from code to HTTP status.
pub fn status_of(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::InvalidArgument => StatusCode::BAD_REQUEST,
        ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
        ErrorCode::Forbidden => StatusCode::FORBIDDEN,
        ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::GenerationChanged => StatusCode::CONFLICT,
        ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::Busy | ErrorCode::LocalApiUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::Timeout => StatusCode::GATEWAY_TIMEOUT,
        ErrorCode::Cancelled | ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl IntoResponse for SiteError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::warn!("{self}");
        }
        // People read this page: a missing page is said plainly, without
        // the hints for agents (tool names) the library's message carries.
        let message = match &self {
            SiteError::Library(e) if e.code() == ErrorCode::NotFound => {
                "There is no page at this address.".to_owned()
            }
            other => other.to_string(),
        };
        let body = crate::html::error_page(status, &message);
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
