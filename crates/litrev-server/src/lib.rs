//! `litrev serve`: the review as a web app. A REST and Server-Sent Events API over the engine's
//! store (the one the CLI uses, so runs started either way show in both) and a web UI served
//! from assets compiled into the binary.
//!
//! The engine is blocking; runs go to a bounded pool of worker threads ([`queue`]), N at once,
//! the rest waiting in line with their position shown. Each event a run emits is stored
//! ([`litrev::EventLog`]) and announced to the SSE streams, so a client that reconnects with
//! `Last-Event-ID` gets exactly what it missed. MCP (streamable HTTP) answers at `/mcp`, behind
//! the same token, its runs in the same line.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use litrev::Home;

mod api;
mod auth;
pub mod bench;
mod error;
mod openapi;
mod queue;
mod stream;
mod ui;

pub use error::{Error, Result};

/// How to serve.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Where to listen (port 0: any free port).
    pub addr: SocketAddr,
    /// The token every `/api` request must carry; required off loopback.
    pub token: Option<String>,
    /// Runs driven at once; more wait in a queue.
    pub workers: usize,
    /// The store file (default: the one in the home folder).
    pub db: Option<PathBuf>,
    /// Sources the MCP tools at `/mcp` search when a call names none.
    pub sources: Vec<litrev::SourceSpec>,
}

/// What the handlers share.
pub(crate) struct AppState {
    pub(crate) home: Home,
    pub(crate) db: Option<PathBuf>,
    pub(crate) token: Option<String>,
    pub(crate) queue: queue::Queue,
    /// Bumped after every stored event: SSE streams wake on it instead of polling.
    pub(crate) stored: tokio::sync::watch::Sender<u64>,
}

/// Checks the options, binds, calls `listening` with the address bound, and serves until the
/// process ends.
///
/// # Errors
/// When a non-loopback address has no token, the address cannot be bound, or the store cannot
/// be opened.
pub fn serve(home: Home, options: ServeOptions, listening: impl FnOnce(SocketAddr)) -> Result<()> {
    if !options.addr.ip().is_loopback() && options.token.is_none() {
        return Err(Error::TokenRequired(options.addr));
    }
    // Open the store once up front, so a bad path fails now rather than on the first request.
    litrev::EventLog::open(&home, options.db.as_deref())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.addr)
            .await
            .map_err(|source| Error::Bind {
                addr: options.addr,
                source,
            })?;
        let bound = listener.local_addr().map_err(|source| Error::Bind {
            addr: options.addr,
            source,
        })?;
        let (stored, _) = tokio::sync::watch::channel(0);
        let state = Arc::new(AppState {
            queue: queue::Queue::start(
                home.clone(),
                options.db.clone(),
                options.workers.max(1),
                stored.clone(),
            ),
            home,
            db: options.db,
            token: options.token,
            stored,
        });
        let mcp = litrev_mcp::http_service(
            state.home.clone(),
            state.db.clone(),
            options.sources,
            Arc::new(state.queue.clone()),
            state.token.is_some(),
        );
        let mcp = axum::Router::new().nest_service("/mcp", mcp).layer(
            axum::middleware::from_fn_with_state(state.clone(), auth::require_token),
        );
        let app = api::router(state.clone())
            .merge(mcp)
            .merge(ui::router())
            .layer(axum::middleware::from_fn(ui::security_headers));
        listening(bound);
        axum::serve(listener, app)
            .await
            .map_err(|source| Error::Bind {
                addr: bound,
                source,
            })
    })
}
