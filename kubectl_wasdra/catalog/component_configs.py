"""Configuration files of Kubernetes components and tools that look like objects (apiVersion and kind) but are read
by a binary's flag, never sent to the API server: a KubeSchedulerConfiguration beside the manifests that use its
profiles, a KubeletConfiguration, a kubeadm or kind cluster file. No CRD describes them, so "pass its CRD" is the
wrong advice; SCHEMA006 says what the file is and how to check it instead.

Groups: kubernetes/kubernetes staging/src/k8s.io/{kube-scheduler,kubelet,kube-proxy}/config, staging/src/k8s.io/
apiserver/pkg/apis/{apiserver,audit}, cmd/kubeadm/app/apis/kubeadm; kubernetes-sigs/kind pkg/apis/config.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SCHEDULER_GROUP: Final = "kubescheduler.config.k8s.io"
# the only version kube-scheduler 1.29 and later reads: v1beta2 went in 1.28, v1beta3 in 1.29 (kubernetes/kubernetes
# pull 119994, pkg/scheduler/apis/config/scheme/scheme.go registers v1 alone)
SCHEDULER_VERSION: Final = "v1"


@dataclass(frozen=True)
class ComponentConfig:
    """What reads a configuration group's files (for the message) and how to check one instead (the hint)."""

    what: str
    how: str


_GROUPS: Final[dict[str, ComponentConfig]] = {
    SCHEDULER_GROUP: ComponentConfig(
        "a kube-scheduler configuration file (kube-scheduler --config)",
        "check it and simulate with its profiles: `kubectl wasdra explain --scheduler-config FILE`"),
    "kubelet.config.k8s.io": ComponentConfig(
        "a kubelet configuration file (kubelet --config)", "the kubelet validates it when it starts"),
    "kubeproxy.config.k8s.io": ComponentConfig(
        "a kube-proxy configuration file (kube-proxy --config)", "kube-proxy validates it when it starts"),
    "apiserver.config.k8s.io": ComponentConfig(
        "a kube-apiserver configuration file (admission, encryption, authentication ... flags)",
        "kube-apiserver validates it when it starts"),
    "apiserver.k8s.io": ComponentConfig(
        "a kube-apiserver admission configuration file (--admission-control-config-file)",
        "kube-apiserver validates it when it starts"),
    "audit.k8s.io": ComponentConfig(
        "a kube-apiserver audit policy (--audit-policy-file)", "kube-apiserver validates it when it starts"),
    "podsecurity.admission.config.k8s.io": ComponentConfig(
        "a PodSecurity admission configuration (inside kube-apiserver's AdmissionConfiguration)",
        "kube-apiserver validates it when it starts"),
    "kubeadm.k8s.io": ComponentConfig(
        "a kubeadm configuration file (kubeadm --config)", "check it with `kubeadm config validate --config FILE`"),
    "kind.x-k8s.io": ComponentConfig(
        "a kind cluster configuration file (kind create cluster --config)", "kind validates it when it creates the cluster"),
}


def component_config(api_version: str) -> ComponentConfig | None:
    """What reads files of this apiVersion, or None for objects of the API (built-in or custom resources).
    A kube-scheduler file of an old version also says that current kube-schedulers refuse it."""
    group, _, version = api_version.rpartition("/")
    found = _GROUPS.get(group)
    if found is None or group != SCHEDULER_GROUP or version == SCHEDULER_VERSION:
        return found
    return ComponentConfig(found.what, f"kube-scheduler 1.29 and later reads only {SCHEDULER_GROUP}/{SCHEDULER_VERSION}:"
                                       f" convert it, then {found.how}")
