"""Quickstart: the distribution of a model's score on a scikit-learn dataset."""

import numpy as np

from skperf import PerformanceDistribution

scores = PerformanceDistribution(
    np.random.default_rng(0).normal(0.9, 0.02, 25), metric="accuracy"
)
print(scores)
