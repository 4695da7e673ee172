"""DynamicResources filter: the pod's ResourceClaims must be allocatable (or already allocated) for the node.

Upstream: kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go (release-1.37):
PreFilter looks claims up ("ResourceClaim not created yet", unknown claims), Filter runs the structured allocator
for the claims not yet allocated ("cannot allocate all claims") and checks allocated ones against the node
("resourceclaim not available on the node"). This is the only sched module that talks to dra/.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Final

from kubectl_wasdra.kube.selectors import matches_node_selector
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.nodeinfo import NodeInfo
from kubectl_wasdra.sched.podinfo import PodInfo
from kubectl_wasdra.sched.profiles import DEFAULT_PROFILE
from kubectl_wasdra.sched.status import Code, Status

NAME: Final = "DynamicResources"
CANNOT_ALLOCATE: Final = "cannot allocate all claims"
NOT_AVAILABLE: Final = "resourceclaim not available on the node"
NO_TIMEOUT_STEPS: Final = 5_000_000  # filterTimeout 0s disables the timeout; the search still stops somewhere
_FUNNEL_REASONS: Final = {reason.value: reason for reason in Reason}


def _allocated_selector(state: Any, claim: Any) -> Any:
    """The nodeSelector (or node name) of an allocation made earlier, in the snapshot or in this simulation; or False."""
    if claim.key in state.allocated:
        return state.allocated[claim.key]
    allocation = (claim.claim.get("status") or {}).get("allocation")
    if allocation is None:
        return False
    return allocation.get("nodeSelector")


def _available_on(selector: Any, node: NodeInfo) -> bool:
    if isinstance(selector, str):
        return selector == node.name
    return selector is None or matches_node_selector(selector, node.facts.node)


def _failure_status(failure: Any) -> Status:
    reason = _FUNNEL_REASONS.get(str(getattr(failure, "reason", "")), Reason.NO_MATCHING_DEVICES)
    details = {"funnel": getattr(failure, "summary", "")} if getattr(failure, "summary", "") else {}
    if getattr(failure, "stages", None):
        details["funnelStages"] = failure.stages
    if getattr(failure, "fatal", False):
        return Status(Code.ERROR, reason, str(getattr(failure, "message", CANNOT_ALLOCATE)), details, NAME)
    # per-node allocator errors keep their own text (dynamicresources.go Filter: ErrFailedAllocationOnNode)
    return Status.unresolvable(reason, str(getattr(failure, "node_message", "") or CANNOT_ALLOCATE), NAME, **details)


def filter_node(pod: PodInfo, node: NodeInfo) -> Status | None:
    """None if every claim is allocated for this node already or the allocator finds devices on it."""
    state = node.state.dra
    claims = state.claims_of(pod) if state is not None and pod.claims_or_extended else ()
    if not claims:
        return None
    pending = []
    for claim in claims:
        selector = _allocated_selector(state, claim)
        if selector is False:
            pending.append(claim)
        elif not _available_on(selector, node):
            return Status.unresolvable(Reason.CLAIM_ALLOCATED_ELSEWHERE, NOT_AVAILABLE, NAME, claim="/".join(claim.key))
    if not pending:
        return None
    limit = (pod.profile or DEFAULT_PROFILE).dra_step_limit  # the stand-in for the profile's filterTimeout
    result = state.allocate(pending, node, limit if state.filter_timeout else None)
    if getattr(result, "ok", False):
        state.remember(pod, node.name, result)
        return None
    return _failure_status(result)


class Outcome:
    """What the allocator said for one pod on one node: ok with an allocation, or a failure with its funnel."""

    __slots__ = ("allocation", "fatal", "message", "node_message", "ok", "reason", "stages", "summary")

    def __init__(self, ok: bool, allocation: Any = None, reason: str = "", message: str = "", summary: str = "",
                 fatal: bool = False, node_message: str = CANNOT_ALLOCATE, stages: tuple[Any, ...] = ()) -> None:
        self.ok, self.allocation, self.reason, self.message = ok, allocation, reason, message
        self.summary, self.fatal, self.node_message, self.stages = summary, fatal, node_message, stages


class DraState:
    """Devices as the simulation sees them: the inventory (shared), the usage ledger and the claims allocated so far
    (in `vars`, `allocated` and `devices`, changed through the state's journal), and the allocation the filter found
    for the pod being placed."""

    def __init__(self, snapshot: Any, inventory: Any, usage: Any, extended_names: frozenset[str],
                 resolve: Any, features: Any = None) -> None:
        self.snapshot, self.inventory = snapshot, inventory
        self.features = features  # dra.Features (None: the allocator's defaults)
        self.filter_timeout = True  # DRASchedulerFilterTimeout: without it the Filter has no timeout
        self._as_stored: dict[int, tuple[Mapping[str, Any], Mapping[str, Any]]] = {}
        self.vars: dict[str, Any] = {"usage": usage}
        self.initial_usage = usage
        self.extended_names = extended_names
        self.allocated: dict[tuple[str, str], Any] = {}
        self.devices: dict[tuple[str, str], tuple[Mapping[str, str], ...]] = {}
        self.resolve = resolve  # PodInfo -> tuple[Resolved, ...] | Status (cached by the caller)
        self.found: dict[tuple[int, str], Outcome] = {}
        self._by_node: dict[str, tuple[str, ...]] | None = None
        self._shared: bool | None = None
        self._free_count: dict[str, tuple[int | None, int]] = {}  # node -> (node generation, unallocated local devices)
        self._needed: dict[tuple[int, ...], tuple[tuple[Any, ...], int | None]] = {}  # claim specs -> _device_count

    @property
    def usage(self) -> Any:
        """The current DeviceUsage ledger (immutable; replaced on every assume)."""
        return self.vars["usage"]

    def claims_of(self, pod: PodInfo) -> tuple[Any, ...]:
        """The pod's resolved claims (empty when PreFilter failed: the pod never reaches Filter then)."""
        resolved = self.resolve(pod)
        return () if isinstance(resolved, Status) else resolved

    def pre_filter(self, pod: PodInfo) -> Status | None:
        """The PreFilter status keeping the pod off every node, or None."""
        resolved = self.resolve(pod)
        return resolved if isinstance(resolved, Status) else None

    def allocate(self, claims: list[Any], node: NodeInfo, step_limit: int | None) -> Outcome:
        """Ask the allocator for devices for `claims` on `node` against the current usage. While looking for a node
        (not explaining one), a node with fewer unallocated devices than the claims need is rejected without asking.
        `step_limit` stands for the profile's filterTimeout (None: the timeout is disabled)."""
        if not node.state.diagnosing and self._too_few_devices(claims, node.name, node.state.node_gen.get(node.name)):
            return Outcome(False, reason=Reason.DEVICES_ALLOCATED.value, message=CANNOT_ALLOCATE)
        return _allocate([self._stored(c.claim) for c in claims], tuple(claims), node.facts.node, self.inventory,
                         self.usage, self.features, step_limit)

    def _stored(self, claim: Mapping[str, Any]) -> Mapping[str, Any]:
        """The claim as the API server keeps it with this simulation's gates (disabled fields dropped), one object
        per claim so the allocator's per-claim-set caches stay warm."""
        found = self._as_stored.get(id(claim))
        if found is None or found[0] is not claim:
            from kubectl_wasdra.dra.features import drop_disabled_fields

            stored = drop_disabled_fields(claim, self.features) if self.features is not None else claim
            found = self._as_stored[id(claim)] = (claim, stored)
        return found[1]

    def _too_few_devices(self, claims: list[Any], node_name: str, generation: int | None) -> bool:
        """True when the node's unallocated devices cannot cover the devices the claims ask for (an upper bound:
        only node-local slices, exact counts, no admin access; anything else answers False). The free count is
        kept per node while its `generation` (SchedState.node_gen) is unchanged: only node-local devices count."""
        devices = self._local_devices().get(node_name) if self.usage is not None else None
        needed = self._device_count(claims) if devices is not None else None
        if devices is None or needed is None:
            return False
        cached = self._free_count.get(node_name)
        if cached is None or cached[0] != generation or generation is None:
            is_exclusive = self.usage.is_exclusive
            cached = self._free_count[node_name] = (generation, sum(1 for key in devices if not is_exclusive(key)))
        return cached[1] < needed

    def _device_count(self, claims: list[Any]) -> int | None:
        """_device_count, once per set of claim specs (the claims of one template's copies share its spec object)."""
        specs = tuple(claim.claim.get("spec") for claim in claims)
        key = tuple(map(id, specs))
        found = self._needed.get(key)
        if found is None or any(a is not b for a, b in zip(found[0], specs, strict=True)):
            found = self._needed[key] = (specs, _device_count(claims))  # keeps the specs alive: their ids stay theirs
        return found[1]

    def _local_devices(self) -> dict[str, tuple[str, ...]]:
        """Node-local device keys per node, for nodes where counting devices is a true bound. Left out: nodes with a
        device allowing multiple allocations (it serves several requests and claims: only its capacity decides) and
        nodes whose pools might be invalid (counters, pools of several slices, repeated device names: the allocator
        then answers "invalid resource pools were encountered", not "cannot allocate all claims")."""
        if self._by_node is None:
            by_node: dict[str, list[str]] = {}
            skip: set[str] = set()
            for item in self.snapshot.of_kind("ResourceSlice"):
                spec = item.get("spec") or {}
                if not spec.get("nodeName") or spec.get("perDeviceNodeSelection"):
                    by_node = {}  # devices reachable from several nodes: no simple bound
                    break
                pool = spec.get("pool") or {}
                devices = [d for d in spec.get("devices") or () if isinstance(d, dict)]
                if _not_countable(spec, pool, devices):
                    skip.add(spec["nodeName"])
                by_node.setdefault(spec["nodeName"], []).extend(
                    f"{spec.get('driver', '')}/{pool.get('name', '')}/{d.get('name', '')}" for d in devices)
            self._by_node = {node: tuple(keys) for node, keys in by_node.items()
                             if node not in skip and len(set(keys)) == len(keys)}
        return self._by_node

    def remember(self, pod: PodInfo, node_name: str, outcome: Outcome) -> None:
        """Keep the allocation found while filtering so assume() can apply it without running the allocator again."""
        self.found[(id(pod), node_name)] = outcome

    def assume(self, pod: PodInfo, node_name: str, setter: Any) -> bool:
        """Apply the allocation found for `pod` on `node_name` through `setter` (the state's journaled set); True
        when devices were allocated."""
        outcome = self.found.pop((id(pod), node_name), None)
        if outcome is None or outcome.allocation is None:
            return False
        setter(self.vars, "usage", _apply(outcome.allocation, self.usage))
        for key, devices, node_selector in _claim_results(outcome.allocation, self.claims_of(pod)):
            setter(self.allocated, key, node_selector)
            setter(self.devices, key, devices)
        return True

    def retarget(self, pod: PodInfo, node_name: str, twin: Outcome | None) -> bool:
        """Reuse the allocation a pod of the same shape got on an unchanged node for `pod` (the same devices, `pod`'s
        own claims), as if the filter had just found it; False when that cannot be done safely (no allocation,
        shared devices with share IDs, claims that do not line up)."""
        allocation = getattr(twin, "allocation", None)
        if allocation is None:
            return False
        result = allocation[1]
        if any(r.share_id for claim in result.claims for r in claim.results):
            return False
        pending = [c for c in self.claims_of(pod) if _allocated_selector(self, c) is False]
        if len(pending) != len(result.claims):
            return False
        claims = tuple(replace(done, claim=self._stored(c.claim)) for done, c in zip(result.claims, pending, strict=True))
        self.found[(id(pod), node_name)] = Outcome(True, allocation=(tuple(pending), replace(result, claims=claims)))
        return True

    def has_shared_devices(self) -> bool:
        """True when some slice is not node-local (network-attached devices: an allocation on one node changes what
        other nodes can get)."""
        if self._shared is None:
            self._shared = any(not (s.get("spec") or {}).get("nodeName") or (s.get("spec") or {}).get("perDeviceNodeSelection")
                               for s in self.snapshot.of_kind("ResourceSlice"))
        return self._shared

    def claims_shape(self, pod: PodInfo) -> list[Any] | None:
        """What the DynamicResources filter reads of the pod's claims, without their names: per claim its spec and
        where it is allocated (None while pending); None when claims cannot be resolved."""
        resolved = self.resolve(pod)
        if isinstance(resolved, Status):
            return None
        out = []
        for claim in resolved:
            selector = _allocated_selector(self, claim)
            out.append(((claim.claim.get("spec") or {}), None if selector is False else selector))
        return out

    def claim_refs(self, pod: PodInfo) -> tuple[str, ...]:
        """"namespace/name" of the pod's claims, as allocator messages name them."""
        refs = []
        for claim in self.claims_of(pod):
            meta = claim.claim.get("metadata") or {}
            namespace, name = str(meta.get("namespace") or ""), str(meta.get("name") or "")
            refs.append(f"{namespace}/{name}" if namespace else name)
        return tuple(refs)


def _not_countable(spec: Mapping[str, Any], pool: Mapping[str, Any], devices: list[Mapping[str, Any]]) -> bool:
    """True when a node-local slice makes a device count meaningless as a bound (see DraState._local_devices)."""
    return (pool.get("resourceSliceCount", 1) != 1 or bool(spec.get("sharedCounters"))
            or any(d.get("allowMultipleAllocations") is True or d.get("consumesCounters") for d in devices))


def _device_count(claims: list[Any]) -> int | None:
    """Devices the claims need at least, or None when that is not a plain count (All mode, admin access)."""
    total = 0
    for claim in claims:
        spec = claim.claim.get("spec")
        devices = spec.get("devices") if isinstance(spec, Mapping) else None
        requests = devices.get("requests") if isinstance(devices, Mapping) else None
        for request in requests if isinstance(requests, list) else ():
            options = (request.get("firstAvailable") or [request.get("exactly") or {}]) if isinstance(request, Mapping) else ()
            counts = []
            for option in options if isinstance(options, list) else ():
                count = option.get("count", 1) if isinstance(option, Mapping) else None
                if not isinstance(count, int) or option.get("allocationMode", "ExactCount") != "ExactCount" \
                        or option.get("adminAccess"):
                    return None  # not a plain count (or malformed: the allocator says what is wrong)
                counts.append(count)
            total += min(counts, default=0)
    return total


def _dra() -> Any:
    try:
        from kubectl_wasdra.dra import allocator
    except ImportError:  # the allocator package is not installed
        return None
    return allocator


def build_dra_state(snapshot: Any, resolve: Any, extended_names: frozenset[str], reuse: DraState | None = None,
                    enabled: Callable[[str], bool] | None = None, reuse_inventory: Any = None,
                    base_inventory: Any = None) -> DraState:
    """The DRA view of a snapshot: inventory and the usage ledger of claims allocated in the snapshot; `reuse` is the
    initial view of a snapshot with the same slices, classes, rules and claims (inventory and ledger are shared).
    `enabled` is the simulation's gate lookup: the allocator honours the DRA features it turns on (release defaults
    plus --feature-gates), as kube-scheduler builds its allocator Features from its own gates; None: 1.37 defaults.
    `reuse_inventory`: the inventory of a snapshot with the same slices, classes, rules and namespaces (the claims
    differ, so only the ledger is built again); `base_inventory` one whose slices may be reused object by object."""
    allocator = _dra()
    if allocator is None:
        return DraState(snapshot, None, None, extended_names, resolve)
    from kubectl_wasdra.dra.features import DEFAULT_FEATURES, Features

    features = Features.from_gates(enabled) if enabled is not None else DEFAULT_FEATURES
    if reuse is not None:
        state = DraState(snapshot, reuse.inventory, reuse.initial_usage, extended_names, resolve, features)
    else:
        from kubectl_wasdra.dra.inventory import build_inventory
        from kubectl_wasdra.dra.usage import DeviceUsage

        usage = DeviceUsage.from_claims(snapshot.of_kind("ResourceClaim"))
        inventory = reuse_inventory if reuse_inventory is not None else \
            build_inventory(snapshot, taint_rules=enabled is None or enabled("DRADeviceTaintRules"), base=base_inventory)
        state = DraState(snapshot, inventory, usage, extended_names, resolve, features)
    state.filter_timeout = enabled is None or enabled("DRASchedulerFilterTimeout")
    return state


def _funnel_text(failure: Any) -> str:
    funnel = getattr(failure, "funnel", None)
    if funnel is None:
        return str(failure.message)
    stages = " -> ".join(f"{stage.name} {stage.count}" for stage in funnel.stages)
    short = f"; first short: {funnel.first_short}" if funnel.first_short else ""
    return f"claim {funnel.claim} request {funnel.request} needs {funnel.needed}: {stages}{short}"


def funnel_stages(failure: Any) -> tuple[Any, ...]:
    """The short funnel as hashable data for per-domain aggregation: (claim, request, device class, needed, first short
    stage, ((stage, count), ...), matchAttribute or ""); () without a funnel."""
    funnel = getattr(failure, "funnel", None)
    if funnel is None or funnel.first_short is None:
        return ()
    return (funnel.claim, funnel.request, funnel.device_class, funnel.needed, funnel.first_short,
            tuple((stage.name, stage.count) for stage in funnel.stages), str(funnel.details.get("matchAttribute", "")))


def _allocate(claims: list[Mapping[str, Any]], resolved: tuple[Any, ...], node: Mapping[str, Any], inventory: Any,
              usage: Any, features: Any, step_limit: int | None) -> Outcome:
    allocator = _dra()
    if allocator is None or inventory is None:
        return Outcome(False, reason=Reason.NO_MATCHING_DEVICES.value, message="DRA allocator is not available", fatal=True)
    limit = NO_TIMEOUT_STEPS if step_limit is None else step_limit
    if features is None:
        result = allocator.allocate_claims(claims, node, inventory, usage, step_limit=limit)
    else:
        result = allocator.allocate_claims(claims, node, inventory, usage, features=features, step_limit=limit)
    if isinstance(result, allocator.Allocation):
        return Outcome(True, allocation=(resolved, result))
    return Outcome(False, reason=str(result.reason), message=str(result.message), summary=_funnel_text(result),
                   fatal=bool(result.fatal), node_message=str(result.node_message), stages=funnel_stages(result))


def _apply(allocation: Any, usage: Any) -> Any:
    return allocation[1].apply(usage)


def _claim_results(allocation: Any, claims: tuple[Any, ...]) -> list[tuple[tuple[str, str], tuple[Mapping[str, str], ...], Any]]:
    resolved, result = allocation
    return [(claim.key, tuple(r.status() for r in claim_allocation.results), claim_allocation.node_selector)
            for claim, claim_allocation in zip(resolved, result.claims, strict=True)]
