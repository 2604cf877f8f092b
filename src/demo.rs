//! The demo site (examples/demo), embedded at build time so `lectern serve
//! --demo` works from an installed binary.

use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/demo_files.rs"));

/// Writes the demo site into `dir`; returns the path of its `lectern.toml`.
pub fn install(dir: &Path) -> std::io::Result<PathBuf> {
    for (rel, text) in DEMO_FILES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, text)?;
    }
    Ok(dir.join("lectern.toml"))
}
