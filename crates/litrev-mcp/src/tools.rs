//! The tools: each takes JSON arguments with a schema, calls the engine on a blocking thread
//! with its own runner, and answers with structured JSON and a short text rendering. A bad
//! argument, an unknown id or run, or a failed engine call is a tool error carrying the message
//! the CLI would print; the server goes on answering.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use litrev::model::Tier;
use litrev::model::{Decision, Label, RunId, RunStatus, WorkId};
use litrev::{Direction, Home, ResearchMode, ReviewRequest, Runner, SourceSpec};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, ProgressNotificationParam, ProgressToken, RequestMetaObject,
};
use rmcp::{ErrorData, Peer, RoleServer, tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::launcher::{Launch, Launcher};
use crate::present::{work_lines, work_summary};

type ToolResult = Result<CallToolResult, ErrorData>;

/// What a tool says: its text and its structured result, or the message of its refusal.
type Outcome = Result<(String, Value), String>;

/// Works a listing returns when the caller names no limit.
const DEFAULT_LIMIT: usize = 20;

/// Candidates `review_status` shows at the gate.
const GATE_CANDIDATES: usize = 10;

/// How often a waiting `start_review` looks at its run.
const POLL: Duration = Duration::from_millis(500);

/// The steps of a review, for progress: a run reports how many it has done of these.
const STEPS: [&str; 10] = [
    "plan", "discover", "snowball", "screen", "gate", "fulltext", "organise", "write", "audit",
    "publish",
];

/// The MCP server: litrev's engine as tools and its runs' outputs as resources.
#[derive(Clone)]
pub struct Litrev {
    pub(crate) home: Home,
    pub(crate) db: Option<PathBuf>,
    sources: Vec<SourceSpec>,
    launcher: Arc<dyn Launcher>,
    pub(crate) tool_router: ToolRouter<Litrev>,
}

/// `search_works`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// What to search for: a question or keywords.
    pub query: String,
    /// Sources as `litrev --source` takes them (`openalex`, `semantic-scholar`, `arxiv`,
    /// `pubmed`, `crossref`, `huggingface`, `openlibrary`, `brave`, `tavily`, `snapshot:FILE`); default: the server's.
    #[serde(default)]
    pub sources: Option<Vec<String>>,
    /// Most works returned (default 20).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Publication years: `2000-2020`, `2000-` or `-2020`.
    #[serde(default)]
    pub years: Option<String>,
    /// `academic` (default) or `general`.
    #[serde(default)]
    pub research_mode: ResearchMode,
}

/// `get_work`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkArgs {
    /// An OpenAlex id (`W…`), DOI, PMID, PMCID or arXiv id.
    pub id: String,
}

/// Which way `citation_search` follows citations.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CitationDirection {
    /// The works that cite it.
    Citing,
    /// The works it cites.
    References,
}

/// `citation_search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CitationArgs {
    /// The work: an OpenAlex id, DOI, PMID, PMCID or arXiv id.
    pub id: String,
    /// `citing` (works citing it) or `references` (works it cites).
    pub direction: CitationDirection,
    /// Most works returned (default 20).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Sources; default: the server's.
    #[serde(default)]
    pub sources: Option<Vec<String>>,
}

/// `related_works`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RelatedArgs {
    /// One work's id.
    #[serde(default)]
    pub id: Option<String>,
    /// Several works' ids.
    #[serde(default)]
    pub ids: Option<Vec<String>>,
    /// Most works returned (default 20).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Sources; default: the server's.
    #[serde(default)]
    pub sources: Option<Vec<String>>,
}

/// A run named by its id.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunArgs {
    /// The run's id, as `start_review` returned it.
    pub run: String,
}

/// Arguments of `export_to_zotero`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoteroArgs {
    /// A done run.
    pub run: String,
    /// The Zotero collection the references go into (created when missing); default: the
    /// run's question.
    #[serde(default)]
    pub collection: Option<String>,
}

/// Answers of `answer_clarifications`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerArgs {
    /// The run's id, as `start_review` returned it.
    pub run: String,
    /// One answer per question, in order, each one of its options; an empty answer (or none)
    /// takes the question's default.
    #[serde(default)]
    pub answers: Vec<String>,
}

/// One label of `label_works`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LabelArg {
    /// The work's id, as `review_status` lists it.
    pub id: String,
    /// `include` or `exclude`.
    pub label: LabelValue,
}

/// A person's decision.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LabelValue {
    /// Keep the work.
    Include,
    /// Leave it out.
    Exclude,
}

/// `label_works`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LabelArgs {
    /// The run waiting at the gate.
    pub run: String,
    /// The decisions, saved at once and in force over the model's.
    pub labels: Vec<LabelArg>,
}

/// The formats of `get_review`.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewFormat {
    /// `review.md`, Pandoc Markdown with `[@key]` citations.
    #[default]
    Markdown,
    /// `review.html`, standalone.
    Html,
}

/// `get_review`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewArgs {
    /// A done run.
    pub run: String,
    /// `markdown` (default) or `html`.
    #[serde(default)]
    pub format: ReviewFormat,
}

/// `get_evidence`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvidenceArgs {
    /// A run with a review.
    pub run: String,
    /// The claim's number: its sentence in reading order, from 1, as `evidence.json` and
    /// `litrev show --claim` count.
    pub claim: usize,
}

/// The formats of `export_bibliography`.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
pub enum BibliographyFormat {
    /// `references.bib`.
    #[serde(rename = "bibtex")]
    Bibtex,
    /// `references.ris`.
    #[serde(rename = "ris")]
    Ris,
    /// `references.json`, CSL-JSON.
    #[serde(rename = "csl-json")]
    CslJson,
}

/// `export_bibliography`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportArgs {
    /// A done run.
    pub run: String,
    /// `bibtex`, `ris` or `csl-json`.
    pub format: BibliographyFormat,
    /// A citation style (`apa`, `mla`, `ieee`, `chicago`, `gb7714`, or a `.csl` file): its CSL
    /// file comes back beside the references, to format them with (pandoc `--csl`, a
    /// reference manager).
    #[serde(default)]
    pub style: Option<String>,
}

fn reply(text: impl Into<String>, value: Value) -> ToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(value);
    Ok(result)
}

fn refuse(message: impl Into<String>) -> ToolResult {
    Ok(CallToolResult::error(vec![ContentBlock::text(message)]))
}

/// Turns a tool's outcome into its answer: an error becomes a tool error with its message.
fn answer(outcome: Result<(String, Value), String>) -> ToolResult {
    match outcome {
        Ok((text, value)) => reply(text, value),
        Err(message) => refuse(message),
    }
}

fn run_id(text: &str) -> Result<RunId, String> {
    text.trim().parse().map_err(|_| {
        format!("no run `{text}`: review_status lists a run by the id start_review returned")
    })
}

fn work_id(text: &str) -> Result<WorkId, String> {
    text.parse::<WorkId>()
        .map_err(|error| format!("`{text}` is no work id ({error}): give an OpenAlex id (W…), a DOI, a PMID, a PMCID or an arXiv id"))
}

impl Litrev {
    /// A server answering from the store of `home` (or `db`), searching `sources` unless a
    /// call names others, driving runs with `launcher`.
    pub fn new(
        home: Home,
        db: Option<PathBuf>,
        sources: Vec<SourceSpec>,
        launcher: Arc<dyn Launcher>,
    ) -> Litrev {
        Litrev {
            home,
            db,
            sources,
            launcher,
            tool_router: Litrev::tool_router(),
        }
    }

    /// Runs engine work off the async threads, with its own runner on the store.
    pub(crate) async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Runner) -> Result<T, String> + Send + 'static,
    ) -> Result<T, String> {
        let home = self.home.clone();
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || {
            let mut runner =
                Runner::open(home, db.as_deref()).map_err(|error| error.to_string())?;
            work(&mut runner)
        })
        .await
        .map_err(|error| {
            format!("litrev failed inside ({error}); the store is unchanged, try again")
        })?
    }

    /// The sources a call names, else the server's.
    fn sources_of(&self, given: Option<&[String]>) -> Result<Vec<SourceSpec>, String> {
        let Some(given) = given.filter(|given| !given.is_empty()) else {
            return Ok(self.sources.clone());
        };
        let mut specs = Vec::new();
        for value in given {
            specs.extend(SourceSpec::parse_list(value).map_err(|error| error.to_string())?);
        }
        Ok(SourceSpec::merge(specs))
    }

    /// A run's status as the tools show it.
    async fn status(&self, run: RunId) -> Result<Value, String> {
        let launcher = self.launcher.clone();
        self.blocking(move |runner| status_json(runner, launcher.as_ref(), &run))
            .await
    }
}

/// A run's status, step, counts, cost, and at the gate its top candidates.
fn status_json(runner: &Runner, launcher: &dyn Launcher, run: &RunId) -> Result<Value, String> {
    let summary = runner.run_summary(run).map_err(|error| error.to_string())?;
    let busy = launcher.busy(run);
    let status = match summary.status {
        RunStatus::Queued => "queued",
        RunStatus::Running if busy => "running",
        RunStatus::Running => "stopped",
        RunStatus::AwaitingApproval if busy => "running",
        RunStatus::AwaitingApproval => "waiting",
        RunStatus::NeedsClarification if busy => "running",
        RunStatus::NeedsClarification => "needs_clarification",
        RunStatus::Done => "done",
        RunStatus::Failed => "failed",
    };
    let telemetry = runner.telemetry(run).map_err(|error| error.to_string())?;
    // Snowballing is measured stage by stage (`snowball.2`): a step counts once.
    let steps_done = STEPS
        .iter()
        .filter(|step| {
            telemetry
                .steps
                .iter()
                .any(|done| done.step.split('.').next() == Some(**step))
        })
        .count();
    let mut value = json!({
        "run": run.to_string(),
        "question": summary.question,
        "status": status,
        "step": summary.last_step,
        "steps_done": steps_done,
        "steps": STEPS.len(),
        "gate": summary.gate(),
        "cost": {
            "requests": telemetry.requests,
            "cache_hits": telemetry.cache_hits,
            "usd": telemetry.cost_usd,
            "wall_seconds": telemetry.wall_seconds,
        },
        "out_dir": summary.out_dir,
    });
    if status == "failed" || status == "stopped" {
        value["message"] = json!(launcher.failure(run).unwrap_or_else(|| format!(
            "the run stopped; `litrev resume {run}` carries it on from its last step"
        )));
    }
    if let Some(plan) = runner.plan_of(run).map_err(|error| error.to_string())? {
        value["plan"] = plan;
    }
    if status == "needs_clarification" {
        let clarifications = runner
            .clarifications(run)
            .map_err(|error| error.to_string())?;
        value["clarifications"] = litrev::clarifications_json(&clarifications);
    }
    if matches!(status, "waiting" | "done") {
        let rows = runner
            .screening_rows(run)
            .map_err(|error| error.to_string())?;
        let included = rows
            .iter()
            .filter(|(_, decision)| decision.decision == Decision::Include)
            .count();
        value["counts"] = json!({ "considered": rows.len(), "included": included });
        if status == "waiting" {
            value["candidates"] = rows
                .iter()
                .take(GATE_CANDIDATES)
                .map(|(work, decision)| {
                    let mut shown = work_summary(work);
                    shown["id"] = json!(decision.work.to_string());
                    shown["score"] = json!(decision.score);
                    shown["decision"] = json!(match decision.decision {
                        Decision::Include => "include",
                        Decision::Exclude => "exclude",
                    });
                    shown["reason"] = json!(decision.reason);
                    shown
                })
                .collect();
        }
    }
    Ok(value)
}

fn status_text(value: &Value) -> String {
    let mut text = format!(
        "run {} is {} (step {}, {} of {} steps done)",
        value["run"].as_str().unwrap_or_default(),
        value["status"].as_str().unwrap_or_default(),
        value["step"].as_str().unwrap_or("none yet"),
        value["steps_done"],
        value["steps"],
    );
    if let Some(counts) = value.get("counts") {
        text.push_str(&format!(
            "; {} of {} candidates included",
            counts["included"], counts["considered"]
        ));
    }
    if let Some(message) = value["message"].as_str() {
        text.push_str(&format!(": {message}"));
    }
    if let Some(questions) = value["clarifications"].as_array() {
        text.push_str(". Before it searches, it asks:");
        for (number, question) in questions.iter().enumerate() {
            text.push_str(&format!(
                " ({}) {} [{}]",
                number + 1,
                question["question"].as_str().unwrap_or_default(),
                question["options"]
                    .as_array()
                    .map(|options| {
                        options
                            .iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join(" / ")
                    })
                    .unwrap_or_default()
            ));
        }
        text.push_str(". Ask the person, then answer_clarifications (an empty answer takes the first option, the default).");
    }
    if value["status"] == "waiting" {
        text.push_str(if value["gate"] == "downloads" {
            ". It waits at the download gate (the open-access copies it would fetch are in downloads.csv among its outputs): approve to fetch them."
        } else {
            ". It waits at the screening gate: label_works, then approve."
        });
    }
    text
}

#[tool_router]
impl Litrev {
    #[tool(
        description = "Search the scholarly literature across litrev's sources (OpenAlex, Semantic Scholar, arXiv, PubMed, Crossref, local snapshots). Returns works with resolvable ids, per-source counts and cost."
    )]
    async fn search_works(&self, Parameters(args): Parameters<SearchArgs>) -> ToolResult {
        answer(self.search_works_outcome(args).await)
    }

    #[tool(
        description = "One work's full record by any id: OpenAlex id (W…), DOI, PMID, PMCID or arXiv id."
    )]
    async fn get_work(&self, Parameters(args): Parameters<WorkArgs>) -> ToolResult {
        answer(self.get_work_outcome(args).await)
    }

    #[tool(
        description = "The works citing a work (direction \"citing\") or the works it cites (\"references\"), most cited first."
    )]
    async fn citation_search(&self, Parameters(args): Parameters<CitationArgs>) -> ToolResult {
        answer(self.citation_search_outcome(args).await)
    }

    #[tool(
        description = "Works related to one work (id) or several (ids): a source's recommendations where one has them, else the citation neighbourhood ranked by coupling, links and text similarity."
    )]
    async fn related_works(&self, Parameters(args): Parameters<RelatedArgs>) -> ToolResult {
        answer(self.related_works_outcome(args).await)
    }

    #[tool(
        description = "Start a literature review: plan, discover, snowball, screen (stopping at the human gate unless yes), read full texts, organise, write, audit, publish. Returns the run id at once; with a progress token, waits until the run stops and reports progress."
    )]
    async fn start_review(
        &self,
        Parameters(request): Parameters<ReviewRequest>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> ToolResult {
        answer(self.start_review_outcome(request, meta, peer).await)
    }

    #[tool(
        description = "A run's status, current step, counts and cost, and once planned its plan (the brief, each part stated, derived or assumed, and the searches); while it needs clarification, its questions; at the screening gate, its top candidates with scores and decisions."
    )]
    async fn review_status(&self, Parameters(args): Parameters<RunArgs>) -> ToolResult {
        answer(self.review_status_outcome(args).await)
    }

    #[tool(
        description = "Label works of a run waiting at the screening gate include or exclude; each label is saved at once and in force over the model's decision."
    )]
    async fn label_works(&self, Parameters(args): Parameters<LabelArgs>) -> ToolResult {
        answer(self.label_works_outcome(args).await)
    }

    #[tool(
        description = "Approve the screening of a run waiting at the gate: it goes on to read full texts, organise, write, audit and publish."
    )]
    async fn approve(&self, Parameters(args): Parameters<RunArgs>) -> ToolResult {
        answer(self.approve_outcome(args).await)
    }

    #[tool(
        description = "Answer the clarifying questions of a run whose status is needs_clarification (one answer per question, in order, each one of its options; empty takes the default): the run then searches and goes on."
    )]
    async fn answer_clarifications(&self, Parameters(args): Parameters<AnswerArgs>) -> ToolResult {
        answer(self.answer_clarifications_outcome(args).await)
    }

    #[tool(description = "A done run's review, as Markdown (with [@key] citations) or HTML.")]
    async fn get_review(&self, Parameters(args): Parameters<ReviewArgs>) -> ToolResult {
        answer(self.get_review_outcome(args).await)
    }

    #[tool(
        description = "A claim of a run's review (its sentence number, from 1) with its evidence: the cited works, fields, offsets and their sentences verbatim."
    )]
    async fn get_evidence(&self, Parameters(args): Parameters<EvidenceArgs>) -> ToolResult {
        answer(self.get_evidence_outcome(args).await)
    }

    #[tool(
        description = "A done run's references as BibTeX, RIS or CSL-JSON text; with a style, that style's CSL file too."
    )]
    async fn export_bibliography(&self, Parameters(args): Parameters<ExportArgs>) -> ToolResult {
        answer(self.export_bibliography_outcome(args).await)
    }

    #[tool(
        description = "Write a done run's references into the user's Zotero library (LITREV_ZOTERO_LIBRARY and LITREV_ZOTERO_KEY, or [zotero] in config.toml) as items of a collection (default: the run's question), tagged litrev; references the collection holds already are not written again. Returns the counts and each citation key's Zotero item key."
    )]
    async fn export_to_zotero(&self, Parameters(args): Parameters<ZoteroArgs>) -> ToolResult {
        answer(self.export_to_zotero_outcome(args).await)
    }
}

/// What each tool does, as an [`Outcome`]: arguments checked with `?`, the engine called; the
/// `#[tool]` methods above turn it into the answer.
impl Litrev {
    async fn search_works_outcome(&self, args: SearchArgs) -> Outcome {
        let sources = args
            .research_mode
            .sources(self.sources_of(args.sources.as_deref())?);
        let years = args
            .years
            .as_deref()
            .map(litrev::parse_years)
            .transpose()
            .map_err(|message| format!("years: {message}"))?;
        let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
        let query = args.query;
        let mode = args.research_mode;
        self.blocking(move |runner| {
                let report = runner
                    .search(&query, &sources, Tier::Quick, &|_| {})
                    .map_err(|error| error.to_string())?;
                let mut works = report.works.clone();
                if let Some((from, to)) = years {
                    works.retain(|work| {
                        work.year.is_some_and(|year| {
                            from.is_none_or(|from| year >= from) && to.is_none_or(|to| year <= to)
                        })
                    });
                }
                let found = works.len();
                works.truncate(limit);
                let mut text = format!(
                    "{found} works found ({} records from {} source(s)); the first {}:\n{}",
                    report.records,
                    report.sources.len(),
                    works.len(),
                    work_lines(&works)
                );
                if let Some(notice) = mode.notice() {
                    text.push_str(&format!("\n{notice}"));
                }
                Ok((
                    text,
                    json!({
                        "works": works.iter().map(work_summary).collect::<Vec<_>>(),
                        "found": found,
                        "records": report.records,
                        "sources": report.sources,
                        "queries": report.queries.iter().map(|query| query.text.clone()).collect::<Vec<_>>(),
                        "notices": mode.notice().into_iter().collect::<Vec<_>>(),
                    }),
                ))
            })
            .await
    }

    async fn get_work_outcome(&self, args: WorkArgs) -> Outcome {
        let id = work_id(&args.id)?;
        let sources = self.sources.clone();
        self.blocking(move |runner| {
            let work = runner
                .get_work(&sources, &id, &|_| {})
                .map_err(|error| error.to_string())?;
            let text = format!(
                "{}\n{}",
                work_lines(std::slice::from_ref(&work)),
                work.abstract_text.as_deref().unwrap_or("(no abstract)")
            );
            let value = serde_json::to_value(&work).map_err(|error| error.to_string())?;
            Ok((text, json!({ "work": value })))
        })
        .await
    }

    async fn citation_search_outcome(&self, args: CitationArgs) -> Outcome {
        let id = work_id(&args.id)?;
        let sources = self.sources_of(args.sources.as_deref())?;
        let direction = match args.direction {
            CitationDirection::Citing => Direction::Citing,
            CitationDirection::References => Direction::References,
        };
        let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
        self.blocking(move |runner| {
            let found = runner
                .citation_search(&sources, &id, direction, limit, &|_| {})
                .map_err(|error| error.to_string())?;
            Ok(exploration_answer(&found))
        })
        .await
    }

    async fn related_works_outcome(&self, args: RelatedArgs) -> Outcome {
        let given: Vec<String> = args
            .id
            .into_iter()
            .chain(args.ids.unwrap_or_default())
            .collect();
        if given.is_empty() {
            return Err("related_works needs `id` or `ids`: the works to find relatives of".into());
        }
        let ids = given
            .iter()
            .map(|id| work_id(id))
            .collect::<Result<Vec<_>, _>>()?;
        let sources = self.sources_of(args.sources.as_deref())?;
        let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
        self.blocking(move |runner| {
            let found = runner
                .related_works(&sources, &ids, limit, &|_| {})
                .map_err(|error| error.to_string())?;
            Ok(exploration_answer(&found))
        })
        .await
    }

    async fn start_review_outcome(
        &self,
        request: ReviewRequest,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Outcome {
        let home = self.home.clone();
        let notice = request.research_mode.notice();
        let created = self
            .blocking(move |runner| {
                let out = home.review_folder(&request.question);
                let options = request.options(out).map_err(|error| error.to_string())?;
                runner.create(&options).map_err(|error| error.to_string())
            })
            .await;
        let run = created?;
        self.launcher.launch(Launch::Start(run.clone()));
        let mut value = match meta.get_progress_token() {
            Some(token) => self.follow(&run, &token, &peer).await?,
            None => json!({ "run": run.to_string(), "status": "queued" }),
        };
        value["notices"] = json!(notice.into_iter().collect::<Vec<_>>());
        let text = if value.get("steps").is_some() {
            status_text(&value)
        } else {
            format!("run {run} started: review_status follows it")
        };
        Ok((text, value))
    }

    async fn review_status_outcome(&self, args: RunArgs) -> Outcome {
        let run = run_id(&args.run)?;
        self.status(run)
            .await
            .map(|value| (status_text(&value), value))
    }

    async fn label_works_outcome(&self, args: LabelArgs) -> Outcome {
        let run = run_id(&args.run)?;
        let mut labels = Vec::new();
        for label in &args.labels {
            match work_id(&label.id) {
                Ok(work) => labels.push(Label {
                    work,
                    decision: match label.label {
                        LabelValue::Include => Decision::Include,
                        LabelValue::Exclude => Decision::Exclude,
                    },
                }),
                Err(message) => return Err(message),
            }
        }
        let count = labels.len();
        self.blocking(move |runner| {
            runner
                .label_works(&run, &labels)
                .map_err(|error| error.to_string())?;
            Ok((
                format!("{count} label(s) saved for run {run}"),
                json!({ "run": run.to_string(), "labelled": count }),
            ))
        })
        .await
    }

    async fn approve_outcome(&self, args: RunArgs) -> Outcome {
        let run = run_id(&args.run)?;
        let status = self.status(run.clone()).await?;
        if status["status"] != "waiting" {
            return Err(format!(
                "run {run} is {}, not waiting at the screening gate: only a waiting run is approved",
                status["status"].as_str().unwrap_or_default()
            ));
        }
        self.launcher.launch(Launch::Approve(run.clone()));
        Ok((
            format!("run {run} approved: it goes on; review_status follows it"),
            json!({ "run": run.to_string(), "status": "running" }),
        ))
    }

    async fn answer_clarifications_outcome(&self, args: AnswerArgs) -> Outcome {
        let run = run_id(&args.run)?;
        let answered = run.clone();
        let brief = self
            .blocking(move |runner| {
                runner
                    .clarify(&answered, &args.answers)
                    .map_err(|error| error.to_string())
            })
            .await?;
        self.launcher.launch(Launch::Start(run.clone()));
        let answers: Vec<Value> = brief
            .clarifications
            .iter()
            .map(|clarification| {
                json!({
                    "about": clarification.about,
                    "answer": clarification.answer.as_deref().or(clarification.options.first().map(String::as_str)),
                    "default_taken": clarification.answer.is_none(),
                })
            })
            .collect();
        Ok((
            format!("run {run} answered: it searches now; review_status follows it"),
            json!({ "run": run.to_string(), "status": "queued", "answers": answers }),
        ))
    }

    async fn get_review_outcome(&self, args: ReviewArgs) -> Outcome {
        let run = run_id(&args.run)?;
        let name = match args.format {
            ReviewFormat::Markdown => "review.md",
            ReviewFormat::Html => "review.html",
        };
        self.output_text(run, name).await.map(|(run, text)| {
            (
                text.clone(),
                json!({ "run": run, "format": name.rsplit('.').next(), "text": text }),
            )
        })
    }

    async fn get_evidence_outcome(&self, args: EvidenceArgs) -> Outcome {
        let run = run_id(&args.run)?;
        let number = args.claim;
        self.blocking(move |runner| {
            let claim = runner
                .claim(&run, number)
                .map_err(|error| error.to_string())?;
            let value = serde_json::to_value(&claim).map_err(|error| error.to_string())?;
            let mut text = format!("claim {number} ({}): {}", claim.basis, claim.markdown);
            for span in claim.span.iter().chain(&claim.spans) {
                text.push_str(&format!(
                    "\n- [@{}] {}: \"{}\"",
                    span.key, span.field, span.snippet
                ));
            }
            Ok((text, value))
        })
        .await
    }

    async fn export_bibliography_outcome(&self, args: ExportArgs) -> Outcome {
        let run = run_id(&args.run)?;
        let (name, format) = match args.format {
            BibliographyFormat::Bibtex => ("references.bib", "bibtex"),
            BibliographyFormat::Ris => ("references.ris", "ris"),
            BibliographyFormat::CslJson => ("references.json", "csl-json"),
        };
        let csl = match &args.style {
            Some(style) => match style
                .parse::<litrev::StyleName>()
                .map_err(|error| error.to_string())
                .and_then(|style| litrev::style_csl(&style).map_err(|error| error.to_string()))
            {
                Ok(csl) => Some(csl),
                Err(message) => return Err(message),
            },
            None => None,
        };
        self.output_text(run, name).await.map(|(run, text)| {
            (
                text.clone(),
                json!({ "run": run, "format": format, "text": text, "csl": csl }),
            )
        })
    }

    async fn export_to_zotero_outcome(&self, args: ZoteroArgs) -> Outcome {
        let run = run_id(&args.run)?;
        let collection = args.collection;
        self.blocking(move |runner| {
            let written = runner
                .export_to_zotero(&run, collection.as_deref())
                .map_err(|error| error.to_string())?;
            Ok((
                format!(
                    "Zotero: {} items created, {} already in the collection \"{}\"",
                    written.created, written.already, written.collection_name
                ),
                json!({
                    "run": run.to_string(),
                    "collection": written.collection,
                    "collection_name": written.collection_name,
                    "created": written.created,
                    "already": written.already,
                    "skipped": written.skipped,
                    "keys": written.keys,
                }),
            ))
        })
        .await
    }
}

impl Litrev {
    /// The text of a done run's output file.
    async fn output_text(
        &self,
        run: RunId,
        name: &'static str,
    ) -> Result<(String, String), String> {
        self.blocking(move |runner| {
            let status = runner
                .run_summary(&run)
                .map_err(|error| error.to_string())?;
            if status.status != RunStatus::Done {
                return Err(format!(
                    "run {run} is {}, not done: its review is published when it is (review_status follows it)",
                    status.status.name()
                ));
            }
            let bytes = runner.output_bytes(&run, name).map_err(|error| {
                format!("{error}; `litrev resume {run}` publishes the run again")
            })?;
            let text = String::from_utf8(bytes).map_err(|error| {
                format!("{name} of run {run} is not text ({error}): `litrev resume {run}` publishes the run again")
            })?;
            Ok((run.to_string(), text))
        })
        .await
    }

    /// Waits until the run stops (done, at the gate, failed), telling the client each step.
    async fn follow(
        &self,
        run: &RunId,
        token: &ProgressToken,
        peer: &Peer<RoleServer>,
    ) -> Result<Value, String> {
        let mut reported = usize::MAX;
        loop {
            let value = self.status(run.clone()).await?;
            let done = value["steps_done"].as_u64().unwrap_or(0) as usize;
            if done != reported {
                reported = done;
                let message = format!(
                    "{}: {}",
                    value["status"].as_str().unwrap_or_default(),
                    value["step"].as_str().unwrap_or("starting")
                );
                // A client that went away is not the run's problem: it goes on.
                let _ = peer
                    .notify_progress(
                        ProgressNotificationParam::new(token.clone(), done as f64)
                            .with_total(STEPS.len() as f64)
                            .with_message(message),
                    )
                    .await;
            }
            if matches!(
                value["status"].as_str(),
                Some("done" | "waiting" | "needs_clarification" | "failed" | "stopped")
            ) {
                return Ok(value);
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

fn exploration_answer(found: &litrev::Exploration) -> (String, Value) {
    let mut text = format!(
        "{} works ({}):\n{}",
        found.works.len(),
        found.method,
        work_lines(&found.works)
    );
    for failure in &found.failures {
        text.push_str(&format!("\nnot answered: {failure}"));
    }
    (
        text,
        json!({
            "works": found.works.iter().map(work_summary).collect::<Vec<_>>(),
            "method": found.method,
            "failures": found.failures,
        }),
    )
}
