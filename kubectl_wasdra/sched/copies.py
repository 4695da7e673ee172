"""Copies of one queue entry (a pod or a pod group) for `capacity`: the same pods under new names, placed one copy
after another in the state the queue left, as `kubectl apply` of N renamed copies would queue them.

A copy shares every PodInfo fact of the original (requests, tolerations, affinity, signature); its own names give it
its own claims from the templates (claims.py names them <pod>-<claim>, group-shared ones <group>-<claim>), so no copy
reuses another's devices. Claims named by resourceClaimName are shared by every copy, as they would be in the cluster.
"""

from __future__ import annotations

import dataclasses
from collections.abc import MutableMapping
from typing import Any, Final

from kubectl_wasdra.sched.podinfo import renamed
from kubectl_wasdra.sched.queue import Entry

SUFFIX: Final = "-copy-{index}"


def copy_name(name: str, index: int) -> str:
    """The name of copy `index` (2, 3, ...) of an object named `name`; copy 1 is the original."""
    return name + SUFFIX.format(index=index)


def copy_entry(entry: Entry, index: int, group_claims: MutableMapping[str, Any]) -> Entry:
    """Copy `index` of a Pod, PodGroup or Workload entry: renamed pods in a renamed group with the same policy,
    constraints and shared claims (registered in `group_claims`, the queue's table the claim resolver reads)."""
    if entry.kind == "Pod":
        (pod,) = entry.pods
        return dataclasses.replace(entry, name=copy_name(entry.name, index), pods=[renamed(pod, copy_name(pod.name, index),
                                                                                              None)],
                                   running=[], notices=list(entry.notices))
    pods = []
    for pod in entry.pods:
        group = copy_name(pod.group, index) if pod.group is not None else None
        if group is not None:
            group_claims[f"{pod.namespace}/{group}"] = group_claims.get(f"{pod.namespace}/{pod.group}", ())
        pods.append(renamed(pod, copy_name(pod.name, index), group))
    spec = dataclasses.replace(entry.group, name=copy_name(entry.group.name, index)) if entry.group is not None else None
    return dataclasses.replace(entry, name=copy_name(entry.name, index), pods=pods, running=[], group=spec,
                               notices=list(entry.notices), children=[])
