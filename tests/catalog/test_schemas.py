"""Schema validation: every error reported with its path, did-you-mean for unknown fields, CRDs via --schema-location."""

from __future__ import annotations

import json
from pathlib import Path

from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.catalog.schemas import schema_set, validate_document
from kubectl_wasdra.catalog.user_schemas import crd_to_json_schema

R137 = Release(1, 37)


def _violations(data: dict, release: Release = R137, locations: tuple[str, ...] = ()) -> list[tuple[str, tuple, str]]:
    return [(v.category, v.path, v.message) for v in validate_document(release, data, locations)]


def test_every_error_of_a_document_is_reported() -> None:
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "lables": {}},
           "spec": {"containers": [{"image": "x", "ports": [{"containerPort": "80"}]}], "restartPolicy": 1}}
    assert sorted(_violations(pod)) == sorted([
        ("unknown", ("metadata", "lables"), 'unknown field "lables"'),
        ("required", ("spec", "containers", 0), 'missing required field "name"'),
        ("type", ("spec", "containers", 0, "ports", 0, "containerPort"), 'expected integer, got string "80"'),
        ("type", ("spec", "restartPolicy"), "expected string, got integer 1"),
    ])


def test_unknown_field_suggests_the_closest_name() -> None:
    claim = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c"},
             "spec": {"devices": {"requests": [{"name": "g", "exactly": {"deviceClassName": "x", "cuont": 1}}]}}}
    (violation,) = list(validate_document(R137, claim))
    assert violation.hint == 'did you mean "count"?'


def test_int_or_string_and_quantities_accept_both_and_null() -> None:
    resources = {"requests": {"cpu": 0.5, "memory": "1Gi"}, "limits": None}
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
                  "spec": {"selector": {}, "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}},
                           "template": {"spec": {"containers": [{"name": "c", "resources": resources}]}}}}
    assert _violations(deployment) == []


def test_fields_the_server_defaults_are_not_required() -> None:
    """1.33/1.34 OpenAPI lists onPodConditions[].status as required, but SetDefaults_Job fills in "True" before
    validation (pkg/apis/batch/v1/defaults.go): a Job without it is accepted (the kubernetes/website example)."""
    rule = {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"},
           "spec": {"podFailurePolicy": {"rules": [rule]},
                    "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}}}}
    for release in SUPPORTED:
        assert _violations(job, release) == [], release
    rule["onPodConditions"] = [{"status": "True"}]
    assert _violations(job, Release(1, 33)) == [
        ("required", ("spec", "podFailurePolicy", "rules", 0, "onPodConditions", 0), 'missing required field "type"')]


def test_custom_resource_without_schema_is_skipped_and_builtin_unserved_is_silent() -> None:
    assert [v[0] for v in _violations({"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ClusterQueue"})] == ["skipped"]
    assert _violations({"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup"}, Release(1, 36)) == []


def test_misspelt_builtin_group_is_pointed_out() -> None:
    (violation,) = validate_document(R137, {"apiVersion": "resouce.k8s.io/v1", "kind": "ResourceClaim"})
    assert violation.category == "skipped" and violation.hint == 'did you mean the built-in group "resource.k8s.io"?'


def test_schema_files_exist_for_every_release() -> None:
    assert all("v1/Pod" in schema_set(r).kinds for r in SUPPORTED)


def test_kubeconform_style_json_schema(tmp_path: Path) -> None:
    (tmp_path / "jobset.x-k8s.io").mkdir()
    schema = {"type": "object", "properties": {"apiVersion": {}, "kind": {}, "spec": {"type": "object"}},
              "additionalProperties": False}
    (tmp_path / "jobset.x-k8s.io" / "jobset_v1alpha2.json").write_text(json.dumps(schema))
    data = {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "spek": {}}
    assert _violations(data, locations=(str(tmp_path),)) == [("unknown", ("spek",), 'unknown field "spek"')]


def test_crd_schema_conversion_is_strict_except_where_preserved() -> None:
    fields = {"port": {"x-kubernetes-int-or-string": True},
              "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}
    converted = crd_to_json_schema({"type": "object", "properties": {"spec": {
        "type": "object", "nullable": True, "properties": fields}}})
    spec = converted["properties"]["spec"]
    assert spec["additionalProperties"] is False and spec["type"] == ["object", "null"]
    assert spec["properties"]["port"]["type"] == ["integer", "string"]
    assert "additionalProperties" not in spec["properties"]["free"]
    assert set(converted["properties"]) >= {"apiVersion", "kind", "metadata", "spec"}


def test_checked_in_schemas_match_the_generator() -> None:
    import importlib.util
    import sys

    if importlib.util.find_spec("kubernetes_validate") is None:
        import pytest

        pytest.skip("kubernetes-validate (the schema source) is not installed")
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("gen_schemas", root / "tools" / "gen_schemas.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_schemas"] = module
    spec.loader.exec_module(module)
    assert module.render("1.37") == (root / "schemas" / "k8s-1.37.json").read_text()


def test_a_builtin_validator_built_from_raw_text_parses_its_schema_only_to_describe_an_error() -> None:
    """Built from the definitions' JSON text; the parsed schema (for did-you-mean) is the one the whole file holds."""
    from kubectl_wasdra.catalog.schemas import _closure, builtin_validator

    release = SUPPORTED[-1]
    builtin_validator.cache_clear()
    compiled = builtin_validator(release, "v1/ConfigMap")
    pod = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"a": "b"}}
    assert list(compiled.violations(pod)) == [] and "schema" not in vars(compiled)
    wrong = [v for v in compiled.violations({**pod, "dta": {}}) if v.category == "unknown"]
    assert wrong and "data" in (wrong[0].hint or "") and "schema" in vars(compiled)
    whole = json.loads((Path(__file__).resolve().parents[2] / "schemas" / f"k8s-{release}.json").read_text())
    root = whole["kinds"]["v1/ConfigMap"]
    assert compiled.schema["$defs"] == _closure(whole["$defs"], root) and compiled.schema["$ref"] == f"#/$defs/{root}"
