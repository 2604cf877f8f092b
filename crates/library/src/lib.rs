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
//! - `library`: [`Library`]: open, view, add, enable/disable/remove.
//! - `list`: listing editions and defaults.
//! - `scope`: turning parameters, text filters and `PG96:` into a set of editions.
//! - `search`: search parameters, limits and the result envelope.
//! - `read`: reading a section or a page, paging in Unicode scalar values.
//! - `pages`: the site's page API: versions, path-cursor listings, substring search, `read_page`.
//! - `repair`: rebuilding a damaged or old-format index from the recorded sources.

pub mod edition;
pub mod error;
pub mod library;
pub mod list;
mod lock;
pub mod manifest;
pub mod pages;
pub mod read;
pub mod repair;
pub mod scope;
pub mod search;
pub mod settings;

pub use edition::{EditionId, EditionRecord, EditionSpec, Status};
pub use error::{ErrorCode, LibraryError};
pub use library::{AddOutcome, AddReport, Library, OpenMode, Progress, View, Watcher};
pub use list::{ListRequest, ListResponse};
pub use manifest::Manifest;
pub use pages::{
    ListPagesRequest, ListPagesResponse, PageEntry, PageMatch, SearchPagesRequest, SearchPagesResponse,
    SitePage, VersionEntry, VersionsResponse,
};
pub use read::{PageResponse, ReadPageRequest, ReadSectionRequest, SectionResponse};
pub use search::{SearchHit, SearchParams, SearchResponse};

/// Result alias for library calls.
pub type Result<T, E = LibraryError> = std::result::Result<T, E>;
