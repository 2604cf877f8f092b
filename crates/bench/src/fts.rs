//! The baseline: SQLite FTS5 (bundled) over the very sections the library
//! holds, one table per edition, Chinese pre-split into the same overlapping
//! bigrams (space-separated) so FTS5's word tokenizer can find it, `bm25()`
//! ranking (title weighted 5, body 1) and `snippet()` for the top 20.
//!
//! Querying mirrors Lectern's tiers: every term (AND) first; when that gives
//! fewer than a page, any term (OR) fills the page. Ranks are found first and
//! snippets are made only for the rows returned, as a careful FTS5 user would.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use anyhow::Context;
use lectern_index::SectionRecord;
use lectern_index::text::is_cjk;
use rusqlite::{Connection, params};

/// One FTS5 result.
#[derive(Debug, Clone)]
#[allow(
    dead_code,
    reason = "fetched like Lectern's hits so both engines do the same work; only path and anchor are scored"
)]
pub struct FtsHit {
    pub path: String,
    pub anchor: Option<String>,
    pub title: String,
    pub snippet: String,
    pub score: f64,
}

#[derive(Debug)]
pub struct Fts {
    conn: Connection,
    /// (edition id, table name).
    tables: Vec<(String, String)>,
}

/// Chinese runs become their overlapping bigrams (a lone character stays
/// itself); everything else is left for FTS5's tokenizer.
pub fn presplit(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() * 2);
    let mut i = 0;
    while i < chars.len() {
        if is_cjk(chars[i]) {
            let start = i;
            while i < chars.len() && is_cjk(chars[i]) {
                i += 1;
            }
            out.push(' ');
            if i - start == 1 {
                out.push(chars[start]);
            } else {
                for k in start..i - 1 {
                    out.push(chars[k]);
                    out.push(chars[k + 1]);
                    out.push(' ');
                }
            }
            out.push(' ');
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The query's terms as FTS5 strings (each quoted, so punctuation such as
/// `pg_dump` becomes a phrase of its parts and nothing is read as syntax).
pub fn terms(query: &str) -> Vec<String> {
    presplit(query)
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
        .collect()
}

impl Fts {
    /// Builds an in-memory database; returns it and how long it took.
    pub fn build(
        tokenizer: &str,
        editions: &[(String, Vec<SectionRecord>)],
    ) -> anyhow::Result<(Fts, Duration)> {
        let started = Instant::now();
        let conn = Connection::open_in_memory()?;
        let mut tables = Vec::new();
        for (i, (id, sections)) in editions.iter().enumerate() {
            let table = format!("sections_{i}");
            conn.execute_batch(&format!(
                "CREATE VIRTUAL TABLE {table} USING fts5(path UNINDEXED, anchor UNINDEXED, title, body, tokenize = '{}')",
                tokenizer.replace('\'', "")
            ))
            .context("creating an FTS5 table (is FTS5 compiled into the bundled SQLite?)")?;
            let tx = conn.unchecked_transaction()?;
            {
                let mut insert = tx.prepare(&format!(
                    "INSERT INTO {table}(path, anchor, title, body) VALUES (?1, ?2, ?3, ?4)"
                ))?;
                for s in sections {
                    insert.execute(params![s.page_path, s.anchor, presplit(&s.title), presplit(&s.text)])?;
                }
            }
            tx.commit()?;
            conn.execute_batch(&format!("INSERT INTO {table}({table}) VALUES ('optimize')"))?;
            tables.push((id.clone(), table));
        }
        Ok((Fts { conn, tables }, started.elapsed()))
    }

    /// Top `limit` sections of the given editions with snippets.
    pub fn search(&self, editions: &[&str], query: &str, limit: usize) -> anyhow::Result<Vec<FtsHit>> {
        let terms = terms(query);
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let all = terms.join(" AND ");
        let any = terms.join(" OR ");
        // (score, table, rowid, match expression used)
        let mut ranked: Vec<(f64, usize, i64, &str)> = Vec::new();
        for (t, (id, table)) in self.tables.iter().enumerate() {
            if !editions.contains(&id.as_str()) {
                continue;
            }
            let mut seen = HashSet::new();
            for (tier, expr) in [&all, &any].into_iter().enumerate() {
                let have = seen.len();
                if have >= limit || (tier == 1 && terms.len() == 1) {
                    break;
                }
                let mut stmt = self.conn.prepare_cached(&format!(
                    "SELECT rowid, bm25({table}, 0.0, 0.0, 5.0, 1.0) AS s FROM {table} WHERE {table} MATCH ?1 ORDER BY s LIMIT ?2"
                ))?;
                let rows = stmt.query_map(params![expr, (limit + have) as i64], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, f64>(1)?))
                })?;
                // The AND tier always ranks above the OR tier.
                let offset = if tier == 1 { 1e6 } else { 0.0 };
                for row in rows {
                    let (rowid, score) = row?;
                    if seen.insert(rowid) {
                        ranked.push((score + offset, t, rowid, expr.as_str()));
                    }
                }
            }
        }
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        ranked.truncate(limit);
        let mut hits = Vec::with_capacity(ranked.len());
        for (score, t, rowid, expr) in ranked {
            let table = &self.tables[t].1;
            let mut stmt = self.conn.prepare_cached(&format!(
                "SELECT path, anchor, title, snippet({table}, 3, '[', ']', '…', 16) FROM {table} WHERE {table} MATCH ?1 AND rowid = ?2"
            ))?;
            let hit = stmt.query_row(params![expr, rowid], |r| {
                Ok(FtsHit { path: r.get(0)?, anchor: r.get(1)?, title: r.get(2)?, snippet: r.get(3)?, score })
            })?;
            hits.push(hit);
        }
        Ok(hits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_is_presplit_into_bigrams() {
        assert_eq!(
            presplit("创建索引 CREATE").split_whitespace().collect::<Vec<_>>(),
            ["创建", "建索", "索引", "CREATE"]
        );
        assert_eq!(terms("用 pg_dump"), ["\"用\"", "\"pg_dump\""]);
    }

    #[test]
    fn fts5_is_compiled_in_and_finds_bigrams() {
        let s = |text: &str| SectionRecord {
            key: "k".into(),
            edition: "e".into(),
            page_path: "/p".into(),
            anchor: None,
            title: "t".into(),
            breadcrumb: vec![],
            text: text.into(),
            markdown: None,
        };
        let (fts, _) =
            Fts::build("porter unicode61", &[("e".into(), vec![s("如何创建索引"), s("other words")])])
                .unwrap();
        let hits = fts.search(&["e"], "创建索引", 20).unwrap();
        assert_eq!(hits.len(), 1);
        assert_eq!(fts.search(&["e"], "other", 20).unwrap().len(), 1, "a one-word query");
        assert_eq!(fts.search(&["e"], "other nothing", 20).unwrap().len(), 1, "the OR tier fills in");
        assert!(hits[0].snippet.contains('['), "{}", hits[0].snippet);
    }
}
