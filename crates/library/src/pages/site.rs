//! What the site serves besides its HTML pages' navigation (`visit`): a
//! page as Markdown under our frontmatter, the search page's scope and
//! switchers, and the published listing behind `llms.txt` and the sitemap.

use std::sync::atomic::AtomicBool;

use lectern_index::Cancel;

use crate::edition::EditionRecord;
use crate::error::{LibraryError, invalid};
use crate::library::Library;
use crate::pages::frontmatter::frontmatter;
use crate::pages::go_on;
use crate::pages::resolve::Translations;
use crate::pages::visit::{NavLink, siblings, site_name};
use crate::pages::wire::{PageEntry, SitePage};
use crate::path::{SitePath, join};
use crate::search::{SearchParams, SearchResponse};
use crate::view::View;

/// Pages listed between two looks at a listing's cancel flag.
pub const PAGES_PER_CHECK: usize = 256;

/// The search page's scope, switchers and results.
#[derive(Debug)]
pub struct SiteSearch {
    pub site_name: String,
    /// The searched edition's locale (the site's default without one).
    pub lang: String,
    /// The same search in the edition's other versions (`path` is a prefix).
    pub versions: Vec<NavLink>,
    /// The same search in the version's other languages (`path` is a prefix).
    pub locales: Vec<NavLink>,
    /// None for an empty query; an error the page shows (a bad query) or
    /// the face fails with.
    pub results: Option<Result<SearchResponse, LibraryError>>,
    /// When the search found nothing here but the same words are found in
    /// another edition: one link per edition (`path` is its prefix, `label`
    /// says how many pages and where: "30 results in zh-Hans").
    pub elsewhere: Vec<NavLink>,
}

/// One edition as `llms.txt` and the sitemap list it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedEdition {
    pub label: String,
    pub prefix: String,
    pub locale: String,
    /// The pages of the edition's scope in path order, fallback stand-ins
    /// included (flagged, with the locale of their content).
    pub pages: Vec<PageEntry>,
}

/// Whether a published listing carries the pages' descriptions (a stored
/// field: one document read per page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Descriptions {
    Read,
    Skip,
}

impl Library {
    /// A page at a full site path, as the site serves it: our frontmatter over
    /// the Markdown as written. A missing translation is served from the
    /// default locale, flagged `fallback`.
    pub fn site_page(&self, path: &str) -> Result<SitePage, LibraryError> {
        self.site_page_unless(path, None)
    }

    /// [`Library::site_page`], not started once `cancel` is set, and its
    /// answer dropped when the client left while the page was read.
    pub fn site_page_unless(
        &self,
        path: &str,
        cancel: Option<&AtomicBool>,
    ) -> Result<SitePage, LibraryError> {
        go_on(cancel)?;
        let page = self.view()?.site_page(path)?;
        go_on(cancel)?;
        Ok(page)
    }

    /// [`Library::site_page_unless`] for a tool: a path that is another
    /// path of a page (an old address, a file's other name) reads that
    /// page, and the answer gives the page's own path.
    pub fn site_page_following_unless(
        &self,
        path: &str,
        cancel: Option<&AtomicBool>,
    ) -> Result<SitePage, LibraryError> {
        go_on(cancel)?;
        let view = self.view()?;
        let page = match view.site_page(path) {
            Err(missing @ LibraryError::NotFound(_)) => match view.moved_page(path) {
                Some(to) => view.site_page(&to)?,
                None => return Err(missing),
            },
            found => found?,
        };
        go_on(cancel)?;
        Ok(page)
    }

    /// The search page for `query` in the edition at `prefix` (every default
    /// when it names none).
    pub fn site_search(&self, prefix: &str, query: &str) -> Result<SiteSearch, LibraryError> {
        self.site_search_unless(prefix, query, None)
    }

    /// [`Library::site_search`] whose search stops once `cancel` is set.
    pub fn site_search_unless(
        &self,
        prefix: &str,
        query: &str,
        cancel: Option<Cancel>,
    ) -> Result<SiteSearch, LibraryError> {
        go_on(cancel.as_deref())?;
        let view = self.view()?;
        let edition = view.manifest.enabled().find(|e| !prefix.is_empty() && e.prefix == prefix);
        let lang = edition
            .map(|e| e.locale.clone())
            .or_else(|| view.site_locale())
            .unwrap_or_else(|| "en".to_owned());
        let (versions, locales) = match edition {
            Some(e) => {
                let (versions, translations) = siblings(&view, e);
                let link = |o: &EditionRecord, label: &str| NavLink {
                    path: o.prefix.clone(),
                    label: label.to_owned(),
                    current: o.id == e.id,
                };
                (
                    versions.into_iter().map(|o| link(o, &o.label)).collect(),
                    translations.into_iter().map(|o| link(o, &o.locale)).collect(),
                )
            }
            None => Default::default(),
        };
        let results = (!query.trim().is_empty()).then(|| {
            let mut params = SearchParams { text: query.to_owned(), ..SearchParams::default() };
            if let Some(e) = edition {
                params.project = Some(e.project.clone());
                params.version = Some(e.version.clone());
                params.locale = Some(e.locale.clone());
                params.domain = Some(e.domain.clone());
                params.collection = e.collection.clone();
            }
            self.search(&params, None, cancel)
        });
        let elsewhere = match &results {
            Some(Ok(found)) if found.hits.is_empty() => elsewhere_links(&view, found),
            _ => Vec::new(),
        };
        Ok(SiteSearch { site_name: site_name(&view), lang, versions, locales, results, elsewhere })
    }
}

/// The editions a zero points to (the search's `elsewhere`), as links to
/// their prefixes: the scope searched with the one field that differs.
fn elsewhere_links(view: &View, found: &SearchResponse) -> Vec<NavLink> {
    let scope = &found.scope;
    found
        .elsewhere
        .iter()
        .filter_map(|el| {
            let project = el.project.as_deref().unwrap_or(&scope.project);
            let version = el.version.as_deref().unwrap_or(&scope.version);
            let locale = el.locale.as_deref().unwrap_or(&scope.locale);
            let edition = view.manifest.enabled().find(|e| {
                e.project == project && e.version == version && e.locale == locale && !e.prefix.is_empty()
            })?;
            let place = el.locale.as_deref().or(el.version.as_deref()).unwrap_or(&edition.project);
            let results = if el.total == 1 { "result" } else { "results" };
            Some(NavLink {
                path: edition.prefix.clone(),
                label: format!("{} {results} in {place}", el.total),
                current: false,
            })
        })
        .collect()
}

impl View {
    /// See [`Library::site_page`].
    pub fn site_page(&self, path: &str) -> Result<SitePage, LibraryError> {
        self.find_site_page(path).map(|(page, _, _)| page)
    }

    /// The page, the edition whose scope it is in, and the edition its
    /// content comes from (another for a fallback).
    pub(crate) fn find_site_page(
        &self,
        path: &str,
    ) -> Result<(SitePage, &EditionRecord, &EditionRecord), LibraryError> {
        let path = SitePath::parse(path).map_err(|bad| {
            invalid(format!(
                "path {:?} is not a site path: give a full path starting with / as list_pages or search_docs return it, under one of this site's prefixes ({})",
                bad.given.chars().take(80).collect::<String>(),
                self.prefixes()
            ))
        })?;
        let no_page = || {
            LibraryError::NotFound(format!(
                "no page at {path}; list_pages shows the pages of a version (prefixes: {})",
                self.prefixes()
            ))
        };
        let found = self.resolve(&path, Translations::OrFallback).ok_or_else(no_page)?;
        let source = self.snapshot.page(&found.source.id, &found.source_path).ok_or_else(no_page)?;
        let (owner, source_edition) = (found.owner, found.source);
        let mut page = SitePage {
            generation: self.generation.clone(),
            path: path.to_string(),
            prefix: owner.prefix.clone(),
            label: owner.label.clone(),
            r#ref: owner.r#ref.clone(),
            locale: found.source.locale.clone(),
            status: owner.status,
            fallback: found.fallback,
            title: source.title,
            description: source.description,
            markdown: String::new(),
            body: source.markdown,
            edition: owner.id.clone(),
            source_file: source.source_file,
            source_folder: source_edition.source.clone(),
            anchors: source.anchors,
            headings: source.headings,
        };
        // Served on its own: links leaving the tree lead where the rendered
        // page's do, and a folder's index (at `{folder}.md`) names its
        // relative targets by site path.
        let installed = |link: &lectern_corpus::links::Outside| self.outside_page(link);
        let others =
            lectern_corpus::links::OtherEditions { source: &source_edition.source, page: &installed };
        let body = lectern_corpus::render::served_markdown(
            &page.body,
            &page.source_file,
            &page.prefix,
            Some(others),
        );
        page.markdown = format!("{}{}", frontmatter(&page), body.as_deref().unwrap_or(&page.body));
        Ok((page, owner, source_edition))
    }

    /// The page's own path in `edition` and whether it is really there (not
    /// stood in for), or the edition's home when it is missing.
    pub(crate) fn counterpart(&self, rel: &str, edition: &EditionRecord) -> (String, bool) {
        let target = join(&edition.prefix, rel);
        let found = SitePath::parse(&target).ok().and_then(|p| self.resolve(&p, Translations::OrFallback));
        match found {
            Some(found) => (target, !found.fallback),
            None => (edition.prefix.clone(), false),
        }
    }

    /// What the site publishes: the one definition every listing of it
    /// (`llms.txt`, the sitemap) uses. A page is published when the site
    /// answers its URL with a page, which is exactly when it is in the scope
    /// of an enabled edition, the scopes `list_pages` walks: the edition's
    /// own pages (drafts never) and, in a locale other than the site's
    /// default, the default locale's pages standing in for missing
    /// translations, at their translated path, flagged `fallback` with the
    /// locale of their content. Every enabled edition, the default locale's
    /// first, then by prefix, each with its pages in path order.
    pub fn published(&self, descriptions: Descriptions) -> Vec<PublishedEdition> {
        self.published_unless(descriptions, None).unwrap_or_default()
    }

    /// [`View::published`] that stops with an error once `cancel` is set, checked between editions and every
    /// [`PAGES_PER_CHECK`] pages (a large site has many descriptions to read).
    pub fn published_unless(
        &self,
        descriptions: Descriptions,
        cancel: Option<&AtomicBool>,
    ) -> Result<Vec<PublishedEdition>, LibraryError> {
        let locale = self.site_locale();
        let mut editions: Vec<&EditionRecord> = self.manifest.enabled().collect();
        editions.sort_by(|a, b| {
            (locale.as_deref() != Some(a.locale.as_str()), &a.prefix)
                .cmp(&(locale.as_deref() != Some(b.locale.as_str()), &b.prefix))
        });
        editions
            .into_iter()
            .map(|e| {
                go_on(cancel)?;
                let scope = self.edition_scope(e);
                let pages = (0..scope.len())
                    .map(|i| {
                        if i % PAGES_PER_CHECK == 0 {
                            go_on(cancel)?;
                        }
                        Ok(PageEntry {
                            path: scope.path(i).into_owned(),
                            title: scope.title(i),
                            description: match descriptions {
                                Descriptions::Read => scope.description(i),
                                Descriptions::Skip => None,
                            },
                            locale: scope.locale(i).to_owned(),
                            fallback: scope.fallback(i),
                        })
                    })
                    .collect::<Result<Vec<_>, LibraryError>>()?;
                Ok(PublishedEdition {
                    label: e.label.clone(),
                    prefix: e.prefix.clone(),
                    locale: e.locale.clone(),
                    pages,
                })
            })
            .collect()
    }
}
