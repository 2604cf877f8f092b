//! `lectern repair`: rebuilds the index from each edition's recorded source
//! (after `lectern doctor` or a search reports a damaged or old index).

use anyhow::{Result, bail};

use crate::cli::RepairArgs;
use crate::config::Config;
use crate::output;

pub fn run(config: &Config, args: RepairArgs) -> Result<()> {
    let root = &config.user_data;
    if !root.join("index").exists() {
        bail!("no library at {}; nothing to repair (build one with `lectern add`)", root.display());
    }
    // Before the old index is moved aside: read-only storage is refused clearly.
    lectern_library::Library::check_writable(root)?;
    let report = lectern_library::repair::repair(
        root,
        &mut |id| {
            if !args.json {
                eprintln!("rebuilding {id}");
            }
        },
        &mut super::on_wait,
    )?;
    let lost: Vec<_> = report.editions.iter().filter(|e| e.error.is_some()).collect();
    if args.json {
        output::json(&report)?;
    } else {
        outln!(
            "rebuilt {} of {} editions; generation {}",
            report.editions.len() - lost.len(),
            report.editions.len(),
            report.generation
        )?;
        if let Some(aside) = &report.moved_aside {
            outln!("the old index is in {}; delete it once you have checked the library", aside.display())?;
        }
    }
    for e in &lost {
        eprintln!("not rebuilt: {} from {}: {}", e.id, e.source, e.error.as_deref().unwrap_or(""));
    }
    if !lost.is_empty() {
        bail!("{} edition(s) could not be rebuilt; re-add them with `lectern add SOURCE`", lost.len());
    }
    Ok(())
}
