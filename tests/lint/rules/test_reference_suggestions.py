"""Did-you-mean for references: the closest name defined in the manifest set or the snapshot, as for field names."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.catalog.spelling import closest_name
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

ROOT = Path(__file__).resolve().parents[3]
SUGGESTIONS = ROOT / "fixtures" / "manifests" / "suggestions" / "train.yaml"


def _hints(path: Path, **options: object) -> dict[tuple[str, int, int], str | None]:
    report = run_check(CheckOptions(paths=(str(path),), releases=(Release(1, 37),), jobs=1, **options))  # type: ignore[arg-type]
    return {(f.rule, f.line, f.column): f.hint for f in report.findings}


def test_each_misspelt_reference_suggests_the_name_defined_in_the_set() -> None:
    hints = _hints(SUGGESTIONS)
    assert hints[("REF001", 34, 32)] == 'did you mean "two-gpus" (defined in the manifests)?'
    assert hints[("REF003", 21, 36)] == 'did you mean "gpu.example.com" (defined in the manifests)?'
    assert hints[("VALID006", 23, 20)] == 'did you mean "gpus"?'          # constraint -> request name
    assert hints[("VALID006", 40, 15)] == 'did you mean "gpus"?'          # container claim -> pod claim name


def test_snapshot_names_are_suggested_too() -> None:
    snapshot, problems = load_snapshot([str(ROOT / "fixtures" / "clusters" / "two-racks")])
    assert not problems
    hints = _hints(ROOT / "fixtures" / "lint" / "REF010" / "bad.yaml", snapshot=snapshot)
    assert hints[("REF010", 14, 36)] == 'did you mean "gpu.example.com" (in the cluster snapshot)?'
    assert hints[("REF010", 24, 36)] == 'create ResourceClaim "nic-shared" (or fix the name)'   # nothing close


@pytest.mark.parametrize(("word", "known", "expected"), [
    ("two-gpu", {"two-gpus", "eight-gpus"}, "two-gpus"),
    ("gpu.exmaple.com", {"gpu.example.com", "nic.example.com"}, "gpu.example.com"),
    ("cuont", {"count", "deviceClassName"}, "count"),                     # the field-name case, same helper
    ("gpus", {"gpus"}, None),                                             # defined: nothing to suggest
    ("storage", {"gpus", "nics"}, None),                                  # nothing close
])
def test_closest_name(word: str, known: set[str], expected: str | None) -> None:
    assert closest_name(word, known) == expected


@pytest.mark.parametrize(("word", "known", "expected"), [
    ("gpu-1", {"gpu-2", "gpu-0"}, "gpu-0"),
    ("REF03", {"REF013", "REF003"}, "REF003"),
], ids=["names", "rule-ids"])
def test_closest_name_breaks_ties_alphabetically(word: str, known: set[str], expected: str) -> None:
    assert closest_name(word, known, cutoff=0.5) == expected
