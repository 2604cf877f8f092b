//! A fresh library in a temporary folder, the PostgreSQL editions installed
//! into it as a user would (`lectern add ARCHIVE --project postgresql ...`),
//! and every section of an edition read back from the library's snapshot.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use lectern_index::SectionRecord;
use lectern_library::{AddReport, EditionSpec, Library, OpenMode, Status};

/// One PostgreSQL edition to install.
#[derive(Debug, Clone)]
pub struct Pg {
    pub version: &'static str,
    pub locale: &'static str,
    pub status: Status,
    pub default: bool,
}

impl Pg {
    pub fn archive_name(&self) -> String {
        format!("postgresql-{}-{}.tar.xz", self.version, self.locale)
    }

    pub fn spec(&self) -> EditionSpec {
        EditionSpec {
            project: Some("postgresql".into()),
            aliases: vec!["pg".into()],
            version: Some(self.version.into()),
            locale: Some(self.locale.into()),
            status: Some(self.status),
            default: self.default,
            ..EditionSpec::default()
        }
    }
}

/// PostgreSQL 18 en (current) and zh-Hans (current, the library's default locale, as Lectern's documented defaults say).
pub fn pg18() -> Vec<Pg> {
    vec![
        Pg { version: "18", locale: "en", status: Status::Current, default: false },
        Pg { version: "18", locale: "zh-Hans", status: Status::Current, default: true },
    ]
}

/// `pg18()` plus PostgreSQL 15 en + zh-Hans (supported).
pub fn pg18_15() -> Vec<Pg> {
    let mut v = pg18();
    v.push(Pg { version: "15", locale: "en", status: Status::Supported, default: false });
    v.push(Pg { version: "15", locale: "zh-Hans", status: Status::Supported, default: false });
    v
}

/// A library in a temporary folder (removed on drop).
pub struct Fresh {
    /// Keeps the folder alive; removed on drop.
    _dir: tempfile::TempDir,
    pub library: Library,
}

impl Fresh {
    pub fn new() -> anyhow::Result<Fresh> {
        let dir = tempfile::Builder::new().prefix("lectern-bench-library-").tempdir()?;
        let library = Library::open(&dir.path().join("data"), OpenMode::ReadWrite)
            .context("opening a fresh library")?;
        // Every benchmark repeats its queries over rounds: they measure the
        // engine, not the result cache.
        library.set_result_cache(false);
        Ok(Fresh { _dir: dir, library })
    }

    pub fn root(&self) -> &Path {
        self.library.root()
    }

    /// Installs one edition from `source`; returns its report and wall time.
    pub fn add(&self, source: &Path, pg: &Pg) -> anyhow::Result<(AddReport, Duration)> {
        let started = Instant::now();
        let report = self
            .library
            .add(source, &pg.spec(), &mut |_| {}, &mut |_| {})
            .with_context(|| format!("installing {}", source.display()))?;
        Ok((report, started.elapsed()))
    }

    /// Installs every edition from the corpora folder, reporting as it goes.
    pub fn install_all(&self, corpora: &Path, editions: &[Pg]) -> anyhow::Result<Vec<AddReport>> {
        let mut reports = Vec::new();
        for pg in editions {
            let archive = crate::corpus::archive(corpora, &pg.archive_name())?;
            let (report, took) = self.add(&archive, pg)?;
            eprintln!(
                "installed {} at {} ({} pages, {} sections, {:.1} s)",
                report.edition.id,
                report.edition.prefix,
                report.edition.pages,
                report.edition.sections,
                took.as_secs_f64()
            );
            reports.push(report);
        }
        Ok(reports)
    }
}

/// Every section of an edition, pages in path order, sections in page order.
pub fn sections(library: &Library, edition: &str) -> anyhow::Result<Vec<SectionRecord>> {
    let snapshot = lectern_index::Index::open_read_only(&library.root().join("index"))?.snapshot();
    let mut out = Vec::new();
    for meta in snapshot.pages(edition) {
        let Some(page) = snapshot.page(edition, &meta.path) else { continue };
        out.extend(page.section_keys.iter().filter_map(|k| snapshot.section(k)));
    }
    Ok(out)
}

/// A search restricted to one version (or `*`) of PostgreSQL in one locale.
pub fn search(
    library: &Library,
    text: &str,
    version: &str,
    locale: &str,
    limit: i64,
    offset: i64,
) -> Result<lectern_library::SearchResponse, lectern_library::LibraryError> {
    let params = lectern_library::SearchParams {
        text: text.to_owned(),
        project: Some("postgresql".into()),
        version: Some(version.into()),
        locale: Some(locale.into()),
        limit: Some(limit),
        offset: Some(offset),
        ..Default::default()
    };
    library.search(&params, None, None)
}
