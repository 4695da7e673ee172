"""explain on the demo manifest: diagnosis, verified suggestions, JSON shape, text view."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from builders import fixture_cluster, node, pod, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.explain.model import ExplainReport
from kubectl_wasdra.explain.overlay import build_overlay, expand_job
from kubectl_wasdra.explain.render_json import render_json
from kubectl_wasdra.explain.render_text import render_text
from kubectl_wasdra.explain.run import explain_results, load_manifests
from kubectl_wasdra.sched.admission import all_on, make_gates

DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "manifests" / "explain" / "train-gang-racks.yaml"
GATES = {"GenericWorkload": True, "TopologyAwareWorkloadScheduling": True}
RUNTIME = {"scheduling.k8s.io/v1beta1": True}


@pytest.fixture(scope="module")
def demo():
    overlay = load_manifests([str(DEMO)])
    cluster = fixture_cluster("two-racks").overlay(list(overlay.objects))
    return explain_results(cluster, make_gates(NEWEST, GATES, RUNTIME), overlay)


def test_demo_gang_does_not_fit_and_says_why(demo):
    (group,) = demo
    assert (group.kind, group.namespace, group.name, group.fits) == ("PodGroup", "ml", "train", False)
    assert group.reasons[0].code == "TopologyNoDomainFits"
    assert group.reasons[0].details["shortBy"] == 2
    assert group.taken_by == {"ml/pending-8gpu": ["gpu-r0-n0"]}


def test_demo_suggestions_are_verified_changes(demo):
    by_kind = {s.kind: s for s in demo[0].suggestions}
    assert {"dropTopology", "lowerMinCount"} <= set(by_kind)
    assert by_kind["lowerMinCount"].message == "lower gang.minCount to 4"
    assert sorted(t.kind for t in demo[0].tried if t.outcome.startswith("fits")) == sorted(by_kind)


def test_the_reason_counts_the_pod_that_failed_and_the_quote_stays_verbatim(demo):
    (group,) = demo
    reason = group.reasons[0].message
    scheduled, failed, untried = (int(n) for n in re.search(r"(\d+) scheduled, (\d+) failed, (\d+) not tried", reason).groups())
    assert failed >= 1 and scheduled + failed + untried <= 6 and "remaining" not in reason
    assert re.search(r"minCount \(6\) cannot be satisfied: \d+ scheduled, \d+ remaining", group.scheduler_message)


def test_json_has_exactly_the_design_shape(demo):
    data = orjson.loads(render_json(ExplainReport("1.37", demo)))
    assert list(data) == ["k8sVersion", "groups"]
    group = data["groups"][0]
    assert list(group) == ["kind", "namespace", "name", "fits", "placement", "reasons", "suggestions", "tried",
                           "preemption", "domains"]
    assert list(group["preemption"]) == ["helps", "attempted", "nominatedNodes", "victims", "pdbViolations", "spared",
                                         "message"]
    assert list(group["placement"]) == ["pods", "claims", "domain"]
    assert list(group["reasons"][0]) == ["code", "message", "count", "details"]


def test_text_shows_scheduler_line_domains_and_map(demo):
    text = render_text(ExplainReport("1.37", demo))
    assert "PodGroup ml/train — does NOT fit (gang, minCount 6, 6 pods, topology example.com/rack)" in text
    assert "0/2 placements are available, first placement status: minCount (6) cannot be satisfied" in text
    assert "1 rack (r0), 4 nodes: 4 of 6 pods placeable — short by 2" in text
    assert "1 rack (r1), 4 nodes: 4 of 6 pods placeable — short by 2" in text
    assert "Placement map" in text and "▣" in text
    assert "\x1b[" not in text


def test_a_fitting_group_lists_its_placement():
    cluster = snapshot(node("n1"), node("n2"))
    overlay = build_overlay([pod("a", cpu="6"), pod("b", cpu="6")])
    groups = explain_results(cluster.overlay(list(overlay.objects)), all_on(NEWEST), overlay)
    assert [(g.name, g.fits, g.pods) for g in groups] == [("a", True, {"a": "n1"}), ("b", True, {"b": "n2"})]


def test_job_expands_to_parallelism_pods_and_its_pod_group():
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "ml"},
           "spec": {"parallelism": 3, "scheduling": {"schedulingPolicy": {"gang": {}}},
                    "template": {"spec": {"containers": [{"name": "c", "image": "x"}]}}}}
    objects = expand_job(job)
    assert [o["kind"] for o in objects] == ["PodGroup", "Pod", "Pod", "Pod"]
    assert objects[0]["spec"]["schedulingPolicy"] == {"gang": {"minCount": 3}}
    assert objects[1]["spec"]["schedulingGroup"] == {"podGroupName": "j"}


def test_device_taint_and_busy_claim_suggestions(tmp_path):
    manifest = tmp_path / "five.yaml"
    text = DEMO.read_text().replace("minCount: 6", "minCount: 5").replace("parallelism: 6", "parallelism: 5")
    manifest.write_text(text.replace("completions: 6", "completions: 5"))
    overlay = load_manifests([str(manifest)])
    cluster = fixture_cluster("two-racks").overlay(list(overlay.objects))
    (group,) = explain_results(cluster, make_gates(NEWEST, GATES, RUNTIME), overlay)
    messages = {s.kind: s.message for s in group.suggestions}
    assert messages["tolerateDeviceTaint"] == ("tolerate device taint example.com/maintenance=true:NoSchedule "
                                               "in the claim requests")
    assert messages["freeDevices"] == "free the 1 device(s) of ResourceClaim default/busy-gpu-r0-n3 (stop pod busy-gpu-r0-n3)"
    assert messages["addNodes"] == "add 1 more node(s) like gpu-r0-n0"
