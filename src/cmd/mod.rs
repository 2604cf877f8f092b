//! One file per command; `run` dispatches. What several commands share
//! (opening the library, server start-up and shutdown) lives here.

mod add;
mod check;
mod completions;
mod config;
mod doctor;
mod editions;
mod export;
mod man;
mod mcp;
mod open;
mod read;
mod repair;
mod search;
mod serve;
mod site;

use std::process::ExitCode;

use anyhow::{Context, Result};
use lectern_library::{Library, OpenMode};

use crate::cli::{Cli, Command};
use crate::config::Config;

pub fn run(cli: Cli) -> Result<ExitCode> {
    // Generated from the CLI definition alone: no library, no home folder needed.
    match cli.command {
        Command::Completions(args) => return completions::run(args).map(|()| ExitCode::SUCCESS),
        Command::Man => return man::run().map(|()| ExitCode::SUCCESS),
        _ => {}
    }
    let config = Config::from_global(&cli.global)?;
    match cli.command {
        Command::Add(args) => add::run(&config, args),
        Command::List(args) => editions::list(&config, args),
        Command::Enable(args) => editions::switch(&config, args, editions::Switch::Enable),
        Command::Disable(args) => editions::switch(&config, args, editions::Switch::Disable),
        Command::Remove(args) => editions::switch(&config, args, editions::Switch::Remove),
        Command::Search(args) => search::run(&config, args),
        Command::Read(args) => read::run(&config, args),
        Command::Config(args) => config::run(&config, args),
        Command::Serve(args) if args.site.is_some() => site::run(&config, args),
        Command::Serve(args) => serve::run(&config, args),
        Command::Export(args) => export::run(&config, args),
        Command::Open(args) => open::run(&config, args),
        Command::Mcp(args) => mcp::run(&config, args),
        Command::Doctor(args) => return doctor::run(&config, args),
        Command::Check(args) => return check::run(&config, args),
        Command::Repair(args) => repair::run(&config, args),
        Command::Completions(_) | Command::Man => unreachable!("handled above"),
    }
    .map(|()| ExitCode::SUCCESS)
}

/// Opens the library for writing (creating it on first use).
pub fn open_rw(config: &Config) -> Result<Library> {
    Ok(Library::open(&config.user_data, OpenMode::ReadWrite)?)
}

/// Opens the library without writing; a missing library is a clear error.
pub fn open_ro(config: &Config) -> Result<Library> {
    Ok(Library::open(&config.user_data, OpenMode::ReadOnly)?)
}

/// Claims the local API's discovery folder (`{user-data}/api`). The server
/// writes its status, access key and lock there; on read-only storage it
/// says so, and what serves such a library instead.
pub fn claim_server_files(user_data: &std::path::Path) -> Result<lectern_api::discovery::ServerFiles> {
    use lectern_api::discovery::{DiscoveryError, ServerFiles};
    match ServerFiles::claim(user_data) {
        Err(DiscoveryError::Io { path, source })
            if matches!(
                source.kind(),
                std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied
            ) =>
        {
            anyhow::bail!(
                "the local API writes its discovery files (status.json, access-key, lock) in {}, \
                 and {} cannot be written ({source}); serve this library with \
                 `lectern serve --site --read-only`, which writes nothing, or make {} writable",
                path.display(),
                user_data.display(),
                user_data.join("api").display()
            )
        }
        other => Ok(other?),
    }
}

/// Tells the user on stderr why a write waits for another writer.
pub fn on_wait(message: &str) {
    eprintln!("{message}");
}

/// Writes generated text to stdout; a reader that hangs up early (`| head`)
/// is not an error.
pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// Blocking threads of a server's runtime (searches, reads): two per core.
pub fn blocking_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()).max(2) * 2
}

/// SIGTERM and Ctrl-C, registered before anything is published or printed,
/// so a signal at any moment after start-up shuts the server down cleanly.
pub struct Shutdown {
    term: tokio::signal::unix::Signal,
    interrupt: tokio::signal::unix::Signal,
}

impl Shutdown {
    /// Must run inside the runtime.
    pub fn install() -> Result<Shutdown> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Shutdown {
            term: signal(SignalKind::terminate()).context("listening for SIGTERM")?,
            interrupt: signal(SignalKind::interrupt()).context("listening for Ctrl-C")?,
        })
    }

    pub async fn wait(mut self) {
        tokio::select! {
            _ = self.term.recv() => {}
            _ = self.interrupt.recv() => {}
        }
        eprintln!("shutting down: finishing requests in flight ...");
    }
}

/// Prints the start-up lines; a closed stdout is no reason to stop serving.
pub fn announce(lines: &[String]) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}
