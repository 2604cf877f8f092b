//! MDX's syntax that is no Markdown. Docusaurus, Nextra and Storybook write
//! pages in MDX (Docusaurus reads `.md` files as MDX too): ESM blocks
//! (`import Tabs from '@theme/Tabs';`, `export const meta = {…}`) and
//! comments (`{/* … */}`). Both are blanked: each of their bytes but line
//! breaks becomes a space, so a page's text and its rendering leave them
//! out while every offset into the source still holds. (JSX elements are
//! raw HTML to a Markdown parser: their tags go, their text stays.)

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

/// `markdown` with its ESM blocks and MDX comments blanked (see the module
/// documentation); borrowed when it has none.
pub fn blank(markdown: &str) -> Cow<'_, str> {
    let maybe_esm = markdown.contains("import") || markdown.contains("export");
    if !maybe_esm && !markdown.contains("{/*") {
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
    blank_comments(markdown, &prose, &mut bytes);
    // Only ASCII bytes other than line breaks were replaced by spaces,
    // and only whole characters: the text is still UTF-8.
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

/// Blanks each `{/* … */}` that starts in one of the `prose` line ranges
/// (it may run over several lines), outside code spans.
fn blank_comments(markdown: &str, prose: &[(usize, usize)], bytes: &mut [u8]) {
    let mut skip_to = 0;
    for &(start, end) in prose {
        let mut at = start.max(skip_to);
        while at < end {
            let rest = &markdown[at..end];
            let Some(i) = rest.find(['`', '{']) else { break };
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
            } else {
                at += 1;
            }
        }
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
    fn fences_track_their_own_kind_and_length() {
        let mut f = CodeFences::default();
        let lines = ["text", "````md", "```", "still code", "````", "after", "~~~", "x", "~~~"];
        let code: Vec<bool> = lines.iter().map(|l| f.is_code(l)).collect();
        assert_eq!(code, [false, true, true, true, true, false, true, true, true]);
    }
}
