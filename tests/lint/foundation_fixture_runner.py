"""Runs a fixture of fixtures/lint/<RULE>/ through the whole check pipeline (load included).

Leading comments say how: `# releases: 1.35 1.37`, `# feature-gates: A=true`, `# runtime-config: g/v=true`,
`# profile: production`, `# schema-location: DIR` (relative to the fixture), `# max-bytes: N`, `# also: PATH`
(an extra input path, relative to the fixture), and for bad files `# expect: RULE line:col, ...`.
"""

from __future__ import annotations

from pathlib import Path

from kubectl_wasdra.catalog.apis import parse_runtime_config
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.cli_options import parse_feature_gates
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lint"


def header(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in path.read_bytes().decode("utf-8", "replace").splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(":")
        values.setdefault(key.strip(), value.strip())
    return values


def options(path: Path, release: Release) -> CheckOptions:
    meta = header(path)
    paths = [str(path)] + [str(path.parent / extra) for extra in meta.get("also", "").split()]
    locations = tuple(str(path.parent / loc) for loc in meta.get("schema-location", "").split())
    runtime = parse_runtime_config([item for item in meta.get("runtime-config", "").split(",") if item])
    return CheckOptions(paths=tuple(paths), releases=(release,), feature_gates=parse_feature_gates(meta.get("feature-gates", "")),
                        runtime_config=runtime, profile=meta.get("profile", "default"), schema_locations=locations,
                        max_bytes=int(meta.get("max-bytes", 32 * 1024 * 1024)), jobs=1)


def findings(path: Path, release: Release, rule: str) -> list[tuple[str, int, int]]:
    """(rule, line, column) of the findings of `rule` for the fixture."""
    report = run_check(options(path, release))
    return sorted((f.rule, f.line, f.column) for f in report.findings if f.rule == rule)


def expected(path: Path) -> list[tuple[str, int, int]]:
    result = []
    for item in filter(None, (part.strip() for part in header(path).get("expect", "").split(","))):
        rule, position = item.split()
        line, column = position.split(":")
        result.append((rule, int(line), int(column)))
    return sorted(result)


def cases(families: tuple[str, ...]) -> list[tuple[Path, Release]]:
    found = []
    for path in sorted(FIXTURES.glob("*/*")):
        if path.is_file() and path.parent.name.rstrip("0123456789") in families:
            for release in header(path).get("releases", "").split():
                found.append((path, Release.parse(release)))
    return found


def case_id(case: tuple[Path, Release]) -> str:
    return f"{case[0].parent.name}/{case[0].name}@{case[1]}"
