//! HTML for people: Markdown rendered safely (raw HTML in a page shown as
//! text, only http(s), mailto, `#` and site-relative links, images as their
//! alt text), and the page, search and error templates. Semantic markup,
//! readable without JavaScript.

use std::fmt::Write;

use axum::http::StatusCode;

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub use lectern_corpus::render::{PageLinks, PageSet, markdown_to_html};
use lectern_library::{NavLink, PageNav};

const STYLE: &str = "body{font:16px/1.55 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}\
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.6rem 1rem;border-bottom:1px solid #ddd}\
header .site{font-weight:600;text-decoration:none;color:inherit}\
header nav ul{display:flex;gap:.5rem;list-style:none;margin:0;padding:0}\
[aria-current]{font-weight:700}\
.layout{display:flex;gap:2rem;padding:1rem}\
.sidebar{min-width:14rem;max-width:18rem}.sidebar ul{list-style:none;padding:0;margin:0}.sidebar li{margin:.2rem 0}\
main{max-width:48rem;flex:1;min-width:0}pre{overflow:auto;background:#f5f5f5;padding:.6rem}\
code{background:#f5f5f5}.note{background:#fff7d6;padding:.5rem .8rem;border-left:4px solid #e5b800}\
mark{background:#ffe680}\
@media (max-width:48rem){.layout{flex-direction:column}}";

fn head(out: &mut String, lang: &str, title: &str, description: Option<&str>) {
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n",
        escape(lang),
        escape(title)
    );
    if let Some(d) = description {
        let _ = writeln!(out, "<meta name=\"description\" content=\"{}\">", escape(d));
    }
    let _ = writeln!(out, "<style>{STYLE}</style>");
}

fn header(out: &mut String, site_name: &str, prefix: &str, query: &str) {
    let _ = write!(
        out,
        "<header>\n<a class=\"site\" href=\"/\">{}</a>\n<form role=\"search\" action=\"/search\" method=\"get\">\n<input type=\"hidden\" name=\"prefix\" value=\"{}\">\n<input type=\"search\" name=\"q\" value=\"{}\" aria-label=\"Search the docs\" placeholder=\"Search\">\n<button type=\"submit\">Search</button>\n</form>\n",
        escape(site_name),
        escape(prefix),
        escape(query)
    );
}

fn switcher(out: &mut String, label: &str, items: &[NavLink]) {
    if items.len() < 2 {
        return;
    }
    let _ = write!(out, "<nav aria-label=\"{}\"><ul>", escape(label));
    for NavLink { path, label, current } in items {
        let current = if *current { " aria-current=\"true\"" } else { "" };
        let _ = write!(out, "<li><a href=\"{}\"{current}>{}</a></li>", escape(path), escape(label));
    }
    out.push_str("</ul></nav>\n");
}

/// A page of the site: `nav` with the page's body rendered as `body_html`;
/// `base` turns the alternates' site paths into absolute URLs.
pub fn page(nav: &PageNav, body_html: &str, base: &str) -> String {
    let PageNav { site_name, page: v, sidebar, versions, locales, alternates } = nav;
    let mut out = String::with_capacity(body_html.len() + 4096);
    head(
        &mut out,
        &v.locale,
        &format!("{} — {} — {}", v.title, v.label, site_name),
        v.description.as_deref(),
    );
    for (lang, path) in alternates {
        let href = format!("{base}{path}");
        let _ = writeln!(
            out,
            "<link rel=\"alternate\" hreflang=\"{}\" href=\"{}\">",
            escape(lang),
            escape(&href)
        );
    }
    // A stand-in for a missing translation is published at its translated
    // path (the sitemap lists it) but is the original's content: the
    // original, the default locale's page, is its canonical URL.
    if v.fallback
        && let Some((_, original)) = alternates.iter().find(|(lang, _)| lang == "x-default")
    {
        let _ = writeln!(out, "<link rel=\"canonical\" href=\"{}\">", escape(&format!("{base}{original}")));
    }
    let _ = writeln!(out, "<link rel=\"alternate\" type=\"text/markdown\" href=\"{}.md\">", escape(&v.path));
    out.push_str("</head>\n<body>\n");
    header(&mut out, site_name, &v.prefix, "");
    switcher(&mut out, "Versions", versions);
    switcher(&mut out, "Languages", locales);
    out.push_str("</header>\n<div class=\"layout\">\n<nav class=\"sidebar\" aria-label=\"Pages\"><ul>\n");
    for NavLink { path, label, current } in sidebar {
        let current = if *current { " aria-current=\"page\"" } else { "" };
        let _ = writeln!(out, "<li><a href=\"{}\"{current}>{}</a></li>", escape(path), escape(label));
    }
    out.push_str("</ul></nav>\n<main>\n");
    if v.fallback {
        out.push_str(
            "<p class=\"note\" role=\"note\">This page is not translated yet; it is shown in the original language.</p>\n",
        );
    }
    let _ = write!(
        out,
        "<article>\n{}</article>\n<footer><p><a href=\"{}.md\">Markdown source</a> · {}</p></footer>\n</main>\n</div>\n</body>\n</html>\n",
        body_html,
        escape(&v.path),
        escape(&v.label)
    );
    out
}

/// One ranked search result.
#[derive(Debug)]
pub struct SearchResultView {
    pub href: String,
    pub title: String,
    pub breadcrumb: String,
    pub snippet: String,
    /// `[start, end)` in Unicode scalar offsets of `snippet`.
    pub highlights: Vec<[usize; 2]>,
}

/// What the search page shows.
#[derive(Debug, Default)]
pub struct SearchView<'a> {
    pub site_name: &'a str,
    /// The language of the searched edition (the site's default without one).
    pub lang: &'a str,
    /// The searched edition's prefix ("" for the library's defaults).
    pub prefix: &'a str,
    pub query: &'a str,
    /// The same search in the other versions (`path` is the link).
    pub versions: Vec<NavLink>,
    /// The same search in the other languages (`path` is the link).
    pub locales: Vec<NavLink>,
    pub results: &'a [SearchResultView],
    pub message: Option<&'a str>,
}

/// The search page: the form, the version and language switchers, then
/// ranked results (or a message).
pub fn search_page(v: &SearchView<'_>) -> String {
    let mut out = String::new();
    head(&mut out, v.lang, &format!("Search: {} — {}", v.query, v.site_name), None);
    out.push_str("<meta name=\"robots\" content=\"noindex\">\n</head>\n<body>\n");
    header(&mut out, v.site_name, v.prefix, v.query);
    switcher(&mut out, "Versions", &v.versions);
    switcher(&mut out, "Languages", &v.locales);
    out.push_str("</header>\n<div class=\"layout\"><main>\n");
    let _ = writeln!(
        out,
        "<h1>Search{}</h1>",
        if v.query.is_empty() { String::new() } else { format!(": {}", escape(v.query)) }
    );
    if let Some(m) = v.message {
        let _ = writeln!(out, "<p>{}</p>", escape(m));
    }
    if !v.results.is_empty() {
        out.push_str("<ol class=\"results\">\n");
        for r in v.results {
            let _ = writeln!(
                out,
                "<li><a href=\"{}\">{}</a><br><small>{}</small><p>{}</p></li>",
                escape(&r.href),
                escape(&r.title),
                escape(&r.breadcrumb),
                highlight(&r.snippet, &r.highlights)
            );
        }
        out.push_str("</ol>\n");
    }
    out.push_str("</main></div>\n</body>\n</html>\n");
    out
}

/// Escapes `snippet`, wrapping the highlighted scalar ranges in `<mark>`.
fn highlight(snippet: &str, ranges: &[[usize; 2]]) -> String {
    let mut out = String::new();
    let mut open = false;
    for (i, c) in snippet.chars().enumerate() {
        let inside = ranges.iter().any(|[s, e]| (*s..*e).contains(&i));
        if inside && !open {
            out.push_str("<mark>");
            open = true;
        } else if !inside && open {
            out.push_str("</mark>");
            open = false;
        }
        out.push_str(&escape(c.encode_utf8(&mut [0; 4])));
    }
    if open {
        out.push_str("</mark>");
    }
    out
}

/// A small error page.
pub fn error_page(status: StatusCode, message: &str) -> String {
    let mut out = String::new();
    let title = format!("{} {}", status.as_u16(), status.canonical_reason().unwrap_or(""));
    head(&mut out, "en", &title, None);
    let _ = write!(
        out,
        "</head>\n<body>\n<main>\n<h1>{}</h1>\n<p>{}</p>\n<p><a href=\"/\">Home</a></p>\n</main>\n</body>\n</html>\n",
        escape(&title),
        escape(message)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlights_mark_scalar_ranges() {
        assert_eq!(highlight("a<索引>b", &[[2, 4]]), "a&lt;<mark>索引</mark>&gt;b");
    }
}
