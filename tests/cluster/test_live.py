"""Live read against a local fake API server: discovery, pagination, 429 + Retry-After, 403 gap, slow response."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_apiserver import FakeApiServer, Fault, serve, write_kubeconfig

from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.cluster.live import LiveOptions, Progress, read_live
from kubectl_wasdra.errors import ClusterReadError, UsageError

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "clusters" / "two-racks"
TOKEN = "sekret-token-do-not-print"


@pytest.fixture(scope="module")
def offline():
    snapshot, problems = load_snapshot([str(FIXTURE)])
    assert problems == ()
    return snapshot


def _options(tmp_path: Path, url: str, sleeps: list[float], **extra: object) -> LiveOptions:
    kubeconfig = tmp_path / "kubeconfig"
    write_kubeconfig(str(kubeconfig), url, TOKEN)
    return LiveOptions(kubeconfig=str(kubeconfig), context="fake", page_size=3, sleep=sleeps.append,
                       **extra)  # type: ignore[arg-type]


def test_live_read_equals_offline_load_with_gaps(tmp_path: Path, offline) -> None:
    server = FakeApiServer(objects=offline.objects, faults={
        "/api/v1/pods": Fault(status=429, retry_after="2"),
        "/apis/resource.k8s.io/v1/devicetaintrules": Fault(status=403, times=99),
        "/api/v1/namespaces": Fault(delay=1.0),
    })
    sleeps: list[float] = []
    events: list[Progress] = []
    with serve(server) as url:
        live = read_live(_options(tmp_path, url, sleeps, request_timeout=0.3), events.append)
    expected = {kind: objs for kind, objs in offline.objects.items() if kind != "DeviceTaintRule"}
    assert dict(live.objects) == expected
    header = live.header
    assert header.server_version == "v1.37.0"
    assert "resource.k8s.io/v1" in header.served and "v1" in header.served
    assert header.gaps["DeviceTaintRule"].startswith("403 Forbidden")
    assert header.gaps["PodGroup"].startswith("not served")
    assert set(header.gaps) == {"DeviceTaintRule", "PodGroup", "Workload", "CompositePodGroup", "feature gates", "credentials",
                                "NodeResourceTopology"}
    assert header.gaps["feature gates"].startswith("403 Forbidden") and header.feature_gates == {}
    assert 2.0 in sleeps, "Retry-After must be honoured"
    assert len(sleeps) == 2, "one retry for the 429, one for the timed-out namespaces list"
    methods = {method for method, _ in server.requests}
    assert methods == {"GET"}
    paths = [path for _, path in server.requests]
    assert not [p for p in paths if "secrets" in p or "configmaps" in p]
    assert paths.count("/apis/resource.k8s.io/v1/resourceslices") == 6, "17 slices in pages of 3"
    assert Progress("ResourceSlice", 17, done=True) in events
    assert TOKEN not in repr(live.header)


def test_namespace_restricts_namespaced_kinds(tmp_path: Path, offline) -> None:
    server = FakeApiServer(objects=offline.objects)
    with serve(server) as url:
        live = read_live(_options(tmp_path, url, [], namespace="ml", kinds=("Node", "Pod")))
    assert {p["metadata"]["namespace"] for p in live.of_kind("Pod")} == {"ml"}
    assert len(live.of_kind("Node")) == 10
    assert "/api/v1/namespaces/ml/pods" in [path for _, path in server.requests]
    assert "ml" in live.header.gaps["Pod"]


def test_retries_are_capped_and_become_a_gap(tmp_path: Path, offline) -> None:
    server = FakeApiServer(objects=offline.objects, faults={"/api/v1/nodes": Fault(status=503, times=99, retry_after="999")})
    sleeps: list[float] = []
    with serve(server) as url:
        live = read_live(_options(tmp_path, url, sleeps, kinds=("Node", "Namespace"), max_attempts=3, backoff_cap=5,
                                retry_budget=20))
    assert live.header.gaps["Node"].startswith("gave up after 3 attempts: 503")
    assert sleeps == [5, 5]
    assert len(live.of_kind("Namespace")) == 2


def test_unreachable_cluster_and_bad_context(tmp_path: Path) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    write_kubeconfig(str(kubeconfig), "http://127.0.0.1:9", TOKEN)
    with pytest.raises(ClusterReadError) as info:
        read_live(LiveOptions(kubeconfig=str(kubeconfig), max_attempts=2, sleep=lambda _s: None))
    assert TOKEN not in str(info.value)
    with pytest.raises(UsageError):
        read_live(LiveOptions(kubeconfig=str(kubeconfig), context="missing"))


def test_snapshot_command_live_writes_a_loadable_file_and_lists_gaps(tmp_path: Path, offline) -> None:
    from click.testing import CliRunner

    from kubectl_wasdra.cli import cli

    server = FakeApiServer(objects=offline.objects)
    kubeconfig = tmp_path / "kubeconfig"
    out = tmp_path / "cluster.yaml"
    with serve(server) as url:
        write_kubeconfig(str(kubeconfig), url, TOKEN)
        result = CliRunner().invoke(cli, ["snapshot", "--live", "--kubeconfig", str(kubeconfig), "--context", "fake",
                                          "--output-file", str(out)], standalone_mode=False)
    assert result.exception is None, result.output
    assert "not read: PodGroup: not served" in result.output
    assert TOKEN not in result.output
    again, problems = load_snapshot([str(out)])
    assert problems == ()
    from kubectl_wasdra.cluster.allowlist import allowed_snapshot

    assert dict(again.objects) == dict(allowed_snapshot(offline).objects), "what the simulator reads, nothing else"
    assert again.header.server_version == "v1.37.0" and "PodGroup" in again.header.gaps


PENDING = Path(__file__).resolve().parents[2] / "fixtures" / "sched" / "pending"
_OTHER_EVENTS = (  # filtered out: another reason (by the server's field selector), another kind (client-side)
    {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "train-1.9", "namespace": "ml"},
     "involvedObject": {"kind": "Pod", "name": "train-1", "namespace": "ml"}, "reason": "Scheduled", "message": "x"},
    {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "node-a.1", "namespace": "default"},
     "involvedObject": {"kind": "Node", "name": "node-a"}, "reason": "FailedScheduling", "message": "y"},
)


@pytest.fixture(scope="module")
def pending():
    snapshot, problems = load_snapshot([str(PENDING)])
    assert problems == ()
    assert len(snapshot.of_kind("Event")) == 2
    return snapshot


def _pending_server(pending) -> FakeApiServer:
    from fake_apiserver import RESOURCES, SCHEDULING_V1BETA1

    objects = {**pending.objects, "Event": (*pending.of_kind("Event"), *_OTHER_EVENTS)}
    return FakeApiServer(objects=objects, resources={**RESOURCES, **SCHEDULING_V1BETA1})


def test_events_are_read_filtered_and_namespaced(tmp_path: Path, pending) -> None:
    server = _pending_server(pending)
    with serve(server) as url:
        live = read_live(_options(tmp_path, url, [], kinds=("Event", "PodGroup"), event_namespace="ml"))
    assert live.of_kind("Event") == pending.of_kind("Event")
    assert live.of_kind("PodGroup") == pending.of_kind("PodGroup")
    assert "Event" not in live.header.gaps, "the event namespace is a filter, not a gap"
    queries = [query for path, query in server.queries if path == "/api/v1/namespaces/ml/events"]
    assert queries and all("fieldSelector=reason%3DFailedScheduling" in query for query in queries)


def test_explain_pending_live_shows_the_recorded_event(tmp_path: Path, pending) -> None:
    from click.testing import CliRunner

    from kubectl_wasdra.cli import cli

    server = _pending_server(pending)
    kubeconfig = tmp_path / "kubeconfig"
    with serve(server) as url:
        write_kubeconfig(str(kubeconfig), url, TOKEN)
        result = CliRunner().invoke(cli, [
            "explain-pending", "podgroup/train", "-n", "ml", "--live", "--kubeconfig", str(kubeconfig), "--context", "fake",
            "--feature-gates", "GenericWorkload=true", "--runtime-config", "scheduling.k8s.io/v1beta1=true"],
            standalone_mode=False)
    assert result.exception is None and result.return_value == 1, result.output
    assert "2 Insufficient cpu. (event, FailedScheduling, 2026-11-29T21:50:00Z)" in result.output
    assert "agree:         yes" in result.output
    assert ("/api/v1/namespaces/ml/events") in [path for _, path in server.requests]
    assert {method for method, _ in server.requests} == {"GET"}


def test_anonymized_events_follow_pods_namespaces_and_nodes(pending) -> None:
    from kubectl_wasdra.cluster.anonymize import anonymize
    from kubectl_wasdra.cluster.snapshot import ClusterSnapshot

    event = {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "train-0.2", "namespace": "ml"},
             "involvedObject": {"kind": "Pod", "name": "train-0", "namespace": "ml"}, "reason": "FailedScheduling",
             "source": {"component": "default-scheduler", "host": "node-b"},
             "message": "pod ml/train-0 does not fit on node-b; node-c is cordoned"}
    snapshot = ClusterSnapshot(objects={**pending.objects, "Event": (event,)})
    anon = anonymize(snapshot)
    (out,) = anon.of_kind("Event")
    involved = out["involvedObject"]
    pod = anon.get("Pod", involved["name"], involved["namespace"])
    assert pod is not None and pod["metadata"]["namespace"] == out["metadata"]["namespace"] != "ml"
    node_b = anon.of_kind("Node")[1]["metadata"]["name"]
    node_c = anon.of_kind("Node")[2]["metadata"]["name"]
    assert out["message"] == f"pod ml/{involved['name']} does not fit on {node_b}; {node_c} is cordoned"
    assert out["source"]["host"] == node_b
    assert "train-0" not in str(out) and "node-b" not in str(out)


def test_retry_after_http_date_is_honoured_and_capped(tmp_path: Path, offline) -> None:
    now = 1_800_000_000.0  # 2027-01-15T08:00:00Z
    server = FakeApiServer(objects=offline.objects, faults={
        "/api/v1/nodes": Fault(status=429, retry_after="Fri, 15 Jan 2027 08:00:07 GMT"),
        "/api/v1/namespaces": Fault(status=503, times=2, retry_after="Fri, 15 Jan 2027 09:00:00 GMT"),
        "/api/v1/pods": Fault(status=503, retry_after="Thu, 01 Jan 2026 00:00:00 GMT"),
    })
    sleeps: list[float] = []
    with serve(server) as url:
        live = read_live(_options(tmp_path, url, sleeps, kinds=("Node", "Namespace", "Pod"), backoff_cap=30,
                                  retry_budget=120, clock=lambda: now))
    assert sleeps == [7.0, 30, 30, 0.0], "7 s to the date; an hour away is capped; a past date means now"
    assert len(live.of_kind("Node")) == 10 and not live.header.gaps.keys() & {"Node", "Namespace", "Pod"}
