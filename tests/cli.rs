//! The `lectern` binary driven end to end over the bundled demo library and
//! small generated sources.
//!
//! Contents:
//! - install: `add --site`, re-adding unchanged, `list`, generations
//! - switches: disable/enable/remove and generation names
//! - reading: pages as written, sections paged by scalar values
//! - search: defaults, filters, version prefix, Chinese, errors and exit codes
//! - settings: `config set/get`
//! - bad input: missing source, bad ids, usage errors (exit 2)
//! - crashes: SIGKILL during an ingest leaves the previous generation
//! - interop: Debian's postgresql-doc-15 HTML manual

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;

use bin::{demo_config, lectern};

struct Lib {
    dir: tempfile::TempDir,
}

impl Lib {
    fn new() -> Lib {
        Lib { dir: tempfile::tempdir().unwrap() }
    }

    fn demo() -> Lib {
        let lib = Lib::new();
        lib.ok(&["add", "--site", demo_config().to_str().unwrap()]);
        lib
    }

    fn run(&self, args: &[&str]) -> Output {
        lectern().arg("--user-data").arg(self.dir.path()).args(args).output().unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "lectern {args:?} failed ({:?}):\n{}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn json(&self, args: &[&str]) -> Value {
        let mut a = args.to_vec();
        a.push("--json");
        serde_json::from_str(&self.ok(&a)).unwrap()
    }

    /// Runs a command expected to fail with `code`; returns stderr.
    fn fails(&self, args: &[&str], code: i32) -> String {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(code),
            "lectern {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stderr).unwrap()
    }

    fn generation(&self) -> String {
        self.json(&["list", "--all"])["generation"].as_str().unwrap().to_owned()
    }
}

#[test]
fn add_site_installs_every_demo_edition() {
    let lib = Lib::demo();
    let list = lib.json(&["list", "--all"]);
    let ids: Vec<&str> =
        list["editions"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["app@1/en", "app@1/zh-Hans", "app@2/en", "app@2/en/wiki/howto", "app@2/zh-Hans"]);
    let v2 = &list["editions"][2];
    assert_eq!(v2["prefix"], "/app");
    assert_eq!(v2["status"], "current");
    assert_eq!(v2["label"], "App 2");
    assert!(v2["pages"].as_u64().unwrap() >= 7, "{v2}");
    assert!(v2["sections"].as_u64().unwrap() > v2["pages"].as_u64().unwrap());
    assert_eq!(list["defaults"]["project"], "app");
    assert_eq!(list["defaults"]["version"], "2");
    assert_eq!(list["defaults"]["locale"], "en");
}

#[test]
fn re_adding_unchanged_sources_changes_nothing() {
    let lib = Lib::demo();
    let before = lib.generation();
    let out = lib.ok(&["add", "--site", demo_config().to_str().unwrap()]);
    // Each edition's line; the indented lines under it are its link check.
    let editions: Vec<&str> = out.lines().filter(|l| !l.starts_with("  ")).collect();
    assert!(!editions.is_empty() && editions.iter().all(|l| l.starts_with("unchanged")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("  links: ")), "{out}");
    assert_eq!(lib.generation(), before);
}

#[test]
fn re_adding_a_changed_source_replaces_the_edition() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("index.md"), "# Old\n\nalpha words here\n").unwrap();
    let lib = Lib::new();
    let add = |lib: &Lib| {
        lib.ok(&["add", src.path().to_str().unwrap(), "--project", "p", "--version", "1", "--locale", "en"])
    };
    add(&lib);
    let g1 = lib.generation();
    std::fs::write(src.path().join("index.md"), "# New\n\nbeta words here\n").unwrap();
    assert!(add(&lib).starts_with("updated"));
    assert_ne!(lib.generation(), g1);
    assert_eq!(lib.json(&["search", "beta"])["total"], 1);
    assert_eq!(lib.json(&["search", "alpha"])["total"], 0);
}

#[test]
fn disable_and_enable_switch_generations_without_reindexing() {
    let lib = Lib::demo();
    let g1 = lib.generation();
    lib.ok(&["disable", "app@1/en"]);
    let g2 = lib.generation();
    assert_ne!(g1, g2);
    let enabled = lib.json(&["list"]);
    assert!(enabled["editions"].as_array().unwrap().iter().all(|e| e["id"] != "app@1/en"));
    assert!(
        lib.json(&["search", "install", "--version", "*"])["hits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["edition"] != "app@1/en")
    );
    lib.ok(&["enable", "app@1/en"]);
    assert_eq!(lib.generation(), g1, "the same content has the same generation");
    lib.ok(&["remove", "app@1/zh-Hans"]);
    assert_eq!(lib.json(&["list", "--all"])["editions"].as_array().unwrap().len(), 4);
    let err = lib.fails(&["enable", "app@1/zh-hant"], 1);
    assert!(err.contains("did you mean"), "{err}");
}

#[test]
fn pages_read_back_exactly_as_written() {
    let lib = Lib::demo();
    let file = std::fs::read_to_string(bin::root().join("examples/demo/app/v2/en/guide/install.md")).unwrap();
    let body = file.splitn(3, "---\n").nth(2).unwrap();
    let page = lib.json(&["read", "/app/guide/install", "--markdown"]);
    assert_eq!(page["content"].as_str().unwrap(), body);
    assert!(page["frontmatter"].as_str().unwrap().contains("title:"));
    // Its sections, read as Markdown, are the page, in order.
    let sections = page["sections"].as_array().unwrap();
    assert!(sections.len() >= 2, "{page}");
    let parts: String = sections
        .iter()
        .map(|s| {
            let key = s["section_key"].as_str().unwrap();
            let part = lib.json(&["read", "--section", key, "--markdown", "--limit", "50000"]);
            part["content"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(parts, body);
    // A path's #anchor reads the section it names, in either format, and
    // says where the page goes on, unless an offset is given; an anchor the
    // page lacks is an error.
    let second = &sections[1];
    let anchor = second["anchor"].as_str().unwrap();
    let key = second["section_key"].as_str().unwrap();
    let at = format!("/app/guide/install#{anchor}");
    for format in [&["--markdown"][..], &[]] {
        let part = lib.json(&[&["read", "--section", key][..], format].concat());
        let part = part["content"].as_str().unwrap();
        let from = lib.json(&[&["read", at.as_str()][..], format].concat());
        let content = from["content"].as_str().unwrap();
        assert!(content.starts_with(part) && content.trim_end() == part.trim_end(), "{format:?}: {from}");
        let offset = from["offset"].as_u64().unwrap();
        assert!(offset > 0, "{from}");
        assert_eq!(from["next_offset"].as_u64(), Some(offset + content.chars().count() as u64), "{from}");
        // A longer limit reads on.
        let more = lib.json(&[&["read", at.as_str(), "--limit", "50000"][..], format].concat());
        assert!(more["content"].as_str().unwrap().len() > content.len(), "{more}");
    }
    // A section's window holds its subsections, and ends where the next
    // section at its level starts.
    let packages = lib.json(&["read", "/app/guide/install#packages", "--markdown"]);
    let content = packages["content"].as_str().unwrap();
    assert!(content.starts_with("## Install with a package manager"), "{packages}");
    assert!(content.contains("### Homebrew") && content.contains("### Windows"), "{packages}");
    assert!(!content.contains("Build from source") && packages["next_offset"].is_u64(), "{packages}");
    let top = lib.json(&["read", at.as_str(), "--markdown", "--offset", "0"]);
    assert_eq!(top["content"], page["content"]);
    let err = lib.fails(&["read", "/app/guide/install#no-such-part"], 1);
    assert!(err.contains("no #no-such-part on /app/guide/install") && err.contains(anchor), "{err}");
    // The same page by edition + relative path, and the zh-Hans translation by full path.
    let same = lib.json(&["read", "app@2/en", "/guide/install", "--markdown"]);
    assert_eq!(same["content"], page["content"]);
    let zh = lib.json(&["read", "/zh-Hans/app/guide/install"]);
    assert_eq!(zh["locale"], "zh-Hans");
    // v1 lives under /app/v1, not inside /app.
    assert_eq!(lib.json(&["read", "/app/v1/guide/install"])["version"], "1");
    let err = lib.fails(&["read", "/app/no/such/page"], 1);
    assert!(err.contains("no page at /app/no/such/page"), "{err}");
    // A path written as the source file's names the page it is.
    for written in ["/app/guide/install.md", "/app/guide/install.html", "/app/guide/install/index"] {
        let err = lib.fails(&["read", written], 1);
        assert!(
            err.contains(&format!("no page at {written}")) && err.ends_with("read /app/guide/install\n"),
            "{err}"
        );
    }
}

#[test]
fn an_anchor_inside_a_section_starts_the_page_there() {
    let lib = Lib::new();
    let docs = lib.dir.path().join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    let page = "# Help\n\nStart here.\n\n## Logs\n\nFirst the levels.\n\n<a name=\"rotate\"></a>\nRotate the files daily.\n";
    std::fs::write(docs.join("help.md"), page).unwrap();
    lib.ok(&["add", docs.to_str().unwrap(), "--project", "t", "--version", "1", "--locale", "en"]);
    let read = lib.json(&["read", "/t/help#rotate", "--markdown"]);
    let content = read["content"].as_str().unwrap();
    assert!(content.starts_with("<a name=\"rotate\"></a>\nRotate the files daily."), "{read}");
    // As plain text, from the words after it.
    let read = lib.json(&["read", "/t/help#rotate"]);
    let content = read["content"].as_str().unwrap();
    assert!(content.starts_with("Rotate the files daily."), "{read}");
    // A section's hit names the page it is on.
    let text = lib.ok(&["search", "levels"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("Logs") && lines[1].trim() == "Help", "{text}");
    // The id of a page's own heading (DocBook's chapter `<h1>`) reads the
    // page from its start, in either format.
    let html = lib.dir.path().join("html");
    std::fs::create_dir_all(&html).unwrap();
    std::fs::write(
        html.join("ch02.html"),
        "<html><head><title>Chapter 2. Packages</title></head><body><h1 id=\"_packages\">Chapter 2. Packages</h1>\
         <p>Packages hold programs.</p><h2 id=\"_basics\">2.1. Basics</h2><p>Install them.</p></body></html>",
    )
    .unwrap();
    lib.ok(&["add", html.to_str().unwrap(), "--project", "h", "--version", "1", "--locale", "en"]);
    for format in [&[][..], &["--markdown"][..]] {
        let read = lib.json(&[&["read", "/h/ch02#_packages"][..], format].concat());
        let content = read["content"].as_str().unwrap();
        assert!(content.contains("Packages hold programs.") && content.contains("Install them."), "{read}");
        assert!(!content.contains("Install them.") || content.find("Packages hold").unwrap() < 60, "{read}");
    }
}

#[test]
fn several_projects_and_no_default_say_how_to_choose() {
    let lib = Lib::new();
    let mut notes = Vec::new();
    for project in ["alpha", "beta"] {
        let docs = lib.dir.path().join(project);
        std::fs::create_dir_all(&docs).unwrap();
        std::fs::write(docs.join("index.md"), "# Home\n\nWords.\n").unwrap();
        let out = lib.run(&[
            "add",
            docs.to_str().unwrap(),
            "--project",
            project,
            "--version",
            "1",
            "--locale",
            "en",
        ]);
        assert!(out.status.success(), "{out:?}");
        notes.push(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    // The add that makes the default project undecidable says so (and
    // `--quiet` keeps it quiet).
    assert!(!notes[0].contains("several projects"), "{}", notes[0]);
    assert!(
        notes[1].contains("several projects are installed (alpha, beta) and none is the default")
            && notes[1].contains("lectern config set default.project NAME"),
        "{}",
        notes[1]
    );
    let docs = lib.dir.path().join("gamma");
    std::fs::create_dir_all(&docs).unwrap();
    std::fs::write(docs.join("index.md"), "# Home\n\nWords.\n").unwrap();
    let out = lib.run(&[
        "add",
        "-q",
        docs.to_str().unwrap(),
        "--project",
        "gamma",
        "--version",
        "1",
        "--locale",
        "en",
    ]);
    assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
    let err = lib.fails(&["search", "words"], 1);
    assert!(
        err.contains("several projects are installed (alpha, beta, gamma)")
            && err.contains("project:*")
            && err.contains("lectern config set default.project NAME"),
        "{err}"
    );
    assert_eq!(lib.json(&["search", "project:* words"])["total"], 3);
    // Asked for JSON, the error is JSON on stdout too, as the local API
    // sends it: a script or an agent reads its code and message.
    for (args, code, message) in [
        (&["search", "words", "--json"][..], "invalid_argument", "several projects are installed"),
        (&["read", "/alpha/no/such/page", "--json"][..], "not_found", "no page at /alpha/no/such/page"),
    ] {
        let out = lib.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        let body: Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {out:?}"));
        assert_eq!(body["error"]["code"], code, "{args:?}: {body}");
        assert!(body["error"]["message"].as_str().is_some_and(|m| m.contains(message)), "{args:?}: {body}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "), "{args:?}: {out:?}");
    }
    // Without `--json`, stdout stays empty.
    assert!(lib.run(&["search", "words"]).stdout.is_empty());
}

#[test]
fn sections_page_through_to_the_end_by_scalars() {
    let lib = Lib::demo();
    let hits = lib.json(&["search", "并发创建索引", "--locale", "zh-Hans"]);
    let key = hits["hits"][0]["section_key"].as_str().unwrap().to_owned();
    let whole = lib.json(&["read", "--section", &key, "--limit", "50000"]);
    let total = whole["total_length"].as_u64().unwrap();
    let mut offset = 0u64;
    let mut text = String::new();
    loop {
        let part = lib.json(&["read", "--section", &key, "--offset", &offset.to_string(), "--limit", "7"]);
        text.push_str(part["content"].as_str().unwrap());
        match part["next_offset"].as_u64() {
            Some(n) => offset = n,
            None => break,
        }
    }
    assert_eq!(text, whole["content"].as_str().unwrap());
    assert_eq!(text.chars().count() as u64, total);
    let err = lib.fails(&["read", "--section", &key, "--offset", &(total + 1).to_string()], 1);
    assert!(err.contains("past the end"), "{err}");
    let err = lib.fails(&["read", "--section", &key, "--limit", "50001"], 1);
    assert!(err.contains("1 to 50000"), "{err}");
}

#[test]
fn search_uses_defaults_filters_and_version_prefixes() {
    let lib = Lib::demo();
    let r = lib.json(&["search", "build an index without locking writes"]);
    assert_eq!(r["hits"][0]["path"], "/app/guide/indexes", "{r}");
    assert_eq!(r["hits"][0]["version"], "2");
    for key in
        ["generation", "total", "has_more", "next_offset", "timed_out", "cancelled", "candidate_truncated"]
    {
        assert!(r.get(key).is_some(), "missing {key}");
    }
    let v1 = lib.json(&["search", "app1: install"]);
    assert!(v1["hits"].as_array().unwrap().iter().all(|h| h["version"] == "1"), "{v1}");
    let v1 = lib.json(&["search", "ACME1: install", "--version", "2"]);
    assert!(v1["hits"].as_array().unwrap().iter().all(|h| h["version"] == "1"), "text prefix wins: {v1}");
    let all = lib.json(&["search", "locale:* version:* CONCURRENTLY", "--limit", "50"]);
    let locales: std::collections::BTreeSet<&str> =
        all["hits"].as_array().unwrap().iter().map(|h| h["locale"].as_str().unwrap()).collect();
    assert!(locales.contains("en") && locales.contains("zh-Hans"), "{locales:?}");
    let zh = lib.json(&["search", "备份", "--locale", "zh-Hans"]);
    assert!(zh["total"].as_u64().unwrap() >= 1, "{zh}");
}

#[test]
fn search_pages_never_overlap() {
    let lib = Lib::demo();
    // One word (tier 1 only) and a question whose later pages reach the
    // "most words" tier 2: every page says the same total, and the pages
    // together hold each section once.
    for text in ["app", "how do I create an index without blocking writes"] {
        let base = ["search", text, "--version", "*", "--locale", "*", "--limit", "3"];
        let first = lib.json(&base);
        let total = first["total"].as_u64().unwrap() as usize;
        assert!(total > 3, "{text}: {first}");
        let mut keys = Vec::new();
        let mut offset = Some(0u64);
        while let Some(o) = offset {
            let mut args = base.to_vec();
            let o = o.to_string();
            args.extend(["--offset", o.as_str()]);
            let page = lib.json(&args);
            assert_eq!(
                page["total"].as_u64().unwrap() as usize,
                total,
                "{text}: total changed at offset {o}"
            );
            keys.extend(
                page["hits"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| h["section_key"].as_str().unwrap().to_owned()),
            );
            offset = page["next_offset"].as_u64();
        }
        assert_eq!(keys.len(), total, "{text}: paging reached every result");
        let unique: std::collections::BTreeSet<&String> = keys.iter().collect();
        assert_eq!(unique.len(), keys.len(), "{text}: no section twice");
    }
}

#[test]
fn search_is_one_list_at_any_limit() {
    let lib = Lib::demo();
    let q = "how do I create an index without blocking writes";
    let big = lib.json(&["search", q, "--limit", "50"]);
    for limit in ["1", "3", "7"] {
        let small = lib.json(&["search", q, "--limit", limit]);
        assert_eq!(small["total"], big["total"], "--limit {limit}");
        let n = small["hits"].as_array().unwrap().len();
        assert_eq!(
            small["hits"].as_array().unwrap()[..],
            big["hits"].as_array().unwrap()[..n],
            "--limit {limit}"
        );
    }
}

#[test]
fn command_line_words_are_searched_and_not_excludes() {
    let lib = Lib::demo();
    let json = |args: &[&str]| -> Value { serde_json::from_str(&lib.ok(args)).unwrap() };
    let index = json(&["search", "--json", "--", "index"]);
    let flag = json(&["search", "--json", "--", "--index"]);
    assert!(flag["total"].as_u64().unwrap() >= 1, "--index is a word: {flag}");
    assert_eq!(flag["total"], index["total"]);
    let create = json(&["search", "--json", "--", "create"]);
    let dash = json(&["search", "--json", "--", "create -index"]);
    let both = json(&["search", "--json", "--", "create index"]);
    assert_eq!(dash["total"], both["total"], "-index is a word, never an exclusion");
    let not = json(&["search", "--json", "--", "create NOT index"]);
    assert!(
        not["hits"].as_array().unwrap().iter().all(|h| !h["snippet"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("index"))
    );
    assert!(not["total"].as_u64() < create["total"].as_u64(), "{not}");
}

#[test]
fn punctuation_alone_is_searched_as_written() {
    let lib = Lib::demo();
    for text in ["::", "->>", "C++", ".npmrc"] {
        let r: Value = serde_json::from_str(&lib.ok(&["search", "--json", "--", text])).unwrap();
        assert!(r["total"].is_u64(), "{text}: {r}");
    }
    // An operator the text writes (the `shop=>` prompt) is found there and lit.
    let r: Value = serde_json::from_str(&lib.ok(&["search", "--json", "--", "=>"])).unwrap();
    let hit =
        r["hits"].as_array().unwrap().iter().find(|h| h["path"] == "/app/reference/cli").expect("the prompt");
    let snippet: Vec<char> = hit["snippet"].as_str().unwrap().chars().collect();
    let [a, b] = [0, 1].map(|i| hit["highlights"][0][i].as_u64().unwrap() as usize);
    assert_eq!(snippet[a..b].iter().collect::<String>(), "=>", "{hit}");
    assert!(r.get("hint").is_none(), "{r}");
}

#[test]
fn a_zero_says_where_the_hits_are() {
    let lib = Lib::demo();
    let r = lib.json(&["search", "备份", "--locale", "en"]);
    assert_eq!(r["total"], 0, "{r}");
    let elsewhere = r["elsewhere"].as_array().unwrap();
    assert!(elsewhere.iter().any(|e| e["locale"] == "zh-Hans" && e["total"].as_u64() >= Some(1)), "{r}");
    let text = lib.ok(&["search", "备份", "--locale", "en"]);
    assert!(text.contains("0 in en; ") && text.contains("in zh-Hans: add locale:zh-Hans"), "{text}");
    // The CLI prints the sentence the JSON carries.
    let hint = r["hint"].as_str().unwrap();
    assert!(text.lines().any(|l| l == hint), "{hint:?} in {text}");
    // Hits in scope: nothing elsewhere is reported.
    let r = lib.json(&["search", "备份", "--locale", "zh-Hans"]);
    assert!(r.get("elsewhere").is_none(), "{r}");
    // Every project, each at its current version, without version:*.
    let all = lib.json(&["search", "project:* install"]);
    assert!(all["total"].as_u64().unwrap() >= 1, "{all}");
}

#[test]
fn search_errors_say_what_is_allowed() {
    let lib = Lib::demo();
    let long = "x".repeat(257);
    for (args, needle) in [
        (vec!["search", long.as_str()], "at most 256"),
        (vec!["search", "   "], "empty"),
        (vec!["search", "x", "--limit", "0"], "1 to 50"),
        (vec!["search", "x", "--limit", "51"], "1 to 50"),
        (vec!["search", "x", "--offset", "10001"], "0 to 10000"),
        (vec!["search", "x", "--offset", "-1"], "0 to 10000"),
        (vec!["search", "x", "--project", "nope"], "enabled projects: app"),
        (vec!["search", "x", "--version", "9"], "enabled versions: 1, 2"),
        (vec!["search", "x", "--locale", "de"], "available: en, zh-Hans"),
        (vec!["search", "x", "--locale", "zh-Hant"], "did you mean zh-Hans?"),
        (vec!["search", "x", "--project", "apx"], "did you mean app?"),
        (vec!["search", "app9: x"], "no enabled version"),
        (vec!["search", "x", "--generation", "gdeadbeef"], "generation"),
    ] {
        let err = lib.fails(&args, 1);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let exactly = "y".repeat(256);
    lib.ok(&["search", &exactly]);
    // A count that is no whole number names the range allowed.
    for (args, needle) in [
        (vec!["search", "x", "--limit", "abc"], "'--limit <1-50>': `abc` is not a whole number"),
        (vec!["search", "x", "--offset", "1e3"], "'--offset <0-10000>': `1e3` is not a whole number"),
    ] {
        let err = lib.fails(&args, 2);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn text_starting_with_a_hyphen_is_searched_as_written() {
    let lib = Lib::demo();
    // Without `--`, an option name is the search text; flags after it still count.
    let bare = lib.json(&["search", "--read-only", "--limit", "3"]);
    let after: Value =
        serde_json::from_str(&lib.ok(&["search", "--json", "--limit", "3", "--", "--read-only"])).unwrap();
    assert!(bare["total"].as_u64() >= Some(1), "{bare}");
    assert_eq!(bare["total"], after["total"], "{bare}");
    assert_eq!(bare["hits"], after["hits"]);
    assert_eq!(bare["hits"].as_array().map(Vec::len), Some(3.min(bare["total"].as_u64().unwrap() as usize)));
}

#[test]
fn a_zero_names_every_filter_that_finds_the_hits() {
    // A project written in English only, beside a Chinese one that is the
    // default project, in a library whose default locale is Chinese.
    let lib = Lib::new();
    let src = tempfile::tempdir().unwrap();
    for (dir, file, text) in [
        ("shell", "options.md", "# Options\n\nThe globstar option makes ** match every path.\n"),
        ("handbook", "intro.md", "# 简介\n\n本手册介绍如何备份系统。\n"),
    ] {
        std::fs::create_dir_all(src.path().join(dir)).unwrap();
        std::fs::write(src.path().join(dir).join(file), text).unwrap();
    }
    let path = |dir: &str| src.path().join(dir).to_str().unwrap().to_owned();
    lib.ok(&["add", &path("shell"), "--project", "shell", "--version", "5", "--locale", "en"]);
    lib.ok(&["add", &path("handbook"), "--project", "handbook", "--version", "1", "--locale", "zh-Hans"]);
    lib.ok(&["config", "set", "default.project", "handbook"]);
    lib.ok(&["config", "set", "default.locale", "zh-Hans"]);
    let r = lib.json(&["search", "globstar"]);
    assert_eq!(r["total"], 0, "{r}");
    assert_eq!(r["elsewhere"], serde_json::json!([{"project": "shell", "locale": "en", "total": 1}]), "{r}");
    assert_eq!(r["hint"], "0 in handbook/zh-Hans; 1 in shell/en: add project:shell locale:en", "{r}");
    // The filters the hint names find the hits.
    let there = lib.json(&["search", "project:shell locale:en globstar"]);
    assert_eq!(there["total"], 1, "{there}");
    // Every project: the default locale where a project has it, its own
    // editions where it has not.
    let all = lib.json(&["search", "project:* globstar"]);
    assert_eq!(all["total"], 1, "{all}");
    assert_eq!(all["scope"]["editions"], serde_json::json!(["handbook@1/zh-Hans", "shell@5/en"]), "{all}");
    let all = lib.json(&["search", "project:* 备份"]);
    assert_eq!(all["total"], 1, "{all}");
    // A locale written is kept strictly.
    let r = lib.json(&["search", "project:* locale:zh-Hans globstar"]);
    assert_eq!(r["scope"]["editions"], serde_json::json!(["handbook@1/zh-Hans"]), "{r}");
}

#[test]
fn stale_generation_reports_the_current_one() {
    let lib = Lib::demo();
    let g = lib.generation();
    lib.ok(&["disable", "app@1/en"]);
    let err = lib.fails(&["search", "install", "--generation", &g], 1);
    assert!(err.contains(&lib.generation()), "{err}");
}

#[test]
fn settings_set_get_and_validate() {
    let lib = Lib::demo();
    lib.ok(&["config", "set", "default.locale", "zh-hans"]);
    assert_eq!(lib.ok(&["config", "get", "default.locale"]).trim(), "zh-Hans");
    let r = lib.json(&["search", "安装"]);
    assert!(r["hits"].as_array().unwrap().iter().all(|h| h["locale"] == "zh-Hans"), "{r}");
    let err = lib.fails(&["config", "set", "no.such.key", "1"], 1);
    assert!(err.contains("unknown setting"), "{err}");
    let err = lib.fails(&["config", "set", "search.deadline_ms", "5"], 1);
    assert!(err.contains("10 to 60000"), "{err}");
}

#[test]
fn bad_input_gets_clear_errors_and_usage_errors_exit_2() {
    let lib = Lib::demo();
    let before = lib.generation();
    let err = lib.fails(&["add", "/no/such/source", "--project", "x", "--version", "1"], 1);
    assert!(err.contains("/no/such/source"), "{err}");
    let err = lib.fails(
        &[
            "add",
            demo_config().parent().unwrap().join("app/v2/en").to_str().unwrap(),
            "--project",
            "Bad Name",
            "--version",
            "1",
        ],
        1,
    );
    assert!(err.contains("project"), "{err}");
    let err = lib.fails(&["disable", "not-an-id"], 1);
    assert!(err.contains("project@version/locale"), "{err}");
    lib.fails(&["search"], 2);
    lib.fails(&["frobnicate"], 2);
    lib.fails(&["add", "--status"], 2);
    assert_eq!(lib.generation(), before, "nothing changed");
}

#[test]
fn reading_commands_on_a_missing_library_say_how_to_make_one() {
    let lib = Lib::new();
    let err = lib.fails(&["search", "x"], 1);
    assert!(err.contains("lectern add"), "{err}");
}

#[test]
fn sigkill_during_an_ingest_leaves_the_previous_generation() {
    use std::time::Duration;
    let src = tempfile::tempdir().unwrap();
    for i in 0..1500 {
        let body: String = (0..80).map(|j| format!("word{} token{} ", (i * 7 + j) % 997, j)).collect();
        std::fs::write(
            src.path().join(format!("page{i:04}.md")),
            format!("# Page {i}\n\n{body}\n\n## Part\n\n{body}\n"),
        )
        .unwrap();
    }
    let lib = Lib::demo();
    let before = lib.generation();
    let mut seen_old = false;
    for delay_ms in [30u64, 120, 300, 600, 1200] {
        let mut child = lectern()
            .arg("--user-data")
            .arg(lib.dir.path())
            .args([
                "add",
                src.path().to_str().unwrap(),
                "--project",
                "big",
                "--version",
                "1",
                "--locale",
                "en",
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL
        let status = child.wait().unwrap();
        let g = lib.generation();
        let big = lib.json(&["list", "--all"])["editions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["id"] == "big@1/en");
        if !big {
            assert_eq!(g, before, "killed after {delay_ms} ms ({status:?}): neither old nor new");
            seen_old = true;
        }
        // The library still answers searches either way.
        lib.ok(&["search", "install"]);
        if big {
            assert!(
                !lib.json(&["search", "word5", "--project", "big"])["hits"].as_array().unwrap().is_empty()
            );
        }
    }
    assert!(seen_old, "at least one kill landed mid-ingest");
    // And a clean ingest afterwards works.
    lib.ok(&["add", src.path().to_str().unwrap(), "--project", "big", "--version", "1", "--locale", "en"]);
}

#[test]
fn debian_postgresql_doc_15_installs_cleanly() {
    let Some(html) = std::env::var_os("LECTERN_PG15_HTML") else {
        eprintln!("LECTERN_PG15_HTML not set (scripts/test sets it); skipping");
        return;
    };
    let html = PathBuf::from(html);
    assert!(
        html.join("index.html").is_file(),
        "{} has no index.html: scripts/test fetches it",
        html.display()
    );
    let lib = Lib::new();
    lib.ok(&[
        "add",
        html.to_str().unwrap(),
        "--project",
        "postgresql",
        "--aliases",
        "pg",
        "--version",
        "15",
        "--locale",
        "en",
        "--status",
        "current",
        "--default",
    ]);
    let list = lib.json(&["list"]);
    assert!(list["editions"][0]["pages"].as_u64().unwrap() > 1000, "{list}");
    let r = lib.json(&["search", "CREATE INDEX"]);
    assert_eq!(r["hits"][0]["path"], "/postgresql/sql-createindex", "{r}");
    let page = lib.ok(&["read", "/postgresql/sql-createindex", "--markdown"]);
    assert!(page.contains("CONCURRENTLY"));
    assert!(!page.contains("navheader") && !page.contains("<div"), "clean Markdown");
    assert!(page.contains("](/postgresql/"), "links rewritten to library paths");
}

#[test]
fn version_names_the_on_disk_formats() {
    let out = lectern().arg("--version").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("library format 1") && text.contains("index format 16"), "{text}");
}

#[test]
fn prefixes_stay_consistent_when_a_later_edition_becomes_the_default() {
    // Regression: marking the second locale `--default` used to move the
    // prefix rule between installs (18/en at /p but 15/en at /en/p/15).
    let lib = Lib::new();
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("index.md"), "# Home\n\nwords\n").unwrap();
    let s = src.path().to_str().unwrap();
    for (version, locale, extra) in [
        ("18", "en", None),
        ("18", "zh-Hans", Some("--default")),
        ("15", "en", None),
        ("15", "zh-Hans", None),
    ] {
        let status = if version == "18" { "current" } else { "supported" };
        let mut args =
            vec!["add", s, "--project", "p", "--version", version, "--locale", locale, "--status", status];
        args.extend(extra);
        lib.ok(&args);
    }
    let list = lib.json(&["list", "--all"]);
    let prefix = |id: &str| {
        list["editions"].as_array().unwrap().iter().find(|e| e["id"] == id).unwrap()["prefix"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(prefix("p@18/en"), "/p");
    assert_eq!(prefix("p@15/en"), "/p/15");
    assert_eq!(prefix("p@18/zh-Hans"), "/zh-Hans/p");
    assert_eq!(prefix("p@15/zh-Hans"), "/zh-Hans/p/15");
    assert_eq!(
        list["defaults"]["locale"], "zh-Hans",
        "the default for searching is still the --default edition's"
    );
}

#[test]
fn a_manuals_generated_index_ranks_after_real_sections() {
    let src = tempfile::tempdir().unwrap();
    let page = |title: &str, body: &str| {
        format!(
            "<html><head><title>{title}</title></head><body><div class=\"sect1\"><h2 class=\"title\">{title}</h2>{body}</div></body></html>"
        )
    };
    std::fs::write(
        src.path().join("routine-vacuuming.html"),
        page("Routine Vacuuming", "<p>VACUUM FREEZE marks tuples frozen.</p>"),
    )
    .unwrap();
    let entries: String = (0..40)
        .map(|i| format!("<dt>vacuum freeze {i}, <a href=\"routine-vacuuming.html\">x</a></dt>"))
        .collect();
    std::fs::write(
        src.path().join("bookindex.html"),
        format!("<html><body><div class=\"index\" id=\"BOOKINDEX\"><h1 class=\"title\">Index</h1><dl>{entries}</dl></div></body></html>"),
    )
    .unwrap();
    let lib = Lib::new();
    lib.ok(&["add", src.path().to_str().unwrap(), "--project", "m", "--version", "1", "--locale", "en"]);
    let r = lib.json(&["search", "vacuum freeze"]);
    assert_eq!(r["hits"][0]["path"], "/m/routine-vacuuming", "{r}");
    assert_eq!(r["total"], 2, "the index page is still found, just last");
    // Its score, forty times the words, is shown no higher than the one above.
    let scores: Vec<f64> =
        r["hits"].as_array().unwrap().iter().map(|h| h["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn a_rare_identifier_beats_common_words_in_the_most_words_tier() {
    // Regression: "X configuration parameter" only found sections holding
    // both common words, never the one section naming the setting.
    let src = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("wal.md"),
        "# WAL\n\n## tcp_keepalives_interval\n\nSeconds between keepalives.\n",
    )
    .unwrap();
    for i in 0..12 {
        std::fs::write(
            src.path().join(format!("other{i}.md")),
            format!("# Other {i}\n\nEvery configuration parameter of module {i} is listed here.\n"),
        )
        .unwrap();
    }
    let lib = Lib::new();
    lib.ok(&["add", src.path().to_str().unwrap(), "--project", "m", "--version", "1", "--locale", "en"]);
    let r = lib.json(&["search", "tcp_keepalives_interval configuration parameter"]);
    assert_eq!(r["hits"][0]["path"], "/m/wal", "{r}");
}

#[test]
fn add_counts_the_links_and_check_lists_those_the_source_breaks() {
    let src = tempfile::tempdir().unwrap();
    std::fs::create_dir(src.path().join("guide")).unwrap();
    std::fs::write(
        src.path().join("guide/a.md"),
        "# A\n\n[b](/guide/b) [b again](b.md#more) [gone](missing.md) [web](https://x.example)\n\n![logo](img/logo.png)\n",
    )
    .unwrap();
    std::fs::write(src.path().join("guide/b.md"), "# B\n\n## More\n\ntext\n").unwrap();
    let lib = Lib::new();
    let out = lib.ok(&["add", src.path().to_str().unwrap(), "--project", "app", "--version", "1"]);
    assert!(
        out.contains(
            "links: 3 internal, 2 resolve, 1 broken (1 broken in the source itself, 0 by the conversion)"
        ),
        "{out}"
    );
    assert!(out.contains("locale en: neither --locale nor the source gave one"), "{out}");
    let out = lib.run(&["check", "app@1/en"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "only the source breaks a link: {text}");
    // The one folder is the tree: `/guide/b` is a repository-style link into it.
    assert!(text.contains("/app/a -> missing.md  (broken in the source)"), "{text}");
    assert!(text.contains("1 image, 1 missing from the source"), "{text}");
    assert!(text.contains("/app/a -> img/logo.png  (image missing in the source)"), "{text}");
    let out = lib.run(&["check", "nope@1/en"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("installed: app@1/en"), "{out:?}");
}

#[test]
fn an_edition_is_labelled_with_its_project_as_its_pages_spell_it() {
    let lib = Lib::new();
    let docs = lib.dir.path().join("site");
    std::fs::create_dir_all(&docs).unwrap();
    for (file, title) in [
        ("index.html", "MkDocs"),
        ("deploy.html", "Deploying - MkDocs"),
        ("yml.html", "mkdocs.yml reference"),
    ] {
        let html = format!(
            "<html><head><title>{title}</title></head><body><h1>{title}</h1><p>Words.</p></body></html>"
        );
        std::fs::write(docs.join(file), html).unwrap();
    }
    lib.ok(&["add", docs.to_str().unwrap(), "--project", "mkdocs", "--version", "1.4", "--locale", "en"]);
    let other = lib.dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("index.md"), "# Home\n\nWords.\n").unwrap();
    lib.ok(&["add", other.to_str().unwrap(), "--project", "tool", "--version", "2", "--locale", "en"]);
    let list = lib.json(&["list"]);
    let labels: Vec<&str> =
        list["editions"].as_array().unwrap().iter().map(|e| e["label"].as_str().unwrap()).collect();
    assert!(labels.contains(&"MkDocs 1.4") && labels.contains(&"Tool 2"), "{list}");
}

#[test]
fn a_library_made_in_a_folder_of_other_files_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    std::fs::write(docs.join("index.md"), "# Home\n\nWords.\n").unwrap();
    let add = |user_data: &std::path::Path| {
        let out = lectern()
            .arg("--user-data")
            .arg(user_data)
            .args(["add", docs.to_str().unwrap(), "--project", "tool", "--version", "1", "--locale", "en"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // A folder holding other things: made there, and said.
    let crowded = dir.path().join("lib");
    std::fs::create_dir_all(&crowded).unwrap();
    std::fs::write(crowded.join("libfoo.so"), "x").unwrap();
    let said = add(&crowded);
    assert!(said.contains("which holds other files") && said.contains("--user-data"), "{said}");
    // Once it is a library, and for a new folder, nothing is said.
    assert!(!add(&crowded).contains("other files"));
    assert!(!add(&dir.path().join("fresh")).contains("other files"));
}
