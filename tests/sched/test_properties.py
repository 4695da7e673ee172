"""Properties of any simulation: no node or device is over-committed, and a gang is placed fully (>= minCount) or not
at all."""

from __future__ import annotations

from collections import Counter

from builders import claim_template, device_class, node, pod, pod_group, resource_slice, run_all, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

GPU = "gpu.example.com"

nodes_st = st.lists(st.tuples(st.integers(1, 8), st.integers(0, 4), st.sampled_from(["r0", "r1"])), min_size=1, max_size=5)
groups_st = st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(1, 4), st.integers(0, 2),
                               st.booleans()), min_size=1, max_size=4)


def _cluster(nodes, groups):
    objects = [device_class(GPU, GPU), claim_template("one", GPU, 1), claim_template("two", GPU, 2)]
    for index, (cpu, gpus, rack) in enumerate(nodes):
        objects.append(node(f"n{index}", cpu=str(cpu), labels={"rack": rack}))
        if gpus:
            objects.append(resource_slice(f"n{index}", GPU, gpus))
    for index, (count, min_count, cpu, gpus, rack) in enumerate(groups):
        name = f"g{index}"
        objects.append(pod_group(name, min_count=min_count, topology_key="rack" if rack else None,
                                 created=f"2026-11-0{index + 1}T00:00:00Z"))
        claims = [{"name": "gpu", "resourceClaimTemplateName": ("one", "two")[gpus - 1]}] if gpus else []
        objects += [pod(f"{name}-{i}", group=name, cpu=str(cpu), claims=claims, created=f"2026-11-0{index + 1}T00:00:00Z")
                    for i in range(count)]
    return snapshot(*objects)


@settings(max_examples=40, deadline=None)
@given(nodes_st, groups_st)
def test_no_overcommit_and_gangs_all_or_nothing(nodes, groups):
    results = run_all(_cluster(nodes, groups))
    cpu_used: Counter[str] = Counter()
    devices: list[tuple[str, str]] = []
    for index, (count, min_count, cpu, _gpus, _rack) in enumerate(groups):
        result = results[f"g{index}"]
        placed = len(result.placement)
        assert placed == 0 or placed >= min_count, (placed, min_count)
        assert result.fits == (placed > 0)
        assert placed <= count
        for node_name in result.placement.values():
            cpu_used[node_name] += cpu
        for claim, claim_devices in result.claims.items():
            devices += [(d["pool"], d["device"]) for d in claim_devices]
            pod_key = claim.rsplit("-gpu", 1)[0]
            assert {d["pool"] for d in claim_devices} == {result.placement[pod_key]}, "devices on another node"
    for index, (cpu, _gpus, _rack) in enumerate(nodes):
        assert cpu_used[f"n{index}"] <= cpu
    assert len(devices) == len(set(devices)), "a device was given twice"
