//! `/llms.txt` and `/sitemap.xml` builds stop when their client leaves.
//!
//! Contents:
//! - on a generated site of [`PAGES`] pages served by a real
//!   `lectern serve --site`, a client that asks for `/llms.txt` and hangs up
//!   after [`HANG_UP_AFTER`] costs the server much less CPU time
//!   (`/proc/PID/stat`) than the full build the next client gets, which is a
//!   build again (nothing partial was cached), then cached. Before builds
//!   checked for a departed client only before starting, the abandoned build
//!   ran to the end and the next request was a cache hit.
//! - the same for `/sitemap.xml`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

#[path = "common/bin.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod bin;
#[path = "common/server.rs"]
#[allow(dead_code, reason = "a helper module shared by the test binaries; this one uses part of it")]
mod server;

use server::Server;

/// Enough pages that a listing takes the debug build about half a second.
const PAGES: usize = 30_000;
const HANG_UP_AFTER: Duration = Duration::from_millis(20);

/// `PAGES` small Markdown pages, each with a title and a description.
fn write_tree(dir: &Path) {
    for i in 0..PAGES {
        let folder = dir.join(format!("d{:02}", i / 1000));
        std::fs::create_dir_all(&folder).unwrap();
        let page =
            format!("---\ntitle: Page {i}\ndescription: About page {i}\n---\n\n# Page {i}\n\nBody {i}.\n");
        std::fs::write(folder.join(format!("p{i:05}.md")), page).unwrap();
    }
}

/// User plus system CPU time the process has used, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
    let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Waits until the server's CPU time stops growing (no build is running),
/// at most 20 s; its CPU time then.
fn settled(pid: u32) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut last = cpu_ticks(pid);
    loop {
        std::thread::sleep(Duration::from_millis(300));
        let now = cpu_ticks(pid);
        if now == last || Instant::now() > deadline {
            return now;
        }
        last = now;
    }
}

fn request(authority: &str, path: &str) -> TcpStream {
    let mut stream = TcpStream::connect(authority).unwrap();
    let head = format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream
}

/// The whole answer to `GET path`.
fn fetch(authority: &str, path: &str) -> String {
    let mut stream = request(authority, path);
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).unwrap();
    out
}

/// Asks for `path` and hangs up; then fetches it whole twice. The server's
/// CPU time for each of the three, in ticks.
fn abandoned_then_full(server: &Server, path: &str, last_page: &str) -> [u64; 3] {
    let (pid, authority) = (server.pid(), server.authority());
    let before = settled(pid);
    let stream = request(&authority, path);
    std::thread::sleep(HANG_UP_AFTER);
    drop(stream);
    let abandoned = settled(pid);
    let full = fetch(&authority, path);
    assert!(full.starts_with("HTTP/1.1 200"), "{}", &full[..full.len().min(300)]);
    assert!(full.contains(last_page), "{path} is missing its last page");
    let built = settled(pid);
    let again = fetch(&authority, path);
    assert_eq!(again.split_once("\r\n\r\n").unwrap().1, full.split_once("\r\n\r\n").unwrap().1);
    let cached = settled(pid);
    [abandoned - before, built - abandoned, cached - built]
}

fn check(path: &str, [abandoned, built, cached]: [u64; 3]) {
    eprintln!("{path}: abandoned {abandoned} ticks, next build {built} ticks, cached {cached} ticks");
    assert!(built >= 10, "{path}: the build took {built} ticks, too few to compare with");
    assert!(
        abandoned * 3 < built,
        "{path}: an abandoned build took {abandoned} ticks of CPU, the next full one {built}: it was not stopped"
    );
}

#[test]
fn listings_stop_building_when_their_client_hangs_up_and_cache_only_whole_bodies() {
    let dir = tempfile::tempdir().unwrap();
    let (source, lib) = (dir.path().join("tree"), dir.path().join("lib"));
    let started = Instant::now();
    write_tree(&source);
    bin::ok(&lib, &["add", source.to_str().unwrap(), "--project", "big", "--version", "1"]);
    eprintln!("wrote and added {PAGES} pages in {:.1} s", started.elapsed().as_secs_f64());
    let server = Server::site(&lib);
    // The edition's page table is loaded once, by a first request, so that
    // only the listing itself is measured below.
    assert!(bin_ok_page(&server));
    let last = format!("/big/d{:02}/p{:05}", (PAGES - 1) / 1000, PAGES - 1);
    check("/llms.txt", abandoned_then_full(&server, "/llms.txt", &last));
    check("/sitemap.xml", abandoned_then_full(&server, "/sitemap.xml", &last));
}

/// A page of the site answers (and the edition is loaded).
fn bin_ok_page(server: &Server) -> bool {
    fetch(&server.authority(), "/big/d00/p00000").starts_with("HTTP/1.1 200")
}
