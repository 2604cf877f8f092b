//! The query front end: our own parser (tantivy's misreads `PG96:`).
//!
//! Syntax: words, searched as written (`--amend`, `-e`, `pg_ctl`, `C++`:
//! a leading `-` is part of the word, as on a command line); `"quoted
//! phrases"` (strict); exclusions written `NOT word`, `NOT "phrase"` or
//! `-"phrase"` (forms no command-line word takes; `NOT` before a word in
//! capitals is SQL's, as in `IS NOT NULL`, and a word); filters `project:`, `version:`/`branch:`, `locale:`/`lang:`,
//! `domain:`, `collection:` (value `*` = all); a leading version prefix
//! `PG96:` / `pg 13:` / `postgresql18:`. Splitting a prefix into project
//! alias and version needs the installed editions, so that is the library's job.
//! Full-width forms (what a Chinese or Japanese input method types in its
//! full-width mode: `ｗｏｒｋ＿ｍｅｍ`, `＂phrase＂`, `locale：en`, the
//! ideographic space) are read as the ASCII they stand for.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FilterKey {
    Project,
    Version,
    Locale,
    Domain,
    Collection,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ParsedQuery {
    /// Raw version prefix as typed, without the colon (`PG96`), if any.
    pub version_prefix: Option<String>,
    /// Filters in the order written; later ones win.
    pub filters: Vec<(FilterKey, String)>,
    /// Plain words, as typed (not yet folded or stemmed).
    pub words: Vec<String>,
    /// Quoted phrases (each must appear, in order).
    pub phrases: Vec<String>,
    /// Excluded words or phrases.
    pub excluded: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("the query has no search words; give at least one word or \"phrase\"")]
    Empty,
    #[error("the query only excludes ({0}); give at least one word or \"phrase\" to search for beside it")]
    OnlyExcluded(String),
    #[error("{0}")]
    Invalid(String),
}

/// Whether the next word of `rest` is written in capitals (`NULL`, `IN`,
/// `DISTINCT`): it has a letter and no lower-case one. A quoted phrase is
/// not a word.
fn before_capitals(rest: &str) -> bool {
    let next = rest.split_whitespace().next().unwrap_or("");
    !next.starts_with('"') && next.chars().any(char::is_alphabetic) && !next.chars().any(char::is_lowercase)
}

/// The ASCII a full-width form stands for (U+FF01–U+FF5E, and the
/// ideographic space), the text itself when it holds none.
fn narrow(text: &str) -> std::borrow::Cow<'_, str> {
    let wide = |c: char| matches!(c, '\u{FF01}'..='\u{FF5E}' | '\u{3000}');
    if !text.chars().any(wide) {
        return text.into();
    }
    text.chars()
        .map(|c| match c {
            '\u{3000}' => ' ',
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect::<String>()
        .into()
}

/// Parses query text. Never panics on any input.
pub fn parse_query(text: &str) -> Result<ParsedQuery, QueryError> {
    // A terminal's colour codes or a NUL pasted with the text would be
    // searched as part of a word and find nothing.
    if let Some(c) = text.chars().find(|c| c.is_control() && !c.is_whitespace()) {
        return Err(QueryError::Invalid(format!(
            "the query holds a control character (U+{:04X}); give printable text only",
            c as u32
        )));
    }
    let text = narrow(text);
    let mut q = ParsedQuery::default();
    let mut rest = text.trim_start();
    if let Some((prefix, after)) = version_prefix(rest) {
        q.version_prefix = Some(prefix);
        rest = after;
    }
    let mut chars = rest.char_indices().peekable();
    // Set by a `NOT` word: the next word or phrase is excluded.
    let mut not = false;
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        // `-"phrase"` excludes; `-word` is a word (`-e`, `--amend`).
        let dash_quote = c == '-' && rest[start + 1..].starts_with('"');
        let after_not = std::mem::take(&mut not);
        let negated = after_not || dash_quote;
        let open = if dash_quote { start + 1 } else { start };
        if dash_quote {
            chars.next();
        }
        if rest[open..].starts_with('"') {
            chars.next();
            let body_start = open + 1;
            let mut body_end = rest.len();
            for (i, ch) in chars.by_ref() {
                if ch == '"' {
                    body_end = i;
                    break;
                }
            }
            let phrase = rest[body_start..body_end].trim();
            if !phrase.is_empty() {
                if negated { q.excluded.push(phrase.to_string()) } else { q.phrases.push(phrase.to_string()) }
            }
            continue;
        }
        let mut end = rest.len();
        while let Some(&(i, ch)) = chars.peek() {
            if ch.is_whitespace() || (ch == '"' && i > open) {
                end = i;
                break;
            }
            chars.next();
        }
        let token = &rest[open..end];
        if token.is_empty() {
            continue;
        }
        if negated {
            q.excluded.push(token.to_string());
            continue;
        }
        // `NOT` (capitals) before another word excludes it; last, or before
        // a word in capitals (SQL's `IS NOT NULL`, `NOT EXISTS`), it is a word.
        if token == "NOT" && !rest[end..].trim().is_empty() && !before_capitals(&rest[end..]) {
            not = true;
            continue;
        }
        if let Some((written, value)) = token.split_once(':')
            && let Some(key) = filter_key(written)
        {
            let value = if value.is_empty() {
                // `version: 13`: the value is the next token.
                while chars.next_if(|&(_, ch)| ch.is_whitespace()).is_some() {}
                let from = chars.peek().map_or(rest.len(), |&(i, _)| i);
                let mut to = rest.len();
                while let Some(&(i, ch)) = chars.peek() {
                    if ch.is_whitespace() {
                        to = i;
                        break;
                    }
                    chars.next();
                }
                rest[from..to].trim_matches('"').to_string()
            } else {
                value.trim_matches('"').to_string()
            };
            if value.is_empty() {
                return Err(QueryError::Invalid(format!(
                    "`{written}:` has no value; write {written}:NAME, or {written}:* for all"
                )));
            }
            q.filters.push((key, value));
            continue;
        }
        q.words.push(token.to_string());
    }
    let empty = |q: &ParsedQuery| {
        q.words.iter().all(|w| !has_searchable(w) && !is_symbol_word(w))
            && q.phrases.iter().all(|p| !has_searchable(p))
    };
    if empty(&q) && !q.excluded.is_empty() {
        // (`NOT IN`, `NOT NULL` are words: see `before_capitals`.)
        return Err(QueryError::OnlyExcluded(q.excluded.join(", ")));
    }
    if empty(&q) {
        return Err(QueryError::Empty);
    }
    Ok(q)
}

/// True when the text has at least one char the tokenizer indexes.
fn has_searchable(s: &str) -> bool {
    s.chars().any(|c| crate::text::is_cjk(c) || crate::text::is_word_char(c))
}

/// A word of punctuation alone that is still searched as written, as a
/// symbol (`::`, `->>`, `||`, `@>`, `..`): at least two chars, or one
/// that is no mere separator. A lone `-`, `,` or `!` is not, nor `...`.
fn is_symbol_word(word: &str) -> bool {
    let mut chars = word.chars();
    let Some(first) = chars.next() else { return false };
    let punctuation = word.chars().all(|c| c.is_ascii_punctuation() && c != '"');
    let separator = |c: char| matches!(c, '-' | ',' | '.' | ';' | '!' | '?' | '\'' | '`' | '(' | ')');
    // (`..`, Lua's and Rust's, is an operator the index holds; `...` is an ellipsis.)
    punctuation
        && (chars.next().is_some() && !word.chars().all(separator) || !separator(first) || word == "..")
}

/// The filters the query text may hold (what `filter_key` reads), as a
/// sentence names them.
pub const FILTER_NAMES: &str = "project:, version: (or branch:), locale: (or lang:), domain: and collection:";

fn filter_key(key: &str) -> Option<FilterKey> {
    Some(match key.to_ascii_lowercase().as_str() {
        "project" => FilterKey::Project,
        "version" | "branch" => FilterKey::Version,
        "locale" | "lang" => FilterKey::Locale,
        "domain" => FilterKey::Domain,
        "collection" => FilterKey::Collection,
        _ => return None,
    })
}

/// A leading `PG96:`, `pg 13:`, `postgresql-9.6:` (letters, an optional
/// separator, then a version starting with a digit). Returns the prefix as
/// typed (without the colon) and the text after the colon.
fn version_prefix(text: &str) -> Option<(String, &str)> {
    let colon = text.find(':')?;
    let head = &text[..colon];
    let letters = head.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(head.len());
    if letters == 0 || filter_key(head).is_some() {
        return None;
    }
    let tail = &head[letters..];
    let version = tail.strip_prefix([' ', '-', '_']).unwrap_or(tail);
    let mut vchars = version.chars();
    if !vchars.next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    if !version.chars().all(|c| c.is_ascii_alphanumeric() || c == '.') {
        return None;
    }
    Some((head.to_string(), &text[colon + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn words(q: &ParsedQuery) -> Vec<&str> {
        q.words.iter().map(String::as_str).collect()
    }

    #[test]
    fn full_width_forms_are_read_as_ascii() {
        let q = parse_query(
            "ｗｏｒｋ＿ｍｅｍ\u{3000}－－ｄａｔａ－ｏｎｌｙ ＂ｒｏｗ ｌｅｖｅｌ＂ ｌｏｃａｌｅ：ｅｎ",
        )
        .unwrap();
        assert_eq!(words(&q), ["work_mem", "--data-only"]);
        assert_eq!(q.phrases, ["row level"]);
        assert_eq!(q.filters, vec![(FilterKey::Locale, "en".into())]);
        // Chinese text and its own punctuation stay as written.
        let q = parse_query("如何创建索引、视图。").unwrap();
        assert_eq!(words(&q), ["如何创建索引、视图。"]);
    }

    #[test]
    fn control_characters_are_refused_and_whitespace_is_not() {
        for text in ["\u{1b}[31mshopt", "shopt\0", "a\u{7f}b"] {
            let err = parse_query(text).unwrap_err().to_string();
            assert!(
                err.contains("control character (U+") && err.contains("printable text"),
                "{text:?}: {err}"
            );
        }
        assert_eq!(words(&parse_query("git\tcommit\r\n--amend").unwrap()), ["git", "commit", "--amend"]);
    }

    #[test]
    fn a_filter_without_a_value_is_refused() {
        for (text, key) in
            [("project:", "project"), ("vacuum Locale:", "Locale"), ("x version: \"\"", "version")]
        {
            let err = parse_query(text).unwrap_err().to_string();
            assert!(
                err.contains(&format!("`{key}:` has no value")) && err.contains(":* for all"),
                "{text}: {err}"
            );
        }
    }

    #[test]
    fn words_phrases_and_exclusions() {
        let q = parse_query(r#"create index "without locking" NOT gin -"full text" NOT "brin x""#).unwrap();
        assert_eq!(words(&q), ["create", "index"]);
        assert_eq!(q.phrases, ["without locking"]);
        assert_eq!(q.excluded, ["gin", "full text", "brin x"]);
    }

    #[test]
    fn command_line_words_are_searched_as_written() {
        let q = parse_query("git commit --amend").unwrap();
        assert_eq!(words(&q), ["git", "commit", "--amend"]);
        let q = parse_query("set -e").unwrap();
        assert_eq!(words(&q), ["set", "-e"]);
        assert!(q.excluded.is_empty());
        for text in ["--analyze-in-stages", "pg_ctl", "C++", ".npmrc", "a-b", "std::vec"] {
            let q = parse_query(text).unwrap();
            assert_eq!(words(&q), [text], "{text}");
            assert!(q.excluded.is_empty(), "{text}");
        }
        // `NOT` with nothing else to search is a word: SQL's `NOT IN`.
        let q = parse_query("NOT IN").unwrap();
        assert_eq!(words(&q), ["NOT", "IN"]);
        assert!(q.excluded.is_empty());
        // `not` in lower case and a trailing `NOT` are words.
        let q = parse_query("is not null NOT").unwrap();
        assert_eq!(words(&q), ["is", "not", "null", "NOT"]);
        assert!(q.excluded.is_empty());
        // Before a word in capitals, `NOT` is SQL's: both are words.
        for text in ["IS NOT NULL", "WHERE x NOT IN", "IS NOT DISTINCT FROM", "NOT EXISTS subquery"] {
            let q = parse_query(text).unwrap();
            assert_eq!(words(&q).join(" "), text, "{text}");
            assert!(q.excluded.is_empty(), "{text}");
        }
        // Before a word in lower case or a phrase, it excludes.
        let q = parse_query("vacuum NOT full NOT \"FULL\"").unwrap();
        assert_eq!(words(&q), ["vacuum"]);
        assert_eq!(q.excluded, ["full", "FULL"]);
        // Exclusions alone search nothing, and say so.
        for text in ["NOT rede", "-\"rede\"", "NOT full NOT \"x y\""] {
            let err = parse_query(text).unwrap_err().to_string();
            assert!(err.contains("only excludes") && err.contains("give at least one word"), "{text}: {err}");
        }
    }

    #[test]
    fn punctuation_alone_is_a_symbol_word() {
        for text in ["::", "->>", "||", "@>", "#", "&&", "<=>", "%", ".."] {
            let q = parse_query(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(words(&q), [text], "{text}");
        }
        assert_eq!(words(&parse_query(":: cast").unwrap()), ["::", "cast"]);
    }

    #[test]
    fn unterminated_quote_runs_to_the_end() {
        let q = parse_query(r#"vacuum "full analyze"#).unwrap();
        assert_eq!(words(&q), ["vacuum"]);
        assert_eq!(q.phrases, ["full analyze"]);
    }

    #[test]
    fn filters_are_case_insensitive_with_aliases() {
        let q = parse_query("Branch:13 LANG:zh-Hans project:* domain:wiki collection:howto x").unwrap();
        assert_eq!(
            q.filters,
            vec![
                (FilterKey::Version, "13".into()),
                (FilterKey::Locale, "zh-Hans".into()),
                (FilterKey::Project, "*".into()),
                (FilterKey::Domain, "wiki".into()),
                (FilterKey::Collection, "howto".into()),
            ]
        );
        assert_eq!(words(&q), ["x"]);
    }

    #[test]
    fn filter_value_may_follow_a_space() {
        let q = parse_query("version: 9.6 select").unwrap();
        assert_eq!(q.filters, vec![(FilterKey::Version, "9.6".into())]);
        assert_eq!(words(&q), ["select"]);
    }

    #[test]
    fn version_prefixes() {
        for (text, prefix, rest) in [
            ("PG96: SELECT", "PG96", "select"),
            ("pg18: x", "pg18", "x"),
            ("postgresql13: y", "postgresql13", "y"),
            ("PG 9.6: SELECT", "PG 9.6", "select"),
            ("pg96:select", "pg96", "select"),
        ] {
            let q = parse_query(text).unwrap();
            assert_eq!(q.version_prefix.as_deref(), Some(prefix), "{text}");
            assert_eq!(q.words.iter().map(|w| w.to_lowercase()).collect::<Vec<_>>(), [rest]);
        }
    }

    #[test]
    fn not_a_version_prefix() {
        let q = parse_query("std::vec push").unwrap();
        assert_eq!(q.version_prefix, None);
        assert_eq!(words(&q), ["std::vec", "push"]);
        let q = parse_query("version:13 select").unwrap();
        assert_eq!(q.version_prefix, None);
    }

    #[test]
    fn empty_queries() {
        for text in ["", "   ", "version:13", "\"\"", "PG96:", "- -", "!!! ,,", "-- ...", "(", "."] {
            assert_eq!(parse_query(text), Err(QueryError::Empty), "{text:?}");
        }
    }

    #[test]
    fn chinese_without_spaces_is_one_word() {
        let q = parse_query("如何在不阻塞写入的情况下创建索引").unwrap();
        assert_eq!(q.words.len(), 1);
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,64}") {
            let _ = parse_query(&s);
        }

        #[test]
        fn never_panics_on_syntax_soup(s in "[-\":a-zA-Z0-9 索引ß\u{301}]{0,40}") {
            let _ = parse_query(&s);
        }
    }
}
