//! MDX's syntax that is no Markdown. Docusaurus, Nextra and Storybook write
//! pages in MDX (Docusaurus reads `.md` files as MDX too): ESM blocks
//! (`import Tabs from '@theme/Tabs';`, `export const meta = {…}`), comments
//! (`{/* … */}`) and JSX tags (`<Tabs items={[…]}>`, `</Tabs.Tab>`, which a
//! Markdown parser would show as text). Each is blanked: every byte but
//! line breaks becomes a space, so a page's text and its rendering leave
//! them out while every line of the source keeps its place. The strings a
//! tag shows (a label, a properties table's entries) are written back.

use std::borrow::Cow;

/// Tracks fenced code blocks line by line (```` ``` ```` and `~~~`, closed
/// by a fence of the same character at least as long).
#[derive(Debug, Default)]
pub(crate) struct CodeFences {
    open: Option<(char, usize)>,
}

impl CodeFences {
    /// Whether `line` (read in order) is a fence or inside fenced code.
    pub(crate) fn is_code(&mut self, line: &str) -> bool {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let was_open = self.open.is_some();
        if let Some(mark) = trimmed.chars().next().filter(|c| matches!(c, '`' | '~')) {
            let run = trimmed.len() - trimmed.trim_start_matches(mark).len();
            match self.open {
                None if run >= 3 && indent <= 3 => self.open = Some((mark, run)),
                Some((c, n)) if c == mark && run >= n && trimmed[run..].trim().is_empty() => {
                    self.open = None;
                    return true;
                }
                _ => {}
            }
        }
        was_open || self.open.is_some()
    }
}

/// `markdown` with its ESM blocks, MDX comments and JSX tags blanked (see
/// the module documentation); borrowed when it can have none.
pub fn blank(markdown: &str) -> Cow<'_, str> {
    let maybe_esm = markdown.contains("import") || markdown.contains("export");
    if !maybe_esm && !markdown.contains("{/*") && !markdown.contains('<') {
        return Cow::Borrowed(markdown);
    }
    let mut bytes = markdown.as_bytes().to_vec();
    let mut fences = CodeFences::default();
    let mut previous_blank = true;
    // The open ESM block: how deep its brackets are.
    let mut esm: Option<i64> = None;
    let mut offset = 0;
    let mut prose = Vec::new();
    for line in markdown.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let blank_line = line.trim().is_empty();
        if let Some(depth) = esm {
            // A block ends at a blank line once its brackets are closed.
            if blank_line && depth <= 0 {
                esm = None;
            } else {
                esm = Some(depth + bracket_depth(line));
                blank_range(&mut bytes, start, offset);
                previous_blank = blank_line;
                continue;
            }
        }
        if fences.is_code(line) {
            previous_blank = false;
            continue;
        }
        if previous_blank && esm_starts(line, &markdown[start..]) {
            esm = Some(bracket_depth(line));
            blank_range(&mut bytes, start, offset);
        } else {
            prose.push((start, offset));
        }
        previous_blank = blank_line;
    }
    blank_inline(markdown, &prose, &mut bytes);
    unindent(markdown, &mut bytes);
    // Whole characters were made spaces, and whole strings and line ends
    // moved: the text is still UTF-8.
    Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| markdown.to_owned()))
}

/// Whether `line`, at the start of a block and of `rest` (the source from
/// it on), opens an ESM statement: `import X from '…'`, `import '…'`,
/// `import {` … `} from "…"`, `export const|let|var|function|async|class|default`,
/// `export {` or `export *`. Written in lower case at the line's start, as
/// MDX requires; prose (`Import the data from a file`) is not.
fn esm_starts(line: &str, rest: &str) -> bool {
    if let Some(after) = line.strip_prefix("import") {
        if !after.starts_with([' ', '{', '*', '\'', '"']) {
            return false;
        }
        let after = after.trim_start();
        if after.starts_with(['\'', '"']) {
            return true;
        }
        // Its `from` and the quoted module follow, on this line or the
        // block's next ones.
        let block = rest.split("\n\n").next().unwrap_or(rest);
        return block.match_indices("from").any(|(i, _)| {
            let before = block[..i].chars().next_back().is_some_and(|c| c == ' ' || c == '}' || c == '\n');
            before && block[i + 4..].trim_start().starts_with(['\'', '"'])
        });
    }
    if let Some(after) = line.strip_prefix("export") {
        let after_space = after.trim_start();
        if after_space.starts_with(['{', '*']) {
            return true;
        }
        let word = after_space.split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
        return after.starts_with(' ')
            && matches!(word, "const" | "let" | "var" | "function" | "async" | "class" | "default");
    }
    false
}

/// How much deeper `line` leaves the brackets (`{`, `(`, `[` opened less
/// closed), quoted strings and line comments skipped.
fn bracket_depth(line: &str) -> i64 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, '/') if chars.peek() == Some(&'/') => break,
            (None, '{' | '(' | '[') => depth += 1,
            (None, '}' | ')' | ']') => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// Blanks each `{/* … */}` and each JSX tag ([`jsx_tag`]) that starts in
/// one of the `prose` line ranges (either may run over several lines),
/// outside code spans; a tag's shown strings are written back.
fn blank_inline(markdown: &str, prose: &[(usize, usize)], bytes: &mut [u8]) {
    let mut skip_to = 0;
    let mut budget = 4 * markdown.len() + MAX_TAG;
    for &(start, end) in prose {
        let mut at = start.max(skip_to);
        while at < end {
            let rest = &markdown[at..end];
            let Some(i) = rest.find(['`', '{', '<']) else { break };
            at += i;
            let here = &markdown[at..];
            if here.starts_with('`') {
                // A code span: up to the same run of backticks, in its paragraph.
                let run = here.len() - here.trim_start_matches('`').len();
                let ticks = &here[..run];
                let paragraph_end = markdown[at..].find("\n\n").map_or(markdown.len(), |j| at + j);
                at = markdown[at + run..paragraph_end].find(ticks).map_or(at + run, |j| at + run + j + run);
            } else if here.starts_with("{/*") {
                match here.find("*/}") {
                    Some(j) => {
                        blank_range(bytes, at, at + j + 3);
                        at += j + 3;
                        skip_to = at;
                    }
                    None => at += 3,
                }
            } else if here.starts_with('<') && budget > 0 {
                // Each try reads a window; failed tries share a budget, so
                // a page of unclosed `<A {…` costs time linear in its size.
                let mut window = here.len().min(MAX_TAG);
                while !here.is_char_boundary(window) {
                    window -= 1;
                }
                match jsx_tag(&here[..window]) {
                    Ok(tag) => {
                        show_only(markdown, bytes, at, at + tag.len, &tag.shown);
                        at += tag.len;
                        skip_to = at;
                    }
                    Err(read) => {
                        budget = budget.saturating_sub(read);
                        at += 1;
                    }
                }
            } else {
                at += 1;
            }
        }
    }
}

/// A JSX tag: its length, and the byte ranges (from its `<`) of the text
/// it shows.
#[derive(Debug)]
struct JsxTag {
    len: usize,
    shown: Vec<std::ops::Range<usize>>,
}

/// The longest JSX tag read (a component given its data inline, such as a
/// table of properties, can be long).
const MAX_TAG: usize = 256 * 1024;

/// The JSX tag `s` starts with, when it is one a Markdown parser would not
/// read as HTML: a component's (`<Tabs.Tab>`, `</Note>`, `<Snippet text={…} />`:
/// a capital or a dot in its name, or a fragment's `<>`) or any tag with an
/// `{expression}` attribute. Shown: its `title` and `label` strings
/// and the strings inside its expressions (a tab's `items`, a properties
/// table's names and descriptions), but not paths or URLs. Not a tag: how
/// far it read (at most all of `s`).
fn jsx_tag(s: &str) -> Result<JsxTag, usize> {
    let bytes = s.as_bytes();
    let mut at = 1;
    let closing = bytes.get(at) == Some(&b'/');
    at += usize::from(closing);
    let all = s.len();
    let name_len = s[at..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-')))
        .ok_or(all)?;
    let name = &s[at..at + name_len];
    // A fragment's `<>` is closed at once: `a < b` is no tag.
    if name.starts_with(|c: char| !c.is_ascii_alphabetic()) || (name.is_empty() && !s[at..].starts_with('>'))
    {
        return Err(at);
    }
    at += name_len;
    let mut shown = Vec::new();
    let mut expression = false;
    loop {
        let rest = &s[at..];
        let trimmed = rest.trim_start();
        if trimmed.len() < rest.len() && rest[..rest.len() - trimmed.len()].matches('\n').count() > 1 {
            return Err(at); // a blank line ends a tag's paragraph
        }
        at += rest.len() - trimmed.len();
        if at > MAX_TAG {
            return Err(at);
        }
        if trimmed.starts_with("/>") || trimmed.starts_with('>') {
            at += if trimmed.starts_with('>') { 1 } else { 2 };
            break;
        }
        if closing {
            return Err(at);
        }
        if trimmed.starts_with('{') {
            at += expression_len(&s[at..], at, &mut shown).ok_or(all)?;
            expression = true;
            continue;
        }
        let attr_len = trimmed
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-')))
            .ok_or(all)?;
        if attr_len == 0 {
            return Err(at);
        }
        let attr = &trimmed[..attr_len];
        at += attr_len;
        let after = &s[at..];
        let Some(value) = after.trim_start().strip_prefix('=') else { continue };
        at += after.len() - value.len();
        let value_trimmed = value.trim_start();
        at += value.len() - value_trimmed.len();
        match value_trimmed.chars().next().ok_or(at)? {
            '{' => {
                at += expression_len(&s[at..], at, &mut shown).ok_or(all)?;
                expression = true;
            }
            q @ ('"' | '\'') => {
                let end = value_trimmed[1..].find(q).ok_or(all)?;
                if matches!(attr, "title" | "label") {
                    shown.push(at + 1..at + 1 + end);
                }
                at += end + 2;
            }
            _ => return Err(at),
        }
    }
    let component =
        name.is_empty() || name.contains('.') || name.starts_with(|c: char| c.is_ascii_uppercase());
    if !(component || expression) {
        return Err(at);
    }
    {
        shown.retain(|r| {
            let text = s[r.clone()].trim();
            text.chars().any(char::is_alphanumeric)
                && !text.starts_with(['/', '#', '.'])
                && !text.contains("://")
                && !text.contains('\n')
        });
        Ok(JsxTag { len: at, shown })
    }
}

/// The length of the JSX expression `s` starts with (`{…}`, brackets
/// balanced, strings, template literals and comments skipped), its string
/// literals' contents added to `shown` (offset by `base`).
fn expression_len(s: &str, base: usize, shown: &mut Vec<std::ops::Range<usize>>) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut depth = 0usize;
    let mut at = 0;
    while at < bytes.len().min(MAX_TAG) {
        match bytes[at] {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            q @ (b'"' | b'\'' | b'`') => {
                let start = at + 1;
                at = start;
                while at < bytes.len() && bytes[at] != q {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
                shown.push(base + start..base + at.min(bytes.len()));
            }
            b'/' if bytes.get(at + 1) == Some(&b'/') => at += s[at..].find('\n')?,
            b'/' if bytes.get(at + 1) == Some(&b'*') => at += s[at..].find("*/")? + 1,
            _ => {}
        }
        at += 1;
    }
    None
}

/// Blanks `bytes[start..end]` but for the `shown` ranges (relative to
/// `start`), which are written back on their own lines' starts, one space
/// between them: indentation left in place would make them code.
fn show_only(markdown: &str, bytes: &mut [u8], start: usize, end: usize, shown: &[std::ops::Range<usize>]) {
    blank_range(bytes, start, end);
    let mut line_start = start;
    let mut write = start;
    for range in shown {
        let (from, to) = (start + range.start, start + range.end);
        if let Some(nl) = markdown[line_start..from].rfind('\n') {
            line_start += nl + 1;
            write = line_start;
        } else if write > line_start {
            write += 1;
        }
        let piece = markdown[from..to].trim().as_bytes();
        bytes[write..write + piece.len()].copy_from_slice(piece);
        write += piece.len();
    }
}

/// Moves each line that blanking left more indented than it was written
/// (text after a tag that opened it) back to its own indentation, spaces
/// after it: four spaces more would make it code.
fn unindent(markdown: &str, bytes: &mut [u8]) {
    let mut start = 0;
    for line in markdown.split_inclusive('\n') {
        let end = start + line.trim_end_matches(['\n', '\r']).len();
        let indent = |b: &[u8]| b.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
        let (was, now) = (indent(line.as_bytes()), indent(&bytes[start..end]));
        if now > was && start + now < end {
            bytes.copy_within(start + now..end, start + was);
            blank_range(bytes, end - (now - was), end);
        }
        start += line.len();
    }
}

/// Makes every byte of `bytes[start..end]` but line breaks a space.
fn blank_range(bytes: &mut [u8], start: usize, end: usize) {
    for b in &mut bytes[start..end] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn esm_blocks_and_comments_become_spaces() {
        let src = "import Tabs from '@theme/Tabs';\nimport {\n  A,\n  B,\n} from \"./parts\";\n\n# Title\n\nText {/* a note */} here.\n\n{/*\nmany\nlines */}\n\nexport const meta = {\n  a: 1,\n\n  b: [2],\n};\n\nAfter.\n";
        let out = blank(src);
        assert_eq!(out.len(), src.len());
        assert_eq!(out.lines().count(), src.lines().count());
        let words: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(words, ["#", "Title", "Text", "here.", "After."]);
    }

    #[test]
    fn code_and_prose_stay() {
        let src = "```jsx\nimport X from 'x';\n{/* kept */}\n```\n\nUse `{/* this */}` in JSX.\n\nimport the data from a file.\n\nImport Tabs from 'x'.\n\nexporting is easy; export it.\n";
        assert_eq!(blank(src), src);
        let no_esm = "Plain text with {braces} and {/* unterminated.\n";
        assert!(matches!(blank(no_esm), Cow::Owned(ref s) if s == no_esm));
        assert!(matches!(blank("nothing here"), Cow::Borrowed(_)));
    }

    #[test]
    fn jsx_tags_go_and_the_strings_they_show_stay() {
        let src = concat!(
            "<Tabs items={[\"Model router\", 'AI SDK']}>\n  <Tabs.Tab>\n\nText one.\n\n  </Tabs.Tab>\n</Tabs>\n\n",
            "<PropertiesTable\n  content={[\n    {\n      name: 'maxRetries',\n      type: 'number',\n",
            "      description: \"How often to retry. Set to 0 to disable.\",\n      href: '/docs/retries',\n    },\n  ]}\n/>\n\n",
            "<Callout type=\"info\" title=\"Before you start\">Install it first.</Callout>\n\n",
            "<img src={logo} alt=\"Logo\" /> and <div class=\"x\">html</div> stay; so do a < b > c, ",
            "<https://example.com>, <x@y.org> and <>fragments</>.\n"
        );
        let out = blank(src);
        assert_eq!(out.len(), src.len());
        let words: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(
            words.join(" "),
            concat!(
                "Model router AI SDK Text one. maxRetries number How often to retry. Set to 0 to disable. ",
                "Before you start Install it first. and <div class=\"x\">html</div> stay; so do a < b > c, ",
                "<https://example.com>, <x@y.org> and fragments ."
            )
        );
        // Written back at their lines' starts: no line is indented code.
        assert!(out.lines().all(|l| !l.starts_with("    ") || l.trim().is_empty()), "{out}");
        // A blank line ends a tag that never closed; a closing tag has no attributes.
        assert_eq!(blank("<Note title=\"x\"\n\nText.\n"), "<Note title=\"x\"\n\nText.\n");
        assert_eq!(blank("</Note x>\n"), "</Note x>\n");
    }

    /// Tags that never close each read far ahead; their tries share a
    /// budget, so a hostile page (here 1.2 MB) costs time linear in its
    /// size, where a window read per `<` would read 40 GB.
    #[test]
    fn unclosed_tags_are_read_within_a_budget() {
        let src = "<A x={".repeat(200_000);
        let out = blank(&src);
        assert_eq!(out, src);
        let quoted = format!("{}\n\n<Note title=\"kept\">Text</Note>\n", "<B y=\"".repeat(200_000));
        assert_eq!(blank(&quoted).len(), quoted.len());
    }

    #[test]
    fn fences_track_their_own_kind_and_length() {
        let mut f = CodeFences::default();
        let lines = ["text", "````md", "```", "still code", "````", "after", "~~~", "x", "~~~"];
        let code: Vec<bool> = lines.iter().map(|l| f.is_code(l)).collect();
        assert_eq!(code, [false, true, true, true, true, false, true, true, true]);
    }
}
