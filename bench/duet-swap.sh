#!/usr/bin/env bash
# Benchmark (not a test) of the duet's in-window CPU swap: a/a studies (PostgreSQL 14 against
# itself) back to back, the sides' CPU sets swapped inside every step, then between rounds only,
# then inside every step again (so that a drift of the machine between the runs shows as a
# difference between the first and the last, not as one between the methods). For each: the
# per-round SD of the log ratio of each step's median latency and throughput, and the 95 %
# half-width of the paired interval (bench/duet_figures.py), with the moves' lateness from the
# study's log. The a/a's mean ratio must be 1: a method whose a/a drifts, or whose SD is not well
# under the per-round one, is not doing its job.
#   BENCH_ROUNDS [10]     comparison rounds per study (+ 2 a/a rounds)
#   BENCH_PERIODS [""]    extra in-window studies with other periods in ms, e.g. "250 500"
# Needs: bin/benchlake built (mvn -q -DskipTests package), root (cgroup cpuset groups), taskset,
# python3 with numpy and scipy. About 5 minutes per study on a 2-core machine.
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
root=$(dirname "$here")
rounds=${BENCH_ROUNDS:-10}
work=$(mktemp -d "${TMPDIR:-/tmp}/duet-swap.XXXXXX")
trap 'rm -rf "$work"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "duet swap benchmark: $(nproc) CPUs, load average $(load) at the start"

study() { # NAME MODE [PERIOD_MS]
  local name=$1 mode=$2 period=${3:-}
  local opts=()
  [[ -n $period ]] && opts=(--swap-period "${period}ms")
  echo "== $name: --cpu-swap $mode${period:+, every $period ms} ($(date +%T), load average $(load))"
  "$root/bin/benchlake" study ab --a-pg 14 --b-pg 14 --design duet --cpu-swap "$mode" "${opts[@]}" \
    --rounds "$rounds" --aa-rounds 2 --steps point-select,read-only,update-index --duration 2s --warmup 500ms \
    --out "$work/$name" --verbose > "$work/$name.log" 2>&1 || { tail -5 "$work/$name.log" >&2; exit 1; }
  grep -h 'swapped CPU sets' "$work/$name.log" | sed 's/.*average, at most //' | sort -n | tail -1 \
    | sed 's/^/   latest move: /' || true
  python3 "$here/duet_figures.py" "$work/$name"
}

study in-window-1 in-window
study per-round per-round
study in-window-2 in-window
for p in ${BENCH_PERIODS:-}; do
  study "in-window-${p}ms" in-window "$p"
done
echo "done, load average $(load)"
