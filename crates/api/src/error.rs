//! [`ApiError`]: every failure a client of the local API sees, turned into an
//! HTTP status and `{"error":{"code","message"}}` in exactly one place.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use lectern_library::error::{ErrorBody, ErrorDetail};
use lectern_library::{ErrorCode, LibraryError};

/// An error as the local API reports it.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    InvalidArgument(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("{0}")]
    Timeout(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    Busy(String),
    #[error("{0}")]
    Internal(String),
    #[error(transparent)]
    Library(#[from] LibraryError),
}

impl ApiError {
    /// The stable code. A wrong method is `invalid_argument` (with HTTP 405),
    /// as docs/local-api.md promises.
    pub fn code(&self) -> ErrorCode {
        match self {
            ApiError::Unauthorized(_) => ErrorCode::Unauthorized,
            ApiError::Forbidden(_) => ErrorCode::Forbidden,
            ApiError::InvalidArgument(_) | ApiError::MethodNotAllowed(_) => ErrorCode::InvalidArgument,
            ApiError::NotFound(_) => ErrorCode::NotFound,
            ApiError::Timeout(_) => ErrorCode::Timeout,
            ApiError::TooLarge(_) => ErrorCode::TooLarge,
            ApiError::Busy(_) => ErrorCode::Busy,
            ApiError::Internal(_) => ErrorCode::Internal,
            ApiError::Library(e) => e.code(),
        }
    }

    /// The HTTP status: the code's, except a wrong method's 405.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            other => status_of(other.code()),
        }
    }

    /// The wire body.
    pub fn body(&self) -> ErrorBody {
        match self {
            ApiError::Library(e) => e.body(),
            other => ErrorBody {
                error: ErrorDetail { code: other.code(), message: other.to_string(), generation: None },
            },
        }
    }
}

/// The local API's one table from code to HTTP status. Codes only other
/// faces send are listed too, so a new code cannot be forgotten here.
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

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::warn!(code = self.code().as_str(), "{self}");
        }
        let mut response = (status, Json(self.body())).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert("retry-after", axum::http::HeaderValue::from_static("1"));
        }
        response
    }
}

/// A blocking task that panicked or was cancelled.
impl From<tokio::task::JoinError> for ApiError {
    fn from(e: tokio::task::JoinError) -> Self {
        ApiError::Internal(format!("a library call failed: {e}"))
    }
}
