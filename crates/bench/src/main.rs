//! `lectern-bench`: benchmarks that print their figures, as a table and as
//! one JSON line, on the real corpora in `../shared/corpora`.
//!
//! # Layout
//! - `corpus`: finding the corpus archives, reading members and byte counts out of them.
//! - `bookindex`: the PostgreSQL manual's own index (`bookindex.html`) as ground truth.
//! - `questions`: the hand-written natural-language questions in `data/`.
//! - `setup`: a fresh library in a temporary folder, editions installed into it, its sections.
//! - `score`: hit@k and MRR against page- or section-level targets.
//! - `report`: tables, JSON lines, percentiles, peak RSS, folder sizes.
//! - `ingest`, `eval`, `trees`, `speed`, `site`, `requests`, `load`: one file per subcommand.
//! - `fts`: the SQLite FTS5 baseline `speed` and `eval` compare against.
//! - `xapian`: the Xapian peer of `eval`, `xapian_peer.py` run as a child process.

mod bookindex;
mod corpus;
mod eval;
mod fts;
mod ingest;
mod load;
mod questions;
mod report;
mod requests;
mod score;
mod setup;
mod site;
mod speed;
mod trees;
mod xapian;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// The allocator the `lectern` binary ships with, so that latency and memory
/// figures are those of what users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Debug, Parser)]
#[command(
    name = "lectern-bench",
    about = "Lectern benchmarks on the real corpora; each prints a table and one JSON line"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Ingest speed and memory: PostgreSQL 18 en + zh-Hans into a fresh library.
    Ingest {
        /// Folder holding the corpus archives.
        #[arg(default_value = "../shared/corpora")]
        corpora: PathBuf,
        /// Extract the archives to a temporary folder first and time the
        /// ingest from that folder (default: add the `.tar.xz` directly, as a user would).
        #[arg(long)]
        from_folder: bool,
    },
    /// Search quality: bookindex terms, natural-language questions (side by
    /// side with SQLite FTS5 and, when python3-xapian is installed, Xapian),
    /// Chinese recall.
    Eval {
        #[arg(default_value = "../shared/corpora")]
        corpora: PathBuf,
        /// The k of hit@k (hit@1 and MRR@10 are always printed).
        #[arg(long, default_value_t = 3)]
        k: usize,
        /// Bookindex terms to sample per language (at least 300).
        #[arg(long, default_value_t = 320)]
        terms: usize,
        /// Failing queries to print per set.
        #[arg(long, default_value_t = 12)]
        show_failures: usize,
        /// Also write every query's rank (page and section; `-` when not in
        /// the top 10) to this file, one tab-separated line per query, to
        /// compare two builds query by query.
        #[arg(long)]
        ranks: Option<PathBuf>,
    },
    /// Search quality on real trees no ranking was tuned on (Debian's doc
    /// packages, fetched by scripts/test), questions written before the
    /// engine ran on them, side by side with SQLite FTS5 and Xapian.
    Trees {
        /// Folder holding the unpacked packages.
        #[arg(default_value = "target/test-deps")]
        deps: PathBuf,
        /// The k of hit@k (hit@1 and MRR@10 are always printed).
        #[arg(long, default_value_t = 3)]
        k: usize,
        /// Also write each question's Lectern rank (page and section; `-`
        /// when not in the top 10) and top 3 to this file, one
        /// tab-separated line per question, to compare two builds question
        /// by question.
        #[arg(long)]
        ranks: Option<PathBuf>,
    },
    /// Search latency (PostgreSQL 18 + 15, en + zh-Hans) side by side with SQLite FTS5.
    Search {
        #[arg(default_value = "../shared/corpora")]
        corpora: PathBuf,
        /// Measured rounds over the query set (after one warm-up round).
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        /// FTS5 tokenizer for the baseline.
        #[arg(long, default_value = "porter unicode61")]
        fts_tokenizer: String,
        /// FTS5 misses to print per set.
        #[arg(long, default_value_t = 8)]
        show_failures: usize,
        /// Skip the latency rounds (quality side by side only).
        #[arg(long)]
        quality_only: bool,
        /// Lectern's searches alone for `--rounds` rounds, no FTS5 and no
        /// quality (for a profiler).
        #[arg(long)]
        lectern_only: bool,
    },
    /// Page-API substring search (search_pages) on Markdown sites of 1,000 and
    /// 10,000 generated pages and the npm CLI docs, side by side with a naive
    /// block scan; RssAnon of each site in a fresh child process.
    Site {
        #[arg(default_value = "../shared/corpora")]
        corpora: PathBuf,
        /// Measured runs per term and engine (after one warm-up run); p50 is printed.
        #[arg(long, default_value_t = 31)]
        runs: usize,
        /// Generated site sizes, in pages; memory growth is first to last.
        #[arg(long, value_delimiter = ',', default_value = "1000,10000")]
        sizes: Vec<usize>,
    },
    /// The `search` benchmark's 720 queries as local-API request paths, in
    /// each locale and `*` (2,160 lines, shuffled in a fixed order), for
    /// `scripts/bench-api`.
    Requests {
        #[arg(default_value = "../shared/corpora")]
        corpora: PathBuf,
    },
    /// A closed-loop load run on a running `lectern serve`: CONNECTIONS
    /// keep-alive connections send the request paths of PATHS (one per line,
    /// as `requests` prints them), drawn with Zipf weights, and every
    /// request's latency is kept. Prints requests/s and percentiles, as
    /// measured and with wrk's correction (for `scripts/bench-api`).
    Load {
        /// The server's user-data folder (its `api/status.json` and `api/access-key`).
        user_data: PathBuf,
        /// Request paths, one per line, most popular first.
        paths: PathBuf,
        #[arg(long, default_value_t = 16)]
        connections: usize,
        #[arg(long, default_value_t = 20)]
        seconds: u64,
        /// Zipf exponent s of the draw (weights 1/rank^s; 0 draws uniformly).
        #[arg(long, default_value_t = 1.0)]
        zipf: f64,
    },
    /// One site of `site` in this process (run by `site` as a child).
    #[command(hide = true)]
    SiteOne {
        #[arg(default_value = "../shared/corpora")]
        corpora: PathBuf,
        #[arg(long, default_value_t = 31)]
        runs: usize,
        /// A generated site of this many pages.
        #[arg(long, conflicts_with = "npm")]
        pages: Option<usize>,
        /// The npm CLI docs (4 versions) instead.
        #[arg(long)]
        npm: bool,
    },
    /// Open an installed library read-only, as a site replica would, run the
    /// page searches and listings, and print RssAnon (run by `site-one`).
    #[command(hide = true)]
    SiteServe {
        dir: PathBuf,
        /// Terms to search (every scope).
        #[arg(long = "term")]
        terms: Vec<String>,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Ingest { corpora, from_folder } => ingest::run(&corpora, from_folder),
        Command::Eval { corpora, k, terms, show_failures, ranks } => {
            eval::run(&corpora, k, terms, show_failures, ranks.as_deref())
        }
        Command::Trees { deps, k, ranks } => trees::run(&deps, k, ranks.as_deref()),
        Command::Search { corpora, rounds, fts_tokenizer, show_failures, quality_only, lectern_only } => {
            speed::run(
                &corpora,
                if quality_only { 0 } else { rounds },
                &fts_tokenizer,
                show_failures,
                lectern_only,
            )
        }
        Command::Site { corpora, runs, sizes } => site::run(&corpora, &sizes, runs),
        Command::Requests { corpora } => requests::run(&corpora),
        Command::Load { user_data, paths, connections, seconds, zipf } => {
            anyhow::ensure!(connections > 0 && seconds > 0, "--connections and --seconds must be at least 1");
            let load = load::Load { connections, duration: std::time::Duration::from_secs(seconds), zipf };
            load::run(&user_data, &paths, &load)
        }
        Command::SiteOne { corpora, runs, pages, npm } => {
            let site = match (pages, npm) {
                (Some(n), false) => site::Site::Generated(n),
                (None, true) => site::Site::Npm,
                _ => anyhow::bail!("site-one needs --pages N or --npm"),
            };
            site::run_one(&corpora, &site, runs)
        }
        Command::SiteServe { dir, terms } => site::run_serve(&dir, &terms),
    }
}
