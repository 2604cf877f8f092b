//! [`View`]: one consistent reading of the library — the index snapshot and
//! the manifest committed with it — and the page tables and scopes built
//! over it. Its parts are private: faces read through the library's typed
//! calls and the few read-only accessors here.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use lectern_corpus::SiteConfig;
use lectern_index::{DocAddress, PageParts, Snapshot};

use crate::edition::{EditionId, EditionRecord};
use crate::error::LibraryError;
use crate::manifest::Manifest;
use crate::pages::bodies::Bodies;
use crate::pages::nav::{SiteNav, StandIns};
use crate::pages::scope::{PageCache, Scope, site_locale};
use crate::pages::table::PageTable;
use crate::suggest::did_you_mean;

/// A consistent view for readers: a searcher and the manifest committed with it.
pub struct View {
    pub(crate) snapshot: Snapshot,
    pub(crate) manifest: Manifest,
    pub(crate) generation: String,
    /// The manifest as committed: tells whether a snapshot is this view's.
    pub(crate) payload: String,
    /// Page tables and scopes, built once per view (so once per generation).
    pages: PageCache,
    /// Sidebars by edition prefix, built on first use (one per enabled edition at most).
    navs: Mutex<HashMap<(String, StandIns), Arc<SiteNav>>>,
    /// The page bodies substring searches read, kept within a budget.
    bodies: Bodies,
    /// Where the library keeps asset bytes.
    pub(crate) assets_dir: std::path::PathBuf,
}

impl std::fmt::Debug for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("View").field("generation", &self.generation).finish_non_exhaustive()
    }
}

impl View {
    pub(crate) fn new(snapshot: Snapshot, assets_dir: std::path::PathBuf) -> Result<View, LibraryError> {
        let payload = snapshot.payload().to_owned();
        let manifest = Manifest::from_payload(&payload)?;
        let generation = manifest.generation();
        Ok(View {
            snapshot,
            manifest,
            generation,
            payload,
            pages: PageCache::default(),
            navs: Mutex::default(),
            bodies: Bodies::default(),
            assets_dir,
        })
    }

    /// A page document's title, description and text, as substring searches
    /// read them (kept for this generation's later searches).
    pub(crate) fn body(&self, address: &DocAddress) -> Arc<PageParts> {
        self.bodies.get(&self.snapshot, *address)
    }

    /// The generation every answer from this view belongs to.
    pub fn generation(&self) -> &str {
        &self.generation
    }

    /// The site config last installed with `add --site`, if any.
    pub fn site(&self) -> Option<&SiteConfig> {
        self.manifest.site.as_ref()
    }

    /// The `lectern config` settings as stored (unset keys absent).
    pub fn settings(&self) -> &BTreeMap<String, String> {
        &self.manifest.settings
    }

    /// The site's default locale: the site config's, else the library's.
    pub fn site_locale(&self) -> Option<String> {
        site_locale(&self.manifest)
    }

    /// Fails with `generation_changed` when `expected` is given and not current.
    pub fn check_generation(&self, expected: Option<&str>) -> Result<(), LibraryError> {
        match expected {
            Some(g) if !g.is_empty() && g != self.generation => Err(LibraryError::GenerationChanged {
                expected: g.to_owned(),
                current: self.generation.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// An enabled or disabled edition by id, with a "did you mean" on a miss.
    pub fn edition(&self, id: &str) -> Result<&EditionRecord, LibraryError> {
        let installed = || crate::settings::listing(self.manifest.editions.iter().map(|e| e.id.as_str()));
        let canonical = id
            .parse::<EditionId>()
            .map_err(|e| LibraryError::InvalidArgument(format!("{e}; installed: {}", installed())))?
            .to_string();
        self.manifest.edition(&canonical).ok_or_else(|| {
            let suggestion = did_you_mean(id, self.manifest.editions.iter().map(|e| e.id.as_str()));
            LibraryError::NotFound(format!(
                "no edition {id:?} is installed{}; installed: {}",
                suggestion.map(|s| format!(" (did you mean {s}?)")).unwrap_or_default(),
                installed()
            ))
        })
    }

    /// The edition's page table.
    pub(crate) fn table(&self, edition: &EditionRecord) -> Arc<PageTable> {
        self.pages.table(&self.snapshot, edition)
    }

    /// The scope `prefix` selects (see [`crate::pages::scope`]).
    pub(crate) fn scope(&self, prefix: Option<&str>) -> Result<Arc<Scope>, LibraryError> {
        self.pages.scope(&self.snapshot, &self.manifest, prefix)
    }

    /// The sidebar and reading order of the enabled edition at `prefix`
    /// (exactly as `list_versions` spells it), built once per view.
    pub fn site_nav(&self, prefix: &str) -> Result<Arc<SiteNav>, LibraryError> {
        self.nav(prefix, StandIns::Include)
    }

    /// The navigation tree of the edition at `prefix`, built once per view
    /// for each choice of [`StandIns`].
    pub(crate) fn nav(&self, prefix: &str, stand_ins: StandIns) -> Result<Arc<SiteNav>, LibraryError> {
        let key = (prefix.to_owned(), stand_ins);
        if let Some(nav) = self.navs.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return Ok(nav.clone());
        }
        let scope = self.scope(Some(prefix))?;
        let nav = Arc::new(SiteNav::build(&scope, stand_ins));
        self.navs.lock().unwrap_or_else(|p| p.into_inner()).insert(key, nav.clone());
        Ok(nav)
    }

    /// The scope of one enabled edition: the scope its prefix selects.
    pub(crate) fn edition_scope(&self, edition: &EditionRecord) -> Arc<Scope> {
        self.pages.scope_of(&self.snapshot, &self.manifest, &[edition])
    }

    /// How many scopes this view has cached.
    #[cfg(test)]
    pub(crate) fn scopes_cached(&self) -> usize {
        self.pages.scopes_cached()
    }

    /// The site's default edition: the one marked default, else the current
    /// version of the default project in the default locale.
    pub(crate) fn default_edition(&self) -> Option<&EditionRecord> {
        let manifest = &self.manifest;
        if let Some(e) = manifest.enabled().find(|e| e.default) {
            return Some(e);
        }
        let locale = self.site_locale();
        let project = manifest.default_project();
        let version = project.as_deref().and_then(|p| manifest.current_version(p));
        manifest
            .enabled()
            .filter(|e| locale.as_deref().is_none_or(|l| e.locale == l))
            .filter(|e| project.as_deref().is_none_or(|p| e.project == p))
            .filter(|e| version.as_deref().is_none_or(|v| e.version == v))
            .min_by_key(|e| (e.domain != crate::edition::MANUAL, e.prefix.len()))
    }

    /// The prefixes of the enabled editions, for a "no page here" message.
    pub(crate) fn prefixes(&self) -> String {
        crate::settings::listing(self.manifest.enabled().map(|e| e.prefix.as_str()))
    }
}
