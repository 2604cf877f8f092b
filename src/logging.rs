//! Logging on stderr only: stdout belongs to command output (and to MCP in
//! stdio mode).
//!
//! `LECTERN_LOG` picks what is logged: a level (`info`) or a list of
//! `target=level` pairs with an optional default (`warn,lectern_site=debug`).
//! A value that does not parse is ignored for the `-v`/`-q` default.

use std::str::FromStr;

use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

pub fn init(verbose: u8, quiet: bool) {
    let default = match (quiet, verbose) {
        (true, _) => "error",
        (false, 0) => "warn",
        (false, 1) => "info",
        (false, _) => "debug",
    };
    let filter = std::env::var("LECTERN_LOG")
        .ok()
        .and_then(|v| Targets::from_str(&v).ok())
        .unwrap_or_else(|| Targets::from_str(default).expect("a plain level parses"));
    // Colours only for a person at a terminal: an editor that launched
    // `lectern mcp` keeps its stderr in a file.
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(colour)
        .with_target(false)
        .with_max_level(tracing::Level::TRACE)
        .finish()
        .with(filter)
        .try_init();
}
