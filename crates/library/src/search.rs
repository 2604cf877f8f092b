//! Ranked search as every face offers it: parameters and their limits
//! (at most 50 results a time, offsets to 10,000), scope resolution, and
//! the result envelope.

use std::sync::Arc;
use std::time::{Duration, Instant};

use lectern_index::{Cancel, SearchOutcome, SearchRequest, parse_query};
use serde::{Deserialize, Serialize};

use crate::error::{LibraryError, invalid};
use crate::library::{Library, View};
use crate::limit::{Bounds, limit};
use crate::scope::{ResolvedScope, ScopeParams, resolve};

/// Longest query text, in Unicode scalar values, filters included.
pub const MAX_TEXT_CHARS: usize = 256;
pub const DEFAULT_LIMIT: usize = 20;
pub const MAX_LIMIT: usize = 50;
pub const MAX_OFFSET: usize = 10_000;
/// How many hits a search returns at a time.
pub const SEARCH_LIMIT: Bounds = limit(DEFAULT_LIMIT, MAX_LIMIT);
/// Where in the ranking a page of hits starts.
pub const SEARCH_OFFSET: Bounds = Bounds { name: "offset", min: 0, max: MAX_OFFSET, default: 0, unit: None };

/// A search request (seed 000's `search_documentation` parameters; `branch`
/// is accepted for `version`).
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
    pub next_offset: Option<usize>,
    pub timed_out: bool,
    pub cancelled: bool,
    pub candidate_truncated: bool,
    pub scope: ResolvedScope,
    pub hits: Vec<SearchHit>,
}

/// Checks a search's limit and offset against their bounds.
pub fn check_paging(limit: Option<i64>, offset: Option<i64>) -> Result<(usize, usize), LibraryError> {
    Ok((SEARCH_LIMIT.check(limit)?, SEARCH_OFFSET.check(offset)?))
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
        let cache = self.result_cache();
        let found = self.search_by(params, deadline, cancel, self.view()?, |snapshot, request| {
            Some(if cache {
                snapshot.search_shared(request)
            } else {
                Arc::new(snapshot.search_uncached(request))
            })
        })?;
        found.ok_or_else(|| LibraryError::Internal("a search returned no outcome".into()))
    }

    /// The answer to `params` if the result cache holds it (or an error
    /// about the input), without searching: cheap enough for a face's async
    /// thread, which then hands only a miss (`Ok(None)`) to a blocking one.
    /// Also `Ok(None)` when the cache is off or a new generation's view has
    /// yet to be built.
    pub fn search_if_cached(&self, params: &SearchParams) -> Result<Option<SearchResponse>, LibraryError> {
        if !self.result_cache() {
            return Ok(None);
        }
        let Some(view) = self.current_view() else { return Ok(None) };
        self.search_by(params, None, None, view, |snapshot, request| snapshot.search_if_cached(request))
    }

    fn search_by(
        &self,
        params: &SearchParams,
        deadline: Option<Duration>,
        cancel: Option<Cancel>,
        view: Arc<View>,
        run: impl FnOnce(&lectern_index::Snapshot, &SearchRequest<'_>) -> Option<Arc<SearchOutcome>>,
    ) -> Result<Option<SearchResponse>, LibraryError> {
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
        let scope = resolve(&view.manifest, &scope_params, &mut query)?;
        if query.words.is_empty() && query.phrases.is_empty() {
            return Err(invalid("the text has filters but no words to search for; add a word or \"phrase\""));
        }
        let mut budget = Duration::from_millis(view.manifest.deadline_ms());
        if let Some(d) = deadline {
            budget = budget.min(d);
        }
        let request = SearchRequest {
            query: &query,
            editions: &scope.editions,
            last_word_prefix: params.prefix,
            limit,
            offset,
            deadline: Instant::now() + budget,
            cancel,
        };
        let Some(outcome) = run(&view.snapshot, &request) else { return Ok(None) };
        // Copied once, from the result the cache may share.
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
        let end = offset + hits.len();
        let has_more = end < outcome.total;
        Ok(Some(SearchResponse {
            generation: view.generation.clone(),
            total: outcome.total,
            has_more,
            next_offset: has_more.then_some(end),
            timed_out: outcome.timed_out,
            cancelled: outcome.cancelled,
            candidate_truncated: outcome.candidate_truncated,
            scope,
            hits,
        }))
    }
}
