"""
=============================================
Expensive runs: scores from anywhere, caching
=============================================

Training runs outside scikit-learn (a deep-learning model, a NumPy script)
produce one score per seed. Written to a CSV, one row per run, they get the
same report as ``skperf report`` with ``skperf summarize``. For
scikit-learn models, ``RepeatedEvaluator(memory=...)`` caches every fit, so
a run can be resumed or extended, and ``return_predictions=True`` keeps what
each fit predicted.
"""

# %%
# A small model outside scikit-learn, trained over seeds
# ------------------------------------------------------
# Logistic regression by minibatch gradient descent in plain NumPy: the
# seed sets the random initialization and the minibatch order. Two
# variants (learning rates) are trained on the same seeds, so their runs
# pair by seed.
import os
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skperf import ModelSelectionReport, RepeatedEvaluator, from_frame
from skperf.report import roc_curves

X, y = load_breast_cancer(return_X_y=True)
X = (X - X.mean(axis=0)) / X.std(axis=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)


def train(lr, seed, epochs=5, batch=32):
    rng = np.random.default_rng(seed)
    w = rng.normal(0, 0.5, X.shape[1])
    b = 0.0
    for _ in range(epochs):
        order = rng.permutation(len(y_train))
        for start in range(0, len(order), batch):
            i = order[start : start + batch]
            p = 1 / (1 + np.exp(-(X_train[i] @ w + b)))
            w -= lr * X_train[i].T @ (p - y_train[i]) / len(i)
            b -= lr * np.mean(p - y_train[i])
    return float(np.mean(((X_test @ w + b) > 0) == y_test))


rows = [
    {"model": name, "seed": seed, "accuracy": train(lr, seed)}
    for name, lr in [("lr=0.01", 0.01), ("lr=0.1", 0.1)]
    for seed in range(30)
]
folder = tempfile.mkdtemp()
scores_csv = os.path.join(folder, "scores.csv")
pd.DataFrame(rows).to_csv(scores_csv, index=False)
print(pd.read_csv(scores_csv).groupby("model")["accuracy"].describe().round(3))

# %%
# ``skperf summarize`` on the CSV
# -------------------------------
# The same as ``skperf summarize scores.csv --score accuracy --by model
# --pair-by seed --out report.html`` in a shell.
command = [
    sys.executable,
    "-m",
    "skperf",
    "summarize",
    scores_csv,
    "--score",
    "accuracy",
    "--by",
    "model",
    "--pair-by",
    "seed",
    "--random-state",
    "0",
    "--out",
    os.path.join(folder, "report.html"),
]
status = subprocess.run(command, check=False).returncode
print("exit status", status)

# %%
# In Python, the same table gives paired distributions and the report. Seeded
# runs on one dataset say nothing about the split design, so the report's
# decisions are about run-to-run variation on this dataset (its target):
frame = pd.read_csv(scores_csv)
dists = from_frame(frame, score="accuracy", by="model", pair_by="seed")
print(dists["lr=0.1"].compare(dists["lr=0.01"], random_state=0))
report = ModelSelectionReport(dists, target="this dataset", random_state=0)
print(report.best, report.tied_with_best)

# %%
# Cache, resume and extend a scikit-learn evaluation
# --------------------------------------------------
# With ``memory``, every fit is stored as soon as it finishes. Raising
# ``n_repeats`` from 10 to 30 fits only the 20 new repeats; an interrupted
# run, rerun, fits only what is missing.
cache = os.path.join(folder, "cache")
model = make_pipeline(StandardScaler(), LogisticRegression())
X, y = load_breast_cancer(return_X_y=True)
for n_repeats in (10, 30):
    ev = RepeatedEvaluator(
        model,
        cv=5,
        n_repeats=n_repeats,
        random_state=0,
        memory=cache,
        return_predictions=True,
    ).fit(X, y)
    print(
        f"n_repeats={n_repeats}: {int((~ev.results_['cached']).sum())} fits run, "
        f"{int(ev.results_['cached'].sum())} loaded from the cache"
    )

# %%
# Kept predictions: another metric without refitting, and ROC curves
# ------------------------------------------------------------------
f1 = ev.score_distribution(scoring="f1")
print(f"F1 over {f1.n} fits: mean {f1.mean():.3f}")
print(ev.repeat_metric_ci("accuracy").head(3))
curves = roc_curves(ev)
print(curves)
curves.plot()
