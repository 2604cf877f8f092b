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
#[cfg(test)]
pub(crate) fn is_cased_key(key: &str) -> bool {
    key.starts_with(CASED_MARK)
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
    let key = if folded.chars().any(is_cjk) {
        symbol_key_of_folded([folded])
    } else {
        let mut words: Vec<String> = Vec::new();
        analyze_each(folded, true, &mut |t, _, _, _, kind| {
            if kind == TokenKind::Word {
                words.push(t.to_owned());
            }
            true
        });
        words.join(" ")
    };
    if key.is_empty() { key } else { format!("{DEFINED_MARK}{key}") }
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
