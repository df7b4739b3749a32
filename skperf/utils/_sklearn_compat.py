"""The one module importing scikit-learn private API.

Everything else in skperf imports these names from here, so a change in
scikit-learn's private modules (or the private attributes of its scorer
objects) is fixed in one place.
"""

from sklearn.base import _fit_context
from sklearn.model_selection._search import BaseSearchCV
from sklearn.model_selection._split import GroupsConsumerMixin
from sklearn.utils import _safe_indexing
from sklearn.utils._param_validation import HasMethods, StrOptions, validate_params
from sklearn.utils._param_validation import Interval as ParamInterval
from sklearn.utils.metaestimators import _safe_split
from sklearn.utils.validation import _check_method_params, _num_samples

try:  # public since scikit-learn 1.6
    from sklearn.utils import get_tags
except ImportError:  # pragma: no cover - older scikit-learn
    from sklearn.utils._tags import get_tags

__all__ = [
    "BaseSearchCV",
    "GroupsConsumerMixin",
    "HasMethods",
    "ParamInterval",
    "StrOptions",
    "_check_method_params",
    "_fit_context",
    "_num_samples",
    "_safe_indexing",
    "_safe_split",
    "_scorer_parts",
    "_scorer_with_score_func",
    "get_tags",
    "validate_params",
]


def _scorer_parts(scorer):
    """Metric function, sign, keyword arguments and response methods of a scorer.

    Returns ``None`` for a callable that is not a scikit-learn ``_Scorer``
    (it has no ``_score_func``).

    Returns
    -------
    tuple (score_func, sign, kwargs, response_methods) or None
        ``response_methods`` is a tuple of method names in preference order.
    """
    func = getattr(scorer, "_score_func", None)
    if func is None:
        return None
    sign = float(getattr(scorer, "_sign", 1))
    kwargs = dict(getattr(scorer, "_kwargs", {}) or {})
    response = getattr(scorer, "_response_method", "predict")
    response = (response,) if isinstance(response, str) else tuple(response)
    return func, sign, kwargs, response


def _scorer_with_score_func(scorer, func):
    """A shallow copy of a scikit-learn scorer whose metric function is ``func``.

    Used to capture the predictions a scorer passes to its metric (the
    response method it chose) without re-implementing its dispatch.
    """
    import copy

    spy = copy.copy(scorer)
    spy._score_func = func
    return spy
