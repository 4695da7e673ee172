"""One cause, one finding: a problem is dropped when an earlier check of the pipeline already reports the same value.

The schema states the contract the API server decodes against (types, required fields, enums, patterns); API-server
validation then repeats some of it (`gang.minCount` required, `count` an integer). When both fire on one value, the
schema finding explains it and the VALID one would only say it again, so a VALID problem about a value a SCHEMA
problem is about (or about a value inside it) is left out. With SCHEMA not selected, VALID keeps reporting it.
A problem may also name other paths it explains (`Problem.covers`): `expression:` indented as a sibling of `cel:` is
one VALID011 that says so, not also an unknown field "expression".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

from kubectl_wasdra.lint.codes import RuleInfo
from kubectl_wasdra.lint.problem import Problem

T = TypeVar("T")

# family -> the earlier families whose problems already explain its problems about the same value
EXPLAINED_BY: Final = {"VALID": ("SCHEMA",)}


def drop_repeated_causes(found: Sequence[tuple[RuleInfo, T, Problem]]) -> list[tuple[RuleInfo, T, Problem]]:
    """`found` (one document's problems, with their rule) without the problems an earlier family already reports."""
    causes: dict[str, list[tuple[str | int, ...]]] = {}
    for info, _, problem in found:
        causes.setdefault(info.family, []).append(problem.cause)
    covered = {tuple(path) for _, _, problem in found for path in problem.covers}
    kept = []
    for entry in found:
        info, _, problem = entry
        earlier = [cause for family in EXPLAINED_BY.get(info.family, ()) for cause in causes.get(family, ())]
        if problem.cause not in covered and not any(problem.cause[:len(cause)] == cause for cause in earlier):
            kept.append(entry)
    return kept
