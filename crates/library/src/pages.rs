//! The site's page API (seed 002, SPEC §6): versions with the prefix that
//! scopes them, bounded path-ordered listings with path cursors, substring
//! search with translation priority, and pages as Markdown under our own
//! YAML frontmatter. The HTML site, its `.md` files and `/mcp` all read here,
//! so they cannot disagree.
//!
//! A scope is one edition's prefix (`/app`, `/app/v1`, `/zh-Hans/app`): that
//! edition's own pages, never a nested version's. In a locale other than the
//! site's default, a page missing from the edition is stood in for by the
//! default-locale edition of the same project, version, domain and
//! collection, at the path it would have in the scope, flagged `fallback`.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use lectern_index::{DocAddress, PageParts, PageRow, Snapshot};
use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use crate::edition::{EditionRecord, Status, in_prefix};
use crate::error::{LibraryError, invalid};
use crate::library::{Library, View};

pub const DEFAULT_PAGE_LIMIT: usize = 20;
pub const MAX_PAGE_LIMIT: usize = 100;
/// Longest search term, in Unicode scalar values.
pub const MAX_TERM_CHARS: usize = 256;
/// Longest cursor (a site path), in bytes.
pub const MAX_CURSOR_BYTES: usize = 1024;
/// Bodies are read in blocks of at most this many pages (seed 002).
pub const BODY_BLOCK: usize = 64;
/// Length of a search excerpt, in Unicode scalar values.
pub const EXCERPT_CHARS: usize = 160;

/// One edition as `list_versions` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct VersionEntry {
    /// The URL prefix the edition is served under; pass it as `prefix` to
    /// `list_pages` and `search_docs` to scope them to this edition.
    pub prefix: String,
    /// Human label of the version ("App 2").
    pub label: String,
    /// Git ref or release tag of the content, if known.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// Lifecycle: current, supported, deprecated, eol or preview.
    pub status: Status,
    /// Locale of this edition (BCP 47).
    pub locale: String,
    /// Every locale this version (same project, version, domain, collection) is published in.
    pub locales: Vec<String>,
    /// True for the site's default edition.
    pub default: bool,
    pub project: String,
    pub version: String,
    /// `manual` or `wiki`.
    pub domain: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collection: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct VersionsResponse {
    /// The library generation these answers come from.
    pub generation: String,
    /// Enabled editions, sorted by prefix.
    pub versions: Vec<VersionEntry>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ListPagesRequest {
    /// An edition prefix from `list_versions` (e.g. `/app`, `/app/v1`, `/zh-Hans/app`).
    /// Omitted: every version in the site's default locale.
    pub prefix: Option<String>,
    /// How many pages to return: 1 to 100, default 20.
    pub limit: Option<i64>,
    /// Continue after this path: the `nextCursor` of the previous call.
    pub cursor: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchPagesRequest {
    /// Text to find: a page matches when the term (NFC, case-folded) is a
    /// substring of its folded title or body. 1 to 256 characters.
    pub term: String,
    /// An edition prefix from `list_versions`. Omitted: every version in the
    /// site's default locale.
    pub prefix: Option<String>,
    /// How many pages to return: 1 to 100, default 20.
    pub limit: Option<i64>,
    /// Continue after this path: the `nextCursor` of the previous call.
    pub cursor: Option<String>,
}

/// A page in a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PageEntry {
    /// Full site path; pass it to `read_page`.
    pub path: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Locale of the content (the default locale's for a fallback).
    pub locale: String,
    /// True when the translation is missing and the default-locale page stands in.
    pub fallback: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ListPagesResponse {
    pub generation: String,
    /// Pages sorted by path (byte order).
    pub pages: Vec<PageEntry>,
    /// Present only when more pages remain: pass it as `cursor` to continue.
    #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// A page that contains the term.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PageMatch {
    /// Full site path; pass it to `read_page`.
    pub path: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub locale: String,
    pub fallback: bool,
    /// About 160 characters of the body around the first match (`…` where cut).
    pub excerpt: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchPagesResponse {
    pub generation: String,
    /// Matching pages sorted by path (byte order).
    pub pages: Vec<PageMatch>,
    /// Present only when more matches may remain: pass it as `cursor` to continue.
    #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// A page as the site serves it (`read_page`, `{path}.md`, the HTML page).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SitePage {
    pub generation: String,
    /// Full site path in its scope.
    pub path: String,
    /// Prefix of the scope (edition) the path belongs to.
    pub prefix: String,
    /// Version label of the scope's edition.
    pub label: String,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// Locale of the content.
    pub locale: String,
    pub status: Status,
    /// True when a default-locale page stands in for a missing translation.
    pub fallback: bool,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Our YAML frontmatter over the page's Markdown as written (original
    /// frontmatter removed). Never HTML.
    pub markdown: String,
    /// The Markdown body alone, as written.
    #[serde(skip)]
    pub body: String,
    /// Id of the scope's edition.
    #[serde(skip)]
    pub edition: String,
    /// The file inside its source the content came from (to resolve its
    /// relative links within the scope).
    #[serde(skip)]
    pub source_file: String,
    /// Each section's anchor in document order (None for the lead), so the
    /// rendered headings carry the ids search results link to.
    #[serde(skip)]
    pub anchors: Vec<Option<String>>,
}

/// One page of a scope, in path order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeEntry {
    /// Path in the scope (for a fallback: the path it would have there).
    pub path: String,
    /// Edition whose document holds the content.
    pub source_edition: String,
    /// The document's own path in `source_edition`.
    pub source_path: String,
    pub title: String,
    pub order: Option<i64>,
    pub locale: String,
    pub fallback: bool,
}

/// The site's default locale: the site config's, else the library's.
pub fn site_locale(view: &View) -> Option<String> {
    view.manifest.site.as_ref().map(|s| s.default_locale.clone()).or_else(|| view.manifest.default_locale())
}

/// The path's part below `prefix` (`""` or starting with `/`).
pub fn relative<'p>(path: &'p str, prefix: &str) -> &'p str {
    if prefix == "/" {
        if path == "/" { "" } else { path }
    } else {
        path.strip_prefix(prefix).unwrap_or(path)
    }
}

/// `prefix` + a relative path from [`relative`].
pub fn join(prefix: &str, rel: &str) -> String {
    match (prefix, rel) {
        ("/", "") => "/".to_owned(),
        ("/", r) => r.to_owned(),
        (p, r) => format!("{p}{r}"),
    }
}

/// The enabled default-locale edition a page of `edition` falls back to.
fn twin<'v>(
    view: &'v View,
    edition: &EditionRecord,
    default_locale: Option<&str>,
) -> Option<&'v EditionRecord> {
    let locale = default_locale?;
    if edition.locale == locale {
        return None;
    }
    view.manifest.enabled().find(|e| {
        e.locale == locale
            && e.project == edition.project
            && e.version == edition.version
            && e.domain == edition.domain
            && e.collection == edition.collection
    })
}

/// The editions a `prefix` parameter selects.
fn scope_editions<'v>(view: &'v View, prefix: Option<&str>) -> Result<Vec<&'v EditionRecord>, LibraryError> {
    match prefix.map(str::trim) {
        None | Some("") => {
            let locale = site_locale(view);
            Ok(view.manifest.enabled().filter(|e| locale.as_deref().is_none_or(|l| e.locale == l)).collect())
        }
        Some(p) => {
            let p = if p.len() > 1 { p.trim_end_matches('/') } else { p };
            view.manifest.enabled().find(|e| e.prefix == p).map(|e| vec![e]).ok_or_else(|| {
                let valid = crate::settings::listing(view.manifest.enabled().map(|e| e.prefix.as_str()));
                invalid(format!(
                    "prefix {p:?} is not the prefix of a published version; valid prefixes (from list_versions): {valid}; or omit it for every version in the default locale"
                ))
            })
        }
    }
}

/// One edition's published pages (paths packed into one string, orders,
/// document addresses; titles are read from the index when shown): a view
/// builds it once and every scope listing the edition shares it.
pub struct PageTable {
    snapshot: Snapshot,
    edition: String,
    locale: String,
    prefix: String,
    /// The pages' paths, back to back.
    text: String,
    /// Per page: where its path ends in `text`.
    ends: Vec<u32>,
    /// Per page, its `order`; empty when no page has one (most sites).
    orders: Vec<Option<i64>>,
    /// Per page: its document (bodies are read by address, no path lookup).
    addresses: Vec<DocAddress>,
}

impl std::fmt::Debug for PageTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageTable").field("edition", &self.edition).field("pages", &self.ends.len()).finish()
    }
}

impl PageTable {
    fn build(view: &View, edition: &EditionRecord) -> PageTable {
        let mut table = PageTable {
            snapshot: view.snapshot.clone(),
            edition: edition.id.clone(),
            locale: edition.locale.clone(),
            prefix: edition.prefix.clone(),
            text: String::new(),
            ends: Vec::new(),
            orders: Vec::new(),
            addresses: Vec::new(),
        };
        // Sized first, so that building a large site's table never holds a
        // doubled buffer the allocator then keeps.
        let (mut pages, mut bytes) = (0usize, 0usize);
        view.snapshot.page_rows(&edition.id, &mut |row| {
            if !row.draft {
                pages += 1;
                bytes += row.path.len();
            }
        });
        table.text.reserve_exact(bytes);
        table.ends.reserve_exact(pages);
        table.addresses.reserve_exact(pages);
        view.snapshot.page_rows(&edition.id, &mut |row| {
            let PageRow { address, path, order, draft, .. } = row;
            if draft {
                return;
            }
            table.text.push_str(path);
            table.ends.push(table.text.len() as u32);
            if order.is_some() && table.orders.is_empty() {
                table.orders.resize(table.ends.len() - 1, None);
            }
            if order.is_some() || !table.orders.is_empty() {
                table.orders.push(order);
            }
            table.addresses.push(address);
        });
        table.text.shrink_to_fit();
        table.ends.shrink_to_fit();
        table.orders.shrink_to_fit();
        table.addresses.shrink_to_fit();
        table
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn path(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }

    fn title(&self, i: usize) -> String {
        self.snapshot.page_title_at(self.addresses[i])
    }
}

fn page_table(view: &View, edition: &EditionRecord) -> Arc<PageTable> {
    let mut tables = view.tables.lock().unwrap_or_else(|p| p.into_inner());
    tables.entry(edition.id.clone()).or_insert_with(|| Arc::new(PageTable::build(view, edition))).clone()
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
pub struct Scope {
    tables: Vec<Arc<PageTable>>,
    prefixes: Vec<String>,
    rows: Vec<Row>,
}

impl Scope {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn table(&self, i: usize) -> (&PageTable, usize) {
        let row = self.rows[i];
        (&self.tables[row.table as usize], row.row as usize)
    }

    /// Path in the scope (for a fallback: the path it would have there).
    pub fn path(&self, i: usize) -> Cow<'_, str> {
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
    pub fn source_edition(&self, i: usize) -> &str {
        &self.table(i).0.edition
    }

    /// The document's own path in its edition.
    pub fn source_path(&self, i: usize) -> &str {
        let (table, row) = self.table(i);
        table.path(row)
    }

    pub fn title(&self, i: usize) -> String {
        let (table, row) = self.table(i);
        table.title(row)
    }

    pub fn order(&self, i: usize) -> Option<i64> {
        let (table, row) = self.table(i);
        table.orders.get(row).copied().flatten()
    }

    /// Locale of the content (the default locale's for a fallback).
    pub fn locale(&self, i: usize) -> &str {
        &self.table(i).0.locale
    }

    pub fn fallback(&self, i: usize) -> bool {
        self.rows[i].fallback_into != 0
    }

    fn address(&self, i: usize) -> DocAddress {
        let (table, row) = self.table(i);
        table.addresses[row]
    }

    /// Entry `i` as owned values.
    pub fn entry(&self, i: usize) -> ScopeEntry {
        ScopeEntry {
            path: self.path(i).into_owned(),
            source_edition: self.source_edition(i).to_owned(),
            source_path: self.source_path(i).to_owned(),
            title: self.title(i),
            order: self.order(i),
            locale: self.locale(i).to_owned(),
            fallback: self.fallback(i),
        }
    }

    /// Every entry in path order, as owned values.
    pub fn entries(&self) -> impl Iterator<Item = ScopeEntry> + '_ {
        (0..self.len()).map(|i| self.entry(i))
    }

    /// Index of the first entry strictly after `cursor`.
    fn after(&self, cursor: Option<&str>) -> usize {
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

/// The scope `prefix` selects. Built on first use in a view and kept with it
/// (a view is one generation).
pub fn scope_entries(view: &View, prefix: Option<&str>) -> Result<Arc<Scope>, LibraryError> {
    let key = prefix.map(str::trim).unwrap_or_default().to_owned();
    if let Some(hit) = view.scopes.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Ok(hit.clone());
    }
    // Two prefixes that select the same editions (a one-version site's
    // default scope and its version's) share one listing.
    let editions = scope_editions(view, prefix)?;
    let ids: Vec<&str> = editions.iter().map(|e| e.id.as_str()).collect();
    let same = format!("editions:{}", ids.join("\n"));
    let mut scopes = view.scopes.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(hit) = scopes.get(&same).cloned() {
        scopes.insert(key, hit.clone());
        return Ok(hit);
    }
    drop(scopes);
    let built = Arc::new(build_scope(view, &editions));
    let mut scopes = view.scopes.lock().unwrap_or_else(|p| p.into_inner());
    scopes.insert(same, built.clone());
    scopes.insert(key, built.clone());
    Ok(built)
}

/// Reads page listings (paths, titles, order) only, never a body.
fn build_scope(view: &View, editions: &[&EditionRecord]) -> Scope {
    let default_locale = site_locale(view);
    let mut scope = Scope::default();
    for &edition in editions {
        let own = page_table(view, edition);
        let own_index = scope.tables.len() as u32;
        scope.tables.push(own.clone());
        scope.rows.extend((0..own.len()).map(|row| Row {
            table: own_index,
            row: row as u32,
            fallback_into: 0,
        }));
        if let Some(twin) = twin(view, edition, default_locale.as_deref()) {
            let rels: HashSet<&str> = (0..own.len()).map(|i| relative(own.path(i), &own.prefix)).collect();
            let table = page_table(view, twin);
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

fn check_limit(limit: Option<i64>) -> Result<usize, LibraryError> {
    let limit = limit.unwrap_or(DEFAULT_PAGE_LIMIT as i64);
    if !(1..=MAX_PAGE_LIMIT as i64).contains(&limit) {
        return Err(invalid(format!(
            "limit {limit} is out of range: allowed 1 to {MAX_PAGE_LIMIT} (default {DEFAULT_PAGE_LIMIT})"
        )));
    }
    Ok(limit as usize)
}

fn check_cursor(cursor: Option<&str>) -> Result<Option<&str>, LibraryError> {
    let Some(cursor) = cursor else { return Ok(None) };
    if cursor.is_empty() {
        return Ok(None);
    }
    if !cursor.starts_with('/') || cursor.len() > MAX_CURSOR_BYTES || cursor.chars().any(char::is_control) {
        return Err(invalid(format!(
            "cursor {:?} is not valid: a cursor is the nextCursor of a previous answer, a site path starting with / (at most {MAX_CURSOR_BYTES} bytes, no control characters)",
            cursor.chars().take(80).collect::<String>()
        )));
    }
    Ok(Some(cursor))
}

fn check_term(term: &str) -> Result<(), LibraryError> {
    if term.trim().is_empty() {
        return Err(invalid("term is empty; give the text to find (e.g. \"install\")"));
    }
    let chars = term.chars().count();
    if chars > MAX_TERM_CHARS {
        return Err(invalid(format!(
            "term is {chars} characters long; at most {MAX_TERM_CHARS} are allowed"
        )));
    }
    Ok(())
}

impl Library {
    /// Every enabled edition with its prefix, label, ref, status, locales and
    /// whether it is the site's default.
    pub fn list_versions(&self) -> Result<VersionsResponse, LibraryError> {
        let view = self.view()?;
        let default = default_edition(&view).map(|e| e.id.clone());
        let mut versions: Vec<VersionEntry> = view
            .manifest
            .enabled()
            .map(|e| {
                let locales: BTreeSet<String> = view
                    .manifest
                    .enabled()
                    .filter(|o| {
                        o.project == e.project
                            && o.version == e.version
                            && o.domain == e.domain
                            && o.collection == e.collection
                    })
                    .map(|o| o.locale.clone())
                    .collect();
                VersionEntry {
                    prefix: e.prefix.clone(),
                    label: e.label.clone(),
                    r#ref: e.r#ref.clone(),
                    status: e.status,
                    locale: e.locale.clone(),
                    locales: locales.into_iter().collect(),
                    default: default.as_deref() == Some(e.id.as_str()),
                    project: e.project.clone(),
                    version: e.version.clone(),
                    domain: e.domain.clone(),
                    collection: e.collection.clone(),
                }
            })
            .collect();
        versions.sort_by(|a, b| a.prefix.cmp(&b.prefix));
        Ok(VersionsResponse { generation: view.generation.clone(), versions })
    }

    /// The scope's pages in path order, `limit` at a time after `cursor`.
    pub fn list_pages(&self, request: &ListPagesRequest) -> Result<ListPagesResponse, LibraryError> {
        let limit = check_limit(request.limit)?;
        let cursor = check_cursor(request.cursor.as_deref())?;
        let view = self.view()?;
        let scope = scope_entries(&view, request.prefix.as_deref())?;
        let start = scope.after(cursor);
        let end = (start + limit).min(scope.len());
        let pages = (start..end)
            .map(|i| PageEntry {
                path: scope.path(i).into_owned(),
                title: scope.title(i),
                description: view.snapshot.page_description(scope.source_edition(i), scope.source_path(i)),
                locale: scope.locale(i).to_owned(),
                fallback: scope.fallback(i),
            })
            .collect::<Vec<_>>();
        let next_cursor = (end < scope.len()).then(|| scope.path(end - 1).into_owned());
        Ok(ListPagesResponse { generation: view.generation.clone(), pages, next_cursor })
    }

    /// Pages whose folded title or body contains the folded term, in path
    /// order after `cursor`. Walks the scope's paths, skips pages the n-gram
    /// prefilter rules out, reads bodies in blocks of at most 64 and stops
    /// once it has `limit` matches and knows whether another exists.
    pub fn search_pages(&self, request: &SearchPagesRequest) -> Result<SearchPagesResponse, LibraryError> {
        check_term(&request.term)?;
        let limit = check_limit(request.limit)?;
        let cursor = check_cursor(request.cursor.as_deref())?;
        let view = self.view()?;
        let scope = scope_entries(&view, request.prefix.as_deref())?;
        let folded = lectern_index::text::fold(&request.term);
        let mut candidates: HashMap<&str, Option<Vec<DocAddress>>> = HashMap::new();
        let mut found: Vec<PageMatch> = Vec::new();
        let mut more = false;
        let mut rest = (scope.after(cursor)..scope.len()).filter(|&i| {
            let edition = scope.source_edition(i);
            candidates
                .entry(edition)
                .or_insert_with(|| view.snapshot.substring_candidate_docs(edition, &folded))
                .as_ref()
                .is_none_or(|docs| docs.binary_search(&scope.address(i)).is_ok())
        });
        'walk: loop {
            let block: Vec<usize> = rest.by_ref().take(BODY_BLOCK).collect();
            if block.is_empty() {
                break;
            }
            let addresses: Vec<DocAddress> = block.iter().map(|&i| scope.address(i)).collect();
            let parts = view.snapshot.page_parts_at(&addresses);
            for (i, PageParts { title, description, text, .. }) in block.into_iter().zip(parts) {
                let at = folded_find(&text, &folded);
                if at.is_none() && !lectern_index::text::fold(&title).contains(&folded) {
                    continue;
                }
                if found.len() == limit {
                    more = true;
                    break 'walk;
                }
                let excerpt = match at {
                    Some(range) => excerpt_at(&text, range),
                    None => excerpt_at(&text, 0..0),
                };
                found.push(PageMatch {
                    path: scope.path(i).into_owned(),
                    title,
                    description,
                    locale: scope.locale(i).to_owned(),
                    fallback: scope.fallback(i),
                    excerpt,
                });
            }
        }
        let next_cursor = if more { found.last().map(|m| m.path.clone()) } else { None };
        Ok(SearchPagesResponse { generation: view.generation.clone(), pages: found, next_cursor })
    }

    /// A page at a full site path, as the site serves it: our frontmatter over
    /// the Markdown as written. A missing translation is served from the
    /// default locale, flagged `fallback`.
    pub fn site_page(&self, path: &str) -> Result<SitePage, LibraryError> {
        let view = self.view()?;
        site_page(&view, path)
    }
}

/// See [`Library::site_page`]; for faces that already hold a view.
pub fn site_page(view: &View, path: &str) -> Result<SitePage, LibraryError> {
    let path = path.split('#').next().unwrap_or("").trim();
    if !path.starts_with('/') || path.len() > MAX_CURSOR_BYTES || path.chars().any(char::is_control) {
        return Err(invalid(format!(
            "path {:?} is not a site path: give a full path starting with / as list_pages or search_docs return it (e.g. /app/guide/install)",
            path.chars().take(80).collect::<String>()
        )));
    }
    let path = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    let default_locale = site_locale(view);
    let mut owners: Vec<&EditionRecord> =
        view.manifest.enabled().filter(|e| in_prefix(path, &e.prefix)).collect();
    owners.sort_by_key(|e| std::cmp::Reverse(e.prefix.len()));
    for owner in owners {
        let (source, fallback) = match view.snapshot.page(&owner.id, path) {
            Some(page) => (page, false),
            None => {
                let Some(twin) = twin(view, owner, default_locale.as_deref()) else { continue };
                let twin_path = join(&twin.prefix, relative(path, &owner.prefix));
                match view.snapshot.page(&twin.id, &twin_path) {
                    Some(page) => (page, true),
                    None => continue,
                }
            }
        };
        if source.draft {
            continue;
        }
        let locale = if fallback {
            twin(view, owner, default_locale.as_deref()).map_or(owner.locale.clone(), |t| t.locale.clone())
        } else {
            owner.locale.clone()
        };
        let mut page = SitePage {
            generation: view.generation.clone(),
            path: path.to_owned(),
            prefix: owner.prefix.clone(),
            label: owner.label.clone(),
            r#ref: owner.r#ref.clone(),
            locale,
            status: owner.status,
            fallback,
            title: source.title.clone(),
            description: source.description.clone(),
            markdown: String::new(),
            body: source.markdown,
            edition: owner.id.clone(),
            source_file: source.source_file,
            anchors: source.anchors,
        };
        page.markdown = format!("{}{}", frontmatter(&page), page.body);
        return Ok(page);
    }
    let prefixes = crate::settings::listing(view.manifest.enabled().map(|e| e.prefix.as_str()));
    Err(LibraryError::NotFound(format!(
        "no page at {path}; list_pages shows the pages of a version (prefixes: {prefixes})"
    )))
}

/// Our YAML frontmatter, `---` fenced. Strings are JSON-quoted, which YAML
/// reads as double-quoted scalars, so no value can break the block.
fn frontmatter(page: &SitePage) -> String {
    let q = |s: &str| serde_json::to_string(s).expect("a string serialises");
    let mut out = String::from("---\n");
    out.push_str(&format!("path: {}\n", q(&page.path)));
    out.push_str(&format!("prefix: {}\n", q(&page.prefix)));
    out.push_str(&format!("label: {}\n", q(&page.label)));
    if let Some(r) = &page.r#ref {
        out.push_str(&format!("ref: {}\n", q(r)));
    }
    out.push_str(&format!("locale: {}\n", q(&page.locale)));
    out.push_str(&format!("status: {}\n", q(page.status.as_str())));
    if page.fallback {
        out.push_str("fallback: true\n");
    }
    out.push_str("---\n\n");
    out
}

/// The site's default edition: the one marked default, else the current
/// version of the default project in the default locale.
pub fn default_edition(view: &View) -> Option<&EditionRecord> {
    if let Some(e) = view.manifest.enabled().find(|e| e.default) {
        return Some(e);
    }
    let locale = site_locale(view);
    let project = view.manifest.default_project();
    let version = project.as_deref().and_then(|p| view.manifest.current_version(p));
    view.manifest
        .enabled()
        .filter(|e| locale.as_deref().is_none_or(|l| e.locale == l))
        .filter(|e| project.as_deref().is_none_or(|p| e.project == p))
        .filter(|e| version.as_deref().is_none_or(|v| e.version == v))
        .min_by_key(|e| (e.domain != crate::edition::MANUAL, e.prefix.len()))
}

/// Where the folded term first occurs in `text`, as a range of Unicode
/// scalar indices of the original text (approximate when NFC changed it).
fn folded_find(text: &str, folded_term: &str) -> Option<std::ops::Range<usize>> {
    if text.is_ascii() {
        // Folding ASCII is lowercasing, and never makes a non-ASCII term.
        let start = ascii_find_folded(text.as_bytes(), folded_term.as_bytes())?;
        return Some(start..start + folded_term.len());
    }
    let nfc: Cow<'_, str> = match unicode_normalization::is_nfc_quick(text.chars()) {
        unicode_normalization::IsNormalized::Yes => Cow::Borrowed(text),
        _ => Cow::Owned(text.nfc().collect()),
    };
    // Folding is per scalar, so fold(nfc) is the concatenation of each
    // scalar's folding: record where each scalar's folding starts.
    let mut folded = String::with_capacity(nfc.len());
    let mut starts = Vec::with_capacity(nfc.len());
    let mut buf = [0u8; 4];
    for c in nfc.chars() {
        starts.push(folded.len());
        if c.is_ascii() {
            folded.push(c.to_ascii_lowercase());
        } else {
            folded.push_str(&caseless::default_case_fold_str(c.encode_utf8(&mut buf)));
        }
    }
    let at = folded.find(folded_term)?;
    let first = starts.partition_point(|&s| s <= at).saturating_sub(1);
    let last = starts.partition_point(|&s| s < at + folded_term.len());
    let total = text.chars().count();
    Some(first.min(total)..last.min(total).max(first.min(total)))
}

/// Where the lowercase `needle` first occurs in ASCII `hay`, ignoring
/// ASCII case, without copying `hay`.
fn ascii_find_folded(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    if !needle.is_ascii() || needle.len() > hay.len() {
        return None;
    }
    let last_start = hay.len() - needle.len();
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), &hay[..=last_start])
        .find(|&at| hay[at + 1..at + needle.len()].eq_ignore_ascii_case(rest))
}

/// About [`EXCERPT_CHARS`] scalars of `text` around `range` (scalar
/// indices), with `…` where cut. Never splits a scalar.
fn excerpt_at(text: &str, range: std::ops::Range<usize>) -> String {
    let total = text.chars().count();
    let len = range.end.saturating_sub(range.start);
    let before = EXCERPT_CHARS.saturating_sub(len) / 3;
    let start = if range.is_empty() && range.start == 0 { 0 } else { range.start.saturating_sub(before) };
    let end = (start + EXCERPT_CHARS.max(len)).min(total);
    let start = end.saturating_sub(EXCERPT_CHARS.max(len)).min(start);
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(text.chars().skip(start).take(end - start));
    if end < total {
        out.push('…');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
