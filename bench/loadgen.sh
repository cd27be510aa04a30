#!/usr/bin/env bash
# Benchmark of loadgen itself (a benchmark, not a test): is the load generator the bottleneck?
#
# Against one embedded PostgreSQL (started with `benchlake loadgen --serve`) and the same
# concurrency, it runs, interleaved and repeated:
#   - our point-select step          vs  sysbench 1.0 oltp_point_select (pgsql driver), on the same sbtest1
#   - our select-only (pgbench script) vs  pgbench -S -M prepared, on the same pgbench_accounts
#   - our point-select with tasks.csv recording on vs off (--no-record)
# and prints the median TPS of each and the ratios (goal: ours >= 0.95x the C tools). On a small
# machine the client and the server share the CPUs, so it then measures each client's CPU per task
# at one fixed arrival rate (BENCH_CPU_RATE, 10000/s), which other load on the machine disturbs far
# less. Then one long recorded run samples loadgen's RSS and Java heap: they should stay flat.
#
# Knobs (environment): BENCH_CLIENTS (4), BENCH_SECONDS per run (15), BENCH_REPEATS (5),
# BENCH_SOAK_SECONDS (180), BENCH_TABLE_SIZE (100000), BENCH_PGBENCH_SCALE (10), BENCH_PG_VERSION (17).
# Needs: bin/benchlake built (mvn -q -DskipTests package), sysbench, pgbench, psql on PATH.
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
root=$(dirname "$here")
benchlake="$root/bin/benchlake"
clients=${BENCH_CLIENTS:-4}
seconds=${BENCH_SECONDS:-15}
repeats=${BENCH_REPEATS:-5}
soak_seconds=${BENCH_SOAK_SECONDS:-180}
table_size=${BENCH_TABLE_SIZE:-100000}
scale=${BENCH_PGBENCH_SCALE:-10}
pg_version=${BENCH_PG_VERSION:-17}
warmup=3

for tool in sysbench pgbench psql; do
  command -v "$tool" > /dev/null || { echo "bench/loadgen.sh needs $tool on PATH" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/loadgen-bench.XXXXXX")
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2> /dev/null; then
    kill -TERM "$server_pid" && wait "$server_pid" 2> /dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== starting embedded PostgreSQL $pg_version" >&2
"$benchlake" loadgen --serve --pg-version "$pg_version" --clients $((clients + 8)) > "$work/serve.out" 2> "$work/serve.err" &
server_pid=$!
for _ in $(seq 1 120); do
  grep -q '^port=' "$work/serve.out" 2> /dev/null && break
  kill -0 "$server_pid" 2> /dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 0.5
done
port=$(sed -n 's/^port=//p' "$work/serve.out")
[[ -n "$port" ]] || { echo "the embedded server did not start" >&2; cat "$work/serve.err" >&2; exit 1; }
url="jdbc:postgresql://localhost:$port/bench"
export PGHOST=localhost PGPORT=$port PGUSER=postgres
psql -q -d postgres -c "create database bench" > /dev/null

echo "== preparing: sysbench sbtest1 ($table_size rows), pgbench scale $scale" >&2
sysbench_common=(--db-driver=pgsql --pgsql-host=localhost --pgsql-port="$port" --pgsql-user=postgres
  --pgsql-db=bench --tables=1 --table-size="$table_size" --rand-type=uniform)
sysbench oltp_point_select "${sysbench_common[@]}" prepare > "$work/sysbench-prepare.log"
pgbench -i -q -s "$scale" bench > "$work/pgbench-init.log" 2>&1
printf '\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n' \
  > "$work/select-only.sql"

# Each function prints one number: transactions per second of the measured part.
run_sysbench() {
  sysbench oltp_point_select "${sysbench_common[@]}" --threads="$clients" --time="$seconds" \
    run | sed -n 's/^ *transactions: *[0-9]* *(\([0-9.]*\) per sec.)/\1/p'
}
run_pgbench() {
  pgbench -n -S -M prepared -c "$clients" -j "$clients" -T "$seconds" bench 2> /dev/null \
    | sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p'
}
# ours STEP_NAME [loadgen options...]: ok/s from loadgen's summary table.
ours() {
  local step=$1
  shift
  local out="$work/run-$RANDOM$RANDOM"
  local record=(--out "$out")
  if [[ " $* " == *" --no-record "* ]]; then record=(); fi
  "$benchlake" loadgen --jdbc-url "$url" --user postgres --clients "$clients" --duration "${seconds}s" \
    --warmup "${warmup}s" --quiet "${record[@]}" "$@" 2> "$work/ours.err" \
    | awk -v step="$step" '$1 == step { print $5 }'
  rm -rf "$out"
}
run_point_select() { ours point-select --workload point-select --skip-load --table-size "$table_size" "$@"; }
run_select_only() { ours select-only --script "$work/select-only.sql" -D "scale=$scale"; }

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A results
record() { results[$1]+="$2 "; printf '  %-22s %10.1f tps\n' "$1" "$2" >&2; }

for r in $(seq 1 "$repeats"); do
  echo "== round $r of $repeats ($clients clients, ${seconds}s per run)" >&2
  # Alternate the order so that a drift of the machine does not favour one side.
  if (( r % 2 )); then
    record sysbench "$(run_sysbench)";        record ours-point-select "$(run_point_select)"
    record pgbench "$(run_pgbench)";          record ours-select-only "$(run_select_only)"
    record ours-no-record "$(run_point_select --no-record)"
  else
    record ours-no-record "$(run_point_select --no-record)"
    record ours-select-only "$(run_select_only)"; record pgbench "$(run_pgbench)"
    record ours-point-select "$(run_point_select)"; record sysbench "$(run_sysbench)"
  fi
done

med() { tr ' ' '\n' <<< "${results[$1]}" | grep -v '^$' | median; }
# Paired ratios: each round's runs ran next to each other, so their ratio cancels most of the
# machine's drift (other jobs on a shared box); the median of those is the headline figure.
paired() { paste -d' ' <(tr ' ' '\n' <<< "${results[$1]}" | grep -v '^$') <(tr ' ' '\n' <<< "${results[$2]}" | grep -v '^$') \
  | awk '{ print $1 / $2 }' | median; }
sb=$(med sysbench); lp=$(med ours-point-select); pb=$(med pgbench); ls=$(med ours-select-only); ln=$(med ours-no-record)
rp=$(paired ours-point-select sysbench); rs=$(paired ours-select-only pgbench); ro=$(paired ours-point-select ours-no-record)
echo
echo "loadgen vs the C tools, PostgreSQL $pg_version, $clients clients, ${seconds}s per run, $repeats interleaved rounds"
echo "(median TPS of the rounds; ratio = median of the per-round ratios)"
awk -v sb="$sb" -v lp="$lp" -v pb="$pb" -v ls="$ls" -v ln="$ln" -v rp="$rp" -v rs="$rs" -v ro="$ro" 'BEGIN {
  printf "  point-select  loadgen %9.1f  sysbench oltp_point_select %9.1f  ratio %.3f (goal >= 0.95)\n", lp, sb, rp
  printf "  select-only   loadgen %9.1f  pgbench -S -M prepared     %9.1f  ratio %.3f (goal >= 0.95)\n", ls, pb, rs
  printf "  recording     on      %9.1f  off (--no-record)          %9.1f  on/off %.3f (overhead %.1f %%)\n", lp, ln, ro, (1 - ro) * 100
}'
for k in sysbench ours-point-select pgbench ours-select-only ours-no-record; do
  printf '  runs %-18s %s\n' "$k" "${results[$k]}"
done

# Client CPU per task at the same fixed arrival rate: robust to the machine's other load, and the
# direct measure of what a generator costs. CPU (user + system, all threads) is read from /proc
# between ${warmup}+5 s and ${warmup}+5+10 s after the start, i.e. after start-up, data checks and JIT.
cpu_rate=${BENCH_CPU_RATE:-10000}
ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2> /dev/null || echo 0; }
# measure_cpu NAME COMMAND...: microseconds of client CPU per task at $cpu_rate tasks/s.
measure_cpu() {
  local name=$1
  shift
  "$@" > /dev/null 2>&1 &
  local pid=$!
  sleep $((warmup + 5))
  local before
  before=$(cpu_ticks "$pid")
  sleep 10
  local after
  after=$(cpu_ticks "$pid")
  wait "$pid" || true
  awk -v n="$name" -v d=$((after - before)) -v t="$ticks" -v r="$cpu_rate" \
    'BEGIN { printf "  %-28s %6.1f us of client CPU per task (%.0f %% of one core)\n", n, d / t / (10 * r) * 1e6, d / t / 10 * 100 }'
}
echo
echo "client CPU per task at $cpu_rate tasks/s ($clients connections, Poisson arrivals, 10 s of steady state)"
cpu_seconds=$((warmup + 20))
measure_cpu "sysbench oltp_point_select" sysbench oltp_point_select "${sysbench_common[@]}" --threads="$clients" \
  --time="$cpu_seconds" --rate="$cpu_rate" run
measure_cpu "loadgen point-select" "$benchlake" loadgen --jdbc-url "$url" --user postgres --workload point-select \
  --skip-load --table-size "$table_size" --clients "$clients" --rate "$cpu_rate" --duration "${cpu_seconds}s" --quiet \
  --out "$work/cpu-point-select"
measure_cpu "pgbench -S -M prepared" pgbench -n -S -M prepared -c "$clients" -j "$clients" -R "$cpu_rate" \
  -T "$cpu_seconds" bench
measure_cpu "loadgen select-only" "$benchlake" loadgen --jdbc-url "$url" --user postgres --script "$work/select-only.sql" \
  -D "scale=$scale" --clients "$clients" --rate "$cpu_rate" --duration "${cpu_seconds}s" --quiet --out "$work/cpu-select-only"
measure_cpu "loadgen point-select, no rec." "$benchlake" loadgen --jdbc-url "$url" --user postgres --workload point-select \
  --skip-load --table-size "$table_size" --clients "$clients" --rate "$cpu_rate" --duration "${cpu_seconds}s" --quiet \
  --no-record

echo
echo "== memory over a ${soak_seconds}s recorded point-select run (RSS and Java heap; should stay flat)" >&2
soak_out="$work/soak"
"$benchlake" loadgen --jdbc-url "$url" --user postgres --workload point-select --skip-load \
  --table-size "$table_size" --clients "$clients" --duration "${soak_seconds}s" --quiet --out "$soak_out" \
  > "$work/soak.out" 2> "$work/soak.err" &
soak_pid=$!
sleep 5
printf '%8s %10s %12s %12s %12s\n' "t (s)" "RSS (MB)" "heap (MB)" "old gen (MB)" "tasks"
t=5
while kill -0 "$soak_pid" 2> /dev/null; do
  rss=$(awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$soak_pid/status" 2> /dev/null || echo "-")
  heap=$(jstat -gc "$soak_pid" 2> /dev/null | awk 'NR == 2 { printf "%.0f %.0f", ($3 + $4 + $6 + $8) / 1024, $8 / 1024 }')
  lines=$(($(wc -l < "$soak_out/tasks.csv" 2> /dev/null || echo 1) - 1))
  [[ -n "$heap" ]] && printf '%8d %10s %12s %12s %12d\n' "$t" "$rss" ${heap} "$lines"
  sleep 10
  t=$((t + 10))
done
wait "$soak_pid" || true
grep -E '^point-select' "$work/soak.out" | awk '{ printf "soak: %d tasks, %.1f tps\n", $2, $5 }'
