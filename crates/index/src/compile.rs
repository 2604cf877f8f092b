//! A query compiled for one search: each word analysed once into units,
//! tier 1 (every word and phrase but the stopwords, or a symbol the query
//! names), tier 2 (most of the words, weighed by rarity, Chinese question
//! words left out), whether the two rank as one list (a question), the
//! word pairs whose proximity rescores the best candidates, a question's
//! words for passage coverage and its names, and what snippets light.

use std::collections::HashSet;

use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, EnableScoring, Occur, PhraseQuery, Query,
    TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocSet, Score, Searcher, TERMINATED, Term};

use crate::heading::HeadingCover;
use crate::highlight::Highlight;
use crate::keys::{
    cased_key, defined_key_of_folded, dotted_form, member_of, page_title_key, partial_query_keys, symbol_key,
    symbol_key_of_folded, title_key_of_folded, unqualified_key,
};
use crate::languages::{edition_languages, is_function_word, query_languages, word_roots};
use crate::passage::Passage;
use crate::proximity::{Proximity, bm25_idf};
use crate::question::{
    bare_name, content_pieces, identifier_names, is_stopword, kind_named, latin_names, message_start,
};
use crate::records::term_query;
use crate::request::SearchRequest;
use crate::schema::Fields;
use crate::scope::MAX_WALKED_SHARE;
use crate::spellings::{long_form, spellings, umlaut_forms};
use crate::stats::Stats;
use crate::text::{fold, is_cjk, is_katakana};
use crate::tokenizer::{Analyzed, TokenKind, analyze};

/// Terms a prefix expands to, at most.
const MAX_PREFIX_TERMS: usize = 50;
/// Most forms of a word looked up per root ([`word_forms`]).
const MAX_FORMS: usize = 16;
/// Most forms of a word in all the languages searched (`locale:*` over
/// manuals in many languages looks up a root in each).
const MAX_WORD_FORMS: usize = 48;
/// What a word's other forms weigh ([`Unit::Forms`]), over the word as written.
const FORM_WEIGHT: Score = 0.5;
/// Score given to an exact symbol match: above any BM25 sum.
const SYMBOL_SCORE: Score = 10_000.0;
/// What the last part of a qualified name (`setrecursionlimit` of
/// `sys.setrecursionlimit`) scores, over a name's own: a name declared as
/// written comes first.
const UNQUALIFIED_SHARE: Score = 0.5;
/// What a qualified name typed shorter than declared (`QuerySet.update` of
/// `django.db.models.query.QuerySet.update`, `boost::split` of
/// `boost::algorithm::split`, `Vec.push` of `Vec::push`) scores, over the
/// name's own: above its last part alone.
const PARTIAL_SHARE: Score = 0.7;
/// What each shorter ending of a qualified name typed scores, over the
/// name's own, where the manual qualifies it less (`HashMap::insert` for
/// `std::collections::HashMap::insert`): above its last part alone.
const ENDING_SHARE: Score = 0.6;
/// What a qualified name's last part declared or titled bare scores (see
/// [`member_of`]), over the name's own: below every form the manual
/// qualifies.
const MEMBER_SHARE: Score = 0.3;
/// What a name typed behind a short alias (`pd.read_csv`) scores where the
/// manual declares it without (`pandas.read_csv`, `read_csv`), over the
/// name's own: below the forms the manual writes.
const ALIAS_SHARE: Score = 0.5;
/// What a name declared with the case the query types it in adds, over
/// the score of the name (`-O` before `-o` for `python -O`): more than BM25
/// tells apart sections declaring names that fold alike, far less than
/// tells a name from its last part.
const CASED_SHARE: Score = 0.05;
/// Score given to the section defining an identifier the query names among
/// other words (`work_mem` in `how much work_mem per sort`): below an exact
/// symbol, above any BM25 sum.
const NAMED_SYMBOL_SCORE: Score = 1_000.0;
/// A word that is a symbol counts as a name inside a longer query when at
/// most this many sections' text holds it (the manual's index page).
const MAX_SYMBOL_ONLY_SECTIONS: u64 = 2;
/// Bonus for a section defining the term the query is (its `firstterm`):
/// about what a title naming the term gets from BM25, so the section
/// titled by a term and the one defining it in its text both rank high.
const DEFINED_SCORE: Score = 80.0;
/// Words of a pasted message found together as written (see
/// [`with_message_windows`]), and what each such run scores: as much as a
/// section defining the term a query is.
const MESSAGE_WINDOW: usize = 4;
const MESSAGE_WINDOW_SCORE: Score = DEFINED_SCORE;
/// Runs of a message looked for, at most.
const MAX_MESSAGE_WINDOWS: usize = 12;
/// Bonus for a section whose whole title the query is: about what the
/// title's words get from BM25, so that a title typed as written comes
/// before sections holding its words more often.
const TITLE_SCORE: Score = 1500.0;
/// Bonus for the sections of a page whose symbol starts the query.
const PAGE_SYMBOL_SCORE: Score = 40.0;
/// What a page's opening section adds when the query is the page's whole
/// title: above BM25's differences between the sections so titled, so the
/// page comes before other pages' sections of its title.
const PAGE_TITLE_SCORE: Score = 100.0;
/// Field boosts over body.
const TITLE_BOOST: Score = 3.0;
const BREADCRUMB_BOOST: Score = 1.5;
/// A bigram of a CJK sentence is a word when at least this share of the
/// sections holding its rarer char hold the bigram (see `edge_bigrams`).
const WORD_SHARE: Score = 0.1;
/// What a bigram across two words' edges weighs, over a word's bigram.
const EDGE_WEIGHT: Score = 0.5;
/// A CJK run of at most this many chars is one word in tier 2.
const MAX_CJK_WORD_CHARS: usize = 4;
/// Weight of a proximity match, over the two words' rarity.
const PROXIMITY_BOOST: Score = 1.0;
/// The same in the title, whose matches weigh [`TITLE_BOOST`] times more.
pub(crate) const PROXIMITY_TITLE_BOOST: Score = PROXIMITY_BOOST * TITLE_BOOST;

/// Tier 2's query and how its sections' coverage is scored.
pub(crate) type Tier2 = (Box<dyn Query>, Coverage);

/// The query, compiled once per search.
pub(crate) struct Compiled {
    /// Tier 1: every word, phrase and exclusion, or the symbol.
    pub(crate) tier1: Box<dyn Query>,
    /// Tier 2: most of the words; None when it could add nothing.
    pub(crate) tier2: Option<Tier2>,
    /// Scored on the best candidates only: the query's words found close
    /// together ([`proximity`]); None for fewer than two words.
    pub(crate) proximity: Option<Proximity>,
    /// What snippets look for.
    pub(crate) highlight: Highlight,
    /// The symbol keys the tiers ask, each once, in the order asked: a hit
    /// links to the entry of the first its section defines inside it.
    pub(crate) names: Vec<String>,
}

/// How much of the query a tier-2 section covers: the sum of the rarity
/// (idf) of the words it holds over that of all words, so that the sections
/// with most of the (telling) words come first and BM25 orders those that
/// cover the same.
pub(crate) struct Coverage {
    /// Each word's query (matched unscored) and its weight.
    pub(crate) units: Vec<(Box<dyn Query>, Score)>,
    /// The sum of the weights.
    pub(crate) total: Score,
    /// What full coverage adds to a section's score.
    pub(crate) scale: Score,
    /// True when the two tiers rank as one list (a question: enough words
    /// that a section may miss one and still answer).
    pub(crate) merged: bool,
    /// A question's words, scored where one passage holds most of them.
    pub(crate) passage: Option<Passage>,
    /// A question's words, scored where they make up a section's heading.
    pub(crate) heading: Option<HeadingCover>,
    /// A longer question's sections holding any one of its words (and what
    /// every section must): searched when those holding most of them are
    /// fewer than [`FEW_ANSWERS`], so a question whose answer the manual
    /// words otherwise (`隨身碟` where it writes `U 盤`) still finds it.
    /// None when one word is all tier 2 asks, or for fewer than
    /// [`LOOSE_WORDS`] words.
    pub(crate) loose: Option<Box<dyn Query>>,
}

/// Fewer sections than this holding most of a question's words (tier 1 and
/// 2 together) and the sections holding any one of them are searched too
/// (see [`Coverage::loose`]).
pub(crate) const FEW_ANSWERS: usize = 10;
/// A question of at least this many words (see [`question`]) may be
/// answered by a section holding any one of them ([`Coverage::loose`]);
/// three keywords (`quokka wombat numbat`) still ask for two.
const LOOSE_WORDS: usize = QUESTION_WORDS + 1;

/// Coverage of keywords counts more than any BM25 sum of a section: the
/// sections with every word come first.
const KEYWORD_COVERAGE_SCORE: Score = 200.0;
/// Coverage of a question's words counts as much as a strong BM25 match: a
/// section titled with the rarest words may miss a common one.
const QUESTION_COVERAGE_SCORE: Score = 30.0;
/// A query with this many words (of tier 2) is ranked as a question.
const QUESTION_WORDS: usize = 3;
/// What each of a question's names adds to a section defining it (`char`,
/// `varchar`, `text` in "the difference between char, varchar and text"):
/// the section defining most of them comes first among those that match
/// as well.
const QUESTION_NAME_SCORE: Score = 8.0;
/// What a section of a page that a twin edition ranks for the query's
/// translated words adds (see `twin`).
const TWIN_SCORE: Score = 60.0;
/// What the section at the place of the twin's section adds besides.
const TWIN_SECTION_SCORE: Score = 20.0;

/// A page a twin edition ranks for the query's English words (see `twin`),
/// as the searched edition's copy of it: its path, the key of the section
/// at the place of the twin's (when found), and the twin's score of the
/// page over its best page's.
pub(crate) struct TwinPage {
    pub(crate) path: String,
    pub(crate) section: Option<String>,
    pub(crate) share: Score,
}

/// One searchable unit: a term, a phrase (terms at offsets), any of
/// several terms (a prefix expansion), or any of a word's spellings (the
/// one written first; see [`spellings`]).
#[derive(Debug, Clone, PartialEq)]
enum Unit {
    Term(String),
    Phrase(Vec<(usize, String)>),
    AnyOf(Vec<String>),
    Spellings(Vec<Unit>),
    /// A word and its forms in the languages searched ([`word_forms`]),
    /// which weigh [`FORM_WEIGHT`] of the word as written.
    Forms(Box<Unit>, Vec<String>),
}

impl Unit {
    /// A word or phrase as one unit (a term when it is a single token).
    fn of_terms(mut terms: Vec<(usize, String)>) -> Option<Unit> {
        match terms.len() {
            0 => None,
            1 => terms.pop().map(|(_, t)| Unit::Term(t)),
            _ => Some(Unit::Phrase(terms)),
        }
    }

    fn terms(&self) -> Vec<&str> {
        match self {
            Unit::Term(t) => vec![t],
            Unit::Phrase(ts) => ts.iter().map(|(_, t)| t.as_str()).collect(),
            Unit::AnyOf(ts) => ts.iter().map(String::as_str).collect(),
            Unit::Spellings(us) => us.iter().flat_map(Unit::terms).collect(),
            Unit::Forms(u, forms) => u.terms().into_iter().chain(forms.iter().map(String::as_str)).collect(),
        }
    }

    /// One unit, or the spellings of one (the first as written), each once;
    /// the other spellings only where each of their terms is `held`.
    fn of_spellings(mut spelled: Vec<Unit>, held: &dyn Fn(&str) -> bool) -> Option<Unit> {
        let mut distinct: Vec<Unit> = Vec::new();
        for (i, unit) in spelled.drain(..).enumerate() {
            if i == 0 || unit.terms().iter().all(|t| held(t)) {
                push_new(&mut distinct, unit);
            }
        }
        match distinct.len() {
            0 | 1 => distinct.pop(),
            _ => Some(Unit::Spellings(distinct)),
        }
    }

    /// The unit in one field, or None when it cannot match there.
    fn query_in(&self, field: Field) -> Option<Box<dyn Query>> {
        let term = |t: &str| Term::from_field_text(field, t);
        match self {
            Unit::Term(t) => Some(Box::new(TermQuery::new(term(t), IndexRecordOption::WithFreqs))),
            Unit::Phrase(ts) if ts.len() >= 2 => {
                Some(Box::new(PhraseQuery::new_with_offset(ts.iter().map(|(o, t)| (*o, term(t))).collect())))
            }
            Unit::Phrase(ts) => {
                ts.first().map(|(_, t)| Box::new(TermQuery::new(term(t), IndexRecordOption::WithFreqs)) as _)
            }
            Unit::AnyOf(ts) if ts.is_empty() => None,
            Unit::AnyOf(ts) => Some(Box::new(BooleanQuery::new(
                ts.iter()
                    .map(|t| {
                        (
                            Occur::Should,
                            Box::new(TermQuery::new(term(t), IndexRecordOption::WithFreqs)) as Box<dyn Query>,
                        )
                    })
                    .collect(),
            ))),
            Unit::Spellings(us) => {
                let clauses: Vec<(Occur, Box<dyn Query>)> =
                    us.iter().filter_map(|u| Some((Occur::Should, u.query_in(field)?))).collect();
                (!clauses.is_empty()).then(|| Box::new(BooleanQuery::new(clauses)) as Box<dyn Query>)
            }
            // The best of them: a section writing the word and some of its
            // forms counts the word once.
            Unit::Forms(u, forms) => {
                let mut best: Vec<Box<dyn Query>> = forms
                    .iter()
                    .map(|t| {
                        let q = Box::new(TermQuery::new(term(t), IndexRecordOption::WithFreqs));
                        Box::new(BoostQuery::new(q, FORM_WEIGHT)) as Box<dyn Query>
                    })
                    .collect();
                best.extend(u.query_in(field));
                Some(Box::new(DisjunctionMaxQuery::new(best)))
            }
        }
    }

    /// The unit in body, title (×3) or breadcrumb (×1.5).
    fn query(&self, f: &Fields) -> Option<Box<dyn Query>> {
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for (field, boost) in [(f.body, 1.0), (f.title, TITLE_BOOST), (f.breadcrumb, BREADCRUMB_BOOST)] {
            if let Some(q) = self.query_in(field) {
                clauses.push((Occur::Should, Box::new(BoostQuery::new(q, boost))));
            }
        }
        (!clauses.is_empty()).then(|| Box::new(BooleanQuery::new(clauses)) as Box<dyn Query>)
    }
}

/// A query word or phrase, folded and analysed once.
struct Word {
    folded: String,
    /// As typed (a name's case tells `-O` from `-o`; see [`cased_key`]).
    written: String,
    /// Its terms as the index holds them ([`phrase_terms`]).
    terms: Vec<(usize, String)>,
    /// Its other spellings ([`spellings`]), folded, with their terms: each
    /// at the positions of `terms`; then the words a short form stands for
    /// ([`long_form`]: `standard output` for `stdout`).
    others: Vec<(String, Vec<(usize, String)>)>,
    /// Which of `others` some section may hold as a whole: each of its
    /// terms is in some section (all but the umlaut forms until
    /// [`Word::held_by`]).
    held: Vec<bool>,
    /// How many of `others`, at their end, are the word's umlaut forms
    /// ([`umlaut_forms`]): searched only where the word as typed is not.
    umlauts: usize,
    /// It says nothing about the answer ([`is_stopword`]), decided once.
    stop: bool,
    /// Its forms in the languages searched ([`word_forms`]).
    forms: Vec<String>,
}

impl Word {
    /// A query word: a call's arguments are an example (`pg_sleep(5)`), as
    /// are a subscript's or a generic's (`Optional[int]`, `Vec<u8>`), and
    /// the name is what is searched.
    fn new(text: &str) -> Word {
        let word = Word::as_written(text);
        match bare_name(&word.folded) {
            Some(name) => Word {
                terms: phrase_terms(&analyzed_folded(name)),
                others: Vec::new(),
                held: Vec::new(),
                umlauts: 0,
                ..word
            },
            None => word,
        }
    }

    /// A word or quoted phrase searched as written.
    fn as_written(text: &str) -> Word {
        let folded = fold(text);
        let tokens = analyzed_folded(&folded);
        let terms = phrase_terms(&tokens);
        let at = |ts: &[(usize, String)]| ts.iter().map(|t| t.0).collect::<Vec<_>>();
        let others: Vec<(String, Vec<(usize, String)>)> = spellings(&folded)
            .into_iter()
            .skip(1)
            .map(|s| {
                let ts = phrase_terms(&analyzed_folded(&s));
                (s, ts)
            })
            .filter(|(_, ts)| at(ts) == at(&terms))
            .chain(long_form(&folded).map(|long| (long.to_owned(), phrase_terms(&analyzed_folded(long)))))
            .chain(closed_compound(&tokens))
            .collect();
        let umlauts: Vec<(String, Vec<(usize, String)>)> = umlaut_forms(&folded)
            .into_iter()
            .map(|form| {
                let ts = phrase_terms(&analyzed_folded(&form));
                (form, ts)
            })
            .filter(|(_, ts)| at(ts) == at(&terms))
            .collect();
        let umlauts_count = umlauts.len();
        let mut others = others;
        others.extend(umlauts);
        let stop = is_stopword(&folded);
        // (Umlaut forms only once [`Word::held_by`] says the word as typed is not held.)
        let mut held = vec![true; others.len()];
        held[others.len() - umlauts_count..].fill(false);
        Word {
            folded,
            written: text.to_owned(),
            terms,
            others,
            held,
            umlauts: umlauts_count,
            stop,
            forms: Vec::new(),
        }
    }

    /// Marks the other spellings that a term no section holds spells:
    /// searching for them as a whole costs and finds nothing. A word's
    /// umlaut forms are searched only where no section holds the word as
    /// typed (`schluessel`; not `queue`), the first that some section holds.
    fn held_by(mut self, held: &dyn Fn(&str) -> bool) -> Word {
        let all_held = |ts: &[(usize, String)]| ts.iter().all(|(_, t)| held(t));
        self.held = self.others.iter().map(|(_, ts)| all_held(ts)).collect();
        let first_umlaut = self.others.len() - self.umlauts;
        let mut wanted = !all_held(&self.terms);
        for h in &mut self.held[first_umlaut..] {
            *h &= wanted;
            wanted &= !*h;
        }
        self
    }

    /// In an edition written in traditional characters (`traditional`), a
    /// word written in them is searched as written: its simplified
    /// spellings (see [`spellings`]) would match there only by chance.
    fn in_traditional(mut self, traditional: bool) -> Word {
        if traditional && self.folded.chars().any(|c| crate::t2s::simplified(c).is_some()) {
            let others = std::mem::take(&mut self.others).into_iter().zip(std::mem::take(&mut self.held));
            (self.others, self.held) =
                others.filter(|((spelled, _), _)| !spelled.chars().any(crate::text::is_cjk)).unzip();
        }
        self
    }

    fn unit(&self) -> Option<Unit> {
        let others = self.others.iter().zip(&self.held).filter(|(_, held)| **held);
        let others = others.map(|((_, ts), _)| ts.clone());
        let all = std::iter::once(self.terms.clone()).chain(others).filter_map(Unit::of_terms).collect();
        let unit = Unit::of_spellings(all, &|_| true)?;
        Some(if self.forms.is_empty() { unit } else { Unit::Forms(Box::new(unit), self.forms.clone()) })
    }

    /// Its runs in tier 2, each spelling's (the one written first): those
    /// whose runs line up with the written one's.
    fn spelled_runs(&self) -> Vec<Vec<Run>> {
        let written = content_runs(&self.folded, &self.terms);
        let others = self.others.iter().map(|(folded, ts)| content_runs(folded, ts));
        let others: Vec<Vec<Run>> = others.filter(|runs| same_shape(runs, &written)).collect();
        std::iter::once(written).chain(others).collect()
    }

    /// Adds `forms` (terms the library holds) but the word's own.
    fn with_forms(mut self, forms: Vec<String>) -> Word {
        self.forms = forms.into_iter().filter(|form| self.terms.iter().all(|t| t.1 != *form)).collect();
        self
    }

    /// Marks a function word of one of `languages` (see [`query_languages`])
    /// as saying nothing about the answer.
    fn stop_in(mut self, languages: &[&str]) -> Word {
        self.stop |= is_function_word(languages, &self.folded);
        self
    }

    fn is_stopword(&self) -> bool {
        self.stop
    }
}

/// The terms of a phrase as the index holds them: words (not identifier
/// parts) and operators at their positions; for CJK runs the bigrams, or
/// the unigram of a one-char run.
fn phrase_terms(tokens: &[Analyzed]) -> Vec<(usize, String)> {
    let bigram_at: HashSet<usize> =
        tokens.iter().filter(|t| t.kind == TokenKind::Bigram).map(|t| t.position).collect();
    let mut terms: Vec<(usize, String)> = tokens
        .iter()
        .filter(|t| match t.kind {
            TokenKind::Word | TokenKind::Bigram => true,
            // `::` of `Vec::new`, `->` of `a->b`, at the next word's
            // position: the phrase is found as written.
            TokenKind::Operator => true,
            TokenKind::Part | TokenKind::Camel | TokenKind::LowerCamel | TokenKind::Joined => false,
            // A one-char run: no bigram starts at it or just before it.
            TokenKind::Unigram => {
                let before = t.position.checked_sub(1).is_some_and(|p| bigram_at.contains(&p));
                !before && !bigram_at.contains(&t.position)
            }
        })
        .map(|t| (t.position, t.text.clone()))
        .collect();
    terms.sort();
    let first = terms.first().map_or(0, |t| t.0);
    for t in &mut terms {
        t.0 -= first;
    }
    terms
}

/// A hyphenated word's closed spelling (`readonly` for `read-only`, `email`
/// for `e-mail`): the index holds each compound closed too, so this one
/// term finds both spellings. None unless the word is one compound.
fn closed_compound(tokens: &[Analyzed]) -> Option<(String, Vec<(usize, String)>)> {
    let mut joined = tokens.iter().filter(|t| t.kind == TokenKind::Joined);
    let (Some(compound), None) = (joined.next(), joined.next()) else { return None };
    let inside = |t: &Analyzed| t.from >= compound.from && t.to <= compound.to;
    tokens.iter().all(inside).then(|| (compound.text.clone(), vec![(0, compound.text.clone())]))
}

/// The stemmed tokens of text already folded.
fn analyzed_folded(folded: &str) -> Vec<Analyzed> {
    let mut tokens = Vec::new();
    analyze(folded, true, &mut tokens);
    tokens
}

/// A word or phrase as one unit (a term when it is a single token).
fn unit_of(text: &str) -> Option<Unit> {
    Word::new(text).unit()
}

fn expand_prefix(searcher: &Searcher, f: &Fields, prefix: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    // The typed text may run past the indexed stem (`lockin` for `lock`,
    // stem of `locking`): take the longest indexed term it starts with.
    let chars: Vec<usize> = prefix.char_indices().map(|(b, _)| b).skip(1).collect();
    let shortest = chars.len().saturating_sub(4).max(2);
    'shorter: for &end in chars.iter().skip(shortest).rev() {
        let shorter = &prefix[..end];
        for reader in searcher.segment_readers() {
            for field in [f.body, f.title] {
                if let Ok(inverted) = reader.inverted_index(field)
                    && inverted.terms().get(shorter).ok().flatten().is_some()
                {
                    found.push(shorter.to_string());
                    break 'shorter;
                }
            }
        }
    }
    push_terms_starting(searcher, f, prefix, MAX_PREFIX_TERMS, &mut found);
    found
}

/// Appends to `found` the body and title terms that start with `prefix`
/// (none twice), until it holds `max`.
fn push_terms_starting(searcher: &Searcher, f: &Fields, prefix: &str, max: usize, found: &mut Vec<String>) {
    let mut upper = prefix.as_bytes().to_vec();
    upper.push(0xFF);
    for reader in searcher.segment_readers() {
        for field in [f.body, f.title] {
            let Ok(inverted) = reader.inverted_index(field) else { continue };
            let Ok(mut stream) = inverted.terms().range().ge(prefix.as_bytes()).lt(&upper).into_stream()
            else {
                continue;
            };
            while stream.advance() {
                if found.len() >= max {
                    return;
                }
                if let Ok(term) = std::str::from_utf8(stream.key())
                    && !found.iter().any(|t| t == term)
                {
                    found.push(term.to_string());
                }
            }
        }
    }
}

/// The forms of a word in the languages of the editions searched and of
/// the query (see [`word_roots`]) that the library holds: `instalar` also
/// finds `instalação` and `instalado`, `Paket` also `Paketverwaltung`.
/// None for a stopword, a name or a phrase.
fn word_forms(searcher: &Searcher, f: &Fields, languages: &[&str], word: &Word) -> Vec<String> {
    if word.stop || word.terms.len() != 1 {
        return Vec::new();
    }
    let mut forms = Vec::new();
    for root in word_roots(languages, &word.folded) {
        push_terms_starting(searcher, f, &root, (forms.len() + MAX_FORMS).min(MAX_WORD_FORMS), &mut forms);
    }
    forms
}

/// The query's words and phrases as units, and the clauses every tier carries.
struct Units {
    /// One per query word that has terms, in order; the last word typed may
    /// be a prefix expansion.
    words: Vec<Unit>,
    /// Which of `words` are English stopwords (not highlighted beside others).
    stop: Vec<bool>,
    /// For each of `words` with Chinese question words in it (`在哪里可以获得帮助`):
    /// the spellings of its content pieces (`获得帮助`), the only text of it
    /// highlighted.
    content: Vec<Option<Vec<String>>>,
    phrases: Vec<Unit>,
    /// Each phrase (must) and each exclusion (must not). The edition filter
    /// is applied while collecting (a fast-field lookup), cheaper than
    /// intersecting with every edition's postings.
    filters: Vec<(Occur, Box<dyn Query>)>,
}

impl Units {
    fn new(
        searcher: &Searcher,
        f: &Fields,
        request: &SearchRequest<'_>,
        words: &[Word],
        phrases: &[Word],
    ) -> Units {
        let mut units = Vec::new();
        let mut stop = Vec::new();
        let mut content = Vec::new();
        let last = words.len().saturating_sub(1);
        for (i, word) in words.iter().enumerate() {
            let Some(unit) = word.unit() else { continue };
            stop.push(word.is_stopword());
            let pieces = content_pieces(&word.folded);
            content.push(
                (pieces.len() != 1 || pieces[0].len() != word.folded.len())
                    .then(|| pieces.iter().flat_map(|p| spellings(p)).collect()),
            );
            units.push(match unit {
                Unit::Term(t) if request.last_word_prefix && i == last && !t.chars().any(is_cjk) => {
                    prefix_unit(searcher, f, word, t)
                }
                other => other,
            });
        }
        let phrases: Vec<Unit> = phrases.iter().filter_map(Word::unit).collect();
        let excluded = request.query.excluded.iter().filter_map(|e| unit_of(e)).filter_map(|u| u.query(f));
        let filters = phrases
            .iter()
            .filter_map(|u| u.query(f))
            .map(|q| (Occur::Must, q))
            .chain(excluded.map(|q| (Occur::MustNot, q)))
            .collect();
        Units { words: units, stop, content, phrases, filters }
    }

    fn filters(&self) -> Vec<(Occur, Box<dyn Query>)> {
        self.filters.iter().map(|(occur, q)| (*occur, q.box_clone())).collect()
    }
}

/// The last word typed so far: its stemmed term, or any indexed term it starts.
fn prefix_unit(searcher: &Searcher, f: &Fields, word: &Word, stemmed: String) -> Unit {
    let mut unstemmed = Vec::new();
    analyze(&word.folded, false, &mut unstemmed);
    let prefix = unstemmed.first().map(|a| a.text.clone()).unwrap_or_else(|| stemmed.clone());
    let mut terms = expand_prefix(searcher, f, &prefix);
    if !terms.contains(&stemmed) {
        terms.push(stemmed);
    }
    Unit::AnyOf(terms)
}

/// What snippets light, in groups: one per word or phrase (a prefix's
/// expansions and a CJK run's bigrams share their word's group). Stopwords
/// are not lit beside other words: a window is chosen for the words that
/// matter.
struct Lit {
    terms: Vec<(String, u32)>,
    groups: u32,
}

impl Lit {
    fn new(units: &Units) -> Lit {
        let mut lit = Lit { terms: Vec::new(), groups: 0 };
        let only_stopwords = units.phrases.is_empty() && units.stop.iter().all(|&s| s);
        let words = units
            .words
            .iter()
            .zip(&units.stop)
            .zip(&units.content)
            .filter(|((_, stop), _)| only_stopwords || !**stop)
            .map(|((unit, _), content)| (unit, content.as_deref()));
        let words = words.map(|(unit, content)| (unit, content, false));
        for (unit, content, quoted) in words.chain(units.phrases.iter().map(|p| (p, None, true))) {
            // The words of a Latin phrase or a dotted name (`os.path.join`)
            // are lit as groups of their own: the window showing all of
            // them beats one showing `os` and `path` often.
            let apart = matches!(unit, Unit::Phrase(ts) if !ts.iter().any(|(_, t)| t.chars().any(is_cjk)));
            // A question's own words (`可以`, `哪里`) are not lit, nor the
            // bigrams across their edges, nor those joining a word to `的`
            // (`的参` of `GIMP的参考书`, lit in 笔刷的参数) unless that is the
            // word (`目的`).
            let asked = |t: &str| {
                t.chars().any(is_cjk) && content.is_some_and(|pieces| !pieces.iter().any(|p| p.contains(t)))
            };
            let joins_de = |t: &str| !quoted && of_de(t) && !matches!(unit, Unit::Term(_));
            for t in unit.terms().into_iter().filter(|t| !asked(t) && !joins_de(t)) {
                if lit.add(t, lit.groups) && apart {
                    lit.groups += 1;
                }
            }
            if !apart {
                lit.groups += 1;
            }
        }
        lit
    }

    /// Lights `term` in `group` unless it is lit already; true when added.
    fn add(&mut self, term: &str, group: u32) -> bool {
        let new = !self.terms.iter().any(|(h, _)| h == term);
        if new {
            self.terms.push((term.to_string(), group));
        }
        new
    }

    /// Each bigram of a CJK sentence is lit as a group of its own, but those
    /// joining a word to `的` (`表的`, `的大` of `查看表的大小`).
    fn add_grams(&mut self, grams: &[Unit]) {
        for t in grams.iter().flat_map(Unit::terms).filter(|t| !of_de(t)) {
            if self.add(t, self.groups) {
                self.groups += 1;
            }
        }
    }
}

/// True for a CJK bigram holding `的`, the commonest char of Chinese, which
/// marks the word before it as qualifying the next (`表的大小`).
fn of_de(term: &str) -> bool {
    term.chars().count() == 2 && term.contains('的')
}

/// The symbol keys `queries` ask, each once, in the order asked.
fn asked_names<'a>(f: &Fields, queries: impl Iterator<Item = &'a dyn Query>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for query in queries {
        query.query_terms(&mut |term, _| {
            if term.field() == f.symbol
                && let Some(key) = term.value().as_str()
                && !out.iter().any(|k| k == key)
            {
                out.push(key.to_owned());
            }
        });
    }
    out
}

fn const_term(field: Field, text: &str, score: Score) -> Box<dyn Query> {
    Box::new(ConstScoreQuery::new(
        Box::new(TermQuery::new(Term::from_field_text(field, text), IndexRecordOption::Basic)),
        score,
    ))
}

/// Tier 1: every word and phrase, none of the exclusions; the section whose
/// symbol is exactly the query words qualifies too, scored above all.
fn tier1(
    (stats, f): (&Stats<'_>, &Fields),
    request: &SearchRequest<'_>,
    units: &Units,
    (words, (symbol_text, written)): (&[Word], (&str, &str)),
    (names, asked, pasted): (&[String], Option<&str>, bool),
) -> Box<dyn Query> {
    // A name written as a call, a subscript or a decorator (`print()`,
    // `Optional[int]`, `@staticmethod`) is the name.
    let bare = bare_name(symbol_text).map(|name| (name, bare_name(written).unwrap_or(written)));
    let symbol =
        (!symbol_text.is_empty()).then(|| symbol_query(f, (symbol_text, Some(written)), SYMBOL_SCORE));
    let symbol = symbol
        .into_iter()
        .chain(bare.map(|(name, as_typed)| symbol_query(f, (name, Some(as_typed)), SYMBOL_SCORE)));
    // Names written apart (`ArrayUtils contains`) are the member they name
    // (`ArrayUtils.contains`).
    let dotted = (!pasted).then(|| dotted_symbol(words)).flatten();
    let symbol = symbol.chain(dotted.map(|key| symbol_query(f, (&key, None), SYMBOL_SCORE)));
    // A function as Erlang names it (`lists:map/2`) is the module's member.
    let symbol =
        symbol.chain(module_function(symbol_text).map(|key| symbol_query(f, (&key, None), SYMBOL_SCORE)));
    let mut tier1 = units.filters();
    // The section defining the term the query is (`operator class`, `操作符类`)
    // or asks about.
    let defined = defined_key_of_folded(symbol_text);
    for key in std::iter::once(defined.as_str()).chain(asked).filter(|k| !k.is_empty()) {
        tier1.push((Occur::Should, const_term(f.symbol, key, DEFINED_SCORE)));
    }
    // The section the query is the whole title of ("Layout Management").
    let titled = title_key_of_folded(symbol_text);
    if !titled.is_empty() {
        tier1.push((Occur::Should, const_term(f.symbol, &titled, TITLE_SCORE)));
        tier1.push((Occur::Should, const_term(f.symbol, &page_title_key(&titled), PAGE_TITLE_SCORE)));
    }
    // A qualified name where the manual declares or titles its member bare
    // (Doxygen's `perspective()` in namespace glm, fastify's `#### register`
    // on its Server page) names that member, below any declared as typed.
    // Among such members, those on the page of what qualifies it
    // (`Json::Reader::parse` on "Json::Reader Class Reference") come first.
    let member = member_of(symbol_text).map(|(qualifier, last)| {
        tier1.push((Occur::Should, const_term(f.page_symbol, qualifier, PAGE_SYMBOL_SCORE)));
        member_query(f, last)
    });
    // Every word that says something must match; stopwords only score
    // (unless they are all there is).
    let only_stopwords = units.stop.iter().all(|&s| s);
    let all_words: Vec<(Occur, Box<dyn Query>)> = units
        .words
        .iter()
        .zip(&units.stop)
        .filter_map(|(u, &stop)| {
            Some((if stop && !only_stopwords { Occur::Should } else { Occur::Must }, u.query(f)?))
        })
        .collect();
    // A section defining an identifier the query names qualifies too.
    // So does one naming a name by its kind (`port configuration parameter`).
    // Each with the name as typed, where the query has it.
    let mut named: Vec<(String, Option<&str>)> = Vec::new();
    let kind = kind_named(&request.query.words).map(|k| (k, None));
    let only_symbols = symbol_only_words(stats, f, words).into_iter().map(|k| (k, None));
    // (None in a pasted message: the section quoting it is what it asks for.)
    let identifiers = request.query.words.iter().flat_map(|w| identifier_names(w));
    let identifiers = identifiers.map(|name| (symbol_key(name), Some(name)));
    for (key, as_typed) in identifiers.chain(kind).chain(only_symbols).filter(|_| !pasted) {
        if key != symbol_text && Some(key.as_str()) != bare.map(|b| b.0) && !named.iter().any(|n| n.0 == key)
        {
            named.push((key, as_typed));
        }
    }
    // An option named among other words may be defined under a heading
    // of its own, with its dashes or without (npm's `#### all` for `--all`):
    // the page the other words name picks among those headings. A heading
    // that both declares and titles it counts once (netstat's `-F` is no
    // better an answer to `tail -f` than tail's own `-f`).
    let mut alternatives: Vec<(Occur, Box<dyn Query>)> = named
        .iter()
        .map(|(k, as_typed)| {
            let declared = symbol_query(f, (k, *as_typed), NAMED_SYMBOL_SCORE);
            let option = as_typed.filter(|n| n.starts_with('-')).map(|n| title_key_of_folded(&fold(n)));
            let query: Box<dyn Query> = match option.filter(|t| !t.is_empty() && *t != titled) {
                Some(option) => Box::new(DisjunctionMaxQuery::new(vec![
                    declared,
                    const_term(f.symbol, &option, NAMED_SYMBOL_SCORE),
                ])),
                None => declared,
            };
            (Occur::Should, query)
        })
        .collect();
    alternatives.extend(symbol.map(|s| (Occur::Should, s)));
    alternatives.extend(member.map(|m| (Occur::Should, m)));
    match (all_words.is_empty(), alternatives.is_empty()) {
        (false, false) => {
            alternatives.push((Occur::Should, Box::new(BooleanQuery::new(all_words))));
            tier1.push((Occur::Must, Box::new(BooleanQuery::new(alternatives))));
        }
        (false, true) => tier1.extend(all_words),
        // Phrases only: they must match, the symbol only scores.
        (true, false) => tier1.extend(alternatives),
        (true, true) => {}
    }
    let names = names.iter().filter(|k| **k != symbol_text && !named.iter().any(|n| &n.0 == *k));
    push_names(&mut tier1, f, names);
    // A query that starts with a symbol (`create index concurrently`) favours
    // the sections of the page defining it; BM25 picks among them.
    for k in (1..words.len()).rev() {
        let leading = symbol_key_of_folded(words[..k].iter().map(|w| w.folded.as_str()));
        if !leading.is_empty() {
            tier1.push((Occur::Should, const_term(f.page_symbol, &leading, PAGE_SYMBOL_SCORE)));
        }
    }
    Box::new(BooleanQuery::new(tier1))
}

/// The sections declaring or titled by a member's name (counted once),
/// and, below them, those declaring a member of that name that the manual
/// qualifies otherwise (`Rack::Response#set_cookie` declared in
/// `Rack::Response::Helpers`).
fn member_query(f: &Fields, last: &str) -> Box<dyn Query> {
    let score = SYMBOL_SCORE * MEMBER_SHARE;
    let either = vec![
        const_term(f.symbol, last, score),
        const_term(f.symbol, &title_key_of_folded(last), score),
        const_term(f.symbol, &unqualified_key(last), score * UNQUALIFIED_SHARE),
    ];
    Box::new(DisjunctionMaxQuery::new(either))
}

/// Most names a query written as a member's names apart may hold
/// (`os path join`).
const MAX_DOTTED_NAMES: usize = 3;

/// The symbol key of a member named by two or three names written apart
/// (`ArrayUtils contains` → `arrayutils.contains`): each word a name of
/// ASCII letters, digits and `_`; None for any other query.
fn dotted_symbol(words: &[Word]) -> Option<String> {
    (2..=MAX_DOTTED_NAMES).contains(&words.len()).then_some(())?;
    words
        .iter()
        .all(|w| is_ascii_name(&w.folded))
        .then(|| words.iter().map(|w| w.folded.as_str()).collect::<Vec<_>>().join("."))
}

/// A name of ASCII letters, digits and `_`, not starting with a digit.
fn is_ascii_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The symbol key of a function named as Erlang writes it, its module
/// before a colon and its arity after a slash (`lists:map/2` →
/// `lists.map`, `map/2` → `map`, `gen_server:call` → `gen_server.call`),
/// or a method as Ruby writes it (`Hash#fetch` → `hash.fetch`);
/// None for any other key (`std::vector`, `a:b:c`, a path).
fn module_function(key: &str) -> Option<String> {
    let (name, arity) = match key.rsplit_once('/') {
        Some((name, arity)) if !arity.is_empty() && arity.chars().all(|c| c.is_ascii_digit()) => (name, true),
        _ => (key, false),
    };
    // (Ruby's method names may end in `?`, `!` or `=`.)
    let method = |s: &str| is_ascii_name(s.strip_suffix(['?', '!', '=']).unwrap_or(s));
    match name.split_once(':').or_else(|| name.split_once('#')) {
        Some((module, function)) if is_ascii_name(module) && method(function) => {
            Some(format!("{module}.{function}"))
        }
        None if arity && is_ascii_name(name) => Some(name.to_owned()),
        _ => None,
    }
}

/// The sections declaring a name, or a qualified name it is the last part
/// of (scored [`UNQUALIFIED_SHARE`] of `score`) or a shorter form of
/// ([`PARTIAL_SHARE`]).
///
/// Of the names that fold alike (`-O` and `-o`), the one declared as the
/// query types it (`as_typed`) adds [`CASED_SHARE`] of that.
fn symbol_query(f: &Fields, (key, as_typed): (&str, Option<&str>), score: Score) -> Box<dyn Query> {
    let mut clauses = vec![
        (Occur::Should, const_term(f.symbol, key, score)),
        (Occur::Should, const_term(f.symbol, &unqualified_key(key), score * UNQUALIFIED_SHARE)),
    ];
    for (i, partial) in partial_query_keys(key).iter().enumerate() {
        let share = if i == 0 { PARTIAL_SHARE } else { ENDING_SHARE };
        clauses.push((Occur::Should, const_term(f.symbol, partial, score * share)));
    }
    // (A name declared with dots is its own key: `Hash#fetch` of `Hash.fetch`.)
    if let Some(dotted) = dotted_form(key) {
        clauses.push((Occur::Should, const_term(f.symbol, &dotted, score * PARTIAL_SHARE)));
    }
    if let Some(cased) = as_typed.and_then(cased_key) {
        let share = score * CASED_SHARE;
        clauses.push((Occur::Should, const_term(f.symbol, &cased, share)));
        clauses
            .push((Occur::Should, const_term(f.symbol, &unqualified_key(&cased), share * UNQUALIFIED_SHARE)));
    }
    // A name behind the short alias code imports it as (`pd.read_csv`,
    // `np.array`, `df.merge`): the name as the manual declares it, or the
    // last part of one.
    if let Some(rest) = alias_rest(key) {
        let share = score * ALIAS_SHARE;
        clauses.push((Occur::Should, const_term(f.symbol, rest, share)));
        clauses
            .push((Occur::Should, const_term(f.symbol, &unqualified_key(rest), share * UNQUALIFIED_SHARE)));
        for partial in partial_query_keys(rest) {
            clauses.push((Occur::Should, const_term(f.symbol, &partial, share * PARTIAL_SHARE)));
        }
    }
    Box::new(BooleanQuery::new(clauses))
}

/// Longest alias a name is written behind (`pd`, `np`, `plt`, `df`).
const MAX_ALIAS_CHARS: usize = 3;

/// What follows a short alias in a symbol key (`read_csv` of `pd.read_csv`,
/// `random.rand` of `np.random.rand`); None when the key starts with no
/// such alias (`os.path` has one: `path`, found only as a last part).
fn alias_rest(key: &str) -> Option<&str> {
    let (alias, rest) = key.split_once('.')?;
    let short =
        (1..=MAX_ALIAS_CHARS).contains(&alias.len()) && alias.chars().all(|c| c.is_ascii_alphabetic());
    (short
        && rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && is_ascii_name(rest.split('.').next()?))
    .then_some(rest)
}

/// A question's names, each scoring the sections defining it, when the
/// clauses hold one that must match (a name alone never qualifies).
fn push_names<'a>(
    clauses: &mut Vec<(Occur, Box<dyn Query>)>,
    f: &Fields,
    names: impl Iterator<Item = &'a String>,
) {
    if clauses.iter().any(|(occur, _)| *occur == Occur::Must) {
        clauses.extend(names.map(|k| (Occur::Should, const_term(f.symbol, k, QUESTION_NAME_SCORE))));
    }
}

/// The symbol keys of a longer query's words that a symbol names and
/// hardly any section's text holds (`nullglob` in `setopt nullglob`, where
/// a manual's index makes `nullglob` an entry of the section defining
/// `NULL_GLOB`, and only the index page writes it): as words they match
/// next to nothing, as names they find their section.
fn symbol_only_words(stats: &Stats<'_>, f: &Fields, words: &[Word]) -> Vec<String> {
    if words.len() < 2 {
        return Vec::new();
    }
    let held = |t: &str| {
        let df = |field| stats.doc_freq_of(field, t).unwrap_or(0);
        df(f.body) + df(f.title) > MAX_SYMBOL_ONLY_SECTIONS
    };
    words
        .iter()
        .filter(|w| matches!(w.unit(), Some(Unit::Term(t)) if !held(&t)))
        .map(|w| symbol_key_of_folded([w.folded.as_str()]))
        .filter(|k| {
            let declared = |k: &str| stats.doc_freq_of(f.symbol, k).unwrap_or(0) > 0;
            !k.is_empty() && (declared(k) || declared(&unqualified_key(k)))
        })
        .collect()
}

/// The exact symbol a query names: its words, folded and joined by single
/// spaces, or its one phrase; empty when it has neither.
fn exact_symbol(words: &[Word], phrases: &[Word]) -> String {
    if !words.is_empty() {
        symbol_key_of_folded(words.iter().map(|w| w.folded.as_str()))
    } else if let [phrase] = phrases {
        symbol_key_of_folded([phrase.folded.as_str()])
    } else {
        String::new()
    }
}

/// The text of [`exact_symbol`] as typed, its case kept.
fn exact_written(words: &[Word], phrases: &[Word]) -> String {
    match (words, phrases) {
        ([], [phrase]) => phrase.written.clone(),
        ([], _) => String::new(),
        (words, _) => words.iter().map(|w| w.written.as_str()).collect::<Vec<_>>().join(" "),
    }
}

/// The defined-term key of what a question asks about: its words without
/// English stopwords and Chinese question words (`what is an operator
/// class` → `operator class`, `操作符类是什么` → `操作符类`); None when that
/// leaves the query as it is (`whole`, its [`exact_symbol`]: then the query
/// itself is the term) or nothing.
fn asked_term(words: &[Word], whole: &str) -> Option<String> {
    let content = words.iter().filter(|w| !w.is_stopword()).flat_map(|w| content_pieces(&w.folded));
    let asked = symbol_key_of_folded(content);
    let key = defined_key_of_folded(&asked);
    (asked != whole && !key.is_empty()).then_some(key)
}

/// Phrase terms split into CJK runs (consecutive bigrams) and the rest.
enum Run {
    Other(String),
    Cjk(Vec<(usize, String)>),
}

fn cjk_runs(terms: Vec<(usize, String)>) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (position, t) in terms {
        let cjk = t.chars().any(is_cjk);
        match runs.last_mut() {
            Some(Run::Cjk(run)) if cjk && run.last().is_some_and(|l| l.0 + 1 == position) => {
                run.push((position, t))
            }
            _ if cjk => runs.push(Run::Cjk(vec![(position, t)])),
            _ => runs.push(Run::Other(t)),
        }
    }
    runs
}

/// A word's runs, with its Chinese question words cut out (`如何`, `的`:
/// the bigrams they make say nothing).
fn content_runs(folded: &str, terms: &[(usize, String)]) -> Vec<Run> {
    let pieces = content_pieces(folded);
    if pieces.len() == 1 && pieces[0].len() == folded.len() {
        return cjk_runs(terms.to_vec());
    }
    let mut terms: Vec<(usize, String)> = Vec::new();
    for piece in pieces {
        // A gap of one position keeps the pieces' runs apart.
        let offset = terms.last().map_or(0, |t| t.0 + 2);
        terms.extend(phrase_terms(&analyzed_folded(piece)).into_iter().map(|(p, t)| (p + offset, t)));
    }
    cjk_runs(terms)
}

/// The bigrams of a spelling's `i`th run (none for a run of other terms).
fn cjk_bigrams(runs: &[Run], i: usize) -> &[(usize, String)] {
    match &runs[i] {
        Run::Cjk(bigrams) => bigrams,
        Run::Other(_) => &[],
    }
}

/// True when two spellings' runs line up: as many, of the same kinds, CJK
/// runs at the same positions.
fn same_shape(a: &[Run], b: &[Run]) -> bool {
    let at = |run: &[(usize, String)]| run.iter().map(|t| t.0).collect::<Vec<_>>();
    a.len() == b.len()
        && a.iter().zip(b).all(|pair| match pair {
            (Run::Other(_), Run::Other(_)) => true,
            (Run::Cjk(x), Run::Cjk(y)) => at(x) == at(y),
            _ => false,
        })
}

fn push_new(list: &mut Vec<Unit>, unit: Unit) {
    if !list.contains(&unit) {
        list.push(unit);
    }
}

/// The `i`th run of a word's spellings as one unit (the spellings whose
/// terms some section holds).
fn short_run(spelled: &[Vec<Run>], i: usize, held: &dyn Fn(&str) -> bool) -> Option<Unit> {
    let units = spelled.iter().map(|s| {
        let mut bigrams = cjk_bigrams(s, i).to_vec();
        let first = bigrams.first().map_or(0, |b| b.0);
        bigrams.iter_mut().for_each(|b| b.0 -= first);
        Unit::of_terms(bigrams)
    });
    Unit::of_spellings(units.flatten().collect(), held)
}

/// True for the bigrams of a run of katakana alone.
fn katakana(bigrams: &[(usize, String)]) -> bool {
    bigrams.iter().all(|(_, t)| t.chars().all(is_katakana))
}

/// The words of tier 2: Latin words (not stopwords) and short CJK runs (a
/// term like 配置参数) as the words; the bigrams of longer CJK runs (a
/// sentence) as words of their own (the second list).
fn tier2_words(
    words: &[Word],
    units: &Units,
    held: &dyn Fn(&str) -> bool,
    written: &dyn Fn(&Unit) -> bool,
) -> (Vec<Unit>, Vec<Unit>) {
    let mut latin: Vec<Unit> = Vec::new();
    let mut grams: Vec<Unit> = Vec::new();
    // A query that is one CJK run alone (a term, a question) is matched by
    // its bigrams: as one word it could only repeat tier 1.
    let alone = words.iter().map(|w| cjk_runs(w.terms.clone()).len()).sum::<usize>() == 1;
    for word in words {
        if word.is_stopword() {
            // `的区别`, `和`, `how`: never a word of tier 2 (unless all there is).
            continue;
        }
        // Each spelling's runs: the same runs, at the same positions.
        let spelled = word.spelled_runs();
        if !spelled[0].iter().any(|r| matches!(r, Run::Cjk(_))) {
            if !word.folded.chars().any(is_cjk) {
                // A Latin word or phrase (`os.path.join`) as one.
                if let Some(unit) = word.unit() {
                    push_new(&mut latin, unit);
                }
            } else {
                // Latin names around Chinese question words (`sid是什么意思`).
                for run in &spelled[0] {
                    if let Run::Other(t) = run {
                        push_new(&mut latin, Unit::Term(t.clone()));
                    }
                }
            }
            continue;
        }
        for (i, run) in spelled[0].iter().enumerate() {
            match run {
                Run::Other(t) => push_new(&mut latin, Unit::Term(t.clone())),
                // `用` in `用PL/pgSQL编写`, `里` in `psql里`: says nothing.
                Run::Cjk(bigrams) if matches!(&bigrams[..], [(_, t)] if is_stopword(t)) => {}
                // A short run the library writes as such (`配置参数`) is a
                // word; one it never writes (`启动安装` of `PXE启动安装`) is
                // two words run together, searched by its bigrams below.
                // A run of katakana is one word however long (a loanword:
                // `ファイアウォール`, where `ファイ` would find `ファイル`),
                // when the library writes it.
                Run::Cjk(bigrams)
                    if (katakana(bigrams) || !alone && bigrams.len() < MAX_CJK_WORD_CHARS)
                        && let Some(unit) = short_run(&spelled, i, held)
                        && written(&unit) =>
                {
                    push_new(&mut latin, unit);
                }
                Run::Cjk(bigrams) => {
                    for at in 0..bigrams.len() {
                        let spelled = spelled
                            .iter()
                            .filter_map(|s| Some(Unit::Term(cjk_bigrams(s, i).get(at)?.1.clone())));
                        if let Some(unit) = Unit::of_spellings(spelled.collect(), held) {
                            push_new(&mut grams, unit);
                        }
                    }
                }
            }
        }
    }
    if let Some(Unit::AnyOf(terms)) = units.words.last()
        && let Some(last) = latin.last_mut()
        && matches!(last, Unit::Term(stemmed) if terms.contains(stemmed))
    {
        // Keep the prefix expansion of the last word in tier 2 as well.
        *last = Unit::AnyOf(terms.clone());
    }
    if latin.is_empty() && grams.is_empty() {
        // Only stopwords: then they are the words.
        latin = units.words.clone();
    }
    (latin, grams)
}

/// Proximity: each two neighbouring words of the query (Latin words, short
/// CJK terms, stopwords left out), scored where a section holds them close
/// together (see [`Proximity`]). Sections holding the query's words
/// together outrank those holding them scattered. The bigrams of a CJK
/// sentence get none: they overlap already, and three chars of a sentence
/// found together (`另一个`) say little of its subject.
fn proximity(latin: &[Unit], idfs: &[Option<Score>]) -> Option<Proximity> {
    let words: Vec<Option<(&str, &str, Score)>> = latin
        .iter()
        .zip(idfs)
        .map(|(unit, idf)| {
            let terms = offset_terms(unit)?;
            Some((terms.first()?.1, terms.last()?.1, PROXIMITY_BOOST * (*idf)?))
        })
        .collect();
    Proximity::new(&words)
}

/// A term's or phrase's terms at their offsets (a word's as written); None
/// for a prefix expansion.
fn offset_terms(unit: &Unit) -> Option<Vec<(usize, &str)>> {
    match unit {
        Unit::Term(t) => Some(vec![(0, t.as_str())]),
        Unit::Phrase(ts) => Some(ts.iter().map(|(o, t)| (*o, t.as_str())).collect()),
        Unit::AnyOf(_) => None,
        Unit::Spellings(us) => offset_terms(us.first()?),
        Unit::Forms(u, _) => offset_terms(u),
    }
}

/// The first term of each of a unit's spellings; None for a prefix expansion.
fn first_terms(unit: &Unit) -> Option<Vec<&str>> {
    match unit {
        Unit::Spellings(us) => us.iter().map(|u| Some(offset_terms(u)?.first()?.1)).collect(),
        _ => Some(vec![offset_terms(unit)?.first()?.1]),
    }
}

/// BM25's inverse document frequency of a unit in the body field: a term's,
/// a phrase's rarest term's (a phrase is at least as rare), or the most
/// common spelling's (a word is as common as its spellings together, at
/// least); None for a prefix expansion or a term no section holds.
fn idf(stats: &Stats<'_>, body: Field, unit: &Unit) -> Option<Score> {
    let n = stats.searcher.num_docs() as Score;
    let of = |t: &str| -> Option<Score> {
        let df = stats.doc_freq_of(body, t)?;
        (df > 0).then(|| bm25_idf(df as Score, n))
    };
    match unit {
        Unit::Term(t) => of(t),
        Unit::Phrase(ts) => {
            let rarest = ts
                .iter()
                .map(|(_, t)| of(t))
                .collect::<Option<Vec<Score>>>()?
                .into_iter()
                .reduce(Score::max)?;
            // A phrase of words (a version `2.5.2`, `std::vector`) is rarer
            // than its rarest word, often by far: counted. (A CJK word's
            // bigrams tell its rarity well enough, uncounted.)
            let latin = ts.len() >= 2 && !ts.iter().any(|(_, t)| t.chars().any(is_cjk));
            let counted = latin.then(|| unit.query_in(body)?.count(stats.searcher).ok()).flatten();
            Some(match counted {
                Some(df) if df > 0 => bm25_idf(df as Score, n).max(rarest),
                _ => rarest,
            })
        }
        Unit::AnyOf(_) => None,
        Unit::Spellings(us) => us.iter().filter_map(|u| idf(stats, body, u)).reduce(Score::min),
        // The word's own, or, where no section writes it (`installiere`),
        // its commonest form's.
        Unit::Forms(u, forms) => {
            idf(stats, body, u).or_else(|| forms.iter().filter_map(|t| of(t)).reduce(Score::min))
        }
    }
}

/// Whether the editions searched hold a word (given its rarity in the library).
type Held<'a> = &'a dyn Fn(&Unit, Option<Score>) -> bool;

/// Tier 2: most of the words (or the rarest one), each weighed by its
/// rarity: a section with only the rare word (`log_min_duration_sample`)
/// outranks one titled with the two common ones (`configuration
/// parameters`). None when it could add nothing to tier 1.
fn tier2(
    f: &Fields,
    units: &Units,
    (latin, grams): (&[Unit], &[Unit]),
    (idfs, edges, present): (&[Option<Score>], &[bool], Held<'_>),
    (names, asked): (&[String], Option<&str>),
) -> Option<(Box<dyn Query>, Coverage)> {
    let all = || latin.iter().chain(grams);
    let known: Vec<Score> = idfs.iter().flatten().copied().collect();
    let mean_idf = if known.is_empty() { 1.0 } else { known.iter().sum::<Score>() / known.len() as Score };
    // Each word's weight: the rarity of a Latin word or a word's bigram;
    // a bigram across two words' edge weighs [`EDGE_WEIGHT`] of its own.
    let factor = |i: usize| if i >= latin.len() && edges[i - latin.len()] { EDGE_WEIGHT } else { 1.0 };
    let idfs: Vec<Option<Score>> =
        idfs.iter().enumerate().map(|(i, idf)| idf.map(|x| x * factor(i))).collect();
    let idfs = &idfs[..];
    let boosted = |u: &Unit, idf: Option<Score>| -> Option<Box<dyn Query>> {
        let q = u.query(f)?;
        Some(match idf {
            Some(idf) => Box::new(BoostQuery::new(q, idf / mean_idf)) as Box<dyn Query>,
            None => q,
        })
    };
    let shoulds: Vec<Box<dyn Query>> = all().zip(idfs).filter_map(|(u, idf)| boosted(u, *idf)).collect();
    // One word adds something when tier 1 holds more (other words, a
    // phrase) or other than it (`sid` of `sid是什么意思`).
    let many = units.words.len() + units.phrases.len() > 1 || all().next() != units.words.first();
    if !(shoulds.len() >= 2 || (shoulds.len() == 1 && many)) {
        return None;
    }
    // Half the words the editions searched hold (one they never write,
    // `误报` where the manual says `错误诊断`, cannot be matched, so it does
    // not raise the bar for the others); two bigrams of a CJK sentence make
    // about one word.
    let minimum_of =
        |latin: usize, grams: usize| (latin.div_ceil(2) + grams.div_ceil(4)).clamp(1, shoulds.len());
    let mut minimum = minimum_of(latin.len(), grams.len());
    if minimum > 1 {
        // (Looked up only where it can lower the bar.)
        let held = |units: &[Unit], idfs: &[Option<Score>]| {
            units.iter().zip(idfs).filter(|(u, idf)| present(u, **idf)).count()
        };
        minimum = minimum_of(held(latin, &idfs[..latin.len()]), held(grams, &idfs[latin.len()..]));
    }
    let any = (minimum > 1 && words(latin, grams) >= LOOSE_WORDS).then(|| {
        let mut clauses = units.filters();
        let any = BooleanQuery::union(shoulds.iter().map(|q| q.box_clone()).collect());
        clauses.push((Occur::Must, Box::new(any) as Box<dyn Query>));
        Box::new(BooleanQuery::new(clauses)) as Box<dyn Query>
    });
    let most: Box<dyn Query> = Box::new(BooleanQuery::with_minimum_required_clauses(
        shoulds.into_iter().map(|q| (Occur::Should, q)).collect(),
        minimum,
    ));
    // The rarest word alone also qualifies: `log_min_duration_sample
    // configuration parameter` must find the one section naming the
    // setting even when it lacks the two common words.
    let rarest = all()
        .zip(idfs)
        .filter_map(|(u, idf)| (*idf).map(|idf| (idf, u)))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .and_then(|(idf, u)| boosted(u, Some(idf)));
    let mut clauses = units.filters();
    match rarest {
        Some(rare) if minimum > 1 => clauses.push((
            Occur::Must,
            Box::new(BooleanQuery::new(vec![(Occur::Should, most), (Occur::Should, rare)])),
        )),
        _ => clauses.push((Occur::Must, most)),
    }
    push_names(&mut clauses, f, names.iter());
    if let Some(key) = asked {
        clauses.push((Occur::Should, const_term(f.symbol, key, DEFINED_SCORE)));
    }
    // The bigrams of a CJK sentence count by the mean rarity, not their
    // own: those spanning two words (制每 in 限制每个) are rare but say
    // nothing, and count [`EDGE_WEIGHT`] of it.
    let weights = latin.iter().zip(idfs).map(|(_, idf)| idf.unwrap_or(mean_idf));
    let weights: Vec<Score> =
        weights.chain((latin.len()..latin.len() + grams.len()).map(|i| mean_idf * factor(i))).collect();
    let coverage: Vec<(Box<dyn Query>, Score)> =
        all().zip(&weights).filter_map(|(u, weight)| Some((u.query(f)?, *weight))).collect();
    let total = coverage.iter().map(|u| u.1).sum::<Score>().max(Score::MIN_POSITIVE);
    let merged = question(latin, grams);
    let scale = if merged { QUESTION_COVERAGE_SCORE } else { KEYWORD_COVERAGE_SCORE };
    // A question's words found in one passage: each word by its first term.
    let passage = merged
        .then(|| Passage::new(all().zip(&weights).filter_map(|(u, w)| Some((first_terms(u)?, *w)))))
        .flatten();
    // And in a heading they make up: each word by all its terms.
    let heading =
        merged.then(|| HeadingCover::new(all().zip(&weights).map(|(u, w)| (u.terms(), *w)))).flatten();
    let coverage = Coverage { units: coverage, total, scale, merged, passage, heading, loose: any };
    Some((Box::new(BooleanQuery::new(clauses)) as Box<dyn Query>, coverage))
}

/// True for a question: enough words that a section may miss one and still
/// answer. Chinese is written without spaces and most of its words are two
/// chars: a run of n chars (n - 1 bigrams) makes about n / 2 words, rounded
/// up, so 创建复制槽 (create replication slot) makes three, as in English.
fn question(latin: &[Unit], grams: &[Unit]) -> bool {
    words(latin, grams) >= QUESTION_WORDS
}

/// How many words a query's tier 2 holds (see [`question`]).
fn words(latin: &[Unit], grams: &[Unit]) -> usize {
    latin.len() + if grams.is_empty() { 0 } else { (grams.len() + 2) / 2 }
}

/// Which bigrams of CJK sentences are two words' edges (`消另`, `个会`,
/// `话正` in 取消另一个会话正在执行的查询) rather than words or parts of one
/// (`会话`, `执行`, `查询`): a word's bigram holds its rarer char in at
/// least [`WORD_SHARE`] of the sections holding that char, and its two
/// chars stand together more often than chance would put them in one
/// section. Sentences are written without spaces, so an edge is as much a
/// "word" to the index as a real one, and a rare one (`消另`) would
/// otherwise weigh most. A bigram with other spellings is a word when one
/// of them looks like one. None is an edge when none looks like a word.
/// Measured on the body field.
fn edge_bigrams(stats: &Stats<'_>, body: Field, grams: &[Unit]) -> Vec<bool> {
    if grams.len() < 2 {
        return vec![false; grams.len()];
    }
    let n = stats.searcher.num_docs().max(1) as Score;
    let df = |t: &str| stats.doc_freq_of(body, t).unwrap_or(0) as Score;
    let word_like_term = |t: &str| {
        let mut cs = t.chars();
        let (Some(a), Some(b), None) = (cs.next(), cs.next(), cs.next()) else { return true };
        let both = df(t);
        let (da, db) = (df(a.encode_utf8(&mut [0u8; 4])), df(b.encode_utf8(&mut [0u8; 4])));
        both >= WORD_SHARE * da.min(db) && both * n >= da * db
    };
    // A bigram with other spellings is a word when one of them looks like
    // one (the manual's 线外 for the 行外 written).
    let word_like_unit = |u: &Unit| match u {
        Unit::Term(t) => word_like_term(t),
        _ => true,
    };
    let word_like: Vec<bool> = grams
        .iter()
        .map(|g| match g {
            Unit::Spellings(us) => us.iter().any(word_like_unit),
            other => word_like_unit(other),
        })
        .collect();
    if !word_like.contains(&true) {
        return vec![false; grams.len()];
    }
    word_like.into_iter().map(|w| !w).collect()
}

/// True when the editions searched hold the unit (`held_here`: a body
/// term): a term, every term of a phrase, one of a word's spellings; a
/// prefix expansion's terms are the index's own.
fn unit_held(unit: &Unit, held_here: &dyn Fn(&str) -> bool) -> bool {
    match unit {
        Unit::Term(t) => held_here(t),
        Unit::Phrase(ts) => ts.iter().all(|(_, t)| held_here(t)),
        Unit::AnyOf(_) => true,
        Unit::Spellings(us) => us.iter().any(|u| unit_held(u, held_here)),
        Unit::Forms(u, forms) => unit_held(u, held_here) || forms.iter().any(|t| held_here(t)),
    }
}

/// `query` restricted to the given editions.
fn in_editions(f: &Fields, editions: &[String], query: Box<dyn Query>) -> Box<dyn Query> {
    let any = BooleanQuery::union(editions.iter().map(|e| term_query(f.edition, e)).collect());
    Box::new(BooleanQuery::intersection(vec![query, Box::new(any)]))
}

/// True for the phrase of a run of katakana ([`katakana`]): a word
/// whatever its bigrams' frequencies.
fn katakana_phrase(unit: &Unit) -> bool {
    matches!(unit, Unit::Phrase(ts) if katakana(ts))
}

/// True when a short CJK run may be written as one word rather than two
/// met by chance: each of its bigrams is held by at least [`WORD_SHARE`] of
/// the sections holding the commonest (`置参` of `配置参数` by a tenth of
/// those holding `参数`). The run is in no more sections than its rarest
/// bigram, so one rarer than that (`择从` of `选择从` beside `选择`, `盘启`
/// of `盘启动` in `U盘启动` beside `启动`) is a sliver of its words' uses:
/// two words. A run with other spellings is one when one of them is.
fn cohesive(stats: &Stats<'_>, body: Field, unit: &Unit) -> bool {
    match unit {
        Unit::Spellings(us) => us.iter().any(|u| cohesive(stats, body, u)),
        Unit::Forms(u, _) => cohesive(stats, body, u),
        Unit::Phrase(ts) if ts.len() >= 2 => {
            let dfs: Vec<u64> = ts.iter().map(|(_, t)| stats.doc_freq_of(body, t).unwrap_or(0)).collect();
            let (rarest, commonest) = (dfs.iter().min().copied(), dfs.iter().max().copied());
            rarest.zip(commonest).is_some_and(|(r, c)| r as Score >= WORD_SHARE * c as Score)
        }
        _ => true,
    }
}

/// True when some document matches `query` (each segment's first match
/// ends the look; deleted documents count).
fn any_match(searcher: &Searcher, query: &dyn Query) -> bool {
    let Ok(weight) = query.weight(EnableScoring::disabled_from_searcher(searcher)) else { return false };
    searcher.segment_readers().iter().any(|reader| {
        // A scorer starts on its first match.
        weight.scorer(reader, 1.0).is_ok_and(|scorer| scorer.doc() != TERMINATED)
    })
}

/// Compiles the request's query against this searcher (prefixes expand to
/// its terms, words weigh by their rarity in it); None when the query has
/// no word or phrase that could match and names no symbol.
pub(crate) fn compile(
    stats: &Stats<'_>,
    f: &Fields,
    request: &SearchRequest<'_>,
    twin_pages: &[TwinPage],
    held_here: &dyn Fn(&str) -> bool,
) -> Option<Compiled> {
    let searcher = stats.searcher;
    let q = request.query;
    // A term some section's body or title holds (a word's other spellings
    // are searched for only where each of their terms is one).
    let held = |t: &str| [f.body, f.title].iter().any(|&field| stats.doc_freq_of(field, t).unwrap_or(0) > 0);
    // Function words of the query's language (`como`, `wie`) and of theirs
    // rank as English stopwords do, and a word stands for its forms in
    // the languages of the query and of the editions searched.
    let traditional = crate::languages::any_traditional_chinese(request.editions);
    let mut languages = query_languages(&q.words);
    for l in edition_languages(request.editions) {
        if !languages.contains(&l) {
            languages.push(l);
        }
    }
    let words: Vec<Word> = q
        .words
        .iter()
        .map(|w| {
            let word = Word::new(w).held_by(&held).in_traditional(traditional).stop_in(&languages);
            let forms = word_forms(searcher, f, &languages, &word);
            word.with_forms(forms)
        })
        .collect();
    // A quoted phrase is searched as written, in no other spelling.
    let phrases: Vec<Word> = q.phrases.iter().map(|p| Word::as_written(p).held_by(&|_| false)).collect();
    let units = Units::new(searcher, f, request, &words, &phrases);
    // Punctuation alone (`||`, `::`) has no word to match, but still names
    // the sections whose symbol it is (tier 1's exact symbol).
    let names_symbol = || !symbol_key_of_folded(words.iter().map(|w| w.folded.as_str())).is_empty();
    if units.words.is_empty() && units.phrases.is_empty() && (!phrases.is_empty() || !names_symbol()) {
        return None;
    }
    let mut lit = Lit::new(&units);
    // A phrase some section of the editions searched writes in its body or
    // title (a term: some section holds it).
    let written = |unit: &Unit| match unit {
        Unit::Term(t) => held(t),
        // (Its bigrams' frequencies first: read for the ranking anyway.)
        unit => {
            (katakana_phrase(unit) || cohesive(stats, f.body, unit))
                && [f.body, f.title].iter().any(|&field| {
                    unit.query_in(field)
                        .is_some_and(|q| any_match(searcher, &*in_editions(f, request.editions, q)))
                })
        }
    };
    let (latin, grams) = tier2_words(&words, &units, &held, &written);
    // A question's names (not a keyword query's: there every word must
    // match, and exact symbols rank first already).
    let mut names: Vec<String> = Vec::new();
    // A message pasted from a program's output: its words after the label.
    let message = message_start(&q.words).map(|start| &q.words[start..]);
    if question(&latin, &grams) && message.is_none() {
        for key in q.words.iter().flat_map(|w| latin_names(w)) {
            if !names.contains(&key) {
                names.push(key);
            }
        }
    }
    let symbol_text = exact_symbol(&words, &phrases);
    let written = exact_written(&words, &phrases);
    let asked = asked_term(&words, &symbol_text);
    let named = (&names[..], asked.as_deref(), message.is_some());
    let tier1 = tier1((stats, f), request, &units, (&words, (&symbol_text, &written)), named);
    // Each word's rarity, looked up once (in `stats`) for tier 2, proximity,
    // the edge-bigram test and the tiers' BM25.
    let idfs: Vec<Option<Score>> = latin.iter().chain(&grams).map(|u| idf(stats, f.body, u)).collect();
    let edges = edge_bigrams(stats, f.body, &grams);
    // Which words some section of the editions searched holds. A word one
    // section in [`MAX_WALKED_SHARE`] holds is taken as held, unwalked.
    let n = searcher.num_docs() as Score;
    let common_idf = bm25_idf(n / MAX_WALKED_SHARE as Score, n);
    let present = |u: &Unit, idf: Option<Score>| match idf {
        None => matches!(u, Unit::AnyOf(_)),
        Some(idf) => idf <= common_idf || unit_held(u, held_here),
    };
    let tier2 = tier2(f, &units, (&latin, &grams), (&idfs, &edges, &present), (&names, asked.as_deref()));
    let proximity = proximity(&latin, &idfs[..latin.len()]);
    if tier2.is_some() {
        lit.add_grams(&grams);
    }
    let (tier1, tier2) = with_message_windows(f, message, tier1, tier2);
    let names = asked_names(f, std::iter::once(&*tier1).chain(tier2.as_ref().map(|t| &*t.0)));
    let highlight = Highlight::new(lit.terms, lit.groups);
    let compiled = Compiled { tier1, tier2, proximity, highlight, names };
    Some(with_twin_pages(f, &units, compiled, twin_pages))
}

/// The tiers of a pasted message (its words after the label; see
/// [`message_start`]) with each run of
/// [`MESSAGE_WINDOW`] of its words found as written scoring
/// [`MESSAGE_WINDOW_SCORE`]: the section quoting the message holds most of
/// them (all but those its own values break: `received a naive datetime
/// (2012-01-01 00:00:00) while time zone support is active`), a section
/// sharing a few words with it one or none.
fn with_message_windows(
    f: &Fields,
    message: Option<&[String]>,
    tier1: Box<dyn Query>,
    tier2: Option<Tier2>,
) -> (Box<dyn Query>, Option<Tier2>) {
    let Some(message) = message else { return (tier1, tier2) };
    let windows: Vec<Box<dyn Query>> = message
        .windows(MESSAGE_WINDOW)
        .take(MAX_MESSAGE_WINDOWS)
        // (A run of stopwords alone, `it is not the`, is in any text.)
        .filter(|w| w.iter().any(|word| !is_stopword(&fold(word))))
        .filter_map(|w| unit_of(&w.join(" ")))
        .filter(|u| matches!(u, Unit::Phrase(ts) if ts.len() >= 2))
        .filter_map(|u| u.query_in(f.body))
        .map(|q| Box::new(ConstScoreQuery::new(q, MESSAGE_WINDOW_SCORE)) as Box<dyn Query>)
        .collect();
    if windows.is_empty() {
        return (tier1, tier2);
    }
    let with = |tier: Box<dyn Query>| -> Box<dyn Query> {
        let mut clauses = vec![(Occur::Must, tier)];
        clauses.extend(windows.iter().map(|w| (Occur::Should, w.box_clone())));
        Box::new(BooleanQuery::new(clauses))
    };
    (with(tier1), tier2.map(|(t, coverage)| (with(t), coverage)))
}

/// The tiers with the pages a twin edition ranks for the query's translated
/// words (see `twin`): each section of them scores [`TWIN_SCORE`] more in
/// tier 1 (times the twin's score of the page over its best page's), and in
/// tier 2 (made for them when the query has none) it qualifies by that
/// alone (phrases and exclusions still hold); the two tiers then rank as
/// one list, as a question's do.
fn with_twin_pages(f: &Fields, units: &Units, mut compiled: Compiled, pages: &[TwinPage]) -> Compiled {
    if pages.is_empty() {
        return compiled;
    }
    let twin = || -> Box<dyn Query> {
        let mut scored: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for page in pages {
            scored.push((Occur::Should, const_term(f.path, &page.path, TWIN_SCORE * page.share)));
            if let Some(key) = &page.section {
                scored.push((Occur::Should, const_term(f.section_key, key, TWIN_SECTION_SCORE * page.share)));
            }
        }
        Box::new(BooleanQuery::new(scored))
    };
    compiled.tier1 =
        Box::new(BooleanQuery::new(vec![(Occur::Must, compiled.tier1), (Occur::Should, twin())]));
    // A word alone (`deadlock`) has no tier 2 of its own: the twin's pages
    // are one.
    let (query, mut coverage) = compiled.tier2.take().unwrap_or_else(|| {
        let nothing: Box<dyn Query> = Box::new(BooleanQuery::new(Vec::new()));
        (
            nothing,
            Coverage {
                units: Vec::new(),
                total: 1.0,
                scale: 0.0,
                merged: false,
                passage: None,
                heading: None,
                loose: None,
            },
        )
    });
    // One list, as for a question: the twin's pages need not hold the
    // words the searched edition translates.
    coverage.merged = true;
    coverage.scale = QUESTION_COVERAGE_SCORE;
    let either: Box<dyn Query> =
        Box::new(BooleanQuery::new(vec![(Occur::Should, query), (Occur::Should, twin())]));
    let mut clauses = units.filters();
    clauses.push((Occur::Must, either));
    compiled.tier2 = Some((Box::new(BooleanQuery::new(clauses)), coverage));
    compiled
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_behind_a_short_alias_are_their_rest() {
        assert_eq!(alias_rest("pd.read_csv"), Some("read_csv"));
        assert_eq!(alias_rest("np.random.rand"), Some("random.rand"));
        assert_eq!(alias_rest("df.merge"), Some("merge"));
        for key in ["pandas.read_csv", "read_csv", "pd.", "a1.b", "pd.2x", ".npmrc", "pd::read"] {
            assert_eq!(alias_rest(key), None, "{key}");
        }
    }

    #[test]
    fn functions_named_as_erlang_writes_them_are_module_members() {
        assert_eq!(module_function("lists:map/2").as_deref(), Some("lists.map"));
        assert_eq!(module_function("gen_server:call").as_deref(), Some("gen_server.call"));
        assert_eq!(module_function("map/2").as_deref(), Some("map"));
        // Ruby's `Class#method` too.
        assert_eq!(module_function("hash#fetch").as_deref(), Some("hash.fetch"));
        assert_eq!(module_function("array#sort_by!").as_deref(), Some("array.sort_by!"));
        for other in ["std::vector", "a:b:c", "usr/lib", "map", "lists:", "http://x", "s///"] {
            assert_eq!(module_function(other), None, "{other}");
        }
    }

    fn analyzed(text: &str) -> Vec<Analyzed> {
        analyzed_folded(&fold(text))
    }

    #[test]
    fn phrase_terms_of_cjk_runs() {
        let terms = phrase_terms(&analyzed("创建索引"));
        assert_eq!(terms, vec![(0, "创建".into()), (1, "建索".into()), (2, "索引".into())]);
        assert_eq!(phrase_terms(&analyzed("索")), vec![(0, "索".into())]);
        assert_eq!(
            phrase_terms(&analyzed("在PostgreSQL中")),
            vec![(0, "在".into()), (1, "postgresql".into()), (2, "中".into())]
        );
    }

    #[test]
    fn a_question_asks_about_its_content_words() {
        let words = |q: &str| q.split_whitespace().map(Word::new).collect::<Vec<_>>();
        let asked = |q: &str| {
            let words = words(q);
            asked_term(&words, &exact_symbol(&words, &[]))
        };
        assert_eq!(asked("what is an operator class"), Some(defined_key_of_folded("operator class")));
        assert_eq!(asked("操作符类是什么"), Some(defined_key_of_folded("操作符类")));
        // A query that is the term already, or nothing but stopwords.
        assert_eq!(asked("operator class"), None);
        assert_eq!(asked("what is it"), None);
    }

    #[test]
    fn identifiers_are_one_term() {
        assert_eq!(unit_of("work_mem"), Some(Unit::Term("work_mem".into())));
        assert_eq!(unit_of("Indexes"), Some(Unit::Term("index".into())));
        assert_eq!(unit_of("9.6"), Some(Unit::Phrase(vec![(0, "9".into()), (1, "6".into())])));
        // A name in camel case is one term, typed in any case.
        let dotted = Some(Unit::Phrase(vec![(0, "xmlhttprequest".into()), (1, "open".into())]));
        assert_eq!(unit_of("XMLHttpRequest.open"), dotted);
        assert_eq!(unit_of("xmlhttprequest.open"), dotted);
        // Punctuation an operator is written with is a term of its own,
        // and part of the phrase between words.
        assert_eq!(unit_of("!!"), Some(Unit::Term("!!".into())));
        assert_eq!(
            unit_of("a->b"),
            Some(Unit::Phrase(vec![(0, "a".into()), (1, "->".into()), (1, "b".into())]))
        );
        assert_eq!(unit_of("--"), None);
    }
}
