//! [`ApiError`]: every failure a client of the local API sees, turned into an
//! HTTP status and `{"error":{"code","message"}}` in exactly one place.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use lectern_library::LibraryError;
use lectern_library::error::{ErrorBody, ErrorDetail};

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
    /// The stable code and HTTP status.
    pub fn code_and_status(&self) -> (&'static str, StatusCode) {
        match self {
            ApiError::Unauthorized(_) => ("unauthorized", StatusCode::UNAUTHORIZED),
            ApiError::Forbidden(_) => ("forbidden", StatusCode::FORBIDDEN),
            ApiError::InvalidArgument(_) => ("invalid_argument", StatusCode::BAD_REQUEST),
            ApiError::NotFound(_) => ("not_found", StatusCode::NOT_FOUND),
            ApiError::MethodNotAllowed(_) => ("invalid_argument", StatusCode::METHOD_NOT_ALLOWED),
            ApiError::Timeout(_) => ("timeout", StatusCode::GATEWAY_TIMEOUT),
            ApiError::TooLarge(_) => ("too_large", StatusCode::PAYLOAD_TOO_LARGE),
            ApiError::Busy(_) => ("busy", StatusCode::SERVICE_UNAVAILABLE),
            ApiError::Internal(_) => ("internal", StatusCode::INTERNAL_SERVER_ERROR),
            ApiError::Library(e) => {
                let code = e.code();
                let status = match code {
                    "invalid_argument" => StatusCode::BAD_REQUEST,
                    "not_found" => StatusCode::NOT_FOUND,
                    "generation_changed" => StatusCode::CONFLICT,
                    "busy" => StatusCode::SERVICE_UNAVAILABLE,
                    "timeout" => StatusCode::GATEWAY_TIMEOUT,
                    "too_large" => StatusCode::PAYLOAD_TOO_LARGE,
                    _ => StatusCode::INTERNAL_SERVER_ERROR,
                };
                (code, status)
            }
        }
    }

    /// The wire body.
    pub fn body(&self) -> ErrorBody {
        match self {
            ApiError::Library(e) => e.body(),
            other => ErrorBody {
                error: ErrorDetail {
                    code: other.code_and_status().0.to_owned(),
                    message: other.to_string(),
                    generation: None,
                },
            },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (code, status) = self.code_and_status();
        if status.is_server_error() {
            tracing::warn!(code, "{self}");
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
