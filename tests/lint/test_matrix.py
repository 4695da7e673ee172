"""Multi-release matrix and --upgrade-from report on real files through the real check pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.cli import cli, main
from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.lint.matrix import build_matrix, matrix_as_dict, render_matrix_text, run_upgrade, upgrade_output
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

R135, R136, R137 = Release(1, 35), Release(1, 36), Release(1, 37)

MANIFESTS = """\
apiVersion: v1
kind: Pod
metadata:
  name: worker-0
spec:
  workloadRef:
    name: train
    podGroup: workers
  containers:
  - name: w
    image: trainer:1
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: shared-gpu
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        capacity:
          requests:
            memory: 8Gi
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com"
"""


@pytest.fixture
def manifests(tmp_path: Path) -> str:
    path = tmp_path / "train.yaml"
    path.write_text(MANIFESTS)
    return str(path)


def test_matrix_per_release(manifests: str) -> None:
    report = run_check(CheckOptions(paths=(manifests,), releases=(R135, R136, R137)))
    matrix = build_matrix(report)
    accepted = {row.label: [row.accepted(r) for r in matrix.releases] for row in matrix.rows}
    assert accepted["Pod worker-0"] == [False, False, False]          # gate off in 1.35, unknown field later
    assert accepted["ResourceClaim shared-gpu"] == [False, True, True]   # DRAConsumableCapacity alpha in 1.35
    assert accepted["DeviceClass gpu.example.com"] == [True, True, True]
    claim = next(row for row in matrix.rows if row.label == "ResourceClaim shared-gpu")
    assert [(f.rule, f.line, f.column) for f in claim.blocking[R135]] == [("GATE001", 23, 9)]
    text = render_matrix_text(matrix)
    assert "What to change per release:" in text and "1.35  GATE001 spec.devices.requests[0].exactly.capacity" in text
    assert matrix_as_dict(matrix)["documents"][2]["accepted"] == {"1.35": True, "1.36": True, "1.37": True}


def test_upgrade_reports_rename_gate_default_and_skew(manifests: str) -> None:
    report = run_upgrade(CheckOptions(paths=(manifests,), releases=(R137,)), R135)
    assert report.skipped == (R136,)
    changes = {(i.change, i.rule, i.path) for i in report.items}
    assert ("changes", "", "spec.workloadRef") in changes                    # renamed to spec.schedulingGroup in 1.36
    assert ("fixed", "GATE001", "spec.devices.requests[0].exactly.capacity") in changes
    assert ("breaks", "SCHEMA002", "spec.workloadRef") in changes
    assert report.breaks
    text, code = upgrade_output(CheckOptions(paths=(manifests,), releases=(R137,)), "1.35", "text")
    assert code == 1 and "cannot be skipped" in text and "1.35 -> 1.36 -> 1.37" in text


def test_upgrade_one_minor_no_skew_warning(manifests: str) -> None:
    text, _ = upgrade_output(CheckOptions(paths=(manifests,), releases=(R137,)), "1.36", "text")
    assert "cannot be skipped" not in text


def test_upgrade_needs_newer_target(manifests: str) -> None:
    with pytest.raises(UsageError):
        upgrade_output(CheckOptions(paths=(manifests,), releases=(R135,)), "1.37", "text")


@pytest.mark.parametrize("version", ["1.99", "banana"])
def test_a_bad_upgrade_from_names_that_flag(version: str, manifests: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UsageError) as error:
        upgrade_output(CheckOptions(paths=(manifests,), releases=(R137,)), version, "text")
    assert error.value.where == "--upgrade-from" and "--k8s-version" not in str(error.value)
    with pytest.raises(SystemExit) as exit_info:
        main(["check", manifests, "--upgrade-from", version, "--k8s-version", "1.37"])
    assert exit_info.value.code == 2 and "error: --upgrade-from: " in capsys.readouterr().err


def test_cli_multi_release_prints_matrix(manifests: str) -> None:
    result = CliRunner().invoke(cli, ["check", manifests, "--k8s-version", "1.35..1.37"])
    assert "Releases that accept each document unchanged:" in result.output
    result = CliRunner().invoke(cli, ["check", manifests, "--upgrade-from", "1.35", "--k8s-version", "1.37", "-o", "json"])
    assert "\"mustPassThrough\": [\n    \"1.36\"\n  ]" in result.output


def test_cli_multi_release_json_has_releases_and_matrix(manifests: str) -> None:
    import json

    result = CliRunner().invoke(cli, ["check", manifests, "--k8s-version", "1.35..1.37", "-o", "json"])
    data = json.loads(result.output)
    assert list(data) == ["k8sVersion", "findings", "summary", "releases", "matrix"]   # DESIGN's keys first, unchanged
    assert data["k8sVersion"] == "1.35,1.36,1.37" and data["releases"] == ["1.35", "1.36", "1.37"]
    claim = next(entry for entry in data["matrix"] if entry["object"] == "ResourceClaim shared-gpu")
    assert (claim["file"], claim["line"]) == (manifests, 13)
    assert claim["accepted"] == {"1.35": False, "1.36": True, "1.37": True}
    [change] = claim["changes"]["1.35"]
    assert (change["rule"], change["line"], change["column"]) == ("GATE001", 23, 9)
    assert not change["message"].startswith("[")                  # the release is the key, not a message prefix
    assert claim["changes"]["1.37"] == []
    single = json.loads(CliRunner().invoke(cli, ["check", manifests, "--k8s-version", "1.37", "-o", "json"]).output)
    assert list(single) == ["k8sVersion", "findings", "summary"]   # one release: DESIGN's shape exactly


def test_upgrade_does_not_call_unserved_objects_fixed(tmp_path: Path) -> None:
    path = tmp_path / "wl.yaml"
    path.write_text("apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata: {name: train}\nspec:\n"
                    "  podGroups:\n  - name: workers\n    policy: {}\n")
    options = CheckOptions(paths=(str(path),), releases=(R137,), runtime_config={"scheduling.k8s.io/v1alpha1": True},
                           feature_gates={"GenericWorkload": True})
    report = run_upgrade(options, R135)
    changes = {(i.change, i.rule) for i in report.items}
    assert ("breaks", "API001") in changes                    # v1alpha1 is gone in 1.37
    assert not any(change == "fixed" for change, _ in changes)    # its 1.35 VALID001 is not "fixed", just unjudged
