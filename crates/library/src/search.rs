//! Ranked search as every face offers it: parameters and their limits
//! (at most 50 results a time, offsets to 10,000, so a ranked list is read
//! no further than 10,050 hits), scope resolution, the result cache in
//! front, and the result envelope.

use std::sync::Arc;
use std::time::{Duration, Instant};

use lectern_index::tokenizer::has_operator;
use lectern_index::{Cancel, FILTER_NAMES, ParsedQuery, SearchOutcome, SearchRequest, Twin, parse_query};
use serde::{Deserialize, Serialize};

use crate::error::{LibraryError, invalid};
use crate::library::{Library, View};
use crate::limit::{Bounds, limit};
use crate::manifest::Manifest;
use crate::scope::{ResolvedScope, ScopeParams, resolve_guessing};

/// Longest query text, in Unicode scalar values, filters included.
pub const MAX_TEXT_CHARS: usize = 256;
pub const DEFAULT_LIMIT: usize = 20;
pub const MAX_LIMIT: usize = 50;
pub const MAX_OFFSET: usize = 10_000;
/// How many hits a search returns at a time.
pub const SEARCH_LIMIT: Bounds = limit(DEFAULT_LIMIT, MAX_LIMIT);
/// Where in the ranking a page of hits starts.
pub const SEARCH_OFFSET: Bounds = Bounds { name: "offset", min: 0, max: MAX_OFFSET, default: 0, unit: None };

/// A search request (the parameters of the stdio MCP tool
/// `search_documentation`; `branch` is accepted for `version`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchParams {
    /// Search text, at most 256 characters; filters (`project:`, `version:`,
    /// `locale:`, `domain:`, `collection:`) and a version prefix like `PG96:` in
    /// the text win over the parameters.
    pub text: String,
    pub project: Option<String>,
    #[serde(alias = "branch")]
    pub version: Option<String>,
    pub locale: Option<String>,
    pub domain: Option<String>,
    pub collection: Option<String>,
    pub limit: Option<i64>,
    pub offset: Option<i64>,
    /// Expected generation; a different current one fails with `generation_changed`.
    pub generation: Option<String>,
    /// Treat the last word as a prefix (search as you type).
    #[serde(default)]
    pub prefix: bool,
}

/// One ranked result: a section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchHit {
    pub section_key: String,
    pub title: String,
    pub breadcrumb: Vec<String>,
    /// Full site path of the page.
    pub path: String,
    /// The section's anchor in the page, if any.
    pub anchor: Option<String>,
    /// The id of the entry inside the section that defines a name the
    /// query asks (an option, a setting, a function), if any: link to
    /// `path#entry` to land on it.
    pub entry: Option<String>,
    pub edition: String,
    pub project: String,
    pub version: String,
    pub locale: String,
    pub domain: String,
    pub collection: Option<String>,
    pub snippet: String,
    /// `[start, end)` in Unicode scalar offsets of `snippet`.
    pub highlights: Vec<[usize; 2]>,
    pub score: f32,
}

/// The envelope every face returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchResponse {
    pub generation: String,
    pub total: usize,
    pub has_more: bool,
    // The `offset` of the next page while `has_more`; never past the
    // largest offset accepted (10,000). Plain comments: these fields'
    // schema is the published API's, described in docs/local-api.md.
    pub next_offset: Option<usize>,
    pub timed_out: bool,
    pub cancelled: bool,
    // The ranked list was cut: too many candidates, or it goes on past the
    // last page offsets can reach (then `has_more` is false).
    pub candidate_truncated: bool,
    pub scope: ResolvedScope,
    pub hits: Vec<SearchHit>,
    /// When the scope has no hits: the other enabled locales, versions or
    /// projects that have some (never a silent zero).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elsewhere: Vec<Elsewhere>,
    /// With `elsewhere`: the sentence people and agents read, e.g.
    /// `0 in en; 30 in zh-Hans: add locale:zh-Hans`. Without it, on a zero
    /// from a query with no letters, digits or operators (`{}`): why, and what
    /// to search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// Hits outside the scope searched: in another locale, version or project
/// (the one that differs is set), with how many there are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Elsewhere {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    pub total: usize,
}

impl Elsewhere {
    /// The filters that search there (`locale:zh-Hans`, `project:bash
    /// locale:en`).
    pub fn filter(&self) -> String {
        self.parts().iter().map(|(key, value)| format!("{key}:{value}")).collect::<Vec<_>>().join(" ")
    }

    /// What differs, as (filter key, value): project, version, locale.
    fn parts(&self) -> Vec<(&'static str, &str)> {
        [("project", &self.project), ("version", &self.version), ("locale", &self.locale)]
            .into_iter()
            .filter_map(|(key, value)| Some((key, value.as_deref()?)))
            .collect()
    }
}

impl SearchResponse {
    /// What every face says of a zero with hits elsewhere: `0 in en; 30 in
    /// zh-Hans: add locale:zh-Hans` (`0 in debref/zh-Hans; 4 in bash/en: add
    /// project:bash locale:en` where two differ). None when there is nothing
    /// to say. The one place the sentence is built; responses carry it as
    /// `hint`.
    pub fn elsewhere_hint(&self) -> Option<String> {
        let first = self.elsewhere.first()?;
        let scoped = |key: &str| match key {
            "project" => self.scope.project.as_str(),
            "version" => self.scope.version.as_str(),
            _ => self.scope.locale.as_str(),
        };
        let here: Vec<&str> = first.parts().iter().map(|(key, _)| scoped(key)).collect();
        let there: Vec<String> = self
            .elsewhere
            .iter()
            .map(|e| {
                let name: Vec<&str> = e.parts().iter().map(|(_, value)| *value).collect();
                format!("{} in {}: add {}", e.total, name.join("/"), e.filter())
            })
            .collect();
        Some(format!("0 in {}; {}", here.join("/"), there.join("; ")))
    }
}

/// Where the next page of a ranked list starts. `next_offset` is only ever
/// an offset the next call accepts (at most [`MAX_OFFSET`]): when the list
/// goes on past that, it is `None` and `cut` says the list was cut there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Paging {
    pub next_offset: Option<usize>,
    pub cut: bool,
}

impl Paging {
    /// After `shown` hits from `offset` of a list of `total`.
    pub(crate) fn after(offset: usize, shown: usize, total: usize) -> Paging {
        let end = offset + shown;
        let more = end < total;
        if more && end > MAX_OFFSET {
            return Paging { next_offset: None, cut: true };
        }
        Paging { next_offset: more.then_some(end), cut: false }
    }
}

/// Checks a search's limit and offset against their bounds.
pub fn check_paging(limit: Option<i64>, offset: Option<i64>) -> Result<(usize, usize), LibraryError> {
    Ok((SEARCH_LIMIT.check(limit)?, SEARCH_OFFSET.check(offset)?))
}

/// What the result cache says to a search: its answer, or the search to run.
pub enum CacheLookup {
    /// Found without searching.
    Answered(SearchResponse),
    /// Not there: run it with [`Library::search_pending`] (on a thread that
    /// may block).
    Missed(PendingSearch),
}

/// A search the result cache did not answer, as checked on the way (so it
/// is not checked again when it runs).
pub struct PendingSearch(Pending);

enum Pending {
    Checked(Checked),
    /// The cache is off, or the view of a new generation is yet to be built:
    /// nothing was checked.
    Unchecked(SearchParams),
}

/// A search whose text, paging and generation are checked and whose scope
/// is resolved against one view.
struct Checked {
    view: Arc<View>,
    query: ParsedQuery,
    scope: ResolvedScope,
    /// The scope's locale is English for want of a better guess (see
    /// [`resolve_guessing`]).
    guessed: bool,
    /// The searched manuals in other languages (see [`twins`]).
    twins: Vec<Twin>,
    limit: usize,
    offset: usize,
    prefix: bool,
}

impl Library {
    /// Ranked search. `deadline` caps the library's own deadline setting
    /// (a face passes what is left of its request budget).
    pub fn search(
        &self,
        params: &SearchParams,
        deadline: Option<Duration>,
        cancel: Option<Cancel>,
    ) -> Result<SearchResponse, LibraryError> {
        let checked = check(params, self.view()?)?;
        Ok(self.run(checked, deadline, cancel))
    }

    /// The answer to `params` if the result cache holds it (or an error
    /// about the input), without searching: cheap enough for a face's async
    /// thread, which then hands only a miss to a blocking one. Never checks
    /// the input twice: a miss carries what was checked.
    pub fn search_cached(&self, params: &SearchParams) -> Result<CacheLookup, LibraryError> {
        let unchecked = || CacheLookup::Missed(PendingSearch(Pending::Unchecked(params.clone())));
        if !self.result_cache() {
            return Ok(unchecked());
        }
        let Some(view) = self.current_view() else { return Ok(unchecked()) };
        let checked = check(params, view)?;
        // The deadline does not count: only complete results are kept.
        let cached = checked.view.snapshot.search_if_cached(&checked.request(Instant::now(), None));
        Ok(match cached {
            Some(outcome) => CacheLookup::Answered(checked.respond(&outcome)),
            None => CacheLookup::Missed(PendingSearch(Pending::Checked(checked))),
        })
    }

    /// [`Library::search_cached`]'s answer alone: `Ok(None)` on a miss,
    /// when the cache is off, or when a new generation's view has yet to be
    /// built.
    pub fn search_if_cached(&self, params: &SearchParams) -> Result<Option<SearchResponse>, LibraryError> {
        Ok(match self.search_cached(params)? {
            CacheLookup::Answered(response) => Some(response),
            CacheLookup::Missed(_) => None,
        })
    }

    /// Runs a search the result cache missed, as [`Library::search`] would.
    pub fn search_pending(
        &self,
        pending: PendingSearch,
        deadline: Option<Duration>,
        cancel: Option<Cancel>,
    ) -> Result<SearchResponse, LibraryError> {
        let checked = match pending.0 {
            Pending::Checked(checked) => checked,
            Pending::Unchecked(params) => check(&params, self.view()?)?,
        };
        Ok(self.run(checked, deadline, cancel))
    }

    /// Searches (through the result cache when it is on) within the view's
    /// deadline setting, capped by `deadline`.
    fn run(&self, checked: Checked, deadline: Option<Duration>, cancel: Option<Cancel>) -> SearchResponse {
        let mut budget = Duration::from_millis(checked.view.manifest.deadline_ms());
        if let Some(d) = deadline {
            budget = budget.min(d);
        }
        let outcome = {
            let request = checked.request(Instant::now() + budget, cancel);
            let snapshot = &checked.view.snapshot;
            if self.result_cache() {
                snapshot.search_shared(&request)
            } else {
                Arc::new(snapshot.search_uncached(&request))
            }
        };
        checked.respond(&outcome)
    }
}

/// Checks `params` against `view` and resolves their scope.
fn check(params: &SearchParams, view: Arc<View>) -> Result<Checked, LibraryError> {
    let chars = params.text.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(invalid(format!(
            "text is {chars} characters long; at most {MAX_TEXT_CHARS} are allowed (filters included)"
        )));
    }
    if params.text.trim().is_empty() {
        return Err(invalid("text is empty; give the words to search for (e.g. \"CREATE INDEX\")"));
    }
    let (limit, offset) = check_paging(params.limit, params.offset)?;
    view.check_generation(params.generation.as_deref())?;
    let mut query = parse_query(&params.text).map_err(|e| invalid(e.to_string()))?;
    let scope_params = ScopeParams {
        project: params.project.clone(),
        version: params.version.clone(),
        locale: params.locale.clone(),
        domain: params.domain.clone(),
        collection: params.collection.clone(),
    };
    let (scope, guessed) = resolve_guessing(&view.manifest, &scope_params, &mut query)?;
    if query.words.is_empty() && query.phrases.is_empty() {
        return Err(invalid("the text has filters but no words to search for; add a word or \"phrase\""));
    }
    let twins = twins(&view.manifest, &scope);
    Ok(Checked { view, query, scope, guessed, twins, limit, offset, prefix: params.prefix })
}

/// Locales written without Latin letters, whose manuals translate the
/// English terms a question may name.
const NON_LATIN_LOCALES: &[&str] = &["zh", "ja", "ko"];

fn non_latin(locale: &str) -> bool {
    NON_LATIN_LOCALES.contains(&locale.split(['-', '_']).next().unwrap_or(locale))
}

/// For each searched edition in a language written without Latin letters,
/// the enabled editions of the same manual (project, version, domain and
/// collection) in a language written with them, outside the scope: a
/// query's English words that the searched edition translates are looked
/// up there, and the searched edition's copies of the pages found count
/// as matching them.
fn twins(manifest: &Manifest, scope: &ResolvedScope) -> Vec<Twin> {
    let mut twins = Vec::new();
    for searched in
        scope.editions.iter().filter_map(|id| manifest.edition(id)).filter(|e| non_latin(&e.locale))
    {
        for other in manifest.enabled() {
            let same_manual = other.project == searched.project
                && other.version == searched.version
                && other.domain == searched.domain
                && other.collection == searched.collection;
            if same_manual && !non_latin(&other.locale) && !scope.editions.contains(&other.id) {
                twins.push(Twin {
                    edition: other.id.clone(),
                    prefix: other.prefix.clone(),
                    scope_edition: searched.id.clone(),
                    scope_prefix: searched.prefix.clone(),
                });
            }
        }
    }
    twins
}

impl Checked {
    fn request(&self, deadline: Instant, cancel: Option<Cancel>) -> SearchRequest<'_> {
        SearchRequest {
            query: &self.query,
            editions: &self.scope.editions,
            twins: &self.twins,
            last_word_prefix: self.prefix,
            limit: self.limit,
            offset: self.offset,
            deadline,
            cancel,
        }
    }

    /// The enabled editions outside the scope that hold hits, grouped by the
    /// one thing that differs: the locale (same project and version), the
    /// version (same project and locale) or the project.
    fn elsewhere(&self) -> Vec<(Elsewhere, Vec<String>)> {
        let manifest = &self.view.manifest;
        let scope = &self.scope;
        let same = |scoped: &str, value: &str| scoped == "*" || scoped == value;
        let mut groups: Vec<(Elsewhere, Vec<String>)> = Vec::new();
        for e in manifest.enabled().filter(|e| !scope.editions.contains(&e.id)) {
            // Another project may hold the query in another locale only
            // (`project:*` where the default locale narrowed it to one).
            let locale = (!same(&scope.locale, &e.locale)).then(|| e.locale.clone());
            let key = if !same(&scope.project, &e.project) {
                Elsewhere { project: Some(e.project.clone()), version: None, locale, total: 0 }
            } else if !same(&scope.version, &e.version) && same(&scope.locale, &e.locale) {
                Elsewhere { project: None, version: Some(e.version.clone()), locale: None, total: 0 }
            } else if same(&scope.version, &e.version) {
                Elsewhere { project: None, version: None, locale: Some(e.locale.clone()), total: 0 }
            } else {
                continue;
            };
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, ids)) => ids.push(e.id.clone()),
                None => groups.push((key, vec![e.id.clone()])),
            }
        }
        // Locales first, then versions, then projects.
        groups.sort_by_key(|(k, _)| (k.project.is_some(), k.locale.is_none(), k.version.is_none()));
        let deadline = Instant::now() + Duration::from_millis(manifest.deadline_ms());
        groups
            .into_iter()
            .filter_map(|(mut key, editions)| {
                let request = SearchRequest {
                    editions: &editions,
                    twins: &[],
                    limit: 1,
                    offset: 0,
                    ..self.request(deadline, None)
                };
                key.total = self.view.snapshot.search_uncached(&request).total;
                (key.total > 0).then_some((key, editions))
            })
            .collect()
    }

    /// Where the locale was only guessed and found nothing: the same search
    /// in the locale (same project and version) that holds the most hits,
    /// as if it had been given; None when no locale holds any.
    fn in_locale_holding(&self, elsewhere: &[(Elsewhere, Vec<String>)]) -> Option<Checked> {
        let (key, editions) = elsewhere
            .iter()
            .filter(|(k, _)| k.project.is_none() && k.version.is_none() && k.locale.is_some())
            .max_by_key(|(k, _)| k.total)?;
        let scope =
            ResolvedScope { locale: key.locale.clone()?, editions: editions.clone(), ..self.scope.clone() };
        Some(Checked {
            view: self.view.clone(),
            query: self.query.clone(),
            twins: twins(&self.view.manifest, &scope),
            scope,
            guessed: false,
            limit: self.limit,
            offset: self.offset,
            prefix: self.prefix,
        })
    }

    /// The envelope of `outcome`, copied once from the result the cache may share.
    fn respond(self, outcome: &SearchOutcome) -> SearchResponse {
        let view = &self.view;
        let hits: Vec<SearchHit> = outcome
            .hits
            .iter()
            .filter_map(|h| {
                let e = view.manifest.edition(&h.edition)?;
                Some(SearchHit {
                    section_key: h.section_key.clone(),
                    title: h.title.clone(),
                    breadcrumb: h.breadcrumb.clone(),
                    path: h.path.clone(),
                    anchor: h.anchor.clone(),
                    entry: h.entry.clone(),
                    edition: e.id.clone(),
                    project: e.project.clone(),
                    version: e.version.clone(),
                    locale: e.locale.clone(),
                    domain: e.domain.clone(),
                    collection: e.collection.clone(),
                    snippet: h.snippet.clone(),
                    highlights: h.highlights.clone(),
                    score: h.score,
                })
            })
            .collect();
        let paging = Paging::after(self.offset, hits.len(), outcome.total);
        let elsewhere = if outcome.total == 0 && !outcome.timed_out && !outcome.cancelled {
            self.elsewhere()
        } else {
            Vec::new()
        };
        if self.guessed
            && let Some(held) = self.in_locale_holding(&elsewhere)
        {
            let deadline = Instant::now() + Duration::from_millis(view.manifest.deadline_ms());
            let outcome = held.view.snapshot.search_uncached(&held.request(deadline, None));
            return held.respond(&outcome);
        }
        let elsewhere: Vec<Elsewhere> = elsewhere.into_iter().map(|(e, _)| e).collect();
        let mut response = SearchResponse {
            generation: view.generation.clone(),
            total: outcome.total,
            has_more: paging.next_offset.is_some(),
            next_offset: paging.next_offset,
            timed_out: outcome.timed_out,
            cancelled: outcome.cancelled,
            candidate_truncated: outcome.candidate_truncated || paging.cut,
            elsewhere,
            hint: None,
            scope: self.scope,
            hits,
        };
        response.hint = response.elsewhere_hint();
        if response.total == 0 && response.hint.is_none() {
            response.hint = wordless_hint(&self.query).or_else(|| unknown_filter_hint(&self.query));
        }
        response
    }
}

/// When nothing in a query can match because no word of it has a letter, a
/// digit or an operator the index holds (`{}`, `[]`): the sentence that
/// says so, and what to search for. (A query of operators, `::` or `->>`,
/// is searched in the text, and finding none is no fault of the query.)
fn wordless_hint(query: &ParsedQuery) -> Option<String> {
    let searchable = |w: &String| w.chars().any(char::is_alphanumeric) || has_operator(w);
    let given: Vec<&String> = query.words.iter().chain(&query.phrases).collect();
    if given.is_empty() || given.iter().copied().any(searchable) {
        return None;
    }
    let shown: Vec<&str> = given.iter().map(|w| w.as_str()).collect();
    Some(format!(
        "{} has no letters or digits, and search matches words and operators (::, ->>): \
         search for it with a name (Vec::new, a->b, --force)",
        shown.join(" ")
    ))
}

/// When a query that found nothing holds a word written as a filter that
/// is none (`title:add_library`, `site:example.org`): the sentence that says
/// so and names the filters there are. Names with a colon inside (`std::vec`,
/// `http://…`, `a:b:c`) are not taken for one.
fn unknown_filter_hint(query: &ParsedQuery) -> Option<String> {
    let written_as_filter = |w: &&String| {
        w.split_once(':').is_some_and(|(key, value)| {
            !key.is_empty()
                && key.len() <= 20
                && key.chars().all(|c| c.is_ascii_alphabetic())
                && !value.is_empty()
                && !value.contains([':', '/'])
        })
    };
    let word = query.words.iter().find(written_as_filter)?;
    let key = word.split(':').next().unwrap_or_default();
    Some(format!(
        "`{key}:` is not a filter, so {word} was searched as a word; the filters are {FILTER_NAMES}"
    ))
}

#[cfg(test)]
mod tests {
    use lectern_corpus::SiteConfig;

    use super::*;
    use crate::library::OpenMode;

    #[test]
    fn next_offset_never_passes_the_offset_cap() {
        // Within the cap: the next page's offset, or none at the end.
        assert_eq!(Paging::after(0, 20, 100), Paging { next_offset: Some(20), cut: false });
        assert_eq!(Paging::after(80, 20, 100), Paging { next_offset: None, cut: false });
        assert_eq!(Paging::after(9_950, 50, 20_000), Paging { next_offset: Some(10_000), cut: false });
        // Past it: no offset the next call would refuse, and the list says it was cut.
        assert_eq!(Paging::after(10_000, 50, 20_000), Paging { next_offset: None, cut: true });
        assert_eq!(Paging::after(9_990, 20, 20_000), Paging { next_offset: None, cut: true });
        // A list ending exactly at the last reachable hit was not cut.
        assert_eq!(Paging::after(10_000, 50, 10_050), Paging { next_offset: None, cut: false });
    }

    /// The whole call, on a ranked list longer than offsets reach: every
    /// `next_offset` it gives is accepted, and the last page says the list was cut.
    #[test]
    fn next_offset_never_passes_the_offset_cap_in_a_search() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        std::fs::create_dir_all(site.join("en")).unwrap();
        let mut body = String::from("# Widgets\n\n");
        for i in 0..10_100 {
            body.push_str(&format!("## Widget {i}\n\nwidget\n\n"));
        }
        std::fs::write(site.join("en/index.md"), body).unwrap();
        let config = "[site]\nname = \"Big\"\ndefault_locale = \"en\"\n\n[[editions]]\nproject = \"app\"\nversion = \"1\"\nlocale = \"en\"\nlabel = \"App\"\nprefix = \"/app\"\nsource = \"en\"\n";
        std::fs::write(site.join("lectern.toml"), config).unwrap();
        let config = SiteConfig::load(&site.join("lectern.toml")).unwrap();
        let lib = Library::open(&dir.path().join("lib"), OpenMode::ReadWrite).unwrap();
        lib.add_site(&config, &mut |_, _| {}, &mut |_| {}).unwrap();
        let search = |offset: i64| {
            let params = SearchParams {
                text: "widget".into(),
                limit: Some(50),
                offset: Some(offset),
                ..SearchParams::default()
            };
            lib.search(&params, Some(Duration::from_secs(60)), None).unwrap()
        };
        let r = search(9_950);
        assert!(r.total > 10_050, "the fixture's list is longer than offsets reach: {}", r.total);
        assert_eq!((r.has_more, r.next_offset, r.candidate_truncated), (true, Some(10_000), false));
        let last = search(10_000);
        assert_eq!(last.hits.len(), 50);
        assert_eq!((last.has_more, last.next_offset, last.candidate_truncated), (false, None, true));
    }

    /// A query of punctuation alone (`::`) cannot match a word: the zero
    /// comes with a sentence that says why, never silently; a query with a
    /// word in it that matches nothing has no such hint.
    #[test]
    fn a_query_without_letters_or_digits_says_why_it_found_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        std::fs::create_dir_all(site.join("en")).unwrap();
        std::fs::write(site.join("en/index.md"), "# Paths\n\nCall `Vec::new` and `a->b`.\n").unwrap();
        let config = "[site]\nname = \"P\"\ndefault_locale = \"en\"\n\n[[editions]]\nproject = \"app\"\nversion = \"1\"\nlocale = \"en\"\nlabel = \"App\"\nprefix = \"/app\"\nsource = \"en\"\n";
        std::fs::write(site.join("lectern.toml"), config).unwrap();
        let config = SiteConfig::load(&site.join("lectern.toml")).unwrap();
        let lib = Library::open(&dir.path().join("lib"), OpenMode::ReadWrite).unwrap();
        lib.add_site(&config, &mut |_, _| {}, &mut |_| {}).unwrap();
        let search = |text: &str| {
            let params = SearchParams { text: text.into(), ..SearchParams::default() };
            lib.search(&params, Some(Duration::from_secs(60)), None).unwrap()
        };
        // (A quoted phrase of punctuation alone is refused as having no search words.)
        for text in ["{}", "{} []"] {
            let r = search(text);
            assert_eq!(r.total, 0, "{text}");
            let hint = r.hint.unwrap_or_default();
            assert!(hint.contains("has no letters or digits"), "{text}: {hint}");
        }
        // Operators are searched in the text: found, or not written (no hint).
        for text in ["::", ":: ->", "-- ::", "->"] {
            let r = search(text);
            assert_eq!((r.total, r.hint.as_deref()), (1, None), "{text}");
        }
        let r = search("@@");
        assert_eq!((r.total, r.hint), (0, None));
        assert_eq!(search("Vec::new").total, 1);
        let r = search("nothingmatchesthis");
        assert_eq!((r.total, r.hint), (0, None));
        // A word written as a filter that is none says so.
        let r = search("title:paths");
        assert_eq!(r.total, 0);
        let hint = r.hint.unwrap_or_default();
        assert!(
            hint.starts_with("`title:` is not a filter, so title:paths was searched as a word"),
            "{hint}"
        );
        for text in ["std::nothing", "http://nothing.example", "a:b:c"] {
            assert_eq!(search(text).hint, None, "{text}");
        }
    }
}
