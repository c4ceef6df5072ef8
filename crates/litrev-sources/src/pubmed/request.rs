//! URLs of the E-utilities litrev uses on PubMed: esearch (with the history server), efetch,
//! elink.
//!
//! NCBI asks every client to name itself with `tool` and `email`; an API key, when there is
//! one, is the HTTP layer's to add (as a secret `api_key` parameter), so it never lands in a
//! URL that is logged.

use litrev_model::Pmid;

use super::convert::History;

/// The E-utilities base URL.
pub const DEFAULT_BASE_URL: &str = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils";

/// Most ids one esearch page returns (`retmax`).
pub const SEARCH_MAX: usize = 10_000;

/// Most records one efetch call returns (`retmax`).
pub const FETCH_MAX: usize = 10_000;

/// Who is calling, sent with every request as NCBI asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caller<'a> {
    /// The client's name (`litrev`).
    pub tool: &'a str,
    /// A contact address NCBI can write to about the client's traffic.
    pub email: &'a str,
}

/// The links elink follows from PubMed records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// PubMed records citing each record (`pubmed_pubmed_citedin`, from PMC reference lists).
    CitedIn,
    /// PubMed records each record cites (`pubmed_pubmed_refs`).
    References,
    /// The record's PubMed Central article (`pubmed_pmc`; PMC's numeric ids).
    Pmc,
}

impl Link {
    /// The `linkname` parameter, also the `LinkName` of the answer's link sets.
    pub fn name(self) -> &'static str {
        match self {
            Link::CitedIn => "pubmed_pubmed_citedin",
            Link::References => "pubmed_pubmed_refs",
            Link::Pmc => "pubmed_pmc",
        }
    }

    fn db(self) -> &'static str {
        match self {
            Link::CitedIn | Link::References => "pubmed",
            Link::Pmc => "pmc",
        }
    }
}

/// `esearch.fcgi?db=pubmed&term=…&usehistory=y&retmax=…&sort=relevance`: the first `retmax`
/// PMIDs, best match first, with the result kept on the history server for efetch.
pub fn esearch_url(base: &str, caller: Caller, term: &str, retmax: usize) -> String {
    let retmax = retmax.min(SEARCH_MAX).to_string();
    url(
        base,
        "esearch.fcgi",
        &[
            ("db", "pubmed"),
            ("term", term),
            ("usehistory", "y"),
            ("retmax", &retmax),
            ("sort", "relevance"),
        ],
        caller,
    )
}

/// `efetch.fcgi` of a slice of an esearch result from the history server, as abstract XML.
pub fn efetch_history_url(
    base: &str,
    caller: Caller,
    history: &History,
    retstart: usize,
    retmax: usize,
) -> String {
    let retstart = retstart.to_string();
    let retmax = retmax.clamp(1, FETCH_MAX).to_string();
    url(
        base,
        "efetch.fcgi",
        &[
            ("db", "pubmed"),
            ("WebEnv", &history.web_env),
            ("query_key", &history.query_key),
            ("retstart", &retstart),
            ("retmax", &retmax),
            ("rettype", "abstract"),
            ("retmode", "xml"),
        ],
        caller,
    )
}

/// `efetch.fcgi?db=pubmed&id=1,2,…` as abstract XML. NCBI suggests POST beyond about 200 ids.
pub fn efetch_ids_url(base: &str, caller: Caller, pmids: &[Pmid]) -> String {
    let ids: Vec<&str> = pmids.iter().map(Pmid::as_str).collect();
    url(
        base,
        "efetch.fcgi",
        &[
            ("db", "pubmed"),
            ("id", &ids.join(",")),
            ("rettype", "abstract"),
            ("retmode", "xml"),
        ],
        caller,
    )
}

/// `elink.fcgi?dbfrom=pubmed&db=…&linkname=…&id=1&id=2…`: one `id=` per PMID, so the answer
/// holds one link set per source record instead of one merged set.
pub fn elink_url(base: &str, caller: Caller, pmids: &[Pmid], link: Link) -> String {
    let mut pairs: Vec<(&str, &str)> = vec![
        ("dbfrom", "pubmed"),
        ("db", link.db()),
        ("linkname", link.name()),
    ];
    pairs.extend(pmids.iter().map(|pmid| ("id", pmid.as_str())));
    url(base, "elink.fcgi", &pairs, caller)
}

fn url(base: &str, utility: &str, pairs: &[(&str, &str)], caller: Caller) -> String {
    let query = crate::url::query(
        pairs
            .iter()
            .copied()
            .chain([("tool", caller.tool), ("email", caller.email)]),
    );
    format!("{}/{utility}?{query}", crate::url::base(base))
}

/// A search term with a directed query's first year (`2022:3000[dp]`) and, for books and
/// chapters, NCBI Bookshelf's publication type (`"Books and Documents"[pt]`); PubMed counts no
/// citations, so an order by them is not asked of it.
pub fn directed_term(words: &str, query: &litrev_model::Query) -> String {
    use litrev_model::WorkKind;
    let mut term = if query.is_directed() {
        format!("({words})")
    } else {
        words.to_owned()
    };
    if let Some(year) = query.from_year {
        term.push_str(&format!(" AND {year}:3000[dp]"));
    }
    if !query.kinds.is_empty()
        && query
            .kinds
            .iter()
            .all(|kind| matches!(kind, WorkKind::Book | WorkKind::BookChapter))
    {
        term.push_str(" AND \"Books and Documents\"[pt]");
    }
    term
}

#[cfg(test)]
mod tests {
    use super::*;

    const CALLER: Caller = Caller {
        tool: "litrev",
        email: "dev@example.org",
    };

    fn pmids(ids: &[&str]) -> Vec<Pmid> {
        ids.iter().map(|id| id.parse().expect("pmid")).collect()
    }

    #[test]
    fn builds_the_e_utility_urls() {
        assert_eq!(
            esearch_url(
                DEFAULT_BASE_URL,
                CALLER,
                "asthma[mh] AND \"inhaled steroids\"",
                200
            ),
            "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi?db=pubmed&term=asthma%5Bmh%5D+AND+%22inhaled+steroids%22&usehistory=y&retmax=200&sort=relevance&tool=litrev&email=dev%40example.org"
        );
        let history = History {
            web_env: "MCID_6927d6e7fee3e90f880ec190".to_owned(),
            query_key: "1".to_owned(),
        };
        assert_eq!(
            efetch_history_url("http://localhost:1/eutils/", CALLER, &history, 400, 200),
            "http://localhost:1/eutils/efetch.fcgi?db=pubmed&WebEnv=MCID_6927d6e7fee3e90f880ec190&query_key=1&retstart=400&retmax=200&rettype=abstract&retmode=xml&tool=litrev&email=dev%40example.org"
        );
        assert_eq!(
            efetch_ids_url(DEFAULT_BASE_URL, CALLER, &pmids(&["12091962", "9997"])),
            "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi?db=pubmed&id=12091962%2C9997&rettype=abstract&retmode=xml&tool=litrev&email=dev%40example.org"
        );
    }

    #[test]
    fn repeats_id_per_source_record_in_elink() {
        let url = elink_url(
            DEFAULT_BASE_URL,
            CALLER,
            &pmids(&["11812492", "11774222"]),
            Link::CitedIn,
        );
        assert_eq!(
            url,
            "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/elink.fcgi?dbfrom=pubmed&db=pubmed&linkname=pubmed_pubmed_citedin&id=11812492&id=11774222&tool=litrev&email=dev%40example.org"
        );
        assert!(
            elink_url(DEFAULT_BASE_URL, CALLER, &pmids(&["1"]), Link::References)
                .contains("db=pubmed&linkname=pubmed_pubmed_refs&id=1&")
        );
        assert!(
            elink_url(DEFAULT_BASE_URL, CALLER, &pmids(&["1"]), Link::Pmc)
                .contains("dbfrom=pubmed&db=pmc&linkname=pubmed_pmc&id=1&")
        );
    }

    #[test]
    fn directed_queries_narrow_the_esearch_term() {
        let plain = litrev_model::Query::new("q1", "", "emicizumab");
        assert_eq!(directed_term("emicizumab", &plain), "emicizumab");
        let books = litrev_model::Query {
            kinds: vec![
                litrev_model::WorkKind::Book,
                litrev_model::WorkKind::BookChapter,
            ],
            from_year: Some(2022),
            ..plain
        };
        assert_eq!(
            directed_term("emicizumab OR haemophilia", &books),
            "(emicizumab OR haemophilia) AND 2022:3000[dp] AND \"Books and Documents\"[pt]"
        );
    }
}
