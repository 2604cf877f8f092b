//! Names a manual defines, as symbols of the section holding their
//! definition, so that a search for a name finds its definition before the
//! pages that only mention it:
//! - in its variable lists (DocBook `<varlistentry>`, HTML `<dl>`):
//!   settings (`<dt id="GUC-WORK-MEM"><code class="varname">work_mem</code>`)
//!   command-line options (`<code class="option">--data-only</code>`) and
//!   backslash commands (psql's `\copy`, `\d[Sx+]`);
//! - in the first cells of its tables: the function a signature starts with
//!   (`<code class="function">abbrev</code> ( inet ) → text`), the operator
//!   it shows (`text || text`, `datatype IS NOT NULL`, `NOT boolean`), and
//!   a type, setting or environment variable alone in its cell where the
//!   row describes it (`<td><code class="type">anyelement</code></td>`);
//! - in list items that start with an environment variable (`PGHOST`);
//! - in the lines of a synopsis that are signatures (`boolean AND boolean
//!   → boolean`, `<code class="function">lag</code> ( … ) → …`): their
//!   operator or function;
//! - in headings that are nothing but a name (`8.11.2. <code
//!   class="type">tsquery</code>`).

use std::collections::HashMap;

use ego_tree::{NodeId, NodeRef};
use scraper::Node;

use crate::page::Symbol;
use crate::text::nfc;

/// Longest name kept (a whole sentence in a `<code>` is not a name).
const MAX_NAME_BYTES: usize = 100;

/// The `<code>` classes that name what a list item defines, and the kind
/// each becomes.
const NAME_CLASSES: [(&str, &str); 2] = [("varname", "Setting"), ("option", "Option")];

/// The kinds of the names headings are, by their `<code>` class (others
/// are entries).
const HEADING_CLASSES: [(&str, &str); 6] = [
    ("function", "Function"),
    ("type", "Type"),
    ("structname", "Table"),
    ("command", "Command"),
    ("varname", "Setting"),
    ("literal", "Literal"),
];

/// The `<code>` classes that name what a table row defines when they start
/// its first cell, the kind each becomes, and whether the name must fill
/// the cell (a type or a setting alone; a function is followed by its
/// signature).
const CELL_CLASSES: [(&str, &str, bool); 4] = [
    ("function", "Function", false),
    ("type", "Type", true),
    ("varname", "Setting", true),
    ("envar", "Environment", true),
];

/// Each term of each `<dt>` whose name is a setting or an option (a plain
/// term's, not on a `glossary_page`), attached
/// to the section the `<dt>` falls in: `started` holds the headings that
/// started a section, with its anchor (before the first, the lead section,
/// without one). A `<dt>` with an id adds the id too
/// (`GUC-WORK-MEM`), as the manual's own name for the entry.
pub(crate) fn varlist_symbols(
    root: NodeRef<'_, Node>,
    started: &HashMap<NodeId, String>,
    glossary_page: bool,
) -> Vec<Symbol> {
    let mut current: Option<&String> = None;
    let mut out: Vec<Symbol> = Vec::new();
    for node in root.descendants() {
        if let Some(anchor) = started.get(&node.id()) {
            current = Some(anchor);
            let anchor = Some(anchor.clone());
            for (name, kind) in heading_names(node) {
                push(&mut out, name, kind, &anchor);
            }
            // An API entry's signature (a `<dt>` that starts a section) is
            // read as a term below, for its own section.
            if !is_element(node, "dt", None) {
                continue;
            }
        }
        let Some(el) = node.value().as_element() else { continue };
        // The section the term falls in.
        let anchor = || current.cloned();
        if el.name() == "tr" || el.name() == "li" {
            let anchor = anchor();
            for (name, kind) in row_names(node).into_iter().flatten() {
                push(&mut out, name, kind, &anchor);
            }
            continue;
        }
        if el.name() == "pre" && el.classes().any(|k| k == "synopsis") {
            let anchor = anchor();
            for (name, kind) in synopsis_names(node) {
                push(&mut out, name, kind, &anchor);
            }
            continue;
        }
        if el.name() != "dt" {
            continue;
        }
        let anchor = anchor();
        let before = out.len();
        let mut terms = node.children().filter(|c| is_element(*c, "span", Some("term"))).peekable();
        if terms.peek().is_none() && !only_links(node) && !refers(node) {
            // A term written as plain text (asciidoc's and man pages'
            // lists: `--amend`, `-c <commit>`, `core.autocrlf`); one that
            // is a link (a module index's `mod_rewrite`) names what is
            // defined where it leads.
            let text = text_of(node);
            let mut names = plain_names(&text);
            // (A glossary's terms are words it explains, not names.)
            let glossary = glossary_page
                || node
                    .parent()
                    .and_then(|p| p.value().as_element())
                    .is_some_and(|p| p.classes().any(|c| c == "glossary"));
            if names.is_empty()
                && !glossary
                && let Some(name) =
                    el.id().and_then(|id| entry_name(&text, id).or_else(|| bold_name(node, id)))
            {
                names.push((name, "Entry"));
            }
            for (name, kind) in names {
                push(&mut out, nfc(&name), kind, &anchor);
            }
        }
        for term in terms {
            for (name, kind) in term_name(term) {
                push(&mut out, name, kind, &anchor);
            }
        }
        if out.len() > before
            && let Some(id) = el.id().filter(|id| id.len() <= MAX_NAME_BYTES && !id.starts_with("id-"))
        {
            let kind = out[before].kind.clone();
            push(&mut out, id.to_owned(), &kind, &anchor);
        }
        // A term with an id of its own inside its section (`<dt
        // id="GUC-WORK-MEM">`, mandoc's `<dt id="R">`) is its names' entry.
        if let Some(id) = el.id().filter(|id| anchor.as_deref() != Some(*id)) {
            for symbol in &mut out[before..] {
                symbol.entry = Some(id.to_owned());
            }
        }
    }
    out
}

fn push(out: &mut Vec<Symbol>, name: String, kind: &str, anchor: &Option<String>) {
    if !out.iter().any(|s| s.name == name && s.anchor == *anchor) {
        out.push(Symbol { name, kind: kind.to_owned(), anchor: anchor.clone(), entry: None });
    }
}

fn is_element(node: NodeRef<'_, Node>, name: &str, class: Option<&str>) -> bool {
    node.value()
        .as_element()
        .is_some_and(|e| e.name() == name && class.is_none_or(|c| e.classes().any(|k| k == c)))
}

/// The name a `<span class="term">` defines: its first `<code>` of a name
/// class, up to an `=` or a space (`--format=format`, `-F format` name
/// `--format`, `-F`).
fn term_name(term: NodeRef<'_, Node>) -> Vec<(String, &'static str)> {
    for child in term.children() {
        let Some(el) = child.value().as_element() else { continue };
        if el.name() != "code" {
            continue;
        }
        let text = text_of(child);
        let Some((_, kind)) = NAME_CLASSES.iter().find(|(class, _)| el.classes().any(|k| k == *class)) else {
            return backslash_names(&text);
        };
        let name = text.trim().split(['=', ' ', '\n', '\t', '[']).next().unwrap_or("").trim_end_matches(',');
        return if useful(name) { vec![(nfc(name), *kind)] } else { Vec::new() };
    }
    Vec::new()
}

/// The commands a term naming a backslash command defines (psql's
/// `\copy { table … }`, `\d[Sx+] [ pattern ]`): the command, and with
/// each modifier its brackets list right after it (`\d+`, `\dS`), as
/// users type them. None for other text.
fn backslash_names(text: &str) -> Vec<(String, &'static str)> {
    let text = text.trim();
    let Some(rest) = text.strip_prefix('\\') else { return Vec::new() };
    let body: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    if body.is_empty() || body.len() > MAX_NAME_BYTES {
        return Vec::new();
    }
    let name = format!("\\{body}");
    let mut names = vec![(name.clone(), "Command")];
    if let Some(modifiers) =
        rest[body.len()..].strip_prefix('[').and_then(|m| m.split_once(']')).map(|(m, _)| m)
        && modifiers.chars().count() <= 4
        && !modifiers.contains(char::is_whitespace)
    {
        names.extend(modifiers.chars().map(|c| (format!("{name}{c}"), "Command")));
    }
    names
}

/// The names a `<dt>` of plain text defines: the options it lists (`-a,
/// --all`; `-c <commit>` names `-c`, `--untracked-files[=<mode>]` names
/// `--untracked-files`, `--[no-]verify` names `--verify` and
/// `--no-verify`), or the one dotted or underscored name it is
/// (`core.autocrlf`, `http.proxy`): none for words (`Examples`, `Return
/// value`).
fn plain_names(text: &str) -> Vec<(String, &'static str)> {
    let text = text.trim();
    if text.len() > MAX_NAME_BYTES * 2 {
        return Vec::new();
    }
    if text.starts_with('\\') {
        return backslash_names(text);
    }
    if text.starts_with('-') {
        let mut names = Vec::new();
        for part in text.split([',', '\n']).map(str::trim).filter(|p| !p.is_empty()) {
            let dashes = part.len() - part.trim_start_matches('-').len();
            let negatable = part[dashes..].starts_with("[no-]");
            let rest = if negatable { &part[dashes + "[no-]".len()..] } else { &part[dashes..] };
            let body: String =
                rest.chars().take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.')).collect();
            if !(1..=2).contains(&dashes) || !body.starts_with(char::is_alphanumeric) {
                return names;
            }
            let name = format!("{}{body}", &part[..dashes]);
            if negatable {
                names.push((format!("{}no-{body}", &part[..dashes]), "Option"));
            }
            if useful(&name) {
                names.push((name, "Option"));
            }
        }
        return names;
    }
    let dotted = text.starts_with(|c: char| c.is_alphabetic())
        && text.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
        && text.contains(['.', '_'])
        && text.ends_with(|c: char| c.is_alphanumeric());
    if dotted && useful(text) { vec![(text.to_owned(), "Entry")] } else { Vec::new() }
}

/// The name a plain `<dt>` with an id defines, as pod2html writes a
/// reference's entries (`<dt id="fork">fork</dt>`, `fileno FILEHANDLE`,
/// `split /PATTERN/,EXPR,LIMIT`, `$_`, `@ARGV`): its first word, when it is
/// the whole term or the rest is placeholders in capitals, and the id
/// starts with it as far as ids can spell it. None for words
/// (`Functions for SCALARs or strings`).
fn entry_name(text: &str, id: &str) -> Option<String> {
    let mut words = text.split_whitespace();
    let name = words.next()?;
    // A quote-like operator written with its delimiters and placeholders
    // (`qw/STRING/`, `tr/SEARCHLIST/REPLACEMENTLIST/cdsr`) is its name.
    let name = match (name.split_once('/'), name.rsplit_once('/')) {
        (Some((op, _)), Some((inner, _)))
            if op.len() >= 2
                && op.chars().all(|c| c.is_ascii_lowercase())
                && !inner[op.len()..].chars().any(char::is_lowercase) =>
        {
            op
        }
        _ => name,
    };
    let placeholders = words.all(|w| !w.chars().any(char::is_lowercase));
    let sigil = name.starts_with(['$', '@', '%']) && name.len() > 1;
    let spelled: String = name.chars().filter(|c| c.is_alphanumeric()).collect();
    let id_spells = spelled.is_empty() || id.to_lowercase().contains(&spelled.to_lowercase());
    (placeholders && id_spells && name.len() <= MAX_NAME_BYTES && (useful(name) || sigil))
        .then(|| name.to_owned())
}

/// Words of a command a term names in bold, at most (`string map`).
const MAX_BOLD_NAME_WORDS: usize = 3;

/// The name a manual page's term starts with in bold, the rest its
/// arguments (mandoc's `<dt id="file~11"><b>file exists</b> <i>name</i>`,
/// `<b>string map</b> ?<b>-nocase</b>? <i>mapping string</i>`): the bold
/// words, when each is a name and the id starts with the first as far as
/// ids can spell it. None for other terms.
fn bold_name(term: NodeRef<'_, Node>, id: &str) -> Option<String> {
    let first = term.descendants().skip(1).find(|d| match d.value() {
        Node::Text(t) => !t.trim().is_empty(),
        Node::Element(e) => matches!(e.name(), "b" | "strong"),
        _ => false,
    })?;
    (!first.value().is_text()).then_some(())?;
    let name = text_of(first).split_whitespace().collect::<Vec<_>>().join(" ");
    let words: Vec<&str> = name.split(' ').collect();
    let named = words.len() <= MAX_BOLD_NAME_WORDS
        && words.iter().all(|w| w.chars().all(|c| c.is_alphanumeric() || "-_:.".contains(c)))
        && words[0].starts_with(char::is_alphabetic);
    let spelled: String = words[0].chars().filter(|c| c.is_alphanumeric()).collect();
    let id_spells = id.to_lowercase().starts_with(&spelled.to_lowercase());
    // The arguments are marked too: no plain words around them (`?`, `...`).
    let marked = |text: NodeRef<'_, Node>| {
        text.ancestors().take_while(|a| a.id() != term.id()).any(|a| {
            a.value().as_element().is_some_and(|e| matches!(e.name(), "b" | "strong" | "i" | "em" | "var"))
        })
    };
    let bare_words = term
        .descendants()
        .any(|d| d.value().as_text().is_some_and(|t| t.chars().any(char::is_alphanumeric)) && !marked(d));
    (named && id_spells && !bare_words && useful(&name)).then_some(name)
}

/// The names a table row defines: its first cell's leading `<code>` of a
/// [`CELL_CLASSES`] class (past empty anchors and a wrapping paragraph),
/// when the cell is a data cell and, for the classes that must, holds
/// nothing else and another cell of the row describes it; or the operator
/// its signature shows between or before operands (`<code
/// class="type">text</code> <code class="literal">||</code>`, `datatype
/// IS NOT NULL`, `NOT boolean`). A list item defines the environment
/// variable it starts with (`<li><p><code class="envar">PGHOST</code>
/// behaves the same as…`). A type's cell may list the names of one type
/// (`character varying(n), varchar(n)`), and the next cell its aliases in
/// the same way (`varchar [ (n) ]`): each is defined, without its
/// parameters (`character varying`, `varchar`).
fn row_names(row: NodeRef<'_, Node>) -> Option<Vec<(String, &'static str)>> {
    let item = is_element(row, "li", None);
    let cell = if item { row } else { row.children().find(|c| c.value().is_element())? };
    if !item && !is_element(cell, "td", None) {
        return None;
    }
    let leading = unwrapped(cell);
    if !item && let Some(operator) = operator_name(&leading) {
        return Some(vec![(nfc(&operator), "Operator")]);
    }
    let code = *leading.first().filter(|c| is_element(**c, "code", None))?;
    let el = code.value().as_element()?;
    if item && let Some(name) = item_name(&leading) {
        return Some(vec![(nfc(&name), "Name")]);
    }
    let (class, kind, alone) = CELL_CLASSES.iter().find(|(class, _, _)| el.classes().any(|k| k == *class))?;
    if item && *class != "envar" {
        return None;
    }
    // A name alone in its cell is defined when the row describes it in
    // words; a row of names (a table mapping SQL types to C types) defines
    // none of them.
    let described = || row.children().skip(1).any(describes);
    if *class == "type" && !item {
        let mut names = type_list(&leading)?;
        if !described() {
            return None;
        }
        let aliases = row.children().filter(|c| c.value().is_element()).nth(1);
        names.extend(aliases.and_then(|a| type_list(&unwrapped(a))).unwrap_or_default());
        return Some(names.into_iter().filter(|n| useful(n)).map(|n| (nfc(&n), *kind)).collect());
    }
    let name = text_of(code);
    let name = name.trim();
    if *alone && !item && (text_of(cell).trim() != name || !described()) {
        return None;
    }
    useful(name).then(|| vec![(nfc(name), *kind)])
}

/// The name a list item defines by starting with it in code and a dash or
/// a colon before what it is (`<li><code>CARGO_TARGET_DIR</code> —
/// Location of…`, `<li><code>--locked</code>: Asserts…`): one token that
/// looks like code ([`is_identifier_like`]). `leading` is the item's
/// meaningful children.
fn item_name(leading: &[NodeRef<'_, Node>]) -> Option<String> {
    let name = text_of(*leading.first()?);
    let name = name.trim();
    let after = leading.get(1)?.value().as_text()?;
    item_defines(name, after).then(|| name.to_owned())
}

/// Whether a list item that starts with `name` in code, `after` following
/// it, defines the name: a dash or a colon comes before what it is, and
/// the name looks like code ([`is_identifier_like`]). The rule of HTML's
/// items and of Markdown's.
pub(crate) fn item_defines(name: &str, after: &str) -> bool {
    let after = after.trim_start();
    let defines = after.starts_with(['—', '–', ':']) || after.starts_with("- ");
    defines && useful(name) && is_identifier_like(name)
}

/// A name no plain word is: one token with a mark of code in it (`_`, `-`,
/// `.`, `:`, `/`, `$`, `@`, a digit, or a capital past its first letter:
/// `CARGO_TARGET_DIR`, `--locked`, `build.rs`, `RUSTFLAGS`, `maxAge`), not
/// a word a list of kinds names in code (pg_dump's filter's `schema`).
pub(crate) fn is_identifier_like(name: &str) -> bool {
    !name.contains(char::is_whitespace)
        && (name.contains(['_', '-', '.', ':', '/', '$', '@'])
            || name.chars().any(|c| c.is_ascii_digit())
            || name.chars().skip(1).any(char::is_uppercase))
}

/// The meaningful children of a cell, past a wrapping paragraph.
fn unwrapped(cell: NodeRef<'_, Node>) -> Vec<NodeRef<'_, Node>> {
    let kids = meaningful(cell);
    match kids.first().and_then(|k| k.value().as_element()) {
        Some(e) if e.name() == "p" => meaningful(kids[0]),
        _ => kids,
    }
}

/// The type names a cell lists and nothing else (`<code
/// class="type">character varying(n)</code>, <code
/// class="type">varchar(n)</code>`), each without its parameters; None
/// for a cell holding anything else (`integer` or `int`).
fn type_list(kids: &[NodeRef<'_, Node>]) -> Option<Vec<String>> {
    let mut names = Vec::new();
    for (i, kid) in kids.iter().enumerate() {
        if i % 2 == 1 {
            let sep = kid.value().as_text().map(|t| t.trim());
            if !matches!(sep, Some("," | "，" | "、")) {
                return None;
            }
        } else if is_element(*kid, "code", Some("type")) {
            names.push(without_parameters(&text_of(*kid)));
        } else {
            return None;
        }
    }
    (!names.is_empty() && kids.len() % 2 == 1).then_some(names)
}

/// A type's name without its parameter lists: `character varying(n)` and
/// `varchar [ (n) ]` name `character varying` and `varchar`; `timestamp [
/// (p) ] with time zone` names `timestamp with time zone`.
fn without_parameters(name: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in name.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The names a synopsis's signature lines define: a line that returns
/// something (`→ <code class="returnvalue">`) names the operator it shows
/// between or before operands, or the function it starts with. Command
/// synopses (`CREATE TABLE …`) return nothing and define none.
fn synopsis_names(pre: NodeRef<'_, Node>) -> Vec<(String, &'static str)> {
    let mut lines: Vec<Vec<NodeRef<'_, Node>>> = vec![Vec::new()];
    for child in pre.children() {
        let line = lines.len() - 1;
        match child.value() {
            Node::Text(t) => {
                if !t.trim().is_empty() {
                    lines[line].push(child);
                }
                lines.extend((0..t.matches('\n').count()).map(|_| Vec::new()));
            }
            Node::Element(_) => lines[line].push(child),
            _ => {}
        }
    }
    let mut names = Vec::new();
    for line in lines {
        if !line.iter().any(|n| is_element(*n, "code", Some("returnvalue"))) {
            continue;
        }
        if let Some(operator) = operator_name(&line) {
            names.push((nfc(&operator), "Operator"));
        } else if let Some(function) = line.first().filter(|n| is_element(**n, "code", Some("function"))) {
            let text = text_of(*function);
            let name = text.trim();
            if useful(name) {
                names.push((nfc(name), "Function"));
            }
        }
    }
    names
}

/// The children of `node` that show something: elements other than empty
/// anchors, and text other than whitespace.
fn meaningful(node: NodeRef<'_, Node>) -> Vec<NodeRef<'_, Node>> {
    node.children()
        .filter(|c| match c.value() {
            Node::Text(t) => !t.trim().is_empty(),
            Node::Element(e) => !(e.name() == "a" && text_of(*c).trim().is_empty()),
            _ => false,
        })
        .collect()
}

/// The operator a signature starts with: a `<code class="literal">` after
/// an operand (a type or a placeholder) or before one, with no other text
/// between them.
fn operator_name(leading: &[NodeRef<'_, Node>]) -> Option<String> {
    let operand = |n: &NodeRef<'_, Node>| {
        is_element(*n, "code", Some("type")) || is_element(*n, "em", Some("replaceable"))
    };
    let literal = |n: &NodeRef<'_, Node>| is_element(*n, "code", Some("literal"));
    let op = match leading {
        [a, b, ..] if operand(a) && literal(b) => b,
        [a, b, ..] if literal(a) && operand(b) => a,
        _ => return None,
    };
    let name = text_of(*op);
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    (!name.is_empty() && name.len() <= MAX_NAME_BYTES).then_some(name)
}

/// True for a cell that says something in words: three or more, or four
/// CJK chars (a description, not another name).
fn describes(cell: NodeRef<'_, Node>) -> bool {
    let text = text_of(cell);
    text.split_whitespace().count() >= 3 || text.chars().filter(|&c| crate::script::is_cjk(c)).count() >= 4
}

/// The names a section heading is: the one `<code>` it is made of (see
/// [`heading_name`]), or the options it lists and nothing else, as a
/// manual page's subsections do (`-p, --program`, `--protocol=family, -A`;
/// see [`option_heading_names`]).
fn heading_names(heading: NodeRef<'_, Node>) -> Vec<(String, &'static str)> {
    match heading_name(heading) {
        // (`<code>-f, --force</code>` lists two.)
        Some((name, kind)) => {
            let options = option_heading_names(&name);
            if options.is_empty() { vec![(name, kind)] } else { options }
        }
        None => option_heading_names(&text_of(heading)),
    }
}

/// The options a heading's text lists and is made of, past its number and
/// its permalink (`-p, --program`, `--protocol=family, -A`, `3.2. -o
/// file`), each with at most one argument after it; none for a heading
/// that says more (`--default-signal[=SIG] usage`, `-S/--split-string
/// usage in scripts`).
pub(crate) fn option_heading_names(text: &str) -> Vec<(String, &'static str)> {
    let text = text.trim().trim_end_matches(['¶', '#', '§']).trim();
    let text = match text.split_once(char::is_whitespace) {
        Some((number, rest)) if number.chars().all(|c| c.is_ascii_digit() || c == '.') => rest.trim(),
        _ => text,
    };
    if !text.starts_with('-') || text.len() > MAX_NAME_BYTES * 2 {
        return Vec::new();
    }
    let mut names = Vec::new();
    for part in text.split([',', '|']).map(str::trim) {
        let dashes = part.len() - part.trim_start_matches('-').len();
        let body: String = part[dashes..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .collect();
        let argument = &part[dashes + body.len()..];
        if !(1..=2).contains(&dashes)
            || !body.starts_with(char::is_alphanumeric)
            || argument.split_whitespace().count() > 1
            || !(argument.is_empty() || argument.starts_with(['=', '[', ' ', '<']))
        {
            return Vec::new();
        }
        let name = format!("{}{body}", &part[..dashes]);
        if useful(&name) {
            names.push((name, "Option"));
        }
    }
    names
}

/// Longest type written after a name in a heading (`(Array | Object)`).
const MAX_TYPE_BYTES: usize = 60;

/// The name a heading made of a name in code and at most its type after it
/// is (`redact` with ` (Array | Object):`, `level` with ` (String)`,
/// `all` alone): the code, when it is a name (letters, digits, `_`, `$`,
/// `.`, `-` inside) and what follows is nothing, a colon, or a type in
/// parentheses; None for a heading that says more (`` `npm install` in
/// depth ``).
pub(crate) fn typed_name(code: &str, rest: &str) -> Option<String> {
    let code = code.trim();
    let named = code.starts_with(|c: char| c.is_alphabetic() || matches!(c, '_' | '$'))
        && code.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | '-'))
        && !code.ends_with(['.', '-']);
    let rest = rest.trim().trim_end_matches(':').trim_end();
    let typed = rest.is_empty()
        || rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')).is_some_and(|t| {
            !t.trim().is_empty()
                && t.len() <= MAX_TYPE_BYTES
                && !t.contains(['(', ')'])
                && t.chars().all(|c| c.is_alphanumeric() || " |,.<>[]_".contains(c))
        });
    (named && typed && useful(code)).then(|| nfc(code))
}

/// The name a section heading is, when it is nothing but one `<code>`
/// (past its number and its permalink; with the name's type after it, see
/// [`typed_name`]): `8.11.2. <code
/// class="type">tsquery</code>`, `9.4.1. <code
/// class="function">format</code>`; a function's argument list is left out.
fn heading_name(heading: NodeRef<'_, Node>) -> Option<(String, &'static str)> {
    let mut code = None;
    for child in heading.children() {
        match child.value() {
            Node::Text(t) => {
                let t = t.trim();
                let number = t.contains(|c: char| c.is_ascii_digit())
                    && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '.');
                // (Or the name's type after it: `<code>redact</code> (Array | Object):`.)
                let typed = code.is_some_and(|(c, _)| typed_name(&text_of(c), t).is_some());
                if !t.is_empty() && !number && !typed {
                    return None;
                }
            }
            Node::Element(e) if e.name() == "a" && matches!(text_of(child).trim(), "" | "#" | "¶" | "§") => {
            }
            Node::Element(e) if e.name() == "code" && code.is_none() => code = Some((child, e)),
            Node::Element(_) => return None,
            _ => {}
        }
    }
    let (code, el) = code?;
    let kind =
        HEADING_CLASSES.iter().find(|(class, _)| el.classes().any(|k| k == *class)).map_or("Entry", |k| k.1);
    let text = text_of(code);
    let name = text.split('(').next().unwrap_or("").trim();
    useful(name).then(|| (nfc(name), kind))
}

/// True for a name worth a symbol: not too long (a whole sentence in a
/// `<code>` is not a name) and holding a letter or a digit.
fn useful(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_NAME_BYTES && name.chars().any(char::is_alphanumeric)
}

/// True for a term that refers to a name defined elsewhere: one in a "See
/// also" block (numpydoc's `div.seealso`), or a cross-reference
/// (Sphinx's `<code class="xref">pd.read_csv</code>`).
fn refers(term: NodeRef<'_, Node>) -> bool {
    let seealso =
        term.ancestors().filter_map(|a| a.value().as_element()).any(|e| e.classes().any(|c| c == "seealso"));
    seealso
        || term
            .descendants()
            .any(|d| d.value().as_element().is_some_and(|e| e.classes().any(|c| c == "xref")))
}

/// True when all the text of `node` lies inside links (`<a href>`) and
/// there is some.
fn only_links(node: NodeRef<'_, Node>) -> bool {
    // (A link to the term itself, mandoc's `<dt id="x"><a class="permalink"
    // href="#x">`, leads nowhere else.)
    let own = node.value().as_element().and_then(|e| e.id()).map(|id| format!("#{id}"));
    let in_link = |text: NodeRef<'_, Node>| {
        text.ancestors().take_while(|a| a.id() != node.id()).any(|a| {
            a.value()
                .as_element()
                .is_some_and(|e| e.name() == "a" && e.attr("href").is_some_and(|h| own.as_deref() != Some(h)))
        })
    };
    let mut texts = node.descendants().filter(|d| d.value().as_text().is_some_and(|t| !t.trim().is_empty()));
    let mut any = false;
    texts.all(|t| {
        any = true;
        in_link(t)
    }) && any
}

fn text_of(node: NodeRef<'_, Node>) -> String {
    node.descendants().filter_map(|d| d.value().as_text().map(|t| &**t)).collect()
}

#[cfg(test)]
mod tests {
    use crate::html_to_page;
    use crate::page::Page;

    /// Each symbol of a page as (name, kind, anchor).
    fn named(page: &Page) -> Vec<(&str, &str, Option<&str>)> {
        page.symbols.iter().map(|s| (s.name.as_str(), s.kind.as_str(), s.anchor.as_deref())).collect()
    }

    #[test]
    fn plain_option_and_setting_terms_become_symbols() {
        let html = r#"<html><body><h1>git-commit(1)</h1>
<div class="sect1"><h2 id="_options">OPTIONS</h2><div class="dlist"><dl>
<dt class="hdlist1">-a</dt><dt class="hdlist1">--all</dt><dd><p>Stage files.</p></dd>
<dt class="hdlist1">-c &lt;commit&gt;, --reedit-message=&lt;commit&gt;</dt><dd><p>Like -C.</p></dd>
<dt class="hdlist1">--amend</dt><dd><p>Replace the tip.</p></dd>
<dt class="hdlist1">--untracked-files[=&lt;mode&gt;]</dt><dd><p>Show.</p></dd>
<dt class="hdlist1">--[no-]verify</dt><dd><p>Hooks.</p></dd>
<dt class="hdlist1">-&lt;number&gt;</dt><dd><p>Not a name.</p></dd>
</dl></div></div>
<div class="sect1"><h2 id="_configuration">CONFIGURATION</h2><div class="dlist"><dl>
<dt class="hdlist1">core.autocrlf</dt><dd><p>Line endings.</p></dd>
<dt class="hdlist1">Return value</dt><dd><p>Words are not names.</p></dd>
<dt class="hdlist1">--</dt><dd><p>Nor is a bare separator.</p></dd>
<dt><a href="mod_rewrite.html">mod_rewrite</a></dt><dd><p>A link names what is defined there.</p></dd>
<dt><code><a href="index.html#opt">--opt</a></code></dt><dd><p>So does a link to an entry.</p></dd>
</dl></div>
<div class="admonition seealso"><p class="admonition-title">See also</p><dl class="simple">
<dt><code class="xref py py-obj docutils literal notranslate"><span class="pre">pd.read_table</span></code></dt><dd><p>A reference, not a definition.</p></dd>
<dt>core.editor</dt><dd><p>Nor is any term of a See also block.</p></dd></dl></div>
<dl><dt><code class="xref">os.path_sep</code></dt><dd><p>Nor a cross-reference anywhere.</p></dd></dl></div></body></html>"#;
        let page = html_to_page(html.as_bytes(), "git-commit.html", "/git").unwrap();
        let got = named(&page);
        let opts = Some("_options");
        assert_eq!(
            got,
            [
                ("-a", "Option", opts),
                ("--all", "Option", opts),
                ("-c", "Option", opts),
                ("--reedit-message", "Option", opts),
                ("--amend", "Option", opts),
                ("--untracked-files", "Option", opts),
                ("--no-verify", "Option", opts),
                ("--verify", "Option", opts),
                ("core.autocrlf", "Entry", Some("_configuration")),
            ]
        );
    }

    #[test]
    fn pod_entries_name_their_first_word() {
        let html = r#"<html><head><title>perlfunc - Perl builtin functions</title></head><body>
<h1 id="NAME">NAME</h1><p>perlfunc - Perl builtin functions</p>
<h2 id="Alpha">Alphabetical Listing of Perl Functions</h2><dl>
<dt id="Functions-for-SCALARs-or-strings">Functions for SCALARs or strings</dt><dd><p>A category.</p></dd>
<dt id="fork">fork</dt><dd><p>Does a fork(2) system call.</p></dd>
<dt id="fileno-FILEHANDLE">fileno FILEHANDLE</dt><dd><p>Returns the file descriptor.</p></dd>
<dt id="split-PATTERN-EXPR-LIMIT">split /PATTERN/,EXPR,LIMIT</dt><dd><p>Splits a string.</p></dd>
<dt id="pod-_">$_</dt><dd><p>The default input.</p></dd>
<dt id="ARGV">@ARGV</dt><dd><p>The arguments.</p></dd>
<dt id="qw-STRING">qw/STRING/</dt><dd><p>Quotes words.</p></dd>
<dt id="tr-SEARCHLIST-REPLACEMENTLIST-cdsr">tr/SEARCHLIST/REPLACEMENTLIST/cdsr</dt><dd><p>Transliterates.</p></dd>
<dt>wantarray</dt><dd><p>No id, no name.</p></dd>
</dl><dl class="glossary"><dt id="term-iterable">iterable</dt><dd><p>A glossary term.</p></dd></dl></body></html>"#;
        let page = html_to_page(html.as_bytes(), "perlfunc.html", "/perl").unwrap();
        let names: Vec<&str> = named(&page).into_iter().map(|(name, _, _)| name).collect();
        // (The NAME line names the page.)
        assert_eq!(
            names,
            [
                "perlfunc",
                "fork",
                "fileno",
                "fileno-FILEHANDLE",
                "split",
                "split-PATTERN-EXPR-LIMIT",
                "$_",
                "pod-_",
                "@ARGV",
                "ARGV",
                "qw",
                "qw-STRING",
                "tr",
                "tr-SEARCHLIST-REPLACEMENTLIST-cdsr"
            ]
        );
    }

    #[test]
    fn a_glossary_page_names_nothing_and_a_contents_page_is_a_listing() {
        let page = |title: &str| {
            let html = format!(
                "<html><head><title>{title}</title></head><body><h1 id=\"NAME\">NAME</h1><p>{title}</p>\
                 <h1 id=\"L\">L</h1><dl><dt id=\"local\">local</dt><dd><p>Makes a variable local.</p></dd></dl></body></html>"
            );
            html_to_page(html.as_bytes(), "p.html", "/perl").unwrap()
        };
        let glossary = page("perlglossary - Perl Glossary");
        assert!(!named(&glossary).iter().any(|(name, _, _)| *name == "local"), "{:?}", named(&glossary));
        assert!(!glossary.listing);
        let contents = page("perltoc - perl documentation table of contents");
        assert!(contents.listing);
        let reference = page("perlfunc - Perl builtin functions");
        assert!(named(&reference).iter().any(|(name, _, _)| *name == "local"), "{:?}", named(&reference));
        assert!(!reference.listing);
    }

    #[test]
    fn a_heading_listing_options_names_them_and_one_saying_more_does_not() {
        // As mandoc writes a page whose options are subsections (`.SS`).
        let html = r#"<html><head><title>NETSTAT(8)</title></head><body>
<section class="Sh"><h1 class="Sh" id="OPTIONS">OPTIONS</h1>
<section class="Ss"><h2 class="Ss">-p, --program</h2><p>Show the PID of each socket's program.</p></section>
<section class="Ss"><h2 class="Ss">--protocol=family, -A</h2><p>Family.</p></section>
<section class="Ss"><h2 class="Ss">3.1. -o file</h2><p>Output.</p></section>
<section class="Ss"><h2 class="Ss">--default-signal[=SIG] usage</h2><p>Usage.</p></section>
<section class="Ss"><h2 class="Ss">-S/--split-string usage in scripts</h2><p>Scripts.</p></section>
<section class="Ss"><h2 class="Ss">-v: verbose</h2><p>Not a list of options.</p></section>
</section></body></html>"#;
        let page = html_to_page(html.as_bytes(), "netstat.8.html", "/man").unwrap();
        let anchor_of =
            |title: &str| page.sections.iter().find(|s| s.title == title).and_then(|s| s.anchor.clone());
        let program = anchor_of("-p, --program");
        let protocol = anchor_of("--protocol=family, -A");
        let output = anchor_of("3.1. -o file");
        assert!(program.is_some() && protocol.is_some() && output.is_some(), "{:?}", page.sections);
        let options: Vec<(&str, &str, Option<&str>)> =
            named(&page).into_iter().filter(|(name, _, _)| name.starts_with('-')).collect();
        assert_eq!(
            options,
            [
                ("-p", "Option", program.as_deref()),
                ("--program", "Option", program.as_deref()),
                ("--protocol", "Option", protocol.as_deref()),
                ("-A", "Option", protocol.as_deref()),
                ("-o", "Option", output.as_deref()),
            ]
        );
    }

    #[test]
    fn a_heading_naming_a_name_in_code_and_its_type_names_it() {
        let html = r#"<html><head><title>API</title></head><body><h1>API</h1><p>Top.</p>
<h4 id="redact"><code>redact</code> (Array | Object):</h4><p>Redact.</p>
<h4 id="level"><code>level</code> (String)</h4><p>Level.</p>
<h4 id="install"><code>npm install</code> in depth</h4><p>More.</p>
<h4 id="uses"><code>level</code> and its uses</h4><p>More.</p></body></html>"#;
        let page = html_to_page(html.as_bytes(), "api.html", "/pino").unwrap();
        assert_eq!(named(&page), [("redact", "Entry", Some("redact")), ("level", "Entry", Some("level"))]);
    }

    #[test]
    fn backslash_command_terms_become_symbols_with_their_modifiers() {
        let html = r#"<html><body><h1>psql</h1>
<div class="refsect1"><h2 id="META">Meta-Commands</h2><div class="variablelist"><dl class="variablelist">
<dt id="M-COPY"><span class="term"><code class="literal">\copy { <em class="replaceable"><code>table</code></em> }</code></span></dt><dd><p>Copy.</p></dd>
<dt id="M-D"><span class="term"><code class="literal">\d[Sx+] [ <em class="replaceable"><code>pattern</code></em> ]</code></span></dt><dd><p>Describe.</p></dd>
<dt><span class="term"><code class="literal">off</code></span></dt><dd><p>A value is no name.</p></dd>
<dt><span class="term"><code class="literal">\</code></span></dt><dd><p>Nor is a backslash alone.</p></dd>
</dl></div></div>
<div class="sect1"><h2 id="plain">Plain</h2><dl><dt>\timing [ on | off ]</dt><dd><p>Time.</p></dd></dl></div></body></html>"#;
        let page = html_to_page(html.as_bytes(), "app-psql.html", "/pg").unwrap();
        let meta = Some("META");
        assert_eq!(
            named(&page),
            [
                ("\\copy", "Command", meta),
                ("M-COPY", "Command", meta),
                ("\\d", "Command", meta),
                ("\\dS", "Command", meta),
                ("\\dx", "Command", meta),
                ("\\d+", "Command", meta),
                ("M-D", "Command", meta),
                ("\\timing", "Command", Some("plain")),
            ]
        );
    }

    #[test]
    fn settings_and_options_become_symbols_of_their_section() {
        let html = r#"<html><body><div class="sect1" id="CONFIG">
<h2 class="title">20.4. Resource Consumption</h2>
<p>Intro.</p>
<div class="sect2" id="CONFIG-MEMORY"><h3 class="title">20.4.1. Memory</h3>
<div class="variablelist"><dl class="variablelist">
<dt id="GUC-WORK-MEM"><span class="term"><code class="varname">work_mem</code> (<code class="type">integer</code>)</span></dt>
<dd><p>Sets the base maximum amount of memory.</p></dd>
</dl></div></div>
<div class="sect2" id="OPTS"><h3 class="title">Options</h3>
<dl><dt><span class="term"><code class="option">-a</code><br></span><span class="term"><code class="option">--data-only</code></span></dt>
<dd><p>Dump only the data.</p></dd>
<dt><span class="term"><code class="option">--format=<em class="replaceable"><code>format</code></em></code></span></dt><dd><p>f</p></dd>
<dt><span class="term"><em class="replaceable"><code>dbname</code></em></span></dt><dd><p>not a name</p></dd>
</dl></div></div></body></html>"#;
        let page = html_to_page(html.as_bytes(), "config.html", "/pg").unwrap();
        let got = named(&page);
        assert_eq!(
            got,
            [
                ("work_mem", "Setting", Some("CONFIG-MEMORY")),
                ("GUC-WORK-MEM", "Setting", Some("CONFIG-MEMORY")),
                ("-a", "Option", Some("OPTS")),
                ("--data-only", "Option", Some("OPTS")),
                ("--format", "Option", Some("OPTS")),
            ]
        );
        assert!(page.sections.iter().any(|s| s.anchor.as_deref() == Some("CONFIG-MEMORY")));
        // A term with an id of its own is its names' entry; one without
        // gives none.
        let entries: Vec<Option<&str>> = page.symbols.iter().map(|s| s.entry.as_deref()).collect();
        assert_eq!(entries, [Some("GUC-WORK-MEM"), Some("GUC-WORK-MEM"), None, None, None]);
    }

    #[test]
    fn names_tables_list_items_headings_and_synopses_define_become_symbols_of_their_section() {
        let html = r#"<html><body><div class="sect1" id="FUNCS">
<h2 class="title">9.12. Network Address Functions</h2>
<div class="table"><table><thead><tr><th><p class="func_signature">Function</p></th><th>Description</th></tr></thead>
<tbody><tr><td class="func_table_entry"><p class="func_signature"><a id="id-1"></a>
<code class="function">abbrev</code> ( <code class="type">inet</code> ) → <code class="returnvalue">text</code></p>
<p>Creates an abbreviated display format as text.</p></td></tr>
<tr><td><code class="type">inet</code> <code class="literal">&lt;&lt;</code> <code class="type">inet</code></td><td>Is subnet strictly contained by subnet?</td></tr>
<tr><td class="func_table_entry"><p class="func_signature"><em class="replaceable"><code>datatype</code></em> <code class="literal">IS NOT
NULL</code> → <code class="returnvalue">boolean</code></p><p>Test whether value is not null.</p></td></tr>
<tr><td><code class="literal">NOT</code> <code class="type">boolean</code> → <code class="returnvalue">boolean</code></td><td>Logical negation.</td></tr>
<tr><td><code class="type">boolean</code> → <code class="returnvalue">boolean</code></td><td>an operand and no operator</td></tr>
<tr><td><code class="literal">on</code></td><td>a literal value, not a name</td></tr>
<tr><td><a href="x.html">Prev</a></td><td>navigation</td></tr>
</tbody></table></div></div>
<div class="sect1" id="PSEUDO"><h2 class="title">8.21. Pseudo-Types</h2>
<table><tr><td><code class="type">anyelement</code></td><td>Indicates that a function accepts any data type.</td></tr>
<tr><td><code class="type">integer</code> or <code class="type">int</code></td><td>two names, not a list of one type's names</td></tr>
<tr><td><code class="type">character varying(<em class="replaceable"><code>n</code></em>)</code>, <code class="type">varchar(<em class="replaceable"><code>n</code></em>)</code></td><td>variable-length with limit</td></tr>
<tr><td><code class="type">timestamp [ (<em class="replaceable"><code>p</code></em>) ] with time zone</code></td><td><code class="type">timestamptz</code></td><td>date and time, including time zone</td></tr>
<tr><td><code class="type">bytea</code></td><td><code class="type">binary</code></td><td>data</td></tr></table>
<table><tr><th>SQL Type</th><th>C Type</th></tr><tr><td><code class="type">interval</code></td><td><code class="type">Interval*</code></td></tr></table>
<div class="sect2" id="DATATYPE-TSQUERY"><h3 class="title">8.11.2. <code class="type">tsquery</code> <a href="functions.html#DATATYPE-TSQUERY" class="id_link">#</a></h3><p>A tsquery value stores lexemes.</p></div>
<div class="sect2" id="FUNCS-FORMAT"><h3 class="title">9.4.1. <code class="function">format(text)</code></h3><p>Formats arguments.</p></div>
<div class="sect2" id="MIXED"><h3 class="title">9.4.2. Using <code class="function">format</code></h3><p>Not a name alone.</p></div>
<ul><li><p><code class="envar">PGHOST</code> behaves the same as the host connection parameter.</p></li>
<li><p><code class="varname">work_mem</code> is mentioned here, not defined.</p></li>
<li><code>CARGO_TARGET_DIR</code> — Location of where to place all generated artifacts.</li>
<li><code>--locked</code>: Asserts that the exact same dependencies are used.</li>
<li><code>cargo build</code> — two words, no one name.</li>
<li><code>shared_buffers</code> and more, mentioned in passing.</li>
<li><p><code>schema</code>: schemas, a kind of object the filter names.</p></li></ul>
<pre class="synopsis">
<code class="type">boolean</code> <code class="literal">OR</code> <code class="type">boolean</code> → <code class="returnvalue">boolean</code>
<code class="literal">NOT</code> <code class="type">boolean</code> → <code class="returnvalue">boolean</code>
<code class="function">lag</code> ( <code class="type">anycompatible</code> ) → <code class="returnvalue">anycompatible</code>
</pre>
<pre class="synopsis">ALTER TABLE <em class="replaceable"><code>name</code></em> <code class="literal">RENAME</code> <em class="replaceable"><code>a</code></em></pre>
</div></body></html>"#;
        let page = html_to_page(html.as_bytes(), "functions.html", "/pg").unwrap();
        let got = named(&page);
        assert_eq!(
            got,
            [
                ("abbrev", "Function", None),
                ("<<", "Operator", None),
                ("IS NOT NULL", "Operator", None),
                ("NOT", "Operator", None),
                ("anyelement", "Type", Some("PSEUDO")),
                ("character varying", "Type", Some("PSEUDO")),
                ("varchar", "Type", Some("PSEUDO")),
                ("timestamp with time zone", "Type", Some("PSEUDO")),
                ("timestamptz", "Type", Some("PSEUDO")),
                ("tsquery", "Type", Some("DATATYPE-TSQUERY")),
                ("format", "Function", Some("FUNCS-FORMAT")),
                ("PGHOST", "Environment", Some("MIXED")),
                ("CARGO_TARGET_DIR", "Name", Some("MIXED")),
                ("--locked", "Name", Some("MIXED")),
                ("OR", "Operator", Some("MIXED")),
                ("NOT", "Operator", Some("MIXED")),
                ("lag", "Function", Some("MIXED")),
            ]
        );
    }
}
