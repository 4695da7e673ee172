"""`snapshot --anonymize` keeps every verdict and leaves no original identifier: explain-pending on the original and the
anonymized snapshot of every fixture (and a generated cluster) agree entry by entry, and the anonymized file holds none
of the original node, pod, namespace, claim, class, template or priority class names, nor any original UID."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_allowlist import verdicts

from kubectl_wasdra.cluster.allowlist import allowed_snapshot
from kubectl_wasdra.cluster.anonymize import KEEP_NAMESPACES, anonymize_with_report
from kubectl_wasdra.cluster.builder import SnapshotBuilder
from kubectl_wasdra.cluster.export import SnapshotOptions, export_snapshot
from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.write import render_snapshot

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted([*(p for p in (ROOT / "fixtures" / "sched").iterdir() if (p / "cluster.yaml").is_file()),
               *(p for p in (ROOT / "fixtures" / "clusters").iterdir() if p.is_dir())])  # the snapshot fixtures


def _generated():
    spec = importlib.util.spec_from_file_location("gen_cluster", ROOT / "bench" / "gen_cluster.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    builder = SnapshotBuilder()
    for obj in module.generate(nodes=12, devices=4, pods_per_node=3, fill=0.5, racks=3):
        builder.add(obj)
    return builder.build()


def _identifiers(snapshot) -> set[str]:
    """Names and UIDs an anonymized snapshot must not contain (well-known namespaces and system classes excepted)."""
    out: set[str] = set()
    for kind in ("Node", "Pod", "Namespace", "ResourceClaim", "DeviceClass", "ResourceClaimTemplate", "DeviceTaintRule"):
        out |= {obj["metadata"]["name"] for obj in snapshot.of_kind(kind)}
    out |= {obj["metadata"]["name"] for obj in snapshot.of_kind("PriorityClass")
            if not obj["metadata"]["name"].startswith("system-")}
    for objs in snapshot.objects.values():
        for obj in objs:
            meta = obj.get("metadata") or {}
            out |= {meta["uid"]} if isinstance(meta.get("uid"), str) else set()
            if isinstance(meta.get("namespace"), str):
                out.add(meta["namespace"])
    drivers = {(s.get("spec") or {}).get("driver") for s in snapshot.of_kind("ResourceSlice")}  # kept: CEL compares them
    return {name for name in out if name not in KEEP_NAMESPACES and name not in drivers and len(name) > 2}


def _check(snapshot) -> dict[str, Any]:
    kept = allowed_snapshot(snapshot)
    anonymized, replaced = anonymize_with_report(kept)
    assert verdicts(anonymized) == verdicts(kept), "anonymizing must not change a verdict"
    text = render_snapshot(anonymized, as_json=False).decode()
    leaked = sorted(name for name in _identifiers(snapshot) if name in text)
    assert leaked == [], f"original identifiers left in the anonymized snapshot: {leaked[:10]}"
    return replaced


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_anonymized_fixture_keeps_verdicts_and_leaks_no_identifier(fixture: Path) -> None:
    snapshot, problems = load_snapshot([str(fixture)])
    assert problems == ()
    _check(snapshot)


def test_anonymized_generated_cluster_keeps_verdicts() -> None:
    replaced = _check(_generated())
    assert replaced["node names"] == 12 and replaced["UIDs"] > 0


def test_numbers_compared_by_selectors_keep_their_order() -> None:
    """A `gpu-count Gt 4` node selector fits the same before and after (label values that are numbers stay)."""
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"gpu-count": "8"}},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}}
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "team", "uid": "u-1"},
           "spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
               {"matchExpressions": [{"key": "gpu-count", "operator": "Gt", "values": ["4"]}]}]}}},
               "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}, "status": {"phase": "Pending"}}
    builder = SnapshotBuilder()
    for obj in (node, pod):
        builder.add(obj)
    snapshot = builder.build()
    assert verdicts(snapshot) == [("Pod", True, ())]
    _check(snapshot)


def test_snapshot_anonymize_reports_what_was_replaced(tmp_path: Path) -> None:
    source = ROOT / "fixtures" / "clusters" / "two-racks"
    result = export_snapshot(SnapshotOptions(snapshot=[str(source)], anonymize=True))
    assert result.replaced["node names"] == 10 and result.replaced["UIDs"] > 0
    data = yaml.safe_load(result.data)
    assert json.dumps(data).count("resourceVersion") <= 1  # only the List's own empty one
