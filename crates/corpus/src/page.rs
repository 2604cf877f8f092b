//! The page model every source produces: pages, their sections and symbols.

use serde::{Deserialize, Serialize};

/// One document of an edition, as read from its source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page {
    /// Full site path: the edition prefix joined with the page's path inside the
    /// source, without extension, no trailing slash (`/postgresql/sql-createindex`,
    /// `/app/guide/install`; an `index.md` is its folder: `/app/guide`; the
    /// source root's index is the prefix itself: `/app`).
    pub path: String,
    /// The file inside the source it came from (`ref/sql-createindex.html`), for messages.
    pub source_file: String,
    pub title: String,
    pub description: Option<String>,
    /// Sidebar order from frontmatter (`order`, `sidebar_position`, `nav_order`, `weight`).
    pub order: Option<i64>,
    pub draft: bool,
    /// The original YAML frontmatter, verbatim, without its `---` fences
    /// (None when the file had none). Kept apart from `markdown`.
    pub frontmatter: Option<String>,
    /// The page's Markdown: exactly as written for Markdown sources (frontmatter
    /// removed), converted for HTML sources.
    pub markdown: String,
    /// Plain text of the whole page (no markup), NFC.
    pub text: String,
    /// Heading-delimited parts of the page, in document order. Never empty:
    /// a page without headings has one section holding all of it.
    pub sections: Vec<Section>,
    /// Names this page defines (Dash index rows; SQL command titles), for exact-match search.
    pub symbols: Vec<Symbol>,
    /// A generated listing (a manual's alphabetical index): readable, but it
    /// holds every term, so ranked search puts it last among equals.
    #[serde(default)]
    pub listing: bool,
    /// Where the sidebar shows it: groups, position, label.
    #[serde(default)]
    pub nav: NavPlace,
}

/// A heading-delimited part of a page; the unit ranked search returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Section {
    /// Anchor of the heading (element id for HTML, slug for Markdown); None for
    /// the lead section before the first sub-heading.
    pub anchor: Option<String>,
    /// Heading text (the page title for the lead section).
    pub title: String,
    /// Heading level, 1 for the lead/page-level section.
    pub level: u8,
    /// Titles from the page title down to this section's parent heading.
    pub breadcrumb: Vec<String>,
    /// This section's Markdown (heading line included).
    pub markdown: String,
    /// This section's plain text, NFC.
    pub text: String,
}

/// The kind of a term the text marks where it defines it (DocBook's
/// `firstterm`, HTML's `<dfn>`): it favours its section less than a name
/// the page declares.
pub const DEFINED_TERM: &str = "Defined term";

/// A name a page defines, e.g. a Dash `searchIndex` row or `CREATE INDEX`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Symbol {
    pub name: String,
    /// Dash entry type (`Function`, `Class`, `Command`, ...).
    pub kind: String,
    /// Anchor inside the page, when the row pointed at one.
    pub anchor: Option<String>,
    /// The id of the element inside the section (of `anchor`) that
    /// defines the name, when it has one of its own (a `<dt id>` of an
    /// options list): a hit for the name links to it.
    #[serde(default)]
    pub entry: Option<String>,
}

/// A file that was reported and skipped (unreadable, not UTF-8, too large,
/// malformed, escaping the source folder...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The file, relative to the source (or the archive entry name).
    pub path: String,
    pub reason: String,
}

/// Why one file could not become a page. Carries the file's path; becomes a
/// [`Problem`] and the file is skipped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PageError {
    #[error("{path}: not valid UTF-8 (first bad byte at offset {offset})")]
    NotUtf8 { path: String, offset: usize },
    #[error(
        "{path}: declares charset {charset}, which Lectern does not read (it reads UTF-8 and Latin-1): convert it to UTF-8, e.g. `iconv -f {charset} -t UTF-8`"
    )]
    Charset { path: String, charset: String },
    #[error("{path}: bad frontmatter: {reason}")]
    Frontmatter { path: String, reason: String },
    #[error("{path}: {reason}")]
    Malformed { path: String, reason: String },
}

impl PageError {
    /// The file the error is about.
    pub fn path(&self) -> &str {
        match self {
            PageError::NotUtf8 { path, .. }
            | PageError::Charset { path, .. }
            | PageError::Frontmatter { path, .. }
            | PageError::Malformed { path, .. } => path,
        }
    }

    /// The reason, without the path.
    pub fn reason(&self) -> String {
        match self {
            PageError::NotUtf8 { offset, .. } => {
                format!("not valid UTF-8 (first bad byte at offset {offset})")
            }
            PageError::Charset { charset, .. } => format!(
                "declares charset {charset}, which Lectern does not read (it reads UTF-8 and Latin-1): convert it to UTF-8, e.g. `iconv -f {charset} -t UTF-8`"
            ),
            PageError::Frontmatter { reason, .. } => format!("bad frontmatter: {reason}"),
            PageError::Malformed { reason, .. } => reason.clone(),
        }
    }

    /// The problem report for this error.
    pub fn to_problem(&self) -> Problem {
        Problem { path: self.path().to_owned(), reason: self.reason() }
    }
}

/// Decodes a file as UTF-8 (a leading byte-order mark is dropped).
pub fn utf8<'a>(bytes: &'a [u8], path: &str) -> Result<&'a str, PageError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes)
        .map_err(|e| PageError::NotUtf8 { path: path.to_owned(), offset: e.valid_up_to() })
}

/// An HTML file's text: UTF-8 (a leading byte-order mark dropped), or,
/// when it is not and its `<meta>` declares Latin-1 (`iso-8859-1`,
/// `windows-1252`, `us-ascii`: all read as windows-1252, as browsers do),
/// decoded from that. Another declared charset is an error naming it.
pub fn html_text<'a>(bytes: &'a [u8], path: &str) -> Result<std::borrow::Cow<'a, str>, PageError> {
    let err = match utf8(bytes, path) {
        Ok(text) => return Ok(std::borrow::Cow::Borrowed(text)),
        Err(e) => e,
    };
    match declared_charset(bytes) {
        Some(c) if LATIN1_LABELS.contains(&c.as_str()) => Ok(std::borrow::Cow::Owned(windows_1252(bytes))),
        Some(charset) => Err(PageError::Charset { path: path.to_owned(), charset }),
        None => Err(err),
    }
}

/// The charset labels read as windows-1252 (the WHATWG encoding standard's).
const LATIN1_LABELS: &[&str] = &[
    "iso-8859-1",
    "iso8859-1",
    "iso_8859-1",
    "latin1",
    "l1",
    "windows-1252",
    "cp1252",
    "us-ascii",
    "ascii",
    "ansi_x3.4-1968",
    "cp819",
    "ibm819",
    "iso-ir-100",
    "x-cp1252",
];

/// Bytes of a file read for its `<meta charset>`, at most (browsers read 1024).
const CHARSET_SNIFF_BYTES: usize = 1024;

/// The charset an HTML file's start declares (`<meta charset="…">`,
/// `content="text/html; charset=…"`, or XHTML's `<?xml … encoding="…"?>`),
/// lowercased.
fn declared_charset(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(CHARSET_SNIFF_BYTES)];
    let head: String = head.iter().map(|&b| (b as char).to_ascii_lowercase()).collect();
    let xml = || {
        let start = head.find("<?xml")?;
        let end = start + head[start..].find("?>")?;
        Some(start + head[start..end].find("encoding=")? + "encoding=".len())
    };
    let at = head.find("charset=").map(|i| i + "charset=".len()).or_else(xml)?;
    let value: String = head[at..]
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
        .collect();
    (!value.is_empty()).then_some(value)
}

/// Bytes decoded as windows-1252: 0x80–0x9F its punctuation (`€`, `’`,
/// `—`…), every other byte the code point of its value.
fn windows_1252(bytes: &[u8]) -> String {
    const HIGH: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
        '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}', '\u{8F}', '\u{90}',
        '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}', '\u{2DC}',
        '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}', '\u{178}',
    ];
    bytes
        .iter()
        .map(|&b| if (0x80..0xA0).contains(&b) { HIGH[usize::from(b - 0x80)] } else { char::from(b) })
        .collect()
}

/// A page's place in the navigation. The default (no groups, no position)
/// is a page at the top level, placed by its frontmatter `order` and title.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavPlace {
    /// The groups the page is in, outermost first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<NavGroup>,
    /// Its place among its siblings when the source orders them
    /// (`SUMMARY.md`); None: its frontmatter `order`, then its label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    /// Its label when the source gives one apart from the title (the link
    /// text of a `SUMMARY.md` entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The page introduces its innermost group (a folder's index page, a
    /// `SUMMARY.md` entry with children): it comes first in it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lead: bool,
}

/// A group of the navigation: a folder, a `SUMMARY.md` part or chapter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavGroup {
    /// Names the group within its edition (a folder path, `summary:3`).
    pub key: String,
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    /// Shown closed unless the current page is in it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub collapsed: bool,
}
