//! `lectern add`: install or update an edition, or every edition of a site config.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use lectern_corpus::SiteConfig;
use lectern_library::library::parse_format;
use lectern_library::{AddOutcome, AddReport, EditionSpec, Progress};

use crate::cli::AddArgs;
use crate::config::Config;
use crate::output;

pub fn run(config: &Config, args: AddArgs) -> Result<()> {
    let library = super::open_rw(config)?;
    let bar = Bar::new(config.progress);
    let reports = if let Some(site) = &args.site {
        let site = SiteConfig::load(site)?;
        library.add_site(
            &site,
            &mut |spec, p| bar.update(spec.project.as_deref().unwrap_or(""), p),
            &mut super::on_wait,
        )?
    } else {
        let source = args.source.as_ref().context("give a SOURCE folder or archive, or --site CONFIG")?;
        let spec = EditionSpec {
            project: args.project.clone(),
            aliases: args.aliases.clone(),
            version: args.version.clone(),
            locale: args.locale.clone(),
            domain: args.domain.clone(),
            collection: args.collection.clone(),
            label: args.label.clone(),
            r#ref: args.git_ref.clone(),
            status: args.status.as_deref().map(str::parse).transpose()?,
            prefix: args.prefix.clone(),
            default: args.default,
            enabled: args.disabled.then_some(false),
            format: parse_format(Some(&args.format))?,
        };
        vec![library.add(source, &spec, &mut |p| bar.update("", p), &mut super::on_wait)?]
    };
    bar.finish();
    if args.json {
        return output::json(&reports);
    }
    for r in &reports {
        print_report(r)?;
    }
    no_default_project_note(&library)
}

/// Warns when the library now holds several projects and none is its
/// default: a search must then name one (`project:NAME`) or all.
fn no_default_project_note(library: &lectern_library::Library) -> Result<()> {
    let list = library.list(&lectern_library::ListRequest { all: false, generation: None })?;
    let mut projects: Vec<&str> =
        list.editions.iter().filter(|e| e.enabled).map(|e| e.project.as_str()).collect();
    projects.sort_unstable();
    projects.dedup();
    if list.defaults.project.is_none() && projects.len() > 1 {
        tracing::warn!(
            "several projects are installed ({}) and none is the default: searches name one \
             (project:NAME, or project:* for all), or set one with `lectern config set default.project NAME`",
            projects.join(", ")
        );
    }
    Ok(())
}

fn print_report(r: &AddReport) -> Result<()> {
    let e = &r.edition;
    let verb = match r.outcome {
        AddOutcome::Installed => "installed",
        AddOutcome::Updated => "updated",
        AddOutcome::Unchanged => "unchanged",
    };
    outln!(
        "{verb} {} ({}) at {}: {} pages, {} sections, {} files skipped{}, {:.1} s; generation {}",
        e.id,
        e.label,
        e.prefix,
        e.pages,
        e.sections,
        r.problems.len(),
        if r.drafts_skipped > 0 {
            format!(", {} drafts not published", r.drafts_skipped)
        } else {
            String::new()
        },
        r.elapsed_ms as f64 / 1000.0,
        r.generation
    )?;
    outln!("  {}", r.links.summary())?;
    if r.assets != Default::default() {
        outln!("  {}", r.assets.summary())?;
    }
    if r.moved_total > 0 {
        let shown: Vec<String> = r.moved.iter().map(|(from, to)| format!("{from} → {to}")).collect();
        let more = if r.moved_total > shown.len() { ", …" } else { "" };
        outln!(
            "  {} other paths read as the page they lead to (old addresses, files' other names, paths without order numbers): {}{more}",
            r.moved_total,
            shown.join(", ")
        )?;
    }
    if let Some(locale) = &r.locale_guessed {
        outln!("  locale {locale}: neither --locale nor the source gave one (pass --locale to set it)")?;
    }
    for p in r.problems.iter().take(20) {
        eprintln!("  skipped {}: {}", p.path, p.reason);
    }
    if r.problems.len() > 20 {
        eprintln!("  ... and {} more skipped files (see --json)", r.problems.len() - 20);
    }
    Ok(())
}

/// A progress line on a terminal, redrawn at most ten times a second;
/// nothing otherwise (the summary line says it all).
struct Bar(Option<std::cell::RefCell<BarState>>);

struct BarState {
    started: Instant,
    drawn: Option<Instant>,
}

impl Bar {
    fn new(enabled: bool) -> Bar {
        Bar(enabled.then(|| std::cell::RefCell::new(BarState { started: Instant::now(), drawn: None })))
    }

    fn update(&self, what: &str, p: Progress) {
        let Some(state) = &self.0 else { return };
        let mut state = state.borrow_mut();
        let (phase, done, total) = match p {
            Progress::Reading { done, total } => ("reading", done, total),
            Progress::Indexing { done, total } => ("indexing", done, total),
            Progress::Committing => ("committing", 0, 0),
        };
        let now = Instant::now();
        let last = done == total;
        if state.drawn.is_some_and(|t| now - t < Duration::from_millis(100)) && !last {
            return;
        }
        state.drawn = Some(now);
        let message = if what.is_empty() { phase.to_owned() } else { format!("{what}: {phase}") };
        let line = progress_line(&message, done, total, now - state.started);
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.0.as_ref().is_some_and(|s| s.borrow().drawn.is_some()) {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

/// `   python: reading [=========>         ] 310/1000 52/s`: the phase, a
/// 30-column bar, the count and the rate since the add began; only the
/// phase when it has no count (committing).
fn progress_line(message: &str, done: usize, total: usize, elapsed: Duration) -> String {
    const WIDTH: usize = 30;
    if total == 0 {
        return format!("{message:>22}");
    }
    let filled = (done.min(total) * WIDTH) / total;
    let mut bar = "=".repeat(filled);
    if filled < WIDTH {
        bar.push(if filled == 0 { ' ' } else { '>' });
        bar.push_str(&" ".repeat(WIDTH - filled - 1));
    }
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { (done as f64 / secs).round() as u64 } else { 0 };
    format!("{message:>22} [{bar}] {done}/{total} {rate}/s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_line_shows_phase_bar_count_and_rate() {
        let line = progress_line("python: reading", 10, 40, Duration::from_secs(2));
        assert_eq!(line, "       python: reading [=======>                      ] 10/40 5/s");
        let full = progress_line("indexing", 40, 40, Duration::from_secs(4));
        assert!(full.contains(&format!("[{}]", "=".repeat(30))), "{full}");
        let start = progress_line("reading", 0, 7, Duration::ZERO);
        assert!(start.ends_with(&format!("[{}] 0/7 0/s", " ".repeat(30))), "{start}");
        assert_eq!(progress_line("committing", 0, 0, Duration::from_secs(1)).trim(), "committing");
    }
}
