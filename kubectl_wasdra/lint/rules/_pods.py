"""Where pods come from in a manifest set: bare Pods and the pod templates of controllers, with how many pods each
creates at once. Shared by the REF, GANG and FIT families.

Upstream: kubernetes/kubernetes pkg/controller/{job,deployment,replicaset,statefulset} (replicas and parallelism
default to 1; a Job runs min(parallelism, completions) pods at once), kubernetes-sigs/jobset api/jobset/v1alpha2
(replicatedJobs[].replicas), kubernetes-sigs/lws api/leaderworkerset/v1 (replicas x leaderWorkerTemplate.size).

Custom kinds understood (their pod templates and replica counts are plain fields): JobSet and LeaderWorkerSet (any
group), Kubeflow training-operator v1 jobs (kubeflow.org PyTorchJob, TFJob, MPIJob, XGBoostJob, PaddleJob, JAXJob:
`spec.<x>ReplicaSpecs.<role>.{replicas (default 1), template}`; kubeflow/training-operator pkg/apis/kubeflow.org/v1)
and Volcano jobs (batch.volcano.sh Job: `spec.tasks[].{replicas, template}`; volcano-sh/apis pkg/apis/batch/v1alpha1).
Kubeflow Trainer v2 TrainJob is not: its pods come from a (Cluster)TrainingRuntime's JobSet template with
`trainer.numNodes` overriding sizes, so no pod template is in the TrainJob itself.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.lint.copies import one_per_identity, position_key
from kubectl_wasdra.lint.docset import DocumentSet
from kubectl_wasdra.lint.rules.validation._base import as_dict, as_list
from kubectl_wasdra.load import Document, Path

# kind -> (path of the pod template spec, path of the replica count); count None = unknown (DaemonSet, PodTemplate)
_TEMPLATED: Final[Mapping[str, tuple[Path, Path | None]]] = {
    "Deployment": (("spec", "template"), ("spec", "replicas")),
    "ReplicaSet": (("spec", "template"), ("spec", "replicas")),
    "StatefulSet": (("spec", "template"), ("spec", "replicas")),
    "ReplicationController": (("spec", "template"), ("spec", "replicas")),
    "DaemonSet": (("spec", "template"), None),
    "PodTemplate": (("template",), None),
}


@dataclass(frozen=True)
class PodSource:
    """A pod spec in the manifests: its document, the path of the pod template (`()` for a Pod), the pod count the
    owner creates at once (None when unknown) and where that count is written."""

    document: Document
    path: Path
    spec: Mapping[str, Any]
    meta: Mapping[str, Any]
    count: int | None
    count_path: Path
    owner: str

    @property
    def spec_path(self) -> Path:
        """Path of the pod spec inside the document."""
        return (*self.path, "spec")

    @property
    def namespace(self) -> str | None:
        """The namespace the pods are created in (the owner's), None when the manifest leaves it to kubectl."""
        return self.document.namespace

    @property
    def label(self) -> str:
        """'Deployment "web"' or 'Pod "p"', for messages (user-supplied names in double quotes, as kubectl prints them)."""
        return f'{self.owner} "{self.document.name or "?"}"'

    @property
    def group_name(self) -> str | None:
        """spec.schedulingGroup.podGroupName, or None."""
        group = self.spec.get("schedulingGroup")
        name = group.get("podGroupName") if isinstance(group, dict) else None
        return name if isinstance(name, str) and name else None


# Kubeflow training-operator v1 job kinds -> the field holding {role: {replicas, template}}
KUBEFLOW_REPLICA_SPECS: Final[Mapping[str, str]] = {
    "PyTorchJob": "pytorchReplicaSpecs", "TFJob": "tfReplicaSpecs", "MPIJob": "mpiReplicaSpecs",
    "XGBoostJob": "xgbReplicaSpecs", "PaddleJob": "paddleReplicaSpecs", "JAXJob": "jaxReplicaSpecs",
}
KUBEFLOW_GROUP: Final = "kubeflow.org"
VOLCANO_BATCH_GROUP: Final = "batch.volcano.sh"

# kinds whose name other API groups reuse (Volcano, KAI and coscheduling PodGroups ...): only these groups count
BUILTIN_GROUPS: Final[Mapping[str, str]] = {
    "PodGroup": "scheduling.k8s.io", "Workload": "scheduling.k8s.io", "CompositePodGroup": "scheduling.k8s.io",
    "PriorityClass": "scheduling.k8s.io", "ResourceClaim": "resource.k8s.io", "ResourceClaimTemplate": "resource.k8s.io",
    "DeviceClass": "resource.k8s.io", "Job": "batch", "CronJob": "batch", "Pod": "", "Deployment": "apps",
    "StatefulSet": "apps", "ReplicaSet": "apps", "DaemonSet": "apps", "HorizontalPodAutoscaler": "autoscaling",
}


def is_builtin(document: Document) -> bool:
    """False for a document whose kind is a Kubernetes kind name but whose API group is another one."""
    wanted = BUILTIN_GROUPS.get(document.kind or "")
    return wanted is None or document.group == wanted


def is_volcano_job(document: Document) -> bool:
    return document.kind == "Job" and document.group == VOLCANO_BATCH_GROUP


def of_kind(docs: DocumentSet, kind: str) -> tuple[Document, ...]:
    """docs.of_kind(kind) without look-alike kinds of other API groups."""
    return tuple(d for d in docs.of_kind(kind) if is_builtin(d))


def _int(value: Any, default: int) -> int | None:
    if value is None:
        return default
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def job_pod_count(job_spec: Mapping[str, Any]) -> int | None:
    """Pods a Job runs at once: parallelism (default 1), capped by completions when set."""
    parallelism = _int(job_spec.get("parallelism"), 1)
    completions = job_spec.get("completions")
    if parallelism is None:
        return None
    if isinstance(completions, int) and not isinstance(completions, bool) and completions >= 0:
        return min(parallelism, completions)
    return parallelism


def _source(document: Document, path: Path, count: int | None, count_path: Path, owner: str) -> PodSource | None:
    template = document.get(path)
    if not isinstance(template, dict):
        return None
    spec = template.get("spec")
    meta = template.get("metadata")
    if not isinstance(spec, dict):
        return None
    return PodSource(document, path, spec, meta if isinstance(meta, dict) else {}, count, count_path, owner)


def _job_sources(document: Document) -> Iterator[PodSource | None]:
    kind = document.kind
    if kind == "Job":
        spec = document.get(("spec",), {})
        yield _source(document, ("spec", "template"), job_pod_count(spec if isinstance(spec, dict) else {}),
                      ("spec", "parallelism"), "Job")
    elif kind == "CronJob":
        spec = document.get(("spec", "jobTemplate", "spec"), {})
        yield _source(document, ("spec", "jobTemplate", "spec", "template"),
                      job_pod_count(spec if isinstance(spec, dict) else {}), ("spec", "jobTemplate", "spec", "parallelism"),
                      "CronJob")
    elif kind == "JobSet":
        for index, replicated in enumerate(as_list(document.get(("spec", "replicatedJobs")))):
            if not isinstance(replicated, dict):
                continue
            job_spec = as_dict(as_dict(replicated.get("template")).get("spec"))
            replicas, per_job = _int(replicated.get("replicas"), 1), job_pod_count(job_spec)
            count = replicas * per_job if replicas is not None and per_job is not None else None
            yield _source(document, ("spec", "replicatedJobs", index, "template", "spec", "template"), count,
                          ("spec", "replicatedJobs", index, "replicas"), "JobSet")


def _lws_sources(document: Document) -> Iterator[PodSource | None]:
    replicas = _int(document.get(("spec", "replicas")), 1)
    size = _int(document.get(("spec", "leaderWorkerTemplate", "size")), 1)
    has_leader = isinstance(document.get(("spec", "leaderWorkerTemplate", "leaderTemplate")), dict)
    known = replicas is not None and size is not None
    if has_leader:
        yield _source(document, ("spec", "leaderWorkerTemplate", "leaderTemplate"), replicas, ("spec", "replicas"),
                      "LeaderWorkerSet")
    workers = (replicas * (size - 1 if has_leader else size)) if known else None  # type: ignore[operator]
    yield _source(document, ("spec", "leaderWorkerTemplate", "workerTemplate"), workers,
                  ("spec", "leaderWorkerTemplate", "size"), "LeaderWorkerSet")


def _kubeflow_sources(document: Document, field: str) -> Iterator[PodSource | None]:
    for role, replica_spec in as_dict(document.get(("spec", field))).items():
        replicas = _int(as_dict(replica_spec).get("replicas"), 1)
        yield _source(document, ("spec", field, role, "template"), replicas, ("spec", field, role, "replicas"),
                      document.kind or "")


def _volcano_sources(document: Document) -> Iterator[PodSource | None]:
    for index, task in enumerate(as_list(document.get(("spec", "tasks")))):
        replicas = as_dict(task).get("replicas")
        count = replicas if isinstance(replicas, int) and not isinstance(replicas, bool) and replicas >= 0 else None
        yield _source(document, ("spec", "tasks", index, "template"), count, ("spec", "tasks", index, "replicas"),
                      "Volcano Job")


def document_pod_sources(document: Document) -> Iterator[PodSource]:
    """The pod specs one document defines (none for kinds that hold no pods)."""
    kind = document.kind
    found: Iterator[PodSource | None]
    if is_volcano_job(document):
        found = _volcano_sources(document)
    elif kind in KUBEFLOW_REPLICA_SPECS and document.group == KUBEFLOW_GROUP:
        found = _kubeflow_sources(document, KUBEFLOW_REPLICA_SPECS[kind])
    elif kind == "Pod":
        found = iter([_source(document, (), 1, (), "Pod")])
    elif kind in _TEMPLATED:
        template_path, count_path = _TEMPLATED[kind]
        count = _int(document.get(count_path), 1) if count_path else None
        found = iter([_source(document, template_path, count, count_path or (), kind)])
    elif kind == "LeaderWorkerSet":
        found = _lws_sources(document)
    else:
        found = _job_sources(document)
    yield from (source for source in found if source is not None)


@functools.lru_cache(maxsize=8)
def builtin_documents(docs: DocumentSet) -> tuple[Document, ...]:
    """The built-in (and Volcano) documents in position order (lint/copies.py), every copy of a redefined object
    included; computed once per DocumentSet."""
    return tuple(sorted((d for d in docs if is_builtin(d) or is_volcano_job(d)), key=position_key))


@functools.lru_cache(maxsize=8)
def latest_documents(docs: DocumentSet) -> tuple[Document, ...]:
    """The built-in (and Volcano) documents with one copy per object: where several define the same object, the one
    whose (file, position) sorts last, as `kubectl apply -R` over the sorted tree would leave it, whatever the input
    order (lint/copies.py); documents without a name are all kept. For rules that must count an object once."""
    return one_per_identity(builtin_documents(docs))


@functools.lru_cache(maxsize=8)
def pod_sources(docs: DocumentSet) -> tuple[PodSource, ...]:
    """Every pod source of the set, every copy of a redefined object included (each is checked on its own), in
    position order; computed once per DocumentSet (hashed by identity) and shared by every set rule of the run."""
    return tuple(source for document in builtin_documents(docs) for source in document_pod_sources(document))


def containers(spec: Mapping[str, Any]) -> Iterator[tuple[str, int, Mapping[str, Any]]]:
    """(list field, index, container) for containers, initContainers and ephemeralContainers."""
    for field in ("initContainers", "containers", "ephemeralContainers"):
        items = spec.get(field)
        if isinstance(items, list):
            for index, container in enumerate(items):
                if isinstance(container, dict):
                    yield field, index, container


def pod_claims(spec: Mapping[str, Any]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """(index, entry) of spec.resourceClaims."""
    items = spec.get("resourceClaims")
    if isinstance(items, list):
        for index, entry in enumerate(items):
            if isinstance(entry, dict):
                yield index, entry
