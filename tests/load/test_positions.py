"""Document.position: 1-based line/column of keys and values, computed lazily; a missing path gives its deepest
existing ancestor; JSON files, flow mappings, merge keys and List items are located too."""

from __future__ import annotations

import pytest

from kubectl_wasdra.load import load_text

YAML = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: gpus
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com, count: 2}
"""


@pytest.mark.parametrize(("path", "at", "expected"), [
    ((), "key", (1, 1)),
    (("kind",), "key", (2, 1)),
    (("kind",), "value", (2, 7)),
    (("metadata", "name"), "value", (4, 9)),
    (("spec", "devices", "requests", 0), "key", (8, 7)),
    (("spec", "devices", "requests", 0, "exactly", "count"), "key", (9, 51)),
    (("spec", "devices", "requests", 0, "exactly", "count"), "value", (9, 58)),
    (("spec", "devices", "requests", 0, "exactly", "cuont"), "key", (9, 7)),
    (("spec", "devices", "requests", 3, "name"), "key", (7, 5)),
    (("status",), "key", (1, 1)),
], ids=lambda v: str(v))
def test_yaml_positions(path: tuple, at: str, expected: tuple[int, int]) -> None:
    (document,), _ = load_text("c.yaml", YAML)
    assert document.position(path, at) == expected


def test_json_positions_with_tabs() -> None:
    text = '{\n\t"apiVersion": "v1",\n\t"kind": "Pod",\n\t"metadata": {"name": "p"}\n}\n'
    (document,), _ = load_text("p.json", text)
    assert document.position(("metadata", "name"), "value") == (4, 23)
    assert document.position(("kind",)) == (3, 2)


def test_merge_key_fields_point_into_the_anchor() -> None:
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\nx: &base {a: 1}\ndata:\n  <<: *base\n  b: '2'\n"
    (document,), _ = load_text("m.yaml", text)
    assert document.position(("data", "a")) == (4, 11)
    assert document.position(("data", "b")) == (7, 3)


def test_second_document_positions() -> None:
    text = YAML + "---\n" + YAML
    documents, _ = load_text("two.yaml", text)
    assert documents[1].position(("metadata", "name")) == (14, 3)


def test_positions_are_not_computed_until_asked() -> None:
    (document,), _ = load_text("c.yaml", YAML)
    assert document.source is not None and document.source._nodes is None and not document.source._parts
    document.position(("kind",))
    assert document.source._parts or document.source._nodes is not None


SPLIT = ("# leading comment\n---\napiVersion: v1\nkind: A\nspec: {x: 1}\n---\napiVersion: v1\nkind: B\nspec:\n  y: |\n"
         "    text\n---\napiVersion: v1\nkind: C\n")


def test_only_the_document_asked_for_is_composed() -> None:
    documents, _ = load_text("s.yaml", SPLIT)
    assert [d.position(("spec",), "value") for d in documents[:2]] == [(5, 7), (10, 3)]
    source = documents[0].source
    assert source is not None and sorted(source._parts) == [0, 1] and source._nodes is None


@pytest.mark.parametrize("text", [SPLIT.replace("# leading", "%YAML 1.1\n# leading"),
                                  SPLIT.replace("---\napiVersion: v1\nkind: C", "...\n---\napiVersion: v1\nkind: C")])
def test_files_that_do_not_split_at_their_markers_are_composed_whole(text: str) -> None:
    documents, _ = load_text("s.yaml", text)
    assert documents[0].position(("spec",), "value")[0] == 5 + text.startswith("%")
    source = documents[0].source
    assert source is not None and (source._nodes is not None or not source._parts)
