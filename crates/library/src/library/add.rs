//! Adding an edition: a source read into pages, the edition's record decided
//! from the flags, what the library already records and what the source says
//! of itself, and the pages written into the index with the manifest in one
//! commit. `add_site` adds every edition a site config declares.
//!
//! Pages stream: the source is read one page at a time into a spool on disk
//! ([`Spooled`]), then each page is read back, handed to the index writer
//! and dropped, so memory does not grow with the source. A whole add runs
//! under a deadline (the `add.deadline_s` setting) and `add` reads its source
//! before it takes the writer lock, so no other writer waits on a read.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lectern_corpus::{DocsetInfo, Problem, ReadOptions, SiteConfig, SourceError, SourceFormat, Spooled};
use serde::Serialize;

use super::Library;
use crate::edition::{EditionId, EditionRecord, EditionSpec, Status, derive_prefix};
use crate::error::{LibraryError, invalid};
use crate::manifest::Manifest;
use crate::path::{MAX_PATH_BYTES, SitePath};

/// Progress of a long write, for a progress bar.
#[derive(Debug, Clone, Copy)]
pub enum Progress {
    Reading { done: usize, total: usize },
    Indexing { done: usize, total: usize },
    Committing,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AddOutcome {
    Installed,
    Updated,
    Unchanged,
}

/// What `add` did.
#[derive(Debug, Clone, Serialize)]
pub struct AddReport {
    pub outcome: AddOutcome,
    pub edition: EditionRecord,
    pub problems: Vec<Problem>,
    pub drafts_skipped: usize,
    pub generation: String,
    pub elapsed_ms: u64,
    /// The link check of the pages read (drafts included).
    pub links: lectern_corpus::check::LinkReport,
    /// The locale the edition got when neither `--locale` nor the source
    /// said one; None when it was given or read from the source.
    pub locale_guessed: Option<String>,
    /// The images and files the pages reference: kept, missing, skipped.
    pub assets: lectern_corpus::assets::AssetSummary,
    /// Paths that lead to a page under another path (a redirect page's old
    /// address, a file's other name): the first few, each with where it
    /// leads, and how many in all.
    pub moved: Vec<(String, String)>,
    pub moved_total: usize,
}

/// Paths leading to pages under other paths that a report names.
const MOVED_SHOWN: usize = 3;

/// Who an edition is and where it is served, decided before its pages are
/// read with that prefix.
struct Placement {
    id: EditionId,
    /// The record of the same id already installed, if any.
    existing: Option<EditionRecord>,
    status: Status,
    prefix: String,
    aliases: Vec<String>,
}

/// A source read under the prefix it was placed at.
struct Read {
    prefix: String,
    spooled: Spooled,
}

/// When an add must stop: the `add.deadline_s` setting from its start.
struct Deadline {
    at: Instant,
    limit: Duration,
}

impl Deadline {
    fn new(manifest: &Manifest, started: Instant) -> Deadline {
        let limit = manifest.add_deadline();
        Deadline { at: started + limit, limit }
    }

    /// The error of an add stopped by its deadline, `what` saying where it was.
    fn error(&self, what: String) -> LibraryError {
        LibraryError::Timeout(format!(
            "{what}; an add may take {} s (the add.deadline_s setting; raise it with \
             `lectern config set add.deadline_s SECONDS`); nothing was changed",
            self.limit.as_secs()
        ))
    }

    /// A reading error, with the limit said when it was the deadline.
    fn source_error(&self, e: SourceError) -> LibraryError {
        match e {
            SourceError::Deadline { .. } => self.error(e.to_string()),
            e => e.into(),
        }
    }
}

impl Library {
    /// Installs or updates one edition from a source directory or archive.
    /// The source is read before the writer lock is taken, and read again
    /// under it only if another writer moved the edition's prefix meanwhile.
    pub fn add(
        &self,
        source: &Path,
        spec: &EditionSpec,
        progress: &mut dyn FnMut(Progress),
        on_wait: &mut dyn FnMut(&str),
    ) -> Result<AddReport, LibraryError> {
        self.refuse_read_only()?;
        let started = Instant::now();
        let source = existing_source(source)?;
        let manifest = self.view()?.manifest.clone();
        let deadline = Deadline::new(&manifest, started);
        let early = read_placed(manifest, &source, spec, &deadline, progress)?;
        let _guard = self.begin_write(on_wait)?;
        self.add_locked(&source, spec, Some(early), started, progress)
    }

    /// Installs or updates every edition a site config declares, and records
    /// the site settings (default locale, name, hosts...) in the library.
    pub fn add_site(
        &self,
        config: &SiteConfig,
        progress: &mut dyn FnMut(&EditionSpec, Progress),
        on_wait: &mut dyn FnMut(&str),
    ) -> Result<Vec<AddReport>, LibraryError> {
        let _guard = self.begin_write(on_wait)?;
        let mut manifest = self.view()?.manifest.clone();
        if manifest.site.as_ref() != Some(config)
            || manifest.settings.get("default.locale") != Some(&config.default_locale)
        {
            manifest.site = Some(config.clone());
            manifest.settings.insert("default.locale".into(), config.default_locale.clone());
            self.commit_manifest(&manifest)?;
        }
        let mut reports = Vec::new();
        for e in &config.editions {
            let spec = EditionSpec {
                project: Some(e.project.clone()),
                aliases: e.aliases.clone(),
                version: Some(e.version.clone()),
                locale: Some(e.locale.clone()),
                domain: e.domain.clone(),
                collection: e.collection.clone(),
                label: e.label.clone(),
                r#ref: e.r#ref.clone(),
                status: e.status.as_deref().map(str::parse).transpose()?,
                prefix: e.prefix.clone(),
                default: e.default,
                enabled: Some(e.enabled),
                format: parse_format(e.format.as_deref())?,
            };
            let source = existing_source(&e.source)?;
            let report =
                self.add_locked(&source, &spec, None, Instant::now(), &mut |p| progress(&spec, p))?;
            reports.push(report);
        }
        Ok(reports)
    }

    /// Adds one edition; the caller holds the writer lock. `early` is the
    /// source as read before the lock was taken, if it was.
    fn add_locked(
        &self,
        source: &Path,
        spec: &EditionSpec,
        early: Option<Read>,
        started: Instant,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<AddReport, LibraryError> {
        let view = self.view()?;
        let mut manifest = view.manifest.clone();
        let deadline = Deadline::new(&manifest, started);
        let early = match early {
            Some(read) => read,
            None => read_placed(manifest.clone(), source, spec, &deadline, progress)?,
        };
        // Only a source that names itself (no --project) lends its docset info.
        let docset = if spec.project.is_none() { early.spooled.docset.clone() } else { None };
        let placement = place(&mut manifest, source, spec, docset.as_ref())?;
        let mut spooled = if placement.prefix == early.prefix {
            early.spooled
        } else {
            drop(early);
            read(source, spec.format, (&placement.prefix, Some(&placement.id.locale)), &deadline, progress)?
        };
        skip_unservable(&mut spooled);
        let source_folder = source.display().to_string();
        let installed = |link: &lectern_corpus::links::Outside| view.outside_page(link);
        let others = lectern_corpus::links::OtherEditions { source: &source_folder, page: &installed };
        let links = spooled
            .check_links_with(&placement.prefix, Some(others))
            .map_err(|e| deadline.source_error(e))?;
        let locale_said = spec.locale.is_some() || docset.as_ref().is_some_and(|d| d.locale.is_some());
        let locale_guessed = (!locale_said).then(|| placement.id.locale.clone());
        let mut record = edition_record(&placement, spec, source, docset.as_ref(), &spooled);
        if spec.default {
            for e in manifest.editions.iter_mut() {
                e.default = false;
            }
        }
        let existing = placement.existing;
        let outcome = match &existing {
            Some(e) if e.content_hash == record.content_hash => {
                record.pages = e.pages;
                record.sections = e.sections;
                manifest.upsert(record.clone());
                self.commit_fields(&view.manifest, &manifest, progress)?
            }
            _ => {
                let outcome = if existing.is_some() { AddOutcome::Updated } else { AddOutcome::Installed };
                self.index_pages(manifest, &mut record, &spooled, source, &deadline, progress)?;
                outcome
            }
        };
        let mut report = self.report(outcome, record, spooled, started)?;
        report.links = links;
        report.locale_guessed = locale_guessed;
        Ok(report)
    }

    /// Same content as installed: only the recorded fields may have changed,
    /// so commit the manifest alone, or nothing when it is unchanged.
    fn commit_fields(
        &self,
        before: &Manifest,
        manifest: &Manifest,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<AddOutcome, LibraryError> {
        if manifest == before {
            return Ok(AddOutcome::Unchanged);
        }
        progress(Progress::Committing);
        self.commit_manifest(manifest)?;
        Ok(AddOutcome::Updated)
    }

    /// New or changed content: replaces the edition's pages in the index
    /// (drafts left out; a source with nothing published is an error) and
    /// commits them with the manifest, counting pages and sections into
    /// `record`. Pages come back from the spool one at a time; past the
    /// deadline the writer is dropped uncommitted, so nothing changes.
    fn index_pages(
        &self,
        mut manifest: Manifest,
        record: &mut EditionRecord,
        spooled: &Spooled,
        source: &Path,
        deadline: &Deadline,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(), LibraryError> {
        let total = spooled.entries().iter().filter(|e| !e.draft).count();
        if total == 0 {
            return Err(SourceError::Empty {
                path: source.to_path_buf(),
                problems: spooled.problems.clone(),
                drafts: spooled.entries().len(),
            }
            .into());
        }
        let mut writer = self.index.writer()?;
        writer.delete_edition(&record.id);
        for (done, entry) in spooled.entries().iter().filter(|e| !e.draft).enumerate() {
            if Instant::now() >= deadline.at {
                return Err(deadline
                    .error(format!("{}: stopped after indexing {done} of {total} pages", source.display())));
            }
            let page = spooled.page(entry)?;
            writer.add_page(&record.id, &page)?;
            record.pages += 1;
            record.sections += page.sections.len();
            if done % 32 == 0 || done + 1 == total {
                progress(Progress::Indexing { done: done + 1, total });
            }
        }
        // The paths that lead to a page under another path (an old
        // address, a file's other name) are read as that page.
        for (from, to) in spooled.moved() {
            if SitePath::parse(from).is_ok() {
                writer.add_moved(&record.id, from, to)?;
            }
        }
        // Asset bytes are in place before the commit that names them; one
        // asset is in memory at a time.
        let mut stored = std::collections::HashSet::new();
        for asset in spooled.assets() {
            if Instant::now() >= deadline.at {
                return Err(deadline.error(format!("{}: stopped while storing assets", source.display())));
            }
            if SitePath::parse(&asset.path).is_err() {
                continue;
            }
            if stored.insert(asset.hash.clone()) {
                crate::assets::store(&self.root, &asset.hash, &spooled.asset_bytes(asset)?)?;
            }
            writer.add_asset(&record.id, &asset.path, &asset.hash, asset.content_type, asset.size)?;
        }
        manifest.upsert(record.clone());
        progress(Progress::Committing);
        writer.commit(&manifest.to_payload())?;
        self.sweep_assets();
        Ok(())
    }

    /// What the add did, with the generation it left current.
    fn report(
        &self,
        outcome: AddOutcome,
        edition: EditionRecord,
        spooled: Spooled,
        started: Instant,
    ) -> Result<AddReport, LibraryError> {
        let drafts_skipped = spooled.entries().iter().filter(|e| e.draft).count();
        let (moved, moved_total) =
            (spooled.moved().iter().take(MOVED_SHOWN).cloned().collect(), spooled.moved().len());
        Ok(AddReport {
            outcome,
            edition,
            problems: spooled.problems,
            drafts_skipped,
            generation: self.view()?.generation.clone(),
            elapsed_ms: started.elapsed().as_millis() as u64,
            links: Default::default(),
            locale_guessed: None,
            moved,
            moved_total,
            assets: spooled.asset_summary,
        })
    }
}

/// Reads the source under the prefix `manifest` would give it (a copy: the
/// caller places the edition again in the manifest it commits).
fn read_placed(
    mut manifest: Manifest,
    source: &Path,
    spec: &EditionSpec,
    deadline: &Deadline,
    progress: &mut dyn FnMut(Progress),
) -> Result<Read, LibraryError> {
    let probed = probe_docset(source, spec, deadline, progress)?;
    let docset = probed.as_ref().and_then(|s| s.docset.clone());
    let placement = place(&mut manifest, source, spec, docset.as_ref())?;
    let spooled = match probed {
        Some(s) if placement.prefix.is_empty() => s,
        _ => read(source, spec.format, (&placement.prefix, Some(&placement.id.locale)), deadline, progress)?,
    };
    Ok(Read { prefix: placement.prefix, spooled })
}

/// The source as an absolute path (the manifest records it, and repair
/// re-reads it from anywhere); a missing source fails before anything is read.
fn existing_source(source: &Path) -> Result<PathBuf, LibraryError> {
    let source = std::path::absolute(source).map_err(|e| LibraryError::io(source, e))?;
    if !source.exists() {
        return Err(lectern_corpus::SourceError::NotFound { path: source }.into());
    }
    Ok(source)
}

/// Without `--project` the source must name itself, and only a Dash docset
/// does: it is read once without a prefix to learn its name (and reused when
/// its prefix turns out empty). None when the project was given.
fn probe_docset(
    source: &Path,
    spec: &EditionSpec,
    deadline: &Deadline,
    progress: &mut dyn FnMut(Progress),
) -> Result<Option<Spooled>, LibraryError> {
    if spec.project.is_some() {
        return Ok(None);
    }
    let ingested = read(source, spec.format, ("", None), deadline, progress)?;
    if ingested.docset.is_none() {
        return Err(invalid(format!(
            "{}: give --project (and --version, --locale) for a {} source; only Dash docsets name themselves",
            source.display(),
            format_name(ingested.format)
        )));
    }
    Ok(Some(ingested))
}

/// Decides the edition's id, status, prefix and aliases, in that order (each
/// may fail with its own message). Fixes the library's unprefixed locale in
/// `manifest` on its first install.
fn place(
    manifest: &mut Manifest,
    source: &Path,
    spec: &EditionSpec,
    docset: Option<&DocsetInfo>,
) -> Result<Placement, LibraryError> {
    let id = edition_id(manifest, source, spec, docset)?;
    let existing = manifest.edition(&id.to_string()).cloned();
    let status = edition_status(manifest, spec, &id, existing.as_ref());
    let prefix = edition_prefix(manifest, spec, &id, existing.as_ref(), status)?;
    let aliases = edition_aliases(spec, docset, existing.as_ref(), &id.project)?;
    Ok(Placement { id, existing, status, prefix, aliases })
}

/// Project and version from the flags, else from the docset (a docset's
/// version is `latest`); the locale from the flags, else the docset's own,
/// else (for other sources) the library's unprefixed locale, else `en`.
fn edition_id(
    manifest: &Manifest,
    source: &Path,
    spec: &EditionSpec,
    docset: Option<&DocsetInfo>,
) -> Result<EditionId, LibraryError> {
    let project = match (&spec.project, docset) {
        (Some(p), _) => p.clone(),
        (None, Some(d)) => sanitize_project(&d.identifier, &d.name),
        (None, None) => unreachable!("probe_docset fails on a source that names no project"),
    };
    let version = match (&spec.version, docset) {
        (Some(v), _) => v.clone(),
        (None, Some(_)) => "latest".to_owned(),
        (None, None) => {
            return Err(invalid(format!("{}: give --version (e.g. --version 18)", source.display())));
        }
    };
    // A docset says its language itself (or is taken to be English): the
    // library's unprefixed locale is another source's, not the docset's.
    let locale = match docset {
        Some(d) => spec.locale.clone().or_else(|| d.locale.clone()),
        None => spec.locale.clone().or_else(|| manifest.unprefixed_locale()),
    }
    .unwrap_or_else(|| "en".to_owned());
    EditionId::new(&project, &version, &locale, spec.domain.as_deref(), spec.collection.as_deref())
}

/// The status from the flags, else the recorded one. A version shares its
/// status across locales; otherwise the first version of a project is
/// current and later ones supported.
fn edition_status(
    manifest: &Manifest,
    spec: &EditionSpec,
    id: &EditionId,
    existing: Option<&EditionRecord>,
) -> Status {
    spec.status.or(existing.map(|e| e.status)).unwrap_or_else(|| {
        manifest
            .editions
            .iter()
            .find(|e| e.project == id.project && e.version == id.version)
            .map(|e| e.status)
            .unwrap_or(
                if manifest.editions.iter().any(|e| e.project == id.project && e.status == Status::Current) {
                    Status::Supported
                } else {
                    Status::Current
                },
            )
    })
}

/// The prefix from the flags (validated), else the recorded one while the
/// status is unchanged, else derived by the prefix rule. Two editions never
/// share a prefix. The first install fixes the unprefixed locale in
/// `manifest`, so later prefixes do not drift.
fn edition_prefix(
    manifest: &mut Manifest,
    spec: &EditionSpec,
    id: &EditionId,
    existing: Option<&EditionRecord>,
    status: Status,
) -> Result<String, LibraryError> {
    let prefix_locale = match manifest.unprefixed_locale() {
        Some(l) => l,
        None => manifest.unprefixed_locale.insert(id.locale.clone()).clone(),
    };
    let prefix = match &spec.prefix {
        Some(p) => {
            lectern_corpus::names::prefix(p).map_err(|m| invalid(format!("prefix: {m}")))?;
            p.clone()
        }
        None => existing
            .filter(|e| e.status == status)
            .map(|e| e.prefix.clone())
            .unwrap_or_else(|| derive_prefix(id, status == Status::Current, Some(&prefix_locale))),
    };
    let id_string = id.to_string();
    if let Some(other) = manifest.editions.iter().find(|e| e.prefix == prefix && e.id != id_string) {
        return Err(invalid(format!(
            "prefix {prefix} is already used by {}; give this edition another --prefix",
            other.id
        )));
    }
    Ok(prefix)
}

/// The aliases from the flags plus the docset's platform family, else the
/// recorded ones; validated, lowercase, sorted, without the project name.
fn edition_aliases(
    spec: &EditionSpec,
    docset: Option<&DocsetInfo>,
    existing: Option<&EditionRecord>,
    project: &str,
) -> Result<Vec<String>, LibraryError> {
    let mut aliases: Vec<String> = spec.aliases.iter().map(|a| a.to_ascii_lowercase()).collect();
    if let Some(f) = docset.and_then(|d| d.platform_family.clone()) {
        aliases.push(f.to_ascii_lowercase());
    }
    if aliases.is_empty()
        && let Some(e) = existing
    {
        aliases = e.aliases.clone();
    }
    for a in &aliases {
        lectern_corpus::names::alias(a).map_err(|m| invalid(format!("alias {a:?}: {m}")))?;
    }
    aliases.sort();
    aliases.dedup();
    aliases.retain(|a| a != project);
    Ok(aliases)
}

/// The record to commit: each field from the flags, else the recorded
/// edition, else the source (the docset's name as label, or the project
/// as its pages' titles spell it and the version: `PostgreSQL 18`). Pages and sections are counted when indexing.
fn edition_record(
    placement: &Placement,
    spec: &EditionSpec,
    source: &Path,
    docset: Option<&DocsetInfo>,
    ingested: &Spooled,
) -> EditionRecord {
    let Placement { id, existing, status, prefix, aliases } = placement;
    let existing = existing.as_ref();
    let label = spec.label.clone().or(existing.map(|e| e.label.clone())).unwrap_or_else(|| match docset {
        Some(d) => d.name.clone(),
        // The project as its pages spell it (`PostgreSQL 18`, `MkDocs 1.4`).
        None => {
            let name = ingested.spelling_in_titles(&id.project).unwrap_or_else(|| title_case(&id.project));
            format!("{name} {}", id.version)
        }
    });
    EditionRecord {
        id: id.to_string(),
        project: id.project.clone(),
        aliases: aliases.clone(),
        version: id.version.clone(),
        locale: id.locale.clone(),
        domain: id.domain.clone(),
        collection: id.collection.clone(),
        label,
        r#ref: spec.r#ref.clone().or(existing.and_then(|e| e.r#ref.clone())),
        status: *status,
        prefix: prefix.clone(),
        enabled: spec.enabled.or(existing.map(|e| e.enabled)).unwrap_or(true),
        default: spec.default || existing.is_some_and(|e| e.default),
        source: source.display().to_string(),
        format: format_name(ingested.format).to_owned(),
        content_hash: ingested.content_hash.clone(),
        pages: 0,
        sections: 0,
        skipped: ingested.problems.len(),
    }
}

/// Reads the source under `prefix`, as an edition in `locale` (which picks
/// its files where the source names them for several languages).
fn read(
    source: &Path,
    format: SourceFormat,
    (prefix, locale): (&str, Option<&str>),
    deadline: &Deadline,
    progress: &mut dyn FnMut(Progress),
) -> Result<Spooled, LibraryError> {
    let options = ReadOptions {
        format,
        prefix: prefix.to_owned(),
        max_file_bytes: lectern_corpus::source::MAX_FILE_BYTES,
        deadline: Some(deadline.at),
        locale: locale.map(str::to_owned),
    };
    lectern_corpus::spool_source(source, &options, &mut |done, total| {
        progress(Progress::Reading { done, total })
    })
    .map_err(|e| deadline.source_error(e))
}

/// Moves pages whose path no face could serve (a file name with a control
/// character, a `#`, surrounding space, or too long) to the problems: a page
/// is published only at a path that reads back as itself, so every face
/// (site, `llms.txt`, sitemap, API, MCP) lists only pages it can answer.
fn skip_unservable(spooled: &mut Spooled) {
    let servable = |path: &str| SitePath::parse(path).is_ok_and(|p| p.as_str() == path);
    let skipped = spooled.retain(|e| servable(&e.path));
    spooled.problems.extend(skipped.into_iter().map(|entry| Problem {
        reason: format!(
            "its page path {:?} cannot be served (a site path has at most {MAX_PATH_BYTES} bytes, \
             no control characters, no `#` and no surrounding space); rename the file",
            entry.path.chars().take(80).collect::<String>()
        ),
        path: entry.source_file,
    }));
}

/// Parses `--format` / a config's `format`.
pub fn parse_format(format: Option<&str>) -> Result<SourceFormat, LibraryError> {
    match format.map(str::to_ascii_lowercase).as_deref() {
        None | Some("auto") => Ok(SourceFormat::Auto),
        Some("markdown" | "md") => Ok(SourceFormat::Markdown),
        Some("html") => Ok(SourceFormat::Html),
        Some("docset" | "dash") => Ok(SourceFormat::Docset),
        Some(other) => {
            Err(invalid(format!("unknown format {other:?}; allowed: auto, markdown, html, docset")))
        }
    }
}

fn format_name(format: SourceFormat) -> &'static str {
    match format {
        SourceFormat::Auto => "auto",
        SourceFormat::Markdown => "markdown",
        SourceFormat::Html => "html",
        SourceFormat::Docset => "docset",
    }
}

/// A project name from a docset's identifier or name (`Click` → `click`).
fn sanitize_project(identifier: &str, name: &str) -> String {
    let pick = if identifier.is_empty() { name } else { identifier };
    let mut out: String = pick
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-' { c } else { '-' })
        .collect();
    out = out.trim_matches(|c: char| !c.is_ascii_alphanumeric()).to_owned();
    out.truncate(64);
    if out.is_empty() { "docset".to_owned() } else { out }
}

fn title_case(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docset_names_become_project_names() {
        assert_eq!(sanitize_project("Click", "Click"), "click");
        assert_eq!(sanitize_project("", "Node.js 20"), "node.js-20");
    }
}
