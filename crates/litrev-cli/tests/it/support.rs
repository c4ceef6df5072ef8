//! Shared helpers: where the data is, how to run the binary, how to read its outputs.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use litrev_testkit::llm::{ChatCall, ScriptedLlm};

/// The datasets of `shared/data/synergy/works`.
pub const DATASETS: [&str; 7] = [
    "Chou_2004",
    "Donners_2021",
    "Jeyaraman_2020",
    "Menon_2022",
    "Nelson_2002",
    "Sep_2021",
    "van_der_Valk_2021",
];

pub use litrev_testkit::testdata;

/// Whether pandoc is on the PATH; under CI its absence is a failure (the test script installs it).
pub fn pandoc_available() -> bool {
    litrev_testkit::tool_available("pandoc")
}

/// Whether headless Chromium is on the PATH; under CI its absence is a failure.
pub fn chromium_available() -> bool {
    litrev_testkit::tool_available("chromium")
}

/// Whether python3 can import rispy, bibtexparser, networkx and python-docx (`docx`); under CI
/// their absence is a failure.
pub fn python_readers_available() -> bool {
    litrev_testkit::python_modules_available(&["rispy", "bibtexparser", "networkx", "docx"])
}

/// The review question of a dataset: the title of the review paper.
pub fn question(data: &Path, dataset: &str) -> String {
    let text = std::fs::read_to_string(data.join(format!("synergy/review_papers/{dataset}.json")))
        .expect("review paper record");
    let record: serde_json::Value = serde_json::from_str(&text).expect("review paper JSON");
    record["title"].as_str().expect("title").to_owned()
}

/// The OpenAlex ids (as URLs) of a dataset's included studies, from its SYNERGY labels.
pub fn included_studies(data: &Path, dataset: &str) -> Vec<String> {
    let labels =
        std::fs::File::open(data.join(format!("synergy/labels/{dataset}.csv.gz"))).expect("labels");
    let mut reader = csv::Reader::from_reader(flate2::read::GzDecoder::new(labels));
    reader
        .records()
        .map(|row| row.expect("row"))
        .filter(|row| row.get(3) == Some("1"))
        .map(|row| row.get(0).expect("id").to_owned())
        .collect()
}

/// The snapshot file of a dataset.
pub fn works_file(data: &Path, dataset: &str) -> PathBuf {
    data.join(format!("synergy/works/{dataset}.jsonl.gz"))
}

/// The `--source` argument of a dataset's snapshot (`snapshot:PATH`).
pub fn snapshot_source(data: &Path, dataset: &str) -> String {
    format!("snapshot:{}", works_file(data, dataset).display())
}

/// Runs `litrev` with `LITREV_HOME` set to `home` and extra environment variables.
pub fn litrev(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_litrev"));
    command
        .args(args)
        .env("LITREV_HOME", home)
        .env_remove("LITREV_FAIL_AFTER")
        .env_remove("LITREV_PANIC_IN")
        .env_remove("RUST_BACKTRACE");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the litrev binary runs")
}

/// Runs a review of a dataset's snapshot into `out`, with the review paper's title as question.
pub fn review(home: &Path, data: &Path, dataset: &str, out: &Path, extra: &[&str]) -> Output {
    let question = question(data, dataset);
    review_of(home, &question, &works_file(data, dataset), out, extra, &[])
}

/// Runs `litrev review QUESTION --source snapshot:SNAPSHOT --out OUT EXTRA…` with `env` set.
pub fn review_of(
    home: &Path,
    question: &str,
    snapshot: &Path,
    out: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Output {
    let source = format!("snapshot:{}", snapshot.display());
    let out_text = out.display().to_string();
    let mut args = vec!["review", question, "--source", &source, "--out", &out_text];
    args.extend_from_slice(extra);
    litrev(home, &args, env)
}

/// The arguments that point a run or a benchmark at `llm` (OpenAI's API, model `scripted`).
pub fn scripted_llm_args(llm: &ScriptedLlm) -> Vec<String> {
    [
        "--llm",
        "openai",
        "--llm-url",
        &llm.openai_url(),
        "--llm-model",
        "scripted",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// Whether `call` is one of the plan step's: the brief (`plan_brief`) or the query variants
/// (`plan_queries`).
pub fn is_planning(call: &ChatCall) -> bool {
    call.system.contains("You plan the searches") || is_briefing(call)
}

/// Whether `call` asks for the research brief (the `plan_brief` prompt).
pub fn is_briefing(call: &ChatCall) -> bool {
    call.system.contains("You settle the scope")
}

/// Whether `call` asks about a work snowballing left in doubt (the `snowball_relevance`
/// prompt).
pub fn is_snowballing(call: &ChatCall) -> bool {
    call.system.contains("gather the literature")
}

/// The id of the newest run in `home`.
pub fn newest_run(home: &Path) -> String {
    newest_run_in(home, &[])
}

/// The id of the newest run in the store `env` names (`LITREV_DB`), else in `home`'s.
pub fn newest_run_in(home: &Path, env: &[(&str, &str)]) -> String {
    let listed = litrev(home, &["runs", "--json"], env);
    assert!(listed.status.success(), "{}", describe(&listed));
    let runs: serde_json::Value = serde_json::from_slice(&listed.stdout).expect("runs JSON");
    runs[0]["id"].as_str().expect("run id").to_owned()
}

/// The rows of a CSV output, each as column name → value.
pub fn table(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).expect("CSV output");
    let headers = reader.headers().expect("headers").clone();
    reader
        .records()
        .map(|record| {
            let record = record.expect("row");
            headers
                .iter()
                .zip(record.iter())
                .map(|(name, value)| (name.to_owned(), value.to_owned()))
                .collect()
        })
        .collect()
}

/// Text of stdout and stderr, for assertion messages.
pub fn describe(output: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The `@key`s a Markdown text cites.
pub fn cited_keys(markdown: &str) -> Vec<String> {
    let bytes = markdown.as_bytes();
    let mut keys = Vec::new();
    for (index, &byte) in bytes.iter().enumerate() {
        let escaped =
            index > 0 && (bytes[index - 1] == b'\\' || bytes[index - 1].is_ascii_alphanumeric());
        if byte != b'@' || escaped {
            continue;
        }
        let key: String = markdown[index + 1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !key.is_empty() {
            keys.push(key);
        }
    }
    keys
}

/// Markdown split into (heading, body) by level-one headings.
pub fn sections(markdown: &str) -> Vec<(String, String)> {
    let mut sections: Vec<(String, String)> = Vec::new();
    for line in markdown.lines() {
        if let Some(heading) = line.strip_prefix("# ") {
            sections.push((heading.replace('\\', ""), String::new()));
        } else if let Some((_, body)) = sections.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    sections
}

/// Every file under a folder (sub-folders included) with its bytes, by relative path.
pub fn files_of(folder: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    collect_files(folder, folder, &mut files);
    files
}

fn collect_files(root: &Path, folder: &Path, files: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(folder)
        .expect("output folder")
        .filter_map(Result::ok)
    {
        let path = entry.path();
        if path.is_dir() {
            collect_files(root, &path, files);
        } else {
            let name = path
                .strip_prefix(root)
                .expect("under the root")
                .to_string_lossy()
                .into_owned();
            files.insert(name, std::fs::read(&path).expect("output file"));
        }
    }
}

/// A `litrev serve` on a free loopback port, stopped when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Server {
    /// Starts `litrev serve` with `LITREV_HOME` at `home` and `extra` arguments.
    pub fn start(home: &Path, extra: &[&str]) -> Server {
        Server::start_with(home, extra, &[])
    }

    /// Starts `litrev serve` as [`Server::start`] does, with `env` set.
    pub fn start_with(home: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_litrev"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(extra)
            .envs(env.iter().copied())
            .env("LITREV_HOME", home)
            .env_remove("LITREV_TOKEN")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("litrev serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server says where it listens");
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .expect("a URL in the first line")
            .trim_end_matches('/')
            .to_owned();
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
