"""
==============================
Intervals on a single test set
==============================

A fitted model is scored once on a held-out test set. How precise is that
score? :mod:`skperf.metrics` answers with intervals that describe the
uncertainty from the finite test set (the model held fixed), and compares two
models on the same rows with paired tests.
"""

# %%
# Two models on the breast-cancer data
# ------------------------------------
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skperf.metrics import compare_predictions, metric_ci, score_ci

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
logreg = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
forest = RandomForestClassifier(n_estimators=100, random_state=0).fit(X_train, y_train)
print(f"test set: {y_test.size} rows, {y_test.sum()} positives")

# %%
# One interval per score
# ----------------------
# ``method="auto"`` picks, per metric, the method whose coverage was measured
# to hold: accuracy is a proportion (Wilson interval); ROC AUC gets DeLong's
# standard error on the logit scale (the plain DeLong interval under-covers
# near AUC = 1 and can reach 1.000); log loss, a mean of per-row losses, gets
# a studentized (bootstrap-t) interval over the test rows with 999 resamples.
# Where a method is known to fall short, the note says so with the measured
# coverage.
for scoring in ("accuracy", "roc_auc", "neg_log_loss"):
    ci = score_ci(logreg, X_test, y_test, scoring=scoring, random_state=0)
    print(
        f"{scoring:13s} {ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}]  ({ci.method})"
    )
print("note:", ci.note)

# %%
# Many metrics at once
# --------------------
# Proportions get their own denominators (recall: the actual positives);
# the other metrics share one set of bootstrap resamples.
y_pred = logreg.predict(X_test)
table = metric_ci(
    y_test,
    y_pred,
    metric=["accuracy", "recall", "precision", "f1", "matthews_corrcoef"],
    random_state=0,
)
print(table.round(3).to_string(index=False))

# %%
# Labels and scores in one call
# -----------------------------
# Label metrics read the predicted labels (``y_pred``); score metrics read
# ``y_score``. Passing probabilities where labels are expected raises an
# error instead of silently counting every row as wrong.
proba = logreg.predict_proba(X_test)[:, 1]
table = metric_ci(
    y_test,
    y_pred,
    y_score=proba,
    metric=["accuracy", "f1", "roc_auc", "brier_score_loss"],
    random_state=0,
)
print(table.round(3).to_string(index=False))
try:
    metric_ci(y_test, proba, metric="accuracy")
except ValueError as exc:
    print("ValueError:", str(exc)[:100], "...")

# %%
# Comparing the two models on the same rows
# -----------------------------------------
# Look at the interval of the difference, not at the overlap of two intervals.
res = compare_predictions(y_test, logreg.predict(X_test), forest.predict(X_test))
print(res)
res = compare_predictions(
    y_test,
    logreg.decision_function(X_test),
    forest.predict_proba(X_test)[:, 1],
    metric="roc_auc",
)
print(res)
res = compare_predictions(
    y_test, logreg.predict(X_test), forest.predict(X_test), metric="f1", random_state=0
)
print(res)

# %%
# Dependent rows
# --------------
# If rows come in groups (here: pretend every 3 consecutive rows belong to one
# patient), resample whole groups.
groups = np.arange(y_test.size) // 3
ci = metric_ci(y_test, y_pred, metric="f1", groups=groups, random_state=0)
print(f"f1 with groups: {ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}]  ({ci.note})")
