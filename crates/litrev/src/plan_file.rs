//! Plan files: the plan a run would follow, written as TOML for a person to read and edit
//! before anything runs (`litrev plan`), read back to run as edited (`litrev review --plan`),
//! and what the edits changed from the plan litrev generated (kept in `run.json`).

use std::path::Path;

use litrev_model::{Estimate, Plan};
use litrev_plan::PlanConfig;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};
use crate::options::{RunOptions, SourceSpec};

/// The plan litrev generates for these options without a language model: what the run's plan
/// step starts from, and what an edited plan is compared with.
pub fn generated_plan(options: &RunOptions) -> Plan {
    let mut config = PlanConfig::for_tier(options.tier);
    config.seeds = options.seeds.clone();
    config.filters = options.filters.clone();
    config.web_search = options.sources.iter().any(SourceSpec::is_web);
    config.trending = options.sources.iter().any(SourceSpec::lists_trending);
    config.web_sites = options.sites.clone();
    litrev_plan::plan(&options.question, &config)
}

/// The plan as a TOML file, with a header saying how to edit and run it and, at its end, what
/// it is expected to cost on the sources it was estimated for.
///
/// # Errors
/// When the plan cannot be written as TOML (it always can: a test writes every tier's).
pub fn plan_to_toml(plan: &Plan, estimate: &Estimate) -> Result<String> {
    #[derive(Serialize)]
    struct Expected<'a> {
        estimate: &'a Estimate,
    }
    let body = to_toml(&with_synthesis(plan))?;
    let expected = to_toml(&Expected { estimate })?;
    Ok(format!(
        "# litrev plan: edit the queries, seeds, limits or filters, then run it with\n\
         #   litrev review --plan THIS_FILE --source …\n\
         # Queries use terms, \"phrases\", AND and OR; each source translates them.\n\n{body}\n\
         # What the plan is expected to ask the live sources for (requests within the low–high\n\
         # range, the estimate ± 30 %) and what that costs. Only read: the run estimates the\n\
         # plan as edited again, and run.json puts the actual figures beside it.\n{expected}"
    ))
}

fn to_toml(value: &impl Serialize) -> Result<String> {
    toml::to_string(value).map_err(|error| Error::BadOptions(error.to_string()))
}

/// Reads a plan file `plan_to_toml` wrote (and a person may have edited).
///
/// # Errors
/// When the file cannot be read, is not a plan, or plans nothing to search.
pub fn read_plan(path: &Path) -> Result<Plan> {
    let bad = |message: String| Error::BadInput {
        path: path.to_owned(),
        message,
    };
    let text = std::fs::read_to_string(path)
        .map_err(|error| bad(format!("cannot read the plan: {error}")))?;
    let not_a_plan = |error: toml::de::Error| {
        bad(format!(
            "not a litrev plan ({}); write one with `litrev plan QUESTION --out FILE`",
            error.to_string().trim()
        ))
    };
    // A key the plan does not know (a typo, `years` for `year_from`) would otherwise be
    // dropped without a word, and the run would not be the one the user edited.
    let mut unknown: Vec<String> = Vec::new();
    let deserializer = toml::Deserializer::parse(&text).map_err(not_a_plan)?;
    let plan: Plan = serde_ignored::deserialize(deserializer, |key| unknown.push(key.to_string()))
        .map_err(not_a_plan)?;
    // The estimate a plan file ends with is only read by the user: the run estimates again.
    unknown.retain(|key| key != "estimate" && !key.starts_with("estimate."));
    if let Some(key) = unknown.first() {
        return Err(bad(format!(
            "the plan has no key `{key}`: check its spelling against a plan `litrev plan QUESTION --out FILE` writes (years are `year_from` and `year_to` under [filters])"
        )));
    }
    if plan.question.trim().is_empty() {
        return Err(bad("the plan's question is empty".to_owned()));
    }
    if plan
        .queries
        .iter()
        .all(|query| query.text.trim().is_empty())
        && plan.seeds.is_empty()
    {
        return Err(bad(
            "the plan has no query and no seed: nothing to search".to_owned()
        ));
    }
    check_limits(&plan).map_err(bad)?;
    let domains: Vec<&str> = plan
        .brief
        .domains
        .iter()
        .map(|domain| domain.name.as_str())
        .collect();
    let sections = plan.synthesis.as_deref().unwrap_or_default();
    for (index, section) in sections.iter().enumerate() {
        if sections[..index]
            .iter()
            .any(|earlier| earlier.part == section.part)
        {
            return Err(bad(format!(
                "the [[synthesis]] part \"{}\" is there twice: keep one section of each part",
                format!("{:?}", section.part).to_lowercase()
            )));
        }
        if section.heading.trim().is_empty() {
            return Err(bad(format!(
                "a [[synthesis]] section (part \"{}\") has an empty heading: give it one, or remove the section",
                format!("{:?}", section.part).to_lowercase()
            )));
        }
        if let Some(unknown) = section
            .domains
            .iter()
            .find(|name| !domains.contains(&name.as_str()))
        {
            return Err(bad(format!(
                "the [[synthesis]] section \"{}\" names the domain \"{unknown}\", which the plan's [[brief.domains]] do not have ({}): use one of those names, or leave `domains` empty for every work",
                section.heading,
                if domains.is_empty() {
                    "none".to_owned()
                } else {
                    domains.join(", ")
                }
            )));
        }
    }
    Ok(plan)
}

/// Limits and thresholds an edited plan may have set out of range: a run with them would
/// include nothing, or write outside its own bounds.
fn check_limits(plan: &Plan) -> std::result::Result<(), String> {
    if plan.hits_per_query == 0 {
        return Err("hits_per_query must be at least 1".to_owned());
    }
    let limits = &plan.limits;
    if limits.max_works == 0 {
        return Err(
            "max_works under [limits] must be at least 1: it is how many works the review includes"
                .to_owned(),
        );
    }
    if limits.min_words > limits.max_words {
        return Err(format!(
            "min_words ({}) is above max_words ({}) under [limits]: the review's length must fit between them",
            limits.min_words, limits.max_words
        ));
    }
    if !(0.0..=1.0).contains(&plan.relevance_threshold) {
        return Err(format!(
            "relevance_threshold is {}: it is a share of the best relevance, from 0 to 1 (0.6 by default)",
            plan.relevance_threshold
        ));
    }
    if let (Some(from), Some(to)) = (plan.filters.year_from, plan.filters.year_to)
        && from > to
    {
        return Err(format!(
            "year_from ({from}) is after year_to ({to}) under [filters]: no work could pass"
        ));
    }
    Ok(())
}

/// The plan with its synthesis written out (the default one when it has none), as a plan file
/// shows it, as `run.json` records it and as edits are compared.
pub(crate) fn with_synthesis(plan: &Plan) -> Plan {
    Plan {
        synthesis: Some(plan.synthesis()),
        ..plan.clone()
    }
}

/// One field a person changed in the plan: its path (`queries`, `limits.max_stages`), what
/// litrev generated and what ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanEdit {
    /// The field's dotted path.
    pub field: String,
    /// Its value in the generated plan (`null` when it had none).
    pub generated: Value,
    /// Its value in the plan that ran (`null` when removed).
    pub edited: Value,
}

/// What the edited plan changed from the generated one, field by field (objects are compared
/// field by field, lists whole), in the fields' order. The probe's reading is what a search
/// saw, not a choice, and is no edit.
pub fn plan_edits(generated: &Plan, edited: &Plan) -> Vec<PlanEdit> {
    let unprobed = |plan: &Plan| {
        let mut plan = with_synthesis(plan);
        plan.brief.probe = None;
        serde_json::to_value(plan)
    };
    let (Ok(generated), Ok(edited)) = (unprobed(generated), unprobed(edited)) else {
        return Vec::new();
    };
    let mut edits = Vec::new();
    differences("", &generated, &edited, &mut edits);
    edits
}

fn differences(path: &str, generated: &Value, edited: &Value, edits: &mut Vec<PlanEdit>) {
    if generated == edited {
        return;
    }
    if let (Value::Object(before), Value::Object(after)) = (generated, edited) {
        let mut keys: Vec<&String> = before.keys().chain(after.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let field = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            differences(
                &field,
                before.get(key).unwrap_or(&Value::Null),
                after.get(key).unwrap_or(&Value::Null),
                edits,
            );
        }
        return;
    }
    edits.push(PlanEdit {
        field: path.to_owned(),
        generated: generated.clone(),
        edited: edited.clone(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use litrev_model::Tier;

    fn options(tier: Tier) -> RunOptions {
        RunOptions {
            question: "Emicizumab prophylaxis in haemophilia A".to_owned(),
            sources: Vec::new(),
            seeds: vec!["W2963543416".parse().expect("id")],
            tier,
            out_dir: "out".into(),
            approve: true,
            filters: litrev_model::Filters {
                year_from: Some(2015),
                ..Default::default()
            },
            llm: None,
            style: Default::default(),
            fulltext_dirs: Vec::new(),
            max_fulltext: None,
            plan: None,
            clarify: false,
            pages: Vec::new(),
            libraries: Vec::new(),
            sites: Vec::new(),
        }
    }

    #[test]
    fn every_tiers_plan_reads_back_as_written() {
        let folder = tempfile::tempdir().expect("folder");
        for tier in [
            Tier::Quick,
            Tier::Standard,
            Tier::Comprehensive,
            Tier::Exhaustive,
        ] {
            let plan = generated_plan(&options(tier));
            let path = folder.path().join("plan.toml");
            std::fs::write(
                &path,
                plan_to_toml(
                    &plan,
                    &crate::estimate(&plan, &[crate::SourceSpec::OpenAlex]),
                )
                .expect("toml"),
            )
            .expect("write");
            // The file spells out the default synthesis plan; nothing else changes.
            let read = read_plan(&path).expect("reads back");
            assert_eq!(read.synthesis.as_ref(), Some(&plan.synthesis()));
            assert_eq!(read, with_synthesis(&plan));
            assert!(plan_edits(&plan, &read).is_empty());
        }
    }

    /// Edits a run could not honour are refused when the plan is read, each saying what is
    /// wrong: a key the plan does not have (it would be dropped without a word), limits out of
    /// range, years the wrong way round. The estimate the file ends with is no unknown key.
    #[test]
    fn misspelt_keys_and_limits_out_of_range_are_refused() {
        let plan = generated_plan(&options(Tier::Quick));
        let written = plan_to_toml(
            &plan,
            &crate::estimate(&plan, &[crate::SourceSpec::OpenAlex]),
        )
        .expect("toml");
        assert!(written.contains("[estimate]"));
        let folder = tempfile::tempdir().expect("folder");
        let path = folder.path().join("plan.toml");
        let refused = |text: String| {
            std::fs::write(&path, text).expect("write");
            match read_plan(&path) {
                Ok(_) => panic!("read as a plan"),
                Err(error) => error.to_string(),
            }
        };
        let limits = format!("max_works = {}\n", plan.limits.max_works);
        assert!(written.contains(&limits), "{written}");
        for (edited, expected) in [
            (
                written.replace("[filters]\n", "[filters]\nyears = [2010, 2020]\n"),
                "no key `filters.years`",
            ),
            (
                written.replace("tier = ", "teir = \"standard\"\ntier = "),
                "no key `teir`",
            ),
            (
                written.replace(&limits, "max_works = 0\n"),
                "max_works under [limits] must be at least 1",
            ),
            (
                written.replace("year_from = 2015", "year_from = 2015\nyear_to = 2001"),
                "year_from (2015) is after year_to (2001)",
            ),
            (
                written.replace(
                    &format!("min_words = {}", plan.limits.min_words),
                    &format!("min_words = {}", plan.limits.max_words + 1),
                ),
                "is above max_words",
            ),
            (
                written.replace(
                    &format!("relevance_threshold = {}", plan.relevance_threshold),
                    "relevance_threshold = 6.0",
                ),
                "from 0 to 1",
            ),
        ] {
            assert_ne!(edited, written, "the edit for `{expected}` applies");
            let error = refused(edited);
            assert!(error.contains(expected), "{expected}: {error}");
        }
        std::fs::write(&path, &written).expect("write");
        assert!(read_plan(&path).is_ok(), "the plan as written reads");
    }

    #[test]
    fn edits_are_named_by_field_and_bad_plans_say_what_to_do() {
        let generated = generated_plan(&options(Tier::Quick));
        let mut edited = generated.clone();
        edited.queries.truncate(1);
        edited.limits.max_stages += 1;
        edited.filters.year_from = None;
        // What a probe read is no edit.
        edited.brief.probe = Some(litrev_model::ProbeReading {
            works: 68,
            matches: Some(210),
            citations: 1633,
            top_citations: 900,
            hits: 80,
        });
        let fields: Vec<String> = plan_edits(&generated, &edited)
            .into_iter()
            .map(|edit| edit.field)
            .collect();
        assert_eq!(
            fields,
            ["filters.year_from", "limits.max_stages", "queries"],
            "{fields:?}"
        );

        let folder = tempfile::tempdir().expect("folder");
        let path = folder.path().join("plan.toml");
        std::fs::write(&path, "question = \"x\"\n").expect("write");
        let error = read_plan(&path).expect_err("not a whole plan").to_string();
        assert!(error.contains("litrev plan QUESTION"), "{error}");
        let mut empty = generated;
        empty.queries.clear();
        empty.seeds.clear();
        std::fs::write(
            &path,
            plan_to_toml(&empty, &Estimate::default()).expect("toml"),
        )
        .expect("write");
        let error = read_plan(&path).expect_err("nothing to search").to_string();
        assert!(error.contains("nothing to search"), "{error}");
    }

    #[test]
    fn an_edited_synthesis_is_an_edit_and_must_name_the_plans_domains() {
        let generated = generated_plan(&options(Tier::Quick));
        let mut edited = with_synthesis(&generated);
        let sections = edited.synthesis.as_mut().expect("written out");
        assert_eq!(
            sections
                .iter()
                .map(|section| section.part)
                .collect::<Vec<_>>(),
            litrev_model::SynthesisPart::ALL
        );
        sections.retain(|section| section.part != litrev_model::SynthesisPart::Foundations);
        let fields: Vec<String> = plan_edits(&generated, &edited)
            .into_iter()
            .map(|edit| edit.field)
            .collect();
        assert_eq!(fields, ["synthesis"]);

        let folder = tempfile::tempdir().expect("folder");
        let path = folder.path().join("plan.toml");
        if let Some(sections) = edited.synthesis.as_mut() {
            sections[0].domains = vec!["Astrology".to_owned()];
        }
        std::fs::write(
            &path,
            plan_to_toml(&edited, &Estimate::default()).expect("toml"),
        )
        .expect("write");
        let error = read_plan(&path).expect_err("no such domain").to_string();
        assert!(
            error.contains("\"Astrology\"") && error.contains("[[brief.domains]]"),
            "{error}"
        );
        if let Some(sections) = edited.synthesis.as_mut() {
            sections[0].domains.clear();
            let again = sections[0].clone();
            sections.push(again);
        }
        std::fs::write(
            &path,
            plan_to_toml(&edited, &Estimate::default()).expect("toml"),
        )
        .expect("write");
        let error = read_plan(&path).expect_err("a part twice").to_string();
        assert!(error.contains("\"methods\" is there twice"), "{error}");
    }
}
