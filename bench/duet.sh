#!/usr/bin/env bash
# Benchmark of the duet design (a benchmark, not a test): does measuring both sides at the same
# moment decide what runs taken one after another cannot? Issue 28's goals, on this machine:
#   - the duet's 95 % half-width of the per-round ratio <= 2.5 % on every step;
#   - its a/a control within +-1 %;
#   - a deliberate handicap on one side detected in the right direction.
#
# 1. Sequential against duet, in about the same wall time: the quickstart's 5 steps (select-update
#    and 4 sysbench steps) on PostgreSQL 14 against 17, first as today (`quickstart --design interleaved`: 5 + 5
#    runs, the majors alternating), then as a duet (`quickstart --design duet --no-until-decided`: BENCH_DUET_ROUNDS rounds
#    and BENCH_AA_ROUNDS a/a rounds, both sides at once, each on half of the CPUs). Per step, for
#    compare's two figures (median latency, throughput): the SD of the per-round log ratio and the
#    95 % half-width of the paired interval, side by side (bench/duet_figures.py; the sequential
#    design's Welch half-width too, its proper analysis); the duet's a/a rounds the same way.
# 2. A handicap: `study ab` of PostgreSQL 17 against itself with side b's commits delayed
#    (commit_delay=BENCH_COMMIT_DELAY_US with commit_siblings=0: every commit waits that long
#    before its WAL flush), a duet of the quickstart's sysbench steps: the write steps must come
#    out slower on side b, the reads about 1.
# 3. Interference: how much one side slows the other through what they share (the disk, caches,
#    memory bandwidth). Side a runs point-select (then insert) on CPU set one with its own embedded
#    server while side b, on set two with its own server, does nothing, the same reads, or inserts
#    (every commit an fsync of the WAL on the one disk); side a's ok/s in each case, interleaved
#    rounds (BENCH_INTERFERENCE_ROUNDS), medians and the ratio to "nothing".
#
# Knobs (environment), defaults in brackets (about 30 min on a busy 2-core machine):
#   BENCH_DUET_ROUNDS [5], BENCH_AA_ROUNDS [2]   the duet quickstart's rounds (each round: 2 pairs)
#   BENCH_HANDICAP_ROUNDS [4]                    the handicap study's rounds (+ its 2 a/a rounds)
#   BENCH_COMMIT_DELAY_US [2000]                 the handicap
#   BENCH_INTERFERENCE_ROUNDS [3]                0 skips part 3
#   BENCH_SKIP_SEQUENTIAL [off]                  on: skip the sequential quickstart (part 1's duet only)
#   BENCH_PARTS ["1 2 3"]                        which parts run
# (The "shared" experiment, both sides on all CPUs, needed a hidden property in benchlake itself: it was
# retired with that property in issue 45; its results are in docs/designs.md.)
# Needs: bin/benchlake built (mvn -q -DskipTests package), taskset, python3 with numpy and scipy.
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
root=$(dirname "$here")
benchlake="$root/bin/benchlake"
duet_rounds=${BENCH_DUET_ROUNDS:-5}
aa_rounds=${BENCH_AA_ROUNDS:-2}
handicap_rounds=${BENCH_HANDICAP_ROUNDS:-4}
commit_delay=${BENCH_COMMIT_DELAY_US:-2000}
interference_rounds=${BENCH_INTERFERENCE_ROUNDS:-3}

for tool in taskset python3; do
  command -v "$tool" > /dev/null || { echo "bench/duet.sh needs $tool on PATH" >&2; exit 1; }
done
python3 "$here/duet_figures.py" --self-check > /dev/null || { echo "bench/duet_figures.py --self-check failed" >&2; exit 1; }
(( $(nproc) >= 2 )) || { echo "bench/duet.sh needs 2 CPUs or more (a duet runs one side on each half)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/duet-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "duet benchmark: $(nproc) CPUs, load average $(load) at the start; work in $work"

# timed NAME COMMAND...: runs COMMAND, its stderr to $work/NAME.err; prints the seconds of its load
# phase (to its "ingesting" line) and of the whole command.
timed() {
  local name=$1
  shift
  local start load_end=""
  start=$(date +%s.%N)
  "$@" > "$work/$name.out" 2> >(while IFS= read -r line; do
    printf '%s\n' "$line"
    if [[ -z $load_end && $line == *": ingesting "* ]]; then
      load_end=$(date +%s.%N)
      echo "$load_end" > "$work/$name.load-end"
    fi
  done > "$work/$name.err")
  local end
  end=$(date +%s.%N)
  sleep 1
  awk -v s="$start" -v e="$end" -v l="$(cat "$work/$name.load-end" 2> /dev/null || echo "$end")" \
    'BEGIN { printf "%.0f %.0f\n", l - s, e - s }'
}

parts=" ${BENCH_PARTS:-1 2 3} "

if [[ $parts == *" 1 "* ]]; then
echo
echo "== 1. the quickstart's 5 steps, PostgreSQL 14 against 17 (load average $(load))"
if [[ ${BENCH_SKIP_SEQUENTIAL:-off} != on ]]; then
  read -r seq_load seq_all < <(timed sequential "$benchlake" quickstart --design interleaved --rounds 5 --out "$work/sequential")
  echo "   sequential (today's quickstart, 5 + 5 runs): load ${seq_load} s, whole command ${seq_all} s (load average $(load))"
fi
read -r duet_load duet_all < <(timed duet "$benchlake" quickstart --design duet --no-until-decided --rounds "$duet_rounds" \
  --aa-rounds "$aa_rounds" --out "$work/duet")
echo "   duet ($duet_rounds rounds + $aa_rounds a/a rounds, both sides at once): load ${duet_load} s, whole command" \
  "${duet_all} s (load average $(load))"
echo
if [[ ${BENCH_SKIP_SEQUENTIAL:-off} != on ]]; then
  python3 "$here/duet_figures.py" "$work/sequential"
  echo
fi
python3 "$here/duet_figures.py" "$work/duet"
echo
python3 "$here/duet_figures.py" "$work/duet" --control aa
echo "   (a/a: both sides PostgreSQL 14; the goal: every ratio within +-1 %)"
fi

if [[ $parts == *" 2 "* ]]; then
echo
echo "== 2. handicap: PostgreSQL 17 against itself, side b with commit_delay=${commit_delay} us (load average $(load))"
read -r h_load h_all < <(timed handicap "$benchlake" study ab --a-pg 17 --b-pg 17 --b-setting "commit_delay=$commit_delay" \
  --b-setting commit_siblings=0 --steps point-select,read-only,update-index,insert --clients 4 --duration 2s \
  --warmup 500ms --rounds "$handicap_rounds" --aa-rounds 2 --seed 28 --out "$work/handicap")
echo "   load ${h_load} s, whole command ${h_all} s"
python3 "$here/duet_figures.py" "$work/handicap"
echo "   (should be: update-index and insert slower on side b -- latency ratio > 1, throughput < 1 -- reads about 1)"
python3 "$here/duet_figures.py" "$work/handicap" --control aa
fi

[[ $parts == *" 3 "* ]] && (( interference_rounds > 0 )) || exit 0
echo
echo "== 3. interference: side a on CPU set one, side b on set two, each its own embedded PostgreSQL 17 (load average $(load))"
read -r one two < <(python3 -c "
import os
cpus = sorted(os.sched_getaffinity(0)); h = len(cpus) // 2
fmt = lambda c: ','.join(map(str, c))
print(fmt(cpus[:h]), fmt(cpus[h:]))")
# side_a WORKLOAD: ok/s of side a's measured window (its summary's ok/s column).
side_a() {
  local out="$work/ia-$RANDOM$RANDOM"
  taskset -c "$one" "$benchlake" loadgen --pg-version 17 --workload "$1" --clients 4 --table-size 10000 \
    --duration 8s --warmup 3s --quiet --out "$out" > "$work/ia.out" 2> "$work/ia.err"
  awk -v step="$1" '$1 == step { print $5 }' "$work/ia.out"
  rm -rf "$out"
}
# with_b WORKLOAD A_WORKLOAD: side b runs WORKLOAD (or nothing) long enough to cover side a's run.
with_b() {
  local b=$1 a=$2 pid="" out="$work/ib-$RANDOM$RANDOM"
  if [[ $b != none ]]; then
    taskset -c "$two" "$benchlake" loadgen --pg-version 17 --workload "$b" --clients 4 --table-size 10000 \
      --duration 60s --quiet --out "$out" > /dev/null 2> "$work/ib.err" &
    pid=$!
    sleep 8  # its JVM, server and load: side a's own start-up then adds a few seconds more
  fi
  side_a "$a"
  if [[ -n $pid ]]; then
    kill -TERM "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    rm -rf "$out"
  fi
}
declare -A tps
for r in $(seq 1 "$interference_rounds"); do
  for pair in "none point-select" "point-select point-select" "insert point-select" "none insert" "insert insert"; do
    read -r b a <<< "$pair"
    v=$(with_b "$b" "$a")
    tps["$a|$b"]+="$v "
    printf '   round %d: side a %-12s side b %-12s %10s ok/s (load average %s)\n' "$r" "$a" "$b" "$v" "$(load)"
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "   medians of side a's ok/s, and the ratio to side b doing nothing:"
for a in point-select insert; do
  base=$(median <<< "${tps["$a|none"]}")
  for b in none point-select insert; do
    [[ -n ${tps["$a|$b"]:-} ]] || continue
    m=$(median <<< "${tps["$a|$b"]}")
    awk -v a="$a" -v b="$b" -v m="$m" -v base="$base" \
      'BEGIN { printf "     side a %-12s while side b %-12s %10.1f ok/s  %.3f\n", a, (b == "none" ? "does nothing" : b), m, m / base }'
  done
done
echo "load average at the end: $(load)"
