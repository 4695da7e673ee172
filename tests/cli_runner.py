"""`kubectl-wasdra ARGV` run in the test process through cli.main, its one error boundary: (exit code, stdout, stderr)."""

from __future__ import annotations

import io
import sys

import pytest

from kubectl_wasdra.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: bytes | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    """The exit code and the captured output; `stdin` (with `monkeypatch`) is what the command reads for `-`."""
    if stdin is not None and monkeypatch is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err
