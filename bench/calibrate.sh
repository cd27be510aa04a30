#!/usr/bin/env bash
# Benchmark of accuracy (a benchmark, not a test): does this machine recover a handicap of known
# size at its size, by the duet and by the interleaved design alike? Issue 46's goal: a 5 %
# handicap detected, its interval covering 1.05, in >= 9 of 10 duet runs.
#
# Runs `benchlake calibrate` BENCH_REPEATS times at BENCH_SIZES for BENCH_DESIGNS (side b's client
# spins out size x each task's time after it: every latency of side b is (1 + size) x its own), and
# prints each run's table (expected, estimate, 95 % interval, covered, bias, verdict, detectable),
# then per design and size: runs covered, runs detected on every step, mean bias.
#
# Knobs (environment), defaults in brackets (about 25 min a repeat on a busy 2-core machine):
#   BENCH_SIZES [3%,5%,10%,15%]   BENCH_DESIGNS [duet,interleaved]   BENCH_ROUNDS [4]
#   BENCH_REPEATS [1]             BENCH_DURATION [3s]             BENCH_STEPS [point-select,read-only]
#   BENCH_AA_ROUNDS [4]
# Needs: bin/benchlake built (mvn -q -DskipTests package), taskset, python3.
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
benchlake="$(dirname "$here")/bin/benchlake"
sizes=${BENCH_SIZES:-3%,5%,10%,15%}
designs=${BENCH_DESIGNS:-duet,interleaved}
rounds=${BENCH_ROUNDS:-4}
repeats=${BENCH_REPEATS:-1}
duration=${BENCH_DURATION:-3s}
steps=${BENCH_STEPS:-point-select,read-only}
aa_rounds=${BENCH_AA_ROUNDS:-4}

work=$(mktemp -d "${TMPDIR:-/tmp}/calibrate-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "calibrate benchmark: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start;" \
  "sizes $sizes, designs $designs, $rounds rounds, $repeats repeats; work in $work"

for i in $(seq 1 "$repeats"); do
  start=$(date +%s)
  "$benchlake" calibrate --sizes "$sizes" --designs "$designs" --rounds "$rounds" --duration "$duration" \
    --steps "$steps" --aa-rounds "$aa_rounds" \
    --seed "$i" --pg-dir "$work/pg" --out "$work/run$i" > "$work/run$i.out" 2> "$work/run$i.err" \
    || { echo "repeat $i failed (exit $?):" >&2; tail -5 "$work/run$i.err" >&2; exit 1; }
  echo "## repeat $i: $(( $(date +%s) - start )) s, load average $(cut -d' ' -f1-3 /proc/loadavg) at its end"
  sed -n '/^| design/,/^$/p' "$work/run$i/report.md"
  grep '^- ' "$work/run$i/report.md" || true
done

python3 - "$work" "$repeats" <<'PY'
import json, sys, collections, statistics
work, repeats = sys.argv[1], int(sys.argv[2])
by = collections.defaultdict(list)
for i in range(1, repeats + 1):
    rows = json.load(open(f"{work}/run{i}/report.json"))["rows"]
    for key in {(r["design"], r["size"]) for r in rows}:
        mine = [r for r in rows if (r["design"], r["size"]) == key]
        by[key].append((all(r["covered"] for r in mine), all(r["detected"] for r in mine),
                        statistics.fmean(r["bias"] for r in mine if r["bias"] is not None)))
print("\n| design | size | runs covered (every step) | runs detected (every step) | mean bias |")
print("|---|---:|---:|---:|---:|")
for (design, size), runs in sorted(by.items()):
    print(f"| {design} | {size:.0%} | {sum(c for c, _, _ in runs)}/{len(runs)} | "
          f"{sum(d for _, d, _ in runs)}/{len(runs)} | {statistics.fmean(b for _, _, b in runs):+.2%} |")
PY
