//! The corpus archives: where they are, and reading them without unpacking
//! them into the repository (byte counts, single members, temporary extraction).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// The path of `name` in the corpora folder, with a clear error when missing.
pub fn archive(corpora: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let path = corpora.join(name);
    if !path.is_file() {
        bail!(
            "{} not found; pass the folder holding the corpus archives (default ../shared/corpora)",
            path.display()
        );
    }
    Ok(path)
}

fn entries(path: &Path) -> anyhow::Result<tar::Archive<xz2::read::XzDecoder<BufReader<File>>>> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    Ok(tar::Archive::new(xz2::read::XzDecoder::new_multi_decoder(BufReader::new(file))))
}

/// (HTML files, their uncompressed bytes) in a `.tar.xz`.
pub fn html_bytes(path: &Path) -> anyhow::Result<(usize, u64)> {
    let mut archive = entries(path)?;
    let (mut files, mut bytes) = (0, 0);
    for entry in archive.entries()? {
        let entry = entry?;
        let name = entry.path()?.to_string_lossy().to_lowercase();
        if entry.header().entry_type().is_file() && (name.ends_with(".html") || name.ends_with(".htm")) {
            files += 1;
            bytes += entry.size();
        }
    }
    Ok((files, bytes))
}

/// The text of the first member whose file name is `file_name`.
pub fn read_member(path: &Path, file_name: &str) -> anyhow::Result<String> {
    let mut archive = entries(path)?;
    for entry in archive.entries()? {
        let mut entry = entry?;
        let is_it = entry.path()?.file_name().is_some_and(|n| n == file_name);
        if is_it {
            let mut text = String::new();
            entry.read_to_string(&mut text)?;
            return Ok(text);
        }
    }
    bail!("{}: no {file_name} inside", path.display())
}

/// Unpacks a `.tar.xz` into a new temporary folder.
pub fn extract(path: &Path) -> anyhow::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new().prefix("lectern-bench-corpus-").tempdir()?;
    entries(path)?.unpack(dir.path()).with_context(|| format!("extracting {}", path.display()))?;
    Ok(dir)
}
