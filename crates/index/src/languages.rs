//! The language a query in Latin script is written in, told by its function
//! words (`como`, `wie`, `comment`, `the`) and its letters (`ç`, `ñ`, `ö`),
//! and those function words per language (and Russian's): like English
//! stopwords they rank but need not match (`como configurar a rede` asks
//! about `configurar rede`); and a word's roots in the languages searched,
//! which its other forms start with.

use rust_stemmers::{Algorithm, Stemmer};

use crate::question::is_stopword;
use crate::text::{fold, unaccented};

/// The languages told apart, with their function words: articles,
/// prepositions, conjunctions, pronouns and question words, folded and
/// without accents, leaving out those that name things in a manual
/// (German `man`, Italian `su`).
const FUNCTION_WORDS: &[(&str, &[&str])] = &[
    (
        "pt",
        &[
            "a", "o", "as", "os", "um", "uma", "uns", "umas", "de", "do", "da", "dos", "das", "em", "no",
            "na", "nos", "nas", "por", "para", "pelo", "pela", "pelos", "pelas", "com", "sem", "que", "e",
            "ou", "como", "qual", "quais", "onde", "quando", "porque", "se", "sao", "eu", "meu", "minha",
            "seu", "sua", "ao", "aos", "isso", "isto", "este", "esta", "esse", "essa", "fazer", "faco",
            "posso", "pode", "mais", "entre", "sobre",
        ],
    ),
    (
        "es",
        &[
            "el", "la", "los", "las", "un", "una", "unos", "unas", "a", "de", "del", "al", "en", "por",
            "para", "con", "sin", "que", "y", "o", "como", "cual", "cuales", "donde", "cuando", "porque",
            "se", "es", "son", "mi", "su", "sus", "lo", "le", "este", "esta", "ese", "esa", "hacer", "hago",
            "puedo", "puede", "mas", "entre", "sobre",
        ],
    ),
    (
        "fr",
        &[
            "le", "la", "les", "un", "une", "des", "du", "de", "d", "l", "au", "aux", "en", "dans", "par",
            "pour", "avec", "sans", "que", "qu", "qui", "quoi", "et", "ou", "comment", "quel", "quelle",
            "quels", "quelles", "quand", "pourquoi", "est", "sont", "je", "j", "mon", "ma", "mes", "son",
            "sa", "ses", "ce", "cet", "cette", "faire", "peut", "puis", "ne", "pas", "sur", "entre",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "und",
            "oder", "im", "mit", "von", "vom", "zu", "zum", "zur", "fur", "auf", "aus", "bei", "ist", "sind",
            "wie", "was", "wo", "wann", "warum", "welche", "welcher", "welches", "ich", "mein", "meine",
            "kann", "nicht", "sich", "es", "wir", "dass", "auch", "als", "noch", "uber", "unter",
        ],
    ),
    (
        "it",
        &[
            "il", "lo", "la", "i", "gli", "le", "un", "uno", "una", "di", "del", "della", "dei", "delle",
            "da", "con", "per", "tra", "fra", "che", "e", "o", "come", "quale", "quali", "dove", "quando",
            "perche", "si", "non", "mio", "mia", "suo", "sua", "questo", "questa", "fare", "posso", "puo",
            "sono", "nel", "nella", "cos", "cosa", "l", "d", "dell", "all", "nell", "sull",
        ],
    ),
    (
        "ru",
        &[
            "как",
            "что",
            "где",
            "когда",
            "почему",
            "зачем",
            "какой",
            "какая",
            "какое",
            "какие",
            "в",
            "во",
            "на",
            "и",
            "или",
            "для",
            "с",
            "со",
            "по",
            "из",
            "от",
            "до",
            "к",
            "у",
            "о",
            "об",
            "не",
            "ли",
            "это",
            "мне",
            "я",
            "можно",
            "нужно",
            "чтобы",
            "сделать",
            "такое",
            "такой",
            "такая",
            "такие",
        ],
    ),
];

/// Function words that are also English words or names a manual writes
/// (`per user`, `du`, `mit license`, `des`, `comment`, `os`): they count
/// toward a language only beside a word or a letter only it writes
/// (`come installare un pacchetto`), so `limit disk space per user` stays
/// English. Single letters are such words too.
const WEAK: &[&str] = &[
    "as", "os", "em", "do", "no", "na", "se", "si", "in", "an", "on", "was", "die", "des", "du", "den",
    "das", "dem", "mit", "per", "come", "son", "con", "sin", "um", "al", "el", "lo", "le", "la", "non",
    "comment", "sur", "pas", "ma", "sa", "mon", "mes", "ses", "ce", "uno", "dell", "all", "entre", "sobre",
    "es", "er", "ich", "me", "su", "tra",
];

/// Letters only one or two of the languages write (besides `en`), as
/// folded (`ß` folds to `ss`).
const LETTERS: &[(char, &[&str])] = &[
    ('ã', &["pt"]),
    ('õ', &["pt"]),
    ('ç', &["pt", "fr"]),
    ('ñ', &["es"]),
    ('¿', &["es"]),
    ('¡', &["es"]),
    ('ä', &["de"]),
    ('ö', &["de"]),
    ('ü', &["de"]),
    ('è', &["fr", "it"]),
    ('ê', &["fr", "pt"]),
    ('à', &["fr", "it"]),
    ('ù', &["fr", "it"]),
    ('œ', &["fr"]),
    ('ò', &["it"]),
    ('ì', &["it"]),
];

/// The words of a query's text (letters only), folded and without accents.
fn plain_words(words: &[String]) -> Vec<String> {
    words
        .iter()
        .flat_map(|w| w.split(|c: char| !c.is_alphabetic()))
        .filter(|w| !w.is_empty())
        .map(|w| unaccented(&fold(w)))
        .collect()
}

/// The languages a query in Latin script reads as: the one whose function
/// words and letters it holds most (a word several languages share, as
/// `a` or `de`, counts half), when that is not English. Several when they
/// tie (`como configurar a rede` is Portuguese or Spanish), English among
/// them when it ties too (`gestione dei pacchetti in debian`). Empty for a
/// query read as English, or with nothing to tell.
pub fn query_languages(words: &[String]) -> Vec<&'static str> {
    let plain = plain_words(words);
    // Each word's weight: 2, or 1 when several languages' lists hold it.
    let weight = |w: &str| {
        let lists =
            FUNCTION_WORDS.iter().filter(|(_, list)| list.contains(&w)).count() + usize::from(is_stopword(w));
        if lists > 1 { 1 } else { 2 }
    };
    let english: usize = plain.iter().filter(|w| is_stopword(w)).map(|w| weight(w)).sum();
    let letters: Vec<char> = words.iter().flat_map(|w| fold(w).chars().collect::<Vec<_>>()).collect();
    let weak = |w: &str| w.chars().count() == 1 || WEAK.contains(&w);
    let scores: Vec<(&'static str, usize)> = FUNCTION_WORDS
        .iter()
        .map(|(language, list)| {
            let said: Vec<&String> = plain.iter().filter(|w| list.contains(&w.as_str())).collect();
            let written =
                LETTERS.iter().filter(|(c, of)| of.contains(language) && letters.contains(c)).count();
            // (Weak words alone tell nothing.)
            if written == 0 && said.iter().all(|w| weak(w)) {
                return (*language, 0);
            }
            (*language, said.iter().map(|w| weight(w)).sum::<usize>() + written)
        })
        .collect();
    let best = scores.iter().map(|s| s.1).max().unwrap_or(0);
    if best == 0 || best < english {
        return Vec::new();
    }
    let mut tied: Vec<&'static str> = scores.into_iter().filter(|s| s.1 == best).map(|s| s.0).collect();
    if best == english {
        tied.push("en");
    }
    tied
}

/// The languages of the editions searched (edition ids end in their
/// locale: `debian-reference@2/pt-BR`) that Lectern knows function words
/// or word forms of; English and CJK left out.
pub(crate) fn edition_languages(editions: &[String]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for edition in editions {
        let locale = edition_locale(edition);
        let language = locale.split('-').next().unwrap_or("").to_ascii_lowercase();
        if let Some(known) = STEMMED.iter().map(|(l, _)| *l).find(|l| *l == language)
            && !out.contains(&known)
        {
            out.push(known);
        }
    }
    out
}

/// The locale of an edition id (`project@version/locale[/domain…]`), or
/// `""` for an id without one.
fn edition_locale(edition: &str) -> &str {
    edition.split_once('@').and_then(|(_, rest)| rest.split('/').nth(1)).unwrap_or("")
}

/// True when one of `editions` (ids: `project@version/locale/…`) is
/// written in traditional Chinese characters (`zh-Hant`, `zh-TW`, `zh-HK`,
/// `zh-MO`): a traditional query word is then searched as written.
pub(crate) fn any_traditional_chinese(editions: &[String]) -> bool {
    editions.iter().any(|edition| {
        let locale = edition_locale(edition).to_ascii_lowercase().replace('_', "-");
        locale.starts_with("zh-hant") || ["zh-tw", "zh-hk", "zh-mo"].contains(&locale.as_str())
    })
}

/// The languages whose word forms a query word stands for (besides
/// English, which the index stems): Snowball's stemmer of each.
const STEMMED: &[(&str, Algorithm)] = &[
    ("pt", Algorithm::Portuguese),
    ("es", Algorithm::Spanish),
    ("fr", Algorithm::French),
    ("de", Algorithm::German),
    ("it", Algorithm::Italian),
    ("nl", Algorithm::Dutch),
    ("sv", Algorithm::Swedish),
    ("da", Algorithm::Danish),
    ("nb", Algorithm::Norwegian),
    ("no", Algorithm::Norwegian),
    ("fi", Algorithm::Finnish),
    ("ro", Algorithm::Romanian),
    ("hu", Algorithm::Hungarian),
    ("tr", Algorithm::Turkish),
    ("ru", Algorithm::Russian),
    ("el", Algorithm::Greek),
];

/// Fewest chars of a root whose other forms are looked up: shorter roots
/// (`red` of `rede`) begin too many other words.
const MIN_ROOT_CHARS: usize = 5;

/// The roots of a folded query word in `languages` (Snowball's stem,
/// without accents: `instal` of `instalar`, `paket` of `Pakete`): every
/// indexed word that starts with one is a form of it (`instalação`,
/// `instalado`; `Paketverwaltung`). None for a root shorter than
/// [`MIN_ROOT_CHARS`] or a word that is not all letters.
pub(crate) fn word_roots(languages: &[&str], folded: &str) -> Vec<String> {
    if !folded.chars().all(char::is_alphabetic) || folded.chars().any(crate::text::is_cjk) {
        return Vec::new();
    }
    let mut roots: Vec<String> = Vec::new();
    for (_, algorithm) in STEMMED.iter().filter(|(l, _)| languages.contains(l)) {
        let root = unaccented(&Stemmer::create(*algorithm).stem(folded));
        if root.chars().count() >= MIN_ROOT_CHARS && !roots.contains(&root) {
            roots.push(root);
        }
    }
    roots
}

/// True for a function word of one of `languages` (folded, as a query word is).
pub(crate) fn is_function_word(languages: &[&str], folded: &str) -> bool {
    if languages.is_empty() || !folded.chars().all(char::is_alphabetic) {
        return false;
    }
    let plain = unaccented(folded);
    FUNCTION_WORDS.iter().any(|(l, list)| languages.contains(l) && list.contains(&plain.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn languages(text: &str) -> Vec<&'static str> {
        query_languages(&text.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
    }

    #[test]
    fn a_query_reads_as_the_language_of_its_function_words() {
        assert_eq!(languages("como configurar a rede"), ["pt", "es"]);
        assert_eq!(languages("configuração da rede"), ["pt"]);
        assert_eq!(languages("cómo instalar un paquete"), ["es"]);
        assert_eq!(languages("comment changer le mot de passe"), ["fr"]);
        assert_eq!(languages("wie installiere ich ein Paket"), ["de"]);
        assert_eq!(languages("Größe ändern"), ["de"]);
        assert_eq!(languages("come installare un pacchetto"), ["it"]);
        assert_eq!(languages("cos'è un NMU"), ["it"]);
        assert_eq!(languages("что такое NMU"), ["ru"]);
        // As English as not: both.
        assert_eq!(languages("gestione dei pacchetti in debian"), ["it", "en"]);
        // English, or nothing to tell: read as English.
        assert!(languages("how to set up streaming replication").is_empty());
        assert!(languages("a table in the database").is_empty());
        assert!(languages("pg_dump --data-only").is_empty());
        assert!(languages("VACUUM FULL").is_empty());
        // English words some language also writes tell nothing alone.
        for english in
            ["limit disk space per user", "du disk usage", "mit license", "comment syntax", "des encryption"]
        {
            assert!(languages(english).is_empty(), "{english}");
        }
    }

    #[test]
    fn a_word_has_a_root_in_each_language_searched() {
        assert_eq!(word_roots(&["pt"], "instalar"), ["instal"]);
        assert_eq!(word_roots(&["pt"], "configuração"), ["configur"]);
        assert_eq!(word_roots(&["de"], "installiere"), ["installi"]);
        assert_eq!(word_roots(&["ru"], "установка"), ["установк"]);
        // Too short a root, no language, or not a word: none.
        assert!(word_roots(&["pt"], "rede").is_empty());
        assert!(word_roots(&[], "instalar").is_empty());
        assert!(word_roots(&["pt"], "pg_dump").is_empty());
        let editions =
            ["m@1/pt-BR".to_owned(), "m@1/en".to_owned(), "m@1/zh-Hans".to_owned(), "d@2/pt".to_owned()];
        assert_eq!(edition_languages(&editions), ["pt"]);
    }

    #[test]
    fn function_words_count_only_in_their_languages() {
        assert!(is_function_word(&["pt"], "como") && is_function_word(&["pt"], "são"));
        assert!(is_function_word(&["fr"], "où") || is_function_word(&["fr"], "comment"));
        assert!(!is_function_word(&["pt"], "rede") && !is_function_word(&[], "como"));
        assert!(!is_function_word(&["de"], "man") && !is_function_word(&["it"], "su"));
        assert!(!is_function_word(&["es"], "la_tabla"));
        assert!(is_function_word(&["ru"], "как") && !is_function_word(&["ru"], "установка"));
        assert!(is_function_word(&["it"], "cos") && is_function_word(&["it"], "è"));
    }
}
