"""The kubelet's answer to a pod bound to its node: the Topology Manager admit handler, then the managers' Allocate.

Upstream: kubernetes/kubernetes pkg/kubelet/cm/topologymanager/scope_container.go and scope_pod.go (per container in
order, allocating before the next; or one merge for the pod), topology_manager.go (TopologyAffinityError,
"Resources cannot be allocated with Topology locality"; more NUMA nodes than max-allowable-numa-nodes stops the
kubelet), pkg/kubelet/cm/admission/errors.go (an Allocate error without a type is UnexpectedAdmissionError, "Allocate
failed due to <err>, which is unexpected"), cpumanager/policy_static.go (SMTAlignmentError, "not enough cpus
available"), memorymanager/policy_static.go ("failed to get the default NUMA affinity").
DRA devices are no hint provider in 1.37 (container_manager_linux.go registers device, CPU and memory managers only).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

from kubectl_wasdra.kubelet.bitmask import bits, render
from kubectl_wasdra.kubelet.facts import NodeNuma
from kubectl_wasdra.kubelet.hints import NONE, SINGLE_NUMA_NODE, Hint, Numa, decide
from kubectl_wasdra.kubelet.providers import Free, cpu_hints, device_hints, memory_hints
from kubectl_wasdra.kubelet.requests import POD_LEVEL_GATE, Ask, container_asks, pod_ask, pod_level

TOPOLOGY_AFFINITY_ERROR: Final = "TopologyAffinityError"
UNEXPECTED_ADMISSION_ERROR: Final = "UnexpectedAdmissionError"
SMT_ALIGNMENT_ERROR: Final = "SMTAlignmentError"
EMPTY_SHARED_POOL_ERROR: Final = "EmptyPodSharedPoolError"  # KEP-5526 pod scope (cpumanager policy_static.go)
EMPTY_SHARED_POOL_MESSAGE: Final = ("pod rejected, sum of exclusive container cpu requests equals pod budget, leaving "
                                    "no cpus for shared containers")
KUBELET_NOT_RUNNING: Final = "KubeletNotRunning"  # the kubelet refuses to start with this config: nothing is admitted
TM_MESSAGE: Final = "Resources cannot be allocated with Topology locality"
DEFAULT_MAX_NUMA: Final = 8


@dataclass
class Verdict:
    """Admitted or the kubelet's reason/message, our detail, and where each container's resources would sit."""

    admitted: bool
    reason: str = ""
    message: str = ""
    detail: str = ""
    placements: dict[str, dict[str, Any]] = field(default_factory=dict)  # container -> numa, cpus, devices, memory
    notes: list[str] = field(default_factory=list)


class _Rejected(Exception):
    def __init__(self, reason: str, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.reason, self.message, self.detail = reason, message, detail


def _amount(value: Any) -> str:
    """A count as the kubelet prints it: 2, not 2.0 (free amounts are Decimals after quantity arithmetic)."""
    return format(value.normalize(), "f") if isinstance(value, Decimal) else str(value)


def _asks_text(ask: Ask) -> str:
    parts = [f"{_amount(ask.cpus)} exclusive CPUs"] if ask.cpus else []
    parts += [f"{_amount(v)} {k}" for k, v in ask.memory.items()] + [f"{_amount(v)} {k}" for k, v in ask.devices.items()]
    return " and ".join(parts) or "nothing exclusive"


def _free_text(facts: NodeNuma, free: Free, ask: Ask) -> str:
    names = (["cpu"] if ask.cpus else []) + list(ask.memory) + list(ask.devices)
    return "; ".join(f"node-{z}: " + ", ".join(f"{_amount(free[z].get(n, 0))} {n}" for n in names) for z in facts.ids)


def _why(facts: NodeNuma, free: Free, ask: Ask) -> str:
    where = ("no NUMA node" if facts.topology_policy == SINGLE_NUMA_NODE
             else "no set of NUMA nodes as narrow as the machine allows")
    return f"{where} has {_asks_text(ask)} together (free: {_free_text(facts, free, ask)})"


def _take(free: Free, mask: int | None, name: str, amount: Decimal, ids: tuple[int, ...]) -> dict[int, Decimal] | None:
    """Take `amount` of a resource from the hint's zones first, then from any zone; None when short."""
    order = bits(mask) if mask is not None else list(ids)
    order += [z for z in ids if z not in order]
    taken: dict[int, Decimal] = {}
    left = amount
    for zone in order:
        got = min(left, free[zone].get(name, Decimal(0)))
        if got > 0:
            taken[zone], left = got, left - got
        if left <= 0:
            break
    if left > 0:
        return None
    for zone, got in taken.items():
        free[zone][name] -= got
    return taken


def _allocate(facts: NodeNuma, free: Free, ask: Ask, hint: Hint, memory_hinted: bool) -> dict[str, Any]:
    """The managers' Allocate for one container with the stored hint; _Rejected on a shortfall."""
    placed: dict[str, Any] = {"numa": None if hint.mask is None else bits(hint.mask)}
    if ask.cpus:
        if facts.cpu_options.get("full-pcpus-only") == "true" and ask.cpus % facts.threads_per_core:
            raise _Rejected(SMT_ALIGNMENT_ERROR, f"SMT Alignment Error: requested {ask.cpus} cpus not multiple cpus per "
                                                 f"core = {facts.threads_per_core}")
        taken = _take(free, hint.mask, "cpu", Decimal(ask.cpus), facts.ids)
        if taken is None:
            have = sum((free[z].get("cpu", Decimal(0)) for z in facts.ids), start=Decimal(0))
            raise _Rejected(UNEXPECTED_ADMISSION_ERROR, "Allocate failed due to not enough cpus available to satisfy "
                                                        f"request: requested={ask.cpus}, available={have}, which is unexpected")
        placed["cpus"] = {f"node-{z}": int(n) for z, n in taken.items()}
    for name, amount in ask.memory.items():
        taken = _take(free, hint.mask, name, amount, facts.ids) if memory_hinted else None
        if taken is None:
            raise _Rejected(UNEXPECTED_ADMISSION_ERROR, "Allocate failed due to [memorymanager] failed to get the default "
                                                        "NUMA affinity, no NUMA nodes with enough memory is available, "
                                                        "which is unexpected")
        placed.setdefault("memory", {})[name] = {f"node-{z}": str(n) for z, n in taken.items()}
    for name, count in ask.devices.items():
        taken = _take(free, hint.mask, name, Decimal(count), facts.ids)
        if taken is None:
            raise _Rejected(UNEXPECTED_ADMISSION_ERROR, f"Allocate failed due to requested number of devices unavailable "
                                                        f"for {name}. Requested: {count}, which is unexpected")
        placed.setdefault("devices", {})[name] = {f"node-{z}": int(n) for z, n in taken.items()}
    return placed


def _merge(facts: NodeNuma, free: Free, ask: Ask) -> tuple[Hint, bool, bool]:
    """(best hint, admitted, memory had hints) for one unit."""
    memory = memory_hints(facts, free, ask)
    providers = [device_hints(facts, free, ask), cpu_hints(facts, free, ask), memory]
    closest = facts.topology_options.get("prefer-closest-numa-nodes") == "true"
    best, admit = decide(Numa(facts.ids, facts.distances), providers, facts.topology_policy, closest)
    return best, admit, memory != {}


def _gate_on(facts: NodeNuma, gates: Mapping[str, bool]) -> bool:
    return facts.feature_gates.get(POD_LEVEL_GATE, gates.get(POD_LEVEL_GATE, False))


def _startup_problem(facts: NodeNuma) -> str | None:
    limit = facts.topology_options.get("max-allowable-numa-nodes", str(DEFAULT_MAX_NUMA))
    if facts.topology_policy != NONE and limit.isdigit() and len(facts.ids) > int(limit):
        return f"unsupported on machines with more than {limit} NUMA Nodes"
    return None


def admit(pod: Mapping[str, Any], facts: NodeNuma, free: Free, gates: Mapping[str, bool] | None = None) -> Verdict:
    """The kubelet's verdict for `pod` on the node; `free` is consumed only when the pod is admitted."""
    problem = _startup_problem(facts)
    if problem:
        return Verdict(False, KUBELET_NOT_RUNNING, problem, "the Topology Manager refuses to start, so the node is not Ready")
    gate_on = _gate_on(facts, gates or {})
    device_names = frozenset(n for z in facts.ids for n in facts.zones[z] if n not in ("cpu", "memory")
                             and not n.startswith("hugepages-"))
    asks = container_asks(pod, facts.cpu_policy == "static", facts.memory_policy == "Static", gate_on, device_names)
    work = copy.deepcopy(free)
    verdict = Verdict(True, notes=_notes(pod, facts, asks, gate_on))
    try:
        if facts.topology_scope == "pod" and facts.topology_policy != NONE:
            unit = pod_ask(pod, asks, facts.cpu_policy == "static", facts.memory_policy == "Static", gate_on)
            _check_shared_pool(pod, facts, asks, unit, gate_on)
            best, ok, memory = _merge(facts, work, unit)
            if not ok:
                raise _Rejected(TOPOLOGY_AFFINITY_ERROR, TM_MESSAGE, f"pod: {_why(facts, work, unit)}")
            for ask in asks:
                verdict.placements[ask.name] = _allocate(facts, work, ask, best, memory)
        else:
            for ask in asks:
                best, ok, memory = _merge(facts, work, ask)
                if not ok:
                    raise _Rejected(TOPOLOGY_AFFINITY_ERROR, TM_MESSAGE, f"container {ask.name}: {_why(facts, work, ask)}")
                verdict.placements[ask.name] = _allocate(facts, work, ask, best, memory)
    except _Rejected as rejected:
        return Verdict(False, rejected.reason, rejected.message, rejected.detail, notes=verdict.notes)
    free.clear()
    free.update(work)
    return verdict


def _check_shared_pool(pod: Mapping[str, Any], facts: NodeNuma, asks: list[Ask], unit: Ask, gate_on: bool) -> None:
    """KEP-5526 pod scope: a container that needs the pod's shared pool while the exclusive CPUs take the whole budget.
    The CPU hint provider then returns no hint ([]): restricted and single-numa-node reject via the Topology Manager;
    best-effort admits and AllocatePod fails with EmptyPodSharedPoolError (digest kubelet-numa.md §3)."""
    if not (pod_level(pod) and gate_on and unit.cpus) or all(a.cpus for a in asks if not a.init):
        return
    if sum(a.cpus for a in asks if not a.init) < unit.cpus:
        return
    detail = (f"pod: the exclusive CPUs of its containers ({sum(a.cpus for a in asks if not a.init)}) take the whole pod "
              f"budget of {unit.cpus}, leaving none for the containers that share the pod's pool")
    if facts.topology_policy == "best-effort":
        raise _Rejected(EMPTY_SHARED_POOL_ERROR, EMPTY_SHARED_POOL_MESSAGE, detail)
    raise _Rejected(TOPOLOGY_AFFINITY_ERROR, TM_MESSAGE, detail)


def _notes(pod: Mapping[str, Any], facts: NodeNuma, asks: list[Ask], gate_on: bool) -> list[str]:
    notes = []
    aligning = facts.topology_policy not in (NONE, "best-effort")
    if (pod.get("spec") or {}).get("resourceClaims") and any(a.cpus for a in asks) and aligning:
        notes.append("DRA devices give the Topology Manager no hints in 1.37 (only the CPU, memory and device-plugin "
                     f"managers do): {facts.topology_policy} does not put the claim's devices on the exclusive CPUs' NUMA "
                     "node; align them with matchAttribute: resource.kubernetes.io/numaNode and a CPU DRA driver instead")
    if pod_level(pod) and not gate_on:
        notes.append(f"spec.resources is set and {POD_LEVEL_GATE} is off on this kubelet (beta, off by default in 1.37): "
                     "no exclusive CPUs or memory, the pod runs unaligned in the shared pool")
    return notes


def numa_of(verdict: Verdict) -> str:
    """The NUMA nodes the admitted pod's containers sit on, for one-line summaries."""
    nodes = sorted({n for p in verdict.placements.values() for n in (p.get("numa") or [])})
    return render(sum(1 << n for n in nodes)) if nodes else "any"
