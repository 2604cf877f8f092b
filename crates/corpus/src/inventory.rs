//! Sphinx `objects.inv` inventories (version 2: a text header, then zlib
//! lines `name domain:role priority uri display-name`) → the symbols of the
//! pages and sections they point at, so an API name finds its page.

use std::io::Read;

use crate::page::Symbol;

/// The inventory's file name at the root of a Sphinx HTML tree.
pub const FILE_NAME: &str = "objects.inv";

/// Entries read at most (Python's own inventory has about 16 000).
const MAX_ENTRIES: usize = 500_000;

/// Decompressed bytes read at most.
const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// One inventory entry: the file it points at and the symbol it names there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The page's file inside the tree (`library/functools.html`).
    pub file: String,
    pub symbol: Symbol,
}

#[cfg(test)]
impl Entry {
    /// Its file, symbol name, kind and anchor, as tests compare them.
    pub(crate) fn parts(&self) -> (&str, &str, &str, Option<&str>) {
        (
            self.file.as_str(),
            self.symbol.name.as_str(),
            self.symbol.kind.as_str(),
            self.symbol.anchor.as_deref(),
        )
    }
}

/// Reads an inventory; Err says why it is not one we can read.
pub fn parse(bytes: &[u8]) -> Result<Vec<Entry>, String> {
    let mut rest = bytes;
    let mut header = Vec::new();
    for _ in 0..4 {
        let end = rest.iter().position(|&b| b == b'\n').ok_or("the header ends early")?;
        header.push(String::from_utf8_lossy(&rest[..end]).into_owned());
        rest = &rest[end + 1..];
    }
    if header[0].trim() != "# Sphinx inventory version 2" {
        return Err(format!("not a version 2 Sphinx inventory ({:?})", header[0].trim()));
    }
    let mut text = String::new();
    flate2::read::ZlibDecoder::new(rest)
        .take(MAX_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| format!("its compressed part does not decompress as UTF-8 ({e})"))?;
    Ok(text.lines().filter_map(entry).flat_map(with_command_line).take(MAX_ENTRIES).collect())
}

/// An entry, and for a program's option (`cmake.-G`, `std:cmdoption`) the
/// same entry named as the command line writes it (`cmake -G`): another
/// program's `-G` (`cpack.-G`) is not what `cmake -G` asks for. Sphinx
/// names the program of a mode with a dash for each space (`cmake-E` for
/// `cmake -E`, `cmake--build` for `cmake --build`): such an option is also
/// named with the mode written out (`cmake -E copy_directory`).
fn with_command_line(entry: Entry) -> impl Iterator<Item = Entry> {
    let name = &entry.symbol.name;
    let split =
        name.split_once(".-").map(|(p, _)| (p, &name[p.len() + 1..])).or_else(|| name.rsplit_once('.'));
    let typed: Vec<String> = match split {
        Some((program, option))
            if entry.symbol.kind == "Cmdoption"
                && !program.is_empty()
                && !option.is_empty()
                && !name.contains(char::is_whitespace) =>
        {
            let mode = mode_program(program).map(|p| format!("{p} {option}"));
            std::iter::once(format!("{program} {option}")).chain(mode).collect()
        }
        _ => Vec::new(),
    };
    let more: Vec<Entry> = typed
        .into_iter()
        .map(|name| Entry { file: entry.file.clone(), symbol: Symbol { name, ..entry.symbol.clone() } })
        .collect();
    std::iter::once(entry).chain(more)
}

/// A mode's program as typed (`cmake -E` of `cmake-E`, `cmake --build` of
/// `cmake--build`): a name, a dash, then one letter or a dash and a word;
/// None for a program's own name (`cmake-gui`).
fn mode_program(program: &str) -> Option<String> {
    let (base, mode) = program.split_once('-')?;
    let letter = mode.len() == 1 && mode.chars().all(|c| c.is_ascii_alphabetic());
    let long = mode.strip_prefix('-').is_some_and(|w| {
        w.starts_with(|c: char| c.is_ascii_alphabetic())
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    });
    let named = !base.is_empty() && base.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (named && (letter || long)).then(|| format!("{base} -{mode}"))
}

/// One line, or None for a line that is not an entry, a heading label (the
/// sections are found from the page itself) or one hidden from search.
fn entry(line: &str) -> Option<Entry> {
    // The name may hold spaces: the entry's type is the first `domain:role`
    // token followed by an integer priority.
    let tokens: Vec<(usize, &str)> = line
        .split(' ')
        .scan(0, |at, t| {
            let start = *at;
            *at += t.len() + 1;
            Some((start, t))
        })
        .filter(|(_, t)| !t.is_empty())
        .collect();
    let i = (1..tokens.len().saturating_sub(2))
        .find(|&i| tokens[i].1.contains(':') && tokens[i + 1].1.parse::<i64>().is_ok())?;
    let name = line[..tokens[i].0].trim();
    let (domain, role) = tokens[i].1.split_once(':')?;
    let priority: i64 = tokens[i + 1].1.parse().ok()?;
    if priority < 0 || domain == "std" && matches!(role, "label" | "doc") || name.is_empty() {
        return None;
    }
    let uri = tokens[i + 2].1;
    let uri = match uri.strip_suffix('$') {
        Some(head) => format!("{head}{name}"),
        None => uri.to_owned(),
    };
    let (file, anchor) = match uri.split_once('#') {
        Some((f, a)) => (f.to_owned(), Some(a.to_owned()).filter(|a| !a.is_empty())),
        None => (uri, None),
    };
    if file.is_empty() || file.contains("..") || file.starts_with('/') || file.contains(':') {
        return None;
    }
    let mut kind: Vec<char> = role.chars().collect();
    if let Some(first) = kind.first_mut() {
        *first = first.to_ascii_uppercase();
    }
    Some(Entry {
        file,
        symbol: Symbol { name: name.to_owned(), kind: kind.into_iter().collect(), anchor, entry: None },
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// An inventory as Sphinx writes it.
    pub fn inventory(lines: &str) -> Vec<u8> {
        let mut out = b"# Sphinx inventory version 2\n# Project: Python\n# Version: 3.11\n# The remainder of this file is compressed using zlib.\n".to_vec();
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(lines.as_bytes()).unwrap();
        out.extend(z.finish().unwrap());
        out
    }

    #[test]
    fn entries_point_at_their_page_and_anchor() {
        let inv = inventory(
            "functools.lru_cache py:function 1 library/functools.html#$ -\n\
             functools py:module 0 library/functools.html#module-$ -\n\
             general questions std:label -1 faq/programming.html#general-questions General Questions\n\
             dict.get py:method 1 library/stdtypes.html#$ -\n\
             a name with spaces std:term -1 glossary.html#term-a -\n\
             bad line\n",
        );
        let entries = parse(&inv).unwrap();
        let got: Vec<(&str, &str, &str, Option<&str>)> = entries.iter().map(Entry::parts).collect();
        assert_eq!(
            got,
            [
                ("library/functools.html", "functools.lru_cache", "Function", Some("functools.lru_cache")),
                ("library/functools.html", "functools", "Module", Some("module-functools")),
                ("library/stdtypes.html", "dict.get", "Method", Some("dict.get")),
            ]
        );
        assert!(parse(b"# Sphinx inventory version 1\na\nb\nc\n").is_err());
        assert!(parse(b"nonsense").is_err());
    }

    #[test]
    fn a_programs_option_is_also_named_as_the_command_line_writes_it() {
        let inv = inventory(
            "cmake.-G std:cmdoption 1 manual/cmake.1.html#cmdoption-cmake-G -\n\
             cmake--build.--preset std:cmdoption 1 manual/cmake.1.html#cmdoption-cmake-build-preset -\n\
             cmake-E.copy std:cmdoption 1 manual/cmake.1.html#cmdoption-cmake-E-arg-copy -\n\
             cmake-gui.-B std:cmdoption 1 manual/cmake-gui.1.html#cmdoption-cmake-gui-B -\n\
             os.path py:module 0 library/os.path.html#module-$ -\n",
        );
        let names: Vec<String> = parse(&inv).unwrap().into_iter().map(|e| e.symbol.name).collect();
        assert_eq!(
            names,
            [
                "cmake.-G",
                "cmake -G",
                "cmake--build.--preset",
                "cmake--build --preset",
                "cmake --build --preset",
                "cmake-E.copy",
                "cmake-E copy",
                "cmake -E copy",
                "cmake-gui.-B",
                "cmake-gui -B",
                "os.path",
            ]
        );
    }
}
