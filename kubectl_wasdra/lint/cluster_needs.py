"""Which cluster checks a partial cluster read leaves without the data they need.

`check --snapshot/--live` keeps every kind that was read (a DeviceClass that was read still resolves a reference) and
skips only the rules whose verdict needs a kind that was not (completely) read: they would report a guess. REF010 and
the REF warnings look at the header's gaps themselves (lint/rules/_objects.py: a kind with a gap cannot vouch for an
absence), so they keep running.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from kubectl_wasdra.cluster.gaps import DRA_KINDS, VERDICT_KINDS, unread_kinds
from kubectl_wasdra.lint import codes

# rule ID -> the kinds its verdict reads from the cluster
NEEDS: Final[Mapping[str, frozenset[str]]] = MappingProxyType({
    codes.FIT_SELECTOR_MATCHES_NOTHING.id: frozenset({"ResourceSlice", "DeviceClass"}),
    codes.FIT_DEVICE_CLASS_UNSATISFIABLE.id: frozenset({"ResourceSlice", "DeviceClass"}),
    codes.FIT_NEVER_FITS.id: frozenset({"Node", *DRA_KINDS}),
    codes.FIT_DOES_NOT_FIT_NOW.id: VERDICT_KINDS,  # the simulation reads everything a verdict may need
    codes.GANG_TOPOLOGY_KEY_UNKNOWN.id: frozenset({"Node"}),
})


def skipped_rules(gaps: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """{rule ID: the unread kinds it needs} for the rules a read with these gaps leaves without data, by ID."""
    unread = unread_kinds(gaps)
    return {rule: tuple(sorted(kinds & unread.keys())) for rule, kinds in sorted(NEEDS.items()) if kinds & unread.keys()}
