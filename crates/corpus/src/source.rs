//! `read_source`: detect a source's format (directory or archive; Markdown,
//! HTML manual or Dash docset) and read it into pages, all at once or one
//! at a time ([`Spooled`]).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::archive;
use crate::assets::{self, AssetEntry, AssetSpool, AssetSummary};
use crate::docset;
use crate::html;
use crate::inventory;
use crate::links;
use crate::markdown;
use crate::nav;
use crate::page::{NavPlace, Page, Problem, Symbol};
use crate::paths;
use crate::rowstore::RowStore;
use crate::spool::Spool;
use crate::walk::{self, SourceFile};

pub use crate::docset::DocsetInfo;
pub use crate::limits::{Limits, MAX_ENTRIES, MAX_FILE_BYTES, MAX_TOTAL_BYTES, SourceError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum SourceFormat {
    #[default]
    Auto,
    Markdown,
    Html,
    Docset,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadOptions {
    pub format: SourceFormat,
    /// The edition's URL prefix (`/postgresql`, `/app/v1`, `/en/postgresql/13`);
    /// page paths and rewritten links are built under it. `""` means site root.
    pub prefix: String,
    pub max_file_bytes: u64,
    /// When reading must stop ([`SourceError::Deadline`]); checked between
    /// files. None: no deadline.
    pub deadline: Option<Instant>,
    /// The edition's locale (`zh-Hans`), when known: in a folder naming its
    /// files for several languages (`ch01.en.html`, `ch01.zh-cn.html`) the
    /// files of this one are read, and their translations left out.
    pub locale: Option<String>,
}

/// The result of reading a source: pages sorted by path, skipped files, and a
/// content hash (same source bytes → same hash, so re-adding is a no-op).
#[derive(Debug, Clone)]
pub struct Ingested {
    pub format: SourceFormat,
    pub pages: Vec<Page>,
    pub problems: Vec<Problem>,
    pub docset: Option<DocsetInfo>,
    /// Hex SHA-256 over every accepted file's relative path and bytes, in path
    /// order, plus the prefix.
    pub content_hash: String,
    /// Every file of the source (paths as pages' `source_file` are written),
    /// sorted: what links may point at besides pages.
    pub files: Vec<String>,
    /// As [`Spooled::moved`].
    pub moved: Vec<(String, String)>,
}

impl Ingested {
    /// The link check of these pages against this source.
    pub fn check_links(&self, prefix: &str) -> crate::check::LinkReport {
        self.check_links_with(prefix, None)
    }

    /// [`Ingested::check_links`], with the links leaving the tree that lead
    /// to `others`' pages counted.
    pub fn check_links_with(
        &self,
        prefix: &str,
        others: Option<crate::links::OtherEditions<'_>>,
    ) -> crate::check::LinkReport {
        let mut checker = crate::check::LinkChecker::default();
        checker.moved(&self.moved);
        for page in &self.pages {
            checker.add(page);
        }
        checker.report_with(prefix, &self.files, others)
    }
}

/// A source read page by page: its pages on disk, and in memory only the
/// table cross-page steps need (paths, source files, titles, drafts).
/// [`Spooled::pages`] gives them back one at a time, sorted by path, each
/// path once, titles without the site's name.
pub struct Spooled {
    pub format: SourceFormat,
    pub problems: Vec<Problem>,
    pub docset: Option<DocsetInfo>,
    /// As [`Ingested::content_hash`].
    pub content_hash: String,
    /// The source, for messages.
    source: PathBuf,
    entries: Vec<PageEntry>,
    /// Paths that lead to a page under another path, sorted (see [`Spooled::moved`]).
    moved: Vec<(String, String)>,
    /// The site-name suffixes to strip from titles; None for Markdown, whose
    /// titles are the authors' own.
    suffixes: Option<HashMap<String, usize>>,
    spool: Spool,
    /// As [`Ingested::files`].
    files: Vec<String>,
    /// The assets pages reference that were kept, sorted by path.
    assets: Vec<AssetEntry>,
    /// What became of the referenced assets.
    pub asset_summary: AssetSummary,
    asset_spool: AssetSpool,
}

/// One page in a [`Spooled`] source's table.
#[derive(Debug, Clone)]
pub struct PageEntry {
    pub path: String,
    pub source_file: String,
    pub draft: bool,
    /// The title as converted (before site suffixes are stripped).
    title: String,
    /// Frontmatter order, which a folder takes from its index page.
    order: Option<i64>,
    /// An HTML page's `<title>`, kept to tell apart pages whose headings are the same.
    doc_title: Option<String>,
    /// The title that replaces the converted one (no site suffix to strip):
    /// the `<title>` of a page whose heading another page shares.
    fixed_title: Option<String>,
    /// Fingerprints of the blocks at the edges of an HTML page's content,
    /// until the edition's repeated chrome is found.
    edges: Vec<u64>,
    /// A hash of each section's anchor, title and text, until the pages
    /// that only repeat others' sections are found ([`Reader::mark_copies`]).
    sections: Vec<u64>,
    /// Where the page is in the spool.
    at: u64,
    /// The page's place in the navigation, set once every page is known.
    nav: NavPlace,
    /// Its `<head>` asks search engines not to index it ([`Reader::mark_noindex`]).
    noindex: bool,
}

impl Spooled {
    /// How the pages' titles spell `name` as a word (`PostgreSQL` and
    /// `MkDocs` for `postgresql` and `mkdocs`): the commonest spelling, the
    /// first of equals; None when no title has it.
    pub fn spelling_in_titles(&self, name: &str) -> Option<String> {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for entry in &self.entries {
            let words = entry.title.split(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')));
            for word in words.map(|w| w.trim_matches('.')).filter(|w| w.eq_ignore_ascii_case(name)) {
                match counts.iter_mut().find(|(w, _)| *w == word) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((word, 1)),
                }
            }
        }
        let most = counts.iter().map(|(_, n)| *n).max()?;
        counts.iter().find(|(_, n)| *n == most).map(|(w, _)| (*w).to_owned())
    }

    /// The pages' table, sorted by path.
    pub fn entries(&self) -> &[PageEntry] {
        &self.entries
    }

    /// Paths that lead to a page under another path, sorted: a redirect
    /// page's (`guide/build-cache.html`, which only sends the reader on),
    /// a file's other name (`zcat.1.html`, a link to `gzip.1.html`); each
    /// with the page's path and the fragment it lands on, if any.
    pub fn moved(&self) -> &[(String, String)] {
        &self.moved
    }

    /// Keeps the pages `keep` accepts; returns the others.
    pub fn retain(&mut self, mut keep: impl FnMut(&PageEntry) -> bool) -> Vec<PageEntry> {
        let (kept, dropped) = std::mem::take(&mut self.entries).into_iter().partition(|e| keep(e));
        self.entries = kept;
        dropped
    }

    /// The page of one entry, read back from disk.
    pub fn page(&self, entry: &PageEntry) -> Result<Page, SourceError> {
        let mut page = self.spool.read(entry.at).map_err(|e| SourceError::Unreadable {
            path: self.source.clone(),
            reason: format!("cannot read back a converted page from the temporary folder: {e}"),
        })?;
        if let Some(title) = &entry.fixed_title {
            crate::titles::retitle(&mut page, title.clone());
        } else if let Some(counts) = &self.suffixes {
            crate::titles::strip_site_suffix(&mut page, counts);
        }
        page.nav = entry.nav.clone();
        Ok(page)
    }

    /// The link check of these pages against this source, reading them
    /// back one at a time.
    pub fn check_links(&self, prefix: &str) -> Result<crate::check::LinkReport, SourceError> {
        self.check_links_with(prefix, None)
    }

    /// [`Spooled::check_links`], with the links leaving the tree that lead
    /// to `others`' pages counted.
    pub fn check_links_with(
        &self,
        prefix: &str,
        others: Option<crate::links::OtherEditions<'_>>,
    ) -> Result<crate::check::LinkReport, SourceError> {
        let mut checker = crate::check::LinkChecker::default();
        checker.moved(&self.moved);
        for page in self.pages() {
            checker.add(&page?);
        }
        Ok(checker.report_with(prefix, &self.files, others))
    }

    /// The assets kept, sorted by site path (several paths may share a content).
    pub fn assets(&self) -> &[AssetEntry] {
        &self.assets
    }

    /// The bytes of one asset, read back from disk.
    pub fn asset_bytes(&self, entry: &AssetEntry) -> Result<Vec<u8>, SourceError> {
        self.asset_spool.read(entry).map_err(|e| SourceError::Unreadable {
            path: self.source.clone(),
            reason: format!("cannot read back an asset from the temporary folder: {e}"),
        })
    }

    /// Every page, one at a time, in path order.
    pub fn pages(&self) -> impl Iterator<Item = Result<Page, SourceError>> + '_ {
        self.entries.iter().map(|e| self.page(e))
    }

    /// Every page in memory at once, as [`crate::read_source`] returns them.
    pub fn into_ingested(self) -> Result<Ingested, SourceError> {
        let pages = self.pages().collect::<Result<Vec<_>, _>>()?;
        let Spooled { format, problems, docset, content_hash, files, moved, .. } = self;
        Ok(Ingested { format, pages, problems, docset, content_hash, files, moved })
    }
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: SourceFormat::Auto,
            prefix: String::new(),
            max_file_bytes: MAX_FILE_BYTES,
            deadline: None,
            locale: None,
        }
    }
}

impl ReadOptions {
    /// Auto-detected format, the default file cap, pages under `prefix`.
    pub fn new(prefix: impl Into<String>) -> Self {
        ReadOptions { prefix: prefix.into(), ..ReadOptions::default() }
    }
}

impl std::str::FromStr for SourceFormat {
    type Err = String;

    /// `auto`, `markdown` (`md`), `html` or `docset`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(SourceFormat::Auto),
            "markdown" | "md" => Ok(SourceFormat::Markdown),
            "html" => Ok(SourceFormat::Html),
            "docset" => Ok(SourceFormat::Docset),
            _ => Err(format!("unknown format {s:?}: use markdown, html or docset")),
        }
    }
}

/// Reads a directory or archive, every page in memory. `progress(done,
/// total)` is called as files are read. [`spool_source`] reads one page at a time.
pub fn read_source(
    path: &Path,
    options: &ReadOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Ingested, SourceError> {
    read_source_with_limits(path, options, &Limits::default(), progress)
}

/// [`read_source`] with explicit caps (tests use small ones).
pub fn read_source_with_limits(
    path: &Path,
    options: &ReadOptions,
    limits: &Limits,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Ingested, SourceError> {
    spool_source_with_limits(path, options, limits, progress)?.into_ingested()
}

/// Reads a directory or archive page by page: each page is converted, parked
/// in an unnamed temporary file and dropped, so memory holds one page and
/// the table of all pages, whatever the source's size.
pub fn spool_source(
    path: &Path,
    options: &ReadOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Spooled, SourceError> {
    spool_source_with_limits(path, options, &Limits::default(), progress)
}

/// [`spool_source`] with explicit caps (tests use small ones).
pub fn spool_source_with_limits(
    path: &Path,
    options: &ReadOptions,
    limits: &Limits,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Spooled, SourceError> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => SourceError::NotFound { path: path.to_path_buf() },
        _ => SourceError::Unreadable { path: path.to_path_buf(), reason: e.to_string() },
    })?;
    let mut problems = Vec::new();
    let mut _extracted = None;
    let mut root = if meta.is_dir() {
        path.to_path_buf()
    } else {
        let kind = archive::detect(path)
            .map_err(|e| SourceError::Unreadable { path: path.to_path_buf(), reason: e.to_string() })?
            .ok_or_else(|| SourceError::Unreadable {
                path: path.to_path_buf(),
                reason: "not a folder or a supported archive (.tar, .tar.gz, .tgz, .tar.xz, .zip)".to_owned(),
            })?;
        let extracted = archive::extract(path, kind, options.max_file_bytes, limits)?;
        problems.extend(extracted.problems);
        let dir = extracted.dir.path().to_path_buf();
        _extracted = Some(extracted.dir);
        dir
    };
    if !docset::is_docset(&root)
        && let Some(inner) = walk::single_folder(&root)
    {
        root = inner;
    }
    if !docset::is_docset(&root)
        && let Some(child) = docset::child_docset(&root)
        && matches!(options.format, SourceFormat::Auto | SourceFormat::Docset)
    {
        root = child;
    }
    let format = match options.format {
        SourceFormat::Auto if docset::is_docset(&root) => SourceFormat::Docset,
        SourceFormat::Docset if !root.join(docset::INDEX_PATH).is_file() => {
            return Err(SourceError::UnknownFormat {
                path: path.to_path_buf(),
                reason: format!("no {} found", docset::INDEX_PATH),
            });
        }
        f => f,
    };
    let mut reader = Reader::new(path, options, limits, problems)?;
    reader.root_name = root.file_name().and_then(|n| n.to_str()).map(str::to_owned);
    let mut docset_info = None;
    let mut navigation = Navigation::default();
    let all_files;
    let format = match format {
        SourceFormat::Docset => {
            let (info, files) = reader.docset(&root, limits, progress)?;
            docset_info = Some(info);
            all_files = files;
            SourceFormat::Docset
        }
        f => {
            let files = if root == path {
                walk::list_files(&root, limits, &mut reader.problems)?
            } else {
                walk::list_files_within(&root, limits, &mut reader.problems)?
            };
            all_files = files.iter().map(|f| f.rel.clone()).collect();
            if let Some((count, example)) = roff_pages(&files) {
                return Err(SourceError::RoffManPages { path: path.to_path_buf(), count, example });
            }
            let format = match f {
                SourceFormat::Auto => detect_format(&files)
                    .map_err(|reason| SourceError::UnknownFormat { path: path.to_path_buf(), reason })?,
                f => f,
            };
            navigation = reader.navigation(&files, format);
            if format == SourceFormat::Html {
                reader.inventory_symbols(&files);
            }
            reader.pages_from(&files, format, progress)?;
            reader.assets_from(&files)?;
            format
        }
    };
    reader.finish(format, docset_info, navigation, all_files)
}

/// How many files are manual pages in roff (`ls.1`, `ls.1.gz`,
/// `Tcl.3tcl.gz`: a section number, then at most a few letters, then a
/// compression's suffix) and one of them, when the tree holds such pages
/// and no Markdown or HTML file.
fn roff_pages(files: &[SourceFile]) -> Option<(usize, String)> {
    if files.iter().any(|f| markdown::is_markdown(&f.rel) || html::is_html(&f.rel)) {
        return None;
    }
    let is_roff = |rel: &str| {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let name = [".gz", ".bz2", ".xz", ".zst"].iter().find_map(|z| name.strip_suffix(z)).unwrap_or(name);
        name.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && ext.len() <= 8
                && ext.starts_with(|c: char| matches!(c, '1'..='9'))
                && ext.chars().skip(1).all(|c| c.is_ascii_alphanumeric())
        })
    };
    let mut pages = files.iter().filter(|f| is_roff(&f.rel));
    let example = pages.next()?.rel.clone();
    Some((1 + pages.count(), example))
}

/// Markdown when Markdown files outnumber HTML files, HTML when the reverse.
fn detect_format(files: &[SourceFile]) -> Result<SourceFormat, String> {
    let md = files.iter().filter(|f| markdown::is_markdown(&f.rel)).count();
    let html = files.iter().filter(|f| html::is_html(&f.rel)).count();
    match (md, html) {
        (0, 0) => Err("no Markdown or HTML files".to_owned()),
        (m, h) if m > h => Ok(SourceFormat::Markdown),
        (m, h) if h > m => Ok(SourceFormat::Html),
        (m, h) => Err(format!("as many Markdown files ({m}) as HTML files ({h})")),
    }
}

/// One name for each file reached by several (a link such as asciidoc's
/// `index.html` → `git.html`, or a hard link): one page, not two copies.
/// The name that is not an `index`/`README` is kept, since that is the one
/// the tree's own links use; then the file's own name over a link's; among
/// equals, the first by path. Order is kept.
/// The language part (`.en`) that at least half the files' names (two at
/// least) carry, as content-negotiating web servers name translations.
fn common_language<'a>(files: &[&'a SourceFile]) -> Option<&'a str> {
    language_counts(files)
        .into_iter()
        .filter(|(_, n)| *n >= 2 && n * 2 >= files.len())
        .max_by_key(|(_, n)| *n)
        .map(|(l, _)| l)
}

/// How many files' names carry each language part (`.en`, `.zh-cn`).
fn language_counts<'a>(files: &[&'a SourceFile]) -> HashMap<&'a str, usize> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for f in files {
        if let Some(l) = paths::language_suffix(&f.rel) {
            *counts.entry(l).or_default() += 1;
        }
    }
    counts
}

/// A page repeating at least this many sections of other pages (eight in
/// ten of its own) is a copy of them (see [`Reader::mark_copies`]).
const MIN_COPY_SECTIONS: usize = 20;

/// A hash of each section of `page` that has text besides its title (a
/// chapter's heading over its sections has none): its title and the start
/// of its text, so that a repeat of a section matches it whatever its
/// anchor (mdBook's `print.html` repeats each chapter's top, which has
/// none, under an id of its own) and whatever the generator adds at its
/// end (SQLite's one-page C reference repeats each function's page without
/// its closing "See also" line).
fn section_hashes(page: &Page) -> Vec<u64> {
    use std::hash::{Hash, Hasher};
    page.sections
        .iter()
        .filter(|s| s.text.trim() != s.title.trim())
        .map(|s| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            let start: String = s.text.trim().chars().take(COPY_PREFIX_CHARS).collect();
            (&s.title, &start).hash(&mut h);
            h.finish()
        })
        .collect()
}

/// How much of a section's text (with its title) must repeat for the
/// section to count as a copy: a few sentences, which two sections saying
/// different things never share.
const COPY_PREFIX_CHARS: usize = 160;

/// The language part of file names (`.zh-cn`) that names the files of an
/// edition in `locale` (`zh-Hans`): the best match (see
/// [`paths::language_matches_locale`]), then the most files.
fn language_of_locale<'a>(files: &[&'a SourceFile], locale: &str) -> Option<&'a str> {
    language_counts(files)
        .into_iter()
        .map(|(l, n)| (paths::language_matches_locale(l, locale), n, l))
        .filter(|(score, _, _)| *score > 0)
        .max_by(|a, b| (a.0, a.1, b.2).cmp(&(b.0, b.1, a.2)))
        .map(|(_, _, l)| l)
}

/// The files to read, one name of each file (a link or a hard link is
/// another name), and each other name with the name read in its place.
fn one_name_per_file(files: Vec<&SourceFile>) -> (Vec<&SourceFile>, Vec<(&SourceFile, &SourceFile)>) {
    // Lower is better: (an index page, reached through a link).
    let rank = |f: &SourceFile| {
        let stem = paths::file_stem(&f.rel);
        let index = stem == "index" || stem == "_index" || stem.eq_ignore_ascii_case("readme");
        (index, !f.abs.ends_with(&f.rel))
    };
    let mut chosen: HashMap<walk::FileId, &SourceFile> = HashMap::new();
    for file in &files {
        let Some(id) = file.identity else { continue };
        chosen
            .entry(id)
            .and_modify(|kept| {
                if rank(file) < rank(kept) {
                    *kept = file;
                }
            })
            .or_insert(file);
    }
    let mut others = Vec::new();
    let mut kept = Vec::with_capacity(files.len());
    for f in files {
        match f.identity.and_then(|id| chosen.get(&id)) {
            Some(read) if !std::ptr::eq(*read, f) => others.push((f, *read)),
            _ => kept.push(f),
        }
    }
    (kept, others)
}

/// What a folder source says about its navigation besides the pages:
/// `_category_.json` files by folder, and a root `SUMMARY.md`.
#[derive(Default)]
struct Navigation {
    categories: std::collections::BTreeMap<String, nav::Category>,
    summary: Vec<nav::SummaryEntry>,
    /// The summary's own file (not a page of the book once it places pages).
    summary_file: Option<String>,
}

impl Navigation {
    /// Places every page of the table (by its title without the site's
    /// name, as it will be read back); a `SUMMARY.md` that links pages is
    /// the book's table of contents, not one of its pages.
    fn apply(self, entries: &mut Vec<PageEntry>, suffixes: Option<&HashMap<String, usize>>) {
        if let Some(file) = &self.summary_file {
            entries.retain(|e| &e.source_file != file);
        }
        let title = |e: &'_ PageEntry| match (&e.fixed_title, suffixes) {
            (Some(fixed), _) => fixed.clone(),
            (None, Some(counts)) => crate::titles::stripped_title(&e.title, counts).to_owned(),
            (None, None) => e.title.clone(),
        };
        let titles: Vec<String> = entries.iter().map(title).collect();
        let files: Vec<nav::NavSource<'_>> = entries
            .iter()
            .zip(&titles)
            .map(|(e, t)| nav::NavSource { file: &e.source_file, title: t, order: e.order })
            .collect();
        let (places, _) = nav::places(&files, &self.categories, &self.summary);
        for (entry, place) in entries.iter_mut().zip(places) {
            entry.nav = place;
        }
    }
}

/// Two pages whose headings are the same ("1. Introduction" of two parts)
/// take their `<title>`s (without the site's name) where those differ and
/// say more: pages share a title only where their sources do.
fn tell_shared_titles_apart(entries: &mut [PageEntry], counts: &HashMap<String, usize>) {
    let doc_counts = crate::titles::suffix_counts(entries.iter().filter_map(|e| e.doc_title.as_deref()));
    // A title taken from `<title>` also loses a project name leading most of them.
    let mut prefixes: HashMap<String, usize> = HashMap::new();
    for doc in entries.iter().filter_map(|e| e.doc_title.as_deref()) {
        if let Some((prefix, _)) = crate::titles::split_prefix(doc) {
            *prefixes.entry(prefix.to_owned()).or_default() += 1;
        }
    }
    let total = entries.len();
    for e in entries.iter_mut().filter(|e| e.doc_title.as_deref() == Some(e.title.as_str())) {
        let title = crate::titles::stripped_title(&e.title, counts);
        let kept = crate::titles::without_site_prefix(title, &prefixes, total);
        if kept.len() < title.len() {
            e.fixed_title = Some(kept.to_owned());
        }
    }
    let mut by_title: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        let title =
            e.fixed_title.as_deref().unwrap_or_else(|| crate::titles::stripped_title(&e.title, counts));
        by_title.entry(title.to_owned()).or_default().push(i);
    }
    for (title, group) in by_title {
        if group.len() < 2 {
            continue;
        }
        let docs: Vec<Option<String>> = group
            .iter()
            .map(|&i| {
                let doc = entries[i].doc_title.as_deref()?;
                Some(crate::titles::stripped_title(doc, &doc_counts).to_owned())
            })
            .collect();
        if docs.iter().all(|d| *d == docs[0]) {
            continue;
        }
        for (&i, doc) in group.iter().zip(docs) {
            if let Some(doc) = doc.filter(|d| d.len() > title.len() && *d != title) {
                entries[i].fixed_title = Some(doc);
            }
        }
    }
}

/// A length-prefixed chunk for the content hash, so boundaries are unambiguous.
fn frame(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 8);
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
    out
}

/// Reads an inventory file's bytes into its entries, or says why it cannot.
type InventoryParser = fn(&[u8]) -> Result<Vec<inventory::Entry>, String>;

struct Reader<'a> {
    source: &'a Path,
    options: &'a ReadOptions,
    index_bounds: docset::IndexBounds,
    problems: Vec<Problem>,
    hasher: Sha256,
    spool: Spool,
    entries: Vec<PageEntry>,
    /// Symbols to attach to the page of a file (by its path as given to
    /// [`Reader::page_from`]) as it is converted: a docset's index rows or a
    /// Sphinx inventory's entries, read before the pages.
    extra: HashMap<String, Vec<Symbol>>,
    /// A docset's index rows, parked on disk until their pages are read.
    rows: Option<RowStore>,
    /// Whether an extra symbol is left out when the page already has one of
    /// its name (an inventory), or only when the same row came twice (a docset).
    extra_by_name: bool,
    /// Files inside the source the pages reference that may be assets.
    asset_refs: BTreeSet<String>,
    /// Names that API index pages give the pages they link (target path, symbol).
    index_names: Vec<(String, Symbol)>,
    /// Pages that only send the reader to another page of the tree (page
    /// path → target path and fragment): not pages once that page exists.
    redirects: HashMap<String, String>,
    /// Paths that lead to a page under another path (a redirect's, a
    /// file's other name), with the page's path and fragment.
    moved: Vec<(String, String)>,
    /// The language part the tree's page names drop (`.ru` of
    /// `basic-defs.ru.html`, the page `basic-defs`), and so its links.
    language: Option<String>,
    /// The name of the tree's own folder (`std`), which links that climb
    /// out of the tree and back in name (see [`links::redirect_target`]).
    root_name: Option<String>,
    asset_limits: assets::AssetLimits,
    asset_spool: AssetSpool,
    assets: Vec<AssetEntry>,
    asset_summary: AssetSummary,
}

impl<'a> Reader<'a> {
    fn new(
        source: &'a Path,
        options: &'a ReadOptions,
        limits: &Limits,
        problems: Vec<Problem>,
    ) -> Result<Reader<'a>, SourceError> {
        let spool = Spool::new().map_err(|e| SourceError::Unreadable {
            path: source.to_path_buf(),
            reason: format!("cannot make a temporary file for the converted pages: {e}"),
        })?;
        let asset_spool = AssetSpool::new().map_err(|e| SourceError::Unreadable {
            path: source.to_path_buf(),
            reason: format!("cannot make a temporary file for the assets: {e}"),
        })?;
        let mut hasher = Sha256::new();
        hasher.update(frame(options.prefix.as_bytes()));
        Ok(Reader {
            source,
            options,
            index_bounds: limits.index,
            problems,
            hasher,
            spool,
            entries: Vec::new(),
            extra: HashMap::new(),
            rows: None,
            extra_by_name: false,
            asset_refs: BTreeSet::new(),
            index_names: Vec::new(),
            redirects: HashMap::new(),
            moved: Vec::new(),
            language: None,
            root_name: None,
            asset_limits: limits.assets,
            asset_spool,
            assets: Vec::new(),
            asset_summary: AssetSummary::default(),
        })
    }

    /// The table sorted by path, each path once (a later file of the same
    /// path is reported), the site's name found among titles, the spool
    /// made readable.
    fn finish(
        self,
        format: SourceFormat,
        docset: Option<DocsetInfo>,
        navigation: Navigation,
        files: Vec<String>,
    ) -> Result<Spooled, SourceError> {
        let Reader {
            source,
            mut problems,
            hasher,
            mut spool,
            mut entries,
            mut moved,
            asset_spool,
            assets,
            asset_summary,
            ..
        } = self;
        entries.sort_by(|a, b| a.path.cmp(&b.path).then_with(|| a.source_file.cmp(&b.source_file)));
        let mut kept: Vec<PageEntry> = Vec::with_capacity(entries.len());
        for entry in entries {
            if let Some(prev) = kept.last()
                && prev.path == entry.path
            {
                problems.push(Problem {
                    path: entry.source_file.clone(),
                    reason: format!("same page path {} as {}; skipped", entry.path, prev.source_file),
                });
                continue;
            }
            kept.push(entry);
        }
        // HTML titles often come from `<title>`, which carries the site's name.
        // A `<title>` the page's heading stood in for counts too: it carries the site's name.
        let suffixes = (format != SourceFormat::Markdown).then(|| {
            crate::titles::suffix_counts(kept.iter().map(|e| match &e.doc_title {
                Some(doc) if crate::titles::split_suffix(doc).is_some() => doc.as_str(),
                _ => e.title.as_str(),
            }))
        });
        if let Some(counts) = &suffixes {
            tell_shared_titles_apart(&mut kept, counts);
        }
        navigation.apply(&mut kept, suffixes.as_ref());
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        // A Markdown site's pages are also at their paths without the
        // numbers that order them (Docusaurus publishes them there).
        if format == SourceFormat::Markdown {
            moved.extend(kept.iter().filter_map(|e| Some((paths::unnumbered(&e.path)?, e.path.clone()))));
        }
        // Other paths of pages that are read, each once, none a page's own.
        let is_page = |p: &str| kept.binary_search_by(|e| e.path.as_str().cmp(p)).is_ok();
        moved.retain(|(from, to)| !is_page(from) && is_page(to.split('#').next().unwrap_or_default()));
        moved.sort();
        moved.dedup_by(|a, b| a.0 == b.0);
        if kept.is_empty() {
            return Err(SourceError::Empty { path: source.to_path_buf(), problems, drafts: 0 });
        }
        spool.flush().map_err(|e| SourceError::Unreadable {
            path: source.to_path_buf(),
            reason: format!("cannot write the converted pages to the temporary folder: {e}"),
        })?;
        Ok(Spooled {
            format,
            problems,
            docset,
            content_hash: hex::encode(hasher.finalize()),
            source: source.to_path_buf(),
            entries: kept,
            moved,
            suffixes,
            spool,
            files,
            assets,
            asset_summary,
            asset_spool,
        })
    }

    /// The error for a temporary file that cannot be written or read back.
    fn unwritable(&self, reason: String) -> SourceError {
        SourceError::Unreadable { path: self.source.to_path_buf(), reason }
    }

    /// Parks a converted page in the spool; its offset.
    fn write_spooled(&mut self, page: &Page) -> Result<u64, SourceError> {
        self.spool.write(page).map_err(|e| {
            self.unwritable(format!("cannot write the converted pages to the temporary folder: {e}"))
        })
    }

    /// Makes every spooled page readable.
    fn flush_spool(&mut self) -> Result<(), SourceError> {
        self.spool.flush().map_err(|e| self.unwritable(format!("cannot write the converted pages: {e}")))
    }

    /// The page spooled at `at` (after [`Reader::flush_spool`]).
    fn read_spooled(&self, at: u64) -> Result<Page, SourceError> {
        self.spool.read(at).map_err(|e| {
            self.unwritable(format!("cannot read back a converted page from the temporary folder: {e}"))
        })
    }

    /// Stops the read once the caller's deadline has passed.
    fn check_deadline(&self, done: usize, total: usize) -> Result<(), SourceError> {
        match self.options.deadline {
            Some(deadline) if Instant::now() >= deadline => {
                Err(SourceError::Deadline { path: self.source.to_path_buf(), done, total })
            }
            _ => Ok(()),
        }
    }

    fn accept(&mut self, rel: &str, bytes: &[u8]) {
        self.hasher.update(frame(rel.as_bytes()));
        self.hasher.update((bytes.len() as u64).to_le_bytes());
        self.hasher.update(bytes);
    }

    /// [`Reader::accept`] for a file hashed as it streams (a docset index can
    /// be large); skipped when it cannot be opened as a regular file.
    fn accept_file(&mut self, rel: &str, path: &Path) {
        let Ok(mut file) = walk::open_regular(path, u64::MAX, None) else { return };
        let Ok(len) = file.metadata().map(|m| m.len()) else { return };
        self.hasher.update(frame(rel.as_bytes()));
        self.hasher.update(len.to_le_bytes());
        let mut buf = vec![0u8; 64 * 1024];
        let mut left = len;
        while left > 0 {
            let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            match file.read(&mut buf[..want]) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    self.hasher.update(&buf[..n]);
                    left -= n as u64;
                }
            }
        }
    }

    /// Reads the folder's `_category_.json` files and a root `SUMMARY.md`,
    /// else an MkDocs `nav:` (hashed with the pages: changing one changes
    /// the edition); a bad one is reported and skipped.
    fn navigation(&mut self, files: &[SourceFile], format: SourceFormat) -> Navigation {
        let mut navigation = Navigation::default();
        for file in files {
            let name = file.rel.rsplit('/').next().unwrap_or(&file.rel);
            let is_summary = file.rel == nav::SUMMARY_FILE && format == SourceFormat::Markdown;
            if name != nav::CATEGORY_FILE && !is_summary {
                continue;
            }
            let read = walk::read_source_file(file, self.options.max_file_bytes);
            let parsed = read.and_then(|bytes| {
                self.accept(&file.rel, &bytes);
                if is_summary {
                    let text = String::from_utf8(bytes).map_err(|_| "not valid UTF-8; skipped".to_owned())?;
                    navigation.summary = nav::parse_summary(&text);
                    Ok(())
                } else {
                    let dir = file.rel.rsplit_once('/').map_or("", |(d, _)| d).to_owned();
                    navigation.categories.insert(dir, nav::parse_category(&bytes)?);
                    Ok(())
                }
            });
            if let Err(reason) = parsed {
                self.problems.push(Problem { path: file.rel.clone(), reason });
            }
        }
        let listed = |target: &str| files.iter().any(|f| f.rel == target && markdown::is_markdown(&f.rel));
        if navigation.summary.iter().any(|e| e.target.as_deref().is_some_and(listed)) {
            navigation.summary_file = Some(nav::SUMMARY_FILE.to_owned());
        } else {
            navigation.summary.clear();
        }
        if navigation.summary.is_empty() && format == SourceFormat::Markdown {
            let mut nav = self.mkdocs_nav(files);
            if nav.iter().any(|e| e.target.as_deref().is_some_and(listed)) {
                navigation.summary = std::mem::take(&mut nav);
            }
        }
        navigation
    }

    /// The `nav:` of an MkDocs site, its targets as files of the source:
    /// from an `mkdocs.yml` at the source's root (pages under its
    /// `docs_dir`), else beside the source folder when that is its
    /// `docs_dir` (the docs folder of a repository was added). Empty when
    /// there is none; a bad one is reported.
    fn mkdocs_nav(&mut self, files: &[SourceFile]) -> Vec<nav::SummaryEntry> {
        let inside = files.iter().find(|f| nav::MKDOCS_FILES.contains(&f.rel.as_str()));
        let (rel, bytes, under) = if let Some(file) = inside {
            let bytes = walk::read_source_file(file, self.options.max_file_bytes);
            (file.rel.clone(), bytes, true)
        } else {
            let parent = self.source.parent().filter(|p| !p.as_os_str().is_empty());
            let Some((path, name)) = parent.and_then(|p| {
                nav::MKDOCS_FILES.iter().map(|n| (p.join(n), *n)).find(|(path, _)| path.is_file())
            }) else {
                return Vec::new();
            };
            let bytes = walk::read_checked(&path, self.options.max_file_bytes, None);
            (format!("../{name}"), bytes, false)
        };
        let parsed = bytes.and_then(|bytes| {
            self.accept(&rel, &bytes);
            let text = String::from_utf8(bytes).map_err(|_| "not valid UTF-8; skipped".to_owned())?;
            nav::parse_mkdocs(&text)
        });
        let mkdocs = match parsed {
            Ok(mkdocs) => mkdocs,
            Err(reason) => {
                self.problems.push(Problem { path: rel, reason });
                return Vec::new();
            }
        };
        let folder = self.source.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if !under && mkdocs.docs_dir != folder {
            return Vec::new();
        }
        let mut entries = mkdocs.nav;
        for entry in &mut entries {
            if let Some(target) = entry.target.as_mut().filter(|_| under) {
                *target = format!("{}/{target}", mkdocs.docs_dir);
            }
        }
        entries
    }

    /// Converts every file of `format`; other files are skipped silently.
    fn pages_from(
        &mut self,
        files: &[SourceFile],
        format: SourceFormat,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<(), SourceError> {
        let (mut wanted, other_names) = one_name_per_file(
            files
                .iter()
                .filter(|f| match format {
                    SourceFormat::Markdown => markdown::is_markdown(&f.rel),
                    // (An HTML file among a Sphinx site's static files is a
                    // theme's template, `_static/macros.html`: no page.)
                    _ => html::is_html(&f.rel) && !f.rel.split('/').any(|part| part == "_static"),
                })
                .collect(),
        );
        // `ch02.en.html` is the page `ch02` where most files name one language
        // so, or where the edition's locale names its files so among others'.
        let mut language = None;
        if format != SourceFormat::Markdown {
            let own = self.options.locale.as_deref().and_then(|l| language_of_locale(&wanted, l));
            if let (Some(suffix), Some(locale)) = (own, self.options.locale.as_deref()) {
                wanted = self.leave_out_translations(wanted, suffix, locale);
            }
            language = own.or_else(|| common_language(&wanted));
        }
        self.language = language.map(str::to_owned);
        let total = wanted.len();
        let first = self.entries.len();
        let rel_of = |f: &SourceFile| match language {
            Some(l) => paths::without_language(&f.rel, l),
            None => f.rel.clone(),
        };
        // A page's other name (`zcat.1.html`, a link to `gzip.1.html`) is
        // where the page also is.
        let page_of = |f: &SourceFile| paths::page_path(&self.options.prefix, &rel_of(f));
        let also: Vec<(String, String)> =
            other_names.iter().map(|(o, read)| (page_of(o), page_of(read))).collect();
        // (A name added or removed changes what the edition serves: its hash.)
        for (from, to) in &also {
            self.hasher.update(frame(from.as_bytes()));
            self.hasher.update(frame(to.as_bytes()));
        }
        self.moved.extend(also);
        for (i, file) in wanted.iter().enumerate() {
            self.check_deadline(i, total)?;
            self.page_from(file, &rel_of(file), format)?;
            progress(i + 1, total);
        }
        if format != SourceFormat::Markdown {
            let by_rel: HashMap<&str, &SourceFile> = wanted.iter().map(|f| (f.rel.as_str(), *f)).collect();
            self.drop_repeated_chrome(first, &|source_file| {
                by_rel.get(source_file).map(|f| ((*f).clone(), rel_of(f)))
            })?;
            self.follow_redirects()?;
            self.attach_index_names(first)?;
            self.mark_noindex(first)?;
        }
        self.mark_copies(first)?;
        Ok(())
    }

    /// Pages (from entry `first` on) whose `<head>` asks search engines not
    /// to index them (mdBook's `print.html`, the whole book again, and its
    /// `toc.html`) rank as listings: readable, after the pages of content.
    /// Where most pages ask it (a site keeping an old version out of web
    /// search), it says nothing about one page, and none is marked.
    fn mark_noindex(&mut self, first: usize) -> Result<(), SourceError> {
        let marked: Vec<usize> = (first..self.entries.len()).filter(|&i| self.entries[i].noindex).collect();
        if marked.len() * 2 >= self.entries.len() - first {
            return Ok(());
        }
        self.mark_listings(marked)
    }

    /// Makes the pages of these entries listings (ranked after the pages of
    /// content).
    fn mark_listings(&mut self, entries: Vec<usize>) -> Result<(), SourceError> {
        if entries.is_empty() {
            return Ok(());
        }
        self.flush_spool()?;
        for i in entries {
            let mut page = self.read_spooled(self.entries[i].at)?;
            page.listing = true;
            self.entries[i].at = self.write_spooled(&page)?;
        }
        Ok(())
    }

    /// Pages (from entry `first` on) that only repeat other pages' sections,
    /// as a manual's single-page edition beside its chapters does (Sphinx's
    /// `singlehtml`, Debian's `developers-reference.html`, markdownlint's
    /// `Rules.md` beside a page per rule), and the second
    /// of two pages that are one page under two names, become listings:
    /// readable, but ranked after the sections they repeat rather than
    /// beside each of them.
    fn mark_copies(&mut self, first: usize) -> Result<(), SourceError> {
        let mut holders: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, entry) in self.entries.iter().enumerate().skip(first) {
            for h in entry.sections.iter().collect::<HashSet<_>>() {
                holders.entry(*h).or_default().push(i);
            }
        }
        // A copy repeats eight in ten of its sections, from several pages
        // it holds most of (half their sections or more: a chapter, a
        // rule's page), and no one page holds six in ten of them (the
        // chapter a copy repeats whole is no copy of it). rustdoc's `str`
        // repeats many pages' sections (its methods on `String`, its trait
        // methods on each implementor's page), but holds none of those
        // pages whole: no copy. A page is also a copy of an earlier one of
        // about its size that holds nine in ten of its sections (rustdoc's
        // `HashMap` under two names, each with a title of its own).
        let entries = &self.entries;
        let is_copy = |i: usize, sections: &[u64]| {
            let mut by_page: HashMap<usize, usize> = HashMap::new();
            for h in sections {
                for &p in holders.get(h).map_or(&[][..], Vec::as_slice).iter().filter(|&&p| p != i) {
                    *by_page.entry(p).or_default() += 1;
                }
            }
            let held_whole = |p: &usize| by_page.get(p).is_some_and(|n| n * 2 >= entries[*p].sections.len());
            let repeated = sections
                .iter()
                .filter(|h| holders.get(*h).is_some_and(|ps| ps.iter().any(|p| *p != i && held_whole(p))))
                .count();
            let (holder, most) = by_page
                .iter()
                .max_by_key(|(p, n)| (**n, std::cmp::Reverse(**p)))
                .map_or((i, 0), |(p, n)| (*p, *n));
            let twin = holder < i
                && most * 10 >= sections.len() * 9
                && entries[holder].sections.len() * 10 <= sections.len() * 11;
            sections.len() >= MIN_COPY_SECTIONS
                && repeated * 10 >= sections.len() * 8
                && (most * 10 < sections.len() * 6 || twin)
        };
        let mut copies: Vec<usize> =
            (first..self.entries.len()).filter(|&i| is_copy(i, &self.entries[i].sections)).collect();
        // A page repeated whole under another name (SQLite's `fileformat`
        // and `fileformat2`): the first in the tree's order stays.
        let mut seen: HashSet<&[u64]> = HashSet::new();
        for (i, entry) in self.entries.iter().enumerate().skip(first) {
            if !entry.sections.is_empty() && !seen.insert(&entry.sections[..]) && !copies.contains(&i) {
                copies.push(i);
            }
        }
        for entry in &mut self.entries[first..] {
            entry.sections = Vec::new();
        }
        self.mark_listings(copies)
    }

    /// `files` without the translations of the files named for `suffix`
    /// (`ch01.en.html` beside `ch01.zh-cn.html`), each reported as skipped.
    /// A file named for another language with no such twin stays: its
    /// name's part may be no language at all (`parser.ts.html`).
    fn leave_out_translations<'f>(
        &mut self,
        files: Vec<&'f SourceFile>,
        suffix: &str,
        locale: &str,
    ) -> Vec<&'f SourceFile> {
        let own: HashSet<String> = files
            .iter()
            .filter(|f| paths::language_suffix(&f.rel) == Some(suffix))
            .map(|f| paths::without_language(&f.rel, suffix))
            .collect();
        let (kept, other): (Vec<&SourceFile>, Vec<&SourceFile>) =
            files.into_iter().partition(|f| match paths::language_suffix(&f.rel) {
                Some(s) if s != suffix => !own.contains(&paths::without_language(&f.rel, s)),
                _ => true,
            });
        for f in other {
            let theirs = paths::language_suffix(&f.rel).unwrap_or_default().trim_start_matches('.');
            self.problems.push(Problem {
                path: f.rel.clone(),
                reason: format!(
                    "a translation ({theirs}): this edition is {locale} and reads the files named *{suffix}.html"
                ),
            });
        }
        kept
    }

    /// Redirect pages whose target page exists are no pages: they go, and
    /// every link to one (and every name an API index gives it) leads to its
    /// target instead, as the reader's browser would have gone on (chains
    /// followed a few hops). A redirect to a missing page stays a page.
    fn follow_redirects(&mut self) -> Result<(), SourceError> {
        if self.redirects.is_empty() {
            return Ok(());
        }
        let redirects = std::mem::take(&mut self.redirects);
        // Every page as converted, the redirects among them: links as written resolve against these.
        let paths: HashSet<String> = self.entries.iter().map(|e| e.path.clone()).collect();
        let map = links::final_targets(&redirects, &|path| paths.contains(path));
        if map.is_empty() {
            return Ok(());
        }
        self.moved.extend(map.iter().map(|(from, to)| (from.clone(), to.clone())));
        self.flush_spool()?;
        self.entries.retain(|e| !map.contains_key(&e.path));
        let prefix = self.options.prefix.clone();
        for i in 0..self.entries.len() {
            let mut page = self.read_spooled(self.entries[i].at)?;
            if links::retarget_page(&mut page, &map, &prefix, &|p| paths.contains(p)) {
                self.entries[i].at = self.write_spooled(&page)?;
            }
        }
        for (path, symbol) in &mut self.index_names {
            if let Some(target) = map.get(path.as_str()) {
                let (to, fragment) =
                    target.split_once('#').map_or((target.as_str(), None), |(p, f)| (p, Some(f)));
                *path = to.to_owned();
                if symbol.anchor.is_none() {
                    symbol.anchor = fragment.map(str::to_owned);
                }
            }
        }
        Ok(())
    }

    /// Gives the pages (from entry `first` on) the names API index pages
    /// link them by, as symbols (a name the page has already is not added).
    fn attach_index_names(&mut self, first: usize) -> Result<(), SourceError> {
        let mut by_path: HashMap<String, Vec<Symbol>> = HashMap::new();
        for (path, symbol) in std::mem::take(&mut self.index_names) {
            by_path.entry(path).or_default().push(symbol);
        }
        if by_path.is_empty() {
            return Ok(());
        }
        self.flush_spool()?;
        for i in first..self.entries.len() {
            let Some(names) = by_path.remove(&self.entries[i].path) else { continue };
            let mut page = self.read_spooled(self.entries[i].at)?;
            let mut have: HashSet<String> = page.symbols.iter().map(|s| s.name.clone()).collect();
            page.symbols.extend(names.into_iter().filter(|s| have.insert(s.name.clone())));
            self.entries[i].at = self.write_spooled(&page)?;
        }
        Ok(())
    }

    /// Converts again the pages (from entry `first` on) that hold blocks
    /// repeated at the edges of most pages of the edition, without them;
    /// `file_of` gives a page's file (and its path for the page path) from
    /// its `source_file`. Only those pages pay for a second conversion.
    fn drop_repeated_chrome(
        &mut self,
        first: usize,
        file_of: &dyn Fn(&str) -> Option<(SourceFile, String)>,
    ) -> Result<(), SourceError> {
        let mut counts: HashMap<u64, usize> = HashMap::new();
        for entry in &self.entries[first..] {
            for h in &entry.edges {
                *counts.entry(*h).or_default() += 1;
            }
        }
        let repeated = crate::chrome::repeated(&counts, self.entries.len() - first);
        drop(counts);
        if repeated.is_empty() {
            for entry in &mut self.entries[first..] {
                entry.edges = Vec::new();
            }
            return Ok(());
        }
        self.flush_spool()?;
        for i in first..self.entries.len() {
            let edges = std::mem::take(&mut self.entries[i].edges);
            if !edges.iter().any(|h| repeated.contains(h)) {
                continue;
            }
            let Some((file, rel)) = file_of(&self.entries[i].source_file) else { continue };
            // The file was read once already; one that changed meanwhile keeps its first page.
            let Ok(bytes) = walk::read_source_file(&file, self.options.max_file_bytes) else { continue };
            let Ok(converted) =
                html::convert(&bytes, &rel, (&self.options.prefix, self.language.as_deref()), &repeated)
            else {
                continue;
            };
            let old = self.read_spooled(self.entries[i].at)?;
            let mut page = converted.page;
            // Symbols from the docset index or the inventory came with the first conversion.
            page.source_file = old.source_file;
            page.symbols = old.symbols;
            let at = self.write_spooled(&page)?;
            let entry = &mut self.entries[i];
            entry.at = at;
            // Hashed again without the chrome, which the copy of a section
            // on another page may not have.
            entry.sections = section_hashes(&page);
            entry.title = page.title;
            entry.doc_title = converted.doc_title;
        }
        Ok(())
    }

    /// Reads the assets the pages referenced from `files` (the walk's, so
    /// nothing outside the tree or behind a link) into the asset spool;
    /// one that cannot be kept is reported.
    fn assets_from(&mut self, files: &[SourceFile]) -> Result<(), SourceError> {
        let wanted = std::mem::take(&mut self.asset_refs);
        let by_rel: HashMap<&str, &SourceFile> = files.iter().map(|f| (f.rel.as_str(), f)).collect();
        let mut accepted: Vec<(String, Vec<u8>)> = Vec::new();
        let mut accept = |rel: &str, bytes: &[u8]| {
            accepted.push((rel.to_owned(), Sha256::digest(bytes).to_vec()));
        };
        let collected = assets::collect(
            &wanted,
            &self.options.prefix,
            self.asset_limits,
            &mut self.asset_spool,
            &mut |rel, max| by_rel.get(rel).map(|f| walk::read_source_file(f, max)),
            &mut accept,
        );
        let (entries, problems, summary) = collected.map_err(|e| SourceError::Unreadable {
            path: self.source.to_path_buf(),
            reason: format!("cannot write an asset to the temporary folder: {e}"),
        })?;
        for (rel, digest) in accepted {
            self.accept(&rel, &digest);
        }
        self.assets.extend(entries);
        self.assets.sort_by(|a, b| a.path.cmp(&b.path));
        self.problems.extend(problems);
        let s = &mut self.asset_summary;
        s.kept += summary.kept;
        s.contents += summary.contents;
        s.bytes += summary.bytes;
        s.missing += summary.missing;
        s.skipped += summary.skipped;
        Ok(())
    }

    /// Reads a Sphinx tree's `objects.inv` (or a Javadoc tree's
    /// `member-search-index.js`) before its pages, so that its symbols join
    /// the pages it points at as they are converted; an unreadable
    /// inventory is reported, the pages stay.
    fn inventory_symbols(&mut self, files: &[SourceFile]) {
        // Each inventory, and whether a name stands once per anchor (a Java
        // method's overloads) rather than once per page.
        let parsers: [(&str, InventoryParser, bool); 2] = [
            (inventory::FILE_NAME, inventory::parse, false),
            (crate::javadoc::FILE_NAME, crate::javadoc::parse, true),
        ];
        let Some((file, parse, overloads)) = parsers.iter().find_map(|(name, parse, overloads)| {
            Some((files.iter().find(|f| f.rel == *name)?, parse, *overloads))
        }) else {
            return;
        };
        let entries =
            walk::read_source_file(file, self.options.max_file_bytes).and_then(|bytes| parse(&bytes));
        let entries = match entries {
            Ok(e) => e,
            Err(reason) => {
                self.problems.push(Problem { path: file.rel.clone(), reason });
                return;
            }
        };
        let mut seen: HashSet<(String, String, Option<String>)> = HashSet::new();
        for entry in entries {
            let anchor = entry.symbol.anchor.clone().filter(|_| overloads);
            if seen.insert((entry.file.clone(), entry.symbol.name.clone(), anchor)) {
                self.extra.entry(entry.file).or_default().push(entry.symbol);
            }
        }
        self.extra_by_name = true;
    }

    /// Reads and converts one file and parks its page in the spool; `rel`
    /// is its path for the page path. A file that cannot become a page is
    /// reported; only a spool that cannot be written stops the read.
    fn page_from(&mut self, file: &SourceFile, rel: &str, format: SourceFormat) -> Result<bool, SourceError> {
        let bytes = match walk::read_source_file(file, self.options.max_file_bytes) {
            Ok(b) => b,
            Err(reason) => {
                self.problems.push(Problem { path: file.rel.clone(), reason });
                return Ok(false);
            }
        };
        let converted = match format {
            SourceFormat::Markdown => {
                markdown::markdown_to_page(&bytes, rel, &self.options.prefix).map(|page| html::Converted {
                    page,
                    edges: Vec::new(),
                    doc_title: None,
                    redirect: None,
                    noindex: false,
                })
            }
            _ => {
                html::convert(&bytes, rel, (&self.options.prefix, self.language.as_deref()), &HashSet::new())
            }
        };
        let html::Converted { mut page, edges, doc_title, redirect, noindex } = match converted {
            Ok(converted) => converted,
            Err(e) => {
                let mut problem = e.to_problem();
                problem.path.clone_from(&file.rel);
                self.problems.push(problem);
                return Ok(false);
            }
        };
        self.accept(&file.rel, &bytes);
        drop(bytes);
        if let Some(target) = redirect.and_then(|url| {
            links::redirect_target(&url, rel, &self.options.prefix, self.root_name.as_deref())
        }) {
            self.redirects.insert(page.path.clone(), target);
        }
        let rewritten = format != SourceFormat::Markdown;
        if rewritten
            && self.index_names.len() < crate::api_index::MAX_ENTRIES
            && let Some(names) =
                crate::api_index::entries(&page.markdown, paths::normalize_prefix(&self.options.prefix))
        {
            let room = crate::api_index::MAX_ENTRIES - self.index_names.len();
            self.index_names.extend(names.into_iter().filter(|(path, _)| *path != page.path).take(room));
        }
        for url in assets::references(&page.markdown) {
            if let Some(asset) = assets::local_file(&url, rel, &self.options.prefix, rewritten) {
                self.asset_refs.insert(asset);
            }
        }
        page.source_file.clone_from(&file.rel);
        if let Some(extra) = self.extra.remove(rel) {
            if self.extra_by_name {
                let have: HashSet<String> = page.symbols.iter().map(|s| s.name.clone()).collect();
                page.symbols.extend(extra.into_iter().filter(|s| !have.contains(&s.name)));
            } else {
                page.symbols.extend(extra);
            }
        }
        if let Some(rows) = &mut self.rows {
            let symbols = rows.take(rel).map_err(|reason| self.unwritable(reason))?;
            page.symbols.extend(symbols);
        }
        let at = self.write_spooled(&page)?;
        let sections = section_hashes(&page);
        let Page { path, source_file, title, draft, order, .. } = page;
        self.entries.push(PageEntry {
            path,
            source_file,
            draft,
            title,
            order,
            doc_title,
            fixed_title: None,
            edges,
            sections,
            at,
            nav: NavPlace::default(),
            noindex,
        });
        Ok(true)
    }

    /// Reads a docset: its info, its index and its HTML pages, index rows
    /// attached as symbols to the pages they point at; with the names of the
    /// files under its `Documents`.
    fn docset(
        &mut self,
        root: &Path,
        limits: &Limits,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<(DocsetInfo, Vec<String>), SourceError> {
        let plist = walk::read_capped(&root.join(docset::INFO_PATH), self.options.max_file_bytes).ok();
        let (info, plist_problem) = docset::read_info(root, plist.as_deref());
        if let Some(bytes) = &plist {
            self.accept(docset::INFO_PATH, bytes);
        }
        if let Some(reason) = plist_problem {
            self.problems.push(Problem { path: docset::INFO_PATH.to_owned(), reason });
        }
        // Rows are parked on disk and join their pages as those are converted.
        let mut store = RowStore::new().map_err(|reason| self.unwritable(reason))?;
        let mut spill_failed = None;
        let index_path = root.join(docset::INDEX_PATH);
        let read = docset::read_index_each(&index_path, &self.index_bounds, &mut |row| {
            store.add(row).map_err(|reason| {
                spill_failed = Some(reason);
                docset::IndexError::Unreadable(String::new())
            })
        });
        if let Some(reason) = spill_failed {
            return Err(self.unwritable(reason));
        }
        match read {
            Ok(()) => self.accept_file(docset::INDEX_PATH, &index_path),
            Err(docset::IndexError::OverBound(reason)) => {
                return Err(SourceError::DocsetRefused { path: root.to_path_buf(), reason });
            }
            Err(docset::IndexError::Unreadable(reason)) => {
                self.problems.push(Problem { path: docset::INDEX_PATH.to_owned(), reason });
                // Rows read before the index broke are dropped with it.
                store = RowStore::new().map_err(|reason| self.unwritable(reason))?;
            }
        }
        self.rows = Some(store);
        let docs = root.join(docset::DOCUMENTS_PATH);
        let files = if docs.is_dir() {
            walk::list_files_within(&docs, limits, &mut self.problems)?
        } else {
            Vec::new()
        };
        // The Sphinx inventory a docset made from Sphinx's output keeps
        // names its index leaves out (pytest's fixtures and hooks).
        self.inventory_symbols(&files);
        let wanted: Vec<&SourceFile> = files.iter().filter(|f| html::is_html(&f.rel)).collect();
        let total = wanted.len();
        let first = self.entries.len();
        for (i, file) in wanted.iter().enumerate() {
            self.check_deadline(i, total)?;
            let full =
                SourceFile { rel: format!("{}/{}", docset::DOCUMENTS_PATH, file.rel), ..(*file).clone() };
            self.page_from(&full, &file.rel, SourceFormat::Html)?;
            progress(i + 1, total);
        }
        let by_rel: HashMap<&str, &SourceFile> = wanted.iter().map(|f| (f.rel.as_str(), *f)).collect();
        self.drop_repeated_chrome(first, &|source_file| {
            let rel = source_file.strip_prefix(docset::DOCUMENTS_PATH)?.strip_prefix('/')?;
            let file = by_rel.get(rel)?;
            Some((SourceFile { rel: source_file.to_owned(), ..(*file).clone() }, rel.to_owned()))
        })?;
        self.assets_from(&files)?;
        let names = files.iter().map(|f| format!("{}/{}", docset::DOCUMENTS_PATH, f.rel)).collect();
        Ok((info, names))
    }
}
