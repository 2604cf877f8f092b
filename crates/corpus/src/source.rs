//! `read_source`: detect a source's format (directory or archive; Markdown,
//! HTML manual or Dash docset) and read it into pages.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::archive;
use crate::docset;
use crate::html;
use crate::inventory;
use crate::markdown;
use crate::page::{Page, Problem, Symbol};
use crate::paths;
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
}

impl Ingested {
    /// The link check of these pages against this source.
    pub fn check_links(&self, prefix: &str) -> crate::check::LinkReport {
        crate::check::check_pages(&self.pages, prefix, &self.files)
    }
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions { format: SourceFormat::Auto, prefix: String::new(), max_file_bytes: MAX_FILE_BYTES }
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

/// Reads a directory or archive. `progress(done, total)` is called as files are read.
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
    let mut reader =
        Reader { options, index_bounds: limits.index, problems, hasher: Sha256::new(), pages: Vec::new() };
    reader.hasher.update(frame(options.prefix.as_bytes()));
    let mut docset_info = None;
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
            let format = match f {
                SourceFormat::Auto => detect_format(&files)
                    .map_err(|reason| SourceError::UnknownFormat { path: path.to_path_buf(), reason })?,
                f => f,
            };
            reader.pages_from(&files, format, progress);
            if format == SourceFormat::Html {
                reader.inventory_symbols(&files);
            }
            format
        }
    };
    let Reader { mut problems, hasher, mut pages, .. } = reader;
    pages.sort_by(|a, b| a.path.cmp(&b.path).then_with(|| a.source_file.cmp(&b.source_file)));
    let mut kept: Vec<Page> = Vec::with_capacity(pages.len());
    for page in pages {
        if let Some(prev) = kept.last()
            && prev.path == page.path
        {
            problems.push(Problem {
                path: page.source_file.clone(),
                reason: format!("same page path {} as {}; skipped", page.path, prev.source_file),
            });
            continue;
        }
        kept.push(page);
    }
    if format != SourceFormat::Markdown {
        // HTML titles often come from `<title>`, which carries the site's name.
        crate::titles::strip_site_suffixes(&mut kept);
    }
    problems.sort_by(|a, b| a.path.cmp(&b.path));
    if kept.is_empty() {
        return Err(SourceError::Empty { path: path.to_path_buf(), problems, drafts: 0 });
    }
    Ok(Ingested {
        format,
        pages: kept,
        problems,
        docset: docset_info,
        content_hash: hex::encode(hasher.finalize()),
        files: all_files,
    })
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
fn one_name_per_file(files: Vec<&SourceFile>) -> Vec<&SourceFile> {
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
    files
        .into_iter()
        .filter(|f| f.identity.is_none_or(|id| chosen.get(&id).is_some_and(|kept| std::ptr::eq(*kept, *f))))
        .collect()
}

/// A length-prefixed chunk for the content hash, so boundaries are unambiguous.
fn frame(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 8);
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
    out
}

struct Reader<'a> {
    options: &'a ReadOptions,
    index_bounds: docset::IndexBounds,
    problems: Vec<Problem>,
    hasher: Sha256,
    pages: Vec<Page>,
}

impl Reader<'_> {
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

    /// Converts every file of `format`; other files are skipped silently.
    fn pages_from(
        &mut self,
        files: &[SourceFile],
        format: SourceFormat,
        progress: &mut dyn FnMut(usize, usize),
    ) {
        let wanted: Vec<&SourceFile> = one_name_per_file(
            files
                .iter()
                .filter(|f| match format {
                    SourceFormat::Markdown => markdown::is_markdown(&f.rel),
                    _ => html::is_html(&f.rel),
                })
                .collect(),
        );
        let total = wanted.len();
        for (i, file) in wanted.into_iter().enumerate() {
            self.page_from(file, &file.rel, format);
            progress(i + 1, total);
        }
    }

    /// Attaches the symbols of a Sphinx tree's `objects.inv` to the pages it
    /// points at; an unreadable inventory is reported, the pages stay.
    fn inventory_symbols(&mut self, files: &[SourceFile]) {
        let Some(file) = files.iter().find(|f| f.rel == inventory::FILE_NAME) else { return };
        let entries = walk::read_source_file(file, self.options.max_file_bytes)
            .and_then(|bytes| inventory::parse(&bytes));
        let entries = match entries {
            Ok(e) => e,
            Err(reason) => {
                self.problems.push(Problem { path: file.rel.clone(), reason });
                return;
            }
        };
        let by_file: HashMap<String, usize> =
            self.pages.iter().enumerate().map(|(i, p)| (p.source_file.clone(), i)).collect();
        let mut seen: HashSet<(usize, String)> = self
            .pages
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.symbols.iter().map(move |s| (i, s.name.clone())))
            .collect();
        for entry in entries {
            let Some(&i) = by_file.get(&entry.file) else { continue };
            if seen.insert((i, entry.symbol.name.clone())) {
                self.pages[i].symbols.push(entry.symbol);
            }
        }
    }

    /// Reads and converts one file; `rel` is its path for the page path.
    fn page_from(&mut self, file: &SourceFile, rel: &str, format: SourceFormat) -> Option<usize> {
        let bytes = match walk::read_source_file(file, self.options.max_file_bytes) {
            Ok(b) => b,
            Err(reason) => {
                self.problems.push(Problem { path: file.rel.clone(), reason });
                return None;
            }
        };
        let converted = match format {
            SourceFormat::Markdown => markdown::markdown_to_page(&bytes, rel, &self.options.prefix),
            _ => html::html_to_page(&bytes, rel, &self.options.prefix),
        };
        match converted {
            Ok(mut page) => {
                self.accept(&file.rel, &bytes);
                page.source_file.clone_from(&file.rel);
                self.pages.push(page);
                Some(self.pages.len() - 1)
            }
            Err(e) => {
                let mut problem = e.to_problem();
                problem.path.clone_from(&file.rel);
                self.problems.push(problem);
                None
            }
        }
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
        let index_path = root.join(docset::INDEX_PATH);
        let rows = match docset::read_index_bounded(&index_path, &self.index_bounds) {
            Ok(rows) => {
                self.accept_file(docset::INDEX_PATH, &index_path);
                rows
            }
            Err(docset::IndexError::OverBound(reason)) => {
                return Err(SourceError::DocsetRefused { path: root.to_path_buf(), reason });
            }
            Err(docset::IndexError::Unreadable(reason)) => {
                self.problems.push(Problem { path: docset::INDEX_PATH.to_owned(), reason });
                Vec::new()
            }
        };
        let docs = root.join(docset::DOCUMENTS_PATH);
        let files = if docs.is_dir() {
            walk::list_files_within(&docs, limits, &mut self.problems)?
        } else {
            Vec::new()
        };
        let wanted: Vec<&SourceFile> = files.iter().filter(|f| html::is_html(&f.rel)).collect();
        let total = wanted.len();
        let mut by_file: HashMap<String, usize> = HashMap::new();
        for (i, file) in wanted.into_iter().enumerate() {
            let full = SourceFile { rel: format!("{}/{}", docset::DOCUMENTS_PATH, file.rel), ..file.clone() };
            if let Some(idx) = self.page_from(&full, &file.rel, SourceFormat::Html) {
                by_file.insert(file.rel.clone(), idx);
            }
            progress(i + 1, total);
        }
        let mut seen: HashSet<(usize, Symbol)> = HashSet::new();
        for row in rows {
            let Some(&idx) = by_file.get(&row.file) else { continue };
            let symbol = Symbol { name: row.name, kind: row.kind, anchor: row.anchor };
            if seen.insert((idx, symbol.clone())) {
                self.pages[idx].symbols.push(symbol);
            }
        }
        let names = files.iter().map(|f| format!("{}/{}", docset::DOCUMENTS_PATH, f.rel)).collect();
        Ok((info, names))
    }
}
