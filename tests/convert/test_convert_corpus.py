"""The whole corpus (tests/corpus/realworld and tests/corpus/upstream) at 1.37: every object `check` flags as not
served, not enabled or deprecated is converted or reported with a reason, and each converted file passes
`check --k8s-version 1.37` with the runtime config and gates `convert` printed, without a finding its original lacks."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.convert.engine import Converter, FileResult
from kubectl_wasdra.convert.run import needs_flags
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check
from kubectl_wasdra.load.files import expand_paths

ROOT = Path(__file__).resolve().parents[2]
CORPORA = (ROOT / "tests" / "corpus" / "realworld", ROOT / "tests" / "corpus" / "upstream")
R137 = Release.parse("1.37")
_API_RULES = ("API001", "API002", "API003")
# a field that moved keeps its finding: compare paths without the levels the conversions add or remove
_MOVED = re.compile(r"\.(exactly|basic)(?=\.|$)|\[\d+\]")
# upstream documents with defects their SOURCES notes record; at their own release a schema error hides the rest
# Upstream defects the converted files keep; checking the originals reports them too (an apiVersion served but not
# enabled is validated as written), so conversion introduces none of them.
KNOWN_DEFECTS = {
    ("disruption-and-priority.md__podgroup-priority.yaml", "VALID001"): "priorityClassName placed under schedulingPolicy",
    ("dynamic-resource-allocation.md__at-a59a7c35__v1alpha3.yaml", "VALID011"): "DeviceClass name outside metadata",
    # realworld files of an unreleased v1alpha3 shape: the request's fields nested under `device:` (SCHEMA002 at 1.33)
    ("deploy/example/resourceclaim.yaml", "VALID001"): "request fields under `device:`, an unreleased form",
    ("config/dra/resourceclaimtemplate-structured.yaml", "VALID001"): "request fields under `device:`, an unreleased form",
}


@functools.cache
def _converted() -> tuple[FileResult, ...]:
    files, _ = expand_paths([str(c) for c in CORPORA])
    converter = Converter(R137)
    return tuple(converter.file(f, Path(f).read_bytes()) for f in files)


def _write(results: list[FileResult], folder: Path, converted: bool) -> dict[str, str]:
    names = {}
    for index, result in enumerate(results):
        target = folder / f"{index:03d}-{Path(result.path).name}"
        target.write_bytes(result.converted if converted else result.original)
        names[str(target)] = result.path
    return names


def _errors(report, names: dict[str, str], rules: tuple[str, ...]) -> set[tuple[str, str, str]]:
    return {(names[f.file], f.rule, _MOVED.sub("", f.path or "")) for f in report.findings
            if f.file in names and f.rule.startswith(rules) and f.severity.rank == 2}


def test_corpus_has_objects_to_convert() -> None:
    notes = [n for r in _converted() for n in r.notes]
    assert sum(n.status == "converted" for n in notes) >= 80
    assert {n.source for n in notes if n.status == "converted"} >= {
        "resource.k8s.io/v1alpha3", "resource.k8s.io/v1beta1", "resource.k8s.io/v1beta2", "scheduling.k8s.io/v1alpha1",
        "scheduling.k8s.io/v1alpha2", "scheduling.k8s.io/v1alpha3", "v1"}


def test_every_flagged_object_is_converted_or_explained(tmp_path: Path) -> None:
    results = list(_converted())
    names = _write(results, tmp_path, converted=True)
    configs, gates = needs_flags(results)
    report = run_check(CheckOptions(paths=(str(tmp_path),), releases=(R137,), jobs=1, select=("API",),
                                    runtime_config={c.split("=")[0]: True for c in configs},
                                    feature_gates=dict.fromkeys(gates, True)))
    failed = {(r.path, n.source, n.kind) for r in results for n in r.notes if n.status == "failed"}
    left = [(names[f.file], f.line, f.message) for f in report.findings if f.rule in _API_RULES and f.file in names
            and not any(path == names[f.file] and f.message.startswith(f"{source} {kind} ") for path, source, kind in failed)]
    assert left == []
    assert all(n.hint for r in results for n in r.notes if n.status == "failed" and n.kind)


def test_converted_files_pass_check_at_137(tmp_path: Path) -> None:
    changed = [r for r in _converted() if r.changed]
    (tmp_path / "new").mkdir()
    (tmp_path / "old").mkdir()
    new_names = _write(changed, tmp_path / "new", converted=True)
    old_names = _write(changed, tmp_path / "old", converted=False)
    configs, gates = needs_flags(changed)
    after = run_check(CheckOptions(paths=(str(tmp_path / "new"),), releases=(R137,), jobs=1,
                                   runtime_config={c.split("=")[0]: True for c in configs},
                                   feature_gates=dict.fromkeys(gates, True)))
    before = run_check(CheckOptions(paths=(str(tmp_path / "old"),), releases=SUPPORTED, jobs=1,
                                    runtime_config={"api/all": True}))
    assert _errors(after, new_names, ("GATE",)) == set()
    introduced = _errors(after, new_names, ("SCHEMA", "VALID")) - _errors(before, old_names, ("SCHEMA", "VALID"))
    assert introduced == set()
    known = {(f, rule) for f in old_names.values() for (name, rule) in KNOWN_DEFECTS if f.endswith(name)}
    assert len(known) == len(KNOWN_DEFECTS)
    assert known <= {(f, rule) for f, rule, _ in _errors(before, old_names, ("VALID",))}


@pytest.mark.parametrize("release", ["1.37"])
def test_second_conversion_changes_nothing(release: str) -> None:
    converter = Converter(Release.parse(release))
    again = [converter.file(r.path, r.converted) for r in _converted() if r.changed]
    assert [r.path for r in again if r.changed] == []


# moved lines are written in the document's dominant sequence indentation; this file mixes two styles
_MIXED_INDENTATION = ("google__dranet/examples__demo_gke_multinetwork__resourceclaim.yaml",)


def test_corpus_v1beta1_dra_files_convert_back_byte_for_byte() -> None:
    back = Converter(Release.parse("1.34"), {"resource.k8s.io/v1beta1": True, "resource.k8s.io/v1": False})
    checked, differ = 0, []
    for result in _converted():
        sources = {n.source for n in result.notes if n.status == "converted"}
        if not result.changed or sources != {"resource.k8s.io/v1beta1"}:
            continue
        checked += 1
        if back.file(result.path, result.converted).converted != result.original:
            differ.append(result.path)
    assert checked >= 20
    assert [p for p in differ if not p.endswith(_MIXED_INDENTATION)] == []
