//! Local stand-ins for the scholarly APIs, so litrev's live client path can be measured and
//! tested on real data without the network.
//!
//! [`openalex::OpenAlexWorks`] answers the OpenAlex `/works` syntax litrev's client uses from
//! snapshot files; [`http::Server`] serves any handler on a loopback port, counts the requests
//! it gets and can inject the faults real APIs show. `litrev bench snowball` runs the OpenAlex
//! client against the pair and divides the requests it sent by the fewest its expansion needed;
//! the integration tests use the same pair (through `litrev-testkit`), so what is measured and
//! what is tested is one implementation. [`zotero::ZoteroServer`] is a Zotero library behind
//! the Web API v3, for exports to Zotero.
//!
//! ```no_run
//! use litrev_bench_server::http::{FaultPlan, Reply, Server};
//! use litrev_bench_server::openalex::OpenAlexWorks;
//! let works = OpenAlexWorks::load(&["works.jsonl.gz"]).expect("a snapshot");
//! let server = Server::start(
//!     move |request| {
//!         let (status, body) = works.answer(request);
//!         Reply::json(status, &body)
//!     },
//!     FaultPlan::none(),
//! );
//! println!("OpenAlex at {}, {} requests so far", server.url(), server.requests());
//! ```

pub mod fulltext;
pub mod hostile;
pub mod http;
pub mod openalex;
pub mod random;
pub mod zotero;
