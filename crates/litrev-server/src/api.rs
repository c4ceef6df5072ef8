//! The REST API under `/api`: start runs, list and read them, follow their events, screen at
//! the gate, approve, and fetch their output files. Every body is JSON; every error is
//! `{"error": "…"}` with a message that says what to do.

use std::path::{Component, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post, put};
use axum::{Json, Router};
use litrev::model::{Decision, Filters, Label, RunId, RunStatus, Tier, WorkId, WorkKind};
use litrev::{RunOptions, Runner, SourceSpec, StyleName};
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

/// The body of `POST /api/runs`: the options of `litrev review`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewRunBody {
    question: String,
    /// As the CLI's `--source` values: `openalex`, `snapshot:FILE`, comma-separated lists.
    #[serde(default)]
    sources: Vec<String>,
    #[serde(default)]
    seeds: Vec<String>,
    #[serde(default)]
    tier: Option<String>,
    #[serde(default)]
    year_from: Option<i32>,
    #[serde(default)]
    year_to: Option<i32>,
    #[serde(default)]
    language: Vec<String>,
    #[serde(default)]
    kind: Vec<String>,
    #[serde(default)]
    exclude_terms: Vec<String>,
    #[serde(default)]
    style: Option<String>,
    /// A language model: its provider (`"openai"`, `"anthropic"`), or an object with
    /// `provider`, `model`, `url` and `batch`.
    #[serde(default)]
    llm: Option<LlmBody>,
    /// Eligibility criteria, as text, that the model applies at screening (needs `llm`).
    #[serde(default)]
    criteria: Option<String>,
    /// Most US dollars the run's model calls may cost (needs `llm`).
    #[serde(default)]
    budget: Option<f64>,
    /// Approve the screening in advance instead of stopping at the gate.
    #[serde(default)]
    yes: bool,
}

/// `llm` of `POST /api/runs`, as the CLI's `--llm`, `--llm-model`, `--llm-url`, `--llm-batch`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum LlmBody {
    Provider(litrev::LlmKind),
    Settings {
        provider: litrev::LlmKind,
        #[serde(default)]
        model: Option<String>,
        #[serde(default)]
        url: Option<String>,
        #[serde(default)]
        batch: bool,
        /// `{"input_per_million": …, "output_per_million": …}`, for a model without a list
        /// price.
        #[serde(default)]
        price: Option<litrev::LlmPrice>,
    },
}

impl NewRunBody {
    /// The model's settings, refusing criteria or a budget without a model, as the CLI does.
    fn llm(&self) -> Result<Option<litrev::LlmOptions>, ApiError> {
        let Some(llm) = &self.llm else {
            if self.criteria.is_some() || self.budget.is_some() {
                return Err(ApiError::bad_request(
                    "criteria and budget need a language model: add \"llm\": \"openai\" or \"anthropic\"",
                ));
            }
            return Ok(None);
        };
        let (provider, model, url, batch, price) = match llm {
            LlmBody::Provider(provider) => (*provider, None, None, false, None),
            LlmBody::Settings {
                provider,
                model,
                url,
                batch,
                price,
            } => (*provider, model.clone(), url.clone(), *batch, *price),
        };
        if let Some(budget) = self.budget
            && !(budget.is_finite() && budget >= 0.0)
        {
            return Err(ApiError::bad_request(format!(
                "budget `{budget}` is not an amount of US dollars: send e.g. 0.50"
            )));
        }
        if self
            .criteria
            .as_ref()
            .is_some_and(|criteria| criteria.trim().is_empty())
        {
            return Err(ApiError::bad_request(
                "the criteria are empty: write the eligibility criteria, one per line",
            ));
        }
        Ok(Some(litrev::LlmOptions {
            model: model.unwrap_or_else(|| provider.default_model().to_owned()),
            url,
            budget_usd: self.budget,
            batch,
            price,
            criteria: self.criteria.clone(),
            ..litrev::LlmOptions::new(provider)
        }))
    }
}

impl NewRunBody {
    /// The run's options, refusing what the CLI would refuse, with its messages.
    fn options(self, state: &AppState) -> Result<RunOptions, ApiError> {
        let bad = |message: String| ApiError::bad_request(message);
        let llm = self.llm()?;
        let mut sources = Vec::new();
        let given = if self.sources.is_empty() {
            vec!["openalex".to_owned()]
        } else {
            self.sources
        };
        for value in &given {
            sources.extend(SourceSpec::parse_list(value).map_err(|error| bad(error.to_string()))?);
        }
        let seeds = parse_seeds(&self.seeds)?;
        let tier = parse_tier(self.tier.as_deref())?.unwrap_or(Tier::Quick);
        let kinds = self
            .kind
            .iter()
            .map(|kind| {
                kind.parse::<WorkKind>()
                    .map_err(|error| bad(error.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let style = match &self.style {
            Some(style) => style
                .parse::<StyleName>()
                .map_err(|error| bad(error.to_string()))?,
            None => StyleName::default(),
        };
        if let (Some(from), Some(to)) = (self.year_from, self.year_to)
            && from > to
        {
            return Err(bad(format!("year_from {from} comes after year_to {to}")));
        }
        Ok(RunOptions {
            out_dir: out_dir(state, &self.question),
            question: self.question,
            sources: SourceSpec::merge(sources),
            seeds,
            tier,
            approve: self.yes,
            filters: Filters {
                year_from: self.year_from,
                year_to: self.year_to,
                languages: self.language,
                kinds,
                exclude_terms: self.exclude_terms,
            },
            llm,
            style,
        })
    }
}

/// A new run's output folder: `reviews/<milliseconds>-<question's slug>` in the home.
fn out_dir(state: &AppState, question: &str) -> PathBuf {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis());
    let folder = litrev::default_out_dir(question);
    let name = folder
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    state
        .home
        .root()
        .join("reviews")
        .join(format!("{stamp}-{name}"))
}

/// `POST /api/runs`: creates the run and puts it in line; `201 {"id": …}`.
async fn create_run(
    State(state): State<Arc<AppState>>,
    body: Result<Json<NewRunBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(body) = body.map_err(|rejection| {
        ApiError::bad_request(format!(
            "the body is not a run's options: {rejection}; send JSON with at least \"question\""
        ))
    })?;
    let options = body.options(&state)?;
    let run = with_runner(&state, move |runner| Ok(runner.create(&options)?)).await?;
    state.queue.push(Job::Start(run.clone()));
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, format!("/api/runs/{run}"))],
        Json(serde_json::json!({ "id": run.to_string() })),
    )
        .into_response())
}

/// A run as the API shows it.
fn run_json(state: &AppState, runner: &Runner, run: &RunId) -> Result<serde_json::Value, ApiError> {
    let summary = runner
        .runs()?
        .into_iter()
        .find(|summary| &summary.id == run)
        .ok_or_else(|| ApiError::not_found(format!("no run `{run}`")))?;
    let status = match summary.status {
        RunStatus::Queued => "queued",
        RunStatus::Running if !state.queue.busy(run) => "stopped",
        RunStatus::Running => "running",
        RunStatus::AwaitingApproval => "waiting",
        RunStatus::Done => "done",
        RunStatus::Failed => "failed",
    };
    let telemetry = runner.telemetry(run)?;
    Ok(serde_json::json!({
        "id": summary.id.to_string(),
        "question": summary.question,
        "status": status,
        "step": summary.last_step,
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
            .map(|summary| run_json(&shared, runner, &summary.id))
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
        with_runner(&state, move |runner| run_json(&shared, runner, &run)).await?,
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
    with_runner(&state, move |runner| Ok(runner.label_works(&run, &labels)?)).await?;
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

/// A run's stored status; `404` when there is no such run.
async fn status_of(state: &Arc<AppState>, run: &RunId) -> Result<RunStatus, ApiError> {
    let wanted = run.clone();
    with_runner(state, move |runner| {
        Ok(runner
            .runs()?
            .into_iter()
            .find(|summary| summary.id == wanted)
            .map(|summary| summary.status))
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

/// Seeds as the CLI's `--seed` reads them (OpenAlex ids or DOIs).
fn parse_seeds(seeds: &[String]) -> Result<Vec<WorkId>, ApiError> {
    seeds
        .iter()
        .map(|seed| {
            seed.parse::<WorkId>()
                .map_err(|error| ApiError::bad_request(format!("seed `{seed}`: {error}")))
        })
        .collect()
}

/// A tier as the CLI's `--tier` reads it.
fn parse_tier(tier: Option<&str>) -> Result<Option<Tier>, ApiError> {
    tier.map(|tier| {
        tier.parse::<Tier>()
            .map_err(|error| ApiError::bad_request(error.to_string()))
    })
    .transpose()
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
    let seeds = parse_seeds(&body.seeds)?;
    let tier = parse_tier(body.tier.as_deref())?;
    let shared = state.clone();
    let (run, parent) = with_runner(&state, move |runner| {
        let question = match body.question {
            Some(question) => question,
            None => runner.options(&parent)?.question,
        };
        let follow_up = litrev::FollowUp {
            out_dir: out_dir(&shared, &question),
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
    let relative = PathBuf::from(&name);
    let plain = relative
        .components()
        .all(|component| matches!(component, Component::Normal(_)));
    if !plain || name.is_empty() {
        return Err(ApiError::not_found(format!(
            "no file `{name}` in run {run}"
        )));
    }
    let missing = name.clone();
    let bytes = with_runner(&state, move |runner| {
        let folder = runner.options(&run)?.out_dir;
        let not_found = || ApiError::not_found(format!("no file `{missing}` in run {run}"));
        let folder = folder.canonicalize().map_err(|_| not_found())?;
        let path = folder
            .join(&relative)
            .canonicalize()
            .map_err(|_| not_found())?;
        if !path.starts_with(&folder) || !path.is_file() {
            return Err(not_found());
        }
        std::fs::read(&path).map_err(|_| not_found())
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, content_type(&name)),
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

/// The content type of an output file, by its extension.
fn content_type(name: &str) -> &'static str {
    let extension = name.rsplit_once('.').map_or("", |(_, extension)| extension);
    match extension {
        "md" => "text/markdown; charset=utf-8",
        "html" => "text/html; charset=utf-8",
        "json" | "csl-json" => "application/json",
        "csv" => "text/csv; charset=utf-8",
        "bib" => "application/x-bibtex; charset=utf-8",
        "ris" => "application/x-research-info-systems; charset=utf-8",
        "svg" => "image/svg+xml",
        "graphml" => "application/graphml+xml",
        "csl" => "application/vnd.citationstyles.style+xml",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        _ => "application/octet-stream",
    }
}
