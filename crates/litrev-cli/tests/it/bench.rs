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
