"""Text lines for the domains of a topology-constrained group: domains with the same cause grouped ("39 racks
(r1-r39), 1,950 nodes: ..."), names in natural order, and every shortened list saying what it left out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from kubectl_wasdra.explain.causes import DraCause, histogram_text, summed
from kubectl_wasdra.explain.model import DomainLine
from kubectl_wasdra.explain.ordering import MORE_HINT, natural_key, runs, shortened

MAX_GROUPS: Final = 8  # groups of domains with one cause shown in text; -o json lists every domain
MAX_RUNS: Final = 6  # runs of domain names shown per group


def _word(key: str, count: int) -> str:
    """ "rack"/"racks" from example.com/rack."""
    word = key.rpartition("/")[2] or key
    return word if count == 1 or word.endswith("s") else f"{word}s"


def _dra(domains: Sequence[DomainLine]) -> DraCause | None:
    found = [d.dra for d in domains if d.dra is not None]
    if not found:
        return None
    first = found[0]
    return DraCause(first.request, first.device_class, first.needed, first.stage, max(d.best for d in found),
                    sum(d.nodes for d in found), first.attribute)


def _group_lines(domains: Sequence[DomainLine], wide: bool = False) -> list[str]:
    first = domains[0]
    nodes = sum(d.nodes for d in domains)
    names = shortened(runs([d.value for d in domains]), len(domains) if wide else MAX_RUNS, "names")
    if first.feasible:
        state = f"{first.placeable} of {first.needed} pods placeable — fits"
    else:
        state = f"{first.placeable} of {first.needed} pods placeable — short by {max(first.needed - first.placeable, 0)}"
    lines = [f"    {len(domains):,} {_word(first.key, len(domains))} ({names}), {nodes:,} nodes: {state}"]
    if first.reasons:
        lines.append(f"      {histogram_text(summed([d.reasons for d in domains]), nodes)}")
    dra = _dra(domains)
    if dra is not None:
        lines.append(f"      DRA: {dra.text()}")
    own = sum(d.own_devices for d in domains)
    if own and not first.feasible:
        lines.append(f"      of the devices not free, {own:,} are held by this group's own {first.placeable:,} pod(s) "
                     f"placed there first" + (" (per domain)" if len(domains) > 1 else ""))
    return lines


def domain_lines(domains: Sequence[DomainLine], wide: bool = False) -> list[str]:
    """The grouped domain lines: most pods placeable first, then the largest group, then natural order (`wide`: no
    group or name left out)."""
    if not domains:
        return []
    groups: dict[tuple[object, ...], list[DomainLine]] = {}
    for domain in domains:
        groups.setdefault(domain.signature(), []).append(domain)
    ordered = sorted(groups.values(), key=lambda g: (-g[0].placeable, -len(g), natural_key(g[0].value)))
    key = domains[0].key
    total = sum(d.nodes for d in domains)
    lines = [f"  per {key}: {len(domains):,} {_word(key, len(domains))}, {total:,} nodes"
             + (f", {len(ordered):,} distinct causes" if len(ordered) > 1 else "")]
    limit = len(ordered) if wide else MAX_GROUPS
    for group in ordered[:limit]:
        lines += _group_lines(sorted(group, key=lambda d: natural_key(d.value)), wide)
    if len(ordered) > limit:
        rest = ordered[limit:]
        lines.append(f"    … and {len(rest):,} more causes over {sum(len(g) for g in rest):,} "
                     f"{_word(key, 2)} ({MORE_HINT})")
    return lines
