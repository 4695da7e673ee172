"""Reason codes: why something does not fit (a leaf: imports nothing from the package).

Stable: JSON output and tests depend on the values. This is the only place a reason code is spelled.
Groups follow DESIGN.md: node, DRA, groups, release and gates, pools and state.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Why a pod, claim or group does not fit."""

    # per node / per pod
    NODE_UNSCHEDULABLE = "NodeUnschedulable"
    NODE_NAME_MISMATCH = "NodeNameMismatch"
    NODE_AFFINITY_MISMATCH = "NodeAffinityMismatch"
    UNTOLERATED_TAINT = "UntoleratedTaint"
    INSUFFICIENT_RESOURCE = "InsufficientResource"
    TOO_MANY_PODS = "TooManyPods"
    TOPOLOGY_SPREAD_MISMATCH = "PodTopologySpreadMismatch"
    POD_AFFINITY_MISMATCH = "PodAffinityMismatch"
    HOST_PORT_CONFLICT = "HostPortConflict"
    # DRA
    CLAIM_NOT_FOUND = "ClaimNotFound"
    CLAIM_TEMPLATE_NOT_FOUND = "ClaimTemplateNotFound"
    DEVICE_CLASS_NOT_FOUND = "DeviceClassNotFound"
    NO_MATCHING_DEVICES = "NoMatchingDevices"
    DEVICES_ALLOCATED = "DevicesAllocated"
    DEVICE_TAINTED = "DeviceTainted"
    CAPACITY_EXHAUSTED = "CapacityExhausted"
    COUNTERS_EXHAUSTED = "CountersExhausted"
    CONSTRAINT_UNSATISFIABLE = "ConstraintUnsatisfiable"
    CLAIM_ALLOCATED_ELSEWHERE = "ClaimAllocatedElsewhere"
    SELECTOR_ERROR = "SelectorError"
    # groups
    GROUP_NOT_FOUND = "GroupNotFound"
    WORKLOAD_NOT_FOUND = "WorkloadNotFound"
    GANG_TOO_FEW_PODS = "GangTooFewPods"
    GANG_PARTIAL_FIT = "GangPartialFit"
    TOPOLOGY_NO_DOMAIN_FITS = "TopologyNoDomainFits"
    GROUP_INVALID = "GroupInvalid"
    # release and gates
    API_NOT_SERVED = "APINotServed"
    FEATURE_GATE_DISABLED = "FeatureGateDisabled"
    OBJECT_INVALID = "ObjectInvalid"      # the API server's validation rejects the object: it is never created
    # not simulated
    OTHER_SCHEDULER = "OtherScheduler"    # schedulerName names another scheduler: kube-scheduler never sees the pods
    # pools and state
    POOL_INCOMPLETE = "PoolIncomplete"
    BINDING_CONDITIONS_PENDING = "BindingConditionsPending"
    # scheduler configuration (--scheduler-config)
    # volumes (VolumeBinding, VolumeZone, VolumeRestrictions, NodeVolumeLimits)
    VOLUME_BINDING_FAILED = "VolumeBindingFailed"
    VOLUME_ZONE_CONFLICT = "VolumeZoneConflict"
    VOLUME_CONFLICT = "VolumeConflict"
    VOLUME_LIMIT_EXCEEDED = "VolumeLimitExceeded"
