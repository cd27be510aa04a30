#!/usr/bin/python3
"""Reference figures for the change points of a paired trend (issue 47), computed with numpy.

A step's runs by version and pairing key (interleaved rounds paired with --pair-by round: rounds that
do not hold every version, a run whose key no other version shares, two versions tied to each other
but not to the base). The two-way model on the logs,

    ln x_i = mu_version(i) + beta_key(i) + e_i,

is fitted by numpy.linalg.lstsq on the full dummy matrix (rank deficient: lstsq's minimum-norm
solution; the residuals and the contrasts mu_v - mu_base are the same for every least-squares
solution), over the runs whose key holds at least two versions and whose versions are tied to the
base through shared keys. Each run's adjusted figure takes out its key's term as the key's other
runs estimate it (leave one out),

    a_i = ln x_i - mean_{j in key(i), j != i} (ln x_j - mu_version(j)),   exp(a_i + c),

c such that the base's adjusted runs keep the geometric mean of its raw ones (c takes out the
constant the minimum-norm solution puts into mu). PairedChangePointsTest holds the printed
values (to 1e-9). Independence: nothing here calls benchlake. Deterministic; run from anywhere:
    python3 analysis/src/test/python/make_paired_figures_reference.py
"""
import numpy as np

# (run, version, key, figure): the test's data set, as PairedChangePointsTest writes it.
RUNS = [
    ("1-r1", "1", "r1", 1000), ("1-r2", "1", "r2", 1100), ("1-r4", "1", "r4", 900), ("1-r5", "1", "r5", 1050),
    ("2-r1", "2", "r1", 980), ("2-r2", "2", "r2", 1090), ("2-r3", "2", "r3", 1200), ("2-r4", "2", "r4", 870),
    ("2-r5", "2", "r5", 1000),
    ("3-r1", "3", "r1", 1010), ("3-r2", "3", "r2", 1150), ("3-r3", "3", "r3", 1230), ("3-r4", "3", "r4", 950),
    ("4-r3", "4", "r3", 1100), ("4-r4", "4", "r4", 800), ("4-r5", "4", "r5", 960), ("4-r9", "4", "r9", 777),
    ("5-x1", "5", "x1", 500), ("5-x2", "5", "x2", 520), ("6-x1", "6", "x1", 510), ("6-x2", "6", "x2", 540),
]
BASE = "1"

# Keys with one version only are left out; then the versions tied to the base through shared keys.
versions_of_key = {}
for _, v, k, _ in RUNS:
    versions_of_key.setdefault(k, set()).add(v)
runs = [r for r in RUNS if len(versions_of_key[r[2]]) >= 2]
tied = {BASE}
grew = True
while grew:
    grew = False
    for k, vs in versions_of_key.items():
        if len(vs) >= 2 and vs & tied and not vs <= tied:
            tied |= vs
            grew = True
runs = [r for r in runs if r[1] in tied]
left_out = sorted({r[1] for r in RUNS} - {r[1] for r in runs})

versions = sorted({r[1] for r in runs})
keys = sorted({r[2] for r in runs})
X = np.zeros((len(runs), len(versions) + len(keys)))
y = np.log([r[3] for r in runs])
for i, (_, v, k, _) in enumerate(runs):
    X[i, versions.index(v)] = 1
    X[i, len(versions) + keys.index(k)] = 1
coef, *_ = np.linalg.lstsq(X, y, rcond=None)
mu = np.array([coef[versions.index(r[1])] for r in runs])
a = np.empty(len(runs))
for i, (_, _, k, _) in enumerate(runs):
    others = [j for j, r in enumerate(runs) if r[2] == k and j != i]
    a[i] = y[i] - np.mean(y[others] - mu[others])
base_rows = [i for i, r in enumerate(runs) if r[1] == BASE]
c = y[base_rows].mean() - a[base_rows].mean()
print("left out:", left_out)
print("numpy.linalg.lstsq, numpy", np.__version__)
for i, (run, v, k, x) in enumerate(runs):
    print(f'numpy.put("{run}", {float(np.exp(a[i] + c))!r});')
