//! `lectern export --site [CONFIG] --out DIR [--force]`: the public docs
//! site as static files for any static host (docs/site.md, "Static
//! export"): each published page as `path/index.html` and `path.md`,
//! `llms.txt`, `sitemap.xml`, `404.html` and the other fixed routes, the
//! bytes `serve --site` answers for the same generation. Writes only what
//! changed and removes the files of pages no longer published.

mod folder;

use std::collections::BTreeSet;
use std::sync::Arc;

use anyhow::{Context, Result};
use lectern_library::{Library, OpenMode};
use lectern_site::export::{self, Rendered, Renderer};

use crate::cli::ExportArgs;
use crate::config::Config;
use folder::{Folder, Write};

/// An empty file that tells GitHub Pages not to run Jekyll over the files
/// (it would turn every `.md` into HTML); other hosts ignore it.
const NO_JEKYLL: &str = ".nojekyll";

/// Counts for the closing line.
#[derive(Default)]
struct Tally {
    new: usize,
    changed: usize,
    unchanged: usize,
}

pub fn run(config: &Config, args: ExportArgs) -> Result<()> {
    let site_file = args.site.clone().flatten();
    let mode = if site_file.is_some() { OpenMode::ReadWrite } else { OpenMode::ReadOnly };
    let library = Library::open(&config.user_data, mode)?;
    if let Some(file) = &site_file {
        super::site::install_editions(&library, file)?;
    }
    // Nothing refreshes this library, so every file below comes from this
    // one generation even while another process publishes the next.
    let view = library.view()?;
    let generation = view.generation().to_owned();
    let (files, skipped) = export::export_files(&view);
    drop(view);
    for why in &skipped {
        eprintln!("warning: left out {why}");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .thread_name("lectern-export")
        .max_blocking_threads(super::blocking_threads())
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    // The router's /mcp service is made inside the runtime, as when serving.
    let renderer = {
        let _inside = runtime.enter();
        Renderer::new(Arc::new(library))?
    };
    let out = Folder::open(&args.out, args.force)?;
    let mut names: BTreeSet<String> = files.iter().map(|f| f.file.clone()).collect();
    names.insert(NO_JEKYLL.to_owned());
    let removed = out.begin(&generation, &names)?;

    let mut tally = Tally::default();
    let mut count = |w: Write| match w {
        Write::New => tally.new += 1,
        Write::Changed => tally.changed += 1,
        Write::Unchanged => tally.unchanged += 1,
    };
    count(out.write(NO_JEKYLL, b"")?);
    runtime.block_on(renderer.render_all(files, super::blocking_threads(), |file, rendered| {
        let bytes = match rendered {
            Rendered::Body(bytes) | Rendered::Redirect { page: bytes, .. } => bytes,
            Rendered::Absent => {
                names.remove(&file.file);
                return out.forget(&file.file);
            }
            Rendered::Refused { status, message } => {
                eprintln!(
                    "warning: left out {} ({}): the site answers {status}: {message}",
                    file.file, file.url
                );
                names.remove(&file.file);
                return out.forget(&file.file);
            }
        };
        count(out.write(&file.file, &bytes)?);
        Ok(())
    }))?;
    out.finish(&generation, names)?;
    let Tally { new, changed, unchanged } = tally;
    eprintln!(
        "exported generation {generation} to {}: {} files ({new} new, {changed} changed, {unchanged} unchanged), {removed} removed",
        args.out.display(),
        new + changed + unchanged
    );
    Ok(())
}
