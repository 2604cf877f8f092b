//! [`Library`]: the user-data folder, its index and manifest. Opening,
//! consistent views for readers, and the write path (add, enable, disable,
//! remove, settings), each write one atomic commit under the writer lock.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use lectern_corpus::{Problem, ReadOptions, SiteConfig, SourceFormat};
use lectern_index::Index;
use serde::Serialize;

pub use crate::suggest::did_you_mean;
pub(crate) use crate::suggest::levenshtein;
pub use crate::view::View;

use crate::edition::{EditionId, EditionRecord, EditionSpec, Status, derive_prefix};
use crate::error::{LibraryError, invalid};
use crate::lock::WriterLock;
use crate::manifest::Manifest;

/// How long a writer waits for another writer before giving up.
const WRITER_WAIT: Duration = Duration::from_secs(120);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// May add, switch and remove editions (creates the folder if needed).
    ReadWrite,
    /// Never writes to the folder (site replicas, `--read-only`).
    ReadOnly,
}

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
}

/// One library: a user-data folder.
pub struct Library {
    root: PathBuf,
    mode: OpenMode,
    index: Index,
    view: RwLock<Arc<View>>,
    writing: Mutex<()>,
    /// Answer repeated searches from the snapshot's result cache (on unless
    /// `LECTERN_RESULT_CACHE=0`; benchmarks of the engine turn it off).
    result_cache: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library").field("root", &self.root).field("mode", &self.mode).finish_non_exhaustive()
    }
}

impl Library {
    /// Whether repeated searches are answered from the result cache.
    pub fn result_cache(&self) -> bool {
        self.result_cache.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Turns the result cache on or off (the search benchmark measures the
    /// engine, so it turns it off).
    pub fn set_result_cache(&self, on: bool) {
        self.result_cache.store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Opens (ReadWrite: creating if needed) the library in `root`.
    pub fn open(root: &Path, mode: OpenMode) -> Result<Library, LibraryError> {
        let index_dir = root.join("index");
        let index = match mode {
            OpenMode::ReadWrite => {
                create_private_dir(root)?;
                Index::open(&index_dir)?
            }
            OpenMode::ReadOnly => {
                if !index_dir.is_dir() {
                    return Err(LibraryError::NotFound(format!(
                        "no library at {}; build one with `lectern add --site CONFIG --user-data {}`",
                        root.display(),
                        root.display()
                    )));
                }
                Index::open_read_only(&index_dir)?
            }
        };
        let view = Arc::new(View::new(index.snapshot())?);
        Ok(Library {
            root: root.to_path_buf(),
            mode,
            index,
            view: RwLock::new(view),
            writing: Mutex::new(()),
            result_cache: std::sync::atomic::AtomicBool::new(
                std::env::var("LECTERN_RESULT_CACHE").map_or(true, |v| v != "0"),
            ),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn mode(&self) -> OpenMode {
        self.mode
    }

    /// The view of the current generation if it is already built (never
    /// builds one: for callers that must not block).
    pub fn current_view(&self) -> Option<Arc<View>> {
        self.view_of(&self.index.snapshot())
    }

    /// The view built last, if it reads `snapshot`'s generation.
    fn view_of(&self, snapshot: &lectern_index::Snapshot) -> Option<Arc<View>> {
        let cached = self.view.read().ok()?;
        (cached.payload == snapshot.payload()).then(|| cached.clone())
    }

    /// The current view. Cheap: re-parses the manifest only after a commit.
    pub fn view(&self) -> Result<Arc<View>, LibraryError> {
        let snapshot = self.index.snapshot();
        if let Some(view) = self.view_of(&snapshot) {
            return Ok(view);
        }
        let fresh = Arc::new(View::new(snapshot)?);
        *self.view.write().expect("view lock") = fresh.clone();
        Ok(fresh)
    }

    /// Picks up a commit made by another process (servers call this every
    /// 250 ms). Returns true when the generation's content changed.
    pub fn refresh(&self) -> Result<bool, LibraryError> {
        Ok(self.index.refresh()?)
    }

    /// Starts a thread that calls [`Library::refresh`] every `every`, so a
    /// server picks up generations made by other processes; it stops when
    /// the returned handle is dropped.
    pub fn watch(self: &Arc<Self>, every: Duration) -> Watcher {
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (library, flag) = (Arc::clone(self), Arc::clone(&stop));
        let thread = std::thread::Builder::new()
            .name("lectern-refresh".into())
            .spawn(move || {
                while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                    std::thread::park_timeout(every);
                    match library.refresh() {
                        Ok(true) => tracing::info!("picked up a new generation"),
                        Ok(false) => {}
                        Err(e) => tracing::warn!("refreshing the library failed: {e}"),
                    }
                }
            })
            .ok();
        Watcher { stop, thread }
    }

    /// Verifies every index file's checksum.
    pub fn verify(&self) -> Result<(), LibraryError> {
        Ok(self.index.verify()?)
    }

    /// Installs or updates one edition from a source directory or archive.
    pub fn add(
        &self,
        source: &Path,
        spec: &EditionSpec,
        progress: &mut dyn FnMut(Progress),
        on_wait: &mut dyn FnMut(&str),
    ) -> Result<AddReport, LibraryError> {
        let _guard = self.begin_write(on_wait)?;
        self.add_locked(source, spec, progress)
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
            let report = self.add_locked(&e.source, &spec, &mut |p| progress(&spec, p))?;
            reports.push(report);
        }
        Ok(reports)
    }

    /// Enables or disables an edition: a new generation, no re-index.
    pub fn set_enabled(
        &self,
        id: &str,
        enabled: bool,
        on_wait: &mut dyn FnMut(&str),
    ) -> Result<String, LibraryError> {
        let _guard = self.begin_write(on_wait)?;
        let view = self.view()?;
        let mut record = view.edition(id)?.clone();
        if record.enabled == enabled {
            return Ok(view.generation.clone());
        }
        record.enabled = enabled;
        let mut manifest = view.manifest.clone();
        manifest.upsert(record);
        self.commit_manifest(&manifest)
    }

    /// Removes an edition and its documents.
    pub fn remove(&self, id: &str, on_wait: &mut dyn FnMut(&str)) -> Result<String, LibraryError> {
        let _guard = self.begin_write(on_wait)?;
        let view = self.view()?;
        let record = view.edition(id)?.clone();
        let mut manifest = view.manifest.clone();
        manifest.editions.retain(|e| e.id != record.id);
        let mut writer = self.index.writer()?;
        writer.delete_edition(&record.id);
        writer.commit(&manifest.to_payload())?;
        Ok(self.view()?.generation.clone())
    }

    /// Sets a library setting (validated); returns the stored value.
    pub fn set_setting(
        &self,
        key: &str,
        value: &str,
        on_wait: &mut dyn FnMut(&str),
    ) -> Result<String, LibraryError> {
        let value = crate::settings::validate(key, value)?;
        let _guard = self.begin_write(on_wait)?;
        let mut manifest = self.view()?.manifest.clone();
        if manifest.settings.get(key) != Some(&value) {
            manifest.settings.insert(key.to_owned(), value.clone());
            self.commit_manifest(&manifest)?;
        }
        Ok(value)
    }

    /// Removes a setting, so its default applies again.
    pub fn unset_setting(&self, key: &str, on_wait: &mut dyn FnMut(&str)) -> Result<(), LibraryError> {
        let _guard = self.begin_write(on_wait)?;
        let mut manifest = self.view()?.manifest.clone();
        if manifest.settings.remove(key).is_some() {
            self.commit_manifest(&manifest)?;
        }
        Ok(())
    }

    fn begin_write(&self, on_wait: &mut dyn FnMut(&str)) -> Result<WriteGuard<'_>, LibraryError> {
        if self.mode == OpenMode::ReadOnly {
            return Err(invalid(format!(
                "the library at {} is open read-only; run this without --read-only",
                self.root.display()
            )));
        }
        let thread = self.writing.lock().unwrap_or_else(|p| p.into_inner());
        let file = WriterLock::acquire(&self.root.join("lock"), WRITER_WAIT, on_wait)?;
        // Another process may have committed since our last look.
        self.index.refresh()?;
        Ok(WriteGuard { _thread: thread, _file: file })
    }

    fn commit_manifest(&self, manifest: &Manifest) -> Result<String, LibraryError> {
        let writer = self.index.writer()?;
        writer.commit(&manifest.to_payload())?;
        Ok(self.view()?.generation.clone())
    }

    fn add_locked(
        &self,
        source: &Path,
        spec: &EditionSpec,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<AddReport, LibraryError> {
        let started = Instant::now();
        let source = std::path::absolute(source).map_err(|e| LibraryError::io(source, e))?;
        if !source.exists() {
            return Err(lectern_corpus::SourceError::NotFound { path: source }.into());
        }
        let view = self.view()?;
        let mut manifest = view.manifest.clone();

        // A docset names itself: read it once without a prefix to learn its name.
        let mut probed = None;
        if spec.project.is_none() {
            let ingested = read(&source, spec.format, "", progress)?;
            if ingested.docset.is_none() {
                return Err(invalid(format!(
                    "{}: give --project (and --version, --locale) for a {} source; only Dash docsets name themselves",
                    source.display(),
                    format_name(ingested.format)
                )));
            }
            probed = Some(ingested);
        }
        let docset = probed.as_ref().and_then(|i| i.docset.clone());
        let project = match (&spec.project, &docset) {
            (Some(p), _) => p.clone(),
            (None, Some(d)) => sanitize_project(&d.identifier, &d.name),
            (None, None) => unreachable!("checked above"),
        };
        let version = match (&spec.version, &docset) {
            (Some(v), _) => v.clone(),
            (None, Some(_)) => "latest".to_owned(),
            (None, None) => {
                return Err(invalid(format!("{}: give --version (e.g. --version 18)", source.display())));
            }
        };
        let locale =
            spec.locale.clone().or_else(|| manifest.unprefixed_locale()).unwrap_or_else(|| "en".to_owned());
        let id =
            EditionId::new(&project, &version, &locale, spec.domain.as_deref(), spec.collection.as_deref())?;
        let id_string = id.to_string();
        let existing = manifest.edition(&id_string).cloned();

        let status = spec.status.or(existing.as_ref().map(|e| e.status)).unwrap_or_else(|| {
            // A version shares its status across locales; the first version of a project is current.
            manifest
                .editions
                .iter()
                .find(|e| e.project == id.project && e.version == id.version)
                .map(|e| e.status)
                .unwrap_or(
                    if manifest
                        .editions
                        .iter()
                        .any(|e| e.project == id.project && e.status == Status::Current)
                    {
                        Status::Supported
                    } else {
                        Status::Current
                    },
                )
        });
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
                .as_ref()
                .filter(|e| e.status == status)
                .map(|e| e.prefix.clone())
                .unwrap_or_else(|| derive_prefix(&id, status == Status::Current, Some(&prefix_locale))),
        };
        if let Some(other) = manifest.editions.iter().find(|e| e.prefix == prefix && e.id != id_string) {
            return Err(invalid(format!(
                "prefix {prefix} is already used by {}; give this edition another --prefix",
                other.id
            )));
        }
        let mut aliases: Vec<String> = spec.aliases.iter().map(|a| a.to_ascii_lowercase()).collect();
        if let Some(f) = docset.as_ref().and_then(|d| d.platform_family.clone()) {
            aliases.push(f.to_ascii_lowercase());
        }
        if aliases.is_empty()
            && let Some(e) = &existing
        {
            aliases = e.aliases.clone();
        }
        for a in &aliases {
            lectern_corpus::names::alias(a).map_err(|m| invalid(format!("alias {a:?}: {m}")))?;
        }
        aliases.sort();
        aliases.dedup();
        aliases.retain(|a| *a != id.project);

        let ingested = match probed {
            Some(i) if prefix.is_empty() => i,
            _ => read(&source, spec.format, &prefix, progress)?,
        };
        let drafts_skipped = ingested.pages.iter().filter(|p| p.draft).count();
        let label =
            spec.label.clone().or(existing.as_ref().map(|e| e.label.clone())).unwrap_or_else(
                || match &docset {
                    Some(d) => d.name.clone(),
                    None => format!("{} {}", title_case(&id.project), id.version),
                },
            );
        let mut record = EditionRecord {
            id: id_string.clone(),
            project: id.project.clone(),
            aliases,
            version: id.version.clone(),
            locale: id.locale.clone(),
            domain: id.domain.clone(),
            collection: id.collection.clone(),
            label,
            r#ref: spec.r#ref.clone().or(existing.as_ref().and_then(|e| e.r#ref.clone())),
            status,
            prefix,
            enabled: spec.enabled.or(existing.as_ref().map(|e| e.enabled)).unwrap_or(true),
            default: spec.default || existing.as_ref().is_some_and(|e| e.default),
            source: source.display().to_string(),
            format: format_name(ingested.format).to_owned(),
            content_hash: ingested.content_hash.clone(),
            pages: 0,
            sections: 0,
            skipped: ingested.problems.len(),
        };
        let content_same = existing.as_ref().is_some_and(|e| e.content_hash == record.content_hash);
        if spec.default {
            for e in manifest.editions.iter_mut() {
                e.default = false;
            }
        }
        let outcome;
        if content_same {
            let e = existing.as_ref().expect("content_same implies existing");
            record.pages = e.pages;
            record.sections = e.sections;
            manifest.upsert(record.clone());
            if manifest == view.manifest {
                outcome = AddOutcome::Unchanged;
            } else {
                outcome = AddOutcome::Updated;
                progress(Progress::Committing);
                self.commit_manifest(&manifest)?;
            }
        } else {
            outcome = if existing.is_some() { AddOutcome::Updated } else { AddOutcome::Installed };
            let mut writer = self.index.writer()?;
            writer.delete_edition(&id_string);
            let published: Vec<_> = ingested.pages.iter().filter(|p| !p.draft).collect();
            if published.is_empty() {
                return Err(lectern_corpus::SourceError::Empty {
                    path: source,
                    problems: ingested.problems.clone(),
                    drafts: ingested.pages.len(),
                }
                .into());
            }
            let total = published.len();
            for (done, page) in published.iter().enumerate() {
                writer.add_page(&id_string, page)?;
                record.pages += 1;
                record.sections += page.sections.len();
                if done % 32 == 0 || done + 1 == total {
                    progress(Progress::Indexing { done: done + 1, total });
                }
            }
            manifest.upsert(record.clone());
            progress(Progress::Committing);
            writer.commit(&manifest.to_payload())?;
        }
        let generation = self.view()?.generation.clone();
        Ok(AddReport {
            outcome,
            edition: record,
            problems: ingested.problems,
            drafts_skipped,
            generation,
            elapsed_ms: started.elapsed().as_millis() as u64,
        })
    }
}

/// Stops the refresh thread of [`Library::watch`] when dropped.
#[derive(Debug)]
pub struct Watcher {
    stop: Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

struct WriteGuard<'a> {
    _thread: std::sync::MutexGuard<'a, ()>,
    _file: WriterLock,
}

fn read(
    source: &Path,
    format: SourceFormat,
    prefix: &str,
    progress: &mut dyn FnMut(Progress),
) -> Result<lectern_corpus::Ingested, LibraryError> {
    let options = ReadOptions {
        format,
        prefix: prefix.to_owned(),
        max_file_bytes: lectern_corpus::source::MAX_FILE_BYTES,
    };
    Ok(lectern_corpus::read_source(source, &options, &mut |done, total| {
        progress(Progress::Reading { done, total })
    })?)
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

/// Creates the folder (and parents) with mode 0700 for the last component.
fn create_private_dir(root: &Path) -> Result<(), LibraryError> {
    if root.is_dir() {
        return Ok(());
    }
    std::fs::create_dir_all(root).map_err(|e| LibraryError::io(root, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| LibraryError::io(root, e))?;
    }
    Ok(())
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
