//! Names a manual defines in its variable lists (DocBook `<varlistentry>`,
//! HTML `<dl>`): configuration settings (`<dt id="GUC-WORK-MEM"><code
//! class="varname">work_mem</code>`) and command-line options (`<code
//! class="option">--data-only</code>`), as symbols of the section holding
//! their definition, so that a search for the name finds its definition
//! before the pages that only mention it.

use std::collections::HashSet;

use ego_tree::{NodeId, NodeRef};
use scraper::Node;

use crate::page::{Section, Symbol};
use crate::text::nfc;

/// Longest name kept (a whole sentence in a `<code>` is not a name).
const MAX_NAME_BYTES: usize = 100;

/// The `<code>` classes that name what a list item defines, and the kind
/// each becomes.
const NAME_CLASSES: [(&str, &str); 2] = [("varname", "Setting"), ("option", "Option")];

/// Each term of each `<dt>` whose name is a setting or an option, attached
/// to the section the `<dt>` falls in: `cuts` are the headings that start
/// sections, in the order `sections` holds them (the lead section, without
/// an anchor, comes before the first). A `<dt>` with an id adds the id too
/// (`GUC-WORK-MEM`), as the manual's own name for the entry.
pub(crate) fn varlist_symbols(
    root: NodeRef<'_, Node>,
    cuts: &HashSet<NodeId>,
    sections: &[Section],
) -> Vec<Symbol> {
    let anchors: Vec<&str> = sections.iter().filter_map(|s| s.anchor.as_deref()).collect();
    let mut cut = 0usize;
    let mut out: Vec<Symbol> = Vec::new();
    for node in root.descendants() {
        if cuts.contains(&node.id()) {
            cut += 1;
            continue;
        }
        let Some(el) = node.value().as_element() else { continue };
        if el.name() != "dt" {
            continue;
        }
        // The section the term falls in; past the last known one (a heading
        // the converter dropped) the lead section.
        let anchor = cut.checked_sub(1).and_then(|i| anchors.get(i)).map(|a| (*a).to_owned());
        let before = out.len();
        for term in node.children().filter(|c| is_element(*c, "span", Some("term"))) {
            if let Some((name, kind)) = term_name(term) {
                push(&mut out, name, kind, &anchor);
            }
        }
        if out.len() > before
            && let Some(id) = el.id().filter(|id| id.len() <= MAX_NAME_BYTES && !id.starts_with("id-"))
        {
            let kind = out[before].kind.clone();
            push(&mut out, id.to_owned(), &kind, &anchor);
        }
    }
    out
}

fn push(out: &mut Vec<Symbol>, name: String, kind: &str, anchor: &Option<String>) {
    if !out.iter().any(|s| s.name == name && s.anchor == *anchor) {
        out.push(Symbol { name, kind: kind.to_owned(), anchor: anchor.clone() });
    }
}

fn is_element(node: NodeRef<'_, Node>, name: &str, class: Option<&str>) -> bool {
    node.value()
        .as_element()
        .is_some_and(|e| e.name() == name && class.is_none_or(|c| e.classes().any(|k| k == c)))
}

/// The name a `<span class="term">` defines: its first `<code>` of a name
/// class, up to an `=` or a space (`--format=format`, `-F format` name
/// `--format`, `-F`).
fn term_name(term: NodeRef<'_, Node>) -> Option<(String, &'static str)> {
    for child in term.children() {
        let Some(el) = child.value().as_element() else { continue };
        if el.name() != "code" {
            continue;
        }
        let (_, kind) = NAME_CLASSES.iter().find(|(class, _)| el.classes().any(|k| k == *class))?;
        let text: String = child.descendants().filter_map(|d| d.value().as_text().map(|t| &**t)).collect();
        let name = text.trim().split(['=', ' ', '\n', '\t', '[']).next().unwrap_or("").trim_end_matches(',');
        let useful =
            !name.is_empty() && name.len() <= MAX_NAME_BYTES && name.chars().any(char::is_alphanumeric);
        return useful.then(|| (nfc(name), *kind));
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::html_to_page;

    #[test]
    fn settings_and_options_become_symbols_of_their_section() {
        let html = r#"<html><body><div class="sect1" id="CONFIG">
<h2 class="title">20.4. Resource Consumption</h2>
<p>Intro.</p>
<div class="sect2" id="CONFIG-MEMORY"><h3 class="title">20.4.1. Memory</h3>
<div class="variablelist"><dl class="variablelist">
<dt id="GUC-WORK-MEM"><span class="term"><code class="varname">work_mem</code> (<code class="type">integer</code>)</span></dt>
<dd><p>Sets the base maximum amount of memory.</p></dd>
</dl></div></div>
<div class="sect2" id="OPTS"><h3 class="title">Options</h3>
<dl><dt><span class="term"><code class="option">-a</code><br></span><span class="term"><code class="option">--data-only</code></span></dt>
<dd><p>Dump only the data.</p></dd>
<dt><span class="term"><code class="option">--format=<em class="replaceable"><code>format</code></em></code></span></dt><dd><p>f</p></dd>
<dt><span class="term"><em class="replaceable"><code>dbname</code></em></span></dt><dd><p>not a name</p></dd>
</dl></div></div></body></html>"#;
        let page = html_to_page(html.as_bytes(), "config.html", "/pg").unwrap();
        let got: Vec<(&str, &str, Option<&str>)> =
            page.symbols.iter().map(|s| (s.name.as_str(), s.kind.as_str(), s.anchor.as_deref())).collect();
        assert_eq!(
            got,
            [
                ("work_mem", "Setting", Some("CONFIG-MEMORY")),
                ("GUC-WORK-MEM", "Setting", Some("CONFIG-MEMORY")),
                ("-a", "Option", Some("OPTS")),
                ("--data-only", "Option", Some("OPTS")),
                ("--format", "Option", Some("OPTS")),
            ]
        );
        assert!(page.sections.iter().any(|s| s.anchor.as_deref() == Some("CONFIG-MEMORY")));
    }
}
