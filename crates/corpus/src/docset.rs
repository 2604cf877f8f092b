//! Dash/Zeal docsets: `Contents/Info.plist` (name, identifier, platform
//! family) and the `docSet.dsidx` SQLite index (`searchIndex`, or the older
//! Core Data `ZTOKEN` tables), opened read-only and immutable.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use crate::source::DocsetInfo;

/// Where a docset keeps its index and pages, relative to the `.docset` folder.
pub const INDEX_PATH: &str = "Contents/Resources/docSet.dsidx";
pub const DOCUMENTS_PATH: &str = "Contents/Resources/Documents";
pub const INFO_PATH: &str = "Contents/Info.plist";

/// Index rows read at most (a docset is not trusted to be small).
pub const MAX_INDEX_ROWS: usize = 2_000_000;

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

/// Reads `Contents/Info.plist`; falls back to the folder name when it is
/// missing or unreadable.
pub fn read_info(dir: &Path) -> DocsetInfo {
    let stem = dir.file_stem().and_then(|s| s.to_str()).unwrap_or("docset").to_owned();
    let mut info = DocsetInfo { name: stem.clone(), identifier: stem.to_lowercase(), platform_family: None };
    let Ok(value) = plist::Value::from_file(dir.join(INFO_PATH)) else { return info };
    let Some(dict) = value.as_dictionary() else { return info };
    let get = |k: &str| dict.get(k).and_then(|v| v.as_string()).map(str::trim).filter(|s| !s.is_empty());
    if let Some(name) = get("CFBundleName") {
        name.clone_into(&mut info.name);
    }
    if let Some(id) = get("CFBundleIdentifier") {
        info.identifier = id.to_lowercase();
    }
    info.platform_family = get("DocSetPlatformFamily").map(str::to_owned);
    info
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

/// Reads every row of the docset's index (either layout).
pub fn read_index(dsidx: &Path) -> Result<Vec<IndexRow>, String> {
    let uri = format!("file:{}?immutable=1", percent_encode_path(dsidx));
    let conn = Connection::open_with_flags(
        uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot open the index: {e}"))?;
    let has_table = |name: &str| -> bool {
        conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type IN ('table','view') AND name = ?1",
            [name],
            |r| r.get::<_, i64>(0),
        )
        .is_ok_and(|n| n > 0)
    };
    let sql = if has_table("searchIndex") {
        "SELECT name, type, path, NULL FROM searchIndex"
    } else if has_table("ZTOKEN") {
        "SELECT t.ZTOKENNAME, ty.ZTYPENAME, f.ZPATH, m.ZANCHOR \
         FROM ZTOKEN t \
         JOIN ZTOKENMETAINFORMATION m ON t.ZMETAINFORMATION = m.Z_PK \
         JOIN ZFILEPATH f ON m.ZFILE = f.Z_PK \
         JOIN ZTOKENTYPE ty ON t.ZTOKENTYPE = ty.Z_PK"
    } else {
        return Err("the index has neither a searchIndex table nor Core Data ZTOKEN tables".to_owned());
    };
    let mut stmt = conn.prepare(sql).map_err(|e| format!("cannot read the index: {e}"))?;
    let mut rows = stmt.query([]).map_err(|e| format!("cannot read the index: {e}"))?;
    let mut out = Vec::new();
    loop {
        let row = match rows.next() {
            Ok(Some(r)) => r,
            Ok(None) => break,
            Err(e) => return Err(format!("cannot read the index: {e}")),
        };
        if out.len() >= MAX_INDEX_ROWS {
            break;
        }
        let text = |i: usize| -> Option<String> { row.get::<_, Option<String>>(i).ok().flatten() };
        let (Some(name), Some(kind), Some(path)) = (text(0), text(1), text(2)) else { continue };
        let Some((file, mut anchor)) = parse_index_path(&path) else { continue };
        if let Some(a) = text(3).filter(|a| !a.is_empty()) {
            anchor = Some(a);
        }
        let name = name.trim();
        if name.is_empty() || name.len() > 1000 {
            continue;
        }
        out.push(IndexRow { name: name.to_owned(), kind: kind.trim().to_owned(), file, anchor });
    }
    Ok(out)
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
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
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
