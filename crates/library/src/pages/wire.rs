//! The page API's request and response types, shared by every face that
//! lists, searches or serves pages (serde + JSON Schema: the site's `/mcp`
//! tools take and return exactly these).

use serde::{Deserialize, Serialize};

use crate::edition::Status;

/// One edition as `list_versions` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct VersionEntry {
    /// The URL prefix the edition is served under; pass it as `prefix` to
    /// `list_pages` and `search_docs` to scope them to this edition.
    pub prefix: String,
    /// Human label of the version ("App 2").
    pub label: String,
    /// Git ref or release tag of the content, if known.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// Lifecycle: current, supported, deprecated, eol or preview.
    pub status: Status,
    /// Locale of this edition (BCP 47).
    pub locale: String,
    /// Every locale this version (same project, version, domain, collection) is published in.
    pub locales: Vec<String>,
    /// True for the site's default edition.
    pub default: bool,
    pub project: String,
    pub version: String,
    /// `manual` or `wiki`.
    pub domain: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collection: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct VersionsResponse {
    /// The library generation these answers come from.
    pub generation: String,
    /// Enabled editions, sorted by prefix.
    pub versions: Vec<VersionEntry>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListPagesRequest {
    /// An edition prefix from `list_versions` (e.g. `/app`, `/app/v1`, `/zh-Hans/app`).
    /// Omitted: every version in the site's default locale.
    pub prefix: Option<String>,
    /// How many pages to return: 1 to 100, default 20.
    #[schemars(range(min = 1, max = 100), transform = crate::error::plain_number)]
    pub limit: Option<i64>,
    /// Continue after this path: the `nextCursor` of the previous call.
    pub cursor: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchPagesRequest {
    /// Text to find: a page matches when the term (NFC, case-folded) is a
    /// substring of its folded title or body. 1 to 256 characters.
    pub term: String,
    /// An edition prefix from `list_versions`. Omitted: every version in the
    /// site's default locale.
    pub prefix: Option<String>,
    /// How many pages to return: 1 to 100, default 20.
    #[schemars(range(min = 1, max = 100), transform = crate::error::plain_number)]
    pub limit: Option<i64>,
    /// Continue after this path: the `nextCursor` of the previous call.
    pub cursor: Option<String>,
}

/// A page in a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PageEntry {
    /// Full site path; pass it to `read_page`.
    pub path: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Locale of the content (the default locale's for a fallback).
    pub locale: String,
    /// True when the translation is missing and the default-locale page stands in.
    pub fallback: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ListPagesResponse {
    pub generation: String,
    /// Pages sorted by path (byte order).
    pub pages: Vec<PageEntry>,
    /// Present only when more pages remain: pass it as `cursor` to continue.
    #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// A page that contains the term.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PageMatch {
    /// Full site path; pass it to `read_page`.
    pub path: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub locale: String,
    pub fallback: bool,
    /// About 160 characters of the body around the first match (`…` where cut).
    pub excerpt: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchPagesResponse {
    pub generation: String,
    /// Matching pages sorted by path (byte order).
    pub pages: Vec<PageMatch>,
    /// Present only when more matches may remain: pass it as `cursor` to continue.
    #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// With no match here (first page): the other versions that have some, by prefix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elsewhere: Vec<PagesElsewhere>,
    /// With `elsewhere`: the sentence to read, e.g. `0 in /app; 3 in /zh-Hans/app: search with prefix /zh-Hans/app`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// Matches of a search in another version than the one searched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PagesElsewhere {
    /// The version's prefix: pass it as `prefix` to search there.
    pub prefix: String,
    /// Matches there, counted up to 100.
    pub total: usize,
    /// More than `total` matches there.
    pub more: bool,
}

/// A page as the site serves it (`read_page`, `{path}.md`, the HTML page).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SitePage {
    pub generation: String,
    /// Full site path in its scope.
    pub path: String,
    /// Prefix of the scope (edition) the path belongs to.
    pub prefix: String,
    /// Version label of the scope's edition.
    pub label: String,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// Locale of the content.
    pub locale: String,
    pub status: Status,
    /// True when a default-locale page stands in for a missing translation.
    pub fallback: bool,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Our YAML frontmatter over the page's Markdown as written (original
    /// frontmatter removed). Never HTML.
    pub markdown: String,
    /// The Markdown body alone, as written.
    #[serde(skip)]
    pub body: String,
    /// Id of the scope's edition.
    #[serde(skip)]
    pub edition: String,
    /// The file inside its source the content came from (to resolve its
    /// relative links within the scope).
    #[serde(skip)]
    pub source_file: String,
    /// The folder the content's edition was installed from: links leaving
    /// its tree are read against it.
    #[serde(skip)]
    pub source_folder: String,
    /// Each section's anchor in document order (None for the lead), so the
    /// rendered headings carry the ids search results link to.
    #[serde(skip)]
    pub anchors: Vec<Option<String>>,
    /// Each section's heading level and title, beside `anchors`.
    #[serde(skip)]
    pub headings: Vec<(u8, String)>,
}
