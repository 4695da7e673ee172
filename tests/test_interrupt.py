"""Ctrl-C: exit 130 with one line, and forked check workers leave the answer to the main process (no tracebacks)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from kubectl_wasdra.cli import main
from kubectl_wasdra.lint import parallel

GOOD = Path(__file__).resolve().parent.parent / "fixtures" / "manifests" / "check"


def test_interrupt_exits_130_with_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("kubectl_wasdra.lint.pipeline.run_check", interrupted)
    with pytest.raises(SystemExit) as exit_info:
        main(["check", str(GOOD)])
    _, err = capsys.readouterr()
    assert exit_info.value.code == 130
    assert err.strip().splitlines() == ["kubectl-wasdra: interrupted"]


def test_workers_ignore_ctrl_c() -> None:
    before = signal.getsignal(signal.SIGINT)
    try:
        parallel.ignore_ctrl_c()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
