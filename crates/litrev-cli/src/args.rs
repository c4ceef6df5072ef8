//! The command line, as clap sees it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use litrev::model::{RunId, Tier, WorkId, WorkKind};

/// litrev turns a research question into a long, fully cited literature review.
#[derive(Debug, Parser)]
#[command(name = "litrev", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The verbs.
#[derive(Debug, Subcommand)]
#[allow(
    clippy::large_enum_variant,
    reason = "parsed once at start-up: the size of the largest verb's options does not matter"
)]
pub enum Command {
    /// Run a whole review: plan, discover, snowball, screen, organise, write, audit, publish.
    Review(ReviewArgs),
    /// Write the plan a review of the question would follow (queries, seeds, limits, filters)
    /// as an editable TOML file, and run nothing; `litrev review --plan FILE` runs it.
    Plan(PlanArgs),
    /// Continue a stopped run (after a crash, a kill, or the screening gate).
    Resume(ResumeArgs),
    /// Search only: run the question's queries on the sources, merge the hits, and print what
    /// each source found, added after dedup, and cost.
    Search(SearchArgs),
    /// Screen a run waiting at the gate: label records one by one (each label saved at once),
    /// or apply an edited screening.csv with --import; then `litrev resume RUN`.
    Screen(ScreenArgs),
    /// Show a claim of a run's review with its evidence (the sentence it was taken from, or
    /// that it was built from the run's own counts).
    Show(ShowArgs),
    /// List the runs in the store.
    Runs(RunsArgs),
    /// Serve the web app and its REST + Server-Sent Events API on the store the CLI uses (and
    /// MCP over streamable HTTP at /mcp).
    Serve(ServeArgs),
    /// Serve the engine as Model Context Protocol tools over stdio, for AI assistants
    /// (Claude Desktop, Claude Code, Cursor): search, citations, related works, reviews with
    /// their gate, evidence and bibliographies.
    Mcp(McpArgs),
    /// Take queued runs from the store (`litrev review … --queue`) and drive them, holding a
    /// lease renewed while it works: several workers on several machines can share one
    /// PostgreSQL store, and a run whose worker died is taken over from its last committed
    /// step.
    Worker(WorkerArgs),
    /// Write a run's output folder, as kept in the store, into a folder on this machine.
    Export(ExportArgs),
    /// Measure litrev on labelled data.
    #[command(subcommand)]
    Bench(BenchCommand),
}

/// `litrev worker`.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// Stop when no run waits and no other worker holds one (a run whose worker died comes
    /// back when its lease runs out), rather than wait for more runs.
    #[arg(long)]
    pub once: bool,
    /// Runs driven at once, each on its own thread.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub concurrency: usize,
    /// Seconds a claim holds without a heartbeat; a run whose worker was silent this long is
    /// taken over by another worker.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub lease: f64,
    /// The worker's name in the store (default: host:pid).
    #[arg(long)]
    pub name: Option<String>,
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
    /// Print one JSON line per run worked (run, worker, taken_over_from, outcome) on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Which citation keys exported files use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CiteKeys {
    /// litrev's keys (`shima2016factor`).
    Litrev,
    /// The Zotero item keys of the references (needs --zotero).
    Zotero,
}

/// `litrev export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The run's id (`litrev runs` lists them).
    pub run: litrev::model::RunId,
    /// The folder to write the files into (created when missing).
    #[arg(long, required_unless_present = "zotero")]
    pub out: Option<PathBuf>,
    /// Write the review's references into a Zotero library as items of a collection, tagged
    /// `litrev`; references the collection holds already are not written again. The library
    /// comes from LITREV_ZOTERO_LIBRARY (`users/ID` or `groups/ID`) and LITREV_ZOTERO_KEY, or
    /// `[zotero]` in config.toml.
    #[arg(long)]
    pub zotero: bool,
    /// The Zotero collection (default: the run's question); created when missing.
    #[arg(long, requires = "zotero")]
    pub collection: Option<String>,
    /// The citation keys of the files written to --out: litrev's own (`shima2016factor`), or,
    /// with --zotero, the Zotero item keys (`[@ABCD2345]`), which Zotero's tools resolve.
    #[arg(long, value_enum, default_value_t = CiteKeys::Litrev, requires = "out")]
    pub cite_keys: CiteKeys,
    /// With --zotero: print what was written as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
}

/// `litrev bench …`.
#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Simulate a reviewer screening in litrev's order, the labels being the oracle; print
    /// WSS@95, WSS@100, RRF@10, ATD, records screened to 95 % and 100 % recall, and time.
    Screen(ScreenBenchArgs),
    /// Organise the union of several snapshot files into themes with the pipeline's own code;
    /// print the number of themes, the outlier share, the time and the NMI between the themes
    /// and the file each work came from.
    Themes(ThemesBenchArgs),
    /// Snowball from a review's most-cited included studies through the OpenAlex client and a
    /// local OpenAlex serving the works file; print the recall of the other included studies
    /// in the gathered corpus and the top 100/200/300 of the relevance ranking, the corpus size,
    /// stages, requests against their minimum, and the same numbers for a keyword baseline.
    Snowball(SnowballBenchArgs),
    /// Run the snowballing benchmark on every SYNERGY review of the shared data with each
    /// setting of a grid of its ranking weights (citation links, reach, feedback works), and
    /// print per review the shipped setting's figures beside those of the setting chosen
    /// leaving that review out, with the keyword baseline's.
    SnowballCv(SnowballCvArgs),
    /// Give every sentence of the structured abstracts in some files its role with the
    /// sentence-role model, labels stripped; print per-role precision, recall and F1 and the
    /// weighted F1, leave-one-dataset-out. With --train, train the model on all of them and
    /// write it (what `scripts/train-roles.sh` ships).
    Roles(RolesBenchArgs),
    /// Embed the title and abstract of every work in some snapshot files with the model a
    /// review uses (no cache); print docs/s and tokens/s.
    Embed(EmbedBenchArgs),
    /// Run whole reviews of every dataset at every tier, on its records as they are and on
    /// hostile copies of them (text that breaks naive code, emptied fields, markup); print one
    /// line per run, ok or the failure. Exit code 2 when any run failed.
    Sweep(SweepBenchArgs),
    /// Queue runs on a store and drive them with one `litrev worker`, then with N workers one
    /// of which is killed (SIGKILL) at a random point and replaced; print runs finished,
    /// takeovers, steps committed twice (must be 0) and the wall time against one worker's.
    /// Exit code 2 when a run did not finish or a step was committed twice.
    Workers(WorkersBenchArgs),
    /// Review each dataset against a local OpenAlex serving its works file and put the
    /// requests each review made beside the plan's estimate, with the request model's
    /// constants chosen leaving that dataset out; print each run's ratio and how many fall
    /// within ±30 %.
    Estimate(EstimateBenchArgs),
    /// Run whole offline reviews of some works files with the corpus scaled by copies of the
    /// records under new ids; print each step's wall time at each scale and its growth exponent
    /// between scales (1.0 = linear in the corpus).
    Pipeline(PipelineBenchArgs),
    /// Start `litrev serve` in this process, follow one run with many Server-Sent Events clients
    /// while other runs go on, and print the events each received, any client that missed or
    /// reordered one, and the delivery latency, against one client on one run.
    Serve(ServeBenchArgs),
}

/// `litrev bench serve`.
#[derive(Debug, Args)]
pub struct ServeBenchArgs {
    /// Clients following the first run.
    #[arg(long, default_value_t = 50)]
    pub clients: usize,
    /// Runs at once (a quick review each).
    #[arg(long, default_value_t = 2)]
    pub runs: usize,
    /// OpenAlex works files each run reviews (default: synergy/works/Donners_2021.jsonl.gz in
    /// LITREV_TESTDATA, default ../shared/data).
    #[arg(long, num_args = 1..)]
    pub works: Vec<PathBuf>,
    /// The question.
    #[arg(
        long,
        default_value = "Pharmacokinetics and associated efficacy of emicizumab in humans"
    )]
    pub question: String,
}

/// `litrev bench sweep`.
#[derive(Debug, Args)]
pub struct SweepBenchArgs {
    /// OpenAlex works files (.jsonl or .jsonl.gz), each a dataset; with no --works and no
    /// --csv, every works file and CSV under `synergy/` in LITREV_TESTDATA (default
    /// ../shared/data).
    #[arg(long, num_args = 1..)]
    pub works: Vec<PathBuf>,
    /// Title/abstract/label CSVs (.csv or .csv.gz), each a dataset.
    #[arg(long, num_args = 1..)]
    pub csv: Vec<PathBuf>,
    /// Tiers to run each dataset at (default: all four).
    #[arg(long, num_args = 1..)]
    pub tier: Vec<Tier>,
    /// Only the hostile copies, or only the records as they are (default: both).
    #[arg(long, value_parser = ["plain", "hostile"])]
    pub only: Option<String>,
    /// Seed of the hostile mutations.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// `litrev bench workers`.
#[derive(Debug, Args)]
pub struct WorkersBenchArgs {
    /// The store the workers share: a PostgreSQL URL (`scripts/postgres.sh start DIR` prints
    /// one), or a SQLite file.
    #[arg(long, env = "LITREV_DB")]
    pub db: PathBuf,
    /// OpenAlex works files reviewed in turn (default: Donners_2021, Sep_2021 and Nelson_2002
    /// under synergy/works in LITREV_TESTDATA).
    #[arg(long, num_args = 1..)]
    pub works: Vec<PathBuf>,
    /// Runs queued in each round.
    #[arg(long, default_value_t = 6)]
    pub runs: usize,
    /// Workers of the team round (one of them is killed).
    #[arg(long, default_value_t = 3)]
    pub workers: usize,
    /// Seconds a claim holds without a heartbeat.
    #[arg(long, default_value_t = 2.0)]
    pub lease: f64,
    /// Seed of the moment the worker is killed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// `litrev bench estimate`.
#[derive(Debug, Args)]
pub struct EstimateBenchArgs {
    /// OpenAlex works files (.jsonl or .jsonl.gz), each a dataset; with none, every works file
    /// under `synergy/works` in LITREV_TESTDATA (default ../shared/data).
    #[arg(long, num_args = 1..)]
    pub works: Vec<PathBuf>,
    /// Tiers to review each dataset at (default: quick and standard).
    #[arg(long, num_args = 1..)]
    pub tier: Vec<Tier>,
}

/// `litrev bench pipeline`.
#[derive(Debug, Args)]
pub struct PipelineBenchArgs {
    /// OpenAlex works files (.jsonl or .jsonl.gz), reviewed together; with none, every works
    /// file under `synergy/works` in LITREV_TESTDATA (default ../shared/data).
    #[arg(long, num_args = 1..)]
    pub works: Vec<PathBuf>,
    /// The question.
    #[arg(
        long,
        default_value = "Treatments and their effects in clinical research"
    )]
    pub question: String,
    /// The tier.
    #[arg(long, default_value = "exhaustive")]
    pub tier: Tier,
    /// Copies of the records to review, comma-separated (1: the files as given).
    #[arg(long, value_delimiter = ',', default_value = "1,4,16")]
    pub scale: Vec<usize>,
    /// Keep each scale's review in OUT/scale-N/review (default: a temporary folder).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `litrev bench embed`.
#[derive(Debug, Args)]
pub struct EmbedBenchArgs {
    /// OpenAlex works files (.jsonl or .jsonl.gz).
    #[arg(long, num_args = 1.., required = true)]
    pub works: Vec<PathBuf>,
    /// Longest input in tokens; longer texts are truncated.
    #[arg(long, default_value_t = 256)]
    pub max_tokens: usize,
    /// Batches encoded at once, one thread each (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub workers: usize,
    /// Real tokens packed into one batch.
    #[arg(long, default_value_t = 1024)]
    pub batch_tokens: usize,
}

/// `litrev bench snowball`.
#[derive(Debug, Args)]
pub struct SnowballBenchArgs {
    /// OpenAlex works file (.jsonl or .jsonl.gz): the pool the local server serves.
    #[arg(long)]
    pub works: PathBuf,
    /// SYNERGY labels file (`openalex_id,…,label_included`, .csv or .csv.gz).
    #[arg(long)]
    pub labels: PathBuf,
    /// The review paper's OpenAlex record (.json); its title is the question.
    #[arg(long)]
    pub review: PathBuf,
    /// How many of the most-cited included studies are the seeds.
    #[arg(long, default_value_t = 2)]
    pub seeds: usize,
    /// The tier whose plan (search depth) and stage limit the run uses; the per-stage
    /// expansion cap is lifted.
    #[arg(long, default_value = "exhaustive")]
    pub tier: Tier,
    /// Overrides the tier's stage limit.
    #[arg(long)]
    pub max_stages: Option<u32>,
    /// Relevance threshold as a share of the core's median score (default: the plan's).
    #[arg(long)]
    pub relevance_threshold: Option<f32>,
    /// Links to this many relevant works make a work relevant (0: never).
    #[arg(long)]
    pub structural_links: Option<usize>,
    /// Weight of citation-link similarity against text similarity.
    #[arg(long)]
    pub link_weight: Option<f32>,
    /// Weight of reach (visits of a walk along citations from the best works) against text
    /// similarity.
    #[arg(long)]
    pub reach_weight: Option<f32>,
    /// Best works that join the relevance profile as feedback.
    #[arg(long)]
    pub feedback_works: Option<usize>,
    /// How many works citing both, or references shared, make a co-citation or coupling link.
    #[arg(long)]
    pub link_strength: Option<usize>,
    /// A language model to settle the works in doubt at each stage, as in a review.
    #[command(flatten)]
    pub model: LlmArgs,
}

/// `litrev bench snowball-cv`.
#[derive(Debug, Args)]
pub struct SnowballCvArgs {
    /// The shared data folder (default: $LITREV_TESTDATA, else ../shared/data).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// The tier whose plan and search depth the runs use.
    #[arg(long, default_value = "exhaustive")]
    pub tier: Tier,
}

/// `litrev bench roles`.
#[derive(Debug, Args)]
pub struct RolesBenchArgs {
    /// Works files (.jsonl[.gz]), title/abstract CSVs (.csv[.gz]) or PubMed/MEDLINE XML
    /// (.xml[.gz]), one dataset each; default: every such file of the shared data folder.
    #[arg(long, num_args = 1..)]
    pub works: Vec<PathBuf>,
    /// Score a dataset only when it has at least this many structured abstracts.
    #[arg(long, default_value_t = 20)]
    pub min_abstracts: usize,
    /// How much the transitions between roles count (0: each sentence on its own).
    #[arg(long)]
    pub sequence_weight: Option<f32>,
    /// Passes over the training sentences.
    #[arg(long)]
    pub epochs: Option<usize>,
    /// AdaGrad's step size.
    #[arg(long)]
    pub learning_rate: Option<f32>,
    /// The second pass's step size (it reads each sentence again with the first pass's
    /// readings of it and its neighbours).
    #[arg(long, conflicts_with = "no_second_pass")]
    pub second_pass_learning_rate: Option<f32>,
    /// Train the first pass alone, as litrev's role model was before the second pass.
    #[arg(long)]
    pub no_second_pass: bool,
    /// L2 penalty on the weights.
    #[arg(long)]
    pub l2: Option<f32>,
    /// Features seen in fewer training sentences than this are left out.
    #[arg(long)]
    pub min_count: Option<usize>,
    /// Write the structured abstracts as read (JSON lines: dataset, sentences, roles, and the
    /// roles the model left out of their dataset gave them as `predicted`) here.
    #[arg(long)]
    pub dump: Option<PathBuf>,
    /// Train on every dataset and write the model to --out instead of cross-validating.
    #[arg(long, requires = "out")]
    pub train: bool,
    /// Where --train writes the model.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `litrev bench themes`.
#[derive(Debug, Args)]
pub struct ThemesBenchArgs {
    /// OpenAlex works files (.jsonl or .jsonl.gz), one research area each.
    #[arg(long, num_args = 1.., required = true)]
    pub works: Vec<PathBuf>,
    /// Write `openalex_id,theme` lines here.
    #[arg(long)]
    pub themes_out: Option<PathBuf>,
}

/// `litrev bench screen`.
#[derive(Debug, Args)]
pub struct ScreenBenchArgs {
    /// OpenAlex works file (.jsonl or .jsonl.gz); needs --labels.
    #[arg(long, requires = "labels", conflicts_with = "csv")]
    pub works: Option<PathBuf>,
    /// SYNERGY labels file (`openalex_id,…,label_included`, .csv or .csv.gz).
    #[arg(long)]
    pub labels: Option<PathBuf>,
    /// A `title,abstract,label_included` CSV (e.g. an ASReview dataset), instead of --works.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// How many prior pairs (one included, one excluded) to start from, seeds 0, 1, …
    #[arg(long, default_value_t = 5)]
    pub repeats: u64,
    /// Write the screening order of the first simulation here, one id per line.
    #[arg(long)]
    pub order_out: Option<PathBuf>,
    /// Leave-one-dataset-out cross-validation over every labelled set in --data: for each
    /// dataset, the WSS@95 of the ranker setting chosen on all the others, beside the shipped
    /// setting's.
    #[arg(long, conflicts_with_all = ["works", "csv"])]
    pub cv: bool,
    /// The shared data folder --cv reads (default: LITREV_TESTDATA, else ../shared/data).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// With --cv: write each dataset as NAME.csv (record_id,title,abstract,label_included)
    /// and NAME.priors (seed, included row, excluded row) for `scripts/asreview-simulate.sh`.
    #[arg(long)]
    pub asreview_out: Option<PathBuf>,
    /// With --cv: the asreview.tsv `scripts/asreview-simulate.sh` wrote, printed as a column.
    #[arg(long)]
    pub asreview: Option<PathBuf>,
    /// With --cv: write every setting's WSS@95 on every dataset here (tab-separated: setting,
    /// dataset, wss_95), for a reading of where a setting wins and loses.
    #[arg(long)]
    pub wss_out: Option<PathBuf>,
    /// Without --cv: how many times as much the included records weigh as the excluded
    /// (default: the shipped setting's).
    #[arg(long, conflicts_with = "cv")]
    pub class_ratio: Option<f32>,
    /// Without --cv: how much the sentence embedding weighs beside the words, 0 for none
    /// (default: the shipped setting's).
    #[arg(long, conflicts_with = "cv")]
    pub embedding_weight: Option<f32>,
    /// Without --cv: the SVM's regularisation C (default: the shipped setting's).
    #[arg(long, conflicts_with = "cv")]
    pub svm_c: Option<f32>,
    /// Without --cv: rank on titles and abstracts alone, leaving subject keywords (MeSH
    /// headings, topics) and cited works unread, as ASReview reads a record.
    #[arg(long, conflicts_with = "cv")]
    pub title_abstract_only: bool,
}

/// The language model of a run or a benchmark.
#[derive(Debug, Args)]
pub struct LlmArgs {
    /// Use a language model: `openai` (OpenAI or any compatible server: Ollama, vLLM,
    /// llama.cpp; key in OPENAI_API_KEY) or `anthropic` (key in ANTHROPIC_API_KEY). It settles
    /// the works snowballing is unsure of and drafts the thematic sections, every drafted
    /// sentence citing the abstract sentences it draws on and checked against them. Without it
    /// nothing is sent to a model and the review is written extractively.
    #[arg(long)]
    pub llm: Option<litrev::LlmKind>,
    /// The model (default: gpt-4o-mini for openai, claude-haiku-4-5 for anthropic).
    #[arg(long, requires = "llm")]
    pub llm_model: Option<String>,
    /// The API's base URL (default: https://api.openai.com/v1 or https://api.anthropic.com;
    /// e.g. http://127.0.0.1:11434/v1 for Ollama).
    #[arg(long, env = "LITREV_LLM_URL")]
    pub llm_url: Option<String>,
    /// The model's price as INPUT,OUTPUT US dollars per million tokens (e.g. 0.15,0.60), for a
    /// model litrev has no list price for.
    #[arg(long, requires = "llm")]
    pub llm_price: Option<litrev::LlmPrice>,
    /// Most US dollars the LLM calls may cost: a call that could go past it is not sent.
    #[arg(long, requires = "llm", value_parser = parse_budget)]
    pub budget: Option<f64>,
}

impl LlmArgs {
    /// The model's settings, when `--llm` is given (no criteria, no batching).
    pub fn options(&self) -> Option<litrev::LlmOptions> {
        self.llm.map(|provider| litrev::LlmOptions {
            model: self
                .llm_model
                .clone()
                .unwrap_or_else(|| provider.default_model().to_owned()),
            url: self.llm_url.clone(),
            budget_usd: self.budget,
            price: self.llm_price,
            ..litrev::LlmOptions::new(provider)
        })
    }
}

/// What a review covers: its tier, seeds and eligibility rules.
#[derive(Debug, Args)]
pub struct ScopeArgs {
    /// A work to start from: an OpenAlex id (W…) or a DOI; repeatable.
    #[arg(long)]
    pub seed: Vec<WorkId>,
    /// Start from every work of a library export (any format --library reads: BibTeX,
    /// CSL-JSON, RIS, MEDLINE, PubMed XML, Web of Science, a CSV table), by its DOI or other
    /// id; repeatable.
    #[arg(long, value_name = "FILE")]
    pub seeds_from: Vec<PathBuf>,
    /// How thorough and long the review is: quick, standard, comprehensive, exhaustive.
    #[arg(long, default_value = "quick")]
    pub tier: Tier,
    /// Years to cover, `FROM-TO`, `FROM-` or `-TO` (e.g. 2000-2020).
    #[arg(long, value_parser = litrev::parse_years)]
    pub years: Option<(Option<i32>, Option<i32>)>,
    /// A language to cover (ISO 639-1 code, e.g. en); repeatable. Works of unknown language pass.
    #[arg(long)]
    pub language: Vec<String>,
    /// A kind of work to cover (article, proceedings-article, book-chapter, book, preprint,
    /// thesis, report, review, dataset, editorial, other); repeatable.
    #[arg(long)]
    pub kind: Vec<WorkKind>,
    /// A term whose presence in the title or abstract excludes a work; repeatable.
    #[arg(long)]
    pub exclude_term: Vec<String>,
}

impl ScopeArgs {
    /// The seeds: those named with --seed, then the works of each --seeds-from file.
    ///
    /// # Errors
    /// When a file cannot be read as a library export or names no work.
    pub fn seeds(&self) -> anyhow::Result<Vec<WorkId>> {
        let mut seeds = self.seed.clone();
        for file in &self.seeds_from {
            let notice = |event: &litrev::Event| {
                if let litrev::Event::Notice { message } = event {
                    eprintln!("note: {message}");
                }
            };
            for id in litrev::seeds_from(file, &notice)? {
                if !seeds.contains(&id) {
                    seeds.push(id);
                }
            }
        }
        Ok(seeds)
    }

    /// The eligibility rules.
    pub fn filters(&self) -> litrev::model::Filters {
        litrev::model::Filters {
            year_from: self.years.and_then(|(from, _)| from),
            year_to: self.years.and_then(|(_, to)| to),
            languages: self.language.clone(),
            kinds: self.kind.clone(),
            exclude_terms: self.exclude_term.clone(),
        }
    }
}

/// `litrev plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The research question, in quotes.
    pub question: String,
    /// The scope the plan is made for.
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Write the plan (TOML) here; `-` prints it.
    #[arg(long, required_unless_present = "estimate")]
    pub out: Option<PathBuf>,
    /// Print what the plan is expected to ask each source for and cost (requests, dollars,
    /// time waiting on the APIs), as JSON with --json; with --out the plan is written too.
    #[arg(long)]
    pub estimate: bool,
    /// With --estimate: the estimate as JSON.
    #[arg(long, requires = "estimate")]
    pub json: bool,
    /// Sources to probe (as `review --source`): a quick search whose works give the brief its
    /// disciplines and may raise up to two questions; none: no probe. The estimate is for
    /// these sources (none: for `review`'s default, openalex).
    #[arg(long)]
    pub source: Vec<String>,
    /// Sites searched through the web search provider, as `review --site` (needs --source
    /// brave or tavily): one web search each in the plan.
    #[arg(long, value_name = "SITE")]
    pub site: Vec<String>,
    /// The language model a review of the plan would use: the estimate then gives the most
    /// calls, tokens and dollars it may cost.
    #[command(flatten)]
    pub model: LlmArgs,
    /// Take the default answer to every clarifying question (also when not on a terminal).
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
}

/// `litrev review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The research question, in quotes (with --plan: the plan's, unless given).
    #[arg(required_unless_present = "plan")]
    pub question: Option<String>,
    /// Run this plan, as written by `litrev plan` and perhaps edited, instead of planning from
    /// the question; the run records what was changed from the plan litrev would generate.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "seeds_from", "tier", "years", "language", "kind", "exclude_term"])]
    pub plan: Option<PathBuf>,
    /// Where works come from: `snapshot:PATH` (an OpenAlex .jsonl/.jsonl.gz file or a folder of
    /// them; repeat for several), or live APIs separated by commas: openalex, semantic-scholar,
    /// arxiv, pubmed, crossref, huggingface (Hugging Face's paper search: machine-learning
    /// preprints by arXiv id; HF_TOKEN optional), openlibrary (Open Library: books for the
    /// plan's book searches, beside OpenAlex's), and the web search providers brave (Brave
    /// Search; needs BRAVE_API_KEY) and tavily (Tavily; needs TAVILY_API_KEY): the plan then
    /// adds web searches for grey literature, screened like any record.
    #[arg(long, default_value = "openalex")]
    pub source: Vec<String>,
    /// The scope: tier, seeds and eligibility rules (taken from the plan with --plan).
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Output folder (default: reviews/<words of the question>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Approve the screening without stopping at the gate.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Store the run as queued, print its id and return: a `litrev worker` on the same store
    /// drives it.
    #[arg(long)]
    pub queue: bool,
    /// Probe the sources first and, when the research brief raises clarifying questions,
    /// stop before searching (exit code 3) until `litrev resume RUN --answer …` answers them.
    #[arg(long, conflicts_with = "plan")]
    pub clarify: bool,
    /// A web page to include as grey literature (a report, an agency's page); repeatable. Pages
    /// from hosts that are not scholarly sources pause the run for approval (--yes approves);
    /// loopback, private and link-local addresses are refused unless LITREV_ALLOW_HOSTS names
    /// the host.
    #[arg(long = "url", value_name = "URL")]
    pub url: Vec<String>,
    /// A file of web pages to include, one URL per line (blank lines and lines opening with #
    /// are skipped).
    #[arg(long, value_name = "FILE")]
    pub urls: Option<PathBuf>,
    /// A site whose pages are searched for the question's terms through the web search
    /// provider (needs --source brave or tavily): a host (who.int, nice.org.uk), or `sep` for the
    /// Stanford Encyclopedia of Philosophy (its entries cited as encyclopedia entries) or
    /// `philpapers`; repeatable.
    #[arg(long, value_name = "SITE")]
    pub site: Vec<String>,
    /// Your own library, whose records join the corpus and are screened like search hits: a
    /// Zotero database (the zotero.sqlite in Zotero's data folder, read from a copy while
    /// Zotero runs; its storage/ folder's PDFs are read as full texts) or an export of any
    /// reference manager or database: RIS, BibTeX/BibLaTeX, CSL-JSON, MEDLINE (.nbib), PubMed
    /// XML, Web of Science plain text or a CSV/TSV table with a title column (Scopus, IEEE
    /// Xplore, SpringerLink, ASReview), told by its content; or `zotero:` for the Zotero library
    /// on the Web API that LITREV_ZOTERO_LIBRARY and LITREV_ZOTERO_KEY name (`zotero:groups/ID`
    /// or `zotero:users/ID` for another); repeatable. Records without a DOI or a web address
    /// are left out.
    #[arg(long, value_name = "FILE")]
    pub library: Vec<PathBuf>,
    /// With --library zotero.sqlite or zotero:: only the items of this collection.
    #[arg(long, requires = "library", value_name = "NAME")]
    pub library_collection: Option<String>,
    /// A folder of your own full texts (PDF, JATS XML; a Zotero storage folder works), matched
    /// to the included works by the DOI, PMCID or PMID inside each file, else by title;
    /// repeatable.
    #[arg(long, value_name = "DIR")]
    pub fulltext_dir: Vec<PathBuf>,
    /// Most included works whose full text is downloaded (default: the tier's, 20/50/100/200).
    #[arg(long, value_name = "N")]
    pub max_fulltext: Option<usize>,
    /// The language model, if any.
    #[command(flatten)]
    pub model: LlmArgs,
    /// With --llm anthropic: send the themes' drafts as one Message Batch (half price; may
    /// take minutes to hours).
    #[arg(long, requires = "llm")]
    pub llm_batch: bool,
    /// With --llm: a text file of eligibility criteria that the model applies at screening to
    /// the works the ranking included and the best it left out (include or exclude, with a
    /// reason code and a rationale).
    #[arg(long, requires = "llm")]
    pub criteria: Option<PathBuf>,
    /// The citation style of review.html and review.docx: apa, mla, ieee, chicago
    /// (author-date), gb7714 (GB/T 7714-2015 numeric), or the path of a CSL 1.0 .csl file.
    #[arg(long, default_value = "apa")]
    pub style: litrev::StyleName,
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

impl ReviewArgs {
    /// The run's LLM settings, when `--llm` is given, with the criteria file's text.
    ///
    /// # Errors
    /// When the criteria file cannot be read or is empty.
    pub fn llm_options(&self) -> Result<Option<litrev::LlmOptions>, litrev::Error> {
        let criteria = match &self.criteria {
            Some(path) => {
                let bad = |message: String| litrev::Error::BadInput {
                    path: path.clone(),
                    message,
                };
                let text = std::fs::read_to_string(path).map_err(|error| {
                    bad(format!(
                        "{error}; write the eligibility criteria in a plain text file"
                    ))
                })?;
                if text.trim().is_empty() {
                    return Err(bad(
                        "the criteria file is empty: write the eligibility criteria in it, one per line"
                            .to_owned(),
                    ));
                }
                Some(text)
            }
            None => None,
        };
        Ok(self.model.options().map(|options| litrev::LlmOptions {
            batch: self.llm_batch,
            criteria,
            ..options
        }))
    }
}

/// A budget in US dollars: a non-negative number (a leading `$` is allowed).
fn parse_budget(text: &str) -> Result<f64, String> {
    text.trim()
        .trim_start_matches('$')
        .parse::<f64>()
        .ok()
        .filter(|budget| budget.is_finite() && *budget >= 0.0)
        .ok_or_else(|| format!("`{text}` is not an amount of US dollars: write e.g. --budget 0.50"))
}

/// `litrev resume`.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The run to continue (`litrev runs` lists them).
    pub run: RunId,
    /// An answer to the clarifying questions of a run whose status is needs_clarification,
    /// one per question in order (repeat the flag); questions left unanswered take their
    /// default.
    #[arg(long = "answer", value_name = "ANSWER")]
    pub answers: Vec<String>,
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `litrev screen`.
#[derive(Debug, Args)]
pub struct ScreenArgs {
    /// The run waiting at the gate (`litrev runs` lists them).
    pub run: RunId,
    /// Apply the decisions of this CSV (an edited screening.csv: `openalex_id` or `doi`, and
    /// `label_included` 1/0 or `decision` include/exclude) instead of screening interactively.
    #[arg(long)]
    pub import: Option<PathBuf>,
    /// Include the works your Zotero library holds (matched by DOI, else by title), as your
    /// labels: the library from LITREV_ZOTERO_LIBRARY and LITREV_ZOTERO_KEY, or `[zotero]` in
    /// config.toml.
    #[arg(long, conflicts_with = "import")]
    pub import_zotero: bool,
    /// With --import-zotero: only the items of this collection.
    #[arg(long, requires = "import_zotero")]
    pub collection: Option<String>,
    /// With --import-zotero: read your local Zotero library, this `zotero.sqlite` (in Zotero's
    /// data folder), instead of the Web API. It is copied first, so Zotero may stay open.
    #[arg(long, requires = "import_zotero", value_name = "PATH")]
    pub zotero_sqlite: Option<PathBuf>,
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
}

/// `litrev show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The run.
    pub run: RunId,
    /// The claim: a sentence of the review, numbered from 1 in reading order (see evidence.json).
    #[arg(long, required_unless_present = "telemetry")]
    pub claim: Option<usize>,
    /// Print what each step of the run cost: wall and CPU time, peak memory, requests, cache
    /// hits, LLM tokens and dollars.
    #[arg(long, conflicts_with = "claim")]
    pub telemetry: bool,
    /// Print the claim and its evidence (or the telemetry) as JSON.
    #[arg(long)]
    pub json: bool,
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
}

/// `litrev search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The research question, in quotes.
    pub question: String,
    /// Sources separated by commas (openalex, semantic-scholar, arxiv, pubmed, crossref) or
    /// `snapshot:PATH`; repeatable.
    #[arg(long, default_value = "openalex")]
    pub source: Vec<String>,
    /// How many hits per query: the tier's (quick 100, standard 200…).
    #[arg(long, default_value = "quick")]
    pub tier: Tier,
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
    /// Print the per-source table and the merged works as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `litrev serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where to listen; any address but loopback needs --token.
    #[arg(long, default_value = "127.0.0.1:8484")]
    pub addr: std::net::SocketAddr,
    /// The token every /api request must carry (`Authorization: Bearer TOKEN`; the page asks
    /// for it once).
    #[arg(long, env = "LITREV_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Runs driven at once; more wait in line.
    #[arg(long, default_value_t = 2)]
    pub workers: usize,
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
    /// Sources the MCP tools at /mcp search when a call names none (as `litrev mcp --source`).
    #[arg(long, default_value = "openalex")]
    pub source: Vec<String>,
}

/// `litrev mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Sources the tools search when a call names none: `snapshot:PATH`, or live APIs separated
    /// by commas (openalex, semantic-scholar, arxiv, pubmed, crossref); repeatable.
    #[arg(long, default_value = "openalex")]
    pub source: Vec<String>,
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
}

/// `litrev runs`.
#[derive(Debug, Args)]
pub struct RunsArgs {
    /// The store: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`) shared by a
    /// team (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long, env = "LITREV_DB")]
    pub db: Option<PathBuf>,
    /// Print the list as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}
