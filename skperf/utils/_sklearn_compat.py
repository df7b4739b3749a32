"""The one module importing scikit-learn private API.

Everything else in skperf imports these names from here, so a change in
scikit-learn's private modules is fixed in one place.
"""

from sklearn.base import _fit_context
from sklearn.model_selection._search import BaseSearchCV
from sklearn.utils._param_validation import HasMethods, StrOptions, validate_params
from sklearn.utils._param_validation import Interval as ParamInterval
from sklearn.utils.metaestimators import _safe_split
from sklearn.utils.validation import _check_method_params

__all__ = [
    "BaseSearchCV",
    "HasMethods",
    "ParamInterval",
    "StrOptions",
    "_check_method_params",
    "_fit_context",
    "_safe_split",
    "validate_params",
]
