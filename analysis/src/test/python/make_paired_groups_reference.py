#!/usr/bin/python3
"""Reference figures for a version study's group intervals (issue 47), computed with numpy and scipy.

Writes analysis/src/test/resources/dev/benchlake/analysis/trend/paired_groups.json: the per-run qps of
a duet study of two majors (10 rounds, 12 steps in the mytools study's five groups), made like the
study the issue recomputed (a machine whose speed swings from round to round by about 35 %, shared
by both sides of a round and by every step of it, and a pair noise of about 2 %), and per group:

  geomean           the geometric mean over the group's steps of each step's paired ratio
                    (geometric mean over the rounds of x16 / x11)
  paired  [lo, hi]  per round k, d_k = mean over the group's steps of ln(x16[k,s] / x11[k,s]);
                    exp(mean(d) -/+ t(0.975, n-1) * sd(d, ddof=1) / sqrt(n))  (scipy.stats.t)
  unpaired [lo, hi] per run r, g_r = mean over the group's steps of ln(x[r,s] / geomean of x11[., s]);
                    Welch's t interval of mean(g16) - mean(g11) (scipy.stats.ttest_ind, equal_var=False,
                    its confidence_interval), exponentiated: what benchlake reported before issue 47

TrendPairedGroupsTest runs the same runs through TrendAnalysis as duet runs (paired) and as
interleaved ones (unpaired) and checks its intervals against these to 1e-9. Independence: nothing
here calls benchlake. Run from the repository root; the output is deterministic (fixed seed):
    python3 analysis/src/test/python/make_paired_groups_reference.py
"""
import json
import os

import numpy as np
from scipy import stats

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
OUT = os.path.join(ROOT, "analysis", "src", "test", "resources", "dev", "benchlake", "analysis", "trend",
                   "paired_groups.json")

ROUNDS = 10
ROUND_SD = 0.35   # the machine's swing between rounds (log scale), shared by a round's two runs
PAIR_SD = 0.02    # what the two runs of one round still differ by, per step
RUN_SD = 0.01     # a run's own offset, shared by its steps
# step: (group, base qps, true ratio 16 / 11)
STEPS = {
    "point-query_range=100": ("point query, part 1", 9000.0, 0.90),
    "points-covered-pk_range=100": ("point query, part 1", 5000.0, 0.88),
    "points-notcovered-si_range=100": ("point query, part 1", 3000.0, 0.89),
    "random-points_range=10": ("point query, part 2", 4000.0, 0.97),
    "random-points_range=100": ("point query, part 2", 1200.0, 0.96),
    "range-covered-pk_range=100": ("range query, part 1", 2500.0, 0.99),
    "scan_range=100": ("range query, part 1", 12.0, 0.98),
    "read-only-sum_range=1000": ("range query, part 2", 300.0, 1.06),
    "read-only-count_range=1000": ("range query, part 2", 350.0, 1.05),
    "insert_range=100": ("writes", 7000.0, 1.00),
    "update-index_range=100": ("writes", 6000.0, 1.01),
    "delete_range=100": ("writes", 8000.0, 1.00),
}
VERSIONS = ["11", "16"]


def main():
    rng = np.random.default_rng(47)
    steps = list(STEPS)
    round_effect = rng.normal(0, ROUND_SD, ROUNDS)
    qps = {}  # (version, round) -> {step: qps}
    for k in range(ROUNDS):
        for v in VERSIONS:
            run_offset = rng.normal(0, RUN_SD)
            figures = {}
            for s in steps:
                group, base, ratio = STEPS[s]
                level = base * (ratio if v == "16" else 1.0)
                figures[s] = float(level * np.exp(round_effect[k] + run_offset + rng.normal(0, PAIR_SD)))
            qps[(v, k + 1)] = figures

    runs = [{"run_id": "%s-%02d" % (v, k), "version": v, "round": k, "qps": qps[(v, k)]}
            for k in range(1, ROUNDS + 1) for v in VERSIONS]

    groups = {}
    for g in dict.fromkeys(STEPS[s][0] for s in steps):
        members = [s for s in steps if STEPS[s][0] == g]
        x11 = np.array([[qps[("11", k)][s] for s in members] for k in range(1, ROUNDS + 1)])
        x16 = np.array([[qps[("16", k)][s] for s in members] for k in range(1, ROUNDS + 1)])
        # The steps' paired ratios, and their geometric mean.
        step_ratios = np.exp(np.mean(np.log(x16 / x11), axis=0))
        geomean = float(np.exp(np.mean(np.log(step_ratios))))
        # Paired: one log ratio per round, the mean over the group's steps.
        d = np.mean(np.log(x16 / x11), axis=1)
        n = len(d)
        half = stats.t.ppf(0.975, n - 1) * np.std(d, ddof=1) / np.sqrt(n)
        paired = [float(np.exp(np.mean(d) - half)), float(np.exp(np.mean(d) + half))]
        # Unpaired: per-run group figures relative to the base's per-step geometric means, Welch.
        base_level = np.exp(np.mean(np.log(x11), axis=0))
        g11 = np.mean(np.log(x11 / base_level), axis=1)
        g16 = np.mean(np.log(x16 / base_level), axis=1)
        ci = stats.ttest_ind(g16, g11, equal_var=False).confidence_interval(0.95)
        unpaired = [float(np.exp(ci.low)), float(np.exp(ci.high))]
        groups[g] = {"steps": members, "geomean": geomean, "paired": paired, "unpaired": unpaired}

    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"generator": "analysis/src/test/python/make_paired_groups_reference.py",
                   "numpy": np.__version__, "scipy": __import__("scipy").__version__,
                   "runs": runs, "groups": groups}, f, indent=1, sort_keys=False)
        f.write("\n")
    for g, fig in groups.items():
        print("%-22s %.3f  unpaired [%.3f, %.3f]  paired [%.3f, %.3f]" % (g, fig["geomean"], *fig["unpaired"],
                                                                           *fig["paired"]))


if __name__ == "__main__":
    main()
