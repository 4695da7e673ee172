"""Which feature gates the simulator models, and the notes that say so when `--feature-gates` names one it does not.

A gate is modelled when its state changes what the simulation does (served group APIs, fields dropped on create,
the allocator's features). Every other gate known to the catalogue is "not modelled": setting it changes nothing in
`explain`, so the output says so instead of accepting it silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

MODELLED: Final = frozenset({
    # workload-aware scheduling: group APIs, fields kept or dropped (sched/admission.py, sched/queue.py)
    "GenericWorkload", "TopologyAwareWorkloadScheduling", "CompositePodGroup", "DRAWorkloadResourceClaims",
    # preemption: the PodGroup's own policy (sched/queue.py, group_preemption.py); 1.36 group preemption (simulation.py)
    "PodGroupPreemptionPolicy", "WorkloadAwarePreemption",
    # the structured allocator's features (dra/features.py) and what the scheduler hands it
    "DynamicResourceAllocation", "DRAAdminAccess", "DRAPrioritizedList", "DRAPartitionableDevices", "DRADeviceTaints",
    "DRADeviceTaintRules", "DRAConsumableCapacity", "DRAFractionalCapacityRange", "DRAExtendedResource",
    "DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus", "DRAListTypeAttributes",
    "DRASchedulerFilterTimeout",  # off: the allocator's search has no time-out stand-in (dynamic_resources.py)
    # NUMA: derived attributes in the allocator (dra/derived.py); pod-level resource managers in the kubelet stage
    "DRADerivedAttributes", "PodLevelResourceManagers",
})


def is_modelled(name: str) -> bool:
    """True when the simulator honours gate `name`."""
    return name in MODELLED


def unmodelled_notes(overrides: Mapping[str, bool], known: Iterable[str]) -> list[str]:
    """One note per `--feature-gates` entry the catalogue knows but the simulator does not model, sorted by name."""
    names = frozenset(known)
    return [f"feature gate {name}={str(value).lower()} is not modelled by the simulator: the verdicts are computed "
            f"without it (kube-scheduler may decide differently)"
            for name, value in sorted(overrides.items()) if name in names and not is_modelled(name)]
