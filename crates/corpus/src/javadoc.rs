//! Javadoc's search index (`member-search-index.js`, Javadoc 9 and later:
//! `memberSearchIndex = [{"p":"org.example","c":"ArrayUtils","l":"contains(int[], int)","u":"contains(int[],int)"}, …]`)
//! → the symbols of the class pages it points at, so `ArrayUtils.contains`
//! finds the sections that define the method, overloads included.

use serde::Deserialize;

use crate::inventory::Entry;
use crate::page::Symbol;

/// The index's file name at the root of a Javadoc tree.
pub const FILE_NAME: &str = "member-search-index.js";

/// Entries read at most (the JDK's own index has about 150 000).
const MAX_ENTRIES: usize = 500_000;

/// One member as the index lists it.
#[derive(Deserialize)]
struct Member {
    /// The module (Javadoc 11 and later, for a modular tree: its folder).
    #[serde(default)]
    m: Option<String>,
    /// The package.
    p: String,
    /// The class, nested ones dotted (`Map.Entry`), as their files are named.
    c: String,
    /// The label: a method's name and parameter types, a field's name.
    l: String,
    /// The anchor when it differs from the label (`u` since Javadoc 17, `url` before).
    #[serde(default, alias = "url")]
    u: Option<String>,
}

/// Reads the index; Err says why it is not one we can read.
pub fn parse(bytes: &[u8]) -> Result<Vec<Entry>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))?;
    let (start, end) = match (text.find('['), text.rfind(']')) {
        (Some(start), Some(end)) if start < end => (start, end),
        _ => return Err("no `memberSearchIndex = [...]` array".to_owned()),
    };
    let members: Vec<Member> =
        serde_json::from_str(&text[start..=end]).map_err(|e| format!("not a Javadoc member index: {e}"))?;
    Ok(members.into_iter().take(MAX_ENTRIES).filter_map(entry).collect())
}

/// A member as a symbol of its class's page: `ArrayUtils.contains`, the
/// way a Java programmer writes it, at the member's anchor (none for a
/// constructor).
fn entry(member: Member) -> Option<Entry> {
    let name = member.l.split('(').next()?.trim();
    let class_name = member.c.rsplit('.').next()?;
    if name.is_empty() || member.p.is_empty() || member.c.is_empty() || member.c.contains(['/', '\\']) {
        return None;
    }
    // A constructor only repeats its class's name, which names the class.
    if name == class_name {
        return None;
    }
    let kind = if member.l.contains('(') { "Method" } else { "Field" };
    // (Percent-encoded: `%3Cinit%3E()` is the constructor's `<init>()`.)
    let anchor = match member.u {
        Some(u) => String::from_utf8(crate::paths::percent_decode_bytes(&u)).ok()?,
        None => member.l.replace(' ', ""),
    };
    let folder = member.p.replace('.', "/");
    let file = match member.m.filter(|m| !m.is_empty()) {
        Some(module) => format!("{module}/{folder}/{}.html", member.c),
        None => format!("{folder}/{}.html", member.c),
    };
    let symbol = Symbol {
        name: format!("{}.{name}", member.c),
        kind: kind.to_owned(),
        anchor: Some(anchor),
        entry: None,
    };
    Some(Entry { file, symbol })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_name_their_class_pages_at_their_anchors() {
        let js = r#"memberSearchIndex = [{"p":"org.example","c":"ArrayUtils","l":"contains(int[], int)","u":"contains(int[],int)"},{"p":"org.example","c":"ArrayUtils","l":"EMPTY_ARRAY"},{"m":"java.base","p":"java.util","c":"Map.Entry","l":"getKey()"},{"p":"org.example","c":"Range","l":"Range(T, T)","url":"%3Cinit%3E(T,T)"},{"p":"","c":"X","l":"y"}];updateSearchResults();"#;
        let entries = parse(js.as_bytes()).unwrap();
        let got: Vec<(&str, &str, &str, Option<&str>)> = entries.iter().map(Entry::parts).collect();
        assert_eq!(
            got,
            [
                ("org/example/ArrayUtils.html", "ArrayUtils.contains", "Method", Some("contains(int[],int)")),
                ("org/example/ArrayUtils.html", "ArrayUtils.EMPTY_ARRAY", "Field", Some("EMPTY_ARRAY")),
                ("java.base/java/util/Map.Entry.html", "Map.Entry.getKey", "Method", Some("getKey()")),
            ]
        );
        for bad in ["", "memberSearchIndex = ", "] [", "x = [{\"p\": 1}]"] {
            assert!(parse(bad.as_bytes()).is_err(), "{bad:?}");
        }
    }
}
