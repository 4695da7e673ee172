"""`config --init` asks for a gate only where the manifests use the gated field as the gate governs it."""

from __future__ import annotations

import pytest

from kubectl_wasdra.config.starter import detect_needs
from kubectl_wasdra.load import load_text

WORKLOAD_135 = """apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: w, namespace: default}
spec:
  podGroups: [{name: g, policy: {basic: {}}}]
---
"""
HPA = """apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: h, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d}
  minReplicas: %d
  maxReplicas: 3
"""


@pytest.mark.parametrize(("min_replicas", "gated"), [(0, True), (1, False)])
def test_hpa_scale_to_zero_only_for_min_replicas_zero(min_replicas: int, gated: bool) -> None:
    documents, problems = load_text("deploy.yaml", WORKLOAD_135 + HPA % min_replicas)
    assert not problems
    needs = detect_needs(documents)
    assert str(needs.release) == "1.35"          # the Workload pins the release to one where the gate is off
    assert ("HPAScaleToZero" in needs.feature_gates) is gated
