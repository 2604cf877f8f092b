//! Reading: a section's plain text (or Markdown) and a page's Markdown as
//! written, paged in Unicode scalar values so no character is ever split.
//! A read whose client went away stops at its next step (the face sets the
//! cancel flag when the connection drops).

use std::sync::atomic::{AtomicBool, Ordering};

use lectern_corpus::{html, markdown, paths};
use lectern_index::PageRecord;
use serde::{Deserialize, Serialize};

use crate::edition::{EditionRecord, Status, in_prefix};
use crate::error::{LibraryError, invalid};
use crate::library::Library;
use crate::limit::{Bounds, limit};
use crate::pages::resolve::Translations;
use crate::path::{MAX_PATH_BYTES, NotASitePath, PathProblem, SitePath};
use crate::view::View;

pub const DEFAULT_READ_LIMIT: usize = 16_000;
pub const MAX_READ_LIMIT: usize = 50_000;
/// How many Unicode scalar values one read returns at most.
pub const READ_LIMIT: Bounds =
    Bounds { unit: Some("characters"), ..limit(DEFAULT_READ_LIMIT, MAX_READ_LIMIT) };

/// Text or Markdown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReadFormat {
    #[default]
    Text,
    Markdown,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReadSectionRequest {
    pub section_key: String,
    /// Expected generation (from the search that returned the key).
    pub generation: Option<String>,
    /// Start, in Unicode scalar values (default 0).
    pub offset: Option<i64>,
    /// How many Unicode scalar values at most (default 16,000, max 50,000).
    pub limit: Option<i64>,
    #[serde(default)]
    pub format: ReadFormat,
}

/// Where a section or page lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EditionRef {
    pub edition: String,
    pub project: String,
    pub version: String,
    pub locale: String,
    pub domain: String,
    pub collection: Option<String>,
    pub label: String,
    pub r#ref: Option<String>,
    pub status: Status,
    pub prefix: String,
}

impl From<&EditionRecord> for EditionRef {
    fn from(e: &EditionRecord) -> Self {
        EditionRef {
            edition: e.id.clone(),
            project: e.project.clone(),
            version: e.version.clone(),
            locale: e.locale.clone(),
            domain: e.domain.clone(),
            collection: e.collection.clone(),
            label: e.label.clone(),
            r#ref: e.r#ref.clone(),
            status: e.status,
            prefix: e.prefix.clone(),
        }
    }
}

/// A window of text and where the next one starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TextWindow {
    pub format: ReadFormat,
    /// Length of the whole text in Unicode scalar values.
    pub total_length: usize,
    pub offset: usize,
    pub content: String,
    /// Where to continue; null at the end.
    pub next_offset: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SectionResponse {
    pub generation: String,
    pub section_key: String,
    pub title: String,
    pub breadcrumb: Vec<String>,
    pub path: String,
    pub anchor: Option<String>,
    #[serde(flatten)]
    pub edition: EditionRef,
    #[serde(flatten)]
    pub window: TextWindow,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReadPageRequest {
    /// A full site path (`/postgresql/sql-createindex`), or a path relative
    /// to `edition`; an `#anchor` after it reads the section it names with
    /// its subsections (`next_offset` says where the page goes on), unless
    /// `offset` or `limit` is given.
    pub path: String,
    /// Edition id; when given, `path` is relative to its prefix.
    pub edition: Option<String>,
    pub generation: Option<String>,
    pub offset: Option<i64>,
    pub limit: Option<i64>,
    /// `markdown` (default for pages: as written) or `text`.
    pub format: Option<ReadFormat>,
}

/// A section of a page, for a table of contents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SectionEntry {
    pub section_key: String,
    pub title: String,
    pub anchor: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PageResponse {
    pub generation: String,
    pub path: String,
    pub title: String,
    pub description: Option<String>,
    #[serde(flatten)]
    pub edition: EditionRef,
    /// The page's original frontmatter, verbatim (Markdown sources).
    pub frontmatter: Option<String>,
    pub sections: Vec<SectionEntry>,
    #[serde(flatten)]
    pub window: TextWindow,
}

/// Cuts `[offset, offset+limit)` Unicode scalar values out of `text`.
pub fn window(
    text: &str,
    format: ReadFormat,
    offset: Option<i64>,
    limit: Option<i64>,
) -> Result<TextWindow, LibraryError> {
    let limit = READ_LIMIT.check(limit)?;
    let offset = offset.unwrap_or(0);
    let total = text.chars().count();
    if offset < 0 || offset as usize > total {
        return Err(invalid(format!(
            "offset {offset} is past the end: this text has {total} characters (allowed 0 to {total})"
        )));
    }
    let offset = offset as usize;
    let start = text.char_indices().nth(offset).map_or(text.len(), |(i, _)| i);
    let rest = &text[start..];
    let end = rest.char_indices().nth(limit).map_or(rest.len(), |(i, _)| i);
    let content = rest[..end].to_owned();
    let next = offset + limit;
    Ok(TextWindow {
        format,
        total_length: total,
        offset,
        content,
        next_offset: (next < total).then_some(next),
    })
}

/// Fails once `cancel` is set: the client is gone, nobody reads the answer.
fn go_on(cancel: Option<&AtomicBool>) -> Result<(), LibraryError> {
    match cancel {
        Some(c) if c.load(Ordering::Relaxed) => {
            Err(LibraryError::Timeout("the read was stopped: its request was given up".into()))
        }
        _ => Ok(()),
    }
}

impl Library {
    /// A section's text by key (from a search in the same generation).
    pub fn read_section(&self, request: &ReadSectionRequest) -> Result<SectionResponse, LibraryError> {
        self.read_section_unless(request, None)
    }

    /// [`Library::read_section`], stopped once `cancel` is set.
    pub fn read_section_unless(
        &self,
        request: &ReadSectionRequest,
        cancel: Option<&AtomicBool>,
    ) -> Result<SectionResponse, LibraryError> {
        go_on(cancel)?;
        let view = self.view()?;
        view.check_generation(request.generation.as_deref())?;
        let key = request.section_key.trim();
        if key.is_empty() {
            return Err(invalid("section_key is empty; take one from a search result"));
        }
        let not_found = || {
            LibraryError::NotFound(format!(
                "no section {key:?} in generation {}; search again and use a section_key from its results",
                view.generation
            ))
        };
        let section = match request.format {
            ReadFormat::Text => view.snapshot.section(key),
            ReadFormat::Markdown => view.snapshot.section_with_markdown(key),
        }
        .ok_or_else(not_found)?;
        go_on(cancel)?;
        let edition = view.manifest.edition(&section.edition).filter(|e| e.enabled).ok_or_else(not_found)?;
        let text = match request.format {
            ReadFormat::Text => &section.text,
            ReadFormat::Markdown => section.markdown.as_deref().ok_or_else(|| {
                LibraryError::Internal(format!(
                    "the Markdown of section {key} could not be read from its page {}; \
                     `lectern repair` rebuilds the index",
                    section.page_path
                ))
            })?,
        };
        let window = window(text, request.format, request.offset, request.limit)?;
        Ok(SectionResponse {
            generation: view.generation.clone(),
            section_key: section.key.clone(),
            title: section.title.clone(),
            breadcrumb: section.breadcrumb.clone(),
            path: section.page_path.clone(),
            anchor: section.anchor.clone(),
            edition: edition.into(),
            window,
        })
    }

    /// A page by full site path (or edition + relative path).
    pub fn read_page(&self, request: &ReadPageRequest) -> Result<PageResponse, LibraryError> {
        self.read_page_unless(request, None)
    }

    /// [`Library::read_page`], stopped once `cancel` is set (a huge page's
    /// table of contents reads every section: the flag is checked for each).
    pub fn read_page_unless(
        &self,
        request: &ReadPageRequest,
        cancel: Option<&AtomicBool>,
    ) -> Result<PageResponse, LibraryError> {
        go_on(cancel)?;
        let view = self.view()?;
        view.check_generation(request.generation.as_deref())?;
        let (edition, path, landing) = locate_page(&view, request.edition.as_deref(), &request.path)?;
        let page =
            view.snapshot.page(&edition.id, path.as_str()).ok_or_else(|| missing_page(&view, &path))?;
        let anchor = fragment(&request.path).or(landing.as_deref().and_then(fragment));
        let format = request.format.unwrap_or(ReadFormat::Markdown);
        let text = match format {
            ReadFormat::Text => &page.text,
            ReadFormat::Markdown => &page.markdown,
        };
        go_on(cancel)?;
        // A path's `#anchor` starts the window at the part it names, unless
        // an offset says where; a section's window ends with it (and its
        // subsections), unless a limit says how long.
        let (offset, limit) = match (request.offset, anchor) {
            (None, Some(anchor)) => {
                let (at, end) = anchor_offset(&view, &page, text, format, anchor)?;
                let span = end.map(|end| end.saturating_sub(at).clamp(1, DEFAULT_READ_LIMIT) as i64);
                (Some(at as i64), request.limit.or(span))
            }
            (offset, _) => (offset, request.limit),
        };
        let window = window(text, format, offset, limit)?;
        let mut sections = Vec::with_capacity(page.section_keys.len());
        for key in &page.section_keys {
            go_on(cancel)?;
            if let Some(s) = view.snapshot.section(key) {
                sections.push(SectionEntry { section_key: s.key, title: s.title, anchor: s.anchor });
            }
        }
        Ok(PageResponse {
            generation: view.generation.clone(),
            path: page.path.clone(),
            title: page.title.clone(),
            description: page.description.clone(),
            edition: edition.into(),
            frontmatter: page.frontmatter.clone(),
            sections,
            window,
        })
    }
}

/// The anchor a path ends with (`#normal-libraries`), if any.
fn fragment(path: &str) -> Option<&str> {
    path.split_once('#').map(|(_, anchor)| anchor.trim()).filter(|a| !a.is_empty())
}

/// Where in `text` (the page's, in `format`), in chars, the part `anchor`
/// names starts: the section it is the anchor of, or in Markdown the line
/// holding the element that carries it; and for a section, where it ends
/// with its subsections (where the next section not under it starts, or
/// the text's end). A page without it is an error naming the anchors it has.
fn anchor_offset(
    view: &View,
    page: &PageRecord,
    text: &str,
    format: ReadFormat,
    anchor: &str,
) -> Result<(usize, Option<usize>), LibraryError> {
    let index = page.anchors.iter().position(|a| a.as_deref() == Some(anchor));
    let part_of = |key: &String| match format {
        ReadFormat::Text => view.snapshot.section(key).map(|s| (s.text, s.breadcrumb.len())),
        ReadFormat::Markdown => {
            view.snapshot.section_with_markdown(key).and_then(|s| Some((s.markdown?, s.breadcrumb.len())))
        }
    };
    let section = index.and_then(|i| page.section_keys.get(i)).and_then(part_of);
    let at =
        section.as_ref().filter(|(part, _)| !part.is_empty()).and_then(|(part, _)| text.find(part.as_str()));
    if let (Some(at), Some(i), Some((own, depth))) = (at, index, &section) {
        // The next section at its depth or above (its breadcrumb no longer).
        let after = page.section_keys.iter().skip(i + 1).filter_map(part_of).find(|(_, d)| d <= depth);
        let end = match after {
            Some((part, _)) if !part.is_empty() => {
                let from = at + own.len();
                text[from..].find(part.as_str()).map(|e| from + e)
            }
            Some(_) => None,
            None => Some(text.len()),
        };
        let chars = |b: usize| text[..b].chars().count();
        return Ok((chars(at), end.map(chars)));
    }
    let inner = || {
        let heading = text.find(&format!("{{#{anchor}}}"));
        let at = heading.into_iter().chain(element_at(text, anchor)).min()?;
        Some(text[..at].rfind('\n').map_or(0, |nl| nl + 1))
    };
    let at = at.or_else(|| match format {
        ReadFormat::Markdown => inner(),
        ReadFormat::Text => inner_in_text(view, page, text, anchor),
    });
    match at {
        Some(at) => Ok((text[..at].chars().count(), None)),
        None => {
            let listed: Vec<&str> = page.anchors.iter().flatten().map(String::as_str).take(12).collect();
            Err(LibraryError::NotFound(format!(
                "no #{anchor} on {}; read it without the anchor, or with one of its sections' anchors ({})",
                page.path,
                if listed.is_empty() { "it has none".to_owned() } else { listed.join(", ") }
            )))
        }
    }
}

/// Where in `markdown`, in bytes, the element whose id or name is
/// `anchor` is written (`<a id="wantarray">`, `<a name="rotate">`).
fn element_at(markdown: &str, anchor: &str) -> Option<usize> {
    [format!("id=\"{anchor}\""), format!("name=\"{anchor}\"")]
        .iter()
        .filter_map(|m| markdown.find(m.as_str()))
        .min()
}

/// Where in the page's plain `text`, in bytes, the element carrying
/// `anchor` inside a section (pod2html's `<dt id="wantarray">` in its list
/// of functions) starts: the words that follow it in the Markdown, where
/// the text holds them after the start of the section holding it (the last
/// section whose heading's `{#anchor}` comes before it), else that
/// section's start. One section read, whatever the number of sections;
/// None when the page has no such element.
fn inner_in_text(view: &View, page: &PageRecord, text: &str, anchor: &str) -> Option<usize> {
    let markdown = page.markdown.as_str();
    // A heading no section is cut at (the page's own, DocBook's `<h1>` with
    // the chapter's id): where the section holding it starts.
    let heading = markdown.find(&format!("{{#{anchor}}}"));
    let mark = element_at(markdown, anchor).or(heading)?;
    let sections: std::collections::HashMap<&str, usize> =
        page.anchors.iter().enumerate().filter_map(|(i, a)| Some((a.as_deref()?, i))).collect();
    let holding = markdown[..mark]
        .match_indices("{#")
        .filter_map(|(at, _)| {
            let name = &markdown[at + 2..mark];
            sections.get(&name[..name.find('}')?]).copied()
        })
        .last()
        .unwrap_or(0);
    let section = page.section_keys.get(holding).and_then(|key| view.snapshot.section(key));
    let start = section.filter(|s| !s.text.is_empty()).and_then(|s| text.find(s.text.as_str())).unwrap_or(0);
    if heading == Some(mark) {
        return Some(start);
    }
    // The words after the element (`<a id="wantarray"></a>wantarray`), on
    // its line or the next, found however the text breaks its lines.
    let rest = &markdown[mark..];
    let after =
        rest.find("</a>").map_or_else(|| rest.find('>').map_or("", |i| &rest[i + 1..]), |i| &rest[i + 4..]);
    let cleaned: String =
        after.chars().take(400).filter(|c| !matches!(c, '*' | '`' | '[' | ']' | '\\')).collect();
    // (List markers are no words; the next element's tag ends them.)
    let words: Vec<&str> = cleaned
        .split_whitespace()
        .take_while(|w| !w.starts_with('<'))
        .filter(|w| !matches!(*w, "-" | "+" | ">"))
        .take(3)
        .collect();
    let first = words.first()?;
    let found = text[start..].match_indices(first).map(|(at, _)| start + at).find(|&at| {
        let mut following = text[at..].split_whitespace();
        words.iter().all(|w| following.next() == Some(*w))
    });
    Some(found.unwrap_or(start))
}

/// Finds the enabled edition holding `path` (longest prefix first, so
/// `/postgresql/13/x` goes to the 13 edition, not the current one); with an
/// edition given, `path` is relative to its prefix. A path that is another
/// path of a page (an old address, a file's other name) finds that page,
/// with the path and fragment it leads to (the third part).
fn locate_page<'v>(
    view: &'v View,
    edition: Option<&str>,
    path: &str,
) -> Result<(&'v EditionRecord, SitePath, Option<String>), LibraryError> {
    let moved =
        |e: &'v EditionRecord, to: String| Ok((e, SitePath::parse(&to).map_err(not_a_site_path)?, Some(to)));
    if let Some(id) = edition {
        let e = view.edition(id)?;
        if !e.enabled {
            return Err(LibraryError::NotFound(format!(
                "edition {} is disabled; enable it with `lectern enable {}`",
                e.id, e.id
            )));
        }
        let path = path.split('#').next().unwrap_or("").trim();
        let rel = path.trim_start_matches('/').trim_end_matches('/');
        let full = match (e.prefix.as_str(), rel) {
            ("/" | "", "") => "/".to_owned(),
            ("/" | "", r) => format!("/{r}"),
            (p, "") => p.to_owned(),
            (p, r) if in_prefix(&format!("/{r}"), p) => format!("/{r}"),
            (p, r) => format!("{p}/{r}"),
        };
        let full = SitePath::parse(&full).map_err(not_a_site_path)?;
        if view.table(e).find(full.as_str()).is_none()
            && let Some(to) = view.snapshot.moved(&e.id, full.as_str())
        {
            return moved(e, to);
        }
        return Ok((e, full, None));
    }
    let path = SitePath::parse(path).map_err(not_a_site_path)?;
    match view.resolve(&path, Translations::Own) {
        Some(found) => Ok((found.owner, path, None)),
        None => match view.moved_to(&path) {
            Some((owner, to)) => moved(owner, to),
            None => Err(missing_page(view, &path)),
        },
    }
}

fn not_a_site_path(bad: NotASitePath<'_>) -> LibraryError {
    let given = bad.given;
    match bad.problem {
        PathProblem::NotFull => invalid(format!(
            "path {given:?} must be a full site path starting with / (e.g. /postgresql/sql-createindex), or give the edition"
        )),
        PathProblem::Malformed => invalid(format!(
            "path {:?} is not a site path: a site path has at most {MAX_PATH_BYTES} bytes and no control characters (e.g. /postgresql/sql-createindex)",
            given.chars().take(80).collect::<String>()
        )),
    }
}

fn missing_page(view: &View, path: &SitePath) -> LibraryError {
    match near_page(view, path) {
        Some(near) => LibraryError::NotFound(format!(
            "no page at {path}; a page's path has no file extension or `/index`: read {near}"
        )),
        None => LibraryError::NotFound(format!(
            "no page at {path} in the enabled editions; pages live under these prefixes: {}",
            view.prefixes()
        )),
    }
}

/// The page a path written as a file names (`/pino/api.md`,
/// `/app/guide/index.html`, `/fastify/index` → `/pino/api`, `/app/guide`,
/// `/fastify`), by the rule that names a page after its file
/// ([`paths::page_rel`]), when there is one. A path whose last part has
/// some other extension (`/pg/release-9.6`) names no file.
fn near_page(view: &View, path: &SitePath) -> Option<SitePath> {
    let written = path.as_str();
    let file = written.trim_start_matches('/');
    let name = file.rsplit('/').next().unwrap_or(file);
    if name.contains('.') && !markdown::is_markdown(file) && !html::is_html(file) {
        return None;
    }
    let near = SitePath::parse(&format!("/{}", paths::page_rel(file))).ok()?;
    (near.as_str() != written && view.resolve(&near, Translations::Own).is_some()).then_some(near)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_count_scalars_and_never_split_them() {
        let text = "héllo, 世界! 🎉 end";
        let w = window(text, ReadFormat::Text, Some(7), Some(2)).unwrap();
        assert_eq!(w.content, "世界");
        assert_eq!(w.next_offset, Some(9));
        let all: String = (0..)
            .step_by(3)
            .map_while(|o| {
                let w = window(text, ReadFormat::Text, Some(o), Some(3)).ok()?;
                (!w.content.is_empty()).then_some(w.content)
            })
            .collect();
        assert_eq!(all, text);
        let last = window(text, ReadFormat::Text, Some(15), Some(3)).unwrap();
        assert_eq!(last.next_offset, None);
    }

    #[test]
    fn windows_reject_bad_ranges_saying_what_is_allowed() {
        let e = window("abc", ReadFormat::Text, Some(4), None).unwrap_err();
        assert!(e.to_string().contains("allowed 0 to 3"), "{e}");
        let e = window("abc", ReadFormat::Text, None, Some(50_001)).unwrap_err();
        assert!(e.to_string().contains("1 to 50000"), "{e}");
        assert_eq!(window("abc", ReadFormat::Text, Some(3), None).unwrap().content, "");
    }
}
