"""Completion of enumerated values for the configured release: the validation rules' sets (VALID013's pod spec table
and the other enum checks), offered where the schema of that release has the field."""

from __future__ import annotations

import json

import pytest

from kubectl_wasdra.catalog.data import read_data
from kubectl_wasdra.catalog.releases import SUPPORTED, Release
from kubectl_wasdra.lint.pipeline import CheckOptions
from kubectl_wasdra.lsp.enums import _table
from kubectl_wasdra.lsp.fields import complete

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      dnsPolicy: {}
      initContainers:
      - name: proxy
        restartPolicy: {}
      containers:
      - name: web
        imagePullPolicy: {}
        restartPolicy: {}
        ports:
        - protocol: {}
      tolerations:
      - operator: {}
"""
POD_GROUP = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: train}
spec:
  preemptionPolicy: {}
"""
CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: gpus}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        allocationMode: {}
"""


def _values(text: str, key: str, release: str, occurrence: int = 0) -> list[str]:
    """What completion offers after `key: ` (its `occurrence`-th line) with --k8s-version `release`."""
    lines = text.replace(" {}", " ").splitlines(keepends=True)
    rows = [row for row, line in enumerate(lines) if line.strip().lstrip("- ").startswith(f"{key}:")]
    row = rows[occurrence]
    options = CheckOptions(paths=(), releases=(Release.parse(release),))
    return sorted(item.label for item in complete(lines, row, len(lines[row].rstrip("\n")), options))


@pytest.mark.parametrize(("text", "key", "release", "occurrence", "want"), [
    (DEPLOYMENT, "imagePullPolicy", "1.37", 0, ["Always", "IfNotPresent", "Never"]),
    (DEPLOYMENT, "dnsPolicy", "1.33", 0, ["ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"]),
    (DEPLOYMENT, "protocol", "1.37", 0, ["SCTP", "TCP", "UDP"]),
    (DEPLOYMENT, "restartPolicy", "1.37", 0, ["Always"]),     # an init container: a sidecar
    (DEPLOYMENT, "restartPolicy", "1.37", 1, []),             # an app container: no value to offer
    (DEPLOYMENT, "operator", "1.34", 0, ["Equal", "Exists"]),
    (DEPLOYMENT, "operator", "1.35", 0, ["Equal", "Exists", "Gt", "Lt"]),   # TaintTolerationComparisonOperators
    (CLAIM, "allocationMode", "1.34", 0, ["All", "ExactCount"]),
    (POD_GROUP, "preemptionPolicy", "1.37", 0, ["Never", "PreemptLowerPriority"]),
    (POD_GROUP, "preemptionPolicy", "1.36", 0, []),          # not a field of that release's PodGroup
], ids=["pull-policy", "dns-policy", "port-protocol", "sidecar-restart", "app-restart", "toleration-1.34",
        "toleration-1.35", "allocation-mode", "preemption-1.37", "preemption-1.36"])
def test_completion_offers_the_values_the_release_accepts(text: str, key: str, release: str, occurrence: int,
                                                          want: list[str]) -> None:
    assert _values(text, key, release, occurrence) == want


def test_every_enumerated_field_is_a_field_of_some_release() -> None:
    """A misspelt type or field in the table would never be offered: each one is a string field of a schema type."""
    found = set()
    for release in SUPPORTED:
        definitions = json.loads(read_data(f"schemas/k8s-{release}.json"))["$defs"]
        for name, definition in definitions.items():
            for field in definition.get("properties", {}):
                found.add((name.rpartition(".")[2], field))
    assert sorted(set(_table()) - found) == []
