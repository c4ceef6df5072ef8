//! The LLM writer: each theme's parts drafted by a model from numbered evidence spans, every
//! sentence checked against the spans it cites, unsupported ones repaired or dropped.
//!
//! 1. The extractive writer lays out the review (abstract, introduction, method, the themes'
//!    overviews, discussion, gaps, conclusion, appendix). Spans it quotes outside the themes
//!    are kept out of the themes' evidence, so nothing is said twice.
//! 2. Each theme's evidence — sentences of its works' abstracts, a few per work, numbered `S1`,
//!    `S2`… across the review — goes to the model in one request per theme, all themes in
//!    parallel (or as one batch), asking for `{"sentences": [{"part", "text", "spans"}]}`.
//! 3. Code, not the model, turns span ids (in `spans`, or inline as `[[S12]]`) into citations
//!    of their works, and checks each sentence: it cites at least one span, every id exists,
//!    its words are the spans' words and its numbers are the spans' numbers
//!    (`litrev_text::check_support`, the rule the audit applies again).
//! 4. A sentence that fails goes back to the model with the reason and its evidence for a
//!    more cautious rewrite, for up to `repair_rounds` rounds; then it is dropped.
//!
//! Each sentence kept has `Basis::Paraphrase` with its spans, so `evidence.json`, the audit
//! and the exporters treat it like any other. A theme whose answer is unusable, or whose every
//! sentence was dropped, keeps its extractive parts.

use std::collections::{BTreeMap, BTreeSet};

use litrev_llm::{
    DRAFT_SECTION, JsonSchema, LlmProvider, LlmRequest, LlmResponse, REPAIR_SENTENCE,
    RequestSettings,
};
use litrev_model::{
    Basis, CiteForm, Paragraph, Review, Section, SectionKind, Segment, Sentence, SpanRef, WorkId,
};
use litrev_text::{Unsupported, check_support, is_boilerplate, support};
use serde::{Deserialize, Serialize};

use crate::evidence::{Role, Span, evidence_of};
use crate::extractive::{
    Drafting, MAX_SPAN_WORDS, MIN_SPAN_WORDS, even_groups, part, write_drafted_by,
};
use crate::prose::words_of;
use crate::{Error, WriteInput};

/// The ledger line of the drafting calls.
pub const DRAFT_PHASE: &str = "write.draft";
/// The ledger line of the repair calls.
pub const REPAIR_PHASE: &str = "write.repair";

/// Most sentences in one paragraph of a drafted part.
const SENTENCES_PER_PARAGRAPH: usize = 4;
/// Spans offered to a repair besides the ones the sentence cited: the closest in wording.
const REPAIR_ALTERNATIVES: usize = 5;

/// How the LLM writer asks the model.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmWriteConfig {
    /// The model.
    pub model: String,
    /// Sampling temperature (low: the task is faithful paraphrase, not invention).
    pub temperature: f32,
    /// Most tokens of a theme's draft.
    pub draft_max_tokens: u32,
    /// Most tokens of one repaired sentence.
    pub repair_max_tokens: u32,
    /// Rounds of repair before an unsupported sentence is dropped.
    pub repair_rounds: u32,
    /// Most evidence spans shown for one theme (breadth across works first).
    pub max_spans_per_section: usize,
    /// Most evidence spans of one work in a theme.
    pub max_spans_per_work: usize,
}

impl LlmWriteConfig {
    /// Settings for `model`: temperature 0.2, 3,000 tokens a draft, 400 a repair, 2 repair
    /// rounds, up to 40 spans a theme and 3 a work.
    pub fn for_model(model: &str) -> LlmWriteConfig {
        LlmWriteConfig {
            model: model.to_owned(),
            temperature: 0.2,
            draft_max_tokens: 3_000,
            repair_max_tokens: 400,
            repair_rounds: 2,
            max_spans_per_section: 40,
            max_spans_per_work: 3,
        }
    }
}

/// What the LLM writer did, for the run record.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LlmWriteReport {
    /// Theme sections sent to the model.
    pub sections: usize,
    /// Evidence spans shown across them.
    pub evidence_spans: usize,
    /// Sentences the model drafted.
    pub drafted: usize,
    /// Drafted sentences that passed the check at once.
    pub accepted_at_once: usize,
    /// Sentences that passed after a repair.
    pub repaired: usize,
    /// Sentences dropped: still unsupported after the last round, or dropped by the model.
    pub dropped: usize,
    /// Repair rounds run.
    pub repair_rounds: u32,
    /// Themes that kept their extractive parts, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept_extractive: Vec<String>,
    /// The dropped sentences with why, for people checking the model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped_sentences: Vec<DroppedSentence>,
}

/// A drafted sentence that did not make it into the review.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DroppedSentence {
    /// The theme.
    pub section: String,
    /// The sentence as the model last wrote it.
    pub text: String,
    /// Why it failed the last check.
    pub why: String,
}

/// The review and what the writer did.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmWritten {
    /// The review, the same structure as the extractive writer's.
    pub review: Review,
    /// Counts of drafting and repair.
    pub report: LlmWriteReport,
}

/// Writes the review with `llm` drafting the themes' parts.
///
/// # Errors
/// When a call fails (the API refuses or is unreachable after retries, or the budget would be
/// exceeded): the write step then fails and can be resumed; answers already received are in
/// the response cache.
pub fn write_with_llm(
    input: &WriteInput<'_>,
    llm: &dyn LlmProvider,
    config: &LlmWriteConfig,
) -> Result<LlmWritten, Error> {
    let mut review = write_drafted_by(input, Drafting::Llm);
    let mut report = LlmWriteReport::default();
    let plans = plan_sections(input, &review, config);
    report.sections = plans
        .iter()
        .filter(|plan| !plan.evidence.is_empty())
        .count();
    report.evidence_spans = plans.iter().map(|plan| plan.evidence.len()).sum();

    let Drafts { mut slots, pending } = draft_all(input, llm, config, &plans, &mut report)?;
    repair_all(llm, config, &plans, pending, &mut slots, &mut report)?;
    place_drafts(&mut review, &plans, slots, &mut report);
    Ok(LlmWritten { review, report })
}

/// Each section's checked sentences by slot, and those that failed their check.
struct Drafts {
    slots: BTreeMap<usize, Vec<Slot>>,
    pending: Vec<Pending>,
}

/// Drafts every theme with evidence at once and checks each drafted sentence.
fn draft_all(
    input: &WriteInput<'_>,
    llm: &dyn LlmProvider,
    config: &LlmWriteConfig,
    plans: &[SectionPlan],
    report: &mut LlmWriteReport,
) -> Result<Drafts, Error> {
    let drafting: Vec<&SectionPlan> = plans
        .iter()
        .filter(|plan| !plan.evidence.is_empty())
        .collect();
    let requests = drafting
        .iter()
        .map(|plan| draft_request(input, plan, config))
        .collect::<Result<Vec<_>, _>>()?;
    let answers = llm.complete_all(&requests);
    let mut slots: BTreeMap<usize, Vec<Slot>> = BTreeMap::new();
    let mut pending: Vec<Pending> = Vec::new();
    for (plan, answer) in drafting.iter().zip(answers) {
        let drafted = match parse_answer(answer?) {
            Ok(drafted) => drafted,
            Err(why) => {
                report
                    .kept_extractive
                    .push(format!("{}: {why}", plan.heading));
                continue;
            }
        };
        let section_slots = slots.entry(plan.section).or_default();
        for sentence in drafted {
            report.drafted += 1;
            let slot = section_slots.len();
            section_slots.push(Slot {
                part: Part::parse(sentence.part.as_deref()),
                accepted: Vec::new(),
            });
            match check(plan, &sentence) {
                Checked::Accepted(built) => {
                    report.accepted_at_once += 1;
                    section_slots[slot].accepted.push(built);
                }
                Checked::Empty => report.dropped += 1,
                Checked::Failed(problem) => pending.push(Pending {
                    section: plan.section,
                    slot,
                    sentence,
                    problem,
                }),
            }
        }
    }
    Ok(Drafts { slots, pending })
}

/// Asks the model to rewrite the sentences that failed their check, a few rounds at most;
/// what still fails is dropped (and said so in the report).
fn repair_all(
    llm: &dyn LlmProvider,
    config: &LlmWriteConfig,
    plans: &[SectionPlan],
    mut pending: Vec<Pending>,
    slots: &mut BTreeMap<usize, Vec<Slot>>,
    report: &mut LlmWriteReport,
) -> Result<(), Error> {
    let by_section: BTreeMap<usize, &SectionPlan> =
        plans.iter().map(|plan| (plan.section, plan)).collect();
    for round in 1..=config.repair_rounds {
        if pending.is_empty() {
            break;
        }
        report.repair_rounds = round;
        let requests = pending
            .iter()
            .map(|item| repair_request(by_section[&item.section], item, config))
            .collect::<Result<Vec<_>, _>>()?;
        let answers = llm.complete_all(&requests);
        let mut still = Vec::new();
        for (item, answer) in pending.into_iter().zip(answers) {
            let plan = by_section[&item.section];
            let rewrites = match parse_answer(answer?) {
                Ok(rewrites) => rewrites,
                Err(why) => {
                    // The same request would get the same (cached) answer: drop it now.
                    drop_sentence(report, plan, &item.sentence.text, &why);
                    continue;
                }
            };
            if rewrites.is_empty() {
                drop_sentence(
                    report,
                    plan,
                    &item.sentence.text,
                    &format!("the model dropped it ({})", item.problem),
                );
                continue;
            }
            let mut failed = None;
            let mut passed = false;
            for rewrite in rewrites {
                match check(plan, &rewrite) {
                    Checked::Accepted(built) => {
                        passed = true;
                        if let Some(slot) = slots
                            .get_mut(&item.section)
                            .and_then(|section| section.get_mut(item.slot))
                        {
                            slot.accepted.push(built);
                        }
                    }
                    Checked::Empty => {}
                    Checked::Failed(problem) => failed = Some((rewrite, problem)),
                }
            }
            match failed {
                // Part of a split rewrite passed: the rest is dropped rather than retried.
                Some((rewrite, problem)) if passed => {
                    drop_sentence(report, plan, &rewrite.text, &problem);
                }
                Some((rewrite, problem)) => still.push(Pending {
                    section: item.section,
                    slot: item.slot,
                    sentence: rewrite,
                    problem,
                }),
                None => {}
            }
            if passed {
                report.repaired += 1;
            }
        }
        pending = still;
    }
    for item in pending {
        drop_sentence(
            report,
            by_section[&item.section],
            &item.sentence.text,
            &item.problem,
        );
    }
    Ok(())
}

/// Puts each theme's checked sentences in place of its extractive parts; a theme none of whose
/// sentences passed keeps them.
fn place_drafts(
    review: &mut Review,
    plans: &[SectionPlan],
    mut slots: BTreeMap<usize, Vec<Slot>>,
    report: &mut LlmWriteReport,
) {
    for plan in plans {
        let Some(section_slots) = slots.remove(&plan.section) else {
            continue;
        };
        let sentences: Vec<(Part, Sentence)> = section_slots
            .into_iter()
            .flat_map(|slot| {
                let part = slot.part;
                slot.accepted
                    .into_iter()
                    .map(move |sentence| (part, sentence))
            })
            .collect();
        if sentences.is_empty() {
            report.kept_extractive.push(format!(
                "{}: no drafted sentence passed the check",
                plan.heading
            ));
            continue;
        }
        if let Some(section) = review.sections.get_mut(plan.section) {
            section.subsections = drafted_parts(sentences);
        }
    }
}

/// One theme as the model sees it.
struct SectionPlan {
    /// Index of the theme's section in the review.
    section: usize,
    heading: String,
    /// The spans offered, with their ids, in id order.
    evidence: Vec<Evidence>,
    /// About how many words the theme's parts should have.
    words: usize,
}

struct Evidence {
    id: String,
    span: Span,
}

/// A drafted sentence's place in its theme, filled when it (or its repair) passes.
struct Slot {
    part: Part,
    accepted: Vec<Sentence>,
}

/// A sentence waiting for repair.
struct Pending {
    section: usize,
    slot: usize,
    sentence: Drafted,
    problem: String,
}

/// The model's answer.
#[derive(Debug, Deserialize)]
struct Answer {
    sentences: Vec<Drafted>,
}

/// One sentence as the model wrote it.
#[derive(Debug, Clone, Deserialize)]
struct Drafted {
    #[serde(default)]
    part: Option<String>,
    #[serde(default)]
    text: String,
    /// Ids as strings (`"S12"`) or, from small models, bare numbers.
    #[serde(default)]
    spans: Vec<serde_json::Value>,
}

/// What a sentence came to.
enum Checked {
    Accepted(Sentence),
    /// Nothing to say (no words once the placeholders are gone): dropped quietly.
    Empty,
    Failed(String),
}

/// The part of a theme a sentence belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    Findings,
    Methods,
    Debates,
    Gaps,
}

impl Part {
    /// Reads the model's part name leniently; unknown or missing means findings.
    fn parse(name: Option<&str>) -> Part {
        let name = name.unwrap_or_default().trim().to_lowercase();
        if name.starts_with("method") || name.starts_with("design") {
            Part::Methods
        } else if name.starts_with("debat")
            || name.starts_with("disagree")
            || name.starts_with("tension")
        {
            Part::Debates
        } else if name.starts_with("gap") || name.starts_with("limit") || name.starts_with("future")
        {
            Part::Gaps
        } else {
            Part::Findings
        }
    }

    fn name(self) -> &'static str {
        match self {
            Part::Findings => "findings",
            Part::Methods => "methods",
            Part::Debates => "debates",
            Part::Gaps => "gaps",
        }
    }

    fn heading(self) -> &'static str {
        match self {
            Part::Findings => "Key findings",
            Part::Methods => "Methods used",
            Part::Debates => "Debates",
            Part::Gaps => "Gaps",
        }
    }
}

/// The themes' evidence: for each theme section of the laid-out review, a few spans of each
/// of its works, the best roles first, not quoted elsewhere in the review, numbered across
/// the review.
fn plan_sections(
    input: &WriteInput<'_>,
    review: &Review,
    config: &LlmWriteConfig,
) -> Vec<SectionPlan> {
    let quoted_elsewhere: BTreeSet<(WorkId, usize)> = review
        .sections
        .iter()
        .filter(|section| section.kind != SectionKind::Theme)
        .flat_map(Section::walk)
        .flat_map(Section::own_sentences)
        .filter_map(|sentence| match &sentence.basis {
            Basis::Span(span) => Some((span.work.clone(), span.sentence)),
            _ => None,
        })
        .collect();
    let theme_sections = review
        .sections
        .iter()
        .enumerate()
        .filter(|(_, section)| section.kind == SectionKind::Theme);
    let mut next_id = 1;
    let mut plans = Vec::new();
    for ((section, laid_out), theme) in theme_sections.zip(&input.organisation.themes) {
        let per_work: Vec<Vec<Span>> = theme
            .works
            .iter()
            .filter_map(|id| Some((input.included.get(id)?, input.cards.get(id))))
            .map(|(work, card)| {
                let usable: Vec<Span> = evidence_of(work, card)
                    .into_iter()
                    .filter(|span| (MIN_SPAN_WORDS..=MAX_SPAN_WORDS).contains(&span.words))
                    .filter(|span| !is_boilerplate(&span.text))
                    .filter(|span| {
                        !quoted_elsewhere
                            .contains(&(span.locator.work.clone(), span.locator.sentence))
                    })
                    .collect();
                pick_spans(usable, config.max_spans_per_work)
            })
            .collect();
        // Breadth first: every work's best span, then every work's second…
        let mut chosen: Vec<Span> = Vec::new();
        let deepest = per_work.iter().map(Vec::len).max().unwrap_or(0);
        'rounds: for depth in 0..deepest {
            for spans in &per_work {
                if chosen.len() >= config.max_spans_per_section {
                    break 'rounds;
                }
                if let Some(span) = spans.get(depth) {
                    chosen.push(span.clone());
                }
            }
        }
        // Shown grouped by work, in the theme's order, each work's sentences in text order.
        let order: BTreeMap<&WorkId, usize> = theme
            .works
            .iter()
            .enumerate()
            .map(|(position, id)| (id, position))
            .collect();
        chosen.sort_by_key(|span| {
            (
                order.get(&span.locator.work).copied().unwrap_or(usize::MAX),
                span.locator.sentence,
            )
        });
        let evidence = chosen
            .into_iter()
            .map(|span| {
                let id = format!("S{next_id}");
                next_id += 1;
                Evidence { id, span }
            })
            .collect();
        let words = laid_out
            .subsections
            .iter()
            .flat_map(|part| part.paragraphs.iter())
            .flat_map(|paragraph| paragraph.sentences.iter())
            .map(words_of)
            .sum::<usize>()
            .max(120);
        plans.push(SectionPlan {
            section,
            heading: laid_out.heading.clone(),
            evidence,
            words,
        });
    }
    plans
}

/// Up to `count` spans of one work: a finding first, then a method, then a limit or open
/// question, then the rest by role; returned in that order of preference. Sentences that are
/// none of these (registration, funding, copyright) are never evidence.
fn pick_spans(mut spans: Vec<Span>, count: usize) -> Vec<Span> {
    spans.retain(|span| span.role != Role::Other);
    let groups: [&[Role]; 3] = [
        &[Role::Result, Role::Conclusion, Role::Objective],
        &[Role::Method],
        &[Role::Limitation, Role::FutureWork],
    ];
    let mut picked = Vec::new();
    for roles in groups {
        if picked.len() >= count {
            break;
        }
        if let Some(position) = spans.iter().position(|span| roles.contains(&span.role)) {
            picked.push(spans.remove(position));
        }
    }
    spans.sort_by_key(|span| (role_rank(span.role), span.locator.sentence));
    picked.extend(spans);
    picked.truncate(count);
    picked
}

fn role_rank(role: Role) -> u8 {
    match role {
        Role::Result => 0,
        Role::Conclusion => 1,
        Role::Limitation => 2,
        Role::FutureWork => 3,
        Role::Method => 4,
        Role::Objective => 5,
        Role::Background => 6,
        Role::Other => 7,
    }
}

/// Evidence lines as the prompts show them: `[S12] (result) text`.
fn evidence_lines<'a>(evidence: impl IntoIterator<Item = &'a Evidence>) -> String {
    evidence
        .into_iter()
        .map(|item| {
            let text = item
                .span
                .text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            format!(
                "[{}] ({}) {text}",
                item.id,
                item.span.role.name().replace('_', " ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The schema of both prompts' answers.
fn sentences_schema() -> JsonSchema {
    JsonSchema {
        name: "sentences".to_owned(),
        schema: serde_json::json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["sentences"],
            "properties": {
                "sentences": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "additionalProperties": false,
                        "required": ["part", "text", "spans"],
                        "properties": {
                            "part": {"type": "string", "enum": ["findings", "methods", "debates", "gaps"]},
                            "text": {"type": "string"},
                            "spans": {"type": "array", "items": {"type": "string"}},
                        },
                    },
                },
            },
        }),
    }
}

fn draft_request(
    input: &WriteInput<'_>,
    plan: &SectionPlan,
    config: &LlmWriteConfig,
) -> Result<LlmRequest, Error> {
    let words = plan.words.to_string();
    let evidence = evidence_lines(&plan.evidence);
    let settings = RequestSettings {
        model: config.model.clone(),
        max_tokens: config.draft_max_tokens,
        temperature: config.temperature,
    };
    Ok(DRAFT_SECTION.request(
        &[
            ("question", input.plan.question.trim()),
            ("theme", &plan.heading),
            ("words", &words),
            ("evidence", &evidence),
        ],
        &settings,
        DRAFT_PHASE,
        sentences_schema(),
    )?)
}

fn repair_request(
    plan: &SectionPlan,
    item: &Pending,
    config: &LlmWriteConfig,
) -> Result<LlmRequest, Error> {
    let cited = span_ids(&item.sentence);
    let mut offered: BTreeSet<usize> = plan
        .evidence
        .iter()
        .enumerate()
        .filter(|(_, evidence)| cited.contains(&evidence.id))
        .map(|(index, _)| index)
        .collect();
    let text = strip_placeholders(&item.sentence.text);
    let mut closest: Vec<(f32, usize)> = plan
        .evidence
        .iter()
        .enumerate()
        .filter(|(index, _)| !offered.contains(index))
        .map(|(index, evidence)| (support(&text, &[&evidence.span.text]).overlap, index))
        .filter(|(overlap, _)| *overlap > 0.0)
        .collect();
    closest.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    offered.extend(
        closest
            .iter()
            .take(REPAIR_ALTERNATIVES)
            .map(|(_, index)| *index),
    );
    let evidence = evidence_lines(offered.iter().map(|&index| &plan.evidence[index]));
    let cited_list = if cited.is_empty() {
        "nothing".to_owned()
    } else {
        cited.join(", ")
    };
    let settings = RequestSettings {
        model: config.model.clone(),
        max_tokens: config.repair_max_tokens,
        temperature: config.temperature,
    };
    Ok(REPAIR_SENTENCE.request(
        &[
            ("part", Part::parse(item.sentence.part.as_deref()).name()),
            ("sentence", &text),
            ("cited", &cited_list),
            ("problem", &item.problem),
            ("evidence", &evidence),
        ],
        &settings,
        REPAIR_PHASE,
        sentences_schema(),
    )?)
}

/// The sentences of an answer, or why there are none to use.
fn parse_answer(response: LlmResponse) -> Result<Vec<Drafted>, String> {
    match response.json::<Answer>() {
        Ok(answer) => Ok(answer.sentences),
        Err(error) if response.truncated => Err(format!(
            "the answer was cut off at the token limit ({error})"
        )),
        Err(error) => Err(error.to_string()),
    }
}

fn drop_sentence(report: &mut LlmWriteReport, plan: &SectionPlan, text: &str, why: &str) {
    report.dropped += 1;
    report.dropped_sentences.push(DroppedSentence {
        section: plan.heading.clone(),
        text: text.to_owned(),
        why: why.to_owned(),
    });
}

/// A piece of a drafted sentence: words, or span ids written inline (`[[S12]]`, `[S3, S4]`).
#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    Ids(Vec<String>),
}

/// Splits a drafted text into words and inline span ids; stray citations (`[@key]`) go.
fn pieces(text: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        plain.push_str(&rest[..open]);
        let after = &rest[open..];
        let Some(close) = after.find(']') else {
            plain.push_str(after);
            rest = "";
            break;
        };
        // `[[S12]]`: take the second closing bracket too.
        let end = if after.starts_with("[[") && after[close..].starts_with("]]") {
            close + 2
        } else {
            close + 1
        };
        let inner = after[..end].trim_matches(['[', ']']).trim();
        if let Some(ids) = placeholder_ids(inner) {
            if !plain.is_empty() {
                out.push(Piece::Text(std::mem::take(&mut plain)));
            }
            out.push(Piece::Ids(ids));
        } else if !inner.starts_with('@') {
            plain.push_str(&after[..end]);
        }
        rest = &after[end..];
    }
    plain.push_str(rest);
    if !plain.is_empty() {
        out.push(Piece::Text(plain));
    }
    out
}

/// `S12`, `S3, S4`, `S3; s4` → the ids; anything else → `None`.
fn placeholder_ids(inner: &str) -> Option<Vec<String>> {
    let ids: Vec<String> = inner
        .split([',', ';'])
        .map(|item| normalise_id(item.trim()))
        .collect::<Option<_>>()?;
    (!ids.is_empty()).then_some(ids)
}

/// `S12`, `s12` or `12` → `S12`.
fn normalise_id(text: &str) -> Option<String> {
    let digits = text
        .strip_prefix('S')
        .or_else(|| text.strip_prefix('s'))
        .unwrap_or(text);
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()))
        .then(|| format!("S{}", digits.trim_start_matches('0')))
}

/// The span ids a drafted sentence cites, inline ones first, without repeats.
fn span_ids(drafted: &Drafted) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    let inline = pieces(&drafted.text)
        .into_iter()
        .flat_map(|piece| match piece {
            Piece::Ids(ids) => ids,
            Piece::Text(_) => Vec::new(),
        });
    let listed = drafted.spans.iter().filter_map(|value| match value {
        serde_json::Value::String(text) => {
            normalise_id(text.trim().trim_matches(['[', ']']).trim())
        }
        serde_json::Value::Number(number) => normalise_id(&number.to_string()),
        _ => None,
    });
    for id in inline.chain(listed) {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids
}

/// The sentence's words without its placeholders.
fn strip_placeholders(text: &str) -> String {
    let words: String = pieces(text)
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Text(text) => Some(text),
            Piece::Ids(_) => None,
        })
        .collect();
    words.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Builds a drafted sentence with its citations and checks it against its spans.
fn check(plan: &SectionPlan, drafted: &Drafted) -> Checked {
    let plain = strip_placeholders(&drafted.text);
    if !plain.chars().any(char::is_alphabetic) {
        return Checked::Empty;
    }
    let ids = span_ids(drafted);
    if ids.is_empty() {
        return Checked::Failed(
            "it cites no evidence sentence; every sentence must cite the ids of the sentences it draws on".to_owned(),
        );
    }
    let known: BTreeMap<&str, &Evidence> = plan
        .evidence
        .iter()
        .map(|evidence| (evidence.id.as_str(), evidence))
        .collect();
    let unknown: Vec<&str> = ids
        .iter()
        .map(String::as_str)
        .filter(|id| !known.contains_key(id))
        .collect();
    if !unknown.is_empty() {
        return Checked::Failed(format!(
            "it cites {}, which {} not among the evidence sentences listed",
            unknown.join(", "),
            if unknown.len() == 1 { "is" } else { "are" }
        ));
    }
    let sentence = build_sentence(drafted, &ids, &known);
    let evidence: Vec<&str> = ids
        .iter()
        .filter_map(|id| known.get(id.as_str()))
        .map(|evidence| evidence.span.text.as_str())
        .collect();
    match check_support(&sentence.plain_text(), &evidence) {
        Ok(_) => Checked::Accepted(sentence),
        Err(Unsupported::IdleSpan(index)) => Checked::Failed(format!(
            "{} shares too few words with it to back it: cite only sentences that say what it says",
            ids.get(index).map_or("a cited sentence", String::as_str)
        )),
        Err(reason) => Checked::Failed(reason.to_string()),
    }
}

/// The sentence with inline ids as citations where they stand and the other ids as one
/// citation at its end; its basis is every cited span.
fn build_sentence(
    drafted: &Drafted,
    ids: &[String],
    known: &BTreeMap<&str, &Evidence>,
) -> Sentence {
    let works_of = |ids: &[String]| -> Vec<WorkId> {
        let mut works: Vec<WorkId> = Vec::new();
        for id in ids {
            if let Some(evidence) = known.get(id.as_str())
                && !works.contains(&evidence.span.locator.work)
            {
                works.push(evidence.span.locator.work.clone());
            }
        }
        works
    };
    let mut segments: Vec<Segment> = Vec::new();
    let mut placed: Vec<String> = Vec::new();
    for piece in pieces(&drafted.text) {
        match piece {
            Piece::Text(text) => segments.push(Segment::Text(text)),
            Piece::Ids(inline) => {
                let works = works_of(&inline);
                if !works.is_empty() {
                    segments.push(Segment::Cite {
                        works,
                        form: CiteForm::Parenthetical,
                    });
                }
                placed.extend(inline);
            }
        }
    }
    let rest: Vec<String> = ids
        .iter()
        .filter(|id| !placed.contains(id))
        .cloned()
        .collect();
    let mut segments = tidy(segments);
    // The end: the rest of the citations before the final punctuation, which is ensured.
    let mut ending = String::from(".");
    if let Some(Segment::Text(last)) = segments.last_mut() {
        let trimmed = last.trim_end();
        let body = trimmed.trim_end_matches(['.', '!', '?', ';', ':', ',']);
        let punctuation = &trimmed[body.len()..];
        if punctuation.contains(['.', '!', '?']) {
            ending = punctuation
                .chars()
                .find(|c| matches!(c, '.' | '!' | '?'))
                .map_or_else(|| ".".to_owned(), String::from);
        }
        *last = body.trim_end().to_owned();
        if last.is_empty() {
            segments.pop();
        }
    }
    let works = works_of(&rest);
    let ends_with_cite = matches!(segments.last(), Some(Segment::Cite { .. }));
    match (works.is_empty(), ends_with_cite) {
        (false, true) => {
            if let Some(Segment::Cite { works: last, .. }) = segments.last_mut() {
                for work in works {
                    if !last.contains(&work) {
                        last.push(work);
                    }
                }
            }
        }
        (false, false) => segments.push(Segment::Cite {
            works,
            form: CiteForm::Parenthetical,
        }),
        (true, _) => {}
    }
    segments.push(Segment::Text(ending));
    let mut spans: Vec<SpanRef> = Vec::new();
    for id in ids {
        if let Some(evidence) = known.get(id.as_str())
            && !spans.contains(&evidence.span.locator)
        {
            spans.push(evidence.span.locator.clone());
        }
    }
    Sentence {
        segments,
        basis: Basis::Paraphrase(spans),
    }
}

/// Whitespace collapsed, no space before a citation (the renderer adds one), no empty text.
fn tidy(segments: Vec<Segment>) -> Vec<Segment> {
    let count = segments.len();
    let mut out = Vec::with_capacity(count);
    for (index, segment) in segments.into_iter().enumerate() {
        match segment {
            Segment::Text(text) => {
                let mut collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
                if text.starts_with(char::is_whitespace) && index > 0 {
                    collapsed.insert(0, ' ');
                }
                if index == 0 {
                    collapsed = collapsed.trim_start().to_owned();
                }
                if !collapsed.trim().is_empty() {
                    out.push(Segment::Text(collapsed));
                }
            }
            cite => out.push(cite),
        }
    }
    out
}

/// A theme's parts from its checked sentences, in part order, each in paragraphs of a few
/// sentences.
fn drafted_parts(sentences: Vec<(Part, Sentence)>) -> Vec<Section> {
    let mut by_part: BTreeMap<Part, Vec<Sentence>> = BTreeMap::new();
    for (part_of, sentence) in sentences {
        by_part.entry(part_of).or_default().push(sentence);
    }
    by_part
        .into_iter()
        .map(|(part_of, sentences)| {
            let paragraphs = even_groups(&sentences, SENTENCES_PER_PARAGRAPH)
                .into_iter()
                .map(|group| Paragraph {
                    sentences: group.to_vec(),
                })
                .collect();
            part(part_of.heading(), paragraphs)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use litrev_model::SpanRef;

    use super::*;

    fn evidence(id: &str, work: &str, text: &str) -> Evidence {
        Evidence {
            id: id.to_owned(),
            span: Span {
                locator: SpanRef {
                    work: work.parse().expect("id"),
                    field: "abstract".into(),
                    sentence: 0,
                    start: 0,
                    end: text.len(),
                    full_text: None,
                },
                text: text.to_owned(),
                role: Role::Result,
                sure: true,
                words: text.split_whitespace().count(),
            },
        }
    }

    fn plan() -> SectionPlan {
        SectionPlan {
            section: 3,
            heading: "Theme".into(),
            evidence: vec![
                evidence(
                    "S1",
                    "W1",
                    "Emicizumab prophylaxis reduced annualised bleeding rates by 87% in adults.",
                ),
                evidence(
                    "S2",
                    "W2",
                    "Weekly dosing of emicizumab was well tolerated by children.",
                ),
            ],
            words: 200,
        }
    }

    fn drafted(text: &str, spans: &[&str]) -> Drafted {
        Drafted {
            part: Some("findings".into()),
            text: text.into(),
            spans: spans.iter().map(|id| serde_json::json!(id)).collect(),
        }
    }

    #[test]
    fn placeholders_become_citations_of_their_works() {
        let checked = check(
            &plan(),
            &drafted(
                "Emicizumab prophylaxis reduced bleeding rates [[S1]] and weekly dosing was well tolerated by children.",
                &["S2"],
            ),
        );
        let Checked::Accepted(sentence) = checked else {
            panic!("not accepted");
        };
        let w1: WorkId = "W1".parse().expect("id");
        let w2: WorkId = "W2".parse().expect("id");
        assert_eq!(
            sentence.segments,
            vec![
                Segment::Text("Emicizumab prophylaxis reduced bleeding rates".into()),
                Segment::Cite {
                    works: vec![w1.clone()],
                    form: CiteForm::Parenthetical
                },
                Segment::Text(" and weekly dosing was well tolerated by children".into()),
                Segment::Cite {
                    works: vec![w2.clone()],
                    form: CiteForm::Parenthetical
                },
                Segment::Text(".".into()),
            ]
        );
        let Basis::Paraphrase(spans) = &sentence.basis else {
            panic!("{:?}", sentence.basis);
        };
        assert_eq!(
            spans
                .iter()
                .map(|span| span.work.clone())
                .collect::<Vec<_>>(),
            [w1, w2]
        );
    }

    #[test]
    fn unknown_ids_missing_ids_and_unsupported_claims_fail_with_a_reason() {
        let fail = |text: &str, spans: &[&str]| match check(&plan(), &drafted(text, spans)) {
            Checked::Failed(why) => why,
            Checked::Accepted(_) => panic!("accepted: {text}"),
            Checked::Empty => panic!("empty: {text}"),
        };
        assert!(fail("Emicizumab reduced bleeding.", &["S9"]).contains("S9"));
        assert!(fail("Emicizumab reduced bleeding.", &[]).contains("cites no evidence"));
        let why = fail(
            "Emicizumab prophylaxis reduced annualised bleeding rates by 95%.",
            &["S1"],
        );
        assert!(why.contains("95"), "{why}");
        let why = fail(
            "Emicizumab prophylaxis reduced annualised bleeding rates by 87%.",
            &["S1", "S2"],
        );
        assert!(why.starts_with("S2 shares too few words"), "{why}");
        assert!(matches!(
            check(&plan(), &drafted(" [[S1]] ", &[])),
            Checked::Empty
        ));
    }

    #[test]
    fn stray_citations_go_and_bare_numbers_are_ids() {
        assert_eq!(
            pieces("Bleeding fell [@smith2020] (see [S1; s2])."),
            vec![
                Piece::Text("Bleeding fell  (see ".into()),
                Piece::Ids(vec!["S1".into(), "S2".into()]),
                Piece::Text(").".into()),
            ]
        );
        let numbered = Drafted {
            part: None,
            text: "x".into(),
            spans: vec![
                serde_json::json!(2),
                serde_json::json!("[S1]"),
                serde_json::json!("S01"),
            ],
        };
        assert_eq!(span_ids(&numbered), ["S2", "S1"]);
        assert_eq!(Part::parse(Some("Limitations")), Part::Gaps);
        assert_eq!(Part::parse(None), Part::Findings);
    }
}
