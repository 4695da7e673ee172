"""REF rules: fixtures per rule (rule, line, column), messages, and the upstream corpus without false references."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_runner import ROOT, case_id, cases, check_case, report, snapshot_at

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

R137 = Release(1, 37)


@pytest.mark.parametrize("case", cases("REF"), ids=case_id)
def test_fixture(case: tuple[Path, Release]) -> None:
    check_case(case)


def _messages(rule: str, fixture: str) -> list[str]:
    path = ROOT / "fixtures" / "lint" / rule / fixture
    return [f.message for f in report(path, R137).findings if f.rule == rule]


def test_messages_name_the_missing_object_and_the_namespace() -> None:
    assert _messages("REF001", "bad.yaml") == [
        'ResourceClaimTemplate "gpu-tempalte" in namespace "ml" is not defined in the manifests']
    assert _messages("REF010", "bad.yaml")[0] == (
        'DeviceClass "gpu.nvidia.com" is defined neither in the manifests nor in the cluster snapshot')


def test_priority_mismatch_message_gives_both_values() -> None:
    first = _messages("REF009", "bad.yaml")[0]
    assert '"training-low" (1000)' in first and '"training-high" (100000)' in first


def test_snapshot_objects_resolve_references(tmp_path: Path) -> None:
    # the class and template exist only in the cluster: no REF001/REF003, no REF010
    manifest = tmp_path / "pod.yaml"
    manifest.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec:\n  resourceClaims:\n"
                        "  - {name: g, resourceClaimTemplateName: rack-fabric}\n"
                        "  containers: [{name: c, image: x, resources: {claims: [{name: g}]}}]\n")
    snapshot = snapshot_at(str(ROOT / "fixtures" / "clusters" / "two-racks"))
    names = {(o["metadata"].get("namespace"), o["metadata"]["name"]) for o in snapshot.of_kind("ResourceClaimTemplate")}
    namespace, name = sorted(names)[0]
    manifest.write_text(manifest.read_text().replace("rack-fabric", name).replace("namespace: ml", f"namespace: {namespace}"))
    found = run_check(CheckOptions(paths=(str(manifest),), snapshot=snapshot, jobs=1, select=("REF",)))
    assert [f.rule for f in found.findings] == []
    without = run_check(CheckOptions(paths=(str(manifest),), jobs=1, select=("REF",)))
    assert [f.rule for f in without.findings] == ["REF001"]


CORPUS = ROOT / "tests" / "corpus" / "upstream"
MISSING_RULES = ("REF001", "REF002", "REF003", "REF004", "REF005", "REF006")


def _folders() -> list[Path]:
    return sorted(p for p in CORPUS.iterdir() if p.is_dir())


def _defined(folder: Path) -> set[tuple[str, str, str | None]]:
    """(kind, name, namespace) of every object in the folder, read independently of the rules."""
    import yaml

    found = set()
    for file in folder.glob("*.y*ml"):
        try:
            documents = list(yaml.safe_load_all(file.read_text()))
        except yaml.YAMLError:
            continue
        for document in documents:
            listed = isinstance(document, dict) and isinstance(document.get("items"), list)
            items = document["items"] if listed else [document]
            for item in items:
                if isinstance(item, dict) and isinstance(item.get("metadata"), dict):
                    meta = item["metadata"]
                    found.add((str(item.get("kind")), str(meta.get("name")), meta.get("namespace")))
    return found


@pytest.mark.parametrize("folder", _folders(), ids=lambda p: p.name)
def test_upstream_folder_has_no_false_missing_reference(folder: Path) -> None:
    """Each upstream folder checked as one set: a "not defined" finding must name an object the folder lacks in that
    namespace (an object without a namespace counts for every namespace)."""
    result = run_check(CheckOptions(paths=(str(folder),), jobs=1, select=(*MISSING_RULES, "REF010")))
    defined = _defined(folder)
    for finding in result.findings:
        if finding.rule in ("REF001", "REF002", "REF003", "REF004", "REF005"):
            parts = finding.message.split('"')
            kind, name = finding.message.split(" ")[0], parts[1]
            namespace = parts[3] if " in namespace " in finding.message else None
            assert not [d for d in defined if d[:2] == (kind, name) and None in (d[2], namespace)], finding
            assert (kind, name, namespace) not in defined, finding
    assert not [f for f in result.findings if f.rule == "REF010"]


def test_kinds_the_snapshot_did_not_read_stay_warnings(tmp_path: Path) -> None:
    # dra-basic has DeviceClasses but no ResourceClaimTemplates and no header saying what was read
    manifest = tmp_path / "claims.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  resourceClaims: [{name: g, resourceClaimTemplateName: t}]\n"
        "  containers: [{name: c, image: x, resources: {claims: [{name: g}]}}]\n---\n"
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
        "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu.exmaple.com}}]}}\n")
    snapshot = snapshot_at(str(ROOT / "fixtures" / "clusters" / "dra-basic"))
    found = run_check(CheckOptions(paths=(str(manifest),), snapshot=snapshot, jobs=1, select=("REF",)))
    assert sorted((f.rule, f.line) for f in found.findings) == [("REF001", 5), ("REF010", 11)]
