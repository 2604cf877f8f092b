//! rustdoc's item pages (`<meta name="generator" content="rustdoc">`).
//! Newer rustdoc heads an item's page with its kind and bare name ("Struct
//! Vec") and keeps its path for the `<title>` ("Vec in std::vec -
//! Rust"); the page is titled by both ("Struct std::vec::Vec"), as rustdoc
//! once titled it, so the item is found by its full name and by its own,
//! and its methods by `Vec::retain`.

/// The generator mark ([`crate::generated::generator_mark`]) of rustdoc's pages.
pub(crate) fn is_rustdoc(mark: Option<&str>) -> bool {
    mark == Some("rustdoc")
}

/// The kinds rustdoc names an item's file by (`struct.Vec.html`), with the
/// word its heading says it with.
const KINDS: [(&str, &str); 14] = [
    ("struct", "Struct"),
    ("enum", "Enum"),
    ("trait", "Trait"),
    ("traitalias", "Trait Alias"),
    ("union", "Union"),
    ("fn", "Function"),
    ("macro", "Macro"),
    ("attr", "Attribute Macro"),
    ("derive", "Derive Macro"),
    ("type", "Type Alias"),
    ("constant", "Constant"),
    ("static", "Static"),
    ("primitive", "Primitive Type"),
    ("keyword", "Keyword"),
];

/// The title of a rustdoc page given its heading ("Struct Vec", "Module
/// vec"), its `<title>` ("Vec in std::vec - Rust", "std::vec - Rust") and
/// its file (`vec/struct.Vec.html`, `vec/index.html`): the kind and the
/// item's full path ("Struct std::vec::Vec", "Module std::vec"). None where
/// they do not agree, or say nothing more than the heading.
pub(crate) fn item_title(heading: &str, doc_title: &str, rel_file: &str) -> Option<String> {
    let head = doc_title.trim();
    let head = head.strip_suffix(" - Rust").unwrap_or(head).trim();
    let file = rel_file.rsplit('/').next().unwrap_or(rel_file);
    let is_path = |p: &str| !p.is_empty() && p.split("::").all(is_identifier);
    if file == "index.html" {
        // A module's page: "Module vec" under "std::vec"; a crate's: "Crate std" under "std".
        let (kind, name) = heading.split_once(' ')?;
        let qualified = (matches!(kind, "Module" | "Crate")
            && is_path(head)
            && head.rsplit("::").next() == Some(name.trim()))
        .then(|| format!("{kind} {head}"));
        return qualified.filter(|t| t != heading);
    }
    let (kind, rest) = file.strip_suffix(".html")?.split_once('.')?;
    let word = KINDS.iter().find(|(k, _)| *k == kind)?.1;
    let (name, path) = head.split_once(" in ")?;
    (name == rest && is_identifier(name) && is_path(path)).then(|| format!("{word} {path}::{name}"))
}

fn is_identifier(s: &str) -> bool {
    s.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::item_title;

    #[test]
    fn an_items_page_is_titled_by_its_kind_and_full_path() {
        let t = |h: &str, d: &str, f: &str| item_title(h, d, f);
        assert_eq!(
            t("Struct Vec", "Vec in std::vec - Rust", "vec/struct.Vec.html").as_deref(),
            Some("Struct std::vec::Vec")
        );
        assert_eq!(
            t("Function read_to_string", "read_to_string in std::fs - Rust", "fs/fn.read_to_string.html")
                .as_deref(),
            Some("Function std::fs::read_to_string")
        );
        assert_eq!(
            t("Macro println", "println in std - Rust", "macro.println.html").as_deref(),
            Some("Macro std::println")
        );
        assert_eq!(t("Module vec", "std::vec - Rust", "vec/index.html").as_deref(), Some("Module std::vec"));
        assert_eq!(t("Crate std", "std - Rust", "index.html"), None);
        // Nothing more to say, or nothing that agrees.
        assert_eq!(t("Primitive Type str", "str - Rust", "primitive.str.html"), None);
        assert_eq!(t("Struct Vec", "Vec in std::vec - Rust", "vec/notes.html"), None);
        assert_eq!(t("Struct Vec", "Vec - Rust", "vec/struct.Vec.html"), None);
        assert_eq!(t("Module vec", "Vectors - Rust", "vec/index.html"), None);
    }
}
