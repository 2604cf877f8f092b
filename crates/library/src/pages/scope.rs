//! Scopes of the site's page API. A scope is one edition's prefix (`/app`,
//! `/app/v1`, `/zh-Hans/app`): that edition's own pages, never a nested
//! version's. In a locale other than the site's default, a page missing from
//! the edition is stood in for by the default-locale edition of the same
//! project, version, domain and collection, at the path it would have in the
//! scope, flagged `fallback`. Omitting the prefix selects every version in
//! the site's default locale.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use lectern_index::{DocAddress, Snapshot};

use crate::edition::EditionRecord;
use crate::error::{LibraryError, invalid};
use crate::manifest::Manifest;
use crate::pages::table::PageTable;
use crate::path::{MAX_PATH_BYTES, join, relative};

/// The site's default locale: the site config's, else the library's.
pub(crate) fn site_locale(manifest: &Manifest) -> Option<String> {
    manifest.site.as_ref().map(|s| s.default_locale.clone()).or_else(|| manifest.default_locale())
}

/// The enabled default-locale edition a page of `edition` falls back to.
pub(crate) fn twin<'m>(
    manifest: &'m Manifest,
    edition: &EditionRecord,
    default_locale: Option<&str>,
) -> Option<&'m EditionRecord> {
    let locale = default_locale?;
    if edition.locale == locale {
        return None;
    }
    manifest.enabled().find(|e| {
        e.locale == locale
            && e.project == edition.project
            && e.version == edition.version
            && e.domain == edition.domain
            && e.collection == edition.collection
    })
}

/// The editions a `prefix` parameter selects: exactly a prefix
/// `list_versions` returns, or none (absent or empty) for every version in
/// the site's default locale. Other spellings (`/app/`, ` /app `) are
/// refused rather than read as `/app`, so what a caller sends never names
/// more scopes than the site has.
fn scope_editions<'m>(
    manifest: &'m Manifest,
    prefix: Option<&str>,
) -> Result<Vec<&'m EditionRecord>, LibraryError> {
    match prefix {
        None | Some("") => {
            let locale = site_locale(manifest);
            Ok(manifest.enabled().filter(|e| locale.as_deref().is_none_or(|l| e.locale == l)).collect())
        }
        Some(p) => manifest.enabled().find(|e| e.prefix == p).map(|e| vec![e]).ok_or_else(|| {
            let valid = crate::settings::listing(manifest.enabled().map(|e| e.prefix.as_str()));
            let shown: String = p.chars().take(80).collect();
            let cut = if shown.len() < p.len() { "…" } else { "" };
            invalid(format!(
                "prefix {shown:?}{cut} is not the prefix of a published version; valid prefixes (from list_versions): {valid}; or omit it for every version in the default locale"
            ))
        }),
    }
}

/// The page tables and scopes of one view (so of one generation), each
/// built on first use: a listing or substring search then starts at once.
///
/// Both are bounded by the site, never by what callers send: a scope is
/// keyed by the editions it selects (at most one per enabled edition, plus
/// the default scope), a table by edition id, and each holds a few bytes
/// per page of its editions.
#[derive(Debug, Default)]
pub(crate) struct PageCache {
    /// Page listings of the site's scopes, by the ids of the editions they list.
    scopes: Mutex<HashMap<Vec<String>, Arc<Scope>>>,
    /// Each edition's page table, shared by every scope that lists it.
    tables: Mutex<HashMap<String, Arc<PageTable>>>,
}

impl PageCache {
    pub(crate) fn table(&self, snapshot: &Snapshot, edition: &EditionRecord) -> Arc<PageTable> {
        let mut tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
        tables
            .entry(edition.id.clone())
            .or_insert_with(|| Arc::new(PageTable::build(snapshot, edition)))
            .clone()
    }

    /// The scope `prefix` selects.
    pub(crate) fn scope(
        &self,
        snapshot: &Snapshot,
        manifest: &Manifest,
        prefix: Option<&str>,
    ) -> Result<Arc<Scope>, LibraryError> {
        Ok(self.scope_of(snapshot, manifest, &scope_editions(manifest, prefix)?))
    }

    /// The scope listing exactly `editions` (enabled ones).
    pub(crate) fn scope_of(
        &self,
        snapshot: &Snapshot,
        manifest: &Manifest,
        editions: &[&EditionRecord],
    ) -> Arc<Scope> {
        // Two prefixes that select the same editions (a one-version site's
        // default scope and its version's) share one listing.
        let key: Vec<String> = editions.iter().map(|e| e.id.clone()).collect();
        if let Some(hit) = self.scopes.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return hit.clone();
        }
        let built = Arc::new(self.build_scope(snapshot, manifest, editions));
        let mut scopes = self.scopes.lock().unwrap_or_else(|p| p.into_inner());
        // A racing builder may have stored it first; keep one.
        scopes.entry(key).or_insert(built).clone()
    }

    /// How many scopes are cached.
    #[cfg(test)]
    pub(crate) fn scopes_cached(&self) -> usize {
        self.scopes.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Reads page listings (paths, titles, order) only, never a body.
    fn build_scope(&self, snapshot: &Snapshot, manifest: &Manifest, editions: &[&EditionRecord]) -> Scope {
        let default_locale = site_locale(manifest);
        let mut scope = Scope::default();
        for &edition in editions {
            let own = self.table(snapshot, edition);
            let own_index = scope.tables.len() as u32;
            scope.tables.push(own.clone());
            scope.rows.extend((0..own.len()).map(|row| Row {
                table: own_index,
                row: row as u32,
                fallback_into: 0,
            }));
            if let Some(twin) = twin(manifest, edition, default_locale.as_deref()) {
                let rels: HashSet<&str> =
                    (0..own.len()).map(|i| relative(own.path(i), &own.prefix)).collect();
                let table = self.table(snapshot, twin);
                scope.prefixes.push(edition.prefix.clone());
                let into = scope.prefixes.len() as u32;
                let index = scope.tables.len() as u32;
                let missing: Vec<Row> = (0..table.len())
                    .filter(|&i| !rels.contains(relative(table.path(i), &table.prefix)))
                    .map(|row| Row { table: index, row: row as u32, fallback_into: into })
                    .collect();
                scope.tables.push(table);
                scope.rows.extend(missing);
            }
        }
        // Stable: on a (pathological) duplicate path the first edition's page wins.
        let mut rows = std::mem::take(&mut scope.rows);
        rows.sort_by(|a, b| scope.row_path(*a).cmp(&scope.row_path(*b)));
        rows.dedup_by(|b, a| scope.row_path(*a) == scope.row_path(*b));
        rows.shrink_to_fit();
        scope.rows = rows;
        scope
    }
}

/// A page of a scope: which table row, and for a fallback (a page of the
/// default locale standing in for a missing translation) the prefix its
/// path is rewritten into.
#[derive(Debug, Clone, Copy)]
struct Row {
    table: u32,
    row: u32,
    /// 0 for the edition's own page, else 1 + index into `Scope::prefixes`.
    fallback_into: u32,
}

/// Every page of the scope a prefix selects, sorted by path, each path once:
/// 12 bytes per page over the shared [`PageTable`]s.
#[derive(Debug, Default)]
pub(crate) struct Scope {
    tables: Vec<Arc<PageTable>>,
    prefixes: Vec<String>,
    rows: Vec<Row>,
}

/// One page of a scope as owned values (tests compare scopes with it).
#[cfg(test)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ScopeEntry {
    pub path: String,
    pub source_edition: String,
    pub source_path: String,
    pub locale: String,
    pub fallback: bool,
}

impl Scope {
    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    fn table(&self, i: usize) -> (&PageTable, usize) {
        let row = self.rows[i];
        (&self.tables[row.table as usize], row.row as usize)
    }

    /// Path in the scope (for a fallback: the path it would have there).
    pub(crate) fn path(&self, i: usize) -> Cow<'_, str> {
        self.row_path(self.rows[i])
    }

    fn row_path(&self, r: Row) -> Cow<'_, str> {
        let table = &self.tables[r.table as usize];
        let path = table.path(r.row as usize);
        match r.fallback_into {
            0 => Cow::Borrowed(path),
            n => Cow::Owned(join(&self.prefixes[n as usize - 1], relative(path, &table.prefix))),
        }
    }

    /// Edition whose document holds the content.
    pub(crate) fn source_edition(&self, i: usize) -> &str {
        &self.table(i).0.edition
    }

    pub(crate) fn title(&self, i: usize) -> String {
        let (table, row) = self.table(i);
        table.title(row)
    }

    pub(crate) fn description(&self, i: usize) -> Option<String> {
        let (table, row) = self.table(i);
        table.description(row)
    }

    pub(crate) fn order(&self, i: usize) -> Option<i64> {
        let (table, row) = self.table(i);
        table.order(row)
    }

    /// The page's place in the sidebar (for a fallback: the original's).
    pub(crate) fn nav(&self, i: usize) -> lectern_corpus::nav::NavPlace {
        let (table, row) = self.table(i);
        table.nav(row)
    }

    /// Locale of the content (the default locale's for a fallback).
    pub(crate) fn locale(&self, i: usize) -> &str {
        &self.table(i).0.locale
    }

    pub(crate) fn fallback(&self, i: usize) -> bool {
        self.rows[i].fallback_into != 0
    }

    pub(crate) fn address(&self, i: usize) -> DocAddress {
        let (table, row) = self.table(i);
        table.address(row)
    }

    /// Every page in path order, as owned values.
    #[cfg(test)]
    pub(crate) fn entries(&self) -> impl Iterator<Item = ScopeEntry> + '_ {
        (0..self.len()).map(|i| {
            let (table, row) = self.table(i);
            ScopeEntry {
                path: self.path(i).into_owned(),
                source_edition: self.source_edition(i).to_owned(),
                source_path: table.path(row).to_owned(),
                locale: self.locale(i).to_owned(),
                fallback: self.fallback(i),
            }
        })
    }

    /// Index of the first entry strictly after `cursor`.
    pub(crate) fn after(&self, cursor: Option<&str>) -> usize {
        let Some(c) = cursor else { return 0 };
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if *self.path(mid) <= *c {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// A path cursor as given (the `nextCursor` of a previous answer), checked;
/// `None` (or empty) starts at the first page.
pub(crate) fn check_cursor(cursor: Option<&str>) -> Result<Option<&str>, LibraryError> {
    let Some(cursor) = cursor else { return Ok(None) };
    if cursor.is_empty() {
        return Ok(None);
    }
    if !cursor.starts_with('/') || cursor.len() > MAX_PATH_BYTES || cursor.chars().any(char::is_control) {
        return Err(invalid(format!(
            "cursor {:?} is not valid: a cursor is the nextCursor of a previous answer, a site path starting with / (at most {MAX_PATH_BYTES} bytes, no control characters)",
            cursor.chars().take(80).collect::<String>()
        )));
    }
    Ok(Some(cursor))
}
