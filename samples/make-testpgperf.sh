#!/usr/bin/env bash
# Makes samples/testpgperf/: a TestPostgresqlPerf result (details.<guid>.txt and summary.<guid>.txt)
# from a real loadgen run of the same workload here. The 2016 study's client is a .NET program that
# does not run on this machine; loadgen's select-update is that client's task (loadgen/README.md),
# and its tasks.csv has every figure the client's files hold, so this writes them in its layout.
#
#   samples/make-testpgperf.sh [OUT_DIR]        (default: samples/testpgperf; needs the build)
#
# The run: embedded PostgreSQL 14, select-update, one burst of 300 tasks through a pool of 20
# connections, table_a at --scale 0.01 (10,000 rows). Each task becomes a details line as the client
# wrote it: the application GUID (the run id), the tasks still in flight when it ended, its duration
# from the burst's start (the intended start: the client submitted every task at once) in .NET
# ticks of 100 ns, and its end as a UTC time of day (HH:MM:SS, no date: ingest takes the day from
# --label date=); a failed task is -1 and 00:00:00. The summary repeats the client's counters, its
# minimum, maximum and average durations (.NET's hh:mm:ss.fffffff), and one line per failed task's
# message. CRLF line ends, as the client wrote them.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
out=${1:-$root/samples/testpgperf}
work=$(mktemp -d /tmp/benchlake-testpgperf.XXXXXX)
trap 'rm -rf "$work"' EXIT

BENCHLAKE_LOG_LEVEL=warn "$root/bin/benchlake" loadgen --pg-version 14 --workload select-update \
  --tasks 300 --burst 300 --pool 20 --scale 0.01 --out "$work/run" >&2
mkdir -p "$out"
python3 - "$work/run" "$out" <<'EOF'
import csv, datetime, json, sys
run, out = sys.argv[1], sys.argv[2]
manifest = json.load(open(f"{run}/manifest.json"))
guid, origin = manifest["run_id"], manifest["origin_epoch_ns"]
tasks = [t for t in csv.DictReader(open(f"{run}/tasks.csv")) if t["warmup"] == "false"]
ends = sorted(int(t["end_ns"]) for t in tasks)
lines, durations, errors = [], [], []
for t in tasks:
    end = int(t["end_ns"])
    if t["ok"] != "true":
        lines.append(f"{guid}\t{len(tasks)}\t-1\t00:00:00")
        errors.append(t["error"] or t["sqlstate"])
        continue
    ticks = (end - int(t["intended_start_ns"])) // 100
    in_flight = sum(1 for e in ends if e > end)
    clock = datetime.datetime.fromtimestamp((origin + end) / 1e9, datetime.timezone.utc)
    lines.append(f"{guid}\t{in_flight}\t{ticks}\t{clock:%H:%M:%S}")
    durations.append(ticks)

def span(ticks):
    seconds, rest = divmod(ticks, 10_000_000)
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{rest:07d}"

summary = [guid, "Rung\tFinshd\tTotal\tTimeout\tError\tExClient",
           f"0000\t{len(tasks):04d}\t{len(tasks):04d}\t0000\t{len(errors):04d}\t0000",
           f"Minimum Duration:{span(min(durations))}", f"Maximum Duration:{span(max(durations))}",
           f"Average Duration:{span(sum(durations) // len(durations))}"] + errors
with open(f"{out}/details.{guid}.txt", "w", newline="") as f:
    f.write("".join(l + "\r\n" for l in lines))
with open(f"{out}/summary.{guid}.txt", "w", newline="") as f:
    f.write("".join(l + "\r\n" for l in summary))
print(f"{out}/details.{guid}.txt: {len(tasks)} tasks, {len(errors)} failed")
EOF
