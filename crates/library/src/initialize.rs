//! What both MCP faces (stdio and the site's `/mcp`) check alike before
//! their MCP library sees a message, kept free of that library so the site
//! need not depend on the stdio face.

use serde_json::Value;

/// What is missing or malformed in an `initialize` request's params, if
/// anything; `None` also for a request that carries the `_meta` of a revision
/// without `initialize` (answered as a method that revision lacks). rmcp
/// would take a malformed `initialize` for a request of another revision and
/// speak of its `_meta`, so each face asks this first; `decode` is the face's
/// own decoding of well-formed params (rmcp's), whose error is the last word.
pub fn initialize_params_problem(
    message: &Value,
    decode: impl FnOnce(&serde_json::Map<String, Value>) -> Result<(), String>,
) -> Option<String> {
    let Some(params) = message.get("params").and_then(Value::as_object) else {
        return Some(
            "invalid initialize params: params must be an object with protocolVersion, capabilities and clientInfo"
                .to_owned(),
        );
    };
    if params.get("_meta").and_then(|m| m.get("io.modelcontextprotocol/protocolVersion")).is_some() {
        // A request of a revision without `initialize`: rmcp answers it as
        // a method that revision does not have.
        return None;
    }
    let mut wrong = Vec::new();
    if !params.get("protocolVersion").is_some_and(Value::is_string) {
        wrong.push("protocolVersion (a revision such as \"2025-06-18\")");
    }
    if !params.get("capabilities").is_some_and(Value::is_object) {
        wrong.push("capabilities (an object; {} for none)");
    }
    let info = params.get("clientInfo");
    let text = |key: &str| info.and_then(|i| i.get(key)).is_some_and(Value::is_string);
    if !(text("name") && text("version")) {
        wrong.push("clientInfo (an object with a string name and version)");
    }
    if !wrong.is_empty() {
        return Some(format!("invalid initialize params: missing or malformed {}", wrong.join(", ")));
    }
    decode(params).err().map(|e| format!("invalid initialize params: {e}"))
}
