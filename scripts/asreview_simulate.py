#!/usr/bin/env python3
"""ASReview's WSS@95 on labelled screening sets, from the same prior records as litrev's benchmark.

Why: litrev's screening benchmark compares its own WSS@95 with ASReview's default model (ELAS u4:
TF-IDF on title and abstract, a linear SVM with balanced sample weights, "max" querying). Numbers
copied from elsewhere cannot be trusted to use the same records, priors or machine, so this script
runs `asreview simulate` itself, from exactly the prior records it is given, and times each run.

Run it with the Python of a virtual environment that has ASReview installed; the wrapper
`scripts/asreview-simulate.sh DIR [DIR...]` makes that environment and calls this script.

Input: each DIR holds, per dataset NAME,
  NAME.csv     columns record_id,title,abstract,label_included (more columns are ignored);
               record_id is the 0-based row index, label_included is 1 or 0.
  NAME.priors  one line per simulation, `SEED INCLUDED_ROW EXCLUDED_ROW` (0-based rows of
               NAME.csv; INCLUDED_ROW labelled 1, EXCLUDED_ROW labelled 0). Blank lines and lines
               starting with # are skipped.
A dataset is a NAME.priors file; a NAME.csv without one is skipped with a warning.

Each (dataset, priors line) runs, in a temporary directory,
  <venv>/bin/asreview simulate NAME.csv --prior-idx INCLUDED_ROW EXCLUDED_ROW --seed SEED -o P.asreview
(the default --ai, elas_u4; without --n-stop ASReview stops once every relevant record is found,
which is all WSS@95 needs). The labelling order is the `results` table of the project's
results.db, in insertion order (the two priors first, then one record per query), each record_id
mapped to its CSV row through the `record` table's dataset_row. Rows never screened are appended
in CSV order ("read last").

  relevant    = number of rows labelled 1
  target      = ceil(0.95 * relevant)
  screened_95 = 1-based position in the order where the target-th relevant row is found
  WSS@95      = (N - screened_95) / N - 0.05, N = all rows

Output, on stdout: `NAME SEED WSS95 SECONDS` per simulation and `NAME mean WSS95 MEANSECONDS` per
dataset, SECONDS being the wall time of the whole `asreview simulate` process (start-up, import of
the CSV, TF-IDF, the active-learning loop, writing the project). DIR/asreview.tsv gets the columns
dataset, seed, wss_95, seconds, one row per simulation. The command of each run and its details
(N, relevant, screened_95) go to stderr.
"""

import argparse
import csv
import importlib.metadata
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REQUIRED_COLUMNS = ("record_id", "title", "abstract", "label_included")


class InputError(Exception):
    """A dataset or priors file that cannot be used; the message says which and why."""


def read_dataset(csv_path):
    """The labels (list of 0/1, by row) of NAME.csv, after checking its columns and record ids."""
    try:
        handle = open(csv_path, encoding="utf-8", newline="")
    except OSError as error:
        raise InputError(f"{csv_path}: cannot open: {error.strerror}") from error
    csv.field_size_limit(sys.maxsize)
    with handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        missing = [column for column in REQUIRED_COLUMNS if column not in header]
        if missing:
            raise InputError(
                f"{csv_path}: missing column(s) {', '.join(missing)}; "
                f"expected {','.join(REQUIRED_COLUMNS)}, found {','.join(header) or 'no header'}"
            )
        labels = []
        for row_index, row in enumerate(reader):
            line = reader.line_num
            if row["record_id"] is None or row["label_included"] is None:
                raise InputError(f"{csv_path}:{line}: too few fields")
            if row["record_id"].strip() != str(row_index):
                raise InputError(
                    f"{csv_path}:{line}: record_id {row['record_id']!r}, expected the 0-based "
                    f"row index {row_index}"
                )
            label = row["label_included"].strip()
            if label not in ("0", "1"):
                raise InputError(f"{csv_path}:{line}: label_included {label!r}, expected 1 or 0")
            labels.append(int(label))
    if not labels:
        raise InputError(f"{csv_path}: no records")
    if 1 not in labels or 0 not in labels:
        raise InputError(f"{csv_path}: needs at least one record labelled 1 and one labelled 0")
    return labels


def read_priors(priors_path, labels):
    """The (seed, included_row, excluded_row) lines of NAME.priors, checked against the labels."""
    try:
        text = priors_path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"{priors_path}: cannot read: {error.strerror}") from error
    priors = []
    seen_seeds = set()
    for line_number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{priors_path}:{line_number}"
        fields = line.split()
        try:
            if len(fields) != 3:
                raise ValueError
            seed, included, excluded = (int(field) for field in fields)
        except ValueError:
            raise InputError(
                f"{where}: {line!r}, expected three integers SEED INCLUDED_ROW EXCLUDED_ROW"
            ) from None
        if seed in seen_seeds:
            raise InputError(f"{where}: seed {seed} appears twice")
        for row, want, what in ((included, 1, "INCLUDED_ROW"), (excluded, 0, "EXCLUDED_ROW")):
            if not 0 <= row < len(labels):
                raise InputError(f"{where}: {what} {row} is not a row (0..{len(labels) - 1})")
            if labels[row] != want:
                raise InputError(f"{where}: {what} {row} is labelled {labels[row]}, not {want}")
        if seed < 0:
            raise InputError(f"{where}: seed {seed} is negative")
        seen_seeds.add(seed)
        priors.append((seed, included, excluded))
    if not priors:
        raise InputError(f"{priors_path}: no priors lines")
    return priors


def find_datasets(directory):
    """(name, csv_path, priors_path) for every NAME.priors in the directory, sorted by name."""
    if not directory.is_dir():
        raise InputError(f"{directory}: not a directory")
    datasets = []
    for priors_path in sorted(directory.glob("*.priors")):
        name = priors_path.name[: -len(".priors")]
        csv_path = directory / f"{name}.csv"
        if not csv_path.is_file():
            raise InputError(f"{priors_path}: no {csv_path.name} beside it")
        datasets.append((name, csv_path, priors_path))
    named = {name for name, _, _ in datasets}
    for csv_path in sorted(directory.glob("*.csv")):
        if csv_path.stem not in named:
            print(f"warning: {csv_path}: no {csv_path.stem}.priors, skipped", file=sys.stderr)
    if not datasets:
        raise InputError(f"{directory}: no NAME.priors with a NAME.csv beside it")
    return datasets


def asreview_command():
    """How to start ASReview: the `asreview` script beside this Python, else `python -m asreview`."""
    script = Path(sys.executable).with_name("asreview")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "asreview"]


def screening_order(project_path, records):
    """CSV rows in the order the simulation labelled them, from the results.db in the project."""
    with tempfile.TemporaryDirectory(prefix="asreview-results-") as scratch:
        with zipfile.ZipFile(project_path) as archive:
            names = [name for name in archive.namelist() if name.rsplit("/", 1)[-1] == "results.db"]
            if len(names) != 1:
                raise RuntimeError(f"{project_path}: expected one results.db, found {names}")
            database = archive.extract(names[0], scratch)
        connection = sqlite3.connect(database)
        try:
            row_of = dict(connection.execute("SELECT record_id, dataset_row FROM record"))
            included = dict(connection.execute("SELECT dataset_row, included FROM record"))
            labelled = connection.execute(
                "SELECT record_id, label FROM results ORDER BY rowid"
            ).fetchall()
        finally:
            connection.close()
    if len(row_of) != records:
        raise RuntimeError(f"ASReview imported {len(row_of)} records, the CSV has {records}")
    order = []
    for record_id, label in labelled:
        row = row_of[record_id]
        if label != included[row]:
            raise RuntimeError(f"record {record_id}: labelled {label}, its label is {included[row]}")
        order.append(row)
    return order, included


def wss_95(order, labels):
    """WSS@95 of a screening order (CSV rows), with the rows never screened read last."""
    records = len(labels)
    screened = set(order)
    if len(screened) != len(order):
        raise RuntimeError("a record was labelled twice")
    full_order = list(order) + [row for row in range(records) if row not in screened]
    relevant = sum(labels)
    target = math.ceil(0.95 * relevant)
    found = 0
    screened_95 = records
    for position, row in enumerate(full_order, start=1):
        found += labels[row]
        if found == target:
            screened_95 = position
            break
    return (records - screened_95) / records - 0.05, screened_95, relevant


def simulate(name, csv_path, labels, seed, included, excluded, n_stop, scratch, keep):
    """Run one `asreview simulate`; returns (wss_95, seconds)."""
    project = scratch / f"{name}-seed{seed}.asreview"
    log_path = scratch / f"{name}-seed{seed}.log"
    command = asreview_command() + [
        "simulate",
        str(csv_path),
        "--prior-idx",
        str(included),
        str(excluded),
        "--seed",
        str(seed),
        "-o",
        str(project),
    ]
    if n_stop is not None:
        command += ["--n-stop", str(n_stop)]
    print("+ " + " ".join(command), file=sys.stderr, flush=True)
    with open(log_path, "w", encoding="utf-8") as log:
        start = time.perf_counter()
        status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, cwd=scratch).returncode
        seconds = time.perf_counter() - start
    if status != 0 or not project.is_file():
        tail = log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-20:]
        raise RuntimeError(
            f"{name} seed {seed}: asreview simulate exited with {status}"
            + ("" if project.is_file() else " and wrote no project")
            + ":\n"
            + "\n".join(tail)
        )
    order, included_by_row = screening_order(project, len(labels))
    mismatched = [row for row, label in enumerate(labels) if included_by_row.get(row) != label]
    if mismatched:
        raise RuntimeError(
            f"{name}: ASReview read other labels than the CSV's at rows {mismatched[:10]}"
        )
    if order[:2] != [included, excluded]:
        raise RuntimeError(f"{name} seed {seed}: the first records labelled are {order[:2]}, "
                           f"not the priors {[included, excluded]}")
    value, screened_95, relevant = wss_95(order, labels)
    print(
        f"  {name} seed {seed}: N {len(labels)}, relevant {relevant}, labelled {len(order)}, "
        f"screened_95 {screened_95}",
        file=sys.stderr,
        flush=True,
    )
    if not keep:
        project.unlink()
        log_path.unlink()
    return value, seconds


def check_directory(directory):
    """[(name, csv_path, labels, priors)] of a DIR, every file read and checked."""
    checked = []
    for name, csv_path, priors_path in find_datasets(directory):
        labels = read_dataset(csv_path)
        checked.append((name, csv_path.resolve(), labels, read_priors(priors_path, labels)))
    return checked


def run_directory(directory, checked, n_stop, keep):
    """Simulates every (dataset, priors line) of a checked DIR; prints and writes asreview.tsv."""
    rows = []
    scratch = Path(tempfile.mkdtemp(prefix="asreview-simulate-"))
    try:
        for name, csv_path, labels, priors in checked:
            values = []
            for seed, included, excluded in priors:
                value, seconds = simulate(
                    name, csv_path, labels, seed, included, excluded, n_stop, scratch, keep
                )
                print(f"{name} {seed} {value:.4f} {seconds:.2f}", flush=True)
                values.append((value, seconds))
                rows.append((name, seed, value, seconds))
            mean_wss = sum(value for value, _ in values) / len(values)
            mean_seconds = sum(seconds for _, seconds in values) / len(values)
            print(f"{name} mean {mean_wss:.4f} {mean_seconds:.2f}", flush=True)
    finally:
        if keep:
            print(f"kept the temporary files in {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    tsv_path = directory / "asreview.tsv"
    partial = directory / "asreview.tsv.partial"
    with open(partial, "w", encoding="utf-8", newline="") as handle:
        handle.write("dataset\tseed\twss_95\tseconds\n")
        for name, seed, value, seconds in rows:
            handle.write(f"{name}\t{seed}\t{value:.6f}\t{seconds:.3f}\n")
    partial.replace(tsv_path)
    print(f"wrote {tsv_path}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(
        description="WSS@95 of ASReview's default model (asreview simulate) from given priors.",
        epilog="Each DIR holds NAME.csv and NAME.priors per dataset; see the docstring.",
    )
    parser.add_argument("directories", metavar="DIR", nargs="+", type=Path)
    parser.add_argument(
        "--n-stop",
        type=int,
        help="passed to asreview simulate (-1: label every record); by default ASReview stops "
        "once every relevant record is found",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the project files and logs in the temp dir"
    )
    args = parser.parse_args()
    # The version from the package metadata: importing asreview here would leave its
    # synergy_cache.sqlite in the current directory.
    try:
        version = importlib.metadata.version("asreview")
        print(f"asreview {version}, python {sys.version.split()[0]}", file=sys.stderr)
    except importlib.metadata.PackageNotFoundError:
        print(f"warning: asreview is not installed for {sys.executable}", file=sys.stderr)
    try:
        # Check every input before the first (slow) simulation.
        checked = [(directory, check_directory(directory)) for directory in args.directories]
        for directory, datasets in checked:
            run_directory(directory, datasets, args.n_stop, args.keep)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
