"""Dependents' files kept packed (lsp/compact.py) read back as loading them gives them: same data, same positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.load import load_file
from kubectl_wasdra.lsp.compact import CompactFiles, pack, unpack

ROOT = Path(__file__).resolve().parents[2]
MANIFESTS = sorted(p for p in (ROOT / "fixtures" / "manifests").rglob("*.yaml"))[:40]


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
def test_a_packed_file_reads_back_as_loading_it(path: Path) -> None:
    documents, problems = load_file(str(path))
    blob = pack(documents, problems)
    if blob is None:   # problems, a List, or data marshal cannot write: loaded each time instead
        assert problems or not documents or any(d.item is not None for d in documents)
        return
    again = unpack(str(path), blob)
    assert [(d.index, d.data) for d in again] == [(d.index, d.data) for d in documents]
    for before, after in zip(documents, again, strict=True):
        assert after.position() == before.position()
        assert after.position(("metadata", "name"), "value") == before.position(("metadata", "name"), "value")
        assert after.position(("spec",), "key") == before.position(("spec",), "key")


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "class.yaml"
    path.write_text("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: a}\n")
    files = CompactFiles()
    assert [d.name for d in files.documents(str(path))] == ["a"]
    assert [d.name for d in files.documents(str(path))] == ["a"]   # from the packed copy
    path.write_text("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: bb}\n")   # another size
    assert [d.name for d in files.documents(str(path))] == ["bb"]
    path.unlink()
    assert files.documents(str(path)) == []


def test_a_list_is_not_packed(tmp_path: Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Namespace, metadata: {name: ml}}\n")
    documents, problems = load_file(str(path))
    assert documents and pack(documents, problems) is None
