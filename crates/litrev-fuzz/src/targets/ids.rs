//! Work identifiers as outside data writes them: every id a parser reads goes through
//! `WorkId`'s `FromStr` (or a newtype's), and every id litrev stores must read back from the
//! text it prints.

use std::fmt::Debug;
use std::path::Path;
use std::str::FromStr;

use litrev_model::{ArxivId, Doi, Isbn, OpenAlexId, Pmcid, Pmid, S2Id, WorkId};

use super::text;
use crate::check::{self, Checked};
use crate::seeds::{self, Seed, Seeds};

/// Spellings seen in the wild, beside the ids read from the data.
const SPELLINGS: &[&str] = &[
    "https://openalex.org/W2560438049",
    "w2560438049",
    "openalex:W42",
    "https://api.openalex.org/works/W42",
    "https://doi.org/10.1186/S13643-016-0384-4",
    "doi:10.1000/XYZ",
    "http://dx.doi.org/10.1000/abc",
    " 10.1000/abc ",
    "https://doi.org/10.48550/arXiv.2101.00001",
    "https://pubmed.ncbi.nlm.nih.gov/27919275",
    "PMID:0027919275",
    "https://www.ncbi.nlm.nih.gov/pmc/articles/5139140",
    "pmc5139140",
    "arXiv:2101.00001v3",
    "https://arxiv.org/abs/hep-th/9901001v1",
    "https://arxiv.org/pdf/1706.03762v7.pdf",
    "s2:649DEF34F8BE52C8B66281AF98AE884C09AEF38B",
    "https://www.semanticscholar.org/paper/Title-Words/649def34f8be52c8b66281af98ae884c09aef38b",
    "isbn:0-14-032872-6",
    "ISBN 978-0-14-032872-1",
    "urn:isbn:080442957X",
    "9780439064873",
];

/// The ids of the first rows of SYNERGY's label files (OpenAlex ids, DOIs, PubMed ids), the
/// Semantic Scholar example objects' ids, the arXiv ids asked for in the recorded feeds, and
/// the spellings of [`SPELLINGS`].
pub(super) fn seeds(data: &Path) -> Seeds {
    let mut out: Vec<Seed> = SPELLINGS
        .iter()
        .map(|spelling| Seed::new("spellings", *spelling))
        .collect();
    for file in seeds::files(&data.join("synergy/labels"), &[".csv.gz"])?
        .iter()
        .take(4)
    {
        let origin = seeds::relative(data, file);
        for line in seeds::lines(file, 6)?.iter().skip(1) {
            for field in line.split(',').take(3).filter(|field| !field.is_empty()) {
                out.push(Seed::new(origin.clone(), field));
            }
        }
    }
    for name in ["Citation.json", "Reference.json"] {
        let file = data.join("semanticscholar-graph-api/json").join(name);
        let value: serde_json::Value = serde_json::from_slice(&seeds::read(&file)?)
            .map_err(|error| format!("{}: {error}", file.display()))?;
        let mut stack = vec![&value];
        while let Some(node) = stack.pop() {
            match node {
                serde_json::Value::Object(map) => {
                    for (key, field) in map {
                        if let Some(text) = field.as_str()
                            && (key == "paperId"
                                || key == "DOI"
                                || key == "ArXiv"
                                || key == "PubMed")
                        {
                            out.push(Seed::new(seeds::relative(data, &file), text));
                        }
                        stack.push(field);
                    }
                }
                serde_json::Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
    for file in seeds::files(&data.join("arxiv-atom/recorded_2026"), &[".json"])? {
        let name = file
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("");
        if let Some(ids) = name.strip_prefix("id_") {
            for id in ids.split("_s0_").next().unwrap_or("").split('_') {
                out.push(Seed::new(
                    seeds::relative(data, &file),
                    format!("arXiv:{id}"),
                ));
            }
        }
    }
    Ok(out)
}

/// Each line read as a `WorkId` and as every newtype; whatever parses must read back from its
/// printed form, and as a `WorkId` too.
pub(super) fn run(input: &[u8]) -> Checked {
    for line in text(input).lines().take(32) {
        if let Ok(id) = line.parse::<WorkId>() {
            check::id_round_trip(&id)?;
        }
        typed::<OpenAlexId>(line, WorkId::OpenAlex)?;
        typed::<Doi>(line, WorkId::Doi)?;
        typed::<Pmid>(line, WorkId::Pmid)?;
        typed::<Pmcid>(line, WorkId::Pmcid)?;
        typed::<ArxivId>(line, WorkId::Arxiv)?;
        typed::<S2Id>(line, WorkId::S2)?;
        typed::<Isbn>(line, WorkId::Isbn)?;
    }
    Ok(())
}

fn typed<T>(line: &str, wrap: fn(T) -> WorkId) -> Checked
where
    T: FromStr + ToString + PartialEq + Debug + Clone,
{
    let Ok(id) = line.parse::<T>() else {
        return Ok(());
    };
    let printed = id.to_string();
    match printed.parse::<T>() {
        Ok(again) if again == id => {}
        _ => {
            return Err(format!(
                "{id:?} (from {line:?}) does not read back from `{printed}`"
            ));
        }
    }
    check::id_round_trip(&wrap(id))
}
