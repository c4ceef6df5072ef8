//! `GET /api/runs/{id}/events`: a run's stored events as Server-Sent Events, from the one after
//! `Last-Event-ID` (or the start), then each new one as it is stored, until the run is done or
//! failed. A heartbeat comment every 15 s keeps proxies from closing a quiet stream.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::Stream;
use litrev::model::RunId;
use litrev::{EventLog, StoredEvent};

use crate::AppState;
use crate::error::ApiError;

/// Events read from the store at once.
const BATCH: usize = 500;

/// How long a stream waits for news before looking at the store anyway (events written by
/// another process, such as a CLI run on the same store, announce nothing).
const LOOK_AGAIN: Duration = Duration::from_secs(1);

/// Kinds after which a run's stream ends.
const FINAL: [&str; 2] = ["done", "failed"];

pub(crate) async fn events(
    State(state): State<Arc<AppState>>,
    Path(run): Path<String>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let run: RunId = run
        .parse()
        .map_err(|_| ApiError::not_found(format!("no run `{run}`")))?;
    let after: i64 = headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(0);
    let log = {
        let state = state.clone();
        let run = run.clone();
        tokio::task::spawn_blocking(move || -> Result<EventLog, ApiError> {
            let runner = litrev::Runner::open(state.home.clone(), state.db.as_deref())?;
            runner.options(&run)?;
            Ok(EventLog::open(&state.home, state.db.as_deref())?)
        })
        .await??
    };
    let log = Arc::new(std::sync::Mutex::new(log));
    let news = state.stored.subscribe();
    let stream = futures_util::stream::unfold(
        (after, Vec::<StoredEvent>::new(), news, false),
        move |(mut cursor, mut pending, mut news, mut ended)| {
            let log = log.clone();
            let run = run.clone();
            async move {
                loop {
                    if let Some(event) = (!pending.is_empty()).then(|| pending.remove(0)) {
                        cursor = event.id;
                        ended = FINAL.contains(&event.kind.as_str());
                        let sse = SseEvent::default()
                            .id(event.id.to_string())
                            .event(event.kind)
                            .data(event.data);
                        return Some((Ok(sse), (cursor, pending, news, ended)));
                    }
                    if ended {
                        return None;
                    }
                    let log = log.clone();
                    let run = run.clone();
                    let read = tokio::task::spawn_blocking(move || {
                        log.lock()
                            .map_err(|_| ())
                            .and_then(|log| log.after(&run, cursor, BATCH).map_err(|_| ()))
                    })
                    .await;
                    match read {
                        Ok(Ok(batch)) if !batch.is_empty() => pending = batch,
                        Ok(Ok(_)) => {
                            // Nothing new: wait for news of a stored event, or look again soon.
                            let _ = tokio::time::timeout(LOOK_AGAIN, news.changed()).await;
                        }
                        // The store failed: end the stream; the client reconnects from its
                        // last id.
                        _ => return None,
                    }
                }
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(
        KeepAlive::new()
            .interval(Duration::from_secs(15))
            .text("heartbeat"),
    ))
}
