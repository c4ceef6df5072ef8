//! The full-text step, between the gate and organise: each included work's full text is read
//! (the person's folders first, then — for runs asking live APIs, within `--max-fulltext` — the
//! open-access copies its record points at), kept in the store by sha256, and turned into a study card whose
//! every span is checked verbatim before it is committed.

use std::collections::{BTreeMap, BTreeSet};

use std::ops::ControlFlow;
use std::path::Path;

use litrev_extract::Paper;
use litrev_fulltext::{
    Copies, FulltextConfig, Library, PlannedDownload, host_of, is_known_host, plan_downloads,
};
use litrev_model::{
    FullText, MissingText, Retrieval, RunId, ScreeningDecision, StudyCard, TextStatus, Work, WorkId,
};
use litrev_sources::Source;
use litrev_store::{StepWrites, StoredText};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::events::Event;
use crate::llm::CardsLlmRecord;
use crate::options::{RunOptions, SourceSpec};
use crate::runner::{Drive, Outcome, Runner, finished};

/// What the full-text step reads: the screening decisions in force, the included works, and
/// the dollars the model's calls of the earlier steps spent (off the run's budget).
pub(crate) struct FulltextInputs<'a> {
    pub(crate) decisions: &'a [ScreeningDecision],
    /// The files the person's libraries keep for their works (Zotero's attachments).
    pub(crate) attached: Vec<(&'a WorkId, &'a Path)>,
    pub(crate) included: &'a BTreeMap<WorkId, Work>,
    pub(crate) spent_usd: f64,
}

/// What the full-text step stored: how each included work's text was obtained (in the order
/// they were sought: screening score, best first) and the study cards of those read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct FulltextRecord {
    pub(crate) retrievals: Vec<Retrieval>,
    pub(crate) cards: Vec<StudyCard>,
    /// What the model did, when the run named one (`--llm`): the cards are then its.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) llm: Option<CardsLlmRecord>,
}

impl FulltextRecord {
    /// The copies the step downloaded (address, hash of the text read): what the store keeps
    /// so no run fetches them again.
    fn downloads(&self) -> Vec<(String, String)> {
        self.retrievals
            .iter()
            .filter_map(|retrieval| {
                let origin = retrieval.origin.as_ref()?;
                let downloaded = origin.starts_with("http://") || origin.starts_with("https://");
                Some((origin.clone(), retrieval.sha256.clone()?)).filter(|_| downloaded)
            })
            .collect()
    }

    /// How many works were read in each format, and how many only by their abstract.
    pub(crate) fn counts(&self) -> BTreeMap<&'static str, usize> {
        let mut counts = BTreeMap::new();
        for retrieval in &self.retrievals {
            *counts.entry(retrieval.status.name()).or_default() += 1;
            if let Some(missing) = retrieval.missing {
                *counts.entry(missing.name()).or_default() += 1;
            }
        }
        counts
    }

    /// The study cards by work, as the writer reads them.
    pub(crate) fn cards_by_work(&self) -> BTreeMap<WorkId, StudyCard> {
        self.cards
            .iter()
            .map(|card| (card.work.clone(), card.clone()))
            .collect()
    }

    /// The PRISMA boxes of full-text retrieval.
    pub(crate) fn report_counts(&self) -> litrev_publish::ReportCounts {
        let mut not_retrieved: BTreeMap<&str, usize> = BTreeMap::new();
        let mut over_budget = 0;
        for retrieval in &self.retrievals {
            match retrieval.missing {
                Some(MissingText::Budget) => over_budget += 1,
                Some(missing) => *not_retrieved.entry(missing.name()).or_default() += 1,
                None => {}
            }
        }
        let mut not_retrieved: Vec<(String, usize)> = not_retrieved
            .into_iter()
            .map(|(reason, count)| (reason.to_owned(), count))
            .collect();
        not_retrieved.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        litrev_publish::ReportCounts {
            sought: self.retrievals.len() - over_budget,
            over_budget,
            not_retrieved,
            read: self.retrievals.iter().filter(|r| r.has_text()).count(),
        }
    }
}

impl Runner {
    /// The stored texts the cards point into, by sha256, for the audit.
    pub(crate) fn full_texts(&self, record: &FulltextRecord) -> Result<BTreeMap<String, FullText>> {
        let mut texts = BTreeMap::new();
        for card in &record.cards {
            if texts.contains_key(&card.sha256) {
                continue;
            }
            let text = self
                .store()
                .full_text(&card.sha256)?
                .ok_or_else(|| Error::MissingStep(format!("full text {}", card.sha256)))?;
            texts.insert(card.sha256.clone(), text);
        }
        Ok(texts)
    }

    /// The study cards of the `papers` read in full: by the run's model when it has one, else
    /// extractively; every card's evidence is checked verbatim against its text.
    fn study_cards(
        &self,
        options: &RunOptions,
        spent_usd: f64,
        papers: &[Paper<'_>],
        events: &dyn Fn(&Event),
    ) -> Result<(Vec<StudyCard>, Option<CardsLlmRecord>)> {
        let (cards, llm) = match &options.llm {
            Some(llm) if !papers.is_empty() => {
                let (cards, llm) =
                    crate::llm::read_cards(&self.llm_cache()?, llm, spent_usd, papers, events)?;
                (cards, Some(llm))
            }
            _ => (
                papers
                    .iter()
                    .map(|paper| litrev_extract::study_card(paper.id, paper.sha256, paper.text))
                    .collect(),
                None,
            ),
        };
        for (card, paper) in cards.iter().zip(papers) {
            litrev_extract::verify(card, paper.text).map_err(Error::CardNotVerbatim)?;
        }
        Ok((cards, llm))
    }

    /// Runs (or loads) the full-text step for the included works; a run that would download
    /// copies the person has not seen may stop at the download gate instead.
    pub(crate) fn full_text_step(
        &mut self,
        drive: &Drive<'_>,
        inputs: FulltextInputs<'_>,
    ) -> Result<ControlFlow<Outcome, FulltextRecord>> {
        let (run, options, events) = (drive.run, &drive.options, drive.events);
        let FulltextInputs {
            decisions,
            attached,
            included,
            spent_usd,
        } = inputs;
        if let Some(record) = self.stored(drive, "fulltext")? {
            return Ok(ControlFlow::Continue(record));
        }
        self.started(events, "fulltext", "reading the included works' full texts");
        let ranked = sought_order(decisions, included);
        let config = FulltextConfig {
            // A Zotero library's stored files are full texts the person brought.
            dirs: options
                .fulltext_dirs
                .iter()
                .cloned()
                .chain(
                    options
                        .libraries
                        .iter()
                        .filter_map(crate::LibraryFile::storage),
                )
                .collect(),
            max_downloads: options
                .max_fulltext
                .unwrap_or(options.tier.limits().max_fulltext),
            ..FulltextConfig::default()
        };
        // A run over local snapshots stays offline; one that asks live APIs may also download
        // the open-access copies their records point at, through the guarded downloader.
        let online = options
            .sources
            .iter()
            .any(|source| !matches!(source, SourceSpec::Snapshot { .. }));
        let downloader = if online {
            Some(self.sources().downloader()?)
        } else {
            None
        };
        let linked = if online {
            self.with_open_links(options, &ranked, config.max_downloads, events)?
        } else {
            Vec::new()
        };
        let ranked: Vec<(&WorkId, &Work)> = if linked.is_empty() {
            ranked
        } else {
            ranked.iter().map(|(id, _)| *id).zip(&linked).collect()
        };
        let mut library = Library::scan(&config.dirs, config.pdf)?;
        for (work, path) in attached {
            library.attach(path, work);
        }
        // A copy some run downloaded before (or a page named and read at discovery) is read
        // from the store, not fetched again, nor asked for.
        if downloader.is_some() && !options.approve {
            let held = |url: &str| self.store().has_download(url).unwrap_or(false);
            let planned = plan_downloads(
                &config,
                &library,
                ranked.iter().map(|(_, work)| *work),
                &held,
            );
            if let Some(paused) = self.download_gate(run, options, planned)? {
                return Ok(ControlFlow::Break(paused));
            }
        }
        let store = self.store();
        let earlier = |url: &str| store.downloaded(url).ok().flatten();
        let copies = Copies {
            downloader: downloader.as_ref(),
            earlier: &earlier,
        };
        let acquired = litrev_fulltext::acquire(
            &config,
            &library,
            ranked.iter().map(|(_, work)| *work),
            &copies,
        )?;
        let mut record = FulltextRecord::default();
        let mut texts: Vec<StoredText> = Vec::new();
        let mut read: Vec<(&WorkId, &Work)> = Vec::new();
        for (acquired, (id, work)) in acquired.into_iter().zip(&ranked) {
            let mut retrieval = acquired.retrieval;
            // The run knows the work by its corpus id.
            retrieval.work = (*id).clone();
            if let Some(text) = acquired.text {
                read.push((id, work));
                texts.push(StoredText {
                    sha256: text.sha256,
                    format: text.text.format,
                    bytes: text.bytes,
                    text: text.text,
                });
            }
            record.retrievals.push(retrieval);
        }
        let papers: Vec<Paper<'_>> = read
            .iter()
            .zip(&texts)
            .map(|((id, work), text)| Paper {
                work,
                id,
                sha256: &text.sha256,
                text: &text.text,
            })
            .collect();
        (record.cards, record.llm) = self.study_cards(options, spent_usd, &papers, events)?;
        let usage = record.llm.iter().map(|llm| llm.usage.clone()).collect();
        let downloads = record.downloads();
        self.commit(
            run,
            "fulltext",
            &record,
            &StepWrites {
                full_texts: &texts,
                downloads: &downloads,
                ..StepWrites::default()
            },
            usage,
        )?;
        let read = record
            .retrievals
            .iter()
            .filter(|retrieval| retrieval.status != TextStatus::AbstractOnly)
            .count();
        finished(
            events,
            "fulltext",
            format!(
                "{read} of {} included works read in full, {} study cards",
                record.retrievals.len(),
                record.cards.len()
            ),
        );
        Ok(ControlFlow::Continue(record))
    }

    /// The works, in order, with the open-access links the run's sources that know where a
    /// DOI can be read openly (Unpaywall, named with `--source unpaywall`) give for the first
    /// `budget` works whose record points at no copy; asked through the HTTP layer (its cache,
    /// rate limits and retries). Empty when no such source is named. A DOI the source cannot
    /// answer for stays without a link, and the run says so once.
    fn with_open_links(
        &self,
        options: &RunOptions,
        ranked: &[(&WorkId, &Work)],
        budget: usize,
        events: &dyn Fn(&Event),
    ) -> Result<Vec<Work>> {
        let sources = self.sources().open(&options.sources, events)?;
        if !sources.capabilities().fulltext_links {
            return Ok(Vec::new());
        }
        let mut asked = 0;
        let mut failures = Vec::new();
        let mut works = Vec::with_capacity(ranked.len());
        for (_, work) in ranked {
            let mut work = (*work).clone();
            let bare =
                work.oa_url.is_none() && work.ids.pmcid.is_none() && work.ids.arxiv.is_none();
            if let Some(doi) = work.ids.doi.clone().filter(|_| bare && asked < budget) {
                asked += 1;
                match sources.oa_link(&doi) {
                    Ok(link) => {
                        work.oa_url = link.and_then(|link| link.best_url().map(str::to_owned));
                    }
                    Err(error) => failures.push(error.to_string()),
                }
            }
            works.push(work);
        }
        if let Some(first) = failures.first() {
            events(&Event::Notice {
                message: format!(
                    "open-access links: {} of {asked} DOIs could not be looked up (first: {first})",
                    failures.len()
                ),
            });
        }
        Ok(works)
    }

    /// The second gate: a run that would download more than [`DOWNLOAD_GATE`] copies, or any
    /// from a host that is not a known publisher or repository, pauses (once; resuming is the
    /// approval, `--yes` the approval in advance) and writes what it would fetch to
    /// `downloads.csv`.
    fn download_gate(
        &mut self,
        run: &RunId,
        options: &RunOptions,
        planned: Vec<PlannedDownload>,
    ) -> Result<Option<Outcome>> {
        let unknown_hosts: BTreeSet<String> = planned
            .iter()
            .flat_map(PlannedDownload::hosts)
            .filter(|host| !is_known_host(host))
            .collect();
        if planned.len() <= DOWNLOAD_GATE && unknown_hosts.is_empty() {
            return Ok(None);
        }
        if self.store().has_event(run, DOWNLOADS_SHOWN)? {
            return Ok(None);
        }
        let plan_csv = options.out_dir.join("downloads.csv");
        std::fs::create_dir_all(&options.out_dir)
            .and_then(|()| std::fs::write(&plan_csv, downloads_csv(&planned, &unknown_hosts)?))
            .map_err(|source| Error::Write {
                path: plan_csv.clone(),
                source,
            })?;
        let unknown_hosts: Vec<String> = unknown_hosts.into_iter().collect();
        let shown = serde_json::json!({
            "planned": planned.len(),
            "unknown_hosts": unknown_hosts,
            "downloads_csv": plan_csv,
        });
        self.store()
            .append_event(run, DOWNLOADS_SHOWN, &shown.to_string())?;
        Ok(Some(Outcome::AwaitingDownloads {
            run: run.clone(),
            planned: planned.len(),
            unknown_hosts,
            downloads_csv: plan_csv,
        }))
    }
}

/// More planned downloads than this pause the run for approval.
pub const DOWNLOAD_GATE: usize = 50;

/// The stored event that says a run's download plan was shown at the gate.
const DOWNLOADS_SHOWN: &str = "downloads_planned";

/// `downloads.csv`: per planned copy, the work, the URL, its host and whether the host is a
/// known publisher or repository.
fn downloads_csv(
    planned: &[PlannedDownload],
    unknown: &BTreeSet<String>,
) -> std::io::Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(["work", "try", "url", "host", "known_host"])?;
    for download in planned {
        for (index, url) in download.urls.iter().enumerate() {
            let host = host_of(url);
            let known = if unknown.contains(&host) { "no" } else { "yes" };
            writer.write_record([
                download.work.to_string(),
                (index + 1).to_string(),
                url.clone(),
                host,
                known.to_owned(),
            ])?;
        }
    }
    writer.into_inner().map_err(|error| error.into_error())
}

/// The included works in the order their full texts are sought: screening score, best first,
/// ties by id.
fn sought_order<'a>(
    decisions: &'a [ScreeningDecision],
    included: &'a BTreeMap<WorkId, Work>,
) -> Vec<(&'a WorkId, &'a Work)> {
    let mut ranked: Vec<(&ScreeningDecision, &Work)> = decisions
        .iter()
        .filter_map(|decision| Some((decision, included.get(&decision.work)?)))
        .collect();
    ranked.sort_by(|a, b| {
        b.0.score
            .total_cmp(&a.0.score)
            .then_with(|| a.0.work.cmp(&b.0.work))
    });
    ranked
        .into_iter()
        .map(|(decision, work)| (&decision.work, work))
        .collect()
}
