//! Printing: JSON on stdout, human tables, highlighted snippets, error
//! chains, and what a reader hanging up early (`| head`) means.

use std::io::{IsTerminal, Write};

use serde::Serialize;

/// `print!` on stdout that hands back the write's error instead of
/// panicking, so a reader hanging up (`| head -1`) ends the command quietly.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `println!` likewise (see `out!`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// Whether the command failed only because the reader of stdout hung up
/// (`lectern search ... | head -1`): everything it wanted was written, so
/// the command ends quietly with status 0, as if the output had been read
/// to its end (141, a death by SIGPIPE, would fail `set -o pipefail` scripts
/// for output they asked to cut short).
pub fn reader_hung_up(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().map(std::io::Error::kind)
            == Some(std::io::ErrorKind::BrokenPipe)
            || cause.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind)
                == Some(std::io::ErrorKind::BrokenPipe)
    })
}

/// Prints a value as pretty JSON on stdout.
pub fn json<T: Serialize>(value: &T) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}

/// An error as the local API and both MCP faces send it, on stdout, for a
/// command asked for `--json`: `{"error":{"code","message"}}`, the code of
/// the library's error where it is one (`not_found`, `invalid_argument`…),
/// `internal` for a failure to read or write, else `invalid_argument` (the
/// command's arguments).
pub fn json_error(e: &anyhow::Error) {
    use lectern_library::{ErrorCode, LibraryError};
    let code = e.chain().find_map(|c| c.downcast_ref::<LibraryError>()).map(LibraryError::code);
    let io = e.chain().any(|c| c.is::<std::io::Error>());
    let code = code.unwrap_or(if io { ErrorCode::Internal } else { ErrorCode::InvalidArgument });
    let body = serde_json::json!({"error": {"code": code.as_str(), "message": chain(e)}});
    // (A reader gone already is told nothing more.)
    let _ = json(&body);
}

/// An error and its causes on one line, each cause once.
pub fn chain(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        let s = cause.to_string();
        if !parts.iter().any(|p| p.contains(&s)) {
            parts.push(s);
        }
    }
    parts.join(": ")
}

/// Whether stdout is a terminal (for colour).
pub fn colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// Marks `[start, end)` scalar ranges of `text` in bold (terminal) or with `**`.
pub fn highlight(text: &str, ranges: &[[usize; 2]], colour: bool) -> String {
    let (open, close) = if colour { ("\x1b[1;33m", "\x1b[0m") } else { ("**", "**") };
    let mut out = String::with_capacity(text.len() + ranges.len() * 8);
    let mut ranges = ranges.iter().peekable();
    let mut inside = false;
    for (i, ch) in text.chars().enumerate() {
        if inside && ranges.peek().is_some_and(|r| r[1] == i) {
            out.push_str(close);
            inside = false;
            ranges.next();
        }
        if !inside && ranges.peek().is_some_and(|r| r[0] == i) {
            out.push_str(open);
            inside = true;
        }
        out.push(if ch == '\n' { ' ' } else { ch });
    }
    if inside {
        out.push_str(close);
    }
    out
}

/// A plain left-aligned table.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            if i + 1 == cells.len() {
                s.push_str(cell);
            } else {
                s.push_str(cell);
                s.push_str(&" ".repeat(w - cell.chars().count() + 2));
            }
        }
        s.trim_end().to_owned()
    };
    let mut out = line(headers.to_vec());
    out.push('\n');
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlights_use_scalar_offsets() {
        assert_eq!(highlight("创建索引 now", &[[2, 4], [5, 8]], false), "创建**索引** **now**");
    }
}
