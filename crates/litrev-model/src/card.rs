//! What litrev read in a work's full text: how it got the text (`Retrieval`) and the study card
//! filled from it (`StudyCard`), every field a list of verbatim spans with their locators, or
//! empty for *not reported*.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Locator, TextFormat, WorkId};

/// The fields of a study card, in the order a characteristics table shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardField {
    /// What the study set out to do.
    Aim,
    /// Its design (randomised trial, cohort, case-control, survey, model…).
    Design,
    /// Who or what was studied.
    Population,
    /// How many participants, patients, samples or cases.
    SampleSize,
    /// Where and when.
    Setting,
    /// Interventions or exposures.
    Interventions,
    /// What they were compared with.
    Comparators,
    /// Outcomes and how they were measured.
    Outcomes,
    /// Key results, with their numbers.
    Results,
    /// Limitations the authors state.
    Limitations,
    /// What the authors say should come next.
    FutureWork,
    /// Where the data and code are.
    DataAvailability,
}

impl CardField {
    /// Every field, in table order.
    pub const ALL: [CardField; 12] = [
        CardField::Aim,
        CardField::Design,
        CardField::Population,
        CardField::SampleSize,
        CardField::Setting,
        CardField::Interventions,
        CardField::Comparators,
        CardField::Outcomes,
        CardField::Results,
        CardField::Limitations,
        CardField::FutureWork,
        CardField::DataAvailability,
    ];

    /// The snake_case name used in files (`sample_size`).
    pub fn name(self) -> &'static str {
        match self {
            CardField::Aim => "aim",
            CardField::Design => "design",
            CardField::Population => "population",
            CardField::SampleSize => "sample_size",
            CardField::Setting => "setting",
            CardField::Interventions => "interventions",
            CardField::Comparators => "comparators",
            CardField::Outcomes => "outcomes",
            CardField::Results => "results",
            CardField::Limitations => "limitations",
            CardField::FutureWork => "future_work",
            CardField::DataAvailability => "data_availability",
        }
    }

    /// The heading a table gives the field (`Sample size`).
    pub fn heading(self) -> &'static str {
        match self {
            CardField::Aim => "Aim",
            CardField::Design => "Design",
            CardField::Population => "Population",
            CardField::SampleSize => "Sample size",
            CardField::Setting => "Setting",
            CardField::Interventions => "Interventions or exposures",
            CardField::Comparators => "Comparators",
            CardField::Outcomes => "Outcomes and measures",
            CardField::Results => "Key results",
            CardField::Limitations => "Limitations",
            CardField::FutureWork => "Future work",
            CardField::DataAvailability => "Data and code availability",
        }
    }
}

impl fmt::Display for CardField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a CSV cell or table cell says for a field the text does not report.
pub const NOT_REPORTED: &str = "not reported";

/// One verbatim span of a full text backing a card field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardSpan {
    /// The span's text, exactly as the stored full text has it at `locator`.
    pub text: String,
    /// Where it is.
    pub locator: Locator,
    /// How a citation points at it (`sec. Methods`, `p. 4`).
    pub pinpoint: String,
}

/// A work's study card: the fields its full text reports, each backed by verbatim spans.
/// A field absent from `fields` is *not reported*: the text was read and says nothing on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyCard {
    /// The work.
    pub work: WorkId,
    /// What the text was read from.
    pub format: TextFormat,
    /// The sha256 of the stored text the locators point into.
    pub sha256: String,
    /// The reported fields and their spans, in text order within a field.
    pub fields: BTreeMap<CardField, Vec<CardSpan>>,
}

impl StudyCard {
    /// The spans of one field (empty when not reported).
    pub fn spans(&self, field: CardField) -> &[CardSpan] {
        self.fields.get(&field).map_or(&[], Vec::as_slice)
    }
}

/// How a work's full text was obtained, or why only its abstract was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextStatus {
    /// Read from JATS XML.
    Jats,
    /// Read from a PDF.
    Pdf,
    /// Read from a web page.
    Html,
    /// Only the abstract: see the reason.
    AbstractOnly,
}

impl TextStatus {
    /// The snake_case name used in files.
    pub fn name(self) -> &'static str {
        match self {
            TextStatus::Jats => "jats",
            TextStatus::Pdf => "pdf",
            TextStatus::Html => "html",
            TextStatus::AbstractOnly => "abstract_only",
        }
    }
}

/// Why a work has no full text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingText {
    /// No open-access copy and no local file.
    NoCopy,
    /// Over the run's full-text budget.
    Budget,
    /// Every copy tried failed to download (or was refused).
    DownloadFailed,
    /// Every copy obtained failed to parse.
    ParseFailed,
}

impl MissingText {
    /// The snake_case name used in files.
    pub fn name(self) -> &'static str {
        match self {
            MissingText::NoCopy => "no_copy",
            MissingText::Budget => "budget",
            MissingText::DownloadFailed => "download_failed",
            MissingText::ParseFailed => "parse_failed",
        }
    }
}

/// What the full-text step did for one included work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retrieval {
    /// The work.
    pub work: WorkId,
    /// Full text (and in which format), or abstract only.
    pub status: TextStatus,
    /// Why abstract only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<MissingText>,
    /// Where the text came from (a file path or URL), or the last place tried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The sha256 of the stored text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// What went wrong with each copy tried, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

impl Retrieval {
    /// Whether a full text was read.
    pub fn has_text(&self) -> bool {
        self.status != TextStatus::AbstractOnly
    }
}
