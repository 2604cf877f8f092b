//! `lectern open`: mints a one-time login URL through the running server's
//! API (after checking its challenge) and opens it in the browser.

use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use lectern_api::client::blocking::Client;

use crate::cli::OpenArgs;
use crate::config::Config;

pub fn run(config: &Config, args: OpenArgs) -> Result<()> {
    let client = Client::connect(&config.user_data)?;
    let answer = client.post("/v1/login-token", &serde_json::json!({}))?;
    let url = answer["url"].as_str().context("the server's login-token answer has no url")?;
    if args.print {
        outln!("{url}")?;
        return Ok(());
    }
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    let opened = Command::new(opener)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if opened {
        eprintln!("opened the web page in your browser");
    } else {
        outln!("Open this link in your browser (it works once, for 5 minutes):\n{url}")?;
    }
    Ok(())
}
