//! Words a translated edition renders in its own language, looked up in
//! the edition it was translated from. A Chinese question that names an
//! English term (`出现“deadlock detected”错误是为什么`) finds little in a
//! Chinese manual that writes 死锁 for *deadlock*; the English edition of
//! the same manual, installed beside it, knows which pages speak of it. The
//! searched edition's copies of those pages (the same page paths under its
//! own prefix) then count as matching the words.
//!
//! A word counts as translated when the searched editions hold it in fewer
//! than half as many sections as their twins do: names both editions keep
//! as written (`VACUUM`, `psql`, `PostgreSQL`) are not looked up, so they
//! weigh as they always do. Nor are words that one document in fifty
//! holds: they name no page, and counting them would cost every query.

use std::ops::ControlFlow;

use tantivy::Term;
use tantivy::columnar::StrColumn;

use crate::index::SnapshotInner;
use crate::keys::{section_key, section_key_num};
use crate::query::parse_query;
use crate::question::is_stopword;
use crate::request::{SearchRequest, Twin};
use crate::scope::{MAX_WALKED_SHARE, edition_ords, walk_editions};
use crate::text::{fold, is_cjk};
use crate::tokenizer::{Analyzed, TokenKind, analyze};

/// How many of the twins' best pages count as matching the words.
pub(crate) const TWIN_PAGES: usize = 3;
/// A word counts as translated when the searched editions hold it in fewer
/// sections than this share of those the twins hold it in.
const TRANSLATED_SHARE: usize = 2;
/// Sections of a page past this many are not matched to their copies.
const MAX_ORDINAL: usize = 200;
/// At most this many of a query's words are looked up.
const MAX_WORDS: usize = 8;

/// The query's Latin words (as written, folded, in query order) when the
/// searched editions translate one of them: the twins are asked the whole
/// name (`window function`, not `window` alone). Empty when the request
/// has no twins (`twins`: their edition keys) or no word is translated.
pub(crate) fn twin_words(snap: &SnapshotInner, request: &SearchRequest<'_>, twins: &[String]) -> Vec<String> {
    if twins.is_empty() {
        return Vec::new();
    }
    let (searcher, f) = (&snap.searcher, &snap.fields);
    let mut latin: Vec<String> = Vec::new();
    let mut translated = false;
    let mut stemmed: Vec<Analyzed> = Vec::new();
    for word in request.query.words.iter().take(MAX_WORDS) {
        let folded = fold(word);
        stemmed.clear();
        analyze(&folded, true, &mut stemmed);
        for token in stemmed.iter().filter(|t| t.kind == TokenKind::Word && !t.text.chars().any(is_cjk)) {
            let written = &folded[token.from..token.to];
            if is_stopword(written)
                || !written.chars().any(char::is_alphabetic)
                || latin.iter().any(|w| w == written)
            {
                continue;
            }
            latin.push(written.to_owned());
            if translated {
                continue;
            }
            // A word most sections hold names no page (and would cost a
            // walk over all of them).
            let term = Term::from_field_text(f.body, &token.text);
            let df = searcher.doc_freq(&term).unwrap_or(0);
            if df == 0 || df.saturating_mul(MAX_WALKED_SHARE) > searcher.num_docs() {
                continue;
            }
            let (here, there) = sections_holding(snap, &term, request.editions, twins);
            translated = there > 0 && here * TRANSLATED_SHARE < there;
        }
    }
    if translated { latin } else { Vec::new() }
}

/// How many live sections of the searched editions and of the twins hold
/// `term`: one walk over its postings, each document's edition read from
/// the edition column.
fn sections_holding(
    snap: &SnapshotInner,
    term: &Term,
    searched: &[String],
    twins: &[String],
) -> (usize, usize) {
    let (mut here, mut there) = (0, 0);
    let segment = |_: usize, editions: &StrColumn| {
        let ords = (edition_ords(editions, searched), edition_ords(editions, twins));
        (!(ords.0.is_empty() && ords.1.is_empty())).then_some(ords)
    };
    let _ = walk_editions(snap, term, segment, |(searched, twins), ord| {
        here += usize::from(searched.contains(&ord));
        there += usize::from(twins.contains(&ord));
        ControlFlow::Continue(())
    });
    (here, there)
}

/// The words as a query of their own (None if they make none).
pub(crate) fn words_query(words: &[String]) -> Option<crate::query::ParsedQuery> {
    let query = parse_query(&words.join(" ")).ok()?;
    (!query.words.is_empty()).then_some(query)
}

/// The searched edition's copy of a twin's section (`key`, on the twin's
/// page `path`): the page's path under the searched edition's prefix, and
/// the key of the section at the same ordinal on it, as a translation keeps
/// its sections (None past the first [`MAX_ORDINAL`] sections). None when
/// `path` is not under the twin's prefix.
pub(crate) fn scope_copy(
    twins: &[Twin],
    edition: &str,
    path: &str,
    key: &str,
) -> Option<(String, Option<String>)> {
    let twin = twins.iter().find(|t| t.edition == edition)?;
    let rest = path.strip_prefix(twin.prefix.trim_end_matches('/'))?;
    if !(rest.is_empty() || rest.starts_with('/')) {
        return None;
    }
    let scope_path = format!("{}{rest}", twin.scope_prefix.trim_end_matches('/'));
    let key = u64::from_str_radix(key, 16).ok();
    let ordinal = (0..MAX_ORDINAL).find(|&o| Some(section_key_num(edition, path, o)) == key);
    let section = ordinal.map(|o| section_key(&twin.scope_edition, &scope_path, o));
    Some((scope_path, section))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_twins_page_moves_under_the_searched_editions_prefix() {
        let twins = [Twin {
            edition: "pg@18/en".into(),
            prefix: "/postgresql".into(),
            scope_edition: "pg@18/zh-Hans".into(),
            scope_prefix: "/zh-Hans/postgresql".into(),
        }];
        let copy = |edition: &str, path: &str, ordinal: usize| {
            scope_copy(&twins, edition, path, &section_key(edition, path, ordinal))
        };
        assert_eq!(
            copy("pg@18/en", "/postgresql/explicit-locking", 3),
            Some((
                "/zh-Hans/postgresql/explicit-locking".to_owned(),
                Some(section_key("pg@18/zh-Hans", "/zh-Hans/postgresql/explicit-locking", 3))
            ))
        );
        assert_eq!(copy("pg@18/en", "/postgresql", 0).map(|c| c.0).as_deref(), Some("/zh-Hans/postgresql"));
        // Another project whose prefix starts the same, another edition.
        assert_eq!(copy("pg@18/en", "/postgresql-jdbc/intro", 0), None);
        assert_eq!(copy("pg@15/en", "/postgresql/explicit-locking", 0), None);
        // A section past the ordinals looked at keeps only its page.
        assert_eq!(copy("pg@18/en", "/postgresql/functions-admin", MAX_ORDINAL).map(|c| c.1), Some(None));
    }
}
