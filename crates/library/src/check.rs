//! `lectern check`: the link check of installed editions. Each edition's
//! recorded source is read again with the edition's prefix and format, so
//! what the source itself breaks is told apart from what the conversion broke.

use std::path::Path;

use lectern_corpus::ReadOptions;
use lectern_corpus::check::LinkReport;
use serde::Serialize;

use crate::edition::EditionRecord;
use crate::error::LibraryError;
use crate::library::{Library, parse_format};

/// One edition's link check.
#[derive(Debug, Clone, Serialize)]
pub struct EditionLinks {
    pub id: String,
    pub prefix: String,
    pub source: String,
    /// None when the source could not be read again (`error` says why).
    pub links: Option<LinkReport>,
    pub error: Option<String>,
    /// The source differs from what was installed: `lectern add` it again.
    pub source_changed: bool,
}

impl Library {
    /// Checks the links of one edition (by id), or of every installed one.
    pub fn check_links(&self, edition: Option<&str>) -> Result<Vec<EditionLinks>, LibraryError> {
        let view = self.view()?;
        let editions: Vec<EditionRecord> = match edition {
            Some(id) => vec![view.edition(id)?.clone()],
            None => view.manifest.editions.clone(),
        };
        Ok(editions.iter().map(|e| check_edition(e, &view)).collect())
    }
}

fn check_edition(e: &EditionRecord, view: &crate::View) -> EditionLinks {
    let installed = |link: &lectern_corpus::links::Outside| view.outside_page(link);
    let others = lectern_corpus::links::OtherEditions { source: &e.source, page: &installed };
    let read = parse_format(Some(&e.format)).and_then(|format| {
        let options =
            ReadOptions { format, locale: Some(e.locale.clone()), ..ReadOptions::new(e.prefix.clone()) };
        Ok(lectern_corpus::read_source(Path::new(&e.source), &options, &mut |_, _| {})?)
    });
    let (links, error, source_changed) = match read {
        Ok(ingested) => {
            let links = ingested.check_links_with(&e.prefix, Some(others));
            (Some(links), None, ingested.content_hash != e.content_hash)
        }
        Err(err) => (None, Some(err.to_string()), false),
    };
    EditionLinks {
        id: e.id.clone(),
        prefix: e.prefix.clone(),
        source: e.source.clone(),
        links,
        error,
        source_changed,
    }
}
