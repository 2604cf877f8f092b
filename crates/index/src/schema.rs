//! The index schema, in one place, and the on-disk format version.
//!
//! Three kinds of document share one index: one per section (searched), one
//! per page (listed, read, and prefiltered for substring search) and one per
//! asset (an image or file pages reference: its site path, type and content
//! hash; the bytes are kept beside the index, one file per content).

use tantivy::schema::{
    FAST, Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};

use crate::tokenizer::{GRAMS, LECTERN, LECTERN_TITLE};

/// Bump when the schema, the tokenizers or what is stored changes; an index
/// of another format is refused at open (`IndexError::Format`).
pub const FORMAT_VERSION: u32 = 16;

/// The small file beside tantivy's files that records [`FORMAT_VERSION`].
pub const FORMAT_FILE: &str = "lectern-index.json";

/// `kind` values.
pub const KIND_SECTION: &str = "section";
pub const KIND_PAGE: &str = "page";
pub const KIND_ASSET: &str = "asset";
/// A path that leads to a page under another path (a redirect's, a file's
/// other name): `path` is it, `source_file` the page's path and fragment.
pub const KIND_MOVED: &str = "moved";

/// Every field, resolved once.
#[derive(Debug, Clone)]
pub struct Fields {
    pub schema: Schema,
    /// `section` or `page` (raw).
    pub kind: Field,
    /// Edition key (raw, indexed, fast): delete and filter by edition.
    pub edition: Field,
    /// Section key, 16 lowercase hex chars (raw, stored).
    pub section_key: Field,
    /// The same key as a number: its hex spelling sorts like the number, so
    /// paging ties break on it without reading strings (fast).
    pub key_num: Field,
    /// Full site path (raw, indexed, stored, fast).
    pub path: Field,
    pub anchor: Field,
    /// Section title (analysed, stored).
    pub title: Field,
    /// One value per breadcrumb entry (analysed, stored).
    pub breadcrumb: Field,
    /// Section plain text (analysed with positions, stored).
    pub body: Field,
    /// Exact symbol names, folded, single spaces (raw).
    pub symbol: Field,
    /// Every symbol of the section's page, on each of its sections (raw), so a
    /// query that starts with a symbol (`create index concurrently`) favours
    /// that page's sections.
    pub page_symbol: Field,
    /// Rank weight in percent (100; lower for generated listings).
    pub weight: Field,
    /// Section docs: its heading's shape for heading cover (fast; see
    /// `heading::shape`).
    pub title_shape: Field,
    /// Section docs: the names it defines at elements inside it, each with
    /// that element's id, one `key<TAB>id` per line (stored, before the
    /// body; see `writer::section_symbols`).
    pub entries: Field,
    /// Page docs: the file inside the source (resolves relative links).
    /// Moved docs: the path (and fragment) of the page they lead to.
    pub source_file: Field,
    /// Page docs: each section's anchor in order ("" for none).
    pub anchors: Field,
    /// Page docs: the page's Markdown, packed (see `packed`). Section docs:
    /// only when the section's Markdown is not a slice of its page's (it
    /// always is, from our parsers).
    pub markdown: Field,
    /// Section docs: where the section's Markdown is in its page's, two
    /// values (byte offset, byte length). The Markdown is stored once, so a
    /// hit's document holds only what a hit shows, and a hit reads half the bytes.
    pub markdown_at: Field,
    pub ordinal: Field,
    /// Page title (stored, fast: listing pages reads no document).
    pub page_title: Field,
    /// Page docs: the page's plain text, packed (see `packed`).
    pub page_text: Field,
    pub description: Field,
    pub frontmatter: Field,
    pub order: Field,
    pub draft: Field,
    pub section_count: Field,
    /// Page docs: the page's place in the sidebar (`lectern_corpus::nav::NavPlace`
    /// as JSON; absent for a top-level page ordered by title), fast so a
    /// sidebar is built without reading a document.
    pub nav: Field,
    /// Page docs: each section's heading, `level<TAB>title`, in document
    /// order (beside `anchors`): the page's table of contents.
    pub headings: Field,
    /// Distinct 1-3 char grams and ASCII 4-char grams of
    /// `fold(title) + "\n" + fold(text)` (page docs).
    pub grams: Field,
    /// Asset docs: the hex SHA-256 of the bytes (stored).
    pub asset_hash: Field,
    /// Asset docs: the `Content-Type` it is served with (stored).
    pub asset_type: Field,
    /// Asset docs: its size in bytes (stored).
    pub asset_size: Field,
}

impl Fields {
    /// Builds the schema.
    pub fn build() -> Fields {
        let mut b = Schema::builder();
        let analysed = |tokenizer: &str| {
            TextOptions::default()
                .set_indexing_options(
                    TextFieldIndexing::default()
                        .set_tokenizer(tokenizer)
                        .set_index_option(IndexRecordOption::WithFreqsAndPositions),
                )
                .set_stored()
        };
        let kind = b.add_text_field("kind", STRING);
        let edition = b.add_text_field("edition", STRING | STORED | FAST);
        let section_key = b.add_text_field("section_key", STRING | STORED);
        let key_num = b.add_u64_field("key_num", FAST);
        let path = b.add_text_field("path", STRING | STORED | FAST);
        let anchor = b.add_text_field("anchor", STORED);
        let title = b.add_text_field("title", analysed(LECTERN_TITLE));
        let breadcrumb = b.add_text_field("breadcrumb", analysed(LECTERN_TITLE));
        let body = b.add_text_field("body", analysed(LECTERN));
        let symbol = b.add_text_field("symbol", STRING);
        let page_symbol = b.add_text_field("page_symbol", STRING);
        let weight = b.add_u64_field("weight", FAST);
        let title_shape = b.add_u64_field("title_shape", FAST);
        let entries = b.add_text_field("entries", STORED);
        let source_file = b.add_text_field("source_file", STORED);
        let anchors = b.add_text_field("anchors", STORED);
        let markdown = b.add_bytes_field("markdown", STORED);
        let markdown_at = b.add_u64_field("markdown_at", STORED);
        let ordinal = b.add_u64_field("ordinal", STORED);
        let page_title = b.add_text_field("page_title", STORED | FAST);
        let page_text = b.add_bytes_field("page_text", STORED);
        let description = b.add_text_field("description", STORED);
        let frontmatter = b.add_text_field("frontmatter", STORED);
        let order = b.add_i64_field("order", STORED | FAST);
        let draft = b.add_bool_field("draft", STORED | FAST);
        let section_count = b.add_u64_field("section_count", STORED);
        let nav = b.add_text_field("nav", STORED | FAST);
        let headings = b.add_text_field("headings", STORED);
        let grams = b.add_text_field(
            "grams",
            TextOptions::default().set_indexing_options(
                TextFieldIndexing::default().set_tokenizer(GRAMS).set_index_option(IndexRecordOption::Basic),
            ),
        );
        let asset_hash = b.add_text_field("asset_hash", STORED);
        let asset_type = b.add_text_field("asset_type", STORED);
        let asset_size = b.add_u64_field("asset_size", STORED);
        Fields {
            schema: b.build(),
            kind,
            edition,
            section_key,
            key_num,
            path,
            anchor,
            title,
            breadcrumb,
            body,
            symbol,
            page_symbol,
            weight,
            title_shape,
            entries,
            source_file,
            anchors,
            markdown,
            markdown_at,
            ordinal,
            page_title,
            page_text,
            description,
            frontmatter,
            order,
            draft,
            section_count,
            nav,
            headings,
            grams,
            asset_hash,
            asset_type,
            asset_size,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_has_every_field_once() {
        let f = Fields::build();
        assert_eq!(f.schema.fields().count(), 32);
        assert_eq!(f.schema.get_field("asset_hash").ok(), Some(f.asset_hash));
        assert_eq!(f.schema.get_field("page_symbol").ok(), Some(f.page_symbol));
        assert_eq!(f.schema.get_field("weight").ok(), Some(f.weight));
        assert_eq!(f.schema.get_field("body").ok(), Some(f.body));
        assert_eq!(f.schema.get_field("markdown_at").ok(), Some(f.markdown_at));
    }
}
