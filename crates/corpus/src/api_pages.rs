//! The names an API reference page declares where its generator marks
//! them by kind and by id rather than in definition lists: the page's own
//! subject, from a title that says its kind (`Interface ParseOptions<T>`,
//! `Class: Rack::Request`, `Module: ControlFlow`), and its members, each at
//! its anchor, qualified by that subject: TypeDoc's member headings
//! (`<section class="tsd-member"><h3 id>`), JSDoc's (`<h4 class="name"
//! id=".retry">`) and YARD's (`<h3 class="signature"
//! id="escape-class_method">`, a constant's `<dt id="X-constant">`),
//! ocamldoc's (`<pre><span id="VALgcd">` on module `Z`'s page) and
//! mkdocstrings' (a heading's id, `mkdocstrings.BaseHandler.md`); and
//! entries that are no headings: pydoctor's (`<div
//! class="functionHeader">`) and Scaladoc's (`<li name="scala.Option#getOrElse">`).

use ego_tree::NodeRef;
use scraper::{ElementRef, Node};

use crate::page::Symbol;
use crate::tags::has_class;
use crate::text::{collapse_whitespace, nfc};

/// The kinds a reference page's title may open with, before its subject's
/// name (with a colon after them or not).
const KINDS: [&str; 18] = [
    "Class",
    "Interface",
    "Module",
    "Namespace",
    "Enumeration",
    "Enum",
    "Type Alias",
    "Struct",
    "Trait",
    "Mixin",
    "Protocol",
    "Exception",
    "Function",
    "Variable",
    "Constant",
    "Package",
    "Record",
    "Annotation Type",
];

/// Names after a kind that say what kind of page it is, not which thing
/// ("Class Reference", "Module Index").
const NOT_SUBJECTS: [&str; 11] = [
    "reference",
    "index",
    "hierarchy",
    "list",
    "overview",
    "summary",
    "members",
    "details",
    "documentation",
    "tree",
    "diagram",
];

/// Most members read from one page.
const MAX_MEMBERS: usize = 2000;

/// The name of what a page titled by its kind and a name is about
/// (`Interface ParseOptions<DateType>` → `ParseOptions`, `Class:
/// Rack::Request` → `Rack::Request`), also after a site's name (`JSDoc:
/// Module: ControlFlow`); None for any other title.
pub(crate) fn subject(title: &str) -> Option<&str> {
    let title = title.trim();
    kind_subject(title).or_else(|| kind_subject(title.split_once(": ")?.1.trim()))
}

/// [`subject`] of a title that starts with the kind.
fn kind_subject(title: &str) -> Option<&str> {
    let rest = KINDS.iter().find_map(|kind| {
        let rest = title.strip_prefix(kind)?;
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        rest.starts_with(' ').then(|| rest.trim())
    })?;
    // Type parameters are no part of the name.
    let name = rest.split('<').next().unwrap_or(rest).trim_end();
    let named = !name.is_empty()
        && name.chars().any(|c| c.is_alphanumeric() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || "_$.:".contains(c))
        && !NOT_SUBJECTS.contains(&name.to_lowercase().as_str());
    named.then_some(name)
}

/// The subject of a page titled by it ([`subject`]) at the page's top,
/// and the members its generator marks (see the module doc), each once.
pub(crate) fn symbols(root: NodeRef<'_, Node>, title: &str, doc_title: Option<&str>) -> Vec<Symbol> {
    let owner = subject(title);
    // Scaladoc's `<title>` ends with the page's whole name (`Option - Scala
    // Standard Library 2.11.12 - scala.Option`).
    let entity = doc_title.and_then(|t| t.rsplit_once(" - ")).map(|(_, e)| e.trim());
    let mut symbols: Vec<Symbol> = Vec::new();
    // (How many there are after it.)
    let mut push = |name: String, anchor: Option<&str>| {
        let name = nfc(&name);
        if !name.is_empty() && name.len() <= 200 && !symbols.iter().any(|s| s.name == name) {
            symbols.push(Symbol {
                name,
                kind: "Entry".to_owned(),
                anchor: anchor.map(str::to_owned),
                entry: None,
            });
        }
        symbols.len()
    };
    // (A subject written as a word, `Class Option`, is named once a member
    // shows the page is a reference's: see `code_like`.)
    let sure = owner.is_some_and(|o| code_like(o, title));
    if let Some(owner) = owner.filter(|_| sure) {
        push(owner.to_owned(), None);
    }
    // ocamldoc titles a module's page by its name alone (`Z`, `BatList`).
    let module = module_title(title);
    for node in root.descendants().take(200_000) {
        let Some(el) = ElementRef::wrap(node) else { continue };
        if let Some((name, anchor)) = pydoctor_entry(el).or_else(|| scaladoc_entry(el, entity)) {
            if push(name, Some(&anchor)) >= MAX_MEMBERS {
                break;
            }
            continue;
        }
        let Some(id) = el.value().id().filter(|id| !id.is_empty()) else { continue };
        let Some((name, member)) = member(el, id) else { continue };
        let owner = owner.or_else(|| matches!(member, Member::Value).then_some(module).flatten());
        let mut count = 0;
        // Qualified by the page's subject (`ParseOptions.weekStartsOn`,
        // `Rack::Utils.escape`, `Rack::Request#params`): typed alone, the
        // name finds it below anything of that very name (the function
        // `getDate` before the method `ConstructableDate.getDate`).
        if let Some(owner) = owner.filter(|_| !matches!(member, Member::Whole)) {
            if let Member::Constructor = member {
                push(format!("{owner}.new"), Some(id));
            }
            count = push(format!("{owner}{}{name}", member.separator()), Some(id));
        }
        // A module's function as JSDoc heads it is also named bare, as
        // code calls it on whatever the module was imported as
        // (`async.retry` for ControlFlow's `retry`).
        if member.bare() || owner.is_none() {
            count = push(name, Some(id));
        }
        if count >= MAX_MEMBERS {
            break;
        }
    }
    if let Some(owner) = owner.filter(|_| !sure && !symbols.is_empty()) {
        symbols.insert(0, Symbol { name: nfc(owner), kind: "Entry".to_owned(), anchor: None, entry: None });
    }
    symbols
}

/// True for a subject written as code rather than as a word a title of
/// prose could hold ("Exception Handling", "Function Overloading"): a
/// colon after the kind (`Class: Rack::Request`), type parameters
/// (`Interface Interval<StartType, EndType>`), a two-word kind (`Type
/// Alias Day`), or a name that starts lower-case (`Function format`), has
/// a capital inside (`ParseOptions`) or a `_`, `$`, digit or separator.
fn code_like(name: &str, title: &str) -> bool {
    let rest = title.trim();
    let kind = KINDS.iter().filter(|k| rest.contains(*k)).max_by_key(|k| k.len()).copied().unwrap_or("");
    rest.contains(&format!("{kind}: "))
        || rest.contains('<')
        || kind.contains(' ')
        || name.starts_with(|c: char| c.is_lowercase())
        || name.chars().skip(1).any(char::is_uppercase)
        || name.chars().any(|c| c.is_ascii_digit() || "_$.:".contains(c))
}

/// What ocamldoc's ids start with, by kind (`VALmap`, `TYPEt`,
/// `EXCEPTIONOverflow`), longest first where one starts another.
const OCAMLDOC_KINDS: [&str; 9] =
    ["MODULETYPE", "CLASSTYPE", "EXCEPTION", "ATTRIBUTE", "METHOD", "MODULE", "CLASS", "TYPE", "VAL"];

/// A title that is a module's name alone (ocamldoc's `Z`, `BatList.Labels`).
fn module_title(title: &str) -> Option<&str> {
    let title = title.trim();
    (title.starts_with(|c: char| c.is_ascii_uppercase())
        && title.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.'))
    .then_some(title)
}

/// Scaladoc's member: an `<li name="scala.Option#getOrElse">` opening with
/// the ids links land on, named by its `name` at the first of them; not
/// one the page's `entity` inherits (`scala.Option#getOrElse` on
/// `scala.None`'s page), which its owner's page names.
fn scaladoc_entry(el: ElementRef<'_>, entity: Option<&str>) -> Option<(String, String)> {
    if el.value().name() != "li" {
        return None;
    }
    let name = el.value().attr("name").filter(|n| n.contains(['#', '.']) && is_name(n))?;
    let owner = name.rsplit_once('#').map(|(o, _)| o);
    if let (Some(owner), Some(entity)) = (owner, entity)
        && owner != entity
    {
        return None;
    }
    let anchor = el
        .children()
        .filter_map(ElementRef::wrap)
        .take_while(|a| a.value().name() == "a")
        .find_map(|a| a.value().id())?;
    Some((name.to_owned(), anchor.to_owned()))
}

/// How a member is joined to what it belongs to.
enum Member {
    /// `Owner.name`: a property, a static or class method.
    Dotted,
    /// `Owner.name`, and `name` alone: a module's function (JSDoc).
    Function,
    /// `Owner#name`: a Ruby instance method.
    Instance,
    /// Ruby's `initialize`, also called as `Owner.new`.
    Constructor,
    /// `Owner::NAME`: a Ruby constant.
    Constant,
    /// `Module.name`: an OCaml value, type or module (ocamldoc).
    Value,
    /// A name the page declares whole (mkdocstrings' heading ids).
    Whole,
}

impl Member {
    fn separator(&self) -> &'static str {
        match self {
            Member::Dotted | Member::Function | Member::Value | Member::Whole => ".",
            Member::Instance | Member::Constructor => "#",
            Member::Constant => "::",
        }
    }

    fn bare(&self) -> bool {
        matches!(self, Member::Function | Member::Whole)
    }
}

/// The name a member's heading (or term) declares, and how it is joined
/// to its owner; None for any other element.
fn member(el: ElementRef<'_>, id: &str) -> Option<(String, Member)> {
    let e = el.value();
    match e.name() {
        // YARD: the id says the name and the kind.
        "h3" if has_class(e, "signature") => {
            if let Some(name) = id.strip_suffix("-class_method") {
                return Some((name.to_owned(), Member::Dotted));
            }
            let name = id.strip_suffix("-instance_method")?;
            let kind = if name == "initialize" { Member::Constructor } else { Member::Instance };
            Some((name.to_owned(), kind))
        }
        "dt" => Some((id.strip_suffix("-constant").filter(|n| is_name(n))?.to_owned(), Member::Constant)),
        // TypeDoc: the member's name, its badges (`Optional`) left out.
        "h3" if has_class(e, "tsd-anchor-link") && in_member_section(el) => {
            let name: String = el
                .children()
                .filter_map(ElementRef::wrap)
                .find(|c| c.value().name() == "span")?
                .text()
                .collect();
            let name = collapse_whitespace(&name);
            is_name(&name).then_some((name, Member::Dotted))
        }
        // ocamldoc: the id says the kind and the name.
        "span" if el.parent().and_then(|p| p.value().as_element()).is_some_and(|p| p.name() == "pre") => {
            let name = OCAMLDOC_KINDS.iter().find_map(|k| id.strip_prefix(k))?;
            is_name(name).then(|| (name.to_owned(), Member::Value))
        }
        // mkdocstrings: a heading's id is the object's whole name.
        h if h.len() == 2 && h.starts_with('h') && has_class(e, "doc-heading") => {
            let whole = id.contains('.') && id.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
            whole.then(|| (id.to_owned(), Member::Whole))
        }
        // JSDoc: the heading's own text, between its attributes
        // (`(static)`) and its signature.
        "h4" if has_class(e, "name") => {
            let own: String =
                el.children().filter_map(|c| c.value().as_text().map(|t| t.to_string())).collect();
            let name = collapse_whitespace(&own);
            is_name(&name).then_some((name, Member::Function))
        }
        _ => None,
    }
}

/// pydoctor's entry: a `<div class="functionHeader">` after the names it
/// declares (`<a name="attr.validators.and_"></a><a name="and_"></a>`),
/// as the longest of them, at the one its permalink points to.
fn pydoctor_entry(el: ElementRef<'_>) -> Option<(String, String)> {
    if el.value().name() != "div" || !has_class(el.value(), "functionHeader") {
        return None;
    }
    let names: Vec<&str> = el
        .prev_siblings()
        .filter_map(ElementRef::wrap)
        .take_while(|a| a.value().name() == "a")
        .filter_map(|a| a.value().attr("name"))
        .collect();
    let name = names.iter().max_by_key(|n| n.len()).filter(|n| is_name(n))?;
    let link = el
        .descendants()
        .filter_map(ElementRef::wrap)
        .find(|a| a.value().name() == "a" && has_class(a.value(), "headerLink"))
        .and_then(|a| a.value().attr("href")?.strip_prefix('#'));
    let anchor =
        link.filter(|l| names.contains(l)).or_else(|| names.iter().min_by_key(|n| n.len()).copied())?;
    Some(((*name).to_owned(), anchor.to_owned()))
}

/// True for a TypeDoc member's heading: in a `<section class="tsd-member">`.
fn in_member_section(el: ElementRef<'_>) -> bool {
    el.parent().and_then(|p| p.value().as_element().map(|e| has_class(e, "tsd-member"))).unwrap_or(false)
}

/// A name as code writes it: no spaces, at least one letter or `_`, at
/// most 100 bytes (`create_file`, `xhr?`, `[]`, `$MAX`, `weekStartsOn`).
fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && !name.contains(char::is_whitespace)
        && (name.chars().any(|c| c.is_alphanumeric() || c == '_') || name == "[]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    fn names(html: &str, title: &str) -> Vec<(String, Option<String>)> {
        let doc = Html::parse_document(html);
        symbols(doc.tree.root(), title, None).into_iter().map(|s| (s.name, s.anchor)).collect()
    }

    fn at(name: &str, anchor: Option<&str>) -> (String, Option<String>) {
        (name.to_owned(), anchor.map(str::to_owned))
    }

    #[test]
    fn a_title_naming_its_kind_names_the_page_subject() {
        assert_eq!(subject("Interface ParseOptions<DateType>"), Some("ParseOptions"));
        assert_eq!(subject("Class: Rack::Request"), Some("Rack::Request"));
        assert_eq!(subject("Module: ControlFlow"), Some("ControlFlow"));
        assert_eq!(subject("Type Alias Day"), Some("Day"));
        assert_eq!(subject("JSDoc: Module: ControlFlow"), Some("ControlFlow"));
        for none in
            ["Class Reference", "Module Index", "Classes", "Class hierarchy", "Functions and Operators"]
        {
            assert_eq!(subject(none), None, "{none}");
        }
        // A word after a kind names a subject only on a page of members.
        let prose = Html::parse_document("<h1>Exception Handling</h1><p>Catch them.</p>");
        assert!(symbols(prose.tree.root(), "Exception Handling", None).is_empty());
        let typedoc = Html::parse_document(
            r#"<section class="tsd-member"><h3 class="tsd-anchor-link" id="choices"><span>choices</span></h3></section>"#,
        );
        let found: Vec<String> =
            symbols(typedoc.tree.root(), "Class Option", None).into_iter().map(|s| s.name).collect();
        assert_eq!(found, ["Option", "Option.choices"]);
        for (title, name) in
            [("Function format", "format"), ("Type Alias Day", "Day"), ("Class: Utils", "Utils")]
        {
            assert!(code_like(name, title), "{title}");
        }
        assert!(!code_like("Handling", "Exception Handling"));
    }

    #[test]
    fn typedoc_members_are_named_in_their_interface_without_their_badges() {
        let html = r##"<h1>Interface ParseOptions&lt;DateType&gt;</h1>
            <section class="tsd-panel tsd-member"><h3 class="tsd-anchor-link" id="weekstartson"><code
            class="tsd-tag">Optional</code><span>week<wbr/>Starts<wbr/>On</span><a href="#weekstartson"
            class="tsd-anchor-icon"></a></h3></section>"##;
        assert_eq!(
            names(html, "Interface ParseOptions<DateType>"),
            [at("ParseOptions", None), at("ParseOptions.weekStartsOn", Some("weekstartson"))]
        );
    }

    #[test]
    fn jsdoc_members_are_named_bare_and_in_their_module() {
        let html = r#"<h4 class="name" id=".retry"><span class="type-signature">(static) </span>retry<span
            class="signature">(opts<span class="signature-attributes">opt</span>, task)</span><span
            class="type-signature"> → {Promise}</span></h4>"#;
        assert_eq!(
            names(html, "Module: ControlFlow"),
            [at("ControlFlow", None), at("ControlFlow.retry", Some(".retry")), at("retry", Some(".retry"))]
        );
    }

    #[test]
    fn yard_methods_and_constants_are_named_by_their_ids() {
        let html = r#"<dt id="FORM_DATA_MEDIA_TYPES-constant">FORM_DATA_MEDIA_TYPES =</dt>
            <h3 class="signature first" id="escape-class_method">.<strong>escape</strong>(s)</h3>
            <h3 class="signature" id="xhr?-instance_method">#<strong>xhr?</strong></h3>
            <h3 class="signature" id="initialize-instance_method">#<strong>initialize</strong>(app)</h3>"#;
        let found = names(html, "Module: Rack::Utils");
        for (name, anchor) in [
            ("Rack::Utils", None),
            ("Rack::Utils::FORM_DATA_MEDIA_TYPES", Some("FORM_DATA_MEDIA_TYPES-constant")),
            ("Rack::Utils.escape", Some("escape-class_method")),
            ("Rack::Utils#xhr?", Some("xhr?-instance_method")),
            ("Rack::Utils#initialize", Some("initialize-instance_method")),
            ("Rack::Utils.new", Some("initialize-instance_method")),
        ] {
            assert!(found.contains(&at(name, anchor)), "{name}: {found:?}");
        }
    }

    #[test]
    fn pydoctor_entries_are_named_by_their_longest_name_at_their_permalink() {
        let html = r##"<div class="basefunction"><a name="attr.validators.and_"></a> <a name="and_"></a>
            <div class="functionHeader"><span class="py-defname">and_</span>(*validators):
            <a class="headerLink" href="#and_">¶</a></div></div>"##;
        assert_eq!(names(html, "attr.validators"), [at("attr.validators.and_", Some("and_"))]);
    }

    #[test]
    fn ocamldoc_scaladoc_and_mkdocstrings_members_are_named() {
        let ocaml = r#"<h1>Module <a href="type_Z.html">Z</a></h1>
            <pre><span id="VALgcd"><span class="keyword">val</span> gcd</span> : t -> t -> t</pre>
            <pre><span id="TYPEt"><span class="keyword">type</span> t</span></pre><p><span id="VALUE">x</span></p>"#;
        assert_eq!(names(ocaml, "Z"), [at("Z.gcd", Some("VALgcd")), at("Z.t", Some("TYPEt"))]);
        let scala = r#"<li name="scala.Option#getOrElse" visbl="pub"><a id="getOrElse[B>:A](default:=>B):B"></a>
            <h4 class="signature">def getOrElse</h4></li>"#;
        assert_eq!(
            names(scala, "Option"),
            [at("scala.Option#getOrElse", Some("getOrElse[B>:A](default:=>B):B"))]
        );
        // Inherited, it is its owner's page's name.
        let doc = Html::parse_document(scala);
        let title = Some("None - Scala Standard Library 2.11.12 - scala.None");
        assert!(symbols(doc.tree.root(), "None", title).is_empty());
        let title = Some("Option - Scala Standard Library 2.11.12 - scala.Option");
        assert_eq!(symbols(doc.tree.root(), "Option", title).len(), 1);
        let mkdocs = r#"<h2 id="mkdocstrings.BaseHandler.md" class="doc doc-heading"><span>md</span></h2>
            <h3 id="usage" class="doc doc-heading">Usage</h3>"#;
        assert_eq!(
            names(mkdocs, "Class: BaseHandler"),
            [at("BaseHandler", None), at("mkdocstrings.BaseHandler.md", Some("mkdocstrings.BaseHandler.md"))]
        );
    }

    #[test]
    fn ids_of_other_headings_name_nothing() {
        let html =
            r#"<h3 id="usage">Usage</h3><dt id="term">A term</dt><h4 class="name" id="x">two words</h4>"#;
        assert!(names(html, "Getting started").is_empty());
        // A member on a page of no subject is named bare.
        let yard = r#"<h3 class="signature" id="escape-class_method">.escape(s)</h3>"#;
        assert_eq!(names(yard, "Top Level Namespace"), [at("escape", Some("escape-class_method"))]);
    }
}
