"""explain / explain-pending with preemption: "fits after preemption" with nominated nodes and victims (a whole
`all` group, never a higher-priority pod), the JSON `preemption` object, --no-preemption, the refusal for a
topology-constrained gang, and a recorded nominatedNodeName compared with ours."""

from __future__ import annotations

from pathlib import Path

import orjson
import yaml

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.explain.pending import PendingOptions, run_explain_pending
from kubectl_wasdra.explain.render_json import render_json
from kubectl_wasdra.explain.render_text import render_text
from kubectl_wasdra.explain.run import ExplainOptions, run_explain

GATES = {"GenericWorkload": True, "TopologyAwareWorkloadScheduling": True}
RUNTIME = {"scheduling.k8s.io/v1beta1": True, "scheduling.k8s.io/v1alpha3": True}


def _pod(name, node="", cpu="1", priority=0, group=None, status=None):
    spec = {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": cpu}}}], "priority": priority}
    if node:
        spec["nodeName"] = node
    if group:
        spec["schedulingGroup"] = {"podGroupName": group}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"}, "spec": spec,
            "status": status or ({"phase": "Running"} if node else {"phase": "Pending"})}


def _group(name, priority, min_count=None, whole=False, topology=None):
    spec = {"schedulingPolicy": {"gang": {"minCount": min_count}} if min_count else {"basic": {}}, "priority": priority}
    if whole:
        spec["disruptionMode"] = {"all": {}}
    if topology:
        spec["schedulingConstraints"] = {"topology": [{"key": topology}]}
    return {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": {"name": name, "namespace": "default"},
            "spec": spec}


def _cluster(tmp_path: Path, *extra) -> Path:
    nodes = [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": n, "labels": {"rack": "r0"}},
              "status": {"allocatable": {"cpu": "2", "memory": "8Gi", "pods": "110"}}} for n in ("n1", "n2")]
    running = [_group("batch", 0, whole=True), _pod("b0", "n1", group="batch"), _pod("b1", "n2", group="batch"),
               _pod("web", "n1", priority=500), _pod("db", "n2", cpu="500m", priority=2000)]
    directory = tmp_path / "cluster"
    directory.mkdir()
    (directory / "objects.yaml").write_text(yaml.safe_dump_all([*nodes, *running, *extra]))
    return directory


def _explain(tmp_path: Path, manifests, preemption=True):
    path = tmp_path / "train.yaml"
    path.write_text(yaml.safe_dump_all(manifests))
    options = ExplainOptions(files=(str(path),), snapshot=(str(_cluster(tmp_path)),), release=NEWEST,
                             feature_gates=GATES, runtime_config=RUNTIME, suggestions=False, preemption=preemption)
    return run_explain(options)


TRAIN = [_group("train", 1000, min_count=2), *(_pod(f"t{i}", priority=1000, group="train") for i in range(2))]


def test_gang_fits_after_preempting_a_whole_group_and_spares_what_is_not_in_the_way(tmp_path):
    report = _explain(tmp_path, TRAIN)
    group = orjson.loads(render_json(report))["groups"][0]
    assert group["fits"] is False
    preemption = group["preemption"]
    assert preemption["helps"] and set(preemption["nominatedNodes"]) == {"default/t0", "default/t1"}
    victims = {v["name"]: v for v in preemption["victims"]}
    assert set(victims) == {"b0", "b1"}  # db (priority 2000) is never a victim; web need not go
    assert "default/web" in preemption["spared"]
    assert victims["b0"]["wholeGroup"] and victims["b1"]["wholeGroup"] and victims["b0"]["podGroup"] == "batch"
    text = render_text(report)
    assert "fits after preemption" in text and "whole group batch" in text


def test_no_preemption_leaves_it_out(tmp_path):
    group = orjson.loads(render_json(_explain(tmp_path, TRAIN, preemption=False)))["groups"][0]
    assert "preemption" not in group and group["fits"] is False


def test_topology_constrained_gang_is_not_preempted_for_and_says_why(tmp_path):
    manifests = [_group("train", 1000, min_count=2, topology="rack"),
                 *(_pod(f"t{i}", priority=1000, group="train") for i in range(2))]
    report = _explain(tmp_path, manifests)
    group = orjson.loads(render_json(report))["groups"][0]
    assert group["preemption"]["attempted"] is False and not group["preemption"]["victims"]
    assert group["preemption"]["message"] == "pod group preemption: not supported with topology constraints"
    assert "would not preempt: pod group preemption: not supported with topology constraints" in render_text(report)


def test_explain_pending_compares_the_recorded_nomination(tmp_path):
    pending = _pod("urgent", cpu="2", priority=1000, status={"phase": "Pending", "nominatedNodeName": "n1"})
    options = PendingOptions(target="pod/urgent", snapshot=(str(_cluster(tmp_path, pending)),), release=NEWEST,
                             feature_gates=GATES, runtime_config=RUNTIME)
    report = run_explain_pending(options)
    preemption = orjson.loads(render_json(report))["groups"][0]["preemption"]
    assert preemption["nominatedNodes"] == {"default/urgent": "n1"}
    assert preemption["recordedNominations"] == {"default/urgent": "n1"} and preemption["nominationsAgree"] == "matches"
    assert "recorded nominatedNodeName: urgent -> n1" in render_text(report)


def test_placement_map_marks_the_nodes_preemption_evicts_on():
    from builders import claim_template, device_class, node, pod, pod_group, resource_slice, snapshot

    from kubectl_wasdra.explain.overlay import build_overlay
    from kubectl_wasdra.explain.run import explain_results
    from kubectl_wasdra.sched.admission import all_on

    gpu = "gpu.example.com"
    cluster = [device_class(gpu, gpu), claim_template("one", gpu, 1)]
    for name in ("n1", "n2"):
        cluster += [node(name, cpu="2"), resource_slice(name, gpu, 2), pod(f"low-{name}", cpu="2", node_name=name, priority=0)]
    claims = [{"name": "gpu", "resourceClaimTemplateName": "one"}]
    manifests = [pod_group("train", min_count=2, priority=100),
                 *(pod(f"t{i}", cpu="1", group="train", priority=100, claims=claims) for i in range(2))]
    overlay = build_overlay(manifests)
    diagnosis = explain_results(snapshot(*cluster, *overlay.objects), all_on(NEWEST), overlay, with_suggestions=False)[0]
    assert diagnosis.preemption.helps
    cells = dict(row for _, rows in diagnosis.placement_map for row in rows)
    evicted = {n for n, text in cells.items() if text.endswith("(preemption evicts 1)")}
    assert evicted == {v.node for v in diagnosis.preemption.victims} and evicted


def test_raise_priority_is_a_verified_suggestion():
    from builders import node, pod, priority_class, snapshot

    from kubectl_wasdra.explain.overlay import build_overlay
    from kubectl_wasdra.explain.run import explain_results
    from kubectl_wasdra.sched.admission import all_on

    cluster = [node("n1", cpu="2"), pod("batch", cpu="2", node_name="n1", priority=10),
               priority_class("low", 5), priority_class("urgent", 1000), priority_class("critical", 5000)]
    overlay = build_overlay([pod("p", cpu="1", priority=10)])
    diagnosis = explain_results(snapshot(*cluster, *overlay.objects), all_on(NEWEST), overlay)[0]
    assert not diagnosis.preemption.helps  # equal priority: no victims now
    found = [s for s in diagnosis.suggestions if s.kind == "raisePriority"]
    assert [(s.message, s.outcome) for s in found] == [
        ("raise priorityClassName to urgent (priority 1000)", "fits by preempting 1 pod(s) of priority <= 10 on node(s) n1")]
