//! Flags + environment → one typed [`Config`] that commands use; nothing past
//! here handles raw path strings for the library location.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::cli::Global;

#[derive(Debug, Clone)]
pub struct Config {
    /// The library folder.
    pub user_data: PathBuf,
    /// Show a progress bar (stderr is a terminal and not --quiet).
    pub progress: bool,
}

impl Config {
    pub fn from_global(global: &Global) -> Result<Config> {
        let user_data = match &global.user_data {
            Some(dir) => {
                std::path::absolute(dir).with_context(|| format!("--user-data {}", dir.display()))?
            }
            None => default_user_data()?,
        };
        let progress = !global.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr());
        Ok(Config { user_data, progress })
    }
}

/// The platform data directory: `~/.local/share/lectern` (XDG) on Linux,
/// `~/Library/Application Support/Lectern` on macOS.
pub fn default_user_data() -> Result<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "Lectern")
        .context("cannot find a home directory for the default library; pass --user-data DIR")?;
    Ok(dirs.data_dir().to_path_buf())
}
