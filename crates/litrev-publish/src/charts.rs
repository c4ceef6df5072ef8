//! `charts/*.svg`: publications per year stacked by theme, top venues, top authors, and how
//! the included works were found — plain SVG that opens in any browser.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::xml::escape;

/// Colours for series, chosen to stay distinct for up to a dozen themes.
const PALETTE: [&str; 12] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac", "#1f77b4", "#8c564b",
];

/// One work of [`citation_circle_svg`].
#[derive(Debug, Clone, PartialEq)]
pub struct CircleNode {
    /// Shown when the mouse is over it (the work's reference or title).
    pub label: String,
    /// Index of its theme in the legend.
    pub theme: usize,
    /// Citations it receives inside the corpus: its size.
    pub cited: usize,
}

/// The citation graph among the included works as a picture: the works on a circle, grouped
/// and coloured by theme, each sized by the citations it receives in the corpus, with a chord
/// for each citation between two of them (drawn through the centre, so citations between
/// themes cross it and those within a theme stay on its arc).
pub fn citation_circle_svg(
    title: &str,
    themes: &[String],
    nodes: &[CircleNode],
    edges: &[(usize, usize)],
) -> String {
    let (centre, radius) = (300.0_f64, 240.0_f64);
    let legend_width = 300;
    let width = 600 + legend_width;
    let height = 640 + 20;
    // Works in theme order around the circle, a gap between themes.
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by_key(|&index| nodes[index].theme);
    let gaps = themes.len().max(1);
    let slots = (nodes.len() + gaps).max(1) as f64;
    let mut position = vec![(centre, centre + 30.0); nodes.len()];
    let mut slot = 0usize;
    let mut previous_theme = None;
    for &index in &order {
        if previous_theme.is_some_and(|theme| theme != nodes[index].theme) {
            slot += 1;
        }
        previous_theme = Some(nodes[index].theme);
        let angle = std::f64::consts::TAU * slot as f64 / slots - std::f64::consts::FRAC_PI_2;
        position[index] = (
            centre + radius * angle.cos(),
            centre + 30.0 + radius * angle.sin(),
        );
        slot += 1;
    }
    let mut body = String::new();
    for &(from, to) in edges {
        let (Some(&(x1, y1)), Some(&(x2, y2))) = (position.get(from), position.get(to)) else {
            continue;
        };
        let _ = writeln!(
            body,
            "<path d=\"M{x1:.1},{y1:.1} Q{centre:.1},{:.1} {x2:.1},{y2:.1}\" fill=\"none\" stroke=\"#8a94a6\" stroke-opacity=\"0.35\" stroke-width=\"0.8\"/>",
            centre + 30.0
        );
    }
    for (index, node) in nodes.iter().enumerate() {
        let (x, y) = position[index];
        let size = 3.0 + (node.cited as f64).sqrt() * 1.6;
        let _ = writeln!(
            body,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{size:.1}\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"0.8\"><title>{} ({} citing in the corpus)</title></circle>",
            PALETTE[node.theme % PALETTE.len()],
            escape(&node.label),
            node.cited
        );
    }
    for (index, theme) in themes.iter().enumerate() {
        let y = 60 + index as i32 * 20;
        let count = nodes.iter().filter(|node| node.theme == index).count();
        let _ = writeln!(
            body,
            "<rect x=\"620\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"638\" y=\"{y}\" font-size=\"12\">{} ({count})</text>",
            y - 10,
            PALETTE[index % PALETTE.len()],
            escape(&shorten(theme, 36))
        );
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n<text x=\"20\" y=\"28\" font-size=\"16\" font-weight=\"bold\">{}</text>\n{body}</svg>\n",
        escape(title)
    )
}

/// A stacked column chart: one column per year, one stacked series per theme.
///
/// `series` holds (label, year → count) in legend order.
pub fn stacked_years_svg(title: &str, series: &[(String, BTreeMap<i32, usize>)]) -> String {
    let years: Vec<i32> = {
        let first = series
            .iter()
            .flat_map(|(_, counts)| counts.keys())
            .min()
            .copied();
        let last = series
            .iter()
            .flat_map(|(_, counts)| counts.keys())
            .max()
            .copied();
        match (first, last) {
            (Some(first), Some(last)) => (first..=last).collect(),
            _ => Vec::new(),
        }
    };
    let totals: Vec<usize> = years
        .iter()
        .map(|year| {
            series
                .iter()
                .map(|(_, counts)| counts.get(year).copied().unwrap_or(0))
                .sum()
        })
        .collect();
    let peak = totals.iter().copied().max().unwrap_or(1).max(1);
    let (left, top, plot_height) = (50, 40, 260);
    let column = 22;
    let legend_width = 260;
    let width = left + years.len().max(1) as i32 * column + 30 + legend_width;
    let legend_height = series.len() as i32 * 18 + 20;
    let height = (top + plot_height + 60).max(top + legend_height);
    let mut body = String::new();
    // Axis with ticks at round steps (1, 2, 5, 10, 20, 50…), at most five above zero.
    let step = tick_step(peak);
    for value in (0..=peak).step_by(step) {
        let y = top + plot_height - (value as i32 * plot_height / peak as i32);
        let _ = writeln!(
            body,
            "<line x1=\"{left}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"11\">{value}</text>",
            left + years.len() as i32 * column,
            left - 6,
            y + 4
        );
    }
    for (index, year) in years.iter().enumerate() {
        let x = left + index as i32 * column;
        let mut base = 0usize;
        for (series_index, (label, counts)) in series.iter().enumerate() {
            let count = counts.get(year).copied().unwrap_or(0);
            if count == 0 {
                continue;
            }
            let y_top = top + plot_height - ((base + count) as i32 * plot_height / peak as i32);
            let bar = (count as i32 * plot_height / peak as i32).max(1);
            let _ = writeln!(
                body,
                "<rect x=\"{}\" y=\"{y_top}\" width=\"{}\" height=\"{bar}\" fill=\"{}\"><title>{}: {count} in {year}</title></rect>",
                x + 2,
                column - 4,
                PALETTE[series_index % PALETTE.len()],
                escape(label)
            );
            base += count;
        }
        if years.len() <= 20 || index % 2 == 0 {
            let _ = writeln!(
                body,
                "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\" transform=\"rotate(-60 {} {})\">{year}</text>",
                x + column / 2,
                top + plot_height + 14,
                x + column / 2,
                top + plot_height + 14
            );
        }
    }
    let legend_x = left + years.len() as i32 * column + 30;
    for (index, (label, counts)) in series.iter().enumerate() {
        let y = top + index as i32 * 18;
        let total: usize = counts.values().sum();
        let _ = writeln!(
            body,
            "<rect x=\"{legend_x}\" y=\"{y}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"12\">{} ({total})</text>",
            PALETTE[index % PALETTE.len()],
            legend_x + 18,
            y + 10,
            escape(&shorten(label, 34))
        );
    }
    document(title, width, height, &body)
}

/// A horizontal bar chart of (label, count), in the order given.
pub fn bars_svg(title: &str, items: &[(String, usize)]) -> String {
    let peak = items
        .iter()
        .map(|(_, count)| *count)
        .max()
        .unwrap_or(1)
        .max(1);
    let (label_width, bar_width, row) = (300, 360, 22);
    let top = 40;
    let width = label_width + bar_width + 60;
    let height = top + items.len().max(1) as i32 * row + 20;
    let mut body = String::new();
    for (index, (label, count)) in items.iter().enumerate() {
        let y = top + index as i32 * row;
        let length = (*count as i32 * bar_width / peak as i32).max(1);
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{}</text><rect x=\"{}\" y=\"{}\" width=\"{length}\" height=\"{}\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"12\">{count}</text>",
            label_width - 8,
            y + 14,
            escape(&shorten(label, 44)),
            label_width,
            y + 3,
            row - 6,
            PALETTE[0],
            label_width + length + 6,
            y + 14
        );
    }
    document(title, width, height, &body)
}

fn document(title: &str, width: i32, height: i32, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"Helvetica, Arial, sans-serif\">\n\
         <title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"20\" y=\"24\" font-size=\"15\" font-weight=\"bold\">{}</text>\n{body}</svg>\n",
        escape(title),
        escape(title)
    )
}

fn shorten(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    let cut: String = text.chars().take(limit - 1).collect();
    format!("{}…", cut.trim_end())
}

/// The smallest round step (1, 2 or 5 times a power of ten) that labels `peak` with at most
/// five ticks above zero.
fn tick_step(peak: usize) -> usize {
    let mut power = 1;
    loop {
        for factor in [1, 2, 5] {
            let step = factor * power;
            if peak / step <= 5 {
                return step;
            }
        }
        power *= 10;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_fall_on_round_steps() {
        assert_eq!(tick_step(1), 1);
        assert_eq!(tick_step(7), 2);
        assert_eq!(tick_step(10), 2);
        assert_eq!(tick_step(24), 5);
        assert_eq!(tick_step(913), 200);
    }

    #[test]
    fn stacks_series_per_year_and_labels_bars() {
        let series = vec![
            (
                "Pumps & <kids>".to_owned(),
                BTreeMap::from([(2001, 2), (2003, 1)]),
            ),
            ("Meals".to_owned(), BTreeMap::from([(2001, 1)])),
        ];
        let svg = stacked_years_svg("Works per year", &series);
        assert_eq!(
            svg.matches("<rect x=").count(),
            3 + 2,
            "three bars and two legend keys"
        );
        for year in ["2001", "2002", "2003"] {
            assert!(
                svg.contains(&format!(">{year}</text>")),
                "{year} on the axis"
            );
        }
        assert!(svg.contains("Pumps &amp; &lt;kids&gt; (3)"));
        let bars = bars_svg(
            "Venues",
            &[("Blood".to_owned(), 5), ("Haemophilia".to_owned(), 2)],
        );
        assert!(bars.contains(">Blood</text>") && bars.contains(">5</text>"));
    }

    #[test]
    fn the_citation_circle_draws_each_work_and_each_citation_between_them() {
        let themes = vec!["Bleeding <rates>".to_owned(), "Costs".to_owned()];
        let nodes: Vec<CircleNode> = [(0, 4), (1, 0), (0, 1)]
            .iter()
            .enumerate()
            .map(|(index, &(theme, cited))| CircleNode {
                label: format!("Work {index} & co"),
                theme,
                cited,
            })
            .collect();
        let svg = citation_circle_svg("Citations", &themes, &nodes, &[(0, 1), (2, 0), (9, 0)]);
        assert_eq!(svg.matches("<circle").count(), 3);
        assert_eq!(
            svg.matches("<path").count(),
            2,
            "an edge to no node is left out"
        );
        assert!(svg.contains("Bleeding &lt;rates&gt; (2)"));
        assert!(svg.contains("<title>Work 0 &amp; co (4 citing in the corpus)</title>"));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    }
}
