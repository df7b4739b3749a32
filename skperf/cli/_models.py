"""``--model`` specs and the models of ``skperf report``.

Models given with ``--model NAME=dotted.path.Estimator(key=value, ...)`` are
resolved with :func:`importlib.import_module` and :func:`getattr` only; their
keyword values are read with :func:`ast.literal_eval`. Nothing given on the
command line is ever evaluated as code.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re

from ._common import _CLIError, _first_line, _is_numeric, _missing_text

_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")


#: modules whose estimators depend on the scale of the features: the default
#: preprocessing standardizes numeric columns for them
_SCALE_SENSITIVE = (
    "sklearn.linear_model",
    "sklearn.svm",
    "sklearn.neighbors",
    "sklearn.neural_network",
    "sklearn.gaussian_process",
    "sklearn.kernel_ridge",
)


def _default_models(regression):
    from sklearn.ensemble import (
        GradientBoostingClassifier,
        GradientBoostingRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )
    from sklearn.linear_model import LogisticRegression, Ridge

    # sizes chosen so the default run stays around a minute on 2 cores; the
    # default preprocessing standardizes the numeric columns for every model
    # (the linear model needs it; the trees are unaffected)
    if regression:
        return {
            "ridge": Ridge(),
            "random_forest": RandomForestRegressor(n_estimators=50),
            "gradient_boosting": GradientBoostingRegressor(n_estimators=50),
        }
    return {
        "logistic_regression": LogisticRegression(max_iter=1000),
        "random_forest": RandomForestClassifier(n_estimators=50),
        "gradient_boosting": GradientBoostingClassifier(n_estimators=50),
    }


def _dotted(node):
    """``a.b.C`` from an ``ast`` Name/Attribute chain, or ``None``."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _import_class(path, where):
    if path is None or not _DOTTED.match(path):
        raise _CLIError(
            f"{where}: {path!r} is not a dotted path like "
            "sklearn.ensemble.RandomForestClassifier"
        )
    module_name, _, attr = path.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise _CLIError(
            f"{where}: unknown model path {path!r} (cannot import module "
            f"{module_name!r}: {_first_line(exc)})"
        ) from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise _CLIError(
            f"{where}: unknown model path {path!r} (module {module_name!r} "
            f"has no attribute {attr!r})"
        )
    if not inspect.isclass(cls) or not hasattr(cls, "fit"):
        raise _CLIError(f"{where}: {path!r} is not an estimator class with fit")
    return cls


def _build(node, where, text):
    """An estimator from a parsed ``dotted.Class`` or ``dotted.Class(k=v, ...)``."""
    if isinstance(node, ast.Call):
        path = _dotted(node.func)
        cls = _import_class(path, where)
        if node.args:
            raise _CLIError(
                f"{where}: {path}(...) takes keyword arguments only, "
                "e.g. max_depth=3; got a positional one"
            )
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise _CLIError(f"{where}: ** is not supported; name each argument")
            kwargs[kw.arg] = _value(kw.value, f"{where}: {kw.arg}", text)
    else:
        path = _dotted(node)
        if path is None:
            path = ast.get_source_segment(text, node) or text
        cls = _import_class(path, where)
        kwargs = {}
    try:
        est = cls(**kwargs)
    except Exception as exc:  # any constructor failure becomes one readable line
        how = "with these arguments" if kwargs else "without arguments"
        raise _CLIError(
            f"{where}: {path}() cannot be created {how}: {_first_line(exc)}"
        ) from None
    validate = getattr(est, "_validate_params", None)
    if callable(validate) and hasattr(
        est, "_parameter_constraints"
    ):  # scikit-learn checks parameter values in fit; do it now
        try:
            validate()
        except (TypeError, ValueError) as exc:
            raise _CLIError(f"{where}: {_first_line(exc)}") from None
    return est


def _value(node, where, text):
    """A keyword value: a Python literal, or a nested ``dotted.Class(...)``."""
    if isinstance(node, ast.Call):
        return _build(node, where, text)
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        shown = ast.get_source_segment(text, node) or "?"
        raise _CLIError(
            f"{where}={shown} is not a Python literal (quote text: "
            f"{where.rpartition(': ')[2]}='{shown}'; numbers, True, None, "
            "tuples, lists and dicts work)"
        ) from None


def _resolve_model(spec):
    """``NAME=dotted.Class[(k=v, ...) | :k=v,...]`` -> (name, instance).

    Parsed with :mod:`ast`; classes come from import and getattr, values from
    :func:`ast.literal_eval`; nothing is evaluated.
    """
    name, sep, text = spec.partition("=")
    name, text = name.strip(), text.strip()
    if not sep or not name or not text:
        raise _CLIError(
            f"--model must look like NAME=dotted.path.Estimator; got {spec!r}"
        )
    where = f"--model {name}"
    head = text.split("(", 1)[0]
    if ":" in head:  # dotted.Class:key=value,key=value
        path, _, kwargs = text.partition(":")
        text = f"{path.strip()}({kwargs})"
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        raise _CLIError(
            f"{where}: cannot read {text!r}; write NAME=dotted.Class or "
            "NAME=dotted.Class(key=value, ...)"
        ) from None
    return name, _build(node, where, text)


def _parse_models(specs):
    models = {}
    for spec in specs:
        name, est = _resolve_model(spec)
        if name in models:
            raise _CLIError(f"--model name {name!r} given twice")
        models[name] = est
    return models


def _kind(est):
    """``"classifier"``, ``"regressor"`` or ``None`` (scikit-learn's tags)."""
    from sklearn.base import is_classifier, is_regressor

    try:
        if is_classifier(est):
            return "classifier"
        if is_regressor(est):
            return "regressor"
    except AttributeError:  # not a scikit-learn estimator: it has no tags
        pass
    return None


def _check_models_fit_task(models, regression, task_text):
    """A classifier on a regression target (or the reverse) fails here, not in fit."""
    want, other = (
        ("regressor", "classifier") if regression else ("classifier", "regressor")
    )
    for name, est in models.items():
        if _kind(est) == other:
            flip = "classification" if regression else "regression"
            raise _CLIError(
                f"--model {name}: {type(est).__name__} is a {other}, but the data "
                f"has a {task_text.split(' (')[0]}; use a {want} or --task {flip}"
            )


def _default_scoring(models, regression):
    """The metric of the models' own ``score``: accuracy or R², else ``None``.

    Every model a classifier (``ClassifierMixin.score``: accuracy) or every
    one a regressor (``RegressorMixin.score``: R²), as the task requires.
    ``None`` (a model of unknown type) leaves it to
    :func:`skperf.compare_models`, which scores each model by its own
    ``score`` and refuses, before any fit, scores of different metrics.
    """
    want = "regressor" if regression else "classifier"
    if all(_kind(est) == want for est in models.values()):
        return "r2" if regression else "accuracy"
    return None


def _scale_sensitive(est):
    """Whether ``est``, or an estimator inside it, depends on the features' scale.

    Looks inside meta-estimators (a search's ``estimator``, a pipeline's
    steps, a bagging's base model ...) through ``get_params(deep=True)``:
    ``GridSearchCV(LogisticRegression())`` is scale-sensitive.
    """
    seen = [est]
    get_params = getattr(est, "get_params", None)
    if callable(get_params):
        try:
            seen += [v for v in get_params(deep=True).values() if hasattr(v, "fit")]
        except Exception:  # a broken get_params: judge the outer estimator only
            pass
    for e in seen:
        module = type(e).__module__
        if any(module == m or module.startswith(m + ".") for m in _SCALE_SENSITIVE):
            return True
    return False


def _preprocess(models, X):
    """Put one preprocessing, the same for every model, before each model.

    Text columns: one-hot encoded (categories unseen in training ignored);
    missing values: imputed (median; most frequent for text); numeric columns
    standardized when any model (or an estimator inside one, e.g. the
    estimator of a search) is scale-sensitive. Every model gets the same
    steps, so the comparison measures the models, not a preprocessing given
    to some of them (issue 29, item 3); standardizing changes nothing for
    tree models, whose splits follow the order of each feature's values.
    With nothing to do, the models stay as given.

    Returns
    -------
    models : dict
        The models behind the preprocessing.
    text : str or None
        What the preprocessing does, for every model (``None``: nothing).
    """
    from sklearn.base import clone
    from sklearn.compose import make_column_transformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    categorical = [c for c in X.columns if not _is_numeric(X[c])]
    numeric = [c for c in X.columns if c not in set(categorical)]
    num_missing = bool(X[numeric].isna().any().any()) if numeric else False
    cat_missing = bool(X[categorical].isna().any().any()) if categorical else False
    sensitive = [name for name, est in models.items() if _scale_sensitive(est)]
    scale = bool(sensitive) and bool(numeric)
    num_steps = [SimpleImputer(strategy="median")] if num_missing else []
    if scale:
        num_steps.append(StandardScaler())
    if not categorical:
        steps = num_steps
    else:
        onehot = OneHotEncoder(handle_unknown="ignore", sparse_output=False)
        cat = (
            make_pipeline(SimpleImputer(strategy="most_frequent"), onehot)
            if cat_missing
            else onehot
        )
        parts = [(cat, categorical)]
        if numeric:
            num = (
                "passthrough"
                if not num_steps
                else num_steps[0]
                if len(num_steps) == 1
                else make_pipeline(*num_steps)
            )
            parts.append((num, numeric))
        steps = [make_column_transformer(*parts)]
    if not steps:
        return dict(models), None
    out = {
        name: make_pipeline(*[clone(s) for s in steps], est)
        for name, est in models.items()
    }
    done = []
    if num_missing:
        done.append("missing numbers imputed (median)")
    if cat_missing:
        done.append("missing text imputed (most frequent)")
    if categorical:
        done.append("text columns one-hot encoded")
    if scale:
        done.append(
            f"numeric columns standardized (for {', '.join(sensitive)}; "
            "it changes nothing for tree models)"
        )
    return out, f"the same for every model: {'; '.join(done)}"


def _check_features(X, y, models):
    """With --no-preprocess: fail early, naming the problem, when a model
    cannot take missing values or non-numeric columns."""
    import numpy as np
    from sklearn.base import clone

    non_numeric = [str(c) for c in X.columns if not _is_numeric(X[c])]
    missing = _missing_text(X)
    if not non_numeric and missing is None:
        return
    rng = np.random.default_rng(0)
    rows = rng.permutation(len(X))[: min(len(X), 200)]
    Xs, ys = X.iloc[rows], y.iloc[rows]
    for name, est in models.items():
        try:
            clone(est).fit(Xs, ys)
        except (ValueError, TypeError) as exc:
            first = _first_line(exc)
            who = f"model {name!r} ({type(est).__name__})"
            if missing and re.search(r"\bNaN\b|missing", first):
                raise _CLIError(
                    f"{who} cannot take missing values: the data has {missing}; "
                    "drop --no-preprocess to impute them"
                ) from None
            shown = ", ".join(non_numeric[:5]) + (
                " ..." if len(non_numeric) > 5 else ""
            )
            raise _CLIError(
                f"{who} cannot take the non-numeric feature column(s) {shown} "
                f"({first}); drop --no-preprocess to one-hot encode them"
            ) from None
