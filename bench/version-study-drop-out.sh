#!/usr/bin/env bash
# Benchmark (not a test) of issue 47's side by side: the version study (PostgreSQL 11 against 16, a duet of the
# 48 mytools steps at their defaults) within a 30-minute budget, as it runs (a step decided at a look drops out
# of later rounds) or with every step in every round until one look decides them all, as it ran before
# (UntilDecided.ALL_STEPS_EVERY_ROUND). Prints the wall time, the study's own answer (stdout: the groups and
# the calls) and, from study.json, where it stopped and when each step was decided.
#   usage: bench/version-study-drop-out.sh drop-out|all-steps [OUT]   (OUT kept; default a temporary folder)
#   BENCH_BUDGET  the budget, default 30m
# Needs: bin/benchlake built (mvn -q -DskipTests package), python3. Run it on an idle machine: it takes the budget
# plus the warm-up (about 3.5 minutes) and the end's ingest.
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
root=$(dirname "$here")
mode=${1:?usage: bench/version-study-drop-out.sh drop-out\|all-steps [OUT]}
case $mode in
  drop-out) opts=${BENCHLAKE_JAVA_OPTS:-} ;;
  all-steps) opts="${BENCHLAKE_JAVA_OPTS:-} -Dbenchlake.study.all-steps-every-round=true" ;;
  *) echo "bench/version-study-drop-out.sh: the mode is drop-out or all-steps, not '$mode'" >&2; exit 2 ;;
esac
out=${2:-}
if [[ -z $out ]]; then
  out=$(mktemp -d)/study
  trap 'rm -rf "$(dirname "$out")"' EXIT
fi
budget=${BENCH_BUDGET:-30m}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); mode $mode, budget $budget"
start=$(date +%s)
set +e
BENCHLAKE_JAVA_OPTS=$opts "$root/bin/benchlake" study versions --pg 11,16 --design duet --budget "$budget" \
  --max-rounds 30 --out "$out" > "$out.stdout" 2> "$out.stderr"
code=$?
set -e
echo "exit $code after $(($(date +%s) - start)) s (load average $(cut -d' ' -f1-3 /proc/loadavg))"
grep -E '^study: (warmed up|the budget|look after round [0-9]+ [^:]*: .*Stopping)' "$out.stderr" | cut -c1-220 || true
cat "$out.stdout"
python3 - "$out/study.json" << 'PY'
import json, sys
u = json.load(open(sys.argv[1])).get("until_decided") or {}
print(f"stopped after round {u.get('stopped_after_round')} of at most {u.get('max_rounds')},"
      f" every step decided: {u.get('every_step_decided')}, the budget's last look at {u.get('budget_last_look_alpha')}")
by_round = {}
for step, k in (u.get("decided_after_round") or {}).items():
    by_round[k] = by_round.get(k, 0) + 1
total = 0
for k in sorted(by_round):
    total += by_round[k]
    print(f"  decided (and dropped) after round {k}: {by_round[k]}, {total} in all")
PY
exit "$code"
