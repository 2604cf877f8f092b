//! Search scope: parameters, filters written in the query text and the
//! `PG96:` version prefix, resolved against the enabled editions into the set
//! of edition ids to search. Text beats parameters; parameters beat defaults.

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
    let mut p = without_blanks(params);
    apply_version_prefix(manifest, query, &mut p)?;
    apply_text_filters(query, &mut p);
    let enabled = enabled_editions(manifest)?;
    let project = resolve_project(manifest, &enabled, p.project.as_deref())?;
    let mut set: Vec<&EditionRecord> =
        enabled.iter().copied().filter(|e| project.as_deref().is_none_or(|pr| e.project == pr)).collect();
    narrow_version(manifest, &mut set, project.as_deref(), p.version.as_deref())?;
    narrow_locale(manifest, &mut set, p.locale.as_deref(), script_of(query))?;
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
/// set: CJK when any of its letters is (a Chinese question names `pg_dump`
/// and `VACUUM` as often as not), Latin when all of them are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Cjk,
    Latin,
    Other,
}

fn script_of(query: &ParsedQuery) -> Script {
    let mut letters =
        query.words.iter().chain(&query.phrases).flat_map(|t| t.chars()).filter(|c| c.is_alphabetic());
    let Some(first) = letters.next() else { return Script::Other };
    let mut latin = true;
    for c in std::iter::once(first).chain(letters) {
        if lectern_corpus::script::is_cjk(c) {
            return Script::Cjk;
        }
        latin &= is_latin(c);
    }
    if latin { Script::Latin } else { Script::Other }
}

/// A letter of the Latin script (ASCII, Latin-1 and the Latin Extended blocks).
fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic()
        || (matches!(c, '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}') && c.is_alphabetic())
}

/// Whether an installed locale is written in CJK script (Chinese, Japanese, Korean).
fn cjk_locale(locale: &str) -> bool {
    ["zh", "ja", "ko"].iter().any(|l| of_language(locale, l))
}

/// Whether an installed locale is English (`en`, `en-US`...).
fn english_locale(locale: &str) -> bool {
    of_language(locale, "en")
}

/// Whether `locale` is `language` or one of its regions or scripts (`zh-Hans`).
fn of_language(locale: &str, language: &str) -> bool {
    locale.strip_prefix(language).is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
}

/// Keeps the locale given (normalised: `zh-hans` is `zh-Hans`), else the
/// default locale. Only a given locale missing from the scope is an error.
/// With no default, a query written in CJK script keeps the CJK locales and
/// one written in Latin script the English ones, when there are some (the
/// scope says so); any other query keeps every locale.
fn narrow_locale(
    manifest: &Manifest,
    set: &mut Vec<&EditionRecord>,
    given: Option<&str>,
    script: Script,
) -> Result<(), LibraryError> {
    let locale = given.map(str::to_owned).or_else(|| manifest.default_locale());
    let Some(l) = locale.as_deref() else {
        if let Some(of_script) = script_locales(script)
            && set.iter().any(|e| of_script(&e.locale))
        {
            set.retain(|e| of_script(&e.locale));
        }
        return Ok(());
    };
    if l == "*" {
        return Ok(());
    }
    let wanted = lectern_corpus::names::normalize_locale(l).unwrap_or_else(|_| l.to_owned());
    if given.is_none() {
        in_default_locale(set, &wanted, script);
        return Ok(());
    }
    let kept: Vec<&EditionRecord> = set.iter().copied().filter(|e| e.locale == wanted).collect();
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

/// The locales a query written in `script` reads (CJK text the CJK ones,
/// Latin text the English ones); None when the script tells none apart.
fn script_locales(script: Script) -> Option<fn(&str) -> bool> {
    match script {
        Script::Cjk => Some(cjk_locale),
        Script::Latin => Some(english_locale),
        Script::Other => None,
    }
}

/// Applies the default locale to each project of `set` alone: a project's
/// editions in it, or, for a project without it (`project:*` over a Chinese
/// handbook and an English-only manual), its editions in the query's script
/// ([`script_locales`]; all of them when none is).
fn in_default_locale(set: &mut Vec<&EditionRecord>, wanted: &str, script: Script) {
    let of_script = script_locales(script).unwrap_or(|_| true);
    let has = |project: &str, locale: &dyn Fn(&str) -> bool| {
        set.iter().any(|e| e.project == project && locale(&e.locale))
    };
    let kept: Vec<&EditionRecord> = set
        .iter()
        .copied()
        .filter(|e| {
            if has(&e.project, &|l| l == wanted) {
                e.locale == wanted
            } else if has(&e.project, &of_script) {
                of_script(&e.locale)
            } else {
                true
            }
        })
        .collect();
    *set = kept;
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
        assert_eq!(script("如何创建分区表"), Script::Cjk);
        // Chinese with the names it asks about.
        assert_eq!(script("pg_dump 只导出表结构"), Script::Cjk);
        assert_eq!(script("crontab"), Script::Latin);
        assert_eq!(script("Übersicht café"), Script::Latin);
        assert_eq!(script("Привет"), Script::Other);
        // No letters at all: `::`, a version.
        assert_eq!(script("::"), Script::Other);
        assert_eq!(script("9.6"), Script::Other);
    }
}
