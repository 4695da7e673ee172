"""Hierarchy validation of a group cycle: every pod must agree with the root group on schedulerName, priority and
preemption policy, else the whole hierarchy fails with SchedulerError (GroupInvalid).

Upstream: kubernetes/kubernetes pkg/scheduler/schedule_one_podgroup.go (hierarchy validation), release-1.37.
The preemption-policy wording mirrors the priority text (not verified). 1.36 (v1.36.2 frameworkForPodGroup) checks
only that the group's pods share a schedulerName, in its own wording; pods whose priority differs from the group's
are scheduled.
"""

from __future__ import annotations

from typing import Final

from kubectl_wasdra.sched.podinfo import PodInfo

SCHEDULER_NAME: Final = ('all pods in a pod group hierarchy should have the same .spec.schedulerName set, '
                         'got: "{a}" ("{pa}") and "{b}" ("{pb}")')
PRIORITY: Final = ("all pods in a pod group hierarchy should have the same priority as the root pod group's priority, "
                   'got {p} ("{pod}") and {q} ("{group}")')
SCHEDULER_NAME_1_36: Final = 'all pods in a single pod group should have the same .spec.schedulerName set, got: "{b}" and "{a}"'
PREEMPTION: Final = ("all pods in a pod group hierarchy should have the same preemption policy as the root pod group's "
                     'preemption policy, got {p} ("{pod}") and {q} ("{group}")')


def validate(pods: list[PodInfo], group_name: str, group_priority: int, group_preemption: str) -> str | None:
    """The SchedulerError message of the first disagreement, or None if the hierarchy is consistent."""
    ordered = sorted(pods, key=lambda p: p.key)
    if ordered:
        first = ordered[0]
        for pod in ordered[1:]:
            if pod.scheduler_name != first.scheduler_name:
                return SCHEDULER_NAME.format(a=first.scheduler_name, pa=first.name, b=pod.scheduler_name, pb=pod.name)
    for pod in ordered:
        if pod.priority != group_priority:
            return PRIORITY.format(p=pod.priority, pod=pod.name, q=group_priority, group=group_name)
    for pod in ordered:
        if pod.preemption_policy != group_preemption:
            return PREEMPTION.format(p=pod.preemption_policy, pod=pod.name, q=group_preemption, group=group_name)
    return None


def validate_1_36(pods: list[PodInfo]) -> str | None:
    """1.36's check (frameworkForPodGroup): the first pod, in cycle order, whose schedulerName differs from the
    first pod's."""
    for pod in pods[1:]:
        if pod.scheduler_name != pods[0].scheduler_name:
            return SCHEDULER_NAME_1_36.format(a=pods[0].scheduler_name, b=pod.scheduler_name)
    return None
