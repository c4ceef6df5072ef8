//! `litrev screen RUN`: the human gate in the terminal, or an import of edited decisions.

use std::io::{BufRead, Write};

use litrev::Runner;
use litrev::model::Decision;

use crate::args::ScreenArgs;

/// Runs the screening session or the import; the exit code is 0 when it ended normally.
pub fn run(runner: &mut Runner, args: &ScreenArgs) -> anyhow::Result<u8> {
    if let Some(path) = &args.import {
        let report = runner.import_labels(&args.run, path)?;
        println!(
            "{} decisions changed by you, {} unchanged, {} rows not in this run; continue with `litrev resume {}`",
            report.changed, report.unchanged, report.unknown, args.run
        );
        return Ok(0);
    }
    if args.import_zotero {
        let collection = args.collection.as_deref();
        let report = match &args.zotero_sqlite {
            Some(database) => runner.import_local_zotero_labels(&args.run, database, collection)?,
            None => runner.import_zotero_labels(&args.run, collection)?,
        };
        println!(
            "Zotero: {} works included by you, {} included already, {} references not in this run; continue with `litrev resume {}`",
            report.changed, report.unchanged, report.unknown, args.run
        );
        return Ok(0);
    }
    let mut session = runner.screening_session(&args.run)?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut stdout = std::io::stdout();
    let mut given = 0usize;
    loop {
        let Some(candidate) = session.next()? else {
            println!("every record has a label from you");
            break;
        };
        let work = &candidate.work;
        println!();
        println!(
            "[{} left] {} ({}{})",
            candidate.remaining,
            work.title_or_empty(),
            work.year
                .map(|year| year.to_string())
                .unwrap_or_else(|| "n.d.".to_owned()),
            work.venue
                .as_deref()
                .map(|venue| format!(", {venue}"))
                .unwrap_or_default()
        );
        println!(
            "  litrev: {} ({}), score {:.3}: {}",
            candidate.decision.decision.name(),
            candidate.decision.reason.code(),
            candidate.decision.score,
            candidate.decision.rationale
        );
        if let Some(abstract_text) = &work.abstract_text {
            println!("  {}", shorten(abstract_text, 900));
        }
        print!("[i]nclude  [e]xclude  [s]kip  [u]ndo  [q]uit > ");
        stdout.flush()?;
        let Some(line) = lines.next().transpose()? else {
            println!();
            break;
        };
        match line.trim().chars().next() {
            Some('i') => {
                session.label(&work.id(), Decision::Include)?;
                given += 1;
                println!("saved: include {}", work.id());
            }
            Some('e') => {
                session.label(&work.id(), Decision::Exclude)?;
                given += 1;
                println!("saved: exclude {}", work.id());
            }
            Some('u') => match session.undo()? {
                Some(label) => println!("undone: {} {}", label.decision.name(), label.work),
                None => println!("nothing to undo"),
            },
            Some('q') => break,
            Some('s') | None => {
                session.skip(&work.id());
                println!("skipped: it comes back in the next session");
            }
            Some(other) => println!("`{other}` is not a key: use i, e, s, u or q"),
        }
    }
    println!(
        "{given} labels given in this session; continue with `litrev resume {}`",
        args.run
    );
    Ok(0)
}

/// At most `limit` characters, cut at a word, with an ellipsis.
fn shorten(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    let cut: String = text.chars().take(limit).collect();
    let at_word = cut.rfind(' ').map_or(cut.as_str(), |space| &cut[..space]);
    format!("{at_word} …")
}
