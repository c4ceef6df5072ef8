//! The command line, as clap sees it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use litrev::model::{RunId, Tier, WorkId};

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
pub enum Command {
    /// Run a whole review: plan, discover, snowball, screen, organise, write, audit, publish.
    Review(ReviewArgs),
    /// Continue a stopped run (after a crash, a kill, or the screening gate).
    Resume(ResumeArgs),
    /// Screen a run waiting at the gate: label records one by one (each label saved at once),
    /// or apply an edited screening.csv with --import; then `litrev resume RUN`.
    Screen(ScreenArgs),
    /// List the runs in the store.
    Runs(RunsArgs),
    /// Measure litrev on labelled data.
    #[command(subcommand)]
    Bench(BenchCommand),
}

/// `litrev bench …`.
#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Simulate a reviewer screening in litrev's order, the labels being the oracle; print
    /// WSS@95, WSS@100, RRF@10, ATD, records screened to 95 % and 100 % recall, and time.
    Screen(ScreenBenchArgs),
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
}

/// `litrev review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The research question, in quotes.
    pub question: String,
    /// Where works come from: `snapshot:PATH` (an OpenAlex .jsonl/.jsonl.gz file or a folder of
    /// them; repeat for several) or `openalex`.
    #[arg(long, default_value = "openalex")]
    pub source: Vec<String>,
    /// A work to start from: an OpenAlex id (W…) or a DOI; repeatable.
    #[arg(long)]
    pub seed: Vec<WorkId>,
    /// How thorough and long the review is: quick, standard, comprehensive, exhaustive.
    #[arg(long, default_value = "quick")]
    pub tier: Tier,
    /// Output folder (default: reviews/<words of the question>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Approve the screening without stopping at the gate.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// The store file (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `litrev resume`.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The run to continue (`litrev runs` lists them).
    pub run: RunId,
    /// The store file (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long)]
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
    /// The store file (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long)]
    pub db: Option<PathBuf>,
}

/// `litrev runs`.
#[derive(Debug, Args)]
pub struct RunsArgs {
    /// The store file (default: $LITREV_HOME/litrev.sqlite).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Print the list as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `reviews/emicizumab-haemophilia-prophylaxis`: the first content words of the question.
pub fn default_out_dir(question: &str) -> PathBuf {
    let words: Vec<String> = question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.len() > 3)
        .take(5)
        .map(str::to_lowercase)
        .collect();
    let slug = if words.is_empty() {
        "review".to_owned()
    } else {
        words.join("-")
    };
    PathBuf::from("reviews").join(slug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_output_folder_is_named_after_the_question() {
        assert_eq!(
            default_out_dir("Pharmacokinetics and efficacy of emicizumab: a review"),
            PathBuf::from("reviews/pharmacokinetics-efficacy-emicizumab-review")
        );
        assert_eq!(default_out_dir("?"), PathBuf::from("reviews/review"));
    }
}
