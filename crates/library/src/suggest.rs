//! "Did you mean" suggestions: the nearest candidate by edit distance.

/// The closest candidate by edit distance, if close enough to suggest.
pub fn did_you_mean<'a>(input: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let input_l = input.to_lowercase();
    candidates
        .map(|c| (levenshtein(&input_l, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= (c.chars().count() / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

pub(crate) fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_pick_the_nearest_edition() {
        let ids = ["postgresql@18/zh-Hans", "postgresql@18/en", "click@latest/en"];
        assert_eq!(did_you_mean("postgresql@18/zh-hant", ids.into_iter()), Some("postgresql@18/zh-Hans"));
        assert_eq!(did_you_mean("nothing-like-it", ids.into_iter()), None);
    }
}
