//! What the HTML parser knows of tag names (void and raw-text elements),
//! and the byte scans that read tags without parsing: the shape check
//! before parsing (`html`) and XHTML's empty elements (`xhtml`) share them;
//! and whether a parsed element has a class, which the readers of pages
//! (`html`, `api_pages`, `generated`) share.

use scraper::node::Element;

/// True when `el` has `class` among its classes.
pub(crate) fn has_class(el: &Element, class: &str) -> bool {
    el.classes().any(|c| c == class)
}

/// Void elements: they never hold anything, so they never nest.
pub(crate) const VOID: [&str; 18] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    "param", "basefont", "bgsound", "frame", "keygen",
];

/// Elements whose content is raw text up to their own end tag: tags inside
/// are not tags.
pub(crate) const RAW_TEXT: [&str; 8] =
    ["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"];

/// Where `needle` first occurs in `hay`.
pub(crate) fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}

/// Where `needle` next occurs in `hay` from `from`.
pub(crate) fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| from + p)
}

/// [`find`] with ASCII letters matched in either case.
pub(crate) fn find_ignore_case(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle)).map(|p| from + p)
}
