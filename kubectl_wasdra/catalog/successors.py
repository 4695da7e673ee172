"""What took over the function of a built-in kind that was removed without a successor API of the same kind, for
API001's hint (a kind replaced by the same kind in another version is catalog/lifecycle.successor's business).

Sources: kubernetes/website content/en/docs/reference/using-api/deprecation-guide.md (PodSecurityPolicy, 1.25: Pod
Security Admission, KEP-2579); KEP-4381 structured parameters, which replaced classic DRA's resource.k8s.io/v1alpha2
kinds in 1.31 (KEP-3063 withdrawn).
"""

from __future__ import annotations

from typing import Final

FUNCTION_SUCCESSORS: Final[dict[tuple[str, str], str]] = {
    ("policy", "PodSecurityPolicy"): "Pod Security Admission (label the namespace "
                                     "pod-security.kubernetes.io/enforce=baseline or restricted) or a policy engine",
    ("resource.k8s.io", "ResourceClass"): "a resource.k8s.io/v1 DeviceClass",
    ("resource.k8s.io", "ResourceClassParameters"): "the selectors and config of a resource.k8s.io/v1 DeviceClass",
    ("resource.k8s.io", "ResourceClaimParameters"): "the device requests (selectors, config) of a resource.k8s.io/v1 "
                                                    "ResourceClaim",
    ("resource.k8s.io", "PodSchedulingContext"): "kube-scheduler's own allocation of structured claims (nothing to "
                                                 "create)",
}


def function_successor(group: str, kind: str) -> str | None:
    """What replaced a removed kind's function, in a few words, or None where nothing is recorded."""
    return FUNCTION_SUCCESSORS.get((group, kind))
