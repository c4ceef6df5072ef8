//! The two databases the store runs on, behind one small SQL surface: SQLite (the embedded
//! default) and PostgreSQL (a team's shared store).
//!
//! The store's queries are written once, in the SQL both accept (`?N` placeholders, `ON
//! CONFLICT`, `RETURNING`); PostgreSQL's client sees them with `$N`. Values cross as
//! [`Param`] and come back as [`Row`]s of [`Cell`]s, so no caller sees a driver's types.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::error::{Error, Result};

/// Where a store lives: a SQLite file, or a PostgreSQL database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file (created when missing).
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://user@host:port/db`).
    Postgres(String),
}

impl Location {
    /// Reads `--db`/`LITREV_DB`: a `postgres://` or `postgresql://` URL, otherwise a file path.
    pub fn parse(text: &str) -> Location {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Location::Postgres(text.to_owned())
        } else {
            Location::Sqlite(PathBuf::from(text))
        }
    }

    /// How the location is shown in messages: the file, or the URL without its password.
    pub fn display(&self) -> String {
        match self {
            Location::Sqlite(path) => path.display().to_string(),
            Location::Postgres(url) => without_password(url),
        }
    }
}

/// `postgres://user:secret@host/db` shown as `postgres://user:***@host/db`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((credentials, host)) = rest.split_once('@') else {
        return url.to_owned();
    };
    match credentials.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

/// A value bound to a placeholder.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Param<'a> {
    /// An integer (booleans are stored as 0 or 1).
    Int(i64),
    /// Text.
    Text(&'a str),
    /// Bytes.
    Bytes(&'a [u8]),
    /// A null in a text column.
    NullText,
}

impl<'a> From<&'a str> for Param<'a> {
    fn from(text: &'a str) -> Self {
        Param::Text(text)
    }
}

impl<'a> From<&'a String> for Param<'a> {
    fn from(text: &'a String) -> Self {
        Param::Text(text)
    }
}

impl From<i64> for Param<'_> {
    fn from(value: i64) -> Self {
        Param::Int(value)
    }
}

impl From<bool> for Param<'_> {
    fn from(value: bool) -> Self {
        Param::Int(i64::from(value))
    }
}

impl<'a> From<Option<&'a str>> for Param<'a> {
    fn from(text: Option<&'a str>) -> Self {
        text.map_or(Param::NullText, Param::Text)
    }
}

impl<'a> From<&'a [u8]> for Param<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        Param::Bytes(bytes)
    }
}

/// One value of a result row (or of a row to insert).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Text(String),
    Bytes(Vec<u8>),
}

impl<'a> From<&'a Cell> for Param<'a> {
    fn from(cell: &'a Cell) -> Self {
        match cell {
            Cell::Null => Param::NullText,
            Cell::Int(value) => Param::Int(*value),
            Cell::Text(text) => Param::Text(text),
            Cell::Bytes(bytes) => Param::Bytes(bytes),
        }
    }
}

/// One result row.
#[derive(Debug, Clone)]
pub(crate) struct Row(Vec<Cell>);

impl Row {
    fn cell(&self, index: usize) -> Result<&Cell> {
        self.0
            .get(index)
            .ok_or_else(|| Error::Sql(format!("the query gave no column {index}")))
    }

    /// Column `index` as text.
    pub(crate) fn text(&self, index: usize) -> Result<String> {
        self.opt_text(index)?
            .ok_or_else(|| Error::Sql(format!("column {index} is null")))
    }

    /// Column `index` as text, or `None` for a null.
    pub(crate) fn opt_text(&self, index: usize) -> Result<Option<String>> {
        match self.cell(index)? {
            Cell::Null => Ok(None),
            Cell::Text(text) => Ok(Some(text.clone())),
            other => Err(Error::Sql(format!("column {index} is {other:?}, not text"))),
        }
    }

    /// Column `index` as an integer.
    pub(crate) fn int(&self, index: usize) -> Result<i64> {
        self.opt_int(index)?
            .ok_or_else(|| Error::Sql(format!("column {index} is null")))
    }

    /// Column `index` as an integer, or `None` for a null.
    pub(crate) fn opt_int(&self, index: usize) -> Result<Option<i64>> {
        match self.cell(index)? {
            Cell::Null => Ok(None),
            Cell::Int(value) => Ok(Some(*value)),
            other => Err(Error::Sql(format!(
                "column {index} is {other:?}, not an integer"
            ))),
        }
    }

    /// Column `index` as bytes.
    pub(crate) fn bytes(&self, index: usize) -> Result<Vec<u8>> {
        match self.cell(index)? {
            Cell::Bytes(bytes) => Ok(bytes.clone()),
            other => Err(Error::Sql(format!(
                "column {index} is {other:?}, not bytes"
            ))),
        }
    }
}

/// Which SQL a database speaks where the two differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// What a `SELECT` that claims rows ends with: PostgreSQL locks the rows it picks and
    /// skips those another worker holds; SQLite's write transaction already excludes others.
    pub(crate) fn claim_suffix(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }
}

/// Runs statements: a connection, or a transaction on one.
pub(crate) trait Sql {
    /// Runs a statement; the number of rows it changed.
    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64>;

    /// Runs a query; every row.
    fn query(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>>;

    /// Which SQL it speaks.
    fn dialect(&self) -> Dialect;

    /// The first row, if any.
    fn query_opt(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Option<Row>> {
        Ok(self.query(sql, params)?.into_iter().next())
    }

    /// The one row a query must give.
    fn query_one(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Row> {
        self.query_opt(sql, params)?
            .ok_or_else(|| Error::Sql(format!("no row from `{sql}`")))
    }
}

/// An open database.
pub(crate) enum Connection {
    Sqlite(rusqlite::Connection),
    Postgres(Box<Postgres>),
}

/// A PostgreSQL client with its prepared statements, by the store's SQL text.
pub(crate) struct Postgres {
    client: postgres::Client,
    statements: HashMap<String, postgres::Statement>,
}

impl Postgres {
    /// Connects to `url`.
    pub(crate) fn connect(url: &str) -> std::result::Result<Postgres, postgres::Error> {
        Ok(Postgres {
            client: postgres::Client::connect(url, postgres::NoTls)?,
            statements: HashMap::new(),
        })
    }
}

/// A transaction: committed by [`Transaction::commit`], rolled back when dropped.
pub(crate) enum Transaction<'a> {
    Sqlite(rusqlite::Transaction<'a>),
    Postgres {
        transaction: postgres::Transaction<'a>,
        statements: &'a mut HashMap<String, postgres::Statement>,
    },
}

impl Connection {
    /// Begins a write transaction. SQLite takes the write lock at once (one that read first
    /// could not upgrade while another connection writes); PostgreSQL locks rows as they are
    /// written or claimed.
    pub(crate) fn transaction(&mut self) -> Result<Transaction<'_>> {
        match self {
            Connection::Sqlite(connection) => Ok(Transaction::Sqlite(
                connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?,
            )),
            Connection::Postgres(postgres) => Ok(Transaction::Postgres {
                transaction: postgres.client.transaction()?,
                statements: &mut postgres.statements,
            }),
        }
    }
}

impl Transaction<'_> {
    /// Runs several statements without parameters (a migration).
    pub(crate) fn batch(&mut self, sql: &str) -> Result<()> {
        match self {
            Transaction::Sqlite(transaction) => transaction.execute_batch(sql)?,
            Transaction::Postgres { transaction, .. } => transaction.batch_execute(sql)?,
        }
        Ok(())
    }

    /// Makes every write of the transaction durable.
    pub(crate) fn commit(self) -> Result<()> {
        match self {
            Transaction::Sqlite(transaction) => transaction.commit()?,
            Transaction::Postgres { transaction, .. } => transaction.commit()?,
        }
        Ok(())
    }
}

impl Sql for Connection {
    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64> {
        match self {
            Connection::Sqlite(connection) => sqlite_execute(connection, sql, params),
            Connection::Postgres(postgres) => {
                let Postgres { client, statements } = &mut **postgres;
                let statement = prepared(client, statements, sql)?;
                Ok(client.execute(&statement, &pg_params(params))?)
            }
        }
    }

    fn query(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>> {
        match self {
            Connection::Sqlite(connection) => sqlite_query(connection, sql, params),
            Connection::Postgres(postgres) => {
                let Postgres { client, statements } = &mut **postgres;
                let statement = prepared(client, statements, sql)?;
                pg_rows(client.query(&statement, &pg_params(params))?)
            }
        }
    }

    fn dialect(&self) -> Dialect {
        match self {
            Connection::Sqlite(_) => Dialect::Sqlite,
            Connection::Postgres(_) => Dialect::Postgres,
        }
    }
}

impl Sql for Transaction<'_> {
    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64> {
        match self {
            Transaction::Sqlite(transaction) => sqlite_execute(transaction, sql, params),
            Transaction::Postgres {
                transaction,
                statements,
            } => {
                let statement = prepared(transaction, statements, sql)?;
                Ok(transaction.execute(&statement, &pg_params(params))?)
            }
        }
    }

    fn query(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>> {
        match self {
            Transaction::Sqlite(transaction) => sqlite_query(transaction, sql, params),
            Transaction::Postgres {
                transaction,
                statements,
            } => {
                let statement = prepared(transaction, statements, sql)?;
                pg_rows(transaction.query(&statement, &pg_params(params))?)
            }
        }
    }

    fn dialect(&self) -> Dialect {
        match self {
            Transaction::Sqlite(_) => Dialect::Sqlite,
            Transaction::Postgres { .. } => Dialect::Postgres,
        }
    }
}

fn sqlite_params<'a>(params: &'a [Param<'a>]) -> Vec<rusqlite::types::ToSqlOutput<'a>> {
    use rusqlite::types::{ToSqlOutput, ValueRef};
    params
        .iter()
        .map(|param| {
            ToSqlOutput::Borrowed(match param {
                Param::Int(value) => ValueRef::Integer(*value),
                Param::Text(text) => ValueRef::Text(text.as_bytes()),
                Param::Bytes(bytes) => ValueRef::Blob(bytes),
                Param::NullText => ValueRef::Null,
            })
        })
        .collect()
}

fn sqlite_execute(
    connection: &rusqlite::Connection,
    sql: &str,
    params: &[Param<'_>],
) -> Result<u64> {
    let mut statement = connection.prepare_cached(sql)?;
    let changed = statement.execute(rusqlite::params_from_iter(sqlite_params(params)))?;
    Ok(changed as u64)
}

fn sqlite_query(
    connection: &rusqlite::Connection,
    sql: &str,
    params: &[Param<'_>],
) -> Result<Vec<Row>> {
    use rusqlite::types::ValueRef;
    let mut statement = connection.prepare_cached(sql)?;
    let columns = statement.column_count();
    let mut rows = statement.query(rusqlite::params_from_iter(sqlite_params(params)))?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let cells = (0..columns)
            .map(|index| {
                Ok(match row.get_ref(index)? {
                    ValueRef::Null => Cell::Null,
                    ValueRef::Integer(value) => Cell::Int(value),
                    ValueRef::Real(value) => Cell::Int(value.round() as i64),
                    ValueRef::Text(text) => Cell::Text(String::from_utf8_lossy(text).into_owned()),
                    ValueRef::Blob(bytes) => Cell::Bytes(bytes.to_vec()),
                })
            })
            .collect::<rusqlite::Result<Vec<Cell>>>()?;
        out.push(Row(cells));
    }
    Ok(out)
}

/// The prepared statement for the store's `sql`, prepared once per connection.
fn prepared(
    client: &mut impl postgres::GenericClient,
    statements: &mut HashMap<String, postgres::Statement>,
    sql: &str,
) -> Result<postgres::Statement> {
    if let Some(statement) = statements.get(sql) {
        return Ok(statement.clone());
    }
    let statement = client.prepare(&dollar_placeholders(sql))?;
    statements.insert(sql.to_owned(), statement.clone());
    Ok(statement)
}

/// `?1` becomes `$1`: the store's SQL as PostgreSQL numbers its parameters.
fn dollar_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

fn pg_params<'a>(params: &'a [Param<'a>]) -> Vec<&'a (dyn postgres::types::ToSql + Sync)> {
    const NULL_TEXT: Option<&str> = None;
    params
        .iter()
        .map(|param| -> &(dyn postgres::types::ToSql + Sync) {
            match param {
                Param::Int(value) => value,
                Param::Text(text) => text,
                Param::Bytes(bytes) => bytes,
                Param::NullText => &NULL_TEXT,
            }
        })
        .collect()
}

fn pg_rows(rows: Vec<postgres::Row>) -> Result<Vec<Row>> {
    use postgres::types::Type;
    rows.iter()
        .map(|row| {
            let cells = row
                .columns()
                .iter()
                .enumerate()
                .map(|(index, column)| {
                    let cell = match *column.type_() {
                        Type::INT8 => row.try_get::<_, Option<i64>>(index)?.map(Cell::Int),
                        Type::INT4 => row
                            .try_get::<_, Option<i32>>(index)?
                            .map(|value| Cell::Int(i64::from(value))),
                        Type::INT2 => row
                            .try_get::<_, Option<i16>>(index)?
                            .map(|value| Cell::Int(i64::from(value))),
                        Type::BOOL => row
                            .try_get::<_, Option<bool>>(index)?
                            .map(|value| Cell::Int(i64::from(value))),
                        Type::BYTEA => row.try_get::<_, Option<Vec<u8>>>(index)?.map(Cell::Bytes),
                        _ => row.try_get::<_, Option<String>>(index)?.map(Cell::Text),
                    };
                    Ok(cell.unwrap_or(Cell::Null))
                })
                .collect::<Result<Vec<Cell>>>()?;
            Ok(Row(cells))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stores_placeholders_become_postgres_numbers() {
        assert_eq!(
            dollar_placeholders("SELECT a FROM t WHERE b = ?1 AND c > ?12 OR d = '?'"),
            "SELECT a FROM t WHERE b = $1 AND c > $12 OR d = '?'"
        );
    }

    #[test]
    fn a_location_is_a_url_or_a_file() {
        assert_eq!(
            Location::parse("postgresql://me@localhost/litrev"),
            Location::Postgres("postgresql://me@localhost/litrev".into())
        );
        assert_eq!(
            Location::parse("runs/litrev.sqlite"),
            Location::Sqlite("runs/litrev.sqlite".into())
        );
        assert_eq!(
            Location::parse("postgres://me:secret@db:5432/lab").display(),
            "postgres://me:***@db:5432/lab"
        );
    }
}
