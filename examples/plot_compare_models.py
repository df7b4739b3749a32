"""
Comparing several models on shared seeds
========================================

:func:`skperf.compare_models` evaluates every model over the same seeded
repeats (same out-of-bootstrap split, same initialization seed in repeat
``i`` for every model), so the scores are paired. It then compares every
pair by the probability of outperforming P(A > B), picks the model with the
best mean, and lists the models that are not significantly worse than it
after a Holm correction over the tests "best vs each other model".

The report prints as markdown, renders as one self-contained HTML page and
plots the score distributions with their quantile intervals next to the
P(row > column) matrix.
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
# 30 repeats per model: about the Noether sample size (29) needed to detect
# P(A > B) >= 0.75 reliably (Bouthillier et al., App. C.3).
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # e.g. a model without randomness to vary
    report = compare_models(
        models, X, y, scoring="accuracy", n_repeats=30, random_state=0, n_jobs=2
    )

print(report.to_markdown())

# %%
# The numbers behind the table, one row per model (best first).
frame = report.to_frame()
columns = [
    "mean",
    "mean_low",
    "mean_high",
    "p_best_better",
    "p_adjusted",
    "tied_with_best",
]
print(frame[columns].round(4).to_string())

# %%
# Any pairwise comparison, e.g. the two best models.
first, second = report.ranking[:2]
print(report.comparisons[first, second])

# %%
# A self-contained HTML page (CSS and plots embedded; opens offline) and the
# figure: per-model scores with quantile intervals, and P(row > column).
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
