//! `ingest`: PostgreSQL 18 en + zh-Hans into a fresh library. Per edition and
//! in total: pages, sections, seconds, pages/s, MB/s of HTML read, peak RSS,
//! library size on disk. Targets: both editions under 10 s, peak RSS < 300 MiB.

use std::path::Path;
use std::time::Instant;

use serde_json::json;

use crate::report::{Table, cpu_seconds, dir_size, json_line, load_average, mib, peak_rss, r3};
use crate::setup::{Fresh, pg18};

pub fn run(corpora: &Path, from_folder: bool) -> anyhow::Result<()> {
    let editions = pg18();
    // Sizes and (optionally) extraction happen before any timing starts.
    let mut sources = Vec::new();
    let mut _extracted = Vec::new();
    for pg in &editions {
        let archive = crate::corpus::archive(corpora, &pg.archive_name())?;
        let (files, bytes) = crate::corpus::html_bytes(&archive)?;
        let source = if from_folder {
            let dir = crate::corpus::extract(&archive)?;
            let path = dir.path().to_path_buf();
            _extracted.push(dir);
            path
        } else {
            archive
        };
        sources.push((source, files, bytes));
    }
    let rss_before = peak_rss();
    let fresh = Fresh::new()?;
    let mut table = Table::new(
        &format!(
            "ingest: PostgreSQL 18 en + zh-Hans into a fresh library (source: {})",
            if from_folder { "extracted folders" } else { ".tar.xz archives, decompression included" }
        ),
        &[
            "edition",
            "html files",
            "pages",
            "sections",
            "seconds",
            "CPU s",
            "pages/s",
            "MB/s",
            "peak RSS MiB",
            "library MiB",
        ],
    );
    let mut rows = Vec::new();
    let (mut pages, mut sections, mut bytes_all) = (0usize, 0usize, 0u64);
    let started = Instant::now();
    let cpu_start = cpu_seconds();
    for (pg, (source, files, bytes)) in editions.iter().zip(&sources) {
        let cpu_before = cpu_seconds();
        let (report, took) = fresh.add(source, pg)?;
        let cpu = cpu_seconds() - cpu_before;
        let secs = took.as_secs_f64();
        let (p, s) = (report.edition.pages, report.edition.sections);
        let rss = peak_rss();
        let size = dir_size(fresh.root());
        pages += p;
        sections += s;
        bytes_all += bytes;
        table.row(vec![
            report.edition.id.clone(),
            files.to_string(),
            p.to_string(),
            s.to_string(),
            format!("{secs:.2}"),
            format!("{cpu:.2}"),
            format!("{:.0}", p as f64 / secs),
            format!("{:.1}", *bytes as f64 / 1e6 / secs),
            format!("{:.0}", mib(rss)),
            format!("{:.1}", mib(size)),
        ]);
        rows.push(json!({
            "edition": report.edition.id, "html_files": files, "html_bytes": bytes, "pages": p, "sections": s,
            "seconds": r3(secs), "cpu_seconds": r3(cpu), "pages_per_s": r3(p as f64 / secs), "mb_per_s": r3(*bytes as f64 / 1e6 / secs),
            "peak_rss_bytes": rss, "library_bytes": size, "problems": report.problems.len(),
        }));
    }
    let secs = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_start;
    let rss = peak_rss();
    let size = dir_size(fresh.root());
    table.row(vec![
        "total".into(),
        sources.iter().map(|s| s.1).sum::<usize>().to_string(),
        pages.to_string(),
        sections.to_string(),
        format!("{secs:.2}"),
        format!("{cpu:.2}"),
        format!("{:.0}", pages as f64 / secs),
        format!("{:.1}", bytes_all as f64 / 1e6 / secs),
        format!("{:.0}", mib(rss)),
        format!("{:.1}", mib(size)),
    ]);
    table.print();
    let ok_time = secs < 10.0;
    let ok_rss = rss < 300 * 1024 * 1024;
    println!("load average at the end: {}", load_average());
    println!(
        "\ntargets: both editions under 10 s: {} ({secs:.2} s); peak RSS under 300 MiB: {} ({:.0} MiB; {:.0} MiB before the first add)",
        if ok_time { "yes" } else { "NO" },
        if ok_rss { "yes" } else { "NO" },
        mib(rss),
        mib(rss_before)
    );
    json_line(&json!({
        "bench": "ingest",
        "source": if from_folder { "folder" } else { "tar.xz" },
        "editions": rows,
        "total": {
            "pages": pages, "sections": sections, "html_bytes": bytes_all, "seconds": r3(secs), "cpu_seconds": r3(cpu),
            "pages_per_s": r3(pages as f64 / secs), "mb_per_s": r3(bytes_all as f64 / 1e6 / secs),
            "peak_rss_bytes": rss, "peak_rss_before_bytes": rss_before, "library_bytes": size,
        },
        "targets": { "under_10_s": ok_time, "peak_rss_under_300_mib": ok_rss },
        "load_average": load_average(),
    }));
    Ok(())
}
