"""load/plain_block.py: plain block YAML gives, without composing, the marks PyYAML's composer gives (positions.py
`_find`), and everything outside that subset is left to the composer. tests/test_findings_golden.py checks the same
on every key and value of the whole test corpus."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_wasdra.load import positions
from kubectl_wasdra.load.plain_block import find_mark, parse_plain
from kubectl_wasdra.load.positions import SourceText, _compose_part, _find

PLAIN = """\
# a comment before the document
apiVersion: v1
kind: Pod
metadata:
  name: "web"{trailing}
  labels:
    app.kubernetes.io/name: web
spec:
  containers:
  - name: c
    image: 'nginx:1.27'   # pinned
    args:
      - -v
      - http://example.com
    env:
    -   name: A
        value: "1"
  # between keys
  tolerations:
  - key: k
    operator: Exists
""".format(trailing="   ")
NOT_PLAIN = [
    "a: &x 1\nb: *x\n",                       # anchors and aliases
    "a: {b: 1}\n",                              # flow mapping
    "a: [1, 2]\n",                              # flow sequence
    "a: |\n  text\n",                           # block scalar
    "a:\n\tb: 1\n",                             # a tab
    "a: one\n  two\n",                          # a plain scalar over two lines
    "a: 1\na: 2\n",                             # a duplicate key (the last wins)
    "a:\nb: 1\n",                               # an empty value
    "- - 1\n",                                  # a nested sequence on one line
    "a: !tag x\n",                              # a tag
    "a: '1 # x' # comment\n",                   # a quoted value with ` #` inside, then a comment
    "a: # comment\n  b: 1\n",                   # a comment where the value would start
    "'quoted key': 1\n",                        # a quoted key
    "<<: {a: 1}\n",                             # a merge key
]


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    """Every key and item path of a composed node, plus one missing child of each mapping."""
    import yaml

    found = [path]
    if isinstance(node, yaml.MappingNode):
        found.append((*path, "missing"))
        for key, value in node.value:
            found.extend(_paths(value, (*path, key.value)))
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            found.extend(_paths(item, (*path, index)))
        found.append((*path, len(node.value)))
    return found


def test_plain_block_marks_are_the_composers() -> None:
    root = parse_plain(PLAIN)
    assert root is not None
    composed = _compose_part(PLAIN)
    paths = _paths(composed)
    assert len(paths) > 30
    for path in paths:
        for at in ("key", "value"):
            mark = _find(composed, path, at)
            assert find_mark(root, path, at) == (mark.line, mark.column), (path, at)
    assert find_mark(root, ("spec", "containers", -1, "name"), "key") == (9, 4)  # negative index, as the composer


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_anything_else_is_left_to_the_composer(text: str) -> None:
    assert parse_plain(text) is None


def test_source_text_reads_plain_documents_and_composes_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    composed: list[str] = []

    def compose(part: str) -> Any:
        composed.append(part)
        return _compose_part(part)

    monkeypatch.setattr(positions, "_compose_part", compose)
    source = SourceText(PLAIN + "---\na: &x 1\nb: *x\n")
    assert source.position(0, ("spec", "containers", 0, "image"), "value") == (11, 12)
    assert composed == []  # the plain document was read off its lines
    assert source.position(1, ("b",), "value") == (23, 4)
    assert composed == ["---\na: &x 1\nb: *x\n"]  # only the anchored one was composed


_KEYS = st.text(alphabet="abcxyz09_.-/", min_size=1, max_size=6).filter(lambda k: k[0] not in "-./")
_SCALARS = st.one_of(st.integers(-5, 1000), st.booleans(), st.text(alphabet="abc -:#'\"xyz", max_size=8))
_TREES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, min_size=1, max_size=3),
                                                          st.dictionaries(_KEYS, inner, min_size=1, max_size=3)),
                      max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_KEYS, _TREES, min_size=1, max_size=4), st.sampled_from([2, 4]), st.booleans())
def test_any_block_dump_gets_the_composers_marks_or_is_left_to_it(data: dict, indent: int, comments: bool) -> None:
    import yaml

    text = yaml.safe_dump(data, default_flow_style=False, indent=indent, sort_keys=False)
    if comments:  # comment lines, and comments after values
        text = "\n".join(line + ("\n# note" if i % 3 == 0 else "  # why" if i % 3 == 1 and line.rstrip()[-1:] not in
                                                                     ("", ":") else "")
                          for i, line in enumerate(text.split("\n")))
    root = parse_plain(text)
    if root is None:
        return
    composed = _compose_part(text)
    for path in _paths(composed):
        for at in ("key", "value"):
            mark = _find(composed, path, at)
            assert find_mark(root, path, at) == (mark.line, mark.column), (text, path, at)
