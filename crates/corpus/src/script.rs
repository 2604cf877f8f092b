//! Script classes the whole workspace agrees on: which characters are CJK
//! (indexed as bigrams), which of those are Hangul, hiragana or katakana,
//! and which are Latin letters.

/// Han, Hiragana, Katakana and Hangul letters: the scripts the index splits
/// into overlapping bigrams plus unigrams. Han and kana words are not
/// delimited by spaces; Korean words are, but each carries its particles
/// and endings (색인을: "index" and the object marker), which the bigrams of
/// its stem still match. Punctuation is no part of a word, so not CJK.
/// Code that handles spacing (an HTML line break between CJK characters
/// stands for nothing) must leave out [`is_hangul`]: Korean spaces its words.
#[inline]
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF          // CJK radicals, Kangxi radicals
        | 0x3005..=0x3007        // 々 〆 〇
        | 0x3021..=0x3029        // Hangzhou numerals
        | 0x3031..=0x3035        // kana repeat marks
        | 0x3040..=0x30FF        // Hiragana, Katakana (incl. ー)
        | 0x31F0..=0x31FF        // Katakana phonetic extensions
        | 0x3400..=0x4DBF        // CJK Ext A
        | 0x4E00..=0x9FFF        // CJK Unified Ideographs
        | 0xF900..=0xFAFF        // CJK compatibility ideographs
        | 0xFF66..=0xFF9F        // halfwidth Katakana
        | 0x20000..=0x3FFFF      // CJK Ext B..H
    ) || is_hangul(c)
}

/// Hangul: syllables and Jamo, in every width. CJK to the index, but
/// written with spaces between words.
#[inline]
pub fn is_hangul(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF          // Hangul Jamo
        | 0x3130..=0x318F        // Hangul compatibility Jamo
        | 0xA960..=0xA97F        // Hangul Jamo Ext A
        | 0xAC00..=0xD7FF        // Hangul syllables, Jamo Ext B
        | 0xFFA0..=0xFFDC        // halfwidth Hangul
    )
}

/// Hiragana: in Japanese text the particles and endings around the words
/// (`の`, `を`, `する`), seldom a word of a manual.
#[inline]
pub fn is_hiragana(c: char) -> bool {
    matches!(c as u32, 0x3041..=0x3096 | 0x309D..=0x309F)
}

/// Katakana (with the long-vowel mark `ー`), full or half width: Japanese
/// loanwords (`ファイアウォール`).
#[inline]
pub fn is_katakana(c: char) -> bool {
    matches!(c as u32, 0x30A1..=0x30FA | 0x30FC..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F)
}

/// A letter of the Latin script: ASCII, Latin-1 and the Latin Extended
/// blocks (`é`, `ç`, `ł`, `ẞ`).
#[inline]
pub fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic()
        || (matches!(c, '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}') && c.is_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_scripts() {
        for c in ['索', 'カ', 'ー', '々', '𠀋', '한', 'ᄀ'] {
            assert!(is_cjk(c), "{c}");
        }
        for c in ['a', 'ж', '。', '，', ' ', '_'] {
            assert!(!is_cjk(c), "{c:?}");
        }
        assert!(is_hangul('한') && is_hangul('ㄱ'));
        assert!(!is_hangul('索') && !is_hangul('カ'));
        assert!(is_hiragana('の') && !is_hiragana('カ') && is_katakana('カ') && is_katakana('ー'));
        assert!(!is_katakana('・') && !is_katakana('索'));
        assert!(is_latin('a') && is_latin('ç') && is_latin('ł') && !is_latin('×') && !is_latin('ж'));
    }
}
