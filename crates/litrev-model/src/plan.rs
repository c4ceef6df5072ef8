//! The plan of a run: what to search for, where, and within which limits.

use serde::{Deserialize, Serialize};

use crate::id::WorkId;
use crate::tier::{Tier, TierLimits};
use crate::work::{Work, WorkKind};

/// What the plan phase decided, stored before any search runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The research question as the user wrote it.
    pub question: String,
    /// The question's content terms, the vocabulary relevance is judged against.
    pub key_terms: Vec<String>,
    /// Searches to run, in order.
    pub queries: Vec<Query>,
    /// Works the user named as starting points.
    pub seeds: Vec<WorkId>,
    /// The quality tier.
    pub tier: Tier,
    /// The tier's limits, possibly adjusted.
    pub limits: TierLimits,
    /// Hits kept per query.
    pub hits_per_query: usize,
    /// Lowest relevance score at which a snowballed work counts as relevant.
    pub relevance_threshold: f32,
    /// Eligibility rules every included work must meet.
    #[serde(default)]
    pub filters: Filters,
    /// The scope a researcher settles before searching, each dimension saying whether the
    /// question stated it, litrev derived it, or litrev assumed it.
    #[serde(default)]
    pub brief: Brief,
    /// Which sections of the review draw on which domains, and in what order; none: the
    /// default synthesis of the plan's domains ([`Plan::synthesis`]). A person may edit it
    /// (drop a part, reorder, rename, narrow a part to some domains).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synthesis: Option<Vec<SynthesisSection>>,
}

/// A part of the review a synthesis plan maps domains to (the sections a researcher's review
/// has beside its themes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SynthesisPart {
    /// The seminal works each domain stands on: its most cited included works, and what they
    /// set out to do and concluded.
    Foundations,
    /// How each domain's works studied their question: the designs they name and how they
    /// went about it.
    Methods,
    /// What the works found, theme by theme (the themes are found within and across domains).
    Findings,
    /// The limitations and open questions the works name.
    Gaps,
}

impl SynthesisPart {
    /// Every part, in the order a review gives them.
    pub const ALL: [SynthesisPart; 4] = [
        SynthesisPart::Foundations,
        SynthesisPart::Methods,
        SynthesisPart::Findings,
        SynthesisPart::Gaps,
    ];

    /// The section's default heading.
    pub fn heading(self) -> &'static str {
        match self {
            SynthesisPart::Foundations => "Theoretical foundations",
            SynthesisPart::Methods => "Methodological approaches",
            SynthesisPart::Findings => "Empirical findings",
            SynthesisPart::Gaps => "Gaps and future directions",
        }
    }

    /// What the section takes from its works, said to the person reading the plan.
    pub fn draws_on(self) -> &'static str {
        match self {
            SynthesisPart::Foundations => {
                "the most cited included works (the seminal searches' aim): their objectives and conclusions"
            }
            SynthesisPart::Methods => "the designs the works name and their methods sentences",
            SynthesisPart::Findings => {
                "the themes' results and conclusions (the recent searches' aim among them)"
            }
            SynthesisPart::Gaps => "the limitations and future work the works name",
        }
    }
}

/// One section of the synthesis plan: a part of the review and the domains it draws on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SynthesisSection {
    /// What the section is.
    pub part: SynthesisPart,
    /// Its heading in the review.
    pub heading: String,
    /// The domains whose works it draws on, each a [`Domain`]'s name; empty: every work (a
    /// question searched as one, or every domain).
    #[serde(default)]
    pub domains: Vec<String>,
    /// What it takes from those works.
    #[serde(default)]
    pub draws_on: String,
}

/// How a dimension of the brief was settled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grounds {
    /// The person said so: the question's words or an option.
    Stated,
    /// litrev read it from the works a probe search found.
    Derived,
    /// A default, for the person to check.
    #[default]
    Assumed,
}

/// One dimension of the brief: its value and how it was settled.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dimension<T> {
    /// The value.
    pub value: T,
    /// Stated, derived or assumed.
    pub basis: Grounds,
}

/// The years a review covers: foundational works of any era (unless the window is closed),
/// and a recent window searched on its own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeWindow {
    /// The first year covered; none: works of any era.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i32>,
    /// The last year covered; none: up to now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i32>,
    /// Where the recent window starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recent_from: Option<i32>,
}

/// The research brief (seed S4 §4): discipline, time window, methods, population, which
/// kinds of sources count and in which order, the review's language and its mode.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Brief {
    /// Disciplines the question belongs to (empty until a probe search reads them).
    pub disciplines: Dimension<Vec<String>>,
    /// The years covered.
    pub time_window: Dimension<TimeWindow>,
    /// Study designs wanted (empty: any).
    pub methods: Dimension<Vec<String>>,
    /// Who or what is studied (empty: anyone).
    pub population: Dimension<Vec<String>>,
    /// Kinds of sources, most trusted first; the last ones are deprioritised.
    pub source_hierarchy: Dimension<Vec<String>>,
    /// The language the review is written in (ISO 639-1).
    pub output_language: Dimension<String>,
    /// `academic` (peer-reviewed literature first) or `general`.
    pub mode: Dimension<String>,
    /// At most two questions asked because something material was missing or ambiguous,
    /// each with the answer taken when nobody answers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clarifications: Vec<Clarification>,
    /// The parts of a question that spans disciplines, each searched side by side with its
    /// own queries (seed S1, S4 §4c); empty: the question is searched as one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<Domain>,
    /// How large and how cited the question's literature looked to the probe search; the
    /// estimate reads it. None: no probe ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe: Option<ProbeReading>,
}

/// What a probe search saw of the question's literature: how many works its searches
/// matched and how often the works it read are cited. A plan's requests follow from these
/// as much as from its own shape: a search reads no further than the works that match, and
/// a snowball stage pages through its works' citations.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeReading {
    /// Works its searches read, merged.
    pub works: usize,
    /// The most works one of its searches matched on a source that counts them (OpenAlex's
    /// `meta.count`); none when no source said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<u64>,
    /// Times the works it read are cited, summed, as the sources report.
    pub citations: u64,
    /// Times the most cited quarter of the works it read (at least one) are cited, summed:
    /// a snowball stage expands the most promising works first, which are cited more than
    /// the probe's mean. 0 when not read (a plan written before it was).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub top_citations: u64,
    /// Hits its searches read before they were merged: beside `works`, how much searches of
    /// the question overlap. 0 when not read (a plan written before it was).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hits: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

impl ProbeReading {
    /// The reading of works cited as often as `cited` says, one count per work read (0 when
    /// the source does not say), merged from `hits` hits, of which one search matched at most
    /// `matches`.
    pub fn of(
        cited: impl IntoIterator<Item = u64>,
        hits: usize,
        matches: Option<u64>,
    ) -> ProbeReading {
        let mut cited: Vec<u64> = cited.into_iter().collect();
        cited.sort_unstable_by(|a, b| b.cmp(a));
        let top = cited.len().div_ceil(TOP_SHARE);
        ProbeReading {
            works: cited.len(),
            matches,
            citations: cited.iter().sum(),
            top_citations: cited[..top].iter().sum(),
            hits: hits as u64,
        }
    }

    /// The share of the hits read that were distinct works: searches of the question that
    /// overlap find the same works, and hold less of the literature than the hits they read.
    /// 1 when the hits were not counted.
    pub fn distinct_share(&self) -> f64 {
        if self.hits == 0 {
            1.0
        } else {
            (self.works as f64 / self.hits as f64).min(1.0)
        }
    }

    /// Mean times a work the probe read is cited (0 without works).
    pub fn citations_per_work(&self) -> f64 {
        if self.works == 0 {
            0.0
        } else {
            self.citations as f64 / self.works as f64
        }
    }

    /// Mean times a work of the most cited quarter the probe read is cited; the mean of all
    /// when that quarter was not read.
    pub fn citations_per_top_work(&self) -> f64 {
        if self.works == 0 {
            return 0.0;
        }
        let top = self.works.div_ceil(TOP_SHARE);
        (self.top_citations as f64 / top as f64).max(self.citations_per_work())
    }
}

/// One work in this many is in the probe's most cited share.
const TOP_SHARE: usize = 4;

/// A part of a question spanning several disciplines, or several unrelated topics: its name,
/// and the question's terms that belong to it, which its own searches are made of.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Domain {
    /// The discipline it stands for (`Medicine`), as the probe's works are filed; or, for a
    /// topic of a question whose works one discipline holds, the topic's own terms
    /// (`Emicizumab and pharmacokinetics`).
    pub name: String,
    /// The question's topic terms that belong to it.
    pub key_terms: Vec<String>,
}

/// What relevance is judged against within one domain: its terms as a question, and the
/// searches made for it (whose best hits stand for it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Focus {
    /// The domain's name.
    pub name: String,
    /// The domain's terms, as a question.
    pub question: String,
    /// Labels of the domain's queries.
    pub queries: Vec<String>,
}

impl Plan {
    /// The synthesis plan: the one stored (as a person may have edited it), else the default
    /// of every part over every domain of a split question, or over the whole question.
    pub fn synthesis(&self) -> Vec<SynthesisSection> {
        if let Some(sections) = &self.synthesis {
            return sections.clone();
        }
        let domains: Vec<String> = self.focuses().into_iter().map(|focus| focus.name).collect();
        SynthesisPart::ALL
            .iter()
            .map(|&part| SynthesisSection {
                part,
                heading: part.heading().to_owned(),
                domains: domains.clone(),
                draws_on: part.draws_on().to_owned(),
            })
            .collect()
    }

    /// The domains searched side by side, as foci of relevance; empty when the question is
    /// searched as one (fewer than two domains), so single-domain runs judge as before.
    pub fn focuses(&self) -> Vec<Focus> {
        if self.brief.domains.len() < 2 {
            return Vec::new();
        }
        self.brief
            .domains
            .iter()
            .map(|domain| Focus {
                name: domain.name.clone(),
                question: domain.key_terms.join(" "),
                queries: self
                    .queries
                    .iter()
                    .filter(|query| query.domain.as_deref() == Some(domain.name.as_str()))
                    .map(|query| query.label.clone())
                    .collect(),
            })
            .collect()
    }
}

/// A question the plan asks before anything runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clarification {
    /// What it is about (`disciplines`, `topics`, `time_window`).
    pub about: String,
    /// The question, as asked.
    pub question: String,
    /// The answers it takes, the default first.
    pub options: Vec<String>,
    /// The answer given; none: the default was taken (and the dimension stays assumed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

/// Eligibility rules applied at screening, before any ranking.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filters {
    /// First publication year allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year_from: Option<i32>,
    /// Last publication year allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year_to: Option<i32>,
    /// Languages allowed (ISO 639-1 codes); empty allows all. Works of unknown language pass.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
    /// Kinds of work allowed; empty allows all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<WorkKind>,
    /// Terms whose presence in the title or abstract excludes a work (case-insensitive).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude_terms: Vec<String>,
}

/// One search to run against a source.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Query {
    /// Stable label (`q1`, `q2`…) used in hit lists and the method section.
    pub label: String,
    /// What the query is for (`all key terms`, `title phrase`…).
    pub purpose: String,
    /// The query text in the source-independent syntax: terms, `"phrases"`, `AND`/`OR`.
    pub text: String,
    /// The channel the search stands for: keyword search of the literature, or the field's
    /// books; PRISMA counts what each channel identified.
    #[serde(default, skip_serializing_if = "Channel::is_keyword")]
    pub channel: Channel,
    /// Kinds of work the search asks for (empty: any). Sources that can filter by kind do so
    /// in the request; every hit of another kind is dropped whatever the source.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<WorkKind>,
    /// The earliest publication year the search asks for; hits of earlier or unknown years
    /// are dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_year: Option<i32>,
    /// The order hits are read in: the source's relevance, or the most cited first (a
    /// field's seminal works).
    #[serde(default, skip_serializing_if = "HitOrder::is_relevance")]
    pub order: HitOrder,
    /// The domain the search was made for (a [`Domain`]'s name); none: the whole question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
}

impl Query {
    /// A keyword search for any kind of work, ordered by relevance.
    pub fn new(
        label: impl Into<String>,
        purpose: impl Into<String>,
        text: impl Into<String>,
    ) -> Query {
        Query {
            label: label.into(),
            purpose: purpose.into(),
            text: text.into(),
            ..Query::default()
        }
    }

    /// Whether a hit is what the search asks for: of one of its kinds and not before its
    /// earliest year.
    pub fn admits(&self, work: &Work) -> bool {
        (self.kinds.is_empty() || self.kinds.contains(&work.kind))
            && self
                .from_year
                .is_none_or(|from| work.year.is_some_and(|year| year >= from))
    }

    /// Whether two queries run the same search: the same text, channel, kinds, years and
    /// order (labels and purposes aside).
    pub fn same_search(&self, other: &Query) -> bool {
        self.text == other.text
            && self.channel == other.channel
            && self.kinds == other.kinds
            && self.from_year == other.from_year
            && self.order == other.order
    }

    /// Whether the search is more than a plain keyword search: it stands for another channel,
    /// or narrows or reorders what the keywords return.
    pub fn is_directed(&self) -> bool {
        self.channel != Channel::Keyword
            || !self.kinds.is_empty()
            || self.from_year.is_some()
            || self.order != HitOrder::Relevance
    }
}

/// What a search stands for, for PRISMA's identification counts and the method section.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// Keyword search of the literature.
    #[default]
    Keyword,
    /// The field's books: handbooks, introductions, companions and their chapters.
    Book,
    /// The field's experts: the most cited authors of the core works' topics, and their most
    /// cited works there.
    Expert,
    /// Web search (grey literature: reports, agency pages, guidance), asked only of web search
    /// providers and only when one is among the run's sources.
    Web,
    /// Hugging Face's trending papers (seed S3): the papers the Hub's community upvotes now,
    /// those on the topic's terms; asked only of the Hub and only when it is among the sources.
    Trending,
}

impl Channel {
    /// Its name in records and tables.
    pub fn name(self) -> &'static str {
        match self {
            Channel::Keyword => "keyword",
            Channel::Book => "book",
            Channel::Expert => "expert",
            Channel::Web => "web",
            Channel::Trending => "trending",
        }
    }

    fn is_keyword(&self) -> bool {
        *self == Channel::Keyword
    }
}

/// The order a search's hits are read in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitOrder {
    /// The source's relevance ranking.
    #[default]
    Relevance,
    /// The most cited first.
    Citations,
}

impl HitOrder {
    fn is_relevance(&self) -> bool {
        *self == HitOrder::Relevance
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_reading_keeps_its_most_cited_quarter_and_overlap_and_older_plans_read_the_mean() {
        let reading = ProbeReading::of([0, 40, 2, 2, 0, 6, 1, 1], 10, Some(300));
        assert_eq!((reading.works, reading.citations), (8, 52));
        // The two most cited of eight: 40 and 6.
        assert_eq!(reading.top_citations, 46);
        assert_eq!(reading.citations_per_work(), 6.5);
        assert_eq!(reading.citations_per_top_work(), 23.0);
        // A plan written before the quarter was read has none: its mean stands in.
        let older: ProbeReading =
            serde_json::from_str(r#"{"works": 8, "matches": 300, "citations": 52}"#)
                .expect("an older probe reading");
        assert_eq!(older.top_citations, 0);
        assert_eq!(older.citations_per_top_work(), 6.5);
        // Eight distinct works of ten hits: the searches overlapped; an older plan's are
        // taken as distinct.
        assert_eq!(reading.distinct_share(), 0.8);
        assert_eq!(older.distinct_share(), 1.0);
        assert_eq!(ProbeReading::of([], 0, None).citations_per_top_work(), 0.0);
    }
}
