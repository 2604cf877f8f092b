//! Page titles across an edition: the site name a generator appends to every
//! `<title>` (" — Python 3.11.2 documentation", " - Git", " | Site",
//! javadoc's " (argparse4j 0.4.4 API)") removed.

use std::collections::HashMap;

use crate::page::Page;

/// Separators a generator puts between a page's own title and the site's name.
const SEPARATORS: [&str; 4] = [" — ", " – ", " | ", " - "];

/// The trailing segment of `title` after its last separator, when it has one
/// and something is left before it: `(kept, suffix)`. A title that ends in
/// a parenthesis (`ArrayList (Java Platform SE 8 )`, `Zle Widgets (zsh)`)
/// has that as its suffix, parentheses and all.
pub(crate) fn split_suffix(title: &str) -> Option<(&str, &str)> {
    if let Some(split) = parenthesized_suffix(title) {
        return Some(split);
    }
    SEPARATORS
        .iter()
        .filter_map(|sep| title.rfind(sep).map(|at| (at, sep.len())))
        .max_by_key(|(at, _)| *at)
        .map(|(at, len)| (title[..at].trim_end(), title[at + len..].trim()))
        .filter(|(kept, suffix)| !kept.is_empty() && !suffix.is_empty())
}

fn parenthesized_suffix(title: &str) -> Option<(&str, &str)> {
    let title = title.trim_end();
    if !title.ends_with(')') {
        return None;
    }
    let open = title.rfind(" (")?;
    let suffix = &title[open + 1..];
    let kept = title[..open].trim_end();
    let inner = &suffix[1..suffix.len() - 1];
    (!kept.is_empty() && !inner.trim().is_empty() && !inner.contains(['(', ')'])).then_some((kept, suffix))
}

/// A parenthesis of one word (`(zsh)`, texi2any's manual name): the site's
/// name only where it ends most titles, not the `(deprecated)` of a few.
fn one_word_parenthesis(suffix: &str) -> bool {
    suffix.starts_with('(') && !suffix.trim().contains(' ')
}

/// The key of [`suffix_counts`] that holds how many titles were counted
/// (no suffix is empty).
const TITLES_COUNTED: &str = "";

/// Removes a trailing title segment that repeats on two pages or more of the
/// edition: one page's "A - B" may be its own title, the same " - B" on many
/// is the site's name. The lead section's title and the breadcrumbs follow.
pub fn strip_site_suffixes(pages: &mut [Page]) {
    let counts = suffix_counts(pages.iter().map(|p| p.title.as_str()));
    for page in pages.iter_mut() {
        strip_site_suffix(page, &counts);
    }
}

/// How many of the edition's titles end in each trailing segment, for
/// [`strip_site_suffix`]; only titles are needed, so a source read page by
/// page counts them before any page is kept.
pub fn suffix_counts<'a>(titles: impl Iterator<Item = &'a str>) -> HashMap<String, usize> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut total = 0;
    for title in titles {
        total += 1;
        if let Some((_, suffix)) = split_suffix(title) {
            *counts.entry(suffix.to_owned()).or_default() += 1;
        }
    }
    counts.insert(TITLES_COUNTED.to_owned(), total);
    counts
}

/// The leading segment of a `<title>` before its first `": "` (Doxygen's
/// "Frob: Frob::Table Class Reference"): `(prefix, kept)`.
pub(crate) fn split_prefix(title: &str) -> Option<(&str, &str)> {
    let (prefix, kept) = title.split_once(": ")?;
    (!prefix.trim().is_empty() && !kept.trim().is_empty()).then(|| (prefix.trim(), kept.trim()))
}

/// A title without a project name that leads it on most titles: at least
/// three, and half of those counted in `counts` (`total` titles).
pub fn without_site_prefix<'a>(title: &'a str, counts: &HashMap<String, usize>, total: usize) -> &'a str {
    match split_prefix(title) {
        Some((prefix, kept)) if counts.get(prefix).is_some_and(|&n| n >= 3 && n * 2 >= total) => kept,
        _ => title,
    }
}

/// A title without the site's name, given the edition's [`suffix_counts`].
pub fn stripped_title<'a>(title: &'a str, counts: &HashMap<String, usize>) -> &'a str {
    let Some((kept, suffix)) = split_suffix(title) else { return title };
    let n = counts.get(suffix).copied().unwrap_or(0);
    let total = counts.get(TITLES_COUNTED).copied().unwrap_or(0);
    let site_name = if one_word_parenthesis(suffix) { n >= 3 && n * 2 >= total } else { n >= 2 };
    if site_name { kept } else { title }
}

/// [`strip_site_suffixes`] for one page, given the edition's [`suffix_counts`].
pub fn strip_site_suffix(page: &mut Page, counts: &HashMap<String, usize>) {
    let kept = stripped_title(&page.title, counts);
    if kept.len() == page.title.len() {
        return;
    }
    let kept = kept.to_owned();
    retitle(page, kept);
}

/// Gives a page another title: its lead section and its breadcrumbs follow.
pub fn retitle(page: &mut Page, new: String) {
    if new == page.title {
        return;
    }
    let old = page.title.clone();
    for section in &mut page.sections {
        if section.anchor.is_none() && section.title == old {
            section.title.clone_from(&new);
        }
        if let Some(first) = section.breadcrumb.first_mut()
            && *first == old
        {
            first.clone_from(&new);
        }
    }
    page.title = new;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::markdown_to_page;

    fn titled(title: &str) -> Page {
        let mut page = markdown_to_page(b"text", "a.md", "/x").unwrap();
        page.title = title.to_owned();
        page.sections[0].title = title.to_owned();
        page
    }

    #[test]
    fn a_repeated_suffix_goes_a_single_one_stays() {
        let mut pages = vec![
            titled("Programming FAQ — Python 3.11.2 documentation"),
            titled("functools — Higher-order functions — Python 3.11.2 documentation"),
            titled("Install - Linux"),
            titled("git-add(1) | Git"),
            titled("Plain"),
            titled("ArgumentParsers (argparse4j 0.4.4 API)"),
            titled("Uses of Class net.sourceforge.argparse4j.ArgumentParsers (argparse4j 0.4.4 API)"),
            titled("Constants (deprecated)"),
            titled("Limits (deprecated)"),
            titled("Lone one (a single page)"),
        ];
        strip_site_suffixes(&mut pages);
        let titles: Vec<&str> = pages.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Programming FAQ",
                "functools — Higher-order functions",
                "Install - Linux",
                "git-add(1) | Git",
                "Plain",
                "ArgumentParsers",
                "Uses of Class net.sourceforge.argparse4j.ArgumentParsers",
                "Constants (deprecated)",
                "Limits (deprecated)",
                "Lone one (a single page)",
            ]
        );
        assert_eq!(pages[0].sections[0].title, "Programming FAQ");
    }

    #[test]
    fn a_one_word_parenthesis_goes_only_where_it_ends_most_titles() {
        let mut pages: Vec<Page> =
            ["Zle Widgets (zsh)", "Options (zsh)", "Expansion (zsh)", "Jobs (zsh)", "Limits (deprecated)"]
                .map(titled)
                .into();
        pages.push(titled("Constants (deprecated)"));
        strip_site_suffixes(&mut pages);
        let titles: Vec<&str> = pages.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(
            titles,
            ["Zle Widgets", "Options", "Expansion", "Jobs", "Limits (deprecated)", "Constants (deprecated)"]
        );
    }
}
