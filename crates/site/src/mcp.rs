//! `/mcp`: a stateless Streamable HTTP MCP server (rmcp) with exactly four
//! tools (`list_versions`, `list_pages`, `search_docs`, `read_page`) over
//! the library's page API. Name, description and
//! instructions come from the site config. Every result carries
//! `structuredContent` and one text block: exactly that JSON, except
//! `read_page`'s page, whose text is the page's Markdown under its YAML
//! frontmatter (what an agent reads; the same as `structuredContent.markdown`).
//! Tool errors are `isError: true` results whose `structuredContent` is
//! `{"error":{"code","message"}}`, the same shape as every face, which each
//! tool's `outputSchema` admits beside its success shape.
//!
//! JSON-RPC batches exist only in revision 2025-03-26: a POSTed array is
//! answered element by element when the request names that revision or none
//! (a 2025-03-26 client sends no `MCP-Protocol-Version`), and refused with a
//! JSON-RPC error naming the revision otherwise.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use lectern_library::error::{ErrorBody, output_schema_or_error};
use lectern_library::{
    Library, LibraryError, ListPagesRequest, ListPagesResponse, SearchPagesRequest, SearchPagesResponse,
    SitePage, VersionsResponse,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::routes::cancel_on_drop;
use crate::state::{MAX_MCP_BODY_BYTES, SiteState};

/// `list_versions` takes no parameters (and says so: a strict schema for
/// a model).
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListVersionsParams {}

/// `read_page`'s parameters.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadPageParams {
    /// Full site path of the page, as `list_pages` or `search_docs` return it
    /// (e.g. `/app/guide/install`).
    pub path: String,
}

/// The tools; one per request (stateless).
#[derive(Clone)]
pub struct DocsTools {
    library: Arc<Library>,
    tool_router: ToolRouter<DocsTools>,
}

impl std::fmt::Debug for DocsTools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DocsTools").finish_non_exhaustive()
    }
}

/// Runs a blocking library call and encodes its answer or error.
async fn call<T: Serialize + Send + 'static>(
    library: &Arc<Library>,
    f: impl FnOnce(&Library, &AtomicBool) -> Result<T, LibraryError> + Send + 'static,
) -> Result<CallToolResult, ErrorData> {
    let library = library.clone();
    // Dropped with the tool's future (the client left or cancelled): stops the call.
    let (cancel, _on_drop) = cancel_on_drop();
    let outcome = tokio::task::spawn_blocking(move || f(&library, &cancel))
        .await
        .map_err(|e| ErrorData::internal_error(format!("a library call failed: {e}"), None))?;
    Ok(match outcome {
        Ok(value) => {
            let value =
                serde_json::to_value(value).map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            CallToolResult::structured(value)
        }
        Err(e) => tool_error(&e),
    })
}

/// `isError: true` with `{"error":{"code","message"}}`.
pub fn tool_error(e: &LibraryError) -> CallToolResult {
    error_body_result(e.body())
}

/// `isError: true` with `body` as `structuredContent` and the same JSON as
/// the text, so a client without `structuredContent` still sees the code.
fn error_body_result(body: ErrorBody) -> CallToolResult {
    let value = serde_json::to_value(body).expect("an error body serialises");
    let mut result = CallToolResult::error(vec![ContentBlock::text(value.to_string())]);
    result.structured_content = Some(value);
    result
}

#[tool_router]
impl DocsTools {
    pub fn new(library: Arc<Library>) -> DocsTools {
        DocsTools { library, tool_router: Self::tools() }
    }

    /// The tools, nullable types in their schemas written as `anyOf`
    /// ([`lectern_library::error::nullable_as_any_of`]).
    fn tools() -> ToolRouter<Self> {
        let mut router = Self::tool_router();
        for route in router.map.values_mut() {
            lectern_library::error::tool_schemas_any_of(
                &mut route.attr.input_schema,
                &mut route.attr.output_schema,
            );
        }
        router
    }

    /// Every published version with the prefix that scopes it (`/app`, `/app/v1`, `/zh-Hans/app`), its label, ref, lifecycle status, locale, the locales it is published in, and whether it is the default. Call this first and pass a prefix to list_pages or search_docs.
    #[tool(
        name = "list_versions",
        annotations(title = "List versions", read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema_or_error::<VersionsResponse>()
    )]
    async fn list_versions(
        &self,
        Parameters(_): Parameters<ListVersionsParams>,
    ) -> Result<CallToolResult, ErrorData> {
        call(&self.library, |lib, _| lib.list_versions()).await
    }

    /// The table of contents of a scope, sorted by path: limit (default 20, at most 100) pages after cursor. A prefix from list_versions scopes it to one version (nested versions are separate scopes); without one, every version in the site's default locale. In a translated scope a missing translation appears once, with fallback: true and its real locale. When nextCursor is present, pass it as cursor to continue; without it the listing is complete.
    #[tool(
        name = "list_pages",
        annotations(title = "List pages", read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema_or_error::<ListPagesResponse>()
    )]
    async fn list_pages(
        &self,
        Parameters(request): Parameters<ListPagesRequest>,
    ) -> Result<CallToolResult, ErrorData> {
        call(&self.library, move |lib, cancel| lib.list_pages_unless(&request, Some(cancel))).await
    }

    /// Find pages containing a term (case-insensitive, Unicode-normalised substring of the title or body), sorted by path, each with an excerpt around the first match. Same prefix, limit (default 20, at most 100) and cursor rules as list_pages. Pass a result's path to read_page. No match in the version searched but some in others: elsewhere lists them by prefix and hint says it in one sentence.
    #[tool(
        name = "search_docs",
        annotations(title = "Search the docs", read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema_or_error::<SearchPagesResponse>()
    )]
    async fn search_docs(
        &self,
        Parameters(request): Parameters<SearchPagesRequest>,
    ) -> Result<CallToolResult, ErrorData> {
        call(&self.library, move |lib, cancel| lib.search_pages_unless(&request, Some(cancel))).await
    }

    /// One page as Markdown, exactly as written, under a YAML frontmatter giving its path (the page's own, when the path given is an old address of it), prefix, version label and ref, locale and lifecycle status (and fallback: true when a default-locale page stands in for a missing translation). Never HTML.
    #[tool(
        name = "read_page",
        annotations(title = "Read a page", read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema_or_error::<SitePage>()
    )]
    async fn read_page(
        &self,
        Parameters(params): Parameters<ReadPageParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let library = self.library.clone();
        let (cancel, _on_drop) = cancel_on_drop();
        let outcome = tokio::task::spawn_blocking(move || {
            library.site_page_following_unless(&params.path, Some(&cancel))
        })
        .await
        .map_err(|e| ErrorData::internal_error(format!("a library call failed: {e}"), None))?;
        Ok(match outcome {
            // The text block is the Markdown itself: what an agent wants to read.
            Ok(page) => {
                let mut result = CallToolResult::success(vec![ContentBlock::text(page.markdown.clone())]);
                result.structured_content = serde_json::to_value(&page).ok();
                result
            }
            Err(e) => tool_error(&e),
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for DocsTools {
    /// rmcp answers tool arguments it cannot decode (a wrong type, an
    /// unknown field such as Dash's `load_url`) with a bare `isError` text;
    /// give it the `{"error":{"code","message"}}` every tool error carries.
    /// Regression: `tool_argument_errors_lack_structured_content`.
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        // rmcp cancels the token when the client disconnects or cancels the
        // call; dropping the tool's future then stops its library call.
        let ct = context.ct.clone();
        if !self.tool_router.has_route(&request.name) {
            let tools: Vec<String> =
                self.tool_router.list_all().into_iter().map(|t| t.name.to_string()).collect();
            let message = lectern_library::error::unknown_tool(&request.name, &tools);
            return Err(ErrorData::invalid_params(message, None));
        }
        let tcc = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        let mut response = tokio::select! {
            response = self.tool_router.call(tcc) => response?,
            () = ct.cancelled() => {
                return Err(ErrorData::internal_error("the call was cancelled by its client", None));
            }
        };
        if let rmcp::model::CallToolResponse::Complete(result) = &mut response
            && result.is_error == Some(true)
            && result.structured_content.is_none()
        {
            let decoder = result.content.first().and_then(|c| c.as_text()).map(|t| t.text.as_str());
            let restructured = tool_error(&LibraryError::undecodable_arguments(decoder));
            result.structured_content = restructured.structured_content;
            result.content = restructured.content;
        }
        Ok(response)
    }
    fn get_info(&self) -> ServerConfig {
        let site = self.library.view().ok().and_then(|v| v.site().cloned());
        let name = site.as_ref().map_or_else(|| "Lectern docs".to_owned(), |s| s.name.clone());
        let mut server = Implementation::new(name.clone(), env!("CARGO_PKG_VERSION")).with_title(name);
        if let Some(d) = site.as_ref().and_then(|s| s.description.clone()) {
            server = server.with_description(d);
        }
        let instructions = site.and_then(|s| s.instructions).unwrap_or_else(|| {
            "Call list_versions to see the published versions and their prefixes, then list_pages or search_docs with a prefix, and read_page with a returned path.".to_owned()
        });
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(server)
            .with_instructions(instructions)
    }
}

/// rmcp's Streamable HTTP server for the tools.
type Rmcp = StreamableHttpService<DocsTools, NeverSessionManager>;

/// The `/mcp` service: rmcp's, with batches answered per revision and a
/// malformed `initialize` told what is wrong with its params.
#[derive(Clone)]
pub struct McpService {
    rmcp: Rmcp,
}

impl tower::Service<axum::extract::Request> for McpService {
    type Response = Response;
    type Error = Infallible;
    type Future = std::pin::Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: axum::extract::Request) -> Self::Future {
        let rmcp = self.rmcp.clone();
        Box::pin(async move { Ok(answer(rmcp, request).await) })
    }
}

/// One HTTP request to `/mcp`.
async fn answer(rmcp: Rmcp, request: axum::extract::Request) -> Response {
    if request.method() != Method::POST {
        return forward(rmcp, request).await;
    }
    let (parts, body) = request.into_parts();
    // `parse_errors` has already refused bodies over the cap or not JSON.
    let Ok(bytes) = axum::body::to_bytes(body, MAX_MCP_BODY_BYTES).await else {
        return too_large();
    };
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Array(items)) => batch(rmcp, parts, items).await,
        // From 2026-07-28 on there is no `initialize`; rmcp answers it.
        Ok(_) if revision_of(&parts).is_some_and(|r| r >= "2026-07-28") => {
            forward(rmcp, axum::extract::Request::from_parts(parts, bytes.into())).await
        }
        Ok(message) => match initialize_problem(&message) {
            Some(problem) => rpc_error(StatusCode::BAD_REQUEST, message["id"].clone(), -32602, &problem),
            None => forward(rmcp, axum::extract::Request::from_parts(parts, bytes.into())).await,
        },
        Err(_) => forward(rmcp, axum::extract::Request::from_parts(parts, bytes.into())).await,
    }
}

async fn forward(mut rmcp: Rmcp, request: axum::extract::Request) -> Response {
    use tower::Service;
    match rmcp.call(request).await {
        Ok(response) => response.map(axum::body::Body::new),
        Err(never) => match never {},
    }
}

/// The revision a POST names, and the one assumed without a header.
const BATCH_REVISION: &str = "2025-03-26";

/// A JSON-RPC batch: answered when the request is of the one revision with
/// batches, each element as its own request, into one array (notifications
/// get nothing; only notifications: 202 and no body).
async fn batch(rmcp: Rmcp, parts: axum::http::request::Parts, items: Vec<Value>) -> Response {
    if let Some(revision) = revision_of(&parts).filter(|r| *r != BATCH_REVISION) {
        let message = format!(
            "JSON-RPC batches are not part of MCP revision {revision} (only {BATCH_REVISION} has them): send one JSON-RPC message per POST"
        );
        return rpc_error(StatusCode::BAD_REQUEST, Value::Null, -32600, &message);
    }
    if items.is_empty() {
        return rpc_error(
            StatusCode::BAD_REQUEST,
            Value::Null,
            -32600,
            "an empty batch is not a valid request",
        );
    }
    let mut replies = Vec::new();
    for item in items {
        if let Some(reply) = element(rmcp.clone(), &parts, item).await {
            replies.push(reply);
        }
    }
    if replies.is_empty() {
        return StatusCode::ACCEPTED.into_response();
    }
    (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], Value::Array(replies).to_string())
        .into_response()
}

/// The revision a request names in `MCP-Protocol-Version`, if any.
fn revision_of(parts: &axum::http::request::Parts) -> Option<&str> {
    parts.headers.get("mcp-protocol-version").map(|v| v.to_str().unwrap_or("(not text)"))
}

/// One batch element through rmcp as its own POST; its reply, if any.
async fn element(rmcp: Rmcp, parts: &axum::http::request::Parts, item: Value) -> Option<Value> {
    let id = item.get("id").cloned().unwrap_or(Value::Null);
    if item.get("method").and_then(Value::as_str) == Some("initialize") {
        return Some(rpc_error_value(
            id,
            -32600,
            "initialize must not be part of a JSON-RPC batch: send it as a POST of its own",
        ));
    }
    if serde_json::from_value::<rmcp::model::ClientJsonRpcMessage>(item.clone()).is_err() {
        return Some(rpc_error_value(
            id,
            -32600,
            "invalid request: it needs \"jsonrpc\": \"2.0\", an \"id\", a \"method\" and object \"params\"",
        ));
    }
    let mut parts = parts.clone();
    parts.headers.remove(header::CONTENT_LENGTH);
    let request = axum::extract::Request::from_parts(parts, item.to_string().into());
    let response = forward(rmcp, request).await;
    let status = response.status();
    if status == StatusCode::ACCEPTED {
        return None;
    }
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap_or_default();
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(reply @ Value::Object(_)) => Some(reply),
        _ => {
            let text = String::from_utf8_lossy(&bytes);
            Some(rpc_error_value(id, -32603, &format!("HTTP {status} for this element: {text}")))
        }
    }
}

/// What is wrong with an `initialize` request's params, if it is one: the
/// shared check, with rmcp's decoding of well-formed params.
fn initialize_problem(message: &Value) -> Option<String> {
    if message.get("method").and_then(Value::as_str) != Some("initialize") || message.get("id").is_none() {
        return None;
    }
    lectern_library::initialize::initialize_params_problem(message, |params| {
        serde_json::from_value::<rmcp::model::InitializeRequestParams>(Value::Object(params.clone()))
            .map(drop)
            .map_err(|e| e.to_string())
    })
}

fn rpc_error_value(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn rpc_error(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    let body = rpc_error_value(id, code, message).to_string();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn too_large() -> Response {
    rpc_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        Value::Null,
        -32600,
        &format!("request body exceeds {MAX_MCP_BODY_BYTES} bytes; send one JSON-RPC message per POST"),
    )
}

/// The `/mcp` service: stateless, plain JSON responses, Host checked by the
/// site's guard (and rmcp's own check turned off so `allowed_hosts` decides),
/// browser Origins limited to the base URL's and loopback.
pub fn service(state: &SiteState) -> McpService {
    let library = state.library().clone();
    let mut origins =
        vec!["http://localhost:*".to_owned(), "http://127.0.0.1:*".to_owned(), "http://[::1]:*".to_owned()];
    if let Some(base) = library.view().ok().and_then(|v| v.site().and_then(|s| s.base_url.clone())) {
        origins.push(origin_of(&base));
    }
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_max_request_body_bytes(MAX_MCP_BODY_BYTES)
        .disable_allowed_hosts()
        .with_allowed_origins(origins)
        .enforce_origin_validation()
        .with_cancellation_token(state.shutdown_token().child_token());
    let rmcp = StreamableHttpService::new(
        move || Ok(DocsTools::new(library.clone())),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    McpService { rmcp }
}

/// `https://docs.example.com:443` from a base URL (explicit port: rmcp reads
/// a port-less entry as "any port").
fn origin_of(base: &str) -> String {
    let (scheme, rest) = base.split_once("://").unwrap_or(("https", base));
    let authority = rest.split('/').next().unwrap_or(rest);
    let has_port = authority.rsplit_once(':').is_some_and(|(_, p)| p.bytes().all(|b| b.is_ascii_digit()));
    if has_port {
        format!("{scheme}://{authority}")
    } else {
        format!("{scheme}://{authority}:{}", if scheme == "http" { 80 } else { 443 })
    }
}

/// JSON-RPC's own errors for what rmcp would answer with a bare HTTP status:
/// a POST body that is not JSON gets HTTP 400 with a -32700 parse error, one
/// over the size cap HTTP 413 with a -32600 error, both with `id: null`.
pub(crate) async fn parse_errors(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_MCP_BODY_BYTES).await else {
        return too_large();
    };
    if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
        let message = format!("parse error: the body is not JSON ({e})");
        return rpc_error(StatusCode::BAD_REQUEST, Value::Null, -32700, &message);
    }
    next.run(axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four tools as `tools/list` sends them.
    #[test]
    fn tools_list_snapshot() {
        let mut tools = DocsTools::tools().list_all();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        assert_eq!(
            tools.iter().map(|t| t.name.as_ref()).collect::<Vec<_>>(),
            ["list_pages", "list_versions", "read_page", "search_docs"]
        );
        insta::assert_json_snapshot!(tools);
    }
}
