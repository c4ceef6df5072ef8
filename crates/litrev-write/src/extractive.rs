//! The extractive writer: structure-built sentences and attributed abstract sentences.
//!
//! Each theme section opens with a sentence built from structure, then carries the works'
//! findings in their own words, most informative and most central first, and closes with the
//! limits its works name. Sentences too similar to one already used are skipped, so nothing
//! is said twice. The word budget (the tier's range) is spread over themes by their size;
//! if the review falls outside the tier's range, the themes are rewritten with more or less room.

use std::collections::{BTreeMap, BTreeSet};

use litrev_model::{
    Basis, Expert, Paragraph, Review, Section, SectionKind, Segment, Sentence, StopReason,
    SynthesisPart, SynthesisSection, Theme, WorkId,
};
use litrev_text::{Corpus, SparseVector, content_words, is_boilerplate, is_generic, terms};

use crate::WriteInput;
use crate::cues::{
    answer_the_same_question, could_be_a_topic, denies_anything, describes_the_sample,
    is_about_harms, is_damaged, is_negative, leans_on_context, names_no_subject_alone,
    opens_on_a_verb, phrase_of, purpose_clause, reports_effect, speaks_for_its_paper,
};
use crate::evidence::{Role, Span, evidence_of};
use crate::prose::{
    SentenceBuilder, capitalise, label_list, list, number, number_capitalised, plural,
    with_article, words_of,
};

/// Sentences shorter than this say too little to stand alone.
mod studies;

pub(crate) const MIN_SPAN_WORDS: usize = 8;
/// Sentences longer than this read badly out of context.
pub(crate) const MAX_SPAN_WORDS: usize = 70;
/// Two sentences more similar than this say the same thing.
const REDUNDANCY: f32 = 0.6;
/// Least TF-IDF cosine between two findings set against each other as a debate: below it they
/// are about different things.
const DEBATE_SIMILARITY: f32 = 0.15;
/// Most sentences taken from one work in one theme.
const MAX_SPANS_PER_WORK: usize = 4;
/// The frames a group of works' paragraph can open with.
const GROUP_FRAMES: usize = 6;

/// Who drafts the thematic sections: what the abstract and method sections say about them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Drafting {
    /// This writer: sentences taken verbatim and attributed.
    Extractive,
    /// The LLM writer (`llm.rs`), which replaces the themes' parts with checked paraphrases.
    Llm,
}

/// Writes the review.
pub fn write(input: &WriteInput<'_>) -> Review {
    write_drafted_by(input, Drafting::Extractive)
}

/// Writes the review, describing the thematic sections as `drafting` produces them.
pub(crate) fn write_drafted_by(input: &WriteInput<'_>, drafting: Drafting) -> Review {
    let limits = input.plan.limits;
    let target = (limits.min_words + limits.max_words) / 2;
    let mut scale = 1.0_f32;
    let mut review = Writer::new(input, drafting).review(target, scale);
    // Outside the tier's range: give the themes more or less room, a few times at most.
    for _ in 0..4 {
        let words = review_words(&review);
        if words < limits.min_words {
            scale *= 1.5;
        } else if words > limits.max_words {
            scale *= 0.6;
        } else {
            break;
        }
        review = Writer::new(input, drafting).review(target, scale);
    }
    review
}

/// Words in the review body.
fn review_words(review: &Review) -> usize {
    review.sentences().map(words_of).sum()
}

struct Writer<'a> {
    input: &'a WriteInput<'a>,
    spans: BTreeMap<WorkId, Vec<Span>>,
    vectors: BTreeMap<(WorkId, usize), SparseVector>,
    used: BTreeSet<(WorkId, usize)>,
    used_vectors: Vec<SparseVector>,
    /// Counts uses of each sentence frame so frames rotate instead of repeating.
    frame: usize,
    /// How often each frame of each kind of composed opener (paragraph groups, methods,
    /// debates, gaps) was used.
    frames_used: BTreeMap<(&'static str, usize), usize>,
    drafting: Drafting,
    /// The acronyms the included works define, with their long forms (`FVIII`: `factor
    /// VIII`): a paragraph topic said in one form is said in the other.
    acronyms: BTreeMap<String, String>,
}

impl<'a> Writer<'a> {
    fn new(input: &'a WriteInput<'a>, drafting: Drafting) -> Writer<'a> {
        let spans: BTreeMap<WorkId, Vec<Span>> = input
            .included
            .iter()
            .map(|(id, work)| (id.clone(), evidence_of(work, input.cards.get(id))))
            .collect();
        let corpus = Corpus::fit(
            spans
                .values()
                .flat_map(|spans| spans.iter().map(|span| span.text.as_str())),
        );
        let vectors = spans
            .iter()
            .flat_map(|(id, spans)| {
                spans.iter().map(|span| {
                    (
                        (id.clone(), span.locator.sentence),
                        corpus.vector(&span.text),
                    )
                })
            })
            .collect();
        let texts: Vec<String> = input
            .included
            .values()
            .map(litrev_model::Work::title_and_abstract)
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        Writer {
            input,
            spans,
            vectors,
            used: BTreeSet::new(),
            used_vectors: Vec::new(),
            frame: 0,
            frames_used: BTreeMap::new(),
            drafting,
            acronyms: litrev_text::acronym_definitions(&texts),
        }
    }

    /// Marks a paragraph topic said: its `head` (a phrase's last word, or the word itself),
    /// and the other form of each acronym it holds or spells out, so that "factor VIII" and
    /// "FVIII" do not open two paragraphs of one theme.
    fn say(&self, topic: &str, head: String, said: &mut BTreeSet<String>) {
        let words: Vec<String> = topic.split(' ').map(str::to_lowercase).collect();
        for (short, long) in &self.acronyms {
            if topic.split(' ').any(|word| word == short) {
                said.extend(long.split(' ').next_back().map(str::to_lowercase));
            }
            let long: Vec<String> = long.split(' ').map(str::to_lowercase).collect();
            if words
                .windows(long.len())
                .any(|window| window == long.as_slice())
            {
                said.insert(short.to_lowercase());
            }
        }
        said.insert(head);
    }

    fn review(mut self, target: usize, scale: f32) -> Review {
        let introduction = self.introduction();
        let method = self.method();
        let fixed: usize = [&introduction, &method]
            .iter()
            .flat_map(|section| section.paragraphs.iter())
            .flat_map(|paragraph| paragraph.sentences.iter())
            .map(words_of)
            .sum();
        // Abstract, gaps and conclusion take roughly this much; themes get the rest.
        let reserved = 1_700;
        let theme_words = (target.saturating_sub(fixed + reserved) as f32 * scale) as usize;
        let total_works: usize = self
            .input
            .organisation
            .themes
            .iter()
            .map(|theme| theme.works.len())
            .sum::<usize>()
            .max(1);
        let themes: Vec<Section> = self
            .input
            .organisation
            .themes
            .iter()
            .map(|theme| {
                let budget = theme_words * theme.works.len() / total_works;
                self.theme_section(theme, budget)
            })
            .collect();
        let discussion = self.discussion();
        // The synthesis plan orders the parts and names the domains each draws on; the themes
        // choose their quotes first, the foundations and methods sections from what is left.
        let synthesis = self.input.plan.synthesis();
        let mut findings = Some((themes, discussion));
        let mut parts = Vec::new();
        for planned in &synthesis {
            match planned.part {
                SynthesisPart::Findings => {
                    if let Some((themes, discussion)) = findings.take() {
                        parts.extend(themes);
                        parts.extend(discussion);
                    }
                }
                SynthesisPart::Gaps => {
                    let mut gaps = self.gaps();
                    gaps.heading.clone_from(&planned.heading);
                    parts.push(gaps);
                }
                SynthesisPart::Foundations | SynthesisPart::Methods => {
                    parts.extend(self.synthesis_section(planned));
                }
            }
        }
        let conclusion = self.conclusion();
        let abstract_section = self.abstract_section();

        let mut sections = vec![abstract_section, introduction, method];
        sections.extend(parts);
        sections.push(conclusion);
        sections.push(self.appendix());
        sections.extend(self.characteristics());
        Review {
            title: title_of(&self.input.plan.question),
            sections,
        }
    }

    // ----- synthesis parts ------------------------------------------------------------------

    /// The included works a synthesis section draws on, one group per domain it names (the
    /// works of the themes mostly of that domain), then the works of themes across the domains;
    /// one group of every work when the question was searched as one or the section names no
    /// domain. Groups without works are left out.
    fn synthesis_groups(&self, planned: &SynthesisSection) -> Vec<(Option<String>, Vec<WorkId>)> {
        let themes = &self.input.organisation.themes;
        let split = !self.input.plan.focuses().is_empty();
        let works_of = |domain: Option<&str>| -> Vec<WorkId> {
            let mut ids: Vec<WorkId> = themes
                .iter()
                .filter(|theme| theme.domain.as_deref() == domain)
                .flat_map(|theme| theme.works.iter().cloned())
                .collect();
            ids.sort();
            ids.dedup();
            ids
        };
        let mut groups = Vec::new();
        if split {
            let named: Vec<String> = if planned.domains.is_empty() {
                self.input
                    .plan
                    .focuses()
                    .into_iter()
                    .map(|focus| focus.name)
                    .collect()
            } else {
                planned.domains.clone()
            };
            for domain in named {
                groups.push((Some(domain.clone()), works_of(Some(&domain))));
            }
            if planned.domains.is_empty() {
                groups.push((None, works_of(None)));
            }
        } else {
            groups.push((None, self.input.included.keys().cloned().collect()));
        }
        groups.retain(|(_, works)| !works.is_empty());
        groups
    }

    /// A foundations or methods section of the synthesis plan: a paragraph per group of
    /// works it draws on ([`Writer::synthesis_groups`]); none when no group has anything to
    /// say.
    fn synthesis_section(&mut self, planned: &SynthesisSection) -> Option<Section> {
        let split = !self.input.plan.focuses().is_empty();
        let mut paragraphs = Vec::new();
        for (domain, works) in self.synthesis_groups(planned) {
            let whose = match (&domain, split) {
                (Some(domain), _) => format!("{domain}'s"),
                (None, true) => "the cross-domain themes'".to_owned(),
                (None, false) => "the".to_owned(),
            };
            let paragraph = match planned.part {
                SynthesisPart::Foundations => self.foundations(&whose, &works),
                _ => self.approaches(&whose, &works),
            };
            paragraphs.extend(paragraph);
        }
        if paragraphs.is_empty() {
            return None;
        }
        let kind = match planned.part {
            SynthesisPart::Foundations => SectionKind::Foundations,
            _ => SectionKind::Approaches,
        };
        Some(section(kind, &planned.heading, paragraphs))
    }

    /// What the most cited of `works` set out to do and concluded, in their words: the works
    /// the rest of the literature builds on. Three at most, taken from the ten most cited, each
    /// with an objective or conclusion that stands alone and that the themes have not quoted.
    fn foundations(&mut self, whose: &str, works: &[WorkId]) -> Option<Paragraph> {
        let mut cited: Vec<(WorkId, u32)> = works
            .iter()
            .filter_map(|id| {
                let count = self.input.included.get(id)?.cited_by_count?;
                (count > 0).then(|| (id.clone(), count))
            })
            .collect();
        cited.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mut seminal: Vec<(WorkId, u32)> = Vec::new();
        let mut spans = Vec::new();
        for (id, count) in cited.into_iter().take(10) {
            if seminal.len() == 3 {
                break;
            }
            let alone = self
                .ranked_spans(&id, &[Role::Objective, Role::Conclusion], None)
                .into_iter()
                .find(|span| !leans_on_context(&span.text));
            if let Some(span) = alone {
                self.mark_used(&span);
                spans.push(span);
                seminal.push((id, count));
            }
        }
        if seminal.is_empty() {
            return None;
        }
        let ids: Vec<WorkId> = seminal.iter().map(|(id, _)| id.clone()).collect();
        let counts: Vec<String> = seminal.iter().map(|(_, count)| count.to_string()).collect();
        let times = match counts.as_slice() {
            [one] => format!(" (cited {one} times)."),
            _ => format!(" (cited {} times respectively).", list(&counts)),
        };
        let mut sentences = vec![
            SentenceBuilder::new()
                .text(format!(
                    "Among the most cited of {whose} {} included works {} ",
                    number(works.len()),
                    if ids.len() == 1 { "is" } else { "are" }
                ))
                .narrative_list(&ids)
                .text(times)
                .structural(),
        ];
        sentences.extend(spans.iter().map(|span| self.attribute(span, None)));
        Some(Paragraph { sentences })
    }

    /// How `works` went about their question: the designs their abstracts name, then two of
    /// their method sentences in their words, each a method by its own words ([`Span::sure`]),
    /// as in a theme's *Methods used*.
    fn approaches(&mut self, whose: &str, works: &[WorkId]) -> Option<Paragraph> {
        let spans = self.standalone_spans_where(works, &[Role::Method], 2, |span| span.sure);
        if spans.is_empty() {
            return None;
        }
        // Without a design named, "the four works are four works" would say nothing.
        let opener = match self.named_designs(works) {
            Some(designs) => format!(
                "{} {} included works are, by the designs their abstracts name, {designs}.",
                capitalise(whose),
                number(works.len()),
            ),
            None => format!(
                "The abstracts of {whose} {} included {} name no study design; they describe their methods as follows.",
                number(works.len()),
                plural(works.len(), "work", "works")
            ),
        };
        let mut sentences = vec![SentenceBuilder::new().text(opener).structural()];
        sentences.extend(spans.iter().map(|span| self.attribute_alone(span)));
        Some(Paragraph { sentences })
    }

    /// The frame of a `kind` of opener used least so far (the earliest of those tied), so that
    /// no composed pattern opens many more paragraphs than the others of its kind.
    fn least_used_frame(&mut self, kind: &'static str, frames: usize) -> usize {
        let frame = (0..frames)
            .min_by_key(|frame| self.frames_used.get(&(kind, *frame)).copied().unwrap_or(0))
            .unwrap_or(0);
        *self.frames_used.entry((kind, frame)).or_default() += 1;
        frame
    }

    /// What the works are, by the designs their abstracts name: "two cohort studies and a
    /// randomised trial", "a cohort study and two other works", or "three works".
    fn designs_of(&self, ids: &[WorkId]) -> String {
        self.named_designs(ids).unwrap_or_else(|| {
            format!(
                "{} {}",
                number(ids.len()),
                plural(ids.len(), "work", "works")
            )
        })
    }

    /// The design a work's abstract names, and its plural ([`studies::design_named`]).
    fn design_named(&self, id: &WorkId) -> Option<(&'static str, &'static str)> {
        self.input.included[id]
            .abstract_text
            .as_deref()
            .and_then(studies::design_named)
    }

    /// [`Writer::designs_of`] when at least one of the works names its design; `None` when
    /// none does.
    fn named_designs(&self, ids: &[WorkId]) -> Option<String> {
        let mut designs: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        let mut unnamed = 0;
        for id in ids {
            match self.design_named(id) {
                Some(design) => *designs.entry(design).or_default() += 1,
                None => unnamed += 1,
            }
        }
        // The commonest design first: "ten randomised trials, a cohort study and …".
        let mut designs: Vec<((&str, &str), usize)> = designs.into_iter().collect();
        designs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut parts: Vec<String> = designs
            .into_iter()
            .map(|((one, many), count)| match count {
                1 => with_article(one),
                _ => format!("{} {many}", number(count)),
            })
            .collect();
        if parts.is_empty() {
            return None;
        }
        if unnamed > 0 {
            parts.push(format!(
                "{} other {}",
                number(unnamed),
                plural(unnamed, "work", "works")
            ));
        }
        Some(list(&parts))
    }

    fn next_frame(&mut self, frames: usize) -> usize {
        self.frame += 1;
        self.frame % frames
    }

    // ----- abstract -------------------------------------------------------------------------

    fn abstract_section(&mut self) -> Section {
        let facts = self.input.facts;
        let themes = &self.input.organisation.themes;
        let (first, last) = self.year_span();
        let labels: Vec<String> = themes
            .iter()
            .map(|theme| in_sentence(&theme.label))
            .collect();
        let stages = facts.stages.len();
        let mut sentences = vec![
            SentenceBuilder::new()
                .text(format!(
                    "This review examines {}“{}”.",
                    if is_a_question(&self.input.plan.question) {
                        "the question "
                    } else {
                        ""
                    },
                    self.input.plan.question.trim().trim_end_matches(['.', '?'])
                ))
                .structural(),
            SentenceBuilder::new()
                .text(format!(
                    "Searching {} with {} {} and following citations for {} {} brought {} works into consideration, of which {} were included after screening for relevance to the question.",
                    facts.source,
                    number(facts.queries.len()),
                    plural(facts.queries.len(), "query", "queries"),
                    number(stages),
                    plural(stages, "stage", "stages"),
                    facts.considered,
                    facts.included
                ))
                .structural(),
        ];
        if let (Some(first), Some(last)) = (first, last) {
            sentences.push(
                SentenceBuilder::new()
                    .text(format!(
                        "The included works, published between {first} and {last}, fall into {} {}: {}.",
                        number(themes.len()),
                        plural(themes.len(), "theme", "themes"),
                        label_list(&labels)
                    ))
                    .structural(),
            );
        }
        sentences.push(
            SentenceBuilder::new()
                .text(match self.drafting {
                    Drafting::Extractive => "For each theme the review reports what its works found, in their own words and attributed, and it closes with the limitations and open questions those works name.",
                    Drafting::Llm => "For each theme the review synthesises what its works found, each sentence citing the sentences of their abstracts it draws on, and it closes with the limitations and open questions those works name.",
                })
                .structural(),
        );
        section(
            SectionKind::Abstract,
            "Abstract",
            vec![Paragraph { sentences }],
        )
    }

    // ----- introduction ---------------------------------------------------------------------

    fn introduction(&mut self) -> Section {
        let input = self.input;
        let mut paragraphs = Vec::new();
        let (first, last) = self.year_span();
        let n = input.included.len();
        let mut scope = vec![
            SentenceBuilder::new()
                .text(if is_a_question(&input.plan.question) {
                    format!("This review asks: “{}”", input.plan.question.trim())
                } else {
                    format!("This review takes up “{}”", input.plan.question.trim())
                })
                .text(if input.plan.question.trim().ends_with(['.', '?', '!']) {
                    ""
                } else {
                    "."
                })
                .structural(),
        ];
        if let (Some(first), Some(last)) = (first, last) {
            let venues = self.top_venues(3);
            let venue_clause = if venues.is_empty() {
                String::new()
            } else {
                format!(
                    ", most often in {}",
                    list(
                        &venues
                            .iter()
                            .map(|(venue, _)| venue.clone())
                            .collect::<Vec<_>>()
                    )
                )
            };
            scope.push(
                SentenceBuilder::new()
                    .text(format!(
                        "It draws on {} works published between {first} and {last}{venue_clause}.",
                        n
                    ))
                    .structural(),
            );
        }
        if let Some(sentence) = self.year_trend() {
            scope.push(sentence);
        }
        if !input.plan.key_terms.is_empty() {
            scope.push(
                SentenceBuilder::new()
                    .text(format!(
                        "Its scope is set by the topic terms of the question ({}){}.",
                        list(&input.plan.key_terms),
                        if self.corpus_has_references() {
                            " and, through citation snowballing, by the works those studies cite and are cited by"
                        } else {
                            ""
                        }
                    ))
                    .structural(),
            );
        }
        paragraphs.push(Paragraph { sentences: scope });
        paragraphs.extend(self.domains_paragraph());

        // The field in the words of its most cited works.
        let seminal: Vec<WorkId> = input
            .organisation
            .key_works
            .iter()
            .filter(|key| key.role == litrev_model::KeyRole::Seminal)
            .map(|key| key.work.clone())
            .collect();
        let mut background = Vec::new();
        if !seminal.is_empty() {
            let shown: Vec<WorkId> = seminal.iter().take(3).cloned().collect();
            background.push(
                SentenceBuilder::new()
                    .text("The works most cited within the corpus are ")
                    .narrative_list(&shown)
                    .text(".")
                    .structural(),
            );
            for id in seminal.iter().take(2) {
                let picked = self.standalone_spans(
                    std::slice::from_ref(id),
                    &[Role::Background, Role::Objective, Role::Conclusion],
                    1,
                );
                for span in picked {
                    background.push(self.attribute_alone(&span));
                }
            }
        }
        let rising: Vec<WorkId> = input
            .organisation
            .key_works
            .iter()
            .filter(|key| key.role == litrev_model::KeyRole::Rising)
            .map(|key| key.work.clone())
            .take(2)
            .collect();
        if !rising.is_empty() {
            background.push(
                SentenceBuilder::new()
                    .text("Among recent works, ")
                    .narrative_list(&rising)
                    .text(format!(
                        " {} been cited fastest by the rest of the corpus.",
                        if rising.len() == 1 { "has" } else { "have" }
                    ))
                    .structural(),
            );
        }
        if !background.is_empty() {
            paragraphs.push(Paragraph {
                sentences: background,
            });
        }

        let labels: Vec<String> = input
            .organisation
            .themes
            .iter()
            .map(|theme| in_sentence(&theme.label))
            .collect();
        if !labels.is_empty() {
            paragraphs.push(Paragraph {
                sentences: vec![
                    SentenceBuilder::new()
                        .text(format!(
                            "After the method, the review takes up {} {} in turn ({}) and then turns to the gaps and future directions the works themselves point to.",
                            number(labels.len()),
                            plural(labels.len(), "theme", "themes"),
                            label_list(&labels)
                        ))
                        .structural(),
                ],
            });
        }
        section(
            SectionKind::Introduction,
            "Introduction and scope",
            paragraphs,
        )
    }

    /// For a question split into domains: which domains, with their terms, were searched side
    /// by side, and which themes each holds (and which span them).
    fn domains_paragraph(&self) -> Option<Paragraph> {
        let plan = self.input.plan;
        if plan.focuses().is_empty() {
            return None;
        }
        let domains = &plan.brief.domains;
        let described: Vec<String> = domains
            .iter()
            .map(|domain| format!("{} ({})", domain.name, list(&domain.key_terms)))
            .collect();
        let mut sentences = vec![
            SentenceBuilder::new()
                .text(format!(
                    "The question joins {} domains, searched side by side with searches of their own and judged each against its own terms: {}.",
                    number(domains.len()),
                    list(&described)
                ))
                .structural(),
        ];
        let themes = &self.input.organisation.themes;
        let in_domain = |domain: Option<&str>| -> (Vec<String>, usize) {
            let held: Vec<&Theme> = themes
                .iter()
                .filter(|theme| theme.domain.as_deref() == domain)
                .collect();
            (
                held.iter().map(|theme| in_sentence(&theme.label)).collect(),
                held.iter().map(|theme| theme.works.len()).sum(),
            )
        };
        for domain in domains {
            let (labels, works) = in_domain(Some(&domain.name));
            let text = if labels.is_empty() {
                format!(
                    "No theme is mostly of {}: its works sit in themes shared with the other domains.",
                    domain.name
                )
            } else {
                format!(
                    "{} holds {} {} of {} {} ({}).",
                    domain.name,
                    number(labels.len()),
                    plural(labels.len(), "theme", "themes"),
                    works,
                    plural(works, "work", "works"),
                    label_list(&labels)
                )
            };
            sentences.push(SentenceBuilder::new().text(text).structural());
        }
        let (across, works) = in_domain(None);
        if !across.is_empty() {
            sentences.push(
                SentenceBuilder::new()
                    .text(format!(
                        "{} {} of {} {} {} the domains ({}).",
                        capitalise(&number(across.len())),
                        plural(across.len(), "theme", "themes"),
                        works,
                        plural(works, "work", "works"),
                        plural(across.len(), "spans", "span"),
                        label_list(&across)
                    ))
                    .structural(),
            );
        }
        Some(Paragraph { sentences })
    }

    fn year_trend(&self) -> Option<Sentence> {
        let mut years: Vec<i32> = self
            .input
            .included
            .values()
            .filter_map(|work| work.year)
            .collect();
        if years.len() < 4 {
            return None;
        }
        years.sort_unstable();
        let median = years[years.len() / 2];
        let mut per_year: BTreeMap<i32, usize> = BTreeMap::new();
        for year in &years {
            *per_year.entry(*year).or_default() += 1;
        }
        let (busiest, count) = per_year
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(year, count)| (*year, *count))?;
        Some(
            SentenceBuilder::new()
                .text(format!(
                    "Half of them appeared in {median} or later, and the busiest year was {busiest}, with {} {}.",
                    number(count),
                    plural(count, "work", "works")
                ))
                .structural(),
        )
    }

    // ----- method ---------------------------------------------------------------------------

    fn method(&mut self) -> Section {
        let paragraphs = vec![
            self.method_search(),
            self.method_snowball(),
            self.method_screening(),
        ];
        section(SectionKind::Method, "Method", paragraphs)
    }

    /// The method's first paragraph: where the works came from and how they were searched.
    fn method_search(&self) -> Paragraph {
        let facts = self.input.facts;
        let mut search = vec![
            SentenceBuilder::new()
                .text(format!("Works were drawn from {}.", facts.source))
                .structural(),
        ];
        if !facts.queries.is_empty() {
            search.push(
                SentenceBuilder::new()
                    .text(format!(
                        "{} {} formed from the question's own words, without a language model; the appendix gives each query and what it returned.",
                        number_capitalised(facts.queries.len()),
                        plural(facts.queries.len(), "query was", "queries were")
                    ))
                    .structural(),
            );
        }
        if let Some(continued) = &facts.continued {
            search.push(
                SentenceBuilder::new()
                    .text(format!(
                        "This review continues an earlier one on the question \u{201c}{}\u{201d}: it started from that review's {} works and screening labels, reused the results of {} of its queries and searched {} new {}, and snowballed only from works the earlier review had not expanded.",
                        continued.parent_question.trim_end_matches(['.', '?']),
                        continued.carried_works,
                        number(continued.reused_queries),
                        number(continued.new_queries),
                        plural(continued.new_queries, "query", "queries")
                    ))
                    .structural(),
            );
        }
        if facts.seeds > 0 {
            search.push(
                SentenceBuilder::new()
                    .text(format!(
                        "{} seed {} named by the user {} added directly and steered the relevance judgement.",
                        number_capitalised(facts.seeds),
                        plural(facts.seeds, "work", "works"),
                        plural(facts.seeds, "was", "were")
                    ))
                    .structural(),
            );
        }
        search.push(
            SentenceBuilder::new()
                .text(format!(
                    "The searches returned {} hits in all, {} distinct works once records sharing an identifier were merged.",
                    facts.raw_hits, facts.discovered
                ))
                .structural(),
        );
        Paragraph { sentences: search }
    }

    /// Whether any included work carries its reference list: without one, no citation links
    /// are known, and nothing may be said of who cites whom.
    fn corpus_has_references(&self) -> bool {
        self.input
            .included
            .values()
            .any(|work| !work.references.is_empty())
    }

    /// The method's second paragraph: how snowballing went and how relevance was judged.
    fn method_snowball(&self) -> Paragraph {
        let facts = self.input.facts;
        let plan = self.input.plan;
        let mut snowball = Vec::new();
        if !facts.stages.is_empty() && !self.corpus_has_references() {
            // A library export without reference lists: there was nothing to follow, and
            // "saturation" would claim more than was tried.
            snowball.push(
                SentenceBuilder::new()
                    .text("None of the included records carries a reference list, so citation snowballing had no references or citing works to follow and added no work.")
                    .structural(),
            );
        } else if !facts.stages.is_empty() {
            let added: usize = facts.stages.iter().map(|stage| stage.new_works).sum();
            let relevant: usize = facts.stages.iter().map(|stage| stage.new_relevant).sum();
            snowball.push(
                SentenceBuilder::new()
                    .text(format!(
                        "Citation snowballing then followed the references (backward) and the citing works (forward) of the relevant works, most promising first, for {} of at most {} stages, adding {added} works, {relevant} of them relevant.",
                        number(facts.stages.len()),
                        number(plan.limits.max_stages as usize)
                    ))
                    .structural(),
            );
        }
        if let Some(stop) = facts.stop.filter(|_| self.corpus_has_references()) {
            let why = match stop {
                StopReason::Saturated => "a stage found no new relevant work (saturation)",
                StopReason::BelowCoverageThreshold => {
                    "the share of new relevant works stayed under 10 % for two stages"
                }
                StopReason::StageLimit => "the tier's limit on stages was reached",
                StopReason::NothingToExpand => "no relevant work was left to expand",
            };
            snowball.push(
                SentenceBuilder::new()
                    .text(format!("Snowballing stopped because {why}."))
                    .structural(),
            );
        }
        snowball.push(
            SentenceBuilder::new()
                .text(format!(
                    "A work's relevance mixed three measures against the question, {} and the works closest to them: the TF-IDF cosine similarity of titles and abstracts, the similarity of citation links (cited together, citing the same works, citing each other), and how often a walk along citations from those works reaches it; a work scoring well below those works was left out, and a work linked by citation to at least three relevant works counted as relevant whatever its wording.",
                    if facts.seeds > 0 {
                        "the seed works"
                    } else {
                        "the top discovered works"
                    }
                ))
                .structural(),
        );
        if facts.snowball_model_verdicts > 0 {
            snowball.push(
                SentenceBuilder::new()
                    .text(format!(
                        "A language model judged the {} {} whose score left {} in doubt, from {} title and abstract.",
                        number(facts.snowball_model_verdicts),
                        plural(facts.snowball_model_verdicts, "work", "works"),
                        plural(facts.snowball_model_verdicts, "it", "them"),
                        plural(facts.snowball_model_verdicts, "its", "their"),
                    ))
                    .structural(),
            );
        }
        Paragraph {
            sentences: snowball,
        }
    }

    /// The method's third paragraph: how the works were screened, grouped and written up.
    fn method_screening(&self) -> Paragraph {
        let facts = self.input.facts;
        let plan = self.input.plan;
        let mut screening = Vec::new();
        let reasons: Vec<String> = facts
            .excluded
            .iter()
            .filter(|(_, count)| **count > 0)
            .map(|(reason, count)| format!("{count} {}", excluded_because(*reason)))
            .collect();
        screening.push(
            SentenceBuilder::new()
                .text(format!(
                    "All {} works considered were screened on title and abstract{}; {} were included, up to the {} tier's limit of {}.",
                    facts.considered,
                    if reasons.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", list(&reasons))
                    },
                    facts.included,
                    plan.tier,
                    plan.limits.max_works
                ))
                .structural(),
        );
        if facts.criteria_judged > 0 {
            screening.push(
                SentenceBuilder::new()
                    .text(format!(
                        "A language model applied the review's eligibility criteria to the {} included and borderline {}, answering include or exclude with a reason for each; where it answered, its answer stands over the ranking's, within the tier's limit.",
                        number(facts.criteria_judged),
                        plural(facts.criteria_judged, "work", "works"),
                    ))
                    .structural(),
            );
        }
        let rules = eligibility_rules(&plan.filters);
        if !rules.is_empty() {
            screening.push(
                SentenceBuilder::new()
                    .text(format!(
                        "Eligible works had to be {}; these rules were applied before any ranking.",
                        list(&rules)
                    ))
                    .structural(),
            );
        }
        screening.push(
            SentenceBuilder::new()
                .text(format!(
                    "The included works were grouped into {} {} by {} and labelled with each group's most distinctive words; {}.",
                    number(self.input.organisation.themes.len()),
                    plural(self.input.organisation.themes.len(), "theme", "themes"),
                    match &self.input.organisation.embedding_model {
                        // The model's name, without the weights' hash and the truncation.
                        Some(model) => format!(
                            "Ward clustering of their titles' and abstracts' sentence embeddings ({})",
                            model.split_once('@').map_or(model.as_str(), |(name, _)| name)
                        ),
                        None => "spherical k-means clustering of their titles' and abstracts' TF-IDF vectors".to_owned(),
                    },
                    if self.corpus_has_references() {
                        "key works were identified from the citations they receive within the corpus"
                    } else {
                        "as the records carry no reference lists, no work was singled out by the citations it receives"
                    }
                ))
                .structural(),
        );
        screening.push(
            SentenceBuilder::new()
                .text(match self.drafting {
                    Drafting::Extractive => "Every sentence of the thematic sections is either built from these counts and lists or taken from the abstract of the work it cites, so each claim can be traced to its source.",
                    Drafting::Llm => "The thematic sections were drafted by a language model from numbered sentences of the works' abstracts; each drafted sentence cites the sentences it draws on, was checked to use their words and to state only their numbers, and was rewritten more cautiously or dropped when it did not, so each claim can be traced to its source.",
                })
                .structural(),
        );
        Paragraph {
            sentences: screening,
        }
    }

    // ----- themes ---------------------------------------------------------------------------

    /// The centroid of the theme's sentences: what its quotes are ranked against.
    fn theme_centre(&self, theme: &Theme) -> SparseVector {
        SparseVector::centroid(
            theme
                .works
                .iter()
                .flat_map(|id| self.spans_vectors(id))
                .collect::<Vec<_>>()
                .iter(),
        )
    }

    fn theme_section(&mut self, theme: &Theme, budget: usize) -> Section {
        let centre = self.theme_centre(theme);
        let overview = self.theme_overview(theme);
        // Method sentences go to their own part, so they are picked before the findings.
        let methods = self.methods_used(theme, &centre);
        let findings = self.key_findings(theme, budget, &centre);
        let debates = self.debates(theme);
        let gaps = self.theme_gaps(theme);
        let mut subsections = vec![part("Key findings", findings)];
        for (heading, paragraphs) in [
            ("Methods used", methods),
            ("Debates", debates),
            ("Gaps", gaps),
        ] {
            if !paragraphs.is_empty() {
                subsections.push(part(heading, paragraphs));
            }
        }
        // A question split into domains shows them in its themes' headings.
        let heading = match (&theme.domain, self.input.plan.focuses().is_empty()) {
            (_, true) => theme.label.clone(),
            (Some(domain), false) => format!("{domain}: {}", theme.label),
            (None, false) => format!("Across domains: {}", theme.label),
        };
        Section {
            kind: SectionKind::Theme,
            heading,
            paragraphs: vec![overview],
            tables: Vec::new(),
            subsections,
        }
    }

    /// The theme's findings in its works' own words: each work's best finding first, then the
    /// next best across the theme until the word budget is spent.
    fn key_findings(
        &mut self,
        theme: &Theme,
        budget: usize,
        centre: &SparseVector,
    ) -> Vec<Paragraph> {
        // Findings are what the works found and concluded: never their background or aims.
        let findings_roles = [Role::Result, Role::Conclusion];
        let mut chosen: BTreeMap<WorkId, Vec<Span>> = BTreeMap::new();
        let mut words = 0usize;
        for id in &theme.works {
            let picked = self.best_spans(id, &findings_roles, 1, Some(centre));
            for span in picked {
                words += span.words;
                chosen.entry(id.clone()).or_default().push(span);
            }
        }
        let mut round = 1;
        while words < budget && round < MAX_SPANS_PER_WORK {
            let mut added = false;
            for id in &theme.works {
                if words >= budget {
                    break;
                }
                let picked = self.best_spans(id, &findings_roles, 1, Some(centre));
                for span in picked {
                    words += span.words;
                    added = true;
                    chosen.entry(id.clone()).or_default().push(span);
                }
            }
            round += 1;
            if !added {
                break;
            }
        }
        // A work's quotes read in its own order, and the first must stand alone: "Second, …"
        // or "This severely limits …" opening a work's quotes answers a sentence the review
        // does not show.
        for spans in chosen.values_mut() {
            spans.sort_by_key(|span| span.locator.sentence);
            let leaning = spans
                .iter()
                .take_while(|span| leans_on_context(&span.text))
                .count();
            spans.drain(..leaning);
        }
        chosen.retain(|_, spans| !spans.is_empty());

        // Paragraphs of up to three works of one part of the theme (its sub-themes, then the
        // works in none), each opened by a sentence built from structure naming what they share.
        let mut parts: Vec<(Vec<&WorkId>, Vec<String>)> = theme
            .sub_themes
            .iter()
            .map(|part| (part.works.iter().collect(), part.top_words.clone()))
            .collect();
        let in_parts: BTreeSet<&WorkId> = parts
            .iter()
            .flat_map(|(works, _)| works.iter().copied())
            .collect();
        parts.push((
            theme
                .works
                .iter()
                .filter(|id| !in_parts.contains(id))
                .collect(),
            Vec::new(),
        ));
        let mut topics_said: BTreeSet<String> = BTreeSet::new();
        let mut paragraphs = Vec::new();
        for (works, part_words) in &parts {
            let with_findings: Vec<&WorkId> = works
                .iter()
                .copied()
                .filter(|id| chosen.contains_key(*id))
                .collect();
            for group in even_groups(&with_findings, 3) {
                let ids: Vec<WorkId> = group.iter().map(|id| (*id).clone()).collect();
                let topic = self.group_topic(theme, part_words, &ids, &mut topics_said);
                let mut sentences = vec![self.group_opener(&topic, &ids)];
                for id in &ids {
                    for span in chosen.remove(id).unwrap_or_default() {
                        sentences.push(self.attribute(&span, None));
                    }
                }
                paragraphs.push(Paragraph { sentences });
            }
        }
        paragraphs
    }

    /// How the theme's works were done, from their method sentences (three works at most).
    fn methods_used(&mut self, theme: &Theme, centre: &SparseVector) -> Vec<Paragraph> {
        let mut spans = Vec::new();
        for id in &theme.works {
            if spans.len() >= 3 {
                break;
            }
            spans.extend(self.best_sure_spans(id, &[Role::Method], 1, Some(centre)));
        }
        if spans.is_empty() {
            return Vec::new();
        }
        let n = theme.works.len();
        let opener = match (
            self.named_designs(&theme.works),
            self.least_used_frame("methods", 3),
        ) {
            (Some(designs), 0) => format!(
                "By the designs their abstracts name, the {} works of this theme are {designs}.",
                number(n)
            ),
            (Some(designs), 1) => format!(
                "{} make up this theme's {} works, by the designs their abstracts name.",
                capitalise(&designs),
                number(n)
            ),
            (Some(designs), _) => {
                format!("Counted by the designs their abstracts name, this theme holds {designs}.")
            }
            (None, _) => format!(
                "No abstract among this theme's {} works names a study design; {} of them {} {} methods so.",
                number(n),
                number(spans.len()),
                if spans.len() == 1 {
                    "describes"
                } else {
                    "describe"
                },
                if spans.len() == 1 { "its" } else { "their" }
            ),
        };
        vec![self.quoted_paragraph(&opener, &spans)]
    }

    /// Who the works studied, when most of them (two at least, of two or more) name the same
    /// population in their titles or method sentences ("children", "postmenopausal women",
    /// "rats"); `None` when they do not.
    fn shared_population(&self, ids: &[WorkId]) -> Option<&'static str> {
        let mut named: BTreeMap<&'static str, usize> = BTreeMap::new();
        for id in ids {
            let work = &self.input.included[id];
            let mut text = work.title.clone().unwrap_or_default();
            for span in self.spans.get(id).into_iter().flatten() {
                if span.role == Role::Method {
                    text.push_str(". ");
                    text.push_str(&span.text);
                }
            }
            for population in studies::populations_named(&text) {
                *named.entry(population).or_default() += 1;
            }
        }
        let needed = if ids.len() < 2 {
            1
        } else {
            ids.len().div_ceil(2).max(2)
        };
        // The most named; of those tied, the most specific (the first in the list).
        named
            .into_iter()
            .filter(|(_, count)| *count >= needed)
            .max_by_key(|(population, count)| {
                (*count, std::cmp::Reverse(studies::specificity(population)))
            })
            .map(|(population, _)| population)
    }

    /// A work as a debate's opener names it: its design, if its abstract names one, and its
    /// year ("a randomised trial of 2017", "a work of 2020").
    fn design_and_year(&self, id: &WorkId) -> String {
        let design = with_article(self.design_named(id).map_or("work", |(one, _)| one));
        match self.input.included[id].year {
            Some(year) => format!("{design} of {year}"),
            None => design,
        }
    }

    /// Findings that point in opposite directions, set side by side: an effect one work reports
    /// and an absence of effect another reports, about the same thing (the clause denying the
    /// effect shares terms of its own with the finding: [`answer_the_same_question`]; of such
    /// pairs, the one whose words are closest, and close enough: [`DEBATE_SIMILARITY`]). No
    /// pair, no section: two unrelated sentences joined by "By contrast" would invent a
    /// disagreement.
    fn debates(&mut self, theme: &Theme) -> Vec<Paragraph> {
        let findings: Vec<Span> = theme
            .works
            .iter()
            .flat_map(|id| self.candidate_spans(id, &[Role::Result, Role::Conclusion]))
            .filter(|span| !is_about_harms(&span.text) && !describes_the_sample(&span.text))
            // Set side by side, each must stand alone: "Moreover, …" answers a sentence the
            // review does not show.
            .filter(|span| !leans_on_context(&span.text))
            .collect();
        let (negatives, positives): (Vec<&Span>, Vec<&Span>) =
            findings.iter().partition(|span| is_negative(&span.text));
        // The other side of a denial reports an effect and denies nothing itself.
        let positives: Vec<&Span> = positives
            .into_iter()
            .filter(|span| reports_effect(&span.text) && !denies_anything(&span.text))
            .collect();
        // A term more than a quarter of the findings use (and more than two) is the theme's
        // own subject, which any two of its findings share.
        let mut uses: BTreeMap<String, usize> = BTreeMap::new();
        for span in &findings {
            for term in terms(&span.text).into_iter().collect::<BTreeSet<_>>() {
                *uses.entry(term).or_default() += 1;
            }
        }
        let common_above = (findings.len() / 4).max(2);
        let is_common = |term: &str| uses.get(term).is_some_and(|n| *n > common_above);
        let vector =
            |span: &Span| &self.vectors[&(span.locator.work.clone(), span.locator.sentence)];
        let closest = negatives
            .iter()
            .flat_map(|negative| {
                positives
                    .iter()
                    .filter(|positive| {
                        positive.locator.work != negative.locator.work
                            && answer_the_same_question(&positive.text, &negative.text, is_common)
                    })
                    .map(move |positive| (*positive, *negative))
            })
            .map(|(positive, negative)| {
                (
                    vector(positive).cosine(vector(negative)),
                    positive,
                    negative,
                )
            })
            .filter(|(similarity, _, _)| *similarity >= DEBATE_SIMILARITY)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let Some((_, positive, negative)) = closest else {
            return Vec::new();
        };
        self.mark_used(positive);
        self.mark_used(negative);
        // What the two works are, so that the reader weighs a trial against a case report.
        let (one, other) = (
            self.design_and_year(&positive.locator.work),
            self.design_and_year(&negative.locator.work),
        );
        let opener = match self.least_used_frame("debates", 3) {
            0 => format!(
                "Two works of this theme, {one} and {other}, report findings that point different ways."
            ),
            1 => format!(
                "{} and {other} in this theme do not agree.",
                capitalise(&one)
            ),
            _ => format!("Set side by side, {one} and {other} pull in different directions."),
        };
        vec![Paragraph {
            sentences: vec![
                SentenceBuilder::new().text(opener).structural(),
                self.attribute(positive, None),
                self.attribute(negative, Some("By contrast, ")),
            ],
        }]
    }

    /// What the theme leaves open, in its works' words.
    fn theme_gaps(&mut self, theme: &Theme) -> Vec<Paragraph> {
        let roles = [Role::Limitation, Role::FutureWork];
        // Counted before any is quoted: how many of the theme's works name a limit at all.
        let naming = theme
            .works
            .iter()
            .filter(|id| {
                self.spans
                    .get(*id)
                    .is_some_and(|spans| spans.iter().any(|span| roles.contains(&span.role)))
            })
            .count();
        let open = self.standalone_spans(&theme.works, &roles, 2);
        if open.is_empty() {
            return Vec::new();
        }
        let n = theme.works.len();
        let opener = match self.least_used_frame("gaps", 3) {
            0 => format!(
                "{} of this theme's {} works {} a limitation of {} own or a question left open.",
                capitalise(&number(naming)),
                number(n),
                if naming == 1 { "names" } else { "name" },
                if naming == 1 { "its" } else { "their" }
            ),
            1 => format!(
                "Limitations and open questions are named by {} of the theme's {} works.",
                number(naming),
                number(n)
            ),
            _ => format!(
                "Of the theme's {} works, {} {} what {} could not settle or what should be studied next.",
                number(n),
                number(naming),
                if naming == 1 { "says" } else { "say" },
                if naming == 1 { "it" } else { "they" }
            ),
        };
        vec![self.quoted_paragraph(&opener, &open)]
    }

    /// A sentence built from structure, then the spans in the works' words, attributed.
    fn quoted_paragraph(&self, opener: &str, spans: &[Span]) -> Paragraph {
        let mut sentences = vec![SentenceBuilder::new().text(opener).structural()];
        sentences.extend(spans.iter().map(|span| self.attribute_alone(span)));
        Paragraph { sentences }
    }

    fn theme_overview(&mut self, theme: &Theme) -> Paragraph {
        let n = theme.works.len();
        let words = list(&theme.top_words.iter().take(3).cloned().collect::<Vec<_>>());
        // Records without a year (a table export) give no date to say: none is said.
        let years = match theme.years {
            Some((first, last)) if first == last => Some(format!("all from {first}")),
            Some((first, last)) => Some(format!("published between {first} and {last}")),
            None => None,
        };
        let aside = years
            .as_ref()
            .map_or_else(String::new, |years| format!(", {years},"));
        let opening = match self.next_frame(3) {
            0 => format!(
                "{} of the included works{aside} form this theme; their most distinctive words are {words}.",
                number_capitalised(n)
            ),
            1 => format!(
                "This theme gathers {} works{aside} marked by the words {words}.",
                number(n)
            ),
            _ => format!(
                "The {} works grouped here {}share a vocabulary of {words}.",
                number(n),
                years.map_or_else(String::new, |years| format!("are {years} and "))
            ),
        };
        let mut sentences = vec![SentenceBuilder::new().text(opening).structural()];
        if let Some(key) = theme.key_works.first() {
            let citations = self.input.corpus_citations.get(key).copied().unwrap_or(0);
            if citations > 0 {
                let sentence = match self.next_frame(2) {
                    0 => SentenceBuilder::new()
                        .text("The most cited of them within the corpus is ")
                        .narrative(key)
                        .text(format!(
                            ", with {} {} from other works of the corpus.",
                            number(citations),
                            plural(citations, "citation", "citations")
                        )),
                    _ => SentenceBuilder::new().narrative(key).text(format!(
                        " anchors the theme: {} other {} in the corpus {} it.",
                        number(citations),
                        plural(citations, "work", "works"),
                        plural(citations, "cites", "cite")
                    )),
                };
                sentences.push(sentence.structural());
            }
        }
        let venues = self.venues_of(&theme.works);
        if let Some((venue, count)) = venues.first().filter(|(_, count)| *count >= 2) {
            sentences.push(
                SentenceBuilder::new()
                    .text(format!(
                        "{} of them appeared in {venue}.",
                        number_capitalised(*count)
                    ))
                    .structural(),
            );
        }
        Paragraph { sentences }
    }

    /// What a group of a theme's works share, to open their paragraph with: the first of its
    /// part's distinctive words, then the theme's, that most of the group use (all of a pair)
    /// and no earlier paragraph of the theme was opened with; failing that, the first they
    /// share, or the theme's label. Paragraphs opened alike by the theme's first word read as
    /// one list; the part's words say what sets the group apart. A key term of the question
    /// alone ("Evidence on emicizumab…" in a review of emicizumab) says little of a group every
    /// work of which is on it: it comes last.
    fn group_topic(
        &self,
        theme: &Theme,
        part_words: &[String],
        ids: &[WorkId],
        said: &mut BTreeSet<String>,
    ) -> String {
        if let Some(phrase) = self.group_phrase(theme, ids, said) {
            self.say(&phrase.text, phrase.head, said);
            return phrase.text;
        }
        let texts: Vec<String> = ids
            .iter()
            .map(|id| self.input.included[id].title_and_abstract().to_lowercase())
            .collect();
        let shared = |word: &str| {
            let word = word.to_lowercase();
            texts.iter().filter(|text| text.contains(&word)).count() >= 2.min(ids.len())
        };
        let key_term = |word: &str| {
            self.input
                .plan
                .key_terms
                .iter()
                .any(|term| term.eq_ignore_ascii_case(word))
        };
        // A word names the group best when its phrase ends where the theme's texts let a phrase
        // end ("factor" or "low" alone does not); a word that does not comes before a word said.
        let theme_texts: Vec<String> = theme
            .works
            .iter()
            .filter_map(|id| Some(self.input.included.get(id)?.title_and_abstract()))
            .collect();
        let theme_texts: Vec<&str> = theme_texts.iter().map(String::as_str).collect();
        let ends = litrev_text::phrase_ends(&theme_texts);
        // Each candidate's phrase, read from the group's texts once.
        let phrases: std::cell::RefCell<BTreeMap<String, String>> = Default::default();
        let phrase = |word: &str| {
            phrases
                .borrow_mut()
                .entry(word.to_owned())
                .or_insert_with(|| phrase_of(word, &texts))
                .clone()
        };
        let names = |word: &str| ends(&phrase(word));
        // An adjective the texts write before varied nouns ("mental" of mental health, mental
        // disorders …) names nothing alone.
        let alone_an_adjective = |word: &str| {
            !phrase(word).contains(' ')
                && litrev_text::reads_as_adjective(&word.to_lowercase(), &theme_texts)
        };
        // "placebo" or "treatment" alone names no subject; "quality of life" does.
        let alone_no_subject =
            |word: &str| !phrase(word).contains(' ') && names_no_subject_alone(word);
        let unfit = |word: &str| alone_an_adjective(word) || alone_no_subject(word);
        let candidates: Vec<&String> = part_words
            .iter()
            .chain(&theme.top_words)
            .filter(|word| could_be_a_topic(word) && !is_generic(&word.to_lowercase()))
            .filter(|word| shared(word) && !unfit(word))
            .collect();
        let group_word = self.group_word(theme, ids, &texts, said);
        let fresh = |must_name: bool| {
            let fresh_where = |wanted: &dyn Fn(&str) -> bool| {
                candidates
                    .iter()
                    .find(|word| {
                        wanted(word)
                            && !said.contains(&word.to_lowercase())
                            && (!must_name || names(word))
                    })
                    .map(|word| (*word).clone())
            };
            fresh_where(&|word| !key_term(word))
                .or_else(|| {
                    group_word
                        .clone()
                        .filter(|word| (!must_name || names(word)) && !unfit(word))
                })
                .or_else(|| fresh_where(&|_| true))
        };
        let chosen = fresh(true)
            .or_else(|| fresh(false))
            .or_else(|| candidates.first().map(|word| (*word).clone()));
        let Some(word) = chosen else {
            return in_sentence(&theme.label);
        };
        self.say(&word, word.to_lowercase(), said);
        phrase(&word)
    }

    /// The phrase of the group's titles that sets it apart within its theme (as themes are
    /// titled, one level down: `litrev_text::best_phrase`), ending on a word no earlier
    /// paragraph opened on.
    fn group_phrase(
        &self,
        theme: &Theme,
        ids: &[WorkId],
        said: &BTreeSet<String>,
    ) -> Option<litrev_text::Phrase> {
        let work = |id: &WorkId| self.input.included.get(id);
        let titles: Vec<&str> = ids
            .iter()
            .filter_map(|id| work(id)?.title.as_deref())
            .collect();
        let texts: Vec<String> = ids
            .iter()
            .filter_map(|id| Some(work(id)?.title_and_abstract()))
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let others: Vec<String> = theme
            .works
            .iter()
            .filter(|id| !ids.contains(id))
            .filter_map(|id| Some(work(id)?.title_and_abstract()))
            .collect();
        let others: Vec<&str> = others.iter().map(String::as_str).collect();
        let groups = theme.works.len().div_ceil(ids.len().max(1)).max(2);
        let group = litrev_text::PhraseGroup {
            titles: &titles,
            texts: &texts,
        };
        litrev_text::best_phrase(group, &others, groups, &|head| said.contains(head))
    }

    /// A word of the group's titles that most of the group use (all of a pair) and no earlier
    /// paragraph opened on, the one fewest of the theme's other works use (the first in the
    /// titles among equals): what sets the group apart once the theme's distinctive words are
    /// all said. Words every field's abstracts share ("analysis", "levels") name nothing and
    /// are passed over.
    fn group_word(
        &self,
        theme: &Theme,
        ids: &[WorkId],
        texts: &[String],
        said: &BTreeSet<String>,
    ) -> Option<String> {
        let words_of =
            |text: &str| -> BTreeSet<String> { content_words(text).into_iter().collect() };
        let group: Vec<BTreeSet<String>> = texts.iter().map(|text| words_of(text)).collect();
        let others: Vec<BTreeSet<String>> = theme
            .works
            .iter()
            .filter(|id| !ids.contains(id))
            .filter_map(|id| self.input.included.get(id))
            .map(|work| words_of(&work.title_and_abstract()))
            .collect();
        let needed = 2.min(ids.len());
        ids.iter()
            .filter_map(|id| self.input.included.get(id)?.title.as_deref())
            .flat_map(content_words)
            .filter(|word| {
                word.chars().count() >= 4
                    && word.chars().all(char::is_alphabetic)
                    && could_be_a_topic(word)
                    && !is_generic(word)
                    && !said.contains(word)
                    && group.iter().filter(|words| words.contains(word)).count() >= needed
            })
            .min_by_key(|word| others.iter().filter(|words| words.contains(word)).count())
    }

    fn group_opener(&mut self, shared: &str, ids: &[WorkId]) -> Sentence {
        let years: Vec<i32> = ids
            .iter()
            .filter_map(|id| self.input.included[id].year)
            .collect();
        let span = match (years.iter().min(), years.iter().max()) {
            (Some(first), Some(last)) if first != last => format!(" between {first} and {last}"),
            (Some(first), Some(_)) => format!(" in {first}"),
            _ => String::new(),
        };
        let one = ids.len() == 1;
        // Not "Evidence on rats comes from two works in rats".
        let population = self
            .shared_population(ids)
            .filter(|_| studies::populations_named(shared).is_empty())
            .map_or_else(String::new, |population| format!(" in {population}"));
        let builder = match self.least_used_frame("group", GROUP_FRAMES) {
            0 => SentenceBuilder::new()
                .text(format!(
                    "Evidence on {shared} comes from {}{population}{}: ",
                    self.designs_of(ids),
                    if span.is_empty() {
                        String::new()
                    } else {
                        format!(", published{span}")
                    }
                ))
                .narrative_list(ids)
                .text("."),
            1 => SentenceBuilder::new().narrative_list(ids).text(format!(
                " {} {shared}{}.",
                if one { "addresses" } else { "address" },
                if span.is_empty() {
                    String::new()
                } else {
                    format!(", writing{span}")
                }
            )),
            2 => SentenceBuilder::new()
                .text(format!(
                    "{}{} {} up {shared}: ",
                    capitalise(&format!(
                        "{} {}",
                        number(ids.len()),
                        plural(ids.len(), "work", "works")
                    )),
                    // "Two works take up …", not "Two works published take up …".
                    if span.is_empty() {
                        String::new()
                    } else {
                        format!(" published{span}")
                    },
                    if one { "takes" } else { "take" }
                ))
                .narrative_list(ids)
                .text("."),
            3 => SentenceBuilder::new().narrative_list(ids).text(format!(
                " also {} on {shared}.",
                if one { "bears" } else { "bear" }
            )),
            4 => SentenceBuilder::new()
                .text(format!(
                    "{}{population} {} on {shared}{}: ",
                    capitalise(&self.designs_of(ids)),
                    if one { "reports" } else { "report" },
                    if span.is_empty() {
                        String::new()
                    } else {
                        format!(",{span}")
                    }
                ))
                .narrative_list(ids)
                .text("."),
            _ => SentenceBuilder::new()
                .text(format!(
                    "Turning to {shared}, the relevant {} ",
                    if one { "work is" } else { "works are" }
                ))
                .narrative_list(ids)
                .text("."),
        };
        builder.structural()
    }

    // ----- gaps and conclusion --------------------------------------------------------------

    fn gaps(&mut self) -> Section {
        let themes = &self.input.organisation.themes;
        let mut paragraphs = Vec::new();
        let mut coverage = Vec::new();
        if let Some(thinnest) = themes
            .iter()
            .min_by(|a, b| a.works.len().cmp(&b.works.len()).then(b.id.cmp(&a.id)))
            && themes.len() > 1
        {
            coverage.push(
                SentenceBuilder::new()
                    .text(format!(
                        "The thinnest evidence base is that of the theme on {}, with {} {}",
                        in_sentence(&thinnest.label),
                        number(thinnest.works.len()),
                        plural(thinnest.works.len(), "work", "works")
                    ))
                    .text(": ")
                    .narrative_list(&thinnest.works.iter().take(4).cloned().collect::<Vec<_>>())
                    .text(match thinnest.works.len().saturating_sub(4) {
                        0 => ".".to_owned(),
                        more => format!(", with {} more.", number(more)),
                    })
                    .structural(),
            );
        }
        let (_, last) = self.year_span();
        if let Some(last) = last {
            let recent = self
                .input
                .included
                .values()
                .filter(|work| work.year.is_some_and(|year| last - year < 5))
                .count();
            coverage.push(
                SentenceBuilder::new()
                    .text(format!(
                        "{} of the {} included works appeared in the five years up to {last}, the latest year the corpus reaches.",
                        number_capitalised(recent),
                        self.input.included.len()
                    ))
                    .structural(),
            );
        }
        let uncited: Vec<WorkId> = self
            .input
            .included
            .keys()
            .filter(|id| self.input.corpus_citations.get(*id).copied().unwrap_or(0) == 0)
            .cloned()
            .collect();
        // Without reference lists no work can be cited within the corpus: that says nothing of
        // whether its findings were taken up.
        if !uncited.is_empty() && self.corpus_has_references() {
            coverage.push(
                SentenceBuilder::new()
                    .text(format!(
                        "{} included {} not yet cited by any other work of the corpus, so {} findings have not been taken up within it.",
                        number_capitalised(uncited.len()),
                        plural(uncited.len(), "work is", "works are"),
                        plural(uncited.len(), "its", "their")
                    ))
                    .structural(),
            );
        }
        if !coverage.is_empty() {
            paragraphs.push(Paragraph {
                sentences: coverage,
            });
        }
        // Future directions: first those the studies read in full support, each resting on a
        // limitation they state; then, per theme, a limitation or future-work sentence of an
        // abstract.
        paragraphs.extend(self.card_directions());
        for theme in themes {
            let spans =
                self.standalone_spans(&theme.works, &[Role::FutureWork, Role::Limitation], 2);
            if spans.is_empty() {
                continue;
            }
            let opener = match self.next_frame(3) {
                0 => format!(
                    "For {}, the works point to what remains to be done.",
                    in_sentence(&theme.label)
                ),
                1 => format!(
                    "Open questions also remain on {}.",
                    in_sentence(&theme.label)
                ),
                _ => format!(
                    "On {}, the authors themselves name the next steps.",
                    in_sentence(&theme.label)
                ),
            };
            paragraphs.push(self.quoted_paragraph(&opener, &spans));
        }
        section(SectionKind::Gaps, "Gaps and future directions", paragraphs)
    }

    fn conclusion(&mut self) -> Section {
        let themes = &self.input.organisation.themes;
        let mut sentences = vec![
            SentenceBuilder::new()
                .text(format!(
                    "This review gathered {} {} on its question and organised them into {} {}.",
                    self.input.included.len(),
                    plural(self.input.included.len(), "work", "works"),
                    number(themes.len()),
                    plural(themes.len(), "theme", "themes")
                ))
                .structural(),
        ];
        for theme in themes {
            // A work is the theme's reference point only when the corpus cites it.
            if let Some(key) = theme
                .key_works
                .first()
                .filter(|key| self.input.corpus_citations.get(*key).copied().unwrap_or(0) > 0)
            {
                let frame = self.next_frame(3);
                let label = in_sentence(&theme.label);
                let n = theme.works.len();
                let builder = match frame {
                    0 => SentenceBuilder::new()
                        .text(format!("On {label}, {} works led by ", number(n)))
                        .narrative(key)
                        .text(" make up the evidence."),
                    1 => SentenceBuilder::new()
                        .text(format!(
                            "The theme on {label} rests on {} works, with ",
                            number(n)
                        ))
                        .narrative(key)
                        .text(" at its centre."),
                    _ => SentenceBuilder::new().narrative(key).text(format!(
                        " is the reference point for {label}, among {} works.",
                        number(n)
                    )),
                };
                sentences.push(builder.structural());
            }
            if let Some(span) = self
                .standalone_spans(&theme.works, &[Role::Conclusion], 1)
                .pop()
            {
                sentences.push(self.attribute_alone(&span));
            }
        }
        if let (Some(largest), Some(smallest)) = (themes.first(), themes.last())
            && themes.len() > 1
        {
            sentences.push(
                SentenceBuilder::new()
                    .text(format!(
                        "Taken together, the evidence is densest on {} and thinnest on {}, which is where further primary studies would add most.",
                        in_sentence(&largest.label),
                        in_sentence(&smallest.label)
                    ))
                    .structural(),
            );
        }
        section(
            SectionKind::Conclusion,
            "Conclusion",
            vec![Paragraph { sentences }],
        )
    }

    // ----- discussion and appendix --------------------------------------------------------

    /// What the themes show together: their sizes, their ages, and the citations between them;
    /// none when there is one theme and no work cited across themes (a heading over nothing
    /// says nothing).
    fn discussion(&mut self) -> Option<Section> {
        let themes = &self.input.organisation.themes;
        let mut sentences = Vec::new();
        if let (Some(largest), Some(smallest)) = (themes.first(), themes.last())
            && themes.len() > 1
        {
            sentences.push(
                SentenceBuilder::new()
                    .text(format!(
                        "Of the {} themes, the one on {} gathers the most works ({}) and the one on {} the fewest ({}).",
                        number(themes.len()),
                        in_sentence(&largest.label),
                        largest.works.len(),
                        in_sentence(&smallest.label),
                        smallest.works.len()
                    ))
                    .structural(),
            );
        }
        let medians: Vec<(i32, &Theme)> = themes
            .iter()
            .filter_map(|theme| {
                let mut years: Vec<i32> = theme
                    .works
                    .iter()
                    .filter_map(|id| self.input.included.get(id)?.year)
                    .collect();
                years.sort_unstable();
                years.get(years.len() / 2).map(|median| (*median, theme))
            })
            .collect();
        let newest = medians
            .iter()
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.id.cmp(&a.1.id)));
        let oldest = medians
            .iter()
            .min_by(|a, b| a.0.cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
        if let (Some((new_year, new_theme)), Some((old_year, old_theme))) = (newest, oldest)
            && new_theme.id != old_theme.id
        {
            sentences.push(
                SentenceBuilder::new()
                    .text(format!(
                        "The most recent theme is the one on {} (half of its works appeared in {new_year} or later); the oldest is the one on {} (median year {old_year}).",
                        in_sentence(&new_theme.label),
                        in_sentence(&old_theme.label)
                    ))
                    .structural(),
            );
        }
        // Citations between themes show which lines of work build on which.
        let theme_of: BTreeMap<&WorkId, &Theme> = themes
            .iter()
            .flat_map(|theme| theme.works.iter().map(move |id| (id, theme)))
            .collect();
        let mut flows: BTreeMap<(u32, u32), usize> = BTreeMap::new();
        let mut within = 0usize;
        for edge in self.input.citations {
            if let (Some(from), Some(to)) = (theme_of.get(&edge.citing), theme_of.get(&edge.cited))
            {
                if from.id == to.id {
                    within += 1;
                } else {
                    *flows.entry((from.id, to.id)).or_default() += 1;
                }
            }
        }
        let across: usize = flows.values().sum();
        if within + across > 0 {
            let strongest = flows
                .iter()
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
                .and_then(|(&(from, to), &count)| {
                    let label = |id: u32| {
                        themes
                            .iter()
                            .find(|theme| theme.id == id)
                            .map(|theme| in_sentence(&theme.label))
                    };
                    Some(format!(
                        "; the strongest link runs from the works on {} to those on {} ({count} {})",
                        label(from)?,
                        label(to)?,
                        plural(count, "citation", "citations")
                    ))
                })
                .unwrap_or_default();
            sentences.push(
                SentenceBuilder::new()
                    .text(format!(
                        "Among the included works, {within} {} stay within a theme and {across} cross from one theme to another{strongest}.",
                        plural(within, "citation", "citations")
                    ))
                    .structural(),
            );
        }
        let reach: Option<(usize, &WorkId)> = self
            .input
            .organisation
            .key_works
            .iter()
            .map(|key| {
                let citing_themes: BTreeSet<u32> = self
                    .input
                    .citations
                    .iter()
                    .filter(|edge| edge.cited == key.work)
                    .filter_map(|edge| theme_of.get(&edge.citing).map(|theme| theme.id))
                    .collect();
                (citing_themes.len(), &key.work)
            })
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(a.1)));
        if let Some((count, work)) = reach
            && count > 1
        {
            sentences.push(
                SentenceBuilder::new()
                    .narrative(work)
                    .text(format!(
                        " is cited from {} of the themes, more than any other work: it is common ground for the field.",
                        number(count)
                    ))
                    .structural(),
            );
        }
        if sentences.is_empty() {
            return None;
        }
        Some(section(
            SectionKind::Discussion,
            "Discussion",
            vec![Paragraph { sentences }],
        ))
    }

    /// The search documentation: every query, stage and screening count, for reproduction.
    fn appendix(&mut self) -> Section {
        let facts = self.input.facts;
        let plan = self.input.plan;
        let mut searches = vec![
            SentenceBuilder::new()
                .text(format!(
                    "Source: {}; tier: {} (at most {} snowball stages and {} included works).",
                    facts.source, plan.tier, plan.limits.max_stages, plan.limits.max_works
                ))
                .structural(),
        ];
        for (index, query) in facts.queries.iter().enumerate() {
            searches.push(
                SentenceBuilder::new()
                    .text(format!(
                        "Query {} ({}): “{}”, {} {}.",
                        index + 1,
                        query.purpose,
                        query.text,
                        query.hits,
                        plural(query.hits, "hit", "hits")
                    ))
                    .structural(),
            );
        }
        let mut stages: Vec<Sentence> = facts
            .stages
            .iter()
            .map(|stage| {
                SentenceBuilder::new()
                    .text(format!(
                        "Snowball stage {}: {} works expanded, {} new works, {} relevant, {} relevant in all.",
                        stage.stage,
                        stage.expanded,
                        stage.new_works,
                        stage.new_relevant,
                        stage.relevant_total
                    ))
                    .structural()
            })
            .collect();
        let mut counts: Vec<String> = facts
            .excluded
            .iter()
            .map(|(reason, count)| format!("{} {count}", reason.code().replace('_', " ")))
            .collect();
        counts.push(format!("included {}", facts.included));
        stages.push(
            SentenceBuilder::new()
                .text(format!(
                    "Screening decisions, by reason: {}; {} works considered in all.",
                    label_list(&counts),
                    facts.considered
                ))
                .structural(),
        );
        let experts = expert_sentences(&facts.experts);
        let mut pages = page_sentences(&facts.pages, self.input.included);
        pages.extend(library_sentences(&facts.libraries));
        let paragraphs = [searches, experts, pages, stages]
            .into_iter()
            .filter(|sentences| !sentences.is_empty())
            .map(|sentences| Paragraph { sentences })
            .collect();
        section(
            SectionKind::Appendix,
            "Appendix: search documentation",
            paragraphs,
        )
    }

    // ----- spans ----------------------------------------------------------------------------

    /// Up to `count` unused spans of a work with one of `roles`, best first, skipping
    /// sentences too close to anything already said. Picked spans are marked used.
    fn best_spans(
        &mut self,
        id: &WorkId,
        roles: &[Role],
        count: usize,
        centre: Option<&SparseVector>,
    ) -> Vec<Span> {
        let ranked = self.ranked_spans(id, roles, centre);
        self.pick(ranked, count)
    }

    /// As [`Writer::best_spans`], of the spans whose own words give them their role
    /// ([`Span::sure`]): a part that stands on one role (how the works were done) quotes no
    /// sentence that holds the role only by its place in its abstract.
    fn best_sure_spans(
        &mut self,
        id: &WorkId,
        roles: &[Role],
        count: usize,
        centre: Option<&SparseVector>,
    ) -> Vec<Span> {
        let mut ranked = self.ranked_spans(id, roles, centre);
        ranked.retain(|span| span.sure);
        self.pick(ranked, count)
    }

    /// The first `count` of `ranked`, marked used.
    fn pick(&mut self, mut ranked: Vec<Span>, count: usize) -> Vec<Span> {
        ranked.truncate(count);
        for span in &ranked {
            self.mark_used(span);
        }
        ranked
    }

    /// Up to `count` spans with one of `roles`, each from a different one of `works`, for
    /// sentences quoted on their own (a key work's, a gap, a conclusion): each work's best
    /// sentence that stands alone, the works in their order; a sentence leaning on its
    /// neighbour ("This suggests…") only from a work with no other, when no work has one that
    /// stands alone. Picked spans are marked used.
    fn standalone_spans(&mut self, works: &[WorkId], roles: &[Role], count: usize) -> Vec<Span> {
        self.standalone_spans_where(works, roles, count, |_| true)
    }

    /// As [`Writer::standalone_spans`], of the spans `keep` accepts.
    fn standalone_spans_where(
        &mut self,
        works: &[WorkId],
        roles: &[Role],
        count: usize,
        keep: impl Fn(&Span) -> bool,
    ) -> Vec<Span> {
        let mut picked: Vec<Span> = Vec::new();
        while picked.len() < count {
            let mut leaning = None;
            let mut alone = None;
            for id in works {
                if picked.iter().any(|span| span.locator.work == *id) {
                    continue;
                }
                let mut ranked = self.ranked_spans(id, roles, None);
                ranked.retain(&keep);
                if let Some(span) = ranked.iter().find(|span| !leans_on_context(&span.text)) {
                    alone = Some(span.clone());
                    break;
                }
                leaning = leaning.or(ranked.into_iter().next());
            }
            let Some(span) = alone.or(leaning) else {
                break;
            };
            self.mark_used(&span);
            picked.push(span);
        }
        picked
    }

    /// A work's unused spans with one of `roles`, best first: by role, closeness to `centre`,
    /// a number stated, standing alone rather than leaning on the sentence before, and, when
    /// findings are asked for, stating one rather than describing the sample.
    fn ranked_spans(
        &self,
        id: &WorkId,
        roles: &[Role],
        centre: Option<&SparseVector>,
    ) -> Vec<Span> {
        let mut candidates: Vec<(f32, Span)> = self
            .candidate_spans(id, roles)
            .into_iter()
            .map(|span| {
                let vector = &self.vectors[&(id.clone(), span.locator.sentence)];
                let centrality = centre.map_or(0.0, |centre| vector.cosine(centre));
                let has_number = span.text.chars().any(|c| c.is_ascii_digit());
                let number_bonus = if has_number { 0.1 } else { 0.0 };
                let context_penalty = if leans_on_context(&span.text) {
                    0.3
                } else {
                    0.0
                };
                // Asked for findings, a sentence that only describes the sample comes last.
                let sample_penalty = if span.role == Role::Result
                    && roles.contains(&Role::Conclusion)
                    && describes_the_sample(&span.text)
                {
                    0.5
                } else {
                    0.0
                };
                // A full-text sentence says what an abstract leaves out: how it was done, what
                // went wrong, what is next, results with their numbers.
                let full_text_bonus = if span.locator.full_text.is_some()
                    && (has_number
                        || matches!(
                            span.role,
                            Role::Method | Role::Limitation | Role::FutureWork
                        )) {
                    0.15
                } else {
                    0.0
                };
                // A sentence that holds its role only by its place in the abstract is less
                // often what the role says (`Span::sure`).
                let unsure_penalty = if span.sure { 0.0 } else { 0.3 };
                let score = role_weight(span.role) + 0.6 * centrality + number_bonus
                    - context_penalty
                    - unsure_penalty
                    - sample_penalty
                    + full_text_bonus;
                (score, span)
            })
            .collect();
        candidates.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then(a.1.locator.sentence.cmp(&b.1.locator.sentence))
        });
        candidates.into_iter().map(|(_, span)| span).collect()
    }

    /// A work's spans with one of `roles` that may still be said: unused, of a readable length,
    /// not boilerplate, and not too close to anything already said. In text order.
    fn candidate_spans(&self, id: &WorkId, roles: &[Role]) -> Vec<Span> {
        let Some(spans) = self.spans.get(id) else {
            return Vec::new();
        };
        spans
            .iter()
            .filter(|span| roles.contains(&span.role))
            .filter(|span| (MIN_SPAN_WORDS..=MAX_SPAN_WORDS).contains(&span.words))
            .filter(|span| !is_boilerplate(&span.text) && !is_damaged(&span.text))
            .filter(|span| !self.used.contains(&(id.clone(), span.locator.sentence)))
            .filter(|span| {
                let vector = &self.vectors[&(id.clone(), span.locator.sentence)];
                !self
                    .used_vectors
                    .iter()
                    .any(|used| used.cosine(vector) > REDUNDANCY)
            })
            .cloned()
            .collect()
    }

    /// Records that a span has been said.
    fn mark_used(&mut self, span: &Span) {
        let key = (span.locator.work.clone(), span.locator.sentence);
        self.used_vectors.push(self.vectors[&key].clone());
        self.used.insert(key);
    }

    fn spans_vectors(&self, id: &WorkId) -> Vec<SparseVector> {
        self.spans.get(id).map_or_else(Vec::new, |spans| {
            spans
                .iter()
                .map(|span| self.vectors[&(id.clone(), span.locator.sentence)].clone())
                .collect()
        })
    }

    /// A span quoted on its own, away from any other sentence of its work: one that leans on
    /// the sentence before it ("Therefore, this meta-analysis demonstrates …") is reported by
    /// its work in quotation marks, so the review never seems to draw its conclusion.
    fn attribute_alone(&self, span: &Span) -> Sentence {
        let body = quoted_body(&span.text);
        if leans_on_context(body) {
            reported(span, body, Vec::new())
        } else {
            self.attribute(span, None)
        }
    }

    /// A span as a sentence of the review, attributed to its work.
    fn attribute(&self, span: &Span, lead: Option<&str>) -> Sentence {
        let work = &span.locator.work;
        let text = span.text.trim();
        let mut segments: Vec<Segment> = Vec::new();
        if let Some(lead) = lead {
            segments.push(Segment::Text(lead.to_owned()));
        }
        let subject_rewrites: &[(&str, Option<&str>)] = &[
            ("In this study, we ", None),
            ("In this paper, we ", None),
            ("In this study we ", None),
            ("Here, we ", None),
            ("Here we ", None),
            ("We ", None),
            ("This study ", Some("The study by ")),
            ("This paper ", Some("The paper by ")),
            ("Our results ", Some("The results of ")),
            ("Our study ", Some("The study by ")),
            ("Our findings ", Some("The findings of ")),
            ("Our data ", Some("The data of ")),
        ];
        for &(prefix, replacement) in subject_rewrites {
            // A sentence that goes on speaking as its authors is reported in quotation marks
            // instead (below).
            if let Some(rest) = text.strip_prefix(prefix)
                && !speaks_for_its_paper(rest)
                && (replacement.is_none() || opens_on_a_verb(rest))
            {
                if let Some(replacement) = replacement {
                    let replacement = match lead {
                        Some(_) => lower_first_word(replacement),
                        None => replacement.to_owned(),
                    };
                    segments.push(Segment::Text(replacement));
                }
                let rest = format!(" {rest}");
                segments.extend(SentenceBuilder::new().narrative(work).text(rest).segments());
                return Sentence {
                    segments,
                    basis: Basis::Span(span.locator.clone()),
                };
            }
        }
        // An objective left without its label ("To review recent progress in …") is no
        // sentence: the work becomes its subject, "Smith (2014) set out to review …". The
        // quoted words stay one segment of their own, verbatim.
        if let Some(purpose) = purpose_clause(text) {
            segments.extend(SentenceBuilder::new().narrative(work).segments());
            segments.push(Segment::Text(" set out ".to_owned()));
            segments.push(Segment::Text(purpose));
            return Sentence {
                segments,
                basis: Basis::Span(span.locator.clone()),
            };
        }
        let body = quoted_body(text);
        // A sentence that speaks as its authors ("…, we evaluated …") or points at what only
        // its paper shows (this study, these results, a figure) would seem to speak for the
        // review: its work reports it, verbatim inside quotation marks.
        if speaks_for_its_paper(body) {
            return reported(span, body, segments);
        }
        let body = match lead {
            Some(_) => lower_first_word(body),
            None => body.to_owned(),
        };
        segments.extend(
            SentenceBuilder::new()
                .text(body)
                .parenthetical(std::slice::from_ref(work))
                .text(".")
                .segments(),
        );
        Sentence {
            segments,
            basis: Basis::Span(span.locator.clone()),
        }
    }

    // ----- bibliometrics --------------------------------------------------------------------

    fn year_span(&self) -> (Option<i32>, Option<i32>) {
        let years = self.input.included.values().filter_map(|work| work.year);
        (years.clone().min(), years.max())
    }

    fn top_venues(&self, count: usize) -> Vec<(String, usize)> {
        let ids: Vec<WorkId> = self.input.included.keys().cloned().collect();
        let mut venues = self.venues_of(&ids);
        venues.retain(|(_, n)| *n >= 2);
        venues.truncate(count);
        venues
    }

    fn venues_of(&self, ids: &[WorkId]) -> Vec<(String, usize)> {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for id in ids {
            if let Some(venue) = self
                .input
                .included
                .get(id)
                .and_then(|work| work.venue.as_deref())
            {
                *counts.entry(venue).or_default() += 1;
            }
        }
        let mut venues: Vec<(String, usize)> = counts
            .into_iter()
            .map(|(venue, n)| (venue.to_owned(), n))
            .collect();
        venues.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        venues
    }
}

/// The appendix's sentences on the web pages the person named: how many were read and
/// included as grey literature, and each that was left out with why.
/// What the person's libraries gave: their records joined the corpus and were screened with
/// the search hits.
fn library_sentences(libraries: &[crate::LibraryFact]) -> Vec<Sentence> {
    libraries
        .iter()
        .map(|library| {
            let left_out = library.records - library.works.min(library.records);
            let text = format!(
                "Other sources: the user's library {} gave {} {}, screened with the search hits{}.",
                library.name,
                number(library.works),
                plural(library.works, "record", "records"),
                if left_out == 0 {
                    String::new()
                } else {
                    format!(
                        "; {} {} without a DOI or a web address {} left out",
                        number(left_out),
                        plural(left_out, "record", "records"),
                        plural(left_out, "was", "were")
                    )
                }
            );
            SentenceBuilder::new().text(text).structural()
        })
        .collect()
}

fn page_sentences(
    pages: &[crate::PageFact],
    included: &BTreeMap<WorkId, litrev_model::Work>,
) -> Vec<Sentence> {
    if pages.is_empty() {
        return Vec::new();
    }
    let read = pages.iter().filter(|page| page.failure.is_none()).count();
    // The pages still included (a person may have excluded one) are cited here, so each is
    // in the references as grey literature whether or not a theme quotes it.
    let cited: Vec<WorkId> = pages
        .iter()
        .filter_map(|page| page.work.clone())
        .filter(|id| included.contains_key(id))
        .collect();
    let mut sentences = vec![
        SentenceBuilder::new()
            .text(format!(
                "Other sources: {} web {} named by the user, of which {} {} fetched, read and included as grey literature, outside the searches and the relevance ranking",
                number(pages.len()),
                plural(pages.len(), "page", "pages"),
                number(read),
                plural(read, "was", "were")
            ))
            .text(if cited.is_empty() { "" } else { " " })
            .parenthetical(&cited)
            .text(".")
            .structural(),
    ];
    for page in pages {
        if let Some(why) = &page.failure {
            sentences.push(
                SentenceBuilder::new()
                    .text(format!("Left out: {} ({why}).", page.address))
                    .structural(),
            );
        }
    }
    sentences
}

/// The appendix's sentences on the expert channel: how the experts were chosen, then each
/// expert with why, and how many of their works joined the pool.
fn expert_sentences(experts: &[Expert]) -> Vec<Sentence> {
    if experts.is_empty() {
        return Vec::new();
    }
    let mut sentences = vec![
        SentenceBuilder::new()
            .text(format!(
                "Experts: the source was asked for the most cited authors of the topics the best keyword hits share, ranked by their works on the topic, their h-index and their recent works; the most cited works on those topics of the {} {} below joined the candidate pool.",
                experts.len(),
                plural(experts.len(), "expert", "experts"),
            ))
            .structural(),
    ];
    for (rank, expert) in experts.iter().enumerate() {
        let orcid = expert
            .orcid
            .as_deref()
            .map(|orcid| {
                format!(
                    " (ORCID {})",
                    orcid.trim_start_matches("https://orcid.org/")
                )
            })
            .unwrap_or_default();
        sentences.push(
            SentenceBuilder::new()
                .text(format!(
                    "Expert {}: {}{orcid}, {}; {} of their works joined the pool.",
                    rank + 1,
                    expert.name,
                    expert.reason(),
                    expert.works.len()
                ))
                .structural(),
        );
    }
    sentences
}

/// A section without subsections.
fn section(kind: SectionKind, heading: &str, paragraphs: Vec<Paragraph>) -> Section {
    Section {
        kind,
        heading: heading.to_owned(),
        paragraphs,
        tables: Vec::new(),
        subsections: Vec::new(),
    }
}

/// A subsection of a theme.
pub(crate) fn part(heading: &str, paragraphs: Vec<Paragraph>) -> Section {
    section(SectionKind::ThemePart, heading, paragraphs)
}

/// Splits items into consecutive groups of at most `size`, as even as possible, so no group is
/// left with a single item when it can be avoided (7 → 3, 2, 2).
pub(crate) fn even_groups<T>(items: &[T], size: usize) -> Vec<&[T]> {
    if items.is_empty() {
        return Vec::new();
    }
    let count = items.len().div_ceil(size.max(1));
    let base = items.len() / count;
    let larger = items.len() % count;
    let mut groups = Vec::with_capacity(count);
    let mut start = 0;
    for index in 0..count {
        let length = base + usize::from(index < larger);
        groups.push(&items[start..start + length]);
        start += length;
    }
    groups
}

fn role_weight(role: Role) -> f32 {
    match role {
        Role::Result => 1.0,
        Role::Conclusion => 0.9,
        Role::Limitation | Role::FutureWork => 0.8,
        Role::Method => 0.5,
        Role::Objective => 0.4,
        Role::Background => 0.2,
        Role::Other => 0.0,
    }
}

/// Lower-cases the first letter of a sentence so a lead-in can precede it, unless the first
/// word is an acronym or mixes cases inside (`HRT`, `COVID-19`, `McDonald`, `mRNA`).
fn lower_first_word(text: &str) -> String {
    let first = text.split_whitespace().next().unwrap_or("");
    let mut letters = first.chars().filter(|c| c.is_alphabetic());
    let starts_upper = letters.next().is_some_and(char::is_uppercase);
    let rest_lower = letters.all(char::is_lowercase);
    if starts_upper && rest_lower {
        let mut characters = text.chars();
        characters
            .next()
            .map(|c| c.to_lowercase().chain(characters).collect())
            .unwrap_or_default()
    } else {
        text.to_owned()
    }
}

/// A theme label inside a sentence: its first word lower-cased unless an acronym
/// (`Dose, HRT and women` → `dose, HRT and women`; `HRT and bone` stays) or the first of a
/// capitalised name (`Graphics Processing Unit (GPU) clusters`, `Monte Carlo methods`).
fn in_sentence(label: &str) -> String {
    let second = label.split_whitespace().nth(1).unwrap_or("");
    let mut letters = second.chars().filter(|c| c.is_alphabetic());
    let capitalised =
        letters.next().is_some_and(char::is_uppercase) && letters.all(char::is_lowercase);
    if capitalised {
        label.to_owned()
    } else {
        lower_first_word(label)
    }
}

/// Whether the research question is put as a question ("Does X help?", "How do…") rather than
/// named as a topic ("The rodent object-in-context task"), which the review's opening words
/// follow.
fn is_a_question(question: &str) -> bool {
    const OPENERS: &[&str] = &[
        "what", "how", "does", "do", "did", "is", "are", "was", "were", "can", "could", "which",
        "why", "when", "where", "who", "should", "will", "would", "has", "have", "to what",
    ];
    let lower = question.trim().to_lowercase();
    lower.ends_with('?')
        || OPENERS.iter().any(|opener| {
            lower
                .strip_prefix(opener)
                .is_some_and(|rest| rest.starts_with(' '))
        })
}

/// The review's title: the question, framed as a review when it is not one already. A question
/// keeps its question mark and the frame follows as a sentence ("Does X help? A literature
/// review"), as journals title such reviews.
fn title_of(question: &str) -> String {
    let question = question.trim().trim_end_matches('.');
    let lower = question.to_lowercase();
    if lower.contains("review") {
        question.to_owned()
    } else if question.ends_with(['?', '!']) {
        format!("{question} A literature review")
    } else {
        format!("{question}: a literature review")
    }
}

/// What the works excluded for `reason` did, as the method section says it ("…were known only
/// by their identifier").
fn excluded_because(reason: litrev_model::ReasonCode) -> &'static str {
    use litrev_model::ReasonCode;
    match reason {
        ReasonCode::NoMetadata => "were known only by their identifier",
        ReasonCode::MissingAbstract => "had no abstract to draw evidence from",
        ReasonCode::Retracted => "were flagged as retracted",
        ReasonCode::OutsideYears => "were published outside the years covered",
        ReasonCode::WrongLanguage => "were written in other languages",
        ReasonCode::WrongType => "were kinds of work the review does not cover",
        ReasonCode::ExcludedTerm => "mentioned an excluded term",
        ReasonCode::OutOfScope => "fell below the relevance threshold",
        ReasonCode::OverTierLimit => "were relevant but ranked beyond the tier's limit",
        ReasonCode::WrongPopulation => "studied a population the eligibility criteria exclude",
        ReasonCode::WrongIntervention => "studied an intervention or exposure the criteria exclude",
        ReasonCode::WrongOutcome => "reported outcomes the criteria do not cover",
        ReasonCode::WrongDesign => "used a study design the criteria exclude",
        ReasonCode::NotPrimaryResearch => "were not primary research",
        ReasonCode::PersonDecision => "were excluded by a person",
        _ => "were excluded for other reasons",
    }
}

/// The plan's eligibility rules as the method section states them ("published between … and
/// …", "written in …").
fn eligibility_rules(filters: &litrev_model::Filters) -> Vec<String> {
    let mut rules = Vec::new();
    match (filters.year_from, filters.year_to) {
        (Some(from), Some(to)) => rules.push(format!("published between {from} and {to}")),
        (Some(from), None) => rules.push(format!("published in {from} or later")),
        (None, Some(to)) => rules.push(format!("published in {to} or earlier")),
        (None, None) => {}
    }
    if !filters.languages.is_empty() {
        // `en` reads as English; a code the table does not know stays as the person wrote it.
        let names: Vec<String> = filters
            .languages
            .iter()
            .map(|code| {
                litrev_model::language_name(code).map_or_else(|| code.clone(), str::to_owned)
            })
            .collect();
        rules.push(format!("written in {}", list(&names)));
    }
    if !filters.kinds.is_empty() {
        let kinds: Vec<String> = filters
            .kinds
            .iter()
            .map(|kind| kind.name().replace('-', " "))
            .collect();
        rules.push(format!(
            "of the {} {}",
            plural(kinds.len(), "kind", "kinds"),
            list(&kinds)
        ));
    }
    if !filters.exclude_terms.is_empty() {
        let terms: Vec<String> = filters
            .exclude_terms
            .iter()
            .map(|term| format!("“{term}”"))
            .collect();
        rules.push(format!("not mentioning {}", list(&terms)));
    }
    rules
}

/// A span's words as they go inside quotation marks: without surrounding white space or the
/// stop that ends them (the review's sentence puts its own).
fn quoted_body(text: &str) -> &str {
    text.trim().trim_end_matches(['.', '!', '?', ';', ':', ','])
}

/// A span reported by its work in quotation marks, after `segments` (a lead, or nothing):
/// "Cheng et al. (2005) conclude that “therefore, this meta-analysis …”", the verb naming what
/// the span is, the quoted words verbatim but for their first letter.
fn reported(span: &Span, body: &str, mut segments: Vec<Segment>) -> Sentence {
    let verb = match span.role {
        Role::Conclusion => " conclude that “",
        Role::Limitation | Role::FutureWork => " note that “",
        _ => " report that “",
    };
    segments.extend(
        SentenceBuilder::new()
            .narrative(&span.locator.work)
            .segments(),
    );
    segments.push(Segment::Text(verb.to_owned()));
    segments.push(Segment::Text(lower_first_word(body)));
    segments.push(Segment::Text("”.".to_owned()));
    Sentence {
        segments,
        basis: Basis::Span(span.locator.clone()),
    }
}

#[cfg(test)]
mod tests {
    use litrev_model::{Organisation, Plan, Work};

    use super::*;
    use crate::MethodFacts;

    #[test]
    fn eligibility_rules_name_languages_and_count_kinds() {
        let filters = litrev_model::Filters {
            year_from: Some(2010),
            year_to: None,
            languages: vec!["en".into(), "ger".into(), "xx".into()],
            kinds: vec![litrev_model::WorkKind::Article],
            exclude_terms: vec!["mice".into()],
        };
        assert_eq!(
            eligibility_rules(&filters),
            [
                "published in 2010 or later",
                "written in English, German and xx",
                "of the kind article",
                "not mentioning “mice”",
            ]
        );
        assert_eq!(
            excluded_because(litrev_model::ReasonCode::WrongLanguage),
            "were written in other languages"
        );
    }

    #[test]
    fn groups_are_even() {
        let sizes = |n: usize| {
            let items: Vec<usize> = (0..n).collect();
            even_groups(&items, 3)
                .iter()
                .map(|group| group.len())
                .collect::<Vec<_>>()
        };
        assert_eq!(sizes(7), vec![3, 2, 2]);
        assert_eq!(sizes(4), vec![2, 2]);
        assert_eq!(sizes(6), vec![3, 3]);
        assert_eq!(sizes(1), vec![1]);
        assert!(sizes(0).is_empty());
    }

    /// What a writer reads, owned.
    struct Fixture {
        plan: Plan,
        facts: MethodFacts,
        included: BTreeMap<WorkId, Work>,
        organisation: Organisation,
        corpus_citations: BTreeMap<WorkId, usize>,
    }

    impl Fixture {
        /// The included work `id`, to change.
        fn work_mut(&mut self, id: &str) -> &mut Work {
            self.included
                .get_mut(&id.parse::<WorkId>().expect("id"))
                .expect("an included work")
        }

        fn input(&self) -> WriteInput<'_> {
            WriteInput {
                plan: &self.plan,
                facts: &self.facts,
                included: &self.included,
                organisation: &self.organisation,
                corpus_citations: &self.corpus_citations,
                citations: &[],
                cards: &crate::NO_CARDS,
            }
        }
    }

    /// A theme of four works: two findings on the same outcome pointing opposite ways, and two
    /// on other things.
    fn debate_fixture() -> Fixture {
        let work = |id: &str, text: &str| {
            let mut work = Work::stub(id.parse().expect("id"));
            work.title = Some(format!("Study {id}"));
            work.year = Some(2020);
            work.abstract_text = Some(text.to_owned());
            (work.id(), work)
        };
        let included: BTreeMap<WorkId, Work> = [
            work(
                "W1",
                "WOMAC pain scores improved significantly after stem cell injection compared with placebo in the knee.",
            ),
            work(
                "W2",
                "WOMAC pain scores did not differ after stem cell injection compared with hyaluronic acid in the knee.",
            ),
            work(
                "W3",
                "No significant difference in hospital costs was found between the two payment schemes of the region.",
            ),
            work(
                "W4",
                "Serum cholesterol levels increased markedly in the treated rats during the twelve week feeding period.",
            ),
        ]
        .into();
        let organisation: Organisation = serde_json::from_value(serde_json::json!({
            "themes": [{
                "id": 1, "label": "Knee", "description": "Works on the knee.",
                "top_words": ["knee"], "works": ["W3", "W4", "W1", "W2"],
                "key_works": ["W1"], "years": [2020, 2020],
            }],
            "key_works": [],
            "outliers": [],
        }))
        .expect("organisation");
        let plan: Plan = serde_json::from_value(serde_json::json!({
            "question": "Do stem cells help knee osteoarthritis?",
            "key_terms": ["stem", "knee"], "queries": [], "seeds": [], "tier": "quick",
            "limits": litrev_model::Tier::Quick.limits(), "hits_per_query": 100,
            "relevance_threshold": 0.2,
        }))
        .expect("plan");
        Fixture {
            plan,
            facts: MethodFacts::default(),
            included,
            organisation,
            corpus_citations: BTreeMap::new(),
        }
    }

    /// The debate fixture with W1's abstract replaced by `text`, and W1's id.
    fn fixture_with_abstract(text: &str) -> (Fixture, WorkId) {
        let mut fixture = debate_fixture();
        fixture.work_mut("W1").abstract_text = Some(text.to_owned());
        (fixture, "W1".parse().expect("id"))
    }

    #[test]
    fn a_debate_sets_against_each_other_findings_on_the_same_thing() {
        let fixture = debate_fixture();
        let input = fixture.input();
        let theme = &fixture.organisation.themes[0];
        let mut writer = Writer::new(&input, Drafting::Extractive);
        let paragraphs = writer.debates(theme);
        let cited: Vec<Vec<String>> = paragraphs
            .iter()
            .flat_map(|paragraph| &paragraph.sentences)
            .map(|sentence| sentence.cited().map(ToString::to_string).collect())
            .collect();
        assert_eq!(
            cited,
            [vec![], vec!["W1".to_owned()], vec!["W2".to_owned()]],
            "the improvement and the absence of one on WOMAC pain, not the costs or the rats"
        );

        // Without findings about the same thing, there is no debate.
        let mut unrelated = theme.clone();
        unrelated
            .works
            .retain(|id| ["W1", "W3"].contains(&id.to_string().as_str()));
        let mut writer = Writer::new(&input, Drafting::Extractive);
        assert!(writer.debates(&unrelated).is_empty());
    }

    #[test]
    fn methods_used_quotes_only_sentences_whose_words_name_a_method() {
        use litrev_testkit::abstracts::{BARANO_2010, PAGIOLA_2010};
        let mut fixture = debate_fixture();
        fixture.work_mut("W3").abstract_text = Some(PAGIOLA_2010.to_owned());
        fixture.work_mut("W4").abstract_text = Some(BARANO_2010.to_owned());
        let input = fixture.input();
        let theme = &fixture.organisation.themes[0];
        // A sentence read as a method by its place alone, between the background and the
        // findings of an unstructured abstract ("PES require a secure long-term source of
        // financing …", as a retraining of the model read it): the writer is under test, not
        // the model, so the reading is set.
        let unsure_text = "PES require a secure long-term source of financing";
        let unsure_method = |writer: &mut Writer<'_>| {
            let span = writer
                .spans
                .get_mut(&"W3".parse::<WorkId>().expect("id"))
                .expect("the work's spans")
                .iter_mut()
                .find(|span| span.text.starts_with(unsure_text))
                .expect("the sentence");
            span.role = Role::Method;
            span.sure = false;
        };
        let plain = |paragraphs: &[Paragraph]| -> Vec<String> {
            paragraphs
                .iter()
                .flat_map(|paragraph| paragraph.sentences.iter().map(Sentence::plain_text))
                .collect()
        };
        // A theme's *Methods used* and the review's methods part, each from a fresh writer.
        let mut writer = Writer::new(&input, Drafting::Extractive);
        unsure_method(&mut writer);
        let centre = writer.theme_centre(theme);
        let methods_used = plain(&writer.methods_used(theme, &centre));
        let mut writer = Writer::new(&input, Drafting::Extractive);
        unsure_method(&mut writer);
        let approaches = plain(
            &writer
                .approaches("the", &theme.works)
                .into_iter()
                .collect::<Vec<_>>(),
        );
        for quoted in [methods_used, approaches] {
            assert!(
                quoted
                    .iter()
                    .any(|sentence| sentence.contains("InVEST was used")),
                "{quoted:#?}"
            );
            assert!(
                !quoted.iter().any(|sentence| sentence.contains(unsure_text)),
                "{quoted:#?}"
            );
        }
    }

    #[test]
    fn a_span_that_holds_its_role_only_by_its_place_ranks_below_one_that_holds_it_by_its_words() {
        use litrev_testkit::abstracts::PAGIOLA_2010;
        let mut fixture = debate_fixture();
        fixture.work_mut("W3").abstract_text = Some(PAGIOLA_2010.to_owned());
        let input = fixture.input();
        let mut writer = Writer::new(&input, Drafting::Extractive);
        let id: WorkId = "W3".parse().expect("id");
        let first_result = |writer: &Writer<'_>| {
            writer.ranked_spans(&id, &[Role::Result], None)[0]
                .text
                .clone()
        };
        // The ranking is under test, not the role model: two sure results without numbers
        // or leaning openers, whatever the model read in them, and no other result.
        let compared = ["In most cases", "The results show"];
        for span in writer.spans.get_mut(&id).expect("the work's spans") {
            if compared
                .iter()
                .any(|opening| span.text.starts_with(opening))
            {
                span.role = Role::Result;
                span.sure = true;
            } else if span.role == Role::Result {
                span.role = Role::Background;
            }
        }
        // The earlier one goes first.
        assert!(first_result(&writer).starts_with("In most cases"));
        // Held only by its place, it goes after the later one.
        let spans = writer.spans.get_mut(&id).expect("the work's spans");
        let earlier = spans
            .iter_mut()
            .find(|span| span.text.starts_with("In most cases"))
            .expect("the sentence");
        earlier.sure = false;
        assert!(first_result(&writer).starts_with("The results show"));
    }

    #[test]
    fn composed_openers_say_what_the_works_are_and_how_many_name_limits() {
        let mut fixture = debate_fixture();
        fixture.work_mut("W2").year = Some(2018);
        // Three works name a limit; two are quoted, and the opener counts the three.
        for (id, limit) in [
            (
                "W2",
                "Larger trials are needed to confirm this in older knees.",
            ),
            (
                "W3",
                "Further studies are needed to confirm these costs in other regions.",
            ),
        ] {
            let work = fixture.work_mut(id);
            let text = work.abstract_text.take().unwrap_or_default();
            work.abstract_text = Some(format!("{text} {limit}"));
        }
        fixture.work_mut("W4").abstract_text = Some(
            "In this cohort study, 80 rats were fed a high fat diet for twelve weeks and sampled every two weeks. Serum cholesterol levels increased markedly in the treated rats during the twelve week feeding period. Larger studies are needed to confirm these findings in humans."
                .to_owned(),
        );
        let input = fixture.input();
        let theme = &fixture.organisation.themes[0];
        let mut writer = Writer::new(&input, Drafting::Extractive);
        let centre = writer.theme_centre(theme);
        let opener = |paragraphs: &[Paragraph]| -> String {
            paragraphs
                .first()
                .and_then(|paragraph| paragraph.sentences.first())
                .map(Sentence::plain_text)
                .unwrap_or_default()
        };
        assert_eq!(
            opener(&writer.methods_used(theme, &centre)),
            "By the designs their abstracts name, the four works of this theme are a cohort study and three other works."
        );
        assert_eq!(
            opener(&writer.debates(theme)),
            "Two works of this theme, a work of 2020 and a work of 2018, report findings that point different ways."
        );
        assert_eq!(
            opener(&writer.theme_gaps(theme)),
            "Three of this theme's four works name a limitation of their own or a question left open."
        );

        // Findings' openers name whom most of the group's works studied.
        fixture.work_mut("W1").title =
            Some("Stem cell injection for children with knee pain".into());
        fixture.work_mut("W2").title = Some("Knee pain in children after injection".into());
        let input = fixture.input();
        let mut writer = Writer::new(&input, Drafting::Extractive);
        let pair: Vec<WorkId> = ["W1", "W2"].map(|id| id.parse().expect("id")).into();
        let opened = writer.group_opener("knee pain", &pair).plain_text();
        assert!(
            opened.starts_with(
                "Evidence on knee pain comes from two works in children, published between 2018 and 2020:"
            ),
            "{opened}"
        );
        let opened = Writer::new(&input, Drafting::Extractive)
            .group_opener("children with knee pain", &pair)
            .plain_text();
        assert!(
            opened
                .starts_with("Evidence on children with knee pain comes from two works, published"),
            "a topic naming the population says it already: {opened}"
        );
        let mixed: Vec<WorkId> = ["W1", "W3"].map(|id| id.parse().expect("id")).into();
        let opened = Writer::new(&input, Drafting::Extractive)
            .group_opener("knee pain", &mixed)
            .plain_text();
        assert!(
            opened.starts_with("Evidence on knee pain comes from two works, published"),
            "one work of two on children is no shared population: {opened}"
        );
    }

    #[test]
    fn findings_that_only_look_opposed_make_no_debate() {
        // Two drugs, each against placebo, on one outcome: different questions, no debate
        // (Chou_2004's hydroquinine and cyclobenzaprine), however alike the sentences read.
        let mut fixture = debate_fixture();
        fixture.work_mut("W1").abstract_text = Some(
            "Nocturnal leg cramps decreased significantly with hydroquinine compared with placebo in the trial."
                .to_owned(),
        );
        fixture.work_mut("W2").abstract_text = Some(
            "Nocturnal leg cramps did not differ with cyclobenzaprine compared with placebo in the trial."
                .to_owned(),
        );
        let input = fixture.input();
        let mut writer = Writer::new(&input, Drafting::Extractive);
        assert!(
            writer.debates(&fixture.organisation.themes[0]).is_empty(),
            "one drug's effect is not contradicted by another drug's absence of one"
        );

        // Groups alike at the start deny no effect.
        let mut fixture = debate_fixture();
        fixture.work_mut("W2").abstract_text = Some(
            "The stem cell injection and placebo groups did not differ in age or in WOMAC pain scores at baseline in the knee."
                .to_owned(),
        );
        let input = fixture.input();
        let mut writer = Writer::new(&input, Drafting::Extractive);
        assert!(writer.debates(&fixture.organisation.themes[0]).is_empty());

        // A finding that itself denies in part is no clear other side.
        let (fixture, _) = fixture_with_abstract(
            "WOMAC pain scores improved significantly after stem cell injection compared with placebo in the knee, but not at rest.",
        );
        let input = fixture.input();
        let mut writer = Writer::new(&input, Drafting::Extractive);
        assert!(writer.debates(&fixture.organisation.themes[0]).is_empty());
    }

    #[test]
    fn a_topic_said_as_an_acronym_is_said_in_full_too() {
        let (fixture, _) = fixture_with_abstract(
            "Emicizumab mimics activated factor VIII (FVIII) in the knee. FVIII levels fell.",
        );
        let input = fixture.input();
        let writer = Writer::new(&input, Drafting::Extractive);
        let mut said = BTreeSet::new();
        writer.say("factor VIII", "viii".to_owned(), &mut said);
        assert!(said.contains("fviii"), "{said:?}");
        let mut said = BTreeSet::new();
        writer.say("FVIII", "fviii".to_owned(), &mut said);
        assert!(said.contains("viii"), "{said:?}");
        let mut said = BTreeSet::new();
        writer.say("knee pain", "pain".to_owned(), &mut said);
        assert_eq!(said, BTreeSet::from(["pain".to_owned()]));
        let mut said = BTreeSet::new();
        writer.say("factor VIIIa", "viiia".to_owned(), &mut said);
        assert!(
            !said.contains("fviii"),
            "a long form is read as whole words"
        );

        // A paragraph opened on the acronym marks its long form said.
        let mut fixture = debate_fixture();
        for id in ["W1", "W2"] {
            fixture.work_mut(id).abstract_text = Some(
                "Emicizumab mimics activated factor VIII (FVIII) in the knee. FVIII levels fell."
                    .to_owned(),
            );
        }
        let input = fixture.input();
        let writer = Writer::new(&input, Drafting::Extractive);
        let mut theme = fixture.organisation.themes[0].clone();
        theme.top_words = vec!["FVIII".to_owned()];
        let pair: Vec<WorkId> = ["W1", "W2"].map(|id| id.parse().expect("id")).into();
        let mut said = BTreeSet::new();
        let topic = writer.group_topic(&theme, &[], &pair, &mut said);
        assert!(topic.contains("FVIII"), "{topic}");
        assert!(said.contains("viii"), "{said:?}");
    }

    #[test]
    fn asked_for_findings_a_description_of_the_sample_comes_last() {
        let (fixture, id) = fixture_with_abstract(
            "METHODS: We ran an open-label trial of stem cell injection in the knee. RESULTS: \
             In all, 152 patients were enrolled at 12 centres. WOMAC pain fell by 40% (p < \
             0.001) after 12 months. CONCLUSIONS: Stem cell injection relieves knee pain.",
        );
        let input = fixture.input();
        let writer = Writer::new(&input, Drafting::Extractive);
        let ranked: Vec<String> = writer
            .ranked_spans(&id, &[Role::Result, Role::Conclusion], None)
            .into_iter()
            .map(|span| span.text)
            .collect();
        assert_eq!(
            ranked.last().map(String::as_str),
            Some("In all, 152 patients were enrolled at 12 centres."),
            "{ranked:?}"
        );
    }

    #[test]
    fn the_synthesis_plan_orders_the_parts_and_leaves_out_those_removed() {
        let mut fixture = debate_fixture();
        for (id, cited) in [("W1", 40), ("W2", 12)] {
            let work = fixture.work_mut(id);
            work.cited_by_count = Some(cited);
            work.abstract_text = Some(format!(
                "Osteoarthritis of the knee is a leading cause of pain and disability in older adults. This trial aimed to assess whether stem cell injection reduces knee pain. {} In conclusion, stem cell injection is a safe option for knee osteoarthritis.",
                work.abstract_text.clone().unwrap_or_default()
            ));
        }
        let kinds = |fixture: &Fixture| -> Vec<SectionKind> {
            write(&fixture.input())
                .sections
                .iter()
                .map(|section| section.kind)
                .collect()
        };
        let default = kinds(&fixture);
        let at = |kind| {
            default
                .iter()
                .position(|k| *k == kind)
                .unwrap_or_else(|| panic!("no {kind:?} in {default:?}"))
        };
        assert!(
            at(SectionKind::Foundations) < at(SectionKind::Theme),
            "{default:?}"
        );
        assert!(
            at(SectionKind::Theme) < at(SectionKind::Gaps),
            "{default:?}"
        );
        let foundations = write(&fixture.input())
            .sections
            .into_iter()
            .find(|section| section.kind == SectionKind::Foundations)
            .expect("a foundations section");
        assert_eq!(foundations.heading, "Theoretical foundations");
        let cited: Vec<String> = foundations.paragraphs[0].sentences[0]
            .cited()
            .map(ToString::to_string)
            .collect();
        assert_eq!(cited, ["W1", "W2"], "the most cited first");

        // The person kept the gaps before the findings, renamed, and dropped the rest.
        fixture.plan.synthesis = Some(vec![
            SynthesisSection {
                part: SynthesisPart::Gaps,
                heading: "What is not known".to_owned(),
                domains: Vec::new(),
                draws_on: String::new(),
            },
            SynthesisSection {
                part: SynthesisPart::Findings,
                heading: "Findings".to_owned(),
                domains: Vec::new(),
                draws_on: String::new(),
            },
        ]);
        let review = write(&fixture.input());
        let kinds: Vec<SectionKind> = review.sections.iter().map(|section| section.kind).collect();
        assert!(!kinds.contains(&SectionKind::Foundations), "{kinds:?}");
        assert!(!kinds.contains(&SectionKind::Approaches), "{kinds:?}");
        let position = |kind| kinds.iter().position(|k| *k == kind).expect("a section");
        assert!(position(SectionKind::Gaps) < position(SectionKind::Theme));
        assert!(
            review
                .sections
                .iter()
                .any(|section| section.heading == "What is not known")
        );
    }

    /// The whole review the fixture gives, its sentences' words.
    fn plain_review(fixture: &Fixture) -> String {
        let review = write(&fixture.input());
        review
            .sentences()
            .map(Sentence::plain_text)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A library export without reference lists: nothing may be said of citations it does not
    /// hold (no snowballing "saturation", no reference point, no work "not yet cited"), nor of
    /// dates it does not hold; with one reference, the citation sentences come back.
    #[test]
    fn a_corpus_without_reference_lists_claims_nothing_of_citations() {
        let mut fixture = debate_fixture();
        fixture.facts.stages = vec![litrev_model::StageReport {
            stage: 1,
            expanded: 4,
            new_works: 0,
            new_relevant: 0,
            relevant_total: 4,
        }];
        fixture.facts.stop = Some(StopReason::Saturated);
        fixture.organisation.themes[0].years = None;
        let text = plain_review(&fixture);
        assert!(text.contains("carries a reference list"), "{text}");
        for claim in [
            "saturation",
            "through citation snowballing",
            "key works were identified from the citations",
            "not yet cited",
            "reference point",
            " led by ",
            "at its centre",
            "of unknown date",
        ] {
            assert!(!text.contains(claim), "{claim}: {text}");
        }
        let w1: WorkId = "W1".parse().expect("id");
        fixture.work_mut("W2").references = vec![w1.clone()];
        fixture.corpus_citations.insert(w1, 1);
        let text = plain_review(&fixture);
        for claim in [
            "saturation",
            "through citation snowballing",
            "key works were identified from the citations",
        ] {
            assert!(text.contains(claim), "{claim}: {text}");
        }
        assert!(!text.contains("carries a reference list"), "{text}");
    }

    #[test]
    fn a_first_person_subject_becomes_the_cited_work() {
        let (fixture, id) = fixture_with_abstract(
            "Our study shows that pain scores fell after stem cell injection.",
        );
        let input = fixture.input();
        let writer = Writer::new(&input, Drafting::Extractive);
        let sentence = writer.attribute(&writer.spans[&id][0], None);
        assert_eq!(
            sentence.segments,
            [
                Segment::Text("The study by ".into()),
                Segment::Cite {
                    works: vec![id],
                    form: litrev_model::CiteForm::Narrative,
                },
                Segment::Text(" shows that pain scores fell after stem cell injection.".into()),
            ]
        );
    }

    #[test]
    fn paragraphs_of_a_theme_open_on_what_their_works_share_each_on_a_new_topic() {
        let fixture = debate_fixture();
        let input = fixture.input();
        let mut theme = fixture.organisation.themes[0].clone();
        theme.top_words = ["WOMAC", "injection", "stem"].map(str::to_owned).into();
        let writer = Writer::new(&input, Drafting::Extractive);
        let pair: Vec<WorkId> = ["W1", "W2"].map(|id| id.parse().expect("id")).into();
        let mut said = BTreeSet::new();
        let topics: Vec<String> = (0..4)
            .map(|_| writer.group_topic(&theme, &[], &pair, &mut said))
            .collect();
        assert_eq!(
            topics,
            ["WOMAC pain", "injection", "stem cell", "WOMAC pain"],
            "each shared word once, then the first again"
        );
        let part: Vec<String> = vec!["injection".into()];
        assert_eq!(
            writer.group_topic(&theme, &part, &pair, &mut BTreeSet::new()),
            "injection",
            "the part's own words first"
        );
        // A measure names what was counted, not a topic ("Turning to scores, …").
        theme.top_words = ["scores", "WOMAC"].map(str::to_owned).into();
        assert_eq!(
            writer.group_topic(&theme, &[], &pair, &mut BTreeSet::new()),
            "WOMAC pain"
        );
        // "knee" is a key term of the fixture's question: every work is on it.
        theme.top_words = ["knee", "WOMAC"].map(str::to_owned).into();
        assert_eq!(
            writer.group_topic(&theme, &[], &pair, &mut BTreeSet::new()),
            "WOMAC pain",
            "the question's own terms come last"
        );
        // A comparator both works name says nothing of them ("Turning to placebo, …").
        let mut fixture = debate_fixture();
        fixture.work_mut("W2").abstract_text = Some(
            "WOMAC pain scores did not differ after stem cell injection compared with placebo in the knee."
                .to_owned(),
        );
        let input = fixture.input();
        let writer = Writer::new(&input, Drafting::Extractive);
        theme.top_words = ["placebo", "WOMAC"].map(str::to_owned).into();
        assert_eq!(
            writer.group_topic(&theme, &[], &pair, &mut BTreeSet::new()),
            "WOMAC pain"
        );
    }

    #[test]
    fn a_sentence_speaking_as_its_authors_is_reported_verbatim_in_quotation_marks() {
        let (fixture, id) = fixture_with_abstract(
            "In this multicentre, open-label study, we evaluated stem cell injection in the knee.",
        );
        let input = fixture.input();
        let writer = Writer::new(&input, Drafting::Extractive);
        let sentence = writer.attribute(&writer.spans[&id][0], None);
        assert_eq!(
            sentence.segments,
            [
                Segment::Cite {
                    works: vec![id],
                    form: litrev_model::CiteForm::Narrative,
                },
                Segment::Text(" report that “".into()),
                Segment::Text(
                    "in this multicentre, open-label study, we evaluated stem cell injection in the knee"
                        .into()
                ),
                Segment::Text("”.".into()),
            ]
        );
    }

    #[test]
    fn a_bare_purpose_becomes_what_the_work_set_out_to_do() {
        let (fixture, id) =
            fixture_with_abstract("To review recent progress in the field of stem cell injection.");
        let input = fixture.input();
        let writer = Writer::new(&input, Drafting::Extractive);
        let sentence = writer.attribute(&writer.spans[&id][0], None);
        assert_eq!(
            sentence.segments[1..],
            [
                Segment::Text(" set out ".into()),
                Segment::Text(
                    "to review recent progress in the field of stem cell injection.".into()
                ),
            ]
        );
    }

    #[test]
    fn a_sentence_that_stands_alone_is_quoted_before_one_leaning_on_its_neighbour() {
        let (fixture, id) = fixture_with_abstract(
            "However, stem cell injection lowered WOMAC stiffness scores in the knee by 25% (P = 0.02). \
             Stem cell injection lowered WOMAC pain scores in the knee by 33% (P < 0.01).",
        );
        let input = fixture.input();
        let mut writer = Writer::new(&input, Drafting::Extractive);
        let roles = [
            Role::Result,
            Role::Conclusion,
            Role::Objective,
            Role::Background,
        ];
        let picked = writer.best_spans(&id, &roles, 1, None);
        assert_eq!(picked.len(), 1);
        assert!(
            picked[0].text.starts_with("Stem cell"),
            "{}",
            picked[0].text
        );
    }

    #[test]
    fn a_works_key_findings_never_open_on_a_sentence_leaning_on_the_one_before() {
        // W1's best finding ("This lowered …", its numbers closest to the theme) answers a
        // sentence the review would not show; it may only follow a quote of its own work.
        let (fixture, _) = fixture_with_abstract(
            "Stem cell injection was given to 40 patients with knee pain. This lowered WOMAC \
             pain scores in the knee by 33% (P < 0.01) compared with placebo.",
        );
        let input = fixture.input();
        let theme = &fixture.organisation.themes[0];
        let w1: WorkId = "W1".parse().expect("id");
        let mut writer = Writer::new(&input, Drafting::Extractive);
        let centre = writer.theme_centre(theme);
        let best = writer.best_spans(&w1, &[Role::Result, Role::Conclusion], 1, Some(&centre));
        assert!(
            best.first()
                .is_some_and(|span| span.text.starts_with("This lowered")),
            "{best:?}"
        );
        let mut writer = Writer::new(&input, Drafting::Extractive);
        let sentences: Vec<Sentence> = writer
            .key_findings(theme, 400, &centre)
            .into_iter()
            .flat_map(|paragraph| paragraph.sentences)
            .collect();
        let of_w1: Vec<String> = sentences
            .iter()
            .filter(|sentence| matches!(&sentence.basis, Basis::Span(at) if at.work == w1))
            .map(Sentence::plain_text)
            .collect();
        assert!(
            of_w1
                .first()
                .is_none_or(|first| !first.contains("This lowered")),
            "{of_w1:?}"
        );
        // The other works' findings are still there.
        assert!(
            sentences
                .iter()
                .any(|sentence| sentence.cited().any(|id| id.to_string() == "W2")),
            "{sentences:?}"
        );
    }

    #[test]
    fn a_sentence_quoted_on_its_own_comes_from_the_first_work_whose_best_stands_alone() {
        let mut fixture = debate_fixture();
        let abstracts = [
            (
                "W3",
                "This suggests that payment schemes shape hospital costs across the region.",
            ),
            (
                "W4",
                "We conclude that the feeding period raised serum cholesterol in the rats.",
            ),
        ];
        for (id, text) in abstracts {
            fixture.work_mut(id).abstract_text = Some(text.to_owned());
        }
        let input = fixture.input();
        let works: Vec<WorkId> = ["W3", "W4"].map(|id| id.parse().expect("id")).into();
        let quoted = |count: usize| {
            let mut writer = Writer::new(&input, Drafting::Extractive);
            writer
                .standalone_spans(&works, &[Role::Conclusion], count)
                .into_iter()
                .map(|span| span.locator.work.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            quoted(1),
            ["W4"],
            "W3's only conclusion leans on a sentence before it"
        );
        assert_eq!(
            quoted(2),
            ["W4", "W3"],
            "a leaning sentence when nothing else is left"
        );
        assert_eq!(quoted(3), ["W4", "W3"], "one sentence per work");

        // Quoted on its own, the leaning sentence is its work's report, not the review's word.
        let mut writer = Writer::new(&input, Drafting::Extractive);
        let leaning = writer
            .standalone_spans(&works, &[Role::Conclusion], 2)
            .pop()
            .expect("W3's conclusion");
        assert_eq!(
            writer.attribute_alone(&leaning).segments[1..],
            [
                Segment::Text(" conclude that “".into()),
                Segment::Text(
                    "this suggests that payment schemes shape hospital costs across the region"
                        .into()
                ),
                Segment::Text("”.".into()),
            ]
        );
    }

    #[test]
    fn the_method_says_how_themes_were_found_and_what_a_language_model_judged() {
        let method_text = |facts: MethodFacts| {
            let mut fixture = debate_fixture();
            fixture.facts = facts;
            fixture.organisation.embedding_model =
                Some("all-MiniLM-L6-v2@53aa51172d142c89/256".into());
            let input = fixture.input();
            let mut writer = Writer::new(&input, Drafting::Extractive);
            writer
                .method()
                .paragraphs
                .iter()
                .flat_map(|paragraph| &paragraph.sentences)
                .map(Sentence::plain_text)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let without = method_text(MethodFacts::default());
        assert!(
            without.contains("how often a walk along citations"),
            "{without}"
        );
        assert!(!without.contains("language model judged"), "{without}");
        assert!(!without.contains("eligibility criteria"), "{without}");
        assert!(
            without.contains("grouped into one theme by Ward clustering of their titles' and abstracts' sentence embeddings (all-MiniLM-L6-v2) and labelled"),
            "{without}"
        );
        let with = method_text(MethodFacts {
            snowball_model_verdicts: 1,
            criteria_judged: 12,
            continued: Some(crate::ContinuedFact {
                parent_question: "Does emicizumab work?".into(),
                carried_works: 40,
                new_queries: 2,
                reused_queries: 1,
            }),
            ..MethodFacts::default()
        });
        assert!(
            with.contains("continues an earlier one on the question \u{201c}Does emicizumab work\u{201d}: it started from that review's 40 works and screening labels, reused the results of one of its queries and searched two new queries"),
            "{with}"
        );
        assert!(
            with.contains("A language model judged the one work whose score left it in doubt, from its title and abstract."),
            "{with}"
        );
        assert!(
            with.contains("eligibility criteria to the twelve included and borderline works"),
            "{with}"
        );
    }

    #[test]
    fn a_key_works_quote_is_its_best_sentence_that_stands_alone() {
        let (mut fixture, id) = fixture_with_abstract(
            "Haemophilia A is a rare bleeding disorder that damages the knee joints of young men. \
             We gave 40 young men stem cell injections into the knee. \
             Knee pain fell by half at 12 months (P < 0.01). \
             However, these findings suggest that stem cell injection helps the knee.",
        );
        fixture.organisation.key_works = vec![litrev_model::KeyWork {
            work: id.clone(),
            role: litrev_model::KeyRole::Seminal,
            corpus_citations: 3,
            pagerank: 0.5,
        }];
        let input = fixture.input();
        let roles = [Role::Background, Role::Objective, Role::Conclusion];
        let mut writer = Writer::new(&input, Drafting::Extractive);
        let best = writer.best_spans(&id, &roles, 1, None);
        assert!(
            best[0].text.starts_with("However"),
            "the conclusion ranks first"
        );
        let mut writer = Writer::new(&input, Drafting::Extractive);
        let quoted: Vec<String> = writer
            .introduction()
            .paragraphs
            .iter()
            .flat_map(|paragraph| &paragraph.sentences)
            .filter(|sentence| sentence.cited().any(|cited| *cited == id))
            .map(Sentence::plain_text)
            .collect();
        assert!(
            quoted
                .iter()
                .any(|text| text.contains("rare bleeding disorder")),
            "{quoted:?}"
        );
        assert!(
            !quoted
                .iter()
                .any(|text| text.contains("these findings suggest")),
            "{quoted:?}"
        );
    }

    #[test]
    fn once_the_themes_words_are_said_a_paragraph_opens_on_what_its_works_titles_share() {
        let mut fixture = debate_fixture();
        for (id, title) in [
            ("W1", "Stem cell injection for knee pain"),
            ("W2", "Stem cell injection against knee stiffness"),
        ] {
            fixture.work_mut(id).title = Some(title.to_owned());
        }
        let input = fixture.input();
        let writer = Writer::new(&input, Drafting::Extractive);
        let theme = &fixture.organisation.themes[0];
        let group: Vec<WorkId> = ["W1", "W2"].map(|id| id.parse().expect("id")).into();
        let mut said: BTreeSet<String> = ["knee".to_owned()].into();
        let topic = writer.group_topic(theme, &[], &group, &mut said);
        assert_eq!(
            topic, "stem cell injection",
            "the phrase their titles share, not the knee again"
        );
        assert!(said.contains("injection"), "{said:?}");
        let topic = writer.group_topic(theme, &[], &group, &mut said);
        assert_eq!(topic, "stem cell", "the next phrase, on another head word");
    }

    #[test]
    fn titles_and_first_words() {
        assert_eq!(
            title_of("Sleep and memory"),
            "Sleep and memory: a literature review"
        );
        assert!(is_a_question("Does sleep help memory?"));
        assert!(is_a_question("How does sleep shape memory"));
        assert!(is_a_question("To what extent does sleep matter"));
        assert!(!is_a_question("The rodent object-in-context task"));
        assert!(!is_a_question("Dosing of emicizumab"));
        assert_eq!(
            title_of("Does sleep help memory?"),
            "Does sleep help memory? A literature review"
        );
        assert_eq!(
            title_of("X: a systematic review."),
            "X: a systematic review"
        );
        assert_eq!(lower_first_word("The rate fell"), "the rate fell");
        assert_eq!(lower_first_word("Emicizumab works"), "emicizumab works");
        assert_eq!(lower_first_word("HRT works"), "HRT works");
        assert_eq!(in_sentence("Dose, HRT and women"), "dose, HRT and women");
        // A capitalised name keeps its capitals inside a sentence; a sentence does not.
        assert_eq!(
            in_sentence("Graphics Processing Unit (GPU) clusters"),
            "Graphics Processing Unit (GPU) clusters"
        );
        assert_eq!(
            in_sentence("Task-based programming model"),
            "task-based programming model"
        );
        assert_eq!(
            lower_first_word("In Japan, rates fell"),
            "in Japan, rates fell"
        );
    }
}
