//! `trees`: search quality on real documentation trees that no ranking was
//! tuned on (Debian's doc packages, which `scripts/test` fetches into
//! `target/test-deps`), with questions written before the engine ran on
//! them (`data/trees/*.tsv`), side by side with SQLite FTS5 and Xapian over
//! the same sections. Page level for every engine (Xapian answers pages);
//! section level too where a question names the section's anchor.

use std::path::Path;

use anyhow::Context;
use lectern_index::SectionRecord;
use lectern_library::{EditionSpec, Library, SearchParams};
use serde_json::json;

use crate::fts::Fts;
use crate::report::{Table, json_line, pct};
use crate::score::{Found, Level, Metrics, Target, first_rank, normal_page, relative};
use crate::setup::{Fresh, sections};
use crate::xapian::{self, Xapian};

/// The question files, each naming its tree, project and locale in its
/// leading comment lines.
const FILES: &[(&str, &str)] = &[
    ("debian-reference-zh-cn", include_str!("../data/trees/debian-reference-zh-cn.tsv")),
    ("debian-handbook-zh-CN", include_str!("../data/trees/debian-handbook-zh-CN.tsv")),
    ("debian-handbook-en-US", include_str!("../data/trees/debian-handbook-en-US.tsv")),
    ("debian-faq-zh-cn", include_str!("../data/trees/debian-faq-zh-cn.tsv")),
    ("python3.11-doc", include_str!("../data/trees/python3.11-doc.tsv")),
    ("git-doc", include_str!("../data/trees/git-doc.tsv")),
    ("debian-edu-doc-zh-cn", include_str!("../data/trees/debian-edu-doc-zh-cn.tsv")),
    ("bash-doc", include_str!("../data/trees/bash-doc.tsv")),
    ("maint-guide-zh-cn", include_str!("../data/trees/maint-guide-zh-cn.tsv")),
    ("installation-guide-zh-cn", include_str!("../data/trees/installation-guide-zh-cn.tsv")),
    ("python-django-doc", include_str!("../data/trees/python-django-doc.tsv")),
    ("developers-reference", include_str!("../data/trees/developers-reference.tsv")),
    ("sqlite3-doc", include_str!("../data/trees/sqlite3-doc.tsv")),
    ("kicad-doc-zh", include_str!("../data/trees/kicad-doc-zh.tsv")),
    ("debian-reference-zh-tw", include_str!("../data/trees/debian-reference-zh-tw.tsv")),
    ("libglib2.0-doc", include_str!("../data/trees/libglib2.0-doc.tsv")),
    ("libsdl2-doc", include_str!("../data/trees/libsdl2-doc.tsv")),
    ("apache2-doc", include_str!("../data/trees/apache2-doc.tsv")),
    ("libcommons-lang3-java-doc", include_str!("../data/trees/libcommons-lang3-java-doc.tsv")),
];

/// One tree's questions and where it is.
#[derive(Debug)]
struct TreeSet {
    name: &'static str,
    /// The tree's folder under the fetched packages' folder.
    tree: String,
    project: String,
    locale: String,
    questions: Vec<(String, Vec<Target>)>,
}

fn parse(name: &'static str, raw: &str) -> anyhow::Result<TreeSet> {
    let header = |key: &str| {
        raw.lines()
            .filter_map(|l| l.strip_prefix('#')?.trim().strip_prefix(key)?.strip_prefix(':'))
            .map(|v| v.trim().to_owned())
            .next()
            .with_context(|| format!("{name}: no `# {key}:` line"))
    };
    let questions = raw
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (q, targets) = l.split_once('\t').with_context(|| format!("{name}: no tab in {l:?}"))?;
            let targets = targets
                .split('|')
                .map(|t| match t.trim().split_once('#') {
                    Some((page, anchor)) => {
                        Target { page: normal_page(page), anchor: Some(anchor.to_owned()) }
                    }
                    None => Target { page: normal_page(t.trim()), anchor: None },
                })
                .collect();
            Ok((q.trim().to_owned(), targets))
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(TreeSet {
        name,
        tree: header("tree")?,
        project: header("project")?,
        locale: header("locale")?,
        questions,
    })
}

/// Metrics per (engine, level), in the order first counted.
#[derive(Default)]
struct Tally(Vec<((&'static str, &'static str), Metrics)>);

impl Tally {
    fn entry(&mut self, key: (&'static str, &'static str)) -> &mut Metrics {
        let at = match self.0.iter().position(|(have, _)| *have == key) {
            Some(at) => at,
            None => {
                self.0.push((key, Metrics::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }
}

/// Lectern's top 10 for a question in one edition.
fn lectern(lib: &Library, set: &TreeSet, prefix: &str, text: &str) -> anyhow::Result<Vec<Found>> {
    let params = SearchParams {
        text: text.to_owned(),
        project: Some(set.project.clone()),
        locale: Some(set.locale.clone()),
        limit: Some(10),
        ..Default::default()
    };
    let response = lib.search(&params, None, None)?;
    Ok(response
        .hits
        .iter()
        .map(|h| Found { page: relative(&h.path, prefix), anchor: h.anchor.clone() })
        .collect())
}

pub fn run(deps: &Path, k: usize, ranks_to: Option<&Path>) -> anyhow::Result<()> {
    let sets: Vec<TreeSet> =
        FILES.iter().map(|(name, raw)| parse(name, raw)).collect::<anyhow::Result<_>>()?;
    let fresh = Fresh::new()?;
    let lib = &fresh.library;
    let mut notes: Vec<String> = Vec::new();
    // (set, edition id, prefix) of each tree installed.
    let mut installed: Vec<(&TreeSet, String, String)> = Vec::new();
    for set in &sets {
        let source = deps.join(&set.tree);
        if !source.is_dir() {
            let note = format!(
                "{}: {} is not there (scripts/test fetches it): left out",
                set.name,
                source.display()
            );
            eprintln!("{note}");
            notes.push(note);
            continue;
        }
        let spec = EditionSpec {
            project: Some(set.project.clone()),
            version: Some("1".into()),
            locale: Some(set.locale.clone()),
            ..EditionSpec::default()
        };
        let report = lib
            .add(&source, &spec, &mut |_| {}, &mut |_| {})
            .with_context(|| format!("installing {}", source.display()))?;
        eprintln!("installed {} ({} sections)", report.edition.id, report.edition.sections);
        installed.push((set, report.edition.id.clone(), report.edition.prefix.clone()));
    }
    anyhow::ensure!(!installed.is_empty(), "no tree is there: run scripts/test first to fetch them");

    let per_edition: Vec<(String, Vec<SectionRecord>)> = installed
        .iter()
        .map(|(_, id, _)| Ok((id.clone(), sections(lib, id)?)))
        .collect::<anyhow::Result<_>>()?;
    let (fts, _) = Fts::build("porter unicode61", &per_edition)?;
    let mut xapian = match xapian::find_python() {
        Some(python) => {
            let input: Vec<(&str, &str, &[SectionRecord])> = installed
                .iter()
                .zip(&per_edition)
                .map(|((set, id, _), (_, s))| (id.as_str(), set.locale.as_str(), s.as_slice()))
                .collect();
            Some(Xapian::start(&python, &input)?)
        }
        None => {
            notes.push("Xapian: python3-xapian not found: its rows are left out".to_owned());
            None
        }
    };

    let mut table = Table::new(
        &format!("trees: questions written before the engine ran on each tree, limit 10 (k = {k})"),
        &["tree", "locale", "engine", "level", "questions", "hit@1", &format!("hit@{k}"), "MRR@10"],
    );
    let mut misses: Vec<String> = Vec::new();
    // Questions a peer answers in its top k (page level) and Lectern does not.
    let mut beaten: Vec<String> = Vec::new();
    // Each tree's tally, then the totals over every tree.
    let mut tallies: Vec<(&str, &str, Tally)> = Vec::new();
    // Each question's Lectern ranks, for `--ranks`: tree, question, page, section.
    let mut rank_lines: Vec<String> = Vec::new();
    let rank_str = |r: Option<usize>| r.map_or("-".into(), |r: usize| r.to_string());
    for (set, id, prefix) in &installed {
        let mut by = Tally::default();
        for (text, targets) in &set.questions {
            let found = lectern(lib, set, prefix, text)?;
            let page = first_rank(&found, targets, Level::Page);
            by.entry(("Lectern", "page")).add(page, k);
            let mut peers: Vec<String> = Vec::new();
            let section = first_rank(&found, targets, Level::Section);
            by.entry(("Lectern", "section")).add(section, k);
            let top: Vec<String> = found
                .iter()
                .take(3)
                .map(|f| format!("{}#{}", f.page, f.anchor.as_deref().unwrap_or("")))
                .collect();
            rank_lines.push(format!(
                "{}\t{text}\t{}\t{}\t{}\n",
                set.name,
                rank_str(page),
                rank_str(section),
                top.join(" ; ")
            ));
            if section.is_none_or(|r| r > k) {
                misses.push(format!(
                    "[{}] {text:?} (rank {}) got {}",
                    set.name,
                    rank_str(section),
                    top.join(" ; ")
                ));
            }
            let fts_found: Vec<Found> = fts
                .search(&[id.as_str()], text, 10)?
                .into_iter()
                .map(|h| Found { page: relative(&h.path, prefix), anchor: h.anchor })
                .collect();
            let fts_page = first_rank(&fts_found, targets, Level::Page);
            by.entry(("FTS5", "page")).add(fts_page, k);
            peers.extend(fts_page.filter(|r| *r <= k).map(|r| format!("FTS5 rank {r}")));
            by.entry(("FTS5", "section")).add(first_rank(&fts_found, targets, Level::Section), k);
            if let Some(x) = xapian.as_mut() {
                let pages: Vec<Found> = x
                    .search(id, &set.locale, text, 10)?
                    .into_iter()
                    .map(|p| Found { page: relative(&p, prefix), anchor: None })
                    .collect();
                let xapian_page = first_rank(&pages, targets, Level::Page);
                by.entry(("Xapian", "page")).add(xapian_page, k);
                peers.extend(xapian_page.filter(|r| *r <= k).map(|r| format!("Xapian rank {r}")));
            }
            if page.is_none_or(|r| r > k) && !peers.is_empty() {
                let rank = page.map_or("-".into(), |r| r.to_string());
                beaten.push(format!("[{}] {text:?}: Lectern rank {rank}, {}", set.name, peers.join(", ")));
            }
        }
        tallies.push((set.name, set.locale.as_str(), by));
    }
    let mut totals = Tally::default();
    for (key, m) in tallies.iter().flat_map(|(_, _, t)| &t.0) {
        totals.entry(*key).merge(m);
    }
    tallies.push(("all trees", "", totals));
    let mut rows = Vec::new();
    for (tree, locale, tally) in &tallies {
        for ((engine, level), m) in &tally.0 {
            table.row(vec![
                (*tree).into(),
                (*locale).into(),
                (*engine).into(),
                (*level).into(),
                m.queries.to_string(),
                pct(m.hit1()),
                pct(m.hitk()),
                format!("{:.3}", m.mrr()),
            ]);
            rows.push(json!({
                "tree": tree, "locale": locale, "engine": engine, "level": level, "metrics": m.json(k),
            }));
        }
    }
    if let Some(path) = ranks_to {
        std::fs::write(path, rank_lines.concat()).with_context(|| format!("writing {}", path.display()))?;
    }
    table.print();
    if !beaten.is_empty() {
        println!("\nquestions a peer answers in its top {k} and Lectern does not (page level):");
        for b in &beaten {
            println!("  {b}");
        }
    }
    if !misses.is_empty() {
        println!("\nquestions Lectern misses in its top {k} (section level):");
        for m in &misses {
            println!("  {m}");
        }
    }
    for note in &notes {
        println!("note: {note}");
    }
    json_line(&json!({ "bench": "trees", "k": k, "sets": rows, "notes": notes }));
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_question_file_names_its_tree_and_has_questions() {
        for (name, raw) in super::FILES {
            let set = super::parse(name, raw).unwrap();
            assert!(!set.tree.is_empty() && !set.project.is_empty(), "{name}");
            assert!(["en", "zh-Hans", "zh-Hant"].contains(&set.locale.as_str()), "{name}");
            assert!(set.questions.len() >= 10, "{name}: {}", set.questions.len());
            assert!(set.questions.iter().all(|(_, t)| !t.is_empty()), "{name}");
        }
    }
}
