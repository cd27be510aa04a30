#!/usr/bin/python3
"""Reference figures for a group's interval when its steps drop out of later rounds (issue 47).

GroupLogRatioTest pins benchlake's GroupLogRatio to these numbers (1e-9). The computation here is the
textbook one, by explicit matrices, and shares nothing with benchlake's sum-by-cluster code:

  paired    stack every step's per-round log ratios d[s][p] into one regression y = X b with a
            step-specific intercept (and, with sets, a step-specific set term x = +1/-1 for the
            baseline on set one/two); b = lstsq(X, y); theta = w.b, w = 1/|S| on the intercepts;
            CR2 (Bell & McCaffrey 2002): A_p = (I - H_pp)^(-1/2) (symmetric square root of the round's
            block of the hat matrix H), V = B^-1 (sum over rounds p of X_p' A_p e_p e_p' A_p X_p) B^-1
            with B = X'X, Var(theta) = w'Vw; df = tr(G'OG)^2 / tr((G'OG)^2) with G's column p =
            (I - H)[:, p] A_p X_p B^-1 w and O = diag(each step's residual variance, RSS/(n - params));
            interval exp(theta -/+ t(0.975, df) se).
  unpaired  per side the same regression of log figures on step intercepts, clustered by run (CR2,
            its df as above); theta = w.(b_c - b_b), se^2 = V_b + V_c, df = (V_b + V_c)^2 /
            (V_b^2/df_b + V_c^2/df_c).

Run from anywhere; prints the numbers the test holds:
    python3 analysis/src/test/python/make_group_clusters_reference.py
"""
import numpy as np
from scipy import stats

# Log ratios by step (rows) and round 1..8 (columns); nan: the step had dropped out of that round.
NAN = float("nan")
D = np.array([
    [-0.10, -0.02, -0.15, -0.08, -0.12, -0.04, -0.09, -0.11],
    [0.05, 0.11, 0.02, 0.09, 0.04, 0.08, NAN, NAN],
    [-0.20, -0.14, -0.24, -0.17, NAN, NAN, NAN, NAN],
    [0.01, 0.06, -0.03, 0.04, 0.00, 0.05, 0.02, NAN],
])
# +1: the round's baseline ran on set one (odd rounds), -1: on set two.
SET = np.array([1 if p % 2 == 0 else -1 for p in range(D.shape[1])])


def cr2(X, y, clusters, w, step_of):
    """theta, CR2 variance and Satterthwaite df of w.b for the regression y = X b clustered by `clusters`."""
    b = np.linalg.lstsq(X, y, rcond=None)[0]
    e = y - X @ b
    bread = np.linalg.inv(X.T @ X)
    hat = X @ bread @ X.T
    resid = np.eye(len(y)) - hat
    # Each step's residual variance, on its own observations.
    omega = np.zeros(len(y))
    for s in np.unique(step_of):
        rows = step_of == s
        params = np.linalg.matrix_rank(X[rows])
        omega[rows] = np.sum(e[rows] ** 2) / (rows.sum() - params)
    meat = np.zeros((X.shape[1], X.shape[1]))
    columns = []
    for p in np.unique(clusters):
        rows = clusters == p
        vals, vecs = np.linalg.eigh(np.eye(rows.sum()) - hat[np.ix_(rows, rows)])
        adjust = vecs @ np.diag(vals ** -0.5) @ vecs.T
        u = X[rows].T @ adjust @ e[rows]
        meat += np.outer(u, u)
        columns.append(resid[:, rows] @ adjust @ X[rows] @ bread @ w)
    g = np.array(columns).T
    m = g.T @ np.diag(omega) @ g
    return w @ b, w @ bread @ meat @ bread @ w, np.trace(m) ** 2 / np.trace(m @ m)


def paired(with_sets):
    steps, rounds = D.shape
    per_step = 2 if with_sets else 1
    rows, ys, clusters, step_of = [], [], [], []
    for s in range(steps):
        for p in range(rounds):
            if np.isnan(D[s, p]):
                continue
            x = np.zeros(steps * per_step)
            x[s] = 1
            if with_sets:
                x[steps + s] = SET[p]
            rows.append(x)
            ys.append(D[s, p])
            clusters.append(p)
            step_of.append(s)
    w = np.zeros(steps * per_step)
    w[:steps] = 1 / steps
    theta, var, df = cr2(np.array(rows), np.array(ys), np.array(clusters), w, np.array(step_of))
    half = stats.t.ppf(0.975, df) * np.sqrt(var)
    return theta, np.sqrt(var), df, np.exp(theta - half), np.exp(theta + half)


# Unpaired: log figures by step (rows) and run (columns) on each side; nan: not measured.
BASE = np.array([
    [4.60, 4.65, 4.58, 4.70, 4.62],
    [3.00, 3.10, 2.95, NAN, NAN],
    [5.20, 5.26, NAN, 5.15, 5.22],
])
CAND = np.array([
    [4.50, 4.57, 4.49, 4.55],
    [3.05, NAN, 3.12, 3.00],
    [5.10, 5.18, 5.12, NAN],
])


def side(logs):
    steps, runs = logs.shape
    rows, ys, clusters, step_of = [], [], [], []
    for s in range(steps):
        for r in range(runs):
            if not np.isnan(logs[s, r]):
                x = np.zeros(steps)
                x[s] = 1
                rows.append(x)
                ys.append(logs[s, r])
                clusters.append(r)
                step_of.append(s)
    return cr2(np.array(rows), np.array(ys), np.array(clusters), np.full(steps, 1 / steps), np.array(step_of))


def unpaired():
    mb, vb, db = side(BASE)
    mc, vc, dc = side(CAND)
    se = np.sqrt(vb + vc)
    df = (vb + vc) ** 2 / (vb ** 2 / db + vc ** 2 / dc)
    half = stats.t.ppf(0.975, df) * se
    theta = mc - mb
    return theta, se, df, np.exp(theta - half), np.exp(theta + half)


if __name__ == "__main__":
    for name, fig in (("paired", paired(False)), ("paired with sets", paired(True)), ("unpaired", unpaired())):
        print("%-17s theta %.15g  se %.15g  df %.15g  ci95 [%.15g, %.15g]" % ((name,) + tuple(fig)))
