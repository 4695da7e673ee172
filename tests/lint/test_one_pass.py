"""Every error in one pass: an object of an apiVersion the release serves but does not enable (API002) is still
validated as written, so its VALID findings show now rather than after the apiVersion is fixed; an apiVersion the
release does not serve at all (API001) is not validated (its shape may be another API's)."""

from __future__ import annotations

from pathlib import Path

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

CLASS = """\
apiVersion: resource.k8s.io/VERSION
kind: DeviceClass
metadata: {name: Bad_GPU}
spec:
  selectors:
  - cel: {expression: 'device.driver == '}
"""


def _rules(version: str, tmp_path: Path, release: str = "1.37") -> list[str]:
    path = tmp_path / "class.yaml"
    path.write_text(CLASS.replace("VERSION", version))
    report = run_check(CheckOptions(paths=(str(path),), releases=(Release.parse(release),)))
    return sorted(f.rule for f in report.findings)


def test_a_disabled_version_is_validated_as_written(tmp_path: Path) -> None:
    assert _rules("v1beta1", tmp_path) == ["API002", "API003", "VALID004", "VALID031"]
    assert _rules("v1", tmp_path) == ["VALID004", "VALID031"]   # the same errors once the version is fixed


def test_an_unserved_version_is_not_validated(tmp_path: Path) -> None:
    assert _rules("v1alpha2", tmp_path) == ["API001"]
