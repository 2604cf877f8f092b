//! Ranked search answers as a reader means it, on a small DocBook-style
//! manual (English and Chinese) written here, through every face that
//! searches the local library: the CLI, the local API over a socket and
//! `lectern mcp`.
//!
//! Contents:
//! - definitions first: a setting's name (alone, inside a longer query, or
//!   with its kind) and a function defined in a table row find the section
//!   defining them, not the page that repeats them
//! - a question with stopwords finds the reference page, not release notes
//!   that happen to hold every word
//! - a type's aliases are defined with it, and a question naming several
//!   names finds the section defining them
//! - a question answered by one row of a long table finds the passage that
//!   holds its words together
//! - a Chinese question's question words need not match, and a reference
//!   page's purpose line counts as its title; a Chinese word written
//!   another way than the manual writes it (账号 for 帐号, 行外 for 线外)
//!   finds it
//! - a quoted phrase is strict: its words out of order match nothing
//! - a chapter's table of contents is shown, not searched: the section it
//!   lists answers for that section's words
//! - a name an API page defines inside a section, an option a command's
//!   page lists as a plain term, a Texinfo index entry and a member heading
//!   on its object's page (`.send(data)` on "Reply") find that section
//! - a term the text marks where it defines it (DocBook's firstterm), or a
//!   question asking what it is, finds that section before a page titled
//!   with it; a word only an index entry holds names that entry's section
//!   in a longer query; a manual page's NAME line names its command and is
//!   the snippet of its empty top
//! - a version number (`2.5.2`) weighs as the rare phrase it is, not as its
//!   common digits: the section naming it comes before pages about versions
//! - a function named as Erlang writes it (`lists:map/2`) or a method as
//!   Ruby does (`Hash#fetch`) finds its entry on its module's page, and a
//!   psql backslash command (`\copy`, `\d+`) the list defining it
//! - a name's leading and trailing underscores are its own (`__init__` is
//!   not `init`), and lit with it
//! - a qualified name finds its member typed shorter or joined otherwise
//!   than declared (`Vec::push` of rustdoc's `pub fn push` on "Struct
//!   std::vec::Vec", `boost::split`, `QuerySet.update`); a page titled by
//!   a class and its kind ("QVector Class") is that name, and a call
//!   heading at the anchor its name spells (QDoc's `qDebug(…)`) is its
//! - a section's whole title typed as written finds it before pages titled
//!   alike ("Obsolete Members for QVector")
//! - a qualified name whose member the manual declares bare (Doxygen's
//!   `perspective()` in namespace glm) finds that member
//! - German words typed with `ae`, `oe`, `ue` for umlauts find the words
//!   the manual writes with them; a Japanese loanword is found with its
//!   long vowel mark written or not (`ユーザー`, `ユーザ`)

use std::path::Path;

use lectern_api::client::blocking::Client;
use lectern_api::client::query;
use serde_json::{Value, json};

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/mcp.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod mcp;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use bin::{lectern, ok};
use mcp::Mcp;
use server::Server;

/// A DocBook-style page: the page heading, then one `sect2` per part.
fn page(title: &str, lead: &str, parts: &[(&str, &str, &str)]) -> String {
    let parts: String = parts
        .iter()
        .map(|(id, heading, body)| {
            format!("<div class=\"sect2\" id=\"{id}\"><h3 class=\"title\">{heading}</h3>{body}</div>")
        })
        .collect();
    format!(
        "<html><head><title>{title}</title></head><body><div class=\"sect1\"><h2 class=\"title\">{title}</h2><p>{lead}</p>{parts}</div></body></html>"
    )
}

/// Writes the English and the Chinese manual and installs both.
fn library() -> tempfile::TempDir {
    let en = tempfile::tempdir().unwrap();
    let write = |dir: &Path, name: &str, html: String| std::fs::write(dir.join(name), html).unwrap();
    let filler = "Each parameter is described below with its type and default. ".repeat(12);
    write(
        en.path(),
        "runtime-config-resource.html",
        page(
            "19.4. Resource Consumption",
            "These settings control how much the server may use.",
            &[(
                "RUNTIME-CONFIG-RESOURCE-MEMORY",
                "19.4.1. Memory",
                &format!(
                    "<p>{filler}</p><div class=\"variablelist\"><dl class=\"variablelist\"><dt id=\"GUC-WORK-MEM\"><span class=\"term\"><code class=\"varname\">work_mem</code> (<code class=\"type\">integer</code>)</span></dt><dd><p>Sets the base maximum amount of memory to be used by a query operation such as a sort or a hash table.</p></dd></dl></div>"
                ),
            )],
        ),
    );
    write(
        en.path(),
        "regress-run.html",
        page(
            "31.1. Running the Tests",
            "SET work_mem = '64kB'; the tests set work_mem low; work_mem again.",
            &[],
        ),
    );
    write(
        en.path(),
        "release-18-1.html",
        page(
            "E.1. Release 18.1",
            "Release date: 2026-11-13.",
            &[(
                "RELEASE-18-1-CHANGES",
                "E.1.1. Changes",
                "<p>What does this release fix? VACUUM FULL no longer behaves differently from a plain VACUUM when it meets a dropped column, and a plain VACUUM does less work.</p>",
            )],
        ),
    );
    // A license a manual reprints: long, legal, holding many a question's words.
    write(
        en.path(),
        "copying.html",
        page(
            "Appendix G GNU GENERAL PUBLIC LICENSE",
            "The GNU General Public License is a free, copyleft license for software and other kinds of works.",
            &[(
                "TERMS-AND-CONDITIONS",
                "TERMS AND CONDITIONS",
                "<p>The Corresponding Source for a work in object code form means all the source code needed to generate, install, and run the object code, for as long as the code is offered. To run a covered work takes no permission; the code you convey must carry notices, and the object code must run with the source code. This requirement takes effect for as long as you run the code, and you must measure nothing to run code you do not convey.</p>",
            )],
        ),
    );
    write(
        en.path(),
        "timing-utilities.html",
        page(
            "36.1 Timing Utilities",
            "Functions that read the clock: tic starts a timer, and toc says how long the code since took to run.",
            &[],
        ),
    );
    write(
        en.path(),
        "sql-vacuum.html",
        "<html><head><title>VACUUM</title></head><body><div class=\"refentry\" id=\"SQL-VACUUM\"><div class=\"refnamediv\"><h2>VACUUM</h2><p>VACUUM — garbage-collect and optionally analyze a database</p></div><div class=\"refsect1\" id=\"SQL-VACUUM-DESCRIPTION\"><h2>Description</h2><p>Plain VACUUM reclaims storage occupied by dead tuples and can run alongside normal reading and writing. VACUUM FULL works differently: it rewrites the entire contents of the table into a new disk file, which needs an exclusive lock.</p></div><div class=\"refsect1\" id=\"SQL-VACUUM-COMPAT\"><h2>Compatibility</h2><p>There is no VACUUM statement in the SQL standard.</p></div></div></body></html>".to_owned(),
    );
    write(
        en.path(),
        "functions-comparison.html",
        page(
            "9.2. Comparison Functions and Operators",
            "<code>expression IS NOT NULL</code> is true when the value of the expression is not the null value.",
            &[],
        ),
    );
    // A changelog whose sections are versions, each released on a date
    // full of the same digits, a page naming one version, and pages about
    // versions.
    let releases: Vec<(String, String, String)> = ["2.5.2", "2.5.1", "2.5.0", "2.2.5", "2.0.5", "1.5.2"]
        .iter()
        .enumerate()
        .map(|(i, v)| {
            (v.replace('.', ""), v.to_string(), format!("<p>Released 2025-05-2{i}. Fixes 2{i}5 things.</p>"))
        })
        .collect();
    let releases: Vec<(&str, &str, &str)> =
        releases.iter().map(|(id, v, body)| (id.as_str(), v.as_str(), body.as_str())).collect();
    write(en.path(), "changelog.html", page("Changelog", "What changed in each release.", &releases));
    write(
        en.path(),
        "picker.html",
        page(
            "Picker",
            "A picker shows columns to choose from.",
            &[(
                "PICKER-PROPS",
                "Props",
                "<p>keep-index: keeps the selected index when the columns change (since 2.5.2).</p>",
            )],
        ),
    );
    write(
        en.path(),
        "versions.html",
        page("Version Policy", "Each version is numbered; a new version comes out twice a year.", &[]),
    );
    for (file, title) in [
        ("upgrading", "Upgrading"),
        ("support", "Support"),
        ("packaging", "Packaging"),
        ("licensing", "Licensing"),
    ] {
        let lead = format!("{title}: what each version of the manual says about it.");
        write(en.path(), &format!("{file}.html"), page(title, &lead, &[]));
    }
    // A module's reference page with each function's head as a heading
    // (erl_docgen), and a guide that mentions the function in passing;
    // psql's backslash commands in a variable list.
    write(
        en.path(),
        "lists.html",
        "<html><head><title>Erlang -- lists</title></head><body><h1>lists</h1><p>List processing functions.</p>\
         <h4 id=\"map-2\">map(Fun, List1) -&gt; List2</h4><p>Takes a function from As to Bs, and a list of As and produces a list of Bs.</p>\
         <h4 id=\"foldl-3\">foldl(Fun, Acc0, List) -&gt; Acc1</h4><p>Calls Fun on successive elements.</p></body></html>"
            .to_owned(),
    );
    // API references as rustdoc, BoostBook, Sphinx and QDoc write them.
    std::fs::create_dir_all(en.path().join("vec")).unwrap();
    write(
        en.path(),
        "vec/struct.Vec.html",
        "<html><head><title>Vec in std::vec - Rust</title></head><body><section id=\"main-content\" class=\"content\">\
         <h1 class=\"fqn\">Struct std::vec::Vec</h1><p>A contiguous growable array type.</p>\
         <h2 id=\"implementations\">Implementations</h2>\
         <section id=\"method.push\" class=\"method\"><h4 class=\"code-header\">pub fn <a href=\"#method.push\" class=\"fnname\">push</a>(&amp;mut self, value: T)</h4></section>\
         <div class=\"docblock\"><p>Appends an element to the back of a collection.</p></div>\
         <section id=\"method.len\" class=\"method\"><h4 class=\"code-header\">pub fn <a href=\"#method.len\" class=\"fnname\">len</a>(&amp;self) -&gt; usize</h4></section>\
         <div class=\"docblock\"><p>Returns the number of elements in the vector.</p></div></section></body></html>"
            .to_owned(),
    );
    write(
        en.path(),
        "vec-guide.html",
        page(
            "Growing vectors",
            "A Vec grows as you push: vec.push(1) pushes one value and Vec push doubles its capacity.",
            &[],
        ),
    );
    write(
        en.path(),
        "split.html",
        "<html><head><title>Function template split</title></head><body><div class=\"refentry\"><div class=\"refnamediv\">\
         <h2><span class=\"refentrytitle\">Function template split</span></h2><p>boost::algorithm::split &#8212; Split algorithm.</p></div>\
         <div class=\"refsect1\"><h2>Description</h2><p>Tokenizes the input into parts separated by the separators.</p></div></div></body></html>"
            .to_owned(),
    );
    write(
        en.path(),
        "querysets.html",
        "<html><head><title>QuerySet API reference</title></head><body><div class=\"body\"><section id=\"queryset-api-reference\">\
         <h1>QuerySet API reference</h1><p>Methods that return new querysets and methods that do not.</p>\
         <dl class=\"py method\"><dt class=\"sig sig-object py\" id=\"django.db.models.query.QuerySet.update\"><code class=\"sig-name descname\"><span class=\"pre\">update</span></code>(<em>**kwargs</em>)</dt>\
         <dd><p>Performs an SQL update query for the specified fields.</p></dd></dl>\
         <dl class=\"py method\"><dt class=\"sig sig-object py\" id=\"django.db.models.Model.update_fields\"><code class=\"sig-name descname\"><span class=\"pre\">update_fields</span></code>()</dt>\
         <dd><p>Which fields to update when saving, as an update query would.</p></dd></dl></section></div></body></html>"
            .to_owned(),
    );
    let read_csv = "<pre>&gt;&gt;&gt; df = pd.read_csv('data.csv')</pre>";
    write(
        en.path(),
        "pandas.read_csv.html",
        format!(
            "<html><head><title>pandas.read_csv</title></head><body><div class=\"body\"><section id=\"pandas-read-csv\"><h1>pandas.read_csv</h1>\
         <dl class=\"py function\"><dt class=\"sig sig-object py\" id=\"pandas.read_csv\"><span class=\"sig-prename descclassname\">pandas.</span><code class=\"sig-name descname\"><span class=\"pre\">read_csv</span></code>(<em>filepath</em>)</dt>\
         <dd><p>Read a comma-separated values file into a table. Also supports optionally iterating or breaking of the file into chunks, with many parameters for the separators, the header, the index column, the types of the columns and what counts as missing.</p>{read_csv}</dd></dl></section></div></body></html>"
        ),
    );
    write(
        en.path(),
        "io-guide.html",
        page(
            "IO tools",
            "Use pd.read_csv to read: pd.read_csv(path), then pd.read_csv again; pd.read_csv with chunks.",
            &[],
        ),
    );
    write(
        en.path(),
        "qvector.html",
        "<html><head><title>QVector Class | Qt Core 5.15.8</title></head><body><h1 class=\"title\">QVector Class</h1>\
         <p>The QVector class is a template class that provides a dynamic array.</p>\
         <h2 id=\"details\">Detailed Description</h2><p>QVector stores its items in adjacent memory.</p>\
         <h3 class=\"fn\" id=\"QVector\"><a name=\"QVector\"></a>QVector::<span class=\"name\">QVector</span>()</h3><p>Constructs an empty QVector.</p>\
         <h3 class=\"fn\" id=\"dtor.QVector\"><a name=\"dtor.QVector\"></a>QVector::<span class=\"name\">~QVector</span>()</h3><p>Destroys the QVector.</p></body></html>"
            .to_owned(),
    );
    // Pages titled alike but for their class, and the class named all over
    // the reference: a title typed as written finds its page.
    let members =
        "<p>The following members are obsolete. They are provided to keep old source code working.</p>";
    for class in [
        "QList",
        "QMap",
        "QHash",
        "QSet",
        "QQueue",
        "QStack",
        "QPair",
        "QLinkedList",
        "QVarLengthArray",
        "QByteArray",
        "QStringList",
        "QMultiMap",
    ] {
        write(
            en.path(),
            &format!("{}-obsolete.html", class.to_lowercase()),
            format!(
                "<html><head><title>Obsolete Members for {class}</title></head><body><h1 class=\"title\">Obsolete Members for {class}</h1>{members}</body></html>"
            ),
        );
        write(
            en.path(),
            &format!("{}-vector.html", class.to_lowercase()),
            page(
                &format!("{class} and QVector"),
                &format!("A {class} converts to a QVector: QVector holds what {class} holds."),
                &[],
            ),
        );
    }
    write(
        en.path(),
        "qdatastream.html",
        "<html><head><title>QDataStream Class | Qt Core 5.15.8</title></head><body><h1 class=\"title\">QDataStream Class</h1>\
         <p>The QDataStream class provides serialization of binary data to a QIODevice.</p>\
         <h3 class=\"fn\" id=\"QDataStream\"><a name=\"QDataStream\"></a>QDataStream::<span class=\"name\">QDataStream</span>()</h3><p>Constructs a data stream that has no I/O device.</p></body></html>"
            .to_owned(),
    );
    write(
        en.path(),
        "qdatastream-obsolete.html",
        format!(
            "<html><head><title>Obsolete Members for QDataStream</title></head><body><h1 class=\"title\">Obsolete Members for QDataStream</h1>{members}<p>QDataStream::unsetDevice() is obsolete.</p></body></html>"
        ),
    );
    let vector_members: String = (0..40)
        .map(|i| format!("<p>QVector member {i} of QVector is obsolete: use the QVector replacement.</p>"))
        .collect();
    write(
        en.path(),
        "qvector-obsolete.html",
        format!(
            "<html><head><title>Obsolete Members for QVector</title></head><body><h1 class=\"title\">Obsolete Members for QVector</h1>{members}{vector_members}</body></html>"
        ),
    );
    write(
        en.path(),
        "qtglobal.html",
        "<html><head><title>&lt;QtGlobal&gt; - Global Qt Declarations | Qt Core 5.15.8</title></head><body><h1 class=\"title\">&lt;QtGlobal&gt; - Global Qt Declarations</h1>\
         <p>The header declares global types, functions and macros.</p>\
         <h3 class=\"fn\" id=\"qDebug\"><a name=\"qDebug\"></a><span class=\"name\">qDebug</span>(const char *<i>message</i>, <i>...</i>)</h3><p>Calls the message handler with the debug message.</p></body></html>"
            .to_owned(),
    );
    // A Doxygen group page declaring its members bare (in namespace glm),
    // and a guide whose example writes one qualified.
    write(
        en.path(),
        "group-clip-space.html",
        "<html><head><title>GLM_EXT_matrix_clip_space</title></head><body><h1>GLM_EXT_matrix_clip_space</h1>\
         <p>Defines functions that generate clip space transformation matrices.</p>\
         <h2 class=\"memtitle\" id=\"ga12af\">frustum()</h2><p>Creates a frustum matrix.</p>\
         <h2 class=\"memtitle\" id=\"ga747c\">perspective()</h2><p>Creates a matrix for a symmetric perspective-view frustum.</p>\
         <h2 class=\"memtitle\" id=\"ga602b\">slerp() [1/2]</h2><p>Spherical linear interpolation of two quaternions.</p></body></html>"
            .to_owned(),
    );
    // Two classes with a member of one name, one of them overloaded.
    for (file, class, title, anchor) in [
        ("class-reader.html", "Reader", "parse() [1/2]", "a71ef"),
        ("class-char-reader.html", "CharReader", "parse()", "a6551"),
    ] {
        write(
            en.path(),
            file,
            format!(
                "<html><head><title>Json::{class} Class Reference</title></head><body><h1>Json::{class} Class Reference</h1>\
                 <p>Reads JSON text.</p><h2 class=\"memtitle\" id=\"{anchor}\">{title}</h2><p>Reads a value from a document.</p></body></html>"
            ),
        );
    }
    write(
        en.path(),
        "glm-guide.html",
        page(
            "Getting started with GLM",
            "<code>glm::mat4 p = glm::perspective(glm::radians(45.0f), 4.0f / 3.0f, 0.1f, 100.f);</code> builds a projection.",
            &[],
        ),
    );
    write(
        en.path(),
        "qdebug.html",
        "<html><head><title>QDebug Class | Qt Core 5.15.8</title></head><body><h1 class=\"title\">QDebug Class</h1>\
         <p>The QDebug class provides an output stream for debugging information.</p>\
         <h3 class=\"fn\" id=\"QDebug-3\"><a name=\"QDebug-3\"></a>QDebug::<span class=\"name\">QDebug</span>(const QDebug &amp;<i>o</i>)</h3><p>Constructs a copy of the other QDebug stream o.</p></body></html>"
            .to_owned(),
    );
    write(
        en.path(),
        "funs.html",
        page(
            "Funs",
            "Use lists:map/2 to apply a fun to each element: lists:map(F, L) maps lists with map.",
            &[],
        ),
    );
    write(
        en.path(),
        "app-psql.html",
        page(
            "psql",
            "psql is a terminal-based front-end.",
            &[(
                "APP-PSQL-META-COMMANDS",
                "Meta-Commands",
                "<div class=\"variablelist\"><dl class=\"variablelist\"><dt id=\"APP-PSQL-META-COMMANDS-COPY\"><span class=\"term\"><code class=\"literal\">\\copy { <em class=\"replaceable\"><code>table</code></em> }</code></span></dt><dd><p>Performs a frontend copy.</p></dd><dt id=\"APP-PSQL-META-COMMAND-D\"><span class=\"term\"><code class=\"literal\">\\d[Sx+] [ <em class=\"replaceable\"><code>pattern</code></em> ]</code></span></dt><dd><p>Describes each relation.</p></dd></dl></div>",
            )],
        ),
    );
    // An RDoc class page, each method a `div` with its call sequence, and
    // release notes naming a method as Ruby writes it.
    write(
        en.path(),
        "hash.html",
        "<html><head><title>class Hash - RDoc Documentation</title></head><body><main role=\"main\"><h1 id=\"class-Hash\">class Hash</h1>\
         <p>A Hash maps keys to values.</p><section><h3>Public Instance Methods</h3>\
         <div id=\"method-i-fetch\" class=\"method-detail\"><div class=\"method-heading\"><span class=\"method-callseq\">fetch(key) &rarr; object</span></div>\
         <div class=\"method-description\"><p>Returns the value for the given key.</p></div></div>\
         <div id=\"method-i-store\" class=\"method-detail\"><div class=\"method-heading\"><span class=\"method-callseq\">store(key, value) &rarr; value</span></div>\
         <div class=\"method-description\"><p>Associates the value with the key.</p></div></div></section></main></body></html>"
            .to_owned(),
    );
    write(
        en.path(),
        "news.html",
        page("Changes in Widgets", "Hash#fetch now says which key it missed; Hash#fetch is faster.", &[]),
    );
    // A method named with underscores, and a section saying its word twice.
    write(
        en.path(),
        "classes.html",
        page(
            "Classes",
            "How classes are made.",
            &[
                (
                    "construction",
                    "Construction",
                    "<p>The <code>__init__</code> method sets up a new instance.</p>",
                ),
                ("setup", "Setup", "<p>Call init to set things up; init runs once.</p>"),
            ],
        ),
    );
    // A function defined in a table row, and a page that repeats its name.
    write(
        en.path(),
        "functions-window.html",
        page(
            "9.22. Window Functions",
            "Window functions provide the ability to perform calculations across sets of rows.",
            &[(
                "FUNCTIONS-WINDOW-TABLE",
                "9.22.1. General-Purpose Window Functions",
                &format!(
                    "<p>{filler}</p><table><thead><tr><th>Function</th><th>Description</th></tr></thead><tbody><tr><td class=\"func_table_entry\"><p class=\"func_signature\"><code class=\"function\">row_number</code> () → <code class=\"returnvalue\">bigint</code></p><p>Returns the number of the current row within its partition.</p></td></tr><tr><td class=\"func_table_entry\"><p class=\"func_signature\"><code class=\"function\">lag</code> ( <code class=\"parameter\">value</code> <code class=\"type\">anycompatible</code> ) → <code class=\"returnvalue\">anycompatible</code></p><p>Returns value evaluated at the row that is offset rows before the current row.</p></td></tr></tbody></table>"
                ),
            )],
        ),
    );
    write(
        en.path(),
        "monitoring-stats.html",
        page(
            "27.2. Replication Lag",
            "Replication lag: the write lag, the flush lag and the replay lag.",
            &[],
        ),
    );
    // Operators defined in a synopsis of signatures, and a page that repeats one.
    write(
        en.path(),
        "functions-logical.html",
        page(
            "9.1. Logical Operators",
            &format!(
                "<p>{filler}</p><pre class=\"synopsis\">\n<code class=\"type\">boolean</code> <code class=\"literal\">AND</code> <code class=\"type\">boolean</code> → <code class=\"returnvalue\">boolean</code>\n<code class=\"type\">boolean</code> <code class=\"literal\">OR</code> <code class=\"type\">boolean</code> → <code class=\"returnvalue\">boolean</code>\n</pre>"
            ),
            &[],
        ),
    );
    write(
        en.path(),
        "queries-where.html",
        page(
            "7.2.2. Combining Conditions with OR",
            "Conditions joined by OR: a OR b OR c matches when any test holds, OR none.",
            &[],
        ),
    );
    // A type defined by its names in a table row (`varchar` among them), and
    // pages that only use the names: a short one, and one with every word of
    // a question about the types.
    write(
        en.path(),
        "datatype-character.html",
        page(
            "8.3. Character Types",
            &format!(
                "<p>{filler}</p><table><thead><tr><th>Name</th><th>Description</th></tr></thead><tbody><tr><td><code class=\"type\">character varying(<em class=\"replaceable\"><code>n</code></em>)</code>, <code class=\"type\">varchar(<em class=\"replaceable\"><code>n</code></em>)</code></td><td>variable-length with limit</td></tr><tr><td><code class=\"type\">character(<em class=\"replaceable\"><code>n</code></em>)</code>, <code class=\"type\">char(<em class=\"replaceable\"><code>n</code></em>)</code></td><td>fixed-length, blank-padded</td></tr><tr><td><code class=\"type\">text</code></td><td>variable unlimited length</td></tr></tbody></table>"
            ),
            &[],
        ),
    );
    write(
        en.path(),
        "ecpg-variables.html",
        page(
            "34.4.4. Handling Character Strings",
            &format!(
                "A host variable of type char is an array. {filler} A varchar host variable is a struct. {filler} Either can hold text: the difference is in how they are declared."
            ),
            &[],
        ),
    );
    write(
        en.path(),
        "sql-createtable-examples.html",
        page(
            "Examples",
            "CREATE TABLE films (code char(5), title varchar(40), kind varchar(10)); the varchar columns hold names.",
            &[],
        ),
    );
    // A function whose table row answers a question in one sentence, in a
    // long table, and a short page holding the same words apart.
    let gap = "Each step is described in the sections that follow, with its own example. ".repeat(3);
    let rows = "<tr><td>pg_reload_conf ()</td><td>Causes all processes of the server to reload their configuration files.</td></tr>".repeat(6);
    write(
        en.path(),
        "functions-admin.html",
        page(
            "9.28. System Administration Functions",
            "The functions shown here send control signals to other server processes.",
            &[(
                "FUNCTIONS-ADMIN-SIGNAL",
                "9.28.2. Server Signaling Functions",
                &format!(
                    "<p>{filler}</p><table><tbody>{rows}<tr><td>pg_cancel_backend ( pid integer ) → boolean</td><td>Cancels the current query of the session whose backend process has the specified process ID.</td></tr>{rows}</tbody></table>"
                ),
            )],
        ),
    );
    write(
        en.path(),
        "libpq-pipeline.html",
        page(
            "32.5. Pipeline Mode",
            &format!(
                "A client may cancel a command it sent. {gap} A query sent in a pipeline is not answered at once. {gap} The session keeps its order. {gap} Results arrive while the pipeline is running."
            ),
            &[],
        ),
    );
    // A setting defined in a variable list, and a page of the words around it.
    write(
        en.path(),
        "runtime-config-connection.html",
        page(
            "19.3. Connections and Authentication",
            "How clients connect.",
            &[(
                "RUNTIME-CONFIG-CONNECTION-SETTINGS",
                "19.3.1. Connection Settings",
                &format!(
                    "<p>{filler}</p><div class=\"variablelist\"><dl class=\"variablelist\"><dt id=\"GUC-PORT\"><span class=\"term\"><code class=\"varname\">port</code> (<code class=\"type\">integer</code>)</span></dt><dd><p>The TCP port the server listens on; 5432 by default.</p></dd></dl></div>"
                ),
            )],
        ),
    );
    write(
        en.path(),
        "libpq-connect.html",
        page(
            "32.1. Parameter Key Words",
            "port: the port number to connect to. The server's port configuration parameter sets its default port.",
            &[],
        ),
    );
    // A chapter whose table of contents repeats its sections' titles, and
    // the section a question about one of them asks for.
    write(
        en.path(),
        "plpgsql.html",
        "<html><head><title>Chapter 41. PL/pgSQL — SQL Procedural Language</title></head><body><div class=\"chapter\" id=\"PLPGSQL\"><div class=\"titlepage\"><h2 class=\"title\">Chapter 41. PL/pgSQL — SQL Procedural Language</h2></div><div class=\"toc\"><p><strong>Table of Contents</strong></p><dl class=\"toc\"><dt><span class=\"sect1\"><a href=\"plpgsql-overview.html\">41.1. Overview of PL/pgSQL</a></span></dt><dt><span class=\"sect1\"><a href=\"plpgsql-trigger.html\">41.2. Writing Trigger Functions in PL/pgSQL</a></span></dt><dt><span class=\"sect1\"><a href=\"plpgsql-event-trigger.html\">41.3. Writing Event Trigger Functions in PL/pgSQL</a></span></dt><dt><span class=\"sect1\"><a href=\"plpgsql-porting.html\">41.4. Porting PL/pgSQL Functions</a></span></dt></dl></div></div></body></html>".to_owned(),
    );
    write(
        en.path(),
        "plpgsql-trigger.html",
        page(
            "41.2. Trigger Functions",
            &format!(
                "A function called when data changes can be written in this language: it is declared with no arguments and a return type of trigger. {filler}"
            ),
            &[],
        ),
    );
    // An API page whose entries sit inside its sections, and whose top
    // repeats their names: a name finds the section defining it.
    write(
        en.path(),
        "widget-tasks.html",
        "<html><head><title>Widget Tasks</title></head><body><section id=\"widget-tasks\"><h1>Widget Tasks</h1><p>Widgets run tasks: widget.gather, widget.gather and widget.gather are described below, with widget.sleep.</p><section id=\"sleeping\"><h2>Sleeping</h2><dl class=\"function\"><dt id=\"widget.sleep\"><code>widget.sleep</code>(delay)</dt><dd><p>Block for a number of seconds.</p></dd></dl></section><section id=\"running-together\"><h2>Running Tasks Together</h2><dl class=\"function\"><dt id=\"widget.gather\"><code>widget.gather</code>(*aws)</dt><dd><p>Run awaitable objects at once and wait for all of them.</p></dd></dl></section></section></body></html>".to_owned(),
    );
    // A command's options written as plain terms (asciidoc), and a guide
    // that names the command and option more often.
    write(
        en.path(),
        "widget-commit.html",
        page(
            "widget-commit(1)",
            "widget-commit - Record changes to the widget store",
            &[
                ("_synopsis", "SYNOPSIS", "<pre>widget commit [--amend] [-q] [--dry-run]</pre>"),
                (
                    "_options",
                    "OPTIONS",
                    "<div class=\"dlist\"><dl><dt class=\"hdlist1\">--amend</dt><dd><p>Replace the tip of the current line by a new record.</p></dd><dt class=\"hdlist1\">-q, --quiet</dt><dd><p>Say less.</p></dd></dl></div>",
                ),
            ],
        ),
    );
    // Two commands whose options fold alike (`-O`, `-o`); the one
    // declaring `-o` names the widget more often.
    write(
        en.path(),
        "widget-build.html",
        page(
            "widget-build(1)",
            "widget-build - Build a widget",
            &[(
                "_options",
                "OPTIONS",
                "<div class=\"dlist\"><dl><dt class=\"hdlist1\">-O, --optimize</dt><dd><p>Optimize the build.</p></dd></dl></div>",
            )],
        ),
    );
    write(
        en.path(),
        "widget-pack.html",
        page(
            "widget-pack(1)",
            "widget-pack - Pack a widget, widget by widget",
            &[(
                "_options",
                "OPTIONS",
                "<div class=\"dlist\"><dl><dt class=\"hdlist1\">-o, --output</dt><dd><p>Write the widget pack of each widget to a file.</p></dd></dl></div>",
            )],
        ),
    );
    // A manual page whose options are its subsections (mandoc's `.SS`),
    // and another command's page whose option list defines the same letter.
    write(
        en.path(),
        "gizmostat.8.html",
        "<html><head><title>GIZMOSTAT(8)</title></head><body><section class=\"Sh\"><h1 class=\"Sh\" id=\"NAME\">NAME</h1><p>gizmostat - Print gizmo connections</p></section><section class=\"Sh\"><h1 class=\"Sh\" id=\"OPTIONS\">OPTIONS</h1><section class=\"Ss\"><h2 class=\"Ss\">--route, -r</h2><p>Display the gizmo routing tables.</p></section><section class=\"Ss\"><h2 class=\"Ss\">-p, --program</h2><p>Show the PID and name of the program to which each gizmo belongs.</p></section><section class=\"Ss\"><h2 class=\"Ss\" id=\"D\">-D</h2><p>Show the statistics of each device.</p></section></section></body></html>".to_owned(),
    );
    write(
        en.path(),
        "gizmotop.1.html",
        "<html><head><title>GIZMOTOP(1)</title></head><body><section class=\"Sh\"><h1 class=\"Sh\" id=\"NAME\">NAME</h1><p>gizmotop - Display gizmo processes</p></section><section class=\"Sh\"><h1 class=\"Sh\" id=\"OPTIONS\">OPTIONS</h1><dl class=\"Bl-tag\"><dt id=\"d\"><a class=\"permalink\" href=\"#d\"><b>-d</b></a> <i>delay</i></dt><dd>Wait this long between gizmotop updates; gizmotop -d 5 with -p waits five seconds, as gizmotop -p 1 -d 5 does.</dd><dt id=\"p\"><a class=\"permalink\" href=\"#p\"><b>-p</b></a> <i>pid</i></dt><dd>Monitor only the processes with the given process IDs.</dd><dt id=\"r\"><a class=\"permalink\" href=\"#r\"><b>-r</b></a></dt><dd>Reverse the order.</dd></dl></section></body></html>".to_owned(),
    );
    // Two commands whose options are headings without their dashes, as
    // npm's configuration is, each option's text naming both commands.
    for (command, other) in [("ls", "outdated"), ("outdated", "ls")] {
        write(
            en.path(),
            &format!("widget-{command}.html"),
            page(
                &format!("widget-{command}(1)"),
                &format!("widget-{command} - The widget {command} command"),
                &[
                    (
                        "synopsis",
                        "Synopsis",
                        &format!(
                            "<pre>widget {command} [&lt;widget-spec&gt; ...]</pre><p>Run widget {command} in a widget folder.</p>"
                        ),
                    ),
                    (
                        "all",
                        "<code>all</code>",
                        &format!(
                            "<p>When running widget {other} and widget {command}, setting --all shows every widget, not only the top level.</p>"
                        ),
                    ),
                    ("long", "<code>long</code>", "<p>Show extended information.</p>"),
                ],
            ),
        );
    }
    // A logger's options: each a heading naming it in code with its type
    // after it, at an anchor that spells more than the name (as Markdown's
    // are); a child logger's option of the same name is a member.
    write(
        en.path(),
        "gizmo-api.html",
        "<html><head><title>Gizmo API</title></head><body><h1>Gizmo API</h1><p>The gizmo logger.</p><h2 id=\"options\">Options</h2><h4 id=\"redact-array--object\"><code>redact</code> (Array | Object):</h4><p>As an array, each path names a key to hide from the gizmo log, such as a password.</p><h2 id=\"child\">child(bindings, options)</h2><h5 id=\"optionsredact-array--object\"><code>options.redact</code> (Array | Object)</h5><p>Setting options.redact overrides the parent redact option for the child.</p></body></html>".to_owned(),
    );
    // A section saying `severity` often, which shares its stem with
    // `several`, and the one answering a question that says `several`.
    write(
        en.path(),
        "gizmo-logs.html",
        "<html><head><title>Gizmo Logs</title></head><body><h1>Gizmo Logs</h1><p>Where the gizmo log goes.</p><h2 id=\"severity\">Log Severity Levels</h2><p>The gizmo log writes a severity with each line at once: the severity of a line follows its level, and each severity maps to one level of the files.</p><h2 id=\"files\">Saving to files</h2><p>To write logs to files, pass a list of destinations, one per file.</p></body></html>".to_owned(),
    );
    // A class's page titled with its kind and a colon, whose methods name
    // the class more often than its short top does.
    write(
        en.path(),
        "gizmo-agent.html",
        "<html><head><title>Class: GizmoAgent</title></head><body><h1>Class: GizmoAgent</h1><p>A mocked agent class.</p><h2 id=\"gizmoagentactivate\">GizmoAgent.activate()</h2><p>This method enables mocking in a GizmoAgent instance. When instantiated, a GizmoAgent is not active.</p><h2 id=\"gizmoagentclose\">GizmoAgent.close()</h2><p>Closes the GizmoAgent.</p></body></html>".to_owned(),
    );
    // Two programs' options of one letter, as Sphinx writes them, named
    // in its inventory by program; the other program's text names the
    // first more often.
    let option_page = |program: &str, body: &str| {
        format!(
            "<html><head><title>{program}(1)</title></head><body><section id=\"{program}-1\"><h1>{program}(1)</h1><section id=\"options\"><h2>Options</h2><dl class=\"std option\"><dt class=\"sig sig-object std\" id=\"cmdoption-{program}-G\"><span class=\"sig-name descname\"><span class=\"pre\">-G</span></span><span class=\"sig-prename descclassname\"> <span class=\"pre\">&lt;generator&gt;</span></span></dt><dd><p>{body}</p></dd></dl></section></section></body></html>"
        )
    };
    write(en.path(), "gizmo.1.html", option_page("gizmo", "Specify a build system generator."));
    write(
        en.path(),
        "gizmopack.1.html",
        option_page(
            "gizmopack",
            "Packs with the given generators: gizmo packs what gizmo built, as gizmo -G chose.",
        ),
    );
    let entries = "gizmo.-G std:cmdoption 1 gizmo.1.html#cmdoption-gizmo-G -\n\
                   gizmopack.-G std:cmdoption 1 gizmopack.1.html#cmdoption-gizmopack-G -\n";
    let mut inventory = b"# Sphinx inventory version 2\n# Project: m\n# Version: 1\n# The remainder of this file is compressed using zlib.\n".to_vec();
    let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut zlib, entries.as_bytes()).unwrap();
    inventory.extend(zlib.finish().unwrap());
    std::fs::write(en.path().join("objects.inv"), inventory).unwrap();
    write(
        en.path(),
        "widget-manual.html",
        page(
            "Widget User Manual",
            "To fix the last record, run widget commit --amend; widget commit --amend replaces it, and widget commit --amend again replaces that. For a quiet q commit, widget commit -q; widget commit -q again.",
            &[],
        ),
    );
    // A Texinfo manual: an index entry marked where a builtin is defined,
    // and a FAQ that names the builtin more often.
    let texinfo = |title: &str, body: &str| {
        format!(
            "<html><head><meta name=\"Generator\" content=\"texi2any\"><title>{title}</title></head><body>{body}</body></html>"
        )
    };
    write(
        en.path(),
        "widget-editor.html",
        texinfo(
            "Widget Line Editor",
            "<h2 class=\"chapter\">18 Widget Line Editor</h2><p>The editor reads lines.</p><h3 class=\"section\">18.2 Keymaps</h3><p>A keymap maps keys to widgets.</p><h3 class=\"section\">18.3 Builtins</h3><dl compact=\"compact\"><dd><span id=\"index-bindwidget\"></span><span id=\"index-keys_002c-binding\"></span><span id=\"index-listkeys\"></span></dd><dt>bindwidget [ options ] -l</dt><dd><p>List the keymaps.</p></dd></dl>",
        ),
    );
    write(
        en.path(),
        "widget-faq.html",
        texinfo(
            "Widget FAQ",
            "<h2 class=\"chapter\">3.14: Why does bindwidget ^a do something funny?</h2><p>Because bindwidget reads ^a as a pattern: quote it, as in bindwidget '^a'.</p>",
        ),
    );
    // An object's page whose headings are its members (`.send(data)`), and
    // a guide that writes the qualified name more often.
    write(
        en.path(),
        "widget-reply.html",
        "<html><head><title>Reply</title></head><body><h1>Reply</h1><p>The reply object of a widget route.</p><h2 id=\"codestatus\">.code(status)</h2><p>Sets the status.</p><h2 id=\"senddata\">.send(data)</h2><p>Sends the payload to the user.</p></body></html>".to_owned(),
    );
    write(
        en.path(),
        "widget-routes.html",
        page(
            "Widget Routes",
            "A route handler calls reply.send: reply.send(data) ends it, and reply.send may be called once.",
            &[],
        ),
    );
    // A manual page as asciidoc writes it: a title with nothing under it,
    // then a NAME line saying what the command does.
    write(
        en.path(),
        "widget-rewind.html",
        "<html><head><title>widget-rewind(1)</title></head><body><h1>widget-rewind(1) Manual Page</h1><div class=\"sect1\"><h2 id=\"_name\">NAME</h2><div class=\"sectionbody\"><p>widget-rewind -\n   Move the spool of a widget back to its first frame\n</p></div></div><div class=\"sect1\"><h2 id=\"_synopsis\">SYNOPSIS</h2><div class=\"sectionbody\"><pre>widget rewind [--quiet]</pre></div></div></body></html>".to_owned(),
    );
    // A term defined in running text (DocBook's firstterm), and a page
    // titled with it that repeats it.
    let filler_xindex = "Each method has its own rules for the numbers it uses. ".repeat(8);
    write(
        en.path(),
        "xindex.html",
        page(
            "36.16. Interfacing Extensions to Indexes",
            "This section tells how to teach an index method about a new type.",
            &[(
                "XINDEX-OPCLASS",
                "36.16.2. Index Method Strategies",
                &format!(
                    "<p>The operators associated with an index are grouped into <em class=\"firstterm\">operator classes</em>. {filler_xindex}</p>"
                ),
            )],
        ),
    );
    write(
        en.path(),
        "gin-builtin-opclasses.html",
        page(
            "65.4.2. Built-in Operator Classes",
            "The core distribution includes the operator classes shown here. Each operator class names its type; an operator class may be the default.",
            &[],
        ),
    );
    let zh = tempfile::tempdir().unwrap();
    let filler_xindex_zh = "每种索引方法对其所用的编号有自己的规则。".repeat(8);
    write(
        zh.path(),
        "xindex.html",
        page(
            "36.16. 扩展索引接口",
            "本节说明如何让索引方法认识一种新类型。",
            &[(
                "XINDEX-OPCLASS",
                "36.16.2. 索引方法策略",
                &format!(
                    "<p>与索引相关的操作符被分组成<em class=\"firstterm\">操作符类</em>。{filler_xindex_zh}</p>"
                ),
            )],
        ),
    );
    write(
        zh.path(),
        "gin-builtin-opclasses.html",
        page(
            "65.4.2. 内置操作符类",
            "核心发行版包含下表所示的操作符类。每个操作符类都指明其类型，一个操作符类可以是默认的。",
            &[],
        ),
    );
    write(
        zh.path(),
        "ddl-inherit.html",
        page("5.11. 继承", "PostgreSQL实现了表继承，这对数据库设计者来说是一种有用的工具。", &[]),
    );
    write(
        zh.path(),
        "faq.html",
        page(
            "常见问题",
            "这是怎么回事？很多人问这是怎么回事，答案在下面：是怎么回事就是怎么回事，而继承另有一章。",
            &[],
        ),
    );
    // A reference page whose purpose line says what a question asks, and a
    // page titled with one of its words.
    let filler_zh = "下面分别说明每个参数的类型和默认值。".repeat(12);
    write(
        zh.path(),
        "sql-createsequence.html",
        format!(
            "<html><head><title>CREATE SEQUENCE</title></head><body><div class=\"refentry\" id=\"SQL-CREATESEQUENCE\"><div class=\"refnamediv\"><h2>CREATE SEQUENCE</h2><p>CREATE SEQUENCE — 定义一个新的序列生成器</p></div><div class=\"refsect1\" id=\"SQL-CREATESEQUENCE-DESCRIPTION\"><h2>描述</h2><p>CREATE SEQUENCE创建一个新的数字发生器。{filler_zh}</p></div></div></body></html>"
        ),
    );
    write(
        zh.path(),
        "functions-sequence.html",
        page(
            "9.17. 序列操作函数",
            "本节描述操作序列生成器的函数。序列生成器的定义和新的序列生成器如何生成值见下文。",
            &[],
        ),
    );
    // A comparison asked with spaces (`VACUUM FULL 和 VACUUM 的区别`), and a
    // section titled with its function words (`和`, `的区别`) about
    // something else.
    write(
        zh.path(),
        "sql-vacuum.html",
        format!(
            "<html><head><title>VACUUM</title></head><body><div class=\"refentry\" id=\"SQL-VACUUM\"><div class=\"refnamediv\"><h2>VACUUM</h2><p>VACUUM — 垃圾收集并根据需要分析一个数据库</p></div><div class=\"refsect1\" id=\"SQL-VACUUM-DESCRIPTION\"><h2>描述</h2><p>普通的VACUUM回收死元组占据的存储空间，可以和普通的读写并行。VACUUM FULL的做法不同：它把表的全部内容重写到一个新的磁盘文件中，需要排他锁。{filler_zh}</p></div></div></body></html>"
        ),
    );
    write(
        zh.path(),
        "functions-matching.html",
        page(
            "9.7. 模式匹配",
            "本节描述三种模式匹配的方法。",
            &[(
                "POSIX-VS-XQUERY",
                "9.7.3.8. 与 SQL 标准和 XQuery 的区别",
                "<p>这里的正则表达式和标准的区别在于：FULL 匹配和部分匹配的区别，以及字符类的区别。</p>",
            )],
        ),
    );
    // A word the manual spells one way (帐号, 建立) and a reader another
    // (账号, 创建), and a page holding the question's other words.
    write(
        zh.path(),
        "sect-creating-accounts.html",
        page("8.5. 添加帐号", "adduser 命令询问几个问题，然后为新用户建立帐号和主目录。", &[]),
    );
    write(
        zh.path(),
        "sql-createrole.html",
        page("CREATE ROLE", "CREATE ROLE 创建一个新的角色，新的角色可以登录数据库。", &[]),
    );
    // A term translators render two ways (线外 and 行外 for out-of-line):
    // the manual's rendering, and a page holding the question's other
    // words more often.
    write(
        zh.path(),
        "storage-toast.html",
        page(
            "66.2. TOAST",
            "非常大的字段值不能直接存储在一个页面中，会被压缩或者线外存储，这些处理对用户都是透明的，只是在后端代码上有一些小的影响。",
            &[],
        ),
    );
    write(
        zh.path(),
        "rowtypes-io.html",
        page(
            "8.16.6. 组合类型输入和输出语法",
            "大的字段值怎么存储？字段值按其类型的规则存储，字段值之间用逗号分隔。",
            &[],
        ),
    );
    // A question that runs a Latin name into Chinese words (`通过网络PXE启动安装`):
    // the section about it, and a page holding the run `通过网络` and the name.
    write(
        zh.path(),
        "install-pxe.html",
        page("6.3.9. 通过 PXE 在网络上安装和引导", "在网络上用 PXE 引导计算机，然后启动系统的安装。", &[]),
    );
    write(zh.path(), "mirrors.html", page("2. 镜像", "我们通过网络提供镜像，PXE 的说明见别处。", &[]));
    // A heading made of a question's words (密码文件, the password file)
    // beside options and notes whose text holds more of them.
    write(
        zh.path(),
        "libpq-pgpass.html",
        page("32.16. 密码文件", "主目录中的 .pgpass 可以写下连接要用的密码，每行一个服务器。", &[]),
    );
    write(
        zh.path(),
        "app-createuser.html",
        page(
            "createuser",
            "创建一个新的用户。",
            &[(
                "APP-CREATEUSER-OPTIONS",
                "选项",
                "<p>-w 从不提示输入密码。如果服务器要求密码认证而又没有别的办法得到密码（例如一个 .pgpass 文件），连接尝试将失败。脚本里没有人来输入密码，这个选项就有用。-W 在连接之前总是提示输入密码，每次连接都要输入。</p>",
            )],
        ),
    );
    write(
        zh.path(),
        "lo-interfaces.html",
        page(
            "33.3. 客户端接口",
            "大对象接口仿照文件系统的接口：打开、读写文件。出错时错误消息会保存在连接对象里，每次调用都要检查返回值；输入输出都在事务里进行。",
            &[],
        ),
    );
    // A manual writes out what programmers write in short (standard error
    // for stderr); another page holds the query's other words more often.
    write(
        en.path(),
        "redirections.html",
        page(
            "3.6 Redirections",
            "Redirecting standard error: the form 2>word sends standard error to the file word.",
            &[],
        ),
    );
    write(
        en.path(),
        "http-redirects.html",
        page(
            "HTTP redirects",
            "A redirect sends the client to another file; each redirect names its file.",
            &[],
        ),
    );
    // A hyphenated word one way, closed the other (read-only / readonly,
    // e-mail / email); another page holds the other query word more often.
    write(
        en.path(),
        "roles-read-only.html",
        page("Read-Only Roles", "A read-only role may select rows but never change them.", &[]),
    );
    write(
        en.path(),
        "role-membership.html",
        page(
            "Role Membership",
            "A role may be a member of another role: each role's members share the role's rights.",
            &[],
        ),
    );
    write(
        en.path(),
        "job-failures.html",
        page("Job Failures", "When a job fails the server sends an email notification to its owner.", &[]),
    );
    write(
        en.path(),
        "notification-queue.html",
        page(
            "Notification Queue",
            "Each notification waits in the notification queue until a notification worker takes it.",
            &[],
        ),
    );
    // A name in camel case, and a page holding its words apart.
    write(
        en.path(),
        "connection-directives.html",
        page(
            "Connection Directives",
            "Directives of the server's connections.",
            &[(
                "keepalivetimeout",
                "KeepAliveTimeout Directive",
                "<p>Syntax: <code>KeepAliveTimeout seconds</code>. The number of seconds the server waits for the next request on a persistent connection.</p>",
            )],
        ),
    );
    write(
        en.path(),
        "client-sessions.html",
        page(
            "Client Sessions",
            "Keep the session short: a client whose session stays alive past the timeout is logged out.",
            &[],
        ),
    );
    // Another edition writes the run: what the editions searched write decides.
    write(
        en.path(),
        "translations.html",
        page("Translations", "The Chinese manual writes 启动安装 for starting the installer.", &[]),
    );
    // An English term the Chinese manual translates (deadlock: 死锁): the
    // English edition of the same manual knows the page, and the Chinese
    // copy of it comes before a page holding the question's other words.
    write(
        en.path(),
        "explicit-locking.html",
        page(
            "13.3. Explicit Locking",
            "PostgreSQL provides various lock modes.",
            &[(
                "LOCKING-DEADLOCKS",
                "13.3.4. Deadlocks",
                "<p>The use of explicit locking can increase the likelihood of deadlocks. PostgreSQL automatically detects deadlock situations and resolves them by aborting one of the transactions involved: the error reads deadlock detected.</p>",
            )],
        ),
    );
    write(
        zh.path(),
        "explicit-locking.html",
        page(
            "13.3. 显式锁定",
            "PostgreSQL提供了多种锁模式。",
            &[(
                "LOCKING-DEADLOCKS",
                "13.3.4. 死锁",
                "<p>显式锁定的使用可能会增加死锁的可能性。PostgreSQL自动检测死锁情况并且会通过中断其中一个事务来解决。</p>",
            )],
        ),
    );
    write(
        zh.path(),
        "serialization-failures.html",
        page(
            "13.5. 序列化失败处理",
            "出现序列化错误时，应用程序应该重试。出现这种错误的事务必须从头重试。",
            &[],
        ),
    );
    // A Chinese term of three words written as one run (创建复制槽, create
    // replication slot): the section on replication slots, which says how
    // to create one, comes before notes that hold the five chars once.
    write(
        zh.path(),
        "warm-standby.html",
        page(
            "26.2. 日志传送后备服务器",
            "后备服务器接收主服务器的WAL。",
            &[(
                "STREAMING-REPLICATION-SLOTS",
                "26.2.6. 复制槽",
                "<p>复制槽提供了一种自动的方法。可以用函数创建一个复制槽，也可以删除一个复制槽。复制槽在服务器重启后保留，创建后即可使用。</p>",
            )],
        ),
    );
    for i in 0..3 {
        write(
            zh.path(),
            &format!("subscription-notes-{i}.html"),
            page(
                &format!("订阅备注{i}"),
                "如果连接失败，创建复制槽的步骤会被跳过，之后需要手工处理订阅的其他设置和权限问题。",
                &[],
            ),
        );
    }
    for i in 0..8 {
        write(
            zh.path(),
            &format!("replication-setting-{i}.html"),
            page("复制设置", &format!("创建复制所需的设置第{i}项。"), &[]),
        );
    }
    // A question some of whose words only the other edition writes: the
    // English one says how lintian's reports are overridden, the Chinese
    // one alone writes "false positive".
    write(
        en.path(),
        "lintian.html",
        page("Lintian overrides", "List the tags that lintian should not report for this package.", &[]),
    );
    write(zh.path(), "static-check.html", page("静态检查", "静态检查可能出现误报（false positive）。", &[]));
    // The same manual in Portuguese and Japanese: accents, function words
    // and particles.
    let pt = tempfile::tempdir().unwrap();
    write(
        pt.path(),
        "configuracao-rede.html",
        page(
            "Configuração de rede",
            "A configuração de rede moderna usa o NetworkManager para as interfaces.",
            &[],
        ),
    );
    write(
        pt.path(),
        "pacotes.html",
        page("Gestão de pacotes", "Como a rede de espelhos distribui os pacotes.", &[]),
    );
    write(
        pt.path(),
        "instalacao.html",
        page(
            "Instalação de um pacote",
            "A instalação de pacotes usa o apt; um pacote instalado fica registado.",
            &[],
        ),
    );
    let ja = tempfile::tempdir().unwrap();
    write(
        ja.path(),
        "packages.html",
        page("パッケージ管理", "aptitude でパッケージを管理する方法を説明します。", &[]),
    );
    write(ja.path(), "files.html", page("ファイルの一覧", "ファイルの使い方と管理方法を説明します。", &[]));
    write(ja.path(), "firewall.html", page("ファイアウォール", "ファイアウォールの設定を説明します。", &[]));
    write(ja.path(), "users.html", page("ユーザの追加", "adduser でユーザを追加します。", &[]));
    // And in German, whose umlauts a keyboard without them types as `ae`,
    // `oe`, `ue`.
    let de = tempfile::tempdir().unwrap();
    write(de.path(), "paketgroesse.html", page("Die Paketgröße", "Wie groß ein Paket ist.", &[]));
    write(
        de.path(),
        "schluessel.html",
        page(
            "Schlüsselverwaltung",
            "Schlüssel werden mit GnuPG verwaltet; die Warteschlange (queue) auch.",
            &[],
        ),
    );
    write(de.path(), "steuerung.html", page("Steuerung", "Die Steuerung der Dienste.", &[]));
    let lib = tempfile::tempdir().unwrap();
    let add = |dir: &Path, locale: &str| {
        ok(
            lib.path(),
            &["add", dir.to_str().unwrap(), "--project", "m", "--version", "1", "--locale", locale],
        );
    };
    add(en.path(), "en");
    add(zh.path(), "zh-Hans");
    add(pt.path(), "pt-BR");
    add(ja.path(), "ja");
    add(de.path(), "de");
    lib
}

/// One search as a face answers it: the JSON of its result (`locale` empty:
/// none given).
trait Face {
    fn search(&mut self, text: &str, locale: &str) -> Value;
}

struct Cli<'a>(&'a Path);

impl Face for Cli<'_> {
    fn search(&mut self, text: &str, locale: &str) -> Value {
        // `--` last: the text may start with `-`, so `--user-data` goes first.
        let out = lectern()
            .arg("--user-data")
            .arg(self.0)
            .args(["search", "--json", "--limit", "5"])
            .args(if locale.is_empty() { vec![] } else { vec!["--locale", locale] })
            .args(["--", text])
            .output()
            .unwrap();
        assert!(out.status.success(), "{text}: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_str(&String::from_utf8(out.stdout).unwrap()).unwrap()
    }
}

struct Api(Client);

impl Face for Api {
    fn search(&mut self, text: &str, locale: &str) -> Value {
        let locale = (!locale.is_empty()).then_some(locale);
        let q = query(&[("text", Some(text)), ("locale", locale), ("limit", Some("5"))]);
        self.0.get(&format!("/v1/search{q}")).unwrap()
    }
}

struct Stdio(Mcp, u64);

impl Face for Stdio {
    fn search(&mut self, text: &str, locale: &str) -> Value {
        self.1 += 1;
        let mut args = json!({"text": text, "limit": 5});
        if !locale.is_empty() {
            args["locale"] = json!(locale);
        }
        let r = self.0.tool(self.1, "search_documentation", args);
        assert_eq!(r["isError"], false, "{r}");
        r["structuredContent"].clone()
    }
}

fn first(r: &Value) -> (String, String) {
    let hit = &r["hits"][0];
    (hit["path"].as_str().unwrap_or("").to_owned(), hit["anchor"].as_str().unwrap_or("").to_owned())
}

/// The words a hit's snippet lights.
fn lit_words(hit: &Value) -> Vec<String> {
    let chars: Vec<char> = hit["snippet"].as_str().unwrap_or("").chars().collect();
    hit["highlights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|range| {
            chars[range[0].as_u64().unwrap() as usize..range[1].as_u64().unwrap() as usize].iter().collect()
        })
        .collect()
}

fn check(face: &mut dyn Face, name: &str) {
    // Definitions first: the setting's own section, though another page
    // repeats the name three times in a line.
    let r = face.search("work_mem", "en");
    assert_eq!(
        first(&r),
        ("/m/runtime-config-resource".to_owned(), "RUNTIME-CONFIG-RESOURCE-MEMORY".to_owned()),
        "{name}: {r}"
    );
    // The hit links to the term that defines the name inside its section,
    // for a question naming it too; words that name nothing link to none.
    assert_eq!(r["hits"][0]["entry"], "GUC-WORK-MEM", "{name}: {r}");
    let r = face.search("how much memory does work_mem allow", "en");
    assert_eq!(r["hits"][0]["entry"], "GUC-WORK-MEM", "{name}: {r}");
    let r = face.search("base maximum amount of memory", "en");
    assert_eq!(first(&r).0, "/m/runtime-config-resource", "{name}: {r}");
    assert!(r["hits"][0]["entry"].is_null(), "{name}: {r}");

    // A short form finds the words it stands for; quoted, only itself.
    let r = face.search("redirect stderr to a file", "en");
    assert_eq!(first(&r).0, "/m/redirections", "{name}: {r}");
    let r = face.search("\"stderr\"", "en");
    assert_eq!(r["total"], 0, "{name}: {r}");

    // A hyphenated word finds its closed spelling and the other way round,
    // and the snippet lights the word as the page writes it.
    let r = face.search("readonly role", "en");
    assert_eq!(first(&r).0, "/m/roles-read-only", "{name}: {r}");
    let lit = lit_words(&r["hits"][0]);
    assert!(lit.iter().any(|t| t == "read-only"), "{name}: {lit:?} {r}");
    let r = face.search("e-mail notification", "en");
    assert_eq!(first(&r).0, "/m/job-failures", "{name}: {r}");

    // A name in camel case is found by its words, and lit as written.
    let r = face.search("keep alive timeout", "en");
    assert_eq!(
        first(&r),
        ("/m/connection-directives".to_owned(), "keepalivetimeout".to_owned()),
        "{name}: {r}"
    );
    assert!(lit_words(&r["hits"][0]).iter().any(|t| t == "KeepAliveTimeout"), "{name}: {r}");

    // The name inside a longer query still leads there.
    let r = face.search("how much memory does work_mem allow", "en");
    assert_eq!(first(&r).0, "/m/runtime-config-resource", "{name}: {r}");

    // A question: its stopwords need not match, and release notes holding
    // every word rank below the reference page.
    let r = face.search("what does VACUUM FULL do differently from a plain VACUUM", "en");
    assert_eq!(first(&r), ("/m/sql-vacuum".to_owned(), "SQL-VACUUM-DESCRIPTION".to_owned()), "{name}: {r}");
    assert!(r["hits"].as_array().unwrap().iter().any(|h| h["path"] == "/m/release-18-1"), "{name}: {r}");

    // A license's terms hold a question's words more often than the page
    // answering it, and rank below it; a query naming the license finds it.
    let r = face.search("measure how long my code takes to run", "en");
    assert_eq!(first(&r).0, "/m/timing-utilities", "{name}: {r}");
    let r = face.search("GNU General Public License", "en");
    assert_eq!(first(&r).0, "/m/copying", "{name}: {r}");

    // A version number is rarer than its digits: the section naming it
    // comes before the pages about versions in general.
    let r = face.search("2.5.2 version", "en");
    assert_eq!(first(&r), ("/m/picker".to_owned(), "PICKER-PROPS".to_owned()), "{name}: {r}");

    // A qualified name typed as a reader types it finds the member it
    // names, though the text never writes it so: a rustdoc method on its
    // type's page, a Boost function without its middle namespace, a
    // Sphinx method by its class, with any separator.
    for (query, path, anchor) in [
        ("Vec::push", "/m/vec/struct.Vec", "method.push"),
        ("Vec.push", "/m/vec/struct.Vec", "method.push"),
        ("Vec push", "/m/vec/struct.Vec", "method.push"),
        ("std::vec::Vec", "/m/vec/struct.Vec", ""),
        ("Vec", "/m/vec/struct.Vec", ""),
        ("boost::split", "/m/split", ""),
        ("QuerySet.update", "/m/querysets", "django.db.models.query.QuerySet.update"),
        ("models.QuerySet.update", "/m/querysets", "django.db.models.query.QuerySet.update"),
        // Behind the alias code imports it as.
        ("pd.read_csv", "/m/pandas.read_csv", "pandas.read_csv"),
        // A class by its name before its constructors and destructor; a
        // function at the anchor its name spells before the class named
        // like it in another case.
        ("QVector", "/m/qvector", ""),
        ("Obsolete Members for QVector", "/m/qvector-obsolete", ""),
        ("Obsolete Members for QDataStream", "/m/qdatastream-obsolete", ""),
        ("qDebug", "/m/qtglobal", "qDebug"),
        // A qualified name whose member the manual declares bare: the
        // member, before a guide writing the name as typed.
        ("glm::perspective", "/m/group-clip-space", "ga747c"),
        ("glm::frustum", "/m/group-clip-space", "ga12af"),
        // An overload's number after the call; the member of the class
        // the name qualifies it by before another class's.
        ("glm::slerp", "/m/group-clip-space", "ga602b"),
        ("Json::Reader::parse", "/m/class-reader", "a71ef"),
        ("Json::CharReader::parse", "/m/class-char-reader", "a6551"),
    ] {
        let r = face.search(query, "en");
        assert_eq!(first(&r), (path.to_owned(), anchor.to_owned()), "{name}: {query}: {r}");
    }

    // A function as Erlang names it finds its head on its module's page,
    // though a guide writes the name as typed.
    for query in ["lists:map/2", "lists:map", "lists map"] {
        let r = face.search(query, "en");
        assert_eq!(first(&r), ("/m/lists".to_owned(), "map-2".to_owned()), "{name}: {query}: {r}");
    }
    // A backslash command, alone or with a modifier, finds the list
    // defining it.
    for query in ["\\copy", "\\d+"] {
        let r = face.search(query, "en");
        assert_eq!(
            first(&r),
            ("/m/app-psql".to_owned(), "APP-PSQL-META-COMMANDS".to_owned()),
            "{name}: {query}: {r}"
        );
    }

    // A method as Ruby writes it finds its entry on its class's page.
    for query in ["Hash#fetch", "Hash.fetch"] {
        let r = face.search(query, "en");
        assert_eq!(first(&r), ("/m/hash".to_owned(), "method-i-fetch".to_owned()), "{name}: {query}: {r}");
    }

    // A name's underscores are the name's: `__init__` is not `init`.
    let r = face.search("__init__", "en");
    assert_eq!(first(&r), ("/m/classes".to_owned(), "construction".to_owned()), "{name}: {r}");
    assert!(lit_words(&r["hits"][0]).iter().any(|w| w == "__init__"), "{name}: {r}");

    // A function defined in a table row, though another page repeats it.
    let r = face.search("lag", "en");
    assert_eq!(
        first(&r),
        ("/m/functions-window".to_owned(), "FUNCTIONS-WINDOW-TABLE".to_owned()),
        "{name}: {r}"
    );
    // The same name written as a call, its arguments an example.
    for query in ["lag()", "lag(value, 1)"] {
        let r = face.search(query, "en");
        assert_eq!(first(&r).1, "FUNCTIONS-WINDOW-TABLE", "{name}: {query}: {r}");
    }
    // A name and its kind: the setting's definition, though another page
    // holds every word.
    let r = face.search("port configuration parameter", "en");
    assert_eq!(first(&r).0, "/m/runtime-config-connection", "{name}: {r}");

    // An operator defined in a synopsis line, though another page repeats it.
    let r = face.search("OR", "en");
    assert_eq!(first(&r).0, "/m/functions-logical", "{name}: {r}");

    // A type's aliases are defined with it: the section listing `varchar`
    // among its names, though another page repeats the name.
    let r = face.search("varchar", "en");
    assert_eq!(first(&r).0, "/m/datatype-character", "{name}: {r}");
    // A question naming several names: the section defining them, though
    // another holds every word of the question.
    let r = face.search("what is the difference between char, varchar and text", "en");
    assert_eq!(first(&r).0, "/m/datatype-character", "{name}: {r}");
    // A question answered by one row of a long table: the passage holding
    // its words together, though a short page holds them all apart.
    let r = face.search("cancel the query another session is running", "en");
    assert_eq!(first(&r).0, "/m/functions-admin", "{name}: {r}");
    // A question needs half of the words the edition searched writes: the
    // English edition never writes "false positive" (the Chinese one does),
    // so `lintian` alone qualifies a section.
    let r = face.search("how to silence a lintian false positive", "en");
    assert_eq!(first(&r).0, "/m/lintian", "{name}: {r}");

    // A chapter's table of contents is not searched: the section it
    // lists, not the chapter, answers a question about that section; the
    // chapter is still found by its own title.
    let r = face.search("write a trigger function in PL/pgSQL", "en");
    assert_eq!(first(&r).0, "/m/plpgsql-trigger", "{name}: {r}");
    let r = face.search("SQL Procedural Language", "en");
    assert_eq!(first(&r).0, "/m/plpgsql", "{name}: {r}");
    // Its hit shows the titles it lists, having no text of its own.
    let snippet = r["hits"][0]["snippet"].as_str().unwrap_or("");
    assert!(
        snippet.starts_with("41.1. Overview of PL/pgSQL · 41.2. Writing Trigger Functions"),
        "{name}: {r}"
    );

    // A name an API page defines inside a section finds that section, not
    // the page's top that repeats it; an option written as a plain term
    // finds its command's options, not the guide repeating it. So does the
    // name typed in an input method's full-width mode.
    for query in [
        "widget.gather",
        "widget.gather()",
        "@widget.gather",
        "when does widget.gather return",
        "ｗｉｄｇｅｔ．ｇａｔｈｅｒ（）",
    ] {
        let r = face.search(query, "en");
        let expected = ("/m/widget-tasks".to_owned(), "running-together".to_owned());
        assert_eq!(first(&r), expected, "{name}: {query}: {r}");
        // The hit links to the entry defining the name inside the section.
        assert_eq!(r["hits"][0]["entry"], "widget.gather", "{name}: {query}: {r}");
    }
    // A query naming nothing defined there links to no entry.
    let r = face.search("awaitable objects at once", "en");
    assert_eq!(first(&r), ("/m/widget-tasks".to_owned(), "running-together".to_owned()), "{name}: {r}");
    assert!(r["hits"][0]["entry"].is_null(), "{name}: {r}");
    let r = face.search("widget commit --amend", "en");
    assert_eq!(first(&r), ("/m/widget-commit".to_owned(), "_options".to_owned()), "{name}: {r}");
    // The snippet leaves out the heading, not the option's dashes.
    assert!(
        r["hits"][0]["snippet"].as_str().is_some_and(|s| s.starts_with("--amend Replace")),
        "{name}: {r}"
    );
    // An option of one letter is a name too.
    let r = face.search("widget commit -q", "en");
    assert_eq!(first(&r), ("/m/widget-commit".to_owned(), "_options".to_owned()), "{name}: {r}");
    // Of two options that differ in case only, the one typed comes first.
    for (query, page) in [("widget -O", "/m/widget-build"), ("widget -o", "/m/widget-pack")] {
        let r = face.search(query, "en");
        assert_eq!(first(&r), (page.to_owned(), "_options".to_owned()), "{name}: {query}: {r}");
    }

    // An option a manual page titles a subsection with is that command's
    // option, before another command's option of the same letter.
    for (query, title) in [("gizmostat -p", "-p, --program"), ("gizmostat -r", "--route, -r")] {
        let r = face.search(query, "en");
        assert_eq!(first(&r).0, "/m/gizmostat.8", "{name}: {query}: {r}");
        assert_eq!(r["hits"][0]["title"], title, "{name}: {query}: {r}");
    }
    let r = face.search("gizmotop -p", "en");
    assert_eq!(first(&r), ("/m/gizmotop.1".to_owned(), "OPTIONS".to_owned()), "{name}: {r}");
    // Another command's subsection titled with the option in the other
    // case (gizmostat's `-D`) is not a better answer for being a heading.
    let r = face.search("gizmotop -d", "en");
    assert_eq!(first(&r), ("/m/gizmotop.1".to_owned(), "OPTIONS".to_owned()), "{name}: {r}");
    assert_eq!(r["hits"][0]["entry"], "d", "{name}: {r}");
    let r = face.search("gizmotop -p", "en");
    // Its snippet is that option's text, not another's that names it.
    assert_eq!(r["hits"][0]["entry"], "p", "{name}: {r}");
    let snippet = r["hits"][0]["snippet"].as_str().unwrap_or("");
    assert!(snippet.starts_with("- -p pid Monitor only the processes"), "{name}: {r}");

    // An option a command's page titles a section with, without its
    // dashes, is that command's option, before the command's synopsis.
    for (query, page) in
        [("widget ls --all", "/m/widget-ls"), ("widget outdated --all", "/m/widget-outdated")]
    {
        let r = face.search(query, "en");
        assert_eq!(first(&r), (page.to_owned(), "all".to_owned()), "{name}: {query}: {r}");
    }

    // An option named in code with its type after it is defined there,
    // before a member of the same last name.
    let r = face.search("redact", "en");
    assert_eq!(first(&r), ("/m/gizmo-api".to_owned(), "redact-array--object".to_owned()), "{name}: {r}");

    // `several` says nothing about the answer (and is no `severity`).
    let r = face.search("write logs to several files at once", "en");
    assert_eq!(first(&r), ("/m/gizmo-logs".to_owned(), "files".to_owned()), "{name}: {r}");

    // A class's name finds its page's top, before its methods.
    let r = face.search("GizmoAgent", "en");
    assert_eq!(first(&r), ("/m/gizmo-agent".to_owned(), String::new()), "{name}: {r}");

    // A program and its option find that program's option.
    let r = face.search("gizmo -G", "en");
    assert_eq!(first(&r), ("/m/gizmo.1".to_owned(), "cmdoption-gizmo-G".to_owned()), "{name}: {r}");

    // A word that only an index entry holds (`listkeys`, no text says it)
    // names that entry's section inside a longer query.
    let r = face.search("bindwidget listkeys", "en");
    assert_eq!(first(&r).0, "/m/widget-editor", "{name}: {r}");
    // A Texinfo index entry finds the section where the manual makes it.
    let r = face.search("bindwidget", "en");
    assert_eq!(first(&r).0, "/m/widget-editor", "{name}: {r}");
    assert_eq!(r["hits"][0]["title"], "18.3 Builtins", "{name}: {r}");

    // A member heading on its object's page defines the qualified name.
    let r = face.search("reply.send", "en");
    assert_eq!(first(&r), ("/m/widget-reply".to_owned(), "senddata".to_owned()), "{name}: {r}");

    // A manual page's command is its NAME line's name, and its empty top
    // shows that line.
    let r = face.search("widget-rewind", "en");
    assert_eq!(first(&r), ("/m/widget-rewind".to_owned(), String::new()), "{name}: {r}");
    let snippet = r["hits"][0]["snippet"].as_str().unwrap_or("");
    assert!(snippet.starts_with("Move the spool of a widget"), "{name}: {r}");

    // A term the text defines (its firstterm, in the plural) finds its
    // definition, not the page titled with it that repeats it.
    let r = face.search("operator class", "en");
    assert_eq!(first(&r), ("/m/xindex".to_owned(), "XINDEX-OPCLASS".to_owned()), "{name}: {r}");
    let r = face.search("操作符类", "zh-Hans");
    assert_eq!(first(&r), ("/zh-Hans/m/xindex".to_owned(), "XINDEX-OPCLASS".to_owned()), "{name}: {r}");
    // So does a question asking what the term is.
    let r = face.search("what is an operator class", "en");
    assert_eq!(first(&r), ("/m/xindex".to_owned(), "XINDEX-OPCLASS".to_owned()), "{name}: {r}");
    let r = face.search("操作符类是什么", "zh-Hans");
    assert_eq!(first(&r), ("/zh-Hans/m/xindex".to_owned(), "XINDEX-OPCLASS".to_owned()), "{name}: {r}");

    // A Chinese question: 是怎么回事 asks; 表继承 is what it asks about.
    let r = face.search("表继承是怎么回事", "zh-Hans");
    assert_eq!(first(&r).0, "/zh-Hans/m/ddl-inherit", "{name}: {r}");
    // The same question in traditional characters finds the simplified
    // manual's page, lit as the manual writes it.
    let r = face.search("表繼承是怎麼回事", "zh-Hans");
    assert_eq!(first(&r).0, "/zh-Hans/m/ddl-inherit", "{name}: {r}");
    assert!(lit_words(&r["hits"][0]).iter().any(|w| w.contains("继承")), "{name}: {r}");

    for (query, page) in [
        // A name asked about with nothing but question words around it.
        ("VACUUM是什么意思", "/zh-Hans/m/sql-vacuum"),
        // A word written another way than the manual writes it (账号 for
        // 帐号, 创建 for 建立) finds the section all the same, alone or in a
        // question.
        ("账号", "/zh-Hans/m/sect-creating-accounts"),
        ("如何创建新的用户账号", "/zh-Hans/m/sect-creating-accounts"),
        // A term the manual renders otherwise (线外 for 行外).
        ("很大的字段值是怎么存储到行外的", "/zh-Hans/m/storage-toast"),
        // Chinese words run together with a name: a run the manual never
        // writes (启动安装) is searched by its words, not as one word.
        ("通过网络PXE启动安装", "/zh-Hans/m/install-pxe"),
        // An English term the Chinese manual translates, found through the
        // English edition beside it.
        ("出现“deadlock detected”错误是为什么", "/zh-Hans/m/explicit-locking"),
        // Three words in one run, ranked as a question: the section on
        // replication slots before notes holding the run in passing.
        ("创建复制槽", "/zh-Hans/m/warm-standby"),
        // A heading made of the question's words outranks sections whose
        // text holds more of them.
        ("如何把连接密码保存在文件里，免得每次都要输入", "/zh-Hans/m/libpq-pgpass"),
    ] {
        let r = face.search(query, "zh-Hans");
        assert_eq!(first(&r).0, page, "{name}: {query}: {r}");
    }
    // A question's own words are not lit in snippets: `怎么` of a page that
    // writes it, though its content words are.
    let r = face.search("很大的字段值是怎么存储到行外的", "zh-Hans");
    let lit: Vec<String> = r["hits"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| {
            let chars: Vec<char> = h["snippet"].as_str().unwrap_or("").chars().collect();
            h["highlights"].as_array().unwrap().iter().map(move |range| {
                let (a, b) = (range[0].as_u64().unwrap() as usize, range[1].as_u64().unwrap() as usize);
                chars[a..b].iter().collect::<String>()
            })
        })
        .collect();
    assert!(lit.iter().any(|t| t.contains("字段值")), "{name}: {lit:?}");
    assert!(!lit.iter().any(|t| t.contains("怎么")), "{name}: {lit:?}");
    // A quoted phrase stays as written.
    let r = face.search("\"账号\"", "zh-Hans");
    assert_eq!(r["total"], 0, "{name}: {r}");

    // Function words standing alone between spaced words (`和`, `的区别`)
    // need not match: the page that compares the two comes first, not one
    // titled with those words.
    let r = face.search("VACUUM FULL 和 VACUUM 的区别", "zh-Hans");
    assert_eq!(first(&r).0, "/zh-Hans/m/sql-vacuum", "{name}: {r}");

    // A reference page's purpose line counts as its title: the command
    // whose purpose is what the question asks, though its heading is in
    // another language and another page holds the words more often.
    let r = face.search("如何定义新的序列生成器", "zh-Hans");
    assert_eq!(first(&r).0, "/zh-Hans/m/sql-createsequence", "{name}: {r}");

    // SQL's NOT before a word in capitals is a word of the query; before a
    // word in lower case it excludes that word.
    let r = face.search("IS NOT NULL", "en");
    assert_eq!(first(&r).0, "/m/functions-comparison", "{name}: {r}");
    let anchors = |r: &Value| -> Vec<String> {
        r["hits"].as_array().unwrap().iter().map(|h| h["anchor"].as_str().unwrap_or("").to_owned()).collect()
    };
    let description = "SQL-VACUUM-DESCRIPTION".to_owned();
    assert!(anchors(&face.search("VACUUM", "en")).contains(&description), "{name}");
    let r = face.search("VACUUM NOT full", "en");
    assert!(!anchors(&r).contains(&description), "{name}: {r}");

    // No locale given and none is the library's default: a query in Latin
    // script searches the English edition, one with Chinese text (names
    // beside it or not) the Chinese one, and the scope says which.
    let locales = |r: &Value| -> Vec<String> {
        r["hits"].as_array().unwrap().iter().map(|h| h["locale"].as_str().unwrap().to_owned()).collect()
    };
    for (text, locale) in
        [("VACUUM", "en"), ("表继承是怎么回事", "zh-Hans"), ("VACUUM FULL 和 VACUUM 的区别", "zh-Hans")]
    {
        let r = face.search(text, "");
        assert_eq!(r["scope"]["locale"], locale, "{name}: {text}: {r}");
        let got = locales(&r);
        assert!(!got.is_empty() && got.iter().all(|l| l == locale), "{name}: {text}: {r}");
    }

    // A quoted phrase is strict; the same words unquoted are not.
    let r = face.search("\"rewrites the entire contents\"", "en");
    assert_eq!(r["total"], 1, "{name}: {r}");
    let r = face.search("\"contents the entire rewrites\"", "en");
    assert_eq!(r["total"], 0, "{name}: {r}");
    let r = face.search("contents the entire rewrites", "en");
    assert_eq!(first(&r).0, "/m/sql-vacuum", "{name}: {r}");
}

/// Queries in other languages than English and Chinese.
fn check_languages(face: &mut dyn Face, name: &str) {
    // Accents need not be typed, and the words typed without them are lit
    // as the manual writes them; a locale finds the other varieties of its
    // language (`pt` for the `pt-BR` edition).
    let r = face.search("configuracao de rede", "pt");
    assert_eq!(first(&r).0, "/pt-BR/m/configuracao-rede", "{name}: {r}");
    assert!(lit_words(&r["hits"][0]).iter().any(|w| w == "configuração"), "{name}: {r}");
    // With no locale given and none the default, a question's function
    // words tell its language, and they need not match: `como` and `a`
    // are no words of the page about the network's configuration.
    let r = face.search("como configurar a rede", "");
    assert_eq!(r["scope"]["locale"], "pt-BR", "{name}: {r}");
    assert_eq!(first(&r).0, "/pt-BR/m/configuracao-rede", "{name}: {r}");
    // A query that tells no language searches English, unless the English
    // edition holds none of it and another does.
    let r = face.search("espelhos", "");
    assert_eq!(r["scope"]["locale"], "pt-BR", "{name}: {r}");
    assert_eq!(first(&r).0, "/pt-BR/m/pacotes", "{name}: {r}");
    let r = face.search("mirrors", "");
    assert_eq!(r["scope"]["locale"], "en", "{name}: {r}");
    // A word stands for its other forms in the edition's language, which
    // weigh less than the word as written: `instalar` finds `instalação`.
    let r = face.search("instalar pacote", "pt-BR");
    assert_eq!(first(&r).0, "/pt-BR/m/instalacao", "{name}: {r}");
    assert!(lit_words(&r["hits"][0]).iter().any(|w| w == "instalação"), "{name}: {r}");
    // Kana make a query Japanese; particles and question words need not
    // match (`の使い方`, `方法`): the page about aptitude comes first.
    let r = face.search("aptitudeの使い方", "");
    assert_eq!(r["scope"]["locale"], "ja", "{name}: {r}");
    assert_eq!(first(&r).0, "/ja/m/packages", "{name}: {r}");
    // A katakana word is one word: `ファイル` holds `ファイ`, not the firewall.
    let r = face.search("ファイアウォール", "ja");
    let paths: Vec<&str> =
        r["hits"].as_array().unwrap().iter().map(|h| h["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["/ja/m/firewall"], "{name}: {r}");
    // A loanword's long vowel mark may be written or not: `ユーザー` finds
    // the manual's `ユーザ`, and is lit as the manual writes it.
    let r = face.search("ユーザーの追加", "ja");
    assert_eq!(first(&r).0, "/ja/m/users", "{name}: {r}");
    let r = face.search("ユーザー", "ja");
    assert_eq!(first(&r).0, "/ja/m/users", "{name}: {r}");
    assert!(lit_words(&r["hits"][0]).iter().any(|w| w == "ユーザ"), "{name}: {r}");
    // `ae`, `oe` and `ue` stand for the umlauts where no section holds the
    // word as typed (`Paketgroesse`, `Schluessel`), and are lit as the manual
    // writes them; a word some section holds is searched as typed only
    // (`Steuerung`, `queue`).
    for (text, page) in [("Paketgroesse", "paketgroesse"), ("Schluessel verwalten", "schluessel")] {
        let r = face.search(text, "de");
        assert_eq!(first(&r).0, format!("/de/m/{page}"), "{name}: {text}: {r}");
    }
    let r = face.search("Schluessel", "de");
    assert!(lit_words(&r["hits"][0]).iter().any(|w| w == "Schlüssel"), "{name}: {r}");
    for (text, total) in [("Steuerung", 1), ("queue", 1), ("Schlussel", 1)] {
        assert_eq!(face.search(text, "de")["total"], total, "{name}: {text}");
    }
}

#[test]
fn every_face_ranks_definitions_questions_and_phrases_alike() {
    let lib = library();
    check(&mut Cli(lib.path()), "CLI");
    check_languages(&mut Cli(lib.path()), "CLI");
    let _server = Server::local_api(lib.path());
    let mut api = Api(Client::connect(lib.path()).expect("discovery + challenge"));
    check(&mut api, "local API");
    check_languages(&mut api, "local API");
    let mut mcp = Stdio(Mcp::initialized(lib.path(), "2025-06-18"), 0);
    check(&mut mcp, "lectern mcp");
    check_languages(&mut mcp, "lectern mcp");
}
