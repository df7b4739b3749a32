"""Scores produced anywhere: a long table to paired PerformanceDistributions.

One row per run (e.g. one seeded training run of a deep-learning model):
a model column, a pairing column (e.g. the seed) and a score column.
"""

from __future__ import annotations

import numpy as np

from ._distribution import PerformanceDistribution

__all__ = ["from_frame"]


def _column(frame, name, what):
    if not isinstance(name, str):
        raise TypeError(f"`{what}` must be a column name (str); got {name!r}.")
    if name not in frame.columns:
        cols = ", ".join(map(str, list(frame.columns)[:20]))
        more = " ..." if frame.shape[1] > 20 else ""
        raise ValueError(
            f"`{what}` column {name!r} not found; columns are: {cols}{more}."
        )
    return frame[name]


def _numeric_scores(column, name):
    import pandas as pd

    values = pd.to_numeric(column, errors="coerce")
    bad = values.isna() & column.notna()
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(
            f"score column {name!r} is not numeric: {int(bad.sum())} value(s) are "
            f"not numbers, first {str(column.iloc[i])[:30]!r} in row {i}."
        )
    if values.isna().any():
        i = int(np.flatnonzero(values.isna().to_numpy())[0])
        raise ValueError(
            f"score column {name!r} has {int(values.isna().sum())} missing value(s), "
            f"first in row {i}; drop those runs first."
        )
    values = values.to_numpy(dtype=float)
    if not np.isfinite(values).all():
        i = int(np.flatnonzero(~np.isfinite(values))[0])
        raise ValueError(
            f"score column {name!r} has a non-finite value ({values[i]}) in row {i}."
        )
    return values


def _show(value):
    """``repr`` of a key, numpy scalars shown as plain Python values."""
    return repr(value.item() if hasattr(value, "item") else value)


def from_frame(
    frame,
    *,
    score,
    by=None,
    pair_by=None,
    greater_is_better=True,
    metric=None,
):
    """Paired distributions from a long table of scores, one row per run.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per run (e.g. one seeded training run).
    score : str
        Column of the scores.
    by : str or None, default=None
        Column naming the model of each run; ``None``: all rows are one
        model, named after ``score``.
    pair_by : str or None, default=None
        Column that pairs runs across models (e.g. the seed): every model
        must have each key exactly once, and the same set of keys. The
        distributions then carry ``seeds={"pair": ...}`` (keys in sorted
        order), so :meth:`PerformanceDistribution.compare` and
        :class:`~skperf.ModelSelectionReport` pair them.
    greater_is_better : bool, default=True
        Direction of the score.
    metric : str or None, default=None
        Metric name (default: ``score``).

    Returns
    -------
    dict of str to PerformanceDistribution
        One per model, in order of first appearance.

    Raises
    ------
    ValueError
        A missing column, non-numeric or missing scores, a model with fewer
        than 2 runs, a duplicate pair key within a model, or models whose
        pair keys differ.

    See Also
    --------
    skperf.ModelSelectionReport.from_frame : The report from the same table.

    Examples
    --------
    >>> import pandas as pd
    >>> from skperf import from_frame
    >>> df = pd.DataFrame({
    ...     "model": ["a", "a", "a", "b", "b", "b"],
    ...     "seed": [0, 1, 2, 2, 1, 0],
    ...     "accuracy": [0.90, 0.92, 0.91, 0.89, 0.93, 0.88],
    ... })
    >>> dists = from_frame(df, score="accuracy", by="model", pair_by="seed")
    >>> list(dists), dists["b"].scores.tolist()
    (['a', 'b'], [0.88, 0.93, 0.89])
    >>> dists["a"].compare(dists["b"], n_boot=500, random_state=0).paired
    True
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise TypeError(
            f"`frame` must be a pandas DataFrame; got {type(frame).__name__}."
        )
    if len(frame) == 0:
        raise ValueError("`frame` has no rows.")
    scores = _numeric_scores(_column(frame, score, "score"), score)
    if by is None:
        models = np.full(len(frame), str(score), dtype=object)
    else:
        if by == score:
            raise ValueError(f"`by` and `score` name the same column {by!r}.")
        col = _column(frame, by, "by")
        if col.isna().any():
            raise ValueError(
                f"`by` column {by!r} has {int(col.isna().sum())} missing model name(s)."
            )
        models = col.astype(str).to_numpy(dtype=object)
    keys = None
    if pair_by is not None:
        if pair_by in (score, by):
            raise ValueError(f"`pair_by` column {pair_by!r} is also `score` or `by`.")
        col = _column(frame, pair_by, "pair_by")
        if col.isna().any():
            raise ValueError(
                f"`pair_by` column {pair_by!r} has {int(col.isna().sum())} missing key(s)."
            )
        # integer codes of the keys in sorted order (the same for every model)
        codes, uniques = pd.factorize(col, sort=True)
        keys = codes.astype(np.int64)

    names = list(dict.fromkeys(models))
    out = {}
    first_keys, first_name = None, None
    for name in names:
        rows = np.flatnonzero(models == name)
        if rows.size < 2:
            raise ValueError(
                f"model {name!r} has {rows.size} run; at least 2 are needed for a "
                "distribution."
            )
        seeds = None
        if keys is not None:
            k = keys[rows]
            order = np.argsort(k, kind="stable")
            rows, k = rows[order], k[order]
            dup = k[1:] == k[:-1]
            if dup.any():
                key = uniques[k[1:][dup][0]]
                raise ValueError(
                    f"duplicate pair key: model {name!r} has {pair_by}={_show(key)} more "
                    f"than once; each model needs each {pair_by} at most once."
                )
            if first_keys is None:
                first_keys, first_name = k, name
            elif not np.array_equal(k, first_keys):
                missing = np.setdiff1d(first_keys, k)
                extra = np.setdiff1d(k, first_keys)
                which, other = (
                    (missing, f"{name!r} lacks")
                    if missing.size
                    else (extra, f"{first_name!r} lacks")
                )
                raise ValueError(
                    f"pair keys differ between models: {other} {pair_by}="
                    f"{_show(uniques[which[0]])} ({which.size} key(s) in all); give every "
                    f"model the same {pair_by} values, or drop pair_by."
                )
            seeds = {"pair": k}
        out[name] = PerformanceDistribution(
            scores[rows],
            metric=score if metric is None else metric,
            greater_is_better=greater_is_better,
            name=name,
            seeds=seeds,
        )
    return out
