"""Verdicts that depend on a kind the cluster read could not read become "unknown" (cluster/gaps.py): the diagnosis
keeps its name and the reason, and drops the reasons, suggestions and map a guess would have produced."""

from __future__ import annotations

from collections.abc import Mapping

from kubectl_wasdra.cluster.gaps import ALWAYS, DRA_KINDS, GROUP_KINDS, NUMA_KINDS, VOLUME_KINDS, unknown_because
from kubectl_wasdra.explain.model import GroupDiagnosis
from kubectl_wasdra.kubelet.requests import is_guaranteed
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.volumes import has_node_volumes


def needed_kinds(result: GroupResult) -> tuple[str, ...]:
    """The kinds this group's verdict depends on: nodes and pods always, DRA kinds when a pod asks for devices, group
    kinds for a group, volume kinds when a pod has claims or CSI volumes, NodeResourceTopology when the kubelet's
    Topology Manager may refuse a pod (Guaranteed, or asking for devices), PriorityClasses when a pod names one."""
    pods = result.pods
    kinds: list[str] = list(ALWAYS)
    if any(p.claims_or_extended for p in pods):
        kinds += DRA_KINDS
    if any(p.claims_or_extended or is_guaranteed(p.pod) for p in pods):
        kinds += NUMA_KINDS
    if result.kind != "Pod" or any(p.group for p in pods):
        kinds += GROUP_KINDS
    if any(has_node_volumes(p.pod) for p in pods):
        kinds += VOLUME_KINDS
    if any((p.pod.get("spec") or {}).get("priorityClassName") for p in pods):
        kinds.append("PriorityClass")
    return tuple(kinds)


def mark_unknown(diagnosis: GroupDiagnosis, result: GroupResult, unread: Mapping[str, str]) -> bool:
    """Turn the diagnosis into an unknown verdict when a kind it needs was not read; True when it did."""
    if not unread:  # a complete read: nothing to look up (needed_kinds parses every pod's requests)
        return False
    why = unknown_because(needed_kinds(result), unread)
    if why is None:
        return False
    diagnosis.unknown = why
    diagnosis.fits = False
    diagnosis.reasons, diagnosis.suggestions, diagnosis.placement_map = [], [], []
    diagnosis.funnels, diagnosis.domains, diagnosis.taken_by = [], [], {}
    diagnosis.pods, diagnosis.claims, diagnosis.domain = {}, {}, None
    diagnosis.scheduler_message = diagnosis.pod_message = ""
    return True
