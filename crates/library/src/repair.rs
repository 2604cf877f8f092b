//! `lectern repair`: rebuilds a damaged (or old-format) index from each
//! edition's recorded source path in the manifest.
//!
//! The manifest is the payload of the last commit, kept in the index's
//! `meta.json` as plain JSON, so it survives damage to the segment files that
//! [`Library::verify`] detects. The damaged index is moved aside (not deleted:
//! the user decides), a fresh one is built, the site config and settings are
//! restored, and every edition is re-added from its source with its recorded
//! fields (enabled or not). An edition whose source is gone is reported, not
//! fatal: the others are rebuilt.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::edition::EditionSpec;
use crate::error::LibraryError;
use crate::library::{Library, OpenMode, parse_format};
use crate::manifest::Manifest;

/// What `repair` did.
#[derive(Debug, Clone, Serialize)]
pub struct RepairReport {
    /// Where the old index was moved (delete it once the rebuild is checked).
    pub moved_aside: Option<PathBuf>,
    pub editions: Vec<RepairedEdition>,
    /// The generation of the rebuilt library.
    pub generation: String,
}

/// One edition's rebuild.
#[derive(Debug, Clone, Serialize)]
pub struct RepairedEdition {
    pub id: String,
    pub source: String,
    /// None when rebuilt; else why not (e.g. the source folder is gone).
    pub error: Option<String>,
}

/// Reads the manifest of the last commit straight from `index/meta.json`,
/// without opening the index (whose segments may be damaged). Accepts any
/// library format, so an old library can be rebuilt.
pub fn recorded_manifest(root: &Path) -> Result<Manifest, LibraryError> {
    let meta_path = root.join("index").join("meta.json");
    let text = std::fs::read_to_string(&meta_path)
        .map_err(|e| LibraryError::Io { path: meta_path.display().to_string(), source: e })?;
    let meta: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        LibraryError::Internal(format!(
            "{} is unreadable ({e}); the list of editions is lost: re-add them with `lectern add`",
            meta_path.display()
        ))
    })?;
    let payload = meta.get("payload").and_then(serde_json::Value::as_str).unwrap_or("");
    if payload.trim().is_empty() {
        return Ok(Manifest::empty());
    }
    serde_json::from_str(payload).map_err(|e| {
        LibraryError::Internal(format!(
            "the manifest in {} is unreadable ({e}); re-add the editions with `lectern add`",
            meta_path.display()
        ))
    })
}

/// Rebuilds the library in `root` from its recorded sources.
pub fn repair(
    root: &Path,
    on_edition: &mut dyn FnMut(&str),
    on_wait: &mut dyn FnMut(&str),
) -> Result<RepairReport, LibraryError> {
    let index_dir = root.join("index");
    let manifest =
        if index_dir.join("meta.json").is_file() { recorded_manifest(root)? } else { Manifest::empty() };
    let moved_aside = if index_dir.exists() {
        let stamp =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let aside = root.join(format!("index.damaged-{stamp}"));
        std::fs::rename(&index_dir, &aside)
            .map_err(|e| LibraryError::Io { path: index_dir.display().to_string(), source: e })?;
        Some(aside)
    } else {
        None
    };
    let library = Library::open(root, OpenMode::ReadWrite)?;
    if let Some(site) = &manifest.site {
        // The whole config first (its editions from their configured
        // sources); if a source is gone, at least the site's own settings.
        if let Err(e) = library.add_site(site, &mut |_, _| {}, on_wait) {
            tracing::warn!("site config not fully re-added ({e}); restoring its settings only");
            let mut settings_only = site.clone();
            settings_only.editions.clear();
            library.add_site(&settings_only, &mut |_, _| {}, on_wait)?;
        }
    }
    for (key, value) in &manifest.settings {
        if let Err(e) = library.set_setting(key, value, on_wait) {
            tracing::warn!("setting {key} not restored: {e}");
        }
    }
    let mut editions = Vec::new();
    for record in &manifest.editions {
        on_edition(&record.id);
        let spec = EditionSpec {
            project: Some(record.project.clone()),
            aliases: record.aliases.clone(),
            version: Some(record.version.clone()),
            locale: Some(record.locale.clone()),
            domain: Some(record.domain.clone()),
            collection: record.collection.clone(),
            label: Some(record.label.clone()),
            r#ref: record.r#ref.clone(),
            status: Some(record.status),
            prefix: Some(record.prefix.clone()),
            default: record.default,
            enabled: Some(record.enabled),
            format: parse_format(Some(&record.format)).unwrap_or_default(),
        };
        let outcome = library.add(Path::new(&record.source), &spec, &mut |_| {}, on_wait);
        editions.push(RepairedEdition {
            id: record.id.clone(),
            source: record.source.clone(),
            error: outcome.err().map(|e| e.to_string()),
        });
    }
    let generation = library.view()?.generation.clone();
    Ok(RepairReport { moved_aside, editions, generation })
}
