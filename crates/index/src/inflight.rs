//! A bound on the documents waiting for tantivy's indexing threads.
//!
//! tantivy queues up to 10,000 documents between `add_document` and its
//! indexing threads, counted in documents, not bytes, and outside the
//! writer's memory budget. A release build converts pages faster than the
//! threads index them, so a source of large pages (or of pages holding
//! thousands of index rows) would fill that queue with hundreds of
//! megabytes. Each document here carries a [`Permit`] for its size; adding
//! waits while the documents not yet indexed hold more than
//! [`MAX_WAITING_BYTES`], and the permit is given back when the indexing
//! thread drops the document.

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use tantivy::schema::{Document, TantivyDocument, Value};

/// Bytes of documents that may wait for the indexing threads. A document
/// larger than this alone still goes, once nothing else waits.
pub(crate) const MAX_WAITING_BYTES: usize = 32 << 20;
/// What one value costs beyond its text (its field, its node in the
/// document's arena).
const VALUE_OVERHEAD: usize = 16;
/// The longest an add waits for the queue to drain. Past it the document
/// goes anyway: an indexing thread that died drops its queue, so this only
/// guards against a wait that could never end.
const LONGEST_WAIT: Duration = Duration::from_secs(60);

/// Bytes held by documents given to the writer and not yet indexed.
#[derive(Default)]
pub(crate) struct Waiting {
    bytes: Mutex<usize>,
    drained: Condvar,
}

impl Waiting {
    /// Waits until `doc` fits beside the documents already waiting, and
    /// wraps it with the permit for its size.
    pub(crate) fn admit(self: &Arc<Self>, doc: TantivyDocument) -> Tracked {
        let size = size_of_doc(&doc);
        let held = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        let (mut held, _) = self
            .drained
            .wait_timeout_while(held, LONGEST_WAIT, |held| *held > 0 && *held + size > MAX_WAITING_BYTES)
            .unwrap_or_else(PoisonError::into_inner);
        *held += size;
        Tracked { doc, _permit: Permit { waiting: self.clone(), size } }
    }

    /// Bytes held now.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        *self.bytes.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// What a document costs while it waits: its text and a little per value.
fn size_of_doc(doc: &TantivyDocument) -> usize {
    doc.field_values()
        .map(|(_, v)| {
            v.as_str().map(str::len).or_else(|| v.as_bytes().map(<[u8]>::len)).unwrap_or(0) + VALUE_OVERHEAD
        })
        .sum()
}

/// A document's share of [`Waiting`], given back when it is dropped.
struct Permit {
    waiting: Arc<Waiting>,
    size: usize,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut held = self.waiting.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        *held = held.saturating_sub(self.size);
        self.waiting.drained.notify_all();
    }
}

/// A document and its permit: what the writer queues. tantivy indexes it
/// through [`Document`] and drops it, permit and all, once indexed.
pub struct Tracked {
    doc: TantivyDocument,
    _permit: Permit,
}

impl Document for Tracked {
    type Value<'a> = <TantivyDocument as Document>::Value<'a>;
    type FieldsValuesIter<'a> = <TantivyDocument as Document>::FieldsValuesIter<'a>;

    fn iter_fields_and_values(&self) -> Self::FieldsValuesIter<'_> {
        self.doc.iter_fields_and_values()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use tantivy::schema::{Schema, TEXT};

    use super::*;

    fn doc_of(bytes: usize) -> TantivyDocument {
        let mut schema = Schema::builder();
        let body = schema.add_text_field("body", TEXT);
        let mut doc = TantivyDocument::default();
        doc.add_text(body, "x".repeat(bytes));
        doc
    }

    #[test]
    fn a_permit_holds_its_document_s_size_until_the_document_is_dropped() {
        let waiting = Arc::new(Waiting::default());
        let a = waiting.admit(doc_of(1000));
        let b = waiting.admit(doc_of(500));
        assert_eq!(waiting.held(), 1000 + 500 + 2 * VALUE_OVERHEAD);
        drop(a);
        assert_eq!(waiting.held(), 500 + VALUE_OVERHEAD);
        drop(b);
        assert_eq!(waiting.held(), 0);
    }

    #[test]
    fn an_add_waits_while_the_queue_is_full_and_goes_when_it_drains() {
        let waiting = Arc::new(Waiting::default());
        let big = waiting.admit(doc_of(MAX_WAITING_BYTES - 100));
        let started = Instant::now();
        let drainer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            drop(big);
        });
        let next = waiting.admit(doc_of(1000));
        assert!(started.elapsed() >= Duration::from_millis(150), "the add did not wait for the drain");
        drainer.join().unwrap();
        assert_eq!(waiting.held(), 1000 + VALUE_OVERHEAD);
        drop(next);
    }

    #[test]
    fn a_document_larger_than_the_bound_goes_alone_without_waiting() {
        let waiting = Arc::new(Waiting::default());
        let started = Instant::now();
        let huge = waiting.admit(doc_of(MAX_WAITING_BYTES * 2));
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(waiting.held() > MAX_WAITING_BYTES);
        drop(huge);
    }
}
