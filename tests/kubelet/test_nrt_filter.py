"""NodeResourceTopologyMatch against scheduler-plugins' own filter table (fixtures/noderesourcetopology_filter.yaml),
and enabled through --scheduler-config or --numa-aware-scheduler on the numa-gpu fixture."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from kubectl_wasdra.kube.quantity import parse_quantity
from kubectl_wasdra.sched.filters import node_resource_topology

HERE = Path(__file__).parent
TABLE = yaml.safe_load((HERE / "fixtures" / "noderesourcetopology_filter.yaml").read_text())
ROOT = HERE.parents[1]


def _node(name: str) -> Any:
    desc = TABLE["nodes"][name]
    zones, allocatable = [], {k: parse_quantity(v) for k, v in (desc.get("extra") or {}).items()}
    for index, zone in enumerate(desc["zones"]):
        resources = []
        for resource, pair in zone.items():
            capacity, available = pair.split("/")
            resources.append({"name": resource, "capacity": capacity, "allocatable": capacity, "available": available})
            allocatable[resource] = allocatable.get(resource, Decimal(0)) + parse_quantity(capacity)
        zones.append({"name": f"node-{index}", "type": "Node", "resources": resources})
    nrt = {"kind": "NodeResourceTopology", "metadata": {"name": name}, "topologyPolicies": desc["topologyPolicies"],
           "zones": zones}
    snapshot = SimpleNamespace(get=lambda kind, n, ns: nrt if (kind, n) == ("NodeResourceTopology", name) else None)
    return SimpleNamespace(name=name, state=SimpleNamespace(snapshot=snapshot), facts=SimpleNamespace(allocatable=allocatable))


@pytest.mark.parametrize("case", TABLE["cases"], ids=[c["name"] for c in TABLE["cases"]])
def test_filter_table(case: dict[str, Any]) -> None:
    resources = {"requests": case["pod"], "limits": case["pod"]} if case["pod"] else {}
    pod = SimpleNamespace(pod={"spec": {"containers": [{"name": "c", "resources": resources}]}})
    status = node_resource_topology.filter_node(pod, _node(case["node"]))
    assert (status.message if status else None) == case["want"]
    if status is not None:
        assert status.code.name == "UNSCHEDULABLE" and status.plugin == "NodeResourceTopologyMatch"


@pytest.mark.parametrize("flag", [["--scheduler-config", "fixtures/scheduler-config/numa-aware.yaml"],
                                  ["--numa-aware-scheduler"]])
def test_enabled_filter_steers_away_from_the_rejecting_kubelet(flag: list[str]) -> None:
    from kubectl_wasdra.explain.run import ExplainOptions, run_explain

    config = str(ROOT / flag[1]) if len(flag) == 2 else None
    options = ExplainOptions(files=[str(ROOT / "fixtures/manifests/numa/kubelet-rejects.yaml")],
                             snapshot=[str(ROOT / "fixtures/clusters/numa-gpu")], suggestions=False,
                             scheduler_config=config, numa_aware=len(flag) == 1)
    (group,) = run_explain(options).groups
    assert group.fits and group.pods == {"train-4cpu-2gpu": "numa-dp-1"}
    assert group.numa["train-4cpu-2gpu"]["containers"]["main"]["numa"] == [0]


def test_malformed_zones_are_left_out_not_a_crash() -> None:
    """NodeResourceTopology objects are not shape-checked: zones and resources that are no objects are skipped, as the
    kubelet stage (kubelet/facts.py) skips them."""
    nrt = {"kind": "NodeResourceTopology", "metadata": {"name": "n1"}, "topologyPolicies": ["SingleNUMANodeContainerLevel"],
           "zones": ["node-0", {"name": "node-0", "type": "Node", "resources": [
               {"name": "cpu", "capacity": "4", "allocatable": "4", "available": "2"},
               {"name": "memory", "capacity": "8Gi", "allocatable": "8Gi", "available": "4Gi"}, "cpu"]}]}
    snapshot = SimpleNamespace(get=lambda kind, n, ns: nrt if (kind, n) == ("NodeResourceTopology", "n1") else None)
    node = SimpleNamespace(name="n1", state=SimpleNamespace(snapshot=snapshot),
                           facts=SimpleNamespace(allocatable={"cpu": Decimal(4), "memory": parse_quantity("8Gi")}))

    def status(cpu: str) -> Any:
        resources = {"requests": {"cpu": cpu, "memory": "1Gi"}, "limits": {"cpu": cpu, "memory": "1Gi"}}
        return node_resource_topology.filter_node(SimpleNamespace(pod={"spec": {"containers": [
            {"name": "c", "resources": resources}]}}), node)

    assert status("2") is None
    assert status("3").message == "cannot align container"
