//! `evidence.json`: every sentence of the review mapped to the structure it was built from, to
//! the span of the work it was taken from, or to the spans it paraphrases — the claim →
//! evidence map.

use std::collections::BTreeMap;

use litrev_model::{Basis, Review, Section, SpanRef, Work, WorkId};
use serde::Serialize;

use crate::Error;
use crate::markdown::sentence_markdown;

/// One sentence of the review and what backs it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimEvidence {
    /// Sentence number in reading order, from 1 (the audit counts the same way).
    pub claim: usize,
    /// Heading of the section it is in.
    pub section: String,
    /// The sentence as it reads in `review.md`.
    pub markdown: String,
    /// Citation keys it cites.
    pub cites: Vec<String>,
    /// `structure` (built from counts and lists), `span` (taken from a work) or `paraphrase`
    /// (written by the LLM writer from works' sentences).
    pub basis: &'static str,
    /// The span, for sentences taken from a work.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<SpanEvidence>,
    /// The spans, for paraphrased sentences.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<SpanEvidence>,
}

/// Where a taken sentence comes from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpanEvidence {
    /// The work's id.
    pub work: String,
    /// Its citation key.
    pub key: String,
    /// The field (`abstract`).
    pub field: String,
    /// Sentence index in the field, from 0.
    pub sentence: usize,
    /// Byte offsets in the field.
    pub start: usize,
    /// End byte offset (exclusive).
    pub end: usize,
    /// The source sentence, verbatim.
    pub snippet: String,
    /// Where to read the work (DOI, else OpenAlex).
    pub url: Option<String>,
    /// What the sentence does in its work (`result`, `method`, `conclusion`…): for an
    /// abstract's, by litrev's sentence-role model, as the writer read it when it chose the
    /// sentence; for a full text's, by the heading of its section (else the model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'static str>,
    /// For a full-text sentence: where in the text (`sec. Results`, `p. 4`)…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinpoint: Option<String>,
    /// …its section, paragraph and byte offsets…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locator: Option<litrev_model::Locator>,
    /// …and the sha256 of the stored text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// The evidence of every sentence of the review, in reading order.
///
/// # Errors
/// When a cited work has no key or a span's work has no record: a claim without evidence.
pub fn claims(
    review: &Review,
    works: &BTreeMap<WorkId, Work>,
    keys: &BTreeMap<WorkId, String>,
) -> Result<Vec<ClaimEvidence>, Error> {
    let mut out = Vec::new();
    for section in &review.sections {
        for part in section.walk() {
            collect(part, works, keys, &mut out)?;
        }
    }
    Ok(out)
}

fn collect(
    section: &Section,
    works: &BTreeMap<WorkId, Work>,
    keys: &BTreeMap<WorkId, String>,
    out: &mut Vec<ClaimEvidence>,
) -> Result<(), Error> {
    for sentence in section.own_sentences() {
        let cites = sentence
            .cited()
            .map(|work| {
                keys.get(work)
                    .cloned()
                    .ok_or_else(|| Error::MissingKey(work.clone()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let (basis, span, spans) = match &sentence.basis {
            Basis::Structure => ("structure", None, Vec::new()),
            Basis::Span(locator) => (
                "span",
                Some(span_evidence(locator, works, keys)?),
                Vec::new(),
            ),
            Basis::Paraphrase(locators) => (
                "paraphrase",
                None,
                locators
                    .iter()
                    .map(|locator| span_evidence(locator, works, keys))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        out.push(ClaimEvidence {
            claim: out.len() + 1,
            section: section.heading.clone(),
            markdown: sentence_markdown(sentence, keys)?,
            cites,
            basis,
            span,
            spans,
        });
    }
    Ok(())
}

/// A span with its source sentence, key and link.
fn span_evidence(
    locator: &SpanRef,
    works: &BTreeMap<WorkId, Work>,
    keys: &BTreeMap<WorkId, String>,
) -> Result<SpanEvidence, Error> {
    let work = works
        .get(&locator.work)
        .ok_or_else(|| Error::Unresolved(locator.work.clone()))?;
    let snippet = locator
        .text_in(work)
        .ok_or_else(|| Error::Unresolved(locator.work.clone()))?;
    let url = work
        .ids
        .doi
        .as_ref()
        .map(|doi| doi.url())
        .or_else(|| work.ids.openalex.as_ref().map(|id| id.url()));
    let key = keys
        .get(&locator.work)
        .cloned()
        .ok_or_else(|| Error::MissingKey(locator.work.clone()))?;
    let role = match &locator.full_text {
        // A full-text sentence: its section's role, as the heading in its pinpoint names it.
        Some(span) => Some(
            litrev_text::full_text_role(span.pinpoint.strip_prefix("sec. "), &span.text).name(),
        ),
        None => (locator.field == "abstract")
            .then_some(work.abstract_text.as_deref())
            .flatten()
            .and_then(|text| {
                litrev_text::sentence_roles(text)
                    .get(locator.sentence)
                    .map(|(_, role)| role.name())
            }),
    };
    Ok(SpanEvidence {
        role,
        work: locator.work.to_string(),
        key,
        field: locator.field.clone(),
        sentence: locator.sentence,
        start: locator.start,
        end: locator.end,
        snippet: snippet.to_owned(),
        url,
        pinpoint: locator.full_text.as_ref().map(|span| span.pinpoint.clone()),
        locator: locator.full_text.as_ref().map(|span| span.locator),
        sha256: locator.full_text.as_ref().map(|span| span.sha256.clone()),
    })
}
