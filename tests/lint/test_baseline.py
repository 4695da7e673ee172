"""Baselines: fingerprints ignore line shifts but not the rule, object or field; --baseline fails only on new
findings; SARIF carries the same fingerprint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubectl_wasdra.cli import main
from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.lint.baseline import SARIF_KEY, fingerprint, read_baseline
from kubectl_wasdra.lint.codes import Severity
from kubectl_wasdra.lint.problem import Finding

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "fixtures" / "manifests" / "check-broken" / "train.yaml"


def _finding(**changes: object) -> Finding:
    values = {"file": "a.yaml", "line": 3, "column": 5, "rule": "SCHEMA002", "name": "unknown-field",
              "severity": Severity.ERROR, "path": "spec.cuont", "message": 'unknown field "cuont"', "object": "Pod ml/x"}
    return Finding(**(values | changes))


def test_fingerprint_ignores_position_but_not_identity() -> None:
    base = fingerprint(_finding())
    assert fingerprint(_finding(line=30, column=1)) == base
    assert fingerprint(_finding(rule="SCHEMA001")) != base
    assert fingerprint(_finding(object="Pod ml/y")) != base
    assert fingerprint(_finding(path="spec.other")) != base


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


def test_write_then_check_against_the_baseline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    manifest = tmp_path / "train.yaml"
    manifest.write_text(BROKEN.read_text())
    code, _, err = run(["check", ".", "--write-baseline", "baseline.json"], capsys)
    assert code == 0 and "4 finding(s) recorded" in err
    manifest.write_text("# a comment that moves every line\n\n" + BROKEN.read_text())
    code, out, _ = run(["check", ".", "--baseline", "baseline.json"], capsys)
    assert code == 0, out
    assert out.splitlines()[-1] == "1 file, 3 documents: 0 errors, 0 warnings (4 in the baseline)"
    extra = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: extra}\nspec: {containers: [{name: c, image: x, lol: 1}]}\n"
    manifest.write_text(BROKEN.read_text() + extra)
    code, out, _ = run(["check", ".", "--baseline", "baseline.json", "-o", "sarif"], capsys)
    assert code == 1
    results = json.loads(out)["runs"][0]["results"]
    new = [r for r in results if r["baselineState"] == "new"]
    assert [r["ruleId"] for r in new] == ["SCHEMA002"] and "lol" in new[0]["message"]["text"]
    recorded = read_baseline(str(tmp_path / "baseline.json"))
    assert all((r["partialFingerprints"][SARIF_KEY] in recorded) == (r["baselineState"] == "unchanged") for r in results)


def test_a_file_that_is_no_baseline_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_text('{"findings": []}')
    with pytest.raises(UsageError, match="not a kubectl-wasdra baseline"):
        read_baseline(str(tmp_path / "b.json"))
