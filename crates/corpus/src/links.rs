//! Where a link written in a page leads, decided the way documentation
//! generators decide it: relative paths, `.md`/`.mdx` suffixes, `index` and
//! `README` pages, root-absolute paths against the edition, and
//! repository-style paths (`/docs/api.md` from a repository whose `docs/`
//! is the tree), checked against the pages the edition holds. Also the
//! anchors a page's Markdown offers to `page#fragment` links.

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag};

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

/// The site path (with its fragment) a redirect page written at `from_file`
/// sends the reader to: a relative URL inside the tree, or one that climbs
/// out of it and back in through the tree's own folder, `root_name`
/// (rustdoc's `../../../std/vec/struct.Vec.html` in a tree `std`); None
/// for anything else (another site, a file-system path, a path climbing
/// out).
pub fn redirect_target(url: &str, from_file: &str, prefix: &str, root_name: Option<&str>) -> Option<String> {
    redirect_inside(url, from_file, prefix).or_else(|| {
        let root = root_name.filter(|r| !r.is_empty() && !r.contains('/'))?;
        let path = url.trim().split(['#', '?']).next().unwrap_or_default();
        let inside = paths::resolve(&format!("{root}/{from_file}"), &percent_decode(path))?;
        let rel = inside.strip_prefix(root)?.strip_prefix('/')?;
        let fragment = url.trim().get(path.len()..).unwrap_or_default();
        redirect_inside(&format!("{}{fragment}", relative_to(from_file, rel)), from_file, prefix)
    })
}

/// `target` (a file relative to the tree's root) as a link written at `from_file`.
fn relative_to(from_file: &str, target: &str) -> String {
    let depth = from_file.matches('/').count();
    format!("{}{target}", "../".repeat(depth))
}

fn redirect_inside(url: &str, from_file: &str, prefix: &str) -> Option<String> {
    let url = url.trim();
    if url.is_empty()
        || url.len() > MAX_URL_LEN
        || url.starts_with('/')
        || url.starts_with('\\')
        || has_scheme(url)
    {
        return None;
    }
    let (path, fragment) = url.split_once('#').map_or((url, None), |(p, f)| (p, Some(f)));
    let path = path.split('?').next().unwrap_or_default();
    let mut target = if path.is_empty() {
        paths::page_path(prefix, from_file)
    } else {
        let decoded = percent_decode(path);
        paths::page_path(prefix, &paths::resolve(from_file, &decoded)?)
    };
    if let Some(f) = fragment.filter(|f| !f.is_empty()) {
        target.push('#');
        target.push_str(f);
    }
    Some(target)
}

/// Most redirects followed from one page to the page it ends at.
const MAX_REDIRECT_HOPS: usize = 8;

/// Each redirect page's final target (`path#fragment`), following chains,
/// kept only where it ends at a page `exists` knows that is no redirect.
pub(crate) fn final_targets(
    redirects: &std::collections::HashMap<String, String>,
    exists: &dyn Fn(&str) -> bool,
) -> std::collections::HashMap<String, String> {
    let path_of = |t: &str| t.split('#').next().unwrap_or_default().to_owned();
    let mut out = std::collections::HashMap::new();
    for (from, to) in redirects {
        let mut target = to.clone();
        for _ in 0..MAX_REDIRECT_HOPS {
            match redirects.get(&path_of(&target)) {
                Some(next) => target.clone_from(next),
                None => break,
            }
        }
        let path = path_of(&target);
        if path != *from && !redirects.contains_key(&path) && exists(&path) {
            out.insert(from.clone(), target);
        }
    }
    out
}

/// Points the page's links to a redirect page (`](/ed/stub#x)`, or a link
/// as written that resolves to one against the pages `is_page` knows, the
/// redirects among them) at the redirect's target, in its Markdown and its
/// sections'; a link's own fragment wins over the target's. Whether
/// anything changed.
pub(crate) fn retarget_page(
    page: &mut crate::Page,
    map: &std::collections::HashMap<String, String>,
    prefix: &str,
    is_page: &dyn Fn(&str) -> bool,
) -> bool {
    let source_file = page.source_file.clone();
    let target_of = |url: &str| -> Option<String> {
        let site = if map.contains_key(url.split('#').next().unwrap_or_default()) {
            url.to_owned()
        } else {
            match resolve(url, &source_file, prefix, is_page) {
                Target::Page(site) => site,
                _ => return None,
            }
        };
        let (path, fragment) = site.split_once('#').map_or((site.as_str(), None), |(p, f)| (p, Some(f)));
        let target = map.get(path)?;
        Some(match fragment {
            Some(f) => format!("{}#{f}", target.split('#').next().unwrap_or_default()),
            None => target.clone(),
        })
    };
    let mut changed = false;
    if let Some(markdown) = retarget(&page.markdown, &target_of) {
        page.markdown = markdown;
        changed = true;
    }
    for section in &mut page.sections {
        if let Some(markdown) = retarget(&section.markdown, &target_of) {
            section.markdown = markdown;
            changed = true;
        }
    }
    changed
}

/// `markdown` with every inline link destination `target_of` gives a new
/// one replaced; None when none is.
fn retarget(markdown: &str, target_of: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let edits = inline_targets(markdown)
        .into_iter()
        .filter_map(|t| match t {
            InlineTarget::Link { url, range } if !url.starts_with('#') => {
                target_of(url).map(|to| (range, to))
            }
            _ => None,
        })
        .collect();
    apply_edits(markdown, edits)
}

/// Where a Markdown text names a target: an inline link's or image's
/// destination as written (its byte range in the text), or raw HTML.
pub(crate) enum InlineTarget<'a> {
    Link { url: &'a str, range: std::ops::Range<usize> },
    Image { url: &'a str, range: std::ops::Range<usize> },
    Html { raw: &'a str, range: std::ops::Range<usize> },
}

impl InlineTarget<'_> {
    /// The bytes an edit of the target replaces.
    pub(crate) fn dest_range(&self) -> std::ops::Range<usize> {
        match self {
            InlineTarget::Link { range, .. }
            | InlineTarget::Image { range, .. }
            | InlineTarget::Html { range, .. } => range.clone(),
        }
    }
}

/// The inline links, images and raw HTML of `markdown`, in order, as the
/// Markdown parser finds them (not in code spans or blocks). A destination
/// written other than as its URL (escaped, entity-coded) is left out.
pub(crate) fn inline_targets(markdown: &str) -> Vec<InlineTarget<'_>> {
    let mut out = Vec::new();
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_HEADING_ATTRIBUTES;
    for (event, range) in Parser::new_ext(markdown, options).into_offset_iter() {
        let (url, is_link) = match &event {
            Event::Start(Tag::Link { link_type: LinkType::Inline, dest_url, .. }) => (dest_url.trim(), true),
            Event::Start(Tag::Image { link_type: LinkType::Inline, dest_url, .. }) => {
                (dest_url.trim(), false)
            }
            Event::Html(raw) | Event::InlineHtml(raw) => {
                if let Some(raw) = markdown.get(range.clone()).filter(|m| *m == raw.as_ref()) {
                    out.push(InlineTarget::Html { raw, range });
                }
                continue;
            }
            _ => continue,
        };
        let text = &markdown[range.clone()];
        // The destination as written follows the last `](` of the link.
        let Some(at) = text.rfind("](").map(|a| a + 2) else { continue };
        let dest = text[at..].trim_start_matches('<');
        if !dest.starts_with(url) || url.is_empty() {
            continue;
        }
        let start = range.start + text.len() - dest.len();
        let url = &markdown[start..start + url.len()];
        let range = start..start + url.len();
        out.push(if is_link {
            InlineTarget::Link { url, range }
        } else {
            InlineTarget::Image { url, range }
        });
    }
    out
}

/// `markdown` with each range replaced by its text (ranges in any order; one
/// overlapping an earlier one is skipped). None when there is no edit.
pub(crate) fn apply_edits(
    markdown: &str,
    mut edits: Vec<(std::ops::Range<usize>, String)>,
) -> Option<String> {
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(markdown.len() + edits.len() * 16);
    let mut done = 0;
    for (range, site) in edits {
        if range.start < done {
            continue;
        }
        out.push_str(&markdown[done..range.start]);
        out.push_str(&site);
        done = range.end;
    }
    out.push_str(&markdown[done..]);
    Some(out)
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

/// Whether a link written in `from_file` names another page of the tree as a
/// whole, as a line of a table of contents does: relative, without a scheme
/// or a fragment, to a file `is_page` accepts or a name without an
/// extension, and not to `from_file` itself.
pub(crate) fn names_other_page(href: &str, from_file: &str, is_page: &dyn Fn(&str) -> bool) -> bool {
    let href = href.trim();
    let fragment = href.split_once('#').is_some_and(|(_, f)| !f.is_empty());
    let path = href.split(['#', '?']).next().unwrap_or("");
    if has_scheme(href) || fragment || path.is_empty() || path.starts_with('/') {
        return false;
    }
    let Some(resolved) = paths::resolve(from_file, path) else { return false };
    let name = resolved.rsplit('/').next().unwrap_or("");
    (is_page(&resolved) || !name.contains('.')) && paths::page_rel(&resolved) != paths::page_rel(from_file)
}

/// The fragment of a link written in `from_file` to a part of that same
/// page (`#Shell-Syntax`, `bashref.html#Shell-Syntax`); None for any other link.
pub(crate) fn own_fragment<'h>(href: &'h str, from_file: &str) -> Option<&'h str> {
    let (path, fragment) = href.trim().split_once('#')?;
    if fragment.is_empty() || has_scheme(path) || path.starts_with('/') || path.contains('?') {
        return None;
    }
    let own = path.is_empty()
        || paths::resolve(from_file, path).is_some_and(|r| paths::page_rel(&r) == paths::page_rel(from_file));
    own.then_some(fragment)
}

/// Source-relative files a link path may mean, most likely first.
fn candidates(path: &str, from_file: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !path.starts_with('/') {
        if path.is_empty() {
            out.push(from_file.to_owned());
        } else if let Some(rel) = paths::resolve(from_file, path) {
            out.push(rel);
            // Written from the page's published path, without the numbers
            // that order its folders (`./chatbot` beside `04-ui/01-overview.mdx`).
            if let Some(from) = paths::unnumbered(from_file)
                && let Some(rel) = paths::resolve(&from, path)
            {
                out.push(rel);
            }
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
        // (By bytes that may fall inside a char: `から.html`.)
        let cut = rel.len().saturating_sub(suffix.len());
        if cut > 0 && rel.get(cut..).is_some_and(|end| end.eq_ignore_ascii_case(suffix)) {
            rel = &rel[..cut];
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

/// First folders of absolute file-system paths (`/usr/share/doc/...`,
/// `/opt/...`, macOS's `/Users/...`): a root-absolute link starting with one
/// of them names a file of the machine, not a page of the site.
const FILE_SYSTEM_ROOTS: [&str; 17] = [
    "usr",
    "opt",
    "etc",
    "var",
    "home",
    "srv",
    "tmp",
    "mnt",
    "media",
    "nix",
    "snap",
    "root",
    "Users",
    "Library",
    "Applications",
    "Volumes",
    "private",
];

/// Fewest trailing folders of an installed edition's source that a link's
/// path must pass through for the link to lead into that edition
/// (`python3.11/html`): one folder alone (`html`, `doc`) names nothing.
const MIN_FOLDERS_MATCHED: usize = 2;

/// A link that leaves the tree, as the absolute file-system path it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outside {
    /// Absolute and normalised (`/usr/share/doc/python3.11/html/library/os.html`).
    pub path: String,
    pub fragment: Option<String>,
}

impl Outside {
    /// The link kept external: `file:///usr/share/doc/x/index.html#frag`.
    pub fn file_url(&self) -> String {
        let mut url = String::with_capacity(self.path.len() + 16);
        url.push_str("file://");
        for c in self.path.chars() {
            match c {
                ' ' => url.push_str("%20"),
                '#' => url.push_str("%23"),
                '?' => url.push_str("%3F"),
                c => url.push(c),
            }
        }
        if let Some(f) = &self.fragment {
            url.push('#');
            url.push_str(f);
        }
        url
    }
}

/// The other installed editions, for links that leave a tree: the folder
/// the tree was installed from (relative links climbing above the tree are
/// read against it) and the page an absolute file-system path names in
/// another edition, if one was installed from a folder that matches.
#[derive(Clone, Copy)]
pub struct OtherEditions<'a> {
    /// The edition's recorded source (an absolute path).
    pub source: &'a str,
    /// The site path (with the fragment) of the installed page `outside` names.
    pub page: &'a dyn Fn(&Outside) -> Option<String>,
}

impl std::fmt::Debug for OtherEditions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OtherEditions").field("source", &self.source).finish_non_exhaustive()
    }
}

/// The file-system path a link written in `from_file` names when it leaves
/// the tree: a `file:` URL, a root-absolute path under a file-system folder
/// (`/usr/share/doc/...`), or a relative path climbing above the tree's root,
/// read against `source`, the folder the tree was installed from (without
/// one, such a link names no known place: None). None for every other link.
pub fn outside(url: &str, from_file: &str, source: &str) -> Option<Outside> {
    let url = url.trim();
    if url.is_empty() || url.len() > MAX_URL_LEN || url.starts_with('#') {
        return None;
    }
    let (path, fragment) = match url.split_once('#') {
        Some((p, f)) => (p, Some(f.to_owned()).filter(|f| !f.is_empty())),
        None => (url, None),
    };
    let path = path.split('?').next().unwrap_or_default();
    let absolute = if let Some(rest) = strip_file_scheme(path) {
        normalize_absolute(&percent_decode(rest))?
    } else if has_scheme(path) || path.starts_with("//") {
        return None;
    } else if let Some(rooted) = path.strip_prefix('/') {
        let first = rooted.split('/').next().unwrap_or_default();
        if !FILE_SYSTEM_ROOTS.contains(&first) {
            return None;
        }
        normalize_absolute(&percent_decode(path))?
    } else {
        let path = percent_decode(path);
        if paths::resolve(from_file, &path).is_some() || !source.starts_with('/') {
            return None;
        }
        let dir = from_file.rsplit_once('/').map_or("", |(d, _)| d);
        normalize_absolute(&format!("{}/{dir}/{path}", source.trim_end_matches('/')))?
    };
    Some(Outside { path: absolute, fragment })
}

/// `file:///x`, `file://localhost/x` → `/x`.
fn strip_file_scheme(url: &str) -> Option<&str> {
    let scheme = url.get(..7)?;
    if !scheme.eq_ignore_ascii_case("file://") {
        return url.get(..6).filter(|s| s.eq_ignore_ascii_case("file:/")).map(|_| &url[5..]);
    }
    let rest = &url[7..];
    if rest.starts_with('/') {
        return Some(rest);
    }
    rest.get(..9)
        .filter(|h| h.eq_ignore_ascii_case("localhost"))
        .map(|_| &rest[9..])
        .filter(|r| r.starts_with('/'))
}

/// `/a/./b/../c` → `/a/c`; None when it climbs above `/`.
fn normalize_absolute(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    let trailing = path.ends_with('/') && !parts.is_empty();
    Some(format!("/{}{}", parts.join("/"), if trailing { "/" } else { "" }))
}

/// The page of the edition installed from `source` (served at `prefix`,
/// holding the pages `is_page` knows) that `link` names, with how many of
/// the source's folders the link passes through: the link's path must go
/// through the source's last folders (at least two of them, or all of them:
/// `/usr/share/doc/python3.11/html/...` leads into an edition added from
/// `.../usr/share/doc/python3.11/html`), and what follows them must be a
/// page of the edition, as a link inside it would be.
pub fn edition_page(
    link: &Outside,
    source: &str,
    prefix: &str,
    is_page: &dyn Fn(&str) -> bool,
) -> Option<(usize, String)> {
    let source: Vec<&str> = source.split('/').filter(|s| !s.is_empty()).collect();
    let path: Vec<&str> = link.path.split('/').filter(|s| !s.is_empty()).collect();
    let last = source.last()?;
    // Each place in the link's path where the source's last folder may end.
    for end in (1..=path.len()).rev().filter(|&i| path[i - 1] == *last) {
        let matched = source.iter().rev().zip(path[..end].iter().rev()).take_while(|(a, b)| a == b).count();
        if matched < MIN_FOLDERS_MATCHED.min(source.len()) {
            continue;
        }
        let mut rest = path[end..].join("/");
        if link.path.ends_with('/') && !rest.is_empty() {
            rest.push('/');
        }
        let url = match &link.fragment {
            Some(f) => format!("{rest}#{f}"),
            None => rest,
        };
        let target = if url.is_empty() || url.starts_with('#') {
            let site = paths::join(prefix, "");
            is_page(&site).then(|| match &link.fragment {
                Some(f) => format!("{site}#{f}"),
                None => site,
            })
        } else {
            match resolve(&url, "", prefix, is_page) {
                Target::Page(p) => Some(p),
                _ => None,
            }
        };
        if let Some(page) = target {
            return Some((matched, page));
        }
    }
    None
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
    /// Image sources as written (`![x](src)` and raw `<img src>`), in order.
    pub images: Vec<String>,
}

/// The links and raw-HTML anchors of a page's Markdown, in one pass.
pub fn scan(markdown: &str) -> Scan {
    let mut out = Scan::default();
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Html(raw) | Event::InlineHtml(raw) => {
                attribute_values(&raw, &mut out.anchors);
                image_sources(&raw, &mut out.images);
            }
            // An email autolink (`<a@b.org>`) is a `mailto:` link, no page.
            Event::Start(Tag::Link { link_type: LinkType::Email, dest_url, .. }) => {
                out.links.push(format!("mailto:{dest_url}"))
            }
            Event::Start(Tag::Link { dest_url, .. }) => out.links.push(dest_url.to_string()),
            Event::Start(Tag::Image { dest_url, .. }) => out.images.push(dest_url.to_string()),
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

/// The `src` of every `<img>` tag in `raw`.
fn image_sources(raw: &str, out: &mut Vec<String>) {
    let lower = raw.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("<img").map(|i| from + i) {
        let end = lower[at..].find('>').map_or(lower.len(), |e| at + e);
        from = end.max(at + 4);
        let Some(src) = lower[at..end].find(" src=").map(|s| at + s + 5) else { continue };
        let value = raw[src..end].trim_start();
        let value = match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or_default(),
            _ => value.split(|c: char| c.is_whitespace() || c == '>').next().unwrap_or_default(),
        };
        if !value.is_empty() {
            out.push(decode_entities(value));
        }
    }
}

/// The file of the tree an image source names (a path inside the source),
/// read as the reader reads it: relative to the page's file, or a site path
/// of the edition. None for images of other sites, `data:` images and
/// paths outside the tree.
pub fn image_file(src: &str, from_file: &str, prefix: &str) -> Option<String> {
    let src = src.trim();
    if src.is_empty() || src.len() > MAX_URL_LEN || has_scheme(src) || src.starts_with("//") {
        return None;
    }
    let path = percent_decode(src.split(['#', '?']).next().unwrap_or_default());
    if let Some(rooted) = path.strip_prefix('/') {
        let prefix = paths::normalize_prefix(prefix);
        let inside = path.strip_prefix(prefix).filter(|r| !prefix.is_empty() && r.starts_with('/'));
        return Some(inside.unwrap_or(rooted).trim_start_matches('/').to_owned());
    }
    paths::resolve(from_file, &path)
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
    fn links_to_files_named_in_any_script_resolve_or_not_without_a_panic() {
        let set = pages(&["/ja/から", "/ja/man1/ls"]);
        assert_eq!(resolve("から.html", "man1/ls.html", "/ja", &set), Target::Unresolved);
        assert_eq!(resolve("../から.html", "man1/ls.html", "/ja", &set), Target::Page("/ja/から".into()));
        assert_eq!(resolve("ら.htm", "man1/ls.html", "/ja", &set), Target::Unresolved);
        for name in ["から", "か", "é.md", "ら.markdown", "ß.htm"] {
            site_path("/ja", name);
        }
        assert_eq!(site_path("/ja", "から.html"), "/ja/から");
    }

    #[test]
    fn links_leaving_the_tree_name_file_system_paths() {
        let src = "/srv/x/usr/share/doc/beta/html";
        let at = |path: &str, fragment: Option<&str>| {
            Some(Outside { path: path.to_owned(), fragment: fragment.map(str::to_owned) })
        };
        let cases = [
            ("/usr/share/doc/alpha/html/a.html#x", at("/usr/share/doc/alpha/html/a.html", Some("x"))),
            ("file:///usr/share/doc/alpha/html/", at("/usr/share/doc/alpha/html/", None)),
            ("file://localhost/opt/a%20b.html", at("/opt/a b.html", None)),
            ("../../../alpha/html/a.html", at("/srv/x/usr/share/doc/alpha/html/a.html", None)),
            ("../../../../../../../../../../x.html", None),
            ("sub/in-tree.html", None),
            ("/guide/install", None),
            ("https://example.org/a.html", None),
            ("#top", None),
        ];
        for (url, want) in cases {
            assert_eq!(outside(url, "sub/page.html", src), want, "{url}");
        }
        // Without the tree's folder a climbing link names no known place.
        assert_eq!(outside("../../alpha/html/a.html", "page.html", ""), None);
        let link = Outside { path: "/opt/a b.html".into(), fragment: Some("f".into()) };
        assert_eq!(link.file_url(), "file:///opt/a%20b.html#f");
    }

    #[test]
    fn a_link_leads_into_the_edition_whose_source_folders_it_passes() {
        let set = pages(&["/alpha", "/alpha/a", "/alpha/lib/os"]);
        let link = |path: &str, fragment: Option<&str>| Outside {
            path: path.to_owned(),
            fragment: fragment.map(str::to_owned),
        };
        let src = "/srv/x/usr/share/doc/alpha/html";
        let found = |l: &Outside| edition_page(l, src, "/alpha", &set);
        assert_eq!(
            found(&link("/usr/share/doc/alpha/html/lib/os.html", Some("x"))),
            Some((5, "/alpha/lib/os#x".into()))
        );
        assert_eq!(
            found(&link("/srv/y/usr/share/doc/alpha/html/a.html", None)),
            Some((5, "/alpha/a".into()))
        );
        assert_eq!(found(&link("/usr/share/doc/alpha/html/", None)), Some((5, "/alpha".into())));
        // Only `html` in common: another package's manual.
        assert_eq!(found(&link("/usr/share/doc/gamma/html/a.html", None)), None);
        // The folders match but the edition has no such page.
        assert_eq!(found(&link("/usr/share/doc/alpha/html/missing.html", None)), None);
    }

    #[test]
    fn an_email_autolink_is_a_mailto_link() {
        let md = "Write to <maint@example.org> or [the list](lists.md).\n";
        assert_eq!(markdown_links(md), ["mailto:maint@example.org", "lists.md"]);
    }

    #[test]
    fn raw_html_anchors_are_found() {
        let md = "<a id=\"factory\"></a>\n\nText <span name='b' class=x>y</span> <a data-id=\"no\">z</a>\n\n`<a id=\"code\">`\n";
        assert_eq!(html_anchors(md), ["factory", "b"]);
    }
}
