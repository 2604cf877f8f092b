//! A docset's index rows parked on disk while its pages are read: rows go to
//! a private SQLite database in a temporary folder, keyed by page file, and
//! each page takes back only its own rows as it is converted, so memory holds
//! the rows of one page, not the whole index (up to millions of rows).

use rusqlite::{Connection, params};

use crate::docset::IndexRow;
use crate::page::Symbol;

/// SQLite's page cache for the store, in KiB: the rest stays on disk.
const CACHE_KIB: i64 = 8 * 1024;

/// The rows written so far, each `(file, name, kind, anchor)` once, in the
/// order they were read.
pub(crate) struct RowStore {
    conn: Connection,
    /// Whether the write transaction is still open.
    writing: bool,
    /// Removed with the store (the database file lives in it); after a
    /// `kill -9`, by the next run that makes a temporary folder.
    _dir: tempfile::TempDir,
}

impl RowStore {
    pub(crate) fn new() -> Result<RowStore, String> {
        let dir = crate::archive::temp_folder()
            .map_err(|e| format!("cannot make a temporary folder for the docset's index rows: {e}"))?;
        let failed = |e: rusqlite::Error| format!("cannot store the docset's index rows: {e}");
        let conn = Connection::open(dir.path().join("rows.sqlite")).map_err(failed)?;
        // A scratch database read back by this run only: no journal, no sync.
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -{CACHE_KIB};
             PRAGMA temp_store = FILE;
             CREATE TABLE rows (file TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
                                anchor TEXT NOT NULL,
                                UNIQUE (file, name, kind, anchor));
             BEGIN;"
        ))
        .map_err(failed)?;
        Ok(RowStore { conn, writing: true, _dir: dir })
    }

    /// Adds a row; one seen before for the same file is left out.
    pub(crate) fn add(&mut self, row: IndexRow) -> Result<(), String> {
        let IndexRow { name, kind, file, anchor } = row;
        self.conn
            .prepare_cached("INSERT OR IGNORE INTO rows (file, name, kind, anchor) VALUES (?1, ?2, ?3, ?4)")
            .and_then(|mut stmt| stmt.execute(params![file, name, kind, anchor.unwrap_or_default()]))
            .map(drop)
            .map_err(|e| format!("cannot write the docset's index rows to the temporary folder: {e}"))
    }

    /// The symbols of the rows pointing at `file`, in the order they were read.
    pub(crate) fn take(&mut self, file: &str) -> Result<Vec<Symbol>, String> {
        let failed = |e: rusqlite::Error| format!("cannot read back the docset's index rows: {e}");
        if self.writing {
            self.conn.execute_batch("COMMIT").map_err(failed)?;
            self.writing = false;
        }
        let mut stmt = self
            .conn
            .prepare_cached("SELECT name, kind, anchor FROM rows WHERE file = ?1 ORDER BY rowid")
            .map_err(failed)?;
        let rows = stmt
            .query_map([file], |r| {
                let anchor: String = r.get(2)?;
                Ok(Symbol {
                    entry: None,
                    name: r.get(0)?,
                    kind: r.get(1)?,
                    anchor: (!anchor.is_empty()).then_some(anchor),
                })
            })
            .map_err(failed)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(failed)
    }
}
