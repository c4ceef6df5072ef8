//! Invariants checked on what a parser returns, beyond "it returned": cheap properties every
//! `Work` must have wherever it came from, since the rest of litrev relies on them.
//!
//! - Every id prints a form that parses back to the same id (the store keys works, aliases and
//!   citations by that text).
//! - A work survives a JSON round trip unchanged (step outputs and stored works are JSON).
//! - A title, when there is one, is not blank; an author has a name.
//! - A work from an API carries an id (the parsers drop those without one).

use litrev_model::{Work, WorkId};

/// What a failed invariant says.
pub type Checked = Result<(), String>;

/// The id's printed form reads back as the same id.
pub fn id_round_trip(id: &WorkId) -> Checked {
    let text = id.to_string();
    match text.parse::<WorkId>() {
        Ok(again) if again == *id => Ok(()),
        Ok(again) => Err(format!(
            "id {id:?} prints as `{text}`, which reads back as {again:?}"
        )),
        Err(error) => Err(format!(
            "id {id:?} prints as `{text}`, which does not read back: {error}"
        )),
    }
}

/// The invariants of any parsed work (RIS records may have no id).
pub fn work(work: &Work) -> Checked {
    for id in work.ids.all().iter().chain(&work.references) {
        id_round_trip(id)?;
    }
    if work
        .title
        .as_deref()
        .is_some_and(|title| title.trim().is_empty())
    {
        return Err(format!("blank title {:?} in {:?}", work.title, work.ids));
    }
    if let Some(author) = work
        .authors
        .iter()
        .find(|author| author.name.trim().is_empty())
    {
        return Err(format!(
            "author without a name {author:?} in {:?}",
            work.ids
        ));
    }
    let json =
        serde_json::to_string(work).map_err(|error| format!("does not serialise: {error}"))?;
    match serde_json::from_str::<Work>(&json) {
        Ok(again) if again == *work => Ok(()),
        Ok(again) => Err(format!(
            "changes in a JSON round trip: {work:?} became {again:?}"
        )),
        Err(error) => Err(format!("its JSON does not read back ({error}): {json}")),
    }
}

/// The invariants of a work an API returned: those of [`work`], and an id.
pub fn api_work(found: &Work) -> Checked {
    if found.ids.primary().is_none() {
        return Err(format!("a work without any id: {found:?}"));
    }
    work(found)
}

/// [`api_work`] on each work.
pub fn api_works<'a>(works: impl IntoIterator<Item = &'a Work>) -> Checked {
    works.into_iter().try_for_each(api_work)
}

#[cfg(test)]
mod tests {
    use litrev_model::Author;

    use super::*;

    #[test]
    fn flags_blank_titles_nameless_authors_and_missing_ids() {
        let id: WorkId = "W1".parse().expect("id");
        let mut good = Work::stub(id.clone());
        good.title = Some("A title".to_owned());
        assert_eq!(api_work(&good), Ok(()));
        let mut blank = good.clone();
        blank.title = Some(" ".to_owned());
        assert!(work(&blank).is_err());
        let mut nameless = good.clone();
        nameless.authors.push(Author::default());
        assert!(work(&nameless).is_err());
        assert!(api_work(&Work::default()).is_err());
        assert_eq!(work(&Work::default()), Ok(()));
    }
}
