//! Where a link written in a page leads, decided the way documentation
//! generators decide it: relative paths, `.md`/`.mdx` suffixes, `index` and
//! `README` pages, root-absolute paths against the edition, and
//! repository-style paths (`/docs/api.md` from a repository whose `docs/`
//! is the tree), checked against the pages the edition holds. Also the
//! anchors a page's Markdown offers to `page#fragment` links.

use pulldown_cmark::{Event, Options, Parser, Tag};

use crate::paths;

/// File suffixes a link may carry that the page path does not.
const PAGE_SUFFIXES: [&str; 6] = [".md", ".mdx", ".markdown", ".html", ".htm", ".xhtml"];

/// How many leading folders of a root-absolute link may name the repository
/// around the tree (`/docs/api.md`, `/website/docs/api.md`).
const MAX_REPOSITORY_DEPTH: usize = 3;

/// Longest link target looked at; longer ones are left as written.
const MAX_URL_LEN: usize = 2048;

/// Where a link leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A page of the set, as its site path with the link's `#fragment`.
    Page(String),
    /// A fragment of the page the link is on (`#options`).
    SamePage(String),
    /// A URL with a scheme or a host, left as it is.
    External,
    /// A path no page of the set answers: a file-system path, a file outside
    /// the tree, a missing page. Left as written.
    Unresolved,
}

/// Resolves `url`, written in the file `from_file` (path inside the source) of
/// the edition at `prefix`, against the pages `is_page(site_path)` knows.
pub fn resolve(url: &str, from_file: &str, prefix: &str, is_page: &dyn Fn(&str) -> bool) -> Target {
    let url = url.trim();
    if url.is_empty() || url.len() > MAX_URL_LEN {
        return Target::Unresolved;
    }
    if let Some(fragment) = url.strip_prefix('#') {
        return Target::SamePage(fragment.to_owned());
    }
    if has_scheme(url) || url.starts_with("//") {
        return Target::External;
    }
    let (path_query, fragment) = match url.split_once('#') {
        Some((p, f)) => (p, Some(f).filter(|f| !f.is_empty())),
        None => (url, None),
    };
    let path = path_query.split('?').next().unwrap_or_default();
    let path = percent_decode(path);
    let candidates = candidates(&path, from_file, prefix);
    // A file named for its language (`ch02.en.html`) may be the page `ch02`.
    // HTML manuals' links are written as site paths already (`/ref/ch02.en`).
    let untranslated = candidates.iter().filter_map(|c| {
        let lower = c.to_ascii_lowercase();
        let file =
            if lower.ends_with(".html") || lower.ends_with(".htm") { c.clone() } else { format!("{c}.html") };
        paths::language_suffix(&file).map(|l| paths::without_language(&file, l))
    });
    for candidate in candidates.iter().cloned().chain(untranslated) {
        let site = site_path(prefix, &candidate);
        if is_page(&site) {
            return Target::Page(match fragment {
                Some(f) => format!("{site}#{f}"),
                None => site,
            });
        }
    }
    Target::Unresolved
}

/// Whether `url` starts with a scheme (`https:`, `mailto:`, `javascript:`).
pub fn has_scheme(url: &str) -> bool {
    let Some(colon) = url.find(':') else { return false };
    let first_special = url.find(['/', '?', '#']).unwrap_or(url.len());
    colon < first_special
        && url[..colon].chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && url[..colon].chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

/// Source-relative files a link path may mean, most likely first.
fn candidates(path: &str, from_file: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !path.starts_with('/') {
        if path.is_empty() {
            out.push(from_file.to_owned());
        } else if let Some(rel) = paths::resolve(from_file, path) {
            out.push(rel);
        }
        return out;
    }
    let prefix = paths::normalize_prefix(prefix);
    if !prefix.is_empty()
        && let Some(rest) = path.strip_prefix(prefix)
        && (rest.is_empty() || rest.starts_with('/'))
    {
        // Already a site path of the edition.
        out.push(rest.trim_start_matches('/').to_owned());
    }
    let rooted = path.trim_start_matches('/');
    out.push(rooted.to_owned());
    let mut rest = rooted;
    for _ in 0..MAX_REPOSITORY_DEPTH {
        let Some((_, inner)) = rest.split_once('/') else { break };
        if inner.is_empty() {
            break;
        }
        out.push(inner.to_owned());
        rest = inner;
    }
    out
}

/// The site path a source-relative link path names: page suffixes dropped,
/// an `index`/`README` standing for its folder.
pub fn site_path(prefix: &str, rel: &str) -> String {
    let mut rel = rel.trim_matches('/');
    for suffix in PAGE_SUFFIXES {
        if rel.len() > suffix.len() && rel[rel.len() - suffix.len()..].eq_ignore_ascii_case(suffix) {
            rel = &rel[..rel.len() - suffix.len()];
            break;
        }
    }
    let (dir, last) = match rel.rsplit_once('/') {
        Some((d, l)) => (d, l),
        None => ("", rel),
    };
    let is_index = last == "index" || last == "_index" || last.eq_ignore_ascii_case("readme");
    paths::join(prefix, if is_index { dir } else { rel })
}

/// `%20` and the like decoded; a path that does not decode to UTF-8 is
/// kept as written.
fn percent_decode(path: &str) -> String {
    if !path.contains('%') {
        return path.to_owned();
    }
    String::from_utf8(crate::paths::percent_decode_bytes(path)).unwrap_or_else(|_| path.to_owned())
}

/// The `id` and `name` values of the raw HTML tags in a page's Markdown
/// (`<a id="factory"></a>`, the anchors HTML manuals keep): targets of
/// `#fragment` links beside the section anchors.
pub fn html_anchors(markdown: &str) -> Vec<String> {
    scan(markdown).anchors
}

/// What one pass over a page's Markdown finds.
#[derive(Debug, Default)]
pub struct Scan {
    /// Link targets as written (`[x](target)`), in order.
    pub links: Vec<String>,
    /// `id`/`name` values of its raw HTML tags.
    pub anchors: Vec<String>,
}

/// The links and raw-HTML anchors of a page's Markdown, in one pass.
pub fn scan(markdown: &str) -> Scan {
    let mut out = Scan::default();
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Html(raw) | Event::InlineHtml(raw) => attribute_values(&raw, &mut out.anchors),
            Event::Start(Tag::Link { dest_url, .. }) => out.links.push(dest_url.to_string()),
            _ => {}
        }
    }
    out
}

/// Every `id="…"` and `name="…"` (quoted either way) inside the tags of `raw`.
fn attribute_values(raw: &str, out: &mut Vec<String>) {
    let mut rest = raw;
    while let Some(lt) = rest.find('<') {
        let tag_end = rest[lt..].find('>').map_or(rest.len(), |e| lt + e);
        let tag = &rest[lt..tag_end];
        for attr in ["id", "name"] {
            let mut from = 0;
            while let Some(at) = tag[from..].find(attr).map(|a| from + a) {
                from = at + attr.len();
                let before = tag[..at].chars().next_back();
                if !before.is_some_and(char::is_whitespace) {
                    continue;
                }
                let after = tag[from..].trim_start();
                let Some(value) = after.strip_prefix('=') else { continue };
                let value = value.trim_start();
                let quote = value.chars().next().filter(|q| *q == '"' || *q == '\'');
                let text = match quote {
                    Some(q) => value[1..].split(q).next().unwrap_or_default(),
                    None => value.split(|c: char| c.is_whitespace() || c == '>').next().unwrap_or_default(),
                };
                if !text.is_empty() {
                    out.push(decode_entities(text));
                }
            }
        }
        rest = &rest[tag_end.min(rest.len())..];
        if rest.is_empty() {
            break;
        }
        rest = &rest[1..];
    }
}

/// The few entities an attribute value written by a converter holds.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_owned();
    }
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The link targets written in a page's Markdown (`[x](target)`), in order.
pub fn markdown_links(markdown: &str) -> Vec<String> {
    scan(markdown).links
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages(list: &'static [&'static str]) -> impl Fn(&str) -> bool {
        move |p| list.contains(&p)
    }

    #[test]
    fn links_resolve_the_way_generators_resolve_them() {
        let set =
            pages(&["/npm/configuring-npm/package-lock-json", "/npm/cli", "/npm", "/npm/using-npm/scripts"]);
        let from = "commands/npm-install.md";
        let cases = [
            ("/configuring-npm/package-lock-json", "/npm/configuring-npm/package-lock-json"),
            ("/configuring-npm/package-lock-json.md#x", "/npm/configuring-npm/package-lock-json#x"),
            ("../using-npm/scripts.mdx", "/npm/using-npm/scripts"),
            ("../cli/README.md", "/npm/cli"),
            ("../cli/", "/npm/cli"),
            ("/docs/using-npm/scripts.md", "/npm/using-npm/scripts"),
            ("/npm/cli", "/npm/cli"),
            ("../index.md", "/npm"),
        ];
        for (url, want) in cases {
            assert_eq!(resolve(url, from, "/npm", &set), Target::Page(want.to_owned()), "{url}");
        }
        assert_eq!(resolve("#top", from, "/npm", &set), Target::SamePage("top".into()));
        assert_eq!(resolve("https://x.example/a.md", from, "/npm", &set), Target::External);
        assert_eq!(resolve("/usr/share/doc/x/index.html", from, "/npm", &set), Target::Unresolved);
        // A file named for its language is the page without it.
        assert_eq!(
            resolve("../using-npm/scripts.en.html#x", from, "/npm", &set),
            Target::Page("/npm/using-npm/scripts#x".into())
        );
        assert_eq!(resolve("../../../outside.md", from, "/npm", &set), Target::Unresolved);
        assert_eq!(resolve("missing.md", from, "/npm", &set), Target::Unresolved);
    }

    #[test]
    fn raw_html_anchors_are_found() {
        let md = "<a id=\"factory\"></a>\n\nText <span name='b' class=x>y</span> <a data-id=\"no\">z</a>\n\n`<a id=\"code\">`\n";
        assert_eq!(html_anchors(md), ["factory", "b"]);
    }
}
