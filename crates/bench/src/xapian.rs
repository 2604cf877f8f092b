//! The Xapian peer of `eval`: `xapian_peer.py` (Python bindings from the
//! Debian package `python3-xapian`, a benchmark-only tool, never a product
//! dependency) run as a child process, fed the very sections FTS5 gets and
//! asked the same questions, over JSON lines on its stdin and stdout.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::Context;
use lectern_index::SectionRecord;
use serde_json::json;

/// The script, carried in the binary so the bench runs from any folder.
const SCRIPT: &str = include_str!("../xapian_peer.py");

/// Interpreters tried in turn: `LECTERN_BENCH_PYTHON` when set, then the
/// `python3` on PATH, then the system one (where apt installs the bindings,
/// which a pyenv or venv `python3` on PATH does not see).
fn interpreters() -> Vec<String> {
    let mut v: Vec<String> = std::env::var("LECTERN_BENCH_PYTHON").into_iter().collect();
    v.extend(["python3".to_owned(), "/usr/bin/python3".to_owned()]);
    v
}

/// The first interpreter that can `import xapian`, if any.
pub fn find_python() -> Option<String> {
    interpreters().into_iter().find(|py| {
        Command::new(py)
            .args(["-c", "import xapian"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// A running peer holding one in-memory Xapian database per edition.
pub struct Xapian {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    stdout: BufReader<ChildStdout>,
}

impl Xapian {
    /// Starts the peer with `python` and indexes every section of the given
    /// editions (edition id, locale, sections).
    pub fn start(python: &str, editions: &[(&str, &str, &[SectionRecord])]) -> anyhow::Result<Xapian> {
        let mut child = Command::new(python)
            .args(["-c", SCRIPT])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting the Xapian peer with {python}"))?;
        let stdin = BufWriter::new(child.stdin.take().context("the peer's stdin")?);
        let stdout = BufReader::new(child.stdout.take().context("the peer's stdout")?);
        let mut peer = Xapian { child, stdin: Some(stdin), stdout };
        let w = peer.stdin.as_mut().context("the peer's stdin")?;
        for (id, locale, sections) in editions {
            for s in sections.iter() {
                let doc = json!({ "doc": {
                    "db": id, "locale": locale, "path": s.page_path, "title": s.title, "text": s.text,
                }});
                serde_json::to_writer(&mut *w, &doc)?;
                w.write_all(b"\n")?;
            }
        }
        w.flush().context("sending the sections to the Xapian peer")?;
        Ok(peer)
    }

    /// Page paths of the top `limit` sections of `edition` for `query`, best first.
    pub fn search(
        &mut self,
        edition: &str,
        locale: &str,
        query: &str,
        limit: usize,
    ) -> anyhow::Result<Vec<String>> {
        // Xapian joins the n-grams of one unbroken CJK run with AND; split
        // into bigrams, as for FTS5, the question's n-grams are joined by the
        // default operator OR like its words.
        let text = if locale == "en" { query.to_owned() } else { crate::fts::presplit(query) };
        let w = self.stdin.as_mut().context("the Xapian peer is closed")?;
        serde_json::to_writer(&mut *w, &json!({ "query": { "db": edition, "text": text, "limit": limit } }))?;
        w.write_all(b"\n")?;
        w.flush().context("asking the Xapian peer")?;
        let mut line = String::new();
        anyhow::ensure!(self.stdout.read_line(&mut line)? > 0, "the Xapian peer exited");
        let reply: serde_json::Value = serde_json::from_str(&line).context("the Xapian peer's answer")?;
        if let Some(err) = reply.get("error").and_then(|e| e.as_str()) {
            anyhow::bail!("Xapian: {err}");
        }
        let paths =
            reply.get("paths").and_then(|p| p.as_array()).context("the Xapian peer's answer has no paths")?;
        Ok(paths.iter().filter_map(|p| p.as_str().map(str::to_owned)).collect())
    }
}

impl Drop for Xapian {
    fn drop(&mut self) {
        // Closing its stdin ends the script's read loop.
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peer_answers_in_both_languages_when_installed() {
        let Some(python) = find_python() else {
            eprintln!("python3-xapian is not installed: skipped");
            return;
        };
        let s = |path: &str, title: &str, text: &str| SectionRecord {
            key: path.into(),
            edition: "e".into(),
            page_path: path.into(),
            anchor: None,
            title: title.into(),
            breadcrumb: vec![],
            text: text.into(),
            markdown: None,
        };
        let en = [s("/a", "Indexes", "building indexes"), s("/b", "Other", "words")];
        let zh = [s("/z", "索引", "如何创建索引"), s("/y", "其他", "别的内容")];
        let mut peer = Xapian::start(&python, &[("en", "en", &en), ("zh", "zh-Hans", &zh)]).unwrap();
        assert_eq!(peer.search("en", "en", "build an index", 10).unwrap(), ["/a"], "stemmed, any word");
        assert_eq!(peer.search("zh", "zh-Hans", "怎么创建索引", 10).unwrap(), ["/z"], "bigrams, any of them");
        assert!(peer.search("nowhere", "en", "x", 10).is_err());
        assert!(peer.search("en", "en", "\"unbalanced AND", 10).is_ok(), "odd syntax is read as words");
        assert_eq!(
            peer.search("zh", "zh-Hans", "DELETE和TRUNCATE有什么区别", 10).unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(peer.search("zh", "zh-Hans", "CREATE和索引", 10).unwrap(), ["/z"], "a lone CJK character");
    }
}
