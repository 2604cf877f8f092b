//! The one read/write API every face calls: editions (add, list, enable,
//! disable, remove), generations, defaults, ranked search, reading sections
//! and pages. No HTTP, no MCP: faces are thin adapters over [`Library`].
//!
//! # Layout
//! - `error`: [`LibraryError`] and [`ErrorCode`], its stable codes (the same on every face).
//! - `edition`: edition ids, fields, statuses, and the prefix rule.
//! - `manifest`: what a generation commits (editions + settings) and the generation string.
//! - `settings`: `lectern config get/set` keys and the defaults' fallback order.
//! - `lock`: the writer lock on the user-data folder.
//! - `library`: [`Library`]: open and views; under it `library/write` (the writer lock,
//!   enable/disable/remove, settings) and `library/add` (adding an edition or a site's).
//! - `view`: [`View`]: one generation's snapshot and manifest, opaque to faces, and its page caches.
//! - `initialize`: the check of an MCP `initialize` request's params both MCP faces make.
//! - `status`: [`LibraryStatus`]: generation, edition counts, result-cache counters.
//! - `suggest`: "did you mean" by edit distance.
//! - `path`: [`path::SitePath`]: a full site path, parsed and validated once.
//! - `limit`: [`limit::Bounds`]: the range, default and one error message of every limit and offset.
//! - `list`: listing editions and defaults.
//! - `scope`: turning parameters, text filters and `PG96:` into a set of editions.
//! - `search`: search parameters, limits and the result envelope.
//! - `read`: reading a section or a page, paging in Unicode scalar values.
//! - `pages`: the site's page API, one concept a module:
//!   - `wire`: its request and response types;
//!   - `table`: one edition's page table over the index's fast fields;
//!   - `scope`: a prefix's pages with fallbacks, path cursors, the per-view cache;
//!   - `resolve`: a site path to the edition and page that answer it (also used by `read`);
//!   - `listing`: `list_versions`, `list_pages`;
//!   - `substring`: `search_pages`, folding and excerpts;
//!   - `frontmatter`: our YAML over a page's Markdown;
//!   - `site`: a served page, its navigation, the search page, the published listing.
//! - `toc`: an edition's table of contents (a tree of folders in reading order) for the
//!   local web page's reader.
//! - `assets`: the bytes of editions' assets beside the index, one file per content; [`assets::Asset`].
//! - `check`: `lectern check`, the link check of installed editions from their recorded sources.
//! - `repair`: rebuilding a damaged or old-format index from the recorded sources.

pub mod assets;
pub mod check;
pub mod edition;
pub mod error;
pub mod initialize;
pub mod library;
pub mod limit;
pub mod list;
mod lock;
pub mod manifest;
pub mod pages;
pub mod path;
pub mod read;
pub mod repair;
pub mod scope;
pub mod search;
pub mod settings;
pub mod status;
mod suggest;
pub mod toc;
pub mod view;

pub use assets::Asset;
pub use edition::{EditionId, EditionRecord, EditionSpec, Status};
pub use error::{ErrorCode, LibraryError};
pub use library::{AddOutcome, AddReport, Library, OpenMode, Progress, View, Watcher};
pub use list::{ListRequest, ListResponse};
pub use manifest::Manifest;
pub use pages::{
    Descriptions, HeadingLink, Lifecycle, ListPagesRequest, ListPagesResponse, Missing, NavItem, NavLink,
    PAGES_PER_CHECK, PageEntry, PageMatch, PageNav, PagesElsewhere, PublishedEdition, SearchPagesRequest,
    SearchPagesResponse, SiteNav, SitePage, SiteSearch, VersionEntry, VersionsResponse, Visit,
};
pub use read::{PageResponse, ReadPageRequest, ReadSectionRequest, SectionResponse};
pub use search::{Elsewhere, SearchHit, SearchParams, SearchResponse};
pub use status::LibraryStatus;
pub use toc::{TocEntry, TocRequest, TocResponse};

/// Result alias for library calls.
pub type Result<T, E = LibraryError> = std::result::Result<T, E>;
