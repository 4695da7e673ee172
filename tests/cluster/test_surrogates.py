"""A lone UTF-16 surrogate escape in a JSON dump decodes as U+FFFD (as Go's encoding/json does) and the snapshot is
written as JSON or YAML without error."""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

import pytest
import yaml
from click.testing import CliRunner

from kubectl_wasdra.cli import cli
from kubectl_wasdra.cluster.decode import decode_json
from kubectl_wasdra.cluster.snapshot import ClusterSnapshot
from kubectl_wasdra.cluster.write import render_snapshot

DUMP = (r'{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"\ud800x": "v\udc00",'
        r' "pair": "\ud83d\ude00", "twice": "\ud800\ud800\udc00"}}}')


def test_lone_surrogates_decode_as_replacement_character() -> None:
    [node] = decode_json(DUMP.encode())
    assert node["metadata"]["labels"] == {"\ufffdx": "v\ufffd", "pair": "\U0001f600", "twice": "\ufffd\U00010000"}


@pytest.mark.parametrize("name", ["out.json", "out.yaml"])
def test_snapshot_with_lone_surrogates_is_written(tmp_path: Path, name: str) -> None:
    dump = tmp_path / "dump.json"
    dump.write_text(DUMP)
    out = tmp_path / name
    result = CliRunner().invoke(cli, ["snapshot", "--snapshot", str(dump), "--output-file", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    written = json.loads(text) if name.endswith(".json") else yaml.safe_load(text)
    assert written["items"][1]["metadata"]["labels"]["\ufffdx"] == "v\ufffd"


@pytest.mark.parametrize("as_json", [True, False])
def test_writer_replaces_a_surrogate_it_is_given(as_json: bool) -> None:
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"a\udfff": "\ud800"}}}
    snapshot = ClusterSnapshot(objects=MappingProxyType({"Node": (node,)}))
    data = render_snapshot(snapshot, as_json=as_json)
    written = json.loads(data) if as_json else yaml.safe_load(data)
    assert written["items"][1]["metadata"]["labels"] == {"a\ufffd": "\ufffd"}
