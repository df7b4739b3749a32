"""
Comparing models over many datasets
===================================

Papers and benchmarks judge algorithms on many datasets. :func:`skperf.benchmark`
runs one paired :func:`~skperf.compare_models` evaluation per dataset (the same
seeds for every model), then compares the models *across* datasets the way
Demšar (2006) and Benavoli et al. (2016, 2017) recommend: ranks within each
dataset, the Friedman test with Nemenyi or Holm-corrected Wilcoxon post-hoc
tests, the critical-difference diagram, win/tie/loss counts from the
per-dataset decisions, aggregate scores, and a Bayesian signed-rank test.

What the per-dataset repeats add: intervals for the mean ranks and
P(best mean rank) from a two-level bootstrap (datasets, then repeats within
each), so ranks that are coin flips on some datasets are not read as exact.

Everything here runs offline on datasets that ship with scikit-learn and a
few generated ones.
"""

import warnings

from sklearn.datasets import (
    load_breast_cancer,
    load_iris,
    load_wine,
    make_classification,
    make_moons,
)
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skperf import benchmark

datasets = {
    "iris": load_iris(return_X_y=True),
    "wine": load_wine(return_X_y=True),
    "breast_cancer": load_breast_cancer(return_X_y=True),
    "moons": make_moons(n_samples=300, noise=0.3, random_state=0),
}
for i, (informative, flip) in enumerate([(5, 0.05), (10, 0.1), (3, 0.02), (8, 0.15)]):
    datasets[f"synthetic{i}"] = make_classification(
        n_samples=300,
        n_features=15,
        n_informative=informative,
        flip_y=flip,
        random_state=i,
    )

models = {
    "logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)),
    "knn": make_pipeline(StandardScaler(), KNeighborsClassifier()),
    "forest": RandomForestClassifier(n_estimators=50, random_state=0),
    "naive_bayes": GaussianNB(),
}

# %%
# One call evaluates every model on every dataset (5-fold cross-validation,
# repeated 3 times with shared seeds) and analyses the results.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # e.g. small-sample notes per dataset
    report = benchmark(
        models, datasets, scoring="accuracy", cv=5, n_repeats=3, random_state=0
    )
print(report)

# %%
# Mean ranks with their interval (two-level bootstrap: datasets, then repeats
# within each) and the probability that each model has the best mean rank.
# Their target is "new datasets": the datasets are read as a sample of datasets.
print(report.ranks()[["mean_rank", "low", "high", "p_best", "target"]].round(3))

# %%
# The Friedman test and the post-hoc tests. Nemenyi compares mean ranks with a
# critical difference; the Holm-corrected Wilcoxon signed-rank test, recommended
# by Benavoli, Corani & Mangili (2016), compares the scores pair by pair.
nemenyi = report.test()
print(nemenyi)
print(report.test(posthoc="holm").pvalues.round(3))

# %%
# The critical-difference diagram: models joined by a thick bar are not
# significantly different (Nemenyi); the shaded segments are the mean-rank
# intervals.
report.plot_cd()

# %%
# Win/tie/loss: a tie is "no significant difference on that dataset" from each
# dataset's own decision (on new data), which rank tests count as a win or loss.
print(report.win_tie_loss())

# %%
# Aggregate accuracy across datasets with intervals that resample datasets
# (mean, median and the interquartile mean of Agarwal et al. 2021), and the
# Bayesian signed-rank test with a region of practical equivalence of one
# accuracy point (Benavoli et al. 2017).
print(report.aggregate("iqm").round(3))
print(report.bayesian_signed_rank(rope=0.01).round(3))

# %%
# A paper-ready markdown table and a self-contained HTML page
# (``report.to_html("benchmark.html")``).
print(report.to_markdown())
