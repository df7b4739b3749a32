"""Warning and error classes raised by skperf."""

import os
import sys

__all__ = [
    "DependentObservationsWarning",
    "GroupsIgnoredWarning",
    "NoVariationWarning",
    "NotReproducibleWarning",
    "SmallSampleWarning",
    "TiesWarning",
    "UndefinedResamplesWarning",
]

# the package folder (this file sits at its top), for the frame walker below
_SKPERF_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


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


class NotReproducibleWarning(UserWarning):
    """The estimator's scores change under the same seeds: its init is not seeded.

    Raised after the fits when fits with the same seeds and split gave
    different scores, or when an estimator with no seed parameter, no
    ``seeder`` and no generator that skperf seeds still gave different scores
    on the same split. Its scores then differ from run to run under the same
    ``random_state``, and the cache does not keep its fits. Pass
    ``seeder=`` (see :ref:`deep_learning`) or give the estimator a seed
    parameter.
    """


class UndefinedResamplesWarning(UserWarning):
    """Some bootstrap resamples gave an undefined metric value."""


class GroupsIgnoredWarning(UserWarning):
    """``groups`` were given, but the splitter does not use them.

    Rows of one group (e.g. one patient) then land in both the training and
    the test set, and the scores are optimistic. Use a group splitter
    (``GroupOutOfBootstrap``, ``GroupKFold``, ``GroupShuffleSplit`` ...).
    """


def _external_stacklevel():
    """``stacklevel`` for a ``warnings.warn`` made by the calling function.

    Counts the frames from the caller up to the first one outside skperf and
    scikit-learn (whose ``_fit_context`` wraps ``fit``), so the warning names
    the user's file and line whatever path (a ``skperf.stats`` function,
    ``fit``, ``repeated_cross_val_score``, ``compare_models`` ...) led to it.
    The one warning mechanism of skperf: ``warnings.warn(msg, Category,
    stacklevel=_external_stacklevel())``. It lives here, beside the warning
    classes, so that the pure ``skperf.stats`` layer can use it without
    importing scikit-learn or the package root.
    """
    dirs = [_SKPERF_DIR]
    sklearn = sys.modules.get("sklearn")  # never imported here: only if loaded
    if sklearn is not None and getattr(sklearn, "__file__", None):
        dirs.append(os.path.dirname(os.path.abspath(sklearn.__file__)) + os.sep)
    dirs = tuple(dirs)
    frame = sys._getframe(1)  # the function that calls warnings.warn
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(
        dirs
    ):
        frame = frame.f_back
        level += 1
    return level
