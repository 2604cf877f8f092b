//! Replays every committed fuzz corpus file (`fuzz/corpus/<target>/*`)
//! through the same entry functions the libFuzzer targets call, without
//! libFuzzer, so `cargo test` holds every finding and every corpus input.
//!
//! The inputs that found bugs live in the corpora too, named after the bug
//! (see the Fuzzing section of docs/robustness.md).

#[path = "../fuzz/src/entries.rs"]
#[allow(dead_code, reason = "the fuzz crate uses items this test does not")]
mod entries;

use std::path::Path;

fn replay(target: &str) {
    let (_, entry) = entries::TARGETS.iter().find(|(name, _)| *name == target).expect("known target");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no corpus files", dir.display());
    for file in files {
        let data = std::fs::read(&file).expect("read corpus file");
        let outcome = std::panic::catch_unwind(|| entry(&data));
        assert!(outcome.is_ok(), "{target}: corpus file {} fails", file.display());
    }
}

#[test]
fn every_target_has_a_corpus_and_a_test() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    for (name, _) in entries::TARGETS {
        assert!(dir.join(name).is_dir(), "fuzz/corpus/{name} is missing");
    }
}

#[test]
fn stdio_framing_corpus() {
    replay("stdio_framing");
}

#[test]
fn query_corpus() {
    replay("query");
}

#[test]
fn markdown_corpus() {
    replay("markdown");
}

#[test]
fn html_corpus() {
    replay("html");
}

#[test]
fn docset_corpus() {
    replay("docset");
}

#[test]
fn docset_index_corpus() {
    replay("docset_index");
}

#[test]
fn site_config_corpus() {
    replay("site_config");
}

#[test]
fn cursor_key_corpus() {
    replay("cursor_key");
}

/// Regression (fuzz target `stdio_framing`): a batch whose counted requests
/// were all answered (here: an invalid request) before its last invalid
/// element was split panicked with "batch exists"; now the batch is answered
/// once, as one array holding every element's reply. (Batches are answered
/// only in a session that negotiated 2025-03-26, hence the `initialize`.)
#[test]
fn batch_answered_before_its_last_invalid_element() {
    let input = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
[{"jsAnrpc":"2.0","id":1,"method":"initialize","params":{}},{"jsonrpc":"2.0","id":2,"met0hod":"tools/list"},{"jsonrpc":"2.0","method":"notifications/initialized"}]
"#;
    let out = entries::stdio_framing_output(input);
    let lines: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    assert_eq!(lines.len(), 2, "the initialize reply and one reply for the batch: {out}");
    let replies =
        lines.iter().find_map(|l| l.as_array()).unwrap_or_else(|| panic!("a batch reply is an array: {out}"));
    assert_eq!(replies.len(), 2, "{out}");
    assert!(replies.iter().all(|r| r["error"]["code"] == -32600), "{out}");
}
