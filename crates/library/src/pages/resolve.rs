//! Resolving a [`SitePath`] to the edition and page that answer it, through
//! the editions' page tables (no document is read): the enabled edition with
//! the longest prefix holding the page wins, so `/app/v1/x` goes to the v1
//! edition, not the current one. Reading (`read_page`) and the site share it.

use std::cmp::Reverse;

use crate::edition::EditionRecord;
use crate::pages::scope::twin;
use crate::path::{SitePath, join, relative};
use crate::view::View;

/// Whether a missing translation may be answered by the default locale's page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Translations {
    /// Only an edition's own pages (reading by path).
    Own,
    /// A default-locale page stands in, flagged fallback (the site).
    OrFallback,
}

/// The page a path names.
#[derive(Debug, Clone)]
pub(crate) struct Resolved<'v> {
    /// The edition whose scope the path is in.
    pub owner: &'v EditionRecord,
    /// The edition whose document holds the content (the default-locale
    /// twin for a fallback).
    pub source: &'v EditionRecord,
    /// The document's path in `source`.
    pub source_path: String,
    pub fallback: bool,
}

impl View {
    /// The page at `path`, if an enabled edition publishes it.
    pub(crate) fn resolve(&self, path: &SitePath, translations: Translations) -> Option<Resolved<'_>> {
        let default_locale = match translations {
            Translations::Own => None,
            Translations::OrFallback => self.site_locale(),
        };
        let mut owners: Vec<&EditionRecord> =
            self.manifest.enabled().filter(|e| path.is_in(&e.prefix)).collect();
        owners.sort_by_key(|e| Reverse(e.prefix.len()));
        for owner in owners {
            if self.table(owner).find(path.as_str()).is_some() {
                let source_path = path.as_str().to_owned();
                return Some(Resolved { owner, source: owner, source_path, fallback: false });
            }
            let Some(twin) = twin(&self.manifest, owner, default_locale.as_deref()) else { continue };
            let twin_path = join(&twin.prefix, relative(path.as_str(), &owner.prefix));
            if self.table(twin).find(&twin_path).is_some() {
                return Some(Resolved { owner, source: twin, source_path: twin_path, fallback: true });
            }
        }
        None
    }
}
