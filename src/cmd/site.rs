//! `lectern serve --site [CONFIG] [--listen ADDR] [--read-only]`: the public
//! docs site and its `/mcp` (docs/site.md) on its own listener. With CONFIG it
//! first installs or updates the config's editions; with `--read-only` it
//! serves a library built earlier and never writes to it.

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use lectern_corpus::SiteConfig;
use lectern_library::{Library, OpenMode};

use crate::cli::ServeArgs;
use crate::config::Config;

/// Installs or updates the editions a site config names, saying so on stderr.
pub(super) fn install_editions(library: &Library, file: &std::path::Path) -> Result<()> {
    let site = SiteConfig::load(file)?;
    eprintln!("installing or updating the editions of {} ...", file.display());
    let reports = library.add_site(&site, &mut |_, _| {}, &mut super::on_wait)?;
    for r in &reports {
        eprintln!("  {:?} {} ({} pages)", r.outcome, r.edition.id, r.edition.pages);
    }
    Ok(())
}

pub fn run(config: &Config, args: ServeArgs) -> Result<()> {
    let site_file = args.site.clone().flatten();
    if let (true, Some(file)) = (args.read_only, &site_file) {
        bail!(
            "--read-only serves a library built earlier and cannot install {}; run `lectern add --site {}` first, then `lectern serve --site --read-only`",
            file.display(),
            file.display()
        );
    }
    let mode = if args.read_only { OpenMode::ReadOnly } else { OpenMode::ReadWrite };
    let library = Library::open(&config.user_data, mode)?;
    if let Some(file) = &site_file {
        install_editions(&library, file)?;
    }
    let view = library.view()?;
    let name = match view.site() {
        Some(site) => site.name.clone(),
        None => {
            eprintln!(
                "warning: this library has no site config; serving with defaults (install one with `lectern add --site lectern.toml`)"
            );
            "Documentation".to_owned()
        }
    };
    drop(view);
    let library = Arc::new(library);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .thread_name("lectern-site")
        // Searches are CPU work: threads beyond a few per core only add
        // malloc arenas, so memory would creep up under load.
        .max_blocking_threads(super::blocking_threads())
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let shutdown = super::Shutdown::install()?;
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("binding {}; pick another --listen address", args.listen))?;
        let addr = listener.local_addr()?;
        super::announce(&[
            format!("{name} is served at http://{addr}/ (MCP: http://{addr}/mcp)"),
            "Stop with Ctrl-C.".to_owned(),
        ]);
        lectern_site::run(listener, library, lectern_site::Options::default(), shutdown.wait())
            .await
            .context("serving the site")
    })
}
