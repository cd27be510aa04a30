#!/usr/bin/env bash
# Makes a mytools result tree (mdcallag/mytools, bench/sysbench.lua: the layout run.sh writes) with
# the REAL sysbench here against embedded PostgreSQL servers, for ingest's fixture
# src/test/resources/dev/benchlake/ingest/fixtures/mytools/ (see the README there).
#
#   ingest/src/test/make-mytools-tree.sh OUT_DIR [MAJORS] [ROUNDS]     (defaults: "14 16", 2)
#   IOSTAT=1 SECS=25 ingest/src/test/make-mytools-tree.sh OUT_DIR 16 1  (fixtures/mytools-raw: sb.io too)
#
# Needs loadgen built (mvn -o -q -DskipTests package: loadgen/target/benchlake-loadgen-standalone.jar
# starts each embedded server with --serve), sysbench 1.0.20 with the pgsql driver, psql and vmstat.
#
# Per round and major: a fresh server, `prepare`, then the steps below in all_small.sh's order (a
# subset that sysbench 1.0's own Lua scripts can run), each one run.sh invocation:
#   OUT/r<round>/x.pg<major><minor>_embedded.default.pk1/
#     sb.o.<testType>.range<R>.pk1.dop<N>   the echoed command, "<cpus> CPUs", sysbench's stdout+stderr
#     sb.r.{trx,qps,rtavg,rtmax,rt95}.<testType>.range<R>.pk1   one line: a figure per dop, TAB, "pgsql <testType> range=<R>"
#     sb.vm.<sfx>.dop<N>  vmstat during the step;  sb.pgs.bg.<sfx>  pg_stat_bgwriter after it
#     sb.io.<sfx>.dop<N>  with IOSTAT=1: iostat -y -kx 1 during the step, as run.sh runs it (needs sysstat)
#     sb.prepare.o.<sfx>  sb.prepare.vm.<sfx>  the load;  conf.diff  the server's non-default settings
# The sb.r figures are computed from the sb.o files here, with run.sh's arithmetic: qps and trx are
# the "(X per sec.)" of the queries:/transactions: lines printed with %.0f; rtavg, rtmax and rt95
# copy the avg:, max: and "95th percentile:" figures as printed.
#
# Differences from run.sh, all harmless for ingest: no --warmup-time (run.sh gives 5; sysbench 1.0
# does not have the option) and --time is $SECS (default 1); --pgsql-port is added (the embedded server's port is not
# 5432); random-points uses sysbench's select_random_points.lua (run.sh: mytools' oltp_inlist_select.lua);
# the password on the echoed command line is the study's placeholder "pw" (the embedded server
# trusts local connections, so it is never checked: ingest must never store it).
set -euo pipefail

out=${1:?usage: make-mytools-tree.sh OUT_DIR [MAJORS] [ROUNDS]}
majors=${2:-"14 16"}
rounds=${3:-2}
secs=${SECS:-1}
ntabs=2
nr=10000
usepk=1
sysbdir=/usr
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar="$here/../../../loadgen/target/benchlake-loadgen-standalone.jar"
[[ -f $jar ]] || { echo "build loadgen first (mvn -o -q -DskipTests package): no $jar" >&2; exit 1; }
realdop=$(nproc)

server_pid=""
stop_server() {
  if [[ -n $server_pid ]]; then
    kill "$server_pid" 2> /dev/null || true
    wait "$server_pid" 2> /dev/null || true
    server_pid=""
  fi
}
trap stop_server EXIT

# Starts an embedded server of major $1; sets port and version.
start_server() {
  local info
  info=$(mktemp)
  java -jar "$jar" --pg-version "$1" --serve > "$info" 2> "$info.err" &
  server_pid=$!
  for _ in $(seq 1 120); do
    if grep -q '^version=' "$info"; then break; fi
    sleep 0.5
  done
  port=$(sed -n 's/^port=//p' "$info")
  version=$(sed -n 's/^version=//p' "$info")
  [[ -n $port ]] || { cat "$info.err" >&2; exit 1; }
  rm -f "$info" "$info.err"
}

# The figure of the first line of $2 that has $1, as field $3 (awk), "(" dropped; printed with format $4.
figure() {
  grep -- "$1" "$2" | head -n 1 | awk -v f="$3" -v fmt="$4" '{ v = $f; gsub(/\(/, "", v); printf fmt "\t", v }'
}

# One run.sh invocation: step $1 (testType), range $2, lua script $3, extra sysbench args $4, dops $5...
run_step() {
  local testType=$1 range=$2 lua=$3 extra=$4
  shift 4
  local sfx="${testType}.range${range}.pk${usepk}"
  rm -f "sb.r.trx.$sfx" "sb.r.qps.$sfx" "sb.r.rtavg.$sfx" "sb.r.rtmax.$sfx" "sb.r.rt95.$sfx"
  local nt
  for nt in "$@"; do
    local sfxn="$sfx.dop$nt"
    vmstat 1 > "sb.vm.$sfxn" 2>&1 &
    local vmpid=$!
    local iopid=""
    if [[ -n ${IOSTAT:-} ]]; then
      iostat -y -kx 1 > "sb.io.$sfxn" 2>&1 &
      iopid=$!
    fi
    # shellcheck disable=SC2206
    local args=(--db-driver=pgsql --range-size="$range" --table-size=$nr --tables=$ntabs --threads="$nt" --events=0
      --time="$secs" "$sysbdir/share/sysbench/$lua" run
      --pgsql-user=postgres --pgsql-password=pw --pgsql-host=127.0.0.1 --pgsql-port="$port" --pgsql-db=postgres
      $extra)
    echo "$sysbdir/bin/sysbench ${args[*]}" > "sb.o.$sfxn"
    echo "$realdop CPUs" >> "sb.o.$sfxn"
    "$sysbdir/bin/sysbench" "${args[@]}" >> "sb.o.$sfxn" 2>&1
    kill "$vmpid"; wait "$vmpid" 2> /dev/null || true
    if [[ -n $iopid ]]; then kill "$iopid"; wait "$iopid" 2> /dev/null || true; fi
    psql -h 127.0.0.1 -p "$port" -U postgres -x -c 'select * from pg_stat_bgwriter' postgres > "sb.pgs.bg.$sfx"
  done
  local label="pgsql $testType range=$range"
  for nt in "$@"; do figure 'transactions:' "sb.o.$sfx.dop$nt" 3 '%.0f'; done > "sb.r.trx.$sfx"
  echo "$label" >> "sb.r.trx.$sfx"
  for nt in "$@"; do figure 'queries:' "sb.o.$sfx.dop$nt" 3 '%.0f'; done > "sb.r.qps.$sfx"
  echo "$label" >> "sb.r.qps.$sfx"
  for nt in "$@"; do figure 'avg:' "sb.o.$sfx.dop$nt" 2 '%s'; done > "sb.r.rtavg.$sfx"
  echo "$label" >> "sb.r.rtavg.$sfx"
  for nt in "$@"; do figure 'max:' "sb.o.$sfx.dop$nt" 2 '%s'; done > "sb.r.rtmax.$sfx"
  echo "$label" >> "sb.r.rtmax.$sfx"
  for nt in "$@"; do figure 'percentile:' "sb.o.$sfx.dop$nt" 3 '%s'; done > "sb.r.rt95.$sfx"
  echo "$label" >> "sb.r.rt95.$sfx"
}

mkdir -p "$out"
out=$(cd "$out" && pwd)
for round in $(seq 1 "$rounds"); do
  for major in $majors; do
    start_server "$major"
    minor=$(echo "$version" | cut -d. -f2)
    dir="$out/r$round/x.pg${major}${minor}_embedded.default.pk${usepk}"
    rm -rf "$dir"; mkdir -p "$dir"
    (
      cd "$dir"
      psql -h 127.0.0.1 -p "$port" -U postgres -At -c \
        "select name || ' = ' || setting from pg_settings where source not in ('default', 'override') order by name" \
        postgres > conf.diff
      psfx="point-query.pre.range100.pk${usepk}"
      echo "Setup for $ntabs tables" > "sb.prepare.o.$psfx"
      vmstat 1 > "sb.prepare.vm.$psfx" 2>&1 &
      vmpid=$!
      start_s=$(date +%s)
      "$sysbdir/bin/sysbench" --db-driver=pgsql --range-size=100 --table-size=$nr --tables=$ntabs \
        --pgsql-user=postgres --pgsql-host=127.0.0.1 --pgsql-port="$port" --pgsql-db=postgres \
        "$sysbdir/share/sysbench/oltp_point_select.lua" prepare >> "sb.prepare.o.$psfx" 2>&1
      stop_s=$(date +%s)
      echo "Load seconds is $((stop_s - start_s)) for $ntabs tables" >> "sb.prepare.o.$psfx"
      kill "$vmpid"; wait "$vmpid" 2> /dev/null || true
      # all_small.sh's order; its first point-query.pre runs at dop 2, the next at the dop list
      # (here 1), so a dop-2 output stays beside a summary that covers dop 1 only, as in the study's trees.
      run_step point-query.pre 100 oltp_point_select.lua "--rand-type=uniform --skip-trx" 2
      run_step point-query.pre 100 oltp_point_select.lua "--rand-type=uniform --skip-trx" 1
      run_step update-index 100 oltp_update_index.lua "--rand-type=uniform" 1
      run_step read-only 10 oltp_read_only.lua "--rand-type=uniform" 1
      run_step point-query 100 oltp_point_select.lua "--rand-type=uniform --skip-trx" 1
      run_step random-points 10 select_random_points.lua "--rand-type=uniform --random-points=10 --skip-trx" 1
    )
    stop_server
    echo "$dir: PostgreSQL $version" >&2
  done
done
