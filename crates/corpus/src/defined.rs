//! Terms a page marks where it defines them: HTML's defining instance
//! (`<dfn>`), DocBook's first use of a term (`<em class="firstterm">`, as
//! PostgreSQL's manual writes "an *operator class* defines…" and its
//! translation "*操作符类*"), Sphinx's `:dfn:` role (`<em class="dfn">`).
//! Each becomes a symbol of the section it stands in, so a search for the
//! term finds the section that says what it is before those that use it.

use ego_tree::NodeRef;
use scraper::{Node, node::Element};

use crate::page::{DEFINED_TERM, Symbol};
use crate::text::{collapse_whitespace, nfc};

/// Longest term taken, in chars: a longer run is a phrase in italics.
const MAX_TERM_CHARS: usize = 60;
/// Most text read from a mark (whitespace included) before it is no term.
const MAX_TERM_BYTES: usize = 4 * MAX_TERM_CHARS + 256;
/// Most words in a term taken (Latin script).
const MAX_TERM_WORDS: usize = 5;
/// Most defined terms taken from one page.
const MAX_PER_PAGE: usize = 500;

/// True for an element that marks the defining use of a term.
pub(crate) fn is_definition(el: &Element) -> bool {
    el.name() == "dfn" || el.classes().any(|c| c == "firstterm" || c == "dfn")
}

/// The term a defining element names, as text, or None when its text is
/// no term (empty, a sentence, punctuation alone).
pub(crate) fn term(node: NodeRef<'_, Node>) -> Option<String> {
    // Reading stops once the text is too long to be a term, so that a mark
    // around a whole page (or marks nested in marks) costs little.
    let mut text = String::new();
    for n in node.descendants() {
        if let Node::Text(t) = n.value() {
            text.push_str(t);
            if text.len() > MAX_TERM_BYTES {
                return None;
            }
        }
    }
    let name = collapse_whitespace(&text);
    let name =
        name.trim_matches(|c: char| c.is_whitespace() || "\"'“”‘’「」《》()（）,，.。:：;；¶#".contains(c));
    let chars = name.chars().count();
    let words = name.split_whitespace().count();
    let fits = chars > 0 && chars <= MAX_TERM_CHARS && words <= MAX_TERM_WORDS;
    (fits && name.chars().any(char::is_alphanumeric)).then(|| nfc(name))
}

/// Terms defined on a page (name, the anchor of the section holding it)
/// as symbols, each name once per section, at most [`MAX_PER_PAGE`].
#[derive(Default)]
pub(crate) struct Defined {
    symbols: Vec<Symbol>,
}

impl Defined {
    /// Notes `name`, defined in the section with `anchor` (None: the lead).
    pub(crate) fn add(&mut self, name: String, anchor: Option<&str>) {
        if self.symbols.len() >= MAX_PER_PAGE {
            return;
        }
        let anchor = anchor.map(str::to_owned);
        if !self.symbols.iter().any(|s| s.name == name && s.anchor == anchor) {
            self.symbols.push(Symbol { name, kind: DEFINED_TERM.to_owned(), anchor, entry: None });
        }
    }

    pub(crate) fn into_symbols(self) -> Vec<Symbol> {
        self.symbols
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    fn first(html: &str) -> (bool, Option<String>) {
        let doc = Html::parse_fragment(html);
        let node = doc
            .tree
            .root()
            .descendants()
            .find(|n| n.value().as_element().is_some_and(|e| matches!(e.name(), "em" | "dfn" | "span")))
            .expect("an element");
        let el = node.value().as_element().expect("an element");
        (is_definition(el), term(node))
    }

    #[test]
    fn definitions_are_marked_terms() {
        assert_eq!(
            first(r#"<em class="firstterm">operator class</em>"#),
            (true, Some("operator class".into()))
        );
        assert_eq!(first(r#"<em class="firstterm">操作符类</em>"#), (true, Some("操作符类".into())));
        assert_eq!(first("<dfn>\n  write-ahead\n  log </dfn>"), (true, Some("write-ahead log".into())));
        assert_eq!(first(r#"<em class="dfn">(toolchain)</em>"#), (true, Some("toolchain".into())));
        // Emphasis is not a definition.
        assert!(!first("<em>operator class</em>").0);
        assert!(!first(r#"<span class="glossterm">x</span>"#).0);
    }

    #[test]
    fn long_or_empty_marks_are_no_terms() {
        assert_eq!(first("<dfn>  </dfn>").1, None);
        assert_eq!(first("<dfn>—</dfn>").1, None);
        assert_eq!(first("<dfn>a term that runs on for far too many words</dfn>").1, None);
        let long = "字".repeat(MAX_TERM_CHARS + 1);
        assert_eq!(first(&format!("<dfn>{long}</dfn>")).1, None);
        let page = "word ".repeat(10_000);
        assert_eq!(first(&format!("<dfn>{page}</dfn>")).1, None);
    }

    #[test]
    fn each_term_once_per_section() {
        let mut defined = Defined::default();
        defined.add("snapshot".into(), Some("a"));
        defined.add("snapshot".into(), Some("a"));
        defined.add("snapshot".into(), None);
        let symbols = defined.into_symbols();
        assert_eq!(symbols.len(), 2);
        assert!(symbols.iter().all(|s| s.kind == DEFINED_TERM));
    }
}
