"""Every command documents its exit codes in its --help, and docs/exit-codes.md says the same, command by command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kubectl_wasdra.cli import cli

ROOT = Path(__file__).resolve().parent.parent
HEAD = "Exit codes (130 after Ctrl-C):"


def _help_rows(name: str) -> list[tuple[str, str]]:
    help_text = cli.all_commands()[name].help or ""
    assert HEAD in help_text, f"{name}: --help says nothing of exit codes"
    block = help_text.split(HEAD, 1)[1]
    return [tuple(line.split(None, 1)) for line in block.splitlines() if line.strip()]  # type: ignore[misc]


def _doc_rows(name: str) -> list[tuple[str, str]]:
    text = (ROOT / "docs" / "exit-codes.md").read_text(encoding="utf-8")
    section = text.split(f"## `kubectl wasdra {name}`\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| (\d+) \| (.+?) \|$", section, re.M)


@pytest.mark.parametrize("name", sorted(cli.all_commands()))
def test_help_and_docs_agree_on_exit_codes(name: str) -> None:
    rows = _help_rows(name)
    assert rows and rows[0][0] == "0" and rows[-1][0] == "2"  # success first, "could not do the job" last
    assert _doc_rows(name) == rows
