//! Library settings (`lectern config get/set`) and the defaults' fallback
//! order: settings, then the edition marked default / `current`, then the
//! only candidate.

use std::collections::BTreeSet;

use crate::edition::Status;
use crate::error::{LibraryError, invalid};
use crate::manifest::Manifest;

/// A settings key and what it holds.
pub struct SettingKey {
    pub key: &'static str,
    pub help: &'static str,
}

/// Every fixed key; plus `default.version.<project>`.
pub const KEYS: &[SettingKey] = &[
    SettingKey { key: "default.project", help: "project searched when none is given (e.g. postgresql)" },
    SettingKey { key: "default.locale", help: "locale searched when none is given (e.g. zh-Hans)" },
    SettingKey {
        key: "search.deadline_ms",
        help: "search deadline in milliseconds (10-60000, default 2000)",
    },
    SettingKey {
        key: "add.deadline_s",
        help: "time one `lectern add` of a source may take, in seconds (1-604800, default 3600)",
    },
];

/// Default time one add may take: far more than the largest manuals need
/// (minutes), so only a stuck or runaway source meets it.
pub const DEFAULT_ADD_DEADLINE_S: u64 = 3600;

/// Default search deadline: shorter than any transport's timeout, so a slow
/// search returns what it has (flagged `timed_out`) rather than hanging.
pub const DEFAULT_DEADLINE_MS: u64 = 2000;

/// Fails on an unknown key, listing the known ones.
pub fn check_key(key: &str) -> Result<(), LibraryError> {
    let per_project =
        key.strip_prefix("default.version.").is_some_and(|p| lectern_corpus::names::project(p).is_ok());
    if per_project || KEYS.iter().any(|k| k.key == key) {
        return Ok(());
    }
    Err(invalid(format!(
        "unknown setting {key:?}; known: {}, default.version.<project>",
        KEYS.iter().map(|k| k.key).collect::<Vec<_>>().join(", ")
    )))
}

/// Validates a key and value before they are stored.
pub fn validate(key: &str, value: &str) -> Result<String, LibraryError> {
    match key {
        "default.project" => {
            lectern_corpus::names::project(value).map_err(|m| invalid(format!("{key}: {m}")))?;
            Ok(value.to_owned())
        }
        "default.locale" => {
            lectern_corpus::names::normalize_locale(value).map_err(|m| invalid(format!("{key}: {m}")))
        }
        "search.deadline_ms" => match value.parse::<u64>() {
            Ok(ms) if (10..=60_000).contains(&ms) => Ok(ms.to_string()),
            _ => Err(invalid(format!("{key}: {value:?} is not a number of milliseconds from 10 to 60000"))),
        },
        "add.deadline_s" => match value.parse::<u64>() {
            Ok(s) if (1..=604_800).contains(&s) => Ok(s.to_string()),
            _ => Err(invalid(format!("{key}: {value:?} is not a number of seconds from 1 to 604800"))),
        },
        _ => match key.strip_prefix("default.version.") {
            Some(project) => {
                lectern_corpus::names::project(project).map_err(|m| invalid(format!("{key}: {m}")))?;
                lectern_corpus::names::version(value).map_err(|m| invalid(format!("{key}: {m}")))?;
                Ok(value.to_owned())
            }
            None => check_key(key).map(|()| value.to_owned()),
        },
    }
}

/// The library's defaults, resolved from settings and enabled editions.
impl Manifest {
    pub fn deadline_ms(&self) -> u64 {
        self.settings.get("search.deadline_ms").and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_DEADLINE_MS)
    }

    /// How long one add may take (`add.deadline_s`).
    pub fn add_deadline(&self) -> std::time::Duration {
        let secs = self
            .settings
            .get("add.deadline_s")
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_ADD_DEADLINE_S);
        std::time::Duration::from_secs(secs)
    }

    /// Default project: setting, then the default edition's, then the only one.
    pub fn default_project(&self) -> Option<String> {
        if let Some(p) = self.settings.get("default.project") {
            return Some(p.clone());
        }
        if let Some(e) = self.enabled().find(|e| e.default) {
            return Some(e.project.clone());
        }
        only(self.enabled().map(|e| e.project.clone()))
    }

    /// Current version of a project: setting, then the `current` edition,
    /// then the default edition, then the only version.
    pub fn current_version(&self, project: &str) -> Option<String> {
        if let Some(v) = self.settings.get(&format!("default.version.{project}")) {
            return Some(v.clone());
        }
        let of_project = || self.enabled().filter(move |e| e.project == project);
        if let Some(v) = only(of_project().filter(|e| e.status == Status::Current).map(|e| e.version.clone()))
        {
            return Some(v);
        }
        if let Some(e) = of_project().find(|e| e.default) {
            return Some(e.version.clone());
        }
        only(of_project().map(|e| e.version.clone()))
    }

    /// Default locale: setting, then the default edition's, then the only one.
    pub fn default_locale(&self) -> Option<String> {
        if let Some(l) = self.settings.get("default.locale") {
            return Some(l.clone());
        }
        if let Some(e) = self.enabled().find(|e| e.default) {
            return Some(e.locale.clone());
        }
        only(self.enabled().map(|e| e.locale.clone()))
    }

    /// The locale whose editions get no locale segment in their prefix: the
    /// `default.locale` setting, else the locale fixed by the first
    /// install. Prefixes are fixed at install, so this must not drift when
    /// another edition is later marked `--default`.
    pub fn unprefixed_locale(&self) -> Option<String> {
        self.settings.get("default.locale").or(self.unprefixed_locale.as_ref()).cloned()
    }
}

/// The single distinct value, if there is exactly one.
fn only(values: impl Iterator<Item = String>) -> Option<String> {
    let set: BTreeSet<String> = values.collect();
    if set.len() == 1 { set.into_iter().next() } else { None }
}

/// Checks a validated value against what is installed: a default locale,
/// project or version that no installed edition has would be accepted and
/// then silently ignored by every search.
pub fn check_installed(
    key: &str,
    value: &str,
    editions: &[crate::EditionRecord],
) -> Result<(), LibraryError> {
    let names = |what: &str, values: &mut dyn Iterator<Item = &str>, found: bool| {
        if found {
            Ok(())
        } else {
            Err(invalid(format!(
                "{key}: no installed edition has {what} {value:?}; installed {what}s: {}",
                listing(values)
            )))
        }
    };
    match key {
        "default.locale" => {
            let found = editions.iter().any(|e| e.locale == value);
            names("locale", &mut editions.iter().map(|e| e.locale.as_str()), found)
        }
        "default.project" => {
            let found = editions.iter().any(|e| e.project == value || e.aliases.iter().any(|a| a == value));
            names("project", &mut editions.iter().map(|e| e.project.as_str()), found)
        }
        _ => match key.strip_prefix("default.version.") {
            Some(project) => {
                let of_project: Vec<&crate::EditionRecord> = editions
                    .iter()
                    .filter(|e| e.project == project || e.aliases.iter().any(|a| a == project))
                    .collect();
                let found = of_project.iter().any(|e| e.version == value);
                names("version", &mut of_project.iter().map(|e| e.version.as_str()), found)
            }
            None => Ok(()),
        },
    }
}

/// Lists distinct values for error messages.
pub(crate) fn listing<'a>(values: impl Iterator<Item = &'a str>) -> String {
    let set: BTreeSet<&str> = values.collect();
    if set.is_empty() { "none".to_owned() } else { set.into_iter().collect::<Vec<_>>().join(", ") }
}
