//! `litrev bench serve`: many live clients on one run and several runs at once, against a
//! server started in this process on a loopback port.
//!
//! Each client follows a run's Server-Sent Events to its end and notes when every event
//! arrived; the stored stream is the reference. A client that missed or reordered an event is
//! counted, and each event's delivery latency is its arrival time less the time it was stored.
//! The same measure with a single client on a single run comes first, as the baseline of the
//! ratio printed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use litrev::Home;
use litrev::model::RunId;

use crate::{Error, ServeOptions};

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// OpenAlex works files each run reviews.
    pub works: Vec<PathBuf>,
    /// The review question.
    pub question: String,
    /// Clients on the first run.
    pub clients: usize,
    /// Runs at once (each with one more client).
    pub runs: usize,
}

/// One measured round: clients on runs, and what they received.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// Clients on the first run.
    pub clients: usize,
    /// Runs driven at once.
    pub runs: usize,
    /// Events the first run stored.
    pub events: usize,
    /// Clients of the first run whose sequence differed from the stored one.
    pub missed_or_reordered: usize,
    /// Fewest and most events a client of the first run received.
    pub received: (usize, usize),
    /// Delivery latency, stored → received, in milliseconds: median, 99th percentile, most.
    pub latency_ms: (f64, f64, f64),
    /// Wall time of the round, seconds.
    pub seconds: f64,
}

/// Runs the baseline (one client, one run) and the measured round.
///
/// # Errors
/// When the server cannot start or a run cannot be created or fails.
pub fn bench_serve(options: &BenchOptions) -> Result<Vec<Round>, Error> {
    // Snapshot paths are kept as given; the server resolves them from its own folder.
    let options = &BenchOptions {
        works: options
            .works
            .iter()
            .map(|path| std::path::absolute(path).unwrap_or_else(|_| path.clone()))
            .collect(),
        ..options.clone()
    };
    let home_dir = tempfile::tempdir().map_err(Error::Runtime)?;
    let home = Home::at(home_dir.path().to_path_buf());
    let (sender, receiver) = std::sync::mpsc::channel();
    let workers = options.runs.max(1);
    let serving = home.clone();
    std::thread::spawn(move || {
        let served = crate::serve(
            serving,
            ServeOptions {
                addr: SocketAddr::from(([127, 0, 0, 1], 0)),
                token: None,
                workers,
                db: None,
                sources: Vec::new(),
            },
            |addr| {
                let _ = sender.send(Ok(addr));
            },
        );
        if let Err(error) = served {
            let _ = sender.send(Err(error));
        }
    });
    let addr = receiver
        .recv_timeout(Duration::from_secs(30))
        .map_err(|_| Error::Bench("the server did not start".to_owned()))??;
    let baseline = round(addr, options, &home, 1, 1)?;
    let measured = round(addr, options, &home, options.clients, options.runs)?;
    Ok(vec![baseline, measured])
}

fn round(
    addr: SocketAddr,
    options: &BenchOptions,
    home: &Home,
    clients: usize,
    runs: usize,
) -> Result<Round, Error> {
    let started = std::time::Instant::now();
    let ids: Vec<String> = (0..runs.max(1))
        .map(|_| create_run(addr, options))
        .collect::<Result<_, _>>()?;
    let followers: Vec<_> = (0..clients.max(1))
        .map(|_| ids[0].clone())
        .chain(ids.iter().skip(1).cloned())
        .map(|run| std::thread::spawn(move || follow(addr, &run)))
        .collect();
    let mut received = Vec::new();
    for follower in followers {
        received.push(
            follower
                .join()
                .map_err(|_| Error::Bench("a client panicked".to_owned()))??,
        );
    }
    let seconds = started.elapsed().as_secs_f64();
    let run: RunId = ids[0]
        .parse()
        .map_err(|_| Error::Bench("the server gave a bad run id".to_owned()))?;
    let stored = litrev::EventLog::open(home, None)?.after(&run, 0, usize::MAX)?;
    let first = &received[..clients.max(1)];
    let reference: Vec<i64> = stored.iter().map(|event| event.id).collect();
    let missed_or_reordered = first
        .iter()
        .filter(|events| events.iter().map(|(id, _)| *id).collect::<Vec<_>>() != reference)
        .count();
    let stored_at: std::collections::HashMap<i64, i64> = stored
        .iter()
        .map(|event| (event.id, event.stored_ms))
        .collect();
    let mut latencies: Vec<f64> = first
        .iter()
        .flatten()
        .filter_map(|(id, at)| Some((*at - stored_at.get(id)?) as f64))
        .collect();
    latencies.sort_by(f64::total_cmp);
    let counts = first.iter().map(Vec::len);
    Ok(Round {
        clients: clients.max(1),
        runs: runs.max(1),
        events: stored.len(),
        missed_or_reordered,
        received: (counts.clone().min().unwrap_or(0), counts.max().unwrap_or(0)),
        latency_ms: (
            percentile(&latencies, 0.5),
            percentile(&latencies, 0.99),
            latencies.last().copied().unwrap_or(0.0),
        ),
        seconds,
    })
}

fn create_run(addr: SocketAddr, options: &BenchOptions) -> Result<String, Error> {
    let sources: Vec<String> = options
        .works
        .iter()
        .map(|path| format!("snapshot:{}", path.display()))
        .collect();
    let body = serde_json::json!({
        "question": options.question,
        "sources": sources,
        "tier": "quick",
        "yes": true,
    })
    .to_string();
    let mut reader = request(addr, "POST", "/api/runs", &body)?;
    let mut answer = String::new();
    reader
        .read_to_string(&mut answer)
        .map_err(|error| Error::Bench(format!("POST /api/runs: {error}")))?;
    let created: serde_json::Value = serde_json::from_str(&answer)
        .map_err(|error| Error::Bench(format!("POST /api/runs answered no JSON: {error}")))?;
    created["id"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| Error::Bench(format!("POST /api/runs: {created}")))
}

/// Sends one HTTP/1.0 request to the loopback server (so the answer is not chunked and ends
/// when the connection closes) and returns its body, the headers read past.
fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> Result<BufReader<TcpStream>, Error> {
    let failed = |error: std::io::Error| Error::Bench(format!("{method} {path}: {error}"));
    let mut stream = TcpStream::connect(addr).map_err(failed)?;
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .map_err(failed)?;
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).map_err(failed)?;
    if !status
        .split_whitespace()
        .nth(1)
        .is_some_and(|code| code.starts_with('2'))
    {
        return Err(Error::Bench(format!("{method} {path}: {}", status.trim())));
    }
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).map_err(failed)? == 0 || header.trim().is_empty() {
            return Ok(reader);
        }
    }
}

/// Follows a run's events to the end: each event's id and the time it arrived (ms since the
/// epoch).
fn follow(addr: SocketAddr, run: &str) -> Result<Vec<(i64, i64)>, Error> {
    let failed = |why: String| Error::Bench(why);
    let reader = request(addr, "GET", &format!("/api/runs/{run}/events"), "")?;
    let mut events = Vec::new();
    let mut id = None;
    let mut last_kind = String::new();
    let mut last_data = String::new();
    for line in reader.lines() {
        let line = line.map_err(|error| failed(format!("reading events: {error}")))?;
        if let Some(value) = line.strip_prefix("id:") {
            id = value.trim().parse::<i64>().ok();
        } else if let Some(value) = line.strip_prefix("event:") {
            last_kind = value.trim().to_owned();
        } else if let Some(value) = line.strip_prefix("data:") {
            last_data = value.trim().to_owned();
        } else if line.is_empty()
            && let Some(id) = id.take()
        {
            events.push((id, now_ms()));
            if last_kind == "failed" {
                return Err(failed(format!("run {run} failed: {last_data}")));
            }
        }
    }
    Ok(events)
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as i64)
}

/// The `q` quantile of sorted values (nearest rank); 0 when there are none.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// The rounds as a table, with the ratio of the measured round's 99th percentile to the
/// baseline's.
pub fn table(rounds: &[Round]) -> String {
    let mut out = String::from(
        "clients  runs  events  received (min-max)  missed or reordered  latency ms: median    p99    max  seconds\n",
    );
    for round in rounds {
        out.push_str(&format!(
            "{:>7}  {:>4}  {:>6}  {:>18}  {:>19}  {:>18.1}  {:>5.1}  {:>5.1}  {:>7.2}\n",
            round.clients,
            round.runs,
            round.events,
            format!("{}-{}", round.received.0, round.received.1),
            round.missed_or_reordered,
            round.latency_ms.0,
            round.latency_ms.1,
            round.latency_ms.2,
            round.seconds
        ));
    }
    if let [baseline, measured] = rounds {
        out.push_str(&format!(
            "p99 latency, {} clients on {} runs / 1 client on 1 run: {:.2}\n",
            measured.clients,
            measured.runs,
            measured.latency_ms.1 / baseline.latency_ms.1.max(1.0)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let values: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&values, 0.5), 50.0);
        assert_eq!(percentile(&values, 0.99), 99.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
        assert_eq!(percentile(&[7.0], 0.99), 7.0);
    }
}
