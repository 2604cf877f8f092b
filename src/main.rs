//! `lectern`: the command line. Parses flags (`cli`), resolves them into one
//! typed config (`config`), sets up logging on stderr (`logging`), and runs
//! one command from `cmd/`. Errors print their chain once (and, for a
//! command asked for `--json`, as JSON on stdout); exit codes are 0 ok
//! (also when the reader of stdout hung up early), 1 error, 2 usage.

// First: `cmd` prints with its `out!` and `outln!`.
#[macro_use]
mod output;
mod cli;
mod cmd;
mod config;
mod demo;
mod logging;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc (v2, no transparent huge pages): the servers allocate and free
/// many buffers per request on several threads, and glibc malloc spent a
/// tenth of a search server's time in its locks and consolidation. The cost
/// is memory held under load: about 40 MiB of RssAnon after 16 connections
/// of searches against 13 MiB (idle: 2 MiB either way; see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    logging::init(cli.global.verbose, cli.global.quiet);
    let json = cli.command.json();
    match cmd::run(cli) {
        Ok(code) => code,
        Err(e) if output::reader_hung_up(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", output::chain(&e));
            if json {
                output::json_error(&e);
            }
            ExitCode::from(1)
        }
    }
}
