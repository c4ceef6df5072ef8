//! CSL-JSON items (what `references.json` holds) as Zotero items, and the mark that tells an
//! item litrev made for a reference from any other.

use serde_json::{Map, Value, json};

/// The tag every item litrev creates carries.
pub const TAG: &str = "litrev";

/// How the mark of a reference opens its line in an item's `extra` field.
pub const MARK_PREFIX: &str = "litrev: ";

/// The mark of a CSL-JSON item: its DOI (lower case) when it has one, so any review citing
/// the work finds the item, else its citation key.
pub fn mark_of(csl: &Value) -> Option<String> {
    if let Some(doi) = text(csl, "DOI") {
        return Some(format!("doi:{}", doi.to_lowercase()));
    }
    text(csl, "id").map(|key| format!("key:{key}"))
}

/// The marks an item's `extra` field holds, one per `litrev: …` line.
pub fn marks_in_extra(extra: &str) -> Vec<String> {
    extra
        .lines()
        .filter_map(|line| line.trim().strip_prefix(MARK_PREFIX))
        .map(|mark| mark.trim().to_owned())
        .filter(|mark| !mark.is_empty())
        .collect()
}

/// The Zotero item for a CSL-JSON item, in `collection`, tagged [`TAG`] and marked with
/// [`mark_of`] in `extra` (with its citation key, which Better BibTeX reads as `Citation Key`).
/// `None` for an item without a title.
pub fn item_from_csl(csl: &Value, collection: &str) -> Option<Value> {
    let title = text(csl, "title")?;
    let mark = mark_of(csl)?;
    let csl_type = text(csl, "type").unwrap_or("article-journal");
    let item_type = item_type(csl_type);
    let mut item = Map::new();
    item.insert("itemType".into(), json!(item_type));
    item.insert("title".into(), json!(title));
    item.insert("creators".into(), Value::Array(creators(csl)));
    if let Some(date) = date(csl) {
        item.insert("date".into(), json!(date));
    }
    let container = text(csl, "container-title");
    let container_field = match item_type {
        "journalArticle" => Some("publicationTitle"),
        "conferencePaper" => Some("proceedingsTitle"),
        "bookSection" => Some("bookTitle"),
        "preprint" => Some("repository"),
        _ => None,
    };
    if let (Some(field), Some(container)) = (container_field, container) {
        item.insert(field.into(), json!(container));
    }
    let publisher_field = match item_type {
        "book" | "bookSection" | "conferencePaper" | "document" => Some("publisher"),
        "report" => Some("institution"),
        "thesis" => Some("university"),
        _ => None,
    };
    if let (Some(field), Some(publisher)) = (publisher_field, text(csl, "publisher")) {
        item.insert(field.into(), json!(publisher));
    }
    if matches!(
        item_type,
        "journalArticle" | "conferencePaper" | "bookSection" | "book"
    ) && let Some(volume) = text(csl, "volume")
    {
        item.insert("volume".into(), json!(volume));
    }
    if item_type == "journalArticle"
        && let Some(issue) = text(csl, "issue")
    {
        item.insert("issue".into(), json!(issue));
    }
    if matches!(
        item_type,
        "journalArticle" | "conferencePaper" | "bookSection"
    ) && let Some(pages) = text(csl, "page")
    {
        item.insert("pages".into(), json!(pages));
    }
    if let Some(language) = text(csl, "language") {
        item.insert("language".into(), json!(language));
    }
    if let Some(url) = text(csl, "URL") {
        item.insert("url".into(), json!(url));
    }
    let mut extra = vec![format!("{MARK_PREFIX}{mark}")];
    if let Some(key) = text(csl, "id") {
        extra.push(format!("Citation Key: {key}"));
    }
    match text(csl, "DOI") {
        // Zotero's DOI field exists on these types only; the others keep it in `extra`,
        // where Zotero's citation processor reads it.
        Some(doi) if has_doi_field(item_type) => {
            item.insert("DOI".into(), json!(doi));
        }
        Some(doi) => extra.push(format!("DOI: {doi}")),
        None => {}
    }
    item.insert("extra".into(), json!(extra.join("\n")));
    item.insert("tags".into(), json!([{ "tag": TAG }]));
    item.insert("collections".into(), json!([collection]));
    item.insert("relations".into(), json!({}));
    Some(Value::Object(item))
}

/// The Zotero item type of a CSL type (Zotero's own CSL mappings, read backwards).
fn item_type(csl_type: &str) -> &'static str {
    match csl_type {
        "article-journal" | "article" | "review" => "journalArticle",
        "paper-conference" => "conferencePaper",
        "book" => "book",
        "chapter" | "entry-encyclopedia" | "entry-dictionary" => "bookSection",
        "thesis" => "thesis",
        "report" => "report",
        "webpage" | "post-weblog" => "webpage",
        "dataset" => "dataset",
        "manuscript" => "manuscript",
        _ if csl_type == "preprint" => "preprint",
        _ => "document",
    }
}

/// Whether Zotero's schema gives the type a `DOI` field.
fn has_doi_field(item_type: &str) -> bool {
    matches!(
        item_type,
        "journalArticle" | "conferencePaper" | "preprint" | "dataset"
    )
}

fn creators(csl: &Value) -> Vec<Value> {
    csl.get("author")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|name| {
            if let Some(literal) = name.get("literal").and_then(Value::as_str) {
                return Some(json!({"creatorType": "author", "name": literal}));
            }
            let family = name.get("family").and_then(Value::as_str)?;
            let given = name.get("given").and_then(Value::as_str).unwrap_or("");
            Some(json!({"creatorType": "author", "firstName": given, "lastName": family}))
        })
        .collect()
}

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` from CSL's `issued.date-parts`.
pub(crate) fn date(csl: &Value) -> Option<String> {
    let parts = csl
        .get("issued")?
        .get("date-parts")?
        .as_array()?
        .first()?
        .as_array()?;
    // CSL-JSON allows numbers or numeric strings (`[["1965", "6", "1"]]`).
    let numbers: Vec<i64> = parts
        .iter()
        .map_while(|part| {
            part.as_i64()
                .or_else(|| part.as_str()?.trim().parse::<i64>().ok())
        })
        .collect();
    match numbers.as_slice() {
        [year] => Some(format!("{year:04}")),
        [year, month] => Some(format!("{year:04}-{month:02}")),
        [year, month, day, ..] => Some(format!("{year:04}-{month:02}-{day:02}")),
        [] => None,
    }
}

fn text<'a>(csl: &'a Value, field: &str) -> Option<&'a str> {
    csl.get(field)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|value| !value.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_article_a_book_and_a_chapter_become_their_zotero_types() {
        let article = json!({"id": "shima2016factor", "type": "article-journal",
            "title": "Factor VIII-mimetic function", "author": [{"family": "Shima", "given": "Midori"},
            {"literal": "HAVEN Group"}], "issued": {"date-parts": [[2016, 5]]},
            "container-title": "NEJM", "volume": "374", "issue": "21", "page": "2044-2053",
            "DOI": "10.1056/NEJMoa1511769"});
        let item = item_from_csl(&article, "COLL1234").expect("item");
        assert_eq!(item["itemType"], "journalArticle");
        assert_eq!(item["publicationTitle"], "NEJM");
        assert_eq!(item["date"], "2016-05");
        assert_eq!(item["DOI"], "10.1056/NEJMoa1511769");
        assert_eq!(item["creators"][0]["lastName"], "Shima");
        assert_eq!(item["creators"][1]["name"], "HAVEN Group");
        assert_eq!(item["collections"][0], "COLL1234");
        let extra = item["extra"].as_str().expect("extra");
        assert_eq!(marks_in_extra(extra), ["doi:10.1056/nejmoa1511769"]);
        assert!(extra.contains("Citation Key: shima2016factor"));

        let book = json!({"id": "kitchen2019", "type": "book", "title": "Handbook of haemophilia",
            "publisher": "Wiley", "DOI": "10.1002/9781119426080", "issued": {"date-parts": [[2019]]}});
        let item = item_from_csl(&book, "C").expect("book");
        assert_eq!(
            (item["itemType"].as_str(), item["publisher"].as_str()),
            (Some("book"), Some("Wiley"))
        );
        assert!(
            item.get("DOI").is_none(),
            "books have no DOI field in Zotero"
        );
        assert!(
            item["extra"]
                .as_str()
                .is_some_and(|extra| extra.contains("DOI: 10.1002/9781119426080"))
        );

        let chapter = json!({"id": "c", "type": "chapter", "title": "Inhibitors", "container-title": "Handbook"});
        let item = item_from_csl(&chapter, "C").expect("chapter");
        assert_eq!(
            (item["itemType"].as_str(), item["bookTitle"].as_str()),
            (Some("bookSection"), Some("Handbook"))
        );
        assert_eq!(
            marks_in_extra(item["extra"].as_str().expect("extra")),
            ["key:c"]
        );
        assert!(item_from_csl(&json!({"id": "x", "type": "book"}), "C").is_none());
    }
}
