"""Which class members the API reference documents.

A class page documents the members skperf defines -- on the class itself or
on a skperf base class (e.g. ``to_frame`` of the result objects) -- and
leaves out what is inherited from scikit-learn (``get_params``,
``get_metadata_routing``, ``set_*_request``, the methods of
``BaseSearchCV`` ...). scikit-learn documents those, and their docstrings
use ``:term:`` and ``:ref:`` targets of scikit-learn's glossary and user
guide that do not exist here (each would be a warning, so an error under
``-W``).

The same rule serves autodoc (the ``autodoc-skip-member`` event) and the
"Methods" table of the autosummary class template (``methods_table``,
passed as plain data through ``autosummary_context``).
"""

import importlib
import inspect


def _defining_module(obj):
    if isinstance(obj, property):
        obj = obj.fget
    obj = getattr(obj, "__func__", obj)  # classmethod / bound method
    return getattr(obj, "__module__", None) or ""


def is_own(obj):
    """Whether a class member comes from skperf (not scikit-learn, NumPy ...)."""
    return _defining_module(obj).startswith("skperf")


def skip_member(app, what, name, obj, skip, options):
    """``autodoc-skip-member`` handler: skip class members not from skperf."""
    if what in ("class", "exception") and (
        inspect.isroutine(obj) or isinstance(obj, property)
    ):
        if not is_own(obj):
            return True
    return None


def own_methods(cls):
    """The public method names that skperf defines on ``cls``, sorted."""
    out = []
    for name in dir(cls):
        if name.startswith("_"):
            continue
        attr = inspect.getattr_static(cls, name)
        if isinstance(attr, property):
            continue
        try:
            attr = getattr(cls, name)  # resolves available_if, classmethod
        except AttributeError:  # a delegated method that is not available
            pass
        if inspect.isroutine(getattr(attr, "__func__", attr)) or callable(attr):
            if is_own(attr):
                out.append(name)
    return sorted(out)


def methods_table(modules):
    """``{"module.ClassName": [method, ...]}`` for the classes in ``__all__``.

    Plain data (picklable, so Sphinx can cache the config), keyed by the
    ``module.objname`` that autosummary passes to the class template.
    """
    table = {}
    for modname in modules:
        module = importlib.import_module(modname)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isclass(obj):
                table[f"{modname}.{name}"] = own_methods(obj)
    return table
