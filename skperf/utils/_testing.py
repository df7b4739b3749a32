"""Fake estimators for tests: failing, seed-sensitive, recording, slow."""

from __future__ import annotations

import time
import zlib

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = [
    "FailingClassifier",
    "RecordingClassifier",
    "SeedSensitiveRegressor",
    "SlowClassifier",
    "fingerprint_scorer",
]


class _PriorClassifier(ClassifierMixin, BaseEstimator):
    """Predicts the most frequent training class."""

    def _fit_prior(self, X, y):
        X, y = validate_data(self, X, y)
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return X, y

    def predict(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return np.full(X.shape[0], self.majority_)


class FailingClassifier(_PriorClassifier):
    """Fails in ``fit`` depending on its ``random_state``.

    Parameters
    ----------
    fail : "always", "never" or int, default="always"
        With an int ``m``, ``fit`` raises when ``random_state % m == 0``.
    random_state : int or None, default=None
        The seed that decides failure.
    """

    def __init__(self, fail="always", random_state=None):
        self.fail = fail
        self.random_state = random_state

    def fit(self, X, y):
        if self.fail == "always" or (
            not isinstance(self.fail, str)
            and self.random_state is not None
            and self.random_state % self.fail == 0
        ):
            raise ValueError(f"deliberate failure (random_state={self.random_state})")
        self._fit_prior(X, y)
        return self


class RecordingClassifier(_PriorClassifier):
    """Stores the training rows (column 0 of ``X`` holds row ids) and its seed.

    Parameters
    ----------
    random_state : int or None, default=None
        Recorded as ``seed_``.
    """

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        X, _ = self._fit_prior(X, y)
        self.train_ids_ = X[:, 0].astype(np.int64)
        self.seed_ = self.random_state
        self.sample_weight_ = sample_weight
        return self


def fingerprint_scorer(est, X, y):
    """Score that fingerprints the training rows, test rows and seed.

    Two fits get equal scores only if they trained on the same rows (ids in
    column 0 of ``X``, order-insensitive multiset), were tested on the same
    rows and had the same ``random_state``.
    """
    est = est.steps[-1][1] if hasattr(est, "steps") else est  # a Pipeline's final step
    train = np.sort(est.train_ids_)
    test = np.sort(np.asarray(X)[:, 0].astype(np.int64))
    seed = -1 if est.seed_ is None else int(est.seed_)
    blob = train.tobytes() + b"|" + test.tobytes() + b"|" + str(seed).encode()
    return float(zlib.crc32(blob))


class SeedSensitiveRegressor(RegressorMixin, BaseEstimator):
    """Predicts the training mean plus an offset drawn from ``random_state``.

    Parameters
    ----------
    noise : float, default=1.0
        Scale of the seed-dependent offset.
    random_state : int or None, default=None
        Seed of the offset.
    """

    def __init__(self, noise=1.0, random_state=None):
        self.noise = noise
        self.random_state = random_state

    def fit(self, X, y):
        X, y = validate_data(self, X, y)
        rng = np.random.default_rng(self.random_state)
        self.offset_ = self.noise * rng.standard_normal()
        self.mean_ = float(np.mean(y))
        return self

    def predict(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return np.full(X.shape[0], self.mean_ + self.offset_)


class SlowClassifier(_PriorClassifier):
    """Sleeps ``delay`` seconds in ``fit``.

    Parameters
    ----------
    delay : float, default=0.05
        Seconds to sleep.
    """

    def __init__(self, delay=0.05):
        self.delay = delay

    def fit(self, X, y):
        time.sleep(self.delay)
        self._fit_prior(X, y)
        return self
