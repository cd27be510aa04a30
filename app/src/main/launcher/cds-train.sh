#!/usr/bin/env bash
# Builds app/target/launcher/benchlake.jsa, the class-data-sharing archive bin/benchlake starts
# with (AppCDS, Java 17: -XX:ArchiveClassesAtExit): the classes a few real commands load, already
# parsed and verified, so that a JVM maps them instead of loading ~20,000 classes from jars.
# Run by `mvn package` (app's pom, after the launcher's classpath is in place); skip it with
# -Dbenchlake.cds.skip=true. The training never fails the build: without an archive, or with a
# stale one (the JVM checks each jar's size and time), bin/benchlake starts as before.
#   cds-train.sh REPO_ROOT
set -uo pipefail

root=$(cd "$1" && pwd)
target="$root/app/target"
work="$target/cds-training"
archive="$target/launcher/benchlake.jsa"
rm -rf "$work" "$archive"
mkdir -p "$work"
fixtures="$root/ingest/src/test/resources/dev/benchlake/ingest/fixtures"
# A copy of the frozen 0.1.0 warehouse (never the fixture itself): runs of two majors with tasks.
cp -r "$root/app/src/test/compat/0.1.0/warehouse" "$work/wh010"
mkdir -p "$work/pg14" "$work/pg15"
cp "$fixtures/oltp_point_select.txt" "$work/pg14/"
# A trailing blank line makes it another source (ingest recognises content already ingested).
{ cat "$fixtures/oltp_point_select.txt"; echo; } > "$work/pg15/oltp_point_select.txt"

# What a user's first commands load: ingest (Spark, Delta writes), compare and trend (Spark SQL,
# the statistics, the reports), export of tasks (a Spark read), the Kernel reads, verify.
cat > "$work/training.batch" <<BATCH
ingest --warehouse $work/wh --label db_major=14 $work/pg14
ingest --warehouse $work/wh --label db_major=15 $work/pg15
compare --warehouse $work/wh010 --baseline db_major=14 --candidate db_major=17 --out $work/compare
trend --warehouse $work/wh --by db_major --base 14 --metric qps --out $work/trend
export --warehouse $work/wh010 --table tasks --out $work/tasks.csv
runs --warehouse $work/wh
export --warehouse $work/wh --table runs --out $work/runs.csv
verify --warehouse $work/wh010
BATCH

# The training JVMs compile with C1 only (TieredStopAtLevel=1): an archive holds the classes a run
# loaded, whichever compiler ran their code, and C2's compiles of eight short commands were CPU that
# returned nothing (on 2 cores, taken from the build beside it).
started=$SECONDS
if BENCHLAKE_CDS=off BENCHLAKE_LOG_LEVEL=warn \
    BENCHLAKE_JAVA_OPTS="-XX:ArchiveClassesAtExit=$archive -XX:TieredStopAtLevel=1 -Xlog:cds=error -Xlog:cds+dynamic=error ${BENCHLAKE_JAVA_OPTS:-}" \
    "$root/bin/benchlake" batch --keep-going "$work/training.batch" > "$work/training.out" 2> "$work/training.err" \
    && [[ -s $archive ]]; then
  echo "cds-train.sh: $archive ($(( $(stat -c %s "$archive") / 1048576 )) MB, $((SECONDS - started)) s of training)"
else
  echo "cds-train.sh: no class-data-sharing archive (bin/benchlake works without it, only starts slower); see $work/training.err" >&2
  rm -f "$archive"
fi

# The archive of a duet's sides: loadgen JVMs that a study starts on loadgen's part of the launcher's
# class path (LoadgenClassPath), one per side and round, each on one CPU beside its server, where
# loading ~4,000 classes from jars is more than a second of the round. A static archive (a JVM
# dumps one run's classes at its exit; a side runs either workload) of the classes a side's session
# loads running a select-update run and a sysbench run on embedded servers, as a side runs them but
# without a barrier.
side_archive="$target/launcher/loadgen-side.jsa"
rm -f "$side_archive"
started=$SECONDS
java_cmd=java
[[ -z ${JAVA_HOME:-} ]] || java_cmd="$JAVA_HOME/bin/java"
source "$target/launcher/jvm-profile.sh"
side_trained() {
  trap "" PIPE # a side that died early: its exit code tells, not a write to its stdin
  local side_cp
  side_cp=$("$java_cmd" -cp "$target/$(cat "$target/launcher/app-jar"):$target/lib/*" \
    dev.benchlake.loadgen.LoadgenClassPath) || return 1
  local side=("$java_cmd" "${loadgen_jvm_flags[@]}" -cp "$side_cp")
  local main=dev.benchlake.loadgen.LoadgenMain
  # One session, as a side runs it (SideProcess): a run's options on stdin, one line, the next only
  # after its "done" line, then the end line; stdin stays open meanwhile (a side stops a run whose
  # stdin ends: its holder died).
  coproc session { "${side[@]}" -XX:TieredStopAtLevel=1 -XX:DumpLoadedClassList="$work/side.classes" $main --session stdio; }
  local pid=$session_PID to=${session[1]} from=${session[0]} run line
  for run in \
    'run ["--workload","select-update","--scale","0.02","--burst","400","--pool","20","--tasks","400","--out","'"$work"'/side-select-update","--quiet"]' \
    'run ["--workload","sysbench","--steps","point-select,read-only,update-index,insert","--tables","1","--table-size","1000","--duration","200ms","--warmup","0s","--out","'"$work"'/side-sysbench","--quiet"]'; do
    printf '%s\n' "$run" >&"$to"
    while IFS= read -r line <&"$from"; do
      echo "$line"
      [[ $line == "benchlake-session done" ]] && continue 2
    done
    break # the side ended before the run did: its exit code tells
  done
  echo "benchlake-session end" >&"$to" 2> /dev/null
  eval "exec $to>&-"
  wait "$pid" \
    && "${side[@]}" -Xshare:dump -XX:SharedClassListFile="$work/side.classes" -XX:SharedArchiveFile="$side_archive" \
    && [[ -s $side_archive ]]
}
if side_trained > "$work/side-training.out" 2> "$work/side-training.err"; then
  echo "cds-train.sh: $side_archive ($(( $(stat -c %s "$side_archive") / 1048576 )) MB, $((SECONDS - started)) s of training)"
else
  echo "cds-train.sh: no class-data-sharing archive for a duet's sides (they work without it, only start slower); see $work/side-training.err" >&2
  rm -f "$side_archive"
fi
exit 0
