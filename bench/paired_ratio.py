#!/usr/bin/env python3
"""Paired-ratio decision of bench/loadgen.sh: is ours >= GOAL x theirs, from interleaved rounds?

Input (stdin): one round per line, "OURS THEIRS" (two positive throughputs measured next to each
other). Each round's ratio cancels most of the machine's drift; the rounds are the replicates.

Method: the log of each round's ratio; their mean and sample SD (ddof = 1); a two-sided 95 %
t-interval on the mean (df = n - 1), exponentiated: the geometric mean of the per-round ratios and
its interval. Verdict against GOAL: "met" when the interval's lower bound >= GOAL, "not met" when
its upper bound < GOAL (each a one-sided test at 2.5 %), otherwise "not decided", with the rounds
a fresh run would need for 80 % power (not more rounds added to this one: deciding after peeking
would inflate the error rates) if the true ratio were the observed geometric mean and the SD the
observed one (exact noncentral-t power, as analysis' RunsNeeded plans compare's run counts).

  python3 bench/paired_ratio.py --goal 0.95 < pairs     # the verdict line(s)
  python3 bench/paired_ratio.py < pairs                 # interval only (no goal)
  python3 bench/paired_ratio.py --self-check            # coverage and error rates by simulation
"""
import argparse
import math
import sys

import numpy as np
from scipy import stats

CONFIDENCE = 0.95
POWER = 0.80
MAX_ROUNDS = 10_000


def interval(log_ratios):
    """(geometric mean, lower, upper) of the ratios, from a t-interval on their logs."""
    x = np.asarray(log_ratios, dtype=float)
    n = x.size
    mean = x.mean()
    if n < 2:
        return math.exp(mean), float("nan"), float("nan")
    half = stats.t.ppf((1 + CONFIDENCE) / 2, n - 1) * x.std(ddof=1) / math.sqrt(n)
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def verdict(lower, upper, goal):
    if lower >= goal:
        return "met"
    if upper < goal:
        return "not met"
    return "not decided"


def power(n, distance, sd):
    """P(the interval's bound on the far side of the goal clears it) at true |log(ratio/goal)| = distance."""
    df = n - 1
    crit = stats.t.ppf((1 + CONFIDENCE) / 2, df)
    return stats.nct.sf(crit, df, distance * math.sqrt(n) / sd)


def rounds_needed(log_ratios, goal):
    """Smallest n whose power reaches POWER at the observed mean and SD (None beyond MAX_ROUNDS)."""
    x = np.asarray(log_ratios, dtype=float)
    distance = abs(x.mean() - math.log(goal))
    sd = x.std(ddof=1)
    if sd == 0:
        return x.size
    if distance == 0:
        return None
    lo, hi = 2, 2
    while power(hi, distance, sd) < POWER:
        lo, hi = hi, hi * 2
        if hi > MAX_ROUNDS:
            return None
    while lo < hi:  # power grows with n: bisect for the smallest n that reaches it
        mid = (lo + hi) // 2
        if power(mid, distance, sd) >= POWER:
            hi = mid
        else:
            lo = mid + 1
    return hi


def report(pairs, goal, label):
    ratios = [a / b for a, b in pairs]
    logs = [math.log(r) for r in ratios]
    n = len(logs)
    gm, lower, upper = interval(logs)
    line = f"{label}: {gm:.3f}x (geometric mean of {n} paired rounds"
    if n < 2:
        return line + "; one round gives no interval)"
    line += f", 95% CI {lower:.3f}-{upper:.3f}; per-round SD of the log ratio {np.std(logs, ddof=1):.3f})"
    if goal is None:
        return line
    v = verdict(lower, upper, goal)
    line += f"\n  goal >= {goal:g}: {v}"
    if v == "met":
        line += f" (the interval's lower bound {lower:.3f} >= {goal:g})"
    elif v == "not met":
        line += f" (the interval's upper bound {upper:.3f} < {goal:g})"
    else:
        need = rounds_needed(logs, goal)
        if need is None:
            line += (f": the interval {lower:.3f}-{upper:.3f} straddles {goal:g} and the ratio is too close to it"
                     f" for any practical number of rounds to decide")
        else:
            line += (f": the interval {lower:.3f}-{upper:.3f} straddles {goal:g}; a fresh run of {need} rounds"
                     f" (BENCH_REPEATS={need}, {need - n:+d} on this one) would decide with 80% power if the ratio"
                     f" and the SD stay as observed")
    return line


def self_check():
    """Seeded simulation: interval coverage, and false 'met'/'not met' rates at the goal itself."""
    rng = np.random.default_rng(20261201)
    trials, sd, goal = 20_000, 0.06, 0.95
    failures = []
    for n in (4, 8, 16):
        x = rng.normal(math.log(goal), sd, size=(trials, n))
        mean, s = x.mean(axis=1), x.std(axis=1, ddof=1)
        half = stats.t.ppf((1 + CONFIDENCE) / 2, n - 1) * s / math.sqrt(n)
        lower, upper = np.exp(mean - half), np.exp(mean + half)
        coverage = np.mean((lower <= goal) & (goal <= upper))
        false_met, false_not_met = np.mean(lower >= goal), np.mean(upper < goal)
        print(f"n={n:2d}: coverage {coverage:.4f}, 'met' at a true {goal} {false_met:.4f},"
              f" 'not met' {false_not_met:.4f} (each should be ~0.025)")
        # 3.5 binomial SEs of slack at these trial counts
        if abs(coverage - CONFIDENCE) > 0.006 or false_met > 0.03 or false_not_met > 0.03:
            failures.append(n)
    # The interval against scipy's own one-sample t-test (another code path to the same definition).
    sample = rng.normal(0, sd, size=7)
    ref = np.exp(stats.ttest_1samp(sample, 0).confidence_interval(CONFIDENCE))
    ours = interval(sample)[1:]
    print(f"interval {ours[0]:.6f}-{ours[1]:.6f}, scipy ttest_1samp {ref[0]:.6f}-{ref[1]:.6f}")
    if not np.allclose(ours, ref, rtol=1e-12):
        failures.append("interval")
    # The planned round count decides about POWER of the time when the true ratio is what was seen.
    true_ratio = 0.98
    planned = rounds_needed(rng.normal(math.log(true_ratio), sd, size=200_000), goal)
    x = rng.normal(math.log(true_ratio), sd, size=(trials, planned))
    half = stats.t.ppf((1 + CONFIDENCE) / 2, planned - 1) * x.std(axis=1, ddof=1) / math.sqrt(planned)
    decided = np.mean(np.exp(x.mean(axis=1) - half) >= goal)
    print(f"true ratio {true_ratio}, SD {sd}: {planned} rounds planned, 'met' in {decided:.4f} of trials"
          f" (should be ~{POWER})")
    if abs(decided - POWER) > 0.01:
        failures.append("power")
    if failures:
        print(f"self-check FAILED: {failures}")
        return 1
    print("self-check passed")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goal", type=float, help="decide whether the ratio is >= this")
    parser.add_argument("--label", default="ratio")
    parser.add_argument("--self-check", action="store_true")
    args = parser.parse_args()
    if args.self_check:
        return self_check()
    pairs = []
    for lineno, text in enumerate(sys.stdin, 1):
        if not text.strip():
            continue
        try:
            a, b = (float(v) for v in text.split())
        except ValueError:
            print(f"paired_ratio.py: stdin line {lineno}: expected two numbers, got {text.strip()!r}", file=sys.stderr)
            return 2
        if not (a > 0 and b > 0):
            print(f"paired_ratio.py: stdin line {lineno}: throughputs must be > 0, got {text.strip()!r}", file=sys.stderr)
            return 2
        pairs.append((a, b))
    if not pairs:
        print("paired_ratio.py: no rounds on stdin", file=sys.stderr)
        return 2
    print(report(pairs, args.goal, args.label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
