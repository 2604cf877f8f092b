//! The allowlist raw HTML in Markdown passes on its way to a page: the HTML
//! is parsed as a fragment (as a browser would inside a `<div>`), and only
//! allowed HTML elements with allowed attributes are written back, every
//! text and attribute value escaped. What is not allowed:
//! - `script`, `style`, `template`, `iframe`, `noscript` and SVG/MathML
//!   elements are dropped with everything inside them;
//! - other elements (`iframe`, `form`, `object`, unknown tags...) are
//!   dropped, their contents kept (a raw-text element's contents as text);
//! - comments, doctypes and processing instructions are dropped;
//! - attributes outside the list (`style`, `class` but a code block's
//!   `language-*`, every `on*` handler) are dropped, and so is a URL
//!   attribute whose scheme is not http(s), mailto or file, or an image
//!   source from another site.
//!
//! Since nothing is written but allowed HTML elements, escaped text and
//! quoted, escaped attribute values, the output parses back to the same
//! allowed tree: no element can appear from text.

use ego_tree::iter::Edge;
use scraper::Html;
use scraper::node::{Element, Node};

/// Elements written back (tag and all).
#[rustfmt::skip]
const TAGS: &[&str] = &[
    "a", "abbr", "acronym", "area", "article", "aside", "b", "bdi", "bdo", "blockquote", "br",
    "caption", "center", "cite", "code", "col", "colgroup", "data", "dd", "del", "details", "dfn",
    "div", "dl", "dt", "em", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hgroup", "hr", "i", "img", "input", "ins", "kbd", "li", "map", "mark", "nav", "ol",
    "p", "pre", "q", "rp", "rt", "rtc", "ruby", "s", "samp", "small", "span", "strike", "strong",
    "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "tt",
    "u", "ul", "var", "wbr",
];

/// Elements that take their whole contents with them.
/// (An `iframe`'s or `noscript`'s text is never shown where scripts run.)
const DROPPED_WITH_CONTENTS: &[&str] =
    &["script", "style", "template", "iframe", "noscript", "noembed", "noframes"];

/// Elements with no closing tag.
const VOID: &[&str] = &["area", "br", "col", "hr", "img", "input", "wbr"];

/// Attributes any allowed element keeps.
const GENERIC_ATTRIBUTES: &[&str] = &["id", "align", "lang", "title"];

/// Attributes of one element.
fn tag_attribute(tag: &str, attribute: &str) -> bool {
    let allowed: &[&str] = match tag {
        "a" => &["href", "hreflang", "name"],
        "bdo" => &["dir"],
        "blockquote" | "q" => &["cite"],
        "col" | "colgroup" => &["char", "charoff", "span"],
        "del" | "ins" => &["cite", "datetime"],
        "hr" => &["size", "width"],
        "img" => &["alt", "height", "src", "width"],
        "ol" => &["start"],
        "table" => &["char", "charoff", "summary"],
        "tbody" | "tfoot" | "thead" | "tr" => &["char", "charoff"],
        "td" => &["char", "charoff", "colspan", "headers", "rowspan"],
        "th" => &["char", "charoff", "colspan", "headers", "rowspan", "scope"],
        "code" => &["class"],
        "input" => &["type", "checked", "disabled"],
        _ => &[],
    };
    allowed.contains(&attribute)
}

/// Schemes a link may use; a URL without a scheme (relative, `#x`) passes.
/// (`file:` is how a link to a file outside every installed edition stays.)
const URL_SCHEMES: &[&str] = &["http", "https", "mailto", "file"];

/// `html` with only what the allowlist passes (see the module's notes).
pub(crate) fn sanitize(html: &str) -> String {
    let fragment = Html::parse_fragment(html);
    let mut out = String::with_capacity(html.len());
    let root = fragment.root_element();
    let mut edges = root.traverse();
    // Elements opened in `out`, so each closes where its source closed.
    let mut written: Vec<ego_tree::NodeId> = Vec::new();
    while let Some(edge) = edges.next() {
        match edge {
            Edge::Open(node) if node.id() == root.id() => {}
            Edge::Open(node) => match node.value() {
                Node::Text(text) => escape_text(&text.text, &mut out),
                Node::Element(el) => {
                    let name = el.name();
                    let foreign = &*el.name.ns != "http://www.w3.org/1999/xhtml";
                    if foreign || DROPPED_WITH_CONTENTS.contains(&name) {
                        skip_subtree(&mut edges, node.id());
                    } else if TAGS.contains(&name) {
                        open_tag(el, &mut out);
                        if VOID.contains(&name) {
                            skip_subtree(&mut edges, node.id());
                        } else {
                            written.push(node.id());
                        }
                    }
                }
                _ => skip_subtree(&mut edges, node.id()),
            },
            Edge::Close(node) => {
                if written.last() == Some(&node.id()) {
                    written.pop();
                    if let Node::Element(el) = node.value() {
                        out.push_str("</");
                        out.push_str(el.name());
                        out.push('>');
                    }
                }
            }
        }
    }
    out
}

/// Moves `edges` past the close of `id`, which was just opened.
fn skip_subtree(edges: &mut ego_tree::iter::Traverse<'_, Node>, id: ego_tree::NodeId) {
    for edge in edges.by_ref() {
        if matches!(edge, Edge::Close(n) if n.id() == id) {
            return;
        }
    }
}

fn open_tag(el: &Element, out: &mut String) {
    let name = el.name();
    out.push('<');
    out.push_str(name);
    for (attribute, value) in el.attrs() {
        if !keeps(name, attribute, value) {
            continue;
        }
        out.push(' ');
        out.push_str(attribute);
        out.push_str("=\"");
        for c in value.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '"' => out.push_str("&quot;"),
                '\u{a0}' => out.push_str("&nbsp;"),
                c => out.push(c),
            }
        }
        out.push('"');
    }
    out.push('>');
}

/// Whether attribute `attribute="value"` of an allowed `tag` is written back.
fn keeps(tag: &str, attribute: &str, value: &str) -> bool {
    if !GENERIC_ATTRIBUTES.contains(&attribute) && !tag_attribute(tag, attribute) {
        return false;
    }
    match (tag, attribute) {
        (_, "href" | "src" | "cite") if !url_allowed(value) => false,
        ("img", "src") => !has_scheme_or_host(value),
        ("code", "class") => value.starts_with("language-"),
        ("input", "type") => value == "checkbox",
        _ => true,
    }
}

/// A URL with no scheme, or one of [`URL_SCHEMES`], read the way a browser
/// reads it: tabs and newlines anywhere and spaces or controls around it are
/// ignored (`java\nscript:` is `javascript:`).
fn url_allowed(value: &str) -> bool {
    let url: String =
        value.trim_matches(|c: char| c <= ' ').chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    if !crate::links::has_scheme(&url) {
        // `:` before any `/?#` that is not a valid scheme (`1x:`, `:x`) is
        // still taken as one by no browser, but refuse it: nothing needs it.
        return !url.split(['/', '?', '#']).next().unwrap_or_default().contains(':');
    }
    let scheme = url.split(':').next().unwrap_or_default().to_ascii_lowercase();
    URL_SCHEMES.contains(&scheme.as_str())
}

fn has_scheme_or_host(url: &str) -> bool {
    let url = url.trim();
    url.starts_with("//") || url.starts_with("\\\\") || crate::links::has_scheme(url)
}

fn escape_text(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\u{a0}' => out.push_str("&nbsp;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn allowed_markup_passes_with_its_anchors() {
        let html = r#"<h1 align="center" id="top">Fastify</h1><p><a id="factory"></a><code><b>x</b></code> <kbd>Ctrl</kbd></p><details><summary>More</summary><p>a &amp; b</p></details>"#;
        assert_eq!(sanitize(html), html);
        let table = "<table><thead><tr><th colspan=\"2\">A</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>";
        assert_eq!(sanitize(table), table);
        // Attributes are written in name order.
        assert_eq!(
            sanitize("<p>one<br>two<img src=\"/app/a.png\" alt=\"A\"></p>"),
            "<p>one<br>two<img alt=\"A\" src=\"/app/a.png\"></p>"
        );
        assert_eq!(
            sanitize(r#"<input type="checkbox" checked disabled> done"#),
            r#"<input checked="" disabled="" type="checkbox"> done"#
        );
    }

    #[test]
    fn scripts_styles_and_handlers_never_pass() {
        for (input, expected) in [
            ("<script>alert(1)</script><p>x</p>", "<p>x</p>"),
            ("<style>p{}</style>ok", "ok"),
            (r#"<p onclick="alert(1)" style="color:red" class="x">x</p>"#, "<p>x</p>"),
            (r#"<img src="/a.png" onerror="alert(1)">"#, r#"<img src="/a.png">"#),
            ("<iframe src=\"https://evil\">inside</iframe>", ""),
            ("<form action=\"/x\"><p>kept</p></form>", "<p>kept</p>"),
            ("<svg><script>alert(1)</script><a href=\"x\">y</a></svg>after", "after"),
            // An HTML tag inside MathML leaves it, as browsers parse it: the image is HTML, its handler gone.
            ("<math><mi>x</mi><style><img src=x onerror=alert(1)></style></math>", "<img src=\"x\">"),
            ("<template><img src=x onerror=alert(1)></template>t", "t"),
            ("<!-- <script>alert(1)</script> -->c", "c"),
            ("<noscript><img src=x onerror=alert(1)></noscript>n", "n"),
            ("<textarea><b>not bold</b></textarea>", "&lt;b&gt;not bold&lt;/b&gt;"),
            ("<p title='\"><script>'>q</p>", "<p title=\"&quot;><script>\">q</p>"),
            (
                "<code class=\"language-rust\">fn</code><code class=\"evil\">x</code>",
                "<code class=\"language-rust\">fn</code><code>x</code>",
            ),
        ] {
            assert_eq!(sanitize(input), expected, "for {input}");
        }
        // The iframe's text is not even text: browsers never show it.
        assert!(!sanitize("<iframe>x</iframe>").contains("iframe"));
    }

    #[test]
    fn links_keep_only_safe_schemes() {
        for (href, kept) in [
            ("https://example.org/x", true),
            ("http://example.org", true),
            ("mailto:a@example.org", true),
            ("file:///usr/share/doc/x/index.html", true),
            ("/app/guide#x", true),
            ("../guide.md", true),
            ("#top", true),
            ("javascript:alert(1)", false),
            ("JavaScript:alert(1)", false),
            ("java\nscript:alert(1)", false),
            (" \u{1}javascript:alert(1)", false),
            ("data:text/html,<script>alert(1)</script>", false),
            ("vbscript:x", false),
            ("1x:y", false),
        ] {
            let html = sanitize(&format!("<a href=\"{}\">x</a>", href.replace('"', "&quot;")));
            assert_eq!(html.contains("href"), kept, "{href:?} gave {html}");
        }
        assert_eq!(sanitize("<a href=\"java&#x0A;script:alert(1)\">x</a>"), "<a>x</a>");
        for src in ["http://evil/x.png", "//evil/x.png", "\\\\evil\\x.png"] {
            assert_eq!(sanitize(&format!("<img src=\"{src}\" alt=\"A\">")), "<img alt=\"A\">", "{src}");
        }
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let html = "<div>".repeat(20_000) + "x";
        let out = sanitize(&html);
        assert!(out.contains('x'));
    }
}
