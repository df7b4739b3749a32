"""
Comparing several models: which one, on new data?
==================================================

:func:`skperf.compare_models` evaluates every model on the same seeded
splits (by default a 10-fold CV reshuffled in every repeat), so the scores
are paired. Its decisions are about **new data**: is an algorithm better than
another when trained on about n rows from the same population? Every pair of
models is tested with Nadeau & Bengio's corrected resampled paired t on the
per-split score differences, and all pairs form one family corrected by Holm
(whatever model is then picked as the best). The headline, ``tied_with_best``,
the decisions in the table, the pairwise table and the heatmap marks all come
from that one family.

The mean over repeats and its sd stay in the table as run-to-run statistics
on this dataset, labelled as such; the report computes no run-to-run decision
(P(A > B) over repeats is ``target="this dataset"``'s, below).
"""

import tempfile
import warnings
from pathlib import Path

from sklearn.datasets import load_breast_cancer
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from skperf import compare_models

X, y = load_breast_cancer(return_X_y=True)

models = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression()),
    "knn": make_pipeline(StandardScaler(), KNeighborsClassifier()),
    "tree": DecisionTreeClassifier(max_depth=4),
    "majority": DummyClassifier(),
}

# %%
# Up to 10 repeats of 10-fold CV (the default design for new data), fitted in
# rounds of one repeat that stop once every pair is decided or cannot be.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # e.g. a model without randomness to vary
    report = compare_models(models, X, y, scoring="accuracy", random_state=0, n_jobs=2)

print(report.to_markdown())

# %%
# The numbers behind the table, one row per model (best first): the interval
# for each model's expected accuracy on new data, the difference with the best
# and its adjusted p-value (the family), then the run-to-run mean.
frame = report.to_frame()
columns = [
    "new_data",
    "new_data_low",
    "new_data_high",
    "difference",
    "pvalue_adjusted",
    "tied_with_best",
    "mean",
]
print(frame[columns].round(4).to_string())

# %%
# Every pair of models: the family of tests behind every decision.
print(report.pairwise().round(4).to_string())

# %%
# The same scores read run to run on this dataset (the earlier decisions):
# these intervals describe the repeats, not new data, and call far more
# differences "significant".
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    run_to_run = compare_models(
        models,
        X,
        y,
        scoring="accuracy",
        target="this dataset",
        n_repeats=30,
        random_state=0,
        n_jobs=2,
    )
print("new data, tied with best:    ", report.tied_with_best)
print("this dataset, tied with best:", run_to_run.tied_with_best)

# %%
# A self-contained HTML page (CSS and plots embedded; opens offline) and the
# figure: per-model scores with their new-data interval, and the matrix of
# mean differences marked where the family finds a significant difference.
# (written to the temporary directory, so running the example leaves no file)
out = Path(tempfile.gettempdir()) / "compare_models_report.html"
report.to_html(out)
print(f"wrote {out}")
try:
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: pip install matplotlib")
else:
    report.plot()
    plt.show()
