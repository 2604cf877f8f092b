//! `requests`: the search benchmark's 720 queries as local-API request paths,
//! for load generators (`scripts/bench-api`). Each query is asked in its own
//! locale, in the other one and in every locale (`*`), over every version:
//! 2,160 distinct requests. They are printed in a fixed shuffled order, so a
//! load generator that makes the first lines the most popular (a Zipf draw
//! by line number) mixes terms and questions of both languages at every rank.

use std::io::Write;
use std::path::Path;

use crate::speed::query_set;

const LOCALES: [&str; 3] = ["en", "zh-Hans", "*"];

pub fn run(corpora: &Path) -> anyhow::Result<()> {
    let mut paths: Vec<String> = Vec::new();
    for query in query_set(corpora)? {
        for locale in LOCALES {
            paths.push(format!(
                "/v1/search?text={}&locale={}&version=*",
                encode(&query.text),
                encode(locale)
            ));
        }
    }
    shuffle(&mut paths, 0x1ec7e2);
    let mut out = std::io::stdout().lock();
    for path in &paths {
        writeln!(out, "{path}")?;
    }
    Ok(())
}

/// Percent-encodes everything but RFC 3986's unreserved characters.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The next number of splitmix64 from `state`: the same sequence on every machine.
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Fisher-Yates with splitmix64: the same order on every machine.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed;
    for i in (1..items.len()).rev() {
        let j = (splitmix64(&mut state) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_chinese_spaces_and_reserved_characters() {
        assert_eq!(encode("创建 a&b=c*"), "%E5%88%9B%E5%BB%BA%20a%26b%3Dc%2A");
        assert_eq!(encode("work_mem-1.5~"), "work_mem-1.5~");
    }

    #[test]
    fn shuffles_the_same_way_every_time() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<u32>>());
        a.sort_unstable();
        assert_eq!(a, (0..50).collect::<Vec<u32>>());
    }
}
