//! `lectern config get/set/unset/list`: library settings.

use anyhow::Result;
use lectern_library::ListRequest;
use lectern_library::settings::KEYS;
use serde_json::json;

use crate::cli::{ConfigAction, ConfigArgs};
use crate::config::Config;
use crate::output;

pub fn run(config: &Config, args: ConfigArgs) -> Result<()> {
    match args.action {
        ConfigAction::Set { key, value } => {
            let library = super::open_rw(config)?;
            let stored = library.set_setting(&key, &value, &mut super::on_wait)?;
            outln!("{key} = {stored}")?;
        }
        ConfigAction::Unset { key } => {
            let library = super::open_rw(config)?;
            library.unset_setting(&key, &mut super::on_wait)?;
            outln!("{key} unset")?;
        }
        ConfigAction::Get { key, json } => {
            let library = super::open_ro(config)?;
            let view = library.view()?;
            lectern_library::settings::check_key(&key)?;
            let value = view.settings().get(&key).cloned();
            if json {
                return output::json(&json!({"key": key, "value": value}));
            }
            match value {
                Some(v) => outln!("{v}")?,
                None => outln!("(not set)")?,
            }
        }
        ConfigAction::List { json } => {
            let library = super::open_ro(config)?;
            let view = library.view()?;
            let defaults = library.list(&ListRequest::default())?.defaults;
            if json {
                return output::json(&json!({"settings": view.settings(), "defaults": defaults}));
            }
            for k in KEYS {
                let v = view.settings().get(k.key).map(String::as_str).unwrap_or("(not set)");
                outln!("{:<22} {v:<14} {}", k.key, k.help)?;
            }
            for (k, v) in view.settings().iter().filter(|(k, _)| k.starts_with("default.version.")) {
                outln!("{k:<22} {v}")?;
            }
            let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
            outln!(
                "in effect: project {}, version {}, locale {}",
                show(&defaults.project),
                show(&defaults.version),
                show(&defaults.locale)
            )?;
        }
    }
    Ok(())
}
