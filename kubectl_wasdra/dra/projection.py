"""Which device fields a selector reads, so devices that agree on them share one CEL result.

Real drivers publish per-device attributes (uuid, pciBusID), so no two devices are identical; but a class selector
such as `device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].type == "gpu"` reads two fields
only. When an expression reads `device` solely through `device.driver`, `device.allowMultipleAllocations` and
literal lookups `device.attributes["dom"].id` / `["id"]` / `.?id` (same for capacity), its result is a function of
those values, and the allocator evaluates it once per distinct projection instead of once per device. Anything else
(iterating a map, `in`, passing a map to a function or macro) makes the expression non-projectable: every device is
then evaluated. Semantics are unchanged either way (tests/dra/test_projection.py compares both paths).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.dra.fields import mapping

_MAPS: Final = ("attributes", "capacity")
ABSENT: Final = "<absent>"


@dataclass(frozen=True)
class Projection:
    """The device fields an expression reads: (map, domain, id) triples plus driver/allowMultipleAllocations."""

    driver: bool
    allow_multiple: bool
    fields: tuple[tuple[str, str, str], ...]


def _literal(text: str) -> str | None:
    """The value of a plain quoted string token, or None for raw/bytes/escaped/triple-quoted strings."""
    if len(text) < 2 or text[0] not in "'\"" or text[-1] != text[0] or "\\" in text or text.startswith(("'''", '"""')):
        return None
    return text[1:-1]


def _field_at(tokens: Sequence[tuple[str, str]], i: int) -> tuple[tuple[str, str, str] | None, int]:
    """Parse `attributes["dom"]` + `.id` / `.?id` / `["id"]` starting at the map name; (field, next index) or (None, _)."""
    if i + 3 >= len(tokens) or tokens[i + 1][1] != "[" or tokens[i + 2][0] != "string" or tokens[i + 3][1] != "]":
        return None, i
    domain = _literal(tokens[i + 2][1])
    j = i + 4
    if domain is None or j >= len(tokens):
        return None, i
    if tokens[j][1] == "." and j + 1 < len(tokens) and tokens[j + 1][1] == "?":
        j += 1  # optional field selection `.?id`
    elif tokens[j][1] == "?":
        return None, i  # a conditional, not a field selection
    if tokens[j][1] in (".", "?") and j + 1 < len(tokens) and tokens[j + 1][0] == "ident":
        if j + 2 < len(tokens) and tokens[j + 2][1] == "(":
            return None, i  # a method or macro on the value: fine in itself, but keep the parser simple
        return (tokens[i][1], domain, tokens[j + 1][1]), j + 2
    if tokens[j][1] == "[" and j + 2 < len(tokens) and tokens[j + 1][0] == "string" and tokens[j + 2][1] == "]":
        ident = _literal(tokens[j + 1][1])
        return ((tokens[i][1], domain, ident), j + 3) if ident is not None else (None, i)
    return None, i


def analyse(tokens: Sequence[tuple[str, str]]) -> Projection | None:
    """The projection of an expression given as (kind, text) tokens, or None if it reads `device` any other way."""
    driver = allow = False
    fields: list[tuple[str, str, str]] = []
    i = 0
    while i < len(tokens):
        kind, text = tokens[i]
        if kind != "ident" or text != "device" or (i > 0 and tokens[i - 1][1] == "."):
            i += 1
            continue
        if i + 2 >= len(tokens) or tokens[i + 1][1] != "." or tokens[i + 2][0] != "ident":
            return None
        name = tokens[i + 2][1]
        if name in ("driver", "allowMultipleAllocations"):
            driver, allow = driver or name == "driver", allow or name != "driver"
            i += 3
            continue
        if name not in _MAPS:
            return None
        found, i = _field_at(tokens, i + 2)
        if found is None:
            return None
        fields.append(found)
    return Projection(driver, allow, tuple(sorted(set(fields))))


def _value(entries: Mapping[str, Any], driver: str, domain: str, ident: str) -> Any:
    """What the device view holds at (domain, ident): the later of "domain/ident" and, for the driver's domain,
    the bare "ident" (views.py regroups in map order, so the later entry wins)."""
    qualified = f"{domain}/{ident}"
    if domain != driver or ident not in entries:
        return entries.get(qualified, ABSENT)
    if qualified not in entries:
        return entries[ident]
    order = list(entries)
    return entries[qualified] if order.index(qualified) > order.index(ident) else entries[ident]


def project(projection: Projection, driver: str, raw: Mapping[str, Any]) -> tuple[Any, ...]:
    """The values the expression can see on one device, as a hashable key."""
    key: list[Any] = [driver if projection.driver else None,
                      raw.get("allowMultipleAllocations") is True if projection.allow_multiple else None]
    for map_name, domain, ident in projection.fields:
        value = _value(mapping(raw.get(map_name)), driver, domain, ident)
        if map_name == "capacity" and value is not ABSENT:
            value = mapping(value).get("value")
        key.append(value if value is ABSENT else repr(value))
    return tuple(key)
