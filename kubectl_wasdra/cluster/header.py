"""The snapshot header object: where a snapshot came from, written by `kubectl wasdra snapshot` and read back by the loader.

It is one more item of the snapshot's List (or one more document), so kubectl and other tools see an unknown kind and
skip it:

    apiVersion: kubectl-wasdra.io/v1
    kind: WasdraSnapshotHeader
    metadata: {name: snapshot}
    serverVersion: v1.37.0          # /version gitVersion of the cluster read
    takenAt: "2026-11-30T00:00:00Z" # RFC 3339, UTC
    served: [resource.k8s.io/v1, scheduling.k8s.io/v1beta1, ...]   # group/versions the server served
    gaps: {PodGroup: "not served by the server", ResourceClaim: "403 Forbidden: ..."}   # kind -> why it was not read
    converted: {resource.k8s.io/v1beta1: 12}   # objects converted to resource.k8s.io/v1 while reading
    anonymized: false
    featureGates: {DRADeviceTaints: true, GenericWorkload: false}   # the API server's gates (its /metrics), when read

Every field is optional; a header with wrong field types is reported and ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from kubectl_wasdra.catalog.releases import NEWEST, SUPPORTED, Release
from kubectl_wasdra.cluster.snapshot import SnapshotHeader
from kubectl_wasdra.errors import UsageError

HEADER_API_VERSION: Final = "kubectl-wasdra.io/v1"
HEADER_KIND: Final = "WasdraSnapshotHeader"
_VERSION: Final = re.compile(r"^v?(\d+)\.(\d+)")


def is_header(obj: Mapping[str, Any]) -> bool:
    """True for a snapshot header object."""
    return obj.get("kind") == HEADER_KIND


def header_to_object(header: SnapshotHeader) -> dict[str, Any]:
    """The header as a List item, keys in a fixed order."""
    return {
        "apiVersion": HEADER_API_VERSION,
        "kind": HEADER_KIND,
        "metadata": {"name": "snapshot"},
        "serverVersion": header.server_version,
        "takenAt": header.taken_at,
        "served": list(header.served),
        "gaps": dict(sorted(header.gaps.items())),
        "converted": dict(sorted(header.converted.items())),
        "anonymized": header.anonymized,
        "featureGates": dict(sorted(header.feature_gates.items())),
    }


def header_from_object(obj: Mapping[str, Any]) -> tuple[SnapshotHeader, tuple[str, str] | None]:
    """The header read from its object, plus (field, what is wrong) for the first malformed field (which is ignored)."""
    problem: tuple[str, str] | None = None

    def field(name: str, kind: type, default: Any) -> Any:
        nonlocal problem
        value = obj.get(name)
        if value is None:
            return default
        if not isinstance(value, kind):
            problem = problem or (name, f"{name} must be a {kind.__name__}, got {type(value).__name__}")
            return default
        return value

    served = tuple(str(item) for item in field("served", list, []))
    gaps = {str(key): str(value) for key, value in field("gaps", dict, {}).items()}
    converted: dict[str, int] = {}
    for key, value in field("converted", dict, {}).items():
        if isinstance(value, int) and not isinstance(value, bool):
            converted[str(key)] = value
        else:
            problem = problem or ("converted", f"converted[{key}] must be an integer")
    gates: dict[str, bool] = {}
    for key, value in field("featureGates", dict, {}).items():
        if isinstance(value, bool):
            gates[str(key)] = value
        else:
            problem = problem or ("featureGates", f"featureGates[{key}] must be true or false")
    header = SnapshotHeader(
        server_version=field("serverVersion", str, None),
        taken_at=field("takenAt", str, None),
        served=served,
        gaps=MappingProxyType(gaps),
        converted=MappingProxyType(converted),
        anonymized=bool(field("anonymized", bool, False)),
        feature_gates=MappingProxyType(dict(sorted(gates.items()))),
    )
    return header, problem


def merge_headers(first: SnapshotHeader, second: SnapshotHeader) -> SnapshotHeader:
    """Two headers (e.g. of two files of one snapshot) as one: first non-empty scalars, union of lists and maps."""
    converted = dict(first.converted)
    for key, count in second.converted.items():
        converted[key] = converted.get(key, 0) + count
    return SnapshotHeader(
        server_version=first.server_version or second.server_version,
        taken_at=first.taken_at or second.taken_at,
        served=tuple(sorted(set(first.served) | set(second.served))),
        gaps=MappingProxyType({**second.gaps, **first.gaps}),
        converted=MappingProxyType(dict(sorted(converted.items()))),
        anonymized=first.anonymized or second.anonymized,
        feature_gates=MappingProxyType(dict(sorted({**second.feature_gates, **first.feature_gates}.items()))),
    )


def parse_server_version(version: str | None) -> Release | None:
    """The minor release of a server's gitVersion ("v1.36.2-eks-1" -> 1.36), supported or not; None without one."""
    match = _VERSION.match(version or "")
    return Release(int(match.group(1)), int(match.group(2))) if match is not None else None


def server_release(version: str | None) -> Release | None:
    """The supported release of a server's gitVersion ("v1.36.2-eks-1" -> 1.36) for `--k8s-version auto`; None when
    there is no version; UsageError for a server outside the supported releases (it is not simulated as another)."""
    found = parse_server_version(version)
    if found is not None and found not in SUPPORTED:
        raise UsageError(f"the cluster runs Kubernetes {found} ({version}), which this tool does not model "
                         f"(it knows {SUPPORTED[0]}-{SUPPORTED[-1]})", where="--k8s-version",
                         hint=f"judge it as a known release with --k8s-version {NEWEST if found > NEWEST else SUPPORTED[0]}")
    return found
