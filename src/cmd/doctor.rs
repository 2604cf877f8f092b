//! `lectern doctor`: explains the library (folder, editions, generation,
//! index check) and the local API (server, discovery files, challenge,
//! authenticated status), one line each with what to do; exit 1 on a problem.
//! The server checks have an overall deadline: a program on the server's
//! port that answers slowly or never cannot hold the doctor.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Result;
use lectern_api::client::blocking::Client;
use lectern_api::discovery::{self, DiscoveryError};
use lectern_library::{Library, ListRequest, OpenMode};
use serde::Serialize;

use crate::cli::DoctorArgs;
use crate::config::Config;

#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
enum Level {
    Ok,
    Note,
    Problem,
}

#[derive(Debug, Serialize)]
struct Check {
    check: &'static str,
    level: Level,
    detail: String,
}

/// Adds one check line.
type Push<'a> = dyn FnMut(&'static str, Level, String) + 'a;

/// How long the server checks may take, all together: a healthy local
/// server answers them in milliseconds.
const SERVER_DEADLINE: Duration = Duration::from_secs(10);

pub fn run(config: &Config, args: DoctorArgs) -> Result<ExitCode> {
    let mut checks = Vec::new();
    let mut push = |check, level, detail: String| checks.push(Check { check, level, detail });
    let root = &config.user_data;
    let generation = check_library(root, &mut push);
    checks.extend(server_checks(root, generation, SERVER_DEADLINE));
    report(&checks, args.json)
}

/// [`check_server`] on its own thread, given up after `deadline`.
fn server_checks(root: &std::path::Path, generation: Option<String>, deadline: Duration) -> Vec<Check> {
    let root = root.to_path_buf();
    within(deadline, move |push| check_server(&root, generation.as_deref(), push))
}

/// Runs `checks` on its own thread for at most `deadline`: the checks made
/// by then, and a problem line when they did not finish (the thread is
/// left behind; the command ends right after).
fn within(deadline: Duration, checks: impl FnOnce(&mut Push<'_>) + Send + 'static) -> Vec<Check> {
    let made = Arc::new(Mutex::new(Vec::new()));
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let into = Arc::clone(&made);
    let started = std::thread::Builder::new().name("lectern-doctor-server".into()).spawn(move || {
        let mut push = |check, level, detail: String| {
            into.lock().unwrap_or_else(|p| p.into_inner()).push(Check { check, level, detail });
        };
        checks(&mut push);
        let _ = done_tx.send(());
    });
    let finished = started.is_ok() && done_rx.recv_timeout(deadline).is_ok();
    let mut checks = std::mem::take(&mut *made.lock().unwrap_or_else(|p| p.into_inner()));
    if !finished {
        checks.push(Check {
            check: "server",
            level: Level::Problem,
            detail: format!(
                "the program on the local API port did not finish answering within {} s; \
                 if it is a lectern server, it is stuck: stop it and start `lectern serve` again",
                deadline.as_secs_f32()
            ),
        });
    }
    checks
}

/// The library folder, its editions and generation, and the index checksums;
/// returns the library's generation when it could be read.
fn check_library(root: &std::path::Path, push: &mut Push<'_>) -> Option<String> {
    let mut generation = None;
    if !root.join("index").is_dir() {
        push(
            "library",
            Level::Problem,
            format!(
                "no library at {}; install docs with `lectern add --site CONFIG` or `lectern add SOURCE ...`",
                root.display()
            ),
        );
    } else {
        match Library::open(root, OpenMode::ReadOnly) {
            Err(e) => push("library", Level::Problem, format!("{}: {e}", root.display())),
            Ok(library) => {
                match library.list(&ListRequest { all: true, generation: None }) {
                    Ok(list) => {
                        let enabled = list.editions.iter().filter(|e| e.enabled).count();
                        let level = if enabled == 0 { Level::Note } else { Level::Ok };
                        push(
                            "library",
                            level,
                            format!(
                                "{}: {} editions ({enabled} enabled), generation {}{}",
                                root.display(),
                                list.editions.len(),
                                list.generation,
                                if enabled == 0 { "; enable one with `lectern enable EDITION`" } else { "" }
                            ),
                        );
                        generation = Some(list.generation);
                    }
                    Err(e) => push("library", Level::Problem, e.to_string()),
                }
                match library.verify() {
                    Ok(()) => push("index", Level::Ok, "every index file's checksum matches".into()),
                    Err(e) => push(
                        "index",
                        Level::Problem,
                        format!(
                            "{e}; reinstall the editions with `lectern add` (the sources are listed by `lectern list --json`)"
                        ),
                    ),
                }
            }
        }
    }

    generation
}

/// The local API: discovery files, the challenge, an authenticated status
/// call, and whether it serves the library's generation.
fn check_server(root: &std::path::Path, generation: Option<&str>, push: &mut Push<'_>) {
    match discovery::read(root) {
        Err(DiscoveryError::NotRunning { .. }) => {
            push(
                "server",
                Level::Note,
                format!(
                    "no local API server is running for {}; start one with `lectern serve`",
                    root.display()
                ),
            );
        }
        Err(e) => push("discovery files", Level::Problem, e.to_string()),
        Ok(found) => {
            let s = &found.status;
            push(
                "server",
                Level::Ok,
                format!(
                    "pid {} is running, listening on http://{}:{} since {}",
                    s.pid, s.address, s.port, s.started_at
                ),
            );
            push(
                "discovery files",
                Level::Ok,
                format!(
                    "{}: folder 0700, status.json and access-key 0600, yours, one link each",
                    found.dir.display()
                ),
            );
            let client = Client::unchecked(found);
            match client.challenge() {
                Err(e) => push("challenge", Level::Problem, e.to_string()),
                Ok(()) => {
                    push(
                        "challenge",
                        Level::Ok,
                        "the server proved it holds the access key (POST /auth/challenge)".into(),
                    );
                    match client.get("/v1/status") {
                        Err(e) => {
                            push("api", Level::Problem, format!("authenticated GET /v1/status failed: {e}"))
                        }
                        Ok(v) => {
                            let served = v["generation"].as_str().unwrap_or("?").to_owned();
                            let detail =
                                format!("GET /v1/status with the key: ok, serving generation {served}");
                            match generation {
                                Some(g) if g != served => push(
                                    "api",
                                    Level::Note,
                                    format!(
                                        "{detail} (the library's is {g}; the server picks it up within a second)"
                                    ),
                                ),
                                _ => push("api", Level::Ok, detail),
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Prints the checks (a table, or JSON) and exits 1 on a problem.
fn report(checks: &[Check], json: bool) -> Result<ExitCode> {
    let problem = checks.iter().any(|c| matches!(c.level, Level::Problem));
    if json {
        crate::output::json(&serde_json::json!({ "ok": !problem, "checks": checks }))?;
    } else {
        for c in checks {
            let tag = match c.level {
                Level::Ok => "ok     ",
                Level::Note => "note   ",
                Level::Problem => "PROBLEM",
            };
            outln!("{tag} {:<16} {}", c.check, c.detail)?;
        }
    }
    Ok(if problem { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doctor_has_an_overall_deadline_for_a_server_that_never_finishes() {
        let started = std::time::Instant::now();
        let checks = within(Duration::from_millis(300), |push| {
            push("server", Level::Ok, "pid 1 is running".into());
            // A squatter dripping bytes: the challenge never completes.
            std::thread::sleep(Duration::from_secs(600));
        });
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(checks.len(), 2);
        assert!(matches!(checks[1].level, Level::Problem));
        assert!(checks[1].detail.contains("did not finish answering within 0.3 s"), "{}", checks[1].detail);
    }
}
