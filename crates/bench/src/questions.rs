//! Natural-language questions written for this benchmark (`data/*.tsv`):
//! `question<TAB>page[|page...]`, pages relative to the edition prefix, each
//! checked by hand against the manual's text.

use crate::score::{Target, normal_page};

const EN: &str = include_str!("../data/questions-en.tsv");
const ZH_HANS: &str = include_str!("../data/questions-zh-Hans.tsv");

#[derive(Debug, Clone)]
pub struct Question {
    pub text: String,
    pub targets: Vec<Target>,
}

/// The questions for `locale` (`en` or `zh-Hans`).
pub fn load(locale: &str) -> Vec<Question> {
    let raw = if locale == "en" { EN } else { ZH_HANS };
    raw.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (q, pages) = l.split_once('\t')?;
            let targets =
                pages.split('|').map(|p| Target { page: normal_page(p.trim()), anchor: None }).collect();
            Some(Question { text: q.trim().to_owned(), targets })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_language_has_at_least_thirty_questions() {
        for locale in ["en", "zh-Hans"] {
            let qs = super::load(locale);
            assert!(qs.len() >= 30, "{locale}: {}", qs.len());
            assert!(qs.iter().all(|q| !q.targets.is_empty() && !q.targets[0].page.is_empty()));
        }
    }
}
