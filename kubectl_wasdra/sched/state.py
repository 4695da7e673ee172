"""SchedState: what is in use in one simulation (requests and pods per node, device usage, allocated claims).

Trials (a gang in one topology domain, a composite's children) change the state inside a transaction: `begin()`
returns a mark, every change is journaled, `rollback(mark)` undoes what came after it and `commit(mark)` keeps it.
Nothing is copied per trial and the snapshot itself is never changed.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator, Mapping
from typing import Any, Final

from kubectl_wasdra.sched.nodeinfo import NodeFacts, NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.volumes import bind_claims

PODS: Final = "pods"
_MISSING: Final = object()


@functools.cache
def _pre_filters() -> Any:
    """filters/pre_filter.run_pre_filters, imported once on first use (the filters import this module)."""
    from kubectl_wasdra.sched.filters.pre_filter import run_pre_filters

    return run_pre_filters


class SchedState:
    """Mutable usage ledger over shared, immutable NodeFacts."""

    def __init__(self, facts: Mapping[str, NodeFacts], dra: Any = None, minor: int = 37) -> None:
        self.facts = facts
        self.minor = minor  # the target release's minor version: some messages changed between releases
        self.domains: dict[str, dict[str, tuple[str, ...]]] = {}  # label key -> value -> nodes; static
        self.node_names: tuple[str, ...] = tuple(sorted(facts))
        self.requested: dict[str, dict[str, int]] = {name: {} for name in facts}
        self.nonzero: dict[str, tuple[int, int]] = dict.fromkeys(facts, (0, 0))  # scoring.py: (millicpu, memory)
        # the PodInfo of every pod on a node: spread, inter-pod affinity, host ports, preemption
        self.pods: dict[str, tuple[PodInfo, ...]] = dict.fromkeys(facts, ())
        # nodes -> how many of their pods have required anti-affinity terms (InterPodAffinity's symmetry check)
        self.anti_affinity_pods: dict[str, int] = {}
        # nodes -> how many of their pods have any pod (anti-)affinity (InterPodAffinity's score: HavePodsWithAffinity)
        self.affinity_pods: dict[str, int] = {}
        self.namespaces: Mapping[str, Mapping[str, str]] = {}  # namespace -> labels (namespace selectors)
        self.snapshot: Any = None  # the ClusterSnapshot (PodTopologySpread's default selector reads its workloads)
        # (plugin, pod key) -> (pod, tick, data, freed, len(changed_nodes)): PreFilter data, see cached()
        self.pre_filter_cache: dict[tuple[str, Any], tuple[Any, ...]] = {}
        self.placed_by: dict[str, tuple[str, ...]] = dict.fromkeys(facts, ())
        self.dra = dra  # DraState from filters/dynamic_resources.py, or None when no DRA objects exist
        self.cursors: dict[tuple[bytes, int], int] = {}
        self.static_cache: dict[bytes, dict[str, Any]] = {}  # static filter failures per pod signature
        self._views: dict[str, NodeInfo] = {}
        self._positions: dict[int, tuple[tuple[str, ...], dict[str, int]]] = {}  # position(): id(nodes) -> index
        self._journal: list[tuple[dict[Any, Any], Any, Any]] | None = None
        self._depth = 0  # open transactions
        self.explain = True  # False: skip what only explanations need (diagnosing failed pods on every node)
        self.first_fit = False  # the entry being placed stops at its first feasible domain (Simulation.run)
        # Generations (never journaled, only ever growing): `tick` counts every change, `node_gen` is the tick of each
        # node's last change, `freed` counts rollbacks that undid something (the only way anything gets free again:
        # within a state usage only grows), `shared_gen` the tick of the last change of devices several nodes see.
        self.tick = 0
        self.freed = 0
        # `version` names what is in use: a new number on every change, and on rollback the number it had when the
        # transaction began (a dry run that is rolled back leaves the same version; `tick` moves on). Results that
        # depend only on usage (a pod's diagnosis, preemption's answer) are shared while it is unchanged.
        self.version = 0
        self._versions = 0
        self._begun: list[int] = []
        self.node_gen: dict[str, int] = dict.fromkeys(facts, 0)
        self.shared_gen = 0
        self.no_fit: dict[tuple[bytes, int], int] = {}  # (shape, nodes_key) -> `freed` when nothing fitted
        # (shape, node) -> (node_gen, shared_gen, raw scores): feasible nodes shared by pods of one shape
        self.changed_nodes: list[str] = []  # every node a pod was added to, in order (placement.py windows)
        self.windows: dict[tuple[bytes, int], Any] = {}  # placement.py: (shape, nodes_key) -> feasible nodes last scored
        # nodes_key(): id(node list) -> (the list, its number); node list -> number (equal lists share one)
        self._node_keys: dict[int, tuple[tuple[str, ...], int]] = {}
        self._node_numbers: dict[tuple[str, ...], int] = {}
        self.twins: dict[tuple[bytes, str], tuple[int, int, Any]] = {}  # (shape, node) -> gens and a DRA allocation
        self.feasible: dict[tuple[bytes, str], tuple[int, int, tuple[int, int, int, int]]] = {}
        # (shape, node) -> (node_gen, shared_gen, Status, claim names, detailed): failures shared by pods of one shape
        self.verdicts: dict[tuple[bytes, str], tuple[Any, ...]] = {}
        self.interned: dict[tuple[Any, ...], Any] = {}  # placement.py: one object per distinct failure status
        self.renamed: dict[tuple[Any, ...], Any] = {}  # placement.py: statuses with another pod's claim names
        self.diagnosing = False  # True while a failed pod is diagnosed: filters give full detail, no shortcuts
        self.recorder: Any = None  # plugin_results.PluginRecorder (explain --plugin-results): shown every cycle
        # volumes (sched/volumes.py): the snapshot's claims and volumes (None: no volume objects, filters skip) and
        # PersistentVolumes bound by assumed pods (name -> "ns/claim")
        self.volume_index: Any = None
        self.bound_volumes: dict[str, str] = {}
        self.before_copy: tuple[int, dict[str, Any], dict[Any, Any]] | None = None  # simulation._remember_before
        # gang._diagnosed_before: (signature, id(nodes)) -> (tick, FitError, nodes)
        self.diagnosed: dict[tuple[bytes, int], tuple[int, Any, tuple[str, ...]]] = {}

    # -- transactions ------------------------------------------------------------------------------------------

    def set(self, table: dict[Any, Any], key: Any, value: Any) -> None:
        """table[key] = value, journaled when a transaction is open."""
        if self._journal is not None:
            self._journal.append((table, key, table.get(key, _MISSING)))
        table[key] = value

    def begin(self) -> int:
        """Open a (possibly nested) transaction; the mark to roll back or commit to."""
        if self._journal is None:
            self._journal = []
        self._depth += 1
        self._begun.append(self.version)
        return len(self._journal)

    def rollback(self, mark: int) -> None:
        """Undo every change made since `mark`."""
        journal = self._journal or []
        freed = False
        while len(journal) > mark:
            table, key, old = journal.pop()
            if old is _MISSING:
                table.pop(key, None)
            else:
                table[key] = old
            if table is not self.cursors:  # a cursor is a shortcut, not usage
                freed = self._freed(table, key, freed)
        self._views.clear()
        if self.dra is not None:
            self.dra.found.clear()
        self.version = self._begun[-1]
        self._end()

    def _freed(self, table: dict[Any, Any], key: Any, before: bool) -> bool:
        """Note that an undone change freed something: new generations for the node (or for shared devices)."""
        if not before:
            self.freed += 1
            self.tick += 1
        if isinstance(key, str) and key in self.node_gen and table is not getattr(self.dra, "vars", None):
            self.node_gen[key] = self.tick
        else:
            self.shared_gen = self.tick
        return True

    def commit(self, mark: int) -> None:
        """Keep the changes since `mark` (they stay undoable by an enclosing transaction)."""
        self._end()

    def _end(self) -> None:
        self._begun.pop()
        self._depth -= 1
        if self._depth == 0:
            self._journal = None

    # -- reading -----------------------------------------------------------------------------------------------

    def domain_index(self, key: str) -> dict[str, tuple[str, ...]]:
        """Nodes per value of label `key` (nodes without the label are in no domain), sorted; computed once."""
        index = self.domains.get(key)
        if index is None:
            groups: dict[str, list[str]] = {}
            for name in self.node_names:
                value = self.facts[name].labels.get(key)
                if value is not None:
                    groups.setdefault(value, []).append(name)
            index = self.domains[key] = {value: tuple(nodes)  # str: a label read from YAML may be a bool or a number
                                         for value, nodes in sorted(groups.items(), key=lambda item: str(item[0]))}
        return index

    def position(self, nodes: tuple[str, ...], name: str) -> int:
        """nodes.index(name) in constant time: the index of each node list searched is built once (a linear
        search per pod made a queue of pods quadratic in nodes)."""
        found = self._positions.get(id(nodes))
        if found is None or found[0] is not nodes:
            found = self._positions[id(nodes)] = (nodes, {node: index for index, node in enumerate(nodes)})
        return found[1][name]

    def nodes_key(self, nodes: tuple[str, ...]) -> int:
        """A number naming the node list `nodes` (equal lists get one number), found by identity in constant time: a
        tuple of thousands of names as a dict key is hashed again on every lookup (tuples do not cache their hash),
        which cost a queue of pods tens of microseconds per pod and node list."""
        found = self._node_keys.get(id(nodes))
        if found is None or found[0] is not nodes:
            number = self._node_numbers.setdefault(nodes, len(self._node_numbers))
            found = self._node_keys[id(nodes)] = (nodes, number)
        return found[1]

    @contextlib.contextmanager
    def unrecorded(self) -> Iterator[Any]:
        """Per-plugin results are not recorded inside (cycles that are not the pods' own: trials, retries, the
        domains not shown); yields the recorder, which is back in place afterwards."""
        recorder, self.recorder = self.recorder, None
        try:
            yield recorder
        finally:
            self.recorder = recorder

    def node(self, name: str) -> NodeInfo:
        """The NodeInfo view of `name` in this state (cached until the node changes)."""
        view = self._views.get(name)
        if view is None:
            view = NodeInfo(self.facts[name], self.requested[name], self.pods[name], self)
            self._views[name] = view
        return view

    def pre_filter(self, pod: PodInfo) -> Any:
        """The PreFilter status that keeps `pod` off every node (filters/pre_filter.py), or None; a status with
        details perNode=True is what Filter then says for each node."""
        if pod.pre_filter_status is None and not pod.has_volumes:  # pod-only checks passed: DynamicResources' is left
            return self.dra.pre_filter(pod) if self.dra is not None and pod.claims_or_extended else None
        return _pre_filters()(pod, self)

    def cached(self, plugin: str, pod: PodInfo, compute: Any, update: Any = None, key: Any = None) -> Any:
        """A plugin's PreFilter data for `pod`, computed by `compute(pod, state)` once per state of the pods on the
        nodes (`tick` changes whenever a pod is added or a rollback frees something). Pods with the same `key` (what
        compute reads of the pod; default: the pod itself) share it; when only pods were added since it was computed,
        `update(data, added, pod, state)` brings it up to date with the (node, pod) pairs added, as upstream's AddPod
        does, instead of computing it again."""
        cache_key = (plugin, id(pod) if key is None else key)
        found = self.pre_filter_cache.get(cache_key)
        if found is not None and (key is not None or found[0] is pod):
            if found[1] == self.tick:
                return found[2]
            if update is not None and found[3] == self.freed:
                data = update(found[2], self._added_since(found[4]), pod, self)
                self.pre_filter_cache[cache_key] = (pod, self.tick, data, self.freed, len(self.changed_nodes))
                return data
        data = compute(pod, self)
        self.pre_filter_cache[cache_key] = (pod, self.tick, data, self.freed, len(self.changed_nodes))
        return data

    def _added_since(self, position: int) -> list[tuple[str, PodInfo]]:
        """(node, pod) of every pod added since `changed_nodes` had `position` entries (nothing was freed since)."""
        counts: dict[str, int] = {}
        for name in self.changed_nodes[position:]:
            counts[name] = counts.get(name, 0) + 1
        return [(name, added) for name, count in counts.items() for added in self.pods[name][-count:]]

    def volume_pods(self, node_name: str) -> list[PodInfo]:
        """The pods on a node with volumes the volume filters look at (PodInfo.has_volumes)."""
        return [pod for pod in self.pods.get(node_name, ()) if pod.has_volumes]

    # -- copying the ledger ------------------------------------------------------------------------------------

    def ledger(self) -> tuple[Any, ...]:
        """A copy of what is in use (top-level tables only: their values are replaced on change, never mutated), to
        start a derived simulation with the same bound pods from (restore) instead of adding them one by one."""
        return (dict(self.requested), dict(self.nonzero), dict(self.pods), dict(self.anti_affinity_pods),
                dict(self.placed_by), dict(self.bound_volumes), self.tick, dict(self.node_gen), list(self.changed_nodes),
                self.version)

    def restore(self, ledger: tuple[Any, ...]) -> None:
        """Start from a ledger() of a state over the same node facts."""
        (requested, nonzero, pods, anti, placed_by, volumes, tick, node_gen, changed, version) = ledger
        self.requested, self.nonzero, self.pods, self.anti_affinity_pods = dict(requested), dict(nonzero), dict(pods), \
            dict(anti)
        self.placed_by, self.bound_volumes, self.tick = dict(placed_by), dict(volumes), tick
        self.node_gen, self.changed_nodes = dict(node_gen), list(changed)
        self.version = self._versions = version
        self._views.clear()

    # -- changing ----------------------------------------------------------------------------------------------

    def assume(self, pod: PodInfo, node_name: str, owner: str | None = None) -> None:
        """Place `pod` on `node_name` in this state: resources, pod labels, and the devices the filter found."""
        self.add_pod(pod, node_name, owner)
        if self.dra is not None and self.dra.assume(pod, node_name, self.set) and self.dra.has_shared_devices():
            self.shared_gen = self.tick

    def remove_pods(self, node_name: str, victims: list[PodInfo]) -> None:
        """Take `victims` off a node (preemption's dry run, always inside a transaction that is rolled back): their
        requests (also the non-zero ones scoring reads) and pod entries go; devices they hold stay allocated."""
        gone = {id(p) for p in victims}
        requested = dict(self.requested[node_name])
        cpu, memory = self.nonzero[node_name]
        for victim in victims:
            for resource, value in victim.requests.items():
                requested[resource] = requested.get(resource, 0) - value
            cpu -= victim.nonzero[0]
            memory -= victim.nonzero[1]
        self.tick += 1
        self._new_version()
        self.freed += 1  # something got free: verdicts and PreFilter data of fuller states no longer hold
        self.node_gen[node_name] = self.tick
        self.set(self.requested, node_name, requested)
        self.set(self.nonzero, node_name, (cpu, memory))
        self.set(self.pods, node_name, tuple(p for p in self.pods[node_name] if id(p) not in gone))
        anti = sum(1 for p in victims if p.anti_affinity_terms)
        if anti:  # a 0 left behind is harmless (no pod there has terms) and keeps the change undoable
            self.set(self.anti_affinity_pods, node_name, self.anti_affinity_pods.get(node_name, 0) - anti)
        with_affinity = sum(1 for p in victims if p.has_pod_affinity)
        if with_affinity:
            self.set(self.affinity_pods, node_name, self.affinity_pods.get(node_name, 0) - with_affinity)
        self._views.pop(node_name, None)

    def _new_version(self) -> None:
        self._versions += 1
        self.version = self._versions

    def add_pod(self, pod: PodInfo, node_name: str, owner: str | None = None) -> None:
        """Count a pod on a node (a bound pod from the snapshot, or an assumed placement) and note who placed it."""
        if node_name not in self.facts:
            return
        requested = dict(self.requested[node_name])
        for resource, value in pod.requests.items():
            requested[resource] = requested.get(resource, 0) + value
        self.tick += 1
        self._new_version()
        self.node_gen[node_name] = self.tick
        self.changed_nodes.append(node_name)
        self.set(self.requested, node_name, requested)
        cpu, memory = self.nonzero[node_name]
        self.set(self.nonzero, node_name, (cpu + pod.nonzero[0], memory + pod.nonzero[1]))
        self.set(self.pods, node_name, (*self.pods[node_name], pod))
        if pod.anti_affinity_terms:
            self.set(self.anti_affinity_pods, node_name, self.anti_affinity_pods.get(node_name, 0) + 1)
        if pod.has_pod_affinity:
            self.set(self.affinity_pods, node_name, self.affinity_pods.get(node_name, 0) + 1)
        if owner is not None and owner not in self.placed_by[node_name]:
            self.set(self.placed_by, node_name, (*self.placed_by[node_name], owner))
        if pod.has_volumes and self.volume_index is not None:
            bind_claims(pod, node_name, self)
        self._views.pop(node_name, None)
