//! Keys derived from content: a section's stable key, and a symbol as it is
//! matched (indexed and queried alike).

use sha2::{Digest, Sha256};

use crate::text::fold;

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

#[cfg(test)]
mod tests {
    use super::*;

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
