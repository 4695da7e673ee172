"""Every finding and every position stays byte-identical on the whole test corpus (fixtures/, tests/corpus/realworld/
and tests/corpus/upstream) while loading and position lookup are optimised.

tests/golden/findings.json holds the JSON report of `check` over each root; tests/golden/positions.json holds, per
file, a digest of the (line, column) of every key and value of every document (and of one missing child per
mapping, which answers with its deepest existing ancestor). Both were recorded before the optimisations. Regenerate
after an intended change of findings or positions with:
    WASDRA_UPDATE_GOLDEN=1 python -m pytest tests/test_findings_golden.py
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
from kubectl_wasdra.load import load_paths

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
ROOTS = {"fixtures": ROOT / "fixtures", "realworld": ROOT / "tests" / "corpus" / "realworld",
         "upstream": ROOT / "tests" / "corpus" / "upstream"}
UPDATE = bool(os.environ.get("WASDRA_UPDATE_GOLDEN"))


def _relative(text: str, root: Path) -> str:
    return text.replace(str(root) + os.sep, "").replace(str(root), ".")


def _report_json(root: Path, jobs: int) -> str:
    report = run_check(CheckOptions(paths=(str(root),), jobs=jobs))
    return _relative(json.dumps(report.as_dict(), sort_keys=True, indent=None), root)


def _paths(data: Any, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every path inside `data`, parents before children, plus one missing child per mapping."""
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
        yield (*prefix, "zz-not-there")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, (*prefix, index))


def _position_digests(root: Path) -> dict[str, str]:
    digests: dict[str, Any] = {}
    for document in load_paths((str(root),)).documents:
        lines = digests.setdefault(_relative(document.file, root), [])
        for path in _paths(document.data):
            lines.append(f"{document.index}.{document.item} {path!r} {document.position(path, 'key')} "
                         f"{document.position(path, 'value')}")
    return {file: hashlib.sha256("\n".join(lines).encode()).hexdigest() for file, lines in sorted(digests.items())}


def _compare(name: str, kind: str, actual: Any) -> None:
    path = GOLDEN / f"{kind}.json"
    recorded = json.loads(path.read_text()) if path.exists() else {}
    if UPDATE:
        recorded[name] = actual
        path.write_text(json.dumps(recorded, sort_keys=True, indent=1) + "\n")
    assert actual == recorded[name]


@pytest.mark.parametrize("name", sorted(ROOTS))
def test_findings_are_unchanged(name: str) -> None:
    _compare(name, "findings", json.loads(_report_json(ROOTS[name], jobs=1)))


@pytest.mark.parametrize("name", sorted(ROOTS))
def test_every_position_is_unchanged(name: str) -> None:
    _compare(name, "positions", _position_digests(ROOTS[name]))


def test_findings_are_the_same_with_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """With -j 2 and enough documents `check` forks workers (the threshold is lowered so that the corpus is enough)."""
    from kubectl_wasdra.lint import parallel

    monkeypatch.setattr(parallel, "MIN_DOCUMENTS_PER_WORKER", 100)
    roots = [ROOTS["fixtures"], ROOTS["upstream"]]
    one = run_check(CheckOptions(paths=tuple(map(str, roots)), jobs=1))
    two = run_check(CheckOptions(paths=tuple(map(str, roots)), jobs=2))
    assert parallel.worker_count(len(one.documents), 2) == 2
    assert one.as_dict() == two.as_dict()
