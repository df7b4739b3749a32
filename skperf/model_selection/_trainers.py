"""Trainers outside scikit-learn: deep-learning frameworks and truthful seeding.

Three things, each small:

- :data:`FRAMEWORKS`, :func:`scan` and :func:`detect`: which deep-learning framework an
  estimator uses, found from the module names of the classes in its tree
  (the estimator, its sub-estimators and class-valued parameters such as
  skorch's ``module=MyModule``, and their MROs). Nothing is imported to find
  out: a class from ``torch.`` or ``skorch.`` can exist only when torch is
  installed, so torch is detected when it is used and never required.
- :func:`seed_framework`: seed one framework's global generators (torch:
  ``torch.manual_seed``, every device; TensorFlow / Keras:
  ``tf.random.set_seed``). numpy's and Python's global generators are
  seeded for every fit by :func:`skperf.model_selection._seeding._apply_seeds`.
- :func:`scan`: the frameworks and whether any code outside scikit-learn
  is in the tree, from which :func:`skperf.model_selection._vary._plan` tells how the init
  seed reaches the estimator before any fit (``init_kind``); "unknown"
  estimators are told about after their fits
  (:func:`skperf.model_selection._reproducible.check_run`).

This module imports nothing from skperf: :mod:`skperf.model_selection._seeding` and
:mod:`skperf.model_selection._vary` build on it.
"""

from __future__ import annotations

import inspect
import sys

import numpy as np

__all__ = ["FRAMEWORKS", "LOADED_AS", "detect", "scan", "seed_framework"]

# framework -> module-name prefixes of its classes (and of its sklearn wrappers)
FRAMEWORKS = {
    "torch": ("torch.", "skorch."),
    "tensorflow": ("tensorflow.", "keras.", "tf_keras.", "scikeras."),
}
# a framework already loaded in the worker is seeded too (its modules)
LOADED_AS = {"torch": ("torch",), "tensorflow": ("tensorflow", "keras")}

# classes of these packages are known: seeded through their parameters
_KNOWN = (
    "sklearn.",
    "skperf.",
    "numpy.",
    "scipy.",
    "builtins.",
    "abc.",
    "typing.",
    "collections.",
    "functools.",
)


def scan(estimator, params=None):
    """``(frameworks, outside)`` of the estimator's tree, in one pass.

    The tree: the estimator, the values of its deep parameters (``params``,
    its ``get_params(deep=True)`` when given), and every class in their MROs,
    class-valued parameters (skorch's ``module=MyModule``) included.
    ``frameworks``: a sorted tuple of the :data:`FRAMEWORKS` found;
    ``outside``: whether the tree holds code outside scikit-learn, skperf,
    numpy and scipy (a user's class or function, a third-party estimator).
    """
    objs = [estimator]
    if params is None and hasattr(estimator, "get_params"):
        if not isinstance(estimator, type):
            try:
                params = estimator.get_params(deep=True)
            except Exception:  # an unusual get_params: the estimator alone
                params = {}
    objs.extend((params or {}).values())
    found, outside, seen = set(), False, set()
    for obj in objs:
        if obj is None or isinstance(
            obj, str | bytes | int | float | bool | list | tuple | dict | np.ndarray
        ):
            continue
        if isinstance(obj, type):
            mro = obj.__mro__
        elif inspect.isfunction(obj) or inspect.ismethod(obj):
            mro = (obj,)
        else:
            mro = type(obj).__mro__
        for cls in mro:
            if id(cls) in seen:
                continue
            seen.add(id(cls))
            mod = (getattr(cls, "__module__", None) or "") + "."
            for name, prefixes in FRAMEWORKS.items():
                if mod.startswith(prefixes):
                    found.add(name)
            outside |= not mod.startswith(_KNOWN)
    return tuple(sorted(found)), outside


def detect(estimator):
    """Frameworks used by ``estimator`` (a sorted tuple, e.g. ``("torch",)``).

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skperf.model_selection._trainers import detect
    >>> detect(LogisticRegression())
    ()
    """
    return scan(estimator)[0]


def seed_framework(name, seed):
    """Seed the global generators of framework ``name`` with ``seed``.

    torch: ``torch.manual_seed`` (CPU and every CUDA device). TensorFlow /
    Keras: ``keras.utils.set_random_seed`` where Keras is loaded (Keras 3
    seeds its backend, TensorFlow, JAX or torch, with it), else
    ``tf.random.set_seed``.
    """
    if name == "torch":
        import torch

        torch.manual_seed(int(seed))
    elif name == "tensorflow":
        keras = sys.modules.get("keras")
        if keras is not None and hasattr(
            getattr(keras, "utils", None), "set_random_seed"
        ):
            keras.utils.set_random_seed(int(seed))
            return
        try:
            import tensorflow as tf
        except ImportError:  # Keras on another backend, not loaded yet
            return
        tf.random.set_seed(int(seed))
