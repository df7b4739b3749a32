"""
Model selection with GridSearchCV
=================================

``GridSearchCV`` scores every candidate on the same splits, then picks the
best *mean*. skperf uses those per-split scores:

* :func:`~skperf.model_selection.candidates_tied_with_best`: which
  candidates are not significantly worse than the best one **on new data**
  (the default: every pair tested with the corrected resampled paired t, all
  pairs corrected together by Holm), and ``search_report``, the same inside a
  :class:`~skperf.ModelSelectionReport`; ``target="this dataset"`` gives the
  run-to-run decisions instead;
* :func:`~skperf.model_selection.search_distributions`: one
  :class:`~skperf.PerformanceDistribution` per candidate, paired across
  candidates (they share the splits);
* :func:`~skperf.model_selection.quantile_refit` and
  :func:`~skperf.model_selection.simplest_within_best`: ``refit=`` callables
  that pick the candidate with the best lower quantile (risk-oriented
  selection, Lehmann & Paromau Sec. 1) or the simplest candidate tied with
  the best (the one-standard-error rule done with a test);
* :func:`~skperf.model_selection.fixed_search`: run the search once and hold
  its choice fixed across repeats (Bouthillier et al.'s biased FixedHOptEst,
  Sec. 3.2.2), next to re-running the search in every repeat.
"""

import warnings

from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
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
# 3 repeats of 10-fold CV: 30 per-split scores per candidate, on shared splits.
cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=0)
search = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=cv).fit(X, y)
print("refit=True (best mean):", search.best_params_)

# %%
# Which candidates are tied with the best on new data: every pair tested with
# the corrected resampled paired t (ratio n_test / n_train = 1/9, read from the
# search's cv), all 10 pairs corrected together (Holm).
table = candidates_tied_with_best(search)
columns = ["mean", "difference", "low", "high", "pvalue_adjusted", "tied_with_best"]
print(table[columns].round(3).to_string())

# %%
# The same candidates as a full :class:`~skperf.ModelSelectionReport`
# (headline, every pair, intervals, ``to_html()`` with plots): the same family
# on the same scores, so the same p-values and the same tied set.
report = search_report(search, random_state=0)
print("tied with the best:", report.tied_with_best)
assert set(report.tied_with_best) == set(table.index[table["tied_with_best"]])

# %%
# Run to run on this dataset (the earlier rule: P(best > candidate) over the
# repeats, Wilcoxon tests of the best against each candidate). With 3
# independent repeats no Wilcoxon test can reject: everything is "tied".
old = candidates_tied_with_best(search, target="this dataset")
print("this dataset, tied with the best:", list(old.index[old["tied_with_best"]]))

# %%
# 20 out-of-bootstrap splits: each candidate gets 20 independent scores, one
# distribution per candidate (run-to-run statistics, e.g. a lower quantile).
oob = OutOfBootstrap(n_splits=20, random_state=0)
by_split = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=oob)
dists = search_distributions(by_split.fit(X, y))
for name, dist in dists.items():
    print(f"{name:12s} mean {dist.mean():.3f}  q10 {dist.quantile(0.1):.3f}")

# %%
# Statistical refits: the best 10 % quantile, and the shallowest tree that is
# not significantly worse than the best on new data (the refit callable gets
# the search's cv for its ratio n_test / n_train).
by_quantile = GridSearchCV(
    DecisionTreeClassifier(random_state=0), grid, cv=oob, refit=quantile_refit(0.1)
).fit(X, y)
simplest = GridSearchCV(
    DecisionTreeClassifier(random_state=0),
    grid,
    cv=cv,
    refit=simplest_within_best("max_depth", cv=cv),
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
