//! `lectern mcp`: the stdio MCP program (three tools, via the local API); `lectern mcp config
//! CLIENT` prints the client config the web page shows (absolute paths, no key): the
//! snippet on stdout, so it can be piped or pasted as it is, and where it goes on stderr.

use std::io::Write;

use anyhow::{Context, Result};
use lectern_api::integrations::{ClientKind, client_config};

use crate::cli::{McpAction, McpArgs, McpClient};
use crate::config::Config;

pub fn run(config: &Config, args: McpArgs) -> Result<()> {
    match args.action {
        Some(McpAction::Config { client }) => {
            let exe = std::env::current_exe().context("cannot find this program's own path")?;
            let exe = exe.canonicalize().unwrap_or(exe);
            let user_data = std::path::absolute(&config.user_data).unwrap_or(config.user_data.clone());
            print_config(kind(client), &exe, &user_data)
        }
        None => Ok(lectern_mcp::run_stdio(config.user_data.clone())?),
    }
}

fn kind(client: McpClient) -> ClientKind {
    match client {
        McpClient::Generic => ClientKind::Generic,
        McpClient::ClaudeDesktop => ClientKind::ClaudeDesktop,
        McpClient::ClaudeCode => ClientKind::ClaudeCode,
        McpClient::Cursor => ClientKind::Cursor,
        McpClient::Vscode => ClientKind::Vscode,
        McpClient::Windsurf => ClientKind::Windsurf,
        McpClient::Zed => ClientKind::Zed,
        McpClient::Codex => ClientKind::Codex,
    }
}

/// The first snippet on stdout; its target, and any other way, on stderr.
fn print_config(kind: ClientKind, exe: &std::path::Path, user_data: &std::path::Path) -> Result<()> {
    let config = client_config(kind, exe, user_data);
    let mut snippets = config.snippets.iter();
    let mut err = std::io::stderr().lock();
    if let Some(first) = snippets.next() {
        writeln!(err, "{}: paste into {}", config.name, first.target)?;
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", first.text.trim_end())?;
    }
    for other in snippets {
        writeln!(err, "\nOr, in {}:\n{}", other.target, other.text.trim_end())?;
    }
    Ok(())
}
