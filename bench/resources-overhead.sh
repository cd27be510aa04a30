#!/usr/bin/env bash
# Overhead of loadgen's per-step resource counters (issue 48): an a/a run with and without them.
#
# Each round runs the same loadgen run twice, on a fresh embedded server each, once as is (the
# counters read around every step and the context-switch sampler running during it) and once with
# -Dbenchlake.loadgen.resources=off (nothing read), the order flipped every round. Per step, the
# ratio with/without of ok tasks/s is the round's figure; bench/paired_ratio.py gives their
# geometric mean and 95 % t-interval over the rounds (runs one after another on a shared VM drift
# by several %, so the interval, not the point, says whether the counters cost anything).
#
# Knobs (environment), defaults in brackets (about 8 min on 2 cores):
#   BENCH_ROUNDS [6]  BENCH_SECONDS [8] per step  BENCH_CLIENTS [4]  BENCH_PG_VERSION [17]
#   BENCH_STEPS [point-select,update-index]  BENCH_TABLE_SIZE [10000]
# Needs: bin/benchlake built (mvn -q -DskipTests package) and a python3 with scipy.
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
root=$(dirname "$here")
benchlake="$root/bin/benchlake"
rounds=${BENCH_ROUNDS:-6}
seconds=${BENCH_SECONDS:-8}
clients=${BENCH_CLIENTS:-4}
steps=${BENCH_STEPS:-point-select,update-index}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ok tasks/s per step from loadgen's summary table ("step tasks ok errors ok/s ...").
run() {
  local out=$1 opts=$2
  BENCHLAKE_JAVA_OPTS="$opts" "$benchlake" loadgen --quiet --pg-version "${BENCH_PG_VERSION:-17}" --workload sysbench \
    --steps "$steps" --tables 1 --table-size "${BENCH_TABLE_SIZE:-10000}" --clients "$clients" \
    --duration "${seconds}s" --out "$out" 2> "$out.err" \
    | awk 'f && NF >= 5 && $1 != "(latency:" {print $1, $5} /^step +tasks/ {f = 1}'
}

for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then order=(with without); else order=(without with); fi
  for side in "${order[@]}"; do
    opts=""
    [[ $side == without ]] && opts="-Dbenchlake.loadgen.resources=off"
    run "$work/r$r-$side" "$opts" > "$work/r$r-$side.qps"
  done
  join "$work/r$r-with.qps" "$work/r$r-without.qps" | while read -r step with without; do
    echo "$step $with $without" >> "$work/pairs"
    printf 'round %d  %-14s with %9.1f/s  without %9.1f/s  ratio %.4f\n' "$r" "$step" "$with" "$without" \
      "$(python3 -c "print($with / $without)")"
  done
done

echo "with/without ok tasks/s, geometric mean and 95 % interval over $rounds rounds ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)):"
for step in ${steps//,/ }; do
  printf '%-14s ' "$step"
  awk -v s="$step" '$1 == s {print $2, $3}' "$work/pairs" | python3 "$here/paired_ratio.py"
done
