//! Markdown to HTML for people, safe to insert in a page: raw HTML in the
//! source is shown as text, links keep only http(s), mailto, `#` and
//! site-relative targets, images become their alt text (pages load nothing
//! from elsewhere). Relative links to other Markdown files become site paths
//! and headings get the section anchors search links to. Used by the local
//! API's reading view and by the docs site.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

/// Where a page's Markdown lives, so its rendering can resolve relative
/// `.md` links to site paths and give headings the anchors search uses.
#[derive(Debug, Clone, Copy, Default)]
pub struct PageLinks<'a> {
    /// The scope's prefix (`/zh-Hans/app`): links stay in the reader's edition.
    pub prefix: &'a str,
    /// The page's file inside its source (`guide/install.md`).
    pub source_file: &'a str,
    /// Section anchors in document order; the lead section (no heading) has
    /// none, and a blank lead may be missing altogether.
    pub anchors: &'a [Option<String>],
    /// The page's title: shown as its `<h1>` when the Markdown has no
    /// top-level `# heading` of its own (a title given only in frontmatter).
    pub title: Option<&'a str>,
}

/// Renders Markdown to HTML with raw HTML escaped and unsafe links removed;
/// relative links to other Markdown files become their site paths, and
/// headings without an explicit id get their section's anchor.
pub fn markdown_to_html(markdown: &str, links: PageLinks<'_>) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES;
    // Sections are cut at level-2 and deeper headings outside quotes, lists
    // and footnotes, in order; only those take the next section's anchor.
    let lead = usize::from(links.anchors.first().is_some_and(Option::is_none));
    let mut sections = links.anchors.iter().skip(lead);
    let mut depth = 0usize;
    let has_h1 = links.title.is_some()
        && Parser::new_ext(markdown, options)
            .any(|e| matches!(e, Event::Start(Tag::Heading { level: pulldown_cmark::HeadingLevel::H1, .. })));
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Start(Tag::BlockQuote(_) | Tag::List(_) | Tag::FootnoteDefinition(_)) => {
            depth += 1;
            event
        }
        Event::End(TagEnd::BlockQuote(_) | TagEnd::List(_) | TagEnd::FootnoteDefinition) => {
            depth = depth.saturating_sub(1);
            event
        }
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            let dest_url = site_link(dest_url, links);
            Event::Start(Tag::Link { link_type, dest_url: safe_url(dest_url), title, id })
        }
        Event::Start(Tag::Heading { level, id, classes, attrs })
            if level >= pulldown_cmark::HeadingLevel::H2 && depth == 0 =>
        {
            let anchor = sections.next().and_then(|a| a.clone());
            let id = id.or_else(|| anchor.map(CowStr::from));
            Event::Start(Tag::Heading { level, id, classes, attrs })
        }
        Event::Start(Tag::Image { .. }) => Event::Start(Tag::Emphasis),
        Event::End(TagEnd::Image) => Event::End(TagEnd::Emphasis),
        other => other,
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    if let Some(title) = links.title.filter(|t| !has_h1 && !t.trim().is_empty()) {
        html.push_str("<h1>");
        for c in title.chars() {
            match c {
                '&' => html.push_str("&amp;"),
                '<' => html.push_str("&lt;"),
                '>' => html.push_str("&gt;"),
                '"' => html.push_str("&quot;"),
                c => html.push(c),
            }
        }
        html.push_str("</h1>\n");
    }
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// `../guide/install.md#x` (relative to the page's file) → `/app/guide/install#x`.
/// Anything else is returned unchanged.
fn site_link<'a>(url: CowStr<'a>, links: PageLinks<'_>) -> CowStr<'a> {
    let (target, fragment) = match url.split_once('#') {
        Some((t, f)) => (t, Some(f)),
        None => (url.as_ref(), None),
    };
    let is_markdown = target.ends_with(".md") || target.ends_with(".markdown");
    if !is_markdown || target.starts_with('/') || target.contains(':') || links.source_file.is_empty() {
        return url;
    }
    let Some(rel_file) = crate::paths::resolve(links.source_file, target) else { return url };
    let mut path = crate::paths::page_path(links.prefix, &rel_file);
    if let Some(f) = fragment {
        path.push('#');
        path.push_str(f);
    }
    CowStr::from(path)
}

fn safe_url(url: CowStr<'_>) -> CowStr<'_> {
    let lower = url.trim().to_ascii_lowercase();
    let scheme_end = lower.find(':');
    let first_special = lower.find(['/', '?', '#']);
    let has_scheme = match (scheme_end, first_special) {
        (Some(c), Some(s)) => c < s,
        (Some(_), None) => true,
        _ => false,
    };
    if !has_scheme
        || lower.starts_with("http://")
        || lower.starts_with("https://")
        || lower.starts_with("mailto:")
    {
        url
    } else {
        CowStr::Borrowed("#")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_escaped_and_unsafe_links_dropped() {
        let html = markdown_to_html(
            "# 标题\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) [y](/app/faq) ![img](http://evil/x.png)",
            PageLinks::default(),
        );
        assert!(html.contains("<h1>标题</h1>"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(html.contains(r#"href="/app/faq""#), "{html}");
        assert!(!html.contains("<img"), "{html}");
    }

    #[test]
    fn relative_markdown_links_become_site_paths_and_headings_get_anchors() {
        let anchors = [None, Some("install".to_owned()), None, Some("parallel-query".to_owned())];
        let links = PageLinks {
            prefix: "/zh-Hans/app",
            source_file: "guide/index.md",
            anchors: &anchors,
            title: None,
        };
        let html = markdown_to_html(
            "# 指南\n\n[a](install.md) [b](../reference/limits.md#keys) [c](https://x.example/a.md) [d](/app/faq)\n\n\
             ## 安装\n\n### 配置 {#own}\n\n## 并行查询\n",
            links,
        );
        assert!(html.contains(r#"href="/zh-Hans/app/guide/install""#), "{html}");
        assert!(html.contains(r#"href="/zh-Hans/app/reference/limits#keys""#), "{html}");
        assert!(html.contains(r#"href="https://x.example/a.md""#), "{html}");
        assert!(html.contains(r#"href="/app/faq""#), "{html}");
        assert!(html.contains(r#"<h2 id="install">"#), "{html}");
        assert!(html.contains(r#"<h3 id="own">"#), "explicit ids win: {html}");
        assert!(html.contains(r#"<h2 id="parallel-query">"#), "{html}");
    }

    #[test]
    fn headings_take_their_own_section_anchor_when_the_lead_is_blank() {
        // A blank lead is not a section: the first anchor is the first heading's.
        let anchors = [Some("name".to_owned()), Some("description".to_owned()), Some("see-also".to_owned())];
        let links = PageLinks { anchors: &anchors, title: Some("package.json <x>"), ..PageLinks::default() };
        let html = markdown_to_html("### Name\n\n> ## Quoted\n\n### Description\n\n### See Also\n", links);
        assert!(html.starts_with("<h1>package.json &lt;x&gt;</h1>"), "frontmatter title shown: {html}");
        assert!(html.contains(r#"<h3 id="name">Name"#), "{html}");
        assert!(html.contains("<h2>Quoted"), "a quoted heading is no section: {html}");
        assert!(html.contains(r#"<h3 id="description">Description"#), "{html}");
        assert!(html.contains(r#"<h3 id="see-also">See Also"#), "{html}");
        let own =
            markdown_to_html("# Own\n\ntext", PageLinks { title: Some("Other"), ..PageLinks::default() });
        assert!(!own.contains("Other"), "the page's own # heading wins: {own}");
    }
}
