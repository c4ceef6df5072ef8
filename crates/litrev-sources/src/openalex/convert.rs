//! OpenAlex wire records → `Work`.

use std::collections::BTreeMap;

use litrev_model::{Author, Biblio, Topic, Work, WorkId, WorkIds, WorkKind};

use super::wire::{WireKeyword, WireWork};
use crate::markup::inline_to_text;

/// Parses one OpenAlex Work JSON object.
///
/// # Errors
/// When the text is not a JSON object of the Work shape, or carries no usable id.
pub fn parse_work(json: &str) -> Result<Work, String> {
    let wire: WireWork = serde_json::from_str(json).map_err(|error| error.to_string())?;
    work_from_wire(wire)
}

/// Converts a wire record, refusing one without any id.
pub(crate) fn work_from_wire(wire: WireWork) -> Result<Work, String> {
    let mut ids = WorkIds::default();
    let wire_ids = wire.ids.as_ref();
    let candidates = [
        wire.id.as_deref(),
        wire_ids.and_then(|ids| ids.openalex.as_deref()),
        wire.doi.as_deref(),
        wire_ids.and_then(|ids| ids.doi.as_deref()),
        wire_ids.and_then(|ids| ids.pmid.as_deref()),
    ];
    for text in candidates.into_iter().flatten() {
        if let Ok(id) = text.parse::<WorkId>() {
            ids.add(id);
        }
    }
    if let Some(pmcid) = wire_ids.and_then(|ids| ids.pmcid.as_deref())
        && let Ok(id) = pmcid.parse()
    {
        ids.pmcid.get_or_insert(id);
    }
    if ids.primary().is_none() {
        return Err("the record has no OpenAlex id, DOI or PubMed id".to_owned());
    }

    let title = wire
        .title
        .or(wire.display_name)
        .map(|title| inline_to_text(&title))
        .filter(|title| !title.is_empty());
    let authors = wire
        .authorships
        .into_iter()
        .filter_map(|authorship| {
            let author = authorship.author;
            // A blank name (`"display_name": "\n"`) is no name: the raw one, else no author.
            let name = author
                .as_ref()
                .and_then(|author| author.display_name.clone())
                .filter(|name| !name.trim().is_empty())
                .or(authorship.raw_author_name)
                .filter(|name| !name.trim().is_empty())?;
            let id = author
                .as_ref()
                .and_then(|author| author.id.as_deref())
                .and_then(entity_id);
            let orcid = author.and_then(|author| author.orcid);
            Some(Author { id, name, orcid })
        })
        .collect();
    let primary_source = wire
        .primary_location
        .as_ref()
        .and_then(|location| location.source.as_ref());
    let venue = primary_source
        .and_then(|source| source.display_name.clone())
        .or_else(|| {
            wire.host_venue
                .as_ref()
                .and_then(|venue| venue.display_name.clone())
        });
    let publisher = primary_source
        .and_then(|source| source.host_organization_name.clone())
        .or_else(|| {
            wire.host_venue
                .as_ref()
                .and_then(|venue| venue.publisher.clone())
        });
    let kind = wire
        .type_crossref
        .as_deref()
        .or(wire.work_type.as_deref())
        .map(kind_of)
        .unwrap_or_default();
    let biblio = wire
        .biblio
        .map(|biblio| Biblio {
            volume: biblio.volume,
            issue: biblio.issue,
            first_page: biblio.first_page,
            last_page: biblio.last_page,
        })
        .unwrap_or_default();
    let oa_url = wire
        .open_access
        .and_then(|open_access| open_access.oa_url)
        .or_else(|| {
            [
                wire.best_oa_location.as_ref(),
                wire.primary_location.as_ref(),
            ]
            .into_iter()
            .flatten()
            .filter(|location| location.is_oa == Some(true))
            .find_map(|location| {
                location
                    .pdf_url
                    .clone()
                    .or(location.landing_page_url.clone())
            })
        });
    let references = wire
        .referenced_works
        .iter()
        .filter_map(|text| text.parse::<WorkId>().ok())
        .collect();

    Ok(Work {
        ids,
        title,
        authors,
        year: wire.publication_year,
        date: wire.publication_date,
        venue,
        publisher,
        kind,
        biblio,
        abstract_text: wire
            .abstract_inverted_index
            .as_ref()
            .and_then(rebuild_abstract),
        language: wire.language,
        cited_by_count: wire.cited_by_count,
        fields: fields(&wire.topics, &wire.concepts),
        topics: topics(&wire.topics, &wire.concepts),
        keywords: keywords(wire.topics, wire.keywords, wire.concepts, wire.mesh),
        references,
        oa_url,
        is_retracted: wire.is_retracted.unwrap_or(false),
    })
}

/// Maps a type name, including the names only OpenAlex uses: its current schema has no
/// `type_crossref`, and spells proceedings papers `conference-paper`.
fn kind_of(name: &str) -> WorkKind {
    match name {
        "conference-paper" => WorkKind::ProceedingsArticle,
        "retraction" => WorkKind::Editorial,
        other => WorkKind::from_source_type(other),
    }
}

/// Rebuilds an abstract from OpenAlex's `abstract_inverted_index` (word → positions).
///
/// Positions no word claims are skipped; a leading "Abstract" label is dropped, and so is a
/// publisher's landing page read in before the abstract ([`after_landing_page`]).
pub fn rebuild_abstract(index: &BTreeMap<String, Vec<usize>>) -> Option<String> {
    let mut placed: Vec<(usize, &str)> = index
        .iter()
        .flat_map(|(word, positions)| positions.iter().map(move |&at| (at, word.as_str())))
        .collect();
    placed.sort_unstable();
    let words: Vec<&str> = placed
        .into_iter()
        .map(|(_, word)| word)
        .skip_while(|word| {
            word.eq_ignore_ascii_case("abstract") || word.eq_ignore_ascii_case("abstract:")
        })
        .collect();
    let text = words.join(" ");
    let text = inline_to_text(&text);
    let text = after_landing_page(&text).to_owned();
    (!text.is_empty()).then_some(text)
}

/// The abstract after a publisher's landing page that OpenAlex read in as its first words
/// (the World Bank's e-library: `No AccessPolicy Research Working Papers25 Jun 2013Is Cost
/// Recovery … Authors/Editors: … ToolsAdd to favoritesDownload CitationsTrack Citations
/// ShareFacebookTwitterLinked In Abstract:Given the …`): the text after its "Abstract:" when
/// two or more of the page's controls come before it; the text as it is otherwise.
fn after_landing_page(text: &str) -> &str {
    const CONTROLS: &[&str] = &[
        "No Access",
        "Authors/Editors:",
        "Add to favorites",
        "Download Citations",
        "Track Citations",
        "View Chapters",
        "Linked In",
    ];
    let Some(at) = text.rfind("Abstract:") else {
        return text;
    };
    let page = &text[..at];
    let controls = CONTROLS
        .iter()
        .filter(|control| page.contains(*control))
        .count();
    if controls >= 2 {
        text[at + "Abstract:".len()..].trim_start()
    } else {
        text
    }
}

/// The work's subjects with their ids: its topics, or, in records from before topics, its
/// concepts below the two broadest levels ("Emicizumab", not "Medicine" or "Internal
/// medicine"), in the record's order.
fn topics(topics: &[super::wire::WireNamed], concepts: &[super::wire::WireNamed]) -> Vec<Topic> {
    let named = |entry: &super::wire::WireNamed| {
        Some(Topic {
            id: entity_id(entry.id.as_deref()?)?,
            name: entry.display_name.clone()?,
        })
    };
    let from_topics: Vec<Topic> = topics.iter().filter_map(named).collect();
    if !from_topics.is_empty() {
        return from_topics;
    }
    concepts
        .iter()
        .filter(|concept| {
            concept
                .level
                .is_some_and(|level| level >= SPECIFIC_CONCEPT_LEVEL)
        })
        .filter_map(named)
        .collect()
}

/// The shallowest concept level that names a topic rather than a discipline: levels 0 and 1
/// are disciplines and their branches.
const SPECIFIC_CONCEPT_LEVEL: u32 = 2;

/// An entity's id without the `https://openalex.org/` prefix (`A5023888391`, `T10102`), if it
/// is one: a letter and digits.
pub(crate) fn entity_id(text: &str) -> Option<String> {
    let id = text.trim().rsplit('/').next()?;
    let mut chars = id.chars();
    let letter = chars.next()?;
    (letter.is_ascii_uppercase() && id.len() > 1 && chars.all(|c| c.is_ascii_digit()))
        .then(|| id.to_owned())
}

/// The work's disciplines: its topics' fields, or, in records from before topics, its level-0
/// concepts ("Medicine", "Psychology"), in order and each once.
fn fields(topics: &[super::wire::WireNamed], concepts: &[super::wire::WireNamed]) -> Vec<String> {
    let from_topics = topics
        .iter()
        .filter_map(|topic| topic.field.as_ref()?.display_name.clone());
    let from_concepts = concepts
        .iter()
        .filter(|concept| concept.level == Some(0))
        .filter_map(|concept| concept.display_name.clone());
    let mut out: Vec<String> = Vec::new();
    let names: Vec<String> = if topics.iter().any(|topic| topic.field.is_some()) {
        from_topics.collect()
    } else {
        from_concepts.collect()
    };
    for name in names {
        if !name.is_empty() && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

fn keywords(
    topics: Vec<super::wire::WireNamed>,
    keywords: Vec<WireKeyword>,
    concepts: Vec<super::wire::WireNamed>,
    mesh: Vec<super::wire::WireMesh>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |name: Option<String>| {
        if let Some(name) = name.filter(|name| !name.is_empty())
            && !out.iter().any(|known| known.eq_ignore_ascii_case(&name))
        {
            out.push(name);
        }
    };
    for topic in topics {
        push(topic.display_name);
    }
    for keyword in keywords {
        push(match keyword {
            WireKeyword::Named { display_name } => display_name,
            WireKeyword::Plain(text) => Some(text),
        });
    }
    for heading in mesh
        .into_iter()
        .filter(|heading| heading.is_major_topic == Some(true))
    {
        push(heading.descriptor_name);
    }
    // Level-0 concepts ("Medicine", "Computer science") say little about a work.
    for concept in concepts
        .into_iter()
        .filter(|concept| concept.level != Some(0))
    {
        push(concept.display_name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rebuilds_abstracts_in_position_order() {
        let mut index = BTreeMap::new();
        index.insert("Abstract".to_owned(), vec![0]);
        index.insert("trials".to_owned(), vec![4]);
        index.insert("We".to_owned(), vec![1]);
        index.insert("reviewed".to_owned(), vec![2]);
        index.insert("twelve".to_owned(), vec![3]);
        index.insert("and".to_owned(), vec![6]);
        index.insert("trials.".to_owned(), vec![8]);
        index.insert("cohort".to_owned(), vec![7]);
        assert_eq!(
            rebuild_abstract(&index).as_deref(),
            Some("We reviewed twelve trials and cohort trials.")
        );
        assert_eq!(rebuild_abstract(&BTreeMap::new()), None);
        // A recorded OpenAlex work (W1540100396, Foster & Yepes 2006) whose abstract opens on
        // the World Bank e-library's landing page.
        let page = "No AccessPolicy Research Working Papers25 Jun 2013Is Cost Recovery A Feasible Objective For Water And Electricity ? The Latin American ExperienceAuthors/Editors: Vivien Foster and Tito YepesVivien Foster and Tito Yepeshttps://doi.org/10.1596/1813-9450-3943SectionsAboutPDF (0.4 MB) ToolsAdd to favoritesDownload CitationsTrack Citations ShareFacebookTwitterLinked In Abstract:Given the relatively small segment of the population that faces genuine affordability problems, targeted subsidies appear promising.";
        let index: BTreeMap<String, Vec<usize>> =
            page.split(' ')
                .enumerate()
                .fold(BTreeMap::new(), |mut index, (at, word)| {
                    index.entry(word.to_owned()).or_default().push(at);
                    index
                });
        assert_eq!(
            rebuild_abstract(&index).as_deref(),
            Some(
                "Given the relatively small segment of the population that faces genuine affordability problems, targeted subsidies appear promising."
            )
        );
        // An abstract that only names an abstract keeps its words.
        let text = "We compare each Abstract: heading with the text under it.";
        assert_eq!(after_landing_page(text), text);
    }

    #[test]
    fn reads_both_schemas() {
        let old = r#"{"id":"https://openalex.org/W1","doi":"https://doi.org/10.1/X","title":"T",
            "host_venue":{"display_name":"J Old","publisher":"P"},"type":"journal-article",
            "concepts":[{"display_name":"Medicine","level":0,"score":"0.9"},{"display_name":"Asthma","level":2,"score":"0.5"}],
            "biblio":{"volume":5,"issue":null,"first_page":"1","last_page":"9"},
            "authorships":[{"author":{"display_name":"Jane Smith","orcid":null}}],
            "referenced_works":["https://openalex.org/W2"],"abstract_inverted_index":null}"#;
        let work = parse_work(old).expect("2023 schema");
        assert_eq!(work.venue.as_deref(), Some("J Old"));
        assert_eq!(work.keywords, vec!["Asthma".to_owned()]);
        assert_eq!(
            work.fields,
            ["Medicine"],
            "level-0 concepts are the disciplines"
        );
        assert_eq!(work.biblio.volume.as_deref(), Some("5"));
        assert_eq!(work.kind, WorkKind::Article);
        assert_eq!(work.references.len(), 1);

        let new = r#"{"id":"https://openalex.org/W3","title":"U","type":"article",
            "primary_location":{"source":{"display_name":"J New","host_organization_name":"Q"}},
            "topics":[{"display_name":"Sleep research","field":{"display_name":"Neuroscience"}},
                {"display_name":"Circadian rhythms","field":{"display_name":"Neuroscience"}}],
            "concepts":[{"display_name":"Medicine","level":0}],
            "keywords":[{"display_name":"sleep"}]}"#;
        let work = parse_work(new).expect("current schema");
        assert_eq!(work.fields, ["Neuroscience"], "topics' fields, each once");
        assert_eq!(work.venue.as_deref(), Some("J New"));
        assert_eq!(work.publisher.as_deref(), Some("Q"));
        assert_eq!(
            work.keywords,
            vec![
                "Sleep research".to_owned(),
                "Circadian rhythms".to_owned(),
                "sleep".to_owned()
            ]
        );
    }

    #[test]
    fn blank_author_names_are_no_authors() {
        // Found by the fuzz targets `openalex_work_2023` and `openalex_work_current`: an
        // authorship whose display name was white space became an author without a name.
        let json = r#"{"id":"https://openalex.org/W1","authorships":[
            {"author":{"display_name":"\n\n","orcid":null}},
            {"author":{"display_name":" "},"raw_author_name":"Jane Smith"},
            {"author":{"display_name":"\r\n"},"raw_author_name":" "},
            {"author":{"display_name":"Bo Lee"}}]}"#;
        let work = parse_work(json).expect("work");
        let names: Vec<&str> = work
            .authors
            .iter()
            .map(|author| author.name.as_str())
            .collect();
        assert_eq!(names, ["Jane Smith", "Bo Lee"]);
    }

    #[test]
    fn refuses_records_without_ids() {
        assert!(parse_work(r#"{"title":"no id"}"#).is_err());
        assert!(parse_work("[1,2]").is_err());
    }
}
