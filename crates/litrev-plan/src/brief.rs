//! The research brief without a model: the time window, methods and population the question's
//! own words (and the options) state, and the defaults assumed for the rest, each marked so
//! the person sees what to check.

use std::collections::BTreeMap;

use litrev_model::{Brief, Clarification, Dimension, Filters, Grounds, TimeWindow, Work};

/// How many years the recent window spans when nothing says otherwise.
const RECENT_YEARS: i32 = 10;

/// Kinds of sources, most trusted first (seed S4): the last two are deprioritised.
const SOURCE_HIERARCHY: &[&str] = &[
    "peer-reviewed articles and conference papers",
    "systematic reviews and meta-analyses",
    "academic books and chapters",
    "preprints",
    "reports",
    "deprioritised: blogs, news, encyclopaedias",
    "deprioritised: social media",
];

/// Designs by the words that name them, as a question writes them.
const METHODS: &[(&[&str], &str)] = &[
    (
        &["randomised", "randomized", "rct", "rcts"],
        "randomised controlled trials",
    ),
    (&["trial", "trials"], "trials"),
    (&["cohort", "cohorts", "longitudinal"], "cohort studies"),
    (&["case-control"], "case-control studies"),
    (&["cross-sectional"], "cross-sectional studies"),
    (
        &["qualitative", "interview", "interviews", "ethnographic"],
        "qualitative studies",
    ),
    (&["meta-analysis", "meta-analyses"], "meta-analyses"),
    (&["survey", "surveys", "questionnaire"], "surveys"),
    (
        &["simulation", "simulations", "modelling", "modeling"],
        "modelling studies",
    ),
    (
        &["experiment", "experiments", "experimental"],
        "experiments",
    ),
    (
        &["pharmacokinetics", "pharmacokinetic"],
        "pharmacokinetic studies",
    ),
];

/// Nouns that name who a study is about.
const POPULATIONS: &[&str] = &[
    "adolescents",
    "adults",
    "children",
    "elderly",
    "humans",
    "infants",
    "men",
    "mice",
    "neonates",
    "nurses",
    "older",
    "patients",
    "people",
    "physicians",
    "pregnant",
    "rats",
    "students",
    "teachers",
    "women",
    "workers",
    "users",
    "veterans",
];

/// Words after which a population follows ("in children", "among nurses").
const POPULATION_LEADS: &[&str] = &["in", "among", "for", "of"];

/// Words that end a population ("in children since 2010").
const POPULATION_ENDS: &[&str] = &[
    "in", "among", "for", "of", "since", "after", "before", "between", "during", "from", "until",
    "over", "within", "and", "or", "versus", "vs",
];

/// The brief for a question, its eligibility rules and the current year.
pub fn brief(question: &str, filters: &Filters, this_year: i32) -> Brief {
    let words: Vec<String> = question
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    let methods: Vec<String> = METHODS
        .iter()
        .filter(|(cues, _)| words.iter().any(|word| cues.contains(&word.as_str())))
        .map(|(_, name)| (*name).to_owned())
        .collect();
    let population = population(question);
    Brief {
        disciplines: Dimension::default(),
        time_window: time_window(&words, filters, this_year),
        methods: stated_if_any(methods),
        population: stated_if_any(population),
        source_hierarchy: Dimension {
            value: SOURCE_HIERARCHY
                .iter()
                .map(|kind| (*kind).to_owned())
                .collect(),
            basis: Grounds::Assumed,
        },
        output_language: Dimension {
            value: "en".to_owned(),
            basis: Grounds::Assumed,
        },
        mode: Dimension {
            value: "academic".to_owned(),
            basis: Grounds::Assumed,
        },
        clarifications: Vec::new(),
        domains: Vec::new(),
        probe: None,
    }
}

/// A discipline counts when at least this share of the probe's works are filed under it first.
const DISCIPLINE_SHARE: f64 = 0.15;

/// Two disciplines each holding at least this share of the probe make the question span them.
const SPLIT_SHARE: f64 = 0.25;

/// A probe this full found a large field: two of the quick tier's pages of 50 hits, after the
/// queries' hits were merged. Read only when no source counted the matches.
const LARGE_FIELD: usize = 100;

/// A field is large when one of the probe's searches matches more works than an exhaustive
/// review's search reads.
const LARGE_FIELD_MATCHES: u64 = 1_000;

/// Reads a probe search's works into the brief: the disciplines they are filed under first
/// (derived), and at most two clarifying questions, when the probe spreads over two
/// disciplines or no time window was given for a large field (by the matches the brief's
/// [`litrev_model::ProbeReading`] counted, when a source counted them). The defaults stand
/// until [`answer`] records an answer.
///
/// The disciplines become the brief's domains when each claims terms of the question
/// (`key_terms`) of its own and their works seldom meet ([`crate::find_domains`]).
pub fn read_probe(brief: &mut Brief, key_terms: &[String], hits: &[Work]) {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for work in hits {
        if let Some(field) = work.fields.first() {
            *counts.entry(field.as_str()).or_default() += 1;
        }
    }
    let filed: usize = counts.values().sum();
    if filed == 0 {
        return;
    }
    let mut ranked: Vec<(&str, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let share = |count: usize| count as f64 / filed as f64;
    brief.disciplines = Dimension {
        value: ranked
            .iter()
            .filter(|(_, count)| share(*count) >= DISCIPLINE_SHARE)
            .take(4)
            .map(|(name, _)| (*name).to_owned())
            .collect(),
        basis: Grounds::Derived,
    };
    brief.domains = crate::find_domains(&brief.disciplines.value, key_terms, hits);
    brief.clarifications.clear();
    // Two disciplines each holding much of the probe, or whose works split the question's
    // terms between them: whether to search them side by side is the person's call.
    let by_topic = brief
        .domains
        .iter()
        .any(|domain| !brief.disciplines.value.contains(&domain.name));
    if let [first, second, ..] = &brief.domains[..]
        && by_topic
    {
        // One discipline, two topics its works treat apart.
        brief.clarifications.push(Clarification {
            about: "topics".to_owned(),
            question: format!(
                "The question joins two topics that a probe search's works treat apart: \"{}\" and \"{}\". Search them side by side, or as one question?",
                first.name, second.name
            ),
            options: vec!["side by side".to_owned(), "as one".to_owned()],
            answer: None,
        });
    } else if let [(first, a), (second, b), ..] = ranked[..]
        && (share(b) >= SPLIT_SHARE || !brief.domains.is_empty())
    {
        brief.clarifications.push(Clarification {
            about: "disciplines".to_owned(),
            question: format!(
                "The question reaches {first} ({:.0} % of a probe search) and {second} ({:.0} %). Search both, side by side, or keep to {first}?",
                100.0 * share(a),
                100.0 * share(b)
            ),
            options: vec!["both".to_owned(), first.to_owned()],
            answer: None,
        });
    }
    let matches = brief.probe.as_ref().and_then(|probe| probe.matches);
    let large = matches.map_or(hits.len() >= LARGE_FIELD, |count| {
        count > LARGE_FIELD_MATCHES
    });
    if brief.time_window.basis == Grounds::Assumed && large {
        let size = matches.map_or(String::new(), |count| {
            format!(" ({count} works match a search of it)")
        });
        brief.clarifications.push(Clarification {
            about: "time_window".to_owned(),
            question: format!("No years were given and the field is large{size}. Cover works of any era (the last ten years also searched on their own), or only the last ten years?"),
            options: vec!["any era".to_owned(), "last ten years".to_owned()],
            answer: None,
        });
    }
}

/// Records the answer to clarification `index` and applies it: keeping to one discipline, or
/// to the last ten years, makes that dimension stated. An answer that is not one of the
/// options is refused (`false`).
pub fn answer(brief: &mut Brief, index: usize, given: &str) -> bool {
    let Some(clarification) = brief.clarifications.get_mut(index) else {
        return false;
    };
    let Some(chosen) = clarification
        .options
        .iter()
        .find(|option| option.eq_ignore_ascii_case(given.trim()))
        .cloned()
    else {
        return false;
    };
    let is_default = clarification.options.first() == Some(&chosen);
    let about = clarification.about.clone();
    clarification.answer = Some(chosen.clone());
    match about.as_str() {
        "disciplines" if !is_default => {
            brief.disciplines = Dimension {
                value: vec![chosen],
                basis: Grounds::Stated,
            };
            // Kept to one discipline, the question is searched as one.
            brief.domains.clear();
        }
        "disciplines" => brief.disciplines.basis = Grounds::Stated,
        // Searched as one, the question has no domains.
        "topics" if !is_default => brief.domains.clear(),
        "time_window" if !is_default => {
            let window = &mut brief.time_window;
            window.value.from = window.value.recent_from;
            window.basis = Grounds::Stated;
        }
        "time_window" => brief.time_window.basis = Grounds::Stated,
        _ => {}
    }
    true
}

fn stated_if_any(value: Vec<String>) -> Dimension<Vec<String>> {
    let basis = if value.is_empty() {
        Grounds::Assumed
    } else {
        Grounds::Stated
    };
    Dimension { value, basis }
}

/// The years: the options' years, else the question's ("since 2010", "between 2000 and
/// 2015", "2000-2015", "in the last 5 years", "past decade"), else works of any era with the
/// last ten years as the recent window.
fn time_window(words: &[String], filters: &Filters, this_year: i32) -> Dimension<TimeWindow> {
    let recent =
        |from: Option<i32>| Some(from.unwrap_or(i32::MIN).max(this_year - RECENT_YEARS + 1));
    if filters.year_from.is_some() || filters.year_to.is_some() {
        return Dimension {
            value: TimeWindow {
                from: filters.year_from,
                to: filters.year_to,
                recent_from: recent(filters.year_from),
            },
            basis: Grounds::Stated,
        };
    }
    let year = |word: &String| {
        word.parse::<i32>()
            .ok()
            .filter(|year| (1800..=this_year + 1).contains(year))
    };
    let mut from = None;
    let mut to = None;
    for (index, word) in words.iter().enumerate() {
        let next = words.get(index + 1);
        match word.as_str() {
            "since" | "after" | "from" => from = from.or(next.and_then(year)),
            "before" | "until" | "to" => to = to.or(next.and_then(year)),
            "between" => {
                from = from.or(next.and_then(year));
                to = to.or(words.get(index + 3).and_then(year));
            }
            "last" | "past" => {
                let span = match next.map(String::as_str) {
                    Some("decade") => Some(10),
                    Some("two") if words.get(index + 2).is_some_and(|w| w == "decades") => Some(20),
                    Some(count) => number(count)
                        .filter(|_| words.get(index + 2).is_some_and(|w| w.starts_with("year"))),
                    None => None,
                };
                from = from.or(span.map(|span| this_year - span + 1));
            }
            _ => {
                // "2000-2015" reads as one word.
                if let Some((first, last)) = word.split_once('-')
                    && let (Some(first), Some(last)) =
                        (year(&first.to_owned()), year(&last.to_owned()))
                {
                    from = from.or(Some(first));
                    to = to.or(Some(last));
                }
            }
        }
    }
    let basis = if from.is_some() || to.is_some() {
        Grounds::Stated
    } else {
        Grounds::Assumed
    };
    Dimension {
        value: TimeWindow {
            from,
            to,
            recent_from: recent(from),
        },
        basis,
    }
}

fn number(word: &str) -> Option<i32> {
    let named = [
        ("one", 1),
        ("two", 2),
        ("three", 3),
        ("five", 5),
        ("ten", 10),
        ("twenty", 20),
    ];
    word.parse().ok().or_else(|| {
        named
            .iter()
            .find(|(name, _)| *name == word)
            .map(|(_, n)| *n)
    })
}

/// The population the question names: the words after "in", "among", "for" or "of" up to
/// the next such word or the end, when they hold a noun that names people or animals
/// ("in people with haemophilia A", "among older adults").
fn population(question: &str) -> Vec<String> {
    let words: Vec<&str> = question
        .split_whitespace()
        .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|word| !word.is_empty())
        .collect();
    let mut out = Vec::new();
    let mut index = 0;
    while index < words.len() {
        if POPULATION_LEADS.contains(&words[index].to_lowercase().as_str()) {
            let phrase: Vec<&str> = words[index + 1..]
                .iter()
                .take_while(|word| !POPULATION_ENDS.contains(&word.to_lowercase().as_str()))
                .copied()
                .collect();
            let names_people = phrase
                .iter()
                .any(|word| POPULATIONS.contains(&word.to_lowercase().as_str()));
            if names_people {
                out.push(phrase.join(" "));
            }
            index += phrase.len().max(1);
        } else {
            index += 1;
        }
    }
    out
}

/// The current year by the system clock (UTC), for the recent window.
pub fn this_year() -> i32 {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let days = i64::try_from(seconds / 86_400).unwrap_or(0);
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    i32::try_from(year).unwrap_or(2026)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_question_states_years_methods_and_population() {
        let stated = brief(
            "Randomised trials of emicizumab in people with haemophilia A since 2015",
            &Filters::default(),
            2026,
        );
        assert_eq!(stated.time_window.basis, Grounds::Stated);
        assert_eq!(stated.time_window.value.from, Some(2015));
        assert_eq!(stated.time_window.value.recent_from, Some(2017));
        assert_eq!(
            stated.methods.value,
            ["randomised controlled trials", "trials"]
        );
        assert_eq!(stated.methods.basis, Grounds::Stated);
        assert_eq!(stated.population.value, ["people with haemophilia A"]);
        assert_eq!(stated.mode.basis, Grounds::Assumed);
        assert_eq!(stated.disciplines.basis, Grounds::Assumed);
    }

    #[test]
    fn without_words_for_them_the_dimensions_are_assumed() {
        let assumed = brief("Teacher burnout", &Filters::default(), 2026);
        assert_eq!(assumed.time_window.basis, Grounds::Assumed);
        assert_eq!(
            assumed.time_window.value,
            TimeWindow {
                from: None,
                to: None,
                recent_from: Some(2017)
            }
        );
        assert!(assumed.methods.value.is_empty() && assumed.population.value.is_empty());
        assert_eq!(assumed.methods.basis, Grounds::Assumed);
        let window = |question: &str| {
            time_window(
                &question
                    .split(' ')
                    .map(str::to_lowercase)
                    .collect::<Vec<_>>(),
                &Filters::default(),
                2026,
            )
            .value
        };
        assert_eq!(window("studies between 2000 and 2015").to, Some(2015));
        assert_eq!(window("studies 2000-2015").from, Some(2000));
        assert_eq!(window("in the last 5 years").from, Some(2022));
        assert_eq!(window("over the past decade").from, Some(2017));
        let stated = brief(
            "Teacher burnout",
            &Filters {
                year_from: Some(2001),
                ..Filters::default()
            },
            2026,
        );
        assert_eq!(stated.time_window.value.from, Some(2001));
        assert_eq!(stated.time_window.basis, Grounds::Stated);
    }

    fn filed_under(fields: &[&str]) -> Vec<Work> {
        fields
            .iter()
            .enumerate()
            .map(|(index, field)| {
                let mut work = Work::stub(format!("W{}", index + 1).parse().expect("id"));
                work.fields = vec![(*field).to_owned()];
                work
            })
            .collect()
    }

    #[test]
    fn a_counted_field_is_large_when_it_matches_more_than_a_search_reads() {
        let hits = filed_under(&["Medicine"; 104]);
        let asked = |matches: Option<u64>| {
            let mut asked = brief("Teacher burnout", &Filters::default(), 2026);
            asked.probe = Some(litrev_model::ProbeReading {
                works: hits.len(),
                matches,
                citations: 0,
                top_citations: 0,
                hits: hits.len() as u64,
            });
            read_probe(&mut asked, &[], &hits);
            asked.clarifications
        };
        // Uncounted, a full probe stands for a large field.
        assert_eq!(asked(None).len(), 1);
        assert!(
            asked(Some(300)).is_empty(),
            "300 matches: a search reads them all"
        );
        let large = asked(Some(48_210));
        assert_eq!(large.len(), 1);
        assert_eq!(large[0].about, "time_window");
        assert!(
            large[0]
                .question
                .contains("(48210 works match a search of it)")
        );
    }

    #[test]
    fn a_probe_over_two_disciplines_asks_which_and_the_answer_applies() {
        let mut hits = filed_under(&["Medicine"; 60]);
        hits.extend(filed_under(&["Psychology"; 40]));
        hits.extend(filed_under(&["Nursing"; 4]));
        let mut asked = brief("Teacher burnout", &Filters::default(), 2026);
        read_probe(&mut asked, &[], &hits);
        assert_eq!(asked.disciplines.value, ["Medicine", "Psychology"]);
        assert_eq!(asked.disciplines.basis, Grounds::Derived);
        let about: Vec<&str> = asked
            .clarifications
            .iter()
            .map(|c| c.about.as_str())
            .collect();
        assert_eq!(
            about,
            ["disciplines", "time_window"],
            "two at most, both material"
        );
        assert!(!answer(&mut asked, 0, "Physics"), "not an option");
        assert!(answer(&mut asked, 0, "medicine"));
        assert_eq!(asked.disciplines.value, ["Medicine"]);
        assert_eq!(asked.disciplines.basis, Grounds::Stated);
        assert!(answer(&mut asked, 1, "last ten years"));
        assert_eq!(asked.time_window.value.from, Some(2017));

        let mut one_field = brief("Teacher burnout since 2010", &Filters::default(), 2026);
        read_probe(&mut one_field, &[], &filed_under(&["Psychology"; 120]));
        assert!(
            one_field.clarifications.is_empty(),
            "{:?}",
            one_field.clarifications
        );
    }

    #[test]
    fn two_topics_of_one_discipline_ask_whether_to_search_them_apart() {
        let mut hits = filed_under(&["Medicine"; 30]);
        for (index, hit) in hits.iter_mut().enumerate() {
            hit.title = Some(
                if index % 2 == 0 {
                    "Emicizumab pharmacokinetics"
                } else {
                    "Hair cortisol"
                }
                .to_owned(),
            );
        }
        let key_terms: Vec<String> = ["emicizumab", "pharmacokinetics", "hair", "cortisol"]
            .map(str::to_owned)
            .to_vec();
        let mut asked = brief(
            "Emicizumab pharmacokinetics and hair cortisol",
            &Filters::default(),
            2026,
        );
        read_probe(&mut asked, &key_terms, &hits);
        let names: Vec<&str> = asked
            .domains
            .iter()
            .map(|domain| domain.name.as_str())
            .collect();
        assert_eq!(
            names,
            ["Emicizumab and pharmacokinetics", "Hair and cortisol"]
        );
        assert_eq!(asked.clarifications.len(), 1);
        assert_eq!(asked.clarifications[0].about, "topics");
        assert!(
            asked.clarifications[0]
                .question
                .contains("\"Emicizumab and pharmacokinetics\" and \"Hair and cortisol\""),
            "{}",
            asked.clarifications[0].question
        );
        let mut kept = asked.clone();
        assert!(answer(&mut kept, 0, "side by side"));
        assert_eq!(kept.domains.len(), 2);
        assert!(answer(&mut asked, 0, "as one"));
        assert!(asked.domains.is_empty(), "searched as one question");
    }

    #[test]
    fn the_clock_gives_a_plausible_year() {
        assert!((2024..2200).contains(&this_year()));
    }
}
