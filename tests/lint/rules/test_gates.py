"""GATE rules: fixtures per release and profile (rule, line, column), messages, and the pure gated-field core."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_runner import FIXTURES, case_id, cases, check_case, findings, module_rules

from kubectl_wasdra.catalog.gates import effective_gates
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.registry import rule_infos
from kubectl_wasdra.lint.rules._gated import present_gated_fields

CASES = cases("GATE")
R135, R136, R137 = Release(1, 35), Release(1, 36), Release(1, 37)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fixture(case: tuple[Path, Release]) -> None:
    check_case(case)


def test_every_gate_rule_has_fixtures_for_three_releases() -> None:
    gate_ids = {r.info.id for r in module_rules("gates", "validation") if r.info.family == "GATE"}
    assert len(gate_ids) == 4 and gate_ids <= {info.id for info in rule_infos()}
    releases = {str(release) for _, release in CASES}
    assert {"1.35", "1.36", "1.37"} <= releases


POD_GROUP = {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
             "spec": {"schedulingPolicy": {"gang": {"minCount": 2}},
                      "schedulingConstraints": {"topology": [{"key": "example.com/rack"}]}}}


def test_topology_needs_gate_and_message_names_components() -> None:
    state = effective_gates(R137, {"GenericWorkload": True})
    hits = list(present_gated_fields(POD_GROUP, "scheduling.k8s.io/v1beta1", "PodGroup", R137, state))
    assert [(h.path, h.gate, h.enabled) for h in hits] == [(("spec", "schedulingConstraints"), "TopologyAwareWorkloadScheduling",
                                                             False)]
    from kubectl_wasdra.lint.rules._gated import disabled_message
    message = disabled_message(hits[0], R137)
    assert "alpha in 1.37, off by default" in message and "kube-scheduler" in message and "drops the field on create" in message


def test_kind_gated_off_reports_nothing_here() -> None:
    # Without GenericWorkload the PodGroup kind itself is not served: the API rules report it, not GATE001.
    state = effective_gates(R137, {})
    assert list(present_gated_fields(POD_GROUP, "scheduling.k8s.io/v1beta1", "PodGroup", R137, state)) == []


def test_pod_template_projection_and_update_only_fields_skipped() -> None:
    job = {"apiVersion": "batch/v1", "kind": "Job",
           "spec": {"template": {"spec": {"schedulingGroup": {"podGroupName": "g"}, "nodeSelector": {"a": "b"},
                                          "containers": [{"name": "c", "resources": {"limits": {"cpu": "1"}}}]}}}}
    hits = list(present_gated_fields(job, "batch/v1", "Job", R136, effective_gates(R136, {})))
    assert [(h.path, h.gate) for h in hits] == [(("spec", "template", "spec", "schedulingGroup"), "GenericWorkload")]


def test_hpa_min_replicas_only_when_zero() -> None:
    hpa = {"spec": {"minReplicas": 0}}
    state = effective_gates(R136, {})
    assert [h.gate for h in present_gated_fields(hpa, "autoscaling/v2", "HorizontalPodAutoscaler", R136, state)] == [
        "HPAScaleToZero"]
    assert list(present_gated_fields({"spec": {"minReplicas": 1}}, "autoscaling/v2", "HorizontalPodAutoscaler", R136,
                                     state)) == []


def test_profiles_table() -> None:
    from kubectl_wasdra.errors import UsageError
    from kubectl_wasdra.lint import codes, profiles
    from kubectl_wasdra.lint.codes import Severity

    assert profiles.is_active(codes.GATE_FIELD_OFF, "default") and not profiles.is_active(codes.GATE_FIELD_ALPHA, "default")
    assert profiles.is_active(codes.GATE_FIELD_ALPHA, "production")
    assert profiles.is_active(codes.GATE_FIELD_BETA_OFF, "production")
    assert profiles.is_active(codes.GATE_FIELD_PRERELEASE, "experimental")
    assert not profiles.is_active(codes.GATE_FIELD_PRERELEASE, "production")
    assert profiles.severity_for(codes.GATE_FIELD_PRERELEASE, "experimental") is Severity.INFO
    assert profiles.severity_for(codes.GATE_FIELD_OFF, "production") is Severity.ERROR
    assert profiles.assumes_all_gates_on("experimental") and not profiles.assumes_all_gates_on("default")
    with pytest.raises(UsageError):
        profiles.severity_for(codes.GATE_FIELD_OFF, "strict")


@pytest.mark.parametrize(("profile", "expected"), [
    ("default", [("GATE001", 14, 3)]),
    ("production", [("GATE001", 14, 3)]),
    ("experimental", [("GATE004", 14, 3)]),
])
def test_same_manifest_per_profile(tmp_path: Path, profile: str, expected: list[tuple[str, int, int]]) -> None:
    source = FIXTURES / "GATE001" / "bad-137-v1beta1.yaml"
    text = source.read_text().replace("# releases: 1.37", f"# releases: 1.37\n# profile: {profile}", 1)
    path = tmp_path / "pg.yaml"
    path.write_text(text.replace("# expect:", "# was:"))
    shift = [(rule, line + 1, column) for rule, line, column in expected]     # one header line added
    assert [f for f in findings(path, R137) if f[0].startswith("GATE")] == shift


@pytest.mark.parametrize(("note", "text"), [
    (None, ""),
    ("list-typed device attributes", "list-typed device attributes"),
    ("spec.schedulingGroup.podGroupName links the pod to a PodGroup. Applies to Pod templates too (spec.template.spec.* "
     "in Deployment, Job, StatefulSet, ...; spec.jobTemplate.spec.template.spec.* in CronJob).",
     "spec.schedulingGroup.podGroupName links the pod to a PodGroup"),
    ("Applies to Pod templates too (spec.template.spec.* in Deployment).", ""),
    ("DRA claims of the pod; gate beta/off in 1.33, GA from 1.34. Applies to Pod templates too (x).", "DRA claims of the pod"),
    ("1.36 beta gate off by default; 1.37 GA (v1 on by default); DRADeviceTaints must also be on",
     "DRADeviceTaints must also be on"),
], ids=["none", "plain", "template-remark", "only-remark", "release-history", "release-history-first"])
def test_note_text_drops_data_file_remarks(note: str | None, text: str) -> None:
    from kubectl_wasdra.lint.rules._gated import note_text

    assert note_text(note) == text
