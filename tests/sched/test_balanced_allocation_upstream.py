"""NodeResourcesBalancedAllocation against upstream's test table (fixtures/sched/upstream-scores/balancedallocation.yaml):
the 1.36+ scores and, where the older table had the case, the 1.35 scores, computed from real PodInfo, NodeFacts
and a SchedState with the existing pods added."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from builders import node, pod

from kubectl_wasdra.sched.nodeinfo import NodeFacts
from kubectl_wasdra.sched.podinfo import build_pod_info
from kubectl_wasdra.sched.scoring import BALANCED_RESOURCES, balanced_allocation
from kubectl_wasdra.sched.state import SchedState

TABLE = Path(__file__).resolve().parents[2] / "fixtures" / "sched" / "upstream-scores" / "balancedallocation.yaml"
CASES = yaml.safe_load(TABLE.read_text())["cases"]


def _pod(name: str, containers: list[dict[str, str]], node_name: str = "") -> dict[str, Any]:
    """A pod with one container per request map, as upstream's chained st.MakePod().Req(...) calls build it."""
    out = pod(name, cpu=None, node_name=node_name)
    out["spec"]["containers"] = [{"name": f"c{i}", "image": "busybox", "resources": {"requests": dict(requests)}}
                                 for i, requests in enumerate(containers)]
    return out


def _scores(case: dict[str, Any], minor: int) -> list[int]:
    facts = {}
    for name, milli_cpu, memory, *extended in case["nodes"]:
        facts[name] = NodeFacts.of(node(name, cpu=f"{milli_cpu}m", memory=str(memory), extra=extended[0] if extended else None))
    state = SchedState(facts, minor=minor)
    for i, existing in enumerate(case.get("pods") or ()):
        state.add_pod(build_pod_info(_pod(f"existing-{i}", existing["containers"], existing["node"])), existing["node"])
    incoming = build_pod_info(_pod("incoming", case["pod"]))
    resources = tuple(case.get("resources") or BALANCED_RESOURCES)
    return [balanced_allocation(incoming.requests, state.node(name).requested, facts[name].allocatable, resources, minor)
            for name in facts]


@pytest.mark.parametrize("case", [c for c in CASES if "score" in c], ids=lambda c: c["name"])
@pytest.mark.parametrize("minor", [36, 37])
def test_scores_since_1_36(case, minor):
    assert _scores(case, minor) == case["score"]


@pytest.mark.parametrize("case", [c for c in CASES if "score_1_35" in c], ids=lambda c: c["name"])
@pytest.mark.parametrize("minor", [33, 35])
def test_scores_up_to_1_35(case, minor):
    assert _scores(case, minor) == case["score_1_35"]


@pytest.mark.parametrize("case", [c for c in CASES if c.get("preScore") == "skip"], ids=lambda c: c["name"])
def test_best_effort_pods_are_not_scored(case):
    assert _scores(case, 37) == [0] * len(case["nodes"])
