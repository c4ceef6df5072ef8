//! A loopback HTTP/1.1 server: answers with a handler (an [`crate::openalex::OpenAlexWorks`]
//! over a snapshot, or a [`Replay`] of recorded API traffic), counts the requests it gets, and
//! injects faults (429, 5xx, slow answers, resets, truncated bodies) at a seeded rate, so
//! clients' request counts, retry, cache and breaker logic are measured and tested offline.
//!
//! One thread accepts; each connection gets its own thread and is closed after one answer
//! (`Connection: close`). The server stops when dropped.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use flate2::read::GzDecoder;

use crate::random::SplitMix64;

/// Query parameters that identify the caller rather than the request, ignored by [`Replay`].
const IDENTITY_PARAMS: &[&str] = &["mailto", "email", "api_key", "tool"];

/// Longest request head (request line and headers) the server reads.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// A running loopback server; stops when dropped.
pub struct Server {
    address: SocketAddr,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
}

/// A request as the handler sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServedRequest {
    /// `GET`, `POST`…
    pub method: String,
    /// The percent-decoded path (`/works/W123`).
    pub path: String,
    /// The percent-decoded query parameters in order (`+` read as a space).
    pub query: Vec<(String, String)>,
    /// The request target as sent (`/works?filter=cites%3AW1`).
    pub raw_target: String,
    /// Header names (lower-cased) and values, in order.
    pub headers: Vec<(String, String)>,
    /// The request body (empty when none).
    pub body: Vec<u8>,
}

/// What the handler answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type` header (not sent when empty).
    pub content_type: String,
    /// The body.
    pub body: Vec<u8>,
    /// Extra headers (`Retry-After`…).
    pub headers: Vec<(String, String)>,
}

/// Which requests get a fault instead of (or before) their answer.
#[derive(Clone, Debug, PartialEq)]
pub struct FaultPlan {
    /// Probability that a request gets a fault, in `[0, 1]`.
    pub rate: f64,
    /// Seed of the generator that decides, so a test sees the same faults every run.
    pub seed: u64,
    /// The faults to choose from, uniformly; empty means none.
    pub kinds: Vec<Fault>,
}

/// A misbehaviour of a real API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// 429 Too Many Requests, with a `Retry-After` in seconds when given.
    TooManyRequests {
        /// The `Retry-After` header's seconds, if any.
        retry_after: Option<u32>,
    },
    /// A 5xx status (500, 502, 503…) with a short JSON body.
    ServerError(u16),
    /// Sleeps this long (longer than the client's timeout), then answers normally.
    Slow(Duration),
    /// Closes the connection without answering, with a TCP reset.
    Reset,
    /// Sends the headers with the full `Content-Length`, half the body, then closes.
    Truncated,
}

/// Recorded HTTP exchanges served back by method, path and query parameters.
///
/// Several recordings of the same request are served in recording order, the last one
/// repeating. Clones share recordings and counters, so a test can keep one to check
/// [`Replay::unmatched`] after handing the handler to a [`Server`].
#[derive(Clone, Default)]
pub struct Replay {
    inner: Arc<ReplayInner>,
}

#[derive(Default)]
struct ReplayInner {
    recordings: Mutex<Vec<Recording>>,
    /// Times each group of identical recordings (keyed by its first index) has been served.
    served: Mutex<HashMap<usize, usize>>,
    unmatched: Mutex<Vec<String>>,
}

struct Recording {
    method: String,
    path: String,
    /// Sorted, without the identity parameters: compared as a multiset.
    query: Vec<(String, String)>,
    /// `None` when the recording has no request body: any body matches.
    request_body: Option<Vec<u8>>,
    reply: Reply,
}

struct Shared {
    handler: Box<dyn Fn(&ServedRequest) -> Reply + Send + Sync>,
    faults: FaultPlan,
    generator: Mutex<SplitMix64>,
    stopping: AtomicBool,
    requests: AtomicU64,
    faults_injected: AtomicU64,
    log: Mutex<Vec<String>>,
}

impl Server {
    /// Starts a server on `127.0.0.1` at a free port.
    ///
    /// # Panics
    /// When no loopback port can be bound or the accept thread cannot start.
    pub fn start(
        handler: impl Fn(&ServedRequest) -> Reply + Send + Sync + 'static,
        faults: FaultPlan,
    ) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
        let address = listener.local_addr().expect("the bound address");
        let shared = Arc::new(Shared {
            handler: Box::new(handler),
            generator: Mutex::new(SplitMix64::new(faults.seed)),
            faults,
            stopping: AtomicBool::new(false),
            requests: AtomicU64::new(0),
            faults_injected: AtomicU64::new(0),
            log: Mutex::new(Vec::new()),
        });
        let accepting = shared.clone();
        let acceptor = std::thread::Builder::new()
            .name("local-http-accept".to_owned())
            .spawn(move || accept(&listener, &accepting))
            .expect("the accept thread starts");
        Server {
            address,
            shared,
            acceptor: Some(acceptor),
        }
    }

    /// The base URL, `http://127.0.0.1:PORT` (no trailing slash).
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Requests received so far, those answered with a fault included.
    pub fn requests(&self) -> u64 {
        self.shared.requests.load(Ordering::SeqCst)
    }

    /// Requests that got a fault.
    pub fn faults_injected(&self) -> u64 {
        self.shared.faults_injected.load(Ordering::SeqCst)
    }

    /// Every request received, as `"GET /works?…"`, in arrival order.
    pub fn request_log(&self) -> Vec<String> {
        lock(&self.shared.log).clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        // Wakes the accept loop, which then sees the flag; connection threads finish alone.
        let _ = TcpStream::connect(self.address);
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

impl ServedRequest {
    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The first query parameter of that name.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

impl Reply {
    /// A reply with any content type.
    pub fn new(status: u16, content_type: &str, body: Vec<u8>) -> Reply {
        Reply {
            status,
            content_type: content_type.to_owned(),
            body,
            headers: Vec::new(),
        }
    }

    /// A JSON reply.
    pub fn json(status: u16, body: &serde_json::Value) -> Reply {
        Reply::new(status, "application/json", body.to_string().into_bytes())
    }

    /// A plain-text reply.
    pub fn text(status: u16, body: &str) -> Reply {
        Reply::new(
            status,
            "text/plain; charset=utf-8",
            body.as_bytes().to_vec(),
        )
    }

    /// Adds a header.
    #[must_use]
    pub fn with_header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }
}

impl FaultPlan {
    /// No faults: every request gets the handler's answer.
    pub fn none() -> FaultPlan {
        FaultPlan {
            rate: 0.0,
            seed: 0,
            kinds: Vec::new(),
        }
    }

    /// Every kind of fault at `rate`: 429 with and without `Retry-After: 1`, 500, 503,
    /// 1 s slow answers, resets and truncated bodies.
    pub fn mixed(rate: f64, seed: u64) -> FaultPlan {
        FaultPlan {
            rate,
            seed,
            kinds: vec![
                Fault::TooManyRequests { retry_after: None },
                Fault::TooManyRequests {
                    retry_after: Some(1),
                },
                Fault::ServerError(500),
                Fault::ServerError(503),
                Fault::Slow(Duration::from_secs(1)),
                Fault::Reset,
                Fault::Truncated,
            ],
        }
    }

    /// Only the given faults, at `rate`.
    pub fn only(rate: f64, seed: u64, kinds: Vec<Fault>) -> FaultPlan {
        FaultPlan { rate, seed, kinds }
    }
}

impl Replay {
    /// An empty replay.
    pub fn new() -> Replay {
        Replay::default()
    }

    /// A replay of the recorded interactions in these files.
    ///
    /// # Errors
    /// When a file cannot be read or a line is not a recorded interaction.
    pub fn from_files(paths: &[&Path]) -> io::Result<Replay> {
        let mut replay = Replay::new();
        for path in paths {
            replay.load(path)?;
        }
        Ok(replay)
    }

    /// Adds the interactions of a `*.jsonl.gz` (or plain `*.jsonl`) file of
    /// `{"cassette","index","method","uri","request_body","status","content_type","body"}`
    /// lines; returns how many were added.
    ///
    /// # Errors
    /// When the file cannot be read or a line is not a recorded interaction; the message
    /// names the file and line.
    pub fn load(&mut self, path: &Path) -> io::Result<usize> {
        let file = std::fs::File::open(path).map_err(|error| {
            io::Error::new(error.kind(), format!("{}: {error}", path.display()))
        })?;
        let reader: Box<dyn BufRead> =
            if path.extension().is_some_and(|extension| extension == "gz") {
                Box::new(BufReader::new(GzDecoder::new(file)))
            } else {
                Box::new(BufReader::new(file))
            };
        let mut added = 0;
        for (line_idx, line) in reader.lines().enumerate() {
            let invalid = |message: String| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: line {}: {message}", path.display(), line_idx + 1),
                )
            };
            let line = line.map_err(|error| invalid(error.to_string()))?;
            if line.trim().is_empty() {
                continue;
            }
            let value: serde_json::Value =
                serde_json::from_str(&line).map_err(|error| invalid(error.to_string()))?;
            let text = |field: &str| value.get(field).and_then(serde_json::Value::as_str);
            let (Some(method), Some(uri), Some(body)) = (text("method"), text("uri"), text("body"))
            else {
                return Err(invalid("expected method, uri and body strings".to_owned()));
            };
            let status = value
                .get("status")
                .and_then(serde_json::Value::as_u64)
                .and_then(|status| u16::try_from(status).ok())
                .ok_or_else(|| invalid("expected a numeric status".to_owned()))?;
            self.push(
                method,
                uri,
                text("request_body").map(str::as_bytes),
                Reply::new(
                    status,
                    text("content_type").unwrap_or(""),
                    body.as_bytes().to_vec(),
                ),
            );
            added += 1;
        }
        Ok(added)
    }

    /// Registers one more recording (e.g. from arXiv's `{"url","status_code","body"}` files),
    /// matching any request body.
    pub fn add(&mut self, method: &str, uri: &str, status: u16, content_type: &str, body: &[u8]) {
        self.push(
            method,
            uri,
            None,
            Reply::new(status, content_type, body.to_vec()),
        );
    }

    /// Registers a recording of a request with a body (a POST batch lookup): it matches only
    /// requests with the same body (compared as JSON when both are JSON).
    pub fn add_with_request_body(
        &mut self,
        method: &str,
        uri: &str,
        request_body: &[u8],
        reply: Reply,
    ) {
        self.push(method, uri, Some(request_body), reply);
    }

    /// How many recordings there are.
    pub fn len(&self) -> usize {
        lock(&self.inner.recordings).len()
    }

    /// Whether there are no recordings.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Requests that matched no recording so far.
    pub fn unmatched(&self) -> u64 {
        lock(&self.inner.unmatched).len() as u64
    }

    /// The requests that matched no recording, as `"GET /path?query"`.
    pub fn unmatched_requests(&self) -> Vec<String> {
        lock(&self.inner.unmatched).clone()
    }

    /// The handler to give [`Server::start`]: recorded answers, and 404 for the unmatched.
    pub fn handler(&self) -> impl Fn(&ServedRequest) -> Reply + Send + Sync + 'static {
        let replay = self.clone();
        move |request| replay.answer(request)
    }

    /// The recorded answer to a request, or a 404 naming it.
    pub fn answer(&self, request: &ServedRequest) -> Reply {
        let query = comparable_query(request.query.clone());
        let recordings = lock(&self.inner.recordings);
        let candidates: Vec<usize> = recordings
            .iter()
            .enumerate()
            .filter(|(_, recording)| {
                recording.method.eq_ignore_ascii_case(&request.method)
                    && recording.path == request.path
                    && recording.query == query
                    && recording
                        .request_body
                        .as_deref()
                        .is_none_or(|body| same_body(body, &request.body))
            })
            .map(|(recording_idx, _)| recording_idx)
            .collect();
        let (Some(&first), Some(&last)) = (candidates.first(), candidates.last()) else {
            let described = format!("{} {}", request.method, request.raw_target);
            lock(&self.inner.unmatched).push(described.clone());
            return Reply::json(
                404,
                &serde_json::json!({
                    "error": "no recording matches this request",
                    "request": described,
                }),
            );
        };
        let mut served = lock(&self.inner.served);
        let times = served.entry(first).or_insert(0);
        let chosen = candidates.get(*times).copied().unwrap_or(last);
        *times += 1;
        recordings[chosen].reply.clone()
    }

    fn push(&mut self, method: &str, uri: &str, request_body: Option<&[u8]>, reply: Reply) {
        let target = target_of(uri);
        let (path, query) = split_target(target);
        lock(&self.inner.recordings).push(Recording {
            method: method.to_ascii_uppercase(),
            path,
            query: comparable_query(query),
            request_body: request_body
                .filter(|body| !body.is_empty())
                .map(<[u8]>::to_vec),
            reply,
        });
    }
}

fn accept(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else {
            continue;
        };
        let serving = shared.clone();
        // A connection whose thread cannot start is dropped: the client sees a reset.
        let _ = std::thread::Builder::new()
            .name("local-http-conn".to_owned())
            .spawn(move || serve(stream, &serving));
    }
}

fn serve(mut stream: TcpStream, shared: &Shared) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Some(request) = read_request(&stream) else {
        return;
    };
    shared.requests.fetch_add(1, Ordering::SeqCst);
    lock(&shared.log).push(format!("{} {}", request.method, request.raw_target));
    let fault = choose_fault(shared);
    if fault.is_some() {
        shared.faults_injected.fetch_add(1, Ordering::SeqCst);
    }
    match fault {
        None => write_reply(&mut stream, &(shared.handler)(&request), None),
        Some(Fault::TooManyRequests { retry_after }) => {
            let mut reply = Reply::json(
                429,
                &serde_json::json!({"error": "too many requests (injected fault)"}),
            );
            if let Some(seconds) = retry_after {
                reply = reply.with_header("Retry-After", &seconds.to_string());
            }
            write_reply(&mut stream, &reply, None);
        }
        Some(Fault::ServerError(status)) => write_reply(
            &mut stream,
            &Reply::json(
                status,
                &serde_json::json!({"error": "server error (injected fault)"}),
            ),
            None,
        ),
        Some(Fault::Slow(delay)) => {
            std::thread::sleep(delay);
            write_reply(&mut stream, &(shared.handler)(&request), None);
        }
        Some(Fault::Reset) => {
            // SO_LINGER 0 turns the close into a TCP reset, like a crashed proxy.
            let _ = socket2::SockRef::from(&stream).set_linger(Some(Duration::ZERO));
            drop(stream);
        }
        Some(Fault::Truncated) => {
            let reply = (shared.handler)(&request);
            let half = reply.body.len() / 2;
            write_reply(&mut stream, &reply, Some(half));
        }
    }
}

/// Draws whether this request gets a fault, and which; always two draws per request so the
/// sequence of decisions does not depend on the kinds.
fn choose_fault(shared: &Shared) -> Option<Fault> {
    let (draw, pick) = {
        let mut generator = lock(&shared.generator);
        (generator.next_f64(), generator.next_u64())
    };
    let kinds = &shared.faults.kinds;
    if kinds.is_empty() || draw >= shared.faults.rate {
        return None;
    }
    let kind_idx = usize::try_from(pick % kinds.len() as u64).unwrap_or(0);
    kinds.get(kind_idx).cloned()
}

/// Reads one request; `None` when the client closed early or sent garbage.
fn read_request(stream: &TcpStream) -> Option<ServedRequest> {
    let mut reader = BufReader::new(stream);
    let mut head_bytes = 0;
    let mut request_line = String::new();
    head_bytes += reader.read_line(&mut request_line).ok()?;
    let mut parts = request_line.split_whitespace();
    let method = parts.next()?.to_owned();
    let raw_target = parts.next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        let read = reader.read_line(&mut line).ok()?;
        head_bytes += read;
        if read == 0 || head_bytes > MAX_HEAD_BYTES {
            return None;
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let (path, query) = split_target(&raw_target);
    Some(ServedRequest {
        method,
        path,
        query,
        raw_target,
        headers,
        body,
    })
}

/// Writes a reply and closes; with `cut_at`, sends only that many body bytes after a
/// `Content-Length` announcing them all.
fn write_reply(stream: &mut TcpStream, reply: &Reply, cut_at: Option<usize>) {
    let mut head = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
    if !reply.content_type.is_empty() {
        head.push_str(&format!("Content-Type: {}\r\n", reply.content_type));
    }
    head.push_str(&format!("Content-Length: {}\r\n", reply.body.len()));
    head.push_str("Connection: close\r\n");
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let body = &reply.body[..cut_at.unwrap_or(reply.body.len()).min(reply.body.len())];
    // The client may have gone (a timed-out slow answer): write errors are expected.
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body))
        .and_then(|()| stream.flush());
    let _ = stream.shutdown(Shutdown::Both);
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}

/// The path and query of a URI (`https://host/a?b` → `/a?b`); a bare target passes through.
fn target_of(uri: &str) -> &str {
    let without_fragment = uri.split('#').next().unwrap_or(uri);
    match without_fragment.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |slash| &rest[slash..]),
        None => without_fragment,
    }
}

/// A request target split into its decoded path and decoded query parameters.
fn split_target(target: &str) -> (String, Vec<(String, String)>) {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let parameters = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(name, true), percent_decode(value, true))
        })
        .collect();
    (percent_decode(path, false), parameters)
}

/// The query as a comparable multiset: identity parameters removed, sorted.
fn comparable_query(mut query: Vec<(String, String)>) -> Vec<(String, String)> {
    query.retain(|(name, _)| !IDENTITY_PARAMS.contains(&name.as_str()));
    query.sort();
    query
}

fn percent_decode(text: &str, plus_is_space: bool) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut byte_idx = 0;
    while byte_idx < bytes.len() {
        let byte = bytes[byte_idx];
        let escaped = (byte == b'%')
            .then(|| bytes.get(byte_idx + 1..byte_idx + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(value) => {
                decoded.push(value);
                byte_idx += 3;
            }
            None => {
                decoded.push(if plus_is_space && byte == b'+' {
                    b' '
                } else {
                    byte
                });
                byte_idx += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

fn same_body(recorded: &[u8], sent: &[u8]) -> bool {
    if recorded == sent {
        return true;
    }
    match (
        serde_json::from_slice::<serde_json::Value>(recorded),
        serde_json::from_slice::<serde_json::Value>(sent),
    ) {
        (Ok(recorded), Ok(sent)) => recorded == sent,
        _ => false,
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(url: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
        let rest = url.strip_prefix("http://").unwrap();
        let (host, target) = rest.split_at(rest.find('/').unwrap());
        let mut stream = TcpStream::connect(host).unwrap();
        write!(stream, "GET {target} HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        let split = raw
            .windows(4)
            .position(|window| window == b"\r\n\r\n")
            .unwrap();
        let head = String::from_utf8(raw[..split].to_vec()).unwrap();
        let mut lines = head.lines();
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers = lines
            .map(|line| {
                let (name, value) = line.split_once(": ").unwrap();
                (name.to_ascii_lowercase(), value.to_owned())
            })
            .collect();
        (status, headers, raw[split + 4..].to_vec())
    }

    #[test]
    fn serves_the_handler_and_logs_requests() {
        let server = Server::start(
            |request| Reply::text(200, &format!("{} {:?}", request.path, request.query)),
            FaultPlan::none(),
        );
        let (status, _, body) = get(&format!("{}/a%20b?q=x+y&r=%C3%A9", server.url()));
        assert_eq!(status, 200);
        assert_eq!(
            String::from_utf8(body).unwrap(),
            r#"/a b [("q", "x y"), ("r", "é")]"#
        );
        assert_eq!(server.requests(), 1);
        assert_eq!(server.request_log(), vec!["GET /a%20b?q=x+y&r=%C3%A9"]);
    }

    #[test]
    fn injects_faults_deterministically() {
        let plan = FaultPlan::only(
            0.5,
            7,
            vec![
                Fault::TooManyRequests {
                    retry_after: Some(3),
                },
                Fault::Truncated,
            ],
        );
        let run = || {
            let server = Server::start(|_| Reply::text(200, "0123456789"), plan.clone());
            let outcomes: Vec<(u16, usize)> = (0..20)
                .map(|_| {
                    let (status, headers, body) = get(&format!("{}/x", server.url()));
                    if status == 429 {
                        assert!(headers.contains(&("retry-after".to_owned(), "3".to_owned())));
                    }
                    (status, body.len())
                })
                .collect();
            assert_eq!(server.requests(), 20);
            (outcomes, server.faults_injected())
        };
        let (first, faults) = run();
        assert_eq!(run().0, first, "same seed, same faults");
        assert!((3..=17).contains(&faults), "{faults} faults at rate 0.5");
        assert!(
            first.iter().any(|outcome| outcome.0 == 429),
            "a 429: {first:?}"
        );
        assert!(first.contains(&(200, 5)), "a truncated body: {first:?}");
        assert!(first.contains(&(200, 10)), "an untouched answer: {first:?}");
    }

    #[test]
    fn resets_close_without_answering() {
        let server = Server::start(
            |_| Reply::text(200, "never"),
            FaultPlan::only(1.0, 1, vec![Fault::Reset]),
        );
        let rest = server.url().strip_prefix("http://").unwrap().to_owned();
        let mut stream = TcpStream::connect(&rest).unwrap();
        write!(stream, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        assert!(raw.is_empty());
        assert_eq!(server.faults_injected(), 1);
    }

    #[test]
    fn replay_matches_query_multisets_and_serves_repeats_in_order() {
        let mut replay = Replay::new();
        replay.add(
            "GET",
            "https://api.example.org/works?filter=cites%3AW1&per_page=2&mailto=a%40b.org",
            200,
            "application/json",
            b"first",
        );
        replay.add(
            "GET",
            "https://api.example.org/works?per_page=2&filter=cites:W1",
            200,
            "application/json",
            b"second",
        );
        replay.add_with_request_body(
            "POST",
            "https://api.example.org/batch?fields=title",
            br#"{"ids": ["a", "b"]}"#,
            Reply::json(200, &serde_json::json!([1, 2])),
        );
        assert_eq!(replay.len(), 3);
        let server = Server::start(replay.handler(), FaultPlan::none());
        let url = format!(
            "{}/works?per_page=2&filter=cites%3AW1&api_key=secret",
            server.url()
        );
        assert_eq!(get(&url).2, b"first");
        assert_eq!(get(&url).2, b"second");
        assert_eq!(get(&url).2, b"second", "the last recording repeats");
        assert_eq!(replay.unmatched(), 0);

        let batch = |body: &str| ServedRequest {
            method: "POST".to_owned(),
            path: "/batch".to_owned(),
            query: vec![("fields".to_owned(), "title".to_owned())],
            raw_target: "/batch?fields=title".to_owned(),
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
        };
        assert_eq!(replay.answer(&batch(r#"{"ids":["a","b"]}"#)).body, b"[1,2]");
        assert_eq!(replay.answer(&batch(r#"{"ids":["b"]}"#)).status, 404);

        let (status, _, body) = get(&format!("{}/works?per_page=3", server.url()));
        assert_eq!(status, 404);
        assert!(
            String::from_utf8(body)
                .unwrap()
                .contains("GET /works?per_page=3")
        );
        assert_eq!(replay.unmatched(), 2);
        assert_eq!(
            replay.unmatched_requests(),
            vec!["POST /batch?fields=title", "GET /works?per_page=3"]
        );
    }

    #[test]
    fn targets_and_decoding() {
        assert_eq!(target_of("https://doi.org/10.1/x?y=1#z"), "/10.1/x?y=1");
        assert_eq!(target_of("https://doi.org"), "/");
        assert_eq!(target_of("/a?b"), "/a?b");
        assert_eq!(percent_decode("a%2Fb+c%zz%", true), "a/b c%zz%");
        assert_eq!(percent_decode("a+b", false), "a+b");
        assert_eq!(
            split_target("/p?a=1&b&=2&&c=%3D"),
            (
                "/p".to_owned(),
                vec![
                    ("a".to_owned(), "1".to_owned()),
                    ("b".to_owned(), String::new()),
                    (String::new(), "2".to_owned()),
                    ("c".to_owned(), "=".to_owned()),
                ]
            )
        );
    }
}
