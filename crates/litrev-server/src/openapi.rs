//! `GET /api/openapi.json`: an OpenAPI 3.1 document of the API, made from the same endpoint
//! table the router is built from ([`crate::api::endpoints`]).

use axum::Json;
use serde_json::{Value, json};

/// One endpoint as the document describes it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Endpoint {
    pub(crate) method: &'static str,
    pub(crate) path: &'static str,
    pub(crate) id: &'static str,
    pub(crate) summary: &'static str,
    /// The request body's media type and schema name in `components`, when it takes one.
    pub(crate) body: Option<(&'static str, &'static str)>,
    /// Status codes and what each means; the first is the success.
    pub(crate) responses: &'static [(u16, &'static str)],
    /// The success's media type and schema name, when it is not plain JSON of no fixed shape.
    pub(crate) returns: Option<(&'static str, &'static str)>,
}

const NOT_FOUND: (u16, &str) = (404, "no such run or file");
const UNAUTHORISED: (u16, &str) = (401, "the token is missing or wrong");

impl Endpoint {
    pub(crate) const SESSION: Endpoint = Endpoint {
        method: "post",
        path: "/api/session",
        id: "signIn",
        summary: "Exchange the token for an HttpOnly session cookie (the web UI's sign-in).",
        body: Some(("application/json", "Session")),
        responses: &[(204, "signed in"), UNAUTHORISED],
        returns: None,
    };
    pub(crate) const CREATE_RUN: Endpoint = Endpoint {
        method: "post",
        path: "/api/runs",
        id: "createRun",
        summary: "Start a review with the options of `litrev review`; it waits in line for a worker.",
        body: Some(("application/json", "NewRun")),
        responses: &[
            (201, "created"),
            (400, "bad options, with the CLI's message"),
            UNAUTHORISED,
        ],
        returns: Some(("application/json", "Created")),
    };
    pub(crate) const LIST_RUNS: Endpoint = Endpoint {
        method: "get",
        path: "/api/runs",
        id: "listRuns",
        summary: "Every run, newest first.",
        body: None,
        responses: &[(200, "the runs"), UNAUTHORISED],
        returns: Some(("application/json", "Runs")),
    };
    pub(crate) const SHOW_RUN: Endpoint = Endpoint {
        method: "get",
        path: "/api/runs/{id}",
        id: "showRun",
        summary: "One run: status, step, place in line, cost, telemetry, parent.",
        body: None,
        responses: &[(200, "the run"), NOT_FOUND, UNAUTHORISED],
        returns: Some(("application/json", "Run")),
    };
    pub(crate) const EVENTS: Endpoint = Endpoint {
        method: "get",
        path: "/api/runs/{id}/events",
        id: "runEvents",
        summary: "Server-Sent Events (step, progress, notice, gate, done, failed) with increasing ids; send Last-Event-ID to resume.",
        body: None,
        responses: &[(200, "the event stream"), NOT_FOUND, UNAUTHORISED],
        returns: Some(("text/event-stream", "Event")),
    };
    pub(crate) const SCREENING: Endpoint = Endpoint {
        method: "get",
        path: "/api/runs/{id}/screening",
        id: "screening",
        summary: "The ranked candidates with score, decision, reason and reviewer.",
        body: None,
        responses: &[(200, "the candidates"), NOT_FOUND, UNAUTHORISED],
        returns: Some(("application/json", "Candidates")),
    };
    pub(crate) const LABELS: Endpoint = Endpoint {
        method: "post",
        path: "/api/runs/{id}/labels",
        id: "labelWorks",
        summary: "A person's include/exclude decisions, saved at once and in force over the model's.",
        body: Some(("application/json", "Labels")),
        responses: &[
            (200, "saved"),
            (400, "not a list of labels"),
            NOT_FOUND,
            (409, "a work outside the run's corpus"),
            UNAUTHORISED,
        ],
        returns: None,
    };
    pub(crate) const CLARIFY: Endpoint = Endpoint {
        method: "post",
        path: "/api/runs/{id}/clarify",
        id: "answerClarifications",
        summary: "Answers to the questions of a run whose status is needs_clarification, one per question in order (empty takes the default); the run then searches, in line.",
        body: Some(("application/json", "Answers")),
        responses: &[
            (202, "answered"),
            (
                400,
                "an answer that is not one of its question's options, or too many",
            ),
            NOT_FOUND,
            (409, "the run is not waiting for answers"),
            UNAUTHORISED,
        ],
        returns: Some(("application/json", "Created")),
    };
    pub(crate) const APPROVE: Endpoint = Endpoint {
        method: "post",
        path: "/api/runs/{id}/approve",
        id: "approve",
        summary: "Pass the screening gate; the run goes on in line.",
        body: None,
        responses: &[
            (202, "approved"),
            NOT_FOUND,
            (409, "the run is not waiting at the gate"),
            UNAUTHORISED,
        ],
        returns: Some(("application/json", "Created")),
    };
    pub(crate) const RESUME: Endpoint = Endpoint {
        method: "post",
        path: "/api/runs/{id}/resume",
        id: "resume",
        summary: "Put a failed or stopped run back in line; it carries on from its last committed step.",
        body: None,
        responses: &[
            (202, "in line"),
            NOT_FOUND,
            (409, "the run is neither failed nor stopped"),
            UNAUTHORISED,
        ],
        returns: Some(("application/json", "Created")),
    };
    pub(crate) const FILE: Endpoint = Endpoint {
        method: "get",
        path: "/api/runs/{id}/files/{*name}",
        id: "outputFile",
        summary: "An output file of the run, with its content type; anything outside its folder is 404.",
        body: None,
        responses: &[(200, "the file"), NOT_FOUND, UNAUTHORISED],
        returns: Some(("application/octet-stream", "File")),
    };
    pub(crate) const REVIEW: Endpoint = Endpoint {
        method: "get",
        path: "/api/runs/{id}/review",
        id: "getReview",
        summary: "The review's Markdown with [@key] citations, and how many earlier versions are kept.",
        body: None,
        responses: &[
            (200, "the review"),
            NOT_FOUND,
            (409, "the run is not done"),
            UNAUTHORISED,
        ],
        returns: Some(("application/json", "ReviewText")),
    };
    pub(crate) const EDIT_REVIEW: Endpoint = Endpoint {
        method: "put",
        path: "/api/runs/{id}/review",
        id: "editReview",
        summary: "Save an edited review (text/markdown, or JSON {markdown}); audited like the writer's output, the old text kept as a revision, every file published again.",
        body: Some(("text/markdown", "Markdown")),
        responses: &[
            (200, "saved and published"),
            NOT_FOUND,
            (409, "the run is not done, or is in line"),
            (
                422,
                "the edit breaks the grounding rules: the problems, sentence by sentence",
            ),
            UNAUTHORISED,
        ],
        returns: Some(("application/json", "Revised")),
    };
    pub(crate) const CONTINUE: Endpoint = Endpoint {
        method: "post",
        path: "/api/runs/{id}/continue",
        id: "continueRun",
        summary: "A follow-up of a done run (new question, seeds or tier) that starts from its corpus and labels.",
        body: Some(("application/json", "FollowUp")),
        responses: &[
            (201, "created"),
            (400, "bad options"),
            NOT_FOUND,
            (409, "the run is not done"),
            UNAUTHORISED,
        ],
        returns: Some(("application/json", "Created")),
    };
    pub(crate) const OPENAPI: Endpoint = Endpoint {
        method: "get",
        path: "/api/openapi.json",
        id: "openapi",
        summary: "This document.",
        body: None,
        responses: &[(200, "the OpenAPI document"), UNAUTHORISED],
        returns: None,
    };
}

/// `GET /api/openapi.json`.
pub(crate) async fn document() -> Json<Value> {
    Json(openapi())
}

/// The document, from the endpoint table.
pub(crate) fn openapi() -> Value {
    let mut paths = serde_json::Map::new();
    for (endpoint, _) in crate::api::endpoints() {
        let operation = operation(&endpoint);
        paths
            .entry(documented_path(endpoint.path))
            .or_insert_with(|| json!({}))
            .as_object_mut()
            .map(|methods| methods.insert(endpoint.method.to_owned(), operation));
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "litrev",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Literature reviews as a service: start a run, follow it live, screen at the gate, read, edit and continue the review.",
        },
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "cookie": {"type": "apiKey", "in": "cookie", "name": "litrev_token"},
            },
            "schemas": schemas(),
        },
        "security": [{"bearer": []}, {"cookie": []}],
    })
}

/// The router's path as OpenAPI writes it: a catch-all `{*name}` is the parameter `{name}`.
fn documented_path(path: &str) -> String {
    path.replace("{*", "{")
}

fn operation(endpoint: &Endpoint) -> Value {
    let mut parameters = Vec::new();
    for name in ["id", "name"] {
        if documented_path(endpoint.path).contains(&format!("{{{name}}}")) {
            parameters.push(json!({
                "name": name, "in": "path", "required": true, "schema": {"type": "string"}
            }));
        }
    }
    let mut responses = serde_json::Map::new();
    for (index, (status, description)) in endpoint.responses.iter().enumerate() {
        let content = match (index, endpoint.returns) {
            (0, Some((media, schema))) => {
                json!({ media: {"schema": {"$ref": format!("#/components/schemas/{schema}")}} })
            }
            (0, None) => json!({}),
            _ => {
                json!({"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}})
            }
        };
        responses.insert(
            status.to_string(),
            json!({"description": description, "content": content}),
        );
    }
    let mut operation = json!({
        "operationId": endpoint.id,
        "summary": endpoint.summary,
        "parameters": parameters,
        "responses": responses,
    });
    if let Some((media, schema)) = endpoint.body {
        operation["requestBody"] = json!({
            "required": true,
            "content": { media: {"schema": {"$ref": format!("#/components/schemas/{schema}")}} },
        });
    }
    operation
}

fn schemas() -> Value {
    let string = json!({"type": "string"});
    let strings = json!({"type": "array", "items": {"type": "string"}});
    json!({
        "Error": {"type": "object", "required": ["error"], "properties": {
            "error": string,
            "problems": {"type": "array", "items": {"$ref": "#/components/schemas/EditProblem"}},
        }},
        "EditProblem": {"type": "object", "properties": {
            "sentence": {"type": "integer"}, "text": string, "problem": string,
        }},
        "Session": {"type": "object", "required": ["token"], "properties": {"token": string}},
        "NewRun": {"type": "object", "required": ["question"], "additionalProperties": false, "properties": {
            "question": string,
            "sources": {"type": "array", "items": {"type": "string"}, "description": "as --source: openalex, semantic-scholar, arxiv, pubmed, crossref, huggingface (Hugging Face's paper search), openlibrary (books), brave (web search, needs BRAVE_API_KEY), tavily (web search, needs TAVILY_API_KEY), snapshot:PATH"},
            "seeds": strings,
            "seeds_library": {"type": "string", "description": "the text of a library export (BibTeX, RIS, CSL-JSON, MEDLINE, PubMed XML, Web of Science, CSV) whose works are seeds too"},
            "tier": {"enum": ["quick", "standard", "comprehensive", "exhaustive"]},
            "year_from": {"type": "integer"}, "year_to": {"type": "integer"},
            "language": strings, "kind": strings, "exclude_terms": strings,
            "style": string,
            "llm": {"oneOf": [
                {"enum": ["openai", "anthropic"]},
                {"type": "object", "required": ["provider"], "properties": {
                    "provider": {"enum": ["openai", "anthropic"]},
                    "model": string, "url": string, "batch": {"type": "boolean"},
                    "price": {"type": "object", "properties": {
                        "input_per_million": {"type": "number"}, "output_per_million": {"type": "number"},
                    }},
                }},
            ]},
            "criteria": {"type": "string", "description": "eligibility criteria the model applies at screening"},
            "budget": {"type": "number", "minimum": 0, "description": "most US dollars the model calls may cost"},
            "yes": {"type": "boolean", "description": "approve the screening in advance"},
            "clarify": {"type": "boolean", "description": "probe the sources first and stop (status needs_clarification) when the research brief raises questions"},
            "max_fulltext": {"type": "integer", "minimum": 0},
            "research_mode": {"enum": ["academic", "general"]},
        }},
        "Answers": {"type": "object", "additionalProperties": false, "properties": {
            "answers": {"type": "array", "items": {"type": "string"}, "description": "one per question, in order, each one of its options; empty takes the default"},
        }},
        "Clarification": {"type": "object", "properties": {
            "about": string, "question": string, "options": strings, "default": string,
        }},
        "FollowUp": {"type": "object", "additionalProperties": false, "properties": {
            "question": string, "seeds": strings,
            "tier": {"enum": ["quick", "standard", "comprehensive", "exhaustive"]},
        }},
        "Created": {"type": "object", "required": ["id"], "properties": {"id": string, "parent": string}},
        "Run": {"type": "object", "properties": {
            "id": string, "question": string,
            "status": {"enum": ["queued", "running", "stopped", "waiting", "needs_clarification", "done", "failed"]},
            "clarifications": {"type": "array", "items": {"$ref": "#/components/schemas/Clarification"}},
            "plan": {"type": ["object", "null"], "description": "once planned, for one run (the list leaves it out): the brief (each dimension with its basis: stated, derived or assumed), the queries, seeds and filters, the synthesis (the review's parts in order, each with the domains it draws on), and the estimate (requests per live source with the range ±30 %, dollars, seconds waiting on the APIs)"},
            "step": {"type": ["string", "null"]},
            "queue_position": {"type": ["integer", "null"]},
            "created_at": string,
            "cost": {"type": "object", "properties": {
                "requests": {"type": "integer"}, "cache_hits": {"type": "integer"},
                "usd": {"type": "number"}, "wall_seconds": {"type": "number"},
            }},
            "telemetry": {"type": "object"},
            "parent": {"type": ["string", "null"]},
        }},
        "Runs": {"type": "array", "items": {"$ref": "#/components/schemas/Run"}},
        "Candidate": {"type": "object", "properties": {
            "id": string, "doi": {"type": ["string", "null"]}, "rank": {"type": "integer"},
            "title": {"type": ["string", "null"]}, "year": {"type": ["integer", "null"]},
            "venue": {"type": ["string", "null"]}, "authors": strings,
            "abstract": {"type": ["string", "null"]}, "score": {"type": "number"},
            "decision": {"enum": ["include", "exclude"]}, "reason": string,
            "rationale": {}, "reviewer": {"enum": ["model", "person"]},
        }},
        "Candidates": {"type": "array", "items": {"$ref": "#/components/schemas/Candidate"}},
        "Labels": {"type": "array", "items": {"type": "object", "required": ["id", "label"], "properties": {
            "id": string, "label": {"enum": ["include", "exclude"]},
        }}},
        "Event": {"type": "string", "description": "text/event-stream: `id:`, `event:` (step, progress, notice, clarify, gate, done, failed) and JSON `data:`"},
        "File": {"type": "string", "format": "binary"},
        "Markdown": {"type": "string", "description": "the review as Pandoc Markdown with [@key] citations"},
        "ReviewText": {"type": "object", "properties": {"markdown": string, "revisions": {"type": "integer"}}},
        "Revised": {"type": "object", "properties": {
            "revision": {"type": "integer"}, "words": {"type": "integer"},
            "citations": {"type": "integer"}, "included": {"type": "integer"},
        }},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_endpoint_is_documented_once_with_its_references_resolved() {
        let document = openapi();
        let endpoints = crate::api::endpoints();
        let mut seen = std::collections::BTreeSet::new();
        for (endpoint, _) in &endpoints {
            assert!(
                seen.insert((endpoint.path, endpoint.method)),
                "{}",
                endpoint.path
            );
            let operation = &document["paths"][documented_path(endpoint.path)][endpoint.method];
            assert_eq!(operation["operationId"], endpoint.id);
        }
        let schemas = document["components"]["schemas"]
            .as_object()
            .expect("schemas");
        let text = document.to_string();
        for reference in text.split("#/components/schemas/").skip(1) {
            let name: String = reference
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            assert!(schemas.contains_key(&name), "unresolved $ref {name}");
        }
    }
}
