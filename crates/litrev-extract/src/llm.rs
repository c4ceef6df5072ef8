//! Study cards with a language model, constrained to the text: the model is shown a paper's
//! numbered sentences (those the extractive reading finds speaking to some field, best first,
//! in text order) and answers, per field, sentence numbers only, in a JSON schema; code turns
//! the numbers into spans, so every span is a sentence of the stored text by construction and
//! is checked verbatim like any other. A call that fails or an answer that does not parse keeps
//! the extractive card and says so; running over the budget stops the step.

use std::collections::{BTreeMap, BTreeSet};

use litrev_llm::{JsonSchema, LlmProvider, LlmRequest, RequestSettings, STUDY_CARD, WorkSlots};
use litrev_model::{CardField, FullText, Locator, StudyCard, Work, WorkId};
use serde::{Deserialize, Serialize};

use crate::{candidates, card_span, study_card};

/// The ledger line the card calls are counted under.
pub const CARDS_PHASE: &str = "fulltext";

/// Spans the model may give a field.
const SPANS_PER_FIELD: usize = 3;

/// How the cards are asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct CardLlmConfig {
    /// The model.
    pub model: String,
    /// Most tokens of one answer.
    pub max_tokens: u32,
    /// Most sentences shown of one paper.
    pub max_sentences: usize,
}

impl CardLlmConfig {
    /// Settings for `model`: 120 sentences a paper, 400 tokens an answer.
    pub fn for_model(model: &str) -> CardLlmConfig {
        CardLlmConfig {
            model: model.to_owned(),
            max_tokens: 400,
            max_sentences: 120,
        }
    }
}

/// One paper to read: its work (for the prompt's year, kind and title), id, text and the
/// text's sha256.
#[derive(Debug, Clone, Copy)]
pub struct Paper<'a> {
    /// The work.
    pub work: &'a Work,
    /// Its id in the run.
    pub id: &'a WorkId,
    /// The sha256 of the stored text.
    pub sha256: &'a str,
    /// The text.
    pub text: &'a FullText,
}

/// What the model did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardLlmReport {
    /// Papers sent.
    pub asked: usize,
    /// Cards filled from the model's answer.
    pub filled: usize,
    /// Papers whose call failed or whose answer did not parse: their extractive card stands.
    pub kept_extractive: usize,
    /// Sentence numbers the model gave that no shown sentence has, dropped.
    pub unknown_numbers: usize,
}

/// The numbered sentences a paper is shown as: the best-scoring candidates of the extractive
/// reading, at most `max`, in text order (number 1 first).
fn shown(text: &FullText, max: usize) -> Vec<Locator> {
    let mut best: BTreeMap<Locator, f64> = BTreeMap::new();
    for found in candidates(text).into_values() {
        for (score, locator) in found {
            let entry = best.entry(locator).or_insert(score);
            *entry = entry.max(score);
        }
    }
    let mut ranked: Vec<(Locator, f64)> = best.into_iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.truncate(max);
    let mut locators: Vec<Locator> = ranked.into_iter().map(|(locator, _)| locator).collect();
    locators.sort();
    locators
}

/// The answer: per field name, sentence numbers.
type Answer = BTreeMap<String, Vec<i64>>;

/// The JSON schema of an answer: every field a list of sentence numbers.
fn answer_schema() -> JsonSchema {
    let properties: serde_json::Map<String, serde_json::Value> = CardField::ALL
        .iter()
        .map(|field| {
            (
                field.name().to_owned(),
                serde_json::json!({"type": "array", "items": {"type": "integer"}}),
            )
        })
        .collect();
    let required: Vec<&str> = CardField::ALL.iter().map(|field| field.name()).collect();
    JsonSchema {
        name: "study_card".to_owned(),
        schema: serde_json::json!({
            "type": "object",
            "additionalProperties": false,
            "required": required,
            "properties": properties,
        }),
    }
}

fn request(
    config: &CardLlmConfig,
    paper: &Paper<'_>,
    locators: &[Locator],
) -> Result<LlmRequest, litrev_llm::Error> {
    let sentences: Vec<String> = locators
        .iter()
        .enumerate()
        .filter_map(|(index, locator)| {
            let sentence = paper.text.span(locator)?;
            Some(format!("[{}] {}", index + 1, sentence.trim()))
        })
        .collect();
    let sentences = sentences.join("\n");
    let settings = RequestSettings {
        model: config.model.clone(),
        max_tokens: config.max_tokens,
        temperature: 0.0,
    };
    STUDY_CARD.request(
        &WorkSlots::of(paper.work).with(&[("sentences", sentences.as_str())]),
        &settings,
        CARDS_PHASE,
        answer_schema(),
    )
}

/// A card from an answer: each field's numbers, in range and not repeated, as spans of the
/// shown sentences; the count of numbers out of range.
fn card_of(paper: &Paper<'_>, locators: &[Locator], answer: &Answer) -> (StudyCard, usize) {
    let mut unknown = 0;
    let mut fields = BTreeMap::new();
    for field in CardField::ALL {
        let mut seen = BTreeSet::new();
        let spans: Vec<_> = answer
            .get(field.name())
            .into_iter()
            .flatten()
            .filter_map(|number| {
                let locator = usize::try_from(*number)
                    .ok()
                    .and_then(|number| number.checked_sub(1))
                    .and_then(|index| locators.get(index));
                if locator.is_none() {
                    unknown += 1;
                }
                locator.filter(|locator| seen.insert(**locator))
            })
            .take(SPANS_PER_FIELD)
            .filter_map(|locator| card_span(paper.text, *locator))
            .collect();
        if !spans.is_empty() {
            fields.insert(field, spans);
        }
    }
    let card = StudyCard {
        work: paper.id.clone(),
        format: paper.text.format,
        sha256: paper.sha256.to_owned(),
        fields,
    };
    (card, unknown)
}

/// Fills each paper's study card with the model, in one batch of calls.
///
/// # Errors
/// When the provider refuses a call for the budget, or the prompt cannot be filled: the step
/// must stop rather than carry on half-read.
pub fn llm_cards(
    llm: &dyn LlmProvider,
    config: &CardLlmConfig,
    papers: &[Paper<'_>],
) -> Result<(Vec<StudyCard>, CardLlmReport), litrev_llm::Error> {
    let shown: Vec<Vec<Locator>> = papers
        .iter()
        .map(|paper| shown(paper.text, config.max_sentences))
        .collect();
    let requests: Vec<LlmRequest> = papers
        .iter()
        .zip(&shown)
        .map(|(paper, locators)| request(config, paper, locators))
        .collect::<Result<_, _>>()?;
    let answers = llm.complete_all(&requests);
    let mut report = CardLlmReport {
        asked: papers.len(),
        ..CardLlmReport::default()
    };
    let mut cards = Vec::with_capacity(papers.len());
    for ((paper, locators), answer) in papers.iter().zip(&shown).zip(answers) {
        let answer = match answer {
            Err(error @ litrev_llm::Error::OverBudget { .. }) => return Err(error),
            Err(_) => None,
            Ok(response) => response.json::<Answer>().ok(),
        };
        match answer {
            Some(answer) => {
                let (card, unknown) = card_of(paper, locators, &answer);
                report.filled += 1;
                report.unknown_numbers += unknown;
                cards.push(card);
            }
            None => {
                report.kept_extractive += 1;
                cards.push(study_card(paper.id, paper.sha256, paper.text));
            }
        }
    }
    Ok((cards, report))
}
