//! The REST API under `/api`: start runs, list and read them, follow their events, screen at
//! the gate, approve, and fetch their output files. Every body is JSON; every error is
//! `{"error": "…"}` with a message that says what to do.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post, put};
use axum::{Json, Router};
use litrev::Runner;
use litrev::model::{Decision, Label, RunId, RunStatus, WorkId};
use serde::Deserialize;

use crate::AppState;
use crate::error::ApiError;
use crate::queue::Job;

/// The API's routes, behind the token check: the table [`endpoints`] documents.
pub(crate) fn router(state: Arc<AppState>) -> Router {
    let mut router = Router::new();
    for (endpoint, handler) in endpoints() {
        router = router.route(endpoint.path, handler);
    }
    router
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::auth::require_token,
        ))
        .with_state(state)
}

/// Every endpoint with its handler: the router and the OpenAPI document are made from this one
/// table, so the document cannot miss a route.
pub(crate) fn endpoints() -> Vec<(crate::openapi::Endpoint, MethodRouter<Arc<AppState>>)> {
    use crate::openapi::Endpoint as E;
    vec![
        (E::SESSION, post(crate::auth::sign_in)),
        (E::CREATE_RUN, post(create_run)),
        (E::LIST_RUNS, get(list_runs)),
        (E::SHOW_RUN, get(show_run)),
        (E::EVENTS, get(crate::stream::events)),
        (E::SCREENING, get(screening)),
        (E::LABELS, post(labels)),
        (E::CLARIFY, post(clarify)),
        (E::APPROVE, post(approve)),
        (E::RESUME, post(resume)),
        (E::FILE, get(file)),
        (E::REVIEW, get(review)),
        (E::EDIT_REVIEW, put(edit_review)),
        (E::CONTINUE, post(continue_run)),
        (E::OPENAPI, get(crate::openapi::document)),
    ]
}

/// Runs blocking engine work off the async threads, with its own runner on the store.
async fn with_runner<T: Send + 'static>(
    state: &Arc<AppState>,
    work: impl FnOnce(&mut Runner) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let state = state.clone();
    tokio::task::spawn_blocking(move || {
        let mut runner = Runner::open(state.home.clone(), state.db.as_deref())?;
        work(&mut runner)
    })
    .await?
}

fn run_id(text: &str) -> Result<RunId, ApiError> {
    text.parse()
        .map_err(|_| ApiError::not_found(format!("no run `{text}`: GET /api/runs lists the runs")))
}

/// `POST /api/runs`: creates the run and puts it in line; `201 {"id": …}`.
async fn create_run(
    State(state): State<Arc<AppState>>,
    body: Result<Json<litrev::ReviewRequest>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(body) = body.map_err(|rejection| {
        ApiError::bad_request(format!(
            "the body is not a run's options: {rejection}; send JSON with at least \"question\""
        ))
    })?;
    let out = state.home.review_folder(&body.question);
    let options = body.options(out)?;
    let run = with_runner(&state, move |runner| Ok(runner.create(&options)?)).await?;
    state.queue.push(Job::Start(run.clone()));
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, format!("/api/runs/{run}"))],
        Json(serde_json::json!({ "id": run.to_string() })),
    )
        .into_response())
}

/// A run as the API shows it; with `detail` (one run asked for), also the plan it follows,
/// which the list of every run leaves out.
fn run_json(
    state: &AppState,
    runner: &Runner,
    run: &RunId,
    detail: bool,
) -> Result<serde_json::Value, ApiError> {
    let summary = runner.run_summary(run)?;
    let status = match summary.status {
        RunStatus::Queued => "queued",
        RunStatus::Running if !state.queue.busy(run) => "stopped",
        RunStatus::Running => "running",
        RunStatus::AwaitingApproval => "waiting",
        RunStatus::NeedsClarification if state.queue.busy(run) => "running",
        RunStatus::NeedsClarification => "needs_clarification",
        RunStatus::Done => "done",
        RunStatus::Failed => "failed",
    };
    let telemetry = runner.telemetry(run)?;
    let clarifications = if status == "needs_clarification" {
        litrev::clarifications_json(&runner.clarifications(run)?)
    } else {
        serde_json::json!([])
    };
    let plan = if detail { runner.plan_of(run)? } else { None };
    Ok(serde_json::json!({
        "plan": plan,
        "clarifications": clarifications,
        "id": summary.id.to_string(),
        "question": summary.question,
        "status": status,
        "step": summary.last_step,
        "gate": summary.gate(),
        "queue_position": state.queue.position(run),
        "created_at": summary.created_at,
        "cost": {
            "requests": telemetry.requests,
            "cache_hits": telemetry.cache_hits,
            "usd": telemetry.cost_usd,
            "wall_seconds": telemetry.wall_seconds,
        },
        "telemetry": telemetry,
        "parent": summary.parent.as_ref().map(ToString::to_string),
    }))
}

/// `GET /api/runs`: every run, newest first.
async fn list_runs(
    State(state): State<Arc<AppState>>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let shared = state.clone();
    let runs = with_runner(&state, move |runner| {
        runner
            .runs()?
            .iter()
            .map(|summary| run_json(&shared, runner, &summary.id, false))
            .collect::<Result<Vec<_>, _>>()
    })
    .await?;
    Ok(Json(serde_json::Value::Array(runs)))
}

/// `GET /api/runs/{id}`.
async fn show_run(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let run = run_id(&id)?;
    let shared = state.clone();
    Ok(Json(
        with_runner(&state, move |runner| run_json(&shared, runner, &run, true)).await?,
    ))
}

/// `GET /api/runs/{id}/screening`: the candidates in ranking order with the decision in force.
async fn screening(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let run = run_id(&id)?;
    let rows = with_runner(&state, move |runner| Ok(runner.screening_rows(&run)?)).await?;
    let rows: Vec<serde_json::Value> = rows
        .iter()
        .enumerate()
        .map(|(rank, (work, decision))| {
            serde_json::json!({
                "id": decision.work.to_string(),
                "doi": work.ids.doi.as_ref().map(ToString::to_string),
                "rank": rank + 1,
                "title": work.title,
                "year": work.year,
                "venue": work.venue,
                "authors": work.authors.iter().map(|author| author.name.clone()).collect::<Vec<_>>(),
                "abstract": work.abstract_text,
                "score": decision.score,
                "decision": if decision.decision == Decision::Include { "include" } else { "exclude" },
                "reason": decision.reason,
                "rationale": decision.rationale,
                "reviewer": decision.reviewer,
            })
        })
        .collect();
    Ok(Json(serde_json::Value::Array(rows)))
}

/// One label of `POST /api/runs/{id}/labels`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LabelBody {
    id: String,
    label: String,
}

/// `POST /api/runs/{id}/labels`: a person's decisions, saved at once, in force over the model's.
async fn labels(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Json<Vec<LabelBody>>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let run = run_id(&id)?;
    let Json(body) = body.map_err(|rejection| {
        ApiError::bad_request(format!(
            "the body is not a list of labels: {rejection}; send [{{\"id\": \"W…\", \"label\": \"include\"}}]"
        ))
    })?;
    let labels = body
        .iter()
        .map(|label| {
            let work = label
                .id
                .parse::<WorkId>()
                .map_err(|error| ApiError::bad_request(format!("`{}`: {error}", label.id)))?;
            let decision = match label.label.as_str() {
                "include" => Decision::Include,
                "exclude" => Decision::Exclude,
                other => {
                    return Err(ApiError::bad_request(format!(
                        "label `{other}`: use include or exclude"
                    )));
                }
            };
            Ok(Label { work, decision })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let count = labels.len();
    with_runner(&state, move |runner| {
        runner.label_as("web");
        Ok(runner.label_works(&run, &labels)?)
    })
    .await?;
    Ok(Json(serde_json::json!({ "labelled": count })))
}

/// `POST /api/runs/{id}/approve`: passes the gate; the run goes on in line.
async fn approve(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let run = run_id(&id)?;
    match status_of(&state, &run).await? {
        RunStatus::AwaitingApproval => {}
        other => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!(
                    "run {run} is {}, not waiting at the gate: only a run waiting for approval can be approved",
                    other.name()
                ),
            ));
        }
    }
    if state.queue.busy(&run) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("run {run} is already in line"),
        ));
    }
    state.queue.push(Job::Approve(run.clone()));
    Ok((
        StatusCode::ACCEPTED,
        Json(serde_json::json!({ "id": run.to_string() })),
    )
        .into_response())
}

/// The body of `POST /api/runs/{id}/clarify`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Answers {
    #[serde(default)]
    answers: Vec<String>,
}

/// `POST /api/runs/{id}/clarify`: answers the questions of a run that waits for them; the run
/// goes in line to search.
async fn clarify(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Json<Answers>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let run = run_id(&id)?;
    let Json(body) = body.map_err(|rejection| {
        ApiError::bad_request(format!(
            "the body is not answers: {rejection}; send {{\"answers\": [\"…\"]}}, one per question"
        ))
    })?;
    if state.queue.busy(&run) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("run {run} is already in line"),
        ));
    }
    let answered = run.clone();
    with_runner(&state, move |runner| {
        runner.clarify(&answered, &body.answers)?;
        Ok(())
    })
    .await?;
    state.queue.push(Job::Start(run.clone()));
    Ok((
        StatusCode::ACCEPTED,
        Json(serde_json::json!({ "id": run.to_string() })),
    )
        .into_response())
}

/// A run's stored status; `404` when there is no such run.
async fn status_of(state: &Arc<AppState>, run: &RunId) -> Result<RunStatus, ApiError> {
    let wanted = run.clone();
    with_runner(state, move |runner| match runner.run_summary(&wanted) {
        Ok(summary) => Ok(Some(summary.status)),
        Err(litrev::Error::Store(error)) if crate::error::is_unknown_run(&error) => Ok(None),
        Err(error) => Err(error.into()),
    })
    .await?
    .ok_or_else(|| ApiError::not_found(format!("no run `{run}`: GET /api/runs lists the runs")))
}

/// `POST /api/runs/{id}/resume`: a failed run, or one stopped by a server that went down, goes
/// back in line and carries on from its last committed step.
async fn resume(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let run = run_id(&id)?;
    let status = status_of(&state, &run).await?;
    let stopped = status == RunStatus::Running && !state.queue.busy(&run);
    if !(status == RunStatus::Failed || stopped) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "run {run} is {}: only a failed or stopped run is resumed (one at the gate is approved)",
                if state.queue.busy(&run) {
                    "in line"
                } else {
                    status.name()
                }
            ),
        ));
    }
    state.queue.push(Job::Start(run.clone()));
    Ok((
        StatusCode::ACCEPTED,
        Json(serde_json::json!({ "id": run.to_string() })),
    )
        .into_response())
}

/// `GET /api/runs/{id}/review`: the review's Markdown, as `PUT` takes it back.
async fn review(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<litrev::ReviewText>, ApiError> {
    let run = run_id(&id)?;
    Ok(Json(
        with_runner(&state, move |runner| Ok(runner.review_text(&run)?)).await?,
    ))
}

/// `PUT /api/runs/{id}/review`: an edited review, as Markdown (the body itself, or JSON
/// `{"markdown": …}`). Audited like the writer's output: `422` with the problems, or `200`
/// with the files published again from it and the replaced text kept as a revision.
async fn edit_review(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<serde_json::Value>, ApiError> {
    let run = run_id(&id)?;
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    let markdown = if json {
        #[derive(Deserialize)]
        struct Edit {
            markdown: String,
        }
        serde_json::from_slice::<Edit>(&body)
            .map_err(|error| {
                ApiError::bad_request(format!(
                    "the body is not {{\"markdown\": \"…\"}}: {error}; or send the Markdown itself as text/markdown"
                ))
            })?
            .markdown
    } else {
        String::from_utf8(body.to_vec()).map_err(|_| {
            ApiError::bad_request("the edited review is not UTF-8 text: save it as UTF-8")
        })?
    };
    if state.queue.busy(&run) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("run {run} is in line or running: edit it when it is done"),
        ));
    }
    let revised = with_runner(&state, move |runner| {
        Ok(runner.edit_review(&run, &markdown, &|_| {})?)
    })
    .await?;
    Ok(Json(serde_json::json!({
        "revision": revised.revision,
        "words": revised.summary.words,
        "citations": revised.summary.citations,
        "included": revised.summary.included,
    })))
}

/// The body of `POST /api/runs/{id}/continue`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FollowUpBody {
    #[serde(default)]
    question: Option<String>,
    #[serde(default)]
    seeds: Vec<String>,
    #[serde(default)]
    tier: Option<String>,
}

/// `POST /api/runs/{id}/continue`: a follow-up of a done run (a new question, more seeds,
/// another tier) that starts from the run's corpus and labels; `201 {"id": …, "parent": …}`.
async fn continue_run(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Json<FollowUpBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let parent = run_id(&id)?;
    let Json(body) = body.map_err(|rejection| {
        ApiError::bad_request(format!(
            "the body is not a follow-up: {rejection}; send JSON with \"question\", \"seeds\" or \"tier\""
        ))
    })?;
    let seeds = litrev::parse_seeds(&body.seeds)?;
    let tier = litrev::parse_tier(body.tier.as_deref())?;
    let shared = state.clone();
    let (run, parent) = with_runner(&state, move |runner| {
        let question = match body.question {
            Some(question) => question,
            None => runner.options(&parent)?.question,
        };
        let follow_up = litrev::FollowUp {
            out_dir: shared.home.review_folder(&question),
            question: Some(question),
            seeds,
            tier,
        };
        Ok((runner.continue_run(&parent, follow_up)?, parent))
    })
    .await?;
    state.queue.push(Job::Start(run.clone()));
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, format!("/api/runs/{run}"))],
        Json(serde_json::json!({ "id": run.to_string(), "parent": parent.to_string() })),
    )
        .into_response())
}

/// `GET /api/runs/{id}/files/{name}`: an output file of the run; anything outside the run's
/// folder (`..`, absolute paths, symlinks out of it) is not found.
async fn file(
    State(state): State<Arc<AppState>>,
    Path((id, name)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let run = run_id(&id)?;
    let media = content_type(&name);
    let bytes = with_runner(&state, move |runner| Ok(runner.output_bytes(&run, &name)?)).await?;
    Ok((
        [
            (header::CONTENT_TYPE, media.as_str()),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            // An output page runs no script and cannot reach the app: it is a sandbox of its own.
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; sandbox",
            ),
        ],
        Body::from(bytes),
    )
        .into_response())
}

/// The content type of an output file: its media type, text in UTF-8.
fn content_type(name: &str) -> String {
    let media = litrev::media_type(name);
    if media.starts_with("text/")
        || media == "application/x-bibtex"
        || media == "application/x-research-info-systems"
    {
        format!("{media}; charset=utf-8")
    } else {
        media.to_owned()
    }
}
