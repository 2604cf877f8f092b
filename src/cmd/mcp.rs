//! `lectern mcp`: the stdio MCP program (three tools, via the local API); `lectern mcp config` prints
//! the client config the web page shows (absolute paths, no key).

use anyhow::{Context, Result};
use lectern_api::integrations::{ClientKind, mcp_client_config};

use crate::cli::{McpAction, McpArgs, McpClient};
use crate::config::Config;
use crate::output;

pub fn run(config: &Config, args: McpArgs) -> Result<()> {
    match args.action {
        Some(McpAction::Config { client }) => {
            let exe = std::env::current_exe().context("cannot find this program's own path")?;
            let exe = exe.canonicalize().unwrap_or(exe);
            let kind = match client {
                McpClient::Generic => ClientKind::Generic,
                McpClient::Vscode => ClientKind::Vscode,
            };
            output::json(&mcp_client_config(kind, &exe, &config.user_data))
        }
        None => Ok(lectern_mcp::run_stdio(config.user_data.clone())?),
    }
}
