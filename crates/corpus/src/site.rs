//! `lectern.toml`: a site config (name, description, instructions, default
//! locale, base URL, hosts, rate limits) and the editions it declares.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A parsed, validated site config. Relative source paths are resolved
/// against the config file's folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteConfig {
    pub name: String,
    pub description: Option<String>,
    /// MCP server instructions for the site's `/mcp`.
    pub instructions: Option<String>,
    pub default_locale: String,
    /// Public base URL (`https://docs.example.com`), used in sitemap/llms.txt.
    pub base_url: Option<String>,
    /// Host names the site answers to (Host header check); empty = loopback only.
    pub allowed_hosts: Vec<String>,
    /// Proxy addresses whose `X-Forwarded-For` is trusted.
    pub trusted_proxies: Vec<String>,
    /// Requests per minute per client address; None = off.
    pub rate_limit_per_minute: Option<u32>,
    pub editions: Vec<EditionConfig>,
}

/// One edition as a site config declares it (SPEC §1 fields + a source path).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EditionConfig {
    pub project: String,
    pub aliases: Vec<String>,
    pub version: String,
    pub locale: String,
    pub domain: Option<String>,
    pub collection: Option<String>,
    pub label: Option<String>,
    pub r#ref: Option<String>,
    pub status: Option<String>,
    /// Explicit URL prefix; None = derived by the prefix rule.
    pub prefix: Option<String>,
    pub default: bool,
    pub enabled: bool,
    /// Absolute path of the source (resolved against the config's folder).
    pub source: PathBuf,
    /// `markdown`, `html`, `docset` or None (auto).
    pub format: Option<String>,
}

#[derive(Debug, thiserror::Error)]
#[error("{path}:{line}: {field}: {message}")]
pub struct SiteConfigError {
    pub path: PathBuf,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// The offending field (`editions[2].locale`), or `-` for syntax errors.
    pub field: String,
    pub message: String,
}

impl SiteConfig {
    /// Reads and validates a site config file.
    pub fn load(path: &Path) -> Result<SiteConfig, SiteConfigError> {
        Err(SiteConfigError { path: path.to_path_buf(), line: 0, field: "-".into(), message: "not implemented yet".into() })
    }
}
