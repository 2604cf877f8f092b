//! HTML pages (PostgreSQL's DocBook XHTML above all, and generic HTML such as
//! docset pages) → Markdown, plain text and sections. Navigation chrome is
//! dropped, headings keep their element ids as anchors, links are rewritten
//! to library paths.

use std::collections::{BTreeSet, HashMap, HashSet};

use ego_tree::NodeRef;
use scraper::{Html, Node, node::Element};

use crate::chrome::{self, PageChrome};
use crate::page::{Page, PageError, Section, Symbol};
use crate::paths;
use crate::script::{is_cjk, is_hangul};
use crate::tags::{RAW_TEXT, VOID, find, find_ignore_case, has_class, memchr};
use crate::text::{Slugger, collapse_whitespace, join_texts, nfc, tidy};

/// File extensions read as HTML.
pub const EXTENSIONS: [&str; 3] = ["html", "htm", "xhtml"];

/// Whether a source-relative file name is an HTML file.
pub fn is_html(rel: &str) -> bool {
    rel.rsplit_once('.').is_some_and(|(_, ext)| EXTENSIONS.iter().any(|e| ext.eq_ignore_ascii_case(e)))
}

/// Deeper element nesting than this is flattened to its text (no stack overflow).
const MAX_DEPTH: usize = 200;

/// Deeper element nesting in the source than this is refused.
pub const MAX_NESTING: usize = 1000;

/// More elements in one document than this are refused.
pub const MAX_ELEMENTS: usize = 500_000;

/// Elements whose end tag may be omitted (the parser closes them when the
/// next one starts): not counted when estimating nesting depth.
const OPTIONAL_END: [&str; 19] = [
    "p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "thead", "tbody", "tfoot", "colgroup",
    "rb", "rt", "rp", "html", "head", "body",
];

/// Elements an end tag of another name does not close: `</span>` with a
/// `<div>` open above the `<span>` is ignored by the parser.
const SPECIAL: [&str; 40] = [
    "address",
    "applet",
    "article",
    "aside",
    "blockquote",
    "button",
    "caption",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "listing",
    "main",
    "marquee",
    "menu",
    "nav",
    "object",
    "ol",
    "pre",
    "search",
    "section",
    "select",
    "summary",
    "table",
    "ul",
];

/// Elements past which the end tag of a block element does not reach.
const SCOPE_BOUNDARY: [&str; 8] = ["applet", "caption", "table", "td", "th", "marquee", "object", "template"];

/// Foreign content, where `<x/>` really is an empty element.
const FOREIGN: [&str; 2] = ["svg", "math"];

/// Formatting elements: when a block's end tag closes one left open, the
/// parser recreates it before the next text or inline tag, once per time.
const FORMATTING: [&str; 14] =
    ["a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"];

/// Refuses a document the parser would turn into more than [`MAX_ELEMENTS`]
/// elements or nest deeper than `max_nesting`: the HTML parser's scope checks
/// are linear in the nesting depth, so absurd nesting costs quadratic time,
/// and recreated formatting elements can multiply the elements of a page.
///
/// The tags are counted as the parser will see them, in one pass: every
/// start tag is an element; `<div/>` opens a `div` like `<div>` does (HTML
/// ignores the slash outside SVG and MathML); an end tag closes only an
/// element that is open (`</x>` with no `<x>` closes nothing); formatting
/// elements a block's end tag closed are counted again each time the parser
/// recreates them; comments and the text of `<script>`, `<style>` and the
/// like hold no tags. Where the estimate has to guess it errs towards more.
fn check_shape(src: &str, max_nesting: usize) -> Result<(), String> {
    let bytes = src.as_bytes();
    let mut shape = Shape { max_nesting, ..Shape::default() };
    let mut i = 0;
    // Where the text since the last tag starts.
    let mut text_from = 0;
    while let Some(off) = memchr(b'<', &bytes[i..]) {
        let at = i + off;
        i = at + 1;
        if bytes[i..].starts_with(b"!--") {
            i = find(bytes, i + 3, b"-->").map_or(bytes.len(), |end| end + 3);
            text_from = i;
            continue;
        }
        let closing = bytes.get(i) == Some(&b'/');
        let start = if closing { i + 1 } else { i };
        let len = bytes[start.min(bytes.len())..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        if len == 0 {
            continue;
        }
        if at > text_from {
            shape.recreate()?;
        }
        let name = src[start..start + len].to_ascii_lowercase();
        let tag_end = memchr(b'>', &bytes[start + len..]).map(|e| start + len + e);
        i = tag_end.map_or(bytes.len(), |e| e + 1);
        text_from = i;
        if closing {
            shape.close(&name);
            continue;
        }
        shape.count(1)?;
        if !SPECIAL.contains(&name.as_str()) {
            shape.recreate()?;
        }
        if RAW_TEXT.contains(&name.as_str()) {
            let close = format!("</{name}");
            i = find_ignore_case(bytes, i, close.as_bytes()).unwrap_or(bytes.len());
            text_from = i;
            continue;
        }
        let self_closed = tag_end.is_some_and(|e| e > start + len && bytes[e - 1] == b'/');
        if VOID.contains(&name.as_str())
            || OPTIONAL_END.contains(&name.as_str())
            || (self_closed && shape.foreign > 0)
        {
            continue;
        }
        let key = FORMATTING.contains(&name.as_str()).then(|| src[start..i].into());
        shape.push(Open { name, key })?;
    }
    Ok(())
}

/// An element [`check_shape`] takes to be open.
struct Open {
    name: String,
    /// A formatting element's whole start tag (name and attributes): the
    /// parser keeps at most three identical ones to recreate.
    key: Option<Box<str>>,
}

/// What [`check_shape`] knows of the document so far.
#[derive(Default)]
struct Shape {
    max_nesting: usize,
    elements: usize,
    /// The open elements, innermost last.
    open: Vec<Open>,
    /// How many of each name are open, so an end tag with none open costs nothing.
    counts: std::collections::HashMap<String, usize>,
    /// How many of them are `svg` or `math`.
    foreign: usize,
    /// Formatting elements closed by a block's end tag, to be recreated.
    closed_formatting: Vec<Open>,
    /// How many of `closed_formatting` have each start tag.
    closed_keys: std::collections::HashMap<Box<str>, usize>,
}

impl Shape {
    fn count(&mut self, n: usize) -> Result<(), String> {
        self.elements += n;
        if self.elements > MAX_ELEMENTS {
            return Err(format!(
                "more than {MAX_ELEMENTS} HTML elements; at most {MAX_ELEMENTS} are allowed"
            ));
        }
        Ok(())
    }

    fn push(&mut self, open: Open) -> Result<(), String> {
        self.foreign += usize::from(FOREIGN.contains(&open.name.as_str()));
        *self.counts.entry(open.name.clone()).or_default() += 1;
        self.open.push(open);
        if self.open.len() > self.max_nesting {
            let max = self.max_nesting;
            return Err(format!("HTML elements nested deeper than {max}; at most {max} levels are allowed"));
        }
        Ok(())
    }

    /// Text or an inline tag: the parser recreates the formatting elements
    /// a block's end tag closed, as new elements, open again.
    fn recreate(&mut self) -> Result<(), String> {
        if self.closed_formatting.is_empty() {
            return Ok(());
        }
        let again = std::mem::take(&mut self.closed_formatting);
        self.closed_keys.clear();
        self.count(again.len())?;
        for open in again {
            self.push(open)?;
        }
        Ok(())
    }

    /// An end tag: closes the innermost open element of that name and all
    /// inside it, unless an element it cannot reach past comes first (then,
    /// as the parser does, it closes nothing).
    fn close(&mut self, name: &str) {
        if self.counts.get(name).is_none_or(|&n| n == 0) {
            // `</b>` for a closed-off `<b>`: the parser forgets it.
            if let Some(k) = self.closed_formatting.iter().rposition(|o| o.name == name) {
                let forgotten = self.closed_formatting.remove(k);
                if let Some(n) = forgotten.key.and_then(|key| self.closed_keys.get_mut(&key)) {
                    *n -= 1;
                }
            }
            return;
        }
        let block = SPECIAL.contains(&name);
        let mut at = None;
        for (k, open) in self.open.iter().enumerate().rev() {
            if open.name == name {
                at = Some(k);
                break;
            }
            let blocked = if block {
                SCOPE_BOUNDARY.contains(&open.name.as_str())
            } else {
                SPECIAL.contains(&open.name.as_str())
            };
            if blocked {
                return;
            }
        }
        let Some(at) = at else { return };
        let mut gone: Vec<Open> = self.open.drain(at..).collect();
        // The element the end tag names is closed for good.
        gone.remove(0);
        if let Some(n) = self.counts.get_mut(name) {
            *n -= 1;
        }
        self.foreign -= usize::from(FOREIGN.contains(&name));
        for open in gone {
            self.foreign -= usize::from(FOREIGN.contains(&open.name.as_str()));
            if let Some(n) = self.counts.get_mut(&open.name) {
                *n -= 1;
            }
            let Some(key) = &open.key else { continue };
            let twins = self.closed_keys.entry(key.clone()).or_default();
            if *twins < 3 {
                *twins += 1;
                self.closed_formatting.push(open);
            }
        }
    }
}

/// Elements dropped with everything inside them.
const SKIP_TAGS: [&str; 20] = [
    "head", "script", "style", "noscript", "template", "nav", "iframe", "object", "embed", "svg", "canvas",
    "form", "button", "input", "select", "textarea", "link", "meta", "title", "colgroup",
];
/// Classes of elements dropped with everything inside them (DocBook and Sphinx chrome).
/// (rustdoc's `out-of-band` and `rightside` hold the "since" version, the
/// source link and the collapse control; `hideme` is its "Expand description";
/// Doxygen's `ttc` is a tooltip, shown on hover only.)
const SKIP_CLASSES: [&str; 30] = [
    "navheader",
    "navfooter",
    "id_link",
    "headerlink",
    "sphinxsidebar",
    "related",
    "footer",
    "out-of-band",
    "rightside",
    "srclink",
    "hideme",
    "ttc",
    // rustdoc's "Run" link beside each example, and the "Notable traits"
    // tooltip after a signature.
    "test-arrow",
    "notable-traits",
    // Sphinx viewcode's "[source]" beside an entry and "[docs]" beside the code.
    "viewcode-link",
    "viewcode-back",
    // mandoc's header and footer lines (`file(3tcl) | Tcl Built-In Commands`).
    "head-ltitle",
    "head-vol",
    "head-rtitle",
    "foot-date",
    "foot-os",
    // mdBook's hidden lines of an example (`# fn main() {`), shown only on request.
    "boring",
    // Haddock's "Instances details" toggle, and the types its source
    // listings show on hover.
    "hide-when-js-enabled",
    "annottext",
    // The line numbers of Doxygen's source listings.
    "lineno",
    // TypeDoc's "On This Page" (its contents in the page's sidebar) and the
    // "Defined in src/…:195" under each member.
    "tsd-page-navigation",
    "tsd-sources",
    // The line numbers beside Pygments' numbered listings (Sphinx,
    // MkDocs: `<td class="linenos">`).
    "linenos",
    "linenodiv",
    // What a theme shows only when the page is printed (sphinx-book-theme's
    // title and contents again, `<div class="onlyprint">`).
    "onlyprint",
];
/// Classes of a title page's credit lines set as headings (DocBook).
const CREDIT_CLASSES: [&str; 5] = ["author", "corpauthor", "editor", "othercredit", "collab"];
/// Classes of links that wrap a heading's own text and point back at a table
/// of contents (Sphinx `toc-backref`): their text is kept, the link is not.
const UNLINKED_CLASSES: [&str; 1] = ["toc-backref"];

/// Classes of a table of contents in the page's body (DocBook, Sphinx), and
/// DocBook's lists of a book's tables, figures and examples (titles that
/// belong to other pages).
const CONTENTS_CLASSES: [&str; 7] = [
    "toc",
    "toctree-wrapper",
    "list-of-tables",
    "list-of-figures",
    "list-of-examples",
    "list-of-procedures",
    "list-of-equations",
];

/// The most characters (spaces aside) an item of a list of links may add to
/// its link and still be a table of contents' line, as DocBook's
/// "ABORT — abort the current transaction" is.
pub(crate) const MAX_CONTENTS_TAIL: usize = 80;

/// The longest link (spaces aside) a table of contents' line is counted with.
const MAX_CONTENTS_LINK: usize = 1000;

/// The most nodes looked at in one item of a list while deciding whether it
/// is a table of contents (a line of one holds a handful).
const MAX_CONTENTS_NODES: usize = 256;
/// Texts of permalink markers generators put beside headings (`¶`, `#`, `§`, `🔗`).
const PERMALINK_MARKS: [&str; 7] = ["¶", "#", "§", "🔗", "\u{f0c1}", "◆", "↑"];
/// Classes whose headings are captions (admonitions, examples), not section starts.
const CAPTION_CLASSES: [&str; 11] = [
    "note",
    "tip",
    "warning",
    "caution",
    "important",
    "sidebar",
    "example",
    "table",
    "figure",
    "procedure",
    "admonition",
];
const BLOCK_TAGS: [&str; 22] = [
    "p",
    "div",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "aside",
    "figure",
    "figcaption",
    "address",
    "center",
    "details",
    "summary",
    "fieldset",
    "caption",
    "body",
    "html",
    "hgroup",
    "legend",
    "dialog",
    "search",
];

/// Converts one HTML file (`rel_file` is its path inside the source, used
/// for the page path, link resolution and messages) into a page under `prefix`.
pub fn html_to_page(bytes: &[u8], rel_file: &str, prefix: &str) -> Result<Page, PageError> {
    convert(bytes, rel_file, (prefix, None), &HashSet::new()).map(|c| c.page)
}

/// A converted page with what the edition-wide steps need of it.
pub(crate) struct Converted {
    pub(crate) page: Page,
    /// Fingerprints of the blocks at the edges of its content (each once),
    /// to find what repeats on most pages of the edition.
    pub(crate) edges: Vec<u64>,
    /// Its `<title>`, when it has one.
    pub(crate) doc_title: Option<String>,
    /// Where it sends the reader, when the file is only a redirect (see
    /// [`redirect_url`]): the URL as written.
    pub(crate) redirect: Option<String>,
    /// Its `<head>` asks search engines not to index it (`<meta
    /// name="robots" content="noindex">`: mdBook's `print.html` and `toc.html`).
    pub(crate) noindex: bool,
}

/// [`html_to_page`], dropping the edge blocks whose fingerprints are in
/// `repeated` (the edition's chrome).
pub(crate) fn convert(
    bytes: &[u8],
    rel_file: &str,
    (prefix, language): (&str, Option<&str>),
    repeated: &HashSet<u64>,
) -> Result<Converted, PageError> {
    // XHTML's empty elements closed first: the shape checked is the one parsed.
    let text = crate::page::html_text(bytes, rel_file)?;
    let src = crate::xhtml::close_empty_elements(&text);
    if let Err(reason) = check_shape(&src, MAX_NESTING) {
        return Err(PageError::Malformed { path: rel_file.to_owned(), reason });
    }
    let doc = Html::parse_document(&src);
    let root = main_content(&doc);
    let (page_path, mut chrome) = (paths::page_path(prefix, rel_file), chrome::find(root, is_skipped));
    let doc_title = document_title(&doc);
    let edges = {
        let skipped =
            |n: NodeRef<'_, Node>| chrome.contains(n) || n.value().as_element().is_some_and(is_skipped);
        chrome::edge_blocks(root, &skipped, doc_title.as_deref())
    };
    for edge in &edges {
        if repeated.contains(&edge.fingerprint) {
            chrome.dropped.insert(edge.node);
        }
    }
    let fingerprints: Vec<u64> =
        edges.iter().map(|e| e.fingerprint).collect::<BTreeSet<u64>>().into_iter().collect();
    let plan = plan(root, &mut chrome, doc_title.as_deref());
    let title_from_heading = plan.page_heading.map(|h| heading_text(h)).filter(|t| !t.is_empty());
    let mark = crate::generated::generator_mark(&doc);
    // (rustdoc's "Struct Vec" is "Struct std::vec::Vec", its `<title>` says.)
    let title_from_heading = match (&title_from_heading, &doc_title) {
        (Some(heading), Some(doc)) if crate::rustdoc::is_rustdoc(mark.as_deref()) => {
            crate::rustdoc::item_title(heading, doc, rel_file).or(title_from_heading)
        }
        _ => title_from_heading,
    };
    let title = nfc(&title_from_heading
        .or_else(|| doc_title.clone())
        .unwrap_or_else(|| paths::file_stem(rel_file).to_owned()));
    let base = base_file(&doc, rel_file);
    let mut conv = Converter {
        prefix: paths::normalize_prefix(prefix),
        language,
        rel_file,
        base: base.as_deref(),
        page_path: &page_path,
        plan: &plan,
        chrome: &chrome,
        title: &title,
        sections: vec![SectionBuf::lead(&title)],
        para: Inline::default(),
        prefixes: Vec::new(),
        marker: None,
        pending_id: None,
        slugger: Slugger::default(),
        section_anchors: HashSet::new(),
        last_item_single: false,
        last_prefix: String::new(),
        anchors_due: String::new(),
        in_heading: false,
        in_signature: false,
        title_done: false,
        next_to_title: false,
        in_contents: false,
        defined: Default::default(),
        started: HashMap::new(),
    };
    conv.block_children(root, 0);
    conv.flush();
    conv.emit_due_anchors();
    let defined = std::mem::take(&mut conv.defined);
    let started = std::mem::take(&mut conv.started);
    let sections = conv.finish();
    let (mut symbols, description) =
        names_defined(root, (&sections, &started), (doc_title.as_deref(), &title), mark.as_deref());
    // Terms defined in running text, each where it is defined (a term may
    // be defined on several sections, and a name above may be one too).
    symbols.extend(defined.into_symbols());
    let text = join_texts(sections.iter().map(|s| s.text.as_str()));
    let markdown = sections.iter().map(|s| s.markdown.as_str()).collect::<Vec<_>>().join("\n");
    let mut page = Page {
        path: page_path.clone(),
        source_file: rel_file.to_owned(),
        title,
        description,
        order: None,
        draft: false,
        frontmatter: None,
        markdown,
        text,
        sections,
        symbols,
        listing: is_listing((&doc, doc_title.as_deref()), mark.as_deref(), rel_file, (root, &chrome)),
        nav: Default::default(),
    };
    let short = page.text.chars().count() <= MAX_REDIRECT_TEXT;
    // Only a page with almost no text can be a redirect: no walk for the meta on the others.
    let redirect = if short { redirect_url(&doc) } else { None };
    // The generator's search page (Sphinx's, MkDocs' `search.html`: a search
    // form for its script and a sentence) ranks with the listings, after
    // every page of content; links to it still resolve.
    page.listing |=
        short && paths::file_stem(rel_file).eq_ignore_ascii_case("search") && has_search_form(root);
    // So does the page a site shows for a missing page (MkDocs' and
    // Sphinx themes' `404.html`: "Page not found" and the theme around it).
    page.listing |= paths::file_stem(rel_file) == "404";
    // So do the source listings Sphinx's viewcode writes beside the
    // documentation (`_modules/django/core/management/base.html`, "Source
    // code for django.core.management.base").
    page.listing |=
        rel_file.split('/').any(|part| part == "_modules") && page.title.starts_with("Source code for ");
    let noindex = robots_noindex(&doc);
    Ok(Converted { page, edges: fingerprints, doc_title: doc_title.map(|t| nfc(&t)), redirect, noindex })
}

/// Whether the `<head>` holds `<meta name="robots">` whose content says
/// `noindex`.
fn robots_noindex(doc: &Html) -> bool {
    let is_head = |n: &NodeRef<'_, Node>| n.value().as_element().is_some_and(|e| e.name() == "head");
    let Some(head) = doc.tree.root().descendants().find(is_head) else { return false };
    head.children().filter_map(|n| n.value().as_element()).any(|e| {
        e.name() == "meta"
            && e.attr("name").is_some_and(|n| n.trim().eq_ignore_ascii_case("robots"))
            && e.attr("content")
                .is_some_and(|c| c.split(',').any(|d| d.trim().eq_ignore_ascii_case("noindex")))
    })
}

/// A file in the folder that the `<base href>` in the page's `<head>`
/// names (LibreOffice's help: `<base href="../../../../">`), as a path in
/// the tree; None without one, or for a base outside the tree (a URL, a
/// root-absolute path, one climbing out of it).
fn base_file(doc: &Html, rel_file: &str) -> Option<String> {
    let is_head = |n: &NodeRef<'_, Node>| n.value().as_element().is_some_and(|e| e.name() == "head");
    let head = doc.tree.root().descendants().find(is_head)?;
    let href = head
        .children()
        .filter_map(|n| n.value().as_element())
        .find(|e| e.name() == "base")?
        .attr("href")?
        .trim();
    let scheme = href.find(':').is_some_and(|i| i < href.find('/').unwrap_or(href.len()));
    if href.is_empty() || href.starts_with('/') || scheme || href.contains(['?', '#']) {
        return None;
    }
    // The folder of the base (`a/b.html` names `a/`), then a file in it.
    let dir = href.rfind('/').map_or("", |i| &href[..=i]);
    paths::resolve(rel_file, &format!("{dir}base.html"))
}

/// The names a page defines, and its description: a reference page's name
/// block or a manual page's NAME line, then its variable lists' names,
/// its other definition terms that name code (a Sphinx API entry, a
/// texinfo `<dt id>`), Haddock's definitions, a help file's tags and a
/// Texinfo manual's index entries where it makes them, each name once: a
/// variable list's own entry wins, then a term.
fn names_defined(
    root: NodeRef<'_, Node>,
    (sections, started): (&[Section], &HashMap<ego_tree::NodeId, String>),
    (doc_title, title): (Option<&str>, &str),
    mark: Option<&str>,
) -> (Vec<Symbol>, Option<String>) {
    let (mut symbols, mut description) = refentry(root);
    // A manual page's NAME line, when no name block said it already.
    if description.is_none()
        && let Some((commands, purpose)) = crate::manpage::name_line(sections)
    {
        description = Some(purpose);
        for command in commands {
            if !symbols.iter().any(|s| s.name == command.name) {
                symbols.push(command);
            }
        }
    }
    // (A glossary's terms are words it explains, not names.)
    let glossary = doc_title.is_some_and(|t| t.to_lowercase().contains("glossary"));
    symbols.extend(crate::varlist::varlist_symbols(root, started, glossary));
    let entries =
        if crate::texinfo::is_texinfo(mark) { crate::texinfo::index_symbols(root) } else { Vec::new() };
    let mut named: HashSet<String> = symbols.iter().map(|s| s.name.clone()).collect();
    let doxygen = mark.is_some_and(|m| m.starts_with("doxygen"));
    let members = if doxygen { doxygen_members(root, title) } else { Vec::new() };
    let terms = term_symbols(root)
        .into_iter()
        .chain(haddock_symbols(root, title))
        .chain(members)
        .chain(crate::api_pages::symbols(root, title, doc_title))
        .chain(separated_names(root));
    for symbol in terms.chain(tag_symbols(root)).chain(entries) {
        if named.insert(symbol.name.clone()) {
            symbols.push(symbol);
        }
    }
    (symbols, description)
}

/// True for a page that ranks with the listings: a generated index
/// ([`is_index_listing`]), a generator's own listing
/// ([`crate::generated::is_generated_listing`]), a page of links
/// ([`mostly_links`]) or one whose `<title>` (`doc_title`) says it is a
/// table of contents ([`names_contents`]).
fn is_listing(
    (doc, doc_title): (&Html, Option<&str>),
    mark: Option<&str>,
    rel_file: &str,
    (root, chrome): (NodeRef<'_, Node>, &PageChrome),
) -> bool {
    is_index_listing(doc)
        || crate::generated::is_generated_listing(mark, rel_file, root)
        || mostly_links(root, chrome)
        || doc_title.is_some_and(names_contents)
}

/// Whether a page's `<title>` says it is a table of contents (pod2html's
/// `perltoc - perl documentation table of contents`): it repeats every
/// page's headings and entries, so it ranks with the listings.
fn names_contents(title: &str) -> bool {
    title.to_lowercase().contains("table of contents")
}

/// Least text (chars, space left out) of a page [`mostly_links`] may call a
/// listing: a short page of links is a chapter's contents, read as such.
const MIN_LISTING_TEXT: usize = 2000;

/// True for a page whose text is links and little else, nine chars in ten
/// or more (SQLite's keyword index and sitemap, a function list, a
/// manual's top contents page): it names other pages without saying what
/// they hold, so it ranks with the listings, after every page of content.
/// Only the content counts, not the site's chrome.
fn mostly_links(root: NodeRef<'_, Node>, chrome: &PageChrome) -> bool {
    let (mut total, mut linked) = (0usize, 0usize);
    let mut stack = vec![(root, false)];
    while let Some((node, in_link)) = stack.pop() {
        match node.value() {
            Node::Text(t) => {
                let n = t.chars().filter(|c| !c.is_whitespace()).count();
                total += n;
                linked += if in_link { n } else { 0 };
            }
            Node::Element(el) if is_skipped(el) || chrome.contains(node) => {}
            Node::Element(el) => {
                let link = in_link || (el.name() == "a" && el.attr("href").is_some());
                stack.extend(node.children().map(|c| (c, link)));
            }
            _ => {}
        }
    }
    total >= MIN_LISTING_TEXT && linked * 10 >= total * 9
}

/// Most text a page that only redirects has (its title and a "The node you
/// are looking for is at …" sentence).
const MAX_REDIRECT_TEXT: usize = 300;

/// A `<form>` in the content whose text field is a search box (`type=search`,
/// or a text field named `q` or `query`, as generators name theirs).
fn has_search_form(root: NodeRef<'_, Node>) -> bool {
    root.descendants().filter(|n| n.value().as_element().is_some_and(|e| e.name() == "form")).any(|form| {
        form.descendants().filter_map(|n| n.value().as_element()).any(|e| {
            e.name() == "input"
                && match e.attr("type").map(str::to_ascii_lowercase).as_deref() {
                    Some("search") => true,
                    None | Some("text") => e.attr("name").is_some_and(|n| matches!(n, "q" | "query")),
                    _ => false,
                }
        })
    })
}

/// The URL of a `<meta http-equiv="refresh" content="0; url=…">` that sends
/// the reader on at once (a delay of at most a second): texi2any's node
/// redirects, the stubs redirect plugins of Sphinx and MkDocs write.
fn redirect_url(doc: &Html) -> Option<String> {
    let meta = doc.tree.root().descendants().filter_map(|n| n.value().as_element()).find(|e| {
        e.name() == "meta" && e.attr("http-equiv").is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh"))
    })?;
    let content = meta.attr("content")?;
    let (delay, rest) = content.split_once([';', ','])?;
    if !delay.trim().parse::<f64>().is_ok_and(|d| (0.0..=1.0).contains(&d)) {
        return None;
    }
    let rest = rest.trim_start();
    let rest = rest.get(..3).filter(|k| k.eq_ignore_ascii_case("url")).map(|_| &rest[3..])?;
    let url = rest.trim_start().strip_prefix('=')?.trim();
    let url = url.trim_matches(|c| c == '\'' || c == '"').trim();
    (!url.is_empty()).then(|| url.to_owned())
}

/// DocBook's generated index (`<div class="index">`, e.g. PostgreSQL's
/// `bookindex.html`) or Sphinx's `genindex`.
fn is_index_listing(doc: &Html) -> bool {
    static SELECTOR: std::sync::OnceLock<scraper::Selector> = std::sync::OnceLock::new();
    let selector = SELECTOR.get_or_init(|| {
        scraper::Selector::parse("div.index, div.genindex-jumpbox, table.indextable")
            .expect("static selector")
    });
    doc.select(selector).next().is_some()
}

/// The main content element: `<main>`, `[role=main]`, `div.body`, the one
/// `<article>` (or the element holding all of several, as a reference
/// listing each function in one: erl_docgen's `<article class="func">`),
/// else `<body>`, else the whole document.
fn main_content(doc: &Html) -> NodeRef<'_, Node> {
    let mut body = None;
    let mut articles: Vec<NodeRef<'_, Node>> = Vec::new();
    let is_article = |n: &NodeRef<'_, Node>| n.value().as_element().is_some_and(|e| e.name() == "article");
    for node in doc.tree.root().descendants() {
        let Some(el) = node.value().as_element() else { continue };
        let name = el.name();
        if name == "main" || el.attr("role") == Some("main") || (name == "div" && has_class(el, "body")) {
            return node;
        }
        if name == "article" && !node.ancestors().any(|a| is_article(&a)) {
            articles.push(node);
        }
        if name == "body" && body.is_none() {
            body = Some(node);
        }
    }
    let holds =
        |outer: NodeRef<'_, Node>, inner: &NodeRef<'_, Node>| inner.ancestors().any(|a| a.id() == outer.id());
    match articles.split_first() {
        Some((first, [])) => with_title(*first),
        Some((first, rest)) => first
            .ancestors()
            .find(|a| rest.iter().all(|r| holds(*a, r)))
            .or(body)
            .unwrap_or_else(|| doc.tree.root()),
        None => body.unwrap_or_else(|| doc.tree.root()),
    }
}

/// Parents climbed, at most, looking for the page's title above its one
/// `<article>` ([`with_title`]).
const MAX_TITLE_CLIMB: usize = 3;

/// The one `<article>`, or, when the page's `<h1>` stands outside it
/// (JSDoc's `<div id="main"><h1 class="page-title">` above `<section><article>`),
/// its nearest parent (below `<body>`) that holds that `<h1>` too.
fn with_title(article: NodeRef<'_, Node>) -> NodeRef<'_, Node> {
    let is_h1 = |n: NodeRef<'_, Node>| n.value().as_element().is_some_and(|e| e.name() == "h1");
    if article.descendants().any(is_h1) {
        return article;
    }
    article
        .ancestors()
        .take(MAX_TITLE_CLIMB)
        .take_while(|a| a.value().as_element().is_some_and(|e| !matches!(e.name(), "body" | "html")))
        .find(|a| a.descendants().any(is_h1))
        .unwrap_or(article)
}

fn document_title(doc: &Html) -> Option<String> {
    doc.tree
        .root()
        .descendants()
        .find(|n| n.value().as_element().is_some_and(|e| e.name() == "title"))
        .map(|n| collapse_whitespace(&plain_text(n)))
        .filter(|t| !t.is_empty())
        .or_else(|| header_title(doc))
}

/// The title a page written as a fragment names in the JSON comment it
/// starts with (Go's documentation: `<!--{"Title": "The Go Memory
/// Model", "Path": "/ref/mem"}-->`, no `<head>`); None for any other page.
fn header_title(doc: &Html) -> Option<String> {
    let first = doc.tree.root().descendants().find(|n| match n.value() {
        Node::Comment(_) => true,
        Node::Text(t) => !t.trim().is_empty(),
        Node::Element(e) => !matches!(e.name(), "html" | "head" | "body"),
        _ => false,
    })?;
    let Node::Comment(comment) = first.value() else { return None };
    let header: serde_json::Value = serde_json::from_str(comment.trim()).ok()?;
    let title = collapse_whitespace(header.get("Title")?.as_str()?);
    (!title.is_empty()).then_some(title)
}

fn heading_level(el: &Element) -> Option<u8> {
    let level = match el.name() {
        "h1" => 1,
        "h2" => 2,
        "h3" => 3,
        "h4" => 4,
        "h5" => 5,
        "h6" => 6,
        _ => return None,
    };
    // A title page's credits (DocBook's `<h3 class="author">`) are no
    // heading: the text after them is the page's, not the author's. Only
    // headings' classes are read: this runs for every element.
    (!el.classes().any(|c| CREDIT_CLASSES.contains(&c))).then_some(level)
}

/// Sphinx's description lists of API objects (`<dl class="py function">`,
/// `c type`, `std cmdoption`): a domain, then the object's type.
fn is_api_list(el: &Element) -> bool {
    let mut classes = el.attr("class").unwrap_or("").split_whitespace();
    el.name() == "dl"
        && classes.next().is_some_and(|c| API_DOMAINS.contains(&c))
        && classes.next().is_some_and(|c| !API_NOT_OBJECTS.contains(&c))
}

/// Sphinx's domains of API objects.
const API_DOMAINS: &[&str] = &["py", "c", "cpp", "js", "rst", "std", "rb", "php", "go", "http", "mat"];
/// Classes of a description list after a domain that name no object type.
const API_NOT_OBJECTS: &[&str] = &["simple", "field-list", "footnote", "citation", "glossary", "docutils"];

/// An API entry: the `<dt id>` of a Sphinx object's description (its
/// signature: `os.path.join(path, *paths)`), which starts a section of its
/// own, as a heading would, so that a name finds the entry that defines it
/// and reading it returns that entry, not the whole page.
fn api_entry(node: NodeRef<'_, Node>, el: &Element) -> bool {
    (el.name() == "dt"
        && el.id().is_some_and(|id| !id.trim().is_empty())
        && node.parent().is_some_and(is_object_list))
        || rdoc_method(node, el)
}

/// RDoc's method entry: the first `<div class="method-heading">` (its call
/// sequence, `fetch(key) → object`) of a `<div id="method-i-fetch"
/// class="method-detail">`, which names the section it starts.
fn rdoc_method(node: NodeRef<'_, Node>, el: &Element) -> bool {
    el.name() == "div"
        && has_class(el, "method-heading")
        && node
            .parent()
            .and_then(|p| p.value().as_element())
            .is_some_and(|p| has_class(p, "method-detail") && p.id().is_some_and(|id| !id.trim().is_empty()))
        && node.prev_siblings().all(|s| !s.value().is_element())
}

/// A description list of API objects: by its domain ([`is_api_list`]), or
/// one whose signatures Sphinx marks `sig-object`, in any domain an
/// extension adds (CMake's `<dl class="cmake command">`), but none of the
/// kinds that name no object.
fn is_object_list(node: NodeRef<'_, Node>) -> bool {
    let Some(dl) = node.value().as_element() else { return false };
    is_api_list(dl)
        || dl.name() == "dl"
            && !dl.classes().any(|c| API_NOT_OBJECTS.contains(&c))
            && node
                .children()
                .filter_map(|c| c.value().as_element())
                .any(|dt| dt.name() == "dt" && dt.classes().any(|c| c == "sig-object"))
}

/// Whether the `<dd>` describes an API entry ([`api_entry`]) that starts
/// a section.
fn follows_entry(node: NodeRef<'_, Node>, entries: &std::collections::HashMap<ego_tree::NodeId, u8>) -> bool {
    node.prev_siblings().find(|n| n.value().is_element()).is_some_and(|dt| entries.contains_key(&dt.id()))
}

/// Where a heading or an API entry stands: whether it or an ancestor (below
/// `root`) is skipped or chrome, and whether it is inside a caption block
/// (an admonition, an example, an `<aside>`), where it starts no section.
fn placement(node: NodeRef<'_, Node>, root: NodeRef<'_, Node>, chrome: &PageChrome) -> (bool, bool) {
    let mut caption = false;
    let mut skipped = chrome.contains(node);
    for anc in node.ancestors() {
        if anc.id() == root.id() {
            break;
        }
        if let Some(a) = anc.value().as_element() {
            skipped |= is_skipped(a) || chrome.contains(anc);
            caption |= a.classes().any(|c| CAPTION_CLASSES.contains(&c)) || a.name() == "aside";
        }
    }
    // A parameter's heading set inline in its list (mkdocstrings'
    // `<h3 class="doc-heading-parameter">`) starts no section.
    caption |= node.value().as_element().is_some_and(|e| has_class(e, "doc-heading-parameter"));
    (skipped, caption)
}

fn is_skipped(el: &Element) -> bool {
    // `matches!` on the name: this runs for every element, several times.
    let skipped_tag = matches!(
        el.name(),
        "head"
            | "script"
            | "style"
            | "noscript"
            | "template"
            | "nav"
            | "iframe"
            | "object"
            | "embed"
            | "svg"
            | "canvas"
            | "form"
            | "button"
            | "input"
            | "select"
            | "textarea"
            | "link"
            | "meta"
            | "title"
            | "colgroup"
    );
    debug_assert_eq!(skipped_tag, SKIP_TAGS.contains(&el.name()));
    skipped_tag
        || el.classes().any(|c| SKIP_CLASSES.contains(&c))
        || is_local_contents(el)
        // rustdoc's version and source link under an item's heading (its
        // `out-of-band` once), and the "ⓘ" after a signature or example.
        || el.name() == "span" && has_class(el, "sub-heading")
        || el.name() == "a" && has_class(el, "tooltip")
        // Doxygen's project banner above every page (name, logo, links).
        || el.id() == Some("titlearea")
        // Haddock's "Source" link after every signature (`<a class="link"
        // href="src/Data.Aeson.html#decode">`).
        || el.name() == "a"
            && el.attr("class") == Some("link")
            && el.attr("href").is_some_and(|h| h.starts_with("src/") || h.contains("/src/") || h.ends_with("/src"))
        // A control only a script makes work, a link to nowhere: YARD's
        // "collapse" beside each summary's heading (`<a href="#"
        // class="summary_toggle">`).
        || el.name() == "a" && el.attr("href") == Some("#") && el.classes().any(|c| c.ends_with("_toggle"))
        // The line numbers beside YARD's source listings (`<td><pre class="lines">`).
        || el.name() == "pre" && has_class(el, "lines")
        // A permalink shown as an image (Scaladoc's `<a title="Permalink"><img alt="Permalink">`).
        || el.name() == "a" && el.attr("title").is_some_and(|t| t.eq_ignore_ascii_case("permalink"))
}

/// Whether an element inside `node` is a link target (`id`, `<a name>`),
/// outside what is dropped (Doxygen's tooltips, `div.ttc`, carry ids).
fn has_targets(node: NodeRef<'_, Node>) -> bool {
    let dropped = |n: &NodeRef<'_, Node>| {
        n.ancestors()
            .take_while(|a| a.id() != node.id())
            .any(|a| a.value().as_element().is_some_and(is_skipped))
    };
    node.descendants().skip(1).any(|n| {
        n.value().as_element().is_some_and(|e| {
            (e.id().is_some() || e.name() == "a" && e.attr("name").is_some())
                && !is_skipped(e)
                && !dropped(&n)
        })
    })
}

/// Docutils' table of contents of the page itself, its "Contents" title
/// and all (`<div class="contents local topic">`): the headings it lists
/// follow. (Doxygen's `div.contents` alone is the page's text.)
fn is_local_contents(el: &Element) -> bool {
    el.name() == "div" && has_class(el, "contents") && has_class(el, "topic")
}

/// A link wrapped around a heading (Haddock's permalink `<a href="#g:6"
/// id="g:6"><h1>Insertion</h1></a>`): the heading, unlinked.
fn wraps_heading(node: NodeRef<'_, Node>, el: &Element) -> bool {
    el.name() == "a"
        && node.children().any(|c| c.value().as_element().is_some_and(|e| heading_level(e).is_some()))
}

/// A link holding nothing but a permalink marker (`<a href="#x">¶</a>`): chrome
/// whatever its class, since it only repeats the heading's anchor.
fn is_permalink(node: NodeRef<'_, Node>) -> bool {
    let Some(el) = node.value().as_element() else { return false };
    if el.name() != "a" || el.attr("href").is_none_or(|h| !h.trim_start().starts_with('#')) {
        return false;
    }
    let text = plain_text(node);
    let text = text.trim();
    !text.is_empty() && PERMALINK_MARKS.contains(&text)
}

/// What the pre-pass learns: which heading is the page's own, which headings
/// start sections, and the shallowest of those (to number levels from 2).
struct Plan<'a> {
    page_heading: Option<NodeRef<'a, Node>>,
    cuts: std::collections::HashSet<ego_tree::NodeId>,
    /// The API entries that start sections ([`api_entry`]), each with its
    /// heading level: one below the heading it falls under, one more per
    /// entry it is a member of.
    entries: std::collections::HashMap<ego_tree::NodeId, u8>,
    min_cut_level: u8,
    /// The headings' texts as a table of contents may list them ([`contents_key`]).
    heading_keys: std::collections::HashSet<String>,
    /// The questions of a FAQ written without headings ([`faq_questions`]),
    /// among the entries, each with its anchor.
    questions: std::collections::HashMap<ego_tree::NodeId, String>,
    /// The empty `<a name>` before each such question or section heading
    /// ([`targets_before`]): its anchor is the question's or the heading's.
    absorbed: std::collections::HashSet<ego_tree::NodeId>,
    /// The anchors of the empty targets right before each section heading
    /// ([`targets_before`]), nearest first.
    targets: std::collections::HashMap<ego_tree::NodeId, Vec<String>>,
}

/// A heading's text as a line of a table of contents names it: without
/// its numbering (`1.1 What is Bash?` and `What is Bash?` are one), case
/// and spacing folded.
pub(crate) fn contents_key(text: &str) -> String {
    let text = text.trim();
    let first = text.split_whitespace().next().unwrap_or("");
    let numbering = first.len() <= 12
        && first.chars().any(|c| c.is_ascii_digit())
        && first.chars().all(|c| c.is_ascii_alphanumeric() || c == '.');
    let rest = if numbering { &text[first.len()..] } else { text };
    collapse_whitespace(rest).to_lowercase()
}

/// `doc_title` is the page's `<title>`: a first heading other than an
/// `<h1>` that it does not name (Doxygen's "Public Member Functions") is a
/// section, not the page's own heading.
fn plan<'a>(root: NodeRef<'a, Node>, chrome: &mut PageChrome, doc_title: Option<&str>) -> Plan<'a> {
    let mut plan = Plan {
        page_heading: None,
        cuts: Default::default(),
        entries: Default::default(),
        min_cut_level: 6,
        heading_keys: Default::default(),
        questions: Default::default(),
        absorbed: Default::default(),
        targets: Default::default(),
    };
    let questions = faq_questions(root, chrome);
    // Several `<h1>`s, none of which `<title>` names, are the page's
    // sections (Haddock's groups, pod2html's NAME and DESCRIPTION), its
    // title `<title>`'s.
    let h1s: Vec<String> = root
        .descendants()
        .filter(|n| n.value().as_element().is_some_and(|e| e.name() == "h1") && !chrome.contains(*n))
        .map(heading_text)
        .collect();
    let h1_titles = doc_title.is_none() || h1s.len() < 2 || h1s.iter().any(|t| names_page(doc_title, t));
    let mut first = true;
    let mut banner = false;
    // The level of the last heading that starts a section (the page's own: 1).
    let mut last_level = 1u8;
    for node in root.descendants() {
        let Some(el) = node.value().as_element() else { continue };
        if api_entry(node, el) && placement(node, root, chrome) == (false, false) {
            let members =
                node.ancestors().filter(|a| is_object_list(*a)).count() + usize::from(rdoc_method(node, el));
            let level = (last_level as usize + members).min(6) as u8;
            plan.entries.insert(node.id(), level);
            plan.cuts.insert(node.id());
            plan.min_cut_level = plan.min_cut_level.min(level);
            continue;
        }
        if let Some((anchor, before)) = questions.get(&node.id()) {
            let level = (last_level + 1).min(6);
            plan.entries.insert(node.id(), level);
            plan.cuts.insert(node.id());
            plan.min_cut_level = plan.min_cut_level.min(level);
            plan.questions.insert(node.id(), anchor.clone());
            plan.absorbed.extend(*before);
            continue;
        }
        let Some(level) = heading_level(el) else {
            // Before any heading, a title block that `<title>` names
            // (Doxygen's `<div class="title">`) is the page's heading.
            if first
                && is_title_block(el)
                && !chrome.contains(node)
                && !node.ancestors().filter_map(|a| a.value().as_element()).any(is_skipped)
                && titles_block(doc_title, &heading_text(node))
            {
                plan.page_heading = Some(node);
                first = false;
            }
            continue;
        };
        let (skipped, caption) = placement(node, root, chrome);
        // A heading with no text (an anchor target, an emptied permalink)
        // starts nothing, nor does the caption of a list of contents, nor a
        // label over the page's title (gi-docgen's `<header><h3>Method</h3><h1>`).
        if captions_contents(node) || labels_title(node) {
            continue;
        }
        if skipped || is_skipped(el) {
            // After a site's banner `<h1>`, the page's own heading may be an `<h2>`.
            banner |= first && level == 1 && chrome.contains(node);
            continue;
        }
        let text = heading_text(node);
        if text.is_empty() || is_footnote_number(node, &text) {
            continue;
        }
        // Before the page's own heading, a heading that is a link (SQLite's
        // "SQLite C Interface" above each function's page) is a breadcrumb.
        // (A link to the heading's own place, Haddock's `<a href="#g:6"
        // id="g:6"><h1>Insertion</h1></a>`, is a permalink.)
        if first && !names_page(doc_title, &text) {
            let link = node.ancestors().take_while(|a| a.id() != root.id()).find(|a| {
                a.value()
                    .as_element()
                    .is_some_and(|e| e.name() == "a" && e.attr("href").is_some_and(|h| !h.starts_with('#')))
            });
            if let Some(link) = link {
                chrome.dropped.insert(link.id());
                continue;
            }
        }
        // A numbered `<h1>` ("1. Syntax") that `<title>` does not name is the
        // first section of a page whose title is `<title>`'s.
        // (A manual page's NAME heading is its first section, not its
        // title: pod2html's pages without a `<title>`.)
        let own = !crate::manpage::is_name_heading(&text)
            && ((level == 1 && h1_titles && (!is_numbered(&text) || names_page(doc_title, &text)))
                || (banner && level == 2)
                || names_page(doc_title, &text));
        if std::mem::take(&mut first) && own {
            plan.page_heading = Some(node);
        } else if !caption {
            last_level = level;
            let before = targets_before(node);
            if !before.is_empty() {
                plan.absorbed.extend(before.iter().map(|t| t.0));
                plan.targets.insert(node.id(), before.into_iter().map(|t| t.1).collect());
            }
            plan.cuts.insert(node.id());
            plan.min_cut_level = plan.min_cut_level.min(level);
            plan.heading_keys.insert(contents_key(&text));
        }
    }
    plan
}

/// A FAQ's questions ([`faq_questions`]): each paragraph's anchor, and the
/// empty `<a name>` before it that held the anchor, if one did.
type Questions = std::collections::HashMap<ego_tree::NodeId, (String, Option<ego_tree::NodeId>)>;

/// Fewest questions that make a page a FAQ ([`faq_questions`]).
const MIN_FAQ_QUESTIONS: usize = 3;
/// Longest question ([`faq_questions`]), in chars.
const MAX_QUESTION_CHARS: usize = 300;

/// The questions of a FAQ written without headings (SQLite's `faq.html`):
/// paragraphs that are bold and nothing else (`<p><b>(12) I deleted a lot
/// of data but the database file did not get any smaller…</b></p>`), each
/// at an anchor that the page's own list of questions links to
/// (`href="#q12"`): the paragraph's id, one inside it, or an empty `<a
/// name>` right before it (then also returned). Each starts a section, as
/// a heading would, so a question finds its answer rather than the whole
/// page. A page with fewer than [`MIN_FAQ_QUESTIONS`] has none; a
/// paragraph with a class is none.
fn faq_questions(root: NodeRef<'_, Node>, chrome: &PageChrome) -> Questions {
    let linked: std::collections::HashSet<&str> = root
        .descendants()
        .filter_map(|n| n.value().as_element()?.attr("href")?.strip_prefix('#'))
        .filter(|a| !a.is_empty())
        .collect();
    if linked.len() < MIN_FAQ_QUESTIONS {
        return Default::default();
    }
    let bold =
        |n: NodeRef<'_, Node>| n.value().as_element().is_some_and(|e| matches!(e.name(), "b" | "strong"));
    let mut found = std::collections::HashMap::new();
    for node in root.descendants() {
        let Some(el) = node.value().as_element() else { continue };
        // (A classed paragraph is the generator's: DocBook's `p.title` over a
        // table or an example.)
        if el.name() != "p" || el.attr("class").is_some() || !node.children().any(bold) {
            continue;
        }
        let only_bold = node.children().all(|c| match c.value() {
            Node::Text(t) => t.trim().is_empty(),
            Node::Element(e) => {
                matches!(e.name(), "b" | "strong") || (e.name() == "a" && plain_text(c).trim().is_empty())
            }
            _ => true,
        });
        if !only_bold {
            continue;
        }
        let text = collapse_whitespace(&plain_text(node));
        if text.is_empty()
            || text.chars().count() > MAX_QUESTION_CHARS
            || placement(node, root, chrome) != (false, false)
        {
            continue;
        }
        let before = targets_before(node).into_iter().next();
        let (anchor, absorbed) = match (heading_anchor(node), before) {
            (Some(own), _) => (own, None),
            (None, Some((b, id))) => (id, Some(b)),
            (None, None) => continue,
        };
        if linked.contains(anchor.as_str()) {
            found.insert(node.id(), (anchor, absorbed));
        }
    }
    if found.len() < MIN_FAQ_QUESTIONS {
        found.clear();
    }
    found
}

/// True when `container` is the parent of `heading` (of `level`) and holds
/// no other heading but deeper ones: the element is that heading's
/// section, not a wrapper of several.
fn holds_one_section(container: NodeRef<'_, Node>, heading: NodeRef<'_, Node>, level: u8) -> bool {
    heading.parent().is_some_and(|p| p.id() == container.id())
        && container.descendants().all(|d| {
            d.id() == heading.id() || d.value().as_element().and_then(heading_level).is_none_or(|l| l > level)
        })
}

/// Parents climbed, at most, looking for the empty targets before a heading
/// that opens them ([`targets_before`]).
const MAX_TARGET_CLIMB: usize = 3;

/// The empty link targets (`<a name="g-strdup"></a>`, Doxygen's `<a
/// id="a8bfd…"></a>`: no `href`, no text) right before a heading or a
/// question, nearest first, with nothing but space and comments between;
/// also those before the elements the heading opens (Javadoc's `<a
/// name="isBlank-…"></a><ul><li><h4>`). A link to one lands on the
/// heading, so it is the heading's anchor, not the end of the section
/// before.
fn targets_before(node: NodeRef<'_, Node>) -> Vec<(ego_tree::NodeId, String)> {
    let blank = |n: &NodeRef<'_, Node>| match n.value() {
        Node::Text(t) => t.trim().is_empty(),
        Node::Comment(_) => true,
        _ => false,
    };
    let mut out = Vec::new();
    let mut at = node;
    for _ in 0..=MAX_TARGET_CLIMB {
        for sibling in at.prev_siblings().filter(|n| !blank(n)) {
            let Some(el) = sibling.value().as_element() else { return out };
            let id = el.id().or_else(|| el.attr("name"));
            match id {
                Some(id)
                    if el.name() == "a"
                        && el.attr("href").is_none()
                        && plain_text(sibling).trim().is_empty() =>
                {
                    out.push((sibling.id(), id.to_owned()))
                }
                _ => return out,
            }
        }
        // Nothing but targets before it: they may stand before its parent too.
        match at.parent() {
            Some(parent)
                if parent.value().as_element().is_some_and(|e| !matches!(e.name(), "body" | "html")) =>
            {
                at = parent
            }
            _ => break,
        }
    }
    out
}

/// The `<a id="…"></a>` tags of a converted block, and the rest of it.
fn split_anchor_tags(md: &str) -> (String, String) {
    let (mut ids, mut rest) = (String::new(), String::new());
    let mut left = md;
    while let Some(at) = left.find("<a id=\"") {
        let Some(end) = left[at..].find("</a>").map(|e| at + e + 4) else { break };
        rest.push_str(&left[..at]);
        ids.push_str(&left[at..end]);
        left = &left[end..];
    }
    rest.push_str(left);
    (ids, rest)
}

/// Whether Markdown is nothing but links to fragments of the page at
/// `page_path` (and separators between them).
fn only_links_into(md: &str, page_path: &str) -> bool {
    let (mut rest, mut links) = (md, 0usize);
    let mut between = String::new();
    while let Some(open) = rest.find('[') {
        between.push_str(&rest[..open]);
        let Some(mid) = rest[open..].find("](").map(|m| open + m) else { return false };
        let Some(close) = rest[mid..].find(')').map(|c| mid + c) else { return false };
        let url = rest[mid + 2..close].trim_matches(['<', '>']);
        if !url.strip_prefix(page_path).is_some_and(|f| f.starts_with('#')) {
            return false;
        }
        links += 1;
        rest = &rest[close + 1..];
    }
    between.push_str(rest);
    links > 0 && between.chars().all(|c| c.is_whitespace() || "|•·,;/-–—".contains(c))
}

/// A block marked as a page's title without being a heading: a `<div>`
/// of class `title` (Doxygen) or `…_title`, `…-title` (SQLite's
/// `fancy_title`), or an element with the ARIA role `heading`
/// at level 1.
fn is_title_block(el: &Element) -> bool {
    let titled = |c: &str| c.split(['-', '_']).any(|w| w.eq_ignore_ascii_case("title"));
    (el.name() == "div" && el.classes().any(titled))
        || (el.attr("role") == Some("heading") && el.attr("aria-level").is_none_or(|l| l.trim() == "1"))
}

/// Whether `<title>` names a title block's text: all of it, or all but a
/// site name before or after a separator ("LMDB: Getting Started"); any
/// text when the page has no `<title>`.
fn titles_block(doc_title: Option<&str>, text: &str) -> bool {
    // (A page with no `<title>`, Doxygen's under a custom header: the block.)
    let Some(doc_title) = doc_title else { return !text.trim().is_empty() };
    let (title, text) = (collapse_whitespace(doc_title).to_lowercase(), text.to_lowercase());
    !text.is_empty() && (title == text || title.ends_with(&text) || title.starts_with(&text))
}

/// Whether a page's `<title>` (if it has one) names a heading of it, its
/// section number aside (texinfo's "2 Installation" is the page
/// "Installation (GNU gettext utilities)").
fn names_page(doc_title: Option<&str>, heading: &str) -> bool {
    let heading = heading.to_lowercase();
    let unnumbered = heading.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.').trim_start();
    let unnumbered = if unnumbered.is_empty() { heading.as_str() } else { unnumbered };
    doc_title.is_none_or(|t| collapse_whitespace(t).to_lowercase().contains(unnumbered))
}

/// Whether a heading starts with a section number: `1.`, `2.3`, `10 `.
fn is_numbered(heading: &str) -> bool {
    let rest = heading.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    rest.len() < heading.len()
        && heading.starts_with(|c: char| c.is_ascii_digit())
        && rest.starts_with(char::is_whitespace)
}

/// Whether an element is a footnote's mark: a superscript or a footnote
/// link (`<a href="#FOOT1"><sup>1</sup></a>`, `<sup><a href="#fn1">1</a></sup>`,
/// Sphinx's `<a class="footnote-reference" href="#id3">[1]</a>`) whose text is
/// a number or a sign (`[2]`, `(3)`, `*`, `†`) and which links to a place of
/// the page.
fn is_note_mark(node: NodeRef<'_, Node>, el: &Element) -> bool {
    let marked = match el.name() {
        "sup" => {
            local_link(node) || node.descendants().any(local_link) || node.ancestors().take(2).any(local_link)
        }
        "a" => {
            local_link(node)
                && (el.classes().any(|c| c.contains("footnote") || c.contains("noteref"))
                    || node.children().any(|c| c.value().as_element().is_some_and(|e| e.name() == "sup")))
        }
        _ => false,
    };
    marked && {
        let text = plain_text(node);
        let mark = text.trim().trim_start_matches(['[', '(']).trim_end_matches([']', ')']);
        (1..=3).contains(&mark.len()) && mark.chars().all(|c| c.is_ascii_digit())
            || matches!(mark, "*" | "†" | "‡" | "§")
    }
}

/// Whether a heading is a footnote's number over its text (Texinfo's
/// `<h5><a id="FOOT1" href="#DOCF1">(1)</a></h5>`, linking back to its
/// mark): it starts no section, and the notes stay in their "Footnotes".
fn is_footnote_number(node: NodeRef<'_, Node>, text: &str) -> bool {
    let number = text.trim_start_matches(['[', '(']).trim_end_matches([']', ')']);
    (1..=4).contains(&number.len())
        && number.chars().all(|c| c.is_ascii_digit())
        && node.descendants().any(local_link)
}

/// Whether `node` is a link to a place of its own page (`<a href="#x">`).
fn local_link(node: NodeRef<'_, Node>) -> bool {
    node.value()
        .as_element()
        .is_some_and(|e| e.name() == "a" && e.attr("href").is_some_and(|h| h.starts_with('#')))
}

/// Scaladoc's summary of a member (`<p class="shortcomment">`) when the
/// whole comment follows it (`<div class="fullcomment">`, shown in its
/// place): the text once.
fn is_short_copy(node: NodeRef<'_, Node>, el: &Element) -> bool {
    has_class(el, "shortcomment")
        && node
            .next_siblings()
            .filter_map(|n| n.value().as_element())
            .next()
            .is_some_and(|e| has_class(e, "fullcomment"))
}

/// Badges set beside a member's name in its heading, no part of the name:
/// TypeDoc's `<code class="tsd-tag">Optional</code>`, mkdocstrings' `<span
/// class="doc doc-labels">` (`class-attribute`).
const HEADING_BADGES: [&str; 2] = ["tsd-tag", "doc-labels"];

fn is_heading_badge(el: &Element) -> bool {
    el.classes().any(|c| HEADING_BADGES.contains(&c))
}

/// A heading's text without its `#`/`¶` permalink, nor its badges
/// ([`HEADING_BADGES`]).
fn heading_text(node: NodeRef<'_, Node>) -> String {
    let mut out = String::new();
    for child in title_children(node) {
        if child.value().as_element().is_some_and(is_heading_badge) {
            continue;
        }
        collect_text(child, &mut out, true);
    }
    collapse_whitespace(&out)
}

/// True for a label set beside a name that is a word of its own (Doxygen's
/// `inline`, JSDoc's `opt` after an optional parameter).
fn is_label(el: &Element) -> bool {
    el.name() == "span" && (has_class(el, "mlabel") || has_class(el, "signature-attributes"))
}

/// A heading's children; for a title block that is not a heading element,
/// without the blocks nested in it (the breadcrumb of groups Doxygen puts
/// under a page's title).
fn title_children(node: NodeRef<'_, Node>) -> impl Iterator<Item = NodeRef<'_, Node>> {
    let is_heading = node.value().as_element().is_some_and(|e| heading_level(e).is_some());
    node.children()
        .filter(move |c| is_heading || c.value().as_element().is_none_or(|e| !BLOCK_TAGS.contains(&e.name())))
}

/// All text below `node` (skipping chrome when `skip_chrome`), iteratively.
fn collect_text(node: NodeRef<'_, Node>, out: &mut String, skip_chrome: bool) {
    let mut edges = node.traverse();
    while let Some(edge) = edges.next() {
        if let ego_tree::iter::Edge::Open(n) = edge {
            match n.value() {
                Node::Text(t) => out.push_str(t),
                Node::Element(e) if skip_chrome && (is_skipped(e) || is_permalink(n)) => {
                    // Jump past the whole subtree.
                    for e2 in edges.by_ref() {
                        if let ego_tree::iter::Edge::Close(c) = e2
                            && c.id() == n.id()
                        {
                            break;
                        }
                    }
                }
                Node::Element(e) if e.name() == "br" => out.push('\n'),
                // A block inside a heading starts a word (rustdoc's `where`
                // clause: `f: F) where F: FnMut`).
                Node::Element(e) if BLOCK_TAGS.contains(&e.name()) => out.push(' '),
                // (As `inline` writes them: docutils' classifier, gi-docgen's separator.)
                Node::Element(e) if e.name() == "span" && has_class(e, "classifier") => out.push_str(" : "),
                Node::Element(_) if is_separator(n) => out.push('.'),
                // (Set apart from the word before it; what follows it is
                // punctuation, or set apart by the next label.)
                Node::Element(e) if is_label(e) => out.push(' '),
                _ => {}
            }
        }
    }
}

fn plain_text(node: NodeRef<'_, Node>) -> String {
    let mut out = String::new();
    collect_text(node, &mut out, false);
    out
}

/// A name block's purpose line split at its dash (`VACUUM — garbage-collect
/// and optionally analyze a database`): the names and what they do.
fn purpose_line(line: &str) -> Option<(&str, &str)> {
    line.split_once(" — ").or_else(|| line.split_once(" -- "))
}

/// Longest purpose line kept as a description.
const MAX_PURPOSE_BYTES: usize = 500;

/// What a DocBook reference page's name block (`div.refnamediv`) says: its
/// SQL command names (the title and the names listed before the dash in its
/// purpose line), and what the page does (the purpose line after the dash,
/// `garbage-collect and optionally analyze a database`, `定义访问特权`: the
/// page's description).
fn refentry(root: NodeRef<'_, Node>) -> (Vec<Symbol>, Option<String>) {
    let Some(div) = root
        .descendants()
        .find(|n| n.value().as_element().is_some_and(|e| e.name() == "div" && has_class(e, "refnamediv")))
    else {
        return (Vec::new(), None);
    };
    let mut names: Vec<String> = Vec::new();
    let mut description = None;
    for child in div.children() {
        let Some(el) = child.value().as_element() else { continue };
        if heading_level(el).is_some() {
            names.push(heading_text(child));
        } else if el.name() == "p" {
            let line = collapse_whitespace(&plain_text(child));
            if let Some((head, purpose)) = purpose_line(&line) {
                names.extend(head.split(',').map(|s| s.trim().to_owned()));
                let purpose = purpose.trim();
                if description.is_none() && !purpose.is_empty() && purpose.len() <= MAX_PURPOSE_BYTES {
                    description = Some(nfc(purpose));
                }
            }
        }
    }
    let mut symbols: Vec<Symbol> = Vec::new();
    for name in names {
        let name = nfc(&name);
        if !name.is_empty() && name.len() <= 200 && !symbols.iter().any(|s| s.name == name) {
            symbols.push(Symbol { name, kind: "Command".to_owned(), anchor: None, entry: None });
        }
    }
    (symbols, description)
}

/// Most definition-list terms taken as symbols from one page.
const MAX_TERM_SYMBOLS: usize = 2000;

/// A page's entry symbols as a generator marks them, each name once, at
/// most [`MAX_TERM_SYMBOLS`].
#[derive(Default)]
struct Entries {
    symbols: Vec<Symbol>,
    named: HashSet<String>,
}

impl Entries {
    /// Adds `name` at `anchor` unless the page already names it; false once
    /// the page has as many as it may.
    fn add(&mut self, name: &str, anchor: &str) -> bool {
        let name = nfc(name);
        if !name.is_empty() && self.named.insert(name.clone()) {
            self.symbols.push(Symbol {
                name,
                kind: "Entry".to_owned(),
                anchor: Some(anchor.to_owned()),
                entry: None,
            });
        }
        self.symbols.len() < MAX_TERM_SYMBOLS
    }
}

/// Terms of definition lists that name a thing in code, with an id to link
/// to (DocBook's `<dt id="GUC-WORK-MEM"><code>work_mem</code> (integer)`,
/// API descriptions): their code name becomes a symbol at that anchor.
fn term_symbols(root: NodeRef<'_, Node>) -> Vec<Symbol> {
    let mut entries = Entries::default();
    for node in root.descendants() {
        let Some(el) = node.value().as_element() else { continue };
        let Some(id) = term_anchor(node, el) else { continue };
        // The term must start with its code name.
        let Some(code) = node.descendants().skip(1).find(|d| {
            d.value().as_element().is_some_and(|e| matches!(e.name(), "code" | "tt"))
                && !plain_text(*d).trim().is_empty()
        }) else {
            continue;
        };
        let name = collapse_whitespace(&plain_text(code));
        let is_code = collapse_whitespace(&plain_text(node)).starts_with(&name);
        let identifier = !name.is_empty()
            && name.len() <= 100
            && name.chars().all(|c| c.is_alphanumeric() || "_.:-".contains(c));
        // (Sphinx's id is the name qualified, `django.db.models.query.QuerySet.update`
        // for `update`: the name a reader finds it by as a member.)
        let qualified = id.strip_suffix(name.as_str()).is_some_and(|q| q.ends_with('.') && q.len() > 1);
        if is_code && identifier && (!entries.add(&name, id) || (qualified && !entries.add(id, id))) {
            break;
        }
    }
    entries.symbols
}

/// The id of a definition term: its own, or that of the empty anchor it
/// opens with (Asciidoctor's `<dt class="hdlist1"><a id="driftfile"></a>`).
fn term_anchor<'a>(node: NodeRef<'a, Node>, el: &'a Element) -> Option<&'a str> {
    if el.name() != "dt" {
        return None;
    }
    el.id().or_else(|| {
        let first = node.children().find(|c| !matches!(c.value(), Node::Text(t) if t.trim().is_empty()))?;
        let a = first.value().as_element().filter(|a| a.name() == "a" && a.attr("href").is_none())?;
        a.id().or_else(|| a.attr("name")).filter(|_| !first.has_children())
    })
}

/// Tags a help file defines as it marks them, a named anchor and the tag
/// in bold (vim2html's `*<A NAME="'tabstop'"></A><B>'tabstop'</B>*`, an
/// Asciidoctor list's `<a id="option_X"></a> <strong>X</strong>`), each at
/// its anchor; an option's quoted tag also names it bare (`tabstop`).
fn tag_symbols(root: NodeRef<'_, Node>) -> Vec<Symbol> {
    let mut entries = Entries::default();
    for node in root.descendants() {
        let Some(el) = node.value().as_element() else { continue };
        if el.name() != "a" || el.attr("href").is_some() || node.has_children() {
            continue;
        }
        let Some(anchor) = el.attr("name").or_else(|| el.id()) else { continue };
        // The bold after it, across a space.
        let bold = node
            .next_siblings()
            .find(|n| !matches!(n.value(), Node::Text(t) if t.trim().is_empty()))
            .filter(|b| b.value().as_element().is_some_and(|e| matches!(e.name(), "b" | "strong")));
        let Some(name) = bold.map(plain_text) else { continue };
        // The tag itself, or a name its anchor ends with after a kind
        // (Asciidoctor's `<a id="option_irc.look.color_nicks"></a>
        // <strong>irc.look.color_nicks</strong>`).
        let kind =
            anchor.strip_suffix(name.as_str()).filter(|k| k.is_empty() || k.ends_with(['_', '-', ':']));
        if kind.is_none() || name.len() > 100 || name.contains(char::is_whitespace) {
            continue;
        }
        // An option's tag is its name in quotes (`'tabstop'`): typed bare too.
        let bare = name.strip_prefix('\'').and_then(|n| n.strip_suffix('\''));
        if !entries.add(&name, anchor) || bare.is_some_and(|bare| !entries.add(bare, anchor)) {
            break;
        }
    }
    entries.symbols
}

/// An empty `span.sep` between parts of a name, a separator its stylesheet
/// draws (gi-docgen's `Gtk<span class="sep"></span>Widget`): a `.` as text.
fn is_separator(node: NodeRef<'_, Node>) -> bool {
    node.value().as_element().is_some_and(|e| e.name() == "span" && has_class(e, "sep"))
        && !node.has_children()
}

/// The name a page's `<h1>` writes in parts a stylesheet separates
/// (gi-docgen's `Gtk<span class="sep"></span>Window:title`, shown
/// `Gtk.Window:title`), both as shown and as C writes it, its parts joined
/// (`GtkWindow:title`, `GtkAlign`): the page's own names.
fn separated_names(root: NodeRef<'_, Node>) -> Vec<Symbol> {
    let Some(h1) = root
        .descendants()
        .find(|n| n.value().as_element().is_some_and(|e| e.name() == "h1") && n.children().any(is_separator))
    else {
        return Vec::new();
    };
    let shown = heading_text(h1);
    let mut joined = String::new();
    for child in h1.children().filter(|c| !is_separator(*c)) {
        collect_text(child, &mut joined, true);
    }
    let joined = collapse_whitespace(&joined);
    let named = |t: &str| !t.is_empty() && t.len() <= 100 && !t.contains(char::is_whitespace);
    [shown, joined]
        .into_iter()
        .filter(|t| named(t))
        .map(|name| Symbol { name: nfc(&name), kind: "Entry".to_owned(), anchor: None, entry: None })
        .collect()
}

/// Haddock's definitions (`<a id="v:insert" class="def">insert</a>`,
/// `t:Maybe`), named in their module when the page is titled by it
/// (`Data.Map.insert`; an operator `(++)` as `++`), each at its id.
fn haddock_symbols(root: NodeRef<'_, Node>, title: &str) -> Vec<Symbol> {
    let module = title.trim();
    let qualify = module.starts_with(|c: char| c.is_ascii_uppercase())
        && module.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
    let mut entries = Entries::default();
    for node in root.descendants() {
        let Some(el) = node.value().as_element() else { continue };
        if el.name() != "a" || !has_class(el, "def") {
            continue;
        }
        let Some(id) = el.id().filter(|id| id.starts_with("v:") || id.starts_with("t:")) else { continue };
        let text = collapse_whitespace(&plain_text(node));
        let operator = text.strip_prefix('(').and_then(|t| t.strip_suffix(')'));
        let name = match operator {
            Some(op) => op.to_owned(),
            None if qualify && text.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '\'') => {
                format!("{module}.{text}")
            }
            None => text,
        };
        if name.len() <= 100 && !entries.add(&name, id) {
            break;
        }
    }
    entries.symbols
}

/// The members a Doxygen page lists in its summary tables (`<tr
/// class="memitem:ID">`, the name first in its right cell, as a link or in
/// bold), each at its anchor: those documented only by a line there have
/// no section of their own (`static Options Default ()`, a `#define`).
/// On a class's or namespace's page a name is qualified by it
/// (`cereal::JSONOutputArchive::Options::NoIndent`).
fn doxygen_members(root: NodeRef<'_, Node>, title: &str) -> Vec<Symbol> {
    const OWNERS: [&str; 6] = [
        " Class Reference",
        " Struct Reference",
        " Union Reference",
        " Namespace Reference",
        " Class Template Reference",
        " Struct Template Reference",
    ];
    let owner = OWNERS
        .iter()
        .find_map(|suffix| title.trim().strip_suffix(suffix))
        .map(|owner| owner.split('<').next().unwrap_or(owner).trim())
        .filter(|owner| !owner.is_empty() && !owner.contains(char::is_whitespace));
    let mut entries = Entries::default();
    for node in root.descendants() {
        let Some(el) = node.value().as_element() else { continue };
        let Some(id) = el.attr("class").and_then(|c| c.strip_prefix("memitem:")).filter(|id| !id.is_empty())
        else {
            continue;
        };
        if el.name() != "tr" {
            continue;
        }
        let right = node.children().find(|c| {
            c.value()
                .as_element()
                .is_some_and(|e| has_class(e, "memItemRight") || has_class(e, "memTemplItemRight"))
        });
        let Some(name) = right.and_then(|cell| {
            cell.descendants().find(|d| {
                d.value()
                    .as_element()
                    .is_some_and(|e| e.name() == "b" || (e.name() == "a" && has_class(e, "el")))
            })
        }) else {
            continue;
        };
        let name = collapse_whitespace(&plain_text(name));
        let name = match owner {
            Some(owner) if !name.contains("::") => format!("{owner}::{name}"),
            _ => name,
        };
        if name.len() <= 200 && !entries.add(&name, id) {
            break;
        }
    }
    entries.symbols
}

/// The characters (spaces aside) of an element's text outside the lists it
/// holds, counted up to one past `limit` (and past it when the element holds
/// more than [`MAX_CONTENTS_NODES`] nodes), so that asking costs little
/// however large the element is.
fn outside_lists(node: NodeRef<'_, Node>, limit: usize) -> usize {
    let mut count = 0usize;
    for child in node.children() {
        if child.value().as_element().is_some_and(|e| matches!(e.name(), "ul" | "ol" | "dl")) {
            continue;
        }
        count += visible_chars(child, limit - count.min(limit));
        if count > limit {
            break;
        }
    }
    count
}

/// The characters (spaces aside) of the text below `node`, counted up to one
/// past `limit`, looking at no more than [`MAX_CONTENTS_NODES`] nodes.
fn visible_chars(node: NodeRef<'_, Node>, limit: usize) -> usize {
    let mut count = 0usize;
    for (seen, n) in node.descendants().enumerate() {
        if seen >= MAX_CONTENTS_NODES {
            return limit + 1;
        }
        if let Node::Text(t) = n.value() {
            count += t.chars().filter(|c| !c.is_whitespace()).take(limit + 1 - count.min(limit)).count();
            if count > limit {
                return count;
            }
        }
    }
    count
}

/// A section being written.
struct SectionBuf {
    anchor: Option<String>,
    title: String,
    /// How the breadcrumbs of the sections below name it: its title, or an
    /// API entry's signature without its parameters (`class click.Context`).
    crumb: String,
    level: u8,
    markdown: String,
    text: String,
}

impl SectionBuf {
    fn lead(title: &str) -> Self {
        SectionBuf {
            anchor: None,
            title: title.to_owned(),
            crumb: title.to_owned(),
            level: 1,
            markdown: String::new(),
            text: String::new(),
        }
    }
}

/// Inline content of the paragraph being built: Markdown and plain text side by side.
#[derive(Default)]
struct Inline {
    md: String,
    text: String,
    /// The trailing space came from a line break in the source: dropped again
    /// when it turns out to sit next to CJK text (which does not use spaces).
    soft: bool,
    /// Whitespace the content started with (`"\n"` when it held a line break).
    lead: Option<&'static str>,
}

impl Inline {
    /// Writes `md` (already Markdown) as a link to `url` (a site path or a
    /// URL, in angle brackets where it holds a space or a bracket).
    fn push_link(&mut self, md: &str, url: String) {
        let url = if url.contains([' ', '(', ')']) { format!("<{url}>") } else { url };
        self.bang_before_link();
        self.md.push_str(&format!("[{md}]({url})"));
    }

    /// Escapes a `!` the Markdown ends with, which a link written next would
    /// turn into an image (rustdoc's `impl !Send for Demand`).
    fn bang_before_link(&mut self) {
        let bangs = self.md.len() - self.md.trim_end_matches('!').len();
        let escaped = self.md[..self.md.len() - bangs].ends_with('\\');
        if bangs > 0 && !(bangs == 1 && escaped) {
            self.md.pop();
            self.md.push_str("\\!");
        }
    }

    fn space(&mut self) {
        if !self.md.is_empty() && !self.md.ends_with([' ', '\n']) {
            self.md.push(' ');
        }
        if !self.text.is_empty() && !self.text.ends_with([' ', '\n']) {
            self.text.push(' ');
        }
    }

    /// A whitespace run from the source.
    fn source_space(&mut self, run: &str) {
        let had_space = self.md.ends_with(' ');
        if self.md.is_empty() && self.lead.is_none() {
            self.lead = Some(if run.contains(['\n', '\r']) { "\n" } else { " " });
        }
        self.space();
        if !had_space && run.contains(['\n', '\r']) {
            self.soft = true;
        }
    }

    /// Called before content starting with `first` is appended.
    fn content(&mut self, first: Option<char>) {
        if self.soft {
            let before = self.text.trim_end_matches(' ').chars().next_back();
            if let (Some(before), Some(first)) = (before, first)
                && joins_across_break(before, first)
            {
                if self.md.ends_with(' ') {
                    self.md.pop();
                }
                if self.text.ends_with(' ') {
                    self.text.pop();
                }
            }
        }
        self.soft = false;
    }

    /// Appends HTML text with its whitespace collapsed.
    fn push_text(&mut self, raw: &str) {
        let mut rest = raw;
        while !rest.is_empty() {
            let ws_len = rest.find(|c: char| !c.is_whitespace()).unwrap_or(rest.len());
            if ws_len > 0 {
                self.source_space(&rest[..ws_len]);
                rest = &rest[ws_len..];
                continue;
            }
            let word_len = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = &rest[..word_len];
            self.content(word.chars().next());
            escape_md_into(word, &mut self.md);
            self.text.push_str(word);
            rest = &rest[word_len..];
        }
    }

    fn is_blank(&self) -> bool {
        self.text.trim().is_empty() && self.md.trim().is_empty()
    }
}

/// Whether a line break in the source between `before` and `after` stands
/// for nothing: between two characters of text written without spaces
/// between its words (Han and kana: 本节介绍\n如何 is one run), or beside
/// CJK punctuation (。，「」), which carries its own spacing. Between Han or
/// kana and a Latin letter or digit it is a space, as between two Latin
/// words (`in\nメーリングリスト`, `Unix\n的`): po4a and other wrappers
/// break lines only where a space was. Hangul is CJK to the index but not
/// here: Korean puts spaces between words.
fn joins_across_break(before: char, after: char) -> bool {
    (is_unspaced(before) && is_unspaced(after)) || is_wide_punctuation(before) || is_wide_punctuation(after)
}

/// Han, kana, and fullwidth letters and digits (ＣＰＵ, １２), which Japanese
/// sets as it sets kana.
fn is_unspaced(c: char) -> bool {
    (is_cjk(c) && !is_hangul(c)) || (is_wide_form(c) && c.is_alphanumeric())
}

/// CJK symbols and punctuation (、。「」〜), fullwidth ones (，！：) and
/// halfwidth ones (｡｢｣).
fn is_wide_punctuation(c: char) -> bool {
    is_wide_form(c) && !c.is_alphanumeric()
}

/// The CJK symbols and punctuation block and the fullwidth and halfwidth
/// forms but halfwidth Katakana and Hangul.
fn is_wide_form(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x303F | 0xFF00..=0xFF65 | 0xFFE0..=0xFFEF)
}

/// Escapes the characters that would turn prose into Markdown syntax.
fn escape_md_into(word: &str, out: &mut String) {
    let chars: Vec<char> = word.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let prev = if i == 0 { None } else { chars.get(i - 1) };
        let next = chars.get(i + 1);
        let escape = match c {
            '\\' | '`' | '*' | '[' | ']' => true,
            '_' => !(prev.is_some_and(|p| p.is_alphanumeric()) && next.is_some_and(|n| n.is_alphanumeric())),
            '<' => next.is_some_and(|n| n.is_alphabetic() || matches!(n, '/' | '!' | '?')),
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Escapes a paragraph's first character if it would start a block construct.
fn escape_block_start(md: &str) -> String {
    let first = md.chars().next();
    let needs = match first {
        Some('#' | '>' | '-' | '+' | '=' | '|' | '~') => true,
        Some(c) if c.is_ascii_digit() => {
            let digits = md.bytes().take_while(u8::is_ascii_digit).count();
            matches!(md.as_bytes().get(digits), Some(b'.' | b')'))
        }
        _ => false,
    };
    if !needs {
        return md.to_owned();
    }
    if first.is_some_and(|c| c.is_ascii_digit()) {
        let digits = md.bytes().take_while(u8::is_ascii_digit).count();
        format!("{}\\{}", &md[..digits], &md[digits..])
    } else {
        format!("\\{md}")
    }
}

struct Converter<'a, 'p> {
    prefix: &'a str,
    /// The language part the tree's page names drop (`.ru`): a link to
    /// `basic-defs.ru.html` leads to the page `basic-defs`.
    language: Option<&'a str>,
    rel_file: &'a str,
    /// A file in the folder the page's `<base href>` names, when it names
    /// one of the tree: relative links are read from there.
    base: Option<&'a str>,
    page_path: &'a str,
    plan: &'a Plan<'p>,
    chrome: &'a PageChrome,
    title: &'a str,
    sections: Vec<SectionBuf>,
    para: Inline,
    /// Line prefixes of the enclosing list items and quotes.
    prefixes: Vec<String>,
    /// A list marker waiting for the first line of the next block.
    marker: Option<String>,
    /// The id of the nearest enclosing element not yet claimed by a heading.
    pending_id: Option<(ego_tree::NodeId, String)>,
    slugger: Slugger,
    /// The anchors of the sections so far.
    section_anchors: HashSet<String>,
    /// The last block written was a list item's first (so far only) block:
    /// the next item follows without a blank line.
    last_item_single: bool,
    /// The line prefix of the last block written.
    last_prefix: String,
    /// `<a id>` tags for ids no heading took, written at the start of the next block.
    anchors_due: String,
    /// Inside a heading: its ids go to `anchors_due`, not into its title.
    in_heading: bool,
    /// Inside an API entry's signature: its links to the page's other
    /// entries (a parameter's type) stay links.
    in_signature: bool,
    /// The page's own heading is written (what comes before it may be a
    /// table of contents).
    title_done: bool,
    /// No heading came since the page's own.
    next_to_title: bool,
    /// Inside a table of contents: its blocks are written, not searched.
    in_contents: bool,
    /// Terms the page marks where it defines them, with their sections.
    defined: crate::defined::Defined,
    /// The anchor of the section each heading started, by the heading's
    /// node (a heading the plan cuts at may start none: the title again).
    started: HashMap<ego_tree::NodeId, String>,
}

impl<'p> Converter<'_, 'p> {
    fn current(&mut self) -> &mut SectionBuf {
        if self.sections.is_empty() {
            self.sections.push(SectionBuf::lead(self.title));
        }
        let last = self.sections.len() - 1;
        &mut self.sections[last]
    }

    /// An id no heading will take: kept as an `<a id>` at the next block.
    fn keep_id(&mut self, id: &str) {
        self.anchors_due.push_str(&anchor_tag(id));
    }

    /// The enclosing element's id, when content comes before any heading.
    fn release_pending_id(&mut self) {
        if let Some((_, id)) = self.pending_id.take() {
            self.keep_id(&id);
        }
    }

    /// Writes the kept ids as a block of their own.
    fn emit_due_anchors(&mut self) {
        self.release_pending_id();
        if !self.anchors_due.is_empty() {
            let due = std::mem::take(&mut self.anchors_due);
            self.emit_block(&due, "");
        }
    }

    /// Writes a finished block (already Markdown) with the current prefixes,
    /// the ids kept so far at its start (before it, for a heading, code
    /// block or table, whose first line they would break).
    fn emit_block(&mut self, md: &str, text: &str) {
        // Links to the page's own sections above its title (Doxygen's
        // "Macros | Functions" summary) or before its first section
        // (SQLite's table of contents) are a table of contents, not
        // content: only their ids stay.
        let before_title = self.plan.page_heading.is_some() && !self.title_done;
        let before_sections = self.sections.len() <= 1 && !self.plan.cuts.is_empty();
        if before_title || before_sections {
            let (ids, rest) = split_anchor_tags(md);
            // (Ids alone, Sphinx's `<span id>` before its `<h1>`, leave the
            // enclosing element's id to the heading.)
            if only_links_into(&rest, self.page_path) || rest.trim().is_empty() {
                self.anchors_due.push_str(&ids);
                return;
            }
        }
        self.release_pending_id();
        if !self.anchors_due.is_empty() {
            let due = std::mem::take(&mut self.anchors_due);
            if md.starts_with(['#', '|']) || md.starts_with("```") || md.starts_with("~~~") {
                self.emit_block(&due, "");
            } else {
                return self.emit_block(&format!("{due}{md}"), text);
            }
        }
        let prefix: String = self.prefixes.concat();
        let marker = self.marker.take();
        let sec_md_empty = self.current().markdown.is_empty();
        let tight = marker.is_some() && self.last_item_single;
        self.last_item_single = marker.is_some();
        let mut out = String::with_capacity(md.len() + 16);
        if !sec_md_empty && !tight {
            // The blank line belongs to the containers both blocks share.
            let shared = common_prefix(&self.last_prefix, &prefix);
            out.push_str(shared.trim_end());
            out.push('\n');
        }
        self.last_prefix.clone_from(&prefix);
        for (i, line) in md.lines().enumerate() {
            if i == 0
                && let Some(m) = &marker
            {
                let outer = prefix.len().saturating_sub(m.len());
                out.push_str(prefix.get(..outer).unwrap_or(""));
                out.push_str(m);
            } else if line.is_empty() {
                out.push_str(prefix.trim_end());
            } else {
                out.push_str(&prefix);
            }
            out.push_str(line);
            out.push('\n');
        }
        let searched = !self.in_contents;
        let sec = self.current();
        sec.markdown.push_str(&out);
        if searched && !text.trim().is_empty() {
            // A list item's marker, indented as in the Markdown: a reader
            // of the text sees the steps' numbers and what is under what.
            if let Some(m) = &marker {
                let outer = prefix.get(..prefix.len().saturating_sub(m.len())).unwrap_or("");
                if outer.trim().is_empty() {
                    sec.text.push_str(outer);
                }
                sec.text.push_str(m);
            }
            sec.text.push_str(text);
            sec.text.push('\n');
        }
    }

    /// Ends the paragraph being built.
    fn flush(&mut self) {
        if self.para.is_blank() {
            self.para = Inline::default();
            return;
        }
        let para = std::mem::take(&mut self.para);
        let md = escape_block_start(para.md.trim());
        let md: String = md.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n");
        let md = md.lines().map(escape_block_start).collect::<Vec<_>>().join("\n");
        self.emit_block(&md, para.text.trim());
    }

    fn block_children(&mut self, node: NodeRef<'p, Node>, depth: usize) {
        for child in node.children() {
            self.block(child, depth + 1);
        }
    }

    fn block(&mut self, node: NodeRef<'p, Node>, depth: usize) {
        match node.value() {
            Node::Text(t) => {
                if !t.trim().is_empty() {
                    self.release_pending_id();
                }
                let mut para = std::mem::take(&mut self.para);
                para.push_text(t);
                self.para = para;
            }
            Node::Element(el) => {
                if depth > MAX_DEPTH {
                    let mut para = std::mem::take(&mut self.para);
                    para.push_text(&plain_text(node));
                    self.para = para;
                    return;
                }
                if is_skipped(el)
                    || is_permalink(node)
                    || is_short_copy(node, el)
                    || self.chrome.contains(node)
                    || self.plan.absorbed.contains(&node.id())
                    || (heading_level(el).is_some() && captions_contents(node))
                {
                    return;
                }
                // An inline element's id is written where it stands (see `inline`).
                let block = is_block_element(el);
                let heading = heading_level(el).is_some() || self.plan.entries.contains_key(&node.id());
                if let Some(id) = el.id().filter(|_| block && !heading) {
                    // Its id starts here: what came before is not under it.
                    self.flush();
                    self.release_pending_id();
                    self.pending_id = Some((node.id(), id.to_owned()));
                } else if has_class(el, "refsynopsisdiv") {
                    // DocBook gives the synopsis no id; use one stable across translations.
                    self.pending_id = Some((node.id(), "synopsis".to_owned()));
                }
                self.element(node, el, depth);
                if self.pending_id.as_ref().is_some_and(|(n, _)| *n == node.id())
                    && let Some((_, id)) = self.pending_id.take()
                    && el.id() == Some(id.as_str())
                {
                    // An element no heading took the id of: it stays as an anchor.
                    self.keep_id(&id);
                }
            }
            _ => {}
        }
    }

    fn element(&mut self, node: NodeRef<'p, Node>, el: &Element, depth: usize) {
        if !self.in_contents && self.is_contents(node, el) {
            // A list of other pages repeats their titles: a search for
            // those words should find the pages, not the list.
            self.flush();
            self.in_contents = true;
            self.element(node, el, depth);
            self.flush();
            self.in_contents = false;
            return;
        }
        let name = el.name();
        if let Some(level) = heading_level(el) {
            self.heading(node, level);
        } else if self.plan.page_heading.is_some_and(|h| h.id() == node.id()) {
            self.heading(node, 1);
        } else if let Some(&level) = self.plan.entries.get(&node.id()) {
            self.heading(node, level);
        } else if name == "dd" && follows_entry(node, &self.plan.entries) {
            // An entry's description is its section's text, not indented
            // under the list it stands in (its heading is not either).
            self.flush();
            let outer = std::mem::take(&mut self.prefixes);
            self.block_children(node, depth);
            self.flush();
            self.prefixes = outer;
        } else if name == "pre" {
            self.flush();
            self.code_block(node);
        } else if name == "div" && has_class(el, "fragment") && !has_targets(node) {
            self.flush();
            self.fragment(node);
        } else if name == "table" {
            self.flush();
            if let Some(admonition) = crate::admonition::graphical(node) {
                return self.admonition(admonition, depth);
            }
            match layout_cells(node) {
                Some(cells) => {
                    for cell in cells {
                        self.block_children(cell, depth + 1);
                        self.flush();
                    }
                }
                None => self.table(node),
            }
        } else if (name == "ul" || name == "ol") && lays_out_sections(node) {
            // javadoc's `<ul class="blockList"><li>` around each section.
            self.flush();
            for child in node.children() {
                self.block_children(child, depth + 1);
                self.flush();
            }
        } else if name == "ul" || name == "ol" || name == "menu" {
            self.flush();
            let mut n = 0usize;
            for child in node.children() {
                let is_li = child.value().as_element().is_some_and(|e| e.name() == "li");
                if is_li {
                    n += 1;
                    let marker = if name == "ol" { format!("{n}. ") } else { "- ".to_owned() };
                    self.item(child, marker, depth);
                } else {
                    self.block(child, depth + 1);
                }
            }
            self.flush();
        } else if name == "li" || name == "dt" {
            self.flush();
            self.item(node, "- ".to_owned(), depth);
        } else if name == "dd" {
            self.flush();
            self.prefixes.push("  ".to_owned());
            self.block_children(node, depth);
            self.flush();
            self.prefixes.pop();
        } else if name == "blockquote" {
            self.flush();
            self.prefixes.push("> ".to_owned());
            self.block_children(node, depth);
            self.flush();
            self.prefixes.pop();
        } else if name == "hr" {
            self.flush();
        } else if name == "br" {
            self.para.md.push('\n');
            self.para.text.push('\n');
        } else if BLOCK_TAGS.contains(&name) || name == "dl" || wraps_heading(node, el) {
            self.flush();
            self.block_children(node, depth);
            self.flush();
        } else {
            let mut para = std::mem::take(&mut self.para);
            self.inline(node, el, &mut para, depth);
            self.para = para;
        }
    }

    /// A note DocBook set as a table ([`crate::admonition`]) reads as the
    /// same note without graphics: its label a caption (a bold line, as
    /// its `<h3 class="title">` is), then its text; the icon left out.
    fn admonition(&mut self, admonition: crate::admonition::Admonition<'p>, depth: usize) {
        if let Some(label) = admonition.label {
            // Neither the page's heading nor a section's: a caption.
            self.heading(label, 6);
        }
        for cell in admonition.body {
            self.block_children(cell, depth + 1);
            self.flush();
        }
    }

    /// A table of contents: marked so (DocBook's `div.toc`, Sphinx's
    /// `toctree-wrapper`), or a list of at least two items each of which is
    /// a link to another page of the tree (not to a part of one) and at most
    /// a short line after it.
    fn is_contents(&self, node: NodeRef<'p, Node>, el: &Element) -> bool {
        if CONTENTS_CLASSES.iter().any(|c| has_class(el, c)) {
            // Sphinx's single-page build puts every document, headings and
            // all, inside its `toctree-wrapper`: that is the text, not a list
            // of it. A caption ("Contents") is no such heading.
            return captioned_contents(node).is_some();
        }
        if !matches!(el.name(), "ul" | "ol" | "dl") {
            return false;
        }
        let mut items = 0usize;
        for child in node.children() {
            match child.value() {
                Node::Text(t) if t.trim().is_empty() => {}
                Node::Element(e) if e.name() == "dd" => {
                    if outside_lists(child, MAX_CONTENTS_TAIL) > MAX_CONTENTS_TAIL {
                        return false;
                    }
                }
                Node::Element(e) if matches!(e.name(), "li" | "dt") => {
                    if !self.is_contents_line(child) {
                        return false;
                    }
                    items += 1;
                }
                Node::Comment(_) => {}
                _ => return false,
            }
        }
        items >= 2
    }

    /// An item whose first words are a link to another page of the tree as
    /// a whole, or to a part of this page by that part's heading (texinfo's
    /// `section-toc`, a contents list at a page's top), followed by at most
    /// a short line (nested lists aside).
    fn is_contents_line(&self, item: NodeRef<'p, Node>) -> bool {
        let Some(first) = item
            .descendants()
            .take(MAX_CONTENTS_NODES)
            .find(|n| n.value().as_text().is_some_and(|t| !t.trim().is_empty()))
        else {
            return false;
        };
        let Some(link) = first
            .ancestors()
            .take_while(|a| a.id() != item.id())
            .find(|a| a.value().as_element().is_some_and(|e| e.name() == "a" && e.attr("href").is_some()))
        else {
            return false;
        };
        let href = link.value().as_element().and_then(|e| e.attr("href")).unwrap_or("");
        let link_text = visible_chars(link, MAX_CONTENTS_LINK);
        let names_heading = || {
            link_text < MAX_CONTENTS_LINK
                && crate::links::own_fragment(href, self.rel_file).is_some()
                && self.plan.heading_keys.contains(&contents_key(&heading_text(link)))
        };
        if !crate::links::names_other_page(href, self.rel_file, &is_html) && !names_heading() {
            return false;
        }
        outside_lists(item, link_text + MAX_CONTENTS_TAIL).saturating_sub(link_text) <= MAX_CONTENTS_TAIL
    }

    fn item(&mut self, node: NodeRef<'p, Node>, marker: String, depth: usize) {
        // A list item's own id (mdBook's footnotes, `<li id="footnote-1">`)
        // is where links to it land: kept at the item's first block.
        if let Some(id) = node.value().as_element().filter(|e| e.name() == "li").and_then(Element::id) {
            self.keep_id(id);
        }
        self.prefixes.push(" ".repeat(marker.len()));
        self.marker = Some(marker);
        self.block_children(node, depth);
        self.flush();
        if self.marker.take().is_some() {
            // An empty item still shows its marker.
            self.prefixes.pop();
            return;
        }
        self.prefixes.pop();
    }

    fn heading(&mut self, node: NodeRef<'p, Node>, level: u8) {
        self.flush();
        let mut inline = Inline::default();
        let question = self.plan.questions.get(&node.id()).cloned();
        let entry = self.plan.entries.contains_key(&node.id()) && question.is_none();
        self.in_heading = true;
        self.in_signature = entry;
        for child in title_children(node) {
            self.inline_node(child, &mut inline, 0);
        }
        self.in_heading = false;
        self.in_signature = false;
        let md_title = collapse_whitespace(&inline.md);
        // A question's bold is what made it a heading: not kept in it.
        let md_title = match md_title.strip_prefix("**").and_then(|t| t.strip_suffix("**")) {
            Some(inner) if question.is_some() && !inner.contains("**") => inner.to_owned(),
            _ => md_title,
        };
        let title = nfc(&heading_text(node));
        if title.is_empty() {
            // Never an empty heading; its id stays for the heading that follows.
            return;
        }
        let own = question.or_else(|| heading_anchor(node));
        let mut before = self.plan.targets.get(&node.id()).cloned().unwrap_or_default();
        if let Some(own) = &own {
            // Taken by the heading, not kept twice.
            self.anchors_due = self.anchors_due.replace(&anchor_tag(own), "");
        }
        if self.plan.page_heading.is_some_and(|h| h.id() == node.id()) {
            let id = own.or_else(|| self.pending_id.take().map(|(_, id)| id));
            self.release_pending_id();
            let attr = id.as_deref().filter(|a| is_plain_anchor(a)).map(|a| format!(" {{#{a}}}"));
            if let (Some(id), None) = (&id, &attr) {
                self.keep_id(id);
            }
            // The page's Markdown starts with its title; ids written before
            // it (nothing else was) follow it.
            let mut due = String::new();
            // What came before the title (Javadoc's package line) follows it.
            let mut before = None;
            if self.sections.len() == 1 && self.sections[0].text.trim().is_empty() {
                let lead = std::mem::take(&mut self.sections[0].markdown);
                due = lead.lines().map(str::trim).collect();
            } else if self.sections.len() == 1 && self.prefixes.is_empty() {
                let lead = &mut self.sections[0];
                before = Some((std::mem::take(&mut lead.markdown), std::mem::take(&mut lead.text)));
            }
            due.push_str(&std::mem::take(&mut self.anchors_due));
            self.title_done = true;
            self.next_to_title = true;
            self.emit_block(&format!("# {md_title}{}", attr.unwrap_or_default()), &title);
            if let Some((md, text)) = before {
                self.emit_block(md.trim_end(), text.trim_end());
            }
            self.anchors_due = due;
            return;
        }
        if !self.plan.cuts.contains(&node.id()) {
            // A caption (Note, Example...): a bold line, not a section.
            if let Some(id) = own {
                self.keep_id(&id);
            }
            if !md_title.is_empty() {
                self.emit_block(&format!("**{md_title}**"), &title);
            }
            return;
        }
        // The page's title again right below it, an `<h1>` too (texinfo's
        // Top node under its `settitle`): one heading, its id kept.
        if std::mem::take(&mut self.next_to_title)
            && level == 1
            && self.sections.len() == 1
            && title.eq_ignore_ascii_case(self.title)
            && collapse_whitespace(&self.sections[0].text).eq_ignore_ascii_case(self.title)
        {
            for id in own.or_else(|| self.pending_id.take().map(|(_, id)| id)).iter().chain(&before) {
                self.keep_id(id);
            }
            return;
        }
        before.extend(self.take_trailing_ids());
        let (anchor, ids) = self.section_ids(node, level, own, before, &title);
        let level = (level + 2).saturating_sub(self.plan.min_cut_level).clamp(2, 6);
        let hashes = "#".repeat(level as usize);
        let attr = if is_plain_anchor(&anchor) { format!(" {{#{anchor}}}") } else { String::new() };
        let own_tag = (!is_plain_anchor(&anchor)).then(|| anchor_tag(&anchor));
        let saved_prefixes = std::mem::take(&mut self.prefixes);
        self.marker = None;
        let crumb = match title.split_once('(') {
            Some((name, _)) if entry && !name.trim().is_empty() => name.trim().to_owned(),
            _ => title.clone(),
        };
        self.started.insert(node.id(), anchor.clone());
        self.sections.push(SectionBuf {
            anchor: Some(anchor),
            title: title.clone(),
            crumb,
            level,
            markdown: String::new(),
            text: String::new(),
        });
        // The other ids open the heading, so a link to one shows it; so
        // does its own where no `{#id}` can hold it (YARD's `xhr?-instance_method`).
        let others: String = own_tag.into_iter().chain(ids.iter().map(|id| anchor_tag(id))).collect();
        self.emit_block(&format!("{hashes} {others}{md_title}{attr}"), &title);
        self.prefixes = saved_prefixes;
    }

    /// The ids written last before a heading, nothing after them: those
    /// due, and those the section so far ends with (texinfo 6's `<span
    /// id="Bash-Variables-1"></span>`, its node's `<div id>` given up at the
    /// node's navigation line). They stand right before the heading, so a
    /// link to one is a link to it: taken off the section before.
    fn take_trailing_ids(&mut self) -> Vec<String> {
        let mut ids = Vec::new();
        if let Some(last) = self.sections.last_mut() {
            let md = last.markdown.trim_end();
            let start = md.rfind("\n\n").map_or(0, |i| i + 2);
            let (tags, rest) = split_anchor_tags(&md[start..]);
            if !tags.is_empty() && rest.trim().is_empty() {
                ids = crate::links::html_anchors(&tags);
                last.markdown.truncate(start);
            }
        }
        let due = std::mem::take(&mut self.anchors_due);
        ids.extend(crate::links::html_anchors(&due));
        ids
    }

    /// A section heading's anchor, and its other ids (written on its line):
    /// the id of the element it opens when that element is its section
    /// (Javadoc's `<section id="notNull(T)"><h3
    /// id="notNull(java.lang.Object)">`, texinfo's node `<div id="Intro">`:
    /// what the generator's own links name), else its own id (`own`), else
    /// that of the element it opens (`<div id="content">` around the page),
    /// else the nearest target `before` it, else a slug of its `title`.
    fn section_ids(
        &mut self,
        node: NodeRef<'p, Node>,
        level: u8,
        own: Option<String>,
        before: Vec<String>,
        title: &str,
    ) -> (String, Vec<String>) {
        let (container, pending) = self.pending_id.take().unzip();
        let container = container.and_then(|n| node.tree().get(n));
        let first = match (container, &own) {
            (Some(container), Some(_)) if holds_one_section(container, node, level) => pending.clone(),
            _ => own.clone(),
        };
        let mut ids: Vec<String> = Vec::new();
        for id in first.into_iter().chain(own).chain(pending).chain(before) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        let anchor = if ids.is_empty() { self.slugger.slug(title) } else { ids.remove(0) };
        // An id an earlier section has already (LibreOffice's help repeats
        // one on a page's every "Syntax"): a link to it goes to the first,
        // and this section gets an anchor of its own.
        let anchor = if self.section_anchors.insert(anchor.clone()) {
            anchor
        } else {
            let own = self.slugger.unique(anchor);
            self.section_anchors.insert(own.clone());
            own
        };
        self.slugger.reserve(&anchor);
        (anchor, ids)
    }

    fn code_block(&mut self, node: NodeRef<'p, Node>) {
        // (A control inside the block, rustdoc's "Show 73 methods", is none of the code.)
        let mut raw = String::new();
        collect_text(node, &mut raw, true);
        let code = raw.strip_prefix("\r\n").or_else(|| raw.strip_prefix('\n')).unwrap_or(&raw);
        let code = code.trim_end();
        if code.trim().is_empty() {
            return;
        }
        // The ids inside it (Sphinx viewcode's `<div class="viewcode-block"
        // id="BaseCommand">`) stay where links land, before it.
        for id in node.descendants().skip(1).filter_map(|d| d.value().as_element()?.id()).take(MAX_CODE_IDS) {
            self.keep_id(id);
        }
        let longest = longest_run(code, '`');
        let fence = "`".repeat(longest.max(2) + 1);
        let language = code_language(node).unwrap_or_default();
        self.emit_block(&format!("{fence}{language}\n{code}\n{fence}"), code);
    }

    /// Doxygen's code fragment: a `div.fragment` of `div.line`s, one per
    /// line of code (their line numbers, `span.lineno`, left out), set as
    /// a code block as a `<pre>` is: the names it links stay as written. (A
    /// source listing, whose lines are link targets, stays as it is.)
    fn fragment(&mut self, node: NodeRef<'p, Node>) {
        let mut lines: Vec<String> = Vec::new();
        for line in node.children() {
            let Some(el) = line.value().as_element() else { continue };
            if !has_class(el, "line") {
                continue;
            }
            let mut text = String::new();
            for part in line.children() {
                if !part.value().as_element().is_some_and(|e| has_class(e, "lineno")) {
                    collect_text(part, &mut text, true);
                }
            }
            lines.push(text.replace('\n', " ").trim_end().to_owned());
        }
        let code = lines.join("\n");
        if code.trim().is_empty() {
            return;
        }
        let fence = "`".repeat(longest_run(&code, '`').max(2) + 1);
        self.emit_block(&format!("{fence}\n{code}\n{fence}"), &code);
    }

    fn table(&mut self, node: NodeRef<'p, Node>) {
        let mut rows: Vec<(bool, Vec<Inline>)> = Vec::new();
        self.collect_rows(node, &mut rows, false, 0);
        rows.retain(|(_, cells)| !cells.is_empty());
        if rows.is_empty() {
            return;
        }
        let width = rows.iter().map(|(_, c)| c.len()).max().unwrap_or(1);
        let cell_md = |c: &Inline| collapse_whitespace(&c.md.replace('|', "\\|"));
        let cell_text = |c: &Inline| collapse_whitespace(&c.text);
        let line = |cells: &[Inline]| {
            let mut s = String::from("|");
            for i in 0..width {
                s.push(' ');
                s.push_str(&cells.get(i).map(cell_md).unwrap_or_default());
                s.push_str(" |");
            }
            s
        };
        let header_rows = rows.iter().take_while(|(head, _)| *head).count().max(1);
        let divider: String = std::iter::once("|").chain(std::iter::repeat_n(" --- |", width)).collect();
        let mut lines: Vec<String> = rows.iter().map(|(_, cells)| line(cells)).collect();
        lines.insert(header_rows.min(lines.len()), divider);
        // Markdown tables have one header row; further header rows follow the divider.
        if header_rows > 1 {
            let extra: Vec<String> = lines.drain(1..header_rows).collect();
            let at = 2;
            for (k, l) in extra.into_iter().enumerate() {
                lines.insert(at + k, l);
            }
        }
        let md = lines.join("\n");
        let text: Vec<String> = rows
            .iter()
            .map(|(_, cells)| {
                cells.iter().map(cell_text).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" | ")
            })
            .filter(|l| !l.is_empty())
            .collect();
        self.emit_block(&md, &text.join("\n"));
    }

    fn collect_rows(
        &mut self,
        node: NodeRef<'p, Node>,
        rows: &mut Vec<(bool, Vec<Inline>)>,
        in_head: bool,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        for child in node.children() {
            let Some(el) = child.value().as_element() else { continue };
            if self.chrome.contains(child) {
                continue;
            }
            match el.name() {
                "tr" => {
                    let mut cells = Vec::new();
                    let mut all_th = true;
                    // The row's id lands in its first cell, a cell's in itself.
                    let mut row_id = el.id().map(anchor_tag);
                    for cell in child.children() {
                        let Some(ce) = cell.value().as_element() else { continue };
                        if (ce.name() != "td" && ce.name() != "th") || is_skipped(ce) {
                            continue;
                        }
                        all_th &= ce.name() == "th";
                        let mut inline = Inline::default();
                        if let Some(tag) = row_id.take() {
                            inline.md.push_str(&tag);
                        }
                        if let Some(id) = ce.id() {
                            inline.md.push_str(&anchor_tag(id));
                        }
                        for c in cell.children() {
                            self.inline_node(c, &mut inline, depth + 1);
                        }
                        cells.push(inline);
                    }
                    rows.push((in_head || (rows.is_empty() && all_th && !cells.is_empty()), cells));
                }
                "thead" => self.collect_rows(child, rows, true, depth + 1),
                "tbody" | "tfoot" => self.collect_rows(child, rows, false, depth + 1),
                "caption" => {}
                _ => {}
            }
        }
    }

    fn inline_node(&mut self, node: NodeRef<'p, Node>, out: &mut Inline, depth: usize) {
        match node.value() {
            Node::Text(t) => out.push_text(t),
            Node::Element(el) => {
                if is_skipped(el)
                    || is_permalink(node)
                    || self.chrome.contains(node)
                    || self.plan.absorbed.contains(&node.id())
                {
                    return;
                }
                if depth > MAX_DEPTH {
                    out.push_text(&plain_text(node));
                    return;
                }
                self.inline(node, el, out, depth);
            }
            _ => {}
        }
    }

    fn inline_children(&mut self, node: NodeRef<'p, Node>, out: &mut Inline, depth: usize) {
        for child in node.children() {
            self.inline_node(child, out, depth + 1);
        }
    }

    fn inline(&mut self, node: NodeRef<'p, Node>, el: &Element, out: &mut Inline, depth: usize) {
        // `<a name>` is a target with or without an `href` (texi2html puts both on its table of contents).
        let name_anchor = if el.name() == "a" { el.attr("name") } else { None };
        if let Some(id) = el.id().or(name_anchor).filter(|id| !id.is_empty()) {
            if self.in_heading {
                self.keep_id(id);
            } else {
                out.md.push_str(&anchor_tag(id));
            }
        }
        // A footnote's mark (`award-winning<a href="#FOOT1"><sup>1</sup></a>`)
        // is a word of its own in the text, not the end of the word before.
        if is_note_mark(node, el) && !out.text.is_empty() && !out.text.ends_with([' ', '\n']) {
            out.text.push(' ');
        }
        match el.name() {
            // Texinfo's empty category before a definition (`@deftypefn {}
            // celldisp`: `<span class="category">: </span>`) says nothing.
            "span" if has_class(el, "category") && plain_text(node).trim() == ":" => {}
            // One of several alternatives a script shows one of (LibreOffice's
            // `Command` on a Mac, `Ctrl` elsewhere), or one of Doxygen's
            // labels set side by side (`inline` `static`): a word of its own.
            // A badge before a member's name in its heading (TypeDoc's
            // `<code class="tsd-tag">Optional</code>`) is no part of the name.
            _ if self.in_heading && is_heading_badge(el) => {}
            // (And elsewhere a word of its own, as JSDoc's `opt` after an
            // optional parameter's name is.)
            // (So is a form's label: MkDocs Material's tab titles, `<label
            // for="__tabbed_1_1">Markdown</label><label …>HTML Result</label>`.)
            _ if el.attr("hidden").is_some()
                || is_label(el)
                || has_class(el, "tsd-tag")
                || el.name() == "label" =>
            {
                out.space();
                self.inline_children(node, out, depth);
                // (A label is followed by punctuation or the next label:
                // `opts opt, task`.)
                if !is_label(el) {
                    out.space();
                }
            }
            "code" | "tt" | "kbd" | "samp" => {
                let code = collapse_whitespace(&plain_text(node));
                if code.is_empty() {
                    return;
                }
                let ticks = "`".repeat(longest_run(&code, '`') + 1);
                let pad = if code.starts_with('`') || code.ends_with('`') { " " } else { "" };
                out.content(code.chars().next());
                let span = format!("{ticks}{pad}{code}{pad}{ticks}");
                // Code that is one link (DocBook's `<code><a class="link"
                // href="split.html">split()</a></code>`) links the code.
                let href = sole_link(node).filter(|h| !self.unlinks_fragment(h));
                match href.and_then(|href| self.rewrite_link(href)) {
                    Some(url) => out.push_link(&span, url),
                    None => out.md.push_str(&span),
                }
                out.text.push_str(&code);
            }
            "em" | "i" | "cite" | "dfn" | "var" => {
                if !self.in_contents
                    && crate::defined::is_definition(el)
                    && let Some(term) = crate::defined::term(node)
                {
                    let anchor = self.current().anchor.clone();
                    self.defined.add(term, anchor.as_deref());
                }
                self.wrapped(node, out, "*", depth)
            }
            "strong" | "b" => self.wrapped(node, out, "**", depth),
            // What a stylesheet writes between parts (docutils' `name : type`
            // in a parameter list, gi-docgen's `Gtk.Widget.show`) is text.
            "span" if has_class(el, "classifier") => {
                out.push_text(" : ");
                self.inline_children(node, out, depth);
            }
            "span" if is_separator(node) => out.push_text("."),
            "a" => self.link(node, el, out, depth),
            "img" => self.image(el, out),
            "br" => {
                out.md.push('\n');
                out.text.push('\n');
            }
            "pre" | "table" | "ul" | "ol" | "dl" | "li" | "dt" | "dd" | "tr" | "td" | "th" => {
                out.space();
                self.inline_children(node, out, depth);
                out.space();
            }
            name if BLOCK_TAGS.contains(&name) || heading_level(el).is_some() => {
                out.space();
                self.inline_children(node, out, depth);
                out.space();
            }
            _ => self.inline_children(node, out, depth),
        }
    }

    fn wrapped(&mut self, node: NodeRef<'p, Node>, out: &mut Inline, mark: &str, depth: usize) {
        let mut inner = Inline::default();
        self.inline_children(node, &mut inner, depth);
        let md = inner.md.trim();
        if md.is_empty() {
            out.push_text(&inner.text);
            return;
        }
        if let Some(run) = inner.lead {
            out.source_space(run);
        }
        out.content(inner.text.trim().chars().next());
        if md.contains(mark) || md.contains('\n') {
            out.md.push_str(md);
        } else {
            // Right after another emphasis's `*` (`<em>a</em><strong>b</strong>`)
            // the stars would run together (`*a***b**`) and show as text:
            // underscores mark this one.
            let mark =
                if out.md.ends_with('*') && !md.contains('_') { &mark.replace('*', "_") } else { mark };
            out.md.push_str(&format!("{mark}{md}{mark}"));
        }
        out.text.push_str(inner.text.trim());
        if inner.md.ends_with(' ') {
            out.source_space(if inner.soft { "\n" } else { " " });
        }
    }

    fn link(&mut self, node: NodeRef<'p, Node>, el: &Element, out: &mut Inline, depth: usize) {
        let mut inner = Inline::default();
        self.inline_children(node, &mut inner, depth);
        let md = inner.md.trim();
        if md.is_empty() {
            return;
        }
        if let Some(run) = inner.lead {
            out.source_space(run);
        }
        out.content(inner.text.trim().chars().next());
        let href = el.attr("href").map(str::trim);
        // A script's control with no word on it ("[−]" collapsing the docs),
        // or leading nowhere but to a script ("► Table Of Contents"), shows nothing.
        let scripted =
            href.is_some_and(|h| h.get(..11).is_some_and(|s| s.eq_ignore_ascii_case("javascript:")));
        // Doxygen's "More..." after each brief description of a summary
        // table points to the description below: no word of the page.
        let more = matches!(inner.text.trim(), "More..." | "More…" | "more..." | "more…");
        if (scripted && !inner.text.chars().any(char::is_alphanumeric))
            || (href.is_none() && el.attr("onclick").is_some())
            || more
        {
            return;
        }
        let unlinked = el.classes().any(|c| UNLINKED_CLASSES.contains(&c))
            || href.is_some_and(|h| self.unlinks_fragment(h));
        match el.attr("href").filter(|_| !unlinked).and_then(|h| self.rewrite_link(h)) {
            Some(url) if !md.contains('\n') => out.push_link(md, url),
            _ => out.md.push_str(md),
        }
        out.text.push_str(inner.text.trim());
        if inner.md.ends_with(' ') {
            out.source_space(if inner.soft { "\n" } else { " " });
        }
    }

    /// Whether a link to `href` keeps its text only: a heading's link to its
    /// own or another fragment of the page (mdBook's `a.header`, a back link
    /// to the contents), unless the heading is an API signature.
    fn unlinks_fragment(&self, href: &str) -> bool {
        self.in_heading && !self.in_signature && href.starts_with('#')
    }

    /// An image of the tree becomes `![alt](site path)` (the site serves the
    /// file there); any other keeps only its alt text.
    fn image(&mut self, el: &Element, out: &mut Inline) {
        let alt = el.attr("alt").unwrap_or("");
        let src = el.attr("src").or_else(|| el.attr("srcset").and_then(|s| s.split_whitespace().next()));
        let url = src.and_then(|s| self.rewrite_link(s)).filter(|u| {
            u.starts_with('/')
                && crate::assets::content_type(u.split(['?', '#']).next().unwrap_or("")).is_some()
        });
        match url {
            Some(url) => {
                out.content(alt.chars().next().or(Some('!')));
                let alt = collapse_whitespace(alt).replace(['[', ']', '\\'], "");
                let url = if url.contains([' ', '(', ')', '<', '>']) { format!("<{url}>") } else { url };
                out.md.push_str(&format!("![{alt}]({url})"));
                out.text.push_str(&alt);
            }
            None => out.push_text(alt),
        }
    }

    /// `sql-createindex.html#X` → `{prefix}/sql-createindex#X`; external and
    /// root-absolute links and links climbing out of the tree kept; scripts dropped (None).
    fn rewrite_link(&self, href: &str) -> Option<String> {
        let href = href.trim();
        if href.is_empty() || href.len() > 2048 {
            return None;
        }
        let lower = href.to_ascii_lowercase();
        if lower.starts_with("javascript:") || lower.starts_with("data:") || lower.starts_with("vbscript:") {
            return None;
        }
        if let Some(rest) = href.strip_prefix("//") {
            return Some(format!("https://{rest}"));
        }
        let scheme_end = href.find(':');
        let first_sep = href.find(['/', '?', '#']).unwrap_or(href.len());
        if scheme_end.is_some_and(|i| i < first_sep) {
            return Some(href.to_owned());
        }
        let (path_q, fragment) = match href.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (href, None),
        };
        let path = path_q.split('?').next().unwrap_or("");
        if path.starts_with('/') {
            // A file-system or site-absolute path is not a file of this tree:
            // kept as written (never put under the edition's prefix), for
            // the reader to resolve against the pages it has.
            return Some(href.to_owned());
        }
        let target = if path.is_empty() {
            self.page_path.to_owned()
        } else {
            // A link climbing out of the tree is kept as written: the
            // reader reads it against the folder the tree was installed from.
            let from = self.base.unwrap_or(self.rel_file);
            let Some(resolved) = paths::resolve(from, path) else { return Some(href.to_owned()) };
            let resolved = match self.language {
                Some(language) => paths::without_language(&resolved, language),
                None => resolved,
            };
            if is_html(&resolved) || resolved.is_empty() {
                paths::page_path(self.prefix, &resolved)
            } else {
                paths::join(self.prefix, &resolved)
            }
        };
        Some(match fragment {
            Some(f) if !f.is_empty() => format!("{target}#{f}"),
            _ => target,
        })
    }

    /// Cleans up: tidy texts, compute breadcrumbs, drop a blank lead.
    fn finish(mut self) -> Vec<Section> {
        if self.sections.len() > 1
            && self.sections[0].text.trim().is_empty()
            && self.sections[0].markdown.trim().is_empty()
        {
            self.sections.remove(0);
        }
        let mut stack: Vec<(u8, String)> = Vec::new();
        let mut out = Vec::with_capacity(self.sections.len());
        for s in self.sections {
            let breadcrumb = if s.anchor.is_none() {
                Vec::new()
            } else {
                while stack.last().is_some_and(|(l, _)| *l >= s.level) {
                    stack.pop();
                }
                let mut b = vec![self.title.to_owned()];
                b.extend(stack.iter().map(|(_, t)| t.clone()));
                // A heading that repeats the one above (the page's title
                // again as its first `##`) is one step, not two.
                b.dedup();
                stack.push((s.level, s.crumb));
                b
            };
            out.push(Section {
                anchor: s.anchor,
                title: s.title,
                level: s.level,
                breadcrumb,
                markdown: s.markdown,
                text: tidy(&s.text),
            });
        }
        out
    }
}

/// The cells of a table that only lays out a block (texi2html's
/// `<table><tr><td>&nbsp;</td><td><pre class="example">`, gtk-doc's title
/// `<table><tr><td><h2>…</h2><p>…`): one row, a code block, list or heading
/// in it. Its cells are read as blocks, not as a table.
fn layout_cells(table: NodeRef<'_, Node>) -> Option<Vec<NodeRef<'_, Node>>> {
    let mut rows = Vec::new();
    for child in table.children() {
        match child.value().as_element().map(Element::name) {
            Some("tr") => rows.push(child),
            Some("tbody" | "thead" | "tfoot") => {
                rows.extend(
                    child.children().filter(|r| r.value().as_element().is_some_and(|e| e.name() == "tr")),
                );
            }
            _ => {}
        }
        if rows.len() > 1 {
            return None;
        }
    }
    let row = rows.first()?;
    let cells: Vec<NodeRef<'_, Node>> = row
        .children()
        .filter(|c| c.value().as_element().is_some_and(|e| matches!(e.name(), "td" | "th")))
        .collect();
    let is_block = |b: NodeRef<'_, Node>| {
        b.value().as_element().is_some_and(|e| {
            matches!(e.name(), "pre" | "ul" | "ol" | "dl" | "table") || heading_level(e).is_some()
        })
    };
    // (Also in a `<div>`: Pygments' numbered listing, `<td class="code"><div><pre>`.)
    let in_div = |b: NodeRef<'_, Node>| {
        b.value().as_element().is_some_and(|e| e.name() == "div") && b.children().any(is_block)
    };
    let holds_block = cells.iter().any(|c| c.children().any(|b| is_block(b) || in_div(b)));
    holds_block.then_some(cells)
}

/// For an element of a [`CONTENTS_CLASSES`] class holding no heading but
/// its caption (QDoc's `<div class="toc"><h3>Contents</h3><ul>…`), the
/// caption if any (`Some(None)` for none); None when it holds other
/// headings (the text itself, in Sphinx's single-page `toctree-wrapper`).
fn captioned_contents(node: NodeRef<'_, Node>) -> Option<Option<NodeRef<'_, Node>>> {
    let is_heading =
        |n: &NodeRef<'_, Node>| n.value().as_element().is_some_and(|e| heading_level(e).is_some());
    let first = node.children().find(|c| c.value().is_element()).filter(is_heading);
    let headings = node.descendants().skip(1).filter(is_heading).count();
    (headings == usize::from(first.is_some())).then_some(first)
}

/// Whether a heading is a label over the title its `<header>` holds: an
/// element of a `<header>` that holds an `<h1>` after it.
fn labels_title(heading: NodeRef<'_, Node>) -> bool {
    let Some(header) =
        heading.parent().filter(|p| p.value().as_element().is_some_and(|e| e.name() == "header"))
    else {
        return false;
    };
    heading.value().as_element().is_some_and(|e| e.name() != "h1")
        && heading.next_siblings().any(|n| n.value().as_element().is_some_and(|e| e.name() == "h1"))
        && header
            .children()
            .filter(|n| n.value().as_element().is_some_and(|e| heading_level(e).is_some()))
            .count()
            == 2
}

/// Whether a heading only captions a list of contents ([`captioned_contents`]).
fn captions_contents(heading: NodeRef<'_, Node>) -> bool {
    heading.parent().is_some_and(|p| {
        p.value().as_element().is_some_and(|e| CONTENTS_CLASSES.iter().any(|c| has_class(e, c)))
            && captioned_contents(p).flatten().is_some_and(|c| c.id() == heading.id())
    })
}

/// Whether a list only lays out sections: one of its items holds a heading.
/// Such a list is read as the blocks it holds (Markdown has no headings in
/// list items).
fn lays_out_sections(list: NodeRef<'_, Node>) -> bool {
    list.children().filter(|li| li.value().as_element().is_some_and(|e| e.name() == "li")).any(|li| {
        li.descendants().any(|d| d.value().as_element().is_some_and(|e| heading_level(e).is_some()))
    })
}

/// Ids inside one code block kept as anchors before it, at most.
const MAX_CODE_IDS: usize = 200;

/// Languages a code block's `<code>` may name by a bare class (TypeDoc's
/// `<code class="ts">`), as few other classes are named.
const BARE_LANGUAGES: [&str; 24] = [
    "js",
    "javascript",
    "ts",
    "typescript",
    "jsx",
    "tsx",
    "sh",
    "bash",
    "shell",
    "console",
    "json",
    "yaml",
    "toml",
    "html",
    "css",
    "python",
    "rust",
    "go",
    "java",
    "ruby",
    "sql",
    "diff",
    "xml",
    "php",
];

/// Languages a code block's class may name that say nothing of its code.
const NO_LANGUAGES: [&str; 5] = ["default", "none", "text", "plain", "plaintext"];

/// The language a code block is written in, as its generator marks it:
/// `<code class="language-rust">`, `lang-js`, Sphinx's `div.highlight-python`
/// or VitePress's `div.language-ts` around it, rustdoc's `<pre class="rust">`,
/// a bare name on the code ([`BARE_LANGUAGES`]); None when unmarked.
fn code_language(pre: NodeRef<'_, Node>) -> Option<String> {
    let code = pre.children().find(|c| c.value().as_element().is_some_and(|e| e.name() == "code"));
    let own = code.into_iter().chain([pre]).filter_map(|n| n.value().as_element()).flat_map(|e| e.classes());
    let mut marked = own.filter_map(|c| c.strip_prefix("language-").or_else(|| c.strip_prefix("lang-")));
    let around = || {
        pre.ancestors()
            .take(2)
            .filter_map(|a| a.value().as_element())
            .flat_map(|e| e.classes())
            .find_map(|c| c.strip_prefix("highlight-").or_else(|| c.strip_prefix("language-")))
    };
    let rustdoc = || pre.value().as_element().and_then(|e| e.classes().find(|c| *c == "rust"));
    // A language's bare name on the code (TypeDoc's `<code class="ts">`).
    let bare = || {
        let code = code?.value().as_element()?;
        code.classes().find(|c| BARE_LANGUAGES.contains(&c.to_ascii_lowercase().as_str()))
    };
    let language = marked.next().or_else(around).or_else(rustdoc).or_else(bare)?;
    let plain = language.chars().all(|c| c.is_ascii_alphanumeric() || "+-_#.".contains(c));
    (plain && !language.is_empty() && language.len() <= 20 && !NO_LANGUAGES.contains(&language))
        .then(|| language.to_ascii_lowercase())
}

/// The target of the one link an element's text lies in, when nothing
/// else of it shows (`<code><a href="split.html">split()</a></code>`).
fn sole_link<'a>(node: NodeRef<'a, Node>) -> Option<&'a str> {
    let mut link = None;
    for child in node.children() {
        match child.value() {
            Node::Text(t) if t.trim().is_empty() => {}
            Node::Element(e) if e.name() == "a" && link.is_none() => link = Some(e.attr("href")?.trim()),
            Node::Comment(_) => {}
            _ => return None,
        }
    }
    link.filter(|h| !h.is_empty())
}

/// Whether an anchor can be written as a Markdown heading attribute `{#id}`.
fn is_plain_anchor(anchor: &str) -> bool {
    anchor.chars().all(|c| c.is_alphanumeric() || "-_.:".contains(c))
}

/// An empty `<a id>`: where a `#fragment` link lands.
fn anchor_tag(id: &str) -> String {
    let mut out = String::with_capacity(id.len() + 13);
    out.push_str("<a id=\"");
    for c in id.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out.push_str("\"></a>");
    out
}

/// Elements written as blocks of their own (the rest is inline content).
fn is_block_element(el: &Element) -> bool {
    let name = el.name();
    heading_level(el).is_some()
        || BLOCK_TAGS.contains(&name)
        || matches!(
            name,
            "pre" | "table" | "ul" | "ol" | "menu" | "li" | "dt" | "dd" | "dl" | "blockquote" | "hr"
        )
}

/// The heading's own id, or the id of an `<a id|name>` inside it.
fn heading_anchor(node: NodeRef<'_, Node>) -> Option<String> {
    let el = node.value().as_element()?;
    if let Some(id) = el.id() {
        return Some(id.to_owned());
    }
    // A permalink wrapped around the heading (`<a href="#g:6" id="g:6">`).
    if let Some(id) = node
        .parent()
        .and_then(|p| p.value().as_element())
        .filter(|p| p.name() == "a" && p.attr("href").is_some_and(|h| h.starts_with('#')))
        .and_then(|p| p.id())
    {
        return Some(id.to_owned());
    }
    node.descendants().find_map(|d| {
        let e = d.value().as_element()?;
        if e.name() == "a" && e.attr("href").is_none() {
            e.id().or_else(|| e.attr("name")).map(str::to_owned)
        } else {
            None
        }
    })
}

fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut cur) = (0, 0);
    for ch in s.chars() {
        if ch == c {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

/// The longest common leading part of two line prefixes.
fn common_prefix<'a>(a: &'a str, b: &str) -> &'a str {
    let n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let mut n = n.min(a.len());
    while !a.is_char_boundary(n) {
        n -= 1;
    }
    &a[..n]
}
