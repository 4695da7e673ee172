"""The built wheel carries schemas/ and rules/ as kubectl_wasdra/_data and works from there (no checkout needed): every
command of tools/check_dist.py's COMMANDS runs from it, in a directory holding only copies of the fixtures they read.
(tools/check_dist.py adds `python -m build`, `twine check` and a clean virtual environment; CI runs it.)"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import check_dist  # noqa: E402

pytestmark = pytest.mark.skipif(importlib.util.find_spec("wheel") is None, reason="the wheel package is not installed")

PROBE = """
import json, sys
from pathlib import Path
import kubectl_wasdra
from kubectl_wasdra.catalog.apis import api_table
from kubectl_wasdra.catalog.data import _read_compiled, data_path, read_data
from kubectl_wasdra.catalog.releases import SUPPORTED
from kubectl_wasdra.catalog.schemas import schema_set
rules = sorted(p.name for p in data_path("rules").iterdir() if p.is_file())
print(json.dumps({
    "package": kubectl_wasdra.__file__,
    "schemas": str(data_path("schemas")),
    "kinds": {str(r): len(schema_set(r).kinds) for r in SUPPORTED},
    "api_releases": len(api_table()),
    "rules": {name: len(read_data("rules/" + name)) for name in rules},
    "compiled": sorted(name for name in rules if _read_compiled("rules/" + name, read_data("rules/" + name))),
}))
"""


def test_wheel_contains_and_uses_the_data(tmp_path: Path) -> None:
    wheel_dir, site = tmp_path / "dist", tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(wheel_dir)], check=True, capture_output=True)
    (wheel,) = wheel_dir.glob("kubectl_wasdra-*.whl")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    env = dict(os.environ, PYTHONPATH=str(site))
    probe = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    data = json.loads(probe.stdout)
    assert data["package"].startswith(str(site))
    assert data["schemas"] == str(site / "kubectl_wasdra" / "_data" / "schemas")
    assert all(count > 80 for count in data["kinds"].values()) and data["api_releases"] == 5
    assert "api-versions.yaml" in data["rules"] and all(size > 0 for size in data["rules"].values())
    assert data["compiled"] == sorted(data["rules"])  # every data file is read through its fresh compiled twin
    work = tmp_path / "work"
    check_dist.copy_fixtures(work)
    assert check_dist.run_commands([sys.executable, "-m", "kubectl_wasdra"], work, env | {"NO_COLOR": "1"}) == []
