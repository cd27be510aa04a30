"""What the notebooks share: running bin/benchlake and reading what it writes.

No statistics live here (nor in the notebooks): quantiles, tests and verdicts come from
`benchlake compare` / `benchlake trend` and their JSON reports. This module only runs commands,
reads `benchlake export` files into pandas with their types intact, and builds the small
warehouses the notebooks start from.
"""

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd


def _find_root(start: Path) -> Path:
    for folder in (start, *start.parents):
        if (folder / "bin" / "benchlake").is_file():
            return folder
    raise FileNotFoundError(
        f"no bin/benchlake in {start} or above it: open the notebooks from a benchlake checkout "
        "(jupyter notebook notebooks/)")


# Jupyter starts a notebook's kernel in the notebook's folder; the checkout is above it.
ROOT = _find_root(Path.cwd().resolve())
BIN = ROOT / "bin" / "benchlake"

# The TestPostgresqlPerf results of the 2016 "PostgreSQL: Linux vs Windows" study: beside the
# checkout in ../shared/data/testpgperf, or wherever BENCHLAKE_TESTPGPERF points (the
# study's Results/ folder split into linux/ and windows/).
STUDY = Path(os.environ.get("BENCHLAKE_TESTPGPERF", ROOT.parent / "shared" / "data" / "testpgperf"))


def work_dir(name: str) -> Path:
    """A new, empty folder for one notebook's warehouse, runs and reports: target/notebooks/NAME."""
    folder = ROOT / "target" / "notebooks" / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def benchlake(*args) -> str:
    """Runs `bin/benchlake ARGS`, shows what it printed, and returns its stdout.

    A failure raises CalledProcessError after showing the command's stderr (its one-line reason).
    """
    command = [str(BIN), *map(str, args)]
    print("$ benchlake " + " ".join(shlex.quote(str(a)) for a in args), flush=True)
    started = time.monotonic()
    try:
        result = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
    except subprocess.CalledProcessError as failed:
        sys.stdout.write(failed.stdout)
        sys.stderr.write(failed.stderr)
        raise
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    print(f"({time.monotonic() - started:.1f} s)", flush=True)
    return result.stdout


def batch(*commands) -> str:
    """Runs several benchlake commands (each a list of arguments) in one `bin/benchlake batch`.

    One JVM and one Spark session for all of them: Spark starts once, not once per command (seconds
    each). They run in order and stop at the first failure, which raises CalledProcessError as
    benchlake() does, after showing stderr ("batch: line N: exit code X" names the command).
    """
    lines = [" ".join(shlex.quote(str(a)) for a in args) for args in commands]
    for line in lines:
        print("$ benchlake " + line, flush=True)
    started = time.monotonic()
    try:
        result = subprocess.run([str(BIN), "batch", "-"], input="\n".join(lines) + "\n", check=True,
                                capture_output=True, text=True, cwd=ROOT)
    except subprocess.CalledProcessError as failed:
        sys.stdout.write(failed.stdout)
        sys.stderr.write(failed.stderr)
        raise
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    print(f"({time.monotonic() - started:.1f} s for {len(lines)} commands)", flush=True)
    return result.stdout


class Export:
    """One `benchlake export` of a table to a JSON Lines file: `command` for batch(), then read()."""

    def __init__(self, warehouse: Path, table: str, where: str = None, steps=(), columns=()):
        key = hashlib.sha256(repr((str(warehouse), where, tuple(steps), tuple(columns))).encode()).hexdigest()[:12]
        self.path = Path(warehouse).parent / "exports" / f"{table}-{key}.jsonl"
        self.columns = tuple(columns)
        self.command = ["export", "--warehouse", warehouse, "--table", table, "--format", "jsonl", "--out", self.path]
        if where:
            self.command += ["--where", where]
        for step in steps:
            self.command += ["--step", step]
        if columns:
            self.command += ["--columns", ",".join(columns)]

    def read(self) -> pd.DataFrame:
        """The exported rows (read_export), once the command has run."""
        return read_export(self.path, self.columns)


def export(warehouse: Path, table: str, where: str = None, steps=(), columns=()) -> pd.DataFrame:
    """One warehouse table (committed runs only) as a DataFrame, through its own `benchlake export`.

    Inside a batch of other commands, Export(...).command costs no JVM of its own.
    """
    exported = Export(warehouse, table, where, steps, columns)
    benchlake(*exported.command)
    return exported.read()


def read_export(path: Path, columns=()) -> pd.DataFrame:
    """Reads a `benchlake export --format jsonl` file with the types it carries.

    JSON keeps what CSV loses: text stays text ("16.10" is not a number), integers stay exact
    (nanoseconds as Int64, nullable), doubles are floats. Columns named *_ts or *_at become UTC
    timestamps; `labels` becomes one column per key, labels.KEY, as in the CSV export.
    """
    with open(path, encoding="utf-8") as file:
        records = [json.loads(line) for line in file]
    names = list(records[0]) if records else list(columns)
    frame = pd.DataFrame({name: _column(name, [r[name] for r in records]) for name in names})
    if "labels" in frame:
        labels = pd.DataFrame(list(frame.pop("labels")), index=frame.index)
        labels = labels.reindex(sorted(labels.columns), axis=1).add_prefix("labels.")
        frame = pd.concat([frame, labels], axis=1)
    return frame


def _column(name, values):
    present = [v for v in values if v is not None]
    if name.endswith(("_ts", "_at")):
        return pd.to_datetime(pd.Series(values, dtype="object"), utc=True)
    if present and all(isinstance(v, bool) for v in present):
        return pd.array(values, dtype="boolean" if len(present) < len(values) else "bool")
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pd.array(values, dtype="Int64")
    if present and all(isinstance(v, float) or v in ("NaN", "Infinity", "-Infinity") for v in present):
        return pd.array([None if v is None else float(v) for v in values], dtype="float64")
    # Lists and maps (source_files, labels) stay whole Python objects, one per row.
    column = np.empty(len(values), dtype=object)
    column[:] = values
    return column


def read_json(path: Path):
    """A benchlake report (report.json, trend.json) as plain Python data."""
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def study_available() -> bool:
    """Whether the 2016 study's result files are at STUDY (linux/ and windows/)."""
    return (STUDY / "linux").is_dir() and (STUDY / "windows").is_dir()


def study_ingests(warehouse: Path) -> list:
    """The two ingests of the study's three Linux and three Windows client applications (os=linux / os=windows)."""
    return [["ingest", "--warehouse", warehouse, "--label", "os=linux", STUDY / "linux"],
            ["ingest", "--warehouse", warehouse, "--label", "os=windows", STUDY / "windows"]]


def burst_loadgens(runs: Path) -> list:
    """Two select-update bursts by `benchlake loadgen` on an embedded PostgreSQL 17, labelled variant=a / variant=b.

    The study's task (a SELECT, then an UPDATE of the same random row, with a 50-250 ms pause between
    them holding the connection) at a small scale, submitted at once to a small pool: tasks queue for
    connections, the last ones wait seconds and a few give up (pool timeout). Same settings, different
    seeds: two repetitions of one experiment. The commands, for batch(); each starts its own server.
    """
    return [["loadgen", "--workload", "select-update", "--scale", "0.05", "--think-time", "50ms..250ms",
             "--tasks", "800", "--burst", "800", "--pool", "40", "--pool-timeout", "2500ms",
             "--random-seed", seed, "--label", f"variant={variant}", "--quiet",
             "--out", Path(runs) / f"variant-{variant}"] for variant, seed in (("a", 1), ("b", 2))]



STRAGGLER_SCRIPTS = {
    # The same query (a sum over 20-22 thousand rows, a few milliseconds); the candidate also sleeps
    # 200 ms in about 3 tasks out of 100: a steady service against one with stragglers.
    "steady": "\\set n random(20000, 22000)\nSELECT sum(g) FROM generate_series(1, :n) g;\n",
    "stragglers": "\\set n random(20000, 22000)\n\\set straggle random(1, 100)\n"
                  "SELECT sum(g) FROM generate_series(1, :n) g;\n"
                  "SELECT pg_sleep(CASE WHEN :straggle > 97 THEN 0.2 ELSE 0 END);\n",
}


def straggler_loadgens(runs: Path) -> list:
    """Two runs by `benchlake loadgen --script` on an embedded PostgreSQL 17, labelled variant=steady / variant=stragglers.

    Both run the same query, step `lookup`, 2 clients, 800 tasks; in the second about 3 % of the
    tasks also sleep 200 ms. Outliers by construction, so that an outlier policy has something to do.
    Writes the scripts and returns the commands, for batch().
    """
    commands = []
    for variant, seed in (("steady", 1), ("stragglers", 2)):
        folder = Path(runs) / f"variant-{variant}"
        script = Path(runs).parent / "scripts" / variant / "lookup.sql"
        script.parent.mkdir(parents=True, exist_ok=True)
        script.write_text(STRAGGLER_SCRIPTS[variant], encoding="utf-8")
        commands.append(["loadgen", "--script", script, "--clients", "2", "--tasks", "800", "--random-seed", seed,
                         "--label", f"variant={variant}", "--quiet", "--out", folder])
    return commands



def classic_warehouse(warehouse: Path) -> dict:
    """The warehouse of the comparison notebook, the 2016 Linux-vs-Windows burst: how to build it.

    With the study's files (STUDY): its three Linux and three Windows client applications. Without
    them (e.g. a CI machine without ../shared): the steady and straggling runs of straggler_loadgens.

    Returns which source it uses, the two groups' selectors and the commands that build it, for
    batch() (with the commands that read it, so that Spark starts once).
    """
    if study_available():
        return {"source": "study", "baseline": "os=linux", "candidate": "os=windows",
                "description": f"the TestPostgresqlPerf study's result files in {STUDY}",
                "commands": study_ingests(warehouse)}
    print(f"The study's files are not in {STUDY} (set BENCHLAKE_TESTPGPERF to their folder): "
          "generating a steady run and one with stragglers with benchlake loadgen instead.")
    runs = Path(warehouse).parent / "runs"
    return {"source": "generated", "baseline": "variant=steady", "candidate": "variant=stragglers",
            "description": "a steady run and one with 3 % stragglers, generated by benchlake loadgen (embedded PostgreSQL 17)",
            "commands": [*straggler_loadgens(runs), ["ingest", "--warehouse", warehouse, runs]]}


def replicate_loadgens(runs: Path, per_group: int = 10) -> list:
    """An A/A experiment: 2 x per_group interleaved runs of one workload, labelled variant=a / variant=b.

    Every run is its own `benchlake loadgen` on its own embedded PostgreSQL 17 start (independent
    replicates), sysbench-like point-select and update-index on a 1,000-row table, 1 client, 0.5 s per
    step: short, since bin/test runs this notebook (at 1 s on 10,000 rows, 20 runs cost some 30 s more),
    and enough, since a step's thousands of tasks pin its median while the runs differ by their server
    starts. The two groups are the same experiment, so the true ratio is 1 and every "faster" or "slower"
    would be a false alarm. The first 3 and 5 runs of each group also carry the labels first3=yes and first5=yes, so
    that one warehouse can be compared with 3, 5 and all runs per group. The commands, for batch():
    one JVM for all of them, each command still its own server start.
    """
    commands = []
    for i in range(1, per_group + 1):
        for variant in ("a", "b"):
            labels = ["--label", f"variant={variant}"]
            for first in (3, 5):
                if i <= first:
                    labels += ["--label", f"first{first}=yes"]
            commands.append(["loadgen", "--workload", "sysbench", "--steps", "point-select,update-index",
                             "--table-size", "1000", "--clients", "1", "--duration", "500ms",
                             "--random-seed", str(100 * i + (1 if variant == "a" else 2)),
                             *labels, "--quiet", "--out", Path(runs) / f"{variant}-{i:02d}"])
    return commands



def latency_over_time(tasks: pd.DataFrame, runs: pd.DataFrame, title_of, columns: int = 3):
    """One scatter per run (a client application): each task's latency against when it ended.

    x is seconds since the run's first intended start (end_ts - latency_ns), y the latency in seconds
    on a log scale; failed tasks are red crosses where their end time is known, and counted in the
    panel's title either way (the study's client recorded no time for them). The slowest task of
    each run is annotated: the stragglers behind a run's maximum.
    """
    import matplotlib.pyplot as plt

    run_ids = list(runs["run_id"])
    rows = -(-len(run_ids) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(5 * columns, 3.4 * rows), squeeze=False,
                                sharey=True, constrained_layout=True)
    for ax in axes.flat[len(run_ids):]:
        ax.set_visible(False)
    for ax, run_id in zip(axes.flat, run_ids):
        run = tasks[tasks["run_id"] == run_id]
        timed = run[run["end_ts"].notna() & run["latency_ns"].notna()]
        latency_s = timed["latency_ns"].astype("float64") / 1e9
        intended = timed["end_ts"] - pd.to_timedelta(timed["latency_ns"].astype("int64"), unit="ns")
        ended_s = (timed["end_ts"] - intended.min()).dt.total_seconds()
        ok = timed["ok"].astype(bool)
        ax.scatter(ended_s[ok], latency_s[ok], s=4, alpha=0.35, color="tab:blue", label="ok")
        ax.scatter(ended_s[~ok], latency_s[~ok], s=18, marker="x", color="tab:red", label="failed")
        if ok.any():
            slowest = latency_s[ok].idxmax()
            ax.annotate(f"{latency_s[slowest]:.1f} s", (ended_s[slowest], latency_s[slowest]),
                        textcoords="offset points", xytext=(-30, -12), fontsize=8)
        failed = int((~run["ok"].astype(bool)).sum())
        ax.set_title(f"{title_of(run_id)}\n{len(run)} tasks, {failed} failed", fontsize=9)
        ax.set_yscale("log")
        ax.set_xlabel("task ended, s after the run's start")
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("latency (s)")
    axes.flat[0].legend(loc="lower right", fontsize=8)
    return figure
