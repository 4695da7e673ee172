"""explain-pending shows FailedScheduling events whose object is the PodGroup, read live like the pods' events."""

from __future__ import annotations

from pathlib import Path

from cli_runner import run
from fake_apiserver import RESOURCES, SCHEDULING_V1BETA1, FakeApiServer, serve, write_kubeconfig

from kubectl_wasdra.cluster.files import load_snapshot

PENDING = Path(__file__).resolve().parents[2] / "fixtures" / "sched" / "pending"
GROUP_EVENT = {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "train.1", "namespace": "ml"},
               "involvedObject": {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "name": "train",
                                  "namespace": "ml"},
               "reason": "FailedScheduling", "type": "Warning", "lastTimestamp": "2026-11-29T21:55:00Z",
               "message": "0/3 nodes are available: 3 Insufficient cpu. (group train)"}


def test_an_event_about_the_podgroup_is_what_the_cluster_says(tmp_path: Path, capsys) -> None:
    snapshot, problems = load_snapshot([str(PENDING)])
    assert problems == ()
    server = FakeApiServer(objects={**snapshot.objects, "Event": (GROUP_EVENT,)},
                           resources={**RESOURCES, **SCHEDULING_V1BETA1})
    kubeconfig = tmp_path / "kubeconfig"
    with serve(server) as url:
        write_kubeconfig(str(kubeconfig), url, "t")
        code, out, err = run(["explain-pending", "podgroup/train", "-n", "ml", "--live", "--kubeconfig", str(kubeconfig),
                              "--context", "fake", "--feature-gates", "GenericWorkload=true",
                              "--runtime-config", "scheduling.k8s.io/v1beta1=true"], capsys)
    assert code == 1, err
    assert ("cluster says:  0/3 nodes are available: 3 Insufficient cpu. (group train) (event, FailedScheduling, "
            "2026-11-29T21:55:00Z)") in out, out
    assert "agree:         yes" in out
