"""The coverage study over datasets (benchmarks/generalization_study.py).

Its populations, truth targets and reference intervals decide the tables of
docs/validity.rst ("New data") and the ``auto`` policy, so they are checked
here with numbers: the synthetic population's truth against its known
generating process, sampling without replacement from a real population, the
reference intervals against scipy and skperf, and the coverage bookkeeping
(leave-one-out "new data" truth, Monte-Carlo s.e.) on a frame worked by hand.
"""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

from tests._data.benchmarks import load_benchmark


@pytest.fixture(scope="module")
def study():
    return load_benchmark("generalization_study")


def test_synthetic_truth_matches_the_generating_process(study):
    pop = study.POPULATIONS["synth-clf"]
    X, _, Xt, yt = pop.draw(np.random.default_rng(0), 100)
    assert X.shape == (100, 10)
    assert Xt.shape == (study.TRUTH_ROWS, 10)
    p = 1 / (1 + np.exp(-study._synth_clf_logit(Xt)))
    # The Bayes rule's accuracy on the 50,000 truth rows agrees with its
    # expectation E[max(p, 1 - p)] within 3 Monte-Carlo s.e.
    bayes = np.mean((p > 0.5) == yt)
    expected = np.mean(np.maximum(p, 1 - p))
    se = np.sqrt(expected * (1 - expected) / study.TRUTH_ROWS)
    assert abs(bayes - expected) < 3 * se
    # Bayes accuracy of the process: 0.7505 (2,000,000 independent rows)
    assert expected == pytest.approx(0.7505, abs=0.002)
    # The truth rows are fixed across replicates, the datasets are fresh.
    _, _, Xt2, _ = pop.draw(np.random.default_rng(1), 100)
    assert Xt2 is Xt


def test_synthetic_regression_noise_is_unit(study):
    pop = study.POPULATIONS["synth-reg"]
    _, _, Xt, yt = pop.draw(np.random.default_rng(0), 50)
    # The regression function's MSE is the noise variance, 1.
    mse = np.mean((yt - study._synth_reg_mean(Xt)) ** 2)
    assert mse == pytest.approx(1.0, abs=3 * np.sqrt(2 / study.TRUTH_ROWS))


def test_real_population_is_sampled_without_replacement(study):
    pytest.importorskip("statsmodels")
    pop = study.POPULATIONS["fair"]
    X_all, y_all = study._fair()
    assert X_all.shape == (6366, 8)
    assert y_all.mean() == pytest.approx(2053 / 6366)  # affairs > 0
    X, y, Xt, yt = pop.draw(np.random.default_rng(3), 500)
    assert len(y) == 500
    assert len(yt) == 6366 - 500
    # the dataset and the truth rows partition the population
    rows = np.concatenate([X, Xt])
    assert len(np.unique(np.column_stack([rows, np.r_[y, yt]]), axis=0)) == len(
        np.unique(np.column_stack([X_all, y_all]), axis=0)
    )
    assert y.sum() + yt.sum() == y_all.sum()
    with pytest.raises(ValueError, match="n=6366"):
        pop.draw(np.random.default_rng(0), 6366)


def test_reference_intervals_agree_with_scipy_and_skperf(study):
    from skperf.metrics import metric_ci

    rng = np.random.default_rng(0)
    s = rng.normal(0.8, 0.05, size=30)
    # ratio 0: the plain t interval of scipy
    _, low, high = study.corrected_t(s, 0.0)
    ci = stats.ttest_1samp(s, 0.8).confidence_interval(0.95)
    assert (low, high) == pytest.approx((ci.low, ci.high))
    # Nadeau-Bengio: the standard error grows by sqrt(1 + J * n2/n1)
    _, low9, high9 = study.corrected_t(s, 1 / 9)
    assert (high9 - low9) / (high - low) == pytest.approx(np.sqrt(1 + 30 / 9))
    # AUC and DeLong against scikit-learn and skperf.metrics
    y = rng.integers(0, 2, 60)
    p = rng.random(60) + 0.3 * y
    assert study.auc(y, p) == pytest.approx(roc_auc_score(y, p))
    ref = metric_ci(y, p, metric="roc_auc", method="delong")
    assert study.delong(y, p) == pytest.approx((ref.estimate, ref.low, ref.high))


def test_nested_cv_interval_bounds_its_inflation(study):
    ho = np.tile([0.0, 1.0], 50)  # sd 0.5025, n_sub = 80 for n = 100, K = 5
    se = ho.std(ddof=1) / np.sqrt(80)
    z = stats.norm.ppf(0.975)
    cv_rows = np.full(100, 0.5)
    # a = b = 0: no inflation (factor 1); no bias (ho mean = CV mean)
    est, low, high = study.nested_cv_interval(ho, [(0.0, 0.0)] * 5, cv_rows, 100, 5)
    assert est == pytest.approx(0.5)
    assert high - low == pytest.approx(2 * z * se)
    # a huge: capped at sqrt(K)
    est, low, high = study.nested_cv_interval(ho, [(1.0, 0.0)] * 5, cv_rows, 100, 5)
    assert high - low == pytest.approx(2 * z * se * np.sqrt(5))
    # bias correction (Bates et al. Sec. 4.3): (1 + ((K - 2)/K)^1.5) times
    # the gap between the nested and the plain CV estimates
    est, _, _ = study.nested_cv_interval(
        ho, [(0.0, 0.0)] * 5, np.full(100, 0.4), 100, 5
    )
    assert est == pytest.approx(0.5 - 0.1 * (1 + 0.6**1.5))


def test_coverage_table_by_hand(study):
    # Three replicates of one cell, one method. Fitted-model truths 0.70,
    # 0.80, 0.90: the "new data" truth of each is the mean of the other two
    # (0.85, 0.80, 0.75).
    df = pd.DataFrame(
        {
            "population": "p",
            "learner": "l",
            "n": 100,
            "rep": [0, 1, 2],
            "metric": "accuracy",
            "method": "m",
            "n_fits": 10,
            "estimate": [0.8, 0.8, 0.8],
            "low": [0.84, 0.60, 0.70],
            "high": [0.86, 0.85, 0.74],
            "truth_fitted": [0.70, 0.80, 0.90],
        }
    )
    t = study.coverage_table(df)
    row = t.iloc[0]
    assert row["replicates"] == 3
    assert row["coverage_new"] == pytest.approx(2 / 3)  # 0.85 in, 0.80 in, 0.75 out
    assert row["coverage_fitted"] == pytest.approx(1 / 3)  # only 0.80 in
    assert row["mc_se_new"] == pytest.approx(np.sqrt(2 / 9 / 3))
    assert row["mean_width"] == pytest.approx((0.02 + 0.25 + 0.04) / 3)
    assert row["truth_new"] == pytest.approx(0.80)


def test_auto_rows_mirror_skperfs_policy(study):
    # The study's "auto" rows apply generalization_ci(method="auto")'s rule to
    # the reference fits; each case against skperf's own _resolve_auto.
    from skperf.model_selection._generalization import _resolve_auto

    cases = [  # (metric, n)
        ("accuracy", 500),
        ("brier", 150),
        ("roc_auc", 500),
        ("roc_auc", 50),
        ("mse", 150),
        ("mse", 500),
        ("accuracy", 50),
        ("log_loss", 500),
        ("log_loss", 60),
    ]
    rows = []
    for i, (metric, n) in enumerate(cases):
        key = {"population": "p", "learner": "l", "n": n, "rep": i, "metric": metric}
        for method, n_fits, mid in (
            ("corrected-t", 30, 0.4),
            ("corrected-t (9 df)", 100, 0.5),
            ("nested-cv", 45, 0.6),
        ):
            rows.append(
                {**key, "method": method, "n_fits": n_fits, "estimate": mid,
                 "low": mid - 0.1, "high": mid + 0.1, "truth_fitted": 0.5}
            )  # fmt: skip
    out = study.auto_rows(pd.DataFrame(rows)).set_index("rep").sort_index()
    assert len(out) == len(cases)
    for i, (metric, n) in enumerate(cases):
        per_row = metric != "roc_auc"  # per-row losses: all but ROC AUC
        rule = _resolve_auto(n, per_row, False, 100)
        expected = {"calibrated-t": (0.5, 100), "nested-cv": (0.6, 45)}[rule]
        got = (out.loc[i, "estimate"], out.loc[i, "fits_used"])
        assert got == pytest.approx(expected), (metric, n, rule)


def test_auto_rows_before_keep_the_previous_rule(study):
    # the tables' "before" column: 3 x 10-fold, 9 df for ROC AUC and small
    # squared error, the log-loss gate to nested CV (75 fits)
    cases = [  # (metric, n, instability, near-zero count)
        ("accuracy", 500, np.nan, np.nan),
        ("roc_auc", 500, np.nan, np.nan),
        ("mse", 150, np.nan, np.nan),
        ("log_loss", 500, 0.01, 0),
        ("log_loss", 400, 0.30, 0),
        ("accuracy", 50, np.nan, np.nan),
    ]
    rows, ins, zero = [], [], []
    for i, (metric, n, s, z) in enumerate(cases):
        key = {"population": "p", "learner": "l", "n": n, "rep": i, "metric": metric}
        for method, n_fits, mid in (("corrected-t", 30, 0.5), ("nested-cv", 45, 0.6)):
            rows.append(
                {**key, "method": method, "n_fits": n_fits, "estimate": mid,
                 "low": mid - 0.1, "high": mid + 0.1, "truth_fitted": 0.5}
            )  # fmt: skip
        ins.append({**key, "instability": s})
        zero.append({**key, "near_zero": z})
    out = study.auto_rows_before(
        pd.DataFrame(rows), pd.DataFrame(ins), pd.DataFrame(zero)
    ).set_index("rep")
    q = stats.t.ppf(0.975, 9) / stats.t.ppf(0.975, 29)
    expected = [(0.5, 0.1, 30), (0.5, 0.1 * q, 30), (0.5, 0.1 * q, 30),
                (0.5, 0.1, 30), (0.6, 0.1, 75), (0.6, 0.1, 45)]  # fmt: skip
    for i, want in enumerate(expected):
        row = out.loc[i]
        got = (row["estimate"], (row["high"] - row["low"]) / 2, row["fits_used"])
        assert got == pytest.approx(want), cases[i]
    assert set(out["method"]) == {"auto (before)"}


@pytest.mark.slow  # about 250 fits
def test_one_replicate_is_seeded_and_counts_its_fits(study):
    pop = study.POPULATIONS["synth-clf"]
    # the rows of intervals (the others carry the refit instability)
    rows = [r for r in study.replicate(pop, "linear", 50, 0) if "low" in r]
    again = [r for r in study.replicate(pop, "linear", 50, 0) if "low" in r]
    assert [r["low"] for r in rows] == [r["low"] for r in again]
    by = {(r["metric"], r["method"], r["n_fits"]): r for r in rows}
    # ROC AUC is not decomposable: no wald-cv and no nested-cv
    assert ("roc_auc", "wald-cv", 10) not in by
    assert ("accuracy", "nested-cv", 45) in by
    assert ("accuracy", "wald-cv", 10) in by
    assert ("accuracy", "conservative-z", 46) in by
    # every interval holds its estimate, and the fitted model's truth is shared
    for r in rows:
        if np.isfinite(r["low"]):
            assert r["low"] <= r["estimate"] <= r["high"]
    assert len({r["truth_fitted"] for r in rows if r["metric"] == "accuracy"}) == 1


def test_fast_linear_learners_are_scikit_learns(study):
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y, Xt, _ = study.POPULATIONS["synth-clf"].draw(np.random.default_rng(1), 100)
    ref = make_pipeline(
        StandardScaler(), LogisticRegression(tol=1e-12, max_iter=10_000)
    )
    p = ref.fit(X, y).predict_proba(Xt[:1000])[:, 1]
    assert study._fast_linear("clf", X, y, Xt[:1000]) == pytest.approx(p, abs=1e-6)
    ref = LogisticRegression(tol=1e-12, max_iter=10_000)
    p = ref.fit(X, y).predict_proba(Xt[:1000])[:, 1]
    fast = study._fast_linear("clf", X, y, Xt[:1000], scale=False)
    assert fast == pytest.approx(p, abs=1e-6)
    X, y, Xt, _ = study.POPULATIONS["synth-reg"].draw(np.random.default_rng(1), 100)
    ref = make_pipeline(StandardScaler(), Ridge(alpha=1.0)).fit(X, y)
    fast = study._fast_linear("reg", X, y, Xt[:1000])
    assert fast == pytest.approx(ref.predict(Xt[:1000]), abs=1e-9)


def test_nested_cv_r_package_factors_equal_skperf_conservative(study):
    # skperf's nested_cv_ci(conservative=True), which auto's gate uses, is the
    # study's transcription of the authors' nestedcv R package on the same rows
    from skperf.stats._generalization import nested_cv_ci

    rng = np.random.default_rng(0)
    R, K, n = 3, 5, 103
    folds = np.stack([rng.permutation(np.arange(n) % K) for _ in range(R)])
    outer = rng.gamma(2.0, size=(R, n))
    inner = rng.gamma(2.0, size=(R, K, n)) + 0.3 * rng.normal(size=(R, K, 1))
    inner[folds[:, None, :] == np.arange(K)[None, :, None]] = np.nan
    ho, piv = [], []
    for r in range(R):
        for f in range(K):
            i, o = inner[r, f, folds[r] != f], outer[r, folds[r] == f]
            ho.append(i)
            piv.append((i.mean() - o.mean(), o.var(ddof=1) / len(o)))
    ref = study.nested_cv_interval(np.concatenate(ho), piv, outer.ravel(), n, K)
    ci = nested_cv_ci(inner, outer, folds, conservative=True)
    np.testing.assert_allclose((ci.estimate, ci.low, ci.high), ref, rtol=1e-12)
    # about 10 % wider than the default (mlr3inferr's factors, for n rows)
    ci0 = nested_cv_ci(inner, outer, folds)
    assert 1.05 < (ci.high - ci.low) / (ci0.high - ci0.low) < 1.4


def test_roc_auc_comparison_rows(study):
    # null --roc-auc: the same dataset and splits as the accuracy rows; the
    # corrected paired t read with 29 and with 9 degrees of freedom
    rows = {
        r["method"]: r for r in study.compare_replicate("power", 200, 0, ("roc_auc",))
    }
    assert set(rows) == {
        "corrected-t", "corrected-t (9 df)", "bayesian", "5x2cv-f", "naive-paired-t"
    }  # fmt: skip
    ct, ct9 = rows["corrected-t"], rows["corrected-t (9 df)"]
    assert ct["estimate"] == ct9["estimate"]
    # the same statistic: p-values of t_29 and t_9 at one |t|
    t = stats.t.isf(ct["pvalue"] / 2, 29)
    assert ct9["pvalue"] == pytest.approx(2 * stats.t.sf(t, 9), rel=1e-9)
    # the accuracy rows of the same dataset share its 3 x 10-fold splits
    acc = study.compare_replicate("power", 200, 0)
    assert [r["method"] for r in acc if r["metric"] == "accuracy"] == [
        "corrected-t", "bayesian", "5x2cv-f", "nested-cv", "wald-cv", "naive-paired-t"
    ]  # fmt: skip
    # the Wald test: skperf's wald_cv_ci on the per-row differences
    wald = next(
        r for r in acc if r["metric"] == "accuracy" and r["method"] == "wald-cv"
    )
    ct = next(
        r for r in acc if r["metric"] == "accuracy" and r["method"] == "corrected-t"
    )
    assert wald["estimate"] == pytest.approx(ct["estimate"])  # the same 30 fits
    assert 0 < wald["pvalue"] < 1


def test_more_repetitions_extend_the_main_studys_folds(study):
    # run --repeats: the first 3 repetitions are the main study's, so the
    # corrected t on 30 fits is its row; 100 fits read with 99 and 9 df
    pop = study.POPULATIONS["synth-clf"]
    rows = study.repeats_replicate(pop, "linear", 100, 0)
    main = {
        (r["metric"], r["n_fits"]): r
        for r in study.replicate(pop, "linear", 100, 0)
        if r.get("method") == "corrected-t"
    }
    got = {(r["metric"], r["method"], r["n_fits"]): r for r in rows}
    for m in pop.metrics:
        r30 = got[(m, "corrected-t", 30)]
        assert r30["estimate"] == pytest.approx(main[(m, 30)]["estimate"], abs=1e-6)
        assert r30["low"] == pytest.approx(main[(m, 30)]["low"], abs=1e-6)
        assert r30["truth_fitted"] == pytest.approx(
            main[(m, 30)]["truth_fitted"], abs=1e-6
        )
        r99, r9 = got[(m, "corrected-t", 100)], got[(m, "corrected-t (9 df)", 100)]
        assert r99["estimate"] == r9["estimate"]
        ratio = stats.t.ppf(0.975, 9) / stats.t.ppf(0.975, 99)
        assert r9["high"] - r9["low"] == pytest.approx(
            ratio * (r99["high"] - r99["low"]), rel=1e-12
        )
    # the comparisons on more repetitions: the 3 x 10 row is compare_replicate's
    more = {
        (r["metric"], r["method"]): r
        for r in study.repeats_compare_replicate("null", 200, 3)
    }
    base = {
        (r["metric"], r["method"]): r
        for r in study.compare_replicate("null", 200, 3)
        if r["method"] == "corrected-t"
    }
    for m in ("accuracy", "log_loss"):
        assert more[(m, "corrected-t (3 x 10)")]["pvalue"] == pytest.approx(
            base[(m, "corrected-t")]["pvalue"], rel=1e-6
        )
        assert more[(m, "corrected-t (10 x 10)")]["n_fits"] == 200


def test_below_hold_pvalues_are_exact_binomial_tests(study):
    cov, reps = np.array([0.885, 0.905, 0.95]), np.array([200, 204, 200])
    p, holm = study.below_hold_pvalues(cov, reps)
    for c, n, pi in zip(cov, reps, p, strict=True):
        k = round(c * n)
        want = stats.binomtest(k, n, 0.93, alternative="less").pvalue
        assert pi == pytest.approx(want, rel=1e-9)
    # Holm: the smallest times 3, then max(running, 2 x the next), ...
    assert holm[0] == pytest.approx(3 * p[0])
    assert holm[1] == pytest.approx(max(3 * p[0], 2 * p[1]))
    assert holm[2] == pytest.approx(min(1.0, max(holm[1], p[2])))
    # cells expected below 0.93 by chance when all cover 0.95: 200 datasets
    # each, P(X <= 185 | 200, 0.95) per cell
    assert study.expected_below([200] * 10) == pytest.approx(
        10 * stats.binom.cdf(185, 200, 0.95)
    )
