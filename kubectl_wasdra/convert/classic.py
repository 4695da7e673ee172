"""Removed classic APIs with a mechanical conversion: Ingress (extensions/v1beta1, networking.k8s.io/v1beta1 ->
networking.k8s.io/v1) and the kinds whose replacement has the same shape.

Upstream: pkg/apis/networking/v1beta1/conversion.go and pkg/apis/extensions/v1beta1/conversion.go
(Convert_v1beta1_IngressBackend_To_networking_IngressBackend: serviceName/servicePort -> service{name, port{number|name}};
spec.backend -> spec.defaultBackend), pkg/apis/networking/v1beta1/defaults.go (SetDefaults_HTTPIngressPath: a path
without pathType is ImplementationSpecific, which v1 requires spelled out). The same-shape kinds follow their
zz_generated.conversion.go, which converts every field one to one."""

from __future__ import annotations

from typing import Any, Final

from kubectl_wasdra.convert.edit import ConversionError, mapping, mappings, rename_key, same_shape

INGRESS_SOURCES: Final = frozenset({"extensions/v1beta1", "networking.k8s.io/v1beta1"})
# (old apiVersion, kind) whose replacement (rules/api-lifecycle.yaml) differs only in apiVersion
SAME_SHAPE: Final = frozenset({
    ("batch/v1beta1", "CronJob"), ("autoscaling/v2beta2", "HorizontalPodAutoscaler"),
    ("scheduling.k8s.io/v1alpha1", "PriorityClass"), ("scheduling.k8s.io/v1beta1", "PriorityClass"),
    ("coordination.k8s.io/v1beta1", "Lease"), ("networking.k8s.io/v1beta1", "IngressClass"),
    ("apiregistration.k8s.io/v1beta1", "APIService"),
    *((f"rbac.authorization.k8s.io/{v}", k) for v in ("v1alpha1", "v1beta1")
      for k in ("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding")),
    *(("storage.k8s.io/v1beta1", k) for k in ("StorageClass", "CSIDriver", "CSINode", "VolumeAttachment")),
})


def can_convert(api_version: str, kind: str, target: str) -> bool:
    if kind == "Ingress":
        return api_version in INGRESS_SOURCES and target == "networking.k8s.io/v1"
    return (api_version, kind) in SAME_SHAPE


def _backend(backend: dict[str, Any], path: str) -> None:
    if "service" in backend or "resource" in backend:
        return
    name = backend.get("serviceName")
    port = backend.get("servicePort")
    if name is None or port is None:
        raise ConversionError(path, "an Ingress backend without serviceName and servicePort", "name the Service and its port")
    service = same_shape(backend)
    service["name"] = name
    service_port = same_shape(backend)
    service_port["number" if isinstance(port, int) else "name"] = port
    service["port"] = service_port
    rename_key(backend, "serviceName", "service")
    backend["service"] = service
    backend.pop("servicePort")


def convert_ingress(obj: dict[str, Any]) -> None:
    """v1beta1 Ingress -> v1, in place."""
    spec = mapping(obj, "spec") or {}
    if rename_key(spec, "backend", "defaultBackend"):
        _backend(spec["defaultBackend"], "spec.defaultBackend")
    for r, rule in mappings(spec, "rules"):
        for p, path in mappings(rule, "http", "paths"):
            where = f"spec.rules[{r}].http.paths[{p}]"
            if isinstance(path.get("backend"), dict):
                _backend(path["backend"], f"{where}.backend")
            if "pathType" not in path:
                path["pathType"] = "ImplementationSpecific"
