//! `lectern.toml`: a site config (name, description, instructions, default
//! locale, base URL, hosts, rate limits) and the editions it declares.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::names;

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
    /// Where a page's source can be edited: a URL with `{file}` (the file
    /// inside the edition's source) and optionally `{project}`, `{version}`,
    /// `{locale}`; an edition's own `edit_url` overrides it.
    #[serde(default)]
    pub edit_url: Option<String>,
    /// The icon served as `/favicon.ico` (`.ico`, `.png` or `.svg`), resolved
    /// against the config's folder; None: the built-in one.
    #[serde(default)]
    pub icon: Option<PathBuf>,
    pub editions: Vec<EditionConfig>,
}

/// One edition as a site config declares it: the edition's fields (project,
/// version, locale, domain, collection, status, prefix...) plus a source path.
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
    /// This edition's edit URL (see [`SiteConfig::edit_url`]).
    #[serde(default)]
    pub edit_url: Option<String>,
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
        let err = |message: String| SiteConfigError {
            path: path.to_path_buf(),
            line: 0,
            field: "-".into(),
            message,
        };
        let meta = std::fs::metadata(path).map_err(|e| err(format!("cannot read: {e}")))?;
        if meta.len() > MAX_CONFIG_BYTES {
            return Err(err(format!("a site config may be at most {MAX_CONFIG_BYTES} bytes")));
        }
        let bytes = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|_| err("not valid UTF-8".to_owned()))?;
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let base = if base.as_os_str().is_empty() { PathBuf::from(".") } else { base };
        Self::parse(&text, path, &base)
    }

    /// Parses and validates config text; `path` names it in errors, `base` is
    /// the folder relative sources are resolved against.
    pub fn parse(text: &str, path: &Path, base: &Path) -> Result<SiteConfig, SiteConfigError> {
        let doc = DeTable::parse(text).map_err(|e| SiteConfigError {
            path: path.to_path_buf(),
            line: e.span().map_or(0, |s| line_of(text, s.start)),
            field: "-".into(),
            message: e.message().trim().to_owned(),
        })?;
        let mut p = Parser { text, path };
        p.config(doc.get_ref(), base)
    }
}

/// Largest site config read.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes().iter().take(offset).filter(|&&b| b == b'\n').count() + 1
}

type Value<'i> = Spanned<DeValue<'i>>;

const SITE_KEYS: [&str; 10] = [
    "name",
    "description",
    "instructions",
    "default_locale",
    "base_url",
    "allowed_hosts",
    "trusted_proxies",
    "rate_limit_per_minute",
    "edit_url",
    "icon",
];
const EDITION_KEYS: [&str; 15] = [
    "project",
    "aliases",
    "version",
    "locale",
    "domain",
    "collection",
    "label",
    "ref",
    "status",
    "prefix",
    "default",
    "enabled",
    "source",
    "format",
    "edit_url",
];

struct Parser<'t> {
    text: &'t str,
    path: &'t Path,
}

impl Parser<'_> {
    fn error(
        &self,
        span: std::ops::Range<usize>,
        field: &str,
        message: impl Into<String>,
    ) -> SiteConfigError {
        SiteConfigError {
            path: self.path.to_path_buf(),
            line: line_of(self.text, span.start),
            field: field.to_owned(),
            message: message.into(),
        }
    }

    /// Rejects keys not in `allowed`.
    fn known_keys(&self, table: &DeTable<'_>, at: &str, allowed: &[&str]) -> Result<(), SiteConfigError> {
        for (key, _) in table.iter() {
            if !allowed.contains(&key.get_ref().as_ref()) {
                let field =
                    if at.is_empty() { key.get_ref().to_string() } else { format!("{at}.{}", key.get_ref()) };
                return Err(self.error(
                    key.span(),
                    &field,
                    format!("unknown key; allowed here: {}", allowed.join(", ")),
                ));
            }
        }
        Ok(())
    }

    fn string(
        &self,
        table: &DeTable<'_>,
        at: &str,
        key: &str,
    ) -> Result<Option<(String, std::ops::Range<usize>)>, SiteConfigError> {
        match table.get(key) {
            None => Ok(None),
            Some(v) => match v.get_ref() {
                DeValue::String(s) => Ok(Some((s.to_string(), v.span()))),
                other => Err(self.error(
                    v.span(),
                    &format!("{at}.{key}"),
                    format!("expected a string, found {}", other.type_str()),
                )),
            },
        }
    }

    fn required(
        &self,
        table: &DeTable<'_>,
        at: &str,
        key: &str,
        span: std::ops::Range<usize>,
    ) -> Result<(String, std::ops::Range<usize>), SiteConfigError> {
        self.string(table, at, key)?
            .ok_or_else(|| self.error(span, &format!("{at}.{key}"), "missing; this key is required"))
    }

    fn bool(&self, table: &DeTable<'_>, at: &str, key: &str) -> Result<Option<bool>, SiteConfigError> {
        match table.get(key) {
            None => Ok(None),
            Some(v) => v
                .get_ref()
                .as_bool()
                .map(Some)
                .ok_or_else(|| self.error(v.span(), &format!("{at}.{key}"), "expected true or false")),
        }
    }

    fn strings(
        &self,
        table: &DeTable<'_>,
        at: &str,
        key: &str,
    ) -> Result<Vec<(String, std::ops::Range<usize>)>, SiteConfigError> {
        let Some(v) = table.get(key) else { return Ok(Vec::new()) };
        let field = format!("{at}.{key}");
        let DeValue::Array(items) = v.get_ref() else {
            return Err(self.error(v.span(), &field, "expected an array of strings"));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| match item.get_ref() {
                DeValue::String(s) => Ok((s.to_string(), item.span())),
                _ => Err(self.error(item.span(), &format!("{field}[{i}]"), "expected a string")),
            })
            .collect()
    }

    fn check(
        &self,
        span: std::ops::Range<usize>,
        field: &str,
        result: Result<(), String>,
    ) -> Result<(), SiteConfigError> {
        result.map_err(|m| self.error(span, field, m))
    }

    fn config(&mut self, doc: &DeTable<'_>, base: &Path) -> Result<SiteConfig, SiteConfigError> {
        self.known_keys(doc, "", &["site", "editions"])?;
        let (site, site_span) = self.site_table(doc)?;
        self.known_keys(site, "site", &SITE_KEYS)?;
        let (name, _) = self.required(site, "site", "name", site_span)?;
        let default_locale = self.default_locale(site)?;
        let base_url = self.base_url(site)?;
        let allowed_hosts = self.allowed_hosts(site)?;
        let trusted_proxies = self.trusted_proxies(site)?;
        let rate_limit_per_minute = self.rate_limit(site)?;
        let edit_url = self.edit_url(site, "site")?;
        let icon = self.icon(site, base)?;
        let editions = self.editions(doc, base)?;
        self.cross_check(doc, &editions)?;
        Ok(SiteConfig {
            name,
            description: self.string(site, "site", "description")?.map(|(s, _)| s),
            instructions: self.string(site, "site", "instructions")?.map(|(s, _)| s),
            default_locale,
            base_url,
            allowed_hosts,
            trusted_proxies,
            rate_limit_per_minute,
            edit_url,
            icon,
            editions,
        })
    }

    /// The `[site]` table, which every config needs, and its span.
    fn site_table<'d, 'i>(
        &self,
        doc: &'d DeTable<'i>,
    ) -> Result<(&'d DeTable<'i>, std::ops::Range<usize>), SiteConfigError> {
        let site_value: Option<&Value<'_>> = doc.get("site");
        let Some(site_value) = site_value else {
            return Err(self.error(0..0, "site", "missing; a [site] table with at least `name` is required"));
        };
        let DeValue::Table(site) = site_value.get_ref() else {
            return Err(self.error(site_value.span(), "site", "expected a table: [site]"));
        };
        Ok((site, site_value.span()))
    }

    /// `site.default_locale`, normalised (`zh-hans` is `zh-Hans`); `en` when absent.
    fn default_locale(&self, site: &DeTable<'_>) -> Result<String, SiteConfigError> {
        match self.string(site, "site", "default_locale")? {
            Some((l, span)) => {
                names::normalize_locale(&l).map_err(|m| self.error(span, "site.default_locale", m))
            }
            None => Ok("en".to_owned()),
        }
    }

    /// `site.base_url`: an http(s) URL without spaces, kept without its
    /// trailing slash so page paths can be appended.
    fn base_url(&self, site: &DeTable<'_>) -> Result<Option<String>, SiteConfigError> {
        let Some((u, span)) = self.string(site, "site", "base_url")? else { return Ok(None) };
        if !(u.starts_with("https://") || u.starts_with("http://")) || u.contains(char::is_whitespace) {
            return Err(self.error(
                span,
                "site.base_url",
                "expected an http:// or https:// URL (https://docs.example.com)",
            ));
        }
        Ok(Some(u.trim_end_matches('/').to_owned()))
    }

    /// `edit_url` (of the site or an edition): an http(s) URL holding
    /// `{file}`, whose other `{...}` are `{project}`, `{version}`, `{locale}`.
    fn edit_url(&self, table: &DeTable<'_>, at: &str) -> Result<Option<String>, SiteConfigError> {
        let Some((u, span)) = self.string(table, at, "edit_url")? else { return Ok(None) };
        let field = format!("{at}.edit_url");
        if !(u.starts_with("https://") || u.starts_with("http://")) || u.contains(char::is_whitespace) {
            return Err(self.error(
                span,
                &field,
                "expected an http:// or https:// URL (https://github.com/acme/docs/edit/main/{file})",
            ));
        }
        if !u.contains("{file}") {
            return Err(self.error(span, &field, "expected {file} in the URL: where the page's file goes"));
        }
        let mut rest = u.as_str();
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').map(|c| open + c);
            let name = close.map(|c| &rest[open + 1..c]);
            if !matches!(name, Some("file" | "project" | "version" | "locale")) {
                return Err(self.error(
                    span,
                    &field,
                    "unknown placeholder; allowed: {file}, {project}, {version}, {locale}",
                ));
            }
            rest = &rest[close.unwrap_or(rest.len() - 1) + 1..];
        }
        Ok(Some(u))
    }

    /// `site.icon`: a `.ico`, `.png` or `.svg` file, relative to the config.
    fn icon(&self, site: &DeTable<'_>, base: &Path) -> Result<Option<PathBuf>, SiteConfigError> {
        let Some((icon, span)) = self.string(site, "site", "icon")? else { return Ok(None) };
        let lower = icon.to_ascii_lowercase();
        if icon.trim().is_empty() || ![".ico", ".png", ".svg"].iter().any(|e| lower.ends_with(e)) {
            return Err(self.error(
                span,
                "site.icon",
                "expected the path of a .ico, .png or .svg file, relative to this file",
            ));
        }
        Ok(Some(base.join(icon)))
    }

    /// `site.allowed_hosts`: host names, optionally with a port, lowercased
    /// (the Host header is compared case-insensitively).
    fn allowed_hosts(&self, site: &DeTable<'_>) -> Result<Vec<String>, SiteConfigError> {
        let allowed_hosts = self.strings(site, "site", "allowed_hosts")?;
        for (i, (h, span)) in allowed_hosts.iter().enumerate() {
            let ok = !h.is_empty()
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'));
            if !ok {
                return Err(self.error(
                    span.clone(),
                    &format!("site.allowed_hosts[{i}]"),
                    "expected a host name, optionally with :port (docs.example.com)",
                ));
            }
        }
        Ok(allowed_hosts.into_iter().map(|(s, _)| s.to_ascii_lowercase()).collect())
    }

    /// `site.trusted_proxies`: IP addresses or networks (`10.0.0.0/8`) whose
    /// prefix length fits the address family.
    fn trusted_proxies(&self, site: &DeTable<'_>) -> Result<Vec<String>, SiteConfigError> {
        let trusted_proxies = self.strings(site, "site", "trusted_proxies")?;
        for (i, (p, span)) in trusted_proxies.iter().enumerate() {
            let (addr, bits) = match p.split_once('/') {
                Some((a, b)) => (a, Some(b)),
                None => (p.as_str(), None),
            };
            let ip: Option<std::net::IpAddr> = addr.parse().ok();
            let max_bits = match ip {
                Some(std::net::IpAddr::V4(_)) => 32,
                Some(std::net::IpAddr::V6(_)) => 128,
                None => 0,
            };
            let ok = ip.is_some() && bits.is_none_or(|b| b.parse::<u8>().is_ok_and(|n| n <= max_bits));
            if !ok {
                return Err(self.error(
                    span.clone(),
                    &format!("site.trusted_proxies[{i}]"),
                    "expected an IP address or network (127.0.0.1, 10.0.0.0/8, ::1)",
                ));
            }
        }
        Ok(trusted_proxies.into_iter().map(|(s, _)| s).collect())
    }

    /// `site.rate_limit_per_minute`: a whole number from 1 up; None (off) when absent.
    fn rate_limit(&self, site: &DeTable<'_>) -> Result<Option<u32>, SiteConfigError> {
        let Some(v) = site.get("rate_limit_per_minute") else { return Ok(None) };
        let n = v
            .get_ref()
            .as_integer()
            .and_then(|i| i64::from_str_radix(&i.as_str().replace('_', ""), i.radix()).ok());
        match n.and_then(|n| u32::try_from(n).ok()).filter(|n| *n > 0) {
            Some(n) => Ok(Some(n)),
            None => Err(self.error(
                v.span(),
                "site.rate_limit_per_minute",
                "expected a whole number from 1 to 4294967295",
            )),
        }
    }

    /// The `[[editions]]` tables, each validated; a config needs at least one.
    fn editions(&self, doc: &DeTable<'_>, base: &Path) -> Result<Vec<EditionConfig>, SiteConfigError> {
        let mut editions = Vec::new();
        if let Some(v) = doc.get("editions") {
            let DeValue::Array(items) = v.get_ref() else {
                return Err(self.error(v.span(), "editions", "expected an array of tables: [[editions]]"));
            };
            for (i, item) in items.iter().enumerate() {
                let at = format!("editions[{i}]");
                let DeValue::Table(t) = item.get_ref() else {
                    return Err(self.error(item.span(), &at, "expected a table: [[editions]]"));
                };
                editions.push(self.edition(t, &at, item.span(), base)?);
            }
        }
        if editions.is_empty() {
            return Err(self.error(
                doc.get("editions").map_or(0..0, Spanned::span),
                "editions",
                "at least one [[editions]] table is required",
            ));
        }
        Ok(editions)
    }

    fn edition(
        &self,
        t: &DeTable<'_>,
        at: &str,
        span: std::ops::Range<usize>,
        base: &Path,
    ) -> Result<EditionConfig, SiteConfigError> {
        self.known_keys(t, at, &EDITION_KEYS)?;
        let f = |k: &str| format!("{at}.{k}");
        let (project, s) = self.required(t, at, "project", span.clone())?;
        self.check(s, &f("project"), names::project(&project))?;
        let aliases = self.strings(t, at, "aliases")?;
        for (i, (a, s)) in aliases.iter().enumerate() {
            self.check(s.clone(), &format!("{at}.aliases[{i}]"), names::alias(a))?;
        }
        let (version, s) = self.required(t, at, "version", span.clone())?;
        self.check(s, &f("version"), names::version(&version))?;
        let (locale, s) = self.required(t, at, "locale", span.clone())?;
        let locale = names::normalize_locale(&locale).map_err(|m| self.error(s, &f("locale"), m))?;
        let domain = self.string(t, at, "domain")?;
        if let Some((d, s)) = &domain {
            self.check(s.clone(), &f("domain"), names::domain(d))?;
        }
        let collection = self.string(t, at, "collection")?;
        if let Some((c, s)) = &collection {
            self.check(s.clone(), &f("collection"), names::collection(c))?;
            if domain.as_ref().is_none_or(|(d, _)| d != "wiki") {
                return Err(self.error(s.clone(), &f("collection"), "a collection needs domain = \"wiki\""));
            }
        }
        let status = self.string(t, at, "status")?;
        if let Some((st, s)) = &status {
            self.check(s.clone(), &f("status"), names::status(st))?;
        }
        let prefix = self.string(t, at, "prefix")?;
        if let Some((p, s)) = &prefix {
            self.check(s.clone(), &f("prefix"), names::prefix(p))?;
        }
        let format = self.string(t, at, "format")?;
        if let Some((fm, s)) = &format
            && !matches!(fm.as_str(), "markdown" | "html" | "docset" | "auto")
        {
            return Err(self.error(s.clone(), &f("format"), "expected markdown, html, docset or auto"));
        }
        let (source, s) = self.required(t, at, "source", span.clone())?;
        if source.trim().is_empty() {
            return Err(self.error(
                s,
                &f("source"),
                "expected a path to a folder or archive, relative to this file",
            ));
        }
        let label = self.string(t, at, "label")?.map(|(s, _)| s);
        let r#ref = self.string(t, at, "ref")?.map(|(s, _)| s);
        let edit_url = self.edit_url(t, at)?;
        Ok(EditionConfig {
            project,
            aliases: aliases.into_iter().map(|(a, _)| a).collect(),
            version,
            locale,
            domain: domain.map(|(d, _)| d),
            collection: collection.map(|(c, _)| c),
            label,
            r#ref,
            status: status.map(|(s, _)| s),
            prefix: prefix.map(|(p, _)| p),
            default: self.bool(t, at, "default")?.unwrap_or(false),
            enabled: self.bool(t, at, "enabled")?.unwrap_or(true),
            source: base.join(source),
            format: format.map(|(f, _)| f).filter(|f| f != "auto"),
            edit_url,
        })
    }

    /// Two editions may not be the same edition or share an explicit prefix.
    fn cross_check(&self, doc: &DeTable<'_>, editions: &[EditionConfig]) -> Result<(), SiteConfigError> {
        let spans: Vec<std::ops::Range<usize>> = match doc.get("editions").map(Spanned::get_ref) {
            Some(DeValue::Array(items)) => items.iter().map(Spanned::span).collect(),
            _ => Vec::new(),
        };
        let span = |i: usize| spans.get(i).cloned().unwrap_or(0..0);
        for (i, e) in editions.iter().enumerate() {
            for (j, prev) in editions[..i].iter().enumerate() {
                if prev.id() == e.id() {
                    return Err(self.error(
                        span(i),
                        &format!("editions[{i}]"),
                        format!("edition {} is declared twice (also editions[{j}])", e.id()),
                    ));
                }
                if e.prefix.is_some() && prev.prefix == e.prefix {
                    return Err(self.error(
                        span(i),
                        &format!("editions[{i}].prefix"),
                        format!(
                            "prefix {} is already used by editions[{j}]",
                            e.prefix.as_deref().unwrap_or_default()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

impl EditionConfig {
    /// The edition id: `project@version/locale[/domain[/collection]]`, domain
    /// shown only when it is not `manual` or a collection is given.
    pub fn id(&self) -> String {
        let mut id = format!("{}@{}/{}", self.project, self.version, self.locale);
        let domain = self.domain.as_deref().unwrap_or("manual");
        if domain != "manual" || self.collection.is_some() {
            id.push('/');
            id.push_str(domain);
            if let Some(c) = &self.collection {
                id.push('/');
                id.push_str(c);
            }
        }
        id
    }
}
