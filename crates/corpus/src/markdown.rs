//! Markdown pages: frontmatter split off, title chosen, the body kept byte for
//! byte, plain text extracted with pulldown-cmark, and sections cut at
//! headings of level 2 and deeper.

use std::collections::HashSet;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::frontmatter;
use crate::page::{Page, PageError, Section, Symbol, utf8};
use crate::paths;
use crate::text::{join_texts, nfc, tidy};

/// File extensions read as Markdown.
pub use crate::paths::MARKDOWN_EXTENSIONS as EXTENSIONS;

/// Whether a source-relative file name is a Markdown file.
pub fn is_markdown(rel: &str) -> bool {
    rel.rsplit_once('.').is_some_and(|(_, ext)| EXTENSIONS.iter().any(|e| ext.eq_ignore_ascii_case(e)))
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM
}

/// The label GitHub shows for an alert (`> [!NOTE]`), in place of its marker.
pub(crate) fn alert_label(kind: pulldown_cmark::BlockQuoteKind) -> &'static str {
    use pulldown_cmark::BlockQuoteKind as K;
    match kind {
        K::Note => "Note",
        K::Tip => "Tip",
        K::Important => "Important",
        K::Warning => "Warning",
        K::Caution => "Caution",
    }
}

/// A line that opens or closes a container block (markdown-it-container's,
/// as VitePress, VuePress, Docusaurus and dumi write them): `::: tip`,
/// `::: warning Mind the gap`, `:::note[Mind the gap]`,
/// `:::warning{title=已废弃}`, and `:::` closing one.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Fence {
    /// The label the container shows: its title, or its kind capitalised (`Tip`).
    Open(String),
    Close,
}

/// The container fence `line` is ([`Fence`]), if it is one.
pub(crate) fn container_fence(line: &str) -> Option<Fence> {
    let line = line.trim_end();
    let rest = line.trim_start();
    if line.len() - rest.len() > 3 {
        return None;
    }
    let colons = rest.len() - rest.trim_start_matches(':').len();
    if colons < 3 {
        return None;
    }
    let rest = rest[colons..].trim();
    if rest.is_empty() {
        return Some(Fence::Close);
    }
    let kind_end =
        rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')).unwrap_or(rest.len());
    let (kind, tail) = rest.split_at(kind_end);
    if kind.is_empty() {
        return None;
    }
    let tail = tail.trim();
    let title = if let Some(t) = tail.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        t
    } else if let Some(attrs) = tail.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        attrs.split_once("title=").map_or("", |(_, v)| v.trim().trim_matches(['"', '\'']))
    } else {
        tail
    };
    let title = title.trim();
    Some(Fence::Open(if title.is_empty() {
        let mut chars = kind.chars();
        chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
    } else {
        title.to_owned()
    }))
}

/// Container fences met while reading a page (see [`container_fence`]).
#[derive(Debug, Default)]
struct Fences {
    in_code: bool,
    /// The end of the last fence line read.
    end: Option<usize>,
}

impl Fences {
    /// Whether `event` (at `range` of `body`) is part of a container's fence
    /// line, whose label it then writes to `texts` on a line of its own
    /// (the rest of the line, split into several events, and its line break
    /// go with it).
    fn take(
        &mut self,
        event: &Event<'_>,
        range: &std::ops::Range<usize>,
        body: &str,
        texts: &mut [String],
        in_heading: bool,
    ) -> bool {
        match event {
            Event::Start(Tag::CodeBlock(_)) => self.in_code = true,
            Event::End(TagEnd::CodeBlock) => self.in_code = false,
            Event::Text(t) if !self.in_code && !in_heading && t.starts_with(':') => {
                let (start, end) = line_at(body, range.start);
                if body[start..range.start].trim().is_empty()
                    && let Some(fence) = container_fence(&body[start..end])
                {
                    self.end = Some(end);
                    push_line_end(texts);
                    if let Fence::Open(label) = fence {
                        push(texts, &label);
                        push_line_end(texts);
                    }
                    return true;
                }
            }
            _ => {}
        }
        matches!(event, Event::Text(_) | Event::SoftBreak) && self.end.is_some_and(|end| range.start <= end)
    }
}

/// The line of `body` holding byte `at`: its start and end.
fn line_at(body: &str, at: usize) -> (usize, usize) {
    let start = body[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = body[at..].find('\n').map_or(body.len(), |i| at + i);
    (start, end)
}

/// Converts one Markdown file (`rel_file` is its path inside the source, used
/// for the page path and messages) into a page under `prefix`.
pub fn markdown_to_page(bytes: &[u8], rel_file: &str, prefix: &str) -> Result<Page, PageError> {
    let src = utf8(bytes, rel_file)?;
    let split = frontmatter::split(src);
    let fields = match split.yaml {
        Some(yaml) => frontmatter::parse(yaml)
            .map_err(|reason| PageError::Frontmatter { path: rel_file.to_owned(), reason })?,
        None => frontmatter::Fields::default(),
    };
    let body = split.body;
    // Read without MDX's imports, exports, comments and JSX tags; kept as written.
    let read = crate::mdx::blank(body);
    let parsed = parse_body(&read, rel_file);
    // A page with no `#` heading that opens with a lower one
    // (`## Long Term Support`) is titled by it, when every other heading
    // is below it: one that has siblings (`## When to use`, then `## API`)
    // is only the first section.
    let opening = || {
        let (first, rest) = parsed.cuts.split_first()?;
        let top = rest.iter().all(|c| c.level > first.level);
        (parsed.texts[0].trim().is_empty() && !first.title.is_empty() && top).then(|| first.title.clone())
    };
    let title = fields
        .title
        .as_deref()
        .map(|t| site_suffix_dropped(t, parsed.first_h1.as_deref()))
        .or_else(|| parsed.first_h1.clone().filter(|t| !t.is_empty()))
        .or_else(opening)
        .unwrap_or_else(|| fallback_title(rel_file));
    let title = nfc(&title);
    let sections = build_sections(&read, body, &parsed, &title);
    // Only a title the frontmatter gives names a command.
    let mut symbols = fields
        .title
        .as_deref()
        .and_then(|t| crate::manpage::frontmatter_command(t.trim(), fields.description.as_deref()))
        .unwrap_or_default();
    // A heading that lists options (`### -f, --force`) names them; one
    // that is a name in code with its type after it (`#### \`redact\`
    // (Array | Object):`) names it. (A name in code alone, npm's `####
    // \`workspaces\`` on each command taking the setting, is a title: the
    // page about workspaces stays first for `workspaces`.)
    let first_cut = sections.len() - parsed.cuts.len();
    for (section, cut) in sections[first_cut..].iter().zip(&parsed.cuts) {
        let typed = cut.code_lead.as_deref().and_then(|code| {
            let rest = section.title.strip_prefix(code.trim())?;
            let typed = !rest.trim().trim_end_matches(':').trim().is_empty();
            Some((crate::varlist::typed_name(code, rest).filter(|_| typed)?, "Entry"))
        });
        let options = crate::varlist::option_heading_names(&section.title);
        for (name, kind) in if options.is_empty() { typed.into_iter().collect() } else { options } {
            symbols.push(Symbol { name, kind: kind.to_owned(), anchor: section.anchor.clone(), entry: None });
        }
    }
    // A list item that starts with a name in code and a dash or a colon
    // (`- \`CARGO_TARGET_DIR\` — Location of…`, `* \`--save-dev\`: …`) defines it.
    for section in &sections {
        for name in list_item_names(&section.markdown) {
            symbols.push(Symbol {
                name,
                kind: "Name".to_owned(),
                anchor: section.anchor.clone(),
                entry: None,
            });
        }
    }
    let text = join_texts(sections.iter().map(|s| s.text.as_str()));
    Ok(Page {
        path: paths::page_path(prefix, rel_file),
        source_file: rel_file.to_owned(),
        title,
        description: fields.description,
        order: fields.order,
        draft: fields.draft,
        frontmatter: split.yaml.map(str::to_owned),
        markdown: body.to_owned(),
        text,
        sections,
        symbols,
        listing: false,
        nav: Default::default(),
    })
}

/// A frontmatter title written for a browser tab, with the site's name or
/// section after a bar (`Working Memory | Memory | Mastra Docs`), when the
/// page has a `# heading` of its own: the heading, which is what the page
/// shows. Any other title stays as written.
fn site_suffix_dropped(title: &str, h1: Option<&str>) -> String {
    match h1.map(str::trim).filter(|h| !h.is_empty()) {
        Some(heading) if title.contains(" | ") && !heading.contains(" | ") => heading.to_owned(),
        _ => title.to_owned(),
    }
}

/// The names the list items of `markdown` define by starting with them in
/// code and a dash or a colon before what they are (`- \`name\` — what`,
/// `1. \`--flag\`: what`), by the rule of HTML's items
/// ([`crate::varlist::item_defines`]); fenced code skipped.
fn list_item_names(markdown: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut fences = crate::mdx::CodeFences::default();
    for line in markdown.lines() {
        if fences.is_code(line) {
            continue;
        }
        let trimmed = line.trim_start();
        let digits = trimmed.len() - trimmed.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let item = match trimmed.strip_prefix(['-', '*', '+']) {
            Some(rest) => rest,
            None if digits > 0 => trimmed[digits..].strip_prefix(['.', ')']).unwrap_or(""),
            None => "",
        };
        let Some(code) = item.strip_prefix(' ').map(str::trim_start).and_then(|i| i.strip_prefix('`')) else {
            continue;
        };
        let Some((name, rest)) = code.split_once('`') else { continue };
        let name = name.trim();
        if crate::varlist::item_defines(name, rest) {
            names.push(name.to_owned());
        }
    }
    names
}

/// The file stem, or the folder name for an `index`/`README` file, made
/// readable: `Validation-and-Serialization` → `Validation and Serialization`.
fn fallback_title(rel_file: &str) -> String {
    let rel = paths::page_rel(rel_file);
    let stem = paths::file_stem(rel_file);
    let name = if rel.is_empty() || paths::file_stem(&rel) == stem {
        stem
    } else {
        rel.rsplit('/').next().unwrap_or(stem)
    };
    // A number that orders the files (`05-core-package`, `02_install`) is
    // no part of the name, as Docusaurus drops it.
    let unnumbered = paths::unnumbered(name);
    let unnumbered = unnumbered.as_deref().unwrap_or(name);
    let readable = crate::text::collapse_whitespace(&unnumbered.replace(['-', '_'], " "));
    if readable.is_empty() { name.to_owned() } else { readable }
}

/// A heading that starts a section.
struct Cut {
    start: usize,
    level: u8,
    id: Option<String>,
    title: String,
    /// The code span the heading opens with (`` `redact` (Array | Object) ``).
    code_lead: Option<String>,
}

struct Parsed {
    first_h1: Option<String>,
    cuts: Vec<Cut>,
    /// Raw plain text per section: index 0 is the lead, i + 1 is after cut i.
    texts: Vec<String>,
}

/// A heading being read: its level, id, where it starts and its title so far.
type Heading = (HeadingLevel, Option<String>, usize, String);

impl Parsed {
    /// A heading read to its end: the page's first `#` is its title; one
    /// below it outside containers (`top`) starts a section.
    fn end_heading(&mut self, (level, id, start, title): Heading, code_lead: Option<String>, top: bool) {
        let title = crate::text::collapse_whitespace(&title);
        if level == HeadingLevel::H1 && self.first_h1.is_none() {
            self.first_h1 = Some(title.clone());
        }
        if top && level != HeadingLevel::H1 {
            self.cuts.push(Cut { start, level: level as u8, id, title: nfc(&title), code_lead });
        }
    }
}

/// One pass over the events: where sections start, their titles, and the
/// plain text of each.
fn parse_body(body: &str, rel_file: &str) -> Parsed {
    let mut parsed = Parsed { first_h1: None, cuts: Vec::new(), texts: vec![String::new()] };
    let mut contents = ContentsScan::default();
    let mut depth = 0usize; // containers (quotes, lists, footnotes) we are inside
    let mut heading: Option<Heading> = None;
    // The code span a heading opens with, if it does.
    let mut code_lead: Option<String> = None;
    let mut html = TagStripper::default();
    // The lists we are in: each ordered one's next item number.
    let mut lists: Vec<Option<u64>> = Vec::new();
    let mut fences = Fences::default();
    for (event, range) in Parser::new_ext(body, options()).into_offset_iter() {
        let code = matches!(event, Event::Code(_));
        if fences.take(&event, &range, body, &mut parsed.texts, heading.is_some()) {
            continue;
        }
        match event {
            Event::Start(Tag::Heading { level, id, .. }) => {
                if depth == 0 && level != HeadingLevel::H1 {
                    parsed.texts.push(String::new());
                }
                heading = Some((level, id.map(|i| i.to_string()), range.start, String::new()));
                code_lead = None;
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(heading) = heading.take() {
                    parsed.end_heading(heading, code_lead.take(), depth == 0);
                }
                push_line_end(&mut parsed.texts);
            }
            Event::Start(Tag::List(first)) => {
                // A list inside an item's text starts on a line of its own.
                push_line_end(&mut parsed.texts);
                depth += 1;
                lists.push(first);
                contents.start_list(parsed.texts.last().map_or(0, String::len));
            }
            Event::End(TagEnd::List(_)) => {
                depth = depth.saturating_sub(1);
                lists.pop();
                // A table of contents is shown, not searched: its words are
                // left out, now or (when it names this page's own headings,
                // which may come later) once every heading is known.
                let section = parsed.texts.len() - 1;
                let end = parsed.texts.last().map_or(0, String::len);
                if let Some(start) = contents.end_list(section, end) {
                    if let Some(t) = parsed.texts.last_mut() {
                        t.truncate(start);
                    }
                    contents.own.retain(|d| d.section != section || d.start < start);
                }
                push_line_end(&mut parsed.texts);
            }
            Event::Start(Tag::Item) => {
                contents.start_item();
                push(&mut parsed.texts, &item_marker(&mut lists));
            }
            Event::End(TagEnd::Item) => {
                contents.end_item();
                push_line_end(&mut parsed.texts);
            }
            Event::Start(Tag::Link { dest_url, .. }) => contents.link = Some(LinkTo::of(&dest_url, rel_file)),
            Event::End(TagEnd::Link) => contents.end_link(),
            Event::Start(Tag::BlockQuote(kind)) => {
                depth += 1;
                // An alert's label stands on its own line, as a note's does in HTML.
                if let Some(kind) = kind {
                    push(&mut parsed.texts, alert_label(kind));
                    push_line_end(&mut parsed.texts);
                }
            }
            Event::Start(Tag::FootnoteDefinition(_)) => depth += 1,
            Event::End(TagEnd::BlockQuote(_) | TagEnd::FootnoteDefinition) => {
                depth = depth.saturating_sub(1);
                push_line_end(&mut parsed.texts);
            }
            // The text of an inline `<script>…</script>` is no text.
            Event::Text(_) | Event::Code(_) if html.raw_until.is_some() => {}
            Event::Text(t) | Event::Code(t) => {
                contents.text(&t);
                if let Some((_, _, _, title)) = heading.as_mut() {
                    if title.is_empty() && code {
                        code_lead = Some(t.to_string());
                    }
                    title.push_str(&t);
                }
                push(&mut parsed.texts, &t);
            }
            Event::InlineMath(t) | Event::DisplayMath(t) => push(&mut parsed.texts, &t),
            Event::SoftBreak => {
                if let Some((_, _, _, title)) = heading.as_mut() {
                    title.push(' ');
                }
                push(&mut parsed.texts, " ");
            }
            Event::HardBreak => push(&mut parsed.texts, "\n"),
            Event::Html(h) => {
                contents.html();
                let t = html.strip(&h);
                push(&mut parsed.texts, &t);
            }
            Event::InlineHtml(h) => {
                contents.html();
                let _ = html.strip(&h);
            }
            Event::End(TagEnd::TableCell) => push(&mut parsed.texts, " | "),
            Event::End(TagEnd::TableRow | TagEnd::TableHead) => end_row(&mut parsed.texts),
            Event::End(TagEnd::Paragraph | TagEnd::CodeBlock | TagEnd::HtmlBlock | TagEnd::Table) => {
                push_line_end(&mut parsed.texts)
            }
            Event::TaskListMarker(done) => push(&mut parsed.texts, if done { "[x] " } else { "[ ] " }),
            Event::Rule => push_line_end(&mut parsed.texts),
            _ => {}
        }
    }
    cut_own_contents(&mut parsed, std::mem::take(&mut contents.own));
    parsed
}

/// Leaves out the words of the lists of links to this page's parts that
/// name its headings (now that every heading is known).
fn cut_own_contents(parsed: &mut Parsed, mut own: Vec<OwnContents>) {
    let headings: HashSet<String> = parsed.cuts.iter().map(|c| crate::html::contents_key(&c.title)).collect();
    own.retain(|d| d.names.iter().all(|n| headings.contains(&crate::html::contents_key(n))));
    // An outer list's range holds its nested lists': it goes whole.
    own.sort_by_key(|d| (d.section, d.start, std::cmp::Reverse(d.end)));
    let mut outermost: Vec<OwnContents> = Vec::new();
    for d in own {
        if !outermost.last().is_some_and(|o| o.section == d.section && d.start < o.end) {
            outermost.push(d);
        }
    }
    // Last first, so the earlier ranges stay where they were.
    for d in outermost.into_iter().rev() {
        if let Some(t) = parsed.texts.get_mut(d.section)
            && d.start <= d.end
            && d.end <= t.len()
        {
            t.replace_range(d.start..d.end, "");
        }
    }
}

/// The most of a link's text kept to compare with the page's headings.
const MAX_OWN_LINK_BYTES: usize = 1000;

/// A list being read while looking for tables of contents.
#[derive(Default)]
struct ContentsList {
    /// Where its text starts in the section's text.
    text_start: usize,
    items: usize,
    /// Every item so far is a line of contents.
    lines: bool,
    /// The link texts of the items that are lines into this page's parts.
    own: Vec<String>,
    item: Option<ContentsItem>,
}

/// What a link in a list item points at.
enum LinkTo {
    OtherPage,
    /// A part of this page; the link's text so far.
    OwnPart(String),
    Elsewhere,
}

impl LinkTo {
    fn of(href: &str, rel_file: &str) -> LinkTo {
        if crate::links::names_other_page(href, rel_file, &|f| is_markdown(f) || crate::html::is_html(f)) {
            LinkTo::OtherPage
        } else if crate::links::own_fragment(href, rel_file).is_some() {
            LinkTo::OwnPart(String::new())
        } else {
            LinkTo::Elsewhere
        }
    }
}

/// An item of a [`ContentsList`] being read.
#[derive(Default)]
struct ContentsItem {
    /// Once its first words are read: whether they were in a link to
    /// another page.
    first: Option<bool>,
    /// When its first words are a link to a part of this page: that link's text.
    own: Option<String>,
    /// Characters (spaces aside) outside its links.
    tail: usize,
}

/// A list of links to parts of this page, whose words go once the headings
/// are known to be what it names.
struct OwnContents {
    section: usize,
    start: usize,
    end: usize,
    /// The text of each item's link.
    names: Vec<String>,
}

/// Finds, while the text is extracted, the page's tables of contents: lists
/// of at least two items each of which is a link to another whole page (as
/// `docs/index.md` lists the guide's pages) or to a part of this page by
/// its heading (a README's contents), and at most a short line after it
/// (what nested lists say aside).
#[derive(Default)]
struct ContentsScan {
    /// The lists being read, innermost last.
    lists: Vec<ContentsList>,
    /// Inside a link: what it points at.
    link: Option<LinkTo>,
    /// Lists into this page's parts, decided once its headings are known.
    own: Vec<OwnContents>,
}

impl ContentsScan {
    fn start_list(&mut self, text_start: usize) {
        self.lists.push(ContentsList { text_start, lines: true, ..Default::default() });
    }

    /// Where the list's text started, when the list is a table of contents
    /// of other pages; a list into this page's parts is kept for later.
    fn end_list(&mut self, section: usize, end: usize) -> Option<usize> {
        let list = self.lists.pop()?;
        if !(list.lines && list.items >= 2) {
            return None;
        }
        if list.own.is_empty() {
            return Some(list.text_start);
        }
        self.own.push(OwnContents { section, start: list.text_start, end, names: list.own });
        None
    }

    fn end_link(&mut self) {
        let link = self.link.take();
        if let Some(LinkTo::OwnPart(text)) = link
            && let Some(item) = self.item()
            && item.first == Some(true)
            && item.own.is_none()
            && item.tail == 0
        {
            item.own = Some(text);
        }
    }

    fn start_item(&mut self) {
        if let Some(list) = self.lists.last_mut() {
            list.item = Some(ContentsItem::default());
        }
    }

    fn end_item(&mut self) {
        if let Some(list) = self.lists.last_mut()
            && let Some(item) = list.item.take()
        {
            list.items += 1;
            list.lines &= item.first == Some(true) && item.tail <= crate::html::MAX_CONTENTS_TAIL;
            list.own.extend(item.own);
        }
    }

    fn item(&mut self) -> Option<&mut ContentsItem> {
        self.lists.last_mut().and_then(|l| l.item.as_mut())
    }

    fn text(&mut self, t: &str) {
        if let Some(LinkTo::OwnPart(text)) = &mut self.link
            && text.len() < MAX_OWN_LINK_BYTES
        {
            text.push_str(t);
        }
        let in_link = match &self.link {
            None => None,
            Some(LinkTo::Elsewhere) => Some(false),
            Some(_) => Some(true),
        };
        let Some(item) = self.item() else { return };
        let chars = t.chars().filter(|c| !c.is_whitespace()).count();
        if chars > 0 && item.first.is_none() {
            item.first = Some(in_link == Some(true));
        }
        if in_link.is_none() {
            item.tail += chars;
        }
    }

    /// Markup in an item: words that come after it are not a link's first.
    fn html(&mut self) {
        if let Some(item) = self.item() {
            item.first.get_or_insert(false);
        }
    }
}

/// The next item's marker in the innermost of `lists` (each ordered one's
/// next number), indented by its depth: a reader of the text sees the
/// steps' numbers and what is under what.
fn item_marker(lists: &mut [Option<u64>]) -> String {
    let indent = "  ".repeat(lists.len().saturating_sub(1));
    match lists.last_mut() {
        Some(Some(n)) => {
            *n += 1;
            format!("{indent}{}. ", *n - 1)
        }
        _ => format!("{indent}- "),
    }
}

fn push(texts: &mut [String], s: &str) {
    if let Some(t) = texts.last_mut() {
        t.push_str(s);
    }
}

/// A table row's end: its last cell's separator dropped, a line ended.
fn end_row(texts: &mut [String]) {
    if let Some(t) = texts.last_mut() {
        let trimmed = t.trim_end_matches(" | ").len();
        t.truncate(trimmed);
    }
    push_line_end(texts);
}

fn push_line_end(texts: &mut [String]) {
    if let Some(t) = texts.last_mut()
        && !t.is_empty()
        && !t.ends_with('\n')
    {
        t.push('\n');
    }
}

/// Cuts the body at the recorded headings: `body` as [`crate::mdx::blank`]
/// left it (parsed into `parsed`), each section keeping its Markdown as
/// `source` writes it. The lead section (before the first cut) is dropped
/// when it is blank and other sections exist.
fn build_sections(body: &str, source: &str, parsed: &Parsed, title: &str) -> Vec<Section> {
    // One id per cut, counted among all the page's headings as the generators count them.
    let mut ids = crate::heading_ids::section_ids(body).into_iter();
    let mut sections = Vec::with_capacity(parsed.cuts.len() + 1);
    let lead_end = parsed.cuts.first().map_or(body.len(), |c| c.start);
    let lead_md = &source[..lead_end];
    let has_lead = !body[..lead_end].trim().is_empty() || parsed.cuts.is_empty();
    if has_lead {
        sections.push(Section {
            anchor: None,
            title: title.to_owned(),
            level: 1,
            breadcrumb: Vec::new(),
            markdown: lead_md.to_owned(),
            text: tidy(&parsed.texts[0]),
        });
    }
    let mut stack: Vec<(u8, String)> = Vec::new();
    for (i, cut) in parsed.cuts.iter().enumerate() {
        let end = parsed.cuts.get(i + 1).map_or(body.len(), |c| c.start);
        // A lead of only MDX imports goes with the first section.
        let start = if i == 0 && !has_lead && !lead_md.trim().is_empty() { 0 } else { cut.start };
        while stack.last().is_some_and(|(l, _)| *l >= cut.level) {
            stack.pop();
        }
        let mut breadcrumb = vec![title.to_owned()];
        breadcrumb.extend(stack.iter().map(|(_, t)| t.clone()));
        // A heading that repeats the one above (the page's title again as
        // its first `##`) is one step, not two.
        breadcrumb.dedup();
        let anchor = ids.next().or_else(|| cut.id.clone()).unwrap_or_else(|| "section".to_owned());
        sections.push(Section {
            anchor: Some(anchor),
            title: cut.title.clone(),
            level: cut.level,
            breadcrumb,
            markdown: source.get(start..end).unwrap_or_default().to_owned(),
            text: tidy(parsed.texts.get(i + 1).map_or("", String::as_str)),
        });
        stack.push((cut.level, cut.title.clone()));
    }
    sections
}

/// Removes tags and comments from raw HTML in Markdown, keeping the text
/// (not a script's or a style's, which is no text); remembers an unfinished
/// tag, comment or script across events.
#[derive(Default)]
struct TagStripper {
    in_tag: bool,
    in_comment: bool,
    /// Inside `<script>` or `<style>`: skipped up to this end tag.
    raw_until: Option<&'static str>,
}

impl TagStripper {
    fn strip(&mut self, html: &str) -> String {
        let mut out = String::new();
        let mut rest = html;
        while !rest.is_empty() {
            if let Some(end) = self.raw_until {
                match rest.to_ascii_lowercase().find(end) {
                    Some(i) => {
                        rest = &rest[i..];
                        self.raw_until = None;
                    }
                    None => break,
                }
            } else if self.in_comment {
                match rest.find("-->") {
                    Some(i) => {
                        rest = &rest[i + 3..];
                        self.in_comment = false;
                    }
                    None => break,
                }
            } else if self.in_tag {
                match rest.find('>') {
                    Some(i) => {
                        rest = &rest[i + 1..];
                        self.in_tag = false;
                    }
                    None => break,
                }
            } else if let Some(i) = rest.find('<') {
                out.push_str(&rest[..i]);
                rest = &rest[i..];
                if rest.starts_with("<!--") {
                    self.in_comment = true;
                    rest = &rest[4..];
                } else {
                    self.in_tag = true;
                    rest = &rest[1..];
                    let name: String = rest
                        .chars()
                        .take_while(char::is_ascii_alphabetic)
                        .collect::<String>()
                        .to_ascii_lowercase();
                    self.raw_until = match name.as_str() {
                        "script" => Some("</script"),
                        "style" => Some("</style"),
                        _ => None,
                    };
                }
            } else {
                out.push_str(rest);
                break;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(src: &str) -> Page {
        markdown_to_page(src.as_bytes(), "guide/install.md", "/app").unwrap()
    }

    #[test]
    fn keeps_body_verbatim_and_frontmatter_apart() {
        let src = "---\ntitle: Install\norder: 2\n---\nIntro *text*.\n\n## Step one {#one}\n\nDo it.\n";
        let p = page(src);
        assert_eq!(p.frontmatter.as_deref(), Some("title: Install\norder: 2\n"));
        assert_eq!(p.markdown, "Intro *text*.\n\n## Step one {#one}\n\nDo it.\n");
        assert_eq!(p.path, "/app/guide/install");
        assert_eq!(p.order, Some(2));
        assert_eq!(p.sections.len(), 2);
        assert_eq!(p.sections[1].anchor.as_deref(), Some("one"));
        assert_eq!(p.sections[1].title, "Step one");
        assert_eq!(p.sections[1].breadcrumb, vec!["Install".to_owned()]);
        assert_eq!(p.text, "Intro text.\n\nStep one\nDo it.");
        let joined: String = p.sections.iter().map(|s| s.markdown.as_str()).collect();
        assert_eq!(joined, p.markdown);
    }

    #[test]
    fn a_manual_page_titled_in_its_frontmatter_names_its_command() {
        let src = "---\ntitle: npm-install\nsection: 1\ndescription: Install a package\n---\n### Synopsis\n\n`npm install`\n";
        let names: Vec<String> = page(src).symbols.into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["npm-install", "npm install"]);
        // A title from the first heading, or without a description, names none.
        assert!(page("# npm-install\n\nInstall a package.\n").symbols.is_empty());
        assert!(page("---\ntitle: npm-install\n---\nText.\n").symbols.is_empty());
    }

    #[test]
    fn a_heading_listing_options_names_them() {
        let src = "# widget run\n\nRuns.\n\n## Options\n\n### `-f, --force`\n\nForce.\n\n### --out=FILE {#out}\n\nOut.\n\n### --force usage in scripts\n\nMore.\n";
        let p = page(src);
        let named: Vec<(&str, Option<&str>)> =
            p.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
        let force = p.sections.iter().find(|s| s.title == "-f, --force").and_then(|s| s.anchor.as_deref());
        assert!(force.is_some(), "{:?}", p.sections);
        assert_eq!(named, [("-f", force), ("--force", force), ("--out", Some("out"))]);
    }

    #[test]
    fn a_heading_naming_a_name_in_code_and_its_type_names_it() {
        // (`save-dev` alone is a title, not a name: see `markdown_to_page`.)
        let src = "# API\n\n## Options\n\n#### `redact` (Array | Object):\n\nRedact.\n\n#### `level` (String)\n\nLevel.\n\n#### `save-dev`\n\nSave.\n\n### `npm install` in depth\n\nMore.\n\n### `level` and its uses\n\nMore.\n\n### The `child` method\n\nChild.\n";
        let p = page(src);
        let named: Vec<(&str, Option<&str>)> =
            p.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
        let anchor =
            |title: &str| p.sections.iter().find(|s| s.title == title).and_then(|s| s.anchor.as_deref());
        assert_eq!(
            named,
            [("redact", anchor("redact (Array | Object):")), ("level", anchor("level (String)"))]
        );
        assert!(named.iter().all(|(_, a)| a.is_some()), "{:?}", p.sections);
    }

    #[test]
    fn a_list_of_other_pages_is_shown_but_not_searched() {
        let src = "# Guide\n\nRead these.\n\n- [Installing widgets](install.md)\n- [Running widgets](../run/) — the first start\n  - [Flags](flags.md)\n\nThen come back.\n";
        let p = markdown_to_page(src.as_bytes(), "guide/index.md", "/app").unwrap();
        assert!(p.markdown.contains("[Installing widgets](install.md)"));
        assert_eq!(p.text, "Guide\nRead these.\nThen come back.");
        // Lists that only look alike stay searchable.
        for list in [
            "- [Widget maker](https://example.org/a)\n- [Widget seller](https://example.org/b)\n",
            "- [Widget maker](#maker)\n- [Widget seller](#seller)\n",
            "- [Widget maker](api.md#maker)\n- [Widget seller](api.md#seller)\n",
            "- [Widget maker](a.md)\n",
            "- See [Widget maker](a.md)\n- [Widget seller](b.md)\n",
            "- [Widget maker](a.md) builds a widget from the parts it is given, checking each part against the plan first and refusing any that does not fit it.\n- [Widget seller](b.md)\n",
            "- [Widget maker](logo.png)\n- [Widget seller](b.md)\n",
            "- [Widget maker](index.md)\n- [Widget seller](b.md)\n",
        ] {
            let p =
                markdown_to_page(format!("Intro.\n\n{list}").as_bytes(), "guide/index.md", "/app").unwrap();
            assert!(p.text.contains("Widget maker"), "{list}: {:?}", p.text);
        }
    }

    #[test]
    fn contents_of_the_page_itself_are_shown_but_not_searched() {
        let src = "# Widgets

A library.

## Contents

- [Install](#install)
- [Usage](#usage)
  - [The crank](README.md#the-crank)

## Install

Run npm.

## Usage

Call it.

### The crank

Turn it.

## More

- [Install](#install) first
- [Sellers](#sellers)
";
        let p = markdown_to_page(src.as_bytes(), "README.md", "/app").unwrap();
        assert!(p.markdown.contains("- [Install](#install)"), "{}", p.markdown);
        let contents = p.sections.iter().find(|s| s.title == "Contents").unwrap();
        assert_eq!(contents.text.trim(), "Contents", "{:?}", contents.text);
        // A list naming a part no heading has stays searchable.
        let more = p.sections.iter().find(|s| s.title == "More").unwrap();
        assert!(more.text.contains("Sellers") && more.text.contains("first"), "{:?}", more.text);
        assert!(p.text.contains("Run npm.") && p.text.contains("Turn it."), "{:?}", p.text);
    }

    #[test]
    fn an_opening_heading_with_siblings_is_no_title() {
        let p = page("## When to use\n\nTables.\n\n## API\n\nProps.\n\n## FAQ\n\nAsk.\n");
        assert_eq!(p.title, "install");
        let titles: Vec<&str> = p.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["When to use", "API", "FAQ"]);
        assert_eq!(p.sections[1].breadcrumb, ["install"]);
        assert_eq!(page("## Long Term Support\n\nText.\n\n### Dates\n\nSoon.\n").title, "Long Term Support");
    }

    #[test]
    fn title_falls_back_to_h1_then_stem() {
        assert_eq!(page("# Hello `world`\n\ntext").title, "Hello world");
        assert_eq!(page("text only").title, "install");
        // A page that opens with a lower heading is titled by it; one with
        // text before its first heading is not.
        assert_eq!(page("## Long Term Support\n\nThe schedule.").title, "Long Term Support");
        assert_eq!(page("Intro.\n\n## Setup\n\nSteps.").title, "install");
        let p = markdown_to_page(b"x", "guide/index.md", "/app").unwrap();
        assert_eq!((p.title.as_str(), p.path.as_str()), ("guide", "/app/guide"));
    }

    #[test]
    fn nested_headings_breadcrumbs_and_slugs() {
        let p = page("# T\n\n## A\n\n### B\n\n#### C\n\n## A\n\n> ## quoted\n");
        let got: Vec<_> = p
            .sections
            .iter()
            .map(|s| (s.anchor.clone().unwrap_or_default(), s.level, s.breadcrumb.join(" > ")))
            .collect();
        assert_eq!(
            got,
            vec![
                (String::new(), 1, String::new()),
                ("a".into(), 2, "T".into()),
                ("b".into(), 3, "T > A".into()),
                ("c".into(), 4, "T > A > B".into()),
                ("a-1".into(), 2, "T".into()),
            ]
        );
    }

    #[test]
    fn a_heading_repeating_the_one_above_is_one_step_of_the_breadcrumb() {
        let p = page("## Request\n\n### Request\n\nThe object.\n\n#### Properties\n\nIts fields.\n");
        let last = p.sections.last().unwrap();
        assert_eq!(
            (last.title.as_str(), last.breadcrumb.clone()),
            ("Properties", vec!["Request".to_owned()])
        );
    }

    #[test]
    fn a_nested_list_starts_on_a_line_of_its_own() {
        let p = page("- routerOptions\n  - allowUnsafeRegex\n  - caseSensitive\n- http2\n");
        assert_eq!(
            p.text, "- routerOptions\n  - allowUnsafeRegex\n  - caseSensitive\n- http2",
            "{:?}",
            p.text
        );
    }

    #[test]
    fn list_items_keep_their_numbers_and_depth_in_the_text() {
        // Numbered as shown, from the list's first number, however the
        // source numbers them.
        let p = page("Steps:\n\n3. Flag the server.\n1. Run the hooks:\n   * idle\n   * all\n1. Stop.\n");
        assert_eq!(
            p.text, "Steps:\n3. Flag the server.\n4. Run the hooks:\n  - idle\n  - all\n5. Stop.",
            "{:?}",
            p.text
        );
    }

    #[test]
    fn html_and_tables_become_text() {
        let p = page(
            "<details><summary>More</summary>\n\nHidden <!-- c --> text\n</details>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>\nalert(1)\n</script>\n<style>p { x: y }</style>\n\nafter\n",
        );
        assert!(!p.text.contains("alert") && !p.text.contains("x: y"), "{}", p.text);
        assert!(p.text.contains("after"), "{}", p.text);
        assert!(p.text.contains("More"), "{}", p.text);
        assert!(!p.text.contains('<'), "{}", p.text);
        assert!(p.text.contains("a | b\n1 | 2"), "{}", p.text);
        let inline = page("Run <b>this</b> <script>steal()</script><style>p{}</style>now.\n");
        assert_eq!(inline.text, "Run this now.");
    }

    #[test]
    fn a_list_item_starting_with_a_name_and_a_dash_defines_it() {
        let p = page(
            "# Env\n\n## Cargo reads {#reads}\n\n- `CARGO_TARGET_DIR` — Where artifacts go.\n* `--save-dev`: Saved as a dev dependency.\n1. `RUSTFLAGS` - Flags.\n- `cargo build` — two words.\n- `table`: tables, a kind of object.\n- `x` and more words, in passing.\n\n```md\n- `IN_CODE` — not a definition\n```\n",
        );
        let names: Vec<(&str, Option<&str>)> =
            p.symbols.iter().map(|s| (s.name.as_str(), s.anchor.as_deref())).collect();
        assert_eq!(
            names,
            [
                ("CARGO_TARGET_DIR", Some("reads")),
                ("--save-dev", Some("reads")),
                ("RUSTFLAGS", Some("reads"))
            ]
        );
    }

    #[test]
    fn an_alert_shows_its_label_not_its_marker() {
        let p = page(
            "# T\n\nIntro.\n\n> [!NOTE]\n> Useful information.\n\n> [!CAUTION]\n> Risky.\n\n> [!nonsense]\n> Kept.\n",
        );
        assert!(
            p.text.contains("Note\nUseful information.") && p.text.contains("Caution\nRisky."),
            "{}",
            p.text
        );
        assert!(!p.text.contains("[!NOTE]") && p.text.contains("[!nonsense]"), "{}", p.text);
    }

    #[test]
    fn a_container_shows_its_label_not_its_fences() {
        let p = page(concat!(
            "# T\n\n::: tip\nUseful information.\n:::\n\n",
            ":::warning{title=已废弃}\n版本 >= 5.6.0 时请使用 items。\n:::\n\n",
            ":::note[Mind the gap]\n\nStand back.\n\n:::\n\n",
            "```md\n::: danger\nshown as written\n:::\n```\n\nA ratio of 3:::4 stays.\n"
        ));
        for shown in
            ["Tip\n", "Useful information.", "已废弃\n版本 >= 5.6.0", "Mind the gap\n", "Stand back."]
        {
            assert!(p.text.contains(shown), "{shown}: {}", p.text);
        }
        assert!(
            !p.text.contains("::: tip") && !p.text.contains("{title") && !p.text.contains("[Mind"),
            "{}",
            p.text
        );
        // In code, and in running text, colons are text.
        assert!(
            p.text.contains("::: danger\nshown as written\n:::") && p.text.contains("3:::4"),
            "{}",
            p.text
        );
        assert_eq!(container_fence("::: details Click me"), Some(Fence::Open("Click me".into())));
        assert_eq!(container_fence("::::"), Some(Fence::Close));
        assert_eq!(container_fence("    ::: tip"), None);
        assert_eq!(container_fence(":: tip"), None);
    }

    #[test]
    fn an_mdx_page_reads_without_its_imports_comments_and_tags() {
        let src = concat!(
            "---\nsidebar_position: 2\n---\nimport Tabs from '@theme/Tabs';\n",
            "import TabItem from '@theme/TabItem';\n\n## Installation\n\n{/* TODO: Windows */}\n\n",
            "<Tabs groupId=\"pm\">\n  <TabItem value=\"npm\" label=\"npm\">\n\n```bash\nnpm i widgets\n```\n\n",
            "  </TabItem>\n  <TabItem value=\"yarn\" label=\"Yarn\">\n\n```bash\nyarn add widgets\n```\n\n",
            "  </TabItem>\n</Tabs>\n\n<Callout title=\"Before you start\">Check the <abbr title=\"version\">ver</abbr>.</Callout>\n\n",
            "export const toc = [\n  {id: 'x'},\n];\n"
        );
        let p = markdown_to_page(src.as_bytes(), "docs/setup.mdx", "/app").unwrap();
        assert_eq!(p.path, "/app/docs/setup");
        // Titled by its only top heading, as a page with nothing before it is.
        assert_eq!(p.title, "Installation");
        let text = &p.text;
        for gone in ["import", "@theme", "TODO", "groupId", "toc", "{id"] {
            assert!(!text.contains(gone), "{gone}: {text}");
        }
        for kept in ["npm\n", "npm i widgets", "Yarn\n", "yarn add widgets", "Check the ver."] {
            assert!(text.contains(kept), "{kept}: {text}");
        }
        // The source stays as written.
        assert!(p.markdown.starts_with("import Tabs"));
        let joined: String = p.sections.iter().map(|s| s.markdown.as_str()).collect();
        assert_eq!(joined, p.markdown);
        assert!(is_markdown("a/b.MDX") && !is_markdown("a/b.mdxx"));
    }

    #[test]
    fn a_page_without_a_title_is_named_by_its_file_without_its_order_number() {
        for (file, title) in [
            ("05-core-package/index.mdx", "core package"),
            ("guide/02_install.md", "install"),
            ("guide/getting-started.md", "getting started"),
            ("2024-01.md", "2024 01"),
            ("10.md", "10"),
        ] {
            let p = markdown_to_page(b"Some text.", file, "/app").unwrap();
            assert_eq!(p.title, title, "{file}");
        }
    }

    #[test]
    fn a_title_written_for_a_browser_tab_is_its_heading() {
        let p = page("---\ntitle: 'Working Memory | Memory | Mastra Docs'\n---\n# Working Memory\n\nText.\n");
        assert_eq!(p.title, "Working Memory");
        let p = page("---\ntitle: 'Discord Community and Bot | Mastra'\n---\n# Discord community\n\nText.\n");
        assert_eq!(p.title, "Discord community");
        // A title with no bar stays, as does one with no heading to stand for.
        for (fm, h1) in [("Install", "Setup"), ("A | B", "")] {
            let p = page(&format!("---\ntitle: {fm}\n---\n# {h1}\n\nText.\n"));
            assert_eq!(p.title, fm);
        }
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let e = markdown_to_page(b"ok \xff\xfe", "x.md", "").unwrap_err();
        assert_eq!(e.path(), "x.md");
        let e = markdown_to_page(b"---\ntitle: [\n---\nbody", "y.md", "").unwrap_err();
        assert!(matches!(e, PageError::Frontmatter { .. }));
        let deep = ">".repeat(100_000) + " x\n" + &"- ".repeat(50_000);
        assert!(markdown_to_page(deep.as_bytes(), "z.md", "").is_ok());
    }
}
