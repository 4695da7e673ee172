"""`--version` and `--help` answered without click (kubectl_wasdra/entry.py) print exactly what click prints, and the
precomputed help (kubectl_wasdra/help_text.py, written by tools/gen_help_text.py) is fresh."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("gen_help_text", ROOT / "tools" / "gen_help_text.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_precomputed_help_is_fresh() -> None:
    """Fails after a change to the top-level help or the command list: rerun `python tools/gen_help_text.py`."""
    assert (ROOT / "kubectl_wasdra" / "help_text.py").read_text() == _generator().module_text()


def _run(entry: str, flag: str, columns: int, kubectl: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "KUBECTL_PATH"} | {"COLUMNS": str(columns)}
    if kubectl:
        env["KUBECTL_PATH"] = "/usr/local/bin/kubectl"
    script = f"from kubectl_wasdra.{entry} import main; main()"
    return subprocess.run([sys.executable, "-c", script, flag], capture_output=True, text=True, env=env, check=False)


@pytest.mark.parametrize("flag", ["--version", "--help", "-h"])
@pytest.mark.parametrize("columns", [80, 200, 90])
@pytest.mark.parametrize("kubectl", [False, True])
def test_the_quick_answer_is_what_click_prints(flag: str, columns: int, kubectl: bool) -> None:
    quick, full = _run("entry", flag, columns, kubectl), _run("cli", flag, columns, kubectl)
    assert (quick.returncode, quick.stdout, quick.stderr) == (0, full.stdout, "")
    assert full.returncode == 0 and full.stdout.startswith(("Usage: kubectl", "kubectl"))


def test_version_and_help_do_not_import_click() -> None:
    script = ("import sys\nfrom kubectl_wasdra.entry import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n"
              "    pass\nprint('click' in sys.modules, 'kubectl_wasdra.cli' in sys.modules, file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False,
                            env={k: v for k, v in os.environ.items() if k != "COLUMNS"} | {"COLUMNS": "80"})
    assert result.stderr.split() == ["False", "False"]
