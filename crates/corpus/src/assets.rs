//! The assets pages reference (images, PDFs, text and data files): found in
//! each page's Markdown as it is converted, read from the tree once every
//! page is known (never outside it, never through a link), checked against
//! an allowlist by extension and by content, bounded per asset and per
//! edition, and parked in an unnamed temporary file (each content once)
//! until the edition is stored.

use std::collections::{BTreeSet, HashMap};
use std::fs::File;
use std::os::unix::fs::FileExt;

use pulldown_cmark::{Event, Options, Parser, Tag};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::paths;

/// Largest asset kept; a bigger one is skipped and reported.
pub const MAX_ASSET_BYTES: u64 = 10 * 1024 * 1024;

/// Most asset bytes (each content counted once) one edition keeps; assets
/// past it are skipped and reported.
pub const MAX_EDITION_ASSET_BYTES: u64 = 256 * 1024 * 1024;

/// Longest link target looked at.
const MAX_URL_LEN: usize = 2048;

/// File types kept as assets: extension → the `Content-Type` they are served with.
const TYPES: [(&str, &str); 14] = [
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("avif", "image/avif"),
    ("bmp", "image/bmp"),
    ("ico", "image/x-icon"),
    ("svg", "image/svg+xml"),
    ("pdf", "application/pdf"),
    ("zip", "application/zip"),
    ("txt", "text/plain; charset=utf-8"),
    ("json", "application/json"),
    ("csv", "text/csv; charset=utf-8"),
];

/// The `Content-Type` an asset path is served with, when its extension is
/// one Lectern keeps (case-insensitive); None for every other file.
pub fn content_type(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let (_, ext) = name.rsplit_once('.')?;
    let ext = ext.to_ascii_lowercase();
    TYPES.iter().find(|(e, _)| *e == ext).map(|(_, t)| *t)
}

/// Checks that `bytes` are what their `content_type` says (so a script
/// renamed `.png` is not served as an image) and, for SVG, that the image
/// runs nothing: Err(reason) otherwise.
pub fn sniff(content_type: &str, bytes: &[u8]) -> Result<(), String> {
    let starts = |magic: &[u8]| bytes.starts_with(magic);
    let ok = match content_type {
        "image/png" => starts(b"\x89PNG\r\n\x1a\n"),
        "image/jpeg" => starts(b"\xff\xd8\xff"),
        "image/gif" => starts(b"GIF87a") || starts(b"GIF89a"),
        "image/webp" => bytes.len() >= 12 && starts(b"RIFF") && &bytes[8..12] == b"WEBP",
        "image/avif" => bytes.len() >= 12 && (&bytes[4..12] == b"ftypavif" || &bytes[4..12] == b"ftypavis"),
        "image/bmp" => starts(b"BM"),
        "image/x-icon" => starts(b"\x00\x00\x01\x00"),
        "application/pdf" => starts(b"%PDF-"),
        "application/zip" => starts(b"PK\x03\x04") || starts(b"PK\x05\x06"),
        "image/svg+xml" => return svg_is_safe(bytes),
        "application/json" => {
            return serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
                .map(|_| ())
                .map_err(|e| format!("not valid JSON ({e}); skipped"));
        }
        _ => {
            return match std::str::from_utf8(bytes) {
                Ok(text) if !text.contains('\0') => Ok(()),
                _ => Err("not UTF-8 text; skipped".to_owned()),
            };
        }
    };
    if ok { Ok(()) } else { Err(format!("its content is not {content_type} as its extension says; skipped")) }
}

/// An SVG image is kept only when it is UTF-8 text holding an `<svg>` and
/// nothing that runs or loads code: no `<script>`, no event handler
/// attribute, no `javascript:` URL, no embedded HTML or objects.
fn svg_is_safe(bytes: &[u8]) -> Result<(), String> {
    let text =
        std::str::from_utf8(bytes).map_err(|_| "an SVG image that is not UTF-8 text; skipped".to_owned())?;
    let lower = text.to_ascii_lowercase();
    if !lower.contains("<svg") {
        return Err("its content is not an SVG image (no <svg> element); skipped".to_owned());
    }
    let refused = ["<script", "javascript:", "<foreignobject", "<iframe", "<embed", "<object", "<handler"];
    if let Some(what) = refused.iter().find(|w| lower.contains(*w)) {
        return Err(format!("an SVG image with active content ({what}); skipped"));
    }
    if has_event_attribute(&lower) {
        return Err("an SVG image with an event handler attribute (on...=); skipped".to_owned());
    }
    Ok(())
}

/// Whether lowercase markup has an `on…=` attribute (`onload="…"`).
fn has_event_attribute(lower: &str) -> bool {
    let bytes = lower.as_bytes();
    let mut from = 0;
    while let Some(i) = lower[from..].find("on") {
        let at = from + i;
        from = at + 2;
        let before = at.checked_sub(1).map(|j| bytes[j]);
        if !before.is_some_and(|b| b.is_ascii_whitespace() || b == b'/' || b == b'"' || b == b'\'') {
            continue;
        }
        let mut j = at + 2;
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'-' || bytes[j] == b':') {
            j += 1;
        }
        if j == at + 2 {
            continue;
        }
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        if bytes.get(j) == Some(&b'=') {
            return true;
        }
    }
    false
}

/// The link and image targets a page's Markdown holds, raw HTML's `<img
/// src>` and the first candidate of a `srcset` included.
pub(crate) fn references(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Image { dest_url, .. } | Tag::Link { dest_url, .. }) => {
                out.push(dest_url.into_string());
            }
            Event::Html(raw) | Event::InlineHtml(raw) => raw_sources(&raw, &mut out),
            _ => {}
        }
    }
    out
}

/// `src="…"`, `href="…"` and the first `srcset="…"` candidate of raw HTML.
fn raw_sources(raw: &str, out: &mut Vec<String>) {
    let lower = raw.to_ascii_lowercase();
    for attr in ["src=", "srcset=", "href="] {
        let mut from = 0;
        while let Some(i) = lower[from..].find(attr) {
            let at = from + i;
            from = at + attr.len();
            if at > 0 && !lower.as_bytes()[at - 1].is_ascii_whitespace() {
                continue;
            }
            let rest = &raw[from..];
            let value = match rest.chars().next() {
                Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or(""),
                _ => rest.split(|c: char| c.is_ascii_whitespace() || c == '>').next().unwrap_or(""),
            };
            let value = if attr == "srcset=" {
                value.split(',').next().unwrap_or("").split_whitespace().next().unwrap_or("")
            } else {
                value
            };
            if !value.is_empty() {
                out.push(value.replace("&amp;", "&"));
            }
        }
    }
}

/// The file inside the source a link target of a page names, when it may be
/// an asset: a relative path (against the page's file, `source_file`), or,
/// once HTML pages have had their links rewritten, a path under the
/// edition's `prefix`. None for external links, fragments, pages and paths
/// leaving the tree.
pub(crate) fn local_file(url: &str, source_file: &str, prefix: &str, rewritten: bool) -> Option<String> {
    let url = url.trim();
    if url.is_empty() || url.len() > MAX_URL_LEN || url.starts_with('#') || url.starts_with("//") {
        return None;
    }
    if crate::links::has_scheme(url) {
        return None;
    }
    let path = url.split(['#', '?']).next().unwrap_or_default();
    let decoded = String::from_utf8(paths::percent_decode_bytes(path)).ok()?;
    content_type(&decoded)?;
    let rel = if rewritten {
        let prefix = paths::normalize_prefix(prefix);
        decoded.strip_prefix(prefix)?.strip_prefix('/')?.to_owned()
    } else if decoded.starts_with('/') {
        return None;
    } else {
        paths::resolve(source_file, &decoded)?
    };
    (!rel.is_empty() && !rel.split('/').any(|s| s.starts_with('.'))).then_some(rel)
}

/// One asset of an edition: where the site serves it and what it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AssetEntry {
    /// The site path it is served at (`/python/_images/foo.png`).
    pub path: String,
    /// Its file inside the source.
    pub source_file: String,
    /// Hex SHA-256 of its bytes.
    pub hash: String,
    pub content_type: &'static str,
    pub size: u64,
    /// Where its bytes are in the spool.
    #[serde(skip)]
    at: u64,
}

/// What became of the assets pages reference.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct AssetSummary {
    /// Asset paths kept.
    pub kept: usize,
    /// Distinct contents kept, and their bytes.
    pub contents: usize,
    pub bytes: u64,
    /// Referenced but not in the tree.
    pub missing: usize,
    /// Skipped (too large, over the edition's budget, not what the extension
    /// says, an SVG with script, unreadable); each is also a problem.
    pub skipped: usize,
}

impl AssetSummary {
    /// One line for `add`'s summary.
    pub fn summary(&self) -> String {
        format!(
            "assets: {} kept ({} distinct, {} bytes), {} missing from the source, {} skipped",
            self.kept, self.contents, self.bytes, self.missing, self.skipped
        )
    }
}

/// Caps on the assets of one edition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AssetLimits {
    pub max_asset_bytes: u64,
    pub max_edition_bytes: u64,
}

impl Default for AssetLimits {
    fn default() -> Self {
        AssetLimits { max_asset_bytes: MAX_ASSET_BYTES, max_edition_bytes: MAX_EDITION_ASSET_BYTES }
    }
}

/// Asset bytes parked on disk, each content once.
pub(crate) struct AssetSpool {
    file: File,
    len: u64,
    /// Content hash → its offset in `file`.
    by_hash: HashMap<String, u64>,
}

impl AssetSpool {
    pub(crate) fn new() -> std::io::Result<AssetSpool> {
        Ok(AssetSpool { file: tempfile::tempfile()?, len: 0, by_hash: HashMap::new() })
    }

    /// The bytes of an asset.
    pub(crate) fn read(&self, entry: &AssetEntry) -> std::io::Result<Vec<u8>> {
        let len = usize::try_from(entry.size).map_err(std::io::Error::other)?;
        let mut bytes = vec![0u8; len];
        self.file.read_exact_at(&mut bytes, entry.at)?;
        Ok(bytes)
    }
}

/// A file's bytes read under a cap; Err(why not); None when the tree has no such file.
pub(crate) type Found = Option<Result<Vec<u8>, String>>;

/// Reads the referenced assets `wanted` (files inside the source) that the
/// tree holds (`find` gives a file's bytes under a cap, or why not) into
/// `spool`, within `limits`; returns their entries (sorted by path), what
/// was skipped and why, and the summary. `hash` sees every kept file's path
/// and bytes (the edition's content hash).
pub(crate) fn collect(
    wanted: &BTreeSet<String>,
    prefix: &str,
    limits: AssetLimits,
    spool: &mut AssetSpool,
    find: &mut dyn FnMut(&str, u64) -> Found,
    hash: &mut dyn FnMut(&str, &[u8]),
) -> std::io::Result<(Vec<AssetEntry>, Vec<crate::Problem>, AssetSummary)> {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    let mut summary = AssetSummary::default();
    for rel in wanted {
        let Some(content_type) = content_type(rel) else { continue };
        let bytes = match find(rel, limits.max_asset_bytes) {
            None => {
                summary.missing += 1;
                continue;
            }
            Some(Ok(bytes)) => bytes,
            Some(Err(reason)) => {
                summary.skipped += 1;
                problems.push(crate::Problem { path: rel.clone(), reason });
                continue;
            }
        };
        if let Err(reason) = sniff(content_type, &bytes) {
            summary.skipped += 1;
            problems.push(crate::Problem { path: rel.clone(), reason });
            continue;
        }
        let digest = hex::encode(Sha256::digest(&bytes));
        let at = match spool.by_hash.get(&digest) {
            Some(&at) => at,
            None => {
                if summary.bytes + bytes.len() as u64 > limits.max_edition_bytes {
                    summary.skipped += 1;
                    problems.push(crate::Problem {
                        path: rel.clone(),
                        reason: format!(
                            "the edition's assets would pass {} bytes ({} MiB, the most one edition keeps); skipped",
                            limits.max_edition_bytes,
                            limits.max_edition_bytes / (1024 * 1024)
                        ),
                    });
                    continue;
                }
                let at = spool.len;
                spool.file.write_all_at(&bytes, at)?;
                spool.len += bytes.len() as u64;
                spool.by_hash.insert(digest.clone(), at);
                summary.contents += 1;
                summary.bytes += bytes.len() as u64;
                at
            }
        };
        hash(rel, &bytes);
        summary.kept += 1;
        entries.push(AssetEntry {
            path: paths::join(prefix, rel),
            source_file: rel.clone(),
            hash: digest,
            content_type,
            size: bytes.len() as u64,
            at,
        });
    }
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((entries, problems, summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_an_allowlist_by_extension() {
        assert_eq!(content_type("_images/a.PNG"), Some("image/png"));
        assert_eq!(content_type("x/logo.svg"), Some("image/svg+xml"));
        assert_eq!(content_type("a.html"), None);
        assert_eq!(content_type("a.js"), None);
        assert_eq!(content_type("noext"), None);
    }

    #[test]
    fn content_must_match_its_extension() {
        assert!(sniff("image/png", b"\x89PNG\r\n\x1a\nrest").is_ok());
        assert!(sniff("image/png", b"<script>alert(1)</script>").is_err());
        assert!(sniff("image/gif", b"GIF89a...").is_ok());
        assert!(sniff("application/pdf", b"%PDF-1.7").is_ok());
        assert!(sniff("application/json", b"{\"a\": 1}").is_ok());
        assert!(sniff("application/json", b"{nope").is_err());
        assert!(sniff("text/plain; charset=utf-8", b"hello\n").is_ok());
        assert!(sniff("text/plain; charset=utf-8", b"\xff\xfe\x00").is_err());
    }

    #[test]
    fn svg_with_script_or_handlers_is_refused() {
        let plain = br#"<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>"#;
        assert!(sniff("image/svg+xml", plain).is_ok());
        for bad in [
            &br#"<svg><script>alert(1)</script></svg>"#[..],
            br#"<svg onload="alert(1)"></svg>"#,
            br#"<svg><a href="javascript:alert(1)">x</a></svg>"#,
            br#"<svg><foreignObject><iframe/></foreignObject></svg>"#,
            br#"<svg><rect ONCLICK = 'x'/></svg>"#,
        ] {
            assert!(sniff("image/svg+xml", bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        // An attribute merely containing "on" is not a handler.
        assert!(sniff("image/svg+xml", br#"<svg><polygon points="1 2"/><text>done</text></svg>"#).is_ok());
        assert!(sniff("image/svg+xml", b"just text").is_err());
    }

    #[test]
    fn references_find_images_links_and_raw_sources() {
        let md = "![a](img/x.png) [pdf](../files/a.pdf#p2)\n\n<img src=\"raw.gif\" alt=x>\n\n\
                  <picture><source srcset=\"big.webp 2x, small.webp 1x\"></picture>\n";
        let refs = references(md);
        for want in ["img/x.png", "../files/a.pdf#p2", "raw.gif", "big.webp"] {
            assert!(refs.iter().any(|r| r == want), "{want} in {refs:?}");
        }
    }

    #[test]
    fn local_files_stay_in_the_tree() {
        assert_eq!(local_file("img/x.png", "guide/a.md", "/app", false).as_deref(), Some("guide/img/x.png"));
        assert_eq!(
            local_file("../img/x%20y.png", "guide/a.md", "/app", false).as_deref(),
            Some("img/x y.png")
        );
        assert_eq!(local_file("../../x.png", "guide/a.md", "/app", false), None);
        assert_eq!(local_file("https://e.org/x.png", "a.md", "/app", false), None);
        assert_eq!(local_file("/x.png", "a.md", "/app", false), None);
        assert_eq!(local_file("other.md", "a.md", "/app", false), None);
        assert_eq!(local_file(".hidden/x.png", "a.md", "/app", false), None);
        assert_eq!(
            local_file("/py/_images/a.png", "library/x.html", "/py", true).as_deref(),
            Some("_images/a.png")
        );
        assert_eq!(local_file("/other/a.png", "x.html", "/py", true), None);
    }
}
