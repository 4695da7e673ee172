"""Progress on stderr for long runs: a rich status line that appears once the work has taken a second, only on a
terminal and never under CI; library code reports stages through the callback this module gives it."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Final

DELAY: Final = 1.0  # seconds of work before anything is shown
REFRESH: Final = 0.1  # seconds between updates of the line


class StderrProgress:
    """A callable taking the current stage's text; close() removes the line (it is transient)."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.shown = 0.0
        self.status: Any = None

    def __call__(self, text: str) -> None:
        now = time.monotonic()
        if now - self.started < DELAY or now - self.shown < REFRESH:
            return
        self.shown = now
        if self.status is None:
            from rich.console import Console

            self.status = Console(stderr=True, highlight=False).status(text)
            self.status.start()
        else:
            self.status.update(text)

    def close(self) -> None:
        """Stop and clear the status line, if one was shown."""
        if self.status is not None:
            self.status.stop()
            self.status = None


def progress_for_stderr() -> StderrProgress | None:
    """A progress reporter when stderr is a terminal and no CI variable is set, else None (nothing is printed)."""
    if os.environ.get("CI") or not sys.stderr.isatty():
        return None
    return StderrProgress()
