//! Manual pages turned into HTML (asciidoc's `git-blame(1) Manual Page`,
//! groff's and man2html's output): their NAME section, one line of the
//! commands it documents and what they do (`git-blame - Show what revision
//! and author last modified each line of a file`), names the page's
//! commands and says what the page is about. A question put in other words
//! ("show who changed each line of a file") finds the page by that line,
//! and a hit on the page's empty top shows it. A suite's command page
//! (`git-blame`) also names the command as typed (`git blame`). A Markdown
//! manual page (npm's `title: npm-install` with its `description`) names
//! its command the same way.

use crate::page::{Section, Symbol};

/// Sections after the lead in which a NAME section is looked for.
const NAME_WITHIN: usize = 2;
/// Longest NAME line read; a longer section is not a name line.
const MAX_LINE_BYTES: usize = 500;
/// Longest command name taken.
const MAX_NAME_BYTES: usize = 100;

/// The commands a manual page's NAME section names, as symbols of the page,
/// and what they do (its description); None unless one of the first
/// sections after the lead is titled NAME and holds one line of
/// `names - purpose`.
pub(crate) fn name_line(sections: &[Section]) -> Option<(Vec<Symbol>, String)> {
    // (A page whose first section has an anchor has no lead: mandoc's
    // starts with its NAME section.)
    let lead = usize::from(sections.first().is_some_and(|s| s.anchor.is_none()));
    let section = sections.iter().skip(lead).take(NAME_WITHIN).find(|s| is_name_heading(&s.title))?;
    let text = section.text.trim();
    let text = text.strip_prefix(section.title.trim()).unwrap_or(text);
    if text.len() > 2 * MAX_LINE_BYTES {
        return None;
    }
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.len() > MAX_LINE_BYTES {
        return None;
    }
    let (head, purpose) =
        line.split_once(" - ").or_else(|| line.split_once(" — ")).or_else(|| line.split_once(" -- "))?;
    let names: Vec<&str> = head.split(',').map(str::trim).collect();
    let command_like = |n: &&str| {
        !n.is_empty()
            && n.len() <= MAX_NAME_BYTES
            && !n.contains(char::is_whitespace)
            && n.chars().any(char::is_alphanumeric)
    };
    let purpose = purpose.trim();
    if purpose.is_empty() || !names.iter().all(command_like) {
        return None;
    }
    Some((commands(&names), purpose.to_owned()))
}

/// What manual pages title their NAME section, in the languages they are
/// translated to (manpages-zh's 名称, manpages-fr's NOM…).
const NAME_HEADINGS: [&str; 13] = [
    "NAME",
    "名称",
    "名字",
    "名前",
    "이름",
    "NOM",
    "NOMBRE",
    "NOME",
    "BEZEICHNUNG",
    "NAAM",
    "ИМЯ",
    "НАЗВАНИЕ",
    "NAZWA",
];

/// Whether a heading titles a manual page's NAME section, in any case, alone
/// or with its translation in brackets (`NAME(名称)`, `名称 (NAME)`).
pub(crate) fn is_name_heading(title: &str) -> bool {
    let named = |t: &str| NAME_HEADINGS.contains(&t.trim().to_uppercase().as_str());
    let title = title.trim();
    let mut parts = title.split(['(', '（']);
    let outside = parts.next().unwrap_or("");
    let inside = parts.next().map(|r| r.trim_end_matches([')', '）']));
    named(title) || named(outside) || inside.is_some_and(named)
}

/// The commands a page names, as symbols: each name, and a suite's command
/// (`git-blame`, `git-send-email`) also as typed (`git blame`, `git
/// send-email`).
fn commands(names: &[&str]) -> Vec<Symbol> {
    let command = |name: String| Symbol { name, kind: "Command".to_owned(), anchor: None, entry: None };
    let mut symbols: Vec<Symbol> = Vec::new();
    for name in names {
        symbols.push(command((*name).to_owned()));
        if let Some((suite, sub)) = name.split_once('-')
            && !suite.is_empty()
            && !sub.is_empty()
        {
            symbols.push(command(format!("{suite} {sub}")));
        }
    }
    symbols
}

/// A Markdown manual page's command: a page titled in its frontmatter by a
/// suite's command name (`title: npm-install`, lowercase, one hyphenated
/// word) with a `description` (what it does) says, as a NAME line would,
/// that it documents `npm-install`, typed `npm install`. None for any other
/// title.
pub(crate) fn frontmatter_command(title: &str, description: Option<&str>) -> Option<Vec<Symbol>> {
    description.filter(|d| !d.trim().is_empty())?;
    let name_like = title.len() <= MAX_NAME_BYTES
        && title.starts_with(|c: char| c.is_ascii_lowercase())
        && title.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b))
        && title.contains('-')
        && !title.ends_with('-');
    name_like.then(|| commands(&[title]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frontmatter_title_names_a_suites_command() {
        let names = |title: &str, description: Option<&str>| -> Vec<String> {
            frontmatter_command(title, description).unwrap_or_default().into_iter().map(|s| s.name).collect()
        };
        assert_eq!(names("npm-install", Some("Install a package")), ["npm-install", "npm install"]);
        assert_eq!(
            names("npm-run-script", Some("Run arbitrary package scripts")),
            ["npm-run-script", "npm run-script"]
        );
        // No description, a title in words, capitals or no hyphen: no command.
        for (title, description) in [
            ("npm-install", None),
            ("npm-install", Some(" ")),
            ("Getting Started", Some("First steps")),
            ("Getting-Started", Some("First steps")),
            ("install", Some("Install a package")),
            ("npm-", Some("x")),
        ] {
            assert!(names(title, description).is_empty(), "{title}");
        }
    }

    fn section(title: &str, text: &str) -> Section {
        Section {
            anchor: Some(title.to_lowercase()),
            title: title.to_owned(),
            level: 2,
            breadcrumb: Vec::new(),
            markdown: String::new(),
            text: text.to_owned(),
        }
    }

    fn lead() -> Section {
        Section { anchor: None, level: 1, ..section("git-blame(1) Manual Page", "") }
    }

    #[test]
    fn a_name_line_names_commands_and_says_what_they_do() {
        let sections = [
            lead(),
            section(
                "NAME",
                "NAME git-blame -\n   Show what revision and author last modified each line of a file\n",
            ),
            section("SYNOPSIS", "git blame [-c] [-b]"),
        ];
        let (symbols, description) = name_line(&sections).unwrap();
        assert_eq!(symbols.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["git-blame", "git blame"]);
        assert_eq!(symbols[0].kind, "Command");
        assert_eq!(symbols[0].anchor, None, "the page's own name");
        assert_eq!(description, "Show what revision and author last modified each line of a file");
        // Several names before the dash, an em dash, man2html's `Name`.
        let sections = [lead(), section("Name", "gzip, gunzip, zcat — compress or expand files")];
        let (symbols, description) = name_line(&sections).unwrap();
        assert_eq!(symbols.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["gzip", "gunzip", "zcat"]);
        assert_eq!(description, "compress or expand files");
        // Translated pages: manpages-zh's 名称, a heading with its translation.
        for title in ["名称", "NAME(名称)", "名称 (NAME)", "Nom", "ИМЯ"] {
            let sections = [lead(), section(title, &format!("{title} ls - 列出目录内容"))];
            let (symbols, description) = name_line(&sections).unwrap_or_else(|| panic!("{title}"));
            assert_eq!((symbols[0].name.as_str(), description.as_str()), ("ls", "列出目录内容"), "{title}");
        }
        assert!(!is_name_heading("名称空间") && !is_name_heading("Names"));
    }

    #[test]
    fn other_sections_are_not_name_lines() {
        // A section about names, not a NAME line.
        let prose = [lead(), section("Name", "The name of a table - any identifier - is case-folded.")];
        assert_eq!(name_line(&prose), None);
        // No dash, or the NAME section too far down.
        assert_eq!(name_line(&[lead(), section("NAME", "git-blame")]), None);
        let late = [lead(), section("SYNOPSIS", "x"), section("OPTIONS", "y"), section("NAME", "a - b")];
        assert_eq!(name_line(&late), None);
        // The lead itself is never one; a first section with an anchor is
        // no lead (mandoc's pages start with NAME).
        let lead_named = Section { anchor: None, ..section("NAME", "a - b") };
        assert_eq!(name_line(&[lead_named]), None);
        assert!(name_line(&[section("名称", "ls - 列出目录内容"), section("概述", "ls [选项]")]).is_some());
    }
}
