//! GNU Texinfo manuals (bash, zsh, make, gawk…) written by `makeinfo` /
//! `texi2any`: their index entries (`@findex bindkey`, `@vindex HISTFILE`,
//! `@cindex glob qualifiers`) as symbols, and their index pages as listings.
//!
//! texi2any marks each entry where the manual makes it with an empty
//! element whose id is `index-` and the entry's text, encoded: a space is
//! `-`, every other character but ASCII letters and digits is `_` and four
//! hex digits (`_005f` for `_`, `_002c` for `,`), and a repeated entry gets
//! `-1`, `-2`… So the id alone names the entry, and the section holding the
//! element is where the manual's own index sends a reader looking for it.

use ego_tree::NodeRef;
use scraper::Node;

use crate::page::Symbol;
use crate::text::nfc;

/// Entries kept from one page (zsh's Options page marks about 1,000).
const MAX_ENTRIES: usize = 5000;
/// Longest entry taken, in characters.
const MAX_NAME_CHARS: usize = 100;
/// The text inside the index tables must be at least this share of a page's
/// for the page to be an index: a one-page manual (bash's `bashref.html`)
/// holds its indexes at the end of its text.
const INDEX_SHARE: f64 = 0.5;

/// True for a page `makeinfo` or `texi2any` wrote, by the generator's
/// mark in its `<head>` (its `<meta name="generator">`, lowercase).
pub(crate) fn is_texinfo(mark: Option<&str>) -> bool {
    mark.is_some_and(|c| c.starts_with("makeinfo") || c.starts_with("texi2any") || c.starts_with("texinfo"))
}

/// The index entries marked below `root`, each named once, anchored at its
/// first mark.
pub(crate) fn index_symbols(root: NodeRef<'_, Node>) -> Vec<Symbol> {
    let mut symbols: Vec<Symbol> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for el in root.descendants().filter_map(|n| n.value().as_element()) {
        let Some(id) = el.id() else { continue };
        let Some(name) = entry_name(id) else { continue };
        if seen.insert(name.clone()) {
            symbols.push(Symbol { name, kind: "Entry".to_owned(), anchor: Some(id.to_owned()), entry: None });
            if symbols.len() >= MAX_ENTRIES {
                break;
            }
        }
    }
    symbols
}

/// The entry an `index-…` id names (`index-NULL_005fGLOB` → `NULL_GLOB`,
/// `index-typeset_002c-use-of-1` → `typeset, use of`, `index-_002e` → `.`,
/// bash's `.` builtin); None for any other id, or one that does not decode.
fn entry_name(id: &str) -> Option<String> {
    let encoded = id.strip_prefix("index-")?;
    // A repeated entry's counter.
    let encoded = match encoded.rsplit_once('-') {
        Some((head, n)) if !head.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => encoded,
    };
    let mut name = String::new();
    let mut chars = encoded.chars();
    while let Some(c) = chars.next() {
        match c {
            '-' => name.push(' '),
            '_' => {
                // `__` and six hex digits for a character past U+FFFF.
                let rest = chars.as_str();
                let (digits, len) =
                    if let Some(wide) = rest.strip_prefix('_') { (wide, 6) } else { (rest, 4) };
                let hex = digits.get(..len)?;
                name.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
                let skip = len + usize::from(len == 6);
                chars = rest.get(skip..)?.chars();
            }
            c if c.is_ascii_alphanumeric() => name.push(c),
            _ => return None,
        }
    }
    let name = name.trim();
    let fits = !name.is_empty() && name.chars().count() <= MAX_NAME_CHARS;
    fits.then(|| nfc(name))
}

/// True for a page that is mostly a printed index (`@printindex`: tables
/// of class `index-cp`, `index-fn`… in Texinfo 6, `cp-entries-printindex`
/// in Texinfo 7).
pub(crate) fn is_index_page(root: NodeRef<'_, Node>) -> bool {
    let is_index_table = |n: &NodeRef<'_, Node>| {
        n.value().as_element().is_some_and(|e| {
            e.name() == "table" && e.classes().any(|c| c.starts_with("index-") || c.ends_with("-printindex"))
        })
    };
    let tables: Vec<NodeRef<'_, Node>> = root.descendants().filter(is_index_table).collect();
    if tables.is_empty() {
        return false;
    }
    let chars = |n: NodeRef<'_, Node>| -> usize {
        n.descendants()
            .filter_map(|d| {
                if let Node::Text(t) = d.value() {
                    Some(t.chars().filter(|c| !c.is_whitespace()).count())
                } else {
                    None
                }
            })
            .sum()
    };
    let in_tables: usize = tables.into_iter().map(chars).sum();
    in_tables as f64 >= INDEX_SHARE * chars(root).max(1) as f64
}

#[cfg(test)]
mod tests {
    use scraper::Html;

    use super::*;

    #[test]
    fn ids_decode_to_entries() {
        assert_eq!(entry_name("index-bindkey").as_deref(), Some("bindkey"));
        assert_eq!(entry_name("index-NULL_005fGLOB").as_deref(), Some("NULL_GLOB"));
        assert_eq!(entry_name("index-typeset_002c-use-of-1").as_deref(), Some("typeset, use of"));
        assert_eq!(entry_name("index-glob-qualifiers").as_deref(), Some("glob qualifiers"));
        assert_eq!(entry_name("index-_002e").as_deref(), Some("."));
        assert_eq!(entry_name("index-set_002dmark-_0028C_002d_0040_0029").as_deref(), Some("set-mark (C-@)"));
        assert_eq!(entry_name("index-smile__01f600").as_deref(), Some("smile\u{1f600}"));
        // Not an entry, or not one that decodes.
        assert_eq!(entry_name("Glob-Qualifiers"), None);
        assert_eq!(entry_name("index-"), None);
        assert_eq!(entry_name("index-a_00zz"), None);
        assert_eq!(entry_name("index-a.b"), None);
        assert_eq!(entry_name("index-_0020"), None);
    }

    fn html(body: &str) -> Html {
        Html::parse_document(&format!(
            "<html><head><meta name=\"Generator\" content=\"texi2any\"></head><body>{body}</body></html>"
        ))
    }

    #[test]
    fn entries_are_named_once() {
        let doc = html(
            "<p>x</p><span id=\"index-HISTFILE\"></span><dl><dt>HISTFILE</dt></dl>\
             <span id=\"index-HISTFILE-1\"></span><a id=\"Parameters\"></a>",
        );
        // The mark of `html`'s pages, lowercase.
        assert!(is_texinfo(Some("texi2any")));
        let symbols = index_symbols(doc.tree.root());
        let got: Vec<(&str, Option<&str>)> =
            symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
        assert_eq!(got, [("HISTFILE", Some("index-HISTFILE"))]);
        assert!(!is_texinfo(Some("sphinx 7")));
        assert!(!is_texinfo(None));
    }

    #[test]
    fn an_index_page_is_mostly_its_tables() {
        let rows = "<tr><td><a href=\"a.html#index-x\"><code>x</code></a></td></tr>".repeat(20);
        let index = html(&format!("<h2>Options Index</h2><table class=\"index-pg\">{rows}</table>"));
        assert!(is_index_page(index.tree.root()));
        let seven = html(&format!("<table class=\"cp-entries-printindex\">{rows}</table>"));
        assert!(is_index_page(seven.tree.root()));
        let prose = "<p>Some long text about the shell and what it does with words.</p>".repeat(20);
        let manual = html(&format!("{prose}<table class=\"index-fn\">{rows}</table>"));
        assert!(!is_index_page(manual.tree.root()));
    }
}
