"""The cluster's devices as the FIT rules see them: every device of the newest generation of every pool, with its
CEL view, the node it sits on (None for network-attached devices), and what drivers publish (for "did you mean").

Matching here ignores usage, taints and pool completeness on purpose: FIT001-FIT003 ask whether a request could ever
be satisfied, not whether it can be now (that is --simulate, FIT004).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from kubectl_wasdra.catalog.releases import Release
    from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
    from kubectl_wasdra.dra.cel_types import DeclaredType, SelectorTypeError
    from kubectl_wasdra.dra.views import DeviceView

# device.attributes["domain"].name / ["domain"]["name"], optionally compared with a string literal
_REFERENCE: Final = re.compile(
    r'device\.(attributes|capacity)\[\s*"([^"]+)"\s*\](?:\.([A-Za-z_]\w*)|\[\s*"([^"]+)"\s*\])(?:\s*==\s*"([^"]*)")?')
DRIVER_EQUALS: Final = re.compile(r'device\.driver\s*==\s*"([^"]*)"')   # a selector pinning one driver


@dataclass(frozen=True)
class ClusterDevice:
    """One published device."""

    driver: str
    name: str
    node: str | None
    view: DeviceView


@dataclass
class ClusterDevices:
    """All devices of a snapshot plus the attribute names and string values drivers publish."""

    devices: tuple[ClusterDevice, ...]
    names: dict[tuple[str, str], set[str]] = field(default_factory=dict)      # (attributes|capacity, domain) -> idents
    values: dict[tuple[str, str], set[str]] = field(default_factory=dict)     # (domain, ident) -> string values
    drivers: frozenset[str] = frozenset()
    memo: dict[tuple[str, ...], list[ClusterDevice] | None] = field(default_factory=dict)
    # (release, *expressions) -> (index of the expression, first CEL runtime error, devices it failed on)
    failures: dict[tuple[str, ...], tuple[int, str, int]] = field(default_factory=dict)
    snapshot: ClusterSnapshot | None = None
    # (attributes|capacity, domain, name) -> the one type every declaring slice gives it (others are left out);
    # built on the first selector that references an attribute or a capacity (declared_types)
    declared: dict[tuple[str, str, str], DeclaredType] | None = None
    type_errors: dict[str, SelectorTypeError | None] = field(default_factory=dict)

    def type_error(self, expression: str) -> SelectorTypeError | None:
        """The selector's type error against the declared attribute and capacity types, before any evaluation."""
        if expression not in self.type_errors:
            from kubectl_wasdra.dra.cel_types import check_types

            if self.declared is None and ("attributes" in expression or "capacity" in expression):
                self.declared = declared_types(self.snapshot) if self.snapshot is not None else {}
            self.type_errors[expression] = check_types(expression, self.declared) if self.declared else None
        return self.type_errors[expression]

    def matching(self, expressions: Sequence[str], release: Release) -> list[ClusterDevice] | None:
        """Devices every expression selects; None when an expression does not compile (VALID031 reports it). A CEL
        runtime error on a device (missing attribute ...) counts as not selected."""
        key = (str(release), *expressions)
        if key not in self.memo:
            self.memo[key] = self._match(expressions, release)
        return self.memo[key]

    def _match(self, expressions: Sequence[str], release: Release) -> list[ClusterDevice] | None:
        from kubectl_wasdra.dra.cel import compile_selector
        from kubectl_wasdra.errors import CelCompileError, CelRuntimeError

        try:
            compiled = [compile_selector(text, release) for text in expressions]
        except CelCompileError:
            return None
        found, failed, first = [], 0, None
        for device in self.devices:
            try:
                if all(selector.matches(device.view) for selector in compiled):
                    found.append(device)
            except CelRuntimeError as exc:
                if exc.message.startswith("no such key"):
                    continue    # an attribute this device does not publish: the did-you-mean hints cover it
                failed += 1
                first = first or (self._failing(compiled, device), exc.message)
        if first is not None:
            self.failures[(str(release), *expressions)] = (first[0], first[1], failed)
        return found

    @staticmethod
    def _failing(compiled: Sequence[Any], device: ClusterDevice) -> int:
        """The index of the first selector that raises on `device`."""
        from kubectl_wasdra.errors import CelRuntimeError

        for index, selector in enumerate(compiled):
            try:
                if not selector.matches(device.view):
                    return index
            except CelRuntimeError:
                return index
        return 0

    def runtime_error(self, expressions: Sequence[str], release: Release) -> tuple[int, str, int] | None:
        """(expression index, message, devices) of the CEL runtime error (other than a missing attribute) the
        expressions raised on some device of the cluster, None when none did. The scheduler's allocator fails the
        claim with such an error, so it is the cause to report when nothing matched, not "matches no device"."""
        self.matching(expressions, release)
        return self.failures.get((str(release), *expressions))

    def per_node_upper_bound(self, devices: Sequence[ClusterDevice]) -> int:
        """The most of `devices` one node could reach: its own plus every network-attached one."""
        shared = sum(1 for d in devices if d.node is None)
        local = Counter(d.node for d in devices if d.node is not None)
        return shared + max(local.values(), default=0)

    def close_attribute(self, qualified: str) -> str | None:
        """The published fully qualified attribute name closest to `qualified` (by identifier first, the same domain
        preferred), or None."""
        domain, _, ident = qualified.rpartition("/")
        by_ident: dict[str, set[str]] = {}
        for (where, published_domain), idents in self.names.items():
            for name in idents if where == "attributes" else ():
                by_ident.setdefault(name, set()).add(published_domain)
        close = _close(ident, set(by_ident))
        if close is not None:
            domains = by_ident[close]
            return f"{domain if domain in domains else sorted(domains)[0]}/{close}"
        found = difflib.get_close_matches(qualified, sorted(f"{d}/{i}" for i, ds in by_ident.items() for d in ds), n=1,
                                          cutoff=0.8)
        return found[0] if found else None

    def suggestion(self, expression: str) -> str | None:
        """"did you mean ..." for the first attribute name, value or driver in `expression` no driver publishes."""
        for match in DRIVER_EQUALS.finditer(expression):
            close = _close(match.group(1), self.drivers)
            if match.group(1) not in self.drivers and close:
                return f'no driver "{match.group(1)}" publishes devices; did you mean "{close}"?'
        for match in _REFERENCE.finditer(expression):
            where, domain, ident, value = match.group(1), match.group(2), match.group(3) or match.group(4), match.group(5)
            known = self.names.get((where, domain))
            if known is None:
                domains = {d for (w, d) in self.names if w == where}
                close = _close(domain, domains)
                if close:
                    return f'no device publishes {where} in domain "{domain}"; did you mean "{close}"?'
                continue
            if ident not in known:
                close = _close(ident, known)
                if close:
                    return f'no device of "{domain}" publishes {where[:-1]} "{ident}"; did you mean "{close}"?'
                continue
            published = self.values.get((domain, ident), set())
            if value is not None and published and value not in published:
                close = _close(value, published)
                hint = f'did you mean "{close}"?' if close else "published: " + ", ".join(sorted(published)[:8])
                return f'no device has {domain}/{ident} == "{value}"; {hint}'
        return None


def _close(word: str, choices: set[str] | frozenset[str]) -> str | None:
    found = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return found[0] if found else None


def _node_of(slice_: Mapping[str, Any]) -> str | None:
    spec = slice_.get("spec") or {}
    name = spec.get("nodeName")
    return name if isinstance(name, str) and name else None


def build_devices(snapshot: ClusterSnapshot) -> ClusterDevices:
    """The ClusterDevices of a snapshot (see cluster_devices for the cached form)."""
    from kubectl_wasdra.dra.views import DeviceView

    devices: list[ClusterDevice] = []
    result = ClusterDevices(())
    for pool in snapshot.pools.values():
        for slice_, raw in pool.devices():
            view = DeviceView(pool.driver, raw)
            devices.append(ClusterDevice(pool.driver, view.name, _node_of(slice_), view))
            for where, table in (("attributes", view.attributes), ("capacity", view.capacity)):
                for domain, entries in table.items():
                    result.names.setdefault((where, domain), set()).update(entries)
            for domain, entries in view.attributes.items():
                for ident, value in entries.items():
                    if isinstance(value, str):
                        result.values.setdefault((domain, ident), set()).add(value)
    result.devices = tuple(devices)
    result.drivers = frozenset(d.driver for d in devices)
    result.snapshot = snapshot
    return result


def _attribute_type(attribute: Any) -> str | None:
    """The CEL type of a DeviceAttribute as published: its one scalar value field (None for a list form, none or
    several)."""
    from kubectl_wasdra.dra.cel_types import ATTRIBUTE_TYPES, LIST_FIELDS

    if not isinstance(attribute, dict) or any(key in LIST_FIELDS for key in attribute):
        return None
    kinds = [ATTRIBUTE_TYPES[key] for key in attribute if key in ATTRIBUTE_TYPES]
    return kinds[0] if len(kinds) == 1 else None


def declared_types(snapshot: ClusterSnapshot) -> dict[tuple[str, str, str], DeclaredType]:
    """The type of each attribute and capacity name the newest slices of every pool declare, by (attributes|capacity,
    domain, name), with the slices declaring it; a name declared with different types (or a malformed value) is
    left out: its type is not known for certain."""
    from kubectl_wasdra.dra.cel_types import QUANTITY, DeclaredType
    from kubectl_wasdra.dra.fields import mapping
    from kubectl_wasdra.dra.views import split_qualified_name

    seen: dict[tuple[str, str, str], dict[str | None, set[str]]] = {}
    for pool in snapshot.pools.values():
        for slice_, raw in pool.devices():
            slice_name = str(mapping(slice_.get("metadata")).get("name", ""))
            for where in ("attributes", "capacity"):
                for qualified, value in mapping(raw.get(where)).items():
                    domain, name = split_qualified_name(str(qualified), pool.driver)
                    kind = _attribute_type(value) if where == "attributes" else QUANTITY
                    seen.setdefault((where, domain, name), {}).setdefault(kind, set()).add(slice_name)
    return {key: DeclaredType(kind, tuple(sorted(slices))) for key, kinds in seen.items()
            for kind, slices in kinds.items() if len(kinds) == 1 and kind is not None}


class _Identity:
    """Hashes a snapshot by identity, so one check shares one ClusterDevices between rules."""

    __slots__ = ("snapshot",)

    def __init__(self, snapshot: ClusterSnapshot) -> None:
        self.snapshot = snapshot

    def __hash__(self) -> int:
        return id(self.snapshot)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Identity) and other.snapshot is self.snapshot


@functools.lru_cache(maxsize=2)
def _cached(key: _Identity) -> ClusterDevices:
    return build_devices(key.snapshot)


def cluster_devices(snapshot: ClusterSnapshot) -> ClusterDevices:
    """The snapshot's ClusterDevices, built once per snapshot (the two most recent are kept)."""
    return _cached(_Identity(snapshot))
