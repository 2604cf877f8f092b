//! The OpenAPI 3.1 description of the local API. Paths are written here;
//! schemas come from the same Rust types the handlers use (schemars), so they
//! cannot drift. Served at `/v1/openapi.json` and kept, byte for byte, in
//! docs/openapi.json (a test compares them; `UPDATE_OPENAPI=1 cargo test -p
//! lectern-api openapi` rewrites the file).

use std::sync::OnceLock;

use lectern_library::error::ErrorBody;
use lectern_library::{
    ListResponse, PageResponse, SearchParams, SearchResponse, SectionResponse, TocResponse,
};
use schemars::generate::SchemaSettings;
use serde_json::{Value, json};

use crate::integrations::Integrations;
use crate::v1::{EditionChange, EditionRequest, LoginToken, StatusResponse};
use crate::web::{ChallengeRequest, ChallengeResponse};

pub use crate::v1::ROUTES;

/// `GET /v1/openapi.json`.
pub(crate) async fn serve() -> axum::response::Response {
    use axum::response::IntoResponse;
    ([(axum::http::header::CONTENT_TYPE, "application/json")], document_text()).into_response()
}

/// The document as served (pretty JSON, trailing newline).
pub fn document_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mut text = serde_json::to_string_pretty(&document()).expect("OpenAPI serializes");
        text.push('\n');
        text
    })
}

fn q(name: &str, schema: Value, description: &str) -> Value {
    json!({"name": name, "in": "query", "required": false, "schema": schema, "description": description})
}

fn required(mut v: Value) -> Value {
    v["required"] = json!(true);
    v
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn ok(name: &str, description: &str) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": reference(name)}}})
}

fn body(name: &str) -> Value {
    json!({"required": true, "content": {"application/json": {"schema": reference(name)}}})
}

/// Error responses every authenticated endpoint may give.
fn errors(extra: &[&str]) -> Vec<(String, Value)> {
    let mut codes = vec!["400", "401", "403", "404", "413", "503", "504", "500"];
    codes.extend_from_slice(extra);
    codes
        .into_iter()
        .map(|c| {
            let why = match c {
                "400" => "invalid_argument: bad parameter, query string or JSON body",
                "401" => "unauthorized: no or wrong access key / session",
                "403" => "forbidden: Host is not 127.0.0.1:PORT or localhost:PORT, or a foreign Origin",
                "404" => "not_found",
                "409" => "generation_changed: `error.generation` holds the current generation",
                "413" => "too_large: the body is over 64 KiB",
                "503" => "busy: too many searches at once (Retry-After: 1)",
                "504" => "timeout: the request took over 8 s",
                _ => "internal",
            };
            (c.to_owned(), json!({"description": why, "content": {"application/json": {"schema": reference("ErrorBody")}}}))
        })
        .collect()
}

fn op(
    summary: &str,
    params: Vec<Value>,
    request: Option<Value>,
    response: Value,
    extra_errors: &[&str],
) -> Value {
    let mut responses = serde_json::Map::new();
    responses.insert("200".into(), response);
    for (code, v) in errors(extra_errors) {
        responses.insert(code, v);
    }
    let mut o = json!({"summary": summary, "responses": responses});
    if !params.is_empty() {
        o["parameters"] = Value::Array(params);
    }
    if let Some(r) = request {
        o["requestBody"] = r;
    }
    o
}

fn string() -> Value {
    json!({"type": "string"})
}

fn integer() -> Value {
    json!({"type": "integer"})
}

fn format_param(default: &str) -> Value {
    q(
        "format",
        json!({"type": "string", "enum": ["text", "markdown", "html"]}),
        &format!("text, markdown or html (the Markdown rendered to safe HTML); default {default}"),
    )
}

/// The document.
pub fn document() -> Value {
    let mut generator = SchemaSettings::draft2020_12()
        .with(|s| s.definitions_path = "/components/schemas".into())
        .into_generator();
    // Each type registers itself (and what it nests) under its own name.
    let _ = (
        generator.subschema_for::<ErrorBody>(),
        generator.subschema_for::<StatusResponse>(),
        generator.subschema_for::<ListResponse>(),
        generator.subschema_for::<EditionRequest>(),
        generator.subschema_for::<EditionChange>(),
        generator.subschema_for::<SearchParams>(),
        generator.subschema_for::<SearchResponse>(),
        generator.subschema_for::<SectionResponse>(),
        generator.subschema_for::<PageResponse>(),
        generator.subschema_for::<TocResponse>(),
        generator.subschema_for::<LoginToken>(),
        generator.subschema_for::<Integrations>(),
        generator.subschema_for::<ChallengeRequest>(),
        generator.subschema_for::<ChallengeResponse>(),
    );
    let schemas = generator.take_definitions(true);

    let search_params = vec![
        required(q("text", string(), "search text, at most 256 characters; filters in the text win")),
        q("project", string(), "project (or alias)"),
        q("version", string(), "version line; * = all enabled (alias: branch)"),
        q("branch", string(), "alias of version"),
        q("locale", string(), "locale; * = all"),
        q("domain", string(), "manual or wiki"),
        q("collection", string(), "wiki collection"),
        q("limit", integer(), "1-50, default 20"),
        q("offset", integer(), "0-10000, default 0"),
        q("generation", string(), "expected generation (else 409 generation_changed)"),
        q("prefix", json!({"type": "boolean"}), "treat the last word as a prefix (search as you type)"),
    ];
    let edition_op = |what: &str| {
        op(
            &format!("{what} an edition (a new generation)"),
            vec![],
            Some(body("EditionRequest")),
            ok("EditionChange", "the change and the new generation"),
            &[],
        )
    };
    let paths = json!({
        "/auth/challenge": {"post": {
            "summary": "Prove the server knows the access key before a client sends it (unauthenticated)",
            "security": [],
            "requestBody": body("ChallengeRequest"),
            "responses": {
                "200": ok("ChallengeResponse", "proof = hex(HMAC-SHA256(key = access key ASCII, msg = \"lectern-challenge-v1\\n\" + nonce + \"\\n\" + pid + \"\\n\" + port))"),
                "400": {"description": "invalid_argument: nonce must be 16-256 printable ASCII characters", "content": {"application/json": {"schema": reference("ErrorBody")}}},
                "403": {"description": "forbidden: bad Host or Origin", "content": {"application/json": {"schema": reference("ErrorBody")}}}
            }
        }},
        "/v1/status": {"get": op("Server and library status", vec![], None, ok("StatusResponse", "status"), &[])},
        "/v1/editions": {"get": op(
            "List editions and the current generation",
            vec![q("all", json!({"type": "boolean"}), "include disabled editions"), q("generation", string(), "expected generation")],
            None, ok("ListResponse", "editions"), &["409"])},
        "/v1/editions/enable": {"post": edition_op("Enable")},
        "/v1/editions/disable": {"post": edition_op("Disable")},
        "/v1/editions/remove": {"post": edition_op("Remove")},
        "/v1/search": {
            "get": op("Ranked search (parameters in the query string)", search_params, None, ok("SearchResponse", "a page of results; timed_out/cancelled/candidate_truncated mark an incomplete page"), &["409"]),
            "post": op("Ranked search (parameters as a JSON body)", vec![], Some(body("SearchParams")), ok("SearchResponse", "a page of results"), &["409"])
        },
        "/v1/section": {"get": op(
            "Read a section by key, paged in Unicode scalar values",
            vec![required(q("section_key", string(), "from a search result")), q("generation", string(), "from the same search"),
                 q("offset", integer(), "start, default 0"), q("limit", integer(), "1-50000, default 16000"), format_param("text")],
            None, ok("SectionResponse", "a window of the section"), &["409"])},
        "/v1/page": {"get": op(
            "Read a page by full site path, or edition + relative path",
            vec![required(q("path", string(), "full site path, or relative to edition")), q("edition", string(), "edition id"),
                 q("generation", string(), "expected generation"), q("offset", integer(), "start, default 0"),
                 q("limit", integer(), "1-50000, default 16000"), format_param("markdown")],
            None, ok("PageResponse", "a window of the page"), &["409"])},
        "/v1/toc": {"get": op(
            "An enabled edition's table of contents: its pages as a tree of folders in reading order, and the page to open first",
            vec![required(q("edition", string(), "edition id (project@version/locale[/domain[/collection]])")), q("generation", string(), "expected generation")],
            None, ok("TocResponse", "the tree"), &["409"])},
        "/v1/asset": {"get": op(
            "An image or file a page references (what the site serves at its path), for the web page's reader",
            vec![required(q("path", string(), "the asset's full site path, e.g. /python/_images/foo.png"))],
            None,
            json!({"description": "the bytes, with their Content-Type (never sniffed: X-Content-Type-Options: nosniff; an SVG image under Content-Security-Policy: sandbox)", "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}}}),
            &[])},
        "/v1/login-token": {"post": op("Mint a one-time login URL for the web page (5 minutes, single use)", vec![], None, ok("LoginToken", "the URL"), &[])},
        "/v1/integrations": {"get": op("MCP client configs, one per client (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Zed, Codex CLI, generic), with absolute paths and no key", vec![], None, ok("Integrations", "configs"), &[])},
        "/v1/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {}}}}}}
    });
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Lectern local API",
            "version": format!("{}", crate::discovery::API_VERSION),
            "description": "Private API on 127.0.0.1 for one user-data folder. Find the port in {user-data}/api/status.json and the key in {user-data}/api/access-key; check the server with POST /auth/challenge before sending the key. See docs/local-api.md."
        },
        "servers": [{"url": "http://127.0.0.1:{port}", "variables": {"port": {"default": "0", "description": "from status.json"}}}],
        "security": [{"bearer": []}, {"session": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "the access key (64 hex characters)"},
                "session": {"type": "apiKey", "in": "cookie", "name": "lectern_session_{port}", "description": "set by /login from a one-time login URL"}
            },
            "schemas": schemas
        }
    })
}
