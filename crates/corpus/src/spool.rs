//! Converted pages parked on disk while a source is read: each page is
//! written to an unnamed temporary file as soon as it is converted and read
//! back one at a time when it is indexed, so reading a source holds one page
//! in memory, not all of them. The file has no name (it is gone when the
//! process is, even after `kill -9`), and the encoding is private to one run.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::FileExt;

use crate::page::{NavPlace, Page, Section, Symbol};

/// Pages written so far; [`Spool::read`] takes back the one at an offset.
pub(crate) struct Spool {
    out: BufWriter<File>,
    /// Bytes written (the offset of the next page).
    len: u64,
    /// Whether `out` has been flushed since the last write.
    flushed: bool,
}

impl Spool {
    pub(crate) fn new() -> std::io::Result<Spool> {
        Ok(Spool { out: BufWriter::with_capacity(1 << 20, tempfile::tempfile()?), len: 0, flushed: true })
    }

    /// Appends a page; returns its offset.
    pub(crate) fn write(&mut self, page: &Page) -> std::io::Result<u64> {
        let mut bytes = Vec::with_capacity(page.markdown.len() * 3 + 256);
        encode(page, &mut bytes);
        let at = self.len;
        self.out.write_all(&(bytes.len() as u64).to_le_bytes())?;
        self.out.write_all(&bytes)?;
        self.len += 8 + bytes.len() as u64;
        self.flushed = false;
        Ok(at)
    }

    /// Makes every written page readable.
    pub(crate) fn flush(&mut self) -> std::io::Result<()> {
        if !self.flushed {
            self.out.flush()?;
            self.flushed = true;
        }
        Ok(())
    }

    /// The page written at `at` (after [`Spool::flush`]).
    pub(crate) fn read(&self, at: u64) -> std::io::Result<Page> {
        let file = self.out.get_ref();
        let mut head = [0u8; 8];
        file.read_exact_at(&mut head, at)?;
        let len = usize::try_from(u64::from_le_bytes(head)).map_err(std::io::Error::other)?;
        let mut bytes = vec![0u8; len];
        file.read_exact_at(&mut bytes, at + 8)?;
        decode(&bytes).ok_or_else(|| std::io::Error::other("a spooled page could not be read back"))
    }
}

fn put_u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(&n.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u64(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn put_opt(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => {
            out.push(1);
            put_str(out, s);
        }
        None => out.push(0),
    }
}

fn encode(page: &Page, out: &mut Vec<u8>) {
    let Page {
        path,
        source_file,
        title,
        description,
        order,
        draft,
        frontmatter,
        markdown,
        text,
        sections,
        symbols,
        listing,
        // Not spooled: a page's place is known only once every page is.
        nav: _,
    } = page;
    put_str(out, path);
    put_str(out, source_file);
    put_str(out, title);
    put_opt(out, description.as_deref());
    match order {
        Some(n) => {
            out.push(1);
            out.extend_from_slice(&n.to_le_bytes());
        }
        None => out.push(0),
    }
    out.push(u8::from(*draft));
    out.push(u8::from(*listing));
    put_opt(out, frontmatter.as_deref());
    put_str(out, markdown);
    put_str(out, text);
    put_u64(out, sections.len() as u64);
    for Section { anchor, title, level, breadcrumb, markdown, text } in sections {
        put_opt(out, anchor.as_deref());
        put_str(out, title);
        out.push(*level);
        put_u64(out, breadcrumb.len() as u64);
        for crumb in breadcrumb {
            put_str(out, crumb);
        }
        put_str(out, markdown);
        put_str(out, text);
    }
    put_u64(out, symbols.len() as u64);
    for Symbol { name, kind, anchor, entry } in symbols {
        put_str(out, name);
        put_str(out, kind);
        put_opt(out, anchor.as_deref());
        put_opt(out, entry.as_deref());
    }
}

/// Reads back what [`encode`] wrote; None if the bytes are not such a page.
struct Cursor<'a> {
    bytes: &'a [u8],
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn u64(&mut self) -> Option<u64> {
        self.take(8).map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
    }

    fn len(&mut self) -> Option<usize> {
        self.u64().and_then(|n| usize::try_from(n).ok())
    }

    fn string(&mut self) -> Option<String> {
        let n = self.len()?;
        self.take(n).and_then(|b| String::from_utf8(b.to_vec()).ok())
    }

    fn opt(&mut self) -> Option<Option<String>> {
        match self.byte()? {
            0 => Some(None),
            _ => self.string().map(Some),
        }
    }
}

fn decode(bytes: &[u8]) -> Option<Page> {
    let mut c = Cursor { bytes };
    let path = c.string()?;
    let source_file = c.string()?;
    let title = c.string()?;
    let description = c.opt()?;
    let order = match c.byte()? {
        0 => None,
        _ => Some(c.u64()? as i64),
    };
    let draft = c.byte()? != 0;
    let listing = c.byte()? != 0;
    let frontmatter = c.opt()?;
    let markdown = c.string()?;
    let text = c.string()?;
    // Counts are checked against what is left, so a bad count cannot ask for a huge allocation.
    let count = c.len()?.min(c.bytes.len());
    let mut sections = Vec::with_capacity(count);
    for _ in 0..count {
        let anchor = c.opt()?;
        let title = c.string()?;
        let level = c.byte()?;
        let crumbs = c.len()?.min(c.bytes.len());
        let breadcrumb = (0..crumbs).map(|_| c.string()).collect::<Option<Vec<_>>>()?;
        let markdown = c.string()?;
        let text = c.string()?;
        sections.push(Section { anchor, title, level, breadcrumb, markdown, text });
    }
    let count = c.len()?.min(c.bytes.len());
    let mut symbols = Vec::with_capacity(count);
    for _ in 0..count {
        symbols.push(Symbol { name: c.string()?, kind: c.string()?, anchor: c.opt()?, entry: c.opt()? });
    }
    Some(Page {
        path,
        source_file,
        title,
        description,
        order,
        draft,
        frontmatter,
        markdown,
        text,
        sections,
        symbols,
        listing,
        nav: NavPlace::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::markdown_to_page;

    #[test]
    fn pages_read_back_as_written() {
        let mut a = markdown_to_page(
            "---\ntitle: T\norder: -3\ndescription: d\n---\n# T\n\nlead\n\n## B\n\nbody ü\n".as_bytes(),
            "a/b.md",
            "/x",
        )
        .unwrap();
        a.symbols.push(Symbol {
            name: "f".into(),
            kind: "Function".into(),
            anchor: Some("b".into()),
            entry: None,
        });
        a.draft = true;
        let mut b = markdown_to_page(b"plain", "c.md", "").unwrap();
        b.listing = true;
        let mut spool = Spool::new().unwrap();
        let (at_a, at_b) = (spool.write(&a).unwrap(), spool.write(&b).unwrap());
        spool.flush().unwrap();
        assert_eq!(spool.read(at_b).unwrap(), b);
        assert_eq!(spool.read(at_a).unwrap(), a);
        assert!(a.sections.len() > 1 && a.order == Some(-3) && a.frontmatter.is_some());
    }
}
