//! Where each page sits in its edition's navigation, as the source declares
//! it: folders are groups, a folder's `_category_.json` names and places its
//! group (Docusaurus: `label`, `position`, `collapsed`), and an mdBook
//! `SUMMARY.md` at the source root gives the reading order, the nesting and
//! the part titles, and so does an MkDocs `mkdocs.yml` `nav:`. Readers sort
//! siblings by position, then by label.

use std::collections::{BTreeMap, HashMap};

use crate::page::Page;
pub use crate::page::{NavGroup, NavPlace};
use crate::paths;

/// The file naming a folder's group.
pub const CATEGORY_FILE: &str = "_category_.json";
/// mdBook's table of contents, at the source root.
pub const SUMMARY_FILE: &str = "SUMMARY.md";
/// MkDocs' configuration (its `nav:` and `docs_dir`), at the source root or
/// beside the docs folder.
pub const MKDOCS_FILES: [&str; 2] = ["mkdocs.yml", "mkdocs.yaml"];
/// Deepest `nav:` nesting read; deeper entries are ignored.
const MAX_MKDOCS_DEPTH: usize = 16;

/// What a folder's `_category_.json` says about its group.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Category {
    pub label: Option<String>,
    pub position: Option<i64>,
    pub collapsed: Option<bool>,
}

/// Reads a `_category_.json`: an object whose `label` is a string,
/// `position` a number (a fraction is rounded down) and `collapsed` a
/// boolean; other keys (`link`, `className`...) are ignored.
pub fn parse_category(bytes: &[u8]) -> Result<Category, String> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("not valid JSON: {e}; skipped"))?;
    let serde_json::Value::Object(map) = value else {
        return Err("expected a JSON object with label, position, collapsed; skipped".to_owned());
    };
    let label = match map.get("label") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Some(_) => return Err("label: expected a non-empty string; skipped".to_owned()),
    };
    let position = match map.get("position") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::Number(n)) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.is_finite() && f.abs() < 1e15).map(|f| f.floor() as i64)),
        Some(_) => return Err("position: expected a number; skipped".to_owned()),
    };
    let collapsed = match map.get("collapsed") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::Bool(b)) => Some(*b),
        Some(_) => return Err("collapsed: expected true or false; skipped".to_owned()),
    };
    Ok(Category { label, position, collapsed })
}

/// One line of a `SUMMARY.md` that places something.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryEntry {
    /// Nesting depth of the list item (0 for a top-level or unnumbered chapter).
    pub depth: usize,
    pub label: String,
    /// The file linked to, relative to the source root; None for a draft
    /// chapter (`[Title]()`) or a part title.
    pub target: Option<String>,
    /// A part title (`# Reference`): starts a group of the chapters after it.
    pub part: bool,
    /// A prefix or suffix chapter (a link alone on its line): in no part.
    pub affix: bool,
}

/// Reads an mdBook `SUMMARY.md`: part titles (`# Title`; the first heading
/// before any chapter is the book's title and is skipped), chapters as
/// links, alone on a line or as nested list items. Anything else is ignored.
pub fn parse_summary(text: &str) -> Vec<SummaryEntry> {
    let mut entries = Vec::new();
    // The indents of the open list levels.
    let mut indents: Vec<usize> = Vec::new();
    let mut seen_heading = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some(title) = trimmed.strip_prefix('#') {
            let title = title.trim_start_matches('#').trim();
            if !seen_heading && entries.is_empty() {
                seen_heading = true;
                continue;
            }
            seen_heading = true;
            if !title.is_empty() {
                entries.push(SummaryEntry {
                    depth: 0,
                    label: title.to_owned(),
                    target: None,
                    part: true,
                    affix: false,
                });
            }
            indents.clear();
            continue;
        }
        let item = list_item(trimmed);
        let Some((label, target)) = link(item.unwrap_or(trimmed)) else { continue };
        let depth = if item.is_some() {
            while indents.last().is_some_and(|&i| i > indent) {
                indents.pop();
            }
            if indents.last() != Some(&indent) {
                indents.push(indent);
            }
            indents.len() - 1
        } else {
            indents.clear();
            0
        };
        entries.push(SummaryEntry { depth, label, target, part: false, affix: item.is_none() });
    }
    entries
}

/// An MkDocs configuration: where its pages are (`docs_dir`, default
/// `docs`) and its `nav:` as summary entries (targets relative to the docs
/// folder). A page named alone (`- install.md`) has an empty label: it is
/// shown by its title. Sections nest; links off the site are ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MkDocs {
    pub docs_dir: String,
    pub nav: Vec<SummaryEntry>,
}

/// Reads an `mkdocs.yml`; Err(reason) when it is not YAML or not a mapping.
/// Tags (`!ENV`, `!!python/name:…`) are read as their values.
pub fn parse_mkdocs(text: &str) -> Result<MkDocs, String> {
    let value: serde_yaml::Value =
        serde_yaml::from_str(text).map_err(|e| format!("not valid YAML: {e}; its nav is not used"))?;
    let serde_yaml::Value::Mapping(map) = value else {
        return Err("expected a mapping of settings; its nav is not used".to_owned());
    };
    let docs_dir = map
        .get("docs_dir")
        .and_then(serde_yaml::Value::as_str)
        .map(|d| d.trim().trim_start_matches("./").trim_end_matches('/').to_owned())
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "docs".to_owned());
    let mut nav = Vec::new();
    if let Some(serde_yaml::Value::Sequence(items)) = map.get("nav") {
        mkdocs_items(items, 0, &mut nav);
    }
    Ok(MkDocs { docs_dir, nav })
}

fn mkdocs_items(items: &[serde_yaml::Value], depth: usize, out: &mut Vec<SummaryEntry>) {
    if depth >= MAX_MKDOCS_DEPTH {
        return;
    }
    let entry = |label: &str, target: Option<String>| SummaryEntry {
        depth,
        label: label.trim().to_owned(),
        target,
        part: false,
        affix: false,
    };
    for item in items {
        match item {
            serde_yaml::Value::String(path) => {
                if let Some(target) = mkdocs_target(path) {
                    out.push(entry("", Some(target)));
                }
            }
            serde_yaml::Value::Mapping(one) => {
                for (label, value) in one {
                    let Some(label) = label.as_str() else { continue };
                    match value {
                        serde_yaml::Value::String(path) => {
                            if let Some(target) = mkdocs_target(path) {
                                out.push(entry(label, Some(target)));
                            }
                        }
                        serde_yaml::Value::Sequence(children) if !label.trim().is_empty() => {
                            out.push(entry(label, None));
                            mkdocs_items(children, depth + 1, out);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

/// A `nav:` path as a file of the docs folder; None for a URL.
fn mkdocs_target(path: &str) -> Option<String> {
    let path = path.trim();
    if path.is_empty() || path.contains("://") || path.starts_with("mailto:") {
        return None;
    }
    let file = path.split('#').next().unwrap_or_default().trim_start_matches("./").trim_start_matches('/');
    (!file.is_empty()).then(|| file.replace("%20", " "))
}

/// The rest of a list item line (`- x`, `* x`, `1. x`), or None.
fn list_item(line: &str) -> Option<&str> {
    if let Some(rest) = line.strip_prefix(['-', '*', '+'])
        && rest.starts_with(' ')
    {
        return Some(rest.trim_start());
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let rest = line[digits..].strip_prefix(". ")?;
    (digits > 0).then(|| rest.trim_start())
}

/// `[label](target)` at the start of `s`: the label and the target file
/// (fragment and `./` dropped, `%20` decoded), None for `()`.
fn link(s: &str) -> Option<(String, Option<String>)> {
    let rest = s.strip_prefix('[')?;
    let close = rest.find("](")?;
    let label = rest[..close].trim();
    let after = &rest[close + 2..];
    let end = after.find(')')?;
    let target = after[..end].trim();
    let target = target.split('#').next().unwrap_or("").trim_start_matches("./").replace("%20", " ");
    (!label.is_empty()).then(|| (label.to_owned(), (!target.is_empty()).then_some(target)))
}

/// Places every page: folder groups named by `categories` (keyed by the
/// folder's path inside the source) or by the folder's index page, then
/// the order `summary` gives (if any) for the pages it lists. Returns the
/// number of pages the summary placed.
pub fn assign(
    pages: &mut [Page],
    categories: &BTreeMap<String, Category>,
    summary: &[SummaryEntry],
) -> usize {
    let files: Vec<NavSource<'_>> =
        pages.iter().map(|p| NavSource { file: &p.source_file, title: &p.title, order: p.order }).collect();
    let (places, placed) = places(&files, categories, summary);
    for (page, place) in pages.iter_mut().zip(places) {
        page.nav = place;
    }
    placed
}

/// What placing a page needs of it.
pub struct NavSource<'a> {
    /// The page's file inside the source.
    pub file: &'a str,
    pub title: &'a str,
    pub order: Option<i64>,
}

/// [`assign`] over what placing needs only, so a source read page by page
/// places its pages before reading any back: each page's place, in the
/// order given, and the number the summary placed.
pub fn places(
    pages: &[NavSource<'_>],
    categories: &BTreeMap<String, Category>,
    summary: &[SummaryEntry],
) -> (Vec<NavPlace>, usize) {
    let by_rel: HashMap<String, usize> =
        pages.iter().enumerate().map(|(i, p)| (paths::page_rel(p.file), i)).collect();
    let mut folders: BTreeMap<String, NavGroup> = BTreeMap::new();
    let mut places = Vec::with_capacity(pages.len());
    for NavSource { file, .. } in pages {
        let rel = paths::page_rel(file);
        let file_dir = file.rsplit_once('/').map_or("", |(d, _)| d);
        let lead = rel == file_dir || generic_title(paths::file_stem(file));
        let mut groups = Vec::new();
        let mut dir = String::new();
        for part in file_dir.split('/').filter(|p| !p.is_empty()) {
            if !dir.is_empty() {
                dir.push('/');
            }
            dir.push_str(part);
            let group = folders.entry(dir.clone()).or_insert_with(|| {
                folder_group(&dir, categories.get(&dir), by_rel.get(&dir).map(|&i| &pages[i]))
            });
            groups.push(group.clone());
        }
        places.push(NavPlace { groups, position: None, label: None, lead: lead && !rel.is_empty() });
    }
    if let Some(root) = by_rel.get("") {
        places[*root].lead = true;
    }
    let placed = place_summary(summary, &by_rel, &mut places);
    (places, placed)
}

fn folder_group(dir: &str, category: Option<&Category>, lead: Option<&NavSource<'_>>) -> NavGroup {
    let name = dir.rsplit('/').next().unwrap_or(dir);
    let label = category
        .and_then(|c| c.label.clone())
        .or_else(|| lead.map(|p| p.title).filter(|t| !generic_title(t)).map(str::to_owned))
        .unwrap_or_else(|| readable(name));
    NavGroup {
        key: dir.to_owned(),
        label,
        position: category.and_then(|c| c.position).or_else(|| lead.and_then(|p| p.order)),
        collapsed: category.and_then(|c| c.collapsed).unwrap_or(false),
    }
}

/// A title that says nothing about the folder (`Index`, `README`).
pub fn generic_title(title: &str) -> bool {
    let t = title.trim();
    t.eq_ignore_ascii_case("index") || t.eq_ignore_ascii_case("readme") || t.eq_ignore_ascii_case("_index")
}

/// A folder name made readable: `configuring-npm` → `Configuring npm`.
fn readable(name: &str) -> String {
    let spaced = crate::text::collapse_whitespace(&name.replace(['-', '_'], " "));
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => name.to_owned(),
    }
}

/// Applies the summary's order, nesting and labels to the pages it links.
fn place_summary(
    summary: &[SummaryEntry],
    by_rel: &HashMap<String, usize>,
    places: &mut [NavPlace],
) -> usize {
    let mut placed = 0;
    let mut seen = std::collections::HashSet::new();
    let mut part: Option<NavGroup> = None;
    // The chapters enclosing the current entry: (depth, group).
    let mut open: Vec<(usize, NavGroup)> = Vec::new();
    for (i, entry) in summary.iter().enumerate() {
        let position = i as i64;
        if entry.part {
            part = Some(NavGroup {
                key: format!("summary:{i}"),
                label: entry.label.clone(),
                position: Some(position),
                collapsed: false,
            });
            open.clear();
            continue;
        }
        if entry.affix {
            part = None;
        }
        while open.last().is_some_and(|(d, _)| *d >= entry.depth) {
            open.pop();
        }
        let has_children = summary.get(i + 1).is_some_and(|next| !next.part && next.depth > entry.depth);
        let own = NavGroup {
            key: format!("summary:{i}"),
            label: entry.label.clone(),
            position: Some(position),
            collapsed: false,
        };
        let mut groups: Vec<NavGroup> = part.iter().cloned().collect();
        groups.extend(open.iter().map(|(_, g)| g.clone()));
        if has_children {
            groups.push(own.clone());
        }
        let page = entry.target.as_deref().and_then(|t| by_rel.get(&paths::page_rel(t)));
        // A page listed twice (an MkDocs nav may) sits where it is first listed.
        if let Some(&p) = page.filter(|p| seen.insert(**p)) {
            places[p] = NavPlace {
                groups,
                position: Some(position),
                label: (!entry.label.is_empty()).then(|| entry.label.clone()),
                lead: has_children,
            };
            placed += 1;
        }
        if has_children {
            open.push((entry.depth, own));
        }
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(file: &str, title: &str, order: Option<i64>) -> Page {
        let mut p = crate::markdown::markdown_to_page(format!("# {title}\n").as_bytes(), file, "/p").unwrap();
        p.order = order;
        p
    }

    #[test]
    fn categories_parse_and_bad_ones_say_why() {
        let c = parse_category(br#"{"label":"Getting started","position":2.5,"collapsed":true,"link":{}}"#)
            .unwrap();
        assert_eq!(
            c,
            Category { label: Some("Getting started".into()), position: Some(2), collapsed: Some(true) }
        );
        assert!(parse_category(b"[1]").unwrap_err().contains("JSON object"));
        assert!(parse_category(br#"{"position":"2"}"#).unwrap_err().contains("position"));
        assert!(parse_category(b"{").unwrap_err().contains("not valid JSON"));
    }

    #[test]
    fn folders_become_groups_named_by_category_index_page_or_folder() {
        let mut pages = vec![
            page("index.md", "Home", None),
            page("commands/npm-install.md", "npm-install", None),
            page("using-npm/config.md", "Config", None),
            page("guide/index.md", "The Guide", Some(1)),
            page("guide/deep/a.md", "A", None),
        ];
        let mut categories = BTreeMap::new();
        categories.insert(
            "using-npm".to_owned(),
            Category { label: Some("Using it".into()), position: Some(3), collapsed: Some(true) },
        );
        assign(&mut pages, &categories, &[]);
        assert!(pages[0].nav.lead && pages[0].nav.groups.is_empty());
        assert_eq!(pages[1].nav.groups[0].label, "Commands");
        assert_eq!(
            pages[2].nav.groups[0],
            NavGroup {
                key: "using-npm".into(),
                label: "Using it".into(),
                position: Some(3),
                collapsed: true
            }
        );
        assert!(pages[3].nav.lead);
        assert_eq!(pages[3].nav.groups[0].label, "The Guide");
        assert_eq!(pages[3].nav.groups[0].position, Some(1));
        let deep: Vec<&str> = pages[4].nav.groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(deep, ["The Guide", "Deep"]);
        assert!(!pages[4].nav.lead);
    }

    #[test]
    fn summary_orders_nests_and_labels() {
        let text = "# Summary\n\n[Intro](README.md)\n\n# User Guide\n\n- [Install](guide/install.md)\n    - [On Linux](guide/linux.md#top)\n- [Draft]()\n1. [Use](./guide/use.md)\n\n---\n\n[Thanks](thanks.md)\n";
        let entries = parse_summary(text);
        let labels: Vec<(&str, usize, bool)> =
            entries.iter().map(|e| (e.label.as_str(), e.depth, e.part)).collect();
        assert_eq!(
            labels,
            [
                ("Intro", 0, false),
                ("User Guide", 0, true),
                ("Install", 0, false),
                ("On Linux", 1, false),
                ("Draft", 0, false),
                ("Use", 0, false),
                ("Thanks", 0, false)
            ]
        );
        assert_eq!(entries[3].target.as_deref(), Some("guide/linux.md"));
        assert_eq!(entries[4].target, None);
        let mut pages = vec![
            page("README.md", "x", None),
            page("guide/install.md", "x", None),
            page("guide/linux.md", "x", None),
            page("guide/use.md", "x", None),
            page("thanks.md", "x", None),
            page("guide/unlisted.md", "Unlisted", None),
        ];
        assert_eq!(assign(&mut pages, &BTreeMap::new(), &entries), 5);
        let groups = |i: usize| pages[i].nav.groups.iter().map(|g| g.label.clone()).collect::<Vec<_>>();
        assert_eq!(groups(0), Vec::<String>::new());
        assert_eq!(groups(1), ["User Guide", "Install"]);
        assert!(pages[1].nav.lead);
        assert_eq!(groups(2), ["User Guide", "Install"]);
        assert_eq!(pages[2].nav.label.as_deref(), Some("On Linux"));
        assert_eq!(groups(3), ["User Guide"]);
        assert_eq!(groups(4), Vec::<String>::new());
        assert!(
            pages[1].nav.position < pages[2].nav.position && pages[2].nav.position < pages[3].nav.position
        );
        // Not in the summary: its folder, after the listed pages.
        assert_eq!(groups(5), ["Guide"]);
        assert_eq!(pages[5].nav.position, None);
    }
}
