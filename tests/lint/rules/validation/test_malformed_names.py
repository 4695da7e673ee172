"""VALID rules never crash on a field of the wrong type: a name that is a list, a dict or a number counts as absent
for validation, and only SCHEMA001 reports its type."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from fixture_runner import replaced, value_paths
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.cli import main
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.pipeline import check_documents
from kubectl_wasdra.lint.registry import all_rules
from kubectl_wasdra.load import load_paths

ROOT = Path(__file__).resolve().parents[4]
POD = """apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  resourceClaims: [{name: [x], resourceClaimName: c}, {name: [x], resourceClaimName: d}]
  containers: [{name: c, image: i, resources: {claims: [{name: [x]}]}}]
"""
CLAIM = """apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - {name: {a: 1}, exactly: {deviceClassName: gpu}}
    - {name: {a: 1}, exactly: {deviceClassName: gpu}}
"""


@pytest.mark.parametrize("text", [POD, CLAIM], ids=["pod-claim-name-list", "claim-request-name-dict"])
def test_a_name_of_the_wrong_type_is_only_a_schema_finding(text: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text(text)
    with pytest.raises(SystemExit):
        main(["check", str(manifest), "-o", "json"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert not [f for f in findings if f["message"].startswith("internal error")]
    assert [f for f in findings if f["rule"] == "SCHEMA001" and f["path"].endswith("name")]
    assert not [f for f in findings if f["rule"].startswith("VALID") and f["path"].endswith("name")]


RULES = all_rules()
DOCUMENTS = load_paths([str(p) for p in sorted((ROOT / "fixtures" / "lint").glob("VALID*/*.yaml"))]).documents
GARBAGE = st.sampled_from([["x"], [{"a": 1}], {"a": 1}, {"a": [None]}, 7, -1, 1.5, True, None, ""])


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_wrong_types_anywhere_in_valid_fixtures_are_no_internal_error(data: st.DataObject) -> None:
    document = data.draw(st.sampled_from(DOCUMENTS))
    path = data.draw(st.sampled_from(value_paths(document.data)))
    broken = replace(document, data=replaced(document.data, path, data.draw(GARBAGE)))
    others = [d for d in DOCUMENTS if d.file == document.file and d is not document]
    release = data.draw(st.sampled_from([Release(1, 33), Release(1, 35), Release(1, 37)]))
    findings = check_documents([broken, *others], RULES, CheckContext(release=release))
    assert not [f for f in findings if f.message.startswith("internal error")]
