//! Phrases a person would write for what a group of works is about: noun phrases of the
//! works' own titles ("Emicizumab prophylaxis", "Bone mineral density"), not lists of words.
//! Theme titles (organise) and paragraph topics (write) are chosen the same way, one level
//! apart.
//!
//! Candidates are the word runs of the group's titles between punctuation, two to seven words
//! long, opening and closing on content words (function words such as "of", "in" and "with"
//! only inside): titles are written as noun phrases, so their runs are mostly noun phrases,
//! without a part-of-speech tagger. Where a run may end is read from how the works' own texts
//! use its last word ([`Edges`]): a word nearly always followed by another ("acquired"
//! haemophilia, "stem" cells, "randomized controlled" trial) modifies what follows and ends no
//! phrase, nor does one usually followed by "of" ("for the treatment" of what?). A candidate
//! must appear, as a phrase, in at least two of the group's works (title or abstract). Each is scored by class-based TF-IDF (the share of the
//! group's works using it against how many works of all groups do, as BERTopic's c-TF-IDF), a
//! little in favour of longer phrases, and its head (last word) must be one no earlier group
//! took. An acronym is spelled out from the works' own definitions ("people with haemophilia A
//! (PwHA)"), found as Schwartz and Hearst (2003) find them.

use std::collections::{BTreeMap, BTreeSet};

use crate::{is_generic, is_stopword};

/// Words a phrase may hold inside but neither open nor close on.
const CONNECTORS: &[&str] = &[
    "a", "an", "and", "after", "among", "by", "for", "from", "in", "of", "on", "the", "to", "with",
    "without", "versus", "vs", "plus",
];

/// The connectors that join two words of a kind ("mild and moderate", "emicizumab versus
/// placebo") rather than a head and its complement.
const COORDINATORS: &[&str] = &["and", "versus", "vs", "plus"];

/// Adjectives that open a phrase ("severe bleeding") but never close one ("patients with
/// severe").
const NO_END: &[&str] = &[
    "severe",
    "mild",
    "moderate",
    "chronic",
    "acute",
    "early",
    "late",
    "high",
    "low",
    "long",
    "short",
    "large",
    "small",
    "major",
    "minor",
    "prior",
    "previous",
    "different",
    "several",
    "daily",
    "weekly",
    "monthly",
    "yearly",
];

/// Words that neither open nor close a phrase, though no stopword list has them: quantifiers
/// and the participles titles hang clauses on ("emicizumab given every…").
const NO_EDGE: &[&str] = &[
    "all",
    "both",
    "each",
    "every",
    "per",
    "than",
    "via",
    "given",
    "using",
    "based",
    "including",
    "compared",
    "receiving",
    "treated",
    "new",
    "novel",
];

/// Words of titles that name no topic, though they are no stopword nor generic in abstracts:
/// a phrase neither ends on one nor is made of them ("Future directions", "Current status").
const TITLE_FILLERS: &[&str] = &[
    "challenges",
    "current",
    "directions",
    "future",
    "opportunities",
    "overview",
    "perspective",
    "perspectives",
    "status",
    "update",
];

/// The longest phrase, in words.
const MAX_WORDS: usize = 7;

/// A word seen this often in the texts has its edges read from them ([`Edges`]); one seen
/// less is judged by the word lists alone.
const MIN_SEEN: u32 = 3;

/// A word followed by another word of its phrase more often than this share of the times it is
/// written modifies what follows it: no phrase ends on it.
const MODIFIER_SHARE: f64 = 0.75;

/// A word followed by "of" or "with" at least this share of the times it is written wants its
/// complement: no phrase ends on it after a function word ("for the treatment", "in
/// persons"), though one may after a word that is its complement ("hair cortisol
/// measurement").
const COMPLEMENT_SHARE: f64 = 0.25;

/// A group of works to find a phrase for.
#[derive(Debug, Clone, Copy)]
pub struct PhraseGroup<'a> {
    /// Each work's title.
    pub titles: &'a [&'a str],
    /// Each work's title and abstract.
    pub texts: &'a [&'a str],
}

/// A phrase chosen for a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phrase {
    /// As it reads inside a sentence: a Title Case word is lower-cased when the texts also
    /// write it so ("Stem Cell Injection" → "stem cell injection"); acronyms and names stay.
    pub text: String,
    /// Its last word, lower-cased with British spellings folded to American ones
    /// ("haemophilia" → "hemophilia"): no two groups' phrases share one.
    pub head: String,
}

/// The best phrase of `group` against the works of the other groups (`others`, of `classes`
/// groups in all), whose head `taken` does not hold; `None` when no phrase of its titles
/// appears in two of its works (or in its one work, for a group of one).
pub fn best_phrase(
    group: PhraseGroup<'_>,
    others: &[&str],
    classes: usize,
    taken: &dyn Fn(&str) -> bool,
) -> Option<Phrase> {
    ranked_phrases(group, others, classes, taken)
        .into_iter()
        .next()
        .map(|(_, phrase)| phrase)
}

/// Every phrase of `group`'s titles that [`best_phrase`] could choose with its score, best
/// first: a class-based TF-IDF of the share of the group's works that use it, how rare it is
/// among the other groups' works, and its length. A caller that can tell meaning apart
/// (theme titles, with sentence embeddings) weighs them again.
pub fn ranked_phrases(
    group: PhraseGroup<'_>,
    others: &[&str],
    classes: usize,
    taken: &dyn Fn(&str) -> bool,
) -> Vec<(f64, Phrase)> {
    // Each text is cut into clauses once: they give its words and how it uses them.
    let group_clauses: Vec<_> = group.texts.iter().map(|text| clauses(text)).collect();
    let other_clauses: Vec<_> = others.iter().map(|text| clauses(text)).collect();
    let docs: Vec<Vec<String>> = group_clauses
        .iter()
        .map(|text| clause_words(text))
        .collect();
    let other_docs: Vec<Vec<String>> = other_clauses
        .iter()
        .map(|text| clause_words(text))
        .collect();
    // Counted by spelling keys, so the works writing "hemophilia A" use the phrase of those
    // writing "haemophilia A" (a group is not set apart by its spelling).
    let keyed =
        |doc: &Vec<String>| -> Vec<String> { doc.iter().map(|word| spelling_key(word)).collect() };
    let doc_keys: Vec<Vec<String>> = docs.iter().map(keyed).collect();
    let other_keys: Vec<Vec<String>> = other_docs.iter().map(keyed).collect();
    let average = (docs.len() + other_docs.len()) as f64 / classes.max(1) as f64;
    let needed = 2.min(docs.len());
    let edges = Edges::of(group_clauses.iter().chain(&other_clauses));
    let mut candidates: BTreeMap<Vec<String>, BTreeMap<String, usize>> = BTreeMap::new();
    for title in group.titles {
        for (key, surface) in title_phrases(title)
            .into_iter()
            .filter(|(key, _)| edges.allows(key))
        {
            *candidates
                .entry(key)
                .or_default()
                .entry(surface)
                .or_default() += 1;
        }
    }
    // The titles' spellings of each phrase, all its spellings together: a phrase one title
    // spells the British way and five the American way is written the American way.
    let mut title_spellings: BTreeMap<Vec<String>, BTreeMap<String, usize>> = BTreeMap::new();
    for (key, surfaces) in &candidates {
        let written = title_spellings.entry(keyed(key)).or_default();
        for (surface, count) in surfaces {
            *written.entry(surface.clone()).or_default() += count;
        }
    }
    let mut scored: Vec<(f64, Vec<String>, String)> = candidates
        .into_keys()
        .filter(|key| {
            key.last()
                .is_some_and(|head| !taken(head) && !taken(&spelling_key(head)))
        })
        .filter_map(|key| {
            let spelled = keyed(&key);
            let here = doc_keys
                .iter()
                .filter(|doc| contains(doc, &spelled))
                .count();
            if here < needed || here == 0 {
                return None;
            }
            let everywhere = here
                + other_keys
                    .iter()
                    .filter(|doc| contains(doc, &spelled))
                    .count();
            let share = here as f64 / docs.len() as f64;
            let distinct = (1.0 + average / everywhere as f64).ln();
            let length = (key.len() as f64).sqrt();
            let surfaces = title_spellings.get(&spelled).cloned().unwrap_or_default();
            Some((
                share * distinct * length,
                key,
                spelling(surfaces, group.texts),
            ))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    // One spelling of a phrase: the best scored.
    let spellings = spellings_of(&docs, &doc_keys);
    let mut spellings_seen: BTreeSet<Vec<String>> = BTreeSet::new();
    scored
        .into_iter()
        .filter(|(_, key, _)| spellings_seen.insert(keyed(key)))
        .map(|(score, key, surface)| {
            let phrase = Phrase {
                text: in_sentence(&usual_spelling(surface, &spellings, &docs), &docs),
                head: key
                    .last()
                    .map(|head| spelling_key(head))
                    .unwrap_or_default(),
            };
            (score, phrase)
        })
        .collect()
}

/// A lower-case word with British spellings folded to American ones ("haemophilia" and
/// "hemophilia", "paediatric" and "pediatric", "oestrogen" and "estrogen", "tumour" and "tumor"),
/// to count two spellings as one word. A key for comparing, never shown.
pub fn spelling_key(word: &str) -> String {
    const FOLDS: &[(&str, &str)] = &[
        ("aem", "em"),
        ("paed", "ped"),
        ("oestr", "estr"),
        ("oedem", "edem"),
        ("oesoph", "esoph"),
        ("aetiol", "etiol"),
        ("foet", "fet"),
        ("rrhoe", "rrhe"),
        ("gynaec", "gynec"),
        ("isation", "ization"),
        ("tumour", "tumor"),
        ("behaviour", "behavior"),
        ("colour", "color"),
        ("labour", "labor"),
        ("favour", "favor"),
        ("centre", "center"),
        ("fibre", "fiber"),
    ];
    let mut key = word.to_owned();
    for (british, american) in FOLDS {
        if key.contains(british) {
            key = key.replace(british, american);
        }
    }
    key
}

/// The spelling a phrase's titles most often give it, a title in capitals counting only when
/// no other spells it; then its words are written as the texts write them ("CARTILAGE REPAIR OF
/// THE KNEE" → "cartilage repair of the knee"), acronyms the texts never lower-case kept.
fn spelling(mut surfaces: BTreeMap<String, usize>, texts: &[&str]) -> String {
    let shouted = |surface: &str| {
        surface.chars().filter(|c| c.is_alphabetic()).count() > 3
            && !surface.chars().any(char::is_lowercase)
    };
    if surfaces.keys().any(|surface| !shouted(surface)) {
        surfaces.retain(|surface, _| !shouted(surface));
    }
    let surface = most_common(&surfaces);
    if !shouted(&surface) {
        return surface;
    }
    // Words the texts write with a small letter somewhere ("Cartilage", "knee"), lower-cased.
    let written: BTreeSet<String> = texts
        .iter()
        .flat_map(|text| text.split(|c: char| !c.is_alphanumeric()))
        .filter(|word| word.chars().any(char::is_lowercase))
        .map(str::to_lowercase)
        .collect();
    surface
        .split(' ')
        .map(|word| {
            let lower = word.to_lowercase();
            let parts_written_lower = lower
                .split(|c: char| !c.is_alphanumeric())
                .filter(|part| !part.is_empty())
                .all(|part| written.contains(part) || part.chars().all(|c| c.is_ascii_digit()));
            if parts_written_lower {
                lower
            } else {
                word.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The candidate phrases of a title: lower-cased words (the key) and the title's spelling.
/// A run neither opens nor closes on a word joined to its neighbour by a mark other than a
/// space ("X" of "IXa/X", "Derived" of "Blood-Derived" is one word, but "IXa/X" is two).
fn title_phrases(title: &str) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    for clause in clauses(title) {
        for start in 0..clause.len() {
            // A letter alone ends a name ("factor X"); it opens no phrase.
            if clause[start].glued_before || clause[start].text.chars().count() == 1 {
                continue;
            }
            for end in start + 2..=(start + MAX_WORDS).min(clause.len()) {
                let run = &clause[start..end];
                // A compound joined by an en dash is a modifier ("Marrow–Derived",
                // "VIII–Mimetic"): a phrase goes on to its noun, or ends before the dash
                // ("health care" of "Health Care–Associated Infection").
                let last = &run[run.len() - 1];
                let before_en_dash = clause.get(end).is_some_and(|next| next.joint == "–");
                if (last.glued_after && !before_en_dash) || last.joint == "–" {
                    continue;
                }
                // Alternatives joined by a slash ("Adolescent/Adult" of "Adolescent/Adult
                // Patients", "Heart and Estrogen/progestin" of "… Replacement Study") qualify
                // a noun that follows: a phrase goes on to it.
                if last.joint == "/" {
                    continue;
                }
                let lower: Vec<String> = run.iter().map(|word| word.text.to_lowercase()).collect();
                let named_letter = |index: usize| run[index].is_letter_name(index > 0);
                if is_phrase(&lower, &named_letter) {
                    let mut surface = String::from(run[0].text);
                    for word in &run[1..] {
                        surface.push_str(word.joint);
                        surface.push_str(word.text);
                    }
                    out.push((lower, surface));
                }
            }
        }
    }
    out
}

/// A word of a clause as [`lower_words`] cuts it, whether a mark other than a space joins it to
/// the word before or after, and what stands between it and the word before (a space, or the
/// mark: "IXa/factor X" is written with its slash).
#[derive(Debug, Clone, Copy)]
struct ClauseWord<'a> {
    text: &'a str,
    glued_before: bool,
    glued_after: bool,
    joint: &'a str,
}

impl ClauseWord<'_> {
    /// A capital letter alone after a word is part of a name ("haemophilia A", "hepatitis C",
    /// "factor X"), not the article or a stray initial.
    fn is_letter_name(&self, after_a_word: bool) -> bool {
        after_a_word && !self.glued_before && self.text.len() == 1 && {
            let letter = self.text.as_bytes()[0];
            letter.is_ascii_uppercase()
        }
    }
}

/// A text's clauses (cut at punctuation that ends or brackets a phrase), each as its words.
fn clauses(text: &str) -> Vec<Vec<ClauseWord<'_>>> {
    let mut out = Vec::new();
    for clause in clause_texts(text) {
        let mut words: Vec<ClauseWord<'_>> = Vec::new();
        let mut previous_end: Option<usize> = None;
        for (start, word) in word_spans(clause) {
            let between = previous_end.map_or("", |end| &clause[end..start]);
            let glued = previous_end.is_some()
                && (between.is_empty() || !between.chars().all(char::is_whitespace));
            if glued && let Some(last) = words.last_mut() {
                last.glued_after = true;
            }
            words.push(ClauseWord {
                text: word,
                glued_before: glued,
                glued_after: false,
                joint: if glued { between } else { " " },
            });
            previous_end = Some(start + word.len());
        }
        if !words.is_empty() {
            out.push(words);
        }
    }
    out
}

/// A text cut at punctuation that ends or brackets a phrase. An en dash between two letters
/// joins a compound as a hyphen does ("Bone Marrow–Derived"); elsewhere it breaks like a dash.
fn clause_texts(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut previous: Option<char> = None;
    let mut characters = text.char_indices().peekable();
    while let Some((index, c)) = characters.next() {
        let next = characters.peek().map(|&(_, next)| next);
        let joins = c == '–'
            && previous.is_some_and(char::is_alphabetic)
            && next.is_some_and(char::is_alphabetic);
        let breaks = ".,;:!?()[]{}\"“”|—".contains(c) || (c == '–' && !joins);
        if breaks {
            out.push(&text[start..index]);
            start = index + c.len_utf8();
        }
        previous = Some(c);
    }
    out.push(&text[start..]);
    out
}

/// The words of a text: letters, digits, inner hyphens and apostrophes ("Cushing's"), with
/// their byte offsets.
fn word_spans(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let is_word = |c: char| c.is_alphanumeric() || matches!(c, '-' | '\'' | '’');
    let mut spans = Vec::new();
    let mut start = None;
    for (index, c) in text.char_indices() {
        match (is_word(c), start) {
            (true, None) => start = Some(index),
            (false, Some(from)) => {
                spans.push((from, &text[from..index]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(from) = start {
        spans.push((from, &text[from..]));
    }
    let mark = |c: char| matches!(c, '-' | '\'' | '’');
    spans.into_iter().filter_map(move |(start, word)| {
        let trimmed = word.trim_start_matches(mark);
        let start = start + (word.len() - trimmed.len());
        let trimmed = trimmed.trim_end_matches(mark);
        (!trimmed.is_empty()).then_some((start, trimmed))
    })
}

/// How the works' texts use their words: for each content word, how often it is written, how
/// often another word of its phrase follows it in the same clause (a content word, a number or
/// a letter of a name), how often "of" or "with" does, how often a content word comes
/// before it, how often an article or possessive follows it (its object: "mimicking the"),
/// and how often "and", "or" or its acronym does, which leaves open whether an adjective ends
/// a phrase.
#[derive(Debug, Default)]
struct Edges {
    counts: std::collections::HashMap<String, [u32; 8]>,
}

impl Edges {
    /// The statistics of texts already cut into clauses ([`clauses`]).
    fn of<'a, 'b: 'a>(texts: impl Iterator<Item = &'a Vec<Vec<ClauseWord<'b>>>>) -> Edges {
        let mut edges = Edges::default();
        for text in texts {
            for (at, clause) in text.iter().enumerate() {
                // A clause of one acronym is most likely the bracket of a definition,
                // "pharmacokinetic (PK) profile".
                let acronym_follows = text.get(at + 1).is_some_and(|next| {
                    next.len() == 1
                        && next[0].text.len() >= 2
                        && next[0]
                            .text
                            .chars()
                            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
                });
                for (index, word) in clause.iter().enumerate() {
                    let lower = word.text.to_lowercase();
                    if !is_content(&lower) {
                        continue;
                    }
                    let next = clause.get(index + 1);
                    // Before "and", "or" or its own acronym a word may go on modifying
                    // ("pharmacokinetic and pharmacodynamic profiles"): such a use tells
                    // nothing of whether a phrase may end on it.
                    let undecided = match next {
                        Some(next) => ["and", "or"]
                            .iter()
                            .any(|conjunction| next.text.eq_ignore_ascii_case(conjunction)),
                        None => acronym_follows,
                    };
                    let continued = next.is_some_and(|next| {
                        let lower = next.text.to_lowercase();
                        is_content(&lower)
                            || next.text.chars().all(|c| c.is_ascii_digit())
                            || next.is_letter_name(true)
                    });
                    let wants_of = next.is_some_and(|next| {
                        next.text.eq_ignore_ascii_case("of")
                            || next.text.eq_ignore_ascii_case("with")
                    });
                    let takes_object = next.is_some_and(|next| {
                        ["the", "a", "an", "its", "their"]
                            .iter()
                            .any(|article| next.text.eq_ignore_ascii_case(article))
                    });
                    let before = index
                        .checked_sub(1)
                        .map(|before| clause[before].text.to_lowercase());
                    let follows = before.as_deref().is_some_and(is_content);
                    let after_to = before.as_deref() == Some("to");
                    let after_determiner = before.as_deref().is_some_and(|before| {
                        ["the", "a", "an", "this", "these", "its", "their", "our"].contains(&before)
                    });
                    let counts = edges.counts.entry(lower).or_default();
                    counts[0] += 1;
                    counts[1] += u32::from(continued);
                    counts[2] += u32::from(wants_of);
                    counts[3] += u32::from(follows);
                    counts[4] += u32::from(takes_object);
                    counts[5] += u32::from(undecided);
                    counts[6] += u32::from(after_to);
                    counts[7] += u32::from(after_determiner);
                }
            }
        }
        edges
    }

    /// Whether the texts allow a phrase (lower-cased words) to begin and end where it does:
    /// it does not begin on an adverb nor end on a participle ("randomized", "acquired"); where
    /// the texts use its edge words often enough to tell, it does not end on a modifier, nor on
    /// a word wanting "of" or "with" after a function word, nor begin on the tail of a compound
    /// ("therapy" of "hormone replacement therapy"); and it holds no verb before its last word
    /// ([`Edges::is_finite_verb`]).
    fn allows(&self, phrase: &[String]) -> bool {
        let (Some(first), Some(last)) = (phrase.first(), phrase.last()) else {
            return false;
        };
        if is_participle(last) || is_adverb(first) {
            return false;
        }
        // "Compare the efficacy and safety of meloxicam" of "… study to compare the …": a word
        // the texts write after "to" at least half the times and never after an article or a
        // possessive is a verb's infinitive, which opens a clause, not a noun phrase.
        if self
            .counts
            .get(first.as_str())
            .is_some_and(|counts| 2 * counts[6] >= counts[0] && counts[6] > 0 && counts[7] == 0)
        {
            return false;
        }
        // "Bispecific antibody mimicking" of "… mimicking the function of FVIII": an -ing
        // word the texts more often than not write before its object is a verb.
        if last.ends_with("ing")
            && self
                .counts
                .get(last.as_str())
                .is_some_and(|counts| 2 * counts[4] > counts[0])
        {
            return false;
        }
        let share = |word: &str, part: usize| {
            self.counts
                .get(word)
                .filter(|counts| counts[0] >= MIN_SEEN)
                .map(|counts| f64::from(counts[part]) / f64::from(counts[0]))
        };
        // "Contextual and item" of "contextual and item recognition memory": two coordinated
        // words, the first an adjective by its ending that the texts never write as a plural
        // noun ("trials", "hospitals"), modify a noun the phrase cut off.
        if let [.., before, conjunction, _] = phrase
            && matches!(conjunction.as_str(), "and" | "or")
            && is_adjective(before)
            && !self.counts.contains_key(&format!("{before}s"))
        {
            return false;
        }
        let after_function_word = phrase
            .len()
            .checked_sub(2)
            .is_some_and(|before| !is_content(&phrase[before]));
        // The share of its uses in which another word of its phrase follows; for an adjective
        // by its ending, of the uses that tell (not before "and", "or" or its acronym: a noun
        // there, "health and well-being", is a noun that ends its phrase).
        let continued = |word: &str| {
            self.counts
                .get(word)
                .filter(|counts| counts[0] >= MIN_SEEN)
                .map(|counts| {
                    let undecided = if is_adjective(word) { counts[5] } else { 0 };
                    f64::from(counts[1]) / f64::from(counts[0].saturating_sub(undecided).max(1))
                })
        };
        continued(last).is_none_or(|continued| continued <= MODIFIER_SHARE)
            && !(after_function_word
                && share(last, 2).is_some_and(|wants_of| wants_of >= COMPLEMENT_SHARE))
            && share(first, 3).is_none_or(|follows| follows <= MODIFIER_SHARE)
            && !phrase[..phrase.len() - 1]
                .iter()
                .any(|word| self.is_finite_verb(word))
    }

    /// Whether a word ending in "s" is a verb the texts also write in the past ("provides"
    /// beside "provided", "predicts" beside "predicted"): a phrase holding one inside is a
    /// clause ("…every 4 weeks provides effective bleed prevention…"), not a noun phrase. A
    /// phrase's last word is spared: there the plural of a noun ("doses" beside "dosed") is
    /// the likelier reading.
    fn is_finite_verb(&self, word: &str) -> bool {
        let Some(stem) = word.strip_suffix('s') else {
            return false;
        };
        if word.len() < 5 || stem.ends_with(['s', 'u', 'i']) {
            return false;
        }
        let written = |form: String| self.counts.contains_key(&form);
        written(format!("{stem}d"))
            || written(format!("{stem}ed"))
            || stem
                .strip_suffix('e')
                .is_some_and(|shorter| written(format!("{shorter}ed")))
    }
}

/// Whether `word` (lower-case) reads as an adjective in `texts`: an adjective by its ending
/// that the texts never write as a plural noun ("mental", "cardiovascular"; not "analgesic"
/// beside "analgesics"). Alone, such a word names no topic.
pub fn reads_as_adjective(word: &str, texts: &[&str]) -> bool {
    let plural = format!("{word}s");
    is_adjective(word)
        && !texts.iter().any(|text| {
            text.split(|c: char| !c.is_alphanumeric())
                .any(|token| token.eq_ignore_ascii_case(&plural))
        })
}

/// An adjective by its ending ("contextual", "hepatic", "invasive", "vascular",
/// "inflammatory"); nouns with those endings ("hospital", "trial") are told apart by their
/// plurals in the texts.
fn is_adjective(word: &str) -> bool {
    const ENDINGS: &[&str] = &["al", "ic", "ive", "ous", "ary", "ar", "ile", "atory"];
    ENDINGS
        .iter()
        .any(|ending| word.len() > ending.len() + 2 && word.ends_with(ending))
}

/// An adverb by its ending ("effectively", "significantly"): it opens a clause, not a noun
/// phrase.
fn is_adverb(word: &str) -> bool {
    ["ally", "ively", "ently", "antly", "ously", "edly"]
        .iter()
        .any(|ending| word.len() > ending.len() + 2 && word.ends_with(ending))
}

/// A past participle by its ending ("controlled", "acquired", "derived") or an irregular one
/// ("born", "chosen"): titles use them as modifiers, never as a noun phrase's head. Short
/// words ("bed", "red") and "-eed" words ("speed", "need") are nouns as often.
fn is_participle(word: &str) -> bool {
    const IRREGULAR: &[&str] = &[
        "born", "chosen", "done", "drawn", "driven", "grown", "known", "made", "seen", "taken",
        "written",
    ];
    (word.len() >= 6 && word.ends_with("ed") && !word.ends_with("eed")) || IRREGULAR.contains(&word)
}

/// Whether a lower-cased word carries content: no stopword, no connector, a letter in it.
fn is_content(word: &str) -> bool {
    !is_stopword(word) && !CONNECTORS.contains(&word) && word.chars().any(char::is_alphabetic)
}

/// Whether lower-cased words make a title phrase: content words at both ends (a letter of a
/// name, `named_letter`, counts as one), connectors or content words inside, no number alone,
/// not made of generic words or title fillers only, and ending on neither; nor one whose head
/// before its complement names the work ("Study of emicizumab", [`names_only_its_complement`]):
/// the complement is a candidate of its own.
fn is_phrase(words: &[String], named_letter: &dyn Fn(usize) -> bool) -> bool {
    let content = |index: usize| is_content(&words[index]) || named_letter(index);
    let is_edge = |index: usize| content(index) && !NO_EDGE.contains(&words[index].as_str());
    let (Some(first), Some(last)) = (words.first(), words.last()) else {
        return false;
    };
    // A hyphenated word says nothing when none of its parts does ("meta-analysis").
    let says_nothing = |word: &str| {
        word.split('-')
            .all(|part| is_generic(part) || TITLE_FILLERS.contains(&part))
    };
    // An adjective heads no phrase, so no preposition follows it ("daily in patients with
    // rheumatoid arthritis" of "… once daily in patients with …"); "and" may ("mild and
    // moderate haemophilia").
    let adjective_before_a_preposition = words.windows(2).any(|pair| {
        NO_END.contains(&pair[0].as_str())
            && CONNECTORS.contains(&pair[1].as_str())
            && !COORDINATORS.contains(&pair[1].as_str())
    });
    is_edge(0)
        && is_edge(words.len() - 1)
        && !NO_END.contains(&last.as_str())
        && !adjective_before_a_preposition
        && (0..words.len())
            .all(|index| content(index) || CONNECTORS.contains(&words[index].as_str()))
        && (0..words.len())
            .filter(|index| content(*index))
            .any(|index| !says_nothing(&words[index]))
        && !says_nothing(last)
        && !TITLE_FILLERS.contains(&first.as_str())
        && !names_only_its_complement(words)
}

/// Words naming a work or what it does rather than its subject: heading a complement ("Study
/// of emicizumab", "Effect of gabapentin"), they leave the phrase naming only the complement.
/// Not "outcomes" or "association": "Long-term outcomes of emicizumab prophylaxis" says more
/// than its complement.
const WORK_NOUNS: &[&str] = &[
    "analyses",
    "analysis",
    "approach",
    "article",
    "data",
    "effect",
    "effects",
    "evidence",
    "findings",
    "literature",
    "method",
    "methods",
    "paper",
    "report",
    "reports",
    "research",
    "results",
    "review",
    "reviews",
    "role",
    "studies",
    "study",
    "trial",
    "trials",
    "use",
];

/// Whether the words before a phrase's first preposition end on a word naming the work
/// ([`WORK_NOUNS`]: "Study of emicizumab", "Prospective randomized clinical study of
/// mosaicplasty"): the phrase then names only what follows the preposition.
fn names_only_its_complement(words: &[String]) -> bool {
    words
        .iter()
        .position(|word| {
            CONNECTORS.contains(&word.as_str()) && !COORDINATORS.contains(&word.as_str())
        })
        .and_then(|at| at.checked_sub(1))
        .is_some_and(|head| WORK_NOUNS.contains(&words[head].as_str()))
}

/// A text's words, lower-cased, punctuation marking no word.
#[cfg(test)]
fn lower_words(text: &str) -> Vec<String> {
    clause_words(&clauses(text))
}

/// The words of a text's clauses, in order, lower-cased.
fn clause_words(clauses: &[Vec<ClauseWord<'_>>]) -> Vec<String> {
    clauses
        .iter()
        .flatten()
        .map(|word| word.text.to_lowercase())
        .collect()
}

/// Whether `words` holds `phrase` as consecutive words.
fn contains(words: &[String], phrase: &[String]) -> bool {
    words.windows(phrase.len()).any(|window| window == phrase)
}

/// Whether a phrase may end where it ends and stand as a name, read from how `texts` use its
/// words, as [`best_phrase`] judges its candidates: "low", "factor" or "functional" alone
/// (words the texts write before another) name nothing.
pub fn phrase_ends(texts: &[&str]) -> impl Fn(&str) -> bool + use<> {
    let edges = Edges::of(
        texts
            .iter()
            .map(|text| clauses(text))
            .collect::<Vec<_>>()
            .iter(),
    );
    move |phrase| {
        let key = clause_words(&clauses(phrase));
        !key.is_empty() && edges.allows(&key)
    }
}

/// The spelling a form is most often written in (the first by order among equals).
pub fn most_common(forms: &BTreeMap<String, usize>) -> String {
    forms
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(form, _)| form.clone())
        .unwrap_or_default()
}

/// Each word the texts spell two ways ("haemophilia" in one work, "hemophilia" in five), by
/// its spelling key: how many texts use each spelling.
fn spellings_of(
    docs: &[Vec<String>],
    doc_keys: &[Vec<String>],
) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut spellings: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for (doc, keys) in docs.iter().zip(doc_keys) {
        let mut seen: BTreeSet<(&String, &String)> = BTreeSet::new();
        for (word, key) in doc.iter().zip(keys) {
            if seen.insert((key, word)) {
                *spellings
                    .entry(key.clone())
                    .or_default()
                    .entry(word.clone())
                    .or_default() += 1;
            }
        }
    }
    spellings.retain(|_, written| written.len() > 1);
    spellings
}

/// The phrase as its titles spell it, or with each word spelt as most of the texts spell it
/// ([`majority_spelling`]) when more of the texts write it so: a phrase cut from the one title
/// that spells it the British way then reads as most of its works write it, and one that two
/// works write the British way keeps their spelling.
fn usual_spelling(
    surface: String,
    spellings: &BTreeMap<String, BTreeMap<String, usize>>,
    docs: &[Vec<String>],
) -> String {
    let respelt = majority_spelling(&surface, spellings);
    let uses = |phrase: &str| {
        let words: Vec<String> = phrase.split(' ').map(str::to_lowercase).collect();
        docs.iter().filter(|doc| contains(doc, &words)).count()
    };
    if respelt != surface && uses(&respelt) > uses(&surface) {
        respelt
    } else {
        surface
    }
}

/// The phrase with each word spelt as most of the texts spell it ([`spellings_of`]).
fn majority_spelling(
    phrase: &str,
    spellings: &BTreeMap<String, BTreeMap<String, usize>>,
) -> String {
    phrase
        .split(' ')
        .map(|word| {
            let lower = word.to_lowercase();
            let Some(written) = spellings.get(&spelling_key(&lower)) else {
                return word.to_owned();
            };
            let usual = most_common(written);
            if usual == lower || written.get(&lower) >= written.get(&usual) {
                return word.to_owned();
            }
            let mut characters = word.chars();
            match characters.next() {
                Some(first) if first.is_uppercase() && characters.all(char::is_lowercase) => {
                    let mut usual = usual.chars();
                    usual
                        .next()
                        .map(|first| first.to_uppercase().chain(usual).collect())
                        .unwrap_or_default()
                }
                _ if word == lower => usual,
                _ => word.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The phrase as it reads mid-sentence: each capitalised word with no other capital that the
/// texts also write lower-case is lower-cased.
fn in_sentence(phrase: &str, docs: &[Vec<String>]) -> String {
    phrase
        .split(' ')
        .map(|word| {
            // One capital alone ("haemophilia A") is a name, not a capitalised word; each part
            // of a word joined by a hyphen or an en dash is read apart ("Long-Term",
            // "Blood-Derived", "VIII–Mimetic").
            let plain_capital = |part: &str| {
                let mut characters = part.chars();
                characters.next().is_some_and(char::is_uppercase)
                    && characters.all(char::is_lowercase)
            };
            let whole_lower = word.to_lowercase();
            let written_lower = |lower: &str| docs.iter().any(|doc| doc.iter().any(|w| w == lower));
            let whole_plain = word.chars().count() > 1
                && word.split(['-', '–']).all(|part| {
                    part.is_empty() || plain_capital(part) || part.chars().all(char::is_lowercase)
                });
            if whole_plain && word.starts_with(char::is_uppercase) && written_lower(&whole_lower) {
                return whole_lower;
            }
            // A word joined by an en dash is written part by part ("VIII–mimetic").
            word.split_inclusive('–')
                .map(|part| {
                    let (body, dash) = match part.strip_suffix('–') {
                        Some(body) => (body, "–"),
                        None => (part, ""),
                    };
                    let lower = body.to_lowercase();
                    if body.chars().count() > 1 && plain_capital(body) && written_lower(&lower) {
                        format!("{lower}{dash}")
                    } else {
                        part.to_owned()
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Each acronym of the phrase that the texts define ("long form (SF)") written as its long
/// form with the acronym after it, once.
pub fn spell_out_acronyms(phrase: &str, texts: &[&str]) -> String {
    let definitions = definitions(texts);
    phrase
        .split(' ')
        .map(|word| match definitions.get(word) {
            Some(long) if !phrase.to_lowercase().contains(&long.to_lowercase()) => {
                format!("{long} ({word})")
            }
            _ => word.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The acronyms the texts define (`FVIII`), each with its most common long form (`factor
/// VIII`), as [`spell_out_acronyms`] reads them: a caller treats the two as one name.
pub fn acronym_definitions(texts: &[&str]) -> BTreeMap<String, String> {
    definitions(texts)
}

/// The acronyms the texts define, each with its most common long form: Schwartz and Hearst's
/// algorithm (a short form in brackets; its characters matched right to left within the words
/// before it, its first character opening a word).
fn definitions(texts: &[&str]) -> BTreeMap<String, String> {
    let mut found: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for text in texts {
        let mut rest = *text;
        let mut offset = 0;
        while let Some(open) = rest.find('(') {
            let after = &rest[open + 1..];
            let Some(close) = after.find(')') else { break };
            let short = after[..close].trim();
            let before = &text[..offset + open];
            if is_short_form(short)
                && let Some(long) = long_form(short, before)
            {
                *found
                    .entry(short.to_owned())
                    .or_default()
                    .entry(long)
                    .or_default() += 1;
            }
            offset += open + 1;
            rest = &text[offset..];
        }
    }
    found
        .into_iter()
        .map(|(short, longs)| (short, most_common(&longs)))
        .collect()
}

/// A short form: 2 to 10 characters, one word, starting with a letter or digit, with a capital.
fn is_short_form(short: &str) -> bool {
    (2..=10).contains(&short.chars().count())
        && !short.contains(char::is_whitespace)
        && short.starts_with(char::is_alphanumeric)
        && short.chars().any(char::is_uppercase)
}

/// The long form of `short` among the last words of `before`, if its characters can be found
/// there right to left, the first opening a word; at most min(|short| + 5, 2 × |short|) words.
fn long_form(short: &str, before: &str) -> Option<String> {
    let limit = (short.chars().count() + 5).min(2 * short.chars().count());
    let words: Vec<&str> = before.split_whitespace().rev().take(limit).collect();
    let candidate: String = words.into_iter().rev().collect::<Vec<_>>().join(" ");
    let long: Vec<char> = candidate.chars().collect();
    let short: Vec<char> = short.chars().map(|c| c.to_ascii_lowercase()).collect();
    let mut long_index = long.len();
    for (position, wanted) in short.iter().enumerate().rev() {
        if !wanted.is_alphanumeric() {
            continue;
        }
        loop {
            if long_index == 0 {
                return None;
            }
            long_index -= 1;
            let here = long[long_index].to_ascii_lowercase();
            let opens_word = long_index == 0 || !long[long_index - 1].is_alphanumeric();
            if here == *wanted && (position > 0 || opens_word) {
                break;
            }
        }
    }
    let start = long[..long_index]
        .iter()
        .rposition(|c| c.is_whitespace())
        .map_or(0, |space| space + 1);
    let text: String = long[start..].iter().collect();
    let text = text.trim().trim_end_matches(|c: char| !c.is_alphanumeric());
    (text.split_whitespace().count() >= 2 && text.len() > short.len()).then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjectives_are_told_from_nouns_by_the_plurals_the_texts_write() {
        let texts = [
            "Mental health and mental disorders after analgesics.",
            "An analgesic trial.",
        ];
        assert!(reads_as_adjective("mental", &texts));
        assert!(
            !reads_as_adjective("analgesic", &texts),
            "written as a plural: a noun"
        );
        assert!(!reads_as_adjective("health", &texts));
    }

    /// The spellings of a title's candidate phrases.
    fn surfaces(title: &str) -> Vec<String> {
        title_phrases(title)
            .into_iter()
            .map(|(_, surface)| surface)
            .collect()
    }

    #[test]
    fn two_spellings_of_a_phrase_count_as_one() {
        assert_eq!(spelling_key("haemophilia"), "hemophilia");
        assert_eq!(spelling_key("paediatric"), "pediatric");
        assert_eq!(spelling_key("ischaemic"), "ischemic");
        assert_eq!(spelling_key("oestrogen"), "estrogen");
        assert_eq!(spelling_key("cartilage"), "cartilage");
        // Two works write "haemophilia A", the rest "hemophilia A": the phrase does not set
        // the two apart, "emicizumab prophylaxis" does.
        let titles = [
            "Emicizumab prophylaxis in haemophilia A",
            "Emicizumab prophylaxis for children with haemophilia A",
        ];
        let others = [
            "Bleeding in hemophilia A",
            "Hemophilia A care",
            "Inhibitors in hemophilia A",
        ];
        let group = PhraseGroup {
            titles: &titles,
            texts: &titles,
        };
        let best = best_phrase(group, &others, 3, &|_| false).expect("a phrase");
        assert_eq!(best.text, "emicizumab prophylaxis");
        let score = |others: &[&str]| {
            ranked_phrases(group, others, 3, &|_| false)
                .into_iter()
                .find(|(_, phrase)| phrase.text.eq_ignore_ascii_case("haemophilia A"))
                .map(|(score, _)| score)
                .expect("ranked")
        };
        let british = others.map(|text| text.replace("emophilia", "aemophilia"));
        let british: Vec<&str> = british.iter().map(String::as_str).collect();
        assert!(
            (score(&others) - score(&british)).abs() < 1e-12,
            "the other works' hemophilia A counts against it as haemophilia A would"
        );
    }

    #[test]
    fn a_phrase_is_written_as_most_of_its_titles_spell_it() {
        // From Donners_2021: one title of a theme writes "persons with haemophilia A", three
        // "Persons with Hemophilia A"; the title read "Persons with haemophilia A", a phrase of
        // one work, because the British key sorts first.
        let titles = [
            "Emicizumab in persons with haemophilia A without inhibitors",
            "Emicizumab in Persons with Hemophilia A with Factor VIII Inhibitors",
            "Bleed prevention in Persons with Hemophilia A without Inhibitors",
            "Joint health in Persons with Hemophilia A treated with emicizumab",
        ];
        let others = ["Gene therapy for sickle cell disease", "Iron chelation"];
        // Two titles writing "haemophilia A with inhibitors" keep their spelling.
        let british = [
            "Haemophilia A with inhibitors in children",
            "Haemophilia A with inhibitors: a registry",
            "Emicizumab in hemophilia A",
            "Hemophilia A care",
            "Bleeds in hemophilia A",
        ];
        let kept = ranked_phrases(
            PhraseGroup {
                titles: &british,
                texts: &british,
            },
            &others,
            2,
            &|_| false,
        );
        assert!(
            kept.iter()
                .any(|(_, phrase)| phrase.text == "haemophilia A with inhibitors"),
            "{kept:?}"
        );
        let group = PhraseGroup {
            titles: &titles,
            texts: &titles,
        };
        let ranked = ranked_phrases(group, &others, 2, &|_| false);
        let persons: Vec<&Phrase> = ranked
            .iter()
            .map(|(_, phrase)| phrase)
            .filter(|phrase| phrase.text.to_lowercase().starts_with("persons with"))
            .collect();
        assert!(!persons.is_empty(), "{ranked:?}");
        for phrase in persons {
            assert!(phrase.text.contains("hemophilia"), "{phrase:?}");
            assert!(!phrase.head.contains("haem"), "{phrase:?}");
        }
        // A head taken in either spelling is taken.
        let taken = ranked_phrases(group, &others, 2, &|head| head == "haemophilia");
        assert!(
            taken.iter().all(|(_, phrase)| phrase.head != "hemophilia"),
            "{taken:?}"
        );
    }

    #[test]
    fn plus_joins_inside_a_phrase_and_opens_none() {
        // From Nelson_2002: a paragraph reported "on plus progestin".
        let phrases = surfaces("Estrogen plus progestin and the risk of breast cancer");
        assert!(
            !phrases.iter().any(|phrase| phrase.starts_with("plus")),
            "{phrases:?}"
        );
        assert!(
            phrases.contains(&"Estrogen plus progestin".to_owned()),
            "{phrases:?}"
        );
    }

    #[test]
    fn a_word_naming_the_work_before_its_complement_opens_no_phrase() {
        // From Donners_2021: a theme of 27 works was titled "Study of emicizumab".
        let phrases = surfaces("A Study of Emicizumab Prophylaxis in Children with Hemophilia A");
        assert!(
            !phrases.iter().any(|phrase| phrase.starts_with("Study")),
            "{phrases:?}"
        );
        assert!(
            phrases.contains(&"Emicizumab Prophylaxis".to_owned()),
            "{phrases:?}"
        );
        let phrases = surfaces("Prospective randomized clinical study of mosaicplasty");
        assert!(
            !phrases.iter().any(|phrase| phrase.contains("study of")),
            "{phrases:?}"
        );
        assert!(
            surfaces("Long-term outcomes of emicizumab prophylaxis")
                .contains(&"Long-term outcomes of emicizumab prophylaxis".to_owned()),
            "outcomes are no work"
        );
        // A generic word modifying the next one still opens a phrase.
        assert!(
            surfaces("Low back pain in nurses").contains(&"Low back pain".to_owned()),
            "{:?}",
            surfaces("Low back pain in nurses")
        );
    }

    #[test]
    fn alternatives_joined_by_a_slash_are_no_phrase_alone() {
        // From Donners_2021: a theme was titled "Adolescent/Adult".
        let phrases =
            surfaces("Emicizumab Prophylaxis in Adolescent/Adult Patients with Hemophilia A");
        assert!(
            !phrases.iter().any(|phrase| phrase.ends_with("/Adult")),
            "{phrases:?}"
        );
        assert!(
            phrases.contains(&"Adolescent/Adult Patients with Hemophilia A".to_owned()),
            "{phrases:?}"
        );
    }

    #[test]
    fn an_adjective_and_a_noun_that_both_modify_a_cut_off_noun_name_nothing() {
        // From Sep_2021: a theme was titled "Contextual and item".
        let texts = [
            "The entorhinal cortex contributes to contextual and item recognition memory.",
            "Contextual fear and contextual memory rely on the hippocampus.",
            "Treatment and prevention of bleeding. Trial and error in dosing across trials.",
        ];
        let ends = phrase_ends(&texts);
        assert!(!ends("contextual and item"));
        assert!(ends("contextual and item recognition memory"));
        assert!(ends("treatment and prevention"));
        assert!(ends("trial and error"));
        // From Donners_2021: a theme was titled "Bispecific antibody mimicking".
        let texts = [
            "A bispecific antibody mimicking the cofactor function of FVIII.",
            "Emicizumab, a bispecific antibody mimicking the function of FVIIIa, and bleeding.",
            "Bleeding fell with prophylaxis; bleeding recurred.",
        ];
        let ends = phrase_ends(&texts);
        assert!(!ends("bispecific antibody mimicking"));
        assert!(ends("bispecific antibody"));
        assert!(ends("bleeding"));
        // From Donners_2021: a theme was titled "Population pharmacokinetic"; the texts write
        // the word before a noun but where "and" or its acronym follows it.
        let texts = [
            "Its pharmacokinetic (PK) profile and pharmacokinetic and pharmacodynamic data.",
            "A population pharmacokinetic model. The pharmacokinetic (PK) parameters.",
            "Pharmacokinetic profiles were similar; the bleeding rate fell.",
        ];
        let ends = phrase_ends(&texts);
        assert!(!ends("population pharmacokinetic"));
        assert!(ends("population pharmacokinetic model"));
    }

    #[test]
    fn a_word_the_texts_write_before_another_names_nothing_alone() {
        // From Donners_2021: a paragraph opened "Turning to factor, …".
        let texts = [
            "Emicizumab mimics factor VIII. Factor VIII replacement is costly.",
            "Inhibitors to factor VIII arise. Factor IX and factor X are bridged.",
            "Bleeding fell with emicizumab prophylaxis.",
        ];
        let ends = phrase_ends(&texts);
        assert!(!ends("factor"));
        assert!(ends("factor VIII"));
        assert!(ends("emicizumab prophylaxis"));
        assert!(!ends(""));
    }

    #[test]
    fn an_en_dash_between_letters_joins_a_compound() {
        // From Jeyaraman_2020: "Marrow–Derived" was cut at its dash, and a paragraph's topic
        // read "derived mesenchymal stem cells".
        let phrases = surfaces("Bone Marrow–Derived Mesenchymal Stem Cells for Knee Repair");
        assert!(
            phrases.contains(&"Bone Marrow–Derived Mesenchymal Stem Cells".to_owned()),
            "{phrases:?}"
        );
        assert!(
            !phrases.iter().any(|phrase| phrase.starts_with("Derived")),
            "{phrases:?}"
        );
        assert!(phrases.contains(&"Bone Marrow".to_owned()), "{phrases:?}");
        assert!(
            !phrases.iter().any(|phrase| phrase.ends_with("Derived")),
            "{phrases:?}"
        );
        let docs = vec![lower_words("bone marrow derived mesenchymal stem cells")];
        assert_eq!(
            in_sentence("Bone Marrow–Derived Mesenchymal Stem Cells", &docs),
            "bone marrow–derived mesenchymal stem cells"
        );
        // A range or a spaced dash still breaks.
        assert_eq!(
            clause_texts("1999–2005 cohort – a study"),
            ["1999", "2005 cohort ", " a study"]
        );
    }

    #[test]
    fn a_title_in_capitals_is_spelt_as_the_texts_write_its_words() {
        // From Jeyaraman_2020: one title in capitals gave the heading "CARTILAGE REPAIR OF THE
        // KNEE".
        let texts = [
            "AUTOLOGOUS CHONDROCYTE IMPLANTATION IN CARTILAGE REPAIR OF THE KNEE JOINT",
            "Cartilage repair of the knee after MRI staging.",
        ];
        let shouted = BTreeMap::from([("CARTILAGE REPAIR OF THE KNEE MRI".to_owned(), 1)]);
        assert_eq!(
            spelling(shouted.clone(), &texts),
            "cartilage repair of the knee MRI"
        );
        let mut both = shouted;
        both.insert("Cartilage Repair of the Knee MRI".to_owned(), 1);
        assert_eq!(spelling(both, &texts), "Cartilage Repair of the Knee MRI");
    }

    #[test]
    fn single_capitals_stay_and_quantifiers_end_no_phrase() {
        let docs = vec![lower_words("a cut in haemophilia a")];
        assert_eq!(in_sentence("Haemophilia A", &docs), "haemophilia A");
        let phrases: Vec<String> = surfaces("Emicizumab given every week");
        assert!(
            !phrases.iter().any(|phrase| phrase.ends_with("every")),
            "{phrases:?}"
        );
        assert!(
            !phrases.iter().any(|phrase| phrase.ends_with("given")),
            "{phrases:?}"
        );
    }

    /// The surfaces of a title's candidate phrases that the texts let end where they end.
    fn ends_allowed(title: &str, texts: &[&str]) -> Vec<String> {
        let cut: Vec<_> = texts.iter().map(|text| clauses(text)).collect();
        let edges = Edges::of(cut.iter());
        title_phrases(title)
            .into_iter()
            .filter(|(key, _)| edges.allows(key))
            .map(|(_, surface)| surface)
            .collect()
    }

    #[test]
    fn the_texts_say_where_a_phrase_may_end() {
        let texts = [
            "Emicizumab for the treatment of acquired haemophilia A in adults.",
            "Acquired haemophilia A is rare; the treatment of acquired haemophilia A is hard.",
            "In acquired haemophilia A, bleeds are treated with bypassing agents.",
            "The treatment of bleeds with emicizumab.",
            "Emicizumab every 4 weeks provides bleed prevention, as dosing provided it before.",
        ];
        let phrases = ends_allowed(
            "Emicizumab for the treatment of acquired haemophilia A",
            &texts,
        );
        assert!(
            phrases.contains(&"treatment of acquired haemophilia A".to_owned()),
            "a capital letter after a word is part of a name: {phrases:?}"
        );
        for cut in ["acquired", "treatment", "haemophilia"] {
            assert!(
                !phrases.iter().any(|phrase| phrase.ends_with(cut)),
                "{cut} ends no phrase here: {phrases:?}"
            );
        }
        let clause = ends_allowed("Emicizumab every 4 weeks provides bleed prevention", &texts);
        assert!(
            !clause.iter().any(|phrase| phrase.contains("provides")),
            "a verb inside makes a clause: {clause:?}"
        );
        assert!(
            clause.contains(&"bleed prevention".to_owned()),
            "{clause:?}"
        );
    }

    #[test]
    fn words_joined_by_a_mark_are_not_cut_apart() {
        let phrases: Vec<String> =
            surfaces("A factor IXa/X bispecific antibody in Cushing's syndrome");
        assert!(
            !phrases.iter().any(|phrase| phrase.starts_with("X ")),
            "{phrases:?}"
        );
        let named: Vec<String> = surfaces("An anti-factor IXa/factor X bispecific antibody");
        assert!(
            named.contains(&"IXa/factor X bispecific antibody".to_owned()),
            "{named:?}"
        );
        assert!(
            !named.iter().any(|phrase| phrase.starts_with("X ")),
            "{named:?}"
        );
        assert!(
            !phrases.iter().any(|phrase| phrase.ends_with("IXa")),
            "{phrases:?}"
        );
        assert!(
            phrases.contains(&"Cushing's syndrome".to_owned()),
            "{phrases:?}"
        );
        assert_eq!(
            in_sentence("Long-Term Outcomes", &[lower_words("long-term outcomes")]),
            "long-term outcomes"
        );
    }

    #[test]
    fn acronyms_are_found_as_schwartz_and_hearst_find_them() {
        let texts = [
            "Emicizumab in people with haemophilia A (PwHA) and inhibitors.",
            "Bone mineral density (BMD) fell in men.",
            "A cut (in two) is no acronym.",
        ];
        let found = definitions(&texts);
        assert_eq!(found["PwHA"], "people with haemophilia A");
        assert_eq!(found["BMD"], "Bone mineral density");
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(
            spell_out_acronyms("Emicizumab prophylaxis in PwHA", &texts),
            "Emicizumab prophylaxis in people with haemophilia A (PwHA)"
        );
    }

    #[test]
    fn a_phrase_is_used_by_two_works_distinct_of_the_others_and_not_taken() {
        let knee_titles = [
            "Stem cell injection for knee osteoarthritis: a randomised trial",
            "Stem Cell Injection versus hyaluronic acid in knee osteoarthritis",
            "Knee osteoarthritis after stem cell injection",
        ];
        let hip = [
            "Hip osteoarthritis and walking",
            "Walking in hip osteoarthritis",
        ];
        let group = PhraseGroup {
            titles: &knee_titles,
            texts: &knee_titles,
        };
        let free = |_: &str| false;
        let best = best_phrase(group, &hip, 2, &free).expect("a phrase");
        assert_eq!(best.text, "stem cell injection");
        assert_eq!(best.head, "injection");
        let taken = |head: &str| head == "injection";
        let next = best_phrase(group, &hip, 2, &taken).expect("another phrase");
        assert_eq!(next.text, "knee osteoarthritis");
        let lone = ["Walking speed", "Reading"];
        let group = PhraseGroup {
            titles: &lone,
            texts: &lone,
        };
        assert_eq!(
            best_phrase(group, &hip, 2, &free),
            None,
            "no phrase in two works"
        );
    }

    #[test]
    fn an_infinitive_or_an_adverb_before_a_preposition_opens_no_phrase() {
        // Titles and sentences of the Cohen 2006 NSAIDS set.
        let texts = [
            "A double-blind study to compare the efficacy and safety of meloxicam 15 mg with piroxicam 20 mg in patients with osteoarthritis of the hip.",
            "To compare the efficacy and safety of meloxicam and diclofenac, patients were randomized.",
            "Meloxicam 7.5 mg once daily in patients with rheumatoid arthritis: a comparison with naproxen.",
            "Meloxicam given once daily in patients with rheumatoid arthritis was well tolerated.",
            "The efficacy and safety of meloxicam in rheumatoid arthritis.",
        ];
        let phrases = ends_allowed(texts[0], &texts);
        assert!(
            !phrases.iter().any(|phrase| phrase.starts_with("compare")),
            "{phrases:?}"
        );
        assert!(
            phrases.contains(&"efficacy and safety of meloxicam".to_owned()),
            "{phrases:?}"
        );
        let daily = surfaces(texts[2]);
        assert!(
            !daily.iter().any(|phrase| phrase.starts_with("daily in")),
            "{daily:?}"
        );
        assert!(
            daily.contains(&"patients with rheumatoid arthritis".to_owned()),
            "{daily:?}"
        );
        assert!(reads_as_adjective("inflammatory", &texts));
        // A noun the texts write after "to" and after "the" still opens a phrase.
        let therapy = [
            "Response to treatment of knee osteoarthritis.",
            "The treatment of knee osteoarthritis with meloxicam.",
        ];
        assert!(
            ends_allowed(therapy[1], &therapy)
                .contains(&"treatment of knee osteoarthritis".to_owned())
        );
    }

    #[test]
    fn phrases_open_and_close_on_content_words() {
        let phrases: Vec<String> = surfaces("Effects of emicizumab on bleeding in children");
        assert!(
            phrases.contains(&"emicizumab on bleeding".to_owned()),
            "{phrases:?}"
        );
        assert!(
            !phrases.iter().any(|phrase| phrase.ends_with(" in")),
            "{phrases:?}"
        );
        assert!(
            !phrases.iter().any(|phrase| phrase.starts_with("of ")),
            "{phrases:?}"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        #[test]
        fn hostile_titles_give_a_phrase_of_their_own_words_or_none(
            a in litrev_testkit::hostile::text_with(vec!["of", "in", "(", ")", "PwHA"], 12),
            b in litrev_testkit::hostile::text_with(vec!["of", "in", "(", ")", "PwHA"], 12),
        ) {
            let texts = [a.as_str(), b.as_str()];
            let group = PhraseGroup { titles: &texts, texts: &texts };
            if let Some(phrase) = best_phrase(group, &texts, 2, &|_| false) {
                let lower = format!("{a} {b}").to_lowercase();
                for word in phrase.text.split(' ') {
                    proptest::prop_assert!(lower.contains(&word.to_lowercase()), "{word}");
                }
            }
            let spelled = spell_out_acronyms(&a, &texts);
            for word in a.split(' ') {
                proptest::prop_assert!(spelled.contains(word), "{word} lost from {spelled}");
            }
        }
    }
}
