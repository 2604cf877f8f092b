//! Shared text helpers: NFC normalisation, GitHub-style heading slugs, and
//! tidying plain text (no trailing spaces, no blank lines).

use std::collections::HashMap;

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// The NFC form of `s` (cheap when `s` is already NFC, as nearly all text is).
pub fn nfc(s: &str) -> String {
    match is_nfc_quick(s.chars()) {
        IsNormalized::Yes => s.to_owned(),
        _ => s.nfc().collect(),
    }
}

/// A GitHub-style heading slug: lowercase, each space becomes `-`,
/// punctuation and symbols are dropped, letters, combining marks and digits
/// of every script (CJK included), `-` and `_` are kept.
pub fn slugify(heading: &str) -> String {
    let mut slug = String::with_capacity(heading.len());
    for c in heading.trim().chars() {
        if c.is_alphanumeric() || unicode_normalization::char::is_combining_mark(c) {
            slug.extend(c.to_lowercase());
        } else if c == ' ' || c == '-' {
            slug.push('-');
        } else if is_connector(c) {
            slug.push(c);
        }
    }
    slug
}

/// Connector punctuation (`_` and its kin), which the slug keeps.
fn is_connector(c: char) -> bool {
    matches!(
        c,
        '_' | '\u{203F}' | '\u{2040}' | '\u{2054}' | '\u{FE33}' | '\u{FE34}' | '\u{FE4D}'
            ..='\u{FE4F}' | '\u{FF3F}'
    )
}

/// Hands out unique anchors within one page, the way GitHub does:
/// a repeated slug gets `-1`, `-2`, ... appended.
#[derive(Debug, Default)]
pub struct Slugger {
    seen: HashMap<String, usize>,
}

impl Slugger {
    /// Records an anchor the page already uses (an explicit id), so later
    /// generated slugs avoid it.
    pub fn reserve(&mut self, anchor: &str) {
        self.seen.entry(anchor.to_owned()).or_insert(0);
    }

    /// A unique slug for `heading` (`section` when the heading slugs to nothing).
    pub fn slug(&mut self, heading: &str) -> String {
        let mut base = slugify(heading);
        if base.is_empty() {
            base = "section".to_owned();
        }
        self.unique(base)
    }

    /// `base` when no anchor of the page is it yet, else `base-1`, `base-2`…
    pub fn unique(&mut self, base: String) -> String {
        let mut candidate = base.clone();
        loop {
            match self.seen.get_mut(&candidate) {
                None => {
                    self.seen.insert(candidate.clone(), 0);
                    return candidate;
                }
                Some(_) => {
                    let n = self.seen.entry(base.clone()).or_insert(0);
                    *n += 1;
                    candidate = format!("{base}-{n}");
                }
            }
        }
    }
}

/// Plain text tidied for indexing and display: every line right-trimmed,
/// blank lines dropped, then NFC.
pub fn tidy(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for line in raw.lines() {
        let line = line.trim_end();
        if line.trim_start().is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
    }
    nfc(&out)
}

/// Collapses every run of whitespace to one space and trims the ends.
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The page's plain text: its sections' texts joined by blank lines, so the
/// sections always cover the page exactly.
pub fn join_texts<'a>(texts: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for t in texts {
        if t.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_github() {
        assert_eq!(slugify("Hello, World!"), "hello-world");
        assert_eq!(slugify("  `npm ci` vs. install "), "npm-ci-vs-install");
        assert_eq!(slugify("安装 指南"), "安装-指南");
        assert_eq!(slugify("snake_case-name"), "snake_case-name");
        assert_eq!(slugify("A & B"), "a--b");
        assert_eq!(slugify("हिन्दी भाषा"), "हिन्दी-भाषा", "combining marks stay");
    }

    #[test]
    fn slugger_dedupes() {
        let mut s = Slugger::default();
        s.reserve("intro");
        assert_eq!(s.slug("Intro"), "intro-1");
        assert_eq!(s.slug("Intro"), "intro-2");
        assert_eq!(s.slug("Other"), "other");
        assert_eq!(s.slug("!!!"), "section");
    }

    #[test]
    fn tidy_drops_blank_lines_and_normalises() {
        assert_eq!(tidy("a  \n\n   \n  b\n"), "a\n  b");
        assert_eq!(tidy("e\u{301}"), "\u{e9}");
    }
}
