//! Zotero: the Web API's listings and write answers read by `litrev export --zotero` and
//! `litrev screen --import-zotero`, and the CSL-JSON items turned into Zotero items.

use std::path::Path;

use litrev_sources::zotero;
use serde_json::{Value, json};

use super::text;
use crate::check::Checked;
use crate::seeds::{self, Seed, Seeds};

/// Item types a Zotero item litrev makes may have.
const ITEM_TYPES: &[&str] = &[
    "journalArticle",
    "conferencePaper",
    "book",
    "bookSection",
    "thesis",
    "report",
    "webpage",
    "dataset",
    "manuscript",
    "preprint",
    "document",
];

/// The CSL processor suite's items (real CSL-JSON, as other tools write it), each alone, as
/// Zotero items in a listing, and a write answer naming them.
pub(super) fn seeds(data: &Path) -> Seeds {
    let file = data.join("csl-test-suite/csl_json_inputs.jsonl.gz");
    let origin = seeds::relative(data, &file);
    let mut out = Vec::new();
    for (index, line) in seeds::lines(&file, 120)?.into_iter().enumerate() {
        let Ok(fixture) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let items = fixture["items"].as_array().cloned().unwrap_or_default();
        let listing: Vec<Value> = items
            .iter()
            .enumerate()
            .filter_map(|(at, csl)| {
                let item = zotero::item_from_csl(csl, "COLL2345")?;
                Some(json!({"key": format!("KEY{at:05}"), "version": index, "data": item}))
            })
            .collect();
        let answer = json!({
            "success": listing.iter().enumerate().map(|(at, item)| (at.to_string(), item["key"].clone())).collect::<serde_json::Map<_, _>>(),
            "unchanged": {},
            "failed": {},
        });
        let name = format!("{origin}:{}", index + 1);
        out.push(Seed::new(
            format!("{name} (CSL items)"),
            Value::Array(items).to_string(),
        ));
        out.push(Seed::new(
            format!("{name} (listing)"),
            Value::Array(listing).to_string(),
        ));
        out.push(Seed::new(
            format!("{name} (write answer)"),
            answer.to_string(),
        ));
    }
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// Every Zotero reader on one body: a listing, a write answer, and (for an array) each
/// element as a CSL-JSON item.
pub(super) fn run(input: &[u8]) -> Checked {
    let body = text(input);
    if let Ok(references) = zotero::parse_references(&body) {
        for reference in &references {
            if reference
                .doi
                .as_deref()
                .is_some_and(|doi| doi.trim() != doi || doi.is_empty())
            {
                return Err(format!("an untrimmed DOI: {reference:?}"));
            }
        }
    }
    if let Ok(keys) = zotero::parse_write_answer(&body, 2)
        && keys.len() != 2
    {
        return Err(format!("{} keys for the 2 objects sent", keys.len()));
    }
    if let Ok(Value::Array(items)) = serde_json::from_str::<Value>(&body) {
        for csl in &items {
            let Some(item) = zotero::item_from_csl(csl, "COLL2345") else {
                continue;
            };
            let item_type = item["itemType"].as_str().unwrap_or("");
            if !ITEM_TYPES.contains(&item_type) {
                return Err(format!("an item type Zotero does not know: {item_type}"));
            }
            if item["title"]
                .as_str()
                .is_none_or(|title| title.trim().is_empty())
            {
                return Err(format!("an item without a title: {item}"));
            }
            let extra = item["extra"].as_str().unwrap_or("");
            if zotero::marks_in_extra(extra) != zotero::mark_of(csl).into_iter().collect::<Vec<_>>()
            {
                return Err(format!("the mark does not read back from extra: {extra:?}"));
            }
        }
    }
    Ok(())
}
