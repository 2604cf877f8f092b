//! Source documentation to pages: Markdown trees, HTML manuals, Dash docsets,
//! archives and site configs. Knows nothing of tantivy, HTTP or MCP.
//!
//! # Layout
//! - `page`: the page/section/symbol model every source produces, and per-file errors.
//! - `limits`: [`Limits`] on what reading a source may cost, and [`SourceError`].
//! - `source`: `read_source` — detect the format of a directory or archive and read it;
//!   `spool_source` reads it one page at a time into a [`Spooled`] source.
//! - `spool`: converted pages parked in an unnamed temporary file until they are indexed.
//! - `assets`: the images and files pages reference: found, read under caps, checked, spooled.
//! - `archive`: safe extraction of `.tar`, `.tar.gz`/`.tgz`, `.tar.xz`, `.zip`.
//! - `walk`: listing a source folder's files (hidden files and escaping links skipped) and
//!   reading them without following a link swapped in meanwhile.
//! - `frontmatter`: splitting and reading YAML frontmatter.
//! - `markdown`: Markdown → plain text and sections (body kept byte for byte).
//! - `chrome`: site chrome in HTML pages (navigation by shape, role and class; blocks
//!   repeated across an edition).
//! - `admonition`: DocBook notes set as tables with an icon (`admon.graphics`), read as notes.
//! - `html`: HTML manuals (PostgreSQL DocBook XHTML) and generic HTML → Markdown, text, sections.
//! - `check`: the link check of an edition (what resolves, what the source itself breaks).
//! - `docset`: Dash/Zeal docsets (`searchIndex` or Core Data `ZTOKEN`, `Info.plist`), the
//!   index read under bounds on rows, SQLite operations and time.
//! - `inventory`: Sphinx `objects.inv` entries → symbols of the pages they point at.
//! - `nav`: each page's place in the sidebar: folders, `_category_.json`, mdBook `SUMMARY.md`.
//! - `links`: where a link in a page leads (generator rules, against an edition's pages),
//!   and the raw-HTML anchors a page offers.
//! - `paths`: page paths under an edition prefix, relative link resolution.
//! - `render`: Markdown → safe HTML for the faces that show pages to people;
//!   `sanitize`: the allowlist raw HTML in Markdown passes.
//! - `titles`: the site name generators append to page titles, removed across an edition.
//! - `defined`: terms a page marks where it defines them (`<dfn>`, DocBook's `firstterm`)
//!   → symbols of their sections.
//! - `generated`: the pages an API generator writes around its reference (Javadoc's
//!   index, "Uses of" pages and source listings; Doxygen's member indexes; Texinfo's
//!   printed indexes) are listings, told by the generator's mark in the `<head>`.
//! - `manpage`: a manual page's NAME line (or a Markdown manual page's
//!   frontmatter title) → its commands and what the page is about.
//! - `texinfo`: GNU Texinfo manuals' index entries → symbols where they are made; their
//!   index pages are listings.
//! - `varlist`: settings and options a manual's variable lists define → symbols of their sections.
//! - `site`: `lectern.toml` site configs.
//! - `names`: validators for project, version, locale, prefix... names.
//! - `text`: shared text helpers (NFC, slugs, tidying).
//! - `script`: which characters are CJK (and which of those Hangul), for every crate.

mod admonition;
mod api_index;
mod api_pages;
pub mod archive;
pub mod assets;
pub mod check;
mod chrome;
mod defined;
pub mod docset;
pub mod frontmatter;
mod generated;
pub mod heading_ids;
pub mod html;
pub mod inventory;
mod javadoc;
pub mod limits;
pub mod links;
mod manpage;
pub mod markdown;
mod mdx;
pub mod names;
pub mod nav;
pub mod page;
pub mod paths;
pub mod render;
mod rowstore;
mod rustdoc;
mod sanitize;
pub mod script;
pub mod site;
pub mod source;
mod spool;
mod tags;
mod texinfo;
pub mod text;
pub mod titles;
mod varlist;
pub mod walk;
mod xhtml;

pub use html::html_to_page;
pub use markdown::markdown_to_page;
pub use page::{Page, PageError, Problem, Section, Symbol};
pub use site::{EditionConfig, SiteConfig, SiteConfigError};
pub use source::{
    DocsetInfo, Ingested, Limits, PageEntry, ReadOptions, SourceError, SourceFormat, Spooled, read_source,
    read_source_with_limits, spool_source, spool_source_with_limits,
};
