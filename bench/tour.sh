#!/usr/bin/env bash
# docs/tour.md, timed: the wall time of each command as a new user runs it, on this machine.
#
#   bench/tour.sh [--duration 10s] [--dir D]
#
# Runs the tour's commands in order against a fresh warehouse, with --duration per step and a 2 s
# warm-up (the tour itself: 1 s, none): loadgen on embedded PostgreSQL 16 (sysbench point-select +
# read-write, 8 clients, os=linux), the same through --jdbc-url against a second embedded
# PostgreSQL 16 (`loadgen --serve`) standing in for the Windows server (os=windows), the ingests
# (the runs, samples/sysbench/*.txt, the mytools tree samples/mytools/round<N>/, the TestPostgresqlPerf
# sample samples/testpgperf/), runs, rejects, verify, export, compare, trend, and the batch of ingest +
# compare. The study line is left out (bench it with its own flags). Prints one line per command:
# wall seconds. docs/tour.md quotes these figures; app's ReadmeTourIT runs the tour's own
# lines (1 s steps) as written and checks each exits 0. Needs: mvn -B -q -DskipTests package.
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
work=$(cd "$work" && pwd)
bl="$root/bin/benchlake"
[[ -f $root/app/target/launcher/app-jar ]] || { echo "build first: (cd '$root' && mvn -B -q -DskipTests package)" >&2; exit 1; }
samples="$root/samples"
export BENCHLAKE_LOG_LEVEL=${BENCHLAKE_LOG_LEVEL:-warn}
wh="$work/wh"
rm -rf "$wh" "$work/runs" "$work/reports"

server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill -TERM "$server_pid" && wait "$server_pid" 2> /dev/null || true
  fi
}
trap cleanup EXIT

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

timed "1. loadgen pg16, 2 steps x $duration (os=linux)" \
  "$bl" loadgen --pg-version 16 --workload sysbench --steps point-select,read-write \
  --clients 8 --duration "$duration" --warmup 2s --label os=linux --out "$work/runs/pg16-linux"
# The Windows server of the tour: a second embedded PostgreSQL 16, reached by URL as that one would be.
"$bl" loadgen --serve --pg-version 16 --clients 20 > "$work/serve.out" 2> "$work/serve.err" &
server_pid=$!
for _ in $(seq 1 120); do
  grep -q '^jdbc_url=' "$work/serve.out" 2> /dev/null && break
  kill -0 "$server_pid" 2> /dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 0.5
done
url=$(sed -n 's/^jdbc_url=//p' "$work/serve.out")
user=$(sed -n 's/^user=//p' "$work/serve.out")
timed "1. loadgen --jdbc-url, 2 steps x $duration (os=windows)" \
  "$bl" loadgen --jdbc-url "$url" --user "$user" --workload sysbench --steps point-select,read-write \
  --clients 8 --duration "$duration" --warmup 2s --label os=windows --out "$work/runs/pg16-windows"
cleanup; server_pid=""
cd "$work"
timed "2. ingest the 2 loadgen runs" "$bl" ingest --warehouse wh runs/
timed "2. ingest 2 sysbench files (--label)" "$bl" ingest --warehouse wh --label db_major=14 \
  "$samples"/sysbench/*.txt
timed "2. ingest a mytools tree (--label-from-path)" "$bl" ingest --warehouse wh \
  --label-from-path '/round(?<round>\d+)/' "$samples/mytools/"
timed "2. ingest a TestPostgresqlPerf result (--label date)" "$bl" ingest --warehouse wh \
  --label date=2026-12-06 "$samples/testpgperf/"
timed "2. runs --where os=linux (Delta Kernel)" "$bl" runs --warehouse wh --where os=linux
timed "2. rejects (Delta Kernel)" "$bl" rejects --warehouse wh
timed "2. verify (Delta Kernel)" "$bl" verify --warehouse wh
timed "2. export --table runs (Delta Kernel)" "$bl" export --warehouse wh --table runs --out runs.csv
timed "3. compare os=linux vs os=windows" "$bl" compare --warehouse wh --baseline os=linux \
  --candidate os=windows --outliers none --margin 5% --threshold 5s --out reports/linux-vs-windows
timed "4. trend --by db_major --base 14" "$bl" trend --warehouse wh --by db_major \
  --base 14 --metric qps --where workload=sysbench --out reports/pg-trend
rm -rf wh2
printf '%s\n' "ingest --warehouse wh2 runs/pg16-linux runs/pg16-windows" \
  "compare --warehouse wh2 --baseline os=linux --candidate os=windows --out reports/lw" > tour.batch
timed "batch: ingest + compare in one session" "$bl" batch tour.batch
