//! The manifest: what one generation commits (the editions, their content
//! hashes and switches, and the library settings), stored as the index
//! commit's payload so that content and manifest change in one atomic step.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::edition::EditionRecord;
use crate::error::LibraryError;

/// On-disk library format this build reads and writes.
pub const LIBRARY_FORMAT: u32 = 1;

/// The on-disk index format this build reads and writes (`lectern --version`
/// shows it; an index of another format needs `lectern repair`).
pub const INDEX_FORMAT: u32 = lectern_index::schema::FORMAT_VERSION;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Manifest {
    pub format: u32,
    /// Editions sorted by id.
    pub editions: Vec<EditionRecord>,
    /// `lectern config` settings (`default.project`, ...).
    pub settings: BTreeMap<String, String>,
    /// The locale fixed by the first install as the one served without a
    /// locale segment (used when `default.locale` is not set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unprefixed_locale: Option<String>,
    /// The site config last installed with `add --site` (served by `serve --site`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<lectern_corpus::SiteConfig>,
}

impl Manifest {
    pub fn empty() -> Manifest {
        Manifest { format: LIBRARY_FORMAT, ..Manifest::default() }
    }

    /// Reads a payload; an empty payload is an empty library.
    pub fn from_payload(payload: &str) -> Result<Manifest, LibraryError> {
        if payload.trim().is_empty() {
            return Ok(Manifest::empty());
        }
        #[derive(Deserialize)]
        struct Probe {
            format: u32,
        }
        let probe: Probe = serde_json::from_str(payload).map_err(|e| {
            LibraryError::Internal(format!("library manifest unreadable: {e}; run `lectern repair`"))
        })?;
        if probe.format != LIBRARY_FORMAT {
            return Err(LibraryError::LibraryFormat { found: probe.format, reads: LIBRARY_FORMAT });
        }
        serde_json::from_str(payload).map_err(|e| {
            LibraryError::Internal(format!("library manifest unreadable: {e}; run `lectern repair`"))
        })
    }

    pub fn to_payload(&self) -> String {
        serde_json::to_string(self).expect("manifest serialises")
    }

    /// The generation: a name for the exact set of enabled editions and their
    /// content. Content-addressed, so the same set always has the same name.
    pub fn generation(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(format!("lectern-format-{LIBRARY_FORMAT}\n"));
        for e in self.editions.iter().filter(|e| e.enabled) {
            hasher.update(e.id.as_bytes());
            hasher.update(b"\0");
            hasher.update(e.content_hash.as_bytes());
            hasher.update(b"\0");
            hasher.update(e.prefix.as_bytes());
            hasher.update(b"\n");
        }
        let digest = hasher.finalize();
        format!("g{}", &hex::encode(digest)[..15])
    }

    pub fn edition(&self, id: &str) -> Option<&EditionRecord> {
        self.editions.iter().find(|e| e.id == id)
    }

    pub fn enabled(&self) -> impl Iterator<Item = &EditionRecord> {
        self.editions.iter().filter(|e| e.enabled)
    }

    /// Inserts or replaces an edition, keeping the list sorted by id.
    pub fn upsert(&mut self, record: EditionRecord) {
        match self.editions.binary_search_by(|e| e.id.cmp(&record.id)) {
            Ok(i) => self.editions[i] = record,
            Err(i) => self.editions.insert(i, record),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_payload_is_an_empty_library() {
        assert_eq!(Manifest::from_payload("").unwrap(), Manifest::empty());
    }

    #[test]
    fn newer_and_older_formats_are_refused_with_advice() {
        let newer = Manifest::from_payload(r#"{"format":99,"editions":[],"settings":{}}"#).unwrap_err();
        assert!(newer.to_string().contains("upgrade lectern"), "{newer}");
        let older = Manifest::from_payload(r#"{"format":0}"#).unwrap_err();
        assert!(older.to_string().contains("lectern repair"), "{older}");
    }
}
