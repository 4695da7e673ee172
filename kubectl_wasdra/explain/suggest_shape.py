"""Suggestions that change the group's shape rather than the cluster: fewer devices per pod, dropping a
`matchAttribute` constraint, another topology key. Each is verified by simulation like every suggestion."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.explain.causes import dra_cause
from kubectl_wasdra.explain.model import Suggestion
from kubectl_wasdra.explain.whatif import Verifier, group_object, where

MAX_KEYS: Final = 2  # other topology keys tried
MAX_COUNTS: Final = 2  # smaller device counts tried per request


def _templates(verifier: Verifier) -> list[dict[str, Any]]:
    """The ResourceClaimTemplates the group's pods use, in (namespace, name) order."""
    names = {(p.namespace, c.get("resourceClaimTemplateName")) for p in verifier.result.entry.pods for c in p.claims
             if isinstance(c, dict) and isinstance(c.get("resourceClaimTemplateName"), str)}
    found = [verifier.snapshot.get("ResourceClaimTemplate", name, ns) for ns, name in sorted(names)]
    return [t for t in found if t is not None]


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _listed(value: Any) -> list[dict[str, Any]]:
    """The mappings of a list (a malformed manifest may hold null or numbers there: check reports them)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _devices(template: dict[str, Any]) -> dict[str, Any]:
    return _mapping(_mapping(_mapping(template.get("spec")).get("spec")).get("devices"))


def _name(template: dict[str, Any]) -> str:
    meta = _mapping(template.get("metadata"))
    return f"ResourceClaimTemplate {meta.get('namespace', 'default')}/{meta.get('name')}"


def _best(verifier: Verifier) -> int:
    """The most devices the nodes that came closest had at the stage that ran short (0 when unknown)."""
    outcome = verifier.result.outcome
    errors = [next(iter(a.failed.values())) for a in outcome.attempts if a.failed] if outcome is not None else []
    cause = dra_cause(errors or list(verifier.result.pod_errors.values())[:1])
    return cause.best if cause is not None else 0


def _counts(count: int, best: int) -> Iterator[int]:
    seen = set()
    for candidate in (best, count // 2, 1):
        if 1 <= candidate < count and candidate not in seen and len(seen) < MAX_COUNTS:
            seen.add(candidate)
            yield candidate


def fewer_devices(verifier: Verifier) -> Suggestion | None:
    """Each pod asking for fewer devices (the most the closest nodes could give, or half)."""
    best = _best(verifier)
    for template in _templates(verifier):
        for index, request in enumerate(_devices(template).get("requests") or ()):
            exactly = _mapping(request.get("exactly")) if isinstance(request, dict) else {}
            count = exactly.get("count")
            if not isinstance(count, int) or count < 2 or exactly.get("allocationMode") == "All":
                continue
            for smaller in _counts(count, best):
                changed = copy.deepcopy(template)
                _devices(changed)["requests"][index]["exactly"]["count"] = smaller
                what = f'request "{request.get("name")}" of {_name(template)}: {smaller} devices instead of {count}'
                after = verifier.run([changed], kind="fewerDevices", change=what)
                if after is not None and after.fits:
                    several = len(_devices(template).get("requests") or ()) > 1
                    named = f', request "{request.get("name")}"' if several else ""
                    return Suggestion("fewerDevices", f"{smaller} instead of {count} devices per pod "
                                      f"({_name(template)}{named})", where(after, verifier.result.entry.topology_key))
    return None


def relax_match_attribute(verifier: Verifier) -> Suggestion | None:
    """The claim template without its matchAttribute constraints (devices no longer need to share the attribute)."""
    for template in _templates(verifier):
        constraints = _listed(_devices(template).get("constraints"))
        attributes = [c.get("matchAttribute") for c in constraints if isinstance(c.get("matchAttribute"), str)]
        if not attributes:
            continue
        changed = copy.deepcopy(template)
        _devices(changed)["constraints"] = [c for c in constraints if not c.get("matchAttribute")]
        what = f"drop matchAttribute {', '.join(attributes)} from {_name(template)}"
        after = verifier.run([changed], kind="relaxMatchAttribute", change=what)
        if after is not None and after.fits:
            return Suggestion("relaxMatchAttribute", what, where(after, verifier.result.entry.topology_key))
    return None


def _other_keys(verifier: Verifier, key: str) -> list[str]:
    """Node label keys that make fewer, larger domains than `key` (at least two), fewest domains first."""
    state = verifier.result.state
    if state is None:
        return []
    values: dict[str, set[str]] = {}
    for name in state.node_names:
        for label, value in state.facts[name].labels.items():
            values.setdefault(label, set()).add(str(value))
    current = len(values.get(key, ()))
    keys = [k for k, v in values.items() if k != key and 2 <= len(v) < current]
    return sorted(keys, key=lambda k: (len(values[k]), k))[:MAX_KEYS]


def other_topology_key(verifier: Verifier) -> Suggestion | None:
    """The topology constraint on another node label whose domains are larger."""
    key = verifier.result.entry.topology_key
    if not key or group_object(verifier) is None:
        return None
    for other in _other_keys(verifier, key):
        obj = group_object(verifier)
        assert obj is not None
        obj["spec"]["schedulingConstraints"] = {**(obj["spec"].get("schedulingConstraints") or {}),
                                                "topology": [{"key": other}]}
        after = verifier.run([obj], kind="otherTopologyKey", change=f"schedulingConstraints.topology key {other}")
        if after is not None and after.fits:
            return Suggestion("otherTopologyKey", f"constrain the group to one {other} instead of one {key}",
                              where(after, other))
    return None
