//! The live sources' responses: Semantic Scholar, Crossref, PubMed E-utilities, arXiv Atom and
//! Unpaywall. Each target calls every parser of its API on the body, since a client may get
//! any body on any route (an error page, a proxy's HTML, another route's answer).

use std::path::Path;

use litrev_model::{Doi, WorkId};
use litrev_sources::{arxiv, crossref, pubmed, semantic_scholar, unpaywall};

use super::text;
use crate::check::{self, Checked};
use crate::seeds::{self, Seed, Seeds};

/// The recorded Graph API traffic, the API's example objects (an edge wrapped in a page, as
/// the edge routes return it) and litstudy's recorded answers.
pub(super) fn semantic_scholar_seeds(data: &Path) -> Seeds {
    let mut out = seeds::interaction_seeds(
        data,
        "semanticscholar-graph-api/interactions.jsonl.gz",
        "semanticscholar.org",
    )?;
    let folder = data.join("semanticscholar-graph-api/json");
    for file in seeds::files(&folder, &[".json", ".json.gz"])? {
        let bytes = seeds::read(&file)?;
        let name = seeds::relative(data, &file);
        if name.ends_with("Citation.json") || name.ends_with("Reference.json") {
            let mut page = b"{\"offset\": 0, \"next\": 1, \"data\": [".to_vec();
            page.extend_from_slice(&bytes);
            page.extend_from_slice(b"]}");
            out.push(Seed::new(format!("{name} (in a page)"), page));
        }
        out.push(Seed::new(name, bytes));
    }
    out.extend(litstudy(data, "semanticscholar.org")?);
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// litstudy's recorded API answers (`{url, content}` lines) from one host.
fn litstudy(data: &Path, host: &str) -> Seeds {
    let file = "import-exports/litstudy/recorded_api_responses.jsonl.gz";
    let mut out = Vec::new();
    for line in seeds::lines(&data.join(file), usize::MAX)? {
        let value: serde_json::Value =
            serde_json::from_str(&line).map_err(|error| format!("{file}: {error}"))?;
        let url = value["url"].as_str().unwrap_or("");
        if url.contains(host) {
            let content = value["content"].as_str().unwrap_or("");
            out.push(Seed::new(format!("{file}#{url}"), content));
        }
    }
    Ok(out)
}

/// Every Semantic Scholar parser on one body.
pub(super) fn semantic_scholar(input: &[u8]) -> Checked {
    let body = text(input);
    if let Ok(paper) = semantic_scholar::parse_paper(&body) {
        check::api_work(&paper.work)?;
        check::api_works(&paper.citations)?;
        check::api_works(&paper.references)?;
    }
    if let Ok(page) = semantic_scholar::parse_search_page(&body) {
        check::api_works(&page.works)?;
    }
    if let Ok(page) = semantic_scholar::parse_bulk_page(&body) {
        check::api_works(&page.works)?;
    }
    if let Ok(batch) = semantic_scholar::parse_batch(&body) {
        check::api_works(batch.iter().flatten())?;
    }
    for parse in [
        semantic_scholar::parse_citations_page,
        semantic_scholar::parse_references_page,
    ] {
        if let Ok(page) = parse(&body) {
            check::api_works(&page.works)?;
        }
    }
    if let Ok(works) = semantic_scholar::parse_recommendations(&body) {
        check::api_works(&works)?;
    }
    let error = semantic_scholar::parse_error(404, &body);
    let _ = (error.is_not_found(), error.to_string());
    Ok(())
}

/// habanero's and commonmeta's recorded Crossref traffic (with doi.org's content negotiation:
/// BibTeX, RIS, XML bodies), commonmeta's fixtures and litstudy's Crossref answers.
pub(super) fn crossref_seeds(data: &Path) -> Seeds {
    let mut out =
        seeds::interaction_seeds(data, "crossref-rest-api/habanero_interactions.jsonl.gz", "")?;
    out.extend(seeds::interaction_seeds(
        data,
        "commonmeta-recorded/interactions.jsonl.gz",
        "crossref.org",
    )?);
    for name in ["crossref.json", "crossref-list.json"] {
        let file = data.join("commonmeta-recorded/fixtures").join(name);
        out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
    }
    out.extend(litstudy(data, "crossref.org")?);
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// Every Crossref parser on one body, and the JATS flattener on the body as markup.
pub(super) fn crossref(input: &[u8]) -> Checked {
    let body = text(input);
    if let Ok(work) = crossref::parse_work(&body) {
        check::api_work(&work)?;
    }
    if let Ok(page) = crossref::parse_works(&body) {
        check::api_works(&page.works)?;
    }
    let error = crossref::parse_error(400, &body);
    let _ = (
        error.is_not_found(),
        error.is_bad_request(),
        error.to_string(),
    );
    if let Some(plain) = crossref::jats_to_text(&body)
        && plain.trim().is_empty()
    {
        return Err(format!("jats_to_text gave blank text {plain:?}"));
    }
    Ok(())
}

/// The recorded Brave Search answer a registry package ships (`scripts/fetch-brave-answers.sh`).
pub(super) fn brave_seeds(_data: &Path) -> Seeds {
    let folder = litrev_testkit::brave_answers()
        .ok_or("no recorded Brave answer: run scripts/fetch-brave-answers.sh")?;
    let file = folder.join("web.json");
    let out = vec![Seed::new(file.display().to_string(), seeds::read(&file)?)];
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// Brave's web results: every work read is a page (or an encyclopedia entry) known by its
/// address, with a title.
pub(super) fn brave(input: &[u8]) -> Checked {
    let body = text(input);
    if let Ok(page) = litrev_sources::brave::parse_web_results(&body) {
        check::api_works(&page.works)?;
        if let Some(work) = page.works.iter().find(|work| work.ids.url.is_none()) {
            return Err(format!("a web result without its address: {work:?}"));
        }
    }
    Ok(())
}

/// The Tavily answer Tavily's own client tests serve (`scripts/fetch-tavily-answers.sh`).
pub(super) fn tavily_seeds(_data: &Path) -> Seeds {
    let folder = litrev_testkit::tavily_answers()
        .ok_or("no Tavily answer: run scripts/fetch-tavily-answers.sh")?;
    let file = folder.join("search.json");
    let out = vec![Seed::new(file.display().to_string(), seeds::read(&file)?)];
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// Tavily's results: every work read is a page (or an encyclopedia entry) known by its
/// address, with a title.
pub(super) fn tavily(input: &[u8]) -> Checked {
    let body = text(input);
    if let Ok(page) = litrev_sources::tavily::parse_search_results(&body) {
        check::api_works(&page.works)?;
        if let Some(work) = page.works.iter().find(|work| work.ids.url.is_none()) {
            return Err(format!("a web result without its address: {work:?}"));
        }
    }
    Ok(())
}

/// The recorded Open Library answers a registry package ships
/// (`scripts/fetch-openlibrary-answers.sh`): the Books API's editions and an author's works,
/// and the works as the search API's documents.
pub(super) fn openlibrary_seeds(_data: &Path) -> Seeds {
    let folder = litrev_testkit::openlibrary_answers()
        .ok_or("no recorded Open Library answers: run scripts/fetch-openlibrary-answers.sh")?;
    let mut out = Vec::new();
    for name in ["books.json", "author_works.json"] {
        let file = folder.join(name);
        let body = seeds::read(&file)?;
        if name == "author_works.json" {
            // The works as a search answer: `docs` in place of `entries`.
            let mut value: serde_json::Value = serde_json::from_slice(&body)
                .map_err(|error| format!("{}: {error}", file.display()))?;
            if let Some(entries) = value.get_mut("entries").map(serde_json::Value::take) {
                let docs = serde_json::json!({"numFound": 50, "docs": entries});
                out.push(Seed::new(
                    format!("{} as a search answer", file.display()),
                    docs.to_string(),
                ));
            }
        }
        out.push(Seed::new(file.display().to_string(), body));
    }
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// Open Library's search documents and editions: every work read is a book known by an ISBN
/// or its Open Library page, with a title.
pub(super) fn openlibrary(input: &[u8]) -> Checked {
    let body = text(input);
    let mut works = Vec::new();
    if let Ok(page) = litrev_sources::openlibrary::parse_search(&body) {
        works.extend(page.works);
    }
    if let Ok(editions) = litrev_sources::openlibrary::parse_books(&body) {
        works.extend(editions);
    }
    check::api_works(&works)?;
    if let Some(work) = works
        .iter()
        .find(|work| work.kind != litrev_model::WorkKind::Book)
    {
        return Err(format!("an Open Library record that is no book: {work:?}"));
    }
    Ok(())
}

/// The recorded answer of Hugging Face's paper search a registry package ships
/// (`scripts/fetch-hf-papers.sh`).
pub(super) fn hf_papers_seeds(_data: &Path) -> Seeds {
    let folder = litrev_testkit::hf_papers()
        .ok_or("no recorded paper search answer: run scripts/fetch-hf-papers.sh")?;
    let file = folder.join("paper_result_kazakh.json");
    let out = vec![Seed::new(file.display().to_string(), seeds::read(&file)?)];
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// Hugging Face's papers: every work read is a preprint known by its arXiv id, with a title.
pub(super) fn hf_papers(input: &[u8]) -> Checked {
    let body = text(input);
    if let Ok(page) = litrev_sources::huggingface::parse_papers(&body) {
        check::api_works(&page.works)?;
        if let Some(work) = page.works.iter().find(|work| work.ids.arxiv.is_none()) {
            return Err(format!("a paper without its arXiv id: {work:?}"));
        }
    }
    Ok(())
}

/// Biopython's E-utilities answers, PubMed and MEDLINE records, and ASReview's PubMed export.
pub(super) fn pubmed_seeds(data: &Path) -> Seeds {
    let mut out = Vec::new();
    let entrez = data.join("pubmed-eutils/entrez");
    for file in seeds::files(&entrez, &[".xml", ".html"])? {
        out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
    }
    for file in [
        "pmc-jats-and-medline/medline/pubmed-29768149.xml",
        "pmc-jats-and-medline/medline/test_current_medline.xml.gz",
        "import-exports/asreview-demo-data/pubmed.xml",
    ] {
        out.push(Seed::new(file, seeds::read(&data.join(file))?));
    }
    Ok(seeds::sized(out, seeds::keep))
}

/// Every E-utilities parser on one body.
pub(super) fn pubmed(input: &[u8]) -> Checked {
    let body = text(input);
    if let Ok(result) = pubmed::parse_esearch(&body) {
        for pmid in &result.pmids {
            check::id_round_trip(&WorkId::Pmid(pmid.clone()))?;
        }
    }
    let _ = pubmed::parse_epost(&body);
    if let Ok(page) = pubmed::parse_efetch(&body) {
        check::api_works(&page.works)?;
    }
    if let Ok(sets) = pubmed::parse_elink(&body) {
        for set in &sets {
            let _ = set.source();
            for link in [
                pubmed::Link::CitedIn,
                pubmed::Link::References,
                pubmed::Link::Pmc,
            ] {
                set.linked(link).iter().try_for_each(check::id_round_trip)?;
            }
        }
    }
    if let Ok(page) = pubmed::parse_esummary(&body) {
        check::api_works(&page.works)?;
    }
    let error = pubmed::parse_error(429, &body);
    let _ = (
        error.is_not_found(),
        error.is_rate_limited(),
        error.to_string(),
    );
    Ok(())
}

/// The recorded 2026 answers (bodies of `{url, status_code, body}` files) and the 2016 feeds.
pub(super) fn arxiv_seeds(data: &Path) -> Seeds {
    let mut out = Vec::new();
    for file in seeds::files(&data.join("arxiv-atom/recorded_2026"), &[".json"])? {
        let recorded: serde_json::Value = serde_json::from_slice(&seeds::read(&file)?)
            .map_err(|error| format!("{}: {error}", file.display()))?;
        let body = recorded["body"].as_str().unwrap_or("");
        out.push(Seed::new(seeds::relative(data, &file), body));
    }
    for file in seeds::files(&data.join("arxiv-atom/raw_atom"), &[".xml"])? {
        out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
    }
    Ok(seeds::sized(out, seeds::keep))
}

/// `parse_feed` on one body.
pub(super) fn arxiv(input: &[u8]) -> Checked {
    if let Ok(page) = arxiv::parse_feed(&text(input)) {
        check::api_works(&page.works)?;
    }
    Ok(())
}

/// The shared data holds no Unpaywall response: these follow Unpaywall's documented v2 DOI
/// object and its error bodies (as the parser's own tests do), with real DOIs of the data.
const UNPAYWALL: &[(&str, &str)] = &[
    (
        "unpaywall:green",
        r#"{"doi":"10.1038/nature12373","doi_url":"https://doi.org/10.1038/nature12373","title":"Nanometre-scale thermometry in a living cell","genre":"journal-article","is_paratext":false,"published_date":"2013-07-31","year":2013,"journal_name":"Nature","journal_issns":"0028-0836,1476-4687","journal_is_oa":false,"publisher":"Springer Science and Business Media LLC","is_oa":true,"oa_status":"green","has_repository_copy":true,"best_oa_location":{"url":"https://europepmc.org/articles/pmc4221854?pdf=render","url_for_pdf":"https://europepmc.org/articles/pmc4221854?pdf=render","url_for_landing_page":"https://europepmc.org/articles/pmc4221854","evidence":"oa repository (via OAI-PMH doi match)","license":null,"version":"acceptedVersion","host_type":"repository","is_best":true,"oa_date":"2014-11-04"},"first_oa_location":null,"oa_locations":[{"url":"https://europepmc.org/articles/pmc4221854","host_type":"repository"}],"oa_locations_embargoed":[],"updated":"2023-06-20T13:36:13.226581","data_standard":2,"z_authors":[{"given":"G.","family":"Kucsko","sequence":"first"}]}"#,
    ),
    (
        "unpaywall:closed",
        r#"{"doi":"10.1016/S0140-6736(20)30183-5","is_oa":false,"oa_status":"closed","best_oa_location":null,"oa_locations":[],"year":2020,"genre":"journal-article","data_standard":2}"#,
    ),
    (
        "unpaywall:gold-landing",
        r#"{"doi":"10.7717/peerj.4375","is_oa":true,"oa_status":"gold","best_oa_location":{"url":"https://doi.org/10.7717/peerj.4375","url_for_pdf":null,"url_for_landing_page":null,"license":"cc-by","version":"publishedVersion","host_type":"publisher"}}"#,
    ),
    (
        "unpaywall:404",
        r#"{"HTTP_status_code":404,"error":true,"message":"'10.1234/nope' is an invalid doi. See https://doi.org/10.1234/nope"}"#,
    ),
    (
        "unpaywall:422",
        r#"{"HTTP_status_code":422,"error":true,"message":"You must provide an email address as a query parameter, like ?email=you@example.com"}"#,
    ),
];

/// Hand-written Unpaywall bodies (see [`UNPAYWALL`]).
pub(super) fn unpaywall_seeds(_data: &Path) -> Seeds {
    Ok(UNPAYWALL
        .iter()
        .map(|(origin, body)| Seed::new(*origin, *body))
        .collect())
}

/// Both Unpaywall parsers on one body.
pub(super) fn unpaywall(input: &[u8]) -> Checked {
    let body = text(input);
    if let Ok(link) = unpaywall::parse_record(&body) {
        let printed = link.doi.to_string();
        if printed.parse::<Doi>().as_ref() != Ok(&link.doi) {
            return Err(format!(
                "DOI {:?} does not read back from `{printed}`",
                link.doi
            ));
        }
        check::id_round_trip(&WorkId::Doi(link.doi.clone()))?;
        let _ = link.best_url();
    }
    let error = unpaywall::parse_error(404, &body);
    let _ = (error.is_not_found(), error.to_string());
    Ok(())
}

/// The eight PMC Open Access JATS articles.
pub(super) fn jats_seeds(data: &Path) -> Seeds {
    let mut out = Vec::new();
    let folder = data.join("pmc-jats-and-medline/pmc_oa_nxml");
    for file in seeds::files(&folder, &[".nxml.gz"])? {
        out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
    }
    Ok(out)
}

/// The JATS reader on one body: what it returns reads back through its own locators.
pub(super) fn jats(input: &[u8]) -> Checked {
    let body = text(input);
    let Ok(full) = litrev_sources::read_jats(&body) else {
        return Ok(());
    };
    for (section, paragraph, text) in full.paragraphs() {
        if text.trim().is_empty() || text.trim() != text {
            return Err(format!(
                "paragraph {section}.{paragraph} is not squeezed: {text:?}"
            ));
        }
        let whole = litrev_model::Locator {
            section,
            paragraph,
            start: 0,
            end: text.len(),
        };
        if full.span(&whole) != Some(text) {
            return Err(format!(
                "paragraph {section}.{paragraph} does not read back"
            ));
        }
    }
    if full.sections.iter().any(|section| section.depth == 0) {
        return Err("a section of depth 0".into());
    }
    Ok(())
}
