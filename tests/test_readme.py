"""The README's quickstart runs as written and prints what it promises."""

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

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


ROOT = README.parent


def test_plots_are_part_of_the_default_install():
    # the README's main command (`pip install . && skperf report`) embeds the
    # report's plots only if matplotlib comes with `pip install .`
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    deps = [re.split(r"[<>=!~ ;\[]", d, maxsplit=1)[0] for d in project["dependencies"]]
    assert "matplotlib" in deps
    assert "plot" in project["optional-dependencies"]  # kept as an alias
    from skperf.report import _plot

    # the hint must work from a checkout too (`skperf[plot]` needs PyPI)
    assert _plot._INSTALL == "pip install matplotlib"


def _copy_checkout(dest):
    ignore = shutil.ignore_patterns(
        ".git", "_build", "__pycache__", "*.egg-info", "build", "dist", ".*cache"
    )
    shutil.copytree(ROOT, dest, ignore=ignore)
    return dest


@pytest.mark.slow
def test_main_command_on_a_fresh_machine(tmp_path):
    """`pip install . && skperf report` in a new venv writes a report with a plot."""
    checkout = _copy_checkout(tmp_path / "skperf")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MPLBACKEND")}
    env.update(PATH=f"{bindir}{os.pathsep}{env.get('PATH', '')}", VIRTUAL_ENV=str(venv))
    text = README.read_text(encoding="utf-8")
    setup = re.findall(r"## Set up\n(.*?)\n## ", text, re.S)[0]
    command = re.findall(r"```bash\n(.*?)```", setup, re.S)[0].strip()
    assert command == "pip install . && skperf report"
    res = subprocess.run(
        ["bash", "-c", command],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    html = (checkout / "report.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in html
    assert "Plots are not included" not in html
    assert "wrote report.html" in res.stdout
