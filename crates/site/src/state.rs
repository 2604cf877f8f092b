//! [`SiteState`]: what every handler shares: the library, the options, the
//! rate limiter's buckets, and per-generation caches of `llms.txt` and the
//! sitemap.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use lectern_library::Library;
use tokio_util::sync::CancellationToken;

pub use crate::rate_limit::DEFAULT_RATE_LIMIT_PER_MINUTE;
use crate::rate_limit::RateLimiter;

/// Largest `/mcp` request body.
pub const MAX_MCP_BODY_BYTES: usize = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct Options {
    /// Overrides the site config's `rate_limit_per_minute` (tests, operators).
    pub rate_limit_per_minute: Option<u32>,
    /// How often to look for a generation made by another process.
    pub refresh_every: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options { rate_limit_per_minute: None, refresh_every: Duration::from_millis(250) }
    }
}

#[derive(Clone)]
pub struct SiteState {
    inner: Arc<Inner>,
}

struct Inner {
    library: Arc<Library>,
    options: Options,
    limiter: RateLimiter,
    /// (generation + base URL, body) of the last `llms.txt` and sitemap.
    cached: Mutex<Vec<(String, Arc<String>)>>,
    shutdown: CancellationToken,
}

impl std::fmt::Debug for SiteState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SiteState").field("options", &self.inner.options).finish_non_exhaustive()
    }
}

impl SiteState {
    pub fn new(library: Arc<Library>, options: Options) -> SiteState {
        SiteState {
            inner: Arc::new(Inner {
                library,
                options,
                limiter: RateLimiter::default(),
                cached: Mutex::new(Vec::new()),
                shutdown: CancellationToken::new(),
            }),
        }
    }

    pub fn library(&self) -> &Arc<Library> {
        &self.inner.library
    }

    pub fn options(&self) -> &Options {
        &self.inner.options
    }

    pub(crate) fn limiter(&self) -> &RateLimiter {
        &self.inner.limiter
    }

    /// Cancelled when the server shuts down (ends `/mcp` handlers).
    pub fn shutdown_token(&self) -> CancellationToken {
        self.inner.shutdown.clone()
    }

    /// A body cached under `key` (which names the generation), or built.
    pub(crate) fn cached(&self, key: String, build: impl FnOnce() -> String) -> Arc<String> {
        if let Some((_, body)) = self.inner.cached.lock().expect("cache lock").iter().find(|(k, _)| *k == key)
        {
            return body.clone();
        }
        let body = Arc::new(build());
        let mut cache = self.inner.cached.lock().expect("cache lock");
        // A few entries: llms.txt and the sitemap, per base URL, for one generation.
        if cache.len() >= 8 {
            cache.remove(0);
        }
        cache.push((key, body.clone()));
        body
    }

    /// Runs a blocking library call off the async threads.
    pub(crate) async fn blocking<T: Send + 'static>(
        &self,
        call: impl FnOnce(&SiteState) -> Result<T, crate::SiteError> + Send + 'static,
    ) -> Result<T, crate::SiteError> {
        let state = self.clone();
        tokio::task::spawn_blocking(move || call(&state)).await?
    }
}
