"""PodTopologySpread and InterPodAffinity scores against upstream's test tables
(fixtures/sched/upstream-scores/{interpodaffinity,podtopologyspread}.yaml), computed from real PodInfos and a
SchedState holding the existing pods."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from builders import node

from kubectl_wasdra.sched.nodeinfo import NodeFacts
from kubectl_wasdra.sched.pod_scores import inter_pod_affinity_scores, topology_spread_scores
from kubectl_wasdra.sched.podinfo import build_pod_info
from kubectl_wasdra.sched.profiles import DEFAULT_PROFILE
from kubectl_wasdra.sched.state import SchedState

TABLES = Path(__file__).resolve().parents[2] / "fixtures" / "sched" / "upstream-scores"
AFFINITY = yaml.safe_load((TABLES / "interpodaffinity.yaml").read_text())
SPREAD = yaml.safe_load((TABLES / "podtopologyspread.yaml").read_text())


def _pod(spec: dict[str, Any], name: str) -> dict[str, Any]:
    pod_spec: dict[str, Any] = {"containers": [{"name": "c", "image": "x"}], **(spec.get("spec") or {})}
    if spec.get("node"):
        pod_spec["nodeName"] = spec["node"]
    if spec.get("affinity"):
        pod_spec["affinity"] = spec["affinity"]
    meta = {"name": spec.get("name", name), "namespace": spec.get("namespace", "default"),
            "labels": dict(spec.get("labels") or {}), "creationTimestamp": "2026-01-01T00:00:00Z"}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": pod_spec, "status": {"phase": "Running"}}


def _state(case: dict[str, Any], namespaces: dict[str, Any]) -> tuple[SchedState, list[str]]:
    facts = {name: NodeFacts.of(node(name, labels=labels)) for name, labels in case["nodes"]}
    state = SchedState(facts)
    state.namespaces = namespaces
    for i, existing in enumerate(case.get("pods") or ()):
        state.add_pod(build_pod_info(_pod(existing, f"existing-{i}")), existing["node"])
    return state, [name for name, _ in case["nodes"]]


@pytest.mark.parametrize("case", AFFINITY["cases"], ids=lambda c: c["name"])
def test_inter_pod_affinity_scores(case):
    state, nodes = _state(case, AFFINITY["namespaces"])
    pod = build_pod_info(_pod(case["pod"], "incoming"))
    if case.get("ignorePreferredTermsOfExistingPods"):
        pod.profile = replace(DEFAULT_PROFILE, ignore_preferred_terms_of_existing_pods=True)
    scores = inter_pod_affinity_scores(pod, state, nodes)
    assert scores is None if case.get("skip") else [scores[n] for n in nodes] == case["scores"]


@pytest.mark.parametrize("case", SPREAD["cases"], ids=lambda c: c["name"])
def test_topology_spread_scores(case):
    state, nodes = _state(case, {})
    pod = build_pod_info(_pod(case["pod"], "incoming"))
    feasible = case.get("feasible") or nodes
    scores = topology_spread_scores(pod, state, feasible)
    assert scores is None if case.get("skip") else [scores[n] for n in feasible] == case["scores"]
