#!/usr/bin/python3
"""Reference values for benchlake's statistics, computed independently with numpy and scipy.

Writes JSON fixtures that the Java tests compare against (the tests never run Python):

  analysis/src/test/resources/dev/benchlake/analysis/stats/reference.json
      pure statistics on small and medium samples (quantiles, moments, Mann-Whitney U, Welch's t,
      Kolmogorov-Smirnov, Hodges-Lehmann, Cliff's delta, bootstrap, Fisher, Holm/BH, run counts)
  analysis/src/test/resources/dev/benchlake/analysis/compare/aa_controls.json
      a duet's a/a control by rounds (each round's mean log ratio over its steps, ttest_1samp or the
      CPU set fitted with linregress, TOST)
  analysis/src/test/resources/dev/benchlake/analysis/testing/cases.json
      whole comparisons: tasks (runs, steps, failures) and every figure of the expected report

Run from the repository root with an interpreter that has numpy and scipy (Debian's
/usr/bin/python3 once had them; the references of 2026-12 came from numpy 2.4.6 and scipy 1.17.1,
which moved the older figures only in their last digit):
    python3 analysis/src/test/python/make_reference.py
The output is deterministic (fixed seeds); commit it together with any change to this script.

Independence: nothing here calls benchlake. Where scipy has the statistic it is used as is
(mannwhitneyu, ttest_ind, ks_2samp, kstwo, fisher_exact); otherwise the definition is computed by
brute force (all pairwise differences for Hodges-Lehmann and Cliff's delta, full enumeration of
splits for exact tests with ties, resampling for the bootstrap).
"""
import itertools
import json
import math
import os
import sys

import numpy as np
import scipy
from scipy import stats

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
RESOURCES = os.path.join(ROOT, "analysis", "src", "test", "resources", "dev", "benchlake", "analysis")

QUANTILE_PROBABILITIES = [0.0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1.0]
EXACT_MAX_TOTAL = 50          # benchlake's exact Mann-Whitney limit (pooled size)
KS_EXACT_MAX_N = 10000        # scipy's ks_2samp "auto" limit
Z_975 = stats.norm.ppf(0.975)


def number(x):
    """JSON has no NaN: undefined values are null."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else x


def tie_term(pooled):
    _, counts = np.unique(pooled, return_counts=True)
    counts = counts.astype(np.float64)
    return float(np.sum(counts ** 3 - counts))


def mann_whitney(c, b):
    """U of the candidate and the two-sided p-value, by benchlake's documented method choice."""
    pooled = np.concatenate([c, b])
    has_ties = len(np.unique(pooled)) < len(pooled)
    if len(pooled) <= EXACT_MAX_TOTAL:
        if not has_ties:
            r = stats.mannwhitneyu(c, b, alternative="two-sided", method="exact")
            return float(r.statistic), float(r.pvalue), "exact"
        return enumerate_mann_whitney(c, b) + ("exact",)
    r = stats.mannwhitneyu(c, b, alternative="two-sided", method="asymptotic", use_continuity=True)
    return float(r.statistic), float(r.pvalue), "normal"


def enumerate_mann_whitney(c, b):
    """Exact permutation test with ties: enumerate every split of the pooled sample."""
    pooled = np.concatenate([c, b])
    ranks = stats.rankdata(pooled)
    n1 = len(c)
    observed = ranks[:n1].sum()
    sums = [ranks[list(idx)].sum() for idx in itertools.combinations(range(len(pooled)), n1)]
    sums = np.array(sums)
    eps = 1e-9
    p = min(1.0, 2 * min(np.mean(sums <= observed + eps), np.mean(sums >= observed - eps)))
    u = observed - n1 * (n1 + 1) / 2
    return float(u), float(p)


def u_null_counts(m, n):
    """Classical exact null distribution of U (no ties) by the Mann-Whitney recurrence."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def count(u, m, n):
        if u < 0:
            return 0
        if m == 0 or n == 0:
            return 1 if u == 0 else 0
        return count(u - n, m - 1, n) + count(u, m, n - 1)

    return [count(u, m, n) for u in range(m * n + 1)]


def hodges_lehmann(c, b):
    diffs = np.sort(np.subtract.outer(c.astype(np.int64), b.astype(np.int64)).ravel())
    shift = float(np.median(diffs))
    n1, n2 = len(c), len(b)
    if n1 + n2 <= EXACT_MAX_TOTAL:
        counts = u_null_counts(n1, n2)
        total = sum(counts)
        k, cumulative = 0, 0
        for u, cnt in enumerate(counts):
            cumulative += cnt
            if cumulative / total > 0.025:
                break
            k = u + 1
    else:
        sigma = math.sqrt(n1 * n2 / 12 * ((n1 + n2 + 1) - tie_term(np.concatenate([c, b])) / ((n1 + n2) * (n1 + n2 - 1))))
        k = math.floor(n1 * n2 / 2 - Z_975 * sigma)
    if k < 1:
        return shift, None, None
    return shift, float(diffs[k - 1]), float(diffs[len(diffs) - k])


def cliffs_delta(c, b):
    return float(np.mean(np.sign(np.subtract.outer(c.astype(np.float64), b.astype(np.float64)))))


def magnitude(d):
    d = abs(d)
    return "negligible" if d < 0.147 else "small" if d < 0.33 else "medium" if d < 0.474 else "large"


def welch(c, b):
    if len(c) < 2 or len(b) < 2:
        return None, None, None
    vc, vb = np.var(c.astype(np.float64), ddof=1), np.var(b.astype(np.float64), ddof=1)
    if vc == 0 and vb == 0:
        return None, None, None
    r = stats.ttest_ind(c.astype(np.float64), b.astype(np.float64), equal_var=False)
    a, bb = vc / len(c), vb / len(b)
    df = (a + bb) ** 2 / (a ** 2 / (len(c) - 1) + bb ** 2 / (len(b) - 1))
    return float(r.statistic), float(df), float(r.pvalue)


def ks(c, b):
    r = stats.ks_2samp(c, b, alternative="two-sided", method="auto")
    method = "exact" if max(len(c), len(b)) <= KS_EXACT_MAX_N else "asymptotic"
    return float(r.statistic), float(r.pvalue), method


def bootstrap_ratio_quantiles(c, b, replicates, seed):
    """Where the 95 % percentile interval of median(c*)/median(b*) should fall: quantiles of the
    bootstrap distribution from plain resampling with many replicates."""
    rng = np.random.default_rng(seed)
    ratios = np.empty(replicates)
    chunk = 2000
    for start in range(0, replicates, chunk):
        size = min(chunk, replicates - start)
        rc = np.median(rng.choice(c, size=(size, len(c)), replace=True), axis=1)
        rb = np.median(rng.choice(b, size=(size, len(b)), replace=True), axis=1)
        ratios[start:start + size] = rc / rb
    return {str(q): float(np.quantile(ratios, q)) for q in [0.01, 0.025, 0.04, 0.96, 0.975, 0.99]}


def sample_case(name, c, b, bootstrap=False):
    c = np.asarray(c, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    case = {"name": name, "candidate": c.tolist(), "baseline": b.tolist()}
    for label, x in (("candidate", c), ("baseline", b)):
        case[label + "_quantiles"] = [float(np.quantile(x, p)) for p in QUANTILE_PROBABILITIES]
        case[label + "_mean"] = float(np.mean(x))
        case[label + "_stddev"] = number(np.std(x, ddof=1)) if len(x) > 1 else None
    u, p, method = mann_whitney(c, b)
    case["mann_whitney"] = {"u": u, "p": p, "method": method,
                            "tie_term": tie_term(np.concatenate([c, b]))}
    t, df, tp = welch(c, b)
    case["welch"] = {"t": number(t), "df": number(df), "p": number(tp)}
    d, kp, kmethod = ks(c, b)
    case["ks"] = {"d": d, "p": kp, "method": kmethod}
    shift, lo, hi = hodges_lehmann(c, b)
    case["hodges_lehmann"] = {"shift": shift, "ci_low": lo, "ci_high": hi}
    delta = cliffs_delta(c, b)
    case["cliffs_delta"] = {"delta": delta, "magnitude": magnitude(delta)}
    if bootstrap:
        case["bootstrap_ratio_quantiles"] = bootstrap_ratio_quantiles(c, b, 100_000, 7)
    return case


def sample_cases():
    rng = np.random.default_rng(20160302)
    cases = [
        sample_case("one_value_each", [5], [3]),
        sample_case("two_values_each", [1, 2], [3, 4]),
        sample_case("all_equal", [4, 4, 4], [4, 4, 4, 4]),
        sample_case("small_with_ties", [3, 3, 5, 7, 7, 7, 9], [1, 3, 3, 4, 7, 8]),
        sample_case("small_no_ties", [12, 15, 18, 21, 30], [10, 11, 13, 14, 16, 20]),
        sample_case("fully_separated", list(range(20, 28)), list(range(0, 9))),
        sample_case("three_vs_three_runs", [875, 812, 734], [953, 922, 937]),
        sample_case("four_vs_four", [10, 12, 14, 16], [11, 13, 15, 17]),
        sample_case("medium_ties", rng.integers(0, 50, 40), rng.integers(5, 55, 35)),
        sample_case("negative_values", rng.integers(-1000, 1000, 30), rng.integers(-900, 1100, 31)),
        sample_case("lognormal_3000_2500",
                    np.round(rng.lognormal(20.7, 0.4, 3000)).astype(np.int64),
                    np.round(rng.lognormal(20.75, 0.45, 2500)).astype(np.int64), bootstrap=True),
        sample_case("ticks_12000_11000_heavy_ties",
                    np.round(rng.lognormal(13.7, 0.3, 12000) / 1000).astype(np.int64) * 1000,
                    np.round(rng.lognormal(13.72, 0.3, 11000) / 1000).astype(np.int64) * 1000),
        sample_case("equal_sizes_200", rng.integers(0, 10**9, 200), rng.integers(0, 10**9, 200)),
        sample_case("odd_even_bootstrap", np.round(rng.lognormal(5, 0.5, 51)).astype(np.int64),
                    np.round(rng.lognormal(5.1, 0.5, 40)).astype(np.int64), bootstrap=True),
    ]
    return cases


def fisher_cases():
    tables = [(8, 14992, 0, 15000), (0, 15000, 8, 14992), (0, 10, 0, 12), (3, 7, 1, 9), (5, 0, 0, 5),
              (2, 1, 1, 2), (100, 1000000, 130, 1000000), (1, 0, 0, 0), (0, 0, 0, 0), (10, 0, 20, 0),
              (7, 2, 3, 12), (500, 12000, 480, 9000)]
    out = []
    for a, b, c, d in tables:
        p = 1.0 if (a + c == 0 or b + d == 0 or a + b == 0 or c + d == 0) else float(stats.fisher_exact([[a, b], [c, d]])[1])
        out.append({"errors_a": a, "ok_a": b, "errors_b": c, "ok_b": d, "p": p})
    return out


def kolmogorov_cases():
    out = []
    for n in [1, 5, 20, 141, 500, 7498, 100000, 5000000]:
        for d in [0.001, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.9]:
            out.append({"d": d, "n": n, "sf": float(stats.kstwo.sf(d, n))})
    return out


def holm(p):
    p = np.asarray(p, dtype=float)
    order = np.argsort(p, kind="stable")
    m = len(p)
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    return adjusted.tolist()


def bh(p):
    p = np.asarray(p, dtype=float)
    order = np.argsort(p, kind="stable")
    m = len(p)
    scaled = p[order] * m / np.arange(1, m + 1)
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1, np.minimum.accumulate(scaled[::-1])[::-1])
    return adjusted.tolist()


def no_correction(p):
    """--correction none: each p as it is (a single pre-registered step or family)."""
    return [float(x) for x in p]


ADJUSTERS = {"holm": holm, "bh": bh, "none": no_correction}


def correction_cases():
    families = [[0.01, 0.04, 0.03, 0.005], [0.5], [0.001, 0.2, 0.2, 0.04, 0.9, 0.03], [1e-10, 0.05]]
    return [{"p": f, "holm": holm(f), "bh": bh(f)} for f in families]


# ---------------------------------------------------------------------------------------------
# Whole comparisons (testing/cases.json): tasks of a small warehouse and every expected figure.
# ---------------------------------------------------------------------------------------------

SUMMARY = [("min_s", 0.0), ("p50_s", 0.5), ("p90_s", 0.9), ("p95_s", 0.95), ("p99_s", 0.99),
           ("p999_s", 0.999), ("max_s", 1.0)]


# --- run-level decisions: LogRatio, RunsNeeded, RatioDecisions ------------------------------------

def exponentiated_intervals(result):
    """A scipy t-test result's 95 % and 90 % intervals on the log scale, exponentiated."""
    out = {}
    for conf in (0.95, 0.90):
        ci = result.confidence_interval(conf)
        out["ci%d" % round(conf * 100)] = [float(np.exp(ci.low)), float(np.exp(ci.high))]
    return out


def tost(margins, above, below):
    """TOST p per margin: the larger of the one-sided p that the log ratio is above -ln(1+M)
    (above(ln(1+M))) and below +ln(1+M) (below(ln(1+M)))."""
    return {str(m): float(max(above(math.log1p(m)).pvalue, below(math.log1p(m)).pvalue)) for m in margins}


def log_ratio(b, c, margins=(0.05, 0.10)):
    """Welch on the logs of per-run figures, with scipy's own interval and one-sided tests."""
    lb, lc = np.log(np.asarray(b, dtype=np.float64)), np.log(np.asarray(c, dtype=np.float64))
    r = stats.ttest_ind(lc, lb, equal_var=False)
    vb, vc = np.var(lb, ddof=1), np.var(lc, ddof=1)
    out = {"baseline": list(map(float, b)), "candidate": list(map(float, c)),
           "mean_log_difference": float(np.mean(lc) - np.mean(lb)),
           "se_log": float(np.sqrt(vc / len(lc) + vb / len(lb))),
           "df": float(r.df),
           "sd_log_baseline": float(np.sqrt(vb)), "sd_log_candidate": float(np.sqrt(vc)),
           "between_run_sd_log": float(np.sqrt(((len(lb) - 1) * vb + (len(lc) - 1) * vc) / (len(lb) + len(lc) - 2))),
           "ratio": float(np.exp(np.mean(lc) - np.mean(lb))),
           "p_difference": float(r.pvalue)}
    out.update(exponentiated_intervals(r))
    out["p_equivalence"] = tost(margins,
                                lambda shift: stats.ttest_ind(lc + shift, lb, equal_var=False, alternative="greater"),
                                lambda shift: stats.ttest_ind(lc - shift, lb, equal_var=False, alternative="less"))
    return out


def log_ratio_cases():
    rng = np.random.default_rng(20131106)
    cases = [
        ("pg14_vs_pg17_point_select_medians", [812e3, 934e3, 1001e3, 870e3, 905e3], [760e3, 688e3, 842e3, 791e3, 700e3]),
        ("throughput_three_vs_four", [1000.0, 1042.0, 1011.0, 987.5], [1180.0, 1215.5, 1199.2]),
        ("two_vs_two", [0.0020, 0.0022], [0.0021, 0.0035]),
        ("negligible_but_real", list(np.exp(rng.normal(0, 0.004, 8)) * 100), list(np.exp(rng.normal(0.015, 0.004, 8)) * 100)),
        ("equal_spread_ten_each", list(np.exp(rng.normal(0, 0.1, 10))), list(np.exp(rng.normal(-0.2, 0.1, 10)))),
        ("unequal_spread", list(np.exp(rng.normal(0, 0.02, 6))), list(np.exp(rng.normal(0.03, 0.2, 5)))),
    ]
    return [dict(name=name, **log_ratio(b, c)) for name, b, c in cases]


# What n replicates mean for a t-test: (df, SD of the estimated log ratio / SD of one replicate).
# Two independent groups of n runs: the pooled two-sample t. n pairs: the one-sample t of the
# per-pair log ratios.
DESIGNS = {
    "two_groups": lambda n: (2 * n - 2, math.sqrt(2.0 / n)),
    "paired": lambda n: (n - 1, math.sqrt(1.0 / n)),
}


def power_to_detect(n, sd, margin, alpha, design="two_groups"):
    """Exact power of the two-sided t-test (pooled two-sample, df 2n-2; or one-sample on pairs,
    df n-1) at a true log shift of ln(1+M): nct."""
    return power_to_detect_shift(n, sd, math.log1p(margin), alpha, design)


def power_to_show_equivalence(n, sd, margin, alpha, design="two_groups"):
    """Exact TOST power at a true ratio of 1 (Owen's Q form), by scipy.integrate.quad over the chi law."""
    from scipy import integrate
    df, scale = DESIGNS[design](n)
    scaled = math.log1p(margin) / (sd * scale)
    t = stats.t.ppf(1 - alpha, df)
    # V = sqrt(chi2_df / df); substitute u = chi2 value.
    def integrand(u):
        return max(0.0, 2 * stats.norm.cdf(scaled - t * math.sqrt(u / df)) - 1) * stats.chi2.pdf(u, df)
    cut = df * (scaled / t) ** 2
    value, _ = integrate.quad(integrand, 0, cut, epsabs=1e-13, epsrel=1e-11, limit=200)
    return float(value)


def power_to_detect_shift(n, sd, shift, alpha, design="two_groups"):
    """Exact power of the two-sided t-test of the design at a true log shift: nct."""
    df, scale = DESIGNS[design](n)
    ncp = shift / (sd * scale)
    t = stats.t.ppf(1 - alpha / 2, df)
    power = stats.nct.sf(t, df, ncp) + stats.nct.cdf(-t, df, ncp)
    if math.isnan(power):
        # nct's series fails for a large noncentrality at a small df (2 for two groups of 2, 3 for
        # 4 pairs): integrate over the chi law instead.
        from scipy import integrate
        def integrand(u):
            v = math.sqrt(u / df)
            return (stats.norm.cdf(ncp - t * v) + stats.norm.cdf(-ncp - t * v)) * stats.chi2.pdf(u, df)
        power, _ = integrate.quad(integrand, 0, np.inf, epsabs=1e-13, epsrel=1e-11, limit=200)
    return float(power)


def power_to_show_equivalence_at(n, sd, margin, shift, alpha, design="two_groups"):
    """Exact TOST power at a true log ratio `shift` inside the band, by quad over the chi law:
    P(both one-sided tests reject) = E_V[max(0, Phi((L-d)/s - tV) + Phi((L+d)/s - tV) - 1)]."""
    from scipy import integrate
    df, scale = DESIGNS[design](n)
    s = sd * scale
    bound = math.log1p(margin)
    t = stats.t.ppf(1 - alpha, df)
    def integrand(u):
        v = math.sqrt(u / df)
        return max(0.0, stats.norm.cdf((bound - shift) / s - t * v) + stats.norm.cdf((bound + shift) / s - t * v) - 1) \
            * stats.chi2.pdf(u, df)
    cut = df * ((bound / s) / t) ** 2
    value, _ = integrate.quad(integrand, 0, cut, epsabs=1e-13, epsrel=1e-11, limit=200)
    return float(value)


def smallest_n(power, target=0.8):
    n = 2
    while power(n) < target:
        n += 1
    return n


MAX_RUNS = 100_000


def runs_advice(sd, shift, present, margin, alpha, power=0.8, design="two_groups"):
    """What more runs would do for an inconclusive call, never a count at or below the runs present:
    the margin's plan when it is more than them; else the plan at the observed shift (equivalence
    inside the band, a difference beyond it) when that is; else 'edge_of_margin' when no count
    reaches the power, 'already_powered' otherwise. (basis, runs per group or 0)"""
    at_margin = min(smallest_n(lambda k: power_to_detect(k, sd, margin, alpha, design), power),
                    smallest_n(lambda k: power_to_show_equivalence(k, sd, margin, alpha, design), power))
    if at_margin > present:
        return "margin", at_margin
    d = abs(shift)
    if d < math.log1p(margin):
        observed = smallest_n(lambda k: power_to_show_equivalence_at(k, sd, margin, d, alpha, design), power)
    else:
        observed = smallest_n(lambda k: power_to_detect_shift(k, sd, d, alpha, design), power)
    if observed >= MAX_RUNS:
        return "edge_of_margin", 0
    return ("observed_effect", observed) if observed > present else ("already_powered", 0)


def runs_needed_cases(design="two_groups", sds=(0.01, 0.03, 0.1, 0.15), alphas=(0.05, 0.01)):
    """The smallest n reaching 80 % power to detect, and to show equivalence, with the powers at n
    and n - 1. Paired cases name their design; two-group ones leave it out (as they always have)."""
    cases = []
    for sd in sds:
        for margin in (0.05, 0.10):
            for alpha in alphas:
                detect = lambda n: power_to_detect(n, sd, margin, alpha, design)
                equivalence = lambda n: power_to_show_equivalence(n, sd, margin, alpha, design)
                nd = smallest_n(detect)
                ne = smallest_n(equivalence)
                cases.append({**named(design), "sd_log": sd, "margin": margin, "alpha": alpha, "power": 0.8,
                              "to_detect": nd, "power_detect_at_n": detect(nd),
                              "power_detect_at_n_minus_1": detect(nd - 1) if nd > 2 else None,
                              "to_show_equivalence": ne, "power_equivalence_at_n": equivalence(ne),
                              "power_equivalence_at_n_minus_1": equivalence(ne - 1) if ne > 2 else None})
    return cases


def runs_needed_at_effect_cases(design="two_groups", settings=((0.02, 0.05, 0.05, 0.03), (0.03, 0.05, 0.05, 0.01),
                                                               (0.05, 0.10, 0.01, 0.06), (0.02, 0.05, 0.05, 0.06))):
    """The powers at a true shift other than the margin's or 0, and the smallest n reaching 80 %."""
    cases = []
    for sd, margin, alpha, shift in settings:
        if shift < math.log1p(margin):
            power = lambda k: power_to_show_equivalence_at(k, sd, margin, shift, alpha, design)
            kind = "equivalence"
        else:
            power = lambda k: power_to_detect_shift(k, sd, shift, alpha, design)
            kind = "detect"
        n = smallest_n(power)
        cases.append({**named(design), "sd_log": sd, "margin": margin, "alpha": alpha, "shift_log": shift,
                      "kind": kind, "power": 0.8, "n": n, "power_at_n": power(n),
                      "power_at_n_minus_1": power(n - 1) if n > 2 else None})
    return cases


def named(design):
    return {} if design == "two_groups" else {"design": design}


def decision_cases():
    """Families of steps decided by the documented rule, written out here independently."""
    rng = np.random.default_rng(20260301)
    families = []
    for name, correction, lower_is_better, shifts, sds, n in [
        ("latency_holm", "holm", True, [0.0, 0.012, -0.25, 0.3, 0.04, 0.02], [0.005, 0.004, 0.05, 0.05, 0.12, 0.01], 5),
        ("throughput_bh", "bh", False, [0.0, 0.012, -0.25, 0.3, 0.04, 0.02], [0.005, 0.004, 0.05, 0.05, 0.12, 0.01], 5),
        ("latency_holm_three_runs", "holm", True, [0.01, -0.1, 0.2], [0.02, 0.1, 0.03], 3),
    ]:
        steps = [log_ratio(list(np.exp(rng.normal(0, sd, n))), list(np.exp(rng.normal(s, sd, n))), margins=(0.05,))
                 for s, sd in zip(shifts, sds)]
        families.append(decide_family(name, correction, lower_is_better, steps))
    # Six runs a side whose between-run SD needs only 5 runs to decide at the margin: a change of
    # about 3 % (p = 0.032 alone) that Holm over two steps holds back, and a noisy step beside it.
    base = np.exp(np.array([-1.2, -0.6, -0.2, 0.2, 0.6, 1.2]) * 0.025) * 100
    held = base * math.exp(0.03) * np.exp(np.array([0.3, -0.3, 0.1, -0.1, 0.2, -0.2]) * 0.025)
    noisy = base * np.exp(np.array([0.4, -0.5, 0.3, 0.1, -0.2, 0.6]) * 0.3)
    families.append(decide_family("latency_holm_held_back", "holm", True,
                                  [log_ratio(list(base), list(held), margins=(0.05,)),
                                   log_ratio(list(base), list(noisy), margins=(0.05,))]))
    # The same two steps uncorrected: the 3 % change is called, as it would be on its own.
    families.append(decide_family("latency_none", "none", True,
                                  [log_ratio(list(base), list(held), margins=(0.05,)),
                                   log_ratio(list(base), list(noisy), margins=(0.05,))]))
    return families


def decide_family(name, correction, lower_is_better, steps, design="two_groups"):
    """Decides one family by the documented rule, written out here independently."""
    alpha, margin = 0.05, 0.05
    adjust = ADJUSTERS[correction]
    pd = adjust([s["p_difference"] for s in steps])
    pe = adjust([s["p_equivalence"]["0.05"] for s in steps])
    band = (1 / (1 + margin), 1 + margin)
    decisions = []
    for s, a, e in zip(steps, pd, pe):
        lb, lc = np.log(s["baseline"]), np.log(s["candidate"])
        test = stats.ttest_rel(lc, lb) if design == "paired" else stats.ttest_ind(lc, lb, equal_var=False)
        ci = test.confidence_interval(1 - alpha)
        lo, hi = math.exp(ci.low), math.exp(ci.high)
        def verdict_of(p_difference, p_equivalence):
            if p_equivalence <= alpha:
                return "equivalent"
            if p_difference <= alpha:
                return "slower" if (s["ratio"] > 1) == lower_is_better else "faster"
            return "inconclusive"
        verdict = verdict_of(a, e)
        sd = s["between_run_sd_log"]
        present = min(len(s["baseline"]), len(s["candidate"]))
        basis, runs = (None, 0) if verdict != "inconclusive" else runs_advice(
            sd, s["mean_log_difference"], present, margin, alpha, design=design)
        decisions.append({"verdict": verdict, "p_difference_adjusted": a, "p_equivalence_adjusted": e,
                          "runs_needed_per_group": runs, "runs_needed_basis": basis,
                          "uncorrected": verdict_of(s["p_difference"], s["p_equivalence"]["0.05"]),
                          "family": len(steps),
                          "real_but_negligible": verdict == "equivalent" and (lo > 1 or hi < 1),
                          "beyond_margin": verdict in ("faster", "slower") and (lo > band[1] or hi < band[0])})
    return {"name": name, "correction": correction, "lower_is_better": lower_is_better,
            "alpha": alpha, "margin": margin, "steps": steps, "decisions": decisions}


# --- paired runs: PairedLogRatio, RunsNeeded for pairs, SequentialLooks ---------------------------

def paired_log_ratio(b, c, margins=(0.05, 0.10)):
    """The one-sample t of the per-pair log ratios: ttest_rel on the logs (checked against
    ttest_1samp of the differences), its interval, and TOST as two one-sided ttest_1samp."""
    b, c = np.asarray(b, dtype=np.float64), np.asarray(c, dtype=np.float64)
    lb, lc = np.log(b), np.log(c)
    d = lc - lb
    r = stats.ttest_rel(lc, lb)
    one = stats.ttest_1samp(d, 0.0)
    assert math.isclose(r.pvalue, one.pvalue, rel_tol=1e-12, abs_tol=1e-300)
    sd = float(np.std(d, ddof=1))
    out = {"baseline": list(map(float, b)), "candidate": list(map(float, c)),
           "mean_log_difference": float(np.mean(d)), "sd_log_difference": sd,
           "se_log": sd / math.sqrt(len(d)), "df": float(r.df),
           # The geometric mean of the per-pair ratios, computed as such.
           "ratio": float(stats.gmean(c / b)),
           "between_run_sd_log": sd,
           "p_difference": float(r.pvalue)}
    out.update(exponentiated_intervals(r))
    out["p_equivalence"] = tost(margins, lambda shift: stats.ttest_1samp(d, -shift, alternative="greater"),
                                lambda shift: stats.ttest_1samp(d, shift, alternative="less"))
    return out


def pairs_around(rng, n, shift, sd, machine_sd=0.2, level=1000.0):
    """n pairs as a duet gives them: a level per round that swings with the machine (machine_sd on
    the log scale, shared by both runs of the round), and a per-pair log ratio ~ N(shift, sd)."""
    base = level * np.exp(rng.normal(0, machine_sd, n))
    return list(base), list(base * np.exp(rng.normal(shift, sd, n)))


def paired_log_ratio_cases():
    rng = np.random.default_rng(20200420)
    cases = [
        ("duet_five_rounds_three_percent_slower", *pairs_around(rng, 5, 0.03, 0.01)),
        ("two_pairs", [0.0020, 0.0031], [0.0021, 0.0035]),
        ("three_pairs_throughput", [24000.0, 41500.0, 30200.0], [23100.0, 40900.0, 28800.0]),
        ("ten_pairs_within_the_margin", *pairs_around(rng, 10, 0.005, 0.008)),
        ("noisy_pairs", *pairs_around(rng, 8, -0.1, 0.2, machine_sd=0.05)),
        ("sequential_rounds_not_correlated", list(np.exp(rng.normal(0, 0.2, 6)) * 500),
         list(np.exp(rng.normal(0.05, 0.2, 6)) * 500)),
    ]
    return [dict(name=name, **paired_log_ratio(b, c)) for name, b, c in cases]


def crossover_log_ratio(b, c, on_set_one, margins=(0.05, 0.10)):
    """Duet pairs that swap CPU sets, the set fitted: least squares of the per-pair log ratio on
    [1, x] (x = +1 when the baseline ran on set one, -1 otherwise) with numpy's lstsq and the
    covariance s^2 (X'X)^-1, checked against scipy's linregress (whose intercept at x = 0 is the
    same fit); t with n - 2 df for the interval, the difference test and TOST."""
    b, c = np.asarray(b, dtype=np.float64), np.asarray(c, dtype=np.float64)
    d = np.log(c) - np.log(b)
    x = np.where(np.asarray(on_set_one), 1.0, -1.0)
    X = np.column_stack([np.ones_like(x), x])
    beta, _, _, _ = np.linalg.lstsq(X, d, rcond=None)
    resid = d - X @ beta
    df = len(d) - 2
    s2 = float(resid @ resid) / df
    se = math.sqrt(s2 * np.linalg.inv(X.T @ X)[0, 0])
    lr = stats.linregress(x, d)
    assert math.isclose(lr.intercept, beta[0], rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(lr.intercept_stderr, se, rel_tol=1e-9)
    t = stats.t(df)
    out = {"baseline": list(map(float, b)), "candidate": list(map(float, c)),
           "baseline_on_set_one": [bool(v) for v in on_set_one],
           "mean_log_difference": float(beta[0]), "set_effect_log": float(beta[1]),
           "residual_sd_log": math.sqrt(s2), "se_log": se, "df": float(df),
           "ratio": float(math.exp(beta[0])), "set_ratio": float(math.exp(2 * beta[1])),
           "between_run_sd_log": math.sqrt(s2),
           "p_difference": float(2 * t.sf(abs(beta[0]) / se))}
    for conf in (0.95, 0.90):
        half = t.ppf(0.5 + conf / 2) * se
        out["ci%d" % round(conf * 100)] = [math.exp(beta[0] - half), math.exp(beta[0] + half)]
    out["p_equivalence"] = {str(m): float(max(t.sf((beta[0] + math.log1p(m)) / se),
                                              t.cdf((beta[0] - math.log1p(m)) / se))) for m in margins}
    return out


def crossover_log_ratio_cases():
    """Duets whose set one is slower by a set term c: alternating rounds (balanced), an odd number
    of rounds, and sets that do not matter."""
    rng = np.random.default_rng(20261203)

    def swapped(n, theta_log, c, sd, first_on_one=True, machine_sd=0.2):
        on_one = [(i % 2 == 0) == first_on_one for i in range(n)]
        base = 1000.0 * np.exp(rng.normal(0, machine_sd, n))
        x = np.where(on_one, 1.0, -1.0)
        return list(base), list(base * np.exp(theta_log + c * x + rng.normal(0, sd, n))), on_one

    cases = [
        ("ten_rounds_set_one_slower", *swapped(10, 0.03, 0.15, 0.04)),
        ("seven_rounds_odd", *swapped(7, -0.02, -0.2, 0.05)),
        ("four_rounds_no_set_effect", *swapped(4, 0.0, 0.0, 0.03, first_on_one=False)),
        ("six_rounds_within_the_margin", *swapped(6, 0.004, 0.12, 0.006)),
    ]
    return [dict(name=name, **crossover_log_ratio(b, c, s)) for name, b, c, s in cases]


def paired_runs_needed_cases():
    return runs_needed_cases("paired", sds=(0.008, 0.02, 0.05, 0.15), alphas=(0.05, 0.01, 0.001))


def paired_runs_needed_at_effect_cases():
    return runs_needed_at_effect_cases("paired", settings=((0.02, 0.05, 0.05, 0.03), (0.01, 0.05, 0.05, 0.045),
                                                           (0.05, 0.10, 0.01, 0.06), (0.02, 0.05, 0.001, 0.07)))


def paired_decision_cases():
    """Families of paired steps decided by the documented rule (as decision_cases, on ttest_rel)."""
    rng = np.random.default_rng(20170422)
    families = []
    for name, correction, lower_is_better, shifts, sds, n in [
        ("paired_latency_holm", "holm", True, [0.0, 0.012, -0.25, 0.3, 0.04, 0.02], [0.005, 0.004, 0.05, 0.05, 0.12, 0.01], 5),
        ("paired_throughput_bh", "bh", False, [0.0, 0.012, -0.25, 0.3, 0.04, 0.02], [0.005, 0.004, 0.05, 0.05, 0.12, 0.01], 4),
    ]:
        steps = [paired_log_ratio(*pairs_around(rng, n, s, sd), margins=(0.05,)) for s, sd in zip(shifts, sds)]
        families.append(decide_family(name, correction, lower_is_better, steps, design="paired"))
    # Eight pairs, two steps near the band's edge that Holm holds back: pairs enough for the
    # margin's plan, so the advice is the plan at the observed ratio.
    rng = np.random.default_rng(20170423)
    steps = [paired_log_ratio(*pairs_around(rng, 8, s, sd), margins=(0.05,))
             for s, sd in zip([0.03, 0.0, -0.2, 0.028, 0.0, 0.01], [0.03, 0.01, 0.05, 0.03, 0.2, 0.02])]
    families.append(decide_family("paired_latency_held_back", "holm", True, steps, design="paired"))
    return families


HAYBITTLE_PETO_INTERIM = 0.001


def haybittle_peto_levels(alpha, first, max_rounds):
    """One level per look, after rounds first..max_rounds: each interim look at 0.001 (less where
    the interim looks would spend more than half of alpha), the last at what is left."""
    looks = max_rounds - first + 1
    if looks == 1:
        return [alpha]
    interim = min(HAYBITTLE_PETO_INTERIM, alpha / (2 * (looks - 1)))
    return [interim] * (looks - 1) + [alpha - interim * (looks - 1)]


def sequential_case(name, correction, lower_is_better, shifts, sds, first, max_rounds, seed, alpha=0.05, margin=0.05):
    """A family of paired steps looked at after every round from `first` on, each look decided by
    the documented rule at its own level, until every step is decided or max_rounds are done."""
    rng = np.random.default_rng(seed)
    data = [pairs_around(rng, max_rounds, s, sd) for s, sd in zip(shifts, sds)]
    levels = haybittle_peto_levels(alpha, first, max_rounds)
    adjust = holm if correction == "holm" else bh
    looks = []
    for level, n in zip(levels, range(first, max_rounds + 1)):
        tests, pd, pe = [], [], []
        for b, c in data:
            d = np.log(c[:n]) - np.log(b[:n])
            tests.append(stats.ttest_1samp(d, 0.0))
            pd.append(float(tests[-1].pvalue))
            shift = math.log1p(margin)
            pe.append(float(max(stats.ttest_1samp(d, -shift, alternative="greater").pvalue,
                                stats.ttest_1samp(d, shift, alternative="less").pvalue)))
        pda, pea = adjust(pd), adjust(pe)
        steps = []
        for t, a, e in zip(tests, pda, pea):
            up = t.statistic > 0
            verdict = "equivalent" if e <= level else (
                ("slower" if up == lower_is_better else "faster") if a <= level else "inconclusive")
            ci, ce = t.confidence_interval(1 - level), t.confidence_interval(1 - 2 * level)
            steps.append({"verdict": verdict, "p_difference_adjusted": a, "p_equivalence_adjusted": e,
                          "ci_decision": [math.exp(ci.low), math.exp(ci.high)],
                          "ci_equivalence": [math.exp(ce.low), math.exp(ce.high)]})
        stop = n == max_rounds or all(s["verdict"] != "inconclusive" for s in steps)
        if n == max_rounds:
            for (b, c), step in zip(data, steps):
                if step["verdict"] == "inconclusive":
                    d = np.log(c[:n]) - np.log(b[:n])
                    step["runs_needed_basis"], step["runs_needed"] = runs_advice(
                        float(np.std(d, ddof=1)), float(np.mean(d)), n, margin, level, design="paired")
        looks.append({"round": n, "alpha": level, "steps": steps, "stop": stop})
        if stop:
            break
    return {"name": name, "correction": correction, "lower_is_better": lower_is_better, "alpha": alpha,
            "margin": margin, "first_look": first, "max_rounds": max_rounds, "levels": levels,
            "steps": [{"baseline": b, "candidate": c} for b, c in data], "looks": looks}


def sequential_cases():
    return [
        # Clear changes and a clear no-change, a duet's per-pair SD: decided well before round 10.
        sequential_case("duet_three_steps_stop_early", "holm", True, [-0.1, 0.0, 0.12], [0.02, 0.015, 0.03], 3, 10, 1),
        # A noisy step that no look decides: every look up to the last, then the runs a fresh plan needs.
        sequential_case("noisy_step_runs_to_the_end", "holm", True, [0.0, 0.03], [0.01, 0.09], 3, 8, 2),
        sequential_case("throughput_bh_twenty_rounds", "bh", False, [0.08, -0.002, 0.2], [0.03, 0.01, 0.05], 4, 20, 3),
        # One look only: the fixed design, at alpha.
        sequential_case("a_single_look", "holm", True, [0.05, 0.0], [0.02, 0.02], 6, 6, 4),
    ]


def make_tasks():
    """Four baseline runs against five candidate runs; 'read' is about 20 % slower in the candidate,
    'write' is unchanged, 'setup' exists in the baseline only. Latencies are rounded to 10 us so that
    ties abound; a few tasks are warm-up (excluded) or failed (with a SQLSTATE or only a message)."""
    rng = np.random.default_rng(42)
    runs = [{"run_id": f"b{i}", "os": "linux"} for i in range(1, 5)] + \
           [{"run_id": f"c{i}", "os": "windows"} for i in range(1, 6)]
    tasks = []
    for r, run in enumerate(runs):
        candidate = run["os"] == "windows"
        clock_us = 1_700_000_000_000_000 + r * 10_000_000_000
        steps = [("read", 380 + 17 * r, 14.0 + (0.18 if candidate else 0.0)), ("write", 190 + 5 * r, 14.6)]
        if not candidate:
            steps.append(("setup", 20, 12.0))
        for step, n, mu in steps:
            run_shift = rng.normal(0, 0.02)
            for seq in range(n):
                warmup = seq < 3
                ok = rng.random() > 0.03
                latency = int(round(np.exp(rng.normal(mu + run_shift, 0.35)) / 10_000)) * 10_000
                if seq % 211 == 7:
                    latency *= 25  # a far tail that the outlier policies should catch
                start_us = clock_us
                clock_us += 1_000 + latency // 4_000
                sqlstate, error = None, None
                if not ok:
                    if rng.random() < 0.5:
                        sqlstate, error = "40001", "could not serialize access due to concurrent update"
                    else:
                        error = "Timeout while getting a connection from pool.\nat Pool.Get()"
                tasks.append([run["run_id"], step, latency if ok else None, ok, warmup, sqlstate, error,
                              start_us, start_us + (latency // 1000 if ok else 5_000_000)])
    return runs, tasks


def keep_mask(x, policy):
    if policy == "none":
        return np.ones(len(x), dtype=bool)
    kind, _, arg = policy.partition(":")
    if kind == "iqr":
        k = float(arg or 1.5)
        q1, q3 = np.quantile(x, 0.25), np.quantile(x, 0.75)
        return (x >= q1 - k * (q3 - q1)) & (x <= q3 + k * (q3 - q1))
    if kind == "mad":
        z = float(arg or 3.5)
        med = np.median(x)
        mad = np.median(np.abs(x - med))
        if mad == 0:
            return np.ones(len(x), dtype=bool)
        return np.abs(0.6745 * (x - med) / mad) <= z
    if kind == "trim":
        p = float(arg) / 100
        return (x >= np.quantile(x, p)) & (x <= np.quantile(x, 1 - p))
    raise ValueError(policy)


def error_code(task):
    _, _, _, ok, _, sqlstate, error, _, _ = task
    if sqlstate is not None:
        return sqlstate
    if error is not None:
        return error.split("\n")[0][:120]
    return "unknown"


def group_figures(tasks, runs_of_group, step, policy, threshold_ns):
    mine = [t for t in tasks if t[1] == step and t[0] in runs_of_group and not t[4]]
    latencies = {run: np.array([t[2] for t in mine if t[0] == run and t[3] and t[2] is not None], dtype=np.int64)
                 for run in runs_of_group}
    pooled = np.concatenate([latencies[r] for r in runs_of_group]) if mine else np.array([], dtype=np.int64)
    # Fences per run, on the run's own latencies (never on the pooled group).
    kept_by_run = {run: latencies[run][keep_mask(latencies[run], policy)] if len(latencies[run]) else latencies[run]
                   for run in runs_of_group}
    kept = [kept_by_run[r] for r in runs_of_group]
    x = np.sort(np.concatenate(kept)) if kept else np.array([], dtype=np.int64)
    errors = {}
    for t in mine:
        if not t[3]:
            errors[error_code(t)] = errors.get(error_code(t), 0) + 1
    g = {"runs": len({t[0] for t in mine}), "tasks": len(mine), "ok": sum(1 for t in mine if t[3]),
         "errors": sum(1 for t in mine if not t[3]),
         "errors_by_code": dict(sorted(errors.items(), key=lambda e: (-e[1], e[0]))),
         "outliers_removed": int(len(pooled) - len(x))}
    for name, p in SUMMARY:
        g[name] = float(np.quantile(x, p)) / 1e9 if len(x) else None
    g["mean_s"] = float(np.mean(x)) / 1e9 if len(x) else None
    g["stddev_s"] = float(np.std(x, ddof=1)) / 1e9 if len(x) > 1 else None
    g["under_threshold"] = int(np.sum(x < threshold_ns)) if threshold_ns is not None else None
    g["error_rate"] = g["errors"] / g["tasks"] if g["tasks"] else None
    g["unfiltered_p99_s"] = float(np.quantile(pooled, 0.99)) / 1e9 if len(pooled) else None
    g["unfiltered_max_s"] = float(np.max(pooled)) / 1e9 if len(pooled) else None
    # Every run with tasks in the step; its latency figures are None without successful tasks.
    run_ids = [r for r in runs_of_group if any(t[0] == r for t in mine)]
    medians = [float(np.median(kept_by_run[r])) / 1e9 if len(kept_by_run[r]) else None for r in run_ids]
    p99s = [float(np.quantile(kept_by_run[r], 0.99)) / 1e9 if len(kept_by_run[r]) else None for r in run_ids]
    error_rates = []
    throughputs = []
    for r in run_ids:
        # (successful tasks - 1) per second from the first to the last end of a successful task.
        ends = [t[8] for t in mine if t[0] == r and t[3]]
        span_s = (max(ends) - min(ends)) / 1e6 if ends else 0
        throughputs.append((len(ends) - 1) / span_s if len(ends) >= 2 and span_s > 0 else None)
        of_run = [t for t in mine if t[0] == r]
        error_rates.append(sum(1 for t in of_run if not t[3]) / len(of_run))
    per_run = {"medians": medians, "p99s": p99s, "throughputs": throughputs, "error_rates": error_rates}
    return g, x, run_ids, per_run


def run_level_ratio(b, c):
    """theta = exp(mean(log c) - mean(log b)), Welch on the logs; None unless 2+ positive values a side."""
    b = [v for v in b if v is not None]
    c = [v for v in c if v is not None]
    if len(b) < 2 or len(c) < 2 or min(b) <= 0 or min(c) <= 0:
        return None
    lb, lc = np.log(b), np.log(c)
    vb, vc = np.var(lb, ddof=1) / len(lb), np.var(lc, ddof=1) / len(lc)
    if vb + vc == 0:
        return None
    d = float(np.mean(lc) - np.mean(lb))
    se = math.sqrt(vb + vc)
    df = (vb + vc) ** 2 / (vb ** 2 / (len(lb) - 1) + vc ** 2 / (len(lc) - 1))
    p = float(stats.ttest_ind(lc, lb, equal_var=False).pvalue)
    t95, t90 = stats.t.ppf(0.975, df), stats.t.ppf(0.95, df)
    return {"ratio": math.exp(d), "ci95": [math.exp(d - t95 * se), math.exp(d + t95 * se)],
            "ci90": [math.exp(d - t90 * se), math.exp(d + t90 * se)], "p": p}


def compare_case(name, runs, tasks, policy="none", threshold_ns=None, alpha=0.05, include_tasks=True,
                 correction="holm"):
    adjust = ADJUSTERS[correction]
    base_runs = [r["run_id"] for r in runs if r["os"] == "linux"]
    cand_runs = [r["run_id"] for r in runs if r["os"] == "windows"]
    steps_b = {t[1] for t in tasks if t[0] in base_runs and not t[4]}
    steps_c = {t[1] for t in tasks if t[0] in cand_runs and not t[4]}
    steps = sorted(steps_b & steps_c)
    out = {}
    for step in steps:
        gb, xb, idb, rb = group_figures(tasks, base_runs, step, policy, threshold_ns)
        gc, xc, idc, rc = group_figures(tasks, cand_runs, step, policy, threshold_ns)
        fisher = 1.0 if (gb["errors"] + gc["errors"] == 0) else float(
            stats.fisher_exact([[gb["errors"], gb["ok"]], [gc["errors"], gc["ok"]]])[1])
        tests = {"fisher_errors_p": fisher}
        if len(xb) and len(xc):
            u, p, method = mann_whitney(xc, xb)
            t, df, tp = welch(xc, xb)
            d, kp, kmethod = ks(xc, xb)
            shift, lo, hi = hodges_lehmann(xc, xb)
            delta = cliffs_delta(xc, xb)
            tests.update({"mann_whitney_u": u, "mann_whitney_p": p, "mann_whitney_method": method,
                          "welch_t": number(t), "welch_df": number(df), "welch_p": number(tp),
                          "ks_d": d, "ks_p": kp, "ks_method": kmethod,
                          "hl_shift_s": shift / 1e9, "hl_ci95_s": [None if lo is None else lo / 1e9,
                                                                  None if hi is None else hi / 1e9],
                          "cliffs_delta": delta, "cliffs_magnitude": magnitude(delta),
                          "median_ratio": float(np.median(xc)) / float(np.median(xb))})
        run_level = {"baseline_run_ids": idb, "candidate_run_ids": idc,
                     "baseline_medians_s": rb["medians"], "candidate_medians_s": rc["medians"],
                     "baseline_p99_s": rb["p99s"], "candidate_p99_s": rc["p99s"],
                     "baseline_throughput_per_s": rb["throughputs"], "candidate_throughput_per_s": rc["throughputs"],
                     "baseline_error_rates": rb["error_rates"], "candidate_error_rates": rc["error_rates"]}
        for family, key in (("median", "medians"), ("p99", "p99s"), ("throughput", "throughputs")):
            run_level[family] = run_level_ratio(rb[key], rc[key])
        out[step] = {"baseline": gb, "candidate": gc, "tests": tests, "run_level": run_level}
    named = [s for s in steps if out[s]["tests"].get("mann_whitney_p") is not None]
    for s, a in zip(named, adjust([out[s]["tests"]["mann_whitney_p"] for s in named]) if named else []):
        out[s]["tests"]["p_adjusted"] = a
    # Each run-level family is corrected on its own, over the steps where theta is defined.
    for family in ("median", "p99", "throughput"):
        named = [s for s in steps if out[s]["run_level"][family] is not None]
        for s, a in zip(named, adjust([out[s]["run_level"][family]["p"] for s in named]) if named else []):
            out[s]["run_level"][family]["p_adjusted"] = a
    case = {"name": name, "settings": {"outliers": policy, "threshold_ns": threshold_ns, "alpha": alpha,
                                       "correction": correction},
            "runs": runs, "expected": {"steps": out, "skipped_steps": sorted((steps_b | steps_c) - set(steps))}}
    case["tasks"] = tasks if include_tasks else "tasks of " + include_tasks_name(name)
    return case


def include_tasks_name(name):
    return "two_steps"


def mann_whitney_any(c, b):
    """Run-level test: exact for few runs (ties enumerated), as benchlake documents."""
    return mann_whitney(np.asarray(c, dtype=np.float64), np.asarray(b, dtype=np.float64))[1]


def edge_tasks():
    """One run per group. 'one': 1 vs 2 successful tasks; 'failed': every candidate task fails;
    'equal': every latency the same in both groups."""
    runs = [{"run_id": "b1", "os": "linux"}, {"run_id": "c1", "os": "windows"}]
    tasks, clock = [], 1_700_000_000_000_000
    def add(run, step, latency, ok=True, sqlstate=None, error=None):
        nonlocal clock
        tasks.append([run, step, latency, ok, False, sqlstate, error, clock, clock + (latency or 0) // 1000 + 1])
        clock += 1000
    add("b1", "one", 1_500_000)
    add("c1", "one", 1_200_000)
    add("c1", "one", 2_400_000)
    for i in range(5):
        add("b1", "failed", 1_000_000 + 1000 * i)
        add("c1", "failed", None, ok=False, sqlstate="57014", error="canceling statement due to statement timeout")
    for i in range(6):
        add("b1", "equal", 3_000_000)
        add("c1", "equal", 3_000_000)
    return runs, tasks


def aa_control(pairs, alpha=0.05, margin=0.05):
    """A duet's a/a control by rounds: each round's figure is the mean of the log ratios of all its
    pairs (every workload's steps, each step weighing the same); then ttest_1samp over the rounds,
    or, where every round's pairs ran on one assignment of the two CPU sets and at least two rounds
    ran each way, scipy's linregress of the figure on x = +1/-1 (the intercept is ln θ, df = rounds - 2).
    TOST as two one-sided tests; the verdict as a family of one: equivalent if TOST p <= α, else
    faster/slower if the difference p <= α, else inconclusive."""
    rounds = []
    logs, sets = {}, {}
    for p in pairs:
        r = p["round"]
        if r not in logs:
            rounds.append(r)
            logs[r] = []
        logs[r].append(math.log(p["candidate"]) - math.log(p["baseline"]))
        sets.setdefault(r, set()).add(p["baseline_set"])
    figures = np.array([np.mean(logs[r]) for r in rounds])
    on_one = [sets[r] == {"0"} for r in rounds]
    consistent = all(len(sets[r]) == 1 and None not in sets[r] for r in rounds)
    fitted = consistent and sum(on_one) >= 2 and len(on_one) - sum(on_one) >= 2
    n = len(figures)
    if fitted:
        x = np.where(on_one, 1.0, -1.0)
        lr = stats.linregress(x, figures)
        est, se, df = float(lr.intercept), float(lr.intercept_stderr), n - 2
    else:
        one = stats.ttest_1samp(figures, 0.0)
        est, se, df = float(np.mean(figures)), float(np.std(figures, ddof=1) / math.sqrt(n)), float(one.df)
        assert math.isclose(2 * stats.t(df).sf(abs(est) / se), one.pvalue, rel_tol=1e-9)
    t = stats.t(df)
    p_difference = float(2 * t.sf(abs(est) / se))
    bound = math.log1p(margin)
    p_equivalence = float(max(t.sf((est + bound) / se), t.cdf((est - bound) / se)))
    if p_equivalence <= alpha:
        verdict = "equivalent"
    elif p_difference <= alpha:
        verdict = "slower" if est > 0 else "faster"
    else:
        verdict = "inconclusive"
    out = {"pairs": pairs, "round_figures": [float(f) for f in figures], "cpu_set_fitted": bool(fitted),
           "df": float(df), "ratio": math.exp(est), "p_difference": p_difference,
           "p_equivalence": p_equivalence, "verdict": verdict, "rounds": n,
           "measurements": len({(p["round"], p["workload"]) for p in pairs}),
           "steps": len({(p["workload"], p["step"]) for p in pairs})}
    for conf in (0.95, 0.90):
        half = t.ppf(0.5 + conf / 2) * se
        out["ci%d" % round(conf * 100)] = [math.exp(est - half), math.exp(est + half)]
    return out


def aa_control_cases():
    """The quickstart's shape (a sysbench workload of 4 steps and select-update's 1 step per round,
    select-update ten times as spread), with and without CPU sets, a round missing a step, and a
    control that shows a difference."""
    rng = np.random.default_rng(20261205)

    def rounds(n, theta_log, workloads, sets=True, set_effect=0.03, shared_sd=0.005, missing=()):
        pairs = []
        for r in range(1, n + 1):
            shared = rng.normal(0, shared_sd)
            base_on_one = r % 2 == 1
            x = 1.0 if base_on_one else -1.0
            for workload, steps, sd in workloads:
                if (r, workload) in missing:
                    continue
                for step in range(1, steps + 1):
                    b = float(1000.0 * step * math.exp(rng.normal(0, 0.2)))
                    c = float(b * math.exp(theta_log + set_effect * x + shared + rng.normal(0, sd)))
                    pairs.append({"round": r, "workload": workload, "step": "%s-%d" % (workload, step),
                                  "baseline": b, "candidate": c,
                                  "baseline_set": ("0" if base_on_one else "1") if sets else None})
        return pairs

    quickstart = (("sysbench", 4, 0.01), ("select-update", 1, 0.12))
    cases = [
        ("quickstart_four_rounds_sets_swapped", rounds(4, 0.0, quickstart)),
        ("two_workloads_three_rounds_no_sets", rounds(3, 0.0, (("sysbench", 2, 0.01), ("select-update", 1, 0.05)),
                                                      sets=False)),
        ("five_rounds_one_missing_a_step", rounds(5, 0.0, quickstart, missing=((2, "select-update"),))),
        ("a_control_that_shows_a_difference", rounds(4, math.log(1.08), (("sysbench", 4, 0.004),
                                                                         ("select-update", 1, 0.01)))),
    ]
    return [dict(name=name, **aa_control(pairs)) for name, pairs in cases]


def compare_cases():
    runs, tasks = make_tasks()
    cases = [compare_case("two_steps", runs, tasks, threshold_ns=2_000_000)]
    for policy in ["iqr:1.5", "mad:3.5", "trim:5"]:
        cases.append(compare_case("two_steps_" + policy.split(":")[0], runs, tasks, policy=policy,
                                  threshold_ns=2_000_000, include_tasks=False))
    # --correction none: every p_adjusted is the unadjusted p.
    cases.append(compare_case("two_steps_none", runs, tasks, threshold_ns=2_000_000, include_tasks=False,
                              correction="none"))
    edge_runs, edge = edge_tasks()
    cases.append(compare_case("edges", edge_runs, edge))
    return cases


def main():
    reference = {
        "generator": "analysis/src/test/python/make_reference.py",
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "quantile_probabilities": QUANTILE_PROBABILITIES,
        "samples": sample_cases(),
        "fisher": fisher_cases(),
        "kolmogorov_one_sample": kolmogorov_cases(),
        "corrections": correction_cases(),
        "log_ratios": log_ratio_cases(),
        "runs_needed": runs_needed_cases(),
        "runs_needed_at_effect": runs_needed_at_effect_cases(),
        "ratio_decisions": decision_cases(),
        "paired_log_ratios": paired_log_ratio_cases(),
        "crossover_log_ratios": crossover_log_ratio_cases(),
        "paired_runs_needed": paired_runs_needed_cases(),
        "paired_runs_needed_at_effect": paired_runs_needed_at_effect_cases(),
        "paired_ratio_decisions": paired_decision_cases(),
        "sequential_looks": sequential_cases(),
    }
    path = os.path.join(RESOURCES, "stats", "reference.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(reference, f, indent=1, sort_keys=True, allow_nan=False)
        f.write("\n")
    print("wrote", os.path.relpath(path, ROOT), file=sys.stderr)
    path = os.path.join(RESOURCES, "compare", "aa_controls.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"generator": reference["generator"], "numpy": np.__version__, "scipy": scipy.__version__,
                   "cases": aa_control_cases()}, f, indent=1, sort_keys=True, allow_nan=False)
        f.write("\n")
    print("wrote", os.path.relpath(path, ROOT), file=sys.stderr)
    path = os.path.join(RESOURCES, "testing", "cases.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"generator": reference["generator"], "cases": compare_cases()}, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", os.path.relpath(path, ROOT), file=sys.stderr)


if __name__ == "__main__":
    main()
