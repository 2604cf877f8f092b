//! Script classes the whole workspace agrees on: which characters are CJK
//! (indexed as bigrams) and which of those are Hangul.

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
    }
}
