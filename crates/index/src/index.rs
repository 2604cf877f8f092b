//! The index on disk: open (format check), reload, and hand out consistent
//! snapshots.
//!
//! A generation is one tantivy commit whose payload is the library's
//! manifest. A [`Snapshot`] pairs a searcher with the payload of the very
//! commit it reads (checked segment by segment), so readers never see one
//! commit's documents with another's manifest.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use tantivy::columnar::{Column, StrColumn};
use tantivy::store::StoreReader;
use tantivy::{IndexReader, ReloadPolicy, Searcher};

use crate::cache::ResultCache;
use crate::error::IndexError;
use crate::format;
use crate::schema::Fields;
use crate::tokenizer::{GRAMS, GramTokenizer, LECTERN, LECTERN_TITLE, LecternTokenizer};

/// Size of a document-store block, at least: a block closes after the
/// document that fills it. 1 KiB: a search hit copies its own section and
/// rarely a neighbour.
const STORE_BLOCK_BYTES: usize = 1024;
/// Store blocks cached per segment (tantivy's default: 100).
const STORE_CACHE_BLOCKS: usize = 8;

/// The index of one library.
pub struct Index {
    pub(crate) shared: Arc<Shared>,
}

/// One consistent view: a searcher and the payload committed with it.
#[derive(Clone)]
pub struct Snapshot {
    pub(crate) inner: Arc<SnapshotInner>,
}

/// State shared by an [`Index`], its writers and nothing else.
pub(crate) struct Shared {
    pub(crate) dir: PathBuf,
    pub(crate) index: tantivy::Index,
    reader: IndexReader,
    pub(crate) fields: Arc<Fields>,
    pub(crate) read_only: bool,
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
    /// Each segment's columns a search reads, opened once.
    pub(crate) columns: Vec<SegmentColumns>,
    pub(crate) payload: String,
    pub(crate) opstamp: u64,
    pub(crate) fields: Arc<Fields>,
    pub(crate) results: ResultCache,
}

impl SnapshotInner {
    fn new(searcher: Searcher, payload: String, opstamp: u64, fields: Arc<Fields>) -> std::io::Result<Self> {
        let stores = searcher
            .segment_readers()
            .iter()
            .map(|s| s.get_store_reader(STORE_CACHE_BLOCKS))
            .collect::<std::io::Result<_>>()?;
        let mut columns: Vec<SegmentColumns> =
            searcher.segment_readers().iter().map(SegmentColumns::open).collect();
        mark_whole_editions(&mut columns);
        Ok(SnapshotInner { searcher, stores, columns, payload, opstamp, fields, results: Default::default() })
    }
}

/// The fast-field columns of one segment that every search reads (the
/// edition filter, section keys and weights, page paths): opening them
/// costs more than a short search's reading them, so a snapshot opens them
/// once. None where a segment lacks one.
pub(crate) struct SegmentColumns {
    pub(crate) edition: Option<StrColumn>,
    pub(crate) path: Option<StrColumn>,
    pub(crate) key: Option<Column<u64>>,
    pub(crate) weight: Option<Column<u64>>,
    pub(crate) title_shape: Option<Column<u64>>,
    /// By edition ordinal: true when no other segment holds that edition,
    /// so that each of its pages lies whole in this segment (a commit's
    /// segments are merged into one, and an edition is written by one
    /// commit), and a path ordinal here names one page.
    pub(crate) whole: Vec<bool>,
}

impl SegmentColumns {
    fn open(reader: &tantivy::SegmentReader) -> SegmentColumns {
        let fast = reader.fast_fields();
        SegmentColumns {
            edition: fast.str("edition").ok().flatten(),
            path: fast.str("path").ok().flatten(),
            key: fast.u64("key_num").ok(),
            weight: fast.u64("weight").ok(),
            title_shape: fast.u64("title_shape").ok(),
            whole: Vec::new(),
        }
    }

    /// The editions this segment holds (deleted documents' too).
    fn editions(&self) -> Vec<Vec<u8>> {
        let mut names = Vec::new();
        if let Some(editions) = &self.edition
            && let Ok(mut stream) = editions.dictionary().stream()
        {
            while stream.advance() {
                names.push(stream.key().to_vec());
            }
        }
        names
    }
}

/// Marks, in each segment, the editions no other segment holds.
fn mark_whole_editions(columns: &mut [SegmentColumns]) {
    let held: Vec<Vec<Vec<u8>>> = columns.iter().map(SegmentColumns::editions).collect();
    let mut segments_holding: std::collections::HashMap<&[u8], usize> = std::collections::HashMap::new();
    for name in held.iter().flatten() {
        *segments_holding.entry(name).or_default() += 1;
    }
    for (column, names) in columns.iter_mut().zip(&held) {
        column.whole = names.iter().map(|n| segments_holding.get(n.as_slice()) == Some(&1)).collect();
    }
}

fn meta_stamp(dir: &Path) -> Option<(u64, i128, u64)> {
    let m = std::fs::metadata(dir.join("meta.json")).ok()?;
    Some((m.ino(), i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()), m.len()))
}

fn register_tokenizers(index: &tantivy::Index) {
    index.tokenizers().register(LECTERN, LecternTokenizer::default());
    index.tokenizers().register(LECTERN_TITLE, LecternTokenizer::title());
    index.tokenizers().register(GRAMS, GramTokenizer::default());
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
                .map_err(|e| IndexError::open(&self.dir, e))?;
                return Ok(Snapshot { inner: Arc::new(inner) });
            }
            std::thread::yield_now();
        }
        if let Some(e) = last_error {
            return Err(e.into());
        }
        Err(IndexError::KeptChanging)
    }

    /// Swaps in the last commit's snapshot if it changed (`force`: even
    /// when `meta.json` looks the same); true when it changed.
    pub(crate) fn refresh(&self, force: bool) -> Result<bool, IndexError> {
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

/// The tantivy index in `dir`: the existing one (format and schema
/// checked), or a new empty one.
fn open_tantivy(dir: &Path, fields: &Fields, read_only: bool) -> Result<tantivy::Index, IndexError> {
    if dir.join("meta.json").exists() {
        format::check(dir)?;
        let folder = crate::folder::IndexFolder::open(dir).map_err(|e| IndexError::open(dir, e))?;
        let index = tantivy::Index::open(folder).map_err(|e| IndexError::open(dir, e))?;
        if index.schema() != fields.schema {
            return Err(IndexError::open(
                dir,
                "the index schema differs from this lectern's; run `lectern repair` to rebuild it",
            ));
        }
        return Ok(index);
    }
    if read_only {
        return Err(IndexError::open(dir, "no index here"));
    }
    // The format file first: an index without one is refused as format 0.
    format::write(dir)?;
    let folder = crate::folder::IndexFolder::open(dir).map_err(|e| IndexError::open(dir, e))?;
    // Small store blocks: a hit reads its own section, not its neighbours'
    // (search reads 20 sections per page). The store is not compressed: a
    // hit's section is read as it lies, where decompressing it took a tenth
    // of a search; a page's Markdown and text, the bulk of what is stored,
    // are packed one by one (`packed`).
    let settings = tantivy::IndexSettings {
        docstore_blocksize: STORE_BLOCK_BYTES,
        docstore_compression: tantivy::store::Compressor::None,
        ..Default::default()
    };
    tantivy::Index::create(folder, fields.schema.clone(), settings).map_err(|e| IndexError::open(dir, e))
}

impl Index {
    /// Opens the index in `dir`, creating an empty one if absent.
    pub fn open(dir: &Path) -> Result<Index, IndexError> {
        Index::open_with(dir, false)
    }

    fn open_with(dir: &Path, read_only: bool) -> Result<Index, IndexError> {
        let fields = Arc::new(Fields::build());
        if !read_only {
            std::fs::create_dir_all(dir).map_err(|e| IndexError::open(dir, e))?;
        }
        let index = open_tantivy(dir, &fields, read_only)?;
        register_tokenizers(&index);
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            // Each segment keeps this many store blocks; reads
            // are scattered (hits, pages by address), so a few suffice, and
            // memory no longer grows with the number of segments.
            .doc_store_cache_num_blocks(STORE_CACHE_BLOCKS)
            .try_into()
            .map_err(|e: tantivy::TantivyError| IndexError::open(dir, e))?;
        let placeholder = Snapshot {
            inner: Arc::new(
                SnapshotInner::new(IndexReader::searcher(&reader), String::new(), u64::MAX, fields.clone())
                    .map_err(|e| IndexError::open(dir, e))?,
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

    /// Checks every index file's checksum; Err names the damaged file.
    pub fn verify(&self) -> Result<(), IndexError> {
        let damaged = self.shared.index.validate_checksum()?;
        let mut damaged: Vec<_> = damaged.into_iter().collect();
        damaged.sort();
        match damaged.first() {
            None => Ok(()),
            Some(file) => Err(IndexError::open(
                &self.shared.dir.join(file),
                format!("checksum mismatch ({} damaged file(s)); run `lectern repair`", damaged.len()),
            )),
        }
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
}
