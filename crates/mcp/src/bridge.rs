//! The stdio program's way to the local API: every call re-reads the
//! discovery files and goes through the one local-API client
//! ([`lectern_api::client::Client`]: challenge before the key, on the same
//! connection, 127.0.0.1 only, 8 s, 4 MiB). This file turns the client's
//! failures into tool errors: the code the local API sent stays the code the
//! tool returns; a server that cannot be reached or trusted is
//! `local_api_unavailable`, with one sentence saying what to do.

use std::path::PathBuf;

use lectern_api::client::{ChallengeFailure, Client, ClientError, Request};
use lectern_library::ErrorCode;
use serde_json::Value;

/// Why a tool could not get its answer, in the shape every face uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    pub code: ErrorCode,
    pub message: String,
}

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ToolError {
        ToolError { code, message: message.into() }
    }
}

/// Reaches the local API of one user-data folder.
#[derive(Debug, Clone)]
pub struct Bridge {
    user_data: PathBuf,
}

impl Bridge {
    pub fn new(user_data: PathBuf) -> Bridge {
        Bridge { user_data }
    }

    /// One authenticated call, after the server proved it holds the key.
    pub async fn call(&self, request: &Request) -> Result<Value, ToolError> {
        let client = Client::discover(&self.user_data).map_err(tool_error)?;
        client.call(request).await.map_err(tool_error)
    }
}

fn tool_error(e: ClientError) -> ToolError {
    let unavailable = |message: String| ToolError::new(ErrorCode::LocalApiUnavailable, message);
    match e {
        ClientError::Api { code, message, .. } => ToolError::new(code, advice(code, message)),
        ClientError::NotJson { status, reason } => ToolError::new(
            ErrorCode::Internal,
            format!("the local API answered HTTP {status} with a body that is not JSON: {reason}"),
        ),
        ClientError::Discovery(d) => unavailable(d.to_string()),
        ClientError::Unavailable { port, reason } => unavailable(format!(
            "The local API on 127.0.0.1:{port} did not answer ({reason}): start Lectern with `lectern serve` and make sure the API is on."
        )),
        ClientError::ChallengeFailed { port, reason } => {
            let reason = match reason {
                ChallengeFailure::NoProof => "no proof in its answer".to_owned(),
                ChallengeFailure::Mismatch => {
                    "its proof does not match the access key, pid and port".to_owned()
                }
                other => other.to_string(),
            };
            unavailable(format!(
                "The server on 127.0.0.1:{port} failed the identity check ({reason}), so the access key was not sent: stop whatever holds that port and restart `lectern serve`."
            ))
        }
        // Something other than Lectern holds the recorded port; the message says so.
        e @ ClientError::Redirected { .. } => unavailable(e.to_string()),
        ClientError::Protocol(reason) => unavailable(format!(
            "The local API gave an answer this program cannot use ({reason}): restart `lectern serve`."
        )),
    }
}

/// The stdio face's one table over the codes: what a tool adds to the local
/// API's message so an agent knows what to do next. The code itself is
/// passed on unchanged.
fn advice(code: ErrorCode, message: String) -> String {
    match code {
        ErrorCode::GenerationChanged => format!(
            "{message}. The documentation changed since your search: call search_documentation again and use the section_key and generation it returns."
        ),
        ErrorCode::Unauthorized | ErrorCode::Forbidden => {
            format!("The local API refused this program ({message}): restart `lectern serve` and try again.")
        }
        ErrorCode::InvalidArgument
        | ErrorCode::NotFound
        | ErrorCode::Busy
        | ErrorCode::Timeout
        | ErrorCode::TooLarge
        | ErrorCode::MethodNotAllowed
        | ErrorCode::RateLimited
        | ErrorCode::LocalApiUnavailable
        | ErrorCode::Cancelled
        | ErrorCode::Internal => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bridge passes the local API's code through, whatever it is.
    #[test]
    fn local_api_codes_are_not_remapped() {
        for code in [ErrorCode::Unauthorized, ErrorCode::GenerationChanged, ErrorCode::NotFound] {
            let e = ClientError::Api { status: 400, code, message: "m".into(), generation: None };
            assert_eq!(tool_error(e).code, code);
        }
    }

    #[test]
    fn a_redirect_from_the_local_api_is_local_api_unavailable() {
        let e = ClientError::Redirected { port: 4000, status: 302, location: Some("/login".into()) };
        let t = tool_error(e);
        assert_eq!(t.code, ErrorCode::LocalApiUnavailable);
        assert!(t.message.contains("redirected (HTTP 302 to /login)"), "{}", t.message);
        assert!(t.message.contains("not a Lectern local API"), "{}", t.message);
    }
}
