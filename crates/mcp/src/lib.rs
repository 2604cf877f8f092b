//! `lectern mcp`: the stdio MCP program. Exactly three tools
//! (`list_installed_docsets`, `search_documentation`,
//! `load_documentation_page`), reading only through the local API; rmcp
//! (pinned) for protocol semantics (2026-07-28 stateless requests and
//! `server/discover`, plus the `initialize` handshake of 2025-11-25,
//! 2025-06-18, 2025-03-26 and 2024-11-05), under our own line framing.
//!
//! # Layout
//! - `framing`: the stdio line transport (limits, -32700, batches, in-flight cap, EOF).
//! - `bridge`: calls through the local API's client; its failures as tool errors.
//! - `tools`: the three tools, their schemas, and the server instructions.

pub mod bridge;
pub mod framing;
pub mod tools;

use std::path::PathBuf;
use std::time::Duration;

use rmcp::ServiceExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;

pub use bridge::Bridge;
pub use tools::DocsServer;

/// Serves MCP on `input`/`output` until the input ends (then everything in
/// flight is cancelled and this returns promptly).
pub async fn serve(
    input: impl AsyncRead + Send + Unpin + 'static,
    output: impl AsyncWrite + Send + Unpin + 'static,
    user_data: PathBuf,
) {
    let eof = CancellationToken::new();
    let transport = framing::LineTransport::new(input, output, eof.clone());
    let server = DocsServer::new(Bridge::new(user_data));
    // Once stdin has ended, what was read gets its answers for a moment, no more.
    let grace = async {
        eof.cancelled().await;
        tokio::time::sleep(framing::EOF_GRACE).await;
    };
    tokio::pin!(grace);
    let running = tokio::select! {
        r = server.serve(transport) => r,
        () = &mut grace => return,
    };
    let service = match running {
        Ok(service) => service,
        Err(e) => {
            tracing::debug!("MCP session ended before it started: {e}");
            return;
        }
    };
    let cancel = service.cancellation_token();
    tokio::select! {
        _ = service.waiting() => {}
        () = &mut grace => {
            // Still unanswered: cancel every request; give writes a moment, no more.
            cancel.cancel();
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// `lectern mcp`: serves on the process's stdin/stdout.
pub fn run_stdio(user_data: PathBuf) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let (input, output) = rmcp::transport::stdio_pipes();
        serve(input, output, user_data).await;
    });
    // Do not wait for a blocking stdin read that may never return.
    runtime.shutdown_timeout(Duration::from_millis(50));
    Ok(())
}
