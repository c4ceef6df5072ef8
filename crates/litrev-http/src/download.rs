//! Downloads of open-access full texts from URLs that records name: any host, so never one on
//! this machine or its network. Every address a download connects to — the URL's own, each
//! redirect's, and every address a name resolves to — must be public (not loopback, private,
//! link-local, shared, unspecified, multicast or documentation space); only `http` and `https`;
//! redirects bounded; bodies size-capped; the content type checked.

use std::io::Read;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// What downloads may do.
#[derive(Debug, Clone)]
pub struct DownloadLimits {
    /// Bodies larger than this are refused.
    pub max_bytes: u64,
    /// Redirects followed at most.
    pub max_redirects: usize,
    /// Limit for one download, connecting to the last byte.
    pub timeout: Duration,
    /// Whether loopback and private addresses may be reached: only for a local full-text
    /// server in tests and benchmarks, never from a run's options.
    pub allow_private: bool,
    /// Hosts (`name` or `name:port`) that may be reached whatever their address: an intranet's
    /// servers, or a test's loopback server (`LITREV_ALLOW_HOSTS`); a name without a port
    /// allows every port.
    pub allowed_hosts: Vec<String>,
    /// Retries after the first attempt, for answers worth retrying (429, 5xx, a connection
    /// or time-out failure).
    pub max_retries: u32,
    /// First wait before a retry, doubled each time (with jitter) up to `backoff_max`; a
    /// server's `Retry-After` is waited for, up to `backoff_max`.
    pub backoff_base: Duration,
    /// Longest wait between attempts.
    pub backoff_max: Duration,
    /// Downloads started per second from one host, at most (0: no limit).
    pub per_host_per_second: u32,
}

impl Default for DownloadLimits {
    fn default() -> Self {
        DownloadLimits {
            max_bytes: 50 << 20,
            max_redirects: 5,
            timeout: Duration::from_secs(60),
            allow_private: false,
            allowed_hosts: Vec::new(),
            max_retries: 3,
            backoff_base: Duration::from_millis(500),
            backoff_max: Duration::from_secs(10),
            per_host_per_second: 3,
        }
    }
}

/// What one attempt came to, when it did not give the body.
enum Miss {
    /// Worth another attempt, after at least this long (a `Retry-After`).
    Transient(DownloadError, Option<Duration>),
    /// Final.
    Final(DownloadError),
}

/// A downloaded body.
#[derive(Debug, Clone, PartialEq)]
pub struct Downloaded {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The `Content-Type`, when given.
    pub content_type: Option<String>,
    /// Where it came from after redirects.
    pub url: String,
}

/// Why a download did not happen or failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DownloadError {
    /// The URL (or a redirect, or an address its name resolves to) is not one a download may
    /// reach.
    Refused(String),
    /// The server or network failed.
    Failed(String),
}

impl std::fmt::Display for DownloadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DownloadError::Refused(why) => write!(f, "download refused: {why}"),
            DownloadError::Failed(why) => write!(f, "download failed: {why}"),
        }
    }
}

impl std::error::Error for DownloadError {}

/// Why the guard's redirect policy or resolver stopped a download, carried through reqwest's
/// error chain so [`Downloader::get`] can tell it from a network failure by type.
#[derive(Debug)]
enum Stop {
    /// A redirect or a resolved address the guard refuses.
    Refused(String),
    /// A host name that does not resolve: not retried, since it will not resolve a moment
    /// later.
    Unresolved(String),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Refused(why) | Stop::Unresolved(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for Stop {}

/// A client for full-text downloads, with the guard built in, retries of transient failures
/// and a rate limit per host.
#[derive(Clone)]
pub struct Downloader {
    http: reqwest::blocking::Client,
    guard: Arc<Guard>,
    limits: DownloadLimits,
    /// Per host, `None` when the limits ask for none.
    pacing: Option<Arc<HostLimiter>>,
}

type HostLimiter = governor::RateLimiter<
    String,
    governor::state::keyed::HashMapStateStore<String>,
    governor::clock::DefaultClock,
>;

impl Downloader {
    /// Builds the guarded client.
    ///
    /// # Errors
    /// When TLS or the client cannot be set up.
    pub fn new(limits: DownloadLimits, user_agent: &str) -> Result<Downloader, DownloadError> {
        let guard = Arc::new(Guard {
            allow_private: limits.allow_private,
            allowed_hosts: limits.allowed_hosts.clone(),
        });
        let redirect_guard = Arc::clone(&guard);
        let max_redirects = limits.max_redirects;
        let http = crate::blocking_client_builder()
            .user_agent(user_agent)
            .timeout(limits.timeout)
            .connect_timeout(limits.timeout)
            .dns_resolver(Arc::new(PublicResolver {
                guard: Arc::clone(&guard),
            }))
            .redirect(reqwest::redirect::Policy::custom(move |attempt| {
                if attempt.previous().len() > max_redirects {
                    return attempt.error(format!("more than {max_redirects} redirects"));
                }
                match redirect_guard.check(attempt.url()) {
                    Ok(()) => attempt.follow(),
                    Err(why) => attempt.error(Stop::Refused(why)),
                }
            }))
            .build()
            .map_err(|error| DownloadError::Failed(format!("no HTTP client: {error}")))?;
        let pacing = std::num::NonZeroU32::new(limits.per_host_per_second).map(|rate| {
            Arc::new(governor::RateLimiter::hashmap(
                governor::Quota::per_second(rate).allow_burst(rate),
            ))
        });
        Ok(Downloader {
            http,
            guard,
            limits,
            pacing,
        })
    }

    /// Downloads a URL whose content type is one of `accepted` (prefixes such as
    /// `application/pdf`, `application/xml`, `text/xml`), retrying what is worth retrying.
    ///
    /// # Errors
    /// [`DownloadError::Refused`] for a URL, redirect or resolved address the guard refuses, a
    /// body over the size cap or of another type; [`DownloadError::Failed`] for network and
    /// server failures, once the retries are spent.
    pub fn get(&self, url: &str, accepted: &[&str]) -> Result<Downloaded, DownloadError> {
        let backoff = retry_policies::policies::ExponentialBackoff::builder()
            .retry_bounds(
                self.limits.backoff_base.min(self.limits.backoff_max),
                self.limits.backoff_max,
            )
            .jitter(retry_policies::Jitter::Full)
            .base(2)
            .build_with_max_retries(self.limits.max_retries);
        let started = std::time::SystemTime::now();
        let mut retries = 0;
        loop {
            self.wait_for_host(url);
            let (error, retry_after) = match self.attempt(url, accepted) {
                Ok(body) => return Ok(body),
                Err(Miss::Final(error)) => return Err(error),
                Err(Miss::Transient(error, retry_after)) => (error, retry_after),
            };
            let retry_policies::RetryDecision::Retry { execute_after } =
                retry_policies::RetryPolicy::should_retry(&backoff, started, retries)
            else {
                return Err(error);
            };
            let backoff_wait = execute_after
                .duration_since(std::time::SystemTime::now())
                .unwrap_or_default();
            let wait = backoff_wait
                .max(retry_after.unwrap_or_default())
                .min(self.limits.backoff_max);
            std::thread::sleep(wait);
            retries += 1;
        }
    }

    /// Blocks until the URL's host may be asked again.
    fn wait_for_host(&self, url: &str) {
        let Some(limiter) = &self.pacing else {
            return;
        };
        let host = Url::parse(url)
            .ok()
            .and_then(|url| url.host_str().map(str::to_owned))
            .unwrap_or_default();
        while let Err(not_until) = limiter.check_key(&host) {
            use governor::clock::Clock;
            std::thread::sleep(not_until.wait_time_from(limiter.clock().now()));
        }
    }

    /// One attempt at a download.
    fn attempt(&self, url: &str, accepted: &[&str]) -> Result<Downloaded, Miss> {
        let refused = |why: String| Miss::Final(DownloadError::Refused(why));
        let parsed =
            Url::parse(url).map_err(|error| refused(format!("{url} is not a URL: {error}")))?;
        self.guard.check(&parsed).map_err(refused)?;
        let response = self.http.get(parsed).send().map_err(|error| {
            // A connection refused, reset or timed out may go through next time; a bad URL or
            // too many redirects will not.
            let transient = !(error.is_builder() || error.is_redirect());
            let mut message = error.to_string();
            let mut refusal = false;
            let mut unresolved = false;
            let mut source = std::error::Error::source(&error);
            while let Some(inner) = source {
                message = format!("{message}: {inner}");
                match inner.downcast_ref::<Stop>() {
                    Some(Stop::Refused(_)) => refusal = true,
                    Some(Stop::Unresolved(_)) => unresolved = true,
                    None => {}
                }
                source = inner.source();
            }
            if refusal {
                refused(message)
            } else if transient && !unresolved {
                Miss::Transient(DownloadError::Failed(message), None)
            } else {
                Miss::Final(DownloadError::Failed(message))
            }
        })?;
        let status = response.status();
        if !status.is_success() {
            let failed = DownloadError::Failed(format!("{url} answered {status}"));
            if status.as_u16() == 429 || status.is_server_error() {
                let retry_after = response
                    .headers()
                    .get(reqwest::header::RETRY_AFTER)
                    .and_then(|value| value.to_str().ok())
                    .and_then(|value| value.trim().parse::<u64>().ok())
                    .map(Duration::from_secs);
                return Err(Miss::Transient(failed, retry_after));
            }
            return Err(Miss::Final(failed));
        }
        let final_url = response.url().to_string();
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .map(|value| value.trim().to_ascii_lowercase());
        if let Some(kind) = &content_type
            && !accepted.iter().any(|wanted| kind.starts_with(wanted))
            && !kind.starts_with("application/octet-stream")
        {
            return Err(refused(format!(
                "{url} is {kind}, not a full text ({})",
                accepted.join(", ")
            )));
        }
        if let Some(length) = response.content_length()
            && length > self.limits.max_bytes
        {
            return Err(refused(format!(
                "{url} has {length} bytes, over the limit of {}",
                self.limits.max_bytes
            )));
        }
        let mut bytes = Vec::new();
        response
            .take(self.limits.max_bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|error| {
                Miss::Transient(DownloadError::Failed(format!("{url}: {error}")), None)
            })?;
        if bytes.len() as u64 > self.limits.max_bytes {
            return Err(refused(format!(
                "{url} is over the limit of {} bytes",
                self.limits.max_bytes
            )));
        }
        Ok(Downloaded {
            bytes,
            content_type,
            url: final_url,
        })
    }
}

/// What a download may reach: public addresses, and the hosts named as allowed.
#[derive(Debug)]
struct Guard {
    allow_private: bool,
    allowed_hosts: Vec<String>,
}

impl Guard {
    /// Refuses schemes other than http(s), and hosts that are addresses outside public space
    /// or name this machine, unless allowed.
    fn check(&self, url: &Url) -> Result<(), String> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!("{url}: only http and https may be downloaded"));
        }
        if self.allow_private || self.allows(url) {
            return Ok(());
        }
        check_public(url)
    }

    /// Whether the URL's host (with its port, when the allowed entry names one) is allowed.
    fn allows(&self, url: &Url) -> bool {
        let Some(host) = url.host_str() else {
            return false;
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let port = url.port_or_known_default();
        self.allowed_hosts.iter().any(|allowed| {
            let (name, wanted_port) = split_host_port(allowed);
            name.eq_ignore_ascii_case(host) && wanted_port.is_none_or(|wanted| Some(wanted) == port)
        })
    }

    /// Whether a name may resolve to any address (allowed by name, whatever the port).
    fn allows_name(&self, name: &str) -> bool {
        self.allow_private
            || self
                .allowed_hosts
                .iter()
                .any(|allowed| split_host_port(allowed).0.eq_ignore_ascii_case(name))
    }
}

/// `name:port` as the name and the port; a bare name (or an IPv6 address in brackets or not)
/// has none.
fn split_host_port(entry: &str) -> (&str, Option<u16>) {
    let entry = entry.trim();
    if let Some(rest) = entry.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((address, tail)) => (address, tail.strip_prefix(':').and_then(|p| p.parse().ok())),
            None => (rest, None),
        };
    }
    match entry.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') => match port.parse() {
            Ok(port) => (name, Some(port)),
            Err(_) => (entry, None),
        },
        _ => (entry, None),
    }
}

/// Refuses hosts that are addresses outside public space or name this machine.
fn check_public(url: &Url) -> Result<(), String> {
    match url.host() {
        None => Err(format!("{url} names no host")),
        Some(url::Host::Ipv4(ip)) if !is_public(IpAddr::V4(ip)) => {
            Err(format!("{url}: {ip} is not a public address"))
        }
        Some(url::Host::Ipv6(ip)) if !is_public(IpAddr::V6(ip)) => {
            Err(format!("{url}: {ip} is not a public address"))
        }
        Some(url::Host::Domain(name))
            if name.eq_ignore_ascii_case("localhost") || name.ends_with(".localhost") =>
        {
            Err(format!("{url}: {name} may not be downloaded from"))
        }
        Some(_) => Ok(()),
    }
}

/// Whether an address is on the public internet.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => {
            let [a, b, ..] = ip.octets();
            !(ip.is_loopback()
                || ip.is_private()
                || ip.is_link_local()
                || ip.is_unspecified()
                || ip.is_broadcast()
                || ip.is_multicast()
                || ip.is_documentation()
                || a == 0
                // Shared address space (carrier-grade NAT), 100.64.0.0/10.
                || (a == 100 && (64..128).contains(&b))
                // Benchmarking, 198.18.0.0/15; reserved, 240.0.0.0/4.
                || (a == 198 && (18..20).contains(&b))
                || a >= 240)
        }
        IpAddr::V6(ip) => {
            if let Some(mapped) = ip.to_ipv4_mapped() {
                return is_public(IpAddr::V4(mapped));
            }
            let first = ip.segments()[0];
            !(ip.is_loopback()
                || ip.is_unspecified()
                || ip.is_multicast()
                // Unique local fc00::/7 and link-local fe80::/10.
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                // Documentation, 2001:db8::/32.
                || (first == 0x2001 && ip.segments()[1] == 0x0db8))
        }
    }
}

/// Resolves names with the system resolver and refuses any answer holding a non-public
/// address, so a name cannot lead a download onto this machine's network.
struct PublicResolver {
    guard: Arc<Guard>,
}

impl Resolve for PublicResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        let allow_private = self.guard.allows_name(&host);
        Box::pin(async move {
            let addresses: Vec<SocketAddr> = (host.as_str(), 0)
                .to_socket_addrs()
                .map_err(|error| -> Box<dyn std::error::Error + Send + Sync> {
                    Box::new(Stop::Unresolved(format!("cannot resolve {host}: {error}")))
                })?
                .collect();
            if !allow_private
                && let Some(private) = addresses.iter().find(|address| !is_public(address.ip()))
            {
                let why = format!("{host} resolves to {}, not a public address", private.ip());
                return Err(
                    Box::new(Stop::Refused(why)) as Box<dyn std::error::Error + Send + Sync>
                );
            }
            let addresses: Addrs = Box::new(addresses.into_iter());
            Ok(addresses)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "224.0.0.1",
            "255.255.255.255",
        ] {
            let ip: IpAddr = private.parse().expect("an address");
            assert!(!is_public(ip), "{private}");
        }
        for public in ["8.8.8.8", "151.101.1.69", "2606:4700::1111"] {
            let ip: IpAddr = public.parse().expect("an address");
            assert!(is_public(ip), "{public}");
        }
    }

    /// Resolves a name with the guard's resolver (its future never waits: the lookup is done
    /// inside it), saying whether the answer was refused as not public.
    fn resolved_as_refused(host: &str, guard: Guard) -> Option<bool> {
        use std::str::FromStr;
        let resolver = PublicResolver {
            guard: Arc::new(guard),
        };
        let name = Name::from_str(host).ok()?;
        let mut resolving = resolver.resolve(name);
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match resolving.as_mut().poll(&mut context) {
            std::task::Poll::Ready(Ok(_)) => Some(false),
            std::task::Poll::Ready(Err(error)) => Some(matches!(
                error.downcast_ref::<Stop>(),
                Some(Stop::Refused(_))
            )),
            std::task::Poll::Pending => None,
        }
    }

    #[test]
    fn a_name_resolving_to_this_machine_is_refused() {
        // `localhost` is in every /etc/hosts; the URL check refuses it by name too, so this is
        // the resolver's own guard, which catches names the URL check cannot know.
        let guard = |allow_private: bool, allowed: &[&str]| Guard {
            allow_private,
            allowed_hosts: allowed.iter().map(|host| (*host).to_owned()).collect(),
        };
        assert_eq!(
            resolved_as_refused("localhost", guard(false, &[])),
            Some(true)
        );
        assert_eq!(
            resolved_as_refused("localhost", guard(true, &[])),
            Some(false)
        );
        assert_eq!(
            resolved_as_refused("localhost", guard(false, &["LOCALHOST:8080"])),
            Some(false),
            "a name allowed on any port resolves"
        );
        assert_eq!(
            resolved_as_refused("localhost", guard(false, &["intranet.example"])),
            Some(true)
        );
    }

    #[test]
    fn only_the_allowed_hosts_and_ports_pass_the_guard() {
        let guard = Guard {
            allow_private: false,
            allowed_hosts: vec![
                "127.0.0.1:8080".into(),
                "intranet".into(),
                "[::1]:99".into(),
            ],
        };
        let check = |url: &str| guard.check(&Url::parse(url).expect("a URL")).is_ok();
        assert!(check("http://127.0.0.1:8080/page"));
        assert!(!check("http://127.0.0.1:8081/page"), "another port");
        assert!(!check("http://10.0.0.1:8080/page"));
        assert!(check("https://intranet/wiki"));
        assert!(check("http://[::1]:99/x"));
        assert!(!check("http://[::1]:98/x"));
        assert!(!check("file:///etc/passwd"), "schemes stay refused");
        assert_eq!(
            split_host_port("example.org:443"),
            ("example.org", Some(443))
        );
        assert_eq!(split_host_port("example.org"), ("example.org", None));
        assert_eq!(split_host_port("::1"), ("::1", None));
    }

    #[test]
    fn downloads_to_this_machine_or_its_network_are_refused() {
        let downloader =
            Downloader::new(DownloadLimits::default(), "litrev-test").expect("a client");
        for url in [
            "http://127.0.0.1:9/paper.pdf",
            "http://10.0.0.7/paper.pdf",
            "http://169.254.169.254/latest/meta-data/",
            "http://[::1]:9/paper.pdf",
            "http://localhost:9/paper.pdf",
            "file:///etc/passwd",
            "ftp://example.org/paper.pdf",
            "http://0x7f000001/paper.pdf",
        ] {
            match downloader.get(url, &["application/pdf"]) {
                Err(DownloadError::Refused(why)) => assert!(!why.is_empty()),
                other => panic!("{url} was not refused: {other:?}"),
            }
        }
    }
}
