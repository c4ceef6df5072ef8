// litrev's web UI: fills the pages from the API. Every value from a record goes in with
// textContent, never innerHTML, so a title like <img onerror=…> shows and runs nothing.
"use strict";

const CSRF = { "x-litrev-csrf": "1" };

function el(tag, text, attributes) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  return node;
}

async function api(path, options) {
  const init = Object.assign({ credentials: "same-origin" }, options || {});
  if (init.method && init.method !== "GET") {
    init.headers = Object.assign({ "content-type": "application/json" }, CSRF, init.headers || {});
  }
  const response = await fetch(path, init);
  if (response.status === 401) {
    document.getElementById("signin").hidden = false;
    throw new Error("sign in first");
  }
  const text = await response.text();
  const body = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error((body && body.error) || response.statusText);
  return body;
}

function runId() {
  const parts = location.pathname.split("/");
  return decodeURIComponent(parts[2] || "");
}

function setupSignIn() {
  const form = document.getElementById("signin-form");
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = document.getElementById("token").value;
    await fetch("/api/session", {
      method: "POST",
      credentials: "same-origin",
      headers: Object.assign({ "content-type": "application/json" }, CSRF),
      body: JSON.stringify({ token }),
    });
    location.reload();
  });
}

async function indexPage() {
  const form = document.getElementById("new-run");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = document.getElementById("form-error");
    error.textContent = "";
    const list = (id) => document.getElementById(id).value.split(",").map((s) => s.trim()).filter(Boolean);
    const number = (id) => {
      const value = document.getElementById(id).value;
      return value ? Number(value) : null;
    };
    const body = {
      question: document.getElementById("question").value,
      sources: list("sources"),
      seeds: list("seeds"),
      tier: document.getElementById("tier").value,
      year_from: number("year-from"),
      year_to: number("year-to"),
      yes: document.getElementById("yes").checked,
      clarify: document.getElementById("clarify").checked,
    };
    const library = document.getElementById("seeds-library").files[0];
    if (library) body.seeds_library = await library.text();
    try {
      const created = await api("/api/runs", { method: "POST", body: JSON.stringify(body) });
      location.href = "/runs/" + encodeURIComponent(created.id);
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  const runs = await api("/api/runs");
  const body = document.querySelector("#runs tbody");
  for (const run of runs) {
    const row = el("tr");
    const link = el("a", run.id, { href: "/runs/" + encodeURIComponent(run.id) });
    const cell = el("td");
    cell.append(link);
    row.append(cell, el("td", run.status), el("td", run.step || "-"), el("td", run.question));
    body.append(row);
  }
}

const FILES = ["review.html", "review.md", "review.docx", "references.bib", "references.json",
  "references.ris", "evidence.json", "themes.json", "prisma.svg", "graph.graphml",
  "corpus.csv", "screening.csv", "screening.ris", "run.json"];

async function runPage() {
  const id = runId();
  const run = await api("/api/runs/" + encodeURIComponent(id));
  document.getElementById("run-title").textContent = run.question;
  document.title = "litrev: " + run.question;
  const status = document.getElementById("status");
  status.textContent = run.status;
  if (run.queue_position) document.getElementById("position").textContent = "(place " + run.queue_position + " in line)";
  document.getElementById("gate-link").setAttribute("href", "/runs/" + encodeURIComponent(id) + "/screening");
  const log = document.getElementById("log");
  const steps = document.getElementById("steps");
  const stepItems = new Map();
  const source = new EventSource("/api/runs/" + encodeURIComponent(id) + "/events");
  const line = (text, kind) => {
    const item = el("li", text, { class: kind });
    log.append(item);
  };
  source.addEventListener("step", (event) => {
    const data = JSON.parse(event.data);
    status.textContent = "running";
    document.getElementById("position").textContent = "";
    let item = stepItems.get(data.step);
    if (!item) {
      item = el("li");
      stepItems.set(data.step, item);
      steps.append(item);
    } else if (data.state === "skipped") {
      // A resumed run skips the steps it had finished: keep what they said.
      line(data.step + " skipped", "step");
      return;
    }
    if (data.step === "plan" && data.state === "finished") {
      api("/api/runs/" + encodeURIComponent(id)).then((now) => showPlan(now.plan)).catch(() => {});
    }
    item.textContent = data.step + ": " + (data.summary || data.detail || data.state);
    item.className = data.state;
    line(data.step + " " + data.state + (data.summary ? ": " + data.summary : data.detail ? ": " + data.detail : ""), "step");
  });
  source.addEventListener("progress", (event) => {
    const data = JSON.parse(event.data);
    const item = stepItems.get(data.step);
    if (item) item.dataset.progress = data.total ? data.done + "/" + data.total : String(data.done);
  });
  source.addEventListener("notice", (event) => line(JSON.parse(event.data).message, "notice"));
  source.addEventListener("gate", (event) => {
    const data = JSON.parse(event.data);
    status.textContent = "waiting";
    if (data.gate === "downloads") {
      document.getElementById("download-gate").hidden = false;
      const hosts = data.unknown_hosts.length ? " (hosts that are not known publishers or repositories: " + data.unknown_hosts.join(", ") + ")" : "";
      line("the full-text step would download the open-access copies of " + data.planned_downloads + " works" + hosts + "; waiting for approval", "gate");
    } else {
      document.getElementById("gate").hidden = false;
      line("screening included " + data.included + " of " + data.considered + " works; waiting for approval", "gate");
    }
  });
  source.addEventListener("clarify", async (event) => {
    const data = JSON.parse(event.data);
    line("the question leaves " + data.clarifications.length + " thing(s) open; waiting for answers", "gate");
    // The stream replays a run's events: ask only while the run still waits for answers. The
    // event comes before the worker lets the run go, so a run still shown running is asked
    // about again shortly.
    let now = await api("/api/runs/" + encodeURIComponent(id));
    for (let tries = 0; now.status === "running" && tries < 20; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      now = await api("/api/runs/" + encodeURIComponent(id));
    }
    if (now.status !== "needs_clarification") return;
    status.textContent = now.status;
    showClarifications(id, now.clarifications);
  });
  source.addEventListener("failed", (event) => {
    status.textContent = "failed";
    line(JSON.parse(event.data).message, "failed");
    source.close();
  });
  source.addEventListener("done", (event) => {
    const data = JSON.parse(event.data);
    status.textContent = "done";
    document.getElementById("gate").hidden = true;
    showResult(id, data);
    source.close();
  });
  if (run.status === "waiting") {
    document.getElementById(run.gate === "downloads" ? "download-gate" : "gate").hidden = false;
  }
  showPlan(run.plan);
  document.getElementById("downloads-link").setAttribute("href", "/api/runs/" + encodeURIComponent(id) + "/files/downloads.csv");
  document.getElementById("approve-downloads").onclick = async () => {
    try {
      await api("/api/runs/" + encodeURIComponent(id) + "/approve", { method: "POST", body: "{}" });
      location.reload();
    } catch (failure) {
      document.getElementById("download-error").textContent = failure.message;
    }
  };
  if (run.parent) {
    document.getElementById("parent").hidden = false;
    const link = document.getElementById("parent-link");
    link.textContent = run.parent;
    link.setAttribute("href", "/runs/" + encodeURIComponent(run.parent));
  }
  if (run.status === "failed" || run.status === "stopped") {
    document.getElementById("resume-box").hidden = false;
    document.getElementById("resume").onclick = async () => {
      try {
        await api("/api/runs/" + encodeURIComponent(id) + "/resume", { method: "POST" });
        location.reload();
      } catch (failure) {
        document.getElementById("resume-error").textContent = failure.message;
      }
    };
  }
  document.getElementById("follow-question").value = run.question;
  document.getElementById("follow-up-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const seeds = document.getElementById("follow-seeds").value.split(",").map((s) => s.trim()).filter(Boolean);
    try {
      const created = await api("/api/runs/" + encodeURIComponent(id) + "/continue", {
        method: "POST",
        body: JSON.stringify({ question: document.getElementById("follow-question").value, seeds }),
      });
      location.href = "/runs/" + encodeURIComponent(created.id);
    } catch (failure) {
      document.getElementById("follow-error").textContent = failure.message;
    }
  });
}

// The plan a run follows: the brief, each part with its basis, and the searches.
const BRIEF = [["disciplines", "Disciplines"], ["time_window", "Years"], ["methods", "Methods"],
  ["population", "Population"], ["source_hierarchy", "Sources, most trusted first"],
  ["output_language", "Language"], ["mode", "Mode"]];

function showPlan(plan) {
  if (!plan) return;
  const body = document.querySelector("#brief tbody");
  body.replaceChildren();
  for (const [name, label] of BRIEF) {
    const part = plan.brief[name];
    if (!part) continue;
    let value = part.value;
    if (name === "time_window") {
      const from = value.from ? String(value.from) : "any era";
      const to = value.to ? String(value.to) : "now";
      value = from + " to " + to + (value.recent_from ? " (recent: from " + value.recent_from + ")" : "");
    } else if (Array.isArray(value)) {
      value = value.length ? value.join("; ") : "any";
    }
    const row = el("tr", null, { "data-part": name });
    row.append(el("td", label), el("td", value), el("td", part.basis, { class: "basis " + part.basis }));
    body.append(row);
  }
  const queries = document.getElementById("queries");
  queries.replaceChildren();
  for (const query of plan.queries) {
    queries.append(el("li", query.label + ": " + query.text + " (" + query.purpose + ")"));
  }
  const synthesis = document.getElementById("synthesis");
  synthesis.replaceChildren();
  for (const part of plan.synthesis || []) {
    const domains = part.domains.length ? part.domains.join(", ") : "every work";
    synthesis.append(el("li", part.heading + " (" + domains + "): " + part.draws_on, { "data-part": part.part }));
  }
  const estimate = plan.estimate;
  if (estimate) {
    document.getElementById("estimate").textContent = estimate.sources.length
      ? "Expected: " + estimate.sources.map((source) => source.source + " " + source.requests).join(", ")
        + " requests (" + estimate.requests_low + " to " + estimate.requests_high + " in all), $"
        + estimate.cost_usd.toFixed(4) + ", about " + Math.round(estimate.api_seconds) + " s waiting on the APIs"
      : "Expected: no request (local snapshots only)";
  }
  document.getElementById("plan-box").hidden = false;
}

// The brief's questions as a form: one group of choices per question, its default chosen.
function showClarifications(id, clarifications) {
  const form = document.getElementById("clarify");
  const questions = document.getElementById("clarify-questions");
  questions.replaceChildren();
  clarifications.forEach((clarification, index) => {
    const group = el("fieldset", null, { class: "clarification", "data-about": clarification.about });
    group.append(el("legend", clarification.question));
    clarification.options.forEach((option, choice) => {
      const label = el("label", null, { class: "check" });
      const input = el("input", null, { type: "radio", name: "q" + index, value: option });
      input.checked = choice === 0;
      label.append(input, document.createTextNode(" " + option));
      group.append(label);
    });
    questions.append(group);
  });
  form.hidden = false;
  form.onsubmit = async (event) => {
    event.preventDefault();
    const answers = clarifications.map((_, index) => {
      const chosen = form.querySelector("input[name='q" + index + "']:checked");
      return chosen ? chosen.value : "";
    });
    try {
      await api("/api/runs/" + encodeURIComponent(id) + "/clarify", { method: "POST", body: JSON.stringify({ answers }) });
      location.reload();
    } catch (failure) {
      document.getElementById("clarify-error").textContent = failure.message;
    }
  };
}

const FIGURES = [["prisma.svg", "PRISMA flow"], ["charts/years.svg", "Included works per year"],
  ["charts/venues.svg", "Top venues"], ["charts/authors.svg", "Top authors"],
  ["charts/sources.svg", "How the works were found"],
  ["charts/citations.svg", "Citations among the included works"]];

function showResult(id, data) {
  document.getElementById("result").hidden = false;
  document.getElementById("summary").textContent =
    data.included + " works included of " + data.considered + ", " + data.themes + " themes, " +
    data.words + " words, " + data.citations + " citations.";
  const files = document.getElementById("files");
  files.textContent = "";
  for (const name of FILES) {
    const item = el("li");
    item.append(el("a", name, { href: "/api/runs/" + encodeURIComponent(id) + "/files/" + name, download: name }));
    files.append(item);
  }
  document.getElementById("review").setAttribute("src", "/api/runs/" + encodeURIComponent(id) + "/files/review.html");
  const figures = document.getElementById("figures");
  figures.textContent = "";
  for (const [name, caption] of FIGURES) {
    const figure = el("figure");
    figure.append(el("img", undefined, { src: "/api/runs/" + encodeURIComponent(id) + "/files/" + name, alt: caption }),
      el("figcaption", caption));
    figures.append(figure);
  }
  setupEdit(id);
}

// The edit box: loads the review's Markdown, PUTs it back, lists what the audit refused.
async function setupEdit(id) {
  const text = document.getElementById("edit-text");
  const status = document.getElementById("edit-status");
  const problems = document.getElementById("edit-problems");
  const path = "/api/runs/" + encodeURIComponent(id) + "/review";
  const current = await api(path);
  text.value = current.markdown;
  status.textContent = current.revisions ? current.revisions + " earlier version(s) kept" : "";
  document.getElementById("edit-save").onclick = async () => {
    problems.textContent = "";
    status.textContent = "checking…";
    const response = await fetch(path, {
      method: "PUT",
      credentials: "same-origin",
      headers: Object.assign({ "content-type": "text/markdown" }, CSRF),
      body: text.value,
    });
    const body = await response.json();
    if (response.ok) {
      status.textContent = "saved: " + body.words + " words, " + body.citations + " citations";
      const frame = document.getElementById("review");
      frame.setAttribute("src", frame.getAttribute("src").split("?")[0] + "?v=" + body.revision);
    } else {
      status.textContent = body.error;
      for (const problem of body.problems || []) {
        problems.append(el("li", "sentence " + problem.sentence + ": " + problem.problem + " — " + problem.text));
      }
    }
  };
}

async function screeningPage() {
  const id = runId();
  document.getElementById("back").setAttribute("href", "/runs/" + encodeURIComponent(id));
  const body = document.querySelector("#candidates tbody");
  const message = document.getElementById("message");
  let rows = [];
  let sortKey = "rank";
  let ascending = true;
  const selected = new Set();
  const render = () => {
    const query = document.getElementById("filter").value.toLowerCase();
    const show = document.getElementById("show").value;
    const shown = rows
      .filter((row) => !show || row.decision === show)
      .filter((row) => !query || [row.title, row.venue, row.rationale, row.reason]
        .some((field) => String(field || "").toLowerCase().includes(query)))
      .sort((a, b) => {
        const x = a[sortKey], y = b[sortKey];
        const order = x === y ? 0 : (x === null || x === undefined) ? 1 : (y === null || y === undefined) ? -1 : x < y ? -1 : 1;
        return ascending ? order : -order;
      });
    body.textContent = "";
    for (const row of shown) {
      const tr = el("tr", undefined, { "data-id": row.id, class: row.decision });
      const box = el("input", undefined, { type: "checkbox", "aria-label": "select " + row.id });
      box.checked = selected.has(row.id);
      box.addEventListener("change", () => (box.checked ? selected.add(row.id) : selected.delete(row.id)));
      const check = el("td");
      check.append(box);
      const title = el("td", row.title || "(no title)", { class: "title" });
      title.addEventListener("click", () => {
        const next = tr.nextElementSibling;
        if (next && next.classList.contains("abstract")) { next.remove(); return; }
        const detail = el("tr", undefined, { class: "abstract" });
        const cell = el("td", undefined, { colspan: "8" });
        cell.append(el("p", (row.authors || []).join(", ")), el("p", row.abstract || "(no abstract)"), el("p", row.rationale, { class: "rationale" }));
        detail.append(cell);
        tr.after(detail);
      });
      tr.append(check, el("td", row.rank), title, el("td", row.year), el("td", row.venue),
        el("td", Number(row.score).toFixed(3)), el("td", row.decision + (row.reviewer === "person" ? " (you)" : "")), el("td", row.reason));
      body.append(tr);
    }
    const included = rows.filter((row) => row.decision === "include").length;
    document.getElementById("counts").textContent = included + " included of " + rows.length;
  };
  const load = async () => {
    rows = await api("/api/runs/" + encodeURIComponent(id) + "/screening");
    render();
  };
  for (const header of document.querySelectorAll("#candidates th[data-key]")) {
    header.addEventListener("click", () => {
      const key = header.dataset.key;
      ascending = key === sortKey ? !ascending : true;
      sortKey = key;
      render();
    });
  }
  document.getElementById("filter").addEventListener("input", render);
  document.getElementById("show").addEventListener("change", render);
  const label = async (decision) => {
    const labels = [...selected].map((work) => ({ id: work, label: decision }));
    if (!labels.length) { message.textContent = "Select works first."; return; }
    try {
      await api("/api/runs/" + encodeURIComponent(id) + "/labels", { method: "POST", body: JSON.stringify(labels) });
      message.textContent = labels.length + " works marked " + decision + "d.";
      selected.clear();
      await load();
    } catch (failure) { message.textContent = failure.message; }
  };
  document.getElementById("include").addEventListener("click", () => label("include"));
  document.getElementById("exclude").addEventListener("click", () => label("exclude"));
  document.getElementById("approve").addEventListener("click", async () => {
    try {
      await api("/api/runs/" + encodeURIComponent(id) + "/approve", { method: "POST", body: "{}" });
      location.href = "/runs/" + encodeURIComponent(id);
    } catch (failure) { message.textContent = failure.message; }
  });
  await load();
}

document.addEventListener("DOMContentLoaded", () => {
  setupSignIn();
  const page = document.body.dataset.page;
  const pages = { index: indexPage, run: runPage, screening: screeningPage };
  const start = pages[page];
  if (start) start().catch((failure) => console.error(failure));
});
