#!/usr/bin/env bash
# Benchmark: tasks.csv against its compact form tasks.csv.gz (loadgen --tasks-file), issue 49.
#
#   bench/compact_tasks.sh [DURATION] [REPEATS]      (defaults: 30s, 3 repeats; medians reported)
#   INGEST_RUN=DIR bench/compact_tasks.sh …          (ingest that loadgen run instead of step 1's)
#
# 1. Size: one loadgen run in each form (embedded PostgreSQL 17, select-update, 2 clients, DURATION):
#    each file's bytes per task line.
# 2. Ingest: a run with a tasks.csv (step 1's, or INGEST_RUN), and the same run with its tasks.csv
#    gzipped (the text the compact form holds), each ingested REPEATS times into a fresh warehouse
#    by bin/benchlake ingest: whole-process wall and CPU seconds (user + sys; a shared machine
#    inflates wall times far more), their medians and the ratio gz / csv.
# Needs a build: mvn -B -q -DskipTests package
set -euo pipefail

duration=${1:-30s}
repeats=${2:-3}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${BENCH_DIR:-$(mktemp -d /tmp/benchlake-compact.XXXXXX)}
mkdir -p "$work"
export BENCHLAKE_LOG_LEVEL=${BENCHLAKE_LOG_LEVEL:-warn}
bl="$root/bin/benchlake"

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# Runs COMMAND; prints "WALL CPU" seconds (CPU: user + sys of it and its children).
timed() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
start = time.time()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f %.2f" % (time.time() - start, ru.ru_utime + ru.ru_stime))
PY
}

for form in tasks.csv tasks.csv.gz; do
  if [[ ! -f "$work/run-$form/manifest.json" ]]; then
    rm -rf "$work/run-$form"
    "$bl" loadgen --workload select-update --clients 2 --duration "$duration" --warmup 2s --tasks-file "$form" \
      --out "$work/run-$form" >/dev/null
  fi
done
lines=$(($(wc -l < "$work/run-tasks.csv/tasks.csv") - 1))
gz_lines=$(($(gzip -dc "$work/run-tasks.csv.gz/tasks.csv.gz" | wc -l) - 1))
csv_bytes=$(stat -c %s "$work/run-tasks.csv/tasks.csv")
gz_bytes=$(stat -c %s "$work/run-tasks.csv.gz/tasks.csv.gz")
echo "size: tasks.csv $csv_bytes bytes, $lines tasks, $(awk -v b="$csv_bytes" -v n="$lines" 'BEGIN { printf "%.1f", b / n }') bytes/task"
echo "size: tasks.csv.gz $gz_bytes bytes, $gz_lines tasks, $(awk -v b="$gz_bytes" -v n="$gz_lines" 'BEGIN { printf "%.1f", b / n }') bytes/task"

# The same run in both forms: the csv run's folder again, its tasks.csv gzipped.
plain=${INGEST_RUN:-$work/run-tasks.csv}
same="$work/same-run-gz"
rm -rf "$same" && mkdir -p "$same"
cp "$plain/manifest.json" "$same/"
gzip -c "$plain/tasks.csv" > "$same/tasks.csv.gz"
echo "ingest: $plain, $(($(wc -l < "$plain/tasks.csv") - 1)) tasks: tasks.csv $(stat -c %s "$plain/tasks.csv") bytes, gzipped $(stat -c %s "$same/tasks.csv.gz") bytes"
declare -A wall cpu
for i in $(seq 1 "$repeats"); do
  for form in csv gz; do
    dir=$([[ $form == csv ]] && echo "$plain" || echo "$same")
    rm -rf "$work/wh-$form"
    read -r w c < <(timed "$bl" ingest --warehouse "$work/wh-$form" "$dir")
    echo "ingest $form #$i: ${w} s wall, ${c} s CPU"
    wall[$form]="${wall[$form]:-} $w"
    cpu[$form]="${cpu[$form]:-} $c"
  done
done
mw_csv=$(median ${wall[csv]}); mw_gz=$(median ${wall[gz]})
mc_csv=$(median ${cpu[csv]}); mc_gz=$(median ${cpu[gz]})
echo "ingest medians: csv ${mw_csv} s wall ${mc_csv} s CPU; gz ${mw_gz} s wall ${mc_gz} s CPU"
echo "ratio gz/csv: wall $(awk -v a="$mw_gz" -v b="$mw_csv" 'BEGIN { printf "%.2f", a / b }'), CPU $(awk -v a="$mc_gz" -v b="$mc_csv" 'BEGIN { printf "%.2f", a / b }')"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) on $(nproc) CPUs; work folder $work"
