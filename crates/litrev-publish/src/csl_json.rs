//! CSL-JSON export of cited works.

use std::collections::BTreeMap;

use hayagriva::citationberg::json::Item as CslItem;
use litrev_model::{Work, WorkId, WorkKind, family_name, given_names};
use serde::Serialize;

/// Writes the works as a pretty-printed CSL-JSON array, one item per work in the given order.
///
/// Each item's `id` is `keys[&work.id()]`; a work without a key is left out. The abstract is not
/// exported.
pub fn csl_json(works: &[&Work], keys: &BTreeMap<WorkId, String>) -> String {
    let items: Vec<Item<'_>> = works
        .iter()
        .filter_map(|work| {
            let key = work.ids.primary().and_then(|id| keys.get(&id))?;
            Some(item(work, key))
        })
        .collect();
    serde_json::to_string_pretty(&items).expect("items hold only strings and integers")
}

/// The works as hayagriva's CSL-JSON items under their keys: the same items `references.json`
/// holds, so styled references agree with it. A work without a key is left out.
pub(crate) fn csl_items(
    works: &[&Work],
    keys: &BTreeMap<WorkId, String>,
) -> BTreeMap<String, CslItem> {
    works
        .iter()
        .filter_map(|work| {
            let key = work.ids.primary().and_then(|id| keys.get(&id))?;
            let value = serde_json::to_value(item(work, key))
                .expect("items hold only strings and integers");
            let item: CslItem =
                serde_json::from_value(value).expect("our CSL-JSON is hayagriva's CSL-JSON");
            Some((key.clone(), item))
        })
        .collect()
}

/// One CSL-JSON item, its fields in the order they are written.
#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct Item<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    csl_type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    author: Vec<Name<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    issued: Option<Issued>,
    #[serde(skip_serializing_if = "Option::is_none")]
    container_title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    publisher: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    volume: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    issue: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    page: Option<String>,
    /// The work's language (ISO 639-1), which styles use to choose their terms: GB/T 7714
    /// writes `et al.` for an English work and `等` for a Chinese one.
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<&'a str>,
    #[serde(rename = "DOI", skip_serializing_if = "Option::is_none")]
    doi: Option<&'a str>,
    #[serde(rename = "ISBN", skip_serializing_if = "Option::is_none")]
    isbn: Option<&'a str>,
    #[serde(rename = "URL", skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Name<'a> {
    Person {
        family: &'a str,
        #[serde(skip_serializing_if = "str::is_empty")]
        given: &'a str,
    },
    /// An organisation's name, printed as written.
    Organisation { literal: &'a str },
}

#[derive(Serialize)]
struct Issued {
    /// One date of one to three parts: year, then month and day when known.
    #[serde(rename = "date-parts")]
    date_parts: [Vec<i32>; 1],
}

/// Where a kind's venue goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum VenueRole {
    Container,
    /// Theses and reports are issued by an institution, taken from the publisher first.
    Issuer,
    /// A preprint's venue is its repository (arXiv, bioRxiv), which styles print as its
    /// publisher; the repository's own publisher (Cornell University) is second best.
    Repository,
    /// A book's venue is at best its series, which sources do not tell apart from noise.
    Omitted,
}

fn item<'a>(work: &'a Work, key: &'a str) -> Item<'a> {
    let (csl_type, venue_role) = csl_type(work.kind);
    let venue = non_blank(work.venue.as_deref());
    let publisher = non_blank(work.publisher.as_deref());
    Item {
        id: key,
        csl_type,
        title: non_blank(work.title.as_deref()),
        author: authors(work),
        issued: issued(work),
        container_title: venue.filter(|_| venue_role == VenueRole::Container),
        publisher: match venue_role {
            VenueRole::Issuer => publisher.or(venue),
            VenueRole::Repository => venue.or(publisher),
            VenueRole::Container | VenueRole::Omitted => publisher,
        },
        volume: non_blank(work.biblio.volume.as_deref()),
        issue: non_blank(work.biblio.issue.as_deref()),
        page: page(work),
        language: non_blank(work.language.as_deref()),
        doi: work.ids.doi.as_ref().map(|doi| doi.as_str()),
        isbn: work.ids.isbn.as_ref().map(|isbn| isbn.as_str()),
        url: non_blank(work.oa_url.as_deref()),
    }
}

/// The CSL type of a kind, and where its venue goes.
fn csl_type(kind: WorkKind) -> (&'static str, VenueRole) {
    match kind {
        WorkKind::Article | WorkKind::Review | WorkKind::Editorial => {
            ("article-journal", VenueRole::Container)
        }
        WorkKind::ProceedingsArticle => ("paper-conference", VenueRole::Container),
        WorkKind::BookChapter => ("chapter", VenueRole::Container),
        // The encyclopedia is the entry's container: "In The Stanford Encyclopedia of …".
        WorkKind::EncyclopediaEntry => ("entry-encyclopedia", VenueRole::Container),
        WorkKind::Book => ("book", VenueRole::Omitted),
        WorkKind::Thesis => ("thesis", VenueRole::Issuer),
        WorkKind::Report => ("report", VenueRole::Issuer),
        WorkKind::Dataset => ("dataset", VenueRole::Container),
        // A web page's site is its container (`container-title`), as CSL styles print it.
        WorkKind::Webpage => ("webpage", VenueRole::Container),
        // CSL has no preprint type: `article` is its type for preprints, and the repository
        // (arXiv, bioRxiv) is their publisher, as Zotero maps them; as a container, styles
        // would print `In arXiv`.
        WorkKind::Preprint => ("article", VenueRole::Repository),
        // `article` is CSL's type for works that are none of the above.
        _ => ("article", VenueRole::Container),
    }
}

fn authors(work: &Work) -> Vec<Name<'_>> {
    work.authors
        .iter()
        .map(|author| author.name.trim())
        .filter(|name| !name.is_empty())
        .map(|name| {
            // A personal name never contains the word `and`; splitting such a name into family
            // and given names would print `Prevention, Centers for Disease Control and`.
            let names_organisation = name
                .split_whitespace()
                .any(|word| word.eq_ignore_ascii_case("and"));
            if names_organisation {
                return Name::Organisation { literal: name };
            }
            Name::Person {
                family: family_name(name),
                given: given_names(name),
            }
        })
        .collect()
}

/// The date's parts when `work.date` parses as `YYYY[-MM[-DD]]`, else the year alone.
fn issued(work: &Work) -> Option<Issued> {
    let date_parts = work
        .date
        .as_deref()
        .and_then(date_parts)
        .or_else(|| work.year.map(|year| vec![year]))?;
    Some(Issued {
        date_parts: [date_parts],
    })
}

fn date_parts(date: &str) -> Option<Vec<i32>> {
    let mut parts = date.trim().splitn(3, '-');
    let year: i32 = parts.next()?.parse().ok()?;
    let mut date_parts = vec![year];
    for (part, valid) in parts.zip([1..=12, 1..=31]) {
        let number: i32 = part.parse().ok()?;
        if !valid.contains(&number) {
            return None;
        }
        date_parts.push(number);
    }
    Some(date_parts)
}

/// `first-last`, or the first page alone.
fn page(work: &Work) -> Option<String> {
    let first = non_blank(work.biblio.first_page.as_deref())?.trim();
    match non_blank(work.biblio.last_page.as_deref()).map(str::trim) {
        Some(last) if last != first => Some(format!("{first}-{last}")),
        _ => Some(first.to_owned()),
    }
}

fn non_blank(text: Option<&str>) -> Option<&str> {
    text.filter(|text| !text.trim().is_empty())
}

#[cfg(test)]
pub(crate) mod tests {
    use litrev_model::{Author, Biblio};
    use serde_json::{Value, json};

    use super::*;

    /// A work of `kind` with a title and authors; the style tests build theirs with it too.
    pub(crate) fn work(id: &str, kind: WorkKind, authors: &[&str], title: &str) -> Work {
        let mut work = Work::stub(id.parse().expect("test id"));
        work.kind = kind;
        work.title = Some(title.to_owned());
        work.authors = authors.iter().map(|name| Author::named(*name)).collect();
        work
    }

    fn keyed(works: &[(&Work, &str)]) -> BTreeMap<WorkId, String> {
        works
            .iter()
            .map(|(work, key)| (work.id(), (*key).to_owned()))
            .collect()
    }

    /// Exports one work under the key `key` and compares the parsed JSON with `expected`.
    fn check(work: &Work, expected: Value) {
        let text = csl_json(&[work], &keyed(&[(work, "key")]));
        let parsed: Value = serde_json::from_str(&text).expect("exported CSL-JSON parses");
        assert_eq!(parsed, json!([expected]));
    }

    #[test]
    fn writes_a_journal_article_with_every_field() {
        let mut article = work(
            "10.1000/ABC_1",
            WorkKind::Article,
            &["Jörg Müller", "Rens van de Schoot", "Plato"],
            "Effects of X & Y on 50% of PTSD_cases",
        );
        article.year = Some(2020);
        article.date = Some("2020-05-17".into());
        article.venue = Some("Journal of Ünits".into());
        article.publisher = Some("Springer".into());
        article.biblio = Biblio {
            volume: Some("12".into()),
            issue: Some("3".into()),
            first_page: Some("100".into()),
            last_page: Some("120".into()),
        };
        article.oa_url = Some("https://example.org/a".into());
        article.abstract_text = Some("Not exported.".into());
        article.language = Some("de".into());
        check(
            &article,
            json!({
                "id": "key",
                "type": "article-journal",
                "title": "Effects of X & Y on 50% of PTSD_cases",
                "author": [
                    {"family": "Müller", "given": "Jörg"},
                    {"family": "van de Schoot", "given": "Rens"},
                    {"family": "Plato"},
                ],
                "issued": {"date-parts": [[2020, 5, 17]]},
                "container-title": "Journal of Ünits",
                "publisher": "Springer",
                "volume": "12",
                "issue": "3",
                "page": "100-120",
                "language": "de",
                "DOI": "10.1000/abc_1",
                "URL": "https://example.org/a",
            }),
        );
    }

    #[test]
    fn maps_kinds_and_dates() {
        let mut paper = work("W1", WorkKind::ProceedingsArticle, &["Ann Lee"], "BERT");
        paper.venue = Some("Proceedings of ACL".into());
        paper.date = Some("2019-06".into());
        check(
            &paper,
            json!({
                "id": "key",
                "type": "paper-conference",
                "title": "BERT",
                "author": [{"family": "Lee", "given": "Ann"}],
                "issued": {"date-parts": [[2019, 6]]},
                "container-title": "Proceedings of ACL",
            }),
        );

        let mut preprint = work("arXiv:2101.00001", WorkKind::Preprint, &[], "On mRNA");
        preprint.year = Some(2021);
        preprint.date = Some("2021-13-01".into());
        preprint.biblio.first_page = Some("e12".into());
        check(
            &preprint,
            json!({
                "id": "key",
                "type": "article",
                "title": "On mRNA",
                "issued": {"date-parts": [[2021]]},
                "page": "e12",
            }),
        );

        let mut report = work(
            "W3",
            WorkKind::Report,
            &["Centers for Disease Control and Prevention"],
            "Annual report",
        );
        report.venue = Some("CDC".into());
        check(
            &report,
            json!({
                "id": "key",
                "type": "report",
                "title": "Annual report",
                "author": [{"literal": "Centers for Disease Control and Prevention"}],
                "publisher": "CDC",
            }),
        );

        let mut thesis = work("W2", WorkKind::Thesis, &["Bo Li"], "A thesis");
        thesis.venue = Some("Utrecht University".into());
        check(
            &thesis,
            json!({
                "id": "key",
                "type": "thesis",
                "title": "A thesis",
                "author": [{"family": "Li", "given": "Bo"}],
                "publisher": "Utrecht University",
            }),
        );

        let mut entry = work(
            "W4",
            WorkKind::EncyclopediaEntry,
            &["David Chalmers"],
            "Consciousness",
        );
        entry.venue = Some("The Stanford Encyclopedia of Philosophy".into());
        check(
            &entry,
            json!({
                "id": "key",
                "type": "entry-encyclopedia",
                "title": "Consciousness",
                "author": [{"family": "Chalmers", "given": "David"}],
                "container-title": "The Stanford Encyclopedia of Philosophy",
            }),
        );
    }

    #[test]
    fn a_book_carries_its_isbn() {
        let book = work(
            "isbn:0-14-032872-6",
            WorkKind::Book,
            &["Roald Dahl"],
            "Fantastic Mr. Fox",
        );
        let keys = keyed(&[(&book, "dahl")]);
        let parsed: Value =
            serde_json::from_str(&csl_json(&[&book], &keys)).expect("exported CSL-JSON parses");
        assert_eq!(parsed[0]["type"], "book");
        assert_eq!(parsed[0]["ISBN"], "9780140328721");
    }

    #[test]
    fn keeps_order_and_skips_works_without_a_key() {
        let first = work("W10", WorkKind::Book, &["Jörg Müller"], "Über alles");
        let second = work("W11", WorkKind::Dataset, &[], "Data");
        let unkeyed = work("W12", WorkKind::Article, &["Bo Li"], "Left out");
        let keys = keyed(&[(&first, "muller2020uber"), (&second, "anonnddata")]);
        let text = csl_json(&[&second, &unkeyed, &first], &keys);
        assert!(text.starts_with("[\n  {\n    \"id\": \"anonnddata\",\n"));
        assert!(text.contains("Über alles"), "non-ASCII stays UTF-8");
        let parsed: Value = serde_json::from_str(&text).expect("exported CSL-JSON parses");
        let ids: Vec<&str> = parsed
            .as_array()
            .expect("an array")
            .iter()
            .filter_map(|item| item["id"].as_str())
            .collect();
        assert_eq!(ids, ["anonnddata", "muller2020uber"]);
        assert_eq!(parsed[1]["type"], "book");
        assert_eq!(csl_json(&[], &keys), "[]");
    }
}
