//! Question and options → [`Plan`]: the searches to run and the limits to run them within.
//!
//! The plan is built from the question's own words: its content terms (minus the words that
//! name the review type, like "systematic review", where they open or close a clause), the
//! main clause before a colon, and adjacent term pairs as phrases. With a language model, [`QueryPlanner`] adds up to five
//! variants that reach what those words miss.
//!
//! ```
//! use litrev_model::Tier;
//! use litrev_plan::{PlanConfig, plan};
//! let plan = plan("Emicizumab in haemophilia A: a systematic review", &PlanConfig::for_tier(Tier::Quick));
//! assert_eq!(plan.key_terms, vec!["emicizumab", "haemophilia"]);
//! assert_eq!(plan.limits.max_stages, 2);
//! ```

mod brief;
mod brief_llm;
mod domains;
#[cfg(test)]
mod scripted;
mod variants;

use litrev_model::{Channel, Filters, HitOrder, Plan, Query, Tier, WorkId, WorkKind};
use litrev_text::content_words;

pub use brief::{answer, brief, read_probe, this_year};
pub use brief_llm::{BRIEF_MAX_TOKENS, BriefReport};
pub use domains::{find_domains, split_into_domains};
pub use variants::{PLANNER_MAX_TOKENS, PLANNER_PHASE, PlannerReport, QueryPlanner};

/// Words that name the kind of review rather than its topic.
const REVIEW_WORDS: &[&str] = &[
    "systematic",
    "review",
    "reviews",
    "meta",
    "analysis",
    "analyses",
    "metaanalysis",
    "literature",
    "scoping",
    "narrative",
    "overview",
    "umbrella",
    "synthesis",
    "update",
    "updated",
    "protocol",
    "evidence",
    "comprehensive",
    "critical",
    "rapid",
];

/// Options of the plan phase.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanConfig {
    /// Quality tier.
    pub tier: Tier,
    /// Works the user named as starting points.
    pub seeds: Vec<WorkId>,
    /// Relevance threshold for snowballed works, relative to the discovered core (0–1).
    pub relevance_threshold: f32,
    /// Eligibility rules.
    pub filters: Filters,
    /// The current year, where the brief's recent window ends.
    pub this_year: i32,
    /// Whether a web search provider is among the sources: the plan then adds the web
    /// channel's searches (grey literature), which only such a provider answers.
    pub web_search: bool,
    /// Sites whose pages are searched for the topic terms (`plato.stanford.edu`): one web
    /// search each, restricted to the site.
    pub web_sites: Vec<String>,
    /// Whether a source that lists trending papers (Hugging Face) is among the sources: the
    /// plan then adds one trending search on the topic terms, which only it answers.
    pub trending: bool,
}

impl PlanConfig {
    /// The defaults of a tier, with no seeds.
    pub fn for_tier(tier: Tier) -> PlanConfig {
        PlanConfig {
            tier,
            seeds: Vec::new(),
            relevance_threshold: 0.6,
            filters: Filters::default(),
            this_year: this_year(),
            web_search: false,
            web_sites: Vec::new(),
            trending: false,
        }
    }
}

/// Builds the plan for a question.
pub fn plan(question: &str, config: &PlanConfig) -> Plan {
    let limits = config.tier.limits();
    let key_terms = topic_words(question);
    let mut queries = Vec::new();
    let mut push = |purpose: &str, text: String| push_query(&mut queries, purpose, text);
    push("all topic terms of the question", key_terms.join(" "));
    if let Some((main_clause, _)) = question.split_once(':') {
        let main_terms = topic_words(main_clause);
        if main_terms.len() >= 2 && main_terms.len() < key_terms.len() {
            push("the question's main clause", main_terms.join(" "));
        }
    }
    let phrases = pair_phrases(&key_terms);
    if !phrases.is_empty() {
        push("adjacent topic terms as phrases", phrases.join(" OR "));
    }
    if config.tier > Tier::Quick {
        for directive in directives(&key_terms, &phrases, config.this_year) {
            push_directed(&mut queries, directive);
        }
    }
    if config.web_search {
        for search in web_searches(question, &key_terms, &config.web_sites) {
            push_directed(&mut queries, search);
        }
    }
    if config.trending && !key_terms.is_empty() {
        push_directed(
            &mut queries,
            Query {
                channel: Channel::Trending,
                ..Query::new(
                    "",
                    "the papers trending on Hugging Face now that are on the topic terms",
                    key_terms.join(" "),
                )
            },
        );
    }
    let mut plan = Plan {
        question: question.trim().to_owned(),
        key_terms,
        queries,
        seeds: config.seeds.clone(),
        tier: config.tier,
        limits,
        hits_per_query: search_depth(config.tier),
        relevance_threshold: config.relevance_threshold,
        filters: config.filters.clone(),
        brief: brief(question, &config.filters, config.this_year),
        synthesis: None,
    };
    apply_time_window(&mut plan);
    plan
}

/// Applies what the brief settled to the plan's searches: a stated time window as its year
/// filters ([`apply_time_window`]), its domains as searches of their own
/// ([`split_into_domains`]).
pub fn apply_brief(plan: &mut Plan) {
    apply_time_window(plan);
    split_into_domains(plan, this_year());
}

/// Makes a stated time window (the question's "since 2010", or an answer keeping to the last
/// ten years) the plan's year filters where the options set none: what the person said limits
/// what is searched and screened, not only what the brief records.
pub fn apply_time_window(plan: &mut Plan) {
    let window = &plan.brief.time_window;
    if window.basis != litrev_model::Grounds::Stated {
        return;
    }
    let filters = &mut plan.filters;
    if filters.year_from.is_none() && filters.year_to.is_none() {
        filters.year_from = window.value.from;
        filters.year_to = window.value.to;
    }
}

/// Adds a keyword query labelled after the last (`q1`, `q2`…) unless its text is empty or
/// already planned; whether it was added.
fn push_query(queries: &mut Vec<Query>, purpose: &str, text: String) -> bool {
    push_directed(queries, Query::new("", purpose, text))
}

/// Adds a query, labelled after the last, unless its text is empty or the same search (text,
/// kinds, years and order) is already planned; whether it was added.
fn push_directed(queries: &mut Vec<Query>, mut query: Query) -> bool {
    query.text = query.text.trim().to_owned();
    if query.text.is_empty() || queries.iter().any(|planned| planned.same_search(&query)) {
        return false;
    }
    query.label = format!("q{}", queries.len() + 1);
    queries.push(query);
    true
}

/// How many years the search for recent works reaches back, this year included.
const RECENT_YEARS: i32 = 5;

/// The searches a researcher adds to the question's own past the quick tier (seed S4 §4c, S0
/// §3.1.4): the most cited works on the topic's term pairs (its seminal works, whatever their
/// age: pairs, since the most cited works naming any one term are the field's neighbours'),
/// the works of the last five years on the topic terms (which a relevance ranking of decades
/// of literature buries), and the field's books and chapters on its term pairs — handbooks,
/// introductions and companions are where a field's settled knowledge is written down.
fn directives(key_terms: &[String], phrases: &[String], this_year: i32) -> Vec<Query> {
    let all_terms = key_terms.join(" ");
    let pairs = pairs_or_terms(phrases, &all_terms);
    vec![
        Query {
            order: HitOrder::Citations,
            ..Query::new(
                "",
                "the most cited works on the topic's term pairs (seminal works)",
                pairs.clone(),
            )
        },
        Query {
            from_year: Some(this_year - (RECENT_YEARS - 1)),
            ..Query::new(
                "",
                "works of the last five years on the topic terms",
                all_terms,
            )
        },
        Query {
            channel: Channel::Book,
            kinds: vec![WorkKind::Book, WorkKind::BookChapter],
            ..Query::new(
                "",
                "books and chapters on the topic's term pairs, and the field's handbooks, introductions and companions (\"handbook of X\") on its leading terms",
                format!("{pairs} OR {}", book_forms(key_terms)),
            )
        },
        Query {
            channel: Channel::Expert,
            ..Query::new(
                "",
                "the field's experts: the authors most cited on the topics of the best keyword hits, and their most cited works there",
                key_terms.join(" "),
            )
        },
    ]
}

/// The web channel's searches (seeds S1, S3: grey literature): the question's topic terms, and
/// its main clause's when it has one, as a web engine reads them (every word counts, so the
/// fewer words of the main clause reach pages the whole question's words would not); then the
/// topic terms on each of `sites`.
fn web_searches(question: &str, key_terms: &[String], sites: &[String]) -> Vec<Query> {
    let web = |purpose: &str, text: String| Query {
        channel: Channel::Web,
        ..Query::new("", purpose, text)
    };
    let mut searches = vec![web(
        "the topic terms on the web (reports, guidance, organisations' pages)",
        key_terms.join(" "),
    )];
    if let Some((main_clause, _)) = question.split_once(':') {
        let main_terms = topic_words(main_clause);
        if main_terms.len() >= 2 && main_terms.len() < key_terms.len() {
            searches.push(web(
                "the question's main clause on the web",
                main_terms.join(" "),
            ));
        }
    }
    // A site's own search is the web engine's, restricted to it (`site:` in every engine).
    for site in sites {
        searches.push(web(
            &format!("the topic terms on {site}"),
            format!("site:{site} {}", key_terms.join(" ")),
        ));
    }
    searches
}

/// Adjacent terms as phrases in the plan's query syntax (`"a b"~3`): a slop of 3 lets
/// function words ("efficacy of emicizumab") sit between the terms.
fn pair_phrases(terms: &[String]) -> Vec<String> {
    terms
        .windows(2)
        .map(|pair| format!("\"{} {}\"~3", pair[0], pair[1]))
        .collect()
}

/// The phrases ORed together, or the terms themselves when there is no pair: what searches on
/// a topic's term pairs ask for.
fn pairs_or_terms(phrases: &[String], all_terms: &str) -> String {
    if phrases.is_empty() {
        all_terms.to_owned()
    } else {
        phrases.join(" OR ")
    }
}

/// The titles a field's reference books take, each beside a topic term.
const BOOK_FORMS: [&str; 3] = ["handbook", "introduction", "companion"];

/// The most topic terms the book forms are asked with: the question's leading terms name its
/// field; the later ones, its particulars, which no handbook is named after.
const BOOK_FORM_TERMS: usize = 3;

/// `"handbook T"~3 OR "introduction T"~3 OR "companion T"~3` for each of the leading topic
/// terms: the forms of seed S0 §3.1.4 ("handbook of X"), as proximity pairs, so that "of" and
/// "to" and a subtitle between the words still match.
fn book_forms(key_terms: &[String]) -> String {
    key_terms
        .iter()
        .take(BOOK_FORM_TERMS)
        .flat_map(|term| {
            BOOK_FORMS
                .iter()
                .map(move |form| format!("\"{form} {term}\"~3"))
        })
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// Hits read per query: the tier's corpus cap, except that an exhaustive review reads the first
/// 1,000 (five of OpenAlex's pages of 200). On a broad topic the included studies the question's
/// words reach sit deeper than 300 hits: measured with `litrev bench snowball`, recall on
/// Chou_2004 rises from 0.571 to 0.714, for a request or two more.
fn search_depth(tier: Tier) -> usize {
    match tier {
        Tier::Exhaustive => 1_000,
        other => other.limits().max_works,
    }
}

/// Content words of a text that are about the topic, in order, without repeats.
///
/// Words naming the kind of review are left out where they name the review itself: in a run
/// that opens or closes a clause ("A systematic review of …", "…: a meta-analysis"). Inside a
/// clause they are the topic ("the methodological rigour of systematic reviews in
/// environmental health") and stay.
fn topic_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for clause in text.split([':', '?', '!', ';', '\u{2013}', '\u{2014}']) {
        let clause_words = content_words(clause);
        let start = clause_words
            .iter()
            .position(|word| !is_review_word(word))
            .unwrap_or(clause_words.len());
        let end = clause_words
            .iter()
            .rposition(|word| !is_review_word(word))
            .map_or(start, |last| last + 1);
        add_new(&mut words, clause_words[start..end].iter().cloned());
    }
    words
}

/// Content words of a variant's term, in order, without repeats: without the words naming the
/// kind of review, unless the question is about reviews (one among its `key_terms`).
fn term_words(term: &str, key_terms: &[String]) -> Vec<String> {
    let reviews_are_topic = key_terms.iter().any(|word| is_review_word(word));
    let mut words: Vec<String> = Vec::new();
    add_new(
        &mut words,
        content_words(term)
            .into_iter()
            .filter(|word| reviews_are_topic || !is_review_word(word)),
    );
    words
}

fn is_review_word(word: &str) -> bool {
    REVIEW_WORDS.contains(&word)
}

/// Appends the `new` words `words` does not hold yet.
fn add_new(words: &mut Vec<String>, new: impl IntoIterator<Item = String>) {
    for word in new {
        if !words.contains(&word) {
            words.push(word);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(question: &str, expected_queries: &[&str]) {
        let plan = plan(question, &PlanConfig::for_tier(Tier::Standard));
        let texts: Vec<&str> = plan
            .queries
            .iter()
            .filter(|query| !query.is_directed())
            .map(|query| query.text.as_str())
            .collect();
        assert_eq!(texts, expected_queries);
        for (index, query) in plan.queries.iter().enumerate() {
            assert_eq!(query.label, format!("q{}", index + 1));
        }
        assert_eq!(plan.hits_per_query, 100);
    }

    #[test]
    fn web_searches_are_planned_only_for_a_web_source() {
        let question = "Emicizumab prophylaxis: bleeding rates in haemophilia A";
        let mut config = PlanConfig::for_tier(Tier::Quick);
        let none = plan(question, &config);
        assert!(
            none.queries
                .iter()
                .all(|query| query.channel != Channel::Web)
        );
        config.web_search = true;
        let with = plan(question, &config);
        let web: Vec<&str> = with
            .queries
            .iter()
            .filter(|query| query.channel == Channel::Web)
            .map(|query| query.text.as_str())
            .collect();
        // The question's terms and its main clause's, beside the same keyword searches.
        assert_eq!(
            web,
            [
                "emicizumab prophylaxis bleeding rates haemophilia",
                "emicizumab prophylaxis"
            ]
        );
        assert_eq!(with.queries.len(), none.queries.len() + 2);
        config.web_sites = vec!["plato.stanford.edu".to_owned()];
        let sites = plan(question, &config);
        let last = sites.queries.last().expect("a query");
        assert_eq!(last.channel, Channel::Web);
        assert!(
            sites
                .queries
                .iter()
                .all(|query| query.channel != Channel::Trending)
        );
        assert_eq!(
            last.text,
            "site:plato.stanford.edu emicizumab prophylaxis bleeding rates haemophilia"
        );
        // A source of trending papers adds one trending search on the topic terms.
        config.trending = true;
        let trending = plan(question, &config);
        let last = trending.queries.last().expect("a query");
        assert_eq!(
            (last.channel, last.text.as_str()),
            (
                Channel::Trending,
                "emicizumab prophylaxis bleeding rates haemophilia"
            )
        );
    }

    #[test]
    fn past_the_quick_tier_seminal_recent_and_book_searches_follow_the_questions_own() {
        let question = "Pharmacokinetics and efficacy of emicizumab in humans";
        let quick = plan(question, &PlanConfig::for_tier(Tier::Quick));
        assert!(quick.queries.iter().all(|query| !query.is_directed()));
        let config = PlanConfig {
            this_year: 2026,
            ..PlanConfig::for_tier(Tier::Standard)
        };
        let standard = plan(question, &config);
        let own = quick.queries.len();
        assert_eq!(standard.queries[..own], quick.queries[..]);
        let directed = &standard.queries[own..];
        assert_eq!(directed.len(), 4, "{directed:?}");
        let pairs = &quick.queries[own - 1].text;
        assert_eq!(
            (&directed[0].text, directed[0].order),
            (pairs, HitOrder::Citations)
        );
        assert_eq!(directed[1].text, quick.queries[0].text);
        assert_eq!(directed[1].from_year, Some(2022), "the last five years");
        assert_eq!(directed[2].channel, Channel::Book);
        assert_eq!(directed[2].kinds, [WorkKind::Book, WorkKind::BookChapter]);
        // The field's reference books by their titles' forms, on the leading terms only.
        assert!(
            directed[2].text.ends_with(
                " OR \"handbook pharmacokinetics\"~3 OR \"introduction pharmacokinetics\"~3 OR \"companion pharmacokinetics\"~3 OR \"handbook efficacy\"~3 OR \"introduction efficacy\"~3 OR \"companion efficacy\"~3 OR \"handbook emicizumab\"~3 OR \"introduction emicizumab\"~3 OR \"companion emicizumab\"~3"
            ),
            "{}",
            directed[2].text
        );
        assert_eq!(directed[3].channel, Channel::Expert);
        assert_eq!(directed[3].text, quick.queries[0].text);
    }

    #[test]
    fn a_stated_time_window_filters_the_years_unless_the_options_do() {
        let config = PlanConfig {
            this_year: 2026,
            ..PlanConfig::for_tier(Tier::Quick)
        };
        let stated = plan("Teacher burnout since 2010", &config);
        assert_eq!(
            (stated.filters.year_from, stated.filters.year_to),
            (Some(2010), None)
        );
        let assumed = plan("Teacher burnout", &config);
        assert_eq!(
            assumed.filters,
            Filters::default(),
            "no years when none were given"
        );
        let mut given = config.clone();
        given.filters.year_to = Some(2015);
        let optioned = plan("Teacher burnout since 2010", &given);
        assert_eq!(
            (optioned.filters.year_from, optioned.filters.year_to),
            (None, Some(2015)),
            "the options' years stand as given"
        );
        // An answer keeping to the last ten years filters them too.
        let mut answered = plan("Teacher burnout", &config);
        answered
            .brief
            .clarifications
            .push(litrev_model::Clarification {
                about: "time_window".to_owned(),
                question: "Which years?".to_owned(),
                options: vec!["any era".to_owned(), "last ten years".to_owned()],
                answer: None,
            });
        assert!(crate::answer(&mut answered.brief, 0, "last ten years"));
        apply_time_window(&mut answered);
        assert_eq!(answered.filters.year_from, Some(2017));
    }

    #[test]
    fn builds_queries_from_the_question() {
        check(
            "Pharmacokinetics and Associated Efficacy of Emicizumab in Humans: A Systematic Review",
            &[
                "pharmacokinetics associated efficacy emicizumab humans",
                "\"pharmacokinetics associated\"~3 OR \"associated efficacy\"~3 OR \"efficacy emicizumab\"~3 OR \"emicizumab humans\"~3",
            ],
        );
        check(
            "Insulin pumps in children: outcomes and costs",
            &[
                "insulin pumps children outcomes costs",
                "insulin pumps children",
                "\"insulin pumps\"~3 OR \"pumps children\"~3 OR \"children outcomes\"~3 OR \"outcomes costs\"~3",
            ],
        );
    }

    #[test]
    fn a_question_of_review_words_only_has_no_queries() {
        check("A systematic review", &[]);
    }

    #[test]
    fn review_words_are_left_out_only_where_they_name_the_review() {
        let key_terms =
            |question: &str| plan(question, &PlanConfig::for_tier(Tier::Quick)).key_terms;
        assert_eq!(
            key_terms("A systematic review and meta-analysis of emicizumab in haemophilia"),
            ["emicizumab", "haemophilia"]
        );
        assert_eq!(
            key_terms(
                "Wilson disease therapies: a systematic review and meta-analysis of controlled studies"
            ),
            ["wilson", "disease", "therapies", "controlled", "studies"]
        );
        assert_eq!(
            key_terms(
                "Does MSC source matter in knee osteoarthritis? Meta-Analysis of Randomized Trials"
            ),
            [
                "msc",
                "source",
                "matter",
                "knee",
                "osteoarthritis",
                "randomized",
                "trials"
            ]
        );
        assert_eq!(
            key_terms("Dementia risk: a systematic review of population-based evidence"),
            ["dementia", "risk", "population", "based"]
        );
        // A dash or a semicolon ends a clause as a colon does.
        assert_eq!(
            key_terms("Exercise for depression \u{2014} meta-analysis of trials"),
            ["exercise", "depression", "trials"]
        );
        assert_eq!(
            key_terms("Exercise for depression; meta-analysis of trials"),
            ["exercise", "depression", "trials"]
        );
        // Inside a clause they are the topic.
        assert_eq!(
            key_terms("The methodological rigour of systematic reviews in environmental health"),
            [
                "methodological",
                "rigour",
                "systematic",
                "reviews",
                "environmental",
                "health"
            ]
        );
        assert_eq!(
            key_terms("Fragility analysis of significant outcomes in spine surgery"),
            [
                "fragility",
                "analysis",
                "significant",
                "outcomes",
                "spine",
                "surgery"
            ]
        );
    }
}
