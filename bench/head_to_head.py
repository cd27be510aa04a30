#!/usr/bin/env python3
"""Head-to-head rounds of bench/loadgen.sh: two clients on one server at the same moment.

Why: the embedded server's throughput swings from second to second (sysbench alone: 24k-42k tps
in consecutive seconds on this 2-core VM), so runs taken one after the other differ by +-15 %
whatever the clients do, and 34 sequential rounds could not decide goal 7. Two clients that run
at the same time see the same server, second by second, and the ratio of the tasks each
completes in one shared window cancels that drift.

A round: the first client starts; LEAD seconds later the second; the window is the second's
WARMUP-th to (WARMUP + SECONDS)-th second, when both are connected and warm. The order flips every
round (ours first in odd rounds) so that neither side always has the longer warm-up. Counts:
  - loadgen: its tasks.csv, every ok task whose end (origin_epoch_ns + end_ns) lies in the window:
    exact, so loadgen is counted in whatever window the other tool's reports define;
  - pgbench: its -P 1 --progress-timestamp reports, each tps x the seconds since the previous one,
    over the reports inside the window; the window is then exactly those reports' span;
  - sysbench: its --report-interval=1 reports, second k covering (launch + k - 1, launch + k].
Each client's CPU (user + system, all threads, from /proc) is sampled over the nominal window:
its busy share of a core and its CPU per task.

What the ratio means: both clients are pinned to one core, the server to another, and the server
sets the pace. A client that is slower to turn a result into its next request leaves its backend
idle longer and completes fewer tasks than its rival in the same window, once that delay outgrows
what the server's queue hides; below that, as in a run alone, it costs nothing. Controls, run in
the same rounds when asked, show both edges:
  - a/a: loadgen against loadgen, first-launched / second-launched: the protocol favours neither
    side (measured 1.009x, 95 % CI 0.995-1.024, with the default 8 s warm-up; with 5 s the second
    JVM, started late on a busy core, was still compiling and came out 9 % behind);
  - handicap: loadgen against pgbench whose script does K more \\set commands per task, client CPU
    spent between a result and the next request, as an overhead of loadgen's would be. Its cost is
    measured (the handicapped pgbench's CPU per task, against plain pgbench's in the select-only
    pair). Measured here: +40 \\set (+7 us of CPU per task) cost pgbench nothing, in this design
    and alone; +150 (+25 us) cost it 10-20 % of its share (1.10x-1.24x, varying with the server).

  python3 bench/head_to_head.py --port P --benchlake bin/benchlake --work DIR [--rounds 8] ...
  python3 bench/head_to_head.py --self-check     # the window counting on made-up reports
"""
import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paired_ratio  # noqa: E402  (bench/paired_ratio.py: the interval and the verdict)

TICKS = os.sysconf("SC_CLK_TCK")
SYSBENCH_REPORT = re.compile(r"^\[ *(\d+)s \].* tps: ([0-9.]+) ")
PGBENCH_REPORT = re.compile(r"^progress: ([0-9.]+) s, ([0-9.]+) tps")


# ---- counting (pure functions, checked by --self-check) ----

def sysbench_count(lines, launch, first_second, seconds):
    """Events sysbench completed in its seconds (first_second, first_second + seconds]: (count, window)."""
    per_second = {}
    for line in lines:
        m = SYSBENCH_REPORT.match(line)
        if m:
            per_second[int(m.group(1))] = float(m.group(2))
    wanted = range(first_second + 1, first_second + seconds + 1)
    missing = [k for k in wanted if k not in per_second]
    if missing:
        raise ValueError(f"sysbench printed no report for second(s) {missing}")
    return sum(per_second[k] for k in wanted), (launch + first_second, launch + first_second + seconds)


def pgbench_count(lines, start, end):
    """Transactions of pgbench's reports that end in (start + 0.5, end + 0.5]: (count, exact window)."""
    reports = []
    for line in lines:
        m = PGBENCH_REPORT.match(line)
        if m:
            reports.append((float(m.group(1)), float(m.group(2))))
    count, first, last = 0.0, None, None
    for (previous, _), (ts, tps) in zip(reports, reports[1:]):
        if start + 0.5 < ts <= end + 0.5:
            count += tps * (ts - previous)
            first = previous if first is None else first
            last = ts
    if first is None or last - first < 0.8 * (end - start):
        raise ValueError(f"pgbench's reports cover too little of the window {start:.3f}-{end:.3f}")
    return count, (first, last)


def loadgen_count(run_dir, window):
    """Ok tasks of a loadgen run whose end lies in the window (epoch seconds)."""
    with open(os.path.join(run_dir, "manifest.json"), encoding="utf-8") as f:
        origin = json.load(f)["origin_epoch_ns"]
    lo, hi = round(window[0] * 1e9) - origin, round(window[1] * 1e9) - origin
    count = 0
    with open(os.path.join(run_dir, "tasks.csv"), encoding="utf-8", newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        end, ok = header.index("end_ns"), header.index("ok")
        for row in rows:
            if row[ok] == "true" and lo < int(row[end]) <= hi:
                count += 1
    return count


# ---- the clients ----

class Client:
    """One side of a pair: how to start it for a given run length, and how to count it."""

    def __init__(self, name, kind, argv_for):
        self.name, self.kind, self.argv_for = name, kind, argv_for


def clients(args):
    url = f"jdbc:postgresql://localhost:{args.port}/bench"
    sysbench_common = ["--db-driver=pgsql", "--pgsql-host=localhost", f"--pgsql-port={args.port}",
                       "--pgsql-user=postgres", "--pgsql-db=bench", "--tables=1",
                       f"--table-size={args.table_size}", "--rand-type=uniform"]

    def loadgen(*workload):
        # --warmup 0: the window, not loadgen's own warm-up, decides what counts (every task is recorded).
        return lambda seconds, out: [args.benchlake, "loadgen", "--jdbc-url", url, "--user", "postgres",
                                     "--clients", str(args.clients), "--duration", f"{seconds}s",
                                     "--warmup", "0s", "--quiet", "--out", out, *workload]

    def pgbench(*script):
        return lambda seconds, out: ["pgbench", "-h", "localhost", "-p", str(args.port), "-U", "postgres",
                                     "-n", "-M", "prepared", "-c", str(args.clients),
                                     "-j", str(args.clients), "-T", str(seconds), "-P", "1",
                                     "--progress-timestamp", *script, "bench"]

    point_select = loadgen("--workload", "point-select", "--skip-load", "--table-size", str(args.table_size))
    select_only = loadgen("--script", args.select_only, "-D", f"scale={args.scale}")
    return {
        "loadgen point-select": Client("loadgen point-select", "loadgen", point_select),
        "sysbench oltp_point_select": Client(
            "sysbench oltp_point_select", "sysbench",
            lambda seconds, out: ["sysbench", "oltp_point_select", *sysbench_common,
                                  f"--threads={args.clients}", f"--time={seconds}", "--report-interval=1", "run"]),
        "loadgen select-only": Client("loadgen select-only", "loadgen", select_only),
        "pgbench -S -M prepared": Client("pgbench -S -M prepared", "pgbench", pgbench("-S")),
        handicapped_name(args): Client(handicapped_name(args), "pgbench", pgbench("-f", args.handicapped_script)),
    }


def handicapped_name(args):
    return f"pgbench select-only + {args.handicap_sets} \\set"


def cpu_ticks(pid):
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime (fields 14 and 15 of stat)
    except (OSError, IndexError, ValueError):
        return None


def sleep_until(epoch):
    delay = epoch - time.time()
    if delay > 0:
        time.sleep(delay)


def run_round(first, second, args, tag):
    """Runs FIRST then, LEAD s later, SECOND; returns [(count, cpu s or None)] in launch order, and the window's length."""
    if first.kind != "loadgen" and second.kind != "loadgen":
        raise ValueError("a pair needs a loadgen side: it is the one counted in the other's window")
    w, s, lead = args.warmup, args.seconds, args.lead
    procs = []
    for client, seconds in ((first, lead + w + s + 1), (second, w + s + 1)):
        out = os.path.join(args.work, f"{tag}-{len(procs)}")
        log = open(out + ".log", "w", encoding="utf-8")
        launch = time.time()
        proc = subprocess.Popen([*args.pin, *client.argv_for(seconds, out)], stdout=log, stderr=subprocess.STDOUT)
        procs.append((client, proc, launch, out, log))
        if len(procs) == 1:
            time.sleep(lead)
    window = (procs[1][2] + w, procs[1][2] + w + s)
    sleep_until(window[0])
    before = [cpu_ticks(p.pid) for _, p, *_ in procs]
    sleep_until(window[1])
    after = [cpu_ticks(p.pid) for _, p, *_ in procs]
    for client, proc, _, out, log in procs:
        code = proc.wait()
        log.close()
        if code != 0:
            raise RuntimeError(f"{client.name} exited with {code}: see {out}.log")

    def lines(out):
        with open(out + ".log", encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()

    # The C tool's reports fix the window (its second boundaries); loadgen is counted in it exactly.
    counts = [None, None]
    for i, (client, _, launch, out, _) in enumerate(procs):
        if client.kind == "sysbench":
            counts[i], window = sysbench_count(lines(out), launch, round(window[0] - launch), s)
        elif client.kind == "pgbench":
            counts[i], window = pgbench_count(lines(out), *window)
    for i, (client, _, _, out, _) in enumerate(procs):
        if client.kind == "loadgen":
            counts[i] = loadgen_count(out, window)
            shutil.rmtree(out)
    cpu = [None if b is None or a is None else (a - b) / TICKS for b, a in zip(before, after)]
    return list(zip(counts, cpu)), window[1] - window[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--self-check", action="store_true")
    parser.add_argument("--port", type=int)
    parser.add_argument("--benchlake")
    parser.add_argument("--work")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--control-rounds", type=int, default=4, help="rounds that also run the controls (0: none)")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=8,
                        help="seconds from the second client's launch to the window (its JVM start and JIT)")
    parser.add_argument("--lead", type=int, default=1)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--table-size", type=int, default=100000)
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--select-only", help="the pgbench select-only script file")
    parser.add_argument("--handicap-sets", type=int, default=150,
                        help="\\set commands the handicapped pgbench adds to each task")
    parser.add_argument("--pin", default="", help="CPU list for every client (taskset -c), empty: unpinned")
    parser.add_argument("--goal", type=float, default=0.95)
    parser.add_argument("--pairs", default="point-select,select-only,a/a,handicap",
                        help="which comparisons to run, comma-separated")
    args = parser.parse_args()
    if args.self_check:
        return self_check()
    if None in (args.port, args.benchlake, args.work, args.select_only):
        parser.error("--port, --benchlake, --work and --select-only are needed")
    args.pin = ["taskset", "-c", args.pin] if args.pin else []
    args.work = tempfile.mkdtemp(prefix="head-to-head-", dir=args.work)
    with open(args.select_only, encoding="utf-8") as f:
        script = f.read()
    args.handicapped_script = os.path.join(args.work, "select-only-handicap.sql")
    with open(args.handicapped_script, "w", encoding="utf-8") as f:
        f.write(script.rstrip("\n") + "\n" + "\\set h (:aid * 7 + 3) % 1000 + random(1, 10)\n" * args.handicap_sets)

    c = clients(args)
    handicapped = handicapped_name(args)
    pairs = [("point-select", c["loadgen point-select"], c["sysbench oltp_point_select"], args.rounds),
             ("select-only", c["loadgen select-only"], c["pgbench -S -M prepared"], args.rounds),
             ("a/a", c["loadgen select-only"], c["loadgen select-only"], args.control_rounds),
             ("handicap", c["loadgen select-only"], c[handicapped], args.control_rounds)]
    wanted = args.pairs.split(",")
    unknown = set(wanted) - {label for label, *_ in pairs}
    if unknown:
        parser.error(f"--pairs: unknown {sorted(unknown)}")
    pairs = [p for p in pairs if p[0] in wanted]
    results = {label: [] for label, *_ in pairs}
    for r in range(1, args.rounds + 1):
        print(f"== head-to-head round {r} of {args.rounds} (load average {os.getloadavg()[0]:.2f})",
              file=sys.stderr, flush=True)
        for label, ours, theirs, rounds in pairs:
            if r > rounds:
                continue
            # ours first in odd rounds; a/a compares the first-launched with the second-launched.
            ours_first = r % 2 == 1 or label == "a/a"
            first, second = (ours, theirs) if ours_first else (theirs, ours)
            runs, span = run_round(first, second, args, f"r{r}-{label.replace('/', '')}")
            (n_ours, cpu_ours), (n_theirs, cpu_theirs) = runs if ours_first else runs[::-1]
            results[label].append((n_ours, n_theirs, cpu_ours, cpu_theirs, span))
            print(f"  {label:13s} {ours.name} {n_ours / span:9.1f} tps, {theirs.name} {n_theirs / span:9.1f} tps:"
                  f" {n_ours / n_theirs:.4f}  (client busy {busy(cpu_ours, args)} / {busy(cpu_theirs, args)})",
                  file=sys.stderr, flush=True)
    summarize(pairs, results, args, handicapped)
    return 0


def busy(cpu, args):
    return "-" if cpu is None else f"{100 * cpu / args.seconds:.0f} %"


def summarize(pairs, results, args, handicapped):
    print(f"\nhead-to-head: both clients at once on the same server, {args.clients} connections each, "
          f"counted over the same {args.seconds} s window of every round (order flipped every round)")
    for label, ours, theirs, _ in pairs:
        rows = results[label]
        if not rows:
            continue
        goal = args.goal if label in ("point-select", "select-only") else None
        title = {"a/a": f"  control a/a, {ours.name}, first-launched / second-launched (should be 1)",
                 "handicap": f"  control handicap, {ours.name} / {handicapped} (should exceed select-only's)"}.get(
            label, f"  {label}, {ours.name} / {theirs.name}")
        print(paired_ratio.report([(a, b) for a, b, *_ in rows], goal, title))
        print(f"    medians: {statistics.median(a / t for a, _, _, _, t in rows):.1f} vs "
              f"{statistics.median(b / t for _, b, _, _, t in rows):.1f} tps in the window"
              + cpu_line(rows, args))
    print("  (a ratio here is tasks completed in one shared window while the server set the pace: a client's own overhead"
          " shows as a smaller share once the server's queue no longer hides it; the handicap control shows where)")


def cpu_line(rows, args):
    """Median client busy share and CPU per task, where /proc could be read for both."""
    pairs = [(ca / (a / t * args.seconds), cb / (b / t * args.seconds), ca, cb)
             for a, b, ca, cb, t in rows if ca is not None and cb is not None and a > 0 and b > 0]
    if not pairs:
        return ""
    us = [(x * 1e6, y * 1e6) for x, y, _, _ in pairs]
    return (f"; client CPU {statistics.median(u for u, _ in us):.1f} vs {statistics.median(v for _, v in us):.1f} us"
            f" per task, busy {statistics.median(100 * c / args.seconds for _, _, c, _ in pairs):.0f} %"
            f" vs {statistics.median(100 * c / args.seconds for _, _, _, c in pairs):.0f} % of the core")


def self_check():
    """The window counting on made-up reports and a made-up loadgen run, against hand-worked counts."""
    failures = []
    sysbench = [f"[ {k}s ] thds: 4 tps: {1000.0 * k:.2f} qps: 1.0 (r/w/o: 1.0/0.00/0.00) lat (ms,95%): 0.2 err/s: 0.00"
                for k in range(1, 9)]
    count, window = sysbench_count(sysbench, 100.0, 3, 4)  # seconds 4..7: 4000 + 5000 + 6000 + 7000
    if count != 22000.0 or window != (103.0, 107.0):
        failures.append(f"sysbench {count} {window}")
    try:
        sysbench_count(sysbench[:5], 100.0, 3, 4)
        failures.append("sysbench: a missing report was not noticed")
    except ValueError:
        pass
    # Reports 1.02 s apart from 200.01: those ending in (203.5, 207.5] are at 204.09, 205.11, 206.13, 207.15.
    pgbench = ["starting vacuum...end."] + [f"progress: {200.01 + 1.02 * k:.3f} s, {100.0 * k:.1f} tps, lat 0.1 ms"
                                             f" stddev 0.0, 0 failed" for k in range(0, 9)]
    count, window = pgbench_count(pgbench, 203.0, 207.0)
    expect = sum(100.0 * k * 1.02 for k in (4, 5, 6, 7))
    if abs(count - expect) > 1e-6 or abs(window[0] - 203.07) > 1e-9 or abs(window[1] - 207.15) > 1e-9:
        failures.append(f"pgbench {count} vs {expect}, {window}")
    with tempfile.TemporaryDirectory() as d:
        origin = 1_000_000_000_000_000_000
        with open(os.path.join(d, "manifest.json"), "w", encoding="utf-8") as f:
            json.dump({"origin_epoch_ns": origin}, f)
        with open(os.path.join(d, "tasks.csv"), "w", encoding="utf-8") as f:
            f.write("step,client_id,seq,intended_start_ns,start_ns,end_ns,wait_ns,warmup,ok,sqlstate,error\n")
            for i, (end_s, ok) in enumerate([(0.5, "true"), (1.0, "true"), (1.5, "true"), (1.5, "false"),
                                             (2.0, "true"), (2.0000001, "true")]):
                f.write(f"s,0,{i},0,0,{round(end_s * 1e9)},0,false,{ok},,\n")
        got = loadgen_count(d, (origin / 1e9 + 1.0, origin / 1e9 + 2.0))  # (1.0, 2.0]: 1.5 ok, 2.0
        if got != 2:
            failures.append(f"loadgen {got} != 2")
    print("self-check " + ("FAILED: " + "; ".join(failures) if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
