"""The explanation of one group, as data: fits or not, the placement, reasons with counts, verified suggestions and
what the text view needs on top (the kube-scheduler line, per-domain attempts, DRA funnels, the placement map)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ReasonItem:
    """One reason: code (reasons.Reason value), message, how many nodes gave it (None for group-level), details."""

    code: str
    message: str
    count: int | None
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Suggestion:
    """A change that makes the group fit, checked by re-running the simulation with it."""

    kind: str
    message: str
    outcome: str


@dataclass(frozen=True)
class DomainLine:
    """One topology domain tried: how many pods of how many needed went there, and why the rest did not (the node
    reason histogram of the first pod that did not fit there, and the tightest DRA stage over its nodes)."""

    key: str
    value: str
    placeable: int
    needed: int
    nodes: int
    feasible: bool
    reasons: tuple[ReasonItem, ...] = ()
    dra: Any = None  # causes.DraCause, or None when no node of the domain failed in the DRA funnel
    own_devices: int = 0  # devices this group's own trial placement in the domain holds (not "used by others")

    def signature(self) -> tuple[Any, ...]:
        """What domains with the same cause share (grouped in the text view)."""
        return (self.feasible, self.placeable, tuple((r.code, r.message) for r in self.reasons),
                self.dra.text().rpartition(" (")[0] if self.dra is not None else "")


@dataclass(frozen=True)
class Tried:
    """One what-if simulated for the suggestions: its kind, the change, and what came of it."""

    kind: str
    change: str
    outcome: str  # "fits: ...", "does not fit", "skipped: ..."


@dataclass
class GroupDiagnosis:
    """Everything `explain` says about one group."""

    kind: str
    namespace: str
    name: str
    fits: bool
    policy: str | None = None
    min_count: int | None = None
    pod_count: int = 0
    topology_key: str | None = None
    pods: dict[str, str] = field(default_factory=dict)
    claims: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    claim_node_selectors: dict[str, Any] = field(default_factory=dict)  # claim -> allocation.nodeSelector
    domain: dict[str, str] | None = None
    reasons: list[ReasonItem] = field(default_factory=list)
    suggestions: list[Suggestion] = field(default_factory=list)
    scheduler_message: str = ""
    scheduler_record: str = "PodGroupInitiallyScheduled=False, Unschedulable"  # where kube-scheduler writes the message
    pod_message: str = ""
    pod_message_domain: str = ""  # the topology domain pod_message comes from (the placement that came closest)
    domains: list[DomainLine] = field(default_factory=list)
    funnels: list[tuple[str, str]] = field(default_factory=list)  # (node, funnel summary) for DRA failures
    funnels_hidden: int = 0  # nodes with a DRA funnel beyond the closest ones shown
    dra_cause: Any = None  # causes.DraCause over every node, for a group without topology domains
    tried: list[Tried] = field(default_factory=list)  # every what-if simulated, with its outcome
    suggestions_note: str = ""  # why the search for suggestions stopped ("no single change found", budget spent)
    taken_by: dict[str, list[str]] = field(default_factory=dict)  # earlier entry -> nodes it placed pods on
    placement_map: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)  # domain -> [(node, cells)]
    grid: dict[str, Any] | None = None  # explain/grid.py build_grid: the HTML report's cluster grid (None: not built)
    map_info: Any = None  # placement_map.MapInfo: what the map left out, tainted nodes, device classes of the cells
    preemption: Any = None  # sched/preemption_model.Preemption: who would be evicted, or why not (None: not simulated)
    nominations: dict[str, str] = field(default_factory=dict)  # explain-pending: pod -> recorded nominatedNodeName
    pending_for: str = ""  # explain-pending: how long the oldest pod has waited (snapshot time - creation)
    recorded: list[Any] = field(default_factory=list)  # explain-pending: what the cluster recorded (Recorded)
    agreement: tuple[str, str] | None = None  # explain-pending: ("yes" | "no" | "unknown", why)
    unknown: str | None = None  # no verdict: a kind it depends on could not be read from the cluster (why)
    simulated: bool = True  # False: another scheduler places these pods (reason OtherScheduler); `fits` means nothing
    numa: dict[str, dict[str, Any]] = field(default_factory=dict)  # pod -> node, per-container NUMA nodes (kubelet stage)
    claim_numa: dict[str, list[Any]] = field(default_factory=dict)  # claim -> each device's resource.kubernetes.io/numaNode
    plugins: dict[str, Any] | None = None  # --plugin-results: pod name -> sched/plugin_results.PodPlugins (None: off)


@dataclass
class ExplainReport:
    """The answer for every group the manifests define."""

    k8s_version: str
    groups: list[GroupDiagnosis]
    notes: list[str] = field(default_factory=list)
    gaps: Mapping[str, str] = field(default_factory=dict)  # the snapshot header's gaps: kind -> why it was not read
    left_out: list[Any] = field(default_factory=list)  # LoadProblems of the objects left out (malformed), each reported

    @property
    def all_fit(self) -> bool:
        """True when every group fits (exit 0)."""
        return all(group.fits for group in self.groups if group.simulated)

    @property
    def has_unknown(self) -> bool:
        """True when some verdict could not be given because the cluster read has gaps (exit 2)."""
        return any(group.unknown for group in self.groups)
