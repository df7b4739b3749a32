"""scikit-learn's common estimator checks on RepeatedEvaluator."""

from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from skperf import RepeatedEvaluator

ESTIMATORS = [
    RepeatedEvaluator(LogisticRegression(), n_repeats=2, random_state=0),
    RepeatedEvaluator(Ridge(), n_repeats=2, random_state=0),
    RepeatedEvaluator(
        make_pipeline(StandardScaler(), GaussianNB()),
        cv=3,
        n_repeats=2,
        random_state=0,
    ),
]


# No expected failures: when every fit fails with one exception type (e.g. the
# TypeError of check_dtype_object), that type is re-raised.
@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible(estimator, check):
    check(estimator)
