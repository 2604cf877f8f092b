//! Keys derived from content: a section's stable key, and a symbol as it is
//! matched (indexed and queried alike).

use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;

use crate::text::{fold, is_cjk};
use crate::tokenizer::{TokenKind, analyze_each};

/// What a defined term's key starts with in the symbol field: a term the
/// text defines (DocBook's `firstterm`, `<dfn>`) favours its section, but
/// less than a name the manual declares, so it has a key space of its own.
const DEFINED_MARK: &str = "\u{1}";
/// What the key of a qualified name's last part starts with in the symbol
/// field (`setrecursionlimit` of `sys.setrecursionlimit`): the name typed
/// alone finds its section, but a question's plain words (`read`, `count`)
/// that happen to be some method's name are no names of it.
const UNQUALIFIED_MARK: &str = "\u{2}";
/// What the key of a name as written, its case kept, starts with in the
/// symbol field: the folded key finds `-O` and `-o`, `Path` and `path`
/// alike, and this one tells apart the name typed with its case.
const CASED_MARK: &str = "\u{3}";

/// What the keys of a qualified name's shorter forms start with in the
/// symbol field ([`partial_keys`]): `QuerySet.update` of
/// `django.db.models.query.QuerySet.update`, `boost::split` of
/// `boost::algorithm::split`.
const PARTIAL_MARK: &str = "\u{4}";
/// Parts of a qualified name read for its shorter forms, at most (its last ones).
const MAX_PARTIAL_PARTS: usize = 8;

/// What the key of a section's whole title starts with in the symbol field
/// ([`title_key`]): a query that is a title as written ("Obsolete Members
/// for QString", "Layout Management") finds that section.
const TITLE_MARK: &str = "\u{5}";
/// What the key of a page's title starts with in the symbol field, on the
/// section that opens the page ([`page_title_key`]): of the sections a
/// query is the whole title of, the page so titled ("generateStaticParams",
/// "Configuration") comes before other pages' sections of that title.
const PAGE_TITLE_MARK: &str = "\u{6}";

/// The 16-hex-char key of a section: stable for (edition, page path, ordinal).
pub fn section_key(edition: &str, path: &str, ordinal: usize) -> String {
    format!("{:016x}", section_key_num(edition, path, ordinal))
}

/// [`section_key`] as a number (its hex spelling sorts like the number).
pub(crate) fn section_key_num(edition: &str, path: &str, ordinal: usize) -> u64 {
    let mut h = Sha256::new();
    h.update(edition.as_bytes());
    h.update([0]);
    h.update(path.as_bytes());
    h.update([0]);
    h.update(ordinal.to_string().as_bytes());
    let digest = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// The key of a qualified name's last part, from its [`symbol_key`].
pub(crate) fn unqualified_key(key: &str) -> String {
    format!("{UNQUALIFIED_MARK}{key}")
}

/// The parts of a qualified name's [`symbol_key`], split at `::`, `.` and
/// `#` (`vec::push`, `hash#fetch`); None for a name that is not qualified
/// or has an empty part or a space (`.npmrc`, `a..b`, `create index`).
fn name_parts(key: &str) -> Option<Vec<&str>> {
    if key.contains(char::is_whitespace) {
        return None;
    }
    // (`->` calls a method: Perl's `File::Spec->catfile`, PHP's `$db->query`.)
    let parts: Vec<&str> =
        key.split("::").flat_map(|p| p.split("->")).flat_map(|p| p.split(['.', '#'])).collect();
    (parts.len() >= 2 && parts.iter().all(|p| !p.is_empty() && !p.contains(':'))).then_some(parts)
}

/// The keys a qualified name is also found by, from its [`symbol_key`]:
/// each of its endings of two parts or more (`queryset.update`,
/// `query.queryset.update`… of `django.db.models.query.queryset.update`)
/// and, for a name not joined by dots, its first part before its last
/// (`boost.split` of `boost::algorithm::split`), the parts joined by `.` whatever the name
/// joins them with (`vec.push` of `vec::push`; a name joined by dots alone
/// is its own key already). Empty for a name that is not qualified.
pub(crate) fn partial_keys(key: &str) -> Vec<String> {
    let Some(parts) = name_parts(key) else { return Vec::new() };
    let first = parts[0];
    let last = parts[parts.len() - 1];
    // (A name joined by dots alone is found as written by its own key.)
    let dotted = joined_by_dots(key);
    let parts = &parts[parts.len().saturating_sub(MAX_PARTIAL_PARTS)..];
    let mut keys: Vec<String> =
        (usize::from(dotted)..parts.len() - 1).map(|k| partial_key_of(&parts[k..])).collect();
    // (C++ code names a function in its namespace's namespace, `boost::split`
    // for `boost::algorithm::split`; dotted names are written whole or by
    // their ending.)
    if parts.len() >= 3 && !dotted {
        keys.push(partial_key_of(&[first, last]));
    }
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The keys a qualified name typed in a query looks up among the
/// [`partial_keys`] of the names declared, from its [`symbol_key`]: the
/// name, then its shorter endings of two parts or more (a reader may
/// qualify it more than the manual does: `std::collections::HashMap::insert`
/// for rustdoc's `HashMap::insert`). Empty for a name that is not qualified.
pub(crate) fn partial_query_keys(key: &str) -> Vec<String> {
    let Some(parts) = name_parts(key) else { return Vec::new() };
    let parts = &parts[parts.len().saturating_sub(MAX_PARTIAL_PARTS)..];
    (0..parts.len() - 1).map(|k| partial_key_of(&parts[k..])).collect()
}

/// A qualified name's [`symbol_key`] with its parts joined by dots, when
/// it joins them otherwise (`hash.fetch` of `hash#fetch`, `vec.push` of
/// `vec::push`): the key of the same name declared with dots.
pub(crate) fn dotted_form(key: &str) -> Option<String> {
    if joined_by_dots(key) {
        return None;
    }
    name_parts(key).map(|parts| parts.join("."))
}

/// Whether a name joins its parts by dots alone (no `::`, no `#`).
fn joined_by_dots(key: &str) -> bool {
    !key.contains("::") && !key.contains('#')
}

/// Endings of file names, which a dotted name ending in one is
/// (`pg_hba.conf`, `package.json`, `sources.list`), not a member.
const FILE_ENDINGS: [&str; 34] = [
    "c", "cfg", "conf", "cpp", "css", "csv", "d", "gz", "h", "hpp", "htm", "html", "ini", "java", "js",
    "json", "list", "lock", "log", "md", "py", "rb", "rc", "rs", "service", "sh", "sql", "tar", "toml", "ts",
    "txt", "xml", "yaml", "yml",
];

/// Whether `s` is an identifier: letters, digits and `_`, not starting
/// with a digit.
pub(crate) fn is_identifier(s: &str) -> bool {
    s.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The qualifier and the member a qualified name names, its last part,
/// when each of its parts is an identifier (`glm` and `perspective` of
/// `glm::perspective`, `json::reader` and `parse` of `json::reader::parse`);
/// None for any other key (`.npmrc`, `a.b c`) and for a file's name
/// (`pg_hba.conf`).
pub(crate) fn member_of(key: &str) -> Option<(&str, &str)> {
    let parts = name_parts(key)?;
    let last = parts[parts.len() - 1];
    let file = joined_by_dots(key) && FILE_ENDINGS.contains(&last);
    let qualifier = key[..key.len() - last.len()].trim_end_matches([':', '.', '#', '-', '>']);
    (parts.iter().all(|p| is_identifier(p)) && !file).then_some((qualifier, last))
}

fn partial_key_of(parts: &[&str]) -> String {
    format!("{PARTIAL_MARK}{}", parts.join("."))
}

/// The key of a name as written ([`CASED_MARK`], then the name in NFC,
/// its case kept, whitespace collapsed to single spaces); None when no
/// letter of it has case (`::`, `索引`), which the folded key tells apart.
pub(crate) fn cased_key(name: &str) -> Option<String> {
    if !name.chars().any(|c| c.is_lowercase() || c.is_uppercase()) {
        return None;
    }
    let nfc: String = name.nfc().collect();
    Some(format!("{CASED_MARK}{}", nfc.split_whitespace().collect::<Vec<_>>().join(" ")))
}

/// True for the key of a name as written ([`cased_key`]).
pub(crate) fn is_cased_key(key: &str) -> bool {
    key.starts_with(CASED_MARK)
}

/// The name a key of a name as written holds ([`cased_key`]); None for
/// any other key.
pub(crate) fn cased_name(key: &str) -> Option<&str> {
    key.strip_prefix(CASED_MARK)
}

/// A symbol as matched: folded, whitespace collapsed to single spaces.
pub(crate) fn symbol_key(name: &str) -> String {
    symbol_key_of_folded([fold(name).as_str()])
}

/// [`symbol_key`] of words already folded, as if joined by spaces: NFC and
/// case folding never join characters across a space, so folding each word
/// equals folding their join.
pub(crate) fn symbol_key_of_folded<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    words.into_iter().flat_map(str::split_whitespace).collect::<Vec<_>>().join(" ")
}

/// The key of a term a section defines ([`DEFINED_MARK`] and its words),
/// from text already folded: Latin words stemmed, so "operator classes"
/// defines what "operator class" asks for; CJK text as written. Empty when
/// the text has no word.
pub(crate) fn defined_key_of_folded(folded: &str) -> String {
    marked_words(DEFINED_MARK, folded, true)
}

/// `mark` and the words of text already folded, Latin words stemmed when
/// `stem` says so, CJK text as written; empty when the text has no word.
fn marked_words(mark: &str, folded: &str, stem: bool) -> String {
    let key = if folded.chars().any(is_cjk) {
        symbol_key_of_folded([folded])
    } else {
        let mut words: Vec<String> = Vec::new();
        analyze_each(folded, stem, &mut |t, _, _, _, kind| {
            if kind == TokenKind::Word {
                words.push(t.to_owned());
            }
            true
        });
        words.join(" ")
    };
    if key.is_empty() { key } else { format!("{mark}{key}") }
}

/// The key of a section's whole title, its number left out ("19.4.1.",
/// "F.38.", "第 31 章", "附录 A."), its words folded (CJK text as written);
/// empty for a title of no word.
pub(crate) fn title_key(title: &str) -> String {
    title_key_of_folded(&fold(unnumbered(title)))
}

/// [`title_key`] of a query's text already folded: its words as written,
/// not stemmed (a title `workspace` is not the query `workspaces`).
pub(crate) fn title_key_of_folded(folded: &str) -> String {
    marked_words(TITLE_MARK, folded, false)
}

/// The key of a page's title ([`title_key`] marked as the page's; see
/// [`PAGE_TITLE_MARK`]) from a title key; empty for an empty one.
pub(crate) fn page_title_key(title_key: &str) -> String {
    if title_key.is_empty() { String::new() } else { format!("{PAGE_TITLE_MARK}{title_key}") }
}

/// A title without the number it starts with: `19.4.1. Memory`, `F.38.
/// postgres_fdw`, `第 31 章 回归测试`, `附录 A. 错误代码` lose it; a title that is
/// all number keeps it.
fn unnumbered(title: &str) -> &str {
    let t = title.trim_start();
    let rest = if let Some(chapter) = t.strip_prefix('第') {
        chapter.trim_start().trim_start_matches(|c: char| c.is_ascii_digit()).trim_start().strip_prefix('章')
    } else if let Some(appendix) = t.strip_prefix("附录") {
        let a = appendix.trim_start();
        a.strip_prefix(|c: char| c.is_ascii_uppercase()).map(|r| r.trim_start_matches('.'))
    } else {
        let letter = t.strip_prefix(|c: char| c.is_ascii_uppercase()).filter(|r| r.starts_with('.'));
        let digits = letter.unwrap_or(t);
        let after = digits.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        (after.len() < digits.len() && digits.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
            .then_some(after)
            .filter(|r| r.starts_with(char::is_whitespace))
    };
    match rest.map(str::trim_start) {
        Some(r) if !r.is_empty() => r,
        _ => t,
    }
}

/// True for the key of a defined term.
pub(crate) fn is_defined_key(key: &str) -> bool {
    key.starts_with(DEFINED_MARK)
}

/// [`defined_key_of_folded`] of a term as written.
pub(crate) fn defined_key(name: &str) -> String {
    defined_key_of_folded(&fold(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defined_keys_stem_latin_words_and_keep_cjk_text() {
        assert_eq!(defined_key("Operator Classes"), defined_key("operator class"));
        assert_ne!(defined_key("operator class"), symbol_key("operator class"));
        assert_eq!(defined_key("操作符类"), format!("{DEFINED_MARK}操作符类"));
        assert_eq!(defined_key("—"), "");
    }

    #[test]
    fn a_qualified_name_names_its_last_part_unless_it_is_a_file() {
        assert_eq!(member_of("glm::perspective"), Some(("glm", "perspective")));
        assert_eq!(member_of("fastify.register"), Some(("fastify", "register")));
        assert_eq!(member_of("hash#fetch"), Some(("hash", "fetch")));
        assert_eq!(member_of("json::value::ismember"), Some(("json::value", "ismember")));
        assert_eq!(member_of("file::spec->catfile"), Some(("file::spec", "catfile")));
        for other in
            ["pg_hba.conf", "package.json", "sources.list", ".npmrc", "perspective", "a.b c", "v1.2", "a::"]
        {
            assert_eq!(member_of(other), None, "{other}");
        }
        // (`::` joins no file name.)
        assert_eq!(member_of("std::c"), Some(("std", "c")));
    }

    #[test]
    fn qualified_names_are_found_by_their_endings_and_their_first_part_before_one() {
        let keys = partial_keys(&symbol_key("django.db.models.query.QuerySet.update"));
        let typed = |t: &str| partial_query_keys(&symbol_key(t));
        for t in ["QuerySet.update", "models.query.QuerySet.update"] {
            assert!(keys.contains(&typed(t)[0]), "{t}");
        }
        for t in ["models.update", "QuerySet.filter", "db.models", "django.QuerySet.update", "django.update"]
        {
            assert!(!keys.contains(&typed(t)[0]), "{t}");
        }
        // A dotted name's own key finds it as written; one joined otherwise
        // has its dotted form too.
        assert!(!keys.contains(&typed("django.db.models.query.QuerySet.update")[0]));
        assert!(partial_keys("std::vec::vec").contains(&typed("std.vec.vec")[0]));
        // Qualified more than declared: found by an ending.
        let rustdoc = partial_keys("hashmap::insert");
        assert!(typed("std::collections::HashMap::insert").iter().skip(1).any(|k| rustdoc.contains(k)));
        assert!(typed("models.QuerySet.update").iter().skip(1).any(|k| keys.contains(k)));
        assert_eq!(typed("a.b.c").len(), 2);
        // Whatever joins the parts: `boost::split`, `Vec.push`, `Hash#fetch`.
        assert!(partial_keys("boost::algorithm::split").contains(&typed("boost::split")[0]));
        assert!(partial_keys("vec::push").contains(&typed("vec.push")[0]));
        assert_eq!(dotted_form("hash#fetch").as_deref(), Some("hash.fetch"));
        assert_eq!(dotted_form("hash.fetch"), None);
        for name in ["push", ".npmrc", "a..b", "create index", "a:b", "::"] {
            assert!(partial_keys(name).is_empty() && partial_query_keys(name).is_empty(), "{name}");
        }
        // A long name: its last parts only, so its keys stay few.
        let long: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
        assert!(partial_keys(&long.join(".")).len() <= 2 * MAX_PARTIAL_PARTS);
    }

    #[test]
    fn a_title_is_keyed_by_its_words_without_its_number() {
        assert_eq!(
            title_key("Obsolete Members for QString"),
            title_key_of_folded(&fold("obsolete members for QString"))
        );
        for (numbered, bare) in [
            ("19.4.1. Memory", "Memory"),
            ("F.38. postgres_fdw", "postgres_fdw"),
            ("第 31 章 回归测试", "回归测试"),
            ("附录 A. PostgreSQL错误代码", "PostgreSQL错误代码"),
            ("2 Getting Started", "Getting Started"),
        ] {
            assert_eq!(title_key(numbered), title_key(bare), "{numbered}");
        }
        assert_ne!(title_key("9.6"), "");
        assert_ne!(title_key("Memory"), defined_key("Memory"));
        // Words as written: a title is not its plural.
        assert_ne!(title_key("workspace"), title_key("workspaces"));
        assert_eq!(title_key("—"), "");
    }

    #[test]
    fn cased_keys_keep_case_and_only_exist_for_letters_with_case() {
        assert_ne!(cased_key("-O"), cased_key("-o"));
        assert_eq!(cased_key(" git  -C "), cased_key("git -C"));
        assert_eq!(cased_key("e\u{301}"), cased_key("é"), "NFC");
        assert!(cased_key("-O").is_some_and(|k| is_cased_key(&k) && k != symbol_key("-O")));
        assert_eq!(cased_key("::"), None);
        assert_eq!(cased_key("索引"), None);
        assert!(!is_cased_key(&symbol_key("-O")) && !is_cased_key(&unqualified_key("x")));
    }

    #[test]
    fn symbol_keys_of_folded_words_equal_the_folded_join() {
        let words = ["CREATE", "Index", "Straße", "e\u{301}", " spaced  out "];
        let folded: Vec<String> = words.iter().map(|w| fold(w)).collect();
        for k in 0..=words.len() {
            assert_eq!(
                symbol_key_of_folded(folded[..k].iter().map(String::as_str)),
                symbol_key(&words[..k].join(" ")),
            );
        }
        assert_eq!(symbol_key("  CREATE\tINDEX "), "create index");
    }
}
