"""What the cluster itself recorded about pending pods and groups: the PodScheduled condition, the group's
scheduled condition, and the latest FailedScheduling event (the snapshot's Events, from its files or read live)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

_GROUP_CONDITIONS = ("PodGroupInitiallyScheduled", "PodGroupScheduled")


@dataclass(frozen=True)
class Recorded:
    """One recorded statement: where it comes from (condition or event), reason, message and when."""

    source: str
    reason: str
    message: str
    time: str = ""


def _event_time(event: Mapping[str, Any]) -> str:
    series = event.get("series") or {}
    return str(series.get("lastObservedTime") or event.get("lastTimestamp") or event.get("eventTime")
               or event.get("deprecatedLastTimestamp") or (event.get("metadata") or {}).get("creationTimestamp") or "")


def latest_failed_scheduling(events: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str, str], Recorded]:
    """The newest FailedScheduling event per (kind, namespace, name) of the object it is about; of two as new, the later
    one in `events` wins. Built once, so looking up every pending pod does not scan every event again."""
    latest: dict[tuple[str, str, str], Recorded] = {}
    for event in events:
        involved = event.get("involvedObject") or event.get("regarding") or {}
        if event.get("reason") != "FailedScheduling" or not isinstance(involved, Mapping):
            continue
        key = (involved.get("kind"), involved.get("namespace") or "default", involved.get("name"))
        if not all(isinstance(part, str) for part in key):
            continue
        text = str(event.get("message") or event.get("note") or "")
        record = Recorded("event", "FailedScheduling", text, _event_time(event))
        best = latest.get(key)
        if best is None or record.time >= best.time:
            latest[key] = record
    return latest


def condition(obj: Mapping[str, Any], types: Iterable[str]) -> Recorded | None:
    """The first False condition of the given types on an object (PodScheduled, PodGroupInitiallyScheduled...)."""
    for cond in (obj.get("status") or {}).get("conditions") or ():
        if cond.get("type") in types and cond.get("status") == "False":
            return Recorded(f"condition {cond.get('type')}", str(cond.get("reason") or ""), str(cond.get("message") or ""),
                            str(cond.get("lastTransitionTime") or ""))
    return None


def group_condition(obj: Mapping[str, Any]) -> Recorded | None:
    """The group's scheduled condition when it says False."""
    return condition(obj, _GROUP_CONDITIONS)
