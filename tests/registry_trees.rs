//! Real documentation trees from the package registries (Debian's doc
//! packages, npm packages) and the shared corpora, read as a user brings
//! them: every page has a title without the generator's suffix, no heading
//! is empty, no raw tag shows as text, no link is broken that the source
//! itself does not break (that count is pinned per tree), and five API or
//! topic queries per tree find the expected page in the top 3; three pages
//! per tree (for the trees added since) have the title and first words
//! written down before the engine ran on them; no page keeps
//! a navigation line ("Next: … Up: …", "Home | Contents | Index"), starts
//! with chrome or ends with a copyright or "Last updated" footer. Prints the
//! pages/s of each tree. scripts/test fetches the trees into
//! target/test-deps; a tree it could not fetch is skipped with a message.

use std::path::{Path, PathBuf};
use std::time::Instant;

use lectern_corpus::render::{PageLinks, PageSet, markdown_to_html};
use lectern_corpus::{Page, ReadOptions, read_source};
use serde_json::Value;

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;

/// One real tree, with the answers expected of it (written before the
/// engine ever ran on it).
struct Tree {
    name: &'static str,
    source: Option<PathBuf>,
    project: &'static str,
    /// The edition's locale (`en` unless the tree is a translation).
    locale: &'static str,
    /// Links the source itself breaks (a missing page or anchor), pinned.
    broken_in_source: usize,
    /// (query, page expected in the top 3).
    queries: [(&'static str, &'static str); 5],
    /// (page, its title, the first words of its content below the title).
    pages: &'static [(&'static str, &'static str, &'static str)],
}

/// (tree, query, the section expected first, as `path#anchor`): a name the
/// tree defines inside a section finds that section, not the page's top,
/// and a topic finds its reference before a guide between versions (the
/// pages written before the engine ran on these).
const FIRST_HITS: &[(&str, &str, &str)] = &[
    // An API entry (`<dl class="py function">`) is a section of its own.
    ("Debian python3.11-doc (Sphinx)", "asyncio.gather", "/python/library/asyncio-task#asyncio.gather"),
    ("Debian python3.11-doc (Sphinx)", "PYTHONPATH", "/python/using/cmdline#envvar-PYTHONPATH"),
    ("Debian python3.11-doc (Sphinx)", "os.path.exists()", "/python/library/os.path#os.path.exists"),
    ("Debian python3.11-doc (Sphinx)", "@staticmethod", "/python/library/functions#staticmethod"),
    // A qualified name's last part, typed alone.
    ("Debian python3.11-doc (Sphinx)", "setrecursionlimit", "/python/library/sys#sys.setrecursionlimit"),
    ("Debian python3.11-doc (Sphinx)", "lru_cache", "/python/library/functools#functools.lru_cache"),
    ("Debian git-doc (asciidoc)", "git commit --amend", "/git/git-commit#_options"),
    // A manual page's NAME line: what the command does finds the page's
    // top (not its NAME section), and a suite's command as typed finds its
    // page, not the page of the suite (`git`) whose name it starts with.
    ("Debian git-doc (asciidoc)", "who last modified each line of a file", "/git/git-blame#"),
    ("Debian git-doc (asciidoc)", "git blame", "/git/git-blame#"),
    ("Debian git-doc (asciidoc)", "git send-email", "/git/git-send-email#"),
    ("Debian bash-doc (texinfo)", "set -e", "/bash/bashref#The-Set-Builtin"),
    // A directive's words find its definition; a module's name finds its
    // page, not the module index (whose entries are links to it) nor the
    // pages about a release's new features.
    ("Debian apache2-doc (Apache httpd's manual)", "keep alive timeout", "/httpd/mod/core#keepalivetimeout"),
    ("Debian apache2-doc (Apache httpd's manual)", "mod_rewrite", "/httpd/mod/mod_rewrite#"),
    // The empty target right before an API entry's heading (Doxygen's `<a
    // id>`, gtk-doc's `<a name>`) is its section's anchor: the function's
    // name finds its own entry, not the one before it.
    (
        "Debian lmdb-doc (Doxygen)",
        "mdb_env_open",
        "/lmdb/group__mdb__copy#ga32a193c6bf4d7d5c5d579e71f22e9340",
    ),
    ("Debian libatk1.0-doc (gtk-doc)", "atk_object_get_name", "/atk/AtkObject#atk-object-get-name"),
    // Javadoc's member index names each method as its class writes it, at
    // the `<section id>` its own links name; apart, the names are that member.
    (
        "Debian libcommons-lang3-java-doc (javadoc 17, source pages)",
        "StringUtils isBlank",
        "/lang3/org/apache/commons/lang3/StringUtils#isBlank(java.lang.CharSequence)",
    ),
    (
        "Debian libcommons-lang3-java-doc (javadoc 17, source pages)",
        "SerializationUtils.clone",
        "/lang3/org/apache/commons/lang3/SerializationUtils#clone(T)",
    ),
    // mdBook's print.html repeats every chapter: the chapter comes first.
    ("Debian rust-doc nomicon (mdBook)", "unbounded lifetimes", "/nomicon/unbounded-lifetimes#"),
    ("Debian rust-doc nomicon (mdBook)", "transmute", "/nomicon/transmutes#"),
    // Texinfo index entries (`@vindex`, `@findex`), found where they are made.
    (
        "Debian zsh-doc (texi2any, a redirect file per node)",
        "NULL_GLOB",
        "/zsh/Options#Expansion-and-Globbing",
    ),
    ("Debian zsh-doc (texi2any, a redirect file per node)", "bindkey", "/zsh/Zsh-Line-Editor#Zle-Builtins"),
    // A word that only an index entry holds (`nullglob`, an alias of
    // NULL_GLOB) inside a longer query.
    (
        "Debian zsh-doc (texi2any, a redirect file per node)",
        "setopt nullglob",
        "/zsh/Options#Expansion-and-Globbing",
    ),
    (
        "Debian zsh-doc (texi2any, a redirect file per node)",
        "HISTFILE",
        "/zsh/Parameters#Parameters-Used-By-The-Shell",
    ),
    // DocBook XHTML marks each heading with an empty `<a id="…"/>`: each
    // section keeps its own id, not one an HTML parser carries over from
    // an earlier table.
    (
        "Debian debian-reference-zh-cn (DocBook XHTML, Chinese)",
        "怎么修改umask让新建文件的默认权限不同",
        "/debref/ch01#_control_of_permissions_for_newly_created_files_umask",
    ),
    (
        "Debian debian-reference-zh-cn (DocBook XHTML, Chinese)",
        "如何限制apt下载时占用的带宽",
        "/debref/ch02#_limiting_download_bandwidth_for_apt",
    ),
    (
        "Debian debian-reference-zh-cn (DocBook XHTML, Chinese)",
        "如何给命令起一个简短的别名",
        "/debref/ch01#_command_alias",
    ),
    (
        "Debian debmake-doc zh-cn (DocBook XHTML, six languages in one folder)",
        "如何让软件包的构建可重现",
        "/debmake/ch05#reproducible",
    ),
    (
        "Debian debmake-doc zh-cn (DocBook XHTML, six languages in one folder)",
        "怎么为打包工具设置HTTP代理",
        "/debmake/ch03#proxy",
    ),
    // A name asked about with nothing but question words around it, and a
    // question about one answer among a chapter's many.
    (
        "Debian debian-faq-zh-cn (DocBook, the language in each file's name)",
        "sid是什么意思",
        "/debian-faq/ftparchives#sid",
    ),
    (
        "Debian debian-faq-zh-cn (DocBook, the language in each file's name)",
        "某个文件是哪个软件包装的，怎么查",
        "/debian-faq/pkgtools#filesearch",
    ),
    (
        "Debian maint-guide-zh-cn (DocBook XHTML, the language in each file's name)",
        "怎么设置开机启动的服务脚本",
        "/maint-guide/dother#initd",
    ),
    (
        "Debian maint-guide-zh-cn (DocBook XHTML, the language in each file's name)",
        "如何安装配置文件并且升级时保留用户的修改",
        "/maint-guide/dother#conffiles",
    ),
    // A member heading (`.send(data)`) on its object's page ("Reply").
    ("npm fastify@5 docs/ (Markdown with inline HTML)", "reply.send", "/fastify/Reference/Reply#senddata"),
    // The reference, not the guide from version 2 to 3 that walks every change.
    (
        "npm fastify@5 docs/ (Markdown with inline HTML)",
        "schema validation",
        "/fastify/Reference/Validation-and-Serialization#validation",
    ),
];

fn deps() -> PathBuf {
    bin::root().join("target/test-deps")
}

fn existing(path: PathBuf) -> Option<PathBuf> {
    path.exists().then_some(path)
}

/// The npm CLI docs of one version, unpacked from the shared corpus into `into`.
fn npm_cli_docs(into: &Path) -> Option<PathBuf> {
    let archive = bin::root().join("../shared/corpora/npm-cli-docs-4-versions.tar.xz");
    let archive = existing(archive)
        .or_else(|| existing(PathBuf::from("/work/shared/corpora/npm-cli-docs-4-versions.tar.xz")))?;
    let status = std::process::Command::new("tar")
        .arg("-xJf")
        .arg(&archive)
        .arg("-C")
        .arg(into)
        .arg("npm-cli-10.9.9")
        .status()
        .ok()?;
    status.success().then(|| into.join("npm-cli-10.9.9"))
}

fn click_docset() -> Option<PathBuf> {
    existing(bin::root().join("../shared/corpora/Click.docset.tar.xz"))
        .or_else(|| existing(PathBuf::from("/work/shared/corpora/Click.docset.tar.xz")))
}

fn trees(scratch: &Path) -> Vec<Tree> {
    let d = deps();
    vec![
        Tree {
            name: "Debian python3.11-doc (Sphinx)",
            source: existing(d.join("python3.11-doc/usr/share/doc/python3.11/html")),
            project: "python",
            locale: "en",
            // Debian leaves out whatsnew/changelog.html, which contents and many pages
            // link to; a few anchors (glossary, urllib.request) are missing too.
            broken_in_source: 1445,
            queries: [
                ("functools.lru_cache", "/python/library/functools"),
                ("os.path.join", "/python/library/os.path"),
                ("share global variables", "/python/faq/programming"),
                ("asyncio.gather", "/python/library/asyncio-task"),
                ("json.dumps", "/python/library/json"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian git-doc (asciidoc)",
            source: existing(d.join("git-doc/usr/share/doc/git-doc")),
            project: "git",
            locale: "en",
            // git-p4 is not in git-doc; two technical/reftable anchors are missing.
            broken_in_source: 3,
            queries: [
                ("git-rebase", "/git/git-rebase"),
                ("git-cherry-pick", "/git/git-cherry-pick"),
                ("git bisect", "/git/git-bisect"),
                ("gitignore", "/git/gitignore"),
                ("git-worktree", "/git/git-worktree"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian bash-doc (texinfo)",
            source: existing(d.join("bash-doc/usr/share/doc/bash")),
            project: "bash",
            locale: "en",
            // None: the two links to the info manual's `dir` node (not part of
            // the HTML) are in the "Up: (dir)" navigation lines, which are dropped.
            broken_in_source: 0,
            queries: [
                ("shopt", "/bash/bashref"),
                ("PROMPT_COMMAND", "/bash/bashref"),
                ("Controlling the Prompt", "/bash/bashref"),
                ("readline init file", "/bash/bashref"),
                ("here documents", "/bash/bashref"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian mkdocs-doc (MkDocs)",
            source: existing(d.join("mkdocs-doc/usr/share/doc/mkdocs/html")),
            project: "mkdocs",
            locale: "en",
            // The release notes link template variables of dev-guide/themes by ids
            // that page no longer has (#pagetitle, #search_and_themes...); four
            // pages link ids nothing carries (#google_analytics, #readthedocs,
            // #using-the-theme_dir, #multilevel-documentation). Links into the three
            // redirect pages (user-guide/custom-themes → dev-guide/themes...) reach
            // the anchors of their targets, as a browser following them does.
            broken_in_source: 14,
            queries: [
                ("site_name", "/mkdocs/user-guide/configuration"),
                ("GitHub Pages", "/mkdocs/user-guide/deploying-your-docs"),
                ("readthedocs theme", "/mkdocs/user-guide/choosing-your-theme"),
                ("localizing your theme", "/mkdocs/user-guide/localizing-your-theme"),
                ("on_page_markdown", "/mkdocs/dev-guide/plugins"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian postgresql-doc-15 (DocBook)",
            source: existing(d.join("postgresql-doc-15/usr/share/doc/postgresql-doc-15/html")),
            project: "postgresql",
            locale: "en",
            // Anchors into pages that the manual's HTML does not carry (a
            // step's own id, `<li class="step" id="CONFIGURE">`, it does).
            broken_in_source: 7,
            queries: [
                ("work_mem", "/postgresql/runtime-config-resource"),
                ("CREATE INDEX", "/postgresql/sql-createindex"),
                ("VACUUM", "/postgresql/sql-vacuum"),
                ("pg_dump", "/postgresql/app-pgdump"),
                ("jsonb_set", "/postgresql/functions-json"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian gettext-doc (texi2html, man2html, Javadoc, C# doc)",
            source: existing(d.join("gettext-doc/usr/share/doc/gettext")),
            project: "gettext",
            locale: "en",
            // The tutorial links four anchors of memo.html, which the package does not
            // ship; the FAQ has a link missing its scheme (`://lists.gnu.org/...`).
            broken_in_source: 5,
            queries: [
                ("msgfmt", "/gettext/msgfmt.1"),
                ("xgettext", "/gettext/xgettext.1"),
                ("msgmerge", "/gettext/msgmerge.1"),
                ("Preparing Program Sources", "/gettext/gettext_4"),
                ("Manipulating PO Files", "/gettext/gettext_9"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian r-doc-html (texinfo 6.8, one file per manual)",
            source: existing(d.join("r-doc-html/usr/share/R/doc/manual")),
            project: "r",
            locale: "en",
            broken_in_source: 0,
            queries: [
                // R-intro names lapply once; the language definition explains it.
                ("lapply", "/r/R-lang"),
                (".Call", "/r/R-exts"),
                ("R CMD check", "/r/R-exts"),
                ("closures", "/r/R-lang"),
                ("Rprofile", "/r/R-intro"),
            ],
            pages: &[
                ("/r/R-intro", "An Introduction to R", "This is an introduction to R"),
                ("/r/R-FAQ", "R FAQ", "Frequently Asked Questions on R"),
                ("/r/R-exts", "Writing R Extensions", "This is a guide to extending R"),
            ],
        },
        Tree {
            name: "Debian lmdb-doc (Doxygen)",
            source: existing(d.join("lmdb-doc/usr/share/doc/lmdb-doc/html")),
            project: "lmdb",
            locale: "en",
            // The index and mdb_env_copy's group link the tools' man pages
            // (`man1/mdb_stat.1`...), which the package does not ship.
            broken_in_source: 5,
            queries: [
                // Doxygen put the environment functions in the "Copy Flags" group
                // (the source's own links say so).
                ("mdb_env_open", "/lmdb/group__mdb__copy"),
                ("MDB_RDONLY", "/lmdb/group__mdb__env"),
                ("mdb_cursor_get", "/lmdb/group__internal"),
                ("Getting Started", "/lmdb/starting"),
                ("MDB_NOTFOUND", "/lmdb/group__errors"),
            ],
            pages: &[
                (
                    "/lmdb",
                    "Lightning Memory-Mapped Database Manager (LMDB)",
                    "Introduction LMDB is a Btree-based",
                ),
                ("/lmdb/starting", "Getting Started", "LMDB is compact, fast, powerful, and robust"),
                ("/lmdb/group__mdb__env", "Environment Flags", "| Macros |"),
            ],
        },
        Tree {
            name: "Debian sqlite3-doc (SQLite's own generator)",
            source: existing(d.join("sqlite3-doc/usr/share/doc/sqlite3")),
            project: "sqlite",
            locale: "en",
            // SQLite's pages link many ids their targets do not carry (pages link
            // anchors of others that were renamed, the requirement matrices
            // link ids no page has), and a few relative links lack `.html`
            // (`section_3_2`). The session page's `<a
            // name="sqlite3changegroup_add_strm"></a><h2>` and the like are
            // its headings' anchors, so links to them land (7,072 broke before).
            broken_in_source: 7042,
            queries: [
                ("sqlite3_open", "/sqlite/c3ref/open"),
                ("PRAGMA journal_mode", "/sqlite/pragma"),
                ("WITHOUT ROWID", "/sqlite/withoutrowid"),
                ("write-ahead log", "/sqlite/wal"),
                ("VACUUM INTO", "/sqlite/lang_vacuum"),
            ],
            pages: &[
                (
                    "/sqlite/wal",
                    "Write-Ahead Logging",
                    "1. Overview The default method by which SQLite implements",
                ),
                ("/sqlite/c3ref/open", "Opening A New Database Connection", "> ``` > int sqlite3_open("),
                ("/sqlite/lang_vacuum", "VACUUM", "1. Syntax"),
            ],
        },
        Tree {
            name: "Debian rust-doc proc_macro (rustdoc 1.63)",
            source: existing(d.join("rust-doc/usr/share/doc/rust-doc/html/proc_macro")),
            project: "proc_macro",
            locale: "en",
            // Its links to std, core, the book and the source view leave the
            // tree: counted outside it, not broken.
            broken_in_source: 0,
            queries: [
                ("TokenStream", "/proc_macro/struct.TokenStream"),
                ("Span", "/proc_macro/struct.Span"),
                ("Delimiter", "/proc_macro/enum.Delimiter"),
                ("TokenTree", "/proc_macro/enum.TokenTree"),
                ("quote_span", "/proc_macro/fn.quote_span"),
            ],
            pages: &[
                ("/proc_macro", "Crate proc_macro", "A support library for macro authors"),
                (
                    "/proc_macro/struct.TokenStream",
                    "Struct proc_macro::TokenStream",
                    "```rust pub struct TokenStream(_); ``` The main type provided by this crate",
                ),
                ("/proc_macro/fn.quote", "Function proc_macro::quote", "```rust pub fn quote"),
            ],
        },
        Tree {
            name: "Debian rust-doc nomicon (mdBook)",
            source: existing(d.join("rust-doc/usr/share/doc/rust-doc/html/nomicon")),
            project: "nomicon",
            locale: "en",
            broken_in_source: 0,
            queries: [
                ("PhantomData", "/nomicon/phantom-data"),
                ("Foreign Function Interface", "/nomicon/ffi"),
                ("Drop Check", "/nomicon/dropck"),
                ("Subtyping and Variance", "/nomicon/subtyping"),
                ("Send and Sync", "/nomicon/send-and-sync"),
            ],
            pages: &[
                ("/nomicon", "The Rustonomicon", "Warning: This book is incomplete."),
                ("/nomicon/ffi", "Foreign Function Interface", "Introduction This guide will use the snappy"),
                ("/nomicon/vec/vec-alloc", "Allocating Memory", "Using `NonNull` throws a wrench"),
            ],
        },
        Tree {
            name: "npm fastify@5 docs/ (Markdown with inline HTML)",
            source: existing(d.join("fastify-5/package/docs")),
            project: "fastify",
            locale: "en",
            // Broken on GitHub and fastify.dev too: 54 in Reference/TypeScript
            // name headings as they read before a rewording (`#fastifyfastifyinstance`
            // for `fastify.FastifyInstance< RawServer, ...>`), misspell one
            // (`#fastifyfastifytregisteroptions`) or an id nothing carries
            // (`#ContextConfigGeneric`); Reference/Errors links an `<a id>` in a table
            // cell past the header's columns, which the table drops; Guides/Index
            // links ./Contributing.md, which the package does not ship.
            broken_in_source: 56,
            queries: [
                ("route shorthand methods", "/fastify/Reference/Routes"),
                ("reply.header", "/fastify/Reference/Reply"),
                ("onRequest hook", "/fastify/Reference/Hooks"),
                ("decorateRequest", "/fastify/Reference/Decorators"),
                ("Validation and Serialization", "/fastify/Reference/Validation-and-Serialization"),
            ],
            pages: &[],
        },
        Tree {
            name: "npm undici@6.29.1 docs/ (docsify Markdown, repository-style links)",
            source: existing(d.join("undici-6/package/docs")),
            project: "undici",
            locale: "en",
            broken_in_source: 0,
            queries: [
                ("ProxyAgent", "/undici/api/ProxyAgent"),
                ("MockAgent", "/undici/api/MockAgent"),
                ("pipelining", "/undici/api/Client"),
                ("EventSource", "/undici/api/EventSource"),
                ("client certificate", "/undici/best-practices/client-certificate"),
            ],
            pages: &[
                (
                    "/undici/api/Client",
                    "Class: Client",
                    "Extends: `undici.Dispatcher` A basic HTTP/1.1 client",
                ),
                ("/undici/api/Dispatcher", "Dispatcher", "Extends: `events.EventEmitter`"),
                (
                    "/undici/best-practices/proxy",
                    "Connecting through a proxy",
                    "Connecting through a proxy is possible by:",
                ),
            ],
        },
        Tree {
            name: "npm CLI docs 10.9.9 (Markdown, frontmatter)",
            source: npm_cli_docs(scratch),
            project: "npm",
            locale: "en",
            // using-npm/config links an anchor that page does not have.
            broken_in_source: 1,
            queries: [
                ("package-lock.json", "/npm/configuring-npm/package-lock-json"),
                ("npm install", "/npm/commands/npm-install"),
                ("npm ci", "/npm/commands/npm-ci"),
                ("workspaces", "/npm/using-npm/workspaces"),
                ("npmrc", "/npm/configuring-npm/npmrc"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian libargparse4j-java-doc (javadoc)",
            source: existing(d.join("libargparse4j-java-doc/usr/share/doc/libargparse4j-java/api")),
            project: "argparse4j",
            locale: "en",
            broken_in_source: 0,
            queries: [
                ("newArgumentParser", "/argparse4j/net/sourceforge/argparse4j/ArgumentParsers"),
                (
                    "ArgumentParserException",
                    "/argparse4j/net/sourceforge/argparse4j/inf/ArgumentParserException",
                ),
                ("addSubparsers", "/argparse4j/net/sourceforge/argparse4j/inf/ArgumentParser"),
                ("Namespace", "/argparse4j/net/sourceforge/argparse4j/inf/Namespace"),
                (
                    "StoreTrueArgumentAction",
                    "/argparse4j/net/sourceforge/argparse4j/impl/action/StoreTrueArgumentAction",
                ),
            ],
            pages: &[(
                "/argparse4j/net/sourceforge/argparse4j/ArgumentParsers",
                "ArgumentParsers",
                "Package net.sourceforge.argparse4j Class ArgumentParsers",
            )],
        },
        Tree {
            name: "Debian libcommons-lang3-java-doc (javadoc 17, source pages)",
            source: existing(d.join("libcommons-lang3-java-doc/usr/share/doc/libcommons-lang3-java/api")),
            project: "lang3",
            locale: "en",
            // The pages link the JDK's API documentation as relative pages, and
            // source lines past the first 200 ids a code block keeps.
            broken_in_source: 2265,
            queries: [
                // Class names in camel case, asked in words: the class, not
                // the generated pages that use it.
                ("to string builder", "/lang3/org/apache/commons/lang3/builder/ToStringBuilder"),
                ("stop watch", "/lang3/org/apache/commons/lang3/time/StopWatch"),
                ("left pad", "/lang3/org/apache/commons/lang3/StringUtils"),
                ("escape html", "/lang3/org/apache/commons/lang3/StringEscapeUtils"),
                ("StringUtils.isEmpty", "/lang3/org/apache/commons/lang3/StringUtils"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian apache2-doc (Apache httpd's manual)",
            source: existing(d.join("apache2-doc/usr/share/doc/apache2-doc/manual/en")),
            project: "httpd",
            locale: "en",
            // (A quoted mail's Message-ID, `<…$7f00000a@KOJ>`, is an email
            // autolink, no link to a page.) Directives are named by links
            // inside code (`<code><a href="…#satisfy">Satisfy</a></code>`),
            // some to anchors or modules this manual lacks.
            broken_in_source: 51,
            queries: [
                // Directives in camel case, asked in words.
                ("keep alive timeout", "/httpd/mod/core"),
                ("limit request body size", "/httpd/mod/core"),
                ("max request workers", "/httpd/mod/mpm_common"),
                ("name-based virtual hosts", "/httpd/vhosts/name-based"),
                ("set up a reverse proxy", "/httpd/howto/reverse_proxy"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian zsh-doc (texi2any, a redirect file per node)",
            source: existing(d.join("zsh-doc/usr/share/doc/zsh-common/html")),
            project: "zsh",
            locale: "en",
            broken_in_source: 0,
            queries: [
                ("zle widget", "/zsh/Zsh-Line-Editor"),
                ("zsh/cap module", "/zsh/Zsh-Modules"),
                ("history expansion", "/zsh/Expansion"),
                ("compinit", "/zsh/Completion-System"),
                ("prompt escapes", "/zsh/Prompt-Expansion"),
            ],
            pages: &[("/zsh/Zsh-Modules", "22 Zsh Modules", "22.1 Description")],
        },
        Tree {
            name: "Debian libatk1.0-doc (gtk-doc)",
            source: existing(d.join("libatk1.0-doc/usr/share/gtk-doc/html/atk")),
            project: "atk",
            locale: "en",
            broken_in_source: 0,
            queries: [
                ("atk_hypertext_get_link", "/atk/AtkHypertext"),
                ("atk_object_get_name", "/atk/AtkObject"),
                ("AtkStateSet", "/atk/AtkStateSet"),
                ("atk_text_get_caret_offset", "/atk/AtkText"),
                ("AtkRole", "/atk/AtkObject"),
            ],
            pages: &[(
                "/atk/AtkHypertext",
                "AtkHypertext",
                "AtkHypertext — The ATK interface which provides standard mechanism",
            )],
        },
        Tree {
            name: "Debian debian-reference-zh-cn (DocBook XHTML, Chinese)",
            source: existing(d.join("debian-reference-zh-cn/usr/share/debian-reference")),
            project: "debref",
            locale: "zh-Hans",
            broken_in_source: 0,
            // Questions as a user asks them, not the headings' words.
            queries: [
                ("如何限制apt下载时占用的带宽", "/debref/ch02"),
                ("怎么合并两个PDF文件", "/debref/ch11"),
                ("如何查看系统启动时的内核消息", "/debref/ch03"),
                ("怎样检测程序的内存泄漏", "/debref/ch12"),
                ("怎么重新配置系统的语言环境", "/debref/ch08"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian debian-handbook zh-CN (Publican, partly translated)",
            source: existing(d.join("debian-handbook/usr/share/doc/debian-handbook/html/zh-CN")),
            project: "handbook",
            locale: "zh-Hans",
            // Callout lists link ids inside their program listings (AppArmor,
            // SELinux, virt-install and smb.conf examples): kept before each listing.
            broken_in_source: 0,
            // Questions as a user asks them, not the headings' words.
            queries: [
                ("怎么限制每个用户能使用的磁盘空间", "/handbook/sect.quotas"),
                ("怎样自己编译Linux内核", "/handbook/sect.kernel-compilation"),
                ("怎么用Samba和Windows共享文件", "/handbook/sect.windows-file-server-with-samba"),
                ("关机后错过的定时任务怎样补上执行", "/handbook/sect.asynchronous-task-scheduling-anacron"),
                ("如何配置防火墙规则过滤数据包", "/handbook/sect.firewall-packet-filtering"),
            ],
            // A section the translation left in English, without the logo line's
            // image texts ("Product Site") above it.
            pages: &[(
                "/handbook/sect.apt-file",
                "6.4. apt-file 命令",
                "Sometimes we refer to a file or a command and you might wonder",
            )],
        },
        Tree {
            name: "Debian debian-handbook en-US (Publican)",
            source: existing(d.join("debian-handbook/usr/share/doc/debian-handbook/html/en-US")),
            project: "handbook",
            locale: "en",
            broken_in_source: 0,
            queries: [
                ("schedule a job to run every night", "/handbook/sect.task-scheduling-cron-atd"),
                ("compile my own kernel", "/handbook/sect.kernel-compilation"),
                ("limit disk space per user", "/handbook/sect.quotas"),
                ("verify that downloaded packages are authentic", "/handbook/sect.package-authentication"),
                ("upgrade to the next stable release", "/handbook/sect.dist-upgrade"),
            ],
            pages: &[(
                "/handbook",
                "The Debian Administrator's Handbook",
                "Debian 11 Debian Bullseye from Discovery to Mastery",
            )],
        },
        Tree {
            name: "Debian debmake-doc zh-cn (DocBook XHTML, six languages in one folder)",
            source: existing(d.join("debmake-doc/usr/share/doc/debmake-doc/html")),
            project: "debmake",
            locale: "zh-Hans",
            broken_in_source: 0,
            // Read as the zh-Hans edition: the `*.zh-cn.html` files only, at
            // paths without the language (the other five are left out).
            queries: [
                ("怎么用debmake生成debian目录的模板文件", "/debmake/ch04"),
                ("如何用补丁修改上游源代码", "/debmake/ch04"),
                ("debian/rules 里可以用哪些变量", "/debmake/ch05"),
                ("怎么为打包工具设置HTTP代理", "/debmake/ch03"),
                ("如何让软件包的构建可重现", "/debmake/ch05"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian debian-faq-zh-cn (DocBook, the language in each file's name)",
            source: existing(d.join("debian-faq-zh-cn/usr/share/doc/debian/FAQ/zh-cn")),
            project: "debian-faq",
            locale: "zh-Hans",
            broken_in_source: 0,
            // Questions as a user asks them, not the headings' words.
            queries: [
                ("怎样查看系统里装了哪些软件包", "/debian-faq/pkgtools"),
                ("能不能让系统每天自动更新", "/debian-faq/uptodate"),
                ("怎么从源代码编译出deb二进制包", "/debian-faq/pkg-basics"),
                ("编译时报错找不到库 -lfoo 怎么办", "/debian-faq/software"),
                ("旧内核可以删掉吗", "/debian-faq/kernel"),
            ],
            pages: &[],
        },
        Tree {
            name: "Debian maint-guide-zh-cn (DocBook XHTML, the language in each file's name)",
            source: existing(d.join("maint-guide-zh-cn/usr/share/doc/maint-guide-zh-cn/html")),
            project: "maint-guide",
            locale: "zh-Hans",
            broken_in_source: 0,
            queries: [
                ("怎么在上传时包含原始源码包", "/maint-guide/upload"),
                ("版权文件怎么写", "/maint-guide/dreq"),
                ("怎么只重新构建而不从头编译", "/maint-guide/build"),
                ("多体系结构怎么支持", "/maint-guide/advanced"),
                // The guide writes neither 覆盖 nor 误报 (other manuals do):
                // its sections on lintian qualify by `lintian` alone.
                ("怎么覆盖lintian的误报", "/maint-guide/dother"),
            ],
            pages: &[],
        },
        Tree {
            name: "Click 8.1 Dash docset",
            source: click_docset(),
            project: "click",
            locale: "en",
            broken_in_source: 0,
            queries: [
                ("shell completion", "/click/shell-completion"),
                ("CliRunner", "/click/testing"),
                ("unicode support", "/click/unicode-support"),
                ("click.Path", "/click/api"),
                ("nested command groups", "/click/commands"),
            ],
            pages: &[],
        },
    ]
}

/// The trees are checked in [`PARTS`] tests of every third tree, so that the
/// test runner spreads them over the machine's cores (the three that take
/// longest, Python's, PostgreSQL's and SQLite's, fall in different parts).
const PARTS: usize = 3;

#[test]
fn registry_trees_ingest_right_part_1() {
    check_trees(0);
}

#[test]
fn registry_trees_ingest_right_part_2() {
    check_trees(1);
}

#[test]
fn registry_trees_ingest_right_part_3() {
    check_trees(2);
}

fn check_trees(part: usize) {
    let scratch = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    // LECTERN_TREES=python,git narrows a run to some trees while working on them.
    let only = std::env::var("LECTERN_TREES").ok();
    for (i, tree) in trees(scratch.path()).into_iter().enumerate() {
        if i % PARTS != part || only.as_deref().is_some_and(|o| !o.split(',').any(|n| n == tree.project)) {
            continue;
        }
        let Some(source) = &tree.source else {
            eprintln!(
                "{}: not fetched (scripts/test fetches it; the registry may be unreachable); skipping",
                tree.name
            );
            continue;
        };
        failures.extend(check_tree(&tree, source));
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

fn check_tree(tree: &Tree, source: &Path) -> Vec<String> {
    let prefix = format!("/{}", tree.project);
    let started = Instant::now();
    let options = ReadOptions { locale: Some(tree.locale.to_owned()), ..ReadOptions::new(prefix.clone()) };
    let ingested = read_source(source, &options, &mut |_, _| {}).unwrap();
    let secs = started.elapsed().as_secs_f64();
    let pages = &ingested.pages;
    eprintln!(
        "{}: {} pages in {secs:.2} s, {:.0} pages/s (debug build)",
        tree.name,
        pages.len(),
        pages.len() as f64 / secs
    );
    let mut failures = Vec::new();
    let paths: std::collections::HashSet<&str> = pages.iter().map(|p| p.path.as_str()).collect();
    let is_page = |p: &str| paths.contains(p);
    let shared = shared_suffix(pages);
    for page in pages {
        failures.extend(
            page_problems(page, &prefix, &is_page, shared.as_deref(), &escaped_in_source(source, page))
                .into_iter()
                .map(|p| format!("{}: {}: {p}", tree.name, page.path)),
        );
    }
    let links = ingested.check_links(&prefix);
    eprintln!("{}: {}", tree.name, links.summary());
    for l in links.listed.iter().filter(|l| !l.in_source).take(20) {
        failures.push(format!("{}: {} -> {} broken by the conversion", tree.name, l.page, l.target));
    }
    if links.broken_in_source != tree.broken_in_source {
        // The distinct targets, to tell a missing page from many missing anchors.
        let mut listed: Vec<String> = links
            .listed
            .iter()
            .filter(|l| l.in_source)
            .map(|l| {
                l.target.split('#').next().unwrap_or_default().to_owned()
                    + if l.target.contains('#') { "#…" } else { "" }
            })
            .collect();
        listed.sort();
        listed.dedup();
        listed.truncate(40);
        failures.push(format!(
            "{}: {} links broken in the source, {} expected: {}",
            tree.name,
            links.broken_in_source,
            tree.broken_in_source,
            listed.join(", ")
        ));
    }
    failures.extend(query_problems(tree, source));
    for (path, title, start) in tree.pages {
        let Some(page) = pages.iter().find(|p| p.path == *path) else {
            failures.push(format!("{}: no page {path}", tree.name));
            continue;
        };
        if page.title != *title {
            failures.push(format!("{}: {path}: title {:?}, expected {title:?}", tree.name, page.title));
        }
        let content = content_words(&page.markdown);
        if !content.starts_with(start) {
            let shown: String = content.chars().take(120).collect();
            failures.push(format!("{}: {path}: content starts {shown:?}, expected {start:?}", tree.name));
        }
    }
    failures
}

/// A page's Markdown below its `# title`, as words: `<a id>` anchors,
/// `{#id}` attributes, heading marks and links' targets left out.
fn content_words(markdown: &str) -> String {
    let mut lines = markdown.lines().map(str::trim).filter(|l| !l.is_empty()).peekable();
    if lines.peek().is_some_and(|l| l.starts_with("# ")) {
        lines.next();
    }
    let mut words = Vec::new();
    for line in lines {
        let mut line = link_texts(line);
        while let Some(at) = line.find("<a id=") {
            let end = line[at..].find("</a>").map_or(line.len(), |e| at + e + 4);
            line.replace_range(at..end, " ");
        }
        if let Some(at) = line.find(" {#") {
            line.truncate(at);
        }
        let line = line.trim_start_matches(['#', ' ']).to_owned();
        words.extend(line.split_whitespace().map(str::to_owned));
    }
    words.join(" ")
}

/// A title suffix (after " — ", " - ", " | ") that most pages share: the
/// site's name left on the titles.
fn shared_suffix(pages: &[Page]) -> Option<String> {
    let mut counts: std::collections::HashMap<&str, usize> = Default::default();
    for p in pages {
        for sep in [" — ", " – ", " | ", " - "] {
            if let Some((_, s)) = p.title.rsplit_once(sep) {
                *counts.entry(s).or_default() += 1;
            }
        }
    }
    counts
        .into_iter()
        .filter(|(_, n)| *n * 3 > pages.len() && pages.len() >= 6)
        .map(|(s, _)| s.to_owned())
        .next()
}

/// Tag names that must never be shown as text outside code.
const TAGS: [&str; 16] = [
    "a", "div", "span", "h1", "h2", "h3", "img", "code", "b", "details", "summary", "br", "p", "table",
    "sup", "section",
];

/// The tags of [`TAGS`] that the page's own HTML file shows as text
/// (`&lt;b&gt;` in a page about markup): shown so on purpose.
fn escaped_in_source(source: &Path, page: &Page) -> Vec<&'static str> {
    let Ok(html) = std::fs::read_to_string(source.join(&page.source_file)) else { return Vec::new() };
    let html = html.to_ascii_lowercase();
    TAGS.into_iter()
        .filter(|tag| html.contains(&format!("&lt;{tag}")) || html.contains(&format!("&lt;/{tag}")))
        .collect()
}

fn page_problems(
    page: &Page,
    prefix: &str,
    is_page: &dyn Fn(&str) -> bool,
    shared: Option<&str>,
    escaped: &[&str],
) -> Vec<String> {
    let mut out = Vec::new();
    if page.title.trim().is_empty() {
        out.push("empty title".to_owned());
    }
    if let Some(s) = shared {
        out.push(format!("title {:?}: the suffix {s:?} is on most titles", page.title));
    }
    for s in &page.sections {
        if s.anchor.is_some() && s.title.trim().is_empty() {
            out.push(format!("empty heading #{}", s.anchor.as_deref().unwrap_or("")));
        }
    }
    let anchors: Vec<Option<String>> = page.sections.iter().map(|s| s.anchor.clone()).collect();
    let links = PageLinks {
        prefix,
        source_file: &page.source_file,
        anchors: &anchors,
        title: Some(&page.title),
        pages: Some(PageSet(is_page)),
        others: None,
    };
    let html = markdown_to_html(&page.markdown, links);
    let prose = outside_code(&html);
    for tag in TAGS.into_iter().filter(|t| !escaped.contains(t)) {
        for shown in [format!("&lt;{tag} "), format!("&lt;{tag}&gt;"), format!("&lt;/{tag}&gt;")] {
            if prose.contains(&shown) {
                out.push(format!("raw tag {shown} shown as text"));
            }
        }
    }
    // `javascript:` as a link's target (prose and code may name `extra_javascript:`).
    if html.contains("<script") || html.contains("=\"javascript:") || html.contains(" onclick=") {
        out.push("script passed the allowlist".to_owned());
    }
    out.extend(chrome_problems(&page.markdown));
    out
}

/// Words a navigation line is made of (besides link texts it may also hold).
const NAV_WORDS: [&str; 12] =
    ["next", "previous", "prev", "up", "home", "top", "contents", "index", "table", "of", "back", "toc"];

/// A Markdown line with its links' targets left out: `[text](url)` → `text`.
fn link_texts(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        out.push_str(&rest[..at]);
        rest = rest[at + 2..].split_once(')').map_or("", |(_, r)| r);
    }
    out.push_str(rest);
    out.replace(['[', ']'], "")
}

/// A navigation line: "Next: …, Previous: …, Up: …", or nothing but
/// navigation words and separators ("Home | Contents | Index", "« Prev Up Next »").
fn is_nav_line(line: &str) -> bool {
    let plain = link_texts(line);
    let plain = plain.trim().trim_start_matches(['-', '|', ' ']);
    if ["Next:", "Previous:", "Prev:", "Up:"].iter().any(|w| plain.starts_with(w)) {
        return true;
    }
    let words: Vec<String> = plain
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.len() >= 2 && line.contains("](") && words.iter().all(|w| NAV_WORDS.contains(&w.as_str()))
}

/// A footer line: a date of change, a copyright, a generator's name.
fn is_footer_line(line: &str) -> bool {
    let plain = link_texts(line);
    let lower = plain.trim().trim_start_matches(['*', '_', ' ']).to_lowercase();
    ["copyright", "©", "last updated", "last modified", "this document was generated", "generated by"]
        .iter()
        .any(|w| lower.starts_with(w))
}

/// Navigation lines anywhere, a footer as the last line, chrome as the first.
fn chrome_problems(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let shown: Vec<&str> =
        markdown.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("<a id=")).collect();
    for line in &shown {
        if is_nav_line(line) {
            out.push(format!("navigation line left: {line:?}"));
        }
    }
    if let Some(last) = shown.last().filter(|l| is_footer_line(l)) {
        out.push(format!("footer left at the end: {last:?}"));
    }
    if let Some(first) =
        shown.first().filter(|l| is_footer_line(l) || l.to_lowercase().starts_with("skip to"))
    {
        out.push(format!("the Markdown starts with chrome: {first:?}"));
    }
    out
}

#[test]
fn chrome_lines_are_told_from_content() {
    for nav in [
        "Next: [Overview](/m/o), Previous: [Intro](/m/i), Up: [Top](/m) [Contents](/m#c)",
        "[Home](/m) | [Contents](/m/toc) | [Index](/m/ix)",
        "| [Prev](/m/a) | [Up](/m) | [Next](/m/b) |",
    ] {
        assert!(is_nav_line(nav), "{nav}");
    }
    for content in ["See the [Index](/m/ix) for more.", "- [Contents of a PO file](/m/po)", "Next, run make."]
    {
        assert!(!is_nav_line(content), "{content}");
    }
    assert!(is_footer_line("Copyright © 2024 Frob"));
    assert!(is_footer_line("Last updated 2024-01-02"));
    assert!(!is_footer_line("The copyright holder may relicense it."));
}

/// The HTML with `<pre>` and `<code>` elements cut out: code may show tags.
fn outside_code(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    loop {
        let next = ["<pre", "<code"].iter().filter_map(|t| rest.find(t).map(|i| (i, *t))).min();
        let Some((at, tag)) = next else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at]);
        let close = if tag == "<pre" { "</pre>" } else { "</code>" };
        rest = rest[at..].find(close).map_or("", |e| &rest[at + e + close.len()..]);
    }
}

/// Installs the tree with the `lectern` binary and runs its queries.
fn query_problems(tree: &Tree, source: &Path) -> Vec<String> {
    let lib = tempfile::tempdir().unwrap();
    let src = source.to_str().unwrap();
    let out = bin::ok(
        lib.path(),
        &[
            "add",
            src,
            "--project",
            tree.project,
            "--version",
            "1",
            "--locale",
            tree.locale,
            "--status",
            "current",
            "--json",
        ],
    );
    let report: Value = serde_json::from_str(&out).unwrap();
    let prefix = report[0]["edition"]["prefix"].as_str().unwrap_or("").to_owned();
    let mut failures = Vec::new();
    if prefix != format!("/{}", tree.project) {
        failures.push(format!("{}: installed at {prefix:?}", tree.name));
    }
    for (query, want) in tree.queries {
        let out = bin::ok(lib.path(), &["search", query, "--limit", "3", "--json"]);
        let r: Value = serde_json::from_str(&out).unwrap();
        let got: Vec<&str> =
            r["hits"].as_array().into_iter().flatten().filter_map(|h| h["path"].as_str()).take(3).collect();
        if !got.contains(&want) {
            failures.push(format!("{}: {query:?}: {want} not in the top 3 {got:?}", tree.name));
        }
    }
    for (_, query, want) in FIRST_HITS.iter().filter(|(name, _, _)| *name == tree.name) {
        let out = bin::ok(lib.path(), &["search", query, "--limit", "1", "--json"]);
        let r: Value = serde_json::from_str(&out).unwrap();
        let hit = &r["hits"][0];
        let got = format!("{}#{}", hit["path"].as_str().unwrap_or(""), hit["anchor"].as_str().unwrap_or(""));
        if got != *want {
            failures.push(format!("{}: {query:?}: {want} is not first (got {got})", tree.name));
        }
    }
    failures
}
