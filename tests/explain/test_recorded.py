"""What the cluster recorded: events from snapshot files (Lists of any shape), conditions, the latest event wins."""

from __future__ import annotations

from kubectl_wasdra.cluster.files import load_snapshot
from kubectl_wasdra.explain.recorded import condition, latest_failed_scheduling


def test_events_from_an_event_list_without_item_kinds(tmp_path):
    (tmp_path / "events.yaml").write_text(
        "apiVersion: v1\nkind: EventList\nitems:\n"
        "- {metadata: {name: a}, involvedObject: {kind: Pod, name: p, namespace: ml}, reason: FailedScheduling,"
        " message: old, lastTimestamp: '2026-01-01T00:00:00Z'}\n"
        "- {metadata: {name: b}, involvedObject: {kind: Pod, name: p, namespace: ml}, reason: FailedScheduling,"
        " message: new, lastTimestamp: '2026-01-02T00:00:00Z'}\n"
        "- {metadata: {name: c}, involvedObject: {kind: Pod, name: q, namespace: ml}, reason: Scheduled, message: x}\n")
    snapshot, problems = load_snapshot([str(tmp_path)])
    assert problems == ()
    events = list(snapshot.of_kind("Event"))
    assert len(events) == 3
    latest = latest_failed_scheduling(events)
    assert latest[("Pod", "ml", "p")].message == "new"
    assert latest.get(("Pod", "ml", "q")) is None


def test_condition_only_when_false():
    pod = {"status": {"conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": "m"}]}}
    assert condition(pod, ("PodScheduled",)).message == "m"
    pod["status"]["conditions"][0]["status"] = "True"
    assert condition(pod, ("PodScheduled",)) is None
