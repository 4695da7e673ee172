"""`--profile` overrides: which rules report and at which severity, in one table (never inside a rule).

default      fields whose gate is off are errors (GATE001)
production   also alpha fields (GATE002) and beta fields whose gate is off by default (GATE003), even when enabled
experimental every gate assumed on; the stage of each pre-release field is reported as info (GATE004)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.codes import RuleInfo, Severity

PROFILES: Final = ("default", "production", "experimental")

# profile -> rule ID -> severity, or None when the rule does not report under that profile.
_OVERRIDES: Final[Mapping[str, Mapping[str, Severity | None]]] = MappingProxyType({
    "default": MappingProxyType({
        codes.GATE_FIELD_ALPHA.id: None, codes.GATE_FIELD_BETA_OFF.id: None, codes.GATE_FIELD_PRERELEASE.id: None}),
    "production": MappingProxyType({codes.GATE_FIELD_PRERELEASE.id: None}),
    "experimental": MappingProxyType({
        codes.GATE_FIELD_ALPHA.id: None, codes.GATE_FIELD_BETA_OFF.id: None}),
})
_ALL_GATES_ON: Final = frozenset({"experimental"})


def _table(profile: str) -> Mapping[str, Severity | None]:
    if profile not in _OVERRIDES:
        raise UsageError(f'unknown profile "{profile}"', where="--profile", hint=f"use one of {', '.join(PROFILES)}")
    return _OVERRIDES[profile]


def severity_for(rule: RuleInfo, profile: str) -> Severity:
    """The severity `rule` reports with under `profile` (its own severity unless the table says otherwise)."""
    return _table(profile).get(rule.id) or rule.severity


def is_active(rule: RuleInfo, profile: str) -> bool:
    """False when the profile switches the rule off (the rule then yields nothing)."""
    table = _table(profile)
    return rule.id not in table or table[rule.id] is not None


def assumes_all_gates_on(profile: str) -> bool:
    """True for profiles that judge manifests as if every feature gate of the release were on."""
    _table(profile)
    return profile in _ALL_GATES_ON
