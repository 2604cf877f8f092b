//! Reads one source and prints what came out and how long it took:
//! `cargo run --release -p lectern-corpus --example read_source -- SOURCE [PREFIX] [PAGE_PATH]`.
//! With PAGE_PATH, prints that page's Markdown and sections instead.

use std::path::PathBuf;
use std::time::Instant;

use lectern_corpus::{ReadOptions, read_source};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(source) = args.next().map(PathBuf::from) else {
        eprintln!("usage: read_source SOURCE [PREFIX] [PAGE_PATH]");
        std::process::exit(2);
    };
    let prefix = args.next().unwrap_or_default();
    let show = args.next();
    let mut runs = Vec::new();
    let mut last = None;
    for _ in 0..if show.is_some() { 1 } else { 3 } {
        let start = Instant::now();
        match read_source(&source, &ReadOptions::new(prefix.clone()), &mut |_, _| {}) {
            Ok(ingested) => {
                runs.push(start.elapsed());
                last = Some(ingested);
            }
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
    }
    let Some(ingested) = last else { return };
    if let Some(path) = show {
        match ingested.pages.iter().find(|p| p.path == path) {
            Some(page) => {
                println!("title: {}\n---- markdown\n{}", page.title, page.markdown);
                for s in &page.sections {
                    println!(
                        "---- section {:?} L{} {:?} {:?}\n{}",
                        s.anchor, s.level, s.title, s.breadcrumb, s.text
                    );
                }
                println!("---- symbols {:?}", page.symbols);
            }
            None => eprintln!("no page {path}"),
        }
        return;
    }
    runs.sort();
    let sections: usize = ingested.pages.iter().map(|p| p.sections.len()).sum();
    let bytes: usize = ingested.pages.iter().map(|p| p.markdown.len()).sum();
    println!(
        "{}: format {:?}, {} pages, {} sections, {} problems, {} KiB of Markdown, median of {} runs {:.0} ms",
        source.display(),
        ingested.format,
        ingested.pages.len(),
        sections,
        ingested.problems.len(),
        bytes / 1024,
        runs.len(),
        runs[runs.len() / 2].as_secs_f64() * 1000.0
    );
    for p in ingested.problems.iter().take(10) {
        println!("  problem: {}: {}", p.path, p.reason);
    }
    // Listings (a generated index, a single-page copy of the chapters) rank last.
    for p in ingested.pages.iter().filter(|p| p.listing).take(10) {
        println!("  listing: {} ({} sections)", p.path, p.sections.len());
    }
}
