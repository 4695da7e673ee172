"""Time limits of a live read: the timeout of each request and the deadline of one whole read.

A request gets min(--request-timeout, time left before the read's deadline); a read that runs out of time turns the
kinds it has not listed yet into gaps instead of hanging.
The flags' syntax (kubectl's `--request-timeout`) is parsed by kube/durations.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

DEFAULT_REQUEST_TIMEOUT: Final = 30.0  # seconds per request (kubectl: none; a hung server must not hang a CI job)
DEFAULT_READ_DEADLINE: Final = 300.0  # seconds for one whole live read (version, discovery, every list)
CONNECT_TIMEOUT: Final = 3.0  # seconds to open a connection: an unreachable server is reported within this


@dataclass
class Deadline:
    """The end of one whole read (None: no end), and the timeout each request gets before it."""

    seconds: float | None = DEFAULT_READ_DEADLINE
    request_timeout: float | None = DEFAULT_REQUEST_TIMEOUT
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    started: float = field(init=False)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def left(self) -> float | None:
        """Seconds before the read's deadline (never below 0), None when there is none."""
        if self.seconds is None:
            return None
        return max(self.seconds - (self.clock() - self.started), 0.0)

    @property
    def passed(self) -> bool:
        left = self.left()
        return left is not None and left <= 0

    def timeout(self) -> float | None:
        """The time one request may take: the request timeout, cut to what is left of the read."""
        limits = [t for t in (self.request_timeout, self.left()) if t is not None]
        return min(limits) if limits else None

    def connect_timeout(self) -> float:
        """Seconds to open a connection: CONNECT_TIMEOUT, shorter when less is left."""
        return min(CONNECT_TIMEOUT, self.timeout() or CONNECT_TIMEOUT)
