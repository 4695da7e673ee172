"""How the live read talks to the server: who it says it is, what it does when a continue token expires, and what a
read deadline that runs out during 429s reports."""

from __future__ import annotations

import time
from pathlib import Path

from fake_apiserver import FakeApiServer, Fault, serve, write_kubeconfig

from kubectl_wasdra import __version__
from kubectl_wasdra.cluster.live import LiveOptions, read_live


def _options(tmp_path: Path, url: str, **extra: object) -> LiveOptions:
    kubeconfig = tmp_path / "kubeconfig"
    write_kubeconfig(str(kubeconfig), url, "t")
    extra.setdefault("sleep", lambda _s: None)
    return LiveOptions(kubeconfig=str(kubeconfig), context="fake", page_size=3, **extra)  # type: ignore[arg-type]


def test_user_agent_names_the_tool_and_its_version(tmp_path: Path, offline) -> None:
    server = FakeApiServer(objects=offline.objects)
    with serve(server) as url:
        read_live(_options(tmp_path, url, kinds=("Node",)))
    assert server.user_agents == {f"kubectl-wasdra/{__version__}"}


def test_an_expired_continue_token_falls_back_to_one_unpaged_list(tmp_path: Path, offline) -> None:
    """410 Gone on a continue token: one list without limit or continue (client-go's pager), not a restart of paging
    that a fast-compacting server would expire again."""
    server = FakeApiServer(objects=offline.objects, faults={
        "/api/v1/nodes": Fault(status=410, on_continue=True, times=99)})
    with serve(server) as url:
        live = read_live(_options(tmp_path, url, kinds=("Node",)))
    assert "Node" not in live.header.gaps
    assert live.of_kind("Node") == offline.of_kind("Node")
    queries = [query for path, query in server.queries if path == "/api/v1/nodes"]
    assert queries == ["limit=3", "limit=3&continue=3", ""], queries


def test_a_deadline_that_runs_out_during_429s_says_so(tmp_path: Path, offline) -> None:
    """The message names the 429 the attempts met and the deadline, not just "time was up" (real sleeps: 1.5 s)."""
    server = FakeApiServer(objects=offline.objects, faults={
        "/api/v1/nodes": Fault(status=429, retry_after="1", times=99)})
    with serve(server) as url:
        live = read_live(_options(tmp_path, url, kinds=("Node",), sleep=time.sleep, read_deadline=1.5))
    gap = live.header.gaps["Node"]
    assert gap.startswith("gave up after 2 attempts: 429 injected 429; the whole read may take 1.5s (--read-deadline)"), gap


def test_throttled_version_request_blames_throttling_not_the_address(tmp_path: Path, offline) -> None:
    import pytest

    from kubectl_wasdra.errors import ClusterReadError

    server = FakeApiServer(objects=offline.objects, faults={"/version": Fault(status=429, retry_after="1", times=99)})
    with serve(server) as url, pytest.raises(ClusterReadError) as info:
        read_live(_options(tmp_path, url, sleep=time.sleep, read_deadline=1.5))
    message = str(info.value)
    assert "429 injected 429" in message and "--read-deadline" in message
    assert "throttling" in message and "address" not in message, message
