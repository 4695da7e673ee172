"""Which apiVersion a document should have in the target release: the one the release serves by default (or the one
--runtime-config enables), from rules/api-versions.yaml; removed groups use the served successor that
rules/api-lifecycle.yaml names (catalog.lifecycle.successor, as check's hints do)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kubectl_wasdra.catalog.apis import ApiVersionInfo, api_status, api_table, builtin_groups, version_enabled
from kubectl_wasdra.catalog.lifecycle import successor
from kubectl_wasdra.catalog.releases import Release

_MATURITY = {"stable": 0, "beta": 1, "alpha": 2}


@dataclass(frozen=True)
class Target:
    """Where a document goes: its new apiVersion (None: it stays), and what the release needs to serve it."""

    api_version: str | None
    runtime_config: str | None = None
    gates: tuple[str, ...] = ()
    reason: str = ""


def _enabled(info: ApiVersionInfo, runtime_config: Mapping[str, bool]) -> bool:
    return version_enabled(runtime_config, info.group, info.version, default=info.enabled_by_default)


def _rank(info: ApiVersionInfo, runtime_config: Mapping[str, bool]) -> tuple[bool, int]:
    return (not _enabled(info, runtime_config), _MATURITY.get(info.maturity, 3))


def _needs(info: ApiVersionInfo, kind: str, runtime_config: Mapping[str, bool]) -> Target:
    config = None if _enabled(info, runtime_config) else info.runtime_config
    return Target(info.api_version, config, info.gates_for(kind))


def target_for(release: Release, api_version: str, kind: str, runtime_config: Mapping[str, bool]) -> Target:
    """The target apiVersion of one object, or Target(None, ...) when it stays (with what it needs to be served)."""
    if api_version.rpartition("/")[0] not in builtin_groups():  # custom resources: their CRDs decide, not the release
        return Target(None)
    status = api_status(release, api_version, kind, runtime_config)
    best = min(status.alternatives, key=lambda info: _rank(info, runtime_config), default=None)
    if status.info is not None:
        current = status.info
        if best is not None and (status.deprecated or _rank(best, runtime_config) < _rank(current, runtime_config)):
            return _needs(best, kind, runtime_config)
        kept = _needs(current, kind, runtime_config)
        return Target(None, kept.runtime_config, kept.gates, "deprecated, no successor served" if status.deprecated else "")
    if best is not None:
        return _needs(best, kind, runtime_config)
    replacement = successor(api_version, kind, release)   # the one check's API001 hint names
    if replacement is not None:
        return _needs(api_table()[release][replacement], kind, runtime_config)
    return Target(None, reason=f"Kubernetes {release} serves no version of {kind} in its group")
