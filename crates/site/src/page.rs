//! The page template: the header (search box, version and language
//! switchers), the sidebar as collapsible groups behind a no-JavaScript
//! menu button on small screens, the page with one `<h1>`, a lifecycle
//! notice, its table of contents, previous/next and the edit link; an
//! edition's generated home; and the page for a path with no page.

use std::fmt::Write;

use lectern_library::{Lifecycle, Missing, NavItem, NavLink, PageNav, Status};

use crate::html::{escape, head, header, switcher};

/// A page of the site: `nav` with the page's body rendered as `body_html`;
/// `base` turns the alternates' site paths into absolute URLs.
pub fn page(nav: &PageNav, body_html: &str, base: &str) -> String {
    let v = &nav.page;
    let mut out = String::with_capacity(body_html.len() + 8192);
    let title = if nav.landing {
        format!("{} — {}", v.title, nav.site_name)
    } else {
        format!("{} — {} — {}", v.title, v.label, nav.site_name)
    };
    let description = v.description.as_deref().or(nav.site_description.as_deref());
    let fallback_description = format!("{} — {}, {}", v.title, v.label, nav.site_name);
    head(&mut out, &v.locale, &title, Some(description.unwrap_or(&fallback_description)));
    for (lang, path) in &nav.alternates {
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
        && let Some((_, original)) = nav.alternates.iter().find(|(lang, _)| lang == "x-default")
    {
        let _ = writeln!(out, "<link rel=\"canonical\" href=\"{}\">", escape(&format!("{base}{original}")));
    }
    if !nav.landing {
        let _ =
            writeln!(out, "<link rel=\"alternate\" type=\"text/markdown\" href=\"{}.md\">", escape(&v.path));
    }
    out.push_str("</head>\n<body>\n");
    header(&mut out, &nav.site_name, &v.prefix, "");
    switcher(&mut out, "Versions", &nav.versions);
    switcher(&mut out, "Languages", &nav.locales);
    out.push_str("</header>\n<div class=\"layout\">\n");
    sidebar(&mut out, &nav.nav.items, &v.path, nav.nav.reading.len() > LARGE_SIDEBAR);
    out.push_str("<main id=\"content\">\n<div class=\"doc\">\n");
    if let Some(l) = &nav.lifecycle {
        lifecycle(&mut out, &v.label, l);
    }
    if v.fallback {
        out.push_str(
            "<p class=\"note\" role=\"note\">This page is not translated yet; it is shown in the original language.</p>\n",
        );
    }
    out.push_str("<article>\n");
    if nav.landing {
        landing(&mut out, nav);
    } else {
        // One <h1> per page: the title, unless the Markdown starts with its own.
        if !body_html.contains("<h1") {
            let _ = writeln!(out, "<h1>{}</h1>", escape(&v.title));
        }
        out.push_str(&focusable_code(&outline(body_html)));
    }
    out.push_str("</article>\n");
    pager(&mut out, nav.prev.as_ref(), nav.next.as_ref());
    out.push_str("<footer><p>");
    if !nav.landing {
        let _ = write!(out, "<a href=\"{}.md\">Markdown source</a> · ", escape(&v.path));
    }
    if let Some(edit) = &nav.edit_url {
        let _ = write!(out, "<a href=\"{}\" rel=\"noopener\">Edit this page</a> · ", escape(edit));
    }
    let _ = write!(out, "{}</p></footer>\n</div>\n", escape(&v.label));
    toc(&mut out, nav);
    out.push_str("</main>\n</div>\n</body>\n</html>\n");
    out
}

/// Headings under the page's `<h1>` start at `<h2>`: a page whose
/// sections start at `###` is shown with them one or more levels up, so
/// the outline has no gap (the rendering escapes raw HTML, so every `<hN`
/// is a heading of the Markdown).
fn outline(body_html: &str) -> String {
    let top = (2..=6u8).find(|n| body_html.contains(&format!("<h{n}")));
    let Some(shift) = top.map(|t| t - 2).filter(|s| *s > 0) else { return body_html.to_owned() };
    let mut out = body_html.to_owned();
    for n in top.unwrap_or(2)..=6 {
        out = out.replace(&format!("<h{n}"), &format!("<h{}", n - shift));
        out = out.replace(&format!("</h{n}>"), &format!("</h{}>", n - shift));
    }
    out
}

/// Scrollable code blocks take keyboard focus, so they can be scrolled
/// without a mouse. The body is our own rendering, where raw HTML was
/// escaped, so every `<pre` is one of its code blocks.
fn focusable_code(body_html: &str) -> String {
    body_html.replace("<pre", "<pre tabindex=\"0\"")
}

/// Pages in an edition above which the sidebar lists only the groups
/// around the current page in full: other groups are one link each (to
/// their first page), so a page of a very large manual stays small.
const LARGE_SIDEBAR: usize = 400;

/// The sidebar: groups as `<details>`, open when the current page is in
/// them or the source does not collapse them. On small screens it sits
/// behind the menu button (a checkbox: no JavaScript). With `large`, a
/// group away from the current page is a link to its first page.
fn sidebar(out: &mut String, items: &[NavItem], current: &str, large: bool) {
    out.push_str(
        "<input type=\"checkbox\" id=\"menu\" class=\"menu-toggle\"><label for=\"menu\" class=\"menu-button\">Menu</label>\n<nav class=\"sidebar\" aria-label=\"Pages\">\n",
    );
    tree(out, items, current, large);
    out.push_str("</nav>\n");
}

fn tree(out: &mut String, items: &[NavItem], current: &str, large: bool) {
    out.push_str("<ul>\n");
    for item in items {
        match item {
            NavItem::Page { path, label } => {
                let mark = if path == current { " aria-current=\"page\"" } else { "" };
                let _ = writeln!(out, "<li><a href=\"{}\"{mark}>{}</a></li>", escape(path), escape(label));
            }
            NavItem::Group { label, items, .. } if large && !holds(items, current) => {
                if let Some(first) = first_page(items) {
                    let _ = writeln!(out, "<li><a href=\"{}\">{} …</a></li>", escape(first), escape(label));
                }
            }
            NavItem::Group { label, collapsed, items, .. } => {
                let open = if !collapsed || holds(items, current) { " open" } else { "" };
                let _ = writeln!(out, "<li><details{open}><summary>{}</summary>", escape(label));
                tree(out, items, current, large);
                out.push_str("</details></li>\n");
            }
        }
    }
    out.push_str("</ul>\n");
}

fn holds(items: &[NavItem], path: &str) -> bool {
    items.iter().any(|i| match i {
        NavItem::Page { path: p, .. } => p == path,
        NavItem::Group { items, .. } => holds(items, path),
    })
}

fn lifecycle(out: &mut String, label: &str, l: &Lifecycle) {
    let what = match l.status {
        Status::Eol => "is no longer maintained (end of life)",
        Status::Deprecated => "is deprecated",
        _ => "is a preview and may still change",
    };
    let _ = writeln!(
        out,
        "<p class=\"banner\" role=\"note\">{} {what}. <a href=\"{}\">Read this in {}</a>, the current version.</p>",
        escape(label),
        escape(&l.current.path),
        escape(&l.current.label)
    );
}

/// An edition's generated home: its title, the site's description, then
/// the sidebar's sections, each with its pages.
fn landing(out: &mut String, nav: &PageNav) {
    let _ = writeln!(out, "<h1>{}</h1>", escape(&nav.page.title));
    if let Some(d) = &nav.site_description {
        let _ = writeln!(out, "<p>{}</p>", escape(d));
    }
    let pages: Vec<&NavItem> = nav.nav.items.iter().filter(|i| matches!(i, NavItem::Page { .. })).collect();
    out.push_str("<div class=\"sections\">\n");
    if !pages.is_empty() {
        out.push_str("<section><ul>\n");
        for item in pages {
            entry(out, item);
        }
        out.push_str("</ul></section>\n");
    }
    for item in &nav.nav.items {
        if let NavItem::Group { label, items, .. } = item {
            let _ = writeln!(out, "<section><h2>{}</h2><ul>", escape(label));
            for child in items {
                entry(out, child);
            }
            out.push_str("</ul></section>\n");
        }
    }
    out.push_str("</div>\n");
}

/// A landing page's entry: a page, or a nested group as a link to its first page.
fn entry(out: &mut String, item: &NavItem) {
    let link = match item {
        NavItem::Page { path, label } => Some((path, label)),
        NavItem::Group { label, items, .. } => first_page(items).map(|p| (p, label)),
    };
    if let Some((path, label)) = link {
        let _ = writeln!(out, "<li><a href=\"{}\">{}</a></li>", escape(path), escape(label));
    }
}

fn first_page(items: &[NavItem]) -> Option<&String> {
    items.iter().find_map(|i| match i {
        NavItem::Page { path, .. } => Some(path),
        NavItem::Group { items, .. } => first_page(items),
    })
}

fn pager(out: &mut String, prev: Option<&NavLink>, next: Option<&NavLink>) {
    if prev.is_none() && next.is_none() {
        return;
    }
    out.push_str("<nav class=\"pager\" aria-label=\"Previous and next\">\n");
    if let Some(p) = prev {
        let _ = writeln!(
            out,
            "<a class=\"prev\" rel=\"prev\" href=\"{}\"><small>Previous</small>{}</a>",
            escape(&p.path),
            escape(&p.label)
        );
    }
    if let Some(n) = next {
        let _ = writeln!(
            out,
            "<a class=\"next\" rel=\"next\" href=\"{}\"><small>Next</small>{}</a>",
            escape(&n.path),
            escape(&n.label)
        );
    }
    out.push_str("</nav>\n");
}

/// The page's table of contents (none for fewer than two headings).
fn toc(out: &mut String, nav: &PageNav) {
    if nav.toc.len() < 2 {
        return;
    }
    let top = nav.toc.iter().map(|t| t.level).min().unwrap_or(2);
    out.push_str(
        "<nav class=\"toc\" aria-labelledby=\"toc-title\">\n<h2 id=\"toc-title\">On this page</h2>\n<ul>\n",
    );
    for t in &nav.toc {
        let sub = if t.level > top { " class=\"sub\"" } else { "" };
        let _ = writeln!(out, "<li{sub}><a href=\"#{}\">{}</a></li>", escape(&t.anchor), escape(&t.title));
    }
    out.push_str("</ul>\n</nav>\n");
}

/// The page for a path with no page: what happened, a search box, and a
/// link to the nearest edition's home (never to the missing path itself).
pub fn missing(m: &Missing, path: &str) -> String {
    let mut out = String::new();
    head(&mut out, &m.lang, &format!("Page not found — {}", m.site_name), None);
    out.push_str("<meta name=\"robots\" content=\"noindex\">\n</head>\n<body>\n");
    let prefix = m.home.as_ref().map_or("", |h| h.path.as_str());
    header(&mut out, &m.site_name, prefix, "");
    out.push_str("</header>\n<main id=\"content\" class=\"plain\">\n<h1>Page not found</h1>\n");
    // The same words for every missing address: a static export serves this
    // page as `404.html` for whatever URL a host has no file for.
    out.push_str("<p>There is no page at this address.</p>\n");
    match &m.home {
        Some(home) if home.path != path => {
            let _ = writeln!(
                out,
                "<p>Search for it above, or go to <a href=\"{}\">the {} home page</a>.</p>",
                escape(&home.path),
                escape(&home.label)
            );
        }
        _ => out.push_str("<p>This site has no published pages yet.</p>\n"),
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(path: &str) -> NavItem {
        NavItem::Page { path: path.to_owned(), label: path.to_owned() }
    }

    fn group(label: &str, items: Vec<NavItem>) -> NavItem {
        NavItem::Group { label: label.to_owned(), collapsed: true, led: false, items }
    }

    #[test]
    fn a_large_sidebar_lists_only_the_groups_around_the_current_page() {
        let items =
            vec![page("/a"), group("G", vec![page("/g/1"), page("/g/2")]), group("H", vec![page("/h/1")])];
        let mut small = String::new();
        sidebar(&mut small, &items, "/g/2", false);
        assert!(
            small.contains("<details open><summary>G</summary>")
                && small.contains("<details><summary>H</summary>")
        );
        assert!(small.contains("href=\"/h/1\""));
        let mut large = String::new();
        sidebar(&mut large, &items, "/g/2", true);
        assert!(large.contains("<details open><summary>G</summary>"), "{large}");
        assert!(
            large.contains("<li><a href=\"/h/1\">H …</a></li>") && !large.contains("<summary>H"),
            "{large}"
        );
    }

    #[test]
    fn headings_start_at_h2_under_the_title() {
        assert_eq!(outline("<h3 id=\"a\">A</h3><h4>B</h4>"), "<h2 id=\"a\">A</h2><h3>B</h3>");
        assert_eq!(outline("<h2>A</h2><h4>B</h4>"), "<h2>A</h2><h4>B</h4>");
        assert_eq!(focusable_code("<pre><code>x</code></pre>"), "<pre tabindex=\"0\"><code>x</code></pre>");
        assert_eq!(focusable_code("<pre class=\"c\">x</pre>"), "<pre tabindex=\"0\" class=\"c\">x</pre>");
    }
}
