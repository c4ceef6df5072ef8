//! Full-text downloads through the guarded `Downloader`: transient failures (429, 5xx, resets,
//! truncated bodies) are retried until the copy arrives whole; final answers (404) are not; one
//! host is asked at most `per_host_per_second` times a second.

use std::time::{Duration, Instant};

use litrev_http::{DownloadError, DownloadLimits, Downloader};
use litrev_testkit::http::{Fault, FaultPlan, Reply, Server};

const PDF: &[u8] = b"%PDF-1.4\n% a stand-in body, long enough to be truncated on the way\n%%EOF\n";

/// A downloader that may reach the loopback server, with millisecond backoffs.
fn downloader(per_host_per_second: u32) -> Downloader {
    Downloader::new(
        DownloadLimits {
            allow_private: true,
            max_retries: 8,
            backoff_base: Duration::from_millis(1),
            backoff_max: Duration::from_millis(20),
            per_host_per_second,
            timeout: Duration::from_secs(5),
            ..DownloadLimits::default()
        },
        "litrev-test",
    )
    .expect("a downloader")
}

fn pdf_server(faults: FaultPlan) -> Server {
    Server::start(
        |request| {
            if request.path.ends_with("missing.pdf") {
                Reply::text(404, "no such file")
            } else {
                Reply::new(200, "application/pdf", PDF.to_vec())
            }
        },
        faults,
    )
}

#[test]
fn transient_failures_are_retried_until_the_copy_arrives_whole() {
    let server = pdf_server(FaultPlan::only(
        0.5,
        7,
        vec![
            Fault::ServerError(503),
            Fault::TooManyRequests { retry_after: None },
            Fault::Reset,
            Fault::Truncated,
        ],
    ));
    let downloads = downloader(0);
    for n in 0..12 {
        let body = downloads
            .get(
                &format!("{}/files/{n}.pdf", server.url()),
                &["application/pdf"],
            )
            .unwrap_or_else(|error| panic!("copy {n}: {error}"));
        assert_eq!(body.bytes, PDF, "copy {n} arrives whole");
    }
    assert!(
        server.requests() > 12,
        "{} requests: no fault was injected",
        server.requests()
    );
}

#[test]
fn a_missing_copy_is_asked_for_once() {
    let server = pdf_server(FaultPlan::none());
    let error = downloader(0)
        .get(
            &format!("{}/files/missing.pdf", server.url()),
            &["application/pdf"],
        )
        .expect_err("missing");
    assert!(
        matches!(error, DownloadError::Failed(ref why) if why.contains("404")),
        "{error}"
    );
    assert_eq!(server.requests(), 1);
}

#[test]
fn one_host_is_asked_at_its_pace() {
    let server = pdf_server(FaultPlan::none());
    let downloads = downloader(5);
    let started = Instant::now();
    for n in 0..10 {
        downloads
            .get(
                &format!("{}/files/{n}.pdf", server.url()),
                &["application/pdf"],
            )
            .expect("downloads");
    }
    // A burst of five, then five more at five a second: about a second.
    assert!(
        started.elapsed() >= Duration::from_millis(800),
        "{:?}",
        started.elapsed()
    );
}
