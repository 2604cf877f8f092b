//! The `lectern` binary as the integration tests run it: a clean environment
//! and the source tree's demo site.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `lectern` with no inherited library (`LECTERN_USER_DATA`) and no colour,
/// so a developer's own settings never reach a test.
pub fn lectern() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_lectern"));
    c.env_remove("LECTERN_USER_DATA").env("NO_COLOR", "1");
    c
}

/// The source tree (where `examples/` and `docs/` live).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The bundled demo site's config, `examples/demo/lectern.toml`.
pub fn demo_config() -> PathBuf {
    root().join("examples/demo/lectern.toml")
}

/// `lectern ARGS --user-data LIB`.
pub fn run(user_data: &Path, args: &[&str]) -> Output {
    lectern().args(args).arg("--user-data").arg(user_data).output().unwrap()
}

/// `lectern ARGS --user-data LIB`, which must succeed; its stdout.
pub fn ok(user_data: &Path, args: &[&str]) -> String {
    let out = run(user_data, args);
    assert!(
        out.status.success(),
        "lectern {args:?} failed ({:?}):\n{}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Installs every edition of the demo site into `user_data`.
pub fn add_demo(user_data: &Path) {
    ok(user_data, &["add", "--site", demo_config().to_str().unwrap()]);
}

/// A fresh temporary library holding the demo site.
pub fn demo_library() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    add_demo(dir.path());
    dir
}

/// `lectern ARGS --user-data LIB` whose reader hangs up before it writes (as
/// `| head -1` does after its line, only sooner: every write then meets the
/// closed pipe).
pub fn into_a_closed_pipe(user_data: &Path, args: &[&str]) -> Output {
    let mut child = lectern()
        .args(args)
        .arg("--user-data")
        .arg(user_data)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}
