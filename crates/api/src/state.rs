//! [`AppState`]: what every handler shares: the library, the access key, the
//! web sessions and one-time login tokens, and the limits.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lectern_library::Library;
use tokio::sync::Semaphore;

use crate::challenge::{random_hex, same_secret};

/// How long a login URL stays valid.
pub const LOGIN_TOKEN_TTL: Duration = Duration::from_secs(300);
const MAX_LOGIN_TOKENS: usize = 32;
const MAX_SESSIONS: usize = 64;

/// How a server runs; [`Options::new`] gives the defaults.
#[derive(Clone)]
pub struct Options {
    /// The bearer key (as written to `{user-data}/api/access-key`).
    pub access_key: String,
    /// The pid the challenge proves (this process).
    pub pid: u32,
    pub limits: Limits,
    /// For the Integrations page: this binary and the user-data folder, absolute.
    pub exe: PathBuf,
    pub user_data: PathBuf,
    /// Serving `lectern serve --demo`'s temporary library, deleted when the
    /// server stops: the Integrations page says so.
    pub demo: bool,
    /// A login token minted before the server started (the URL `serve` prints).
    pub initial_login_token: Option<String>,
    /// `started_at` as published in `status.json`.
    pub started_at: String,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("pid", &self.pid)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Options {
    pub fn new(access_key: String, exe: PathBuf, user_data: PathBuf) -> Options {
        Options {
            access_key,
            pid: std::process::id(),
            limits: Limits::default(),
            exe,
            user_data,
            demo: false,
            initial_login_token: None,
            started_at: crate::discovery::rfc3339_now(),
        }
    }
}

/// The whole request head must arrive within this. Clients of the local API
/// are programs and a browser on this machine, which send a head at once; a
/// connection that dawdles is another local user's, and is closed. Also
/// bounds the wait for a keep-alive connection's next request.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// A request body (a small JSON) must arrive within this after its head,
/// or the answer is 408: well inside the request time limit.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(5);
/// A keep-alive connection waiting for its next request is closed after this.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(5);
/// Connections open at once, at most; lowered to the descriptor limit less
/// [`lectern_http::DESCRIPTOR_RESERVE`]. Every peer is loopback, so there
/// is no cap per peer: when the total is reached, the connection that has
/// waited longest without a request in progress is closed for the new one,
/// and since a head must come within [`HEADER_TIMEOUT`] and a body within
/// [`BODY_TIMEOUT`], connections that only hold a slot cannot keep out one
/// that sends its request.
pub const MAX_CONNECTIONS: usize = 256;

/// Bounds on every request.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Whole-request time limit (→ 504 `timeout`).
    pub request_timeout: Duration,
    /// A search's own deadline inside it (→ partial results, `timed_out: true`).
    pub search_deadline: Duration,
    /// Largest request body (→ 413 `too_large`).
    pub body_limit: usize,
    /// Searches running at once; more wait up to `busy_wait`, then 503 `busy`.
    pub concurrent_searches: usize,
    pub busy_wait: Duration,
    /// How often to pick up generations made by other processes.
    pub refresh_every: Duration,
    /// Timeouts and caps on connections (the serving loop's).
    pub connections: lectern_http::Limits,
}

impl Default for Limits {
    fn default() -> Self {
        let request_timeout = Duration::from_secs(8);
        Limits {
            request_timeout,
            search_deadline: Duration::from_secs(6),
            body_limit: 64 * 1024,
            concurrent_searches: 8,
            busy_wait: Duration::from_secs(2),
            refresh_every: Duration::from_millis(250),
            connections: lectern_http::Limits {
                header_timeout: HEADER_TIMEOUT,
                body_timeout: BODY_TIMEOUT,
                idle_timeout: IDLE_TIMEOUT,
                max_connections: MAX_CONNECTIONS,
                max_per_peer: MAX_CONNECTIONS,
                // In-flight requests get their whole time limit.
                grace: request_timeout + Duration::from_secs(1),
            },
        }
    }
}

/// Shared by every handler (cheap to clone).
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState").field("port", &self.0.port).finish_non_exhaustive()
    }
}

struct Inner {
    library: Arc<Library>,
    options: Options,
    port: u16,
    login_tokens: Mutex<HashMap<String, Instant>>,
    sessions: Mutex<Vec<(String, Instant)>>,
    search_slots: Arc<Semaphore>,
}

impl AppState {
    /// State for a server on `port` (the port is part of the Host check and the challenge).
    pub fn new(library: Arc<Library>, options: Options, port: u16) -> AppState {
        let mut tokens = HashMap::new();
        if let Some(t) = &options.initial_login_token {
            tokens.insert(t.clone(), Instant::now() + LOGIN_TOKEN_TTL);
        }
        let slots = Arc::new(Semaphore::new(options.limits.concurrent_searches.max(1)));
        AppState(Arc::new(Inner {
            library,
            options,
            port,
            login_tokens: Mutex::new(tokens),
            sessions: Mutex::new(Vec::new()),
            search_slots: slots,
        }))
    }

    pub fn library(&self) -> &Arc<Library> {
        &self.0.library
    }

    pub fn options(&self) -> &Options {
        &self.0.options
    }

    pub fn limits(&self) -> &Limits {
        &self.0.options.limits
    }

    pub fn port(&self) -> u16 {
        self.0.port
    }

    pub fn pid(&self) -> u32 {
        self.0.options.pid
    }

    pub(crate) fn search_slots(&self) -> Arc<Semaphore> {
        self.0.search_slots.clone()
    }

    /// Whether `key` is the access key (constant time).
    pub fn is_access_key(&self, key: &str) -> bool {
        same_secret(key, &self.0.options.access_key)
    }

    pub(crate) fn access_key(&self) -> &str {
        &self.0.options.access_key
    }

    /// The session cookie's name; it carries the port because browsers share
    /// cookies across the ports of one host.
    pub fn cookie_name(&self) -> String {
        format!("lectern_session_{}", self.0.port)
    }

    /// A fresh single-use login token, valid for [`LOGIN_TOKEN_TTL`].
    pub fn mint_login_token(&self) -> String {
        let token = random_hex();
        let mut tokens = self.0.login_tokens.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        tokens.retain(|_, expires| *expires > now);
        if tokens.len() >= MAX_LOGIN_TOKENS {
            // Drop the one closest to expiry; a flood of mints can't grow memory.
            if let Some(oldest) = tokens.iter().min_by_key(|(_, e)| **e).map(|(t, _)| t.clone()) {
                tokens.remove(&oldest);
            }
        }
        tokens.insert(token.clone(), now + LOGIN_TOKEN_TTL);
        token
    }

    /// The login URL for a token.
    pub fn login_url(&self, token: &str) -> String {
        format!("http://127.0.0.1:{}/login?token={token}", self.0.port)
    }

    /// Spends a login token; a new session id on success.
    pub(crate) fn redeem_login_token(&self, token: &str) -> Option<String> {
        let mut tokens = self.0.login_tokens.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        tokens.retain(|_, expires| *expires > now);
        let found = tokens.keys().find(|t| same_secret(t, token)).cloned()?;
        tokens.remove(&found);
        drop(tokens);
        let session = random_hex();
        let mut sessions = self.0.sessions.lock().unwrap_or_else(|p| p.into_inner());
        if sessions.len() >= MAX_SESSIONS {
            sessions.remove(0);
        }
        sessions.push((session.clone(), now));
        Some(session)
    }

    pub(crate) fn is_session(&self, id: &str) -> bool {
        let sessions = self.0.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.iter().fold(false, |found, (s, _)| found | same_secret(s, id))
    }
}
