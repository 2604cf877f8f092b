//! MCP client configs for the Integrations page: "Generic"
//! (`mcpServers`) and "VS Code" (`servers`, `"type": "stdio"`), with absolute
//! paths and no key. Lectern prints or shows them; it never writes a
//! client's config file. `lectern mcp config generic|vscode` prints the same.

use std::path::Path;
use std::str::FromStr;

use serde_json::{Value, json};

/// Which client format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientKind {
    Generic,
    Vscode,
}

impl FromStr for ClientKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "generic" => Ok(ClientKind::Generic),
            "vscode" | "vs-code" => Ok(ClientKind::Vscode),
            other => Err(format!("unknown MCP client {other:?}; allowed: generic, vscode")),
        }
    }
}

fn args(user_data: &Path) -> Value {
    json!(["mcp", "--user-data", user_data.display().to_string()])
}

/// The config a client pastes in.
pub fn mcp_client_config(kind: ClientKind, exe: &Path, user_data: &Path) -> Value {
    let command = exe.display().to_string();
    match kind {
        ClientKind::Generic => {
            json!({"mcpServers": {"lectern": {"command": command, "args": args(user_data)}}})
        }
        ClientKind::Vscode => {
            json!({"servers": {"lectern": {"type": "stdio", "command": command, "args": args(user_data)}}})
        }
    }
}

/// The same as one shell command line (single-quoted where needed).
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
        let g = mcp_client_config(ClientKind::Generic, exe, ud);
        assert_eq!(g["mcpServers"]["lectern"]["command"], "/opt/lectern/bin/lectern");
        assert_eq!(
            g["mcpServers"]["lectern"]["args"],
            json!(["mcp", "--user-data", "/home/me/.local/share/lectern"])
        );
        let v = mcp_client_config(ClientKind::Vscode, exe, ud);
        assert_eq!(v["servers"]["lectern"]["type"], "stdio");
        assert_eq!(
            mcp_command_line(Path::new("/Apps/My App/lectern"), ud),
            "'/Apps/My App/lectern' mcp --user-data /home/me/.local/share/lectern"
        );
    }
}
