//! `site`: the page API's substring search (`Library::search_pages`) on
//! Markdown sites, side by side with two naive peers over the same scope —
//! a fold-per-query scan of the bodies held in memory (every body folded and
//! searched per query) and a block scan reading the bodies from the index
//! per query — and the process's anonymous memory as the site grows from
//! 1,000 to 10,000 pages. Targets: ≥ 3× faster than the fold scan for
//! frequent, rare and no-hit terms at limits 20 and 100; ≥ 20× faster than
//! the block scan for rare and no-hit terms; RssAnon grows by less than 50%
//! from 1,000 to 10,000 pages.
//!
//! Each site runs in a fresh child process (`lectern-bench site-one`), so its
//! memory figure is its own; the parent collects the children's JSON lines.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use lectern_index::text::fold;
use lectern_library::{EditionRecord, EditionSpec, Library, ListRequest, SearchPagesRequest, Status};
use serde_json::{Value, json};

use crate::report::{Table, json_line, load_average, mib, ms, percentile_ms, r3};
use crate::setup::Fresh;

/// Planted in a few generated pages: the rare term.
const RARE: &str = "quokkaflux";
/// In no page of any site.
const NO_HIT: &str = "zyxwvut nonesuch";
/// Pages per block of the naive block scan.
const BLOCK: usize = 64;
/// Page sizes measured: `search_pages`' default `limit` and its maximum.
const LIMITS: [usize; 2] = [20, 100];
/// The page size `site-serve` searches with.
const LIMIT: usize = 20;
/// A frequent Chinese term of the generated sites' Chinese paragraphs.
const CJK_COMMON: &str = "安装";
const NPM_ARCHIVE: &str = "npm-cli-docs-4-versions.tar.xz";

/// Which site a `site-one` child builds.
#[derive(Debug, Clone)]
pub enum Site {
    /// A generated Markdown site of this many pages.
    Generated(usize),
    /// The npm CLI docs, 4 versions, 4 editions.
    Npm,
}

impl Site {
    fn name(&self) -> String {
        match self {
            Site::Generated(n) => format!("generated {n} pages"),
            Site::Npm => "npm CLI docs, 4 versions".into(),
        }
    }
}

/// The parent: one child per site, then the tables, targets and JSON line.
pub fn run(corpora: &Path, sizes: &[usize], runs: usize) -> anyhow::Result<()> {
    let exe = std::env::current_exe()?;
    let mut results = Vec::new();
    let sites: Vec<Site> = sizes.iter().map(|&n| Site::Generated(n)).chain([Site::Npm]).collect();
    for site in &sites {
        let mut cmd = Command::new(&exe);
        cmd.arg("site-one").arg(corpora).arg("--runs").arg(runs.to_string());
        match site {
            Site::Generated(n) => cmd.arg("--pages").arg(n.to_string()),
            Site::Npm => cmd.arg("--npm"),
        };
        eprintln!("--- {} (child process)", site.name());
        let out = cmd.stderr(Stdio::inherit()).output().context("running lectern-bench site-one")?;
        if !out.status.success() {
            bail!("site-one for {} failed ({})", site.name(), out.status);
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let last =
            stdout.lines().rev().find(|l| l.starts_with('{')).context("site-one printed no JSON line")?;
        results.push(serde_json::from_str::<Value>(last)?);
    }

    let mut table = Table::new(
        &format!(
            "site: search_pages vs a fold-per-query scan of the bodies in memory and a block scan from the index, same scope (p50 over {runs} runs)"
        ),
        &[
            "site",
            "scope",
            "pages",
            "term",
            "kind",
            "limit",
            "hits",
            "search_pages ms",
            "fold scan ms",
            "vs fold scan",
            "block scan ms",
            "vs block scan",
        ],
    );
    let mut worst_rare_none = f64::INFINITY;
    let mut worst_fold = f64::INFINITY;
    for r in &results {
        for s in r["searches"].as_array().into_iter().flatten() {
            let ratio = s["speedup"].as_f64().unwrap_or(0.0);
            let fold_ratio = s["speedup_fold"].as_f64().unwrap_or(0.0);
            if s["kind"] != "common" && s["kind"] != "common CJK" {
                worst_rare_none = worst_rare_none.min(ratio);
            }
            worst_fold = worst_fold.min(fold_ratio);
            table.row(vec![
                r["site"].as_str().unwrap_or("").into(),
                s["scope"].as_str().unwrap_or("").into(),
                s["scope_pages"].to_string(),
                s["term"].as_str().unwrap_or("").into(),
                s["kind"].as_str().unwrap_or("").into(),
                s["limit"].to_string(),
                format!("{}{}", s["hits"], if s["more"] == true { "+" } else { "" }),
                ms(s["search_pages_p50_ms"].as_f64().unwrap_or(0.0)),
                ms(s["fold_scan_p50_ms"].as_f64().unwrap_or(0.0)),
                format!("{fold_ratio:.1}×"),
                ms(s["scan_p50_ms"].as_f64().unwrap_or(0.0)),
                format!("{ratio:.1}×"),
            ]);
        }
    }
    table.print();

    let mut mem = Table::new(
        "site: install and memory, each site in a fresh child process",
        &[
            "site",
            "pages",
            "words",
            "install s",
            "RssAnon after install MiB",
            "RssAnon at end MiB",
            "RssAnon serving MiB",
            "VmHWM MiB",
            "library MiB",
        ],
    );
    for r in &results {
        mem.row(vec![
            r["site"].as_str().unwrap_or("").into(),
            r["pages"].to_string(),
            r["words"].to_string(),
            format!("{:.2}", r["install_seconds"].as_f64().unwrap_or(0.0)),
            format!("{:.1}", mib(r["rss_anon_after_install_bytes"].as_u64().unwrap_or(0))),
            format!("{:.1}", mib(r["rss_anon_bytes"].as_u64().unwrap_or(0))),
            format!("{:.1}", mib(r["rss_anon_serving_bytes"].as_u64().unwrap_or(0))),
            format!("{:.1}", mib(r["peak_rss_bytes"].as_u64().unwrap_or(0))),
            format!("{:.1}", mib(r["library_bytes"].as_u64().unwrap_or(0))),
        ]);
    }
    mem.print();

    let anon = |n: usize| {
        results.iter().find(|r| r["pages"].as_u64() == Some(n as u64) && r["generated"] == true)?
            ["rss_anon_serving_bytes"]
            .as_u64()
    };
    let growth = match (sizes.first().and_then(|&n| anon(n)), sizes.last().and_then(|&n| anon(n))) {
        (Some(a), Some(b)) if sizes.len() > 1 && a > 0 => Some(b as f64 / a as f64 - 1.0),
        _ => None,
    };
    let ok_speed = worst_rare_none >= 20.0;
    let ok_fold = worst_fold >= 3.0;
    let ok_mem = growth.is_some_and(|g| g < 0.5);
    println!("load average at the end: {}", load_average());
    println!(
        "\ntargets: every term and limit ≥ 3× faster than the fold scan: {} (worst {worst_fold:.1}×); rare and no-hit terms ≥ 20× faster than the block scan: {} (worst {worst_rare_none:.1}×); RssAnon of a serving process grows < 50% from {} to {} pages: {} ({})",
        if ok_fold { "yes" } else { "NO" },
        if ok_speed { "yes" } else { "NO" },
        sizes.first().unwrap_or(&0),
        sizes.last().unwrap_or(&0),
        if ok_mem { "yes" } else { "NO" },
        growth.map_or("n/a".into(), |g| format!("{:+.1}%", g * 100.0)),
    );
    json_line(&json!({
        "bench": "site",
        "runs": runs,
        "sites": results,
        "rss_anon_growth": growth.map(r3),
        "targets": { "every_term_3x_fold_scan": ok_fold, "worst_fold_scan_speedup": r3(worst_fold), "rare_and_no_hit_20x": ok_speed, "worst_rare_no_hit_speedup": r3(worst_rare_none), "rss_anon_growth_under_50_pct": ok_mem },
        "load_average": load_average(),
    }));
    Ok(())
}

/// `site-serve`: opens the library read-only, runs every term's page search
/// and walks every scope's listing, then prints its RssAnon as JSON.
pub fn run_serve(dir: &Path, terms: &[String]) -> anyhow::Result<()> {
    let library = lectern_library::Library::open(dir, lectern_library::OpenMode::ReadOnly)?;
    let mut prefixes: Vec<Option<String>> = vec![None];
    prefixes.extend(library.list(&ListRequest::default())?.editions.into_iter().map(|e| Some(e.prefix)));
    for prefix in &prefixes {
        for term in terms {
            let request = SearchPagesRequest {
                term: term.clone(),
                prefix: prefix.clone(),
                limit: Some(LIMIT as i64),
                cursor: None,
            };
            let _ = library.search_pages(&request)?;
        }
        let mut cursor = None;
        loop {
            let page = library.list_pages(&lectern_library::pages::ListPagesRequest {
                prefix: prefix.clone(),
                limit: Some(100),
                cursor: cursor.clone(),
            })?;
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
    }
    json_line(&json!({ "rss_anon_bytes": rss_anon() }));
    Ok(())
}

/// One site in this (fresh) process: build, install, search, measure memory.
/// Prints its table to stderr and its figures as one JSON line on stdout.
pub fn run_one(corpora: &Path, site: &Site, runs: usize) -> anyhow::Result<()> {
    let archive = crate::corpus::archive(corpora, NPM_ARCHIVE)?;
    let npm_dir = crate::corpus::extract(&archive)?;
    let versions = npm_versions(npm_dir.path())?;
    let fresh = Fresh::new()?;
    let (pages, words, install, scopes) = match site {
        Site::Generated(n) => {
            let vocab = vocabulary(&versions)?;
            let dir = tempfile::Builder::new().prefix("lectern-bench-site-").tempdir()?;
            let words = generate(dir.path(), *n, &vocab)?;
            eprintln!("generated {n} pages, {words} words, vocabulary {} words", vocab.len());
            let spec = EditionSpec {
                project: Some("site".into()),
                version: Some("1".into()),
                locale: Some("en".into()),
                status: Some(Status::Current),
                prefix: Some("/site".into()),
                ..EditionSpec::default()
            };
            let started = Instant::now();
            let report = fresh.library.add(dir.path(), &spec, &mut |_| {}, &mut |_| {})?;
            let install = started.elapsed().as_secs_f64();
            eprintln!(
                "installed {} ({} pages, {} sections, {install:.1} s)",
                report.edition.id, report.edition.pages, report.edition.sections
            );
            let scopes = vec![Scope {
                prefix: Some("/site".into()),
                common: "the",
                rare: RARE.into(),
                cjk: Some(CJK_COMMON),
            }];
            (report.edition.pages, words, install, scopes)
        }
        Site::Npm => {
            let started = Instant::now();
            let mut pages = 0;
            let newest = versions.last().map(|v| v.0.clone()).unwrap_or_default();
            for (version, path) in &versions {
                let major = version.split('.').next().unwrap_or(version);
                let current = *version == newest;
                let spec = EditionSpec {
                    project: Some("npm".into()),
                    version: Some(version.clone()),
                    locale: Some("en".into()),
                    status: Some(if current { Status::Current } else { Status::Supported }),
                    prefix: Some(if current { "/npm".into() } else { format!("/npm/{major}") }),
                    ..EditionSpec::default()
                };
                let report = fresh.library.add(path, &spec, &mut |_| {}, &mut |_| {})?;
                eprintln!(
                    "installed {} at {} ({} pages)",
                    report.edition.id, report.edition.prefix, report.edition.pages
                );
                pages += report.edition.pages;
            }
            let install = started.elapsed().as_secs_f64();
            let words = versions.iter().map(|(_, p)| count_words(p)).sum::<usize>();
            let scopes = vec![
                Scope { prefix: Some("/npm".into()), common: "npm", rare: "cyclonedx".into(), cjk: None },
                Scope { prefix: None, common: "npm", rare: "undeprecate".into(), cjk: None },
            ];
            (pages, words, install, scopes)
        }
    };
    drop(npm_dir);
    let rss_anon_installed = rss_anon();

    let library = &fresh.library;
    let mut table = Table::new(
        &format!("{} (p50 over {runs} runs)", site.name()),
        &[
            "scope",
            "pages",
            "term",
            "kind",
            "limit",
            "hits",
            "search_pages ms",
            "fold scan ms",
            "vs fold",
            "block scan ms",
            "vs block",
        ],
    );
    let mut rows = Vec::new();
    for scope in &scopes {
        let view = Reference::open(library)?;
        let editions = scope_editions(&view, scope.prefix.as_deref());
        let bodies = Bodies::read(&view, &editions);
        let scope_pages = bodies.0.len();
        let mut terms = vec![("common", scope.common), ("rare", scope.rare.as_str()), ("no hit", NO_HIT)];
        terms.extend(scope.cjk.map(|t| ("common CJK", t)));
        for (kind, term) in terms {
            for limit in LIMITS {
                let request = SearchPagesRequest {
                    term: term.into(),
                    prefix: scope.prefix.clone(),
                    limit: Some(limit as i64),
                    cursor: None,
                };
                let api = library.search_pages(&request)?;
                let api_paths: Vec<String> = api.pages.iter().map(|p| p.path.clone()).collect();
                let (scan_paths, more) = naive_scan(&view, &editions, term, limit);
                let folded = bodies.fold_scan(term, limit);
                if api_paths != scan_paths
                    || api.next_cursor.is_some() != more
                    || folded != (scan_paths.clone(), more)
                {
                    bail!(
                        "{term:?} in {:?} (limit {limit}): search_pages and the scans disagree\n  search_pages: {api_paths:?} (more: {})\n  block scan:   {scan_paths:?} (more: {more})\n  fold scan:    {folded:?}",
                        scope.prefix,
                        api.next_cursor.is_some()
                    );
                }
                let api_p50 = p50(runs, || {
                    let _ = library.search_pages(&request).expect("search_pages");
                });
                let fold_p50 = p50(runs, || {
                    let _ = bodies.fold_scan(term, limit);
                });
                let scan_p50 = p50(runs, || {
                    let _ = naive_scan(&view, &editions, term, limit);
                });
                let speedup = scan_p50 / api_p50.max(1e-9);
                let speedup_fold = fold_p50 / api_p50.max(1e-9);
                let label = scope.prefix.clone().unwrap_or_else(|| "(all, default locale)".into());
                table.row(vec![
                    label.clone(),
                    scope_pages.to_string(),
                    term.into(),
                    kind.into(),
                    limit.to_string(),
                    format!("{}{}", scan_paths.len(), if more { "+" } else { "" }),
                    ms(api_p50),
                    ms(fold_p50),
                    format!("{speedup_fold:.1}×"),
                    ms(scan_p50),
                    format!("{speedup:.1}×"),
                ]);
                rows.push(json!({
                    "scope": label, "scope_pages": scope_pages, "term": term, "kind": kind, "limit": limit, "hits": scan_paths.len(), "more": more,
                    "first_page": scan_paths.iter().take(3).collect::<Vec<_>>(),
                    "search_pages_p50_ms": r3(api_p50), "fold_scan_p50_ms": r3(fold_p50), "scan_p50_ms": r3(scan_p50),
                    "speedup": r3(speedup), "speedup_fold": r3(speedup_fold),
                }));
            }
        }
    }
    let rss_anon = rss_anon();
    let peak = crate::report::peak_rss();
    let size = crate::report::dir_size(library.root());
    // What a serving process holds: a fresh process that only opens the
    // library (the installing process keeps the writer's freed arenas).
    let mut serve = Command::new(std::env::current_exe()?);
    serve.arg("site-serve").arg(library.root());
    for scope in &scopes {
        for term in [scope.common, scope.rare.as_str(), NO_HIT].into_iter().chain(scope.cjk) {
            serve.arg("--term").arg(term);
        }
    }
    let served: serde_json::Value = serde_json::from_slice(&serve.output()?.stdout)?;
    let rss_anon_serving = served["rss_anon_bytes"].as_u64().unwrap_or(0);
    // The table goes to stderr: stdout carries the JSON line for the parent.
    eprint!("{}", table.render());
    eprintln!(
        "RssAnon after install and searches: {:.1} MiB (VmHWM {:.1} MiB); a serving process: {:.1} MiB\n",
        mib(rss_anon),
        mib(peak),
        mib(rss_anon_serving)
    );
    json_line(&json!({
        "site": site.name(), "generated": matches!(site, Site::Generated(_)), "pages": pages, "words": words,
        "install_seconds": r3(install), "rss_anon_bytes": rss_anon, "rss_anon_after_install_bytes": rss_anon_installed, "rss_anon_serving_bytes": rss_anon_serving, "peak_rss_bytes": peak, "library_bytes": size,
        "searches": rows,
    }));
    Ok(())
}

struct Scope {
    prefix: Option<String>,
    common: &'static str,
    rare: String,
    /// A frequent Chinese term, where the site has Chinese text.
    cjk: Option<&'static str>,
}

/// What the reference scan reads, beside the library: the index itself and
/// the enabled editions.
struct Reference {
    snapshot: lectern_index::Snapshot,
    enabled: Vec<EditionRecord>,
    site_locale: Option<String>,
}

impl Reference {
    fn open(library: &Library) -> anyhow::Result<Reference> {
        let index = lectern_index::Index::open_read_only(&library.root().join("index"))?;
        Ok(Reference {
            snapshot: index.snapshot(),
            enabled: library.list(&ListRequest::default())?.editions,
            site_locale: library.view()?.site_locale(),
        })
    }
}

/// The editions a `prefix` selects: that edition, or (no prefix) every
/// enabled edition in the site's default locale, as `search_pages` does.
fn scope_editions(view: &Reference, prefix: Option<&str>) -> Vec<String> {
    match prefix {
        Some(p) => view.enabled.iter().filter(|e| e.prefix == p).map(|e| e.id.clone()).collect(),
        None => {
            let locale = view.site_locale.clone();
            view.enabled
                .iter()
                .filter(|e| locale.as_deref().is_none_or(|l| e.locale == l))
                .map(|e| e.id.clone())
                .collect()
        }
    }
}

/// The scope's pages in path order (one per path), with their editions.
fn scope_entries<'e>(view: &Reference, editions: &'e [String]) -> Vec<(String, &'e str)> {
    let mut entries: Vec<(String, &str)> = Vec::new();
    for edition in editions {
        entries.extend(
            view.snapshot.pages(edition).into_iter().filter(|p| !p.draft).map(|p| (p.path, edition.as_str())),
        );
    }
    entries.sort();
    entries.dedup_by(|b, a| a.0 == b.0);
    entries
}

/// The scope's (path, title, text) in path order, read once and held in
/// memory: the bodies the fold scan searches.
struct Bodies(Vec<(String, String, String)>);

impl Bodies {
    fn read(view: &Reference, editions: &[String]) -> Bodies {
        let entries = scope_entries(view, editions);
        let mut out = Vec::with_capacity(entries.len());
        for (path, edition) in &entries {
            out.extend(view.snapshot.page_texts(edition, &[path.as_str()]));
        }
        Bodies(out)
    }

    /// The naive fold-per-query scan: every body's title and text folded and
    /// checked with `contains`, in path order; the first `limit` paths and
    /// whether another match exists.
    fn fold_scan(&self, term: &str, limit: usize) -> (Vec<String>, bool) {
        let folded = fold(term);
        let mut hits: Vec<&str> = Vec::new();
        for (path, title, text) in &self.0 {
            if fold(text).contains(&folded) || fold(title).contains(&folded) {
                hits.push(path);
            }
        }
        let more = hits.len() > limit;
        (hits.into_iter().take(limit).map(str::to_owned).collect(), more)
    }
}

/// The naive block scan: the scope's pages in path order, bodies read from
/// the index in blocks of 64, folded title and text checked with
/// `contains`, stopping at the hit after `limit`. Same semantics as
/// `search_pages` without the n-gram prefilter. Returns the first page of
/// paths and whether another match exists.
fn naive_scan(view: &Reference, editions: &[String], term: &str, limit: usize) -> (Vec<String>, bool) {
    let folded = fold(term);
    let entries = scope_entries(view, editions);
    let mut found = Vec::new();
    for block in entries.chunks(BLOCK) {
        let mut by_edition: HashMap<&str, Vec<&str>> = HashMap::new();
        for (path, edition) in block {
            by_edition.entry(edition).or_default().push(path);
        }
        let mut texts: HashMap<String, (String, String)> = HashMap::new();
        for (edition, paths) in by_edition {
            for (path, title, text) in view.snapshot.page_texts(edition, &paths) {
                texts.insert(path, (title, text));
            }
        }
        for (path, _) in block {
            let Some((title, text)) = texts.remove(path) else { continue };
            if fold(&text).contains(&folded) || fold(&title).contains(&folded) {
                if found.len() == limit {
                    return (found, true);
                }
                found.push(path.clone());
            }
        }
    }
    (found, false)
}

/// Median milliseconds of `runs` calls, after one warm-up call.
fn p50(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    percentile_ms(&times, 50.0)
}

/// Anonymous resident memory of this process (RssAnon), in bytes.
fn rss_anon() -> u64 {
    crate::report::proc_status_bytes("RssAnon")
}

/// The version folders of the extracted npm archive (`npm-cli-8.19.4`...),
/// oldest first by numeric version.
fn npm_versions(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(version) = name.strip_prefix("npm-cli-") {
            out.push((version.to_owned(), entry.path()));
        }
    }
    let key = |v: &str| v.split('.').map(|p| p.parse::<u64>().unwrap_or(0)).collect::<Vec<_>>();
    out.sort_by_key(|(v, _)| key(v));
    if out.is_empty() {
        bail!("{NPM_ARCHIVE}: no npm-cli-* folder inside");
    }
    Ok(out)
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            markdown_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "md") {
            out.push(p);
        }
    }
}

fn count_words(dir: &Path) -> usize {
    let mut files = Vec::new();
    markdown_files(dir, &mut files);
    files.iter().filter_map(|f| std::fs::read_to_string(f).ok()).map(|t| t.split_whitespace().count()).sum()
}

/// The generator's vocabulary: the distinct words (ASCII letters, 2–20 long,
/// lower-cased) of the npm docs, most frequent first — a few thousand real
/// English (and npm) words with a natural frequency order.
fn vocabulary(versions: &[(String, PathBuf)]) -> anyhow::Result<Vec<String>> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (_, dir) in versions {
        let mut files = Vec::new();
        markdown_files(dir, &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f)?;
            for w in text.split(|c: char| !c.is_ascii_alphabetic()) {
                if (2..=20).contains(&w.len()) {
                    *counts.entry(w.to_ascii_lowercase()).or_default() += 1;
                }
            }
        }
    }
    let mut words: Vec<(String, usize)> = counts.into_iter().collect();
    words.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let vocab: Vec<String> = words
        .into_iter()
        .map(|(w, _)| w)
        .filter(|w| !w.contains(RARE) && !NO_HIT.split(' ').any(|t| w.contains(t)))
        .collect();
    if vocab.len() < 1000 {
        bail!("vocabulary from the npm docs has only {} words", vocab.len());
    }
    Ok(vocab)
}

/// Chinese sentences mixed into every fifth generated page.
const CHINESE: &[&str] = &[
    "本文档介绍如何安装和配置软件包管理器。",
    "在开始之前，请确认你的系统已经安装了必要的依赖。",
    "配置文件位于用户主目录下，可以通过命令行修改。",
    "每个版本的发布说明都列出了新功能和已修复的问题。",
    "如果安装失败，请检查网络连接和代理设置。",
    "工作区允许在一个仓库中管理多个相互依赖的包。",
    "缓存目录保存下载过的文件，以加快后续的安装速度。",
    "发布之前，请运行测试并更新版本号。",
    "访问令牌用于在持续集成环境中进行身份验证。",
    "锁文件记录了依赖树的精确版本，保证安装结果可以重现。",
    "脚本在安装、测试和发布的不同阶段自动运行。",
    "作用域包的名称以组织名开头，可以设为私有。",
];

/// A small deterministic PRNG (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Writes `n` pages into `dir`: `part-NN/topic-NN/page-NNNNN.md`, YAML
/// frontmatter with a title, 300–1,500 words drawn Zipf-like from `vocab`,
/// `##` headings every 120–250 words, a Chinese paragraph in every fifth
/// page, and the rare term in three pages. Returns the words written.
fn generate(dir: &Path, n: usize, vocab: &[String]) -> anyhow::Result<usize> {
    // Zipf weights 1/(rank + 1), as a cumulative table.
    let mut cumulative = Vec::with_capacity(vocab.len());
    let mut sum = 0.0;
    for rank in 0..vocab.len() {
        sum += 1.0 / (rank as f64 + 1.0);
        cumulative.push(sum);
    }
    let mut rng = Rng(0x5EED_0006);
    let word = |rng: &mut Rng| -> &str {
        let x = rng.unit() * sum;
        &vocab[cumulative.partition_point(|&c| c < x).min(vocab.len() - 1)]
    };
    let planted = [n / 7, n / 2, n - n / 5 - 1];
    let mut total = 0;
    for i in 0..n {
        let folder = dir.join(format!("part-{:02}/topic-{:02}", i % 10, (i / 10) % 10));
        std::fs::create_dir_all(&folder)?;
        let title: Vec<&str> = (0..2 + rng.below(4)).map(|_| word(&mut rng)).collect();
        let mut md = format!("---\ntitle: \"Page {i}: {}\"\n---\n\n", title.join(" "));
        let count = 300 + rng.below(1201);
        let mut next_heading = 0;
        let mut sentence = 0;
        for w in 0..count {
            if w == next_heading {
                let h: Vec<&str> = (0..1 + rng.below(4)).map(|_| word(&mut rng)).collect();
                let _ = write!(md, "\n\n## {}\n\n", h.join(" "));
                next_heading += 120 + rng.below(131);
                sentence = 0;
            }
            if sentence == 0 && w > 0 && rng.below(4) == 0 {
                md.push_str("\n\n");
            }
            md.push_str(word(&mut rng));
            sentence += 1;
            if sentence >= 8 + rng.below(12) {
                md.push_str(". ");
                sentence = 0;
            } else {
                md.push(' ');
            }
        }
        if i % 5 == 0 {
            md.push_str("\n\n");
            for _ in 0..3 + rng.below(8) {
                md.push_str(CHINESE[rng.below(CHINESE.len())]);
            }
        }
        if planted.contains(&i) {
            let _ = write!(md, "\n\nThe {RARE} setting is documented here.");
        }
        md.push('\n');
        total += count;
        std::fs::write(folder.join(format!("page-{i:05}.md")), md)?;
    }
    Ok(total)
}
