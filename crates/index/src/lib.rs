//! The tantivy index behind every face: one document per section and one per
//! page, a CJK+Latin tokenizer, generations as atomic commits, the query
//! language, ranked search with snippets, and an n-gram prefilter for the
//! site's substring search.
//!
//! # Layout
//! - `schema`: fields and `FORMAT_VERSION` (one place).
//! - `format`: the format file beside tantivy's, written at creation, checked at open.
//! - `error`: `IndexError`.
//! - `text`: NFC + Unicode case folding shared by indexing and querying.
//! - `tokenizer`: words for Latin scripts (stemmed), bigrams + unigrams for Han/Kana/Hangul.
//! - `keys`: section keys and symbol keys, derived from content.
//! - `index`: `Index` (open, refresh) and its consistent `Snapshot`s.
//! - `weight`: a section's rank weight by what its page is (listing, release notes, appendix).
//! - `writer`: `Writer` (add pages, delete editions, commit a generation with its payload).
//! - `records`: sections, pages and page listings as stored, read from a snapshot.
//! - `folder`: the index folder as tantivy sees it (readable on read-only storage).
//! - `query`: the query front end (`PG96:`, filters, phrases, exclusions).
//! - `languages`: the language of a query in Latin script, and its function words.
//! - `question`: words a question asks with (English stopwords, Chinese question words), identifiers inside queries.
//! - `spellings`: Chinese words written more than one way (帐号 and 账号, 口令 and 密码), searched as one.
//! - `request`: a search's request, outcome and hits.
//! - `compile`: a query compiled into the two tiers' queries and what snippets light.
//! - `proximity`, `passage`, `heading`: the best candidates rescored by their words' positions.
//! - `search`: ranked search over a set of editions, tiers, deadline, cancellation.
//! - `twin`: words a translated edition renders otherwise, looked up in the edition it was translated from.
//! - `cache`: a snapshot's recent search results.
//! - `highlight`, `snippet`: snippets with highlight ranges in scalar offsets.
//! - `hitdoc`: a hit's stored fields read from the document's bytes, borrowed.
//! - `grams`: n-gram candidates for substring search.
//!
//! Modules import one way: `error`, `format`, `index`, then `writer`,
//! `records`, `compile` and `search` on top; none imports a module that
//! imports it.

mod cache;
mod compile;
mod error;
mod folder;
mod format;
pub mod grams;
mod heading;
mod highlight;
mod hitdoc;
mod index;
mod inflight;
mod keys;
mod languages;
mod packed;
mod passage;
mod proximity;
pub mod query;
mod question;
mod records;
mod request;
pub mod schema;
mod scope;
mod search;
pub mod snippet;
mod spellings;
mod stats;
mod t2s;
pub mod text;
pub mod tokenizer;
mod twin;
mod weight;
mod writer;

pub use error::IndexError;
pub use index::{Index, Snapshot};
pub use keys::section_key;
pub use languages::query_languages;
pub use query::{FILTER_NAMES, FilterKey, ParsedQuery, QueryError, parse_query};
pub use records::{AssetRecord, PageMeta, PageParts, PageRecord, PageRow, SectionRecord};
pub use request::{Cancel, Hit, SearchOutcome, SearchRequest, Twin};
pub use schema::FORMAT_VERSION;
/// Where a document is in the index (a page of [`Snapshot::page_rows`]).
pub use tantivy::DocAddress;
pub use writer::Writer;
