"""Effective pod requests (component-helpers PodRequests) and node allocatable."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_wasdra.kube.resources import is_terminal, node_allocatable, pod_requests


def _c(name: str, requests: dict | None = None, limits: dict | None = None, restart: str | None = None) -> dict:
    container: dict = {"name": name, "resources": {}}
    if requests:
        container["resources"]["requests"] = requests
    if limits:
        container["resources"]["limits"] = limits
    if restart:
        container["restartPolicy"] = restart
    return container


def _pod(containers: list, init: list | None = None, **spec: object) -> dict:
    return {"spec": {"containers": containers, "initContainers": init or [], **spec}}


D = Decimal
CASES = [
    pytest.param(_pod([_c("a", {"cpu": "1", "memory": "1Gi"}), _c("b", {"cpu": "500m"})]),
                 {"cpu": D("1.5"), "memory": D(2**30)}, id="sum-of-app-containers"),
    pytest.param(_pod([_c("a", {"cpu": "1"})], [_c("i", {"cpu": "2"})]), {"cpu": D(2)}, id="init-container-peak"),
    pytest.param(_pod([_c("a", {"cpu": "1"})], [_c("s", {"cpu": "1"}, restart="Always"), _c("i", {"cpu": "1500m"})]),
                 {"cpu": D("2.5")}, id="sidecar-started-before-init-adds-to-its-peak"),
    pytest.param(_pod([_c("a", {"cpu": "1"})], [_c("i", {"cpu": "1500m"}), _c("s", {"cpu": "1"}, restart="Always")]),
                 {"cpu": D(2)}, id="sidecar-after-init-only-adds-to-app"),
    pytest.param(_pod([_c("a", limits={"nvidia.com/gpu": "2", "cpu": "1"})]),
                 {"nvidia.com/gpu": D(2), "cpu": D(1)}, id="limits-default-requests"),
    pytest.param(_pod([_c("a", {"cpu": "1"})], overhead={"cpu": "250m", "memory": "120Mi"}),
                 {"cpu": D("1.25"), "memory": D(120 * 2**20)}, id="overhead-added"),
    pytest.param(_pod([_c("a", {"cpu": "1", "example.com/foo": "1"}), _c("b", {"cpu": "1"})],
                      resources={"requests": {"cpu": "4", "example.com/foo": "9"}}),
                 {"cpu": D(4), "example.com/foo": D(1)}, id="pod-level-requests-replace-cpu-only"),
    pytest.param(_pod([_c("a")], resources={"limits": {"memory": "2Gi"}}), {"memory": D(2 * 2**30)},
                 id="pod-level-limit-defaults-request"),
    pytest.param(_pod([_c("a", {"cpu": "1"})], overhead={"cpu": "100m"}, resources={"requests": {"cpu": "2"}}),
                 {"cpu": D("2.1")}, id="overhead-on-top-of-pod-level"),
]


@pytest.mark.parametrize(("pod", "expected"), CASES)
def test_pod_requests(pod: dict, expected: dict) -> None:
    assert pod_requests(pod) == expected


def test_in_place_resize_status_counts_the_larger_value() -> None:
    pod = _pod([_c("a", {"cpu": "1"})])
    status = {"name": "a", "allocatedResources": {"cpu": "2"}, "resources": {"requests": {"cpu": "2"}}}
    pod["status"] = {"containerStatuses": [status]}
    assert pod_requests(pod) == {"cpu": D(2)}
    assert pod_requests(pod, use_status_resources=False) == {"cpu": D(1)}
    pod["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "3"
    assert pod_requests(pod) == {"cpu": D(3)}
    pod["status"]["conditions"] = [{"type": "PodResizePending", "reason": "Infeasible"}]
    assert pod_requests(pod) == {"cpu": D(2)}


def test_node_allocatable_and_terminal() -> None:
    node = {"status": {"allocatable": {"cpu": "7910m", "memory": "31Gi", "pods": "110"}, "capacity": {"cpu": "8"}}}
    assert node_allocatable(node) == {"cpu": D("7.91"), "memory": D(31 * 2**30), "pods": D(110)}
    assert node_allocatable({"status": {"capacity": {"cpu": "8"}}}) == {}
    assert is_terminal({"status": {"phase": "Succeeded"}}) and not is_terminal({"status": {"phase": "Running"}})

_MILLI = st.integers(min_value=0, max_value=64000)
_CONTAINER = st.builds(lambda cpu, sidecar: (cpu, sidecar), _MILLI, st.booleans())


@settings(max_examples=60, deadline=None)
@given(apps=st.lists(_MILLI, min_size=1, max_size=4), inits=st.lists(_CONTAINER, max_size=4), overhead=_MILLI)
def test_effective_cpu_bounds(apps: list[int], inits: list[tuple[int, bool]], overhead: int) -> None:
    """The sidecar-aware maximum: never below the app containers plus all sidecars, never below any init container
    plus the sidecars started before it, and exactly one of those plus the overhead."""
    pod = _pod([_c(f"a{i}", {"cpu": f"{cpu}m"}) for i, cpu in enumerate(apps)],
               [_c(f"i{i}", {"cpu": f"{cpu}m"}, restart="Always" if sidecar else None) for i, (cpu, sidecar) in enumerate(inits)],
               overhead={"cpu": f"{overhead}m"})
    steady = sum(apps) + sum(cpu for cpu, sidecar in inits if sidecar)
    peaks, started = [], 0
    for cpu, sidecar in inits:
        started += cpu if sidecar else 0
        peaks.append(started if sidecar else started + cpu)
    assert pod_requests(pod)["cpu"] == Decimal(max([steady, *peaks]) + overhead) / 1000


MI = 2**20
NONZERO_CASES = [
    pytest.param(_pod([_c("a")]), {"cpu": D("0.1"), "memory": D(200 * MI)}, id="no-requests-default-both"),
    pytest.param(_pod([_c("a", {"cpu": "1"}), _c("b")]), {"cpu": D("1.1"), "memory": D(400 * MI)},
                 id="defaults-per-container-not-per-pod"),
    pytest.param(_pod([_c("a", {"cpu": "1", "memory": "0"})]), {"cpu": D(1), "memory": D(0)},
                 id="explicit-zero-is-not-missing"),
    pytest.param(_pod([_c("a")], [_c("i", {"cpu": "2"})]), {"cpu": D(2), "memory": D(200 * MI)},
                 id="init-container-gets-defaults-too"),
    pytest.param(_pod([_c("a"), _c("b")], resources={"requests": {"cpu": "2"}}), {"cpu": D(2), "memory": D(400 * MI)},
                 id="pod-level-cpu-containers-still-default-memory"),
    pytest.param(_pod([_c("a")], overhead={"cpu": "250m"}), {"cpu": D("0.35"), "memory": D(200 * MI)},
                 id="overhead-added-after-defaults"),
]


@pytest.mark.parametrize(("pod", "expected"), NONZERO_CASES)
def test_pod_nonzero_requests(pod: dict, expected: dict) -> None:
    # framework/types.go PodInfo.CalculateResource: PodRequests with NonMissingContainerRequests (helpers.go
    # applyNonMissing adds 100m / 200Mi to each container that lacks the key)
    from kubectl_wasdra.kube.resources import pod_nonzero_requests

    got = pod_nonzero_requests(pod)
    assert {k: got.get(k, D(0)) for k in ("cpu", "memory")} == expected

