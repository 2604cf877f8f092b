//! [`SiteState`]: what every handler shares: the library, the options, the
//! rate limiter's buckets, and a bounded per-generation cache of `llms.txt`
//! and the sitemap.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use lectern_library::Library;
use tokio_util::sync::CancellationToken;

pub use crate::rate_limit::DEFAULT_RATE_LIMIT_PER_MINUTE;
use crate::rate_limit::RateLimiter;

/// Largest `/mcp` request body.
pub const MAX_MCP_BODY_BYTES: usize = 1024 * 1024;
/// Bodies kept by the `llms.txt` and sitemap cache: both, for a few base
/// URLs (a site without `base_url` builds them from the Host header).
const MAX_CACHED_BODIES: usize = 8;
/// Bytes of bodies that cache keeps; a larger body is built per request.
const MAX_CACHED_BYTES: usize = 32 * 1024 * 1024;

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
    /// `llms.txt` and sitemap bodies of the current generation, oldest first.
    cached: Mutex<Vec<Cached>>,
    shutdown: CancellationToken,
}

/// A body of the `llms.txt` and sitemap cache.
struct Cached {
    generation: String,
    /// What the body is of (`llms` or `sitemap`, and the base URL).
    key: String,
    body: Arc<String>,
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

    /// The body of `key` in `generation`, cached, or built. The cache holds
    /// one generation's bodies (a new one drops the others), at most
    /// [`MAX_CACHED_BODIES`] of them and [`MAX_CACHED_BYTES`] in all, so
    /// neither Host headers nor generations grow it.
    pub(crate) fn cached(
        &self,
        generation: &str,
        key: String,
        build: impl FnOnce() -> Result<String, crate::SiteError>,
    ) -> Result<Arc<String>, crate::SiteError> {
        let lock = || self.inner.cached.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(hit) = lock().iter().find(|c| c.generation == generation && c.key == key) {
            return Ok(hit.body.clone());
        }
        // A build that stopped (its client left) is not cached: the next
        // request builds again.
        let body = Arc::new(build()?);
        if body.len() > MAX_CACHED_BYTES {
            return Ok(body);
        }
        let mut cache = lock();
        cache.retain(|c| c.generation == generation && c.key != key);
        while cache.len() >= MAX_CACHED_BODIES
            || cache.iter().map(|c| c.body.len()).sum::<usize>() + body.len() > MAX_CACHED_BYTES
        {
            cache.remove(0);
        }
        cache.push(Cached { generation: generation.to_owned(), key, body: body.clone() });
        Ok(body)
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
