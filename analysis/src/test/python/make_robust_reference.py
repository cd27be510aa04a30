#!/usr/bin/python3
"""Reference figures for the robust paired statistic (HuberLogRatio, issue 46 item 4), with numpy and scipy.

Writes analysis/src/test/resources/dev/benchlake/analysis/stats/huber_log_ratio.json: duet-like per-pair
log ratios d_i = ln(candidate_i / baseline_i), with and without the CPU set that each pair's baseline ran
on, some with one or two disturbed rounds (+/-0.15..0.25 on the log scale), and per case:

  scale        Shamos' estimator pooled over the set groups: the median of |d_i - d_j| over the pairs
               i < j of one group (itertools.combinations, numpy.median), over sqrt(2) * norm.ppf(0.75)
  location     per group, the root of sum(clip(d - mu, -k*s, k*s)) = 0, k = 1.345, by scipy.optimize.brentq
               between the group's smallest and largest d (the sum is monotone; where it is 0 over an
               interval, that interval's midpoint); ln theta = (mu1 + mu2) / 2
               with the sets, mu without; set_effect_log = (mu1 - mu2) / 2
  se_log       Huber's sandwich with his small-sample factor (statsmodels RLM cov 'H1'):
               K^2 * (sum(psi^2) / (n - p)) / B^2 * s^2 * h, B = share of |r| <= k*s, K = 1 + (p/n)(1 - B)/B,
               h = (1/n1 + 1/n2)/4 with the sets, 1/n without; df = n - p
  ci95, ci90, p_difference, p_equivalence   the t reference (scipy.stats.t) on (ln theta, se_log, df)

HuberLogRatioTest checks HuberLogRatio against these to 1e-9 (1e-8 for the t tails, as the other references).
Independence: nothing here calls benchlake, and the root is found by brentq, not by bisection as in Java. Run from the repository root; the output is deterministic (fixed seed):
    python3 analysis/src/test/python/make_robust_reference.py
"""
import itertools
import json
import math
import os

import numpy as np
from scipy import optimize, stats

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
OUT = os.path.join(ROOT, "analysis", "src", "test", "resources", "dev", "benchlake", "analysis", "stats",
                   "huber_log_ratio.json")
K = 1.345
MARGINS = (0.05, 0.10)


def shamos(groups):
    diffs = [abs(a - b) for g in groups for a, b in itertools.combinations(g, 2)]
    return float(np.median(diffs)) / (math.sqrt(2) * stats.norm.ppf(0.75))


def location(g, cap):
    """The root of the clipped sum; where it is 0 over an interval (every pair capped), its midpoint."""
    g = np.asarray(g)
    if g.min() == g.max():
        return float(g.min())
    f = lambda mu: float(np.sum(np.clip(g - mu, -cap, cap)))
    # brentq finds a sign change; a zero counts as negative for the lower end, positive for the upper.
    lower = lambda mu: f(mu) if f(mu) != 0 else -1e-300
    upper = lambda mu: f(mu) if f(mu) != 0 else 1e-300
    ends = [optimize.brentq(h, float(g.min()), float(g.max()), xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
            for h in (lower, upper)]
    return (ends[0] + ends[1]) / 2


def huber(d, sets):
    d = np.asarray(d, dtype=float)
    n = len(d)
    groups = [d[sets], d[~sets]] if sets is not None else [d]
    p = len(groups)
    s = shamos(groups)
    cap = K * s if s > 0 else math.inf
    mus = [location(g, cap) for g in groups]
    r = np.concatenate([g - mu for g, mu in zip(groups, mus)])
    psi = np.clip(r, -cap, cap)  # on the log scale: psi(r/s) * s
    b = float(np.mean(np.abs(r) <= cap))
    h = (1 / len(groups[0]) + 1 / len(groups[1])) / 4 if p == 2 else 1 / n
    factor = 1 + p / n * (1 - b) / b
    se = factor * math.sqrt(float(np.sum(psi ** 2)) / (n - p) * h) / b
    mean = (mus[0] + mus[1]) / 2 if p == 2 else mus[0]
    set_effect = (mus[0] - mus[1]) / 2 if p == 2 else 0.0
    return mean, set_effect, s, se, n - p, h


def t_figures(mean, se, df):
    t = stats.t(df)
    out = {}
    for name, conf in (("ci95", 0.95), ("ci90", 0.90)):
        half = t.ppf(0.5 + conf / 2) * se
        out[name] = [math.exp(mean - half), math.exp(mean + half)]
    out["p_difference"] = min(1.0, 2 * t.cdf(-abs(mean / se)))
    out["p_equivalence"] = {}
    for m in MARGINS:
        bound = math.log1p(m)
        out["p_equivalence"][str(m)] = max(t.cdf(-(mean + bound) / se), t.cdf((mean - bound) / se))
    return out


def case(name, d, sets):
    mean, set_effect, s, se, df, h = huber(d, sets)
    c = {"name": name, "log_ratios": [float(x) for x in d],
         "baseline_on_set_one": None if sets is None else [bool(x) for x in sets],
         "mean_log_difference": mean, "set_effect_log": set_effect, "scale_log": s, "se_log": se, "df": df,
         "ratio": math.exp(mean), "between_run_sd_log": se / math.sqrt(h)}
    c.update(t_figures(mean, se, df))
    return c


def main():
    rng = np.random.default_rng(46)
    cases = []
    for n, sd, theta, set_log, bad in ((12, 0.01, 1.00, 0.03, 0), (12, 0.01, 1.00, 0.03, 1), (12, 0.05, 0.95, 0.0, 1),
                                       (7, 0.02, 1.08, -0.04, 0), (9, 0.015, 1.02, 0.02, 2), (5, 0.03, 1.0, 0.01, 1),
                                       (4, 0.02, 0.97, 0.05, 0), (20, 0.004, 1.01, 0.01, 2)):
        sets = np.array([i % 2 == 0 for i in range(n)])
        d = math.log(theta) + np.where(sets, set_log, -set_log) + rng.normal(0, sd, n)
        for i in rng.choice(n, bad, replace=False):
            d[i] += rng.choice([-1, 1]) * rng.uniform(0.15, 0.25)
        label = "n=%d sd=%g theta=%g set=%g disturbed=%d" % (n, sd, theta, set_log, bad)
        cases.append(case(label + " sets fitted", d, sets))
        if n >= 5:
            cases.append(case(label + " no sets", d, None))
    flat = np.array([0.0826, 0.0809, 0.0537, 0.0317, 0.0824, 0.0801, 0.0657, 0.0153, 0.0320])
    cases.append(case("every pair of a group capped: the root interval's midpoint", flat,
                      np.array([i % 2 == 0 for i in range(len(flat))])))
    with open(OUT, "w", encoding="utf-8") as out:
        json.dump({"k": K, "cases": cases}, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
