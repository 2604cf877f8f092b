//! The index on disk: open (format check), write editions, commit a generation
//! atomically with the library's payload, and hand out consistent snapshots.
//!
//! A generation is one tantivy commit whose payload is the library's
//! manifest. A [`Snapshot`] pairs a searcher with the payload of the very
//! commit it reads (checked segment by segment), so readers never see one
//! commit's documents with another's manifest.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use lectern_corpus::Page;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tantivy::schema::TantivyDocument;
use tantivy::store::StoreReader;
use tantivy::{IndexReader, ReloadPolicy, Searcher, Term};

/// Uncompressed size of a document-store block, at least: a block closes
/// after the document that fills it. 1 KiB: a search hit decompresses its
/// own section and rarely a neighbour (the PostgreSQL library grew 2%, a
/// miss of the API benchmark cost about 5% less than with 4 KiB).
const STORE_BLOCK_BYTES: usize = 1024;
/// Decompressed store blocks cached per segment (tantivy's default: 100).
const STORE_CACHE_BLOCKS: usize = 8;

use crate::schema::{FORMAT_FILE, FORMAT_VERSION, Fields, KIND_PAGE, KIND_SECTION};
use crate::text::fold;
use crate::tokenizer::{GRAMS, GramTokenizer, LECTERN, LecternTokenizer};

/// Writer memory budget, shared by its threads: small enough that an ingest
/// of two manuals peaks well under 300 MiB.
const WRITER_MEMORY_BYTES: usize = 96_000_000;
/// Indexing threads: the machines we target have two cores.
const WRITER_THREADS: usize = 2;

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("index at {path}: {message}")]
    Open { path: String, message: String },
    #[error(
        "index format {found} at {path}; this lectern reads format {expected}: run `lectern repair` to rebuild it"
    )]
    Format { path: String, found: u32, expected: u32 },
    #[error("index: {0}")]
    Tantivy(String),
}

/// Cancellation flag shared with the caller (a face sets it when its client goes away).
pub type Cancel = Arc<AtomicBool>;

/// The index of one library.
pub struct Index {
    shared: Arc<Shared>,
}

/// A writer holding tantivy's writer lock; dropped without `commit` = nothing changes.
pub struct Writer {
    shared: Arc<Shared>,
    writer: tantivy::IndexWriter,
}

/// One consistent view: a searcher and the payload committed with it.
#[derive(Clone)]
pub struct Snapshot {
    pub(crate) inner: Arc<SnapshotInner>,
}

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
}

/// A page's listing entry (no bodies).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageMeta {
    pub path: String,
    pub title: String,
    pub order: Option<i64>,
    pub draft: bool,
}

pub struct SearchRequest<'a> {
    pub query: &'a crate::ParsedQuery,
    /// Edition keys to search (already resolved from scope + enabled).
    pub editions: &'a [String],
    /// Treat the last plain word as a prefix (search as you type).
    pub last_word_prefix: bool,
    pub limit: usize,
    pub offset: usize,
    pub deadline: Instant,
    pub cancel: Option<Cancel>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    pub section_key: String,
    pub edition: String,
    pub path: String,
    pub anchor: Option<String>,
    pub title: String,
    pub breadcrumb: Vec<String>,
    pub snippet: String,
    /// `[start, end)` ranges in Unicode scalar offsets of `snippet`.
    pub highlights: Vec<[usize; 2]>,
    pub score: f32,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchOutcome {
    pub total: usize,
    pub hits: Vec<Hit>,
    pub timed_out: bool,
    pub cancelled: bool,
    pub candidate_truncated: bool,
}

impl From<tantivy::TantivyError> for IndexError {
    fn from(e: tantivy::TantivyError) -> Self {
        IndexError::Tantivy(e.to_string())
    }
}

/// State shared by an [`Index`], its writers and nothing else.
struct Shared {
    dir: PathBuf,
    index: tantivy::Index,
    reader: IndexReader,
    fields: Arc<Fields>,
    read_only: bool,
    current: RwLock<Snapshot>,
    /// (inode, mtime ns, len) of `meta.json` when `current` was loaded.
    stamp: Mutex<Option<(u64, i128, u64)>>,
    /// Serialises reloads of the one reader.
    reload: Mutex<()>,
}

pub(crate) struct SnapshotInner {
    pub(crate) searcher: Searcher,
    /// Each segment's document store, for reading hits as bytes (the
    /// searcher's own stores only hand out deserialized documents).
    pub(crate) stores: Vec<StoreReader>,
    pub(crate) payload: String,
    pub(crate) opstamp: u64,
    pub(crate) fields: Arc<Fields>,
    pub(crate) results: crate::cache::ResultCache,
}

impl SnapshotInner {
    fn new(searcher: Searcher, payload: String, opstamp: u64, fields: Arc<Fields>) -> std::io::Result<Self> {
        let stores = searcher
            .segment_readers()
            .iter()
            .map(|s| s.get_store_reader(STORE_CACHE_BLOCKS))
            .collect::<std::io::Result<_>>()?;
        Ok(SnapshotInner { searcher, stores, payload, opstamp, fields, results: Default::default() })
    }
}

#[derive(Serialize, Deserialize)]
struct FormatFile {
    format: u32,
}

fn open_err(dir: &Path, message: impl std::fmt::Display) -> IndexError {
    IndexError::Open { path: dir.display().to_string(), message: message.to_string() }
}

fn check_format(dir: &Path) -> Result<(), IndexError> {
    let file = dir.join(FORMAT_FILE);
    let found = match std::fs::read(&file) {
        Ok(bytes) => serde_json::from_slice::<FormatFile>(&bytes).map(|f| f.format).unwrap_or(0),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(open_err(&file, e)),
    };
    if found != FORMAT_VERSION {
        return Err(IndexError::Format { path: dir.display().to_string(), found, expected: FORMAT_VERSION });
    }
    Ok(())
}

fn write_format(dir: &Path) -> Result<(), IndexError> {
    let tmp = dir.join(format!("{FORMAT_FILE}.tmp"));
    let body = serde_json::to_vec(&FormatFile { format: FORMAT_VERSION }).map_err(|e| open_err(dir, e))?;
    std::fs::write(&tmp, body).map_err(|e| open_err(&tmp, e))?;
    std::fs::rename(&tmp, dir.join(FORMAT_FILE)).map_err(|e| open_err(dir, e))
}

fn meta_stamp(dir: &Path) -> Option<(u64, i128, u64)> {
    let m = std::fs::metadata(dir.join("meta.json")).ok()?;
    Some((m.ino(), i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()), m.len()))
}

fn register_tokenizers(index: &tantivy::Index) {
    index.tokenizers().register(LECTERN, LecternTokenizer::default());
    index.tokenizers().register(GRAMS, GramTokenizer::default());
}

/// The 16-hex-char key of a section: stable for (edition, page path, ordinal).
pub fn section_key(edition: &str, path: &str, ordinal: usize) -> String {
    format!("{:016x}", section_key_num(edition, path, ordinal))
}

pub(crate) fn section_key_num(edition: &str, path: &str, ordinal: usize) -> u64 {
    let mut h = Sha256::new();
    h.update(edition.as_bytes());
    h.update([0]);
    h.update(path.as_bytes());
    h.update([0]);
    h.update(ordinal.to_string().as_bytes());
    let digest = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// Rank weight (percent) of a generated listing's sections: they contain
/// every term, so they would otherwise crowd the top of many searches.
pub(crate) const LISTING_WEIGHT: u64 = 5;

/// A symbol as matched: folded, whitespace collapsed to single spaces.
pub(crate) fn symbol_key(name: &str) -> String {
    fold(name).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reference pages are titled by the command they define (`CREATE INDEX`).
fn title_is_symbol(title: &str) -> bool {
    let words = title.split_whitespace().count();
    (1..=5).contains(&words)
        && title.chars().any(|c| c.is_ascii_uppercase())
        && title.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == ' ' || c == '_')
}

impl Shared {
    /// Loads the last commit as a snapshot whose searcher and payload are
    /// guaranteed to come from the same commit: read `meta.json`, reload the
    /// reader, and accept only when the searcher's segments (ids and delete
    /// opstamps) are exactly the ones that `meta.json` lists.
    fn load_consistent(&self) -> Result<Snapshot, IndexError> {
        let _guard = self.reload.lock().unwrap_or_else(|e| e.into_inner());
        let mut last_error = None;
        for _ in 0..50 {
            // Another process may commit (and garbage-collect files) between
            // the two reads: any failure or mismatch means "try again".
            let metas = match self.index.load_metas() {
                Ok(metas) => metas,
                Err(e) => {
                    last_error = Some(e);
                    std::thread::sleep(std::time::Duration::from_millis(2));
                    continue;
                }
            };
            if let Err(e) = self.reader.reload() {
                last_error = Some(e);
                std::thread::sleep(std::time::Duration::from_millis(2));
                continue;
            }
            let searcher = self.reader.searcher();
            let want: BTreeMap<_, _> = metas.segments.iter().map(|m| (m.id(), m.delete_opstamp())).collect();
            if searcher.generation().segments() == &want {
                let inner = SnapshotInner::new(
                    searcher,
                    metas.payload.unwrap_or_default(),
                    metas.opstamp,
                    self.fields.clone(),
                )
                .map_err(|e| open_err(&self.dir, e))?;
                return Ok(Snapshot { inner: Arc::new(inner) });
            }
            std::thread::yield_now();
        }
        if let Some(e) = last_error {
            return Err(e.into());
        }
        Err(IndexError::Tantivy("the index kept changing while it was being read".into()))
    }

    fn refresh(&self, force: bool) -> Result<bool, IndexError> {
        let stamp = meta_stamp(&self.dir);
        if !force && stamp.is_some() && *self.stamp.lock().unwrap_or_else(|e| e.into_inner()) == stamp {
            return Ok(false);
        }
        let fresh = self.load_consistent()?;
        let mut current = self.current.write().unwrap_or_else(|e| e.into_inner());
        let changed = {
            let (a, b) = (&current.inner, &fresh.inner);
            a.opstamp != b.opstamp
                || a.payload != b.payload
                || a.searcher.generation().segments() != b.searcher.generation().segments()
        };
        if changed {
            *current = fresh;
        }
        *self.stamp.lock().unwrap_or_else(|e| e.into_inner()) = stamp;
        Ok(changed)
    }
}

impl Index {
    /// Opens the index in `dir`, creating an empty one if absent.
    pub fn open(dir: &Path) -> Result<Index, IndexError> {
        Index::open_with(dir, false)
    }

    fn open_with(dir: &Path, read_only: bool) -> Result<Index, IndexError> {
        let fields = Arc::new(Fields::build());
        if !read_only {
            std::fs::create_dir_all(dir).map_err(|e| open_err(dir, e))?;
        }
        let exists = dir.join("meta.json").exists();
        let index = if exists {
            check_format(dir)?;
            let folder = crate::folder::IndexFolder::open(dir).map_err(|e| open_err(dir, e))?;
            let index = tantivy::Index::open(folder).map_err(|e| open_err(dir, e))?;
            if index.schema() != fields.schema {
                return Err(open_err(
                    dir,
                    "the index schema differs from this lectern's; run `lectern repair` to rebuild it",
                ));
            }
            index
        } else if read_only {
            return Err(open_err(dir, "no index here"));
        } else {
            // The format file first: an index without one is refused as format 0.
            write_format(dir)?;
            let folder = crate::folder::IndexFolder::open(dir).map_err(|e| open_err(dir, e))?;
            // Small store blocks: a hit decompresses its own section, not
            // its neighbours' (search reads 20 sections per page).
            let settings =
                tantivy::IndexSettings { docstore_blocksize: STORE_BLOCK_BYTES, ..Default::default() };
            tantivy::Index::create(folder, fields.schema.clone(), settings).map_err(|e| open_err(dir, e))?
        };
        register_tokenizers(&index);
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            // Each segment keeps this many decompressed store blocks; reads
            // are scattered (hits, pages by address), so a few suffice, and
            // memory no longer grows with the number of segments.
            .doc_store_cache_num_blocks(STORE_CACHE_BLOCKS)
            .try_into()
            .map_err(|e: tantivy::TantivyError| open_err(dir, e))?;
        let placeholder = Snapshot {
            inner: Arc::new(
                SnapshotInner::new(IndexReader::searcher(&reader), String::new(), u64::MAX, fields.clone())
                    .map_err(|e| open_err(dir, e))?,
            ),
        };
        let shared = Shared {
            dir: dir.to_path_buf(),
            index,
            reader,
            fields,
            read_only,
            current: RwLock::new(placeholder),
            stamp: Mutex::new(None),
            reload: Mutex::new(()),
        };
        shared.refresh(true)?;
        Ok(Index { shared: Arc::new(shared) })
    }

    /// Opens an existing index read-only (never writes, never creates).
    pub fn open_read_only(dir: &Path) -> Result<Index, IndexError> {
        Index::open_with(dir, true)
    }

    /// The directory the index lives in.
    pub fn dir(&self) -> &Path {
        &self.shared.dir
    }

    /// The current snapshot (cheap: an `Arc` clone).
    pub fn snapshot(&self) -> Snapshot {
        self.shared.current.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Re-reads the last commit if it changed (another process may have
    /// committed). Returns true when the snapshot changed. The swap is atomic:
    /// a snapshot's searcher and payload always belong to the same commit.
    /// Cheap when nothing changed: one `stat` of `meta.json`.
    pub fn refresh(&self) -> Result<bool, IndexError> {
        self.shared.refresh(false)
    }

    /// Takes the writer (tantivy's lock). Callers serialise writers with the
    /// library lock first, so this does not wait.
    pub fn writer(&self) -> Result<Writer, IndexError> {
        if self.shared.read_only {
            return Err(open_err(&self.shared.dir, "opened read-only"));
        }
        let writer = self.shared.index.writer_with_num_threads(WRITER_THREADS, WRITER_MEMORY_BYTES)?;
        // Files of an ingest that died (a crash, a full disk) are not in the
        // last commit: drop them first, or a full disk stays full.
        if let Err(e) = writer.garbage_collect_files().wait() {
            tracing::warn!("could not remove files left by an interrupted write: {e}");
        }
        Ok(Writer { shared: self.shared.clone(), writer })
    }

    /// Checks every index file's checksum; Err names the damaged file.
    pub fn verify(&self) -> Result<(), IndexError> {
        let damaged = self.shared.index.validate_checksum()?;
        let mut damaged: Vec<_> = damaged.into_iter().collect();
        damaged.sort();
        match damaged.first() {
            None => Ok(()),
            Some(file) => Err(open_err(
                &self.shared.dir.join(file),
                format!("checksum mismatch ({} damaged file(s)); run `lectern repair`", damaged.len()),
            )),
        }
    }
}

/// Where each of `parts` is in `whole`, in order and without overlap, as
/// (byte offset, byte length); None for a part not found after the previous one.
fn slices<'a>(whole: &str, parts: impl Iterator<Item = &'a str>) -> Vec<Option<(usize, usize)>> {
    let mut at = 0;
    parts
        .map(|part| {
            let found =
                if whole[at..].starts_with(part) { Some(at) } else { whole[at..].find(part).map(|i| at + i) };
            found.map(|from| {
                at = from + part.len();
                (from, part.len())
            })
        })
        .collect()
}

impl Writer {
    /// Deletes every document of an edition (applied at commit).
    pub fn delete_edition(&mut self, edition: &str) {
        self.writer.delete_term(Term::from_field_text(self.shared.fields.edition, edition));
    }

    /// Adds a page and its sections under an edition key. Section keys are
    /// derived from (edition, page path, section ordinal).
    pub fn add_page(&mut self, edition: &str, page: &Page) -> Result<(), IndexError> {
        let f = &self.shared.fields;
        // Symbols go to the section whose anchor they name, else the lead section.
        let mut symbols: Vec<Vec<String>> = vec![Vec::new(); page.sections.len().max(1)];
        let mut attach = |name: &str, anchor: Option<&str>| {
            let key = symbol_key(name);
            if key.is_empty() {
                return;
            }
            let at = anchor
                .and_then(|a| page.sections.iter().position(|s| s.anchor.as_deref() == Some(a)))
                .unwrap_or(0);
            if !symbols[at].contains(&key) {
                symbols[at].push(key);
            }
        };
        for symbol in &page.symbols {
            attach(&symbol.name, symbol.anchor.as_deref());
        }
        if title_is_symbol(&page.title) {
            attach(&page.title, None);
        }
        let markdown_at = slices(&page.markdown, page.sections.iter().map(|s| s.markdown.as_str()));
        let mut page_symbols: Vec<&String> = symbols.iter().flatten().collect();
        page_symbols.sort();
        page_symbols.dedup();
        for (ordinal, section) in page.sections.iter().enumerate() {
            let mut doc = TantivyDocument::default();
            doc.add_text(f.kind, KIND_SECTION);
            doc.add_text(f.edition, edition);
            doc.add_text(f.section_key, section_key(edition, &page.path, ordinal));
            doc.add_u64(f.key_num, section_key_num(edition, &page.path, ordinal));
            doc.add_text(f.path, &page.path);
            if let Some(anchor) = &section.anchor {
                doc.add_text(f.anchor, anchor);
            }
            doc.add_text(f.title, &section.title);
            for crumb in &section.breadcrumb {
                doc.add_text(f.breadcrumb, crumb);
            }
            doc.add_text(f.body, &section.text);
            for symbol in &symbols[ordinal] {
                doc.add_text(f.symbol, symbol);
            }
            for symbol in &page_symbols {
                doc.add_text(f.page_symbol, symbol);
            }
            doc.add_u64(f.weight, if page.listing { LISTING_WEIGHT } else { 100 });
            // After everything a search hit shows: reading a hit stops at
            // the body (`hitdoc::read`).
            match markdown_at[ordinal] {
                Some((from, len)) => {
                    doc.add_u64(f.markdown_at, from as u64);
                    doc.add_u64(f.markdown_at, len as u64);
                }
                None => doc.add_text(f.markdown, &section.markdown),
            }
            doc.add_u64(f.ordinal, ordinal as u64);
            self.writer.add_document(doc)?;
        }
        let mut doc = TantivyDocument::default();
        doc.add_text(f.kind, KIND_PAGE);
        doc.add_text(f.edition, edition);
        doc.add_text(f.path, &page.path);
        doc.add_text(f.page_title, &page.title);
        doc.add_text(f.source_file, &page.source_file);
        for section in &page.sections {
            doc.add_text(f.anchors, section.anchor.as_deref().unwrap_or(""));
        }
        doc.add_text(f.page_text, &page.text);
        doc.add_text(f.markdown, &page.markdown);
        if let Some(d) = &page.description {
            doc.add_text(f.description, d);
        }
        if let Some(fm) = &page.frontmatter {
            doc.add_text(f.frontmatter, fm);
        }
        if let Some(order) = page.order {
            doc.add_i64(f.order, order);
        }
        doc.add_bool(f.draft, page.draft);
        doc.add_u64(f.section_count, page.sections.len() as u64);
        let mut grams = fold(&page.title);
        grams.push('\n');
        grams.push_str(&fold(&page.text));
        doc.add_text(f.grams, &grams);
        self.writer.add_document(doc)?;
        Ok(())
    }

    /// Commits atomically with `payload` (the library manifest) and refreshes
    /// the owning index's snapshot. A crash before this returns leaves the
    /// previous commit in place.
    pub fn commit(mut self, payload: &str) -> Result<(), IndexError> {
        let mut prepared = self.writer.prepare_commit()?;
        prepared.set_payload(payload);
        prepared.commit()?;
        // Let merges finish so the next reader sees few segments, and release the lock.
        self.writer.wait_merging_threads()?;
        self.shared.refresh(true)?;
        Ok(())
    }
}

impl Snapshot {
    /// The payload committed with this snapshot ("" for a fresh index).
    pub fn payload(&self) -> &str {
        &self.inner.payload
    }

    /// The tantivy opstamp of the commit this snapshot reads.
    pub fn opstamp(&self) -> u64 {
        self.inner.opstamp
    }

    /// Ranked search (SPEC §3). Never panics, never exceeds the deadline by
    /// more than a few ms; sets flags instead of failing.
    /// Repeated requests are answered from this snapshot's result cache.
    pub fn search(&self, request: &SearchRequest<'_>) -> SearchOutcome {
        Arc::unwrap_or_clone(self.search_shared(request))
    }

    /// [`Snapshot::search`], answered with the result the cache shares
    /// (no copy of it is made).
    pub fn search_shared(&self, request: &SearchRequest<'_>) -> Arc<SearchOutcome> {
        let key = crate::cache::key(request);
        if let Some(cached) = self.inner.results.get(&key, true) {
            return cached;
        }
        let outcome = Arc::new(self.search_uncached(request));
        self.inner.results.put(key, &outcome);
        outcome
    }

    /// The result cache's answer to `request`, if it holds one (a miss is
    /// not counted: the search that follows counts it).
    pub fn search_if_cached(&self, request: &SearchRequest<'_>) -> Option<Arc<SearchOutcome>> {
        self.inner.results.get(&crate::cache::key(request), false)
    }

    /// Ranked search without the result cache (benchmarks of the engine).
    pub fn search_uncached(&self, request: &SearchRequest<'_>) -> SearchOutcome {
        crate::search::search(&self.inner, request)
    }

    /// Searches of this snapshot answered from its result cache.
    pub fn cached_searches(&self) -> u64 {
        self.inner.results.counts().0
    }

    /// Searches of this snapshot that looked in its result cache and had
    /// to search (`search_uncached` does not look).
    pub fn searched_after_cache_miss(&self) -> u64 {
        self.inner.results.counts().1
    }
}
