"""The README's quickstart runs as written and prints what it promises."""

import contextlib
import io
import re
import warnings
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_quickstart_runs():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "README.md has no python block"
    out = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out):
        # accuracy scores on 30 repeats have ties: the TiesWarning is expected
        warnings.simplefilter("ignore")
        namespace = {}
        exec(compile(blocks[0], str(README), "exec"), namespace)
    printed = out.getvalue()
    assert "QuantileCI(q=[0.1, 0.5, 0.9]" in printed
    assert "Interval(estimate=" in printed
    assert (
        "P(Pipeline(StandardScaler, LogisticRegression) > RandomForestClassifier)"
        in printed
    )
    a, b = namespace["a"], namespace["b"]
    assert len(a) == len(b) == 30
    # same random_state: the two distributions are paired
    assert namespace["a"].compare(b).paired


def test_two_setup_commands():
    text = README.read_text(encoding="utf-8")
    bash = re.findall(r"## Set up\n(.*?)\n## ", text, re.S)[0]
    commands = re.findall(r"```bash\n(.*?)```", bash, re.S)
    assert [c.strip() for c in commands] == [
        "pip install . && skperf report",
        'pip install ".[test]" && python -m pytest -m "not slow" -p no:cacheprovider -q',
    ]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1].strip() in ci
