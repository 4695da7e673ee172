"""`snapshot --anonymize` keeps every verdict and leaves no original identifier: the simulation and explain-pending on
the original and the anonymized snapshot of every fixture (and a generated cluster) agree entry by entry, and neither
the anonymized file nor explain-pending's output on it holds any original node, pod, namespace, claim, class, template,
priority class, PodGroup, CompositePodGroup, Job or Workload name, private label key, nor any original UID."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from test_allowlist import verdicts

from kubectl_wasdra.cli import cli
from kubectl_wasdra.cluster.allowlist import allowed_snapshot
from kubectl_wasdra.cluster.anonymize import KEEP_NAMESPACES, anonymize_with_report
from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.cluster.export import SnapshotOptions, export_snapshot
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.write import render_snapshot

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted([*(p for p in (ROOT / "fixtures" / "sched").iterdir() if (p / "cluster.yaml").is_file()),
               *(p for p in (ROOT / "fixtures" / "clusters").iterdir() if p.is_dir())])  # the snapshot fixtures


def _generated():
    spec = importlib.util.spec_from_file_location("gen_cluster", ROOT / "bench" / "gen_cluster.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    builder = SnapshotBuilder()
    for obj in module.generate(nodes=12, devices=4, pods_per_node=3, fill=0.5, racks=3):
        builder.add(obj)
    return builder.build()


ON = ["--feature-gates", "GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true",
      "--runtime-config", "scheduling.k8s.io/v1beta1=true,scheduling.k8s.io/v1alpha3=true"]
NAMED_KINDS = ("Node", "Pod", "Namespace", "ResourceClaim", "DeviceClass", "ResourceClaimTemplate", "DeviceTaintRule",
               "PodGroup", "CompositePodGroup", "Workload", "Job")
_KEY_LISTS = ("matchExpressions", "matchLabelExpressions", "topology")  # lists whose items' `key` is a label key


def _label_keys(value, parent: str = "") -> set[str]:
    """Every label key a snapshot compares: labels, selectors, topology keys, matchLabelKeys, group constraints."""
    out: set[str] = set()
    if isinstance(value, list):
        for item in value:
            out |= _label_keys(item, parent)
            if parent in ("matchLabelKeys", "mismatchLabelKeys") and isinstance(item, str):
                out.add(item)
    elif isinstance(value, dict):
        if parent in ("labels", "matchLabels") or (parent == "nodeSelector" and "nodeSelectorTerms" not in value):
            out |= {str(key) for key in value}
        for key in ("topologyKey", *(("key", "level") if parent in _KEY_LISTS else ())):
            if isinstance(value.get(key), str):
                out.add(value[key])
        for key, item in value.items():
            out |= _label_keys(item, key)
    return out


def _private(key: str) -> bool:
    domain, slash, _ = key.rpartition("/")
    return bool(slash) and not any(domain == d or domain.endswith("." + d) for d in ("kubernetes.io", "k8s.io"))


def _template_names(value) -> set[str]:
    """Workload pod group template names (podGroups, podGroupTemplates, compositePodGroupTemplates at any depth)."""
    out: set[str] = set()
    for key in ("podGroups", "podGroupTemplates", "compositePodGroupTemplates"):
        for item in value.get(key) or () if isinstance(value, dict) else ():
            if isinstance(item, dict):
                out |= {item["name"]} if isinstance(item.get("name"), str) else set()
                out |= _template_names(item)
    return out


def _identifiers(snapshot) -> set[str]:
    """Names, UIDs and private label keys an anonymized snapshot must not contain (well-known namespaces and system
    classes excepted)."""
    out: set[str] = set()
    for kind in NAMED_KINDS:
        out |= {obj["metadata"]["name"] for obj in snapshot.of_kind(kind)}
    for workload in snapshot.of_kind("Workload"):
        out |= _template_names(workload.get("spec"))
    out |= {key for objs in snapshot.objects.values() for key in _label_keys(list(objs)) if _private(key)}
    out |= {obj["metadata"]["name"] for obj in snapshot.of_kind("PriorityClass")
            if not obj["metadata"]["name"].startswith("system-")}
    for objs in snapshot.objects.values():
        for obj in objs:
            meta = obj.get("metadata") or {}
            out |= {meta["uid"]} if isinstance(meta.get("uid"), str) else set()
            if isinstance(meta.get("namespace"), str):
                out.add(meta["namespace"])
    drivers = {(s.get("spec") or {}).get("driver") for s in snapshot.of_kind("ResourceSlice")}  # kept: CEL compares them
    return {name for name in out if name not in KEEP_NAMESPACES and name not in drivers and len(name) > 2}


def _explain_pending(snapshot, path: Path, output: str) -> str:
    path.write_bytes(render_snapshot(snapshot, as_json=False))
    result = CliRunner().invoke(cli, ["explain-pending", "-A", "--snapshot", str(path), *ON, "-o", output],
                                catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.output


def _pending_verdicts(output: str) -> list[tuple[Any, ...]]:
    """explain-pending's verdict per entry, names aside: kind, fits, reason codes, agreement with the cluster."""
    return [(g["kind"], g["fits"], tuple(r.get("code") for r in g["reasons"]), (g.get("agree") or {}).get("verdict"))
            for g in json.loads(output)["groups"]]


def _check(snapshot, tmp_path: Path) -> dict[str, Any]:
    kept = allowed_snapshot(snapshot)
    anonymized, replaced = anonymize_with_report(kept)
    assert verdicts(anonymized) == verdicts(kept), "anonymizing must not change a verdict"
    before = _explain_pending(kept, tmp_path / "original.yaml", "json")
    after = _explain_pending(anonymized, tmp_path / "anonymized.yaml", "json")
    assert _pending_verdicts(after) == _pending_verdicts(before), "explain-pending must not change a verdict"
    identifiers = _identifiers(snapshot)
    text = render_snapshot(anonymized, as_json=False).decode()
    leaked = sorted(name for name in identifiers if name in text)
    assert leaked == [], f"original identifiers left in the anonymized snapshot: {leaked[:10]}"
    for where, output in {"-o json": after, "text": _explain_pending(anonymized, tmp_path / "a.yaml", "text")}.items():
        # whole words, JSON keys aside: the output's own vocabulary ("running", "pending") may equal a pod's name
        leaked = sorted(name for name in identifiers if re.search(rf'(?<![\w.-]){re.escape(name)}(?![\w.-]|":)', output))
        assert leaked == [], f"original identifiers in explain-pending {where} output: {leaked[:10]}"
    return replaced


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_anonymized_fixture_keeps_verdicts_and_leaks_no_identifier(fixture: Path, tmp_path: Path) -> None:
    snapshot, problems = load_snapshot([str(fixture)])
    assert problems == ()
    _check(snapshot, tmp_path)


def test_anonymized_generated_cluster_keeps_verdicts(tmp_path: Path) -> None:
    replaced = _check(_generated(), tmp_path)
    assert replaced["node names"] == 12 and replaced["UIDs"] > 0


def test_numbers_compared_by_selectors_keep_their_order(tmp_path: Path) -> None:
    """A `gpu-count Gt 4` node selector fits the same before and after (label values that are numbers stay)."""
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"gpu-count": "8"}},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}}
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "team", "uid": "u-1"},
           "spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
               {"matchExpressions": [{"key": "gpu-count", "operator": "Gt", "values": ["4"]}]}]}}},
               "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}, "status": {"phase": "Pending"}}
    builder = SnapshotBuilder()
    for obj in (node, pod):
        builder.add(obj)
    snapshot = builder.build()
    assert verdicts(snapshot) == [("Pod", True, ())]
    _check(snapshot, tmp_path)


def test_snapshot_anonymize_reports_what_was_replaced(tmp_path: Path) -> None:
    source = ROOT / "fixtures" / "clusters" / "two-racks"
    result = export_snapshot(SnapshotOptions(snapshot=[str(source)], anonymize=True))
    assert result.replaced["node names"] == 10 and result.replaced["UIDs"] > 0
    data = yaml.safe_load(result.data)
    assert json.dumps(data).count("resourceVersion") <= 1  # only the List's own empty one


def _hostile_groups() -> list[dict[str, Any]]:
    """Composite and 1.35 groups, a Job gang, private label keys in every place the simulator compares them, and
    messages naming groups and keys."""
    rack, tier, build = "acme.corp/rack", "acme.corp/tier", "acme.corp/build"
    objs: list[dict[str, Any]] = [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"box-{i}", "labels": {
            rack: f"rack-{i % 2}", tier: "gold" if i < 3 else "iron", "kubernetes.io/hostname": f"box-{i}"}},
         "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}} for i in range(4)]
    objs += [
        {"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "Workload", "metadata": {"name": "serving-acme",
                                                                                      "namespace": "team-acme"},
         "spec": {"podGroupTemplates": [{"name": "prefill-acme", "schedulingPolicy": {"gang": {"minCount": 2}}},
                                        {"name": "decode-acme", "schedulingPolicy": {"gang": {"minCount": 2}}}]}},
        {"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "CompositePodGroup",
         "metadata": {"name": "serve-root-acme", "namespace": "team-acme"},
         "spec": {"schedulingPolicy": {"gang": {"minGroupCount": 2}},
                  "schedulingConstraints": {"topology": [{"key": rack}]}}}]
    for part in ("prefill", "decode"):
        objs.append({"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "PodGroup",
                     "metadata": {"name": f"serve-{part}-acme", "namespace": "team-acme"},
                     "spec": {"workloadRef": {"workloadName": "serving-acme", "templateName": f"{part}-acme"},
                              "parentCompositePodGroupName": "serve-root-acme",
                              "schedulingPolicy": {"gang": {"minCount": 2}},
                              "schedulingConstraints": {"topology": [{"key": rack}]}},
                     "status": {"conditions": [{"type": "PodGroupScheduled", "status": "False", "reason": "Unschedulable",
                                                "message": f"serve-{part}-acme: no {rack} domain fits serve-root-acme"}]}})
        objs += [_pending_pod(f"serve-{part}-acme-{i}", {"schedulingGroup": {"podGroupName": f"serve-{part}-acme"}},
                              {"app": "serve", build: "b-7"}) for i in range(2)]
    spread = {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": rack, "whenUnsatisfiable": "DoNotSchedule",
                                             "labelSelector": {"matchLabels": {"app": "web"}}, "matchLabelKeys": [build]}],
              "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                  {"matchExpressions": [{"key": tier, "operator": "In", "values": ["gold"]},
                                        {"key": rack, "operator": "Exists"}]}]}},
                           "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                               {"topologyKey": rack, "labelSelector": {"matchExpressions": [
                                   {"key": build, "operator": "In", "values": ["b-9"]}]}}]}},
              "nodeSelector": {tier: "gold"}}
    objs += [_pending_pod(f"web-acme-{i}", spread, {"app": "web", build: "b-9"}) for i in range(3)]
    objs += [
        {"apiVersion": "scheduling.k8s.io/v1alpha1", "kind": "Workload", "metadata": {"name": "training-acme",
                                                                                      "namespace": "team-acme"},
         "spec": {"podGroups": [{"name": "workers-acme", "policy": {"gang": {"minCount": 1}}}]}},
        _pending_pod("worker-acme-0", {"workloadRef": {"name": "training-acme", "podGroup": "workers-acme"}}, {}),
        {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "etl-acme", "namespace": "team-acme"},
         "spec": {"parallelism": 2, "scheduling": {"schedulingPolicy": {"gang": {}}}, "template": {"spec": {
             "nodeSelector": {tier: "gold"}, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}},
        {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "serve-decode-acme.1", "namespace": "team-acme"},
         "involvedObject": {"kind": "PodGroup", "name": "serve-decode-acme", "namespace": "team-acme"},
         "reason": "FailedScheduling", "type": "Warning",
         "message": f"pod group serve-decode-acme of serving-acme/decode-acme: 0/4 nodes have {tier}=gold and {rack}"}]
    return objs


def _pending_pod(name: str, spec: dict[str, Any], labels: dict[str, str]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "team-acme", "labels": labels},
            "spec": {**spec, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]},
            "status": {"phase": "Pending"}}


def test_groups_workloads_and_private_label_keys_are_replaced_with_every_reference(tmp_path: Path) -> None:
    builder = SnapshotBuilder()
    for obj in _hostile_groups():
        builder.add(obj)
    snapshot = builder.build()
    replaced = _check(snapshot, tmp_path)
    assert replaced["PodGroup/CompositePodGroup/Job names"] == 4
    assert replaced["Workload names"] == 2 and replaced["pod group template names"] == 3
    assert replaced["private label keys"] == 3
    anonymized = anonymize_with_report(allowed_snapshot(snapshot))[0]
    groups = {g["metadata"]["name"]: g for g in anonymized.of_kind("PodGroup")}
    (composite,) = anonymized.of_kind("CompositePodGroup")
    assert {g["spec"]["parentCompositePodGroupName"] for g in groups.values()} == {composite["metadata"]["name"]}
    members = {p["spec"]["schedulingGroup"]["podGroupName"] for p in anonymized.of_kind("Pod")
               if "schedulingGroup" in p["spec"]}
    assert members == set(groups)
    (event,) = anonymized.of_kind("Event")
    assert event["involvedObject"]["name"] in groups and event["involvedObject"]["name"] in event["message"]
    (workload,) = [w for w in anonymized.of_kind("Workload") if "podGroupTemplates" in w["spec"]]
    templates = {t["name"] for t in workload["spec"]["podGroupTemplates"]}
    assert {g["spec"]["workloadRef"]["templateName"] for g in groups.values()} == templates
    assert {g["spec"]["workloadRef"]["workloadName"] for g in groups.values()} == {workload["metadata"]["name"]}


def test_snapshot_anonymize_report_counts_groups_and_label_keys(tmp_path: Path) -> None:
    source = ROOT / "fixtures" / "sched" / "TopologyNoDomainFits"
    result = CliRunner().invoke(cli, ["snapshot", "--snapshot", str(source), "--anonymize", "--output-file",
                                      str(tmp_path / "s.yaml")],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "1 PodGroup/CompositePodGroup/Job names" in result.stderr and "1 private label keys" in result.stderr
    assert "example.com/rack" not in (tmp_path / "s.yaml").read_text()


def _named_after_others() -> list[dict[str, Any]]:
    """Objects that name other objects: a CSINode named after its node (NodeVolumeLimits finds it by the node's name),
    a PersistentVolume's claimRef to its claim's namespace, and a pod's owner reference to its Job."""
    container = [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]
    inline = [{"name": "data", "csi": {"driver": "csi.example.com"}}]
    return [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "worker-acme"},
         "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}},
        {"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": "worker-acme"},
         "spec": {"drivers": [{"name": "csi.example.com", "nodeID": "worker-acme", "allocatable": {"count": 1}}]}},
        {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "etl-acme", "namespace": "team-acme"},
         "spec": {"template": {"spec": {"containers": container}}}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "runner-acme", "namespace": "team-acme", "ownerReferences": [
            {"apiVersion": "batch/v1", "kind": "Job", "name": "etl-acme", "uid": "u-job", "controller": True}]},
         "spec": {"nodeName": "worker-acme", "containers": container, "volumes": inline}, "status": {"phase": "Running"}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "waiter-acme", "namespace": "team-acme"},
         "spec": {"containers": container, "volumes": inline}, "status": {"phase": "Pending"}},
        {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "local"},
         "provisioner": "kubernetes.io/no-provisioner", "volumeBindingMode": "WaitForFirstConsumer"},
        {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-1"},
         "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "storageClassName": "local",
                  "claimRef": {"kind": "PersistentVolumeClaim", "namespace": "team-acme", "name": "data"}},
         "status": {"phase": "Available"}},
        {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "team-acme"},
         "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "local",
                  "resources": {"requests": {"storage": "1Gi"}}}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "binder-acme", "namespace": "team-acme"},
         "spec": {"containers": container, "volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": "data"}}]},
         "status": {"phase": "Pending"}},
    ]


def test_objects_named_after_other_objects_follow_their_rename(tmp_path: Path) -> None:
    builder = SnapshotBuilder()
    for obj in _named_after_others():
        builder.add(obj)
    snapshot = builder.build()
    assert verdicts(snapshot) == [("Pod", False, ("VolumeLimitExceeded",)), ("Pod", True, ())]  # waiter, binder
    _check(snapshot, tmp_path)
    anonymized = anonymize_with_report(allowed_snapshot(snapshot))[0]
    (node,), (csi_node,) = anonymized.of_kind("Node"), anonymized.of_kind("CSINode")
    assert csi_node["metadata"]["name"] == node["metadata"]["name"] == csi_node["spec"]["drivers"][0]["nodeID"]
    (job,) = anonymized.of_kind("Job")
    owners = [ref for pod in anonymized.of_kind("Pod") for ref in pod["metadata"].get("ownerReferences", ())]
    assert [ref["name"] for ref in owners] == [job["metadata"]["name"]]


def test_share_ids_are_replaced_consistently() -> None:
    """A consumable-capacity share (allocation result and status.devices) is a UUID: replaced, the same in both."""
    share = "7e9a1c2b-5d3f-4a6e-9b8c-1f2e3d4c5b6a"
    builder = SnapshotBuilder()
    builder.add({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                 "metadata": {"name": "c", "namespace": "team", "uid": "0f0f0f0f-0000-4000-8000-000000000001"},
                 "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}]}},
                 "status": {"allocation": {"devices": {"results": [
                     {"request": "r", "driver": "gpu.example.com", "pool": "n1", "device": "d0", "shareID": share}]}},
                     "devices": [{"driver": "gpu.example.com", "pool": "n1", "device": "d0", "shareID": share}]}})
    (claim,) = anonymize_with_report(builder.build())[0].of_kind("ResourceClaim")
    assert share not in json.dumps(claim)
    (result,) = claim["status"]["allocation"]["devices"]["results"]
    assert result["shareID"] == claim["status"]["devices"][0]["shareID"]
