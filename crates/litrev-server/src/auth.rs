//! The token: with one set, every `/api` request carries it, as `Authorization: Bearer TOKEN`
//! (scripts, curl) or as the HttpOnly cookie `POST /api/session` sets (the web UI). A request
//! authenticated by the cookie that changes state must also carry the `X-Litrev-CSRF` header,
//! which a page on another site cannot add without the server's consent.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::ApiError;

/// The cookie the web UI keeps the token in.
const COOKIE: &str = "litrev_token";
/// The header state-changing requests from the page carry.
pub(crate) const CSRF_HEADER: &str = "x-litrev-csrf";

/// Lets a request through when no token is set, or when it carries the token.
pub(crate) async fn require_token(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(token) = state.token.as_deref() else {
        return next.run(request).await;
    };
    if request.uri().path() == "/api/session" {
        return next.run(request).await;
    }
    let headers = request.headers();
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    if bearer.is_some_and(|given| same(given.trim(), token)) {
        return next.run(request).await;
    }
    if cookie(headers).is_some_and(|given| same(&given, token)) {
        let changes_state = !matches!(*request.method(), Method::GET | Method::HEAD);
        if changes_state && !headers.contains_key(CSRF_HEADER) {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                format!("a request from the page that changes something carries the {CSRF_HEADER} header"),
            )
            .into_response();
        }
        return next.run(request).await;
    }
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "this server needs its token: send `Authorization: Bearer TOKEN`, or sign in on the page",
    )
    .into_response()
}

/// `POST /api/session` `{"token": …}`: sets the HttpOnly cookie when the token is right.
pub(crate) async fn sign_in(
    State(state): State<Arc<AppState>>,
    Json(body): Json<serde_json::Value>,
) -> Response {
    let given = body.get("token").and_then(|value| value.as_str());
    match (state.token.as_deref(), given) {
        (None, _) => StatusCode::NO_CONTENT.into_response(),
        (Some(token), Some(given)) if same(given, token) => (
            StatusCode::NO_CONTENT,
            [(
                header::SET_COOKIE,
                format!("{COOKIE}={given}; HttpOnly; SameSite=Strict; Path=/"),
            )],
        )
            .into_response(),
        _ => ApiError::new(StatusCode::UNAUTHORIZED, "that is not this server's token")
            .into_response(),
    }
}

fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == COOKIE).then(|| value.to_owned())
        })
}

/// Compares in time that does not depend on where the texts differ.
fn same(given: &str, token: &str) -> bool {
    given.len() == token.len()
        && given
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |difference, (a, b)| difference | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_read_from_the_cookie_and_compared_whole() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            "theme=dark; litrev_token=s3cret".parse().expect("header"),
        );
        assert_eq!(cookie(&headers).as_deref(), Some("s3cret"));
        assert!(same("s3cret", "s3cret"));
        assert!(!same("s3cre", "s3cret"));
        assert!(!same("s3creT", "s3cret"));
    }
}
