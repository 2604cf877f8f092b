//! A server process the integration tests start and stop: `lectern serve`
//! (the local API), `lectern serve --site` or any command that prints its
//! URL. Needs `mod bin;` (tests/common/bin.rs) beside it.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::bin::lectern;

/// A running server, killed (SIGKILL, so its discovery files stay behind)
/// on drop; `terminate` stops it gracefully instead.
pub struct Server {
    child: Child,
    url: String,
    /// Later stdout lines; stdout keeps being drained, since a closed pipe
    /// would fail the server's next write.
    lines: mpsc::Receiver<String>,
}

impl Server {
    /// `lectern serve` for `user_data` on a free port. Ready when it prints
    /// its URL: by then the discovery files are published.
    pub fn local_api(user_data: &Path) -> Server {
        let mut command = lectern();
        command.arg("serve").arg("--user-data").arg(user_data);
        Server::start(command, "lectern serve")
    }

    /// `lectern serve --site --read-only` for `user_data` on a free port.
    pub fn site(user_data: &Path) -> Server {
        let mut command = lectern();
        command
            .args(["serve", "--site", "--read-only", "--listen", "127.0.0.1:0", "--user-data"])
            .arg(user_data);
        Server::start(command, "lectern serve --site")
    }

    /// Runs `command` until it prints a URL on stdout (the listener is
    /// bound by then). Its stderr goes to a file for the failure message.
    pub fn start(mut command: Command, what: &str) -> Server {
        let log = tempfile::NamedTempFile::new().unwrap();
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log.reopen().unwrap())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(i) = line.find("http://") {
                        let url = line[i..].chars().take_while(|c| !c.is_whitespace()).collect();
                        return Server { child, url, lines };
                    }
                }
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!(
                        "{what} printed no URL:\n{}",
                        std::fs::read_to_string(log.path()).unwrap_or_default()
                    );
                }
            }
        }
    }

    /// The first URL the server printed.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The listener's `host:port`.
    pub fn authority(&self) -> String {
        let rest = self.url.strip_prefix("http://").unwrap();
        rest.split('/').next().unwrap().to_owned()
    }

    pub fn port(&self) -> u16 {
        self.authority().rsplit(':').next().unwrap().parse().unwrap()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The next stdout line containing `needle` (e.g. the login link).
    pub fn line_with(&self, needle: &str) -> String {
        loop {
            let line = self.lines.recv_timeout(Duration::from_secs(30)).expect("the server printed no more");
            if line.contains(needle) {
                return line;
            }
        }
    }

    /// SIGTERM, then waits (at most 10 s) for the server to exit.
    pub fn terminate(mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not stop within 10 s of SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
