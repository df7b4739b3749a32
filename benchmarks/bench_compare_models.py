"""compare_models() vs the same fits done by hand with cross_validate.

Both arms fit the same models on the same out-of-bootstrap splits (the hand
loop reads the split seeds compare_models used from ``results_``), with the
same ``n_jobs``. compare_models additionally pairs seeds, builds the
distributions, runs every pairwise comparison (bootstrap + rank test) and the
multiple-comparison correction; the target is at most 5 % over the fits.
The deterministic model (logistic regression) must give identical scores in
both arms, which checks that the splits are the same.

Each arm runs ROUNDS times, alternating, and the minimum time is compared
(the least disturbed run, as ``timeit`` recommends).

Run: python benchmarks/bench_compare_models.py
"""

import time

import numpy as np
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_validate
from sklearn.tree import DecisionTreeClassifier

from skperf import compare_models
from skperf.model_selection import OutOfBootstrap

N_REPEATS, N_JOBS, ROUNDS = 20, 2, 2
TARGET = 1.05  # issue 4: compare_models adds no more than 5 % over the fits

X, y = make_classification(
    n_samples=1500, n_features=20, n_informative=8, random_state=0
)
MODELS = {
    "logreg": LogisticRegression(max_iter=500),
    "tree": DecisionTreeClassifier(max_depth=8),
    "forest": RandomForestClassifier(n_estimators=30, max_depth=8),
}


def run_compare():
    return compare_models(
        MODELS, X, y, n_repeats=N_REPEATS, random_state=0, n_jobs=N_JOBS
    )


def run_hand(split_seeds):
    # the splits compare_models used: one out-of-bootstrap split per repeat
    splits = [
        next(OutOfBootstrap(n_splits=1, random_state=int(s)).split(X, y))
        for s in split_seeds
    ]
    return {
        name: cross_validate(clone(est), X, y, cv=splits, n_jobs=N_JOBS)["test_score"]
        for name, est in MODELS.items()
    }


def main():
    report = run_compare()  # warm-up (imports, joblib workers), and the seeds
    seeds = report.evaluators["logreg"].results_["split_seed"].to_numpy()
    hand = run_hand(seeds)
    same = np.allclose(hand["logreg"], report.distributions["logreg"].scores)
    t_cmp, t_hand = [], []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        run_compare()
        t_cmp.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        run_hand(seeds)
        t_hand.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    report.__class__(report.distributions, random_state=0)
    t_stats = time.perf_counter() - t0
    ratio = min(t_cmp) / min(t_hand)
    n_fits = N_REPEATS * len(MODELS)
    print(
        f"{len(MODELS)} models x {N_REPEATS} repeats = {n_fits} fits, n_jobs={N_JOBS}"
    )
    print(f"same logreg scores on the same splits: {same}")
    print(
        f"hand loop (cross_validate): min {min(t_hand):.2f} s  (runs {np.round(t_hand, 2)})"
    )
    print(
        f"compare_models:             min {min(t_cmp):.2f} s  (runs {np.round(t_cmp, 2)})"
    )
    print(f"  of which comparisons + correction (report alone): {t_stats:.3f} s")
    verdict = "PASS" if ratio <= TARGET and same else "FAIL"
    print(
        f"ratio compare_models / hand loop: {ratio:.3f} (target <= {TARGET:g}, "
        f"i.e. at most 5 % over the fits): {verdict}"
    )


if __name__ == "__main__":
    main()
