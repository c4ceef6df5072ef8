//! The one trait every model is used through, and the parallel default for bulk calls.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::{LlmRequest, LlmResponse, Result};

/// Most calls one `complete_all` has in flight at once by default: LLM calls wait on the
/// network, not on this machine, but providers limit concurrent requests per key.
pub const DEFAULT_PARALLEL_CALLS: usize = 4;

/// A model behind an API: the extension point for OpenAI-compatible servers, Anthropic, and
/// the cache-and-budget wrapper [`crate::Metered`].
///
/// Synchronous like the rest of the engine; bulk calls run on scoped threads (or, for
/// Anthropic, as one Message Batch).
pub trait LlmProvider: Send + Sync {
    /// A stable id naming the API and where it is (`openai-compatible https://api.openai.com/v1`):
    /// part of the response cache key, so two servers never share answers.
    fn id(&self) -> String;

    /// Sends one request and waits for the answer.
    ///
    /// # Errors
    /// When the API refuses or fails after the HTTP layer's retries, or answers in a format
    /// it does not document.
    fn complete(&self, request: &LlmRequest) -> Result<LlmResponse>;

    /// Sends several independent requests; answers come back in request order.
    ///
    /// The default runs up to [`DEFAULT_PARALLEL_CALLS`] at once on scoped threads; providers
    /// with a bulk API override it.
    fn complete_all(&self, requests: &[LlmRequest]) -> Vec<Result<LlmResponse>> {
        in_parallel(requests, DEFAULT_PARALLEL_CALLS, |request| {
            self.complete(request)
        })
    }
}

/// Runs `call` on every request with at most `workers` threads, answers in request order.
pub fn in_parallel<F>(requests: &[LlmRequest], workers: usize, call: F) -> Vec<Result<LlmResponse>>
where
    F: Fn(&LlmRequest) -> Result<LlmResponse> + Sync,
{
    if requests.len() <= 1 {
        return requests.iter().map(&call).collect();
    }
    let next = AtomicUsize::new(0);
    let answers: Mutex<Vec<Option<Result<LlmResponse>>>> =
        Mutex::new((0..requests.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, requests.len()) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(request) = requests.get(index) else {
                        break;
                    };
                    let answer = call(request);
                    answers
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)[index] = Some(answer);
                }
            });
        }
    });
    answers
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .map(|answer| {
            answer.unwrap_or_else(|| {
                Err(crate::Error::Batch {
                    provider: "parallel".to_owned(),
                    batch: String::new(),
                    message: "a worker thread stopped before answering; this is a bug in litrev"
                        .to_owned(),
                })
            })
        })
        .collect()
}
