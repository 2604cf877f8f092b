//! Site paths: a page's full path as the site serves it (`/app/guide/install`),
//! parsed once — anchor and surrounding space dropped, validated, trailing
//! slashes trimmed — so reading a page and serving it resolve the same string.

use crate::edition::in_prefix;

/// Longest site path, in bytes (a path cursor is one too).
pub const MAX_PATH_BYTES: usize = 1024;

/// A validated full site path: starts with `/`, at most [`MAX_PATH_BYTES`],
/// no control characters, no `#anchor`, no trailing slash (but `/` itself;
/// a path of several slashes only is left empty, and names no page).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitePath(String);

/// A string that is not a site path, and why: each face words its own message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotASitePath<'a> {
    /// The string without its `#anchor` and surrounding space.
    pub given: &'a str,
    pub problem: PathProblem,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathProblem {
    /// A full site path starts with `/`.
    NotFull,
    /// Longer than [`MAX_PATH_BYTES`] or holding a control character.
    Malformed,
}

impl SitePath {
    /// Parses what a reader asked for (`/app/guide/install/#options` is
    /// `/app/guide/install`).
    pub fn parse(raw: &str) -> Result<SitePath, NotASitePath<'_>> {
        let given = raw.split('#').next().unwrap_or("").trim();
        let problem = if !given.starts_with('/') {
            PathProblem::NotFull
        } else if given.len() > MAX_PATH_BYTES || given.chars().any(char::is_control) {
            PathProblem::Malformed
        } else {
            let path = if given.len() > 1 { given.trim_end_matches('/') } else { given };
            return Ok(SitePath(path.to_owned()));
        };
        Err(NotASitePath { given, problem })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the path is `prefix` or below it.
    pub fn is_in(&self, prefix: &str) -> bool {
        in_prefix(&self.0, prefix)
    }
}

impl std::fmt::Display for SitePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The path's part below `prefix` (`""` or starting with `/`).
pub fn relative<'p>(path: &'p str, prefix: &str) -> &'p str {
    if prefix == "/" {
        if path == "/" { "" } else { path }
    } else {
        path.strip_prefix(prefix).unwrap_or(path)
    }
}

/// `prefix` + a relative path from [`relative`].
pub fn join(prefix: &str, rel: &str) -> String {
    match (prefix, rel) {
        ("/", "") => "/".to_owned(),
        ("/", r) => r.to_owned(),
        (p, r) => format!("{p}{r}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_lose_anchors_space_and_trailing_slashes_once() {
        let ok = |raw: &str| SitePath::parse(raw).map(|p| p.as_str().to_owned()).ok();
        assert_eq!(ok(" /app/guide/install/#options ").as_deref(), Some("/app/guide/install"));
        assert_eq!(ok("/").as_deref(), Some("/"));
        assert_eq!(ok("///").as_deref(), Some(""));
        let problem = |raw: &str| SitePath::parse(raw).unwrap_err().problem;
        assert_eq!(problem("app/guide"), PathProblem::NotFull);
        assert_eq!(problem("#top"), PathProblem::NotFull);
        assert_eq!(problem("/a\u{0}b"), PathProblem::Malformed);
        assert_eq!(problem(&format!("/{}", "x".repeat(MAX_PATH_BYTES))), PathProblem::Malformed);
    }

    #[test]
    fn relative_paths_join_back() {
        for (path, prefix) in [("/app/guide", "/app"), ("/app", "/app"), ("/guide", "/"), ("/", "/")] {
            assert_eq!(join(prefix, relative(path, prefix)), path);
        }
    }
}
