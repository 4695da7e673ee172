"""Rule families, one module each, listed explicitly in check-pipeline order (the pipeline imports exactly these)."""

from typing import Final

FAMILIES: Final[tuple[str, ...]] = ("load", "api", "schema", "gates", "validation", "references", "gang", "fit", "autoscaling",
                                    "config", "duplicates", "numa")

# Families that report only on workload, scheduling, device and autoscaling objects: their findings sit on Pods and
# pod templates, groups, claims, classes, slices and HPAs, and their set rules find nothing without one. A check
# without a cluster whose documents are all of the kinds below, (API group, kind), does not import them (start-up
# cost of small inputs). tests/lint/test_family_kinds.py runs these families over such documents and checks every
# finding of theirs over the corpora.
WORKLOAD_FAMILIES: Final[frozenset[str]] = frozenset({"gates", "validation", "references", "gang", "fit", "autoscaling",
                                                      "numa"})
UNRELATED_KINDS: Final[frozenset[tuple[str, str]]] = frozenset({
    ("", "ConfigMap"), ("", "Secret"), ("", "Service"), ("", "ServiceAccount"), ("", "Endpoints"), ("", "LimitRange"),
    ("", "ResourceQuota"), ("", "PersistentVolumeClaim"), ("", "PersistentVolume"),
    ("networking.k8s.io", "Ingress"), ("networking.k8s.io", "IngressClass"), ("networking.k8s.io", "NetworkPolicy"),
    ("discovery.k8s.io", "EndpointSlice"), ("storage.k8s.io", "StorageClass"), ("policy", "PodDisruptionBudget"),
    ("apiextensions.k8s.io", "CustomResourceDefinition"), ("coordination.k8s.io", "Lease"),
    ("admissionregistration.k8s.io", "MutatingWebhookConfiguration"),
    ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration"),
})
