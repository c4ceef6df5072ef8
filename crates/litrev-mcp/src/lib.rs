//! `litrev mcp`: the engine as Model Context Protocol tools for AI agents, on the official SDK
//! (`rmcp`). Tools search the sources, follow citations, find related works, run a review
//! with its human gate and quote its evidence; the runs' outputs are resources. Over stdio
//! ([`serve_stdio`]) runs go on threads of this process; inside `litrev serve` ([`http_service`])
//! they go to the server's queue, behind its token.
//!
//! Nothing here writes to stdout but the protocol: the caller logs to stderr.

use std::path::PathBuf;
use std::sync::Arc;

use litrev::{Home, SourceSpec};
use rmcp::model::{
    Implementation, ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool_handler};

mod launcher;
mod present;
mod resources;
mod tools;

pub use launcher::{Launch, Launcher, ThreadLauncher};
pub use tools::Litrev;

/// Why serving stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The async runtime could not start.
    #[error("cannot start litrev mcp's runtime: {0}")]
    Runtime(std::io::Error),
    /// The client's first messages did not make an MCP session.
    #[error(
        "the MCP client did not start a session: {0}; start litrev mcp from an MCP client (Claude Desktop, Claude Code, an SDK)"
    )]
    Initialize(String),
    /// The session broke off.
    #[error("the MCP session ended with an error: {0}")]
    Session(String),
}

const INSTRUCTIONS: &str = "litrev: literature search and cited reviews. search_works, get_work, citation_search and related_works explore the literature (every work has an id get_work resolves). start_review runs a whole review; review_status follows it; at the screening gate label_works and approve; get_review, get_evidence and export_bibliography read a done run. Every [@key] of a review is in its bibliography and every claim's evidence is a verbatim sentence of the cited work.";

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Litrev {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("litrev", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let listed = self.blocking(|runner| resources::list(runner)).await;
        listed
            .map(ListResourcesResult::with_all_items)
            .map_err(|message| ErrorData::internal_error(message, None))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.clone();
        let read = self
            .blocking(move |runner| resources::read(runner, &uri))
            .await;
        match read {
            Ok(contents) => Ok(ReadResourceResult::new(vec![contents]).into()),
            Err(message) => Err(ErrorData::resource_not_found(message, None)),
        }
    }
}

/// Serves MCP on stdin and stdout until the client closes them.
///
/// # Errors
/// When the runtime cannot start or the session breaks off.
pub fn serve_stdio(home: Home, db: Option<PathBuf>, sources: Vec<SourceSpec>) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    runtime.block_on(async move {
        let launcher = Arc::new(ThreadLauncher::new(home.clone(), db.clone()));
        let server = Litrev::new(home, db, sources, launcher);
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|error| Error::Initialize(error.to_string()))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|error| Error::Session(error.to_string()))
    })
}

/// The streamable HTTP service `litrev serve` mounts at `/mcp`: one [`Litrev`] per session,
/// runs driven by `launcher`. `any_host` lifts the DNS-rebinding check of the `Host` header
/// (for a server bound off loopback, where the token guards instead).
pub fn http_service(
    home: Home,
    db: Option<PathBuf>,
    sources: Vec<SourceSpec>,
    launcher: Arc<dyn Launcher>,
    any_host: bool,
) -> rmcp::transport::streamable_http_server::StreamableHttpService<
    Litrev,
    rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
> {
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let mut config = StreamableHttpServerConfig::default();
    if any_host {
        config = config.disable_allowed_hosts();
    }
    let server = Litrev::new(home, db, sources, launcher);
    StreamableHttpService::new(move || Ok(server.clone()), Arc::default(), config)
}
