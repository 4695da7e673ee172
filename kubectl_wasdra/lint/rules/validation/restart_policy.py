"""VALID checks of a pod's `restartPolicy` and of the restart policies each workload controller allows.

Upstream (release-1.33 .. release-1.37), kubernetes/kubernetes:
- pkg/apis/core/validation/validation.go validateRestartPolicy: Always, OnFailure or Never ("Unsupported value").
- pkg/apis/batch/validation/validation.go validateJobSpec (Jobs and CronJob job templates): the defaulted Always is
  "Required value: valid values: OnFailure, Never"; with a podFailurePolicy only Never is accepted.
- pkg/apis/apps/validation/validation.go (Deployment, ReplicaSet, StatefulSet, DaemonSet) and
  pkg/apis/core/validation/validation.go ValidatePodTemplateSpecForRC: only Always.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from kubectl_wasdra.lint.rules.validation._base import Check, Path, Violation, as_dict

POLICIES: Final = ("Always", "OnFailure", "Never")
JOB_SPECS: Final[dict[tuple[str, str], Path]] = {("batch", "Job"): ("spec",),
                                                  ("batch", "CronJob"): ("spec", "jobTemplate", "spec")}
ALWAYS_ONLY: Final = frozenset({("apps", "Deployment"), ("apps", "ReplicaSet"), ("apps", "StatefulSet"),
                                ("apps", "DaemonSet"), ("", "ReplicationController")})


def validate_restart_policy(data: dict[str, Any], group: str, kind: str, spec_path: Path) -> Iterator[Violation]:
    """One violation at most per pod spec: the core value set first, then what the owning controller accepts."""
    spec: Any = data
    for step in spec_path:
        spec = as_dict(spec).get(step)
    if not isinstance(spec, dict):
        return   # no pod template: the schema reports what is missing
    policy = spec.get("restartPolicy") or None   # SetDefaults_PodSpec turns "" into Always too
    if policy is not None and not isinstance(policy, str):
        return   # a wrong type is the schema's finding
    path = (*spec_path, "restartPolicy")
    if policy is not None and policy not in POLICIES:
        yield Violation(Check.ENUM, path, f'unsupported restartPolicy "{policy}"',
                        hint="use one of: " + ", ".join(POLICIES), at="value")
    elif (group, kind) in JOB_SPECS:
        yield from _job(data, JOB_SPECS[(group, kind)], policy, path)
    elif (group, kind) in ALWAYS_ONLY and policy not in (None, "Always"):
        yield Violation(Check.ENUM, path, f'a {kind} accepts only restartPolicy "Always", not "{policy}"',
                        hint="remove restartPolicy (it defaults to Always); use a Job for pods that should finish",
                        at="value")


def _job(data: dict[str, Any], job_spec: Path, policy: Any, path: Path) -> Iterator[Violation]:
    if policy in (None, "Always"):
        what = "is not set, so it defaults to Always" if policy is None else 'is "Always"'
        yield Violation(Check.REQUIRED, path, f"a Job's pod template needs restartPolicy OnFailure or Never; it {what}",
                        hint="add `restartPolicy: Never` (or OnFailure) to the pod template spec")
        return
    spec: Any = data
    for step in job_spec:
        spec = as_dict(spec).get(step)
    if policy == "OnFailure" and as_dict(spec).get("podFailurePolicy") is not None:
        yield Violation(Check.INVALID_VALUE, path, 'only "Never" is supported when podFailurePolicy is specified',
                        hint="set `restartPolicy: Never`, or drop podFailurePolicy", at="value")
