#!/usr/bin/env bash
# The speed of benchlake's statistics engine against DuckDB and a plain Spark scan.
#   bench/compare.sh [--tasks 20000000] [--groups 10] [--repeat 5] [--dir /tmp/benchlake-bench]
# Builds the bench module (Maven profile "bench", never part of the product), generates the data
# once (a synthetic warehouse, Parquet files under Delta), then prints every timing and the ratios:
#   exact quantiles / DuckDB quantile_cont   (goal <= 2)
#   full 2-group compare / plain Spark scan  (goal <= 3)
#   BENCH_JAVA_OPTS  JVM options (default -Xmx8g)
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
(cd "$root" && mvn -B -q -Pbench -pl bench -am -DskipTests package)

target="$root/bench/target"
read -r -a spark_flags < "$target/launcher/jvm.options"
read -r -a extra_opts <<< "${BENCH_JAVA_OPTS:--Xmx8g}"
exec java "${spark_flags[@]}" "${extra_opts[@]}" \
  -Dlog4j2.configurationFile="$root/app/src/main/launcher/log4j2.properties" \
  -cp "$(compgen -G "$target/benchlake-bench-*.jar" | grep -v -e -tests.jar | head -n 1):$target/lib/*" \
  dev.benchlake.bench.CompareBenchmark "$@"
