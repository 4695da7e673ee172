"""rules/feature-gates.yaml against the versioned specs of kube-scheduler's feature list.

Facts transcribed from kubernetes/kubernetes staging/src/k8s.io/kube-scheduler/pkg/features/kube_features.go
(post-1.37 snapshot, defaultVersionedKubernetesFeatureGates): (first minor, default, stage, locked) per gate.
"""

from __future__ import annotations

import pytest

from kubectl_wasdra.catalog.gates import gate_table
from kubectl_wasdra.catalog.releases import SUPPORTED, Release

SPECS = {
 "CompositePodGroup": [("1.37",0,"alpha",0)],
 "DRAAdminAccess": [("1.32",0,"alpha",0),("1.34",1,"beta",0),("1.36",1,"GA",1)],
 "DRAConsumableCapacity": [("1.34",0,"alpha",0),("1.36",1,"beta",0)],
 "DRADerivedAttributes": [("1.37",0,"alpha",0)],
 "DRADeviceBindingConditions": [("1.34",0,"alpha",0),("1.36",1,"beta",0)],
 "DRADeviceCompatibilityGroups": [("1.37",0,"alpha",0)],
 "DRADeviceTaintRules": [("1.35",0,"alpha",0),("1.36",0,"beta",0),("1.37",1,"GA",0)],
 "DRADeviceTaints": [("1.33",0,"alpha",0),("1.36",1,"beta",0),("1.37",1,"GA",0)],
 "DRAExtendedResource": [("1.34",0,"alpha",0),("1.36",1,"beta",0),("1.37",1,"GA",1)],
 "DRAFractionalCapacityRange": [("1.37",0,"beta",0)],
 "DRAListTypeAttributes": [("1.36",0,"alpha",0)],
 "DRANodeAllocatableResources": [("1.36",0,"alpha",0)],
 "DRAOptionalNodeOperations": [("1.37",0,"alpha",0)],
 "DRAPartitionableDevices": [("1.33",0,"alpha",0),("1.36",1,"beta",0)],
 "DRAPrioritizedList": [("1.33",0,"alpha",0),("1.34",1,"beta",0),("1.36",1,"GA",0),("1.37",1,"GA",1)],
 "DRAResourceClaimDeviceStatus": [("1.32",0,"alpha",0),("1.33",1,"beta",0),("1.37",1,"GA",1)],
 "DRASchedulerFilterTimeout": [("1.34",1,"beta",0)],
 "DRAWorkloadResourceClaims": [("1.36",0,"alpha",0),("1.37",0,"beta",0)],
 "DynamicResourceAllocation": [("1.26",0,"alpha",0),("1.32",0,"beta",0),("1.34",1,"GA",0),("1.35",1,"GA",1)],
 "GenericWorkload": [("1.35",0,"alpha",0),("1.37",0,"beta",0)],
 "InPlacePodLevelResourcesVerticalScaling": [("1.35",0,"alpha",0),("1.36",1,"beta",0)],
 "InPlacePodVerticalScaling": [("1.27",0,"alpha",0),("1.33",1,"beta",0),("1.35",1,"GA",1)],
 "InPlacePodVerticalScalingSchedulerPreemption": [("1.37",0,"alpha",0)],
 "InterPodAffinityHostnameFastPath": [("1.37",0,"alpha",0)],
 "MatchLabelKeysInPodTopologySpread": [("1.25",0,"alpha",0),("1.27",1,"beta",0)],
 "NodeDeclaredFeatures": [("1.35",0,"alpha",0),("1.36",1,"beta",0),("1.37",1,"GA",1)],
 "NodeInclusionPolicyInPodTopologySpread": [("1.25",0,"alpha",0),("1.26",1,"beta",0),("1.33",1,"GA",1)],
 "NominatedNodeNameForExpectation": [("1.34",0,"alpha",0),("1.35",1,"beta",0)],
 "OpportunisticBatching": [("1.35",1,"beta",0)],
 "PodGroupPreemptionPolicy": [("1.37",0,"alpha",0)],
 "PodLevelResources": [("1.32",0,"alpha",0),("1.34",1,"beta",0)],
 "SchedulerAsyncAPICalls": [("1.34",0,"beta",0)],
 "SchedulerAsyncPreemption": [("1.32",0,"alpha",0),("1.33",1,"beta",0)],
 "SchedulerPopFromBackoffQ": [("1.33",1,"beta",0)],
 "SchedulerPreQueueingHints": [("1.37",0,"alpha",0)],
 "StorageCapacityScoring": [("1.33",0,"alpha",0),("1.37",1,"beta",0)],
 "TaintTolerationComparisonOperators": [("1.35",0,"alpha",0)],
 "TopologyAwareWorkloadScheduling": [("1.36",0,"alpha",0)],
 "VolumeLimitScaling": [("1.35",0,"alpha",0),("1.37",1,"beta",0)],
}


def expected(specs: list[tuple[str, int, str, int]], release: Release) -> tuple[str, bool, bool] | None:
    current = None
    for first, default, stage, locked in specs:
        major, minor = map(int, first.split("."))
        if (major, minor) <= (release.major, release.minor):
            current = (stage, bool(default), bool(locked))
    return current


@pytest.mark.parametrize("release", SUPPORTED, ids=str)
def test_table_matches_scheduler_feature_specs(release: Release) -> None:
    table = gate_table(release)
    for name, specs in SPECS.items():
        info = table.get(name)
        got = (info.stage, info.default, info.locked) if info else None
        assert got == expected(specs, release), name
