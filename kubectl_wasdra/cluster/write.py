"""Writing a snapshot: one `List` whose first item is the header object (cluster/header.py), then every object by kind.

JSON when the file name ends in .json, YAML otherwise. YAML is written so that YAML 1.1 readers (kubectl, go-yaml v2)
read back exactly the same values: strings such as `yes`, `y`, `on`, `0755` or `1_000` are quoted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

import orjson
import yaml

from kubectl_wasdra.cluster.header import header_to_object
from kubectl_wasdra.cluster.snapshot import SNAPSHOT_KINDS, ClusterSnapshot
from kubectl_wasdra.errors import SnapshotError
from kubectl_wasdra.load.parse import without_surrogates
from kubectl_wasdra.load.safe_write import write_output

SNAPSHOT_MODE: Final = 0o600


def snapshot_items(snapshot: ClusterSnapshot) -> Iterator[dict[str, Any]]:
    """The header, then objects in SNAPSHOT_KINDS order (other kinds after, by name), each sorted by namespace/name."""
    yield header_to_object(snapshot.header)
    extra = sorted(kind for kind in snapshot.objects if kind not in SNAPSHOT_KINDS)
    for kind in (*SNAPSHOT_KINDS, *extra):
        yield from snapshot.of_kind(kind)


def snapshot_list(snapshot: ClusterSnapshot) -> dict[str, Any]:
    """The snapshot as the List object that is written."""
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": list(snapshot_items(snapshot))}


class _KubeDumper(yaml.CSafeDumper if hasattr(yaml, "CSafeDumper") else yaml.SafeDumper):  # type: ignore[misc]
    """Quotes every string that a YAML 1.1 reader (go-yaml v2) would resolve to something else."""

    yaml_implicit_resolvers: dict[str, list[tuple[str, re.Pattern[str]]]] = {}  # noqa: RUF012 - PyYAML's class table


_DUMP_RESOLVERS: Final = (
    ("tag:yaml.org,2002:bool", r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$",
     "yYnNtTfFoO"),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
     r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$", "-+0123456789"),
    ("tag:yaml.org,2002:float", r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
     r"|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+0123456789."),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:timestamp", r"^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?", "0123456789"),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", "<"),
    ("tag:yaml.org,2002:value", r"^(?:=)$", "="),
)
for _tag, _pattern, _first in _DUMP_RESOLVERS:
    _KubeDumper.add_implicit_resolver(_tag, re.compile(_pattern), list(_first))


def render_snapshot(snapshot: ClusterSnapshot, *, as_json: bool) -> bytes:
    """The snapshot file's bytes (UTF-8)."""
    document = snapshot_list(snapshot)
    try:
        return _render(document, as_json=as_json)
    except (TypeError, UnicodeEncodeError) as exc:
        if "surrogates not allowed" not in str(exc):
            raise SnapshotError(f"cannot write the snapshot as {'JSON' if as_json else 'YAML'}: {exc}") from None
    # a lone surrogate (from a reader that kept one) is not UTF-8: written as U+FFFD, as Go's encoders do
    return _render(without_surrogates(document), as_json=as_json)


def _render(document: dict[str, Any], *, as_json: bool) -> bytes:
    if as_json:
        return orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"
    text = yaml.dump(document, Dumper=_KubeDumper, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1 << 16)
    return text.encode("utf-8")


def write_snapshot(snapshot: ClusterSnapshot, path: str, *, as_json: bool | None = None) -> None:
    """Write the snapshot to `path`: JSON or YAML as asked, else JSON when it ends in .json and YAML otherwise.
    Mode 0600 whatever the umask: a snapshot describes a cluster (names, addresses, images)."""
    data = render_snapshot(snapshot, as_json=path.endswith(".json") if as_json is None else as_json)
    try:
        write_output(path, data, mode=SNAPSHOT_MODE)
    except OSError as exc:
        raise SnapshotError(f"cannot write: {exc.strerror}", where=path, hint="choose a writable path") from None
