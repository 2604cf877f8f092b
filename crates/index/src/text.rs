//! Text normalisation shared by indexing and querying: NFC, then Unicode
//! default case folding, and the script classes the tokenizer splits on.

/// CJK, kana and Latin letters as every crate classifies them (the corpus
/// owns the tables).
pub use lectern_corpus::script::{is_cjk, is_hiragana, is_katakana, is_latin};
use unicode_normalization::UnicodeNormalization;

/// NFC-normalises and case-folds (Unicode default case folding).
pub fn fold(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let nfc: String = s.nfc().collect();
    caseless::default_case_fold_str(&nfc)
}

/// `folded` with the accents of its Latin letters dropped (`ç` → `c`,
/// `ã` → `a`, `ü` → `u`): people type `configuracao` and `Uberblick` for
/// a manual's `configuração` and `Überblick`; and Russian's `ё` is `е`.
/// Letters of other scripts keep their marks (`й` is no `и`), and letters
/// with no base letter stay (`ø`, `ł`, `æ`).
pub fn unaccented(folded: &str) -> String {
    let mut out = String::with_capacity(folded.len());
    push_unaccented(folded, &mut out);
    out
}

/// Appends [`unaccented`] `folded` to `out`.
pub fn push_unaccented(folded: &str, out: &mut String) {
    for c in folded.chars() {
        if c == 'ё' {
            // Russian writes ё as е as often as not (`слоёв`, `слоев`).
            out.push('е');
        } else if !c.is_ascii() && is_latin(c) {
            out.extend(std::iter::once(c).nfd().filter(|m| !matches!(*m as u32, 0x0300..=0x036F)));
        } else {
            out.push(c);
        }
    }
}

/// Combining marks that continue a word (text is NFC, but not every
/// base+mark pair has a precomposed form).
pub fn is_combining(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD | 0x0610..=0x061A
        | 0x064B..=0x065F | 0x0900..=0x0903 | 0x093A..=0x094F | 0x1AB0..=0x1AFF
        | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F
    )
}

/// A character that belongs to a (non-CJK) word.
pub fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    !is_cjk(c) && (c.is_alphanumeric() || is_combining(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_and_normalises() {
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("STRAẞE"), "strasse");
        assert_eq!(fold("e\u{301}"), "é");
        assert_eq!(fold("CREATE Index"), "create index");
    }

    #[test]
    fn classifies_scripts() {
        assert!(is_cjk('索'));
        assert!(is_cjk('カ'));
        assert!(is_cjk('한'));
        assert!(!is_cjk('a'));
        assert!(is_word_char('ж'));
        assert!(!is_word_char('_'));
        assert!(!is_word_char('索'));
    }
}
