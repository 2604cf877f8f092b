//! Listing: the published versions with the prefix that scopes them, and a
//! scope's pages in path order, a bounded number at a time after a path cursor.

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

use crate::error::LibraryError;
use crate::library::Library;
use crate::pages::scope::check_cursor;
use crate::pages::wire::{ListPagesRequest, ListPagesResponse, PageEntry, VersionEntry, VersionsResponse};
use crate::pages::{PAGE_LIMIT, go_on};

impl Library {
    /// Every enabled edition with its prefix, label, ref, status, locales and
    /// whether it is the site's default.
    pub fn list_versions(&self) -> Result<VersionsResponse, LibraryError> {
        let view = self.view()?;
        let manifest = &view.manifest;
        let default = view.default_edition().map(|e| e.id.clone());
        let mut versions: Vec<VersionEntry> = manifest
            .enabled()
            .map(|e| {
                let locales: BTreeSet<String> = manifest
                    .enabled()
                    .filter(|o| {
                        o.project == e.project
                            && o.version == e.version
                            && o.domain == e.domain
                            && o.collection == e.collection
                    })
                    .map(|o| o.locale.clone())
                    .collect();
                VersionEntry {
                    prefix: e.prefix.clone(),
                    label: e.label.clone(),
                    r#ref: e.r#ref.clone(),
                    status: e.status,
                    locale: e.locale.clone(),
                    locales: locales.into_iter().collect(),
                    default: default.as_deref() == Some(e.id.as_str()),
                    project: e.project.clone(),
                    version: e.version.clone(),
                    domain: e.domain.clone(),
                    collection: e.collection.clone(),
                }
            })
            .collect();
        versions.sort_by(|a, b| a.prefix.cmp(&b.prefix));
        Ok(VersionsResponse { generation: view.generation.clone(), versions })
    }

    /// The scope's pages in path order, `limit` at a time after `cursor`.
    pub fn list_pages(&self, request: &ListPagesRequest) -> Result<ListPagesResponse, LibraryError> {
        self.list_pages_unless(request, None)
    }

    /// [`Library::list_pages`], stopped once `cancel` is set (building a
    /// scope's table reads every page of a large edition).
    pub fn list_pages_unless(
        &self,
        request: &ListPagesRequest,
        cancel: Option<&AtomicBool>,
    ) -> Result<ListPagesResponse, LibraryError> {
        go_on(cancel)?;
        let limit = PAGE_LIMIT.check(request.limit)?;
        let cursor = check_cursor(request.cursor.as_deref())?;
        let view = self.view()?;
        let scope = view.scope(request.prefix.as_deref())?;
        go_on(cancel)?;
        let start = scope.after(cursor);
        let end = (start + limit).min(scope.len());
        let pages = (start..end)
            .map(|i| PageEntry {
                path: scope.path(i).into_owned(),
                title: scope.title(i),
                description: scope.description(i),
                locale: scope.locale(i).to_owned(),
                fallback: scope.fallback(i),
            })
            .collect::<Vec<_>>();
        let next_cursor = (end < scope.len()).then(|| scope.path(end - 1).into_owned());
        Ok(ListPagesResponse { generation: view.generation.clone(), pages, next_cursor })
    }
}
