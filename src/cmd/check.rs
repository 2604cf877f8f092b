//! `lectern check [EDITION]`: the link check of installed editions, one
//! summary line each and the links that lead nowhere (page and target),
//! marked when the source itself breaks them, and the images whose file
//! the source lacks. Exits 1 when a link the source does not break is broken.

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::CheckArgs;
use crate::config::Config;
use crate::output;

/// Broken links listed per edition without `--all`.
const SHOWN: usize = 50;

pub fn run(config: &Config, args: CheckArgs) -> Result<ExitCode> {
    let library = super::open_ro(config)?;
    let editions = library.check_links(args.edition.as_deref())?;
    let failed = editions
        .iter()
        .any(|e| e.error.is_some() || e.links.as_ref().is_some_and(|l| l.broken_by_conversion() > 0));
    if args.json {
        output::json(&editions)?;
        return Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS });
    }
    if editions.is_empty() {
        outln!("no editions installed")?;
    }
    for e in &editions {
        let Some(links) = &e.links else {
            outln!(
                "{} ({}): cannot read its source again: {}",
                e.id,
                e.prefix,
                e.error.as_deref().unwrap_or("")
            )?;
            continue;
        };
        outln!("{} ({}): {}", e.id, e.prefix, links.summary())?;
        if e.source_changed {
            outln!(
                "  the source changed since it was added; `lectern add` it again to publish what is checked here"
            )?;
        }
        let shown = if args.all { links.listed.len() } else { SHOWN.min(links.listed.len()) };
        for l in &links.listed[..shown] {
            let whose = if l.in_source { "broken in the source" } else { "broken by the conversion" };
            outln!("  {} -> {}  ({whose})", l.page, l.target)?;
        }
        if links.broken > shown {
            outln!("  ... and {} more (see --all or --json)", links.broken - shown)?;
        }
        let shown = if args.all { links.missing_images.len() } else { SHOWN.min(links.missing_images.len()) };
        for l in &links.missing_images[..shown] {
            outln!("  {} -> {}  (image missing in the source)", l.page, l.target)?;
        }
        if links.images_missing > shown {
            outln!("  ... and {} more missing images (see --all or --json)", links.images_missing - shown)?;
        }
    }
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
