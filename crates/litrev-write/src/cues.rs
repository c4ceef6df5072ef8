//! What the extractive writer reads off a sentence it may quote, or a word it may name a topic
//! by: whether a finding reports an effect, no effect or harms; whether a sentence leans on the
//! one before it or is a bare purpose; whether a word can name a topic, and the phrase it opens.
//!
//! Cue lists, not a parser: each rule was checked on the SYNERGY abstracts the reviews quote.

use std::collections::{BTreeMap, BTreeSet};

use litrev_text::{
    content_words, counts_included_studies, reads_as_adjective, stem, terms, word_tokens,
};

/// A sentence that is only a purpose ("To review recent progress in …."), lower-cased to follow
/// a subject; `None` for a sentence with its own subject ("To date, …", "To our knowledge, …")
/// or one that goes on past a comma into a main clause.
pub(crate) fn purpose_clause(text: &str) -> Option<String> {
    let rest = text.strip_prefix("To ")?;
    let verb = rest.split_whitespace().next()?;
    let is_verb = verb.chars().all(|c| c.is_ascii_lowercase())
        && ![
            "date", "our", "this", "the", "that", "these", "those", "a", "an",
        ]
        .contains(&verb);
    (is_verb && !rest.contains(", we ") && !rest.contains(", the ")).then(|| format!("to {rest}"))
}

/// Whether a sentence speaks as its authors (we, our, us) or points at what only its paper
/// holds (this study, these results, a figure or table): quoted bare, it would seem to speak
/// for the review, so it is attributed with a reporting verb.
pub(crate) fn speaks_for_its_paper(sentence: &str) -> bool {
    const OPENERS: &[&str] = &[
        "this study",
        "the present study",
        "the current study",
        "the present work",
        "the present paper",
        "the present analysis",
        "in this study",
        "in the present study",
        "in the current study",
        "herein",
        "this paper",
        "this trial",
        "this work",
        "this analysis",
        "this review",
        "this article",
        "this report",
        "these ",
        "those ",
        // "This is borne out by a double-blind comparison …": what "this" is, only the
        // paper's sentence before says.
        "this is ",
        "this was ",
        "such ",
        "it ",
        "they ",
        "their ",
        "its ",
    ];
    const PAPER_WORDS: &[&str] = &["we", "our", "us", "ours", "fig", "figure", "table"];
    let lower = sentence.trim_start().to_lowercase();
    OPENERS.iter().any(|opener| lower.starts_with(opener))
        || names_its_paper(&lower)
        || lower
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| PAPER_WORDS.contains(&word))
}

/// Whether a lower-cased sentence opens on its own paper by a kind of study: "the study
/// population…", "the review describes…", "this randomised trial…", "this open-label,
/// multicentre study…", "the present systematic review…".
fn names_its_paper(lower: &str) -> bool {
    const KINDS: &[&str] = &[
        "study",
        "studies",
        "trial",
        "review",
        "analysis",
        "meta-analysis",
        "paper",
        "article",
        "report",
        "survey",
        "investigation",
        "authors",
    ];
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|word| !word.is_empty())
        .collect();
    match words.as_slice() {
        // "The study of bleeding disorders…" is a field, not the paper.
        ["the", kind, next, ..] if KINDS.contains(kind) => *next != "of",
        ["this" | "the", rest @ ..] => {
            let opens_on_this = words[0] == "this"
                || rest
                    .first()
                    .is_some_and(|word| ["present", "current"].contains(word));
            opens_on_this && rest.iter().take(4).any(|word| KINDS.contains(word))
        }
        _ => false,
    }
}

/// Whether a sentence came out of its record damaged, so that quoting it would put broken text
/// in the review: it starts inside a word or a sentence (a lower-case letter), ends without a
/// stop (cut short), carries markup or entities (`<i>`, `&amp;`, TeX braces), a replacement
/// character, unbalanced brackets, words run together (`resultsThe`), or an opening word that
/// lost its first letter (`He articles used…` for "The articles").
pub(crate) fn is_damaged(sentence: &str) -> bool {
    let text = sentence.trim();
    let starts_inside = text.chars().next().is_some_and(char::is_lowercase);
    let mut words = text.split_whitespace();
    let lost_letter = match (words.next(), words.next()) {
        // "He" before a plural noun is "The" cut short; before "was" or "has" it is "he". A
        // case report's "He reports…" reads as cut too: one quote fewer, never a broken one.
        (Some("He"), Some(next)) => {
            next.len() > 3
                && next.starts_with(char::is_lowercase)
                && next.ends_with('s')
                && !next.ends_with("ss")
                && !["was", "has", "does", "is"].contains(&next)
        }
        (Some(first), _) => ["Hese", "Hose", "Hey"].contains(&first),
        _ => false,
    };
    let cut_short = !text.ends_with(['.', '!', '?', '"', '”', ')', ']', '’', '\'']);
    // `<` and `>` alone are comparisons (p < 0.05); before a letter or a slash, a tag.
    let tag = text
        .match_indices('<')
        .any(|(at, _)| text[at + 1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/'));
    let markup = tag
        || text.contains(['{', '}', '\\', '\u{FFFD}'])
        || ["&amp;", "&lt;", "&gt;", "&#", "&nbsp;"]
            .iter()
            .any(|entity| text.contains(entity));
    let depth = |open: char, close: char| {
        text.chars().filter(|c| *c == open).count() != text.chars().filter(|c| *c == close).count()
    };
    let unbalanced = depth('(', ')') || depth('[', ']');
    let run_together = text.split_whitespace().any(|word| {
        let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
        letters.len() == word.chars().count()
            && letters
                .windows(3)
                .any(|w| w[0].is_lowercase() && w[1].is_lowercase() && w[2].is_uppercase())
            && letters.iter().filter(|c| c.is_uppercase()).count() == 1
    });
    starts_inside
        || lost_letter
        || cut_short
        || markup
        || unbalanced
        || run_together
        || lost_symbols(text)
}

/// Whether a sentence's statistics lost their symbols on the way into the record, as Web of
/// Science's text of some abstracts did: "95 CI" for "95% CI", and an interval's two bounds run
/// together when its dash was dropped ("95 CI: 0.490.99" for "0.49–0.99").
fn lost_symbols(text: &str) -> bool {
    // Brackets and stops around a word go; its own marks ("95%") stay.
    let words: Vec<&str> = text
        .split_whitespace()
        .map(|word| word.trim_matches(['(', ')', '[', ']', ',', ';', ':', '.']))
        .collect();
    let no_percent = words
        .windows(2)
        .any(|pair| pair[0] == "95" && matches!(pair[1], "CI" | "Cl"));
    // Dates (12.05.2010) and versions (0.10.2) have short middles; two decimals run together
    // have at least three digits between their points.
    let bounds_run_together = words.iter().any(|word| {
        let parts: Vec<&str> = word.split('.').collect();
        parts.len() >= 3
            && parts
                .iter()
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
            && parts[1..parts.len() - 1].iter().any(|part| part.len() >= 3)
    });
    no_percent || bounds_run_together
}

/// Whether a sentence leans on the one before it ("This suggests…", "In this group…",
/// "However, …"): quoted alone it says less, so another of the work's sentences goes first.
pub(crate) fn leans_on_context(sentence: &str) -> bool {
    const OPENERS: &[&str] = &[
        "this suggests",
        "this indicates",
        "this shows",
        "this may",
        "this could",
        "this is ",
        "this was ",
        "these ",
        "those ",
        "it ",
        "its ",
        "they ",
        "such ",
        "in particular",
        "specifically",
        "by contrast",
        "in turn",
        "instead",
        "alternatively",
        "additionally",
        "likewise",
        "conversely",
        "hence",
        "accordingly",
        "as a result",
        "on the other hand",
        "in this group",
        "in these patients",
        "of these",
        "of them",
        "of those",
        "among these",
        "among them",
        "among those",
        "in both",
        "both ",
        "in this population",
        "in addition",
        "however",
        "moreover",
        "furthermore",
        "therefore",
        "thus",
        "in contrast",
        "similarly",
        "finally",
        "nevertheless",
        "consequently",
        "most notably",
        "most importantly",
        "in this context",
        "in this setting",
        "in this regard",
        "to this end",
        "for this reason",
        "for this purpose",
        "at the same time",
        "even so",
        "yet ",
        "yet,",
        "first,",
        "second,",
        "third,",
        "lastly",
        // A sentence opening on a conjunction goes on from the one before ("But the
        // sanctuaries face threats …").
        "but ",
        "and ",
        "or ",
        "nor ",
        // What comes second or is the other one needs the first ("Another is that it …",
        // "A third version, currently in progress, …").
        "another ",
        "a second ",
        "a third ",
        "the latter",
        "the former",
    ];
    let lower = sentence.trim_start().to_lowercase();
    OPENERS.iter().any(|opener| lower.starts_with(opener))
        || points_back(&lower)
        || says_such(&lower)
}

/// Whether a lower-cased sentence says "such" of something it does not name ("… the
/// application of such interventions globally", "in such cases"): what it is, the sentence
/// before said. "Such as" and "such that" name it there.
fn says_such(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    words
        .windows(2)
        .any(|pair| pair[0] == "such" && !matches!(pair[1], "as" | "that"))
}

/// Whether a lower-cased sentence opens on "this" or "that" pointing at what the sentence
/// before said ("This severely limits …", "This way, …", "That is, …"), not at its own paper
/// ("This paper presents …", which [`speaks_for_its_paper`] attributes instead).
fn points_back(lower: &str) -> bool {
    const PAPER: &[&str] = &["work", "chapter", "thesis", "note", "essay", "project"];
    let Some(rest) = lower
        .strip_prefix("this ")
        .or_else(|| lower.strip_prefix("that "))
    else {
        return false;
    };
    let next: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '-')
        .collect();
    !PAPER.contains(&next.as_str()) && !names_its_paper(lower)
}

/// Whether the rest of a sentence after its subject ("This study", "Our study") opens on
/// its verb ("shows", "was", "also found"), so the subject can become the cited work; "This
/// study design will …" goes on naming the subject, and "The study by X design" is no
/// sentence.
pub(crate) fn opens_on_a_verb(rest: &str) -> bool {
    const AUXILIARIES: &[&str] = &[
        "is",
        "was",
        "are",
        "were",
        "has",
        "had",
        "have",
        "will",
        "would",
        "can",
        "could",
        "may",
        "might",
        "should",
        "must",
        "did",
        "does",
        "do",
        "also",
        "further",
        "thus",
        "therefore",
        "then",
        "not",
        "still",
        "again",
        "first",
    ];
    const NOUNS: &[&str] = &[
        "participants",
        "patients",
        "subjects",
        "results",
        "findings",
        "outcomes",
        "methods",
        "data",
        "objectives",
        "series",
    ];
    let Some(word) = rest.split_whitespace().next() else {
        return false;
    };
    let word = word
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    if AUXILIARIES.contains(&word.as_str()) {
        return true;
    }
    if word == "aims" {
        return rest.split_whitespace().nth(1) == Some("to");
    }
    if NOUNS.contains(&word.as_str()) {
        return false;
    }
    word.ends_with("ed")
        || word.ends_with("ly")
        || (word.ends_with('s')
            && !word.ends_with("ss")
            && !word.ends_with("is")
            && !word.ends_with("us"))
}

/// Whether a distinctive word can name what works share: "Evidence on treated", "on clinical"
/// or "Turning to year" names nothing, so participles, adverbs, the commonest adjective
/// endings, prefixes and units or measures are left out.
pub(crate) fn could_be_a_topic(word: &str) -> bool {
    // Units and measures every trial reports ("Turning to year, …", "… take up score")
    // name what was counted, not what a group of works is about.
    const MEASURES: &[&str] = &[
        "year",
        "years",
        "month",
        "months",
        "week",
        "weeks",
        "day",
        "days",
        "time",
        "times",
        "score",
        "scores",
        "rate",
        "rates",
        "level",
        "levels",
        "value",
        "values",
        "point",
        "points",
        "number",
        "mean",
        "median",
        "ratio",
        "change",
        "changes",
        "difference",
        "differences",
        "baseline",
        "follow-up",
        "total",
    ];
    // Words joining two others ("… report on plus progestin") open no topic.
    const JOINERS: &[&str] = &["plus", "versus", "vs", "via", "per"];
    let lower = word.to_lowercase();
    could_end_a_topic(word)
        && !MEASURES.contains(&lower.as_str())
        && !JOINERS.contains(&lower.as_str())
}

/// Whether a word, said alone, names how works were done or compared, what kind of document
/// they are, or qualifies what it does not name, rather than what they are about: "also bear
/// on placebo", "Turning to treatment", "Evidence on quality", "take up health" or "report on
/// abstracts" tells the reader nothing of the works. The word may still open a phrase that
/// does ("quality of life", "treatment of spasticity").
pub(crate) fn names_no_subject_alone(word: &str) -> bool {
    const WAYS: &[&str] = &[
        "abstract",
        "abstracts",
        "approach",
        "approaches",
        "benefit",
        "benefits",
        "blind",
        "component",
        "components",
        "context",
        "control",
        "controls",
        "current",
        "dependent",
        "different",
        "drug",
        "drugs",
        "framework",
        "frameworks",
        "health",
        "independent",
        "influence",
        "intervention",
        "interventions",
        "management",
        "methodology",
        "new",
        "novel",
        "placebo",
        "quality",
        "regimen",
        "regimens",
        "response",
        "responses",
        "task",
        "tasks",
        "technique",
        "techniques",
        "test",
        "tests",
        "therapy",
        "therapies",
        "treatment",
        "treatments",
    ];
    WAYS.contains(&word.to_lowercase().as_str())
}

/// Whether a word may end a topic after the word it follows ("pain score", "stem cells"):
/// no participle, adverb, common adjective ending nor prefix.
fn could_end_a_topic(word: &str) -> bool {
    // Prefixes a hyphen cut off their word ("anti" of "anti-FIXa") name nothing alone.
    const PREFIXES: &[&str] = &[
        "anti", "co", "inter", "intra", "multi", "non", "post", "pre", "pro", "re", "semi", "sub",
    ];
    let lower = word.to_lowercase();
    !["ed", "ly", "ical", "ous", "ive"]
        .iter()
        .any(|ending| lower.ends_with(ending))
        && !PREFIXES.contains(&lower.as_str())
}

/// `word` with the word that follows it in most of its uses in `texts`, when
/// that is a content word: `stem` → `stem cells` (singular and plural counted together, the
/// commoner written).
pub(crate) fn phrase_of(word: &str, texts: &[String]) -> String {
    let lower = word.to_lowercase();
    let mut uses = 0usize;
    // Per following word, singular and plural together: how often, and each spelling's count.
    let documents: Vec<Vec<String>> = texts.iter().map(|text| word_tokens(text)).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut next_words: BTreeMap<&str, (usize, BTreeMap<&str, usize>)> = BTreeMap::new();
    for tokens in &documents {
        for pair in tokens.windows(2) {
            if pair[0] == lower {
                uses += 1;
                let next = pair[1].as_str();
                let key = if next.len() > 3 {
                    next.trim_end_matches('s')
                } else {
                    next
                };
                let entry = next_words.entry(key).or_default();
                entry.0 += 1;
                *entry.1.entry(next).or_default() += 1;
            }
        }
    }
    next_words
        .into_values()
        .filter(|(count, spellings)| {
            let next = spellings.keys().next().copied().unwrap_or("");
            *count >= 2
                && count * 2 > uses
                && !content_words(next).is_empty()
                && could_end_a_topic(next)
                && !reads_as_adjective(next, &refs)
                && !["plus", "versus", "vs"].contains(&next)
        })
        .max_by_key(|(count, _)| *count)
        .and_then(|(_, spellings)| {
            spellings
                .into_iter()
                .max_by_key(|(_, count)| *count)
                .map(|(next, _)| format!("{word} {next}"))
        })
        .unwrap_or_else(|| word.to_owned())
}

/// Words of a result sentence reporting an effect: a change, a difference or a benefit.
const EFFECT_CUES: &[&str] = &[
    "improv",
    "significant",
    "effective",
    "reduc",
    "increas",
    "decreas",
    "better",
    "superior",
    "benefit",
    "associated with",
];

/// Words of a result sentence reporting an absence of effect. "Did not" counts only with a verb
/// of effect ("the participants who did not report…" is no finding).
const NO_EFFECT_CUES: &[&str] = &[
    "no significant",
    "not significant",
    "non-significant",
    "nonsignificant",
    "no statistically significant",
    "not statistically significant",
    "no consistent",
    "no association",
    "no correlation",
    "no relationship",
    "did not differ",
    "did not improve",
    "did not reduce",
    "did not increase",
    "did not change",
    "did not affect",
    "no difference",
    "no effect",
    "not associated",
    "failed to",
    "no evidence",
    "neither",
];

/// Words of a sentence about harms, where an absence of effect ("no serious adverse events")
/// is a finding in favour, which sets it against nothing.
const HARM_CUES: &[&str] = &[
    "adverse",
    "complication",
    "side effect",
    "safety",
    "toxicity",
];

/// Whether `sentence` holds one of `cues`, in any case.
fn mentions(sentence: &str, cues: &[&str]) -> bool {
    let lower = sentence.to_lowercase();
    cues.iter().any(|cue| lower.contains(cue))
}

/// Whether a result sentence reports an effect.
pub(crate) fn reports_effect(sentence: &str) -> bool {
    // "The potential risks and benefits", "the risk-benefit profile": a weighing, no effect.
    const WEIGHINGS: &[&str] = &["risks and benefits", "risk and benefit", "risk-benefit"];
    let mut lower = sentence.to_lowercase();
    for weighing in WEIGHINGS {
        lower = lower.replace(weighing, " ");
    }
    mentions(&lower, EFFECT_CUES)
}

/// Whether a result sentence reports an absence of effect.
pub(crate) fn is_negative(sentence: &str) -> bool {
    mentions(sentence, NO_EFFECT_CUES)
}

/// Whether a sentence denies anything ("not", "cannot", "didn't"): a finding that does is no
/// clear other side of a denial. "The risk-benefit profile … is not consistent with … and this
/// regimen should not be initiated" agrees with "did not reduce the risk of coronary heart
/// disease" (Nelson_2002); "higher than … 0.3 mg/d, but not the group treated with 0.45 mg/d"
/// is half a denial itself.
pub(crate) fn denies_anything(sentence: &str) -> bool {
    sentence
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .map(str::to_lowercase)
        .any(|word| {
            word == "not" || word == "cannot" || word.ends_with("n't") || word.ends_with("n’t")
        })
}

/// Whether a finding that reports an effect and one that reports its absence answer the same
/// question, so that setting them side by side shows a disagreement rather than inventing one:
/// the clause that denies the effect ([`denying_clause`]) and the finding that reports one
/// share two content terms beyond the words of statistics and comparison ([`GENERIC_TERMS`]),
/// one of which `is_common` (a term most of the theme's findings use, like the review's own
/// subject) does not cover. "No difference in Tegner or Lysholm scores" answers "a difference
/// in the Lysholm score … favoring the flap"; "no effects of age or body weight on exposure"
/// answers no finding on bleeding.
pub(crate) fn answer_the_same_question(
    positive: &str,
    negative: &str,
    is_common: impl Fn(&str) -> bool,
) -> bool {
    let Some(denied) = denying_clause(negative) else {
        return false;
    };
    // "No difference in BMD changes among the 4 active groups" does not deny that "all active
    // groups showed an increase in BMD": groups that all change alike differ in nothing.
    let lower_denied = denied.to_lowercase();
    if [" between ", " among "]
        .iter()
        .any(|word| lower_denied.contains(word))
        && reports_change_within_groups(positive)
    {
        return false;
    }
    let positive: BTreeSet<String> = terms(positive).into_iter().collect();
    let shared: BTreeSet<String> = terms(denied)
        .into_iter()
        .filter(|term| !GENERIC_TERMS.contains(&term.as_str()) && positive.contains(term))
        .collect();
    shared.iter().any(|term| !is_common(term)) && shared_concepts(denied, &shared) >= 2
}

/// How many distinct things the terms of `shared` name in `clause`: runs of shared terms side
/// by side ("bone mineral density", "Tegner activity scale", "quality-of-life") are one thing,
/// a run within another run counts once. Two findings on one outcome ("Lysholm scores") with
/// different treatments compared are no disagreement; on an outcome and an exposure ("HCC and
/// hair dyeing status") they may be.
fn shared_concepts(clause: &str, shared: &BTreeSet<String>) -> usize {
    // Words that join the parts of one name without ending it.
    const WITHIN_A_NAME: &[&str] = &["of", "the", "a", "an", "in", "on", "for", "to"];
    let mut runs: Vec<BTreeSet<String>> = Vec::new();
    let mut run: BTreeSet<String> = BTreeSet::new();
    for token in word_tokens(clause) {
        // An empty token is where punctuation ends a clause.
        let parts: Vec<&str> = token.split('-').filter(|part| !part.is_empty()).collect();
        let mut ends_run = parts.is_empty();
        for part in parts {
            let term = stem(part);
            if shared.contains(&term) {
                run.insert(term);
            } else if !WITHIN_A_NAME.contains(&part) {
                ends_run = true;
            }
        }
        if ends_run && !run.is_empty() {
            runs.push(std::mem::take(&mut run));
        }
    }
    if !run.is_empty() {
        runs.push(run);
    }
    runs.iter()
        .enumerate()
        .filter(|(index, run)| {
            !runs.iter().enumerate().any(|(other, wider)| {
                other != *index
                    && run.is_subset(wider)
                    && (run.len() < wider.len() || other < *index)
            })
        })
        .count()
}

/// Whether a finding reports a change over time within its groups ("showed an increase",
/// "improved from baseline") and compares no groups with one another.
fn reports_change_within_groups(sentence: &str) -> bool {
    const CHANGE: &[&str] = &[
        "from baseline",
        "baseline to",
        "preoperative",
        "pre-operative",
        "showed an increase",
        "showed a decrease",
        "showed a significant",
        "before and after",
    ];
    const COMPARISON: &[&str] = &[
        " between ",
        " among ",
        "compared",
        " than ",
        "versus",
        " vs",
        "favoring",
        "favouring",
    ];
    let lower = sentence.to_lowercase();
    CHANGE.iter().any(|cue| lower.contains(cue))
        && !COMPARISON.iter().any(|cue| lower.contains(cue))
}

/// The clause of `sentence` that holds its first cue of no effect: the sentence cut at the
/// semicolons and the conjunctions that join a clause of another sense ("…, but", "while",
/// "whereas", "although"), so that "HCC were associated with CD-RISC scores but were not
/// significantly associated with PSS scores" denies only the PSS scores.
fn denying_clause(sentence: &str) -> Option<&str> {
    let lower = sentence.to_lowercase();
    let at = NO_EFFECT_CUES
        .iter()
        .filter_map(|cue| lower.find(cue))
        .min()?;
    // Lower-casing keeps byte offsets only for text whose case folds within its length;
    // otherwise the whole sentence is the clause.
    if lower.len() != sentence.len() {
        return Some(sentence);
    }
    let mut start = 0;
    let mut end = sentence.len();
    for joint in [";", " but", " while", " whereas", " although", " however"] {
        // A joining word ends where its word ends: "although," as "although ".
        let whole = |found: usize| {
            joint == ";" || !lower[found + joint.len()..].starts_with(|c: char| c.is_alphanumeric())
        };
        for (found, _) in lower
            .match_indices(joint)
            .filter(|(found, _)| whole(*found))
        {
            if found + joint.len() <= at {
                start = start.max(found + joint.len());
            } else if found >= at {
                end = end.min(found);
            }
        }
    }
    sentence.get(start..end).map(str::trim).or(Some(sentence))
}

/// Stems of the words every finding uses to report a comparison or its absence, its comparator,
/// its design and its units: two findings sharing them share no subject ("more effective than
/// placebo in the trial" says nothing of which drug).
const GENERIC_TERMS: &[&str] = &[
    "score",
    "scale",
    "rate",
    "ratio",
    "valu",
    "treat",
    "therapi",
    "signific",
    "statist",
    "differ",
    "effect",
    "associ",
    "relat",
    "relationship",
    "correl",
    "chang",
    "improv",
    "increas",
    "decreas",
    "reduc",
    "higher",
    "lower",
    "compar",
    "similar",
    "group",
    "patient",
    "particip",
    "subject",
    "individu",
    "control",
    "treatment",
    "studi",
    "trial",
    "random",
    "result",
    "observ",
    "found",
    "show",
    "shown",
    "evid",
    "outcom",
    "level",
    "trend",
    "consist",
    "clinic",
    "benefit",
    "year",
    "month",
    "week",
    "day",
    "time",
    "evalu",
    "assess",
    "measur",
    "data",
    "analysi",
    "use",
    "total",
    "mean",
    "median",
    "respect",
    "baselin",
    "placebo",
    "report",
    "find",
    "mg",
    "kg",
    "ml",
];

/// Whether a result sentence only describes who or what was studied and for how long
/// ("Baseline ages ranged from 4 months to 10 years", "Groups were similar in age", "152
/// patients were enrolled", "The median observation time was 9 weeks"; a review's "Of 7903
/// retrieved articles, 30 studies met inclusion criteria"): structured abstracts put it under
/// Results, but it is no finding, so key findings take it last.
pub(crate) fn describes_the_sample(sentence: &str) -> bool {
    (mentions(sentence, SAMPLE_CUES) || counts_included_studies(sentence))
        && !reports_effect(sentence)
        || compares_groups_at_the_start(sentence)
}

/// Whether a sentence compares a study's groups as they were before treatment ("the treatment
/// and control groups did not significantly differ in age, gender distribution, symptom
/// duration …"): whatever its words of significance, it reports how the sample was made up,
/// not what the treatment did. One that goes on past the start ("at baseline and after 3
/// months of follow-up") reports a finding.
fn compares_groups_at_the_start(sentence: &str) -> bool {
    const BASELINE: &[&str] = &[
        "at baseline",
        "in the baseline",
        "in age,",
        "in age ",
        "in age.",
        "demographic",
        "gender distribution",
        "sex distribution",
    ];
    const COMPARED: &[&str] = &["differ", "similar", "comparable", "matched", "balanced"];
    const LATER: &[&str] = &["after", "follow-up", "end of"];
    mentions(sentence, BASELINE) && mentions(sentence, COMPARED) && !mentions(sentence, LATER)
}

/// Phrases of a sentence describing a study's sample or its follow-up.
const SAMPLE_CUES: &[&str] = &[
    "ages ranged",
    "age ranged",
    "aged between",
    "similar in age",
    "were enrolled",
    "was enrolled",
    "were recruited",
    "median observation",
    "observation time was",
    "observation period was",
    "median follow-up was",
    "mean follow-up was",
    "demographic characteristics",
    "baseline characteristics",
];

/// Whether a sentence is about harms.
pub(crate) fn is_about_harms(sentence: &str) -> bool {
    mentions(sentence, HARM_CUES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damaged_sentences_are_told_from_whole_ones() {
        for whole in [
            "Bleeding fell by 80% (95% CI 70–90) in the treated arm.",
            "Emicizumab was given weekly [12].",
            "Patients reported “less pain” than before.",
            "Pain fell more with the drug (p < 0.001) and > 40% responded.",
            "The iPhone app and mRNA vaccines were tested.",
            "He was treated with emicizumab for two years.",
            "Samples were taken on 12.05.2010 with version 0.10.2 of the tool.",
            "Of 95 CIs reported, 12 excluded the null.",
        ] {
            assert!(!is_damaged(whole), "{whole}");
        }
        for damaged in [
            "ients were enrolled in the trial.",
            "The results of the trial were",
            "Rates fell <i>sharply</i> after dosing.",
            "Rates fell &amp; rose after dosing.",
            "Rates fell (by a third after dosing.",
            "The trial endedThe results were clear.",
            "He articles used included a total of 184 patients.",
            "Hese results were clear.",
            // Afilalo 2012 as Web of Science's ManyAuthors.isi holds it.
            "There was a significant 30 reduction in stroke [risk ratio (RR) 0.70, 95 CI: 0.490.99].",
            "There was no significant difference in mortality (RR: 0.90, 95 CI: 0.631.30).",
        ] {
            assert!(is_damaged(damaged), "{damaged}");
        }
    }

    #[test]
    fn a_subject_becomes_the_cited_work_only_before_its_verb() {
        // From Donners_2021 (Margetic 2018): "This study design will demonstrate whether …"
        // became "The study by @margetic2018abstract design will demonstrate …".
        assert!(!opens_on_a_verb(
            "design will demonstrate whether daily SQ MarzAA can provide effective prophylaxis."
        ));
        assert!(!opens_on_a_verb("population included 40 children."));
        assert!(!opens_on_a_verb("participants were older."));
        for rest in [
            "shows that pain scores fell.",
            "was the first to report it.",
            "also found lower cortisol.",
            "evaluated 18 patients.",
            "aims to compare two doses.",
            "clearly demonstrates the benefit.",
        ] {
            assert!(opens_on_a_verb(rest), "{rest}");
        }
        assert!(!opens_on_a_verb("aims and methods are described."));
    }

    #[test]
    fn findings_are_read_as_effect_no_effect_or_harms() {
        assert!(is_negative("There was no significant difference."));
        assert!(!is_negative("Bleeding fell by 80%."));
        assert!(!is_negative(
            "All participants continue, including those who did not report favoring it."
        ));
        assert!(reports_effect("Pain scores improved at 12 weeks."));
        assert!(!reports_effect("Bleeding was recorded."));
        assert!(is_about_harms("There was no significant adverse event."));
        assert!(
            is_negative("The results were statistically non-significant (p = 0.34)."),
            "a non-significant result reports no effect, though it says `significant`"
        );
    }

    #[test]
    fn sentences_describing_the_sample_are_told_from_findings() {
        for sample in [
            "Baseline ages ranged from 4 months to 10 years.",
            "Groups were similar in age, 17 (40.5%) <18 years, race, and haemophilia severity.",
            "Overall, 152 patients aged 13-77 years (median: 38) were enrolled.",
            "The median observation time was 9 (range 1.6-41.6) weeks.",
            "Of 7903 retrieved articles, 30 studies met inclusion criteria.",
            "After the elimination of duplicates, 116 records were screened.",
        ] {
            assert!(describes_the_sample(sample), "{sample}");
        }
        for finding in [
            "MRI MOCART score improved significantly from baseline to 1-year follow-up.",
            "Patients who were enrolled early had a significantly lower bleed rate.",
            "FVIII inhibitor development was delayed (mean age 13.9 vs. 1.1 years).",
            "14 of these 22 studies found a significant association with neurodevelopment.",
        ] {
            assert!(!describes_the_sample(finding), "{finding}");
        }
    }

    #[test]
    fn a_comparison_of_the_groups_at_the_start_describes_the_sample() {
        // From Jeyaraman_2020 (Kane 2018): set against a finding as if it denied an effect.
        assert!(describes_the_sample(
            "The treatment and control groups did not significantly differ in age, gender \
             distribution, symptom duration, lesion size, or baseline patient reported outcomes."
        ));
        assert!(describes_the_sample(
            "Groups were comparable at baseline in pain scores."
        ));
        assert!(!describes_the_sample(
            "Pain scores differed significantly from baseline at 6 months."
        ));
        assert!(!describes_the_sample(
            "There were no differences in age-adjusted cognitive function test scores."
        ));
        // Nelson_2002: the start and what followed.
        assert!(!describes_the_sample(
            "No differences were found in blood pressure values between women receiving HRT \
             and controls at baseline and after 3 months of follow-up."
        ));
        assert!(describes_the_sample(
            "There were no significant differences in the baseline total PGWB score between \
             two groups."
        ));
        assert!(!describes_the_sample(
            "BMD gains were significantly higher with 0.625 mg/d than with 0.3 mg/d."
        ));
    }

    #[test]
    fn weighing_risks_and_benefits_reports_no_effect() {
        // Nelson_2002: set against a denial as if it reported an effect.
        assert!(!reports_effect(
            "Women must be informed of the potential risks and benefits, and must be monitored."
        ));
        assert!(reports_effect("Prophylaxis showed a clear benefit."));
        assert!(reports_effect(
            "The risks and benefits were weighed, and bleeding fell significantly."
        ));
    }

    #[test]
    fn a_finding_that_denies_anything_is_told() {
        assert!(denies_anything(
            "The risk-benefit profile is not consistent with the requirements."
        ));
        assert!(denies_anything("Pain didn't fall."));
        assert!(!denies_anything(
            "Younger age was associated with a significantly greater improvement."
        ));
        assert!(
            !denies_anything("Nothing notable happened; knots were tied."),
            "words holding \"not\" are no denial"
        );
    }

    #[test]
    fn a_disagreement_needs_the_same_question() {
        let nothing_common = |_: &str| false;
        // Menon, van der Valk and Jeyaraman reviews: pairs the writer set side by side.
        assert!(
            !answer_the_same_question(
                "There was a significant difference in the Lysholm and Gillquist score at 12 \
                 months (P = .0449) favoring the periosteal flap technique group.",
                "No significant differences in Tegner or Lysholm scores were seen at 2 years.",
                nothing_common,
            ),
            "one outcome, two comparisons of other treatments"
        );
        assert!(
            !answer_the_same_question(
                "Plasma estradiol concentrations increased with esterified estrogens dose and \
                 were related to positive bone mineral densities.",
                "Alendronate did not increase bone mineral density of the forearm, but it \
                 slowed the loss.",
                nothing_common,
            ),
            "one outcome named in three words, two drugs (Nelson_2002)"
        );
        assert!(
            !answer_the_same_question(
                "In a randomised trial, nocturnal leg cramps decreased with hydroquinine.",
                "In a randomized trial, nocturnal leg cramps did not decrease with \
                 cyclobenzaprine.",
                nothing_common,
            ),
            "the design the two share is no second subject"
        );
        assert!(answer_the_same_question(
            "Younger age and larger size of the chondral defect were associated with a \
             significantly greater improvement in IKDC scores.",
            "Age greater than 45 years and large size of lesion were not associated with poorer \
             outcome.",
            nothing_common,
        ));
        assert!(answer_the_same_question(
            "The variables of age, education, use of hair dyes and physical exercise had a \
             significant relation to HCC.",
            "This study provides no evidence in support of an association between HCC and \
             hair dyeing status or hair washing frequency.",
            |term: &str| ["hcc", "hair"].contains(&term),
        ));
        assert!(
            !answer_the_same_question(
                "There is evidence of the effectiveness of monoclonal antibodies in factor VIII \
                 replacement, with a decline in hemorrhagic events.",
                "No effects of age or body weight on emicizumab exposure were evident.",
                nothing_common,
            ),
            "bleeding and exposure by body weight are two questions"
        );
        assert!(
            !answer_the_same_question(
                "In our study, 300 mg hydroquinine was significantly more effective than placebo.",
                "Cyclobenzaprine 2.5 mg TID was not significantly more effective than placebo.",
                nothing_common,
            ),
            "two drugs, each against placebo"
        );
        assert!(
            !answer_the_same_question(
                "PSS scores were significantly higher in chronic pain patients than in controls.",
                "There was no difference in PSS between non-obese and obese subjects.",
                nothing_common,
            ),
            "one shared measure, two comparisons"
        );
        assert!(
            !answer_the_same_question(
                "Overt hypothyroidism is significantly associated with higher hair cortisol \
                 levels compared to normal subjects.",
                "There was no significant association between cortisol levels in hair and saliva.",
                |term: &str| ["hair", "cortisol"].contains(&term),
            ),
            "the review's own subject is shared by every finding"
        );
        assert!(
            !answer_the_same_question(
                "HCC was inversely associated with height in patients with TS.",
                "HCC were inversely associated with CD-RISC scores but were not significantly \
                 associated with PSS scores.",
                nothing_common,
            ),
            "only the clause after `but` is denied"
        );
        assert!(
            !answer_the_same_question(
                "All active treatment groups showed an increase in BMD.",
                "Among adherent participants, there were no significant differences in BMD \
                 changes among the 4 active treatment groups.",
                nothing_common,
            ),
            "groups that all change alike differ in nothing (Nelson_2002)"
        );
        assert!(answer_the_same_question(
            "BMD increased more with estradiol than with placebo, from baseline to 2 years.",
            "There were no significant differences in BMD changes between estradiol and placebo.",
            nothing_common,
        ));
        let shared = |terms: &[&str]| terms.iter().map(|term| (*term).to_owned()).collect();
        assert_eq!(
            shared_concepts(
                "no association between HCC and hair dyeing status",
                &shared(&["hcc", "hair", "dye", "status"])
            ),
            2
        );
        assert_eq!(
            shared_concepts(
                "no benefits in any quality-of-life outcomes; quality of life",
                &shared(&["qualiti", "life"])
            ),
            1
        );
        assert_eq!(
            denying_clause(
                "Testosterone rose, while cortisol levels did not differ; age mattered."
            ),
            Some("cortisol levels did not differ")
        );
        assert_eq!(denying_clause("Bleeding fell by 80%."), None);
        assert_eq!(
            denying_clause("Findings were similar, although, there were no differences in BMD."),
            Some(", there were no differences in BMD.")
        );
        assert!(
            !answer_the_same_question(
                "Apart from the Tegner activity score, which improved (P = .041), there were no \
                 further changes.",
                "No significant differences in Tegner or Lysholm scores were seen at 2 years.",
                nothing_common,
            ),
            "a score is a measure, not a thing two findings share"
        );
    }

    #[test]
    fn sentences_that_lean_on_their_neighbour_or_state_only_a_purpose() {
        assert!(leans_on_context(
            "This suggests long-term activation of the axis."
        ));
        assert!(leans_on_context("However, the effect faded by week 12."));
        // From Jeyaraman_2020's conclusion, where it was quoted alone.
        assert!(leans_on_context(
            "In particular, it allows to address the >45 years population."
        ));
        assert!(leans_on_context("It reduced pain at one year."));
        // From van_der_Valk_2021 (Bates 2017), where it was quoted as a key finding alone.
        assert!(leans_on_context(
            "Specifically, nurse researchers may need to measure several factors associated with early childhood persistent stress."
        ));
        assert!(leans_on_context(
            "These features of hBS910 enable routine prophylaxis by subcutaneous delivery."
        ));
        // From Donners_2021's review: a debate and the conclusion quoted them alone.
        assert!(leans_on_context(
            "Moreover, in the following phase 3 studies, emicizumab treatment has been well-tolerated."
        ));
        assert!(leans_on_context(
            "Most notably, an intra-individual comparison demonstrated superiority of emicizumab."
        ));
        assert!(!leans_on_context("Items were scored from 0 to 4."));
        // Recorded OpenAlex works (Grieg-Gran 2008), quoted alone under the review's methods.
        assert!(leans_on_context(
            "But the sanctuaries face threats from clearance of land by in-migrating settlers."
        ));
        assert!(!leans_on_context("Andean farmers were surveyed twice."));
        assert!(!leans_on_context(
            "This study found lower cortisol in obese children."
        ));
        assert!(!leans_on_context("Thrombosis was rare."));
        // Jemal 2011, quoted alone as a seminal work's word (metaknowledge's Scopus export).
        assert!(leans_on_context(
            "Clinicians, public health professionals, and policy makers can play an active role in accelerating the application of such interventions globally."
        ));
        assert!(leans_on_context("In such cases, surgery was deferred."));
        assert!(!leans_on_context(
            "Drugs such as aspirin were stopped such that no bleeding occurred."
        ));
        // From a review of IEEE Xplore exports (litstudy's), where they opened a work's quotes.
        for leaning in [
            "This severely limits the programmability and performance of GPU applications.",
            "This way, the overall amount of transmitted data can be heavily reduced.",
            "Another is that it implements the OpenSHMEM specification.",
            "A third version, currently in progress, uses the HIP programming model.",
            "That is, the kernels run unchanged.",
        ] {
            assert!(leans_on_context(leaning), "{leaning}");
        }
        for alone in [
            "This paper presents a GPU implementation of BLAST.",
            "This work proposes a task-based runtime.",
            "Thiscode is no word.",
        ] {
            assert!(!leans_on_context(alone), "{alone}");
        }
        // From Donners_2021's conclusion, where it was quoted bare.
        assert!(speaks_for_its_paper(
            "The present study is the first to demonstrate that once-weekly SC ACE910 prophylaxis is safe."
        ));
        assert!(speaks_for_its_paper("In this study, bleeding fell."));
        // From Donners_2021, where they were quoted bare.
        assert!(speaks_for_its_paper(
            "The review describes the state of the art of the concomitant use of emicizumab."
        ));
        assert!(speaks_for_its_paper(
            "This open-label, multicentre study enrolled 18 children."
        ));
        assert!(speaks_for_its_paper(
            "The present systematic review found 12 trials."
        ));
        assert!(!speaks_for_its_paper(
            "The study of bleeding disorders began in 1950."
        ));
        assert!(!speaks_for_its_paper("The trials enrolled 120 adults."));
        assert!(!speaks_for_its_paper(
            "This approach lowered costs in every trial arm."
        ));
        assert!(leans_on_context(
            "Of these, 13 patients had been on HAVEN 2 for 12 weeks."
        ));
        assert!(!speaks_for_its_paper(
            "Emicizumab is the first such antibody."
        ));
        // From a review of the Cohen 2006 NSAIDS set, where it was quoted bare under *Methods
        // used*.
        assert!(speaks_for_its_paper(
            "This is borne out by a double-blind multicentre comparison of nimesulide and diclofenac in 122 patients with acute shoulder."
        ));
        assert!(speaks_for_its_paper(
            "These patients were followed for a year."
        ));
        assert!(!speaks_for_its_paper("Thiazides lowered pressure more."));
        assert_eq!(
            purpose_clause("To review recent progress in cortisol research."),
            Some("to review recent progress in cortisol research.".to_owned())
        );
        assert_eq!(purpose_clause("To date, no trial has been done."), None);
        assert_eq!(purpose_clause("To our knowledge, this is new."), None);
        assert_eq!(
            purpose_clause("To test this, we ran a trial."),
            None,
            "a main clause follows"
        );
    }

    #[test]
    fn topic_words_and_the_phrases_they_open() {
        assert!(!could_be_a_topic("treated"));
        assert!(!could_be_a_topic("clinical"));
        assert!(!could_be_a_topic("anti"), "a prefix cut off its word");
        assert!(could_be_a_topic("cartilage"));
        // From Jeyaraman_2020's review: "Turning to year, …", "… take up score".
        assert!(!could_be_a_topic("year"));
        assert!(!could_be_a_topic("plus"), "a joining word");
        assert!(names_no_subject_alone("Placebo") && names_no_subject_alone("treatment"));
        assert!(!names_no_subject_alone("gabapentin") && !names_no_subject_alone("cartilage"));
        assert!(!could_be_a_topic("Score"));
        let texts = |list: &[&str]| {
            list.iter()
                .map(|text| text.to_lowercase())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            phrase_of(
                "stem",
                &texts(&[
                    "Stem cells were injected.",
                    "A stem cell trial.",
                    "Stem cells again."
                ])
            ),
            "stem cells"
        );
        assert_eq!(
            phrase_of(
                "estrogen",
                &texts(&["estrogen plus progestin", "estrogen plus progestin"])
            ),
            "estrogen"
        );
        // Words either side of a stop are no phrase.
        assert_eq!(
            phrase_of(
                "inhibitors",
                &texts(&[
                    "Patients with inhibitors. Emicizumab was given.",
                    "New inhibitors.Emicizumab reduced bleeding."
                ])
            ),
            "inhibitors"
        );
        // From Menon_2022's review: "… also bear on child sexual."
        assert_eq!(
            phrase_of(
                "child",
                &texts(&[
                    "Child sexual abuse and child sexual exploitation.",
                    "Child sexual abuse in care.",
                ])
            ),
            "child"
        );
    }
}
