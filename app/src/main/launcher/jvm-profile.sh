# Sourced by bin/benchlake (and LauncherProfileTest): which JVM suits the command about to run.
#
# A command that starts no Spark session (usage, version, and the Delta Kernel reads: runs,
# rejects, verify, export of any table but tasks) lives a second or two. For such a JVM, C2's compiles
# cost more CPU than they ever return (on 2 cores they compete with the command itself), and a
# parallel collector's threads and large heap regions are set-up for nothing: C1 only and the
# serial collector start it measurably sooner (bench/startup.sh). Everything else (Spark
# commands, batch, loadgen, quickstart, study) keeps the JVM's defaults: their hot loops need C2.
# Getting it wrong costs speed only, never a result, so when in doubt a command is long-lived.
# loadgen alone gets flags of its own: it is a load generator sharing the CPUs with the server it
# measures, so its CPU per task is what it must keep low (bench/loadgen.sh).

# The flags of a short-lived JVM.
short_lived_jvm_flags=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC)

# The flags of `benchlake loadgen` (not of quickstart or study, which run Spark too). Measured with
# bench/loadgen.sh's fixed-rate CPU per task: the serial collector's allocation and write barriers
# are cheaper than G1's for a heap that holds almost nothing for long; the classic socket
# implementation reads with a timeout as poll + recv in native code, where NIO's takes a
# non-blocking read that fails, a poll and a second read, plus locks and a direct-buffer copy in
# Java (JDK 17 still has it; a JDK without it ignores the property). A collector named in
# BENCHLAKE_JAVA_OPTS wins: the JVM refuses to start with two. The metaspace's first collection
# threshold is raised above what loadgen ever holds (about 4,300 classes): at the default, 21 MB, a
# JVM that runs for minutes (a duet side, kept for the whole study; a long run) reached it 187-216 s
# in, and the full collection it triggers threw out 540-950 compiled methods at once
# (-XX:+LogCompilation), so the side ran on partly interpreted: in two of three quickstarts so
# logged (2026-12-05) that round's select-update log ratio was off by 0.18 and 0.34 (docs/log.md).
# Its JIT compiles at a fifth of the default thresholds: a duet side's select-update burst is 1,200
# tasks, so after the three warm-up passes neither its task code (C2 after about 15,000 calls) nor
# what runs once per run (a pool's and its threads' start) had reached C2, and those compiles fell
# in rounds 1-4's windows on one side's one CPU: the side's JVM used up to 1.6 CPU-s in a burst
# against 1.05 on the other, and the round's log ratio was off by 0.17-0.49. At 0.2 the early
# rounds came out within 0.05 (docs/log.md).
loadgen_jvm_flags=(-Djdk.net.usePlainSocketImpl=true -XX:MetaspaceSize=128m -XX:CompileThresholdScaling=0.2)
[[ ${BENCHLAKE_JAVA_OPTS:-} == *-XX:+Use*GC* ]] || loadgen_jvm_flags+=(-XX:+UseSerialGC)

# loadgen_command ARGS…: whether benchlake ARGS… is the loadgen command.
loadgen_command() {
  local arg
  for arg in "$@"; do
    if [[ $arg != -* ]]; then
      [[ $arg == loadgen ]]
      return
    fi
  done
  return 1
}

# short_lived ARGS…: whether benchlake ARGS… starts no Spark session.
short_lived() {
  local arg command="" table="" previous=""
  for arg in "$@"; do
    case $arg in
      # Spark asked for: runs, rejects and export read through Spark then (SparkOptions).
      --master | --master=* | --conf | --conf=*) return 1 ;;
    esac
  done
  [[ ${BENCHLAKE_JAVA_OPTS:-} != *-Dspark.master=* ]] || return 1
  for arg in "$@"; do
    if [[ -z $command && $arg != -* ]]; then
      command=$arg
    elif [[ $previous == --table ]]; then
      table=$arg
    elif [[ $arg == --table=* ]]; then
      table=${arg#--table=}
    fi
    previous=$arg
  done
  case $command in
    "" | help | runs | rejects | verify) return 0 ;;
    export) [[ -n $table && $table != tasks ]] ;;
    *) return 1 ;;
  esac
}
