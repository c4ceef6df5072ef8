//! What a sentence of a paper says it is: the cue phrases of each card field, and the shapes
//! (sample sizes, numbers with units) that mark results and samples. Matching is on the
//! sentence's lower-cased words, so punctuation and case never decide.

use litrev_model::CardField;

/// A sentence as words: lower-cased, letters, digits and `%`, `=`, `<`, `>` kept.
pub(crate) struct Words {
    /// The words joined by single spaces, with a space at each end, for phrase search.
    spaced: String,
    tokens: Vec<String>,
}

impl Words {
    pub(crate) fn of(sentence: &str) -> Words {
        let mut cleaned = String::with_capacity(sentence.len() + 2);
        for c in sentence.chars().flat_map(char::to_lowercase) {
            if c.is_alphanumeric() || matches!(c, '%' | '=' | '<' | '>' | '.' | ',') {
                cleaned.push(c);
            } else {
                cleaned.push(' ');
            }
        }
        // A full stop or comma inside a number stays (`5.2`, `1,200`); elsewhere it is a break.
        let tokens: Vec<String> = cleaned
            .split_whitespace()
            .map(|token| token.trim_matches(['.', ',']).to_owned())
            .filter(|token| !token.is_empty())
            .flat_map(|token| {
                if token.chars().any(|c| c.is_ascii_digit()) {
                    vec![token]
                } else {
                    token
                        .split(['.', ','])
                        .filter(|part| !part.is_empty())
                        .map(str::to_owned)
                        .collect()
                }
            })
            .collect();
        Words {
            spaced: format!(" {} ", tokens.join(" ")),
            tokens,
        }
    }

    /// How many words.
    pub(crate) fn len(&self) -> usize {
        self.tokens.len()
    }

    /// How many of the phrases occur, as whole words.
    pub(crate) fn count(&self, phrases: &[&str]) -> usize {
        phrases
            .iter()
            .filter(|phrase| self.spaced.contains(&format!(" {phrase} ")))
            .count()
    }

    /// How many words hold a digit.
    pub(crate) fn numbers(&self) -> usize {
        self.tokens
            .iter()
            .filter(|token| token.chars().any(|c| c.is_ascii_digit()))
            .count()
    }

    /// The share of words that are numbers: tables flattened into text are mostly numbers.
    pub(crate) fn number_share(&self) -> f64 {
        if self.tokens.is_empty() {
            return 0.0;
        }
        self.numbers() as f64 / self.tokens.len() as f64
    }

    /// A count of people or things: a number followed within three words by a noun naming
    /// who or what was studied (`119 consecutive patients`), or `n = 40`.
    pub(crate) fn has_sample_size(&self) -> bool {
        let is_count = |token: &str| {
            let digits = token.replace(',', "");
            !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) && digits != "0"
        };
        self.tokens.iter().enumerate().any(|(index, token)| {
            let counted = is_count(token)
                && self.tokens[index + 1..]
                    .iter()
                    .take(3)
                    .any(|next| SAMPLE_NOUNS.contains(&next.as_str()));
            let n_equals = token == "n"
                && self.tokens.get(index + 1).is_some_and(|next| next == "=")
                && self
                    .tokens
                    .get(index + 2)
                    .is_some_and(|next| is_count(next));
            counted || n_equals
        })
    }
}

/// Nouns a sample is counted in.
const SAMPLE_NOUNS: &[&str] = &[
    "patients",
    "participants",
    "subjects",
    "people",
    "persons",
    "individuals",
    "adults",
    "children",
    "adolescents",
    "infants",
    "women",
    "men",
    "mothers",
    "students",
    "workers",
    "respondents",
    "volunteers",
    "cases",
    "controls",
    "households",
    "families",
    "schools",
    "hospitals",
    "practices",
    "animals",
    "mice",
    "rats",
    "sheep",
    "goats",
    "cattle",
    "samples",
    "specimens",
    "isolates",
    "strains",
    "sera",
    "eyes",
    "teeth",
    "users",
    "employees",
    "physicians",
    "nurses",
    "clinicians",
    "farms",
    "sites",
    "centres",
    "centers",
    "trials",
    "studies",
    "articles",
    "cohorts",
    "pregnancies",
    "births",
    "deaths",
    "tumours",
    "tumors",
];

/// The cue phrases of a field: a sentence holding one is a candidate for the field.
pub(crate) fn cues(field: CardField) -> &'static [&'static str] {
    match field {
        CardField::Aim => &[
            "we aimed",
            "we aim",
            "aim of",
            "aims of",
            "aim was",
            "aimed to",
            "objective of",
            "objectives of",
            "objective was",
            "purpose of",
            "we sought",
            "sought to",
            "this study investigates",
            "this study examines",
            "this study was designed",
            "we investigated whether",
            "we examined whether",
            "we hypothesized",
            "we hypothesised",
            "here we",
            "in this study we",
            "in this paper we",
            "the goal of",
            "our goal",
            "we set out",
            "set out to",
            "this paper",
            "the present study",
            "this study",
        ],
        CardField::Design => &[
            "randomised controlled trial",
            "randomized controlled trial",
            "randomised trial",
            "randomized trial",
            "cluster randomised",
            "cluster randomized",
            "cohort study",
            "prospective cohort",
            "retrospective cohort",
            "case control",
            "case-control",
            "cross sectional",
            "cross-sectional",
            "longitudinal",
            "prospective",
            "retrospective",
            "double blind",
            "double-blind",
            "open label",
            "open-label",
            "single arm",
            "systematic review",
            "meta analysis",
            "meta-analysis",
            "qualitative",
            "semi structured interviews",
            "semi-structured interviews",
            "focus groups",
            "survey",
            "questionnaire study",
            "observational",
            "phase i",
            "phase ii",
            "phase iii",
            "pilot study",
            "feasibility study",
            "case series",
            "case report",
            "mathematical model",
            "simulation",
            "population based",
            "population-based",
            "registry",
            "nested case",
            "quasi experimental",
            "before and after",
            "serological survey",
            "in vitro",
            "in vivo",
            "surveys",
        ],
        CardField::Population => &[
            "patients",
            "participants",
            "subjects",
            "recruited",
            "enrolled",
            "eligible",
            "inclusion criteria",
            "exclusion criteria",
            "were included",
            "aged",
            "years old",
            "volunteers",
            "children",
            "adults",
            "women",
            "men",
            "consecutive",
            "sample of",
            "population",
            "animals",
            "were selected",
        ],
        CardField::SampleSize => &[],
        CardField::Setting => &[
            "conducted in",
            "conducted at",
            "carried out in",
            "carried out at",
            "recruited from",
            "took place",
            "was performed in",
            "were performed in",
            "hospital",
            "clinic",
            "university",
            "centre",
            "center",
            "province",
            "district",
            "country",
            "region",
            "multicentre",
            "multicenter",
            "community",
            "primary care",
            "between january",
            "from january",
            "during the period",
            "study period",
            "were collected in",
            "were collected from",
        ],
        CardField::Interventions => &[
            "intervention",
            "interventions",
            "treated with",
            "received",
            "were given",
            "administered",
            "exposure",
            "exposed to",
            "dose of",
            "doses of",
            "assigned to",
            "randomised to",
            "randomized to",
            "allocated to",
            "treatment group",
            "therapy",
            "supplementation",
            "fed",
            "dietary exposure",
            "injected",
            "vaccinated",
        ],
        CardField::Comparators => &[
            "compared with",
            "compared to",
            "versus",
            "vs",
            "placebo",
            "control group",
            "control groups",
            "usual care",
            "standard care",
            "standard of care",
            "no treatment",
            "sham",
            "controls",
            "reference group",
            "unexposed",
        ],
        CardField::Outcomes => &[
            "primary outcome",
            "secondary outcome",
            "primary outcomes",
            "secondary outcomes",
            "outcome measure",
            "outcome measures",
            "end point",
            "endpoint",
            "endpoints",
            "was measured",
            "were measured",
            "was assessed",
            "were assessed",
            "assessed using",
            "assessed by",
            "measured using",
            "measured by",
            "was determined",
            "were determined",
            "was calculated",
            "were calculated",
            "questionnaire",
            "scale",
            "score",
            "scores",
            "incidence",
            "prevalence",
            "mortality",
            "survival",
            "was estimated",
            "were estimated",
            "was recorded",
            "were recorded",
        ],
        CardField::Results => &[
            "significant",
            "significantly",
            "increase",
            "increased",
            "decrease",
            "decreased",
            "reduced",
            "reduction",
            "higher",
            "lower",
            "associated with",
            "odds ratio",
            "hazard ratio",
            "relative risk",
            "95% ci",
            "ci",
            "p <",
            "p =",
            "p=",
            "p<",
            "%",
            "mean",
            "median",
            "difference",
            "improved",
            "prevalence",
            "found",
            "showed",
            "observed",
        ],
        CardField::Limitations => &[
            "limitation",
            "limitations",
            "limited by",
            "is limited",
            "are limited",
            "a weakness",
            "weaknesses",
            "caution",
            "cautiously",
            "may not be generalisable",
            "may not be generalizable",
            "generalisability",
            "generalizability",
            "small sample",
            "sample size was small",
            "we did not",
            "we could not",
            "was not possible",
            "were not available",
            "lack of",
            "bias",
            "biased",
            "confounding",
            "confounders",
            "underpowered",
            "self reported",
            "self-reported",
            "cannot be excluded",
            "cannot exclude",
            "should be interpreted",
            "not be ruled out",
            "shortcoming",
            "drawback",
        ],
        CardField::FutureWork => &[
            "future research",
            "future studies",
            "future study",
            "future work",
            "future trials",
            "further research",
            "further studies",
            "further work",
            "further investigation",
            "further investigations",
            "further trials",
            "should be investigated",
            "should be explored",
            "should be examined",
            "remains to be",
            "remain to be",
            "warrant further",
            "warrants further",
            "is needed",
            "are needed",
            "is required",
            "are required",
            "is warranted",
            "are warranted",
            "would be useful",
            "it would be interesting",
            "next step",
            "larger studies",
            "larger trials",
            "needs to be",
            "need to be",
        ],
        CardField::DataAvailability => &[
            "data are available",
            "data is available",
            "data were deposited",
            "are available from",
            "is available from",
            "available at",
            "available on",
            "available online",
            "code is available",
            "source code",
            "github",
            "zenodo",
            "figshare",
            "dryad",
            "deposited in",
            "accession number",
            "accession numbers",
            "genbank",
            "supplementary material",
            "supporting information",
            "data availability",
            "upon request",
            "on request",
        ],
    }
}
