//! `/mcp`: a stateless Streamable HTTP MCP server (rmcp) with exactly four
//! tools (`list_versions`, `list_pages`, `search_docs`, `read_page`) over
//! the library's page API. Name, description and
//! instructions come from the site config. Tool errors are `isError: true`
//! results whose `structuredContent` is `{"error":{"code","message"}}`, the
//! same shape as every face, with the message as text.

use std::sync::Arc;

use lectern_library::{
    Library, LibraryError, ListPagesRequest, ListPagesResponse, SearchPagesRequest, SearchPagesResponse,
    SitePage, VersionsResponse,
};
use rmcp::handler::server::common::schema_for_output;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};

use crate::state::{MAX_MCP_BODY_BYTES, SiteState};

/// `read_page`'s parameters.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
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
    f: impl FnOnce(&Library) -> Result<T, LibraryError> + Send + 'static,
) -> Result<CallToolResult, ErrorData> {
    let library = library.clone();
    let outcome = tokio::task::spawn_blocking(move || f(&library))
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

/// `isError: true`, the message as text and `{"error":{"code","message"}}`.
pub fn tool_error(e: &LibraryError) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(e.to_string())]);
    result.structured_content = serde_json::to_value(e.body()).ok();
    result
}

#[tool_router]
impl DocsTools {
    pub fn new(library: Arc<Library>) -> DocsTools {
        DocsTools { library, tool_router: Self::tool_router() }
    }

    /// Every published version with the prefix that scopes it (`/app`, `/app/v1`, `/zh-Hans/app`), its label, ref, lifecycle status, locale, the locales it is published in, and whether it is the default. Call this first and pass a prefix to list_pages or search_docs.
    #[tool(
        name = "list_versions",
        annotations(title = "List versions", read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = schema_for_output::<VersionsResponse>()
    )]
    async fn list_versions(&self) -> Result<CallToolResult, ErrorData> {
        call(&self.library, |lib| lib.list_versions()).await
    }

    /// The table of contents of a scope, sorted by path: limit (default 20, at most 100) pages after cursor. A prefix from list_versions scopes it to one version (nested versions are separate scopes); without one, every version in the site's default locale. In a translated scope a missing translation appears once, with fallback: true and its real locale. When nextCursor is present, pass it as cursor to continue; without it the listing is complete.
    #[tool(
        name = "list_pages",
        annotations(title = "List pages", read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = schema_for_output::<ListPagesResponse>()
    )]
    async fn list_pages(
        &self,
        Parameters(request): Parameters<ListPagesRequest>,
    ) -> Result<CallToolResult, ErrorData> {
        call(&self.library, move |lib| lib.list_pages(&request)).await
    }

    /// Find pages containing a term (case-insensitive, Unicode-normalised substring of the title or body), sorted by path, each with an excerpt around the first match. Same prefix, limit (default 20, at most 100) and cursor rules as list_pages. Pass a result's path to read_page.
    #[tool(
        name = "search_docs",
        annotations(title = "Search the docs", read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = schema_for_output::<SearchPagesResponse>()
    )]
    async fn search_docs(
        &self,
        Parameters(request): Parameters<SearchPagesRequest>,
    ) -> Result<CallToolResult, ErrorData> {
        call(&self.library, move |lib| lib.search_pages(&request)).await
    }

    /// One page as Markdown, exactly as written, under a YAML frontmatter giving its path, prefix, version label and ref, locale and lifecycle status (and fallback: true when a default-locale page stands in for a missing translation). Never HTML.
    #[tool(
        name = "read_page",
        annotations(title = "Read a page", read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = schema_for_output::<SitePage>()
    )]
    async fn read_page(
        &self,
        Parameters(params): Parameters<ReadPageParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let library = self.library.clone();
        let outcome = tokio::task::spawn_blocking(move || library.site_page(&params.path))
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
        let tcc = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        let mut response = self.tool_router.call(tcc).await?;
        if let rmcp::model::CallToolResponse::Complete(result) = &mut response
            && result.is_error == Some(true)
            && result.structured_content.is_none()
        {
            let decoder = result.content.first().and_then(|c| c.as_text()).map(|t| t.text.as_str());
            let e = LibraryError::undecodable_arguments(decoder);
            result.structured_content = serde_json::to_value(e.body()).ok();
            result.content = vec![ContentBlock::text(e.to_string())];
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

/// The `/mcp` service: stateless, plain JSON responses, Host checked by the
/// site's guard (and rmcp's own check turned off so `allowed_hosts` decides),
/// browser Origins limited to the base URL's and loopback.
pub fn service(state: &SiteState) -> StreamableHttpService<DocsTools, NeverSessionManager> {
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
    StreamableHttpService::new(
        move || Ok(DocsTools::new(library.clone())),
        Arc::new(NeverSessionManager::default()),
        config,
    )
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
pub(crate) async fn parse_errors(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;
    if request.method() != axum::http::Method::POST {
        return next.run(request).await;
    }
    let error = |status: StatusCode, code: i64, message: String| {
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}});
        (status, [(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
    };
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_MCP_BODY_BYTES).await {
        Ok(bytes) => bytes,
        Err(_) => {
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                -32600,
                format!(
                    "request body exceeds {MAX_MCP_BODY_BYTES} bytes; send one JSON-RPC message per POST"
                ),
            );
        }
    };
    if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
        return error(StatusCode::BAD_REQUEST, -32700, format!("parse error: the body is not JSON ({e})"));
    }
    next.run(axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four tools as `tools/list` sends them.
    #[test]
    fn tools_list_snapshot() {
        let mut tools = DocsTools::tool_router().list_all();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        assert_eq!(
            tools.iter().map(|t| t.name.as_ref()).collect::<Vec<_>>(),
            ["list_pages", "list_versions", "read_page", "search_docs"]
        );
        insta::assert_json_snapshot!(tools);
    }
}
