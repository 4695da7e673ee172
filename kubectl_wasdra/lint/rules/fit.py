"""FIT rules: the manifests against the cluster of `--snapshot`/`--live`.

FIT001-FIT003 ask "could this ever be satisfied by this cluster, even empty?"; FIT004 (`--simulate`, on by default
with a snapshot) asks "does it fit now?"; FIT005 compares apiVersions with what the server serves; FIT006 compares gated
fields with the gates the server runs with. None of them runs without a snapshot. Heavy modules (CEL, sched, explain)
are imported only here, lazily.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.kube.selectors import node_selector_term_errors
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.codes import Severity
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.problem import Problem, SetProblem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules._devices import ClusterDevice, ClusterDevices, cluster_devices
from kubectl_wasdra.lint.rules._fitting import (
    constraint_problems,
    dra_extended_resources,
    node_capacity_problem,
    pods_per_node,
    request_alternatives,
    request_matches,
    selector_expressions,
)
from kubectl_wasdra.lint.rules._gangs import groups
from kubectl_wasdra.lint.rules._gated import APISERVER, components_text, document_gated_fields, effect_text
from kubectl_wasdra.lint.rules._objects import ObjectIndex, object_index
from kubectl_wasdra.lint.rules._pods import document_pod_sources, of_kind, pod_sources
from kubectl_wasdra.lint.rules._refs import claim_documents
from kubectl_wasdra.lint.rules._selector_types import type_problem
from kubectl_wasdra.lint.rules.validation._base import as_dict, as_list
from kubectl_wasdra.load import Document
from kubectl_wasdra.load.document import value_at

if TYPE_CHECKING:
    from kubectl_wasdra.cluster.snapshot import ClusterSnapshot


def _has_devices(ctx: CheckContext) -> bool:
    return ctx.snapshot is not None and bool(ctx.snapshot.of_kind("ResourceSlice"))


def _matches(devices: ClusterDevices, index: ObjectIndex, request: Mapping[str, Any], ctx: CheckContext
             ) -> list[ClusterDevice] | None:
    return request_matches(devices, index, request, ctx.release)


def runtime_failure(obj: Any, path: tuple[str | int, ...], devices: ClusterDevices, ctx: CheckContext
                    ) -> tuple[tuple[str | int, ...], str, str] | None:
    """(path of the expression, message, hint) when the selectors of `obj` (a DeviceClass spec or a request) raised a
    CEL runtime error on devices of the cluster ("no such overload: _>_(int64, string)"): the allocator fails the
    claim with that error, which explain shows too, so it is reported as such at the expression, not as "matches no
    device"."""
    expressions = selector_expressions(obj)
    failure = devices.runtime_error(expressions, ctx.release) if expressions else None
    if failure is None:
        return None
    index, message, count = failure
    position = [i for i, s in enumerate(as_list(as_dict(obj).get("selectors")))
                if isinstance(as_dict(as_dict(s).get("cel")).get("expression"), str)][index]
    return ((*path, "selectors", position, "cel", "expression"),
            f"CEL runtime error on {count} of {len(devices.devices)} device(s) in the cluster: {message}",
            "fix the expression for the attribute types the drivers publish (kubectl get resourceslices -o yaml); "
            "the scheduler fails the allocation with this error")


def _class_reported(docs: DocumentSet, devices: ClusterDevices, request: Mapping[str, Any], ctx: CheckContext) -> bool:
    """True when the request's DeviceClass is in the manifests and matches nothing by itself (FIT002 reports it)."""
    name = request.get("deviceClassName")
    document = docs.get("DeviceClass", name) if isinstance(name, str) else None
    return document is not None and devices.matching(selector_expressions(document.get(("spec",))), ctx.release) == []


@rule(codes.FIT_SELECTOR_MATCHES_NOTHING, scope="set")
def selector_matches_no_device(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    With a snapshot: flags a request of a ResourceClaim or ResourceClaimTemplate whose DeviceClass and selectors
    together match no device that any driver publishes in the cluster (for `firstAvailable`, when no subrequest
    matches), and a `matchAttribute` constraint naming an attribute that none of a constrained request's devices
    publishes. When an attribute name, value or driver is not published but a close one is, the hint says
    "did you mean". A request selector that is ill-typed for the attribute and capacity types the cluster's
    ResourceSlices declare (an int attribute compared with a string, a version with a quantity) is reported first,
    at the error inside the expression, without evaluating anything; one that raises a CEL runtime error on the
    cluster's devices is reported as that error.

    ## Why is this bad?
    No allocation can ever succeed: the pods stay Pending with `NoMatchingDevices` whatever else frees up.

    ## Example
        selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].modle == "H100"'}}]

    ## Fix
    Use the attribute names and values the driver publishes (`kubectl get resourceslices -o yaml`).
    """
    if not _has_devices(ctx):
        return
    devices, index = cluster_devices(ctx.snapshot), object_index(docs, ctx)
    for document in claim_documents(docs):
        for path, alternatives in request_alternatives(document.kind, document.data):
            typed = next(filter(None, (type_problem(document, r, p, devices) for p, r in alternatives)), None)
            if typed is not None:
                yield typed
                continue
            results = [_matches(devices, index, request, ctx) for _, request in alternatives]
            if any(result is None or result for result in results) or \
                    any(_class_reported(docs, devices, request, ctx) for _, request in alternatives):
                continue
            first_path, first = alternatives[0]
            failure = runtime_failure(first, first_path, devices, ctx) if len(alternatives) == 1 else None
            if failure is not None:
                yield SetProblem(document, *failure, at="value")
                continue
            expressions = selector_expressions(first)
            hint = next(filter(None, map(devices.suggestion, expressions)), None) or \
                "check the attribute names and values the drivers publish (kubectl get resourceslices -o yaml)"
            where = (*first_path, "selectors") if expressions else (*first_path, "deviceClassName")
            yield SetProblem(document, where if len(alternatives) == 1 else path,
                             f'no device in the cluster matches DeviceClass "{first.get("deviceClassName")}"'
                             + (" and the request's selectors" if expressions else "")
                             + (" (in any subrequest)" if len(alternatives) > 1 else ""), hint)
        for problem in constraint_problems(document.kind, document.data, devices, index, ctx.release):
            close = devices.close_attribute(problem.attribute)
            yield SetProblem(document, problem.path,
                             f'no device matching request "{problem.request}" publishes attribute "{problem.attribute}": '
                             "the constraint can never hold",
                             f'did you mean "{close}"?' if close else "match an attribute the devices publish",
                             at="value")


@rule(codes.FIT_DEVICE_CLASS_UNSATISFIABLE, scope="set")
def device_class_matches_no_device(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    With a snapshot: flags a DeviceClass of the manifests whose selectors match no device any driver publishes in
    the cluster, and, first, a selector that is ill-typed for the attribute and capacity types the cluster's
    ResourceSlices declare (reported at the error inside the expression, before anything is evaluated).

    ## Why is this bad?
    Every claim using the class fails with `NoMatchingDevices`: usually a driver name typo or a class for a driver
    that is not installed.

    ## Example
        selectors: [{cel: {expression: 'device.driver == "gpu.exmaple.com"'}}]

    ## Fix
    Match the driver name the ResourceSlices carry, or install the driver.
    """
    if not _has_devices(ctx):
        return
    devices = cluster_devices(ctx.snapshot)
    for document in of_kind(docs, "DeviceClass"):
        typed = type_problem(document, document.get(("spec",)), ("spec",), devices)
        if typed is not None:
            yield typed
            continue
        expressions = selector_expressions(document.get(("spec",)))
        found = devices.matching(expressions, ctx.release)
        if found is None or found:
            continue
        failure = runtime_failure(document.get(("spec",)), ("spec",), devices, ctx)
        if failure is not None:
            yield SetProblem(document, *failure, at="value")
            continue
        hint = next(filter(None, map(devices.suggestion, expressions)), None) or \
            "drivers in the cluster: " + ", ".join(sorted(devices.drivers))
        yield SetProblem(document, ("spec", "selectors"),
                         f'DeviceClass "{document.name}" matches no device in the cluster', hint)


@rule(codes.FIT_NEVER_FITS, scope="set")
def can_never_fit(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    With a snapshot: flags what no node could provide even with nothing else running - a pod whose effective
    requests (init containers, sidecars, overhead, pod-level resources) exceed every node's allocatable (or name a
    resource no node offers), a device request whose `count` exceeds the matching devices any one node can reach
    (its own plus network-attached ones), and a gang whose `minCount` exceeds the pods the largest domain of its
    topology key (or the whole cluster) could hold - counting per node allocatable cpu/memory/pods and the
    devices each pod's claim templates need. Taints and affinity are ignored, so this never over-reports.

    ## Why is this bad?
    "Can never fit" is different from "does not fit now": no amount of waiting, preemption or scale-down of
    other work helps; only bigger nodes or a smaller request do.

    ## Example
        exactly: {deviceClassName: gpu.example.com, count: 16}     # nodes have 8 GPUs each
        gang: {minCount: 5}, topology: [{key: example.com/rack}]   # 4 nodes of 8 GPUs per rack, 8 GPUs per pod

    ## Fix
    Lower the request to what one node provides, or split the work over more pods.
    """
    snapshot = ctx.snapshot
    if snapshot is None:
        return
    if snapshot.of_kind("Node"):
        from kubectl_wasdra.kube.resources import node_allocatable

        allocatable = {as_dict(node.get("metadata")).get("name", ""): node_allocatable(node)
                       for node in snapshot.of_kind("Node")}
        never = False
        extended = dra_extended_resources(snapshot, [d.data for d in of_kind(docs, "DeviceClass")])
        for source in pod_sources(docs):
            problem = node_capacity_problem(source, snapshot, list(allocatable.values()), extended)
            if problem is not None:
                never = True
                yield SetProblem(source.document, problem.path, problem.message, problem.hint)
        if not never:
            yield from _gang_domains(docs, ctx, allocatable)
    if _has_devices(ctx):
        yield from _device_counts(docs, ctx)


def _domains(snapshot: ClusterSnapshot, key: str | None) -> dict[str, list[str]]:
    """Node names per value of label `key` (one domain "" of every node without a key); unlabelled nodes are in none."""
    domains: dict[str, list[str]] = {}
    for node in snapshot.of_kind("Node"):
        meta = as_dict(node.get("metadata"))
        value = "" if key is None else as_dict(meta.get("labels")).get(key)
        if value is not None:
            domains.setdefault(value, []).append(meta.get("name", ""))
    return domains


def _gang_domains(docs: DocumentSet, ctx: CheckContext, allocatable: Mapping[str, Mapping[str, Decimal]]
                  ) -> Iterator[SetProblem]:
    """Gangs whose minCount exceeds what the largest topology domain (or the whole cluster) holds even empty."""
    snapshot = ctx.snapshot
    if snapshot is None:
        return
    devices = cluster_devices(snapshot) if _has_devices(ctx) else None
    index = object_index(docs, ctx)
    extended = dra_extended_resources(snapshot, [d.data for d in of_kind(docs, "DeviceClass")])
    for group in groups(docs):
        if group.min_count is None or not group.members:
            continue
        per_member = [pods_per_node(m, allocatable, devices, index, ctx.release, extended) for m in group.members]
        if any(capacity is None for capacity in per_member):
            continue
        key = next((k for _, k in group.topology_keys()), None)
        best, where = 0, ""
        for value, names in sorted(_domains(snapshot, key).items()):
            room = sum(max(capacity[name] for capacity in per_member) for name in names)  # type: ignore[index]
            if room > best:
                best, where = room, value
        if best >= group.min_count:
            continue
        scope = f'the largest domain of "{key}" ({key}={where})' if key and where else "the whole cluster"
        if key and not where:
            continue  # no labelled node: GANG004
        yield SetProblem(group.document, group.min_count_path,
                         f"gang minCount {group.min_count} of {group.label} can never be met: {scope} holds at most "
                         f"{best} of its pods even with nothing else running",
                         f"lower minCount to {best} or below, or use a larger topology level" if best else
                         "no node can hold even one pod of the gang", at="value")


def _device_counts(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    devices, index = cluster_devices(ctx.snapshot), object_index(docs, ctx)
    for document in claim_documents(docs):
        for _, alternatives in request_alternatives(document.kind, document.data):
            bounds = []
            for _, request in alternatives:
                count = request.get("count", 1)
                found = _matches(devices, index, request, ctx)
                if found is None or not found or request.get("allocationMode") == "All" or not isinstance(count, int):
                    bounds.append(None)
                    continue
                bounds.append((count, devices.per_node_upper_bound(found)))
            if not bounds or any(b is None or b[0] <= b[1] for b in bounds):
                continue
            (first_path, _), (count, most) = alternatives[0], bounds[0]
            yield SetProblem(document, (*first_path, "count"),
                             f"count {count} can never be allocated: at most {most} matching device(s) are reachable "
                             "from any one node, even with nothing else running",
                             f"request at most {most} devices per claim, or split the work over more pods", at="value")


@rule(codes.FIT_DOES_NOT_FIT_NOW, scope="set")
def does_not_fit_now(docs: DocumentSet, ctx: CheckContext) -> Iterator[SetProblem]:
    """
    ## What it does
    With `--simulate` (on by default with `--snapshot`/`--live`): overlays the manifests on the cluster, runs the
    same simulation as `kubectl wasdra explain` for every pod and group they define, and flags each that would stay
    Pending, with the explanation's first reason and the best verified suggestion.

    ## Why is this bad?
    The change applies cleanly and then the training job sits Pending; a CI gate can catch it before merge.

    ## Example
        # PodGroup train: gang minCount 4, topology example.com/rack; only 3 nodes of any rack have 8 free GPUs

    ## Fix
    Follow the suggestion, or run `kubectl wasdra explain -f FILE --snapshot ...` for the full explanation.
    Use `--no-simulate` to skip the simulation.
    """
    if ctx.snapshot is None or not ctx.simulate:
        return
    from kubectl_wasdra.lint.rules._simulate import groups_not_fitting

    for found in groups_not_fitting(docs, ctx):
        hint = found.suggestion or f"run kubectl wasdra explain -f {found.document.file} with the same snapshot for details"
        if found.preemption is not None:  # kube-scheduler would make room: a warning, with whom it would evict
            yield SetProblem(found.document, ("metadata", "name"), f"{found.label} {found.preemption.summary()}",
                             hint, at="value", severity=Severity.WARNING)
            continue
        yield SetProblem(found.document, ("metadata", "name"), f"{found.label} does not fit now: {found.reason}", hint,
                         at="value")


@functools.lru_cache(maxsize=8)
def _served(ctx: CheckContext) -> frozenset[str]:
    """The snapshot's served group/versions, built once per check context rather than per document."""
    return frozenset(ctx.snapshot.header.served) if ctx.snapshot is not None else frozenset()


@rule(codes.FIT_API_NOT_SERVED_BY_CLUSTER)
def api_not_served_by_cluster(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    With a snapshot that records what the server serves (`kubectl wasdra snapshot` or `--live`): flags an object
    whose apiVersion is not among the served group/versions - an API version the cluster's runtime config has not
    enabled, or a CRD that is not installed.

    ## Why is this bad?
    `kubectl apply` fails with "no matches for kind ... in version ..." for that cluster, whatever the release allows.

    ## Example
        apiVersion: scheduling.k8s.io/v1beta1     # the server was started without --runtime-config for it

    ## Fix
    Use a served version, enable the API version on the cluster, or install the CRD.
    """
    served = _served(ctx)
    if not served or not doc.api_version or doc.api_version in served:
        return
    group = doc.group
    same_group = sorted(v for v in served if v.rpartition("/")[0] == group)
    hint = f"the server serves {', '.join(same_group)}" if same_group else "install the CRD or enable the API group"
    yield Problem(("apiVersion",), f"{doc.api_version} is not served by the cluster of the snapshot", hint, at="value")



@rule(codes.FIT_GATE_OFF_IN_CLUSTER)
def gated_field_off_in_cluster(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    With `--live`, or a snapshot whose header records the API server's feature gates (`kubectl wasdra snapshot
    --live` reads them from kube-apiserver's /metrics): flags a field whose feature gate the cluster's API server runs
    with off, although `--k8s-version` and `--feature-gates` have it on (GATE001 reports the other case).

    ## Why is this bad?
    kube-apiserver drops a disabled field on create: the manifest applies cleanly on that cluster and the capacity
    request, toleration or gang policy is simply gone - whatever the release's defaults say.

    ## Example
        # the cluster's /metrics: kubernetes_feature_enabled{name="DRAConsumableCapacity",stage="BETA"} 0
        spec: {spec: {devices: {requests: [{name: nic, exactly: {deviceClassName: rdma, capacity: {requests: {bw: 10G}}}}]}}}

    ## Fix
    Enable the gate on the cluster's API server (and the other components that read it), or remove the field.

    ## References
    kubernetes/kubernetes staging/src/k8s.io/component-base/metrics/prometheus/feature/metrics.go (the gate gauge);
    pkg/registry/*/strategy.go dropDisabledFields
    """
    live = ctx.snapshot.header.feature_gates if ctx.snapshot is not None else {}
    state = ctx.gates
    if not live or not doc.api_version or not doc.kind:
        return
    for hit in document_gated_fields(doc, ctx):
        if not hit.enabled:
            continue  # off for the target release already: GATE001's finding
        for gate in hit.field.gates_all:
            info = state.table.get(gate)
            # the server's value only says something about gates the API server itself reads
            if live.get(gate) is False and (info is None or APISERVER in info.components):
                yield Problem(hit.path, f"feature gate {gate} is off on the cluster's API server: {effect_text(hit)}",
                              f"enable {gate} on the cluster ({components_text(info)}), or remove the field")
                break


_TERMS: Final = ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")


@rule(codes.FIT_NODE_AFFINITY_TERM_NEVER_MATCHES)
def node_affinity_term_never_matches(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Flags a required node affinity term (of a Pod or a pod template) with a requirement kube-scheduler cannot parse:
    a value that is not a valid label value (`In`, `NotIn`), a `Gt`/`Lt` value that is not one integer, `matchFields`
    without exactly one value. The API server accepts such terms; the scheduler treats the term as matching no node
    and says nothing else. Needs no snapshot.

    ## Why is this bad?
    The term is dead: with other terms the pod only lands where they match, and when it is the only term the pod never
    schedules and every node reads "node(s) didn't match Pod's node affinity/selector". A `NotIn` with a typo in the
    value is the common case: meant to exclude one node group, it excludes every node.

    ## Example
        nodeSelectorTerms:
        - matchExpressions: [{key: pool, operator: NotIn, values: ["spot nodes"]}]   # a space is not allowed

    ## Fix
    Write the value as the node label has it (alphanumerics, '-', '_', '.', at most 63 characters), one integer for
    Gt/Lt, one node name per `matchFields` requirement.

    ## References
    kubernetes/kubernetes staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go
    (LazyErrorNodeSelector); pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go ("Ignore parsing errors")
    """
    for source in document_pod_sources(doc):
        terms = value_at(source.spec, _TERMS)
        if not isinstance(terms, list):
            continue
        broken = [(i, errors) for i, term in enumerate(terms)
                  if isinstance(term, dict) and (errors := node_selector_term_errors(term))]
        for index, errors in broken:
            alone = "; no other term can match: the pod can never be scheduled" if len(broken) == len(terms) else ""
            why = errors[0].split(" (e.g. ")[0]  # the validation text without its examples and regex
            yield Problem((*source.spec_path, *_TERMS, index), f"this node selector term matches no node: {why}{alone}",
                          "fix the value so it parses as the scheduler requires (see `kubectl wasdra rules FIT010`)")
