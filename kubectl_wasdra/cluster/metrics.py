"""Feature-gate states from kube-apiserver's /metrics (Prometheus text format), for the snapshot header.

kube-apiserver registers one gauge per gate, `kubernetes_feature_enabled{name="DRADeviceTaints",stage="BETA"} 1`, so a
read-only GET /metrics tells which gates the live API server runs with (not the scheduler's or kubelets': those are
separate processes, and the API server is the one that drops gated fields on create).
Upstream: kubernetes/kubernetes staging/src/k8s.io/component-base/metrics/prometheus/feature/metrics.go, release-1.37.
"""

from __future__ import annotations

import re
from typing import Final

METRIC: Final = "kubernetes_feature_enabled"
_LABEL: Final = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def parse_feature_gates(text: str) -> dict[str, bool]:
    """Gate name -> enabled from a /metrics body, sorted by name; lines that do not parse are skipped. Only lines
    starting with the metric name are looked at (a literal-prefix scan: /metrics bodies run to megabytes)."""
    gates: dict[str, bool] = {}
    prefix = METRIC + "{"
    start = text.find(prefix)
    while start != -1:
        if start == 0 or text[start - 1] == "\n":
            end = text.find("\n", start)
            _parse_line(text[start:end if end != -1 else len(text)], gates)
        start = text.find(prefix, start + len(prefix))
    return dict(sorted(gates.items()))


def _parse_line(line: str, gates: dict[str, bool]) -> None:
    labels_end = line.rfind("}")
    if labels_end == -1:
        return
    labels = dict(_LABEL.findall(line[len(METRIC) + 1:labels_end]))
    value = line[labels_end + 1:].split()
    if "name" not in labels or not value:
        return
    try:
        gates[labels["name"]] = float(value[0]) != 0.0
    except ValueError:
        return
