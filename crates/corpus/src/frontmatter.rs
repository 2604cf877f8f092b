//! YAML frontmatter: splitting it off the top of a Markdown file (verbatim,
//! without fences) and reading `title`, `description`, `order`, `draft`.

use serde_yaml::Value;

/// Largest frontmatter accepted; bigger is reported as malformed.
pub const MAX_FRONTMATTER_BYTES: usize = 64 * 1024;
/// Deepest nesting of YAML collections accepted.
pub const MAX_FRONTMATTER_DEPTH: usize = 32;

/// A Markdown file split into its frontmatter (the YAML between the fences)
/// and the body after the closing fence, both borrowed verbatim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split<'a> {
    pub yaml: Option<&'a str>,
    pub body: &'a str,
}

/// Splits `---\n<yaml>\n---\n<body>`. The opening fence must be the very first
/// line; the closing fence is `---` or `...` on a line of its own. Without a
/// closing fence the file has no frontmatter (the `---` is a thematic break).
pub fn split(src: &str) -> Split<'_> {
    let none = Split { yaml: None, body: src };
    let Some(first_end) = src.find('\n') else { return none };
    if src[..first_end].trim_end() != "---" {
        return none;
    }
    let yaml_start = first_end + 1;
    let mut line_start = yaml_start;
    while line_start <= src.len() {
        let line_end = src[line_start..].find('\n').map_or(src.len(), |i| line_start + i);
        let line = src[line_start..line_end].trim_end();
        if line == "---" || line == "..." {
            let body_start = (line_end + 1).min(src.len());
            return Split { yaml: Some(&src[yaml_start..line_start]), body: &src[body_start..] };
        }
        if line_end == src.len() {
            break;
        }
        line_start = line_end + 1;
    }
    none
}

/// The fields Lectern reads from frontmatter; everything else is kept only
/// in the verbatim YAML.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fields {
    pub title: Option<String>,
    pub description: Option<String>,
    pub order: Option<i64>,
    pub draft: bool,
}

/// Parses frontmatter YAML into [`Fields`]; Err(reason) when it is too big,
/// too deep, not YAML, or not a mapping.
pub fn parse(yaml: &str) -> Result<Fields, String> {
    if yaml.len() > MAX_FRONTMATTER_BYTES {
        return Err(format!("over {} KiB", MAX_FRONTMATTER_BYTES / 1024));
    }
    if flow_depth(yaml) > MAX_FRONTMATTER_DEPTH {
        return Err(format!("nested deeper than {MAX_FRONTMATTER_DEPTH} levels"));
    }
    if yaml.trim().is_empty() {
        return Ok(Fields::default());
    }
    let value: Value = serde_yaml::from_str(yaml).map_err(|e| e.to_string())?;
    if value_depth(&value, 0) > MAX_FRONTMATTER_DEPTH {
        return Err(format!("nested deeper than {MAX_FRONTMATTER_DEPTH} levels"));
    }
    let map = match value {
        Value::Mapping(m) => m,
        Value::Null => return Ok(Fields::default()),
        _ => return Err("not a mapping of keys to values".to_owned()),
    };
    let get = |k: &str| map.get(k);
    let title = get("title").and_then(scalar_string).filter(|t| !t.trim().is_empty());
    let description = get("description").and_then(scalar_string);
    let order =
        ["order", "sidebar_position", "nav_order", "weight"].iter().find_map(|k| get(k).and_then(integer));
    let draft = match get("draft") {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s.eq_ignore_ascii_case("true") || s.eq_ignore_ascii_case("yes"),
        _ => false,
    };
    Ok(Fields { title: title.map(|t| t.trim().to_owned()), description, order, draft })
}

fn scalar_string(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn integer(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => {
            n.as_i64().or_else(|| n.as_f64().filter(|f| f.is_finite() && f.abs() < 9.0e18).map(|f| f as i64))
        }
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Deepest `[`/`{` nesting in the text: a cheap guard run before the parser.
fn flow_depth(yaml: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for b in yaml.bytes() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

fn value_depth(v: &Value, depth: usize) -> usize {
    if depth > MAX_FRONTMATTER_DEPTH {
        return depth;
    }
    match v {
        Value::Sequence(s) => s.iter().map(|x| value_depth(x, depth + 1)).max().unwrap_or(depth + 1),
        Value::Mapping(m) => m.values().map(|x| value_depth(x, depth + 1)).max().unwrap_or(depth + 1),
        Value::Tagged(t) => value_depth(&t.value, depth + 1),
        _ => depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_verbatim() {
        let s = split("---\ntitle: A\n---\n# Body\n");
        assert_eq!(s.yaml, Some("title: A\n"));
        assert_eq!(s.body, "# Body\n");
        let s = split("---\r\ntitle: A\r\n---\r\nx");
        assert_eq!(s.yaml, Some("title: A\r\n"));
        assert_eq!(s.body, "x");
        assert_eq!(split("---\n---").yaml, Some(""));
        assert_eq!(split("---\nno end\n").yaml, None);
        assert_eq!(split("text\n---\na: b\n---\n").yaml, None);
        assert_eq!(split("---").yaml, None);
    }

    #[test]
    fn reads_fields() {
        let f = parse("title: Install\ndescription: How\nsidebar_position: 3\ndraft: true\n").unwrap();
        assert_eq!(f.title.as_deref(), Some("Install"));
        assert_eq!(f.description.as_deref(), Some("How"));
        assert_eq!(f.order, Some(3));
        assert!(f.draft);
        assert_eq!(parse("weight: 2.0").unwrap().order, Some(2));
        assert_eq!(parse("").unwrap(), Fields::default());
    }

    #[test]
    fn rejects_bad_yaml() {
        assert!(parse("title: [unclosed").is_err());
        assert!(parse("- a\n- b\n").is_err());
        assert!(parse(&format!("a: {}", "[".repeat(10_000))).is_err());
        assert!(parse(&"x".repeat(MAX_FRONTMATTER_BYTES + 1)).is_err());
        let deep: String = (0..40).map(|i| format!("{}k:\n", "  ".repeat(i))).collect();
        assert!(parse(&deep).is_err());
    }
}
