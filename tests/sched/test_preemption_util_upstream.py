"""Upstream pkg/scheduler/util tests (TestMoreImportantPod, TestGetEarliestPodStartTime), ported as data in
fixtures/sched/preemption/util.yaml, run against victims.more_important and preemption.earliest_top_start."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from builders import pod

from kubectl_wasdra.sched.podinfo import PodInfo, build_pod_info
from kubectl_wasdra.sched.preemption import earliest_top_start
from kubectl_wasdra.sched.victims import Unit, more_important

TABLE = Path(__file__).resolve().parents[2] / "fixtures" / "sched" / "preemption" / "util.yaml"
CASES = yaml.safe_load(TABLE.read_text())["cases"]


def _pod(spec: list) -> PodInfo:
    name, priority, start = spec
    manifest = pod(name, priority=priority, node_name="n1")
    if start:
        manifest["status"]["startTime"] = start
    return build_pod_info(manifest, priority)


@pytest.mark.parametrize("case", [c for c in CASES if c["test"] == "TestMoreImportantPod"], ids=lambda c: c["name"])
def test_more_important_pod(case):
    first, second = _pod(case["p1"]), _pod(case["p2"])
    assert more_important(Unit((first,), first.priority), Unit((second,), second.priority)) is case["more_important"]


@pytest.mark.parametrize("case", [c for c in CASES if c["test"] == "TestGetEarliestPodStartTime"],
                         ids=lambda c: c["name"])
def test_get_earliest_pod_start_time(case):
    assert earliest_top_start([_pod(spec) for spec in case["pods"]]) == case["earliest"]
