"""Natural order of names (r2 before r10, node-9 before node-10) and compact runs of such names ("r1-r39"), for every
list explain prints."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

_PARTS: Final = re.compile(r"(\d+)")
MORE_HINT: Final = "-o json lists all"


def natural_key(name: object) -> tuple[tuple[int, str, int], ...]:
    """A sort key comparing runs of digits as numbers and the rest as text ("r2" < "r10"); total for any str."""
    return tuple((0, part, 0) if index % 2 == 0 else (1, "", int(part))
                 for index, part in enumerate(_PARTS.split(str(name))))


def natural_sorted(names: Iterable[str]) -> list[str]:
    """`names` in natural order."""
    return sorted(names, key=natural_key)


def _split(name: str) -> tuple[str, int, str] | None:
    """(prefix, number, digits) of a name ending in digits, else None."""
    match = re.fullmatch(r"(.*?)(\d+)", name)
    return (match.group(1), int(match.group(2)), match.group(2)) if match else None


def runs(names: Sequence[str]) -> list[str]:
    """Naturally sorted names with consecutive numbered names of one prefix joined: ["r1-r39", "r41"]."""
    out: list[str] = []
    start = previous = None
    for name in natural_sorted(names):
        parts = _split(name)
        if previous is not None and parts is not None and previous[0] == parts[0] and parts[1] == previous[1] + 1 \
                and (len(parts[2]) == len(previous[2]) or (not (parts[2] + previous[2]).startswith("0")
                     and not previous[2].startswith("0"))):
            previous = parts
            continue
        if start is not None:
            out.append(_run(start, previous))
        start = previous = parts if parts is not None else (name, -2, "")
    if start is not None:
        out.append(_run(start, previous))
    return out


def _run(start: tuple[str, int, str], end: tuple[str, int, str] | None) -> str:
    first = f"{start[0]}{start[2]}"
    if end is None or end == start:
        return first
    last = f"{end[0]}{end[2]}"
    return f"{first}, {last}" if end[1] == start[1] + 1 else f"{first}–{last}"  # noqa: RUF001 (an en dash reads as a range)


def shortened(items: Sequence[str], limit: int, what: str = "") -> str:
    """The first `limit` items joined by ", ", saying how many were left out and how to see them."""
    if len(items) <= limit:
        return ", ".join(items)
    rest = len(items) - limit
    return ", ".join(items[:limit]) + f" … and {rest:,} more{' ' + what if what else ''} ({MORE_HINT})"
