"""A throw-away repository holding a 1.37 gang manifest that needs gates and runtime config, as the working directory."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GANG = ROOT / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = tmp_path / "repo"
    (work / ".git").mkdir(parents=True)
    (work / "deploy").mkdir()
    shutil.copy(GANG, work / "deploy" / "train.yaml")
    monkeypatch.chdir(work)
    for name in ("WASDRA_CONFIG", "WASDRA_CLUSTER", "WASDRA_CONFIG_CLUSTER", "WASDRA_PROFILE", "WASDRA_K8S_VERSION"):
        monkeypatch.delenv(name, raising=False)
    return work
