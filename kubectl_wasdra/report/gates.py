"""Renderers of `kubectl wasdra gates`: the gate/KEP table of one release and the diff between two releases."""

from __future__ import annotations

import json
from typing import Any, Final

from kubectl_wasdra.catalog.gateless import GATELESS, GatelessKep
from kubectl_wasdra.catalog.gates import GateChange, GateInfo, gate_diff, gate_table, keps_without_gate
from kubectl_wasdra.catalog.releases import NEWEST, Release, minor_key

SHORT: Final = {"kube-apiserver": "apiserver", "kube-scheduler": "scheduler", "kube-controller-manager": "kcm",
                "kubelet": "kubelet", "kube-proxy": "kube-proxy"}
AREAS: Final = ("scheduling", "dra", "node", "autoscaling", "apiserver")


def _components(info: GateInfo) -> str:
    return ", ".join(SHORT.get(c, c) for c in info.components)


def _default(info: GateInfo) -> str:
    return ("on" if info.default else "off") + (" (locked)" if info.locked else "")


def gate_rows(release: Release, area: str | None = None) -> list[GateInfo]:
    """Gates of `release` (optionally one area), ordered by area, KEP and name."""
    rows = [g for g in gate_table(release).gates.values() if area is None or g.area == area]
    return sorted(rows, key=lambda g: (AREAS.index(g.area) if g.area in AREAS else 99, g.kep or 0, g.name))


def gateless_rows(release: Release, area: str | None = None) -> list[GatelessKep]:
    """The KEPs of `release` that ship without a feature gate (always on), optionally of one area."""
    return [k for k in GATELESS if (release.major, release.minor) >= minor_key(k.since) and area in (None, k.area)]


def render_table(release: Release, area: str | None, output: str) -> str:
    rows, gateless = gate_rows(release, area), gateless_rows(release, area)
    if output == "json":
        return json.dumps({"k8sVersion": str(release), "gates": [_info_dict(g) for g in rows]
                           + [_gateless_dict(k) for k in gateless]}, indent=2) + "\n"
    table = [("KEP", "gate", "area", "stage", "default", "components", "since", "simulator")]
    table += [(str(g.kep or "-"), g.name, g.area, g.stage + (" (unverified)" if g.status == "unverified" else ""),
               _default(g), _components(g), g.since, _simulator(g.name)) for g in rows]
    table += [(str(k.kep), "(no gate)", k.area, "no gate", "always on", ", ".join(SHORT.get(c, c) for c in k.components)
               or "-", k.since, "-") for k in gateless]
    lines = _align(table)
    missing = [(kep, name) for kep, name, _ in keps_without_gate()]
    if missing and release == NEWEST:
        lines += ["", "KEPs tracked for this release with no gate in the code: "
                  + ", ".join(f"{kep} {name}" for kep, name in missing)]
    if gateless:
        lines += ["", "KEPs without a feature gate (always on): "
                  + ", ".join(f"KEP-{k.kep} {k.what} (since {k.since})" for k in gateless)]
    return "\n".join(lines) + "\n"


def _gateless_dict(kep: GatelessKep) -> dict[str, Any]:
    """A no-gate KEP in the JSON table: the gate fields say so (gate null, always on), "changes" says what it adds."""
    return {"kep": kep.kep, "gate": None, "area": kep.area, "stage": "no gate", "default": True, "locked": True,
            "components": list(kep.components), "requires": [], "since": kep.since, "simulator": None,
            "changes": kep.what}


def render_diff(before: Release, after: Release, area: str | None, output: str) -> str:
    changes = [c for c in gate_diff(before, after) if area is None or c.area == area]
    if output == "json":
        return json.dumps({"from": str(before), "to": str(after), "changes": [_change_dict(c) for c in changes]},
                          indent=2) + "\n"
    table = [("KEP", "gate", "area", str(before), str(after))]
    table += [(str(c.kep or "-"), c.name, c.area, _state(c.before), _state(c.after)) for c in changes]
    return "\n".join(_align(table)) + "\n"


def _simulator(name: str) -> str:
    """Whether `explain` honours the gate (sched/gate_model.py); "not modelled" gates change nothing there."""
    from kubectl_wasdra.sched.gate_model import is_modelled

    return "modelled" if is_modelled(name) else "not modelled"


def _state(info: GateInfo | None) -> str:
    return "-" if info is None else f"{info.stage} {_default(info)}"


def _info_dict(info: GateInfo | None) -> dict[str, Any] | None:
    if info is None:
        return None
    return {"kep": info.kep, "gate": info.name, "area": info.area, "stage": info.stage, "default": info.default,
            "locked": info.locked, "components": list(info.components), "requires": list(info.requires),
            "since": info.since, "simulator": _simulator(info.name)}


def _change_dict(change: GateChange) -> dict[str, Any]:
    return {"gate": change.name, "kep": change.kep, "area": change.area,
            "from": _info_dict(change.before), "to": _info_dict(change.after)}


def _align(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
