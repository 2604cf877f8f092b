//! A section's rank weight, decided at ingest from what its page is: a
//! generated listing, release notes or a changelog, a license's text, an appendix, or the
//! trailing "Compatibility" / "See Also" part of a reference page. Ranked
//! search multiplies scores by it, so among sections that match alike the
//! reference and tutorial text comes first.

use lectern_corpus::{Page, Section};

use crate::snippet::title_lead;

/// Percent; what every other section weighs.
pub(crate) const FULL_WEIGHT: u64 = 100;
/// A generated listing (a manual's index) holds every term: it would
/// otherwise crowd the top of many searches. Search ranks these last.
pub(crate) const LISTING_WEIGHT: u64 = 5;
/// Release notes and changelogs mention every feature in passing, in long
/// sections that match most queries.
const RELEASE_NOTES_WEIGHT: u64 = 45;
/// A license's text (the GPL an appendix reprints, a "License" page) is
/// long and legal: it holds the words of many questions (`run`, `code`,
/// `copy`, `end`) and answers none of them but its own.
const LICENSE_WEIGHT: u64 = 45;
/// A page's "Compatibility" or "See Also" part repeats the page's name
/// without defining it.
const TRAILER_WEIGHT: u64 = 70;
/// Appendices: reference too, but below the body of the manual for the same match.
const APPENDIX_WEIGHT: u64 = 90;
/// A heading with nothing under it but its subsections (a FAQ's "Sequences
/// (Tuples/Lists)"): it matches by its title alone and shows nothing, so
/// the parts that say something come first. A page's lead section is not
/// one: it stands for the page (a chapter whose contents are its only text,
/// SQLite's "Write-Ahead Logging" above "1. Overview").
const EMPTY_WEIGHT: u64 = 60;

/// A member's summary that sends the reader to its description elsewhere
/// (rustdoc's copy of `Iterator::collect` on every iterator's page, ending
/// "Read more"): the description comes first for the same match.
const SUMMARY_WEIGHT: u64 = 70;

/// Below this a weight marks a listing (see [`LISTING_WEIGHT`]).
pub(crate) fn is_listing(weight: u64) -> bool {
    weight <= LISTING_WEIGHT
}

/// The rank weight of one section of `page`, in percent.
pub(crate) fn section_weight(page: &Page, section: &Section) -> u64 {
    if page.listing || mostly_links(section) {
        return LISTING_WEIGHT;
    }
    if is_release_notes(page) {
        return RELEASE_NOTES_WEIGHT;
    }
    // (The heading of a license whose text is in the sections after it is
    // what a query naming the license asks for.)
    let named = names_license(&section.title);
    let in_license =
        named || names_license(&page.title) || section.breadcrumb.iter().any(|t| names_license(t));
    if !(named && page.sections.len() > 1) && (in_license || is_license_terms(&section.title)) {
        return LICENSE_WEIGHT;
    }
    // A part of a trailer ("Zero-Column Tables" under "Compatibility") is
    // one too.
    let trailer = is_trailer(&section.title) || section.breadcrumb.iter().skip(1).any(|t| is_trailer(t));
    if section.anchor.is_some() && trailer {
        return TRAILER_WEIGHT;
    }
    if section.anchor.is_some() && is_empty(section) {
        return EMPTY_WEIGHT;
    }
    if summarizes_elsewhere(section) || inherited(section) {
        return SUMMARY_WEIGHT;
    }
    // A one-page manual's appendices are sections of it (Texinfo's
    // "Appendix B Major Differences From The Bourne Shell").
    if is_appendix(&page.title)
        || (section.anchor.is_some()
            && (is_appendix(&section.title) || section.breadcrumb.iter().skip(1).any(|t| is_appendix(t))))
    {
        return APPENDIX_WEIGHT;
    }
    FULL_WEIGHT
}

/// True for a section of members a type inherits, each a summary of the
/// member its ancestor documents (gi-docgen's "Properties inherited from
/// GtkWidget (34)", Javadoc's "Methods inherited from class
/// java.lang.Object", rustdoc's "Methods from Deref<Target = str>")
/// ([`SUMMARY_WEIGHT`]).
fn inherited(section: &Section) -> bool {
    let says = |t: &String| {
        let t = t.to_lowercase();
        t.contains(" inherited from ") || t.starts_with("methods from deref")
    };
    section.anchor.is_some() && (says(&section.title) || section.breadcrumb.iter().skip(1).any(says))
}

/// True for a section whose text ends with a "Read more" link to another
/// page ([`SUMMARY_WEIGHT`]).
fn summarizes_elsewhere(section: &Section) -> bool {
    let md = section.markdown.trim_end();
    let Some(target) = md.strip_suffix(')').and_then(|rest| rest.rsplit_once("](")) else { return false };
    let (before, url) = target;
    let text = before.rsplit_once('[').map_or("", |(_, t)| t);
    text.trim().eq_ignore_ascii_case("read more") && !url.starts_with('#')
}

/// Least text (letters and digits) of a section [`mostly_links`] may call a
/// listing: a short list of links is a chapter's contents, read as such.
const MIN_LISTING_CHARS: usize = 1500;

/// True for a section whose text is links and little else, nine chars in
/// ten or more: an index printed as a section of a one-page manual (Texinfo's
/// "D.1 Index of Shell Builtin Commands"), a long table of contents. It names
/// other sections without saying what they hold, so it ranks with the
/// listings, as a page of links does.
fn mostly_links(section: &Section) -> bool {
    let counted = |text: &str| text.chars().filter(|c| c.is_alphanumeric()).count();
    let total = counted(&section.text);
    total >= MIN_LISTING_CHARS && link_text_chars(&section.markdown) * 10 >= total * 9
}

/// The letters and digits of the text of a Markdown's inline links
/// (`[text](target)`), images left out; nested brackets and escapes are
/// skipped over.
fn link_text_chars(markdown: &str) -> usize {
    let bytes = markdown.as_bytes();
    let mut linked = 0;
    let mut at = 0;
    while at < bytes.len() {
        let opens = bytes[at] == b'[' && (at == 0 || !matches!(bytes[at - 1], b'\\' | b'!'));
        if !opens {
            at += 1;
            continue;
        }
        match closing(bytes, at, b'[', b']') {
            Some(close) if bytes.get(close + 1) == Some(&b'(') => {
                linked += markdown[at + 1..close].chars().filter(|c| c.is_alphanumeric()).count();
                at = closing(bytes, close + 1, b'(', b')').map_or(close + 1, |end| end + 1);
            }
            _ => at += 1,
        }
    }
    linked
}

/// Longest link text or target read, in bytes: past it a bracket is no
/// link's, and a section of unclosed brackets costs a bounded scan per
/// bracket rather than one to its end.
const MAX_LINK_BYTES: usize = 2048;

/// The index of the bracket closing the one at `open` within
/// [`MAX_LINK_BYTES`], brackets escaped with `\\` skipped.
fn closing(bytes: &[u8], open: usize, left: u8, right: u8) -> Option<usize> {
    let mut depth = 0usize;
    let mut at = open;
    let end = bytes.len().min(open.saturating_add(MAX_LINK_BYTES));
    while at < end {
        match bytes[at] {
            b'\\' => at += 1,
            b if b == left => depth += 1,
            b if b == right => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// True for a section whose text is its title at most.
fn is_empty(section: &Section) -> bool {
    section.text[title_lead(&section.text, &section.title)..].trim().is_empty()
}

/// A title without its DocBook numbering (`E.1.2. `, `12.4. `, `Appendix E. `).
fn unnumbered(title: &str) -> &str {
    let t = title.trim();
    let t = ["Appendix ", "附录 ", "附录"].iter().find_map(|p| t.strip_prefix(p)).unwrap_or(t);
    let number_end =
        t.char_indices().find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '.')).map_or(t.len(), |(i, _)| i);
    let head = &t[..number_end];
    let numbered = head.ends_with('.') && head.chars().next().is_some_and(|c| c.is_ascii_alphanumeric());
    if numbered && head.len() <= 16 { t[number_end..].trim_start() } else { t }
}

/// Folders that hold release notes page by page (Python's `whatsnew/3.7`).
const RELEASE_NOTES_FOLDERS: &[&str] = &[
    "whatsnew",
    "whats-new",
    "what-s-new",
    "release",
    "releases",
    "release-notes",
    "releasenotes",
    "changelog",
    "changelogs",
];

/// Release notes, changelogs, "what's new" pages and guides from one
/// version to the next: by the page's file name, its folder or its title,
/// in English or Chinese.
fn is_release_notes(page: &Page) -> bool {
    let mut parts = page.path.rsplit('/');
    let name = parts.next().unwrap_or("").to_ascii_lowercase();
    if parts.any(|folder| RELEASE_NOTES_FOLDERS.contains(&folder.to_ascii_lowercase().as_str())) {
        return true;
    }
    // `release-18-6`, `release_notes`, not `release_postfix`.
    let release_n = ["release-", "release_"].iter().filter_map(|p| name.strip_prefix(p)).any(|rest| {
        let version = rest.strip_prefix('v').unwrap_or(rest);
        version.starts_with(|c: char| c.is_ascii_digit())
            || rest.starts_with("note")
            || rest.starts_with("history")
    });
    let by_name = release_n
        || [
            "releases",
            "releasenotes",
            "changelog",
            "changes",
            "whats-new",
            "what-s-new",
            "new-features",
            "new_features",
            "news",
            // Guides from one major version to the next walk every change.
            "migration-guide",
            "migrating-to",
            "upgrade-guide",
        ]
        .iter()
        .any(|p| name.starts_with(p))
        || name == "release"
        || name == "history"
        // Perl's `perl5360delta`: what changed in 5.36.0.
        || name.strip_suffix("delta").is_some_and(|n| n.ends_with(|c: char| c.is_ascii_digit()));
    if by_name {
        return true;
    }
    // Typeset apostrophes (`What’s New In Python 3.7`) count as plain ones.
    let title = unnumbered(&page.title).to_lowercase().replace(['\u{2019}', '\u{2018}'], "'");
    let release_title = ["release ", "发布 ", "版本 "]
        .iter()
        .any(|p| title.strip_prefix(p).is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit())));
    let between_versions = ["migration guide", "upgrade guide", "迁移指南", "new features in "]
        .iter()
        .any(|g| title.contains(g));
    // Named so anywhere in the title: `CMake 3.8 Release Notes`.
    let named = [
        "release notes",
        "changelog",
        "change log",
        "发行说明",
        "版本说明",
        "发布说明",
        "更新日志",
        "变更日志",
    ]
    .iter()
    .any(|p| title.contains(p));
    release_title
        || between_versions
        || named
        || ["what's new", "whats new"].iter().any(|p| title.starts_with(p))
        // `perl5360delta - what is new for perl v5.36.0`.
        || ["what's new for ", "what is new for ", "what is new in "].iter().any(|p| title.contains(p))
}

/// A reference page's closing parts that name the page's subject without
/// defining it.
fn is_trailer(title: &str) -> bool {
    let t = unnumbered(title).to_lowercase();
    ["compatibility", "see also", "兼容性", "另请参阅", "另见", "参见"].contains(&t.as_str())
}

/// A title naming a license (`GNU GENERAL PUBLIC LICENSE`, `GNU Free
/// Documentation License`, `The MIT License`), or one that is only
/// `License`, `Copying`, `Legal Notice` or their like, numbered or not; not
/// a file's name written in lower case (`copyright`, the file a Debian
/// package's guide explains).
fn names_license(title: &str) -> bool {
    const NAMING: &[&str] = &[
        "public license",
        "documentation license",
        "mit license",
        "apache license",
        "bsd license",
        "isc license",
        "license agreement",
        "licence agreement",
        "许可证",
        "许可协议",
        "授权协议",
        "ライセンス",
    ];
    const ALONE: &[&str] = &[
        "license",
        "licence",
        "licenses",
        "licensing",
        "copying",
        "copyright",
        "copyright notice",
        "legal notice",
        "legal notices",
        "版权",
        "版权声明",
        "法律声明",
    ];
    let written = unnumbered(title).trim();
    let t = written.to_lowercase();
    NAMING.iter().any(|n| t.contains(n))
        || (ALONE.contains(&t.as_str()) && !written.starts_with(|c: char| c.is_ascii_lowercase()))
}

/// A title of a license's terms (`TERMS AND CONDITIONS`, `END OF TERMS AND
/// CONDITIONS`, `Copying Conditions`).
fn is_license_terms(title: &str) -> bool {
    let t = title.to_lowercase();
    t.contains("terms and conditions") || t.contains("copying conditions")
}

/// An appendix page: titled so, or numbered with a letter (`B.6.`).
fn is_appendix(title: &str) -> bool {
    let t = title.trim();
    if t.starts_with("Appendix ") || t.starts_with("附录") {
        return true;
    }
    let mut chars = t.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.next() == Some('.')
        && chars.next().is_some_and(|c| c.is_ascii_digit())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A page with no sections or symbols (other tests of the crate use it too).
    pub(crate) fn page(path: &str, title: &str) -> Page {
        Page {
            path: path.into(),
            source_file: "x.html".into(),
            title: title.into(),
            description: None,
            order: None,
            draft: false,
            frontmatter: None,
            markdown: String::new(),
            text: String::new(),
            sections: Vec::new(),
            symbols: Vec::new(),
            listing: false,
            nav: Default::default(),
        }
    }

    fn section(anchor: Option<&str>, title: &str) -> Section {
        Section {
            anchor: anchor.map(str::to_owned),
            title: title.into(),
            level: 2,
            breadcrumb: Vec::new(),
            markdown: String::new(),
            text: format!("{title}\nWhat it says."),
        }
    }

    #[test]
    fn a_summary_sending_the_reader_elsewhere_weighs_less() {
        let chars = page("/rust/iter/struct.Chars", "Struct std::str::Chars");
        let mut copy = section(Some("method.collect"), "fn collect<B>(self) -> B");
        copy.markdown = "Transforms an iterator into a collection. [Read more](/rust/iter/trait.Iterator#method.collect)\n".into();
        assert_eq!(section_weight(&chars, &copy), SUMMARY_WEIGHT);
        let mut own = section(Some("method.as_str"), "pub fn as_str(&self) -> &str");
        own.markdown =
            "Views the underlying data. See [Read more](#method.next) and [the guide](/rust/guide).\n".into();
        assert_eq!(section_weight(&chars, &own), FULL_WEIGHT);
        own.markdown = "Views the underlying data. [Read more](#method.next)\n".into();
        assert_eq!(section_weight(&chars, &own), FULL_WEIGHT);
        // Members a type inherits, each under the heading that says so.
        let gtk = page("/gtk/class.Button", "Gtk.Button");
        let mut member = section(Some("can-focus"), "Gtk.Widget:can-focus");
        member.breadcrumb = vec!["Gtk.Button".into(), "Properties inherited from GtkWidget (34)".into()];
        assert_eq!(section_weight(&gtk, &member), SUMMARY_WEIGHT);
        let deref = section(Some("deref-methods-str"), "Methods from Deref<Target = str>");
        assert_eq!(section_weight(&chars, &deref), SUMMARY_WEIGHT);
        let own = section(Some("inheritance"), "Inheritance");
        assert_eq!(section_weight(&gtk, &own), FULL_WEIGHT);
    }

    #[test]
    fn a_license_text_weighs_less_but_not_its_heading() {
        let lead = section(None, "t");
        for (path, title, want) in [
            ("/octave/Copying", "Appendix G GNU GENERAL PUBLIC LICENSE", LICENSE_WEIGHT),
            ("/gettext/GNU-FDL", "C.2 GNU Free Documentation License", LICENSE_WEIGHT),
            ("/pg/legalnotice", "Legal Notice", LICENSE_WEIGHT),
            ("/zh/pg/legalnotice", "版权声明", LICENSE_WEIGHT),
            ("/app/docs/license", "License", LICENSE_WEIGHT),
            ("/app/docs/licensing", "Licensing", LICENSE_WEIGHT),
            ("/lib/LICENSE", "The MIT License", LICENSE_WEIGHT),
            ("/lib/NOTICE", "Apache License, Version 2.0", LICENSE_WEIGHT),
            ("/lib/license-check", "license-checker: list the licenses of dependencies", FULL_WEIGHT),
            ("/app/docs/copy", "Copying Files", FULL_WEIGHT),
            ("/debian/maint-guide/dreq", "4.2. copyright", FULL_WEIGHT),
        ] {
            assert_eq!(section_weight(&page(path, title), &lead), want, "{path} {title}");
        }
        // The sections of a license a manual reprints as a section.
        let mut manual = page("/octave/Copying", "Copying (GNU Octave (version 7.3.0))");
        let mut terms = section(Some("TERMS-AND-CONDITIONS"), "TERMS AND CONDITIONS");
        let mut heading = section(Some("Copying"), "Appendix G GNU GENERAL PUBLIC LICENSE");
        heading.breadcrumb = vec![manual.title.clone()];
        manual.sections = vec![heading.clone(), terms.clone()];
        assert_eq!(section_weight(&manual, &terms), LICENSE_WEIGHT);
        // Its heading, with the text in the sections after it, is what a
        // query naming it asks for; a license that is one section is text.
        assert_eq!(section_weight(&manual, &heading), APPENDIX_WEIGHT);
        let mut mit = page("/lib/LICENSE", "LICENSE");
        mit.sections = vec![section(None, "The MIT License")];
        assert_eq!(section_weight(&mit, &mit.sections[0]), LICENSE_WEIGHT);
        terms.title = "How to Apply These Terms to Your New Programs".into();
        terms.breadcrumb = vec![manual.title.clone(), "Appendix G GNU GENERAL PUBLIC LICENSE".into()];
        assert_eq!(section_weight(&manual, &terms), LICENSE_WEIGHT);
    }

    #[test]
    fn weights_by_what_the_page_is() {
        let lead = section(None, "t");
        for (path, title, want) in [
            ("/pg/release-18-6", "E.1. Release 18.6", RELEASE_NOTES_WEIGHT),
            ("/zh/pg/release-18", "E.4. 发布 18", RELEASE_NOTES_WEIGHT),
            ("/pg/release", "Appendix E. Release Notes", RELEASE_NOTES_WEIGHT),
            ("/app/docs/changelog", "Changelog", RELEASE_NOTES_WEIGHT),
            ("/app/docs/v2", "What's New in 2.0", RELEASE_NOTES_WEIGHT),
            ("/py/whatsnew/3.7", "What\u{2019}s New In Python 3.7", RELEASE_NOTES_WEIGHT),
            ("/py/whatsnew/2.0", "Python 2.0", RELEASE_NOTES_WEIGHT),
            ("/app/docs/v3", "What\u{2019}s new in 3.0", RELEASE_NOTES_WEIGHT),
            ("/py/library/asyncio-task", "Coroutines and Tasks", FULL_WEIGHT),
            ("/cmake/release/3.8", "CMake 3.8 Release Notes", RELEASE_NOTES_WEIGHT),
            ("/app/releases/v2", "Version 2", RELEASE_NOTES_WEIGHT),
            ("/app/docs/2-1", "Widget 2.1 Release Notes", RELEASE_NOTES_WEIGHT),
            ("/zh/app/docs/2-1", "Widget 2.1 发行说明", RELEASE_NOTES_WEIGHT),
            ("/app/docs/release", "Release", RELEASE_NOTES_WEIGHT),
            ("/cmake/prop_tgt/release_postfix", "RELEASE_POSTFIX", FULL_WEIGHT),
            ("/app/docs/release-v2-1", "Two", RELEASE_NOTES_WEIGHT),
            ("/perl/perl5360delta", "perl5360delta - what is new for perl v5.36.0", RELEASE_NOTES_WEIGHT),
            ("/perl/perldelta", "perldelta - what is new for perl v5.36.0", RELEASE_NOTES_WEIGHT),
            ("/perl/perlfunc", "perlfunc - Perl builtin functions", FULL_WEIGHT),
            ("/app/docs/delta", "Delta", FULL_WEIGHT),
            ("/app/docs/release_notes", "Notes", RELEASE_NOTES_WEIGHT),
            ("/fastify/Guides/Migration-Guide-V3", "V3 Migration Guide", RELEASE_NOTES_WEIGHT),
            ("/app/docs/moving-on", "Upgrade Guide for 2.x", RELEASE_NOTES_WEIGHT),
            ("/app/docs/v5", "The V5 Migration Guide", RELEASE_NOTES_WEIGHT),
            ("/httpd/new_features_2_4", "Visão geral das novas funcionalidades", RELEASE_NOTES_WEIGHT),
            ("/httpd/2.2", "Overview of new features in Apache HTTP Server 2.2", RELEASE_NOTES_WEIGHT),
            ("/app/docs/features", "Features", FULL_WEIGHT),
            ("/pg/upgrading", "18.6. Upgrading a PostgreSQL Cluster", FULL_WEIGHT),
            ("/pg/sql-release-savepoint", "RELEASE SAVEPOINT", FULL_WEIGHT),
            ("/pg/errcodes-appendix", "Appendix A. PostgreSQL Error Codes", APPENDIX_WEIGHT),
            ("/pg/datetime-units-history", "B.6. History of Units", APPENDIX_WEIGHT),
            ("/zh/pg/glossary", "附录 M. 术语表", APPENDIX_WEIGHT),
            ("/pg/sql-createindex", "CREATE INDEX", FULL_WEIGHT),
            ("/pg/indexes-types", "11.2. Index Types", FULL_WEIGHT),
        ] {
            assert_eq!(section_weight(&page(path, title), &lead), want, "{path} {title}");
        }
        let p = page("/pg/sql-createindex", "CREATE INDEX");
        assert_eq!(section_weight(&p, &section(Some("a"), "Compatibility")), TRAILER_WEIGHT);
        assert_eq!(section_weight(&p, &section(Some("b"), "另请参阅")), TRAILER_WEIGHT);
        assert_eq!(section_weight(&p, &section(Some("c"), "Description")), FULL_WEIGHT);
        // A part of a trailer is one; a page titled like a trailer is not.
        let mut part = section(Some("d"), "Zero-Column Tables");
        part.breadcrumb = vec!["CREATE INDEX".into(), "Compatibility".into()];
        assert_eq!(section_weight(&p, &part), TRAILER_WEIGHT);
        part.breadcrumb = vec!["CREATE INDEX".into(), "Examples".into()];
        assert_eq!(section_weight(&p, &part), FULL_WEIGHT);
        part.breadcrumb = vec!["Compatibility".into()];
        assert_eq!(section_weight(&p, &part), FULL_WEIGHT);
        // A heading with nothing under it but its subsections.
        let mut empty = section(Some("e"), "Sequences (Tuples/Lists)");
        empty.text = "Sequences (Tuples/Lists)\n ".into();
        assert_eq!(section_weight(&p, &empty), EMPTY_WEIGHT);
        empty.text = "Sequences (Tuples/Lists) are ordered.".into();
        assert_eq!(section_weight(&p, &empty), FULL_WEIGHT);
        empty.text = String::new();
        assert_eq!(section_weight(&p, &empty), EMPTY_WEIGHT);
        assert_eq!(section_weight(&p, &Section { anchor: None, ..empty }), FULL_WEIGHT);
        // A one-page manual's appendices and printed index are sections.
        let manual = page("/bash/bashref", "Bash Reference Manual");
        let mut appendix = section(Some("b"), "Appendix B Major Differences From The Bourne Shell");
        assert_eq!(section_weight(&manual, &appendix), APPENDIX_WEIGHT);
        appendix.title = "B.1 Implementation Differences From The SVR4.2 Shell".into();
        assert_eq!(section_weight(&manual, &appendix), APPENDIX_WEIGHT);
        appendix.title = "Differences".into();
        appendix.breadcrumb = vec![manual.title.clone(), "Appendix B Major Differences".into()];
        assert_eq!(section_weight(&manual, &appendix), APPENDIX_WEIGHT);
        appendix.breadcrumb = vec![manual.title.clone(), "4 Shell Builtin Commands".into()];
        assert_eq!(section_weight(&manual, &appendix), FULL_WEIGHT);
        let mut index = section(Some("i"), "D.1 Index of Shell Builtin Commands");
        let rows = "| [alias](/bash/bashref#index-alias): | [Bash Builtins](/bash/bashref#Bash-Builtins) |\n";
        index.markdown = format!(
            "#### D.1 Index of Shell Builtin Commands\n\n| Index Entry | Section |\n{}",
            rows.repeat(120)
        );
        index.text = format!(
            "D.1 Index of Shell Builtin Commands\nIndex Entry Section\n{}",
            "alias: Bash Builtins\n".repeat(120)
        );
        assert!(is_listing(section_weight(&manual, &index)));
        // The same entries with a sentence each are text that links.
        index.text.push_str(&"Defines an alias for a command. ".repeat(80));
        assert_eq!(section_weight(&manual, &index), APPENDIX_WEIGHT);
        // A short list of links is a chapter's contents.
        index.markdown = format!("# Contents\n{}", rows.repeat(10));
        index.text = "alias: Bash Builtins\n".repeat(10);
        index.title = "Contents".into();
        assert_eq!(section_weight(&manual, &index), FULL_WEIGHT);
        assert_eq!(link_text_chars("[**\\[**](/a#b) ![image](x.png) \\[not](a link) [a](b)"), 1);
        // Unclosed brackets and targets are no links (each costs a scan of
        // at most `MAX_LINK_BYTES`).
        assert_eq!(link_text_chars(&"[".repeat(64 * 1024)), 0);
        assert_eq!(link_text_chars(&format!("[a]({}", "(".repeat(64 * 1024))), 1);
        let mut listing = page("/pg/bookindex", "Index");
        listing.listing = true;
        assert!(is_listing(section_weight(&listing, &lead)));
        assert!(!is_listing(RELEASE_NOTES_WEIGHT));
    }
}
