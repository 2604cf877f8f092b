//! The link check of an edition: every link its pages write, resolved as
//! the reader resolves it, and each one that leads nowhere told apart as
//! broken by the source itself (the file or anchor is missing there too) or
//! by the conversion (the source holds it, the edition does not).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::links::{self, OtherEditions, Target};
use crate::page::Page;
use crate::paths;

/// Most broken links listed one by one; the counts cover them all.
pub const MAX_LISTED: usize = 1000;

/// What the link check found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkReport {
    /// Links to pages of the edition and `#fragment`s, checked.
    pub internal: usize,
    /// Of those, the ones that lead to their page and anchor.
    pub resolved: usize,
    /// Of those, the ones that lead nowhere.
    pub broken: usize,
    /// Of the broken ones, those the source itself breaks (the file or the
    /// anchor is missing in the source too).
    pub broken_in_source: usize,
    /// Links to files of the tree that are not pages (images, downloads).
    pub files: usize,
    /// Links to file-system paths or outside the tree.
    pub outside: usize,
    /// Of those, the ones leading to a page of another installed edition
    /// (installed from the folder they name); the others are kept as
    /// external links.
    #[serde(default)]
    pub outside_installed: usize,
    /// Links to other sites.
    pub external: usize,
    /// The broken links, by page (at most [`MAX_LISTED`]).
    pub listed: Vec<BrokenLink>,
    /// Images the pages show from the tree (not from other sites).
    #[serde(default)]
    pub images: usize,
    /// Of those, the ones whose file the source does not hold.
    #[serde(default)]
    pub images_missing: usize,
    /// The missing images, by page (at most [`MAX_LISTED`]).
    #[serde(default)]
    pub missing_images: Vec<BrokenLink>,
}

/// A link that leads nowhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokenLink {
    /// The page it is on (site path).
    pub page: String,
    /// The link as the page writes it.
    pub target: String,
    /// The source breaks it too.
    pub in_source: bool,
}

impl LinkReport {
    /// Broken links the conversion is to blame for.
    pub fn broken_by_conversion(&self) -> usize {
        self.broken - self.broken_in_source
    }

    /// One line: `links: 812 internal, 812 resolve, 0 broken; 14 external, 2 outside the tree`.
    pub fn summary(&self) -> String {
        let mut line =
            format!("links: {} internal, {} resolve, {} broken", self.internal, self.resolved, self.broken);
        if self.broken > 0 {
            line.push_str(&format!(
                " ({} broken in the source itself, {} by the conversion)",
                self.broken_in_source,
                self.broken_by_conversion()
            ));
        }
        line.push_str(&format!(
            "; {} to other files, {} external, {} outside the tree",
            self.files, self.external, self.outside
        ));
        if self.outside > 0 {
            line.push_str(&format!(
                " ({} to installed editions, {} kept as external links)",
                self.outside_installed,
                self.outside - self.outside_installed
            ));
        }
        if self.images > 0 {
            let plural = if self.images == 1 { "" } else { "s" };
            line.push_str(&format!(
                "; {} image{plural}, {} missing from the source",
                self.images, self.images_missing
            ));
        }
        line
    }
}

/// Checks the links of `pages` (an edition at `prefix`), whose source holds
/// the files `source_files` (paths inside the source).
pub fn check_pages(pages: &[Page], prefix: &str, source_files: &[String]) -> LinkReport {
    let mut checker = LinkChecker::default();
    for page in pages {
        checker.add(page);
    }
    checker.report(prefix, source_files)
}

/// What the link check keeps of each page (its path, file, anchors and
/// links, not its text), so a source read page by page is checked without
/// holding its pages.
#[derive(Default)]
pub struct LinkChecker {
    pages: Vec<Scanned>,
    /// Other paths of pages: where each leads.
    moved: HashMap<String, String>,
}

struct Scanned {
    path: String,
    source_file: String,
    anchors: HashSet<String>,
    links: Vec<String>,
    images: Vec<String>,
}

impl LinkChecker {
    /// Takes in the other paths of the edition's pages (old addresses,
    /// files' other names; each with the page it leads to): a link to one
    /// leads to its page.
    pub fn moved(&mut self, moved: &[(String, String)]) {
        self.moved.extend(moved.iter().cloned());
    }

    /// Takes in one page of the edition.
    pub fn add(&mut self, page: &Page) {
        let scan = links::scan(&page.markdown);
        let stored: Vec<Option<String>> = page.sections.iter().map(|s| s.anchor.clone()).collect();
        let mut anchors: HashSet<String> = stored.iter().flatten().cloned().collect();
        // The ids the rendered page gives its other headings too.
        anchors.extend(crate::heading_ids::heading_ids(&page.markdown, &stored));
        anchors.extend(scan.anchors);
        self.pages.push(Scanned {
            path: page.path.clone(),
            source_file: page.source_file.clone(),
            anchors,
            links: scan.links,
            images: scan.images,
        });
    }

    /// The report over every page taken in (an edition at `prefix`, whose
    /// source holds the files `source_files`).
    pub fn report(self, prefix: &str, source_files: &[String]) -> LinkReport {
        self.report_with(prefix, source_files, None)
    }

    /// [`LinkChecker::report`], with the links leaving the tree that lead to
    /// `others`' pages counted.
    pub fn report_with(
        self,
        prefix: &str,
        source_files: &[String],
        others: Option<OtherEditions<'_>>,
    ) -> LinkReport {
        let anchors: HashMap<&str, &HashSet<String>> =
            self.pages.iter().map(|p| (p.path.as_str(), &p.anchors)).collect();
        report(&self.pages, &anchors, Tree { prefix, source_files, others, moved: &self.moved })
    }
}

/// The edition whose links are checked.
struct Tree<'a> {
    prefix: &'a str,
    source_files: &'a [String],
    others: Option<OtherEditions<'a>>,
    moved: &'a HashMap<String, String>,
}

fn report(pages: &[Scanned], anchors: &HashMap<&str, &HashSet<String>>, tree: Tree<'_>) -> LinkReport {
    let Tree { prefix, source_files, others, moved } = tree;
    let files: HashSet<&str> = source_files.iter().map(String::as_str).collect();
    let top_folders: HashSet<&str> =
        source_files.iter().filter_map(|f| f.split_once('/').map(|(d, _)| d)).collect();
    let is_page = |p: &str| anchors.contains_key(p) || moved.contains_key(p);
    let mut report = LinkReport::default();
    for page in pages {
        for src in &page.images {
            let Some(file) = links::image_file(src, &page.source_file, prefix) else { continue };
            report.images += 1;
            if !files.contains(file.as_str()) {
                report.images_missing += 1;
                if report.missing_images.len() < MAX_LISTED {
                    let missing =
                        BrokenLink { page: page.path.clone(), target: src.clone(), in_source: true };
                    report.missing_images.push(missing);
                }
            }
        }
    }
    for page in pages {
        for url in page.links.iter().cloned() {
            let verdict = match links::resolve(&url, &page.source_file, prefix, &is_page) {
                // A `file:` URL is a path outside the tree, not another site.
                Target::External if links::outside(&url, "", "").is_none() => {
                    report.external += 1;
                    continue;
                }
                Target::External => {
                    outside(&mut report, &url, &page.source_file, others);
                    continue;
                }
                Target::SamePage(fragment) => fragment_verdict(anchors, &page.path, &fragment),
                Target::Page(path) => match path.split_once('#') {
                    // (Another path of a page: its page's anchors.)
                    Some((p, fragment)) => {
                        let page = moved.get(p).and_then(|to| to.split('#').next()).unwrap_or(p);
                        fragment_verdict(anchors, page, fragment)
                    }
                    None => Some(true),
                },
                Target::Unresolved => {
                    match unresolved(&url, &page.source_file, prefix, &files, &top_folders) {
                        Unresolved::File => {
                            report.files += 1;
                            continue;
                        }
                        Unresolved::Outside => {
                            outside(&mut report, &url, &page.source_file, others);
                            continue;
                        }
                        Unresolved::MissingInSource => None,
                        Unresolved::LostPage => Some(false),
                    }
                }
            };
            report.internal += 1;
            // Some(true): resolves; Some(false): the conversion lost it; None: the source lacks it.
            match verdict {
                Some(true) => report.resolved += 1,
                broken => {
                    let in_source = broken.is_none();
                    report.broken += 1;
                    report.broken_in_source += usize::from(in_source);
                    if report.listed.len() < MAX_LISTED {
                        report.listed.push(BrokenLink { page: page.path.clone(), target: url, in_source });
                    }
                }
            }
        }
    }
    report
}

/// Counts a link leaving the tree, and whether it leads to a page of an
/// installed edition.
fn outside(report: &mut LinkReport, url: &str, from_file: &str, others: Option<OtherEditions<'_>>) {
    report.outside += 1;
    let installed = others.is_some_and(|o| {
        links::outside(url, from_file, o.source).is_some_and(|link| (o.page)(&link).is_some())
    });
    report.outside_installed += usize::from(installed);
}

/// A link to a page that exists: whether its fragment does. Anchors are
/// every id the source gives (headings, `id` on any element, `<a name>`), so
/// a missing one is missing in the source. A browser finds `#%3Cinit%3E()`
/// at `id="<init>()"`: the fragment is matched percent-decoded too.
fn fragment_verdict(anchors: &HashMap<&str, &HashSet<String>>, page: &str, fragment: &str) -> Option<bool> {
    let decoded = || String::from_utf8(paths::percent_decode_bytes(fragment)).ok();
    let found = anchors.get(page).is_some_and(|set| {
        fragment.is_empty()
            || set.contains(fragment)
            || (fragment.contains('%') && decoded().is_some_and(|d| set.contains(&d)))
    });
    found.then_some(true)
}

enum Unresolved {
    /// A file of the tree that is not a page.
    File,
    /// A file-system path, or a path outside the tree.
    Outside,
    /// Meant for the tree (relative, or under one of its folders), missing there.
    MissingInSource,
    /// A page file of the source the edition does not hold.
    LostPage,
}

fn unresolved(
    url: &str,
    from_file: &str,
    prefix: &str,
    files: &HashSet<&str>,
    top_folders: &HashSet<&str>,
) -> Unresolved {
    let path = url.split(['#', '?']).next().unwrap_or_default();
    let rel = if path.starts_with('/') {
        let prefix = paths::normalize_prefix(prefix);
        match path.strip_prefix(prefix).filter(|r| !prefix.is_empty() && r.starts_with('/')) {
            Some(rest) => Some(rest.trim_start_matches('/').to_owned()),
            None => {
                let rooted = path.trim_start_matches('/');
                let first = rooted.split('/').next().unwrap_or_default();
                if !top_folders.contains(first) && !files.contains(rooted) {
                    return Unresolved::Outside;
                }
                Some(rooted.to_owned())
            }
        }
    } else {
        paths::resolve(from_file, path)
    };
    let Some(rel) = rel else { return Unresolved::Outside };
    let rel = rel.trim_end_matches('/');
    if files.contains(rel) {
        let page_file = crate::markdown::is_markdown(rel) || crate::html::is_html(rel);
        return if page_file { Unresolved::LostPage } else { Unresolved::File };
    }
    // The page file the link means, under the names generators give it.
    let stems = ["", ".md", ".mdx", ".markdown", ".html", ".htm", "/index.md", "/README.md", "/index.html"];
    if stems.iter().any(|s| files.contains(format!("{rel}{s}").as_str())) {
        return Unresolved::LostPage;
    }
    Unresolved::MissingInSource
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::markdown_to_page;

    #[test]
    fn links_are_counted_and_the_source_breaks_told_apart() {
        let a = "# A\n\n[b](b.md) [b2](/b#two) [self](#one) [gone](missing.md) [nope](b.md#nope)\n\
                 [img](img/logo.png) [fs](/usr/share/doc/x.html) [web](https://x.example) [lost](c.md)\n\n## One\n";
        let b = "# B\n\n<a id=\"two\"></a>\n\ntext\n";
        let pages = vec![
            markdown_to_page(a.as_bytes(), "a.md", "/x").unwrap(),
            markdown_to_page(b.as_bytes(), "b.md", "/x").unwrap(),
        ];
        let files: Vec<String> = ["a.md", "b.md", "c.md", "img/logo.png"].map(String::from).to_vec();
        let report = check_pages(&pages, "/x", &files);
        assert_eq!((report.internal, report.resolved, report.broken), (6, 3, 3), "{report:?}");
        assert_eq!(report.broken_in_source, 2, "{report:?}");
        assert_eq!((report.files, report.outside, report.external), (1, 1, 1), "{report:?}");
        let lost: Vec<&str> =
            report.listed.iter().filter(|l| !l.in_source).map(|l| l.target.as_str()).collect();
        assert_eq!(lost, ["c.md"]);
        assert!(report.summary().contains("1 by the conversion"), "{}", report.summary());
        assert_eq!((report.images, report.images_missing), (0, 0), "{report:?}");
    }

    #[test]
    fn images_whose_file_the_source_lacks_are_listed() {
        let a = "# A\n\n![ok](img/logo.png) ![gone](img/gone.png) ![site](/x/img/logo.png)\n\n\
                 <img src=\"pics/gone.svg\" alt=\"\"> ![web](https://x.example/a.png) ![data](data:image/png;base64,AA)\n";
        let pages = vec![markdown_to_page(a.as_bytes(), "a.md", "/x").unwrap()];
        let files: Vec<String> = ["a.md", "img/logo.png"].map(String::from).to_vec();
        let report = check_pages(&pages, "/x", &files);
        assert_eq!((report.images, report.images_missing), (4, 2), "{report:?}");
        let missing: Vec<&str> = report.missing_images.iter().map(|l| l.target.as_str()).collect();
        assert_eq!(missing, ["img/gone.png", "pics/gone.svg"]);
        assert!(report.summary().contains("4 images, 2 missing from the source"), "{}", report.summary());
        // Images are not links: the link counts are untouched.
        assert_eq!((report.internal, report.broken), (0, 0), "{report:?}");
    }

    #[test]
    fn every_heading_is_a_target_as_on_github() {
        // The `# title` and a heading in a list carry ids too, and count
        // toward the `-1` of a repeated one.
        let a = "# The hitchhiker's guide\n\n- ## Setup\n\n## Setup\n\n\
                 [t](#the-hitchhikers-guide) [s](#setup) [s1](#setup-1) [s2](#setup-2)\n";
        let pages = vec![markdown_to_page(a.as_bytes(), "a.md", "/x").unwrap()];
        let report = check_pages(&pages, "/x", &["a.md".to_owned()]);
        assert_eq!((report.internal, report.resolved), (4, 3), "{report:?}");
        let broken: Vec<&str> = report.listed.iter().map(|l| l.target.as_str()).collect();
        assert_eq!(broken, ["#setup-2"]);
        assert_eq!(pages[0].sections.last().and_then(|s| s.anchor.as_deref()), Some("setup-1"));
    }

    #[test]
    fn a_percent_encoded_fragment_finds_its_id_as_a_browser_does() {
        let a = "# A\n\n<a id=\"&lt;init&gt;()\"></a><a id=\"parse(String[])\"></a>\n\n\
                 [c](#%3Cinit%3E()) [p](#parse(String%5B%5D)) [x](#%3Cgone%3E)\n";
        let pages = vec![markdown_to_page(a.as_bytes(), "a.md", "/x").unwrap()];
        let report = check_pages(&pages, "/x", &["a.md".to_owned()]);
        assert_eq!((report.internal, report.resolved), (3, 2), "{report:?}");
        let broken: Vec<&str> = report.listed.iter().map(|l| l.target.as_str()).collect();
        assert_eq!(broken, ["#%3Cgone%3E"]);
    }
}
