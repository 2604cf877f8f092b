//! The stdio program's three tools, exactly: `list_installed_docsets`,
//! `search_documentation`, `load_documentation_page`. Each makes one local
//! API call. Every result carries `structuredContent` and, as its one text
//! block, exactly that JSON (for clients without `structuredContent`);
//! errors are `isError: true` with `{"error":{"code","message"}}`, which each
//! tool's `outputSchema` admits beside its success shape.

use lectern_api::client::{Request, query};
use lectern_library::error::{ErrorBody, ErrorDetail, output_schema_or_error};
use lectern_library::list::{Defaults, ListResponse};
use lectern_library::read::SectionResponse;
use lectern_library::{ErrorCode, LibraryError, SearchParams, SearchResponse};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{Json, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::bridge::{Bridge, ToolError};

/// What an agent is told about using the tools together.
pub const INSTRUCTIONS: &str = "Lectern serves the documentation installed on this computer (manuals and wikis, several versions and languages). \
Use the tools in this order: 1) list_installed_docsets to see which projects, versions (branches) and locales are enabled and the current generation; \
2) search_documentation with a few words or a question (filters such as version:13 or locale:en, or a prefix like PG13:, may be written in the text and win over parameters); \
page with offset/next_offset while has_more is true; 3) load_documentation_page with a result's section_key and the generation of that same search, \
following next_offset until it is null to read the whole section. If a call fails with generation_changed, the documentation was updated: \
search again and use the new section_key and generation. If it fails with local_api_unavailable, tell the user what the message says (usually: start `lectern serve`).";

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListArgs {
    /// Expected search generation; fails with generation_changed if the current one differs.
    pub generation: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Search text, at most 256 characters. Supports filters (project:, version: or branch:, locale: or lang:,
    /// domain:, collection:), "quoted phrases", exclusions written NOT word or -"phrase" (NOT before a word in
    /// capitals is SQL's: IS NOT NULL), and a version prefix such as `PG96: SELECT`; command-line words and
    /// operators (--amend, -e, pg_ctl, ::, 2>&1) are searched as written, a name written as a call or decorator
    /// (print(), pg_sleep(5), @staticmethod) as the name; filters in the text win over the parameters.
    pub text: String,
    /// Project (default: the library's default project, e.g. postgresql).
    pub project: Option<String>,
    /// Version line (branch), e.g. 18 or 9.6; default the current version; * for all enabled versions.
    pub branch: Option<String>,
    /// Locale, e.g. zh-Hans or en; default the library's default locale, else the one of the text's script (Chinese text: zh, kana: ja, Hangul: ko, Latin: en); * for all locales.
    pub locale: Option<String>,
    /// Documentation domain: manual or wiki.
    pub domain: Option<String>,
    /// Wiki collection.
    pub collection: Option<String>,
    /// Results per page, 1-50 (default 20).
    #[schemars(range(min = 1, max = 50))]
    #[schemars(transform = lectern_library::error::plain_number)]
    pub limit: Option<i64>,
    /// Offset into the results, 0-10000 (default 0).
    #[schemars(range(min = 0, max = 10000))]
    #[schemars(transform = lectern_library::error::plain_number)]
    pub offset: Option<i64>,
    /// Expected search generation.
    pub generation: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LoadArgs {
    /// A section_key from search_documentation's results.
    pub section_key: String,
    /// The generation returned by the same search.
    pub generation: String,
    /// Start, in Unicode scalar values (default 0).
    #[schemars(range(min = 0))]
    #[schemars(transform = lectern_library::error::plain_number)]
    pub offset: Option<i64>,
    /// At most this many Unicode scalar values (default 16000, max 50000).
    #[schemars(range(min = 1, max = 50000))]
    #[schemars(transform = lectern_library::error::plain_number)]
    pub limit: Option<i64>,
}

/// One enabled docset (edition).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Docset {
    /// Edition id: project@version/locale[/domain[/collection]].
    pub id: String,
    pub project: String,
    /// The version line (branch).
    pub branch: String,
    pub locale: String,
    pub domain: String,
    pub collection: Option<String>,
    pub label: String,
    pub status: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DocsetList {
    /// The current search generation.
    pub generation: String,
    /// What search_documentation uses when a parameter is omitted.
    pub defaults: Defaults,
    pub docsets: Vec<Docset>,
}

/// A window of a section's plain text.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SectionText {
    pub generation: String,
    pub section_key: String,
    pub title: String,
    pub breadcrumb: Vec<String>,
    pub path: String,
    pub anchor: Option<String>,
    pub project: String,
    pub branch: String,
    pub locale: String,
    /// The section's length in Unicode scalar values.
    pub total_length: usize,
    pub offset: usize,
    /// Plain text from `offset`.
    pub text: String,
    /// Where to continue reading; null at the end.
    pub next_offset: Option<usize>,
}

/// The stdio MCP server: three tools over the local API.
#[derive(Debug, Clone)]
pub struct DocsServer {
    bridge: Bridge,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl DocsServer {
    pub fn new(bridge: Bridge) -> DocsServer {
        DocsServer { bridge, tool_router: Self::tools() }
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

    /// List the enabled docsets (projects, versions, locales, domains, collections) and the current search generation.
    #[tool(annotations(
        read_only_hint = true,
        destructive_hint = false,
        idempotent_hint = true,
        open_world_hint = false
    ), output_schema = output_schema_or_error::<DocsetList>())]
    async fn list_installed_docsets(
        &self,
        Parameters(args): Parameters<ListArgs>,
        ct: CancellationToken,
    ) -> Result<Json<DocsetList>, CallToolResult> {
        let path = format!("/v1/editions{}", query(&[("generation", args.generation.as_deref())]));
        let list: ListResponse = decode(cancellable(&ct, self.bridge.call(&Request::get(path))).await?)?;
        Ok(Json(DocsetList {
            generation: list.generation,
            defaults: list.defaults,
            docsets: list
                .editions
                .into_iter()
                .map(|e| Docset {
                    id: e.id,
                    project: e.project,
                    branch: e.version,
                    locale: e.locale,
                    domain: e.domain,
                    collection: e.collection,
                    label: e.label,
                    status: e.status.to_string(),
                })
                .collect(),
        }))
    }

    /// Search the enabled manuals and wikis. Results are sections with section_key, title, breadcrumb, path,
    /// project, version, locale, snippet and highlights; page with offset/next_offset while has_more is true.
    /// timed_out, cancelled or candidate_truncated set means the page is incomplete.
    /// No hits in scope but some in other editions: elsewhere lists them and hint says it in
    /// one sentence ("0 in en; 30 in zh-Hans: add locale:zh-Hans").
    #[tool(annotations(
        read_only_hint = true,
        destructive_hint = false,
        idempotent_hint = true,
        open_world_hint = false
    ), output_schema = output_schema_or_error::<SearchResponse>())]
    async fn search_documentation(
        &self,
        Parameters(args): Parameters<SearchArgs>,
        ct: CancellationToken,
    ) -> Result<Json<SearchResponse>, CallToolResult> {
        let params = SearchParams {
            text: args.text,
            project: args.project,
            version: args.branch,
            locale: args.locale,
            domain: args.domain,
            collection: args.collection,
            limit: args.limit,
            offset: args.offset,
            generation: args.generation,
            prefix: false,
        };
        let request = Request::post("/v1/search", &params);
        decode(cancellable(&ct, self.bridge.call(&request)).await?).map(Json)
    }

    /// Read one section's plain text by the section_key and generation of a search result. offset and limit
    /// count Unicode scalar values (default 0 and 16000, max 50000); follow next_offset until it is null.
    /// Dash's load_url is not accepted.
    #[tool(annotations(
        read_only_hint = true,
        destructive_hint = false,
        idempotent_hint = true,
        open_world_hint = false
    ), output_schema = output_schema_or_error::<SectionText>())]
    async fn load_documentation_page(
        &self,
        Parameters(args): Parameters<LoadArgs>,
        ct: CancellationToken,
    ) -> Result<Json<SectionText>, CallToolResult> {
        let (offset, limit) = (args.offset.map(|o| o.to_string()), args.limit.map(|l| l.to_string()));
        let path = format!(
            "/v1/section{}",
            query(&[
                ("section_key", Some(args.section_key.as_str())),
                ("generation", Some(args.generation.as_str())),
                ("offset", offset.as_deref()),
                ("limit", limit.as_deref()),
                ("format", Some("text")),
            ])
        );
        let s: SectionResponse = decode(cancellable(&ct, self.bridge.call(&Request::get(path))).await?)?;
        Ok(Json(SectionText {
            generation: s.generation,
            section_key: s.section_key,
            title: s.title,
            breadcrumb: s.breadcrumb,
            path: s.path,
            anchor: s.anchor,
            project: s.edition.project,
            branch: s.edition.version,
            locale: s.edition.locale,
            total_length: s.window.total_length,
            offset: s.window.offset,
            text: s.window.content,
            next_offset: s.window.next_offset,
        }))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for DocsServer {
    /// rmcp answers tool arguments it cannot decode (a wrong type, an
    /// unknown field such as Dash's `load_url`) with a bare `isError` text;
    /// give it the `{"error":{"code","message"}}` every tool error carries.
    /// Regression: `tool_argument_errors_lack_structured_content`.
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        if !self.tool_router.has_route(&request.name) {
            let tools: Vec<String> =
                self.tool_router.list_all().into_iter().map(|t| t.name.to_string()).collect();
            let message = lectern_library::error::unknown_tool(&request.name, &tools);
            return Err(rmcp::ErrorData::invalid_params(message, None));
        }
        let tcc = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        let mut response = self.tool_router.call(tcc).await?;
        if let rmcp::model::CallToolResponse::Complete(result) = &mut response
            && result.is_error == Some(true)
            && result.structured_content.is_none()
        {
            let decoder = result.content.first().and_then(|c| c.as_text()).map(|t| t.text.as_str());
            let restructured = error_body_result(LibraryError::undecodable_arguments(decoder).body());
            result.structured_content = restructured.structured_content;
            result.content = restructured.content;
        }
        Ok(response)
    }
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("lectern", env!("CARGO_PKG_VERSION"))
                    .with_title("Lectern documentation")
                    .with_description("Search and read the documentation installed in Lectern (read-only)."),
            )
            .with_instructions(INSTRUCTIONS)
    }
}

/// Runs a local API call unless the client cancels first (dropping the call
/// closes its connection, so the server stops the search too).
async fn cancellable<T>(
    ct: &CancellationToken,
    call: impl std::future::Future<Output = Result<T, ToolError>>,
) -> Result<T, CallToolResult> {
    tokio::select! {
        result = call => result.map_err(error_result),
        () = ct.cancelled() => Err(error_result(ToolError::new(ErrorCode::Cancelled, "the request was cancelled: the client cancelled it, or closed its input before the answer was ready"))),
    }
}

fn decode<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, CallToolResult> {
    serde_json::from_value(value).map_err(|e| {
        error_result(ToolError::new(
            ErrorCode::LocalApiUnavailable,
            format!("The local API answered in a shape this program does not understand ({e}): use the same Lectern version for `lectern serve` and `lectern mcp`."),
        ))
    })
}

/// `isError: true` with `{"error":{"code","message"}}`.
pub fn error_result(e: ToolError) -> CallToolResult {
    error_body_result(ErrorBody { error: ErrorDetail { code: e.code, message: e.message, generation: None } })
}

/// `isError: true` with `body` as `structuredContent` and the same JSON as
/// the text, so a client without `structuredContent` still sees the code.
pub fn error_body_result(body: ErrorBody) -> CallToolResult {
    let value = serde_json::to_value(body).expect("an error body serialises");
    let mut result = CallToolResult::error(vec![ContentBlock::text(value.to_string())]);
    result.structured_content = Some(value);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names, descriptions, annotations and both schemas of the three tools,
    /// as `tools/list` sends them: a change to any shows up in review.
    #[test]
    fn tools_list_snapshot() {
        let mut tools = DocsServer::tools().list_all();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        assert_eq!(
            tools.iter().map(|t| t.name.as_ref()).collect::<Vec<_>>(),
            ["list_installed_docsets", "load_documentation_page", "search_documentation"]
        );
        insta::assert_json_snapshot!(tools);
    }
}
