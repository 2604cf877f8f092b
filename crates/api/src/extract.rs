//! Query and JSON extractors whose rejections are [`ApiError`]s, so a bad
//! query string or body gets the same `{"error":...}` shape as everything else.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A query string, parsed into `T`.
pub(crate) struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(Query(v)),
            Err(QueryRejection::FailedToDeserializeQueryString(e)) => {
                Err(ApiError::InvalidArgument(format!("bad query string: {}", e.body_text())))
            }
            Err(e) => Err(ApiError::InvalidArgument(format!("bad query string: {}", e.body_text()))),
        }
    }
}

/// A JSON body, parsed into `T`.
pub(crate) struct Json<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Json(v)),
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError::TooLarge("the request body is too large; at most 64 KiB are allowed".into()))
            }
            Err(JsonRejection::MissingJsonContentType(_)) => Err(ApiError::InvalidArgument(
                "send the body as JSON with `Content-Type: application/json`".into(),
            )),
            Err(e) => Err(ApiError::InvalidArgument(format!("bad JSON body: {}", e.body_text()))),
        }
    }
}
