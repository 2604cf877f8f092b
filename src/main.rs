//! `lectern`: the command line. Parses flags (`cli`), resolves them into one
//! typed config (`config`), sets up logging on stderr (`logging`), and runs
//! one command from `cmd/`. Errors print their chain once; exit codes are
//! 0 ok, 1 error, 2 usage.

mod cli;
mod cmd;
mod config;
mod logging;
mod output;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc: the servers allocate and free many small buffers per request
/// on several threads; glibc malloc spent a tenth of a search server's time
/// in its own locks and consolidation.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    logging::init(cli.global.verbose, cli.global.quiet);
    match cmd::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", output::chain(&e));
            ExitCode::from(1)
        }
    }
}
