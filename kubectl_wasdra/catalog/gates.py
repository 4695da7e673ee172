"""Feature gates per release (stage, default, lock, components, dependencies) and the effective state of a cluster.

`effective_gates` mirrors the components' `--feature-gates` flag: an unknown name, a locked gate set to its
non-default value and a gate whose required gate is off stop the component from starting, so they are UsageErrors here.
Upstream: kubernetes/kubernetes staging/src/k8s.io/component-base/featuregate/feature_gate.go (Set, dependency check)
and pkg/features/kube_features.go (versioned specs, defaultKubernetesFeatureGateDependencies). Data: rules/feature-gates.yaml.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from kubectl_wasdra.catalog.data import read_yaml
from kubectl_wasdra.catalog.releases import Release, minor_key
from kubectl_wasdra.catalog.spelling import did_you_mean
from kubectl_wasdra.errors import UsageError

DATA_FILE: Final = "rules/feature-gates.yaml"
STAGE_NAMES: Final = MappingProxyType({"alpha": "alpha", "beta": "beta", "stable": "GA", "deprecated": "deprecated"})
# component-base featuregate: the two meta gates that flip every alpha / beta gate not set explicitly
META_GATES: Final = ("AllAlpha", "AllBeta")
_TRUE: Final = frozenset({"1", "t", "T", "TRUE", "true", "True"})     # Go strconv.ParseBool
_FALSE: Final = frozenset({"0", "f", "F", "FALSE", "false", "False"})


@dataclass(frozen=True)
class GateInfo:
    """One gate as one release registers it. `stage` is alpha, beta, GA or deprecated."""

    name: str
    kep: int | None
    area: str
    components: tuple[str, ...]
    stage: str
    default: bool
    locked: bool
    requires: tuple[str, ...]
    history: tuple[tuple[str, str], ...]   # (first minor, stage) per stage change up to this release, oldest first
    status: str | None = None              # "unverified" when the sources are weak

    @property
    def since(self) -> str:
        """History as text, e.g. "1.34 alpha, 1.36 beta"."""
        return ", ".join(f"{minor} {stage}" for minor, stage in self.history)

    @property
    def is_prerelease(self) -> bool:
        return self.stage in ("alpha", "beta")


@dataclass(frozen=True)
class GateTable:
    """Every gate one release knows, plus what became of gates that existed in other releases."""

    release: Release
    gates: Mapping[str, GateInfo]
    elsewhere: Mapping[str, str]       # gate name -> why it is not known here (removed, merged, not yet added)

    def get(self, name: str) -> GateInfo | None:
        return self.gates.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self.gates


@dataclass(frozen=True)
class GateState:
    """Effective on/off state of every gate of one release: defaults plus `--feature-gates` overrides."""

    table: GateTable
    overrides: Mapping[str, bool]

    @property
    def release(self) -> Release:
        return self.table.release

    def enabled(self, name: str) -> bool:
        """True if the gate is on; a gate the release does not know is off."""
        if name in self.overrides:
            return self.overrides[name]
        info = self.table.get(name)
        return info is not None and info.default

    def is_overridden(self, name: str) -> bool:
        return name in self.overrides


def _stage_at(raw: Mapping, release: Release) -> Mapping | None:
    """The stage entry of one raw gate that holds in `release`, or None if the gate is not registered then."""
    key = (release.major, release.minor)
    removed = raw.get("removed_in")
    if removed is not None and key >= minor_key(removed):
        return None
    current = None
    for stage in raw.get("stages") or ():
        if minor_key(stage["from"]) <= key:
            current = stage
    return current


def _history(raw: Mapping, release: Release) -> tuple[tuple[str, str], ...]:
    key = (release.major, release.minor)
    history: list[tuple[str, str]] = []
    for stage in raw.get("stages") or ():
        name = STAGE_NAMES.get(stage["stage"], stage["stage"])
        if minor_key(stage["from"]) <= key and (not history or history[-1][1] != name):
            history.append((str(stage["from"]), name))
    return tuple(history)


def _gate_info(raw: Mapping, stage: Mapping, release: Release) -> GateInfo:
    return GateInfo(
        name=raw["name"], kep=raw.get("kep"), area=raw.get("area", ""), components=tuple(raw.get("components") or ()),
        stage=STAGE_NAMES.get(stage["stage"], stage["stage"]), default=bool(stage["default"]),
        locked=bool(stage.get("locked")), requires=tuple(raw.get("requires") or ()),
        history=_history(raw, release), status=raw.get("status"))


def _why_absent(raw: Mapping, release: Release) -> str:
    key = (release.major, release.minor)
    removed, stages = raw.get("removed_in"), raw.get("stages") or ()
    if raw.get("status") == "not-in-code" or not stages:
        return f"{raw['name']} is named by KEP-{raw.get('kep')} but no Kubernetes release registers it"
    if removed is not None and key >= minor_key(removed):
        merged = f"; it was merged into {raw['replaced_by']}" if raw.get("replaced_by") else ""
        return f"{raw['name']} was removed in {removed}{merged}"
    return f"{raw['name']} first exists in {stages[0]['from']}"


@functools.cache
def _raw_gates() -> tuple[Mapping, ...]:
    return tuple(read_yaml(DATA_FILE))  # type: ignore[arg-type]


@functools.cache
def gate_table(release: Release) -> GateTable:
    """Every gate of one release (stage, default, lock), parsed on first use and shared."""
    gates: dict[str, GateInfo] = {}
    elsewhere: dict[str, str] = {}
    for raw in _raw_gates():
        stage = _stage_at(raw, release)
        if stage is None:
            elsewhere[raw["name"]] = _why_absent(raw, release)
        else:
            gates[raw["name"]] = _gate_info(raw, stage, release)
    return GateTable(release, MappingProxyType(dict(sorted(gates.items()))), MappingProxyType(elsewhere))


@functools.cache
def replacement_of(name: str) -> str | None:
    """The gate a removed gate was merged into (GangScheduling -> GenericWorkload), if any."""
    for raw in _raw_gates():
        if raw["name"] == name:
            return raw.get("replaced_by")
    return None


def parse_feature_gates(text: str | None, *, where: str = "--feature-gates") -> dict[str, bool]:
    """Parse "Name=true,Other=false" exactly like the components' flag (Go ParseBool values); no gate lookup here."""
    result: dict[str, bool] = {}
    for part in filter(None, (p.strip() for p in (text or "").split(","))):
        name, sep, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise UsageError(f'missing bool value for "{part}"', where=where, hint="use Name=true or Name=false")
        if value in _TRUE:
            result[name] = True
        elif value in _FALSE:
            result[name] = False
        else:
            raise UsageError(f'invalid value of {name}={value}, err: strconv.ParseBool: parsing "{value}": invalid syntax',
                             where=where, hint="use true or false")
    return result


def _unknown_gate_error(name: str, table: GateTable) -> UsageError:
    release = table.release
    why = table.elsewhere.get(name)
    replacement = replacement_of(name)
    if replacement and replacement in table:
        hint = f"use {replacement}=true instead"
    else:
        listing = f"list the gates of {release} with: kubectl wasdra gates --k8s-version {release}"
        hint = did_you_mean(name, [*table.gates, *META_GATES]) or listing
    detail = f" ({why})" if why else ""
    return UsageError(f'unrecognized feature gate "{name}" for Kubernetes {release}{detail}', where="--feature-gates", hint=hint)


def _expand_meta(overrides: Mapping[str, bool], table: GateTable) -> dict[str, bool]:
    """Apply AllAlpha/AllBeta to every unlocked gate of that stage not set explicitly (component-base semantics)."""
    result = {k: v for k, v in overrides.items() if k not in META_GATES}
    for meta, stage in (("AllAlpha", "alpha"), ("AllBeta", "beta")):
        if meta in overrides:
            for info in table.gates.values():
                if info.stage == stage and not info.locked and info.name not in result:
                    result[info.name] = overrides[meta]
    return result


# Upstream: kubernetes/kubernetes#133697 "Codify feature gate dependencies" (CHANGELOG-1.35: "Feature gate dependencies are
# now explicit, and validated at startup"); 1.33/1.34 components accept a gate on while a gate it needs is off.
DEPENDENCIES_ENFORCED_SINCE: Final = Release(1, 35)


def _check_dependencies(state: GateState) -> None:
    if state.release < DEPENDENCIES_ENFORCED_SINCE:
        return
    for name in sorted(state.table.gates):
        info = state.table.gates[name]
        if not state.enabled(name):
            continue
        missing = [dep for dep in info.requires if not state.enabled(dep)]
        if missing:
            listed = ", ".join(missing)
            also = ",".join(f"{m}=true" for m in missing)
            raise UsageError(f"feature gate {name} is on but depends on {listed}, which is off in Kubernetes {state.release}",
                             where="--feature-gates", hint=f"also set {also} or turn {name} off")


def effective_gates(release: Release, overrides: Mapping[str, bool] | None = None) -> GateState:
    """Defaults of `release` with `overrides` applied, validated like kube-apiserver validates its --feature-gates.

    Raises UsageError for an unknown gate (with what became of it and a suggestion), a locked gate set to its
    non-default value, and a gate that is on while a gate it depends on is off.
    """
    return _effective_gates(release, tuple(sorted((overrides or {}).items())))


@functools.cache
def _effective_gates(release: Release, items: tuple[tuple[str, bool], ...]) -> GateState:
    table = gate_table(release)
    for name, _ in items:
        if name not in table and name not in META_GATES:
            raise _unknown_gate_error(name, table)
    overrides = _expand_meta(dict(items), table)
    for name, value in overrides.items():
        info = table.gates[name]
        if info.locked and value != info.default:
            raise UsageError(f"cannot set feature gate {name} to {str(value).lower()}, feature is locked to "
                             f"{str(info.default).lower()} in Kubernetes {release} ({info.stage} since {info.history[-1][0]})",
                             where="--feature-gates", hint=f"remove {name} from --feature-gates")
    state = GateState(table, MappingProxyType(overrides))
    _check_dependencies(state)
    return state


@functools.cache
def all_gates_on(release: Release) -> GateState:
    """Every gate of `release` on (the experimental profile's assumption); never raises."""
    table = gate_table(release)
    return GateState(table, MappingProxyType(dict.fromkeys(table.gates, True)))


@dataclass(frozen=True)
class GateChange:
    """How one gate differs between two releases (None = not registered in that release)."""

    name: str
    kep: int | None
    area: str
    before: GateInfo | None
    after: GateInfo | None


def gate_diff(before: Release, after: Release) -> tuple[GateChange, ...]:
    """Gates added, removed, or with another stage/default/lock in `after` than in `before`, by name."""
    old, new = gate_table(before), gate_table(after)
    changes = []
    for name in sorted(set(old.gates) | set(new.gates)):
        a, b = old.get(name), new.get(name)
        if a is None or b is None or (a.stage, a.default, a.locked) != (b.stage, b.default, b.locked):
            info = b or a
            changes.append(GateChange(name, info.kep, info.area, a, b))
    return tuple(changes)


def keps_without_gate() -> tuple[tuple[int | None, str, str], ...]:
    """(KEP, name, note) of gates named by KEPs that no release 1.33-1.37 registers."""
    return tuple((raw.get("kep"), raw["name"], raw.get("note", "")) for raw in _raw_gates()
                 if raw.get("status") == "not-in-code")


def overrides_for(release: Release, overrides: Mapping[str, bool], releases: tuple[Release, ...]) -> dict[str, bool]:
    """The overrides that apply to `release` when one flag set is checked against several `releases`: a gate that
    another of those releases registers (GangScheduling for 1.35 and 1.37) is dropped where it does not exist; a name
    no release of the set knows is kept, so `effective_gates` still reports the typo."""
    if len(releases) < 2:
        return dict(overrides)
    table = gate_table(release)
    known_elsewhere = {name for other in releases for name in gate_table(other).gates}
    return {name: value for name, value in overrides.items()
            if name in table or name in META_GATES or name not in known_elsewhere}
