//! The id every heading of a page's Markdown carries, given the way GitHub,
//! Docusaurus and mdBook give it, so the `#fragment`s authors wrote against
//! those sites land: every heading counts (the `# title`, headings in lists
//! and quotes), in document order, a repeated slug takes `-1`, `-2`, ..., and
//! an explicit `{#id}` wins.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::text::{Slugger, nfc};

/// One heading as its id sees it.
struct Heading {
    /// Cuts a section (level 2 or deeper, outside quotes, lists and footnotes).
    cut: bool,
    /// Its explicit `{#id}`.
    id: Option<String>,
    /// Its text as the generators slug it: text and code, no markup.
    text: String,
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

fn headings(markdown: &str) -> Vec<Heading> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut open: Option<Heading> = None;
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::BlockQuote(_) | Tag::List(_) | Tag::FootnoteDefinition(_)) => depth += 1,
            Event::End(TagEnd::BlockQuote(_) | TagEnd::List(_) | TagEnd::FootnoteDefinition) => {
                depth = depth.saturating_sub(1);
            }
            Event::Start(Tag::Heading { level, id, .. }) => {
                let cut = depth == 0 && level != HeadingLevel::H1;
                open = Some(Heading { cut, id: id.map(|i| i.to_string()), text: String::new() });
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = open.as_mut() {
                    h.text.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(h) = open.as_mut() {
                    h.text.push(' ');
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(mut h) = open.take() {
                    h.text = nfc(&h.text);
                    out.push(h);
                }
            }
            _ => {}
        }
    }
    out
}

/// The id of every heading of `markdown`, in document order. `sections` are
/// the page's stored section anchors (the lead's `None` included or not):
/// section headings keep those, so ids search results link to stay put, and
/// the other headings are slugged around them. With no stored anchors every
/// id is the generator's.
pub fn heading_ids(markdown: &str, sections: &[Option<String>]) -> Vec<String> {
    assign(&headings(markdown), sections)
}

/// The ids of the section headings (see [`heading_ids`]) of a page's
/// Markdown, as its sections are first made.
pub fn section_ids(markdown: &str) -> Vec<String> {
    let headings = headings(markdown);
    let ids = assign(&headings, &[]);
    ids.into_iter().zip(&headings).filter(|(_, h)| h.cut).map(|(id, _)| id).collect()
}

fn assign(headings: &[Heading], sections: &[Option<String>]) -> Vec<String> {
    // The lead section has no heading; the others follow the cuts in order.
    let lead = usize::from(sections.first().is_some_and(Option::is_none));
    let mut stored = sections.iter().skip(lead);
    let mut slugger = Slugger::default();
    for anchor in headings.iter().filter_map(|h| h.id.as_ref()).chain(stored.clone().flatten()) {
        slugger.reserve(anchor);
    }
    headings
        .iter()
        .map(|h| {
            let kept = if h.cut { stored.next().and_then(Option::as_ref) } else { None };
            match (&h.id, kept) {
                (Some(id), _) => id.clone(),
                (None, Some(kept)) => kept.clone(),
                (None, None) => slugger.slug(&h.text),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_heading_counts_in_document_order() {
        let md = "# Plugins\n\n## Plugins\n\n- ## Plugins\n\n## `fastify.get(path)` and [links](x.md)\n\n\
                  ## Own {#own-id}\n\n## Plugins\n\n## The hitchhiker's   guide\n";
        assert_eq!(
            heading_ids(md, &[]),
            [
                "plugins",
                "plugins-1",
                "plugins-2",
                "fastifygetpath-and-links",
                "own-id",
                "plugins-3",
                "the-hitchhikers---guide"
            ]
        );
        assert_eq!(
            section_ids(md),
            ["plugins-1", "fastifygetpath-and-links", "own-id", "plugins-3", "the-hitchhikers---guide"]
        );
    }

    #[test]
    fn stored_section_anchors_stay_and_the_rest_avoid_them() {
        let md = "# Intro\n\n## Intro\n\n> ### Intro\n\n## Next\n";
        let stored = [None, Some("intro".to_owned()), Some("next-old".to_owned())];
        assert_eq!(heading_ids(md, &stored), ["intro-1", "intro", "intro-2", "next-old"]);
    }
}
