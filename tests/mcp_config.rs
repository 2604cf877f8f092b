//! `lectern mcp config CLIENT` as a user runs it, for every client it knows:
//! the snippet on stdout parses in that client's own format (JSON, TOML, a
//! shell command line) and names this binary and the library by absolute
//! path; where it goes is on stderr. The outputs are reviewed snapshots
//! with the two paths normalised.
//!
//! Contents:
//! - every client: parses in its format, absolute paths, no key, snapshot
//! - `lectern mcp config --help` lists the clients; an unknown one is refused
//!   with the allowed names

use std::path::{Path, PathBuf};

use serde_json::Value;

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;

use bin::lectern;

/// Every client, with the JSON key its servers live under (None: not JSON).
const CLIENTS: [(&str, Option<&str>); 8] = [
    ("generic", Some("mcpServers")),
    ("claude-desktop", Some("mcpServers")),
    ("claude-code", None),
    ("cursor", Some("mcpServers")),
    ("vscode", Some("servers")),
    ("windsurf", Some("mcpServers")),
    ("zed", Some("context_servers")),
    ("codex", None),
];

/// The binary as `lectern mcp config` names it (its own canonical path).
fn exe() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_lectern")).canonicalize().unwrap()
}

/// A library folder whose path a shell must quote (a space).
fn library() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().canonicalize().unwrap().join("my docs");
    std::fs::create_dir(&lib).unwrap();
    (dir, lib)
}

fn config(lib: &Path, client: &str) -> (String, String) {
    let out = lectern().arg("--user-data").arg(lib).args(["mcp", "config", client]).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{client}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

/// The command and arguments a client would start, read in its own format.
fn command_and_args(client: &str, json_key: Option<&str>, stdout: &str) -> (String, Vec<String>) {
    let strings = |v: &Value| -> Vec<String> {
        v.as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_owned()).collect()
    };
    match (client, json_key) {
        (_, Some(key)) => {
            let v: Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{client}: {e}\n{stdout}"));
            let entry = &v[key]["lectern"];
            if client == "vscode" {
                assert_eq!(entry["type"], "stdio");
            }
            (entry["command"].as_str().unwrap().to_owned(), strings(&entry["args"]))
        }
        ("codex", None) => {
            let t: toml::Table = toml::from_str(stdout).unwrap_or_else(|e| panic!("{client}: {e}\n{stdout}"));
            let entry = &t["mcp_servers"]["lectern"];
            let args = entry["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_owned());
            (entry["command"].as_str().unwrap().to_owned(), args.collect())
        }
        ("claude-code", None) => {
            let words =
                shlex::split(stdout.trim()).unwrap_or_else(|| panic!("not one command line: {stdout}"));
            assert_eq!(words[..4], ["claude", "mcp", "add", "lectern"], "{stdout}");
            assert_eq!(words[4], "--", "{stdout}");
            (words[5].clone(), words[6..].to_vec())
        }
        _ => unreachable!("{client} is in CLIENTS"),
    }
}

#[test]
fn the_editors_people_use_each_get_a_config_in_their_own_format() {
    let (_dir, lib) = library();
    let exe = exe();
    let mut snapshot = String::new();
    for (client, json_key) in CLIENTS {
        let (stdout, stderr) = config(&lib, client);
        let (command, args) = command_and_args(client, json_key, &stdout);
        assert_eq!(Path::new(&command), exe, "{client}");
        assert_eq!(args, ["mcp", "--user-data", lib.to_str().unwrap()], "{client}");
        assert!(!stdout.contains("Bearer") && !stdout.contains("access-key"), "{client}: {stdout}");
        let normalise = |s: &str| {
            s.replace(exe.to_str().unwrap(), "[LECTERN]").replace(lib.to_str().unwrap(), "[LIBRARY]")
        };
        snapshot.push_str(&format!(
            "=== lectern mcp config {client}\n--- stdout\n{}--- stderr\n{}\n",
            normalise(&stdout),
            normalise(&stderr)
        ));
    }
    // Claude Code's project file, shown on stderr, is JSON too.
    let (_, stderr) = config(&lib, "claude-code");
    let project = &stderr[stderr.find("\n{").expect("a .mcp.json on stderr")..];
    let v: Value = serde_json::from_str(project).unwrap();
    assert_eq!(Path::new(v["mcpServers"]["lectern"]["command"].as_str().unwrap()), exe);
    insta::assert_snapshot!(snapshot);
}

#[test]
fn mcp_config_help_lists_the_clients_and_an_unknown_one_is_refused() {
    let out = lectern().args(["mcp", "config", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for (client, _) in CLIENTS {
        assert!(help.contains(client), "{client} is not in --help:\n{help}");
    }
    insta::assert_snapshot!("mcp_config_help", help);

    let out = lectern().args(["mcp", "config", "emacs"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("invalid value 'emacs'"), "{err}");
    assert!(err.contains("claude-desktop") && err.contains("codex") && err.contains("zed"), "{err}");
}
