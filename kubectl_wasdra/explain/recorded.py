"""What the cluster itself recorded about pending pods and groups: the PodScheduled condition, the group's
scheduled condition, and the latest FailedScheduling event (Events read from the snapshot files, or live)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_GROUP_CONDITIONS = ("PodGroupInitiallyScheduled", "PodGroupScheduled")


@dataclass(frozen=True)
class Recorded:
    """One recorded statement: where it comes from (condition or event), reason, message and when."""

    source: str
    reason: str
    message: str
    time: str = ""


def _items(value: Any) -> Iterator[Mapping[str, Any]]:
    if isinstance(value, list):
        for item in value:
            yield from _items(item)
    elif isinstance(value, dict):
        if isinstance(value.get("items"), list) and str(value.get("kind", "")).endswith("List"):
            for item in value["items"]:
                if isinstance(item, dict):
                    yield {"kind": value["kind"][:-4] or item.get("kind", ""), **item} if value["kind"] != "List" else item
        else:
            yield value


def read_events(paths: Sequence[str]) -> list[Mapping[str, Any]]:
    """Event objects in the snapshot files (core/v1 or events.k8s.io/v1); unreadable files are skipped here."""
    from kubectl_wasdra.cluster.decode import DecodeError, decode_json, decode_yaml, is_json_text
    from kubectl_wasdra.cluster.files import expand_paths

    events = []
    for file in expand_paths(paths):
        try:
            text = Path(file).read_text(encoding="utf-8-sig")
            if "Event" not in text:
                continue
            documents = decode_json(text) if is_json_text(file, text) else decode_yaml(text)
        except (OSError, UnicodeDecodeError, DecodeError):
            continue
        events.extend(obj for doc in documents for obj in _items(doc) if obj.get("kind") == "Event")
    return events


def _event_time(event: Mapping[str, Any]) -> str:
    series = event.get("series") or {}
    return str(series.get("lastObservedTime") or event.get("lastTimestamp") or event.get("eventTime")
               or event.get("deprecatedLastTimestamp") or (event.get("metadata") or {}).get("creationTimestamp") or "")


def latest_failed_scheduling(events: Iterable[Mapping[str, Any]], kind: str, namespace: str, name: str) -> Recorded | None:
    """The newest FailedScheduling event about one object."""
    best: Recorded | None = None
    for event in events:
        involved = event.get("involvedObject") or event.get("regarding") or {}
        if (event.get("reason") != "FailedScheduling" or involved.get("kind") != kind or involved.get("name") != name
                or (involved.get("namespace") or "default") != namespace):
            continue
        text = str(event.get("message") or event.get("note") or "")
        record = Recorded("event", "FailedScheduling", text, _event_time(event))
        if best is None or record.time >= best.time:
            best = record
    return best


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
