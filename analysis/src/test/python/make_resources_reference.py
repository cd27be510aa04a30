#!/usr/bin/python3
"""Reference values for the per-operation resource figures (issue 48 item 3), computed independently
with numpy and scipy.

Writes analysis/src/test/resources/dev/benchlake/analysis/report/resources_reference.json, which
ResourceFiguresTest compares against (the test never runs Python). Run from the repository root:
    /usr/bin/python3 analysis/src/test/python/make_resources_reference.py

Definitions (nothing here calls benchlake): a side's level is the geometric mean of its runs'
figures; unpaired θ is the ratio of the geometric means with Welch's t interval on the logs; paired
(least squares) θ is exp of the mean per-pair log ratio with the one-sample t interval; the change in
the figure's unit is the baseline's level times (θ − 1), its interval likewise.
"""
import json
import math
import os

import numpy as np
from scipy import stats

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
OUT = os.path.join(ROOT, "analysis", "src", "test", "resources", "dev", "benchlake", "analysis", "report",
                   "resources_reference.json")


def gm(x):
    return float(np.exp(np.mean(np.log(x))))


def unpaired(b, c):
    lb, lc = np.log(b), np.log(c)
    vb, vc = np.var(lb, ddof=1) / len(lb), np.var(lc, ddof=1) / len(lc)
    se = math.sqrt(vb + vc)
    df = (vb + vc) ** 2 / (vb ** 2 / (len(lb) - 1) + vc ** 2 / (len(lc) - 1))
    d = float(np.mean(lc) - np.mean(lb))
    t = stats.t.ppf(0.975, df)
    return case(b, c, d, d - t * se, d + t * se)


def paired(b, c):
    r = np.log(c) - np.log(b)
    d = float(np.mean(r))
    se = float(np.std(r, ddof=1) / math.sqrt(len(r)))
    t = stats.t.ppf(0.975, len(r) - 1)
    return case(b, c, d, d - t * se, d + t * se)


def case(b, c, d, lo, hi):
    level = gm(b)
    ratio, low, high = math.exp(d), math.exp(lo), math.exp(hi)
    return {"baseline": list(map(float, b)), "candidate": list(map(float, c)), "level_baseline": level,
            "level_candidate": gm(c), "ratio": ratio, "ratio_ci95": [low, high],
            "change": level * (ratio - 1), "change_ci95": [level * (low - 1), level * (high - 1)]}


def main():
    cases = {
        # server CPU per operation in µs: 17 costs more per query
        "unpaired_cpu": unpaired([50.0, 52.0, 55.0], [58.0, 60.0, 63.0]),
        # context switches per operation: no change to speak of
        "unpaired_cs": unpaired([4.4, 4.1, 4.6], [4.5, 4.0, 4.7]),
        # a duet's rounds, paired as the least-squares trend pairs them
        "paired_cpu": paired([50.0, 52.0, 55.0, 51.0], [56.0, 57.0, 61.0, 55.0]),
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(cases, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
