"""Which gated fields of one document matter for one release and gate state (the GATE family's pure core).

Kept free of the rule framework so the matrix view and tests call it on plain dicts.
Upstream: kubernetes/kubernetes pkg/api/pod/util.go and pkg/registry/*/strategy.go (dropDisabledFields on create).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.catalog.field_gates import FieldGate, checked_fields, find_governed, kind_gates
from kubectl_wasdra.catalog.gates import GateInfo, GateState
from kubectl_wasdra.catalog.releases import Release

if TYPE_CHECKING:
    from kubectl_wasdra.lint.context import CheckContext
    from kubectl_wasdra.load import Document

APISERVER = "kube-apiserver"

# families that judge an object as the target release's API server would: they stay quiet for an object whose
# apiVersion that release does not serve or has not enabled (API001/API002 report it once, no cascade)
NEEDS_SERVED_API: Final = frozenset({"GATE", "VALID"})   # skipped when the release does not serve the version (API001)
NEEDS_ENABLED_API: Final = frozenset({"GATE"})   # skipped when it serves it disabled (API002): VALID still runs


def api_unavailable(doc: Document, ctx: CheckContext) -> bool:
    """True when a built-in apiVersion/kind of `doc` is not served, or not enabled, by `ctx`'s release with its
    --runtime-config and gates (what API001/API002 report); False for CRDs and documents without apiVersion/kind."""
    if not isinstance(doc.api_version, str) or not isinstance(doc.kind, str) or not doc.api_version or not doc.kind:
        return False
    return _api_unavailable(doc.api_version, doc.kind, ctx)


def skipped_families(doc: Document, ctx: CheckContext) -> frozenset[str]:
    """The rule families that would only cascade from API001/API002 on `doc`: GATE and VALID when the release does
    not serve its apiVersion/kind at all, GATE alone when it serves it but not enabled (the object is validated as
    written, so every error shows in one pass, not after the apiVersion is fixed)."""
    if not isinstance(doc.api_version, str) or not isinstance(doc.kind, str) or not doc.api_version or not doc.kind:
        return frozenset()
    return _skipped_families(doc.api_version, doc.kind, ctx)


@functools.lru_cache(maxsize=1024)
def _skipped_families(api_version: str, kind: str, ctx: CheckContext) -> frozenset[str]:
    from kubectl_wasdra.catalog.apis import api_status

    status = api_status(ctx.release, api_version, kind, ctx.runtime_config, ctx.gate_enabled)
    if not status.known_group or (status.served and status.enabled):
        return frozenset()
    return NEEDS_ENABLED_API if status.served else NEEDS_SERVED_API


@functools.lru_cache(maxsize=1024)
def _api_unavailable(api_version: str, kind: str, ctx: CheckContext) -> bool:
    from kubectl_wasdra.catalog.apis import api_status

    status = api_status(ctx.release, api_version, kind, ctx.runtime_config, ctx.gate_enabled)
    return status.known_group and not (status.served and status.enabled)


@dataclass(frozen=True)
class GatedField:
    """A gated field present in a document: where, which gate decides, and that gate's state in the release."""

    path: tuple[str | int, ...]
    field: FieldGate
    gate: str                    # the deciding gate (the first one that is off, else the field's gate)
    info: GateInfo | None        # None when the release does not register the gate at all
    enabled: bool


def present_gated_fields(data: dict[str, Any], api_version: str, kind: str, release: Release,
                         state: GateState) -> Iterator[GatedField]:
    """Every gated field of `data` that changes something on create, with the state of its deciding gate.

    Skips fields of a kind that is itself gated off (the API rules report the kind) and fields gated by the same gate
    as their kind (they can only exist when the kind is served).
    """
    kind_gate_names, fields = _plan(release, api_version, kind)
    if not fields or any(not state.enabled(g) for g in kind_gate_names):
        return
    for field in fields:
        if not _prefix_exists(data, field.pattern):
            continue
        for path in find_governed(data, field):
            off = [g for g in field.gates_all if not state.enabled(g)]
            gate = off[0] if off else field.gate
            yield GatedField(path, field, gate, state.table.get(gate), not off)


@functools.lru_cache(maxsize=64)
def document_gated_fields(doc: Document, ctx: CheckContext) -> tuple[GatedField, ...]:
    """present_gated_fields of `doc` under `ctx`'s release and gates, walked once per document and shared by the GATE
    rules, the VALID family (which skips dropped fields) and FIT006; () without apiVersion/kind (the experimental
    profile turns every gate on: lint/context.py)."""
    if not doc.api_version or not doc.kind:
        return ()
    return tuple(present_gated_fields(doc.data, doc.api_version, doc.kind, ctx.release, ctx.gates))


@functools.cache
def _plan(release: Release, api_version: str, kind: str) -> tuple[tuple[str, ...], tuple[FieldGate, ...]]:
    """(gates the whole kind needs, gated fields to walk) for one release and kind, computed once."""
    kind_gate_names = tuple(sorted({g for f in kind_gates(release, api_version, kind) for g in f.gates_all}))
    fields = tuple(f for f in checked_fields(release, api_version, kind) if f.gate not in kind_gate_names)
    return kind_gate_names, fields


def _prefix_exists(data: Any, pattern: tuple[str, ...]) -> bool:
    """Cheap pre-check: the literal steps before the first wildcard exist (most gated fields are absent)."""
    for step in pattern:
        if step in ("[]", "{}"):
            return True
        if not isinstance(data, dict) or step not in data:
            return False
        data = data[step]
    return True


def stage_text(info: GateInfo | None, release: Release) -> str:
    """"alpha in 1.37, off by default" / "not registered in 1.33"."""
    if info is None:
        return f"not registered in {release}"
    default = "on" if info.default else "off"
    return f"{info.stage} in {release}, {default} by default"


def components_text(info: GateInfo | None) -> str:
    return ", ".join(info.components) if info and info.components else "kube-apiserver"


def effect_text(hit: GatedField) -> str:
    """What the release does with the field while the gate is off."""
    info, field = hit.info, hit.field
    if field.effect == "rejected":
        return "kube-apiserver rejects the object"
    where = "from the pod template on create" if field.template_of else "on create"
    if info is None or APISERVER in info.components:
        return f"kube-apiserver drops the field {where}"
    others = ", ".join(c for c in info.components if c != APISERVER)
    return f"the field is stored but {others} ignore it"


_RELEASE_NUMBER: Final = re.compile(r"\b1\.3\d\b")


def note_text(note: str | None) -> str:
    """The part of a field-gates.yaml note worth a user's attention: without the data file's remark that the entry
    also covers pod templates (the message's path already says where the field is), without the clauses about other
    releases (the message states the target release's stage) and without a closing period."""
    text = (note or "").split("Applies to Pod templates too", 1)[0].strip().rstrip(". ")
    return "; ".join(part.strip() for part in text.split(";") if part.strip() and not _RELEASE_NUMBER.search(part))


def disabled_message(hit: GatedField, release: Release) -> str:
    text = note_text(hit.field.note)
    note = f" ({text})" if text else ""
    return (f"needs feature gate {hit.gate} "
            f"({stage_text(hit.info, release)}; {components_text(hit.info)}): with it off {effect_text(hit)}{note}")


def enable_hint(hit: GatedField) -> str:
    if hit.info is None:
        return "remove the field, or target a release that has it"
    return (f"enable {hit.gate} on {components_text(hit.info)} (--feature-gates {hit.gate}=true), "
            f"or remove the field")

