//! The built `lectern` binary is one file: on Linux it links nothing beyond
//! the C runtime (libc, libm, libgcc_s and the loader), read from the ELF's
//! `DT_NEEDED` entries with `readelf -d`, so a `-sys` crate that starts
//! linking a system library (liblzma, libsqlite3, libzstd, ...) fails here.
//! `scripts/package-deb` runs the same check on the release binary and the
//! installed one.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::Command;

/// The shared objects the C runtime of a `*-linux-gnu` target consists of.
/// (A `*-linux-musl` binary is static and needs none.)
const ALLOWED: [&str; 5] =
    ["libc.so.6", "libm.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"];

/// The `DT_NEEDED` names of an ELF file, in order.
fn needed(binary: &Path) -> Vec<String> {
    let out = Command::new("readelf")
        .args(["--dynamic", "--wide"])
        .arg(binary)
        .output()
        .unwrap_or_else(|e| panic!("running readelf (binutils) on {}: {e}", binary.display()));
    assert!(
        out.status.success(),
        "readelf -d {} failed: {}",
        binary.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    parse_needed(&String::from_utf8_lossy(&out.stdout))
}

/// `0x...1 (NEEDED)  Shared library: [libc.so.6]` lines → `libc.so.6`.
fn parse_needed(dynamic_section: &str) -> Vec<String> {
    dynamic_section
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| Some(l.split_once('[')?.1.split_once(']')?.0.to_owned()))
        .collect()
}

#[test]
fn links_only_the_c_runtime() {
    let binary = Path::new(env!("CARGO_BIN_EXE_lectern"));
    let needed = needed(binary);
    let target_env = if cfg!(target_env = "musl") { "musl" } else { "gnu" };
    if target_env == "gnu" {
        // Guards the parsing: a dynamic glibc binary always names libc.
        assert!(
            needed.iter().any(|n| n == "libc.so.6"),
            "no libc.so.6 among the DT_NEEDED entries of {}: {needed:?}; is readelf's output readable?",
            binary.display()
        );
    }
    let extra: Vec<_> = needed.iter().filter(|n| !ALLOWED.contains(&n.as_str())).collect();
    assert!(
        extra.is_empty(),
        "{} links {extra:?} beyond the C runtime (allowed: {ALLOWED:?}); link that -sys crate statically \
         (its `static` or `bundled` feature) or replace it",
        binary.display()
    );
}

#[test]
fn the_check_reads_needed_entries() {
    let sample = "\
Dynamic section at offset 0x1 contains 3 entries:
  Tag        Type                         Name/Value
 0x0000000000000001 (NEEDED)             Shared library: [liblzma.so.5]
 0x0000000000000001 (NEEDED)             Shared library: [libc.so.6]
 0x000000000000000c (INIT)               0x5000
";
    assert_eq!(parse_needed(sample), ["liblzma.so.5", "libc.so.6"]);
}
