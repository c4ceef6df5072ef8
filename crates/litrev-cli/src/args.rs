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
    /// List the runs in the store.
    Runs(RunsArgs),
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
