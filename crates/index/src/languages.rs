//! The language a query in Latin script is written in, told by its function
//! words (`como`, `wie`, `comment`, `the`) and its letters (`ç`, `ñ`, `ß`),
//! and those function words per language: like English stopwords they rank
//! but need not match (`como configurar a rede` asks about `configurar
//! rede`).

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
            "sono", "nel", "nella",
        ],
    ),
];

/// Letters only one or two of the languages write (besides `en`).
const LETTERS: &[(char, &[&str])] = &[
    ('ã', &["pt"]),
    ('õ', &["pt"]),
    ('ç', &["pt", "fr"]),
    ('ñ', &["es"]),
    ('¿', &["es"]),
    ('¡', &["es"]),
    ('ß', &["de"]),
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

/// The languages a query in Latin script reads as, best first among ties:
/// the language whose function words and letters it holds most, when that
/// is not English (English wins ties; a query with no such word is read as
/// English too, and gets an empty list). Several when they tie
/// (`como configurar a rede` is Portuguese or Spanish).
pub fn query_languages(words: &[String]) -> Vec<&'static str> {
    let plain = plain_words(words);
    let english = plain.iter().filter(|w| is_stopword(w)).count() * 2;
    let letters: Vec<char> = words.iter().flat_map(|w| fold(w).chars().collect::<Vec<_>>()).collect();
    let scores: Vec<(&'static str, usize)> = FUNCTION_WORDS
        .iter()
        .map(|(language, list)| {
            let said = plain.iter().filter(|w| list.contains(&w.as_str())).count() * 2;
            let written =
                LETTERS.iter().filter(|(c, of)| of.contains(language) && letters.contains(c)).count();
            (*language, said + written)
        })
        .collect();
    let best = scores.iter().map(|s| s.1).max().unwrap_or(0);
    if best == 0 || best <= english {
        return Vec::new();
    }
    scores.into_iter().filter(|s| s.1 == best).map(|s| s.0).collect()
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
        // English, or nothing to tell: read as English.
        assert!(languages("how to set up streaming replication").is_empty());
        assert!(languages("a table in the database").is_empty());
        assert!(languages("pg_dump --data-only").is_empty());
        assert!(languages("VACUUM FULL").is_empty());
    }

    #[test]
    fn function_words_count_only_in_their_languages() {
        assert!(is_function_word(&["pt"], "como") && is_function_word(&["pt"], "são"));
        assert!(is_function_word(&["fr"], "où") || is_function_word(&["fr"], "comment"));
        assert!(!is_function_word(&["pt"], "rede") && !is_function_word(&[], "como"));
        assert!(!is_function_word(&["de"], "man") && !is_function_word(&["it"], "su"));
        assert!(!is_function_word(&["es"], "la_tabla"));
    }
}
