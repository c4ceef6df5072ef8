//! Ids, names and citation keys read from hostile text: no panic, and what they give back is
//! well formed (ids print as they parse, names are parts of the name, keys are distinct ASCII).

use litrev_model::{Author, Doi, Work, WorkId, assign_keys, base_key, family_name, given_names};
use proptest::prelude::*;

/// Id shapes the parsers know, so hostile text lands next to them.
const ID_WORDS: &[&str] = &[
    "https://openalex.org/",
    "W",
    "https://doi.org/",
    "doi:",
    "10.",
    "/",
    "pmid:",
    "PMC",
    "arXiv:",
    "arxiv.org/abs/",
    "v2",
    "CorpusId:",
    "s2:",
    "1234567",
    "2101.00001",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn ids_parse_or_refuse_and_print_as_they_parse(
        text in litrev_testkit::hostile::text_with(ID_WORDS.to_vec(), 12)
    ) {
        if let Ok(id) = text.parse::<WorkId>() {
            let printed = id.to_string();
            prop_assert_eq!(printed.parse::<WorkId>().ok(), Some(id), "{}", printed);
        }
        if let Ok(doi) = text.parse::<Doi>() {
            let printed = doi.to_string();
            prop_assert_eq!(printed.parse::<Doi>().ok(), Some(doi));
        }
    }

    #[test]
    fn names_split_into_their_own_parts(name in litrev_testkit::hostile::text()) {
        let family = family_name(&name);
        prop_assert!(name.contains(family.trim()), "{family:?} of {name:?}");
        let _given = given_names(&name);
    }

    #[test]
    fn keys_are_distinct_ascii_words(
        works in proptest::collection::vec(
            (
                litrev_testkit::hostile::text(),
                litrev_testkit::hostile::text(),
                proptest::option::of(-5000i32..5000),
            ),
            1..6,
        )
    ) {
        let works: Vec<Work> = works
            .into_iter()
            .enumerate()
            .map(|(index, (author, title, year))| {
                let id = format!("W{}", index + 1).parse().expect("an OpenAlex id");
                let mut work = Work::stub(id);
                work.authors = vec![Author { id: None, name: author, orcid: None }];
                work.title = Some(title);
                work.year = year;
                work
            })
            .collect();
        for work in &works {
            let key = base_key(work);
            prop_assert!(
                !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
                "{key:?}"
            );
        }
        let keys = assign_keys(&works);
        let distinct: std::collections::BTreeSet<&String> = keys.values().collect();
        prop_assert_eq!(distinct.len(), works.len());
    }
}
