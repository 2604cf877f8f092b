//! `lectern serve` (without `--site`): the local API and web page on 127.0.0.1 for one
//! user-data folder (or, with `--demo`, a fresh temporary library of the
//! bundled demo site), until Ctrl-C or SIGTERM.

use std::sync::Arc;

use anyhow::{Context, Result};
use lectern_api::{Options, challenge};
use lectern_library::{Library, OpenMode};

use crate::cli::ServeArgs;
use crate::config::Config;

pub fn run(config: &Config, args: ServeArgs) -> Result<()> {
    let mut _demo_dir = None;
    let user_data = if args.demo {
        let dir = tempfile::Builder::new()
            .prefix("lectern-demo-")
            .tempdir()
            .context("creating a temporary folder for --demo")?;
        let site = crate::demo::install(&dir.path().join("site")).context("writing the demo site")?;
        let user_data = dir.path().join("user-data");
        let library = Library::open(&user_data, OpenMode::ReadWrite)?;
        let config = lectern_corpus::SiteConfig::load(&site)?;
        eprintln!("installing the demo site into {} ...", user_data.display());
        library.add_site(&config, &mut |_, _| {}, &mut super::on_wait)?;
        _demo_dir = Some(dir);
        user_data
    } else {
        config.user_data.clone()
    };
    let library = Arc::new(Library::open(&user_data, OpenMode::ReadWrite)?);
    // Before binding: a second server for the same folder is refused here.
    let mut files = super::claim_server_files(&user_data)?;
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .context("finding this program's path (for the Integrations page)")?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("lectern-api")
        // Searches are CPU work: threads beyond a few per core only add
        // malloc arenas, so memory would creep up under load.
        .max_blocking_threads(super::blocking_threads())
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let shutdown = super::Shutdown::install()?;
        let port = args.port.unwrap_or(0);
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.with_context(|| {
            format!("binding 127.0.0.1:{port}; pick another --port or leave it out for any free port")
        })?;
        let port = listener.local_addr()?.port();
        let key = files.publish(port)?;
        let token = challenge::random_hex();
        let mut options = Options::new(key, exe, user_data.clone());
        options.initial_login_token = Some(token.clone());
        options.demo = args.demo;
        super::announce(&[
            format!("Lectern is serving {} at http://127.0.0.1:{port}/", user_data.display()),
            format!(
                "Web page (one-time login link, valid 5 minutes): http://127.0.0.1:{port}/login?token={token}"
            ),
            "Stop with Ctrl-C. `lectern open` opens the page again with a fresh link.".to_owned(),
        ]);
        lectern_api::run(listener, library, options, shutdown.wait()).await.context("serving the local API")
    })?;
    files.withdraw();
    eprintln!("stopped; removed {}", files.dir().join(lectern_api::discovery::STATUS_FILE).display());
    Ok(())
}
