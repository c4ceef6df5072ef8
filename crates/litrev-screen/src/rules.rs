//! Eligibility rules: what excludes a work before any ranking, and why.

use litrev_model::{Filters, ReasonCode, Work};
use litrev_text::strip_boilerplate;

/// Whether two languages are one, each named by its ISO 639-1 or 639-2 code or its English
/// name (`--language English` keeps works a source marks `en`).
fn same_language(a: &str, b: &str) -> bool {
    let code = |language: &str| {
        litrev_model::language_code(language)
            .map_or_else(|| language.trim().to_ascii_lowercase(), str::to_owned)
    };
    code(a) == code(b)
}

/// The first rule a work breaks, with a rationale a person can read; `None` when it passes.
pub fn rule_exclusion(filters: &Filters, work: &Work) -> Option<(ReasonCode, String)> {
    if work.is_retracted {
        return Some((
            ReasonCode::Retracted,
            "the source flags this work as retracted".to_owned(),
        ));
    }
    if let Some(year) = work.year {
        let too_early = filters.year_from.is_some_and(|from| year < from);
        let too_late = filters.year_to.is_some_and(|to| year > to);
        if too_early || too_late {
            return Some((
                ReasonCode::OutsideYears,
                format!(
                    "published in {year}, outside {}–{}",
                    filters
                        .year_from
                        .map_or("…".to_owned(), |from| from.to_string()),
                    filters.year_to.map_or("…".to_owned(), |to| to.to_string())
                ),
            ));
        }
    }
    if let Some(language) = &work.language
        && !filters.languages.is_empty()
        && !filters
            .languages
            .iter()
            .any(|allowed| same_language(allowed, language))
    {
        return Some((
            ReasonCode::WrongLanguage,
            format!(
                "written in `{language}`, not in {}",
                filters.languages.join(", ")
            ),
        ));
    }
    if !filters.kinds.is_empty() && !filters.kinds.contains(&work.kind) {
        return Some((
            ReasonCode::WrongType,
            format!(
                "a work of kind `{}`, which the review does not cover",
                work.kind.name()
            ),
        ));
    }
    let text = work.title_and_abstract().to_lowercase();
    if let Some(term) = filters
        .exclude_terms
        .iter()
        .find(|term| !term.trim().is_empty() && text.contains(&term.trim().to_lowercase()))
    {
        return Some((
            ReasonCode::ExcludedTerm,
            format!("mentions `{term}`, an excluded term"),
        ));
    }
    match work.abstract_text.as_deref() {
        None => Some((
            ReasonCode::MissingAbstract,
            "no abstract to take evidence from".to_owned(),
        )),
        Some(abstract_text) if strip_boilerplate(abstract_text).is_empty() => Some((
            ReasonCode::MissingAbstract,
            "its abstract is only publishing boilerplate (a publisher's notice, copyright or \
             funding), no evidence to take"
                .to_owned(),
        )),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use litrev_model::WorkKind;

    use super::*;

    fn check(filters: &Filters, work: &Work, expected: Option<ReasonCode>) {
        assert_eq!(
            rule_exclusion(filters, work).map(|(reason, _)| reason),
            expected
        );
    }

    #[test]
    fn applies_each_rule() {
        let mut work = Work::stub("W1".parse().expect("id"));
        work.title = Some("Insulin pumps in rats".into());
        work.abstract_text = Some("A study.".into());
        work.year = Some(1999);
        work.language = Some("de".into());
        work.kind = WorkKind::Editorial;
        let open = Filters::default();
        check(&open, &work, None);
        let years = Filters {
            year_from: Some(2000),
            ..Filters::default()
        };
        check(&years, &work, Some(ReasonCode::OutsideYears));
        let languages = Filters {
            languages: vec!["en".into()],
            ..Filters::default()
        };
        check(&languages, &work, Some(ReasonCode::WrongLanguage));
        // The work's language named another way (its English name, its ISO 639-2 code) is the
        // same language.
        for named in ["German", "ger", "DE"] {
            let german = Filters {
                languages: vec![named.into()],
                ..Filters::default()
            };
            check(&german, &work, None);
        }
        let kinds = Filters {
            kinds: vec![WorkKind::Article],
            ..Filters::default()
        };
        check(&kinds, &work, Some(ReasonCode::WrongType));
        let terms = Filters {
            exclude_terms: vec!["RATS".into()],
            ..Filters::default()
        };
        check(&terms, &work, Some(ReasonCode::ExcludedTerm));
        work.abstract_text = Some(
            "Article Insulin pumps in rats was published on May 1, 2007 in the journal Diabetes (volume 20, issue 5).".into(),
        );
        check(&open, &work, Some(ReasonCode::MissingAbstract));
        work.abstract_text = None;
        check(&open, &work, Some(ReasonCode::MissingAbstract));
        work.is_retracted = true;
        check(&years, &work, Some(ReasonCode::Retracted));
    }
}
