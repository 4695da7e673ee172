"""Changes that would make a group fit, each verified by re-running the simulation with the change applied (under the
run's what-if budget, most promising first: promise.py): drop the topology constraint, lower gang.minCount to what
fits, tolerate the taint that blocks most nodes, tolerate a device taint, fewer devices per pod, drop a matchAttribute,
another topology key (suggest_shape.py), free the devices of one allocated claim, enable the workload API, add N nodes
shaped like an existing one (with its ResourceSlices), raise the priority so that preemption makes room
(suggest_priority.py)."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.explain.model import Suggestion, Tried
from kubectl_wasdra.explain.promise import ordered
from kubectl_wasdra.explain.suggest_shape import fewer_devices, other_topology_key, relax_match_attribute
from kubectl_wasdra.explain.whatif import Budget, BudgetSpent, Verifier, group_object, where
from kubectl_wasdra.kube.taints import SCHEDULING_EFFECTS
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.admission import GENERIC_WORKLOAD, Gates
from kubectl_wasdra.sched.result import GroupResult
from kubectl_wasdra.sched.simulation import Simulation

MAX_EXTRA_NODES: Final = 64
# devices all clones together may add to one re-simulation: each costs the allocator and memory, so a node with 20,000
# devices is cloned at most a few times rather than up to MAX_EXTRA_NODES times
MAX_CLONED_DEVICES: Final = 100_000
MAX_FREE_TRIES: Final = 3  # allocated claims tried by free_devices (each try is one more simulation)


def drop_topology(verifier: Verifier) -> Suggestion | None:
    """Without schedulingConstraints.topology."""
    obj = group_object(verifier)
    key = verifier.result.entry.topology_key
    if obj is None or not key:
        return None
    obj["spec"].pop("schedulingConstraints", None)
    after = verifier.run([obj], kind="dropTopology", change="drop schedulingConstraints.topology")
    if after is None or not after.fits:
        return None
    return Suggestion("dropTopology", "drop schedulingConstraints.topology", where(after, key))


def lower_min_count(verifier: Verifier) -> Suggestion | None:
    """gang.minCount lowered to the most pods one placement could take."""
    obj, outcome = group_object(verifier), verifier.result.outcome
    entry = verifier.result.entry
    best = outcome.best if outcome is not None else None
    if obj is None or best is None or not entry.group or not entry.group.gang:
        return None
    count = best.placeable
    if count < 1 or count >= entry.min_count:
        return None
    obj["spec"]["schedulingPolicy"] = {"gang": {"minCount": count}}
    after = verifier.run([obj], kind="lowerMinCount", change=f"gang.minCount {count}")
    if after is None or not after.fits:
        return None
    domain = ", ".join(f"{k}={v}" for k, v in (after.domain or {}).items())
    where = f"fits in {domain}" if domain else f"fits: {len(after.placement)} pod(s) placed"
    return Suggestion("lowerMinCount", f"lower gang.minCount to {count}", where)


def _blocking_taint(result: GroupResult) -> tuple[Mapping[str, Any], int] | None:
    counts: Counter[tuple[str, str, str]] = Counter()
    for error in list(result.pod_errors.values())[:1]:
        for status in error.statuses.values():
            if status.reason is Reason.UNTOLERATED_TAINT:
                counts[(status.details.get("key", ""), status.details.get("value", ""), status.details.get("effect", ""))] += 1
    if not counts:
        return None
    (key, value, effect), nodes = counts.most_common(1)[0]
    return {"key": key, "operator": "Equal", "value": value, "effect": effect}, nodes


def tolerate_taint(verifier: Verifier) -> Suggestion | None:
    """Every pod of the group tolerating the taint that blocks most nodes."""
    found = _blocking_taint(verifier.result)
    if found is None:
        return None
    toleration, nodes = found
    pods = []
    for pod in verifier.result.entry.pods:
        obj = copy.deepcopy(dict(pod.pod))
        obj["spec"].setdefault("tolerations", []).append(toleration)
        pods.append(obj)
    text = f"{toleration['key']}={toleration['value']}:{toleration['effect']}"
    after = verifier.run(pods, kind="tolerateTaint", change=f"tolerate taint {text}")
    if after is None or not after.fits:
        return None
    return Suggestion("tolerateTaint", f"tolerate taint {text} (or remove it from the {nodes} node(s) carrying it)",
                      where(after, verifier.result.entry.topology_key))


def enable_api(verifier: Verifier) -> Suggestion | None:
    """The workload API served (runtime-config) and GenericWorkload on, when the group object was rejected."""
    notices = [n for n in verifier.result.notices if n.reason is Reason.API_NOT_SERVED]
    if not notices:
        return None
    api = str(notices[0].details.get("apiVersion", ""))
    gates = verifier.gates
    enabled = Gates(gates.release, {**gates.enabled_gates, GENERIC_WORKLOAD: True}, {**gates.runtime_config, api: True})
    after = verifier.run(gates=enabled, kind="enableAPI", change=f"serve {api}, {GENERIC_WORKLOAD} on")
    if after is None or not after.fits:
        return None
    return Suggestion("enableAPI", f"--runtime-config {api}=true --feature-gates {GENERIC_WORKLOAD}=true (on the cluster)",
                      where(after, verifier.result.entry.topology_key))


def _template_node(result: GroupResult) -> str | None:
    """A node worth cloning: in the best placement (then in the other domains tried), rejected only for capacity,
    else the best placement's first node."""
    outcome = result.outcome
    best = outcome.best if outcome is not None else None
    nodes = best.nodes if best is not None else (result.state.node_names if result.state else ())
    tried = [(best.nodes, result.pod_errors)] if best is not None else [(nodes, result.pod_errors)]
    tried += [(a.nodes, a.failed) for a in (outcome.attempts if outcome is not None else ()) if a is not best]
    for scope, failed in tried:
        for error in list(failed.values())[:1]:
            for node in scope:
                status = error.statuses.get(node)
                if status is not None and status.reason in _CAPACITY_REASONS:
                    return node
    return nodes[0] if nodes else None


_CAPACITY_REASONS = (Reason.INSUFFICIENT_RESOURCE, Reason.TOO_MANY_PODS, Reason.DEVICES_ALLOCATED,
                     Reason.NO_MATCHING_DEVICES)


def _node_slices(snapshot: ClusterSnapshot, name: str) -> list[dict[str, Any]]:
    """The ResourceSlices the node publishes itself (spec.nodeName), as a clone of it would."""
    return [s for s in snapshot.of_kind("ResourceSlice") if (s.get("spec") or {}).get("nodeName") == name]


def _clones(snapshot: ClusterSnapshot, name: str, count: int) -> list[dict[str, Any]]:
    node = snapshot.get("Node", name)
    if node is None:
        return []
    slices = _node_slices(snapshot, name)
    out = []
    for index in range(1, count + 1):
        clone_name = f"{name}-like-{index}"
        clone = copy.deepcopy(node)
        clone["metadata"] = {**clone.get("metadata", {}), "name": clone_name}
        out.append(clone)
        for item in slices:  # the device list is shared, not copied: snapshots are never mutated
            spec = item.get("spec") or {}
            pool = spec.get("pool") if isinstance(spec.get("pool"), dict) else {}
            out.append({**item, "metadata": {"name": f"{item['metadata']['name']}-like-{index}"},
                        "spec": {**spec, "nodeName": clone_name,
                                 "pool": {**pool, "name": f"{pool.get('name', name)}-like-{index}"}}})
    return out


def _devices_on(snapshot: ClusterSnapshot, name: str) -> int:
    """How many devices the node's own slices publish (what each clone adds to every re-simulation)."""
    return sum(len((s.get("spec") or {}).get("devices") or ()) for s in _node_slices(snapshot, name))


def _clones_cannot_help(result: GroupResult, node: str) -> bool:
    """True when the node rejects the pod because none of its devices match: a clone has the same devices."""
    error = next(iter(result.pod_errors.values()), None)
    status = error.statuses.get(node) if error is not None else None
    return status is not None and status.reason == Reason.NO_MATCHING_DEVICES


def more_nodes(verifier: Verifier) -> Suggestion | None:
    """The fewest extra nodes shaped like an existing one (labels, allocatable, devices) that make the group fit."""
    template = _template_node(verifier.result)
    if template is None or _clones_cannot_help(verifier.result, template):
        return None
    entry, outcome = verifier.result.entry, verifier.result.outcome
    best = outcome.best if outcome is not None else None
    count = max(entry.min_count - (best.placeable if best is not None else 0), 1)
    per_node = _devices_on(verifier.snapshot, template)
    while count <= MAX_EXTRA_NODES and count * per_node <= MAX_CLONED_DEVICES:
        after = verifier.run(_clones(verifier.snapshot, template, count), kind="addNodes",
                             change=f"{count} more node(s) like {template}")
        if after is not None and after.fits:
            return Suggestion("addNodes", f"add {count} more node(s) like {template}", where(after, entry.topology_key))
        count *= 2
    return None


def _device_taint(verifier: Verifier) -> Mapping[str, Any] | None:
    """The NoSchedule/NoExecute device taint most common on the nodes where the first failed pod hit DeviceTainted."""
    snapshot = verifier.snapshot
    nodes = {node for error in list(verifier.result.pod_errors.values())[:1]
             for node, status in error.statuses.items() if status.reason is Reason.DEVICE_TAINTED}
    counts: Counter[tuple[str, str, str]] = Counter()
    for item in snapshot.tainted_slices:  # DeviceTaintRule taints are in the devices' taints there
        spec = item.get("spec") or {}
        if spec.get("nodeName") not in nodes:
            continue
        for device in spec.get("devices") or ():
            counts.update((t.get("key", ""), str(t.get("value", "")), t.get("effect", "")) for t in device.get("taints") or ()
                          if t.get("effect") in SCHEDULING_EFFECTS)
    if not counts:
        return None
    key, value, effect = counts.most_common(1)[0][0]
    return {"key": key, "operator": "Equal", "value": value, "effect": effect}


def _tolerating(template: Mapping[str, Any], toleration: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(dict(template))
    for request in (((out.get("spec") or {}).get("spec") or {}).get("devices") or {}).get("requests") or ():
        targets = request.get("firstAvailable") or [request.get("exactly") or {}]
        for target in targets:
            target.setdefault("tolerations", []).append(dict(toleration))
    return out


def tolerate_device_taint(verifier: Verifier) -> Suggestion | None:
    """The group's claim templates tolerating the device taint that blocks most nodes."""
    toleration = _device_taint(verifier)
    if toleration is None:
        return None
    names = {(p.namespace, c.get("resourceClaimTemplateName")) for p in verifier.result.entry.pods for c in p.claims
             if c.get("resourceClaimTemplateName")}
    templates = [verifier.snapshot.get("ResourceClaimTemplate", name, ns) for ns, name in sorted(names)]
    changed = [_tolerating(t, toleration) for t in templates if t is not None]
    text = f"{toleration['key']}={toleration['value']}:{toleration['effect']}"
    after = verifier.run(changed, kind="tolerateDeviceTaint", change=f"tolerate device taint {text}") if changed else None
    if after is None or not after.fits:
        return None
    return Suggestion("tolerateDeviceTaint", f"tolerate device taint {text} in the claim requests",
                      where(after, verifier.result.entry.topology_key))


def _devices_short(result: GroupResult) -> int:
    """Pods the best placement is short by when only devices stopped them (every node rejecting the first pod that
    did not fit did so in the DRA allocator), else 0. Each device freed lets at most one more pod in, so a claim
    of fewer devices than this cannot make the group fit."""
    outcome = result.outcome
    best = outcome.best if outcome is not None else None
    error = next(iter(result.pod_errors.values()), None)
    if best is None or error is None or not error.statuses:
        return 0
    if any(status.reason not in _DEVICE_REASONS for status in error.statuses.values()):
        return 0
    return max(result.entry.min_count - best.placeable, 0)


# devices in use, or none of the free ones aligned: an exclusive device freed serves one more pod at most (capacity and
# counters are left out: freeing a share of a device or a partition's counters may let several pods in)
_DEVICE_REASONS = frozenset({Reason.DEVICES_ALLOCATED, Reason.CONSTRAINT_UNSATISFIABLE})


def _holders(verifier: Verifier) -> list[tuple[int, dict[str, Any]]]:
    """Allocated claims on the best placement's nodes that free enough devices to matter (_devices_short), fewest
    devices first: (device count, claim)."""
    best = verifier.result.outcome.best if verifier.result.outcome is not None else None
    nodes = set(best.nodes) if best is not None else set()
    short = _devices_short(verifier.result)
    out = []
    for claim in verifier.snapshot.of_kind("ResourceClaim"):
        allocation = (claim.get("status") or {}).get("allocation") or {}
        results = (allocation.get("devices") or {}).get("results") or ()
        selector = allocation.get("nodeSelector") or {}
        names = {v for term in selector.get("nodeSelectorTerms") or () for f in term.get("matchFields") or ()
                 for v in f.get("values") or ()}
        shared = any(isinstance(r, dict) and (r.get("consumedCapacity") or r.get("shareID")) for r in results)
        if results and names & nodes and (shared or len(results) >= short):
            out.append((len(results), claim))
    return sorted(out, key=lambda item: (item[0], item[1]["metadata"].get("name", "")))[:MAX_FREE_TRIES]


def free_devices(verifier: Verifier) -> Suggestion | None:
    """Free the devices of one allocated claim (and stop the pods holding it) on the nodes of the best placement."""
    for count, claim in _holders(verifier):
        meta = claim.get("metadata") or {}
        namespace = meta.get("namespace", "default")
        freed = copy.deepcopy(claim)
        freed.pop("status", None)
        holders = [{**copy.deepcopy(pod), "status": {"phase": "Succeeded"}}
                   for ref in (claim.get("status") or {}).get("reservedFor") or () if ref.get("resource") == "pods"
                   for pod in [verifier.snapshot.get("Pod", ref.get("name", ""), namespace)] if pod is not None]
        after = verifier.run([freed, *holders], kind="freeDevices",
                             change=f"free ResourceClaim {namespace}/{meta.get('name')}")
        if after is not None and after.fits:
            return Suggestion("freeDevices", f"free the {count} device(s) of ResourceClaim {namespace}/{meta.get('name')}"
                              + (f" (stop pod {holders[0]['metadata']['name']})" if holders else ""),
                              where(after, verifier.result.entry.topology_key))
    return None


def _raise_priority(verifier: Verifier) -> Suggestion | None:
    from kubectl_wasdra.explain.suggest_priority import raise_priority  # imports this module's Verifier

    return raise_priority(verifier)


SUGGESTERS: Final[tuple[Callable[[Verifier], Suggestion | None], ...]] = (
    enable_api, drop_topology, lower_min_count, tolerate_taint, tolerate_device_taint, fewer_devices,
    relax_match_attribute, other_topology_key, free_devices, more_nodes, _raise_priority,
)


def suggest(snapshot: ClusterSnapshot, gates: Gates, result: GroupResult, base: Simulation | None = None,
            budget: Budget | None = None, progress: Callable[[str], None] | None = None,
            ) -> tuple[list[Suggestion], list[Tried], str]:
    """Verified suggestions for a group that does not fit (none for one that fits or is invalid), every what-if tried
    and a note when none was found; `base` is the simulation `result` came from (its prepared state is reused by the
    re-runs), `budget` bounds the what-ifs (shared by all groups of a run). Candidates run most promising first."""
    if result.fits or (result.entry.blocked is not None and result.entry.blocked.reason is Reason.GROUP_INVALID):
        return [], [], ""
    verifier = Verifier(snapshot, gates, result, base, budget or Budget(), progress=progress)
    found: list[tuple[int, Suggestion]] = []  # shown in SUGGESTERS' order, whatever order they were tried in
    note = ""
    try:
        for suggester in ordered(result, SUGGESTERS):
            suggestion = suggester(verifier)
            if suggestion is not None:
                found.append((SUGGESTERS.index(suggester), suggestion))
    except BudgetSpent:
        note = f"what-if budget spent ({verifier.budget.describe()}; raise it with --what-if-budget)"
        if not verifier.tried:
            return [], [], f"not searched: {note}"
    if not found:
        note = "no single change found" + (f"; {note}" if note else "")
    return [suggestion for _, suggestion in sorted(found, key=lambda item: item[0])], verifier.tried, note
