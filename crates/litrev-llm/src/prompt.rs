//! Versioned prompts: Markdown files in `prompts/`, compiled in, filled with `{{name}}` slots.
//!
//! A prompt file is named `NAME.vN.md` and holds a `[system]` part and a `[user]` part. Its id
//! (`draft_section.v1`) goes into every request made from it and so into the response cache
//! key: changing a prompt's wording means adding `NAME.v(N+1).md` and pointing the constant at
//! it, and answers to the old version are never reused for the new one.

use litrev_model::Work;

use crate::{Error, JsonSchema, LlmRequest, Message, Result};

/// A prompt template compiled into the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prompt {
    /// The prompt's name (`draft_section`).
    pub name: &'static str,
    /// Its version; bumped whenever the wording changes.
    pub version: u32,
    /// The file's text: `[system]` then `[user]`.
    pub text: &'static str,
}

/// Drafting one theme section from numbered evidence spans (JSON: `{"sentences": […]}`).
pub const DRAFT_SECTION: Prompt = Prompt {
    name: "draft_section",
    version: 1,
    text: include_str!("../prompts/draft_section.v1.md"),
};

/// Rewriting one unsupported sentence more cautiously, or dropping it (same JSON shape).
pub const REPAIR_SENTENCE: Prompt = Prompt {
    name: "repair_sentence",
    version: 1,
    text: include_str!("../prompts/repair_sentence.v1.md"),
};

/// Judging one record against the review's eligibility criteria (JSON: `{"decision", "reason",
/// "rationale"}`).
pub const SCREEN_JUDGE: Prompt = Prompt {
    name: "screen_judge",
    version: 1,
    text: include_str!("../prompts/screen_judge.v1.md"),
};

/// Whether one work reached by snowballing is about the review's question (JSON:
/// `{"decision", "rationale"}`, the decision `relevant` or `not_relevant`).
pub const SNOWBALL_RELEVANCE: Prompt = Prompt {
    name: "snowball_relevance",
    version: 1,
    text: include_str!("../prompts/snowball_relevance.v1.md"),
};

/// Searches that reach what the question's own words miss (JSON: `{"searches": [{"terms",
/// "aim"}]}`).
pub const PLAN_QUERIES: Prompt = Prompt {
    name: "plan_queries",
    version: 1,
    text: include_str!("../prompts/plan_queries.v1.md"),
};

/// The research brief a question implies: disciplines, methods, population and, for a question
/// joining unrelated fields, its domains (JSON).
pub const PLAN_BRIEF: Prompt = Prompt {
    name: "plan_brief",
    version: 1,
    text: include_str!("../prompts/plan_brief.v1.md"),
};

/// Filling one paper's study card from its numbered full-text sentences (JSON: one list of
/// sentence numbers per card field).
pub const STUDY_CARD: Prompt = Prompt {
    name: "study_card",
    version: 1,
    text: include_str!("../prompts/study_card.v1.md"),
};

impl Prompt {
    /// The versioned id, `name.vN`, that requests and cache keys carry.
    pub fn id(&self) -> String {
        format!("{}.v{}", self.name, self.version)
    }

    /// The system and user messages with every `{{slot}}` filled from `values`.
    ///
    /// # Errors
    /// `Prompt` when the file lacks its parts, a slot has no value, or a value names no slot:
    /// both mean the code and the prompt file disagree.
    pub fn messages(&self, values: &[(&str, &str)]) -> Result<Vec<Message>> {
        let failure = |message: String| Error::Prompt {
            prompt: self.id(),
            message,
        };
        let (system, user) = self.parts().ok_or_else(|| {
            failure("the file needs a `[system]` line, then a `[user]` line".to_owned())
        })?;
        let mut unused: Vec<&str> = values.iter().map(|(name, _)| *name).collect();
        let system = fill(system, values, &mut unused).map_err(failure)?;
        let user = fill(user, values, &mut unused).map_err(failure)?;
        if let Some(name) = unused.first() {
            return Err(failure(format!("no slot {{{{{name}}}}} to fill")));
        }
        Ok(vec![Message::system(system), Message::user(user)])
    }

    /// A request made from this prompt, counted under `phase` in the ledger, whose answer must
    /// follow `schema`: every prompt asks for JSON the caller reads back.
    ///
    /// # Errors
    /// As [`Prompt::messages`].
    pub fn request(
        &self,
        values: &[(&str, &str)],
        settings: &RequestSettings,
        phase: &str,
        schema: JsonSchema,
    ) -> Result<LlmRequest> {
        Ok(LlmRequest {
            model: settings.model.clone(),
            messages: self.messages(values)?,
            max_tokens: settings.max_tokens,
            temperature: settings.temperature,
            schema: Some(schema),
            prompt: self.id(),
            phase: phase.to_owned(),
        })
    }

    fn parts(&self) -> Option<(&'static str, &'static str)> {
        let after_system = self.text.split_once("[system]\n")?.1;
        let (system, user) = after_system.split_once("[user]\n")?;
        Some((system.trim(), user.trim()))
    }
}

/// The model settings a caller applies to every request it makes.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestSettings {
    /// The model.
    pub model: String,
    /// Most tokens an answer may have.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
}

/// The slots of a prompt about one work (`year`, `kind`, `title`, `abstract`), each saying so
/// when the record lacks it, so that every such prompt shows a work the same way.
#[derive(Debug, Clone)]
pub struct WorkSlots<'a> {
    year: String,
    kind: &'static str,
    title: &'a str,
    abstract_text: &'a str,
}

impl<'a> WorkSlots<'a> {
    /// The slots of `work`.
    pub fn of(work: &'a Work) -> WorkSlots<'a> {
        WorkSlots {
            year: work
                .year
                .map_or_else(|| "year unknown".to_owned(), |year| year.to_string()),
            kind: work.kind.name(),
            title: work.title.as_deref().unwrap_or("(no title)"),
            abstract_text: work.abstract_text.as_deref().unwrap_or("(no abstract)"),
        }
    }

    /// `values` for [`Prompt::request`]: the work's slots after `others`.
    pub fn with<'b>(&'b self, others: &[(&'b str, &'b str)]) -> Vec<(&'b str, &'b str)> {
        let mut values = others.to_vec();
        values.extend([
            ("year", self.year.as_str()),
            ("kind", self.kind),
            ("title", self.title),
            ("abstract", self.abstract_text),
        ]);
        values
    }
}

/// Fills the `{{slots}}` of `template`, crossing used names off `unused`.
fn fill(template: &str, values: &[(&str, &str)], unused: &mut Vec<&str>) -> Result<String, String> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let close = after
            .find("}}")
            .ok_or_else(|| "a `{{` is never closed".to_owned())?;
        let name = after[..close].trim();
        let value = values
            .iter()
            .find(|(slot, _)| *slot == name)
            .map(|(_, value)| *value)
            .ok_or_else(|| format!("no value for the slot {{{{{name}}}}}"))?;
        unused.retain(|unused_name| *unused_name != name);
        out.push_str(value);
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_have_both_parts_and_versioned_ids() {
        for prompt in [
            PLAN_BRIEF,
            PLAN_QUERIES,
            DRAFT_SECTION,
            REPAIR_SENTENCE,
            SCREEN_JUDGE,
            SNOWBALL_RELEVANCE,
            STUDY_CARD,
        ] {
            assert!(prompt.parts().is_some(), "{}", prompt.id());
        }
        assert_eq!(PLAN_QUERIES.id(), "plan_queries.v1");
        assert_eq!(SNOWBALL_RELEVANCE.id(), "snowball_relevance.v1");
        assert_eq!(DRAFT_SECTION.id(), "draft_section.v1");
        assert_eq!(REPAIR_SENTENCE.id(), "repair_sentence.v1");
    }

    #[test]
    fn a_work_fills_its_slots_and_says_what_its_record_lacks() {
        let mut work = Work::stub("W1".parse().expect("an OpenAlex id"));
        let stub = WorkSlots::of(&work);
        let messages = SNOWBALL_RELEVANCE
            .messages(&stub.with(&[("question", "Q?")]))
            .expect("every slot filled");
        for missing in ["year unknown", "(no title)", "(no abstract)"] {
            assert!(messages[1].content.contains(missing), "{messages:?}");
        }
        work.year = Some(2004);
        work.title = Some("Baclofen in spasticity".to_owned());
        let described = WorkSlots::of(&work);
        let values = described.with(&[("question", "Q?"), ("criteria", "RCTs")]);
        let messages = SCREEN_JUDGE.messages(&values).expect("every slot filled");
        assert!(messages[1].content.contains("Baclofen in spasticity"));
        assert!(messages[1].content.contains("2004"));
    }

    #[test]
    fn slots_are_filled_and_mismatches_refused() {
        let values = [
            ("question", "Q?"),
            ("theme", "insulin pumps"),
            ("words", "300"),
            ("evidence", "[S1] (result) Pumps helped."),
        ];
        let messages = DRAFT_SECTION.messages(&values).unwrap();
        assert_eq!(messages.len(), 2);
        assert!(messages[1].content.contains("[S1] (result) Pumps helped."));
        assert!(
            !messages
                .iter()
                .any(|message| message.content.contains("{{"))
        );
        let error = DRAFT_SECTION.messages(&values[..3]).unwrap_err();
        assert!(error.to_string().contains("evidence"), "{error}");
        let mut extra = values.to_vec();
        extra.push(("colour", "blue"));
        let error = DRAFT_SECTION.messages(&extra).unwrap_err();
        assert!(error.to_string().contains("colour"), "{error}");
    }
}
