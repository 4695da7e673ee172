"""No silent gap in the live path: a list body that is no well-formed list, a kind past its object cap, an endless
run of pages and retries past the read's budget each become a gap naming the reason, never a short list and a
confident verdict (cluster/live_limits.py). Every server is the local fake; sleeps are recorded, not slept."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_apiserver import FakeApiServer, Fault, serve, write_kubeconfig

from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.live import LiveOptions, read_live
from kubectl_wasdra.cluster.live_limits import RETRY_BUDGET, RETRY_WAIT_CAP

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "clusters" / "two-racks"
NODES = "/api/v1/nodes"


@pytest.fixture(scope="module")
def offline():
    snapshot, problems = load_snapshot([str(FIXTURE)])
    assert problems == ()
    return snapshot


def _read(tmp_path: Path, offline, faults: dict[str, Fault], sleeps: list[float] | None = None, **extra: object):
    kubeconfig = tmp_path / "kubeconfig"
    server = FakeApiServer(objects=offline.objects, faults=faults)
    with serve(server) as url:
        write_kubeconfig(str(kubeconfig), url, "token")
        options = LiveOptions(kubeconfig=str(kubeconfig), context="fake", page_size=3,
                              sleep=(sleeps if sleeps is not None else []).append, **extra)  # type: ignore[arg-type]
        return read_live(options)


MALFORMED = {
    "integer-token": {"kind": "NodeList", "metadata": {"continue": 1, "remainingItemCount": 99}, "items": []},
    "status-on-200": {"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": "etcd is gone"},
    "items-not-a-list": {"kind": "NodeList", "metadata": {}, "items": {"a": 1}},
    "remaining-without-token": {"kind": "NodeList", "metadata": {"remainingItemCount": 7}, "items": []},
    "another-kind": {"kind": "PodList", "metadata": {}, "items": []},
    "no-list-at-all": {"metadata": {}},
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_body_that_is_no_well_formed_list_is_a_gap(case: str, tmp_path: Path, offline) -> None:
    live = _read(tmp_path, offline, {NODES: Fault(body=MALFORMED[case], times=99)}, kinds=("Node", "Namespace"))
    assert "Node" in live.header.gaps and live.of_kind("Node") == ()
    assert len(live.of_kind("Namespace")) == 2


def test_a_kind_past_the_object_cap_is_a_gap(tmp_path: Path, offline) -> None:
    live = _read(tmp_path, offline, {}, kinds=("Node", "Namespace"), max_objects=5)
    assert live.header.gaps["Node"] == "not read in full: more than 5 objects (--max-objects)"
    assert len(live.of_kind("Namespace")) == 2


def test_a_fresh_continue_token_on_every_page_ends_at_the_page_cap(tmp_path: Path, offline) -> None:
    live = _read(tmp_path, offline, {NODES: Fault(fresh_continue=True, times=10**6)}, kinds=("Node",), max_objects=30)
    assert live.header.gaps["Node"].startswith("not read in full: 31 pages and 0 objects")


@pytest.mark.parametrize("retry_after", ["100000", "Fri, 31 Dec 9999 23:59:59 GMT"])
def test_retries_are_capped_per_wait_and_in_all(retry_after: str, tmp_path: Path, offline) -> None:
    kinds = ("Node", "Pod", "Namespace", "PriorityClass", "Job", "ResourceSlice")
    faults = {path: Fault(status=429, retry_after=retry_after, times=10**6) for path in (
        NODES, "/api/v1/pods", "/api/v1/namespaces", "/apis/scheduling.k8s.io/v1/priorityclasses", "/apis/batch/v1/jobs",
        "/apis/resource.k8s.io/v1/resourceslices")}
    sleeps: list[float] = []
    live = _read(tmp_path, offline, faults, sleeps, kinds=kinds)
    assert max(sleeps) <= RETRY_WAIT_CAP and sum(sleeps) <= RETRY_BUDGET
    assert set(live.header.gaps) >= set(kinds)
    assert any(f"may wait {RETRY_BUDGET:g}s in all, and that was spent" in gap for gap in live.header.gaps.values())
