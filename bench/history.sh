#!/usr/bin/env bash
# Benchmark (not a test) of issue 29.2's goal: a history site of 200 dates x 50 steps opens in one
# page load of under 2 s. Writes the site of a seeded synthetic series (HistorySiteBench), then
# loads its index.html and one step's page in headless Chromium BENCH_LOADS times each, against an
# empty page loaded the same way in the same script (Chromium's own start-up), and prints the
# medians and the differences: the page's own load time. Also the site's size.
#   BENCH_DATES [200], BENCH_STEPS [50], BENCH_LOADS [5]
# Needs: chromium, Maven (builds the bench module).
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
dates=${BENCH_DATES:-200}
steps=${BENCH_STEPS:-50}
loads=${BENCH_LOADS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$root" && mvn -B -q -Pbench -pl bench -am -DskipTests package)
target="$root/bench/target"
java -cp "$(compgen -G "$target/benchlake-bench-*.jar" | grep -v -e -tests.jar | head -n 1):$target/lib/*" \
  dev.benchlake.bench.HistorySiteBench "$work/site" "$dates" "$steps"
echo "site size: $(du -sh "$work/site" | cut -f1), index.html $(du -h "$work/site/index.html" | cut -f1)," \
  "a step page $(du -h "$(ls "$work"/site/steps/*.html | head -n 1)" | cut -f1)"

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
echo '<!DOCTYPE html><html><body>empty</body></html>' > "$work/empty.html"
median_load() { # file -> median wall seconds of a headless load to the DOM
  local file=$1 times=()
  for _ in $(seq "$loads"); do
    local s e
    s=$(date +%s.%N)
    "$browser" --headless --no-sandbox --disable-gpu --dump-dom "file://$file" > /dev/null 2>&1
    e=$(date +%s.%N)
    times+=("$(echo "$e - $s" | bc)")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
empty=$(median_load "$work/empty.html")
index=$(median_load "$work/site/index.html")
step=$(median_load "$(ls "$work"/site/steps/*.html | head -n 1)")
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'Chromium headless load to DOM, median of %d: empty page %.2f s, index.html %.2f s (+%.2f s), a step page %.2f s (+%.2f s)\n' \
  "$loads" "$empty" "$index" "$(echo "$index - $empty" | bc)" "$step" "$(echo "$step - $empty" | bc)"
