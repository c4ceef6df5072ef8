//! Open Library as a second source for books (beside OpenAlex's works of type book): its
//! search API (`/search.json`) answers the plan's book searches, and its Books API
//! (`/api/books?bibkeys=ISBN:…`) looks books up by ISBN, many per request.
//!
//! Nothing here but the client talks HTTP. A book is known by the ISBN Open Library gives it
//! (the first ISBN-13 of its editions'), so that records of it from other sources merge by
//! ISBN, and by its page's address; records without an ISBN merge with OpenAlex's by title
//! and first author (`litrev_model::dedup`).

mod client;
mod convert;
mod request;

pub use client::{CAPABILITIES, OpenLibraryConfig, OpenLibrarySource, policy};
pub use convert::{SearchResults, parse_books, parse_search};
pub use request::{BIBKEYS_MAX, DEFAULT_BASE_URL, LIMIT_MAX, books_url, query_text, search_url};
