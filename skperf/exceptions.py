"""Warning and error classes raised by skperf."""

__all__ = [
    "DependentObservationsWarning",
    "GroupsIgnoredWarning",
    "NoVariationWarning",
    "SmallSampleWarning",
    "TiesWarning",
    "UndefinedResamplesWarning",
]


class SmallSampleWarning(UserWarning):
    """The sample is too small for the requested or preferred method.

    Raised, for example, when ``method="auto"`` falls back to the bootstrap
    because no exact or asymptotic quantile interval exists for this ``n``,
    or when an explicit ``n_boot`` is too small for the confidence level.
    """


class TiesWarning(UserWarning):
    """The scores contain ties.

    The quantile intervals assume a continuous distribution; with ties the
    binomial coverage of order-statistic intervals is only approximate.
    """


class DependentObservationsWarning(UserWarning):
    """The scores are marked as dependent (``groups``).

    Intervals that assume independent observations are too narrow when
    observations within a group are correlated (e.g. the folds of one
    K-fold repeat).
    """


class NoVariationWarning(UserWarning):
    """A source of variation asked for in ``vary`` has no randomness."""


class UndefinedResamplesWarning(UserWarning):
    """Some bootstrap resamples gave an undefined metric value."""


class GroupsIgnoredWarning(UserWarning):
    """``groups`` were given, but the splitter does not use them.

    Rows of one group (e.g. one patient) then land in both the training and
    the test set, and the scores are optimistic. Use a group splitter
    (``GroupOutOfBootstrap``, ``GroupKFold``, ``GroupShuffleSplit`` ...).
    """
