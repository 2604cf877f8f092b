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
    /// The asset at `path`, if an enabled edition keeps it (or, for a
    /// translation, the default-locale edition it falls back to, at the
    /// same relative path, as pages do).
    pub fn asset(&self, path: &str) -> Option<crate::Asset> {
        let path = SitePath::parse(path).ok()?;
        let mut owners: Vec<&EditionRecord> =
            self.manifest.enabled().filter(|e| path.is_in(&e.prefix)).collect();
        owners.sort_by_key(|e| Reverse(e.prefix.len()));
        let default_locale = self.site_locale();
        for owner in owners {
            let mut found = self.snapshot.asset(&[owner.id.as_str()], path.as_str());
            if found.is_none()
                && let Some(twin) = twin(&self.manifest, owner, default_locale.as_deref())
            {
                let twin_path = join(&twin.prefix, relative(path.as_str(), &owner.prefix));
                found = self.snapshot.asset(&[twin.id.as_str()], &twin_path);
            }
            if let Some(record) = found {
                return Some(self.asset_of(record, path.as_str()));
            }
        }
        None
    }

    /// The page of an enabled edition that a link leaving another tree
    /// names (`/usr/share/doc/python3.11/html/library/os.html`, or a relative
    /// link climbing out of its tree): of the editions installed from a
    /// folder the link's path passes through and holding the page it then
    /// names, the one matching most folders. None when no installed edition
    /// answers (the link stays external).
    pub fn outside_page(&self, link: &lectern_corpus::links::Outside) -> Option<String> {
        let mut best: Option<(usize, String)> = None;
        for edition in self.manifest.enabled() {
            // Built (once per view) only for an edition whose folders match.
            let table = std::cell::OnceCell::new();
            let is_page = |p: &str| table.get_or_init(|| self.table(edition)).find(p).is_some();
            let found = lectern_corpus::links::edition_page(link, &edition.source, &edition.prefix, &is_page);
            if let Some((matched, page)) = found
                && best.as_ref().is_none_or(|(m, _)| matched > *m)
            {
                best = Some((matched, page));
            }
        }
        best.map(|(_, page)| page)
    }

    /// The file inside its source a page of an edition came from (relative
    /// images and links resolve against it).
    pub fn page_source_file(&self, edition: &str, path: &str) -> Option<String> {
        self.snapshot.page(edition, path).map(|p| p.source_file)
    }

    /// Every asset the site answers, by site path: each enabled edition's
    /// own, then those a translation falls back to at its own paths (its
    /// stand-in pages show them there). What an export writes.
    pub fn published_assets(&self) -> Vec<crate::Asset> {
        let default_locale = self.site_locale();
        let mut out: Vec<crate::Asset> = Vec::new();
        for edition in self.manifest.enabled() {
            for record in self.snapshot.assets(&edition.id) {
                let path = record.path.clone();
                out.push(self.asset_of(record, &path));
            }
        }
        for edition in self.manifest.enabled() {
            let Some(twin) = twin(&self.manifest, edition, default_locale.as_deref()) else { continue };
            for record in self.snapshot.assets(&twin.id) {
                let path = join(&edition.prefix, relative(&record.path, &twin.prefix));
                out.push(self.asset_of(record, &path));
            }
        }
        // An edition's own asset comes first, so it wins over a fallback.
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out.dedup_by(|a, b| a.path == b.path);
        out.retain(|a| self.asset(&a.path).is_some_and(|served| served.hash == a.hash));
        out
    }

    /// The other paths of published pages (old addresses, files' other
    /// names) that the site answers with a redirect to the page, by path:
    /// those of enabled editions where no page is.
    pub fn published_moved(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .manifest
            .enabled()
            .flat_map(|e| self.snapshot.moved_paths(&e.id))
            // (Each is under its edition's prefix: the edition leads it on.)
            .filter(|path| {
                SitePath::parse(path).is_ok_and(|p| self.resolve(&p, Translations::OrFallback).is_none())
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn asset_of(&self, record: lectern_index::AssetRecord, path: &str) -> crate::Asset {
        crate::Asset {
            path: path.to_owned(),
            file: self.assets_dir.join(&record.hash),
            content_type: record.content_type,
            size: record.size,
            hash: record.hash,
        }
    }

    /// Whether `path` is another path of a page (see [`View::published_moved`]).
    pub fn leads_to_page(&self, path: &str) -> bool {
        SitePath::parse(path).is_ok_and(|p| self.moved_to(&p).is_some())
    }

    /// Where `path` leads when it is no page but another path of one (an
    /// old address a redirect page held, a file's other name): the enabled
    /// edition holding it (longest prefix first) and the page's path, with
    /// the fragment it lands on, if any.
    pub(crate) fn moved_to(&self, path: &SitePath) -> Option<(&EditionRecord, String)> {
        self.owners(path)
            .into_iter()
            .find_map(|owner| Some((owner, self.snapshot.moved(&owner.id, path.as_str())?)))
    }

    /// The enabled editions whose prefix holds `path`, longest prefix first.
    fn owners(&self, path: &SitePath) -> Vec<&EditionRecord> {
        let mut owners: Vec<&EditionRecord> =
            self.manifest.enabled().filter(|e| path.is_in(&e.prefix)).collect();
        owners.sort_by_key(|e| Reverse(e.prefix.len()));
        owners
    }

    /// Where a path as written leads when it is no page but another path
    /// of one (an old address, a file's other name): the page's path and
    /// fragment.
    pub fn moved_page(&self, path: &str) -> Option<String> {
        self.moved_to(&SitePath::parse(path).ok()?).map(|(_, to)| to)
    }

    /// The page at `path`, if an enabled edition publishes it.
    pub(crate) fn resolve(&self, path: &SitePath, translations: Translations) -> Option<Resolved<'_>> {
        let default_locale = match translations {
            Translations::Own => None,
            Translations::OrFallback => self.site_locale(),
        };
        for owner in self.owners(path) {
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
