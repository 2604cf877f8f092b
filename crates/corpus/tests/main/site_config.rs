//! `lectern.toml` site configs: a full example, and errors naming file, line and field.

use std::path::Path;

use lectern_corpus::{SiteConfig, SiteConfigError};

const FULL: &str = r#"[site]
name = "Demo Docs"
description = "Docs for the demo app"
instructions = "Search before answering."
default_locale = "EN"
base_url = "https://docs.example.com/"
allowed_hosts = ["docs.example.com"]
trusted_proxies = ["127.0.0.1", "10.0.0.0/8"]
rate_limit_per_minute = 600

[[editions]]
project = "app"
aliases = ["a"]
version = "2"
locale = "en"
label = "App 2"
ref = "v2.0.0"
status = "current"
default = true
source = "app/v2/en"
format = "markdown"

[[editions]]
project = "app"
version = "2"
locale = "zh-hans"
domain = "wiki"
collection = "howto"
prefix = "/zh-Hans/app/wiki"
enabled = false
source = "/abs/app-zh.tar.gz"
"#;

fn load(text: &str) -> Result<SiteConfig, SiteConfigError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lectern.toml");
    std::fs::write(&path, text).unwrap();
    let result = SiteConfig::load(&path);
    if let Err(e) = &result {
        assert_eq!(e.path, path);
    }
    result.map(|mut c| {
        for e in &mut c.editions {
            if let Ok(rel) = e.source.strip_prefix(dir.path()) {
                e.source = Path::new("{dir}").join(rel);
            }
        }
        c
    })
}

#[test]
fn full_config() {
    let config = load(FULL).unwrap();
    assert_eq!(config.name, "Demo Docs");
    assert_eq!(config.default_locale, "en");
    assert_eq!(config.base_url.as_deref(), Some("https://docs.example.com"));
    assert_eq!(config.rate_limit_per_minute, Some(600));
    assert_eq!(config.editions.len(), 2);
    let [en, zh] = &config.editions[..] else { unreachable!() };
    assert_eq!(en.source, Path::new("{dir}/app/v2/en"));
    assert_eq!(en.id(), "app@2/en");
    assert!(en.default && en.enabled);
    assert_eq!(zh.locale, "zh-Hans");
    assert_eq!(zh.id(), "app@2/zh-Hans/wiki/howto");
    assert!(!zh.enabled);
    assert_eq!(zh.source, Path::new("/abs/app-zh.tar.gz"));
    assert_eq!(zh.format, None);
}

fn error(text: &str) -> SiteConfigError {
    load(text).unwrap_err()
}

#[test]
fn errors_name_line_field_and_what_is_allowed() {
    let e = error(&FULL.replace("locale = \"zh-hans\"", "locale = \"chinese\""));
    assert_eq!((e.line, e.field.as_str()), (26, "editions[1].locale"));
    assert!(e.message.contains("zh-Hans"), "{e}");
    assert!(e.to_string().contains("lectern.toml:26: editions[1].locale: invalid locale"), "{e}");

    let e = error(&FULL.replace("label = \"App 2\"", "lable = \"App 2\""));
    assert_eq!((e.line, e.field.as_str()), (16, "editions[0].lable"));
    assert!(e.message.contains("allowed here") && e.message.contains("label"), "{e}");

    let e = error(&FULL.replace("status = \"current\"", "status = \"latest\""));
    assert_eq!((e.line, e.field.as_str()), (18, "editions[0].status"));
    assert!(e.message.contains("deprecated"), "{e}");

    let e = error(&FULL.replace("source = \"app/v2/en\"\n", ""));
    assert_eq!(e.field, "editions[0].source");
    assert!(e.message.contains("required"), "{e}");

    let e = error(&FULL.replace("project = \"app\"\naliases", "project = \"App\"\naliases"));
    assert_eq!((e.line, e.field.as_str()), (12, "editions[0].project"));

    let e = error(&FULL.replace("prefix = \"/zh-Hans/app/wiki\"", "prefix = \"zh/\""));
    assert_eq!(e.field, "editions[1].prefix");

    let e = error(&FULL.replace("rate_limit_per_minute = 600", "rate_limit_per_minute = -1"));
    assert_eq!((e.line, e.field.as_str()), (9, "site.rate_limit_per_minute"));

    let e = error(&FULL.replace("domain = \"wiki\"\n", ""));
    assert_eq!(e.field, "editions[1].collection");

    let e = error(&FULL.replace("[site]", "[site]\ncolour = \"red\""));
    assert_eq!((e.line, e.field.as_str()), (2, "site.colour"));

    let e = error(&FULL.replace("enabled = false", "enabled = \"no\""));
    assert_eq!(e.field, "editions[1].enabled");

    let e = error(
        &FULL
            .replace("locale = \"zh-hans\"", "locale = \"en\"")
            .replace("domain = \"wiki\"\ncollection = \"howto\"\n", ""),
    );
    assert!(e.message.contains("declared twice"), "{e}");

    let e = error("[site]\nname = \"x\"\n");
    assert_eq!(e.field, "editions");

    let e = error("[site]\nname = \"unclosed\n");
    assert_eq!((e.line, e.field.as_str()), (2, "-"));

    let e = error("[[editions]]\nproject = \"a\"\n");
    assert_eq!(e.field, "site");
}
