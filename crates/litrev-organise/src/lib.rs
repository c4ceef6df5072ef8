//! Included works + citation graph → [`Organisation`]: themes and key works.
//!
//! Themes come from spherical k-means over TF-IDF vectors of titles and abstracts, seeded
//! deterministically (the most central work, then repeatedly the work farthest from every
//! chosen centre), with groups under the minimum size dissolved into their nearest neighbour.
//! Labels are the groups' most distinctive words by class-based TF-IDF. Key works are the
//! most cited inside the corpus (seminal), the fastest cited among recent ones (rising) and
//! those on the paths between otherwise separate parts of the graph (bridging).
//!
//! With sentence embeddings ([`Embeddings`]), themes come instead from Ward agglomerative
//! clustering of the embeddings ([`semantic`]); the labels are still class-based TF-IDF words.
//!
//! A second view groups the same works by citations alone (Leiden communities); how far the
//! two views agree is reported as their normalised mutual information (`Views`). The views are
//! reconciled for the works the text view cannot place (members of groups under the minimum
//! size): such a work joins the theme most of its citation neighbours are in, else the theme
//! whose centre it is nearest when that is close enough, else it is an outlier.

mod semantic;
mod titles;

use std::collections::{BTreeMap, BTreeSet};

use litrev_graph::{CitationGraph, citation_velocity, normalised_mutual_information};
use litrev_model::{
    Citation, KeyRole, KeyWork, Organisation, SubTheme, Theme, Views, Work, WorkId,
};
use litrev_text::{
    Corpus, SparseVector, content_words, is_generic, stem, strip_boilerplate, word_tokens,
};
use serde::{Deserialize, Serialize};

pub use semantic::Embeddings;
pub use titles::EmbedPhrases;

/// Least cosine to a theme's centre for a work with no citation link to join that theme.
const NEAREST_THEME_COSINE: f32 = 0.2;

/// Options of the organise phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrganiseConfig {
    /// Fewest works in a theme.
    pub min_theme_size: usize,
    /// Fewest themes (when there are enough works).
    pub min_themes: usize,
    /// Most themes.
    pub max_themes: usize,
    /// Key works listed per theme.
    pub key_works_per_theme: usize,
    /// Seed of the citation-community detection.
    #[serde(default = "default_seed")]
    pub seed: u64,
}

fn default_seed() -> u64 {
    1
}

impl Default for OrganiseConfig {
    fn default() -> OrganiseConfig {
        OrganiseConfig {
            min_theme_size: 3,
            min_themes: 3,
            max_themes: 12,
            key_works_per_theme: 3,
            seed: default_seed(),
        }
    }
}

/// A theme belongs to a domain when at least this share of its works fit the domain best;
/// else it spans the domains.
const DOMAIN_MAJORITY: f64 = 2.0 / 3.0;

/// Places the themes of a question split into domains: each theme in the domain most of its
/// works fit (`domain_of`, from screening), the themes ordered domain by domain as `domains`
/// lists them (the larger first within one), those spanning domains last, and numbered again.
/// Without domains nothing changes.
pub fn place_in_domains(
    organisation: &mut Organisation,
    domains: &[String],
    domain_of: &BTreeMap<WorkId, String>,
) {
    if domains.len() < 2 {
        return;
    }
    for theme in &mut organisation.themes {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for id in &theme.works {
            if let Some(domain) = domain_of.get(id) {
                *counts.entry(domain.as_str()).or_default() += 1;
            }
        }
        theme.domain = domains
            .iter()
            .find(|domain| {
                counts.get(domain.as_str()).copied().unwrap_or(0) as f64
                    >= DOMAIN_MAJORITY * theme.works.len() as f64
            })
            .cloned();
    }
    let place = |theme: &Theme| {
        theme
            .domain
            .as_ref()
            .and_then(|domain| domains.iter().position(|known| known == domain))
            .unwrap_or(domains.len())
    };
    // A stable sort keeps the size order within each domain.
    organisation.themes.sort_by_key(place);
    for (position, theme) in organisation.themes.iter_mut().enumerate() {
        theme.id = position as u32 + 1;
    }
}

/// Organises the included works into themes and finds the key works. With `embeddings`
/// (and `embed_phrases`, the model that made them, to embed title candidates) themes are
/// grouped and titled by meaning; without, by TF-IDF.
pub fn organise(
    config: &OrganiseConfig,
    included: &BTreeMap<WorkId, Work>,
    citations: &[Citation],
    embeddings: Option<&Embeddings>,
    embed_phrases: Option<EmbedPhrases<'_>>,
) -> Organisation {
    let mut nodes: Vec<WorkId> = included.keys().cloned().collect();
    nodes.extend(
        citations
            .iter()
            .flat_map(|edge| [edge.citing.clone(), edge.cited.clone()]),
    );
    let graph = CitationGraph::new(&nodes, citations);
    let pagerank = graph.pagerank();
    let ids: Vec<&WorkId> = included.keys().collect();
    let members: Vec<WorkId> = included.keys().cloned().collect();
    let betweenness = graph.betweenness_among(&members, BETWEENNESS_PIVOTS);
    let latest_year = included.values().filter_map(|work| work.year).max();

    // Funding and disclosure sentences would otherwise form themes of their own.
    let texts: Vec<String> = included
        .iter()
        .map(|(id, work)| {
            let _processing = litrev_model::processing(id);
            strip_boilerplate(&work.title_and_abstract())
        })
        .collect();
    let (_, vectors) = Corpus::with_vectors(&texts);

    let n_works = ids.len();
    let wanted = ((n_works as f32 / 2.0).sqrt().round() as usize)
        .clamp(config.min_themes, config.max_themes)
        .min(n_works / config.min_theme_size.max(1))
        .max(1);
    // Embeddings only when every work has one of the right length; else the TF-IDF view.
    let dense: Option<Vec<&[f32]>> = embeddings.and_then(|embeddings| {
        let dense: Option<Vec<&[f32]>> = ids
            .iter()
            .map(|id| embeddings.vectors.get(*id).map(Vec::as_slice))
            .collect();
        dense.filter(|dense| dense.windows(2).all(|pair| pair[0].len() == pair[1].len()))
    });
    let assignment: Vec<Option<usize>> = match &dense {
        Some(dense) => semantic::cluster(dense, wanted, config.min_theme_size),
        None => cluster(&vectors, wanted, config.min_theme_size)
            .into_iter()
            .map(Some)
            .collect(),
    };
    let (assignment, outliers) = place_unassigned(assignment, &ids, &graph, dense.as_deref());

    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (work_index, group) in assignment.iter().enumerate() {
        if let Some(group) = group {
            groups.entry(*group).or_default().push(work_index);
        }
    }
    let labels = distinctive_words(&texts, &groups);
    let cases = case_forms(&texts);

    let parts = Parts {
        ids: &ids,
        texts: &texts,
        vectors: &vectors,
        dense: dense.as_deref(),
        cases: &cases,
        min_size: config.min_theme_size,
    };
    let measures = Measures {
        config,
        included,
        ids: &ids,
        vectors: &vectors,
        graph: &graph,
        pagerank: &pagerank,
        betweenness: &betweenness,
        latest_year,
        labels: &labels,
        cases: &cases,
        parts: &parts,
    };
    // Each theme with the pool of distinctive words its label is chosen from.
    let mut themed: Vec<(Theme, Vec<String>)> = groups
        .iter()
        .map(|(group, members)| measures.theme(*group, members))
        .collect();
    themed.sort_by(|(a, _), (b, _)| {
        b.works
            .len()
            .cmp(&a.works.len())
            .then(a.works.cmp(&b.works))
    });
    let vector_of: Option<BTreeMap<&WorkId, &[f32]>> = dense
        .as_ref()
        .map(|dense| ids.iter().copied().zip(dense.iter().copied()).collect());
    let meaning = vector_of.as_ref().map(|vectors| Meaning {
        vectors,
        embed: embed_phrases,
    });
    title_themes(&mut themed, &ids, &texts, included, meaning);
    let themes: Vec<Theme> = themed.into_iter().map(|(theme, _)| theme).collect();

    let views = citation_view(&graph, &themes, config.seed);
    let mut key = key_works(included, &graph, &pagerank);
    let chosen: BTreeSet<WorkId> = key.iter().map(|key| key.work.clone()).collect();
    let candidates: Vec<WorkId> = included
        .keys()
        .filter(|id| !chosen.contains(*id))
        .cloned()
        .collect();
    let rank_of = |id: &WorkId| pagerank.get(id).copied().unwrap_or(0.0) as f32;
    key.extend(
        top_by(&candidates, 3, |id| {
            betweenness.get(id).copied().unwrap_or(0.0)
        })
        .into_iter()
        .map(|id| KeyWork {
            corpus_citations: graph.in_degree(&id),
            pagerank: rank_of(&id),
            work: id,
            role: KeyRole::Bridging,
        }),
    );
    Organisation {
        themes,
        key_works: key,
        outliers: outliers
            .into_iter()
            .map(|index| ids[index].clone())
            .collect(),
        views,
        embedding_model: dense
            .and(embeddings)
            .map(|embeddings| embeddings.model.clone()),
    }
}

/// What lets themes be titled by meaning: each included work's embedding, and the model that
/// made them to embed title candidates.
#[derive(Clone, Copy)]
struct Meaning<'a> {
    vectors: &'a BTreeMap<&'a WorkId, &'a [f32]>,
    embed: Option<EmbedPhrases<'a>>,
}

/// Numbers the themes in their order and titles each: a phrase of its own works' titles when
/// two of them use one, else its label's phrase or words ([`fallback_title`]; no two themes
/// sharing a word).
fn title_themes(
    themed: &mut [(Theme, Vec<String>)],
    ids: &[&WorkId],
    texts: &[String],
    included: &BTreeMap<WorkId, Work>,
    meaning: Option<Meaning<'_>>,
) {
    let text_of: BTreeMap<&WorkId, &str> = ids
        .iter()
        .copied()
        .zip(texts.iter().map(String::as_str))
        .collect();
    let theme_texts: Vec<Vec<&str>> = themed
        .iter()
        .map(|(theme, _)| {
            theme
                .works
                .iter()
                .filter_map(|id| text_of.get(id).copied())
                .collect()
        })
        .collect();
    let pools: Vec<&[String]> = themed.iter().map(|(_, pool)| pool.as_slice()).collect();
    let labels = labels_in_order(&pools, &theme_texts);
    let titled: Vec<titles::ThemeTexts<'_>> = themed
        .iter()
        .zip(&theme_texts)
        .map(|((theme, _), texts)| titles::ThemeTexts {
            titles: theme
                .works
                .iter()
                .filter_map(|id| included[id].title.as_deref())
                .collect(),
            texts: texts.clone(),
            vectors: meaning.and_then(|meaning| {
                theme
                    .works
                    .iter()
                    .map(|id| meaning.vectors.get(id).copied())
                    .collect()
            }),
        })
        .collect();
    let phrases = titles::phrase_titles(&titled, meaning.and_then(|meaning| meaning.embed));
    for (position, (((theme, _), items), phrase)) in
        themed.iter_mut().zip(labels).zip(phrases).enumerate()
    {
        theme.id = position as u32 + 1;
        // A phrase of the theme's own titles when two of its works use one; else the first
        // of its label items that is a phrase its texts write ("Replacement therapy", not
        // "Replacement therapy, new and mechanism"); else its words.
        theme.label = phrase.unwrap_or_else(|| fallback_title(&items, &theme_texts[position]));
    }
}

/// The title of a theme no phrase of its works' titles names: the first of its label `items`
/// that is a phrase its `texts` write and may end on ("Replacement therapy"), else the items
/// listed ("Replacement therapy, new and mechanism" is a list, not a title).
fn fallback_title(items: &[String], texts: &[&str]) -> String {
    let ends = litrev_text::phrase_ends(texts);
    items
        .iter()
        .find(|item| item.contains(' ') && ends(item))
        .map_or_else(
            || label_of(items),
            |item| label_of(std::slice::from_ref(item)),
        )
}

/// What each theme's order, key works, bridges, rising works and label words are read from:
/// the included works by index, their vectors and the citation graph's measures.
struct Measures<'a> {
    config: &'a OrganiseConfig,
    included: &'a BTreeMap<WorkId, Work>,
    ids: &'a [&'a WorkId],
    vectors: &'a [SparseVector],
    graph: &'a CitationGraph,
    pagerank: &'a BTreeMap<WorkId, f64>,
    betweenness: &'a BTreeMap<WorkId, f64>,
    latest_year: Option<i32>,
    labels: &'a BTreeMap<usize, Vec<String>>,
    cases: &'a BTreeMap<String, BTreeMap<String, usize>>,
    parts: &'a Parts<'a>,
}

impl Measures<'_> {
    /// The theme of cluster `group` (its `members` by work index), untitled, with the pool of
    /// distinctive words its label is chosen from.
    fn theme(&self, group: usize, members: &[usize]) -> (Theme, Vec<String>) {
        let Measures {
            config,
            included,
            ids,
            vectors,
            graph,
            pagerank,
            betweenness,
            latest_year,
            labels,
            cases,
            parts,
        } = *self;
        let centre = SparseVector::centroid(members.iter().map(|&member| &vectors[member]));
        let mut ordered: Vec<(f32, &WorkId)> = members
            .iter()
            .map(|&member| (vectors[member].cosine(&centre), ids[member]))
            .collect();
        ordered.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        let works: Vec<WorkId> = ordered.iter().map(|(_, id)| (*id).clone()).collect();
        let mut by_citations: Vec<&WorkId> = works.iter().collect();
        by_citations.sort_by(|a, b| {
            graph
                .in_degree(b)
                .cmp(&graph.in_degree(a))
                .then(
                    pagerank
                        .get(*b)
                        .unwrap_or(&0.0)
                        .total_cmp(pagerank.get(*a).unwrap_or(&0.0)),
                )
                .then(a.cmp(b))
        });
        let key_works = by_citations
            .into_iter()
            .take(config.key_works_per_theme)
            .cloned()
            .collect();
        let all_years: Vec<i32> = works.iter().filter_map(|id| included[id].year).collect();
        let years = all_years
            .iter()
            .min()
            .copied()
            .zip(all_years.iter().max().copied());
        let mut timeline: BTreeMap<i32, usize> = BTreeMap::new();
        for year in &all_years {
            *timeline.entry(*year).or_default() += 1;
        }
        let bridges = top_by(&works, config.key_works_per_theme.min(2), |id| {
            betweenness.get(id).copied().unwrap_or(0.0)
        });
        let rising = latest_year.map_or_else(Vec::new, |latest| {
            let recent: Vec<WorkId> = works
                .iter()
                .filter(|id| included[*id].year.is_some_and(|year| latest - year <= 3))
                .cloned()
                .collect();
            top_by(&recent, config.key_works_per_theme.min(2), |id| {
                citation_velocity(&included[id], latest).unwrap_or(0.0)
            })
        });
        let label_pool: Vec<String> = labels
            .get(&group)
            .map(|words| words.iter().map(|word| cased(cases, word)).collect())
            .unwrap_or_default();
        let top_words: Vec<String> = label_pool.iter().take(TOP_WORDS).cloned().collect();
        let sub_themes = parts.split(members, &works);
        let theme = Theme {
            id: 0,
            label: String::new(),
            description: describe(&top_words, works.len(), years),
            top_words,
            works,
            key_works,
            years,
            bridges,
            rising,
            timeline,
            sub_themes,
            domain: None,
        };
        (theme, label_pool)
    }
}

/// What splitting a theme into sub-themes needs of the corpus, by work index.
struct Parts<'a> {
    ids: &'a [&'a WorkId],
    texts: &'a [String],
    vectors: &'a [SparseVector],
    dense: Option<&'a [&'a [f32]]>,
    cases: &'a BTreeMap<String, BTreeMap<String, usize>>,
    min_size: usize,
}

impl Parts<'_> {
    /// Two parts of a theme of at least twice the minimum size, three from five times, with
    /// the same clustering as the themes (embeddings, else TF-IDF) and labels by class-based
    /// TF-IDF against the sibling parts; none when the theme does not split into parts of the
    /// minimum size. `order` is the theme's works in their order, which each part keeps.
    fn split(&self, members: &[usize], order: &[WorkId]) -> Vec<SubTheme> {
        if members.len() < 2 * self.min_size {
            return Vec::new();
        }
        let wanted = if members.len() >= 5 * self.min_size {
            3
        } else {
            2
        };
        let mut local: Vec<Option<usize>> = match self.dense {
            Some(dense) => {
                let part: Vec<&[f32]> = members.iter().map(|&member| dense[member]).collect();
                semantic::cluster(&part, wanted, self.min_size)
            }
            None => {
                let part: Vec<SparseVector> = members
                    .iter()
                    .map(|&member| self.vectors[member].clone())
                    .collect();
                cluster(&part, wanted, self.min_size)
                    .into_iter()
                    .map(Some)
                    .collect()
            }
        };
        let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (position, part) in local.iter().enumerate() {
            if let Some(part) = part {
                groups.entry(*part).or_default().push(members[position]);
            }
        }
        if groups.len() < 2 {
            return Vec::new();
        }
        // A work left out of every part joins the part whose centre it is nearest.
        if let Some(dense) = self.dense {
            let centres: Vec<(usize, Vec<f32>)> = groups
                .iter()
                .map(|(part, indexes)| {
                    let centre = semantic::centroid(indexes.iter().map(|&index| dense[index]));
                    (*part, centre)
                })
                .collect();
            for (position, part) in local.iter_mut().enumerate() {
                if part.is_none() {
                    let nearest = centres
                        .iter()
                        .map(|(part, centre)| {
                            (*part, semantic::dot(dense[members[position]], centre))
                        })
                        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
                        .map(|(part, _)| part);
                    if let Some(nearest) = nearest {
                        *part = Some(nearest);
                        groups.entry(nearest).or_default().push(members[position]);
                    }
                }
            }
        }
        let labels = distinctive_words(self.texts, &groups);
        let mut parts: Vec<SubTheme> = groups
            .iter()
            .map(|(part, indexes)| {
                let in_part: BTreeSet<&WorkId> =
                    indexes.iter().map(|&index| self.ids[index]).collect();
                let top_words: Vec<String> = labels
                    .get(part)
                    .map(|words| {
                        words
                            .iter()
                            .take(TOP_WORDS)
                            .map(|word| cased(self.cases, word))
                            .collect()
                    })
                    .unwrap_or_default();
                let part_texts: Vec<&str> = indexes
                    .iter()
                    .map(|&index| self.texts[index].as_str())
                    .collect();
                SubTheme {
                    label: label_of(&label_items(&top_words, &part_texts)),
                    top_words,
                    works: order
                        .iter()
                        .filter(|id| in_part.contains(id))
                        .cloned()
                        .collect(),
                }
            })
            .collect();
        parts.sort_by(|a, b| {
            b.works
                .len()
                .cmp(&a.works.len())
                .then(a.works.cmp(&b.works))
        });
        parts
    }
}

/// Reconciles the text view with the citations for the works it left unplaced: each joins the
/// theme most of its placed citation neighbours are in (the nearest such theme on ties), else
/// the theme with the nearest centre if its cosine reaches [`NEAREST_THEME_COSINE`], else it
/// is returned as an outlier (by index).
fn place_unassigned(
    mut assignment: Vec<Option<usize>>,
    ids: &[&WorkId],
    graph: &CitationGraph,
    dense: Option<&[&[f32]]>,
) -> (Vec<Option<usize>>, Vec<usize>) {
    let unplaced: Vec<usize> = (0..assignment.len())
        .filter(|&index| assignment[index].is_none())
        .collect();
    if unplaced.is_empty() {
        return (assignment, Vec::new());
    }
    let index_of: BTreeMap<&WorkId, usize> = ids
        .iter()
        .enumerate()
        .map(|(index, id)| (*id, index))
        .collect();
    let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (index, group) in assignment.iter().enumerate() {
        if let Some(group) = group {
            members.entry(*group).or_default().push(index);
        }
    }
    let centres: BTreeMap<usize, Vec<f32>> = match dense {
        Some(dense) => members
            .iter()
            .map(|(group, indexes)| {
                let centre = semantic::centroid(indexes.iter().map(|&index| dense[index]));
                (*group, centre)
            })
            .collect(),
        None => BTreeMap::new(),
    };
    let closeness = |index: usize, group: usize| -> f32 {
        match (dense, centres.get(&group)) {
            (Some(dense), Some(centre)) => semantic::dot(dense[index], centre),
            _ => 0.0,
        }
    };
    let mut outliers = Vec::new();
    let placed = assignment.clone();
    for index in unplaced {
        let mut votes: BTreeMap<usize, usize> = BTreeMap::new();
        for neighbour in graph
            .references_of(ids[index])
            .into_iter()
            .chain(graph.citers_of(ids[index]))
        {
            if let Some(group) = index_of.get(neighbour).and_then(|&other| placed[other]) {
                *votes.entry(group).or_default() += 1;
            }
        }
        let by_citations = votes
            .iter()
            .max_by(|a, b| {
                a.1.cmp(b.1)
                    .then(closeness(index, *a.0).total_cmp(&closeness(index, *b.0)))
                    .then(b.0.cmp(a.0))
            })
            .map(|(group, _)| *group);
        let by_meaning = members
            .keys()
            .map(|&group| (group, closeness(index, group)))
            .filter(|(_, cosine)| *cosine >= NEAREST_THEME_COSINE)
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|(group, _)| group);
        match by_citations.or(by_meaning) {
            Some(group) => assignment[index] = Some(group),
            None => outliers.push(index),
        }
    }
    (assignment, outliers)
}

/// Up to `count` works with the highest positive `score`, ties broken by id.
fn top_by(works: &[WorkId], count: usize, score: impl Fn(&WorkId) -> f64) -> Vec<WorkId> {
    let mut scored: Vec<(f64, &WorkId)> = works
        .iter()
        .map(|id| (score(id), id))
        .filter(|(value, _)| *value > 0.0)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored
        .into_iter()
        .take(count)
        .map(|(_, id)| id.clone())
        .collect()
}

/// Bridging works are measured exactly up to this many included works, and from this many
/// evenly spread ones past it (the estimate's relative error about 1/√256 ≈ 6 %).
const BETWEENNESS_PIVOTS: usize = 256;

/// Leiden resolutions tried for the citation view; the one whose communities of three or
/// more works number closest to the text themes wins (the lowest on ties).
const RESOLUTIONS: [f64; 6] = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0];

/// The citation-community view of the included works and its agreement with the themes;
/// `None` when fewer than two themes or too few linked works make a comparison meaningless.
fn citation_view(graph: &CitationGraph, themes: &[Theme], seed: u64) -> Option<Views> {
    if themes.len() < 2 {
        return None;
    }
    let theme_of: BTreeMap<&WorkId, usize> = themes
        .iter()
        .enumerate()
        .flat_map(|(position, theme)| theme.works.iter().map(move |id| (id, position)))
        .collect();
    let members: Vec<WorkId> = theme_of.keys().map(|id| (*id).clone()).collect();
    let mut best: Option<(usize, f64, BTreeMap<WorkId, usize>)> = None;
    for resolution in RESOLUTIONS {
        let communities = graph.communities(&members, resolution, seed);
        let mut sizes: BTreeMap<usize, usize> = BTreeMap::new();
        for community in communities.values() {
            *sizes.entry(*community).or_default() += 1;
        }
        let substantial = sizes.values().filter(|size| **size >= 3).count();
        let distance = substantial.abs_diff(themes.len());
        if best
            .as_ref()
            .is_none_or(|(best_distance, _, _)| distance < *best_distance)
        {
            best = Some((distance, resolution, communities));
        }
    }
    let (_, resolution, communities) = best?;
    if communities.len() < 6 {
        return None;
    }
    let pairs: Vec<(usize, usize)> = communities
        .iter()
        .filter_map(|(id, community)| theme_of.get(id).map(|theme| (*theme, *community)))
        .collect();
    let distinct: BTreeSet<usize> = communities.values().copied().collect();
    Some(Views {
        text_themes: themes.len(),
        communities: distinct.len(),
        resolution: resolution as f32,
        linked_works: pairs.len(),
        nmi: normalised_mutual_information(&pairs) as f32,
    })
}

/// Bisecting spherical k-means: the largest group is split in two until there are `wanted`
/// groups or no group can be split into halves of at least `min_size`. Splitting the largest
/// group each time keeps themes of comparable size, which plain k-means on sparse TF-IDF
/// vectors does not (it tends to one giant group and a few satellites).
fn cluster(vectors: &[SparseVector], wanted: usize, min_size: usize) -> Vec<usize> {
    let n = vectors.len();
    let mut assignment = vec![0usize; n];
    if n == 0 {
        return assignment;
    }
    let mut groups = 1usize;
    let mut unsplittable: BTreeSet<usize> = BTreeSet::new();
    while groups < wanted {
        let mut sizes: BTreeMap<usize, usize> = BTreeMap::new();
        for &group in &assignment {
            *sizes.entry(group).or_default() += 1;
        }
        let largest = sizes
            .iter()
            .filter(|(group, size)| !unsplittable.contains(*group) && **size >= 2 * min_size)
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(group, _)| *group);
        let Some(largest) = largest else { break };
        let members: Vec<usize> = (0..n)
            .filter(|&index| assignment[index] == largest)
            .collect();
        let Some(halves) = split_in_two(vectors, &members, min_size) else {
            unsplittable.insert(largest);
            continue;
        };
        for (&member, &half) in members.iter().zip(&halves) {
            if half == 1 {
                assignment[member] = groups;
            }
        }
        groups += 1;
    }
    assignment
}

/// Two-means on a group's members; returns 0 or 1 per member, or `None` when no split leaves
/// both halves with `min_size` members.
///
/// The first centre is the member nearest the group's centre. The second is tried at ten
/// members spread from the farthest to the nearest, because the farthest member alone is often
/// an outlier that would split off by itself; the most cohesive valid split wins.
fn split_in_two(
    vectors: &[SparseVector],
    members: &[usize],
    min_size: usize,
) -> Option<Vec<usize>> {
    let centre = Centre::of(members.iter().map(|&member| &vectors[member]));
    let mut by_closeness: Vec<(f32, usize)> = members
        .iter()
        .enumerate()
        .map(|(position, &member)| (centre.cosine(&vectors[member]), position))
        .collect();
    by_closeness.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let nearest_member = by_closeness.last().map(|(_, position)| *position)?;
    let tries = 10.min(members.len() - 1);
    let mut best: Option<(f32, Vec<usize>)> = None;
    for attempt in 0..tries {
        let (_, second) = by_closeness[attempt * (members.len() - 1) / tries];
        if second == nearest_member {
            continue;
        }
        let seeds = [&vectors[members[nearest_member]], &vectors[members[second]]];
        let (halves, cohesion) = two_means(vectors, members, seeds);
        let right = halves.iter().filter(|half| **half == 1).count();
        let valid = right >= min_size && members.len() - right >= min_size;
        if valid && best.as_ref().is_none_or(|(score, _)| cohesion > *score) {
            best = Some((cohesion, halves));
        }
    }
    best.map(|(_, halves)| halves)
}

/// Lloyd iterations of 2-means from two seeds; returns the halves and the total cosine of the
/// members to their centres.
fn two_means(
    vectors: &[SparseVector],
    members: &[usize],
    seeds: [&SparseVector; 2],
) -> (Vec<usize>, f32) {
    let mut centres = vec![
        Centre::of(std::iter::once(seeds[0])),
        Centre::of(std::iter::once(seeds[1])),
    ];
    let mut halves = vec![usize::MAX; members.len()];
    for _ in 0..20 {
        let next: Vec<usize> = members
            .iter()
            .map(|&member| nearest(&vectors[member], &centres).0)
            .collect();
        let settled = next == halves;
        halves = next;
        centres = (0..2)
            .map(|half| {
                Centre::of(
                    members
                        .iter()
                        .zip(&halves)
                        .filter(|(_, assigned)| **assigned == half)
                        .map(|(&member, _)| &vectors[member]),
                )
            })
            .collect();
        if settled {
            break;
        }
    }
    let cohesion = members
        .iter()
        .zip(&halves)
        .map(|(&member, &half)| centres[half].cosine(&vectors[member]))
        .sum();
    (halves, cohesion)
}

/// The direction of a group: the sum of its members' vectors, dense and scaled to unit length,
/// so the cosine of a sparse member to it costs only the member's own entries (merging two
/// sparse lists would cost the centre's tens of thousands of terms for every member).
struct Centre {
    weights: Vec<f32>,
}

impl Centre {
    fn of<'a>(members: impl Iterator<Item = &'a SparseVector>) -> Centre {
        let mut weights: Vec<f32> = Vec::new();
        for member in members {
            for &(id, weight) in member.entries() {
                let id = id as usize;
                if id >= weights.len() {
                    weights.resize(id + 1, 0.0);
                }
                weights[id] += weight;
            }
        }
        let norm = weights
            .iter()
            .map(|weight| weight * weight)
            .sum::<f32>()
            .sqrt();
        if norm > 0.0 {
            for weight in &mut weights {
                *weight /= norm;
            }
        }
        Centre { weights }
    }

    fn cosine(&self, vector: &SparseVector) -> f32 {
        vector
            .entries()
            .iter()
            .filter_map(|&(id, weight)| self.weights.get(id as usize).map(|centre| weight * centre))
            .sum()
    }
}

fn nearest(vector: &SparseVector, centres: &[Centre]) -> (usize, f32) {
    centres
        .iter()
        .enumerate()
        .map(|(index, centre)| (index, centre.cosine(vector)))
        .fold((0, f32::MIN), |best, candidate| {
            if candidate.1 > best.1 {
                candidate
            } else {
                best
            }
        })
}

/// How many distinctive words a theme shows ([`Theme::top_words`]).
const TOP_WORDS: usize = 5;

/// How many distinctive words a theme's label may be chosen from: more than it shows, so a
/// theme whose top words earlier labels already use still finds words of its own.
const LABEL_POOL: usize = 10;
const _: () = assert!(LABEL_POOL > TOP_WORDS);

/// Each group's [`LABEL_POOL`] most distinctive words by class-based TF-IDF, best first, as
/// they appear in the texts.
fn distinctive_words(
    texts: &[String],
    groups: &BTreeMap<usize, Vec<usize>>,
) -> BTreeMap<usize, Vec<String>> {
    let term_sets: Vec<BTreeSet<String>> = texts
        .iter()
        .map(|text| content_words(text).iter().map(|word| stem(word)).collect())
        .collect();
    let mut counts: BTreeMap<usize, BTreeMap<String, usize>> = BTreeMap::new();
    let mut surface: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    let mut documents_with: BTreeMap<String, usize> = BTreeMap::new();
    for (group, members) in groups {
        let group_counts = counts.entry(*group).or_default();
        for &member in members {
            let mut seen = BTreeSet::new();
            for word in content_words(&texts[member]) {
                if word.len() < 3 || is_generic(&word) {
                    continue;
                }
                let term = stem(&word);
                *group_counts.entry(term.clone()).or_default() += 1;
                *surface
                    .entry(term.clone())
                    .or_default()
                    .entry(word)
                    .or_default() += 1;
                if seen.insert(term.clone()) {
                    *documents_with.entry(term).or_default() += 1;
                }
            }
        }
    }
    let total: BTreeMap<&String, usize> = counts.values().flat_map(|group| group.iter()).fold(
        BTreeMap::new(),
        |mut total, (term, count)| {
            *total.entry(term).or_default() += count;
            total
        },
    );
    let average_words = counts
        .values()
        .map(|group| group.values().sum::<usize>())
        .sum::<usize>() as f32
        / counts.len().max(1) as f32;
    counts
        .iter()
        .map(|(group, group_counts)| {
            let size: usize = group_counts.values().sum();
            let members = groups[group].len();
            let mut weighted: Vec<(f32, &String)> = group_counts
                .iter()
                // A label word should occur in more than one of the group's works.
                .filter(|(term, _)| {
                    members < 3 || documents_in(&groups[group], &term_sets, term) >= 2
                })
                .map(|(term, count)| {
                    let tf = *count as f32 / size.max(1) as f32;
                    let idf = (1.0 + average_words / total[term] as f32).ln();
                    (tf * idf, term)
                })
                .collect();
            weighted.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
            let words = weighted
                .into_iter()
                .take(LABEL_POOL)
                .map(|(_, term)| litrev_text::most_common(&surface[term]))
                .collect();
            (*group, words)
        })
        .collect()
}

/// How many of a group's members use a term.
fn documents_in(members: &[usize], term_sets: &[BTreeSet<String>], term: &str) -> usize {
    members
        .iter()
        .filter(|&&member| term_sets[member].contains(term))
        .count()
}

/// For each lower-cased word, its spellings in the texts and how often each occurs.
fn case_forms(texts: &[String]) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut forms: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for text in texts {
        for token in text.split(|c: char| !(c.is_alphanumeric() || c == '\'')) {
            let token = token.trim_matches('\'');
            if token.is_empty() {
                continue;
            }
            *forms
                .entry(token.to_lowercase())
                .or_default()
                .entry(token.to_owned())
                .or_default() += 1;
        }
    }
    forms
}

/// How a lower-cased word should be spelled in a label: an acronym when its most common
/// spelling is all capitals (`fviii` → `FVIII`), otherwise lower-case if the texts ever write
/// it so (title case comes from titles, not from the word), else its most common spelling.
fn cased(forms: &BTreeMap<String, BTreeMap<String, usize>>, word: &str) -> String {
    let Some(spellings) = forms.get(word) else {
        return word.to_owned();
    };
    let common = litrev_text::most_common(spellings);
    let is_acronym = common.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && common.chars().all(|c| !c.is_lowercase());
    if !is_acronym && spellings.contains_key(word) {
        word.to_owned()
    } else {
        common
    }
}

/// The label items of each theme in review order ([`label_of`] lists them), from its pool of
/// distinctive words (best first) and its works' texts: each label avoids the words earlier
/// labels use, falling back on the theme's best words when all of its pool is taken.
fn labels_in_order(pools: &[&[String]], texts: &[Vec<&str>]) -> Vec<Vec<String>> {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    pools
        .iter()
        .zip(texts)
        .map(|(pool, texts)| {
            let fresh: Vec<String> = pool
                .iter()
                .filter(|word| !taken.contains(&word.to_lowercase()))
                .cloned()
                .collect();
            let candidates = if fresh.is_empty() {
                pool.to_vec()
            } else {
                fresh
            };
            let chosen = label_items(&candidates, texts);
            taken.extend(
                chosen
                    .iter()
                    .flat_map(|item| item.split(' '))
                    .map(str::to_lowercase),
            );
            chosen
        })
        .collect()
}

/// Up to three items for a label from a theme's distinctive `words`, best first; two of them
/// that the theme's texts write as one phrase become one item (`hot` and `flashes` →
/// `hot flashes`), so a label does not list the halves of a term.
fn label_items(words: &[String], texts: &[&str]) -> Vec<String> {
    let documents: Vec<Vec<String>> = texts.iter().map(|text| word_tokens(text)).collect();
    let using = |test: &dyn Fn(&[String]) -> bool| documents.iter().filter(|d| test(d)).count();
    let is_phrase = |first: &str, second: &str| {
        let (first, second) = (first.to_lowercase(), second.to_lowercase());
        let together = using(&|tokens| {
            tokens
                .windows(2)
                .any(|pair| pair[0] == first && pair[1] == second)
        });
        let rarer =
            using(&|tokens| tokens.contains(&first)).min(using(&|tokens| tokens.contains(&second)));
        together >= 2.min(documents.len()) && together * 2 >= rarer
    };
    let candidates: Vec<&String> = words.iter().take(5).collect();
    let mut used = vec![false; candidates.len()];
    let mut items = Vec::new();
    for index in 0..candidates.len() {
        if used[index] || items.len() == 3 {
            continue;
        }
        used[index] = true;
        let word = candidates[index];
        let partner = (0..candidates.len())
            .filter(|&other| !used[other])
            .find_map(|other| {
                let other_word = candidates[other];
                if is_phrase(word, other_word) {
                    Some((other, format!("{word} {other_word}")))
                } else if is_phrase(other_word, word) {
                    Some((other, format!("{other_word} {word}")))
                } else {
                    None
                }
            });
        match partner {
            Some((other, phrase)) => {
                used[other] = true;
                items.push(phrase);
            }
            None => items.push(word.clone()),
        }
    }
    items
}

/// `Prophylaxis, bleeding and inhibitors`.
fn label_of(words: &[String]) -> String {
    let chosen: Vec<&str> = words.iter().take(3).map(String::as_str).collect();
    let joined = match chosen.as_slice() {
        [] => return "Other works".to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    capitalised(&joined)
}

/// `text` as a heading opens: its first letter a capital, unless its first word is a name
/// written with a small first letter and capitals after it (`rFVIIa`, `mRNA`, `iPSCs`), which
/// a capital would misspell.
pub(crate) fn capitalised(text: &str) -> String {
    let first_word = text.split_whitespace().next().unwrap_or("");
    if first_word.chars().skip(1).any(char::is_uppercase) {
        return text.to_owned();
    }
    let mut characters = text.chars();
    characters
        .next()
        .map(|first| first.to_uppercase().chain(characters).collect())
        .unwrap_or_default()
}

fn describe(words: &[String], n_works: usize, years: Option<(i32, i32)>) -> String {
    let topic = if words.is_empty() {
        "a mix of topics".to_owned()
    } else {
        words.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
    };
    let span = match years {
        Some((first, last)) if first == last => format!(", all published in {first}"),
        Some((first, last)) => format!(", published between {first} and {last}"),
        None => String::new(),
    };
    format!("{n_works} works whose distinctive words are {topic}{span}.")
}

/// Seminal works (most cited within the corpus) and rising ones (recent, cited fastest).
fn key_works(
    included: &BTreeMap<WorkId, Work>,
    graph: &CitationGraph,
    pagerank: &BTreeMap<WorkId, f64>,
) -> Vec<KeyWork> {
    let rank_of = |id: &WorkId| pagerank.get(id).copied().unwrap_or(0.0) as f32;
    let mut seminal: Vec<&WorkId> = included
        .keys()
        .filter(|id| graph.in_degree(id) > 0)
        .collect();
    seminal.sort_by(|a, b| {
        graph
            .in_degree(b)
            .cmp(&graph.in_degree(a))
            .then(rank_of(b).total_cmp(&rank_of(a)))
            .then(a.cmp(b))
    });
    let mut key: Vec<KeyWork> = seminal
        .into_iter()
        .take(5)
        .map(|id| KeyWork {
            work: id.clone(),
            role: KeyRole::Seminal,
            corpus_citations: graph.in_degree(id),
            pagerank: rank_of(id),
        })
        .collect();
    let latest = included.values().filter_map(|work| work.year).max();
    if let Some(latest) = latest {
        let chosen: BTreeSet<WorkId> = key.iter().map(|key| key.work.clone()).collect();
        let mut rising: Vec<(f32, &WorkId)> = included
            .iter()
            .filter(|(id, work)| {
                !chosen.contains(*id)
                    && work.year.is_some_and(|year| latest - year <= 3)
                    && graph.in_degree(id) > 0
            })
            .map(|(id, work)| {
                let age = (latest - work.year.unwrap_or(latest) + 1) as f32;
                (graph.in_degree(id) as f32 / age, id)
            })
            .collect();
        rising.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        key.extend(rising.into_iter().take(3).map(|(_, id)| KeyWork {
            work: id.clone(),
            role: KeyRole::Rising,
            corpus_citations: graph.in_degree(id),
            pagerank: rank_of(id),
        }));
    }
    key
}

#[cfg(test)]
mod tests {
    use litrev_model::WorkIds;

    use super::*;

    #[test]
    fn headings_open_on_a_capital_unless_a_name_is_written_small() {
        assert_eq!(
            capitalised("rFVIIa and emicizumab"),
            "rFVIIa and emicizumab"
        );
        assert_eq!(capitalised("mRNA vaccines"), "mRNA vaccines");
        assert_eq!(capitalised("bleeding in PwHA"), "Bleeding in PwHA");
        assert_eq!(capitalised("ómicron"), "Ómicron");
        assert_eq!(capitalised(""), "");
    }

    fn work(id: usize, title: &str) -> Work {
        Work {
            ids: WorkIds {
                openalex: Some(format!("W{id}").parse().expect("id")),
                ..WorkIds::default()
            },
            title: Some(title.into()),
            year: Some(2000 + id as i32),
            ..Work::default()
        }
    }

    #[test]
    fn themes_are_placed_domain_by_domain_and_numbered_again() {
        let theme = |label: &str, works: &[&str]| Theme {
            id: 0,
            label: label.to_owned(),
            description: String::new(),
            top_words: Vec::new(),
            works: works.iter().map(|id| id.parse().expect("id")).collect(),
            key_works: Vec::new(),
            years: None,
            bridges: Vec::new(),
            rising: Vec::new(),
            timeline: BTreeMap::new(),
            sub_themes: Vec::new(),
            domain: None,
        };
        let mut organisation = Organisation {
            themes: vec![
                theme("mixed", &["W1", "W5", "W6", "W2"]),
                theme("memory", &["W5", "W6", "W7"]),
                theme("dosing", &["W1", "W2", "W8"]),
            ],
            key_works: Vec::new(),
            outliers: Vec::new(),
            views: None,
            embedding_model: None,
        };
        let domain_of: BTreeMap<WorkId, String> = [
            ("W1", "Medicine"),
            ("W2", "Medicine"),
            ("W8", "Medicine"),
            ("W5", "Psychology"),
            ("W6", "Psychology"),
            ("W7", "Psychology"),
        ]
        .into_iter()
        .map(|(id, domain)| (id.parse().expect("id"), domain.to_owned()))
        .collect();
        let domains = ["Medicine".to_owned(), "Psychology".to_owned()];
        let unchanged = organisation.clone();
        place_in_domains(&mut organisation, &domains[..1], &domain_of);
        assert_eq!(organisation, unchanged, "one domain is no split");

        place_in_domains(&mut organisation, &domains, &domain_of);
        let placed: Vec<(u32, &str, Option<&str>)> = organisation
            .themes
            .iter()
            .map(|theme| (theme.id, theme.label.as_str(), theme.domain.as_deref()))
            .collect();
        assert_eq!(
            placed,
            [
                (1, "dosing", Some("Medicine")),
                (2, "memory", Some("Psychology")),
                (3, "mixed", None),
            ]
        );
    }

    #[test]
    fn a_label_names_a_phrase_once_instead_of_its_halves() {
        let words: Vec<String> = ["hot", "flashes", "symptoms", "tamoxifen", "women"]
            .map(str::to_owned)
            .into();
        let texts = [
            "Hot flashes in breast cancer survivors: symptoms under tamoxifen.",
            "Megestrol reduced hot flashes; symptoms eased.",
            "Women on tamoxifen report hot flashes.",
            "Symptoms of menopause in women.",
        ];
        assert_eq!(
            label_items(&words, &texts),
            ["hot flashes", "symptoms", "tamoxifen"]
        );
        // Words the texts do not write side by side stay apart.
        assert_eq!(
            label_items(&words[2..], &texts),
            ["symptoms", "tamoxifen", "women"]
        );
        assert_eq!(
            label_of(&label_items(&words, &texts)),
            "Hot flashes, symptoms and tamoxifen"
        );
    }

    #[test]
    fn a_later_label_takes_words_from_beyond_the_top_five() {
        // Donners_2021's fourth theme: its top five words were all in earlier labels but
        // "treated", so its label was the one word "Treated".
        let words =
            |list: &[&str]| -> Vec<String> { list.iter().map(|w| (*w).to_owned()).collect() };
        let first = words(&["emicizumab", "inhibitors", "bleeding", "dose", "hemophilia"]);
        let later = words(&[
            "emicizumab",
            "prophylaxis",
            "bleeding",
            "treated",
            "inhibitors",
            "arm",
            "prior",
        ]);
        let texts = vec![
            vec!["Emicizumab for inhibitors: bleeding and dose in hemophilia."; 2],
            vec![
                "Emicizumab prophylaxis was given. Those treated for bleeding in one arm had prior agents.";
                2
            ],
        ];
        let labels = labels_in_order(&[first.as_slice(), later.as_slice()], &texts);
        assert_eq!(label_of(&labels[0]), "Emicizumab, inhibitors and bleeding");
        assert_eq!(label_of(&labels[1]), "Prophylaxis, treated and arm");
        // A theme whose every word is taken still gets a label, from its best words.
        let taken = words(&["emicizumab", "inhibitors"]);
        let labels = labels_in_order(&[first.as_slice(), taken.as_slice()], &texts);
        assert_eq!(label_of(&labels[1]), "Emicizumab and inhibitors");
    }

    #[test]
    fn a_theme_without_a_title_phrase_takes_its_labels_written_phrase() {
        // From Donners_2021's standard review, titled "Replacement therapy, new and mechanism".
        let texts = [
            "A new mechanism beyond factor replacement therapy for haemophilia.",
            "Non-replacement therapy: a new mechanism of action.",
        ];
        let words =
            |list: &[&str]| -> Vec<String> { list.iter().map(|w| (*w).to_owned()).collect() };
        let items = words(&["replacement therapy", "new", "mechanism"]);
        assert_eq!(fallback_title(&items, &texts), "Replacement therapy");
        let items = words(&["new", "mechanism"]);
        assert_eq!(fallback_title(&items, &texts), "New and mechanism");
    }

    #[test]
    fn labels_choose_from_more_distinctive_words_than_a_theme_shows() {
        let group_a = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima";
        let group_b = "mike november oscar papa quebec romeo sierra tango uniform victor";
        let texts: Vec<String> = [group_a, group_a, group_b, group_b]
            .map(str::to_owned)
            .into();
        let groups: BTreeMap<usize, Vec<usize>> = [(0, vec![0, 1]), (1, vec![2, 3])].into();
        let words = distinctive_words(&texts, &groups);
        assert_eq!(words[&0].len(), LABEL_POOL);
    }

    #[test]
    fn words_either_side_of_a_stop_are_no_phrase() {
        // From Donners_2021's abstracts, where "inhibitors emicizumab" had become a label item.
        let words: Vec<String> = ["inhibitors", "emicizumab", "bleeding"]
            .map(str::to_owned)
            .into();
        let texts = [
            "Patients with factor VIII inhibitors. Emicizumab was given weekly.",
            "New development of inhibitors.Emicizumab prophylaxis reduced bleeding.",
            "Antibodies (inhibitors). Emicizumab once weekly.",
        ];
        assert_eq!(
            label_items(&words, &texts),
            ["inhibitors", "emicizumab", "bleeding"]
        );
    }

    #[test]
    fn separates_planted_topics_and_labels_them_with_their_words() {
        let titles = [
            "insulin pump therapy glucose control",
            "insulin pump glucose outcomes in children",
            "insulin pump adherence glucose",
            "insulin pump costs glucose",
            "school meals obesity nutrition",
            "school meals nutrition policy",
            "school meals obesity prevention nutrition",
            "school meals vegetables nutrition",
            "knee surgery rehabilitation recovery",
            "knee surgery recovery pain",
            "knee surgery rehabilitation outcomes",
        ];
        let included: BTreeMap<WorkId, Work> = titles
            .iter()
            .enumerate()
            .map(|(index, title)| {
                let work = work(index + 1, title);
                (work.id(), work)
            })
            .collect();
        let citations = [Citation {
            citing: "W2".parse().expect("id"),
            cited: "W1".parse().expect("id"),
        }];
        let organisation = organise(
            &OrganiseConfig::default(),
            &included,
            &citations,
            None,
            None,
        );
        assert_eq!(organisation.themes.len(), 3);
        let labels: Vec<&str> = organisation
            .themes
            .iter()
            .map(|theme| theme.label.as_str())
            .collect();
        for expected in ["insulin", "meals", "knee"] {
            let theme = organisation
                .themes
                .iter()
                .find(|theme| theme.top_words.iter().any(|word| word == expected))
                .unwrap_or_else(|| panic!("{expected} in {labels:?}"));
            let planted = titles
                .iter()
                .filter(|title| title.contains(expected))
                .count();
            assert_eq!(theme.works.len(), planted, "{expected}: {labels:?}");
        }
        assert_eq!(organisation.key_works[0].work.to_string(), "W1");
        let insulin = &organisation.themes[0];
        assert_eq!(
            insulin.key_works[0].to_string(),
            "W1",
            "the cited work leads its theme"
        );
    }
}
