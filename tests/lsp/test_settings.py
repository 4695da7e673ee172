"""Client settings reach the checks as `check`'s flags would: several releases, feature gates, a cluster snapshot."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kubectl_wasdra.lint.pipeline import run_check
from kubectl_wasdra.lsp.analysis import Analysis
from kubectl_wasdra.lsp.settings import check_arguments, resolve_settings
from kubectl_wasdra.lsp.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent.parent
LINT = ROOT / "fixtures" / "lint"
CASES = [
    ({"k8sVersion": "1.35,1.37"}, LINT / "API001" / "bad.yaml"),
    ({"k8sVersion": "1.36", "featureGates": {"DRAPrioritizedList": False}}, LINT / "GATE003" / "bad.yaml"),
    ({"snapshot": [str(ROOT / "fixtures" / "clusters" / "two-racks")]}, LINT / "REF010" / "bad.yaml"),
    ({"snapshot": [str(ROOT / "fixtures" / "clusters" / "two-racks")]}, LINT / "FIT001" / "bad.yaml"),
    ({"select": ["REF"], "ignore": ["REF003"]}, ROOT / "fixtures" / "lint" / "REF001" / "bad.yaml"),
]


def test_settings_become_check_flags() -> None:
    args = check_arguments({"k8sVersion": "1.36", "featureGates": {"A": True, "B": False}, "snapshot": ["c/"],
                            "select": ["REF", "GANG"], "unknown": 1}, None)
    assert args == ["--no-config", "--k8s-version", "1.36", "--feature-gates", "A=true,B=false", "--select", "REF",
                    "--select", "GANG", "--snapshot", "c/"]


@pytest.mark.parametrize(("client", "path"), CASES, ids=lambda v: v.parent.name if isinstance(v, Path) else None)
def test_findings_with_client_settings_equal_checks(client: dict, path: Path) -> None:
    settings = resolve_settings(None, client, use_config=False)
    workspace = Workspace(None)
    workspace.open(str(path), path.read_text(encoding="utf-8"))
    got = Analysis(settings, workspace).run().get(str(path), [])
    want = run_check(dataclasses.replace(settings.options, paths=(str(path),))).findings
    assert got and [(f.rule, f.line, f.column, f.message) for f in got] == \
        [(f.rule, f.line, f.column, f.message) for f in want]


@pytest.mark.parametrize("client", [{"k8sVersion": "1.99"}, {"featureGates": "NoSuchGate=true"}, {"profile": "fast"}],
                         ids=["release", "gate", "profile"])
def test_a_bad_setting_is_one_line_and_the_defaults_apply(client: dict, tmp_path: Path) -> None:
    from kubectl_wasdra.lsp.projects import Project

    (tmp_path / ".git").mkdir()
    project = Project(str(tmp_path), client)
    assert project.error is not None and "\n" not in project.error and project.error.startswith("kubectl-wasdra: ")
    assert project.settings.options.releases == resolve_settings(None, {}, use_config=False).options.releases


def test_a_bad_config_file_is_reported_with_its_place(tmp_path: Path) -> None:
    from kubectl_wasdra.lsp.projects import Project

    (tmp_path / ".git").mkdir()
    (tmp_path / ".wasdra.yaml").write_text("k8sVersion: '1.37'\nfeatureGates: {Nope: true}\n")
    project = Project(str(tmp_path), {})
    assert project.error is not None and ".wasdra.yaml:2" in project.error
