//! [`SiteNav`]: one edition's sidebar as a tree, in the order its source
//! gives (folders and `_category_.json` groups, `SUMMARY.md`, frontmatter
//! `order`, then labels compared without case), and its pages in reading
//! order for previous/next links. Built once per view and edition.

use std::cmp::Ordering;
use std::collections::HashMap;

use lectern_corpus::nav::{NavGroup, NavPlace, generic_title};

use crate::pages::scope::Scope;

/// An entry of the sidebar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NavItem {
    Page {
        path: String,
        label: String,
    },
    /// `led`: the first of `items` is the group's own page (a folder's
    /// index page, a chapter with sections under it).
    Group {
        label: String,
        collapsed: bool,
        led: bool,
        items: Vec<NavItem>,
    },
}

/// A page in reading order: `(path, label)`.
pub type Reading = (String, String);

/// Groups nest at most this deep; a page deeper in the source's folders or
/// `SUMMARY.md` is listed in the deepest group above it, so the tree, and
/// every recursion that walks or renders it, stays shallow whatever the
/// source says.
pub const NAV_DEPTH: usize = 6;

/// Whether a navigation tree lists the pages standing in for missing
/// translations (the public site does; the local reader does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StandIns {
    Include,
    Skip,
}

/// One edition's sidebar and reading order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteNav {
    pub items: Vec<NavItem>,
    /// Every page, depth first: `(path, label)`.
    pub reading: Vec<Reading>,
    /// Where each page is in `reading`.
    at: HashMap<String, usize>,
}

impl SiteNav {
    /// Whether `path` is one of the edition's pages.
    pub fn contains(&self, path: &str) -> bool {
        self.at.contains_key(path)
    }

    /// The pages before and after `path` in reading order.
    pub fn neighbours(&self, path: &str) -> (Option<&Reading>, Option<&Reading>) {
        match self.at.get(path) {
            Some(&i) => (i.checked_sub(1).and_then(|p| self.reading.get(p)), self.reading.get(i + 1)),
            None => (None, None),
        }
    }

    /// Builds the tree of a scope's pages; with [`StandIns::Skip`], the
    /// pages of other locales standing in for missing translations are left
    /// out (the local reader serves an edition's own pages only).
    pub(crate) fn build(scope: &Scope, stand_ins: StandIns) -> SiteNav {
        let mut root = Node::default();
        for i in 0..scope.len() {
            if stand_ins == StandIns::Skip && scope.fallback(i) {
                continue;
            }
            let place = scope.nav(i);
            let entry = Entry {
                path: scope.path(i).into_owned(),
                title: scope.title(i),
                rank: place.position.or_else(|| scope.order(i)),
                label: place.label.clone(),
            };
            root.insert(&place, entry);
        }
        let items = root.into_items("");
        let mut reading = Vec::new();
        flatten(&items, &mut reading);
        let at = reading.iter().enumerate().map(|(i, (p, _))| (p.clone(), i)).collect();
        SiteNav { items, reading, at }
    }
}

fn flatten(items: &[NavItem], out: &mut Vec<(String, String)>) {
    for item in items {
        match item {
            NavItem::Page { path, label } => out.push((path.clone(), label.clone())),
            NavItem::Group { items, .. } => flatten(items, out),
        }
    }
}

struct Entry {
    path: String,
    title: String,
    rank: Option<i64>,
    label: Option<String>,
}

#[derive(Default)]
struct Node {
    group: Option<NavGroup>,
    lead: Option<Entry>,
    pages: Vec<Entry>,
    children: Vec<Node>,
}

impl Node {
    fn insert(&mut self, place: &NavPlace, entry: Entry) {
        let mut node = self;
        for group in place.groups.iter().take(NAV_DEPTH) {
            let at =
                match node.children.iter().position(|c| c.group.as_ref().is_some_and(|g| g.key == group.key))
                {
                    Some(at) => at,
                    None => {
                        node.children.push(Node { group: Some(group.clone()), ..Node::default() });
                        node.children.len() - 1
                    }
                };
            node = &mut node.children[at];
        }
        if place.lead && node.lead.is_none() {
            node.lead = Some(entry);
        } else {
            node.pages.push(entry);
        }
    }

    /// The node's entries sorted: its lead page first, then pages and
    /// groups by rank (unranked last), label as people read it (case
    /// ignored, numbers by value), then path.
    fn into_items(self, group_label: &str) -> Vec<NavItem> {
        let mut keyed: Vec<(Option<i64>, String, String, NavItem)> = Vec::new();
        for page in self.pages {
            let label = page_label(&page, group_label);
            keyed.push((
                page.rank,
                label.to_lowercase(),
                page.path.clone(),
                NavItem::Page { path: page.path, label },
            ));
        }
        for child in self.children {
            let group = child.group.clone().unwrap_or_else(|| NavGroup {
                key: String::new(),
                label: String::new(),
                position: None,
                collapsed: false,
            });
            let led = child.lead.is_some();
            let items = child.into_items(&group.label);
            keyed.push((
                group.position,
                group.label.to_lowercase(),
                group.key,
                NavItem::Group { label: group.label, collapsed: group.collapsed, led, items },
            ));
        }
        keyed.sort_by(|a, b| {
            rank_order(a.0, b.0).then_with(|| natural(&a.1, &b.1)).then_with(|| a.2.cmp(&b.2))
        });
        let mut items: Vec<NavItem> = Vec::with_capacity(keyed.len() + 1);
        if let Some(lead) = self.lead {
            let label = page_label(&lead, group_label);
            items.push(NavItem::Page { path: lead.path, label });
        }
        items.extend(keyed.into_iter().map(|k| k.3));
        items
    }
}

/// Ranked before unranked, then by rank.
fn rank_order(a: Option<i64>, b: Option<i64>) -> Ordering {
    (a.is_none(), a).cmp(&(b.is_none(), b))
}

/// What the sidebar shows for a page: the source's label, else its title;
/// a page titled only `Index` or `README` is named by its group (at the
/// top level: "Overview").
fn page_label(page: &Entry, group_label: &str) -> String {
    if let Some(l) = &page.label {
        return l.clone();
    }
    if generic_title(&page.title) || page.title.trim().is_empty() {
        return if group_label.is_empty() { "Overview".to_owned() } else { group_label.to_owned() };
    }
    page.title.clone()
}

/// Compares titles as people read them: case ignored, runs of digits by
/// their value ("Chapter 2" before "Chapter 10").
pub(crate) fn natural(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.chars().peekable(), b.chars().peekable());
    loop {
        match (a.peek().copied(), b.peek().copied()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let take = |it: &mut std::iter::Peekable<std::str::Chars<'_>>| {
                    let mut digits = String::new();
                    while let Some(c) = it.next_if(char::is_ascii_digit) {
                        digits.push(c);
                    }
                    digits.trim_start_matches('0').to_owned()
                };
                let (da, db) = (take(&mut a), take(&mut b));
                let by_value = da.len().cmp(&db.len()).then_with(|| da.cmp(&db));
                if by_value != Ordering::Equal {
                    return by_value;
                }
            }
            (Some(x), Some(y)) => {
                let by_char = x.to_lowercase().cmp(y.to_lowercase());
                if by_char != Ordering::Equal {
                    return by_char;
                }
                a.next();
                b.next();
            }
        }
    }
}
