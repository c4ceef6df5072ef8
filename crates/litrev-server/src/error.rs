//! What can go wrong serving, and how an API error becomes a response.

use std::net::SocketAddr;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A non-loopback address without a token.
    #[error(
        "refusing to listen on {0} without a token: anyone who can reach it could run reviews and read them. Pass --token TOKEN (or set LITREV_TOKEN), or listen on 127.0.0.1"
    )]
    TokenRequired(SocketAddr),
    /// The address could not be bound or served.
    #[error(
        "cannot serve on {addr}: {source}; is another server using the port? Try another --addr"
    )]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The async runtime could not start.
    #[error("cannot start the server's runtime: {0}")]
    Runtime(std::io::Error),
    /// `litrev bench serve` could not measure.
    #[error("litrev bench serve: {0}")]
    Bench(String),
    /// The engine failed (opening the store).
    #[error(transparent)]
    Engine(#[from] litrev::Error),
}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// An API error: a status and a message that says what to do.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
    /// What the edit of a review breaks, sentence by sentence (`422`).
    pub(crate) problems: Vec<litrev::EditProblem>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            problems: Vec::new(),
        }
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }
}

impl From<litrev::Error> for ApiError {
    fn from(error: litrev::Error) -> ApiError {
        if let litrev::Error::EditRefused(problems) = &error {
            return ApiError {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                message: error.to_string(),
                problems: problems.clone(),
            };
        }
        let status = match &error {
            litrev::Error::Store(litrev_store_error) if is_unknown_run(litrev_store_error) => {
                StatusCode::NOT_FOUND
            }
            litrev::Error::NotAtGate { .. }
            | litrev::Error::NotDone { .. }
            | litrev::Error::NotAwaitingAnswers { .. } => StatusCode::CONFLICT,
            litrev::Error::UnknownWork { .. } | litrev::Error::NoSuchOutput { .. } => {
                StatusCode::NOT_FOUND
            }
            // Options a run cannot use, though the CLI counts them as the run's failure.
            litrev::Error::BadOptions(_) => StatusCode::BAD_REQUEST,
            // The server's own store failing is no fault of the request.
            litrev::Error::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
            // Whatever the CLI calls bad input (an empty question, answers or a style that
            // cannot be used, a snapshot that is not there…) is the request's to mend.
            other if other.code() == litrev::ErrorCode::Usage => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, error.to_string())
    }
}

/// Whether a store error says the run does not exist.
pub(crate) fn is_unknown_run(error: &impl std::fmt::Display) -> bool {
    error.to_string().contains("no run")
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(error: tokio::task::JoinError) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the request's work stopped: {error}"),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = if self.problems.is_empty() {
            serde_json::json!({ "error": self.message })
        } else {
            serde_json::json!({ "error": self.message, "problems": self.problems })
        };
        (self.status, Json(body)).into_response()
    }
}
