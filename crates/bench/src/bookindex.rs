//! The PostgreSQL manual's own index (`bookindex.html`) as ground truth:
//! each index term and the sections it links to (`file.html#ANCHOR`).

use scraper::{ElementRef, Html, Node, Selector};

use crate::score::Target;

/// One top-level index entry.
#[derive(Debug, Clone)]
pub struct IndexTerm {
    pub term: String,
    pub targets: Vec<Target>,
}

fn selector(s: &str) -> Selector {
    Selector::parse(s).expect("static selector")
}

/// Every top-level entry that links somewhere: its own links, or, for an
/// entry that only groups sub-entries (`autovacuum` → ...), theirs.
pub fn parse(html: &str) -> Vec<IndexTerm> {
    let doc = Html::parse_document(html);
    let top = selector("div.indexdiv > dl > dt");
    let link = selector("a.indexterm");
    let mut out = Vec::new();
    for dt in doc.select(&top) {
        let mut term = String::new();
        for child in dt.children() {
            match child.value() {
                Node::Text(t) => term.push_str(t),
                Node::Element(_) => break,
                _ => {}
            }
        }
        let term = term.split_whitespace().collect::<Vec<_>>().join(" ");
        let term = term.trim_end_matches([',', '，', ' ']).to_owned();
        let mut hrefs: Vec<String> =
            dt.select(&link).filter_map(|a| a.value().attr("href").map(str::to_owned)).collect();
        if hrefs.is_empty() {
            // The sub-entries live in the next <dd>.
            if let Some(dd) = dt.next_siblings().filter_map(ElementRef::wrap).next()
                && dd.value().name() == "dd"
            {
                hrefs = dd.select(&link).filter_map(|a| a.value().attr("href").map(str::to_owned)).collect();
            }
        }
        let mut targets: Vec<Target> = hrefs.iter().filter_map(|h| Target::from_href(h)).collect();
        targets.sort();
        targets.dedup();
        if !term.is_empty() && !targets.is_empty() {
            out.push(IndexTerm { term, targets });
        }
    }
    out
}

fn has_han(s: &str) -> bool {
    s.chars().any(lectern_index::text::is_cjk)
}

/// A deterministic sample of about `n` terms: every Nth usable entry. Usable:
/// at least 3 characters, not only symbols, and for Chinese a term holding
/// Chinese characters (the manual keeps many English terms untranslated).
/// Entries that repeat an earlier term are merged into it first.
pub fn sample(terms: &[IndexTerm], chinese: bool, n: usize) -> Vec<IndexTerm> {
    let mut merged: Vec<IndexTerm> = Vec::new();
    for t in terms {
        match merged.iter_mut().find(|m| m.term == t.term) {
            Some(m) => {
                m.targets.extend(t.targets.iter().cloned());
                m.targets.sort();
                m.targets.dedup();
            }
            None => merged.push(t.clone()),
        }
    }
    let usable: Vec<&IndexTerm> = merged
        .iter()
        .filter(|t| t.term.chars().count() >= 3)
        .filter(|t| t.term.chars().any(char::is_alphanumeric))
        .filter(|t| !chinese || has_han(&t.term))
        .collect();
    if usable.len() <= n {
        return usable.into_iter().cloned().collect();
    }
    // Evenly spaced picks over the alphabetical list.
    (0..n).map(|i| usable[i * usable.len() / n].clone()).collect()
}
