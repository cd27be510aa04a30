#!/usr/bin/env bash
# Benchmark: benchlake ingest vs Spark's bare read.csv -> write.parquet on the same file.
#
#   bench/ingest.sh [LINES] [REPEATS]      (defaults: 10000000 lines, 3 repeats; medians are reported)
#
# Generates a LINES-line pgbench -l log and a LINES-line generic CSV (step, client, latency, start
# time, ok, error), then times, per file and repeat, in fresh processes with the same JVM flags and
# heap (app/target/launcher/jvm.options + BENCHLAKE_JAVA_OPTS, default -Xmx6g) and Spark local[*]:
#   ours: bin/benchlake ingest --warehouse <fresh dir> (parse, account every line, Delta commit)
#   bare: spark.read.csv(file).write.parquet(dir)      (no types, no line accounting, no Delta)
# Times are whole-process wall times (JVM and Spark start-up included on both sides). Prints each
# time, the median ratio ours/bare (goal <= 1.3), ours in rows/s, and the same ratio of CPU seconds
# (user + sys), which load from other work on a shared machine inflates much less. Needs a build:
#   mvn -B -q -DskipTests package
set -euo pipefail

lines=${1:-10000000}
repeats=${2:-3}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${BENCH_DIR:-$(mktemp -d /tmp/benchlake-bench.XXXXXX)}
mkdir -p "$work"
export BENCHLAKE_JAVA_OPTS=${BENCHLAKE_JAVA_OPTS:--Xmx6g}
export BENCHLAKE_LOG_LEVEL=${BENCHLAKE_LOG_LEVEL:-warn}
target="$root/app/target"
if [[ ! -f "$target/launcher/jvm.options" || ! -d "$root/ingest/target/test-classes/dev/benchlake/ingest/bench" ]]; then
  echo "build first: (cd '$root' && mvn -B -q -DskipTests package)" >&2
  exit 1
fi
read -r -a flags < "$target/launcher/jvm.options"
read -r -a extra <<< "$BENCHLAKE_JAVA_OPTS"
app_jar="$target/$(cat "$target/launcher/app-jar")"   # this build's jar, written by mvn package
bare_cp="$root/ingest/target/test-classes:$app_jar:$target/lib/*"

log="$work/pgbench_log.1"
csv="$work/tasks.csv"
mapping="$work/mapping.yaml"
if [[ ! -f "$log" || $(wc -l < "$log") -ne $lines ]]; then
  echo "generating $lines-line pgbench log and CSV in $work" >&2
  awk -v n="$lines" 'BEGIN { srand(42); for (i = 0; i < n; i++) {
      c = i % 32; printf "%d %d %d 0 %d %d\n", c, int(i / 32), 200 + int(rand() * 5000), 1700000000 + int(i / 20000), (i * 50) % 1000000 } }' > "$log"
  awk -v n="$lines" 'BEGIN { srand(7); print "step,client,latency_ms,start_ms,ok,error";
      for (i = 0; i < n; i++) { ok = (i % 1000 == 999) ? "false" : "true"; err = (ok == "false") ? "timeout" : "";
        printf "%s,%d,%.3f,%d,%s,%s\n", (i % 3 == 0 ? "point-select" : "update"), i % 32, 0.2 + rand() * 5, 1700000000000 + i, ok, err } }' > "$csv"
fi
cat > "$mapping" <<'YAML'
columns: {step: step, client: client, latency: latency_ms, timestamp: start_ms, ok: ok, error: error}
latency_unit: ms
timestamp_format: epoch_ms
YAML

seconds() { python3 -c 'import time; print(time.time())'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Each run prints its wall seconds; its CPU seconds (user + sys, the process and its children) go
# to $work/cpu.<side>: on a shared machine other work inflates wall times, not a process' CPU.
cpu_of() { # SIDE COMMAND...   (runs COMMAND, appends its CPU seconds to $work/cpu.SIDE)
  local side=$1; shift
  python3 - "$work/cpu.$side" "$@" <<'PY'
import os, resource, subprocess, sys
out, cmd = sys.argv[1], sys.argv[2:]
rc = subprocess.call(cmd)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(out, "a") as f:
    f.write(f"{u.ru_utime + u.ru_stime:.2f}\n")
sys.exit(rc)
PY
}

run_ours() { # NAME FILE [ingest options...]
  local name=$1 file=$2; shift 2
  rm -rf "$work/wh"
  local t0; t0=$(seconds)
  cpu_of "ours-$name" "$root/bin/benchlake" ingest --warehouse "$work/wh" "$@" "$file" > /dev/null 2> "$work/ours.err" \
    || { cat "$work/ours.err" >&2; exit 1; }
  python3 -c "print(round($(seconds) - $t0, 2))"
}

run_bare() { # NAME SEP HEADER FILE
  rm -rf "$work/bare.parquet"
  local t0; t0=$(seconds)
  cpu_of "bare-$1" java "${flags[@]}" "${extra[@]}" -Dlog4j2.configurationFile="$target/launcher/log4j2.properties" -cp "$bare_cp" \
    dev.benchlake.ingest.bench.BareCsvToParquet "$2" "$3" "$4" "$work/bare.parquet" 2> "$work/bare.err" \
    || { cat "$work/bare.err" >&2; exit 1; }
  python3 -c "print(round($(seconds) - $t0, 2))"
}

report() { # NAME KEY OURS... -- BARE...
  local name=$1 key=$2; shift 2
  local ours=() bare=() side=ours
  for t in "$@"; do
    if [[ $t == -- ]]; then side=bare; continue; fi
    if [[ $side == ours ]]; then ours+=("$t"); else bare+=("$t"); fi
  done
  local mo mb
  mo=$(median "${ours[@]}"); mb=$(median "${bare[@]}")
  python3 - "$name" "$mo" "$mb" "$lines" "${ours[*]}" "${bare[*]}" "$work/cpu.ours-$key" "$work/cpu.bare-$key" <<'PY'
import statistics, sys
name, mo, mb, n, ours, bare = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
co, cb = (statistics.median(float(x) for x in open(f).read().split()) for f in sys.argv[7:9])
print(f"{name}: ours {ours} s, bare {bare} s; median ours {mo:.2f} s, bare {mb:.2f} s, "
      f"ratio {mo / mb:.2f}x (goal <= 1.3x), ours {n / mo:,.0f} rows/s; "
      f"CPU median ours {co:.1f} s, bare {cb:.1f} s, ratio {co / cb:.2f}x")
PY
}

echo "$(nproc) cores, $lines lines, $repeats repeats, BENCHLAKE_JAVA_OPTS=$BENCHLAKE_JAVA_OPTS, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
ours_log=(); bare_log=(); ours_csv=(); bare_csv=()
rm -f "$work"/cpu.*
for r in $(seq 1 "$repeats"); do
  ours_log+=("$(run_ours log "$log" --format pgbench-log)")
  bare_log+=("$(run_bare log ' ' false "$log")")
  ours_csv+=("$(run_ours csv "$csv" --format csv --mapping "$mapping")")
  bare_csv+=("$(run_bare csv ',' true "$csv")")
  echo "repeat $r: pgbench log ours ${ours_log[-1]} s bare ${bare_log[-1]} s; csv ours ${ours_csv[-1]} s bare ${bare_csv[-1]} s" >&2
done
report "pgbench log ($lines lines)" log "${ours_log[@]}" -- "${bare_log[@]}"
report "generic CSV ($lines lines)" csv "${ours_csv[@]}" -- "${bare_csv[@]}"
