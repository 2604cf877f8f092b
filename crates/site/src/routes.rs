//! The site's pages: each page as HTML at its path, `{path}.md` (exactly
//! `read_page`'s output), the search page, `/llms.txt`, `/sitemap.xml` and
//! `/healthz`. Every handler makes its library calls off the async threads.

use std::fmt::Write;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{any, get};
use lectern_library::pages::{self, ScopeEntry};
use lectern_library::{EditionRecord, SearchParams, View};
use serde::Deserialize;

use crate::error::SiteError;
use crate::html::{self, PageView, SearchResultView};
use crate::state::SiteState;

pub(crate) fn routes() -> Router<SiteState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/llms.txt", get(llms_txt))
        .route("/sitemap.xml", get(sitemap))
        .route("/search", get(search))
        .route("/v1", any(no_api))
        .route("/v1/{*rest}", any(no_api))
        .fallback(page)
}

/// The local API lives on its own private listener, never here.
async fn no_api(uri: Uri) -> SiteError {
    SiteError::NotFound(format!("no page at {}", uri.path()))
}

async fn healthz(State(state): State<SiteState>) -> Result<Response, SiteError> {
    let generation = state.blocking(|s| Ok(s.library().view()?.generation.clone())).await?;
    let body = serde_json::json!({ "status": "ok", "generation": generation }).to_string();
    Ok(([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], body)
        .into_response())
}

/// `https://docs.example.com` from the config, else from the Host header.
fn base_url(view: &View, headers: &HeaderMap) -> String {
    match view.manifest.site.as_ref().and_then(|s| s.base_url.clone()) {
        Some(base) => base,
        None => {
            let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("127.0.0.1");
            format!("http://{host}")
        }
    }
}

/// Percent-encodes a site path for a URL (sitemap, `llms.txt`): every byte
/// but RFC 3986's unreserved and path characters, so `/zh-Hans/app/索引`
/// becomes `/zh-Hans/app/%E7%B4%A2%E5%BC%95`.
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for &b in path.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Percent-decodes a URL path; None when it is not UTF-8.
fn decode_path(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(b) = path.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// Any other GET: `{path}.md` or the HTML page at `path`.
async fn page(
    State(state): State<SiteState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, SiteError> {
    if method != Method::GET && method != Method::HEAD {
        return Err(SiteError::MethodNotAllowed(format!(
            "{method} is not allowed here; the site is read with GET"
        )));
    }
    let Some(path) = decode_path(uri.path()) else {
        return Err(SiteError::NotFound(format!("no page at {}", uri.path())));
    };
    if let Some(page_path) = path.strip_suffix(".md") {
        let page_path = if page_path.is_empty() { "/".to_owned() } else { page_path.to_owned() };
        let markdown = state.blocking(move |s| Ok(s.library().site_page(&page_path)?.markdown)).await?;
        return Ok(([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], markdown).into_response());
    }
    let outcome = state
        .blocking(move |s| {
            let view = s.library().view()?;
            match pages::site_page(&view, &path) {
                Ok(_) => Ok(Ok(page_view(&view, &path, &base_url(&view, &headers))?)),
                Err(e) if path == "/" && e.code() == lectern_library::ErrorCode::NotFound => {
                    Ok(Err(pages::default_edition(&view).map(|e| e.prefix.clone())))
                }
                Err(e) => Err(e.into()),
            }
        })
        .await?;
    match outcome {
        Ok(view) => {
            Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html::page(&view)).into_response())
        }
        Err(Some(prefix)) => Ok(Redirect::temporary(&prefix).into_response()),
        Err(None) => Err(SiteError::NotFound("this site has no published pages yet".into())),
    }
}

/// The page's own path in `edition`, when it exists (or stands in), else
/// the edition's home.
fn counterpart(view: &View, rel: &str, edition: &EditionRecord) -> (String, bool) {
    let target = pages::join(&edition.prefix, rel);
    match pages::site_page(view, &target) {
        Ok(p) => (target, !p.fallback),
        Err(_) => (edition.prefix.clone(), false),
    }
}

fn sidebar_order(a: &ScopeEntry, b: &ScopeEntry) -> std::cmp::Ordering {
    (a.order.is_none(), a.order, &a.title, &a.path).cmp(&(b.order.is_none(), b.order, &b.title, &b.path))
}

fn page_view(view: &View, path: &str, base: &str) -> Result<PageView, SiteError> {
    let page = pages::site_page(view, path)?;
    let owner = view
        .manifest
        .edition(&page.edition)
        .ok_or_else(|| SiteError::Internal(format!("edition {} vanished", page.edition)))?;
    let rel = pages::relative(&page.path, &owner.prefix).to_owned();
    let mut entries: Vec<ScopeEntry> = pages::scope_entries(view, Some(&owner.prefix))?.entries().collect();
    entries.sort_by(sidebar_order);
    let sidebar = entries.into_iter().map(|e| (e.path.clone(), e.title, e.path == page.path)).collect();

    let (versions, translations) = siblings(view, owner);
    let versions = versions
        .into_iter()
        .map(|e| (counterpart(view, &rel, e).0, e.label.clone(), e.id == owner.id))
        .collect();
    let default_locale = pages::site_locale(view);
    let mut locales = Vec::new();
    let mut alternates = Vec::new();
    for e in translations {
        let (href, real) = counterpart(view, &rel, e);
        if real || e.id == owner.id && !page.fallback {
            alternates.push((e.locale.clone(), format!("{base}{href}")));
            if default_locale.as_deref() == Some(e.locale.as_str()) {
                alternates.push(("x-default".to_owned(), format!("{base}{href}")));
            }
        }
        locales.push((href, e.locale.clone(), e.id == owner.id));
    }
    Ok(PageView {
        site_name: view.manifest.site.as_ref().map_or_else(|| "Documentation".to_owned(), |s| s.name.clone()),
        title: page.title.clone(),
        description: page.description.clone(),
        locale: page.locale.clone(),
        path: page.path.clone(),
        prefix: page.prefix.clone(),
        label: page.label.clone(),
        fallback: page.fallback,
        body_html: html::markdown_to_html(
            &page.body,
            html::PageLinks { prefix: &page.prefix, source_file: &page.source_file, anchors: &page.anchors },
        ),
        sidebar,
        versions,
        locales,
        alternates,
    })
}

#[derive(Debug, Default, Deserialize)]
struct SearchQuery {
    #[serde(default)]
    q: String,
    #[serde(default)]
    prefix: String,
}

/// The search box's page: ranked results (SPEC §3) in the edition of the
/// page it was sent from.
async fn search(State(state): State<SiteState>, uri: Uri) -> Result<Response, SiteError> {
    let query: SearchQuery = serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let (status, body) = state
        .blocking(move |s| {
            let view = s.library().view()?;
            let site_name =
                view.manifest.site.as_ref().map_or_else(|| "Documentation".to_owned(), |s| s.name.clone());
            let edition =
                view.manifest.enabled().find(|e| !query.prefix.is_empty() && e.prefix == query.prefix);
            let lang = edition
                .map(|e| e.locale.clone())
                .or_else(|| pages::site_locale(&view))
                .unwrap_or_else(|| "en".to_owned());
            let (versions, locales) =
                edition.map(|e| search_switchers(&view, e, &query.q)).unwrap_or_default();
            let page = |results: &[SearchResultView], message: Option<&str>| {
                html::search_page(&html::SearchView {
                    site_name: &site_name,
                    lang: &lang,
                    prefix: &query.prefix,
                    query: &query.q,
                    versions: versions.clone(),
                    locales: locales.clone(),
                    results,
                    message,
                })
            };
            if query.q.trim().is_empty() {
                return Ok((StatusCode::OK, page(&[], None)));
            }
            let mut params = SearchParams { text: query.q.clone(), ..SearchParams::default() };
            if let Some(e) = edition {
                params.project = Some(e.project.clone());
                params.version = Some(e.version.clone());
                params.locale = Some(e.locale.clone());
                params.domain = Some(e.domain.clone());
                params.collection = e.collection.clone();
            }
            match s.library().search(&params, None, None) {
                Ok(found) => {
                    let results: Vec<SearchResultView> = found
                        .hits
                        .into_iter()
                        .map(|h| SearchResultView {
                            href: match &h.anchor {
                                Some(a) => format!("{}#{a}", h.path),
                                None => h.path.clone(),
                            },
                            title: h.title,
                            breadcrumb: h.breadcrumb.join(" › "),
                            snippet: h.snippet,
                            highlights: h.highlights,
                        })
                        .collect();
                    let message = results.is_empty().then_some("Nothing found. Try other words.");
                    Ok((StatusCode::OK, page(&results, message)))
                }
                Err(e) if e.code() == lectern_library::ErrorCode::InvalidArgument => {
                    Ok((StatusCode::BAD_REQUEST, page(&[], Some(&e.to_string()))))
                }
                Err(e) => Err(e.into()),
            }
        })
        .await?;
    Ok((status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response())
}

/// The same search in the edition's other versions (same project, locale,
/// domain, collection) and in its other languages (same version).
type Switchers = (Vec<(String, String, bool)>, Vec<(String, String, bool)>);

fn search_switchers(view: &View, edition: &EditionRecord, q: &str) -> Switchers {
    let href = |prefix: &str| {
        format!("/search?{}", serde_urlencoded::to_string([("prefix", prefix), ("q", q)]).unwrap_or_default())
    };
    let (versions, translations) = siblings(view, edition);
    let versions =
        versions.into_iter().map(|e| (href(&e.prefix), e.label.clone(), e.id == edition.id)).collect();
    let locales =
        translations.into_iter().map(|e| (href(&e.prefix), e.locale.clone(), e.id == edition.id)).collect();
    (versions, locales)
}

/// The editions a page or search of `edition` can switch to (same project,
/// domain and collection): its versions in its locale, by prefix, and its
/// version's languages, by locale. Both include `edition` itself.
fn siblings<'v>(view: &'v View, edition: &EditionRecord) -> (Vec<&'v EditionRecord>, Vec<&'v EditionRecord>) {
    let shelf = |e: &&EditionRecord| {
        e.project == edition.project && e.domain == edition.domain && e.collection == edition.collection
    };
    let mut versions: Vec<&EditionRecord> =
        view.manifest.enabled().filter(shelf).filter(|e| e.locale == edition.locale).collect();
    versions.sort_by(|a, b| a.prefix.cmp(&b.prefix));
    let mut translations: Vec<&EditionRecord> =
        view.manifest.enabled().filter(shelf).filter(|e| e.version == edition.version).collect();
    translations.sort_by(|a, b| a.locale.cmp(&b.locale));
    (versions, translations)
}

/// Enabled editions, the default locale's first, then by prefix.
fn editions_in_order(view: &View) -> Vec<&EditionRecord> {
    let locale = pages::site_locale(view);
    let mut editions: Vec<&EditionRecord> = view.manifest.enabled().collect();
    editions.sort_by(|a, b| {
        (locale.as_deref() != Some(a.locale.as_str()), &a.prefix)
            .cmp(&(locale.as_deref() != Some(b.locale.as_str()), &b.prefix))
    });
    editions
}

/// `llms.txt`: the site's name and description, then per version its pages
/// as `- [title](url.md): description`.
async fn llms_txt(State(state): State<SiteState>, headers: HeaderMap) -> Result<Response, SiteError> {
    let body = state
        .blocking(move |s| {
            let view = s.library().view()?;
            let base = base_url(&view, &headers);
            Ok(s.cached(format!("llms {} {base}", view.generation), || build_llms(&view, &base)))
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body.as_str().to_owned()).into_response())
}

fn build_llms(view: &View, base: &str) -> String {
    let site = view.manifest.site.as_ref();
    let mut out = format!("# {}\n\n", site.map_or("Documentation", |s| s.name.as_str()));
    if let Some(d) = site.and_then(|s| s.description.as_deref()) {
        let _ = writeln!(out, "> {}\n", d.replace('\n', " "));
    }
    if let Some(i) = site.and_then(|s| s.instructions.as_deref()) {
        let _ = writeln!(out, "{i}\n");
    }
    for edition in editions_in_order(view) {
        let _ = writeln!(out, "## {} ({}, {})\n", edition.label, edition.prefix, edition.locale);
        for meta in view.snapshot.pages(&edition.id).into_iter().filter(|p| !p.draft) {
            let description = view.snapshot.page(&edition.id, &meta.path).and_then(|p| p.description);
            let title = meta.title.replace(['[', ']'], "");
            match description {
                Some(d) => {
                    let _ = writeln!(
                        out,
                        "- [{title}]({base}{}.md): {}",
                        encode_path(&meta.path),
                        d.replace('\n', " ")
                    );
                }
                None => {
                    let _ = writeln!(out, "- [{title}]({base}{}.md)", encode_path(&meta.path));
                }
            }
        }
        out.push('\n');
    }
    out
}

/// `sitemap.xml`: every published page of every enabled edition.
async fn sitemap(State(state): State<SiteState>, headers: HeaderMap) -> Result<Response, SiteError> {
    let body = state
        .blocking(move |s| {
            let view = s.library().view()?;
            let base = base_url(&view, &headers);
            Ok(s.cached(format!("sitemap {} {base}", view.generation), || {
                let mut out = String::from(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
                );
                for edition in editions_in_order(&view) {
                    for meta in view.snapshot.pages(&edition.id).into_iter().filter(|p| !p.draft) {
                        let url = format!("{base}{}", encode_path(&meta.path));
                        let _ = writeln!(out, "<url><loc>{}</loc></url>", html::escape(&url));
                    }
                }
                out.push_str("</urlset>\n");
                out
            }))
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/xml; charset=utf-8")], body.as_str().to_owned()).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_percent_encoded_for_urls_and_decode_back() {
        assert_eq!(encode_path("/zh-Hans/app/索引"), "/zh-Hans/app/%E7%B4%A2%E5%BC%95");
        assert_eq!(encode_path("/app/a b(1)?#"), "/app/a%20b%281%29%3F%23");
        assert_eq!(encode_path("/app/guide_v1.2~x"), "/app/guide_v1.2~x");
        for path in ["/zh-Hans/app/索引", "/app/a b(1)?#", "/ü/%41"] {
            assert_eq!(decode_path(&encode_path(path)).as_deref(), Some(path));
        }
    }

    #[test]
    fn paths_are_percent_decoded() {
        assert_eq!(decode_path("/zh-Hans/app/%E7%B4%A2%E5%BC%95").as_deref(), Some("/zh-Hans/app/索引"));
        assert_eq!(decode_path("/a%2"), Some("/a%2".to_owned()));
        assert_eq!(decode_path("/%ff"), None);
    }
}
