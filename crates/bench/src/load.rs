//! `load`: a closed-loop HTTP load run on a running `lectern serve`, for
//! `scripts/bench-api`. Each of N connections (one thread each, keep-alive)
//! sends a request, reads the whole response and sends the next one; the
//! requests are lines of a file (`lectern-bench requests`), drawn with Zipf
//! weights 1/rank^s. Every request's latency is kept, so the percentiles are
//! those of the requests made.
//!
//! wrk, the peer run beside it, adds synthetic samples to its latency
//! histogram before it prints percentiles (`stats_correct` in its `wrk.c`:
//! each latency n ≥ 2e, where e is the mean time between one connection's
//! requests, also counts as n − e, n − 2e, … while above e). That models an
//! open-loop schedule this closed loop does not have, and pulls the p50
//! towards the mean. Both sets of figures are printed here, from the same
//! samples, so the two tools can be compared.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::json;

use crate::report::{Table, json_line, mean_ms, ms, percentile_ms};
use crate::requests::splitmix64;

/// The load run's settings.
#[derive(Debug, Clone)]
pub struct Load {
    pub connections: usize,
    pub duration: Duration,
    /// Zipf exponent of the draw (0: uniform).
    pub zipf: f64,
}

/// What one connection saw.
#[derive(Debug, Default)]
struct Tally {
    latencies: Vec<Duration>,
    non_2xx: u64,
    socket_errors: u64,
}

pub fn run(user_data: &Path, paths_file: &Path, load: &Load) -> anyhow::Result<()> {
    let status: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(user_data.join("api/status.json")).with_context(
            || format!("reading {}/api/status.json: is `lectern serve` running?", user_data.display()),
        )?)?;
    let port =
        status["port"].as_u64().and_then(|p| u16::try_from(p).ok()).context("status.json has no port")?;
    let key = std::fs::read_to_string(user_data.join("api/access-key"))?.trim().to_owned();
    let paths: Vec<String> = std::fs::read_to_string(paths_file)
        .with_context(|| format!("reading {}", paths_file.display()))?
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    let (all, elapsed) = measure(port, &key, &paths, load)?;
    report(all, elapsed, load);
    Ok(())
}

/// Runs the load on 127.0.0.1:`port`; what every connection saw, and for how long.
fn measure(port: u16, key: &str, paths: &[String], load: &Load) -> anyhow::Result<(Tally, Duration)> {
    if paths.is_empty() {
        bail!("no request paths to send");
    }
    let weights = Arc::new(zipf_cumulative(paths.len(), load.zipf));
    let requests: Arc<Vec<Vec<u8>>> = Arc::new(
        paths
            .iter()
            .map(|p| {
                format!("GET {p} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {key}\r\n\r\n")
                    .into_bytes()
            })
            .collect(),
    );
    let start = Arc::new(Barrier::new(load.connections + 1));
    let mut threads = Vec::new();
    for c in 0..load.connections {
        let (requests, weights, start) = (requests.clone(), weights.clone(), start.clone());
        let duration = load.duration;
        threads.push(std::thread::spawn(move || -> anyhow::Result<Tally> {
            let mut rng = 7919 * (c as u64 + 1);
            let opened = Connection::open(port);
            // Every thread reaches the barrier, or the others would wait forever.
            start.wait();
            let mut conn = opened?;
            let mut tally = Tally::default();
            let end = Instant::now() + duration;
            while Instant::now() < end {
                let request = &requests[draw(&weights, &mut rng)];
                let t = Instant::now();
                match conn.round_trip(request) {
                    Ok(status) => {
                        tally.latencies.push(t.elapsed());
                        if !(200..300).contains(&status) {
                            tally.non_2xx += 1;
                        }
                    }
                    Err(_) => {
                        tally.socket_errors += 1;
                        conn = Connection::open(port)?;
                    }
                }
            }
            Ok(tally)
        }));
    }
    start.wait();
    let began = Instant::now();
    let mut all = Tally::default();
    for t in threads {
        let tally = t.join().map_err(|_| anyhow::anyhow!("a load thread panicked"))??;
        all.latencies.extend(tally.latencies);
        all.non_2xx += tally.non_2xx;
        all.socket_errors += tally.socket_errors;
    }
    Ok((all, began.elapsed()))
}

fn report(mut all: Tally, elapsed: Duration, load: &Load) {
    all.latencies.sort_unstable();
    let sorted = all.latencies;
    let n = sorted.len();
    let rate = n as f64 / elapsed.as_secs_f64();
    let corrected = wrk_corrected(&sorted, elapsed, load.connections);
    let mut table = Table::new(
        &format!(
            "Load run: {} connections, closed loop, {:.0} s, Zipf s = {}",
            load.connections,
            elapsed.as_secs_f64(),
            load.zipf
        ),
        &["latencies", "requests", "req/s", "p50", "p90", "p99", "max", "mean"],
    );
    for (name, v, rate) in [
        ("as measured", &sorted, format!("{rate:.0}")),
        ("with wrk's correction", &corrected, "—".to_owned()),
    ] {
        table.row(vec![
            name.to_owned(),
            v.len().to_string(),
            rate,
            ms(percentile_ms(v, 50.0)),
            ms(percentile_ms(v, 90.0)),
            ms(percentile_ms(v, 99.0)),
            ms(percentile_ms(v, 100.0)),
            ms(mean_ms(v)),
        ]);
    }
    table.print();
    println!("errors: {} non-2xx, {} socket", all.non_2xx, all.socket_errors);
    json_line(&json!({
        "bench": "load",
        "connections": load.connections,
        "seconds": elapsed.as_secs_f64(),
        "zipf": load.zipf,
        "requests": n,
        "requests_per_s": rate,
        "p50_ms": percentile_ms(&sorted, 50.0),
        "p90_ms": percentile_ms(&sorted, 90.0),
        "p99_ms": percentile_ms(&sorted, 99.0),
        "max_ms": percentile_ms(&sorted, 100.0),
        "wrk_corrected_p50_ms": percentile_ms(&corrected, 50.0),
        "wrk_corrected_p99_ms": percentile_ms(&corrected, 99.0),
        "non_2xx": all.non_2xx,
        "socket_errors": all.socket_errors,
    }));
}

/// The samples with wrk's synthetic ones added (its `stats_correct`, on
/// whole microseconds as wrk keeps them), sorted.
fn wrk_corrected(sorted: &[Duration], elapsed: Duration, connections: usize) -> Vec<Duration> {
    let per_connection = sorted.len() / connections.max(1);
    let mut out = sorted.to_vec();
    if per_connection == 0 {
        return out;
    }
    let expected = elapsed.as_micros() as u64 / per_connection as u64;
    for d in sorted {
        let n = d.as_micros() as u64;
        if expected == 0 || n < 2 * expected {
            continue;
        }
        let mut m = n - expected;
        while m > expected {
            out.push(Duration::from_micros(m));
            m -= expected;
        }
    }
    out.sort_unstable();
    out
}

/// Cumulative weights 1/rank^s of `n` ranked items.
fn zipf_cumulative(n: usize, s: f64) -> Vec<f64> {
    let mut total = 0.0;
    (1..=n)
        .map(|rank| {
            total += (rank as f64).powf(-s);
            total
        })
        .collect()
}

/// An index drawn with the weights `cumulative` describes.
fn draw(cumulative: &[f64], rng: &mut u64) -> usize {
    let total = cumulative.last().copied().unwrap_or(0.0);
    let u = (splitmix64(rng) >> 11) as f64 / (1u64 << 53) as f64 * total;
    cumulative.partition_point(|&c| c < u).min(cumulative.len() - 1)
}

/// One keep-alive HTTP/1.1 connection to the server.
struct Connection {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
    line: String,
    body: Vec<u8>,
}

impl Connection {
    fn open(port: u16) -> anyhow::Result<Connection> {
        let stream = TcpStream::connect(("127.0.0.1", port))
            .with_context(|| format!("connecting to 127.0.0.1:{port}"))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        Ok(Connection {
            reader: BufReader::with_capacity(64 * 1024, stream.try_clone()?),
            writer: stream,
            line: String::new(),
            body: Vec::new(),
        })
    }

    /// Sends `request` and reads the whole response; its status code.
    fn round_trip(&mut self, request: &[u8]) -> anyhow::Result<u16> {
        self.writer.write_all(request)?;
        self.line.clear();
        self.reader.read_line(&mut self.line)?;
        let status: u16 = self
            .line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .with_context(|| format!("not an HTTP status line: {:?}", self.line))?;
        let mut length = None;
        loop {
            self.line.clear();
            if self.reader.read_line(&mut self.line)? == 0 {
                bail!("the connection closed inside the headers");
            }
            let header = self.line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = Some(value.trim().parse::<usize>()?);
            }
        }
        let length =
            length.context("a response without Content-Length (this client reads no chunked bodies)")?;
        self.body.resize(length, 0);
        self.reader.read_exact(&mut self.body)?;
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// A loopback HTTP server: `/fast` answers at once, `/slow` after 20 ms,
    /// anything else is a 404; every answer checks the access key.
    fn server() -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let stream = stream.unwrap();
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut writer = stream;
                    loop {
                        let mut head = Vec::new();
                        let mut line = String::new();
                        while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                            head.push(std::mem::take(&mut line));
                        }
                        let Some(first) = head.first() else { return };
                        let keyed = head.iter().any(|h| h == "Authorization: Bearer k3y\r\n");
                        let (status, body) = match first.split(' ').nth(1) {
                            _ if !keyed => ("401 Unauthorized", "no key"),
                            Some("/slow") => {
                                std::thread::sleep(Duration::from_millis(20));
                                ("200 OK", "slow")
                            }
                            Some("/fast") => ("200 OK", "fast"),
                            _ => ("404 Not Found", "none"),
                        };
                        let response =
                            format!("HTTP/1.1 {status}\r\ncontent-length: {}\r\n\r\n{body}", body.len());
                        if writer.write_all(response.as_bytes()).is_err() {
                            return;
                        }
                    }
                });
            }
        });
        port
    }

    #[test]
    fn keeps_every_latency_and_counts_failures() {
        let port = server();
        let load = Load { connections: 2, duration: Duration::from_millis(600), zipf: 0.0 };
        let paths = ["/fast", "/fast", "/fast", "/slow", "/missing"].map(String::from);
        let (tally, elapsed) = measure(port, "k3y", &paths, &load).unwrap();
        let mut sorted = tally.latencies.clone();
        sorted.sort_unstable();
        // Three fast requests in five: the median is a fast one, the p90 a slow one.
        assert!(percentile_ms(&sorted, 50.0) < 10.0, "{sorted:?}");
        assert!(percentile_ms(&sorted, 90.0) >= 20.0, "{sorted:?}");
        assert!(tally.non_2xx > 0 && tally.non_2xx < sorted.len() as u64 / 2, "{}", tally.non_2xx);
        assert_eq!(tally.socket_errors, 0);
        // wrk's correction adds samples under the slow ones only.
        let corrected = wrk_corrected(&sorted, elapsed, load.connections);
        assert!(corrected.len() > sorted.len());
        assert!(percentile_ms(&corrected, 50.0) >= percentile_ms(&sorted, 50.0));
        // A wrong key: every answer is a 401.
        let (tally, _) = measure(port, "wrong", &paths, &load).unwrap();
        assert_eq!(tally.non_2xx, tally.latencies.len() as u64);
    }

    #[test]
    fn wrk_correction_adds_samples_below_each_long_latency() {
        // 2 connections × 4 requests in 8 ms: e = 2 ms.
        let us = |v: &[u64]| v.iter().map(|&u| Duration::from_micros(u)).collect::<Vec<_>>();
        let got =
            wrk_corrected(&us(&[100, 100, 100, 100, 100, 100, 1_000, 7_000]), Duration::from_millis(8), 2);
        // 7 ms also counts as 5 ms and 3 ms; 1 ms is below 2e.
        assert_eq!(got, us(&[100, 100, 100, 100, 100, 100, 1_000, 3_000, 5_000, 7_000]));
    }

    #[test]
    fn zipf_draws_favour_the_first_ranks() {
        let weights = zipf_cumulative(100, 1.0);
        let mut rng = 1;
        let mut counts = [0u32; 100];
        for _ in 0..100_000 {
            counts[draw(&weights, &mut rng)] += 1;
        }
        // Rank 1 is drawn about twice as often as rank 2 and ten times as often as rank 10.
        let ratio = |a: usize, b: usize| f64::from(counts[a]) / f64::from(counts[b]);
        assert!((1.8..2.2).contains(&ratio(0, 1)), "{counts:?}");
        assert!((8.0..12.5).contains(&ratio(0, 9)), "{counts:?}");
        assert!(counts[99] > 0);
        let uniform = zipf_cumulative(4, 0.0);
        assert_eq!(uniform, vec![1.0, 2.0, 3.0, 4.0]);
    }
}
