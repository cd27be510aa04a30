#!/usr/bin/env python3
"""Per-round ratios of a study's runs (bench/duet.sh): how tightly each design measures a ratio.

Reads a study folder written by `benchlake quickstart` or `benchlake study ab` (its study.json and
run folders), and for every run and step the two figures compare uses:
  - the median latency of the successful measured tasks (end - intended start; numpy's linear
    quantile), compare's primary figure (lower is better);
  - the throughput, (ok - 1) / (last end - first end) of those tasks, compare's RunCounts.
The runs of a round are paired: side b over side a (a duet's `side` label; for the quickstart's
interleaved runs, the candidate major over the baseline). Per step and figure: the geometric mean
of the per-round ratios, the SD of the per-round log ratio (ddof 1), and the 95 % half-width of the
paired t-interval on the logs (bench/paired_ratio.py's interval), in percent: exp(t * SD / sqrt(n)) - 1.
For designs whose rounds are not simultaneous the unpaired (Welch) half-width is shown too: it is
their proper analysis, since pairing sequential rounds does not cancel drift. For a duet whose
sides swap CPU sets (study.json's `cpus` of each run), the crossover fit is shown as well, as
compare makes it: least squares of the log ratio on [1, x] (x = +1 when side a had round 1's set),
its residual SD and the 95 % half-width of the intercept with n - 2 df, when each set has 2 rounds.

  python3 bench/duet_figures.py STUDY_DIR [--control comparison|aa] [--json]
  python3 bench/duet_figures.py --self-check
"""
import argparse
import csv
import json
import math
import os
import sys
from collections import defaultdict

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paired_ratio  # noqa: E402  (bench/paired_ratio.py: the one paired interval)


def run_figures(run_dir):
    """{step: (median latency ns, throughput per s)} of one run, from its tasks.csv."""
    latencies = defaultdict(list)
    ends = defaultdict(list)
    with open(os.path.join(run_dir, "tasks.csv"), encoding="utf-8", newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        col = {name: i for i, name in enumerate(header)}
        for row in rows:
            if row[col["ok"]] != "true" or row[col["warmup"]] == "true":
                continue
            end = int(row[col["end_ns"]])
            latencies[row[col["step"]]].append(end - int(row[col["intended_start_ns"]]))
            ends[row[col["step"]]].append(end)
    figures = {}
    for step, lat in latencies.items():
        e = ends[step]
        span = (max(e) - min(e)) / 1e9
        figures[step] = (float(np.quantile(np.asarray(lat, dtype=float), 0.5)),
                         (len(e) - 1) / span if len(e) >= 2 and span > 0 else float("nan"))
    return figures


def pairs(study_dir, control):
    """[(round, figures of side a, figures of side b)] of the study's rounds of that kind."""
    with open(os.path.join(study_dir, "study.json"), encoding="utf-8") as f:
        study = json.load(f)
    majors = sorted({r["db_major"] for r in study["order"] if "db_major" in r})
    by_round = defaultdict(dict)
    for r in study["order"]:
        is_aa = r.get("control") == "aa"
        if is_aa != (control == "aa"):
            continue
        side = r.get("side") or ("a" if r["db_major"] == majors[0] else "b")
        figures = run_figures(os.path.join(study_dir, r["run_dir"]))
        # The quickstart runs two workloads per round: their steps differ, so they merge.
        by_round[r["round"]].setdefault(side, {}).update(figures)
        if side == "a" and r.get("cpus") is not None:
            by_round[r["round"]]["cpus_a"] = str(r["cpus"])
    return study, [(k, v["a"], v["b"]) for k, v in sorted(by_round.items()) if "a" in v and "b" in v], \
        [v.get("cpus_a") for _, v in sorted(by_round.items()) if "a" in v and "b" in v]


def crossover(log_ratios, sets):
    """(residual SD, 95 % half-width in %) of the set-fitted log ratio, or NaNs when it does not apply."""
    if any(c is None for c in sets) or len(set(sets)) != 2:
        return float("nan"), float("nan")
    x = np.where(np.asarray(sets) == sets[0], 1.0, -1.0)
    if min((x > 0).sum(), (x < 0).sum()) < 2:
        return float("nan"), float("nan")
    y = np.asarray(log_ratios, float)
    design = np.column_stack([np.ones_like(x), x])
    beta, _, _, _ = np.linalg.lstsq(design, y, rcond=None)
    df = y.size - 2
    s2 = float((y - design @ beta) @ (y - design @ beta)) / df
    se = math.sqrt(s2 * np.linalg.inv(design.T @ design)[0, 0])
    return math.sqrt(s2), 100 * (math.exp(stats.t.ppf(0.975, df) * se) - 1)


def summarize(log_ratios):
    """(n, geometric mean, SD of the log ratio, paired 95 % half-width in %)."""
    x = np.asarray(log_ratios, dtype=float)
    gm, lo, hi = paired_ratio.interval(x)
    sd = float(x.std(ddof=1)) if x.size > 1 else float("nan")
    return x.size, gm, sd, 100 * (hi / gm - 1) if x.size > 1 else float("nan")


def welch_half_width(a_logs, b_logs):
    """95 % half-width in % of the unpaired (Welch) interval on the difference of mean logs."""
    a, b = np.asarray(a_logs, float), np.asarray(b_logs, float)
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    df = (va + vb) ** 2 / (va ** 2 / (a.size - 1) + vb ** 2 / (b.size - 1))
    return 100 * (math.exp(stats.t.ppf(0.975, df) * math.sqrt(va + vb)) - 1)


def table(study_dir, control):
    study, rounds, sets = pairs(study_dir, control)
    steps = sorted(set.intersection(*(set(a) & set(b) for _, a, b in rounds))) if rounds else []
    out = []
    for step in steps:
        for index, figure in ((0, "median latency"), (1, "throughput")):
            a = [fa[step][index] for _, fa, _ in rounds]
            b = [fb[step][index] for _, _, fb in rounds]
            if any(not (v > 0) for v in a + b):
                continue
            logs = [math.log(y / x) for x, y in zip(a, b)]
            n, gm, sd, half = summarize(logs)
            welch = welch_half_width([math.log(v) for v in a], [math.log(v) for v in b]) if n > 1 else float("nan")
            residual, fitted = crossover(logs, sets)
            out.append({"step": step, "figure": figure, "rounds": n, "ratio_b_over_a": gm, "sd_log_ratio": sd,
                        "half_width_pct": half, "welch_half_width_pct": welch, "set_fitted_sd_log": residual,
                        "set_fitted_half_width_pct": fitted})
    return study, out


def render(study, rows, control):
    design = study.get("design", "?")
    lines = [f"design {design}, {'a/a control' if control == 'aa' else 'comparison'} rounds: side b / side a per round"]
    lines.append(f"  {'step':24s} {'figure':15s} {'n':>3s} {'b/a':>7s} {'SD log':>7s} {'±95% paired':>12s}"
                 f" {'±95% Welch':>11s} {'SD set-fit':>10s} {'±95% set-fit':>13s}")
    for r in rows:
        lines.append(f"  {r['step']:24s} {r['figure']:15s} {r['rounds']:3d} {r['ratio_b_over_a']:7.4f}"
                     f" {r['sd_log_ratio']:7.4f} {r['half_width_pct']:11.2f}% {r['welch_half_width_pct']:10.2f}%"
                     f" {r['set_fitted_sd_log']:10.4f} {r['set_fitted_half_width_pct']:12.2f}%")
    return "\n".join(lines)


def self_check():
    """The figures of a made-up run, against hand-worked numbers; the half-width against scipy."""
    import tempfile
    failures = []
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "tasks.csv"), "w", encoding="utf-8") as f:
            f.write("step,client_id,seq,intended_start_ns,start_ns,end_ns,wait_ns,warmup,ok,sqlstate,error\n")
            # warm-up and failed tasks are left out; latencies 10, 20, 40 ns; ends 1e9, 2e9, 3e9
            f.write("s,0,0,0,0,5,0,true,true,,\n")
            f.write("s,0,1,999999990,999999990,1000000000,0,false,true,,\n")
            f.write("s,0,2,1999999980,1999999980,2000000000,0,false,true,,\n")
            f.write("s,0,3,2999999960,2999999960,3000000000,0,false,true,,\n")
            f.write("s,0,4,3999999960,3999999960,3500000000,0,false,false,40001,x\n")
        med, tput = run_figures(d)["s"]
        if med != 20.0 or abs(tput - 1.0) > 1e-12:
            failures.append(f"figures {med} {tput}")
    logs = [0.01, -0.02, 0.015, 0.005]
    n, gm, sd, half = summarize(logs)
    ci = stats.ttest_1samp(logs, 0).confidence_interval(0.95)
    if abs(half - 100 * (math.exp(ci.high) / math.exp(np.mean(logs)) - 1)) > 1e-9:
        failures.append(f"half-width {half}")
    # The set fit against scipy's linregress (its intercept at x = 0 is the fitted log ratio).
    y = [0.21, -0.18, 0.23, -0.2, 0.19]
    sets = ["0", "1", "0", "1", "0"]
    residual, fitted = crossover(y, sets)
    lr = stats.linregress([1, -1, 1, -1, 1], y)
    if abs(fitted - 100 * (math.exp(stats.t.ppf(0.975, 3) * lr.intercept_stderr) - 1)) > 1e-9:
        failures.append(f"set-fitted half-width {fitted}")
    if not math.isnan(crossover(y[:3], sets[:3])[1]):
        failures.append("set fitted with one round on set two")
    print("self-check " + ("FAILED: " + "; ".join(failures) if failures else "passed"))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study", nargs="?")
    parser.add_argument("--control", choices=["comparison", "aa"], default="comparison")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--self-check", action="store_true")
    args = parser.parse_args()
    if args.self_check:
        return self_check()
    if not args.study:
        parser.error("give a study folder")
    study, rows = table(args.study, args.control)
    print(json.dumps(rows) if args.json else render(study, rows, args.control))
    return 0


if __name__ == "__main__":
    sys.exit(main())
