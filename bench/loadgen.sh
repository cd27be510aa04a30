#!/usr/bin/env bash
# Benchmark of loadgen itself (a benchmark, not a test): is the load generator the bottleneck?
# Issue 16 goal 7: loadgen >= 0.95x sysbench oltp_point_select and pgbench -S -M prepared.
#
# Against one embedded PostgreSQL (started with `benchlake loadgen --serve`), the same
# concurrency (BENCH_CLIENTS connections per tool, one thread each) and prepared statements for all
# (sysbench's pgsql driver prepares, pgbench -M prepared, pgjdbc prepares server-side from a
# statement's 5th use, in the warm-up), it compares
#   - our point-select step            with  sysbench 1.0 oltp_point_select (pgsql driver), on the same sbtest1
#   - our select-only (pgbench script)  with  pgbench -S -M prepared, on the same pgbench_accounts
#
# 1. Head-to-head rounds, the verdict (bench/head_to_head.py): in each round both clients run at
#    the same time against the server, and the tasks each completes in one shared window are
#    counted (loadgen exactly from tasks.csv, the C tools from their per-second reports). The server
#    here swings from second to second (sysbench alone: 24k-42k tps in consecutive seconds), which
#    made runs taken one after the other differ by +-15 % and left 34 such rounds undecided; at the
#    same moment both clients see the same server, and the ratio cancels that (per-round SD ~1 %).
#    A client slower to turn a result into its next request gets a smaller share of the server once
#    the server's queue no longer hides the delay, as in a run alone. Verdict (bench/paired_ratio.py,
#    scipy): the geometric mean of the per-round ratios with a 95 % t-interval; "met" when its lower
#    bound >= 0.95, "not met" when its upper bound < 0.95, otherwise "not decided" with the rounds
#    that would decide it. Two controls run in the first BENCH_CONTROL_ROUNDS rounds: a/a (loadgen
#    against loadgen: the protocol favours neither side) and handicap (pgbench doing
#    BENCH_HANDICAP_SETS extra \set commands per task, its measured extra CPU per task shown: the
#    design sees a client that is the slower one by that much).
# 2. Each tool alone, in interleaved rounds (the order flips every round): each tool's own TPS, as a
#    user running it alone sees it. Descriptive: the interval is printed without a verdict, since
#    the server's drift between runs is wider than the goal's margin.
# 3. Each client's CPU per task at one fixed arrival rate (BENCH_CPU_RATE), the direct cost of a
#    generator; then one long recorded run samples loadgen's RSS and Java heap: they should stay flat.
#
# Pinning: the server's whole process tree (the launcher's JVM and every postgres it forks inherit
# the affinity) runs on BENCH_SERVER_CPUS and every client on BENCH_CLIENT_CPUS, the same for all
# tools, so that a client and the server stop taking each other's core.
#
# Knobs (environment), defaults in brackets (about 14 min in all on 2 cores):
#   BENCH_CLIENTS [4]          connections (threads) per tool
#   BENCH_SECONDS [8]          counted seconds per run (>= 2), after BENCH_WARMUP [5] (a JVM pinned to
#                              one CPU still compiles hot code 3-4 s after its first connection)
#   BENCH_REPEATS [8]          head-to-head rounds (the verdict's; it says how many would decide)
#   BENCH_H2H_WARMUP [8]       head-to-head: seconds from the second client's launch to the window
#   BENCH_CONTROL_ROUNDS [4]   of those, the rounds that also run the two controls (0: none)
#   BENCH_HANDICAP_SETS [150]  \set commands the handicap control adds to each pgbench task
#   BENCH_ALONE_REPEATS [3]    interleaved rounds of each tool alone (0 skips them)
#   BENCH_SERVER_CPUS [0]      taskset CPU list of the server; BENCH_CLIENT_CPUS [1] of the clients;
#                              BENCH_PIN=off runs unpinned (also the case on a 1-CPU machine)
#   BENCH_NO_RECORD [off]      on: every alone round also runs our point-select with --no-record
#                              (tasks.csv recording's cost in TPS, with its interval)
#   BENCH_CPU_RATE [10000]     tasks/s of the CPU-per-task runs; BENCH_CPU_SECONDS [10] measured each
#   BENCH_SOAK_SECONDS [60]    the memory soak (0 skips it; RSS plateaus within ~25 s)
#   BENCH_TABLE_SIZE [100000], BENCH_PGBENCH_SCALE [10], BENCH_PG_VERSION [17]
# Needs: bin/benchlake built (mvn -q -DskipTests package), sysbench, pgbench, psql, taskset, and a
# python3 with scipy on PATH. Reproduce on an idle machine: bench/loadgen.sh (the defaults).
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
root=$(dirname "$here")
benchlake="$root/bin/benchlake"
clients=${BENCH_CLIENTS:-4}
seconds=${BENCH_SECONDS:-8}
warmup=${BENCH_WARMUP:-5}
repeats=${BENCH_REPEATS:-8}
alone_repeats=${BENCH_ALONE_REPEATS:-3}
soak_seconds=${BENCH_SOAK_SECONDS:-60}
table_size=${BENCH_TABLE_SIZE:-100000}
scale=${BENCH_PGBENCH_SCALE:-10}
pg_version=${BENCH_PG_VERSION:-17}
goal=0.95
(( seconds >= 2 )) || { echo "BENCH_SECONDS must be >= 2" >&2; exit 2; }

for tool in sysbench pgbench psql taskset python3; do
  command -v "$tool" > /dev/null || { echo "bench/loadgen.sh needs $tool on PATH" >&2; exit 1; }
done
python3 -c 'import scipy' 2> /dev/null || { echo "bench/loadgen.sh needs a python3 with scipy on PATH" >&2; exit 1; }
python3 "$here/head_to_head.py" --self-check > /dev/null || { echo "bench/head_to_head.py --self-check failed" >&2; exit 1; }
ratio() { python3 "$here/paired_ratio.py" "$@"; }

pin_server=() pin_client=() pinning="unpinned" client_cpus=""
if [[ ${BENCH_PIN:-on} != off && $(nproc) -ge 2 ]]; then
  client_cpus=${BENCH_CLIENT_CPUS:-1}
  pin_server=(taskset -c "${BENCH_SERVER_CPUS:-0}")
  pin_client=(taskset -c "$client_cpus")
  pinning="server on CPU ${BENCH_SERVER_CPUS:-0}, clients on CPU ${BENCH_CLIENT_CPUS:-1}"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/loadgen-bench.XXXXXX")
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2> /dev/null; then
    kill -TERM "$server_pid" && wait "$server_pid" 2> /dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== starting embedded PostgreSQL $pg_version ($pinning; load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
"${pin_server[@]}" "$benchlake" loadgen --serve --pg-version "$pg_version" --clients $((clients + 8)) \
  > "$work/serve.out" 2> "$work/serve.err" &
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
# pg_ctl daemonises the postmaster (its parent is init), yet it kept the launcher's affinity: show it.
data_dir=$(psql -qtA -d postgres -c "show data_directory")
postmaster=$(head -1 "$data_dir/postmaster.pid" 2> /dev/null || true)
if [[ -n "$postmaster" ]]; then
  echo "   postmaster $postmaster runs on CPUs $(awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$postmaster/status")" >&2
fi

echo "== preparing: sysbench sbtest1 ($table_size rows), pgbench scale $scale" >&2
sysbench_common=(--db-driver=pgsql --pgsql-host=localhost --pgsql-port="$port" --pgsql-user=postgres
  --pgsql-db=bench --tables=1 --table-size="$table_size" --rand-type=uniform)
sysbench oltp_point_select "${sysbench_common[@]}" prepare > "$work/sysbench-prepare.log"
pgbench -i -q -s "$scale" bench > "$work/pgbench-init.log" 2>&1
printf '\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n' \
  > "$work/select-only.sql"

ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2> /dev/null || true; }
# client OUT COMMAND...: runs COMMAND on the client CPUs, its output to OUT, and writes to
# $work/busy the share of one core it used from WARMUP + 1 s to WARMUP + SECONDS - 0.5 s after its
# start (about the counted window; "-" when it had ended): near 100 % means the client, not the
# server, set the pace.
client() {
  local out=$1
  shift
  "${pin_client[@]}" "$@" > "$out" 2>&1 &
  local pid=$! before after
  sleep $((warmup + 1))
  before=$(cpu_ticks "$pid")
  sleep "$(awk -v s="$seconds" 'BEGIN { print s - 1.5 }')"
  after=$(cpu_ticks "$pid")
  wait "$pid" || true
  if [[ -n $before && -n $after ]]; then
    awk -v d=$((after - before)) -v t="$ticks" -v s="$seconds" 'BEGIN { printf "%.0f\n", d / t / (s - 1.5) * 100 }'
  else
    echo "-"
  fi > "$work/busy"
}
# mean_after WARMUP: the mean of the per-second TPS (field 2 of "SECOND TPS" lines) after WARMUP s.
mean_after() { awk -v w="$1" '$1 > w + 0.5 { s += $2; n++ } END { if (n) printf "%.1f\n", s / n }'; }
# Each function prints one number: transactions per second of the counted part of its run.
run_sysbench() {
  client "$work/sysbench.out" sysbench oltp_point_select "${sysbench_common[@]}" --threads="$clients" \
    --time=$((warmup + seconds)) --report-interval=1 run
  sed -n 's/^\[ *\([0-9]*\)s \].* tps: \([0-9.]*\) .*/\1 \2/p' "$work/sysbench.out" | mean_after "$warmup"
}
run_pgbench() {
  client "$work/pgbench.out" pgbench -n -S -M prepared -c "$clients" -j "$clients" -T $((warmup + seconds)) -P 1 bench
  sed -n 's/^progress: \([0-9.]*\) s, \([0-9.]*\) tps.*/\1 \2/p' "$work/pgbench.out" | mean_after "$warmup"
}
# ours STEP_NAME [loadgen options...]: ok/s of the measured part, from loadgen's summary table.
ours() {
  local step=$1
  shift
  local out="$work/run-$RANDOM$RANDOM"
  local record=(--out "$out")
  if [[ " $* " == *" --no-record "* ]]; then record=(); fi
  client "$work/ours.out" "$benchlake" loadgen --jdbc-url "$url" --user postgres --clients "$clients" \
    --duration "${seconds}s" --warmup "${warmup}s" --quiet "${record[@]}" "$@"
  awk -v step="$step" '$1 == step { print $5 }' "$work/ours.out"
  rm -rf "$out"
}
run_point_select() { ours point-select --workload point-select --skip-load --table-size "$table_size" "$@"; }
run_select_only() { ours select-only --script "$work/select-only.sql" -D "scale=$scale"; }

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "== head-to-head: $repeats rounds, both clients at once (controls in the first ${BENCH_CONTROL_ROUNDS:-4})" >&2
python3 "$here/head_to_head.py" --port "$port" --benchlake "$benchlake" --work "$work" --select-only "$work/select-only.sql" \
  --rounds "$repeats" --control-rounds "${BENCH_CONTROL_ROUNDS:-4}" --handicap-sets "${BENCH_HANDICAP_SETS:-150}" \
  --seconds "$seconds" --warmup "${BENCH_H2H_WARMUP:-8}" --clients "$clients" --table-size "$table_size" --scale "$scale" \
  --pin "$client_cpus" --goal "$goal"

declare -A results busy
record() {
  [[ $2 =~ ^[0-9.]+$ ]] || { echo "no TPS from the $1 run (see $work)" >&2; trap - EXIT; exit 1; }
  results[$1]+="$2 "
  local b
  b=$(cat "$work/busy")
  busy[$1]+="$b "
  printf '  %-22s %10.1f tps  (client busy %3s %% of its core)\n' "$1" "$2" "$b" >&2
}
no_record=${BENCH_NO_RECORD:-off}

for r in $(seq 1 "$alone_repeats"); do
  echo "== alone, round $r of $alone_repeats ($clients clients, ${warmup}s + ${seconds}s per run; load average $(cut -d' ' -f1 /proc/loadavg))" >&2
  # Flip the order every round so that neither side always runs first (after the other's load).
  if (( r % 2 )); then
    record sysbench "$(run_sysbench)";        record ours-point-select "$(run_point_select)"
    record pgbench "$(run_pgbench)";          record ours-select-only "$(run_select_only)"
    if [[ $no_record == on ]]; then record ours-no-record "$(run_point_select --no-record)"; fi
  else
    if [[ $no_record == on ]]; then record ours-no-record "$(run_point_select --no-record)"; fi
    record ours-select-only "$(run_select_only)"; record pgbench "$(run_pgbench)"
    record ours-point-select "$(run_point_select)"; record sysbench "$(run_sysbench)"
  fi
done

series() { tr ' ' '\n' <<< "${results[$1]:-}" | grep -v '^$' || true; }
med() { series "$1" | median; }
pairs() { paste -d' ' <(series "$1") <(series "$2"); }
if (( alone_repeats > 0 )); then
  echo
  echo "each tool alone: $alone_repeats interleaved rounds, ${warmup}s warm-up + ${seconds}s counted per run, $pinning,"
  echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg); descriptive: no verdict (the server's drift between runs is wider than 5 %)"
  printf '  medians: loadgen point-select %.1f, sysbench oltp_point_select %.1f; loadgen select-only %.1f, pgbench -S %.1f tps\n' \
    "$(med ours-point-select)" "$(med sysbench)" "$(med ours-select-only)" "$(med pgbench)"
  bmed() { tr ' ' '\n' <<< "${busy[$1]}" | grep -E '^[0-9]+$' | median; }
  printf '  client busy (median %% of its one core): loadgen point-select %s, sysbench %s; loadgen select-only %s, pgbench %s\n' \
    "$(bmed ours-point-select)" "$(bmed sysbench)" "$(bmed ours-select-only)" "$(bmed pgbench)"
  pairs ours-point-select sysbench | ratio --label "  alone, point-select, loadgen / sysbench oltp_point_select"
  pairs ours-select-only pgbench | ratio --label "  alone, select-only, loadgen / pgbench -S -M prepared"
  if [[ $no_record == on ]]; then
    pairs ours-point-select ours-no-record | ratio --label "  recording, tasks.csv on / off (--no-record)"
  fi
  for k in sysbench ours-point-select pgbench ours-select-only ours-no-record; do
    if [[ -n ${results[$k]:-} ]]; then
      printf '  runs %-18s %s (tps)\n  %-23s %s (client busy %% of its core)\n' "$k" "${results[$k]}" "" "${busy[$k]}"
    fi
  done
fi

# Client CPU per task at the same fixed arrival rate: robust to the machine's other load, and the
# direct measure of what a generator costs. CPU (user + system, all threads) is read from /proc
# over BENCH_CPU_SECONDS, from WARMUP + 5 s after the start, i.e. after start-up, data checks and JIT.
cpu_rate=${BENCH_CPU_RATE:-10000}
cpu_window=${BENCH_CPU_SECONDS:-10}
# measure_cpu NAME COMMAND...: microseconds of client CPU per task at $cpu_rate tasks/s.
measure_cpu() {
  local name=$1
  shift
  "${pin_client[@]}" "$@" > /dev/null 2>&1 &
  local pid=$!
  sleep $((warmup + 5))
  local before
  before=$(cpu_ticks "$pid")
  sleep "$cpu_window"
  local after
  after=$(cpu_ticks "$pid")
  wait "$pid" || true
  if [[ -z $before || -z $after ]]; then
    printf '  %-28s ended before its window closed (see its output by running it alone)\n' "$name"
    return
  fi
  awk -v n="$name" -v d=$((after - before)) -v t="$ticks" -v r="$cpu_rate" -v w="$cpu_window" \
    'BEGIN { printf "  %-28s %6.1f us of client CPU per task (%.0f %% of one core)\n", n, d / t / (w * r) * 1e6, d / t / w * 100 }'
}
echo
echo "client CPU per task at $cpu_rate tasks/s ($clients connections, Poisson arrivals, ${cpu_window} s of steady state, $pinning)"
cpu_seconds=$((warmup + 6 + cpu_window))
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

(( soak_seconds > 0 )) || exit 0
echo
echo "== memory over a ${soak_seconds}s recorded point-select run (RSS and Java heap; should stay flat)" >&2
soak_out="$work/soak"
"${pin_client[@]}" "$benchlake" loadgen --jdbc-url "$url" --user postgres --workload point-select --skip-load \
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
