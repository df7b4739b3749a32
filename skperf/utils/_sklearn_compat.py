"""The one module importing scikit-learn private API.

Everything else in skperf imports these names from here, so a change in
scikit-learn's private modules is fixed in one place.
"""

from sklearn.base import _fit_context
from sklearn.utils._param_validation import HasMethods, StrOptions, validate_params
from sklearn.utils._param_validation import Interval as ParamInterval

__all__ = ["HasMethods", "ParamInterval", "StrOptions", "_fit_context", "validate_params"]
