"""The cluster grid of the HTML report, as data: domain -> node -> NUMA node -> device, each device in one state (this
group, used by others, node tainted, excluded by the request's selectors, device tainted, free), with per-domain counts
over every node and node rows only for the first nodes of each domain (the ones this group uses first), so the grid
of a 5,000-node cluster stays a few hundred kilobytes.

The states follow the allocator's funnel order (kubectl_wasdra/dra/funnel.py: in use -> class and selectors ->
untainted), after the node filter that runs before DRA (TaintToleration): a device counts once, in its first state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.dra.views import DeviceView, value_error
from kubectl_wasdra.errors import CelCompileError, CelRuntimeError
from kubectl_wasdra.explain.ordering import natural_key
from kubectl_wasdra.explain.placement_map import (
    _classes_of,
    _domain_order,
    _group_devices,
    _nodes_of,
    _numa,
    _victims_per_node,
)
from kubectl_wasdra.kube.taints import SCHEDULING_EFFECTS, first_untolerated
from kubectl_wasdra.sched.result import GroupResult

STATES: Final = ("this", "used", "nodeTainted", "excluded", "deviceTainted", "free")  # the order a device is judged in
ROWS_PER_DOMAIN: Final = 8  # node rows drawn per domain (this group's nodes first); every node is counted
ROWS_WITHOUT_DOMAINS: Final = 32  # node rows drawn for a group without topology domains
DOMAINS_WITH_ROWS: Final = 12  # domains whose node rows are drawn; the others get their summary row only


def _request_specs(snapshot: ClusterSnapshot, result: GroupResult) -> list[tuple[str, str, tuple[str, ...]]]:
    """(request name, DeviceClass, CEL expressions of the class and the request) of every request of the group's
    claims (v1 exactly/firstAvailable and v1beta1 requests), each once."""
    seen: dict[tuple[str, str, tuple[str, ...]], None] = {}
    for pod in result.pods:
        for entry in pod.claims:
            spec = _claim_spec(snapshot, pod.namespace, entry)
            for request in ((spec.get("devices") or {}).get("requests") or ()):
                for name, body in _alternatives(request):
                    class_name = str(body.get("deviceClassName") or "")
                    device_class = snapshot.get("DeviceClass", class_name) or {}
                    selectors = [*((device_class.get("spec") or {}).get("selectors") or ()), *(body.get("selectors") or ())]
                    expressions = tuple(str((s.get("cel") or {}).get("expression", "")) for s in selectors if s.get("cel"))
                    seen[(name, class_name, expressions)] = None
    return list(seen)


def _claim_spec(snapshot: ClusterSnapshot, namespace: str, entry: Mapping[str, Any]) -> Mapping[str, Any]:
    if entry.get("resourceClaimName"):
        return (snapshot.get("ResourceClaim", entry["resourceClaimName"], namespace) or {}).get("spec") or {}
    template = snapshot.get("ResourceClaimTemplate", entry.get("resourceClaimTemplateName") or "", namespace) or {}
    return (template.get("spec") or {}).get("spec") or {}


def _alternatives(request: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """The request's device requirements: v1 `exactly`, each `firstAvailable` subrequest, or a v1beta1 request."""
    name = str(request.get("name", ""))
    if isinstance(request.get("exactly"), Mapping):
        return [(name, request["exactly"])]
    if request.get("firstAvailable"):
        return [(f"{name}/{sub.get('name', '')}", sub) for sub in request["firstAvailable"] if isinstance(sub, Mapping)]
    return [(name, request)]


class _Selection:
    """Whether a device matches any request of the group (its class and selectors), evaluated once per device and
    kept in `memo` (shared by the groups of one run whose requests are the same: a Job's pods)."""

    def __init__(self, snapshot: ClusterSnapshot, requests: Sequence[tuple[str, str, tuple[str, ...]]],
                 memo: dict[tuple[str, str, str], bool]) -> None:
        from kubectl_wasdra.dra.cel import compile_selector

        self.requests = []
        for _name, class_name, expressions in requests:
            if snapshot.get("DeviceClass", class_name) is None:
                continue  # DeviceClassNotFound: every device is excluded for this request
            try:
                self.requests.append(tuple(compile_selector(e) for e in expressions))
            except CelCompileError:
                self.requests.append(None)  # SelectorError: the reason table says so; the grid draws no verdict
        self.active = bool(requests)
        self.memo = memo

    def matches(self, key: tuple[str, str, str], device: Mapping[str, Any]) -> bool:
        """True when some request could select the device (or the group has no device request to judge by)."""
        if not self.active:
            return True
        found = self.memo.get(key)
        if found is None:
            driver = key[0]
            found = any(compiled is None or all(self._one(c, driver, device) for c in compiled)
                        for compiled in self.requests)
            self.memo[key] = found
        return found

    @staticmethod
    def _one(compiled: Any, driver: str, device: Mapping[str, Any]) -> bool:
        try:
            return bool(compiled.matches_device(driver, device, lambda: DeviceView(driver, device, str(device.get("name", ""))),
                                                lambda: value_error(device)))
        except CelRuntimeError:
            return False  # upstream: a runtime error fails the allocation on that device


def _device_state(key: tuple[str, str, str], device: Mapping[str, Any], node_tainted: bool, selected: bool,
                  mine: set, used: set) -> str:
    if key in mine:
        return "this"
    if key in used:
        return "used"
    if node_tainted:
        return "nodeTainted"
    if not selected:
        return "excluded"
    if any(t.get("effect") in SCHEDULING_EFFECTS for t in device.get("taints") or ()):
        return "deviceTainted"
    return "free"


def _node_taint(result: GroupResult, facts: Any) -> str:
    """The node's first taint the group's first pod does not tolerate ("key=value:Effect"), "cordoned", or ""."""
    if facts.unschedulable:
        return "cordoned"
    tolerations = result.pods[0].tolerations if result.pods else ()
    taint = first_untolerated(facts.taints, tolerations)
    if taint is None:
        return ""
    value = f"={taint.get('value')}" if taint.get("value") else ""
    return f"{taint.get('key', '')}{value}:{taint.get('effect', '')}"


def _counts() -> dict[str, int]:
    return dict.fromkeys(STATES, 0)


class _Judge:
    """Everything a device's state depends on, prepared once per group."""

    def __init__(self, snapshot: ClusterSnapshot, result: GroupResult, used: set, memo: dict[Any, Any]) -> None:
        mine, earlier = _group_devices(result)
        self.mine, self.used = mine, used | earlier
        self.requests = _request_specs(snapshot, result)
        self.selection = _Selection(snapshot, self.requests, memo.setdefault(tuple(self.requests), {}))
        self.result = result
        self.by_node = snapshot.slices_by_node[0]
        self.drivers: set[str] = set()

    def node_row(self, node: str, counts: dict[str, int], draw: bool) -> dict[str, Any] | None:
        """Adds the node's devices to `counts`; with `draw`, the row: taint, NUMA nodes and their cells."""
        assert self.result.state is not None
        taint = _node_taint(self.result, self.result.state.facts[node])
        numas: dict[Any, list[list[str]]] = {}
        for item in self.by_node.get(node, ()):
            spec = item.get("spec") or {}
            driver, pool = str(spec.get("driver", "")), str((spec.get("pool") or {}).get("name", ""))
            self.drivers.add(driver)
            for device in spec.get("devices") or ():
                name = str(device.get("name", ""))
                key = (driver, pool, name)
                state = _device_state(key, device, bool(taint), self.selection.matches(key, device), self.mine, self.used)
                counts[state] += 1
                if draw:
                    numas.setdefault(_numa(device), []).append([state, driver, name])
        if not draw:
            return None
        order = sorted(numas, key=lambda n: (n is None, n if n is not None else 0))
        return {"node": node, "taint": taint, "numa": [{"numa": n, "cells": numas[n]} for n in order]}


def _scope(result: GroupResult, key: str | None, by_node: Mapping[str, Any]) -> dict[str, list[str]]:
    """Domain value ("" without a key: the whole cluster) -> its nodes that publish devices, in natural order."""
    assert result.state is not None
    if key:
        index = result.state.domain_index(key)
        return {str(v): sorted((n for n in nodes if n in by_node), key=natural_key) for v, nodes in index.items()}
    return {"": sorted(by_node, key=natural_key)}


def build_grid(snapshot: ClusterSnapshot, result: GroupResult, key: str | None, used: set,
               memo: dict[Any, Any] | None = None) -> dict[str, Any] | None:
    """The grid of one group (see the module docstring), or None when no node publishes devices; `used` is
    placement_map.allocated_in_snapshot(snapshot); `memo` (one dict per run, given to every call) keeps which devices
    each set of requests selects. Domains come in the text map's order (most pods placeable first)."""
    by_node = snapshot.slices_by_node[0]
    if not by_node or result.state is None:
        return None
    scope = {value: nodes for value, nodes in _scope(result, key, by_node).items() if nodes}
    if not scope:
        return None
    judge = _Judge(snapshot, result, used, memo if memo is not None else {})
    evicted = _victims_per_node(result)
    first = set(result.placement.values()) | set(evicted) | _nodes_of(judge.mine, by_node)
    limit = ROWS_PER_DOMAIN if key else ROWS_WITHOUT_DOMAINS
    domains, totals = [], _counts()
    for index, value in enumerate(_domain_order(result, list(scope))):
        nodes = sorted(scope[value], key=lambda n: (n not in first, natural_key(n)))
        drawn = set(nodes[:limit]) if index < DOMAINS_WITH_ROWS else set()
        counts, rows = _counts(), []
        for node in nodes:
            row = judge.node_row(node, counts, node in drawn)
            if row is not None:
                row["evicts"] = evicted.get(node, 0)
                rows.append(row)
        for state in STATES:
            totals[state] += counts[state]
        domains.append({"value": value, "nodes": len(nodes), "counts": counts, "rows": rows,
                        "hiddenNodes": len(nodes) - len(rows)})
    return {"key": key, "states": list(STATES), "totals": totals,
            "classes": {driver: _classes_of(snapshot, driver) for driver in sorted(judge.drivers)},
            "requests": [{"request": r, "deviceClassName": c} for r, c, _ in judge.requests],
            "domains": domains}
