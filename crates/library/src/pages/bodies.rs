//! The page bodies (title, description, plain text) substring searches
//! read, kept for the generation's later searches within a byte budget, so
//! a frequent term's first pages are read from the index once, not once per
//! query.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use lectern_index::{DocAddress, PageParts, Snapshot};

/// Most bytes of bodies one generation keeps. Past it the kept bodies are
/// dropped and the next searches read again: memory stays bounded whatever
/// callers search for, and a site smaller than this is read once.
pub const BODY_BUDGET_BYTES: usize = 16 << 20;

/// The kept bodies of one generation, by page document.
#[derive(Debug, Default)]
pub(crate) struct Bodies {
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    by_doc: HashMap<DocAddress, Arc<PageParts>>,
    bytes: usize,
}

impl Bodies {
    /// The page document's body: kept, or read from the index and kept.
    pub(crate) fn get(&self, snapshot: &Snapshot, address: DocAddress) -> Arc<PageParts> {
        self.get_within(snapshot, address, BODY_BUDGET_BYTES)
    }

    fn get_within(&self, snapshot: &Snapshot, address: DocAddress, budget: usize) -> Arc<PageParts> {
        if let Some(hit) = self.lock().by_doc.get(&address) {
            return hit.clone();
        }
        // Read outside the lock: searches of other threads go on meanwhile.
        let body = Arc::new(snapshot.page_parts_at(&[address]).pop().unwrap_or_default());
        let size = body.title.len()
            + body.text.len()
            + body.description.as_ref().map_or(0, String::len)
            + std::mem::size_of::<PageParts>();
        let mut kept = self.lock();
        if size > budget {
            return body;
        }
        if kept.bytes + size > budget {
            kept.by_doc = HashMap::new();
            kept.bytes = 0;
        }
        if kept.by_doc.insert(address, body.clone()).is_none() {
            kept.bytes += size;
        }
        body
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Bytes kept now.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_bodies_stay_within_the_budget() {
        let dir = tempfile::tempdir().unwrap();
        let lib = crate::pages::tests::many_pages(dir.path(), 40, 2_000);
        let view = lib.view().unwrap();
        let scope = view.scope(Some("/app")).unwrap();
        let bodies = Bodies::default();
        let budget = 10_000;
        for round in 0..3 {
            for i in 0..scope.len() {
                let body = bodies.get_within(&view.snapshot, scope.address(i), budget);
                assert_eq!(body.title, scope.title(i), "round {round}");
                assert!(bodies.bytes() <= budget, "{} > {budget}", bodies.bytes());
            }
        }
    }
}
