//! Writing editions: the writer (tantivy's lock), one page and its sections
//! as documents, deletes by edition, and the atomic commit of a generation
//! with the library's payload.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use lectern_corpus::Page;
use lectern_corpus::page::DEFINED_TERM;
use tantivy::Term;
use tantivy::index::SegmentId;
use tantivy::indexer::NoMergePolicy;
use tantivy::schema::TantivyDocument;

use crate::error::IndexError;
use crate::index::{Index, Shared};
use crate::inflight::{Tracked, Waiting};
use crate::keys::{
    cased_key, defined_key, is_defined_key, is_identifier, page_title_key, partial_keys, section_key,
    section_key_num, symbol_key, title_key, unqualified_key,
};
use crate::schema::{Fields, KIND_ASSET, KIND_MOVED, KIND_PAGE, KIND_SECTION};
use crate::text::fold;

/// Writer memory budget, shared by its threads: small enough that an ingest
/// of two manuals peaks well under 300 MiB.
const WRITER_MEMORY_BYTES: usize = 96_000_000;
/// Indexing threads: the machines we target have two cores.
const WRITER_THREADS: usize = 2;
/// Segments holding more documents than this are not merged with others:
/// a manual that size keeps a segment of its own, which a search scoped
/// to other editions skips whole.
const MAX_MERGED_SEGMENT_DOCS: usize = 2_000;
/// How many segments of at most [`MAX_MERGED_SEGMENT_DOCS`] documents a
/// commit leaves before merging them into one.
const SMALL_SEGMENTS_MERGED: usize = 8;

/// A writer holding tantivy's writer lock; dropped without `commit` = nothing changes.
pub struct Writer {
    shared: Arc<Shared>,
    writer: tantivy::IndexWriter<Tracked>,
    waiting: Arc<Waiting>,
}

impl Index {
    /// Takes the writer (tantivy's lock). Callers serialise writers with the
    /// library lock first, so this does not wait.
    pub fn writer(&self) -> Result<Writer, IndexError> {
        if self.shared.read_only {
            return Err(IndexError::open(&self.shared.dir, "opened read-only"));
        }
        let writer =
            self.shared.index.writer_with_num_threads::<Tracked>(WRITER_THREADS, WRITER_MEMORY_BYTES)?;
        // `commit` chooses every merge itself: a merge tantivy started at
        // the commit would take the segments `commit` is about to merge.
        writer.set_merge_policy(Box::new(NoMergePolicy));
        // Files of an ingest that died (a crash, a full disk) are not in the
        // last commit: drop them first, or a full disk stays full.
        if let Err(e) = writer.garbage_collect_files().wait() {
            tracing::warn!("could not remove files left by an interrupted write: {e}");
        }
        Ok(Writer { shared: self.shared.clone(), writer, waiting: Default::default() })
    }
}

/// Reference pages are titled by the command they define (`CREATE INDEX`).
fn title_is_symbol(title: &str) -> bool {
    let words = title.split_whitespace().count();
    (1..=5).contains(&words)
        && title.chars().any(|c| c.is_ascii_uppercase())
        && title.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == ' ' || c == '_')
}

/// The API name a section's heading defines: a call written out
/// (`Dispatcher.request(options[, callback])`, `res.send([body])` →
/// `Dispatcher.request`, `res.send`), or a member on a page titled by its
/// object (`.send(data)` and `.statusCode` on fastify's "Reply" page →
/// `Reply.send`, `Reply.statusCode`), or a member alone or with its type
/// after it (`logger.level (String)`), or a function's head with its result
/// on its module's page (`map(Fun, List1) -> List2` on "lists" →
/// `lists.map`), a Rust function's head on its type's page (`pub fn
/// push(&mut self, value: T)` on "Struct std::vec::Vec" → `Vec::push`), or
/// a call at the anchor its name spells (QDoc's `qDebug(…)` at `#qDebug`).
/// None for any other heading: a dotted word followed by words (`Node.js
/// Support`) names nothing.
fn heading_name(title: &str, page_title: &str, anchor: &str) -> Option<String> {
    let title = title.trim().trim_start_matches('`');
    // A Rust function's head on its type's page (rustdoc's `pub fn
    // push(&mut self, value: T)` on "Struct std::vec::Vec"): the type's.
    if let Some(name) = rust_fn_name(title)
        && let Some(entity) = title_entity(page_title)
    {
        let subject = entity.rsplit("::").next().unwrap_or(entity);
        return Some(format!("{subject}::{name}"));
    }
    // A call at the anchor its name spells (QDoc's `qDebug(const char
    // *message, ...)` at `#qDebug`, `void QList::append(const T &value)`
    // at `#append`).
    if let Some(callee) = anchored_callee(title, anchor) {
        return Some(callee.to_owned());
    }
    // A function's name as an empty call, alone or with its overload's
    // number (Doxygen's member headings `perspective()`, `parse() [2/3]`).
    if let Some(name) = empty_call(title) {
        return Some(name.to_owned());
    }
    let ident_end =
        |s: &str| s.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(s.len());
    let is_ident =
        |s: &str| !s.is_empty() && !s.starts_with(|c: char| c.is_ascii_digit()) && ident_end(s) == s.len();
    if let Some(member) = title.strip_prefix('.') {
        let end = ident_end(member);
        let rest = member[end..].trim_start_matches('`');
        let qualifier = page_title.trim();
        let whole = rest.is_empty() || rest.starts_with('(') || rest.starts_with(" (");
        return (end > 0 && whole && is_ident(qualifier)).then(|| format!("{qualifier}.{}", &member[..end]));
    }
    // A function's head with its result on a module's page (erl_docgen's
    // `map(Fun, List1) -> List2` on "lists", or "Erlang -- lists" where
    // another page's heading is "lists" too): the module's function.
    let module = [" -- ", " — ", " - ", ": "]
        .iter()
        .filter_map(|sep| page_title.rsplit_once(sep).map(|(_, last)| last))
        .min_by_key(|last| last.len())
        .unwrap_or(page_title)
        .trim();
    // (RDoc titles a class's page `class Hash`.)
    let rdoc = module.strip_prefix("class ").or_else(|| module.strip_prefix("module "));
    let module = rdoc.unwrap_or(module);
    // (Ruby's names may end in `?`, `!` or `=`; RDoc writes `each {|x| …}
    // → self` and `to_a → array` too.)
    let head = ident_end(title);
    let name_end = head + usize::from(title[head..].starts_with(['?', '!', '=']));
    let after = title[name_end..].trim_start();
    let call =
        after.starts_with('(') || (rdoc.is_some() && ["{", "→", "->"].iter().any(|s| after.starts_with(s)));
    if head > 0
        && is_ident(&title[..head])
        && call
        && (title.contains("->") || title.contains('→'))
        && is_ident(module)
    {
        return Some(format!("{module}.{}", &title[..name_end]));
    }
    let mut end = 0;
    let mut parts = 0;
    loop {
        let part = ident_end(&title[end..]);
        if part == 0 || title[end..].starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        end += part;
        parts += 1;
        let rest = title[end..].trim_start_matches('`');
        match rest.chars().next() {
            Some('.') => end += 1,
            // A call, or a member alone or with its type after it
            // (`logger.level (String) [Getter/Setter]`).
            Some('(') | None if parts >= 2 => return Some(title[..end].to_owned()),
            Some(' ') if parts >= 2 && rest.starts_with(" (") => return Some(title[..end].to_owned()),
            _ => return None,
        }
    }
}

/// The function a Rust item's head declares (`pub fn push(&mut self, value:
/// T)`, `pub const unsafe fn get_unchecked<I>(…)`, `fn next(&mut self)` →
/// `push`, `get_unchecked`, `next`); None for any other heading.
fn rust_fn_name(title: &str) -> Option<&str> {
    let mut rest = title.trim_start();
    if let Some(after) = rest.strip_prefix("pub") {
        rest = match after.strip_prefix('(') {
            Some(scoped) => scoped.split_once(')')?.1,
            None => after.strip_prefix(' ')?,
        }
        .trim_start();
    }
    loop {
        if let Some(after) =
            ["const ", "async ", "unsafe ", "default "].iter().find_map(|q| rest.strip_prefix(q))
        {
            rest = after.trim_start();
        } else if let Some(abi) = rest.strip_prefix("extern \"") {
            rest = abi.split_once('"')?.1.trim_start();
        } else {
            break;
        }
    }
    let rest = rest.strip_prefix("fn ")?.trim_start();
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let name = &rest[..end];
    (!name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && rest[end..].starts_with(['(', '<']))
    .then_some(name)
}

/// The name a call in a heading is made by when its last part is the
/// heading's anchor (`qDebug` of `qDebug(const char *message, ...)` at
/// `qDebug`, `QList::append` of `void QList::append(const T &value)` at
/// `append`); None otherwise (`update(**kwargs)` at a Sphinx entry's full
/// name is named by that entry).
fn anchored_callee<'a>(title: &'a str, anchor: &str) -> Option<&'a str> {
    let open = title.find('(')?;
    let callee = title[..open].split_whitespace().last()?.trim_start_matches(['*', '&']);
    let last = callee.rsplit("::").next()?.rsplit('.').next()?;
    let named = callee.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.'))
        && callee.starts_with(|c: char| c.is_alphabetic() || c == '_');
    (named && !last.is_empty() && last == anchor).then_some(callee)
}

/// The name of a heading that is an empty call, with an overload's number
/// after it or not (`perspective()`, `parse() [2/3]` → `perspective`,
/// `parse`); None for any other heading.
fn empty_call(title: &str) -> Option<&str> {
    let mut call = title.trim_end();
    if let Some(open) = call.strip_suffix(']').and_then(|c| c.rfind('[')) {
        let number = &call[open + 1..call.len() - 1];
        let (i, n) = number.split_once('/')?;
        [i, n].iter().all(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit())).then_some(())?;
        call = call[..open].trim_end();
    }
    call.strip_suffix("()").filter(|name| is_identifier(name))
}

/// Words a page title names the kind of thing the page is about with,
/// before its name (rustdoc's "Struct std::vec::Vec", Javadoc's "Class
/// StringUtils", BoostBook's "Function template split") or after it
/// (QDoc's "QVector Class", Doxygen's "Frob Class Reference").
const KINDS_BEFORE: [&str; 22] = [
    // (Longer kinds first: "Function template" before "Function".)
    "Attribute Macro",
    "Derive Macro",
    "Trait Alias",
    "Function template",
    "Class template",
    "Struct template",
    "Primitive Type",
    "Type Definition",
    "Type Alias",
    "Struct",
    "Enum",
    "Trait",
    "Union",
    "Macro",
    "Function",
    "Constant",
    "Static",
    "Module",
    "Class",
    "Interface",
    "Namespace",
    "Keyword",
];
/// The kinds a title names after the name (see [`KINDS_BEFORE`]).
const KINDS_AFTER: [&str; 8] = [
    "Class",
    "Struct",
    "Namespace",
    "Class Reference",
    "Struct Reference",
    "Class Template Reference",
    "Struct Template Reference",
    "Namespace Reference",
];
/// Words that follow a kind in titles that name no entity (`Class Index`).
const NOT_ENTITIES: [&str; 8] =
    ["index", "list", "hierarchy", "members", "overview", "reference", "summary", "template"];

/// The entity a page is titled by with its kind ([`KINDS_BEFORE`],
/// [`KINDS_AFTER`]): `std::vec::Vec` of "Struct std::vec::Vec", `QVector`
/// of "QVector Class", `split` of "Function template split", `MockAgent`
/// of "Class: MockAgent". None for a
/// title of words ("Class Hierarchy", "Function Overloading").
fn title_entity(title: &str) -> Option<&str> {
    let title = title.trim();
    // (A kind with a colon after it, undici's "Class: Client", says the
    // rest is a name, a capitalised word too.)
    let labelled = KINDS_BEFORE.iter().find_map(|k| title.strip_prefix(k)?.strip_prefix(": "));
    let name = labelled
        .or_else(|| KINDS_BEFORE.iter().find_map(|k| title.strip_prefix(k).and_then(|r| r.strip_prefix(' '))))
        .or_else(|| KINDS_AFTER.iter().find_map(|k| title.strip_suffix(k).and_then(|r| r.strip_suffix(' '))))?
        .trim();
    let identifier = name.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.'));
    // A capitalised word alone is a word ("Class Hierarchy"), not a name.
    let word = {
        let mut chars = name.chars();
        chars.next().is_some_and(char::is_uppercase) && chars.all(char::is_lowercase)
    };
    (identifier && (labelled.is_some() || !word) && !NOT_ENTITIES.contains(&name.to_lowercase().as_str()))
        .then_some(name)
}

/// Most names of a page given their shorter forms ([`partial_keys`]): a
/// Dash page indexing ten thousand rows finds the rest by their full name
/// and their last part, and its ingest stays within its memory.
const MAX_PARTIAL_NAMES: usize = 2_000;

/// Most page symbols copied onto each section of a page. Every section of a
/// page carries its page's symbols so a query that starts with one favours
/// the whole page; past this many (a Dash page with thousands of index rows)
/// the copies would grow as sections × symbols, so only the lead section's
/// first ones are copied. Each symbol still sits on its own section, so an
/// exact symbol query finds that section first either way.
const PAGE_SYMBOLS_MAX: usize = 256;

/// Most entries stored per section (see [`section_symbols`]): an options
/// list of a few hundred names, each under its keys.
const MAX_ENTRIES: usize = 1_024;

/// A section's entries: each key of a name defined inside it, with the id
/// of the element defining it.
type Entries = Vec<(String, String)>;

/// Each section's symbols (keys): a symbol goes to the section whose anchor
/// it names, or that holds the element it names (`<a id="asyncio.gather">`
/// inside "Running Tasks Concurrently": a Sphinx or Dash entry points at its
/// definition, not at a heading), else to the lead section, as does a title
/// that is a symbol; a heading naming a call or member ([`heading_name`])
/// names its own section. Linear in symbols + sections + the Markdown's length:
/// anchors and each section's keys are hashed.
///
/// A page titled by an entity and its kind ([`title_entity`]: "Struct
/// std::vec::Vec", "QVector Class") names it on its lead section.
///
/// Second, each section's unqualified names: the last part of each
/// qualified symbol it defines (`setrecursionlimit` of
/// `sys.setrecursionlimit`, `lru_cache` of `functools.lru_cache`), which a
/// reader types alone, and its shorter forms ([`partial_keys`]:
/// `QuerySet.update`, `boost.split`). They name their section as the symbol
/// does, but no other section of its page (a question that starts with
/// `count` or `split` favours no page).
///
/// Third, each section's names as written, their case kept ([`cased_key`]):
/// `-O` and `-o` fold to one key, and these tell them apart. They too name
/// only their own section.
///
/// Last, each section's entries: every key of a name whose anchor is an
/// element inside the section rather than its heading (mandoc's `<dt
/// id="R">` for `-R`, Texinfo's `index-strsplit`, DocBook's `<dt
/// id="GUC-WORK-MEM">`), with that anchor, at most [`MAX_ENTRIES`] per
/// section: a hit on the section for that name links to its entry.
fn section_symbols(page: &Page) -> ([Vec<Vec<String>>; 3], Vec<Entries>) {
    let sections = page.sections.len().max(1);
    let mut symbols: Vec<Vec<String>> = vec![Vec::new(); sections];
    let mut tails: Vec<Vec<String>> = vec![Vec::new(); sections];
    let mut cased: Vec<Vec<String>> = vec![Vec::new(); sections];
    let mut seen: Vec<HashSet<String>> = vec![HashSet::new(); sections];
    let mut entries: Vec<Entries> = vec![Vec::new(); sections];
    let mut by_anchor: HashMap<String, usize> = HashMap::new();
    for (ordinal, section) in page.sections.iter().enumerate() {
        if let Some(anchor) = section.anchor.as_deref() {
            // The first section with an anchor wins, as a scan would.
            by_anchor.entry(anchor.to_owned()).or_insert(ordinal);
        }
    }
    // The ids inside sections, read only when a symbol names one that no
    // heading has; a heading's anchor wins over an inner id.
    if page.symbols.iter().any(|s| s.anchor.as_deref().is_some_and(|a| !by_anchor.contains_key(a))) {
        for (ordinal, section) in page.sections.iter().enumerate() {
            for id in lectern_corpus::links::html_anchors(&section.markdown) {
                by_anchor.entry(id).or_insert(ordinal);
            }
        }
    }
    // Where each key goes: symbols, tails or cased.
    let mut attach = |key: String, anchor: Option<&str>, to: usize, entry: Option<&str>| {
        if key.is_empty() {
            return;
        }
        let at = anchor.and_then(|a| by_anchor.get(a).copied()).unwrap_or(0);
        // Its entry: the element it names inside the section, or the one
        // of its own the source gave.
        let inner = anchor.filter(|a| by_anchor.contains_key(*a));
        if let Some(a) = entry.or(inner)
            && page.sections.get(at).is_some_and(|s| s.anchor.as_deref() != Some(a))
            && entries[at].len() < MAX_ENTRIES
            && !entries[at].iter().any(|(k, _)| *k == key)
            && !(key.contains(['\t', '\n']) || a.contains(['\t', '\n']))
        {
            entries[at].push((key.clone(), a.to_owned()));
        }
        if seen[at].insert(key.clone()) {
            [&mut symbols, &mut tails, &mut cased][to][at].push(key);
        }
    };
    // (An empty key, of a name with no letter that has case, is none.)
    let cased_of = |name: &str| cased_key(name).unwrap_or_default();
    // A name: its key, its key as written, and on its own section the
    // forms a qualified name is typed in: its last part (`update`) and
    // its shorter forms (`QuerySet.update`).
    let mut partial_names = 0;
    let mut attach_name = |name: &str, anchor: Option<&str>, entry: Option<&str>| {
        let key = symbol_key(name);
        if partial_names < MAX_PARTIAL_NAMES {
            let partials = partial_keys(&key);
            partial_names += usize::from(!partials.is_empty());
            for partial in partials {
                attach(partial, anchor, 1, entry);
            }
        }
        attach(key, anchor, 0, entry);
        attach(cased_of(name), anchor, 2, entry);
        if let Some(tail) = unqualified(name) {
            attach(unqualified_key(&symbol_key(tail)), anchor, 1, entry);
            if let Some(key) = cased_key(tail) {
                attach(unqualified_key(&key), anchor, 2, entry);
            }
        }
    };
    for symbol in page.symbols.iter().filter(|s| s.kind != DEFINED_TERM) {
        attach_name(&symbol.name, symbol.anchor.as_deref(), symbol.entry.as_deref());
    }
    for section in page.sections.iter().skip(1) {
        let Some(anchor) = section.anchor.as_deref() else { continue };
        if let Some(name) = heading_name(&section.title, &page.title, anchor) {
            attach_name(&name, Some(anchor), None);
        }
    }
    if title_is_symbol(&page.title) {
        attach_name(&page.title, None, None);
    } else if let Some(entity) = title_entity(&page.title) {
        attach_name(entity, None, None);
    }
    for symbol in page.symbols.iter().filter(|s| s.kind == DEFINED_TERM) {
        attach(defined_key(&symbol.name), symbol.anchor.as_deref(), 0, symbol.entry.as_deref());
    }
    ([symbols, tails, cased], entries)
}

/// The last part of a qualified name (`setrecursionlimit` of
/// `sys.setrecursionlimit`, `Vec` of `std::vec::Vec`, `lru_cache` of
/// `functools.lru_cache()`, Ruby's `set_cookie` of
/// `Rack::Response::Helpers#set_cookie` and `xhr?` of `Request#xhr?`);
/// None for a name that is not qualified or whose last part is shorter
/// than three chars or has no letter.
fn unqualified(name: &str) -> Option<&str> {
    let name = name.trim().trim_end_matches("()");
    if name.contains(char::is_whitespace) {
        return None;
    }
    let at = name.rfind(['.', ':', '#'])?;
    let tail = &name[at + 1..];
    let letters = tail.chars().filter(|c| c.is_alphabetic()).count();
    let word = tail.strip_suffix(['?', '!']).unwrap_or(tail);
    (at > 0
        && tail.chars().count() >= 3
        && letters > 0
        && word.chars().all(|c| c.is_alphanumeric() || c == '_'))
    .then_some(tail)
}

/// The symbols copied onto every section of the page (sorted, distinct): all
/// of them up to [`PAGE_SYMBOLS_MAX`], else the lead section's first ones.
fn page_symbols(symbols: &[Vec<String>]) -> Vec<&str> {
    let mut all: Vec<&str> =
        symbols.iter().flatten().map(String::as_str).filter(|k| !is_defined_key(k)).collect();
    all.sort_unstable();
    all.dedup();
    if all.len() <= PAGE_SYMBOLS_MAX {
        return all;
    }
    let mut lead: Vec<&str> = symbols[0].iter().map(String::as_str).filter(|k| !is_defined_key(k)).collect();
    lead.sort_unstable();
    lead.truncate(PAGE_SYMBOLS_MAX);
    lead
}

/// Where each of `parts` is in `whole`, in order and without overlap, as
/// (byte offset, byte length); None for a part not found after the previous one.
fn slices<'a>(whole: &str, parts: impl Iterator<Item = &'a str>) -> Vec<Option<(usize, usize)>> {
    let mut at = 0;
    parts
        .map(|part| {
            let found =
                if whole[at..].starts_with(part) { Some(at) } else { whole[at..].find(part).map(|i| at + i) };
            found.map(|from| {
                at = from + part.len();
                (from, part.len())
            })
        })
        .collect()
}

impl Writer {
    /// Deletes every document of an edition (applied at commit).
    pub fn delete_edition(&mut self, edition: &str) {
        self.writer.delete_term(Term::from_field_text(self.shared.fields.edition, edition));
    }

    /// Adds a page and its sections under an edition key. Section keys are
    /// derived from (edition, page path, section ordinal).
    pub fn add_page(&mut self, edition: &str, page: &Page) -> Result<(), IndexError> {
        let f = &self.shared.fields;
        let ([symbols, tails, cased], entries) = section_symbols(page);
        let markdown_at = slices(&page.markdown, page.sections.iter().map(|s| s.markdown.as_str()));
        let page_symbols = page_symbols(&symbols);
        for (ordinal, section) in page.sections.iter().enumerate() {
            let mut doc = TantivyDocument::default();
            doc.add_text(f.kind, KIND_SECTION);
            doc.add_text(f.edition, edition);
            doc.add_text(f.section_key, section_key(edition, &page.path, ordinal));
            doc.add_u64(f.key_num, section_key_num(edition, &page.path, ordinal));
            doc.add_text(f.path, &page.path);
            if let Some(anchor) = &section.anchor {
                doc.add_text(f.anchor, anchor);
            }
            doc.add_text(f.title, &section.title);
            // Its whole title, and the page's for the section that opens it
            // (a Markdown page titled in its frontmatter opening with `###
            // Description`).
            // (The page's title is also marked as the page's: see `page_title_key`.)
            let page_title = (ordinal == 0).then(|| title_key(&page.title));
            let marked = page_title.as_deref().map(page_title_key);
            for titled in std::iter::once(title_key(&section.title)).chain(page_title).chain(marked) {
                if !titled.is_empty() {
                    doc.add_text(f.symbol, &titled);
                }
            }
            // What the page says it is (a reference page's purpose line,
            // a Markdown page's frontmatter description) is searched as the
            // lead section's title too; the heading stays what is shown. A
            // page with no top of its own (a Markdown page titled in its
            // frontmatter that opens with `### Synopsis`) has its first
            // section stand for it, searched by the page's title as well.
            let no_top = ordinal == 0 && section.anchor.is_some();
            if (section.anchor.is_none() || no_top)
                && let Some(description) = &page.description
            {
                doc.add_text(f.title, description);
            }
            if no_top {
                doc.add_text(f.title, &page.title);
            }
            for crumb in &section.breadcrumb {
                doc.add_text(f.breadcrumb, crumb);
            }
            if !entries[ordinal].is_empty() {
                let lines: Vec<String> = entries[ordinal].iter().map(|(k, a)| format!("{k}\t{a}")).collect();
                doc.add_text(f.entries, lines.join("\n"));
            }
            doc.add_text(f.body, &section.text);
            for symbol in symbols[ordinal].iter().chain(&tails[ordinal]).chain(&cased[ordinal]) {
                doc.add_text(f.symbol, symbol);
            }
            for symbol in &page_symbols {
                doc.add_text(f.page_symbol, symbol);
            }
            doc.add_u64(f.weight, crate::weight::section_weight(page, section));
            doc.add_u64(f.title_shape, crate::heading::shape(&section.title));
            // After everything a search hit shows: reading a hit stops at
            // the body (`hitdoc::read`).
            match markdown_at[ordinal] {
                Some((from, len)) => {
                    doc.add_u64(f.markdown_at, from as u64);
                    doc.add_u64(f.markdown_at, len as u64);
                }
                None => doc.add_bytes(f.markdown, &crate::packed::pack(&section.markdown)),
            }
            doc.add_u64(f.ordinal, ordinal as u64);
            self.writer.add_document(self.waiting.admit(doc))?;
        }
        self.writer.add_document(self.waiting.admit(self.page_document(edition, page)))?;
        Ok(())
    }

    /// Adds an asset of an edition: where it is served, its type, and the
    /// hash its bytes are kept under (the caller stores them).
    pub fn add_asset(
        &mut self,
        edition: &str,
        path: &str,
        hash: &str,
        content_type: &str,
        size: u64,
    ) -> Result<(), IndexError> {
        let f = &self.shared.fields;
        let mut doc = TantivyDocument::default();
        doc.add_text(f.kind, KIND_ASSET);
        doc.add_text(f.edition, edition);
        doc.add_text(f.path, path);
        doc.add_text(f.asset_hash, hash);
        doc.add_text(f.asset_type, content_type);
        doc.add_u64(f.asset_size, size);
        dense_columns(f, &mut doc);
        self.writer.add_document(self.waiting.admit(doc))?;
        Ok(())
    }

    /// Adds a path of an edition that leads to one of its pages under
    /// another path (`to`, with the fragment it lands on, if any).
    pub fn add_moved(&mut self, edition: &str, from: &str, to: &str) -> Result<(), IndexError> {
        let f = &self.shared.fields;
        let mut doc = TantivyDocument::default();
        doc.add_text(f.kind, KIND_MOVED);
        doc.add_text(f.edition, edition);
        doc.add_text(f.path, from);
        doc.add_text(f.source_file, to);
        dense_columns(f, &mut doc);
        self.writer.add_document(self.waiting.admit(doc))?;
        Ok(())
    }

    /// The page's own document: what listing, reading and substring search use.
    fn page_document(&self, edition: &str, page: &Page) -> TantivyDocument {
        let f = &self.shared.fields;
        let mut doc = TantivyDocument::default();
        doc.add_text(f.kind, KIND_PAGE);
        doc.add_text(f.edition, edition);
        dense_columns(f, &mut doc);
        doc.add_text(f.path, &page.path);
        doc.add_text(f.page_title, &page.title);
        doc.add_text(f.source_file, &page.source_file);
        for section in &page.sections {
            doc.add_text(f.anchors, section.anchor.as_deref().unwrap_or(""));
            doc.add_text(f.headings, format!("{}\t{}", section.level, section.title));
        }
        if page.nav != lectern_corpus::nav::NavPlace::default()
            && let Ok(json) = serde_json::to_string(&page.nav)
        {
            doc.add_text(f.nav, json);
        }
        doc.add_bytes(f.page_text, &crate::packed::pack(&page.text));
        doc.add_bytes(f.markdown, &crate::packed::pack(&page.markdown));
        if let Some(d) = &page.description {
            doc.add_text(f.description, d);
        }
        if let Some(fm) = &page.frontmatter {
            doc.add_text(f.frontmatter, fm);
        }
        if let Some(order) = page.order {
            doc.add_i64(f.order, order);
        }
        doc.add_bool(f.draft, page.draft);
        doc.add_u64(f.section_count, page.sections.len() as u64);
        let mut grams = fold(&page.title);
        grams.push('\n');
        grams.push_str(&fold(&page.text));
        doc.add_text(f.grams, &grams);
        doc
    }

    /// Merges committed segments into one, waiting for it. A failure leaves
    /// them as they are (only slower searches: the commit stands).
    fn merge(&mut self, segments: &[SegmentId]) {
        if segments.len() > 1
            && let Err(e) = self.writer.merge(segments).wait()
        {
            tracing::warn!("could not merge {} segments of the index: {e}", segments.len());
        }
    }

    /// Commits atomically with `payload` (the library manifest) and refreshes
    /// the owning index's snapshot. A crash before this returns leaves the
    /// previous commit in place.
    pub fn commit(mut self, payload: &str) -> Result<(), IndexError> {
        let before: HashSet<SegmentId> = self.shared.index.searchable_segment_ids()?.into_iter().collect();
        let mut prepared = self.writer.prepare_commit()?;
        prepared.set_payload(payload);
        prepared.commit()?;
        // One segment per commit, so one per edition: a search skips the
        // segments of editions outside its scope whole, and removing or
        // replacing an edition drops its segment rather than leaving deletes.
        let fresh: Vec<SegmentId> = self
            .shared
            .index
            .searchable_segment_ids()?
            .into_iter()
            .filter(|id| !before.contains(id))
            .collect();
        self.merge(&fresh);
        // Editions written by earlier commits stay apart, except small ones:
        // once there are enough small segments, they become one.
        let small: Vec<SegmentId> = self
            .shared
            .index
            .searchable_segment_metas()?
            .iter()
            .filter(|m| m.num_docs() as usize <= MAX_MERGED_SEGMENT_DOCS)
            .map(|m| m.id())
            .collect();
        if small.len() >= SMALL_SEGMENTS_MERGED {
            self.merge(&small);
        }
        // Release the lock.
        self.writer.wait_merging_threads()?;
        self.shared.refresh(true)?;
        Ok(())
    }
}

/// The section columns' values for a document that is not a section (no
/// key, full weight, no heading shape): with a value in every document, a
/// column is read by document id directly, where a column some documents
/// lack first ranks the id among those holding one (a search reads the key
/// and weight of every candidate).
fn dense_columns(f: &Fields, doc: &mut TantivyDocument) {
    doc.add_u64(f.key_num, u64::MAX);
    doc.add_u64(f.weight, crate::weight::FULL_WEIGHT);
    doc.add_u64(f.title_shape, 0);
}

#[cfg(test)]
mod tests {
    use lectern_corpus::{Section, Symbol};

    use super::*;
    use crate::keys::is_cased_key;

    fn section(anchor: Option<&str>, markdown: &str) -> Section {
        Section {
            anchor: anchor.map(str::to_owned),
            title: anchor.unwrap_or("Tasks").into(),
            level: 2,
            breadcrumb: Vec::new(),
            markdown: markdown.into(),
            text: String::new(),
        }
    }

    fn symbol(name: &str, anchor: Option<&str>) -> Symbol {
        Symbol { name: name.into(), kind: "Function".into(), anchor: anchor.map(str::to_owned), entry: None }
    }

    /// The segments the index holds now.
    fn segments(index: &Index) -> usize {
        index.shared.index.searchable_segment_ids().unwrap().len()
    }

    fn add_edition(index: &Index, edition: &str, pages: usize) {
        let mut writer = index.writer().unwrap();
        for i in 0..pages {
            let page = crate::weight::tests::page(&format!("/p{i}"), &format!("Page {i}"));
            writer.add_page(edition, &page).unwrap();
        }
        writer.commit("").unwrap();
    }

    #[test]
    fn each_commit_leaves_one_segment_and_small_ones_merge_in_eights() {
        let dir = tempfile::tempdir().unwrap();
        let index = Index::open(dir.path()).unwrap();
        // Pages spread over the writer's threads, each writing a segment:
        // the commit merges them.
        add_edition(&index, "big@1/en", 3000);
        assert_eq!(segments(&index), 1);
        for n in 1..SMALL_SEGMENTS_MERGED {
            add_edition(&index, &format!("small{n}@1/en"), 20);
            assert_eq!(segments(&index), 1 + n, "small editions stay apart until there are eight");
        }
        add_edition(&index, "small8@1/en", 20);
        assert_eq!(segments(&index), 2, "the eight small segments became one; the big one stays apart");
        let snap = index.snapshot().inner;
        assert_eq!(snap.searcher.num_docs(), 3000 + 8 * 20, "a page without sections is one document");
    }

    #[test]
    fn every_document_has_a_key_a_weight_and_a_heading_shape() {
        let dir = tempfile::tempdir().unwrap();
        let index = Index::open(dir.path()).unwrap();
        let mut writer = index.writer().unwrap();
        let mut page = crate::weight::tests::page("/p", "Page");
        page.sections = vec![section(None, "Intro"), section(Some("tasks"), "Tasks")];
        writer.add_page("e@1/en", &page).unwrap();
        writer.add_page("e@1/en", &crate::weight::tests::page("/empty", "Empty")).unwrap();
        writer.add_asset("e@1/en", "/logo.png", "00", "image/png", 1).unwrap();
        writer.commit("").unwrap();
        let snap = index.snapshot().inner;
        assert_eq!(snap.searcher.num_docs(), 5, "two sections, two pages, one asset");
        for columns in &snap.columns {
            // Read by document id, with no rank among the documents holding a value.
            for (name, column) in
                [("key", &columns.key), ("weight", &columns.weight), ("shape", &columns.title_shape)]
            {
                let index = &column.as_ref().unwrap().index;
                assert!(matches!(index, tantivy::columnar::ColumnIndex::Full), "{name}: {index:?}");
            }
        }
    }

    #[test]
    fn headings_name_calls_and_members() {
        let name = |title: &str, page: &str| heading_name(title, page, "");
        assert_eq!(
            name("Dispatcher.request(options[, callback])", "Dispatcher").as_deref(),
            Some("Dispatcher.request")
        );
        assert_eq!(
            name("`fs.promises.readFile(path)`", "File system").as_deref(),
            Some("fs.promises.readFile")
        );
        assert_eq!(name(".send(data)", "Reply").as_deref(), Some("Reply.send"));
        assert_eq!(name(".statusCode", "Reply").as_deref(), Some("Reply.statusCode"));
        assert_eq!(name(".statusCode (Number)", "Reply").as_deref(), Some("Reply.statusCode"));
        // A member alone, or with its type.
        assert_eq!(name("logger.level (String) [Getter/Setter]", "API").as_deref(), Some("logger.level"));
        assert_eq!(name("`logger.levels` (Object)", "API").as_deref(), Some("logger.levels"));
        assert_eq!(name("request.body", "Request").as_deref(), Some("request.body"));
        // No call, no object to qualify a member, or not a name.
        assert_eq!(name("Node.js Support", "Guides"), None);
        assert_eq!(name("logger.level is a string", "API"), None);
        assert_eq!(name("options (Object)", "API"), None);
        assert_eq!(name("send(data)", "Reply"), None);
        // A function's head with its result, on its module's page.
        assert_eq!(name("map(Fun, List1) -> List2", "lists").as_deref(), Some("lists.map"));
        assert_eq!(name("map(Fun, List1) -> List2", "Erlang -- lists").as_deref(), Some("lists.map"));
        assert_eq!(name("map(Fun, List1) -> List2", "The lists module"), None);
        assert_eq!(name("fetch(key) → object", "class Hash").as_deref(), Some("Hash.fetch"));
        assert_eq!(name("each {|element| ... } → self", "class Array").as_deref(), Some("Array.each"));
        assert_eq!(
            name("sort_by! {|element| ... } → self", "class Array").as_deref(),
            Some("Array.sort_by!")
        );
        assert_eq!(name("to_a → array", "class Hash").as_deref(), Some("Hash.to_a"));
        assert_eq!(name("each {|element| ... }", "class Array"), None);
        assert_eq!(name("Upgrade → Migration", "Installation"), None);
        assert_eq!(name(".send(data)", "The Reply Object"), None);
        assert_eq!(name(".send and more", "Reply"), None);
        assert_eq!(name("9.6 Release (2016)", "Releases"), None);
        assert_eq!(name("1.2.3(beta)", "Releases"), None);
        assert_eq!(name("", "Reply"), None);
    }

    #[test]
    fn a_symbol_goes_to_the_section_holding_its_definition() {
        let mut page = crate::weight::tests::page("/py/library/asyncio-task", "Coroutines and Tasks");
        page.sections = vec![
            section(None, "# Coroutines and Tasks\n\nWhat tasks are. <a id=\"running\"></a>"),
            section(Some("sleeping"), "## Sleeping\n\n- <a id=\"asyncio.sleep\"></a>asyncio.sleep(delay)"),
            section(
                Some("running"),
                "## Running\n\n- <a id=\"asyncio.gather\"></a>gather\n- <a id=\"a&amp;b&quot;\"></a>odd",
            ),
        ];
        page.symbols = vec![
            symbol("asyncio.gather", Some("asyncio.gather")),
            symbol("asyncio.sleep", Some("asyncio.sleep")),
            // A heading's anchor wins over an id of the same name earlier on.
            symbol("asyncio.run", Some("running")),
            symbol("odd", Some("a&b\"")),
            symbol("nowhere", Some("missing")),
            symbol("page", None),
        ];
        let ([found, tails, cased], entries) = section_symbols(&page);
        assert_eq!(found[0], ["nowhere", "page"]);
        assert_eq!(found[1], ["asyncio.sleep"]);
        assert_eq!(found[2], ["asyncio.gather", "asyncio.run", "odd"]);
        // A name defined at an element inside its section is an entry of it,
        // under each of its keys; one named by a heading's anchor is not.
        let keys = |at: usize, id: &str| -> Vec<String> {
            entries[at].iter().filter(|(_, a)| a == id).map(|(k, _)| k.clone()).collect()
        };
        assert!(keys(1, "asyncio.sleep").contains(&"asyncio.sleep".to_owned()), "{entries:?}");
        assert_eq!(keys(1, "asyncio.sleep").len(), 4, "its key, last part and both as written: {entries:?}");
        assert!(keys(2, "asyncio.gather").contains(&"asyncio.gather".to_owned()), "{entries:?}");
        assert_eq!(keys(2, "a&b\"")[0], "odd");
        assert!(entries[2].iter().all(|(_, a)| a != "running") && entries[0].is_empty(), "{entries:?}");
        // Each qualified name's last part and shorter forms name the same
        // section, and no page.
        assert_eq!(tails[1], [partial_keys("asyncio.sleep"), vec![unqualified_key("sleep")]].concat());
        for key in
            [unqualified_key("gather"), unqualified_key("run")].into_iter().chain(partial_keys("asyncio.run"))
        {
            assert!(tails[2].contains(&key), "{key}");
        }
        assert!(tails[0].is_empty());
        // Each name as written too, on its own section only.
        assert_eq!(
            cased[1],
            [cased_key("asyncio.sleep").unwrap(), unqualified_key(&cased_key("sleep").unwrap())]
        );
        assert!(!page_symbols(&found).iter().any(|k| is_cased_key(k)));
        assert!(!page_symbols(&found).iter().any(|k| k.contains("gather") && *k != "asyncio.gather"));
    }

    #[test]
    fn rust_functions_calls_at_their_anchor_and_pages_titled_by_an_entity_are_names() {
        let name = heading_name;
        // rustdoc: a method's head on its type's page.
        let vec = "Struct std::vec::Vec";
        assert_eq!(name("pub fn push(&mut self, value: T)", vec, "method.push"), Some("Vec::push".into()));
        assert_eq!(
            name("pub const unsafe fn get_unchecked<I>(&self, index: I)", vec, "method.get_unchecked"),
            Some("Vec::get_unchecked".into())
        );
        assert_eq!(name("pub(crate) fn len(&self) -> usize", vec, "x"), Some("Vec::len".into()));
        assert_eq!(
            name("fn next(&mut self) -> Option<Self::Item>", "Trait std::iter::Iterator", "tymethod.next"),
            Some("Iterator::next".into())
        );
        assert_eq!(
            name("pub fn trim(&self) -> &str", "Primitive Type str", "method.trim"),
            Some("str::trim".into())
        );
        assert_eq!(name("pub fn push(&mut self, value: T)", "Vectors", "method.push"), None);
        assert_eq!(name("public void push(T value)", vec, "push(T)"), None);
        // QDoc: a call at the anchor its name spells.
        assert_eq!(name("qDebug(const char *message, ...)", "<QtGlobal>", "qDebug"), Some("qDebug".into()));
        assert_eq!(
            name("void QList::append(const T &value)", "QList Class", "append"),
            Some("QList::append".into())
        );
        assert_eq!(
            name("update(**kwargs)", "QuerySet API reference", "django.db.models.query.QuerySet.update"),
            None
        );
        assert_eq!(name("QVector::~QVector()", "QVector Class", "dtor.QVector"), None);
        // Doxygen: a member's empty call, an overload's number after it.
        assert_eq!(name("perspective()", "GLM_EXT_matrix_clip_space", "ga12af"), Some("perspective".into()));
        assert_eq!(name("parse() [2/3]", "Json::Reader Class Reference", "a1b2"), Some("parse".into()));
        for other in ["parse() [2/]", "parse() [a/3]", "parse(x)", "()", "9lives()", "a b()", "Parse [1/2]"] {
            assert_eq!(empty_call(other), None, "{other}");
        }
        // Titles naming an entity by its kind.
        assert_eq!(title_entity("Struct std::vec::Vec"), Some("std::vec::Vec"));
        assert_eq!(title_entity("Primitive Type str"), Some("str"));
        assert_eq!(title_entity("Derive Macro core::fmt::Debug"), Some("core::fmt::Debug"));
        assert_eq!(title_entity("QVector Class"), Some("QVector"));
        assert_eq!(title_entity("Frob::Table Class Reference"), Some("Frob::Table"));
        assert_eq!(title_entity("Function template split"), Some("split"));
        assert_eq!(title_entity("Class: MockAgent"), Some("MockAgent"));
        assert_eq!(title_entity("Class: fs.Dir"), Some("fs.Dir"));
        assert_eq!(title_entity("Class: Client"), Some("Client"));
        assert_eq!(title_entity("Class: Client and its pools"), None);
        for title in [
            "Class Hierarchy",
            "Function Overloading",
            "Class Index",
            "Module index",
            "Struct",
            "Macros and Functions",
        ] {
            assert_eq!(title_entity(title), None, "{title}");
        }
    }

    #[test]
    fn a_page_gives_shorter_forms_to_its_first_names_only() {
        let mut page = crate::weight::tests::page("/dash/p", "Page");
        page.sections = vec![section(None, "# Page")];
        page.symbols =
            (0..MAX_PARTIAL_NAMES + 5).map(|i| symbol(&format!("m.Class{i}.f{i}"), None)).collect();
        let ([_, tails, _], _) = section_symbols(&page);
        let partials = |i: usize| partial_keys(&symbol_key(&format!("m.Class{i}.f{i}")));
        assert!(partials(0).iter().all(|k| tails[0].contains(k)));
        assert!(partials(MAX_PARTIAL_NAMES + 4).iter().all(|k| !tails[0].contains(k)));
        // Each still has its last part.
        assert!(tails[0].contains(&unqualified_key(&format!("f{}", MAX_PARTIAL_NAMES + 4))));
    }

    #[test]
    fn unqualified_names() {
        assert_eq!(unqualified("sys.setrecursionlimit"), Some("setrecursionlimit"));
        assert_eq!(unqualified("functools.lru_cache()"), Some("lru_cache"));
        assert_eq!(unqualified("std::vec::Vec"), Some("Vec"));
        assert_eq!(unqualified("pathlib.Path.exists"), Some("exists"));
        // Not qualified, too short, not a name, or words.
        for name in ["gather", "os.fd", "a.b.1", "9.6", ".npmrc", "Array.prototype[0]", "SET x.y"] {
            assert_eq!(unqualified(name), None, "{name}");
        }
    }

    #[test]
    fn defined_terms_stay_on_their_sections() {
        let mut page = crate::weight::tests::page("/pg/xindex", "Interfacing Extensions to Indexes");
        page.sections = vec![section(None, "# Interfacing"), section(Some("opclass"), "## Strategies")];
        page.symbols = vec![
            symbol("amhandler", None),
            Symbol {
                entry: None,
                name: "Operator Classes".into(),
                kind: DEFINED_TERM.into(),
                anchor: Some("opclass".into()),
            },
        ];
        let ([found, ..], _) = section_symbols(&page);
        assert_eq!(found[1], [defined_key("operator class")], "stemmed, in its own key space");
        // A defined term does not favour every section of its page.
        assert_eq!(page_symbols(&found), ["amhandler"]);
    }
}
