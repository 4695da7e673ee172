"""Malformed objects (wrong types anywhere) never crash the inventory or the allocator."""

from __future__ import annotations

import pytest
from dra_objects import DRIVER, GPU_CLASS, node
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_wasdra.dra import AllocationFailure, DeviceUsage, Inventory, allocate_claims

BAD_SLICES = [
    {"metadata": {"name": "s"}, "spec": {"driver": DRIVER, "pool": {"name": "p", "generation": "x", "resourceSliceCount": None},
                                         "nodeName": "node-1", "devices": [{"name": "a", "attributes": {"x": "notadict"},
                                                                            "capacity": {"m": {"value": "bogus"}}}]}},
    {"metadata": {"name": "s2"}, "spec": {"driver": DRIVER, "pool": None, "nodeName": "node-1",
                                          "devices": [{"attributes": None}]}},
    {"metadata": None, "spec": None},
    {"metadata": {"name": "s3"}, "spec": {"driver": DRIVER, "pool": {"name": "q"}, "nodeName": "node-1",
                                          "devices": [{"name": "c", "taints": [{"key": "k", "effect": "NoSchedule"}, "junk"],
                                                       "consumesCounters": [{"counterSet": "x",
                                                                             "counters": {"a": {"value": "zz"}}}]}],
                                          "sharedCounters": [{"name": "x", "counters": None}]}},
    {"metadata": {"name": "s4"}, "spec": {"driver": DRIVER, "pool": {"name": "r"}, "nodeSelector": "nope", "devices": "many"}},
]
BAD_REQUESTS = [
    {"name": "r", "exactly": {"deviceClassName": "gpu", "count": "two"}},
    {"name": "r", "exactly": {"deviceClassName": "gpu", "selectors": [{"cel": {"expression": 5}}]}},
    {"name": "r", "exactly": {"deviceClassName": "gpu", "capacity": {"requests": {"m": "bogus"}}}},
    {"name": "r", "exactly": {"deviceClassName": "gpu", "tolerations": [None]}},
    {"name": "r", "exactly": {"deviceClassName": "gpu", "count": -1}},
    {"name": "r", "exactly": "gpu"},
    {"name": "r", "firstAvailable": "gpu"},
    {"name": 7, "exactly": {"deviceClassName": ["gpu"]}},
]
CLAIMS = [{"metadata": {"name": "c"}, "spec": {"devices": {"requests": [request]}}} for request in BAD_REQUESTS] + [
    {"metadata": {"name": "c"}, "spec": {"devices": {"requests": None,
                                                     "constraints": [{"matchAttribute": "x/y", "requests": None}]}}},
    {"metadata": {"name": "c"}, "spec": None},
    {"metadata": "c", "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}],
                                          "constraints": "all", "config": [{"requests": 3}]}}},
]


@pytest.mark.parametrize("claim", CLAIMS)
@pytest.mark.parametrize("bad_slice", BAD_SLICES)
def test_malformed_objects_do_not_crash(bad_slice: dict, claim: dict) -> None:
    existing = [{"status": {"allocation": {"devices": {"results": [{"device": 3, "consumedCapacity": "x", "shareID": "s"}, 7]}}}}]
    inventory = Inventory(slices=[bad_slice, "junk"], classes=[GPU_CLASS, {"spec": None}], taint_rules=[{"spec": {"taint": "t"}}])
    outcome = allocate_claims([claim], node(), inventory, DeviceUsage.from_claims(existing))
    assert outcome is not None
    if isinstance(outcome, AllocationFailure):
        assert outcome.message


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=4),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
                        ["name", "spec", "devices", "attributes", "capacity", "value", "requests", "exactly", "count",
                         "deviceClassName", "pool", "nodeName", "allNodes", "int", "string"]), inner, max_size=4),
                    max_leaves=12)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["metadata", "spec"]), JSON), st.dictionaries(st.sampled_from(["metadata", "spec"]), JSON))
def test_random_shapes_do_not_crash(slice_obj: dict, claim: dict) -> None:
    inventory = Inventory(slices=[slice_obj], classes=[GPU_CLASS])
    assert allocate_claims([claim], node(), inventory, DeviceUsage()) is not None
