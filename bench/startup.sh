#!/usr/bin/env bash
# Benchmark: what a user feels of start-up, side by side with a bare Spark session.
#
#   bench/startup.sh [REPEATS] [RUNS]      (defaults: 3 repeats, medians reported; a warehouse of 300 runs)
#
# Times whole processes, wall and CPU (user + sys: what a machine shared with other work disturbs
# less), with bin/benchlake's JVM flags and class path:
#   --version, --help, runs, export --table runs, verify   goal: <= 2 s wall each (no Spark session: Delta Kernel)
#   errors told before Spark starts (a selector no run matches, a --base no run has, a warehouse path
#   that is a file, an input of no known format)        goal: <= --version's wall + 2 s each
#   bare Spark: a local session that starts and runs select 1 (the yardstick)
#   ingest of one sysbench file into a new warehouse                  goal: <= 1.5x bare
#   compare of the six TestPostgresqlPerf files (../shared/data/testpgperf, or $BENCHLAKE_TESTPGPERF;
#   skipped when absent)                                                  goal: <= 1.5x bare
#   a duet's side (a loadgen JVM on one CPU: the quickstart's select-update run), with the sides'
#   archive and without                                                   (shown: what the archive saves)
# The ingest and the compare run with the class-data-sharing archive of `mvn package` (when built)
# and again with BENCHLAKE_CDS=off, to show what it gives. The warehouse of RUNS runs is built first,
# in one `benchlake batch` of ingests of 10 files each (its time is printed too).
# Needs: mvn -B -q -DskipTests package && mvn -B -q -Pbench -DskipTests -pl bench -am compile
set -euo pipefail

repeats=${1:-3}
runs=${2:-300}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${BENCH_DIR:-$(mktemp -d /tmp/benchlake-startup.XXXXXX)}
mkdir -p "$work"
export BENCHLAKE_LOG_LEVEL=${BENCHLAKE_LOG_LEVEL:-warn}
target="$root/app/target"
bench_classes="$root/bench/target/classes"
if [[ ! -f "$target/launcher/jvm.options" || ! -f "$bench_classes/dev/benchlake/bench/BareSparkSelectOne.class" ]]; then
  echo "build first: (cd '$root' && mvn -B -q -DskipTests package && mvn -B -q -Pbench -DskipTests -pl bench -am compile)" >&2
  exit 1
fi
read -r -a flags < "$target/launcher/jvm.options"
read -r -a extra <<< "${BENCHLAKE_JAVA_OPTS:-}"
app_jar="$target/$(cat "$target/launcher/app-jar")"   # this build's jar, written by mvn package
benchlake="$root/bin/benchlake"
sysbench="$root/ingest/src/test/resources/dev/benchlake/ingest/fixtures/oltp_point_select.txt"
study=${BENCHLAKE_TESTPGPERF:-$root/../shared/data/testpgperf}

# "WALL CPU" of one command (seconds; CPU = user + sys of the process and its children).
measure() {
  python3 - "$@" <<'PY'
import os, resource, subprocess, sys, time
t0 = time.monotonic()
with open(sys.argv[1], "w") as err:
    code = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=err)
wall = time.monotonic() - t0
r = resource.getrusage(resource.RUSAGE_CHILDREN)
if code != int(os.environ.get("BENCH_EXPECT", "0")):
    sys.stderr.write(open(sys.argv[1]).read())
    sys.exit(f"failed ({code}): {' '.join(sys.argv[2:])}")
print(f"{wall:.2f} {r.ru_utime + r.ru_stime:.2f}")
PY
}
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

declare -A wall cpu
# NAME PREPARE-FUNCTION|- COMMAND…: median wall and CPU over the repeats.
bench() {
  local name=$1 prepare=$2; shift 2
  local walls=() cpus=() w c
  for ((i = 0; i < repeats; i++)); do
    [[ $prepare == - ]] || "$prepare"
    read -r w c < <(measure "$work/last.err" "$@")
    walls+=("$w"); cpus+=("$c")
  done
  wall[$name]=$(median "${walls[@]}"); cpu[$name]=$(median "${cpus[@]}")
  printf '  %-34s wall %6.2f s  cpu %6.2f s   (walls: %s)\n' "$name" "${wall[$name]}" "${cpu[$name]}" "${walls[*]}" >&2
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); work dir $work" >&2

# --- the warehouse of $runs runs: one batch of ingests, 10 distinct sysbench files each
wh="$work/wh"
if [[ ! -d $wh/runs ]]; then
  batch="$work/build.batch"
  : > "$batch"
  for ((i = 0; i < runs; i++)); do
    folder="$work/inputs/$((i / 10))"
    mkdir -p "$folder"
    # Another transaction count makes each file its own source (ingest skips content it has).
    sed "s/49695  (49507.72/$((40000 + i))  (49507.72/" "$sysbench" > "$folder/run-$i.txt"
    if ((i % 10 == 0)); then echo "ingest --warehouse '$wh' --label host=h$((i % 7)) --label db_major=$((14 + i % 3)) '$folder'" >> "$batch"; fi
  done
  read -r w c < <(measure "$work/build.err" "$benchlake" batch "$batch")
  printf '  %-34s wall %6.2f s  cpu %6.2f s   (%d ingests in one batch)\n' "build: $runs runs" "$w" "$c" "$(wc -l < "$batch")" >&2
fi
count=$("$benchlake" runs --warehouse "$wh" --json | wc -l)
echo "warehouse: $count runs" >&2

# --- small commands: no Spark session
bench "--version" - "$benchlake" --version
bench "--help" - "$benchlake" --help
bench "runs ($count runs)" - "$benchlake" runs --warehouse "$wh"
bench "export --table runs ($count runs)" - "$benchlake" export --warehouse "$wh" --table runs --out "$work/runs.csv"
bench "verify ($count runs)" - "$benchlake" verify --warehouse "$wh"

# --- errors told before Spark starts (exit 2)
echo "not a result" > "$work/notes.txt"
BENCH_EXPECT=2 bench "error: compare, no run matches" - "$benchlake" compare --warehouse "$wh" --baseline nosuchlabel=x \
  --candidate db_major=15 --out "$work/error-report"
BENCH_EXPECT=2 bench "error: trend, no such --base" - "$benchlake" trend --warehouse "$wh" --by db_major --base 99 \
  --out "$work/error-report"
BENCH_EXPECT=2 bench "error: ingest, warehouse is a file" - "$benchlake" ingest --warehouse "$work/notes.txt" "$sysbench"
BENCH_EXPECT=2 bench "error: ingest, unknown format" - "$benchlake" ingest --warehouse "$work/error-wh" "$work/notes.txt"

# --- the yardstick
bench "bare Spark: select 1" - java "${flags[@]}" "${extra[@]}" -Dlog4j2.configurationFile="$target/launcher/log4j2.properties" \
  -cp "$bench_classes:$app_jar:$target/lib/*" dev.benchlake.bench.BareSparkSelectOne

# --- Spark commands, with and without the class-data-sharing archive
fresh_ingest_wh() { rm -rf "$work/ingest-wh"; }
have_cds=no
[[ -f $target/launcher/benchlake.jsa ]] && have_cds=yes
bench "ingest 1 sysbench file" fresh_ingest_wh "$benchlake" ingest --warehouse "$work/ingest-wh" "$sysbench"
BENCHLAKE_CDS=off bench "ingest 1 sysbench file, no CDS" fresh_ingest_wh "$benchlake" ingest --warehouse "$work/ingest-wh" "$sysbench"
have_study=no
if [[ -d $study/linux && -d $study/windows ]]; then
  have_study=yes
  study_wh="$work/study-wh"
  if [[ ! -d $study_wh/runs ]]; then
    printf '%s\n' "ingest --warehouse '$study_wh' --label os=linux '$study/linux'" \
      "ingest --warehouse '$study_wh' --label os=windows '$study/windows'" | "$benchlake" batch - > /dev/null 2> "$work/study.err"
  fi
  bench "compare 6 TestPostgresqlPerf files" - "$benchlake" compare --warehouse "$study_wh" --baseline os=linux \
    --candidate os=windows --out "$work/compare"
  BENCHLAKE_CDS=off bench "compare 6 TestPostgresqlPerf files, no CDS" - "$benchlake" compare --warehouse "$study_wh" \
    --baseline os=linux --candidate os=windows --out "$work/compare"
else
  echo "  (compare skipped: no TestPostgresqlPerf files in $study; set BENCHLAKE_TESTPGPERF)" >&2
fi

# --- a duet's side: loadgen on loadgen's jars (LoadgenClassPath), pinned to one CPU as a study pins
# it, the quickstart's select-update run end to end (JVM, embedded PostgreSQL 14, table load, one
# burst of 400), with the sides' class-data-sharing archive and without: the same work but for
# loading the classes, paid by both sides of every pair of every round.
side_cp=$(java -cp "$app_jar:$target/lib/*" dev.benchlake.loadgen.LoadgenClassPath)
source "$target/launcher/jvm-profile.sh"
side=(taskset -c 0 java "${loadgen_jvm_flags[@]}")
side_run=(-cp "$side_cp" dev.benchlake.loadgen.LoadgenMain --pg-version 14 --workload select-update --scale 0.02
  --burst 400 --pool 20 --tasks 400 --out "$work/side-run" --quiet)
fresh_side_run() { rm -rf "$work/side-run"; }
if [[ -f $target/launcher/loadgen-side.jsa ]]; then
  bench "duet side: a select-update run" fresh_side_run "${side[@]}" \
    -XX:SharedArchiveFile="$target/launcher/loadgen-side.jsa" -Xshare:auto -Xlog:cds=error "${side_run[@]}"
fi
bench "duet side: a select-update run, no CDS" fresh_side_run "${side[@]}" "${side_run[@]}"

# --- the table
bare=${wall["bare Spark: select 1"]}
bare_cpu=${cpu["bare Spark: select 1"]}
echo
printf '%-44s %8s %8s %9s %9s  %s\n' "command (median of $repeats, class-data sharing: $have_cds)" "wall s" "cpu s" "wall/bare" "cpu/bare" "goal"
row() { # NAME GOAL-KIND
  local name=$1 goal=$2
  [[ -n ${wall[$name]:-} ]] || return 0
  VERSION_WALL=${wall["--version"]} python3 - "$name" "${wall[$name]}" "${cpu[$name]}" "$bare" "$bare_cpu" "$goal" <<'PY'
import os, sys
name, w, c, b, bc, goal = sys.argv[1], *map(float, sys.argv[2:6]), sys.argv[6]
version = float(os.environ["VERSION_WALL"])
verdict = {"abs2": f"<= 2 s: {'met' if w <= 2 else 'NOT met'}",
           "version2": f"<= --version + 2 s: {'met' if w <= version + 2 else 'NOT met'}",
           "ratio": f"<= 1.5x bare: {'met' if w / b <= 1.5 else 'NOT met'}",
           "none": ""}[goal]
print(f"{name:44s} {w:8.2f} {c:8.2f} {w / b:9.2f} {c / bc:9.2f}  {verdict}")
PY
}
row "--version" abs2
row "--help" abs2
row "runs ($count runs)" abs2
row "export --table runs ($count runs)" abs2
row "verify ($count runs)" abs2
row "error: compare, no run matches" version2
row "error: trend, no such --base" version2
row "error: ingest, warehouse is a file" version2
row "error: ingest, unknown format" version2
row "bare Spark: select 1" none
row "ingest 1 sysbench file" ratio
row "ingest 1 sysbench file, no CDS" none
row "compare 6 TestPostgresqlPerf files" ratio
row "compare 6 TestPostgresqlPerf files, no CDS" none
row "duet side: a select-update run" none
row "duet side: a select-update run, no CDS" none
# A machine busy with other work stretches wall times (CPU times less): say how busy it was.
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
