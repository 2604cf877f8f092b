//! A JSON Schema check for tool results against their `outputSchema`, the
//! way validating MCP clients (the TypeScript SDK, the Inspector) run one:
//! the keywords our schemas use (`type`, `properties`, `required`,
//! `additionalProperties`, `items`, `anyOf`, `oneOf`, `allOf`, `const`,
//! `enum`, `minimum`, `maximum`, `minItems`, `maxItems`, `minLength`,
//! `maxLength`, `$ref` into the root's `$defs`). An unknown
//! keyword fails the check, so a schema never passes by being misread.

use serde_json::Value;

/// Why `value` does not match `schema`, or `None` when it does.
pub fn mismatch(schema: &Value, value: &Value) -> Option<String> {
    check(schema, schema, value, "$")
}

fn check(root: &Value, schema: &Value, value: &Value, at: &str) -> Option<String> {
    let Some(keywords) = schema.as_object() else {
        return (schema != &Value::Bool(true)).then(|| format!("{at}: schema {schema} admits nothing"));
    };
    for (keyword, rule) in keywords {
        let problem = match keyword.as_str() {
            "$schema" | "$defs" | "title" | "description" | "format" | "default" => None,
            "$ref" => {
                let name = rule.as_str().and_then(|r| r.strip_prefix("#/$defs/")).expect("a $ref into $defs");
                let target = &root["$defs"][name];
                assert!(target.is_object(), "{at}: $ref to a missing definition {name}");
                check(root, target, value, at)
            }
            "type" => {
                let allowed: Vec<&str> = match rule {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => panic!("{at}: type {rule}"),
                };
                (!allowed.iter().any(|t| is_type(value, t))).then(|| format!("{at}: {value} is not {rule}"))
            }
            "properties" => value.as_object().and_then(|object| {
                rule.as_object().unwrap().iter().find_map(|(name, sub)| {
                    object.get(name).and_then(|v| check(root, sub, v, &format!("{at}.{name}")))
                })
            }),
            "required" => value.as_object().and_then(|object| {
                rule.as_array()
                    .unwrap()
                    .iter()
                    .filter_map(Value::as_str)
                    .find(|name| !object.contains_key(*name))
                    .map(|name| format!("{at}: required property {name} is missing"))
            }),
            "additionalProperties" => value.as_object().and_then(|object| {
                let known = keywords.get("properties").and_then(Value::as_object);
                object.iter().find_map(|(name, v)| {
                    if known.is_some_and(|k| k.contains_key(name)) {
                        return None;
                    }
                    check(root, rule, v, &format!("{at}.{name}"))
                })
            }),
            "items" => value.as_array().and_then(|items| {
                items.iter().enumerate().find_map(|(i, v)| check(root, rule, v, &format!("{at}[{i}]")))
            }),
            "anyOf" | "oneOf" => {
                let branches = rule.as_array().unwrap();
                let failures: Vec<String> =
                    branches.iter().filter_map(|b| check(root, b, value, at)).collect();
                let matched = branches.len() - failures.len();
                match (keyword.as_str(), matched) {
                    (_, 0) => Some(format!("{at}: no branch of {keyword} matches: {}", failures.join("; "))),
                    ("oneOf", n) if n > 1 => Some(format!("{at}: {n} branches of oneOf match")),
                    _ => None,
                }
            }
            "allOf" => rule.as_array().unwrap().iter().find_map(|b| check(root, b, value, at)),
            "const" => (value != rule).then(|| format!("{at}: {value} is not {rule}")),
            "enum" => {
                (!rule.as_array().unwrap().contains(value)).then(|| format!("{at}: {value} not in {rule}"))
            }
            "minimum" => value
                .as_f64()
                .filter(|v| *v < rule.as_f64().unwrap())
                .map(|v| format!("{at}: {v} is below {rule}")),
            "maximum" => value
                .as_f64()
                .filter(|v| *v > rule.as_f64().unwrap())
                .map(|v| format!("{at}: {v} is above {rule}")),
            "minItems" | "maxItems" => value.as_array().and_then(|items| {
                let bound = rule.as_u64().unwrap() as usize;
                let fits = if keyword == "minItems" { items.len() >= bound } else { items.len() <= bound };
                (!fits).then(|| format!("{at}: {} items, {keyword} {bound}", items.len()))
            }),
            "minLength" | "maxLength" => value.as_str().and_then(|text| {
                let (len, bound) = (text.chars().count(), rule.as_u64().unwrap() as usize);
                let fits = if keyword == "minLength" { len >= bound } else { len <= bound };
                (!fits).then(|| format!("{at}: {len} characters, {keyword} {bound}"))
            }),
            other => panic!("{at}: the schema check does not know the keyword {other}"),
        };
        if problem.is_some() {
            return problem;
        }
    }
    None
}

fn is_type(value: &Value, t: &str) -> bool {
    match t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "number" => value.is_number(),
        "integer" => value.as_i64().is_some() || value.as_u64().is_some(),
        other => panic!("unknown type {other}"),
    }
}
