//! Editions: one version of one project in one locale and domain. Ids
//! (`project@version/locale[/domain[/collection]]`), fields, lifecycle
//! statuses, and the URL prefix rule.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{LibraryError, invalid};

/// Lifecycle status of an edition.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
    Default,
)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Current,
    #[default]
    Supported,
    Deprecated,
    Eol,
    Preview,
}

impl Status {
    pub const ALL: [Status; 5] =
        [Status::Current, Status::Supported, Status::Deprecated, Status::Eol, Status::Preview];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Current => "current",
            Status::Supported => "supported",
            Status::Deprecated => "deprecated",
            Status::Eol => "eol",
            Status::Preview => "preview",
        }
    }
}

impl FromStr for Status {
    type Err = LibraryError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Status::ALL.into_iter().find(|st| st.as_str().eq_ignore_ascii_case(s)).ok_or_else(|| {
            invalid(format!("unknown status {s:?}; allowed: current, supported, deprecated, eol, preview"))
        })
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The default domain; omitted from canonical ids.
pub const MANUAL: &str = "manual";

/// `project@version/locale[/domain[/collection]]`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EditionId {
    pub project: String,
    pub version: String,
    pub locale: String,
    pub domain: String,
    pub collection: Option<String>,
}

impl EditionId {
    /// Validates and normalises every part (locale case, domain default).
    pub fn new(
        project: &str,
        version: &str,
        locale: &str,
        domain: Option<&str>,
        collection: Option<&str>,
    ) -> Result<EditionId, LibraryError> {
        use lectern_corpus::names;
        names::project(project).map_err(|m| invalid(format!("project: {m}")))?;
        names::version(version).map_err(|m| invalid(format!("version: {m}")))?;
        let locale = names::normalize_locale(locale).map_err(|m| invalid(format!("locale: {m}")))?;
        let domain = domain.unwrap_or(MANUAL).to_ascii_lowercase();
        names::domain(&domain).map_err(|m| invalid(format!("domain: {m}")))?;
        if let Some(c) = collection {
            names::collection(c).map_err(|m| invalid(format!("collection: {m}")))?;
        }
        Ok(EditionId {
            project: project.to_owned(),
            version: version.to_owned(),
            locale,
            domain,
            collection: collection.map(str::to_owned),
        })
    }
}

impl fmt::Display for EditionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}/{}", self.project, self.version, self.locale)?;
        match (&self.collection, self.domain.as_str()) {
            (Some(c), d) => write!(f, "/{d}/{c}"),
            (None, MANUAL) => Ok(()),
            (None, d) => write!(f, "/{d}"),
        }
    }
}

impl FromStr for EditionId {
    type Err = LibraryError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            invalid(format!(
                "edition id {s:?} is not of the form project@version/locale[/domain[/collection]] (e.g. postgresql@18/zh-Hans)"
            ))
        };
        let (project, rest) = s.split_once('@').ok_or_else(bad)?;
        let mut parts = rest.split('/');
        let version = parts.next().filter(|v| !v.is_empty()).ok_or_else(bad)?;
        let locale = parts.next().filter(|v| !v.is_empty()).ok_or_else(bad)?;
        let domain = parts.next();
        let collection = parts.next();
        if parts.next().is_some() {
            return Err(bad());
        }
        EditionId::new(project, version, locale, domain, collection)
    }
}

/// What a user asks to install (CLI flags or a site config entry), before
/// defaults are filled in.
#[derive(Debug, Clone, Default)]
pub struct EditionSpec {
    pub project: Option<String>,
    pub aliases: Vec<String>,
    pub version: Option<String>,
    pub locale: Option<String>,
    pub domain: Option<String>,
    pub collection: Option<String>,
    pub label: Option<String>,
    pub r#ref: Option<String>,
    pub status: Option<Status>,
    pub prefix: Option<String>,
    pub default: bool,
    pub enabled: Option<bool>,
    pub format: lectern_corpus::SourceFormat,
}

/// An installed edition as the manifest records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EditionRecord {
    /// Canonical id, also the index key.
    pub id: String,
    pub project: String,
    pub aliases: Vec<String>,
    pub version: String,
    pub locale: String,
    pub domain: String,
    pub collection: Option<String>,
    pub label: String,
    pub r#ref: Option<String>,
    pub status: Status,
    pub prefix: String,
    pub enabled: bool,
    /// Marked `--default`: its project, version and locale are the library's defaults.
    pub default: bool,
    /// Absolute source path it was installed from.
    pub source: String,
    pub format: String,
    pub content_hash: String,
    pub pages: usize,
    pub sections: usize,
    /// Files reported and skipped at install.
    pub skipped: usize,
}

impl EditionRecord {
    pub fn edition_id(&self) -> EditionId {
        EditionId {
            project: self.project.clone(),
            version: self.version.clone(),
            locale: self.locale.clone(),
            domain: self.domain.clone(),
            collection: self.collection.clone(),
        }
    }
}

/// The prefix rule: the default locale has no locale segment; the current
/// version is served at `/{project}`, others at `/{project}/{version}`; other
/// locales put the locale first; wikis and collections nest below.
pub fn derive_prefix(id: &EditionId, current: bool, default_locale: Option<&str>) -> String {
    let mut prefix = String::new();
    if default_locale != Some(id.locale.as_str()) {
        prefix.push('/');
        prefix.push_str(&id.locale);
    }
    prefix.push('/');
    prefix.push_str(&id.project);
    if !current {
        prefix.push('/');
        prefix.push_str(&id.version);
    }
    if id.domain != MANUAL {
        prefix.push('/');
        prefix.push_str(&id.domain);
    }
    if let Some(c) = &id.collection {
        prefix.push('/');
        prefix.push_str(c);
    }
    prefix
}

/// True when `path` lies in the scope of `prefix` (equal, or below it at a
/// segment boundary).
pub fn in_prefix(path: &str, prefix: &str) -> bool {
    if prefix == "/" || prefix.is_empty() {
        return path.starts_with('/');
    }
    path == prefix || (path.starts_with(prefix) && path.as_bytes().get(prefix.len()) == Some(&b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_omit_the_manual_domain() {
        for s in ["postgresql@18/zh-Hans", "postgresql@18/en/wiki", "postgresql@18/en/wiki/howto"] {
            assert_eq!(s.parse::<EditionId>().unwrap().to_string(), s);
        }
        assert_eq!(
            "postgresql@18/zh-hans/manual".parse::<EditionId>().unwrap().to_string(),
            "postgresql@18/zh-Hans"
        );
        for bad in ["postgresql", "postgresql@18", "@18/en", "pg@18/en/manual/x/y", "pg@/en"] {
            assert_eq!(
                bad.parse::<EditionId>().unwrap_err().code(),
                crate::ErrorCode::InvalidArgument,
                "{bad}"
            );
        }
    }

    #[test]
    fn prefix_rule_places_locale_project_version_and_wiki() {
        let id = |s: &str| s.parse::<EditionId>().unwrap();
        assert_eq!(derive_prefix(&id("postgresql@18/en"), true, Some("en")), "/postgresql");
        assert_eq!(derive_prefix(&id("postgresql@13/en"), false, Some("en")), "/postgresql/13");
        assert_eq!(derive_prefix(&id("postgresql@13/zh-Hans"), false, Some("en")), "/zh-Hans/postgresql/13");
        assert_eq!(derive_prefix(&id("app@2/de"), true, Some("en")), "/de/app");
        assert_eq!(
            derive_prefix(&id("postgresql@18/en/wiki/howto"), true, Some("en")),
            "/postgresql/wiki/howto"
        );
    }

    #[test]
    fn nested_versions_are_not_in_their_parents_scope_by_prefix_alone() {
        assert!(in_prefix("/app/guide", "/app"));
        assert!(in_prefix("/app", "/app"));
        assert!(!in_prefix("/application", "/app"));
    }
}
