//! Plan → candidate works: every query run against the source, seeds looked up, all merged.
//!
//! Records of the same work returned by several queries are merged by shared id; each corpus
//! entry remembers which queries returned it. Seeds the source does not know are an error,
//! because a review built without them would silently answer another question.

use std::collections::BTreeMap;

use litrev_model::{
    Channel, CorpusEntry, Expert, Origin, Plan, Query, Topic, Work, WorkId, add_experts,
    merge_duplicates, rank_experts,
};
use litrev_sources::Source;
use serde::{Deserialize, Serialize};

/// Why discovery failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The source failed.
    #[error(transparent)]
    Source(#[from] litrev_sources::Error),
    /// Seeds the source does not hold.
    #[error("seed{} not found in {source_name}: {ids}; check the ids, or use a source that holds them", if .missing.len() == 1 { "" } else { "s" })]
    SeedsNotFound {
        /// The missing seeds.
        missing: Vec<WorkId>,
        /// Their ids, joined for the message.
        ids: String,
        /// The source's description.
        source_name: String,
    },
    /// Neither queries nor seeds: nothing to start from.
    #[error(
        "the question has no topic words to search for and no --seed was given: rephrase the question or name seed works"
    )]
    NothingToSearch,
}

/// Result with discovery's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What one query returned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryHits {
    /// The query's label.
    pub label: String,
    /// The query's text.
    pub text: String,
    /// Works returned, best first (primary ids after merging).
    pub works: Vec<WorkId>,
    /// The whole query, when it was directed (a channel, kinds, years or an order of its
    /// own); plain keyword searches are known by their text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<Query>,
}

impl QueryHits {
    /// Whether these are the hits of `query`'s search.
    pub fn answer(&self, query: &Query) -> bool {
        match &self.query {
            Some(directed) => directed.same_search(query),
            None => self.text == query.text && !query.is_directed(),
        }
    }

    /// The channel the hits came through.
    pub fn channel(&self) -> Channel {
        self.query
            .as_ref()
            .map_or(Channel::Keyword, |query| query.channel)
    }
}

/// The discover phase's output.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Discovery {
    /// Every candidate, merged, seeds first, then in order of best rank.
    pub works: Vec<Work>,
    /// A corpus entry per candidate (stage 0).
    pub entries: Vec<CorpusEntry>,
    /// Per-query hit lists.
    pub hits: Vec<QueryHits>,
    /// Total hits before merging.
    pub raw_hits: usize,
    /// The field's experts the expert channel chose, best first, with their works that
    /// joined the pool.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub experts: Vec<Expert>,
}

/// Runs the plan's queries and looks up its seeds.
///
/// # Errors
/// When the source fails, a seed is not found, or there is nothing to search for.
pub fn discover(source: &dyn Source, plan: &Plan) -> Result<Discovery> {
    if plan.queries.is_empty() && plan.seeds.is_empty() {
        return Err(Error::NothingToSearch);
    }
    let seeds = if plan.seeds.is_empty() {
        Vec::new()
    } else {
        source.lookup(&plan.seeds)?
    };
    let missing: Vec<WorkId> = plan
        .seeds
        .iter()
        .filter(|seed| !seeds.iter().any(|work| work.ids.all().contains(seed)))
        .cloned()
        .collect();
    if !missing.is_empty() {
        let ids = missing
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        return Err(Error::SeedsNotFound {
            missing,
            ids,
            source_name: source.describe(),
        });
    }

    let mut records: Vec<Work> = seeds.clone();
    // Per raw record: (origin, query label, normalised score).
    let mut provenance: Vec<(Origin, Option<String>, f32)> =
        seeds.iter().map(|_| (Origin::Seed, None, 1.0)).collect();
    let mut per_query: Vec<(usize, &Query, Vec<WorkId>)> = Vec::new();
    let mut experts: Vec<Expert> = Vec::new();
    // The expert channel reads the topics of what the other searches found, so it runs last.
    let (expert_queries, searches): (Vec<_>, Vec<_>) = plan
        .queries
        .iter()
        .enumerate()
        .partition(|(_, query)| query.channel == Channel::Expert);
    let mut answers = side_by_side(source, &searches, plan.hits_per_query).into_iter();
    for (at, query) in searches.into_iter().chain(expert_queries) {
        let hits = if query.channel == Channel::Expert {
            let core = core_works(&records, &provenance);
            let (found, hits) = expert_channel(source, plan, &core)?;
            add_experts(&mut experts, found);
            hits
        } else {
            let answer = answers.next().unwrap_or_else(|| Ok(Vec::new()));
            litrev_sources::directed(query, answer?)
        };
        let top = hits
            .first()
            .map_or(1.0, |hit| hit.score.max(f32::MIN_POSITIVE));
        let mut ids = Vec::new();
        for hit in hits {
            ids.push(hit.work.id());
            // A directed search's hits rank after the keyword searches' (score 0) and do not
            // define what is relevant: they are there to be judged, not to judge.
            let score = if query.is_directed() {
                0.0
            } else {
                hit.score / top
            };
            provenance.push((Origin::Search, Some(query.label.clone()), score));
            records.push(hit.work);
        }
        per_query.push((at, query, ids));
    }
    per_query.sort_by_key(|(at, _, _)| *at);
    let raw_hits = records.len() - seeds.len();
    let record_ids: Vec<WorkId> = records.iter().map(Work::id).collect();
    let merged = merge_duplicates(records);

    let mut entries: BTreeMap<WorkId, CorpusEntry> = BTreeMap::new();
    for (raw_id, (origin, label, score)) in record_ids.iter().zip(provenance) {
        let id = merged.canonical[raw_id].clone();
        let entry = entries.entry(id.clone()).or_insert_with(|| CorpusEntry {
            work: id,
            stage: 0,
            origin,
            score,
            queries: Vec::new(),
        });
        entry.score = entry.score.max(score);
        if let Some(label) = label
            && !entry.queries.contains(&label)
        {
            entry.queries.push(label);
        }
    }
    let mut works = merged.works;
    // Seeds first, then by best normalised search score, ties by id: stable across runs.
    let rank = |work: &Work| {
        let entry = &entries[&work.id()];
        (entry.origin != Origin::Seed, -entry.score)
    };
    works.sort_by(|a, b| {
        let (a_rank, b_rank) = (rank(a), rank(b));
        a_rank
            .0
            .cmp(&b_rank.0)
            .then(a_rank.1.total_cmp(&b_rank.1))
            .then(a.id().cmp(&b.id()))
    });
    let ordered_entries = works
        .iter()
        .map(|work| entries[&work.id()].clone())
        .collect();
    for expert in &mut experts {
        let mut seen = std::collections::BTreeSet::new();
        expert.works = expert
            .works
            .iter()
            .map(|id| merged.canonical[id].clone())
            .filter(|id| seen.insert(id.clone()))
            .collect();
    }
    let hits = per_query
        .into_iter()
        .map(|(_, query, ids)| QueryHits {
            label: query.label.clone(),
            text: query.text.clone(),
            works: ids.iter().map(|id| merged.canonical[id].clone()).collect(),
            query: query.is_directed().then(|| query.clone()),
        })
        .collect();
    Ok(Discovery {
        works,
        entries: ordered_entries,
        hits,
        raw_hits,
        experts,
    })
}

/// Runs `searches` on `source`, each domain's (and the whole question's) in order on a thread of
/// its own, so that the domains of a question are searched side by side through the one HTTP
/// stack and its cache; the answers come back in the order of `searches`.
fn side_by_side(
    source: &dyn Source,
    searches: &[(usize, &Query)],
    hits_per_query: usize,
) -> Vec<litrev_sources::Result<Vec<litrev_sources::Hit>>> {
    let mut groups: BTreeMap<Option<&str>, Vec<usize>> = BTreeMap::new();
    for (position, (_, query)) in searches.iter().enumerate() {
        groups
            .entry(query.domain.as_deref())
            .or_default()
            .push(position);
    }
    let run =
        |positions: &[usize]| -> Vec<(usize, litrev_sources::Result<Vec<litrev_sources::Hit>>)> {
            positions
                .iter()
                .map(|&position| {
                    (
                        position,
                        source.search(searches[position].1, hits_per_query),
                    )
                })
                .collect()
        };
    let mut answered: Vec<(usize, litrev_sources::Result<Vec<litrev_sources::Hit>>)> =
        if groups.len() < 2 {
            groups
                .values()
                .flat_map(|positions| run(positions))
                .collect()
        } else {
            std::thread::scope(|scope| {
                let threads: Vec<_> = groups
                    .values()
                    .map(|positions| scope.spawn(|| run(positions)))
                    .collect();
                threads
                    .into_iter()
                    .flat_map(|thread| match thread.join() {
                        Ok(answers) => answers,
                        Err(panic) => std::panic::resume_unwind(panic),
                    })
                    .collect()
            })
        };
    answered.sort_by_key(|(position, _)| *position);
    answered.into_iter().map(|(_, answer)| answer).collect()
}

/// How many of the keyword searches' best hits define the field's topics for the expert
/// channel: a page of results, the works a reader of the searches would see first.
const CORE_WORKS: usize = 20;
/// How many of the core works' topics the experts are sought under.
const EXPERT_TOPICS: usize = 3;
/// A topic names the field only when at least this many core works are filed under it.
const TOPIC_SUPPORT: usize = 2;
/// How many of a topic's most cited authors the source is asked for, before ranking.
const EXPERT_CANDIDATES: usize = 25;
/// How many experts a review names.
const EXPERTS: usize = 5;
/// How many of an expert's most cited works on the topics join the pool.
const WORKS_PER_EXPERT: usize = 5;

/// The keyword searches' best hits (highest normalised score first, ties by id): the works
/// the expert channel reads the field's topics from.
fn core_works<'a>(
    records: &'a [Work],
    provenance: &[(Origin, Option<String>, f32)],
) -> Vec<&'a Work> {
    let mut scored: Vec<(&Work, f32)> = records
        .iter()
        .zip(provenance)
        .filter(|(_, (origin, _, score))| *origin == Origin::Search && *score > 0.0)
        .map(|(work, (_, _, score))| (work, *score))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.id().cmp(&b.0.id())));
    let mut seen = std::collections::BTreeSet::new();
    scored
        .into_iter()
        .filter(|(work, _)| seen.insert(work.id()))
        .map(|(work, _)| work)
        .take(CORE_WORKS)
        .collect()
}

/// The expert channel (seed S0 §3.1.3): the topics most of the core works are filed under,
/// the authors the source files most works under them ranked by works on the topic, impact
/// and recent activity, and each chosen expert's most cited works on the topics, as hits
/// (most cited first).
fn expert_channel(
    source: &dyn Source,
    plan: &Plan,
    core: &[&Work],
) -> Result<(Vec<Expert>, Vec<litrev_sources::Hit>)> {
    if !source.capabilities().experts {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut support: BTreeMap<&Topic, usize> = BTreeMap::new();
    for work in core {
        let mut seen = std::collections::BTreeSet::new();
        for topic in &work.topics {
            if seen.insert(&topic.id) {
                *support.entry(topic).or_default() += 1;
            }
        }
    }
    let mut topics: Vec<(&Topic, usize)> = support
        .into_iter()
        .filter(|(_, count)| *count >= TOPIC_SUPPORT)
        .collect();
    topics.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.id.cmp(&b.0.id)));
    let topics: Vec<Topic> = topics
        .into_iter()
        .take(EXPERT_TOPICS)
        .map(|(topic, _)| topic.clone())
        .collect();
    if topics.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let since = plan.brief.time_window.value.recent_from.unwrap_or_else(|| {
        core.iter()
            .filter_map(|work| work.year)
            .max()
            .unwrap_or(0)
            .saturating_sub(RECENT_YEARS - 1)
    });
    // A source may file one person under two author records (OpenAlex's disambiguation
    // splits some): a name already chosen is not chosen again.
    let mut names = std::collections::BTreeSet::new();
    let experts: Vec<Expert> = rank_experts(source.experts(&topics, since, EXPERT_CANDIDATES)?)
        .into_iter()
        .filter(|expert| {
            names.insert(
                expert
                    .name
                    .to_lowercase()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })
        .take(EXPERTS)
        .collect();
    let mut experts = experts;
    let ids: Vec<String> = experts.iter().map(|expert| expert.id.clone()).collect();
    let works = source.author_works(&ids, &topics, EXPERTS * WORKS_PER_EXPERT * 4)?;
    let mut hits = Vec::new();
    for work in works {
        let mut joins = false;
        for expert in &mut experts {
            let by_them = work
                .authors
                .iter()
                .any(|author| author.id.as_deref() == Some(expert.id.as_str()));
            if by_them && expert.works.len() < WORKS_PER_EXPERT {
                expert.works.push(work.id());
                joins = true;
            }
        }
        if joins {
            let rank = hits.len();
            hits.push(litrev_sources::Hit::ranked(work, rank));
        }
    }
    Ok((experts, hits))
}

/// The years the recent window spans when the plan's brief does not say: the last five.
const RECENT_YEARS: i32 = 5;

#[cfg(test)]
mod tests {
    use litrev_model::{HitOrder, Tier, WorkKind};
    use litrev_sources::SnapshotSource;
    use litrev_testkit::testdata;

    use super::*;

    /// Directed searches on a real pool: the book search keeps books and chapters alone, its
    /// hits are scored 0 unless a keyword search also found them, and its hits remember
    /// the whole query, so PRISMA can count its channel and a follow-up can reuse it.
    #[test]
    fn directed_searches_keep_what_they_ask_for_and_judge_nothing() {
        let Some(data) = testdata() else { return };
        let file = data.join("synergy/works/Donners_2021.jsonl.gz");
        let home = tempfile::tempdir().expect("temp dir");
        let (snapshot, _) =
            SnapshotSource::open(std::slice::from_ref(&file), home.path(), &|_| {}).expect("open");
        let text = "emicizumab haemophilia";
        let plan = Plan {
            question: "Emicizumab in haemophilia A".to_owned(),
            queries: vec![
                Query::new("q1", "all topic terms", text),
                Query {
                    order: HitOrder::Citations,
                    ..Query::new("q2", "seminal works", text)
                },
                Query {
                    channel: Channel::Book,
                    kinds: vec![WorkKind::Book, WorkKind::BookChapter],
                    ..Query::new("q3", "books", text)
                },
                Query {
                    channel: Channel::Expert,
                    ..Query::new("q4", "experts", text)
                },
            ],
            key_terms: vec!["emicizumab".to_owned(), "haemophilia".to_owned()],
            seeds: Vec::new(),
            tier: Tier::Standard,
            limits: Tier::Standard.limits(),
            hits_per_query: 20,
            relevance_threshold: 0.6,
            filters: litrev_model::Filters::default(),
            brief: litrev_model::Brief::default(),
            synthesis: None,
        };
        let found = discover(&snapshot, &plan).expect("discover");
        let by_id: BTreeMap<WorkId, &Work> =
            found.works.iter().map(|work| (work.id(), work)).collect();
        let books = found
            .hits
            .iter()
            .find(|hits| hits.channel() == Channel::Book)
            .expect("a book search");
        assert!(!books.works.is_empty());
        assert!(
            books
                .works
                .iter()
                .all(|id| matches!(by_id[id].kind, WorkKind::Book | WorkKind::BookChapter))
        );
        let book_query = books.query.as_ref().expect("kept whole");
        assert!(books.answer(book_query));
        let keyword_found: std::collections::BTreeSet<&WorkId> = found
            .hits
            .iter()
            .filter(|hits| hits.query.is_none())
            .flat_map(|hits| &hits.works)
            .collect();
        for entry in &found.entries {
            if !keyword_found.contains(&entry.work) {
                assert_eq!(entry.score, 0.0, "{entry:?}");
            }
        }
        let seminal = found
            .hits
            .iter()
            .find(|hits| {
                hits.query
                    .as_ref()
                    .is_some_and(|query| query.order == HitOrder::Citations)
            })
            .expect("a seminal search");
        let cited: Vec<u32> = seminal
            .works
            .iter()
            .map(|id| by_id[id].cited_by_count.unwrap_or(0))
            .collect();
        assert!(cited.windows(2).all(|pair| pair[0] >= pair[1]), "{cited:?}");

        // The expert channel: experts of the keyword hits' topics, each work by one of them.
        let experts_hits = found
            .hits
            .iter()
            .find(|hits| hits.channel() == Channel::Expert)
            .expect("an expert search");
        assert_eq!(experts_hits.label, "q4", "the plan's order is kept");
        assert_eq!(found.experts.len(), EXPERTS, "{:?}", found.experts);
        let names: std::collections::BTreeSet<&str> =
            found.experts.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names.len(), EXPERTS, "one expert per name: {names:?}");
        for expert in &found.experts {
            assert!(!expert.works.is_empty() && expert.works.len() <= WORKS_PER_EXPERT);
            assert!(expert.reason().contains(&expert.topic.name));
            for id in &expert.works {
                assert!(experts_hits.works.contains(id));
                assert!(
                    by_id[id]
                        .authors
                        .iter()
                        .any(|a| a.id.as_ref() == Some(&expert.id))
                );
            }
        }
        for id in &experts_hits.works {
            let entry = found
                .entries
                .iter()
                .find(|entry| &entry.work == id)
                .expect("entry");
            assert!(entry.queries.contains(&"q4".to_owned()));
        }
    }
}
