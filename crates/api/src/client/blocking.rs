//! A blocking face of the local-API [`Client`](super::Client) for commands
//! that run no async runtime (`lectern open`, `lectern doctor`): each call
//! runs the async client on a small runtime of its own.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::{ClientError, Request};
use crate::discovery::Discovery;

/// A server found through the discovery files.
#[derive(Debug, Clone)]
pub struct Client {
    inner: super::Client,
}

impl Client {
    /// Reads the discovery files and checks the challenge.
    pub fn connect(user_data: &Path) -> Result<Client, ClientError> {
        let client = Client { inner: super::Client::discover(user_data)? };
        client.challenge()?;
        Ok(client)
    }

    /// Wraps discovery data without checking anything yet.
    pub fn unchecked(discovery: Discovery) -> Client {
        Client { inner: super::Client::new(discovery) }
    }

    pub fn discovery(&self) -> &Discovery {
        self.inner.discovery()
    }

    pub fn port(&self) -> u16 {
        self.inner.port()
    }

    /// Sends a fresh nonce and checks the proof against the key, pid and port.
    pub fn challenge(&self) -> Result<(), ClientError> {
        self.block_on(self.inner.challenge())
    }

    /// An authenticated GET; `path` includes the query string.
    pub fn get(&self, path: &str) -> Result<Value, ClientError> {
        self.block_on(self.inner.call_unproven(&Request::get(path)))
    }

    /// An authenticated POST with a JSON body.
    pub fn post(&self, path: &str, body: &impl Serialize) -> Result<Value, ClientError> {
        self.block_on(self.inner.call_unproven(&Request::post(path, body)))
    }

    fn block_on<T>(&self, call: impl Future<Output = Result<T, ClientError>>) -> Result<T, ClientError> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| {
            ClientError::Unavailable {
                port: self.port(),
                reason: format!("starting the client runtime: {e}"),
            }
        })?;
        runtime.block_on(call)
    }
}
