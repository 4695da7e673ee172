"""An integer outside its OpenAPI format's range (int32 ports, int64 counts) is a SCHEMA finding, as the API server
rejects it; the generated schemas carry the range as minimum/maximum."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubectl_wasdra.cli import main

POD = """apiVersion: v1
kind: Pod
metadata: {{name: p, namespace: default}}
spec:
  containers: [{{name: c, image: i, ports: [{{containerPort: {port}}}]}}]
"""


def _findings(tmp_path: Path, capsys: pytest.CaptureFixture[str], port: int, release: str) -> list[dict]:
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(POD.format(port=port))
    with pytest.raises(SystemExit):
        main(["check", str(manifest), "-o", "json", "--k8s-version", release])
    return json.loads(capsys.readouterr().out)["findings"]


@pytest.mark.parametrize("release", ["1.33", "1.37"])
@pytest.mark.parametrize("port", [99999999999, 2**31, -2**31 - 1])
def test_an_int32_out_of_range_is_a_schema_finding(port: int, release: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    findings = _findings(tmp_path, capsys, port, release)
    assert [(f["rule"], f["path"], f["line"]) for f in findings] == [
        ("SCHEMA005", "spec.containers[0].ports[0].containerPort", 5)]
    assert findings[0]["message"] == f"{port} does not fit in a 32-bit integer"


def test_the_largest_int32_is_fine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert not [f for f in _findings(tmp_path, capsys, 2**31 - 1, "1.37") if f["rule"].startswith("SCHEMA")]


def test_an_int64_field_takes_a_value_beyond_int32_but_not_beyond_int64(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "pod.yaml"
    for value, expected in ((2**40, []), (2**63, [f"{2**63} does not fit in a 64-bit integer"])):
        manifest.write_text(POD.format(port=80) + f"  activeDeadlineSeconds: {value}\n")
        with pytest.raises(SystemExit):
            main(["check", str(manifest), "-o", "json"])
        findings = json.loads(capsys.readouterr().out)["findings"]
        assert [f["message"] for f in findings if f["rule"].startswith("SCHEMA")] == expected
