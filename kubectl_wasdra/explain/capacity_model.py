"""The answer of `capacity`: how many copies of one pod or group fit now, per topology domain and per node, and what
runs out first where. Plain data; capacity_render.py turns it into text or JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kubectl_wasdra.explain.capacity_limits import Limit


@dataclass
class NodeCapacity:
    """One node: its domain (value of the topology key, None without one), the pods of copies placed on it, and what
    kept the copy that did not fit off it (None: no copy failed, or the failure names no node)."""

    name: str
    domain: str | None
    pods: int = 0
    limit: Limit | None = None


@dataclass
class DomainCapacity:
    """One value of the topology key: its nodes, the copies placed wholly inside it and their pods, how many pods of
    the copy that did not fit would have fitted there (topology-constrained groups), and its limits by node count."""

    value: str
    nodes: int
    copies: int = 0
    pods: int = 0
    next_copy_pods: int | None = None
    limits: list[tuple[Limit, int]] = field(default_factory=list)


@dataclass
class CapacityReport:
    """Copies of the shape (kind/namespace/name, `pods_per_copy` pods each) that fit one after another: `copies`,
    stopped by the first copy that did not fit (`message`: kube-scheduler's text for it) or by `max_copies`
    (`capped`)."""

    k8s_version: str
    kind: str
    namespace: str
    name: str
    pods_per_copy: int
    copies: int
    max_copies: int
    capped: bool
    topology_key: str | None = None
    message: str = ""
    domains: list[DomainCapacity] = field(default_factory=list)
    nodes: list[NodeCapacity] = field(default_factory=list)
    limits: list[tuple[Limit, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    left_out: list[Any] = field(default_factory=list)  # snapshot objects left out of the run as malformed
    unread: dict[str, str] = field(default_factory=dict)  # kinds the header says were not read
    constrained: bool = False  # the group has a topology constraint: each copy lands within one domain
