//! Reading what a search hit shows straight from a section document's stored
//! bytes, borrowed, without copying or validating more of the body than its
//! snippet can reach. tantivy's own deserializer copies every string and
//! checks the whole body as UTF-8, which cost about a tenth of a search.
//!
//! The layout read is tantivy 0.27's (pinned in the workspace): a VInt count
//! of values, then per value a `u32` field id (little-endian), a type byte
//! and, for text, a VInt byte length and the bytes. VInts are 7 bits per
//! byte, the last byte marked by its high bit. A section document stores
//! its text fields up to the body first (`Writer::add_page`), so reading
//! stops at the body. Anything unexpected gives None, and the caller falls
//! back to tantivy's deserializer; a test compares both on every document.

use tantivy::schema::Field;

use crate::schema::Fields;

/// tantivy's type byte of a text value (`type_codes::TEXT_CODE`).
const TEXT_CODE: u8 = 0;

/// The stored fields of a section that a hit shows: borrowed from the
/// document's bytes (`S` = `&str`, by [`read`]) or owned (`String`, by
/// tantivy's deserializer).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct HitFields<S> {
    pub edition: S,
    pub section_key: S,
    pub path: S,
    pub anchor: Option<S>,
    /// The first title value: the section's heading (a lead section may
    /// hold its page's description as a second, searched, not shown).
    pub title: S,
    pub titled: bool,
    /// The second title value: a lead section's page description, shown
    /// as its snippet when the section has no text of its own.
    pub description: Option<S>,
    pub breadcrumb: Vec<S>,
    /// The names the section defines at elements inside it (see
    /// `schema::Fields::entries`).
    pub entries: Option<S>,
    pub body: S,
}

impl<S> HitFields<S> {
    /// Keeps `text` if `field` is one a hit shows; true for the body, which
    /// a section document stores after the others (reading stops there).
    pub(crate) fn set(&mut self, f: &Fields, field: Field, text: S) -> bool {
        match field {
            _ if field == f.body => {
                self.body = text;
                return true;
            }
            _ if field == f.edition => self.edition = text,
            _ if field == f.section_key => self.section_key = text,
            _ if field == f.path => self.path = text,
            _ if field == f.anchor => self.anchor = Some(text),
            _ if field == f.title && !self.titled => {
                self.title = text;
                self.titled = true;
            }
            _ if field == f.title && self.description.is_none() => self.description = Some(text),
            _ if field == f.breadcrumb => self.breadcrumb.push(text),
            _ if field == f.entries => self.entries = Some(text),
            _ => {}
        }
        false
    }
}

impl HitFields<String> {
    pub(crate) fn borrowed(&self) -> HitFields<&str> {
        HitFields {
            edition: &self.edition,
            section_key: &self.section_key,
            path: &self.path,
            anchor: self.anchor.as_deref(),
            title: &self.title,
            titled: self.titled,
            description: self.description.as_deref(),
            breadcrumb: self.breadcrumb.iter().map(String::as_str).collect(),
            entries: self.entries.as_deref(),
            body: &self.body,
        }
    }
}

/// Reads `bytes`, one stored document; None when it is not laid out as a
/// section document's should be or is not valid UTF-8 where read. `body`
/// is at most its first `body_bytes` bytes (cut at a char boundary).
pub(crate) fn read<'a>(bytes: &'a [u8], f: &Fields, body_bytes: usize) -> Option<HitFields<&'a str>> {
    let mut at = 0usize;
    let count = vint(bytes, &mut at)?;
    let mut out = HitFields::default();
    for _ in 0..count {
        let field = Field::from_field_id(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
        at += 4;
        if *bytes.get(at)? != TEXT_CODE {
            return None;
        }
        at += 1;
        let len = usize::try_from(vint(bytes, &mut at)?).ok()?;
        let value = bytes.get(at..at.checked_add(len)?)?;
        at += len;
        let text = if field == f.body {
            utf8_head(value, body_bytes)?
        } else {
            // (A section's entries run to kilobytes: the fast check.)
            simdutf8::basic::from_utf8(value).ok()?
        };
        if out.set(f, field, text) {
            return Some(out);
        }
    }
    // A section document always has a body.
    None
}

/// The longest prefix of `value` of at most `max` bytes that ends where a
/// char starts (or at the end); None when that prefix is not UTF-8.
fn utf8_head(value: &[u8], max: usize) -> Option<&str> {
    let mut end = value.len().min(max);
    // Back off over continuation bytes (`10xxxxxx`) to where a char starts.
    while end < value.len() && end > 0 && value[end] & 0xC0 == 0x80 {
        end -= 1;
    }
    simdutf8::basic::from_utf8(&value[..end]).ok()
}

/// A tantivy VInt at `*at`, moving `*at` past it.
fn vint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(b & 0x7f).checked_shl(shift)?;
        if b & 0x80 != 0 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn heads_end_at_char_boundaries_and_bad_utf8_is_refused() {
        let text = "ab创建";
        assert_eq!(utf8_head(text.as_bytes(), 100), Some(text));
        assert_eq!(utf8_head(text.as_bytes(), 3), Some("ab"), "创 is cut: left out");
        assert_eq!(utf8_head(text.as_bytes(), 5), Some("ab创"));
        assert_eq!(utf8_head(b"ab\xff", 100), None);
        assert_eq!(utf8_head(b"ab\xe5\x88", 100), None, "a cut char at the real end is bad");
    }

    #[test]
    fn vints_are_read_as_tantivy_writes_them() {
        let mut at = 0;
        assert_eq!(vint(&[0x85], &mut at), Some(5));
        assert_eq!(at, 1);
        // 300 = 0b10_0101100: low 7 bits first, the last byte marked.
        let mut at = 0;
        assert_eq!(vint(&[0x2c, 0x82], &mut at), Some(300));
        assert_eq!(vint(&[0x2c], &mut 0), None, "unterminated");
    }

    proptest! {
        #[test]
        fn never_panics_on_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64), max in 0usize..80) {
            let f = Fields::build();
            let _ = read(&bytes, &f, max);
        }
    }
}
