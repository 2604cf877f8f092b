//! The YAML frontmatter the site puts over a page's Markdown (`read_page`,
//! `{path}.md`): where the page is served and what it is.

use crate::pages::wire::SitePage;

/// Our YAML frontmatter, `---` fenced. Strings are JSON-quoted, which YAML
/// reads as double-quoted scalars, so no value can break the block.
pub(crate) fn frontmatter(page: &SitePage) -> String {
    let q = |s: &str| serde_json::to_string(s).expect("a string serialises");
    let mut out = String::from("---\n");
    out.push_str(&format!("path: {}\n", q(&page.path)));
    out.push_str(&format!("prefix: {}\n", q(&page.prefix)));
    out.push_str(&format!("label: {}\n", q(&page.label)));
    if let Some(r) = &page.r#ref {
        out.push_str(&format!("ref: {}\n", q(r)));
    }
    out.push_str(&format!("locale: {}\n", q(&page.locale)));
    out.push_str(&format!("status: {}\n", q(page.status.as_str())));
    if page.fallback {
        out.push_str("fallback: true\n");
    }
    out.push_str("---\n\n");
    out
}
