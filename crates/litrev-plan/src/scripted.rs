//! A scripted language model for the planner's tests: it checks each request is the one
//! expected (its prompt, as schema JSON) and answers with the text it was given, or fails.

use litrev_llm::{LlmProvider, LlmRequest, LlmResponse};

/// Answers every request for `prompt` with `answer`.
pub(crate) struct Scripted {
    /// The versioned prompt every request must carry (`plan_queries.v1`).
    pub(crate) prompt: &'static str,
    /// The answer's text, or the error the call fails with.
    pub(crate) answer: Result<&'static str, litrev_llm::Error>,
}

impl LlmProvider for Scripted {
    fn id(&self) -> String {
        "scripted".to_owned()
    }

    fn complete(&self, request: &LlmRequest) -> litrev_llm::Result<LlmResponse> {
        assert_eq!(request.prompt, self.prompt);
        assert!(request.schema.is_some(), "asked for as schema JSON");
        let text = self.answer.clone()?;
        Ok(LlmResponse {
            text: text.to_owned(),
            input_tokens: 10,
            output_tokens: 10,
            estimated_usage: false,
            truncated: false,
            batched: false,
            cached: false,
        })
    }
}
