"""Table tests for allocate_claims: requests, pools, taints, capacity, counters, constraints, funnel and errors.

Cases named "upstream: ..." transcribe scenarios of kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/
structured/internal/allocatortesting/allocator_testing.go (release-1.37) with our own objects.
"""

from __future__ import annotations

from typing import Any

import pytest
from dra_objects import (
    DRIVER,
    GPU_CLASS,
    allocated,
    claim,
    device,
    device_class,
    first_available,
    node,
    request,
    resource_slice,
    subrequest,
)

from kubectl_wasdra.dra import Allocation, AllocationFailure, DeviceUsage, Inventory, allocate_claims
from kubectl_wasdra.reasons import Reason

NUMA = "resource.kubernetes.io/numaNode"


def run(slices: list[dict], claims: list[dict], *, classes: tuple = (GPU_CLASS,), existing: tuple = (),
        rules: tuple = (), target: dict | None = None, namespaces: tuple = (), **options: Any
        ) -> Allocation | AllocationFailure:
    inventory = Inventory(slices=slices, classes=classes, taint_rules=rules, namespaces=namespaces)
    return allocate_claims(claims, target or node(), inventory, DeviceUsage.from_claims(existing), **options)


def picked(outcome: Allocation | AllocationFailure) -> list[list[str]]:
    assert isinstance(outcome, Allocation), getattr(outcome, "message", outcome)
    return [[f"{r.request}:{r.device}" for r in results] for results in outcome.results]


def gpus(n: int, **extra: Any) -> list[dict]:
    return [device(f"gpu-{i}", attributes={NUMA: i // 2}, **extra) for i in range(n)]


ONE_NODE = [resource_slice("node-1-gpus", gpus(4))]


@pytest.mark.parametrize(("slices", "claims", "existing", "expected"), [
    pytest.param(ONE_NODE, [claim("c", request("r", count=2))], (), [["r:gpu-0", "r:gpu-1"]], id="upstream: simple"),
    pytest.param(ONE_NODE, [claim("c1", request("r")), claim("c2", request("r", count=2))], (),
                 [["r:gpu-0"], ["r:gpu-1", "r:gpu-2"]], id="upstream: several claims pick in order"),
    pytest.param(ONE_NODE, [claim("c", request("r", count=2))], (claim("old", results=allocated("gpu-0", "gpu-2")),),
                 [["r:gpu-1", "r:gpu-3"]], id="upstream: some devices allocated"),
    pytest.param(ONE_NODE, [claim("c", request("r", allocationMode="All"))], (),
                 [["r:gpu-0", "r:gpu-1", "r:gpu-2", "r:gpu-3"]], id="upstream: all-devices"),
    pytest.param(ONE_NODE, [claim("c", request("a", count=1, selectors=['device.attributes["resource.kubernetes.io"]'
                                                                          '.numaNode == 1']), request("b", count=1))], (),
                 [["a:gpu-2", "b:gpu-0"]], id="request selector"),
    pytest.param([resource_slice("b-slice", [device("gpu-1")]), resource_slice("a-slice", [device("gpu-0")], count=2)],
                 [claim("c", request("r", count=2))], (), [["r:gpu-0", "r:gpu-1"]],
                 id="upstream: devices split across slices sorted by slice name"),
    pytest.param([resource_slice("s-old", [device("old")], generation=1), resource_slice("s-new", [device("new")],
                                                                                        generation=2)],
                 [claim("c", request("r"))], (), [["r:new"]], id="upstream: obsolete slice ignored"),
    pytest.param([resource_slice("shared", [device("net-0")], node=None, pool="net", allNodes=True)],
                 [claim("c", request("r"))], (), [["r:net-0"]], id="upstream: network-attached device (allNodes)"),
])
def test_allocates(slices: list, claims: list, existing: tuple, expected: list) -> None:
    assert picked(run(slices, claims, existing=existing)) == expected


def test_first_available_falls_back_to_the_next_subrequest() -> None:
    big = subrequest("big", count=8)
    small = subrequest("small", count=2)
    outcome = run(ONE_NODE, [claim("c", first_available("r", big, small))])
    assert picked(outcome) == [["r/small:gpu-0", "r/small:gpu-1"]]
    assert isinstance(outcome, Allocation)
    assert outcome.results[0][0].subrequest == "small"
    assert outcome.prioritized_list_score == 7  # second alternative: 8 - 1


def test_first_available_backtracks_across_claims() -> None:
    """upstream: prioritized list where the first subrequest of one claim blocks a later claim."""
    claims = [claim("c1", first_available("r", subrequest("two", count=2), subrequest("one", count=1))),
              claim("c2", request("r", count=3))]
    assert picked(run(ONE_NODE, claims)) == [["r/one:gpu-0"], ["r:gpu-1", "r:gpu-2", "r:gpu-3"]]


@pytest.mark.parametrize(("claims", "existing", "reason", "short"), [
    pytest.param([claim("c", request("r", count=5))], (), Reason.NO_MATCHING_DEVICES, "visible",
                 id="upstream: not enough devices"),
    pytest.param([claim("c", request("r", count=3))], (claim("o", results=allocated("gpu-0", "gpu-1")),),
                 Reason.DEVICES_ALLOCATED, "free", id="devices allocated"),
    pytest.param([claim("c", request("r", count=1, selectors=['device.attributes["x.example.com"].?y.orValue(0) == 1']))],
                 (), Reason.NO_MATCHING_DEVICES, "selected", id="selector matches nothing"),
    pytest.param([claim("c", request("r", count=3), constraints=[{"matchAttribute": NUMA}])], (),
                 Reason.CONSTRAINT_UNSATISFIABLE, "constraints", id="upstream: with-constraint not enough on one NUMA"),
])
def test_funnel_first_short_stage(claims: list, existing: tuple, reason: Reason, short: str) -> None:
    outcome = run(ONE_NODE, claims, existing=existing)
    assert isinstance(outcome, AllocationFailure)
    assert not outcome.fatal
    assert outcome.reason == reason
    assert outcome.funnel is not None and outcome.funnel.first_short == short


def test_funnel_counts_in_allocator_order() -> None:
    existing = (claim("o", results=allocated("gpu-0")),)
    outcome = run(ONE_NODE, [claim("c", request("r", count=3, selectors=[
        'device.attributes["resource.kubernetes.io"].numaNode == 1']))], existing=existing)
    assert isinstance(outcome, AllocationFailure) and outcome.funnel is not None
    assert [(s.name, s.count) for s in outcome.funnel.stages] == [
        ("visible", 4), ("free", 3), ("selected", 2), ("capacity", 2), ("counters", 2), ("untainted", 2),
        ("constraints", 2)]
    assert outcome.funnel.first_short == "selected"
    assert "4 in usable pools on the node, 3 not allocated, 2 match the class and selectors" in outcome.message


def test_funnel_names_the_claims_holding_devices() -> None:
    existing = (claim("busy", results=allocated("gpu-0", "gpu-1")),)
    outcome = run(ONE_NODE, [claim("c", request("r", count=3))], existing=existing)
    assert isinstance(outcome, AllocationFailure) and outcome.funnel is not None
    assert outcome.funnel.details["inUse"] == (f"{DRIVER}/node-1/gpu-0 (held by default/busy), "
                                               f"{DRIVER}/node-1/gpu-1 (held by default/busy)")
    assert "(in use: gpu.example.com/node-1/gpu-0 (held by default/busy)" in outcome.message


def test_admin_access_may_use_allocated_devices() -> None:
    existing = (claim("o", results=allocated("gpu-0", "gpu-1", "gpu-2", "gpu-3")),)
    outcome = run(ONE_NODE, [claim("c", request("r", count=2, adminAccess=True), namespace="admin")], existing=existing)
    assert picked(outcome) == [["r:gpu-0", "r:gpu-1"]]
    assert isinstance(outcome, Allocation) and outcome.claims[0].status()["devices"]["results"][0]["adminAccess"] is True
    assert len(outcome.apply(DeviceUsage())) == 0  # admin allocations never block anyone


@pytest.mark.parametrize(("effect", "tolerations", "fits"), [
    ("NoSchedule", [], False),
    ("NoExecute", [], False),
    ("None", [], True),
    ("NoSchedule", [{"key": "example.com/broken", "operator": "Exists"}], True),
    ("NoSchedule", [{"key": "example.com/broken", "value": "other"}], False),
    ("NoExecute", [{"key": "example.com/broken", "value": "yes", "effect": "NoSchedule"}], False),
    ("NoExecute", [{"operator": "Exists"}], True),
])
def test_device_taints(effect: str, tolerations: list, fits: bool) -> None:
    taint = {"key": "example.com/broken", "value": "yes", "effect": effect}
    slices = [resource_slice("s", [device("gpu-0", taints=[taint])])]
    outcome = run(slices, [claim("c", request("r", tolerations=tolerations))])
    assert isinstance(outcome, Allocation) is fits
    if not fits:
        assert isinstance(outcome, AllocationFailure) and outcome.reason == Reason.DEVICE_TAINTED
        assert outcome.funnel is not None and outcome.funnel.details["device"] == f"{DRIVER}/node-1/gpu-0"
        assert "example.com/broken=yes" in outcome.message


def test_extra_tolerations_answer_what_if_questions() -> None:
    slices = [resource_slice("s", [device("gpu-0", taints=[{"key": "ecc", "value": "bad", "effect": "NoSchedule"}])])]
    assert isinstance(run(slices, [claim("c", request("r"))]), AllocationFailure)
    assert isinstance(run(slices, [claim("c", request("r"))], tolerations=[{"key": "ecc", "operator": "Exists"}]),
                      Allocation)


def test_device_taint_rule_applies_to_matching_devices() -> None:
    rule = {"kind": "DeviceTaintRule", "metadata": {"name": "drain"},
            "spec": {"deviceSelector": {"driver": DRIVER, "device": "gpu-0"}, "taint": {"key": "drain", "effect": "NoSchedule"}}}
    outcome = run(ONE_NODE, [claim("c", request("r"))], rules=(rule,))
    assert picked(outcome) == [["r:gpu-1"]]
    blocked = run([resource_slice("s", [device("gpu-0")])], [claim("c", request("r"))], rules=(rule,))
    assert isinstance(blocked, AllocationFailure) and blocked.funnel is not None
    assert blocked.funnel.details["deviceTaintRule"] == "drain"


@pytest.mark.parametrize(("slices", "reason", "fatal"), [
    pytest.param([resource_slice("s", [device("gpu-0")], count=2)], Reason.POOL_INCOMPLETE, False,
                 id="upstream: incomplete pool offers nothing"),
    pytest.param([resource_slice("s1", [device("gpu-0")], count=2, generation=1),
                  resource_slice("s2", [device("gpu-1")], count=2, generation=2)], Reason.POOL_INCOMPLETE, False,
                 id="mixed generations keep only the newest, which is incomplete"),
])
def test_incomplete_pools(slices: list, reason: Reason, fatal: bool) -> None:
    outcome = run(slices, [claim("c", request("r"))])
    assert isinstance(outcome, AllocationFailure)
    assert (outcome.reason, outcome.fatal) == (reason, fatal)


def test_all_mode_over_incomplete_pool_is_fatal() -> None:
    outcome = run([resource_slice("s", [device("gpu-0")], count=2)], [claim("c", request("r", allocationMode="All"))])
    assert isinstance(outcome, AllocationFailure) and outcome.fatal
    assert "asks for all devices, but resource pool gpu.example.com/node-1 is currently being updated" in outcome.message


def test_all_mode_fails_when_one_device_is_in_use() -> None:
    outcome = run(ONE_NODE, [claim("c", request("r", allocationMode="All"))],
                  existing=(claim("o", results=allocated("gpu-3")),))
    assert isinstance(outcome, AllocationFailure) and not outcome.fatal


def test_invalid_pool_message() -> None:
    slices = [resource_slice("s1", [device("gpu-0")], count=2), resource_slice("s2", [device("gpu-0")], count=2)]
    outcome = run(slices, [claim("c", request("r"))])
    assert isinstance(outcome, AllocationFailure)
    assert outcome.message.startswith("invalid resource pools were encountered")


def test_node_selection_of_shared_slices() -> None:
    slices = [resource_slice("sel", [device("rack-gpu")], node=None, pool="rack",
                             nodeSelector={"nodeSelectorTerms": [{"matchExpressions": [
                                 {"key": "rack", "operator": "In", "values": ["a"]}]}]})]
    outcome = run(slices, [claim("c", request("r"))], target=node("node-1", rack="a"))
    assert picked(outcome) == [["r:rack-gpu"]]
    assert isinstance(outcome, Allocation)
    assert outcome.claims[0].node_selector == {"nodeSelectorTerms": [{"matchExpressions": [
        {"key": "rack", "operator": "In", "values": ["a"]}]}]}
    assert isinstance(run(slices, [claim("c", request("r"))], target=node("node-1", rack="b")), AllocationFailure)


def test_per_device_node_selection() -> None:
    slices = [resource_slice("pd", [device("a", nodeName="node-1"), device("b", nodeName="node-2")], node=None,
                             pool="pd", perDeviceNodeSelection=True)]
    assert picked(run(slices, [claim("c", request("r"))], target=node("node-2"))) == [["r:b"]]


def test_node_local_device_pins_the_node() -> None:
    outcome = run(ONE_NODE, [claim("c", request("r"))])
    assert isinstance(outcome, Allocation)
    assert outcome.claims[0].status()["nodeSelector"]["nodeSelectorTerms"][0]["matchFields"][0]["values"] == ["node-1"]


def test_match_attribute_backtracks_to_a_common_numa_node() -> None:
    """gpu-0 is NUMA 0 but the only NIC is on NUMA 1: the search must drop gpu-0 and try again."""
    slices = [resource_slice("s", [*gpus(4), device("nic-0", attributes={NUMA: 1, "kind": "nic"})])]
    classes = (device_class("gpu", 'device.attributes["gpu.example.com"].?kind.orValue("gpu") == "gpu"'),
               device_class("nic", 'device.attributes["gpu.example.com"].?kind.orValue("") == "nic"'))
    claims = [claim("c", request("gpu", count=2), request("nic", "nic"),
                    constraints=[{"requests": ["gpu", "nic"], "matchAttribute": NUMA}])]
    assert picked(run(slices, claims, classes=classes)) == [["gpu:gpu-2", "gpu:gpu-3", "nic:nic-0"]]


def test_match_attribute_needs_the_fully_qualified_name() -> None:
    slices = [resource_slice("s", [device("gpu-0", attributes={"numaNode": 0})])]
    outcome = run(slices, [claim("c", request("r"), constraints=[{"matchAttribute": NUMA}])])
    assert isinstance(outcome, AllocationFailure)  # unqualified numaNode is in the driver's domain, not resource.kubernetes.io
    qualified = run(slices, [claim("c", request("r"), constraints=[{"matchAttribute": f"{DRIVER}/numaNode"}])])
    assert isinstance(qualified, Allocation)


def test_distinct_attribute() -> None:
    slices = [resource_slice("s", [device(f"gpu-{i}", attributes={"pcieRoot": f"pci{i // 2}"}) for i in range(4)])]
    constraint = [{"distinctAttribute": f"{DRIVER}/pcieRoot"}]
    assert picked(run(slices, [claim("c", request("r", count=2), constraints=constraint)])) == [["r:gpu-0", "r:gpu-2"]]
    outcome = run(slices, [claim("c", request("r", count=3), constraints=constraint)])
    assert isinstance(outcome, AllocationFailure) and outcome.reason == Reason.CONSTRAINT_UNSATISFIABLE


@pytest.mark.parametrize(("claims", "reason", "text"), [
    pytest.param([claim("c", request("r", "missing"))], Reason.DEVICE_CLASS_NOT_FOUND,
                 "request r: device class missing does not exist", id="unknown class"),
    pytest.param([claim("c", request("r", selectors=["device.attributes['gpu.example.com'].nope == 1"]))],
                 Reason.SELECTOR_ERROR, "claim default/c: selector #0 on device gpu.example.com/node-1/gpu-0: CEL runtime "
                 "error: no such key: nope", id="upstream: invalid CEL on one device"),
    pytest.param([claim("c", request("r", selectors=["device.driver =="]))], Reason.SELECTOR_ERROR,
                 "claim default/c: selector #0: CEL compile error: 1:17: Syntax error", id="compile error"),
    pytest.param([claim("c", request("r", count=33))], Reason.NO_MATCHING_DEVICES,
                 "claim default/c: number of requested devices 33 exceeds the claim limit of 32",
                 id="upstream: too many devices"),
    pytest.param([claim("c", request("r"), constraints=[{"requests": ["r"]}])], Reason.CONSTRAINT_UNSATISFIABLE,
                 "constraint #0: empty constraint (unsupported constraint type?)", id="unknown constraint"),
])
def test_errors_before_search(claims: list, reason: Reason, text: str) -> None:
    outcome = run(ONE_NODE, claims)
    assert isinstance(outcome, AllocationFailure)
    assert outcome.fatal == (reason != Reason.DEVICE_CLASS_NOT_FOUND) and outcome.reason == reason
    assert text in outcome.message


def test_class_config_and_claim_config_in_result() -> None:
    classes = (device_class("gpu", "true", config=[{"opaque": {"driver": DRIVER, "parameters": {"a": 1}}}]),)
    claims = [claim("c", request("r1"), request("r2"),
                    config=[{"requests": ["r2"], "opaque": {"driver": DRIVER, "parameters": {"b": 2}}}])]
    outcome = run(ONE_NODE, claims, classes=classes)
    assert isinstance(outcome, Allocation)
    config = outcome.claims[0].status()["devices"]["config"]
    assert config == [{"source": "FromClass", "opaque": {"driver": DRIVER, "parameters": {"a": 1}}},
                      {"source": "FromClaim", "requests": ["r2"], "opaque": {"driver": DRIVER, "parameters": {"b": 2}}}]


def test_usage_ledger_is_copy_on_write() -> None:
    inventory = Inventory(slices=ONE_NODE, classes=[GPU_CLASS])
    usage = DeviceUsage()
    first = allocate_claims([claim("c", request("r", count=3))], node(), inventory, usage)
    assert isinstance(first, Allocation)
    after = first.apply(usage)
    assert len(usage) == 0 and len(after) == 3
    again = allocate_claims([claim("d", request("r", count=2))], node(), inventory, after)
    assert isinstance(again, AllocationFailure) and again.reason == Reason.DEVICES_ALLOCATED


def test_all_mode_funnel_counts_the_listed_devices() -> None:
    slices = [resource_slice("s", [*gpus(2), device("nic-0", attributes={"kind": "nic"})])]
    classes = (device_class("gpu", 'device.attributes["gpu.example.com"].?kind.orValue("gpu") == "gpu"'),)
    outcome = run(slices, [claim("c", request("r", allocationMode="All"))], classes=classes,
                  existing=(claim("o", results=allocated("gpu-1")),))
    assert isinstance(outcome, AllocationFailure) and outcome.funnel is not None
    assert outcome.reason == Reason.DEVICES_ALLOCATED
    assert [(s.name, s.count) for s in outcome.funnel.stages][:2] == [("visible", 2), ("free", 1)]
    nothing = run(slices, [claim("c", request("r", "gpu", allocationMode="All", selectors=["false"]))], classes=classes)
    assert isinstance(nothing, AllocationFailure) and nothing.reason == Reason.NO_MATCHING_DEVICES


def test_requests_needing_more_devices_than_exist_are_rejected_without_search() -> None:
    slices = [resource_slice("s", gpus(4))]
    outcome = run(slices, [claim("c", request("a", count=2), request("b", count=3))])
    assert isinstance(outcome, AllocationFailure) and outcome.reason == Reason.NO_MATCHING_DEVICES
    assert "need 5 devices together, 4 match and are free" in outcome.message


def test_search_is_bounded_and_reports_the_scheduler_timeout() -> None:
    """16 devices must share a NUMA node that has 15: every request fits alone, the search space does not."""
    slices = [resource_slice("s", [device(f"d{i:02d}", attributes={NUMA: i % 2}) for i in range(30)])]
    claims = [claim("c", request("a", count=8), request("b", count=8), constraints=[{"matchAttribute": NUMA}])]
    outcome = run(slices, claims, step_limit=5_000)
    assert isinstance(outcome, AllocationFailure) and not outcome.fatal
    assert outcome.message == "timed out trying to allocate devices" and outcome.details == {"timeout": True}


def test_distinct_attribute_remembers_only_the_previous_device_of_a_request() -> None:
    """Quirk kept from 1.37: values are recorded per base request name, so a third device may repeat the first's."""
    slices = [resource_slice("s", [device(f"gpu-{i}", attributes={"pcieRoot": root}) for i, root in
                                   enumerate(["pci0", "pci1", "pci0"])])]
    outcome = run(slices, [claim("c", request("r", count=3), constraints=[{"distinctAttribute": f"{DRIVER}/pcieRoot"}])])
    assert picked(outcome) == [["r:gpu-0", "r:gpu-1", "r:gpu-2"]]
    across = run(slices, [claim("c", request("a"), request("b"), request("x"),
                                constraints=[{"distinctAttribute": f"{DRIVER}/pcieRoot"}])])
    assert isinstance(across, AllocationFailure)  # across requests every recorded value counts


def _from_template(name: str, spec: dict) -> dict:
    """A claim made from a ResourceClaimTemplate: its own name, the template's spec object (sched/claims.py)."""
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": name, "namespace": "default"}, "spec": spec}


def test_claims_of_one_template_share_request_data_but_keep_their_names() -> None:
    """Request data is built once per template spec (capacity places thousands of copies), yet each claim's
    allocation is its own and a claim's own selector still names that claim in its error."""
    inventory = Inventory(slices=ONE_NODE, classes=(GPU_CLASS,))
    usage = DeviceUsage.from_claims(())
    spec = claim("t", request("r"))["spec"]
    first = allocate_claims([_from_template("pod-a-gpu", spec)], node(), inventory, usage)
    second = allocate_claims([_from_template("pod-b-gpu", spec)], node(), inventory, usage)
    assert isinstance(first, Allocation) and isinstance(second, Allocation)
    assert [c.claim["metadata"]["name"] for c in second.claims] == ["pod-b-gpu"]
    assert picked(second) == [["r:gpu-0"]]
    bad = claim("t", request("r", selectors=["device.attributes['gpu.example.com'].nope == 1"]))["spec"]
    allocate_claims([_from_template("pod-a-gpu", bad)], node(), inventory, usage)
    failure = allocate_claims([_from_template("pod-b-gpu", bad)], node(), inventory, usage)
    assert isinstance(failure, AllocationFailure)
    assert failure.message.startswith("claim default/pod-b-gpu: selector #0"), failure.message
