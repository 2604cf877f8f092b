//! Page paths: from a file's path inside the source to its full site path
//! under the edition prefix, and resolving relative links between files.

/// The prefix without a trailing slash; `""` and `"/"` both mean site root (`""`).
pub fn normalize_prefix(prefix: &str) -> &str {
    prefix.trim_end_matches('/')
}

/// Joins a prefix and a source-relative path (`guide/install`) into a site path.
/// An empty relative path is the prefix itself (or `/` at site root).
pub fn join(prefix: &str, rel: &str) -> String {
    let prefix = normalize_prefix(prefix);
    let rel = rel.trim_matches('/');
    match (prefix.is_empty(), rel.is_empty()) {
        (true, true) => "/".to_owned(),
        (false, true) => prefix.to_owned(),
        (_, false) => format!("{prefix}/{rel}"),
    }
}

/// File extensions read as Markdown (`markdown::EXTENSIONS`).
pub const MARKDOWN_EXTENSIONS: [&str; 3] = ["md", "markdown", "mdx"];

/// The site path of a page file: extension removed, and `index`, `README`
/// and Markdown `_index` files standing for their folder.
pub fn page_path(prefix: &str, rel_file: &str) -> String {
    join(prefix, &page_rel(rel_file))
}

/// `guide/install.md` → `guide/install`; `guide/index.md` → `guide`.
pub fn page_rel(rel_file: &str) -> String {
    let (dir, file) = match rel_file.rsplit_once('/') {
        Some((d, f)) => (d, f),
        None => ("", rel_file),
    };
    let stem = match file.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s,
        _ => file,
    };
    // (Hugo's `_index.md` is its folder's page; YARD's `_index.html` is an
    // alphabetic index beside the folder's `index.html`.)
    let markdown = file.rsplit_once('.').is_some_and(|(_, e)| MARKDOWN_EXTENSIONS.contains(&e));
    let is_index = stem == "index" || stem == "_index" && markdown || stem.eq_ignore_ascii_case("readme");
    match (is_index, dir.is_empty()) {
        (true, _) => dir.to_owned(),
        (false, true) => stem.to_owned(),
        (false, false) => format!("{dir}/{stem}"),
    }
}

/// `path` without the numbers that order its folders and files
/// (`04-ai-sdk-ui/02-chatbot` → `ai-sdk-ui/chatbot`), as Docusaurus drops
/// them from its URLs; None when no part has one. A number is dropped
/// only before `-`, `_` or `.` and a name with a letter (`2024-01` stays).
pub fn unnumbered(path: &str) -> Option<String> {
    let mut changed = false;
    let parts: Vec<&str> = path
        .split('/')
        .map(|part| {
            let digits = part.len() - part.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            match part[digits..].strip_prefix(['-', '_', '.']) {
                Some(rest) if digits > 0 && rest.starts_with(char::is_alphabetic) => {
                    changed = true;
                    rest
                }
                _ => part,
            }
        })
        .collect();
    changed.then(|| parts.join("/"))
}

/// The stem of a file name (`install` for `guide/install.md`).
pub fn file_stem(rel_file: &str) -> &str {
    let file = rel_file.rsplit('/').next().unwrap_or(rel_file);
    match file.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s,
        _ => file,
    }
}

/// The two-letter language codes (ISO 639-1): a file's `.js`, `.py` or
/// `.rb` before `.html` (JSDoc's `waterfall.js.html`) names no language.
const LANGUAGE_CODES: [&str; 184] = [
    "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh", "bi",
    "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da", "de", "dv",
    "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr", "fy", "ga", "gd",
    "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz", "ia", "id", "ie", "ig",
    "ii", "ik", "io", "is", "it", "iu", "ja", "jv", "ka", "kg", "ki", "kj", "kk", "kl", "km", "kn", "ko",
    "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb", "lg", "li", "ln", "lo", "lt", "lu", "lv", "mg", "mh",
    "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "na", "nb", "nd", "ne", "ng", "nl", "nn", "no", "nr",
    "nv", "ny", "oc", "oj", "om", "or", "os", "pa", "pi", "pl", "ps", "pt", "qu", "rm", "rn", "ro", "ru",
    "rw", "sa", "sc", "sd", "se", "sg", "si", "sk", "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su",
    "sv", "sw", "ta", "te", "tg", "th", "ti", "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug",
    "uk", "ur", "uz", "ve", "vi", "vo", "wa", "wo", "xh", "yi", "yo", "za", "zh", "zu",
];

/// The language part of a content-negotiation file name (`ch02.en.html`,
/// `index.zh-cn.html`, `intro.pt_BR.html` → `.en`, `.zh-cn`, `.pt_BR`):
/// two lower-case letters, with an optional region, before `.html`/`.htm`.
pub fn language_suffix(rel_file: &str) -> Option<&str> {
    let file = rel_file.rsplit('/').next().unwrap_or(rel_file);
    let lower = file.to_ascii_lowercase();
    let ext = [".html", ".htm"].into_iter().find(|e| lower.ends_with(e))?;
    let stem = &file[..file.len() - ext.len()];
    let (name, lang) = stem.rsplit_once('.')?;
    let (code, region) = match lang.split_once(['-', '_']) {
        Some((c, r)) => (c, Some(r)),
        None => (lang, None),
    };
    let is_code = LANGUAGE_CODES.contains(&code);
    let is_region =
        region.is_none_or(|r| (2..=4).contains(&r.len()) && r.bytes().all(|b| b.is_ascii_alphanumeric()));
    let at = rel_file.len() - ext.len() - lang.len() - 1;
    (!name.is_empty() && is_code && is_region).then(|| &rel_file[at..rel_file.len() - ext.len()])
}

/// How well a file name's language part (`.zh-cn`, `.pt_BR`, `.en`) names
/// an edition's locale (`zh-Hans`, `pt-BR`, `en`): 3 for the same language
/// and region (Chinese regions by their script: `cn`, `sg` write `Hans`,
/// `tw`, `hk`, `mo` write `Hant`), 2 when one of them names no region, 1
/// for the same language in another region, 0 for another language or
/// another Chinese script.
pub fn language_matches_locale(suffix: &str, locale: &str) -> u8 {
    let norm = |s: &str| s.trim_start_matches('.').replace('_', "-").to_ascii_lowercase();
    let (file, locale) = (norm(suffix), norm(locale));
    let split = |s: &str| -> (String, Option<String>) {
        match s.split_once('-') {
            Some((l, r)) => (l.to_owned(), Some(r.to_owned())),
            None => (s.to_owned(), None),
        }
    };
    let ((fl, fr), (ll, lr)) = (split(&file), split(&locale));
    if fl != ll {
        return 0;
    }
    let script = |r: &str| match r {
        "cn" | "sg" | "hans" => Some("hans"),
        "tw" | "hk" | "mo" | "hant" => Some("hant"),
        _ => None,
    };
    match (fr.as_deref(), lr.as_deref()) {
        (Some(f), Some(l)) if f == l => 3,
        (Some(f), Some(l)) if fl == "zh" => match (script(f), script(l)) {
            (Some(a), Some(b)) if a == b => 3,
            (Some(_), Some(_)) => 0,
            _ => 1,
        },
        (Some(_), Some(_)) => 1,
        (None, None) => 3,
        _ => 2,
    }
}

/// `rel_file` without its [`language_suffix`] `suffix` (`ch02.en.html` → `ch02.html`).
pub fn without_language(rel_file: &str, suffix: &str) -> String {
    match language_suffix(rel_file) {
        Some(s) if s == suffix => {
            let at = rel_file.len() - rel_file.rsplit('/').next().unwrap_or(rel_file).len();
            let file = &rel_file[at..];
            let ext_at = file.rfind('.').unwrap_or(file.len());
            format!("{}{}", &rel_file[..at + ext_at - suffix.len()], &file[ext_at..])
        }
        _ => rel_file.to_owned(),
    }
}

/// Resolves `target` (a relative URL path, no fragment) against the folder of
/// `from_file`. `/`-rooted targets start at the source root. None when the
/// result would leave the source root.
pub fn resolve(from_file: &str, target: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    if !target.starts_with('/')
        && let Some((dir, _)) = from_file.rsplit_once('/')
    {
        parts.extend(dir.split('/').filter(|s| !s.is_empty()));
    }
    for seg in target.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The bytes of `s` with its `%XX` escapes decoded; an invalid escape is
/// kept as written.
pub fn percent_decode_bytes(s: &str) -> Vec<u8> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_numbers_are_dropped_from_paths() {
        assert_eq!(unnumbered("/aisdk/04-ai-sdk-ui/02-chatbot").as_deref(), Some("/aisdk/ai-sdk-ui/chatbot"));
        assert_eq!(unnumbered("guide/01_intro.md").as_deref(), Some("guide/intro.md"));
        for same in ["/app/guide/install", "/blog/2024-01", "/v1.2/x", "/a/10-", "/a/3d-models-2"] {
            assert_eq!(unnumbered(same), None, "{same}");
        }
    }

    #[test]
    fn page_paths() {
        assert_eq!(page_path("/app", "guide/install.md"), "/app/guide/install");
        assert_eq!(page_path("/app", "guide/index.md"), "/app/guide");
        assert_eq!(page_path("/app", "README.md"), "/app");
        assert_eq!(page_path("", "index.md"), "/");
        assert_eq!(page_path("/", "a/_index.md"), "/a");
        assert_eq!(page_path("/", "a/_index.html"), "/a/_index");
        assert_eq!(page_path("/pg/", "sql-createindex.html"), "/pg/sql-createindex");
        assert_eq!(page_path("", "notes"), "/notes");
    }

    #[test]
    fn resolving() {
        assert_eq!(resolve("a/b/c.html", "../d.html").as_deref(), Some("a/d.html"));
        assert_eq!(resolve("a/c.html", "./x/y.html").as_deref(), Some("a/x/y.html"));
        assert_eq!(resolve("c.html", "../d.html"), None);
        assert_eq!(resolve("a/c.html", "/d.html").as_deref(), Some("d.html"));
    }

    #[test]
    fn language_parts_of_file_names() {
        assert_eq!(language_suffix("ch02.en.html"), Some(".en"));
        assert_eq!(language_suffix("doc/index.zh-cn.html"), Some(".zh-cn"));
        assert_eq!(language_suffix("intro.pt_BR.htm"), Some(".pt_BR"));
        for none in [
            "index.html",
            "os.path.html",
            "fn.ID.html",
            ".en.html",
            "a.b.md",
            "xml.dom.html",
            "waterfall.js.html",
            "lib/x.py.html",
        ] {
            assert_eq!(language_suffix(none), None, "{none}");
        }
        assert_eq!(without_language("doc/ch02.en.html", ".en"), "doc/ch02.html");
        assert_eq!(without_language("index.zh-cn.html", ".zh-cn"), "index.html");
        assert_eq!(without_language("ch02.fr.html", ".en"), "ch02.fr.html");
    }

    #[test]
    fn language_parts_match_locales() {
        assert_eq!(language_matches_locale(".zh-cn", "zh-Hans"), 3);
        assert_eq!(language_matches_locale(".zh-tw", "zh-Hant"), 3);
        assert_eq!(language_matches_locale(".zh-tw", "zh-Hans"), 0);
        assert_eq!(language_matches_locale(".zh_CN", "zh-CN"), 3);
        assert_eq!(language_matches_locale(".en", "en"), 3);
        assert_eq!(language_matches_locale(".en", "en-US"), 2);
        assert_eq!(language_matches_locale(".pt_BR", "pt-BR"), 3);
        assert_eq!(language_matches_locale(".pt_PT", "pt-BR"), 1);
        assert_eq!(language_matches_locale(".de", "en"), 0);
    }
}
