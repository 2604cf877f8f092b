//! MCP client configs for the Integrations page and `lectern mcp config
//! CLIENT`: one per client people use (Claude Desktop, Claude Code, Cursor,
//! VS Code, Windsurf, Zed, Codex CLI, and a generic `mcpServers` one), each
//! in that client's own format, naming the file it goes into, with this
//! binary's and the library's absolute paths and no key. Lectern prints or
//! shows them; it never writes a client's config file.

use std::path::Path;

use serde::Serialize;
use serde_json::{Value, json};

/// An MCP client Lectern can write a config for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientKind {
    Generic,
    Vscode,
    ClaudeDesktop,
    ClaudeCode,
    Cursor,
    Windsurf,
    Zed,
    Codex,
}

impl ClientKind {
    /// Every client, in the order the Integrations page lists them.
    pub const ALL: [ClientKind; 8] = [
        ClientKind::Generic,
        ClientKind::ClaudeDesktop,
        ClientKind::ClaudeCode,
        ClientKind::Cursor,
        ClientKind::Vscode,
        ClientKind::Windsurf,
        ClientKind::Zed,
        ClientKind::Codex,
    ];

    /// The name `lectern mcp config` takes and `/v1/integrations` uses.
    pub fn id(self) -> &'static str {
        match self {
            ClientKind::Generic => "generic",
            ClientKind::Vscode => "vscode",
            ClientKind::ClaudeDesktop => "claude-desktop",
            ClientKind::ClaudeCode => "claude-code",
            ClientKind::Cursor => "cursor",
            ClientKind::Windsurf => "windsurf",
            ClientKind::Zed => "zed",
            ClientKind::Codex => "codex",
        }
    }

    /// The name people know the client by.
    pub fn name(self) -> &'static str {
        match self {
            ClientKind::Generic => "Generic (mcpServers)",
            ClientKind::Vscode => "VS Code",
            ClientKind::ClaudeDesktop => "Claude Desktop",
            ClientKind::ClaudeCode => "Claude Code",
            ClientKind::Cursor => "Cursor",
            ClientKind::Windsurf => "Windsurf",
            ClientKind::Zed => "Zed",
            ClientKind::Codex => "Codex CLI",
        }
    }
}

impl std::str::FromStr for ClientKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.to_ascii_lowercase();
        ClientKind::ALL.into_iter().find(|k| k.id() == wanted).ok_or_else(|| {
            let allowed: Vec<&str> = ClientKind::ALL.iter().map(|k| k.id()).collect();
            format!("unknown MCP client {s:?}; allowed: {}", allowed.join(", "))
        })
    }
}

/// The language a snippet is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SnippetFormat {
    /// A JSON object whose top key is merged into the file.
    Json,
    /// A TOML table appended to the file.
    Toml,
    /// One POSIX shell command line, run in a terminal.
    Shell,
}

/// One thing to paste or run.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Snippet {
    pub format: SnippetFormat,
    /// Where it goes: the file (per OS or scope), or a terminal.
    pub target: String,
    pub text: String,
}

/// Everything one client needs; the first snippet is the usual way.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ClientConfig {
    /// `generic`, `vscode`, `claude-desktop`, `claude-code`, `cursor`, `windsurf`, `zed`, `codex`.
    pub id: String,
    pub name: String,
    pub snippets: Vec<Snippet>,
}

/// The arguments of `lectern mcp` for one library.
fn args(user_data: &Path) -> Vec<String> {
    vec!["mcp".to_owned(), "--user-data".to_owned(), user_data.display().to_string()]
}

/// The JSON config of a client that takes one, as a value (for
/// `/v1/integrations`' `generic` and `vscode` fields); `None` for the
/// clients configured in TOML or by a command.
pub fn mcp_client_config(kind: ClientKind, exe: &Path, user_data: &Path) -> Option<Value> {
    let command = exe.display().to_string();
    let args = args(user_data);
    let stdio = json!({"command": command, "args": args});
    Some(match kind {
        ClientKind::Generic | ClientKind::ClaudeDesktop | ClientKind::Cursor | ClientKind::Windsurf => {
            json!({"mcpServers": {"lectern": stdio}})
        }
        ClientKind::Vscode => {
            json!({"servers": {"lectern": {"type": "stdio", "command": command, "args": args}}})
        }
        ClientKind::Zed => json!({"context_servers": {"lectern": stdio}}),
        ClientKind::ClaudeCode | ClientKind::Codex => return None,
    })
}

/// Claude Code's project file, `.mcp.json`, as `claude mcp add --scope project` writes it.
fn claude_code_project(exe: &Path, user_data: &Path) -> Value {
    json!({"mcpServers": {"lectern": {"type": "stdio", "command": exe.display().to_string(), "args": args(user_data)}}})
}

/// Codex CLI's `[mcp_servers.lectern]` table.
fn codex_toml(exe: &Path, user_data: &Path) -> String {
    let mut server = toml::Table::new();
    server.insert("command".into(), exe.display().to_string().into());
    server.insert("args".into(), args(user_data).into());
    let mut servers = toml::Table::new();
    servers.insert("lectern".into(), server.into());
    let mut root = toml::Table::new();
    root.insert("mcp_servers".into(), servers.into());
    // A table of strings always serialises; the fallback is never reached.
    toml::to_string(&root).unwrap_or_default()
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn snippet(format: SnippetFormat, target: &str, text: String) -> Snippet {
    Snippet { format, target: target.to_owned(), text }
}

/// The config of one client: what to paste or run, and where.
pub fn client_config(kind: ClientKind, exe: &Path, user_data: &Path) -> ClientConfig {
    use SnippetFormat::{Json, Shell, Toml};
    let json_text = || mcp_client_config(kind, exe, user_data).map(|v| pretty(&v)).unwrap_or_default();
    let snippets = match kind {
        ClientKind::Generic => vec![snippet(
            Json,
            "the MCP config file of a client that reads `mcpServers`: merge the `lectern` entry into it",
            json_text(),
        )],
        ClientKind::ClaudeDesktop => vec![snippet(
            Json,
            "claude_desktop_config.json (Settings → Developer → Edit Config): on macOS ~/Library/Application Support/Claude/claude_desktop_config.json, on Windows %APPDATA%\\Claude\\claude_desktop_config.json; merge the `lectern` entry into `mcpServers`, then restart Claude Desktop",
            json_text(),
        )],
        ClientKind::ClaudeCode => vec![
            snippet(
                Shell,
                "a terminal, to run it: `claude mcp add` records the server for you (add `--scope user` after `add` to have it in every project)",
                format!("claude mcp add lectern -- {}", mcp_command_line(exe, user_data)),
            ),
            snippet(
                Json,
                ".mcp.json at the project's root, to share it with the project: merge the `lectern` entry into `mcpServers`",
                pretty(&claude_code_project(exe, user_data)),
            ),
        ],
        ClientKind::Cursor => vec![snippet(
            Json,
            ".cursor/mcp.json in a project, or ~/.cursor/mcp.json for every project: merge the `lectern` entry into `mcpServers`",
            json_text(),
        )],
        ClientKind::Vscode => vec![snippet(
            Json,
            ".vscode/mcp.json in the workspace: merge the `lectern` entry into `servers`",
            json_text(),
        )],
        ClientKind::Windsurf => vec![snippet(
            Json,
            "~/.codeium/windsurf/mcp_config.json: merge the `lectern` entry into `mcpServers`",
            json_text(),
        )],
        ClientKind::Zed => vec![snippet(
            Json,
            "Zed's settings.json (zed: open settings; ~/.config/zed/settings.json): merge the `lectern` entry into `context_servers`",
            json_text(),
        )],
        ClientKind::Codex => vec![snippet(
            Toml,
            "~/.codex/config.toml (or .codex/config.toml in a trusted project): append the `[mcp_servers.lectern]` table",
            codex_toml(exe, user_data),
        )],
    };
    ClientConfig { id: kind.id().to_owned(), name: kind.name().to_owned(), snippets }
}

/// Every client's config, in [`ClientKind::ALL`]'s order.
pub fn all_client_configs(exe: &Path, user_data: &Path) -> Vec<ClientConfig> {
    ClientKind::ALL.iter().map(|&kind| client_config(kind, exe, user_data)).collect()
}

/// `GET /v1/integrations`: what the Integrations page shows.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Integrations {
    /// The command line that starts the stdio MCP program.
    pub command: String,
    /// Config for clients that use `mcpServers` ("Generic"); also `clients[]` with id `generic`.
    pub generic: Value,
    /// Config for VS Code's `.vscode/mcp.json` (`servers`, `"type": "stdio"`); also `clients[]` with id `vscode`.
    pub vscode: Value,
    /// Every client's config, each in its own format, with the file it goes into.
    pub clients: Vec<ClientConfig>,
    /// Set when the library is `lectern serve --demo`'s temporary folder,
    /// which is deleted when the server stops: says so and what to do instead.
    pub notice: Option<String>,
}

/// What `lectern serve --demo`'s Integrations page warns of.
pub const DEMO_NOTICE: &str = "This is the demo: its library is a temporary folder that is deleted when `lectern serve --demo` stops (Ctrl-C), and these configs stop working with it. For a lasting setup, install docs with `lectern add` and run `lectern serve` on that library, then copy the config from its Integrations page or from `lectern mcp config CLIENT`.";

impl Integrations {
    pub fn new(exe: &Path, user_data: &Path, demo: bool) -> Integrations {
        let json = |kind| mcp_client_config(kind, exe, user_data).unwrap_or_default();
        Integrations {
            command: mcp_command_line(exe, user_data),
            generic: json(ClientKind::Generic),
            vscode: json(ClientKind::Vscode),
            clients: all_client_configs(exe, user_data),
            notice: demo.then(|| DEMO_NOTICE.to_owned()),
        }
    }
}

/// The command line that starts `lectern mcp` (POSIX shell, single-quoted where needed).
pub fn mcp_command_line(exe: &Path, user_data: &Path) -> String {
    let quote = |s: &str| {
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+=:@,".contains(&b)) {
            s.to_owned()
        } else {
            format!("'{}'", s.replace('\'', r"'\''"))
        }
    };
    format!(
        "{} mcp --user-data {}",
        quote(&exe.display().to_string()),
        quote(&user_data.display().to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configs_use_absolute_paths_and_no_key() {
        let exe = Path::new("/opt/lectern/bin/lectern");
        let ud = Path::new("/home/me/.local/share/lectern");
        let g = mcp_client_config(ClientKind::Generic, exe, ud).unwrap();
        assert_eq!(g["mcpServers"]["lectern"]["command"], "/opt/lectern/bin/lectern");
        assert_eq!(
            g["mcpServers"]["lectern"]["args"],
            json!(["mcp", "--user-data", "/home/me/.local/share/lectern"])
        );
        let v = mcp_client_config(ClientKind::Vscode, exe, ud).unwrap();
        assert_eq!(v["servers"]["lectern"]["type"], "stdio");
        assert_eq!(
            mcp_command_line(Path::new("/Apps/My App/lectern"), ud),
            "'/Apps/My App/lectern' mcp --user-data /home/me/.local/share/lectern"
        );
    }

    #[test]
    fn every_client_has_an_id_a_name_and_a_first_snippet() {
        let exe = Path::new("/opt/lectern/bin/lectern");
        let ud = Path::new("/home/me/lectern data");
        let all = all_client_configs(exe, ud);
        assert_eq!(all.len(), ClientKind::ALL.len());
        assert_eq!("Claude-Code".parse::<ClientKind>(), Ok(ClientKind::ClaudeCode));
        let err = "emacs".parse::<ClientKind>().unwrap_err();
        assert!(err.contains("allowed: generic, claude-desktop, claude-code"), "{err}");
        for c in &all {
            assert!(!c.snippets.is_empty(), "{}", c.id);
            for s in &c.snippets {
                assert!(s.text.contains("/opt/lectern/bin/lectern"), "{}: {}", c.id, s.text);
                assert!(s.text.contains("/home/me/lectern data"), "{}: {}", c.id, s.text);
            }
        }
    }
}
