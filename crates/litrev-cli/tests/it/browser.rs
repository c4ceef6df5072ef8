//! The web UI in a real browser: headless Chromium, driven over the DevTools protocol, starts a
//! review on a snapshot, follows the live log to the gate, excludes two works and includes one
//! in the table, approves, waits for the review, hovers a citation and reads its tooltip, and
//! fetches `references.bib` from the page's download link and parses it with bibtexparser. A
//! run whose titles and question are markup shows the characters and runs nothing. Screenshots
//! of each page go to `target/tmp/browser/`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};

use crate::support::{
    Server, chromium_available, python_readers_available, question, testdata, works_file,
};

const DATASET: &str = "Donners_2021";
/// Long enough for a quick review on a loaded 2-core machine.
const PATIENCE: Duration = Duration::from_secs(300);

fn browser() -> Browser {
    let options = LaunchOptions::default_builder()
        .path(Some(PathBuf::from("/usr/bin/chromium")))
        .sandbox(false)
        .window_size(Some((1280, 1000)))
        .idle_browser_timeout(PATIENCE)
        .build()
        .expect("launch options");
    Browser::new(options).expect("headless Chromium starts")
}

fn screenshots() -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&folder).expect("screenshot folder");
    folder
}

fn screenshot(tab: &Tab, name: &str) {
    let png = tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .expect("screenshot");
    std::fs::write(screenshots().join(format!("{name}.png")), png).expect("screenshot written");
}

/// The value of a JavaScript expression in the page (promises awaited), through JSON so that
/// objects come back whole.
fn eval(tab: &Tab, expression: &str) -> serde_json::Value {
    try_eval(tab, expression).unwrap_or_else(|error| panic!("the expression runs: {error}"))
}

/// Like [`eval`], with the browser's refusal as an error: a page that is navigating (after
/// `location.reload()`) cannot evaluate anything until it has loaded.
fn try_eval(tab: &Tab, expression: &str) -> Result<serde_json::Value, String> {
    let wrapped = format!(
        "Promise.resolve({expression}).then(value => JSON.stringify(value === undefined ? null : value))"
    );
    let json = tab
        .evaluate(&wrapped, true)
        .map_err(|error| error.to_string())?
        .value
        .unwrap_or(serde_json::Value::Null);
    Ok(serde_json::from_str(json.as_str().unwrap_or("null")).expect("JSON from the page"))
}

/// Waits until a JavaScript condition holds in the page.
fn wait_until(tab: &Tab, condition: &str, what: &str) {
    let started = std::time::Instant::now();
    while started.elapsed() < PATIENCE {
        // A page that reloads meanwhile answers nothing until it has loaded: not yet.
        match try_eval(tab, &format!("Boolean({condition})")) {
            Ok(serde_json::Value::Bool(true)) => return,
            Ok(_) => {}
            Err(_) => {
                std::thread::sleep(Duration::from_millis(200));
                continue;
            }
        }
        let status = try_eval(
            tab,
            "(document.getElementById('status') || {}).textContent || ''",
        )
        .unwrap_or_default();
        if status == "failed" {
            let log = eval(tab, "document.body.innerText");
            panic!("the run failed while waiting for {what}; the page says:\n{log}");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let log = eval(tab, "document.body.innerText");
    panic!("waited {PATIENCE:?} for {what}; the page says:\n{log}");
}

/// Clicks the element `selector` finds, once it is there.
fn click(tab: &Tab, selector: &str) {
    tab.wait_for_element(selector)
        .unwrap_or_else(|error| panic!("{selector}: {error}"))
        .click()
        .unwrap_or_else(|error| panic!("clicking {selector}: {error}"));
}

/// What a browser test drives: the shared data, a server on a home of its own, and a tab of
/// headless Chromium; `None` (said loudly) when the data or Chromium is missing.
struct Session {
    tab: std::sync::Arc<Tab>,
    _browser: Browser,
    server: Server,
    home: tempfile::TempDir,
    data: PathBuf,
}

impl Session {
    fn start() -> Option<Session> {
        let data = testdata()?;
        if !chromium_available() {
            return None;
        }
        let home = tempfile::tempdir().expect("home");
        let server = Server::start(home.path(), &[]);
        let browser = browser();
        let tab = browser.new_tab().expect("tab");
        tab.set_default_timeout(PATIENCE);
        Some(Session {
            tab,
            _browser: browser,
            server,
            home,
            data,
        })
    }
}

/// Starts a review from the home page's form; the run page it lands on.
fn start_from_form(tab: &Tab, url: &str, question: &str, snapshots: &[&Path]) {
    let sources: Vec<String> = snapshots
        .iter()
        .map(|snapshot| format!("snapshot:{}", snapshot.display()))
        .collect();
    tab.navigate_to(&format!("{url}/"))
        .and_then(|tab| tab.wait_until_navigated())
        .expect("home page");
    click(tab, "#question");
    tab.type_str(question).expect("typing the question");
    eval(
        tab,
        &format!(
            "(() => {{ document.getElementById('sources').value = {}; document.getElementById('tier').value = 'quick'; return true; }})()",
            serde_json::Value::String(sources.join(","))
        ),
    );
    screenshot(tab, "1-new-review");
    click(tab, "#start");
    wait_until(
        tab,
        "location.pathname.startsWith('/runs/')",
        "the run page",
    );
}

#[test]
fn a_review_is_made_screened_and_read_in_the_browser() {
    let Some(session) = Session::start() else {
        return;
    };
    let (data, url, tab) = (
        session.data.clone(),
        &session.server.url,
        session.tab.clone(),
    );

    start_from_form(
        &tab,
        url,
        &question(&data, DATASET),
        &[&works_file(&data, DATASET)],
    );
    wait_until(
        &tab,
        "!document.getElementById('gate').hidden",
        "the gate in the live log",
    );
    assert!(
        eval(&tab, "document.getElementById('log').children.length")
            .as_u64()
            .unwrap_or_default()
            > 5,
        "the live log shows the steps"
    );
    screenshot(&tab, "2-run-at-the-gate");

    click(&tab, "#gate-link");
    wait_until(
        &tab,
        "document.querySelectorAll('#candidates tbody tr').length > 10",
        "the screening table",
    );
    // Two included works out, one excluded work in.
    let picked = eval(
        &tab,
        "(() => {
            const rows = [...document.querySelectorAll('#candidates tbody tr')];
            const included = rows.filter(row => row.classList.contains('include')).slice(0, 2);
            const excluded = rows.filter(row => row.classList.contains('exclude')).slice(0, 1);
            return { out: included.map(row => row.dataset.id), in: excluded.map(row => row.dataset.id) };
        })()",
    );
    let out: Vec<String> = serde_json::from_value(picked["out"].clone()).expect("ids");
    let into: Vec<String> = serde_json::from_value(picked["in"].clone()).expect("ids");
    assert_eq!((out.len(), into.len()), (2, 1), "{picked}");
    for id in &out {
        click(&tab, &format!("tr[data-id='{id}'] input[type=checkbox]"));
    }
    click(&tab, "#exclude");
    wait_until(
        &tab,
        &format!(
            "document.querySelector(\"tr[data-id='{}']\") && document.querySelector(\"tr[data-id='{}']\").classList.contains('exclude')",
            out[0], out[0]
        ),
        "the first work excluded",
    );
    click(
        &tab,
        &format!("tr[data-id='{}'] input[type=checkbox]", into[0]),
    );
    click(&tab, "#include");
    wait_until(
        &tab,
        &format!(
            "document.querySelector(\"tr[data-id='{}']\").classList.contains('include')",
            into[0]
        ),
        "the excluded work included",
    );
    // A click on a title opens its abstract.
    click(&tab, "#candidates tbody td.title");
    wait_until(
        &tab,
        "document.querySelector('#candidates tr.abstract')",
        "the abstract",
    );
    screenshot(&tab, "3-screening");
    click(&tab, "#approve");
    wait_until(
        &tab,
        "!document.getElementById('result').hidden",
        "the finished review",
    );
    screenshot(&tab, "4-run-done");

    // The review page: hover a citation and read its tooltip.
    let run = eval(&tab, "location.pathname.split('/')[2]");
    let run = run.as_str().expect("run id").to_owned();
    tab.navigate_to(&format!("{url}/api/runs/{run}/files/review.html"))
        .and_then(|tab| tab.wait_until_navigated())
        .expect("review page");
    // The page runs no script (its CSP sandboxes it), so the mouse is moved by the browser's
    // input events and the tooltip read from the DOM, neither through the page's JavaScript.
    let citation = tab.wait_for_element("a.cite").expect("a citation");
    let point = citation.get_midpoint().expect("the citation's position");
    tab.move_mouse_to_point(point).expect("hover a citation");
    let attributes = citation
        .get_attributes()
        .expect("the citation's attributes")
        .unwrap_or_default();
    let tooltip = attributes
        .chunks(2)
        .find(|pair| pair[0] == "title")
        .and_then(|pair| pair.get(1))
        .cloned()
        .unwrap_or_default();
    assert!(
        tooltip.contains('(') && tooltip.len() > 40,
        "the hovered citation's tooltip is its reference: {tooltip:?}"
    );
    screenshot(&tab, "5-review");

    // The download link of references.bib, fetched as the browser would, parsed by bibtexparser.
    tab.navigate_to(&format!("{url}/runs/{run}"))
        .and_then(|tab| tab.wait_until_navigated())
        .expect("run page");
    wait_until(
        &tab,
        "document.querySelector(\"#files a[download='references.bib']\")",
        "the download links",
    );
    // The figures: the PRISMA flow and the charts, each drawn.
    wait_until(
        &tab,
        "[...document.querySelectorAll('#figures img')].length === 6 && [...document.querySelectorAll('#figures img')].every(img => img.complete && img.naturalWidth > 0)",
        "the figures",
    );
    eval(
        &tab,
        "(() => { document.getElementById('figures').scrollIntoView(); return true; })()",
    );
    screenshot(&tab, "5b-figures");
    let bib = eval(
        &tab,
        "fetch(document.querySelector(\"#files a[download='references.bib']\").href).then(r => r.text())",
    );
    let bib = bib.as_str().expect("the file's text").to_owned();
    assert!(bib.contains("@article"), "{bib}");
    if python_readers_available() {
        let entries = bibtex_entries(&bib);
        assert!(entries > 10, "{entries} BibTeX entries");
    }
}

/// Entries bibtexparser reads from a BibTeX text (failed blocks fail the test).
fn bibtex_entries(bib: &str) -> usize {
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(bib.as_bytes()).expect("written");
    let output = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, bibtexparser; library = bibtexparser.parse_file(sys.argv[1]); \
             assert not library.failed_blocks, library.failed_blocks; print(len(library.entries))",
        ])
        .arg(file.path())
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("a count")
}

/// The dataset's records with markup in every title.
fn hostile_snapshot(data: &Path, folder: &Path) -> PathBuf {
    let text = {
        let file = std::fs::File::open(works_file(data, DATASET)).expect("works file");
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::MultiGzDecoder::new(file), &mut text)
            .expect("gzip");
        text
    };
    let path = folder.join("hostile.jsonl");
    let mut out = std::fs::File::create(&path).expect("snapshot");
    for line in text.lines() {
        let Ok(mut record) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let title = record["title"].as_str().unwrap_or_default().to_owned();
        let hostile = format!(
            "<img src=x onerror=\"window.__pwned=1\">{title}<script>window.__pwned=2</script>"
        );
        record["title"] = serde_json::Value::String(hostile.clone());
        record["display_name"] = serde_json::Value::String(hostile);
        writeln!(out, "{record}").expect("line");
    }
    path
}

#[test]
fn markup_in_titles_and_the_question_shows_as_text_and_runs_nothing() {
    let Some(session) = Session::start() else {
        return;
    };
    let (data, server, tab) = (session.data.clone(), &session.server, session.tab.clone());
    let snapshot = hostile_snapshot(&data, session.home.path());
    let question = format!(
        "{} <img src=x onerror=\"window.__pwned=3\">",
        question(&data, DATASET)
    );
    start_from_form(&tab, &server.url, &question, &[&snapshot]);
    wait_until(
        &tab,
        "document.getElementById('run-title').textContent.includes('<img')",
        "the question shown as text",
    );
    wait_until(&tab, "!document.getElementById('gate').hidden", "the gate");
    click(&tab, "#gate-link");
    wait_until(
        &tab,
        "document.querySelectorAll('#candidates tbody tr').length > 10",
        "the screening table",
    );
    click(&tab, "#candidates tbody td.title");
    screenshot(&tab, "6-hostile-screening");
    let shown = eval(
        &tab,
        "document.querySelector('#candidates tbody td.title').textContent",
    );
    let shown = shown.as_str().unwrap_or_default().to_owned();
    assert!(
        shown.starts_with("<img src=x onerror=") && shown.contains("<script>"),
        "the title shows its characters: {shown:?}"
    );
    assert_eq!(
        eval(
            &tab,
            "document.querySelectorAll('main img, main script').length"
        ),
        serde_json::json!(0),
        "no element was made from a title"
    );
    assert_eq!(
        eval(&tab, "typeof window.__pwned"),
        serde_json::json!("undefined"),
        "nothing ran"
    );
}

/// A question whose probe spreads over two disciplines: the run page asks, with the default
/// chosen; answering with the narrower option sends the run on to search and to the gate.
#[test]
fn the_run_page_asks_what_the_question_leaves_open() {
    let Some(session) = Session::start() else {
        return;
    };
    let (data, server, tab) = (session.data.clone(), &session.server, session.tab.clone());
    let pools = [
        works_file(&data, "Sep_2021"),
        works_file(&data, "van_der_Valk_2021"),
    ];
    start_from_form(
        &tab,
        &server.url,
        "Hair cortisol and the rodent object-in-context task",
        &[&pools[0], &pools[1]],
    );
    wait_until(
        &tab,
        "!document.getElementById('clarify').hidden",
        "the clarifying question",
    );
    let shown = eval(
        &tab,
        "(() => [...document.querySelectorAll('#clarify input[type=radio]')].map(input => [input.value, input.checked]))()",
    );
    assert_eq!(shown[0], serde_json::json!(["both", true]), "{shown}");
    assert_eq!(shown[1][1], false, "{shown}");
    assert_eq!(
        eval(&tab, "document.getElementById('status').textContent"),
        "needs_clarification"
    );
    screenshot(&tab, "7-clarify");
    click(&tab, "#clarify input[type=radio]:not(:checked)");
    click(&tab, "#clarify-send");
    wait_until(&tab, "!document.getElementById('gate').hidden", "the gate");
    assert!(
        eval(&tab, "document.getElementById('clarify').hidden")
            .as_bool()
            .unwrap_or_default(),
        "the question is gone once answered"
    );
    // The plan shows the answer as stated.
    let disciplines = eval(
        &tab,
        "(() => [...document.querySelectorAll('#brief tr[data-part=disciplines] td')].map(cell => cell.textContent))()",
    );
    assert_eq!(
        disciplines,
        serde_json::json!(["Disciplines", "Psychology", "stated"]),
        "{disciplines}"
    );
    assert!(
        !eval(&tab, "document.getElementById('plan-box').hidden")
            .as_bool()
            .unwrap_or(true)
    );
    let estimate = eval(&tab, "document.getElementById('estimate').textContent");
    assert_eq!(
        estimate,
        serde_json::json!("Expected: no request (local snapshots only)"),
        "the plan says what it costs"
    );
    // The synthesis: the review's parts in order, over every work of a question kept whole.
    let parts = eval(
        &tab,
        "(() => [...document.querySelectorAll('#synthesis li')].map(item => item.dataset.part))()",
    );
    assert_eq!(
        parts,
        serde_json::json!(["foundations", "methods", "findings", "gaps"]),
        "{parts}"
    );
    eval(&tab, "document.getElementById('plan-box').open = true");
    screenshot(&tab, "8-plan");
}

/// The home page's library field: a BibTeX file chosen there makes its works the run's seeds,
/// as the plan the API shows for the run says.
#[test]
fn a_library_chosen_in_the_form_gives_the_seeds() {
    let Some(session) = Session::start() else {
        return;
    };
    let (data, url, tab) = (
        session.data.clone(),
        &session.server.url,
        session.tab.clone(),
    );
    tab.navigate_to(&format!("{url}/"))
        .and_then(|tab| tab.wait_until_navigated())
        .expect("home page");
    let library = "@article{haven1, title = {Emicizumab Prophylaxis in Hemophilia A with Inhibitors}, doi = {10.1056/NEJMoa1703068}}\n";
    let source = format!("snapshot:{}", works_file(&data, DATASET).display());
    eval(
        &tab,
        &format!(
            "(() => {{ document.getElementById('question').value = {}; document.getElementById('sources').value = {}; \
             const files = new DataTransfer(); files.items.add(new File([{}], 'mine.bib')); \
             document.getElementById('seeds-library').files = files.files; return true; }})()",
            serde_json::Value::String(question(&data, DATASET)),
            serde_json::Value::String(source),
            serde_json::Value::String(library.to_owned()),
        ),
    );
    click(&tab, "#start");
    wait_until(
        &tab,
        "location.pathname.startsWith('/runs/')",
        "the run page",
    );
    let run = eval(&tab, "decodeURIComponent(location.pathname.split('/')[2])");
    let run = run.as_str().expect("the run's id");
    let started = std::time::Instant::now();
    let seeds = loop {
        let shown: serde_json::Value = crate::serve::client()
            .get(format!("{url}/api/runs/{run}"))
            .send()
            .and_then(reqwest::blocking::Response::json)
            .expect("GET the run");
        if !shown["plan"].is_null() || started.elapsed() > PATIENCE {
            break shown["plan"]["seeds"].clone();
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    assert_eq!(seeds, serde_json::json!(["10.1056/nejmoa1703068"]));
}
