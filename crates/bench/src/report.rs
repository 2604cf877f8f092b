//! Printing figures: aligned tables, one JSON line per run, percentiles,
//! peak RSS and folder sizes.

use std::path::Path;
use std::time::Duration;

/// A table printed with aligned columns.
#[derive(Debug)]
pub struct Table {
    title: String,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(title: &str, header: &[&str]) -> Table {
        Table {
            title: title.to_owned(),
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub fn print(&self) {
        print!("{}", self.render());
    }

    /// The table as text, as `print` prints it.
    pub fn render(&self) -> String {
        let width = |i: usize| {
            self.rows
                .iter()
                .chain(std::iter::once(&self.header))
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.header.len()).map(width).collect();
        let line = |r: &Vec<String>| {
            let cells: Vec<String> = r
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{c}{}", " ".repeat(widths[i].saturating_sub(c.chars().count()))))
                .collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let mut out = format!("\n{}\n\n", self.title);
        out.push_str(&line(&self.header));
        out.push_str(&format!(
            "|{}|\n",
            widths.iter().map(|w| "-".repeat(w + 2)).collect::<Vec<_>>().join("|")
        ));
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }
}

/// Prints the run's figures as one JSON line.
pub fn json_line(value: &serde_json::Value) {
    println!("\n{}", serde_json::to_string(value).expect("json"));
}

/// Nearest-rank percentile of sorted durations, in milliseconds.
pub fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1].as_secs_f64() * 1000.0
}

pub fn mean_ms(v: &[Duration]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().map(Duration::as_secs_f64).sum::<f64>() * 1000.0 / v.len() as f64
    }
}

/// A `kB` line of `/proc/self/status` (`VmHWM:`, `RssAnon:`...), in bytes;
/// 0 when absent.
pub fn proc_status_bytes(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.strip_prefix(key).is_some_and(|rest| rest.starts_with(':')))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// Peak resident set size of this process (VmHWM), in bytes.
pub fn peak_rss() -> u64 {
    proc_status_bytes("VmHWM")
}

/// Bytes of every file under `dir`.
pub fn dir_size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

pub fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

pub fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

pub fn ms(x: f64) -> String {
    format!("{x:.3}")
}

pub fn r3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// CPU seconds (user + system) this process has used so far, from
/// `/proc/self/stat` (clock ticks, assumed 100 per second as on Linux).
/// Beside wall time it shows how much a busy machine slowed a run.
pub fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 here.
    let tick = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

/// The machine's 1-minute load average: figures from a busy machine are slower.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}
