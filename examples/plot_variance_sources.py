"""
Where does the variance come from?
==================================

A score moves when the data split changes, when the initialization seed
changes, and when the hyperparameter search is re-run (Bouthillier et al.,
Sec. 2.2 and Fig. 1). :func:`skperf.variance_sources` re-seeds one source at
a time, holding the others at fixed seeds, and then all of them together;
every row uses the same ``random_state``, so the rows are paired.

The model is a decision tree tuned by a *noisy* grid search
(:class:`~skperf.model_selection.NoisyGridSearchCV`, App. E.2): a grid search
has no seed of its own, but the choice of the grid is arbitrary; the noisy
grid draws the grid's bounds around the given ones, so re-seeding the search
shows how much that choice matters.
"""

import warnings

from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import KFold
from sklearn.tree import DecisionTreeClassifier

from skperf import variance_sources
from skperf.model_selection import NoisyGridSearchCV

X, y = load_breast_cancer(return_X_y=True)

search = NoisyGridSearchCV(
    DecisionTreeClassifier(random_state=0),
    {"max_depth": [2, 4, 6], "max_features": [0.3, 0.6]},
    cv=KFold(3, shuffle=True, random_state=0),
)

# %%
# 20 repeats per source: one out-of-bootstrap split per repeat (``cv=None``),
# so the scores of a row are independent draws. Each repeat runs the whole
# search (6 candidates x 3 folds + refit). ``max_features`` is a fraction:
# the noisy grid moves its bounds by half a step (0.15), so it stays in (0, 1).
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    frame = variance_sources(search, X, y, n_repeats=20, random_state=0, n_jobs=2)

columns = ["n", "mean", "std", "std_low", "std_high", "idr", "idr_low", "idr_high"]
print(frame[columns].round(4).to_string())

# %%
# Each source alone moves the score by about as much as all of them together:
# for a small tree, the random feature order (init) and the choice of grid
# (search) matter as much as the data split. The chi-square intervals of the
# standard deviations overlap widely with 20 repeats; more repeats separate
# them. The variances do not add up to the "all" row: the sources interact
# (Bouthillier et al., Sec. 2.2).
ratio = frame["std"] / frame.loc["all", "std"]
print((ratio.round(2)).to_string())

# %%
# Per source, the scores (points), mean +- one standard deviation (thick bar)
# and the interdecile range (thin line), as in Bouthillier et al., Fig. 1.
try:
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: pip install matplotlib")
else:
    from skperf import plot_variance_sources

    ax = plot_variance_sources(frame)
    ax.figure.tight_layout()
    plt.show()
