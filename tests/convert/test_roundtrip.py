"""Round-trip guarantees: nothing to change -> the same bytes; what changes keeps comments, blank lines, key order,
quoting, flow style, anchors, document separators, CRLF and BOM; the untouched documents of a file stay byte for byte."""

from __future__ import annotations

import json

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.convert.engine import Converter
from kubectl_wasdra.convert.roundtrip import guess_indent, split_documents
from tests.convert.helpers import convert, reported

UNTOUCHED = """\
# a file with odd but valid layout
apiVersion:   v1
kind: ConfigMap
metadata: {name: "x",   namespace: 'y'}
data:
  on: yes     # YAML 1.1 booleans stay as written
  list: [a,  b]


--- # second document
apiVersion: apps/v1
kind: Deployment
...
"""

CLAIM = """\
apiVersion: "resource.k8s.io/v1beta1"   # quoted, with a comment
kind: ResourceClaim
metadata:
  name: &name gpu-claim
  labels: {app: *name}

spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: 'gpu.example.com'   # single quotes
      selectors: &sel
      - cel: {expression: "device.driver == 'gpu.example.com'"}
"""


def _file(raw: bytes, release: str = "1.37") -> bytes:
    return Converter(Release.parse(release)).file("m.yaml", raw).converted


def test_nothing_to_change_is_byte_identical() -> None:
    raw = UNTOUCHED.encode()
    assert _file(raw) is raw or _file(raw) == raw
    assert _file(("\ufeff" + UNTOUCHED.replace("\n", "\r\n")).encode()) == ("\ufeff" + UNTOUCHED.replace("\n", "\r\n")).encode()


def test_only_the_converted_document_changes() -> None:
    text, _ = convert(UNTOUCHED + "---\n" + CLAIM)
    assert text.startswith(UNTOUCHED + "---\n")


def test_comments_quotes_anchors_flow_and_blank_lines_survive() -> None:
    text, _ = convert(CLAIM)
    assert text.startswith('apiVersion: "resource.k8s.io/v1"')
    assert "# quoted, with a comment" in text and "# single quotes" in text
    assert "name: &name gpu-claim\n  labels: {app: *name}\n\nspec:\n" in text
    assert "        deviceClassName: 'gpu.example.com'" in text
    assert "        selectors: &sel\n        - cel: {expression: \"device.driver == 'gpu.example.com'\"}\n" in text


def test_crlf_and_bom_are_kept_when_converting() -> None:
    raw = ("\ufeff" + CLAIM.replace("\n", "\r\n")).encode()
    out = _file(raw)
    assert out.startswith("\ufeff".encode()) and b"\r\n" in out and b"\n" not in out.replace(b"\r\n", b"")
    assert b"exactly:" in out


def test_document_separators_and_end_markers_survive() -> None:
    source = "--- # first\n" + CLAIM + "...\n---\n" + CLAIM
    text, notes = convert(source)
    assert [c.separator for c in split_documents(text)] == ["", "--- # first\n", "...\n", "---\n"]
    assert len(notes) == 2 and text.count("exactly:") == 2


def test_indentation_style_of_the_document_is_kept() -> None:
    indented = CLAIM.replace("    - name: gpu\n      deviceClassName", "      - name: gpu\n        deviceClassName") \
                    .replace("      selectors: &sel\n      - cel", "        selectors: &sel\n        - cel")
    assert guess_indent(indented) == (2, 2)
    text, _ = convert(indented)
    assert "      - name: gpu\n        exactly:\n          deviceClassName:" in text


def test_json_file_keeps_its_indentation_and_key_order() -> None:
    obj = {"apiVersion": "resource.k8s.io/v1beta1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
           "spec": {"selectors": [{"cel": {"expression": "true"}}]}}
    raw = json.dumps(obj, indent=4).encode()
    out = Converter(Release.parse("1.37")).file("c.json", raw).converted.decode()
    assert out == json.dumps({**obj, "apiVersion": "resource.k8s.io/v1"}, indent=4) + "\n"


def test_second_run_changes_nothing() -> None:
    once, _ = convert(CLAIM)
    twice, notes = convert(once)
    assert twice == once and notes == []


def test_bad_yaml_is_reported_and_left_alone() -> None:
    source = "apiVersion: resource.k8s.io/v1beta1\nkind: [unclosed\n"
    note = reported(source)
    assert "cannot read the document" in note.message


def test_recursive_alias_does_not_hang() -> None:
    source = "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: &m {name: gpu, labels: {self: *m}}\n"
    text, notes = convert(source, "1.37")
    assert text.startswith("apiVersion: resource.k8s.io/v1\n") or notes[0].status == "failed"


def test_alias_bomb_and_deep_nesting_are_reported_not_expanded() -> None:
    bomb = "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata:\n  name: x\n  labels:\n" \
           "    a: &a [x,x,x,x,x,x,x,x,x]\n"
    for level in "bcdefgh":
        previous = chr(ord(level) - 1)
        bomb += f"    {level}: &{level} [{','.join(['*' + previous] * 9)}]\n"
    assert "alias bombs" in reported(bomb).message
    small = "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: x}\nspec:\n  config:\n" \
            f"  - opaque: {{driver: d, parameters: {{a: &a [{','.join(['x'] * 100)}], b: [{','.join(['*a'] * 200)}]}}}}\n"
    assert "alias bombs" in reported(small).message   # 20,000 nodes, 99% from aliases: check's LOAD010 refuses it too
    deep = "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: x}\nspec: " + "[" * 3000 + "]" * 3000 + "\n"
    assert "cannot read the document" in reported(deep).message


def test_untouched_lines_of_a_converted_document_keep_their_whitespace() -> None:
    source = "apiVersion: resource.k8s.io/v1beta1\nkind:  DeviceClass\nmetadata:\n  name: gpu   \nspec:\n  selectors:\n" \
             "  - cel: \n      expression: 'true'\n"
    text, _ = convert(source)
    assert text == source.replace("v1beta1", "v1")
