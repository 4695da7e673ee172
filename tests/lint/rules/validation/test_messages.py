"""VALID messages name the actual values (what is set, which part is wrong) and hints say what to write instead."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.cli import main
from kubectl_wasdra.lint.rules.validation._base import Check
from kubectl_wasdra.lint.rules.validation.rules import validate


def _slice(attributes: dict[str, Any]) -> dict[str, Any]:
    return {"metadata": {"name": "s"},
            "spec": {"driver": "dra.example.com", "nodeName": "n", "pool": {"name": "p", "resourceSliceCount": 1},
                     "devices": [{"name": "gpu-0", "attributes": attributes}]}}


def test_attribute_name_hint_suggests_a_valid_spelling() -> None:
    [violation] = validate(_slice({"dra.example.com/supported-models": {"string": "a"}}), "resource.k8s.io/v1",
                           "ResourceSlice", Release(1, 37))
    assert violation.message.startswith('invalid attribute name "dra.example.com/supported-models": the name '
                                        '"supported-models" after the slash: a valid C identifier')
    assert violation.hint == 'use a C identifier after the domain, e.g. "dra.example.com/supported_models"'


def test_list_attribute_before_136_left_to_schema() -> None:
    data = _slice({"dra.example.com/models": {"strings": ["a", "b"]}})
    assert validate(data, "resource.k8s.io/v1", "ResourceSlice", Release(1, 35)) == ()
    assert validate(data, "resource.k8s.io/v1", "ResourceSlice", Release(1, 36)) == ()


def test_one_of_says_what_is_set() -> None:
    claim = {"metadata": {"name": "c"}, "spec": {"devices": {"requests": [
        {"name": "a", "exactly": {"deviceClassName": "c"}, "firstAvailable": [{"name": "s", "deviceClassName": "c"}]},
        {"name": "b"}]}}}
    messages = sorted(v.message for v in validate(claim, "resource.k8s.io/v1", "ResourceClaim", Release(1, 37)))
    assert messages == ["exactly one of `exactly`, `firstAvailable` is required, but `exactly` and `firstAvailable` are set",
                        "exactly one of `exactly`, `firstAvailable` is required, but none is set"]


def test_empty_toleration_key_is_accepted_with_a_warning_naming_the_operator() -> None:
    claim = {"metadata": {"name": "c"}, "spec": {"devices": {"requests": [{"name": "a", "exactly": {
        "deviceClassName": "c", "tolerations": [{"effect": "NoSchedule"}, {"operator": "Equal", "value": "x"}]}}]}}}
    found = validate(claim, "resource.k8s.io/v1", "ResourceClaim", Release(1, 37))
    assert [v.check for v in found] == [Check.UNINTENDED, Check.UNINTENDED]
    assert [v.message for v in found] == [
        "kube-apiserver accepts this toleration, but with an empty key and operator Equal (the default) it tolerates "
        "every taint whose value is empty, whatever its key: probably not meant",
        'kube-apiserver accepts this toleration, but with an empty key and operator Equal it tolerates every taint '
        'whose value is "x", whatever its key: probably not meant']


def test_missing_cel_expression_says_what_is_there() -> None:
    def messages(selector: dict[str, Any]) -> list[tuple[str, str | None]]:
        cls = {"metadata": {"name": "gpu.example.com"}, "spec": {"selectors": [selector]}}
        return [(v.message, v.hint) for v in validate(cls, "resource.k8s.io/v1", "DeviceClass", Release(1, 37))]

    assert messages({"cel": None, "expression": "device.driver == 'a'"}) == [(
        "cel.expression is required, but cel is empty and `expression` is a sibling of `cel` instead of inside it",
        "indent `expression:` under `cel:` (two more spaces)")]
    assert messages({"cel": {}})[0][0] == "cel.expression is required, but cel has no expression"
    assert messages({"cel": "device.driver == 'a'"})[0][0] == "cel.expression is required, but cel is a string, not an object"


def test_pre_131_claim_source_wrapper_named() -> None:
    pod = {"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "i"}],
                    "resourceClaims": [{"name": "gpu", "source": {"resourceClaimTemplateName": "t"}}]}}
    [violation] = validate(pod, "v1", "Pod", Release(1, 37))
    assert violation.message.endswith("but none is set (`source.resourceClaimTemplateName` is the pre-1.31 form)")
    assert violation.hint == "move resourceClaimTemplateName out of `source:` up one level, next to name"


def test_pre_131_claim_source_wrapper_is_one_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kube-apiserver's strict decoding stops at the unknown `source`; moving its field up fixes both: one finding."""
    manifest = tmp_path / "pod.yaml"
    manifest.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n"
                        "  resourceClaims: [{name: gpu, source: {resourceClaimTemplateName: t}}]\n")
    with pytest.raises(SystemExit):
        main(["check", str(manifest), "-o", "json", "--no-config", "--select", "SCHEMA,VALID"])
    rules = [f["rule"] for f in json.loads(capsys.readouterr().out)["findings"]]
    assert rules == ["VALID001"]
