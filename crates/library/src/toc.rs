//! An edition's table of contents, as the local web page's reader shows it
//! beside a page: the edition's own pages as a tree of folders in reading
//! order, and the page a reader opens first. Built from the edition's page
//! table (paths, titles, frontmatter `order`), never from page bodies.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use crate::error::LibraryError;
use crate::library::Library;
use crate::pages::go_on;
use crate::pages::table::PageTable;
use crate::path::relative;

/// Folders nest at most this deep; a page below that is listed in the
/// deepest folder under the rest of its path (so the tree, and the
/// recursion that walks it, stays shallow whatever paths a source has).
pub const TOC_DEPTH: usize = 6;

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
        let table = view.table(e);
        go_on(cancel)?;
        let (home, entries) = Folders::of(&table).entries(&table);
        let first_page = home.as_ref().and_then(|h| h.path.clone()).or_else(|| first_path(&entries));
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
            pages: table.len(),
            entries: home.into_iter().chain(entries).collect(),
        })
    }
}

fn first_path(entries: &[TocEntry]) -> Option<String> {
    entries.iter().find_map(|e| e.path.clone().or_else(|| first_path(&e.children)))
}

/// The folder tree of one edition's pages, as rows of its page table.
#[derive(Default)]
struct Folders {
    /// Folder 0 is the edition's top level.
    folders: Vec<Folder>,
    /// The page at the edition's prefix.
    home: Option<usize>,
}

#[derive(Default)]
struct Folder {
    name: String,
    subfolders: HashMap<String, usize>,
    /// `(name below the folder, row)`; a page named like a subfolder is
    /// that folder's own page (`guide/index.md` is served as `/guide`).
    pages: Vec<(String, usize)>,
}

impl Folders {
    fn of(table: &PageTable) -> Folders {
        let mut tree = Folders { folders: vec![Folder::default()], home: None };
        for row in 0..table.len() {
            let rel = relative(table.path(row), &table.prefix);
            let parts: Vec<&str> = rel.split('/').filter(|s| !s.is_empty()).collect();
            let Some((last, dirs)) = parts.split_last() else {
                tree.home = Some(row);
                continue;
            };
            let depth = dirs.len().min(TOC_DEPTH);
            let mut at = 0;
            for dir in &dirs[..depth] {
                at = tree.subfolder(at, dir);
            }
            let name = if depth < dirs.len() { parts[depth..].join("/") } else { (*last).to_owned() };
            tree.folders[at].pages.push((name, row));
        }
        tree
    }

    fn subfolder(&mut self, parent: usize, name: &str) -> usize {
        if let Some(&i) = self.folders[parent].subfolders.get(name) {
            return i;
        }
        let i = self.folders.len();
        self.folders.push(Folder { name: name.to_owned(), ..Folder::default() });
        self.folders[parent].subfolders.insert(name.to_owned(), i);
        i
    }

    /// The home page's entry and the top level's entries.
    fn entries(&self, table: &PageTable) -> (Option<TocEntry>, Vec<TocEntry>) {
        let home = self.home.map(|row| TocEntry {
            title: title(table, row, ""),
            path: Some(table.path(row).to_owned()),
            children: Vec::new(),
        });
        (home, self.children(table, 0))
    }

    /// A folder's entries, sorted. Recursion is bounded by [`TOC_DEPTH`].
    fn children(&self, table: &PageTable, folder: usize) -> Vec<TocEntry> {
        let f = &self.folders[folder];
        let own: HashMap<&str, usize> = f
            .pages
            .iter()
            .filter(|(name, _)| f.subfolders.contains_key(name))
            .map(|(name, row)| (name.as_str(), *row))
            .collect();
        let mut items: Vec<(Option<i64>, TocEntry)> = Vec::with_capacity(f.pages.len() + f.subfolders.len());
        for (name, row) in &f.pages {
            if !own.contains_key(name.as_str()) {
                let entry = TocEntry {
                    title: title(table, *row, name),
                    path: Some(table.path(*row).to_owned()),
                    children: Vec::new(),
                };
                items.push((table.order(*row), entry));
            }
        }
        for (name, &sub) in &f.subfolders {
            let page = own.get(name.as_str()).copied();
            let entry = TocEntry {
                title: page.map_or_else(|| readable(&self.folders[sub].name), |row| title(table, row, name)),
                path: page.map(|row| table.path(row).to_owned()),
                children: self.children(table, sub),
            };
            items.push((page.and_then(|row| table.order(row)), entry));
        }
        items.sort_by(|(oa, a), (ob, b)| {
            (oa.is_none(), oa)
                .cmp(&(ob.is_none(), ob))
                .then_with(|| natural(&a.title, &b.title))
                .then_with(|| a.path.cmp(&b.path))
        });
        items.into_iter().map(|(_, e)| e).collect()
    }
}

/// A page's title, else its file name made readable.
fn title(table: &PageTable, row: usize, name: &str) -> String {
    let t = table.title(row);
    if t.trim().is_empty() { readable(name) } else { t }
}

/// `getting-started` → "Getting started"; a name with capitals (`API`,
/// `FAQ`) keeps them.
fn readable(name: &str) -> String {
    let spaced: String = name.chars().map(|c| if c == '-' || c == '_' { ' ' } else { c }).collect();
    let spaced = spaced.trim();
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => name.to_owned(),
    }
}

/// Compares titles as people read them: case ignored, runs of digits by
/// their value ("Chapter 2" before "Chapter 10").
fn natural(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.chars().peekable(), b.chars().peekable());
    loop {
        match (a.peek().copied(), b.peek().copied()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let take = |it: &mut std::iter::Peekable<std::str::Chars<'_>>| {
                    let mut digits = String::new();
                    while let Some(c) = it.next_if(char::is_ascii_digit) {
                        digits.push(c);
                    }
                    digits.trim_start_matches('0').to_owned()
                };
                let (da, db) = (take(&mut a), take(&mut b));
                let by_value = da.len().cmp(&db.len()).then_with(|| da.cmp(&db));
                if by_value != Ordering::Equal {
                    return by_value;
                }
            }
            (Some(x), Some(y)) => {
                let by_char = x.to_lowercase().cmp(y.to_lowercase());
                if by_char != Ordering::Equal {
                    return by_char;
                }
                a.next();
                b.next();
            }
        }
    }
}

#[cfg(test)]
mod tests;
