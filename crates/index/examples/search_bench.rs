//! Search latency bench over real HTML manuals (e.g. the PostgreSQL manuals in
//! `../shared/corpora`, extracted): builds an index in a tempdir, then times
//! top-20 searches with snippets and prints medians.
//!
//! ```text
//! cargo run --release -p lectern-index --example search_bench -- DIR [DIR...]
//! ```
//! Each DIR (a folder of `.html` files) becomes one edition. The HTML is
//! reduced to text crudely (tags dropped, split at h1-h3): enough for timing,
//! not the corpus crate's conversion.

use std::path::Path;
use std::time::{Duration, Instant};

use lectern_corpus::{Page, Section};
use lectern_index::{Index, SearchRequest, parse_query};

fn decode(s: &str) -> String {
    s.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// (heading level or 0 for text, content) chunks of an HTML file.
fn chunks(html: &str) -> Vec<(u8, String)> {
    let body = html.split_once("<body").map_or(html, |(_, b)| b);
    let mut out: Vec<(u8, String)> = vec![(0, String::new())];
    let mut rest = body;
    while let Some(lt) = rest.find('<') {
        let text = &rest[..lt];
        if let Some(c) = out.last_mut() {
            c.1.push_str(text);
        }
        let Some(gt) = rest[lt..].find('>') else { break };
        let tag = &rest[lt + 1..lt + gt];
        let name: String =
            tag.trim_start_matches('/').chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        let name = name.to_ascii_lowercase();
        if matches!(name.as_str(), "script" | "style") && !tag.starts_with('/') {
            let close = format!("</{name}");
            rest = rest[lt..].find(&close).map_or("", |i| &rest[lt + i..]);
            continue;
        }
        if let Some(level) =
            name.strip_prefix('h').and_then(|l| l.parse::<u8>().ok()).filter(|l| (1..=3).contains(l))
        {
            if tag.starts_with('/') {
                out.push((0, String::new()));
            } else {
                out.push((level, String::new()));
            }
        } else if matches!(name.as_str(), "p" | "div" | "br" | "li" | "tr" | "pre")
            && let Some(c) = out.last_mut()
        {
            c.1.push('\n');
        }
        rest = &rest[lt + gt + 1..];
    }
    out.into_iter().map(|(l, t)| (l, decode(&t))).collect()
}

fn page_of(path: &str, html: &str) -> Page {
    let mut sections: Vec<Section> = Vec::new();
    let mut title = String::new();
    for (level, text) in chunks(html) {
        let text_trim = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if level > 0 {
            if title.is_empty() {
                title = text_trim.clone();
            }
            sections.push(Section {
                anchor: (!sections.is_empty()).then(|| format!("s{}", sections.len())),
                title: text_trim,
                level,
                breadcrumb: if sections.is_empty() { vec![] } else { vec![title.clone()] },
                markdown: String::new(),
                text: String::new(),
            });
        } else if let Some(last) = sections.last_mut() {
            last.text.push_str(text.trim());
            last.text.push('\n');
        }
    }
    if sections.is_empty() {
        sections.push(Section {
            anchor: None,
            title: path.into(),
            level: 1,
            breadcrumb: vec![],
            markdown: String::new(),
            text: String::new(),
        });
    }
    for s in &mut sections {
        s.markdown = s.text.clone();
    }
    let text = sections.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join("\n");
    Page {
        path: path.into(),
        source_file: path.into(),
        title,
        description: None,
        order: None,
        draft: false,
        frontmatter: None,
        markdown: text.clone(),
        text,
        sections,
        symbols: vec![],
        listing: false,
        nav: Default::default(),
    }
}

fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(str::to_string))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|k| k.parse::<f64>().ok()))
        .map_or(0.0, |kib| kib / 1024.0)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: search_bench DIR [DIR...]");
        std::process::exit(2);
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let index = Index::open(tmp.path()).expect("open");
    let started = Instant::now();
    let mut editions = Vec::new();
    let mut sections = 0usize;
    let mut writer = index.writer().expect("writer");
    for dir in &dirs {
        let edition = Path::new(dir).file_name().map_or("e".into(), |n| n.to_string_lossy().into_owned());
        let mut files: Vec<_> =
            std::fs::read_dir(dir).expect("read dir").flatten().map(|e| e.path()).collect();
        files.sort();
        for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "html")) {
            let Ok(html) = std::fs::read_to_string(file) else { continue };
            let stem = file.file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
            let page = page_of(&format!("/{edition}/{stem}"), &html);
            sections += page.sections.len();
            writer.add_page(&edition, &page).expect("add");
        }
        editions.push(edition);
    }
    writer.commit("bench").expect("commit");
    println!(
        "ingest: {} editions, {sections} sections in {:.1?}, peak RSS {:.0} MiB",
        editions.len(),
        started.elapsed(),
        peak_rss_mib()
    );
    let snap = index.snapshot();
    let queries = [
        "create index",
        "how do I build an index without locking the table",
        "work_mem",
        "vacuum full",
        "\"foreign key\" -trigger",
        "pg_stat_activity",
        "如何在不阻塞写入的情况下创建索引",
        "创建索引",
        "索",
        "select",
    ];
    let mut all = Vec::new();
    for text in queries {
        let query = parse_query(text).expect("query");
        let mut times = Vec::new();
        let mut bare = Vec::new();
        let mut total = 0;
        let mut deep = Vec::new();
        for round in 0..150 {
            // Round-robin: a top-20 page; no page (tier 1 only); one hit at
            // offset 1000 (both tiers, one snippet).
            let (limit, offset) = [(20, 0), (0, 0), (1, 1000)][round % 3];
            let request = SearchRequest {
                query: &query,
                editions: &editions,
                twins: &[],
                last_word_prefix: false,
                limit,
                offset,
                deadline: Instant::now() + Duration::from_secs(2),
                cancel: None,
            };
            let t = Instant::now();
            let out = snap.search(&request);
            match limit {
                0 => bare.push(t.elapsed()),
                1 => deep.push(t.elapsed()),
                _ => times.push(t.elapsed()),
            }
            if limit == 20 {
                total = out.total;
            }
        }
        all.extend(times.iter().copied());
        println!(
            "{:>10.3?} median  ({:>9.3?} no page, {:>9.3?} one deep hit)  total {total:>6}  {text}",
            median(times),
            median(bare),
            median(deep)
        );
    }
    println!("{:>10.3?} median over all queries", median(all));
}
