//! The site's page API: versions with the prefix that scopes them, bounded
//! path-ordered listings with path cursors, substring search with
//! translation priority, and pages as Markdown under our own YAML
//! frontmatter. The HTML site, its `.md` files and `/mcp` all read here,
//! so they cannot disagree.

pub(crate) mod bodies;
mod frontmatter;
mod listing;
pub mod nav;
pub(crate) mod resolve;
pub(crate) mod scope;
mod site;
mod substring;
pub(crate) mod table;
mod visit;
mod wire;

pub use nav::{NavItem, SiteNav};
pub use site::{Descriptions, PAGES_PER_CHECK, PublishedEdition, SiteSearch};
pub use substring::{EXCERPT_CHARS, MAX_TERM_CHARS};
pub use visit::{
    DEFAULT_SITE_NAME, HeadingLink, Lifecycle, Missing, NavLink, PageNav, Visit, compare_versions,
    newest_first,
};
pub use wire::{
    ListPagesRequest, ListPagesResponse, PageEntry, PageMatch, PagesElsewhere, SearchPagesRequest,
    SearchPagesResponse, SitePage, VersionEntry, VersionsResponse,
};

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::LibraryError;
use crate::limit::{Bounds, limit};

/// Fails once `cancel` is set: the client is gone, nobody reads the answer,
/// so a walk over many pages stops between blocks.
pub(crate) fn go_on(cancel: Option<&AtomicBool>) -> Result<(), LibraryError> {
    match cancel {
        Some(c) if c.load(Ordering::Relaxed) => {
            Err(LibraryError::Timeout("stopped: its request was given up".into()))
        }
        _ => Ok(()),
    }
}

pub const DEFAULT_PAGE_LIMIT: usize = 20;
pub const MAX_PAGE_LIMIT: usize = 100;
/// How many pages a listing or substring search returns at a time.
pub const PAGE_LIMIT: Bounds = limit(DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
/// Longest cursor (a site path), in bytes.
pub const MAX_CURSOR_BYTES: usize = crate::path::MAX_PATH_BYTES;

#[cfg(test)]
mod tests;
