"""`kubectl wasdra gates`: table per release, area filter, diff, JSON; the 1.37 stages of the tracked KEPs."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kubectl_wasdra.cli import cli

# Stages for 1.37 as the code registers them (docs/MATRIX-NOTES.md explains where KEP tracking pages differ:
# 5732 and 6132 target beta in their kep.yaml, 2837 targets GA).
EXPECTED_137 = {
    "GenericWorkload": ("beta", False), "TopologyAwareWorkloadScheduling": ("alpha", False),
    "WorkloadWithJob": ("alpha", False), "CompositePodGroup": ("alpha", False),
    "SchedulerPreQueueingHints": ("alpha", False), "OpportunisticBatching": ("beta", True),
    "InPlacePodVerticalScalingSchedulerPreemption": ("alpha", False), "DRAConsumableCapacity": ("beta", True),
    "DRAWorkloadResourceClaims": ("beta", False), "DRANodeAllocatableResources": ("alpha", False),
    "DRADeviceCompatibilityGroups": ("alpha", False), "DRADerivedAttributes": ("alpha", False),
    "DRAResourceClaimDeviceStatus": ("GA", True), "DRAOptionalNodeOperations": ("alpha", False),
    "PodLevelResourceManagers": ("beta", False), "MemoryQoS": ("beta", True), "KubeletInUserNamespace": ("beta", True),
    "EvictionRequestAPI": ("alpha", False), "NodeLifecycleConditions": ("alpha", False),
    "HPAConfigurableTolerance": ("GA", True), "HPAScaleToZero": ("beta", True), "VolumeLimitScaling": ("beta", True),
    "DRAExtendedResource": ("GA", True), "DRADeviceTaints": ("GA", True), "DRAPrioritizedList": ("GA", True),
    "DRAPartitionableDevices": ("beta", True), "DRAAdminAccess": ("GA", True), "DRADeviceBindingConditions": ("beta", True),
}


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["gates", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_json_reproduces_137_stages() -> None:
    gates = {g["gate"]: (g["stage"], g["default"]) for g in json.loads(run("--k8s-version", "1.37", "-o", "json"))["gates"]}
    for name, state in EXPECTED_137.items():
        assert gates[name] == state, name


@pytest.mark.parametrize(("version", "present", "absent"), [
    ("1.35", "GangScheduling", "CompositePodGroup"), ("1.36", "WorkloadAwarePreemption", "PodGroupPreemptionPolicy"),
    ("1.37", "PodGroupPreemptionPolicy", "GangScheduling")])
def test_table_per_release(version: str, present: str, absent: str) -> None:
    text = run("--k8s-version", version, "--area", "scheduling")
    assert text.splitlines()[0].split() == ["KEP", "gate", "area", "stage", "default", "components", "since",
                                          "simulator"]
    assert present in text and absent not in text


def test_area_filter() -> None:
    rows = json.loads(run("--area", "dra", "-o", "json"))["gates"]
    assert rows and {r["area"] for r in rows} == {"dra"}


def test_diff_between_releases() -> None:
    data = json.loads(run("--diff", "1.35", "1.37", "-o", "json"))
    changes = {c["gate"]: c for c in data["changes"]}
    assert changes["GangScheduling"]["to"] is None
    assert changes["GenericWorkload"]["from"]["stage"] == "alpha" and changes["GenericWorkload"]["to"]["stage"] == "beta"
    assert "OpportunisticBatching" not in changes        # beta, on in both
    assert "GangScheduling" in run("--diff", "1.35", "1.37")


def test_bad_version_is_usage_error() -> None:
    result = CliRunner().invoke(cli, ["gates", "--k8s-version", "1.20"])
    assert result.exit_code != 0


def test_gateless_keps_name_the_standard_numa_attribute() -> None:
    text = run("--k8s-version", "1.37")
    assert ("KEPs without a feature gate (always on): KEP-6072 standard device attributes "
            "resource.kubernetes.io/numaNode and resource.kubernetes.io/pcieRoot (since 1.37)") in text
    assert "KEP-6072" not in run("--k8s-version", "1.36")


def test_gateless_keps_are_rows_of_the_table_and_the_json() -> None:
    rows = [line.split() for line in run("--k8s-version", "1.37", "--area", "dra").splitlines()]
    assert ["6072", "(no", "gate)", "dra", "no", "gate", "always", "on", "-", "1.37", "-"] in rows
    assert not any(row[:1] == ["6072"] for row in (line.split() for line in run("--k8s-version", "1.37", "--area",
                                                                                   "scheduling").splitlines()))
    data = json.loads(run("--k8s-version", "1.37", "-o", "json"))
    (kep,) = [g for g in data["gates"] if g["kep"] == 6072]
    assert kep["gate"] is None and kep["stage"] == "no gate" and "resource.kubernetes.io/numaNode" in kep["changes"]
    assert not [g for g in json.loads(run("--k8s-version", "1.36", "-o", "json"))["gates"] if g["kep"] == 6072]
