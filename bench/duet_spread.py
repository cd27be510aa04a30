#!/usr/bin/env python3
"""Where a duet's per-round spread comes from (docs/designs.md): burst by burst, and by swap period.

Reads a duet study folder (`benchlake quickstart`, `benchlake study ab`: its runs/*/manifest.json
and tasks.csv) and pairs each round's runs by their labels (`round`, `side`, `control`). The figure
is compare's primary one, the median latency (end - intended start) of a run's successful measured
tasks, and each round gives the log ratio of side b's over side a's, comparison and a/a rounds alike.

  bursts   For burst runs (select-update): the log ratio computed from each measured burst alone
           (tasks.csv's `seq`), and from the measured bursts pooled, per round; then, per choice of
           bursts (each alone, all pooled, all but the first pooled), the SD of the log ratio over
           the rounds and the largest in absolute value.
  mixture  For closed-loop steps, per step-round: whether either side's tasks alternate between two
           speeds from one swap period to the next (the median over even periods against the median
           over odd ones, periods counted from the step's measured window as the in-window swap
           counts them, more than --threshold apart in log); then, per class, the SD of the median's
           log ratio and how many rounds were off by more than 0.1.
  figures  For closed-loop steps: the SD over the rounds of the log ratio of four run-level figures,
           per step: the median latency, the mean latency, the throughput (tasks per window, its
           ratio taken a over b so that, like a latency's, a higher ratio means side b slower) and
           the mean over the swap periods of each period's median.

  python3 bench/duet_spread.py bursts STUDY_DIR...
  python3 bench/duet_spread.py mixture STUDY_DIR... [--period-ms 100] [--threshold 0.2]
  python3 bench/duet_spread.py figures STUDY_DIR... [--period-ms 100]
  python3 bench/duet_spread.py --self-check
"""
import argparse
import csv
import json
import math
import os
import sys
from collections import defaultdict

import numpy as np


def read_run(run_dir):
    """(labels, {step: measured window start, ns on the run's clock}, [task rows as dicts])."""
    with open(os.path.join(run_dir, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    origin = manifest["origin_epoch_ns"]
    windows = {w["step"]: w["measured_from_epoch_ns"] - origin for w in manifest.get("step_windows") or []}
    with open(os.path.join(run_dir, "tasks.csv"), encoding="utf-8", newline="") as f:
        tasks = [r for r in csv.DictReader(f) if r["ok"] == "true" and r["warmup"] == "false"]
    return manifest.get("labels", {}), windows, tasks


def rounds(study_dir, keep):
    """{(round, control): {side: value}} over the study's runs for which keep(dir name) holds."""
    by_round = defaultdict(dict)
    runs = os.path.join(study_dir, "runs")
    for name in sorted(os.listdir(runs)):
        if not keep(name):
            continue
        labels, windows, tasks = read_run(os.path.join(runs, name))
        if "side" not in labels or "round" not in labels:
            continue
        by_round[(int(labels["round"]), labels.get("control", ""))][labels["side"]] = (windows, tasks)
    return {k: v for k, v in sorted(by_round.items()) if "a" in v and "b" in v}


def latency(task):
    return int(task["end_ns"]) - int(task["intended_start_ns"])


def log_ratio(a_latencies, b_latencies):
    return math.log(float(np.quantile(b_latencies, 0.5)) / float(np.quantile(a_latencies, 0.5)))


def burst_table(pairs):
    """Per round, the log ratio per measured burst and pooled; per choice of bursts, (SD, largest)."""
    per_round = []
    choices = defaultdict(list)
    for key, sides in pairs.items():
        bursts = {}
        for side, (_, tasks) in sides.items():
            by_seq = defaultdict(list)
            for t in tasks:
                by_seq[int(t["seq"])].append(latency(t))
            bursts[side] = [by_seq[s] for s in sorted(by_seq)]
        n = min(len(bursts["a"]), len(bursts["b"]))
        single = [log_ratio(bursts["a"][i], bursts["b"][i]) for i in range(n)]
        pooled = log_ratio(sum(bursts["a"][:n], []), sum(bursts["b"][:n], []))
        per_round.append((key, single, pooled))
        for i, lr in enumerate(single):
            choices[f"burst {i + 1} alone"].append(lr)
        choices[f"all {n} pooled"].append(pooled)
        if n >= 3:
            # What a warm-up burst would have left: the first burst dropped.
            choices[f"bursts 2-{n} pooled"].append(log_ratio(sum(bursts["a"][1:n], []), sum(bursts["b"][1:n], [])))
    summary = {name: (float(np.std(v, ddof=1)) if len(v) > 1 else float("nan"), max(abs(x) for x in v), len(v))
               for name, v in choices.items()}
    return per_round, summary


def step_pairs(pairs):
    """(step, (window start, tasks) of side a, the same of side b) of every closed-loop step of every round."""
    for sides in pairs.values():
        windows_a, tasks_a = sides["a"]
        windows_b, tasks_b = sides["b"]
        for step in windows_a:
            a = [t for t in tasks_a if t["step"] == step]
            b = [t for t in tasks_b if t["step"] == step]
            if len(a) >= 20 and len(b) >= 20 and step in windows_b:
                yield step, (windows_a[step], a), (windows_b[step], b)


def period_medians(window_start, tasks, period_ns):
    """The median latency of each swap period of the window (periods with at least 5 tasks), in order."""
    by_period = defaultdict(list)
    for t in tasks:
        by_period[(int(t["intended_start_ns"]) - window_start) // period_ns].append(latency(t))
    return [float(np.median(v)) for k, v in sorted(by_period.items()) if k >= 0 and len(v) >= 5]


def alternation(window_start, tasks, period_ns):
    """Log of (median of the even periods' medians / median of the odd periods'), or nan."""
    medians = period_medians(window_start, tasks, period_ns)
    if len(medians) < 4:
        return float("nan")
    return math.log(float(np.median(medians[0::2])) / float(np.median(medians[1::2])))


def mixture_table(pairs, period_ns, threshold):
    """{class: (step-rounds, SD of the log ratio, off by more than 0.1)}; class alternating or steady."""
    classes = defaultdict(list)
    for _, (wa, a), (wb, b) in step_pairs(pairs):
        alt = max(abs(alternation(wa, a, period_ns)), abs(alternation(wb, b, period_ns)))
        classes["alternating" if alt > threshold else "steady"].append(
            log_ratio([latency(t) for t in a], [latency(t) for t in b]))
    return {c: (len(v), float(np.std(v, ddof=1)) if len(v) > 1 else float("nan"), sum(abs(x) > 0.1 for x in v))
            for c, v in sorted(classes.items())}


def figures_table(pairs, period_ns):
    """{step: {figure: (rounds, SD of the log ratio)}}."""
    ratios = defaultdict(lambda: defaultdict(list))
    for step, (wa, a), (wb, b) in step_pairs(pairs):
        la = [latency(t) for t in a]
        lb = [latency(t) for t in b]
        ratios[step]["median"].append(log_ratio(la, lb))
        ratios[step]["mean"].append(math.log(np.mean(lb) / np.mean(la)))
        ratios[step]["throughput"].append(math.log(len(a) / len(b)))
        ratios[step]["mean of period medians"].append(math.log(
            np.mean(period_medians(wb, b, period_ns)) / np.mean(period_medians(wa, a, period_ns))))
    return {step: {f: (len(v), float(np.std(v, ddof=1)) if len(v) > 1 else float("nan")) for f, v in by.items()}
            for step, by in sorted(ratios.items())}


def self_check():
    """Hand-made runs with known answers: a first burst off, and a side that alternates speeds."""
    import tempfile
    failures = []
    header = "step,client_id,seq,intended_start_ns,start_ns,end_ns,wait_ns,warmup,ok,sqlstate,error\n"

    def write_run(root, name, labels, rows, windows):
        d = os.path.join(root, "runs", name)
        os.makedirs(d)
        with open(os.path.join(d, "manifest.json"), "w", encoding="utf-8") as f:
            json.dump({"origin_epoch_ns": 1000, "labels": labels,
                       "step_windows": [{"step": s, "measured_from_epoch_ns": 1000 + w} for s, w in windows.items()]}, f)
        with open(os.path.join(d, "tasks.csv"), "w", encoding="utf-8") as f:
            f.write(header)
            f.writelines(rows)

    with tempfile.TemporaryDirectory() as root:
        # Bursts: side b's first burst takes 2x, its second the same as a's; a warm-up burst (seq 0) is left out.
        for r in (1, 2, 3):
            for side in "ab":
                rows = [f"su,{i},0,0,0,999999,0,true,true,,\n" for i in range(3)]
                first = [100, 200, 300] if side == "a" else [200, 400, 600]
                second = [100 * r, 200 * r, 300 * r]
                rows += [f"su,{i},1,0,0,{v},0,false,true,,\n" for i, v in enumerate(first)]
                rows += [f"su,{i},2,0,0,{v},0,false,true,,\n" for i, v in enumerate(second)]
                write_run(root, f"r{r}-su-{side}", {"round": str(r), "side": side}, rows, {"su": 0})
        per_round, summary = burst_table(rounds(root, lambda n: "-su-" in n))
        first_alone = [lr for _, single, _ in per_round for lr in single[:1]]
        if any(abs(lr - math.log(2)) > 1e-12 for lr in first_alone):
            failures.append(f"first burst {first_alone}")
        if summary["burst 2 alone"][1] > 1e-12:
            failures.append(f"second burst {summary['burst 2 alone']}")
        # Pooled, round 1: a's 100,100,200,200,300,300 (median 200), b's 100,200,200,300,400,600 (250).
        if abs(per_round[0][2] - math.log(250 / 200)) > 1e-12:
            failures.append(f"pooled round 1 {per_round[0][2]}")

    with tempfile.TemporaryDirectory() as root:
        # Mixture: 8 periods of 100 ns; in round 1 side a alternates 10/30 per period, side b is steady at 10.
        for r, alternate in ((1, True), (2, False), (3, False)):
            for side in "ab":
                rows = []
                for p in range(8):
                    slow = alternate and side == "a" and p % 2 == 1
                    for k in range(6):
                        start = p * 100 + k
                        rows.append(f"st,0,0,{start},{start},{start + (30 if slow else 10 + r)},0,false,true,,\n")
                write_run(root, f"r{r}-mix-{side}", {"round": str(r), "side": side}, rows, {"st": 0})
        table = mixture_table(rounds(root, lambda n: "-mix-" in n), 100, 0.2)
        if table.get("alternating", (0,))[0] != 1 or table.get("steady", (0,))[0] != 2:
            failures.append(f"classes {table}")
        if abs(table["steady"][1]) > 1e-12:
            failures.append(f"steady SD {table['steady']}")
    print("self-check " + ("FAILED: " + "; ".join(failures) if failures else "passed"))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("analysis", nargs="?", choices=["bursts", "mixture", "figures"])
    parser.add_argument("studies", nargs="*", metavar="STUDY_DIR")
    parser.add_argument("--period-ms", type=float, default=100.0)
    parser.add_argument("--threshold", type=float, default=0.2)
    parser.add_argument("--self-check", action="store_true")
    args = parser.parse_args()
    if args.self_check:
        return self_check()
    if not args.analysis or not args.studies:
        parser.error("give an analysis (bursts, mixture or figures) and study folders")
    period_ns = int(args.period_ms * 1e6)

    def all_rounds(keep):
        # Several studies pool their rounds; a study's rounds keep their own keys.
        pooled = {}
        for i, study in enumerate(args.studies):
            pooled.update({(i,) + key: v for key, v in rounds(study, keep).items()})
        return pooled

    if args.analysis == "bursts":
        per_round, summary = burst_table(all_rounds(lambda n: "select-update" in n))
        for key, single, pooled in per_round:
            print(f"study {key[0] + 1} round {key[1]:2d}{' a/a' if key[2] else '    '}  "
                  + " ".join(f"{x:+.3f}" for x in single) + f"   pooled {pooled:+.3f}")
        for name, (sd, largest, n) in summary.items():
            print(f"{name:18s} SD {sd:.4f}  largest {largest:.3f}  ({n} rounds)")
    elif args.analysis == "mixture":
        table = mixture_table(all_rounds(lambda n: "select-update" not in n), period_ns, args.threshold)
        for cls, (n, sd, off) in table.items():
            print(f"{cls:12s} {n:4d} step-rounds  SD {sd:.4f}  off by more than 0.1: {off}")
    else:
        for step, by in figures_table(all_rounds(lambda n: "select-update" not in n), period_ns).items():
            rounds_of_step = max(n for n, _ in by.values())
            print(f"{step:14s} " + "  ".join(f"{f} {sd:.4f}" for f, (_, sd) in by.items())
                  + f"  ({rounds_of_step} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
