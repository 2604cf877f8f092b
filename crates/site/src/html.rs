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

pub use lectern_corpus::links::{OtherEditions, Outside};
pub use lectern_corpus::render::{PageLinks, PageSet, markdown_to_html};
use lectern_library::NavLink;

/// The site's one stylesheet, inline (one request per page): light and
/// dark themes, the layout from 320 px up.
const STYLE: &str = include_str!("style.css");

pub(crate) fn head(out: &mut String, lang: &str, title: &str, description: Option<&str>) {
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<meta name=\"color-scheme\" content=\"light dark\">\n<link rel=\"icon\" href=\"/favicon.ico\">\n",
        escape(lang),
        escape(title)
    );
    if let Some(d) = description {
        let _ = writeln!(out, "<meta name=\"description\" content=\"{}\">", escape(d));
    }
    let _ = writeln!(out, "<style>{}</style>", STYLE.trim_end());
}

pub(crate) fn header(out: &mut String, site_name: &str, prefix: &str, query: &str) {
    let _ = write!(
        out,
        "<a class=\"skip\" href=\"#content\">Skip to content</a>\n<header>\n<a class=\"site\" href=\"/\">{}</a>\n<form role=\"search\" action=\"/search\" method=\"get\">\n<input type=\"hidden\" name=\"prefix\" value=\"{}\">\n<input type=\"search\" name=\"q\" value=\"{}\" aria-label=\"Search the docs\" placeholder=\"Search\">\n<button type=\"submit\">Search</button>\n</form>\n",
        escape(site_name),
        escape(prefix),
        escape(query)
    );
}

pub(crate) fn switcher(out: &mut String, label: &str, items: &[NavLink]) {
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
    /// With no result here: the same search where it finds pages
    /// (`path` is the link, `label` says how many and where).
    pub elsewhere: Vec<NavLink>,
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
    out.push_str("</header>\n<main id=\"content\" class=\"plain\">\n");
    let _ = writeln!(
        out,
        "<h1>Search{}</h1>",
        if v.query.is_empty() { String::new() } else { format!(": {}", escape(v.query)) }
    );
    if let Some(m) = v.message {
        let _ = writeln!(out, "<p>{}</p>", escape(m));
    }
    if !v.elsewhere.is_empty() {
        out.push_str("<ul class=\"elsewhere\">\n");
        for l in &v.elsewhere {
            let _ = writeln!(out, "<li><a href=\"{}\">{}</a></li>", escape(&l.path), escape(&l.label));
        }
        out.push_str("</ul>\n");
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
    out.push_str("</main>\n</body>\n</html>\n");
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

/// A small error page for people: what went wrong, a search box and a
/// link to the site's home.
pub fn error_page(status: StatusCode, message: &str) -> String {
    let mut out = String::new();
    let title = format!("{} {}", status.as_u16(), status.canonical_reason().unwrap_or(""));
    head(&mut out, "en", &title, None);
    out.push_str("<meta name=\"robots\" content=\"noindex\">\n</head>\n<body>\n");
    header(&mut out, lectern_library::pages::DEFAULT_SITE_NAME, "", "");
    let _ = write!(
        out,
        "</header>\n<main id=\"content\" class=\"plain\">\n<h1>{}</h1>\n<p>{}</p>\n<p><a href=\"/\">Go to the home page</a></p>\n</main>\n</body>\n</html>\n",
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
