"""Every load problem of the snapshot loader names a 1-based line and column, also when the parser gives none."""

from __future__ import annotations

from pathlib import Path

from kubectl_wasdra.cluster.files import load_snapshot


def _bomb() -> str:
    lines, previous = ["a: &a [x, x, x, x, x, x, x, x, x]"], "a"
    for level in range(1, 12):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*{previous}'] * 9)}]")
        previous = f"l{level}"
    return "\n".join(lines) + "\n"


def _positions(tmp_path: Path, name: str, data: bytes) -> list[tuple[int, int]]:
    path = tmp_path / name
    path.write_bytes(data)
    _, problems = load_snapshot([str(path)])
    assert problems
    return [(problem.line, problem.column) for problem in problems]


def test_binary_file_is_at_line_1_column_1(tmp_path: Path) -> None:
    assert _positions(tmp_path, "binary.yaml", b"\x00\x01\xff\xfe") == [(1, 1)]


def test_alias_bomb_is_at_line_1_column_1(tmp_path: Path) -> None:
    problems = load_snapshot([str(_write(tmp_path, "bomb.yaml", _bomb()))])[1]
    assert [(p.line, p.column) for p in problems] == [(1, 1)]
    assert "alias" in problems[0].message


def test_bomb_in_a_later_document_counts_from_that_document(tmp_path: Path) -> None:
    text = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n" + _bomb()
    snapshot, problems = load_snapshot([str(_write(tmp_path, "bomb.yaml", text))])
    assert [(p.line, p.column) for p in problems] == [(5, 1)]
    assert snapshot.get("Node", "n1") is not None


def test_json_syntax_error_keeps_the_parser_position(tmp_path: Path) -> None:
    assert _positions(tmp_path, "broken.json", b'{"a": 1,\n  "b": }\n') == [(2, 8)]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path
