"""An edit re-checked incrementally (only changed documents parsed and checked, the others' findings moved) gives
the findings a fresh load of the new text gives, for every YAML fixture and three kinds of edit."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_wasdra.lsp.analysis import Analysis
from kubectl_wasdra.lsp.settings import resolve_settings
from kubectl_wasdra.lsp.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent.parent
FILES = sorted(p for p in (ROOT / "fixtures").rglob("*.y*ml") if p.is_file())


def _edits(text: str) -> list[str]:
    """A comment line added, a value's spacing changed and a line removed, at the middle of the text."""
    lines = text.splitlines(keepends=True)
    middle = len(lines) // 2
    return ["".join([*lines[:middle], "# edited\n", *lines[middle:]]),
            "".join([*lines[:middle], *(line.replace(": ", ":  ", 1) for line in lines[middle:middle + 1]),
                     *lines[middle + 1:]]),
            "".join([*lines[:middle], *lines[middle + 1:]])]


def _findings(texts: list[str], path: str) -> list[tuple]:
    """The findings of the last text after the server-side steps for each text in turn."""
    workspace = Workspace(None)
    analysis = Analysis(resolve_settings(None, {}, use_config=False), workspace)
    for text in texts:
        workspace.open(path, text)
        found = analysis.run().get(path, [])
    return sorted((f.rule, f.line, f.column, f.message, f.severity) for f in found)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_incremental_equals_fresh(path: Path) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        pytest.skip("not UTF-8 on purpose (LOAD007): no editor holds it as text")
    for edited in _edits(text):
        assert _findings([text, edited], str(path)) == _findings([edited], str(path))
