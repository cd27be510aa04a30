#!/usr/bin/env bash
# Benchmark (not a test) of issue 28's promise to a new user: on this machine, the default
# quickstart (a duet of PostgreSQL 14 and 17 run until decided, with its a/a control) decides every
# step within 5 minutes after the build, with the duet's 95 % half-width <= 2.5 % a step and the
# a/a ratio within +-1 %. Prints the machine (cores, load), the wall time, the round it stopped at,
# each step's call with θ and its interval, the a/a control, and (bench/duet_figures.py) the
# per-round SD of the log ratio and the half-width of every step and of the a/a rounds.
#   BENCH_QUICKSTART_ARGS  extra quickstart options, e.g. "--max-rounds 6"
# Needs: bin/benchlake built (mvn -q -DskipTests package), taskset, python3 with numpy and scipy.
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
root=$(dirname "$here")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }

# Each stderr line stamped with the seconds since the start: where the time goes (warm-up, rounds, looks, report).
stamp() {
  local t0=$1 now line
  while IFS= read -r line; do
    printf -v now '%(%s)T' -1
    printf '%4ds %s\n' "$((now - t0))" "$line"
  done
}

echo "machine: $(nproc) cores, load average $(load)"
start=$(date +%s.%N)
# shellcheck disable=SC2086
if ! "$root/bin/benchlake" quickstart --out "$work/qs" ${BENCH_QUICKSTART_ARGS:-} 2>&1 > "$work/stdout" \
    | stamp "${start%.*}" > "$work/stderr"; then
  cat "$work/stderr" >&2
  exit 1
fi
end=$(date +%s.%N)
printf 'quickstart: %.0f s in all (load average %s)\n' "$(echo "$end - $start" | bc)" "$(load)"
grep -E '^ *[0-9]+s (study: (warmed up|look after|the a/a control.s last)|quickstart: |.*disagree)' "$work/stderr" || true
python3 - "$work/qs/compare/report.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))
seq = r.get("sequential") or {}
print(f"stopped after round {seq.get('stopped_after_round')} of at most {seq.get('max_rounds')},"
      f" every step decided: {seq.get('every_step_decided')}, alpha at the stop {r['alpha']}")
for s in r["steps"]:
    lvl = s["run_level"]
    lo, hi = lvl["ci95"]
    half = (hi / lo) ** 0.5 - 1 if lo and hi else float("nan")
    set_ratio = (lvl.get("pairs") or {}).get("cpu_set_ratio")
    print(f"  {s['step']:<16} {s['verdict']:<12} theta {lvl['ratio']:.4f} [{lo:.4f}, {hi:.4f}]"
          f"  half-width {100 * half:.2f} %"
          + (f"  (CPU set fitted: x{set_ratio:.3f})" if set_ratio else ""))
aa = (r.get("controls") or {}).get("aa")
if aa:
    print(f"a/a control: ratio {aa['ratio']:.4f} [{aa['ci'][0]:.4f}, {aa['ci'][1]:.4f}] over {aa.get('rounds', aa['measurements'])} rounds ({aa['measurements']} measurements, {aa['pairs']} pairs),"
          f" {aa['verdict']}, reliable: {aa['reliable']}")
PY
python3 "$here/duet_figures.py" "$work/qs"
python3 "$here/duet_figures.py" "$work/qs" --control aa
