"""Scores produced anywhere: a long table to paired PerformanceDistributions.

One row per run (e.g. one seeded training run of a deep-learning model):
a model column, a pairing column (e.g. the seed) and a score column.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._distribution import FoldDesign, PerformanceDistribution

__all__ = ["from_frame"]


# ---------------------------------------------------------------------------
# a frame's repeated K-fold design (fold scores: from_frame, BenchmarkReport)
def _check_size(value, name, frame):
    """``n_train``/``n_test``: a positive int, or a column of positive sizes.

    Returns the per-row sizes as a float array.
    """
    if isinstance(value, str):
        if value not in frame.columns:
            raise ValueError(
                f"`{name}` must be a positive int (the {name[2:]} set size of "
                f"every split) or the name of a column of sizes; {value!r} is not "
                "a column."
            )
        import pandas as pd

        col = pd.to_numeric(frame[value], errors="coerce").to_numpy(dtype=float)
        bad = ~(np.isfinite(col) & (col > 0) & (col == np.round(col)))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"`{name}` column {value!r} must hold positive integer set sizes; "
                f"got {frame[value].iloc[i]!r} in row {_show(frame.index[i])}."
            )
        return col
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Integral)
        or int(value) < 1
    ):
        raise ValueError(
            f"`{name}` must be a positive int (the number of {name[2:]} rows of "
            f"each split, e.g. {'135' if name == 'n_train' else '15'} for 10-fold "
            f"CV on 150 rows) or a column name; got {value!r}."
        )
    return np.full(len(frame), float(value))


def _show(value):
    return repr(value.item() if hasattr(value, "item") else value)


def _fold_numbers(col, fold):
    """The fold column as integers; refused when a value is not a whole number."""
    import pandas as pd

    if col.isna().any():
        i = int(np.flatnonzero(col.isna().to_numpy())[0])
        raise ValueError(
            f"`fold` column {fold!r} has {int(col.isna().sum())} missing value(s), "
            f"first in row {_show(col.index[i])}."
        )
    values = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(values) | (values != np.round(values))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"`fold` column {fold!r} must hold fold numbers (integers 0..K-1 or "
            f"1..K); got {col.iloc[i]!r} in row {_show(col.index[i])}."
        )
    return values.astype(np.int64)


def _fold_design(frame, models, *, fold, repeat, n_train, n_test):
    """Check a repeated K-fold design; return ``(split, repeat, design)``.

    ``split[i]`` is the split id ``r K + k`` of row ``i`` (``r`` the repeat in
    sorted order, ``k`` the fold from 0), ``repeat[i]`` its repeat code.
    Every model must hold every fold of every repeat exactly once, and the
    same repeats as the other models.
    """
    import pandas as pd

    folds = _fold_numbers(frame[fold], fold)
    if repeat is None:
        rep_codes = np.zeros(len(frame), dtype=np.int64)
        rep_values = np.array([0])
    else:
        rcol = frame[repeat]
        if rcol.isna().any():
            raise ValueError(
                f"`repeat` column {repeat!r} has {int(rcol.isna().sum())} missing "
                "value(s)."
            )
        rep_codes, rep_values = pd.factorize(rcol, sort=True)
        rep_codes = rep_codes.astype(np.int64)
    base = int(folds.min())
    if base not in (0, 1):
        raise ValueError(
            f"`fold` column {fold!r}: fold numbers must start at 0 (or 1); the "
            f"smallest is {base}."
        )
    keys = pd.DataFrame({"m": models, "r": rep_codes, "f": folds})
    dup = keys.duplicated()
    if dup.any():
        i = int(np.flatnonzero(dup.to_numpy())[0])
        where = (
            "" if repeat is None else f"{repeat}={_show(rep_values[rep_codes[i]])}, "
        )
        raise ValueError(
            f"model {models[i]!r} has {where}{fold}={folds[i]} more than once (row "
            f"{_show(frame.index[i])}): each model needs one score per fold of each "
            "repeat"
            + (
                ""
                if repeat is not None
                else " (pass `repeat` if the rows come from several repeats)"
            )
            + "."
        )
    counts = keys.groupby(["m", "r"], sort=False)["f"].agg(["size", "min", "max"])
    K = int(counts["size"].max())
    top = base + K - 1
    if folds.max() > top:
        i = int(np.argmax(folds))
        raise ValueError(
            f"`fold` column {fold!r}: fold index {folds[i]} (row "
            f"{_show(frame.index[i])}) is out of range: with K = {K} folds per "
            f"repeat the folds are numbered {base}..{top}."
        )
    short = counts[counts["size"] < K]
    if len(short):
        (m, r), row = short.index[0], short.iloc[0]
        have = set(folds[(models == m) & (rep_codes == r)].tolist())
        missing = [k for k in range(base, top + 1) if k not in have]
        shown = ", ".join(map(str, missing[:5])) + (", ..." if len(missing) > 5 else "")
        where = "" if repeat is None else f", {repeat}={_show(rep_values[r])}"
        raise ValueError(
            f"`fold` column {fold!r}: model {m!r}{where} has {int(row['size'])} of "
            f"the K = {K} folds (missing {shown}): every repeat must hold the same "
            f"K folds, numbered {base}..{top} (repeats with different K, or rows "
            "dropped?)."
        )
    if K < 2:
        raise ValueError(
            f"`fold` column {fold!r} has 1 fold per repeat; a K-fold design needs "
            "K >= 2."
        )
    names = list(dict.fromkeys(models))
    ref = set(rep_codes[models == names[0]].tolist())
    for name in names[1:]:
        own = set(rep_codes[models == name].tolist())
        if own != ref:
            r, who = (
                (min(ref - own), f"{name!r} lacks")
                if ref - own
                else (min(own - ref), f"{names[0]!r} lacks")
            )
            raise ValueError(
                f"`repeat` column {repeat!r}: the models were not scored on the "
                f"same splits ({who} {repeat}={_show(rep_values[r])}); new-data "
                "comparisons pair the models split by split: give every model the "
                "same repeats, or drop `fold` for run-to-run answers."
            )
    tr = _check_size(n_train, "n_train", frame)
    te = _check_size(n_test, "n_test", frame)
    R = len(ref)
    # repeats numbered 0..R-1 among those present (all models share them)
    present = np.unique(rep_codes)
    rep_dense = np.searchsorted(present, rep_codes)
    split = rep_dense * K + (folds - base)
    design = FoldDesign(R, K, float(np.mean(tr)), float(np.mean(te)))
    return split, rep_dense, design


# ---------------------------------------------------------------------------
# the new-data answers


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


def _row(column, i):
    """The index label of position ``i`` (the CLI numbers data rows from 1)."""
    return _show(column.index[i])


def _numeric_scores(column, name):
    import pandas as pd

    values = pd.to_numeric(column, errors="coerce")
    bad = values.isna() & column.notna()
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(
            f"score column {name!r} is not numeric: {int(bad.sum())} value(s) are "
            f"not numbers, first {str(column.iloc[i])[:30]!r} in row {_row(column, i)}."
        )
    if values.isna().any():
        i = int(np.flatnonzero(values.isna().to_numpy())[0])
        raise ValueError(
            f"score column {name!r} has {int(values.isna().sum())} missing value(s), "
            f"first in row {_row(column, i)}; drop those runs first."
        )
    values = values.to_numpy(dtype=float)
    if not np.isfinite(values).all():
        i = int(np.flatnonzero(~np.isfinite(values))[0])
        raise ValueError(
            f"score column {name!r} has a non-finite value ({values[i]}) in row "
            f"{_row(column, i)}."
        )
    return values


#: column names that hold the model of each run (``by`` forgotten)
MODEL_COLUMNS = ("model", "models", "model_name", "estimator", "algorithm", "method")
#: column names that number the folds of a repeat (``repeat_by`` forgotten)
FOLD_COLUMNS = ("fold", "folds", "fold_index", "fold_id", "cv_fold", "split_index")
#: column names that identify a repeat (suggested for ``repeat_by``)
REPEAT_COLUMNS = ("repeat", "repeat_id", "repetition", "run", "run_id", "split_seed")


def _find(frame, names, exclude):
    lower = {str(c).lower(): c for c in frame.columns if c not in exclude}
    return next((lower[n] for n in names if n in lower), None)


def _model_names(col, by):
    """Model names as str; refuse two distinct values with one text (1 and "1")."""
    if col.isna().any():
        raise ValueError(
            f"`by` column {by!r} has {int(col.isna().sum())} missing model name(s)."
        )
    names = col.astype(str)
    seen = {}
    for value in dict.fromkeys(zip(col.map(type), col, strict=True)):
        text = str(value[1])
        if text in seen and seen[text] != value:
            raise ValueError(
                f"`by` column {by!r} holds two different model names that read "
                f"the same: {seen[text][1]!r} ({seen[text][0].__name__}) and "
                f"{value[1]!r} ({value[0].__name__}); make the column one type "
                "(e.g. frame[by].astype(str)) if they are one model."
            )
        seen[text] = value
    return names.to_numpy(dtype=object)


def _check_no_duplicates(frame, used):
    """Refuse rows repeated exactly when another column tells runs apart."""
    other = [c for c in frame.columns if c not in used and frame[c].nunique() > 1]
    if not other:
        # only scores (and models): equal scores are ties, not copies, but
        # the whole table repeated block by block is the same runs appended
        _check_not_appended(frame)
        return
    dup = frame.duplicated(keep=False).to_numpy()
    if not dup.any():
        return
    later = frame.duplicated(keep="first").to_numpy()
    j = int(np.flatnonzero(later)[0])
    row = frame.iloc[j]
    first = next(i for i in np.flatnonzero(dup) if i < j and frame.iloc[i].equals(row))
    raise ValueError(
        f"{int(later.sum())} row(s) repeat an earlier row exactly (row "
        f"{_show(frame.index[j])} repeats row {_show(frame.index[first])}): the "
        "same run counted twice would narrow every interval; drop the copies "
        "(frame.drop_duplicates())."
    )


def _check_not_appended(frame):
    """Refuse a table that is one block of rows repeated (runs appended twice).

    A score-only table cannot tell a copied run from a tie, but ``k >= 2``
    exact copies of a block of ``p >= 5`` rows that are not all equal, in the
    same order, are not ties: the same runs were appended again (issue 29,
    item 9). Checked for every ``p = n / k``.
    """
    n = len(frame)
    values = frame.to_numpy()
    for k in range(n // 5, 1, -1):
        if n % k:
            continue
        p = n // k
        if frame.iloc[:p].drop_duplicates().shape[0] < 2:
            continue  # one value repeated: ties
        if all((values[i * p : (i + 1) * p] == values[:p]).all() for i in range(1, k)):
            idx = frame.index
            raise ValueError(
                f"the {n} rows are {k} copies of the same {p} rows in the same order "
                f"(rows {_show(idx[0])}-{_show(idx[p - 1])} repeated from row "
                f"{_show(idx[p])} on): the same runs appended {k} times would narrow "
                "every interval and pass a gate on duplicated evidence; keep one "
                f"copy (frame.iloc[:{p}]), or add a column that tells the runs "
                "apart (e.g. the seed)."
            )


def _check_no_folds(frame, models, used):
    """Refuse fold rows (a ``fold`` column varying within a model) without ``repeat_by``."""
    fold = _find(frame, FOLD_COLUMNS, used)
    if fold is None:
        return
    values = frame[fold].to_numpy()
    for name in dict.fromkeys(models):
        k = len(set(values[models == name].tolist()))
        if k > 1:
            repeat = _find(frame, REPEAT_COLUMNS, (*used, fold))
            hint = (
                f"repeat_by={repeat!r}"
                if repeat is not None
                else "repeat_by=<the column naming the repeat>"
            )
            raise ValueError(
                f"column {fold!r} has {k} values for model {name!r}: pass {hint} "
                "to average the folds of each repeat into one run (folds share "
                "their training data: they are not independent runs), or drop the "
                "column if every row is an independent run."
            )


def _aggregate_repeats(frame, scores, models, repeat_by, pair_by):
    """One row per (model, repeat): the mean score of its folds.

    Returns the row positions kept (the first row of each repeat, for the
    pairing column) and the mean scores.
    """
    import pandas as pd

    col = _column(frame, repeat_by, "repeat_by")
    if col.isna().any():
        raise ValueError(
            f"`repeat_by` column {repeat_by!r} has {int(col.isna().sum())} missing "
            "value(s)."
        )
    keys = pd.DataFrame({"m": models, "r": col.to_numpy()})
    group = keys.groupby(["m", "r"], sort=False).ngroup().to_numpy()
    # ngroup(sort=False) numbers the groups in order of first appearance
    first = np.unique(group, return_index=True)[1]
    sums = np.bincount(group, weights=scores)
    counts = np.bincount(group)
    if pair_by is not None:
        pcol = frame[pair_by]
        codes = pd.factorize(pcol)[0]
        mixed = np.flatnonzero(codes != codes[first][group])
        if mixed.size:
            raise ValueError(
                f"`pair_by` column {pair_by!r} varies within a repeat (row "
                f"{_show(frame.index[mixed[0]])}); with repeat_by it must name the "
                f"pairing of whole repeats (one value per {repeat_by!r})."
            )
    return first, sums / counts


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
    repeat_by=None,
    fold=None,
    repeat=None,
    n_train=None,
    n_test=None,
):
    """Paired distributions from a long table of scores, one row per run.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per run (e.g. one seeded training run), or one row per fold
        of a repeated K-fold run with ``repeat_by``.
    score : str
        Column of the scores. A known metric name is checked as in
        :class:`PerformanceDistribution`: values outside its range are
        refused (accuracy in percent: divide by 100), and a loss name
        (``"log_loss"``, ``"mse"``, ``"loss"`` ...) needs
        ``greater_is_better=False``.
    by : str or None, default=None
        Column naming the model of each run; ``None``: all rows are one
        model, named after ``score`` (refused when a column named like
        ``"model"`` holds more than one value: pass it as ``by``).
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
    repeat_by : str or None, default=None
        Column naming the repeat of each row when the rows are the folds of
        repeated K-fold runs (e.g. ``"repeat"`` of
        :attr:`RepeatedEvaluator.results_`): the folds of one repeat share
        their training data, so they are averaged into one run per repeat
        (``pair_by``, if given, must then be constant within a repeat).
        Without it, a column named like ``"fold"`` that varies within a
        model is refused.
    fold : str or None, default=None
        Column numbering the fold of each row (``0..K-1`` or ``1..K``) in a
        K-fold cross-validation you ran yourself, repeated ``R`` times
        (``repeat``): a *fold design*. Each distribution then holds one
        score per split (``J = R K``, in order of repeat and fold), with
        ``groups`` the repeat and ``seeds={"split_id": ...}`` pairing the
        models split by split, and the target "new data" becomes
        available and the default: :meth:`PerformanceDistribution.compare`
        gives the corrected resampled paired t of
        :func:`~skperf.compare_generalization` on these splits,
        :func:`skperf.model_selection._folds.fold_ci` (and ``skperf summarize``) the
        interval of :func:`~skperf.generalization_ci`. Every model needs
        every fold of every repeat exactly once, the same repeats as the
        other models, and ``n_train``/``n_test``.
    repeat : str or None, default=None
        Column naming the repeat of each row; the same as ``repeat_by``
        (one of the two), and with ``fold`` the repeat of the design
        (``None``: one K-fold run).
    n_train, n_test : int, str or None, default=None
        With ``fold``: the training and test set sizes of the splits
        (positive ints, e.g. 135 and 15 for 10-fold CV on 150 rows), or
        columns holding each split's sizes (their means are used, as
        :func:`~skperf.generalization_ci` does when ``n`` is not a
        multiple of ``K``). Only ``n_test / n_train`` enters the tests
        (Nadeau & Bengio's correction); ``n_train`` is the training size
        the target refers to.

    Returns
    -------
    dict of str to PerformanceDistribution
        One per model, in order of first appearance.

    Raises
    ------
    ValueError
        A missing column, non-numeric or missing scores, scores outside the
        range of a known metric, a loss with ``greater_is_better=True``, a
        model with fewer than 2 runs, a duplicate pair key within a model,
        models whose pair keys differ, rows repeated exactly (when another
        column tells runs apart), fold rows without ``repeat_by``, several
        models in a ``model`` column without ``by``, or two model names that
        read the same (``1`` and ``"1"``). With ``fold``: a fold number that
        is not an integer or out of range, a missing fold, repeats with
        different numbers of folds, a split given twice, models scored on
        different repeats, ``n_train``/``n_test`` missing or not positive
        ints (or columns of them), or ``pair_by`` (the splits pair the
        models).

    See Also
    --------
    skperf.ModelSelectionReport.from_frame : The report from the same table.

    Notes
    -----
    Rows are named in errors by their index label (``skperf summarize``
    and ``skperf check`` number the data rows of the CSV from 1).

    Equal scores are ties, not copies, when the frame holds only the score
    (and model) columns; with any other column that varies (a seed, a
    timestamp), a row that repeats an earlier row in every column is the
    same run counted twice and is refused.

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

    Folds of repeated K-fold runs, one run per repeat:

    >>> folds = pd.DataFrame({
    ...     "repeat": [0, 0, 1, 1, 2, 2],
    ...     "fold": [0, 1, 0, 1, 0, 1],
    ...     "accuracy": [0.85, 0.95, 0.80, 0.90, 0.90, 0.92],
    ... })
    >>> d = from_frame(folds, score="accuracy", repeat_by="repeat")["accuracy"]
    >>> d.scores.round(3).tolist()
    [0.9, 0.85, 0.91]

    The same folds with their design: the target "new data" is the default.

    >>> two = pd.concat([folds.assign(model="a"),
    ...                  folds.assign(model="b", accuracy=folds.accuracy - 0.05)])
    >>> dists = from_frame(two, score="accuracy", by="model", fold="fold",
    ...                    repeat="repeat", n_train=90, n_test=10)
    >>> res = dists["a"].compare(dists["b"])
    >>> res.target, res.decision, round(res.estimate, 3)
    ('new data', 'better', 0.05)
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise TypeError(
            f"`frame` must be a pandas DataFrame; got {type(frame).__name__}."
        )
    if len(frame) == 0:
        raise ValueError("`frame` has no rows.")
    repeat_by = _one_repeat(repeat, repeat_by)
    if fold is None:
        given = [
            k for k, v in (("n_train", n_train), ("n_test", n_test)) if v is not None
        ]
        if given:
            raise ValueError(
                f"`{'` and `'.join(given)}` describe the splits of a fold design; "
                "pass fold=<the column numbering the folds> (and repeat=) with them."
            )
    else:
        missing = [
            k for k, v in (("n_train", n_train), ("n_test", n_test)) if v is None
        ]
        if missing:
            raise ValueError(
                f"fold={fold!r} needs the split sizes: pass `{'` and `'.join(missing)}` "
                "(positive ints, e.g. n_train=135, n_test=15 for 10-fold CV on 150 "
                "rows, or columns of sizes)."
            )
        if pair_by is not None:
            raise ValueError(
                f"with fold={fold!r} the splits (repeat, fold) pair the models; drop "
                f"pair_by={pair_by!r} (or pass it as repeat= if it names the repeat)."
            )
        if fold in (score, by, repeat_by):
            raise ValueError(
                f"`fold` column {fold!r} is also `score`, `by` or `repeat`."
            )
    scores = _numeric_scores(_column(frame, score, "score"), score)
    used = [score]
    if by is None:
        models = np.full(len(frame), str(score), dtype=object)
        other = _find(frame, MODEL_COLUMNS, (score, pair_by, repeat_by))
        if other is not None and frame[other].nunique() > 1:
            shown = ", ".join(map(_show, frame[other].unique()[:3]))
            more = ", ..." if frame[other].nunique() > 3 else ""
            raise ValueError(
                f"column {other!r} holds {frame[other].nunique()} models "
                f"({shown}{more}) but `by` is None, which pools their runs into "
                f"one distribution; pass by={other!r} (or select one model's rows)."
            )
    else:
        if by == score:
            raise ValueError(f"`by` and `score` name the same column {by!r}.")
        models = _model_names(_column(frame, by, "by"), by)
        used.append(by)
    if pair_by is not None:
        if pair_by in (score, by):
            raise ValueError(f"`pair_by` column {pair_by!r} is also `score` or `by`.")
        col = _column(frame, pair_by, "pair_by")
        if col.isna().any():
            raise ValueError(
                f"`pair_by` column {pair_by!r} has {int(col.isna().sum())} missing key(s)."
            )
        used.append(pair_by)
    if repeat_by is not None and repeat_by in (score, by):
        raise ValueError(f"`repeat_by` column {repeat_by!r} is also `score` or `by`.")
    if fold is not None:
        _column(frame, fold, "fold")
        if repeat_by is not None:
            _column(frame, repeat_by, "repeat")
        used += [fold] + ([repeat_by] if repeat_by is not None else [])
        used += [c for c in (n_train, n_test) if isinstance(c, str)]
        _check_no_duplicates(frame, used)
        return _fold_distributions(
            frame,
            scores,
            models,
            fold=fold,
            repeat=repeat_by,
            n_train=n_train,
            n_test=n_test,
            metric=score if metric is None else metric,
            greater_is_better=greater_is_better,
        )
    _check_no_duplicates(frame, used)
    if repeat_by is None:
        _check_no_folds(frame, models, used)
    else:
        first, scores = _aggregate_repeats(frame, scores, models, repeat_by, pair_by)
        frame, models = frame.iloc[first], models[first]
    keys = None
    if pair_by is not None:
        # integer codes of the keys in sorted order (the same for every model)
        codes, uniques = pd.factorize(frame[pair_by], sort=True)
        keys = codes.astype(np.int64)

    names = list(dict.fromkeys(models))
    out = {}
    first_keys, first_name = None, None
    for name in names:
        rows = np.flatnonzero(models == name)
        if rows.size < 2:
            what = "repeat" if repeat_by is not None else "run"
            raise ValueError(
                f"model {name!r} has {rows.size} {what}; at least 2 are needed for "
                "a distribution."
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


def _one_repeat(repeat, repeat_by):
    """``repeat`` and ``repeat_by`` name the same thing: at most one value."""
    if repeat is not None and repeat_by is not None and repeat != repeat_by:
        raise ValueError(
            f"`repeat` ({repeat!r}) and `repeat_by` ({repeat_by!r}) name the same "
            "column (the repeat of each row); pass one."
        )
    return repeat if repeat is not None else repeat_by


def _fold_distributions(
    frame, scores, models, *, fold, repeat, n_train, n_test, metric, greater_is_better
):
    """One distribution of per-split scores per model, with its fold design."""
    split, rep, design = _fold_design(
        frame, models, fold=fold, repeat=repeat, n_train=n_train, n_test=n_test
    )
    out = {}
    for name in dict.fromkeys(models):
        rows = np.flatnonzero(models == name)
        rows = rows[np.argsort(split[rows], kind="stable")]
        dist = PerformanceDistribution(
            scores[rows],
            metric=metric,
            greater_is_better=greater_is_better,
            name=name,
            groups=rep[rows],
            seeds={"split_id": split[rows]},
        )
        dist._fold_design = design
        out[name] = dist
    return out


def _per_repeat_frame(frame, *, score, by, repeat_by, pair_by=None, within=None):
    """The table with the folds of each repeat averaged: one row per (model, repeat).

    The rules of :func:`from_frame` with ``repeat_by`` (numeric scores, no
    copied rows, ``pair_by`` constant within a repeat), for callers that pass
    the table on (``skperf summarize`` to ``ModelSelectionReport.from_frame``).
    Columns: ``within``, ``by``, ``repeat_by``, ``pair_by`` (those given) and
    ``score``; ``within`` (e.g. the dataset column of a benchmark) separates
    repeats that share an id in different datasets.
    """
    scores = _numeric_scores(_column(frame, score, "score"), score)
    used = [score]
    if by is None:
        models = np.full(len(frame), str(score), dtype=object)
    else:
        models = _model_names(_column(frame, by, "by"), by)
        used.append(by)
    if pair_by is not None:
        _column(frame, pair_by, "pair_by")
        used.append(pair_by)
    if within is not None:
        col = _column(frame, within, "within").astype(str).to_numpy(dtype=object)
        models = np.array([f"{m}\x00{w}" for m, w in zip(models, col, strict=True)])
        used.append(within)
    _check_no_duplicates(frame, used)
    first, means = _aggregate_repeats(frame, scores, models, repeat_by, pair_by)
    columns = (within, by, repeat_by, pair_by)
    keep = list(dict.fromkeys(c for c in columns if c is not None))
    out = frame.iloc[first][keep].copy()
    out[score] = means
    return out
