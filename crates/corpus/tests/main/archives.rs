//! Archive sources built at test time: the four formats read like the folder,
//! and hostile archives are reported, skipped or refused.

use std::io::Write;
use std::path::{Path, PathBuf};

use lectern_corpus::{Limits, ReadOptions, SourceError, read_source, read_source_with_limits};

use crate::{fixture, read};

/// The Markdown fixture's files, relative paths and bytes, hidden ones excluded.
fn fixture_files() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![fixture("markdown")];
    let root = fixture("markdown");
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().unwrap().to_str().unwrap().starts_with('.') {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(&root).unwrap().to_str().unwrap().to_owned();
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn tar_bytes(files: &[(String, Vec<u8>)], top: &str) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (rel, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, format!("{top}/{rel}"), bytes.as_slice()).unwrap();
    }
    builder.into_inner().unwrap()
}

/// A tar entry with a raw name and type, bypassing the builder's path checks.
fn raw_entry(
    builder: &mut tar::Builder<Vec<u8>>,
    name: &str,
    kind: tar::EntryType,
    link: Option<&str>,
    data: &[u8],
) {
    let mut header = tar::Header::new_gnu();
    {
        let gnu = header.as_gnu_mut().unwrap();
        gnu.name[..name.len()].copy_from_slice(name.as_bytes());
    }
    header.set_entry_type(kind);
    header.set_size(data.len() as u64);
    header.set_mode(0o644);
    if let Some(link) = link {
        header.set_link_name(link).unwrap();
    }
    header.set_cksum();
    builder.append(&header, data).unwrap();
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut enc = xz2::write::XzEncoder::new(Vec::new(), 1);
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn zip_bytes(files: &[(String, Vec<u8>)], top: &str) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (rel, bytes) in files {
        zip.start_file(format!("{top}/{rel}"), options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

#[test]
fn every_format_reads_like_the_folder() {
    let files = fixture_files();
    let folder = read(&fixture("markdown"), "/demo");
    let dir = tempfile::tempdir().unwrap();
    let tar = tar_bytes(&files, "demo-docs");
    // Extensions are deliberately misleading: detection is by magic bytes.
    let sources = [
        write(dir.path(), "docs.tar", &tar),
        write(dir.path(), "docs.tar.gz", &gz(&tar)),
        write(dir.path(), "docs.bin", &xz(&tar)),
        write(dir.path(), "docs.zip", &zip_bytes(&files, "demo-docs")),
        write(dir.path(), "docs-zip-named.tgz", &zip_bytes(&files, "demo-docs")),
    ];
    for source in sources {
        let got = read(&source, "/demo");
        let paths = |i: &lectern_corpus::Ingested| i.pages.iter().map(|p| p.path.clone()).collect::<Vec<_>>();
        assert_eq!(paths(&got), paths(&folder), "{}", source.display());
        assert_eq!(got.pages, folder.pages, "{}", source.display());
        assert_eq!(got.problems, folder.problems, "{}", source.display());
        assert_eq!(got.content_hash, folder.content_hash, "{}", source.display());
    }
}

#[test]
fn not_an_archive_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "notes.txt", b"just text");
    let err = read_source(&path, &ReadOptions::new(""), &mut |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("not a folder or a supported archive"), "{err}");
    let path = write(dir.path(), "broken.tar.gz", &[0x1f, 0x8b, 0, 1, 2, 3]);
    let err = read_source(&path, &ReadOptions::new(""), &mut |_, _| {}).unwrap_err();
    assert!(matches!(err, SourceError::Unreadable { .. }), "{err}");
}

#[test]
fn hostile_tar_entries_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = tar::Builder::new(Vec::new());
    raw_entry(&mut b, "docs/index.md", tar::EntryType::Regular, None, b"# Home\n");
    raw_entry(&mut b, "docs/../escape.md", tar::EntryType::Regular, None, b"# Escape\n");
    raw_entry(&mut b, "/abs/evil.md", tar::EntryType::Regular, None, b"# Abs\n");
    raw_entry(&mut b, "docs/link.md", tar::EntryType::Symlink, Some("/etc/passwd"), b"");
    raw_entry(&mut b, "docs/hard.md", tar::EntryType::Link, Some("docs/index.md"), b"");
    raw_entry(&mut b, "docs/dev.md", tar::EntryType::Char, None, b"");
    raw_entry(&mut b, "docs/big.md", tar::EntryType::Regular, None, &vec![b'x'; 2048]);
    let path = write(dir.path(), "hostile.tar", &b.into_inner().unwrap());
    let options = ReadOptions { max_file_bytes: 1024, ..ReadOptions::new("/h") };
    let got = read_source(&path, &options, &mut |_, _| {}).unwrap();
    assert_eq!(got.pages.len(), 1);
    assert_eq!(got.pages[0].path, "/h");
    let problems: Vec<String> = got.problems.iter().map(|p| format!("{}: {}", p.path, p.reason)).collect();
    assert_eq!(problems.len(), 6, "{problems:#?}");
    let has = |path: &str, word: &str| problems.iter().any(|p| p.starts_with(path) && p.contains(word));
    assert!(has("docs/../escape.md", ".."), "{problems:#?}");
    assert!(has("/abs/evil.md", "absolute"), "{problems:#?}");
    assert!(has("docs/link.md", "link"), "{problems:#?}");
    assert!(has("docs/hard.md", "link"), "{problems:#?}");
    assert!(has("docs/dev.md", "device"), "{problems:#?}");
    assert!(has("docs/big.md", "over 1024 bytes"), "{problems:#?}");
    assert!(!dir.path().join("escape.md").exists());
}

#[test]
fn lying_tar_header_sizes_are_capped() {
    // A header claiming a small size cannot smuggle more bytes: the reader stops
    // at the header size, and the per-file cap holds on bytes actually read.
    let dir = tempfile::tempdir().unwrap();
    let mut b = tar::Builder::new(Vec::new());
    raw_entry(&mut b, "d/index.md", tar::EntryType::Regular, None, b"# Home\n");
    raw_entry(&mut b, "d/huge.md", tar::EntryType::Regular, None, &vec![b'y'; 64 * 1024]);
    let path = write(dir.path(), "x.tar.gz", &gz(&b.into_inner().unwrap()));
    let options = ReadOptions { max_file_bytes: 4096, ..ReadOptions::new("") };
    let got = read_source(&path, &options, &mut |_, _| {}).unwrap();
    assert_eq!(got.pages.len(), 1);
    assert!(got.problems.iter().any(|p| p.path == "d/huge.md"));
}

#[test]
fn hostile_zip_entries_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("docs/index.md", options).unwrap();
    zip.write_all(b"# Home\n").unwrap();
    zip.start_file("docs/../../escape.md", options).unwrap();
    zip.write_all(b"# Escape\n").unwrap();
    zip.start_file("/abs.md", options).unwrap();
    zip.write_all(b"# Abs\n").unwrap();
    zip.add_symlink("docs/link.md", "/etc/passwd", options).unwrap();
    let path = write(dir.path(), "hostile.zip", &zip.finish().unwrap().into_inner());
    let got = read(&path, "");
    assert_eq!(got.pages.len(), 1, "{:?}", got.pages.iter().map(|p| &p.path).collect::<Vec<_>>());
    assert_eq!(got.problems.len(), 3, "{:#?}", got.problems);
    assert!(!dir.path().parent().unwrap().join("escape.md").exists());
}

#[test]
fn bombs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Many entries.
    let mut b = tar::Builder::new(Vec::new());
    for i in 0..200 {
        raw_entry(&mut b, &format!("d/p{i}.md"), tar::EntryType::Regular, None, b"# P\n");
    }
    let path = write(dir.path(), "many.tar.xz", &xz(&b.into_inner().unwrap()));
    let limits = Limits { max_entries: 100, ..Limits::default() };
    let err = read_source_with_limits(&path, &ReadOptions::new(""), &limits, &mut |_, _| {}).unwrap_err();
    assert!(matches!(err, SourceError::TooManyEntries { limit: 100, .. }), "{err}");
    assert!(err.to_string().contains("archive bomb"), "{err}");
    // Highly compressible bytes expanding past the total cap.
    let mut b = tar::Builder::new(Vec::new());
    for i in 0..4 {
        raw_entry(&mut b, &format!("d/z{i}.md"), tar::EntryType::Regular, None, &vec![0u8; 1 << 20]);
    }
    let compressed = gz(&b.into_inner().unwrap());
    assert!(compressed.len() < 64 * 1024);
    let path = write(dir.path(), "zeros.tgz", &compressed);
    let limits = Limits { max_total_bytes: 2 << 20, ..Limits::default() };
    let err = read_source_with_limits(&path, &ReadOptions::new(""), &limits, &mut |_, _| {}).unwrap_err();
    assert!(matches!(err, SourceError::TooLarge { .. }), "{err}");
    // The same for zip, whose entry count is known up front.
    let files: Vec<(String, Vec<u8>)> = (0..150).map(|i| (format!("p{i}.md"), b"# P\n".to_vec())).collect();
    let path = write(dir.path(), "many.zip", &zip_bytes(&files, "d"));
    let limits = Limits { max_entries: 100, ..Limits::default() };
    let err = read_source_with_limits(&path, &ReadOptions::new(""), &limits, &mut |_, _| {}).unwrap_err();
    assert!(matches!(err, SourceError::TooManyEntries { .. }), "{err}");
}
