"""restartPolicy as kube-apiserver validates it: the core value set for every pod spec, OnFailure/Never for Jobs
(and Never alone with a podFailurePolicy), Always alone for the other workload controllers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.lint.rules.validation._base import Check
from kubectl_wasdra.lint.rules.validation.rules import validate

WEBSITE = Path(__file__).resolve().parents[4] / "tests/corpus/realworld/kubernetes__website/content/en/examples"
R137 = Release(1, 37)


def _template(policy: str | None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "i"}]}
    if policy is not None:
        spec["restartPolicy"] = policy
    return {"metadata": {"labels": {"a": "b"}}, "spec": spec}


def _job(policy: str | None, **job_spec: Any) -> dict[str, Any]:
    return {"metadata": {"name": "j"}, "spec": {"template": _template(policy), **job_spec}}


def _found(data: dict[str, Any], api_version: str, kind: str) -> list[tuple[Check, tuple[str | int, ...]]]:
    return [(v.check, v.path) for v in validate(data, api_version, kind, R137)]


JOB_POLICY = ("spec", "template", "spec", "restartPolicy")


@pytest.mark.parametrize("policy", [None, "", "Always"])
def test_a_job_whose_pods_would_restart_always_is_rejected(policy: str | None) -> None:
    assert _found(_job(policy), "batch/v1", "Job") == [(Check.REQUIRED, JOB_POLICY)]


@pytest.mark.parametrize("policy", ["Never", "OnFailure"])
def test_a_job_with_never_or_on_failure_is_accepted(policy: str) -> None:
    assert _found(_job(policy), "batch/v1", "Job") == []


def test_pod_failure_policy_needs_never() -> None:
    rules = {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [42]}}]}
    assert _found(_job("OnFailure", podFailurePolicy=rules), "batch/v1", "Job") == [(Check.INVALID_VALUE, JOB_POLICY)]
    assert _found(_job("Never", podFailurePolicy=rules), "batch/v1", "Job") == []


def test_cron_job_template_is_a_job_template() -> None:
    cron = {"metadata": {"name": "c"}, "spec": {"schedule": "* * * * *", "jobTemplate": {"spec": {
        "template": _template(None)}}}}
    assert _found(cron, "batch/v1", "CronJob") == [
        (Check.REQUIRED, ("spec", "jobTemplate", "spec", "template", "spec", "restartPolicy"))]


@pytest.mark.parametrize("kind", ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"])
def test_other_controllers_accept_only_always(kind: str) -> None:
    def workload(policy: str | None) -> dict[str, Any]:
        return {"metadata": {"name": "w"}, "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": _template(policy)}}

    assert _found(workload("Never"), "apps/v1", kind) == [(Check.ENUM, ("spec", "template", "spec", "restartPolicy"))]
    assert _found(workload("Always"), "apps/v1", kind) == _found(workload(None), "apps/v1", kind) == []


def test_a_value_outside_the_set_is_one_finding_even_in_a_job() -> None:
    pod = {"metadata": {"name": "p"}, "spec": _template("Sometimes")["spec"]}
    assert _found(pod, "v1", "Pod") == [(Check.ENUM, ("spec", "restartPolicy"))]
    assert _found(_job("Sometimes"), "batch/v1", "Job") == [(Check.ENUM, JOB_POLICY)]
    assert _found({"metadata": {"name": "p"}, "spec": _template("")["spec"]}, "v1", "Pod") == []


def test_website_success_policy_example_lacks_name_and_restart_policy() -> None:
    data = yaml.safe_load((WEBSITE / "controllers/job-success-policy-example.yaml").read_text())
    assert sorted(_found(data, "batch/v1", "Job")) == [(Check.REQUIRED, ("metadata", "name")), (Check.REQUIRED, JOB_POLICY)]


def test_website_jobs_with_restart_policy_pass() -> None:
    for name in ("job-backoff-limit-per-index-failindex.yaml", "job-pod-failure-policy-config-issue.yaml"):
        data = yaml.safe_load((WEBSITE / "controllers" / name).read_text())
        assert _found(data, "batch/v1", "Job") == [], name


def test_a_job_without_a_pod_template_is_left_to_the_schema() -> None:
    assert _found({"metadata": {"name": "j"}, "spec": {}}, "batch/v1", "Job") == []
