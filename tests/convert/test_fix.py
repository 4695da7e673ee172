"""`check --fix [--unsafe-fixes]`: safe fixes applied in place, unsafe ones only when asked, a second run changes
nothing, and the rule catalogue says which rules have fixes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.convert.helpers import run_cli

MIXED = """\
apiVersion: v1
kind: ConfigMap
metadata: {name: flags}   # feature flags
data:
  enabled: yes
  quoted: 'no'
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        cuont: 2   # two
    - name: b
      deviceClassName: gpu
"""

# the three safe fixes: a quoted YAML 1.1 boolean (SCHEMA001), the close-match rename (SCHEMA002) and a v1beta1-shaped
# request nested under exactly: (VALID001)
FIXED = MIXED.replace("enabled: yes", 'enabled: "yes"').replace("cuont: 2", "count: 2").replace(
    "    - name: b\n      deviceClassName: gpu\n", "    - name: b\n      exactly:\n        deviceClassName: gpu\n")

CLAIM_V1BETA1 = "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n  devices:\n" \
                "    requests:\n    - name: gpu\n      deviceClassName: gpu\n"
CLASS_V1BETA1 = "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec: {}\n"


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run_cli(capsys, "check", "--no-config", "--ignore", "REF", *argv)


def test_fix_applies_safe_fixes_and_second_run_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(MIXED)
    code, out, _ = _check(capsys, str(path))
    assert code == 1 and "3 fixable with --fix." in out
    code, out, _ = _check(capsys, str(path), "--fix")
    assert code == 0 and "Fixed 3 finding(s) in 1 file(s)." in out
    assert path.read_text() == FIXED
    code, out, _ = _check(capsys, str(path), "--fix")
    assert code == 0 and "Fixed 0 finding(s)" in out
    assert path.read_text() == FIXED


def test_fix_keeps_crlf_and_bom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.yaml"
    path.write_bytes(("\ufeff" + MIXED.replace("\n", "\r\n")).encode())
    _check(capsys, str(path), "--fix")
    assert path.read_bytes() == ("\ufeff" + FIXED.replace("\n", "\r\n")).encode()


def test_same_shape_successor_is_a_safe_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "class.yaml"
    path.write_text(CLASS_V1BETA1)
    _check(capsys, str(path), "--fix")
    assert path.read_text() == CLASS_V1BETA1.replace("v1beta1", "v1")


def test_shape_change_needs_unsafe_fixes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "claim.yaml"
    path.write_text(CLAIM_V1BETA1)
    code, out, _ = _check(capsys, str(path), "--fix")
    assert "fixable with --fix --unsafe-fixes" in out
    assert path.read_text() == CLAIM_V1BETA1
    code, out, _ = _check(capsys, str(path), "--fix", "--unsafe-fixes")
    assert path.read_text() == CLAIM_V1BETA1.replace("v1beta1", "v1").replace(
        "      deviceClassName: gpu\n", "      exactly:\n        deviceClassName: gpu\n")
    assert code == 0


def test_unknown_field_without_a_single_match_is_not_fixed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.yaml"
    text = MIXED.replace("cuont", "zzzzzz")
    path.write_text(text)
    _check(capsys, str(path), "--fix")
    assert "zzzzzz: 2" in path.read_text()


def test_unsafe_fixes_alone_and_stdin_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(MIXED)
    assert _check(capsys, str(path), "--unsafe-fixes")[0] == 2
    assert _check(capsys, "-", "--fix")[0] == 2
    assert path.read_text() == MIXED


def test_rules_show_fixability(capsys: pytest.CaptureFixture[str]) -> None:
    entries = {e["id"]: e["fix"] for e in json.loads(run_cli(capsys, "rules", "-o", "json")[1])["rules"]}
    assert (entries["SCHEMA002"], entries["API001"], entries["REF001"]) == ("safe", "unsafe", "none")
    assert "fix: unsafe" in run_cli(capsys, "rules", "API001")[1]


def test_unsafe_fix_of_a_135_workload_adds_its_pod_group(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.convert.test_scheduling import WORKLOAD_135, WORKLOAD_137

    path = tmp_path / "w.yaml"
    path.write_text(WORKLOAD_135)
    code, out, _ = _check(capsys, str(path), "--fix", "--unsafe-fixes", "--runtime-config", "scheduling.k8s.io/v1beta1=true",
                          "--feature-gates", "GenericWorkload=true")
    assert path.read_text() == WORKLOAD_137
    assert code == 0 and "Fixed 1 finding(s) in 1 file(s)." in out
