//! The command-line definition (clap derive): flags and help only.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "lectern",
    version = version(),
    about = "A documentation server for people and AI agents: install, index, search and serve docs offline.",
    after_help = "Examples:\n  lectern add ./postgresql-18-en.tar.xz --project postgresql --version 18 --locale en\n  lectern search \"CREATE INDEX CONCURRENTLY\"\n  lectern read /postgresql/sql-createindex"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

/// `lectern --version`: the program and the on-disk formats it reads.
fn version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| {
        format!(
            "{} (library format {}, index format {})",
            env!("CARGO_PKG_VERSION"),
            lectern_library::manifest::LIBRARY_FORMAT,
            lectern_library::manifest::INDEX_FORMAT
        )
    })
}

#[derive(Debug, Args)]
pub struct Global {
    /// The library folder (default: the platform data directory, e.g. ~/.local/share/lectern).
    #[arg(long, global = true, env = "LECTERN_USER_DATA", value_name = "DIR")]
    pub user_data: Option<PathBuf>,
    /// More log output on stderr (repeat for more).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Only errors on stderr; no progress bar.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Install or update an edition from a folder or archive, or every edition of a site config.
    #[command(
        after_help = "Examples:\n  lectern add postgresql-18-zh-Hans.tar.xz --project postgresql --aliases pg --version 18 --locale zh-Hans --label \"PostgreSQL 18\" --status current --default\n  lectern add --site examples/demo/lectern.toml\n  lectern add Click.docset"
    )]
    Add(AddArgs),
    /// List installed editions and the current generation.
    #[command(after_help = "Example:\n  lectern list --all --json")]
    List(ListArgs),
    /// Enable an edition (a new generation, no re-index).
    #[command(after_help = "Example:\n  lectern enable postgresql@18/en")]
    Enable(EditionArg),
    /// Disable an edition (a new generation, no re-index).
    #[command(after_help = "Example:\n  lectern disable postgresql@18/en")]
    Disable(EditionArg),
    /// Remove an edition and its documents.
    #[command(after_help = "Example:\n  lectern remove postgresql@13/en")]
    Remove(EditionArg),
    /// Ranked search over the enabled editions.
    #[command(
        after_help = "Examples:\n  lectern search \"CREATE INDEX CONCURRENTLY\"\n  lectern search \"PG13: vacuum freeze\" --locale en\n  lectern search 'locale:* version:* \"row level security\" NOT policy' --limit 5 --json"
    )]
    Search(SearchArgs),
    /// Read a page (full site path, or EDITION and a relative path) or a section.
    #[command(
        after_help = "Examples:\n  lectern read /postgresql/sql-createindex\n  lectern read postgresql@18/zh-Hans /sql-createindex --markdown\n  lectern read --section 3f2a9c0d1e2b4a5c --offset 16000"
    )]
    Read(ReadArgs),
    /// Get or set library settings (defaults, limits).
    #[command(
        after_help = "Examples:\n  lectern config set default.project postgresql\n  lectern config get default.locale\n  lectern config list"
    )]
    Config(ConfigArgs),
    /// Serve the local API and web page on 127.0.0.1 (one server per user-data folder).
    #[command(
        after_help = "Examples:\n  lectern serve\n  lectern serve --port 8765\n  lectern serve --demo\n  lectern serve --site examples/demo/lectern.toml --listen 127.0.0.1:8080\n  lectern serve --site --read-only --listen 0.0.0.0:8080\n\nPrints a one-time login URL for the web page. Clients find the port in {user-data}/api/status.json and the key in {user-data}/api/access-key."
    )]
    Serve(ServeArgs),
    /// Write the public docs site as static files (HTML, .md, llms.txt, sitemap.xml, 404.html) for any static host.
    #[command(
        after_help = "Examples:\n  lectern export --site --out public\n  lectern export --site examples/demo/lectern.toml --out /var/www/docs\n\nThe files are what `lectern serve --site` answers for the same generation; links use the site config's base_url. A second export into the same folder rewrites only what changed and removes the files of pages no longer published. Search (/search) and /mcp need a server: route them to `lectern serve --site --read-only`."
    )]
    Export(ExportArgs),
    /// Open the web page in a browser, logged in (needs a running `lectern serve`).
    #[command(after_help = "Examples:\n  lectern open\n  lectern open --print")]
    Open(OpenArgs),
    /// The stdio MCP program for editors and AI clients (tools: list_installed_docsets, search_documentation, load_documentation_page; via the local API).
    #[command(
        after_help = "Examples:\n  lectern mcp --user-data ~/.local/share/lectern\n  lectern mcp config claude-desktop\n\nNeeds a running `lectern serve` on the same user-data folder."
    )]
    Mcp(McpArgs),
    /// Explain the state of the library and the local API; exit 1 if something is wrong.
    #[command(after_help = "Examples:\n  lectern doctor\n  lectern doctor --json")]
    Doctor(DoctorArgs),
    /// Check the links of an installed edition (or of all): which internal links and
    /// #fragments resolve, which do not, and which of those the source itself breaks.
    #[command(
        after_help = "Examples:\n  lectern check\n  lectern check npm@10/en\n  lectern check python@3.11/en --json\n\nThe edition's recorded source is read again. Exits 1 when a link the source does not break is broken."
    )]
    Check(CheckArgs),
    /// Rebuild a damaged or old-format index from each edition's recorded source.
    #[command(
        after_help = "Example:\n  lectern repair\n\nThe old index is moved aside to {user-data}/index.damaged-<time>; delete it once the rebuild is checked. Stop `lectern serve` first."
    )]
    Repair(RepairArgs),
    /// Print a shell completion script (bash, zsh or fish) generated from this CLI.
    #[command(
        after_help = "Examples:\n  lectern completions bash > ~/.local/share/bash-completion/completions/lectern\n  lectern completions zsh > ~/.zfunc/_lectern\n  lectern completions fish > ~/.config/fish/completions/lectern.fish"
    )]
    Completions(CompletionsArgs),
    /// Print the manual page (roff) generated from this CLI.
    #[command(
        after_help = "Examples:\n  lectern man > ~/.local/share/man/man1/lectern.1\n  lectern man | man -l -"
    )]
    Man,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port on 127.0.0.1 (1024-65535; default: any free port).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1024..))]
    pub port: Option<u16>,
    /// Serve the bundled demo site from a fresh temporary library (ignores --user-data).
    #[arg(long)]
    pub demo: bool,
    /// Serve the public docs site and its /mcp instead of the local API. With CONFIG, first
    /// install or update the editions it declares; without, serve the library as built.
    #[arg(long, value_name = "CONFIG", num_args = 0..=1)]
    pub site: Option<Option<PathBuf>>,
    /// Address of the site's own listener.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080", requires = "site")]
    pub listen: std::net::SocketAddr,
    /// Write nothing to the library (replicas serving one build).
    #[arg(long, requires = "site")]
    pub read_only: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Export the public docs site. With CONFIG, first install or update the editions it
    /// declares; without, export the library as built.
    #[arg(long, value_name = "CONFIG", num_args = 0..=1, required = true)]
    pub site: Option<Option<PathBuf>>,
    /// The folder to write (created when missing): empty, or an earlier export.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Write into a non-empty folder that holds no earlier export; files the export does not write are kept.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct OpenArgs {
    /// Print the login URL instead of starting a browser.
    #[arg(long)]
    pub print: bool,
}

impl Command {
    /// Whether the command was asked for JSON (its errors are JSON too).
    pub fn json(&self) -> bool {
        match self {
            Command::Add(a) => a.json,
            Command::List(a) => a.json,
            Command::Enable(a) | Command::Disable(a) | Command::Remove(a) => a.json,
            Command::Search(a) => a.json,
            Command::Read(a) => a.json,
            Command::Config(ConfigArgs {
                action: ConfigAction::Get { json, .. } | ConfigAction::List { json },
            }) => *json,
            Command::Doctor(a) => a.json,
            Command::Check(a) => a.json,
            Command::Repair(a) => a.json,
            _ => false,
        }
    }
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// project@version/locale[/domain[/collection]]; every installed edition when left out.
    pub edition: Option<String>,
    /// List every broken link, not only the first 50 of each edition.
    #[arg(long)]
    pub all: bool,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RepairArgs {
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// A folder, .tar, .tar.gz/.tgz, .tar.xz or .zip, or a *.docset; or, with --site, a lectern.toml.
    #[arg(value_name = "SOURCE", required_unless_present = "site")]
    pub source: Option<PathBuf>,
    /// Install every edition of this site config.
    #[arg(long, value_name = "CONFIG", conflicts_with_all = ["project", "version", "locale", "label", "git_ref", "status", "domain", "collection", "aliases", "default", "prefix"])]
    pub site: Option<PathBuf>,
    #[arg(long)]
    pub project: Option<String>,
    /// Short names for the version prefix syntax, comma-separated (e.g. pg).
    #[arg(long, value_delimiter = ',')]
    pub aliases: Vec<String>,
    #[arg(long)]
    pub version: Option<String>,
    /// BCP 47 locale (en, zh-Hans, de).
    #[arg(long)]
    pub locale: Option<String>,
    #[arg(long)]
    pub label: Option<String>,
    /// Git ref or release tag of this version.
    #[arg(long = "ref", id = "git_ref")]
    pub git_ref: Option<String>,
    /// current, supported, deprecated, eol or preview.
    #[arg(long)]
    pub status: Option<String>,
    /// manual (default) or wiki.
    #[arg(long)]
    pub domain: Option<String>,
    /// Wiki collection.
    #[arg(long)]
    pub collection: Option<String>,
    /// URL prefix (default: derived: /{project}, /{project}/{version}, /{locale}/...).
    #[arg(long)]
    pub prefix: Option<String>,
    /// Make this edition's project, version and locale the library defaults.
    #[arg(long)]
    pub default: bool,
    /// Install it disabled.
    #[arg(long)]
    pub disabled: bool,
    /// auto, markdown, html or docset.
    #[arg(long, default_value = "auto")]
    pub format: String,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Include disabled editions.
    #[arg(long)]
    pub all: bool,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct EditionArg {
    /// project@version/locale[/domain[/collection]]
    pub edition: String,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Search text (at most 256 characters; filters and PG96: prefixes allowed).
    /// Exclude with `NOT word` or `-"word"`: a word written `-word` is
    /// searched as written, as a command-line option (`lectern search
    /// --amend`); after `--`, every word is (`lectern search -- -h`).
    #[arg(allow_hyphen_values = true)]
    pub text: String,
    #[arg(long)]
    pub project: Option<String>,
    /// Version (branch); * for all.
    #[arg(long, alias = "branch")]
    pub version: Option<String>,
    /// Locale; * for all.
    #[arg(long)]
    pub locale: Option<String>,
    #[arg(long)]
    pub domain: Option<String>,
    #[arg(long)]
    pub collection: Option<String>,
    /// 1-50 (default 20).
    #[arg(long, allow_negative_numbers = true, value_name = "1-50", value_parser = whole_number)]
    pub limit: Option<i64>,
    /// 0-10000 (default 0).
    #[arg(long, allow_negative_numbers = true, value_name = "0-10000", value_parser = whole_number)]
    pub offset: Option<i64>,
    /// Fail with generation_changed unless this is the current generation.
    #[arg(long)]
    pub generation: Option<String>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ReadArgs {
    /// A full site path (/postgresql/sql-createindex), or an edition id followed by a relative path.
    #[arg(value_name = "PATH_OR_EDITION", required_unless_present = "section")]
    pub first: Option<String>,
    /// The page path relative to the edition given first.
    #[arg(value_name = "RELATIVE_PATH")]
    pub second: Option<String>,
    /// Read one section by its key (from search results).
    #[arg(long, value_name = "KEY")]
    pub section: Option<String>,
    /// Start, in characters (Unicode scalar values).
    #[arg(long, allow_negative_numbers = true, value_name = "CHARS", value_parser = whole_number)]
    pub offset: Option<i64>,
    /// At most this many characters (default 16000, max 50000).
    #[arg(long, allow_negative_numbers = true, value_name = "1-50000", value_parser = whole_number)]
    pub limit: Option<i64>,
    /// Markdown instead of plain text (a page's Markdown is as written).
    #[arg(long)]
    pub markdown: bool,
    #[arg(long)]
    pub generation: Option<String>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub action: ConfigAction,
}

#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Print a setting's value (and the value in effect).
    #[command(
        after_help = "Examples:\n  lectern config get default.locale\n  lectern config get default.project --json"
    )]
    Get {
        key: String,
        #[arg(long)]
        json: bool,
    },
    /// Set a setting.
    #[command(
        after_help = "Examples:\n  lectern config set default.project postgresql\n  lectern config set default.locale zh-Hans"
    )]
    Set { key: String, value: String },
    /// Remove a setting so its default applies.
    #[command(after_help = "Example:\n  lectern config unset default.locale")]
    Unset { key: String },
    /// Every setting and the resolved defaults.
    #[command(after_help = "Examples:\n  lectern config list\n  lectern config list --json")]
    List {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
pub struct McpArgs {
    #[command(subcommand)]
    pub action: Option<McpAction>,
}

#[derive(Debug, Subcommand)]
pub enum McpAction {
    /// Print the config to paste into an MCP client (absolute paths, no key) and, on stderr, the file it goes into. Lectern never edits a client's files.
    #[command(
        after_help = "Examples:\n  lectern mcp config claude-desktop   # claude_desktop_config.json: {\"mcpServers\": ...}\n  lectern mcp config claude-code      # claude mcp add lectern -- ...\n  lectern mcp config vscode           # .vscode/mcp.json: {\"servers\": ..., \"type\": \"stdio\"}\n  lectern mcp config codex            # ~/.codex/config.toml: [mcp_servers.lectern]"
    )]
    Config {
        /// The client to configure.
        #[arg(value_enum)]
        client: McpClient,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum McpClient {
    /// Any client that reads `mcpServers` (JSON).
    Generic,
    /// Claude Desktop: `mcpServers` in claude_desktop_config.json.
    ClaudeDesktop,
    /// Claude Code: a `claude mcp add` command line (and the project's .mcp.json, on stderr).
    ClaudeCode,
    /// Cursor: `mcpServers` in .cursor/mcp.json or ~/.cursor/mcp.json.
    Cursor,
    /// VS Code: `servers` in .vscode/mcp.json.
    Vscode,
    /// Windsurf: `mcpServers` in ~/.codeium/windsurf/mcp_config.json.
    Windsurf,
    /// Zed: `context_servers` in settings.json.
    Zed,
    /// Codex CLI: `[mcp_servers.lectern]` in ~/.codex/config.toml.
    Codex,
}

/// A whole number as written (`--limit 20`); the range is checked where the
/// value is used, and the error names the text that is not one.
fn whole_number(text: &str) -> Result<i64, String> {
    text.trim().parse().map_err(|_| format!("`{text}` is not a whole number"))
}
