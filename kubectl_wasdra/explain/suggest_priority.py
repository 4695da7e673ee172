"""The preemption suggestion: "raise priorityClassName to X -> fits by preempting N pod(s) of priority <= P".

Verified like every suggestion: the pods (and their PodGroup) are overlaid with the PriorityClass's name and value,
the simulation runs again, and the suggestion stands only if kube-scheduler's preemption would then make room.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.explain.model import Suggestion

if TYPE_CHECKING:
    from kubectl_wasdra.explain.whatif import Verifier

MAX_CLASSES: Final = 3  # PriorityClasses tried, lowest value first (each try is one more simulation)


def _classes_above(verifier: Verifier, priority: int) -> list[tuple[int, str]]:
    """(value, name) of the snapshot's PriorityClasses above `priority`, lowest first."""
    out = []
    for obj in verifier.snapshot.of_kind("PriorityClass"):
        value, name = obj.get("value"), (obj.get("metadata") or {}).get("name")
        if isinstance(value, int) and not isinstance(value, bool) and value > priority and isinstance(name, str):
            out.append((value, name))
    return sorted(out)[:MAX_CLASSES]


def _with_priority(obj: Any, name: str, value: int) -> dict[str, Any]:
    out = copy.deepcopy(dict(obj))
    spec = out.setdefault("spec", {})
    spec["priorityClassName"], spec["priority"] = name, value  # admission resolves the class to its value
    return out


def raise_priority(verifier: Verifier) -> Suggestion | None:
    """The lowest PriorityClass with which preemption makes room, when it does not now."""
    result = verifier.result
    answer = result.extra.get("preemption")
    if answer is not None and answer.helps:
        return None  # preemption already makes room at the current priority
    entry = result.entry
    group = entry.group.obj if entry.group is not None and entry.group.kind == "PodGroup" else None
    for value, name in _classes_above(verifier, entry.priority):
        objects = [_with_priority(p.pod, name, value) for p in entry.pods]
        if group is not None:
            objects.append(_with_priority(group, name, value))
        after = verifier.simulate(objects, kind="raisePriority", change=f"priorityClassName {name} ({value})",
                                  explain=True)  # preemption runs only where failures are explained
        found = after.extra.get("preemption") if after is not None else None
        if found is not None and found.helps:
            return Suggestion("raisePriority", f"raise priorityClassName to {name} (priority {value})",
                              found.summary().replace("fits only by", "fits by"))
    return None
