//! `lectern export --site`: the static files are what a real
//! `lectern serve --site` answers, and a second export touches only what
//! changed.
//!
//! Contents:
//! - `every_exported_file_is_what_the_server_answers`: on a generated site
//!   (two locales with stand-ins for missing translations, a non-ASCII
//!   path) and on `examples/demo`, every file equals, byte for byte, the
//!   uncompressed HTTP answer of `serve --site --read-only` on loopback
//!   for the same generation; the HTML pages are exactly the sitemap's
//!   URLs and the `.md` files exactly `llms.txt`'s links; the images pages
//!   reference are exported at the paths the site serves them; a page's
//!   other name (a symbolic link) is a page that redirects to it.
//! - `a_second_export_rewrites_only_what_changed`: after one page changes,
//!   one is removed and one is added, unchanged files keep their times,
//!   the removed page's files (and its emptied folder) are gone, and a
//!   file the user put beside the export is kept.
//! - `bad_folders_and_sites_are_refused_clearly`: a non-empty folder that
//!   is no earlier export (unless `--force`), a file as `--out`, a
//!   read-only folder, a damaged manifest, a site without `base_url`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/http.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod http;
#[path = "common/mount.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod mount;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use server::Server;

const BASE: &str = "https://docs.example.test";

/// Writes `pages` (path under the site folder → Markdown) and a config of
/// an English edition and a partial German one; returns the config.
fn write_site(dir: &Path, pages: &[(&str, &str)], base_url: bool) -> PathBuf {
    let site = dir.join("site");
    let _ = std::fs::remove_dir_all(&site);
    for (file, body) in pages {
        let path = site.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let base = if base_url { format!("base_url = \"{BASE}\"\n") } else { String::new() };
    let config = site.join("lectern.toml");
    std::fs::write(
        &config,
        format!(
            "[site]\nname = \"Export\"\ndefault_locale = \"en\"\n{base}\n\
             [[editions]]\nproject = \"tool\"\nversion = \"3\"\nlocale = \"en\"\nlabel = \"Tool 3\"\nprefix = \"/tool\"\ndefault = true\nsource = \"en\"\n\n\
             [[editions]]\nproject = \"tool\"\nversion = \"3\"\nlocale = \"de\"\nlabel = \"Tool 3 (Deutsch)\"\nprefix = \"/de/tool\"\nsource = \"de\"\n"
        ),
    )
    .unwrap();
    config
}

fn pages() -> Vec<(&'static str, &'static str)> {
    vec![
        ("en/index.md", "---\ntitle: Tool\n---\n\n# Tool\n\nStart with [install](guide/install.md).\n"),
        (
            "en/guide/install.md",
            "---\ntitle: Install\ndescription: Get the tool\n---\n\n# Install\n\nRun `make`.\n",
        ),
        (
            "en/guide/größen.md",
            "# Größen\n\nSizes and limits, 東京 included.\n\n![dot](img/dot.gif) ![logo](../logo.svg)\n",
        ),
        ("en/guide/old.md", "# Old\n\nTo be removed.\n"),
        ("de/index.md", "---\ntitle: Werkzeug\n---\n\n# Werkzeug\n\nLos geht's.\n"),
        ("en/guide/img/dot.gif", "GIF89a\x01\x00\x01\x00\x00\x00\x00;"),
        ("en/logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2\" height=\"2\"/>"),
    ]
}

/// `lectern export --site [CONFIG] --out OUT --user-data LIB ARGS`.
fn export(lib: &Path, config: Option<&Path>, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut c = bin::lectern();
    c.arg("export").arg("--site");
    if let Some(config) = config {
        c.arg(config);
    }
    c.arg("--out").arg(out).args(extra).arg("--user-data").arg(lib);
    c.output().unwrap()
}

fn export_ok(lib: &Path, config: Option<&Path>, out: &Path) -> String {
    let o = export(lib, config, out, &[]);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "export failed:\n{stderr}");
    stderr
}

/// Every file under `dir`, relative, `/`-separated.
fn files(dir: &Path) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, &mut out);
    out
}

/// Percent-encodes a path for a request line.
fn encode(path: &str) -> String {
    path.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(&path[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// The URL a file answers on a static host (`a/index.html` → `/a`).
fn url_of(file: &str) -> String {
    match file.strip_suffix("index.html") {
        Some(dir) => format!("/{}", dir.trim_end_matches('/')),
        None => format!("/{file}"),
    }
}

/// Compares every file the export wrote (its manifest lists them) with the
/// server's answer; returns the number of files compared.
fn compare_with_server(lib: &Path, out: &Path, base: &str) -> usize {
    let server = Server::site(lib);
    let authority = server.authority();
    let exported = files(out);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join(".lectern-export.json")).unwrap()).unwrap();
    let (_, health) = http::get(&authority, "/healthz");
    let health: serde_json::Value = serde_json::from_str(&health).unwrap();
    assert_eq!(manifest["generation"], health["generation"], "the export is of the generation served");
    let listed: BTreeSet<String> =
        manifest["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_owned()).collect();
    assert!(listed.is_subset(&exported), "the manifest lists only files that are there");
    let exported = listed;

    let mut compared = 0;
    let mut redirects = BTreeSet::new();
    for file in &exported {
        if file == ".nojekyll" {
            continue;
        }
        // The answer's body is read as text (lossily, as `http::send` does),
        // so a binary file (the icon) is compared the same way.
        let body = String::from_utf8_lossy(&std::fs::read(out.join(file)).unwrap()).into_owned();
        let url = url_of(file);
        let answer = http::send(&authority, &http::request("GET", &authority, &encode(&url), &[], &[]));
        match file.as_str() {
            "404.html" => assert_eq!(answer, (404, body.clone()), "{file}"),
            // The home of a site whose home is an edition's, and another
            // path of a page (an old address, a file's other name).
            _ if answer.0 == 307 => {
                assert!(file.ends_with("index.html"), "{file}");
                assert!(body.contains("http-equiv=\"refresh\""), "{body}");
                redirects.insert(url.clone());
            }
            _ => assert_eq!(answer, (200, body.clone()), "{file} differs from GET {url}"),
        }
        compared += 1;
    }

    // What the export holds is what the site publishes, by the site's own lists.
    let (_, sitemap) = http::get(&authority, "/sitemap.xml");
    let pages: BTreeSet<String> = sitemap
        .split("<loc>")
        .skip(1)
        .map(|s| decode(s.split("</loc>").next().unwrap().strip_prefix(base).unwrap()))
        .collect();
    assert!(pages.len() >= 3, "{sitemap}");
    let html: BTreeSet<String> =
        exported.iter().filter(|f| f.ends_with("/index.html")).map(|f| url_of(f)).collect();
    let (_, llms) = http::get(&authority, "/llms.txt");
    // `## label (prefix, locale)`: an edition's home may be a page the site
    // makes for it, outside the sitemap.
    let prefixes: BTreeSet<String> = llms
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter_map(|l| l.rsplit_once(" (").map(|(_, rest)| rest.split(", ").next().unwrap().to_owned()))
        .collect();
    assert!(
        pages.is_subset(&html),
        "an HTML file for every page of the sitemap: {:?}",
        pages.difference(&html)
    );
    let extra: Vec<&String> =
        html.difference(&pages).filter(|p| !prefixes.contains(*p) && !redirects.contains(*p)).collect();
    assert!(
        extra.is_empty(),
        "HTML files that are neither a page of the sitemap, an edition's home nor a redirect: {extra:?}"
    );
    let twins: BTreeSet<String> =
        llms.split(&format!("]({base}")).skip(1).map(|s| decode(s.split(')').next().unwrap())).collect();
    let md: BTreeSet<String> = exported.iter().filter(|f| f.ends_with(".md")).map(|f| url_of(f)).collect();
    assert_eq!(md, twins, "a .md file for every link of llms.txt, and no other");
    compared
}

#[test]
fn every_exported_file_is_what_the_server_answers() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_site(dir.path(), &pages(), true);
    // Another name of a page: the site redirects it to the page.
    std::os::unix::fs::symlink("install.md", dir.path().join("site/en/guide/setup.md")).unwrap();
    let lib = dir.path().join("lib");
    let out = dir.path().join("out");
    let said = export_ok(&lib, Some(&config), &out);
    assert!(said.contains("new, 0 changed, 0 unchanged"), "{said}");
    let exported = files(&out);
    for expected in [
        "llms.txt",
        "sitemap.xml",
        "404.html",
        "index.html",
        "tool/guide/größen/index.html",
        "tool/guide/größen.md",
        "tool/guide/img/dot.gif",
        "tool/logo.svg",
    ] {
        assert!(exported.contains(expected), "{expected} missing from {exported:?}");
    }
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join(".lectern-export.json")).unwrap()).unwrap();
    let mut listed: BTreeSet<String> =
        manifest["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_owned()).collect();
    listed.insert(".lectern-export.json".into());
    assert_eq!(listed, exported, "the manifest lists every file written, and only those");
    // The page shows its images from the files exported beside it.
    let page = std::fs::read_to_string(out.join("tool/guide/größen/index.html")).unwrap();
    assert!(page.contains(r#"<img src="/tool/guide/img/dot.gif" alt="dot""#), "{page}");
    assert_eq!(std::fs::read(out.join("tool/logo.svg")).unwrap(), pages().last().unwrap().1.as_bytes());
    // A stand-in for the missing German translation is a page of its own,
    // and shows the English images at its own paths.
    assert!(exported.contains("de/tool/guide/img/dot.gif"), "{exported:?}");
    assert!(exported.contains("de/tool/guide/install/index.html"), "{exported:?}");
    // The other name is a page that sends the browser to the page, with no
    // Markdown twin of its own.
    let setup = std::fs::read_to_string(out.join("tool/guide/setup/index.html")).unwrap();
    assert!(setup.contains(r#"<meta http-equiv="refresh" content="0; url=/tool/guide/install">"#), "{setup}");
    assert!(!exported.contains("tool/guide/setup.md"), "{exported:?}");
    let compared = compare_with_server(&lib, &out, BASE);
    assert!(compared >= 12, "{compared}");

    let demo = bin::demo_library();
    let demo_out = dir.path().join("demo-out");
    export_ok(demo.path(), None, &demo_out);
    let compared = compare_with_server(demo.path(), &demo_out, "https://docs.acme.example");
    assert!(compared >= 40, "{compared}");
}

/// Sets `file`'s modification time to `when`.
fn age(file: &Path, when: SystemTime) {
    std::fs::File::options().write(true).open(file).unwrap().set_modified(when).unwrap();
}

fn modified(file: &Path) -> SystemTime {
    std::fs::metadata(file).unwrap().modified().unwrap()
}

#[test]
fn a_second_export_rewrites_only_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_site(dir.path(), &pages(), true);
    let lib = dir.path().join("lib");
    let out = dir.path().join("out");
    export_ok(&lib, Some(&config), &out);
    std::fs::write(out.join("CNAME"), "docs.example.test\n").unwrap();
    let before = files(&out);
    let long_ago = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    let mut old_bytes = std::collections::BTreeMap::new();
    for file in &before {
        age(&out.join(file), long_ago);
        old_bytes.insert(file.clone(), std::fs::read(out.join(file)).unwrap());
    }

    // The same generation again: nothing is rewritten.
    let said = export_ok(&lib, None, &out);
    assert!(said.contains("(0 new, 0 changed,"), "{said}");
    assert!(before.iter().all(|f| modified(&out.join(f)) == long_ago), "a file was rewritten");

    // One page changed, one removed, one added (so every sidebar changes).
    let mut changed = pages();
    changed.retain(|(f, _)| *f != "en/guide/old.md");
    changed[1].1 =
        "---\ntitle: Install\ndescription: Get the tool\n---\n\n# Install\n\nRun `make install`.\n";
    changed.push(("en/guide/new.md", "# New\n\nA new page.\n"));
    let config = write_site(dir.path(), &changed, true);
    let said = export_ok(&lib, Some(&config), &out);
    let after = files(&out);

    let (mut kept, mut rewritten) = (Vec::new(), Vec::new());
    for file in before.intersection(&after).filter(|f| f.as_str() != ".lectern-export.json") {
        let same = std::fs::read(out.join(file)).unwrap() == old_bytes[file];
        let untouched = modified(&out.join(file)) == long_ago;
        assert_eq!(same, untouched, "{file}: same bytes {same}, untouched {untouched}");
        if same { kept.push(file.clone()) } else { rewritten.push(file.clone()) }
    }
    assert!(kept.contains(&"tool/guide/größen.md".to_owned()), "{kept:?}");
    assert!(kept.contains(&"CNAME".to_owned()), "a file the export did not write is kept");
    assert!(rewritten.contains(&"tool/guide/install.md".to_owned()), "{rewritten:?}");
    for gone in ["tool/guide/old/index.html", "tool/guide/old.md", "de/tool/guide/old/index.html"] {
        assert!(before.contains(gone) && !after.contains(gone), "{gone}: {after:?}");
    }
    assert!(!out.join("tool/guide/old").exists(), "the removed page's emptied folder is gone");
    assert!(
        after.contains("tool/guide/new/index.html") && after.contains("de/tool/guide/new.md"),
        "{after:?}"
    );
    assert!(said.contains(&format!("{} unchanged), 4 removed", kept.len() - 1)), "{said}");
    compare_with_server(&lib, &out, BASE);
}

fn refusal(o: std::process::Output) -> String {
    assert!(!o.status.success(), "expected a refusal; stdout: {}", String::from_utf8_lossy(&o.stdout));
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn bad_folders_and_sites_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_site(dir.path(), &pages(), true);
    let lib = dir.path().join("lib");
    bin::ok(&lib, &["add", "--site", config.to_str().unwrap()]);

    let busy = dir.path().join("busy");
    std::fs::create_dir(&busy).unwrap();
    std::fs::write(busy.join("notes.txt"), "mine").unwrap();
    let err = refusal(export(&lib, None, &busy, &[]));
    assert!(err.contains("not empty") && err.contains("--force"), "{err}");
    assert_eq!(files(&busy).len(), 1, "nothing was written");
    let o = export(&lib, None, &busy, &["--force"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(busy.join("notes.txt").exists() && busy.join("llms.txt").exists());

    let err = refusal(export(&lib, None, &busy.join("notes.txt"), &[]));
    assert!(err.contains("is not a folder"), "{err}");

    std::fs::write(busy.join(".lectern-export.json"), r#"{"format":1,"generation":"g","files":["../../x"]}"#)
        .unwrap();
    let err = refusal(export(&lib, None, &busy, &[]));
    assert!(err.contains("not a manifest this export can read") && err.contains("../../x"), "{err}");

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    match mount::ReadOnlyMount::of(&empty) {
        Some(ro) => {
            let err = refusal(export(&lib, None, &ro.at, &[]));
            assert!(err.contains("cannot write into the export folder"), "{err}");
        }
        None => eprintln!("skipped the read-only folder case: this machine allows no mounts"),
    }

    let no_base = write_site(&dir.path().join("plain"), &pages(), false);
    let plain = dir.path().join("plain-lib");
    let never = dir.path().join("never");
    let err = refusal(export(&plain, Some(&no_base), &never, &[]));
    assert!(err.contains("base_url"), "{err}");
    assert!(!never.exists(), "no folder is made for an export that cannot run");
}
