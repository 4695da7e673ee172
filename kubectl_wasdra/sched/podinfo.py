"""PodInfo: the per-pod facts every filter needs, computed once (our PreFilter).

Upstream: kubernetes/kubernetes pkg/scheduler/framework/types.go (PodInfo) and
staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests), release-1.37.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

import orjson

from kubectl_wasdra.kube.podaffinity import (
    AffinityTerm,
    WeightedTerms,
    merged_affinity,
    parse_pod_affinity,
    parse_preferred_terms,
)
from kubectl_wasdra.kube.quantity import ceil_value, milli_value
from kubectl_wasdra.kube.resources import NON_ZERO_DEFAULTS, container_requests, pod_nonzero_requests, pod_requests
from kubectl_wasdra.sched.volumes import has_node_volumes

MILLI_RESOURCES = frozenset({"cpu"})
UNCHECKED: Any = object()  # PodInfo.pre_filter_status before the pod-only PreFilter checks ran
# the native resources: every other name a pod requests is a scalar one (IsScalarResourceName: extended, hugepages-*)
CORE_RESOURCES: Final = frozenset({"cpu", "memory", "ephemeral-storage", "pods"})
# pkg/scheduler/util/pod_resources.go DefaultMilliCPURequest / DefaultMemoryRequest, as pod_nonzero_requests adds them
DEFAULT_MILLI_CPU: Final = milli_value(NON_ZERO_DEFAULTS["cpu"])
DEFAULT_MEMORY: Final = ceil_value(NON_ZERO_DEFAULTS["memory"])


def effective_requests(pod: Mapping[str, Any]) -> dict[str, int]:
    """Effective requests per resource as integers: cpu in millicores, everything else rounded up; zeros dropped."""
    out: dict[str, int] = {}
    for name, quantity in pod_requests(pod).items():
        value = milli_value(quantity) if name in MILLI_RESOURCES else ceil_value(quantity)
        if value:
            out[name] = value
    return out


def _missing_counts(pod: Mapping[str, Any]) -> tuple[int, int] | None:
    """How many containers request no cpu and no memory, for a pod whose non-zero requests are its requests plus a
    default per such container: only app containers, no pod-level requests, no resize status; else None."""
    spec = pod.get("spec") or {}
    if spec.get("initContainers") or (spec.get("resources") or {}).get("requests") or \
            (pod.get("status") or {}).get("containerStatuses"):
        return None
    cpu = memory = 0
    for container in spec.get("containers") or ():
        if not isinstance(container, Mapping):
            return None
        requested = container_requests(container)
        cpu += "cpu" not in requested
        memory += "memory" not in requested
    return cpu, memory


def nonzero_requests(pod: Mapping[str, Any], requests: Mapping[str, int]) -> tuple[int, int]:
    """(millicpu, memory bytes) the scoring plugins count for a pod: its requests, with 100m / 200Mi for every
    container that requests no cpu / memory (kube/resources.py pod_nonzero_requests)."""
    missing = _missing_counts(pod)
    if missing is not None:
        return (requests.get("cpu", 0) + missing[0] * DEFAULT_MILLI_CPU,
                requests.get("memory", 0) + missing[1] * DEFAULT_MEMORY)
    nonzero = pod_nonzero_requests(pod)
    return milli_value(nonzero.get("cpu", 0)), ceil_value(nonzero.get("memory", 0))


def group_name_of(pod: Mapping[str, Any]) -> str | None:
    """The pod's scheduling group: schedulingGroup.podGroupName (1.36+) or workloadRef "<workload>/<podGroup>[/<key>]" (1.35)."""
    spec = pod.get("spec") or {}
    scheduling_group = spec.get("schedulingGroup") or {}
    if scheduling_group.get("podGroupName"):
        return str(scheduling_group["podGroupName"])
    ref = spec.get("workloadRef") or {}
    if ref.get("name") and ref.get("podGroup"):
        key = ref.get("podGroupReplicaKey")
        return f"{ref['name']}/{ref['podGroup']}" + (f"/{key}" if key else "")
    return None


@dataclass(eq=False, slots=True)  # one per pod of the snapshot: slots keep tens of thousands small and quick to make
class PodInfo:
    """Facts about one pod, never re-derived by a filter. `signature` is equal for pods whose filter results are equal."""

    pod: Mapping[str, Any]
    namespace: str
    name: str
    priority: int
    created: str
    requests: Mapping[str, int]
    tolerations: tuple[Mapping[str, Any], ...]
    node_name: str
    labels: Mapping[str, str]
    claims: tuple[Mapping[str, Any], ...]
    group: str | None
    scheduler_name: str
    preemption_policy: str
    spread: tuple[Mapping[str, Any], ...]
    anti_affinity: tuple[Mapping[str, Any], ...]
    affinity: tuple[Mapping[str, Any], ...]
    # the signatures, computed on first use: most pods of a snapshot are bound and never compared (see signature)
    _signature: bytes | None = field(default=None, repr=False)
    _base_signature: bytes | None = field(default=None, repr=False)
    profile: Any = None  # profiles.Profile scheduling the pod (None: kube-scheduler's default profile)
    has_volumes: bool = False  # volumes the volume filters look at (claims, CSI, disks): others skip those filters
    affinity_terms: tuple[AffinityTerm, ...] = ()  # required pod affinity, parsed (framework.PodInfo)
    anti_affinity_terms: tuple[AffinityTerm, ...] = ()  # required pod anti-affinity, parsed
    preferred_affinity_terms: WeightedTerms = ()  # (weight, term): InterPodAffinity's score
    preferred_anti_affinity_terms: WeightedTerms = ()
    affinity_error: str = ""  # why the pod's affinity terms do not parse (InterPodAffinity PreFilter: "parsing pod")
    host_ports: tuple[tuple[str, str, int], ...] = ()  # (hostIP, protocol, hostPort), sanitized as HostPortInfo does
    terminating: bool = False  # metadata.deletionTimestamp is set
    order: int = 0  # ClusterSnapshot.creation_order: kubectl apply order, for pods without a creationTimestamp
    cache_keys: dict[str, Any] = field(default_factory=dict)  # plugin -> what its PreFilter reads of the pod
    pre_filter_status: Any = UNCHECKED  # outcome of the pod-only PreFilter checks (filters/pre_filter.py), once run
    # spread or inter-pod affinity constraints of its own: filter results depend on where other pods are, so they
    # are never shared (placement.is_stateful adds the placed pods' anti-affinity)
    stateful: bool = False
    nonzero: tuple[int, int] = (0, 0)  # (millicpu, memory) NodeResourcesFit's scoring counts (nonzero_requests)

    @property
    def signature(self) -> bytes:
        """Equal for pods whose filter results are equal (requests, tolerations, selectors, claims, group, ...)."""
        if self._signature is None:
            self._signature = _signature(self, self.claims)
        return self._signature

    @property
    def base_signature(self) -> bytes:
        """The signature without the claims (placement.pod_shape adds their specs)."""
        if self._base_signature is None:
            self._base_signature = _signature(self, len(self.claims))
        return self._base_signature

    @property
    def key(self) -> str:
        """"namespace/name", as kube-scheduler names pods in messages."""
        return f"{self.namespace}/{self.name}"

    @property
    def spec(self) -> Mapping[str, Any]:
        """The pod's spec."""
        return self.pod.get("spec") or {}

    @property
    def has_pod_affinity(self) -> bool:
        """The pod sets pod affinity or anti-affinity, required or preferred (NodeInfo.PodsWithAffinity)."""
        return bool(self.affinity_terms or self.anti_affinity_terms or self.preferred_affinity_terms
                    or self.preferred_anti_affinity_terms)

    @property
    def claims_or_extended(self) -> bool:
        """True if the pod has claims or requests resources other than cpu/memory/storage (DRA may serve them)."""
        return bool(self.claims) or any(r not in CORE_RESOURCES for r in self.requests)


def host_ports(spec: Mapping[str, Any]) -> tuple[tuple[str, str, int], ...]:
    """util.GetHostPorts: host ports of the containers and of restartable (sidecar) init containers, each as
    (hostIP or 0.0.0.0, protocol or TCP, port) (HostPortInfo.sanitize). With hostNetwork the API server defaults
    hostPort to containerPort (pkg/apis/core/v1/defaults.go), which manifests not yet created lack."""
    if not spec.get("initContainers") and all(type(c) is dict and not c.get("ports") for c in spec.get("containers") or ()):
        return ()  # the common case, without building the list below (one call per pod of a snapshot)
    out = []
    containers = [c for c in spec.get("initContainers") or () if isinstance(c, Mapping) and c.get("restartPolicy") == "Always"]
    containers += [c for c in spec.get("containers") or () if isinstance(c, Mapping)]
    for container in containers:
        for port in container.get("ports") or ():
            if not isinstance(port, Mapping):
                continue
            number = port.get("hostPort") or (port.get("containerPort") if spec.get("hostNetwork") else 0)
            if isinstance(number, int) and number > 0:
                out.append((str(port.get("hostIP") or "0.0.0.0"), str(port.get("protocol") or "TCP"), number))
    return tuple(out)


def _signature(info: PodInfo, claims: Any) -> bytes:
    spec = info.spec
    # a request past int64 (1e400) is keyed by its hex form: str() of an int past 4,300 digits raises ValueError
    requests = sorted((name, value if -(2**63) <= value < 2**63 else hex(value)) for name, value in info.requests.items())
    parts = (requests, info.tolerations, info.node_name, spec.get("nodeSelector"),
             (spec.get("affinity") or {}).get("nodeAffinity"), claims, info.group, info.namespace, info.scheduler_name,
             spec.get("volumes"), info.host_ports)
    return orjson.dumps(parts, option=orjson.OPT_SORT_KEYS)


# (effective requests, non-zero requests) per request shape (_request_shape): the pods of a snapshot repeat a few shapes
_REQUESTS: dict[bytes, tuple[dict[str, int], tuple[int, int]]] = {}
_MAX_SHAPES: Final = 4096


def _request_shape(pod: Mapping[str, Any], spec: Mapping[str, Any]) -> bytes | None:
    """What a plain pod's requests depend on: each container's `resources` and the pod's overhead. None for pods
    whose requests read more (init containers, pod-level resources, container statuses of an in-place resize):
    those are computed each time."""
    status = pod.get("status") or {}
    containers = spec.get("containers")
    if (spec.get("initContainers") or spec.get("resources") or status.get("containerStatuses")
            or status.get("initContainerStatuses") or not isinstance(containers, list)):
        return None
    try:
        return orjson.dumps([[c.get("resources") for c in containers], spec.get("overhead")],
                            option=orjson.OPT_SORT_KEYS)
    except (AttributeError, TypeError, orjson.JSONEncodeError):
        return None


def build_pod_info(pod: Mapping[str, Any], priority: int = 0, preemption_policy: str = "PreemptLowerPriority") -> PodInfo:
    """PodInfo for a pod dict; `priority` and `preemption_policy` are what admission resolved from the PriorityClass
    (spec.priority and spec.preemptionPolicy win when set)."""
    meta = pod.get("metadata") or {}
    spec = pod.get("spec") or {}
    affinity = spec.get("affinity") or {}
    labels = meta.get("labels") or {}
    if affinity and not meta.get("creationTimestamp"):
        affinity = merged_affinity(affinity, labels)  # not created yet: the API server merges matchLabelKeys on create
    anti = (affinity.get("podAntiAffinity") or {}).get("requiredDuringSchedulingIgnoredDuringExecution") or ()
    aff = (affinity.get("podAffinity") or {}).get("requiredDuringSchedulingIgnoredDuringExecution") or ()
    spread = tuple(c for c in spec.get("topologySpreadConstraints") or () if c.get("whenUnsatisfiable", "DoNotSchedule")
                   == "DoNotSchedule")
    shape = _request_shape(pod, spec)
    known = _REQUESTS.get(shape) if shape is not None else None
    if known is None:
        known = (effective_requests(pod), None)
    requests = dict(known[0])
    info = PodInfo(
        pod=pod, namespace=meta.get("namespace") or "default", name=meta.get("name") or "",
        priority=int(spec["priority"]) if isinstance(spec.get("priority"), int) else priority,
        created=str(meta.get("creationTimestamp") or ""), requests=requests,
        tolerations=tuple(spec.get("tolerations") or ()), node_name=spec.get("nodeName") or "",
        labels=labels, claims=tuple(spec.get("resourceClaims") or ()), group=group_name_of(pod),
        scheduler_name=spec.get("schedulerName") or "default-scheduler",
        preemption_policy=spec.get("preemptionPolicy") or preemption_policy,
        spread=spread, anti_affinity=tuple(anti), affinity=tuple(aff),
    )
    info.nonzero = known[1] if known[1] is not None else nonzero_requests(pod, info.requests)
    if shape is not None and known[1] is None and len(_REQUESTS) < _MAX_SHAPES:
        _REQUESTS[shape] = (dict(requests), info.nonzero)
    info.has_volumes = has_node_volumes(pod)
    info.stateful = bool(spread or anti or aff)
    info.host_ports = host_ports(spec)
    info.terminating = bool(meta.get("deletionTimestamp"))
    if affinity.get("podAffinity") or affinity.get("podAntiAffinity"):
        info.affinity_terms, info.anti_affinity_terms, info.affinity_error = parse_pod_affinity(info.namespace, affinity)
        info.preferred_affinity_terms, info.preferred_anti_affinity_terms = parse_preferred_terms(info.namespace, affinity)
    return info


def renamed(info: PodInfo, name: str, group: str | None) -> PodInfo:
    """Another pod of the very same spec named `name` in scheduling group `group` (capacity's copies): everything
    derived from the spec is shared, not parsed again; the signature follows the group, which it includes."""
    meta = {**(info.pod.get("metadata") or {}), "name": name}
    copy = replace(info, pod={**info.pod, "metadata": meta}, name=name, group=group, cache_keys=dict(info.cache_keys))
    if group != info.group:  # computed again on first use
        copy._signature = copy._base_signature = None
    return copy
