//! What a static export of the site holds: every URL the site answers that
//! a static host can serve as a file (each published page as HTML and as
//! `.md`, the fixed routes of [`static_routes`], the home, the 404 page and
//! the assets pages reference),
//! the file each one goes to, and its bytes, rendered by the site's own
//! router in-process so an export is what `serve --site` answers, byte for
//! byte, by construction. Writing the files is the caller's business.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use lectern_library::{Descriptions, Library, LibraryError, View};
use tokio::task::JoinSet;
use tower::ServiceExt;

use crate::routes::encode_path;
use crate::state::{Options, SiteState};

/// The site's fixed routes (not pages) that a static host serves as files
/// of the same name: `/llms.txt` → `llms.txt`. Routes added to the site
/// that a static host can serve belong here, so exports pick them up; the
/// strings are owned, so a route named at run time (an asset under a hash
/// of its bytes) fits too.
pub fn static_routes() -> Vec<String> {
    ["/llms.txt", "/sitemap.xml", "/robots.txt", "/favicon.ico"].map(String::from).into()
}

/// The URL whose answer an export writes as `404.html`: no page lives
/// there, so the site answers it with its page for a missing URL (static
/// hosts show `404.html` for every URL they have no file for).
pub const NOT_FOUND_URL: &str = "/404.html";

/// One file of an export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportFile {
    /// The URL path as the site spells it (not percent-encoded).
    pub url: String,
    /// The file's path relative to the export folder, `/`-separated.
    pub file: String,
    pub kind: FileKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A page as HTML: `/app/guide` → `app/guide/index.html`.
    Page,
    /// A page's `.md` twin: `/app/guide.md` → `app/guide.md`.
    Markdown,
    /// A fixed route or the home: written as the site answers it.
    Fixed,
    /// The page for a missing URL, answered with 404.
    NotFound,
    /// An image or file a page references: `/app/img/x.png` → `app/img/x.png`.
    Asset,
    /// Another path of a page (an old address, a file's other name): the
    /// site redirects it to the page, so a static host gets a page that
    /// sends the browser there. `/app/old` → `app/old/index.html`.
    Moved,
    /// An edition's home when no published page lives at its prefix: the
    /// site may answer it (a generated landing page) or not; a static host
    /// gets whatever it answers with 200, and nothing otherwise.
    Home,
}

/// Every file of an export of `view`, fixed routes first, then per edition
/// in the order [`View::published`] lists them its home (when no page
/// lives at its prefix) and its pages, then the other paths of pages, then
/// every asset by path. A page whose file would
/// clash with another file (a page `/llms.txt`, or `/a.md` beside `/a`) is
/// left out and named in the second list, with the reason: the site never
/// answers such a URL with that page either.
pub fn export_files(view: &View) -> (Vec<ExportFile>, Vec<String>) {
    let mut files = vec![ExportFile { url: "/".into(), file: "index.html".into(), kind: FileKind::Fixed }];
    for route in static_routes() {
        let file = route.trim_start_matches('/').to_owned();
        files.push(ExportFile { url: route, file, kind: FileKind::Fixed });
    }
    files.push(ExportFile { url: NOT_FOUND_URL.into(), file: "404.html".into(), kind: FileKind::NotFound });
    for edition in view.published(Descriptions::Skip) {
        if !edition.pages.iter().any(|p| p.path == edition.prefix) {
            let relative = edition.prefix.trim_start_matches('/');
            if !relative.is_empty() {
                let html = format!("{relative}/index.html");
                files.push(ExportFile { url: edition.prefix.clone(), file: html, kind: FileKind::Home });
            }
        }
        for page in edition.pages {
            let relative = page.path.trim_start_matches('/');
            let html =
                if relative.is_empty() { "index.html".into() } else { format!("{relative}/index.html") };
            files.push(ExportFile { url: page.path.clone(), file: html, kind: FileKind::Page });
            files.push(ExportFile {
                url: format!("{}.md", page.path),
                file: format!("{relative}.md"),
                kind: FileKind::Markdown,
            });
        }
    }
    for url in view.published_moved() {
        let file = format!("{}/index.html", url.trim_start_matches('/'));
        files.push(ExportFile { url, file, kind: FileKind::Moved });
    }
    for asset in view.published_assets() {
        let file = asset.path.trim_start_matches('/').to_owned();
        files.push(ExportFile { url: asset.path, file, kind: FileKind::Asset });
    }
    without_clashes(files)
}

/// Drops the files whose name is taken (the first file keeps it) or lies
/// inside a folder that is another file's name, and the files whose name
/// could leave the export folder (`..`, empty segments).
fn without_clashes(files: Vec<ExportFile>) -> (Vec<ExportFile>, Vec<String>) {
    use std::collections::HashMap;
    let mut owner: HashMap<String, String> = HashMap::new();
    for f in &files {
        owner.entry(f.file.clone()).or_insert_with(|| f.url.clone());
    }
    let mut seen = std::collections::HashSet::new();
    let (mut kept, mut skipped) = (Vec::with_capacity(files.len()), Vec::new());
    for f in files {
        let unsafe_name =
            f.file.split('/').any(|s| s.is_empty() || s == "." || s == "..") || f.file.contains('\0');
        let under_file = f.file.match_indices('/').find_map(|(i, _)| owner.get(&f.file[..i]));
        if unsafe_name {
            skipped.push(format!("{}: {:?} is not a file name a static host can serve", f.url, f.file));
        } else if owner[&f.file] != f.url {
            skipped.push(format!("{}: its file {} is already {}'s", f.url, f.file, owner[&f.file]));
        } else if let Some(url) = under_file {
            skipped.push(format!("{}: its file {} would sit inside {url}'s file", f.url, f.file));
        } else if seen.insert(f.file.clone()) {
            kept.push(f);
        }
    }
    (kept, skipped)
}

/// What the site answered for one file.
#[derive(Debug)]
pub enum Rendered {
    /// Nothing to write: a [`FileKind::Home`] the site does not answer.
    Absent,
    /// The exact bytes the site sends for the URL (uncompressed).
    Body(Vec<u8>),
    /// The site answers with a redirect (the home of a site without a page
    /// at `/`); a static host gets a page that sends the browser there.
    Redirect { location: String, page: Vec<u8> },
    /// Anything else: the status and the start of the answer, for the report.
    Refused { status: StatusCode, message: String },
}

/// Renders the files of one generation through the site's router.
pub struct Renderer {
    app: Router,
    /// The site's `base_url`, for the canonical link of a redirect page.
    base: String,
}

impl Renderer {
    /// The router over `library`, which must be open at the generation to
    /// export: the router reads whatever the library's current view is, and
    /// a library nobody refreshes keeps the generation it was opened at.
    /// Fails when the site has no `base_url`: a static file cannot take the
    /// host from a request, and the sitemap needs absolute URLs.
    pub fn new(library: Arc<Library>) -> Result<Renderer, LibraryError> {
        let view = library.view()?;
        let Some(base) = view.site().and_then(|s| s.base_url.clone()) else {
            return Err(LibraryError::InvalidArgument(
                "a static export needs the site's address for the sitemap and llms.txt: set base_url in the \
                 [site] table of the site config (base_url = \"https://docs.example.com\") and install it \
                 with `lectern add --site lectern.toml`"
                    .into(),
            ));
        };
        drop(view);
        // Nobody to slow down: the export is the only client.
        let options = Options { rate_limit_per_minute: Some(u32::MAX), ..Options::default() };
        Ok(Renderer { app: crate::app(SiteState::new(library, options)), base })
    }

    /// Renders one file.
    pub async fn render(&self, file: &ExportFile) -> Rendered {
        let request = Request::get(encode_path(&file.url))
            // A loopback name always passes the Host check; links come from base_url.
            .header(header::HOST, "localhost")
            .body(Body::empty());
        let request = match request {
            Ok(r) => r,
            Err(e) => return Rendered::Refused { status: StatusCode::BAD_REQUEST, message: e.to_string() },
        };
        let response = match self.app.clone().oneshot(request).await {
            Ok(r) => r,
            Err(never) => match never {},
        };
        let (parts, body) = response.into_parts();
        let bytes = match body.collect().await {
            Ok(b) => b.to_bytes().to_vec(),
            Err(e) => {
                return Rendered::Refused {
                    status: StatusCode::INTERNAL_SERVER_ERROR,
                    message: format!("reading the answer failed: {e}"),
                };
            }
        };
        let expected = if file.kind == FileKind::NotFound { StatusCode::NOT_FOUND } else { StatusCode::OK };
        let location = parts.headers.get(header::LOCATION).and_then(|v| v.to_str().ok());
        match (parts.status, location) {
            (status, _) if status == expected => Rendered::Body(bytes),
            (status, Some(location)) if status.is_redirection() => Rendered::Redirect {
                location: location.to_owned(),
                page: redirect_page(location, &self.base).into_bytes(),
            },
            (_, _) if file.kind == FileKind::Home => Rendered::Absent,
            (status, _) => Rendered::Refused {
                status,
                message: String::from_utf8_lossy(&bytes).chars().take(300).collect(),
            },
        }
    }

    /// Renders every file, at most `parallel` at once, and hands each to
    /// `each` as it is ready (so only `parallel` bodies are held at a time);
    /// `each` may stop the export by returning an error.
    pub async fn render_all<E>(
        self,
        files: Vec<ExportFile>,
        parallel: usize,
        mut each: impl FnMut(ExportFile, Rendered) -> Result<(), E>,
    ) -> Result<(), E> {
        let this = Arc::new(self);
        let mut running = JoinSet::new();
        let mut queue = files.into_iter();
        loop {
            while running.len() < parallel.max(1) {
                let Some(file) = queue.next() else { break };
                let renderer = this.clone();
                running.spawn(async move {
                    let rendered = renderer.render(&file).await;
                    (file, rendered)
                });
            }
            match running.join_next().await {
                Some(Ok((file, rendered))) => each(file, rendered)?,
                Some(Err(e)) => std::panic::resume_unwind(e.into_panic()),
                None => return Ok(()),
            }
        }
    }
}

/// A page that sends its visitor to `location` at once, for hosts that
/// serve only files (`/` of a site whose home is its default edition's).
/// `base` makes the canonical link absolute.
pub fn redirect_page(location: &str, base: &str) -> String {
    let href = crate::html::escape(location);
    let canonical = if location.starts_with('/') {
        crate::html::escape(&format!("{base}{location}"))
    } else {
        href.clone()
    };
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Redirecting…</title>\n\
         <meta http-equiv=\"refresh\" content=\"0; url={href}\">\n<link rel=\"canonical\" href=\"{canonical}\">\n\
         </head>\n<body>\n<p><a href=\"{href}\">Continue to {href}</a></p>\n</body>\n</html>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(url: &str, file: &str) -> ExportFile {
        ExportFile { url: url.into(), file: file.into(), kind: FileKind::Page }
    }

    #[test]
    fn clashing_and_unsafe_names_are_left_out_and_named() {
        let (kept, skipped) = without_clashes(vec![
            file("/llms.txt", "llms.txt"),
            file("/a", "a/index.html"),
            file("/a.md", "a.md"),
            file("/a.md", "a.md/index.html"),
            file("/x/../y", "x/../y/index.html"),
            file("/b", "a/index.html"),
            file("/a", "a/index.html"),
        ]);
        let urls: Vec<&str> = kept.iter().map(|f| f.url.as_str()).collect();
        assert_eq!(urls, ["/llms.txt", "/a", "/a.md"]);
        assert_eq!(skipped.len(), 3, "{skipped:?}");
        assert!(skipped[0].contains("inside /a.md's file"), "{skipped:?}");
        assert!(skipped[1].contains("not a file name"), "{skipped:?}");
        assert!(skipped[2].contains("already /a's"), "{skipped:?}");
    }

    #[test]
    fn redirect_pages_escape_their_target() {
        let page = redirect_page("/a\"><script>", "https://docs.example.com");
        assert!(page.contains("url=/a&quot;&gt;&lt;script&gt;"), "{page}");
        assert!(page.contains("href=\"https://docs.example.com/a&quot;"), "{page}");
        assert!(!page.contains("<script>"));
    }
}
