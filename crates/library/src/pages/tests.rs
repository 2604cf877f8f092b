//! Tests of the site's page API: scopes, translation priority, cursors,
//! `read_page` frontmatter, and a differential test proving the optimised
//! `search_pages` (n-gram prefilter, exact short terms, kept bodies, early
//! stop) returns exactly what a naive full scan returns.

use std::collections::BTreeSet;
use std::path::Path;

use lectern_corpus::SiteConfig;
use lectern_index::text::fold;
use proptest::prelude::*;

use super::substring::{excerpt_at, folded_find};
use super::*;
use crate::library::{Library, OpenMode};
use crate::view::View;

/// One Markdown page of a fixture site: (source folder, relative file, title, body).
type Fixture<'a> = (&'a str, String, String, String);

const CONFIG: &str = r#"
[site]
name = "Fixture"
default_locale = "en"

[[editions]]
project = "app"
version = "2"
locale = "en"
label = "App 2"
ref = "v2.0"
status = "current"
prefix = "/app"
default = true
source = "v2en"

[[editions]]
project = "app"
version = "2"
locale = "zh-Hans"
label = "App 2 \"中文\""
ref = "v2.0"
status = "current"
prefix = "/zh-Hans/app"
source = "v2zh"

[[editions]]
project = "app"
version = "1"
locale = "en"
label = "App 1"
status = "supported"
prefix = "/app/v1"
source = "v1en"
"#;

fn write_site(dir: &Path, pages: &[Fixture<'_>]) -> Library {
    let site = dir.join("site");
    for folder in ["v2en", "v2zh", "v1en"] {
        std::fs::create_dir_all(site.join(folder)).unwrap();
    }
    for (folder, rel, title, body) in pages {
        let file = site.join(folder).join(rel);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let fm = format!(
            "---\ntitle: {}\ndescription: About {}\n---\n\n",
            serde_json::to_string(title).unwrap(),
            rel
        );
        std::fs::write(file, format!("{fm}{body}\n")).unwrap();
    }
    // An edition needs at least one page.
    for folder in ["v2en", "v2zh", "v1en"] {
        if !pages.iter().any(|p| p.0 == folder) {
            std::fs::write(site.join(folder).join("placeholder.md"), "# Placeholder\n").unwrap();
        }
    }
    let config_path = site.join("lectern.toml");
    std::fs::write(&config_path, CONFIG).unwrap();
    let config = SiteConfig::load(&config_path).unwrap();
    let library = Library::open(&dir.join("lib"), OpenMode::ReadWrite).unwrap();
    library.add_site(&config, &mut |_, _| {}, &mut |_| {}).unwrap();
    library
}

fn page(folder: &'static str, rel: &str, title: &str, body: &str) -> Fixture<'static> {
    (folder, rel.to_owned(), title.to_owned(), body.to_owned())
}

/// A site of `n` English pages `p000.md`… whose bodies are `len` bytes.
pub(crate) fn many_pages(dir: &Path, n: usize, len: usize) -> Library {
    let pages: Vec<Fixture<'_>> = (0..n)
        .map(|i| page("v2en", &format!("p{i:03}.md"), &format!("Page {i}"), &"word ".repeat(len / 5)))
        .collect();
    write_site(dir, &pages)
}

fn fixture(dir: &Path) -> Library {
    write_site(
        dir,
        &[
            page("v2en", "index.md", "Home", "Welcome to App. Straße and İstanbul."),
            page("v2en", "guide/install.md", "Install", "Run the installer. Café e\u{301}clair."),
            page("v2en", "guide/only-en.md", "Only English", "This page has no translation. STRASSE."),
            page("v2zh", "index.md", "首页", "欢迎使用。创建索引。"),
            page("v2zh", "guide/install.md", "安装", "运行安装程序。"),
            page("v1en", "index.md", "Home v1", "Old welcome."),
            page("v1en", "guide/install.md", "Install v1", "Old installer."),
        ],
    )
}

fn paths<T>(items: &[T], f: impl Fn(&T) -> &str) -> Vec<String> {
    items.iter().map(|i| f(i).to_owned()).collect()
}

#[test]
fn versions_list_prefixes_locales_and_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let v = lib.list_versions().unwrap();
    let prefixes = paths(&v.versions, |e| &e.prefix);
    assert_eq!(prefixes, ["/app", "/app/v1", "/zh-Hans/app"]);
    let app = &v.versions[0];
    assert!(app.default);
    assert_eq!(app.locales, ["en", "zh-Hans"]);
    assert_eq!(app.r#ref.as_deref(), Some("v2.0"));
    assert!(!v.versions[1].default);
    assert_eq!(v.versions[1].locales, ["en"]);
}

#[test]
fn a_scope_is_one_edition_and_never_its_nested_versions() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let list = |prefix: Option<&str>| {
        let r = lib
            .list_pages(&ListPagesRequest { prefix: prefix.map(Into::into), ..Default::default() })
            .unwrap();
        paths(&r.pages, |p| &p.path)
    };
    assert_eq!(list(Some("/app")), ["/app", "/app/guide/install", "/app/guide/only-en"]);
    assert_eq!(list(Some("/app/v1")), ["/app/v1", "/app/v1/guide/install"]);
    // No prefix: every version in the default locale, sorted by path.
    assert_eq!(
        list(None),
        ["/app", "/app/guide/install", "/app/guide/only-en", "/app/v1", "/app/v1/guide/install"]
    );
    let err =
        lib.list_pages(&ListPagesRequest { prefix: Some("/nope".into()), ..Default::default() }).unwrap_err();
    assert_eq!(err.code(), crate::ErrorCode::InvalidArgument);
    assert!(err.to_string().contains("/app, /app/v1, /zh-Hans/app"), "{err}");
}

#[test]
fn a_locale_scope_lists_each_page_once_with_fallbacks_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let r = lib
        .list_pages(&ListPagesRequest { prefix: Some("/zh-Hans/app".into()), ..Default::default() })
        .unwrap();
    let got: Vec<(&str, &str, bool)> =
        r.pages.iter().map(|p| (p.path.as_str(), p.locale.as_str(), p.fallback)).collect();
    assert_eq!(
        got,
        [
            ("/zh-Hans/app", "zh-Hans", false),
            ("/zh-Hans/app/guide/install", "zh-Hans", false),
            ("/zh-Hans/app/guide/only-en", "en", true),
        ]
    );
    let page = lib.site_page("/zh-Hans/app/guide/only-en").unwrap();
    assert!(page.fallback);
    assert_eq!(page.locale, "en");
    assert_eq!(page.title, "Only English");
    // The fallback is found by search too, at its path in the scope.
    let s = lib
        .search_pages(&SearchPagesRequest {
            term: "strasse".into(),
            prefix: Some("/zh-Hans/app".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(paths(&s.pages, |p| &p.path), ["/zh-Hans/app/guide/only-en"]);
    assert!(s.pages[0].fallback);
}

#[test]
fn listings_page_to_their_end_with_path_cursors() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let all = lib.list_pages(&ListPagesRequest { limit: Some(100), ..Default::default() }).unwrap();
    assert!(all.next_cursor.is_none());
    let mut cursor = None;
    let mut seen = Vec::new();
    loop {
        let r = lib
            .list_pages(&ListPagesRequest { limit: Some(2), cursor: cursor.clone(), prefix: None })
            .unwrap();
        seen.extend(r.pages.iter().map(|p| p.path.clone()));
        match r.next_cursor {
            Some(c) => {
                assert_eq!(Some(&c), seen.last());
                cursor = Some(c);
            }
            None => break,
        }
    }
    assert_eq!(seen, paths(&all.pages, |p| &p.path));
    // A cursor that is no longer a page still continues strictly after it.
    let r = lib
        .list_pages(&ListPagesRequest { cursor: Some("/app/guide/gone".into()), ..Default::default() })
        .unwrap();
    assert_eq!(r.pages[0].path, "/app/guide/install");
}

#[test]
fn bad_limits_cursors_and_terms_say_what_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    for limit in [0, 101, -1] {
        let e = lib.list_pages(&ListPagesRequest { limit: Some(limit), ..Default::default() }).unwrap_err();
        assert!(e.to_string().contains("allowed 1 to 100"), "{e}");
    }
    for cursor in ["app", "/a\u{7}b", &format!("/{}", "x".repeat(2000))] {
        let e = lib
            .list_pages(&ListPagesRequest { cursor: Some(cursor.into()), ..Default::default() })
            .unwrap_err();
        assert!(e.to_string().contains("starting with /"), "{e}");
    }
    for term in ["", "  \t", &"x".repeat(257)] {
        let e =
            lib.search_pages(&SearchPagesRequest { term: term.into(), ..Default::default() }).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::InvalidArgument, "{e}");
    }
    assert!(lib.search_pages(&SearchPagesRequest { term: "x".repeat(256), ..Default::default() }).is_ok());
}

/// Any spelling of a prefix but its own (`/app/`, ` /app `, `/app` and
/// 200,000 slashes) was read as `/app` and cached under what was sent, so
/// callers could grow the cache without limit.
#[test]
fn scope_cache_is_keyed_by_the_canonical_scope_and_only_exact_prefixes_are_scopes() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let slashes = format!("/app{}", "/".repeat(200_000));
    for prefix in ["/app/", "/app//", " /app ", "/app ", "app", " ", "/APP", slashes.as_str()] {
        let request = ListPagesRequest { prefix: Some(prefix.into()), ..Default::default() };
        let e = lib.list_pages(&request).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::InvalidArgument, "{prefix:?}: {e}");
        let message = e.to_string();
        assert!(message.contains("/app, /app/v1, /zh-Hans/app"), "{message}");
        assert!(message.len() < 400, "the message quotes at most a little of the prefix: {}", message.len());
        let search =
            SearchPagesRequest { term: "x".into(), prefix: Some(prefix.into()), ..Default::default() };
        assert_eq!(lib.search_pages(&search).unwrap_err().code(), crate::ErrorCode::InvalidArgument);
    }
    // Absent and empty are the default scope; the exact prefixes are theirs.
    let list = |prefix: Option<&str>| {
        let request =
            ListPagesRequest { prefix: prefix.map(Into::into), limit: Some(100), ..Default::default() };
        paths(&lib.list_pages(&request).unwrap().pages, |p| &p.path)
    };
    assert_eq!(list(None), list(Some("")));
    for prefix in ["/app", "/app/v1", "/zh-Hans/app"] {
        assert!(list(Some(prefix)).iter().all(|p| p.starts_with(prefix)));
    }
    // One entry per edition set: three editions' scopes and the default one.
    assert_eq!(lib.view().unwrap().scopes_cached(), 4);
}

#[test]
fn search_folds_case_and_normalisation_and_excerpts_safely() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let find = |term: &str| {
        let r = lib.search_pages(&SearchPagesRequest { term: term.into(), ..Default::default() }).unwrap();
        r.pages.into_iter().map(|p| (p.path, p.excerpt)).collect::<Vec<_>>()
    };
    // ß folds to ss, so STRASSE, Straße and strasse all meet.
    let hits = find("STRAẞE");
    assert_eq!(hits.iter().map(|h| h.0.as_str()).collect::<Vec<_>>(), ["/app", "/app/guide/only-en"]);
    assert!(hits[0].1.contains("Straße"), "{:?}", hits[0].1);
    // A decomposed é in the body matches a precomposed term (NFC).
    assert_eq!(find("éclair").len(), 1);
    assert_eq!(find("İstanbul").len(), 1);
    let zh = lib
        .search_pages(&SearchPagesRequest {
            term: "索引".into(),
            prefix: Some("/zh-Hans/app".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(zh.pages.len(), 1);
    assert!(zh.pages[0].excerpt.contains("创建索引"));
    // Title-only matches count.
    assert_eq!(find("only english").len(), 1);
}

#[test]
fn excerpts_cut_on_scalars_with_ellipses() {
    let text = format!("{}索引{}", "前".repeat(300), "后".repeat(300));
    let range = folded_find(&text, "索引").unwrap();
    assert_eq!(range, 300..302);
    let ex = excerpt_at(&text, "", range);
    assert!(ex.starts_with('…') && ex.ends_with('…') && ex.contains("索引"), "{ex}");
    assert!(ex.chars().count() <= EXCERPT_CHARS + 2);
    // Folding that changes lengths (ß → ss, İ → i̇) never panics.
    for (text, term) in [("ßßßx", "ssx"), ("İİİ end", "i\u{307} end"), ("ﬃ", "ffi"), ("e\u{301}x", "éx")]
    {
        let r = folded_find(text, term).unwrap_or_else(|| panic!("{text:?} {term:?}"));
        let _ = excerpt_at(text, "", r);
    }
    assert_eq!(excerpt_at("short", "", 0..0), "short");
}

#[test]
fn excerpts_cut_between_words_and_leave_out_the_title() {
    let text = format!(
        "Install Guide {} the IndexAmRoutine struct holds relname) {}",
        "word ".repeat(40),
        "more ".repeat(40)
    );
    let at = text.find("IndexAmRoutine").unwrap();
    for shift in 0..8 {
        let text = format!("{}{text}", "ab".repeat(shift));
        let at = at + 2 * shift;
        let ex = excerpt_at(&text, "Install Guide", at..at + 14);
        let inner = ex.trim_start_matches('…').trim_end_matches('…');
        let first = inner.split_whitespace().next().unwrap();
        let last = inner.split_whitespace().last().unwrap();
        assert!(
            text.split_whitespace().any(|w| w == first) && text.split_whitespace().any(|w| w == last),
            "{ex}"
        );
        assert!(ex.contains("IndexAmRoutine"), "{ex}");
    }
    // The title the text opens with is not repeated, even for a match in it.
    let text = "CREATE INDEX CREATE INDEX — define a new index. More words follow.";
    assert_eq!(excerpt_at(text, "CREATE INDEX", 0..0), "define a new index. More words follow.");
    assert_eq!(excerpt_at(text, "CREATE INDEX", 7..12), "define a new index. More words follow.");
    assert_eq!(excerpt_at(text, "CREATE INDEX", 39..44), "define a new index. More words follow.");
}

#[test]
fn read_page_is_our_frontmatter_over_the_markdown_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let page = lib.site_page("/zh-Hans/app/guide/only-en").unwrap();
    let (fm, body) = page.markdown.strip_prefix("---\n").unwrap().split_once("---\n\n").unwrap();
    // (The site crate's tests parse it back with serde_yaml.)
    let lines: Vec<&str> = fm.lines().collect();
    assert_eq!(
        lines,
        [
            r#"path: "/zh-Hans/app/guide/only-en""#,
            r#"prefix: "/zh-Hans/app""#,
            r#"label: "App 2 \"中文\"""#,
            r#"ref: "v2.0""#,
            r#"locale: "en""#,
            r#"status: "current""#,
            "fallback: true",
        ]
    );
    assert!(!body.contains("title:"), "original frontmatter removed: {body}");
    assert!(body.contains("This page has no translation."));
    assert!(!page.markdown.contains("<p>"));
    let own = lib.site_page("/app/guide/install/").unwrap();
    assert!(!own.fallback && !own.markdown.contains("fallback:"));
    assert_eq!(lib.site_page("/app/nope").unwrap_err().code(), crate::ErrorCode::NotFound);
    assert_eq!(lib.site_page("app").unwrap_err().code(), crate::ErrorCode::InvalidArgument);
}

// --- differential test: optimised search == naive scan ----------------------

/// One result as the differential test compares it: path, locale,
/// fallback, title, description, excerpt.
type Found = (String, String, bool, String, Option<String>, String);

/// The plain reference: fold every title and body of the scope, no prefilter,
/// nothing kept, then cut the page of results.
fn naive(view: &View, request: &SearchPagesRequest) -> (Vec<Found>, Option<String>) {
    let scope = view.scope(request.prefix.as_deref()).unwrap();
    let term = fold(&request.term);
    let limit = request.limit.unwrap_or(20) as usize;
    let matches: Vec<Found> = scope
        .entries()
        .filter(|e| request.cursor.as_deref().is_none_or(|c| e.path.as_str() > c))
        .filter_map(|e| {
            let p = view.snapshot.page(&e.source_edition, &e.source_path).unwrap();
            let at = fold(&p.text).contains(&term).then(|| folded_find(&p.text, &term).unwrap());
            if at.is_none() && !fold(&p.title).contains(&term) {
                return None;
            }
            let excerpt = excerpt_at(&p.text, &p.title, at.unwrap_or(0..0));
            Some((e.path.clone(), e.locale.clone(), e.fallback, p.title, p.description, excerpt))
        })
        .collect();
    let more = matches.len() > limit;
    let page: Vec<_> = matches.into_iter().take(limit).collect();
    let next = if more { page.last().map(|m| m.0.clone()) } else { None };
    (page, next)
}

fn check_same(lib: &Library, request: &SearchPagesRequest) -> Result<(), TestCaseError> {
    let got = lib.search_pages(request).unwrap();
    let view = lib.view().unwrap();
    let (want, want_next) = naive(&view, request);
    let got_pages: Vec<Found> = got
        .pages
        .iter()
        .map(|p| {
            let p = p.clone();
            (p.path, p.locale, p.fallback, p.title, p.description, p.excerpt)
        })
        .collect();
    prop_assert_eq!(got_pages, want, "term {:?}", request.term);
    prop_assert_eq!(got.next_cursor, want_next, "term {:?}", request.term);
    Ok(())
}

/// Fragments chosen to stress folding: ß/ẞ/ss, dotted İ, ligatures, combining
/// marks vs precomposed letters, Greek final sigma, CJK.
const FRAGMENTS: &[&str] = &[
    "Straße",
    "STRASSE",
    "strasse",
    "ẞ",
    "İstanbul",
    "istanbul",
    "ﬃx",
    "ffi",
    "e\u{301}",
    "é",
    "Café",
    "ΣΊΣΥΦΟΣ",
    "σίσυφος",
    "创建索引",
    "索引",
    "索",
    "数据库",
    "データ",
    "한국어",
    "Index",
    "INDEX",
    "install",
    "a",
    "b",
    " ",
    "\n",
    "x-y",
    "ǅ",
    "ǆ",
    "Ω",
    "ω",
    "K",
];

fn text_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..12).prop_map(|v| v.concat())
}

fn term_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(FRAGMENTS), 1..3).prop_map(|v| v.concat()),
        prop::sample::select(FRAGMENTS).prop_map(|s| s.to_uppercase()),
        "[a-zß索引é]{1,3}",
    ]
    .prop_filter("non-blank", |t| !t.trim().is_empty())
}

#[derive(Debug, Clone)]
struct GenPage {
    rel: String,
    title: String,
    body: String,
    /// Also written in zh-Hans (else the zh scope falls back to it).
    translated: Option<(String, String)>,
    in_v1: bool,
}

fn site_strategy() -> impl Strategy<Value = Vec<GenPage>> {
    let page = (
        "[a-c]{1,2}(/[a-c]{1,2})?",
        text_strategy(),
        text_strategy(),
        prop::option::of((text_strategy(), text_strategy())),
        any::<bool>(),
    )
        .prop_map(|(rel, title, body, translated, in_v1)| GenPage {
            rel,
            title,
            body,
            translated,
            in_v1,
        });
    prop::collection::vec(page, 1..90)
}

fn build(dir: &Path, site: &[GenPage]) -> Library {
    let mut seen = BTreeSet::new();
    let mut pages = Vec::new();
    for p in site {
        // `a` and `a/b` would both want `a`: keep each file once, no folder clashes.
        let rel = format!("{}.md", p.rel.replace('/', "-"));
        if !seen.insert(rel.clone()) {
            continue;
        }
        let title = if p.title.trim().is_empty() { "t".to_owned() } else { p.title.replace('\n', " ") };
        pages.push(("v2en", rel.clone(), title.clone(), p.body.clone()));
        if let Some((t, b)) = &p.translated {
            let t = if t.trim().is_empty() { "z".to_owned() } else { t.replace('\n', " ") };
            pages.push(("v2zh", rel.clone(), t, b.clone()));
        }
        if p.in_v1 {
            pages.push(("v1en", rel, title, p.body.clone()));
        }
    }
    write_site(dir, &pages)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn search_pages_equals_a_naive_scan(
        site in site_strategy(),
        queries in prop::collection::vec(
            (term_strategy(), prop::option::of(1i64..6), prop::option::of("/(app|zh-Hans/app)(/[a-c]{1,2}(-[a-c]{1,2})?)?"), 0usize..4),
            12,
        ),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let lib = build(dir.path(), &site);
        for (term, limit, cursor, scope) in queries {
            let prefix = [None, Some("/app"), Some("/zh-Hans/app"), Some("/app/v1")][scope].map(str::to_owned);
            check_same(&lib, &SearchPagesRequest { term, prefix, limit, cursor })?;
        }
    }
}

/// More than one block of 64 bodies, with hits only past the first block and
/// a term that hits nothing: exact results, whole scope walked.
#[test]
fn search_spans_blocks_of_bodies() {
    let dir = tempfile::tempdir().unwrap();
    let pages: Vec<Fixture<'_>> = (0..150)
        .map(|i| {
            page(
                "v2en",
                &format!("p{i:03}.md"),
                &format!("Page {i}"),
                if i % 70 == 69 { "needle here" } else { "hay" },
            )
        })
        .collect();
    let lib = write_site(dir.path(), &pages);
    for (term, limit) in
        [("needle", 1), ("needle", 5), ("hay", 100), ("page 1", 3), ("nothing-at-all", 20), ("a", 64)]
    {
        let request = SearchPagesRequest {
            term: term.into(),
            prefix: Some("/app".into()),
            limit: Some(limit),
            cursor: None,
        };
        check_same(&lib, &request).unwrap();
    }
}

/// Searching again answers from the kept bodies: the same pages, the same
/// excerpts, and a term's first search costs no more reads than its page.
#[test]
fn a_second_search_answers_the_same_from_kept_bodies() {
    let dir = tempfile::tempdir().unwrap();
    let lib = many_pages(dir.path(), 120, 400);
    for (term, limit) in [("word", 20), ("word", 100), ("page 11", 5), ("wo", 1), ("nothing", 20)] {
        let request = SearchPagesRequest {
            term: term.into(),
            prefix: Some("/app".into()),
            limit: Some(limit),
            cursor: None,
        };
        let first = lib.search_pages(&request).unwrap();
        let again = lib.search_pages(&request).unwrap();
        assert_eq!(first.pages, again.pages, "{term}");
        assert_eq!(first.next_cursor, again.next_cursor, "{term}");
        check_same(&lib, &request).unwrap();
    }
}

/// The demo library of `examples/demo`, every word of every title and some
/// fragments, in every scope.
#[test]
fn search_pages_equals_a_naive_scan_on_the_demo() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo/lectern.toml");
    let config = SiteConfig::load(&demo).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let lib = Library::open(dir.path(), OpenMode::ReadWrite).unwrap();
    lib.add_site(&config, &mut |_, _| {}, &mut |_| {}).unwrap();
    let view = lib.view().unwrap();
    let mut terms: BTreeSet<String> =
        ["索引", "安装", "index", "INSTALL", "app", "e", "the", "--", "配置", "zz"]
            .into_iter()
            .map(str::to_owned)
            .collect();
    for e in view.manifest.enabled() {
        for p in view.snapshot.pages(&e.id) {
            terms.extend(p.title.split_whitespace().map(str::to_owned));
        }
    }
    let versions = lib.list_versions().unwrap();
    let mut scopes: Vec<Option<String>> = versions.versions.iter().map(|v| Some(v.prefix.clone())).collect();
    scopes.push(None);
    for term in &terms {
        for prefix in &scopes {
            for limit in [1, 3, 20] {
                let request = SearchPagesRequest {
                    term: term.clone(),
                    prefix: prefix.clone(),
                    limit: Some(limit),
                    cursor: None,
                };
                check_same(&lib, &request).unwrap();
                let first = lib.search_pages(&request).unwrap();
                if let Some(c) = first.next_cursor {
                    check_same(&lib, &SearchPagesRequest { cursor: Some(c), ..request }).unwrap();
                }
            }
        }
    }
}

/// Hostile input, abandoned requests: a site call whose client has left
/// (its cancel flag set) stops with an error instead of walking the pages;
/// with the flag clear it answers as before.
#[test]
fn abandoned_site_calls_stop() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let gone = Arc::new(AtomicBool::new(true));
    let here = AtomicBool::new(false);
    let search = SearchPagesRequest { term: "install".into(), ..Default::default() };
    let listing = ListPagesRequest::default();
    let stopped = |r: Result<(), crate::LibraryError>| {
        assert_eq!(r.map_err(|e| e.code()), Err(crate::ErrorCode::Timeout));
    };
    stopped(lib.search_pages_unless(&search, Some(&gone)).map(drop));
    stopped(lib.list_pages_unless(&listing, Some(&gone)).map(drop));
    stopped(lib.site_page_unless("/app/guide/install", Some(&gone)).map(drop));
    stopped(lib.site_search_unless("/app", "installer", Some(gone.clone())).map(drop));
    assert_eq!(lib.search_pages_unless(&search, Some(&here)).unwrap(), lib.search_pages(&search).unwrap());
    assert_eq!(lib.list_pages_unless(&listing, Some(&here)).unwrap(), lib.list_pages(&listing).unwrap());
    assert!(lib.site_page_unless("/app/guide/install", Some(&here)).is_ok());
}

/// A search with no match in its version names the versions that have
/// some, with the sentence to read; a term found nowhere names none.
#[test]
fn a_zero_names_the_versions_with_matches() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fixture(dir.path());
    let search = |term: &str, prefix: &str| {
        lib.search_pages(&SearchPagesRequest {
            term: term.into(),
            prefix: Some(prefix.into()),
            ..Default::default()
        })
        .unwrap()
    };
    let zero = search("索引", "/app");
    assert!(zero.pages.is_empty(), "{zero:?}");
    let prefixes: Vec<&str> = zero.elsewhere.iter().map(|e| e.prefix.as_str()).collect();
    assert_eq!(prefixes, ["/zh-Hans/app"]);
    let hint = zero.hint.as_deref().unwrap();
    assert!(
        hint.starts_with("0 in /app; ") && hint.ends_with("in /zh-Hans/app: search with prefix /zh-Hans/app")
    );
    let there = search("索引", "/zh-Hans/app");
    assert_eq!(there.pages.len(), zero.elsewhere[0].total);
    assert!(there.elsewhere.is_empty() && there.hint.is_none());
    let nowhere = search("nothing-like-this", "/app");
    assert!(nowhere.elsewhere.is_empty() && nowhere.hint.is_none(), "{nowhere:?}");
}
