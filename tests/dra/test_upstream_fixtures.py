"""Allocator cases kept as YAML data under fixtures/dra/upstream/, each naming the upstream test it comes from.

A case gives gates, DeviceClasses, ResourceSlices, devices already allocated (with consumed capacity) and the claims to
allocate on node-1; `expect` is the picks per claim ({request, device, shared, and consumedCapacity,
bindingConditions, bindingFailureConditions, tolerations when the result carries them}), "unsatisfiable"
(the allocator finds nothing, no error), or {error: text} for a fatal allocator error or a per-node error message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_wasdra.catalog.releases import NEWEST
from kubectl_wasdra.dra import Allocation, AllocationFailure, DeviceUsage, Inventory, allocate_claims
from kubectl_wasdra.dra.features import Features
from kubectl_wasdra.sched.admission import make_gates

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dra" / "upstream"
NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1", "labels": {"region": "region-1"}}}


def _cases() -> list[Any]:
    cases = []
    for path in sorted(FIXTURES.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text())["cases"]:
            cases.append(pytest.param(case, id=f"{path.stem}:{case['name']}"))
    return cases


def _usage(case: dict[str, Any]) -> DeviceUsage:
    results = []
    for index, entry in enumerate(case.get("allocated") or ()):
        driver, pool = entry.get("driver", "driver-a"), entry.get("pool", "pool-1")
        result = {"request": "r", "driver": driver, "pool": pool, "device": entry["device"]}
        if "consumedCapacity" in entry:
            result |= {"shareID": f"00000000-0000-0000-0000-{index:012d}", "consumedCapacity": entry["consumedCapacity"]}
        results.append(result)
    old = {"metadata": {"name": "allocated", "namespace": "default"},
           "status": {"allocation": {"devices": {"results": results}}}}
    return DeviceUsage.from_claims([old]) if results else DeviceUsage()


def _picks(outcome: Allocation) -> list[list[dict[str, Any]]]:
    out = []
    for claim in outcome.claims:
        picks = []
        for result in claim.results:
            pick: dict[str, Any] = {"request": result.request, "device": result.device_key}
            if result.share_id:
                pick["shared"] = True
            status = result.status()
            for key in ("consumedCapacity", "bindingConditions", "bindingFailureConditions", "tolerations"):
                if key in status:
                    pick[key] = status[key]
            picks.append(pick)
        out.append(picks)
    return out


@pytest.mark.parametrize("case", _cases())
def test_upstream_allocator_case(case: dict[str, Any]) -> None:
    assert case["upstream"]
    features = Features.from_gates(make_gates(NEWEST, case.get("gates") or {}).enabled)
    inventory = Inventory(slices=case.get("slices") or [], classes=case.get("classes") or [])
    outcome = allocate_claims(case["claims"], case.get("node") or NODE, inventory, _usage(case), features=features)
    expect = case["expect"]
    if expect == "unsatisfiable":
        assert isinstance(outcome, AllocationFailure) and not outcome.fatal, getattr(outcome, "message", "")
        assert outcome.node_message == "cannot allocate all claims"
    elif "error" in expect:
        assert isinstance(outcome, AllocationFailure)
        assert expect["error"] in (outcome.node_message if not outcome.fatal else outcome.message)
    else:
        assert isinstance(outcome, Allocation), getattr(outcome, "message", "")
        assert _picks(outcome) == expect["results"]
