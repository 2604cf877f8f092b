//! The tantivy index behind every face: one document per section and one per
//! page, a CJK+Latin tokenizer, generations as atomic commits, the query
//! language, ranked search with snippets, and an n-gram prefilter for the
//! site's substring search.
//!
//! # Layout
//! - `schema`: fields and `FORMAT_VERSION` (one place).
//! - `text`: NFC + Unicode case folding shared by indexing and querying.
//! - `tokenizer`: words for Latin scripts (stemmed), bigrams + unigrams for Han/Kana/Hangul.
//! - `folder`: the index folder as tantivy sees it (readable on read-only storage).
//! - `store`: `Index` (open, writer, commit with payload, consistent snapshots).
//! - `records`: sections, pages and page listings read from a snapshot.
//! - `query`: the query front end (`PG96:`, filters, phrases, exclusions).
//! - `search`: ranked search over a set of editions, tiers, deadline, cancellation.
//! - `snippet`: snippets with highlight ranges in scalar offsets.
//! - `hitdoc`: a hit's stored fields read from the document's bytes, borrowed.
//! - `grams`: n-gram candidates for substring search.

mod cache;
mod folder;
pub mod grams;
mod highlight;
mod hitdoc;
pub mod query;
mod records;
pub mod schema;
mod search;
pub mod snippet;
pub mod store;
pub mod text;
pub mod tokenizer;

pub use query::{FilterKey, ParsedQuery, QueryError, parse_query};
pub use records::{PageParts, PageRow};
pub use schema::FORMAT_VERSION;
pub use store::{
    Cancel, Hit, Index, IndexError, PageMeta, PageRecord, SearchOutcome, SearchRequest, SectionRecord,
    Snapshot, Writer, section_key,
};
/// Where a document is in the index (a page of [`Snapshot::page_rows`]).
pub use tantivy::DocAddress;
