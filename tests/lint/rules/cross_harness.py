"""Runs the REF/GANG/FIT/VALID050 fixtures of fixtures/lint/<RULE>/ through the whole check pipeline.

Leading comments say how: `# k8s-version: 1.36 1.37` (one run per release), optional `# feature-gates: A=true`,
`# runtime-config: g/v=true`, `# snapshot: two-racks` (fixtures/clusters/NAME, or a path relative to the fixture),
`# simulate: false`, and for bad files `# expect: REF001 12:7, REF001 20:9` (that rule's findings, every release).
"""

from __future__ import annotations

import functools
from pathlib import Path

from kubectl_wasdra.catalog.apis import parse_runtime_config
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.cli_options import parse_feature_gates
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.lint.pipeline import CheckOptions, CheckReport, run_check

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "lint"
CLUSTERS = ROOT / "fixtures" / "clusters"
FAMILIES = ("REF", "GANG", "FIT")
EXTRA_RULES = ("VALID050",)


def header(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(":")
        values.setdefault(key.strip(), value.strip())
    return values


@functools.cache
def snapshot_at(path: str) -> ClusterSnapshot:
    snapshot, problems = load_snapshot([path])
    assert not problems, problems
    return snapshot


def _snapshot(path: Path, name: str) -> ClusterSnapshot | None:
    if not name:
        return None
    local = path.parent / name
    return snapshot_at(str(local if local.exists() else CLUSTERS / name))


def report(path: Path, release: Release) -> CheckReport:
    meta = header(path)
    runtime = parse_runtime_config([item for item in meta.get("runtime-config", "").split(",") if item])
    options = CheckOptions(paths=(str(path),), releases=(release,),
                           feature_gates=parse_feature_gates(meta.get("feature-gates", "")), runtime_config=runtime,
                           snapshot=_snapshot(path, meta.get("snapshot", "")),
                           simulate=meta.get("simulate", "true") == "true", jobs=1)
    return run_check(options)


def findings(path: Path, release: Release, rule: str) -> list[tuple[str, int, int]]:
    """(rule, line, column) of `rule`'s findings for the fixture, sorted."""
    return sorted((f.rule, f.line, f.column) for f in report(path, release).findings if f.rule == rule)


def expected(path: Path) -> list[tuple[str, int, int]]:
    result = []
    for item in filter(None, (part.strip() for part in header(path).get("expect", "").split(","))):
        rule, position = item.split()
        line, column = position.split(":")
        result.append((rule, int(line), int(column)))
    return sorted(result)


def cases(prefix: str) -> list[tuple[Path, Release]]:
    """(fixture, release) for every fixture of the rules whose ID starts with `prefix`."""
    found = []
    for path in sorted(FIXTURES.glob(f"{prefix}*/*.yaml")):
        for release in header(path).get("k8s-version", "").split():
            found.append((path, Release.parse(release)))
    return found


def case_id(case: tuple[Path, Release]) -> str:
    return f"{case[0].parent.name}/{case[0].stem}@{case[1]}"


def check_case(case: tuple[Path, Release]) -> None:
    """Bad fixtures produce exactly the expected findings of their rule; good ones none of it."""
    path, release = case
    rule = path.parent.name
    got = findings(path, release, rule)
    if path.name.startswith("good"):
        assert got == [], got
    else:
        assert got, "a bad fixture must produce findings"
        assert got == expected(path), got
