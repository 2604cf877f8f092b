//! Dash/Zeal docsets: `Contents/Info.plist` (name, identifier, platform
//! family) and the `docSet.dsidx` SQLite index (`searchIndex`, or the older
//! Core Data `ZTOKEN` tables), opened read-only and immutable and read under
//! bounds on rows, SQLite operations, time and value length.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

use rusqlite::config::DbConfig;
use rusqlite::limits::Limit;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};

/// What a Dash docset's `Info.plist` says.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DocsetInfo {
    /// `CFBundleName` (e.g. "Click").
    pub name: String,
    /// `CFBundleIdentifier`, lowercased (e.g. "click").
    pub identifier: String,
    /// `DocSetPlatformFamily` (e.g. "click"), used as an alias.
    pub platform_family: Option<String>,
    /// The docset's language, from `CFBundleDevelopmentRegion` (`en`, `English`,
    /// `zh_CN`), canonical (`en`, `zh-CN`); None when it names none we can read.
    #[serde(default)]
    pub locale: Option<String>,
}

/// Where a docset keeps its index and pages, relative to the `.docset` folder.
pub const INDEX_PATH: &str = "Contents/Resources/docSet.dsidx";
pub const DOCUMENTS_PATH: &str = "Contents/Resources/Documents";
pub const INFO_PATH: &str = "Contents/Info.plist";

/// Index rows read at most, named or not (a docset is not trusted to be small).
pub const MAX_INDEX_ROWS: usize = 2_000_000;
/// SQLite virtual-machine operations reading the index may take: a view, a
/// trigger, a join or a recursive query in a hostile index cannot run unbounded.
pub const MAX_INDEX_OPERATIONS: u64 = 4_000_000_000;
/// Wall-clock time reading the index may take: a backstop behind the
/// operation and row caps, long enough for the largest honest index on a
/// slow, busy machine (2,000,000 rows), as `add.deadline_s` bounds the whole add.
pub const INDEX_DEADLINE: Duration = Duration::from_secs(120);
/// Longest single value (text or blob) SQLite builds or reads for the index,
/// so a hostile row cannot make it allocate without end.
pub const MAX_INDEX_VALUE_BYTES: usize = 1024 * 1024;
/// Most text (names, types, paths, anchors) kept from an index in all, so
/// the rows read stay bounded in memory.
pub const MAX_INDEX_TEXT_BYTES: usize = 512 * 1024 * 1024;
/// Longest name kept; longer ones are skipped.
const MAX_NAME_BYTES: usize = 1000;
/// Longest type, path or anchor kept; rows with longer ones are skipped.
const MAX_FIELD_BYTES: usize = 4096;
/// How many SQLite operations pass between two checks of the bounds.
const OPERATIONS_PER_CHECK: u64 = 10_000;

/// The bounds reading an index runs under ([`IndexBounds::default`] holds the
/// constants above; tests and fuzzing use smaller ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexBounds {
    pub max_rows: usize,
    pub max_operations: u64,
    pub deadline: Duration,
}

impl Default for IndexBounds {
    fn default() -> Self {
        IndexBounds {
            max_rows: MAX_INDEX_ROWS,
            max_operations: MAX_INDEX_OPERATIONS,
            deadline: INDEX_DEADLINE,
        }
    }
}

/// Why an index was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// Broken or of an unknown layout: reported, and the docset's pages are still read.
    #[error("{0}")]
    Unreadable(String),
    /// Over one of the bounds: the docset is refused. The text says what
    /// was over and what is allowed.
    #[error("{0}")]
    OverBound(String),
}

/// Whether `dir` is a docset (named `*.docset` or holding its index).
pub fn is_docset(dir: &Path) -> bool {
    dir.join(INDEX_PATH).is_file()
        || dir.extension().is_some_and(|e| e.eq_ignore_ascii_case("docset")) && dir.join("Contents").is_dir()
}

/// The one `*.docset` folder inside `dir`, if there is exactly one.
pub fn child_docset(dir: &Path) -> Option<PathBuf> {
    let mut found = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        if is_dir && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("docset")) {
            if found.is_some() {
                return None;
            }
            found = Some(path);
        }
    }
    found
}

/// Reads `Contents/Info.plist` from its bytes (None when it is missing);
/// falls back to the folder name when it is missing or malformed, and says
/// why in the second value when it is malformed.
pub fn read_info(dir: &Path, plist_bytes: Option<&[u8]>) -> (DocsetInfo, Option<String>) {
    let stem = dir.file_stem().and_then(|s| s.to_str()).unwrap_or("docset").to_owned();
    let mut info = DocsetInfo {
        name: stem.clone(),
        identifier: stem.to_lowercase(),
        platform_family: None,
        locale: None,
    };
    let Some(bytes) = plist_bytes else { return (info, None) };
    let value = match plist::Value::from_reader(std::io::Cursor::new(bytes)) {
        Ok(v) => v,
        Err(e) => {
            return (info, Some(format!("not a readable property list ({e}); the folder name is used")));
        }
    };
    let Some(dict) = value.as_dictionary() else {
        return (info, Some("the property list is not a dictionary; the folder name is used".to_owned()));
    };
    let get = |k: &str| dict.get(k).and_then(|v| v.as_string()).map(str::trim).filter(|s| !s.is_empty());
    if let Some(name) = get("CFBundleName") {
        name.clone_into(&mut info.name);
    }
    if let Some(id) = get("CFBundleIdentifier") {
        info.identifier = id.to_lowercase();
    }
    info.platform_family = get("DocSetPlatformFamily").map(str::to_owned);
    info.locale = get("CFBundleDevelopmentRegion").and_then(plist_locale);
    (info, None)
}

/// A property list's region (`en`, `en_US`, or Apple's older language names
/// such as `English`) as a canonical locale.
fn plist_locale(region: &str) -> Option<String> {
    let named = match region.to_ascii_lowercase().as_str() {
        "english" => Some("en"),
        "german" => Some("de"),
        "french" => Some("fr"),
        "japanese" => Some("ja"),
        "spanish" => Some("es"),
        "italian" => Some("it"),
        "dutch" => Some("nl"),
        _ => None,
    };
    match named {
        Some(locale) => Some(locale.to_owned()),
        None => crate::names::normalize_locale(region).ok(),
    }
}

/// One index row: a name, its Dash entry type, and where it points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexRow {
    pub name: String,
    pub kind: String,
    /// The page file, relative to `Contents/Resources/Documents`.
    pub file: String,
    pub anchor: Option<String>,
}

/// Which bound stopped the query, set by the progress handler.
const TRIPPED_NONE: u8 = 0;
const TRIPPED_OPERATIONS: u8 = 1;
const TRIPPED_DEADLINE: u8 = 2;

/// Reads every row of the docset's index (either layout) under the default bounds.
pub fn read_index(dsidx: &Path) -> Result<Vec<IndexRow>, IndexError> {
    read_index_bounded(dsidx, &IndexBounds::default())
}

/// Reads every row of the docset's index (either layout) under `bounds`.
///
/// The database is opened read-only and immutable (SQLite never writes, locks
/// or looks for a journal), with triggers, untrusted schema functions and
/// extension loading off, and every statement runs under an operation budget
/// and a deadline; every row read counts against the row cap, whether it is
/// kept or not.
pub fn read_index_bounded(dsidx: &Path, bounds: &IndexBounds) -> Result<Vec<IndexRow>, IndexError> {
    let mut out = Vec::new();
    read_index_each(dsidx, bounds, &mut |row| {
        out.push(row);
        Ok(())
    })?;
    Ok(out)
}

/// [`read_index_bounded`] handing each row kept to `sink` as it is read, so
/// the caller need not hold them all; an error from `sink` stops the read
/// and is returned.
pub fn read_index_each(
    dsidx: &Path,
    bounds: &IndexBounds,
    sink: &mut dyn FnMut(IndexRow) -> Result<(), IndexError>,
) -> Result<(), IndexError> {
    let unreadable = |e: rusqlite::Error| IndexError::Unreadable(format!("cannot open the index: {e}"));
    let uri = format!("file:{}?mode=ro&immutable=1", percent_encode_path(dsidx));
    // Extension loading stays off: it is never enabled on this connection,
    // and the SQL function `load_extension()` refuses until it is. A link in
    // place of the index file is not followed.
    let mut conn = Connection::open_with_flags(
        uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_NOFOLLOW,
    )
    .map_err(unreadable)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false).map_err(unreadable)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true).map_err(unreadable)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false).map_err(unreadable)?;
    let value_limit = i32::try_from(MAX_INDEX_VALUE_BYTES).unwrap_or(i32::MAX);
    conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, value_limit).map_err(unreadable)?;
    let tripped = Arc::new(AtomicU8::new(TRIPPED_NONE));
    {
        let tripped = Arc::clone(&tripped);
        let started = Instant::now();
        let (deadline, checks_allowed) = (bounds.deadline, bounds.max_operations / OPERATIONS_PER_CHECK);
        let mut checks: u64 = 0;
        let handler = move || {
            checks += 1;
            let over = if checks > checks_allowed {
                TRIPPED_OPERATIONS
            } else if started.elapsed() > deadline {
                TRIPPED_DEADLINE
            } else {
                return false;
            };
            tripped.store(over, Ordering::Relaxed);
            true
        };
        conn.progress_handler(OPERATIONS_PER_CHECK as i32, Some(handler)).map_err(unreadable)?;
    }
    let result = query_rows(&conn, bounds, sink);
    drop(conn);
    result.map_err(|e| match tripped.load(Ordering::Relaxed) {
        TRIPPED_OPERATIONS => IndexError::OverBound(format!(
            "reading its index took more than {} SQLite operations (a view, trigger or join that \
             does not end?); at most {} are allowed",
            bounds.max_operations, bounds.max_operations
        )),
        TRIPPED_DEADLINE => IndexError::OverBound(format!(
            "reading its index took longer than {} s (a view, trigger or join that does not end?); \
             it must be read within {} s",
            bounds.deadline.as_secs_f64(),
            bounds.deadline.as_secs_f64()
        )),
        _ => e,
    })
}

/// The rows of the index, by layout. Errors other than the row cap and a
/// value over [`MAX_INDEX_VALUE_BYTES`] are [`IndexError::Unreadable`].
fn query_rows(
    conn: &Connection,
    bounds: &IndexBounds,
    sink: &mut dyn FnMut(IndexRow) -> Result<(), IndexError>,
) -> Result<(), IndexError> {
    let failed = |e: rusqlite::Error| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::TooBig) => IndexError::OverBound(format!(
            "its index holds a value over {MAX_INDEX_VALUE_BYTES} bytes; at most {MAX_INDEX_VALUE_BYTES} \
             bytes are allowed"
        )),
        _ => IndexError::Unreadable(format!("cannot read the index: {e}")),
    };
    let has_table = |name: &str| -> Result<bool, IndexError> {
        conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type IN ('table','view') AND name = ?1",
            [name],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n > 0)
        .map_err(failed)
    };
    let sql = if has_table("searchIndex")? {
        "SELECT name, type, path, NULL FROM searchIndex"
    } else if has_table("ZTOKEN")? {
        "SELECT t.ZTOKENNAME, ty.ZTYPENAME, f.ZPATH, m.ZANCHOR \
         FROM ZTOKEN t \
         JOIN ZTOKENMETAINFORMATION m ON t.ZMETAINFORMATION = m.Z_PK \
         JOIN ZFILEPATH f ON m.ZFILE = f.Z_PK \
         JOIN ZTOKENTYPE ty ON t.ZTOKENTYPE = ty.Z_PK"
    } else {
        return Err(IndexError::Unreadable(
            "the index has neither a searchIndex table nor Core Data ZTOKEN tables".to_owned(),
        ));
    };
    let mut stmt = conn.prepare(sql).map_err(failed)?;
    let mut rows = stmt.query([]).map_err(failed)?;
    let mut read: usize = 0;
    let mut kept_bytes: usize = 0;
    while let Some(row) = rows.next().map_err(failed)? {
        read += 1;
        if read > bounds.max_rows {
            return Err(IndexError::OverBound(format!(
                "its index has more than {} rows (rows without a name count too); at most {} are allowed",
                bounds.max_rows, bounds.max_rows
            )));
        }
        if let Some(entry) = index_row(row) {
            kept_bytes += entry.name.len()
                + entry.kind.len()
                + entry.file.len()
                + entry.anchor.as_ref().map_or(0, String::len);
            if kept_bytes > MAX_INDEX_TEXT_BYTES {
                return Err(IndexError::OverBound(format!(
                    "its index holds more than {MAX_INDEX_TEXT_BYTES} bytes of names, types and paths; \
                     at most {MAX_INDEX_TEXT_BYTES} are allowed"
                )));
            }
            sink(entry)?;
        }
    }
    Ok(())
}

/// One row as an [`IndexRow`], or None when a field is missing, empty or too
/// long. Lengths are checked on SQLite's own buffer before anything is copied.
fn index_row(row: &rusqlite::Row<'_>) -> Option<IndexRow> {
    let text = |i: usize, max: usize| -> Option<String> {
        match row.get_ref(i).ok()? {
            ValueRef::Text(t) if t.len() <= max => std::str::from_utf8(t).ok().map(str::to_owned),
            _ => None,
        }
    };
    let name = text(0, MAX_FIELD_BYTES)?;
    let kind = text(1, MAX_FIELD_BYTES)?;
    let path = text(2, MAX_FIELD_BYTES)?;
    let (file, mut anchor) = parse_index_path(&path)?;
    if let Some(a) = text(3, MAX_FIELD_BYTES).filter(|a| !a.is_empty()) {
        anchor = Some(a);
    }
    let name = name.trim();
    if name.is_empty() || name.len() > MAX_NAME_BYTES {
        return None;
    }
    Some(IndexRow { name: name.to_owned(), kind: kind.trim().to_owned(), file, anchor })
}

/// `<dash_entry_name=x>api.html#click.Abort` → (`api.html`, `click.Abort`).
/// None for remote URLs and empty paths.
pub fn parse_index_path(raw: &str) -> Option<(String, Option<String>)> {
    let mut path = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(i) = rest.find("<dash_entry_") {
        path.push_str(&rest[..i]);
        match rest[i..].find('>') {
            Some(j) => rest = &rest[i + j + 1..],
            None => {
                rest = "";
            }
        }
    }
    path.push_str(rest);
    let lower = path.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("file:") {
        return None;
    }
    let (file, anchor) = match path.split_once('#') {
        Some((f, a)) => (f, Some(a)),
        None => (path.as_str(), None),
    };
    let file = file.split('?').next().unwrap_or("");
    let file = percent_decode(file.trim_start_matches("./").trim_start_matches('/'));
    if file.is_empty() {
        return None;
    }
    let anchor = anchor.map(percent_decode).filter(|a| !a.is_empty());
    Some((file, anchor))
}

fn percent_decode(s: &str) -> String {
    String::from_utf8_lossy(&crate::paths::percent_decode_bytes(s)).into_owned()
}

fn percent_encode_path(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::new();
    for &b in path.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'.' | b'_' | b'-' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_comes_from_the_development_region() {
        let plist = |region: &str| {
            format!(
                "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleName</key><string>Click</string>\
                 <key>CFBundleDevelopmentRegion</key><string>{region}</string></dict></plist>"
            )
        };
        let locale =
            |region: &str| read_info(Path::new("Click.docset"), Some(plist(region).as_bytes())).0.locale;
        assert_eq!(locale("English").as_deref(), Some("en"));
        assert_eq!(locale("zh_CN").as_deref(), Some("zh-CN"));
        assert_eq!(locale("Klingon"), None);
        assert_eq!(read_info(Path::new("Click.docset"), None).0.locale, None);
    }

    #[test]
    fn index_paths() {
        assert_eq!(
            parse_index_path("<dash_entry_name=x><dash_entry_originalName=y>api.html#click.Abort"),
            Some(("api.html".into(), Some("click.Abort".into())))
        );
        assert_eq!(parse_index_path("./a%20b.html"), Some(("a b.html".into(), None)));
        assert_eq!(parse_index_path("https://example.com/x.html"), None);
        assert_eq!(parse_index_path("<dash_entry_broken"), None);
        assert_eq!(parse_index_path("%zz.html#"), Some(("%zz.html".into(), None)));
    }
}
