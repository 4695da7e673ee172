"""Progress on stderr only on a terminal, never under CI, and only after a second of work (cli_progress.py)."""

from __future__ import annotations

import io

from kubectl_wasdra import cli_progress


def test_no_progress_under_ci_or_without_a_terminal(monkeypatch):
    monkeypatch.setattr(cli_progress.sys, "stderr", io.StringIO())
    monkeypatch.delenv("CI", raising=False)
    assert cli_progress.progress_for_stderr() is None  # not a terminal

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(cli_progress.sys, "stderr", Tty())
    assert cli_progress.progress_for_stderr() is not None
    monkeypatch.setenv("CI", "true")
    assert cli_progress.progress_for_stderr() is None


def test_nothing_is_shown_during_the_first_second(monkeypatch):
    progress = cli_progress.StderrProgress()
    progress("loading the snapshot")
    assert progress.status is None
    progress.started -= cli_progress.DELAY + 1
    shown = []

    class Status:
        def __init__(self, text: str) -> None:
            shown.append(text)

        def start(self) -> None:
            shown.append("started")

        def update(self, text: str) -> None:
            shown.append(text)

        def stop(self) -> None:
            shown.append("stopped")

    class Console:
        def __init__(self, **_: object) -> None:
            pass

        def status(self, text: str) -> Status:
            return Status(text)

    import rich.console

    monkeypatch.setattr(rich.console, "Console", Console)
    progress("simulating")
    progress.close()
    assert shown == ["simulating", "started", "stopped"]
