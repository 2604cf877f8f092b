//! Recent search results of one snapshot. A generation never changes, so a
//! result stays right for as long as its snapshot lives: an agent asking
//! again, a page re-rendered, search as you type going back a letter are
//! answered without searching. Bounded by an estimate of the bytes held;
//! the least recently used results go first.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::store::{SearchOutcome, SearchRequest};

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
    entries: HashMap<String, (u64, usize, Arc<SearchOutcome>)>,
    bytes: usize,
    clock: u64,
}

/// Everything a result depends on besides the snapshot (not the deadline:
/// only complete results are kept).
pub(crate) fn key(request: &SearchRequest<'_>) -> String {
    let q = request.query;
    format!(
        "{:?}\u{0}{:?}\u{0}{:?}\u{0}{:?}\u{0}{}\u{0}{}\u{0}{}",
        q.words,
        q.phrases,
        q.excluded,
        request.editions,
        request.last_word_prefix,
        request.limit,
        request.offset
    )
}

fn size(key: &str, outcome: &SearchOutcome) -> usize {
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
    128 + key.len() + hits
}

impl ResultCache {
    /// A panic elsewhere while holding the lock leaves a consistent map.
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The result kept for `key`; `count_miss`: whether not finding it is
    /// counted as a miss.
    pub(crate) fn get(&self, key: &str, count_miss: bool) -> Option<Arc<SearchOutcome>> {
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
    pub(crate) fn put(&self, key: String, outcome: &Arc<SearchOutcome>) {
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
