//! Natural-language questions written for this benchmark (`data/*.tsv`):
//! `question<TAB>page[|page...]`, pages relative to the edition prefix, each
//! checked by hand against the manual's text. Four sets per language: the
//! first (`load`) and a second written later (`load_more`), kept apart so
//! that ranking tuned on one set can be judged on the other, a third
//! (`load_blind`) written in a user's words, and a fourth (`load_fourth`)
//! of tasks asked with everyday verbs (see, show, change, set), each written
//! before the engine ran on it.

use crate::score::{Target, normal_page};

const EN: &str = include_str!("../data/questions-en.tsv");
const ZH_HANS: &str = include_str!("../data/questions-zh-Hans.tsv");
const MORE_EN: &str = include_str!("../data/questions-more-en.tsv");
const MORE_ZH_HANS: &str = include_str!("../data/questions-more-zh-Hans.tsv");
const BLIND_EN: &str = include_str!("../data/questions-blind-en.tsv");
const BLIND_ZH_HANS: &str = include_str!("../data/questions-blind-zh-Hans.tsv");
const FOURTH_EN: &str = include_str!("../data/questions-fourth-en.tsv");
const FOURTH_ZH_HANS: &str = include_str!("../data/questions-fourth-zh-Hans.tsv");

#[derive(Debug, Clone)]
pub struct Question {
    pub text: String,
    pub targets: Vec<Target>,
}

/// The first set of questions for `locale` (`en` or `zh-Hans`).
pub fn load(locale: &str) -> Vec<Question> {
    parse(if locale == "en" { EN } else { ZH_HANS })
}

/// The second set of questions for `locale` (`en` or `zh-Hans`).
pub fn load_more(locale: &str) -> Vec<Question> {
    parse(if locale == "en" { MORE_EN } else { MORE_ZH_HANS })
}

/// The third set of questions for `locale` (`en` or `zh-Hans`).
pub fn load_blind(locale: &str) -> Vec<Question> {
    parse(if locale == "en" { BLIND_EN } else { BLIND_ZH_HANS })
}

/// The fourth set of questions for `locale` (`en` or `zh-Hans`).
pub fn load_fourth(locale: &str) -> Vec<Question> {
    parse(if locale == "en" { FOURTH_EN } else { FOURTH_ZH_HANS })
}

fn parse(raw: &str) -> Vec<Question> {
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
    use std::collections::HashSet;

    #[test]
    fn every_language_has_at_least_thirty_questions() {
        for locale in ["en", "zh-Hans"] {
            let qs = super::load(locale);
            assert!(qs.len() >= 30, "{locale}: {}", qs.len());
            assert!(qs.iter().all(|q| !q.targets.is_empty() && !q.targets[0].page.is_empty()));
        }
    }

    #[test]
    fn the_second_set_has_forty_questions_per_language_none_from_the_first() {
        for locale in ["en", "zh-Hans"] {
            let more = super::load_more(locale);
            assert_eq!(more.len(), 40, "{locale}");
            assert!(
                more.iter().all(|q| !q.targets.is_empty() && q.targets.iter().all(|t| !t.page.is_empty()))
            );
            let first: HashSet<String> = super::load(locale).into_iter().map(|q| q.text).collect();
            let texts: HashSet<&str> = more.iter().map(|q| q.text.as_str()).collect();
            assert_eq!(texts.len(), more.len(), "{locale}: a question repeats");
            assert!(more.iter().all(|q| !first.contains(&q.text)), "{locale}: a question of the first set");
        }
    }

    #[test]
    fn the_third_and_fourth_sets_repeat_no_question_of_the_others() {
        for locale in ["en", "zh-Hans"] {
            let first_two = || super::load(locale).into_iter().chain(super::load_more(locale));
            let third = super::load_blind(locale);
            let fourth = super::load_fourth(locale);
            let before_third: HashSet<String> = first_two().map(|q| q.text).collect();
            let before_fourth: HashSet<String> = first_two().chain(third.clone()).map(|q| q.text).collect();
            for (set, at_least, others) in [(&third, 25, before_third), (&fourth, 20, before_fourth)] {
                assert!(set.len() >= at_least, "{locale}: {}", set.len());
                assert!(
                    set.iter().all(|q| !q.targets.is_empty() && q.targets.iter().all(|t| !t.page.is_empty()))
                );
                let texts: HashSet<&str> = set.iter().map(|q| q.text.as_str()).collect();
                assert_eq!(texts.len(), set.len(), "{locale}: a question repeats");
                assert!(set.iter().all(|q| !others.contains(&q.text)), "{locale}: a question of another set");
            }
        }
    }
}
