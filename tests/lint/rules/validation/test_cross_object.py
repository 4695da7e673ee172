"""VALID015 (counter sets across the slices of a pool) and VALID016 (adminAccess namespace label) beyond the
fixtures: the snapshot's objects, the 1.33 label key, the gate, releases before separate counter slices."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

CLAIM = """\
apiVersion: resource.k8s.io/{version}
kind: ResourceClaim
metadata: {{name: monitor, namespace: ops}}
spec:
  devices:
    requests:
    - name: gpu
      {body}
"""
V1_BODY = "exactly: {deviceClassName: gpu.example.com, allocationMode: All, adminAccess: true}"
V1BETA1_BODY = "deviceClassName: gpu.example.com\n      allocationMode: All\n      adminAccess: true"

DEVICE_SLICE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-devices}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, resourceSliceCount: 2}
  devices:
  - name: gpu-0-half
    consumesCounters:
    - counterSet: gpu-0-counters
      counters: {memory: {value: 40Gi}}
"""


def _snapshot(*objects: dict[str, Any]) -> ClusterSnapshot:
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for obj in objects:
        by_kind.setdefault(obj["kind"], []).append(obj)
    return ClusterSnapshot(objects=MappingProxyType({k: tuple(v) for k, v in by_kind.items()}))


def _namespace(labels: dict[str, str]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ops", "labels": labels}}


def _rules(tmp_path: Path, text: str, release: Release, snapshot: ClusterSnapshot | None = None,
           gates: dict[str, bool] | None = None, rule: str = "VALID016") -> list[tuple[str, int, int]]:
    path = tmp_path / "m.yaml"
    path.write_text(text)
    report = run_check(CheckOptions(paths=(str(path),), releases=(release,), snapshot=snapshot, feature_gates=gates or {},
                                    select=(rule,), jobs=1, runtime_config={"resource.k8s.io/v1beta1": True}))
    return [(f.rule, f.line, f.column) for f in report.findings]


@pytest.mark.parametrize(("release", "labels", "found"), [
    (Release(1, 37), {}, [("VALID016", 8, 72)]),
    (Release(1, 37), {"resource.kubernetes.io/admin-access": "false"}, [("VALID016", 8, 72)]),
    (Release(1, 37), {"resource.kubernetes.io/admin-access": "true"}, []),
    (Release(1, 34), {"resource.kubernetes.io/admin-access": "true"}, []),
    (Release(1, 33), {"resource.kubernetes.io/admin-access": "true"}, [("VALID016", 8, 72)]),   # 1.33's key differs
    (Release(1, 33), {"resource.k8s.io/admin-access": "true"}, []),
], ids=["no-label", "label-false", "label-true", "134", "133-new-key", "133-old-key"])
def test_admin_access_namespace_from_snapshot(tmp_path: Path, release: Release, labels: dict[str, str],
                                              found: list[tuple[str, int, int]]) -> None:
    text = CLAIM.format(version="v1" if release >= Release(1, 34) else "v1beta1", body=V1_BODY)
    if release < Release(1, 34):
        text = CLAIM.format(version="v1beta1", body=V1BETA1_BODY)
        found = [(rule, line + 2, 7) for rule, line, _ in found]     # v1beta1: adminAccess on the request itself
    gates = {"DRAAdminAccess": True, "DynamicResourceAllocation": True} if release < Release(1, 34) else None
    assert _rules(tmp_path, text, release, _snapshot(_namespace(labels)), gates) == found


def test_admin_access_quiet_when_gate_off_or_namespace_unknown(tmp_path: Path) -> None:
    text = CLAIM.format(version="v1", body=V1_BODY)
    assert _rules(tmp_path, text, Release(1, 37)) == []                                           # no namespace object
    assert _rules(tmp_path, text, Release(1, 35), _snapshot(_namespace({})), {"DRAAdminAccess": False}) == []


def test_counter_set_from_snapshot_slice(tmp_path: Path) -> None:
    counters = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "node-a-counters"},
                "spec": {"driver": "gpu.example.com", "nodeName": "node-a",
                         "pool": {"name": "node-a", "resourceSliceCount": 2},
                         "sharedCounters": [{"name": "other", "counters": {"memory": {"value": "80Gi"}}}]}}
    assert _rules(tmp_path, DEVICE_SLICE, Release(1, 36), rule="VALID015") == []                 # pool incomplete
    assert _rules(tmp_path, DEVICE_SLICE, Release(1, 36), _snapshot(counters), rule="VALID015") == [("VALID015", 11, 19)]
    counters["spec"]["sharedCounters"][0]["name"] = "gpu-0-counters"
    assert _rules(tmp_path, DEVICE_SLICE, Release(1, 36), _snapshot(counters), rule="VALID015") == []
    newer = dict(counters, spec=dict(counters["spec"], pool={"name": "node-a", "resourceSliceCount": 2, "generation": 1}))
    assert _rules(tmp_path, DEVICE_SLICE, Release(1, 36), _snapshot(newer), rule="VALID015") == []   # older generation: stale


def test_counter_sets_before_135_are_per_slice(tmp_path: Path) -> None:
    text = DEVICE_SLICE.replace("resourceSliceCount: 2", "resourceSliceCount: 1").replace("resource.k8s.io/v1\n",
                                                                                         "resource.k8s.io/v1beta2\n")
    assert _rules(tmp_path, text, Release(1, 34), rule="VALID015") == []
