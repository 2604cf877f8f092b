//! Markdown to HTML for people, safe to insert in a page: raw HTML in the
//! source passes through an allowlist (no scripts, styles, event handlers
//! or `javascript:` URLs; `id`s kept for `#fragment` links), links keep only
//! http(s), mailto, `file:` (a link leaving the tree), `#` and site-relative targets, Markdown images of the
//! site are shown from their site path (others become their alt text) and
//! raw `<img>` keeps only a same-site source (pages load nothing from elsewhere). Links to other pages of the edition become their
//! site paths and headings get the section anchors search links to. Used by
//! the local API's reading view and by the docs site.

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
    /// The edition's pages, when known: links are then resolved the way the
    /// tree's generator resolves them (root-absolute, `.md`/`.mdx`, `index`
    /// and `README`, repository-style paths) and kept as written when no page
    /// answers. Without it only relative `.md` links are rewritten.
    pub pages: Option<PageSet<'a>>,
    /// The other installed editions, when known: a link leaving the tree
    /// (`/usr/share/doc/...`, `file:` URLs, relative paths climbing above
    /// it) leads to the page of an edition installed from the folder it
    /// names, else it is kept as an external `file:` link. Without it such a
    /// link is kept as written.
    pub others: Option<crate::links::OtherEditions<'a>>,
}

/// Which site paths are pages of the edition being read.
#[derive(Clone, Copy)]
pub struct PageSet<'a>(pub &'a dyn Fn(&str) -> bool);

impl std::fmt::Debug for PageSet<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PageSet(..)")
    }
}

/// Renders Markdown to HTML with raw HTML escaped and unsafe links removed;
/// relative links to other Markdown files become their site paths, and
/// headings without an explicit id get their section's anchor.
pub fn markdown_to_html(markdown: &str, links: PageLinks<'_>) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_GFM;
    let read = crate::mdx::blank(markdown);
    let labelled = container_labels(&read);
    let markdown = labelled.as_ref();
    // Every heading gets its id: section headings their section's anchor,
    // the others (the `# title`, headings in lists and quotes) their slug.
    let mut ids = crate::heading_ids::heading_ids(markdown, links.anchors).into_iter();
    let (mut has_h1, mut has_raw) = (false, false);
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::Heading { level: pulldown_cmark::HeadingLevel::H1, .. }) => has_h1 = true,
            Event::Html(_) | Event::InlineHtml(_) => has_raw = true,
            _ => {}
        }
    }
    // Whether each open image is shown (an image of the site) or only its alt text.
    let mut images: Vec<bool> = Vec::new();
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        // Passed through, then the whole page goes through the allowlist;
        // relative `<img src>` first made site paths, as Markdown images are.
        Event::InlineHtml(raw) | Event::Html(raw) => match raw_images(&raw, links) {
            Some(rewritten) => Event::Html(CowStr::from(rewritten)),
            None => Event::Html(raw),
        },
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            let dest_url = site_link(dest_url, links);
            Event::Start(Tag::Link { link_type, dest_url: safe_url(dest_url), title, id })
        }
        // An alert (`> [!NOTE]`) is a quote that opens with its label.
        Event::Start(Tag::BlockQuote(Some(kind))) => Event::Html(CowStr::from(format!(
            "<blockquote>\n<p><strong>{}</strong></p>\n",
            crate::markdown::alert_label(kind)
        ))),
        Event::End(TagEnd::BlockQuote(Some(_))) => Event::End(TagEnd::BlockQuote(None)),
        Event::Start(Tag::Heading { level, id, classes, attrs }) => {
            // The list holds every heading's id, its explicit one included.
            let id = ids.next().map(CowStr::from).or(id);
            Event::Start(Tag::Heading { level, id, classes, attrs })
        }
        Event::Start(Tag::Image { link_type, dest_url, title, id }) => match site_image(&dest_url, links) {
            Some(url) => {
                images.push(true);
                Event::Start(Tag::Image { link_type, dest_url: CowStr::from(url), title, id })
            }
            None => {
                images.push(false);
                Event::Start(Tag::Emphasis)
            }
        },
        Event::End(TagEnd::Image) => match images.pop() {
            Some(true) => Event::End(TagEnd::Image),
            _ => Event::End(TagEnd::Emphasis),
        },
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
    if has_raw { crate::sanitize::sanitize(&html) } else { html }
}

/// `markdown` with each container's fence (`::: tip`, `:::`; see
/// [`crate::markdown::container_fence`]) outside code blocks made a
/// paragraph of its own: an opening one its label in bold, a closing one
/// nothing.
fn container_labels(markdown: &str) -> std::borrow::Cow<'_, str> {
    use crate::markdown::{Fence, container_fence};
    if !markdown.contains(":::") {
        return std::borrow::Cow::Borrowed(markdown);
    }
    let mut out = String::with_capacity(markdown.len());
    let mut code = crate::mdx::CodeFences::default();
    for line in markdown.split_inclusive('\n') {
        let in_code = code.is_code(line);
        match container_fence(line).filter(|_| !in_code) {
            Some(Fence::Open(label)) => {
                out.push_str("\n**");
                out.push_str(&label.replace('*', ""));
                out.push_str("**\n\n");
            }
            Some(Fence::Close) => out.push('\n'),
            None => out.push_str(line),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `../guide/install.md#x` (relative to the page's file) → `/app/guide/install#x`;
/// with the edition's pages known, every link a page answers. Anything else
/// is returned unchanged.
fn site_link<'a>(url: CowStr<'a>, links: PageLinks<'_>) -> CowStr<'a> {
    if let Some(PageSet(is_page)) = links.pages {
        match crate::links::resolve(&url, links.source_file, links.prefix, is_page) {
            crate::links::Target::Page(path) => return CowStr::from(path),
            crate::links::Target::SamePage(_) => return url,
            // A `file:` URL may name another installed edition's page.
            crate::links::Target::External if !is_file_url(&url) => return url,
            crate::links::Target::External | crate::links::Target::Unresolved => {}
        }
    } else if let Some(path) = markdown_file_link(&url, links) {
        return CowStr::from(path);
    }
    let Some(others) = links.others else { return url };
    // A site path of the edition (a project may be named `home` or `media`).
    if in_edition(&url, links.prefix) {
        return url;
    }
    match crate::links::outside(&url, links.source_file, others.source) {
        Some(link) => CowStr::from((others.page)(&link).unwrap_or_else(|| link.file_url())),
        None => url,
    }
}

/// Whether `url` is a site path under the edition's `prefix`.
fn in_edition(url: &str, prefix: &str) -> bool {
    let prefix = crate::paths::normalize_prefix(prefix);
    !prefix.is_empty() && url.strip_prefix(prefix).is_some_and(|r| r.is_empty() || r.starts_with(['/', '#']))
}

fn is_file_url(url: &str) -> bool {
    url.trim().get(..5).is_some_and(|s| s.eq_ignore_ascii_case("file:"))
}

/// A relative link to a Markdown file as its site path (without the
/// edition's pages known, only these are rewritten).
fn markdown_file_link(url: &str, links: PageLinks<'_>) -> Option<String> {
    let (target, fragment) = match url.split_once('#') {
        Some((t, f)) => (t, Some(f)),
        None => (url, None),
    };
    let is_markdown = crate::markdown::is_markdown(target);
    if !is_markdown || target.starts_with('/') || target.contains(':') || links.source_file.is_empty() {
        return None;
    }
    let rel_file = crate::paths::resolve(links.source_file, target)?;
    let mut path = crate::paths::page_path(links.prefix, &rel_file);
    if let Some(f) = fragment {
        path.push('#');
        path.push_str(f);
    }
    Some(path)
}

/// A page's Markdown as written, as it is served on its own (`{path}.md`,
/// `read_page`): with `others` known, a link leaving the tree names the
/// installed page it leads to, else its `file:` URL (as the rendered page
/// does); on a folder's `index` or `README`, served at `{folder}.md` where
/// a path relative to the folder would lead elsewhere, the relative targets
/// of its inline links and images (Markdown and raw `<img src>`) are site
/// paths. None when nothing changes.
pub fn served_markdown(
    markdown: &str,
    source_file: &str,
    prefix: &str,
    others: Option<crate::links::OtherEditions<'_>>,
) -> Option<String> {
    let stem = crate::paths::file_stem(source_file);
    let is_index = source_file.contains('.')
        && (stem == "index" || stem == "_index" || stem.eq_ignore_ascii_case("readme"));
    if !is_index && others.is_none() {
        return None;
    }
    let links = PageLinks { prefix, source_file, ..Default::default() };
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for target in crate::links::inline_targets(markdown) {
        let (url, is_link) = match target {
            crate::links::InlineTarget::Link { url, .. } => (url, true),
            crate::links::InlineTarget::Image { url, .. } => (url, false),
            crate::links::InlineTarget::Html { raw, range } => {
                if is_index && let Some(rewritten) = raw_images(raw, links) {
                    edits.push((range, rewritten));
                }
                continue;
            }
        };
        let relative = !url.is_empty()
            && !url.starts_with(['/', '#'])
            && !crate::links::has_scheme(url)
            && !url.starts_with("//");
        let path = url.split(['#', '?']).next().unwrap_or_default();
        let in_tree = relative.then(|| crate::paths::resolve(source_file, path)).flatten();
        let site = match (in_tree, others) {
            (Some(rel), _) if is_index => {
                let mut site = crate::paths::join(prefix, &rel);
                site.push_str(&url[path.len()..]);
                site
            }
            (None, Some(others)) if is_link && !in_edition(url, prefix) => {
                let Some(link) = crate::links::outside(url, source_file, others.source) else { continue };
                (others.page)(&link).unwrap_or_else(|| link.file_url())
            }
            _ => continue,
        };
        edits.push((target.dest_range(), site));
    }
    crate::links::apply_edits(markdown, edits)
}

/// The site path of an image the site serves: a path of the site as
/// written (HTML pages' images are rewritten so), or a relative path against
/// the page's file. None for images from elsewhere (shown as their alt text).
fn site_image(url: &str, links: PageLinks<'_>) -> Option<String> {
    let url = url.trim();
    if url.starts_with("//") || crate::links::has_scheme(url) || url.is_empty() {
        return None;
    }
    let path = url.split(['#', '?']).next().unwrap_or_default();
    if path.starts_with('/') {
        return Some(url.to_owned());
    }
    if links.source_file.is_empty() {
        return None;
    }
    let rel = crate::paths::resolve(links.source_file, path)?;
    Some(crate::paths::join(links.prefix, &rel))
}

/// Raw HTML with each `<img>`'s relative `src` made its site path (None
/// when nothing changes), so an image shows wherever the page is served.
fn raw_images(raw: &str, links: PageLinks<'_>) -> Option<String> {
    let lower = raw.to_ascii_lowercase();
    if !lower.contains("<img") {
        return None;
    }
    let mut out = String::with_capacity(raw.len() + 32);
    let mut done = 0;
    let mut from = 0;
    while let Some(i) = lower[from..].find("<img") {
        let tag_start = from + i;
        let tag_end = lower[tag_start..].find('>').map_or(lower.len(), |e| tag_start + e);
        from = tag_end;
        let Some(s) = lower[tag_start..tag_end].find(" src=").map(|s| tag_start + s + 5) else { continue };
        let quote = raw[s..].chars().next();
        let (value_start, value_end) = match quote {
            Some(q @ ('"' | '\'')) => {
                let start = s + 1;
                (start, raw[start..tag_end].find(q).map_or(tag_end, |e| start + e))
            }
            _ => (
                s,
                raw[s..tag_end]
                    .find(|c: char| c.is_ascii_whitespace() || c == '/')
                    .map_or(tag_end, |e| s + e),
            ),
        };
        let value = &raw[value_start..value_end];
        if value.starts_with('/') {
            continue;
        }
        let Some(site) = site_image(&value.replace("&amp;", "&"), links) else { continue };
        out.push_str(&raw[done..value_start]);
        out.push_str(&site.replace('&', "&amp;").replace('"', "&quot;"));
        done = value_end;
    }
    if done == 0 {
        return None;
    }
    out.push_str(&raw[done..]);
    Some(out)
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
        || lower.starts_with("file:")
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
    fn relative_images_become_site_paths_markdown_and_raw() {
        let links = PageLinks { prefix: "/app", source_file: "README.md", ..Default::default() };
        let html = markdown_to_html(
            "# App\n\n![logo](docs/logo.png)\n\n<p align=\"center\"><img src=\"docs/shot.png\" alt=\"shot\" width=\"80\"></p>\n\n<img src='/app/abs.png'> ![far](https://e.org/x.png)\n",
            links,
        );
        assert!(html.contains(r#"<img alt="logo" src="/app/docs/logo.png""#), "{html}");
        assert!(html.contains(r#"<img alt="shot" src="/app/docs/shot.png""#), "{html}");
        assert!(html.contains(r#"src="/app/abs.png""#), "{html}");
        assert!(!html.contains("e.org"), "{html}");
        // Without the page's file, a relative image is left for the allowlist as written.
        let plain = markdown_to_html("<img src=\"x.png\">", PageLinks::default());
        assert!(plain.contains(r#"src="x.png""#), "{plain}");
    }

    #[test]
    fn an_alert_is_a_quote_under_its_label() {
        for raw in ["", "<b>raw</b>\n\n"] {
            let html = markdown_to_html(
                &format!("{raw}> [!WARNING]\n> Do not run this as root.\n"),
                PageLinks::default(),
            );
            assert!(html.contains("<blockquote>\n<p><strong>Warning</strong></p>"), "{html}");
            assert!(html.contains("Do not run this as root.") && !html.contains("[!"), "{html}");
            assert!(html.contains("</blockquote>"), "{html}");
        }
    }

    #[test]
    fn a_container_is_a_paragraph_under_its_label() {
        let html = markdown_to_html(
            "::: warning Mind the gap\nStand back.\n:::\n\n```\n::: tip\n```\n",
            PageLinks::default(),
        );
        assert!(html.contains("<p><strong>Mind the gap</strong></p>\n<p>Stand back.</p>"), "{html}");
        assert!(!html.contains("::: warning") && html.contains("<code>::: tip\n</code>"), "{html}");
    }

    #[test]
    fn mdx_imports_and_comments_are_not_shown() {
        let html = markdown_to_html(
            "import Tabs from '@theme/Tabs';\n\n# Setup\n\n{/* hidden */}\n\n<Tabs>\n\nShown.\n\n</Tabs>\n\n```js\nimport x from 'y';\n```\n",
            PageLinks::default(),
        );
        assert!(!html.contains("@theme") && !html.contains("hidden"), "{html}");
        assert!(html.contains("<p>Shown.</p>") && html.contains("import x from"), "{html}");
    }

    #[test]
    fn raw_html_is_escaped_and_unsafe_links_dropped() {
        let html = markdown_to_html(
            "# 标题\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) [y](/app/faq) ![img](http://evil/x.png)",
            PageLinks::default(),
        );
        assert!(html.contains(r#"<h1 id="标题">标题</h1>"#), "{html}");
        assert!(!html.contains("script") && !html.contains("alert"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(html.contains(r#"href="/app/faq""#), "{html}");
        assert!(!html.contains("<img"), "{html}");
    }

    #[test]
    fn an_index_pages_markdown_names_its_relative_targets_by_site_path() {
        let md = "# Guide\n\n![logo](img/logo.png \"Logo\") [install](install.md#run) [top](#top) \
                  [web](https://x.example/a.md) [up](../faq.md)\n\n<img src=\"img/b.png\" align=right>\n\n\
                  ```\n[not](code.md)\n```\n";
        let out = served_markdown(md, "guide/README.md", "/app", None).unwrap();
        assert_eq!(
            out,
            "# Guide\n\n![logo](/app/guide/img/logo.png \"Logo\") [install](/app/guide/install.md#run) [top](#top) \
             [web](https://x.example/a.md) [up](/app/faq.md)\n\n<img src=\"/app/guide/img/b.png\" align=right>\n\n\
             ```\n[not](code.md)\n```\n"
        );
        // Any other page's relative targets already resolve against its own path.
        assert_eq!(served_markdown(md, "guide/install.md", "/app", None), None);
        assert_eq!(served_markdown("# A\n\n[b](/app/b)\n", "index.md", "/app", None), None);
        // Links leaving the tree name the installed page, else their file.
        let installed = |link: &crate::links::Outside| {
            (link.path == "/usr/share/doc/alpha/html/a.html").then(|| "/alpha/a".to_owned())
        };
        let others = crate::links::OtherEditions { source: "/srv/doc/beta/html", page: &installed };
        let md =
            "[a](/usr/share/doc/alpha/html/a.html) [z](../../zeta/z.html#q) [b](b.html) ![i](../x.png)\n";
        assert_eq!(
            served_markdown(md, "b.html", "/beta", Some(others)).unwrap(),
            "[a](/alpha/a) [z](file:///srv/doc/zeta/z.html#q) [b](b.html) ![i](../x.png)\n"
        );
    }

    #[test]
    fn links_leaving_the_tree_lead_to_installed_editions_or_stay_external() {
        let installed = |link: &crate::links::Outside| {
            (link.path == "/usr/share/doc/alpha/html/a.html").then(|| "/alpha/a".to_owned())
        };
        let others = crate::links::OtherEditions { source: "/srv/usr/share/doc/beta/html", page: &installed };
        let is_page = |p: &str| p == "/beta/b";
        let links = PageLinks {
            prefix: "/beta",
            source_file: "b.html",
            pages: Some(PageSet(&is_page)),
            others: Some(others),
            ..Default::default()
        };
        let md = "[a](/usr/share/doc/alpha/html/a.html) [g](file:///usr/share/doc/gamma/x.html#y) \
                  [up](../zeta/z.html) [b](/beta/b) [site](/guide)";
        let html = markdown_to_html(md, links);
        assert!(html.contains(r#"href="/alpha/a""#), "{html}");
        assert!(html.contains(r#"href="file:///usr/share/doc/gamma/x.html#y""#), "{html}");
        assert!(html.contains(r#"href="file:///srv/usr/share/doc/beta/zeta/z.html""#), "{html}");
        assert!(html.contains(r#"href="/beta/b""#) && html.contains(r#"href="/guide""#), "{html}");
    }

    #[test]
    fn relative_markdown_links_become_site_paths_and_headings_get_anchors() {
        let anchors = [None, Some("install".to_owned()), None, Some("parallel-query".to_owned())];
        let links = PageLinks {
            prefix: "/zh-Hans/app",
            source_file: "guide/index.md",
            anchors: &anchors,
            title: None,
            pages: None,
            others: None,
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
        assert!(
            html.contains(r#"<h2 id="quoted">Quoted"#),
            "a quoted heading is no section, yet has its id: {html}"
        );
        assert!(html.contains(r#"<h3 id="description">Description"#), "{html}");
        assert!(html.contains(r#"<h3 id="see-also">See Also"#), "{html}");
        let own =
            markdown_to_html("# Own\n\ntext", PageLinks { title: Some("Other"), ..PageLinks::default() });
        assert!(!own.contains("Other"), "the page's own # heading wins: {own}");
    }
}
