//! [`LibraryStatus`]: the figures a status endpoint reports about the
//! library — its generation, edition counts and result-cache counters.

use crate::error::LibraryError;
use crate::library::Library;

/// The library at the current generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibraryStatus {
    pub generation: String,
    pub editions_enabled: usize,
    pub editions_total: usize,
    /// Whether repeated searches are answered from the result cache.
    pub result_cache: bool,
    /// Searches of this generation answered from the cache.
    pub cache_hits: u64,
    /// Searches of this generation looked up in the cache and then searched.
    pub cache_misses: u64,
}

impl Library {
    pub fn status(&self) -> Result<LibraryStatus, LibraryError> {
        let view = self.view()?;
        Ok(LibraryStatus {
            generation: view.generation.clone(),
            editions_enabled: view.manifest.editions.iter().filter(|e| e.enabled).count(),
            editions_total: view.manifest.editions.len(),
            result_cache: self.result_cache(),
            cache_hits: view.snapshot.cached_searches(),
            cache_misses: view.snapshot.searched_after_cache_miss(),
        })
    }
}
