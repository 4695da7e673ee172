"""Removed classic APIs: Ingress v1beta1 -> networking.k8s.io/v1 (backend shape, pathType default), same-shape kinds,
and the ones without a mechanical conversion, which are reported."""

from __future__ import annotations

import pytest

from tests.convert.helpers import convert, reported

INGRESS = """\
apiVersion: extensions/v1beta1
kind: Ingress
metadata: {name: web}
spec:
  backend:
    serviceName: default-http
    servicePort: 80
  rules:
  - host: example.com
    http:
      paths:
      - path: /api   # the API
        backend:
          serviceName: api
          servicePort: http
"""


def test_ingress_backend_and_path_type() -> None:
    text, notes = convert(INGRESS)
    assert text == """\
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  defaultBackend:
    service:
      name: default-http
      port:
        number: 80
  rules:
  - host: example.com
    http:
      paths:
      - path: /api   # the API
        backend:
          service:
            name: api
            port:
              name: http
        pathType: ImplementationSpecific
"""
    assert notes[0].target == "networking.k8s.io/v1"


@pytest.mark.parametrize(("source", "target"), [("batch/v1beta1", "batch/v1"), ("autoscaling/v2beta2", "autoscaling/v2")])
def test_same_shape_kinds_change_api_version_only(source: str, target: str) -> None:
    kind = "CronJob" if source.startswith("batch") else "HorizontalPodAutoscaler"
    text, _ = convert(f"apiVersion: {source}\nkind: {kind}\nmetadata: {{name: x}}\nspec: {{}}\n")
    assert text == f"apiVersion: {target}\nkind: {kind}\nmetadata: {{name: x}}\nspec: {{}}\n"


@pytest.mark.parametrize(("min_replicas", "gates"), [(3, ()), (0, ("HPAScaleToZero",))], ids=["three", "zero"])
def test_hpa_needs_the_scale_to_zero_gate_only_for_zero(min_replicas: int, gates: tuple[str, ...]) -> None:
    source = "apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n" \
             f"  scaleTargetRef: {{apiVersion: apps/v1, kind: Deployment, name: web}}\n  minReplicas: {min_replicas}\n" \
             "  maxReplicas: 10\n"
    _, notes = convert(source, "1.36")   # HPAScaleToZero is off by default in 1.36; the field gates only the value 0
    assert (notes[0].target, notes[0].gates) == ("autoscaling/v2", gates)


def test_apps_v1beta1_deployment_is_reported_not_guessed() -> None:
    source = "apiVersion: apps/v1beta1\nkind: Deployment\nmetadata: {name: x}\nspec: {template: {}}\n"
    note = reported(source)
    assert "no mechanical conversion" in note.message


def test_custom_resources_are_left_alone() -> None:
    source = "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: x}\n"
    assert convert(source) == (source, [])
