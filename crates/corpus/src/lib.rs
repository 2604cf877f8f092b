//! Source documentation to pages: Markdown trees, HTML manuals, Dash docsets,
//! archives and site configs. Knows nothing of tantivy, HTTP or MCP.
//!
//! # Layout
//! - `page`: the page/section/symbol model every source produces.
//! - `source`: `read_source` — detect the format of a directory or archive and walk it.
//! - `archive`: safe extraction of `.tar`, `.tar.gz`/`.tgz`, `.tar.xz`, `.zip`.
//! - `markdown`: frontmatter split, Markdown → plain text and sections.
//! - `html`: HTML manuals (PostgreSQL DocBook XHTML) → Markdown, text, sections.
//! - `docset`: Dash/Zeal docsets (`searchIndex` or Core Data `ZTOKEN`, `Info.plist`).
//! - `site`: `lectern.toml` site configs.
//! - `text`: shared text helpers (NFC, scalar-safe slicing).

pub mod page;
pub mod site;
pub mod source;

pub use page::{Page, Problem, Section, Symbol};
pub use site::{EditionConfig, SiteConfig, SiteConfigError};
pub use source::{DocsetInfo, Ingested, ReadOptions, SourceError, SourceFormat, read_source};
