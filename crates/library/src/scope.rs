//! Search scope: parameters, filters written in the query text and the
//! `PG96:` version prefix, resolved against the enabled editions into the set
//! of edition ids to search. Text beats parameters; parameters beat defaults.

use lectern_corpus::script::{is_cjk, is_hangul, is_hiragana, is_katakana, is_latin};
use lectern_index::{FilterKey, ParsedQuery};
use serde::{Deserialize, Serialize};

use crate::edition::EditionRecord;
use crate::error::{LibraryError, invalid};
use crate::manifest::Manifest;
use crate::settings::listing;

/// Scope parameters as a face receives them (`*` = all).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ScopeParams {
    pub project: Option<String>,
    pub version: Option<String>,
    pub locale: Option<String>,
    pub domain: Option<String>,
    pub collection: Option<String>,
}

/// What a search will cover, for the response and for messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ResolvedScope {
    pub project: String,
    pub version: String,
    pub locale: String,
    /// Edition ids searched.
    pub editions: Vec<String>,
}

/// Applies the version prefix and text filters to `params`, fills defaults,
/// and returns the enabled editions in scope. Removes the prefix from `query`
/// (or turns it back into a word when it names no installed project).
pub fn resolve(
    manifest: &Manifest,
    params: &ScopeParams,
    query: &mut ParsedQuery,
) -> Result<ResolvedScope, LibraryError> {
    resolve_guessing(manifest, params, query).map(|(scope, _)| scope)
}

/// [`resolve`], and whether the locale was read as English for want of a
/// better guess while other locales are installed: no locale given, none
/// the default, a query in Latin script whose function words tell no
/// language (`bacchetta magica`). Where the English editions then hold
/// nothing, the locale that holds the query is searched instead.
pub fn resolve_guessing(
    manifest: &Manifest,
    params: &ScopeParams,
    query: &mut ParsedQuery,
) -> Result<(ResolvedScope, bool), LibraryError> {
    let mut p = without_blanks(params);
    apply_version_prefix(manifest, query, &mut p)?;
    apply_text_filters(query, &mut p);
    let languages = query_languages(query);
    let scope = resolve_prepared(manifest, &p, &languages)?;
    // English for want of a better guess: Latin text that tells no
    // language (`query_languages`' last resort alone).
    let guessed = p.locale.is_none()
        && manifest.default_locale().is_none()
        && languages == [["en"]]
        && resolve_prepared(manifest, &ScopeParams { locale: Some("*".to_owned()), ..p }, &languages)
            .is_ok_and(|every| every.editions.len() > scope.editions.len());
    Ok((scope, guessed))
}

/// [`resolve`] once the prefix and the text's filters are in `p`, for a
/// query read in `languages` ([`query_languages`]).
fn resolve_prepared(
    manifest: &Manifest,
    p: &ScopeParams,
    languages: &[Vec<&str>],
) -> Result<ResolvedScope, LibraryError> {
    let enabled = enabled_editions(manifest)?;
    let project = resolve_project(manifest, &enabled, p.project.as_deref())?;
    let mut set: Vec<&EditionRecord> =
        enabled.iter().copied().filter(|e| project.as_deref().is_none_or(|pr| e.project == pr)).collect();
    narrow_version(manifest, &mut set, project.as_deref(), p.version.as_deref())?;
    narrow_locale(manifest, &mut set, p.locale.as_deref(), languages)?;
    narrow_domain(&mut set, p.domain.as_deref())?;
    narrow_collection(&mut set, p.collection.as_deref())?;
    Ok(resolved(&set))
}

/// A blank parameter counts as not given.
fn without_blanks(params: &ScopeParams) -> ScopeParams {
    let mut p = params.clone();
    for v in [&mut p.project, &mut p.version, &mut p.locale, &mut p.domain, &mut p.collection] {
        if v.as_deref().is_some_and(|s| s.trim().is_empty()) {
            *v = None;
        }
    }
    p
}

/// A `PG96:` prefix in the query sets project and version over the
/// parameters; one that names no enabled project goes back into the query as
/// its first word.
fn apply_version_prefix(
    manifest: &Manifest,
    query: &mut ParsedQuery,
    p: &mut ScopeParams,
) -> Result<(), LibraryError> {
    if let Some(prefix) = query.version_prefix.take() {
        match version_prefix(manifest, &prefix)? {
            Some((project, version)) => {
                p.project = Some(project);
                p.version = Some(version);
            }
            None => query.words.insert(0, prefix),
        }
    }
    Ok(())
}

/// Filters written in the query text (`project:`, `version:`...) beat both
/// the parameters and the version prefix; the last of a key wins.
fn apply_text_filters(query: &ParsedQuery, p: &mut ScopeParams) {
    for (key, value) in &query.filters {
        let slot = match key {
            FilterKey::Project => &mut p.project,
            FilterKey::Version => &mut p.version,
            FilterKey::Locale => &mut p.locale,
            FilterKey::Domain => &mut p.domain,
            FilterKey::Collection => &mut p.collection,
        };
        *slot = Some(value.clone());
    }
}

/// The editions a search may cover; none enabled is an error of its own.
fn enabled_editions(manifest: &Manifest) -> Result<Vec<&EditionRecord>, LibraryError> {
    let enabled: Vec<&EditionRecord> = manifest.enabled().collect();
    if enabled.is_empty() {
        return Err(LibraryError::NotFound(
            "no documentation is enabled; install some with `lectern add` or enable an edition".into(),
        ));
    }
    Ok(enabled)
}

/// The project searched (None = `*`, all of them): the one given (by name or
/// alias), else the library default. A default that is not enabled says it
/// is the default; no project and no default is an error when several are
/// installed.
fn resolve_project(
    manifest: &Manifest,
    enabled: &[&EditionRecord],
    given: Option<&str>,
) -> Result<Option<String>, LibraryError> {
    let project = match given {
        Some(pr) => Some(pr.to_owned()),
        None => manifest.default_project(),
    };
    match project.as_deref() {
        Some("*") => Ok(None),
        Some(pr) => {
            let lower = pr.to_ascii_lowercase();
            let found = enabled
                .iter()
                .find(|e| e.project == lower || e.aliases.contains(&lower))
                .map(|e| e.project.clone());
            match found {
                Some(f) => Ok(Some(f)),
                None => Err(invalid(format!(
                    "project {pr:?} is not installed or not enabled{}{}; enabled projects: {}",
                    suggestion(
                        pr,
                        enabled.iter().flat_map(|e| {
                            std::iter::once(e.project.as_str()).chain(e.aliases.iter().map(String::as_str))
                        })
                    ),
                    if given.is_some() {
                        ""
                    } else {
                        " (it is the library default: change it with `lectern config set default.project`)"
                    },
                    listing(enabled.iter().map(|e| e.project.as_str()))
                ))),
            }
        }
        None => Err(invalid(format!(
            "several projects are installed ({}) and none is the default: give project (`project:NAME` in the text, \
             or project:* for all), or set one with `lectern config set default.project NAME`",
            listing(enabled.iter().map(|e| e.project.as_str()))
        ))),
    }
}

/// Keeps the version given (`96` finds `9.6`), else the project's current
/// one. A default version that is not enabled keeps every enabled version; a
/// given one that is not enabled is an error, and so is having several
/// versions and no current one.
fn narrow_version(
    manifest: &Manifest,
    set: &mut Vec<&EditionRecord>,
    project: Option<&str>,
    given: Option<&str>,
) -> Result<(), LibraryError> {
    let version = given.map(str::to_owned).or_else(|| project.and_then(|pr| manifest.current_version(pr)));
    match version.as_deref() {
        Some("*") => {}
        Some(v) => {
            let matched = match_version(set, v)?;
            if matched.is_empty() && given.is_none() {
                // The default version is not enabled: search every enabled version.
            } else if matched.is_empty() {
                return Err(invalid(format!(
                    "version {v:?} of {} is not installed or not enabled; enabled versions: {} (or * for all)",
                    project.unwrap_or("any project"),
                    listing(set.iter().map(|e| e.version.as_str()))
                )));
            } else {
                set.retain(|e| e.version == matched);
            }
        }
        // Every project (`project:*`): each at its current version, or at
        // all of its versions when none of them is current and enabled.
        None if project.is_none() => {
            let all = set.clone();
            set.retain(|e| {
                manifest.current_version(&e.project).is_none_or(|v| {
                    e.version == v || !all.iter().any(|o| o.project == e.project && o.version == v)
                })
            });
        }
        None => {
            let versions = listing(set.iter().map(|e| e.version.as_str()));
            if set.iter().map(|e| &e.version).collect::<std::collections::BTreeSet<_>>().len() > 1 {
                return Err(invalid(format!(
                    "{} has several versions ({versions}) and none is current: give version (branch), or * for all",
                    project.unwrap_or("the library")
                )));
            }
        }
    }
    Ok(())
}

/// The script a query is written in, for picking a locale when none is
/// set: the first letter outside the Latin script decides (a Chinese
/// question names `pg_dump` and `VACUUM` as often as not), except that
/// kana make Han text Japanese and Hangul makes it Korean; Latin when every
/// letter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Han,
    Kana,
    Hangul,
    Cyrillic,
    Greek,
    Arabic,
    Hebrew,
    Devanagari,
    Thai,
    Latin,
    Other,
}

fn script_of(query: &ParsedQuery) -> Script {
    let letters =
        query.words.iter().chain(&query.phrases).flat_map(|t| t.chars()).filter(|c| c.is_alphabetic());
    let mut found: Option<Script> = None;
    for c in letters {
        let script = letter_script(c);
        found = match (found, script) {
            (_, Script::Kana | Script::Hangul) => return script,
            (None | Some(Script::Latin), _) => Some(script),
            (Some(Script::Other), s) if s != Script::Latin => Some(s),
            (kept, _) => kept,
        };
    }
    found.unwrap_or(Script::Other)
}

/// The script of one letter (by Unicode block).
fn letter_script(c: char) -> Script {
    if is_hangul(c) {
        return Script::Hangul;
    }
    match c as u32 {
        _ if is_hiragana(c) || is_katakana(c) => Script::Kana,
        _ if is_cjk(c) => Script::Han,
        _ if is_latin(c) => Script::Latin,
        0x0400..=0x052F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        0x0370..=0x03FF | 0x1F00..=0x1FFF => Script::Greek,
        0x0600..=0x06FF | 0x0750..=0x077F | 0x08A0..=0x08FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => {
            Script::Arabic
        }
        0x0590..=0x05FF | 0xFB1D..=0xFB4F => Script::Hebrew,
        0x0900..=0x097F | 0xA8E0..=0xA8FF => Script::Devanagari,
        0x0E00..=0x0E7F => Script::Thai,
        _ => Script::Other,
    }
}

/// The languages (ISO 639-1) a query is read in, as groups, most likely
/// first: the first group with an installed locale is the one searched.
/// The script tells most: Han text is Chinese where a Chinese edition is
/// installed, else Japanese, else Korean. Latin text is the language of its
/// function words (`como configurar a rede`: Portuguese or Spanish), else
/// English. Empty when the script tells no language apart.
fn query_languages(query: &ParsedQuery) -> Vec<Vec<&'static str>> {
    let groups: &[&[&str]] = match script_of(query) {
        Script::Han => &[&["zh"], &["ja"], &["ko"]],
        Script::Kana => &[&["ja"]],
        Script::Hangul => &[&["ko"]],
        Script::Cyrillic => {
            &[&["ru", "uk", "be", "bg", "sr", "mk", "kk", "ky", "mn", "tg", "tt", "ba", "cv"]]
        }
        Script::Greek => &[&["el"]],
        Script::Arabic => &[&["ar", "fa", "ur", "ps", "ug", "ckb", "sd"]],
        Script::Hebrew => &[&["he", "yi"]],
        Script::Devanagari => &[&["hi", "mr", "ne", "sa"]],
        Script::Thai => &[&["th"]],
        Script::Latin => {
            let said = lectern_index::query_languages(&query.words);
            return [said, vec!["en"]].into_iter().filter(|g| !g.is_empty()).collect();
        }
        Script::Other => &[],
    };
    groups.iter().map(|g| g.to_vec()).collect()
}

/// Of `locales`, those of the first group of `languages` (see
/// [`query_languages`]) that has any; None when none has.
fn language_locales<'a>(
    languages: &[Vec<&str>],
    locales: impl Iterator<Item = &'a str> + Clone,
) -> Option<Vec<&'a str>> {
    languages.iter().find_map(|group| {
        let kept: Vec<&str> = locales.clone().filter(|l| group.iter().any(|g| of_language(l, g))).collect();
        (!kept.is_empty()).then_some(kept)
    })
}

/// Whether `locale` is `language` or one of its regions or scripts (`zh-Hans`).
fn of_language(locale: &str, language: &str) -> bool {
    locale.strip_prefix(language).is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
}

/// Keeps the locale given (normalised: `zh-hans` is `zh-Hans`), else the
/// default locale. Only a given locale missing from the scope is an error.
/// With no default, each project keeps its editions in the query's
/// language ([`query_languages`]: Chinese text the Chinese ones, kana the
/// Japanese, `como configurar a rede` the Portuguese, other Latin text the
/// English), when it has some (the scope says so), and every edition
/// otherwise.
fn narrow_locale(
    manifest: &Manifest,
    set: &mut Vec<&EditionRecord>,
    given: Option<&str>,
    languages: &[Vec<&str>],
) -> Result<(), LibraryError> {
    let locale = given.map(str::to_owned).or_else(|| manifest.default_locale());
    let Some(l) = locale.as_deref() else {
        in_default_locale(set, None, languages);
        return Ok(());
    };
    if l == "*" {
        return Ok(());
    }
    let wanted = lectern_corpus::names::normalize_locale(l).unwrap_or_else(|_| l.to_owned());
    if given.is_none() {
        in_default_locale(set, Some(&wanted), languages);
        return Ok(());
    }
    let kept = of_locale(set, &wanted);
    if kept.is_empty() {
        return Err(invalid(format!(
            "locale {l:?} is not installed for this scope{}; available: {} (or * for all)",
            suggestion(l, set.iter().map(|e| e.locale.as_str())),
            listing(set.iter().map(|e| e.locale.as_str()))
        )));
    }
    *set = kept;
    Ok(())
}

/// Applies the default locale (`wanted`, if any) to each project of `set`
/// alone: a project's editions in it, or, for a project without it
/// (`project:*` over a Chinese handbook and an English-only manual), its
/// editions in the query's language ([`query_languages`]; all of them when
/// none is).
fn in_default_locale(set: &mut Vec<&EditionRecord>, wanted: Option<&str>, languages: &[Vec<&str>]) {
    let kept: Vec<&EditionRecord> = set
        .iter()
        .copied()
        .filter(|e| {
            let project: Vec<&EditionRecord> =
                set.iter().copied().filter(|o| o.project == e.project).collect();
            let in_wanted = wanted.map(|w| of_locale(&project, w)).unwrap_or_default();
            if !in_wanted.is_empty() {
                in_wanted.iter().any(|w| w.id == e.id)
            } else {
                let locales = project.iter().map(|o| o.locale.as_str());
                language_locales(languages, locales).is_none_or(|kept| kept.contains(&e.locale.as_str()))
            }
        })
        .collect();
    *set = kept;
}

/// The editions of `set` in `locale`, else those in another variety of
/// its language (`pt` for `pt-BR` and `pt-BR` for `pt`; never another
/// script: `zh-Hant` is no `zh-Hans`).
fn of_locale<'a>(set: &[&'a EditionRecord], locale: &str) -> Vec<&'a EditionRecord> {
    let exact: Vec<&EditionRecord> = set.iter().copied().filter(|e| e.locale == locale).collect();
    if !exact.is_empty() {
        return exact;
    }
    set.iter().copied().filter(|e| same_language(&e.locale, locale)).collect()
}

/// Whether two locales are of one language and no two scripts
/// (`pt-BR` and `pt-PT`, `zh` and `zh-Hans`; not `zh-Hans` and `zh-Hant`).
fn same_language(a: &str, b: &str) -> bool {
    let parts = |l: &str| -> (String, Option<String>) {
        let mut it = l.split('-');
        let language = it.next().unwrap_or("").to_ascii_lowercase();
        let script = it.next().filter(|p| p.len() == 4).map(str::to_ascii_lowercase);
        (language, script)
    };
    let ((la, sa), (lb, sb)) = (parts(a), parts(b));
    la == lb && (sa.is_none() || sb.is_none() || sa == sb)
}

/// Keeps the domain given (case-insensitive); no default applies.
fn narrow_domain(set: &mut Vec<&EditionRecord>, given: Option<&str>) -> Result<(), LibraryError> {
    if let Some(d) = given.filter(|d| *d != "*") {
        let kept: Vec<&EditionRecord> =
            set.iter().copied().filter(|e| e.domain.eq_ignore_ascii_case(d)).collect();
        if kept.is_empty() {
            return Err(invalid(format!(
                "domain {d:?} is not installed for this scope{}; available: {} (or * for all)",
                suggestion(d, set.iter().map(|e| e.domain.as_str())),
                listing(set.iter().map(|e| e.domain.as_str()))
            )));
        }
        *set = kept;
    }
    Ok(())
}

/// Keeps the wiki collection given (case-insensitive); no default applies.
fn narrow_collection(set: &mut Vec<&EditionRecord>, given: Option<&str>) -> Result<(), LibraryError> {
    if let Some(c) = given.filter(|c| *c != "*") {
        let kept: Vec<&EditionRecord> = set
            .iter()
            .copied()
            .filter(|e| e.collection.as_deref().is_some_and(|x| x.eq_ignore_ascii_case(c)))
            .collect();
        if kept.is_empty() {
            return Err(invalid(format!(
                "collection {c:?} is not installed for this scope; available: {}",
                listing(set.iter().filter_map(|e| e.collection.as_deref()))
            )));
        }
        *set = kept;
    }
    Ok(())
}

/// The scope as reported: each of project, version and locale is the one
/// value the editions share, or `*` when they differ.
fn resolved(set: &[&EditionRecord]) -> ResolvedScope {
    let distinct = |f: fn(&EditionRecord) -> &str| {
        let vals: std::collections::BTreeSet<&str> = set.iter().map(|e| f(e)).collect();
        if vals.len() == 1 { vals.into_iter().next().unwrap_or("*").to_owned() } else { "*".to_owned() }
    };
    ResolvedScope {
        project: distinct(|e| e.project.as_str()),
        version: distinct(|e| e.version.as_str()),
        locale: distinct(|e| e.locale.as_str()),
        editions: set.iter().map(|e| e.id.clone()).collect(),
    }
}

/// ` (did you mean X?)` when one candidate is a near miss; stricter than
/// [`crate::library::did_you_mean`] so `fr` never suggests `en`.
fn suggestion<'a>(input: &str, candidates: impl Iterator<Item = &'a str>) -> String {
    let input = input.to_lowercase();
    candidates
        .map(|c| (crate::library::levenshtein(&input, &c.to_lowercase()), c))
        .filter(|(d, c)| *d >= 1 && *d <= c.chars().count() / 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| format!(" (did you mean {c}?)"))
        .unwrap_or_default()
}

/// Finds the version a user meant: exact (case-insensitive) first, then with
/// dots removed (`96` → `9.6`). Empty string = none; ambiguous = error.
fn match_version(set: &[&EditionRecord], wanted: &str) -> Result<String, LibraryError> {
    let versions: std::collections::BTreeSet<&str> = set.iter().map(|e| e.version.as_str()).collect();
    if let Some(v) = versions.iter().find(|v| v.eq_ignore_ascii_case(wanted)) {
        return Ok((*v).to_owned());
    }
    let compact = |s: &str| s.replace('.', "").to_ascii_lowercase();
    let hits: Vec<&str> = versions.iter().copied().filter(|v| compact(v) == compact(wanted)).collect();
    match hits.len() {
        0 => Ok(String::new()),
        1 => Ok(hits[0].to_owned()),
        _ => Err(invalid(format!(
            "version {wanted:?} is ambiguous: it could be {}; give the exact version",
            hits.join(" or ")
        ))),
    }
}

/// `PG96` → (`postgresql`, `9.6`) using project names and aliases. None when
/// no project name or alias starts the prefix (then it was just a word).
fn version_prefix(manifest: &Manifest, prefix: &str) -> Result<Option<(String, String)>, LibraryError> {
    let lower = prefix.to_lowercase();
    let enabled: Vec<&EditionRecord> = manifest.enabled().collect();
    // Longest name first: `pg` must not shadow `pgbouncer`.
    let mut names: Vec<(&str, &str)> = Vec::new();
    for e in &enabled {
        names.push((e.project.as_str(), e.project.as_str()));
        for a in &e.aliases {
            names.push((a.as_str(), e.project.as_str()));
        }
    }
    names.sort_by_key(|(n, _)| std::cmp::Reverse(n.len()));
    names.dedup();
    for (name, project) in names {
        let Some(rest) = lower.strip_prefix(name) else { continue };
        let rest = rest.trim_start_matches([' ', '-', '_', '@', 'v']);
        let of_project: Vec<&EditionRecord> =
            enabled.iter().copied().filter(|e| e.project == project).collect();
        if rest.is_empty() {
            // `postgresql:` alone: the project, at its current version.
            return Ok(manifest
                .current_version(project)
                .map(|v| (project.to_owned(), v))
                .or_else(|| Some((project.to_owned(), "*".to_owned()))));
        }
        let v = match_version(&of_project, rest)?;
        if v.is_empty() && !rest.starts_with(|c: char| c.is_ascii_digit()) {
            continue; // `pgbench:` is a word, not `pg` + version `bench`
        }
        if v.is_empty() {
            return Err(invalid(format!(
                "version prefix {prefix}: {project} has no enabled version {rest:?}; enabled: {}",
                listing(of_project.iter().map(|e| e.version.as_str()))
            )));
        }
        return Ok(Some((project.to_owned(), v)));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(text: &str) -> Script {
        script_of(&lectern_index::parse_query(text).unwrap())
    }

    #[test]
    fn a_query_is_written_in_the_script_of_its_letters() {
        assert_eq!(script("如何创建分区表"), Script::Han);
        // Chinese with the names it asks about.
        assert_eq!(script("pg_dump 只导出表结构"), Script::Han);
        // Kana make kanji Japanese, wherever they stand; Hangul is Korean.
        assert_eq!(script("設定ファイル"), Script::Kana);
        assert_eq!(script("apt でパッケージを検索"), Script::Kana);
        assert_eq!(script("패키지 설치 방법"), Script::Hangul);
        assert_eq!(script("crontab"), Script::Latin);
        assert_eq!(script("Übersicht café"), Script::Latin);
        assert_eq!(script("Привет"), Script::Cyrillic);
        assert_eq!(script("systemctl как перезапустить"), Script::Cyrillic);
        assert_eq!(script("ρύθμιση"), Script::Greek);
        // No letters at all: `::`, a version.
        assert_eq!(script("::"), Script::Other);
        assert_eq!(script("9.6"), Script::Other);
    }

    fn edition(project: &str, locale: &str) -> EditionRecord {
        EditionRecord {
            id: format!("{project}@1/{locale}"),
            project: project.to_owned(),
            aliases: Vec::new(),
            version: "1".to_owned(),
            locale: locale.to_owned(),
            domain: "manual".to_owned(),
            collection: None,
            label: project.to_owned(),
            r#ref: None,
            status: crate::edition::Status::Current,
            prefix: format!("/{locale}/{project}"),
            enabled: true,
            default: false,
            source: String::new(),
            format: "html".to_owned(),
            content_hash: String::new(),
            pages: 1,
            sections: 1,
            skipped: 0,
        }
    }

    #[test]
    fn with_no_default_locale_each_project_keeps_the_query_language_it_has() {
        let mut manifest = Manifest::empty();
        for (project, locale) in [("reference", "en"), ("reference", "it"), ("gimp", "it"), ("gimp", "ru")] {
            manifest.upsert(edition(project, locale));
        }
        let every = ScopeParams { project: Some("*".to_owned()), ..Default::default() };
        let searched = |text: &str| -> (Vec<String>, bool) {
            let mut query = lectern_index::parse_query(text).unwrap();
            let (scope, guessed) = resolve_guessing(&manifest, &every, &mut query).unwrap();
            (scope.editions, guessed)
        };
        // English text: the English reference, and all of GIMP, which has none.
        assert_eq!(
            searched("layer mask"),
            (vec!["gimp@1/it".into(), "gimp@1/ru".into(), "reference@1/en".into()], true)
        );
        // Italian: each project's Italian edition.
        assert_eq!(
            searched("come installare un pacchetto"),
            (vec!["gimp@1/it".into(), "reference@1/it".into()], false)
        );
        // Russian: GIMP's Russian edition, and all of the reference.
        assert_eq!(
            searched("маска слоя"),
            (vec!["gimp@1/ru".into(), "reference@1/en".into(), "reference@1/it".into()], false)
        );
    }

    #[test]
    fn a_locale_stands_for_the_other_varieties_of_its_language() {
        assert!(same_language("pt", "pt-BR") && same_language("pt-PT", "pt-BR"));
        assert!(same_language("zh", "zh-Hans") && same_language("zh-Hans-CN", "zh-Hans"));
        assert!(!same_language("zh-Hans", "zh-Hant") && !same_language("pt", "es"));
    }

    #[test]
    fn a_query_reads_the_locales_of_its_language() {
        let installed = ["en", "zh-Hans", "zh-Hant", "ja", "ko", "ru", "uk", "de"];
        let pick = |text: &str, among: &[&'static str]| -> Option<Vec<&'static str>> {
            let languages = query_languages(&lectern_index::parse_query(text).unwrap());
            language_locales(&languages, among.iter().copied())
        };
        assert_eq!(pick("如何创建分区表", &installed), Some(vec!["zh-Hans", "zh-Hant"]));
        assert_eq!(pick("設定ファイル", &installed), Some(vec!["ja"]));
        assert_eq!(pick("패키지 설치", &installed), Some(vec!["ko"]));
        assert_eq!(pick("как перезапустить", &installed), Some(vec!["ru", "uk"]));
        assert_eq!(pick("crontab", &installed), Some(vec!["en"]));
        // Latin text in the language of its function words, else English.
        assert_eq!(pick("wie installiere ich ein Paket", &installed), Some(vec!["de"]));
        assert_eq!(pick("como configurar a rede", &installed), Some(vec!["en"]));
        assert_eq!(pick("como configurar a rede", &["en", "pt-BR", "es"]), Some(vec!["pt-BR", "es"]));
        assert_eq!(pick("configuração da rede", &["en", "pt-BR", "es"]), Some(vec!["pt-BR"]));
        // Han text with no Chinese edition: the Japanese one.
        assert_eq!(pick("設定", &["en", "ja"]), Some(vec!["ja"]));
        // Nothing of the script installed, or a script that tells no
        // language: every locale is kept.
        assert_eq!(pick("ρύθμιση", &installed), None);
        assert_eq!(pick("::", &installed), None);
        assert_eq!(pick("パッケージ", &["en", "zh-Hans"]), None);
    }
}
