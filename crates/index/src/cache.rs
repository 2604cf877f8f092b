//! Recent search results of one snapshot. A generation never changes, so a
//! result stays right for as long as its snapshot lives: an agent asking
//! again, a page re-rendered, search as you type going back a letter are
//! answered without searching. Bounded by an estimate of the bytes held;
//! the least recently used results go first.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::request::{SearchOutcome, SearchRequest};

/// Bytes of results one snapshot keeps, at most (estimated).
const MAX_BYTES: usize = 4 * 1024 * 1024;

#[derive(Default)]
pub(crate) struct ResultCache {
    inner: Mutex<Inner>,
    hits: AtomicU64,
    misses: AtomicU64,
}

#[derive(Default)]
struct Inner {
    /// key → (last use, estimated bytes, outcome)
    entries: HashMap<Key, (u64, usize, Arc<SearchOutcome>)>,
    bytes: usize,
    clock: u64,
}

/// Everything a result depends on besides the snapshot (not the deadline
/// nor the cancel flag: only complete results are kept).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    words: Vec<String>,
    phrases: Vec<String>,
    excluded: Vec<String>,
    editions: Vec<String>,
    twins: Vec<crate::request::Twin>,
    last_word_prefix: bool,
    limit: usize,
    offset: usize,
}

impl Key {
    pub(crate) fn of(request: &SearchRequest<'_>) -> Key {
        let q = request.query;
        Key {
            words: q.words.clone(),
            phrases: q.phrases.clone(),
            excluded: q.excluded.clone(),
            editions: request.editions.to_vec(),
            twins: request.twins.to_vec(),
            last_word_prefix: request.last_word_prefix,
            limit: request.limit,
            offset: request.offset,
        }
    }

    /// Bytes the key holds, roughly.
    fn size(&self) -> usize {
        [&self.words, &self.phrases, &self.excluded, &self.editions]
            .into_iter()
            .flatten()
            .map(|s| s.len() + 4)
            .sum::<usize>()
            + self
                .twins
                .iter()
                .map(|t| t.edition.len() + t.prefix.len() + t.scope_edition.len() + t.scope_prefix.len() + 16)
                .sum::<usize>()
            + 32
    }
}

fn size(key: &Key, outcome: &SearchOutcome) -> usize {
    let hits: usize = outcome
        .hits
        .iter()
        .map(|h| {
            160 + h.section_key.len()
                + h.edition.len()
                + h.path.len()
                + h.anchor.as_ref().map_or(0, String::len)
                + h.title.len()
                + h.breadcrumb.iter().map(|b| b.len() + 24).sum::<usize>()
                + h.snippet.len()
                + h.highlights.len() * 16
        })
        .sum();
    128 + key.size() + hits
}

impl ResultCache {
    /// A panic elsewhere while holding the lock leaves a consistent map.
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The result kept for `key`; `count_miss`: whether not finding it is
    /// counted as a miss.
    pub(crate) fn get(&self, key: &Key, count_miss: bool) -> Option<Arc<SearchOutcome>> {
        let mut inner = self.lock();
        inner.clock += 1;
        let now = inner.clock;
        let Some(entry) = inner.entries.get_mut(key) else {
            if count_miss {
                self.misses.fetch_add(1, Ordering::Relaxed);
            }
            return None;
        };
        entry.0 = now;
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(entry.2.clone())
    }

    /// Keeps a complete result (one cut short by a deadline or a cancel is
    /// not the answer to the next caller).
    pub(crate) fn put(&self, key: Key, outcome: &Arc<SearchOutcome>) {
        if outcome.timed_out || outcome.cancelled {
            return;
        }
        let bytes = size(&key, outcome);
        if bytes > MAX_BYTES / 8 {
            return;
        }
        let kept = outcome.clone();
        let mut inner = self.lock();
        inner.clock += 1;
        let now = inner.clock;
        while inner.bytes + bytes > MAX_BYTES {
            let Some(oldest) = inner.entries.iter().min_by_key(|(_, e)| e.0).map(|(k, _)| k.clone()) else {
                break;
            };
            if let Some((_, b, _)) = inner.entries.remove(&oldest) {
                inner.bytes -= b;
            }
        }
        if let Some((_, b, _)) = inner.entries.insert(key, (now, bytes, kept)) {
            inner.bytes -= b;
        }
        inner.bytes += bytes;
    }

    /// Searches answered from the cache so far, and searches looked up in
    /// it and not found.
    pub(crate) fn counts(&self) -> (u64, u64) {
        (self.hits.load(Ordering::Relaxed), self.misses.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::query::parse_query;

    fn request<'a>(query: &'a crate::ParsedQuery, editions: &'a [String]) -> SearchRequest<'a> {
        SearchRequest {
            query,
            editions,
            twins: &[],
            last_word_prefix: false,
            limit: 20,
            offset: 0,
            deadline: Instant::now(),
            cancel: None,
        }
    }

    #[test]
    fn keys_differ_by_every_field_but_the_deadline_and_the_cancel_flag() {
        let editions = vec!["a@1/en".to_string()];
        let query = parse_query("create index -heap \"for update\"").unwrap();
        let key = Key::of(&request(&query, &editions));
        let later = SearchRequest {
            deadline: Instant::now(),
            cancel: Some(Default::default()),
            ..request(&query, &editions)
        };
        assert_eq!(Key::of(&later), key);
        // A word moved between lists is another query.
        let (one, two) = (parse_query("a \"b\"").unwrap(), parse_query("\"a\" b").unwrap());
        assert_ne!(Key::of(&request(&one, &editions)), Key::of(&request(&two, &editions)));
        let other = vec!["a@1/en".to_string(), "b@1/en".to_string()];
        assert_ne!(Key::of(&request(&query, &other)), key);
        for changed in [
            SearchRequest { last_word_prefix: true, ..request(&query, &editions) },
            SearchRequest { limit: 10, ..request(&query, &editions) },
            SearchRequest { offset: 20, ..request(&query, &editions) },
        ] {
            assert_ne!(Key::of(&changed), key);
        }
    }

    #[test]
    fn a_result_cut_short_is_not_kept() {
        let editions = vec!["a@1/en".to_string()];
        let query = parse_query("vacuum").unwrap();
        let key = Key::of(&request(&query, &editions));
        let cache = ResultCache::default();
        cache.put(key.clone(), &Arc::new(SearchOutcome { timed_out: true, ..Default::default() }));
        assert!(cache.get(&key, true).is_none());
        cache.put(key.clone(), &Arc::new(SearchOutcome::default()));
        assert!(cache.get(&key, true).is_some());
        assert_eq!(cache.counts(), (1, 1));
    }
}
