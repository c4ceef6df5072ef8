//! A fresh PostgreSQL database per test, on the server `LITREV_TEST_POSTGRES` names (the test
//! script starts a throw-away one: `scripts/postgres.sh`).

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::missing;

/// The variable naming a server URL whose role may create databases.
pub const VARIABLE: &str = "LITREV_TEST_POSTGRES";

/// The URL of a new, empty database for one test, or `None` (after saying so) when no server
/// is named outside CI.
///
/// # Panics
/// Under `CI=true` when no server is named, and when the server refuses the new database.
pub fn fresh_database(purpose: &str) -> Option<String> {
    static CREATED: AtomicUsize = AtomicUsize::new(0);
    let Some(server) = std::env::var(VARIABLE).ok().filter(|url| !url.is_empty()) else {
        missing(&format!(
            "POSTGRESQL MISSING: set {VARIABLE} to a server URL (scripts/postgres.sh start DIR prints one); the PostgreSQL half of this test did not run"
        ));
        return None;
    };
    let name = format!(
        "t_{}_{}_{}",
        purpose
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            })
            .take(30)
            .collect::<String>(),
        std::process::id(),
        CREATED.fetch_add(1, Ordering::Relaxed)
    );
    let mut client = postgres::Client::connect(&server, postgres::NoTls)
        .unwrap_or_else(|error| panic!("cannot reach {server} ({VARIABLE}): {error}"));
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap_or_else(|error| panic!("cannot create database {name} on {server}: {error}"));
    Some(with_database(&server, &name))
}

/// `server` with its database part replaced by `name`.
fn with_database(server: &str, name: &str) -> String {
    let (base, query) = server
        .split_once('?')
        .map_or((server, None), |(base, query)| (base, Some(query)));
    let authority_start = base.find("://").map_or(0, |at| at + 3);
    let base = match base[authority_start..].find('/') {
        Some(slash) => &base[..authority_start + slash],
        None => base,
    };
    match query {
        Some(query) => format!("{base}/{name}?{query}"),
        None => format!("{base}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_part_of_a_url_is_replaced() {
        assert_eq!(
            with_database("postgres://litrev@127.0.0.1:5432/postgres", "t_1"),
            "postgres://litrev@127.0.0.1:5432/t_1"
        );
        assert_eq!(
            with_database("postgresql://me@db?sslmode=disable", "t_2"),
            "postgresql://me@db/t_2?sslmode=disable"
        );
    }
}
