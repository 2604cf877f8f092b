//! API index pages of HTML manuals a generator wrote without an inventory
//! (SQLite's `c3ref/funclist`, texinfo and Doxygen function lists): a page
//! whose links are mostly code names (`sqlite3_open`, `os.path.join`,
//! `std::vector`) names the pages they point at, so each name becomes a
//! symbol of its target and a query for it finds its definition.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use crate::page::Symbol;

/// Code-name links a page needs to count as an API index (and they must be
/// two links in three at least).
const MIN_NAMES: usize = 20;
/// Entries kept from all the index pages of one source (memory stays bounded).
pub(crate) const MAX_ENTRIES: usize = 200_000;
/// Most Markdown bytes per link of a page read as a possible index: an
/// index is mostly links, and prose pages are skipped without parsing them.
const MAX_BYTES_PER_LINK: usize = 200;
/// Longest name taken.
const MAX_NAME_CHARS: usize = 200;

/// The `(target path, symbol)` pairs of an API index page (links within the
/// edition at `prefix` whose text is a code name, when most of the page's
/// links are); None for any other page.
pub(crate) fn entries(markdown: &str, prefix: &str) -> Option<Vec<(String, Symbol)>> {
    let written = markdown.matches("](").count();
    if written < MIN_NAMES || markdown.len() > written * MAX_BYTES_PER_LINK {
        return None;
    }
    let mut out = Vec::new();
    let (mut links, mut link): (usize, Option<(String, String)>) = (0, None);
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => {
                links += 1;
                link = Some((dest_url.to_string(), String::new()));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, text)) = &mut link {
                    text.push_str(&t);
                }
            }
            Event::End(TagEnd::Link) => {
                let Some((url, text)) = link.take() else { continue };
                let name = text.trim().trim_end_matches("()");
                let within =
                    url.strip_prefix(prefix).is_some_and(|r| r.is_empty() || r.starts_with(['/', '#']));
                if within && is_code_name(name) {
                    let (path, anchor) = match url.split_once('#') {
                        Some((p, a)) => (p.to_owned(), Some(a.to_owned()).filter(|a| !a.is_empty())),
                        None => (url.clone(), None),
                    };
                    out.push((
                        path,
                        Symbol { name: name.to_owned(), kind: "Entry".to_owned(), anchor, entry: None },
                    ));
                }
            }
            _ => {}
        }
    }
    (out.len() >= MIN_NAMES && out.len() * 3 >= links * 2).then_some(out)
}

/// Whether a link's text is a code name: one token of identifier characters
/// that a prose word would not be (`_`, `.`, `::`, `->`, a digit, or an
/// inner capital: `sqlite3_open`, `os.path.join`, `Vec::new`, `getElementById`).
fn is_code_name(text: &str) -> bool {
    let chars = text.chars().count();
    if !(2..=MAX_NAME_CHARS).contains(&chars)
        || !text.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$')
    {
        return false;
    }
    if !text.chars().all(|c| c.is_alphanumeric() || "_.:$->~".contains(c)) || text.ends_with(['.', ':', '-'])
    {
        return false;
    }
    let inner_capital =
        text.as_bytes().windows(2).any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    text.contains(['_', '.'])
        || text.contains("::")
        || text.contains("->")
        || inner_capital
        || text.chars().any(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_names_are_told_from_words() {
        for name in
            ["sqlite3_open", "os.path.join", "Vec::new", "getElementById", "p->next", "$http.get", "_init"]
        {
            assert!(is_code_name(name), "{name}");
        }
        for word in ["Home", "Next", "Overview", "Table of contents", "e.g.", "1.2", "a", "x-y", "README"] {
            assert!(!is_code_name(word), "{word}");
        }
    }

    #[test]
    fn a_list_of_code_names_is_an_index_and_prose_is_not() {
        let mut md = String::from("# Functions\n\n[Home](/db/index)\n\n");
        for i in 0..25 {
            md.push_str(&format!("- [db_call_{i}](/db/c/call{i}#db-call-{i})\n"));
        }
        md.push_str("- [`db_open()`](/db/c/open)\n- [elsewhere_fn](https://example.org/x)\n");
        let found = entries(&md, "/db").expect("an index");
        assert_eq!(found.len(), 26);
        assert_eq!(found[0].0, "/db/c/call0");
        assert_eq!(found[0].1.name, "db_call_0");
        assert_eq!(found[0].1.anchor.as_deref(), Some("db-call-0"));
        assert_eq!(found[25].1.name, "db_open");
        assert_eq!(found[25].1.anchor, None);

        let prose = "See [the guide](/db/guide) and [db_open](/db/c/open).\n".repeat(30);
        assert_eq!(entries(&prose, "/db"), None, "half the links are not code names");
        assert_eq!(entries("- [db_open](/db/c/open)\n", "/db"), None, "too few names");
    }
}
