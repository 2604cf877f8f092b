//! Regression tests of the library under hostile input: reads and writes
//! whose client went away, and file names no face could serve.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use lectern_corpus::SourceFormat;

use crate::edition::EditionSpec;
use crate::error::LibraryError;
use crate::library::{Library, OpenMode};
use crate::lock::WriterLock;
use crate::read::{ReadPageRequest, ReadSectionRequest};

fn spec() -> EditionSpec {
    EditionSpec {
        project: Some("app".into()),
        aliases: Vec::new(),
        version: Some("1".into()),
        locale: Some("en".into()),
        domain: None,
        collection: None,
        label: None,
        r#ref: None,
        status: None,
        prefix: None,
        default: false,
        enabled: None,
        format: SourceFormat::Markdown,
    }
}

/// A library of one edition from `files` (relative name, Markdown).
fn library(dir: &Path, files: &[(&str, &str)]) -> (Library, crate::AddReport) {
    let source = dir.join("source");
    std::fs::create_dir_all(&source).unwrap();
    for (name, text) in files {
        std::fs::write(source.join(name), text).unwrap();
    }
    let library = Library::open(&dir.join("lib"), OpenMode::ReadWrite).unwrap();
    let report = library.add(&source, &spec(), &mut |_| {}, &mut |_| {}).unwrap();
    (library, report)
}

#[test]
fn abandoned_reads_stop_once_their_cancel_flag_is_set() {
    let dir = tempfile::tempdir().unwrap();
    let long: String = (0..200).map(|i| format!("## Part {i}\n\nText of part {i}.\n\n")).collect();
    let (library, report) = library(dir.path(), &[("big.md", &format!("# Big\n\n{long}"))]);
    let page = ReadPageRequest { path: format!("{}/big", report.edition.prefix), ..Default::default() };
    let gone = AtomicBool::new(true);
    let read = library.read_page_unless(&page, Some(&gone));
    assert!(matches!(read, Err(LibraryError::Timeout(_))), "{read:?}");
    let here = AtomicBool::new(false);
    let read = library.read_page_unless(&page, Some(&here)).unwrap();
    assert_eq!(read.sections.len(), 201);
    let section =
        ReadSectionRequest { section_key: read.sections[3].section_key.clone(), ..Default::default() };
    assert!(matches!(library.read_section_unless(&section, Some(&gone)), Err(LibraryError::Timeout(_))));
    assert!(library.read_section_unless(&section, Some(&here)).unwrap().window.content.contains("part 2"));
}

#[test]
fn a_write_given_up_while_waiting_for_another_writer_never_applies() {
    let dir = tempfile::tempdir().unwrap();
    let (library, report) = library(dir.path(), &[("index.md", "# Home\n\nWelcome.\n")]);
    let id = report.edition.id.clone();
    let before = library.view().unwrap().generation.clone();
    // Another writer (a second handle on the lock file: flock locks conflict
    // between handles even within one process) holds the library.
    let other = WriterLock::acquire(&dir.path().join("lib/lock"), Duration::ZERO, &mut |_| {}, None).unwrap();
    let cancel = AtomicBool::new(false);
    let outcome = std::thread::scope(|s| {
        let write = s.spawn(|| library.set_enabled(&id, false, &mut |_| {}, Some(&cancel)));
        std::thread::sleep(Duration::from_millis(200));
        cancel.store(true, Ordering::Relaxed);
        write.join().unwrap()
    });
    drop(other);
    assert!(matches!(outcome, Err(LibraryError::Busy(_))), "{outcome:?}");
    let view = library.view().unwrap();
    assert_eq!(view.generation, before, "a write answered as failed changed the library");
    assert!(view.edition(&id).unwrap().enabled);
    // Not given up: it applies, and says so.
    let after = library.set_enabled(&id, false, &mut |_| {}, Some(&AtomicBool::new(false))).unwrap();
    assert_ne!(after, before);
    assert!(!library.view().unwrap().edition(&id).unwrap().enabled);
}

#[test]
fn file_names_with_control_characters_are_never_published() {
    let dir = tempfile::tempdir().unwrap();
    let (library, report) = library(
        dir.path(),
        &[("good.md", "# Good\n\nServable.\n"), ("bad\u{1}name.md", "# Bad\n\nUnservable.\n")],
    );
    assert_eq!(report.edition.pages, 1);
    let problem =
        report.problems.iter().find(|p| p.path.contains('\u{1}')).expect("the bad file is reported");
    assert!(problem.reason.contains("cannot be served"), "{}", problem.reason);
    let view = library.view().unwrap();
    let listed = view.snapshot.pages(&report.edition.id);
    assert!(listed.iter().all(|p| !p.path.chars().any(char::is_control)), "{listed:?}");
    assert!(listed.iter().any(|p| p.path.ends_with("/good")), "{listed:?}");
}

/// Regression: `config set default.locale de` was accepted with no `de`
/// edition and then ignored by every search; a default now names something
/// installed, and the error lists what is.
#[test]
fn config_set_refuses_defaults_nothing_installed_has() {
    let dir = tempfile::tempdir().unwrap();
    let (lib, _) = library(dir.path(), &[("index.md", "# Home\n\nwords\n")]);
    let mut wait = |_: &str| {};
    let err = lib.set_setting("default.locale", "de", &mut wait).unwrap_err();
    assert_eq!(err.code(), crate::ErrorCode::InvalidArgument);
    assert_eq!(
        err.to_string(),
        "default.locale: no installed edition has locale \"de\"; installed locales: en"
    );
    let err = lib.set_setting("default.version.app", "9", &mut wait).unwrap_err();
    assert!(err.to_string().contains("installed versions: 1"), "{err}");
    let err = lib.set_setting("default.project", "nope", &mut wait).unwrap_err();
    assert!(err.to_string().contains("installed projects: app"), "{err}");
    // What is installed is accepted.
    assert_eq!(lib.set_setting("default.locale", "en", &mut wait).unwrap(), "en");
    assert_eq!(lib.set_setting("default.version.app", "1", &mut wait).unwrap(), "1");
    assert_eq!(lib.set_setting("default.project", "app", &mut wait).unwrap(), "app");
}

/// The content files in the library's asset folder.
fn stored_assets(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("lib/assets"))
        .map(|entries| entries.map(|e| e.unwrap().file_name().into_string().unwrap()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn assets_are_stored_once_replaced_on_update_and_swept_on_remove() {
    let dir = tempfile::tempdir().unwrap();
    let page = "# A\n\n![one](one.gif) ![two](two.gif)\n";
    let (library, report) =
        library(dir.path(), &[("a.md", page), ("one.gif", "GIF89a same"), ("two.gif", "GIF89a same")]);
    assert_eq!((report.assets.kept, report.assets.contents), (2, 1));
    let view = library.view().unwrap();
    let one = view.asset("/app/one.gif").expect("served");
    assert_eq!(one.content_type, "image/gif");
    assert_eq!(view.asset("/app/two.gif").unwrap().hash, one.hash);
    assert!(view.asset("/app/three.gif").is_none());
    assert_eq!(stored_assets(dir.path()), std::slice::from_ref(&one.hash));
    let mut bytes = String::new();
    std::io::Read::read_to_string(&mut one.open().unwrap(), &mut bytes).unwrap();
    assert_eq!(bytes, "GIF89a same");

    // A changed image is a changed edition; the old content goes.
    std::fs::write(dir.path().join("source/one.gif"), "GIF89a new").unwrap();
    std::fs::write(dir.path().join("source/two.gif"), "GIF89a new").unwrap();
    let report = library.add(&dir.path().join("source"), &spec(), &mut |_| {}, &mut |_| {}).unwrap();
    assert_eq!(report.outcome, crate::AddOutcome::Updated);
    let now = library.view().unwrap().asset("/app/one.gif").unwrap();
    assert_ne!(now.hash, one.hash);
    assert_eq!(stored_assets(dir.path()), std::slice::from_ref(&now.hash));
    assert_eq!(library.view().unwrap().published_assets().len(), 2);

    library.remove("app@1/en", &mut |_| {}, None).unwrap();
    assert!(library.view().unwrap().asset("/app/one.gif").is_none());
    assert!(stored_assets(dir.path()).is_empty());
}
