#!/usr/bin/env bash
# The README's tour, timed: the wall time of each command as a new user runs it, on this machine.
#
#   bench/tour.sh [--duration 10s] [--dir D]
#
# Runs the tour's commands in order against a fresh warehouse: four loadgen runs (embedded
# PostgreSQL 16, sysbench point-select + read-write, 8 clients, two runs labelled os=linux and two
# os=windows; --duration per step, 2 s warm-up), the ingests (the runs, two sysbench files and the
# mytools-layout tree of the project's fixtures), runs, rejects, export, compare, trend, and the
# same ingest + compare again through one `benchlake batch`. Prints one line per command:
# wall seconds, and what of it is the workload itself (loadgen's steps) where that applies.
# README.md's tour quotes these figures. Needs: mvn -B -q -DskipTests package.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
duration=10s
work=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --duration) duration=$2; shift 2 ;;
    --dir) work=$2; shift 2 ;;
    *) echo "usage: bench/tour.sh [--duration 10s] [--dir D]" >&2; exit 2 ;;
  esac
done
work=${work:-$(mktemp -d /tmp/benchlake-tour.XXXXXX)}
mkdir -p "$work"
bl="$root/bin/benchlake"
[[ -f $root/app/target/launcher/app-jar ]] || { echo "build first: (cd '$root' && mvn -B -q -DskipTests package)" >&2; exit 1; }
fixtures="$root/ingest/src/test/resources/dev/benchlake/ingest/fixtures"
export BENCHLAKE_LOG_LEVEL=${BENCHLAKE_LOG_LEVEL:-warn}
wh="$work/wh"
rm -rf "$wh" "$work/runs" "$work/reports"

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); work dir $work" >&2
printf '%-58s %8s\n' "command (tour step)" "wall s"
# LABEL COMMAND…: runs it, output to $work/LABEL.log, prints its wall time.
timed() {
  local label=$1; shift
  local log="$work/$(tr -c 'a-zA-Z0-9\n' '_' <<< "$label").log" t0 t1
  t0=$(date +%s.%N)
  if ! "$@" > "$log" 2>&1; then
    echo "failed: $*  (log: $log)" >&2; tail -n 20 "$log" >&2; exit 1
  fi
  t1=$(date +%s.%N)
  printf '%-58s %8.1f\n' "$label" "$(echo "$t1 - $t0" | bc)"
}

i=0
for os in linux windows linux windows; do
  i=$((i + 1))
  timed "1. loadgen pg16, 2 steps x $duration (run $i, os=$os)" \
    "$bl" loadgen --pg-version 16 --workload sysbench --steps point-select,read-write \
    --clients 8 --duration "$duration" --warmup 2s --label "os=$os" --out "$work/runs/pg16-$i"
done
timed "2. ingest 4 loadgen runs" "$bl" ingest --warehouse "$wh" "$work/runs"
timed "2. ingest 2 sysbench files (--label)" "$bl" ingest --warehouse "$wh" --label os=freebsd \
  --label db_major=16 "$fixtures/oltp_point_select.txt" "$fixtures/oltp_read_write.txt"
timed "2. ingest a mytools tree (4 runs, --label-from-path)" "$bl" ingest --warehouse "$wh" \
  --label-from-path '/(?<round>r\d+)/' "$fixtures/mytools"
timed "2. runs --where os=linux (Delta Kernel)" "$bl" runs --warehouse "$wh" --where os=linux
timed "2. rejects (Delta Kernel)" "$bl" rejects --warehouse "$wh"
timed "2. export --table runs (Delta Kernel)" "$bl" export --warehouse "$wh" --table runs --out "$work/runs.csv"
timed "3. compare os=linux vs os=windows" "$bl" compare --warehouse "$wh" --baseline os=linux \
  --candidate os=windows --outliers none --margin 5% --threshold 5s --out "$work/reports/lw"
timed "4. trend --by db_major --base 14 (mytools tree)" "$bl" trend --warehouse "$wh" --by db_major \
  --base 14 --metric qps --where workload=sysbench --out "$work/reports/trend"
batch="$work/tour.batch"
printf '%s\n' "ingest --warehouse $work/wh2 $work/runs" \
  "compare --warehouse $work/wh2 --baseline os=linux --candidate os=windows --out $work/reports/lw2" > "$batch"
timed "batch: ingest + compare in one session" "$bl" batch "$batch"
