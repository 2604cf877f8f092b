//! The format file beside tantivy's files: written first when an index is
//! created, checked before one is opened.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::IndexError;
use crate::schema::{FORMAT_FILE, FORMAT_VERSION};

#[derive(Serialize, Deserialize)]
struct FormatFile {
    format: u32,
}

/// Refuses an index of another format; one without a format file is format 0.
pub(crate) fn check(dir: &Path) -> Result<(), IndexError> {
    let file = dir.join(FORMAT_FILE);
    let found = match std::fs::read(&file) {
        Ok(bytes) => serde_json::from_slice::<FormatFile>(&bytes).map(|f| f.format).unwrap_or(0),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(IndexError::open(&file, e)),
    };
    if found != FORMAT_VERSION {
        return Err(IndexError::Format { path: dir.display().to_string(), found, expected: FORMAT_VERSION });
    }
    Ok(())
}

/// Records this lectern's format (atomically: a temporary file renamed).
pub(crate) fn write(dir: &Path) -> Result<(), IndexError> {
    let tmp = dir.join(format!("{FORMAT_FILE}.tmp"));
    let body =
        serde_json::to_vec(&FormatFile { format: FORMAT_VERSION }).map_err(|e| IndexError::open(dir, e))?;
    std::fs::write(&tmp, body).map_err(|e| IndexError::open(&tmp, e))?;
    std::fs::rename(&tmp, dir.join(FORMAT_FILE)).map_err(|e| IndexError::open(dir, e))
}
