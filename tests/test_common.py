"""scikit-learn's common estimator checks on RepeatedEvaluator."""

from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.utils.estimator_checks import parametrize_with_checks

from skperf import RepeatedEvaluator

ESTIMATORS = [
    RepeatedEvaluator(LogisticRegression(), n_repeats=2, random_state=0),
    RepeatedEvaluator(Ridge(), n_repeats=2, random_state=0),
]


def _expected_failed_checks(estimator):
    return {
        # Every fit fails on X holding dicts; with error_score=nan the fit
        # errors are caught per fit and reported as one ValueError that quotes
        # the first error (the TypeError the check looks for), as
        # GridSearchCV reports "All the fits failed".
        "check_dtype_object": "fit errors are reported as one ValueError",
    }


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)
