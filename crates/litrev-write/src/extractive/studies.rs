//! What the study cards add to the review: the appendix's characteristics of included studies
//! and its matrix of themes by design, and future directions that rest on the limitations the
//! studies read in full state (the most frequent limitations, results that disagree on the
//! same outcome, designs no study of a theme used).
//!
//! Every cell and every direction quotes verbatim spans of the stored full texts (a cell may
//! quote part of a span, narrowed to its bytes), so the audit checks them as it checks any
//! taken sentence.

use std::collections::{BTreeMap, BTreeSet};

use litrev_model::{
    Basis, CardField, CardSpan, Paragraph, Section, SectionKind, Segment, Sentence, SpanRef,
    StudyCard, Table, Theme, WorkId,
};
use litrev_text::{content_words, is_generic, is_stopword};

use super::{Writer, in_sentence, section};
use crate::evidence::Span;
use crate::prose::{SentenceBuilder, label_list, number, number_capitalised, plural};

/// Words a table cell quotes at most before it cuts the span short (with an ellipsis).
const CELL_WORDS: usize = 18;
/// Words a sample-size cell takes after the number.
const SAMPLE_WORDS: usize = 5;
/// Words after a number that make it a measure, not a count of participants.
const UNITS: [&str; 24] = [
    "day", "days", "week", "weeks", "month", "months", "year", "years", "hour", "hours", "minute",
    "minutes", "min", "mg", "kg", "g", "ml", "mm", "cm", "km", "times", "fold", "per", "percent",
];
/// Directions of each kind at most, so the section stays readable.
const MAX_DIRECTIONS: usize = 3;

/// Study designs, most specific first, each with the phrases that name it (ASCII, matched
/// case-insensitively at a word's start).
const DESIGNS: [(&str, &[&str]); 9] = [
    (
        "systematic review or meta-analysis",
        &["systematic review", "meta-analys", "meta analys"],
    ),
    (
        "randomised trial",
        &[
            "randomised controlled trial",
            "randomized controlled trial",
            "randomised trial",
            "randomized trial",
            "randomised",
            "randomized",
        ],
    ),
    ("case-control study", &["case-control", "case control"]),
    (
        "cohort study",
        &[
            "prospective cohort",
            "retrospective cohort",
            "cohort study",
            "cohort",
        ],
    ),
    // A bare "survey" is a literature review in computing ("A survey of GPU programming
    // models"); a survey of people says whom it asked or how.
    (
        "cross-sectional study",
        &[
            "cross-sectional",
            "cross sectional",
            "questionnaire survey",
            "online survey",
            "web-based survey",
            "telephone survey",
            "household survey",
            "national survey",
            "survey respondents",
            "surveyed",
        ],
    ),
    ("case series or report", &["case series", "case report"]),
    (
        "qualitative study",
        &["qualitative", "focus group", "semi-structured interview"],
    ),
    (
        "modelling study",
        &[
            "simulation",
            "mathematical model",
            "modelling study",
            "modeling study",
        ],
    ),
    (
        "laboratory or animal study",
        &["in vitro", "in vivo", "mice", "cell line"],
    ),
];

/// Kinds of limitation studies state, each with the phrases that name it.
const LIMITATIONS: [(&str, &[&str]); 7] = [
    (
        "a small or selected sample",
        &[
            "small sample",
            "sample size",
            "small number",
            "limited number",
            "selection bias",
        ],
    ),
    (
        "an observational design that cannot show cause",
        &[
            "retrospective",
            "observational",
            "causal",
            "causality",
            "confound",
        ],
    ),
    (
        "a single centre or setting",
        &[
            "single centre",
            "single center",
            "single-centre",
            "single-center",
            "one centre",
            "one center",
            "single institution",
        ],
    ),
    (
        "self-reported, missing or misclassified data",
        &[
            "self-report",
            "recall bias",
            "missing data",
            "misclassif",
            "measurement error",
        ],
    ),
    (
        "a short follow-up",
        &["follow-up", "follow up", "short-term"],
    ),
    (
        "limited generalisability",
        &["generalis", "generaliz", "external validity"],
    ),
    (
        "information the study could not obtain",
        &[
            "not possible",
            "could not",
            "lack of",
            "unable to",
            "not available",
            "unavailable",
        ],
    ),
];

/// Phrases of a result that found no effect, and of one that found an effect.
const NULL_RESULT: [&str; 7] = [
    "no significant",
    "not significantly",
    "no association",
    "not associated",
    "no difference",
    "no effect",
    "did not",
];
const EFFECT_RESULT: [&str; 6] = [
    "significantly",
    "was associated with",
    "were associated with",
    "increased risk",
    "reduced risk",
    "associated with a",
];

/// The byte range of the first phrase of `phrases` found in `text` at a word's start, ASCII
/// case ignored (phrases are ASCII, so the range falls on char boundaries).
fn find_phrase(text: &str, phrases: &[&str]) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    phrases.iter().find_map(|phrase| {
        let needle = phrase.as_bytes();
        (0..bytes.len().saturating_sub(needle.len() - 1)).find_map(|start| {
            let at_word_start = text.is_char_boundary(start)
                && !text[..start]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric);
            (at_word_start && bytes[start..start + needle.len()].eq_ignore_ascii_case(needle))
                .then_some((start, start + needle.len()))
        })
    })
}

/// Who was studied, as a paragraph's opener names it, and the words (lower case, whole words)
/// that name them; the more specific first, so postmenopausal women are not only women.
const POPULATIONS: [(&str, &[&str]); 24] = [
    (
        "postmenopausal women",
        &["postmenopausal women", "post menopausal women"],
    ),
    (
        "perimenopausal women",
        &["perimenopausal women", "peri menopausal women"],
    ),
    ("pregnant women", &["pregnant women"]),
    (
        "healthy volunteers",
        &[
            "healthy volunteers",
            "healthy subjects",
            "healthy adults",
            "healthy participants",
        ],
    ),
    (
        "older adults",
        &["older adults", "older people", "older persons", "elderly"],
    ),
    ("infants", &["infants", "neonates", "newborns"]),
    (
        "children",
        &[
            "children",
            "child",
            "paediatric",
            "pediatric",
            "boys",
            "girls",
        ],
    ),
    ("adolescents", &["adolescents", "adolescent", "teenagers"]),
    ("athletes", &["athletes"]),
    ("students", &["students", "undergraduates"]),
    ("nurses", &["nurses"]),
    ("women", &["women"]),
    ("men", &["men"]),
    ("rats", &["rats", "rat"]),
    ("mice", &["mice", "mouse"]),
    ("dogs", &["dogs", "canine"]),
    ("horses", &["horses", "equine"]),
    ("sheep", &["sheep", "ovine"]),
    ("goats", &["goats", "caprine"]),
    ("pigs", &["pigs", "minipigs", "porcine"]),
    ("rabbits", &["rabbits"]),
    ("cats", &["cats", "feline"]),
    ("monkeys", &["monkeys", "primates", "macaques"]),
    ("cattle", &["cattle", "cows", "bovine"]),
];

/// Every population a text names ([`POPULATIONS`]), in that list's order.
pub(super) fn populations_named(text: &str) -> Vec<&'static str> {
    // Words alone, so "men" is not found in "mental" nor "rat" in "rate".
    let words: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect();
    let mut words = format!(
        " {} ",
        words.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    let mut named = Vec::new();
    for (label, phrases) in POPULATIONS {
        for phrase in phrases {
            let phrase = format!(" {phrase} ");
            if words.contains(&phrase) {
                // Said once: the women of "postmenopausal women" are not women again.
                words = words.replace(&phrase, " | ");
                if !named.contains(&label) {
                    named.push(label);
                }
            }
        }
    }
    named
}

/// Where a population stands in [`POPULATIONS`]: the lower, the more specific.
pub(super) fn specificity(population: &str) -> usize {
    POPULATIONS
        .iter()
        .position(|(label, _)| *label == population)
        .unwrap_or(POPULATIONS.len())
}

/// The design a text names (`cohort study`), and how several are called (`cohort studies`).
pub(super) fn design_named(text: &str) -> Option<(&'static str, &'static str)> {
    DESIGNS
        .iter()
        .find(|(_, phrases)| names(text, phrases))
        .map(|(label, _)| (*label, plural_design(label)))
}

/// A design label in the plural.
fn plural_design(label: &str) -> &'static str {
    match label {
        "systematic review or meta-analysis" => "systematic reviews or meta-analyses",
        "randomised trial" => "randomised trials",
        "case-control study" => "case-control studies",
        "cohort study" => "cohort studies",
        "cross-sectional study" => "cross-sectional studies",
        "case series or report" => "case series or reports",
        "qualitative study" => "qualitative studies",
        "modelling study" => "modelling studies",
        _ => "laboratory or animal studies",
    }
}

/// Whether `text` names one of `phrases`.
fn names(text: &str, phrases: &[&str]) -> bool {
    find_phrase(text, phrases).is_some()
}

/// A work's design from its card: the design's label and the card span naming it, narrowed to
/// the naming phrase.
pub(crate) fn design_of(card: &StudyCard) -> Option<(&'static str, &CardSpan, (usize, usize))> {
    let spans: Vec<&CardSpan> = card
        .spans(CardField::Design)
        .iter()
        .chain(card.spans(CardField::Aim))
        .collect();
    DESIGNS.iter().find_map(|(label, phrases)| {
        spans
            .iter()
            .find_map(|span| find_phrase(&span.text, phrases).map(|range| (*label, *span, range)))
    })
}

/// The part of a span a cell quotes: for a sample size, the first count in it (digits, maybe
/// in groups) and the few words naming what was counted; otherwise the span's first words.
/// `true` when the span was cut short.
fn excerpt(field: CardField, text: &str) -> (usize, usize, bool) {
    let words: Vec<(usize, usize)> = word_ranges(text);
    if field == CardField::SampleSize
        && let Some(range) = counted(text, &words)
    {
        return (range.0, range.1, true);
    }
    match words.get(CELL_WORDS - 1) {
        Some(&(_, end)) if words.len() > CELL_WORDS => (0, trim_punctuation(text, 0, end), true),
        _ => (0, trim_punctuation(text, 0, text.len()), false),
    }
}

/// The first count of `text` with the words naming what was counted: "119 consecutive
/// patients", "98 942 patients", "32,629 cattle". A number not followed by a word is no count.
fn counted(text: &str, words: &[(usize, usize)]) -> Option<(usize, usize)> {
    let is_number = |word: &str| {
        word.chars().next().is_some_and(|c| c.is_ascii_digit())
            && word.chars().all(|c| c.is_ascii_digit() || c == ',')
    };
    let word = |index: usize| words.get(index).map(|&(start, end)| &text[start..end]);
    (0..words.len()).find_map(|first| {
        if !word(first).is_some_and(is_number) {
            return None;
        }
        let mut next = first + 1;
        while word(next).is_some_and(|word| is_number(word) && word.len() == 3) {
            next += 1;
        }
        let mut last = None;
        for index in next..(next + SAMPLE_WORDS).min(words.len()) {
            let current = word(index)?;
            let bare = current.trim_end_matches([',', ';', ':', '.', ')']);
            if !bare.chars().all(|c| c.is_alphabetic() || c == '-')
                || bare.is_empty()
                || (index > next && is_stopword(&bare.to_lowercase()))
            {
                break;
            }
            if index == next && UNITS.contains(&bare.to_lowercase().as_str()) {
                break;
            }
            last = Some(index);
            if bare.len() < current.len() {
                break;
            }
        }
        let last = last?;
        Some((
            words[first].0,
            trim_punctuation(text, words[first].0, words[last].1),
        ))
    })
}

/// The byte ranges of the white-space separated words of `text`.
fn word_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
    let mut start = None;
    for (index, character) in text.char_indices() {
        match (character.is_whitespace(), start) {
            (true, Some(begin)) => {
                words.push((begin, index));
                start = None;
            }
            (false, None) => start = Some(index),
            _ => {}
        }
    }
    if let Some(begin) = start {
        words.push((begin, text.len()));
    }
    words
}

/// `end` moved back over trailing punctuation a quotation should not end on.
fn trim_punctuation(text: &str, start: usize, end: usize) -> usize {
    start
        + text[start..end]
            .trim_end_matches([',', ';', ':', '.', '(', ' '])
            .len()
}

impl<'a> Writer<'a> {
    /// The evidence span of a work that is this card span, the whole sentence.
    fn card_span(&self, work: &WorkId, span: &CardSpan) -> Option<&Span> {
        self.spans.get(work)?.iter().find(|known| {
            known
                .locator
                .full_text
                .as_ref()
                .is_some_and(|quoted| quoted.locator == span.locator)
        })
    }

    /// A cell quoting bytes `start..end` of a card span, cited with its pinpoint; the ellipsis
    /// says the quotation stops inside the span.
    fn quoted_cell(
        &self,
        work: &WorkId,
        span: &CardSpan,
        (start, end): (usize, usize),
        cut: bool,
    ) -> Option<Sentence> {
        let whole = self.card_span(work, span)?;
        let mut locator: SpanRef = whole.locator.clone();
        let quoted = span.text.get(start..end)?.to_owned();
        locator.start += start;
        locator.end = locator.start + quoted.len();
        if let Some(full) = locator.full_text.as_mut() {
            full.locator.start += start;
            full.locator.end = full.locator.start + quoted.len();
            full.text = quoted.clone();
        }
        let close = if cut && end < span.text.len() {
            "…”"
        } else {
            "”"
        };
        Some(Sentence {
            segments: vec![
                Segment::Text("“".to_owned()),
                Segment::Text(quoted),
                Segment::Text(close.to_owned()),
                Segment::Cite {
                    works: vec![work.clone()],
                    form: litrev_model::CiteForm::Parenthetical,
                },
            ],
            basis: Basis::Span(locator),
        })
    }

    /// One cell of a work's row: its field's first span, quoted in part, or *not reported*.
    fn field_cell(&self, work: &WorkId, card: &StudyCard, field: CardField) -> Paragraph {
        let quoted = if field == CardField::Design {
            design_of(card).and_then(|(_, span, range)| self.quoted_cell(work, span, range, false))
        } else {
            card.spans(field).first().and_then(|span| {
                let (start, end, cut) = excerpt(field, &span.text);
                self.quoted_cell(work, span, (start, end), cut)
            })
        };
        let sentence = quoted.unwrap_or_else(|| {
            SentenceBuilder::new()
                .text(litrev_model::NOT_REPORTED)
                .structural()
        });
        Paragraph {
            sentences: vec![sentence],
        }
    }

    /// The included works read in full, by year, then id.
    fn read_in_full(&self) -> Vec<(&'a WorkId, &'a StudyCard)> {
        let input: &'a crate::WriteInput<'a> = self.input;
        let mut read: Vec<(&'a WorkId, &'a StudyCard)> = input
            .cards
            .iter()
            .filter(|(id, _)| input.included.contains_key(*id))
            .collect();
        read.sort_by_key(|(id, _)| (input.included.get(*id).and_then(|work| work.year), *id));
        read
    }

    /// The appendix's part on the studies read in full: a sentence on how many, the
    /// characteristics table and the matrix of themes by design. `None` when none was read.
    pub(super) fn characteristics(&self) -> Option<Section> {
        let read = self.read_in_full();
        if read.is_empty() {
            return None;
        }
        let fields = [
            CardField::Population,
            CardField::SampleSize,
            CardField::Setting,
            CardField::Outcomes,
        ];
        let mut columns = vec!["Study".to_owned(), CardField::Design.heading().to_owned()];
        columns.extend(fields.iter().map(|field| field.heading().to_owned()));
        let rows = read
            .iter()
            .map(|(id, card)| {
                let mut cells = vec![Paragraph {
                    sentences: vec![SentenceBuilder::new().narrative(id).structural()],
                }];
                cells.push(self.field_cell(id, card, CardField::Design));
                cells.extend(fields.iter().map(|field| self.field_cell(id, card, *field)));
                cells
            })
            .collect();
        let included = self.input.included.len();
        let intro = SentenceBuilder::new()
            .text(format!(
                "{} of the {included} included works {} read in full; each row quotes {} full text, with its page or section, and says “{}” where the text is silent. The other works were read from their abstracts only.",
                number_capitalised(read.len()),
                plural(read.len(), "was", "were"),
                plural(read.len(), "its", "their"),
                litrev_model::NOT_REPORTED,
            ))
            .structural();
        let mut tables = vec![Table {
            caption: "Characteristics of included studies read in full".to_owned(),
            columns,
            rows,
        }];
        tables.extend(self.design_matrix(&read));
        let mut part = section(
            SectionKind::Appendix,
            "Appendix: characteristics of included studies",
            vec![Paragraph {
                sentences: vec![intro],
            }],
        );
        part.tables = tables;
        Some(part)
    }

    /// Per theme, the studies read in full of each design found: the review's taxonomy matrix.
    /// `None` when no card names a design.
    fn design_matrix(&self, read: &[(&WorkId, &StudyCard)]) -> Option<Table> {
        let matrix = self.matrix(read);
        let designs: Vec<&str> = DESIGNS
            .iter()
            .map(|(label, _)| *label)
            .filter(|label| matrix.values().any(|row| row.contains_key(label)))
            .collect();
        if designs.is_empty() {
            return None;
        }
        let mut columns = vec!["Theme".to_owned()];
        columns.extend(designs.iter().map(|label| (*label).to_owned()));
        let rows = self
            .input
            .organisation
            .themes
            .iter()
            .map(|theme| {
                let row = matrix.get(&theme.id);
                let mut cells = vec![Paragraph {
                    sentences: vec![SentenceBuilder::new().text(&theme.label).structural()],
                }];
                for label in &designs {
                    let works = row
                        .and_then(|row| row.get(label))
                        .cloned()
                        .unwrap_or_default();
                    let sentence = if works.is_empty() {
                        SentenceBuilder::new().text("none")
                    } else {
                        SentenceBuilder::new()
                            .text(works.len().to_string())
                            .text(" ")
                            .parenthetical(&works)
                    };
                    cells.push(Paragraph {
                        sentences: vec![sentence.structural()],
                    });
                }
                cells
            })
            .collect();
        Some(Table {
            caption: "Designs of the studies read in full, by theme".to_owned(),
            columns,
            rows,
        })
    }

    /// Theme id → design → the works of that theme read in full with that design.
    fn matrix(
        &self,
        read: &[(&WorkId, &StudyCard)],
    ) -> BTreeMap<u32, BTreeMap<&'static str, Vec<WorkId>>> {
        let mut matrix: BTreeMap<u32, BTreeMap<&'static str, Vec<WorkId>>> = BTreeMap::new();
        for theme in &self.input.organisation.themes {
            for (id, card) in read {
                if theme.works.contains(id)
                    && let Some((label, _, _)) = design_of(card)
                {
                    matrix
                        .entry(theme.id)
                        .or_default()
                        .entry(label)
                        .or_default()
                        .push((*id).clone());
                }
            }
        }
        matrix
    }

    /// The limitation spans a work's card states and the review has not quoted yet.
    fn limitation_spans(&self, work: &WorkId) -> Vec<Span> {
        let Some(card) = self.input.cards.get(work) else {
            return Vec::new();
        };
        card.spans(CardField::Limitations)
            .iter()
            .filter_map(|span| self.card_span(work, span))
            .filter(|span| !self.used.contains(&(work.clone(), span.locator.sentence)))
            .cloned()
            .collect()
    }

    /// Future directions from the study cards, each citing at least one limitation span a
    /// study states: the most frequent kinds of limitation, results on the same outcome that
    /// disagree, and designs no study of a theme used. Empty when no work was read in full.
    pub(super) fn card_directions(&mut self) -> Vec<Paragraph> {
        let read: Vec<WorkId> = self
            .read_in_full()
            .into_iter()
            .map(|(id, _)| id.clone())
            .collect();
        let mut paragraphs = self.frequent_limitations(&read);
        paragraphs.extend(self.disagreements(&read));
        paragraphs.extend(self.empty_cells());
        paragraphs.extend(self.stated_limitations(&read));
        paragraphs
    }

    /// Per theme, the limitations its studies read in full state that no direction above
    /// quoted: each is work the next studies can take up.
    fn stated_limitations(&mut self, read: &[WorkId]) -> Vec<Paragraph> {
        let themes: &'a [Theme] = &self.input.organisation.themes;
        let mut paragraphs = Vec::new();
        for theme in themes {
            let spans: Vec<Span> = read
                .iter()
                .filter(|id| theme.works.contains(id))
                .filter_map(|id| self.limitation_spans(id).into_iter().next())
                .take(2)
                .collect();
            if spans.is_empty() {
                continue;
            }
            let works: Vec<WorkId> = spans.iter().map(|span| span.locator.work.clone()).collect();
            let opener = SentenceBuilder::new()
                .text(format!(
                    "The studies on {} read in full also state limits of their own",
                    in_sentence(&theme.label)
                ))
                .text(" ")
                .parenthetical(&works)
                .text(", each a question the next studies can take up.")
                .structural();
            let mut sentences = vec![opener];
            for span in &spans {
                self.mark_used(span);
                sentences.push(self.attribute(span, None));
            }
            paragraphs.push(Paragraph { sentences });
        }
        paragraphs
    }

    fn frequent_limitations(&mut self, read: &[WorkId]) -> Vec<Paragraph> {
        let mut kinds: Vec<(&str, Vec<(WorkId, Span)>)> = LIMITATIONS
            .iter()
            .map(|(label, phrases)| {
                let stating = read
                    .iter()
                    .filter_map(|id| {
                        self.limitation_spans(id)
                            .into_iter()
                            .find(|span| names(&span.text, phrases))
                            .map(|span| (id.clone(), span))
                    })
                    .collect::<Vec<_>>();
                (*label, stating)
            })
            .filter(|(_, stating)| !stating.is_empty())
            .collect();
        kinds.sort_by_key(|(_, stating)| std::cmp::Reverse(stating.len()));
        let mut paragraphs = Vec::new();
        for (label, stating) in kinds.into_iter().take(MAX_DIRECTIONS) {
            let works: Vec<WorkId> = stating.iter().map(|(id, _)| id.clone()).collect();
            let opener = SentenceBuilder::new()
                .text(format!(
                    "{} of the {} studies read in full {} {label} among {} limitations",
                    number_capitalised(works.len()),
                    number(read.len()),
                    plural(works.len(), "names", "name"),
                    plural(works.len(), "its", "their"),
                ))
                .text(" ")
                .parenthetical(&works)
                .text(format!(
                    "; a study designed to avoid {} would settle what {} open.",
                    plural(works.len(), "it", "them"),
                    plural(works.len(), "this study leaves", "these studies leave")
                ))
                .structural();
            let mut sentences = vec![opener];
            for (_, span) in stating.iter().take(2) {
                self.mark_used(span);
                sentences.push(self.attribute(span, None));
            }
            paragraphs.push(Paragraph { sentences });
        }
        paragraphs
    }

    /// Pairs of works of one theme whose results speak of the same outcome word, one finding an
    /// effect and the other none; each pair's direction quotes both results and a limitation.
    fn disagreements(&mut self, read: &[WorkId]) -> Vec<Paragraph> {
        let results = |writer: &Self, id: &WorkId| -> Vec<Span> {
            writer
                .input
                .cards
                .get(id)
                .map(|card| {
                    card.spans(CardField::Results)
                        .iter()
                        .filter_map(|span| writer.card_span(id, span).cloned())
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut paragraphs = Vec::new();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for theme in &self.input.organisation.themes {
            let members: Vec<&WorkId> = read.iter().filter(|id| theme.works.contains(id)).collect();
            for null_work in &members {
                for effect_work in &members {
                    if null_work == effect_work || paragraphs.len() >= MAX_DIRECTIONS {
                        continue;
                    }
                    let Some((outcome, null, effect)) = results(self, null_work)
                        .iter()
                        .filter(|span| names(&span.text, &NULL_RESULT))
                        .find_map(|null| {
                            results(self, effect_work)
                                .into_iter()
                                .filter(|span| {
                                    names(&span.text, &EFFECT_RESULT)
                                        && !names(&span.text, &NULL_RESULT)
                                })
                                .find_map(|effect| {
                                    shared_outcome(&null.text, &effect.text)
                                        .map(|word| (word, null.clone(), effect))
                                })
                        })
                    else {
                        continue;
                    };
                    let limitation = self
                        .limitation_spans(null_work)
                        .into_iter()
                        .chain(self.limitation_spans(effect_work))
                        .next();
                    let Some(limitation) = limitation else {
                        continue;
                    };
                    if !seen.insert(outcome.clone()) {
                        continue;
                    }
                    let opener = SentenceBuilder::new()
                        .text(format!(
                            "On {}, the studies read in full disagree over {outcome}: ",
                            in_sentence(&theme.label)
                        ))
                        .narrative(effect_work)
                        .text(" report an effect where ")
                        .narrative(null_work)
                        .text(" find none, so a study comparing them directly is needed.")
                        .structural();
                    let mut sentences = vec![opener];
                    for span in [&effect, &null, &limitation] {
                        self.mark_used(span);
                        sentences.push(self.attribute(span, None));
                    }
                    paragraphs.push(Paragraph { sentences });
                }
            }
        }
        paragraphs
    }

    /// Themes whose studies read in full lack a design other themes' studies used: the empty
    /// cells of the matrix, each with a limitation a study of the theme states.
    fn empty_cells(&mut self) -> Vec<Paragraph> {
        let read = self.read_in_full();
        let matrix = self.matrix(&read);
        let used: BTreeSet<&str> = matrix
            .values()
            .flat_map(|row| row.keys().copied())
            .collect();
        if used.len() < 2 {
            return Vec::new();
        }
        let themes: &'a [Theme] = &self.input.organisation.themes;
        let mut paragraphs = Vec::new();
        for theme in themes {
            if paragraphs.len() >= MAX_DIRECTIONS {
                break;
            }
            let Some(row) = matrix.get(&theme.id) else {
                continue;
            };
            let missing: Vec<String> = used
                .iter()
                .filter(|label| !row.contains_key(*label))
                .map(|label| (*label).to_owned())
                .collect();
            if missing.is_empty() {
                continue;
            }
            let members: Vec<WorkId> = row.values().flatten().cloned().collect();
            let Some(limitation) = members
                .iter()
                .flat_map(|id| self.limitation_spans(id))
                .next()
            else {
                continue;
            };
            let opener = SentenceBuilder::new()
                .text(format!(
                    "No study on {} read in full is a {}, though other themes' studies are",
                    in_sentence(&theme.label),
                    label_list(&missing).replace(" and ", " or ")
                ))
                .text(" ")
                .parenthetical(&members)
                .text("; such a study would test what the existing designs cannot.")
                .structural();
            self.mark_used(&limitation);
            let quoted = self.attribute(&limitation, None);
            paragraphs.push(Paragraph {
                sentences: vec![opener, quoted],
            });
        }
        paragraphs
    }
}

/// The longest content word (of five letters or more, not generic) two results share: the
/// outcome they both speak of.
fn shared_outcome(first: &str, second: &str) -> Option<String> {
    let theirs: BTreeSet<String> = content_words(second).into_iter().collect();
    content_words(first)
        .into_iter()
        .filter(|word| word.chars().count() >= 5 && !is_generic(word) && theirs.contains(word))
        .max_by(|a, b| a.len().cmp(&b.len()).then(b.cmp(a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_survey_of_a_literature_is_no_cross_sectional_study() {
        assert_eq!(
            design_named("A survey of GPU programming models and their performance."),
            None
        );
        for asked in [
            "An online survey of 300 nurses was conducted.",
            "Andean farmers were surveyed twice.",
            "A cross-sectional survey of clinics in Peru.",
        ] {
            assert_eq!(
                design_named(asked).map(|(one, _)| one),
                Some("cross-sectional study"),
                "{asked}"
            );
        }
    }

    #[test]
    fn populations_are_whole_words_the_specific_first() {
        assert_eq!(
            populations_named("Sixty postmenopausal women and 20 men were randomised."),
            ["postmenopausal women", "men"]
        );
        assert!(populations_named("Mental health and the rate of separation").is_empty());
        assert_eq!(
            populations_named("A phase I study in healthy Chinese subjects? No: healthy subjects."),
            ["healthy volunteers"]
        );
        assert_eq!(
            populations_named("Paediatric patients (PwHA)"),
            ["children"]
        );
    }

    #[test]
    fn phrases_are_found_at_word_starts_case_ignored() {
        let text = "A Prospective cohort of 119 consecutive patients.";
        assert_eq!(find_phrase(text, &["prospective cohort"]), Some((2, 20)));
        assert_eq!(find_phrase("Several rates fell", &["rates"]), Some((8, 13)));
        assert_eq!(find_phrase("separates", &["rates"]), None);
        assert_eq!(find_phrase("é cohort", &["cohort"]), Some((3, 9)));
        assert_eq!(find_phrase("ΦX174 in mice", &["mice"]), Some((10, 14)));
        assert_eq!(find_phrase("Φ", &["x"]), None);
    }

    #[test]
    fn excerpts_quote_the_sample_or_the_first_words() {
        let sample = |text: &str| {
            let (start, end, _) = excerpt(CardField::SampleSize, text);
            text[start..end].to_owned()
        };
        assert_eq!(
            sample("We enrolled 119 consecutive patients with acute stroke, of whom 40 died."),
            "119 consecutive patients"
        );
        assert_eq!(
            sample("In all, 98 942 patients diagnosed with a cancer were included."),
            "98 942 patients diagnosed"
        );
        assert_eq!(
            sample("Sera from 32,629 cattle, 100 goats."),
            "32,629 cattle"
        );
        assert_eq!(sample("After 7 days, 40 mice were killed."), "40 mice");
        assert_eq!(
            sample("Cases included 1878 female colorectal cancer cases (1295 colon)."),
            "1878 female colorectal cancer cases"
        );
        assert!(sample("By 2⋅π(n/2), 9–11 pairs per arm.").starts_with("By 2"));
        let long = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty.";
        let (start, end, cut) = excerpt(CardField::Population, long);
        assert_eq!(start, 0);
        assert!(long[..end].ends_with("eighteen"));
        assert!(cut);
        let (_, end, cut) = excerpt(CardField::Population, "Adults in Kenya.");
        assert_eq!(end, "Adults in Kenya".len());
        assert!(!cut);
    }

    #[test]
    fn outcomes_shared_by_two_results_are_found() {
        assert_eq!(
            shared_outcome(
                "There was no significant change in mortality.",
                "Mortality was significantly reduced."
            )
            .as_deref(),
            Some("mortality")
        );
        assert_eq!(
            shared_outcome("No effect on pain.", "Sleep improved."),
            None
        );
    }
}
