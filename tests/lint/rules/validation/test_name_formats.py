"""Name formats match the whole value, as Go's regexp `$` does: a trailing newline (easy to get from a `|` block or a
quoted "\\n") makes a name invalid, where a Python `$` would have let it pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubectl_wasdra.cli import main
from kubectl_wasdra.lint.rules.validation._names import (
    c_identifier_error,
    dns_label_error,
    dns_subdomain_error,
)


@pytest.mark.parametrize("check", [dns_label_error, dns_subdomain_error, c_identifier_error])
def test_a_final_newline_is_not_part_of_a_valid_name(check) -> None:
    assert check("gpu") is None
    assert check("gpu\n") is not None


def test_a_request_name_ending_in_a_newline_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "claim.yaml"
    manifest.write_text("""apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: "gpu\\n"
      exactly: {deviceClassName: gpu.example.com}
""")
    with pytest.raises(SystemExit) as exited:
        main(["check", str(manifest), "--k8s-version", "1.37", "-o", "json"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert exited.value.code == 1
    assert [f for f in findings if f["rule"].startswith("VALID") and f["path"] == "spec.devices.requests[0].name"]
