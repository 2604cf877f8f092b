//! Markdown to HTML for the reading view, safe to insert in the page: raw HTML
//! in the source is shown as text, links keep only http(s), mailto, `#` and
//! site-relative targets, and images become their alt text (the page works
//! offline and loads nothing from elsewhere).

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

/// Renders Markdown to HTML with raw HTML escaped and unsafe links removed.
pub fn markdown_to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            Event::Start(Tag::Link { link_type, dest_url: safe_url(dest_url), title, id })
        }
        Event::Start(Tag::Image { .. }) => Event::Start(Tag::Emphasis),
        Event::End(TagEnd::Image) => Event::End(TagEnd::Emphasis),
        other => other,
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    html
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
    fn raw_html_is_escaped_and_scripts_links_dropped() {
        let html = markdown_to_html(
            "# 标题\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) [y](/app/faq) ![img](http://evil/x.png)",
        );
        assert!(html.contains("<h1>标题</h1>"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(html.contains(r#"href="/app/faq""#), "{html}");
        assert!(!html.contains("<img"), "{html}");
    }
}
