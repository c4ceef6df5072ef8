//! `prisma.svg`: the PRISMA 2020 flow of a run — identification, screening, retrieval of full
//! texts, inclusion — drawn
//! with the run's own counts.

use std::fmt::Write;

use crate::xml::escape;

/// The counts the flow diagram shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrismaCounts {
    /// Where records were identified (`a local OpenAlex snapshot …`).
    pub source: String,
    /// Records returned by the searches, duplicates included.
    pub search_hits: usize,
    /// Those records by the channel whose searches returned them (`keyword`, `book`), in
    /// the channels' order; one channel alone is not broken down.
    pub channels: Vec<(String, usize)>,
    /// Works named by the user as seeds.
    pub seeds: usize,
    /// Web pages named by the user (grey literature, other sources).
    pub pages: usize,
    /// Records of the user's own libraries (other sources).
    pub library: usize,
    /// Records added by citation snowballing (those known only by id included).
    pub snowballed: usize,
    /// Duplicates removed before screening.
    pub duplicates: usize,
    /// Records known only by an id, which could not be screened.
    pub no_metadata: usize,
    /// Records screened on title and abstract.
    pub screened: usize,
    /// Exclusions at screening, by reason (reason, count), largest first.
    pub excluded: Vec<(String, usize)>,
    /// Works included in the review.
    pub included: usize,
    /// Full texts sought for the included works (runs stored before the full-text step have
    /// none).
    pub reports: Option<ReportCounts>,
}

/// The full-text boxes: reports sought for retrieval and those not retrieved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReportCounts {
    /// Included works whose full text was sought.
    pub sought: usize,
    /// Left unsought by the full-text budget.
    pub over_budget: usize,
    /// Sought and not retrieved, by reason (reason, count).
    pub not_retrieved: Vec<(String, usize)>,
    /// Read in full.
    pub read: usize,
}

const WIDTH: i32 = 760;
const BOX_WIDTH: i32 = 330;
const LINE_HEIGHT: i32 = 18;

/// The diagram as a standalone SVG document.
pub fn prisma_svg(counts: &PrismaCounts) -> String {
    let excluded_total: usize = counts.excluded.iter().map(|(_, count)| count).sum();
    let mut identified = vec![
        "Records identified".to_owned(),
        format!("from {}:", counts.source),
    ];
    if counts.channels.len() > 1 {
        identified.extend(
            counts
                .channels
                .iter()
                .map(|(channel, hits)| format!("{channel} searches (n = {hits})")),
        );
    } else {
        identified.push(format!("searches (n = {})", counts.search_hits));
    }
    identified.push(format!("citation snowballing (n = {})", counts.snowballed));
    if counts.seeds > 0 {
        identified.push(format!(
            "seed works named by the user (n = {})",
            counts.seeds
        ));
    }
    if counts.pages > 0 {
        identified.push(format!(
            "other sources: web pages named by the user (n = {})",
            counts.pages
        ));
    }
    if counts.library > 0 {
        identified.push(format!(
            "other sources: the user's library (n = {})",
            counts.library
        ));
    }
    let removed = vec![
        "Records removed before screening:".to_owned(),
        format!("duplicates (n = {})", counts.duplicates),
        format!("known only by id (n = {})", counts.no_metadata),
    ];
    let screened = vec![
        "Records screened".to_owned(),
        "(title and abstract)".to_owned(),
        format!("(n = {})", counts.screened),
    ];
    let mut excluded = vec![format!("Records excluded (n = {excluded_total}):")];
    excluded.extend(
        counts
            .excluded
            .iter()
            .map(|(reason, count)| format!("{} (n = {count})", reason.replace('_', " "))),
    );
    let mut included = vec![
        "Studies included in the review".to_owned(),
        format!("(n = {})", counts.included),
    ];
    if let Some(reports) = &counts.reports {
        included.push(format!("read in full (n = {})", reports.read));
    }

    // Three stages top to bottom, each with the records leaving the flow beside it.
    let mut body = String::new();
    let mut y = stage_row(&mut body, 20, "Identification", &identified, Some(&removed)) + 40;
    arrow(
        &mut body,
        LEFT + BOX_WIDTH / 2,
        y - 40,
        LEFT + BOX_WIDTH / 2,
        y,
    );
    y = stage_row(&mut body, y, "Screening", &screened, Some(&excluded)) + 40;
    arrow(
        &mut body,
        LEFT + BOX_WIDTH / 2,
        y - 40,
        LEFT + BOX_WIDTH / 2,
        y,
    );
    if let Some(reports) = &counts.reports {
        let mut sought = vec![
            "Reports sought for retrieval".to_owned(),
            format!("(n = {})", reports.sought),
        ];
        if reports.over_budget > 0 {
            sought.push(format!(
                "beyond the full-text budget (n = {})",
                reports.over_budget
            ));
        }
        let missed: usize = reports.not_retrieved.iter().map(|(_, count)| count).sum();
        let mut not_retrieved = vec![format!("Reports not retrieved (n = {missed}):")];
        not_retrieved.extend(
            reports
                .not_retrieved
                .iter()
                .map(|(reason, count)| format!("{} (n = {count})", reason.replace('_', " "))),
        );
        y = stage_row(&mut body, y, "Retrieval", &sought, Some(&not_retrieved)) + 40;
        arrow(
            &mut body,
            LEFT + BOX_WIDTH / 2,
            y - 40,
            LEFT + BOX_WIDTH / 2,
            y,
        );
    }
    y = stage_row(&mut body, y, "Included", &included, None) + 40;
    let height = y - 20;

    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"13\">\n\
         <title>PRISMA 2020 flow diagram</title>\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#333\"/></marker></defs>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{body}</svg>\n"
    )
}

const LEFT: i32 = 20;
const RIGHT: i32 = WIDTH - BOX_WIDTH - 20;

/// Draws a stage's box and, beside it, the box of records leaving the flow, joined by an
/// arrow; returns the bottom of the row.
fn stage_row(
    out: &mut String,
    y: i32,
    stage: &str,
    main: &[String],
    side: Option<&[String]>,
) -> i32 {
    let height = box_height(main).max(side.map_or(0, box_height));
    draw_box(out, LEFT, y, height, main, stage);
    if let Some(side) = side {
        draw_box(out, RIGHT, y, height, side, "");
        arrow(out, LEFT + BOX_WIDTH, y + height / 2, RIGHT, y + height / 2);
    }
    y + height
}

fn box_height(lines: &[String]) -> i32 {
    lines.len() as i32 * LINE_HEIGHT + 16
}

fn draw_box(out: &mut String, x: i32, y: i32, height: i32, lines: &[String], stage: &str) {
    let _ = writeln!(
        out,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{BOX_WIDTH}\" height=\"{height}\" rx=\"4\" fill=\"#f4f7fb\" stroke=\"#2b4c7e\" stroke-width=\"1.2\"/>"
    );
    if !stage.is_empty() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#2b4c7e\" font-weight=\"bold\">{}</text>",
            x,
            y - 4,
            escape(stage)
        );
    }
    for (index, line) in lines.iter().enumerate() {
        let weight = if index == 0 {
            " font-weight=\"bold\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\"{weight}>{}</text>",
            x + 10,
            y + 22 + index as i32 * LINE_HEIGHT,
            escape(line)
        );
    }
}

fn arrow(out: &mut String, x1: i32, y1: i32, x2: i32, y2: i32) {
    let _ = writeln!(
        out,
        "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#333\" stroke-width=\"1.2\" marker-end=\"url(#arrow)\"/>"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_count_and_escapes_text() {
        let svg = prisma_svg(&PrismaCounts {
            source: "a <local> snapshot & more".into(),
            search_hits: 100,
            channels: vec![("keyword".to_owned(), 100)],
            seeds: 2,
            pages: 3,
            library: 0,
            snowballed: 40,
            duplicates: 23,
            no_metadata: 7,
            screened: 110,
            excluded: vec![("out_of_scope".into(), 50), ("missing_abstract".into(), 10)],
            included: 50,
            reports: Some(ReportCounts {
                sought: 45,
                over_budget: 5,
                not_retrieved: vec![("no_copy".into(), 20), ("parse_failed".into(), 1)],
                read: 24,
            }),
        });
        for expected in [
            "Reports sought for retrieval",
            "(n = 45)",
            "beyond the full-text budget (n = 5)",
            "Reports not retrieved (n = 21):",
            "no copy (n = 20)",
            "read in full (n = 24)",
            "searches (n = 100)",
            "citation snowballing (n = 40)",
            "seed works named by the user (n = 2)",
            "other sources: web pages named by the user (n = 3)",
            "duplicates (n = 23)",
            "known only by id (n = 7)",
            "(n = 110)",
            "Records excluded (n = 60):",
            "out of scope (n = 50)",
            "(n = 50)",
            "a &lt;local&gt; snapshot &amp; more",
        ] {
            assert!(svg.contains(expected), "{expected} missing from\n{svg}");
        }
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(
            svg.matches("<rect").count(),
            8,
            "background and seven boxes"
        );
    }
}
