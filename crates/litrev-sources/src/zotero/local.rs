//! A local Zotero library, read from its `zotero.sqlite`: Zotero holds the file locked while it
//! runs, so the database (and any journal beside it) is copied to a temporary folder and read
//! there, never opened in place. Each regular item that is not in the trash gives a reference
//! (key, DOI, title, year, authors, type, abstract, address, venue), read as a [`Work`] by
//! [`ZoteroItem::work`], and the files of its stored attachments, found in the `storage/`
//! folder beside the database.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use litrev_model::{Author, Doi, WebUrl, Work, WorkIds, WorkKind};
use rusqlite::{Connection, OpenFlags, params};

use super::ZoteroReference;
use crate::error::{Error, Result};

/// One item of a Zotero library, read from its local database or the Web API's listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoteroItem {
    /// Its key, DOI and title, as the Web API's listing gives them.
    pub reference: ZoteroReference,
    /// Zotero's item type (`journalArticle`, `book`…).
    pub item_type: String,
    /// The year of its date field.
    pub year: Option<i32>,
    /// Its creators, "Last, First", in order.
    pub authors: Vec<String>,
    /// Its stored attachments that exist in `storage/` (none through the Web API).
    pub files: Vec<PathBuf>,
    /// Its abstract (`abstractNote`).
    pub abstract_text: Option<String>,
    /// Its web address (`url`).
    pub url: Option<String>,
    /// The journal, book, proceedings or site it appeared in.
    pub venue: Option<String>,
}

impl ZoteroItem {
    /// The item as a work: its DOI or web address as its id (none without either: a work is
    /// known by an id), title, authors, year, venue, abstract and kind.
    pub fn work(&self) -> Option<Work> {
        let doi: Option<Doi> = self
            .reference
            .doi
            .as_deref()
            .and_then(|doi| doi.parse().ok());
        let url: Option<WebUrl> = self.url.as_deref().and_then(|url| url.parse().ok());
        if doi.is_none() && url.is_none() {
            return None;
        }
        let kind = kind_of(&self.item_type);
        Some(Work {
            ids: WorkIds {
                doi,
                url: url.clone(),
                ..WorkIds::default()
            },
            title: self.reference.title.clone(),
            authors: self
                .authors
                .iter()
                .map(|name| Author {
                    // "Last, First" as a name is displayed: "First Last".
                    name: match name.split_once(", ") {
                        Some((last, first)) => format!("{first} {last}"),
                        None => name.clone(),
                    },
                    ..Author::default()
                })
                .collect(),
            year: self.year,
            venue: self.venue.clone(),
            kind,
            abstract_text: self.abstract_text.clone(),
            oa_url: url
                .filter(|_| kind == WorkKind::Webpage)
                .map(|url| url.address().to_owned()),
            ..Work::default()
        })
    }
}

/// Zotero's item type as a kind of work.
fn kind_of(item_type: &str) -> WorkKind {
    match item_type {
        "journalArticle" | "magazineArticle" | "newspaperArticle" => WorkKind::Article,
        "conferencePaper" => WorkKind::ProceedingsArticle,
        "bookSection" => WorkKind::BookChapter,
        "encyclopediaArticle" | "dictionaryEntry" => WorkKind::EncyclopediaEntry,
        "book" => WorkKind::Book,
        "preprint" => WorkKind::Preprint,
        "thesis" => WorkKind::Thesis,
        "report" => WorkKind::Report,
        "dataset" => WorkKind::Dataset,
        "webpage" | "blogPost" | "forumPost" => WorkKind::Webpage,
        _ => WorkKind::Other,
    }
}

/// Reads the regular items of the library in `database` (a `zotero.sqlite`), or of its
/// collection named `collection`, in the order Zotero added them.
///
/// # Errors
/// When the file cannot be copied or is not a Zotero database, or names no such collection.
pub fn read_local_library(database: &Path, collection: Option<&str>) -> Result<Vec<ZoteroItem>> {
    let failed = |message: String| Error::ZoteroDatabase {
        path: database.to_path_buf(),
        message,
    };
    let copy =
        tempfile::tempdir().map_err(|error| failed(format!("no temporary folder: {error}")))?;
    let copied = copy.path().join("zotero.sqlite");
    std::fs::copy(database, &copied).map_err(|error| failed(error.to_string()))?;
    for suffix in ["-journal", "-wal"] {
        let mut beside = database.as_os_str().to_owned();
        beside.push(suffix);
        let beside = PathBuf::from(beside);
        if beside.exists() {
            std::fs::copy(&beside, copy.path().join(format!("zotero.sqlite{suffix}")))
                .map_err(|error| failed(error.to_string()))?;
        }
    }
    let connection = Connection::open_with_flags(
        &copied,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|error| failed(error.to_string()))?;
    let storage = database.with_file_name("storage");
    read_items(&connection, &storage, collection).map_err(|error| match error {
        Read::Sql(error) => failed(format!("not a Zotero database: {error}")),
        Read::NoCollection(name) => Error::Zotero {
            message: format!(
                "the local library has no collection named `{name}`: give a collection's name as Zotero shows it, or leave --collection out"
            ),
        },
    })
}

/// What reading the copied database can meet.
enum Read {
    Sql(rusqlite::Error),
    NoCollection(String),
}

impl From<rusqlite::Error> for Read {
    fn from(error: rusqlite::Error) -> Read {
        Read::Sql(error)
    }
}

fn read_items(
    connection: &Connection,
    storage: &Path,
    collection: Option<&str>,
) -> std::result::Result<Vec<ZoteroItem>, Read> {
    if let Some(name) = collection {
        let known: i64 = connection.query_row(
            "SELECT count(*) FROM collections WHERE collectionName = ?1",
            params![name],
            |row| row.get(0),
        )?;
        if known == 0 {
            return Err(Read::NoCollection(name.to_owned()));
        }
    }
    let mut statement = connection.prepare(
        "SELECT i.itemID, i.key, t.typeName FROM items i \
         JOIN itemTypes t ON t.itemTypeID = i.itemTypeID \
         WHERE t.typeName NOT IN ('attachment', 'note', 'annotation') \
         AND i.itemID NOT IN (SELECT itemID FROM deletedItems) \
         AND (?1 IS NULL OR i.itemID IN (SELECT ci.itemID FROM collectionItems ci \
              JOIN collections c ON c.collectionID = ci.collectionID WHERE c.collectionName = ?1)) \
         ORDER BY i.itemID",
    )?;
    let mut items: BTreeMap<i64, ZoteroItem> = BTreeMap::new();
    for row in statement.query_map(params![collection], |row| {
        Ok((
            row.get::<_, i64>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, String>(2)?,
        ))
    })? {
        let (id, key, item_type) = row?;
        items.insert(
            id,
            ZoteroItem {
                reference: ZoteroReference {
                    key,
                    doi: None,
                    title: None,
                },
                item_type,
                year: None,
                authors: Vec::new(),
                files: Vec::new(),
                abstract_text: None,
                url: None,
                venue: None,
            },
        );
    }
    let mut fields = connection.prepare(
        "SELECT d.itemID, f.fieldName, v.value FROM itemData d \
         JOIN fields f ON f.fieldID = d.fieldID \
         JOIN itemDataValues v ON v.valueID = d.valueID \
         WHERE f.fieldName IN ('title', 'DOI', 'date', 'abstractNote', 'url', \
         'publicationTitle', 'bookTitle', 'proceedingsTitle', 'websiteTitle')",
    )?;
    for row in fields.query_map([], |row| {
        Ok((
            row.get::<_, i64>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, rusqlite::types::Value>(2)?,
        ))
    })? {
        let (id, field, value) = row?;
        let (Some(item), rusqlite::types::Value::Text(value)) = (items.get_mut(&id), value) else {
            continue;
        };
        let value = value.trim().to_owned();
        if value.is_empty() {
            continue;
        }
        match field.as_str() {
            "title" => item.reference.title = Some(value),
            "DOI" => item.reference.doi = Some(value),
            "abstractNote" => item.abstract_text = Some(value),
            "url" => item.url = Some(value),
            // Zotero stores dates as "YYYY-MM-DD original", the parts it could not read as 00.
            "date" => item.year = value.get(..4).and_then(|year| year.parse().ok()),
            _ => {
                item.venue.get_or_insert(value);
            }
        }
    }
    let mut creators = connection.prepare(
        "SELECT ic.itemID, c.firstName, c.lastName FROM itemCreators ic \
         JOIN creators c ON c.creatorID = ic.creatorID ORDER BY ic.itemID, ic.orderIndex",
    )?;
    for row in creators.query_map([], |row| {
        Ok((
            row.get::<_, i64>(0)?,
            row.get::<_, Option<String>>(1)?,
            row.get::<_, Option<String>>(2)?,
        ))
    })? {
        let (id, first, last) = row?;
        let Some(item) = items.get_mut(&id) else {
            continue;
        };
        let name = match (first.filter(|first| !first.is_empty()), last) {
            (Some(first), Some(last)) => format!("{last}, {first}"),
            (None, Some(last)) => last,
            (Some(first), None) => first,
            (None, None) => continue,
        };
        item.authors.push(name);
    }
    // Stored files sit in storage/<the attachment's key>/<name>; linked files are left alone.
    let mut attachments = connection.prepare(
        "SELECT a.parentItemID, i.key, a.path FROM itemAttachments a \
         JOIN items i ON i.itemID = a.itemID \
         WHERE a.parentItemID IS NOT NULL AND a.path LIKE 'storage:%' \
         AND a.itemID NOT IN (SELECT itemID FROM deletedItems)",
    )?;
    for row in attachments.query_map([], |row| {
        Ok((
            row.get::<_, i64>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, String>(2)?,
        ))
    })? {
        let (parent, key, path) = row?;
        let Some(item) = items.get_mut(&parent) else {
            continue;
        };
        let name = path.trim_start_matches("storage:");
        // A name that climbs out of its folder is no stored file.
        if name.is_empty() || Path::new(name).components().count() != 1 {
            continue;
        }
        let file = storage.join(&key).join(name);
        if file.is_file() {
            item.files.push(file);
        }
    }
    Ok(items.into_values().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_real_library_gives_its_articles_with_their_stored_pdfs_even_while_locked() {
        let Some(folder) = litrev_testkit::zotero_library() else {
            return;
        };
        let database = folder.join("zotero.sqlite");
        let before = std::fs::read(&database).expect("database");
        // Zotero holds its database exclusively while it runs; a copy is read instead.
        let zotero = Connection::open(&database).expect("open");
        zotero
            .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
            .expect("lock");
        let in_place = Connection::open(&database).expect("open");
        assert!(
            in_place
                .query_row("SELECT count(*) FROM items", [], |row| row.get::<_, i64>(0))
                .is_err(),
            "the database is locked in place"
        );
        drop(in_place);
        let items = read_local_library(&database, None).expect("the library reads");
        zotero.execute_batch("ROLLBACK;").expect("unlock");
        drop(zotero);
        assert_eq!(
            std::fs::read(&database).expect("database"),
            before,
            "left untouched"
        );

        assert_eq!(
            items.len(),
            5,
            "five journal articles, no attachment as an item"
        );
        assert!(items.iter().all(|item| item.item_type == "journalArticle"));
        let euler = items
            .iter()
            .find(|item| item.reference.doi.as_deref() == Some("10.4007/annals.2009.170.1417"))
            .expect("De Lellis and Székelyhidi 2009");
        assert_eq!(
            euler.reference.title.as_deref(),
            Some("The Euler equations as a differential inclusion")
        );
        assert_eq!(euler.year, Some(2009));
        assert_eq!(euler.authors, ["De Lellis, Camillo", "Székelyhidi, László"]);
        assert_eq!(euler.files.len(), 1);
        assert!(euler.files[0].ends_with(
            "storage/PIMHYJGK/De Lellis and Székelyhidi - 2009 - The Euler equations as a differential inclusion.pdf"
        ));
        let with_files = items.iter().filter(|item| !item.files.is_empty()).count();
        assert_eq!(with_files, 4, "one article has no attachment");
        let four_authors = items
            .iter()
            .find(|item| item.reference.doi.as_deref() == Some("10.1006/jcph.1998.5962"))
            .expect("Morinishi et al. 1998");
        assert_eq!(four_authors.authors.len(), 4);
        assert_eq!(four_authors.year, Some(1998));

        // As works: known by their DOIs, with the names as displayed, venue and kind.
        let work = euler.work().expect("a DOI");
        assert_eq!(work.id().to_string(), "10.4007/annals.2009.170.1417");
        assert_eq!(work.authors[0].name, "Camillo De Lellis");
        assert_eq!(work.venue.as_deref(), Some("Annals of Mathematics"));
        assert_eq!(work.kind, WorkKind::Article);
        assert_eq!(work.year, Some(2009));
        assert!(items.iter().all(|item| item.work().is_some()));

        let missing = read_local_library(&database, Some("Thesis")).expect_err("no collection");
        assert!(
            missing.to_string().contains("no collection named `Thesis`"),
            "{missing}"
        );
    }

    #[test]
    fn a_file_that_is_not_a_zotero_database_is_refused_with_what_to_do() {
        let folder = tempfile::tempdir().expect("folder");
        let database = folder.path().join("zotero.sqlite");
        std::fs::write(&database, "not a database").expect("write");
        let error = read_local_library(&database, None).expect_err("refused");
        assert!(error.to_string().contains("--zotero-sqlite"), "{error}");
        let absent =
            read_local_library(&folder.path().join("none.sqlite"), None).expect_err("refused");
        assert!(absent.to_string().contains("none.sqlite"), "{absent}");
    }
}
