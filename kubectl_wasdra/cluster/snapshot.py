"""ClusterSnapshot: the immutable, indexed view of a cluster that the simulator and cross-object checks read.

Objects are plain dicts in API shape, grouped by kind. DRA kinds are normalized to the resource.k8s.io/v1 shape
(cluster/convert.py) whatever version they were read in; other kinds keep their apiVersion.
Indices are computed on first use and never mutated; `overlay` returns a new snapshot.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.cluster.convert import to_v1
from kubectl_wasdra.kube.scope import BUILTIN_CLUSTER_SCOPED

if TYPE_CHECKING:
    from kubectl_wasdra.cluster.allocations import AllocatedState
    from kubectl_wasdra.cluster.index import GroupRef, NodeIndex
    from kubectl_wasdra.cluster.pools import DeviceKey, Pool, PoolKey, RuleTaint

SNAPSHOT_KINDS: Final = (
    "Node", "Pod", "Namespace", "PriorityClass", "Job",
    "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate", "DeviceClass", "DeviceTaintRule",
    "Workload", "PodGroup", "CompositePodGroup",
    "Event",  # FailedScheduling events only, for explain-pending (explain/recorded.py)
    # volumes: the VolumeBinding, VolumeZone, VolumeRestrictions and NodeVolumeLimits filters (sched/filters/volume_*)
    "PersistentVolumeClaim", "PersistentVolume", "StorageClass", "CSINode", "CSIDriver",
    # preemption (sched/pdb.py): victims whose eviction would break a budget are chosen last
    "PodDisruptionBudget",
    # RuntimeClass admission (sched/runtime_class.py): the overhead and scheduling a pod's runtimeClassName adds
    "RuntimeClass",
    # NUMA facts for kubelet admission (kubelet/facts.py): topology.node.k8s.io NodeResourceTopology objects, and each
    # node's kubelet config as read from GET /api/v1/nodes/{name}/proxy/configz (KubeletConfigz, wasdra.dev/v1alpha1)
    "NodeResourceTopology", "KubeletConfigz",
)
# the snapshot's kinds filed without a namespace (kube/scope.py); KubeletConfigz is one per node
CLUSTER_SCOPED_KINDS: Final = frozenset(kind for kind in SNAPSHOT_KINDS if kind in BUILTIN_CLUSTER_SCOPED) | {
    "NodeResourceTopology", "KubeletConfigz"}


def object_key(obj: Mapping[str, Any]) -> tuple[str, str]:
    """(namespace, name) of an object; namespace is "" for cluster-scoped objects."""
    meta = obj.get("metadata") or {}
    return meta.get("namespace") or "", meta.get("name") or ""


@dataclass(frozen=True)
class SnapshotHeader:
    """Where a snapshot came from: server version, served group/versions, gaps (kind -> why unread), conversions
    (old apiVersion -> objects converted to resource.k8s.io/v1), whether names were anonymized, and the API server's
    feature gates (name -> enabled, from its /metrics; empty when unknown). See cluster/header.py."""

    server_version: str | None = None
    taken_at: str | None = None
    served: tuple[str, ...] = ()
    gaps: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    converted: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    anonymized: bool = False
    feature_gates: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class ClusterSnapshot:
    """Objects by kind (sorted by namespace, name) plus lazily built indices."""

    objects: Mapping[str, tuple[dict[str, Any], ...]]
    header: SnapshotHeader = SnapshotHeader()
    # evaluates CEL device selectors for 1.33/1.34 DeviceTaintRules (pools.SelectorEvaluator); set by a layer that has
    # CEL (dra/cel.py) through with_selector_evaluator; without it such rules are applied only when no CEL is needed
    selector_evaluator: Callable[[str, str, Mapping[str, Any]], bool] | None = field(default=None, compare=False, repr=False)
    # (kind, namespace, name) -> the position at which the object was read (files in order, documents in order): the
    # order `kubectl apply -f` creates them in, which orders objects without a creationTimestamp in the queue
    read_order: Mapping[tuple[str, str, str], int] = field(default_factory=lambda: MappingProxyType({}), compare=False,
                                                           repr=False)

    def creation_order(self, kind: str, namespace: str, name: str) -> int:
        """The position at which the object was read (see read_order); 0 when unknown."""
        return self.read_order.get((kind, namespace, name), 0)

    def with_selector_evaluator(self, evaluate: Callable[[str, str, Mapping[str, Any]], bool]) -> ClusterSnapshot:
        """The same snapshot (same objects) whose DeviceTaintRules of 1.33/1.34 are applied by evaluating CEL with
        `evaluate(expression, driver, device) -> bool` (CelRuntimeError/CelCompileError: not selected)."""
        snapshot = ClusterSnapshot(objects=self.objects, header=self.header, selector_evaluator=evaluate,
                                   read_order=self.read_order)
        for index in ("_kind_keys", "_by_key", "_last"):  # the same objects: their indexes hold
            if index in self.__dict__:
                snapshot.__dict__[index] = self.__dict__[index]
        return snapshot

    def of_kind(self, kind: str) -> tuple[dict[str, Any], ...]:
        """All objects of one kind, sorted by (namespace, name); empty if the kind was not read."""
        return self.objects.get(kind, ())

    @cached_property
    def _by_key(self) -> Mapping[tuple[str, str, str], dict[str, Any]]:
        return MappingProxyType({(kind, *object_key(obj)): obj for kind, objs in self.objects.items() for obj in objs})

    def get(self, kind: str, name: str, namespace: str = "") -> dict[str, Any] | None:
        """One object by kind, name and namespace ("" for cluster-scoped kinds), or None."""
        return self._by_key.get((kind, namespace, name))

    # -- nodes and pods (cluster/index.py) -------------------------------------------------------------------------

    @cached_property
    def node_index(self) -> NodeIndex:
        """Nodes by name and label, pods by node and group, pending pods, requested resources per node."""
        from kubectl_wasdra.cluster.index import build_node_index
        from kubectl_wasdra.load.heap import paused_gc

        with paused_gc():
            return build_node_index(self.of_kind("Node"), self.of_kind("Pod"))

    def node(self, name: str) -> dict[str, Any] | None:
        """One Node by name, or None."""
        return self.node_index.nodes.get(name)

    def nodes_with_label(self, key: str, value: str | None = None) -> tuple[str, ...]:
        """Names of the nodes carrying label `key` (with `value` when given), sorted."""
        values = self.node_index.by_label.get(key, {})
        if value is not None:
            return values.get(value, ())
        return tuple(sorted(name for names in values.values() for name in names))

    def pods_on_node(self, name: str) -> tuple[dict[str, Any], ...]:
        """Non-terminal pods bound to the node (spec.nodeName), in snapshot order."""
        return self.node_index.pods_by_node.get(name, ())

    def pending_pods(self) -> tuple[dict[str, Any], ...]:
        """Pods waiting for the scheduler: no nodeName, not terminal, not being deleted."""
        return self.node_index.pending

    def pods_in_group(self, ref: GroupRef) -> tuple[dict[str, Any], ...]:
        """Pods of one scheduling group (index.group_ref gives a pod's group)."""
        return self.node_index.pods_by_group.get(ref, ())

    def free_resources(self, node_name: str) -> dict[str, Decimal]:
        """Allocatable minus the effective requests of the node's bound pods, per resource incl. "pods" (a fresh dict)."""
        return self.node_index.free(node_name)

    # -- DRA (cluster/pools.py, cluster/allocations.py) ---------------------------------------------------------------

    @cached_property
    def pools(self) -> Mapping[PoolKey, Pool]:
        """Every ResourceSlice pool by (driver, pool name), with completeness."""
        from kubectl_wasdra.cluster.pools import build_pools
        from kubectl_wasdra.load.heap import paused_gc

        with paused_gc():
            return build_pools(self.of_kind("ResourceSlice"))

    @cached_property
    def devices(self) -> Mapping[DeviceKey, Mapping[str, Any]]:
        """Devices of the newest generation of every pool by (driver, pool, device), as published (no rule taints)."""
        from kubectl_wasdra.cluster.pools import device_index
        from kubectl_wasdra.load.heap import paused_gc

        with paused_gc():
            return device_index(self.pools)

    @cached_property
    def rule_taints(self) -> Mapping[DeviceKey, tuple[RuleTaint, ...]]:
        """(DeviceTaintRule name, taint) per device selected by a rule (class/CEL rules of 1.33/1.34 only with an
        evaluator, see with_selector_evaluator)."""
        from kubectl_wasdra.cluster.pools import rule_taints

        return rule_taints(self.of_kind("DeviceTaintRule"), self.devices, self.of_kind("DeviceClass"), self.selector_evaluator)

    @cached_property
    def tainted_slices(self) -> tuple[Mapping[str, Any], ...]:
        """ResourceSlices as the scheduler sees them: DeviceTaintRule taints appended to the devices they select."""
        from kubectl_wasdra.cluster.pools import apply_rule_taints

        return apply_rule_taints(self.of_kind("ResourceSlice"), self.rule_taints)

    @cached_property
    def slices_by_node(self) -> tuple[Mapping[str, tuple[Mapping[str, Any], ...]], tuple[Mapping[str, Any], ...]]:
        """(tainted slices with spec.nodeName by node, tainted slices for several nodes)."""
        from kubectl_wasdra.cluster.pools import slices_by_node

        return slices_by_node(self.tainted_slices)

    @cached_property
    def allocated(self) -> AllocatedState:
        """Devices held by allocated ResourceClaims: exclusive, shares, consumed capacity and counters, holders."""
        from kubectl_wasdra.cluster.allocations import build_allocated_state
        from kubectl_wasdra.load.heap import paused_gc

        with paused_gc():
            return build_allocated_state(self.of_kind("ResourceClaim"), self.devices)

    # -- overlay ---------------------------------------------------------------------------------------------------

    def _keys_of(self, kind: str) -> list[tuple[str, str]]:
        """object_key of every object of one kind, in the order of of_kind (sorted); cached per snapshot."""
        cache = self.__dict__.setdefault("_kind_keys", {})
        keys = cache.get(kind)
        if keys is None:
            keys = cache[kind] = [object_key(obj) for obj in self.of_kind(kind)]
        return keys

    def overlay(self, extra: Iterable[dict[str, Any]]) -> ClusterSnapshot:
        """A new snapshot with `extra` objects added (replacing same kind/namespace/name); self is unchanged.
        Older resource.k8s.io versions are converted to v1; namespaced objects without a namespace go to "default".
        A few objects are merged into the sorted kinds by bisection and the key index is copied, not rebuilt: the
        what-ifs overlay a few objects on a snapshot of tens of thousands, many times."""
        added = [with_default_namespace(to_v1(obj)) for obj in extra]
        start = self._last_read() + 1
        order: dict[tuple[str, str, str], int] = {}
        by_kind: dict[str, dict[tuple[str, str], dict[str, Any]]] = {}
        for index, obj in enumerate(added):
            by_kind.setdefault(obj.get("kind", ""), {})[object_key(obj)] = obj
            order[(obj.get("kind", ""), *object_key(obj))] = start + index
        # kinds the overlay does not touch keep their very tuples: derived simulations see them unchanged (by identity)
        objects = {kind: objs for kind, objs in self.objects.items() if kind not in by_kind}
        kind_keys: dict[str, list[tuple[str, str]]] = {}
        for kind, items in by_kind.items():
            objects[kind], kind_keys[kind] = self._merged(kind, items)
        snapshot = ClusterSnapshot(
            objects=MappingProxyType(objects),
            header=self.header, selector_evaluator=self.selector_evaluator, read_order=layered(self.read_order, order),
        )
        snapshot.__dict__["_last"] = max(order.values(), default=start - 1)
        inherited = {kind: keys for kind, keys in self.__dict__.get("_kind_keys", {}).items() if kind not in by_kind}
        snapshot.__dict__["_kind_keys"] = {**inherited, **kind_keys}
        if "_by_key" in self.__dict__:  # the parent's index under the added objects
            added_keys = {(kind, *key): obj for kind, items in by_kind.items() for key, obj in items.items()}
            snapshot.__dict__["_by_key"] = layered(self._by_key, added_keys)
        return snapshot

    def _last_read(self) -> int:
        """The highest read_order position (cached: the map has an entry per object)."""
        if "_last" not in self.__dict__:
            self.__dict__["_last"] = max(self.read_order.values(), default=0)
        return int(self.__dict__["_last"])

    def _merged(self, kind: str, items: dict[tuple[str, str], dict[str, Any]],
                ) -> tuple[tuple[dict[str, Any], ...], list[tuple[str, str]]]:
        """(objects, keys) of one kind with `items` added or replacing, sorted by (namespace, name)."""
        current, keys = self.of_kind(kind), self._keys_of(kind)
        if len(items) > 64 or not all(map(operator.lt, keys, keys[1:])):  # many, or a kind not kept sorted: one sort
            merged = dict(zip(keys, current, strict=True))
            merged.update(items)
            ordered_keys = sorted(merged)
            return tuple(merged[k] for k in ordered_keys), ordered_keys
        objs, new_keys = list(current), list(keys)
        for key in sorted(items):
            at = bisect.bisect_left(new_keys, key)
            if at < len(new_keys) and new_keys[at] == key:
                objs[at] = items[key]
            else:
                new_keys.insert(at, key)
                objs.insert(at, items[key])
        return tuple(objs), new_keys


_MISSING: Final = object()
_MAX_LAYERS: Final = 4  # overlays of overlays deeper than this are flattened into one dict


class _Layered(Mapping[Any, Any]):
    """A read-only mapping: `own` entries over `parent`'s, without copying the parent (an overlay's index)."""

    __slots__ = ("depth", "own", "parent")

    def __init__(self, parent: Mapping[Any, Any], own: dict[Any, Any], depth: int) -> None:
        self.parent, self.own, self.depth = parent, own, depth

    def __getitem__(self, key: Any) -> Any:
        found = self.own.get(key, _MISSING)
        return self.parent[key] if found is _MISSING else found

    def get(self, key: Any, default: Any = None) -> Any:
        found = self.own.get(key, _MISSING)
        return self.parent.get(key, default) if found is _MISSING else found

    def __contains__(self, key: object) -> bool:
        return key in self.own or key in self.parent

    def __iter__(self) -> Iterator[Any]:
        yield from self.own
        yield from (key for key in self.parent if key not in self.own)

    def __len__(self) -> int:
        return len(self.own) + sum(1 for key in self.parent if key not in self.own)


def layered(parent: Mapping[Any, Any], own: dict[Any, Any]) -> Mapping[Any, Any]:
    """`own` over `parent` as one read-only mapping; flattened once the layers get deep."""
    depth = parent.depth + 1 if isinstance(parent, _Layered) else 1
    if depth > _MAX_LAYERS:
        return MappingProxyType({**parent, **own})
    return _Layered(parent, own, depth)


def with_default_namespace(obj: dict[str, Any]) -> dict[str, Any]:
    """The object with metadata.namespace "default" when it is namespaced and has none (as kubectl would create it)."""
    meta = obj.get("metadata") or {}
    if obj.get("kind") in CLUSTER_SCOPED_KINDS or meta.get("namespace"):
        return obj
    return {**obj, "metadata": {**meta, "namespace": "default"}}

