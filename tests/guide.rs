//! The user guide (`docs/guide`, a Lectern site declared by
//! `docs/lectern.toml`) checked the way a reader uses it, plus the CLI's own
//! help, completions and man page.
//!
//! Contents:
//! - pages: frontmatter on every page; English and Simplified Chinese have the
//!   same pages, headings in step, and the same commands
//! - links: every internal link (a relative `.md` file or an absolute site
//!   path, with its `#anchor`) resolves to a page of the guide
//! - commands: every line of every ```sh block runs against a temporary
//!   library built from examples/demo and the guide itself
//! - serving: `lectern serve --site docs/lectern.toml` serves every page
//! - help: every command's `--help` shows an example; completions; `man`
//!
//! The runnable-example convention: a fenced block tagged `sh` holds commands
//! that work offline, one per line (`\` continues a line), each starting with
//! `lectern` (or `mkdir`). They run through `sh -c` in a scratch folder that
//! links `docs/` and `examples/` from the source tree, with `HOME` pointing
//! at a scratch home and `LECTERN_USER_DATA` at the scratch library. A line
//! ending in `# exit N` must exit with N; others must succeed. `serve` lines
//! run until they print their URL (with `--listen` moved to a free port) and
//! are then stopped. Blocks that need a network, a browser, a running server
//! or files the reader has (`shell`, `text`, `json`, ...) are shown, not run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/http.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod http;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use bin::{lectern, root};
use server::Server;

const LOCALES: [(&str, &str); 2] = [("en", "/lectern"), ("zh-Hans", "/zh-Hans/lectern")];

/// One page of the guide.
#[derive(Debug)]
struct Page {
    /// Relative to `docs/guide`, e.g. `en/search.md`.
    file: String,
    locale: &'static str,
    /// Full site path, e.g. `/lectern/search`.
    path: String,
    frontmatter: BTreeMap<String, String>,
    body: String,
}

fn guide_pages() -> Vec<Page> {
    let mut pages = Vec::new();
    for (locale, prefix) in LOCALES {
        let dir = root().join("docs/guide").join(locale);
        let mut files = Vec::new();
        walk(&dir, &mut files);
        for file in files {
            let rel = file.strip_prefix(&dir).unwrap().to_str().unwrap().to_owned();
            let text = std::fs::read_to_string(&file).unwrap();
            let (frontmatter, body) =
                split_frontmatter(&text).unwrap_or_else(|| panic!("{}: no YAML frontmatter", file.display()));
            let stem = rel.strip_suffix(".md").unwrap();
            let stem = stem.strip_suffix("index").unwrap_or(stem).trim_end_matches('/');
            let path = if stem.is_empty() { prefix.to_owned() } else { format!("{prefix}/{stem}") };
            pages.push(Page {
                file: format!("{locale}/{rel}"),
                locale,
                path,
                frontmatter,
                body: body.to_owned(),
            });
        }
    }
    assert!(pages.len() >= 16, "the guide has too few pages: {}", pages.len());
    pages
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "md") {
            out.push(p);
        }
    }
}

/// `key: value` lines of the frontmatter (the guide uses flat scalars only).
fn split_frontmatter(text: &str) -> Option<(BTreeMap<String, String>, &str)> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    let mut map = BTreeMap::new();
    for line in rest[..end].lines() {
        let (k, v) = line.split_once(':')?;
        map.insert(k.trim().to_owned(), v.trim().to_owned());
    }
    Some((map, &rest[end + 5..]))
}

/// A fenced block: its tag and lines.
#[derive(Debug)]
struct Block {
    tag: String,
    lines: Vec<String>,
}

/// The body with fenced blocks and inline code removed (for links and
/// headings), and the blocks themselves.
fn split_code(body: &str) -> (String, Vec<Block>) {
    let mut prose = String::new();
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for line in body.lines() {
        let trimmed = line.trim_start();
        match &mut open {
            Some(block) => {
                if trimmed.starts_with("```") {
                    blocks.push(open.take().unwrap());
                } else {
                    block.lines.push(line.to_owned());
                }
            }
            None => {
                if let Some(tag) = trimmed.strip_prefix("```") {
                    open = Some(Block { tag: tag.trim().to_owned(), lines: Vec::new() });
                } else {
                    let mut in_code = false;
                    for part in line.split('`') {
                        if !in_code {
                            prose.push_str(part);
                        }
                        in_code = !in_code;
                    }
                    prose.push('\n');
                }
            }
        }
    }
    assert!(open.is_none(), "an unclosed code block");
    (prose, blocks)
}

/// Targets of inline Markdown links `[text](target)`.
fn links(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = prose;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].trim().to_owned());
            rest = &rest[end..];
        }
    }
    out
}

/// The commands of a ```sh block: `\` continuations joined, comments and
/// blank lines dropped, with the expected exit code.
fn commands(block: &Block) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in &block.lines {
        let line = line.trim();
        if let Some(head) = line.strip_suffix('\\') {
            current.push_str(head.trim_end());
            current.push(' ');
            continue;
        }
        current.push_str(line);
        let command = std::mem::take(&mut current);
        if command.is_empty() || command.starts_with('#') {
            continue;
        }
        let (command, code) = match command.rsplit_once("# exit ") {
            Some((c, n)) => (c.trim().to_owned(), n.trim().parse().expect("# exit N")),
            None => (command, 0),
        };
        out.push((command, code));
    }
    out
}

fn runnable(pages: &[Page]) -> Vec<(&Page, String, i32)> {
    let mut out = Vec::new();
    for page in pages {
        for block in split_code(&page.body).1.iter().filter(|b| b.tag == "sh") {
            for (command, code) in commands(block) {
                let first = command.split_whitespace().next().unwrap_or("");
                assert!(
                    first == "lectern" || first == "mkdir",
                    "{}: a ```sh line must start with `lectern` (or `mkdir`); mark other blocks `shell`: {command}",
                    page.file
                );
                out.push((page, command, code));
            }
        }
    }
    out
}

#[test]
fn every_page_has_frontmatter_and_a_translation() {
    let pages = guide_pages();
    for page in &pages {
        for key in ["title", "description", "order"] {
            let value = page.frontmatter.get(key).map(String::as_str).unwrap_or("");
            assert!(!value.is_empty(), "{}: frontmatter `{key}` is missing", page.file);
        }
        page.frontmatter["order"]
            .parse::<i64>()
            .unwrap_or_else(|_| panic!("{}: order is not a number", page.file));
    }
    let by_locale = |l: &str| -> BTreeMap<String, &Page> {
        pages
            .iter()
            .filter(|p| p.locale == l)
            .map(|p| (p.file.split_once('/').unwrap().1.to_owned(), p))
            .collect()
    };
    let (en, zh) = (by_locale("en"), by_locale("zh-Hans"));
    assert_eq!(
        en.keys().collect::<Vec<_>>(),
        zh.keys().collect::<Vec<_>>(),
        "the same pages in both locales"
    );
    for (file, e) in &en {
        let z = zh[file];
        assert_eq!(e.frontmatter["order"], z.frontmatter["order"], "{file}: order differs");
        let headings = |p: &Page| split_code(&p.body).0.lines().filter(|l| l.starts_with('#')).count();
        assert_eq!(headings(e), headings(z), "{file}: the translation has a different number of headings");
        let han = z.body.chars().filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c)).count();
        assert!(han > 100, "zh-Hans/{file} does not read as Chinese ({han} Han characters)");
        let cmds = |p: &Page| -> Vec<String> {
            runnable(std::slice::from_ref(p)).into_iter().map(|r| r.1).collect()
        };
        assert_eq!(cmds(e), cmds(z), "{file}: the translation must show the same runnable commands");
    }
}

/// A scratch world: a library with the demo and the guide, a home, and a
/// working folder that links `docs/` and `examples/`.
struct World {
    dir: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        for d in ["home", "work", "library"] {
            std::fs::create_dir(dir.path().join(d)).unwrap();
        }
        for d in ["docs", "examples"] {
            std::os::unix::fs::symlink(root().join(d), dir.path().join("work").join(d)).unwrap();
        }
        let world = World { dir };
        for config in ["examples/demo/lectern.toml", "docs/lectern.toml"] {
            let out = world.lectern(&["add", "--site", config, "--json"]);
            assert!(out.status.success(), "add --site {config}: {}", String::from_utf8_lossy(&out.stderr));
            let reports: Value = serde_json::from_slice(&out.stdout).unwrap();
            for r in reports.as_array().unwrap() {
                assert_eq!(r["problems"], serde_json::json!([]), "{config}: files were skipped");
            }
        }
        world
    }

    fn library(&self) -> PathBuf {
        self.dir.path().join("library")
    }

    fn lectern(&self, args: &[&str]) -> Output {
        lectern()
            .current_dir(self.dir.path().join("work"))
            .arg("--user-data")
            .arg(self.library())
            .args(args)
            .output()
            .unwrap()
    }

    fn shell(&self, command: &str) -> Command {
        let bin_dir = Path::new(env!("CARGO_BIN_EXE_lectern")).parent().unwrap();
        let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(command)
            .current_dir(self.dir.path().join("work"))
            .env("PATH", path)
            .env("HOME", self.dir.path().join("home"))
            .env("LECTERN_USER_DATA", self.library())
            .env("NO_COLOR", "1")
            .stdin(Stdio::null());
        c
    }
}

/// Replaces `--listen ADDR` with a free loopback port, and makes `sh` exec
/// the server so that stopping it stops lectern.
fn serve_command(command: &str) -> String {
    let mut words: Vec<&str> = command.split(' ').collect();
    if let Some(i) = words.iter().position(|w| *w == "--listen") {
        words[i + 1] = "127.0.0.1:0";
    }
    format!("exec {}", words.join(" "))
}

#[test]
fn every_internal_link_resolves_to_a_page_and_anchor() {
    let pages = guide_pages();
    let world = World::new();
    // The anchors each page really has, as the library parsed it.
    let mut anchors: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for page in &pages {
        let out = world.lectern(&["read", &page.path, "--json"]);
        assert!(out.status.success(), "{}: {}", page.path, String::from_utf8_lossy(&out.stderr));
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        let set = json["sections"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s["anchor"].as_str().map(str::to_owned))
            .collect();
        anchors.insert(page.path.as_str(), set);
    }
    let by_file: BTreeMap<&str, &Page> = pages.iter().map(|p| (p.file.as_str(), p)).collect();
    let mut checked = 0;
    for page in &pages {
        for target in links(&split_code(&page.body).0) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let (place, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let path = if place.is_empty() {
                page.path.clone()
            } else if place.starts_with('/') {
                place.trim_end_matches('/').to_owned()
            } else {
                assert!(place.ends_with(".md"), "{}: relative link {target:?} is not a .md file", page.file);
                let base = Path::new(&page.file).parent().unwrap().join(place);
                let file = normalise(&base);
                let target_page = by_file
                    .get(file.as_str())
                    .unwrap_or_else(|| panic!("{}: link {target:?} names no page of the guide", page.file));
                target_page.path.clone()
            };
            let Some(have) = anchors.get(path.as_str()) else {
                panic!("{}: link {target:?} names no page of the guide (no page at {path})", page.file)
            };
            if let Some(anchor) = anchor {
                assert!(
                    have.contains(anchor),
                    "{}: {target:?}: no anchor #{anchor}; the page has {have:?}",
                    page.file
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} internal links found; is the link scanner broken?");
}

/// `en/../zh-Hans/x.md` → `zh-Hans/x.md`.
fn normalise(path: &Path) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for c in path.iter().map(|c| c.to_str().unwrap()) {
        match c {
            "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    parts.join("/")
}

#[test]
fn every_runnable_command_in_the_guide_works() {
    let pages = guide_pages();
    let world = World::new();
    let mut ran = 0;
    for (page, command, code) in runnable(&pages) {
        if command.split_whitespace().nth(1) == Some("serve") {
            let server = Server::start(world.shell(&serve_command(&command)), &command);
            // One answered request also means the server is past installing its
            // SIGTERM handler (it prints the URL after), so it stops cleanly.
            if command.contains("--site") {
                let (status, body) = http::get(&server.authority(), "/healthz");
                assert_eq!(status, 200, "{}: {command}: {body}", page.file);
            } else {
                let (status, body) = http::get(&server.authority(), "/v1/status");
                assert_eq!(status, 401, "{}: {command}: the local API wants its key: {body}", page.file);
            }
            server.terminate();
        } else {
            let out = world.shell(&command).output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(code),
                "{}: `{command}` exited {:?}, expected {code}:\n{}\n{}",
                page.file,
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            if code != 0 {
                assert!(!out.stderr.is_empty(), "{}: `{command}` failed without a message", page.file);
            }
        }
        ran += 1;
    }
    assert!(ran >= 80, "only {ran} commands ran");
}

#[test]
fn serve_site_serves_every_page_of_the_guide() {
    let pages = guide_pages();
    let world = World::new();
    let mut command = world.shell("exec lectern serve --site docs/lectern.toml --listen 127.0.0.1:0");
    command.env("LECTERN_USER_DATA", world.library());
    let server = Server::start(command, "serve --site docs/lectern.toml");
    for page in &pages {
        let (status, body) = http::get(&server.authority(), &page.path);
        assert_eq!(status, 200, "GET {}", page.path);
        let title = page.frontmatter["title"].replace('&', "&amp;");
        assert!(body.contains(&title), "GET {}: the title {title:?} is not on the page", page.path);
        let (status, _) = http::get(&server.authority(), &format!("{}.md", page.path));
        assert_eq!(status, 200, "GET {}.md", page.path);
    }
    let (status, llms) = http::get(&server.authority(), "/llms.txt");
    assert_eq!(status, 200);
    assert!(llms.contains("Lectern Guide"), "{llms}");
}

/// The commands `lectern --help` lists (without `help`).
fn subcommands(args: &[&str]) -> Vec<String> {
    let out = lectern().args(args).arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|c| c != "help")
        .collect()
}

#[test]
fn every_command_help_shows_an_example() {
    let top = subcommands(&[]);
    assert!(top.len() >= 14, "{top:?}");
    for name in ["completions", "man"] {
        assert!(top.contains(&name.to_owned()), "`lectern {name}` is missing: {top:?}");
    }
    let mut all: Vec<Vec<String>> = top.iter().map(|c| vec![c.clone()]).collect();
    for parent in &top {
        for child in subcommands(&[parent]) {
            all.push(vec![parent.clone(), child]);
        }
    }
    for args in &all {
        let out = lectern().args(args).arg("--help").output().unwrap();
        assert!(out.status.success(), "lectern {args:?} --help");
        let help = String::from_utf8(out.stdout).unwrap();
        let example = help.lines().skip_while(|l| !l.starts_with("Example")).nth(1).unwrap_or("");
        assert!(
            example.trim_start().starts_with("lectern "),
            "`lectern {} --help` shows no example:\n{help}",
            args.join(" ")
        );
    }
}

#[test]
fn completions_for_bash_zsh_and_fish() {
    for shell in ["bash", "zsh", "fish"] {
        let out = lectern().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for word in ["lectern", "search", "serve", "--user-data", "completions"] {
            assert!(script.contains(word), "{shell}: {word} missing");
        }
        // Syntax-check the script with the shell itself where it is installed.
        let check = match shell {
            "fish" => vec!["--no-execute"],
            _ => vec!["-n"],
        };
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("lectern.completion");
        std::fs::write(&file, &script).unwrap();
        if let Ok(status) = Command::new(shell).args(&check).arg(&file).stderr(Stdio::null()).status() {
            assert!(status.success(), "{shell} rejects its completion script");
        }
    }
    let out = lectern().args(["completions", "powershell"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "an unknown shell is a usage error");
    assert!(String::from_utf8_lossy(&out.stderr).contains("bash, zsh, fish"));
}

#[test]
fn man_page_is_roff_with_every_command() {
    let out = lectern().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH lectern 1"), "{}", &page[..page.len().min(300)]);
    for name in subcommands(&[]) {
        assert!(page.contains(&format!(".SS \"lectern {name}\"")), "{name} missing from the man page");
    }
    assert!(page.contains(".SH EXAMPLES") && page.contains("LECTERN_USER_DATA"));
    // Without a home folder or library: generated from the CLI alone.
    let out =
        lectern().arg("man").env_remove("HOME").env("LECTERN_USER_DATA", "/nonexistent").output().unwrap();
    assert!(out.status.success());
}

#[test]
fn link_helpers() {
    assert_eq!(normalise(Path::new("en/../zh-Hans/./search.md")), "zh-Hans/search.md");
    assert_eq!(links("see [a](/x#y) and [b](../c.md), not (d)"), vec!["/x#y", "../c.md"]);
    let (prose, blocks) =
        split_code("a `[x](/no)` b\n```sh\nlectern list \\\n  --all\nlectern search x # exit 1\n```\n");
    assert!(links(&prose).is_empty());
    assert_eq!(
        commands(&blocks[0]),
        vec![("lectern list --all".to_owned(), 0), ("lectern search x".to_owned(), 1)]
    );
}
