"""Upstream DefaultPreemption test tables, ported as data (fixtures/sched/preemption/defaultpreemption.yaml), run
through our filters: the dry run's candidates (victims per node, PDB violations) and the node preemption picks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from builders import node, pod, pod_group, snapshot

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.admission import POLICY_GATE, Gates, all_on
from kubectl_wasdra.sched.fiterror import FitError
from kubectl_wasdra.sched.preemption import dry_run, preempt
from kubectl_wasdra.sched.simulation import Simulation
from kubectl_wasdra.sched.status import Status

TABLE = Path(__file__).resolve().parents[2] / "fixtures" / "sched" / "preemption" / "defaultpreemption.yaml"
CASES = yaml.safe_load(TABLE.read_text())["cases"]
PRIORITIES = {"neg": -100, "low": 0, "mid": 100, "high": 1000, "veryHigh": 10000}
RESOURCES = {"small": ("100m", "100"), "medium": ("200m", "200"), "large": ("300m", "300"), "veryLarge": ("500m", "500")}
LABEL_KEYS = ("hostname", "zone", "region")


def _node(spec: str | dict[str, Any]) -> dict[str, Any]:
    """st.MakeNode().Capacity(veryLargeRes) with labels from "name/zone/region", or {name, cpu, memory, pods}
    (st.MakeNode's capacity: pods 32 unless given, other resources only as given)."""
    if isinstance(spec, dict):
        allocatable = {"pods": str(spec.get("pods", 32)), **{k: str(spec[k]) for k in ("cpu", "memory") if k in spec}}
        return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": spec["name"], "labels": {}}, "spec": {},
                "status": {"allocatable": allocatable, "capacity": dict(allocatable)}}
    parts = spec.split("/")
    allocatable = {"cpu": "500m", "memory": "500", "pods": "110"}
    labels = dict(zip(LABEL_KEYS, parts, strict=False))
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": parts[0], "labels": labels}, "spec": {},
            "status": {"allocatable": allocatable, "capacity": dict(allocatable)}}


def _exists(key: str) -> dict[str, Any]:
    return {"matchExpressions": [{"key": key, "operator": "Exists"}]}


def _pod(spec: dict[str, Any]) -> dict[str, Any]:
    cpu, memory = RESOURCES[spec["req"]] if "req" in spec else (None, None)
    fields: dict[str, Any] = {}
    if "antiAffinityExists" in spec:
        key, topology = spec["antiAffinityExists"]
        fields["affinity"] = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": _exists(key), "topologyKey": topology}]}}
    if "spread" in spec:
        fields["topologySpreadConstraints"] = [{"maxSkew": 1, "topologyKey": key, "whenUnsatisfiable": "DoNotSchedule",
                                                "labelSelector": _exists("foo")} for key in spec["spread"]]
    obj = pod(spec["name"], cpu=cpu, memory=memory, node_name=spec.get("node", ""),
              priority=PRIORITIES[spec.get("priority", "low")], labels=spec.get("labels"), **fields)
    if "start" in spec:
        obj.setdefault("status", {})["startTime"] = f"1970-01-01T00:00:{spec['start']:02d}Z"
    return obj


def _pdb(spec: dict[str, Any], index: int) -> dict[str, Any]:
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": f"pdb{index}", "namespace": "default"},
            "spec": {"selector": {"matchLabels": spec["matchLabels"]}},
            "status": {"disruptionsAllowed": spec["allowed"], "disruptedPods": dict.fromkeys(spec.get("disrupted", ()), "t")}}


def _run(case: dict[str, Any]) -> tuple[Simulation, Any, Any]:
    """The simulation before anything is placed, the preemptor, and a FitError with the case's Filter statuses
    (default: every node Unschedulable, as upstream's tests hand DryRunPreemption every node)."""
    objects = [*map(_node, case["nodes"]), _pod(case["pod"]), *map(_pod, case["pods"]),
               *(_pdb(p, i) for i, p in enumerate(case.get("pdbs", ())))]
    simulation = Simulation(snapshot(*objects), all_on(NEWEST))
    preemptor = next(e for e in simulation.entries if e.name == case["pod"]["name"]).pods[0]
    codes = case.get("statuses", dict.fromkeys(simulation.state.node_names, "Unschedulable"))
    statuses = {name: (Status.unschedulable if code == "Unschedulable" else Status.unresolvable)(
        Reason.INSUFFICIENT_RESOURCE, "filtered") for name, code in codes.items()}
    return simulation, preemptor, FitError(preemptor.key, len(simulation.state.node_names), statuses)


@pytest.mark.parametrize("case", [c for c in CASES if c["test"] == "TestDryRunPreemption"], ids=lambda c: c["name"])
def test_dry_run_candidates(case):
    simulation, preemptor, error = _run(case)
    args = case.get("args", {})
    candidates, _ = dry_run(preemptor, error, simulation.state, simulation.preemption_context, args.get("offset", 0),
                            args.get("percentage", 10), args.get("absolute", 100))
    got = {node: [sorted(p.name for p in s.pods), len(s.violating)] for node, s in candidates.items()}
    assert got == {node: [sorted(v[0]), v[1]] for node, v in case["candidates"].items()}


@pytest.mark.parametrize("case", [c for c in CASES if c["test"] == "TestSelectBestCandidate"], ids=lambda c: c["name"])
def test_select_best_candidate(case):
    simulation, preemptor, error = _run(case)
    answer = preempt(preemptor, error, simulation.state, simulation.preemption_context)
    assert answer.nominated[preemptor.key] in case["pick"]


GROUP_TABLE = TABLE.with_name("podgrouppreemption.yaml")
GROUP_CASES = yaml.safe_load(GROUP_TABLE.read_text())["cases"]
MODES = {"all": {"all": {}}, "single": {"single": {}}, "none": None}


def _group_pod(spec: dict[str, Any]) -> dict[str, Any]:
    """A bound victim pod: 1 cpu, its priority, group, labels, a host port, terminating by preemption."""
    fields: dict[str, Any] = {}
    if spec.get("group"):
        fields["schedulingGroup"] = {"podGroupName": spec["group"]}
    obj = pod(spec["name"], node_name=spec["node"], priority=PRIORITIES[spec["priority"]], labels=spec.get("labels"),
              **fields)
    if spec.get("port"):
        obj["spec"]["containers"][0]["ports"] = [{"containerPort": spec["port"], "hostPort": spec["port"]}]
    if "start" in spec:
        obj["status"]["startTime"] = f"1970-01-01T00:00:{spec['start']:02d}Z"
    if spec.get("terminating"):
        obj["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z"
        obj["status"]["conditions"] = [{"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler"}]
    return obj


def _group_objects(case: dict[str, Any]) -> list[dict[str, Any]]:
    """Nodes, victims, their PodGroups, the PDBs, and the pending preemptor group with its pods."""
    counts: dict[str, int] = {}
    for spec in case["pods"]:
        counts[spec["node"]] = counts.get(spec["node"], 0) + 1
    objects = []
    for entry in case["nodes"]:
        name, cpu = (entry["name"], entry["cpu"]) if isinstance(entry, dict) else (entry, counts.get(entry, 0))
        taints = [{"key": "no-room", "effect": "NoSchedule"}] if name in case.get("noRoom", ()) else []
        objects.append(node(name, cpu=str(cpu), taints=taints))
    objects += [_group_pod(spec) for spec in case["pods"]]
    for name, (mode, priority) in case.get("groups", {}).items():
        group = pod_group(name, priority=PRIORITIES[priority])
        if MODES[mode] is not None:
            group["spec"]["disruptionMode"] = MODES[mode]
        objects.append(group)
    objects += [_pdb(p, i) for i, p in enumerate(case.get("pdbs", ()))]
    preemptor = case["preemptor"]
    group = pod_group("preemptor-pg", min_count=preemptor.get("minCount"), priority=PRIORITIES[preemptor["priority"]])
    if preemptor.get("policy"):
        group["spec"]["preemptionPolicy"] = preemptor["policy"]
    objects.append(group)
    for member in preemptor["pods"]:
        member = member if isinstance(member, dict) else {"name": member}
        obj = pod(member["name"], group="preemptor-pg", priority=PRIORITIES[preemptor["priority"]],
                  preemptionPolicy=preemptor.get("policy") or "PreemptLowerPriority")
        if preemptor.get("port"):
            obj["spec"]["containers"][0]["ports"] = [{"containerPort": preemptor["port"], "hostPort": preemptor["port"]}]
        if member.get("nominated"):
            obj["status"] = {"phase": "Pending", "nominatedNodeName": member["nominated"]}
        objects.append(obj)
    return objects


def group_gates() -> Gates:
    """Every workload gate on, and PodGroupPreemptionPolicy (the upstream test resolves the group's own policy)."""
    gates = all_on(NEWEST)
    return Gates(gates.release, {**gates.enabled_gates, POLICY_GATE: True}, gates.runtime_config)


@pytest.mark.parametrize("case", GROUP_CASES, ids=lambda c: c["name"])
def test_pod_group_select_victims_on_domain(case):
    results = Simulation(snapshot(*_group_objects(case)), group_gates()).run()
    result = next(r for r in results if r.name == "preemptor-pg")
    assert not result.fits
    answer = result.extra["preemption"]
    if "message" in case:
        assert not answer.helps
        assert answer.message == case["message"]
        assert result.message.endswith(", " + case["message"])
    else:
        assert answer.helps, answer.message
        assert sorted(v.name for v in answer.victims) == sorted(case["victims"])


@pytest.mark.parametrize("case", [c for c in CASES if c["test"] == "TestPostFilter"], ids=lambda c: c["name"])
def test_post_filter(case):
    simulation, preemptor, error = _run(case)
    answer = preempt(preemptor, error, simulation.state, simulation.preemption_context)
    if "nominated" in case:
        assert answer.nominated == {preemptor.key: case["nominated"]}
    else:
        assert not answer.helps and answer.message == case["message"]
