#!/usr/bin/env python3
"""Overhead of loadgen's per-step resource counters (issue 48): an a/a run with and without them.

Each round starts two identical loadgen runs at once, each on its own embedded server: one as is
(the counters read around every step, the context-switch sampler running during it), one with
-Dbenchlake.loadgen.resources=off (nothing read). Both wait behind loadgen's stdio step barrier
(`--barrier stdio`, the duet's) and this script starts every step of both at the same instant, so
both measure the same window of the same machine: the per-round ratio with/without of ok tasks/s
cancels the machine's drift, which on a shared VM swamps any sequential comparison (runs one after
the other here differed by 0.2-1.2x at load 25). bench/paired_ratio.py gives the geometric mean of
the rounds' ratios and its 95 % t-interval, per step.

  bench/resources_overhead.py            # BENCH_ROUNDS [6], BENCH_SECONDS [8], BENCH_CLIENTS [2],
                                         # BENCH_STEPS [point-select,update-index], BENCH_PG_VERSION [17]
Needs bin/benchlake built (mvn -q -DskipTests package) and a python3 with scipy.
"""
import os
import pathlib
import subprocess
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
BENCHLAKE = HERE.parent / "bin" / "benchlake"
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "6"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "8"))
CLIENTS = os.environ.get("BENCH_CLIENTS", "2")
STEPS = os.environ.get("BENCH_STEPS", "point-select,update-index")
PG = os.environ.get("BENCH_PG_VERSION", "17")
READY = "benchlake-barrier ready"


def start(out, off):
    env = dict(os.environ, BENCHLAKE_JAVA_OPTS="-Dbenchlake.loadgen.resources=off" if off else "")
    return subprocess.Popen([str(BENCHLAKE), "loadgen", "--quiet", "--barrier", "stdio", "--pg-version", PG,
                             "--workload", "sysbench", "--steps", STEPS, "--tables", "1", "--table-size", "10000",
                             "--clients", CLIENTS, "--duration", f"{SECONDS}s", "--out", str(out)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=env, bufsize=1)


def reader(proc, ready, summary):
    """Collects the barrier's ready lines (index -> event) and the summary table's ok/s per step."""
    table = False
    for line in proc.stdout:
        if line.startswith(READY):
            ready[int(line.split()[2])].set()
        elif line.startswith("step ") and "ok/s" in line:
            table = True
        elif table and line.startswith("("):
            table = False
        elif table and line.strip():
            fields = line.split()
            summary[fields[0]] = float(fields[4])


def one_round(work, r):
    steps = STEPS.split(",")
    sides = {}
    for name, off in (("with", False), ("without", True)):
        proc = start(work / f"r{r}-{name}", off)
        ready = [threading.Event() for _ in steps]
        summary = {}
        t = threading.Thread(target=reader, args=(proc, ready, summary), daemon=True)
        t.start()
        sides[name] = (proc, ready, summary, t)
    for i in range(len(steps)):
        for proc, ready, _, _ in sides.values():
            if not ready[i].wait(600):
                raise SystemExit(f"round {r}: a side never got ready for step {i}")
        go = time.time_ns() + 500_000_000
        for proc, _, _, _ in sides.values():
            proc.stdin.write(f"go {i} {go}\n")
            proc.stdin.flush()
    for proc, _, _, t in sides.values():
        proc.wait()  # stdin stays open: its end would stop the run
        t.join()
        proc.stdin.close()
    return sides["with"][2], sides["without"][2]


def main():
    pairs = {s: [] for s in STEPS.split(",")}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(1, ROUNDS + 1):
            with_, without = one_round(pathlib.Path(tmp), r)
            for step in pairs:
                if step in with_ and step in without:
                    pairs[step].append((with_[step], without[step]))
                    print(f"round {r}  {step:14s} with {with_[step]:9.1f}/s  without {without[step]:9.1f}/s"
                          f"  ratio {with_[step] / without[step]:.4f}", flush=True)
    load = open("/proc/loadavg").read().split()[:3]
    print(f"with/without ok tasks/s over {ROUNDS} simultaneous rounds ({os.cpu_count()} CPUs, load {' '.join(load)}):")
    for step, p in pairs.items():
        out = subprocess.run([sys.executable, str(HERE / "paired_ratio.py")], input="".join(f"{a} {b}\n" for a, b in p),
                             capture_output=True, text=True).stdout.strip()
        print(f"{step:14s} {out}")


if __name__ == "__main__":
    main()
