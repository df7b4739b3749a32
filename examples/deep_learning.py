"""
========================================
Deep learning and your own training loop
========================================

A small neural net evaluated the way the seed papers' users train networks:
its score over weight initializations, how much each source of variation
moves it, an interval for its score on new data, and the design most
deep-learning papers use (one fixed split, several seeds) read honestly.

With torch and skorch installed the net is a skorch ``NeuralNetClassifier``
(a two-layer MLP on the CPU), seeded by skperf with no seeder: torch's
global generator gets each fit's init seed in the worker. Without them the
same workflow runs on scikit-learn's ``MLPClassifier``, seeded through its
``random_state``. See the user guide page "Deep learning and your own
training loop".
"""

# %%
# The data and the net
# --------------------
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split

from skperf import (
    PerformanceDistribution,
    RepeatedEvaluator,
    generalization_ci,
    variance_sources,
)
from skperf.metrics import metric_ci

warnings.filterwarnings("ignore", category=ConvergenceWarning)

X, y = load_breast_cancer(return_X_y=True)
X = ((X - X.mean(axis=0)) / X.std(axis=0)).astype(np.float32)

try:
    import torch
    from skorch import NeuralNetClassifier
except ImportError:  # the same workflow on scikit-learn's MLP
    from sklearn.neural_network import MLPClassifier

    net = MLPClassifier(hidden_layer_sizes=(16,), max_iter=300)
    framework = "scikit-learn MLPClassifier"
else:

    class MLP(torch.nn.Module):
        def __init__(self, hidden=16):
            super().__init__()
            self.layers = torch.nn.Sequential(
                torch.nn.Linear(X.shape[1], hidden),
                torch.nn.ReLU(),
                torch.nn.Linear(hidden, 2),
            )

        def forward(self, x):
            return self.layers(x)

    net = NeuralNetClassifier(
        MLP,
        criterion=torch.nn.CrossEntropyLoss,
        max_epochs=20,
        lr=0.05,
        batch_size=64,
        train_split=None,
        verbose=0,
    )
    framework = "skorch NeuralNetClassifier (torch seeded by skperf)"
print(framework)

# %%
# The score over weight initializations
# -------------------------------------
# ``vary="init"`` holds the split and re-seeds the init only: the spread is
# the initialization's. The same ``random_state`` gives the same scores
# (for any ``n_jobs`` and joblib backend); no seeder is needed for a skorch
# net, and ``seeder=`` covers any other trainer.
ev = RepeatedEvaluator(net, vary="init", n_repeats=5, random_state=0, refit=False)
scores = ev.fit(X, y).results_["test_score"].to_numpy()
again = RepeatedEvaluator(net, vary="init", n_repeats=5, random_state=0, refit=False)
assert np.array_equal(scores, again.fit(X, y).results_["test_score"].to_numpy())
print("init seeds:", ev.results_["init_seed"].tolist())
print("accuracy over inits:", np.round(scores, 4))

# %%
# How much each source moves the score
# ------------------------------------
# Data split against initialization, each re-seeded alone (Bouthillier et
# al., Sec. 2.2), paired by the same ``random_state``.
frame = variance_sources(
    net, X, y, sources=("split", "init"), n_repeats=5, random_state=0
)
print(frame[["n", "mean", "std"]].round(4))

# %%
# An interval for the score on new data
# -------------------------------------
# The expected accuracy of this training procedure on new data from the
# same population (10-fold CV, Nadeau & Bengio's corrected t); a fit budget
# (``max_fits=``) and ``memory=`` keep the cost of a big net in hand.
ci = generalization_ci(
    net, X, y, scoring="accuracy", method="corrected-t", n_fits=10, random_state=0
)
print(ci)

# %%
# One fixed split, several seeds
# ------------------------------
# The common deep-learning design. The spread over seeds leaves out the
# sampling of the test rows, usually the larger part on a few hundred rows:
# compare the seeds-only interval with the test-row interval of one seed.
# ``metric_ci`` takes the stacked predictions of shape (n_seeds, n_rows) to
# account for both at once.
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=0)


def train(seed):
    """Your own training loop: one seed, one fitted model."""
    model = clone(net)
    if "torch" in framework:
        torch.manual_seed(seed)  # weights and batch order
    else:
        model.set_params(random_state=seed)
    return model.fit(X_tr, y_tr)


preds = [train(seed).predict(X_te) for seed in range(5)]
preds = np.stack(preds)  # (n_seeds, n_rows)
accs = (preds == y_te).mean(axis=1)
seeds_only = PerformanceDistribution(accs, metric="accuracy").mean_ci()
one_seed = metric_ci(y_te, preds[0], metric="accuracy")
print(f"seeds only:     {seeds_only.low:.4f} - {seeds_only.high:.4f}")
print(f"one seed, rows: {one_seed.low:.4f} - {one_seed.high:.4f}")
