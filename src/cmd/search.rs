//! `lectern search`: ranked search with the shared JSON envelope.

use anyhow::Result;
use lectern_library::SearchParams;

use crate::cli::SearchArgs;
use crate::config::Config;
use crate::output;

pub fn run(config: &Config, args: SearchArgs) -> Result<()> {
    let library = super::open_ro(config)?;
    let params = SearchParams {
        text: args.text,
        project: args.project,
        version: args.version,
        locale: args.locale,
        domain: args.domain,
        collection: args.collection,
        limit: args.limit,
        offset: args.offset,
        generation: args.generation,
        prefix: false,
    };
    let response = library.search(&params, None, None)?;
    if args.json {
        return output::json(&response);
    }
    let colour = output::colour();
    let first = params.offset.unwrap_or(0) as usize;
    for (i, hit) in response.hits.iter().enumerate() {
        let place = match hit.entry.as_ref().or(hit.anchor.as_ref()) {
            Some(a) => format!("{}#{a}", hit.path),
            None => hit.path.clone(),
        };
        outln!("{:>3}. {}  [{}]", first + i + 1, hit.title, hit.edition)?;
        if !hit.breadcrumb.is_empty() {
            outln!("     {}", hit.breadcrumb.join(" › "))?;
        }
        outln!("     {place}  (section {})", hit.section_key)?;
        outln!("     {}", output::highlight(&hit.snippet, &hit.highlights, colour))?;
    }
    let mut flags = Vec::new();
    for (on, name) in [
        (response.timed_out, "timed out"),
        (response.cancelled, "cancelled"),
        (response.candidate_truncated, "candidates truncated"),
    ] {
        if on {
            flags.push(name);
        }
    }
    if let Some(hint) = &response.hint {
        outln!("{hint}")?;
    }
    outln!(
        "{} of {} results; generation {}{}{}",
        response.hits.len(),
        response.total,
        response.generation,
        response.next_offset.map(|n| format!("; more with --offset {n}")).unwrap_or_default(),
        if flags.is_empty() { String::new() } else { format!("; INCOMPLETE: {}", flags.join(", ")) }
    )?;
    Ok(())
}
