//! Works for the unit tests: an id, a title and the ids it cites.

use litrev_model::Work;

/// A work known by its OpenAlex id, with a title and references.
pub(crate) fn work(id: &str, title: &str, references: &[&str]) -> Work {
    let mut work = Work::stub(id.parse().expect("id"));
    work.title = Some(title.to_owned());
    work.references = references
        .iter()
        .map(|id| id.parse().expect("id"))
        .collect();
    work
}
