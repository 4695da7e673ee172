"""The release, feature gates and served API versions a run judges against when it reads a cluster.

With `--live`, or a snapshot whose header records its server (`kubectl wasdra snapshot`), kube-apiserver's own answers
decide: the release from /version, the gates from /metrics (`kubernetes_feature_enabled`), the served group/versions
from discovery. Flags override them: `--k8s-version` the release (the server's gates and API versions then count only
when it names the server's own release: another release is a what-if), `--feature-gates` gate by gate,
`--runtime-config` group/version by group/version. Every run says where each came from (`Target.notes`).

Without /metrics (403 for most users) a gate stays at the release's default, except a gate that a served
group/version needs: the server could not serve it with the gate off (the catalogue's `requires_gates`).
A server release outside the supported ones is refused rather than simulated as another release.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from kubectl_wasdra.catalog.releases import NEWEST, Release
from kubectl_wasdra.cluster.gaps import FEATURE_GATES_GAP
from kubectl_wasdra.cluster.header import parse_server_version, server_release
from kubectl_wasdra.cluster.snapshot import SnapshotHeader

_SPECIAL_KEYS: Final = ("api/all", "api/ga", "api/beta", "api/alpha")
_LISTED: Final = 6  # names spelled out per note before "and N more"


def _frozen(mapping: Mapping[str, bool] | None = None) -> Mapping[str, bool]:
    return MappingProxyType(dict(sorted((mapping or {}).items())))


@dataclass(frozen=True)
class Target:
    """What to judge against: the release, the gate overrides and runtime config to apply to it, and one note per
    setting saying where it came from (empty when no cluster was read)."""

    release: Release
    feature_gates: Mapping[str, bool] = field(default_factory=_frozen)
    runtime_config: Mapping[str, bool] = field(default_factory=_frozen)
    notes: tuple[str, ...] = ()


def resolve_target(header: SnapshotHeader | None, release: Release | None, *, release_given: bool = True,
                   feature_gates: Mapping[str, bool] | None = None,
                   runtime_config: Mapping[str, bool] | None = None) -> Target:
    """The Target for a run that read `header`'s cluster (None: no cluster). `release` None is `--k8s-version auto`;
    `release_given` False means `release` is only the default, which the server's version replaces.
    UsageError for a server release outside 1.33-1.37 that was not overridden."""
    gates, config = dict(feature_gates or {}), dict(runtime_config or {})
    server = parse_server_version(header.server_version) if header is not None else None
    if header is None or server is None:
        chosen = release or NEWEST
        notes = () if header is None or release is not None else (
            f"--k8s-version auto: the snapshot records no server version, so Kubernetes {NEWEST} is assumed "
            "(pass --k8s-version to choose)",)
        return Target(chosen, _frozen(gates), _frozen(config), notes)
    if release is not None and release_given:
        if release != server:
            note = (f"Kubernetes {release}: from --k8s-version (the server runs {header.server_version}; its feature "
                    "gates and served API versions are not applied to another release)")
            return Target(release, _frozen(gates), _frozen(config), (note,))
        notes = [f"Kubernetes {release}: from --k8s-version, the server's own release ({header.server_version})"]
    else:
        release = server_release(header.server_version) or server  # UsageError outside 1.33-1.37
        notes = [f"Kubernetes {release}: the server's version ({header.server_version})"]
    served, served_note = _served_config(header, release, config)
    server_gates, gate_notes = _server_gates(header, release)
    notes += [*gate_notes, served_note, *_flag_notes(gates, config, server_gates)]
    return Target(release, _frozen({**server_gates, **gates}), _frozen({**served, **config}), tuple(notes))


def _flag_notes(gates: Mapping[str, bool], config: Mapping[str, bool], server_gates: Mapping[str, bool]) -> list[str]:
    """What --feature-gates and --runtime-config set over the server's answers."""
    notes = []
    overridden = sorted(set(gates) & set(server_gates))
    if gates:
        notes.append("--feature-gates sets " + _settings(gates)
                     + (f" (over the server's {', '.join(overridden)})" if overridden else ""))
    if config:
        notes.append("--runtime-config sets " + _settings(config))
    return notes


def _served_config(header: SnapshotHeader, release: Release,
                   flags: Mapping[str, bool]) -> tuple[dict[str, bool], str]:
    """The runtime config that makes the release serve what discovery listed: every group/version of the catalogue
    whose served state differs from its default (a key --runtime-config sets, or an api/* switch of its maturity,
    is left to the flag); and the note saying so."""
    from kubectl_wasdra.catalog.apis import api_table

    if not header.served:
        return {}, f"API versions: Kubernetes {release} defaults (the cluster's discovery is not recorded)"
    served = set(header.served)
    config: dict[str, bool] = {}
    for api_version, info in sorted(api_table().get(release, {}).items()):
        maturity = "alpha" if "alpha" in info.version else "beta" if "beta" in info.version else "ga"
        if api_version in flags or "api/all" in flags or f"api/{maturity}" in flags:
            continue
        if (api_version in served) != info.enabled_by_default:
            config[api_version] = api_version in served
    on = [k for k, v in config.items() if v]
    off = [k for k, v in config.items() if not v]
    changes = "; ".join(part for part in (on and "on: " + _names(on), off and "off: " + _names(off)) if part)
    return config, ("API versions: the server's discovery" + (f" ({changes}, against the {release} defaults)"
                                                              if changes else f" (the {release} defaults)"))


def _server_gates(header: SnapshotHeader, release: Release) -> tuple[dict[str, bool], list[str]]:
    """Gate overrides from the server (those of its /metrics that differ from the release's defaults, locked gates
    left out), or, without /metrics, the gates the served group/versions need; and the notes saying so."""
    from kubectl_wasdra.catalog.gates import gate_table

    table = gate_table(release)
    if header.feature_gates:
        gates = {name: value for name, value in header.feature_gates.items()
                 if (info := table.get(name)) is not None and not info.locked and value != info.default}
        differ = f"; against the {release} defaults: {_settings(gates)}" if gates else f"; all at the {release} defaults"
        return gates, [f"feature gates: the API server's /metrics ({len(header.feature_gates)} gates{differ})"]
    why = header.gaps.get(FEATURE_GATES_GAP) or "not recorded"
    needed = _gates_of_served(release, header.served)
    note = f"feature gates: Kubernetes {release} defaults (the server's /metrics: {why})"
    if needed:
        note += "; on because the server serves what needs them: " + _names(needed)
    return dict.fromkeys(needed, True), [note]


def _gates_of_served(release: Release, served: tuple[str, ...]) -> list[str]:
    """Gates, off by default, that group/versions the server serves require (it could not serve them otherwise)."""
    from kubectl_wasdra.catalog.apis import api_table
    from kubectl_wasdra.catalog.gates import gate_table

    table = gate_table(release)
    needed: set[str] = set()
    for api_version, info in api_table().get(release, {}).items():
        if api_version in served:
            needed.update(g for g in info.requires_gates
                          if (gate := table.get(g)) is not None and not gate.default and not gate.locked)
    return sorted(needed)


def _settings(settings: Mapping[str, bool]) -> str:
    """"name=true, other=false" in name order, listed as _names lists them."""
    return _names(f"{k}={str(v).lower()}" for k, v in sorted(settings.items()))


def _names(items: Iterable[str]) -> str:
    """"a, b, c" with at most _LISTED names, then "and N more"."""
    names = list(items)
    shown = ", ".join(names[:_LISTED])
    return shown + (f" and {len(names) - _LISTED} more" if len(names) > _LISTED else "")
