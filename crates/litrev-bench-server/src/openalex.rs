//! A local stand-in for the OpenAlex `/works` API, serving Work records from snapshot files.
//!
//! It answers the syntax litrev's OpenAlex client uses — `filter=` with `openalex:`, `doi:`,
//! `cites:`, `cited_by:`, `type:` (the record's `type` or `type_crossref`) and
//! `from_publication_date:` (by `publication_year`) (OR-lists joined by `|`, at most 100 values, as the real API
//! allows; a list opening with `!` means none of its values, and comma-separated filters,
//! the same key repeated included, must all hold), `search=` (boolean `AND`/`OR`/`NOT`, quoted
//! phrases, bare words joined by `AND`), `sort=cited_by_count:desc`, `select=`, `per_page` (at most 200), `cursor` and
//! `page` paging, and `/works/{id}` — and refuses what the real API refuses (too many OR
//! values, too large pages, unknown filters, a request line over [`MAX_REQUEST_LINE`] bytes)
//! with the real API's error shape. Search ranks by a BM25 score over title and abstract with
//! plural folding; the real service stems with Kstem, so rankings differ in detail but not in
//! kind. `cited_by_count` counts the served works citing a work, so it agrees with `cites:`.
//! Requests are counted by the [`crate::http::Server`] it runs behind.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde_json::{Value, json};

use crate::http::ServedRequest;

/// The most values one OR-filter may list.
pub const MAX_OR_VALUES: usize = 100;
/// The largest page.
pub const MAX_PER_PAGE: usize = 200;
/// The longest request line (`GET /works?… HTTP/1.1`) the API reads: the limit of the
/// gunicorn server in front of it, which answers longer ones with "Request Line is too large".
pub const MAX_REQUEST_LINE: usize = 4094;

/// Work records indexed the ways the API looks them up.
#[derive(Debug, Default)]
pub struct OpenAlexWorks {
    records: Vec<Value>,
    by_id: HashMap<String, usize>,
    by_doi: HashMap<String, usize>,
    citing: HashMap<String, Vec<usize>>,
    terms: Vec<HashMap<String, u32>>,
    lengths: Vec<usize>,
    document_frequency: HashMap<String, usize>,
}

/// An answer: HTTP status and JSON body.
pub type Answer = (u16, Value);

impl OpenAlexWorks {
    /// Reads OpenAlex Work records, one JSON object per line (`.jsonl` or `.jsonl.gz`).
    ///
    /// # Errors
    /// When a file cannot be read or a line is not JSON.
    pub fn load(paths: &[impl AsRef<Path>]) -> std::io::Result<OpenAlexWorks> {
        let mut works = OpenAlexWorks::default();
        for path in paths {
            let path = path.as_ref();
            let file = std::fs::File::open(path)?;
            let reader: Box<dyn Read> = if path.extension().is_some_and(|ext| ext == "gz") {
                Box::new(flate2::read::GzDecoder::new(file))
            } else {
                Box::new(file)
            };
            for line in BufReader::new(reader).lines() {
                let line = line?;
                if line.trim().is_empty() {
                    continue;
                }
                let record: Value = serde_json::from_str(&line)
                    .map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidData, error))?;
                works.add(record);
            }
        }
        works.link_citations();
        Ok(works)
    }

    /// How many works are served.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether no work is served.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn add(&mut self, record: Value) {
        let Some(id) = record.get("id").and_then(Value::as_str).map(short_id) else {
            return;
        };
        if self.by_id.contains_key(&id) {
            return;
        }
        let index = self.records.len();
        if let Some(doi) = record.get("doi").and_then(Value::as_str) {
            self.by_doi.insert(normalise_doi(doi), index);
        }
        let text = format!(
            "{} {}",
            record.get("title").and_then(Value::as_str).unwrap_or(""),
            abstract_text(&record)
        );
        let mut counts: HashMap<String, u32> = HashMap::new();
        let words = analyse(&text);
        for word in &words {
            *counts.entry(word.clone()).or_default() += 1;
        }
        for word in counts.keys() {
            *self.document_frequency.entry(word.clone()).or_default() += 1;
        }
        self.lengths.push(words.len());
        self.terms.push(counts);
        self.by_id.insert(id, index);
        self.records.push(record);
    }

    /// Indexes who cites whom, and sets each record's `cited_by_count` to the number of served
    /// works citing it: the count then agrees with what `cites:` answers, as on the real API,
    /// where a client may trust it to tell whether it already knows every citer.
    fn link_citations(&mut self) {
        for (index, record) in self.records.iter().enumerate() {
            for cited in references(record) {
                self.citing.entry(cited).or_default().push(index);
            }
        }
        for record in &mut self.records {
            let count = record
                .get("id")
                .and_then(Value::as_str)
                .map(short_id)
                .and_then(|id| self.citing.get(&id))
                .map_or(0, Vec::len);
            if let Value::Object(fields) = record {
                fields.insert("cited_by_count".into(), json!(count));
            }
        }
    }

    /// The ids (`W…`) of every work a `search=` expression matches, as the API would list
    /// them without a page limit.
    ///
    /// # Errors
    /// When the expression is not valid search syntax.
    pub fn matching(&self, search: &str) -> Result<Vec<String>, String> {
        let expression = parse_search(search)?;
        Ok((0..self.records.len())
            .filter(|&index| expression.matches(&|word| self.has(index, word)))
            .filter_map(|index| self.records[index].get("id").and_then(Value::as_str))
            .map(short_id)
            .collect())
    }

    /// Answers a request the way api.openalex.org does.
    pub fn answer(&self, request: &ServedRequest) -> Answer {
        let line = request.method.len() + 1 + request.raw_target.len() + " HTTP/1.1".len();
        if line > MAX_REQUEST_LINE {
            return error(
                400,
                "Bad Request",
                &format!("Request Line is too large ({line} > {MAX_REQUEST_LINE})"),
            );
        }
        self.answer_query(&request.path, &request.query)
    }

    /// Answers `GET path?query` (decoded), the request line's length aside.
    fn answer_query(&self, path: &str, query: &[(String, String)]) -> Answer {
        let path = path.trim_end_matches('/');
        if let Some(id) = path.strip_prefix("/works/") {
            return self.single(id, query);
        }
        if path == "/authors" {
            return self.authors(query);
        }
        if path != "/works" {
            return error(404, "Not found", &format!("no route {path}"));
        }
        self.list(query)
    }

    /// `/authors?filter=topics.id:T1|T2` (or `x_concepts.id:C1|C2`)`&sort=cited_by_count:desc`:
    /// the authors of the served works filed under those subjects, each described by the served
    /// works alone (works, citations, h-index, works per year, and per subject the count of
    /// works, or for concepts the share of them in per cent, as the 2023 schema gave it).
    fn authors(&self, query: &[(String, String)]) -> Answer {
        let Some((key, values)) = param(query, "filter").and_then(|filter| filter.split_once(':'))
        else {
            return error(
                400,
                "Invalid query parameters error.",
                "filter is required here",
            );
        };
        let field = match key {
            "topics.id" => "topics",
            "x_concepts.id" => "concepts",
            other => {
                return error(
                    400,
                    "Invalid query parameters error.",
                    &format!("{other} is not a valid field"),
                );
            }
        };
        if let Some(other) = param(query, "sort").filter(|sort| *sort != "cited_by_count:desc") {
            return error(
                400,
                "Invalid query parameters error.",
                &format!("sort {other} is not served here: only cited_by_count:desc"),
            );
        }
        let per_page = param(query, "per_page")
            .and_then(|text| text.parse::<usize>().ok())
            .unwrap_or(25)
            .clamp(1, MAX_PER_PAGE);
        let wanted: BTreeSet<String> = values.split('|').map(short_id).collect();
        let authors_of = |record: &Value| -> Vec<(String, Value)> {
            record
                .get("authorships")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|authorship| {
                    let author = authorship.get("author")?;
                    Some((short_id(author.get("id")?.as_str()?), author.clone()))
                })
                .collect()
        };
        // Two passes and records for the page alone: describing all of a large snapshot's
        // authors took over half a second in a debug build, past the tests' short timeouts.
        let mut chosen: BTreeMap<String, Value> = BTreeMap::new();
        for record in &self.records {
            if subjects(record, field)
                .iter()
                .any(|(id, _)| wanted.contains(id))
            {
                chosen.extend(authors_of(record));
            }
        }
        let mut works_of: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
        for record in &self.records {
            for (id, _) in authors_of(record) {
                if let Some((key, _)) = chosen.get_key_value(&id) {
                    works_of.entry(key.as_str()).or_default().push(record);
                }
            }
        }
        let works = |id: &str| works_of.get(id).map_or(&[][..], Vec::as_slice);
        let cited = |id: &str| -> u64 {
            works(id)
                .iter()
                .filter_map(|work| work.get("cited_by_count").and_then(Value::as_u64))
                .sum()
        };
        let mut ranked: Vec<(u64, &String, &Value)> = chosen
            .iter()
            .map(|(id, author)| (cited(id), id, author))
            .collect();
        // Most cited first, then by the full id as OpenAlex breaks ties.
        ranked.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| a.2["id"].as_str().cmp(&b.2["id"].as_str()))
        });
        let count = ranked.len();
        ranked.truncate(per_page);
        let results: Vec<Value> = ranked
            .into_iter()
            .map(|(_, id, author)| author_record(author, works(id), field))
            .collect();
        (
            200,
            json!({
                "meta": {"count": count, "db_response_time_ms": 1, "page": 1, "per_page": per_page, "groups_count": null},
                "results": results,
                "group_by": [],
            }),
        )
    }

    fn single(&self, id: &str, query: &[(String, String)]) -> Answer {
        let index = if let Some(doi) = id.strip_prefix("doi:") {
            self.by_doi.get(&normalise_doi(doi))
        } else if id.starts_with("https://doi.org/") || id.starts_with("10.") {
            self.by_doi.get(&normalise_doi(id))
        } else {
            self.by_id.get(&short_id(id))
        };
        match index {
            Some(&index) => (200, select(&self.records[index], param(query, "select"))),
            None => error(
                404,
                "Not found",
                &format!("https://openalex.org/{id} is not a valid OpenAlex ID"),
            ),
        }
    }

    fn list(&self, query: &[(String, String)]) -> Answer {
        for (key, _) in query {
            let known = matches!(
                key.as_str(),
                "filter"
                    | "search"
                    | "select"
                    | "per_page"
                    | "per-page"
                    | "cursor"
                    | "page"
                    | "sort"
                    | "mailto"
                    | "api_key"
            );
            if !known {
                return error(
                    400,
                    "Invalid query parameters error.",
                    &format!("{key} is not a valid parameter"),
                );
            }
        }
        let per_page = match param(query, "per_page").or(param(query, "per-page")) {
            None => 25,
            Some(text) => match text.parse::<usize>() {
                Ok(value) if (1..=MAX_PER_PAGE).contains(&value) => value,
                _ => {
                    return error(
                        400,
                        "Invalid query parameters error.",
                        "per-page parameter must be between 1 and 200",
                    );
                }
            },
        };
        let mut candidates: Option<BTreeSet<usize>> = None;
        if let Some(filter) = param(query, "filter") {
            match self.filter(filter) {
                Ok(matches) => candidates = Some(matches),
                Err(message) => return error(400, "Invalid query parameters error.", &message),
            }
        }
        let mut ranked: Vec<(usize, f64)> = match param(query, "search") {
            Some(search) => match parse_search(search) {
                Ok(expression) => self
                    .candidates(candidates.as_ref())
                    .filter(|&index| expression.matches(&|word| self.has(index, word)))
                    .map(|index| (index, self.score(index, &expression.words())))
                    .collect(),
                Err(message) => return error(400, "Invalid query parameters error.", &message),
            },
            None => self
                .candidates(candidates.as_ref())
                .map(|index| (index, 0.0))
                .collect(),
        };
        let searched = param(query, "search").is_some();
        match param(query, "sort") {
            None => {
                if searched {
                    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                }
            }
            Some("cited_by_count:desc") => {
                let cited = |index: usize| {
                    self.records[index]
                        .get("cited_by_count")
                        .and_then(Value::as_u64)
                        .unwrap_or(0)
                };
                ranked.sort_by(|a, b| cited(b.0).cmp(&cited(a.0)).then(a.0.cmp(&b.0)));
            }
            Some(other) => {
                return error(
                    400,
                    "Invalid query parameters error.",
                    &format!("sort {other} is not served here: only cited_by_count:desc"),
                );
            }
        }
        let (start, page_number, next_cursor) = match (param(query, "cursor"), param(query, "page"))
        {
            (Some(cursor), _) => {
                let start = if cursor == "*" {
                    0
                } else {
                    match cursor.strip_prefix("offset-").map(str::parse::<usize>) {
                        Some(Ok(offset)) => offset,
                        _ => {
                            return error(
                                400,
                                "Invalid query parameters error.",
                                "cursor is not valid",
                            );
                        }
                    }
                };
                let next = start + per_page;
                let next_cursor = (next < ranked.len()).then(|| format!("offset-{next}"));
                (start, Value::Null, Some(next_cursor))
            }
            (None, page) => {
                let page = page
                    .and_then(|page| page.parse::<usize>().ok())
                    .unwrap_or(1);
                (
                    page.saturating_sub(1) * per_page,
                    json!(page),
                    None::<Option<String>>,
                )
            }
        };
        let selected = param(query, "select");
        let results: Vec<Value> = ranked
            .iter()
            .skip(start)
            .take(per_page)
            .map(|&(index, score)| {
                let mut record = select(&self.records[index], selected);
                if searched && let Value::Object(fields) = &mut record {
                    fields.insert("relevance_score".into(), json!(score));
                }
                record
            })
            .collect();
        let mut meta = json!({
            "count": ranked.len(),
            "db_response_time_ms": 1,
            "page": page_number,
            "per_page": per_page,
            "groups_count": null,
        });
        if let (Some(next), Value::Object(fields)) = (next_cursor, &mut meta) {
            fields.insert("next_cursor".into(), json!(next));
        }
        (
            200,
            json!({ "meta": meta, "results": results, "group_by": [] }),
        )
    }

    fn candidates<'a>(
        &'a self,
        candidates: Option<&'a BTreeSet<usize>>,
    ) -> Box<dyn Iterator<Item = usize> + 'a> {
        match candidates {
            Some(set) => Box::new(set.iter().copied()),
            None => Box::new(0..self.records.len()),
        }
    }

    /// The works matching every comma-separated filter (each an OR-list of values).
    fn filter(&self, filter: &str) -> Result<BTreeSet<usize>, String> {
        let mut result: Option<BTreeSet<usize>> = None;
        for clause in filter.split(',') {
            let (key, values) = clause
                .split_once(':')
                .ok_or_else(|| format!("filter {clause} is not of the form key:value"))?;
            // `!a|b` means neither a nor b, as the real API reads it.
            let (negated, values) = match values.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, values),
            };
            let values: Vec<&str> = values.split('|').collect();
            if values.iter().any(|value| value.starts_with('!')) {
                return Err(format!(
                    "The ! operator can only be used at the beginning of an OR query, like /works?filter=concepts.id:!C144133560|C15744967, meaning NOT (C144133560 or C15744967). Problem value: {clause}"
                ));
            }
            if values.len() > MAX_OR_VALUES {
                return Err(format!(
                    "Maximum number of values exceeded for {key}. Decrease values to 100 or below, or consider using a paging technique."
                ));
            }
            let mut matches = BTreeSet::new();
            for value in values {
                match key {
                    "openalex" | "ids.openalex" | "openalex_id" => {
                        matches.extend(self.by_id.get(&short_id(value)));
                    }
                    "doi" => {
                        matches.extend(self.by_doi.get(&normalise_doi(value)));
                    }
                    "cites" => {
                        if let Some(citing) = self.citing.get(&short_id(value)) {
                            matches.extend(citing.iter().copied());
                        }
                    }
                    "cited_by" => {
                        if let Some(&index) = self.by_id.get(&short_id(value)) {
                            for cited in references(&self.records[index]) {
                                matches.extend(self.by_id.get(&cited));
                            }
                        }
                    }
                    "type" => {
                        matches.extend((0..self.records.len()).filter(|&index| {
                            let record = &self.records[index];
                            ["type", "type_crossref"].iter().any(|field| {
                                record.get(*field).and_then(Value::as_str) == Some(value)
                            })
                        }));
                    }
                    "authorships.author.id" | "topics.id" | "concepts.id" => {
                        let wanted = short_id(value);
                        matches.extend((0..self.records.len()).filter(|&index| {
                            let record = &self.records[index];
                            match key {
                                "topics.id" => subjects(record, "topics"),
                                "concepts.id" => subjects(record, "concepts"),
                                _ => record
                                    .get("authorships")
                                    .and_then(Value::as_array)
                                    .into_iter()
                                    .flatten()
                                    .filter_map(|authorship| {
                                        let id = authorship.get("author")?.get("id")?.as_str()?;
                                        Some((short_id(id), String::new()))
                                    })
                                    .collect(),
                            }
                            .iter()
                            .any(|(id, _)| *id == wanted)
                        }));
                    }
                    "from_publication_date" => {
                        let from = value.get(..4).and_then(|year| year.parse::<i64>().ok());
                        let Some(from) = from else {
                            return Err(format!("{value} is not a date (YYYY-MM-DD)"));
                        };
                        matches.extend((0..self.records.len()).filter(|&index| {
                            self.records[index]
                                .get("publication_year")
                                .and_then(Value::as_i64)
                                .is_some_and(|year| year >= from)
                        }));
                    }
                    _ => return Err(format!("{key} is not a valid field")),
                }
            }
            if negated {
                matches = (0..self.records.len())
                    .filter(|index| !matches.contains(index))
                    .collect();
            }
            result = Some(match result {
                None => matches,
                Some(previous) => previous.intersection(&matches).copied().collect(),
            });
        }
        Ok(result.unwrap_or_default())
    }

    fn has(&self, index: usize, word: &Term) -> bool {
        match word {
            Term::Word(word) => self.terms[index].contains_key(word),
            Term::Phrase(words) => {
                let text = format!(
                    " {} ",
                    analyse(&format!(
                        "{} {}",
                        self.records[index]
                            .get("title")
                            .and_then(Value::as_str)
                            .unwrap_or(""),
                        abstract_text(&self.records[index])
                    ))
                    .join(" ")
                );
                text.contains(&format!(" {} ", words.join(" ")))
            }
        }
    }

    /// BM25 (k1 = 1.2, b = 0.75) of a work for the query's words.
    fn score(&self, index: usize, words: &[String]) -> f64 {
        let documents = self.records.len() as f64;
        let average = self.lengths.iter().sum::<usize>() as f64 / documents.max(1.0);
        let length = self.lengths[index] as f64;
        words
            .iter()
            .map(|word| {
                let frequency = f64::from(*self.terms[index].get(word).unwrap_or(&0));
                if frequency == 0.0 {
                    return 0.0;
                }
                let containing = *self.document_frequency.get(word).unwrap_or(&0) as f64;
                let idf = ((documents - containing + 0.5) / (containing + 0.5) + 1.0).ln();
                idf * frequency * 2.2 / (frequency + 1.2 * (0.25 + 0.75 * length / average))
            })
            .sum()
    }
}

/// The subjects (`topics` or `concepts`) a record is filed under: short id and name.
fn subjects(record: &Value, field: &str) -> Vec<(String, String)> {
    record
        .get(field)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|subject| {
            let id = short_id(subject.get("id")?.as_str()?);
            let name = subject.get("display_name")?.as_str()?.to_owned();
            Some((id, name))
        })
        .collect()
}

/// An Author object for `author` (a work's `authorship.author`) from their served `works`.
fn author_record(author: &Value, works: &[&Value], field: &str) -> Value {
    let mut citations: Vec<u64> = works
        .iter()
        .map(|work| {
            work.get("cited_by_count")
                .and_then(Value::as_u64)
                .unwrap_or(0)
        })
        .collect();
    citations.sort_unstable_by(|a, b| b.cmp(a));
    let h_index = citations
        .iter()
        .enumerate()
        .take_while(|(rank, cited)| **cited > *rank as u64)
        .count();
    let mut per_year: BTreeMap<i64, u64> = BTreeMap::new();
    let mut per_subject: BTreeMap<(String, String), u64> = BTreeMap::new();
    for work in works {
        if let Some(year) = work.get("publication_year").and_then(Value::as_i64) {
            *per_year.entry(year).or_default() += 1;
        }
        for subject in subjects(work, field) {
            *per_subject.entry(subject).or_default() += 1;
        }
    }
    let total = works.len().max(1) as f64;
    let subjects: Vec<Value> = per_subject
        .into_iter()
        .map(|((id, name), count)| {
            let id = format!("https://openalex.org/{id}");
            if field == "topics" {
                json!({"id": id, "display_name": name, "count": count})
            } else {
                json!({"id": id, "display_name": name, "score": (count as f64 / total * 1000.0).round() / 10.0})
            }
        })
        .collect();
    let years: Vec<Value> = per_year
        .into_iter()
        .rev()
        .map(|(year, count)| json!({"year": year, "works_count": count, "cited_by_count": 0}))
        .collect();
    let key = if field == "topics" {
        "topics"
    } else {
        "x_concepts"
    };
    json!({
        "id": author.get("id"),
        "display_name": author.get("display_name"),
        "orcid": author.get("orcid"),
        "works_count": works.len(),
        "cited_by_count": citations.iter().sum::<u64>(),
        "summary_stats": {"h_index": h_index},
        "counts_by_year": years,
        key: subjects,
    })
}

fn param<'a>(query: &'a [(String, String)], key: &str) -> Option<&'a str> {
    query
        .iter()
        .find(|(name, _)| name == key)
        .map(|(_, value)| value.as_str())
}

fn error(status: u16, title: &str, message: &str) -> Answer {
    (status, json!({ "error": title, "message": message }))
}

/// `https://openalex.org/W123` or `w123` → `W123`.
fn short_id(id: &str) -> String {
    id.trim()
        .trim_start_matches("https://openalex.org/")
        .to_uppercase()
}

fn normalise_doi(doi: &str) -> String {
    doi.trim()
        .trim_start_matches("doi:")
        .trim_start_matches("https://doi.org/")
        .trim_start_matches("http://doi.org/")
        .to_lowercase()
}

fn references(record: &Value) -> Vec<String> {
    record
        .get("referenced_works")
        .and_then(Value::as_array)
        .map(|cited| {
            cited
                .iter()
                .filter_map(Value::as_str)
                .map(short_id)
                .collect()
        })
        .unwrap_or_default()
}

/// The text of a record's `abstract_inverted_index`, words in their positions.
pub fn abstract_text(record: &Value) -> String {
    let Some(index) = record
        .get("abstract_inverted_index")
        .and_then(Value::as_object)
    else {
        return String::new();
    };
    let mut positions: BTreeMap<u64, &str> = BTreeMap::new();
    for (word, at) in index {
        for position in at
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
        {
            positions.insert(position, word);
        }
    }
    positions.into_values().collect::<Vec<_>>().join(" ")
}

/// Keeps the requested top-level fields, as `select=` does.
fn select(record: &Value, fields: Option<&str>) -> Value {
    let (Some(fields), Value::Object(all)) = (fields, record) else {
        return record.clone();
    };
    let kept: serde_json::Map<String, Value> = fields
        .split(',')
        .filter_map(|field| {
            all.get(field.trim())
                .map(|value| (field.trim().to_owned(), value.clone()))
        })
        .collect();
    Value::Object(kept)
}

const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
];

/// Lower-cased words without stopwords, plurals folded (`studies` → `study`, `pumps` → `pump`).
fn analyse(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty() && !STOPWORDS.contains(word))
        .map(fold_plural)
        .collect()
}

fn fold_plural(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies")
        && stem.len() > 2
    {
        return format!("{stem}y");
    }
    if word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") {
        return word[..word.len() - 1].to_owned();
    }
    word.to_owned()
}

/// A word or a quoted phrase of a search.
#[derive(Debug, Clone, PartialEq)]
enum Term {
    Word(String),
    Phrase(Vec<String>),
}

/// A boolean search expression.
#[derive(Debug, Clone, PartialEq)]
enum Expression {
    Term(Term),
    And(Vec<Expression>),
    Or(Vec<Expression>),
    Not(Box<Expression>),
    /// A stopword or punctuation: matches everything.
    Empty,
}

impl Expression {
    fn matches(&self, has: &dyn Fn(&Term) -> bool) -> bool {
        match self {
            Expression::Term(term) => has(term),
            Expression::And(parts) => parts.iter().all(|part| part.matches(has)),
            Expression::Or(parts) => parts.iter().any(|part| part.matches(has)),
            Expression::Not(part) => !part.matches(has),
            Expression::Empty => true,
        }
    }

    /// The words that count toward the score (not those under NOT).
    fn words(&self) -> Vec<String> {
        match self {
            Expression::Term(Term::Word(word)) => vec![word.clone()],
            Expression::Term(Term::Phrase(words)) => words.clone(),
            Expression::And(parts) | Expression::Or(parts) => {
                parts.iter().flat_map(Expression::words).collect()
            }
            Expression::Not(_) | Expression::Empty => Vec::new(),
        }
    }
}

/// Parses OpenAlex's boolean search syntax: `AND`, `OR`, `NOT` (upper case), parentheses,
/// double-quoted phrases; adjacent terms without an operator are joined by `AND`.
fn parse_search(text: &str) -> Result<Expression, String> {
    let tokens = tokenise(text)?;
    let mut position = 0;
    let expression = parse_or(&tokens, &mut position)?;
    if position != tokens.len() {
        return Err(format!("unbalanced parentheses in search {text:?}"));
    }
    Ok(expression)
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Open,
    Close,
    And,
    Or,
    Not,
    Term(Term),
}

fn tokenise(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            '(' => {
                chars.next();
                tokens.push(Token::Open);
            }
            ')' => {
                chars.next();
                tokens.push(Token::Close);
            }
            '"' => {
                chars.next();
                let phrase: String = chars.by_ref().take_while(|&c| c != '"').collect();
                tokens.push(Token::Term(Term::Phrase(analyse(&phrase))));
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            _ => {
                let mut word = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || c == '(' || c == ')' || c == '"' {
                        break;
                    }
                    word.push(c);
                    chars.next();
                }
                match word.as_str() {
                    "AND" => tokens.push(Token::And),
                    "OR" => tokens.push(Token::Or),
                    "NOT" => tokens.push(Token::Not),
                    _ => {
                        let mut words = analyse(&word);
                        match words.len() {
                            0 => {}
                            1 => tokens.push(Token::Term(Term::Word(words.remove(0)))),
                            _ => tokens.push(Token::Term(Term::Phrase(words))),
                        }
                    }
                }
            }
        }
    }
    Ok(tokens)
}

fn parse_or(tokens: &[Token], position: &mut usize) -> Result<Expression, String> {
    let mut parts = vec![parse_and(tokens, position)?];
    while tokens.get(*position) == Some(&Token::Or) {
        *position += 1;
        parts.push(parse_and(tokens, position)?);
    }
    Ok(if parts.len() == 1 {
        parts.remove(0)
    } else {
        Expression::Or(parts)
    })
}

fn parse_and(tokens: &[Token], position: &mut usize) -> Result<Expression, String> {
    let mut parts = Vec::new();
    loop {
        match tokens.get(*position) {
            None | Some(Token::Close | Token::Or) => break,
            Some(Token::And) => *position += 1,
            Some(Token::Not) => {
                *position += 1;
                parts.push(Expression::Not(Box::new(parse_unary(tokens, position)?)));
            }
            Some(_) => parts.push(parse_unary(tokens, position)?),
        }
    }
    Ok(match parts.len() {
        0 => Expression::Empty,
        1 => parts.remove(0),
        _ => Expression::And(parts),
    })
}

fn parse_unary(tokens: &[Token], position: &mut usize) -> Result<Expression, String> {
    match tokens.get(*position) {
        Some(Token::Open) => {
            *position += 1;
            let inner = parse_or(tokens, position)?;
            if tokens.get(*position) != Some(&Token::Close) {
                return Err("a parenthesis is not closed".into());
            }
            *position += 1;
            Ok(inner)
        }
        Some(Token::Term(term)) => {
            *position += 1;
            Ok(Expression::Term(term.clone()))
        }
        other => Err(format!("unexpected {other:?} in search")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect()
    }

    fn works() -> OpenAlexWorks {
        let mut works = OpenAlexWorks::default();
        for (id, title, cites) in [
            ("W1", "Insulin pumps in children", vec![]),
            ("W2", "Costs of insulin pump therapy", vec!["W1"]),
            ("W3", "Screening with machine learning", vec!["W1", "W2"]),
        ] {
            works.add(json!({
                "id": format!("https://openalex.org/{id}"),
                "doi": format!("https://doi.org/10.1/{id}"),
                "title": title,
                "referenced_works": cites.iter().map(|cited| format!("https://openalex.org/{cited}")).collect::<Vec<_>>(),
            }));
        }
        works.link_citations();
        works
    }

    fn ids(answer: &Answer) -> Vec<String> {
        answer.1["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|work| short_id(work["id"].as_str().expect("id")))
            .collect()
    }

    #[test]
    fn type_and_date_filters_and_the_citation_order_are_served() {
        let mut works = OpenAlexWorks::default();
        for (id, kind, year, cites) in [
            ("W1", "book", 1990, vec![]),
            ("W2", "journal-article", 2020, vec!["W1"]),
            ("W3", "book-chapter", 2022, vec!["W1", "W2"]),
        ] {
            works.add(json!({
                "id": format!("https://openalex.org/{id}"),
                "title": format!("Insulin pumps {id}"),
                "type": kind,
                "publication_year": year,
                "referenced_works": cites.iter().map(|cited| format!("https://openalex.org/{cited}")).collect::<Vec<_>>(),
            }));
        }
        works.link_citations();
        let answer = |params: &[(&str, &str)]| ids(&works.answer_query("/works", &query(params)));
        assert_eq!(
            answer(&[("filter", "type:book|book-chapter")]),
            ["W1", "W3"]
        );
        assert_eq!(
            answer(&[("filter", "from_publication_date:2021-01-01")]),
            ["W3"]
        );
        assert_eq!(
            answer(&[("search", "insulin"), ("sort", "cited_by_count:desc")]),
            ["W1", "W2", "W3"]
        );
        let refused = works.answer_query("/works", &query(&[("sort", "publication_date")]));
        assert_eq!(refused.0, 400);
    }

    #[test]
    fn filters_follow_citations_both_ways() {
        let works = works();
        assert_eq!(
            ids(&works.answer_query("/works", &query(&[("filter", "cites:W1")]))),
            ["W2", "W3"]
        );
        assert_eq!(
            ids(&works.answer_query("/works", &query(&[("filter", "cited_by:W3")]))),
            ["W1", "W2"]
        );
        assert_eq!(
            ids(&works.answer_query("/works", &query(&[("filter", "openalex:W1|W3,cites:W1")]))),
            ["W3"]
        );
        assert_eq!(
            ids(&works.answer_query("/works", &query(&[("filter", "doi:10.1/w2")]))),
            ["W2"]
        );
    }

    #[test]
    fn a_list_opening_with_a_bang_means_none_of_its_values() {
        let works = works();
        let filter = |text: &str| ids(&works.answer_query("/works", &query(&[("filter", text)])));
        assert_eq!(filter("cites:W1,openalex:!W2"), ["W3"]);
        assert_eq!(filter("cites:W1,openalex:!W2|W3"), Vec::<String>::new());
        assert_eq!(filter("cited_by:W3,openalex:!W1,openalex:!W9"), ["W2"]);
        let (status, body) = works.answer_query("/works", &query(&[("filter", "openalex:W1|!W2")]));
        assert_eq!(status, 400);
        assert!(
            body["message"]
                .as_str()
                .expect("message")
                .contains("beginning of an OR query")
        );
    }

    #[test]
    fn a_request_line_over_the_limit_is_refused() {
        let works = works();
        let request = |target: String| ServedRequest {
            method: "GET".into(),
            path: "/works".into(),
            query: query(&[("filter", "cites:W1")]),
            raw_target: target,
            headers: Vec::new(),
            body: Vec::new(),
        };
        let line = |target: &str| "GET ".len() + target.len() + " HTTP/1.1".len();
        let at_limit = format!(
            "/works?filter=cites%3AW1&x={}",
            "a".repeat(4094 - line("/works?filter=cites%3AW1&x="))
        );
        assert_eq!(line(&at_limit), MAX_REQUEST_LINE);
        assert_eq!(works.answer(&request(at_limit.clone())).0, 200);
        let (status, body) = works.answer(&request(format!("{at_limit}a")));
        assert_eq!(status, 400);
        assert_eq!(
            body["message"],
            json!("Request Line is too large (4095 > 4094)")
        );
    }

    #[test]
    fn cited_by_count_agrees_with_the_citing_works_served() {
        let works = works();
        for (id, citers) in [("W1", 2), ("W2", 1), ("W3", 0)] {
            let (status, record) = works.answer_query(&format!("/works/{id}"), &[]);
            assert_eq!(status, 200);
            assert_eq!(record["cited_by_count"], json!(citers), "{id}");
            let filter = format!("cites:{id}");
            let answer = works.answer_query("/works", &query(&[("filter", &filter)]));
            assert_eq!(answer.1["meta"]["count"], json!(citers), "{id}");
        }
    }

    #[test]
    fn refuses_what_the_real_api_refuses() {
        let works = works();
        let many = vec!["W1"; 101].join("|");
        assert_eq!(
            works
                .answer_query("/works", &query(&[("filter", &format!("openalex:{many}"))]))
                .0,
            400
        );
        assert_eq!(
            works
                .answer_query("/works", &query(&[("per_page", "201")]))
                .0,
            400
        );
        assert_eq!(
            works
                .answer_query("/works", &query(&[("filter", "nonsense:1")]))
                .0,
            400
        );
        assert_eq!(works.answer_query("/works/W9", &[]).0, 404);
    }

    #[test]
    fn search_is_boolean_with_and_by_default() {
        let works = works();
        let hits = |text: &str| ids(&works.answer_query("/works", &query(&[("search", text)])));
        assert_eq!(hits("insulin pumps"), ["W1", "W2"]);
        assert_eq!(hits("insulin children"), ["W1"]);
        assert_eq!(hits("insulin NOT children"), ["W2"]);
        assert_eq!(hits("(children OR machine) AND NOT costs"), ["W1", "W3"]);
        assert_eq!(hits("\"insulin pump therapy\""), ["W2"]);
        assert_eq!(
            works.matching("(children OR machine) AND NOT costs"),
            Ok(vec!["W1".to_owned(), "W3".to_owned()]),
            "every match, in record order"
        );
        assert!(works.matching("(insulin").is_err());
    }

    #[test]
    fn cursor_paging_visits_every_result_once() {
        let works = works();
        let mut seen = Vec::new();
        let mut cursor = "*".to_owned();
        loop {
            let answer = works.answer_query(
                "/works",
                &query(&[("per_page", "2"), ("cursor", &cursor), ("select", "id")]),
            );
            seen.extend(ids(&answer));
            assert!(answer.1["results"][0].get("title").is_none(), "select");
            match answer.1["meta"]["next_cursor"].as_str() {
                Some(next) => cursor = next.to_owned(),
                None => break,
            }
        }
        assert_eq!(seen, ["W1", "W2", "W3"]);
    }
}
