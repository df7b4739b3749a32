"""
Model selection with GridSearchCV
=================================

``GridSearchCV`` scores every candidate on the same splits, then picks the
best *mean*. With out-of-bootstrap splits those per-split scores are
independent draws, and skperf turns them into one
:class:`~skperf.PerformanceDistribution` per candidate:

* :func:`~skperf.model_selection.search_distributions`: the distributions,
  paired across candidates (they share the splits);
* :func:`~skperf.model_selection.candidates_tied_with_best`: which
  candidates are not significantly worse than the best one, from the
  probability of outperforming P(best > candidate) with a Holm correction,
  and ``search_report``, the same inside a
  :class:`~skperf.ModelSelectionReport`;
* :func:`~skperf.model_selection.quantile_refit` and
  :func:`~skperf.model_selection.simplest_within_best`: ``refit=`` callables
  that pick the candidate with the best lower quantile (risk-oriented
  selection, Lehmann & Paromau Sec. 1) or the simplest candidate tied with
  the best (the one-standard-error rule done with P(A > B));
* :func:`~skperf.model_selection.fixed_search`: run the search once and hold
  its choice fixed across repeats (Bouthillier et al.'s biased FixedHOptEst,
  Sec. 3.2.2), next to re-running the search in every repeat.
"""

import warnings

from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV
from sklearn.tree import DecisionTreeClassifier

from skperf import RepeatedEvaluator
from skperf.model_selection import (
    OutOfBootstrap,
    candidates_tied_with_best,
    fixed_search,
    quantile_refit,
    search_distributions,
    search_report,
    simplest_within_best,
)

X, y = load_iris(return_X_y=True)
grid = {"max_depth": [1, 2, 3, 4, 8]}

# %%
# 20 out-of-bootstrap splits: each candidate gets 20 independent scores.
cv = OutOfBootstrap(n_splits=20, random_state=0)
search = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=cv).fit(X, y)
print("refit=True (best mean):", search.best_params_)

dists = search_distributions(search)
for name, dist in dists.items():
    print(f"{name:12s} mean {dist.mean():.3f}  q10 {dist.quantile(0.1):.3f}")

# %%
# Every candidate against the best one (paired over the 20 splits).
table = candidates_tied_with_best(search, correction="holm")
columns = [
    "mean",
    "prob_best_better",
    "low",
    "high",
    "decision",
    "p_adjusted",
    "tied_with_best",
]
print(table[columns].round(3).to_string())

# %%
# The same candidates as a full :class:`~skperf.ModelSelectionReport`
# (every pair compared, quantile intervals, ``to_html()`` with plots). Its
# tied set is the table's: same best, same P(best > candidate), same
# corrected Wilcoxon tests.
report = search_report(search, correction="holm")
print("tied with the best:", report.tied_with_best)
assert set(report.tied_with_best) == set(table.index[table["tied_with_best"]])

# %%
# Statistical refits: the best 10 % quantile, and the shallowest tree that is
# not significantly worse than the best.
by_quantile = GridSearchCV(
    DecisionTreeClassifier(random_state=0), grid, cv=cv, refit=quantile_refit(0.1)
).fit(X, y)
simplest = GridSearchCV(
    DecisionTreeClassifier(random_state=0),
    grid,
    cv=cv,
    refit=simplest_within_best("max_depth"),
).fit(X, y)
print("quantile_refit(0.1):          ", by_quantile.best_params_)
print("simplest_within_best(depth):  ", simplest.best_params_)

# %%
# Fixed vs re-run search. ``fixed_search`` searches once (on all the data:
# the scores below are optimistic, and the search's own variance is left
# out); passing the search itself re-runs it inside every repeat.
inner = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=5)
fixed = RepeatedEvaluator(fixed_search(inner, X, y), n_repeats=20, random_state=0)
ideal = RepeatedEvaluator(inner, n_repeats=20, random_state=0)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # e.g. a source without randomness
    fixed.fit(X, y)
    ideal.fit(X, y)
chosen = ideal.results_["best_params"].map(lambda p: int(p["max_depth"]))
print(
    "fixed search, max_depth =",
    inner.best_params_["max_depth"],
    f"mean {fixed.distribution_.mean():.3f} sd {fixed.distribution_.std(ddof=1):.3f}",
)
print(
    "search per repeat, max_depth chosen:",
    chosen.value_counts().to_dict(),
    f"mean {ideal.distribution_.mean():.3f} sd {ideal.distribution_.std(ddof=1):.3f}",
)

# %%
# The per-candidate distributions side by side.
try:
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: pip install matplotlib")
else:
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.boxplot(
        [d.scores for d in dists.values()],
        orientation="horizontal",
        tick_labels=list(dists),
    )
    ax.set_xlabel("accuracy (20 out-of-bootstrap splits)")
    fig.tight_layout()
    plt.show()
