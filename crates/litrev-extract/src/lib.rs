//! Study cards, extractively: each sentence of a full text's body is read for the fields it
//! speaks to (its cue phrases, numbers and sample sizes, weighed by the section it stands in),
//! and each field keeps its best few sentences as verbatim spans with their locators; a field no
//! sentence speaks to is *not reported*. Nothing is written that the text does not say.

mod cues;
mod llm;

use std::collections::BTreeMap;

use litrev_model::{CardField, CardSpan, FullText, Locator, SectionRole, StudyCard, WorkId};

use crate::cues::{Words, cues};
pub use crate::llm::{CARDS_PHASE, CardLlmConfig, CardLlmReport, Paper, llm_cards};

/// Sentences shorter than this (in words) say too little to quote.
const MIN_WORDS: usize = 6;
/// Sentences longer than this are flattened tables or run-on extraction, not statements.
const MAX_WORDS: usize = 90;
/// Above this share of numbers a "sentence" is a table row.
const MAX_NUMBER_SHARE: f64 = 0.4;

/// How many spans each field keeps.
fn spans_kept(field: CardField) -> usize {
    match field {
        CardField::Results | CardField::Limitations => 3,
        CardField::DataAvailability | CardField::Design | CardField::SampleSize => 1,
        _ => 2,
    }
}

/// Fills a work's study card from its full text.
pub fn study_card(work: &WorkId, sha256: &str, text: &FullText) -> StudyCard {
    let mut fields = BTreeMap::new();
    for (field, mut found) in candidates(text) {
        // Best first; ties to the earlier sentence.
        found.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        found.truncate(spans_kept(field));
        found.sort_by_key(|(_, locator)| *locator);
        let spans: Vec<CardSpan> = found
            .into_iter()
            .filter_map(|(_, locator)| card_span(text, locator))
            .collect();
        if !spans.is_empty() {
            fields.insert(field, spans);
        }
    }
    StudyCard {
        work: work.clone(),
        format: text.format,
        sha256: sha256.to_owned(),
        fields,
    }
}

/// The span of a text at `locator`, with its pinpoint; `None` when the locator is out of it.
fn card_span(text: &FullText, locator: Locator) -> Option<CardSpan> {
    Some(CardSpan {
        text: text.span(&locator)?.to_owned(),
        locator,
        pinpoint: text.pinpoint(&locator),
    })
}

/// Per field, every sentence of the body that speaks to it, with its score: statements of a
/// quotable length, back matter, table rows and run-ons left out.
fn candidates(text: &FullText) -> BTreeMap<CardField, Vec<(f64, Locator)>> {
    let mut candidates: BTreeMap<CardField, Vec<(f64, Locator)>> = BTreeMap::new();
    for (section_index, section) in text.sections.iter().enumerate() {
        if is_back_matter(&section.title) {
            continue;
        }
        let availability_section = section.title.to_lowercase().contains("availab");
        for (paragraph_index, paragraph) in section.paragraphs.iter().enumerate() {
            for (start, end) in litrev_text::split_sentences(paragraph) {
                let sentence = &paragraph[start..end];
                let words = Words::of(sentence);
                if words.len() < MIN_WORDS
                    || words.len() > MAX_WORDS
                    || words.number_share() > MAX_NUMBER_SHARE
                {
                    continue;
                }
                let locator = Locator {
                    section: section_index,
                    paragraph: paragraph_index,
                    start,
                    end,
                };
                for field in CardField::ALL {
                    let score = score(field, &words, section.role, availability_section);
                    if score > 0.0 {
                        candidates.entry(field).or_default().push((score, locator));
                    }
                }
            }
        }
    }
    candidates
}

/// Checks that every span of a card reads, verbatim, at its locator in the text: the invariant
/// a card is stored under.
///
/// # Errors
/// The first span that does not, described.
pub fn verify(card: &StudyCard, text: &FullText) -> Result<(), String> {
    for (field, spans) in &card.fields {
        for span in spans {
            if text.span(&span.locator) != Some(span.text.as_str()) {
                return Err(format!(
                    "the {field} span {:?} of {} is not at {:?} in its text",
                    span.text, card.work, span.locator
                ));
            }
        }
    }
    Ok(())
}

/// Headings of the parts of a paper that are not its study: references, thanks, funding,
/// declarations.
fn is_back_matter(title: &str) -> bool {
    let title = title.to_lowercase();
    [
        "reference",
        "bibliograph",
        "acknowledg",
        "funding",
        "competing interest",
        "conflict",
        "disclosure",
        "contribution",
        "abbreviation",
        "supporting information",
        "supplementary",
    ]
    .iter()
    .any(|part| title.contains(part))
}

/// Words that make a "needed" sentence about research rather than about a dose.
const RESEARCH_WORDS: &[&str] = &[
    "research",
    "studies",
    "study",
    "trials",
    "trial",
    "investigation",
    "investigations",
    "work",
    "future",
    "further",
    "evaluation",
    "data",
];

/// How strongly a sentence in a section of some role speaks to a field (0 for not at all).
fn score(field: CardField, words: &Words, role: SectionRole, availability_section: bool) -> f64 {
    use SectionRole::{Conclusions, Discussion, Introduction, Limitations, Methods, Results};
    let cue = words.count(cues(field)) as f64;
    let in_role =
        |roles: &[SectionRole], weight: f64| if roles.contains(&role) { weight } else { 0.0 };
    match field {
        CardField::Aim => {
            // "This study" alone is any sentence about it; an aim also says what it set out to do.
            let purpose = words.count(&[
                "aim",
                "aims",
                "aimed",
                "objective",
                "objectives",
                "purpose",
                "sought",
                "goal",
                "propose",
                "investigate",
                "investigated",
                "examine",
                "examined",
                "assess",
                "evaluate",
                "determine",
                "explore",
                "test",
                "tested",
                "hypothesized",
                "hypothesised",
                "set",
            ]);
            if cue == 0.0 || purpose == 0 || role == Results {
                return 0.0;
            }
            cue + in_role(&[Introduction], 1.0) + in_role(&[Methods], 0.5)
        }
        CardField::SampleSize => {
            if !words.has_sample_size() || !matches!(role, Methods | Results) {
                return 0.0;
            }
            1.0 + in_role(&[Methods], 1.0) + words.count(cues(CardField::Population)) as f64 * 0.2
        }
        CardField::Design
        | CardField::Population
        | CardField::Setting
        | CardField::Interventions
        | CardField::Comparators
        | CardField::Outcomes => {
            if cue == 0.0 || role != Methods {
                return 0.0;
            }
            // One cue word alone ("patients") is weak; two or more, or a design phrase, is not.
            let needed = if field == CardField::Design { 1.0 } else { 2.0 };
            if cue < needed {
                return 0.0;
            }
            cue
        }
        CardField::Results => {
            if role != Results || words.numbers() == 0 || cue == 0.0 {
                return 0.0;
            }
            cue + (words.numbers() as f64).min(4.0) * 0.5
        }
        CardField::Limitations => {
            if role == Limitations {
                return 1.0 + cue;
            }
            // A sentence about the study's strengths is not a limitation, whatever it mentions.
            if words.count(&["strength", "strengths"]) > 0
                && words.count(&["limitation", "limitations"]) == 0
            {
                return 0.0;
            }
            if !matches!(role, Discussion | Conclusions) || cue == 0.0 {
                return 0.0;
            }
            // "A limitation of this study" names itself; "bias" alone may be the topic.
            let names_itself = words.count(&[
                "limitation",
                "limitations",
                "weakness",
                "weaknesses",
                "shortcoming",
                "drawback",
            ]) > 0;
            if names_itself {
                cue + 1.0
            } else if cue >= 2.0 {
                cue
            } else {
                0.0
            }
        }
        CardField::FutureWork => {
            if cue == 0.0
                || !matches!(role, Discussion | Conclusions | Limitations)
                || words.count(RESEARCH_WORDS) == 0
            {
                return 0.0;
            }
            cue + in_role(&[Conclusions], 0.5)
        }
        CardField::DataAvailability => {
            if availability_section {
                return 1.0 + cue;
            }
            if cue == 0.0
                || words.count(&[
                    "data",
                    "code",
                    "sequences",
                    "software",
                    "dataset",
                    "datasets",
                ]) == 0
            {
                return 0.0;
            }
            // "available at" alone is not about the study's data.
            if cue >= 2.0 { cue } else { 0.0 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use litrev_model::{TextFormat, TextSection};

    fn section(title: &str, role: SectionRole, paragraphs: &[&str]) -> TextSection {
        TextSection {
            title: title.into(),
            role,
            depth: 1,
            paragraphs: paragraphs.iter().map(|p| (*p).to_owned()).collect(),
            page: None,
        }
    }

    #[test]
    fn fields_hold_verbatim_spans_or_are_not_reported() {
        let text = FullText {
            format: TextFormat::Jats,
            title: None,
            ids: Vec::new(),
            abstract_paragraphs: Vec::new(),
            sections: vec![
                section(
                    "Introduction",
                    SectionRole::Introduction,
                    &[
                        "Falls are common in older adults. The aim of this study was to assess whether a home exercise programme reduces falls.",
                    ],
                ),
                section(
                    "Methods",
                    SectionRole::Methods,
                    &[
                        "We conducted a randomised controlled trial in three primary care practices. A total of 240 participants aged 70 years or older were recruited from the practice lists.",
                        "The primary outcome was the rate of falls, which was measured using monthly diaries.",
                    ],
                ),
                section(
                    "Results",
                    SectionRole::Results,
                    &[
                        "The fall rate was 31% lower in the exercise group (rate ratio 0.69, 95% CI 0.52 to 0.90).",
                    ],
                ),
                section(
                    "Discussion",
                    SectionRole::Discussion,
                    &[
                        "A limitation of this study is that falls were self-reported. Future studies should examine adherence over longer periods.",
                    ],
                ),
                section(
                    "References",
                    SectionRole::Other,
                    &["Smith J. A randomised controlled trial of exercise in 500 patients. 2001."],
                ),
            ],
            references: Vec::new(),
        };
        let work: WorkId = "10.1/x".parse().map(WorkId::Doi).expect("a DOI");
        let card = study_card(&work, "abc", &text);
        verify(&card, &text).expect("every span is verbatim");
        let first = |field| card.spans(field).first().map(|span| span.text.as_str());
        assert_eq!(
            first(CardField::Aim),
            Some(
                "The aim of this study was to assess whether a home exercise programme reduces falls."
            )
        );
        assert!(
            first(CardField::Design)
                .is_some_and(|span| span.contains("randomised controlled trial"))
        );
        assert!(first(CardField::SampleSize).is_some_and(|span| span.contains("240 participants")));
        assert!(first(CardField::Outcomes).is_some_and(|span| span.contains("primary outcome")));
        assert!(first(CardField::Results).is_some_and(|span| span.contains("31% lower")));
        assert!(first(CardField::Limitations).is_some_and(|span| span.contains("self-reported")));
        assert!(
            first(CardField::FutureWork).is_some_and(|span| span.starts_with("Future studies"))
        );
        assert_eq!(
            card.spans(CardField::DataAvailability),
            &[] as &[CardSpan],
            "not reported"
        );
        assert_eq!(card.spans(CardField::Results)[0].pinpoint, "sec. Results");
        // Nothing comes from the reference list.
        assert!(
            card.fields
                .values()
                .flatten()
                .all(|span| span.locator.section != 4)
        );
    }

    #[test]
    fn a_changed_span_fails_verification() {
        let text = FullText {
            format: TextFormat::Pdf,
            title: None,
            ids: Vec::new(),
            abstract_paragraphs: Vec::new(),
            sections: vec![TextSection {
                page: Some(3),
                ..section(
                    "Limitations",
                    SectionRole::Limitations,
                    &["Our sample of schools was small and urban."],
                )
            }],
            references: Vec::new(),
        };
        let work: WorkId = "10.1/y".parse().map(WorkId::Doi).expect("a DOI");
        let mut card = study_card(&work, "abc", &text);
        assert_eq!(card.spans(CardField::Limitations)[0].pinpoint, "p. 3");
        verify(&card, &text).expect("verbatim");
        if let Some(spans) = card.fields.get_mut(&CardField::Limitations) {
            spans[0].text.push('!');
        }
        assert!(verify(&card, &text).is_err());
    }
}
