"""VALID checks of the enumerated string fields of a pod spec (pods and pod templates alike): a value outside the set
is "Unsupported value" from kube-apiserver.

Upstream (release-1.33 .. release-1.37, the same sets in each): kubernetes/kubernetes
pkg/apis/core/validation/validation.go (supportedPullPolicies in validatePullPolicy, the port protocols, the
terminationMessagePolicy values, HTTP probe schemes, resize policies, validateDNSPolicy, the topology spread
whenUnsatisfiable and node inclusion policies, validateOS, the fsGroupChangePolicy, seccomp and AppArmor profile types,
validateMountPropagation, recursiveReadOnly, node selector operators, and the container-level restartPolicy that only
init containers (sidecars) take: Always). The `+enum` types are in staging/src/k8s.io/api/core/v1/types.go.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.lint.rules.validation._base import Check, Path, Violation, as_dict, as_list

CONTAINER_KINDS: Final = ("initContainers", "containers", "ephemeralContainers")
_PROBES: Final = ("livenessProbe", "readinessProbe", "startupProbe")

# field path inside one container -> allowed values
CONTAINER_FIELDS: Final[dict[tuple[str, ...], tuple[str, ...]]] = {
    ("imagePullPolicy",): ("Always", "IfNotPresent", "Never"),
    ("terminationMessagePolicy",): ("File", "FallbackToLogsOnError"),
}
# field path inside the pod spec -> allowed values
POD_FIELDS: Final[dict[tuple[str, ...], tuple[str, ...]]] = {
    ("dnsPolicy",): ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"),
    ("os", "name"): ("linux", "windows"),
    ("securityContext", "fsGroupChangePolicy"): ("OnRootMismatch", "Always"),
    ("securityContext", "seccompProfile", "type"): ("RuntimeDefault", "Unconfined", "Localhost"),
    ("securityContext", "appArmorProfile", "type"): ("RuntimeDefault", "Unconfined", "Localhost"),
}
PROTOCOLS: Final = ("TCP", "UDP", "SCTP")
SCHEMES: Final = ("HTTP", "HTTPS")
WHEN_UNSATISFIABLE: Final = ("DoNotSchedule", "ScheduleAnyway")
INCLUSION_POLICIES: Final = ("Honor", "Ignore")
NODE_SELECTOR_OPERATORS: Final = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
MOUNT_PROPAGATION: Final = ("None", "HostToContainer", "Bidirectional")
RECURSIVE_READ_ONLY: Final = ("Disabled", "IfPossible", "Enabled")
RESIZE_RESTART: Final = ("NotRequired", "RestartContainer")


def _check(value: Any, allowed: tuple[str, ...], path: Path, field: str) -> Iterator[Violation]:
    """One violation for a string outside `allowed` (a wrong type is the schema's; "" is left to defaulting)."""
    if isinstance(value, str) and value and value not in allowed:
        close = next((a for a in allowed if a.lower() == value.lower()), None)
        hint = f'use "{close}" (values are case-sensitive)' if close else "use one of: " + ", ".join(allowed)
        yield Violation(Check.ENUM, path, f'unsupported {field} "{value}": supported values: {", ".join(allowed)}',
                        hint=hint, at="value")


def _at(node: Any, steps: tuple[str, ...]) -> Any:
    for step in steps:
        node = as_dict(node).get(step)
    return node


def validate_pod_enums(spec: dict[str, Any], path: Path) -> Iterator[Violation]:
    """Every enumerated field of the pod spec at `path` and of its containers."""
    for steps, allowed in POD_FIELDS.items():
        yield from _check(_at(spec, steps), allowed, (*path, *steps), steps[-1])
    for index, constraint in enumerate(as_list(spec.get("topologySpreadConstraints"))):
        here = (*path, "topologySpreadConstraints", index)
        constraint = as_dict(constraint)
        yield from _check(constraint.get("whenUnsatisfiable"), WHEN_UNSATISFIABLE, (*here, "whenUnsatisfiable"),
                          "whenUnsatisfiable")
        for field in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            yield from _check(constraint.get(field), INCLUSION_POLICIES, (*here, field), field)
    yield from _node_affinity(spec, path)
    for kind in CONTAINER_KINDS:
        for index, container in enumerate(as_list(spec.get(kind))):
            yield from _container(as_dict(container), (*path, kind, index), kind)


def _node_affinity(spec: dict[str, Any], path: Path) -> Iterator[Violation]:
    affinity = as_dict(_at(spec, ("affinity", "nodeAffinity")))
    base = (*path, "affinity", "nodeAffinity")
    terms = [((*base, "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", i), term) for i, term in
             enumerate(as_list(as_dict(affinity.get("requiredDuringSchedulingIgnoredDuringExecution"))
                               .get("nodeSelectorTerms")))]
    terms += [((*base, "preferredDuringSchedulingIgnoredDuringExecution", i, "preference"), as_dict(p).get("preference"))
              for i, p in enumerate(as_list(affinity.get("preferredDuringSchedulingIgnoredDuringExecution")))]
    for term_path, term in terms:
        for field in ("matchExpressions", "matchFields"):
            for index, requirement in enumerate(as_list(as_dict(term).get(field))):
                yield from _check(as_dict(requirement).get("operator"), NODE_SELECTOR_OPERATORS,
                                  (*term_path, field, index, "operator"), "operator")


def _container(container: dict[str, Any], path: Path, kind: str) -> Iterator[Violation]:
    for steps, allowed in CONTAINER_FIELDS.items():
        yield from _check(_at(container, steps), allowed, (*path, *steps), steps[-1])
    if kind == "initContainers":   # a sidecar: the only container-level restartPolicy an init container takes
        yield from _check(container.get("restartPolicy"), ("Always",), (*path, "restartPolicy"), "restartPolicy")
    for index, port in enumerate(as_list(container.get("ports"))):
        yield from _check(as_dict(port).get("protocol"), PROTOCOLS, (*path, "ports", index, "protocol"), "protocol")
    for probe in _PROBES:
        scheme = _at(container, (probe, "httpGet", "scheme"))
        yield from _check(scheme, SCHEMES, (*path, probe, "httpGet", "scheme"), "scheme")
    for index, mount in enumerate(as_list(container.get("volumeMounts"))):
        here = (*path, "volumeMounts", index)
        yield from _check(as_dict(mount).get("mountPropagation"), MOUNT_PROPAGATION, (*here, "mountPropagation"),
                          "mountPropagation")
        yield from _check(as_dict(mount).get("recursiveReadOnly"), RECURSIVE_READ_ONLY, (*here, "recursiveReadOnly"),
                          "recursiveReadOnly")
    for index, policy in enumerate(as_list(container.get("resizePolicy"))):
        yield from _check(as_dict(policy).get("restartPolicy"), RESIZE_RESTART, (*path, "resizePolicy", index,
                                                                                  "restartPolicy"), "restartPolicy")
