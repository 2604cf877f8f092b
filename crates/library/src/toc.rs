//! An edition's table of contents, as the local web page's reader shows it
//! beside a page: the edition's own pages as a tree of groups in reading
//! order, and the page a reader opens first. It is the public site's
//! navigation (folders, frontmatter `order`, `_category_.json`, mdBook
//! `SUMMARY.md`), built once per generation, less the pages standing in for
//! missing translations.

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use crate::error::LibraryError;
use crate::library::Library;
use crate::pages::go_on;
use crate::pages::nav::{NAV_DEPTH, NavItem, StandIns};

/// Folders nest at most this deep (the navigation's own bound).
pub const TOC_DEPTH: usize = NAV_DEPTH;

/// `GET /v1/toc` query.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TocRequest {
    /// Edition id: `project@version/locale[/domain[/collection]]`.
    pub edition: String,
    /// Expected generation.
    pub generation: Option<String>,
}

/// An enabled edition's pages as a tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TocResponse {
    pub generation: String,
    pub edition: String,
    pub label: String,
    pub prefix: String,
    pub project: String,
    pub version: String,
    pub locale: String,
    pub domain: String,
    pub collection: Option<String>,
    /// The page to open first: the edition's home page (at its prefix),
    /// else the first page of the tree; none when it publishes no page.
    pub first_page: Option<String>,
    /// How many pages the tree holds.
    pub pages: usize,
    /// The home page first, then folders and pages of the top level in
    /// reading order: frontmatter `order` first, then by title (numbers
    /// compared as numbers, case ignored), then by path.
    pub entries: Vec<TocEntry>,
}

/// A page, or a folder of pages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TocEntry {
    /// The page's title; for a folder, the title of its own index page,
    /// else its name made readable (`getting-started` is "Getting started").
    pub title: String,
    /// The page's full site path; absent for a folder without an index page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// A folder's pages and folders, in reading order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<TocEntry>,
}

impl Library {
    /// The table of contents of an enabled edition.
    pub fn toc(&self, request: &TocRequest) -> Result<TocResponse, LibraryError> {
        self.toc_unless(request, None)
    }

    /// [`Library::toc`], not started once `cancel` is set.
    pub fn toc_unless(
        &self,
        request: &TocRequest,
        cancel: Option<&AtomicBool>,
    ) -> Result<TocResponse, LibraryError> {
        go_on(cancel)?;
        let view = self.view()?;
        view.check_generation(request.generation.as_deref())?;
        let e = view.edition(request.edition.trim())?;
        if !e.enabled {
            return Err(LibraryError::NotFound(format!(
                "edition {} is disabled; enable it with `lectern enable {}`",
                e.id, e.id
            )));
        }
        go_on(cancel)?;
        let nav = view.nav(&e.prefix, StandIns::Skip)?;
        let entries: Vec<TocEntry> = nav.items.iter().map(entry).collect();
        let first_page = first_path(&entries);
        Ok(TocResponse {
            generation: view.generation.clone(),
            edition: e.id.clone(),
            label: e.label.clone(),
            prefix: e.prefix.clone(),
            project: e.project.clone(),
            version: e.version.clone(),
            locale: e.locale.clone(),
            domain: e.domain.clone(),
            collection: e.collection.clone(),
            first_page,
            pages: nav.reading.len(),
            entries,
        })
    }
}

/// The first page in reading order.
fn first_path(entries: &[TocEntry]) -> Option<String> {
    entries.iter().find_map(|e| e.path.clone().or_else(|| first_path(&e.children)))
}

/// One item of the edition's navigation (the public site's sidebar, less the
/// pages standing in for missing translations) as an entry of the tree. The
/// depth is the navigation's, which the ingest bounds.
fn entry(item: &NavItem) -> TocEntry {
    match item {
        NavItem::Page { path, label } => {
            TocEntry { title: label.clone(), path: Some(path.clone()), children: Vec::new() }
        }
        NavItem::Group { label, items, led, .. } => {
            // A group's own page is the folder's entry, not a child of it.
            let (own, rest) = match (led, items.split_first()) {
                (true, Some((NavItem::Page { path, .. }, rest))) => (Some(path.clone()), rest),
                _ => (None, &items[..]),
            };
            TocEntry { title: label.clone(), path: own, children: rest.iter().map(entry).collect() }
        }
    }
}

#[cfg(test)]
mod tests;
