"""Out-of-bootstrap cross-validators (Bouthillier et al. 2021, App. B).

STUB: minimal OutOfBootstrap; full implementation in progress.
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import check_random_state
from sklearn.utils.validation import _num_samples

__all__ = ["GroupOutOfBootstrap", "OutOfBootstrap", "StratifiedOutOfBootstrap"]


class OutOfBootstrap(BaseCrossValidator):
    """Out-of-bootstrap splits: train drawn with replacement, test out-of-bag."""

    def __init__(self, n_splits=10, *, train_size=None, test_size=None, random_state=None):
        self.n_splits = n_splits
        self.train_size = train_size
        self.test_size = test_size
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits

    def split(self, X, y=None, groups=None):
        n = _num_samples(X)
        rng = check_random_state(self.random_state)
        for _ in range(self.n_splits):
            train = rng.randint(0, n, size=n)
            test = np.setdiff1d(np.arange(n), train)
            yield train, test


class StratifiedOutOfBootstrap(OutOfBootstrap):
    """Stratified out-of-bootstrap splits (STUB)."""


class GroupOutOfBootstrap(OutOfBootstrap):
    """Group out-of-bootstrap splits (STUB)."""
