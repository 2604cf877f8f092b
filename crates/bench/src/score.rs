//! Scoring ranked results against ground truth: hit@1, hit@k and MRR@10, at
//! page level (the right page) and section level (the right page and, when
//! the target names an anchor, the section with that anchor).

/// A page (relative to the edition prefix, no extension) and maybe an anchor.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Target {
    pub page: String,
    pub anchor: Option<String>,
}

impl Target {
    /// `sql-createindex.html#SQL-CREATEINDEX-CONCURRENTLY` → target.
    pub fn from_href(href: &str) -> Option<Target> {
        let (file, anchor) = match href.split_once('#') {
            Some((f, a)) => (f, Some(a.to_owned()).filter(|a| !a.is_empty())),
            None => (href, None),
        };
        let page = file.strip_suffix(".html").or_else(|| file.strip_suffix(".htm"))?;
        if page.is_empty() || page.contains("://") {
            return None;
        }
        Some(Target { page: normal_page(page), anchor })
    }
}

/// `index` and the empty path are the same page (the edition's root).
pub fn normal_page(page: &str) -> String {
    let p = page.trim_matches('/');
    if p == "index" { String::new() } else { p.to_owned() }
}

/// A result reduced to what scoring needs.
#[derive(Debug, Clone)]
pub struct Found {
    /// Page relative to the edition prefix.
    pub page: String,
    pub anchor: Option<String>,
}

/// The page of a full site path under `prefix`.
pub fn relative(path: &str, prefix: &str) -> String {
    let prefix = prefix.trim_end_matches('/');
    let rest = path.strip_prefix(prefix).unwrap_or(path);
    normal_page(rest.split('#').next().unwrap_or(""))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Page,
    Section,
}

pub fn matches(found: &Found, target: &Target, level: Level) -> bool {
    if found.page != target.page {
        return false;
    }
    match (level, &target.anchor) {
        (Level::Page, _) | (Level::Section, None) => true,
        (Level::Section, Some(want)) => found.anchor.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(want)),
    }
}

/// 1-based rank of the first result matching any target, within the first 10.
pub fn first_rank(results: &[Found], targets: &[Target], level: Level) -> Option<usize> {
    results.iter().take(10).position(|f| targets.iter().any(|t| matches(f, t, level))).map(|i| i + 1)
}

/// Accumulated hit@1, hit@k and MRR@10.
#[derive(Debug, Clone, Default)]
pub struct Metrics {
    pub queries: usize,
    pub hit1: usize,
    pub hitk: usize,
    pub rr: f64,
}

impl Metrics {
    pub fn add(&mut self, rank: Option<usize>, k: usize) {
        self.queries += 1;
        if let Some(r) = rank {
            self.hit1 += usize::from(r == 1);
            self.hitk += usize::from(r <= k);
            self.rr += 1.0 / r as f64;
        }
    }

    /// Adds another's counts (the totals over several sets).
    pub fn merge(&mut self, other: &Metrics) {
        self.queries += other.queries;
        self.hit1 += other.hit1;
        self.hitk += other.hitk;
        self.rr += other.rr;
    }

    fn frac(&self, n: usize) -> f64 {
        if self.queries == 0 { 0.0 } else { n as f64 / self.queries as f64 }
    }

    pub fn hit1(&self) -> f64 {
        self.frac(self.hit1)
    }

    pub fn hitk(&self) -> f64 {
        self.frac(self.hitk)
    }

    pub fn mrr(&self) -> f64 {
        if self.queries == 0 { 0.0 } else { self.rr / self.queries as f64 }
    }

    pub fn json(&self, k: usize) -> serde_json::Value {
        serde_json::json!({
            "queries": self.queries,
            "hit@1": round(self.hit1()),
            format!("hit@{k}"): round(self.hitk()),
            "mrr@10": round(self.mrr()),
        })
    }
}

pub fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hrefs_become_targets() {
        let t = Target::from_href("sql-createindex.html#SQL-CREATEINDEX-CONCURRENTLY").unwrap();
        assert_eq!(t.page, "sql-createindex");
        assert_eq!(t.anchor.as_deref(), Some("SQL-CREATEINDEX-CONCURRENTLY"));
        assert_eq!(Target::from_href("index.html").unwrap().page, "");
        assert_eq!(relative("/postgresql/sql-createindex", "/postgresql"), "sql-createindex");
        assert_eq!(relative("/zh-Hans/postgresql/x", "/zh-Hans/postgresql"), "x");
    }

    #[test]
    fn sections_need_the_anchor_pages_do_not() {
        let t = Target { page: "a".into(), anchor: Some("X".into()) };
        let f = Found { page: "a".into(), anchor: Some("y".into()) };
        assert!(matches(&f, &t, Level::Page));
        assert!(!matches(&f, &t, Level::Section));
        let g = Found { page: "a".into(), anchor: Some("x".into()) };
        assert!(matches(&g, &t, Level::Section));
        let mut m = Metrics::default();
        m.add(Some(2), 3);
        m.add(None, 3);
        assert_eq!((m.hit1, m.hitk), (0, 1));
        assert!((m.mrr() - 0.25).abs() < 1e-9);
    }
}
