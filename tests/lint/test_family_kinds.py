"""A check of documents that are all of lint/rules UNRELATED_KINDS leaves the WORKLOAD_FAMILIES out: that must not
change a single finding. The families are run over one object of every such kind (with the fields that could look
like a workload's), and every corpus file made only of such kinds is checked both ways."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from kubectl_wasdra.lint import pipeline
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.pipeline import CheckOptions, check_documents, run_check
from kubectl_wasdra.lint.registry import all_rules, family_rules, rules_for
from kubectl_wasdra.lint.rules import FAMILIES, UNRELATED_KINDS, WORKLOAD_FAMILIES
from kubectl_wasdra.load import load_paths, load_text

ROOT = Path(__file__).resolve().parents[2]
CORPORA = (ROOT / "fixtures", ROOT / "tests" / "corpus" / "realworld", ROOT / "tests" / "corpus" / "upstream")

# fields a workload family reads elsewhere (pod templates, claims, selectors, scale targets, priorities, groups)
_LOOKALIKE = {
    "template": {"spec": {"containers": [{"name": "c", "image": "x", "resources": {"claims": [{"name": "gpu"}]}}],
                          "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "missing"}],
                          "priorityClassName": "missing", "schedulingGroup": {"podGroupName": "missing"}}},
    "selector": {"app": "web"},
    "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "missing"},
    "devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "missing"}}]},
}


def _document(group: str, kind: str) -> dict:
    api_version = f"{group}/v1" if group else "v1"
    return {"apiVersion": api_version, "kind": kind, "metadata": {"name": f"x-{kind.lower()}", "namespace": "default"},
            "spec": _LOOKALIKE, "data": {"key": "value"}, "rules": [{"apiGroups": [""], "resources": ["pods"]}]}


def test_the_workload_families_exist_and_are_not_all_of_them() -> None:
    assert set(FAMILIES) > WORKLOAD_FAMILIES
    assert {"load", "api", "schema", "duplicates"}.isdisjoint(WORKLOAD_FAMILIES)


def test_rules_for_leaves_them_out_only_for_unrelated_kinds_without_a_cluster() -> None:
    left_out = {r.info.id for family in WORKLOAD_FAMILIES for r in family_rules(family)}
    assert {r.info.id for r in rules_for({("", "ConfigMap")}, cluster=False)} == {r.info.id for r in all_rules()} - left_out
    assert rules_for({("", "ConfigMap")}, cluster=True) == all_rules()
    assert rules_for({("", "ConfigMap"), ("apps", "Deployment")}, cluster=False) == all_rules()
    assert rules_for({("serving.knative.dev", "Service")}, cluster=False) == all_rules()
    assert rules_for({("", None)}, cluster=False) == all_rules()


@pytest.mark.parametrize("kind", sorted(UNRELATED_KINDS), ids=lambda k: "/".join(filter(None, k)))
def test_workload_families_find_nothing_in_an_unrelated_object(kind: tuple[str, str]) -> None:
    documents, problems = load_text("object.yaml", json.dumps(_document(*kind)))
    assert not problems
    rules = [r for family in WORKLOAD_FAMILIES for r in family_rules(family)]
    for profile in ("default", "experimental"):
        assert check_documents(documents, rules, CheckContext(profile=profile)) == []


def test_all_unrelated_kinds_together_find_nothing() -> None:
    documents, _ = load_text("objects.yaml", "\n---\n".join(json.dumps(_document(*k)) for k in sorted(UNRELATED_KINDS)))
    rules = [r for family in WORKLOAD_FAMILIES for r in family_rules(family)]
    assert check_documents(documents, rules, CheckContext(profile="experimental")) == []


def _unrelated_files() -> list[str]:
    """Corpus files whose every document is of an unrelated kind (the inputs the families are left out for)."""
    kinds: dict[str, set[tuple[str, str | None]]] = defaultdict(set)
    for root in CORPORA:
        for document in load_paths((str(root),)).documents:
            kinds[document.file].add((document.group, document.kind))
    return sorted(file for file, found in kinds.items() if found <= UNRELATED_KINDS)


def test_corpus_files_of_unrelated_kinds_check_the_same_with_every_family(monkeypatch: pytest.MonkeyPatch) -> None:
    files = _unrelated_files()
    assert files, "the corpora hold ConfigMaps, Services and RBAC objects"
    lean = [run_check(CheckOptions(paths=(file,))).as_dict() for file in files]
    monkeypatch.setattr(pipeline, "rules_for", lambda kinds, cluster: all_rules())
    assert [run_check(CheckOptions(paths=(file,))).as_dict() for file in files] == lean
