"""Reference data the tests need, shipped with the tests (``tests/_data``).

- ``aSAH.csv``: 113 patients with aneurysmal subarachnoid haemorrhage, the
  example data set of the R package pROC (Robin et al. 2011; data of Turck
  et al. 2010), on which pROC documents DeLong results: a real clinical data
  set for checking ROC AUC intervals against published numbers.
"""

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def shared_data(name):
    """Path of the reference data file ``name`` (in ``tests/_data``)."""
    return _HERE / name
