//! What the site's HTML page at a path shows, in one call
//! ([`View::page_nav`]): the page (or an edition's generated home), its
//! sidebar, previous/next, table of contents, version and language
//! switchers (versions newest first), a lifecycle notice, the edit link,
//! and, where no page is, where a person can go instead. Also the links
//! every face of the site shares: [`NavLink`], the editions a page can
//! switch to, the site's name.

use std::cmp::Ordering;
use std::sync::Arc;

use crate::edition::{EditionRecord, Status};
use crate::error::LibraryError;
use crate::library::Library;
use crate::pages::nav::SiteNav;
use crate::pages::wire::SitePage;
use crate::path::{SitePath, relative};
use crate::view::View;

/// The site's name when no site config names it.
pub const DEFAULT_SITE_NAME: &str = "Documentation";

/// A link of the site's navigation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NavLink {
    /// The site path linked to (on the search page: the edition's prefix).
    pub path: String,
    /// What the link shows: a page title, a version label or a locale.
    pub label: String,
    /// True for the page or edition being shown.
    pub current: bool,
}

/// A heading of a page's table of contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadingLink {
    pub level: u8,
    pub title: String,
    pub anchor: String,
}

/// The notice on an edition people should not mistake for the current one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lifecycle {
    /// `deprecated`, `eol` or `preview`.
    pub status: Status,
    /// The same page in the current version (its home when it has no such page).
    pub current: NavLink,
}

/// What the HTML page at a path shows.
#[derive(Debug, Clone)]
pub struct PageNav {
    pub site_name: String,
    /// The site's description, for pages without their own.
    pub site_description: Option<String>,
    pub page: SitePage,
    /// The edition's sidebar (the page at `page.path` is the current one).
    pub nav: Arc<SiteNav>,
    /// The pages before and after this one in the sidebar's reading order.
    pub prev: Option<NavLink>,
    pub next: Option<NavLink>,
    /// The page's headings below its title, with their anchors.
    pub toc: Vec<HeadingLink>,
    /// The same page in the edition's other versions (the version's home
    /// where the page is missing), newest version first.
    pub versions: Vec<NavLink>,
    /// The same page in the version's other languages, by locale.
    pub locales: Vec<NavLink>,
    /// `(hreflang, site path)` of every real translation, and `x-default`
    /// for the default locale's.
    pub alternates: Vec<(String, String)>,
    pub lifecycle: Option<Lifecycle>,
    /// Where the page's source file can be edited (from the site config).
    pub edit_url: Option<String>,
    /// An edition's generated home (its source has no index page): no
    /// Markdown of its own; the sidebar's sections are its content.
    pub landing: bool,
}

/// Where a person can go from a path with no page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    pub site_name: String,
    /// The language of the edition the path was under (the site's default).
    pub lang: String,
    /// The home of the edition the path was under, else the default
    /// edition's; None when the site publishes nothing yet.
    pub home: Option<NavLink>,
}

/// The answer for an HTML request of a path.
#[derive(Debug, Clone)]
pub enum Visit {
    Page(Box<PageNav>),
    /// The site root holds no page: go to the default edition's home; or
    /// the path is another path of a page (an old address): go to the page.
    Redirect(String),
    /// No page at the path.
    Missing(Box<Missing>),
}

impl Library {
    /// The HTML page at `path` with its navigation; at `/` without a page,
    /// a redirect to the default edition.
    pub fn page_nav(&self, path: &str) -> Result<Visit, LibraryError> {
        self.view()?.page_nav(path)
    }
}

impl View {
    /// The HTML page at `path` with its navigation; an edition's prefix
    /// without a page is its generated home; `/` without a page redirects
    /// to the default edition; any other path without a page is
    /// [`Visit::Missing`]. A malformed path is an error.
    pub fn page_nav(&self, path: &str) -> Result<Visit, LibraryError> {
        let (page, owner, source) = match self.find_site_page(path) {
            Ok(found) => found,
            Err(LibraryError::NotFound(_)) => return Ok(self.no_page(path)),
            Err(e) => return Err(e),
        };
        let rel = relative(&page.path, &owner.prefix).to_owned();
        let nav = self.site_nav(&owner.prefix)?;
        let (prev, next) = nav.neighbours(&page.path);
        let link = |(path, label): &(String, String)| NavLink {
            path: path.clone(),
            label: label.clone(),
            current: false,
        };
        let (prev, next) = (prev.map(link), next.map(link));
        let toc = toc(&page);
        let (versions, translations) = siblings(self, owner);
        let lifecycle = self.lifecycle(owner, &versions, &rel);
        let versions = versions
            .into_iter()
            .map(|e| NavLink {
                path: self.counterpart(&rel, e).0,
                label: e.label.clone(),
                current: e.id == owner.id,
            })
            .collect();
        let default_locale = self.site_locale();
        let mut locales = Vec::new();
        let mut alternates = Vec::new();
        for e in translations {
            let (href, real) = self.counterpart(&rel, e);
            if real || e.id == owner.id && !page.fallback {
                alternates.push((e.locale.clone(), href.clone()));
                if default_locale.as_deref() == Some(e.locale.as_str()) {
                    alternates.push(("x-default".to_owned(), href.clone()));
                }
            }
            locales.push(NavLink { path: href, label: e.locale.clone(), current: e.id == owner.id });
        }
        let edit_url = self.edit_url(source, &page.source_file);
        Ok(Visit::Page(Box::new(PageNav {
            site_name: site_name(self),
            site_description: self.site().and_then(|s| s.description.clone()),
            page,
            nav,
            prev,
            next,
            toc,
            versions,
            locales,
            alternates,
            lifecycle,
            edit_url,
            landing: false,
        })))
    }

    /// An edition's generated home, `/` to the default edition, or where to
    /// go instead.
    fn no_page(&self, path: &str) -> Visit {
        let at_prefix = self.manifest.enabled().find(|e| e.prefix == path);
        if let Some(edition) = at_prefix {
            return self.landing(edition);
        }
        if path == "/"
            && let Some(e) = self.default_edition()
        {
            return Visit::Redirect(e.prefix.clone());
        }
        // An old address (a redirect page's) or a file's other name: the page.
        if let Some((_, to)) = SitePath::parse(path).ok().and_then(|p| self.moved_to(&p)) {
            return Visit::Redirect(to);
        }
        let under = SitePath::parse(path).ok().and_then(|p| {
            self.manifest.enabled().filter(|e| p.is_in(&e.prefix)).max_by_key(|e| e.prefix.len())
        });
        let home = under.or_else(|| self.default_edition());
        Visit::Missing(Box::new(Missing {
            site_name: site_name(self),
            lang: home
                .map(|e| e.locale.clone())
                .or_else(|| self.site_locale())
                .unwrap_or_else(|| "en".into()),
            home: home.map(|e| NavLink { path: e.prefix.clone(), label: e.label.clone(), current: false }),
        }))
    }

    /// The generated home of an edition whose source has no index page.
    fn landing(&self, edition: &EditionRecord) -> Visit {
        let page = SitePage {
            generation: self.generation.clone(),
            path: edition.prefix.clone(),
            prefix: edition.prefix.clone(),
            label: edition.label.clone(),
            r#ref: edition.r#ref.clone(),
            locale: edition.locale.clone(),
            status: edition.status,
            fallback: false,
            title: edition.label.clone(),
            description: None,
            markdown: String::new(),
            body: String::new(),
            edition: edition.id.clone(),
            source_file: String::new(),
            source_folder: edition.source.clone(),
            anchors: Vec::new(),
            headings: Vec::new(),
        };
        let rel = "";
        let nav = match self.site_nav(&edition.prefix) {
            Ok(nav) => nav,
            Err(_) => Arc::new(SiteNav::default()),
        };
        let next = nav.reading.first().map(|(path, label)| NavLink {
            path: path.clone(),
            label: label.clone(),
            current: false,
        });
        let (versions, translations) = siblings(self, edition);
        let lifecycle = self.lifecycle(edition, &versions, rel);
        let link = |e: &EditionRecord, label: &str| NavLink {
            path: self.counterpart(rel, e).0,
            label: label.to_owned(),
            current: e.id == edition.id,
        };
        Visit::Page(Box::new(PageNav {
            site_name: site_name(self),
            site_description: self.site().and_then(|s| s.description.clone()),
            page,
            nav,
            prev: None,
            next,
            toc: Vec::new(),
            versions: versions.iter().map(|e| link(e, &e.label)).collect(),
            locales: translations.iter().map(|e| link(e, &e.locale)).collect(),
            alternates: Vec::new(),
            lifecycle,
            edit_url: None,
            landing: true,
        }))
    }

    /// The notice for a deprecated, end-of-life or preview edition, linking
    /// the page at `rel` in the current version among `versions`.
    fn lifecycle(&self, owner: &EditionRecord, versions: &[&EditionRecord], rel: &str) -> Option<Lifecycle> {
        if !matches!(owner.status, Status::Deprecated | Status::Eol | Status::Preview) {
            return None;
        }
        let current_version = self.manifest.current_version(&owner.project);
        let current = versions
            .iter()
            .find(|e| e.status == Status::Current)
            .or_else(|| versions.iter().find(|e| current_version.as_deref() == Some(e.version.as_str())))
            .filter(|e| e.id != owner.id)?;
        Some(Lifecycle {
            status: owner.status,
            current: NavLink {
                path: self.counterpart(rel, current).0,
                label: current.label.clone(),
                current: false,
            },
        })
    }

    /// The edit URL of `file` in `edition` from the site config: the
    /// edition's own `edit_url`, else the site's.
    fn edit_url(&self, edition: &EditionRecord, file: &str) -> Option<String> {
        let site = self.site()?;
        let own = site.editions.iter().find(|c| c.id() == edition.id).and_then(|c| c.edit_url.as_deref());
        let template = own.or(site.edit_url.as_deref())?;
        let encoded: String = file
            .split('/')
            .map(|part| {
                part.bytes()
                    .map(|b| match b {
                        b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                            (b as char).to_string()
                        }
                        b => format!("%{b:02X}"),
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/");
        Some(
            template
                .replace("{file}", &encoded)
                .replace("{project}", &edition.project)
                .replace("{version}", &edition.version)
                .replace("{locale}", &edition.locale),
        )
    }
}

pub(crate) fn site_name(view: &View) -> String {
    view.site().map_or_else(|| DEFAULT_SITE_NAME.to_owned(), |s| s.name.clone())
}

/// The editions a page or search of `edition` can switch to (same project,
/// domain and collection): its versions in its locale, by prefix, and its
/// version's languages, by locale. Both include `edition` itself. Versions
/// come newest first, by version number.
pub(crate) fn siblings<'v>(
    view: &'v View,
    edition: &EditionRecord,
) -> (Vec<&'v EditionRecord>, Vec<&'v EditionRecord>) {
    let shelf = |e: &&EditionRecord| {
        e.project == edition.project && e.domain == edition.domain && e.collection == edition.collection
    };
    let mut versions: Vec<&EditionRecord> =
        view.manifest.enabled().filter(shelf).filter(|e| e.locale == edition.locale).collect();
    versions.sort_by(|a, b| newest_first(&a.version, &b.version).then_with(|| a.prefix.cmp(&b.prefix)));
    let mut translations: Vec<&EditionRecord> =
        view.manifest.enabled().filter(shelf).filter(|e| e.version == edition.version).collect();
    translations.sort_by(|a, b| a.locale.cmp(&b.locale));
    (versions, translations)
}

/// The page's headings below its title that carry an anchor: its top two
/// levels (a page whose sections start at `###` lists `###` and `####`).
fn toc(page: &SitePage) -> Vec<HeadingLink> {
    let entries: Vec<HeadingLink> = page
        .headings
        .iter()
        .zip(&page.anchors)
        .filter_map(|((level, title), anchor)| {
            let anchor = anchor.as_ref()?;
            (*level >= 2).then(|| HeadingLink { level: *level, title: title.clone(), anchor: anchor.clone() })
        })
        .collect();
    let Some(top) = entries.iter().map(|e| e.level).min() else { return entries };
    entries.into_iter().filter(|e| e.level <= top + 1).collect()
}

/// Orders version names newest first: numbers compared as numbers
/// (`8 < 9 < 10`, `13 < 15 < 18`, `1.9 < 1.10`), a release after its
/// pre-releases (`2.0-rc1 < 2.0`), other text compared as text.
pub fn newest_first(a: &str, b: &str) -> Ordering {
    compare_versions(b, a)
}

/// Oldest first; see [`newest_first`].
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    let (ca, cb) = (chunks(a), chunks(b));
    for (x, y) in ca.iter().zip(&cb) {
        let order = match (x.parse::<u128>(), y.parse::<u128>()) {
            (Ok(x), Ok(y)) => x.cmp(&y),
            (Ok(_), Err(_)) => Ordering::Less,
            (Err(_), Ok(_)) => Ordering::Greater,
            _ => x.to_lowercase().cmp(&y.to_lowercase()),
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    // One is the other plus a tail: `-rc1` or `beta` marks a pre-release.
    let tail = |rest: &[&str]| match rest.first() {
        None => 0,
        Some(t) if t.starts_with('-') || t.starts_with(|c: char| c.is_alphabetic()) => -1,
        Some(_) => 1,
    };
    let (ta, tb) = (tail(&ca[cb.len().min(ca.len())..]), tail(&cb[ca.len().min(cb.len())..]));
    ta.cmp(&tb).then_with(|| a.cmp(b))
}

/// `10.9.9-rc1` → `10`, `.`, `9`, `.`, `9`, `-rc`, `1`: runs of digits and of other characters.
fn chunks(v: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = v.as_bytes();
    for i in 1..=bytes.len() {
        if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[i - 1].is_ascii_digit() {
            out.push(&v[start..i]);
            start = i;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(versions: &[&str]) -> Vec<String> {
        let mut v: Vec<&str> = versions.to_vec();
        v.sort_by(|a, b| newest_first(a, b));
        v.into_iter().map(str::to_owned).collect()
    }

    #[test]
    fn versions_sort_newest_first_by_number() {
        assert_eq!(sorted(&["8", "10", "9", "11"]), ["11", "10", "9", "8"]);
        assert_eq!(sorted(&["13", "18", "15"]), ["18", "15", "13"]);
        assert_eq!(sorted(&["1.9", "1.10", "1.9.1"]), ["1.10", "1.9.1", "1.9"]);
        assert_eq!(sorted(&["2.0-rc1", "2.0", "1.0"]), ["2.0", "2.0-rc1", "1.0"]);
        assert_eq!(sorted(&["v2", "v10", "v1"]), ["v10", "v2", "v1"]);
        assert_eq!(sorted(&["stable", "2", "beta"]), ["stable", "beta", "2"]);
        assert_eq!(sorted(&[]), Vec::<String>::new());
        assert_eq!(chunks(""), Vec::<&str>::new());
    }
}
