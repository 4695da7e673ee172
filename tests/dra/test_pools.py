"""Pools one node sees: relevance, generations, completeness across nodes, validity and scan order (GatherPools)."""

from __future__ import annotations

import pytest
from dra_objects import device, node, resource_slice

from kubectl_wasdra.dra.inventory import Inventory
from kubectl_wasdra.dra.pools import gather_pools

LABELLED = {"nodeSelectorTerms": [{"matchExpressions": [{"key": "dra", "operator": "In", "values": ["yes"]}]}]}


def summary(slices: list[dict], target: dict, partitionable: bool = True) -> list[tuple[str, bool, str | None, list[str]]]:
    pools = gather_pools(Inventory(slices=slices), target, partitionable)
    return [(p.key, p.incomplete, p.invalid_reason, [d.name for s in p.device_slices for d in s.devices]) for p in pools.pools]


@pytest.mark.parametrize(("slices", "target", "expected"), [
    pytest.param([resource_slice("b", [device("x")], pool="pb"), resource_slice("a", [device("y")], pool="pa")], node(),
                 [("gpu.example.com/pa", False, None, ["y"]), ("gpu.example.com/pb", False, None, ["x"])],
                 id="pools sorted by driver and name"),
    pytest.param([resource_slice("n2", [device("x")], node="node-2")], node(), [], id="other node's slice is irrelevant"),
    pytest.param([resource_slice("sel", [device("x")], node=None, pool="p", nodeSelector=LABELLED)], node(dra="yes"),
                 [("gpu.example.com/p", False, None, ["x"])], id="node selector matches"),
    pytest.param([resource_slice("mine", [device("x")], pool="p", count=2),
                  resource_slice("theirs", [device("y")], node="node-2", pool="p", count=2)], node(),
                 [("gpu.example.com/p", False, None, ["x"])], id="complete across nodes, only this node's devices"),
    pytest.param([resource_slice("mine", [device("x")], pool="p", count=2),
                  resource_slice("newer", [device("y")], node="node-2", pool="p", count=1, generation=2)], node(), [],
                 id="newer generation elsewhere makes the pool obsolete"),
    pytest.param([resource_slice("mine", [device("x")], pool="p", count=3),
                  resource_slice("theirs", [device("y")], node="node-2", pool="p", count=3)], node(),
                 [("gpu.example.com/p", True, None, ["x"])], id="incomplete"),
    pytest.param([resource_slice("bind", [device("x", bindingConditions=["ready"])], pool="a"),
                  resource_slice("plain", [device("y")], pool="z")], node(),
                 [("gpu.example.com/z", False, None, ["y"]), ("gpu.example.com/a", False, None, ["x"])],
                 id="pools with binding conditions go last"),
    pytest.param([resource_slice("s", [device("x"), device("x")], pool="p")], node(),
                 [("gpu.example.com/p", False, "duplicate device name x", ["x", "x"])], id="duplicate device names"),
    pytest.param([resource_slice("s", [device("x")], node=None, pool="p")], node(), [],
                 id="no node selection at all: ignored"),
])
def test_gather_pools(slices: list, target: dict, expected: list) -> None:
    assert summary(slices, target) == expected


def test_partitionable_off_drops_per_device_and_counter_slices() -> None:
    slices = [resource_slice("pd", [device("x", allNodes=True)], node=None, pool="p", perDeviceNodeSelection=True),
              resource_slice("c", node="node-1", pool="q", sharedCounters=[{"name": "s", "counters": {"m": {"value": "1"}}}])]
    assert [p.key for p in gather_pools(Inventory(slices=slices), node(), True).pools] == ["gpu.example.com/p",
                                                                                           "gpu.example.com/q"]
    assert gather_pools(Inventory(slices=slices), node(), False).pools == []
