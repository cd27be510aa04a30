#!/usr/bin/env bash
# Writes the frozen compatibility fixtures of the benchlake release that is built in this tree:
#   app/src/test/compat/<version>/run/        one raw loadgen run folder (manifest.json + tasks.csv)
#   app/src/test/compat/<version>/warehouse/  a small warehouse: loadgen runs on two majors, real
#                                             pgbench and sysbench output, a file with rejects
#   app/src/test/compat/<version>/expected/   what that release's own `runs` and `export` said
# Run it once per release, on that release's build, before any change to the warehouse or run
# format lands; never re-run it for an older release (its fixtures are what that release wrote).
#   usage: app/src/test/compat/make-fixtures.sh VERSION     e.g. 0.1.0
set -euo pipefail
version=${1:?usage: make-fixtures.sh VERSION}
root=$(cd "$(dirname "$0")/../../../.." && pwd)
out=$root/app/src/test/compat/$version
[[ -e $out ]] && { echo "make-fixtures.sh: $out exists; fixtures are frozen, never rewritten" >&2; exit 2; }
bl=$root/bin/benchlake
fixtures=$root/ingest/src/test/resources/dev/benchlake/ingest/fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Four small open-loop loadgen runs, two on each of PostgreSQL 14 and 17 (interleaved), two steps.
for i in 1 2; do
  for major in 14 17; do
    "$bl" loadgen --quiet --pg-version "$major" --workload sysbench --steps point-select,insert \
      --rate 400 --duration 1s --random-seed "$i$major" --run-id "compat-pg$major-$i" \
      --label os=linux --label campaign=compat --out "$work/runs/pg$major-$i"
  done
done

# Third-party results: real pgbench and sysbench output (the ingest module's fixtures), and a
# pgbench log with bad lines in it, so that the warehouse holds rejects.
mkdir -p "$work/third" "$work/bad"
cp "$fixtures/pgbench_log.4242" "$fixtures/pgbench_log.4242.1" "$work/third/"
cp "$fixtures/oltp_point_select.txt" "$fixtures/pgbench15-progress.txt" "$work/third/"
{ head -n 20 "$fixtures/pgbench_retries.4242"; echo "0 21 not-a-number 0 1700000000 1"
  echo "garbage line"; sed -n '21,40p' "$fixtures/pgbench_retries.4242"; echo "0 41 -5"; } > "$work/bad/pgbench_bad.4242"

wh=$out/warehouse
mkdir -p "$out"
"$bl" ingest --warehouse "$wh" "$work"/runs/*
"$bl" ingest --warehouse "$wh" --label os=linux --label db_major=15 --format pgbench-log "$work/third/pgbench_log.4242"
"$bl" ingest --warehouse "$wh" --label db_major=14 --step oltp_point_select "$work/third/oltp_point_select.txt"
"$bl" ingest --warehouse "$wh" --label db_major=15 "$work/third/pgbench15-progress.txt"
"$bl" ingest --warehouse "$wh" --label db_major=15 --format pgbench-log "$work/bad/pgbench_bad.4242"
# From 0.3.0: a mytools result tree (two rounds of PostgreSQL 14 and 16, real sysbench 1.0.20), as
# that release stored it (issue 26 changes how its folders become runs: old warehouses keep theirs).
if [[ $version != 0.1.0 && $version != 0.2.0 ]]; then
  cp -r "$fixtures/mytools" "$work/mytools"
  "$bl" ingest --warehouse "$wh" --label campaign=compat-mytools --label-from-path '/r(?<round>[0-9]+)/' "$work/mytools"
fi
rm -rf "$wh/_locks"

cp -r "$work/runs/pg14-1" "$out/run"

mkdir -p "$out/expected"
"$bl" --version > "$out/expected/version.txt"
"$bl" runs --warehouse "$wh" --json > "$out/expected/runs.json"
for table in runs tasks step_metrics rejects ingest_files; do
  "$bl" export --warehouse "$wh" --table "$table" --format jsonl --out "$out/expected/$table.jsonl"
done
echo "fixtures of $version written to $out" >&2
