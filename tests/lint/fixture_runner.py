"""Runs the fixtures of fixtures/lint/<RULE>/ through the whole check pipeline (load included).

A fixture's leading comments say how to check it:
  `# releases: 1.35 1.37` or `# k8s-version: 1.36 1.37`  one run per release (no releases: not run)
  `# feature-gates: A=true,B=false`, `# runtime-config: group/version=true`, `# profile: production`
  `# snapshot: two-racks`  fixtures/clusters/NAME, or a path relative to the fixture; simulation is on with a snapshot
  `# simulate: false`, `# schema-location: DIR`, `# also: PATH` (both relative to the fixture), `# max-bytes: N`
  `# expect: REF001 12:7, REF001 20:9`  a bad file's findings of its rule, identical for every release listed
Also here: the value paths of a document and a copy with one value replaced (for the garbage-anywhere tests).
"""

from __future__ import annotations

import copy
import functools
import importlib
from pathlib import Path
from typing import Any

from kubectl_wasdra.catalog.apis import parse_runtime_config
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.cli_options import parse_feature_gates
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.lint.pipeline import CheckOptions, CheckReport, run_check
from kubectl_wasdra.lint.registry import Rule
from kubectl_wasdra.load import DEFAULT_MAX_BYTES

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "lint"
CLUSTERS = ROOT / "fixtures" / "clusters"

Case = tuple[Path, Release]


def header(path: Path) -> dict[str, str]:
    """The `# key: value` lines at the top of the fixture (the first of a repeated key wins)."""
    values: dict[str, str] = {}
    for line in path.read_bytes().decode("utf-8", "replace").splitlines():
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


def options(path: Path, release: Release) -> CheckOptions:
    meta = header(path)
    paths = [str(path)] + [str(path.parent / extra) for extra in meta.get("also", "").split()]
    locations = tuple(str(path.parent / loc) for loc in meta.get("schema-location", "").split())
    runtime = parse_runtime_config([item for item in meta.get("runtime-config", "").split(",") if item])
    return CheckOptions(paths=tuple(paths), releases=(release,), feature_gates=parse_feature_gates(meta.get("feature-gates", "")),
                        runtime_config=runtime, profile=meta.get("profile", "default"), schema_locations=locations,
                        snapshot=_snapshot(path, meta.get("snapshot", "")), simulate=meta.get("simulate", "true") == "true",
                        max_bytes=int(meta.get("max-bytes", DEFAULT_MAX_BYTES)), jobs=1)


def report(path: Path, release: Release) -> CheckReport:
    return run_check(options(path, release))


def findings(path: Path, release: Release, rule: str | None = None) -> list[tuple[str, int, int]]:
    """(rule, line, column) of the fixture's findings (only those of `rule` when given), sorted."""
    return sorted((f.rule, f.line, f.column) for f in report(path, release).findings if rule in (None, f.rule))


def expected(path: Path) -> list[tuple[str, int, int]]:
    result = []
    for item in filter(None, (part.strip() for part in header(path).get("expect", "").split(","))):
        rule, position = item.split()
        line, column = position.split(":")
        result.append((rule, int(line), int(column)))
    return sorted(result)


def cases(*prefixes: str) -> list[Case]:
    """(fixture, release) for every fixture of the rules whose ID starts with one of `prefixes`."""
    found = []
    for path in sorted(FIXTURES.glob("*/*")):
        if path.is_file() and path.parent.name.startswith(prefixes):
            meta = header(path)
            for release in meta.get("releases", meta.get("k8s-version", "")).split():
                found.append((path, Release.parse(release)))
    return found


def case_id(case: Case) -> str:
    path, release = case
    return f"{path.parent.name}/{path.stem if path.suffix == '.yaml' else path.name}@{release}"


def check_case(case: Case) -> None:
    """Bad fixtures produce exactly the expected findings of their rule; good ones none of it."""
    path, release = case
    got = findings(path, release, path.parent.name)
    if path.name.startswith("good"):
        assert got == [], got
    else:
        assert got, "a bad fixture must produce findings"
        assert got == expected(path), got


def module_rules(*modules: str) -> list[Rule]:
    """The rules implemented in kubectl_wasdra.lint.rules.<module> for each of `modules`."""
    found: list[Rule] = []
    for name in modules:
        module = importlib.import_module(f"kubectl_wasdra.lint.rules.{name}")
        found += [v.__wasdra_rule__ for v in vars(module).values() if hasattr(v, "__wasdra_rule__")]
    return found


def value_paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """The path of every value under `node` (keys and list indexes), parents before children."""
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += value_paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += value_paths(value, (*prefix, index))
    return found


def replaced(data: dict, path: tuple, value: Any) -> dict:
    """A deep copy of `data` with the value at `path` set to `value`."""
    data = copy.deepcopy(data)
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return data
