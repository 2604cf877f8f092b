//! The large stored texts of a page (its Markdown and plain text) packed
//! with LZ4 by us. The store itself is not compressed, so a search hit's
//! section is read without decompressing it (the hits of a search are most
//! of its time); the page texts, read once per page shown, stay small on
//! disk. A packed value is the text's length (4 bytes, little-endian) and
//! its LZ4 block.

/// A packed text that would unpack to more than this is refused as damaged
/// (a page's input is at most 10 MiB; its Markdown and text are no larger).
const MAX_UNPACKED_BYTES: usize = 64 * 1024 * 1024;

/// `text` packed.
pub(crate) fn pack(text: &str) -> Vec<u8> {
    lz4_flex::block::compress_prepend_size(text.as_bytes())
}

/// The text `bytes` pack; None when they are damaged (a bad block, a length
/// over 64 MiB, or text that is not UTF-8).
pub(crate) fn unpack(bytes: &[u8]) -> Option<String> {
    let (size, block) = lz4_flex::block::uncompressed_size(bytes).ok()?;
    if size > MAX_UNPACKED_BYTES {
        return None;
    }
    let mut out = vec![0u8; size];
    let written = lz4_flex::block::decompress_into(block, &mut out).ok()?;
    if written != size {
        return None;
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_round_trip() {
        for text in ["", "a", "# 标题\n\n正文 text, text, text, text, text.", &"SELECT 1;\n".repeat(10_000)]
        {
            assert_eq!(unpack(&pack(text)).as_deref(), Some(text));
        }
    }

    #[test]
    fn damaged_values_unpack_to_none() {
        let good = pack(&"the same words again and again ".repeat(100));
        // Cut short, a length that lies, a length over the cap, no length.
        assert_eq!(unpack(&good[..good.len() / 2]), None);
        let mut longer = good.clone();
        longer[..4].copy_from_slice(&(u32::from_le_bytes(good[..4].try_into().unwrap()) + 7).to_le_bytes());
        assert_eq!(unpack(&longer), None);
        let mut huge = good.clone();
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(unpack(&huge), None);
        assert_eq!(unpack(&[1, 0]), None);
        // Not UTF-8 once unpacked.
        assert_eq!(unpack(&lz4_flex::block::compress_prepend_size(&[0xff, 0xfe, 0x41])), None);
    }
}
