//! Library errors and [`ErrorCode`], the stable codes every face maps to its
//! transport once (HTTP status, MCP tool error).

use serde::{Deserialize, Serialize};

/// The stable code of an error on every face, sent as its snake_case name
/// (`"invalid_argument"`, `"not_found"`, ...). Clients branch on these, so a
/// name never changes once sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A parameter, query string or body is not valid; the message says what is allowed.
    InvalidArgument,
    /// No such edition, section, page or path.
    NotFound,
    /// The expected generation is gone; `generation` holds the current one.
    GenerationChanged,
    /// Too many requests at once, or another writer holds the library; retry.
    Busy,
    /// The request took longer than its time limit.
    Timeout,
    /// A body or answer over its size limit.
    TooLarge,
    /// No or a wrong access key or session.
    Unauthorized,
    /// A Host or Origin that is not allowed.
    Forbidden,
    /// The site: the wrong HTTP method for a path (the local API sends
    /// `invalid_argument` with HTTP 405).
    MethodNotAllowed,
    /// The site: one client sent more requests than its rate limit allows.
    RateLimited,
    /// The stdio MCP tools: no working local API to read through.
    LocalApiUnavailable,
    /// The stdio MCP tools: the client cancelled the request.
    Cancelled,
    /// A fault of the library or server, not of the request.
    Internal,
}

impl ErrorCode {
    /// The name sent on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "invalid_argument",
            ErrorCode::NotFound => "not_found",
            ErrorCode::GenerationChanged => "generation_changed",
            ErrorCode::Busy => "busy",
            ErrorCode::Timeout => "timeout",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::LocalApiUnavailable => "local_api_unavailable",
            ErrorCode::Cancelled => "cancelled",
            ErrorCode::Internal => "internal",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error a face shows its client; `code()` is stable, the message says what
/// was wrong and what is allowed.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("{0}")]
    InvalidArgument(String),
    #[error("{0}")]
    NotFound(String),
    #[error(
        "the library changed: generation {expected} is gone, the current one is {current}; search again and use the new section keys and generation"
    )]
    GenerationChanged { expected: String, current: String },
    #[error("{0}")]
    Busy(String),
    /// Another process holds the library's write lock; `holder` is its pid
    /// as the lock file records it.
    #[error("the library at {library} is being changed by {}; try again when it finishes", writer(.holder))]
    WriterBusy { library: String, holder: Option<String> },
    /// The library on disk has a format this build does not read.
    #[error("{}", library_format(*.found, *.reads))]
    LibraryFormat { found: u32, reads: u32 },
    #[error("{0}")]
    Timeout(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    Source(#[from] lectern_corpus::SourceError),
    #[error("{0}")]
    Config(#[from] lectern_corpus::SiteConfigError),
    #[error("{0}")]
    Index(#[from] lectern_index::IndexError),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{0}")]
    Internal(String),
}

/// The wire shape of an error on every face: `{"error":{"code","message"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

/// One error: its code, what went wrong and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ErrorDetail {
    pub code: ErrorCode,
    pub message: String,
    /// For `generation_changed`: the current generation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation: Option<String>,
}

/// The `outputSchema` of an MCP tool whose results are a `T` or an error:
/// every tool result carries `structuredContent`, an error's being
/// [`ErrorBody`], and clients that validate it (the TypeScript SDK, the
/// Inspector) must accept both. An object schema at the root (as MCP
/// requires) with `anyOf` the two shapes and both shapes' `$defs` at the
/// root; `T`'s shape is its serialised form (what the server writes), with
/// the root title and description left out as rmcp leaves them out. Built
/// once per type.
pub fn output_schema_or_error<T: schemars::JsonSchema + std::any::Any>()
-> std::sync::Arc<serde_json::Map<String, serde_json::Value>> {
    use std::any::TypeId;
    use std::collections::HashMap;
    use std::sync::{Arc, LazyLock, Mutex};
    type Cache = Mutex<HashMap<TypeId, Arc<serde_json::Map<String, serde_json::Value>>>>;
    static CACHE: LazyLock<Cache> = LazyLock::new(Cache::default);
    let mut cache = CACHE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    cache
        .entry(TypeId::of::<T>())
        .or_insert_with(|| {
            Arc::new(either_schema(serialised_schema::<T>(), serialised_schema::<ErrorBody>()))
        })
        .clone()
}

/// `T`'s JSON Schema (2020-12) for what serialising it writes.
fn serialised_schema<T: schemars::JsonSchema>() -> serde_json::Map<String, serde_json::Value> {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .with_transform(schemars::transform::RecursiveTransform(plain_number))
        .into_generator();
    match serde_json::to_value(generator.into_root_schema_for::<T>()) {
        Ok(serde_json::Value::Object(schema)) => schema,
        other => unreachable!("a derived schema is an object: {other:?}"),
    }
}

/// `{"type":"object","anyOf":[a, b]}` with the `$defs` of both at the root.
fn either_schema(
    mut a: serde_json::Map<String, serde_json::Value>,
    mut b: serde_json::Map<String, serde_json::Value>,
) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::Value;
    let dialect = a.remove("$schema");
    b.remove("$schema");
    let mut defs = serde_json::Map::new();
    for shape in [&mut a, &mut b] {
        shape.remove("title");
        shape.remove("description");
        if let Some(Value::Object(more)) = shape.remove("$defs") {
            for (name, def) in more {
                if let Some(before) = defs.get(&name) {
                    assert_eq!(before, &def, "two different schemas are both named {name}");
                }
                defs.insert(name, def);
            }
        }
    }
    let mut schema = serde_json::Map::new();
    if let Some(dialect) = dialect {
        schema.insert("$schema".into(), dialect);
    }
    schema.insert("type".into(), Value::from("object"));
    schema.insert("anyOf".into(), Value::Array(vec![Value::Object(a), Value::Object(b)]));
    if !defs.is_empty() {
        schema.insert("$defs".into(), Value::Object(defs));
    }
    schema
}

impl LibraryError {
    /// The stable error code.
    pub fn code(&self) -> ErrorCode {
        match self {
            LibraryError::InvalidArgument(_) | LibraryError::Config(_) => ErrorCode::InvalidArgument,
            LibraryError::Source(lectern_corpus::SourceError::NotFound { .. }) => ErrorCode::NotFound,
            LibraryError::Source(_) => ErrorCode::InvalidArgument,
            LibraryError::NotFound(_) => ErrorCode::NotFound,
            LibraryError::GenerationChanged { .. } => ErrorCode::GenerationChanged,
            LibraryError::Busy(_) | LibraryError::WriterBusy { .. } => ErrorCode::Busy,
            LibraryError::Timeout(_) => ErrorCode::Timeout,
            LibraryError::TooLarge(_) => ErrorCode::TooLarge,
            LibraryError::Index(_)
            | LibraryError::Io { .. }
            | LibraryError::LibraryFormat { .. }
            | LibraryError::Internal(_) => ErrorCode::Internal,
        }
    }

    /// What an MCP face answers for tool arguments its decoder rejected (a
    /// wrong type, an unknown field such as Dash's `load_url`): rmcp's own
    /// text, `decoder` (without its "failed to deserialize parameters: "
    /// lead-in), becomes an `invalid_argument` like every other bad input.
    pub fn undecodable_arguments(decoder: Option<&str>) -> LibraryError {
        LibraryError::InvalidArgument(decoder.map_or_else(
            || "the tool arguments are not valid".to_owned(),
            |text| {
                format!(
                    "invalid arguments: {}",
                    text.trim_start_matches("failed to deserialize parameters: ")
                )
            },
        ))
    }

    /// The error as `{"error":{"code","message"}}`.
    pub fn body(&self) -> ErrorBody {
        let generation = match self {
            LibraryError::GenerationChanged { current, .. } => Some(current.clone()),
            _ => None,
        };
        ErrorBody { error: ErrorDetail { code: self.code(), message: self.to_string(), generation } }
    }

    pub(crate) fn io(path: impl AsRef<std::path::Path>, source: std::io::Error) -> Self {
        LibraryError::Io { path: path.as_ref().display().to_string(), source }
    }
}

/// Who holds the write lock, for [`LibraryError::WriterBusy`].
pub(crate) fn writer(holder: &Option<String>) -> String {
    holder.as_ref().map_or_else(|| "another lectern".to_owned(), |pid| format!("lectern pid {pid}"))
}

/// What to do about a library of another format: a newer one needs a newer
/// lectern, an older one can be rebuilt from its sources.
fn library_format(found: u32, reads: u32) -> String {
    if found > reads {
        format!("the library has format {found}, newer than this lectern reads ({reads}); upgrade lectern")
    } else {
        format!(
            "the library has the old format {found}; this lectern reads format {reads}: run `lectern repair` to rebuild it from its sources"
        )
    }
}

/// Builds an `invalid_argument` error.
pub(crate) fn invalid(message: impl Into<String>) -> LibraryError {
    LibraryError::InvalidArgument(message.into())
}

/// Drops the `format` schemars gives a number (`int64`, `uint`, `double`):
/// no format JSON Schema defines, and the strict schemas some MCP clients
/// make for their model accept only string formats. For `#[schemars(transform
/// = …)]` on a tool's integer parameter, and applied to every output schema.
pub fn plain_number(schema: &mut schemars::Schema) {
    let numeric = schema
        .get("format")
        .and_then(serde_json::Value::as_str)
        .is_some_and(|f| f.starts_with("int") || f.starts_with("uint") || matches!(f, "float" | "double"));
    if numeric {
        schema.remove("format");
    }
}

/// Rewrites each `"type": [T, "null"]` in a tool's schema (what an
/// `Option` field derives) as `"anyOf": [{"type": T, …}, {"type": "null"}]`,
/// the type's own keywords (bounds, items, properties) in its branch. Both
/// say the same; some MCP clients' converters take only the second (a type
/// given as a list fails in them with "unhashable type: 'list'").
pub fn nullable_as_any_of(schema: &mut serde_json::Map<String, serde_json::Value>) {
    use serde_json::Value;
    for value in schema.values_mut() {
        match value {
            Value::Object(inner) => nullable_as_any_of(inner),
            Value::Array(items) => {
                for item in items.iter_mut().filter_map(Value::as_object_mut) {
                    nullable_as_any_of(item);
                }
            }
            _ => {}
        }
    }
    let Some(Value::Array(types)) = schema.get("type") else { return };
    let others: Vec<&Value> = types.iter().filter(|t| t.as_str() != Some("null")).collect();
    if others.len() != 1 || others.len() == types.len() {
        return;
    }
    let only = others[0].clone();
    // Words about the value as a whole stay outside; the rest is the type's.
    const OUTER: [&str; 6] = ["description", "title", "default", "examples", "deprecated", "readOnly"];
    let mut branch = serde_json::Map::new();
    for key in schema.keys().cloned().collect::<Vec<_>>() {
        if !OUTER.contains(&key.as_str())
            && let Some(v) = schema.remove(&key)
        {
            branch.insert(key, v);
        }
    }
    branch.insert("type".to_owned(), only);
    schema.insert("anyOf".to_owned(), serde_json::json!([branch, {"type": "null"}]));
}

/// A tool's input and output schemas through [`nullable_as_any_of`].
pub fn tool_schemas_any_of(
    input: &mut std::sync::Arc<serde_json::Map<String, serde_json::Value>>,
    output: &mut Option<std::sync::Arc<serde_json::Map<String, serde_json::Value>>>,
) {
    for schema in std::iter::once(input).chain(output.as_mut()) {
        nullable_as_any_of(std::sync::Arc::make_mut(schema));
    }
}

/// What a call of a tool the server does not have is told: its name and
/// the names it may call instead.
pub fn unknown_tool(name: &str, tools: &[String]) -> String {
    let name: String = name.chars().take(80).collect();
    format!("no tool named {name:?}: this server's tools are {}", tools.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nullable_type_becomes_any_of_with_its_bounds_inside() {
        let mut schema = serde_json::json!({
            "type": "object",
            "properties": {
                "limit": {"description": "Results.", "type": ["integer", "null"], "minimum": 1, "maximum": 50, "default": null},
                "text": {"type": "string"},
                "tags": {"type": ["array", "null"], "items": {"type": ["string", "null"]}}
            }
        });
        nullable_as_any_of(schema.as_object_mut().unwrap());
        assert_eq!(
            schema["properties"]["limit"],
            serde_json::json!({"description": "Results.", "default": null,
                "anyOf": [{"type": "integer", "minimum": 1, "maximum": 50}, {"type": "null"}]})
        );
        assert_eq!(schema["properties"]["text"], serde_json::json!({"type": "string"}));
        assert_eq!(
            schema["properties"]["tags"]["anyOf"][0]["items"],
            serde_json::json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
        );
        assert_eq!(schema["type"], "object");
    }

    /// Every code goes on the wire as the name `as_str` gives, both ways.
    #[test]
    fn codes_serialize_as_their_names() {
        use ErrorCode::*;
        for code in [
            InvalidArgument,
            NotFound,
            GenerationChanged,
            Busy,
            Timeout,
            TooLarge,
            Unauthorized,
            Forbidden,
            MethodNotAllowed,
            RateLimited,
            LocalApiUnavailable,
            Cancelled,
            Internal,
        ] {
            let json = serde_json::to_value(code).unwrap();
            assert_eq!(json, serde_json::Value::String(code.as_str().to_owned()));
            assert_eq!(serde_json::from_value::<ErrorCode>(json).unwrap(), code);
        }
    }

    /// The typed variants say what their string variants used to, word for word.
    #[test]
    fn typed_variants_keep_their_messages() {
        let busy = LibraryError::WriterBusy { library: "/l".into(), holder: Some("42".into()) };
        assert_eq!(
            busy.to_string(),
            "the library at /l is being changed by lectern pid 42; try again when it finishes"
        );
        assert_eq!(busy.code(), ErrorCode::Busy);
        let busy = LibraryError::WriterBusy { library: "/l".into(), holder: None };
        assert_eq!(
            busy.to_string(),
            "the library at /l is being changed by another lectern; try again when it finishes"
        );
        let newer = LibraryError::LibraryFormat { found: 3, reads: 1 };
        assert_eq!(
            newer.to_string(),
            "the library has format 3, newer than this lectern reads (1); upgrade lectern"
        );
        assert_eq!(newer.code(), ErrorCode::Internal);
        let older = LibraryError::LibraryFormat { found: 0, reads: 1 };
        assert_eq!(
            older.to_string(),
            "the library has the old format 0; this lectern reads format 1: run `lectern repair` to rebuild it from its sources"
        );
    }

    /// An MCP tool's `outputSchema`: an object at the root, the success
    /// shape or the error shape, every definition at the root.
    #[test]
    fn output_schemas_admit_results_and_errors() {
        let schema = output_schema_or_error::<crate::list::Defaults>();
        assert_eq!(schema["type"], "object");
        let shapes = schema["anyOf"].as_array().unwrap();
        assert_eq!(shapes.len(), 2);
        assert_eq!(shapes[0]["required"], serde_json::json!(["project", "version", "locale"]));
        assert_eq!(shapes[1]["required"], serde_json::json!(["error"]));
        assert!(shapes.iter().all(|s| s.get("$defs").is_none() && s.get("$schema").is_none()));
        let defs = schema["$defs"].as_object().unwrap();
        assert!(defs.contains_key("ErrorDetail") && defs.contains_key("ErrorCode"), "{defs:?}");
        assert!(std::sync::Arc::ptr_eq(&schema, &output_schema_or_error::<crate::list::Defaults>()));
    }

    #[test]
    fn error_bodies_are_unchanged_on_the_wire() {
        let e = LibraryError::GenerationChanged { expected: "a".into(), current: "b".into() };
        let body = serde_json::to_string(&e.body()).unwrap();
        assert!(
            body.starts_with(r#"{"error":{"code":"generation_changed","message":"the library changed"#),
            "{body}"
        );
        assert!(body.ends_with(r#"","generation":"b"}}"#), "{body}");
        let e = invalid("limit must be 1-50");
        assert_eq!(
            serde_json::to_string(&e.body()).unwrap(),
            r#"{"error":{"code":"invalid_argument","message":"limit must be 1-50"}}"#
        );
    }
}
