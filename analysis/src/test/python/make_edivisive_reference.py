#!/usr/bin/python3
"""Reference values for benchlake's E-divisive statistic (analysis/stats/EDivisive), with numpy.

Writes analysis/src/test/resources/dev/benchlake/analysis/stats/edivisive.json: for a few series
(logs of per-run figures, some with a level shift), the divergence statistic Q of Matteson & James
(2014) with exponent 1 at every split that leaves two points a side, and the split where Q is
largest. The Java test compares against it and never runs Python.

Independence: nothing here calls benchlake, and Q is computed from its definition with numpy's
broadcasting over whole distance matrices (the Java code updates running sums instead):
    E = 2 mean|X - Y| - mean_{i<k}|X_i - X_k| - mean_{j<l}|Y_j - Y_l|,  Q = n m / (n + m) E.

Run from the repository root:  python3 analysis/src/test/python/make_edivisive_reference.py
The output is deterministic (fixed seed); commit it with any change to this script.
"""
import json
import os

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
OUT = os.path.join(ROOT, "analysis", "src", "test", "resources", "dev", "benchlake", "analysis", "stats",
                   "edivisive.json")


def within_mean(x):
    d = np.abs(x[:, None] - x[None, :])
    n = len(x)
    return d[np.triu_indices(n, 1)].mean()


def q(z, t):
    x, y = z[:t], z[t:]
    n, m = len(x), len(y)
    between = np.abs(x[:, None] - y[None, :]).mean()
    e = 2 * between - within_mean(x) - within_mean(y)
    return n * m / (n + m) * e


def case(name, z):
    z = np.asarray(z, dtype=np.float64)
    splits = list(range(2, len(z) - 1))
    qs = [float(q(z, t)) for t in splits]
    return {"name": name, "series": [float(v) for v in z], "splits": splits, "q": qs,
            "best": splits[int(np.argmax(qs))]}


def main():
    rng = np.random.default_rng(20261201)
    cases = [
        case("tiny", [0.0, 1.0, 3.0, 6.0]),
        case("ties", [1.0, 1.0, 1.0, 2.0, 2.0, 2.0]),
        case("drop_15pct_at_9", np.log(np.r_[np.full(9, 1000.0), np.full(6, 850.0)]) + rng.normal(0, 0.03, 15)),
        case("noise", rng.normal(0, 0.1, 20)),
        case("ramp", -0.03 * np.repeat(np.arange(8), 3) + rng.normal(0, 0.02, 24)),
    ]
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"generator": "make_edivisive_reference.py", "numpy": np.__version__, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
