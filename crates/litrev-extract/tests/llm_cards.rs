//! Study cards with a language model, on the eight PMC JATS articles of the shared data: the
//! model (scripted here; it stands in for a remote API) answers sentence numbers only, and the
//! cards hold exactly the numbered sentences it named, verbatim at their locators. A broken
//! answer keeps the extractive card; numbers no sentence has are dropped and counted; running
//! over the budget stops the step.

use litrev_extract::{CardLlmConfig, Paper, llm_cards, study_card, verify};
use litrev_fulltext::{PdfLimits, read_file};
use litrev_llm::{LlmProvider, LlmRequest, LlmResponse};
use litrev_model::{CardField, FullText, Work, WorkId};

/// A model that, for each paper, names as its design the first shown sentence with "cohort" or
/// "cross-sectional", as its results the sentences 1, 1 (a repeat) and 9999 (none such), and
/// answers the paper titled `broken` with text that is no JSON, and `costly` over the budget.
struct Scripted;

impl LlmProvider for Scripted {
    fn id(&self) -> String {
        "scripted".to_owned()
    }

    fn complete(&self, request: &LlmRequest) -> litrev_llm::Result<LlmResponse> {
        let user = &request.messages[1].content;
        let text = if user.contains("): broken\n") {
            "I think the design is a cohort.".to_owned()
        } else if user.contains("): costly\n") {
            return Err(litrev_llm::Error::OverBudget {
                budget: 1.0,
                spent: 1.0,
                needed: 0.1,
                calls: 1,
                model: "m".to_owned(),
                suggested: 1.1,
            });
        } else {
            let design: Vec<usize> = user
                .lines()
                .filter(|line| line.contains("cohort") || line.contains("cross-sectional"))
                .filter_map(|line| line.strip_prefix('[')?.split(']').next()?.parse().ok())
                .take(1)
                .collect();
            serde_json::json!({
                "aim": [], "design": design, "population": [], "sample_size": [],
                "setting": [], "interventions": [], "comparators": [], "outcomes": [],
                "results": [1, 1, 9999], "limitations": [], "future_work": [],
                "data_availability": []
            })
            .to_string()
        };
        Ok(LlmResponse {
            text,
            input_tokens: 100,
            output_tokens: 20,
            estimated_usage: false,
            truncated: false,
            batched: false,
            cached: false,
        })
    }
}

fn texts() -> Option<Vec<(WorkId, Work, String, FullText)>> {
    let data = litrev_testkit::testdata()?;
    let dir = data.join("pmc-jats-and-medline/pmc_oa_nxml");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the folder lists")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    paths.sort();
    Some(
        paths
            .into_iter()
            .enumerate()
            .map(|(index, path)| {
                let (bytes, text) = read_file(&path, PdfLimits::default()).expect("reads");
                let id: WorkId = format!("W{}", index + 1).parse().expect("an id");
                let mut work = Work::stub(id.clone());
                work.title = text.title.clone();
                (id, work, litrev_model::sha256_hex(&bytes), text)
            })
            .collect(),
    )
}

/// The texts as the papers `llm_cards` reads.
fn papers(texts: &[(WorkId, Work, String, FullText)]) -> Vec<Paper<'_>> {
    texts
        .iter()
        .map(|(id, work, sha256, text)| Paper {
            work,
            id,
            sha256,
            text,
        })
        .collect()
}

#[test]
fn cards_hold_exactly_the_sentences_the_model_numbered() {
    let Some(mut texts) = texts() else { return };
    texts[0].1.title = Some("broken".to_owned());
    let papers = papers(&texts);
    let config = CardLlmConfig::for_model("scripted");
    let (cards, report) = llm_cards(&Scripted, &config, &papers).expect("within budget");
    assert_eq!(cards.len(), papers.len());
    assert_eq!(
        (report.asked, report.filled, report.kept_extractive),
        (8, 7, 1)
    );
    assert_eq!(report.unknown_numbers, 7, "one 9999 per filled card");
    let (id, _, sha256, text) = &texts[0];
    assert_eq!(
        cards[0],
        study_card(id, sha256, text),
        "a broken answer keeps the extractive card"
    );
    let mut designs = 0;
    for (card, paper) in cards.iter().zip(&papers).skip(1) {
        verify(card, paper.text).expect("every span is verbatim at its locator");
        let results = card.spans(CardField::Results);
        assert_eq!(
            results.len(),
            1,
            "the repeat and the unknown number are dropped"
        );
        for field in CardField::ALL {
            if !matches!(field, CardField::Design | CardField::Results) {
                assert!(card.spans(field).is_empty(), "{field} was not asked for");
            }
        }
        if let Some(design) = card.spans(CardField::Design).first() {
            designs += 1;
            assert!(
                design.text.contains("cohort") || design.text.contains("cross-sectional"),
                "{}",
                design.text
            );
        }
    }
    assert!(designs >= 2, "{designs} designs named");
}

#[test]
fn running_over_the_budget_stops_the_step() {
    let Some(mut texts) = texts() else { return };
    texts[3].1.title = Some("costly".to_owned());
    let papers = papers(&texts);
    let error = llm_cards(&Scripted, &CardLlmConfig::for_model("scripted"), &papers)
        .expect_err("over budget");
    assert!(
        matches!(error, litrev_llm::Error::OverBudget { .. }),
        "{error}"
    );
}
