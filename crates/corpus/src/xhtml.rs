//! XHTML read as its author wrote it. DocBook's XHTML output (Debian's
//! reference manual among others) marks a heading's target with an empty
//! `<a id="…"/>`. An HTML parser does not honour the `/`: the `<a>` stays
//! open, and the parser then copies it, id and all, into every block that
//! follows, so a later heading would carry an earlier table's id ahead of
//! its own and its section would be linked to the wrong place. In a file
//! that declares itself XHTML, each self-closed element that HTML does not
//! know as empty (`<a/>`, `<div/>`, `<span/>`) is written out as an element
//! with no content before the page is parsed.

use std::borrow::Cow;

use crate::tags::{RAW_TEXT, VOID, find_ignore_case, memchr};

/// Bytes of the file's start searched for the XML declaration, the XHTML
/// doctype or namespace.
const HEAD_BYTES: usize = 2048;

/// `src` with every self-closed non-void element closed (`<a id="x"/>` →
/// `<a id="x"></a>`) when it declares itself XHTML; as it is otherwise.
pub(crate) fn close_empty_elements(src: &str) -> Cow<'_, str> {
    if !is_xhtml(src) || !src.contains("/>") {
        return Cow::Borrowed(src);
    }
    let bytes = src.as_bytes();
    // Written only from the first element closed on: most XHTML files
    // self-close nothing but void elements, and are read as they are.
    let mut out: Option<String> = None;
    let (mut copied, mut at) = (0, 0);
    while let Some(lt) = memchr(b'<', &bytes[at..]).map(|o| at + o) {
        at = lt + 1;
        if src[at..].starts_with("!--") {
            at = src[at..].find("-->").map_or(src.len(), |e| at + e + 3);
            continue;
        }
        let name_len = src[at..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b':' | b'-' | b'_'))
            .count();
        if name_len == 0 || !bytes[at].is_ascii_alphabetic() {
            continue;
        }
        let name = &src[at..at + name_len];
        let gt = match tag_end(bytes, at + name_len) {
            Some(TagEnd::Close(gt)) => gt,
            Some(TagEnd::Broken(next)) => {
                at = next;
                continue;
            }
            None => break,
        };
        let lower = name.to_ascii_lowercase();
        let self_closed = bytes[..gt].iter().rev().find(|b| !b.is_ascii_whitespace()) == Some(&b'/');
        if self_closed && !VOID.contains(&lower.as_str()) {
            let slash = gt - 1 - bytes[..gt].iter().rev().take_while(|b| b.is_ascii_whitespace()).count();
            let out = out.get_or_insert_with(|| String::with_capacity(src.len() + src.len() / 64));
            out.push_str(&src[copied..slash]);
            out.push_str("></");
            out.push_str(name);
            out.push('>');
            copied = gt + 1;
        } else if !self_closed && RAW_TEXT.contains(&lower.as_str()) {
            // Skip to the element's end: its text is not markup.
            let close = format!("</{lower}");
            at = find_ignore_case(bytes, gt + 1, close.as_bytes()).unwrap_or(src.len());
            continue;
        }
        at = gt + 1;
    }
    match out {
        Some(mut out) => {
            out.push_str(&src[copied..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(src),
    }
}

/// True when the file's start has an XML declaration, the XHTML doctype or
/// the XHTML namespace.
fn is_xhtml(src: &str) -> bool {
    let mut end = src.len().min(HEAD_BYTES);
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    let head = &src[..end];
    head.trim_start_matches('\u{feff}').trim_start().starts_with("<?xml")
        || head.contains("//DTD XHTML")
        || head.contains("http://www.w3.org/1999/xhtml")
}

/// Where the tag whose attributes start at `from` ends: at its `>`
/// (a quoted value may hold `>` and `<`), or at a `<` that starts another
/// tag first (a broken one); None when the file ends inside it. Each byte
/// is read once, so the whole file is read in linear time.
fn tag_end(bytes: &[u8], from: usize) -> Option<TagEnd> {
    let mut quote: Option<u8> = None;
    let mut after_equals = false;
    for (i, &b) in bytes.iter().enumerate().skip(from) {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if (b == b'"' || b == b'\'') && after_equals => quote = Some(b),
            None if b == b'>' => return Some(TagEnd::Close(i)),
            None if b == b'<' => return Some(TagEnd::Broken(i)),
            None => {}
        }
        if !b.is_ascii_whitespace() {
            after_equals = b == b'=';
        }
    }
    None
}

enum TagEnd {
    /// The tag's `>`.
    Close(usize),
    /// A `<` before any `>`: the next tag starts there.
    Broken(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

    #[test]
    fn self_closed_elements_of_xhtml_are_closed() {
        let src = format!(
            "{XML}<h3><a id=\"x\"/>1. Title</h3><p>a<br/>b<img src=\"i.png\" /><span class='c' /></p>"
        );
        assert_eq!(
            close_empty_elements(&src),
            format!(
                "{XML}<h3><a id=\"x\"></a>1. Title</h3><p>a<br/>b<img src=\"i.png\" /><span class='c' ></span></p>"
            )
        );
    }

    #[test]
    fn quotes_comments_and_scripts_are_not_markup() {
        let src = format!(
            "{XML}<a title=\"a/>b\" id=\"t\"/><!-- <div/> --><script>if (a<b) x = '<i/>';</script><style>p{{}}</style><b/>"
        );
        assert_eq!(
            close_empty_elements(&src),
            format!(
                "{XML}<a title=\"a/>b\" id=\"t\"></a><!-- <div/> --><script>if (a<b) x = '<i/>';</script><style>p{{}}</style><b></b>"
            )
        );
    }

    #[test]
    fn html_is_left_as_it_is() {
        let src = "<!DOCTYPE html><h3><a id=\"x\"/>Title</h3>";
        assert!(matches!(close_empty_elements(src), Cow::Borrowed(_)));
        // XHTML without a self-closed element, or with a broken tag at the end.
        let plain = format!("{XML}<p>text</p>");
        assert!(matches!(close_empty_elements(&plain), Cow::Borrowed(_)));
        let cut = format!("{XML}<p>text</p><a id=\"x\"/><div class=\"never closed");
        assert_eq!(
            close_empty_elements(&cut),
            format!("{XML}<p>text</p><a id=\"x\"></a><div class=\"never closed")
        );
    }
}
