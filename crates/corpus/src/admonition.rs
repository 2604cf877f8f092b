//! DocBook admonitions set with graphics: DocBook XSL's `admon.graphics`
//! (Debian's debian-reference, in every language) writes a note as a
//! table, its icon in one cell, its label in a `<th>` beside it, its text
//! in the row below:
//!
//! ```html
//! <div class="note"><table border="0" summary="Note">
//!   <tr><td rowspan="2"><img alt="[Note]" src="images/note.png"/></td><th>Note</th></tr>
//!   <tr><td><p>text…</p></td></tr>
//! </table></div>
//! ```
//!
//! Read as a table, the label came twice (the icon's alt text, then the
//! `<th>`: `Note | Note`) and every note's words sat in table cells. The
//! HTML converter reads it as the same note without graphics: the label a
//! caption, then the text.

use ego_tree::NodeRef;
use scraper::Node;

/// Classes DocBook XSL gives an admonition's `<div>`.
const CLASSES: [&str; 5] = ["note", "tip", "warning", "caution", "important"];

/// The most rows an admonition's table has (label row, text row).
const MAX_ROWS: usize = 2;

/// The parts of an admonition set as a table, its icon left out.
pub(crate) struct Admonition<'a> {
    /// The `<th>` holding its label (Note, 注記, Nota) and any anchor, when
    /// it has a label.
    pub(crate) label: Option<NodeRef<'a, Node>>,
    /// The cells holding its text, in order.
    pub(crate) body: Vec<NodeRef<'a, Node>>,
}

/// The parts of `table` when it sets an admonition: the table is the
/// child of a `<div>` of an admonition's class, has at most two rows, and
/// one of its cells holds an image and no text (the icon). None otherwise:
/// any other table stays a table.
pub(crate) fn graphical(table: NodeRef<'_, Node>) -> Option<Admonition<'_>> {
    let el = table.value().as_element()?;
    let parent = table.parent()?;
    let div = parent.value().as_element()?;
    if el.name() != "table" || div.name() != "div" || !div.classes().any(|c| CLASSES.contains(&c)) {
        return None;
    }
    let mut rows = Vec::new();
    for child in table.children() {
        match child.value().as_element().map(|e| e.name()) {
            Some("tr") => rows.push(child),
            // The parser puts the rows in a `<tbody>` of its own.
            Some("tbody" | "thead" | "tfoot") => {
                rows.extend(child.children().filter(|r| is_named(*r, &["tr"])))
            }
            _ => {}
        }
    }
    if rows.is_empty() || rows.len() > MAX_ROWS {
        return None;
    }
    let mut icon = false;
    let mut admonition = Admonition { label: None, body: Vec::new() };
    for cell in rows.iter().flat_map(|r| r.children()).filter(|c| is_named(*c, &["td", "th"])) {
        let text = has_text(cell);
        if !text && cell.descendants().any(|d| is_named(d, &["img"])) {
            icon = true;
        } else if text && admonition.label.is_none() && is_named(cell, &["th"]) {
            admonition.label = Some(cell);
        } else {
            admonition.body.push(cell);
        }
    }
    icon.then_some(admonition)
}

fn is_named(node: NodeRef<'_, Node>, names: &[&str]) -> bool {
    node.value().as_element().is_some_and(|e| names.contains(&e.name()))
}

/// Whether any text but whitespace is below `node`.
fn has_text(node: NodeRef<'_, Node>) -> bool {
    node.descendants().any(|d| d.value().as_text().is_some_and(|t| !t.trim().is_empty()))
}

#[cfg(test)]
mod tests {
    use scraper::Html;

    use super::*;

    /// The admonition's parts in `html`, by their text.
    fn parts(html: &str) -> Option<(Option<String>, Vec<String>)> {
        let doc = Html::parse_document(html);
        let table = doc.tree.root().descendants().find(|n| is_named(*n, &["table"]))?;
        let text = |n: NodeRef<'_, Node>| {
            n.descendants()
                .filter_map(|d| d.value().as_text().map(|t| t.trim().to_owned()))
                .collect::<String>()
        };
        let admonition = graphical(table)?;
        Some((admonition.label.map(text), admonition.body.into_iter().map(text).collect()))
    }

    #[test]
    fn finds_the_label_and_text_of_a_docbook_admonition_table() {
        let note = r#"<div class="note"><table border="0" summary="Note"><tr><td rowspan="2">
            <img alt="[注記]" src="images/note.png"/></td><th align="left"><a name="n1"></a>注記</th></tr>
            <tr><td align="left"><p>本文</p></td></tr></table></div>"#;
        assert_eq!(parts(note), Some((Some("注記".to_owned()), vec!["本文".to_owned()])));
        // No label (`admon.textlabel` off): the empty `<th>` (its anchor) goes with the text.
        let bare = note.replace("注記</th>", "</th>");
        assert_eq!(parts(&bare), Some((None, vec![String::new(), "本文".to_owned()])));
    }

    #[test]
    fn other_tables_stay_tables() {
        // Not in an admonition; no icon; an icon cell with words; three rows.
        for html in [
            r#"<div class="informaltable"><table><tr><td><img src="a.png"/></td><th>A</th></tr></table></div>"#,
            r#"<div class="note"><table><tr><th>Option</th><th>Meaning</th></tr><tr><td>-v</td><td>verbose</td></tr></table></div>"#,
            r#"<div class="tip"><table><tr><td><img src="a.png"/> logo</td><th>A</th></tr></table></div>"#,
            r#"<div class="warning"><table><tr><td><img src="a.png"/></td></tr><tr><td>a</td></tr><tr><td>b</td></tr></table></div>"#,
        ] {
            assert!(parts(html).is_none(), "{html}");
        }
    }
}
