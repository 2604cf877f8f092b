//! The JSON endpoints under `/v1/`. Each extracts its input, makes one
//! library call on a blocking thread, and encodes the result. A request
//! whose client went away (or that hit its time limit) has its handler
//! dropped: that sets the call's cancel flag, so a search or read stops
//! early and a write that has not begun never begins. A write that has
//! begun runs to its end and is not timed out, so what is answered as
//! failed did not happen and what is answered as done did.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use lectern_library::read::ReadFormat;
use lectern_library::search::CacheLookup;
use lectern_library::{
    Library, LibraryError, ListRequest, ReadPageRequest, ReadSectionRequest, SearchParams, TocRequest,
};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::extract::{Json, Query};
use crate::integrations::Integrations;
use crate::state::{AppState, LOGIN_TOKEN_TTL};

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/status", get(status))
        .route("/editions", get(editions))
        .route("/editions/enable", post(enable))
        .route("/editions/disable", post(disable))
        .route("/editions/remove", post(remove))
        .route("/search", get(search_get).post(search_post))
        .route("/section", get(section))
        .route("/page", get(page))
        .route("/toc", get(toc))
        .route("/asset", get(asset))
        .route("/login-token", post(login_token))
        .route("/integrations", get(integrations))
}

/// Every route (with `/v1/openapi.json`, which `lib.rs` adds beside these),
/// for the OpenAPI completeness test.
pub const ROUTES: &[(&str, &str)] = &[
    ("post", "/auth/challenge"),
    ("get", "/v1/status"),
    ("get", "/v1/editions"),
    ("post", "/v1/editions/enable"),
    ("post", "/v1/editions/disable"),
    ("post", "/v1/editions/remove"),
    ("get", "/v1/search"),
    ("post", "/v1/search"),
    ("get", "/v1/section"),
    ("get", "/v1/page"),
    ("get", "/v1/toc"),
    ("post", "/v1/login-token"),
    ("get", "/v1/integrations"),
    ("get", "/v1/openapi.json"),
];

/// Runs a library call on a blocking thread.
async fn blocking<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&Library) -> Result<T, LibraryError> + Send + 'static,
) -> Result<T, ApiError> {
    let library = state.library().clone();
    Ok(tokio::task::spawn_blocking(move || f(&library)).await??)
}

/// `GET /v1/status`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct StatusResponse {
    pub lectern_version: String,
    pub api_version: u32,
    pub pid: u32,
    pub address: String,
    pub port: u16,
    pub started_at: String,
    pub user_data: String,
    pub generation: String,
    pub editions_enabled: usize,
    pub editions_total: usize,
    pub result_cache: ResultCacheStatus,
}

/// The search result cache of the current generation (it starts empty with
/// each generation; `LECTERN_RESULT_CACHE=0` turns it off).
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ResultCacheStatus {
    pub enabled: bool,
    /// Searches answered from the cache.
    pub hits: u64,
    /// Searches looked up in the cache and searched.
    pub misses: u64,
}

async fn status(State(state): State<AppState>) -> Result<axum::Json<StatusResponse>, ApiError> {
    let library = blocking(&state, |l| l.status()).await?;
    Ok(axum::Json(StatusResponse {
        lectern_version: env!("CARGO_PKG_VERSION").to_owned(),
        api_version: crate::discovery::API_VERSION,
        pid: state.pid(),
        address: crate::discovery::ADDRESS.to_owned(),
        port: state.port(),
        started_at: state.options().started_at.clone(),
        user_data: state.options().user_data.display().to_string(),
        generation: library.generation,
        editions_enabled: library.editions_enabled,
        editions_total: library.editions_total,
        result_cache: ResultCacheStatus {
            enabled: library.result_cache,
            hits: library.cache_hits,
            misses: library.cache_misses,
        },
    }))
}

async fn editions(State(state): State<AppState>, Query(q): Query<ListRequest>) -> Result<Response, ApiError> {
    Ok(axum::Json(blocking(&state, move |l| l.list(&q)).await?).into_response())
}

/// Body of `POST /v1/editions/{enable,disable,remove}`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditionRequest {
    /// `project@version/locale[/domain[/collection]]`
    pub edition: String,
}

/// What an edition switch did.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct EditionChange {
    pub edition: String,
    /// `enabled`, `disabled` or `removed`.
    pub state: String,
    /// The generation after the change.
    pub generation: String,
}

async fn switch(state: AppState, edition: String, what: &'static str) -> Result<Response, ApiError> {
    let id = edition.clone();
    let cancel = Arc::new(AtomicBool::new(false));
    // Dropped with the handler (client gone): a write still waiting for
    // another writer gives up; one already begun finishes.
    let _on_drop = CancelOnDrop(cancel.clone());
    let generation = blocking(&state, move |l| {
        let mut on_wait = |m: &str| tracing::info!("{m}");
        let cancel = Some(&*cancel);
        match what {
            "enabled" => l.set_enabled(&id, true, &mut on_wait, cancel),
            "disabled" => l.set_enabled(&id, false, &mut on_wait, cancel),
            _ => l.remove(&id, &mut on_wait, cancel),
        }
    })
    .await?;
    Ok(axum::Json(EditionChange { edition, state: what.to_owned(), generation }).into_response())
}

async fn enable(State(state): State<AppState>, Json(r): Json<EditionRequest>) -> Result<Response, ApiError> {
    switch(state, r.edition, "enabled").await
}

async fn disable(State(state): State<AppState>, Json(r): Json<EditionRequest>) -> Result<Response, ApiError> {
    switch(state, r.edition, "disabled").await
}

async fn remove(State(state): State<AppState>, Json(r): Json<EditionRequest>) -> Result<Response, ApiError> {
    switch(state, r.edition, "removed").await
}

/// Sets a call's cancel flag when the request is dropped (client gone,
/// time limit hit), so the blocking call stops early.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

async fn search(state: AppState, params: SearchParams) -> Result<Response, ApiError> {
    // A repeated search is answered here, without a blocking thread (handing
    // over to one and back cost more than the answer itself); a miss goes
    // there as checked here.
    let pending = match state.library().search_cached(&params)? {
        CacheLookup::Answered(result) => return Ok(axum::Json(result).into_response()),
        CacheLookup::Missed(pending) => pending,
    };
    let slots = state.search_slots();
    let wait = state.limits().busy_wait;
    let permit = match tokio::time::timeout(wait, slots.acquire_owned()).await {
        Ok(Ok(p)) => p,
        _ => {
            return Err(ApiError::Busy(format!(
                "too many searches are running; try again in a second (at most {} at once)",
                state.limits().concurrent_searches
            )));
        }
    };
    let cancel = Arc::new(AtomicBool::new(false));
    // Dropped when the handler is (client gone, time limit): cancels the search.
    let _on_drop = CancelOnDrop(cancel.clone());
    let deadline = state.limits().search_deadline;
    let result = blocking(&state, move |l| {
        let _permit = permit;
        l.search_pending(pending, Some(deadline), Some(cancel))
    })
    .await?;
    Ok(axum::Json(result).into_response())
}

async fn search_get(
    State(state): State<AppState>,
    Query(p): Query<SearchParams>,
) -> Result<Response, ApiError> {
    search(state, p).await
}

async fn search_post(
    State(state): State<AppState>,
    Json(p): Json<SearchParams>,
) -> Result<Response, ApiError> {
    search(state, p).await
}

/// `text`, `markdown`, or `html` (the Markdown rendered to safe HTML).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ApiFormat {
    Text,
    Markdown,
    Html,
}

impl ApiFormat {
    fn library(self) -> ReadFormat {
        match self {
            ApiFormat::Text => ReadFormat::Text,
            ApiFormat::Markdown | ApiFormat::Html => ReadFormat::Markdown,
        }
    }
}

/// `GET /v1/section` query.
/// Points the rendered page's site images (`<img src="/…">`) at `GET
/// /v1/asset`, which the web page's session may read.
fn images_from_api(html: &str) -> String {
    const OPEN: &str = "<img src=\"/";
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        out.push_str("<img src=\"/v1/asset?path=");
        let after = &rest[i + OPEN.len() - 1..];
        let end = after.find('"').unwrap_or(after.len());
        // The attribute is HTML-escaped; a query value is percent-encoded.
        let path = after[..end].replace("&amp;", "&");
        out.push_str(&serde_urlencoded::to_string([("p", path.as_str())]).unwrap_or_default()[2..]);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SectionQuery {
    pub section_key: String,
    pub generation: Option<String>,
    pub offset: Option<i64>,
    pub limit: Option<i64>,
    /// `text` (default), `markdown` or `html`.
    pub format: Option<ApiFormat>,
}

/// `GET /v1/page` query.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PageQuery {
    /// A full site path, or a path relative to `edition`; an `#anchor`
    /// after it (sent as `%23`) reads the section it names with its
    /// subsections (`next_offset` says where the page goes on), unless
    /// `offset` or `limit` is given.
    pub path: String,
    pub edition: Option<String>,
    pub generation: Option<String>,
    pub offset: Option<i64>,
    pub limit: Option<i64>,
    /// `markdown` (default), `text` or `html`.
    pub format: Option<ApiFormat>,
}

/// Re-encodes a window as HTML when asked: the Markdown window, rendered.
fn finish(value: serde_json::Value, format: Option<ApiFormat>) -> Response {
    finish_with(value, format, lectern_corpus::render::PageLinks::default())
}

/// [`finish`] for a window of a page (`links` say where it lives): its
/// images of the library are shown from `/v1/asset`.
fn finish_with(
    mut value: serde_json::Value,
    format: Option<ApiFormat>,
    links: lectern_corpus::render::PageLinks<'_>,
) -> Response {
    if format == Some(ApiFormat::Html)
        && let Some(obj) = value.as_object_mut()
    {
        let html = lectern_corpus::render::markdown_to_html(
            obj.get("content").and_then(|c| c.as_str()).unwrap_or(""),
            links,
        );
        let html = images_from_api(&html);
        obj.insert("content".into(), html.into());
        obj.insert("format".into(), "html".into());
    }
    axum::Json(value).into_response()
}

async fn section(State(state): State<AppState>, Query(q): Query<SectionQuery>) -> Result<Response, ApiError> {
    let format = q.format;
    let request = ReadSectionRequest {
        section_key: q.section_key,
        generation: q.generation,
        offset: q.offset,
        limit: q.limit,
        format: format.map(ApiFormat::library).unwrap_or_default(),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let _on_drop = CancelOnDrop(cancel.clone());
    let r = blocking(&state, move |l| l.read_section_unless(&request, Some(&cancel))).await?;
    Ok(finish(serde_json::to_value(r).map_err(|e| ApiError::Internal(e.to_string()))?, format))
}

async fn page(State(state): State<AppState>, Query(q): Query<PageQuery>) -> Result<Response, ApiError> {
    let format = q.format;
    let request = ReadPageRequest {
        path: q.path,
        edition: q.edition,
        generation: q.generation,
        offset: q.offset,
        limit: q.limit,
        format: format.map(ApiFormat::library),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let _on_drop = CancelOnDrop(cancel.clone());
    let r = blocking(&state, move |l| {
        let page = l.read_page_unless(&request, Some(&cancel))?;
        // The page's file, so its relative images resolve as the site resolves them.
        let view = l.view()?;
        let source_file = view.page_source_file(&page.edition.edition, &page.path);
        let source_folder = view.edition(&page.edition.edition).map(|e| e.source.clone()).unwrap_or_default();
        Ok((page, source_file, source_folder, view))
    })
    .await?;
    let (page, source_file, source_folder, view) = r;
    // Links leaving the tree lead to the installed editions they name.
    let installed = |link: &lectern_corpus::links::Outside| view.outside_page(link);
    let links = lectern_corpus::render::PageLinks {
        prefix: &page.edition.prefix,
        source_file: source_file.as_deref().unwrap_or(""),
        others: Some(lectern_corpus::links::OtherEditions { source: &source_folder, page: &installed }),
        ..Default::default()
    };
    let value = serde_json::to_value(&page).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(finish_with(value, format, links))
}

/// `GET /v1/asset` query.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AssetQuery {
    /// The asset's full site path (`/python/_images/foo.png`), as a page's HTML names it.
    pub path: String,
}

/// `GET /v1/asset`: an image or file a page references, with its type
/// (never sniffed; an SVG may run nothing), for the web page's reader.
async fn asset(State(state): State<AppState>, Query(q): Query<AssetQuery>) -> Result<Response, ApiError> {
    let path = q.path;
    let found = blocking(&state, move |l| {
        let Some(asset) = l.view()?.asset(&path) else {
            return Err(LibraryError::NotFound(format!("no asset at {path}")));
        };
        let mut bytes = Vec::with_capacity(usize::try_from(asset.size).unwrap_or(0));
        std::io::Read::read_to_end(&mut asset.open()?, &mut bytes)
            .map_err(|e| LibraryError::Io { path: asset.file.display().to_string(), source: e })?;
        Ok((asset, bytes))
    })
    .await?;
    let (asset, bytes) = found;
    let mut response = ([(header::CONTENT_TYPE, asset.content_type.as_str())], bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    if let Ok(tag) = HeaderValue::from_str(&format!("\"{}\"", asset.hash)) {
        headers.insert(header::ETAG, tag);
    }
    if asset.content_type == "image/svg+xml" {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
        );
    }
    Ok(response)
}

/// `GET /v1/toc`: an edition's pages as a tree, for the web page's reader.
async fn toc(State(state): State<AppState>, Query(q): Query<TocRequest>) -> Result<Response, ApiError> {
    let cancel = Arc::new(AtomicBool::new(false));
    let _on_drop = CancelOnDrop(cancel.clone());
    Ok(axum::Json(blocking(&state, move |l| l.toc_unless(&q, Some(&cancel))).await?).into_response())
}

/// `POST /v1/login-token`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct LoginToken {
    /// Open this in a browser; it works once, within `expires_in` seconds.
    pub url: String,
    pub expires_in: u64,
}

async fn login_token(State(state): State<AppState>) -> axum::Json<LoginToken> {
    let token = state.mint_login_token();
    axum::Json(LoginToken { url: state.login_url(&token), expires_in: LOGIN_TOKEN_TTL.as_secs() })
}

/// `GET /v1/integrations`: every MCP client's config, with this binary's and
/// the library's absolute paths.
async fn integrations(State(state): State<AppState>) -> axum::Json<Integrations> {
    let o = state.options();
    axum::Json(Integrations::new(&o.exe, &o.user_data, o.demo))
}
