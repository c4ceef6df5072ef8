//! What a source asks for (`Request`, with its secrets kept apart) and what it gets back
//! (`Response`, fully read, possibly from the cache).

use std::fmt;

use serde::de::DeserializeOwned;

use crate::{Error, Result};

/// The HTTP methods the scholarly APIs need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// Searches, lookups, lists.
    Get,
    /// Batch lookups with a JSON body (Semantic Scholar's `/paper/batch`).
    Post,
}

impl Method {
    /// The method as HTTP spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One request to a source, built by the source's client.
///
/// Secrets are kept out of `url` and `headers`: they go in `secret_params` and
/// `secret_headers`, which are added only when the request is sent, so cache keys, call
/// records and error messages never see them.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// GET or POST.
    pub method: Method,
    /// The full URL with its query, without secrets.
    pub url: String,
    /// Extra headers (`Accept`, `Content-Type`); they are part of the cache key.
    pub headers: Vec<(String, String)>,
    /// The request body, for POST.
    pub body: Option<Vec<u8>>,
    /// Query parameters appended at send time (`api_key=…`).
    pub secret_params: Vec<(String, String)>,
    /// Headers added at send time (`x-api-key: …`).
    pub secret_headers: Vec<(String, String)>,
    /// Telemetry label for the kind of call: "search", "works-by-id", "cites"…
    pub endpoint: String,
    /// Abstract cost units of one attempt (OpenAlex: search 10, filter or list 1).
    pub cost: f64,
    /// Whether a successful response may be stored and answered from the disk cache.
    pub cacheable: bool,
}

impl Request {
    /// A cacheable GET of cost 1.
    pub fn get(url: &str, endpoint: &str) -> Self {
        Self {
            method: Method::Get,
            url: url.to_owned(),
            headers: Vec::new(),
            body: None,
            secret_params: Vec::new(),
            secret_headers: Vec::new(),
            endpoint: endpoint.to_owned(),
            cost: 1.0,
            cacheable: true,
        }
    }

    /// A cacheable POST of cost 1 with a JSON body (the body is part of the cache key).
    pub fn post_json(url: &str, endpoint: &str, body: &serde_json::Value) -> Self {
        Self {
            method: Method::Post,
            body: Some(body.to_string().into_bytes()),
            ..Self::get(url, endpoint)
        }
        .with_header("content-type", "application/json")
    }

    /// Adds a header (part of the cache key; never put a secret here).
    #[must_use]
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Adds a query parameter that is sent but never cached, logged or shown.
    #[must_use]
    pub fn with_secret_param(mut self, name: &str, value: &str) -> Self {
        self.secret_params.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Adds a header that is sent but never cached, logged or shown.
    #[must_use]
    pub fn with_secret_header(mut self, name: &str, value: &str) -> Self {
        self.secret_headers
            .push((name.to_owned(), value.to_owned()));
        self
    }

    /// Sets the cost units of one attempt.
    #[must_use]
    pub fn with_cost(mut self, cost: f64) -> Self {
        self.cost = cost;
        self
    }

    /// Sets whether the response may come from, and go to, the disk cache.
    #[must_use]
    pub fn with_cacheable(mut self, cacheable: bool) -> Self {
        self.cacheable = cacheable;
        self
    }
}

/// A successful (2xx) response, read to the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// The HTTP status (2xx; what was cached).
    pub status: u16,
    /// The whole body, decompressed.
    pub body: Vec<u8>,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// Whether the disk cache answered instead of the network.
    pub from_cache: bool,
    /// The source that answered, for error messages.
    pub source: &'static str,
    /// The request's URL, without secrets, for error messages.
    pub url: String,
    /// The response's headers, names in lower case (none when the cache answered).
    pub headers: Vec<(String, String)>,
}

impl Response {
    /// The value of the header `name` (any case), when the server sent it.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header, _)| header.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The body as UTF-8 text.
    ///
    /// # Errors
    /// `Decode` when the body is not UTF-8.
    pub fn text(&self) -> Result<&str> {
        std::str::from_utf8(&self.body)
            .map_err(|error| self.decode_error(format!("not UTF-8 text: {error}")))
    }

    /// The body parsed as JSON into `T`.
    ///
    /// # Errors
    /// `Decode` when the body is not JSON of the expected shape; the message gives serde's
    /// line and column and the start of the body.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T> {
        serde_json::from_slice(&self.body).map_err(|error| {
            self.decode_error(format!(
                "not the expected JSON ({error}); the body starts with {:?}",
                snippet(&self.body, 200)
            ))
        })
    }

    fn decode_error(&self, message: String) -> Error {
        Error::Decode {
            source: self.source,
            url: self.url.clone(),
            message,
        }
    }
}

/// The first `max_chars` characters of a body, lossily decoded, for error messages.
pub(crate) fn snippet(body: &[u8], max_chars: usize) -> String {
    let text = String::from_utf8_lossy(body);
    let mut out: String = text.chars().take(max_chars).collect();
    if text.chars().nth(max_chars).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_json_sets_body_and_content_type() {
        let request = Request::post_json(
            "https://api.example.org/batch",
            "batch",
            &serde_json::json!({"ids": ["a"]}),
        );
        assert_eq!(request.method, Method::Post);
        assert_eq!(
            request.body.as_deref(),
            Some(br#"{"ids":["a"]}"#.as_slice())
        );
        assert_eq!(
            request.headers,
            vec![("content-type".to_owned(), "application/json".to_owned())]
        );
        assert!(request.cacheable);
    }

    #[test]
    fn decode_errors_name_source_and_url() {
        let response = Response {
            status: 200,
            body: b"<html>".to_vec(),
            content_type: None,
            from_cache: false,
            source: "openalex",
            url: "https://api.openalex.org/works".to_owned(),
            headers: vec![("last-modified-version".to_owned(), "7".to_owned())],
        };
        assert_eq!(response.header("Last-Modified-Version"), Some("7"));
        assert_eq!(response.header("link"), None);
        let error = response.json::<serde_json::Value>().unwrap_err();
        let message = error.to_string();
        assert!(
            message
                .starts_with("openalex: unexpected response from https://api.openalex.org/works"),
            "{message}"
        );
        assert!(message.contains("<html>"), "{message}");
        assert_eq!(response.text().unwrap(), "<html>");
    }

    #[test]
    fn snippets_are_cut_on_characters() {
        assert_eq!(snippet("ééé".as_bytes(), 2), "éé…");
        assert_eq!(snippet(b"ab", 2), "ab");
    }
}
