#!/usr/bin/env bash
# Benchmark: the whole pipeline at two sizes, to see how each stage scales with the task count.
#
#   bench/scale.sh [--sizes 10M,100M] [--runs 20] [--steps 10] [--dir D] [--ingest folder|per-run]
#                  [--quick] [--cluster | --cluster-only] [--keep] [--skip-ingest]
#
# Per size, --runs loadgen run directories (manifest.json + tasks.csv, written by the bench
# module's GenerateRuns through core's TaskCsv, streaming) hold size/runs tasks each over --steps
# steps; half the runs are labelled os=a, half os=b, and they carry a version label 1.0 … 1.3.
# Only the tasks per run change between sizes (20 × 500k at 10M, 20 × 5M at 100M). Stages, each
# a fresh bin/benchlake process with its default heap (no -Xmx or tuning flag is added):
#   ingest   one `benchlake ingest` of the folder of runs (--ingest per-run: one per run, summed)
#   compare  os=a vs os=b (10 vs 10 runs, 10 steps)
#   trend    p99_s by version
# Prints wall time and peak RSS (/usr/bin/time -v "Maximum resident set size") per stage and size,
# the ratio time(largest)/time(smallest) per stage (goal <= 1.1 × the size ratio, i.e. <= 11 for
# 10M → 100M), and the load average beside each stage (the machine may be shared).
#   --quick    sizes 1M,10M (minutes instead of an hour)
#   --cluster  also run the smallest size through spark-submit on a Spark standalone cluster (one
#              master, one worker on 127.0.0.1, laid out as StandaloneClusterIT does) and time it,
#              right after the same size in local mode (BENCH_WORKER_MEMORY, BENCH_EXECUTOR_MEMORY)
#   --cluster-only  the cluster run alone (no local stages)
#   --keep     keep the generated runs and warehouses (default: removed at the end)
#   --skip-ingest  compare and trend only, on the warehouses a run with --keep left
# Data goes under --dir (default /tmp/benchlake-scale): about 65 bytes per task of CSV and 30 of
# warehouse, ~10 GB at 100M. Needs a build:  mvn -B -q -DskipTests -Pbench package
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
sizes=10M,100M
runs=20
steps=10
dir=${BENCH_DIR:-/tmp/benchlake-scale}
ingest_mode=folder
cluster=false
local_runs=true
skip_ingest=false
keep=false
while [[ $# -gt 0 ]]; do
  case $1 in
    --sizes) sizes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --ingest) ingest_mode=$2; shift 2 ;;
    --quick) sizes=1M,10M; shift ;;
    --cluster) cluster=true; shift ;;
    --cluster-only) cluster=true; local_runs=false; shift ;;
    --keep) keep=true; shift ;;
    --skip-ingest) skip_ingest=true; shift ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $ingest_mode == folder || $ingest_mode == per-run ]] || { echo "--ingest is folder or per-run" >&2; exit 2; }

count() { # 10M -> 10000000
  python3 -c "import sys; s=sys.argv[1].upper(); m={'K':10**3,'M':10**6,'G':10**9}; print(int(float(s[:-1])*m[s[-1]]) if s[-1] in m else int(s))" "$1"
}
IFS=, read -r -a size_names <<< "$sizes"

bench_target="$root/bench/target"
app_target="$root/app/target"
bench_jar=$(compgen -G "$bench_target/benchlake-bench-*.jar" | grep -v -e -tests.jar | head -n 1 || true)
if [[ -z $bench_jar || ! -f "$app_target/launcher/app-jar" ]]; then
  echo "build first: (cd '$root' && mvn -B -q -DskipTests -Pbench package)" >&2
  exit 1
fi
read -r -a spark_flags < "$app_target/launcher/jvm.options"
export BENCHLAKE_LOG_LEVEL=${BENCHLAKE_LOG_LEVEL:-warn}
unset BENCHLAKE_JAVA_OPTS   # the default heap: what a user gets
mkdir -p "$dir"

need_gb=$(python3 -c "print(round(($(for s in "${size_names[@]}"; do printf '%s+' "$(count "$s")"; done)0) * 110 / 1e9, 1))")
free_gb=$(df -P -B1G "$dir" | awk 'NR == 2 { print $4 }')
echo "data under $dir: about $need_gb GB needed, $free_gb GB free"
if python3 -c "import sys; sys.exit(0 if $need_gb < $free_gb else 1)"; then :; else
  echo "not enough disk under $dir" >&2; exit 1
fi

results="$dir/results.$$.tsv"   # one per invocation: two may share --dir
: > "$results"
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

timed() { # NAME SIZE COMMAND... : runs it under /usr/bin/time -v, appends "size stage seconds rss_mb load"
  local stage=$1 size=$2; shift 2
  local log="$dir/$size-$stage.time" out="$dir/$size-$stage.out"
  local load_before; load_before=$(loadavg)
  if ! /usr/bin/time -v -o "$log" "$@" > "$out" 2>&1; then
    echo "$stage at $size failed; the last lines of $out:" >&2
    tail -n 30 "$out" >&2
    exit 1
  fi
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$log")
  printf '%s\t%s\t%s\t%s\t%s / %s\n' "$size" "$stage" "$wall" "$rss" "$load_before" "$(loadavg)" >> "$results"
  printf '  %-8s %-8s %8.1f s  %6s MB peak RSS   load %s -> %s\n' "$size" "$stage" "$wall" "$rss" "$load_before" "$(loadavg)"
}

pipeline() { # SIZE INPUT-SIZE RUNNER...   (RUNNER: the command words that run a benchlake command)
  local size=$1 input=$dir/runs-$2; shift 2
  rm -rf "$dir/report-$size" "$dir/trend-$size"
  if [[ $skip_ingest == true ]]; then
    [[ -d $dir/wh-$size ]] || { echo "--skip-ingest: no warehouse $dir/wh-$size" >&2; exit 1; }
  elif [[ $ingest_mode == per-run ]]; then
    rm -rf "$dir/wh-$size"
    # /usr/bin/time's peak RSS is then that of the largest of the ingests.
    timed ingest "$size" bash -c 'wh=$1 in=$2; shift 2; for run in "$in"/scale-*; do "$@" ingest --warehouse "$wh" "$run" || exit 1; done' \
      _ "$dir/wh-$size" "$input" "$@"
  else
    rm -rf "$dir/wh-$size"
    timed ingest "$size" "$@" ingest --warehouse "$dir/wh-$size" "$input"
  fi
  timed compare "$size" "$@" compare --warehouse "$dir/wh-$size" --baseline os=a --candidate os=b --out "$dir/report-$size"
  timed trend "$size" "$@" trend --warehouse "$dir/wh-$size" --by version --metric p99_s --out "$dir/trend-$size"
}

cluster_pipeline() { # SIZE: its runs must be generated
  local size=$1
  spark_home="$dir/spark-home"
  rm -rf "$spark_home" && mkdir -p "$spark_home/jars"
  for jar in "$app_target"/lib/*.jar; do
    case $(basename "$jar") in benchlake-*|delta-*|picocli-*) ;; *) ln -s "$jar" "$spark_home/jars/" ;; esac
  done
  port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
  master_port=$(port); master_web=$(port)
  export SPARK_HOME=$spark_home SPARK_SCALA_VERSION=2.13 SPARK_LOCAL_IP=127.0.0.1
  daemon() { exec java "${spark_flags[@]}" -Xmx1g -cp "$spark_home/jars/*" "$@"; }   # exec: $! is the JVM
  daemon org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$master_port" --webui-port "$master_web" \
    > "$dir/master.log" 2>&1 &
  master_pid=$!
  worker_pid=
  sampler_pid=
  stop_cluster() { kill ${sampler_pid:+"$sampler_pid"} "$master_pid" ${worker_pid:+"$worker_pid"} 2> /dev/null || true; }
  trap stop_cluster EXIT
  wait_json() { # PYTHON-CONDITION-ON-j
    for _ in $(seq 1 180); do
      if curl -fsS "http://127.0.0.1:$master_web/json/" 2> /dev/null | python3 -c "import json, sys; j = json.load(sys.stdin); sys.exit(0 if $1 else 1)" 2> /dev/null; then
        return 0
      fi
      sleep 0.5
    done
    echo "the standalone cluster did not start; see $dir/master.log, $dir/worker.log" >&2; exit 1
  }
  wait_json 'j["status"] == "ALIVE"'
  worker_memory=${BENCH_WORKER_MEMORY:-6g}
  daemon org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --cores "$(nproc)" --memory "$worker_memory" \
    --webui-port "$(port)" --work-dir "$dir/worker" "spark://127.0.0.1:$master_port" > "$dir/worker.log" 2>&1 &
  worker_pid=$!
  wait_json 'j["aliveworkers"] >= 1'
  submit=(java "${spark_flags[@]}" -cp "$spark_home/jars/*" org.apache.spark.deploy.SparkSubmit
    --master "spark://127.0.0.1:$master_port" --deploy-mode client --conf spark.driver.host=127.0.0.1
    --conf "spark.executor.memory=${BENCH_EXECUTOR_MEMORY:-4g}"
    --conf "spark.executor.extraJavaOptions=${spark_flags[*]}"
    --class dev.benchlake.app.SparkMain "$app_target/benchlake-spark.jar")
  # The executor's peak RSS, sampled each second (the driver's is what /usr/bin/time sees).
  sampler() {
    local peak=0 rss
    while :; do
      for pid in $(pgrep -f CoarseGrainedExecutorBackend || true); do
        rss=$(awk '/^VmRSS/ { print int($2 / 1024) }' "/proc/$pid/status" 2> /dev/null || echo 0)
        if (( ${rss:-0} > peak )); then peak=$rss; echo "$peak" > "$dir/executor-peak.mb"; fi
      done
      sleep 1
    done
  }
  echo 0 > "$dir/executor-peak.mb"
  sampler & sampler_pid=$!
  echo "== $size through spark-submit on a standalone cluster (spark://127.0.0.1:$master_port, worker $worker_memory, executor ${BENCH_EXECUTOR_MEMORY:-4g})"
  pipeline "$size-cluster" "$size" "${submit[@]}"
  apps=$(curl -fsS "http://127.0.0.1:$master_web/json/" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["completedapps"]))')
  echo "  the master lists $apps completed application(s); the executor's peak RSS over all stages: $(cat "$dir/executor-peak.mb") MB"
  kill "$sampler_pid" 2> /dev/null || true
  stop_cluster
  trap - EXIT
}

echo "benchlake scale: sizes $sizes, $runs runs x $steps steps, ingest per $ingest_mode, $(nproc) cores, load $(loadavg)"
for size in "${size_names[@]}"; do
  n=$(count "$size")
  per_run=$((n / runs))
  echo "== $size: $runs runs x $per_run tasks"
  timed generate "$size" java "${spark_flags[@]}" -cp "$bench_jar:$bench_target/lib/*" \
    dev.benchlake.bench.scale.GenerateRuns --dir "$dir/runs-$size" --runs "$runs" --tasks-per-run "$per_run" --steps "$steps"
  if [[ $local_runs == true ]]; then
    pipeline "$size" "$size" "$root/bin/benchlake"
    du -sh "$dir/runs-$size" "$dir/wh-$size" | sed 's/^/  size on disk: /'
  fi
  if [[ $cluster == true && $size == "${size_names[0]}" ]]; then
    cluster_pipeline "$size"   # before the larger sizes: its figure comes early in a long run
  fi
done


echo
python3 - "$results" "${size_names[0]}" "${size_names[-1]}" "$(count "${size_names[0]}")" "$(count "${size_names[-1]}")" <<'PY'
import sys, collections
path, small, large, n_small, n_large = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rows = collections.OrderedDict()
for line in open(path):
    size, stage, wall, rss, load = line.rstrip("\n").split("\t")
    rows[(size, stage)] = (float(wall), int(rss), load)
scale = n_large / n_small
goal = scale * 1.1
if small != large:
    print(f"{'stage':10} {small + ' s':>10} {small + ' MB':>9} {large + ' s':>10} {large + ' MB':>9} {'time x':>8} {'RSS x':>6}  goal <= {goal:g}")
for stage in ("generate", "ingest", "compare", "trend"):
    a, b = rows.get((small, stage)), rows.get((large, stage))
    if not a or not b or small == large:
        continue
    ratio = b[0] / a[0]
    print(f"{stage:10} {a[0]:10.1f} {a[1]:9d} {b[0]:10.1f} {b[1]:9d} {ratio:8.2f} {b[1] / a[1]:6.2f}  "
          + ("" if stage == "generate" else "ok" if ratio <= goal else "OVER"))
for stage in ("ingest", "compare", "trend"):
    c = rows.get((small + "-cluster", stage))
    if c:
        print(f"{stage + ' (spark-submit, ' + small + ')':32} {c[0]:8.1f} s  {c[1]:6d} MB driver RSS  load {c[2]}")
PY

if [[ $keep == false ]]; then
  for size in "${size_names[@]}"; do
    rm -rf "$dir/runs-$size" "$dir/wh-$size" "$dir/wh-$size-cluster"
  done
  rm -rf "$dir/spark-home" "$dir/worker"
fi
