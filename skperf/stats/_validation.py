"""Input validation shared by the statistics core (SciPy style ``_iv`` helpers).

Every message names the parameter, shows the value and says what is valid.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from ..exceptions import SmallSampleWarning, _external_stacklevel

__all__: list[str] = []


def _check_confidence(confidence, name="confidence"):
    """Return ``confidence`` as float in (0, 1) or raise a helpful error."""
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"`{name}` must be a float in (0, 1); got {confidence!r}.")
    c = float(confidence)
    if not 0 < c < 1:
        hint = ""
        if 1 < c < 100:
            hint = f" Did you mean {c / 100:g}?"
        raise ValueError(f"`{name}` must be in (0, 1); got {confidence!r}.{hint}")
    return c


def _check_rope(rope, *, metric=None, metric_range=None):
    """``rope`` as a float >= 0 (``None`` gives 0.0), smaller than the metric's range.

    The one check of ``rope`` (the half-width of a region of practical
    equivalence) in skperf. With the metric's range ``(low, high)`` (from
    the metric table: :func:`skperf.metrics._registry._check_rope_for`), a
    rope as wide as the range or wider is refused: every difference of two
    scores lies in ``[-(high - low), high - low]``, so such a rope calls any
    two models practically equivalent (``rope=1`` on accuracy, meant as
    1 %, is the whole range). Like ``confidence=95``, a percent is caught.
    """
    if rope is None:
        return 0.0
    if isinstance(rope, bool) or not isinstance(rope, numbers.Real):
        raise TypeError(
            "`rope` must be None or a non-negative float in the metric's units; "
            f"got {rope!r}."
        )
    r = float(rope)
    if not (math.isfinite(r) and r >= 0):
        raise ValueError(
            "`rope` must be None or a non-negative float in the metric's units; "
            f"got {rope!r}."
        )
    if metric_range is not None:
        low, high = (float(v) for v in metric_range)
        width = high - low
        if math.isfinite(width) and width > 0 and r >= width:
            whole = "the whole" if r == width else "wider than the whole"
            name = metric if metric else "the metric"
            hint = ""
            if width == 1 and 1 <= r < 100:
                hint = f" (did you mean rope={r / 100:g}, i.e. {r:g} %?)"
            raise ValueError(
                f"rope={rope!r} is {whole} range of {name} [{low:g}, {high:g}]; a "
                "region of practical equivalence is a small difference such as "
                f"{width / 100:g}{hint}."
            )
    return r


def _check_q(q, name="q"):
    """Return ``q`` as float array (0-d for a scalar) in (0, 1)."""
    try:
        arr = np.asarray(q, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"`{name}` must be a float or array of floats in (0, 1); got {q!r}."
        ) from None
    if arr.ndim > 1:
        raise ValueError(f"`{name}` must be a scalar or 1-D; got shape {arr.shape}.")
    bad = ~((arr > 0) & (arr < 1))
    if np.any(bad):
        vals = np.atleast_1d(arr)[np.atleast_1d(bad)].tolist()
        hint = ""
        if all(1 < v < 100 and v == round(v) for v in vals):  # percent given
            hint = " Did you mean " + ", ".join(f"{v / 100:g}" for v in vals) + "?"
        raise ValueError(
            f"`{name}` must be in (0, 1) (exclusive); got {q!r} "
            f"(invalid: {vals}).{hint}"
        )
    return arr


def _check_sample(x, *, axis=-1, min_n=2, name="x"):
    """Float array with the working axis last; finite, at least ``min_n`` long."""
    arr = np.asarray(x)
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.bool_)
    ):
        try:
            arr = np.asarray(x, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(
                f"`{name}` must be numeric; got an array of dtype {arr.dtype}."
            ) from None
    if np.iscomplexobj(arr):
        raise TypeError(f"`{name}` must be real-valued; got complex values.")
    arr = np.asarray(arr, dtype=float)
    if arr.ndim == 0:
        raise ValueError(f"`{name}` must have at least {min_n} values; got a scalar.")
    arr = np.moveaxis(arr, axis, -1)
    n = arr.shape[-1]
    if n < min_n:
        raise ValueError(f"`{name}` must have at least {min_n} values; got {n}.")
    finite = np.isfinite(arr)
    if not finite.all():
        bad = np.argwhere(~finite)
        where = ", ".join(
            str(tuple(int(i) for i in b)) if len(b) > 1 else str(int(b[0]))
            for b in bad[:5]
        )
        more = " ..." if len(bad) > 5 else ""
        n_nan = int(np.isnan(arr).sum())
        n_inf = int(np.isinf(arr).sum())
        raise ValueError(
            f"`{name}` must be finite; found {n_nan} NaN and {n_inf} infinite "
            f"value(s) at index {where}{more}. Remove or impute them explicitly; "
            "skperf never drops values silently."
        )
    return arr


def _check_n_boot(n_boot, auto="auto"):
    """Return ``n_boot`` as a positive int, or ``auto`` for ``"auto"``; raise naming it.

    The one check of ``n_boot`` in skperf. ``"auto"`` (skperf's one default
    for ``n_boot``) is returned as ``auto``: left as ``"auto"`` it is
    resolved against the confidence level by :func:`_resolve_n_boot` where
    the resampling runs; a caller with a fixed count for ``"auto"`` passes
    it (the benchmark report's 2000).
    """
    if isinstance(n_boot, str):
        if n_boot == "auto":
            return auto
        raise ValueError(f"`n_boot` must be a positive int or 'auto'; got {n_boot!r}.")
    if isinstance(n_boot, bool) or not isinstance(n_boot, numbers.Integral):
        raise TypeError(f"`n_boot` must be a positive int or 'auto'; got {n_boot!r}.")
    n_boot = int(n_boot)
    if n_boot < 1:
        raise ValueError(f"`n_boot` must be a positive int or 'auto'; got {n_boot}.")
    return n_boot


#: Davidson & MacKinnon's rule as used by Rosen: at least this many resamples
#: in each tail of the bootstrap distribution.
_TAIL_MIN = 10
#: Rosen: never fewer resamples than this.
_N_BOOT_MIN = 51


def _n_boot_for(confidence, n_boot="auto"):
    """Number of resamples for ``confidence``, and a warning text if too few.

    ``"auto"`` gives ``B = ceil(20 / alpha) - 1`` (at least 51), the smallest
    ``B`` with ``(B + 1) * alpha / 2 >= 10`` resamples in each tail
    (Davidson & MacKinnon's rule, as used by Rosen): 399 at 95 %, 199 at
    90 %, 1999 at 99 %, where ``(B + 1) * alpha / 2`` is also an integer. An explicit ``n_boot``
    is kept as given (never a silent change of level); if it leaves fewer
    than 10 resamples in a tail, the returned message says so.

    Returns
    -------
    n_boot : int
    message : str or None
    """
    alpha = 1 - confidence
    n_boot = _check_n_boot(n_boot)
    auto = max(math.ceil(round(2 * _TAIL_MIN / alpha, 9)) - 1, _N_BOOT_MIN)
    if n_boot == "auto":
        return auto, None
    tail = (n_boot + 1) * alpha / 2
    if tail < _TAIL_MIN - 1e-9:  # (199 + 1) * 0.1 / 2 is 9.999999999999998
        return n_boot, (
            f"n_boot={n_boot} leaves about {tail:.1f} resamples in each tail at "
            f"confidence={confidence:g}; the interval bounds are unstable. Use "
            f"n_boot >= {auto} (or n_boot='auto') for this level."
        )
    return n_boot, None


def _resolve_n_boot(confidence, n_boot):
    """``n_boot`` as an int for ``confidence``; warns when too few in a tail.

    ``"auto"`` gives the smallest count with 10 resamples in each tail (399
    at 95 %); an explicit count is kept and a ``SmallSampleWarning`` (pointed
    at the user's line by the frame walker, whatever path led here) says
    when it is too small. The one place that resolves and warns about
    ``n_boot``.
    """
    n_boot, msg = _n_boot_for(confidence, n_boot)
    if msg:
        warnings.warn(msg, SmallSampleWarning, stacklevel=_external_stacklevel())
    return n_boot


def _check_method(method, options, name="method"):
    """Return ``method`` if it is one of ``options``."""
    if not isinstance(method, str) or method not in options:
        raise ValueError(f"`{name}` must be one of {sorted(options)}; got {method!r}.")
    return method


def _check_rng(random_state):
    """A ``numpy.random.Generator`` from None, int, SeedSequence, RandomState or Generator."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        # derive a Generator from the legacy state, advancing it
        return np.random.default_rng(
            random_state.randint(0, 2**32 - 1, dtype=np.uint64)
        )
    if random_state is None or isinstance(
        random_state, numbers.Integral | np.random.SeedSequence
    ):
        if isinstance(random_state, numbers.Integral) and random_state < 0:
            raise ValueError(
                f"`random_state` must be None, a non-negative int or a Generator; "
                f"got {random_state}."
            )
        return np.random.default_rng(random_state)
    raise TypeError(
        "`random_state` must be None, an int, a numpy SeedSequence, RandomState "
        f"or Generator; got {random_state!r}."
    )


def _check_test_train_ratio(test_train_ratio):
    """``n_test / n_train`` of the splits, as a positive finite float.

    The ratio that Nadeau & Bengio's corrected resampled t adds to ``1/J``
    (``1 / (K - 1)`` for K-fold). ``None`` passes through (the caller
    decides whether the design is required).
    """
    if test_train_ratio is None:
        return None
    if (
        not isinstance(test_train_ratio, numbers.Real)
        or isinstance(test_train_ratio, bool)
        or not 0 < test_train_ratio < np.inf
    ):
        raise ValueError(
            "`test_train_ratio` must be a positive finite number (n_test / n_train "
            f"of the splits; 1 / (K - 1) for K-fold); got {test_train_ratio!r}."
        )
    return float(test_train_ratio)


def _check_budget(max_fits=None, precision=None, time_budget=None, min_fits=1):
    """Validate the budget and stopping keywords of the fitting entry points.

    ``max_fits``: None or an int >= ``min_fits`` (the fits of one round);
    ``precision``: None or a positive number (metric units, a half-width);
    ``time_budget``: None or a positive number of seconds. Returns them.
    """
    if max_fits is not None and (
        isinstance(max_fits, bool)
        or not isinstance(max_fits, numbers.Integral)
        or max_fits < min_fits
    ):
        raise ValueError(
            f"`max_fits` must be None or an int >= {min_fits} (one round of the "
            f"design); got {max_fits!r}."
        )
    for name, value in (("precision", precision), ("time_budget", time_budget)):
        if value is None:
            continue
        if (
            isinstance(value, bool)
            or not isinstance(value, numbers.Real)
            or not np.isfinite(value)
            or value <= 0
        ):
            unit = "metric units" if name == "precision" else "seconds"
            raise ValueError(
                f"`{name}` must be None or a positive number ({unit}); got {value!r}."
            )
    return (
        None if max_fits is None else int(max_fits),
        None if precision is None else float(precision),
        None if time_budget is None else float(time_budget),
    )


#: The targets of a report's decisions (see the "On new data" user guide).
TARGETS = ("new data", "this dataset")


def _check_target(target):
    if target not in TARGETS:
        raise ValueError(
            f"`target` must be one of {TARGETS}; got {target!r}. 'new data' decides "
            "about the algorithms trained on about n rows from the same population "
            "(corrected paired t over all pairs); 'this dataset' about the "
            "distribution of scores over repeats on this dataset."
        )
    return target
