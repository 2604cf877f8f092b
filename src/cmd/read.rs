//! `lectern read`: a page by path (or edition + relative path), or a section by key.

use anyhow::{Result, bail};
use lectern_library::read::ReadFormat;
use lectern_library::{ReadPageRequest, ReadSectionRequest};

use crate::cli::ReadArgs;
use crate::config::Config;
use crate::output;

pub fn run(config: &Config, args: ReadArgs) -> Result<()> {
    let library = super::open_ro(config)?;
    let format = if args.markdown { ReadFormat::Markdown } else { ReadFormat::Text };
    let window = if let Some(key) = &args.section {
        if args.first.is_some() {
            bail!("give either --section KEY or a page path, not both");
        }
        let section = library.read_section(&ReadSectionRequest {
            section_key: key.clone(),
            generation: args.generation.clone(),
            offset: args.offset,
            limit: args.limit,
            format,
        })?;
        if args.json {
            return output::json(&section);
        }
        section.window
    } else {
        let (edition, path) = match (&args.first, &args.second) {
            (Some(e), Some(p)) => (Some(e.clone()), p.clone()),
            (Some(p), None) => (None, p.clone()),
            _ => bail!("give a page path (/postgresql/sql-createindex) or an edition and a relative path"),
        };
        let page = library.read_page(&ReadPageRequest {
            path,
            edition,
            generation: args.generation.clone(),
            offset: args.offset,
            limit: args.limit,
            format: Some(format),
        })?;
        if args.json {
            return output::json(&page);
        }
        page.window
    };
    out!("{}", window.content)?;
    if !window.content.ends_with('\n') {
        outln!()?;
    }
    if let Some(next) = window.next_offset {
        eprintln!("(more: --offset {next}; {} characters in all)", window.total_length);
    }
    Ok(())
}
