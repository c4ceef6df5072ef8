//! `litrev bench screen` on real labelled data.

use crate::support::{describe, litrev, testdata};

#[test]
fn the_screening_simulation_orders_every_record_and_saves_work() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let order = home.path().join("order.txt");
    let works = data.join("synergy/works/Donners_2021.jsonl.gz");
    let labels = data.join("synergy/labels/Donners_2021.csv.gz");
    let output = litrev(
        home.path(),
        &[
            "bench",
            "screen",
            "--works",
            &works.display().to_string(),
            "--labels",
            &labels.display().to_string(),
            "--repeats",
            "2",
            "--order-out",
            &order.display().to_string(),
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("258 records, 15 included"), "{stdout}");
    let mean = stdout
        .lines()
        .find(|line| line.trim_start().starts_with("mean"))
        .expect("a mean row");
    let wss_95: f64 = mean
        .split_whitespace()
        .nth(1)
        .and_then(|value| value.parse().ok())
        .expect("WSS@95");
    // Random order saves nothing (WSS@95 = 0); a working model saves most of the reading here.
    assert!(wss_95 > 0.5, "{stdout}");

    let ids: Vec<String> = std::fs::read_to_string(&order)
        .expect("order file")
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(ids.len(), 258);
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 258, "every record exactly once");
    assert!(ids.iter().all(|id| id.starts_with('W')), "OpenAlex ids");

    let csv = data.join("synergy/built_csv_from_asreview_makita/van_de_Schoot_2018.csv.gz");
    let output = litrev(
        home.path(),
        &[
            "bench",
            "screen",
            "--csv",
            &csv.display().to_string(),
            "--repeats",
            "1",
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("4544 records, 38 included"));
}

#[test]
fn themes_of_two_unrelated_reviews_follow_their_files() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let themes_out = home.path().join("themes.csv");
    let first = data.join("synergy/works/Donners_2021.jsonl.gz");
    let second = data.join("synergy/works/Sep_2021.jsonl.gz");
    let output = litrev(
        home.path(),
        &[
            "bench",
            "themes",
            "--works",
            &first.display().to_string(),
            &second.display().to_string(),
            "--themes-out",
            &themes_out.display().to_string(),
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("529 works from 2 files"), "{stdout}");
    assert!(stdout.contains("NMI with the file of origin"), "{stdout}");
    let lines = std::fs::read_to_string(&themes_out).expect("themes file");
    assert_eq!(lines.lines().next(), Some("openalex_id,theme"));
    assert_eq!(lines.lines().count(), 1 + 258 + 271, "every work once");

    // Emicizumab trials and rodent memory studies share no vocabulary: no theme mixes them.
    let first_ids = openalex_ids(&first);
    let mut per_theme: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for line in lines.lines().skip(1) {
        let (id, theme) = line.split_once(',').expect("id,theme");
        let counts = per_theme.entry(theme.to_owned()).or_default();
        if first_ids.contains(id) {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }
    for (theme, (from_first, from_second)) in &per_theme {
        let purity = *from_first.max(from_second) as f64 / (from_first + from_second) as f64;
        assert!(
            purity >= 0.95,
            "theme {theme} mixes the files: {from_first} and {from_second}"
        );
    }
}

fn openalex_ids(file: &std::path::Path) -> std::collections::BTreeSet<String> {
    use std::io::BufRead;
    let reader = std::io::BufReader::new(flate2::read::MultiGzDecoder::new(
        std::fs::File::open(file).expect("works file"),
    ));
    reader
        .lines()
        .map(|line| {
            let record: serde_json::Value =
                serde_json::from_str(&line.expect("line")).expect("work");
            record["id"]
                .as_str()
                .expect("id")
                .rsplit('/')
                .next()
                .expect("W")
                .to_owned()
        })
        .collect()
}
