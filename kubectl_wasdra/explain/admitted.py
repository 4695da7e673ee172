"""What of the manifests reaches kube-scheduler. Objects the API server would reject (the same SCHEMA and VALID
error rules as `check`) are never created, and pods whose `schedulerName` is another scheduler are never seen by
kube-scheduler: both are taken out of the simulation and reported for what they are, never as "fits".

Upstream: k8s.io/api core/v1 DefaultSchedulerName ("default-scheduler", the profile `explain` simulates);
kube-scheduler only takes pods whose schedulerName names one of its profiles (pkg/scheduler/eventhandlers.go,
responsibleForPod).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.explain.model import GroupDiagnosis, ReasonItem
from kubectl_wasdra.lint.rules._pods import is_builtin
from kubectl_wasdra.load import Document
from kubectl_wasdra.reasons import Reason
from kubectl_wasdra.sched.profiles import NOT_SCHEDULED

DEFAULT_SCHEDULER: Final = "default-scheduler"
REJECTING_FAMILIES: Final = ("SCHEMA", "VALID")   # API001/API002 (not served) are the simulator's APINotServed


@dataclass(frozen=True)
class Admitted:
    """The documents to simulate, and the diagnoses of those left out (invalid, or another scheduler's)."""

    documents: tuple[Document, ...]
    left_out: tuple[GroupDiagnosis, ...]
    notes: tuple[str, ...] = ()


def _rejector(release: Release, feature_gates: Mapping[str, bool],
              runtime_config: Mapping[str, bool]) -> Callable[[Document], list[Any]]:
    """A function giving the error findings of `check`'s SCHEMA and VALID rules for one document (rule crashes
    excluded: they say nothing about the object)."""
    from kubectl_wasdra.lint.codes import Severity
    from kubectl_wasdra.lint.pipeline import INTERNAL_ERROR_HINT, CheckOptions, document_findings
    from kubectl_wasdra.lint.registry import all_rules

    rules = [r for r in all_rules() if r.scope == "document" and r.info.family in REJECTING_FAMILIES]
    ctx = CheckOptions(paths=(), releases=(release,), feature_gates=feature_gates, runtime_config=runtime_config,
                       ).context(release)

    def rejections(document: Document) -> list[Any]:
        return [f for f in document_findings([document], rules, ctx)
                if f.severity is Severity.ERROR and f.hint != INTERNAL_ERROR_HINT]

    return rejections


def _invalid(document: Document, namespace: str, findings: Sequence[Any]) -> GroupDiagnosis:
    reasons = [ReasonItem(Reason.OBJECT_INVALID.value,
                          f"rejected by the API server: {f.path + ': ' if f.path else ''}{f.message} "
                          f"({f.rule} at {f.file}:{f.line}:{f.column})", None,
                          {"rule": f.rule, "path": f.path, "file": f.file, "line": f.line, "column": f.column})
               for f in sorted(findings, key=lambda f: (f.line, f.column, f.rule))]
    return GroupDiagnosis(document.kind or "", namespace, document.name or "", False, reasons=reasons,
                          scheduler_record="nowhere: the API server rejects the object, so it is never created")


def pod_spec(document: Document) -> Mapping[str, Any] | None:
    """The pod spec of a Pod or of a Job's template (the objects the simulator turns into pods), else None."""
    path = ("spec",) if document.kind == "Pod" else ("spec", "template", "spec") if document.kind == "Job" else None
    spec = document.get(path) if path else None
    return spec if isinstance(spec, dict) else None


def scheduler_of(document: Document, schedulers: frozenset[str]) -> str | None:
    """The schedulerName of a Pod or Job template when no simulated profile has it, else None."""
    spec = pod_spec(document)
    name = spec.get("schedulerName") if spec is not None else None
    return name if isinstance(name, str) and name and name not in schedulers else None


def _group_of(document: Document) -> str | None:
    spec = pod_spec(document) or {}
    group = spec.get("schedulingGroup")
    name = group.get("podGroupName") if isinstance(group, dict) else None
    if document.kind == "Job" and isinstance(document.get(("spec", "scheduling")), dict):
        name = name or document.name  # the Job controller's own PodGroup
    return name if isinstance(name, str) and name else None


def _other_scheduler(document: Document, namespace: str, scheduler: str, schedulers: frozenset[str]) -> GroupDiagnosis:
    message = NOT_SCHEDULED.format(name=scheduler, profiles=", ".join(f'"{name}"' for name in sorted(schedulers)))
    reason = ReasonItem(Reason.OTHER_SCHEDULER.value, message, None, {"schedulerName": scheduler})
    return GroupDiagnosis(document.kind or "", namespace, document.name or "", False, reasons=[reason],
                          scheduler_record=f"nowhere: {scheduler} places these pods", simulated=False)


def admit(documents: Sequence[Document], release: Release, feature_gates: Mapping[str, bool],
          runtime_config: Mapping[str, bool], kinds: Sequence[str],
          schedulers: frozenset[str] = frozenset({DEFAULT_SCHEDULER}), namespace: str | None = None) -> Admitted:
    """Split the documents of `kinds` (those the simulator reads) into what kube-scheduler would see and what it
    would not; other documents pass through untouched. `schedulers` are the schedulerNames of the simulated profiles
    (--scheduler-config, else kube-scheduler's "default-scheduler"); objects that name no namespace are created in
    `namespace` (as by `kubectl apply -n`; None: "default")."""
    rejections = _rejector(release, feature_gates, runtime_config)

    def namespace_of(document: Document) -> str:
        return document.namespace or namespace or "default"

    kept: list[Document] = []
    left_out: list[GroupDiagnosis] = []
    foreign_groups: dict[tuple[str, str], str] = {}
    default_groups: set[tuple[str, str]] = set()
    notes: list[str] = []
    for document in documents:
        if document.kind in kinds and not is_builtin(document):
            notes.append(f'{document.kind} "{document.name}" of {document.api_version} left out: not the Kubernetes '
                         "kind the simulator reads (another system's object of the same name)")
            continue
        findings = rejections(document) if document.kind in kinds else []
        scheduler = scheduler_of(document, schedulers)
        group = _group_of(document)
        if findings:
            left_out.append(_invalid(document, namespace_of(document), findings))
        elif scheduler is not None:
            left_out.append(_other_scheduler(document, namespace_of(document), scheduler, schedulers))
            if group:
                foreign_groups.setdefault((namespace_of(document), group), scheduler)
        else:
            kept.append(document)
            if group and pod_spec(document) is not None:
                default_groups.add((namespace_of(document), group))
    # a PodGroup whose pods all belong to another scheduler is that scheduler's too: kube-scheduler never sees it
    only_foreign = {key: name for key, name in foreign_groups.items() if key not in default_groups}
    final: list[Document] = []
    for document in kept:
        scheduler = only_foreign.get((namespace_of(document), document.name or "")) \
            if document.kind in ("PodGroup", "CompositePodGroup") else None
        if scheduler is not None:
            left_out.append(_other_scheduler(document, namespace_of(document), scheduler, schedulers))
        else:
            final.append(document)
    return Admitted(tuple(final), tuple(left_out), tuple(notes))
