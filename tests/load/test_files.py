"""Loading inputs: paths, directories, globs, stdin, Lists, JSON, and every kind of bad input with its position."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_wasdra.load import ProblemKind, load_paths, load_text

POD = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n  containers:\n  - name: c\n    image: busybox\n"


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return path


def _problems(result) -> list[tuple[str, ProblemKind, int, int]]:
    return [(Path(p.file).name, p.kind, p.line, p.column) for p in result.problems]


@pytest.mark.parametrize(("content", "kind", "line", "column"), [
    ("a:\n\tb: 1\n", ProblemKind.SYNTAX, 2, 1),
    ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n", ProblemKind.DUPLICATE_KEY, 5, 3),
    (b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: caf\xe9}\n", ProblemKind.NOT_UTF8, 3, 21),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ProblemKind.BINARY, 1, 1),
    (b"\xff\xfea\x00:\x00", ProblemKind.NOT_UTF8, 1, 1),
    ("# nothing here\n---\n", ProblemKind.EMPTY_FILE, 1, 1),
    ("", ProblemKind.EMPTY_FILE, 1, 1),
    ("kind: Pod\nmetadata: {name: x}\n", ProblemKind.MISSING_API_VERSION, 1, 1),
    ("apiVersion: v1\nmetadata: {name: x}\n", ProblemKind.MISSING_KIND, 1, 1),
    ("- 1\n- 2\n", ProblemKind.NOT_AN_OBJECT, 1, 1),
    ("just a string\n", ProblemKind.NOT_AN_OBJECT, 1, 1),
    ("apiVersion: v1\nkind: X\nmetadata: {name: 'unclosed}\n", ProblemKind.SYNTAX, 4, 1),
    ("apiVersion: v1\nkind: ConfigMap\ndata: !vault aGk=\n", ProblemKind.SYNTAX, 3, 7),
], ids=["tab", "duplicate-key", "latin-1", "binary", "utf-16", "comments-only", "zero-bytes", "no-apiversion", "no-kind",
        "list-document", "scalar-document", "unclosed-quote", "unknown-tag"])
def test_bad_input_gives_a_positioned_problem(tmp_path: Path, content: str | bytes, kind: ProblemKind, line: int,
                                              column: int) -> None:
    result = load_paths([str(_write(tmp_path, "bad.yaml", content))])
    assert _problems(result) == [("bad.yaml", kind, line, column)]
    assert all(p.message and p.hint for p in result.problems)


def test_alias_bomb_is_refused_without_expanding_it(tmp_path: Path) -> None:
    lines = ["apiVersion: v1", "kind: ConfigMap", "metadata: {name: lol}", "data:",
             '  a: &a ["x","x","x","x","x","x","x","x","x"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"  {name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    result = load_paths([str(_write(tmp_path, "bomb.yaml", "\n".join(lines) + "\n"))])
    assert _problems(result) == [("bomb.yaml", ProblemKind.ALIAS_LIMIT, 1, 1)]
    assert result.documents == ()


def test_a_few_aliases_are_fine(tmp_path: Path) -> None:
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, labels: &l {a: b}, annotations: *l}\n"
    result = load_paths([str(_write(tmp_path, "ok.yaml", text))])
    assert not result.problems and result.documents[0].metadata["annotations"] == {"a": "b"}


def test_oversized_file_is_skipped(tmp_path: Path) -> None:
    path = _write(tmp_path, "big.yaml", POD.format(name="x") * 10)
    result = load_paths([str(path)], max_bytes=100)
    assert _problems(result) == [("big.yaml", ProblemKind.TOO_LARGE, 1, 1)]


def test_oversized_stdin_is_skipped() -> None:
    result = load_paths(["-"], stdin=io.BytesIO(POD.format(name="x").encode() * 10), max_bytes=100)
    assert [p.kind for p in result.problems] == [ProblemKind.TOO_LARGE]


def test_one_bad_file_does_not_hide_the_others(tmp_path: Path) -> None:
    _write(tmp_path, "a.yaml", POD.format(name="a"))
    _write(tmp_path, "b.yaml", "a: [unclosed\n")
    _write(tmp_path, "c.yaml", POD.format(name="c"))
    result = load_paths([str(tmp_path), str(tmp_path / "missing.yaml")])
    assert [d.name for d in result.documents] == ["a", "c"]
    assert sorted((Path(p.file).name, p.kind) for p in result.problems) == [
        ("b.yaml", ProblemKind.SYNTAX), ("missing.yaml", ProblemKind.UNREADABLE)]
    assert any(p.fatal for p in result.problems)


def test_a_broken_document_does_not_hide_the_next_ones() -> None:
    text = POD.format(name="a") + "---\nkind: [\n---\n" + POD.format(name="c")
    documents, problems = load_text("s.yaml", text)
    assert [(d.index, d.name) for d in documents] == [(0, "a"), (2, "c")]
    assert [(p.kind, p.line) for p in problems] == [(ProblemKind.SYNTAX, 11)]
    assert documents[1].position(("metadata", "name")) == (15, 3)


def test_directories_recurse_skip_hidden_and_keep_manifest_suffixes(tmp_path: Path) -> None:
    for name in ("z.yaml", "sub/a.yml", "sub/deeper/b.json", ".hidden/c.yaml", "sub/.d.yaml", "notes.txt"):
        _write(tmp_path, name, POD.format(name="x") if not name.endswith(".json") else
               '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "j"}}')
    result = load_paths([str(tmp_path)])
    assert [Path(f).relative_to(tmp_path).as_posix() for f in result.files] == ["sub/a.yml", "sub/deeper/b.json", "z.yaml"]


def test_globs_and_repeated_paths(tmp_path: Path) -> None:
    _write(tmp_path, "a.yaml", POD.format(name="a"))
    _write(tmp_path, "b.yaml", POD.format(name="b"))
    result = load_paths([str(tmp_path / "*.yaml"), str(tmp_path / "a.yaml")])
    assert [Path(f).name for f in result.files] == ["a.yaml", "b.yaml"]


def test_stdin_reads_yaml_and_json() -> None:
    result = load_paths(["-"], stdin=io.BytesIO(POD.format(name="in").encode()))
    assert [(d.file, d.name) for d in result.documents] == [("-", "in")]
    result = load_paths(["-"], stdin=io.BytesIO(b'{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "j"}}'))
    assert [d.name for d in result.documents] == ["j"]


def test_lists_are_flattened_and_typed_lists_fill_in_kind() -> None:
    text = ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n"
            "---\napiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: p}\n")
    documents, problems = load_text("l.yaml", text)
    assert not problems
    assert [(d.index, d.item, d.kind, d.name) for d in documents] == [(0, 0, "ConfigMap", "a"), (1, 0, "Pod", "p")]
    assert documents[0].position(("metadata", "name")) == (6, 14)


def test_json_syntax_error_has_line_and_column() -> None:
    _, problems = load_text("x.json", '{\n  "apiVersion": "v1",\n  "kind" "Pod"\n}\n')
    assert [(p.kind, p.line, p.column) for p in problems] == [(ProblemKind.SYNTAX, 3, 10)]


def test_json_duplicate_keys_are_reported_with_positions() -> None:
    _, problems = load_text("x.json", '{"apiVersion": "v1", "kind": "Pod",\n "metadata": {"name": "a", "name": "b"}}')
    assert [(p.kind, p.line, p.column) for p in problems] == [(ProblemKind.DUPLICATE_KEY, 2, 28)]


def test_unreadable_path(tmp_path: Path) -> None:
    result = load_paths([str(tmp_path / "nope" / "*.yaml")])
    assert [(p.kind, p.fatal) for p in result.problems] == [(ProblemKind.UNREADABLE, True)]


def test_binary_tag_decodes_to_a_string() -> None:
    documents, problems = load_text("b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: {k: !!binary aGk=}\n")
    assert not problems and documents[0].data["data"] == {"k": "hi"}


YAML_ALPHABET = "ab:- \t\n{}[],'\"#&*!|>%@`?~01yn.\\\x00é"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=YAML_ALPHABET, max_size=120) | st.binary(max_size=80))
def test_arbitrary_input_never_crashes(content: str | bytes) -> None:
    data = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
    result = load_paths(["-"], stdin=io.BytesIO(data))
    for problem in result.problems:
        assert problem.line >= 1 and problem.column >= 1 and problem.message
    for document in result.documents:
        assert document.position(("metadata", "name"))[0] >= 1


def test_alias_heavy_input_below_the_ratio_limit_still_loads(tmp_path: Path) -> None:
    """Thousands of alias replays leave the fast path; go-yaml's ratio rule still accepts this document."""
    rows = "\n".join(f"  k{i}: *base" for i in range(2000))
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n"
            "defaults: &base {cpu: '1', memory: 1Gi, image: busybox, pull: Always, tier: web}\ndata:\n" + rows + "\n")
    result = load_paths([str(_write(tmp_path, "big.yaml", text))])
    assert not result.problems
    assert result.documents[0].data["data"]["k1999"] == {"cpu": "1", "memory": "1Gi", "image": "busybox", "pull": "Always",
                                                         "tier": "web"}
