//! Stored records and reading them from a snapshot: sections, pages, page
//! listings (from fast fields only), assets and per-edition counts.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use tantivy::collector::{Count, DocSetCollector};
use tantivy::query::{BooleanQuery, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, TantivyDocument, Value};
use tantivy::{DocAddress, Term};

use crate::index::{Snapshot, SnapshotInner};
use crate::keys::section_key;
use crate::schema::{Fields, KIND_ASSET, KIND_MOVED, KIND_PAGE, KIND_SECTION};

/// A section as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SectionRecord {
    pub key: String,
    pub edition: String,
    pub page_path: String,
    pub anchor: Option<String>,
    pub title: String,
    pub breadcrumb: Vec<String>,
    pub text: String,
    /// Read only when asked for ([`Snapshot::section_with_markdown`]).
    pub markdown: Option<String>,
}

/// A page as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageRecord {
    pub edition: String,
    pub path: String,
    pub title: String,
    pub description: Option<String>,
    pub order: Option<i64>,
    pub draft: bool,
    pub frontmatter: Option<String>,
    pub markdown: String,
    pub text: String,
    /// Section keys in document order.
    pub section_keys: Vec<String>,
    /// The file inside the source the page came from.
    #[serde(default)]
    pub source_file: String,
    /// Each section's anchor, in document order (None for the lead).
    #[serde(default)]
    pub anchors: Vec<Option<String>>,
    /// Each section's heading level and title, beside `anchors`.
    #[serde(default)]
    pub headings: Vec<(u8, String)>,
}

/// An asset as stored: where it is served, what it is, and the hash its
/// bytes are kept under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssetRecord {
    pub edition: String,
    pub path: String,
    pub hash: String,
    pub content_type: String,
    pub size: u64,
}

/// A page's listing entry (no bodies).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageMeta {
    pub path: String,
    pub title: String,
    pub order: Option<i64>,
    pub draft: bool,
}

pub(crate) fn term_query(field: Field, text: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(Term::from_field_text(field, text), IndexRecordOption::Basic))
}

fn first_str(doc: &TantivyDocument, field: Field) -> Option<String> {
    doc.get_first(field).and_then(|v| v.as_str()).map(str::to_string)
}

/// The text a packed field holds (see `packed`); None when it is absent
/// or damaged.
fn first_packed(doc: &TantivyDocument, field: Field) -> Option<String> {
    crate::packed::unpack(doc.get_first(field)?.as_bytes()?)
}

fn all_str(doc: &TantivyDocument, field: Field) -> Vec<String> {
    doc.get_all(field).filter_map(|v| v.as_str()).map(str::to_string).collect()
}

pub(crate) fn section_record(f: &Fields, doc: &TantivyDocument) -> SectionRecord {
    SectionRecord {
        key: first_str(doc, f.section_key).unwrap_or_default(),
        edition: first_str(doc, f.edition).unwrap_or_default(),
        page_path: first_str(doc, f.path).unwrap_or_default(),
        anchor: first_str(doc, f.anchor),
        title: first_str(doc, f.title).unwrap_or_default(),
        breadcrumb: all_str(doc, f.breadcrumb),
        text: first_str(doc, f.body).unwrap_or_default(),
        markdown: None,
    }
}

/// One page of an edition as [`Snapshot::page_rows`] reports it.
#[derive(Debug, Clone, Copy)]
pub struct PageRow<'a> {
    pub address: DocAddress,
    pub path: &'a str,
    pub title: &'a str,
    pub order: Option<i64>,
    pub draft: bool,
}

/// A page's path, title, description and plain text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageParts {
    pub path: String,
    pub title: String,
    pub description: Option<String>,
    pub text: String,
}

impl SnapshotInner {
    /// The title and text of the section after the one at `address` on its
    /// page, if there is one.
    pub(crate) fn next_section(&self, address: DocAddress) -> Option<(String, String)> {
        let f = &self.fields;
        let doc = self.searcher.doc::<TantivyDocument>(address).ok()?;
        let ordinal = doc.get_first(f.ordinal).and_then(|v| v.as_u64())?;
        let (edition, path) = (first_str(&doc, f.edition)?, first_str(&doc, f.path)?);
        let key = section_key(&edition, &path, ordinal as usize + 1);
        let query = BooleanQuery::intersection(vec![
            term_query(f.kind, KIND_SECTION),
            term_query(f.section_key, &key),
        ]);
        let found: HashSet<DocAddress> = self.searcher.search(&query, &DocSetCollector).ok()?;
        let next = self.searcher.doc::<TantivyDocument>(*found.iter().min()?).ok()?;
        Some((first_str(&next, f.title).unwrap_or_default(), first_str(&next, f.body)?))
    }

    /// The titles of the pages the section at `address` lists, when its
    /// Markdown lists any (a chapter's page that is nothing but its
    /// contents: Texinfo's menu, DocBook's `div.toc`, whose lines are shown
    /// but not searched), joined as one line: what a hit on it shows.
    pub(crate) fn listed_titles(&self, address: DocAddress) -> Option<String> {
        let doc = self.searcher.doc::<TantivyDocument>(address).ok()?;
        let markdown = self.section_markdown(&doc)?;
        let listed: Vec<(usize, &str)> = markdown
            .lines()
            .filter_map(|line| Some((line.len() - line.trim_start().len(), listed_title(line)?)))
            .collect();
        // (The outermost list's: a chapter's sections, not theirs.)
        let outer = listed.iter().map(|(indent, _)| *indent).min()?;
        let titles: Vec<&str> = listed.iter().filter(|(i, _)| *i == outer).map(|(_, t)| *t).collect();
        Some(titles.join(" · "))
    }

    /// The page at a full site path within one edition (the first that
    /// loads, by address).
    fn page_doc(&self, edition: &str, path: &str) -> Option<TantivyDocument> {
        let f = &self.fields;
        let query = BooleanQuery::intersection(vec![
            term_query(f.kind, KIND_PAGE),
            term_query(f.edition, edition),
            term_query(f.path, path),
        ]);
        let found: HashSet<DocAddress> = self.searcher.search(&query, &DocSetCollector).ok()?;
        let mut found: Vec<DocAddress> = found.into_iter().collect();
        found.sort();
        found.into_iter().find_map(|a| self.searcher.doc::<TantivyDocument>(a).ok())
    }

    /// A section's Markdown: its own, or its slice of its page's (None when
    /// the page no longer holds that slice: a damaged index).
    fn section_markdown(&self, doc: &TantivyDocument) -> Option<String> {
        let f = &self.fields;
        if let Some(own) = first_packed(doc, f.markdown) {
            return Some(own);
        }
        let &[from, len] =
            doc.get_all(f.markdown_at).filter_map(|v| v.as_u64()).collect::<Vec<_>>().as_slice()
        else {
            return None;
        };
        let page = self.page_doc(&first_str(doc, f.edition)?, &first_str(doc, f.path)?)?;
        let whole = first_packed(&page, f.markdown)?;
        let from = usize::try_from(from).ok()?;
        Some(whole.get(from..from.checked_add(usize::try_from(len).ok()?)?)?.to_owned())
    }
}

/// The text of the link a line of a Markdown list starts with (`-
/// [Solvers](/octave/Solvers)`, `  * [12.1. Introduction](…) — what`),
/// if it does.
fn listed_title(line: &str) -> Option<&str> {
    let item = line.trim_start();
    let item = item.strip_prefix(['-', '*', '+']).or_else(|| {
        let digits = item.len() - item.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        (digits > 0).then(|| item[digits..].strip_prefix('.')).flatten()
    })?;
    let (text, _) = item.strip_prefix(' ')?.trim_start().strip_prefix('[')?.split_once("](")?;
    let text = text.trim();
    (!text.is_empty()).then_some(text)
}

impl Snapshot {
    fn docs(&self, query: &dyn Query) -> Vec<DocAddress> {
        let mut docs: Vec<DocAddress> = self
            .inner
            .searcher
            .search(query, &DocSetCollector)
            .map(|set: HashSet<DocAddress>| set.into_iter().collect())
            .unwrap_or_default();
        docs.sort();
        docs
    }

    fn load(&self, address: DocAddress) -> Option<TantivyDocument> {
        self.inner.searcher.doc::<TantivyDocument>(address).ok()
    }

    pub(crate) fn page_query(&self, edition: &str, extra: Vec<Box<dyn Query>>) -> BooleanQuery {
        let f = &self.inner.fields;
        let mut clauses = vec![term_query(f.kind, KIND_PAGE), term_query(f.edition, edition)];
        clauses.extend(extra);
        BooleanQuery::intersection(clauses)
    }

    fn page_doc(&self, edition: &str, path: &str) -> Option<TantivyDocument> {
        self.inner.page_doc(edition, path)
    }

    fn section_doc(&self, key: &str) -> Option<TantivyDocument> {
        let f = &self.inner.fields;
        let query = BooleanQuery::intersection(vec![
            term_query(f.kind, KIND_SECTION),
            term_query(f.section_key, key),
        ]);
        self.docs(&query).into_iter().find_map(|a| self.load(a))
    }

    /// The section with this key, if this snapshot holds it, without its
    /// Markdown (`markdown` is None).
    pub fn section(&self, key: &str) -> Option<SectionRecord> {
        Some(section_record(&self.inner.fields, &self.section_doc(key)?))
    }

    /// The section with this key and its Markdown, a slice of its page's
    /// (`markdown` is None only when the page no longer holds that slice:
    /// a damaged index).
    pub fn section_with_markdown(&self, key: &str) -> Option<SectionRecord> {
        let f = &self.inner.fields;
        let doc = self.section_doc(key)?;
        let mut record = section_record(f, &doc);
        record.markdown = self.inner.section_markdown(&doc);
        Some(record)
    }

    /// The page at a full site path within one edition.
    pub fn page(&self, edition: &str, path: &str) -> Option<PageRecord> {
        let f = &self.inner.fields;
        let doc = self.page_doc(edition, path)?;
        let count = doc.get_first(f.section_count).and_then(|v| v.as_u64()).unwrap_or(0);
        let path = first_str(&doc, f.path).unwrap_or_default();
        Some(PageRecord {
            edition: edition.to_string(),
            title: first_str(&doc, f.page_title).unwrap_or_default(),
            description: first_str(&doc, f.description),
            order: doc.get_first(f.order).and_then(|v| v.as_i64()),
            draft: doc.get_first(f.draft).and_then(|v| v.as_bool()).unwrap_or(false),
            frontmatter: first_str(&doc, f.frontmatter),
            markdown: first_packed(&doc, f.markdown).unwrap_or_default(),
            text: first_packed(&doc, f.page_text).unwrap_or_default(),
            section_keys: (0..count as usize).map(|i| section_key(edition, &path, i)).collect(),
            source_file: first_str(&doc, f.source_file).unwrap_or_default(),
            anchors: doc
                .get_all(f.anchors)
                .filter_map(|v| v.as_str())
                .map(|a| (!a.is_empty()).then(|| a.to_owned()))
                .collect(),
            headings: doc
                .get_all(f.headings)
                .filter_map(|v| v.as_str())
                .filter_map(|h| {
                    let (level, title) = h.split_once('\t')?;
                    Some((level.parse().ok()?, title.to_owned()))
                })
                .collect(),
            path,
        })
    }

    /// Every page of an edition, sorted by path (byte order). Reads fast
    /// fields only, never a stored document.
    pub fn pages(&self, edition: &str) -> Vec<PageMeta> {
        let mut out = Vec::new();
        self.page_rows(edition, &mut |row| {
            out.push(PageMeta {
                path: row.path.to_owned(),
                title: row.title.to_owned(),
                order: row.order,
                draft: row.draft,
            });
        });
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }

    /// Calls `each` for every page of an edition, in document order, from
    /// fast fields only and without an allocation per page (listings of
    /// large sites are built from it).
    pub fn page_rows(&self, edition: &str, each: &mut dyn FnMut(PageRow<'_>)) {
        let query = self.page_query(edition, Vec::new());
        let docs = self.docs(&query);
        let searcher = &self.inner.searcher;
        let mut segment = u32::MAX;
        let mut columns = None;
        let (mut path, mut title) = (String::new(), String::new());
        for address in docs {
            if address.segment_ord != segment {
                segment = address.segment_ord;
                let fast = searcher.segment_reader(segment).fast_fields();
                columns = match (fast.str("path"), fast.str("page_title")) {
                    (Ok(Some(path)), Ok(Some(title))) => {
                        Some((path, title, fast.i64("order").ok(), fast.bool("draft").ok()))
                    }
                    _ => None,
                };
            }
            let Some((paths, titles, orders, drafts)) = &columns else { continue };
            let doc = address.doc_id;
            let read = |column: &tantivy::columnar::StrColumn, into: &mut String| {
                into.clear();
                if let Some(ord) = column.term_ords(doc).next() {
                    let _ = column.ord_to_str(ord, into);
                }
            };
            read(paths, &mut path);
            read(titles, &mut title);
            each(PageRow {
                address,
                path: &path,
                title: &title,
                order: orders.as_ref().and_then(|c| c.first(doc)),
                draft: drafts.as_ref().and_then(|c| c.first(doc)).unwrap_or(false),
            });
        }
    }

    /// A page document's title, from its fast field (no stored document
    /// is read); "" when the address holds none.
    pub fn page_title_at(&self, address: DocAddress) -> String {
        let mut title = String::new();
        let fast = self.inner.searcher.segment_reader(address.segment_ord).fast_fields();
        if let Ok(Some(column)) = fast.str("page_title")
            && let Some(ord) = column.term_ords(address.doc_id).next()
        {
            let _ = column.ord_to_str(ord, &mut title);
        }
        title
    }

    /// A page document's place in the sidebar, from its fast field (no
    /// stored document is read); the default when it has none.
    pub fn page_nav_at(&self, address: DocAddress) -> lectern_corpus::nav::NavPlace {
        let mut json = String::new();
        let fast = self.inner.searcher.segment_reader(address.segment_ord).fast_fields();
        if let Ok(Some(column)) = fast.str("nav")
            && let Some(ord) = column.term_ords(address.doc_id).next()
        {
            let _ = column.ord_to_str(ord, &mut json);
        }
        serde_json::from_str(&json).unwrap_or_default()
    }

    /// The page documents at these addresses (from [`Snapshot::page_rows`]),
    /// in the order given: path, title, description and plain text.
    pub fn page_parts_at(&self, addresses: &[DocAddress]) -> Vec<PageParts> {
        addresses.iter().filter_map(|&a| self.load(a)).map(|doc| self.parts_of(&doc)).collect()
    }

    /// (pages, sections) of an edition.
    pub fn edition_counts(&self, edition: &str) -> (usize, usize) {
        let f = &self.inner.fields;
        let count = |kind: &str| {
            let query =
                BooleanQuery::intersection(vec![term_query(f.kind, kind), term_query(f.edition, edition)]);
            self.inner.searcher.search(&query, &Count).unwrap_or(0)
        };
        (count(KIND_PAGE), count(KIND_SECTION))
    }

    /// Path, title and plain text of the given pages of one edition, in the
    /// order asked (missing paths skipped). Callers ask in blocks of at most 64.
    pub fn page_texts(&self, edition: &str, paths: &[&str]) -> Vec<(String, String, String)> {
        paths
            .iter()
            .filter_map(|path| self.page_doc(edition, path))
            .map(|doc| self.parts_of(&doc))
            .map(|p| (p.path, p.title, p.text))
            .collect()
    }

    fn parts_of(&self, doc: &TantivyDocument) -> PageParts {
        let f = &self.inner.fields;
        PageParts {
            path: first_str(doc, f.path).unwrap_or_default(),
            title: first_str(doc, f.page_title).unwrap_or_default(),
            description: first_str(doc, f.description),
            text: first_packed(doc, f.page_text).unwrap_or_default(),
        }
    }

    /// A page's description alone (a listing shows it), without copying
    /// the page's Markdown and text as [`Snapshot::page`] does.
    pub fn page_description(&self, edition: &str, path: &str) -> Option<String> {
        first_str(&self.page_doc(edition, path)?, self.inner.fields.description)
    }

    /// Paths of the given page documents (fast field), for the prefilter.
    pub(crate) fn paths_of(&self, docs: &[DocAddress]) -> Vec<String> {
        let searcher = &self.inner.searcher;
        let mut out = Vec::with_capacity(docs.len());
        for address in docs {
            let fast = searcher.segment_reader(address.segment_ord).fast_fields();
            if let Ok(Some(column)) = fast.str("path") {
                let mut s = String::new();
                if let Some(ord) = column.term_ords(address.doc_id).next()
                    && column.ord_to_str(ord, &mut s).unwrap_or(false)
                {
                    out.push(s);
                }
            }
        }
        out
    }

    fn asset_record(&self, doc: &TantivyDocument) -> AssetRecord {
        let f = &self.inner.fields;
        AssetRecord {
            edition: first_str(doc, f.edition).unwrap_or_default(),
            path: first_str(doc, f.path).unwrap_or_default(),
            hash: first_str(doc, f.asset_hash).unwrap_or_default(),
            content_type: first_str(doc, f.asset_type).unwrap_or_default(),
            size: doc.get_first(f.asset_size).and_then(|v| v.as_u64()).unwrap_or(0),
        }
    }

    /// The asset at a full site path in one of `editions` (the first that
    /// holds it, in the order given).
    pub fn asset(&self, editions: &[&str], path: &str) -> Option<AssetRecord> {
        let f = &self.inner.fields;
        let query =
            BooleanQuery::intersection(vec![term_query(f.kind, KIND_ASSET), term_query(f.path, path)]);
        let found: Vec<AssetRecord> = self
            .docs(&query)
            .into_iter()
            .filter_map(|a| self.load(a))
            .map(|d| self.asset_record(&d))
            .collect();
        editions.iter().find_map(|e| found.iter().find(|a| a.edition == *e).cloned())
    }

    /// Where a path of an edition that is no page leads: the path (and
    /// fragment) of the page it is another path of, if it is one.
    pub fn moved(&self, edition: &str, path: &str) -> Option<String> {
        let f = &self.inner.fields;
        let query = BooleanQuery::intersection(vec![
            term_query(f.kind, KIND_MOVED),
            term_query(f.edition, edition),
            term_query(f.path, path),
        ]);
        self.docs(&query).into_iter().find_map(|a| first_str(&self.load(a)?, f.source_file))
    }

    /// Every path of an edition that leads to one of its pages (old
    /// addresses, files' other names), sorted.
    pub fn moved_paths(&self, edition: &str) -> Vec<String> {
        let f = &self.inner.fields;
        let query =
            BooleanQuery::intersection(vec![term_query(f.kind, KIND_MOVED), term_query(f.edition, edition)]);
        let mut out: Vec<String> =
            self.docs(&query).into_iter().filter_map(|a| first_str(&self.load(a)?, f.path)).collect();
        out.sort();
        out
    }

    /// Every asset of an edition, sorted by path.
    pub fn assets(&self, edition: &str) -> Vec<AssetRecord> {
        let f = &self.inner.fields;
        let query =
            BooleanQuery::intersection(vec![term_query(f.kind, KIND_ASSET), term_query(f.edition, edition)]);
        let mut out: Vec<AssetRecord> = self
            .docs(&query)
            .into_iter()
            .filter_map(|a| self.load(a))
            .map(|d| self.asset_record(&d))
            .collect();
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }

    /// The content hashes every asset of this snapshot is kept under.
    pub fn asset_hashes(&self) -> HashSet<String> {
        let f = &self.inner.fields;
        let query = term_query(f.kind, KIND_ASSET);
        self.docs(query.as_ref())
            .into_iter()
            .filter_map(|a| self.load(a))
            .map(|d| self.asset_record(&d).hash)
            .collect()
    }

    pub(crate) fn matching_docs(&self, query: &dyn Query) -> Vec<DocAddress> {
        self.docs(query)
    }
}

#[cfg(test)]
mod tests {
    use super::listed_title;

    #[test]
    fn a_list_line_starting_with_a_link_gives_its_text() {
        for (line, title) in [
            ("- [Solvers](/octave/Solvers)", Some("Solvers")),
            ("  - [12.1.1. 什么是文档？](/pg/textsearch-intro#DOC)", Some("12.1.1. 什么是文档？")),
            ("* [ABORT](/pg/sql-abort) — abort the current transaction", Some("ABORT")),
            ("3. [Install](install)", Some("Install")),
            ("- See [Solvers](/octave/Solvers)", None),
            ("[Solvers](/octave/Solvers)", None),
            ("-[Solvers](/octave/Solvers)", None),
            ("- [](/empty)", None),
            ("- [unclosed", None),
            ("2024. [x](y)", Some("x")),
        ] {
            assert_eq!(listed_title(line), title, "{line}");
        }
    }
}
