//! Validators for the names an edition is made of (project, alias, version,
//! locale, domain, collection, status, prefix), shared with the library.
//! Each returns `Err(message)` saying what is allowed.

/// `[a-z0-9][a-z0-9._-]{0,63}`.
pub fn project(s: &str) -> Result<(), String> {
    slug_name("project", s)
}

/// Same shape as a project name.
pub fn alias(s: &str) -> Result<(), String> {
    slug_name("alias", s)
}

/// Same shape as a project name.
pub fn collection(s: &str) -> Result<(), String> {
    slug_name("collection", s)
}

fn slug_name(what: &str, s: &str) -> Result<(), String> {
    let ok = !s.is_empty()
        && s.len() <= 64
        && s.bytes().next().is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "invalid {what} {s:?}: use 1-64 characters of a-z, 0-9, '.', '_', '-', starting with a letter or digit"
        ))
    }
}

/// 1–32 characters of `[A-Za-z0-9._-]`, not `.` or `..`.
pub fn version(s: &str) -> Result<(), String> {
    let ok = !s.is_empty()
        && s.len() <= 32
        && s != "."
        && s != ".."
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "invalid version {s:?}: use 1-32 characters of A-Z, a-z, 0-9, '.', '_', '-' (e.g. 18, 9.6, v2)"
        ))
    }
}

/// A BCP 47 shaped locale: 2–3 letter language, optional 4-letter script,
/// optional 2-letter or 3-digit region (`en`, `zh-Hans`, `pt-BR`, `es-419`).
/// Any letter case; `-` or `_` between parts.
pub fn locale(s: &str) -> Result<(), String> {
    normalize_locale(s).map(|_| ())
}

/// The canonical spelling of a locale: `zh-hans` → `zh-Hans`, `pt_br` → `pt-BR`.
pub fn normalize_locale(s: &str) -> Result<String, String> {
    let err = || {
        format!(
            "invalid locale {s:?}: use a BCP 47 tag: a 2-3 letter language, optional 4-letter script, \
             optional 2-letter or 3-digit region (en, de, zh-Hans, pt-BR)"
        )
    };
    let mut parts = s.split(['-', '_']);
    let lang = parts.next().ok_or_else(err)?;
    if !(2..=3).contains(&lang.len()) || !lang.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(err());
    }
    let mut out = lang.to_ascii_lowercase();
    let mut rest: Vec<&str> = parts.collect();
    if let Some(script) = rest.first().copied()
        && script.len() == 4
        && script.bytes().all(|b| b.is_ascii_alphabetic())
    {
        out.push('-');
        out.push_str(&script[..1].to_ascii_uppercase());
        out.push_str(&script[1..].to_ascii_lowercase());
        rest.remove(0);
    }
    match rest.as_slice() {
        [] => {}
        [region] if region.len() == 2 && region.bytes().all(|b| b.is_ascii_alphabetic()) => {
            out.push('-');
            out.push_str(&region.to_ascii_uppercase());
        }
        [region] if region.len() == 3 && region.bytes().all(|b| b.is_ascii_digit()) => {
            out.push('-');
            out.push_str(region);
        }
        _ => return Err(err()),
    }
    Ok(out)
}

/// `manual` or `wiki`.
pub fn domain(s: &str) -> Result<(), String> {
    match s {
        "manual" | "wiki" => Ok(()),
        _ => Err(format!("invalid domain {s:?}: use manual or wiki")),
    }
}

/// The lifecycle statuses an edition may have.
pub const STATUSES: [&str; 5] = ["current", "supported", "deprecated", "eol", "preview"];

/// One of [`STATUSES`].
pub fn status(s: &str) -> Result<(), String> {
    if STATUSES.contains(&s) {
        Ok(())
    } else {
        Err(format!("invalid status {s:?}: use one of current, supported, deprecated, eol, preview"))
    }
}

/// A URL prefix: starts with `/`, no trailing `/` unless exactly `/`,
/// segments of `[A-Za-z0-9._-]`, no empty, `.` or `..` segments.
pub fn prefix(s: &str) -> Result<(), String> {
    let err = || {
        format!(
            "invalid prefix {s:?}: use '/' or '/'-separated segments of A-Z, a-z, 0-9, '.', '_', '-' \
             starting with '/', without a trailing '/' or '..' (e.g. /app, /de/app/v1)"
        )
    };
    if s == "/" {
        return Ok(());
    }
    let rest = s.strip_prefix('/').ok_or_else(err)?;
    for seg in rest.split('/') {
        let ok = !seg.is_empty()
            && seg != "."
            && seg != ".."
            && seg.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
        if !ok {
            return Err(err());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projects() {
        assert!(project("postgresql").is_ok());
        assert!(project("a").is_ok());
        assert!(project("my-app_2.x").is_ok());
        assert!(project("").is_err());
        assert!(project("App").is_err());
        assert!(project("-app").is_err());
        assert!(project(&"a".repeat(65)).is_err());
        assert!(project(&"a".repeat(64)).is_ok());
        let msg = alias("PG").unwrap_err();
        assert!(msg.contains("a-z"), "{msg}");
    }

    #[test]
    fn versions() {
        for ok in ["18", "9.6", "v2.0.0-rc_1", "main"] {
            assert!(version(ok).is_ok(), "{ok}");
        }
        for bad in ["", ".", "..", "1/2", "1 2", &"9".repeat(33)] {
            assert!(version(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn locales() {
        assert_eq!(normalize_locale("zh-hans").unwrap(), "zh-Hans");
        assert_eq!(normalize_locale("pt_br").unwrap(), "pt-BR");
        assert_eq!(normalize_locale("EN").unwrap(), "en");
        assert_eq!(normalize_locale("es-419").unwrap(), "es-419");
        assert_eq!(normalize_locale("zh-Hant-TW").unwrap(), "zh-Hant-TW");
        for bad in ["", "e", "english", "en-", "zh-Hans-", "en-US-x", "12", "en-1234"] {
            assert!(locale(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn domains_statuses() {
        assert!(domain("manual").is_ok() && domain("wiki").is_ok() && domain("blog").is_err());
        assert!(STATUSES.iter().all(|s| status(s).is_ok()));
        assert!(status("old").unwrap_err().contains("current"));
    }

    #[test]
    fn prefixes() {
        for ok in ["/", "/app", "/de/app/v1", "/zh-Hans/postgresql/9.6"] {
            assert!(prefix(ok).is_ok(), "{ok}");
        }
        for bad in ["", "app", "/app/", "//", "/a//b", "/a/../b", "/a b", "/./a"] {
            assert!(prefix(bad).is_err(), "{bad}");
        }
    }
}
