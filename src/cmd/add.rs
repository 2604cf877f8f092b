//! `lectern add`: install or update an edition, or every edition of a site config.

use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
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

/// A progress bar on a terminal; nothing otherwise (the summary line says it all).
struct Bar(Option<ProgressBar>);

impl Bar {
    fn new(enabled: bool) -> Bar {
        Bar(enabled.then(|| {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg:>22} [{bar:30}] {pos}/{len} {per_sec}")
                    .expect("static template")
                    .progress_chars("=> "),
            );
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        }))
    }

    fn update(&self, what: &str, p: Progress) {
        let Some(bar) = &self.0 else { return };
        let (phase, done, total) = match p {
            Progress::Reading { done, total } => ("reading", done, total),
            Progress::Indexing { done, total } => ("indexing", done, total),
            Progress::Committing => ("committing", 0, 0),
        };
        bar.set_message(if what.is_empty() { phase.to_owned() } else { format!("{what}: {phase}") });
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
