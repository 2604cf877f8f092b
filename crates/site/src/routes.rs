//! The site's pages: each page as HTML at its path, `{path}.md` (exactly
//! `read_page`'s output), the search page, `/llms.txt`, `/sitemap.xml` and
//! `/healthz`; and the images and files pages reference, at their paths. Every handler extracts its input, makes one library call off
//! the async threads, and encodes the answer. A client that leaves stops
//! its call: dropping the handler sets the call's cancel flag.

use std::fmt::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{any, get};
use lectern_corpus::SiteConfig;
use lectern_library::pages::DEFAULT_SITE_NAME;
use lectern_library::{
    Asset, Descriptions, LibraryError, NavLink, PAGES_PER_CHECK, PublishedEdition, SiteSearch, View, Visit,
};
use serde::Deserialize;

use crate::error::SiteError;
use crate::html::{self, SearchResultView};
use crate::state::SiteState;

pub(crate) fn routes() -> Router<SiteState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/llms.txt", get(llms_txt))
        .route("/sitemap.xml", get(sitemap))
        .route("/robots.txt", get(robots_txt))
        .route("/favicon.ico", get(favicon))
        .route("/search", get(search))
        .route("/v1", any(no_api))
        .route("/v1/{*rest}", any(no_api))
        .fallback(page)
}

/// Sets a call's cancel flag when dropped: axum drops a handler's future
/// when its client goes away, so the blocking call it started stops too.
pub(crate) struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A fresh cancel flag and the guard that sets it when the handler is dropped.
pub(crate) fn cancel_on_drop() -> (Arc<AtomicBool>, CancelOnDrop) {
    let cancel = Arc::new(AtomicBool::new(false));
    (cancel.clone(), CancelOnDrop(cancel))
}

/// Fails once `cancel` is set: nobody waits for the answer any more.
fn go_on(cancel: &AtomicBool) -> Result<(), SiteError> {
    if cancel.load(Ordering::Relaxed) {
        return Err(LibraryError::Timeout("stopped: its request was given up".into()).into());
    }
    Ok(())
}

/// The local API lives on its own private listener, never here.
async fn no_api(uri: Uri) -> SiteError {
    SiteError::NotFound(format!("no page at {}", uri.path()))
}

async fn healthz(State(state): State<SiteState>) -> Result<Response, SiteError> {
    let generation = state.blocking(|s| Ok(s.library().view()?.generation().to_owned())).await?;
    let body = serde_json::json!({ "status": "ok", "generation": generation }).to_string();
    Ok(([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], body)
        .into_response())
}

/// `robots.txt`: everything may be crawled; the sitemap lists the pages.
async fn robots_txt(State(state): State<SiteState>, headers: HeaderMap) -> Result<Response, SiteError> {
    let site = state.blocking(|s| Ok(s.library().view()?.site().cloned())).await?;
    let body =
        format!("User-agent: *\nAllow: /\nSitemap: {}/sitemap.xml\n", base_url(site.as_ref(), &headers));
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response())
}

/// The built-in icon: a 32×32 PNG inside an ICO file.
const DEFAULT_ICON: &[u8] = include_bytes!("favicon.ico");
/// Largest icon file served from the site config's `icon`.
const MAX_ICON_BYTES: u64 = 256 * 1024;

/// `/favicon.ico`: the site config's `icon` (`.ico`, `.png`, `.svg`), else
/// the built-in one. An icon that cannot be read is logged and the built-in
/// one is served, so a browser never logs an error for it.
async fn favicon(State(state): State<SiteState>) -> Result<Response, SiteError> {
    let icon = state
        .blocking(|s| {
            let Some(path) = s.library().view()?.site().and_then(|c| c.icon.clone()) else {
                return Ok(None);
            };
            match lectern_corpus::walk::read_capped(&path, MAX_ICON_BYTES) {
                Ok(bytes) => Ok(Some((path, bytes))),
                Err(reason) => {
                    tracing::warn!("site icon {}: {reason}", path.display());
                    Ok(None)
                }
            }
        })
        .await?;
    let (kind, bytes) = match icon {
        Some((path, bytes)) => {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
            let kind = match ext.as_str() {
                "png" => "image/png",
                "svg" => "image/svg+xml",
                _ => "image/x-icon",
            };
            (kind, bytes)
        }
        None => ("image/x-icon", DEFAULT_ICON.to_vec()),
    };
    Ok(([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "public, max-age=86400")], bytes)
        .into_response())
}

/// `https://docs.example.com` from the config, else from the Host header.
fn base_url(site: Option<&SiteConfig>, headers: &HeaderMap) -> String {
    match site.and_then(|s| s.base_url.clone()) {
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
pub(crate) fn encode_path(path: &str) -> String {
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
    if lectern_corpus::assets::content_type(&path).is_some() {
        let asset_path = path.clone();
        let found = state.blocking(move |s| read_asset(&*s.library().view()?, &asset_path)).await?;
        if let Some((asset, bytes)) = found {
            return Ok(asset_response(&asset, bytes));
        }
    }
    let (cancel, _on_drop) = cancel_on_drop();
    if let Some(page_path) = path.strip_suffix(".md") {
        let page_path = if page_path.is_empty() { "/".to_owned() } else { page_path.to_owned() };
        let markdown = state
            .blocking(move |s| match s.library().site_page_unless(&page_path, Some(&cancel)) {
                Ok(page) => Ok(Ok(page.markdown)),
                // Another path of a page (an old address): that page's Markdown.
                Err(missing @ lectern_library::LibraryError::NotFound(_)) => {
                    match s.library().view()?.moved_page(&page_path) {
                        Some(to) => Ok(Err(to)),
                        None => Err(missing.into()),
                    }
                }
                Err(e) => Err(e.into()),
            })
            .await?;
        return Ok(match markdown {
            Ok(markdown) => {
                ([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], markdown).into_response()
            }
            Err(to) => {
                let to = to.split('#').next().unwrap_or_default();
                Redirect::temporary(&format!("{to}.md")).into_response()
            }
        });
    }
    let answer = state
        .blocking(move |s| {
            go_on(&cancel)?;
            let view = s.library().view()?;
            Ok(match view.page_nav(&path)? {
                Visit::Page(nav) => {
                    // Rendering a large page is the costly part.
                    go_on(&cancel)?;
                    let page = &nav.page;
                    // Links resolve against the pages the edition's navigation
                    // lists, and their other paths (which redirect to them).
                    let edition = view.site_nav(&page.prefix)?;
                    let is_page = |p: &str| edition.contains(p) || view.leads_to_page(p);
                    // Links leaving the tree, to the installed editions they name.
                    let installed = |link: &html::Outside| view.outside_page(link);
                    let others = html::OtherEditions { source: &page.source_folder, page: &installed };
                    let links = html::PageLinks {
                        prefix: &page.prefix,
                        source_file: &page.source_file,
                        anchors: &page.anchors,
                        title: Some(&page.title),
                        pages: Some(html::PageSet(&is_page)),
                        others: Some(others),
                    };
                    let body = html::markdown_to_html(&page.body, links);
                    Ok(crate::page::page(&nav, &body, &base_url(view.site(), &headers)))
                }
                Visit::Redirect(prefix) => Err(Ok(prefix)),
                Visit::Missing(missing) => Err(Err(crate::page::missing(&missing, &path))),
            })
        })
        .await?;
    let html = [(header::CONTENT_TYPE, "text/html; charset=utf-8")];
    match answer {
        Ok(page) => Ok((html, page).into_response()),
        Err(Ok(prefix)) => Ok(Redirect::temporary(&prefix).into_response()),
        Err(Err(missing)) => Ok((StatusCode::NOT_FOUND, html, missing).into_response()),
    }
}

/// The asset at `path` and its bytes, if an edition keeps one there.
pub(crate) fn read_asset(view: &View, path: &str) -> Result<Option<(Asset, Vec<u8>)>, SiteError> {
    let Some(asset) = view.asset(path) else { return Ok(None) };
    let mut bytes = Vec::with_capacity(usize::try_from(asset.size).unwrap_or(0));
    std::io::Read::read_to_end(&mut asset.open()?, &mut bytes)
        .map_err(|e| LibraryError::Io { path: asset.file.display().to_string(), source: e })?;
    Ok(Some((asset, bytes)))
}

/// An asset's answer: its type, never sniffed; an SVG image may run
/// nothing and load nothing even when opened on its own.
pub(crate) fn asset_response(asset: &Asset, bytes: Vec<u8>) -> Response {
    let mut response = ([(header::CONTENT_TYPE, asset.content_type.as_str())], bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, axum::http::HeaderValue::from_static("nosniff"));
    if asset.content_type == "image/svg+xml" {
        headers.insert(header::CONTENT_SECURITY_POLICY, axum::http::HeaderValue::from_static(SVG_POLICY));
    }
    response
}

/// What an SVG image served by the site may do: draw, with its own styles.
pub const SVG_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

#[derive(Debug, Default, Deserialize)]
struct SearchQuery {
    #[serde(default)]
    q: String,
    #[serde(default)]
    prefix: String,
}

/// The search box's page: ranked results in the edition of the page it
/// was sent from.
async fn search(State(state): State<SiteState>, uri: Uri) -> Result<Response, SiteError> {
    let query: SearchQuery = serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let (cancel, _on_drop) = cancel_on_drop();
    let (status, body) = state
        .blocking(move |s| {
            let SiteSearch { site_name, lang, versions, locales, results, elsewhere } =
                s.library().site_search_unless(&query.prefix, &query.q, Some(cancel.clone()))?;
            go_on(&cancel)?;
            // The same search in another version or language.
            let href = |prefix: &str| {
                format!(
                    "/search?{}",
                    serde_urlencoded::to_string([("prefix", prefix), ("q", &query.q)]).unwrap_or_default()
                )
            };
            let switch = |links: &[NavLink]| -> Vec<NavLink> {
                links.iter().map(|l| NavLink { path: href(&l.path), ..l.clone() }).collect()
            };
            let page = |results: &[SearchResultView], message: Option<&str>| {
                html::search_page(&html::SearchView {
                    site_name: &site_name,
                    lang: &lang,
                    prefix: &query.prefix,
                    query: &query.q,
                    versions: switch(&versions),
                    locales: switch(&locales),
                    elsewhere: switch(&elsewhere),
                    results,
                    message,
                })
            };
            match results {
                None => Ok((StatusCode::OK, page(&[], None))),
                Some(Ok(found)) => {
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
                    let message = match (results.is_empty(), elsewhere.is_empty()) {
                        (false, _) => None,
                        (true, true) => Some("Nothing found. Try other words."),
                        (true, false) => Some("Nothing found here. The same words are found in:"),
                    };
                    Ok((StatusCode::OK, page(&results, message)))
                }
                Some(Err(e)) if e.code() == lectern_library::ErrorCode::InvalidArgument => {
                    Ok((StatusCode::BAD_REQUEST, page(&[], Some(&e.to_string()))))
                }
                Some(Err(e)) => Err(e.into()),
            }
        })
        .await?;
    Ok((status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response())
}

/// `llms.txt`: the site's name and description, then per version its
/// published pages as `- [title](url.md): description`; a page standing in
/// for a missing translation says so and names the language it is in.
async fn llms_txt(State(state): State<SiteState>, headers: HeaderMap) -> Result<Response, SiteError> {
    let (cancel, _on_drop) = cancel_on_drop();
    let body = state
        .blocking(move |s| {
            go_on(&cancel)?;
            let view = s.library().view()?;
            let base = base_url(view.site(), &headers);
            s.cached(view.generation(), format!("llms {base}"), || build_llms(&view, &base, &cancel))
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body.as_str().to_owned()).into_response())
}

/// Stops once `cancel` is set (the client left): a large site takes a while.
fn build_llms(view: &View, base: &str, cancel: &AtomicBool) -> Result<String, SiteError> {
    let site = view.site();
    let mut out = format!("# {}\n\n", site.map_or(DEFAULT_SITE_NAME, |s| s.name.as_str()));
    if let Some(d) = site.and_then(|s| s.description.as_deref()) {
        let _ = writeln!(out, "> {}\n", d.replace('\n', " "));
    }
    if let Some(i) = site.and_then(|s| s.instructions.as_deref()) {
        let _ = writeln!(out, "{i}\n");
    }
    for PublishedEdition { label, prefix, locale, pages } in
        view.published_unless(Descriptions::Read, Some(cancel))?
    {
        go_on(cancel)?;
        let _ = writeln!(out, "## {label} ({prefix}, {locale})\n");
        for (i, page) in pages.into_iter().enumerate() {
            if i % PAGES_PER_CHECK == 0 {
                go_on(cancel)?;
            }
            let title = page.title.replace(['[', ']'], "");
            let url = format!("{base}{}.md", encode_path(&page.path));
            let mut notes = Vec::new();
            if page.fallback {
                notes.push(format!("(not translated yet; shown in {})", page.locale));
            }
            if let Some(d) = page.description {
                notes.push(d.replace('\n', " "));
            }
            if notes.is_empty() {
                let _ = writeln!(out, "- [{title}]({url})");
            } else {
                let _ = writeln!(out, "- [{title}]({url}): {}", notes.join(" "));
            }
        }
        out.push('\n');
    }
    Ok(out)
}

/// `sitemap.xml`: every published page of every enabled edition (the same
/// URLs as `llms.txt`, fallback stand-ins included: the site answers them).
async fn sitemap(State(state): State<SiteState>, headers: HeaderMap) -> Result<Response, SiteError> {
    let (cancel, _on_drop) = cancel_on_drop();
    let body = state
        .blocking(move |s| {
            go_on(&cancel)?;
            let view = s.library().view()?;
            let base = base_url(view.site(), &headers);
            s.cached(view.generation(), format!("sitemap {base}"), || build_sitemap(&view, &base, &cancel))
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/xml; charset=utf-8")], body.as_str().to_owned()).into_response())
}

/// Stops once `cancel` is set, like [`build_llms`].
fn build_sitemap(view: &View, base: &str, cancel: &AtomicBool) -> Result<String, SiteError> {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for edition in view.published_unless(Descriptions::Skip, Some(cancel))? {
        go_on(cancel)?;
        for (i, page) in edition.pages.into_iter().enumerate() {
            if i % PAGES_PER_CHECK == 0 {
                go_on(cancel)?;
            }
            let url = format!("{base}{}", encode_path(&page.path));
            let _ = writeln!(out, "<url><loc>{}</loc></url>", html::escape(&url));
        }
    }
    out.push_str("</urlset>\n");
    Ok(out)
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
