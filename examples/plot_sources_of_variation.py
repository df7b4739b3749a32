"""
Sources of variation: split, initialization, all
================================================

A score is one draw from a distribution. Which distribution depends on what
is allowed to change between draws (Bouthillier et al., Sec. 2 and
App. C.1): the data split, the model's initialization seed, the
hyperparameter search. :class:`~skperf.RepeatedEvaluator` re-seeds the
sources named in ``vary`` in every repeat and holds the others at one fixed
seed.

Here a random forest is evaluated three times with the same
``random_state``: varying only the out-of-bootstrap split, only the forest's
seed, and both. The three evaluations share their seeds (repeat ``i`` uses
the same split in "split" and "all", the same forest seed in "init" and
"all"), so they are paired.
"""

import warnings

import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier

from skperf import RepeatedEvaluator

X, y = load_breast_cancer(return_X_y=True)
forest = RandomForestClassifier(n_estimators=25, n_jobs=1)

evaluators = {
    vary: RepeatedEvaluator(
        forest, vary=vary, n_repeats=40, random_state=0, refit=False, n_jobs=2
    ).fit(X, y)
    for vary in ("split", "init", "all")
}
distributions = {vary: ev.distribution_ for vary, ev in evaluators.items()}

# %%
# Every evaluation records its seeds: under ``vary="init"`` the split seed is
# held at the seed of repeat 0, while the forest's seed changes.
cols = ["repeat", "split_seed", "init_seed", "test_score"]
print(evaluators["init"].results_[cols].head())

# %%
# Quantile intervals of the accuracy for each source. With one
# out-of-bootstrap split per repeat the 40 scores are independent draws, so
# the order-statistic intervals apply (Lehmann & Paromau, Sec. 3.2).
for vary, dist in distributions.items():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ties among accuracies: see TiesWarning
        ci = dist.quantile_ci([0.1, 0.5, 0.9])
    cells = ", ".join(
        f"q{q:.1f} {e:.3f} [{lo:.3f}, {hi:.3f}]"
        for q, e, lo, hi in zip(ci.q, ci.estimate, ci.low, ci.high, strict=True)
    )
    print(f"vary={vary!r:8} mean {dist.mean():.3f} sd {dist.std(ddof=1):.4f}  {cells}")

# %%
# The split dominates: the forest's seed moves the accuracy far less than
# the choice of training and test rows, as Bouthillier et al. (Fig. 1)
# found for much larger models.
fig, ax = plt.subplots(figsize=(6, 3))
ax.boxplot(
    [d.scores for d in distributions.values()],
    tick_labels=list(distributions),
    orientation="horizontal",
)
ax.set_xlabel("accuracy (out-of-bootstrap)")
ax.set_ylabel("vary")
fig.tight_layout()
plt.show()
