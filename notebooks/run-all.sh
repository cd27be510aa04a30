#!/usr/bin/env bash
# Executes every notebook in notebooks/ headless, top to bottom, as a new user would run them:
# a failing cell fails this script (exit 1). Prints each notebook's run time. The executed copies
# (with outputs) go to a temporary folder, or to --output-dir DIR; the committed notebooks stay
# without outputs.
# Needs the built launcher (mvn -DskipTests package, or mvn verify) and Debian's jupyter-nbconvert,
# python3-ipykernel, python3-pandas and python3-matplotlib.
# Exit codes: 0 every notebook ran, 1 a cell failed (its error is printed above), 2 nothing could run
# (no jupyter, no python3 kernel, benchlake not built).
#   notebooks/run-all.sh [--output-dir DIR] [NOTEBOOK.ipynb…]
set -euo pipefail

notebooks_dir=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
root=$(dirname "$notebooks_dir")

output_dir=""
if [[ ${1:-} == --output-dir ]]; then
  output_dir=$2
  shift 2
fi
if [[ -z $output_dir ]]; then
  output_dir=$(mktemp -d)
  trap 'rm -rf "$output_dir"' EXIT
fi
mkdir -p "$output_dir"

if (($#)); then notebooks=("$@"); else notebooks=("$notebooks_dir"/*.ipynb); fi

# Debian's jupyter (/usr/bin/python3 and its packages), even when another Python with its own
# jupyter comes first on PATH; BENCHLAKE_JUPYTER names another.
jupyter=${BENCHLAKE_JUPYTER:-/usr/bin/jupyter}
[[ -x $jupyter || -n ${BENCHLAKE_JUPYTER:-} ]] || jupyter=jupyter
# What the notebooks need, checked before any of them runs: a missing tool is not a failing cell.
debian_packages="jupyter-nbconvert python3-ipykernel python3-pandas python3-matplotlib"
if ! "$jupyter" nbconvert --version > /dev/null 2>&1; then
  echo "run-all.sh: no jupyter nbconvert ($jupyter); install $debian_packages; no notebook was run" >&2
  exit 2
fi
# The kernel runs the Python that jupyter itself runs on (its script's #! line).
python=$(head -n 1 "$(command -v "$jupyter")" | sed -n 's/^#! *//p' | cut -d' ' -f1)
if ! "${python:-python3}" -c 'import ipykernel, pandas, matplotlib' > /dev/null 2>&1; then
  echo "run-all.sh: ${python:-python3} lacks ipykernel, pandas or matplotlib; install $debian_packages; no notebook was run" >&2
  exit 2
fi

# The launcher says how to build benchlake when it is not built yet.
"$root/bin/benchlake" --version > /dev/null || { echo "run-all.sh: no notebook was run" >&2; exit 2; }
export PYDEVD_DISABLE_FILE_VALIDATION=1   # silences ipykernel's debugger warning about frozen modules
failed=()
for notebook in "${notebooks[@]}"; do
  name=$(basename "$notebook")
  started=$EPOCHREALTIME
  if "$jupyter" nbconvert --to notebook --execute --ExecutePreprocessor.timeout=900 \
      --output-dir "$output_dir" --log-level WARN "$notebook"; then
    status=ok
  else
    status=FAILED
    failed+=("$name")
  fi
  printf '%-40s %-6s %6.1f s\n' "$name" "$status" "$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"
done

if ((${#failed[@]})); then
  echo "run-all.sh: failing notebook(s), each with its error above (the failing cell, or why it could not run): ${failed[*]}" >&2
  exit 1
fi
