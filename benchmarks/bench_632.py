"""Speed of the out-of-bootstrap splitters and of the .632+ no-information value.

Prints ratios measured in one run:

1. ``OutOfBootstrap.split`` (bincount) against the ``np.setdiff1d`` stub it
   replaced, and ``StratifiedOutOfBootstrap`` against a per-class loop;
2. the O(n K) no-information value against the naive n^2 pairs array
   (accuracy and log loss), with the largest absolute difference;
3. linear time of the no-information value (issue: "the no-information
   rate in linear time"): growth exponent of its time from n = 10^4 to
   10^6, PASS when <= 1.2 (quadratic would be 2);
4. ``bootstrap_632_score(scoring=None)`` against ``scoring="accuracy"``
   (issue 9, item 13: the default path was 20x slower, scoring
   ``estimator.score`` on 20 random pairings per split), PASS when the
   ratio is <= 1.5 and the scores are identical.

Run: ``python benchmarks/bench_632.py`` (well under a minute).
"""

import functools

import numpy as np
from _timing import best_of
from sklearn.metrics import accuracy_score, log_loss

from skperf.model_selection import (
    OutOfBootstrap,
    StratifiedOutOfBootstrap,
    bootstrap_632_score,
)
from skperf.model_selection._bootstrap_632 import _no_information

_best = functools.partial(best_of, repeat=3)


def _stub_splits(n, n_splits, seed):
    rng = np.random.RandomState(seed)
    for _ in range(n_splits):
        train = rng.randint(0, n, size=n)
        yield train, np.setdiff1d(np.arange(n), train)


def _loop_stratified(y, n_splits, seed):
    rng = np.random.RandomState(seed)
    classes = np.unique(y)
    members = [np.flatnonzero(y == c) for c in classes]
    for _ in range(n_splits):
        train = np.concatenate([rng.choice(m, size=m.size) for m in members])
        yield train, np.setdiff1d(np.arange(y.size), train)


def main():
    n, n_splits = 100_000, 50
    X = np.zeros((n, 1))
    y = np.arange(n) % 10
    t_new = _best(lambda: list(OutOfBootstrap(n_splits, random_state=0).split(X)))
    t_old = _best(lambda: list(_stub_splits(n, n_splits, 0)))
    print(
        f"OutOfBootstrap, n={n}, {n_splits} splits: {t_new:.3f} s; "
        f"setdiff1d stub / bincount = {t_old / t_new:.1f}x"
    )
    t_new = _best(
        lambda: list(StratifiedOutOfBootstrap(n_splits, random_state=0).split(X, y))
    )
    t_old = _best(lambda: list(_loop_stratified(y, n_splits, 0)))
    print(
        f"StratifiedOutOfBootstrap, 10 classes: {t_new:.3f} s; "
        f"per-class loop / vectorized = {t_old / t_new:.1f}x"
    )

    rng = np.random.default_rng(0)
    m, k = 3000, 5
    yk = rng.integers(0, k, size=m)
    pred = np.where(rng.random(m) < 0.7, yk, rng.integers(0, k, size=m))
    proba = rng.dirichlet(np.ones(k), size=m)
    for name, func, sign, p in [
        ("accuracy", accuracy_score, 1, pred),
        ("log_loss", log_loss, -1, proba),
    ]:
        fast = _no_information(func, sign, {}, yk, p)
        t_fast = _best(lambda f=func, s=sign, q=p: _no_information(f, s, {}, yk, q))
        pairs = (np.repeat(yk, m), np.tile(p, (m,) + (1,) * (p.ndim - 1)))
        t_naive = _best(lambda f=func, pr=pairs: f(*pr), repeat=1)
        naive = sign * func(*pairs)
        print(
            f"no-information {name}, n={m}, K={k}: naive n^2 / O(nK) = "
            f"{t_naive / t_fast:.0f}x, |difference| = {abs(fast - naive):.1e}"
        )

    sizes = (10_000, 100_000, 1_000_000)
    for name, func, sign in [
        ("accuracy", accuracy_score, 1),
        ("log_loss", log_loss, -1),
    ]:
        times = []
        for m in sizes:
            yk = rng.integers(0, k, size=m)
            if name == "accuracy":
                p = np.where(rng.random(m) < 0.7, yk, rng.integers(0, k, size=m))
            else:
                p = rng.dirichlet(np.ones(k), size=m)
            times.append(
                _best(lambda f=func, s=sign, q=p, t=yk: _no_information(f, s, {}, t, q))
            )
        expo = np.log(times[-1] / times[0]) / np.log(sizes[-1] / sizes[0])
        print(
            f"no-information {name}: "
            + ", ".join(f"n={m:,} {t:.4f} s" for m, t in zip(sizes, times, strict=True))
            + f"; growth exponent {expo:.2f} (target <= 1.2) "
            + ("PASS" if expo <= 1.2 else "FAIL")
        )

    from sklearn.datasets import make_classification
    from sklearn.neighbors import KNeighborsClassifier

    Xc, yc = make_classification(n_samples=2000, n_features=10, random_state=0)
    knn = KNeighborsClassifier()
    res = {}
    for scoring in (None, "accuracy"):
        res[scoring] = bootstrap_632_score(
            knn, Xc, yc, scoring=scoring, n_splits=20, random_state=0
        )
        res[scoring, "t"] = _best(
            lambda s=scoring: bootstrap_632_score(
                knn, Xc, yc, scoring=s, n_splits=20, random_state=0
            ),
            repeat=2,
        )
    ratio = res[None, "t"] / res["accuracy", "t"]
    same = np.array_equal(res[None].scores, res["accuracy"].scores)
    print(
        f"bootstrap_632_score .632+, KNN, n=2000, 20 splits: scoring=None "
        f"{res[None, 't']:.2f} s, scoring='accuracy' {res['accuracy', 't']:.2f} s; "
        f"ratio {ratio:.2f} (target <= 1.5), identical scores: {same} "
        + ("PASS" if ratio <= 1.5 and same else "FAIL")
    )


if __name__ == "__main__":
    main()
