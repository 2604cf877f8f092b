//! BM25 statistics for one search, each looked up once: a term's document
//! frequency sums a dictionary lookup in every segment, and one search asks
//! for the same term's several times (its rarity in the query compiler, the
//! BM25 weights of both tiers, the proximity rescoring).

use std::cell::RefCell;
use std::collections::HashMap;

use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::Field;
use tantivy::{Searcher, Term};

/// The statistics of one search over one searcher (a snapshot's segments
/// never change, so none goes stale while the search runs).
pub(crate) struct Stats<'a> {
    pub(crate) searcher: &'a Searcher,
    freqs: RefCell<HashMap<Term, u64>>,
    tokens: RefCell<Vec<(Field, u64)>>,
}

impl<'a> Stats<'a> {
    pub(crate) fn new(searcher: &'a Searcher) -> Stats<'a> {
        Stats { searcher, freqs: RefCell::default(), tokens: RefCell::default() }
    }

    /// The document frequency of `text` in `field`; None when it cannot be read.
    pub(crate) fn doc_freq_of(&self, field: Field, text: &str) -> Option<u64> {
        Bm25StatisticsProvider::doc_freq(self, &Term::from_field_text(field, text)).ok()
    }

    /// The average length of `field` in tokens over all documents, at least 1.
    pub(crate) fn average_len(&self, field: Field) -> f32 {
        let tokens = self.total_num_tokens(field).unwrap_or(0);
        (tokens as f32 / (self.searcher.num_docs() as f32).max(1.0)).max(1.0)
    }
}

impl Bm25StatisticsProvider for Stats<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        if let Some((_, n)) = self.tokens.borrow().iter().find(|(f, _)| *f == field) {
            return Ok(*n);
        }
        let n = self.searcher.total_num_tokens(field)?;
        self.tokens.borrow_mut().push((field, n));
        Ok(n)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        self.searcher.total_num_docs()
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        if let Some(n) = self.freqs.borrow().get(term) {
            return Ok(*n);
        }
        let n = self.searcher.doc_freq(term)?;
        self.freqs.borrow_mut().insert(term.clone(), n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use tantivy::doc;
    use tantivy::schema::{Schema, TEXT};

    use super::*;

    #[test]
    fn statistics_equal_the_searchers_and_are_read_once() {
        let mut builder = Schema::builder();
        let body = builder.add_text_field("body", TEXT);
        let index = tantivy::Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        writer.add_document(doc!(body => "alpha beta")).unwrap();
        writer.add_document(doc!(body => "alpha gamma delta")).unwrap();
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let stats = Stats::new(&searcher);
        let alpha = Term::from_field_text(body, "alpha");
        for _ in 0..2 {
            assert_eq!(stats.doc_freq(&alpha).unwrap(), searcher.doc_freq(&alpha).unwrap());
            assert_eq!(stats.doc_freq_of(body, "gamma"), Some(1));
            assert_eq!(stats.doc_freq_of(body, "omega"), Some(0));
            assert_eq!(stats.total_num_tokens(body).unwrap(), 5);
        }
        assert_eq!(stats.freqs.borrow().len(), 3);
        assert_eq!(stats.total_num_docs().unwrap(), 2);
        assert_eq!(stats.average_len(body), 2.5);
    }
}
