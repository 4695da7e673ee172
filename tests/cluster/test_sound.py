"""cluster/sound.py says yes only where shape.py finds no problem, and says it for well-formed objects.

Every field of sample objects of each checked kind is replaced, one at a time, by values of the wrong type (and by
values that are no quantity): whenever the quick check accepts the mutated object, shape.py must find nothing wrong
with it; and the quick check must turn down every object shape.py rejects.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.cluster.shape import shape_problem
from kubectl_wasdra.cluster.sound import sound

POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns", "labels": {"app": "x"}},
       "spec": {"nodeName": "n1", "containers": [
           {"name": "c", "resources": {"requests": {"cpu": "2", "memory": "8Gi"}, "limits": {"memory": "8Gi"}}}],
                "initContainers": [{"name": "i", "resources": {"requests": {"cpu": 1}}}],
                "overhead": {"cpu": "250m"}, "resources": {"requests": {"cpu": 0.5}},
                "resourceClaims": [{"name": "gpu", "resourceClaimName": "p-gpu"}]},
       "status": {"phase": "Running"}}
NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
        "spec": {"taints": [{"key": "k", "effect": "NoSchedule"}]},
        "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": 110}}}
SLICE = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
         "spec": {"driver": "gpu.example.com", "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
                  "nodeName": "n1",
                  "sharedCounters": [{"name": "mem", "counters": {"memory": {"value": "80Gi"}}}],
                  "devices": [{"name": "gpu-0", "attributes": {"resource.kubernetes.io/numaNode": {"int": 0}},
                               "capacity": {"memory": {"value": "40Gi"}},
                               "consumesCounters": [{"counterSet": "mem", "counters": {"memory": {"value": "40Gi"}}}]}]}}
CLAIM = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "p-gpu", "namespace": "ns"},
         "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]}},
         "status": {"allocation": {"devices": {"results": [
             {"request": "gpu", "driver": "gpu.example.com", "pool": "n1", "device": "gpu-0",
              "consumedCapacity": {"memory": "10Gi"}}]},
             "nodeSelector": {"nodeSelectorTerms": [
                 {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}],
                  "matchExpressions": [{"key": "zone", "operator": "Exists"}]}]}},
             "reservedFor": [{"resource": "pods", "name": "p", "uid": "u"}]}}
TAINT_RULE = {"apiVersion": "resource.k8s.io/v1alpha3", "kind": "DeviceTaintRule", "metadata": {"name": "t"},
              "spec": {"deviceSelector": {"driver": "gpu.example.com"}, "taint": {"key": "k", "effect": "NoSchedule"}}}
CLASS = {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu.example.com"}, "spec": {}}
SAMPLES = [POD, NODE, SLICE, CLAIM, TAINT_RULE, CLASS]
WRONG = [None, 0, 1.5, True, "", "x", "not-a-quantity", [], [1], ["x"], {}, {"a": 1}, {"value": "1Ki"}]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside `value` (map keys and list indexes), the root excluded."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield (*path, key)
        yield from _paths(inner, (*path, key))


def _replaced(obj: dict[str, Any], path: tuple[Any, ...], new: Any) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return out


@pytest.mark.parametrize("obj", SAMPLES, ids=[s["kind"] for s in SAMPLES])
def test_well_formed_objects_are_accepted_by_both(obj: dict[str, Any]) -> None:
    assert shape_problem(obj) is None
    assert sound(obj) is (obj["kind"] != "DeviceTaintRule")  # a kind left to shape.py alone


@pytest.mark.parametrize("obj", SAMPLES, ids=[s["kind"] for s in SAMPLES])
def test_no_mutated_object_is_accepted_that_shape_rejects(obj: dict[str, Any]) -> None:
    rejected = 0
    for path in _paths(obj):
        for new in WRONG:
            mutated = _replaced(obj, path, new)
            problem = shape_problem(mutated)
            if problem is not None:
                rejected += 1
                assert not sound(mutated), (path, new, problem)
    assert rejected > 20  # the mutations reach fields shape.py checks


def test_not_objects_and_missing_names_are_left_to_shape() -> None:
    for obj in ([], "Pod", None, {**POD, "metadata": {"namespace": "ns"}}, {**POD, "kind": 3}):
        assert not sound(obj)
        assert shape_problem(obj) is not None


def test_the_builder_still_reports_a_malformed_object_with_its_path() -> None:
    builder = SnapshotBuilder()
    bad = _replaced(POD, ("spec", "containers", 0, "resources", "requests", "cpu"), "two")
    assert builder.add(POD) is None
    problem = builder.add(bad)
    assert problem is not None and problem[0] == ("spec", "containers", 0, "resources", "requests", "cpu")
    assert len(builder.objects["Pod"]) == 1
