//! The web UI: three pages and their script and style, compiled into the binary. The pages
//! hold no data; the script fills them from the API and puts every title, abstract, author and
//! venue in as text (`textContent`), never as markup, so a record cannot run code in the page.

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

const INDEX: &str = include_str!("../assets/index.html");
const RUN: &str = include_str!("../assets/run.html");
const SCREENING: &str = include_str!("../assets/screening.html");
const SCRIPT: &str = include_str!("../assets/app.js");
const STYLE: &str = include_str!("../assets/app.css");

/// The pages and assets.
pub(crate) fn router() -> Router {
    Router::new()
        .route("/", get(|| async { page(INDEX) }))
        .route("/runs/{id}", get(|| async { page(RUN) }))
        .route("/runs/{id}/screening", get(|| async { page(SCREENING) }))
        .route(
            "/assets/app.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    SCRIPT,
                )
            }),
        )
        .route(
            "/assets/app.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }),
        )
}

fn page(html: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

/// Headers on every response: a Content-Security-Policy that allows only the app's own script
/// and style (a response that sets its own keeps it), no sniffing, no framing by other sites.
pub(crate) async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
             frame-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'self'",
        ));
    headers
        .entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    headers
        .entry(header::REFERRER_POLICY)
        .or_insert(HeaderValue::from_static("no-referrer"));
    response
}
