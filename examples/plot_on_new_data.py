"""
=====================================================
The mean over repeats is not an interval for new data
=====================================================

Repeating cross-validation on one dataset tells how much the score moves from
run to run *on this dataset*. It does not tell how good the learning algorithm
is on new data: every repeat reuses the same rows, so the mean over repeats
converges to this dataset's CV score, not to the score on new data, and its
interval shrinks to zero as repeats grow. Here the population is known, so the
truth can be measured: eight datasets of 200 rows are drawn from it, and on
each one the 95 % interval of the mean over 30 repeats ("this dataset") is
set beside :func:`skperf.generalization_ci` ("new data").
"""

# %%
# A population with a known truth
# -------------------------------
# Ten standard-normal features; the log-odds of the positive class is linear
# in three of them. The "score on new data" of logistic regression trained on
# 200 rows is its expected accuracy over training sets of 200 rows, measured
# here on 20,000 fresh rows for 100 fresh training sets.
import sys

import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import LogisticRegression

import skperf

BETA = np.r_[1.0, -0.8, 0.6, np.zeros(7)]
N = 200


def draw(rng, n):
    X = rng.standard_normal((n, BETA.size))
    y = (rng.random(n) < 1 / (1 + np.exp(-X @ BETA))).astype(int)
    return X, y


rng = np.random.default_rng(0)
X_new, y_new = draw(rng, 20_000)
learner = LogisticRegression()
fitted = [learner.fit(*draw(rng, N)).score(X_new, y_new) for _ in range(100)]
truth = np.mean(fitted)
print(f"accuracy on new data of logistic regression trained on {N} rows: {truth:.3f}")
print(f"  (it varies by {np.std(fitted):.3f} from one training set to the next)")

# %%
# Eight datasets, two intervals each
# ----------------------------------
# ``repeated_cross_val_score(...).mean_ci()`` is an interval for the mean
# score over repeats on this dataset. ``generalization_ci`` (``method="auto"``)
# is an interval for the score on new data: its method was chosen from a
# coverage study over datasets drawn from populations (docs: *Validity*).
rows = []
for k in range(8):
    X, y = draw(rng, N)
    repeats = skperf.repeated_cross_val_score(
        learner, X, y, scoring="accuracy", n_repeats=30, random_state=k
    )
    this_dataset = repeats.mean_ci()
    new_data = skperf.generalization_ci(
        learner, X, y, scoring="accuracy", random_state=k
    )
    rows.append((this_dataset, new_data))
    print(
        f"dataset {k}: mean over repeats {this_dataset.estimate:.3f} "
        f"[{this_dataset.low:.3f}, {this_dataset.high:.3f}]   "
        f"new data {new_data.estimate:.3f} [{new_data.low:.3f}, {new_data.high:.3f}] "
        f"({new_data.method}, {new_data.n_fits} fits)"
    )


def covers(ci):
    return ci.low <= truth <= ci.high


print(
    f"cover the truth: mean over repeats {sum(covers(a) for a, _ in rows)} of 8, "
    f"generalization_ci {sum(covers(b) for _, b in rows)} of 8"
)

# %%
# The picture
# -----------
# The mean-over-repeats intervals (grey) are narrow and sit wherever this
# dataset's CV score happens to be; most of them miss the truth. The
# intervals for new data (blue) are wider: they carry the variation from one
# dataset of 200 rows to the next.
fig, ax = plt.subplots(figsize=(7, 4))
for k, (a, b) in enumerate(rows):
    ax.plot([a.low, a.high], [k - 0.12] * 2, color="0.55", lw=4, solid_capstyle="butt")
    ax.plot([b.low, b.high], [k + 0.12] * 2, color="tab:blue", lw=2)
    ax.plot(b.estimate, k + 0.12, "|", color="tab:blue", ms=8)
ax.axvline(truth, color="black", lw=1)
ax.text(truth, 7.4, " score on new data", va="bottom", fontsize=9)
ax.plot([], [], color="0.55", lw=4, label="mean over 30 repeats (this dataset)")
ax.plot([], [], color="tab:blue", lw=2, label="generalization_ci (new data)")
ax.set_yticks(range(8), [f"dataset {k}" for k in range(8)])
ax.set_ylim(-0.6, 9.0)
ax.set_xlabel("accuracy (95 % intervals)")
ax.legend(loc="upper left", ncol=2, fontsize=8)
ax.set_title(f"Logistic regression, 8 datasets of {N} rows from one population")
fig.tight_layout()
if len(sys.argv) > 1:  # e.g. docs/user_guide/on_new_data.png
    fig.savefig(sys.argv[1], dpi=90)
plt.show()
