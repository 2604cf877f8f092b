//! `lectern list`, `enable`, `disable`, `remove`.

use anyhow::Result;
use lectern_library::ListRequest;
use serde_json::json;

use crate::cli::{EditionArg, ListArgs};
use crate::config::Config;
use crate::output;

pub fn list(config: &Config, args: ListArgs) -> Result<()> {
    let library = super::open_ro(config)?;
    let list = library.list(&ListRequest { all: args.all, generation: None })?;
    if args.json {
        return output::json(&list);
    }
    let rows: Vec<Vec<String>> = list
        .editions
        .iter()
        .map(|e| {
            vec![
                e.id.clone(),
                e.label.clone(),
                e.status.to_string(),
                e.prefix.clone(),
                e.pages.to_string(),
                e.sections.to_string(),
                if e.enabled { "yes".into() } else { "no".into() },
            ]
        })
        .collect();
    out!(
        "{}",
        output::table(&["EDITION", "LABEL", "STATUS", "PREFIX", "PAGES", "SECTIONS", "ENABLED"], &rows)
    )?;
    let d = &list.defaults;
    let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
    outln!(
        "generation {}; defaults: project {}, version {}, locale {}",
        list.generation,
        show(&d.project),
        show(&d.version),
        show(&d.locale)
    )?;
    Ok(())
}

pub enum Switch {
    Enable,
    Disable,
    Remove,
}

pub fn switch(config: &Config, args: EditionArg, action: Switch) -> Result<()> {
    let library = super::open_rw(config)?;
    let (verb, generation) = match action {
        Switch::Enable => ("enabled", library.set_enabled(&args.edition, true, &mut super::on_wait, None)?),
        Switch::Disable => {
            ("disabled", library.set_enabled(&args.edition, false, &mut super::on_wait, None)?)
        }
        Switch::Remove => ("removed", library.remove(&args.edition, &mut super::on_wait, None)?),
    };
    if args.json {
        return output::json(&json!({"edition": args.edition, "action": verb, "generation": generation}));
    }
    outln!("{verb} {}; generation {generation}", args.edition)?;
    Ok(())
}
