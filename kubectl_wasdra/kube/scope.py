"""Which kinds are cluster-scoped: such an object has no namespace (kube-apiserver clears one written in a manifest),
so two copies in different namespaces are one object and a reference to it does not depend on the namespace."""

from __future__ import annotations

from typing import Final

# The built-in kinds served without a namespace in 1.37 (their REST storage's NamespaceScoped() is false; the
# official client's list_<kind> has no list_namespaced_<kind>: tests/kube/test_scope.py checks this table against it)
BUILTIN_CLUSTER_SCOPED: Final = frozenset({
    "APIService", "CSIDriver", "CSINode", "CertificateSigningRequest", "ClusterRole", "ClusterRoleBinding",
    "ClusterTrustBundle", "ComponentStatus", "CustomResourceDefinition", "DeviceClass", "DeviceTaintRule", "FlowSchema",
    "IPAddress", "IngressClass", "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding",
    "MutatingWebhookConfiguration", "Namespace", "Node", "PersistentVolume", "PriorityClass",
    "PriorityLevelConfiguration", "ResourcePoolStatusRequest", "ResourceSlice", "RuntimeClass", "ServiceCIDR",
    "StorageClass", "StorageVersion", "StorageVersionMigration", "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding", "ValidatingWebhookConfiguration", "VolumeAttachment", "VolumeAttributesClass",
})

# Cluster-scoped kinds of the custom resources of this field, by (group, kind): `scope: Cluster` in each project's CRD
CUSTOM_CLUSTER_SCOPED: Final = frozenset({
    ("kueue.x-k8s.io", "AdmissionCheck"), ("kueue.x-k8s.io", "ClusterQueue"), ("kueue.x-k8s.io", "Cohort"),
    ("kueue.x-k8s.io", "MultiKueueCluster"), ("kueue.x-k8s.io", "MultiKueueConfig"),
    ("kueue.x-k8s.io", "ProvisioningRequestConfig"), ("kueue.x-k8s.io", "ResourceFlavor"),
    ("kueue.x-k8s.io", "Topology"), ("kueue.x-k8s.io", "WorkloadPriorityClass"),
    ("trainer.kubeflow.org", "ClusterTrainingRuntime"),
    ("scheduling.volcano.sh", "Queue"), ("topology.volcano.sh", "HyperNode"),
    ("scheduling.run.ai", "Queue"), ("topology.node.k8s.io", "NodeResourceTopology"),
})


def is_cluster_scoped(group: str, kind: str) -> bool:
    """True for a cluster-scoped built-in kind or a known cluster-scoped custom resource."""
    return kind in BUILTIN_CLUSTER_SCOPED or (group, kind) in CUSTOM_CLUSTER_SCOPED
