"""Gate table per release and --feature-gates handling, against rules/feature-gates.yaml."""

from __future__ import annotations

import pytest

from kubectl_wasdra.catalog.gates import all_gates_on, effective_gates, gate_table, parse_feature_gates
from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.errors import UsageError

R133, R135, R136, R137 = Release(1, 33), Release(1, 35), Release(1, 36), Release(1, 37)


@pytest.mark.parametrize(("release", "gate", "stage", "default", "locked"), [
    (R135, "GenericWorkload", "alpha", False, False),
    (R137, "GenericWorkload", "beta", False, False),
    (R136, "GangScheduling", "alpha", False, False),
    (R137, "TopologyAwareWorkloadScheduling", "alpha", False, False),
    (R137, "DRAWorkloadResourceClaims", "beta", False, False),
    (R137, "DRAConsumableCapacity", "beta", True, False),
    (R135, "DRAConsumableCapacity", "alpha", False, False),
    (R137, "DRAResourceClaimDeviceStatus", "GA", True, True),
    (R137, "DRADeviceTaints", "GA", True, False),
    (R133, "DynamicResourceAllocation", "beta", False, False),
    (R137, "DynamicResourceAllocation", "GA", True, True),
    (R137, "DRAFractionalCapacityRange", "beta", False, False),
    (R137, "HPAScaleToZero", "beta", True, False),
    (R137, "MemoryQoS", "beta", True, False),
], ids=lambda v: str(v))
def test_stage_default_lock(release: Release, gate: str, stage: str, default: bool, locked: bool) -> None:
    info = gate_table(release).get(gate)
    assert info is not None
    assert (info.stage, info.default, info.locked) == (stage, default, locked)


def test_history_text() -> None:
    assert gate_table(R137).get("DRAResourceClaimDeviceStatus").since == "1.32 alpha, 1.33 beta, 1.37 GA"


@pytest.mark.parametrize(("release", "gate"), [(R137, "GangScheduling"), (R137, "WorkloadAwarePreemption"),
                                               (R133, "GenericWorkload"), (R137, "SchedulerQueueingHints"),
                                               (R137, "DRASharedConsumableCapacity")])
def test_gate_absent_from_release(release: Release, gate: str) -> None:
    assert gate not in gate_table(release)


@pytest.mark.parametrize("release", SUPPORTED, ids=str)
def test_defaults_are_consistent(release: Release) -> None:
    state = effective_gates(release, {})      # dependency check of the defaults must pass
    assert not state.overrides


def test_parse_like_the_components() -> None:
    assert parse_feature_gates("A=true, B=false,C=1,D=F") == {"A": True, "B": False, "C": True, "D": False}
    assert parse_feature_gates("") == {}
    with pytest.raises(UsageError, match="ParseBool"):
        parse_feature_gates("A=yes")
    with pytest.raises(UsageError, match="missing bool value"):
        parse_feature_gates("A")


def test_override_applies() -> None:
    state = effective_gates(R137, {"GenericWorkload": True, "DRAConsumableCapacity": False})
    assert state.enabled("GenericWorkload") and not state.enabled("DRAConsumableCapacity")
    assert state.is_overridden("GenericWorkload") and not state.is_overridden("DRADeviceTaints")
    assert state.enabled("DRADeviceTaints")


def test_unknown_gate_suggests_replacement() -> None:
    with pytest.raises(UsageError) as err:
        effective_gates(R137, {"GangScheduling": True})
    assert "merged into GenericWorkload" in err.value.message
    assert err.value.hint == "use GenericWorkload=true instead"


def test_gangscheduling_known_in_136_with_dependency() -> None:
    assert effective_gates(R136, {"GenericWorkload": True, "GangScheduling": True}).enabled("GangScheduling")
    with pytest.raises(UsageError, match="depends on GenericWorkload"):
        effective_gates(R136, {"GangScheduling": True})


def test_unknown_gate_typo_and_future_gate() -> None:
    with pytest.raises(UsageError) as err:
        effective_gates(R137, {"GenericWorkloads": True})
    assert err.value.hint == 'did you mean "GenericWorkload"?'
    with pytest.raises(UsageError, match=r"first exists in 1\.37"):
        effective_gates(R136, {"CompositePodGroup": True})


def test_locked_gate_non_default_is_usage_error() -> None:
    with pytest.raises(UsageError, match="locked to true"):
        effective_gates(R137, {"DynamicResourceAllocation": False})
    assert effective_gates(R137, {"DynamicResourceAllocation": True}).enabled("DynamicResourceAllocation")


def test_dependencies_checked() -> None:
    with pytest.raises(UsageError) as err:
        effective_gates(R137, {"CompositePodGroup": True, "GenericWorkload": True})
    assert "TopologyAwareWorkloadScheduling=true" in err.value.hint
    ok = {"CompositePodGroup": True, "GenericWorkload": True, "TopologyAwareWorkloadScheduling": True}
    assert effective_gates(R137, ok).enabled("CompositePodGroup")


def test_dependencies_enforced_from_135_only() -> None:
    # 1.33/1.34 components start with a gate on whose dependency is off (enforcement came with kubernetes#133697, 1.35)
    for release in (Release(1, 33), Release(1, 34)):
        state = effective_gates(release, {"InPlacePodVerticalScaling": False, "InPlacePodVerticalScalingExclusiveCPUs": True})
        assert state.enabled("InPlacePodVerticalScalingExclusiveCPUs")
    state = effective_gates(Release(1, 34), {"DRAResourceClaimDeviceStatus": False, "DRADeviceBindingConditions": True})
    assert state.enabled("DRADeviceBindingConditions")
    with pytest.raises(UsageError, match="depends on GenericWorkload"):
        effective_gates(R135, {"GangScheduling": True})


def test_all_alpha_meta_gate() -> None:
    state = effective_gates(R137, {"AllAlpha": True, "AllBeta": True})
    assert state.enabled("CompositePodGroup") and state.enabled("GenericWorkload")
    assert state.enabled("DynamicResourceAllocation")


def test_all_on() -> None:
    state = all_gates_on(R137)
    assert all(state.enabled(name) for name in state.table.gates)


def test_overrides_for_several_releases() -> None:
    from kubectl_wasdra.catalog.gates import overrides_for

    flags = {"GenericWorkload": True, "TopologyAwareWorkloadScheduling": True, "GenericWorkld": True}
    releases = (R135, R136, R137)
    assert overrides_for(R135, flags, releases) == {"GenericWorkload": True, "GenericWorkld": True}
    assert "TopologyAwareWorkloadScheduling" in overrides_for(R136, flags, releases)
    assert overrides_for(R135, flags, (R135,)) == flags          # one release: the components' strict behaviour
