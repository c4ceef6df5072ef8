//! The publish step: the review in every format, the tables, the graph and charts, PRISMA, and
//! `run.json`, written to the output folder and kept in the store.

use std::collections::BTreeMap;

use litrev_audit::AuditReport;
use litrev_discover::QueryHits;
use litrev_graph::CitationGraph;
use litrev_model::{Citation, CorpusEntry, Organisation, ReasonCode, Work, WorkId};
use litrev_publish::{Artifact, CitationStyle};
use litrev_store::StepWrites;
use serde::{Deserialize, Serialize};

use super::discover::DiscoverRecord;
use super::screen::{ScreenRecord, Screened, screening_files};
use super::snowball::snowball_requests;
use super::write::{Synthesis, WriteRecord};
use super::{Drive, Outcome, Runner, Summary, TOOL_VERSION, finished, load_style, write_file};
use crate::error::{Error, Result};
use crate::fulltext::FulltextRecord;
use crate::record::{EstimateCheck, OutputFile, RECORD_FORMAT, RunRecordFile, SourceCalls};
use crate::telemetry::{StepTelemetry, Telemetry};

/// The publish step's output: every file written, with its hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct PublishRecord {
    outputs: Vec<OutputFile>,
}

/// What the steps after the gate stored, as the publish step reads it.
pub(super) struct Reviewed<'a> {
    pub(super) synthesis: Synthesis<'a>,
    pub(super) written: &'a WriteRecord,
    pub(super) audit: &'a AuditReport,
}

impl Runner {
    /// Runs the publish step: it always runs, since its files are what the run is for.
    pub(super) fn publish_step(
        &mut self,
        drive: &Drive<'_>,
        screened: &Screened,
        reviewed: &Reviewed<'_>,
    ) -> Result<Outcome> {
        let (options, events) = (&drive.options, drive.events);
        let (written, audit) = (reviewed.written, reviewed.audit);
        let (included, organisation) =
            (reviewed.synthesis.included, reviewed.synthesis.organisation);
        self.started(events, "publish", "writing the output files");
        let style = load_style(&options.style)?;
        let mut artifacts = output_files(&style, screened, reviewed)?;
        // The publish step's own cost is read before run.json is written, and stored as read.
        let publishing = self.reading("publish", Vec::new());
        let mut measured: Vec<StepTelemetry> = self.store().step_telemetry(drive.run)?;
        measured.extend(publishing.clone());
        let telemetry = Telemetry::of(measured);
        let outputs: Vec<OutputFile> = artifacts
            .iter()
            .map(|artifact| OutputFile {
                path: artifact.name.clone(),
                sha256: artifact.sha256(),
                bytes: artifact.bytes.len() as u64,
            })
            .collect();
        let run_record = run_record(drive, screened, reviewed, &outputs, &telemetry)?;
        let run_json = serde_json::to_string_pretty(&run_record)
            .map_err(|error| Error::BadOptions(error.to_string()))?;
        artifacts.push(Artifact {
            name: "run.json".to_owned(),
            bytes: format!("{run_json}\n").into_bytes(),
        });
        for artifact in &artifacts {
            write_file(&options.out_dir, &artifact.name, &artifact.bytes)?;
        }
        // The folder is kept in the store too: any machine can write it out (`litrev export`).
        let files: Vec<(String, Vec<u8>)> = artifacts
            .iter()
            .map(|artifact| (artifact.name.clone(), artifact.bytes.clone()))
            .collect();
        self.commit_measured(
            drive.run,
            "publish",
            &PublishRecord { outputs },
            &StepWrites {
                outputs: &files,
                ..StepWrites::default()
            },
            publishing.as_ref(),
        )?;
        finished(
            events,
            "publish",
            format!("{} files in {}", artifacts.len(), options.out_dir.display()),
        );
        Ok(Outcome::Done(Summary {
            run: drive.run.clone(),
            considered: screened.screen.considered,
            included: included.len(),
            themes: organisation.themes.len(),
            words: written.words,
            citations: audit.citations,
            views: organisation.views.clone(),
            out_dir: options.out_dir.clone(),
            telemetry,
        }))
    }
}

/// Every output file but `run.json`: the review in the run's style, the screening tables,
/// the analysis files, the study cards and PRISMA.
fn output_files(
    style: &CitationStyle,
    screened: &Screened,
    reviewed: &Reviewed<'_>,
) -> Result<Vec<Artifact>> {
    let Synthesis {
        included,
        citations,
        fulltext,
        organisation,
    } = &reviewed.synthesis;
    let review = &reviewed.written.review;
    let mut artifacts = litrev_publish::review_files(review, included, style)?;
    artifacts.extend(screening_files(screened)?);
    artifacts.extend(analysis_files(
        &screened.entries,
        &screened.all_works,
        included,
        citations,
        organisation,
    ));
    let keys = litrev_publish::citation_keys(review, included)?;
    artifacts.push(Artifact {
        name: "study_cards.json".to_owned(),
        bytes: litrev_publish::study_cards_json(
            &fulltext.retrievals,
            &fulltext.cards,
            included,
            &keys,
        )
        .into_bytes(),
    });
    artifacts.push(Artifact {
        name: "study_cards.csv".to_owned(),
        bytes: litrev_publish::study_cards_csv(
            &fulltext.retrievals,
            &fulltext.cards,
            included,
            &keys,
        )?
        .into_bytes(),
    });
    let prisma = prisma_counts(
        &screened.discovery,
        &screened.entries,
        &screened.all_works,
        &screened.screen,
        fulltext,
    );
    artifacts.push(Artifact {
        name: "prisma.svg".to_owned(),
        bytes: litrev_publish::prisma_svg(&prisma).into_bytes(),
    });
    Ok(artifacts)
}

/// `run.json`: what was asked, what ran, what each step counted and cost, and the files made.
fn run_record(
    drive: &Drive<'_>,
    screened: &Screened,
    reviewed: &Reviewed<'_>,
    outputs: &[OutputFile],
    telemetry: &Telemetry,
) -> Result<RunRecordFile> {
    let options = &drive.options;
    let Screened {
        planned,
        discovery,
        stages,
        ..
    } = screened;
    let plan = &planned.plan;
    let calls = SourceCalls::total(
        std::iter::once(discovery.calls.as_slice())
            .chain(stages.iter().map(|stage| stage.calls.as_slice())),
    );
    let to_json = |value: serde_json::Result<serde_json::Value>| {
        value.map_err(|error| Error::BadOptions(error.to_string()))
    };
    Ok(RunRecordFile {
        format: RECORD_FORMAT,
        tool: "litrev".to_owned(),
        tool_version: TOOL_VERSION.to_owned(),
        run_id: drive.run.to_string(),
        created_at: drive.created_at.clone(),
        question: plan.question.clone(),
        options: to_json(serde_json::to_value(options))?,
        plan: to_json(serde_json::to_value(crate::plan_file::with_synthesis(plan)))?,
        plan_edits: planned.edits.clone(),
        inputs: discovery.inputs.clone(),
        counts: step_counts(screened, reviewed),
        outputs: outputs.to_vec(),
        estimate: EstimateCheck::of(crate::estimate(plan, &options.sources), &calls),
        calls,
        llm: reviewed.written.llm.clone(),
        llm_estimate: options.llm.as_ref().map(|llm| {
            crate::estimate_llm(
                plan,
                llm,
                options.max_fulltext.unwrap_or(plan.limits.max_fulltext),
            )
        }),
        telemetry: Some(telemetry.clone()),
    })
}

/// `run.json`'s `counts`: what each step found, kept, made and checked.
fn step_counts(screened: &Screened, reviewed: &Reviewed<'_>) -> serde_json::Value {
    let Screened {
        discovery,
        stages,
        screen,
        ..
    } = screened;
    let (organisation, fulltext) = (reviewed.synthesis.organisation, reviewed.synthesis.fulltext);
    let (asked, minimum, ratio) = snowball_requests(stages);
    serde_json::json!({
        "discover": {
            "queries": discovery.hits.iter().map(|hits| serde_json::json!({
                "label": hits.label, "text": hits.text, "hits": hits.works.len(),
                "channel": hits.channel().name()
            })).collect::<Vec<_>>(),
            "raw_hits": discovery.raw_hits,
            "works": discovery.discovered,
        },
        "snowball": stages.iter().map(|stage| serde_json::json!({
            "report": stage.report, "stop": stage.stop, "threshold": stage.threshold,
            "openalex_requests": stage.openalex_requests(),
            "minimum_requests": stage.expansion.minimum_requests(),
        })).collect::<Vec<_>>(),
        "snowball_requests": {
            "openalex": asked, "minimum": minimum, "ratio": ratio,
        },
        "screen": screen,
        "organise": {
            "themes": organisation.themes.iter().map(|theme| serde_json::json!({
                "label": theme.label, "works": theme.works.len()
            })).collect::<Vec<_>>(),
            "views": organisation.views,
        },
        "fulltext": {
            "works": fulltext.counts(),
            "study_cards": fulltext.cards.len(),
        },
        "write": { "words": reviewed.written.words },
        "audit": reviewed.audit,
    })
}

/// `themes.json`, `graph.graphml` and `charts/*.svg`: the organisation for people and tools.
fn analysis_files(
    entries: &[CorpusEntry],
    works: &BTreeMap<WorkId, Work>,
    included: &BTreeMap<WorkId, Work>,
    citations: &[Citation],
    organisation: &Organisation,
) -> Vec<Artifact> {
    let theme_of: BTreeMap<&WorkId, &str> = organisation
        .themes
        .iter()
        .flat_map(|theme| theme.works.iter().map(move |id| (id, theme.label.as_str())))
        .collect();
    let ids: Vec<WorkId> = entries.iter().map(|entry| entry.work.clone()).collect();
    let graph = CitationGraph::new(&ids, citations);
    let stubs: BTreeMap<WorkId, Work> = entries
        .iter()
        .filter(|entry| !works.contains_key(&entry.work))
        .map(|entry| (entry.work.clone(), Work::stub(entry.work.clone())))
        .collect();
    let nodes: Vec<litrev_publish::GraphNode<'_>> = entries
        .iter()
        .filter_map(|entry| {
            let work = works.get(&entry.work).or_else(|| stubs.get(&entry.work))?;
            Some(litrev_publish::GraphNode {
                work,
                theme: theme_of.get(&entry.work).copied(),
                included: included.contains_key(&entry.work),
                corpus_citations: graph.in_degree(&entry.work),
            })
        })
        .collect();

    let series: Vec<(String, BTreeMap<i32, usize>)> = organisation
        .themes
        .iter()
        .map(|theme| {
            let mut per_year: BTreeMap<i32, usize> = BTreeMap::new();
            for year in theme.works.iter().filter_map(|id| included.get(id)?.year) {
                *per_year.entry(year).or_default() += 1;
            }
            (theme.label.clone(), per_year)
        })
        .collect();
    let top = |counts: BTreeMap<String, usize>, limit: usize| {
        let mut items: Vec<(String, usize)> = counts.into_iter().collect();
        items.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        items.truncate(limit);
        items
    };
    let mut venues: BTreeMap<String, usize> = BTreeMap::new();
    let mut authors: BTreeMap<String, usize> = BTreeMap::new();
    for work in included.values() {
        if let Some(venue) = &work.venue {
            *venues.entry(venue.clone()).or_default() += 1;
        }
        for author in &work.authors {
            *authors.entry(author.name.clone()).or_default() += 1;
        }
    }
    let mut origins: BTreeMap<String, usize> = BTreeMap::new();
    for entry in entries
        .iter()
        .filter(|entry| included.contains_key(&entry.work))
    {
        *origins.entry(entry.origin.name().to_owned()).or_default() += 1;
    }
    // The citation graph among the included works, grouped by theme.
    let theme_index = organisation.theme_index();
    let drawn: Vec<&WorkId> = included.keys().collect();
    let index_of: BTreeMap<&WorkId, usize> = drawn
        .iter()
        .enumerate()
        .map(|(index, id)| (*id, index))
        .collect();
    let circle_nodes: Vec<litrev_publish::CircleNode> = drawn
        .iter()
        .map(|id| litrev_publish::CircleNode {
            label: included[*id]
                .title
                .clone()
                .unwrap_or_else(|| id.to_string()),
            theme: theme_index
                .get(id)
                .copied()
                .unwrap_or(organisation.themes.len()),
            cited: graph.in_degree(id),
        })
        .collect();
    let circle_edges: Vec<(usize, usize)> = citations
        .iter()
        .filter_map(|citation| {
            Some((
                *index_of.get(&citation.citing)?,
                *index_of.get(&citation.cited)?,
            ))
        })
        .collect();
    let mut circle_themes: Vec<String> = organisation
        .themes
        .iter()
        .map(|theme| theme.label.clone())
        .collect();
    if circle_nodes
        .iter()
        .any(|node| node.theme == organisation.themes.len())
    {
        circle_themes.push("outside the themes".to_owned());
    }
    let themes_json =
        serde_json::to_string_pretty(organisation).expect("an organisation always serialises");
    vec![
        Artifact {
            name: "themes.json".to_owned(),
            bytes: format!("{themes_json}\n").into_bytes(),
        },
        Artifact {
            name: "graph.graphml".to_owned(),
            bytes: litrev_publish::graphml(&nodes, citations).into_bytes(),
        },
        Artifact {
            name: "charts/years.svg".to_owned(),
            bytes: litrev_publish::stacked_years_svg("Included works per year, by theme", &series)
                .into_bytes(),
        },
        Artifact {
            name: "charts/venues.svg".to_owned(),
            bytes: litrev_publish::bars_svg("Top venues of the included works", &top(venues, 15))
                .into_bytes(),
        },
        Artifact {
            name: "charts/authors.svg".to_owned(),
            bytes: litrev_publish::bars_svg("Top authors of the included works", &top(authors, 15))
                .into_bytes(),
        },
        Artifact {
            name: "charts/sources.svg".to_owned(),
            bytes: litrev_publish::bars_svg("How the included works were found", &top(origins, 4))
                .into_bytes(),
        },
        Artifact {
            name: "charts/citations.svg".to_owned(),
            bytes: litrev_publish::citation_circle_svg(
                "Citations among the included works, by theme",
                &circle_themes,
                &circle_nodes,
                &circle_edges,
            )
            .into_bytes(),
        },
    ]
}

/// The PRISMA flow's counts, from what the steps stored.
fn prisma_counts(
    discovery: &DiscoverRecord,
    entries: &[CorpusEntry],
    works: &BTreeMap<WorkId, Work>,
    screen: &ScreenRecord,
    fulltext: &FulltextRecord,
) -> litrev_publish::PrismaCounts {
    let described =
        |entry: &&CorpusEntry| works.get(&entry.work).is_some_and(|work| !work.is_stub());
    let named = |origin: litrev_model::Origin| {
        entries
            .iter()
            .filter(|entry| entry.origin == origin)
            .count()
    };
    let (seeds, pages) = (
        named(litrev_model::Origin::Seed),
        named(litrev_model::Origin::Page),
    );
    // A library's records are identified whether or not a search found them too.
    let library = discovery
        .libraries
        .iter()
        .map(|library| library.works)
        .sum();
    let mut excluded: Vec<(String, usize)> = screen
        .excluded
        .iter()
        .filter(|(reason, _)| **reason != ReasonCode::NoMetadata)
        .map(|(reason, count)| (reason.code().to_owned(), *count))
        .collect();
    excluded.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    litrev_publish::PrismaCounts {
        source: discovery.source.clone(),
        search_hits: discovery.raw_hits,
        channels: hits_by_channel(&discovery.hits),
        seeds,
        pages,
        library,
        snowballed: entries.iter().filter(|entry| entry.stage > 0).count(),
        // Every record identified, less those left after merging the same work's records.
        duplicates: (discovery.raw_hits + seeds + pages + library)
            .saturating_sub(discovery.discovered),
        no_metadata: entries.iter().filter(|entry| !described(entry)).count(),
        screened: entries.iter().filter(described).count(),
        excluded,
        included: screen.included,
        reports: Some(fulltext.report_counts()),
    }
}

/// The searches' hits (duplicates included) by the channel of their query, in the channels'
/// order.
fn hits_by_channel(hits: &[QueryHits]) -> Vec<(String, usize)> {
    let mut by_channel: BTreeMap<litrev_model::Channel, usize> = BTreeMap::new();
    for query in hits {
        *by_channel.entry(query.channel()).or_default() += query.works.len();
    }
    by_channel
        .into_iter()
        .map(|(channel, count)| (channel.name().to_owned(), count))
        .collect()
}
