"""Runs the fixture files of fixtures/lint/<RULE>/ through the GATE and VALID rules.

A fixture's leading comments say how to check it: `# releases: 1.35 1.36 1.37`, optional `# feature-gates: A=true`,
`# runtime-config: g/v=true`, `# profile: production`, and for bad files `# expect: VALID001 12:7, VALID001 20:9`
(the findings of that rule, identical for every release listed).
"""

from __future__ import annotations

import importlib
from pathlib import Path

from kubectl_wasdra.catalog.gates import parse_feature_gates
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.pipeline import check_documents
from kubectl_wasdra.lint.registry import Rule, rule_infos
from kubectl_wasdra.load import load_paths

FIXTURES = Path(__file__).resolve().parents[4] / "fixtures" / "lint"
FAMILY_MODULES = ("gates", "validation")


def own_rules() -> list[Rule]:
    found: list[Rule] = []
    for family in FAMILY_MODULES:
        module = importlib.import_module(f"kubectl_wasdra.lint.rules.{family}")
        found += [v.__wasdra_rule__ for v in vars(module).values() if hasattr(v, "__wasdra_rule__")]
    return found


def header(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(":")
        values[key.strip()] = value.strip()
    return values


def findings(path: Path, release: Release) -> list[tuple[str, int, int]]:
    """(rule, line, column) of every GATE/VALID finding for the fixture's flags and `release`, sorted."""
    meta = header(path)
    runtime = parse_feature_gates(meta.get("runtime-config", ""), where="--runtime-config")
    ctx = CheckContext(release=release, feature_gates=parse_feature_gates(meta.get("feature-gates", "")),
                       runtime_config=runtime, profile=meta.get("profile", "default"))
    documents = load_paths([str(path)]).documents
    return sorted((f.rule, f.line, f.column) for f in check_documents(documents, own_rules(), ctx))


def expected(path: Path) -> list[tuple[str, int, int]]:
    text = header(path).get("expect", "")
    result = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        rule, position = item.split()
        line, column = position.split(":")
        result.append((rule, int(line), int(column)))
    return sorted(result)


def fixture_cases(family: str) -> list[tuple[Path, Release]]:
    cases = []
    mine = {r.info.id for r in own_rules()}
    for path in sorted(FIXTURES.glob(f"{family}*/*.yaml")):
        if path.parent.name not in mine:
            continue
        for release in header(path).get("releases", "").split():
            cases.append((path, Release.parse(release)))
    return cases


def case_id(case: tuple[Path, Release]) -> str:
    return f"{case[0].parent.name}/{case[0].stem}@{case[1]}"


def rule_ids() -> set[str]:
    return {info.id for info in rule_infos()}
