//! The live clients end to end through the HTTP layer, against a local server that serves
//! recorded API responses from `../shared/data` and injects faults at a seeded rate.

use std::time::Duration;

use litrev_http::{Client, HttpConfig, SourcePolicy};
use litrev_model::{Query, WorkId};
use litrev_sources::Source;
use litrev_testkit::http::{FaultPlan, Replay, Server};

/// Short waits so injected faults cost milliseconds.
fn client() -> Client {
    Client::new(HttpConfig {
        cache_dir: None,
        timeout: Duration::from_millis(400),
        max_retries: 8,
        backoff_base: Duration::from_millis(5),
        backoff_max: Duration::from_millis(50),
        ..HttpConfig::default()
    })
    .expect("client")
}

/// The source's policy without its rate limit, so tests do not wait for it.
fn unthrottled(policy: SourcePolicy) -> SourcePolicy {
    SourcePolicy {
        requests_per_second: 0,
        min_interval: None,
        ..policy
    }
}

fn recorded(data: &std::path::Path, file: &str, uri_part: &str, method: &str) -> String {
    let path = data.join(file);
    let lines = std::io::read_to_string(flate2::read::GzDecoder::new(
        std::fs::File::open(&path).expect("recording"),
    ))
    .expect("gzip");
    lines
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("line"))
        .find(|row| {
            row["method"] == method
                && row["status"] == 200
                && row["uri"]
                    .as_str()
                    .is_some_and(|uri| uri.contains(uri_part))
        })
        .and_then(|row| row["body"].as_str().map(str::to_owned))
        .unwrap_or_else(|| panic!("no recorded {method} {uri_part} in {file}"))
}

fn id(text: &str) -> WorkId {
    text.parse().expect("id")
}

#[test]
fn semantic_scholar_batch_lookup_reads_a_recorded_answer_through_faults() {
    let Some(data) = litrev_testkit::testdata() else {
        return;
    };
    use litrev_sources::semantic_scholar::{self, SemanticScholarConfig, SemanticScholarSource};
    let body = recorded(
        &data,
        "semanticscholar-graph-api/interactions.jsonl.gz",
        "paper/batch?fields=abstract",
        "POST",
    );
    let mut replay = Replay::new();
    let ids = [
        id("10.2139/ssrn.2250500"),
        id("S2:0f40b1f08821e22e859c6050916cec3667778613"),
    ];
    let wanted: Vec<String> = ids.iter().filter_map(semantic_scholar::paper_id).collect();
    for (url, _) in semantic_scholar::batch_requests(
        "http://replay",
        &wanted,
        semantic_scholar::PAPER_FIELDS_WITH_REFERENCES,
    ) {
        replay.add("POST", &url, 200, "application/json", body.as_bytes());
    }
    let server = Server::start(replay.handler(), FaultPlan::mixed(0.3, 5));
    let client = client();
    let source = SemanticScholarSource::new(
        client.endpoint(unthrottled(semantic_scholar::policy())),
        SemanticScholarConfig {
            base_url: server.url(),
            api_key: Some("secret-key".into()),
        },
    );
    let works = source.lookup(&ids).expect("lookup");
    assert_eq!(replay.unmatched(), 0, "{:?}", replay.unmatched_requests());
    assert!(works.iter().any(|work| work.ids.all().contains(&ids[0])));
    assert!(works.iter().any(|work| work.ids.all().contains(&ids[1])));
    let summary = &client.summary()[0];
    assert_eq!(summary.retries, server.faults_injected());
    assert!(
        client
            .calls()
            .iter()
            .all(|call| !call.url.contains("secret-key")),
        "the key never reaches the call log"
    );
}

#[test]
fn pubmed_lookup_fetches_recorded_medline_records_through_faults() {
    let Some(data) = litrev_testkit::testdata() else {
        return;
    };
    use litrev_sources::pubmed::{self, Caller, PubMedConfig, PubMedSource};
    let body = std::fs::read_to_string(data.join("pubmed-eutils/entrez/pubmed1.xml"))
        .expect("recorded efetch");
    let mut replay = Replay::new();
    let pmids = [id("PMID:12091962"), id("PMID:9997")];
    let sorted: Vec<litrev_model::Pmid> = ["12091962", "9997"]
        .iter()
        .map(|pmid| pmid.parse().expect("pmid"))
        .collect();
    let caller = Caller {
        tool: "litrev",
        email: "me@example.org",
    };
    replay.add(
        "GET",
        &pubmed::efetch_ids_url("http://replay", caller, &sorted),
        200,
        "text/xml",
        body.as_bytes(),
    );
    let server = Server::start(replay.handler(), FaultPlan::mixed(0.3, 9));
    let client = client();
    let source = PubMedSource::new(
        client.endpoint(unthrottled(pubmed::policy(false))),
        PubMedConfig {
            base_url: server.url(),
            api_key: None,
            email: "me@example.org".into(),
        },
    );
    let works = source.lookup(&pmids).expect("lookup");
    assert_eq!(replay.unmatched(), 0, "{:?}", replay.unmatched_requests());
    for pmid in &pmids {
        assert!(
            works.iter().any(|work| work.ids.all().contains(pmid)),
            "{pmid}"
        );
    }
    assert_eq!(client.summary()[0].retries, server.faults_injected());
}

#[test]
fn crossref_search_reads_a_recorded_works_list() {
    let Some(data) = litrev_testkit::testdata() else {
        return;
    };
    use litrev_sources::crossref::{self, CrossrefConfig, CrossrefSource};
    let body = recorded(
        &data,
        "commonmeta-recorded/interactions.jsonl.gz",
        "works?rows=20&filter=prefix",
        "GET",
    );
    let mut replay = Replay::new();
    replay.add(
        "GET",
        &crossref::works_url(
            "http://replay",
            Some("journal articles"),
            None,
            Some(crossref::SELECT),
            20,
            "*",
            "me@example.org",
        ),
        200,
        "application/json",
        body.as_bytes(),
    );
    let server = Server::start(replay.handler(), FaultPlan::none());
    let source = CrossrefSource::new(
        client().endpoint(unthrottled(crossref::policy())),
        CrossrefConfig {
            base_url: server.url(),
            mailto: "me@example.org".into(),
        },
    );
    let query = Query {
        label: "q1".into(),
        purpose: String::new(),
        text: "journal articles".into(),
        ..Query::default()
    };
    let hits = source.search(&query, 20).expect("search");
    assert_eq!(replay.unmatched(), 0, "{:?}", replay.unmatched_requests());
    assert_eq!(hits.len(), 20);
    assert!(hits.iter().all(|hit| hit.work.ids.doi.is_some()));
}

#[test]
fn unpaywall_without_an_email_says_how_to_give_one_and_sends_nothing() {
    use litrev_sources::unpaywall::{self, UnpaywallConfig, UnpaywallSource};
    let server = Server::start(
        |_: &litrev_testkit::http::ServedRequest| {
            litrev_testkit::http::Reply::json(200, &serde_json::json!({}))
        },
        FaultPlan::none(),
    );
    let source = UnpaywallSource::new(
        client().endpoint(unthrottled(unpaywall::policy())),
        UnpaywallConfig {
            base_url: server.url(),
            email: String::new(),
        },
    );
    let doi: litrev_model::Doi = "10.1038/nature12373".parse().expect("doi");
    let error = source.oa_link(&doi).expect_err("no e-mail");
    assert!(
        matches!(error, litrev_sources::Error::MissingSetting { .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("LITREV_EMAIL"), "{error}");
    assert_eq!(server.requests(), 0);
}

/// The OpenAlex client against the local OpenAlex serving a SYNERGY pool, which refuses a
/// request line over the real API's 4,094 bytes.
fn openalex_on(
    data: &std::path::Path,
    dataset: &str,
) -> (Server, litrev_sources::openalex::OpenAlexSource) {
    openalex_answering(data, dataset, |_| None)
}

/// [`openalex_on`], with `refuse` answering some requests in the local OpenAlex's stead.
fn openalex_answering(
    data: &std::path::Path,
    dataset: &str,
    refuse: impl Fn(&litrev_testkit::http::ServedRequest) -> Option<litrev_testkit::http::Reply>
    + Send
    + Sync
    + 'static,
) -> (Server, litrev_sources::openalex::OpenAlexSource) {
    use litrev_sources::openalex::{self, OpenAlexConfig, OpenAlexSource};
    use litrev_testkit::openalex::OpenAlexWorks;
    let path = data.join(format!("synergy/works/{dataset}.jsonl.gz"));
    let works = OpenAlexWorks::load(&[path]).expect("pool");
    let server = Server::start(
        move |request: &litrev_testkit::http::ServedRequest| {
            refuse(request).unwrap_or_else(|| {
                let (status, body) = works.answer(request);
                litrev_testkit::http::Reply::json(status, &body)
            })
        },
        FaultPlan::none(),
    );
    let source = OpenAlexSource::new(
        client().endpoint(unthrottled(openalex::policy())),
        OpenAlexConfig {
            base_url: server.url(),
            api_key: None,
            mailto: Some("someone@example.org".into()),
        },
    );
    (server, source)
}

/// The ids of the works citing `cited` that `source` lists, sorted.
fn citing_ids(
    source: &litrev_sources::openalex::OpenAlexSource,
    cited: &[WorkId],
    held: &litrev_sources::Held<'_>,
) -> Vec<WorkId> {
    let mut ids: Vec<WorkId> = source
        .citing(cited, held)
        .expect("citing works")
        .iter()
        .map(|work| work.id())
        .collect();
    ids.sort();
    ids
}

/// A count is one request of one result, and says how many works a search pages through.
#[test]
fn openalex_counts_what_a_search_matches_in_one_request() {
    let Some(data) = litrev_testkit::testdata() else {
        return;
    };
    let (server, source) = openalex_on(&data, "Chou_2004");
    let query = Query::new("q1", "", "pain");
    let count = source.count(&query).expect("count");
    assert_eq!(server.requests(), 1, "a count is one request");
    let hits = source.search(&query, 10_000).expect("search");
    assert!(hits.len() > 200, "the search reads more than a page");
    assert_eq!(count, Some(hits.len() as u64));
    let none = Query::new("q2", "", "xylophone zeppelin");
    assert_eq!(source.count(&none).expect("count"), Some(0));
}

#[test]
fn openalex_doi_lists_are_cut_short_where_a_hundred_would_make_the_url_too_long() {
    let Some(data) = litrev_testkit::testdata() else {
        return;
    };
    let (server, source) = openalex_on(&data, "Chou_2004");
    let dois: Vec<WorkId> = std::io::read_to_string(flate2::read::GzDecoder::new(
        std::fs::File::open(data.join("synergy/works/Chou_2004.jsonl.gz")).expect("pool"),
    ))
    .expect("gzip")
    .lines()
    .filter_map(|line| {
        let record: serde_json::Value = serde_json::from_str(line).ok()?;
        record["doi"].as_str()?.parse().ok()
    })
    .collect();
    // Its second hundred DOIs make a URL of 3,909 bytes; a request line's limit is 4,094 and
    // a later page's cursor needs room: the list is cut short, its rest sent with a third.
    let first = &dois[..200];
    let found = source.lookup(first).expect("every list under the limit");
    assert_eq!(found.len(), first.len());
    assert_eq!(server.requests(), 3);
    let found = source.lookup(&dois).expect("every list under the limit");
    assert_eq!(found.len(), dois.len());
}

#[test]
fn openalex_listings_leave_out_the_works_the_caller_holds() {
    let Some(data) = litrev_testkit::testdata() else {
        return;
    };
    let (server, source) = openalex_on(&data, "Chou_2004");
    // The two most cited included studies of Chou_2004 (the bench's seeds).
    let cited = [id("W2013721829"), id("W2070011903")];
    let citing = citing_ids(&source, &cited, &litrev_sources::Held::new());
    assert!(citing.len() > 20, "{} citing works", citing.len());
    let (held, rest) = citing.split_at(citing.len() / 2);
    let before = server.requests();
    let held_answers: litrev_sources::Held<'_> = [
        (&cited[0], held.iter().collect()),
        (&cited[1], held.iter().collect()),
    ]
    .into();
    assert_eq!(citing_ids(&source, &cited, &held_answers), rest);
    assert_eq!(server.requests() - before, 1);
    assert!(source.capabilities().held_left_out > 100);
}

#[test]
fn openalex_listings_go_without_leaving_out_once_the_api_refuses_it() {
    let Some(data) = litrev_testkit::testdata() else {
        return;
    };
    // An API that does not read negated lists, answering as OpenAlex does a filter it refuses.
    let (server, source) = openalex_answering(&data, "Chou_2004", |request| {
        let filter = request.query.iter().find(|(key, _)| key == "filter")?;
        filter.1.contains("openalex:!").then(|| {
            litrev_testkit::http::Reply::json(
                400,
                &serde_json::json!({
                    "error": "Invalid query parameters error.",
                    "message": "openalex:! is not a valid filter",
                }),
            )
        })
    });
    let cited = [id("W2013721829"), id("W2070011903")];
    let citing = citing_ids(&source, &cited, &litrev_sources::Held::new());
    let held: litrev_sources::Held<'_> =
        [(&cited[0], citing[..citing.len() / 2].iter().collect())].into();
    assert!(source.capabilities().held_left_out > 100);

    let before = server.requests();
    assert_eq!(
        citing_ids(&source, &cited, &held),
        citing,
        "every citing work, the held ones too"
    );
    assert_eq!(
        server.requests() - before,
        2,
        "the refused request and the plain one"
    );
    assert_eq!(source.capabilities().held_left_out, 0);

    let before = server.requests();
    assert_eq!(
        source.citing(&cited, &held).expect("citing").len(),
        citing.len()
    );
    assert_eq!(server.requests() - before, 1, "no request is refused again");
}

/// The expert channel's two calls, on OpenAlex (the local API serving a SYNERGY pool) and on
/// the same pool as a snapshot: the same authors in the same order with the same measures, and
/// the same works, the most cited first, each by one of the authors and on one of the topics.
#[test]
fn openalex_and_a_snapshot_find_the_same_experts_and_their_works() {
    let Some(data) = litrev_testkit::testdata() else {
        return;
    };
    let (server, openalex) = openalex_on(&data, "Donners_2021");
    let home = tempfile::tempdir().expect("temp dir");
    let (snapshot, _) = litrev_sources::SnapshotSource::open(
        &[data.join("synergy/works/Donners_2021.jsonl.gz")],
        home.path(),
        &|_| {},
    )
    .expect("snapshot");
    // Two subjects a few of the search's works share: narrow enough that every author of
    // them fits one page.
    let works = snapshot
        .search(&litrev_model::Query::new("q1", "all", "emicizumab"), 50)
        .expect("search");
    let mut counts: std::collections::BTreeMap<litrev_model::Topic, usize> = Default::default();
    for hit in &works {
        for topic in &hit.work.topics {
            *counts.entry(topic.clone()).or_default() += 1;
        }
    }
    let mut topics: Vec<(litrev_model::Topic, usize)> = counts.into_iter().collect();
    topics.retain(|(_, count)| *count >= 3);
    topics.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    let topics: Vec<litrev_model::Topic> = topics.into_iter().take(2).map(|(t, _)| t).collect();
    assert!(
        topics.iter().all(|topic| topic.id.starts_with('C')),
        "{topics:?}"
    );

    // The local API counts a work's citations among the works it serves, the snapshot takes
    // the record's count: the same authors and topics, different citation measures.
    let remote = openalex
        .experts(&topics, 2018, 200)
        .expect("OpenAlex experts");
    let local = snapshot
        .experts(&topics, 2018, 200)
        .expect("snapshot experts");
    assert!(remote.len() > 10 && remote.len() < 200, "{}", remote.len());
    let comparable = |experts: &[litrev_model::Expert]| {
        let mut rows: Vec<_> = experts
            .iter()
            .map(|expert| {
                let litrev_model::Expert {
                    id,
                    name,
                    orcid,
                    topic,
                    works_in_topic,
                    recent_works,
                    ..
                } = expert;
                (
                    id.clone(),
                    name.clone(),
                    orcid.clone(),
                    topic.clone(),
                    *works_in_topic,
                    *recent_works,
                )
            })
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(comparable(&remote), comparable(&local));
    let cited: Vec<u32> = remote.iter().map(|expert| expert.cited_by_count).collect();
    assert!(cited.windows(2).all(|pair| pair[0] >= pair[1]), "{cited:?}");
    assert!(
        remote
            .iter()
            .all(|expert| topics.contains(&expert.topic) && expert.works_in_topic > 0)
    );

    let authors: Vec<String> = remote
        .iter()
        .take(3)
        .map(|expert| expert.id.clone())
        .collect();
    let theirs = openalex
        .author_works(&authors, &topics, 200)
        .expect("OpenAlex works");
    let ids = |works: &[litrev_model::Work]| works.iter().map(|work| work.id()).collect::<Vec<_>>();
    assert!(!theirs.is_empty());
    let mut local_works = snapshot
        .author_works(&authors, &topics, 200)
        .expect("snapshot works");
    // Both list every work of the authors on the topics; the orders follow different counts.
    let mut remote_sorted = ids(&theirs);
    remote_sorted.sort();
    local_works.sort_by_key(litrev_model::Work::id);
    assert_eq!(remote_sorted, ids(&local_works));
    for work in &theirs {
        assert!(
            work.authors
                .iter()
                .any(|author| author.id.as_ref().is_some_and(|id| authors.contains(id)))
        );
        assert!(work.topics.iter().any(|topic| topics.contains(topic)));
    }
    let cited: Vec<u32> = theirs
        .iter()
        .map(|work| work.cited_by_count.unwrap_or(0))
        .collect();
    assert!(cited.windows(2).all(|pair| pair[0] >= pair[1]), "{cited:?}");
    let log = server.request_log();
    assert!(
        log.iter().any(|line| line.contains("/authors?")
            && line.contains("x_concepts.id%3A")
            && line.contains("sort=cited_by_count%3Adesc")),
        "{log:?}"
    );
    assert!(
        log.iter().any(
            |line| line.contains("authorships.author.id%3A") && line.contains("concepts.id%3A")
        ),
        "{log:?}"
    );
}

#[test]
fn brave_web_search_reads_a_recorded_answer_as_webpages() {
    use litrev_sources::brave::{self, BraveConfig, BraveSource};
    use litrev_testkit::brave::{BRAVE_TEST_KEY, brave_server};
    let Some(answers) = litrev_testkit::brave_answers() else {
        return;
    };
    let server = brave_server(&answers, FaultPlan::mixed(0.3, 11));
    let source = BraveSource::new(
        client().endpoint(unthrottled(brave::policy())),
        BraveConfig {
            base_url: server.url(),
            api_key: Some(BRAVE_TEST_KEY.to_owned()),
        },
    )
    .expect("a key");
    let query = Query {
        channel: litrev_model::Channel::Web,
        ..Query::new("q9", "web", "\"hello world\"~3 OR hello")
    };
    let hits = source.search(&query, 300).expect("searched");
    assert_eq!(hits.len(), 20);
    let first = &hits[0].work;
    assert_eq!(first.kind, litrev_model::WorkKind::Webpage);
    assert_eq!(
        first.id().to_string(),
        "url:https://en.wikipedia.org/wiki/%22Hello,_World!%22_program"
    );
    assert_eq!(first.year, Some(2024));
    assert_eq!(first.venue.as_deref(), Some("Wikipedia"));
    let snippet = first.abstract_text.as_deref().expect("a snippet");
    assert!(
        snippet.starts_with("A \"Hello, World!\" program is usually a simple computer program")
            && !snippet.contains('<')
            && !snippet.contains("&quot;"),
        "{snippet}"
    );
    assert!(hits[0].score > hits[19].score);
    // One page of at most 20, the words alone, the token as a header and never in the URL.
    let searches: Vec<String> = server
        .request_log()
        .into_iter()
        .filter(|line| line.contains("/res/v1/web/search"))
        .collect();
    assert!(
        searches.iter().all(|line| line
            .contains("q=hello+world&count=20&offset=0&result_filter=web")
            && !line.contains(BRAVE_TEST_KEY)),
        "{searches:#?}"
    );

    // A keyword search of the literature is not a web search, nor a web search a keyword one.
    let keyword = Query::new("q1", "keyword", "hello world");
    assert!(!source.capabilities().answers(&keyword));
    assert!(source.capabilities().answers(&query));
    assert!(!litrev_sources::crossref::CAPABILITIES.answers(&query));

    // A wrong key is refused for good, and saying which service refused it.
    let wrong = BraveSource::new(
        client().endpoint(unthrottled(brave::policy())),
        BraveConfig {
            base_url: server.url(),
            api_key: Some("not-the-key".to_owned()),
        },
    )
    .expect("a key");
    let error = wrong.search(&query, 20).expect_err("refused");
    assert!(error.to_string().contains("HTTP 401"), "{error}");
    // No key at all: nothing is sent, and the error says how to give one.
    let error = BraveSource::new(
        client().endpoint(unthrottled(brave::policy())),
        BraveConfig {
            base_url: server.url(),
            api_key: None,
        },
    )
    .expect_err("no key");
    assert!(error.to_string().contains("BRAVE_API_KEY"), "{error}");
}

#[test]
fn hugging_face_paper_search_reads_a_recorded_answer_as_preprints() {
    use litrev_sources::huggingface::{self, HuggingFaceConfig, HuggingFaceSource};
    use litrev_testkit::huggingface::hf_papers_server;
    let Some(answers) = litrev_testkit::hf_papers() else {
        return;
    };
    let server = hf_papers_server(&answers, FaultPlan::mixed(0.3, 5));
    let source = HuggingFaceSource::new(
        client().endpoint(unthrottled(huggingface::policy())),
        HuggingFaceConfig {
            base_url: server.url(),
            token: Some("hf_test_token".to_owned()),
        },
    );
    let query = Query::new("q1", "keyword", "\"kazakh question\"~3 OR kazakh");
    assert!(source.capabilities().answers(&query));
    let hits = source.search(&query, 300).expect("searched");
    assert_eq!(hits.len(), 9, "every paper of the recorded answer");
    let first = &hits[0].work;
    assert_eq!(first.id().to_string(), "arXiv:2404.04487");
    assert_eq!(
        first.title.as_deref(),
        Some("KazQAD: Kazakh Open-Domain Question Answering Dataset")
    );
    assert_eq!(first.kind, litrev_model::WorkKind::Preprint);
    assert_eq!(
        (first.year, first.date.as_deref()),
        (Some(2024), Some("2024-04-06"))
    );
    assert_eq!(
        first.authors.first().map(|author| author.name.as_str()),
        Some("Rustem Yeshpanov")
    );
    let summary = first.abstract_text.as_deref().expect("the abstract");
    assert!(
        summary.starts_with("We introduce KazQAD -- a Kazakh open-domain question answering")
            && !summary.contains('\n'),
        "{summary}"
    );
    assert!(
        first
            .keywords
            .iter()
            .any(|keyword| keyword == "reading comprehension")
    );
    assert_eq!(
        first.oa_url.as_deref(),
        Some("https://arxiv.org/pdf/2404.04487")
    );
    assert!(
        hits.iter().all(|hit| hit.work.title.is_some()
            && hit.work.abstract_text.is_some()
            && matches!(hit.work.ids.primary(), Some(litrev_model::WorkId::Arxiv(_)))),
        "every paper has its arXiv id, a title and an abstract"
    );
    assert!(hits[0].score > hits[8].score);
    // One request of the words alone, the token in a header and never in the URL.
    let searches: Vec<String> = server
        .request_log()
        .into_iter()
        .filter(|line| line.contains("/api/papers/search"))
        .collect();
    assert!(
        searches
            .iter()
            .all(|line| line.contains("q=kazakh+question&limit=100") && !line.contains("hf_test")),
        "{searches:#?}"
    );
    // Fewer asked, fewer read: the limit goes to the Hub.
    assert_eq!(source.search(&query, 3).expect("searched").len(), 3);
    // The token goes in the Authorization header: one the Hub does not know is refused.
    let wrong = HuggingFaceSource::new(
        client().endpoint(unthrottled(huggingface::policy())),
        HuggingFaceConfig {
            base_url: server.url(),
            token: Some("not-a-token".to_owned()),
        },
    );
    let error = wrong.search(&query, 9).expect_err("refused");
    assert!(error.to_string().contains("HTTP 401"), "{error}");
    // The Hub holds preprints only: a search for books is not asked of it.
    let books = Query {
        kinds: vec![litrev_model::WorkKind::Book],
        ..Query::new("q2", "books", "kazakh")
    };
    assert!(!source.capabilities().answers(&books));

    // The trending channel reads the Hub's trending list and keeps the papers on its words:
    // two of them, or all when it has fewer.
    let trending = Query {
        channel: litrev_model::Channel::Trending,
        ..Query::new("t1", "trending", "kazakh speech recognition")
    };
    assert!(source.capabilities().answers(&trending));
    assert!(!litrev_sources::crossref::CAPABILITIES.answers(&trending));
    let hits = source.search(&trending, 20).expect("listed");
    let ids: Vec<String> = hits.iter().map(|hit| hit.work.id().to_string()).collect();
    assert_eq!(
        ids,
        [
            "arXiv:2111.13419",
            "arXiv:2404.01033",
            "arXiv:2108.01280",
            "arXiv:2107.10637"
        ],
        "the recorded papers with two of kazakh, speech, recognition (named entity recognition \
         too), in the list's order"
    );
    assert!(
        server
            .request_log()
            .iter()
            .any(|line| line.contains("/api/daily_papers?p=0&limit=100&sort=trending")),
        "{:#?}",
        server.request_log()
    );
}

#[test]
fn tavily_search_reads_its_answer_as_webpages_and_asks_only_for_the_web_channel() {
    use litrev_sources::tavily::{self, TavilyConfig, TavilySource};
    use litrev_testkit::tavily::{TAVILY_TEST_KEY, tavily_server};
    let Some(answers) = litrev_testkit::tavily_answers() else {
        return;
    };
    let server = tavily_server(&answers, FaultPlan::mixed(0.3, 13));
    let source = |key: Option<&str>| {
        TavilySource::new(
            client().endpoint(unthrottled(tavily::policy())),
            TavilyConfig {
                base_url: server.url(),
                api_key: key.map(str::to_owned),
            },
        )
    };
    let tavily = source(Some(TAVILY_TEST_KEY)).expect("a key");
    let query = Query {
        channel: litrev_model::Channel::Web,
        ..Query::new("w1", "web", "site:tavily.com \"what tavily\"~3")
    };
    let hits = tavily.search(&query, 300).expect("searched");
    assert_eq!(hits.len(), 1);
    let page = &hits[0].work;
    assert_eq!(page.kind, litrev_model::WorkKind::Webpage);
    assert_eq!(page.id().to_string(), "url:https://tavily.com");
    assert_eq!(page.venue.as_deref(), Some("tavily.com"));
    assert!(
        page.abstract_text
            .as_deref()
            .is_some_and(|text| text.starts_with("Connect Your LLM to the Web")),
        "{page:?}"
    );
    // The key is a bearer header, never in the URL or the log.
    assert!(
        server
            .request_log()
            .iter()
            .all(|line| !line.contains(TAVILY_TEST_KEY)),
        "{:#?}",
        server.request_log()
    );
    // A site search reaches Tavily as `include_domains`: another site's pages are not answered.
    let elsewhere = Query {
        text: "site:example.org what tavily".to_owned(),
        ..query.clone()
    };
    assert!(tavily.search(&elsewhere, 5).expect("searched").is_empty());
    assert!(
        !tavily
            .capabilities()
            .answers(&Query::new("q1", "keyword", "tavily"))
    );
    assert!(tavily.capabilities().answers(&query));

    let error = source(Some("tvly-wrong"))
        .expect("a key")
        .search(&query, 5)
        .expect_err("refused");
    assert!(error.to_string().contains("HTTP 401"), "{error}");
    let error = source(None).expect_err("no key");
    assert!(error.to_string().contains("TAVILY_API_KEY"), "{error}");
}

#[test]
fn open_library_finds_books_for_the_book_channel_and_looks_them_up_by_isbn() {
    use litrev_model::{Channel, WorkKind};
    use litrev_sources::openlibrary::{self, OpenLibraryConfig, OpenLibrarySource};
    use litrev_testkit::openlibrary::openlibrary_server;
    let Some(answers) = litrev_testkit::openlibrary_answers() else {
        return;
    };
    let server = openlibrary_server(&answers, FaultPlan::mixed(0.3, 17));
    let source = OpenLibrarySource::new(
        client().endpoint(unthrottled(openlibrary::policy())),
        OpenLibraryConfig {
            base_url: server.url(),
        },
    );
    let books = Query {
        channel: Channel::Book,
        kinds: vec![WorkKind::Book, WorkKind::BookChapter],
        ..Query::new("q3", "books", "\"harry potter\"~3 OR \"potter chamber\"~3")
    };
    // Keyword searches are not Open Library's; book searches are.
    assert!(
        !source
            .capabilities()
            .answers(&Query::new("q1", "keyword", "harry potter"))
    );
    assert!(source.capabilities().answers(&books));
    let hits = source.search(&books, 20).expect("searched");
    let titles: Vec<&str> = hits
        .iter()
        .filter_map(|hit| hit.work.title.as_deref())
        .collect();
    assert!(!hits.is_empty() && hits.len() <= 20, "{titles:?}");
    assert!(hits.iter().all(|hit| hit.work.kind == WorkKind::Book));
    let chamber = hits
        .iter()
        .map(|hit| &hit.work)
        .find(|work| work.title.as_deref() == Some("Harry Potter and the Chamber of Secrets"))
        .expect("the recorded work of that title");
    assert_eq!(chamber.id().to_string(), "isbn:9780439064873");
    assert_eq!(chamber.publisher.as_deref(), Some("Scholastic Inc."));
    assert_eq!(chamber.authors[0].name, "J. K. Rowling");
    assert!(
        chamber.ids.url.as_ref().is_some_and(|url| url
            .address()
            .starts_with("https://openlibrary.org/works/OL")),
        "{chamber:?}"
    );
    // The plan's query in the boolean syntax Solr reads.
    let log = server.request_log();
    assert!(
        log.iter().any(|line| line
            .contains("/search.json?q=%28harry+AND+potter%29+OR+%28potter+AND+chamber%29&fields=")),
        "{log:#?}"
    );

    // ISBNs are looked up in one Books API request; other ids are not Open Library's.
    let before = server.requests();
    let ids: Vec<WorkId> = [
        "isbn:0439064872",
        "isbn:9780735211308",
        "isbn:9780140328721",
        "W1",
    ]
    .iter()
    .map(|id| id.parse().expect("an id"))
    .collect();
    let found = source.lookup(&ids).expect("looked up");
    let found: Vec<(String, Option<i32>, Option<&str>)> = found
        .iter()
        .map(|work| (work.id().to_string(), work.year, work.publisher.as_deref()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "isbn:9780439064873".to_owned(),
                Some(2000),
                Some("Scholastic Inc.")
            ),
            ("isbn:9780735211308".to_owned(), Some(2018), Some("Avery")),
        ],
        "the recorded editions of the ISBNs asked; the third is not recorded"
    );
    assert!(server.requests() > before);
    assert!(source.lookup(&ids[3..]).expect("nothing to ask").is_empty());
}
