"""The cause of each placement domain (and of a group without one): kube-scheduler's node reason histogram for the
first pod that did not fit there, and the tightest stage of the DRA funnel aggregated over the domain's nodes
("needs 4 x gpu.example.com on one resource.kubernetes.io/numaNode; the best NUMA node has 2 free (1,950 nodes)").

Upstream: kubernetes/kubernetes pkg/scheduler/framework/types.go (FitError histogram) and the allocator's stages
(kubectl_wasdra/dra/funnel.py), release-1.37.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.dra.funnel import ALL_STAGES
from kubectl_wasdra.explain.model import ReasonItem
from kubectl_wasdra.explain.placement_map import NUMA_ATTRIBUTE
from kubectl_wasdra.sched.fiterror import FitError

_STAGE_WORDS: Final = {  # "the best node has N ..." per funnel stage (dra/funnel.py STAGES)
    "visible": "in usable pools", "free": "free", "selected": "matching the class and selectors",
    "capacity": "with enough capacity", "counters": "with enough counters", "untainted": "untainted or tolerated",
    "constraints": "satisfying the claim constraints together",
}
_HIDDEN_DETAILS: Final = ("funnel", "funnelStages")  # text and data the per-domain DRA line carries instead


@dataclass(frozen=True)
class DraCause:
    """The funnel stage most of the nodes stopped at, with the best count any of them reached there."""

    request: str
    device_class: str
    needed: int
    stage: str
    best: int
    nodes: int
    attribute: str = ""  # the matchAttribute the devices could not agree on (stage "constraints")

    @property
    def per(self) -> str:
        """What one allocation must fit in: "numaNode", another attribute's name, or "node"."""
        if self.stage != "constraints" or not self.attribute:
            return "node"
        return self.attribute.rpartition("/")[2]

    def text(self) -> str:
        """One line: what the request needs and how close the best node came at the stage that ran short."""
        needs = f"needs {self.needed} × {self.device_class}"  # noqa: RUF001
        if self.attribute:
            needs += f" on one {self.attribute}"
        if self.stage == "constraints" and self.attribute:
            unit = "NUMA node" if self.attribute == NUMA_ATTRIBUTE else f'value of "{self.attribute}"'
            return f"{needs}; the best {unit} has {self.best:,} free ({_nodes(self.nodes)})"
        return f"{needs}; the best node has {self.best:,} {_STAGE_WORDS[self.stage]} ({_nodes(self.nodes)})"

    def json(self) -> dict[str, Any]:
        """DESIGN's {request, needed, bestFree, per} plus the stage, device class and node count."""
        return {"request": self.request, "needed": self.needed, "bestFree": self.best, "per": self.per,
                "stage": self.stage, "deviceClassName": self.device_class, "nodes": self.nodes,
                **({"matchAttribute": self.attribute} if self.attribute else {})}


def _nodes(count: int) -> str:
    return f"{count:,} node" if count == 1 else f"{count:,} nodes"


def histogram_items(error: FitError) -> list[ReasonItem]:
    """kube-scheduler's histogram of one FitError as reason items (count = nodes), funnel texts left out."""
    items = []
    for count in error.histogram():
        details = {k: v for k, v in count.details.items() if k not in _HIDDEN_DETAILS}
        items.append(ReasonItem(count.reason.value, count.message, count.count, details))
    return items


def dra_cause(errors: Sequence[FitError]) -> DraCause | None:
    """The funnel stage most nodes of these FitErrors stopped at (ties: the later stage, a nearer miss) with the best
    count reached there; None when no node failed in the allocator's funnel."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for error in errors:
        for status in error.statuses.values():
            data = status.details.get("funnelStages")
            if not data:
                continue
            _claim, request, device_class, needed, short, stages, attribute = data
            count = dict(stages).get(short, 0)
            entry = groups.setdefault((request.split("/")[0], device_class, needed, short, attribute), [0, 0])
            entry[0] += 1
            entry[1] = max(entry[1], count)
    if not groups:
        return None
    key, (nodes, best) = max(groups.items(), key=lambda item: (item[1][0], ALL_STAGES.index(item[0][3]), item[1][1]))
    return DraCause(key[0], key[1], key[2], key[3], best, nodes, key[4])


def summed(items: Sequence[Sequence[ReasonItem]]) -> list[ReasonItem]:
    """Histograms added up (same code and message: counts summed), in kube-scheduler's order."""
    total: dict[tuple[str, str], list[Any]] = {}
    for histogram in items:
        for item in histogram:
            entry = total.setdefault((item.code, item.message), [0, item.details])
            entry[0] += item.count or 0
    out = [ReasonItem(code, message, count, details) for (code, message), (count, details) in total.items()]
    return sorted(out, key=lambda r: f"{r.count} {r.message}")


def histogram_text(items: Sequence[ReasonItem], nodes: int) -> str:
    """ "0/N nodes are available: 50 node(s) had untolerated taint(s)." for a summed histogram."""
    parts = ", ".join(f"{item.count:,} {item.message}" for item in items)
    return f"0/{nodes:,} nodes are available: {parts}." if parts else f"0/{nodes:,} nodes are available."


def first_error(failed: Mapping[str, FitError]) -> FitError | None:
    """The FitError of the first pod that did not fit."""
    return next(iter(failed.values()), None)
