"""Coverage of intervals for the score on new data, over datasets from populations.

Issue 15, items 6-7. Every replicate draws a fresh dataset of ``n`` rows from a
population whose truth is known, computes the intervals of each method on it,
and records the score, on held-out truth rows, of the model fitted on those
``n`` rows. The two targets:

* "new data" (Bates, Hastie & Tibshirani 2024, Err): the expected score of the
  learner trained on ``n`` rows from the population. Per cell it is the mean,
  over the cell's replicates (leave-one-out), of the fitted models' truth
  scores: every replicate is a fresh ``n``-row sample, so that mean estimates
  the expectation (its Monte-Carlo s.e. is reported and is small next to the
  interval widths).
* "the fitted model" (Bates et al.'s Err_XY): the truth score of the model
  fitted on this replicate's ``n`` rows.

Populations: ``synth-clf`` and ``synth-reg`` (known generating processes,
truth on 50,000 fresh rows), ``fair`` (statsmodels' Fair affairs data, 6,366
rows, y = affairs > 0) and ``randhie`` (statsmodels' RAND health insurance
data, 20,190 rows, y = log(1 + mdvis)): a real dataset is the population;
``n`` rows are drawn without replacement, the truth is the rest. statsmodels
is needed for the real populations only (it is no skperf dependency).

Methods (reference implementations, one set of fits shared per replicate:
3 x 10-fold CV, nested CV with K = 5, half-sample fits for the conservative Z,
one fit on all rows):

* ``corrected-t``: Nadeau & Bengio (2003) corrected resampled t on the fold
  scores of the first 1 or 3 repetitions of 10-fold CV (10 / 30 fits),
  variance (1/J + n2/n1) S^2, t with J - 1 degrees of freedom.
* ``conservative-z``: Nadeau & Bengio (2003, Sec. 5): the 10-fold estimate,
  variance from M = 6 pairs of disjoint half-samples, 3 random 90/10-of-n
  splits in each half (10 + 36 fits); on the first 30 datasets of a cell.
* ``nested-cv``: Bates, Hastie & Tibshirani (2024, Algorithm 1 and the
  bias correction of Sec. 4.3), K = 5 folds, R = 2 or 3 repetitions
  (15 fits each: K(K-1)/2 pair fits serve every inner CV, plus K outer
  fits, which are also the plain CV of the bias correction); decomposable
  losses only.
* ``wald-cv``: Bayle et al. (2020): one 10-fold CV, mean of per-row losses
  +- z sd / sqrt(n); decomposable losses only.
* ``holdout``: one 80/20 split; t interval of the per-row losses on the 20 %
  (DeLong for ROC AUC).
* ``naive-t-folds`` / ``naive-t-repeats`` (target "this dataset", shown for
  contrast): the t interval of the 30 fold scores, or of the 3 repetition
  means, as ``mean_ci`` computes on a repeated-CV distribution.

Learners: logistic regression / ridge on standardized features (computed in
numpy with scikit-learn's objective: ``_fast_linear``, tested to 1e-6), a
random forest of 10 trees, 15 nearest neighbours, an unpruned tree. The
cells run in phases (``PHASES``): the most important first.

``run --skperf [--reps R]`` computes ``skperf.generalization_ci`` (rows
``skperf:M``, its default designs) on the datasets of a few cells
(``SKPERF_CELLS``), to check the library against the reference methods.
``run --repeats`` replays every replicate with 10 repetitions of 10-fold CV
(the first 3 are the main study's): the corrected t on 5 and 10 repetitions
(``n_fits`` 50 and 100), with J - 1 and, on 10, with 9 degrees of freedom.
``null`` runs the comparison tests on datasets of two equally good (null) or
unequal (power) algorithms; ``null --skperf`` records the default decision of
``skperf.compare_models`` (target "new data") on the same datasets;
``null --repeats`` the corrected paired t on 3, 5 and 10 repetitions of
10-fold CV, ``null --skperf --repeats`` ``compare_models(n_repeats=3)``.

Results are appended per (cell, replicate) to
``benchmarks/results/generalization_<study>_w<worker>.csv``; a rerun skips
what is done. ``summarize`` writes ``docs/generalization_coverage.csv`` and
``docs/generalization_tables.inc`` (the tables docs/validity.rst includes),
and prints the comparison summary.

Usage::

    python benchmarks/generalization_study.py time            # time a replicate
    python benchmarks/generalization_study.py run [--worker 0 --workers 1]
    python benchmarks/generalization_study.py null [--reps 200] [--power-reps 200]
    python benchmarks/generalization_study.py null --skperf   # compare_models' default
    python benchmarks/generalization_study.py null --roc-auc  # the tests on ROC AUC
    python benchmarks/generalization_study.py null --search   # the search tools
    python benchmarks/generalization_study.py null --generalization
    python benchmarks/generalization_study.py run --repeats   # 5 and 10 x 10-fold
    python benchmarks/generalization_study.py null --repeats [--skperf]
    python benchmarks/generalization_study.py summarize

Run with OMP_NUM_THREADS=1 (set below before numpy is imported).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import csv  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402
from sklearn import set_config  # noqa: E402

from skperf.stats._generalization import (  # noqa: E402
    nested_cv_ci as skperf_nested_cv_ci,
)
from skperf.stats._generalization import (  # noqa: E402
    wald_cv_ci as skperf_wald_cv_ci,
)

# The study's inputs are finite and its parameters valid: skip scikit-learn's
# per-call validation, a large share of the cost of a fit at these sizes.
set_config(assume_finite=True, skip_parameter_validation=True)

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
DOCS_CSV = ROOT / "docs" / "generalization_coverage.csv"
DOCS_TABLES = ROOT / "docs" / "generalization_tables.inc"  # included by validity.rst
SEED = 20261125
CONFIDENCE = 0.95
TRUTH_ROWS = 50_000
EPS = 1e-15  # probabilities are clipped to [EPS, 1 - EPS] for the log loss

CLF_METRICS = ("accuracy", "log_loss", "brier", "roc_auc")
REG_METRICS = ("mse",)
DECOMPOSABLE = {"accuracy", "log_loss", "brier", "mse"}

# --------------------------------------------------------------------------
# Populations
# --------------------------------------------------------------------------

_CLF_BETA = np.array([1.0, -0.8, 0.6, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])


def _synth_clf_logit(x):
    """True log-odds of ``synth-clf``: linear part, an interaction, a wiggle."""
    return x @ _CLF_BETA + 0.8 * x[:, 3] * x[:, 4] + 0.7 * np.sin(2.0 * x[:, 5])


def _synth_reg_mean(x):
    """True regression function of ``synth-reg`` (noise sd 1)."""
    return (
        x[:, 0]
        - 0.7 * x[:, 1]
        + 0.5 * x[:, 2]
        + 0.6 * x[:, 3] * x[:, 4]
        + 0.8 * np.sin(2.0 * x[:, 5])
    )


class Population:
    """A population with known truth.

    ``draw(rng, n)`` returns ``(X, y, X_truth, y_truth)``: a dataset of ``n``
    rows and the rows on which the fitted model is scored.
    """

    def __init__(self, name, task, sample=None, data=None):
        self.name = name
        self.task = task
        self._sample = sample
        self._data = data
        self._truth = None

    @property
    def metrics(self):
        return CLF_METRICS if self.task == "clf" else REG_METRICS

    def draw(self, rng, n):
        if self._sample is not None:
            if self._truth is None:  # fixed fresh rows, the same for every replicate
                self._truth = self._sample(
                    np.random.default_rng([SEED, 999]), TRUTH_ROWS
                )
            X, y = self._sample(rng, n)
            return X, y, self._truth[0], self._truth[1]
        X_all, y_all = self._data()
        if n >= len(y_all):
            raise ValueError(f"n={n} must be below the population's {len(y_all)} rows")
        take = np.zeros(len(y_all), dtype=bool)
        take[rng.choice(len(y_all), n, replace=False)] = True
        return X_all[take], y_all[take], X_all[~take], y_all[~take]


def _sample_synth_clf(rng, n):
    x = rng.standard_normal((n, 10))
    p = 1.0 / (1.0 + np.exp(-_synth_clf_logit(x)))
    return x, (rng.random(n) < p).astype(int)


def _sample_synth_reg(rng, n):
    x = rng.standard_normal((n, 10))
    return x, _synth_reg_mean(x) + rng.standard_normal(n)


_REAL_CACHE = {}
FAST_LINEAR = True  # the linear learners in numpy (see _fast_linear)


def _fair():
    if "fair" not in _REAL_CACHE:
        from statsmodels.datasets import fair

        df = fair.load_pandas().data
        y = (df["affairs"] > 0).to_numpy(dtype=int)
        X = df.drop(columns="affairs").to_numpy(dtype=float)
        _REAL_CACHE["fair"] = (X, y)
    return _REAL_CACHE["fair"]


def _randhie():
    if "randhie" not in _REAL_CACHE:
        from statsmodels.datasets import randhie

        df = randhie.load_pandas().data
        y = np.log1p(df["mdvis"].to_numpy(dtype=float))
        X = df.drop(columns="mdvis").to_numpy(dtype=float)
        _REAL_CACHE["randhie"] = (X, y)
    return _REAL_CACHE["randhie"]


POPULATIONS = {
    "synth-clf": Population("synth-clf", "clf", sample=_sample_synth_clf),
    "synth-reg": Population("synth-reg", "reg", sample=_sample_synth_reg),
    "fair": Population("fair", "clf", data=_fair),
    "randhie": Population("randhie", "reg", data=_randhie),
}

# --------------------------------------------------------------------------
# Learners
# --------------------------------------------------------------------------


def make_learner(name, task, seed):
    """A fresh estimator (``seed`` seeds the randomized ones)."""
    from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    clf = task == "clf"
    if name == "linear":
        est = LogisticRegression() if clf else Ridge(alpha=1.0)
        return make_pipeline(StandardScaler(), est)
    if name == "forest":
        cls = RandomForestClassifier if clf else RandomForestRegressor
        return cls(n_estimators=10, min_samples_leaf=2, random_state=seed, n_jobs=1)
    if name == "knn":
        cls = KNeighborsClassifier if clf else KNeighborsRegressor
        return make_pipeline(StandardScaler(), cls(n_neighbors=15, algorithm="brute"))
    if name == "tree":
        cls = DecisionTreeClassifier if clf else DecisionTreeRegressor
        return cls(random_state=seed)
    raise ValueError(f"unknown learner {name!r}")


def _standardize(X, X_test):
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0  # as StandardScaler
    return (X - mu) / sd, (X_test - mu) / sd


def _fast_linear(task, X, y, X_test, *, scale=True):
    """StandardScaler + LogisticRegression(C=1) or Ridge(alpha=1), in numpy.

    The same objectives as scikit-learn's (L2 penalty 1/2 ||w||^2 on the
    standardized coefficients, intercept free; logistic: Newton's method to a
    gradient of 1e-10), without its per-call overhead, which dominates a fit
    at these sizes. Predictions agree with scikit-learn's to ~1e-6
    (lbfgs stops at its own tolerance); tested in
    tests/test_generalization_study.py.
    """
    Xs, Xt = _standardize(X, X_test) if scale else (X, X_test)
    Z = np.column_stack([Xs, np.ones(len(Xs))])
    pen = np.ones(Z.shape[1])
    pen[-1] = 0.0
    if task == "reg":
        w = np.linalg.solve(Z.T @ Z + np.diag(pen), Z.T @ y)
        return Xt @ w[:-1] + w[-1]
    if y.min() == y.max():  # one class: predict it
        return np.full(len(X_test), float(y[0]))
    w = np.zeros(Z.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(Z @ w)))
        g = Z.T @ (p - y) + pen * w
        if np.abs(g).max() < 1e-10:
            break
        H = (Z * (p * (1 - p))[:, None]).T @ Z + np.diag(pen)
        w -= np.linalg.solve(H, g)
    return 1.0 / (1.0 + np.exp(-(Xt @ w[:-1] + w[-1])))


def _fit_predict(learner, task, seed, X, y, X_test):
    if learner == "linear" and FAST_LINEAR:
        return _fast_linear(task, X, y, X_test)
    est = make_learner(learner, task, seed)
    est.fit(X, y)
    if task == "clf":
        proba = est.predict_proba(X_test)
        classes = list(est.classes_)
        if 1 not in classes:
            return np.zeros(len(X_test))
        return proba[:, classes.index(1)]
    return est.predict(X_test)


# --------------------------------------------------------------------------
# Scores
# --------------------------------------------------------------------------


def row_scores(metric, y, pred):
    """Per-row values of a decomposable metric (accuracy: 1 if correct)."""
    if metric == "accuracy":
        return ((pred > 0.5).astype(int) == y).astype(float)
    if metric == "log_loss":
        p = np.clip(np.where(y == 1, pred, 1.0 - pred), EPS, 1.0)
        return -np.log(p)
    if metric == "brier":
        return (pred - y) ** 2
    if metric == "mse":
        return (pred - y) ** 2
    raise ValueError(metric)


def auc(y, pred):
    """ROC AUC (Mann-Whitney, ties count 1/2); nan with one class only."""
    y = np.asarray(y)
    n1 = int(y.sum())
    n0 = len(y) - n1
    if n1 == 0 or n0 == 0:
        return np.nan
    r = stats.rankdata(pred)
    return (r[y == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


def score(metric, y, pred):
    if metric == "roc_auc":
        return auc(y, pred)
    return float(np.mean(row_scores(metric, y, pred)))


# --------------------------------------------------------------------------
# Reference interval methods (the study's own, cited in the module docstring)
# --------------------------------------------------------------------------


def corrected_t(scores, test_train_ratio, confidence=CONFIDENCE, df=None):
    """Nadeau & Bengio (2003) corrected resampled t: (estimate, low, high);
    ``df`` (default J - 1) as in Bouckaert (2003)'s calibrated reading."""
    s = np.asarray(scores, dtype=float)
    s = s[np.isfinite(s)]
    j = len(s)
    if j < 2:
        return np.nan, np.nan, np.nan
    m = s.mean()
    se = np.sqrt((1.0 / j + test_train_ratio) * s.var(ddof=1))
    h = stats.t.ppf(0.5 + confidence / 2, j - 1 if df is None else df) * se
    return m, m - h, m + h


def t_interval(values, confidence=CONFIDENCE):
    """Plain t interval of the mean (the "this dataset" mean_ci)."""
    return corrected_t(values, 0.0, confidence)


def wald(values, confidence=CONFIDENCE):
    """Mean of per-row values +- z sd / sqrt(n) (Bayle et al. 2020)."""
    v = np.asarray(values, dtype=float)
    m = v.mean()
    h = stats.norm.ppf(0.5 + confidence / 2) * v.std(ddof=1) / np.sqrt(len(v))
    return m, m - h, m + h


def delong(y, pred, confidence=CONFIDENCE):
    """ROC AUC with DeLong's variance (DeLong et al. 1988)."""
    y = np.asarray(y)
    pos, neg = pred[y == 1], pred[y == 0]
    if len(pos) < 2 or len(neg) < 2:
        return np.nan, np.nan, np.nan
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    a = psi.mean()
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    se = np.sqrt(v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg))
    h = stats.norm.ppf(0.5 + confidence / 2) * se
    return a, a - h, a + h


def nested_cv_interval(ho, pivots, cv_rows, n, k, confidence=CONFIDENCE):
    """Bates, Hastie & Tibshirani (2024) nested CV interval.

    ``ho``: per-row values from the inner fits (training on n (K-2)/K rows),
    ``pivots``: (a, b) per outer fold: a = mean inner - mean outer values,
    b = var(outer values) / n_fold; ``cv_rows``: per-row values of plain
    K-fold CV (the outer fits) for the bias correction (their Sec. 4.3).
    """
    ho = np.asarray(ho, dtype=float)
    pivots = np.asarray(pivots, dtype=float)
    n_sub = np.floor(n * (k - 1) / k)
    se_naive = ho.std(ddof=1) / np.sqrt(n_sub)
    mse = np.mean(pivots[:, 0] ** 2 - pivots[:, 1])
    infl = np.sqrt(max(0.0, mse)) / se_naive if se_naive > 0 else 1.0
    infl = min(max(infl, 1.0), np.sqrt(k))
    bias = (ho.mean() - np.mean(cv_rows)) * (1 + ((k - 2) / k) ** 1.5)
    est = ho.mean() - bias
    h = stats.norm.ppf(0.5 + confidence / 2) * se_naive * infl
    return est, est - h, est + h


# --------------------------------------------------------------------------
# One replicate
# --------------------------------------------------------------------------

N_CV_REPEATS = 3  # 10-fold CV repetitions (corrected-t budgets 10 / 30)
NCV_K = 5
NCV_REPEATS = 3  # nested-CV budgets 2 and 3 repetitions (30 / 45 fits)
CZ_PAIRS = 6
CZ_SPLITS = 3
CZ_REPS = 30


def _folds(rng, n, k):
    ids = np.arange(n) % k
    rng.shuffle(ids)
    return ids


class _Fitter:
    """Counts fits, draws a fresh seed for each."""

    def __init__(self, learner, task, rng):
        self.learner, self.task, self.rng = learner, task, rng
        self.n_fits = 0

    def __call__(self, X, y, X_test):
        self.n_fits += 1
        seed = int(self.rng.integers(2**31 - 1))
        return _fit_predict(self.learner, self.task, seed, X, y, X_test)


def _cv_part(pop, learner, n, rep, repeats=None):
    """Replicate ``rep``'s dataset, fitted model and repeated 10-fold CV.

    The first part of :func:`replicate` (same random stream), shared with
    :func:`replay_replicate` so that both see the same fits. ``repeats``
    (default ``N_CV_REPEATS``) more repetitions draw theirs after the first
    ``N_CV_REPEATS``, which stay those of :func:`replicate`.
    """
    rng = np.random.default_rng(
        [SEED, list(POPULATIONS).index(pop.name), LEARNERS.index(learner), n, rep]
    )
    X, y, Xt, yt = pop.draw(rng, n)
    fit = _Fitter(learner, pop.task, rng)
    # The fitted model and its truth score.
    truth_pred = fit(X, y, Xt)
    # 3 x 10-fold CV: per-row predictions and fold ids.
    cv_pred, cv_ids = _repeated_cv(
        rng, n, lambda tr, te: fit(X[tr], y[tr], X[te]), repeats=repeats
    )
    return rng, fit, X, y, yt, truth_pred, cv_pred, cv_ids


def _repeated_cv(rng, n, predict, lead=(), repeats=None):
    """``repeats`` (default ``N_CV_REPEATS``) shuffled 10-fold CVs:
    ``predict(train, test)`` per fold; returns predictions ``lead + (R, n)``
    and fold ids ``(R, n)``."""
    repeats = N_CV_REPEATS if repeats is None else repeats
    pred = np.empty((*lead, repeats, n))
    ids_all = np.empty((repeats, n), dtype=int)
    for r in range(repeats):
        ids = _folds(rng, n, 10)
        ids_all[r] = ids
        for f in range(10):
            te = ids == f
            pred[..., r, te] = predict(~te, te)
    return pred, ids_all


def instability(metric, y, cv_pred):
    """Share of the per-row loss variance that is refit noise.

    ``mean_i var_r l[r, i] / var_i mean_r l[r, i]`` over the repetitions ``r``
    of K-fold CV (each row predicted once per repetition, by models trained
    on different rows and seeds): near 0 for a stable learner, large when a
    row's loss depends on which rows and seed trained the model. The
    statistic of the log-loss gate of auto's rule before (:func:`auto_rows_before`).
    """
    losses = np.array([row_scores(metric, y, p) for p in cv_pred])
    between = losses.mean(axis=0).var(ddof=1)
    within = losses.var(axis=0, ddof=1).mean()
    return float(within / between) if between > 0 else np.inf


#: The near-zero probability of the log-loss gate of auto's rule before the
#: 10 x 10-fold one (:func:`auto_rows_before`).
NEAR_ZERO_P = 1e-6
#: ... and its refit-instability threshold, and the n below which squared
#: error read the corrected t with 9 degrees of freedom.
INSTABILITY_THRESHOLD = 0.1
REGRESSION_CALIBRATED_N = 200


def near_zero(y, cv_pred):
    """``(confident, missed)``: held-out predictions (over the repetitions of
    10-fold CV) that gave some class a probability below ``NEAR_ZERO_P``,
    and those of them where it was the observed class: the second statistic
    of the log-loss gate of auto's rule before (:func:`auto_rows_before`)."""
    p = np.where(y == 1, cv_pred, 1.0 - cv_pred)
    confident = np.minimum(cv_pred, 1.0 - cv_pred) < NEAR_ZERO_P
    return int(np.sum(confident)), int(np.sum(p < NEAR_ZERO_P))


def _near_zero_row(y, cv_pred):
    confident, missed = near_zero(y, cv_pred)
    return {"metric": "log_loss", "near_zero": confident, "missed": missed}


def nearzero_replicate(pop, learner, n, rep):
    """Replay replicate ``rep``'s 3 x 10-fold CV for :func:`near_zero`."""
    *_, y, _, _, cv_pred, _ = _cv_part(pop, learner, n, rep)
    return [_near_zero_row(y, cv_pred)]


#: Repetitions of 10-fold CV in the ``run --repeats`` replay.
MORE_REPEATS = 10


def repeats_replicate(pop, learner, n, rep):
    """The corrected t on more repetitions of 10-fold CV (``run --repeats``).

    Replays replicate ``rep`` (its first ``N_CV_REPEATS`` repetitions are
    those of :func:`replicate`, a check: the rows ``n_fits = 30`` equal the
    main study's) and adds ``MORE_REPEATS - N_CV_REPEATS`` more: the
    corrected t on 5 and 10 repetitions with J - 1 degrees of freedom, and
    on 10 read with K - 1 = 9 (Bouckaert 2003's calibrated reading; the
    design of ``generalization_ci(method="auto")``, of ``compare_models``
    and of a user's ``RepeatedKFold(n_repeats=10)``).
    """
    _, _, _, y, yt, truth_pred, cv_pred, cv_ids = _cv_part(
        pop, learner, n, rep, repeats=MORE_REPEATS
    )
    out = []
    for m in pop.metrics:
        fs = np.array(
            [
                [
                    score(m, y[cv_ids[r] == f], cv_pred[r, cv_ids[r] == f])
                    for f in range(10)
                ]
                for r in range(MORE_REPEATS)
            ]
        )
        for reps, df, method in (
            (N_CV_REPEATS, None, "corrected-t"),
            (5, None, "corrected-t"),
            (MORE_REPEATS, None, "corrected-t"),
            (MORE_REPEATS, 9, "corrected-t (9 df)"),
        ):
            est, low, high = corrected_t(fs[:reps].ravel(), 1 / 9, df=df)
            out.append(
                {
                    "metric": m,
                    "method": method,
                    "n_fits": 10 * reps,
                    "estimate": est,
                    "low": low,
                    "high": high,
                    "truth_fitted": score(m, yt, truth_pred),
                }
            )
    return out


def _inner_rows(metric, y, inner_pred, ids):
    """Per-row values of the inner fits, NaN on each held-out outer fold."""
    R, K, n = inner_pred.shape
    out = np.full((R, K, n), np.nan)
    for r in range(R):
        for f in range(K):
            keep = ids[r] != f
            out[r, f, keep] = row_scores(metric, y[keep], inner_pred[r, f, keep])
    return out


def replay_replicate(pop, learner, n, rep):
    """Rows added after the first round (skperf's nested CV, instability)."""
    return [
        r
        for r in replicate(pop, learner, n, rep)
        if "instability" in r or r["method"] == "nested-cv (skperf)"
    ]


def replicate(pop, learner, n, rep):
    """All methods' intervals on one dataset: a list of result dicts."""
    rng, fit, X, y, yt, truth_pred, cv_pred, cv_ids = _cv_part(pop, learner, n, rep)
    metrics = pop.metrics
    out = []

    def add(metric, method, n_fits, est, low, high):
        out.append(
            {
                "metric": metric,
                "method": method,
                "n_fits": n_fits,
                "estimate": est,
                "low": low,
                "high": high,
            }
        )

    truth = {m: score(m, yt, truth_pred) for m in metrics}
    for m in metrics:  # written to the "instab" / "nearzero" results by run()
        if m in DECOMPOSABLE:
            out.append({"metric": m, "instability": instability(m, y, cv_pred)})
        if m == "log_loss":
            out.append(_near_zero_row(y, cv_pred))

    # Nested CV (Bates et al. Algorithm 1; pairwise fits serve two inner CVs).
    ncv_inner = np.empty((NCV_REPEATS, NCV_K, n))  # [r, outer f, row]: inner pred
    ncv_outer = np.empty((NCV_REPEATS, n))
    ncv_ids = np.empty((NCV_REPEATS, n), dtype=int)
    for r in range(NCV_REPEATS):
        ids = _folds(rng, n, NCV_K)
        ncv_ids[r] = ids
        for f1 in range(NCV_K):
            for f2 in range(f1 + 1, NCV_K):
                te = (ids == f1) | (ids == f2)
                p = fit(X[~te], y[~te], X[te])
                full = np.full(n, np.nan)
                full[te] = p
                # row in f2 predicted without {f1, f2}: inner CV of outer fold f1
                ncv_inner[r, f1, ids == f2] = full[ids == f2]
                ncv_inner[r, f2, ids == f1] = full[ids == f1]
        for f in range(NCV_K):
            te = ids == f
            ncv_outer[r, te] = fit(X[~te], y[~te], X[te])

    # Conservative Z: pairs of disjoint half-samples, random splits in each.
    n_te = max(2, round(n / 10))
    half = n // 2
    cz_pred = []  # (pair, half, split) -> (test idx, pred)
    # the conservative Z (a third of the fits, and twice as wide as the others)
    # is computed on the first CZ_REPS datasets of a cell only
    for _ in range(CZ_PAIRS if rep < CZ_REPS else 0):
        perm = rng.permutation(n)
        halves = (perm[:half], perm[half : 2 * half])
        pair = []
        for h in halves:
            splits = []
            for _ in range(CZ_SPLITS):
                p = rng.permutation(h)
                te, tr = p[:n_te], p[n_te:]
                splits.append((te, fit(X[tr], y[tr], X[te])))
            pair.append(splits)
        cz_pred.append(pair)

    z = stats.norm.ppf(0.5 + CONFIDENCE / 2)
    for m in metrics:
        # fold scores of the repeated 10-fold CV
        fs = np.array(
            [
                [
                    score(m, y[cv_ids[r] == f], cv_pred[r, cv_ids[r] == f])
                    for f in range(10)
                ]
                for r in range(N_CV_REPEATS)
            ]
        )
        for reps in (1, N_CV_REPEATS):
            add(m, "corrected-t", 10 * reps, *corrected_t(fs[:reps].ravel(), 1 / 9))
        add(m, "naive-t-folds", 10 * N_CV_REPEATS, *t_interval(fs.ravel()))
        rep_means = (
            fs.mean(axis=1)
            if m == "roc_auc"
            else np.array([score(m, y, cv_pred[r]) for r in range(N_CV_REPEATS)])
        )
        add(m, "naive-t-repeats", 10 * N_CV_REPEATS, *t_interval(rep_means))

        # conservative Z: estimate from the first 10-fold CV, variance from halves
        if not cz_pred:
            mus = None
        else:
            mus = np.array(
                [
                    [
                        np.nanmean([score(m, y[te], p) for te, p in splits])
                        for splits in pair
                    ]
                    for pair in cz_pred
                ]
            )
        if mus is not None:
            est = np.nanmean(fs[0])
            var = 0.5 * np.mean((mus[:, 0] - mus[:, 1]) ** 2)
            h = z * np.sqrt(var)
            add(
                m,
                "conservative-z",
                10 + 2 * CZ_PAIRS * CZ_SPLITS,
                est,
                est - h,
                est + h,
            )

        # holdout: the first outer fold of the first nested-CV repetition
        te = ncv_ids[0] == 0
        if m == "roc_auc":
            add(m, "holdout", 1, *delong(y[te], ncv_outer[0, te]))
        else:
            add(m, "holdout", 1, *t_interval(row_scores(m, y[te], ncv_outer[0, te])))

        if m not in DECOMPOSABLE:
            continue
        add(m, "wald-cv", 10, *wald(row_scores(m, y, cv_pred[0])))
        for reps in (2, NCV_REPEATS):
            ho, piv, cv_rows = [], [], []
            for r in range(reps):
                ids = ncv_ids[r]
                cv_rows.append(row_scores(m, y, ncv_outer[r]))
                for f in range(NCV_K):
                    inner = row_scores(m, y[ids != f], ncv_inner[r, f, ids != f])
                    outer = row_scores(m, y[ids == f], ncv_outer[r, ids == f])
                    ho.append(inner)
                    piv.append(
                        (inner.mean() - outer.mean(), outer.var(ddof=1) / len(outer))
                    )
            n_fits = reps * NCV_K * (NCV_K + 1) // 2
            add(
                m,
                "nested-cv",
                n_fits,
                *nested_cv_interval(
                    np.concatenate(ho), piv, np.concatenate(cv_rows), n, NCV_K
                ),
            )
            # the same fits through skperf's own formula (mlr3inferr's factors)
            ci = skperf_nested_cv_ci(
                _inner_rows(m, y, ncv_inner[:reps], ncv_ids[:reps]),
                np.array([row_scores(m, y, ncv_outer[r]) for r in range(reps)]),
                ncv_ids[:reps],
                confidence=CONFIDENCE,
            )
            add(m, "nested-cv (skperf)", n_fits, ci.estimate, ci.low, ci.high)

    for row in out:
        row["truth_fitted"] = truth[row["metric"]]
    return out


INSTAB_FIELDS = ("population", "learner", "n", "rep", "metric", "instability")
NEARZERO_FIELDS = ("population", "learner", "n", "rep", "metric", "near_zero", "missed")


SKPERF_SCORING = {
    "accuracy": ("accuracy", 1.0),
    "log_loss": ("neg_log_loss", -1.0),
    "brier": ("neg_brier_score", -1.0),
    "roc_auc": ("roc_auc", 1.0),
    "mse": ("neg_mean_squared_error", -1.0),
}


# skperf.generalization_ci's own methods, at their default designs, on the
# same datasets as the reference methods (the CPU allowed a few cells only).
SKPERF_PLAN = {"accuracy": ("nested-cv", "corrected-t"), "roc_auc": ("corrected-t",)}
SKPERF_CELLS = [
    ("synth-clf", "linear", 100),
    ("synth-clf", "linear", 500),
    ("fair", "linear", 100),
    ("synth-clf", "linear", 200),
]


# generalization_ci(method="auto") end to end through the API, on cells where
# each of its branches is taken: the log-loss gate (a forest; 15 nearest
# neighbours), the Brier score ungated, ROC AUC and squared error below
# n = 200 (the corrected t with 9 df), squared error from 200 (29 df).
SKPERF_AUTO_PLAN = {
    "accuracy": ("auto",),
    "log_loss": ("auto",),
    "brier": ("auto",),
    "roc_auc": ("auto",),
    "mse": ("auto",),
}
SKPERF_AUTO_CELLS = [
    ("fair", "forest", 200),
    ("synth-clf", "knn", 500),
    ("synth-reg", "linear", 100),
    ("synth-reg", "forest", 200),
    ("synth-clf", "linear", 200),
    ("fair", "linear", 500),
]


def skperf_auto_replicate(pop, learner, n, rep):
    """``skperf:auto`` rows on replicate ``rep``'s dataset (``n_fits``: the
    budget, 100; the fits spent and the method chosen in ``note``)."""
    return skperf_replicate(pop, learner, n, rep, plan=SKPERF_AUTO_PLAN)


def skperf_replicate(pop, learner, n, rep, plan=SKPERF_PLAN):
    """skperf.generalization_ci rows on replicate ``rep``'s dataset.

    The dataset and the fitted model (its truth score) are those of
    :func:`replicate` (same seeds).
    """
    rng = np.random.default_rng(
        [SEED, list(POPULATIONS).index(pop.name), LEARNERS.index(learner), n, rep]
    )
    X, y, Xt, yt = pop.draw(rng, n)
    truth_pred = _Fitter(learner, pop.task, rng)(X, y, Xt)
    rows = _skperf_rows(pop, learner, X, y, rng, plan)
    for row in rows:
        row["truth_fitted"] = score(row["metric"], yt, truth_pred)
    return rows


def _skperf_rows(pop, learner, X, y, rng, plan=SKPERF_PLAN):
    """Rows for skperf.generalization_ci, in the study's units."""
    import skperf

    rows = []
    est = make_learner(learner, pop.task, int(rng.integers(2**31 - 1)))
    for m in pop.metrics:
        if m not in plan:
            continue
        scoring, sign = SKPERF_SCORING[m]
        for method in plan[m]:
            seed = int(rng.integers(2**31 - 1))
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ci = skperf.generalization_ci(
                        est,
                        X,
                        y,
                        scoring=scoring,
                        method=method,
                        confidence=CONFIDENCE,
                        random_state=seed,
                        n_jobs=1,
                    )
            except (ValueError, TypeError) as exc:  # e.g. not valid for this scorer
                rows.append(
                    {
                        "metric": m,
                        "method": f"skperf:{method}",
                        "n_fits": 0,
                        "estimate": np.nan,
                        "low": np.nan,
                        "high": np.nan,
                        "note": str(exc)[:80],
                    }
                )
                continue
            lo, hi = sorted((sign * ci.low, sign * ci.high))
            auto = method == "auto"
            rows.append(
                {
                    "metric": m,
                    "method": f"skperf:{method}",
                    "n_fits": 100 if auto else ci.n_fits,
                    "estimate": sign * ci.estimate,
                    "low": lo,
                    "high": hi,
                    "note": f"{ci.method} {ci.n_fits}" if auto else f"{ci.method}",
                }
            )
    return rows


# --------------------------------------------------------------------------
# The grid, in priority tiers
# --------------------------------------------------------------------------

LEARNERS = ("linear", "forest", "knn", "tree")

# Cells (population, learner, n) and their replicate targets, run in phases so
# that the most important cells (n = 100-500, linear and forest, synthetic and
# real classification) reach their targets first and every other cell still
# gets some replicates. A phase is (cells, first replicate, last replicate + 1).
TIER1 = [
    (pop, lrn, n)
    for pop in ("synth-clf", "fair")
    for lrn in ("linear", "forest")
    for n in (100, 200, 500)
]
TIER2 = (
    [(pop, lrn, 50) for pop in ("synth-clf", "fair") for lrn in ("linear", "forest")]
    + [
        (pop, lrn, n)
        for pop in ("synth-reg", "randhie")
        for lrn in ("linear", "forest")
        for n in (100, 500)
    ]
    + [
        (pop, lrn, n)
        for pop in ("synth-clf", "synth-reg")
        for lrn in ("knn", "tree")
        for n in (100, 500)
    ]
    + [(pop, "linear", n) for pop in ("synth-clf", "fair") for n in (1000, 2000)]
)
TIER3 = [(pop, "forest", 1000) for pop in ("synth-clf", "fair")]
TIER2_FIRST = [  # one cell of each kind first: small n, regression, kNN, tree, large n
    ("synth-clf", "linear", 50),
    ("synth-clf", "forest", 50),
    ("synth-reg", "linear", 100),
    ("synth-reg", "forest", 100),
    ("synth-reg", "linear", 500),
    ("randhie", "linear", 500),
    ("synth-clf", "knn", 100),
    ("synth-clf", "tree", 100),
    ("synth-reg", "tree", 500),
    ("synth-clf", "linear", 1000),
    ("synth-clf", "linear", 2000),
    ("fair", "linear", 2000),
]
TIER1_LINEAR = [c for c in TIER1 if c[1] == "linear"]
TIER1_FOREST = [c for c in TIER1 if c[1] == "forest"]
TIER2_LINEAR = [c for c in TIER2 if c[1] == "linear"]
PHASES = (
    (TIER1, 0, 30),
    (TIER1_LINEAR, 30, 200),  # cheap since the linear learners run in numpy
    (TIER2_FIRST, 0, 12),
    (TIER2_LINEAR, 0, 100),
    (TIER1_FOREST, 30, 60),
    (TIER2, 0, 12),
    (TIER2 + TIER3, 12, 30),
    (TIER1_FOREST, 60, 200),
    (TIER2 + TIER3, 30, 100),
)
# Round 2 (issue 15): every non-linear cell with n >= 100 (and the forest at
# n = 50) to 200 datasets, all cells advancing together.
NONLINEAR = TIER1_FOREST + [
    c for c in TIER2 if c[1] != "linear" and (c[2] >= 100 or c[1] == "forest")
]
_SLOW = [("synth-reg", "forest", 500), ("randhie", "forest", 500)]  # ~15 s each
_REG_LINEAR = [c for c in TIER2_LINEAR if c[0] in ("synth-reg", "randhie")]
# Round 3: squared error between n = 100 and 500 (auto's small-n nested-CV
# rule for it), a second kNN population (fair), kNN and trees at n = 200, and
# every regression and n = 1000 cell to 200 datasets. A replicate of these
# cells takes 0.05-3 s on an idle core.
ROUND3_NEW = (
    [
        (pop, lrn, 200)
        for pop in ("synth-reg", "randhie")
        for lrn in ("linear", "knn", "tree", "forest")
    ]
    + [("synth-clf", "knn", 200), ("synth-clf", "tree", 200)]
    + [("fair", "knn", n) for n in (100, 200, 500)]
)
_REG_NONLINEAR = [c for c in NONLINEAR if c[0] in ("synth-reg", "randhie")]
EXTEND = (
    (ROUND3_NEW, 0, 200),
    (_REG_NONLINEAR, 100, 200),
    (TIER3, 88, 200),
    (_REG_LINEAR, 100, 200),  # cheap (numpy ridge); the corrected t is borderline
    ([c for c in NONLINEAR if c not in _SLOW], 0, 100),
    ([c for c in NONLINEAR if c[0] in ("synth-clf", "fair")], 100, 200),
    (_SLOW, 0, 100),
)

FIELDS = (
    "population",
    "learner",
    "n",
    "rep",
    "metric",
    "method",
    "n_fits",
    "estimate",
    "low",
    "high",
    "truth_fitted",
    "seconds",
    "note",
)


def _done(pattern, key_fields, method=None):
    done = set()
    for path in RESULTS.glob(pattern):
        with open(path, newline="") as fh:
            for row in csv.DictReader(fh):
                if method is None or row.get("method") == method:
                    done.add(tuple(row[k] for k in key_fields))
    return done


def _append(path, rows, fields):
    new = not path.exists()
    with open(path, "a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        if new:
            w.writeheader()
        w.writerows(rows)
        fh.flush()
        os.fsync(fh.fileno())


def _replay_order(key):
    """The cheap linear cells first, then n >= 100 replicate by replicate."""
    pop, lrn, n, rep = key
    return (lrn != "linear", int(n) < 100 or int(n) > 500, int(rep), pop, lrn, int(n))


def run(args):
    RESULTS.mkdir(parents=True, exist_ok=True)
    kind = (
        "skperfauto"
        if args.skperf_auto
        else "skperf"
        if args.skperf
        else "replay"
        if args.instability
        else "nearzero"
        if args.near_zero
        else "repeats"
        if args.repeats
        else "main"
    )
    done = _done(f"generalization_{kind}_w*.csv", ("population", "learner", "n", "rep"))
    path = RESULTS / f"generalization_{kind}_w{args.worker}.csv"
    instab_path = RESULTS / f"generalization_instab_w{args.worker}.csv"
    nearzero_path = RESULTS / f"generalization_nearzero_w{args.worker}.csv"
    start = time.time()
    tasks = []
    if args.skperf_auto:
        phases = ((SKPERF_AUTO_CELLS, 0, args.reps),)
    elif args.skperf:
        phases = ((SKPERF_CELLS, 0, args.reps),)
    elif args.instability:  # replay the CV fits of the replicates already run
        key = ("population", "learner", "n", "rep")
        main_done = _done("generalization_main_w*.csv", key)
        # replicates run with the later rows already need no replay
        main_done -= _done("generalization_main_w*.csv", key, "nested-cv (skperf)")
        phases = tuple(
            ([(p, lrn, int(n))], int(r), int(r) + 1)
            for p, lrn, n, r in sorted(main_done, key=_replay_order)
        )
    elif args.repeats:  # replay every replicate with more repetitions
        key = ("population", "learner", "n", "rep")
        phases = tuple(
            ([(p, lrn, int(n))], int(r), int(r) + 1)
            for p, lrn, n, r in sorted(
                _done("generalization_main_w*.csv", key), key=_replay_order
            )
        )
    elif args.near_zero:  # replay the CV fits of classification replicates
        key = ("population", "learner", "n", "rep")
        main_done = {
            k
            for k in _done("generalization_main_w*.csv", key)
            if POPULATIONS[k[0]].task == "clf"
        }
        phases = tuple(
            ([(p, lrn, int(n))], int(r), int(r) + 1)
            for p, lrn, n, r in sorted(main_done, key=_replay_order)
        )
    else:
        phases = EXTEND + PHASES  # round 2 first; done tasks are skipped
    for cells, lo, hi in phases:
        for rep in range(lo, hi):  # replicate-major: every cell advances together
            for pop, lrn, n in cells:
                tasks.append((pop, lrn, n, rep))
    tasks = list(dict.fromkeys(tasks))  # a cell may be in several phases
    k = 0
    for pop, lrn, n, rep in tasks:
        if (pop, lrn, str(n), str(rep)) in done:
            continue
        k += 1
        if k % args.workers != args.worker:
            continue
        if args.max_minutes and time.time() - start > 60 * args.max_minutes:
            break
        t0 = time.perf_counter()
        func = {
            "skperf": skperf_replicate,
            "replay": replay_replicate,
            "nearzero": nearzero_replicate,
            "repeats": repeats_replicate,
            "skperfauto": skperf_auto_replicate,
        }.get(kind, replicate)
        rows = func(POPULATIONS[pop], lrn, n, rep)
        secs = time.perf_counter() - t0
        for r in rows:
            r.update(population=pop, learner=lrn, n=n, rep=rep, seconds=round(secs, 3))
        instab = [r for r in rows if "instability" in r]
        zero = [r for r in rows if "near_zero" in r]
        rows = [r for r in rows if "instability" not in r and "near_zero" not in r]
        if instab:
            _append(instab_path, instab, INSTAB_FIELDS)
        if zero:
            _append(nearzero_path, zero, NEARZERO_FIELDS)
        if rows:
            _append(path, rows, FIELDS)
        print(f"{pop} {lrn} n={n} rep={rep} {secs:.2f}s", flush=True)


def time_replicates(args):
    for pop, lrn, n in (
        ("synth-clf", "linear", 200),
        ("synth-clf", "forest", 200),
        ("fair", "forest", 500),
        ("synth-clf", "knn", 500),
        ("synth-reg", "tree", 500),
    ):
        t0 = time.perf_counter()
        rows = replicate(POPULATIONS[pop], lrn, n, 10_000)
        print(pop, lrn, n, f"{time.perf_counter() - t0:.2f}s", len(rows), "rows")


# --------------------------------------------------------------------------
# Null and power studies for comparisons
# --------------------------------------------------------------------------

# Two disjoint feature blocks of 4 standard normal features each; the logit is
# b_a * sum(block a) + b_b * sum(block b). Model A sees block a only, model B
# block b only: equal by symmetry when b_a == b_b (null), A better otherwise.
NULL_BETA = {"null": (0.5, 0.5), "power": (0.6, 0.4)}


def _sample_pair(rng, n, study):
    ba, bb = NULL_BETA[study]
    x = rng.standard_normal((n, 8))
    logit = ba * x[:, :4].sum(axis=1) + bb * x[:, 4:].sum(axis=1)
    return x, (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)


def _pair_dataset(study, n, rep):
    rng = np.random.default_rng([SEED, 77, list(NULL_BETA).index(study), n, rep])
    X, y = _sample_pair(rng, n, study)
    return X, y, rng


def compare_replicate(study, n, rep, metrics=("accuracy", "log_loss")):
    """Decisions of each comparison method on one dataset (A: block a, B: block b).

    ``metrics=("roc_auc",)`` (``null --roc-auc``): the same dataset and
    splits, the tests on fold scores only (nested CV needs per-row values),
    and the corrected t also with 9 degrees of freedom (auto's reading of a
    single model's ROC AUC).
    """
    X, y, rng = _pair_dataset(study, n, rep)
    cols = (slice(0, 4), slice(4, 8))

    def fit_both(tr, te):  # LogisticRegression(); features standard normal: no scaler
        return [
            _fast_linear("clf", X[tr][:, c], y[tr], X[te][:, c], scale=False)
            for c in cols
        ]

    out = []
    # corrected t and Bayesian correlated t on repeated 10-fold CV
    cv, ids_all = _repeated_cv(rng, n, fit_both, lead=(2,))
    # 5 x 2 CV
    five = np.empty((2, 5, n))
    ids52 = np.empty((5, n), dtype=int)
    for r in range(5):
        ids = _folds(rng, n, 2)
        ids52[r] = ids
        for f in range(2):
            te = ids == f
            five[:, r, te] = fit_both(~te, te)
    if metrics == ("roc_auc",):
        return _fold_score_tests("roc_auc", y, cv, ids_all, five, ids52)
    # nested CV on per-row differences (K = 5, NCV_REPEATS repetitions)
    inner = np.empty((2, NCV_REPEATS, NCV_K, n))
    outer = np.empty((2, NCV_REPEATS, n))
    ncv_ids = np.empty((NCV_REPEATS, n), dtype=int)
    for r in range(NCV_REPEATS):
        ids = _folds(rng, n, NCV_K)
        ncv_ids[r] = ids
        for f1 in range(NCV_K):
            for f2 in range(f1 + 1, NCV_K):
                te = (ids == f1) | (ids == f2)
                pa, pb = fit_both(~te, te)
                for c, p in enumerate((pa, pb)):
                    full = np.full(n, np.nan)
                    full[te] = p
                    inner[c, r, f1, ids == f2] = full[ids == f2]
                    inner[c, r, f2, ids == f1] = full[ids == f1]
        for f in range(NCV_K):
            te = ids == f
            outer[:, r, te] = fit_both(~te, te)

    for m in metrics:
        sign = 1.0 if m == "accuracy" else -1.0  # positive = A better
        out.extend(_fold_score_tests(m, y, cv, ids_all, five, ids52, last=False))
        # nested CV on per-row differences of the per-row values
        ho, piv, cv_rows = [], [], []
        for r in range(NCV_REPEATS):
            ids = ncv_ids[r]
            cv_rows.append(
                sign * (row_scores(m, y, outer[0, r]) - row_scores(m, y, outer[1, r]))
            )
            for f in range(NCV_K):
                sel = ids != f
                a = sign * (
                    row_scores(m, y[sel], inner[0, r, f, sel])
                    - row_scores(m, y[sel], inner[1, r, f, sel])
                )
                o = sign * (
                    row_scores(m, y[~sel], outer[0, r, ~sel])
                    - row_scores(m, y[~sel], outer[1, r, ~sel])
                )
                ho.append(a)
                piv.append((a.mean() - o.mean(), o.var(ddof=1) / len(o)))
        est, lo, hi = nested_cv_interval(
            np.concatenate(ho), piv, np.concatenate(cv_rows), n, NCV_K
        )
        out.append(
            {
                "metric": m,
                "method": "nested-cv",
                "n_fits": 2 * NCV_REPEATS * NCV_K * (NCV_K + 1) // 2,
                "estimate": est,
                "pvalue": np.nan,
                "significant": int(lo > 0 or hi < 0),
                "a_better": int(lo > 0),
            }
        )
        # Bayle et al. (2020): the CV Wald test on per-row differences of 3 x
        # 10-fold CV (skperf's wald_cv_ci; se from the within-fold variance)
        diff = sign * np.stack(
            [
                row_scores(m, y, cv[0, r]) - row_scores(m, y, cv[1, r])
                for r in range(N_CV_REPEATS)
            ]
        )
        w = skperf_wald_cv_ci(diff, ids_all, confidence=CONFIDENCE)
        out.append(
            {
                "metric": m,
                "method": "wald-cv",
                "n_fits": 2 * 10 * N_CV_REPEATS,
                "estimate": float(w.estimate),
                "pvalue": float(w.pvalue()),
                "significant": int(w.low > 0 or w.high < 0),
                "a_better": int(w.low > 0),
            }
        )
        out.append(_naive_paired_t(m, y, cv, ids_all))
    return out


def _fold_diffs(m, y, pred, ids, k):
    """Per-fold score differences A - B (positive = A better): ``(R, k)``."""
    sign = -1.0 if m in ("log_loss", "brier", "mse") else 1.0
    return sign * np.array(
        [
            [
                score(m, y[ids[r] == f], pred[0, r, ids[r] == f])
                - score(m, y[ids[r] == f], pred[1, r, ids[r] == f])
                for f in range(k)
            ]
            for r in range(len(ids))
        ]
    )


def _fold_score_tests(m, y, cv, ids_all, five, ids52, last=True):
    """The comparison rows computed from fold scores: the corrected paired t
    (and, for ROC AUC, the same with 9 df), the Bayesian correlated t and
    Alpaydin's 5 x 2 CV combined F; with ``last`` also the naive paired t."""
    alpha = 1 - CONFIDENCE
    fs = _fold_diffs(m, y, cv, ids_all, 10).ravel()
    j = len(fs)
    se = np.sqrt((1 / j + 1 / 9) * fs.var(ddof=1))
    tstat = fs.mean() / se if se > 0 else 0.0
    out = []
    for df, name in ((j - 1, "corrected-t"), (9, "corrected-t (9 df)")):
        if df == 9 and m != "roc_auc":
            continue
        p = 2 * stats.t.sf(abs(tstat), df)
        out.append(
            {
                "metric": m,
                "method": name,
                "n_fits": 2 * 10 * N_CV_REPEATS,
                "estimate": fs.mean(),
                "pvalue": p,
                "significant": int(p < alpha),
                "a_better": int(p < alpha and tstat > 0),
            }
        )
    # Corani & Benavoli (2015): posterior t(J-1, mean, se); rope 0
    p_better = stats.t.sf(0, j - 1, loc=fs.mean(), scale=se) if se > 0 else 0.5
    sig = p_better > CONFIDENCE or p_better < 1 - CONFIDENCE
    out.append(
        {
            "metric": m,
            "method": "bayesian",
            "n_fits": 2 * 10 * N_CV_REPEATS,
            "estimate": fs.mean(),
            "pvalue": 1 - max(p_better, 1 - p_better),
            "significant": int(sig),
            "a_better": int(p_better > CONFIDENCE),
        }
    )
    # 5 x 2 CV combined F (Alpaydin 1999)
    d = _fold_diffs(m, y, five, ids52, 2)
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    fstat = (d**2).sum() / (2 * s2.sum()) if s2.sum() > 0 else np.inf
    p = stats.f.sf(fstat, 10, 5)
    out.append(
        {
            "metric": m,
            "method": "5x2cv-f",
            "n_fits": 2 * 10,
            "estimate": d.mean(),
            "pvalue": p,
            "significant": int(p < alpha),
            "a_better": int(p < alpha and d.mean() > 0),
        }
    )
    if last:
        out.append(_naive_paired_t(m, y, cv, ids_all))
    return out


def _naive_paired_t(m, y, cv, ids_all):
    """ "this dataset" for contrast: t test of the paired fold differences."""
    fs = _fold_diffs(m, y, cv, ids_all, 10).ravel()
    tt = stats.ttest_1samp(fs, 0.0)
    return {
        "metric": m,
        "method": "naive-paired-t",
        "n_fits": 2 * 10 * N_CV_REPEATS,
        "estimate": fs.mean(),
        "pvalue": tt.pvalue,
        "significant": int(tt.pvalue < 1 - CONFIDENCE),
        "a_better": int(tt.pvalue < 1 - CONFIDENCE and fs.mean() > 0),
    }


def repeats_compare_replicate(study, n, rep):
    """The corrected paired t on 5 and 10 repetitions of 10-fold CV
    (``null --repeats``): the dataset and the first ``N_CV_REPEATS``
    repetitions of :func:`compare_replicate` (their rows ``corrected-t``
    are the check), then more; the design of Bouckaert & Frank (2004)'s
    corrected repeated-CV test and of ``compare_models``' default."""
    X, y, rng = _pair_dataset(study, n, rep)
    cols = (slice(0, 4), slice(4, 8))

    def fit_both(tr, te):
        return [
            _fast_linear("clf", X[tr][:, c], y[tr], X[te][:, c], scale=False)
            for c in cols
        ]

    cv, ids_all = _repeated_cv(rng, n, fit_both, lead=(2,), repeats=MORE_REPEATS)
    out = []
    alpha = 1 - CONFIDENCE
    for m in ("accuracy", "log_loss"):
        fs = _fold_diffs(m, y, cv, ids_all, 10)
        for reps in (N_CV_REPEATS, 5, MORE_REPEATS):
            d = fs[:reps].ravel()
            j = len(d)
            se = np.sqrt((1 / j + 1 / 9) * d.var(ddof=1))
            tstat = d.mean() / se if se > 0 else 0.0
            p = 2 * stats.t.sf(abs(tstat), j - 1)
            out.append(
                {
                    "metric": m,
                    "method": f"corrected-t ({reps} x 10)",
                    "n_fits": 2 * j,
                    "estimate": d.mean(),
                    "pvalue": p,
                    "significant": int(p < alpha),
                    "a_better": int(p < alpha and tstat > 0),
                }
            )
    return out


def skperf_compare_replicate(study, n, rep, n_repeats="auto"):
    """The default decisions of skperf on the same dataset as compare_replicate.

    ``compare_models`` (target "new data", every default), and on the first
    10 datasets ``compare_generalization(method="auto")`` with the same seed
    (it should give the same test); "significant" means the
    report's decision for B is not "no significant difference" (two models:
    one test) and, for compare_generalization, a decision "better"/"worse".
    ``n_repeats=3`` (``null --skperf --repeats``): ``compare_models`` on
    3 x 10-fold CV, its default before 10 x 10 (rows "3 x 10 (before)").
    """
    import skperf

    X, y, a, b, seed = _skperf_pair(study, n, rep)
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = skperf.compare_models(
            {"A": a, "B": b},
            X,
            y,
            scoring="accuracy",
            random_state=seed,
            n_jobs=1,
            n_repeats=n_repeats,
        )
        # the same test as compare_models' default: checked on a few datasets
        # (on every dataset: null --generalization)
        res = None
        if rep < 10 and n_repeats == "auto":
            res = skperf.compare_generalization(
                a, b, X, y, scoring="accuracy", random_state=seed, n_jobs=1
            )
    frame = report.to_frame()
    other = frame.index[frame["decision"] != "best"][0]
    dec = str(frame.loc[other, "decision"])
    sig = dec != "no significant difference"
    a_best = frame.index[frame["decision"] == "best"][0] == "A"
    rows.append(
        {
            "metric": "accuracy",
            "method": "skperf:compare_models"
            + ("" if n_repeats == "auto" else " 3 x 10 (before)"),
            "n_fits": int(frame.loc[other, "n_splits"]) * 2,
            "estimate": frame.loc["A", "new_data"] - frame.loc["B", "new_data"],
            "pvalue": frame.loc[other, "pvalue_adjusted"],
            "significant": int(sig),
            "a_better": int(sig and a_best),
            "note": dec,
        }
    )
    if res is not None:
        rows.append(_generalization_row(res))
    return rows


def _skperf_pair(study, n, rep):
    """``X, y, A, B, seed``: the dataset of :func:`compare_replicate` and the
    two pipelines (logistic regression on block A / block B)."""
    from sklearn.compose import ColumnTransformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    X, y, _ = _pair_dataset(study, n, rep)
    a, b = (
        make_pipeline(
            ColumnTransformer([("keep", "passthrough", c)]), LogisticRegression()
        )
        for c in ([0, 1, 2, 3], [4, 5, 6, 7])
    )
    seed = int(np.random.default_rng([SEED, 78, rep]).integers(2**31 - 1))
    return X, y, a, b, seed


def _generalization_row(res, label=""):
    dec = str(res.decision)
    return {
        "metric": "accuracy",
        "method": f"skperf:compare_generalization{label} ({res.method})",
        "n_fits": 2 * res.n_fits,
        "estimate": res.estimate,
        "pvalue": res.pvalue,
        "significant": int(dec.startswith(("better", "worse"))),
        "a_better": int(dec.startswith("better")),
        "note": dec,
    }


def generalization_compare_replicate(study, n, rep):
    """``compare_generalization(method="auto")``'s default decision on the
    dataset of :func:`compare_replicate` (every dataset, not only the first
    10 of :func:`skperf_compare_replicate`)."""
    import skperf

    X, y, a, b, seed = _skperf_pair(study, n, rep)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = skperf.compare_generalization(
            a, b, X, y, scoring="accuracy", random_state=seed, n_jobs=1
        )
    return [_generalization_row(res, " every dataset")]


def search_compare_replicate(study, n, rep):
    """The search tools' default decision (``candidates_tied_with_best``,
    target "new data") on the same dataset as :func:`compare_replicate`.

    A ``GridSearchCV`` over the two candidates "logistic regression on block
    A" and "on block B" (a ``ColumnTransformer`` parameter), with 3 x 10-fold
    CV given as ``RepeatedKFold`` and, as many users write it, as
    ``RepeatedStratifiedKFold``; "significant" means the other candidate is
    not tied with the best.
    """
    from sklearn.compose import ColumnTransformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import (
        GridSearchCV,
        RepeatedKFold,
        RepeatedStratifiedKFold,
    )
    from sklearn.pipeline import Pipeline

    from skperf.model_selection import candidates_tied_with_best

    X, y, _ = _pair_dataset(study, n, rep)
    blocks = {"A": [0, 1, 2, 3], "B": [4, 5, 6, 7]}
    pipe = Pipeline(
        [
            ("cols", ColumnTransformer([("keep", "passthrough", blocks["A"])])),
            ("lr", LogisticRegression()),
        ]
    )
    grid = {
        "cols__transformers": [[("keep", "passthrough", c)] for c in blocks.values()]
    }
    seed = int(np.random.default_rng([SEED, 79, rep]).integers(2**31 - 1))
    rows = []
    for name, cv in (
        ("RepeatedKFold", RepeatedKFold(n_splits=10, n_repeats=3, random_state=seed)),
        (
            "RepeatedStratifiedKFold",
            RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=seed),
        ),
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            search = GridSearchCV(pipe, grid, cv=cv, scoring="accuracy").fit(X, y)
            tied = candidates_tied_with_best(search)
        best = tied[tied["decision"] == "best"].iloc[0]
        other = tied[tied["decision"] != "best"].iloc[0]
        a_best = best["params"]["cols__transformers"][0][2] == blocks["A"]
        sig = not bool(other["tied_with_best"])
        rows.append(
            {
                "metric": "accuracy",
                "method": f"skperf:candidates_tied_with_best ({name})",
                "n_fits": 2 * 30,
                "estimate": (1 if a_best else -1) * float(other["difference"]),
                "pvalue": float(other["pvalue_adjusted"]),
                "significant": int(sig),
                "a_better": int(sig and a_best),
                "note": str(other["decision"]),
            }
        )
    return rows


CMP_FIELDS = (
    "study",
    "n",
    "rep",
    "metric",
    "method",
    "n_fits",
    "estimate",
    "pvalue",
    "significant",
    "a_better",
    "seconds",
    "note",
)


def run_null(args):
    RESULTS.mkdir(parents=True, exist_ok=True)
    kind = (
        "compare_skperf3x10"
        if args.skperf and args.repeats
        else "compare_skperf"
        if args.skperf
        else "compare_repeats"
        if args.repeats
        else "compare_rocauc"
        if args.roc_auc
        else "compare_search"
        if args.search
        else "compare_generalization"
        if args.generalization
        else "compare"
    )
    done = _done(f"generalization_{kind}_w*.csv", ("study", "n", "rep"))
    path = RESULTS / f"generalization_{kind}_w{args.worker}.csv"
    k = 0
    for lo in range(0, args.reps, 50):
        for study in NULL_BETA:
            hi = args.reps if study == "null" else args.power_reps
            for rep in range(lo, min(lo + 50, hi)):
                if (study, "200", str(rep)) in done:
                    continue
                k += 1
                if k % args.workers != args.worker:
                    continue
                t0 = time.perf_counter()
                if args.skperf:
                    rows = skperf_compare_replicate(
                        study, 200, rep, n_repeats=3 if args.repeats else "auto"
                    )
                elif args.repeats:
                    rows = repeats_compare_replicate(study, 200, rep)
                elif args.generalization:
                    rows = generalization_compare_replicate(study, 200, rep)
                elif args.search:
                    rows = search_compare_replicate(study, 200, rep)
                elif args.roc_auc:
                    rows = compare_replicate(study, 200, rep, metrics=("roc_auc",))
                else:
                    rows = compare_replicate(study, 200, rep)
                secs = time.perf_counter() - t0
                for r in rows:
                    r.update(study=study, n=200, rep=rep, seconds=round(secs, 3))
                _append(path, rows, CMP_FIELDS)
                print(f"{study} rep={rep} {secs:.2f}s", flush=True)


# --------------------------------------------------------------------------
# Summaries
# --------------------------------------------------------------------------


def load_main():
    import pandas as pd

    frames = [
        pd.read_csv(p)
        for pattern in (
            "generalization_main_w*.csv",
            "generalization_replay_w*.csv",
            "generalization_skperf_w*.csv",
            "generalization_skperfauto_w*.csv",
            # the same cells before the folds stopped being stratified
            "generalization_skperfautostrat_w*.csv",
            # ... and before ROC AUC and small-n squared error took 9 df
            "generalization_skperfautodf29_w*.csv",
            # ... and before auto read 10 x 10-fold with 9 df (3 x 10, gates)
            "generalization_skperfauto3x10_w*.csv",
            # 5 and 10 repetitions of 10-fold CV (run --repeats)
            "generalization_repeats_w*.csv",
        )
        for p in sorted(RESULTS.glob(pattern))
    ]
    df = pd.concat(frames, ignore_index=True)
    key = ["population", "learner", "n", "rep", "metric", "method", "n_fits"]
    df = df.drop_duplicates(key)
    instab = sorted(RESULTS.glob("generalization_instab_w*.csv"))
    zero = sorted(RESULTS.glob("generalization_nearzero_w*.csv"))
    if instab and zero:
        ins = pd.concat([pd.read_csv(p) for p in instab], ignore_index=True)
        nz = pd.concat([pd.read_csv(p) for p in zero], ignore_index=True)
        df = pd.concat([df, auto_rows_before(df, ins, nz)], ignore_index=True)
    df = pd.concat([df, auto_rows(df)], ignore_index=True)
    return df


def auto_rows(df):
    """Rows ``method="auto"``: skperf's ``generalization_ci(method="auto")``
    rule applied to each dataset's reference fits.

    The rule (``skperf.model_selection._generalization._AUTO_POLICY``): below n = 100 nested
    CV (45 fits; skperf's formula with ``conservative=True``, the R
    package's factors: the rows "nested-cv") for per-row scorers; otherwise
    the corrected t on 10 x 10-fold read with K - 1 = 9 degrees of freedom
    (the rows "corrected-t (9 df)" of ``run --repeats``). ``n_fits`` is the
    budget (100); ``fits_used`` the fits the rule spent on the dataset.
    """
    import pandas as pd

    from skperf.model_selection._generalization import _AUTO_VERIFIED_N

    keys = ["population", "learner", "n", "rep", "metric"]
    cols = ["estimate", "low", "high", "truth_fitted"]
    ct = df[(df["method"] == "corrected-t (9 df)") & (df["n_fits"] == 100)]
    ns = df[(df["method"] == "nested-cv") & (df["n_fits"] == 45)]
    small = ns["metric"].isin(list(DECOMPOSABLE)) & (ns["n"] < _AUTO_VERIFIED_N)
    small_ct = ct["metric"].isin(list(DECOMPOSABLE)) & (ct["n"] < _AUTO_VERIFIED_N)
    out = pd.concat(
        [
            ns[small][[*keys, *cols]].assign(fits_used=45),
            ct[~small_ct][[*keys, *cols]].assign(fits_used=100),
        ],
        ignore_index=True,
    )
    out["method"] = "auto"
    out["n_fits"] = 100
    return out


def auto_rows_before(df, instab, nearzero):
    """Rows ``method="auto (before)"``: the rule ``generalization_ci(method=
    "auto")`` applied until the 10 x 10-fold rule (:func:`auto_rows`), on each
    dataset's reference fits, for the tables' before/after.

    The rule (its thresholds are these constants): below n = 100 nested
    CV (45 fits) for per-row scorers; for the log loss the corrected t on
    3 x 10-fold, then nested CV on 45 more fits when the refit instability
    of the per-row losses of those same 30 fits exceeds the threshold or a
    held-out probability is below 1e-6 (``nearzero``, :func:`near_zero`);
    the corrected t on 3 x 10-fold read with K - 1 = 9 degrees of freedom
    (its half-width times t_9 / t_29: the same fits and se) for ROC AUC and
    for squared error below n = 200; the plain corrected t on 3 x 10-fold
    for the rest (accuracy, Brier score, squared error from n = 200).
    ``n_fits`` is the budget (100); ``fits_used`` the fits the rule spent on
    the dataset. Nested CV is skperf's formula with ``conservative=True``
    (the R package's factors): the rows "nested-cv".
    """
    import pandas as pd

    from skperf.model_selection._generalization import _AUTO_VERIFIED_N

    keys = ["population", "learner", "n", "rep", "metric"]
    ct = df[(df["method"] == "corrected-t") & (df["n_fits"] == 30)].set_index(keys)
    # skperf's nested CV is nested_cv_ci(conservative=True), the R package's
    # factors: the rows "nested-cv" (tests/test_generalization_study.py checks
    # the two agree to 1e-12 on the same rows)
    ns = df[(df["method"] == "nested-cv") & (df["n_fits"] == 45)].set_index(keys)
    ins = instab.drop_duplicates(keys).set_index(keys)["instability"]
    zero = nearzero.drop_duplicates(keys).set_index(keys)["near_zero"]
    cols = ["estimate", "low", "high", "truth_fitted"]
    n = ct.index.get_level_values("n")
    metric = ct.index.get_level_values("metric")
    direct = metric.isin(list(DECOMPOSABLE)) & (n < _AUTO_VERIFIED_N)  # nested CV
    gated = (metric == "log_loss") & ~direct
    calibrated = (metric == "roc_auc") | (
        (metric == "mse") & (n < REGRESSION_CALIBRATED_N) & ~direct
    )
    out = ct[cols].copy()
    out["fits_used"] = 30
    q = stats.t.ppf(0.5 + CONFIDENCE / 2, 9) / stats.t.ppf(0.5 + CONFIDENCE / 2, 29)
    mid = (out["low"] + out["high"]) / 2
    half = (out["high"] - out["low"]) / 2
    out.loc[calibrated, "low"] = (mid - q * half)[calibrated]
    out.loc[calibrated, "high"] = (mid + q * half)[calibrated]
    s = ins.reindex(ct.index)
    z = zero.reindex(ct.index)
    log_loss = metric == "log_loss"
    hard = log_loss & (z > 0)
    to_nested = direct | (gated & ((s > INSTABILITY_THRESHOLD) | hard))
    have = ct.index.isin(ns.index)
    ok = (~to_nested | have) & (~gated | s.notna()) & (~(gated & log_loss) | z.notna())
    idx = ct.index[to_nested & ok]
    out.loc[idx, cols] = ns.loc[idx, cols].to_numpy()
    out.loc[idx, "fits_used"] = np.where(direct[to_nested & ok], 45, 75)
    out = out[ok].reset_index()
    out["method"] = "auto (before)"
    out["n_fits"] = 100
    return pd.DataFrame(out)


def coverage_table(df):
    """Coverage of "new data" and "the fitted model", width, fits per cell/method."""
    import pandas as pd

    keys = ["population", "learner", "n", "metric"]
    fitted = df.drop_duplicates([*keys, "rep"])[[*keys, "rep", "truth_fitted"]]
    g = fitted.groupby(keys)["truth_fitted"]
    fitted = fitted.assign(
        _sum=g.transform("sum"), _cnt=g.transform("count"), _sd=g.transform("std")
    )
    # leave-one-out mean of the other replicates' fitted-model truth scores
    fitted["truth_new"] = (fitted["_sum"] - fitted["truth_fitted"]) / (
        fitted["_cnt"] - 1
    )
    fitted["truth_new_se"] = fitted["_sd"] / np.sqrt(fitted["_cnt"])
    d = df.merge(fitted[[*keys, "rep", "truth_new", "truth_new_se"]], on=[*keys, "rep"])
    if "fits_used" not in d:
        d["fits_used"] = np.nan
    d["fits_used"] = d["fits_used"].fillna(d["n_fits"])
    d = d[np.isfinite(d["low"]) & np.isfinite(d["high"])]
    d["cover_new"] = (d["low"] <= d["truth_new"]) & (d["truth_new"] <= d["high"])
    d["cover_fitted"] = (d["low"] <= d["truth_fitted"]) & (
        d["truth_fitted"] <= d["high"]
    )
    d["width"] = d["high"] - d["low"]
    d["bias"] = d["estimate"] - d["truth_new"]
    t = (
        d.groupby([*keys, "method", "n_fits"])
        .agg(
            replicates=("rep", "nunique"),
            coverage_new=("cover_new", "mean"),
            coverage_fitted=("cover_fitted", "mean"),
            mean_width=("width", "mean"),
            bias=("bias", "mean"),
            truth_new=("truth_new", "mean"),
            truth_new_se=("truth_new_se", "mean"),
            fits_used=("fits_used", "mean"),
        )
        .reset_index()
    )
    for c in ("new", "fitted"):
        p = t[f"coverage_{c}"]
        t[f"mc_se_{c}"] = np.sqrt(p * (1 - p) / t["replicates"])
    return pd.DataFrame(t)


HOLD = 0.93  # coverage of "new data" (95 % nominal) counted as holding
SHOWN = (  # (method, n_fits) columns of the per-cell tables
    ("auto", 100),
    ("auto (before)", 100),
    ("nested-cv (skperf)", 45),
    ("nested-cv", 45),
    ("nested-cv", 30),
    ("corrected-t", 30),
    ("corrected-t", 10),
    ("conservative-z", 46),
    ("wald-cv", 10),
    ("holdout", 1),
    ("naive-t-folds", 30),
)
LABELS = {
    "auto": "skperf auto",
    "auto (before)": "skperf auto before (3 x 10, gates)",
    "nested-cv (skperf)": "nested CV (mlr3inferr)",
    "nested-cv": "nested CV (R pkg; skperf)",
    "corrected-t": "corrected t",
    "corrected-t (9 df)": "corrected t, 9 df",
    "conservative-z": "cons. Z",
    "wald-cv": "Wald CV",
    "holdout": "holdout",
    "naive-t-folds": "mean_ci of folds",
    "naive-t-repeats": "mean_ci of repeats",
}


def below_hold_pvalues(coverage, replicates, hold=HOLD):
    """One-sided exact binomial p-values of "coverage >= ``hold``" per cell
    (small when the cell covers significantly less), and the same
    Holm-adjusted over the cells (``skperf.stats._multiple.correct_pvalues``)."""
    from skperf.stats._multiple import correct_pvalues

    n = np.asarray(replicates, dtype=int)
    covered = np.round(np.asarray(coverage, dtype=float) * n).astype(int)
    p = stats.binom.cdf(covered, n, hold)
    return p, np.asarray(correct_pvalues(p, correction="holm"))


def expected_below(replicates, hold=HOLD, true=CONFIDENCE):
    """Cells expected to observe a coverage below ``hold`` by chance alone
    when every cell covers ``true``."""
    n = np.asarray(replicates, dtype=int)
    return float(np.sum(stats.binom.cdf(np.ceil(hold * n) - 1, n, true)))


def _more_repeats_rows(t):
    """The rows of ``run --repeats`` (5 and 10 repetitions of 10-fold CV)."""
    return (t["method"] == "corrected-t (9 df)") | (
        (t["method"] == "corrected-t") & (t["n_fits"] > 10 * N_CV_REPEATS)
    )


def with_ratios(t):
    """Add ``holds`` and ``ratio``: width over the narrowest reference method
    that holds (the designs of :func:`replicate`), and ``ratio_all``: the
    same with the 5 and 10 repetitions of ``run --repeats`` as references
    too."""
    t = t.copy()
    ref = t[~t["method"].str.startswith(("naive", "skperf", "auto"))]
    t["holds"] = t["coverage_new"] >= HOLD
    keys = ["population", "learner", "n", "metric"]
    for col, r in (("", ref[~_more_repeats_rows(ref)]), ("_all", ref)):
        narrow = (
            r[r["coverage_new"] >= HOLD]
            .groupby(keys)["mean_width"]
            .min()
            .rename(f"narrowest{col}")
        )
        t = t.merge(narrow.reset_index(), on=keys, how="left")
        t[f"ratio{col}"] = t["mean_width"] / t[f"narrowest{col}"]
    return t


def _list_table(header, rows, widths=None):
    out = [".. list-table::", "   :header-rows: 1"]
    if widths:
        out.append("   :widths: " + " ".join(str(w) for w in widths))
    out.append("")
    for row in [header, *rows]:
        out.append(f"   * - {row[0]}")
        out.extend(f"     - {c}".rstrip() for c in row[1:])
    return "\n".join(out) + "\n"


def _cell(row):
    mark = "" if row["replicates"] >= 100 else "\\*"
    return f"{row['population']}, {row['learner']}, {int(row['n'])}{mark}"


def method_summary(t, min_n=100):
    """Per method and budget, over cells with n >= min_n: held, worst, widths."""
    t = t[(t["n"] >= min_n) & ~t["method"].str.startswith("skperf")]
    rows = []
    for (kind, method, n_fits), g in t.groupby(
        [
            t["metric"].isin(DECOMPOSABLE).map({True: "per-row", False: "ROC AUC"}),
            "method",
            "n_fits",
        ]
    ):
        rows.append(
            {
                "scorers": kind,
                "method": method,
                "n_fits": n_fits,
                "cells": len(g),
                "held": int(g["holds"].sum()),
                "min_coverage": g["coverage_new"].min(),
                "median_coverage": g["coverage_new"].median(),
                "median_ratio": g["ratio"].median(),
                "max_ratio": g["ratio"].max(),
                "median_fitted": g["coverage_fitted"].median(),
            }
        )
    import pandas as pd

    return pd.DataFrame(rows)


def _fmt_kind(metric):
    return "per-row" if metric in DECOMPOSABLE else "ROC AUC"


def rst_tables(t, cmp=None):
    """The reST tables of docs/validity.rst ("New data"), one string."""
    out = []
    # 1. by method and budget, over the cells with n >= 100
    s = method_summary(t)
    rows = [
        [
            r["scorers"],
            LABELS.get(r["method"], r["method"]),
            str(int(r["n_fits"])),
            f"{r['held']} of {r['cells']}",
            f"{r['min_coverage']:.2f} / {r['median_coverage']:.2f}",
            f"{r['median_fitted']:.2f}",
            f"{r['median_ratio']:.2f} / {r['max_ratio']:.2f}",
        ]
        for _, r in s.sort_values(["scorers", "method", "n_fits"]).iterrows()
    ]
    header = [
        "scorers",
        "method",
        "fits",
        "cells held (coverage >= 0.93)",
        "coverage of new data: min / median",
        "coverage of the fitted model (median)",
        "width / narrowest that holds: median / max",
    ]
    out.append(
        "**By method** (cells with n >= 100; nominal 0.95; width relative to the "
        "narrowest reference method whose coverage of new data is >= 0.93 in "
        "that cell; the corrected t on 50 and 100 fits (5 and 10 repetitions of "
        "10-fold CV, ``run --repeats``) is shown, not counted as a reference):"
        "\n\n" + _list_table(header, rows)
    )
    # 2. smallest coverage by n (over populations, learners and scorers)
    t = t.assign(kind=t["metric"].map(_fmt_kind))
    shown = [c for c in SHOWN if ((t["method"] == c[0]) & (t["n_fits"] == c[1])).any()]
    rows = []
    for (kind, n), g in t.groupby(["kind", "n"]):
        row = [kind, str(int(n)), str(int(g["replicates"].min()))]
        for method, n_fits in shown:
            r = g[(g["method"] == method) & (g["n_fits"] == n_fits)]
            row.append("" if r.empty else f"{r['coverage_new'].min():.2f}")
        rows.append(row)
    header = ["scorers", "n", "datasets (fewest)"] + [
        f"{LABELS[m]} {k}" for m, k in shown
    ]
    out.append(
        "**By n**: the smallest coverage of new data over the cells of that n "
        "(populations, learners, scorers; column: method and fits):\n\n"
        + _list_table(header, rows)
    )
    # 3. per cell, accuracy and ROC AUC: coverage of new data (mean width)
    for metric in ("accuracy", "roc_auc"):
        m = t[t["metric"] == metric]
        shown = [
            c for c in SHOWN if ((m["method"] == c[0]) & (m["n_fits"] == c[1])).any()
        ]
        rows = []
        for _key, g in m.groupby(["population", "learner", "n"]):
            first = g.iloc[0]
            row = [
                _cell(first),
                str(int(g["replicates"].max())),
                f"{first['truth_new']:.3f}",
            ]
            for method, n_fits in shown:
                r = g[(g["method"] == method) & (g["n_fits"] == n_fits)]
                row.append(
                    ""
                    if r.empty
                    else f"{r.iloc[0]['coverage_new']:.2f} ({r.iloc[0]['mean_width']:.3f})"
                )
            rows.append(row)
        header = ["population, learner, n", "datasets", "score on new data"] + [
            f"{LABELS[mm]} {k}" for mm, k in shown
        ]
        out.append(
            f"**Per cell, {metric}**: coverage of new data (mean width); "
            "\\* marks cells with fewer than 100 datasets:\n\n"
            + _list_table(header, rows)
        )
    # 4. skperf's auto rule, every cell with n >= 100 ("Done when" of issue 15)
    a = t[(t["method"] == "auto") & (t["n"] >= 100)]
    a = a.sort_values(["population", "learner", "metric", "n"])
    p_low, p_holm = below_hold_pvalues(a["coverage_new"], a["replicates"])
    rows = [
        [
            _cell(r),
            r["metric"],
            str(int(r["replicates"])),
            f"{r['coverage_new']:.3f} ({r['mc_se_new']:.3f})",
            f"{p:.3f}",
            f"{r['ratio']:.2f}",
            f"{r['fits_used']:.0f}",
        ]
        for (_, r), p in zip(a.iterrows(), p_low, strict=True)
    ]
    header = [
        "population, learner, n",
        "scorer",
        "datasets",
        "coverage of new data (MC s.e.)",
        f"p (coverage < {HOLD})",
        "width / narrowest that holds",
        "mean fits",
    ]
    worst = int(np.argmin(p_low))
    out.append(
        "**skperf's auto, per cell** (n >= 100; ``generalization_ci(method="
        "'auto')``'s rule applied to each dataset's fits: the corrected t on "
        "10 x 10-fold read with 9 degrees of freedom, 100 fits; p: the exact "
        "binomial test of "
        f"coverage >= {HOLD} in the cell, one-sided):\n\n"
        + _list_table(header, rows)
        + f"\n{int((a['coverage_new'] < HOLD).sum())} of {len(a)} cells observe a "
        f"coverage below {HOLD}. The smallest p is {p_low[worst]:.3f} "
        f"({_cell(a.iloc[worst])}, {a.iloc[worst]['metric']}); Holm-adjusted over "
        f"the {len(a)} cells it is {p_holm[worst]:.2f}: "
        + (
            "no cell is significantly below "
            if np.nanmin(p_holm) >= 1 - CONFIDENCE
            else f"{int((p_holm < 1 - CONFIDENCE).sum())} cells are significantly below "
        )
        + f"{HOLD} at the 5 % family-wise level (with every cell covering 0.95, "
        f"about {expected_below(a['replicates']):.0f} would observe less than "
        f"{HOLD} by chance). Width within 1.25 times the narrowest reference "
        f"method that holds: {int((a['ratio'] <= 1.25).sum())} of {len(a)} cells; "
        "counting the 5 and 10 repetitions of 10-fold CV (``run --repeats``) "
        f"as reference methods too: {int((a['ratio_all'] <= 1.25).sum())}.\n"
    )
    # 4b. generalization_ci(method="auto") through the API, beside the rule
    versions = {
        "skperf:auto": "now: 10 x 10-fold, 9 df",
        "skperf:auto 3 x 10 (before)": "before: 3 x 10-fold, 29 or 9 df, gates",
    }
    keys = ["population", "learner", "n", "metric"]
    api = t[t["method"].isin(list(versions))]
    if not api.empty:
        ref = t[t["method"] == "auto"].set_index(keys)
        rows = []
        for _, r in api.sort_values([*keys, "method"]).iterrows():
            k = tuple(r[c] for c in keys)
            rule = ref.loc[k] if k in ref.index else None
            rows.append(
                [
                    _cell(r),
                    r["metric"],
                    versions[r["method"]],
                    str(int(r["replicates"])),
                    f"{r['coverage_new']:.3f} ({r['mc_se_new']:.3f})",
                    f"{r['mean_width']:.4g}",
                    ""
                    if rule is None
                    else f"{rule['coverage_new']:.3f} / {rule['mean_width']:.4g}",
                ]
            )
        header = [
            "population, learner, n",
            "scorer",
            "version",
            "datasets",
            "coverage of new data (MC s.e.)",
            "mean width",
            "the rule on the reference fits: coverage / width",
        ]
        out.append(
            "**Through the API** (``generalization_ci(method='auto')`` called on "
            "each dataset, with its own fits; beside it the rule applied to the "
            "study's reference fits, table above):\n\n" + _list_table(header, rows)
        )
    # 5. null and power study
    if cmp is not None:
        rows = []
        for (metric, method), g in cmp.groupby(["metric", "method"]):
            null = g[g["study"] == "null"]
            power = g[g["study"] == "power"]
            if null.empty:
                continue
            row = [metric, method, str(null["n_fits"].iloc[0])]
            for d in (null, power):
                if d.empty:
                    row += ["", ""]
                    continue
                row += [
                    f"{d['significant'].iloc[0]:.3f} ({d['mc_se'].iloc[0]:.3f})",
                    str(int(d["datasets"].iloc[0])),
                ]
            adj = power["size_adjusted"].iloc[0] if not power.empty else np.nan
            row.append("" if np.isnan(adj) else f"{adj:.3f}")
            rows.append(row)
        header = [
            "metric",
            "method",
            "fits (both models)",
            "equal algorithms: 'significant' (MC s.e.)",
            "datasets",
            "real difference: 'significant' (MC s.e.)",
            "datasets",
            "real difference, size-adjusted (5 % on equal)",
        ]
        out.append(
            "**Comparisons** (n = 200; A and B: logistic regression on two "
            "disjoint blocks of 4 features; equal: both blocks equally "
            "informative; real difference: A's block more informative). "
            "'Significant' at 95 %; the Bayesian test when P(A better) or "
            "P(B better) > 0.95:\n\n" + _list_table(header, rows)
        )
    return "\n".join(out)


def summarize(args):
    import pandas as pd

    t = coverage_table(load_main())
    cols = [
        "population",
        "learner",
        "n",
        "metric",
        "method",
        "n_fits",
        "fits_used",
        "replicates",
        "coverage_new",
        "mc_se_new",
        "coverage_fitted",
        "mc_se_fitted",
        "mean_width",
        "bias",
        "truth_new",
        "truth_new_se",
    ]
    t = t[cols].sort_values(
        ["population", "learner", "metric", "n", "method", "n_fits"]
    )
    DOCS_CSV.parent.mkdir(exist_ok=True)
    t.to_csv(DOCS_CSV, index=False, float_format="%.4f")
    print(f"wrote {DOCS_CSV} ({len(t)} rows)", file=sys.stderr)
    cmp_paths = sorted(RESULTS.glob("generalization_compare*_w*.csv"))
    if cmp_paths:
        c = pd.concat(
            [
                pd.read_csv(p, keep_default_na=False, na_values=["", "nan"])
                for p in cmp_paths
            ],
            ignore_index=True,
        )  # "null" is a study name, not a missing value
        c = c.drop_duplicates(["study", "n", "rep", "metric", "method"])
        s = (
            c.groupby(["study", "metric", "method"])
            .agg(
                datasets=("rep", "nunique"),
                significant=("significant", "mean"),
                a_better=("a_better", "mean"),
                n_fits=("n_fits", "first"),
            )
            .reset_index()
        )
        s["mc_se"] = np.sqrt(s["significant"] * (1 - s["significant"]) / s["datasets"])
        # power at the p-value threshold that says "significant" on 5 % of the
        # equal-algorithm datasets (size-adjusted), for methods with a p-value
        adj = {}
        for (metric, method), g in c.groupby(["metric", "method"]):
            null = g.loc[g["study"] == "null", "pvalue"].astype(float).dropna()
            power = g.loc[g["study"] == "power", "pvalue"].astype(float).dropna()
            if len(null) >= 100 and len(power):
                thr = np.quantile(null, 1 - CONFIDENCE)
                adj[(metric, method)] = float(np.mean(power <= thr))
        s["size_adjusted"] = [
            adj.get((m, k), np.nan) if st == "power" else np.nan
            for st, m, k in zip(s["study"], s["metric"], s["method"], strict=True)
        ]
        s.to_csv(
            RESULTS / "generalization_compare_summary.csv",
            index=False,
            float_format="%.4f",
        )
        print(s.to_string(index=False))
    else:
        s = None
    rst = rst_tables(with_ratios(t), s)
    DOCS_TABLES.write_text(rst, encoding="utf-8")
    print(f"wrote {DOCS_TABLES}", file=sys.stderr)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("run", "null", "summarize", "time"))
    ap.add_argument("--worker", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--power-reps", type=int, default=200)
    ap.add_argument("--max-minutes", type=float, default=0)
    ap.add_argument(
        "--instability",
        action="store_true",
        help="replay done replicates for the rows added later (instability, "
        "skperf's nested CV)",
    )
    ap.add_argument(
        "--skperf-auto",
        action="store_true",
        help="generalization_ci(method='auto') through the API on a few cells",
    )
    ap.add_argument(
        "--near-zero",
        action="store_true",
        help="replay done classification replicates for the near-zero "
        "probability count of auto's log-loss gate",
    )
    ap.add_argument(
        "--repeats",
        action="store_true",
        help="replay done replicates with 10 repetitions of 10-fold CV: the "
        "corrected t on 5 and 10 repetitions (run), or the comparisons on them "
        "(null)",
    )
    ap.add_argument(
        "--generalization",
        action="store_true",
        help="null/power study of compare_generalization's default on every dataset",
    )
    ap.add_argument(
        "--search",
        action="store_true",
        help="null/power study of candidates_tied_with_best on a GridSearchCV",
    )
    ap.add_argument(
        "--roc-auc",
        action="store_true",
        help="null/power study of the comparisons on ROC AUC (fold-score tests)",
    )
    ap.add_argument(
        "--skperf",
        action="store_true",
        help="also call skperf.generalization_ci / compare_generalization",
    )
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore", category=UserWarning)
    {"run": run, "null": run_null, "summarize": summarize, "time": time_replicates}[
        args.command
    ](args)


if __name__ == "__main__":
    main()
